"""The generated code of every shape that leaves a value, an import or a list unread passes a
user's checks (test_code_quality.GENERATED_CHECKS: ruff's E, F, W, B and UP rules, the
formatters, mypy --strict), as the committed examples do.

Each shape below is one way a schema makes the generated code hold something it never
reads; an MCP probe of real servers met each (zod's email pattern and ``z.record``, a
``false`` property, an empty ``enum``, ``not``, ``contains``, keys that differ only in Unicode
form): a name assigned and never read (F841), a loop variable never used (B007), ``re``
imported for patterns that run on the linear-time matcher (F401), a TypedDict part written
as a call that ruff would turn into a class (UP013), an empty table that mypy cannot type; and
the longest tool name, whose contract path the headers name (E501).
Every shape sits on the arguments and on the result (``output``), at the top and nested
inside an object and an array item.

The shapes also hold every way a contract writes an integral number as a float (``1.0``,
``1e300``) where values are ints: bounds, ``multipleOf``, ``enum`` and ``const`` members, a
``type: integer`` and its bounds in different ``allOf`` branches, an accepted example. The
handler gets such a number as an int, so the generated tests send ints there, and their
assertion that an accepted value arrives as sent holds (it failed on each of these); a
number past 10**21 is written as a power of ten (``10**300``), which fits a line. And the
shapes whose accepted value the tests might expect as a copy: an array or object ``enum`` or
``const`` member (sent as the member is, it arrives as sent), and a ``oneOf`` of a number and
a bounded integer (where the float is the number branch's, no int is expected).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from support import CONTEXT, run_pytest
from test_code_quality import GENERATED_CHECKS, assert_generated_check_passes
from toolshape.cli import main
from toolshape.project import planning

#: zod's email pattern: its lookaheads run on the runtime's linear-time matcher, not ``re``.
ZOD_EMAIL = (
    "^(?!\\.)(?!.*\\.\\.)([A-Za-z0-9_'+\\-\\.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9\\-]*\\.)+"
    "[A-Za-z]{2,}$"
)

#: Each shape: the schema of one value that the generated code may hold and not read.
SHAPES: dict[str, Any] = {
    "linear_pattern_only": {"type": "string", "pattern": ZOD_EMAIL},
    "key_names_only": {
        "type": "object",
        "propertyNames": {"type": "string"},
        "additionalProperties": {},
    },
    "false_patterns": {"type": "object", "patternProperties": {"^x": False}},
    "extra_keys_false": {
        "type": "object",
        "propertyNames": {"maxLength": 3},
        "additionalProperties": {"not": {}},
    },
    "negated": {"not": {"type": "string"}},
    "if_then_else": {
        "if": {"type": "string"},
        "then": {"minLength": 2},
        "else": {"type": "number"},
    },
    "contains": {"type": "array", "contains": {"type": "string"}},
    "false_schema": False,
    "empty_enum": {"type": "string", "enum": []},
    "false_prefix_item": {"type": "array", "prefixItems": [False]},
    "integral_bounds": {"type": "integer", "minimum": -1e300, "maximum": 10.0, "multipleOf": 1.0},
    "integral_exclusive_bounds": {"type": "integer", "exclusiveMinimum": -1.5e300},
    "integral_members": {"type": "integer", "enum": [1.0, 2, 1e300]},
    "integral_const": {"type": "integer", "const": 3.0},
    "integral_number_members": {"type": "number", "enum": [1.0, 2.5, 1.5e300]},
    "integral_one_of": {"oneOf": [{"type": "number"}, {"type": "integer", "minimum": 5}]},
    "array_members": {"enum": [[1, 2], [3], "x"]},
    "object_const": {"const": {"x": 1, "y": [2.5, "z"], "$data": "1/password"}},
    "integral_apart": {
        "allOf": [
            {"type": "integer"},
            {"exclusiveMaximum": 1e3, "minimum": 2.0},
            {"not": {"const": 5.0}},
        ]
    },
}

#: An accepted example that writes the integers of ``integral_bounds`` as floats.
INTEGRAL_EXAMPLE = {"top": 2.0, "nested": {"inner": 3.0}, "listed": [4.0, -1e300]}

#: Keys that differ only in Unicode form: NFKC reads both as one name.
UNICODE_KEYS = {"\u00e9": {"type": "integer"}, "e\u0301": {"type": "string"}}


def _object(schema: Any) -> dict[str, Any]:
    """An object holding ``schema`` at the top, nested in an object, and as an array's items."""
    return {
        "type": "object",
        "properties": {
            "top": schema,
            "nested": {"type": "object", "properties": {"inner": schema}},
            "listed": {"type": "array", "items": schema},
        },
    }


def _contract(name: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "name": name,
        "description": f"The {name} shape.",
        "parameters": parameters,
        "output": parameters,
    }


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shapes")
    contracts = root / "contracts"
    contracts.mkdir()
    for name, schema in SHAPES.items():
        contract = _contract(name, _object(schema))
        if name == "integral_bounds":
            contract["examples"] = [{"description": "floats", "args": INTEGRAL_EXAMPLE}]
        text = json.dumps(contract)
        (contracts / f"{name}.yaml").write_text(text, encoding="utf-8")
    unicode_keys = {"type": "object", "properties": UNICODE_KEYS}
    text = json.dumps(_contract("unicode_keys", unicode_keys), ensure_ascii=False)
    (contracts / "unicode_keys.yaml").write_text(text, encoding="utf-8")
    # The longest tool name there is, in a folder: the header's contract path runs on.
    long_name = "a_tool_name_of_sixty_four_characters_" + "x" * 27
    (contracts / "a_folder").mkdir()
    text = json.dumps(_contract(long_name, _object(SHAPES["negated"])))
    (contracts / "a_folder" / f"{long_name}.yaml").write_text(text, encoding="utf-8")
    out = root / "generated"
    assert main(["generate", str(contracts), "--out", str(out), "-q"]) == 0
    return out


@pytest.mark.parametrize("argv", GENERATED_CHECKS.values(), ids=GENERATED_CHECKS.keys())
def test_every_shape_passes_a_users_checks(generated: Path, argv: list[str]) -> None:
    assert_generated_check_passes(argv, generated)


def test_the_generated_tests_of_every_shape_pass(generated: Path) -> None:
    done = run_pytest(generated, cwd=generated.parent)
    assert done.returncode == 0, done.stdout[-5000:]


#: Folders a tool's module may sit in: none, short, long, nested.
FOLDERS = ["", "a/", "atlassian/", "a_folder_of_some_length/nested/"]


@pytest.fixture(scope="module")
def package(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A generated package's ``__init__.py`` listing a tool of every name length (1-64, the
    most a platform takes) in each of ``FOLDERS``: its ``TOOLS`` entries are every width
    from a few columns to well past 100, split or not."""
    tools: dict[str, str] = {}
    for tag, folder in zip("abcd", FOLDERS, strict=True):
        for length in range(1, 65):
            name = tag + "x" * (length - 1)
            tools[name] = "." + (folder + name).replace("/", ".")
    out = tmp_path_factory.mktemp("package") / "generated"
    out.mkdir()
    (out / "__init__.py").write_text(planning.package_source(CONTEXT, tools, {}), encoding="utf-8")
    return out


@pytest.mark.parametrize(
    "argv",
    [argv for label, argv in GENERATED_CHECKS.items() if label != "mypy --strict"],
    ids=[label for label in GENERATED_CHECKS if label != "mypy --strict"],
)
def test_the_tool_table_of_every_name_length_passes_a_users_checks(
    package: Path, argv: list[str]
) -> None:
    # An entry black splits at 88 columns whose joined line fits in 100 (a name of some 35
    # characters in a folder) is joined again by ruff's formatter at 100, unless a comment
    # holds it (pins.py; mypy reads no layout, and the package's types are the same).
    assert_generated_check_passes(argv, package)
