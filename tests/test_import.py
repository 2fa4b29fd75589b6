"""Importing JSON Schemas, MCP tools/list results and OpenAI, Anthropic and Gemini tool lists.

Each fixture under tests/import_fixtures/ is imported, written to a temporary folder, run
through the whole pipeline in memory, and exported back: the exported parameters equal
the input's parameters (translated to 2020-12 where the input used older spellings).
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path, PurePosixPath
from typing import Any

import generated_harness
import jsonschema
import pytest
import referencing
import referencing.jsonschema
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import run_traced, verdicts_unlike_jsonschema
from toolshape import cli
from toolshape.codegen import cases, render
from toolshape.contract import checker, errors, source
from toolshape.families.references import importing
from toolshape.platforms import documents, export, importer, remotes
from toolshape.project import pipeline, runtime
from toolshape.schema import vocabulary

FIXTURES = Path(__file__).resolve().parent / "import_fixtures"


def fixture(name: str) -> Path:
    return FIXTURES / name


def checked(imported: importer.ImportedContract) -> checker.Contract:
    return checker.check(source.load(imported.yaml_text.encode("utf-8"), imported.relative_path))


def generate(imported: importer.ImportedContract) -> pipeline.Generated:
    """The whole pipeline, in memory, with no example added by hand: the witness engine
    builds the accepted arguments the derived tests start from (the importer never
    invents examples)."""
    raw = imported.yaml_text.encode("utf-8")
    label = f"contracts/{imported.relative_path}"
    generated = pipeline.generate(
        raw, label, PurePosixPath(imported.relative_path), render.generation_context()
    )
    derived = cases.derive(generated.contract).cases
    assert any(not c.errors for c in derived), (
        f"{imported.name}: no accepted base arguments were built"
    )
    return generated


def write_json(tmp_path: Path, name: str, data: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def problems_of(
    tmp_path: Path, data: Any, name: str = "tools.json"
) -> list[importer.ImportProblem]:
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_file(write_json(tmp_path, name, data))
    return raised.value.problems


# -- each input kind ---------------------------------------------------------------------------


def test_pydantic_schema_with_defs_and_optional_fields(tmp_path: Path) -> None:
    (imported,) = importer.import_file(fixture("pydantic_get_forecast.json"))
    source_schema = json.loads(fixture("pydantic_get_forecast.json").read_text())
    assert imported.name == "GetForecast" and imported.relative_path == "get_forecast.yaml"
    assert imported.kind == "jsonschema" and imported.warnings == []
    data = imported.data
    assert data["description"] == "Daily weather forecast for a location, up to two weeks ahead."
    assert "title" not in data["parameters"] and "description" not in data["parameters"]
    country = data["parameters"]["$defs"]["Location"]["properties"]["country"]
    assert country["anyOf"][1] == {"type": "null"}
    # the round trip: the jsonschema export is the input, with the 2020-12 dialect named
    definition = export.export(checked(imported), "jsonschema").definition
    assert definition == {"$schema": export.DIALECT, **source_schema}
    assert_pipeline_and_write(tmp_path, [imported])


def test_zod_draft_07_schema_with_definitions(tmp_path: Path) -> None:
    (imported,) = importer.import_file(fixture("zod_create_issue.json"))
    assert imported.name == "create_issue" and imported.relative_path == "create_issue.yaml"
    parameters = imported.data["parameters"]
    original = json.loads(fixture("zod_create_issue.json").read_text())["definitions"][
        "create_issue"
    ]
    translated = json.loads(json.dumps(original))
    del translated["description"]
    # The hoisted definition is the root; the property another $ref reuses moves under $defs.
    labels = translated["properties"]["labels"]
    translated["properties"]["labels"] = {"$ref": "#/$defs/labels"}
    translated["properties"]["assignees"]["$ref"] = "#/$defs/labels"
    translated["properties"]["due"]["$ref"] = "#/$defs/date"
    estimate = translated["properties"]["estimate"]
    estimate["prefixItems"] = estimate.pop("items")
    date = json.loads(fixture("zod_create_issue.json").read_text())["definitions"]["date"]
    translated["$defs"] = {"date": date, "labels": labels}
    assert parameters == translated
    assert list(parameters["properties"]) == list(original["properties"])  # property order kept
    definition = export.export(checked(imported), "jsonschema").definition
    assert definition == {
        "$schema": export.DIALECT,
        "title": "create_issue",
        "description": original["description"],
        **translated,
    }
    assert_pipeline_and_write(tmp_path, [imported])


def test_mcp_tools_list_result(tmp_path: Path) -> None:
    contracts = importer.import_file(fixture("mcp_tools_list.json"))
    tools = json.loads(fixture("mcp_tools_list.json").read_text())["result"]["tools"]
    assert [c.name for c in contracts] == ["read_text_file", "search_files"]
    assert [c.kind for c in contracts] == ["mcp", "mcp"]
    assert not any("not carried over" in w for c in contracts for w in map(str, c.warnings))
    for imported, tool in zip(contracts, tools, strict=True):
        expected = {k: v for k, v in tool["inputSchema"].items() if k != "$schema"}
        assert imported.data["description"] == tool["description"]
        definition = export.export(checked(imported), "mcp").definition
        assert definition["inputSchema"] == expected
        # The title and the hints come back as the server listed them (the first tool has both).
        assert definition.get("title") == tool.get("title")
        assert definition.get("annotations") == tool.get("annotations")
    assert_pipeline_and_write(tmp_path, contracts)


@pytest.mark.parametrize("schema", [True, False])
def test_an_input_schema_of_true_or_false_imports_as_what_it_means(
    schema: bool, tmp_path: Path
) -> None:
    """JSON Schema's true and false are schemas: every arguments object passes, or none
    (arguments are one JSON object), with a warning at the schema."""
    tools = {"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
    (imported,) = importer.import_file(write_json(tmp_path, "tools.json", tools))
    said = [str(w) for w in imported.warnings]
    assert any(f"the schema is {json.dumps(schema)}" in w for w in said), said
    contract = checked(imported)
    raw = imported.yaml_text.encode("utf-8")
    context = render.generation_context()
    generated = pipeline.generate(raw, "t.yaml", PurePosixPath("t.yaml"), context)
    module = runtime.load_module(generated.module_source, "t.py")
    objects: list[Any] = [{}, {"a": 1}, {"b": [None]}]
    assert [module.validate(value).ok for value in objects] == [schema] * 3
    assert any("NO ARGUMENTS CAN PASS" in w.message for w in contract.warnings) is not schema


def test_mcp_result_without_the_json_rpc_envelope(tmp_path: Path) -> None:
    result = json.loads(fixture("mcp_tools_list.json").read_text())["result"]
    result["nextCursor"] = "page-2"
    contracts = importer.import_file(write_json(tmp_path, "list.json", result))
    assert [c.name for c in contracts] == ["read_text_file", "search_files"]
    assert all(any("nextCursor" in w for w in map(str, c.warnings)) for c in contracts)


def test_openai_tool_list(tmp_path: Path) -> None:
    contracts = importer.import_file(fixture("openai_tools.json"))
    tools = json.loads(fixture("openai_tools.json").read_text())
    assert [c.name for c in contracts] == ["get_order_status", "create_refund"]
    for imported, tool in zip(contracts, tools, strict=False):
        result = export.export(checked(imported), "openai")
        assert (
            result.strict is True and result.notes == []
        )  # strict-ready in, strict out, unchanged
        assert result.definition == tool
    assert_pipeline_and_write(tmp_path, contracts)
    wrapped = importer.import_file(
        write_json(tmp_path, "request.json", {"model": "x", "tools": tools})
    )
    assert [c.data for c in wrapped] == [c.data for c in contracts]


def test_openai_responses_api_entries(tmp_path: Path) -> None:
    tool = json.loads(fixture("openai_tools.json").read_text())[0]["function"]
    flat = {"type": "function", **tool}
    (imported,) = importer.import_file(write_json(tmp_path, "responses.json", [flat]))
    assert imported.data["parameters"] == tool["parameters"]


def test_anthropic_tool_list(tmp_path: Path) -> None:
    contracts = importer.import_file(fixture("anthropic_tools.json"))
    tools = json.loads(fixture("anthropic_tools.json").read_text())
    assert [c.name for c in contracts] == ["get_stock_price", "convert_currency"]
    for imported, tool in zip(contracts, tools, strict=False):
        assert imported.data["parameters"] == tool["input_schema"]
        assert (
            export.export(checked(imported), "mcp").definition["inputSchema"]
            == tool["input_schema"]
        )
    (stock, currency) = contracts
    # get_stock_price leaves its arguments open: strict tool use closes them (a narrowing, noted)
    closed = export.export(checked(stock), "anthropic")
    assert closed.strict is True and closed.closed == [()]
    schema = {**tools[0]["input_schema"], "additionalProperties": False}
    assert closed.definition == {**tools[0], "input_schema": schema, "strict": True}
    # convert_currency is: strict, with 'minimum' dropped (and noted)
    result = export.export(checked(currency), "anthropic")
    assert result.strict is True
    expected = json.loads(json.dumps(tools[1]["input_schema"]))
    del expected["properties"]["amount"]["minimum"], expected["properties"]["on"]["examples"]
    expected["properties"]["amount"]["description"] = "(at least 0)"  # told, not enforced
    assert result.definition == {**tools[1], "input_schema": expected, "strict": True}
    assert result.notes == [
        "Anthropic strict tool use does not enforce 'minimum' at /properties/amount: the generated validator is the only enforcement"
    ]
    assert_pipeline_and_write(tmp_path, contracts)


WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string", "description": "City name"},
        "unit": {"type": "string", "enum": ["c", "f"]},
    },
    "required": ["city"],
    "additionalProperties": False,
}


@pytest.mark.parametrize(
    "shape",
    [
        lambda d: d,  # one FunctionDeclaration
        lambda d: [d],  # schema --all --target gemini
        lambda d: {"functionDeclarations": [d]},  # a Gemini Tool
        lambda d: {"tools": [{"function_declarations": [d]}]},  # a request, as the SDK spells it
    ],
    ids=["declaration", "list", "tool", "request"],
)
def test_gemini_function_declarations(shape: Any, tmp_path: Path) -> None:
    declaration = {
        "name": "get_weather",
        "description": "Weather.",
        "parametersJsonSchema": WEATHER,
    }
    (imported,) = importer.import_file(write_json(tmp_path, "gemini.json", shape(declaration)))
    assert (imported.name, imported.kind) == ("get_weather", "gemini")
    assert imported.data["parameters"] == WEATHER
    assert "(Gemini function declarations)" in imported.yaml_text.splitlines()[0]


def test_gemini_legacy_nullable_enum_and_a_tool_without_parameters(tmp_path: Path) -> None:
    # The legacy field says "null too" with nullable: true, its enums holding only strings;
    # its types may be spelt as its Type enum names them (upper case).
    unit = {"type": "STRING", "nullable": True, "enum": ["c", "f"]}
    declarations = [
        {
            "name": "get_weather",
            "description": "Weather.",
            "parameters": {"type": "OBJECT", "properties": {"unit": unit}, "required": ["unit"]},
        },
        {"name": "ping", "description": "Is the service up?"},
    ]
    weather, ping = importer.import_file(write_json(tmp_path, "gemini.json", declarations))
    assert weather.data["parameters"]["properties"]["unit"] == {
        "type": ["string", "null"],
        "enum": ["c", "f", None],
    }
    assert weather.data["parameters"]["type"] == "object"
    assert not [w for w in weather.warnings if "nullable" in str(w)]
    assert ping.data["parameters"] == {"type": "object", "additionalProperties": False}
    assert any("no parameters" in str(w) for w in ping.warnings)


def strict_export(tmp_path: Path, contract: str) -> importer.ImportedContract:
    """``contracts/CONTRACT`` exported for OpenAI, then imported back."""
    path = Path(__file__).resolve().parent.parent / "contracts" / contract
    exported = export.export(checker.check(source.load(path.read_bytes(), contract)), "openai")
    (imported,) = importer.import_file(write_json(tmp_path, "tools.json", [exported.definition]))
    return imported


def test_an_openai_strict_export_says_which_keys_may_have_been_optional(tmp_path: Path) -> None:
    imported = strict_export(tmp_path, "send_email.yaml")
    (warning,) = [w for w in imported.warnings if "OpenAI strict mode:" in w.message]
    named = warning.message.split(": ", 1)[1].split(" are required")[0].split(", ")
    base = "/0/function/parameters/properties"
    # the contract's optional keys ('to', 'subject' and 'body' are required and refuse null)
    assert named == [
        f"{base}/{key}"
        for key in ("cc", "importance", "attachments", "attachments/items/properties/content_type")
    ]
    assert "remove it from 'required' and the null from its schema" in warning.message
    assert warning.pointer == "/0/function/parameters" and warning.input_at is not None
    # strict mode off: the parameters are the contract's own, required keys and all
    off = strict_export(tmp_path, "billing/transfer_funds.yaml")
    assert not [w for w in off.warnings if "OpenAI strict mode:" in w.message]


def test_yaml_1_1_surprises_are_quoted() -> None:
    (_, currency) = importer.import_file(fixture("anthropic_tools.json"))
    text = currency.yaml_text
    assert "'on':" in text  # a key YAML 1.1 reads as true
    assert "enum: ['yes', 'no']" in text
    assert "examples: ['2025-01-31']" in text  # a date
    document = source.load(text.encode("utf-8"), "convert_currency.yaml")  # refuses any surprise
    assert document.data == currency.data
    assert document.data["parameters"]["properties"]["round"]["enum"] == ["yes", "no"]


@pytest.mark.parametrize(
    "value",
    [
        "yes",
        "No",
        "on",
        "OFF",
        "y",
        "n",
        "~",
        "null",
        "true",
        "2025-01-31",
        "12:30",
        "017",
        "0o17",
        "1e3",
        "-.5",
        ".inf",
        ".NaN",
        "0x1F",
        "1_000",
        " padded ",
        "",
        "multi\nline\ntext",
        "trailing\n",
        "tab\there",
        "#hash",
        "- dash",
        "key: value",
        "[x]",
        "{y}",
        "*alias",
        "&anchor",
        "!tag",
        "%pct",
        "@at",
        "`tick",
        "'q'",
        '"dq"',
        "caf\u00e9 \u676d\u5dde",
        "=",
        "<<",
    ],
)
def test_any_string_survives_the_yaml_writer(value: str) -> None:
    data = {
        "name": "t",
        "description": value or "d",
        "parameters": {"type": "object", "properties": {value or "k": {"enum": [value]}}},
    }
    text = importer.to_yaml(data)
    assert source.load(text.encode("utf-8"), "t.yaml").data == data


def test_lone_surrogates_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_text(
        '[{"name": "a", "description": "d", "input_schema": {"type": "object", '
        '"properties": {"x": {"enum": ["\\ud800"]}}}}]',
        encoding="utf-8",
    )
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_file(path)
    (problem,) = raised.value.problems
    assert (
        problem.pointer == "/0/input_schema/properties/x/enum/0"
        and "lone surrogate" in problem.message
    )


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    text=st.text(st.characters(exclude_categories=["Cs"]), max_size=20),
    values=st.lists(
        st.text(st.characters(exclude_categories=["Cs"]), max_size=12), min_size=1, max_size=3
    ),
)
def test_the_yaml_writer_round_trips_any_text(text: str, values: list[str]) -> None:
    data = {
        "name": "t",
        "description": text,
        "parameters": {"type": "object", "properties": {text: {"enum": values}}},
    }
    assert source.load(importer.to_yaml(data).encode("utf-8"), "t.yaml").data == data


def test_contract_text_is_readable() -> None:
    (imported,) = importer.import_file(fixture("pydantic_get_forecast.json"))
    lines = imported.yaml_text.splitlines()
    assert lines[0].startswith(
        "# Imported by toolshape from pydantic_get_forecast.json (JSON Schema)"
    )
    assert lines[1:4] == [
        "name: GetForecast",
        "description: Daily weather forecast for a location, up to two weeks ahead.",
        "parameters:",
    ]
    assert lines[4] == "  type: object"
    assert "    location: {$ref: '#/$defs/Location'}" in lines
    assert lines.index("  $defs:") > lines.index("  properties:")


def assert_pipeline_and_write(tmp_path: Path, contracts: list[importer.ImportedContract]) -> None:
    out = tmp_path / "contracts"
    written = importer.write_imported(contracts, out)
    assert written == [out / c.relative_path for c in contracts]
    for path, imported in zip(written, contracts, strict=False):
        assert path.read_text(encoding="utf-8") == imported.yaml_text
        document = source.load_file(path, str(path))
        checker.check(document)
        generated = generate(imported)
        assert generated.contract.name == imported.name
        assert "def validate(" in generated.module_source


# -- translation of older JSON Schema spellings -------------------------------------------------


def test_draft_04_and_07_spellings_are_translated(tmp_path: Path) -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "id": "https://example.com/schemas/move.json",
        "title": "move_piece",
        "description": "Move a chess piece.",
        "type": "object",
        "definitions": {"square": {"type": "string", "pattern": "^[a-h][1-8]$"}},
        "properties": {
            "from": {"$ref": "#/definitions/square"},
            "to": {"$ref": "https://example.com/schemas/move.json#/definitions/square"},
            "promotion": {"type": "string", "enum": ["q", "r", "b", "n"]},
            "clock": {
                "type": "number",
                "minimum": 0,
                "exclusiveMinimum": True,
                "maximum": 60,
                "exclusiveMaximum": False,
            },
            "path": {
                "type": "array",
                "items": [{"$ref": "#/definitions/square"}],
                "additionalItems": {"type": "integer"},
            },
            "note": {"type": "string", "format": "uri", "example": "https://example.com"},
        },
        "dependencies": {"promotion": ["to"], "clock": {"required": ["from"]}},
        "required": ["from", "to"],
    }
    (imported,) = importer.import_file(write_json(tmp_path, "move.json", schema))
    p = imported.data["parameters"]
    assert imported.name == "move_piece"
    assert p["$defs"] == {"square": {"type": "string", "pattern": "^[a-h][1-8]$"}}
    assert p["properties"]["from"] == {"$ref": "#/$defs/square"}
    assert p["properties"]["to"] == {"$ref": "#/$defs/square"}  # the root $id's own URL is local
    assert p["properties"]["clock"] == {"type": "number", "exclusiveMinimum": 0, "maximum": 60}
    assert p["properties"]["path"] == {
        "type": "array",
        "prefixItems": [{"$ref": "#/$defs/square"}],
        "items": {"type": "integer"},
    }
    assert p["properties"]["note"] == {
        "type": "string",
        "format": "uri",
        "examples": ["https://example.com"],
    }
    assert p["dependentRequired"] == {"promotion": ["to"]}
    assert p["dependentSchemas"] == {"clock": {"required": ["from"]}}
    assert "$schema" not in p and "id" not in p
    assert not any("/properties/note/format" in w for w in map(str, imported.warnings))


def test_refs_into_translated_places_follow_them(tmp_path: Path) -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2019-09/schema",
        "title": "plot",
        "description": "Plot points.",
        "type": "object",
        "properties": {
            "origin": {"type": "array", "items": [{"type": "number"}, {"type": "number"}]},
            "x": {"$ref": "#/properties/origin/items/0"},
            "label": {"$ref": "#/definitions/with~1slash"},
        },
        "definitions": {"with/slash": {"type": "string"}},
    }
    (imported,) = importer.import_file(write_json(tmp_path, "plot.json", schema))
    p = imported.data["parameters"]
    assert p["properties"]["x"] == {"$ref": "#/$defs/properties_origin_prefixItems_0"}
    assert p["properties"]["origin"]["prefixItems"][0] == {
        "$ref": "#/$defs/properties_origin_prefixItems_0"
    }
    assert p["$defs"]["properties_origin_prefixItems_0"] == {"type": "number"}
    assert p["properties"]["label"] == {"$ref": "#/$defs/with~1slash"}
    generate(imported)


def test_refs_outside_the_subschemas_are_read_as_schemas_under_defs(tmp_path: Path) -> None:
    """JSON Schema leaves a $ref to a place not known to hold a schema undefined; the
    implementations real schemas were written for read whatever object is there as one (the
    suite's optional refOfUnknownKeyword tests too). Draft-04 schemas keep definitions under
    a keyword of their own (``#/constraints/name``) or at the root (``#/List``)."""
    schema = bare(
        DRAFT4,
        {
            "name": {"$ref": "#/constraints/nonEmpty"},
            "names": {"$ref": "#/constraints/list"},
            "list": {"$ref": "#/List"},
            "kind": {"enum": [{"type": "integer"}, 3]},
            "count": {"$ref": "#/properties/kind/enum/0"},
        },
        constraints={
            "nonEmpty": {"type": "string", "minLength": 1},
            "list": {"type": "array", "items": {"$ref": "#/constraints/nonEmpty"}},
        },
        List={"type": "object", "properties": {}},
    )
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    p = imported.data["parameters"]
    assert p["properties"]["name"] == {"$ref": "#/$defs/constraints_nonEmpty"}
    assert p["$defs"]["constraints_nonEmpty"] == {"type": "string", "minLength": 1}
    assert p["$defs"]["constraints_list"]["items"] == {"$ref": "#/$defs/constraints_nonEmpty"}
    assert p["$defs"][p["properties"]["list"]["$ref"].removeprefix("#/$defs/")] == {
        "type": "object",
        "properties": {},
    }
    # The enum keeps its member; the $ref gets a copy read as a schema, with a warning.
    assert p["properties"]["kind"]["enum"] == [{"type": "integer"}, 3]
    assert p["$defs"][p["properties"]["count"]["$ref"].removeprefix("#/$defs/")] == {
        "type": "integer"
    }
    assert any("reads this 'enum' entry as a schema" in w for w in map(str, imported.warnings))
    assert all(ref.startswith("#/$defs/") for ref in _refs(p))
    generated = generate(imported)
    module = runtime.load_module(generated.module_source, str(generated.module_path))
    assert module.validate({"name": "x", "names": ["a"], "count": 2}).ok
    assert [(e.path, e.code) for e in module.validate({"name": "", "count": "2"}).errors] == [
        ("/name", "minLength"),
        ("/count", "type"),
    ]


def test_refs_to_values_that_are_not_schemas_are_refused(tmp_path: Path) -> None:
    schema = bare(
        DRAFT4,
        {
            "kind": {"enum": ["a", 3]},
            "bad": {"$ref": "#/properties/kind/enum/1"},
            "worse": {"$ref": "#/description"},
        },
    )
    problems = problems_of(tmp_path, schema, "t.json")
    assert [(p.pointer, p.message) for p in problems] == [
        ("/properties/bad/$ref", "$ref '#/properties/kind/enum/1' points at 3 under 'enum', not at a schema"),
        ("/properties/worse/$ref", """$ref '#/description' points at "d" under 'description', not at a schema"""),
    ]  # fmt: skip


def test_a_property_its_pattern_checks_alike_is_checked_once(tmp_path: Path) -> None:
    """The Washington Post's credits: 'by' is checked by its own schema and, again, by a
    pattern that matches every name; both recurse to the root, so checking both would double
    with every level (the contract check refuses it). The two are equal but for annotations."""
    credits = {"type": "array", "items": {"anyOf": [{"$ref": "#"}, {"type": "string"}]}}
    schema = bare(
        DRAFT4,
        {
            "by": {"title": "By", "description": "The authors.", **credits},
            "other": {"description": "Not alike.", "type": "array", "maxItems": 1},
        },
        patternProperties={"^[a-z_]*": credits},
    )
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    p = imported.data["parameters"]
    assert p["properties"]["by"] == {"title": "By", "description": "The authors."}
    assert p["properties"]["other"]["maxItems"] == 1  # not equal to the pattern's: kept
    assert any("its own copy dropped" in t and "/properties/by" in t for t in imported.translations)
    generated = generate(imported)
    module = runtime.load_module(generated.module_source, str(generated.module_path))
    assert module.validate({"by": [{"by": ["ana", {"by": ["ben"], "x_y": []}]}]}).ok
    nested = {"by": [{"by": ["ana", {"by": [3]}]}]}  # 3 deep down: the outer anyOf fails
    assert [(e.path, e.code) for e in module.validate(nested).errors] == [("/by/0", "anyOf")]


def test_draft_07_keywords_beside_ref_are_dropped(tmp_path: Path) -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "t",
        "description": "d",
        "type": "object",
        "definitions": {"n": {"type": "integer"}},
        "properties": {"a": {"$ref": "#/definitions/n", "minimum": 5, "description": "kept"}},
    }
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    assert imported.data["parameters"]["properties"]["a"] == {
        "$ref": "#/$defs/n",
        "description": "kept",
    }
    assert any("'minimum' beside '$ref' is dropped" in w for w in map(str, imported.warnings))


def test_an_unknown_format_is_kept_as_an_annotation_with_a_warning(tmp_path: Path) -> None:
    schema = {
        "title": "t",
        "description": "d",
        "type": "object",
        "properties": {
            "phone": {"type": "string", "format": "phone"},
            "home": {"type": "string", "format": "iri"},
        },
    }
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    properties = imported.data["parameters"]["properties"]
    assert properties["phone"] == {"type": "string", "x-format": "phone"}
    assert properties["home"] == {"type": "string", "format": "iri"}
    (warning,) = [w for w in map(str, imported.warnings) if "format" in w]
    assert "/properties/phone/format" in warning and "x-format" in warning
    generated = generate(imported)  # the kept annotation passes the contract check
    module = runtime.load_module(generated.module_source, "t_formats.py")
    assert module.validate({"phone": "not checked", "home": "https://例え.jp/"}).status == "accept"
    result = module.validate({"phone": "x", "home": "not an iri"})
    assert [(e.path, e.code) for e in result.errors] == [("/home", "format")]


#: (draft, a format that draft's specification does not define, a value the format refuses).
#: The formats as toolshape asserts them: as JSON Schema 2020-12 defines them, in every draft.
FORMAT_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER
FORMATS_A_LATER_DRAFT_NAMED = [
    ("7", "uuid", "123e4567-e89b-42d3-a456-42661417400g"),  # zod's draft-07 uuid (circleci)
    ("7", "duration", "P1Y2"),
    ("6", "date", "2024-13-01"),
    ("6", "time", "12:00"),
    ("4", "date", "abc"),  # JSONSchemaBench's labels: Github_ultra o65424
    ("4", "uri-reference", "\\\\x"),
    ("4", "time", "25:00:00Z"),
]


@pytest.mark.parametrize(("draft", "name", "refused"), FORMATS_A_LATER_DRAFT_NAMED)
def test_a_format_a_later_draft_named_is_asserted_under_every_draft(
    tmp_path: Path, draft: str, name: str, refused: str
) -> None:
    """A format toolshape asserts is asserted whatever draft the schema declares (draft 7 has
    no ``uuid``, but zod writes it there and means it): drafts 4 to 7 let a validator assert
    the formats it knows, and the validators people run do. Judged by jsonschema with the
    declared draft's validator and the formats as 2020-12 defines them, and under
    ``--formats annotate`` by the same validator without format checking."""
    dialect = {
        "4": "http://json-schema.org/draft-04/schema#",
        "6": "http://json-schema.org/draft-06/schema#",
        "7": "http://json-schema.org/draft-07/schema#",
    }[draft]
    declared = {"type": "object", "properties": {"v": {"type": "string", "format": name}}}
    for schema in ({"$schema": dialect, **declared}, declared):
        judge = jsonschema.validators.validator_for(schema, jsonschema.Draft202012Validator)
        for reading, format_checker in (("assert", FORMAT_CHECKER), ("annotate", None)):
            listed = {"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
            options = importer.ImportOptions(formats=reading)
            (imported,) = importer.import_data(listed, "tools.json", options=options)
            module = runtime.load_module(generate(imported).module_source, "t_draft_formats.py")
            expected = judge(schema, format_checker=format_checker).is_valid({"v": refused})
            assert expected is (reading == "annotate"), (draft, name, reading)
            assert module.validate({"v": refused}).ok is expected, (draft, name, schema)
            assert not [w for w in map(str, imported.warnings) if "format" in w]


#: A string no format accepts: a space and an unclosed '[' break every one of them.
NO_FORMAT = "not valid ["


@pytest.mark.parametrize("reading", importer.FORMAT_READINGS)
def test_formats_are_asserted_or_read_as_annotations_as_asked(reading: str, tmp_path: Path) -> None:
    """``import --formats annotate`` keeps every format as the annotation x-format (JSON Schema
    2020-12's default reading), so no value is refused for its format; by default every
    format is asserted. The class: every format toolshape asserts."""
    names = vocabulary.format_names()
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "t",
        "description": "d",
        "type": "object",
        "properties": {f"p{i}": {"type": "string", "format": name} for i, name in enumerate(names)},
    }
    out = tmp_path / "contracts"
    argv = ["import", str(write_json(tmp_path, "t.json", schema)), "--out", str(out), "-q"]
    assert cli.main([*argv, "--formats", reading]) == 0
    (imported,) = importer.import_file(
        tmp_path / "t.json", options=importer.ImportOptions(formats=reading)
    )
    assert (out / "t.yaml").read_text(encoding="utf-8") == imported.yaml_text
    kept = "format" if reading == "assert" else "x-format"
    assert imported.data["parameters"]["properties"] == {
        f"p{i}": {"type": "string", kept: name} for i, name in enumerate(names)
    }
    module = runtime.load_module(generate(imported).module_source, f"t_{reading}.py")
    result = module.validate({f"p{i}": NO_FORMAT for i in range(len(names))})
    refused = sorted(e.path for e in result.errors if e.code == "format")
    assert refused == (sorted(f"/p{i}" for i in range(len(names))) if reading == "assert" else [])


def test_a_format_read_as_an_annotation_beside_x_format_is_dropped_with_a_warning(
    tmp_path: Path,
) -> None:
    schema = {
        "title": "t",
        "description": "d",
        "type": "object",
        "properties": {"home": {"type": "string", "format": "uri", "x-format": "url"}},
    }
    (imported,) = importer.import_file(
        write_json(tmp_path, "t.json", schema), options=importer.ImportOptions(formats="annotate")
    )
    assert imported.data["parameters"]["properties"]["home"] == {
        "type": "string",
        "x-format": "url",
    }
    (warning,) = [w for w in map(str, imported.warnings) if "format" in w]
    assert warning.startswith("/properties/home/format: ") and "'x-format' is taken" in warning


def test_an_unknown_format_reading_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown format reading 'check'"):
        importer.ImportOptions(formats="check")


# -- remote schemas from local folders (--remote) --------------------------------------------

#: The URL prefix the remote-schema tests map to a local folder.
REMOTE = "https://schemas.example.com/"


def remote_schema(ref: str) -> dict[str, Any]:
    """A 2020-12 schema whose one required property ``v`` is a ``$ref`` to ``ref``."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "t",
        "description": "d",
        "type": "object",
        "properties": {"v": {"$ref": ref}},
        "required": ["v"],
    }


def read_schema_file(path: Path) -> referencing.Resource[Any]:
    """The schema in a JSON or YAML file, as jsonschema's registry holds it (2020-12 by default)."""
    text = path.read_text(encoding="utf-8")
    contents = yaml.safe_load(text) if path.suffix == ".yaml" else json.loads(text)
    return referencing.jsonschema.DRAFT202012.create_resource(contents)


def remote_folder(tmp_path: Path) -> Path:
    """A folder of shared schemas: a document with definitions and an anchor, one whose
    ``$id`` differs from its URL, and one (YAML, in a subfolder) that refers to another."""
    folder = tmp_path / "schemas"
    (folder / "money").mkdir(parents=True)
    (folder / "common.json").write_text(
        json.dumps(
            {
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "$defs": {
                    "amount": {"type": "integer", "minimum": 0},
                    "code": {"$anchor": "code", "type": "string", "pattern": "^[A-Z]{3}$"},
                },
            }
        ),
        encoding="utf-8",
    )
    (folder / "moved.json").write_text(
        json.dumps(
            {
                "$id": "https://elsewhere.example/real.json",
                "$defs": {"s": {"type": "string"}},
                "$ref": "#/$defs/s",
            }
        ),
        encoding="utf-8",
    )
    (folder / "money" / "price.yaml").write_text(
        "type: object\nproperties:\n  amount: {$ref: '../common.json#/$defs/amount'}\n"
        "  currency: {$ref: '/common.json#code'}\nrequired: [amount, currency]\n",
        encoding="utf-8",
    )
    return folder


@pytest.mark.parametrize(
    ("ref", "tried"),
    [
        ("common.json#/$defs/amount", [3, 0, -1, 2.5, "3"]),
        ("common.json#code", ["EUR", "eur", "EURO", 3]),
        ("moved.json", ["x", 1, None]),
        (
            "money/price.yaml",
            [
                {"amount": 1, "currency": "EUR"},
                {"amount": -1, "currency": "EUR"},
                {"amount": 1},
                {"amount": 1, "currency": "e"},
            ],
        ),
    ],
)
def test_a_remote_ref_under_a_mapped_prefix_is_read_from_the_local_folder(
    ref: str, tried: list[Any], tmp_path: Path
) -> None:
    """A pointer, an anchor, a document whose ``$id`` is not its URL, and a YAML document that
    refers further (relative to its own URL, and by an absolute path): each imports as a local
    definition, and the validator agrees with jsonschema reading the same files."""
    import jsonschema

    folder = remote_folder(tmp_path)
    mapping = remotes.RemoteFolder.parse(f"{REMOTE}={folder}")
    schema = remote_schema(REMOTE + ref)
    (imported,) = importer.import_data(
        schema, "t.json", options=importer.ImportOptions(remotes=(mapping,))
    )
    assert REMOTE not in json.dumps(imported.data["parameters"])  # every $ref is local now
    module = runtime.load_module(generate(imported).module_source, "t_remote.py")

    resources = [
        (f"{REMOTE}{path.relative_to(folder).as_posix()}", read_schema_file(path))
        for path in folder.rglob("*.*")
    ]
    registry: referencing.Registry[Any] = referencing.Registry().with_resources(resources)
    oracle = jsonschema.Draft202012Validator(schema, registry=registry)
    verdicts = [
        (module.validate({"v": value}).ok, oracle.is_valid({"v": value})) for value in tried
    ]
    assert [mine for mine, _ in verdicts] == [theirs for _, theirs in verdicts]
    assert {theirs for _, theirs in verdicts} == {True, False}  # the cases tell the two apart


@pytest.mark.parametrize(
    ("ref", "message"),
    [
        ("../outside.json", "names no file inside the folder"),
        ("money/../../outside.json", "names no file inside the folder"),
        ("%2e%2e/outside.json", "names no file inside the folder"),
        ("/etc/passwd", "names no file inside the folder"),
        ("common.json?x=1", "names no file inside the folder"),
        ("a%00b.json", "names no file inside the folder"),
        ("link.json", "leads out of the folder (a link)"),
        ("missing.json", "is not there: no file"),
        ("money", "is not there: no file"),
        ("list.json", "is not a schema"),
        ("broken.json", "not valid JSON"),
        ("twice.json", "appears twice in one object"),
        ("custom.json", "names no draft toolshape reads"),
    ],
)
def test_a_remote_ref_that_names_no_schema_inside_the_folder_is_an_error_at_the_ref(
    ref: str, message: str, tmp_path: Path
) -> None:
    """Nothing outside the mapped folder is read, whatever the URL says (a parent step, spelled
    or percent-encoded, an absolute path, a query, a link out), and what is read must be a
    schema of a draft toolshape reads (a document too big or too deep: the test named
    test_the_input_file_and_a_remote_schema_are_refused_alike): each is an error at the ``$ref``, never a traceback, and nothing is imported."""
    folder = remote_folder(tmp_path)
    (tmp_path / "outside.json").write_text('{"type": "string"}', encoding="utf-8")
    (folder / "link.json").symlink_to(tmp_path / "outside.json")
    (folder / "list.json").write_text("[1, 2]", encoding="utf-8")
    (folder / "broken.json").write_text('{"type": ', encoding="utf-8")
    (folder / "twice.json").write_text('{"type": "integer", "type": "string"}', encoding="utf-8")
    (folder / "custom.json").write_text(
        '{"$schema": "https://schemas.example.com/meta.json", "type": "string"}', encoding="utf-8"
    )
    mapping = remotes.RemoteFolder.parse(f"{REMOTE}={folder}")
    options = importer.ImportOptions(remotes=(mapping,))
    path = write_json(tmp_path, "t.json", remote_schema(REMOTE + ref))
    out = tmp_path / "contracts"
    argv = ["import", str(path), "--out", str(out), "--remote", f"{REMOTE}={folder}"]
    assert cli.main(argv) == 1
    assert not out.exists()
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_file(path, options=options)
    (problem,) = raised.value.problems
    assert problem.pointer == "/properties/v/$ref" and message in problem.message


#: Documents the import refuses as its input file and as a remote schema alike (one reader,
#: ``platforms/documents.py``), each with the message it is refused with: over the size limit
#: (set to 250,000 bytes here: under it, the next two), nested too deep in its text (within the
#: decoders' recursion and past it), and YAML aliases, which a schema never needs and which grow
#: a document past what its text shows: deeper (its text is two levels deep), or exponentially
#: larger (each alias names the one before it twice: 2**40 nodes in 41 lines).
REFUSED_DOCUMENTS = {
    "oversized.json": ('{"type": "object"' + " " * 250_000 + "}", "bytes; the limit is 250000"),
    "deep.json": ('{"not": ' * 200 + "{}" + "}" * 200, documents.TOO_DEEP),
    "deeper.json": ("[" * 100_000 + "]" * 100_000, documents.TOO_DEEP),
    "aliases.yaml": (
        "a0: &a0 {type: object}\n"
        + "".join(f"a{n}: &a{n} {{not: *a{n - 1}}}\n" for n in range(1, 120)),
        documents.ALIAS,
    ),
    "laughs.yaml": (
        "a0: &a0 {type: string}\n"
        + "".join(f"a{n}: &a{n} {{allOf: [*a{n - 1}, *a{n - 1}]}}\n" for n in range(1, 41)),
        documents.ALIAS,
    ),
}


@pytest.mark.parametrize("name", sorted(REFUSED_DOCUMENTS))
@pytest.mark.parametrize("read_as", ["the input file", "a remote schema"])
def test_the_input_file_and_a_remote_schema_are_refused_alike(
    name: str, read_as: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One reader, one set of limits and messages: a document too large or nested too deep is
    refused with the same message whether it is the file imported or a remote schema its
    ``$ref`` names (there, an error at the ``$ref``); the command exits 1 and writes nothing."""
    monkeypatch.setattr(documents, "MAX_INPUT_BYTES", 250_000)
    text, message = REFUSED_DOCUMENTS[name]
    folder = remote_folder(tmp_path)
    (folder / name).write_text(text, encoding="utf-8")
    if read_as == "the input file":
        path, argv_more, pointer = folder / name, [], None
    else:
        path = write_json(tmp_path, "t.json", remote_schema(REMOTE + name))
        argv_more, pointer = ["--remote", f"{REMOTE}={folder}"], "/properties/v/$ref"
    out = tmp_path / "contracts"
    assert cli.main(["import", str(path), "--out", str(out), *argv_more]) == 1
    assert not out.exists()
    options = importer.ImportOptions(remotes=(remotes.RemoteFolder.parse(f"{REMOTE}={folder}"),))
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_file(path, options=options)
    (problem,) = raised.value.problems
    assert message in problem.message
    if pointer is not None:
        assert problem.pointer == pointer
    elif name.endswith(".yaml"):  # at the first alias
        assert problem.file == f"{name}:2:{text.split(chr(10))[1].index('*') + 1}", problem
    else:
        assert problem.pointer is None and problem.file.startswith(name)


class _ParseCount:
    """How many times each parser was started on a document: YAML readers made and JSON
    decodes begun (tests count work, not time)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.yaml = self.json = 0
        yaml_reader_init, json_loads = yaml.reader.Reader.__init__, json.loads

        def counted_reader(reader: Any, stream: Any) -> None:
            self.yaml += 1
            yaml_reader_init(reader, stream)

        def counted_loads(text: str, **options: Any) -> Any:
            self.json += 1
            return json_loads(text, **options)

        monkeypatch.setattr(yaml.reader.Reader, "__init__", counted_reader)
        monkeypatch.setattr(json, "loads", counted_loads)


#: A YAML document's first mapping or list past MAX_INPUT_DEPTH: a flow list in the value of
#: ``b`` (line 2, from column 6) two mappings deep, so its k-th bracket nests 2 + k deep.
_DEEP_YAML = "a:\n  b: " + "[" * 200 + "]" * 200 + "\n"
_DEEP_YAML_COLUMN = 6 + (documents.MAX_INPUT_DEPTH - 2)

#: YAML documents the import refuses, each with its message and the line and column it is
#: refused at (as a contract's YAML is: the alias, the key given twice, the bracket too deep).
YAML_REFUSALS = {
    "deep.yaml": (_DEEP_YAML, documents.TOO_DEEP, (2, _DEEP_YAML_COLUMN)),
    "alias.yaml": (
        "type: object\nproperties:\n  a: &a {type: string}\n  b: *a\n",
        documents.ALIAS,
        (4, 6),
    ),
    "twice.yaml": (
        "type: object\nproperties: {}\ntype: string\n",
        "the key 'type' appears twice in one object",
        (3, 1),
    ),
    "twice-nested.yaml": (
        "properties:\n  a: {type: string, type: integer}\n",
        "the key 'type' appears twice in one object",
        (2, 21),
    ),
    "twice-after-equals.yaml": (
        "properties:\n  =: {type: string}\n  =: {type: integer}\n",
        "the key '=' appears twice in one object",
        (3, 3),
    ),
    "merge.yaml": (
        "type: object\nproperties: {a: {}}\n<<: {required: [a]}\n",
        documents.MERGE,
        (3, 1),
    ),
    "merge-nested.yaml": (
        "properties:\n  a: {type: string, <<: {minLength: 1}}\n",
        documents.MERGE,
        (2, 21),
    ),
    "int-key.yaml": ("1: a\ntrue: b\n", "keys must be strings; write '1' in quotes", (1, 1)),
    "bool-key.yaml": ("a: 1\ntrue: b\n", "keys must be strings; write 'true' in quotes", (2, 1)),
    "null-key.yaml": (
        "properties:\n  ~: {}\n",
        "keys must be strings; write '~' in quotes",
        (2, 3),
    ),
    "list-key.yaml": ("? [a]\n: b\n", "keys must be strings, not a list", (1, 3)),
    "object-key.yaml": ("? {a: 1}\n: b\n", "keys must be strings, not an object", (1, 3)),
}


#: A value of each kind YAML has and JSON has not (with its tag implied and written out),
#: with the place it is refused at and the start of its message, which says what to write.
_DATE = "is read as a date by YAML 1.1; quote it"
_NUMBER = "is not a JSON number; quote it"
YAML_ONLY_VALUES = [
    ("maximum: .nan\n", (1, 10), f"'.nan' {_NUMBER} ('.nan')"),
    ("maximum: .NaN\n", (1, 10), f"'.NaN' {_NUMBER} ('.NaN')"),
    ("maximum: .inf\n", (1, 10), f"'.inf' {_NUMBER} ('.inf')"),
    ("minimum: -.Inf\n", (1, 10), f"'-.Inf' {_NUMBER} ('-.Inf')"),
    ("maximum: 1.0e+999\n", (1, 10), "the number '1.0e+999' is too large for a JSON number; write"),
    ("maximum: !!float 1e999\n", (1, 10), "the number '1e999' is too large for a JSON number"),
    ("maximum: !!float .inf\n", (1, 10), "'.inf' is not a valid !!float value"),
    ("default: !custom x\n", (1, 10), "the tag !custom is not JSON: write the value untagged"),
    ("default: !!float {a: 1}\n", (1, 10), "the tag !!float cannot be used on an object or a"),
    ("default: !!str [1]\n", (1, 10), "the tag !!str cannot be used on an object or a list"),
    ("default: !!value =\n", (1, 10), "the tag !!value is not JSON: write the value untagged"),
    ("enum: [1, .nan]\n", (1, 11), f"'.nan' {_NUMBER} ('.nan')"),
    ("default: 2001-12-14\n", (1, 10), f"'2001-12-14' {_DATE} ('2001-12-14')"),
    ("default: 2001-12-14 21:59:43.10 -5\n", (1, 10), f"'2001-12-14 21:59:43.10 -5' {_DATE}"),
    ("const: !!timestamp 2001-12-14\n", (1, 8), f"'2001-12-14' {_DATE}"),
    ("properties:\n  2001-12-14: {}\n", (2, 3), "keys must be strings; write '2001-12-14' in"),
    ("enum: [!!binary aGVsbG8=]\n", (1, 8), "a !!binary value is YAML only (JSON has no bytes)"),
    ("default: !!set {a, b}\n", (1, 10), "a !!set is YAML only: write its members as a JSON list"),
    ("default: !!omap [a: 1, b: 2]\n", (1, 10), "a !!omap is YAML only: write a JSON object"),
    (
        "default: !!pairs [a: 1, a: 2]\n",
        (1, 10),
        "a !!pairs list is YAML only: write a JSON object",
    ),
]


@pytest.mark.parametrize(("text", "at", "message"), YAML_ONLY_VALUES)
def test_a_yaml_only_value_is_refused_at_its_place_saying_what_to_write(
    text: str, at: tuple[int, int], message: str, tmp_path: Path
) -> None:
    """Dates, bytes, sets, ordered pairs and numbers that are not finite have no JSON value:
    import refuses each where it is written (a located error, never a traceback) instead of
    handing a value no contract can hold to the rest of the import."""
    (tmp_path / "schema.yaml").write_text(f"type: object\n{text}", encoding="utf-8")
    with pytest.raises(documents.DocumentError) as raised:
        documents.read(tmp_path / "schema.yaml")
    assert raised.value.message.startswith(message)
    assert raised.value.at == (at[0] + 1, at[1])
    with pytest.raises(importer.ContractImportError) as imported:
        importer.import_file(tmp_path / "schema.yaml")
    (problem,) = imported.value.problems
    assert problem.file == f"schema.yaml:{at[0] + 1}:{at[1]}"


@pytest.mark.parametrize(
    ("text", "data"),
    [
        ("properties: {=: {type: string}}\n", {"properties": {"=": {"type": "string"}}}),
        ("'<<': {type: string}\n", {"<<": {"type": "string"}}),
        ("'1': a\n'true': b\n", {"1": "a", "true": "b"}),
    ],
)
def test_yaml_keys_that_are_json_strings_are_read_as_written(
    text: str, data: Any, tmp_path: Path
) -> None:
    """The key `=` (which YAML 1.1 tags specially) and quoted keys that would otherwise be a
    merge key, a number or a boolean are the strings they are written as."""
    (tmp_path / "keys.yaml").write_text(text, encoding="utf-8")
    assert documents.read(tmp_path / "keys.yaml").data == data


@pytest.mark.parametrize("name", sorted(YAML_REFUSALS))
def test_a_yaml_document_is_refused_at_its_place_after_one_parse(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each refusal of a YAML document keeps its line and column, found while the document is
    composed: the text goes through PyYAML's reader once (a JSON decode is tried first and
    stops at the first character that is not JSON)."""
    text, message, at = YAML_REFUSALS[name]
    (tmp_path / name).write_text(text, encoding="utf-8")
    count = _ParseCount(monkeypatch)
    with pytest.raises(documents.DocumentError) as raised:
        documents.read(tmp_path / name)
    assert (raised.value.message, raised.value.at) == (message, at)
    assert (count.yaml, count.json) == (1, 0 if name == "deep.yaml" else 1)


def _yaml_properties(count: int, schema: str) -> str:
    """A YAML schema with ``count`` properties, each ``schema`` (a flow mapping)."""
    return "description: d\ntype: object\nproperties:\n" + "".join(
        f"  p{index}: {schema}\n" for index in range(count)
    )


def _places_of(text: str, needle: str) -> list[tuple[int, int]]:
    """The line and column (1-based) of ``needle`` on each line that holds it."""
    return [
        (number, line.index(needle) + 1)
        for number, line in enumerate(text.split("\n"), start=1)
        if needle in line
    ]


@pytest.mark.parametrize("count", [50, 100, 200])
def test_a_yaml_file_is_composed_once_however_many_warnings_it_has(
    count: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each warning is placed at its line and column by walking the nodes the file was composed
    into when it was read: one YAML parse for any number of warnings, not one per warning."""
    path = tmp_path / "many.yaml"
    text = _yaml_properties(count, "{type: string, format: no-such-format}")
    path.write_text(text, "utf-8")
    parses = _ParseCount(monkeypatch)
    (contract,) = importer.import_file(path)
    assert parses.yaml == 1
    places = [warning.input_at for warning in contract.warnings]
    assert places == _places_of(text, "no-such-format") and len(places) == count


@pytest.mark.parametrize("count", [50, 100, 200])
def test_a_yaml_file_is_composed_once_however_many_errors_it_has(
    count: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As for warnings: the errors of an import are placed without composing the file again."""
    path = tmp_path / "many.yaml"
    text = _yaml_properties(count, "{type: string, pattern: '('}")
    path.write_text(text, "utf-8")
    parses = _ParseCount(monkeypatch)
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_file(path)
    assert parses.yaml == 1
    places = [problem.input_at for problem in raised.value.problems]
    assert places == _places_of(text, "'('") and len(places) == count


def test_a_json_file_s_warnings_are_placed_in_work_linear_in_their_number(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each warning of a JSON file is placed by walking its text; an object's members are
    found once, not skipped again by every lookup that passes through it: the values decoded
    grow by the same amount for each 50 more warnings (a walk per warning
    through the wide object grows with the square of their number)."""
    decoded = 0
    raw_decode = json.JSONDecoder.raw_decode

    def counted(decoder: json.JSONDecoder, text: str, idx: int = 0) -> tuple[Any, int]:
        nonlocal decoded
        decoded += 1
        return raw_decode(decoder, text, idx)

    monkeypatch.setattr(json.JSONDecoder, "raw_decode", counted)
    work = {}
    for count in (50, 100, 150):
        schema = {
            "description": "d",
            "type": "object",
            "properties": {f"p{index}": {"format": "no-such-format"} for index in range(count)},
        }
        text = json.dumps(schema, indent=1)
        (tmp_path / "many.json").write_text(text, "utf-8")
        decoded = 0
        (contract,) = importer.import_file(tmp_path / "many.json")
        assert [warning.input_at for warning in contract.warnings] == _places_of(
            text, '"no-such-format"'
        )
        work[count] = decoded
    assert work[150] - work[100] == work[100] - work[50] > 0


@pytest.mark.parametrize(
    ("name", "text", "parses"),
    [
        ("block.yaml", "type: object\nproperties:\n  a: {type: string}\n", (1, 1)),
        ("json-text.yaml", '{"type": "object", "properties": {"a": {"type": "string"}}}', (0, 1)),
        ("schema.json", '{"type": "object", "properties": {"a": {"type": "string"}}}', (0, 1)),
    ],
)
def test_a_document_read_is_parsed_once(
    name: str, text: str, parses: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One parse per document: YAML composed once, with its limits checked as it is (not
    parsed for its depth and then again for its value), JSON decoded once after a scan of its
    brackets (YAML text tried as JSON first: the decode stops at its first character)."""
    (tmp_path / name).write_text(text, encoding="utf-8")
    count = _ParseCount(monkeypatch)
    document = documents.read(tmp_path / name)
    assert document.data == {"type": "object", "properties": {"a": {"type": "string"}}}
    assert (count.yaml, count.json) == parses


def test_a_remote_ref_no_prefix_covers_stays_refused(tmp_path: Path) -> None:
    folder = remote_folder(tmp_path)
    options = importer.ImportOptions(remotes=(remotes.RemoteFolder.parse(f"{REMOTE}={folder}"),))
    schema = remote_schema("https://other.example.com/common.json#/$defs/amount")
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_data(schema, "t.json", options=options)
    (problem,) = raised.value.problems
    assert problem.pointer == "/properties/v/$ref"
    assert "toolshape never fetches schemas" in problem.message and "--remote" in problem.message


@pytest.mark.parametrize(
    "value",
    ["https://schemas.example.com/", "=folder", "schemas.example.com/=f", "https://x.example/a=f"],
)
def test_a_remote_option_that_is_no_prefix_and_folder_is_a_usage_error(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write_json(tmp_path, "t.json", remote_schema(REMOTE + "common.json"))
    argv = ["import", str(path), "--out", str(tmp_path / "contracts"), "--remote", value]
    assert cli.main(argv) == 2
    assert "toolshape: error: --remote: " in capsys.readouterr().err
    assert not (tmp_path / "contracts").exists()


def test_a_bare_schema_is_named_after_the_file_when_its_title_is_no_tool_name(
    tmp_path: Path,
) -> None:
    schema = {
        "title": "Create an event",
        "description": "Create a calendar event.",
        "type": "object",
        "properties": {},
    }
    (imported,) = importer.import_file(write_json(tmp_path, "create_event.schema.json", schema))
    assert imported.name == "create_event"
    assert imported.data["parameters"] == {
        "type": "object",
        "title": "Create an event",
        "properties": {},
    }
    assert any("not a tool name" in w for w in map(str, imported.warnings))


def test_yaml_input(tmp_path: Path) -> None:
    path = tmp_path / "tools.yaml"
    path.write_text(
        "- name: ping\n  description: Ping the server.\n  input_schema: {type: object}\n",
        encoding="utf-8",
    )
    (imported,) = importer.import_file(path)
    assert imported.data == {
        "name": "ping",
        "description": "Ping the server.",
        "parameters": {"type": "object"},
    }


def test_file_names_are_module_names(tmp_path: Path) -> None:
    tools = [
        {"name": name, "description": "d", "input_schema": {"type": "object"}}
        for name in (
            "get-weather.v2",
            "class",
            "2fa_reset",
            "tests",
            "TOOLS",
            "SendEmail",
            "send_email",
        )
    ]
    contracts = importer.import_file(write_json(tmp_path, "many.json", tools))
    assert [c.relative_path for c in contracts] == [
        "get_weather_v2.yaml",
        "class_tool.yaml",
        "tool_2fa_reset.yaml",
        "tests_tool.yaml",
        "tools_tool.yaml",
        "send_email.yaml",
        "send_email_2.yaml",
    ]
    assert any("send_email.yaml is taken" in w for w in map(str, contracts[-1].warnings))


# -- what cannot be carried over ----------------------------------------------------------------


def test_every_problem_is_reported_with_tool_and_pointer(tmp_path: Path) -> None:
    tools = {
        "tools": [
            {
                "name": "remote",
                "description": "d",
                "inputSchema": {
                    "type": "object",
                    "properties": {"a": {"$ref": "https://example.com/a.json"}},
                },
            },
            {"name": "array_root", "description": "d", "inputSchema": {"type": "array"}},
            {"name": "bad name!", "description": "d", "inputSchema": {"type": "object"}},
            {"name": "no_description", "description": 3, "inputSchema": {"type": "object"}},
            {
                "name": "anchor",
                "description": "d",
                "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#thing"}}},
            },
            {
                "name": "dangling",
                "description": "d",
                "inputSchema": {"type": "object", "properties": {"a": {"$ref": "#/$defs/nope"}}},
            },
            {
                "name": "recursive",
                "description": "d",
                "inputSchema": {
                    "$schema": "https://json-schema.org/draft/2019-09/schema",
                    "type": "object",
                    "properties": {"a": {"$recursiveRef": "#/x"}},
                },
            },
            {
                "name": "dynamic",
                "description": "d",
                "inputSchema": {"type": "object", "properties": {"a": {"$dynamicRef": "#node"}}},
            },
            {"name": "fine", "description": "d", "inputSchema": {"type": "object"}},
        ]
    }
    problems = problems_of(tmp_path, tools)
    shown = [(p.tool, p.pointer) for p in problems]
    assert shown == [
        ("remote", "/tools/0/inputSchema/properties/a/$ref"),
        ("array_root", "/tools/1/inputSchema/type"),
        ("bad name!", "/tools/2/name"),
        ("no_description", "/tools/3/description"),
        ("anchor", "/tools/4/inputSchema/properties/a/$ref"),
        ("dangling", "/tools/5/inputSchema/properties/a/$ref"),
        ("recursive", "/tools/6/inputSchema/properties/a/$recursiveRef"),
        ("dynamic", "/tools/7/inputSchema/properties/a/$dynamicRef"),
    ]
    text = "\n".join(str(p) for p in problems)
    assert (
        "tools.json: tool 'remote' at /tools/0/inputSchema/properties/a/$ref: error: remote $ref"
        in text
    )
    assert "$dynamicRef '#node' names an anchor that no '$anchor' (nor '$dynamicAnchor'" in text
    assert 'the root type is "array", not "object"' in text
    assert "names an anchor that no '$anchor'" in text
    assert "points at nothing" in text


def test_contract_check_failures_are_reported_at_the_input_pointer(tmp_path: Path) -> None:
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "title": "t",
        "description": "d",
        "type": "object",
        "definitions": {"n": {"type": "string", "minimum": 3}},
        "properties": {
            "a": {"$ref": "#/definitions/n"},
            "b": {"type": "string", "pattern": "[z-a]"},
        },
        "required": ["c"],
        "additionalProperties": False,
    }
    problems = problems_of(tmp_path, schema, "t.json")
    assert all(p.tool == "t" for p in problems)
    assert [p.pointer for p in problems] == ["/properties/b/pattern"], problems
    assert all("(toolshape's contract check)" in p.message for p in problems)
    # Keywords with no effect are dropped with a warning (at the input pointer), not refused.
    del schema["properties"]["b"]["pattern"]  # type: ignore[index]
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    assert imported.data["parameters"]["$defs"]["n"] == {"type": "string"}
    assert any(
        w.startswith("/definitions/n/minimum: 'minimum' has no effect")
        for w in map(str, imported.warnings)
    ), imported.warnings
    # A required key that additionalProperties: false forbids is kept (issue 24): no object
    # can pass, as the schema says, and the contract check warns.
    assert imported.data["parameters"]["required"] == ["c"]
    assert any(
        "'c' is required but additionalProperties: false forbids it" in w
        and "as written, no object can pass here" in w
        for w in map(str, imported.warnings)
    ), imported.warnings


def test_unreadable_inputs(tmp_path: Path) -> None:
    (problem,) = problems_of(
        tmp_path,
        {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}},
    )
    assert problem.pointer == "/error" and "Method not found" in problem.message
    broken = tmp_path / "broken.json"
    broken.write_text('{"type": "object", "type": "array"}', encoding="utf-8")
    with pytest.raises(importer.ContractImportError, match="appears twice"):
        importer.import_file(broken)
    broken.write_text('{"type": "object", "properties": {"a": {"maximum": NaN}}}', encoding="utf-8")
    with pytest.raises(importer.ContractImportError, match="NaN is not JSON"):
        importer.import_file(broken)
    for number in ("1e999", "-1e999", "1.5E+400"):  # json.loads reads each as an infinity
        broken.write_text(f'{{"type": "number", "maximum": {number}}}', encoding="utf-8")
        with pytest.raises(importer.ContractImportError, match="past the largest number"):
            importer.import_file(broken)
    with pytest.raises(importer.ContractImportError, match="cannot read"):
        importer.import_file(tmp_path / "missing.json")
    (problem,) = problems_of(tmp_path, 42)
    assert "expected a JSON Schema" in problem.message
    (problem,) = problems_of(tmp_path, [{"type": "web_search_20250305", "name": "web_search"}])
    assert problem.tool == "web_search" and "built-in tool" in problem.message


def test_duplicate_tool_names(tmp_path: Path) -> None:
    tool = {"name": "a", "description": "d", "input_schema": {"type": "object"}}
    (problem,) = problems_of(tmp_path, [tool, tool])
    assert problem.tool == "a" and "two tools" in problem.message


# -- writing -------------------------------------------------------------------------------------


def test_write_refuses_to_overwrite_unless_asked(tmp_path: Path) -> None:
    contracts = importer.import_file(fixture("mcp_tools_list.json"))
    out = tmp_path / "contracts"
    out.mkdir()
    (out / "search_files.yaml").write_text("mine\n", encoding="utf-8")
    with pytest.raises(importer.ImportWriteError, match=r"search_files\.yaml: exists"):
        importer.write_imported(contracts, out)
    assert not (out / "read_text_file.yaml").exists()  # all or nothing
    assert (out / "search_files.yaml").read_text() == "mine\n"
    importer.write_imported(contracts, out, overwrite=True)
    assert (out / "search_files.yaml").read_text() == contracts[1].yaml_text
    assert sorted(p.name for p in out.iterdir()) == ["read_text_file.yaml", "search_files.yaml"]


@pytest.mark.parametrize(
    "relative",
    ["../escape.yaml", "/tmp/absolute.yaml", "a/../../escape.yaml", "notes.txt", "a\\b.yaml"],
)
def test_write_never_leaves_the_folder(tmp_path: Path, relative: str) -> None:
    (imported,) = importer.import_file(fixture("pydantic_get_forecast.json"))
    imported.relative_path = relative
    with pytest.raises(importer.ImportWriteError):
        importer.write_imported([imported], tmp_path / "out")
    assert not (tmp_path / "escape.yaml").exists()


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_write_does_not_follow_links_out_of_the_folder(tmp_path: Path) -> None:
    (imported,) = importer.import_file(fixture("pydantic_get_forecast.json"))
    out = tmp_path / "out"
    out.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (out / "billing").symlink_to(outside, target_is_directory=True)
    imported.relative_path = "billing/get_forecast.yaml"
    with pytest.raises(importer.ImportWriteError, match="symbolic link"):
        importer.write_imported([imported], out)
    (out / "get_forecast.yaml").symlink_to(outside / "victim.yaml")
    imported.relative_path = "get_forecast.yaml"
    with pytest.raises(importer.ImportWriteError, match="not a regular file"):
        importer.write_imported([imported], out, overwrite=True)
    assert list(outside.iterdir()) == []


def test_write_creates_subfolders(tmp_path: Path) -> None:
    (imported,) = importer.import_file(fixture("pydantic_get_forecast.json"))
    imported.relative_path = "weather/get_forecast.yaml"
    (path,) = importer.write_imported([imported], tmp_path / "out")
    assert path == tmp_path / "out" / "weather" / "get_forecast.yaml" and path.is_file()


def test_mcp_server_fetch_tool_generates_without_a_hand_made_example(tmp_path: Path) -> None:
    """The official mcp-server-fetch `fetch` tool (pydantic-made: a required `format: uri`,
    exclusive bounds, defaults), and a pydantic `anyOf [string, null]` with `default: null`."""
    contracts = importer.import_file(fixture("mcp_server_fetch.json"))
    assert [c.name for c in contracts] == ["fetch", "search_notes"]
    for imported in contracts:
        generated = generate(imported)
        base = next(c.data for c in cases.derive(generated.contract).cases if not c.errors)
        if imported.name == "fetch":
            assert base["url"].startswith(("http", "urn", "a:")) or ":" in base["url"]
            assert 0 < base["max_length"] < 1_000_000
    assert_pipeline_and_write(tmp_path, contracts)


# -- drafts 4 to 2019-09: ids, anchors, $ref siblings, vocabularies -------------------------------


def bare(draft_uri: str | None, properties: dict[str, Any], **extra: Any) -> dict[str, Any]:
    schema: dict[str, Any] = {
        "title": "t",
        "description": "d",
        "type": "object",
        "properties": properties,
        **extra,
    }
    if draft_uri is not None:
        schema["$schema"] = draft_uri
    return schema


DRAFT4 = "http://json-schema.org/draft-04/schema#"
DRAFT7 = "http://json-schema.org/draft-07/schema#"
DRAFT2019 = "https://json-schema.org/draft/2019-09/schema"


def test_nested_ids_change_the_base_of_refs_inside_them(tmp_path: Path) -> None:
    """A $ref resolves against the nearest id: the same "#/definitions/x" means two different schemas."""
    schema = bare(
        DRAFT4,
        {
            "outer": {"$ref": "#/definitions/x"},
            "inner": {
                "id": "http://example.com/inner.json",
                "definitions": {"x": {"type": "integer"}},
                "properties": {"y": {"$ref": "#/definitions/x"}},
            },
            "by_url": {"$ref": "http://example.com/inner.json#/definitions/x"},
        },
        definitions={"x": {"type": "string"}},
        id="http://example.com/root.json",
    )
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    p = imported.data["parameters"]
    assert p["properties"]["outer"] == {"$ref": "#/$defs/x"} and p["$defs"]["x"] == {
        "type": "string"
    }
    inner_ref = p["properties"]["inner"]["properties"]["y"]["$ref"]
    assert inner_ref == p["properties"]["by_url"]["$ref"] != "#/$defs/x"
    assert p["$defs"][inner_ref.removeprefix("#/$defs/")] == {"type": "integer"}
    assert all(ref.startswith("#/$defs/") for ref in _refs(p))
    assert any(
        t.startswith("nested 'id' resolved") and "/properties/inner/id" in t
        for t in imported.translations
    )
    generate(imported)


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return [v for k, v in node.items() if k == "$ref"] + [
            r for v in node.values() for r in _refs(v)
        ]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def test_plain_name_fragments_and_anchors_resolve_to_defs(tmp_path: Path) -> None:
    draft7 = bare(
        DRAFT7, {"a": {"$ref": "#name"}}, definitions={"n": {"$id": "#name", "type": "boolean"}}
    )
    (imported,) = importer.import_file(write_json(tmp_path, "t7.json", draft7))
    assert imported.data["parameters"]["properties"]["a"] == {"$ref": "#/$defs/n"}
    draft2019 = bare(
        DRAFT2019, {"a": {"$ref": "#name"}, "b": {"$anchor": "name", "type": "integer"}}
    )
    (imported,) = importer.import_file(write_json(tmp_path, "t19.json", draft2019))
    p = imported.data["parameters"]
    assert p["properties"]["a"] == p["properties"]["b"] == {"$ref": "#/$defs/b"}
    assert p["$defs"]["b"] == {"type": "integer"}
    # Before 2019-09 $anchor is not a keyword: "#name" points at nothing.
    problems = problems_of(tmp_path, {**draft2019, "$schema": DRAFT7}, "t.json")
    assert [p.pointer for p in problems] == ["/properties/a/$ref"]


def test_ref_siblings_are_ignored_before_2019_09_and_kept_after(tmp_path: Path) -> None:
    for uri, kept in ((DRAFT7, False), (DRAFT2019, True)):
        schema = bare(
            uri, {"a": {"$ref": "#/$defs/n", "maximum": 3}}, **{"$defs": {"n": {"type": "integer"}}}
        )
        (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
        assert ("maximum" in imported.data["parameters"]["properties"]["a"]) is kept, uri
    # A sibling $id is ignored too: the $ref still resolves against the root.
    schema = bare(
        DRAFT7,
        {"a": {"$id": "http://other.example/x.json", "$ref": "#/definitions/n"}},
        definitions={"n": {"type": "integer"}},
    )
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    assert imported.data["parameters"]["properties"]["a"] == {"$ref": "#/$defs/n"}


def test_keywords_a_draft_does_not_know_are_dropped(tmp_path: Path) -> None:
    """Draft 4 has no const and draft 7 no dependentRequired: JSON Schema ignores them there, and so does the import."""
    schema = bare(DRAFT4, {"a": {"type": "string", "const": "x"}})
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    assert imported.data["parameters"]["properties"]["a"] == {"type": "string"}
    assert any("'const' is not a keyword of draft 4" in w for w in map(str, imported.warnings))
    schema = bare(DRAFT7, {"a": {"type": "string", "const": "x"}}, dependentRequired={"a": ["b"]})
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    assert imported.data["parameters"]["properties"]["a"] == {"type": "string", "const": "x"}
    assert "dependentRequired" not in imported.data["parameters"]


def test_recursive_ref_reduces_to_a_plain_ref(tmp_path: Path) -> None:
    schema = bare(
        DRAFT2019,
        {"children": {"type": "array", "items": {"$recursiveRef": "#"}}},
        **{"$recursiveAnchor": True},
    )
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    assert imported.data["parameters"]["properties"]["children"]["items"] == {"$ref": "#"}
    assert any(t.startswith("$recursiveRef -> $ref") for t in imported.translations)
    generate(imported)


def test_openapi_nullable_and_example(tmp_path: Path) -> None:
    schema = bare(
        None,
        {
            "a": {"type": "string", "nullable": True, "example": "hi"},
            "b": {"type": ["integer"], "nullable": False},
        },
    )
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    p = imported.data["parameters"]["properties"]
    assert p["a"] == {"type": ["string", "null"], "examples": ["hi"]}
    assert p["b"] == {"type": ["integer"]}
    generated = generate(imported)
    module = runtime.load_module(generated.module_source, "t_nullable.py")
    assert module.validate({"a": None}).status == "accept"
    assert module.validate({"b": None}).status == "reject"


def test_keywords_with_no_effect_are_dropped_with_a_warning(tmp_path: Path) -> None:
    schema = bare(
        None,
        {
            "a": {"type": "string", "enum": ["x", 3, "y"], "minimum": 2},
            "b": {"type": "array", "then": {"minItems": 1}, "additionalProperties": False},
        },
    )
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    p = imported.data["parameters"]["properties"]
    assert p == {"a": {"type": "string", "enum": ["x", "y"]}, "b": {"type": "array"}}
    shown = "\n".join(map(str, imported.warnings))
    for where in (
        "/properties/a/enum/1",
        "/properties/a/minimum",
        "/properties/b/then",
        "/properties/b/additionalProperties",
    ):
        assert f"{where}: " in shown, (where, shown)
    # The same keywords in a contract written by hand stay errors (a typo guard).
    hand = {
        "name": "t",
        "description": "d",
        "parameters": {"type": "object", "properties": {"a": {"type": "string", "minimum": 2}}},
    }
    with pytest.raises(errors.ContractError):
        checker.check(source.load(json.dumps(hand).encode(), "t.yaml"))


def test_the_draft_is_guessed_or_chosen_and_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from toolshape.cli import main

    schema = bare(
        None,
        {"a": {"$ref": "#/definitions/n", "maximum": 3}},
        definitions={"n": {"type": "integer"}},
    )
    path = write_json(tmp_path, "t.json", schema)
    (guessed,) = importer.import_file(path)
    assert (
        "maximum" not in guessed.data["parameters"]["properties"]["a"]
    )  # read as draft 7: siblings ignored
    assert any(t.startswith("no '$schema': read as draft 7") for t in guessed.translations)
    (chosen,) = importer.import_file(path, "2019-09")
    assert chosen.data["parameters"]["properties"]["a"] == {"$ref": "#/$defs/n", "maximum": 3}
    assert (
        main(["import", str(path), "--out", str(tmp_path / "out"), "--draft", "2019-09", "-q"]) == 0
    )
    err = capsys.readouterr().err
    assert "t.yaml: translated: definitions -> $defs: /definitions" in err
    assert main(["import", str(path), "--out", str(tmp_path / "out2"), "--draft", "5"]) == 2


def test_contracts_accept_the_2020_12_annotations() -> None:
    schema = {
        "$id": "https://example.com/t.json",
        "$comment": "c",
        "type": "object",
        "properties": {
            "a": {
                "type": "string",
                "deprecated": True,
                "readOnly": False,
                "writeOnly": True,
                "contentEncoding": "base64",
                "contentMediaType": "application/json",
                "contentSchema": {"type": "object"},
                "$anchor": "a",
            }
        },
    }
    data = {"name": "t", "description": "d", "parameters": schema}
    checker.check(source.load(json.dumps(data).encode(), "t.yaml"))
    for bad in (
        {"deprecated": "yes"},
        {"$anchor": "1a"},
        {"$id": "x.json"},
        {"contentSchema": {"type": "strin"}},
    ):
        wrong = json.loads(json.dumps(data))
        wrong["parameters"]["properties"]["a"].update(bad)
        with pytest.raises(errors.ContractError):
            checker.check(source.load(json.dumps(wrong).encode(), "t.yaml"))


# -- where import warnings point ---------------------------------------------------------------


def _offset_place(text: str, offset: int) -> tuple[int, int]:
    """Line and column (1-based) of ``offset``, counted here independently of the importer."""
    before = text[:offset].split("\n")
    return len(before), len(before[-1]) + 1


@pytest.mark.parametrize(
    ("pointer", "needle"),
    [
        ("", "{"),
        ("/tools", "["),
        ("/tools/1", '{"name": "b"'),
        ("/tools/1/title", '"B title"'),
        ("/tools/1/inputSchema/properties/x~1y", '{"type": "integer"}'),
        ("/tools/7", "["),  # no such item: the nearest ancestor found
    ],
)
def test_locate_finds_a_pointer_in_json_text(pointer: str, needle: str) -> None:
    text = (
        '{\n  "tools": [\n    {"name": "a", "inputSchema": {"type": "object"}},\n'
        '    {"name": "b", "title": "B title",\n     "inputSchema": {"type": "object", '
        '"properties": {"x/y": {"type": "integer"}}}}\n  ]\n}\n'
    )
    assert importer.locate(text, pointer) == _offset_place(text, text.index(needle))


def test_locate_finds_a_pointer_in_yaml_text() -> None:
    text = "tools:\n  - name: a\n    title: A title\n    inputSchema: {type: object}\n"
    assert importer.locate(text, "/tools/0/title") == _offset_place(text, text.index("A title"))


def test_import_warnings_name_their_place_in_the_input_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolshape.cli import main

    monkeypatch.chdir(tmp_path)
    tool = {
        "name": "lookup",
        "description": "d",
        "inputSchema": {"type": "object"},
        "annotations": {"readOnlyHint": "yes"},
    }
    text = json.dumps({"tools": [tool]}, indent=2) + "\n"
    Path("tools.json").write_text(text, encoding="utf-8")
    assert main(["import", "tools.json", "--out", "contracts"]) == 0
    err = capsys.readouterr().err
    line, col = _offset_place(text, text.index('"yes"'))
    assert any(
        w.startswith(f"tools.json:{line}:{col}: warning: the MCP tool's 'readOnlyHint' (\"yes\")")
        and w.endswith("(contracts/lookup.yaml at /tools/0/annotations/readOnlyHint)")
        for w in err.splitlines()
    ), err


# -- import keeps what a schema means (issue 24) -------------------------------------------------

#: Schemas whose spelling the contract check would refuse, each with arguments to try: what the
#: imported contract's module accepts must be what jsonschema accepts, value for value.
MEANING_KEPT: dict[str, tuple[dict[str, Any], list[Any]]] = {
    "required key that additionalProperties: false forbids, at the root": (
        {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a", "b"],
            "additionalProperties": False,
        },
        [{}, {"a": "x"}, {"a": "x", "b": 1}, {"b": 1}],
    ),
    "required key that additionalProperties: false forbids, nested": (
        {
            "type": "object",
            "properties": {
                "o": {
                    "type": "object",
                    "properties": {"a": {"type": "string"}},
                    "required": ["b"],
                    "additionalProperties": False,
                }
            },
        },
        [{}, {"o": {}}, {"o": {"a": "x"}}, {"o": {"b": 1}}, {"o": {"a": "x", "b": 1}}],
    ),
    "enum values that type excludes": (
        {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", 1, None, "y"]}}},
        [{"a": "x"}, {"a": "y"}, {"a": 1}, {"a": None}, {"a": "z"}, {}],
    ),
    "enum values that type all excludes": (
        {"type": "object", "properties": {"a": {"type": "string", "enum": [1, None]}}},
        [{"a": "x"}, {"a": 1}, {"a": None}, {}],
    ),
    "enum values listed twice": (
        {
            "type": "object",
            "properties": {
                "a": {"enum": ["x", "y", "x", 1, 1.0]},
                "b": {"type": "integer", "enum": [2, 2.0, 3]},
            },
        },
        [{"a": "x"}, {"a": 1}, {"a": 1.0}, {"a": "z"}, {"b": 2}, {"b": 2.0}, {"b": 4}, {}],
    ),
}


@pytest.mark.parametrize("name", list(MEANING_KEPT))
def test_import_keeps_what_the_schema_means(name: str, tmp_path: Path) -> None:
    parameters, tried = MEANING_KEPT[name]
    schema = {"title": "t", "description": "d", **parameters}
    (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
    raw = imported.yaml_text.encode("utf-8")
    generated = pipeline.generate(
        raw, "t.yaml", PurePosixPath("t.yaml"), render.generation_context()
    )
    module = runtime.load_module(generated.module_source, "t.py")
    wrong = verdicts_unlike_jsonschema(module, parameters, tried)
    assert not wrong, f"verdicts that differ from jsonschema's (arguments, jsonschema): {wrong}"


def test_import_says_what_it_kept_and_dropped(tmp_path: Path) -> None:
    def warnings(name: str) -> str:
        parameters, _ = MEANING_KEPT[name]
        schema = {"title": "t", "description": "d", **parameters}
        (imported,) = importer.import_file(write_json(tmp_path, "t.json", schema))
        return "\n".join(map(str, imported.warnings))

    shown = warnings("required key that additionalProperties: false forbids, nested")
    assert "'b' is required but additionalProperties: false forbids it" in shown
    assert "as written, no object can pass here" in shown
    shown = warnings("enum values that type excludes")
    assert "/properties/a/enum/1: the 'enum' value 1 is not of 'type'" in shown
    assert "/properties/a/enum/2: the 'enum' value null is not of 'type'" in shown
    shown = warnings("enum values that type all excludes")
    assert "/properties/a/enum: no 'enum' value is of its 'type'" in shown
    assert "as written, no value can pass here" in shown
    shown = warnings("enum values listed twice")
    assert "/properties/a/enum/2: the 'enum' value \"x\" is listed twice: kept once" in shown
    assert "/properties/a/enum/4: the 'enum' value 1.0 is listed twice: kept once" in shown
    assert "/properties/b/enum/1: the 'enum' value 2.0 is listed twice: kept once" in shown


@pytest.mark.parametrize("count", [10, 40])
def test_enum_members_cost_no_place_look_up_unless_warned(
    count: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each look-up of an input place walks every move the translation made: one per enum
    member made JSON Schema Store's cityjson import take 12 s (issue 24). Only a member warned
    about is looked up."""
    looked_up: list[Any] = []
    real = importer._Translator.input_path

    def counting(self: Any, new_path: Any) -> Any:
        looked_up.append(new_path)
        return real(self, new_path)

    monkeypatch.setattr(importer._Translator, "input_path", counting)
    properties = {f"p{i}": {"type": "string", "enum": ["a", "b", "c"]} for i in range(count)}
    importer.import_file(write_json(tmp_path, "t.json", bare(DRAFT7, properties)))
    assert looked_up == []


def _importer_lines(call: Any) -> int:
    """The lines of platforms/importer.py, and of the references family's moving of $ref
    targets that it calls (families/references/importing.py), that ``call`` runs
    (comprehensions included)."""
    count = 0

    def lines(frame: Any, event: str, arg: object) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return lines

    def calls(frame: Any, event: str, arg: object) -> Any:
        counted = (importer.__name__, importing.__name__)
        return lines if frame.f_globals.get("__name__") in counted else None

    run_traced(call, calls)
    return count


def test_moving_ref_targets_under_defs_is_linear_in_their_number(tmp_path: Path) -> None:
    """Every $ref target outside $defs is moved there, and the paths under it follow. They
    were rebased at every move: importing n properties, each the target of a $ref, took
    n x (every translated node) steps (2,000 of them: 4.9 s; the quadratic class of issue 20).
    Counted in the importer's lines for n, 2n and 4n: the second doubling must not add more
    than 2.5 times what the first added (2 for linear growth, 4 for quadratic)."""

    def importing(n: int) -> int:
        properties: dict[str, Any] = {f"p{i}": {"type": "string"} for i in range(n)}
        properties.update({f"r{i}": {"$ref": f"#/properties/p{i}"} for i in range(n)})
        path = write_json(tmp_path, f"t{n}.json", bare(DRAFT7, properties))
        return _importer_lines(lambda: importer.import_file(path))

    small, double, quadruple = (importing(n) for n in (60, 120, 240))
    ratio = (quadruple - double) / (double - small)
    assert ratio <= 2.5, f"import work grows super-linearly: {small}, {double}, {quadruple} lines"


def test_a_schema_that_accepts_nothing_generates_tests_that_pass(tmp_path: Path) -> None:
    """Kept as written (issue 24), a root that no object can pass generates a module that
    refuses everything, and tests that pass: those of an accepted call are skipped, saying why."""
    parameters, _ = MEANING_KEPT[
        "required key that additionalProperties: false forbids, at the root"
    ]
    schema = {"title": "nothing_passes", "description": "d", **parameters}
    contracts = importer.import_file(write_json(tmp_path, "t.json", schema))
    importer.write_imported(contracts, tmp_path / "contracts")
    code = cli.main(["generate", str(tmp_path / "contracts"), "--out", str(tmp_path / "out")])
    assert code == 0
    test_source = (tmp_path / "out/tests/test_nothing_passes.py").read_text(encoding="utf-8")
    assert test_source.count("@pytest.mark.skip(reason=NOTHING_ACCEPTED)") == 2
    passed, _, failures = generated_harness.run_package(tmp_path, "out")
    assert failures == [] and passed > 0


#: One optional string property.
_NAME = {"name": {"type": "string"}}


@pytest.mark.parametrize(
    "schema",
    [
        # draft-07 ignores $ref's siblings: the root is the definition, two levels down
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "$ref": "#/definitions/v1/full",
            "type": "object",
            "patternProperties": {"^x-": {"type": "string"}},
            "definitions": {"v1": {"full": {"type": "object", "properties": _NAME}}},
        },
        # a chain of $refs to a definition with properties and no type (as a root may be)
        {
            "$schema": "http://json-schema.org/draft-04/schema#",
            "$ref": "#/definitions/alias",
            "description": "A configuration.",
            "definitions": {
                "alias": {"$ref": "#/definitions/configuration"},
                "configuration": {"properties": _NAME},
            },
        },
    ],
)
def test_a_root_whose_ref_leads_to_an_object_schema_imports(schema: dict[str, Any]) -> None:
    """JSON Schema Store roots: no type at the root once $ref's siblings are dropped, but
    the $ref leads to an object schema, so the root is one (a warning says type: object
    was added); the module agrees with jsonschema on the draft's meaning."""
    tools = {"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
    imported = importer.import_data(tools, "tools.json", "t")[0]
    assert any("its $ref leads to an object schema" in str(w) for w in imported.warnings)
    generated = generate(imported)
    module = runtime.load_module(generated.module_source, str(generated.module_path))
    import jsonschema

    oracle = jsonschema.validators.validator_for(schema)(schema)  # the draft $schema names
    tried: list[dict[str, Any]] = [{}, {"name": "a"}, {"name": 1}, {"x-a": 1}, {"other": None}]
    assert [module.validate(v).ok for v in tried] == [oracle.is_valid(v) for v in tried]


#: Roots without a type that refer to themselves (a meta-schema's shape), in three drafts.
_SELF_REFERRING_ROOTS = [
    {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "properties": {"next": {"$ref": "#"}, "n": {"type": "integer"}},
    },
    {
        "$schema": "http://json-schema.org/draft-04/schema#",
        "definitions": {"list": {"type": "array", "items": {"$ref": "#"}}},
        "properties": {"all": {"$ref": "#/definitions/list"}, "n": {"type": "integer"}},
    },
    {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "additionalProperties": {"anyOf": [{"$ref": "#"}, {"type": "null"}]},
        "properties": {"n": {"type": "integer"}},
    },
]


@pytest.mark.parametrize("schema", _SELF_REFERRING_ROOTS)
def test_a_reference_to_a_root_without_type_keeps_its_meaning(schema: dict[str, Any]) -> None:
    """Import adds 'type: object' to a root without a type (arguments are an object), and a
    '$ref: "#"' inside used to get that type too: 'false' or a string there, which the schema
    accepts, was refused (a labelled JSONSchemaBench instance disagreed). The references now
    point at the root as written, copied under $defs."""
    tools = {"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
    contract = importer.import_data(tools, "x.json", "t")[0]
    raw = contract.yaml_text.encode()
    done = pipeline.generate_module(
        raw, "t.yaml", PurePosixPath("t.yaml"), render.generation_context()
    )
    tried = [
        {wrap: inner}
        for wrap in ("next", "all", "extra")
        for inner in (False, "text", 3, None, {"n": 1}, {"n": "x"}, [False, "text"], [{"n": "x"}])
    ]
    jsonschema = pytest.importorskip("jsonschema")
    validator = jsonschema.validators.validator_for(schema)(schema)
    wrong = [t for t in tried if done.module.validate(t).ok != validator.is_valid(t)]
    assert wrong == []
    assert not done.module.validate(False).ok  # the root itself is still an object


@pytest.mark.parametrize("seed", range(20))
def test_the_nesting_scan_never_fails_where_a_token_may_start(seed: int) -> None:
    """The reader finds JSON nesting before any decoder with one regex scan: linear because a
    try that starts at a quote or a bracket always matches, consuming what it read (a string
    never closed runs to the end once; with its closing quote required, every quote after it
    started a scan to the end again: quadratic, minutes for a 200 kB file)."""
    rng = random.Random(seed)
    text = "".join(rng.choice('"\\[]{}a ') for _ in range(400))
    starts = [i for i, char in enumerate(text) if char in '"[]{}']
    assert all(documents._JSON_NESTING.match(text, i) for i in starts)


#: Plain scalars of every kind YAML 1.1 and 1.2 may read differently, and of every kind they
#: agree on: booleans (each YAML 1.1 word), nulls, integers (leading zeros, octal, hexadecimal,
#: binary, sexagesimal, underscores, signs), floats (YAML 1.2 forms PyYAML reads as strings,
#: exponents, not-a-number, past the largest double), dates, and strings.
PLAIN_SCALARS = " ".join(
    [
        "y Y yes Yes YES on On ON n N no No NO off Off OFF",
        "true True TRUE false False FALSE null Null NULL ~",
        "0 7 -7 +7 017 09 0o17 0x1F 0b101 1:20 190:20:30 1_000 -0 12345678901234567890",
        "1.5 -.5 .5 1. 1e3 1E3 1.0e+3 -1e-3 +1.5 6.8523015e+5 685.230_15e+03 1.0e+999",
        ".inf -.Inf .NaN .nan 2001-12-14 2001-12-14t21:59:43.10-05:00",
        "a 0.1.2 1e 0x 1:2:x .5e =",
        # Tagged: a contract reads the tag's value by YAML 1.2's rules too (!!int 017 is no
        # YAML 1.1 octal), and refuses what the tag cannot hold.
        "!!int\t017 !!int\t0x1F !!int\t1:20 !!int\tabc !!int\t7 !!int\t-0 !!float\t1:20",
        "!!float\t1e3 !!float\tabc !!float\t7 !!bool\tyes !!bool\ton !!bool\ttrue !!bool\tabc",
        "!!null\tabc !!null\t~ !!null\tnull !!str\tyes !!str\t017 !!str\t1e3",
    ]
).split(" ")


def _contract_reading(text: str) -> tuple[str, Any]:
    """How a contract reads ``text`` (its bytes): ("data", the data) or ("refused", the
    message of its first problem)."""
    try:
        return ("data", source.load(text.encode(), "x.yaml").data)
    except errors.ContractError as error:
        return ("refused", error.problems[0].message)


def _import_reading(path: Path) -> tuple[str, Any]:
    try:
        return ("data", documents.read(path).data)
    except documents.DocumentError as error:
        return ("refused", error.message)


@pytest.mark.parametrize("scalar", PLAIN_SCALARS)
def test_import_reads_every_yaml_scalar_as_a_contract_does(scalar: str, tmp_path: Path) -> None:
    """A YAML schema's scalars, plain or tagged, as values and as keys, are read by import
    exactly as a contract reads them (one reading of YAML in the project): the same value, or
    both refuse with the same message where YAML 1.1 and 1.2 disagree (``yes``, ``017``,
    ``0x1F``, ``1:20``, ``!!int 017``: PyYAML's YAML 1.1 reading, which import used to take,
    would have turned ``enum: [yes, no]`` into booleans and ``minimum: 1e3`` into a string)."""
    scalar = scalar.replace("\t", " ")
    for text in (f"default: {scalar}\n", f"enum: [{scalar}, z]\n"):
        (tmp_path / "s.yaml").write_text(text, encoding="utf-8")
        assert _import_reading(tmp_path / "s.yaml") == _contract_reading(text), text
    key = f"properties:\n  {scalar}: {{}}\n"
    (tmp_path / "s.yaml").write_text(key, encoding="utf-8")
    imported, contract = _import_reading(tmp_path / "s.yaml"), _contract_reading(key)
    assert imported[0] == contract[0], key
    if imported[0] == "data":
        assert imported == contract, key
    else:  # both refuse a key that is not a string ("mapping keys" in a contract)
        assert contract[1].endswith(imported[1]), (imported, contract)
