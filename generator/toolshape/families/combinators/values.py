"""How the witness engine reads the combinators (witness stage): which subschemas a value must
match together, which choices it has, and which subschemas it must not match.

``witness/values.py`` reads a schema as a conjunction: the schema, every subschema that
applies with it (:func:`conjuncts`: an ``allOf``'s entries), one option of each choice
(:func:`choices`: a branch of each ``anyOf`` and ``oneOf``, a side of each ``if``) and the
subschemas no value may match (:func:`negated`: a ``not``). A candidate is confirmed by the
reference evaluator against the whole schema, so ``oneOf``'s "exactly one" and ``not`` are
enforced there; the options only steer the search.

:func:`negation` is the schema a value matches when it does not match another: the stages
and the other families write "not this" through it.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

#: One option of a choice: (the schemas that hold together, the schemas that must not hold).
Option = tuple[list[Any], list[Any]]


def negation(schema: Any) -> dict[str, Any]:
    """The schema of the values ``schema`` refuses."""
    return {"not": schema}


def conjuncts(schema: dict[str, Any]) -> list[Any]:
    """The subschemas that hold wherever ``schema`` holds (its ``allOf``)."""
    return list(schema.get("allOf", []))


def choices(schema: dict[str, Any]) -> Iterator[list[Option]]:
    """Each choice ``schema`` leaves a value: its options, in the order they are tried."""
    if isinstance(schema.get("anyOf"), list):
        yield [([branch], []) for branch in schema["anyOf"]]
    if isinstance(schema.get("oneOf"), list):
        branches = schema["oneOf"]
        yield [([b], [o for o in branches if o is not b]) for b in branches]
    if "if" in schema:
        yield [
            ([schema["if"], schema.get("then", True)], []),
            ([schema.get("else", True)], [schema["if"]]),
        ]


def alternatives(schema: dict[str, Any]) -> Iterator[list[Any]]:
    """Each list of branches of ``schema`` a value takes one of (its ``anyOf``, its ``oneOf``)."""
    for keyword in ("anyOf", "oneOf"):
        yield list(schema.get(keyword, ()))


def unions(schema: dict[str, Any]) -> Iterator[tuple[str, list[Any]]]:
    """Each list of branches ``schema`` holds that a value takes one of, with the keyword
    holding it (``anyOf``, ``oneOf``): codegen/typing_model.py types such a value as the
    union of its branches' types."""
    for keyword in ("anyOf", "oneOf"):
        branches = schema.get(keyword)
        if isinstance(branches, list) and branches:
            yield keyword, branches


def intersections(schema: dict[str, Any]) -> Iterator[tuple[str, list[Any]]]:
    """Each list of subschemas that all hold with ``schema`` (its ``allOf``), with the keyword
    holding it: codegen/typing_model.py types such a value by all of them at once."""
    entries = schema.get("allOf")
    if isinstance(entries, list) and entries:
        yield "allOf", entries


def negated(schema: dict[str, Any]) -> list[Any]:
    """The subschemas no value of ``schema`` matches (its ``not``)."""
    return [schema["not"]] if "not" in schema else []
