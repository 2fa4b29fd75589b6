"""Hostile contracts (issue 5): a big contract value or many properties generate safely and
with work in proportion to their size (a 100,000-character enum value; many properties, counted
in calls).
"""

from __future__ import annotations

import functools
import json

from hostile_contracts_support import (
    bad_characters,
    check_module_imports,
    exec_spied,
    generate,
    neutral_events_names,
    run_generated_tests,
    to_yaml,
)
from support import calls_made
from toolshape.codegen import cases
from toolshape.codegen.building.nodes import MAX_VALUE_DEPTH
from toolshape.contract import checker, source
from toolshape.project import pipeline, runtime


def test_a_100000_character_enum_value() -> None:
    big = "é" + "x" * 99_998 + '"'
    contract = {
        "name": "big_enum",
        "description": "an enum value of 100,000 characters: " + big[:10],
        "parameters": {
            "type": "object",
            "properties": {"unit": {"type": "string", "enum": [big, "c"], "description": big}},
            "required": ["unit"],
            "additionalProperties": False,
        },
        "examples": [
            {"args": {"unit": big}},
            {
                "args": {"unit": big[:-1]},
                "status": "reject",
                "errors": [{"path": "/unit", "code": "enum"}],
            },
        ],
    }
    generated = generate(to_yaml(contract, "json"))
    assert isinstance(generated, pipeline.Generated), generated
    source = generated.module_source
    compile(source, "<big>", "exec")
    assert not bad_characters(source)
    assert len(source) < 2_000_000, f"the module is {len(source):,} characters"
    module, events = exec_spied(source, "big_enum")
    check_module_imports(events, set(neutral_events_names()))
    assert module.validate({"unit": big}).ok
    assert module.parse(json.dumps({"unit": big})).ok
    result = module.validate({"unit": "C"})
    assert {(e.path, e.code) for e in result.errors} == {("/unit", "enum")}
    assert len(result.feedback()) < 2_000, (
        "feedback() must not print a 100,000-character enum value whole"
    )
    assert run_generated_tests(generated) > 0


def _derivation_calls(n: int) -> int:
    """Python calls made deriving the tests of a contract of ``n`` required string properties."""
    contract = {
        "name": "many",
        "description": "d",
        "parameters": {
            "type": "object",
            "properties": {f"p{i}": {"type": "string"} for i in range(n)},
            "required": [f"p{i}" for i in range(n)],
            "additionalProperties": False,
        },
    }
    checked = checker.check(source.load(json.dumps(contract).encode(), "many.json"))
    return calls_made(functools.partial(cases.derive, checked))


def test_derivation_work_does_not_explode_with_the_number_of_properties() -> None:
    """A contract is reviewed, not trusted: one that makes `toolshape generate` (and so CI) run
    for hours is a denial of service. Measured before this test was written: 50 properties 2 s,
    100 properties 12 s, 200 properties 84 s, because cases.add() compared each new derived
    case with every earlier one by re-serialising all of them. Counted in calls, never timed:
    four times the properties, about four times the calls (the old quadratic work was 16 times).
    """
    small, large = _derivation_calls(40), _derivation_calls(160)
    assert large < 6 * small, (small, large)


def _nested(depth: int) -> dict[str, object]:
    """A contract whose values nest ``depth`` objects deep, a list of objects at the bottom."""
    schema: dict[str, object] = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 2},
            "tags": {
                "type": "array",
                "items": {"type": "object", "properties": {"k": {"type": "integer"}}},
            },
        },
        "required": ["name"],
    }
    for level in range(depth):
        schema = {
            "type": "object",
            "properties": {"level": schema, "n": {"type": "number"}},
            "required": ["level"] if level % 2 else [],
            "additionalProperties": False,
        }
    return {"name": "deep", "description": "Values nested deep.", "parameters": schema}


def _function_indent(source_text: str) -> int:
    """The widest indentation of the module's functions (its constants' literals aside)."""
    widest, inside = 0, False
    for line in source_text.splitlines():
        if line and not line[0].isspace():
            inside = line.startswith("def ")
        elif inside and line.strip():
            widest = max(widest, len(line) - len(line.lstrip(" ")))
    return widest


def test_the_checks_of_values_nested_deep_stay_within_a_bounded_indent() -> None:
    """Each value nested one level deeper indents its checks twice (the key's test, the type's):
    past ``MAX_VALUE_DEPTH`` levels a value is checked in a function of its own, so the checks
    start no further right however deep the contract nests (24 levels indented them 220
    columns, where black cut every string into one character a line: 695 kB of module for
    1.1 kB of schema). The verdicts and error paths at the bottom stay those of the values."""
    widths = {}
    for depth in (MAX_VALUE_DEPTH - 1, 2 * MAX_VALUE_DEPTH, 4 * MAX_VALUE_DEPTH):
        generated = generate(to_yaml(_nested(depth), "json"), "deep")
        assert not isinstance(generated, Exception), generated
        widths[depth] = _function_indent(generated.module_source)
        assert run_generated_tests(generated) > 0
        module = runtime.load_module(generated.module_source, "deep.py")
        bottom: dict[str, object] = {"name": "ab", "tags": [{"k": 1}, {"k": "x"}]}
        for _ in range(depth):
            bottom = {"level": bottom}
        errors = [(e.path, e.code) for e in module.validate(bottom).errors]
        assert errors == [("/level" * depth + "/tags/1/k", "type")]
    assert widths[4 * MAX_VALUE_DEPTH] == widths[2 * MAX_VALUE_DEPTH], widths
