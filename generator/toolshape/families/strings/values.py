"""Strings of the length bounds and patterns, and the length bounds themselves (witness stage).

``witness/values.py`` asks this module what the family's keywords of one alternative say of
a string: :func:`length_bounds` (the tightest length range), :func:`patterns` (the patterns
every string must match, and those the schemas that must not hold exclude), :func:`fillers`
(plain strings at and inside the length bounds, tried after the pattern search) and
:func:`constrains` whether a schema says anything of strings; :func:`of_lengths` writes a
length range as keywords (``families/formats/values.py``'s samples, the cases' exact lengths);
:func:`pattern_of` and :func:`matching` read and write the one-keyword schema of a pattern (a near miss fails only
by it; a key matches a patternProperties pattern). The pattern search itself is
``regex/witness.py``, called through ``witness/sources.py``; every value is still confirmed
by the reference evaluator by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from ...families.values.rules import TYPE
from ...schema.values import count_or

#: The keyword holding the pattern, the code it reports under.
PATTERN = "pattern"
#: The longest plain string built (bounds above it get no filler).
MAX_STRING = 100_001
#: The units the plain strings repeat: letters, digits, punctuation, a non-ASCII letter.
FILLER_UNITS = ("a", "x", "A", "0", "ab", "a1", "-", "é")


def constrains(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` holds any of the family's keywords."""
    return any(k in schema for k in ("minLength", "maxLength", PATTERN))


def length_bounds(flat: Sequence[dict[str, Any]]) -> tuple[int, int | None]:
    """The tightest length range of ``flat`` (every schema must hold): its lowest length, and
    its highest (None: no upper bound)."""
    low = max((count_or(s.get("minLength"), 0) for s in flat), default=0)
    highs = [count_or(s["maxLength"], 0) for s in flat if "maxLength" in s]
    return low, (min(highs) if highs else None)


def of_lengths(low: int, high: int | None) -> dict[str, Any]:
    """The keywords of the strings of ``low`` to ``high`` characters (None: no upper bound)."""
    keywords: dict[str, Any] = {"minLength": low}
    if high is not None:
        keywords["maxLength"] = high
    return keywords


def pattern_of(schema: dict[str, Any]) -> str | None:
    """The pattern of ``schema`` (None: it has none, or not a string)."""
    pattern = schema.get(PATTERN)
    return pattern if isinstance(pattern, str) else None


def matching(pattern: str) -> dict[str, Any]:
    """The schema a string passes when ``pattern`` matches in it."""
    return {PATTERN: pattern}


def patterns(flat: Sequence[dict[str, Any]], negated: Sequence[Any]) -> tuple[list[str], list[str]]:
    """The patterns every string must match (of ``flat``), and those it must not (a schema
    that must not hold and says nothing but a pattern, and perhaps a type)."""
    wanted = sorted({s[PATTERN] for s in flat if isinstance(s.get(PATTERN), str)})
    excluded = sorted(
        {
            n[PATTERN]
            for n in negated
            if isinstance(n, dict) and isinstance(n.get(PATTERN), str) and set(n) <= {PATTERN, TYPE}
        }
    )
    return wanted, excluded


def fillers(low: int, high: int | None) -> Iterator[str]:
    """Plain strings at the length bounds and a few lengths inside them."""
    if low > MAX_STRING:
        return
    top = high if high is not None else max(low, 8)
    for length in sorted({low, min(top, max(low, 1)), min(top, max(low, 5)), top}):
        for unit in FILLER_UNITS:
            yield (unit * length)[:length]
