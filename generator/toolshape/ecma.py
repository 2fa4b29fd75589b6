"""A thin alias kept for callers outside the regex package that still import it (diff.py).

The ECMA-262 pattern core lives in ``toolshape.regex``; new code imports from there.
"""

from __future__ import annotations

from .regex import WHITESPACE, PatternError
from .regex import translate as translate_pattern

__all__ = ["WHITESPACE", "PatternError", "translate_pattern"]
