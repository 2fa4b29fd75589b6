"""Hostile contracts (issue 5): each hostile text, put in every place of a contract, reaches
the generated code as data only.

Generation succeeds or fails cleanly; the sources hold the text only inside literals; importing
the module has no side effect; the contract's strings come back exactly (``TOOL_NAME``,
``DESCRIPTION``, ``INPUT_SCHEMA``, the TypedDict's keys); a key with that name is accepted where
declared and refused where not; the generated tests pass. Keys that differ only in
punctuation stay distinct.
"""

from __future__ import annotations

import functools
import importlib
import inspect
import json
import re
import sys
import types
import typing
from typing import Any

import pytest
from hostile_contracts_support import (
    HOSTILE,
    IDENTIFIER_LIKE,
    LABELS,
    RUNTIME,
    STDLIB,
    baseline_audits,
    check_module_imports,
    check_source,
    exec_spied,
    generate,
    generated_for,
    generated_or_skip,
    hostile_contract,
    neutral_events,
    neutral_spied,
    pointer,
    run_generated_tests,
    to_yaml,
    valid_args,
)
from toolshape.project import pipeline, runtime

# Each text's contract is generated once per process; under xdist the whole file runs on one
# worker (conftest.ONE_WORKER_FILES).


@functools.cache
def loaded(module_source: str) -> types.ModuleType:
    """A generated module loaded once per process for the tests that only read it and call it."""
    return runtime.load_module(module_source, "x.py")


@pytest.mark.parametrize("how", ["json", "quoted yaml"])
@pytest.mark.parametrize("label", LABELS)
def test_generation_succeeds_or_fails_cleanly(label: str, how: str) -> None:
    generated_for(label, how)  # raises AssertionError for anything but success or a ContractError


@pytest.mark.parametrize("label", LABELS)
def test_the_sources_hold_the_text_only_as_data(label: str) -> None:
    generated = generated_or_skip(label)
    module_baseline, test_baseline = baseline_audits()
    text = HOSTILE[label]
    identifier_ok = label in IDENTIFIER_LIKE
    check_source(
        generated.module_source,
        text,
        module_baseline,
        identifier_ok=identifier_ok,
        what="the module",
    )
    check_source(
        generated.test_source,
        text,
        test_baseline,
        identifier_ok=identifier_ok,
        what="the generated tests",
    )


@pytest.mark.parametrize("label", LABELS)
def test_importing_the_module_has_no_side_effect(label: str) -> None:
    generated = generated_or_skip(label)
    module, events = exec_spied(generated.module_source, "hostile_x")
    baseline, _ = neutral_spied()
    allowed = {e.removeprefix("import ") for e in neutral_events()} & (STDLIB | RUNTIME)
    check_module_imports(events, allowed)
    assert set(vars(module)) - {"__builtins__"} <= set(vars(baseline)) | _namer_names(
        module, baseline
    ), (
        "the module defines names that the neutral one does not (and that are not its own constants or types)"
    )


def _namer_names(module: types.ModuleType, baseline: types.ModuleType) -> set[str]:
    """Module-level names that depend on the contract's text: constants and TypedDicts."""
    return {
        name
        for name, value in vars(module).items()
        if name not in vars(baseline)
        and (
            (name.startswith("_") and name.upper() == name)
            or isinstance(value, (type, re.Pattern, frozenset))
        )
    }


@pytest.mark.parametrize("label", LABELS)
def test_the_contract_strings_come_back_as_data(label: str) -> None:
    text = HOSTILE[label]
    contract = hostile_contract(text)
    module = loaded(generated_or_skip(label).module_source)
    assert contract["name"] == module.TOOL_NAME
    assert contract["description"] == module.DESCRIPTION
    assert contract["parameters"] == module.INPUT_SCHEMA
    assert contract["output"] == module.OUTPUT_SCHEMA
    # The module's own names are intact, whatever the contract's keys are called: what it
    # takes from the runtime and the standard library is what they hold.
    shared = runtime.runtime_module()
    for name in (
        "ACCEPT",
        "REJECT",
        "PARSE_ERROR",
        "MAX_ERRORS",
        "_decode",
        "_json_type",
        "_NOT_AN_OBJECT",
    ):
        assert getattr(module, name) is getattr(shared, name), name
    assert issubclass(module.Result, shared.Result) and module.Error is shared.Error
    for name, stdlib in (("json", json), ("re", re), ("math", math_module()), ("sys", sys)):
        assert vars(module).get(name, stdlib) is stdlib, name
    assert inspect.isfunction(module.validate) and module.validate.__name__ == "validate"
    assert inspect.isfunction(module.parse) and module.parse.__name__ == "parse"
    assert module.validate_result.__name__ == "validate_result"
    assert issubclass(module.OutputResult, shared.OutputResult)
    assert module.validate_result(valid_args(text)).ok, "the result's checks hold the text as data"
    assert isinstance(module.Error, type) and module.Error.__name__ == "Error"
    assert isinstance(module.Result, type) and module.Result.__name__ == "Result"
    assert module.MAX_ERRORS == 100 and module.ACCEPT == "accept"
    typed = getattr(module, "Arguments", None)
    if typed is not None:  # the TypedDict of the accepted arguments names the keys exactly
        keys = set(typed.__required_keys__) | set(typed.__optional_keys__)
        assert keys == set(contract["parameters"]["properties"]), keys ^ set(
            contract["parameters"]["properties"]
        )
        assert set(typed.__required_keys__) == set(contract["parameters"]["required"])
        sys.modules[module.__name__] = module
        try:
            typing.get_type_hints(typed)  # the annotations evaluate
        finally:
            del sys.modules[module.__name__]


def math_module() -> types.ModuleType:
    return importlib.import_module("math")


@pytest.mark.parametrize("label", LABELS)
def test_a_key_with_that_name_is_accepted_where_declared_and_refused_where_not(label: str) -> None:
    text = HOSTILE[label]
    module = loaded(generated_or_skip(label).module_source)

    def pairs(value: Any) -> set[tuple[str, str]]:
        result = module.validate(value)
        result.feedback(), json.dumps(result.log_record()), repr(result)
        return {(e.path, e.code) for e in result.errors}

    valid = valid_args(text)
    assert pairs(valid) == set()
    assert module.parse(json.dumps(valid)).ok
    assert module.parse(json.dumps(valid, ensure_ascii=False).encode("utf-8")).ok
    assert pairs({"zz_const": text}) == {(pointer(text), "required")}
    assert pairs({**valid, text: None}) == {(pointer(text), "type")}
    assert pairs({**valid, text: text + "x"}) == {(pointer(text), "enum")}
    assert pairs({**valid, "zz_nested": {}}) == {(pointer("zz_nested", text), "required")}
    assert pairs({**valid, "zz_closed": {text: 1}}) == {
        (pointer("zz_closed", text), "additionalProperties")
    }
    assert pairs({**valid, "zz_const": text + "x"}) == {("/zz_const", "const")}
    assert pairs({**valid, "zz_pattern": "<>"}) == ({("/zz_pattern", "pattern")} if text else set())
    assert pairs({**valid, "zz_list": [text + "x"]}) == {("/zz_list/0", "enum")}
    unknown = text + "_unknown"
    assert pairs({**valid, unknown: 1}) == {(pointer(unknown), "additionalProperties")}
    record = module.validate({**valid, "zz_secret": "TOP-SECRET-VALUE"}).log_record()
    assert "TOP-SECRET-VALUE" not in json.dumps(record)
    message = module.validate({"zz_const": text}).errors[0].message
    assert len(message) < 200


@pytest.mark.parametrize("label", LABELS)
def test_the_generated_tests_pass(label: str) -> None:
    """Every test function of the generated test module, with every parametrized row, in-process."""
    assert run_generated_tests(generated_or_skip(label)) > 0


def test_keys_that_differ_only_in_punctuation_stay_distinct() -> None:
    keys = [
        "a-b",
        "ab",
        "a_b",
        "a.b",
        "a b",
        "A-B",
        "a~b",
        "a/b",
        "a~1b",
        "a~0b",
        "",
        " ",
        "value",
        "value_2",
        "_value",
        "VALUE",
    ]
    contract = {
        "name": "distinct",
        "description": "keys that a namer could merge",
        "parameters": {
            "type": "object",
            "properties": {k: {"type": "integer", "const": i} for i, k in enumerate(keys)},
            "required": keys,
            "additionalProperties": False,
        },
        "examples": [{"args": {k: i for i, k in enumerate(keys)}}],
    }
    generated = generate(to_yaml(contract, "json"))
    assert isinstance(generated, pipeline.Generated), generated
    module = runtime.load_module(generated.module_source, "x.py")
    valid = {k: i for i, k in enumerate(keys)}
    assert module.validate(valid).ok
    for i, key in enumerate(keys):
        missing = {k: v for k, v in valid.items() if k != key}
        assert {(e.path, e.code) for e in module.validate(missing).errors} == {
            (pointer(key), "required")
        }, key
        wrong = {**valid, key: i + 100}
        assert {(e.path, e.code) for e in module.validate(wrong).errors} == {
            (pointer(key), "const")
        }, key
    assert run_generated_tests(generated) > 0
