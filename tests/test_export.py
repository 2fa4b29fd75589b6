"""Exports of contracts for OpenAI, Anthropic, Gemini, MCP and plain JSON Schema.

Every contract under contracts/ exports to every target, or the target refuses it with
located findings (documented below); every export is valid JSON Schema where it is one
(Gemini's OpenAPI subset is checked against a schema of its own here); no export refuses
arguments the contract accepts; and every constraint a target drops is named in a note.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, check_example, example_contracts, suite_draft
from toolshape.codegen import cases
from toolshape.contract import checker, source
from toolshape.contract.checker import Contract
from toolshape.families.formats import export as format_export
from toolshape.families.references import targets
from toolshape.platforms import export

jsonschema = pytest.importorskip("jsonschema")

CONTRACTS = ROOT / "contracts"
CONTRACT_FILES = example_contracts() + example_contracts(pattern="*.yml")
FORMAT_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER

#: (contract, target) -> a phrase of the finding that makes the target refuse it outright.
#: Contracts not listed must export (new contracts: either way, with located findings).
DOCUMENTED_REFUSALS = {
    ("billing/transfer_funds.yaml", "gemini-legacy"): "object schema without properties",
    ("comments/post_comment.yaml", "gemini-legacy"): "recursive",
    ("docs/search_documents.yaml", "gemini-legacy"): "recursive",
}

#: A schema of the Gemini FunctionDeclaration this module emits (the OpenAPI 3.0 subset
#: documented at https://ai.google.dev/api/caching#Schema, with lowercase type names).
GEMINI_DECLARATION = {
    "$defs": {
        "schema": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "type": {
                    "enum": ["string", "number", "integer", "boolean", "array", "object", "null"]
                },
                "format": {"enum": ["date-time"]},
                "title": {"type": "string"},
                "description": {"type": "string"},
                "nullable": {"const": True},
                "enum": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                "minItems": {"type": "integer", "minimum": 0},
                "maxItems": {"type": "integer", "minimum": 0},
                "minLength": {"type": "integer", "minimum": 0},
                "maxLength": {"type": "integer", "minimum": 0},
                "minProperties": {"type": "integer", "minimum": 0},
                "maxProperties": {"type": "integer", "minimum": 0},
                "pattern": {"type": "string"},
                "minimum": {"type": "number"},
                "maximum": {"type": "number"},
                "properties": {
                    "type": "object",
                    "minProperties": 1,
                    "additionalProperties": {"$ref": "#/$defs/schema"},
                },
                "required": {"type": "array", "items": {"type": "string"}},
                "items": {"$ref": "#/$defs/schema"},
                "anyOf": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/schema"}},
                "default": True,
                "example": True,
                "propertyOrdering": {"type": "array", "items": {"type": "string"}},
            },
            "if": {"properties": {"type": {"const": "object"}}, "required": ["type"]},
            "then": {"required": ["properties"]},
        }
    },
    "type": "object",
    "additionalProperties": False,
    "required": ["name", "description"],
    "properties": {
        "name": {"type": "string", "pattern": "^[A-Za-z_][A-Za-z0-9_.:-]{0,63}$"},
        "description": {"type": "string", "minLength": 1},
        "parameters": {
            "allOf": [
                {"$ref": "#/$defs/schema"},
                {"required": ["type"], "properties": {"type": {"const": "object"}}},
            ]
        },
    },
}


@functools.cache
def _gemini_declaration() -> Any:
    """A validator of GEMINI_DECLARATION, whose schema is checked once: ``jsonschema.validate``
    checks the schema again on every call."""
    validator = jsonschema.validators.validator_for(GEMINI_DECLARATION)
    validator.check_schema(GEMINI_DECLARATION)
    return validator(GEMINI_DECLARATION)


def assert_a_gemini_declaration(definition: Any) -> None:
    """``jsonschema.validate(definition, GEMINI_DECLARATION)``, the schema checked once."""
    _gemini_declaration().validate(definition)


#: The canonical JSON text of each schema ``check_schema`` found valid in this process.
_VALID_SCHEMAS: set[str] = set()


def check_schema(schema: Any) -> None:
    """``Draft202012Validator.check_schema``: the schema is valid JSON Schema (SchemaError if
    not). Validating against the meta-schema is most of what the export tests spend; a schema
    already found valid (the same text, keys in any order: the exports of a contract for
    several targets are often one schema) is not validated again."""
    key = json.dumps(schema, sort_keys=True)
    if key not in _VALID_SCHEMAS:
        jsonschema.Draft202012Validator.check_schema(schema)
        _VALID_SCHEMAS.add(key)


def load(path: Path) -> checker.Contract:
    return check_example(path, str(path.relative_to(ROOT)))


def from_yaml(text: str, name: str = "inline.yaml") -> checker.Contract:
    return checker.check(source.load(text.encode("utf-8"), name))


def relative(path: Path) -> str:
    return path.relative_to(CONTRACTS).as_posix()


def parameters_of(result: export.ExportResult) -> Any:
    definition = result.definition
    parameters: dict[str, Callable[[], Any]] = {
        "jsonschema": lambda: definition,
        "openai": lambda: definition["function"]["parameters"],
        "openai-responses": lambda: definition["parameters"],
        "anthropic": lambda: definition["input_schema"],
        "gemini": lambda: definition["parametersJsonSchema"],
        "gemini-legacy": lambda: definition.get("parameters", {"type": "object"}),
        "mcp": lambda: definition["inputSchema"],
    }
    return parameters[result.target]()


def accepted_arguments(checked: checker.Contract) -> list[Any]:
    """Arguments the contract accepts: its accepted examples and the accepted derived cases."""
    found = [e.args for e in checked.examples if e.has_args and e.status == "accept"]
    found += [
        json.loads(e.json) for e in checked.examples if e.json is not None and e.status == "accept"
    ]
    found += [case.data for case in cases.derive(checked).cases if not case.errors]
    return found


def absent_for_null(parameters: Any, result: export.ExportResult) -> Any:
    """The export with each converted key optional again: what a model's null stands for.

    OpenAI strict mode lists every key in 'required' (an optional key takes null instead);
    arguments that leave such a key out are what the null means, so they must pass here.
    """
    if not result.converted:
        return parameters
    keys = {c.key for c in result.converted}

    def relax(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: relax(v) for k, v in node.items()}
            if isinstance(out.get("required"), list):
                out["required"] = [k for k in out["required"] if k not in keys]
            return out
        if isinstance(node, list):
            return [relax(v) for v in node]
        return node

    return relax(parameters)


def without_closing(node: Any) -> Any:
    """The export with every 'additionalProperties: false' taken out: what it accepts before
    the strict modes' closing of open objects (and before the contract's own closing)."""
    if isinstance(node, dict):
        return {
            k: without_closing(v)
            for k, v in node.items()
            if not (k == "additionalProperties" and v is False)
        }
    if isinstance(node, list):
        return [without_closing(v) for v in node]
    return node


def gemini_as_json_schema(node: Any) -> Any:
    """The JSON Schema meaning of an exported Gemini schema (nullable, lowercase types)."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "properties":
            out[key] = {k: gemini_as_json_schema(v) for k, v in value.items()}
        elif key == "items":
            out[key] = gemini_as_json_schema(value)
        elif key == "anyOf":
            out[key] = [gemini_as_json_schema(v) for v in value]
        elif key in ("nullable", "example", "propertyOrdering"):
            continue
        else:
            out[key] = value
    if node.get("nullable"):
        if "type" in out:
            out["type"] = [out["type"], "null"]
        if "enum" in out:
            out["enum"] = [*out["enum"], None]
        if "anyOf" in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
    return out


def inlined(schema: Any, root: Any) -> Any:
    """``schema`` with each bare ``{$ref: ...}`` replaced by its target and ``$defs`` left out:
    the shape gemini-legacy exports (it refuses a recursive contract)."""
    if isinstance(schema, list):
        return [inlined(item, root) for item in schema]
    if not isinstance(schema, dict):
        return schema
    if set(schema) == {"$ref"}:
        return inlined(targets.target(root, schema), root)
    return {key: inlined(value, root) for key, value in schema.items() if key != "$defs"}


def walk(
    schema: Any, path: tuple[Any, ...] = ()
) -> Iterator[tuple[dict[str, Any], tuple[Any, ...]]]:
    """Every dict schema with its path (properties, items, anyOf, $defs, ... followed)."""
    if not isinstance(schema, dict):
        return
    yield schema, path
    for keyword in (
        "not",
        "if",
        "then",
        "else",
        "contains",
        "propertyNames",
        "items",
        "additionalProperties",
    ):
        if isinstance(schema.get(keyword), dict):
            yield from walk(schema[keyword], path + (keyword,))
    for keyword in ("allOf", "anyOf", "oneOf", "prefixItems"):
        for i, sub in enumerate(
            schema.get(keyword, []) if isinstance(schema.get(keyword), list) else []
        ):
            yield from walk(sub, path + (keyword, i))
    for keyword in ("$defs", "properties", "patternProperties", "dependentSchemas"):
        for key, sub in (
            (schema.get(keyword) or {}).items() if isinstance(schema.get(keyword), dict) else []
        ):
            yield from walk(sub, path + (keyword, key))


def pointer(path: tuple[Any, ...]) -> str:
    """RFC 6901, written out here rather than taken from the code under test."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def is_object_schema(node: dict[str, Any]) -> bool:
    kinds = node.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds or []
    return "object" in kinds or ("type" not in node and "properties" in node)


# -- every contract, every target ---------------------------------------------------------


@pytest.fixture(scope="module", params=CONTRACT_FILES, ids=lambda p: relative(p))
def checked(request: pytest.FixtureRequest) -> checker.Contract:
    return load(request.param)


@pytest.fixture(scope="module")
def accepted(checked: checker.Contract) -> list[Any]:
    return accepted_arguments(checked)


def test_the_example_contracts_are_found() -> None:
    assert len(CONTRACT_FILES) >= 5


@pytest.mark.parametrize("target", export.TARGETS)
def test_every_contract_exports_or_is_refused_with_located_findings(
    checked: checker.Contract, target: str
) -> None:
    findings = export.lint(checked, target)
    lines = checked.document.text.count("\n") + 1
    for finding in findings:
        assert finding.target == target and finding.message
        assert finding.pointer == pointer(finding.path)
        line, col = checked.document.value_at(finding.location)
        assert 1 <= line <= lines and col >= 1
        assert str(finding.problem(checked)).startswith(f"{checked.file}:{line}:{col}: error: ")
    fatal = [f for f in findings if f.fatal]
    key = (checked.file.removeprefix("contracts/"), target)
    if key in DOCUMENTED_REFUSALS:
        assert any(DOCUMENTED_REFUSALS[key] in f.message for f in fatal), [
            f.message for f in findings
        ]
    if fatal:
        with pytest.raises(export.ExportError) as raised:
            export.export(checked, target)
        assert raised.value.findings == fatal
        return
    assert key not in DOCUMENTED_REFUSALS, f"{key} is documented as refused but exports"
    result = export.export(checked, target)
    assert result.target == target
    json.dumps(result.definition)  # JSON-ready
    assert all(isinstance(note, str) and note for note in result.notes)
    if target in ("openai", "openai-responses", "anthropic"):
        assert result.strict == (not findings)
    else:
        assert result.strict is None and not findings


def test_export_each_says_what_export_says_and_lowers_once_per_rules(
    checked: checker.Contract, monkeypatch: pytest.MonkeyPatch
) -> None:
    """export_each (what generate lists in the package) gives every target what export gives
    it, result or refusal, and runs one lowering per set of rules: openai-responses takes
    openai's (its findings named for openai-responses)."""
    lowered_for: list[str] = []
    run = export._Lowering.run

    def counted(lowering: Any) -> Any:
        lowered_for.append(lowering.named)
        return run(lowering)

    monkeypatch.setattr(export._Lowering, "run", counted)
    each = export.export_each(checked, export.TARGETS)
    assert sorted(lowered_for) == ["anthropic", "gemini-legacy", "openai"]
    assert list(each) == list(export.TARGETS)
    for target in export.TARGETS:
        given = each[target]
        try:
            alone = export.export(checked, target)
        except export.ExportError as refused:
            assert isinstance(given, export.ExportError), target
            assert (given.target, given.findings) == (target, refused.findings)
            assert all(finding.target == target for finding in given.findings)
            continue
        assert isinstance(given, export.ExportResult), target
        assert json.dumps(given.definition) == json.dumps(alone.definition)
        assert given == alone
        assert all(finding.target == target for finding in given.strict_refused)


@pytest.mark.parametrize("target", export.TARGETS)
def test_exports_are_valid_schemas_that_refuse_nothing_the_contract_accepts(
    checked: checker.Contract, accepted: list[Any], target: str
) -> None:
    if any(f.fatal for f in export.lint(checked, target)):
        pytest.skip(f"{target} refuses this contract (see the test above)")
    result = export.export(checked, target)
    parameters = parameters_of(result)
    if target == "gemini-legacy":
        assert_a_gemini_declaration(result.definition)
        parameters = gemini_as_json_schema(parameters)
    check_schema(parameters)
    parameters = absent_for_null(parameters, result)
    validator = jsonschema.Draft202012Validator(parameters, format_checker=FORMAT_CHECKER)
    assert accepted
    for arguments in accepted:
        errors = [e.message for e in validator.iter_errors(arguments)]
        assert not errors, f"the {target} export refuses accepted arguments {arguments!r}: {errors}"


@pytest.mark.parametrize("target", export.TARGETS)
def test_definition_shapes(checked: checker.Contract, target: str) -> None:
    if any(f.fatal for f in export.lint(checked, target)):
        pytest.skip(f"{target} refuses this contract")
    definition = export.export(checked, target).definition
    if target == "jsonschema":
        assert definition["$schema"] == "https://json-schema.org/draft/2020-12/schema"
        assert definition["title"] == checked.parameters.get("title", checked.name)
        assert {
            k: v for k, v in definition.items() if k not in ("$schema", "title", "description")
        } == {k: v for k, v in checked.parameters.items() if k not in ("title", "description")}
    elif target == "openai":
        assert definition["type"] == "function"
        assert set(definition["function"]) == {"name", "description", "parameters", "strict"}
        assert definition["function"]["name"] == checked.name
    elif target == "openai-responses":
        assert set(definition) == {"type", "name", "description", "parameters", "strict"}
        assert definition["type"] == "function" and definition["name"] == checked.name
    elif target == "anthropic":
        assert set(definition) - {"strict"} == {"name", "description", "input_schema"}
        assert definition.get("strict", False) is (not export.lint(checked, target))
    elif target == "gemini":
        assert set(definition) == {"name", "description", "parametersJsonSchema"}
    elif target == "gemini-legacy":
        assert set(definition) <= {"name", "description", "parameters"}
    else:
        assert definition["inputSchema"] == checked.parameters
        assert (
            definition["name"] == checked.name and definition["description"] == checked.description
        )


def test_platform_exports_carry_no_toolshape_extensions(checked: checker.Contract) -> None:
    for target in ("openai", "anthropic", "gemini", "gemini-legacy"):
        if any(f.fatal for f in export.lint(checked, target)):
            continue
        for node, _ in walk(parameters_of(export.export(checked, target))):
            assert not [k for k in node if k.startswith("x-")]


def test_openai_strict_exports_require_every_property_and_refuse_unknown_keys(
    checked: checker.Contract,
) -> None:
    result = export.export(checked, "openai")
    if not result.strict:
        assert result.definition["function"]["strict"] is False
        assert result.definition["function"]["parameters"] == export._openai_fillers(
            export._strip_extensions(checked.parameters)
        )
        assert any("strict mode is off" in note for note in result.notes)
        return
    assert_openai_strict(result.definition["function"]["parameters"])


def assert_openai_strict(parameters: dict[str, Any]) -> None:
    assert "anyOf" not in parameters
    for node, where in walk(parameters):
        assert "type" in node or "anyOf" in node or "$ref" in node, f"no type at {pointer(where)}"
        if "$ref" in node:
            assert set(node) == {"$ref"}, f"$ref beside other keywords at {pointer(where)}"
        for keyword in (
            "minLength",
            "maxLength",
            "uniqueItems",
            "patternProperties",
            "allOf",
            "oneOf",
            "not",
            "if",
            "default",
        ):
            assert keyword not in node, f"{keyword} at {pointer(where)}"
        if node.get("format") is not None:
            assert node["format"] in format_export.OPENAI_FORMATS
        if is_object_schema(node):
            assert node.get("additionalProperties") is False, (
                f"additionalProperties at {pointer(where)}"
            )
            assert set(node.get("required", [])) == set(node.get("properties", {})), (
                f"required at {pointer(where)}"
            )


#: Keywords each strict or subset target drops, and how a contract's value shows they are in force.
DROPPED = {
    "openai": (
        "minLength",
        "maxLength",
        "minProperties",
        "maxProperties",
        "propertyNames",
        "contains",
        "not",
        "if",
        "dependentRequired",
        "dependentSchemas",
        "prefixItems",
    ),
    "anthropic": (
        "minLength",
        "maxLength",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "maxItems",
        "minProperties",
        "maxProperties",
        "propertyNames",
        "contains",
        "not",
        "if",
        "dependentRequired",
        "dependentSchemas",
        "prefixItems",
    ),
    "gemini-legacy": (
        "multipleOf",
        "propertyNames",
        "contains",
        "not",
        "if",
        "dependentRequired",
        "dependentSchemas",
        "prefixItems",
        "patternProperties",
    ),
}


@pytest.mark.parametrize("target", ["openai", "anthropic", "gemini-legacy"])
def test_notes_name_every_dropped_constraint(checked: checker.Contract, target: str) -> None:
    if any(f.fatal for f in export.lint(checked, target)):
        pytest.skip(f"{target} refuses this contract")
    result = export.export(checked, target)
    if result.strict is False:
        pytest.skip("strict mode is off: the schema is exported unchanged")
    notes = "\n".join(result.notes)
    schema = checked.parameters
    if target == "gemini-legacy":  # it has no $ref: notes name where each definition is used
        schema = inlined(schema, schema)
    for node, where in walk(schema):
        present = [k for k in DROPPED[target] if k in node]
        if node.get("uniqueItems") is True:
            present.append("uniqueItems")
        if target == "gemini-legacy" and node.get("additionalProperties") is False:
            present.append("additionalProperties")
        allowed = {
            "openai": format_export.OPENAI_FORMATS,
            "anthropic": format_export.ANTHROPIC_FORMATS,
            "gemini-legacy": format_export.GEMINI_FORMATS,
        }
        if isinstance(node.get("format"), str) and node["format"] not in allowed[target]:
            present.append("format")
        for keyword in present:
            at = pointer(where) or "the root"
            assert re.search(rf"'{re.escape(keyword)}[':].* at {re.escape(at)}[:;]", notes), (
                f"no note for {keyword} at {at} in:\n{notes}"
            )


def test_jsonschema_and_mcp_take_every_contract(checked: checker.Contract) -> None:
    assert export.lint(checked, "jsonschema") == [] and export.lint(checked, "mcp") == []


# -- one rule at a time ---------------------------------------------------------------------

WEATHER = CONTRACTS / "get_weather.yaml"


def test_openai_strict_export_of_get_weather() -> None:
    result = export.export(load(WEATHER), "openai")
    assert result.strict is True
    assert result.definition == {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Current weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {
                        "type": "string",
                        "pattern": "\\S",
                        # minLength is not enforced: the model is told
                        "description": "City name (at least 1 character)",
                    },
                    "unit": {
                        "type": "string",
                        "enum": ["c", "f"],
                        "description": "Temperature unit: c for Celsius, f for Fahrenheit",
                    },
                },
                "required": ["city", "unit"],
                "additionalProperties": False,
            },
            "strict": True,
        },
    }
    assert result.notes == [
        "OpenAI strict mode does not enforce 'minLength' at /properties/city: the generated validator is the only enforcement"
    ]


STRICT_FRIENDLY = """\
name: file_ticket
description: File a support ticket.
parameters:
  type: object
  $defs:
    node:
      type: object
      properties:
        label: {type: string, minLength: 1}
        children: {type: array, items: {$ref: '#/$defs/node'}, maxItems: 5}
      required: [label, children]
      additionalProperties: false
  properties:
    subject: {type: string, maxLength: 120, pattern: '\\S'}
    severity: {enum: [low, high, null]}
    confirm: {const: true}
    tags: {type: [array, 'null'], items: {type: string, format: uri}, uniqueItems: true, minItems: 1}
    amount: {type: number, exclusiveMinimum: 0, multipleOf: 0.01}
    tree: {$ref: '#/$defs/node', description: The category tree}
    contact:
      oneOf:
        - {type: object, properties: {email: {type: string, format: email}}, required: [email], additionalProperties: false}
        - {type: object, properties: {phone: {type: string}}, required: [phone], additionalProperties: false}
  required: [subject, severity, confirm, tags, amount, tree, contact]
  additionalProperties: false
"""


def test_openai_strict_export_of_a_strict_compatible_contract() -> None:
    checked = from_yaml(STRICT_FRIENDLY)
    assert export.lint(checked, "openai") == []
    result = export.export(checked, "openai")
    assert result.strict is True
    parameters = result.definition["function"]["parameters"]
    assert_openai_strict(parameters)
    check_schema(parameters)
    properties = parameters["properties"]
    assert properties["severity"] == {"type": ["string", "null"], "enum": ["low", "high", None]}
    assert properties["confirm"] == {"type": "boolean", "const": True}
    assert (
        properties["tree"]["description"] == "The category tree"
    )  # $ref beside a keyword: inlined
    assert properties["tree"]["properties"]["children"]["items"] == {
        "$ref": "#/$defs/node"
    }  # recursion kept
    assert "anyOf" in properties["contact"] and "oneOf" not in properties["contact"]
    notes = "\n".join(result.notes)
    for expected in (
        "'maxLength' at /properties/subject",
        "'format: uri' at /properties/tags/items",
        "'uniqueItems: true' at /properties/tags",
        "'minLength' at /$defs/node/properties/label",
        "'oneOf' (exactly one) is exported as 'anyOf' (at least one) at /properties/contact",
    ):
        assert expected in notes, notes
    assert "maxItems" not in notes and "multipleOf" not in notes and "exclusiveMinimum" not in notes


def test_openai_lint_locates_each_reason_strict_mode_is_refused() -> None:
    text = """\
name: search
description: Search.
parameters:
  type: object
  properties:
    query: {type: string}
    page: {type: integer, minimum: 1}
    filters:
      type: object
      properties:
        lang: {type: string}
      required: [lang, region]
    labels: {type: object, additionalProperties: {type: string}}
    anything: {}
  required: [query, filters, labels, anything]
  additionalProperties: false
"""
    checked = from_yaml(text)
    findings = export.lint(checked, "openai")
    shown = sorted(str(f.problem(checked)) for f in findings)
    # the optional 'page' is no reason: its null is removed again (platform="openai")
    assert len(shown) == 3, shown
    assert any(
        s.startswith(
            "inline.yaml:9:7: error: the object at /properties/filters does not say 'additionalProperties: false'"
        )
        and "closing this one cannot express the contract: required 'region' not among its properties"
        in s
        for s in shown
    )
    assert any(
        s.startswith(
            "inline.yaml:13:50: error: 'additionalProperties' at /properties/labels is a schema"
        )
        for s in shown
    )
    assert any(
        s.startswith("inline.yaml:14:15: error: the schema at /properties/anything has no 'type'")
        for s in shown
    )
    assert not any(f.fatal for f in findings)
    result = export.export(checked, "openai")
    assert result.strict is False and result.definition["function"]["strict"] is False
    fallback = copy.deepcopy(checked.parameters)
    fallback["properties"]["labels"][
        "properties"
    ] = {}  # OpenAI: "object schema missing properties"
    assert result.definition["function"]["parameters"] == fallback
    assert result.notes == [
        (
            "OpenAI strict mode is off (3 problems: see lint --target openai): the model is not constrained by this "
            "schema, and the generated validator is the only enforcement of every constraint"
        )
    ]


def test_tool_names_with_dots_are_refused_by_openai_and_anthropic() -> None:
    checked = from_yaml(
        "name: billing.refund\ndescription: Refund.\nparameters: {type: object, additionalProperties: false}\n"
    )
    for target in ("openai", "anthropic"):
        (finding,) = export.lint(checked, target)
        assert finding.fatal and finding.location == ("name",) and "no dots" in finding.message
        assert str(finding.problem(checked)).startswith("inline.yaml:1:7: error: ")
        with pytest.raises(export.ExportError):
            export.export(checked, target)
    assert export.export(checked, "gemini-legacy").definition == {
        "name": "billing.refund",
        "description": "Refund.",
    }
    assert export.export(checked, "mcp").definition["name"] == "billing.refund"


PATTERNS = """\
name: register
description: Register a user.
parameters:
  type: object
  properties:
    handle: {type: string, minLength: 3, maxLength: 20, pattern: '^[a-z0-9_]+$'}
    password: {type: string, pattern: '^(?=.*[0-9]).{12,}$', x-sensitive: true}
    age: {type: integer, minimum: 13, maximum: 130}
    emails: {type: array, items: {type: string, format: email}, minItems: 2, maxItems: 4}
    referrer: {type: [string, 'null'], format: uri}
  required: [handle, password, age, emails, referrer]
  additionalProperties: false
"""


def test_anthropic_strict_notes_each_constraint_it_drops() -> None:
    checked = from_yaml(PATTERNS)
    assert export.lint(checked, "anthropic") == []
    result = export.export(checked, "anthropic")
    assert result.strict is True and result.definition["strict"] is True
    schema = result.definition["input_schema"]
    # What strict tool use does not enforce, the description tells the model.
    assert schema["properties"]["handle"] == {
        "type": "string",
        "pattern": "^[a-z0-9_]+$",
        "description": "(at least 3 characters) (at most 20 characters)",
    }
    assert schema["properties"]["password"] == {
        "type": "string",
        "description": "(matching ^(?=.*[0-9]).{12,}$)",
    }  # lookahead: refused by Anthropic's grammar
    assert schema["properties"]["age"] == {
        "type": "integer",
        "description": "(at least 13) (at most 130)",
    }
    assert schema["properties"]["emails"] == {
        "type": "array",
        "items": {"type": "string", "format": "email"},
        "minItems": 1,
        "description": "(at least 2 items) (at most 4 items)",
    }
    assert schema["properties"]["referrer"] == {"type": ["string", "null"], "format": "uri"}

    def note(what: str, where: str) -> str:
        return f"Anthropic strict tool use does not enforce {what} at {where}: the generated validator is the only enforcement"

    assert result.notes == [
        note("'minLength'", "/properties/handle"),
        note("'maxLength'", "/properties/handle"),
        note(
            "'pattern' (it uses a backreference, lookaround or word boundary)",
            "/properties/password",
        ),
        note("'minimum'", "/properties/age"),
        note("'maximum'", "/properties/age"),
        (
            "Anthropic strict tool use: 'minItems' 2 is exported as 'minItems' 1 (only 0 and 1 are supported) at "
            "/properties/emails; the generated validator is the only enforcement"
        ),
        note("'maxItems'", "/properties/emails"),
    ]


def test_anthropic_refuses_recursion_and_top_level_unions() -> None:
    recursive = from_yaml(STRICT_FRIENDLY)
    (finding,) = export.lint(recursive, "anthropic")
    assert "recursive" in finding.message and not finding.fatal
    assert finding.path == ("$defs", "node", "properties", "children", "items", "$ref")
    assert export.export(recursive, "anthropic").strict is False
    union = from_yaml(
        "name: pick\ndescription: Pick one.\nparameters:\n  type: object\n"
        "  anyOf: [{required: [a]}, {required: [b]}]\n  properties: {a: {type: string}, b: {type: string}}\n"
    )
    fatal = [f for f in export.lint(union, "anthropic") if f.fatal]
    assert fatal and fatal[0].path == ("anyOf",) and "top level" in fatal[0].message
    with pytest.raises(export.ExportError):
        export.export(union, "anthropic")


GEMINI = """\
name: book_table
description: Book a restaurant table.
parameters:
  type: object
  title: Booking
  properties:
    restaurant: {type: string, description: Name or id, maxLength: 80}
    party: {type: integer, exclusiveMinimum: 0, maximum: 20}
    when: {type: string, format: date-time}
    day: {type: string, format: date}
    note: {type: [string, 'null'], maxLength: 200}
    seating: {enum: [indoor, outdoor, null]}
    size: {enum: [1, 2, 'large']}
    vip: {const: true}
    source: {const: app}
    either: {type: [string, integer], minLength: 2, minimum: 3}
    guests:
      type: array
      items:
        type: object
        properties: {name: {type: string}}
        required: [name]
        additionalProperties: false
      uniqueItems: true
  required: [restaurant, party]
  additionalProperties: false
"""


def test_gemini_spells_the_openapi_subset() -> None:
    checked = from_yaml(GEMINI)
    assert export.lint(checked, "gemini-legacy") == []
    result = export.export(checked, "gemini-legacy")
    assert_a_gemini_declaration(result.definition)
    p = result.definition["parameters"]
    assert p["type"] == "object" and p["title"] == "Booking" and "additionalProperties" not in p
    props = p["properties"]
    assert props["party"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 20,
        "description": "(greater than 0)",
    }
    assert props["when"] == {"type": "string", "format": "date-time"}
    assert props["day"] == {"type": "string", "description": "(format: date)"}
    assert props["note"] == {"type": "string", "maxLength": 200, "nullable": True}
    assert props["seating"] == {"type": "string", "enum": ["indoor", "outdoor"], "nullable": True}
    assert props["size"] == {
        "anyOf": [{"type": "integer"}, {"type": "string", "enum": ["large"]}],
        "description": '(one of 1, 2, "large")',
    }
    assert props["vip"] == {"type": "boolean", "description": "(exactly true)"}
    assert props["source"] == {"type": "string", "enum": ["app"]}
    assert props["either"] == {
        "anyOf": [{"type": "string", "minLength": 2}, {"type": "integer", "minimum": 3}]
    }
    assert props["guests"] == {
        "type": "array",
        "items": {
            "type": "object",
            "properties": {"name": {"type": "string"}},
            "required": ["name"],
        },
        "description": "(no item repeated)",
    }
    notes = "\n".join(result.notes)
    for expected in (
        "Gemini: 'exclusiveMinimum' 0 is exported as 'minimum' 0 (the bound itself is allowed) at /properties/party",
        "'format: date' at /properties/day",
        "'enum' (Gemini enums hold only strings; 1, 2 not enforced) at /properties/size",
        "'const' (Gemini has no const; true is not enforced) at /properties/vip",
        "'uniqueItems: true' at /properties/guests",
        "'additionalProperties: false' at /properties/guests/items",
        "'additionalProperties: false' at the root",
    ):
        assert expected in notes, notes


def test_gemini_refuses_recursion_and_free_form_maps_where_they_are() -> None:
    recursive = from_yaml(STRICT_FRIENDLY)
    findings = export.lint(recursive, "gemini-legacy")
    assert [f.path for f in findings] == [
        ("$defs", "node", "properties", "children", "items", "$ref")
    ]
    assert findings[0].fatal and str(findings[0].problem(recursive)).startswith(
        "inline.yaml:10:47: error: this $ref (#/$defs/node) is recursive"
    )
    with pytest.raises(export.ExportError, match="recursive"):
        export.export(recursive, "gemini-legacy")
    mapping = from_yaml(
        "name: tag\ndescription: Tag it.\nparameters:\n  type: object\n  properties:\n"
        "    labels: {type: object, additionalProperties: {type: string}}\n"
    )
    (finding,) = export.lint(mapping, "gemini-legacy")
    assert (
        finding.path == ("properties", "labels")
        and "should be non-empty for OBJECT type" in finding.message
    )


def test_gemini_names_and_parameter_names() -> None:
    checked = from_yaml(
        "name: 2fa-reset\ndescription: Reset.\nparameters:\n  type: object\n  properties:\n    user-id: {type: string}\n"
    )
    messages = [f.message for f in export.lint(checked, "gemini-legacy")]
    assert any("rename the tool '2fa-reset'" in m for m in messages)
    assert any("rename the parameter 'user-id'" in m for m in messages)


def test_a_tool_without_parameters_has_no_gemini_parameters() -> None:
    checked = from_yaml(
        "name: ping\ndescription: Ping.\nparameters: {type: object, additionalProperties: false}\n"
    )
    assert export.export(checked, "gemini-legacy").definition == {
        "name": "ping",
        "description": "Ping.",
    }


def test_jsonschema_export() -> None:
    checked = load(WEATHER)
    definition = export.export(checked, "jsonschema").definition
    assert list(definition)[:3] == ["$schema", "title", "description"]
    assert (
        definition["title"] == "get_weather"
        and definition["description"] == "Current weather for a city."
    )
    email = load(CONTRACTS / "send_email.yaml")
    result = export.export(email, "jsonschema")
    assert result.definition["title"] == "Outgoing email"
    assert result.notes == [
        "the schema's own title 'Outgoing email' is kept; the tool name 'send_email' is not in this document"
    ]
    (note,) = export.export(load(CONTRACTS / "net" / "allow_ip.yaml"), "mcp").notes
    assert (
        note.startswith("'format' (")
        and "/properties/service_host" in note
        and "annotation" in note
    )


def test_mcp_export() -> None:
    email = load(CONTRACTS / "send_email.yaml")
    definition = export.export(email, "mcp").definition
    assert list(definition) == ["name", "title", "description", "inputSchema"]
    assert definition["title"] == "Outgoing email" and definition["inputSchema"] == email.parameters


def test_unknown_target() -> None:
    with pytest.raises(ValueError, match="unknown target 'claude'"):
        export.lint(load(WEATHER), "claude")
    with pytest.raises(ValueError):
        export.export(load(WEATHER), "claude")


def test_exports_do_not_change_the_contract() -> None:
    for path in CONTRACT_FILES:
        checked = load(path)
        before = copy.deepcopy(checked.parameters)
        for target in export.TARGETS:
            with contextlib.suppress(export.ExportError):
                export.export(checked, target)
        assert checked.parameters == before


def test_to_json_is_stable() -> None:
    result = export.export(load(WEATHER), "mcp")
    assert result.to_json() == json.dumps(result.definition, indent=2, ensure_ascii=False) + "\n"


# -- the JSON-Schema-Test-Suite, as tool parameters ----------------------------------------------

SUITE_DRAFT = suite_draft("draft2020-12")


def _suite_contracts() -> Iterator[tuple[str, Contract, list[dict[str, Any]]]]:
    """(label, checked contract, instances) for each suite group toolshape accepts as the schema of 'v'."""
    from toolshape.contract.errors import ContractError
    from toolshape.contract.source import Document

    def repoint(node: Any) -> Any:
        if isinstance(node, list):
            return [repoint(item) for item in node]
        if not isinstance(node, dict):
            return node
        return {
            key: (
                "#/properties/v" + value[1:]
                if key == "$ref" and isinstance(value, str) and value.startswith("#")
                else value
                if key in ("enum", "const", "default", "examples")
                else repoint(value)
            )
            for key, value in node.items()
        }

    for path in sorted(SUITE_DRAFT.rglob("*.json")):
        for index, group in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            schema = group["schema"]
            if isinstance(schema, dict):
                schema = {k: v for k, v in schema.items() if k != "$schema"}
            data = {
                "name": "suite_case",
                "description": "One group of the JSON-Schema-Test-Suite.",
                "parameters": {
                    "type": "object",
                    "properties": {"v": repoint(schema)},
                    "required": ["v"],
                },
            }
            try:
                checked = checker.check(Document(file="suite", data=data, text=""))
            except ContractError:
                continue
            label = f"{path.relative_to(SUITE_DRAFT).as_posix()}#{index}"
            yield label, checked, [{"v": test["data"]} for test in group["tests"]]


def test_suite_schemas_export_to_every_target_without_refusing_more_than_the_contract() -> None:
    """Every suite group toolshape takes exports (or is refused with findings) for each target,
    and each export accepts every instance the unchanged schema accepts (the same validator
    judging both, so the jsonschema library's own regex and format quirks cancel out)."""
    groups = 0
    for label, checked, instances in _suite_contracts():
        groups += 1
        original = export.export(checked, "jsonschema").definition
        try:
            check_schema(original)
        except jsonschema.SchemaError:
            continue  # a pattern Python's re cannot compile: the library cannot judge this group
        plain = jsonschema.Draft202012Validator(original, format_checker=FORMAT_CHECKER)
        kept = [i for i in instances if plain.is_valid(i)]
        for target in ("openai", "anthropic", "gemini", "gemini-legacy", "mcp"):
            try:
                result = export.export(checked, target)
            except export.ExportError as error:
                assert error.findings and all(f.fatal for f in error.findings), label
                continue
            parameters = parameters_of(result)
            if target == "gemini-legacy":
                assert_a_gemini_declaration(result.definition)
                parameters = gemini_as_json_schema(parameters)
            check_schema(parameters)
            if target == "openai" and result.strict:
                assert_openai_strict(parameters)
            parameters = absent_for_null(parameters, result)
            exported = jsonschema.Draft202012Validator(parameters, format_checker=FORMAT_CHECKER)
            # The one narrowing: a strict export closes open objects, refusing unlisted keys.
            reopened = jsonschema.Draft202012Validator(
                without_closing(parameters) if result.closed else parameters,
                format_checker=FORMAT_CHECKER,
            )
            for instance in kept:
                assert exported.is_valid(instance) or (
                    result.closed and reopened.is_valid(instance)
                ), f"{label}: the {target} export refuses {instance!r}"
    assert groups > 100
