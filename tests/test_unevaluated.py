"""``unevaluatedProperties`` and ``unevaluatedItems`` (issue 24), through generated code.

What a schema evaluates is decided at generation time where it can be (a static set: a plain
loop, like ``additionalProperties``'), and at run time where a conditional applicator (an
``anyOf``/``oneOf`` branch, ``if``/``then``/``else``, a ``dependentSchemas`` entry) evaluates
some keys (a dynamic set: each condition decided once per value, then the same loop). Shown
here for both classes:

- the generated validator, the reference evaluator and ``jsonschema`` (2020-12) agree on the
  derived cases (``codegen/cases.py``), on the witness engine's accepted values and on their
  mutations (a key added, dropped, an item appended, removed), for every schema of SCHEMAS;
- the static set prints no guard and no call; the dynamic one decides each condition once;
- the work of a dynamic set is linear in the number of keys and items (counted, not timed);
- an unevaluated key's error names it, with did-you-mean; the platforms' exports leave the
  keywords out with a note, and the JSON Schema export keeps them;
- the contract check warns of a required key nothing could evaluate; ``toolshape diff``
  finds a witness for an added keyword and rules no direction out below it.
"""

from __future__ import annotations

import json
import re
import types
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

import black
import jsonschema
import pytest
from support import CONTEXT, build_module
from test_diff_determined import compare, tool
from toolshape.codegen import cases, layout
from toolshape.contract import checker, source
from toolshape.contract.reference import errors_of
from toolshape.platforms import export
from toolshape.project import pipeline
from toolshape.project.runtime import runtime_module
from toolshape.review.report import REASON_PLACE
from toolshape.witness.values import Engine
from work_counting import assert_linear

#: Schemas of the property ``v`` (each name says what decides the evaluated set), the static
#: ones first. Both keywords, each applicator that evaluates, each one that decides.
SCHEMAS: dict[str, dict[str, Any]] = {
    "static: properties and patterns": {
        "type": "object",
        "properties": {"a": {"type": "integer"}},
        "patternProperties": {"^x-": {"type": "string"}},
        "unevaluatedProperties": False,
    },
    "static: allOf and $ref": {
        "type": "object",
        "allOf": [{"properties": {"a": {"type": "integer"}}}, {"$ref": "#/$defs/named"}],
        "unevaluatedProperties": {"type": "boolean"},
    },
    "static: nested unevaluatedProperties": {
        "type": "object",
        "properties": {"a": {}},
        "allOf": [{"properties": {"b": {}}, "unevaluatedProperties": {"type": "integer"}}],
        "unevaluatedProperties": False,
    },
    "static: prefixItems and contains": {
        "type": "array",
        "prefixItems": [{"type": "integer"}],
        "contains": {"const": 2},
        "unevaluatedItems": {"type": "boolean"},
    },
    "static: items in allOf": {
        "type": "array",
        "allOf": [{"prefixItems": [{}, {}]}],
        "unevaluatedItems": False,
    },
    "dynamic: anyOf": {
        "type": "object",
        "anyOf": [
            {"properties": {"a": {"const": 1}}, "required": ["a"]},
            {"properties": {"b": {"type": "string"}}, "required": ["b"]},
        ],
        "unevaluatedProperties": False,
    },
    "dynamic: oneOf with patterns": {
        "type": "object",
        "oneOf": [
            {"patternProperties": {"^a": {}}, "required": ["a1"]},
            {"properties": {"b": {}}, "required": ["b"]},
        ],
        "unevaluatedProperties": False,
    },
    "dynamic: if, then and else": {
        "type": "object",
        "properties": {"kind": {"enum": ["x", "y"]}},
        "if": {"properties": {"kind": {"const": "x"}}, "required": ["kind"]},
        "then": {"properties": {"x": {"type": "integer"}}},
        "else": {"properties": {"y": {"type": "integer"}}},
        "unevaluatedProperties": False,
    },
    "dynamic: if alone": {
        "type": "object",
        "if": {"properties": {"a": {"const": 1}}},
        "unevaluatedProperties": {"type": "string"},
    },
    "dynamic: dependentSchemas": {
        "type": "object",
        "properties": {"card": {"type": "string"}},
        "dependentSchemas": {"card": {"properties": {"cvv": {"type": "string"}}}},
        "unevaluatedProperties": False,
    },
    "dynamic: nested anyOf in allOf": {
        "type": "object",
        "allOf": [
            {"anyOf": [{"properties": {"a": {"type": "integer"}}}, {"properties": {"b": {}}}]}
        ],
        "unevaluatedProperties": False,
    },
    "dynamic: anyOf of items": {
        "type": "array",
        "anyOf": [
            {"prefixItems": [{"type": "integer"}]},
            {"prefixItems": [{"type": "string"}, {"type": "string"}]},
        ],
        "unevaluatedItems": False,
    },
    "dynamic: if of items with contains": {
        "type": "array",
        "if": {"contains": {"type": "null"}},
        "then": {"items": {"type": ["null", "integer"]}},
        "else": {"contains": {"type": "string"}},
        "unevaluatedItems": {"type": "boolean"},
    },
}


def parameters(schema: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {"v": schema},
        "required": ["v"],
        "$defs": {"named": {"properties": {"n": {"type": "string"}}}},
    }


def contract(schema: dict[str, Any]) -> checker.Contract:
    document = {"name": "t", "description": "A tool.", "parameters": parameters(schema)}
    return checker.check(source.load(json.dumps(document).encode("utf-8"), "t.yaml"))


def mutations(value: Any) -> list[Any]:
    """``value`` with one key added, dropped or renamed, or one item added or dropped, at
    every object and array inside it (the root included)."""
    found: list[Any] = []
    if isinstance(value, dict):
        for extra in ("a", "b", "x", "x-1", "a1", "n", "cvv", "other"):
            for item in (1, "s", True, None):
                found.append({**value, extra: item})
        for key in value:
            found.append({k: v for k, v in value.items() if k != key})
            found += [{**value, key: inner} for inner in mutations(value[key])]
    elif isinstance(value, list):
        for item in (1, "s", True, None, 2):
            found.append([*value, item])
        found += [value[:i] + value[i + 1 :] for i in range(len(value))]
        for i, item in enumerate(value):
            found += [value[:i] + [inner] + value[i + 1 :] for inner in mutations(item)]
    return found


def instances(schema: dict[str, Any]) -> list[Any]:
    """The derived cases of the contract, the witness engine's accepted values of ``v``,
    and each mutation of them."""
    derived = [case.data for case in cases.derive(contract(schema)).cases]
    params = parameters(schema)
    accepted = Engine(params).accepted(params["properties"]["v"], 6)
    values = [*derived, *({"v": v} for v in accepted)]
    return values + [m for value in values for m in mutations(value)]


@pytest.mark.parametrize("name", SCHEMAS)
def test_generated_reference_and_jsonschema_agree(name: str) -> None:
    schema = SCHEMAS[name]
    params = parameters(schema)
    module = build_module(params)
    oracle = jsonschema.Draft202012Validator(params)
    tried = instances(schema)
    verdicts = {True: 0, False: 0}
    for arguments in tried:
        expected = oracle.is_valid(arguments)
        verdicts[expected] += 1
        assert module.validate(arguments).ok == expected, (arguments, expected)
        reference_accepts = not errors_of(params, arguments, "", root=params)
        assert reference_accepts == expected, arguments
    # Both verdicts are met many times: the instances tell the keyword's outcome apart.
    assert verdicts[True] >= 3 and verdicts[False] >= 3, verdicts


def test_the_derived_cases_include_an_unevaluated_key_and_item() -> None:
    for name, schema in SCHEMAS.items():
        derived = cases.derive(contract(schema)).cases
        what = "unevaluated key" if schema["type"] == "object" else "one item more"
        assert any(what in case.name for case in derived), (name, [c.name for c in derived])


def _source(schema: dict[str, Any]) -> str:
    document = {"name": "t", "description": "A tool.", "parameters": parameters(schema)}
    raw = json.dumps(document).encode()
    return pipeline.generate_module(raw, "t.yaml", PurePosixPath("t.yaml"), CONTEXT).source


@pytest.mark.parametrize("name", [n for n in SCHEMAS if n.startswith("static")])
def test_a_static_set_is_a_plain_loop(name: str) -> None:
    text = _source(SCHEMAS[name])
    block = text[text.index("# unevaluated") :]
    assert "passed" not in block and "has_key" not in block
    # The comment, then at once the loop over the keys (items).
    assert block.splitlines()[1].lstrip().startswith("for "), block[:300]


#: A guard's assignment (the first of a kind is ``passed``, the next ``passed_2``, ...).
GUARD = re.compile(r"\b(passed|has_key)(_\d+)? = ")


@pytest.mark.parametrize("name", [n for n in SCHEMAS if n.startswith("dynamic")])
def test_a_dynamic_set_decides_each_condition_once(name: str) -> None:
    text = _source(SCHEMAS[name])
    lines = text[text.index("# unevaluated") :].splitlines()
    loop = next(i for i, line in enumerate(lines) if line.lstrip().startswith("for "))
    guards, body = "\n".join(lines[:loop]), "\n".join(lines[loop:])
    assert GUARD.search(guards), guards
    assert not GUARD.search(body), body


def test_nothing_is_printed_where_a_sibling_evaluates_every_key() -> None:
    for closed in (
        {"type": "object", "additionalProperties": {}, "unevaluatedProperties": False},
        {"type": "array", "items": {}, "unevaluatedItems": False},
        {
            "type": "object",
            "allOf": [{"additionalProperties": True}],
            "unevaluatedProperties": False,
        },
    ):
        assert "# unevaluated" not in _source(closed), closed


def test_an_unevaluated_key_is_named_with_did_you_mean() -> None:
    module = build_module(parameters(SCHEMAS["static: properties and patterns"]))
    (error,) = module.validate({"v": {"a": 1, "A": 2}}).errors
    assert (error.path, error.code) == ("/v/A", "unevaluatedProperties")
    assert error.message.startswith('unknown key "A" is not allowed in "v"')
    assert error.message.endswith('did you mean "a"?')
    # A dynamic set: a key a branch names, when that branch failed, is refused too.
    module = build_module(parameters(SCHEMAS["dynamic: anyOf"]))
    (error,) = module.validate({"v": {"a": 2, "b": "s"}}).errors
    assert (error.path, error.code) == ("/v/a", "unevaluatedProperties")
    # ... and the key is never suggested as its own correction.
    assert 'did you mean "a"' not in error.message, error.message


def test_exports_keep_or_leave_out_the_keywords_with_a_note() -> None:
    """Kept where the platform takes JSON Schema as written; left out with a note where it
    does not (never silently dropped)."""
    checked = contract({"type": "object", "properties": {"a": {}}, "unevaluatedProperties": False})
    kept = export.export(checked, "jsonschema")
    assert "unevaluatedProperties" in json.dumps(kept.definition)
    left_out = set()
    for target in export.TARGETS:
        try:
            result = export.export(checked, target)
        except export.ExportError:
            continue
        if "unevaluatedProperties" not in json.dumps(result.definition):
            assert any("unevaluatedProperties" in note for note in result.notes), target
            left_out.add(target)
    assert left_out == {"anthropic", "gemini-legacy"}  # as docs/contract.md says


@pytest.mark.parametrize(
    "schema, items",
    [
        ({"prefixItems": [{}], "unevaluatedItems": False}, False),
        (
            {"prefixItems": [{}], "contains": {"type": "string"}, "unevaluatedItems": False},
            {"anyOf": [{"type": "string"}, False]},
        ),
        ({"anyOf": [{"prefixItems": [{}]}, {}], "unevaluatedItems": False}, {}),
    ],
    ids=["prefix", "prefix and contains", "dynamic"],
)
def test_openai_fills_in_items_that_mean_what_unevaluated_items_means(
    schema: dict[str, Any], items: Any
) -> None:
    """OpenAI needs ``items`` on every array; an empty one would evaluate every item, so
    where the evaluated set is the node's own prefix and contains, items takes its meaning."""
    checked = contract({"type": "array", **schema})
    result = export.export(checked, "openai")
    exported = result.definition["function"]["parameters"]["properties"]["v"]
    assert exported["items"] == items
    if items == {}:  # a dynamic set has no such items: the model reads a looser schema
        assert not result.strict


# -- linear work --------------------------------------------------------------------------

LINEAR = parameters(
    {
        "type": "object",
        "properties": {"k": {"type": "string"}},
        "anyOf": [
            {"properties": {"a": {"type": "integer"}}},
            {"patternProperties": {"^b": {"type": "integer"}}},
        ],
        "if": {"required": ["k"]},
        "then": {"properties": {"t": {}}},
        "dependentSchemas": {"k": {"properties": {"d": {}}}},
        "unevaluatedProperties": {"type": "integer"},
    }
)
LINEAR["properties"]["w"] = {
    "type": "array",
    "anyOf": [{"prefixItems": [{"type": "integer"}]}, {"contains": {"type": "string"}}],
    "unevaluatedItems": {"type": "integer"},
}


def _module() -> types.ModuleType:
    document = {"name": "linear_unevaluated", "description": "A tool.", "parameters": LINEAR}
    raw = json.dumps(document).encode()
    return pipeline.generate_module(raw, "x.yaml", PurePosixPath("x.yaml"), CONTEXT).module


@pytest.mark.parametrize(
    "label, make",
    [
        ("keys", lambda n: {"v": {"k": "s", **{f"b{i}": i for i in range(n)}}}),
        ("unevaluated keys", lambda n: {"v": {f"z{i}": i for i in range(n)}}),
        ("items", lambda n: {"v": {}, "w": ["s"] + list(range(n))}),
    ],
)
def test_a_dynamic_set_costs_work_linear_in_the_value(
    label: str, make: Callable[[int], Any]
) -> None:
    validator = _module()
    assert validator.validate(make(3)).ok

    def call(n: int) -> Callable[[], object]:
        value = make(n)
        return lambda: validator.validate(value).feedback()

    assert_linear(f"unevaluated: {label}", call, 300, validator, runtime_module())


# -- the contract check ---------------------------------------------------------------------


def _warnings(params: dict[str, Any]) -> list[str]:
    document = {"name": "t", "description": "A tool.", "parameters": params}
    checked = checker.check(source.load(json.dumps(document).encode("utf-8"), "t.yaml"))
    return [w.message for w in checked.warnings]


def test_a_required_key_nothing_evaluates_is_warned_of() -> None:
    (message,) = _warnings(
        {
            "type": "object",
            "properties": {"name": {}},
            "required": ["nmae"],
            "unevaluatedProperties": False,
        }
    )
    assert "'nmae' is required but unevaluatedProperties: false refuses it" in message
    assert "no object can pass here; did you mean 'name'?" in message


@pytest.mark.parametrize(
    "evaluating",
    [
        {"anyOf": [{"properties": {"k": {}}}, {"type": "object"}]},
        {"allOf": [{"$ref": "#/$defs/k"}]},
        {"patternProperties": {"^k": {}}},
        {"dependentSchemas": {"a": {"additionalProperties": True}}},
    ],
    ids=["anyOf branch", "$ref in allOf", "pattern", "dependentSchemas"],
)
def test_no_warning_where_something_may_evaluate_the_key(evaluating: dict[str, Any]) -> None:
    params = {
        "type": "object",
        **evaluating,
        "required": ["k"],
        "unevaluatedProperties": False,
        "$defs": {"k": {"properties": {"k": {}}}},
    }
    assert _warnings(params) == []


# -- toolshape diff ---------------------------------------------------------------------------


def test_diff_finds_a_witness_and_keeps_every_direction_open_under_unevaluated() -> None:
    examples = [{"args": {"city": {"a": "x", "b": "yyyy"}, "unit": "c"}}]
    open_object = {"type": "object", "properties": {"a": {"type": "string"}}}
    composed = {**open_object, "allOf": [{"properties": {"b": {"type": "string"}}}]}
    closed = {**composed, "unevaluatedProperties": False}
    (change,) = compare(tool(composed, examples), tool(closed, examples)).changes
    assert (change.where, change.effect) == ("/properties/city/unevaluatedProperties", "breaking")
    (witness,) = change.witnesses
    assert (witness.old_status, witness.new_status) == ("accept", "reject")
    assert witness.cause[0][1] == "unevaluatedProperties"
    # A narrower schema under unevaluated* may also widen: no direction is ruled out.
    narrower = {**closed, "allOf": [{"properties": {"b": {"type": "string", "minLength": 3}}}]}
    (change,) = compare(tool(closed, examples), tool(narrower, examples)).changes
    assert change.reason == "whether it is also widening: " + REASON_PLACE


def test_a_sensitive_unevaluated_value_never_reaches_the_log() -> None:
    module = build_module(
        {
            "type": "object",
            "properties": {"user": {"type": "string"}},
            "allOf": [{"properties": {"mode": {"enum": ["a", "b"]}}}],
            "unevaluatedProperties": {"type": "string", "x-sensitive": True},
        }
    )
    for token in ("hunter2", 5):
        result = module.validate({"user": "bob", "mode": "a", "token": token})
        logged = json.dumps(result.log_record())
        assert '"bob"' in logged and '"a"' in logged and "hunter2" not in logged
        assert result.ok == (token == "hunter2")
        assert all("hunter2" not in e.message for e in result.errors)


@pytest.mark.parametrize(
    "line",
    [
        'passed_2 = passed and not _errors_of(_check_delivery_anyof_2_anyof, delivery, "/delivery")',
        'passed_3 = not _errors_of(_check_delivery_anyof_2_anyof_long_name_here, delivery, "/delivery")',
    ],
)
def test_a_long_guard_is_laid_out_as_black_lays_it_out(line: str) -> None:
    source = "def f():\n    if True:\n        if True:\n            if True:\n                "
    expected = black.format_str(source + line + "\n", mode=black.Mode(line_length=88))
    laid_out = layout.long_statement(16, line)
    assert laid_out is not None
    assert expected.splitlines()[4:] == laid_out
