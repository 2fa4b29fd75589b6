"""Other tool formats: contracts exported as platform tool definitions (``export``), and
existing JSON Schemas and tool lists imported as contracts (``importer``).

A side road: it reads checked contracts and writes contract YAML, and nothing in generation
depends on it.
"""
