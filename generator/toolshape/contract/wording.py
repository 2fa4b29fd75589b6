"""How contract problems name values: "an integer", a short JSON rendering.

Shared by the contract check and the families' contract rules (``families/*/rules.py``), so
that every message says a value the same way.
"""

from __future__ import annotations

import json


def with_article(noun: str) -> str:
    """``noun`` with its indefinite article: an integer, a string (but plain null)."""
    if noun == "null":
        return noun
    return ("an " if noun[:1] in "aeiou" else "a ") + noun


def yaml_text(value: object, limit: int = 40) -> str:
    """A short JSON rendering of a contract value for messages."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."
