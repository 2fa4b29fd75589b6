"""Where the engine gets strings: the pattern search (``toolshape.regex``) and the format
samples (``toolshape.families.formats.values``), each imported lazily in this one place.

Both are other modules' work; until they are there, small fallbacks keep the engine
usable (every value is confirmed by the reference evaluator anyway, so a fallback can
only find fewer witnesses, never a wrong one).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: Valid samples per format, used only when ``formats.valid`` is not available.
_VALID = {
    "date-time": ["2024-05-01T09:30:00Z", "2024-05-01T09:30:00+02:00"],
    "date": ["2024-05-01", "1999-12-31"],
    "time": ["09:30:00Z", "23:59:59+01:00"],
    "duration": ["P3D", "PT1H30M", "P1Y2M10DT2H30M"],
    "email": ["ada@example.com", "a@b.co"],
    "hostname": ["example.com", "a", "host-1.example.org"],
    "ipv4": ["192.0.2.1", "10.0.0.255"],
    "ipv6": ["2001:db8::1", "::1", "fe80::1:2:3:4"],
    "uri": ["https://example.com/", "urn:isbn:0451450523", "a:b"],
    "uuid": ["3f2b8c9e-4d5a-4e6f-8a7b-9c0d1e2f3a4b"],
}
#: Invalid samples per format (near misses), used only when ``formats.invalid`` is not available.
_INVALID = {
    "date-time": ["2024-05-01 09:30:00", "2024-13-01T09:30:00Z"],
    "date": ["2024-02-30", "2024-5-1"],
    "time": ["25:00:00Z", "09:30:00"],
    "duration": ["P", "PT", "3D"],
    "email": ["ada.example.com", "ada@"],
    "hostname": ["-example.com", "exa mple.com"],
    "ipv4": ["192.0.2.256", "192.0.2"],
    "ipv6": ["2001:db8::g", "12345::"],
    "uri": ["example.com/path", "//example.com"],
    "uuid": ["3f2b8c9e-4d5a-4e6f-8a7b-9c0d1e2f3a4", "3f2b8c9e4d5a4e6f8a7b9c0d1e2f3a4b"],
}


@dataclass(frozen=True)
class Found:
    """Strings a search found, and whether it finished (False: its steps ran out)."""

    found: tuple[str, ...]
    complete: bool


def _regex() -> Any:
    try:
        from .. import regex
    except ImportError:
        return None
    return regex


def pattern_strings(
    patterns: Sequence[str],
    *,
    excluded: Sequence[str] = (),
    min_length: int = 0,
    max_length: int | None = None,
    count: int = 1,
    steps: int,
) -> Found:
    """Strings every pattern matches (re.search meaning) and no excluded pattern matches."""
    regex = _regex()
    if regex is None or steps <= 0:
        return Found((), steps > 0)
    try:
        search = regex.strings(
            list(patterns),
            excluded=list(excluded),
            min_length=min_length,
            max_length=max_length,
            count=count,
            steps=steps,
        )
    except regex.PatternError:
        return Found((), True)
    return Found(tuple(search.found), bool(search.complete))


def pattern_near_misses(
    pattern: str, *, min_length: int = 0, max_length: int | None = None, count: int = 1, steps: int
) -> Found:
    """Strings just outside the pattern's language (one character off, one too few or many)."""
    regex = _regex()
    if regex is None or not hasattr(regex, "near_misses") or steps <= 0:
        return Found((), steps > 0)
    try:
        search = regex.near_misses(
            pattern, min_length=min_length, max_length=max_length, count=count, steps=steps
        )
    except regex.PatternError:
        return Found((), True)
    return Found(tuple(search.found), bool(search.complete))


def format_valid(name: str, min_length: int = 0, max_length: int | None = None) -> list[str]:
    """Valid strings of a format within the length bounds (unconfirmed when from the fallback)."""
    try:
        from ..families.formats import values as formats
    except ImportError:
        return _within(_VALID.get(name, []), min_length, max_length)
    return list(formats.valid(name, min_length, max_length))


def format_invalid(name: str, min_length: int = 0, max_length: int | None = None) -> list[str]:
    """Strings just outside a format, within the length bounds."""
    try:
        from ..families.formats import values as formats
    except ImportError:
        return _within(_INVALID.get(name, []), min_length, max_length)
    return list(formats.invalid(name, min_length, max_length))


def _within(samples: list[str], low: int, high: int | None) -> list[str]:
    return [s for s in samples if len(s) >= low and (high is None or len(s) <= high)]
