"""A bound a platform does not enforce is told to the model in the description (issue 25, item 7).

Dropping ``maxLength`` from an export leaves the model to learn it from a refusal; the export
writes it into the description of the schema that held it instead, in a fixed form, one
phrase per keyword (each written by its family's ``export.py``). docs/platforms.md's table says, for
a property with each keyword, what each target keeps, tells or drops; the first test reads
that table and checks every cell against the exports, and each "told" cell's phrase against
the description. The others show the phrases survive what the lowering does to a schema
($ref targets inlined, allOf branches merged, a description of the contract's own).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
import yaml
from support import ROOT
from toolshape.contract import checker, source
from toolshape.platforms import export

#: The table's columns and the targets each stands for.
COLUMNS = {
    "openai": ("openai", "openai-responses"),
    "anthropic": ("anthropic",),
    "gemini-legacy": ("gemini-legacy",),
    "gemini": ("gemini", "mcp", "jsonschema"),
}


def readme_table() -> list[dict[str, str]]:
    """The rows of docs/platforms.md's table of what each platform keeps, one dict per row."""
    text = (ROOT / "docs" / "platforms.md").read_text(encoding="utf-8")
    section = text.split("**What each platform keeps.**", 1)[1]
    lines = [line for line in section.split("\n\n", 2)[1].splitlines() if line.startswith("|")]
    header = [cell.strip().strip("`") for cell in lines[0].strip("|").split("|")]
    rows = []
    for line in lines[2:]:
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        rows.append(dict(zip(header, cells, strict=True)))
    return rows


def contract_with(keyword_text: str) -> tuple[checker.Contract, str, dict[str, Any]]:
    """A contract whose one property ``p`` holds the keyword (a type fitting it added)."""
    keyword, value = next(iter(yaml.safe_load("{" + keyword_text + "}").items()))
    kind = {
        "Items": "array",
        "unique": "array",
        "contains": "array",
        "Properties": "object",
        "property": "object",
        "Length": "string",
        "pattern": "string",
        "format": "string",
    }
    found = [t for part, t in kind.items() if part in keyword or keyword.startswith(part)]
    prop: dict[str, Any] = {"type": found[0] if found else "integer", keyword: value}
    if prop["type"] == "array":
        prop["items"] = {"type": "string"}
    if prop["type"] == "object":
        prop = {"properties": {"a": {"type": "string"}}, "additionalProperties": False, **prop}
    parameters = {
        "type": "object",
        "properties": {"p": prop},
        "required": ["p"],
        "additionalProperties": False,
    }
    return contract_of(parameters), keyword, prop


def contract_of(parameters: dict[str, Any]) -> checker.Contract:
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    return checker.check(source.load(json.dumps(document).encode("utf-8"), "t.yaml"))


def parameters_of(result: export.ExportResult) -> dict[str, Any]:
    definition: dict[str, Any] = result.definition.get("function", result.definition)
    for field in ("parameters", "input_schema", "parametersJsonSchema", "inputSchema"):
        if field in definition:
            found: dict[str, Any] = definition[field]
            return found
    return definition  # jsonschema: the definition is the schema


def what_target_does(keyword_text: str, target: str) -> tuple[str, str]:
    """What ``target`` does with a property holding the keyword (the table's word for it),
    and the property's exported description."""
    checked, keyword, prop = contract_with(keyword_text)
    try:
        result = export.export(checked, target)
    except export.ExportError:
        return "refused", ""
    if result.strict is False:
        return "strict off", ""
    exported = parameters_of(result)["properties"]["p"]
    description = exported.get("description", "")
    if keyword in exported and exported[keyword] == prop[keyword]:
        return "kept", description
    return ("told" if description else "dropped"), description


def test_the_readme_table_is_what_each_export_does() -> None:
    rows = readme_table()
    assert len(rows) >= 20
    for row in rows:
        keyword_text = row["keyword"].strip("`")
        phrase = row["in the description"].strip("`")
        for column, targets in COLUMNS.items():
            said = re.match(r"kept|told|dropped|strict off", row[column])
            assert said, row
            for target in targets:
                done, description = what_target_does(keyword_text, target)
                assert done == said.group(), (
                    f"{keyword_text} for {target}: {done}, not {row[column]}"
                )
                if done == "told":
                    assert description.endswith(phrase), (keyword_text, target, description)
                elif phrase:
                    assert phrase not in description, (keyword_text, target, description)


def test_the_phrases_have_a_fixed_readable_form() -> None:
    # Written by hand: singular and plural, JSON's spelling of values, patterns as written.
    told = {
        "minLength: 1": "(at least 1 character)",
        "minLength: 2": "(at least 2 characters)",
        "maxLength: 64": "(at most 64 characters)",
        "multipleOf: 0.01": "(a multiple of 0.01)",
        "minimum: -1.5": "(at least -1.5)",
        "maxProperties: 1": "(at most 1 property)",
        "minItems: 3": "(at least 3 items)",  # exported as minItems 1, the most Anthropic takes
        "maxItems: 1": "(at most 1 item)",
    }
    for keyword_text, phrase in told.items():
        assert what_target_does(keyword_text, "anthropic") == ("told", phrase)
    assert what_target_does("enum: [10, 20]", "gemini-legacy") == ("told", "(one of 10, 20)")
    assert what_target_does("const: -7", "gemini-legacy") == ("told", "(exactly -7)")


DESCRIBED = {
    "type": "object",
    "properties": {
        "name": {"$ref": "#/$defs/name", "description": "Who is asking."},
        "code": {"allOf": [{"type": "string", "minLength": 2}, {"maxLength": 8}]},
        "tags": {
            "type": "array",
            "description": "Labels.",
            "items": {"type": "string", "maxLength": 20},
            "uniqueItems": True,
        },
        "when": {
            "anyOf": [
                {"type": "string", "format": "uri", "description": "A link."},
                {"type": "integer", "minimum": 0},
            ]
        },
    },
    "required": ["name", "code", "tags", "when"],
    "additionalProperties": False,
    "$defs": {"name": {"type": "string", "description": "A name.", "maxLength": 64}},
}


@pytest.mark.parametrize("target", ["openai", "anthropic", "gemini-legacy"])
def test_phrases_survive_refs_merges_and_the_contracts_own_descriptions(target: str) -> None:
    result = export.export(contract_of(DESCRIBED), target)
    assert result.strict is not False
    props = parameters_of(result)["properties"]
    told = {
        "openai": {
            "name": "Who is asking. (at most 64 characters)",  # the $ref inlined with its sibling
            "code": "(at least 2 characters) (at most 8 characters)",  # both allOf branches
            "tags": "Labels. (no item repeated)",
            "items": "(at most 20 characters)",
            "branch": "A link. (format: uri)",
        },
        "anthropic": {
            "name": "Who is asking. (at most 64 characters)",
            "code": "(at least 2 characters) (at most 8 characters)",
            "tags": "Labels. (no item repeated)",
            "items": "(at most 20 characters)",
            "branch": "A link.",  # Anthropic takes uri
            "integer": "(at least 0)",
        },
        "gemini-legacy": {
            "name": "Who is asking.",  # Gemini takes the lengths
            "tags": "Labels. (no item repeated)",
            "branch": "A link. (format: uri)",
        },
    }[target]
    assert props["name"].get("description") == told["name"]
    assert props["code"].get("description") == told.get("code")
    assert props["tags"].get("description") == told["tags"]
    assert props["tags"]["items"].get("description") == told.get("items")
    string_branch, integer_branch = props["when"]["anyOf"]
    assert string_branch.get("description") == told["branch"]
    assert integer_branch.get("description") == told.get("integer")


def test_no_export_leaves_its_bookkeeping_behind() -> None:
    # The phrases wait under an x- key until the node is finished; none reaches a definition.
    for target in export.TARGETS:
        text = json.dumps(export.export(contract_of(DESCRIBED), target).definition)
        assert "x-toolshape" not in text, target
