"""anyOf/oneOf with a branch that constrains nothing generates, in every position (issue 24).

pydantic writes ``Any | None`` as ``anyOf: [{}, {type: null}]``; ``true`` and an
annotation-only schema (``{description: any}``) constrain nothing either. Such a union once
printed ``if x is not None:`` with nothing under it, and ``generate`` failed on invalid
Python. Each shape below is put in each position a subschema can take, generated the whole
way (check, model, render, compile, derived cases against the reference evaluator), and the
module's verdicts are held against jsonschema's Draft202012Validator.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any

import pytest
from support import CONTEXT, verdicts_unlike_jsonschema
from toolshape.project import pipeline, runtime

#: The branches that constrain nothing.
UNCONSTRAINED: dict[str, Any] = {"empty": {}, "true": True, "annotation": {"description": "any"}}

#: The other branch of the union: null (the "optional" spelling), or a type that is not null.
OTHERS: dict[str, Any] = {"null": {"type": "null"}, "string": {"type": "string"}}


def _unions() -> dict[str, Any]:
    """Each unconstrained branch with each other branch, in anyOf and oneOf, either order."""
    found = {}
    for name, free in UNCONSTRAINED.items():
        for other_name, other in OTHERS.items():
            for union in ("anyOf", "oneOf"):
                found[f"{union}-{name}-{other_name}"] = {union: [free, other]}
                found[f"{union}-{other_name}-{name}"] = {union: [other, free]}
    return found


UNIONS = _unions()

#: Values the union is tried on, wherever it sits.
VALUES: list[Any] = [None, 1, "s", [], {"k": 2}]


def _typed(union: Any) -> Any:
    """The union beside a type that admits null and a string."""
    return {**union, "type": ["string", "null"]}


def _positions(union: Any) -> dict[str, tuple[dict[str, Any], list[Any]]]:
    """Each position a subschema can take, as (parameters, the arguments tried)."""
    at_x = [{"x": value} for value in VALUES] + [{}]
    return {
        "property": ({"type": "object", "properties": {"x": union}}, at_x),
        "typed property": ({"type": "object", "properties": {"x": _typed(union)}}, at_x),
        "nested property": (
            {"type": "object", "properties": {"o": {"type": "object", "properties": {"x": union}}}},
            [{"o": arguments} for arguments in at_x],
        ),
        "array items": (
            {"type": "object", "properties": {"x": {"type": "array", "items": union}}},
            [{"x": VALUES}, {"x": []}],
        ),
        "prefixItems": (
            {"type": "object", "properties": {"x": {"type": "array", "prefixItems": [union]}}},
            [{"x": [value]} for value in VALUES],
        ),
        "additionalProperties": (
            {"type": "object", "additionalProperties": union},
            [{"z": value} for value in VALUES],
        ),
        "patternProperties": (
            {"type": "object", "patternProperties": {"^z": union}},
            [{"z": value} for value in VALUES],
        ),
        "patternProperties, others refused": (
            {"type": "object", "patternProperties": {"^z": union}, "additionalProperties": False},
            [{"z": value} for value in VALUES] + [{"y": 1}],
        ),
        "$defs through $ref": (
            {"type": "object", "properties": {"x": {"$ref": "#/$defs/d"}}, "$defs": {"d": union}},
            at_x,
        ),
        "allOf": ({"type": "object", "properties": {"x": {"allOf": [union]}}}, at_x),
        "oneOf": (
            {"type": "object", "properties": {"x": {"oneOf": [union, {"type": "integer"}]}}},
            at_x,
        ),
        "not": ({"type": "object", "properties": {"x": {"not": union}}}, at_x),
        "if-then-else": (
            {"type": "object", "properties": {"x": {"if": union, "then": union, "else": union}}},
            at_x,
        ),
        "then and else": (
            {
                "type": "object",
                "properties": {"x": {"if": {"type": "string"}, "then": union, "else": union}},
            },
            at_x,
        ),
        "dependentSchemas": (
            {"type": "object", "dependentSchemas": {"k": union}},
            [{"k": value} for value in VALUES],
        ),
        "propertyNames": (
            {"type": "object", "propertyNames": union},
            [{"k": value} for value in VALUES],
        ),
        "contains": (
            {"type": "object", "properties": {"x": {"type": "array", "contains": union}}},
            [{"x": [value]} for value in VALUES] + [{"x": []}],
        ),
    }


POSITIONS = list(_positions({}))


@pytest.mark.parametrize("position", POSITIONS)
@pytest.mark.parametrize("shape", list(UNIONS))
def test_generates_and_agrees_with_jsonschema(shape: str, position: str) -> None:
    parameters, tried = _positions(UNIONS[shape])[position]
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    raw = json.dumps(document).encode("utf-8")
    generated = pipeline.generate(raw, "t.yaml", PurePosixPath("t.yaml"), CONTEXT)
    compile(generated.test_source, "test_t.py", "exec")
    module = runtime.load_module(generated.module_source, "t.py", runtime.runtime_source(CONTEXT))
    wrong = verdicts_unlike_jsonschema(module, parameters, tried)
    assert not wrong, f"verdicts that differ from jsonschema's (arguments, jsonschema): {wrong}"


def test_any_or_null_checks_nothing() -> None:
    """``Any | None`` accepts every value, so its property prints no check at all."""
    parameters = {"type": "object", "properties": {"x": {"anyOf": [{}, {"type": "null"}]}}}
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    raw = json.dumps(document).encode("utf-8")
    generated = pipeline.generate(raw, "t.yaml", PurePosixPath("t.yaml"), CONTEXT)
    assert 'if "x" in value' not in generated.module_source
