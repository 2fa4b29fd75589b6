"""The reference evaluation of ``minLength``, ``maxLength`` and ``pattern`` (contract stage).

Part of the oracle of the generated tests: ``contract/reference.py`` calls :func:`refused`
on every string it meets. A length counts code points (Python's ``len``), as JSON Schema
counts characters. A string over ``maxLength`` is not tried against ``pattern`` (README,
"Semantics": the generated check stops there too, so a pattern may rely on the bound). The
pattern is matched by toolshape's own counted matcher (``regex.matcher``), never by a
backtracking ``re`` call. Plain on purpose, and written apart from the generated checks
(``checks.py``).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...regex.matcher import search as pattern_search


def refused(schema: dict[str, Any], value: str) -> Iterator[str]:
    """The family's keywords of ``schema`` that refuse the string ``value``."""
    if len(value) < schema.get("minLength", 0):
        yield "minLength"
    too_long = "maxLength" in schema and len(value) > schema["maxLength"]
    if too_long:
        yield "maxLength"
    if "pattern" in schema and not too_long and not pattern_search(schema["pattern"], value):
        yield "pattern"
