"""toolshape: tool contracts in YAML -> standalone Python validator modules and their tests."""

__version__ = "0.1.0"
