"""The strict exports close open objects (issue 25, item 6) instead of turning strict mode off.

OpenAI strict mode and Anthropic strict tool use need ``additionalProperties: false`` on every
object. An object the contract leaves open is exported closed where that is a narrowing the
model can work with: everything the model can then send, the contract accepts. The tests
check, for a class of nested-object shapes and for the example contracts, that the strict
export is what OpenAI's own SDK makes of a schema for strict mode (its public
``pydantic_function_tool``, which closes objects and requires every key, leaves the export as
it is), and that every value the export accepts (the witness engine's, drawn from the export
itself) is accepted by the generated validator. Shapes that closing cannot express keep strict
mode off, and ``lint --target openai`` says why.
"""

from __future__ import annotations

import copy
import importlib
import json
from pathlib import Path
from typing import Any

import pytest
import support
from support import build_module, check_example
from toolshape.cli import main
from toolshape.contract import checker, source
from toolshape.platforms import export
from toolshape.schema import pointers
from toolshape.witness.values import Engine

jsonschema = pytest.importorskip("jsonschema")


def contract_of(parameters: dict[str, Any]) -> checker.Contract:
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    return checker.check(source.load(json.dumps(document).encode("utf-8"), "t.yaml"))


def openai_sdk_strict(parameters: dict[str, Any]) -> dict[str, Any]:
    """What OpenAI's SDK sends for a tool whose model has this JSON Schema: its public
    ``pydantic_function_tool`` makes a model's schema strict (every object closed, every
    property required, ``$ref`` beside keywords inlined) before it reaches the API. The SDK
    and pydantic are imported by the tests that call this, not when every xdist worker
    collects this file (each costs it about a second)."""
    openai = pytest.importorskip("openai")
    pytest.importorskip("pydantic")
    from pydantic import BaseModel

    schema = copy.deepcopy(parameters)

    class Exported(BaseModel):
        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return copy.deepcopy(schema)

    tool = openai.pydantic_function_tool(Exported, name="t", description="d")
    strict: dict[str, Any] = tool["function"]["parameters"]
    return strict


def same_up_to_required_order(a: Any, b: Any) -> bool:
    """Equal JSON, reading each 'required' list as a set (the SDK lists keys in property order)."""
    if isinstance(a, dict) and isinstance(b, dict):
        if set(a) != set(b):
            return False
        return all(
            sorted(a[k]) == sorted(b[k])
            if k == "required" and isinstance(a[k], list)
            else same_up_to_required_order(a[k], b[k])
            for k in a
        )
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(map(same_up_to_required_order, a, b))
    return bool(a == b and type(a) is type(b))


def strict_parameters(checked: checker.Contract) -> tuple[export.ExportResult, dict[str, Any]]:
    result = export.export(checked, "openai")
    parameters: dict[str, Any] = result.definition["function"]["parameters"]
    return result, parameters


def obj(properties: dict[str, Any], *required: str, **more: Any) -> dict[str, Any]:
    """An open object schema (no additionalProperties) listing these properties."""
    return {"type": "object", "properties": properties, "required": list(required), **more}


TEXT = {"type": "string"}
NUMBER = {"type": "number"}
POINT = obj({"x": NUMBER, "y": NUMBER}, "x")

#: Nested open objects in every place a schema can hold one; closing each is a narrowing.
CLOSABLE: dict[str, dict[str, Any]] = {
    "a property": obj({"at": POINT}, "at"),
    "an optional property": obj({"at": POINT, "name": TEXT}),
    "two levels down": obj({"outer": obj({"inner": obj({"leaf": TEXT}, "leaf")}, "inner")}),
    "array items": obj({"points": {"type": "array", "items": POINT}}, "points"),
    "a nullable object": obj({"at": {**POINT, "type": ["object", "null"]}}, "at"),
    "additionalProperties true": obj({"at": {**POINT, "additionalProperties": True}}, "at"),
    "a $defs target": obj({"at": {"$ref": "#/$defs/point"}}, "at", **{"$defs": {"point": POINT}}),
    "a $ref beside a description": obj(
        {"at": {"$ref": "#/$defs/point", "description": "Where."}},
        "at",
        **{"$defs": {"point": POINT}},
    ),
    "a recursive tree": obj(
        {"root": {"$ref": "#/$defs/node"}},
        "root",
        **{
            "$defs": {
                "node": obj(
                    {"label": TEXT, "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
                    "label",
                )
            }
        },
    ),
    "anyOf branches": obj(
        {"contact": {"anyOf": [obj({"email": TEXT}, "email"), obj({"phone": TEXT}, "phone")]}},
        "contact",
    ),
    "oneOf branches": obj(
        {"contact": {"oneOf": [obj({"email": TEXT}, "email"), obj({"phone": TEXT}, "phone")]}},
        "contact",
    ),
    "allOf of two objects": obj(
        {"at": {"allOf": [obj({"x": NUMBER}, "x"), obj({"y": NUMBER}, "y")]}}, "at"
    ),
    "an open root only": obj({"name": TEXT}, "name"),
    "a tool without parameters": {"type": "object"},
}


@pytest.mark.parametrize("shape", CLOSABLE)
def test_open_objects_are_closed_and_strict_mode_stays_on(shape: str) -> None:
    checked = contract_of(CLOSABLE[shape])
    assert export.lint(checked, "openai") == []
    result, parameters = strict_parameters(checked)
    assert result.strict is True and result.closed
    assert same_up_to_required_order(openai_sdk_strict(parameters), parameters)
    shown = ", ".join(pointers.pointer(p) or "the root" for p in result.closed)
    assert any(f"at {shown} " in note and "exported closed" in note for note in result.notes)
    # Anthropic strict tool use closes the same objects (it refuses recursion for its own reasons).
    anthropic = export.lint(checked, "anthropic")
    assert not [f for f in anthropic if "additionalProperties" in f.message], anthropic


@pytest.mark.parametrize("shape", CLOSABLE)
def test_every_value_the_closed_export_accepts_the_contract_accepts(shape: str) -> None:
    parameters = CLOSABLE[shape]
    result, exported = strict_parameters(contract_of(parameters))
    assert result.closed  # the export judged here is the closed one
    module = build_module(parameters)
    values = Engine(exported).accepted(exported, 40)
    assert values, "the closed export accepts something"
    judge = jsonschema.Draft202012Validator(exported)
    for value in values:
        assert judge.is_valid(value), value  # the witness engine's values are the export's
        assert module.validate(value, platform="openai").ok, value


def test_the_closing_is_a_strict_narrowing() -> None:
    # What closing takes away: a key the contract accepts is no longer something the model can send.
    parameters = CLOSABLE["a property"]
    _, exported = strict_parameters(contract_of(parameters))
    extra = {"at": {"x": 1, "y": 2, "z": 3}}
    assert build_module(parameters).validate(extra, platform="openai").ok
    assert not jsonschema.Draft202012Validator(exported).is_valid(extra)


def test_the_sdk_check_is_not_vacuous() -> None:
    # The SDK changes a schema that is not strict yet: an open object, an optional key.
    for parameters in (CLOSABLE["a property"], CLOSABLE["an optional property"]):
        assert not same_up_to_required_order(openai_sdk_strict(parameters), parameters)


#: Shapes closing cannot express: each keeps strict mode off, with its reason.
UNCLOSABLE: dict[str, tuple[dict[str, Any], str]] = {
    "a free-form map": (
        obj({"tags": {"type": "object"}}, "tags"),
        "it lists no properties (a map of free-form keys), so closed it would take only {}",
    ),
    "a map with a value schema": (
        obj({"tags": {"type": "object", "additionalProperties": TEXT}}, "tags"),
        "closing the object would refuse every key the schema describes",
    ),
    "pattern properties": (
        obj({"tags": {"type": "object", "patternProperties": {"^t_": TEXT}}}, "tags"),
        "closing the object would refuse every key the patterns describe",
    ),
    "a required key not listed": (
        obj({"at": obj({"x": NUMBER}, "x", "y")}, "at"),
        "required 'y' not among its properties, so closed no object would pass",
    ),
    "keys in anyOf branches": (
        obj(
            {"kind": TEXT},
            "kind",
            anyOf=[obj({"kind": {"const": "a"}, "a": TEXT}), obj({"kind": {"const": "b"}})],
        ),
        "its 'anyOf' branches list keys of their own, which the object closed would refuse",
    ),
}


@pytest.mark.parametrize("shape", UNCLOSABLE)
def test_shapes_closing_cannot_express_keep_strict_mode_off_and_say_why(shape: str) -> None:
    parameters, reason = UNCLOSABLE[shape]
    checked = contract_of(parameters)
    findings = export.lint(checked, "openai")
    assert any(reason in f.message for f in findings), [f.message for f in findings]
    result = export.export(checked, "openai")
    assert result.strict is False and result.closed == []


def test_lint_target_openai_says_why_an_object_cannot_be_closed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tag.yaml"
    path.write_text(
        "name: tag\ndescription: Tag it.\nparameters:\n  type: object\n  properties:\n"
        "    tags: {type: object}\n  required: [tags]\n",
        encoding="utf-8",
    )
    assert main(["lint", str(path), "--target", "openai"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:6:11: error: the object at /properties/tags does not say" in err
    assert "so closed it would take only {}" in err
    assert main(["schema", str(path), "--target", "openai"]) == 0
    assert "OpenAI strict mode is off for this tool" in capsys.readouterr().err


def example_contracts() -> list[checker.Contract]:
    return [check_example(p) for p in support.example_contracts()]


def test_example_contracts_strict_exports_are_what_the_sdk_sends() -> None:
    strict = []
    for checked in example_contracts():
        result, parameters = strict_parameters(checked)
        if result.strict:
            assert same_up_to_required_order(openai_sdk_strict(parameters), parameters), (
                checked.file
            )
            strict.append(checked.name)
    # open_ticket's contact is one of two open objects: closed, strict mode holds.
    assert "open_ticket" in strict and len(strict) >= 7, strict


def test_example_contracts_closed_exports_refuse_nothing_more_than_the_contract() -> None:
    # Values the export accepts that the contract refuses are the export's noted loosenings
    # (dropped bounds, if/then/else); never an unlisted key let through by the closing.
    closed = 0
    for checked in example_contracts():
        result, exported = strict_parameters(checked)
        if not result.closed:
            continue
        closed += 1
        module_name = "generated." + checked.file.split("contracts/", 1)[1][:-5].replace("/", ".")
        module = importlib.import_module(module_name)
        for value in Engine(exported).accepted(exported, 40):
            verdict = module.validate(value, platform="openai")
            assert all(e.code != "additionalProperties" for e in verdict.errors), value
    assert closed >= 1
