"""The derived case of an asserted ``format`` (codegen stage).

``codegen/cases.py`` asks :func:`bound_variants` for the cases of a string value: a near
miss of its format (``values.invalid``, through the witness engine, which confirms that it
fails by the format alone). Its outcome is judged by the reference evaluator by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...witness.values import Engine
from . import values


def bound_variants(engine: Engine, schema: dict[str, Any]) -> Iterator[tuple[str, Any]]:
    """The case of ``schema``'s format, a name and the string (none when it names none)."""
    name = values.format_of(schema)
    if name is None:
        return
    for bad in engine.format_misses(schema, 1):
        yield f"not a valid {name}", bad
