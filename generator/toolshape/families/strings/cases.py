"""The derived cases of a string's length bounds and pattern (codegen stage).

``codegen/cases.py`` asks :func:`bound_variants` for the cases of a string value: one
character short of ``minLength`` and one past ``maxLength``, a string of exactly each bound
(when the engine finds one the whole schema accepts), and a near miss of ``pattern`` (from
the pattern search, else a few plain strings the pattern refuses). A bound too long to write
into a test is left out and said in the contract's warning instead. Every case's outcome is
judged by the reference evaluator by the caller.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any, Protocol

from ...contract.reference import errors_of
from ...families.values.rules import TYPE
from ...schema.pointers import SchemaPath
from ...schema.values import count_at
from ...witness.values import Engine
from . import values

#: The longest string a derived case holds: a length bound above it is not tested at its
#: edge (the case is left out, with a warning), so a test file stays small.
MAX_EDGE_LENGTH = 100_000


class Deriver(Protocol):
    """What the family uses of ``codegen/cases.py``'s deriver."""

    schema: Any
    engine: Engine

    def satisfying(self, schemas: list[Any], count: int = 1) -> list[Any]: ...

    def too_large(self, schema_path: SchemaPath, what: str) -> None: ...


def bound_variants(
    deriver: Deriver, schema: dict[str, Any], schema_path: SchemaPath, value: str
) -> Iterator[tuple[str, Any]]:
    """The cases of ``schema``'s length bounds and pattern, each a name and the string."""
    fill = value[-1:] or "a"
    if "minLength" in schema and count_at(schema, "minLength") > 0:
        n = count_at(schema, "minLength")
        if n > MAX_EDGE_LENGTH + 1:
            deriver.too_large(schema_path, f"the minLength {n} edge cases")
        else:
            yield f"minLength {n} - 1", value[: n - 1] if len(value) >= n else value
            yield from _exactly(deriver, schema, f"minLength {n} exactly", n)
    if "maxLength" in schema:
        n = count_at(schema, "maxLength")
        if n >= MAX_EDGE_LENGTH + 1:
            deriver.too_large(schema_path, f"the maxLength {n} edge cases")
        else:
            yield f"maxLength {n} + 1", (value + fill * (n + 1))[: n + 1]
            yield from _exactly(deriver, schema, f"maxLength {n} exactly", n)
    if "pattern" in schema:
        for bad in deriver.engine.near_misses(schema, 1) or _plain_misses(deriver, schema):
            yield "does not match the pattern", bad


def _plain_misses(deriver: Deriver, schema: dict[str, Any]) -> list[str]:
    """The first plain string the pattern refuses, when the pattern search found none."""
    shortest = "?" * max(count_at(schema, "minLength", 1), 1)
    candidates = ("", " ", "!", shortest, "a b", "0")
    refusing = {"pattern": schema["pattern"]}
    return [bad for bad in candidates if errors_of(refusing, bad, "", root=deriver.schema)][:1]


def _exactly(
    deriver: Deriver, schema: dict[str, Any], name: str, length: int
) -> Iterator[tuple[str, Any]]:
    """An accepted string of exactly ``length`` characters, when the engine finds one."""
    for found in deriver.satisfying([schema, _exact_length(length)]):
        yield name, found


@functools.lru_cache(maxsize=1024)
def _exact_length(length: int) -> dict[str, Any]:
    """The schema of the strings of exactly ``length`` characters, one object per length: the
    engine remembers a conjunction by its schemas' objects, so a schema asked again for the
    same length (each item of an array is walked) is answered from that memory instead of
    searched again. Nothing changes a schema the engine is handed."""
    return {TYPE: "string", **values.of_lengths(length, length)}
