"""``python -m toolshape``."""

from .cli import run

run()
