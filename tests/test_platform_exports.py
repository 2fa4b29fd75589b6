"""Platform exports the platforms accept (issue 14): OpenAI strict mode without rewriting
the contract, no bare arrays or property-less objects, Gemini's two parameter fields,
whole tool lists (``schema --all``), and strict mode never left off silently."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, check_example, example_contracts
from toolshape.cli import github_annotation, main
from toolshape.contract import checker, source
from toolshape.contract.errors import Problem
from toolshape.platforms import export, importer

jsonschema = pytest.importorskip("jsonschema")

CONTRACTS = ROOT / "contracts"


def from_yaml(text: str, name: str = "inline.yaml") -> checker.Contract:
    return checker.check(source.load(text.encode("utf-8"), name))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


OPTIONAL = """\
name: search
description: Search.
parameters:
  type: object
  properties:
    query: {type: string}
    page: {type: integer, minimum: 1}
    sort: {enum: [new, old]}
    near: {$ref: '#/$defs/point'}
    note: {type: [string, 'null']}
  required: [query]
  additionalProperties: false
  $defs:
    point:
      type: object
      properties:
        x: {type: number}
      required: [x]
      additionalProperties: false
"""


def test_openai_strict_converts_optional_keys_whose_null_the_generated_package_removes() -> None:
    # Strict mode makes every key required: the model sends null for a key it leaves out.
    # Where the contract refuses that null, the generated package removes it
    # (platform="openai", tests/test_normalise.py), so strict mode is on, and the record says
    # which nulls mean "absent".
    checked = from_yaml(OPTIONAL)
    assert export.lint(checked, "openai") == []
    result = export.export(checked, "openai")
    assert result.strict is True and result.definition["function"]["strict"] is True
    parameters = result.definition["function"]["parameters"]
    assert parameters["required"] == ["query", "page", "sort", "near", "note"]
    assert parameters["properties"]["page"] == {"type": ["integer", "null"], "minimum": 1}
    assert [(c.path, c.key, c.contract_allows_null) for c in result.converted] == [
        ((), "page", False),
        ((), "sort", False),
        ((), "near", False),
        ((), "note", True),
    ]
    note = result.notes[-1]
    assert "optional keys /properties/page, /properties/sort, /properties/near are exported" in note
    assert "a null there means the key is absent" in note
    assert checked.parameters["required"] == ["query"]  # the contract is untouched
    validator = jsonschema.Draft202012Validator(parameters)
    assert validator.is_valid(
        {"query": "q", "page": None, "sort": None, "near": None, "note": None}
    )


def test_a_null_the_contract_allows_through_a_ref_is_not_taken_for_absent() -> None:
    # The one decision (contract/optional.py) asks the contract itself, $ref and all.
    text = OPTIONAL.replace("near: {$ref: '#/$defs/point'}", "near: {$ref: '#/$defs/maybe'}")
    text += "    maybe: {type: [number, 'null']}\n"
    result = export.export(from_yaml(text), "openai")
    assert ((), "near", True) in [(c.path, c.key, c.contract_allows_null) for c in result.converted]


NULLABLE = """\
name: search
description: Search.
parameters:
  type: object
  properties:
    query: {type: string}
    page: {type: [integer, 'null'], minimum: 1}
    note: {anyOf: [{type: string}, {type: 'null'}]}
  required: [query]
  additionalProperties: false
"""


def test_openai_strict_converts_optional_keys_that_allow_null() -> None:
    checked = from_yaml(NULLABLE)
    assert export.lint(checked, "openai") == []
    result = export.export(checked, "openai")
    assert result.strict is True
    parameters = result.definition["function"]["parameters"]
    assert parameters["required"] == ["query", "page", "note"]
    assert parameters["properties"]["page"] == {"type": ["integer", "null"], "minimum": 1}
    assert [(c.path, c.key, c.contract_allows_null) for c in result.converted] == [
        ((), "page", True),
        ((), "note", True),
    ]
    assert result.converted[0].to_json() == {
        "schema_path": [],
        "key": "page",
        "contract_allows_null": True,
    }
    note = result.notes[-1]
    assert (
        "optional keys /properties/page, /properties/note already allow null in the contract"
        in note
    )
    assert checked.parameters["required"] == [
        "query"
    ]  # every other platform keeps the optional keys
    validator = jsonschema.Draft202012Validator(parameters)
    assert validator.is_valid({"query": "q", "page": None, "note": None})
    assert not validator.is_valid({"query": "q"})  # strict mode: every key is present


def test_a_converted_key_inside_definitions_is_located_where_it_is() -> None:
    checked = from_yaml(OPTIONAL.replace("      required: [x]\n", ""))
    converted = export.export(checked, "openai").converted
    assert (("$defs", "point"), "x", False) in [
        (c.path, c.key, c.contract_allows_null) for c in converted
    ]


def test_a_tool_without_parameters_has_properties_for_openai() -> None:
    checked = from_yaml(
        "name: ping\ndescription: Ping.\nparameters: {type: object, additionalProperties: false}\n"
    )
    where: tuple[tuple[str, Callable[[Any], Any]], ...] = (
        ("openai", lambda d: d["function"]["parameters"]),
        ("openai-responses", lambda d: d["parameters"]),
    )
    for target, parameters in where:
        result = export.export(checked, target)
        assert result.strict is True
        assert parameters(result.definition) == {
            "type": "object",
            "additionalProperties": False,
            "properties": {},
            "required": [],
        }


BARE_ARRAY = """\
name: tag
description: Tag it.
parameters:
  type: object
  properties:
    tags: {type: array}
  required: [tags]
  additionalProperties: false
"""


def test_an_array_without_items_is_found_by_lint_and_never_exported_bare() -> None:
    checked = from_yaml(BARE_ARRAY)
    (finding,) = export.lint(checked, "openai")
    assert not finding.fatal and "array schema missing items" in finding.message
    assert str(finding.problem(checked)).startswith(
        "inline.yaml:6:11: error: the array at /properties/tags"
    )
    result = export.export(checked, "openai")
    assert result.strict is False and result.strict_refused == [finding]
    assert result.definition["function"]["parameters"]["properties"]["tags"] == {
        "type": "array",
        "items": {},
    }
    (legacy,) = export.lint(checked, "gemini-legacy")
    assert legacy.fatal and "items: missing field" in legacy.message
    with pytest.raises(export.ExportError):
        export.export(checked, "gemini-legacy")
    assert export.export(checked, "gemini").definition["parametersJsonSchema"]["properties"][
        "tags"
    ] == {"type": "array"}


TUPLE = """\
name: move
description: Move it.
parameters:
  type: object
  properties:
    pair:
      type: array
      prefixItems: [{type: string}, {type: integer}]
      items: false
  required: [pair]
  additionalProperties: false
"""


def test_prefix_items_become_items_that_accept_every_position() -> None:
    checked = from_yaml(TUPLE)
    assert export.lint(checked, "openai") == []
    result = export.export(checked, "openai")
    pair = result.definition["function"]["parameters"]["properties"]["pair"]
    assert pair == {
        "type": "array",
        "maxItems": 2,
        "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
    }
    assert any(
        "'prefixItems' (a schema per position) is exported as 'items'" in note
        for note in result.notes
    )
    assert jsonschema.Draft202012Validator(pair).is_valid(["a", 1])
    legacy = export.export(checked, "gemini-legacy").definition["parameters"]["properties"]["pair"]
    assert legacy["items"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}


def test_gemini_exports_recursive_contracts_with_parameters_json_schema() -> None:
    path = CONTRACTS / "comments" / "post_comment.yaml"
    checked = checker.check(source.load_file(path, "contracts/comments/post_comment.yaml"))
    assert any(f.fatal for f in export.lint(checked, "gemini-legacy"))
    assert export.lint(checked, "gemini") == []
    definition = export.export(checked, "gemini").definition
    assert set(definition) == {"name", "description", "parametersJsonSchema"}
    schema = definition["parametersJsonSchema"]
    assert "$defs" in schema and "$schema" not in schema
    assert not [k for k in json.dumps(schema).split('"') if k.startswith("x-")]
    jsonschema.Draft202012Validator.check_schema(schema)


def test_gemini_refuses_a_bad_function_name_in_both_fields() -> None:
    checked = from_yaml("name: 2fa\ndescription: d\nparameters: {type: object}\n")
    for target in ("gemini", "gemini-legacy"):
        assert any(
            f.fatal and "rename the tool '2fa'" in f.message for f in export.lint(checked, target)
        )


def all_contracts() -> list[checker.Contract]:
    return [check_example(p) for p in example_contracts()]


@pytest.mark.parametrize("target", ["openai", "openai-responses", "anthropic", "gemini", "mcp"])
def test_schema_all_prints_the_definitions_list(
    target: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "schema", "--all", "--target", target, "-q")
    assert code == 0, err
    listed = json.loads(out)
    checked = all_contracts()
    assert listed == export.definitions(checked, target)
    assert [d.get("name", d.get("function", {}).get("name")) for d in listed] == [
        c.name for c in checked
    ]
    # each entry is exactly what `schema --target X` prints for that contract alone
    for one, entry in zip(example_contracts(Path("contracts"))[:3], listed, strict=False):
        assert (
            run(capsys, "schema", str(one), "--target", target, "-q")[1]
            == json.dumps(entry, indent=2, ensure_ascii=False) + "\n\n"
        )


def test_schema_all_refuses_when_any_tool_is_refused(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "schema", "--all", "--target", "gemini-legacy")
    assert code == 1 and out == ""
    assert (
        "contracts/comments/post_comment.yaml:" in err
        and ": error: this $ref (#/$defs/comment) is recursive" in err
    )
    with pytest.raises(export.ExportError):
        export.definitions(all_contracts(), "gemini-legacy")


def test_strict_mode_left_off_is_said_even_with_quiet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "tag.yaml"
    path.write_text(BARE_ARRAY, encoding="utf-8")
    code, out, err = run(capsys, "schema", str(path), "--target", "openai", "-q")
    assert code == 0 and json.loads(out)["function"]["strict"] is False
    assert (
        f"{path}:6:11: warning: OpenAI strict mode is off for this tool: the array at /properties/tags"
        in err
    )
    code, out, err = run(capsys, "schema", str(path), "--target", "openai", "--strict")
    assert code == 1 and out == "" and ": error: OpenAI strict mode is off for this tool" in err
    code, out, err = run(capsys, "lint", str(path), "--target", "openai")
    assert code == 1 and f"{path}:6:11: error: the array at /properties/tags" in err
    code, out, err = run(capsys, "schema", str(path), "--target", "gemini-legacy")
    assert code == 1 and out == "" and "items: missing field" in err


def test_lint_target_reports_paths_as_given(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "tools" / "sub").mkdir(parents=True)
    (tmp_path / "tools" / "sub" / "tag.yaml").write_text(BARE_ARRAY, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "lint", "tools", "--target", "openai")
    assert code == 1 and err.startswith(str(Path("tools") / "sub" / "tag.yaml") + ":6:11: error: ")


def test_lint_formats(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "contracts").mkdir()
    (tmp_path / "contracts" / "tag.yaml").write_text(BARE_ARRAY, encoding="utf-8")
    (tmp_path / "contracts" / "odd.yaml").write_text(
        "name: odd\ndescription: d\nparameters:\n  type: object\n  properties:\n    n: {type: [integer, 'null'], default: x}\n"
        "    m: {type: object}\n",  # a free-form map: strict mode cannot close it
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "lint", "--format", "json", "--target", "openai")
    assert code == 1 and err == ""
    report = json.loads(out)
    assert report["contracts"] == 2 and report["errors"] == 2 and report["warnings"] == 1
    severities = {(p["file"], p["line"], p["col"]): p["severity"] for p in report["problems"]}
    assert severities[(str(Path("contracts") / "tag.yaml"), 6, 11)] == "error"
    assert "warning" in severities.values()
    code, out, err = run(capsys, "lint", "--format", "github", "--target", "openai")
    lines = out.splitlines()
    assert code == 1 and len(lines) == 3
    assert any(
        line.startswith(
            f"::error file={Path('contracts') / 'tag.yaml'},line=6,col=11::the array at"
        )
        for line in lines
    )
    assert any(line.startswith("::warning file=") for line in lines)
    code, out, _ = run(capsys, "lint", "--format", "github")
    assert code == 0 and out.startswith("::warning file=")  # warnings alone: exit 0
    broken = tmp_path / "contracts" / "tag.yaml"
    broken.write_text(
        "name: tag\ndescription: d\nparameters: {type: object, minLenght: 1}\n", encoding="utf-8"
    )
    code, out, _ = run(capsys, "lint", "--format", "json")
    messages = [p["message"] for p in json.loads(out)["problems"]]
    assert code == 1 and any("unknown keyword 'minLenght'" in m for m in messages), messages


def test_github_annotations_escape_what_would_end_them() -> None:
    problem = Problem("a,b:c.yaml", 3, 4, "50% off\nnext line")
    assert (
        github_annotation(problem)
        == "::error file=a%2Cb%3Ac.yaml,line=3,col=4::50%25 off%0Anext line"
    )
    assert github_annotation(Problem("f", 1, 1, "w", severity="warning")).startswith(
        "::warning file=f,"
    )


def test_import_warns_when_it_drops_strict_and_schema() -> None:
    tools = [
        {
            "type": "function",
            "function": {
                "name": "f",
                "description": "d",
                "strict": True,
                "parameters": {
                    "$schema": "http://json-schema.org/draft-07/schema#",
                    "type": "object",
                },
            },
        }
    ]
    (imported,) = importer.import_data(tools, "tools.json")
    assert any("OpenAI's 'strict: true' is dropped" in w for w in map(str, imported.warnings))
    assert any(
        "'$schema' (\"http://json-schema.org/draft-07/schema#\") is dropped" in w
        for w in map(str, imported.warnings)
    )
    (bare,) = importer.import_data(
        {
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "description": "d",
        },
        "s.json",
    )
    assert any("'$schema'" in w for w in map(str, bare.warnings))


def test_import_messages_name_the_flag_and_have_no_double_colon(tmp_path: Path) -> None:
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_data(42, "file.json")
    shown = str(raised.value.problems[0])
    assert "::" not in shown and shown.startswith("file.json")
    problem = importer.ImportProblem("file.json", None, None, "bad")
    assert str(problem) == "file.json: error: bad"
    (imported,) = importer.import_data({"type": "object", "description": "d"}, "s.json", "s")
    importer.write_imported([imported], tmp_path)
    with pytest.raises(importer.ImportWriteError) as refused:
        importer.write_imported([imported], tmp_path)
    assert "--force" in str(refused.value) and "overwrite=True" not in str(refused.value)


def gemini_sdk_check(definition: dict[str, Any]) -> None:
    """Google's own FunctionDeclaration model (offline, no request): unknown fields are refused."""
    types = pytest.importorskip("google.genai.types")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "strin is not a valid Type" is only a warning in the SDK
        types.FunctionDeclaration.model_validate(definition)


@pytest.mark.parametrize("target", ["gemini", "gemini-legacy"])
def test_gemini_exports_pass_googles_function_declaration_model(target: str) -> None:
    checked = all_contracts() + [from_yaml(text) for text in (OPTIONAL, BARE_ARRAY, TUPLE)]
    exported = 0
    for one in checked:
        if any(f.fatal for f in export.lint(one, target)):
            continue
        gemini_sdk_check(export.export(one, target).definition)
        exported += 1
    assert exported >= 8


def test_the_gemini_sdk_check_refuses_what_the_legacy_field_does_not_have() -> None:
    pytest.importorskip("google.genai.types")
    # The model's refusal, or the SDK's warning that gemini_sdk_check turns into an error.
    refused = (pytest.importorskip("pydantic").ValidationError, Warning)
    for schema in (
        {"type": "string", "exclusiveMinimum": 1},
        {"$ref": "#/$defs/x"},
        {"type": "strin"},
    ):
        definition = {"name": "x", "parameters": {"type": "object", "properties": {"a": schema}}}
        with pytest.raises(refused):
            gemini_sdk_check(definition)
