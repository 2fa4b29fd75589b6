"""How contract problems name values: "an integer", a short JSON rendering, a did-you-mean.

Shared by the contract check and the families' contract rules (``families/*/rules.py``), so
that every message says a value the same way.
"""

from __future__ import annotations

import difflib
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


def suggest(word: str, known: tuple[str, ...]) -> str:
    """A did-you-mean hint for ``word`` among ``known``, or ``""``."""
    lowered = {k.lower(): k for k in known}
    if word.lower() in lowered:
        return f"; did you mean '{lowered[word.lower()]}'?"
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""
