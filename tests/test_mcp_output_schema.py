"""An MCP tool's ``outputSchema`` and a contract's ``output``, both ways.

``toolshape import`` reads ``outputSchema`` into ``output`` with the draft handling of
``inputSchema`` (drafts 4 to 2020-12, ``definitions``/``$defs``, ``$ref``, ``anyOf`` with null),
and leaves out, with a warning at its place, one it cannot carry over (a root that is not an
object schema, as MCP requires, a keyword toolshape refuses, a check the contract fails).
``schema --target mcp`` and the package's ``tool_definitions("mcp")`` write ``output`` as
``outputSchema``, which the official SDK's ``Tool`` model reads back whole.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from typing import Any

import jsonschema
import pytest
from support import ROOT, check_example, example_contracts
from toolshape.codegen import cases, render
from toolshape.contract import checker, source
from toolshape.platforms import export, importer
from toolshape.project import pipeline, runtime

import generated

CONTEXT = render.generation_context()

#: A contract whose output uses what a pydantic or zod result schema uses: $defs and $ref,
#: anyOf with null, enum, bounds, a format, x-sensitive.
SESSION = """\
name: open_session
description: Open a session for a user.
parameters:
  type: object
  properties:
    user: {type: string, minLength: 1}
  required: [user]
output:
  type: object
  properties:
    session: {$ref: '#/$defs/Session'}
    previous: {anyOf: [{$ref: '#/$defs/Session'}, {type: 'null'}]}
    state: {type: string, enum: [open, pending]}
    attempts: {type: integer, minimum: 0, maximum: 5}
  required: [session, state]
  additionalProperties: false
  $defs:
    Session:
      type: object
      properties:
        token: {type: string, minLength: 8, x-sensitive: true}
        expires: {type: string, format: date-time}
      required: [token, expires]
"""


def contract_of(text: str, name: str = "t.yaml") -> checker.Contract:
    return checker.check(source.load(text.encode("utf-8"), name))


def contracts_with_output() -> list[checker.Contract]:
    """Every example contract of the repository that declares ``output``, and SESSION."""
    found = [check_example(path, str(path.relative_to(ROOT))) for path in example_contracts()]
    with_output = [c for c in found if c.output is not None] + [contract_of(SESSION)]
    assert len(with_output) >= 3
    return with_output


def module_of(yaml_text: str) -> Any:
    made = pipeline.generate(yaml_text.encode("utf-8"), "t.yaml", PurePosixPath("t.yaml"), CONTEXT)
    return runtime.load_module(made.module_source, "t.py")


def imported_tool(tool: dict[str, Any]) -> importer.ImportedContract:
    (imported,) = importer.import_data({"tools": [tool]}, "tools.json")
    return imported


def mcp_tool(output: Any, **extra: Any) -> dict[str, Any]:
    """An MCP tool with arguments {"q": string} and the given outputSchema."""
    return {
        "name": "lookup",
        "description": "Look something up.",
        "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
        "outputSchema": output,
        **extra,
    }


# -- the round trip: contract -> MCP export -> import -> the same output -------------------------


@pytest.mark.parametrize("contract", contracts_with_output(), ids=lambda c: c.name)
def test_output_round_trips_through_the_mcp_export(
    contract: checker.Contract, tmp_path: Path
) -> None:
    definition = export.export(contract, "mcp").definition
    assert definition["outputSchema"] == contract.output
    path = tmp_path / "tools.json"
    path.write_text(json.dumps({"tools": [definition]}), encoding="utf-8")
    (imported,) = importer.import_file(path)
    assert imported.data["output"] == contract.output
    assert not [w for w in imported.warnings if "outputSchema" in str(w)]
    # The result validators of the original and of the import agree on every derived result
    # case, and with what the case expects.
    original, again = module_of(contract.document.text), module_of(imported.yaml_text)
    side = contract.result_side()
    assert side is not None
    derived = cases.derive(side).cases
    assert len(derived) > 5
    for case in derived:
        expected = not case.errors
        assert original.validate_result(case.data).ok is expected, case.name
        assert again.validate_result(case.data).ok is expected, case.name
    # The other platforms' tool definitions have no place for a result schema.
    for target in ("jsonschema", "openai", "openai-responses", "anthropic", "gemini"):
        assert json.dumps(contract.output) not in json.dumps(
            export.export(contract, target).definition
        )


# -- the official SDK reads the export ------------------------------------------------------------


def test_the_sdk_tool_model_reads_every_mcp_definition_with_its_output_schema() -> None:
    types = pytest.importorskip(
        "mcp.types", reason="the official MCP SDK (the test extra) is not installed"
    )
    listed = generated.tool_definitions("mcp")
    with_output = [d for d in listed if "outputSchema" in d]
    assert {d["name"] for d in with_output} == {
        name
        for name in generated.TOOLS
        if getattr(generated.tool_module(name), "OUTPUT_SCHEMA", None)
    }
    assert with_output
    definitions = with_output + [
        export.export(c, "mcp").definition for c in contracts_with_output()
    ]
    for definition in definitions:
        # The SDK's model ignores keys it does not know: the schema must arrive as its field.
        tool = types.Tool.model_validate(definition)
        assert tool.output_schema == definition["outputSchema"]
        assert tool.output_schema["type"] == "object"  # MCP: structuredContent is one object
        module = generated.tool_module(definition["name"])
        if module is not None:
            assert tool.output_schema == module.OUTPUT_SCHEMA


# -- import: drafts, references, null ---------------------------------------------------------------

#: One result schema in each draft's spelling, and results to hold the import against the
#: draft's own validator in jsonschema.
DRAFT_OUTPUTS: dict[str, tuple[dict[str, Any], type[Any]]] = {
    "draft-04": (
        {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "type": "object",
            "properties": {
                "count": {"type": "integer", "minimum": 0, "exclusiveMinimum": True},
                "item": {"$ref": "#/definitions/Item"},
            },
            "required": ["count"],
            "definitions": {
                "Item": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}},
                    "required": ["id"],
                }
            },
        },
        jsonschema.Draft4Validator,
    ),
    "draft-07": (
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "type": "object",
            "properties": {
                "count": {"type": "integer", "exclusiveMinimum": 0},
                "item": {"anyOf": [{"$ref": "#/definitions/Item"}, {"type": "null"}]},
            },
            "required": ["count", "item"],
            "definitions": {
                "Item": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}},
                    "required": ["id"],
                }
            },
        },
        jsonschema.Draft7Validator,
    ),
    "2019-09": (
        {
            "$schema": "https://json-schema.org/draft/2019-09/schema",
            "type": "object",
            "properties": {
                "count": {"type": "integer", "exclusiveMinimum": 0},
                "item": {"anyOf": [{"$ref": "#/$defs/Item"}, {"type": "null"}]},
            },
            "required": ["count"],
            "$defs": {
                "Item": {
                    "type": "object",
                    "properties": {"id": {"type": "string"}},
                    "required": ["id"],
                }
            },
        },
        jsonschema.Draft201909Validator,
    ),
}

RESULTS: list[dict[str, Any]] = [
    {"count": 1, "item": {"id": "a"}},
    {"count": 1, "item": None},
    {"count": 2},
    {"count": 0, "item": {"id": "a"}},
    {"count": 1, "item": {"id": 3}},
    {"count": 1, "item": {}},
    {"count": 1.0, "item": {"id": "a"}},
    {"count": True},
    {"item": {"id": "a"}},
    {"count": "1"},
]


@pytest.mark.parametrize("draft", DRAFT_OUTPUTS)
def test_an_output_schema_of_each_draft_imports_with_the_drafts_meaning(draft: str) -> None:
    schema, validator = DRAFT_OUTPUTS[draft]
    imported = imported_tool(mcp_tool(schema))
    output = imported.data["output"]
    assert "definitions" not in output and "$schema" not in output
    assert output["$defs"]["Item"]["required"] == ["id"]
    refs = json.dumps(output)
    assert '"#/$defs/Item"' in refs and "#/definitions" not in refs
    # Said where it happened: at the outputSchema of the tool, in the input's pointers.
    assert any(
        t.startswith("$schema dropped") and "/tools/0/outputSchema/$schema" in t
        for t in imported.translations
    )
    module = module_of(imported.yaml_text)
    # Draft 4 alone counts 1.0 as no integer; a contract counts it as one, as drafts 6 and
    # later do (tests/test_conformance_drafts.py says the same).
    results = [r for r in RESULTS if not (draft == "draft-04" and type(r.get("count")) is float)]
    verdicts = [(result, validator(schema).is_valid(result)) for result in results]
    assert {ok for _, ok in verdicts} == {True, False}
    for result, ok in verdicts:
        assert module.validate_result(result).ok is ok, (draft, result)


def test_an_output_schema_refs_resolve_within_the_output_not_the_arguments() -> None:
    tool = mcp_tool(
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "integer"}},
        },
        inputSchema={
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"type": "string"}},
        },
    )
    module = module_of(imported_tool(tool).yaml_text)
    assert module.validate({"a": "x"}).ok and not module.validate({"a": 1}).ok
    assert module.validate_result({"a": 1}).ok and not module.validate_result({"a": "x"}).ok


# -- import: what cannot be carried over is a warning at its place, and the rest is imported ----------


@pytest.mark.parametrize(
    ("output", "at", "says"),
    [
        (
            {"type": "array", "items": {"type": "string"}},
            "/tools/0/outputSchema/type",
            "structuredContent",
        ),
        ({"type": "string"}, "/tools/0/outputSchema/type", "structuredContent"),
        ([{"type": "object"}], "/tools/0/outputSchema", "structuredContent"),
        (
            {"type": "object", "properties": {"a": {"$dynamicRef": "#node"}}},
            "/tools/0/outputSchema/properties/a/$dynamicRef",
            "$dynamicRef",
        ),
        (
            {"type": "object", "properties": {"a": {"$ref": "https://example.com/a.json"}}},
            "/tools/0/outputSchema/properties/a/$ref",
            "remote",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "string", "pattern": "("}}},
            "/tools/0/outputSchema/properties/a/pattern",
            "contract check",
        ),
        (
            {"type": "object", "properties": {"a": {"type": "string", "description": "\ud800"}}},
            "/tools/0/outputSchema/properties/a/description",
            "surrogate",
        ),
    ],
    ids=[
        "array",
        "string",
        "list",
        "dynamic-ref",
        "remote-ref",
        "bad-pattern",
        "surrogate",
    ],
)
def test_an_output_schema_that_cannot_be_carried_over_is_left_out_with_a_warning_at_its_place(
    output: Any, at: str, says: str
) -> None:
    imported = imported_tool(mcp_tool(output))
    assert "output" not in imported.data and "\noutput:" not in imported.yaml_text
    assert imported.data["parameters"] == {
        "type": "object",
        "properties": {"q": {"type": "string"}},
    }
    left_out = [w for w in imported.warnings if "'outputSchema' is not carried over" in w.message]
    assert left_out and all(w.pointer is not None for w in left_out)
    assert at in [w.pointer for w in left_out], [str(w) for w in imported.warnings]
    assert any(says in w.message for w in left_out)


def test_an_output_schema_of_annotations_only_is_any_object_with_a_warning() -> None:
    """A result schema with no keyword but annotations: structuredContent is always one JSON
    object, so it is read as ``type: object`` (any object passes), said at its place."""
    imported = imported_tool(mcp_tool({"description": "anything"}))
    assert imported.data["output"] == {"type": "object", "description": "anything"}
    [warning] = imported.warnings
    assert warning.pointer == "/tools/0/outputSchema"
    assert "added 'type: object'" in warning.message and "structuredContent" in warning.message


ANY_RESULT: list[Any] = [True, {}, {"description": "anything"}, {"title": "T", "$comment": "c"}]
NONE_OBJECT: list[Any] = [{}, {"a": 1}, {"a": {"b": [None]}}]
NOT_OBJECT: list[Any] = [None, [], [{}], "text", 0, 1.5, True]


@pytest.mark.parametrize("output", ANY_RESULT, ids=["true", "empty", "description", "title"])
def test_an_output_schema_any_object_passes_is_one_rule(output: Any) -> None:
    """``true``, ``{}`` and a schema of annotations only all say "any result": one rule for
    them, as for the arguments: the output is ``type: object`` (a structuredContent is one JSON
    object, MCP says), warned at its place, and its validator takes every object and no other
    value, as jsonschema's verdict on the schema joined with ``type: object`` says."""
    imported = imported_tool(mcp_tool(output))
    assert imported.data["output"]["type"] == "object"
    [warning] = imported.warnings
    assert warning.pointer == "/tools/0/outputSchema" and "object" in warning.message
    validate = module_of(imported.yaml_text).validate_result
    judge = jsonschema.Draft202012Validator({"allOf": [output, {"type": "object"}]})
    for value in NONE_OBJECT + NOT_OBJECT:
        assert validate(value).ok is judge.is_valid(value) is (value in NONE_OBJECT), value


def test_a_false_output_schema_refuses_every_result_and_says_so() -> None:
    imported = imported_tool(mcp_tool(False))
    assert "output" in imported.data
    assert any("no result can pass" in w.message for w in imported.warnings)
    validate = module_of(imported.yaml_text).validate_result
    assert [validate(value).ok for value in NONE_OBJECT + NOT_OBJECT] == [False] * 10


def test_a_null_output_schema_is_none_and_no_warning() -> None:
    imported = imported_tool(mcp_tool(None))
    assert "output" not in imported.data and imported.warnings == []


def test_a_warning_inside_an_output_schema_names_its_place_in_the_input() -> None:
    # A pydantic-style default: null on a key that refuses null: the contract check's warning.
    output = {"type": "object", "properties": {"note": {"type": "string", "default": None}}}
    imported = imported_tool(mcp_tool(output))
    assert imported.data["output"] == output
    assert [w.pointer for w in imported.warnings] == [
        "/tools/0/outputSchema/properties/note/default"
    ]
