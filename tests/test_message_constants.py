"""The fixed text of an unknown-key message and of an enum message is a module constant.

Where a key is not allowed (``additionalProperties: false``, ``unevaluatedProperties:
false``) or a value is not one of an ``enum``'s, the generated check builds its message around
the value: ``"unknown key " + _show_key(key) + _VALUE_KEY_NOT_ALLOWED + _did_you_mean(...)``,
``_UNIT_ONE_OF + _did_you_mean(unit, _UNIT_VALUES)``. The text that does not change with the
value is a module constant named for its place and for what it holds (``_X_ALLOWED_KEYS``
after a $ref target's label; never a NOT that its text does not say; one per text and place
name in a module), so the expression stays short: with the text inline, black at 88 columns split it over lines that
ruff's formatter at 100 would join again, and ``codegen/pins.py`` had to hold each piece apart
with a comment naming the contract (three in ``get_weather``'s unknown-key message). Shown on
every committed module, whose checks test_code_quality.GENERATED_CHECKS runs (black, ruff at
88 and 100, mypy).
"""

from __future__ import annotations

import ast
import io
import json
import re
import tokenize
from pathlib import Path
from typing import Any

import pytest
from support import CONTEXT
from toolshape.codegen import model, render
from toolshape.contract import checker, source

ROOT = Path(__file__).resolve().parent.parent
MODULES = sorted(
    path
    for path in (ROOT / "generated").rglob("*.py")
    if "tests" not in path.relative_to(ROOT / "generated").parts and not path.name.startswith("_")
)
#: The error codes whose messages are built around a fixed text.
_CODES = ("additionalProperties", "unevaluatedProperties", "enum")
#: A comment that only names a contract place (``# contracts/x.yaml:7``, or the file alone).
_PLACE = re.compile(r"# \S+\.(?:yaml|yml|json)(?::\d+)?")


def _pins(source: str) -> list[int]:
    """The lines of comments that stand inside brackets and only name a contract place: the
    comments ``codegen/pins.py`` puts where a formatter at 100 columns would join lines."""
    depth, lines = 0, []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.OP and token.string in "([{":
            depth += 1
        elif token.type == tokenize.OP and token.string in ")]}":
            depth -= 1
        elif token.type == tokenize.COMMENT and depth and _PLACE.fullmatch(token.string):
            lines.append(token.start[0])
    return lines


def _messages(tree: ast.AST) -> list[tuple[str, ast.expr]]:
    """Each ``Error(path, code, message)`` of a code in _CODES under ``tree`` (a module or one
    function): its code and its message."""
    return [
        (node.args[1].value, node.args[2])
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Error"
        and len(node.args) == 3
        and isinstance(node.args[1], ast.Constant)
        and node.args[1].value in _CODES
    ]


def _text_constants(tree: ast.Module) -> dict[str, str]:
    """The module's constants that hold one string."""
    found: dict[str, str] = {}
    for node in tree.body:
        if not isinstance(node, ast.Assign) or not isinstance(node.value, ast.Constant):
            continue
        if isinstance(node.value.value, str):
            text = node.value.value
            found.update({t.id: text for t in node.targets if isinstance(t, ast.Name)})
    return found


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_a_message_built_around_a_value_takes_its_fixed_text_from_a_module_constant(
    path: Path,
) -> None:
    """Each unknown-key and enum message names one module constant that holds its fixed text
    (what the message says: "... must be one of: ...", "... is not allowed in ...") and no
    string but "unknown key "; so no such message holds a pinned piece of text."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    texts = _text_constants(tree)
    messages = _messages(tree)
    for code, message in messages:
        strings = [n.value for n in ast.walk(message) if isinstance(n, ast.Constant)]
        # In a $ref target's function the value's label is a parameter, joined before the
        # constant: ' is not allowed in ' + label + _PROFILE_KEY_NOT_ALLOWED.
        assert set(strings) <= {"unknown key ", " is not allowed in "}, ast.unparse(message)
        fixed = [n.id for n in ast.walk(message) if isinstance(n, ast.Name) and n.id in texts]
        assert len(fixed) == 1, (code, ast.unparse(message))
        said = texts[fixed[0]]
        assert _names_what_it_holds(fixed[0], said), (fixed[0], said)
    assert messages or "Error(" not in path.read_text(encoding="utf-8")


def _names_what_it_holds(name: str, said: str) -> bool:
    """Whether a message constant's name says what its text does: ``_X_ONE_OF`` for an enum's
    message (no NOT among its words: the text says what the value must be),
    ``_X_KEY_NOT_ALLOWED`` for a whole unknown-key message, ``_X_ALLOWED_KEYS`` (or
    ``_X_EVALUABLE_KEYS``) for the text after a $ref target's label, which names the keys."""
    words = re.sub(r"_\d+$", "", name).strip("_").split("_")
    if " must be one of: " in said or " is not one of the allowed values " in said:
        return words[-2:] == ["ONE", "OF"] and "NOT" not in words
    if said.startswith(" is not allowed in "):
        return words[-3:] == ["KEY", "NOT", "ALLOWED"]
    if said.startswith("; allowed keys: "):
        return words[-2:] == ["ALLOWED", "KEYS"]
    return said.startswith(": no schema that passed") and words[-2:] == ["EVALUABLE", "KEYS"]


def test_no_unknown_key_message_holds_a_pinned_comment() -> None:
    """The unknown-key messages, long with their allowed keys, hold no pin in any committed
    module (``get_weather``'s held three). (An enum message's short expression still needs
    one where it lands between 88 and 100 columns.)"""
    pinned, messages = [], 0
    for path in MODULES:
        source = path.read_text(encoding="utf-8")
        pins = _pins(source)
        for code, message in _messages(ast.parse(source)):
            messages += code != "enum"
            inside = [line for line in pins if message.lineno <= line <= (message.end_lineno or 0)]
            if code != "enum" and inside:
                pinned.append((path.name, inside))
    assert messages and not pinned, pinned


# -- names that say what they hold, one per text and place ---------------------------------


def _source(parameters: dict[str, Any], output: dict[str, Any] | None = None) -> str:
    """The module generated for a contract with these parameters (and this output schema)."""
    document: dict[str, Any] = {"name": "t", "description": "A tool.", "parameters": parameters}
    if output is not None:
        document["output"] = output
    checked = checker.check(source.load(json.dumps(document).encode("utf-8"), "t.yaml"))
    built = model.build(checked, "t", "0" * 64)
    return render.render(CONTEXT, "module.py.j2", "t.py", model=built)


def _used_by(source_text: str) -> dict[str, list[str]]:
    """For each function of the module: the text constants its messages of _CODES name."""
    tree = ast.parse(source_text)
    texts = _text_constants(tree)
    return {
        function.name: [
            node.id
            for _, message in _messages(function)
            for node in ast.walk(message)
            if isinstance(node, ast.Name) and node.id in texts
        ]
        for function in tree.body
        if isinstance(function, ast.FunctionDef)
    }


#: What a $ref target's object and enum messages are made of, alike in two definitions.
_ALIKE = {
    "closed object": {"type": "object", "properties": {"k": {}}, "additionalProperties": False},
    "closed by unevaluatedProperties": {
        "type": "object",
        "properties": {"k": {}},
        "unevaluatedProperties": False,
    },
    "enum": {"enum": ["x", "y"]},
}


def _two_alike(definition: dict[str, Any]) -> dict[str, Any]:
    """Arguments whose "a" and "b" refer to two definitions alike, "first" and "second"."""
    return {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/first"}, "b": {"$ref": "#/$defs/second"}},
        "$defs": {"first": definition, "second": definition},
    }


@pytest.mark.parametrize("definition", _ALIKE.values(), ids=list(_ALIKE))
def test_the_text_after_a_ref_targets_label_is_named_for_what_it_holds(
    definition: dict[str, Any],
) -> None:
    """In a $ref target's function the constant holds the text after the label: the allowed
    keys ("; allowed keys: ...", _FIRST_ALLOWED_KEYS, not _FIRST_KEY_NOT_ALLOWED, which it
    does not say) or the allowed values (" must be one of: ...", _FIRST_ONE_OF)."""
    made = _source(_two_alike(definition))
    held = _text_constants(ast.parse(made))
    used = _used_by(made)["_check_first"]
    assert len(used) == 1 and used[0].startswith("_FIRST_"), used
    assert _names_what_it_holds(used[0], held[used[0]]), (used[0], held[used[0]])


@pytest.mark.parametrize("definition", _ALIKE.values(), ids=list(_ALIKE))
def test_a_text_said_at_two_places_named_apart_has_a_constant_for_each(
    definition: dict[str, Any],
) -> None:
    """Two definitions that say the same text (the same keys, the same values) each name a
    constant of their own place: the second never reads the first's name."""
    used = _used_by(_source(_two_alike(definition)))
    first, second = used["_check_first"], used["_check_second"]
    assert len(first) == len(second) == 1, used
    assert first[0].startswith("_FIRST_") and second[0].startswith("_SECOND_"), used


#: Places under ``not`` whose message says what the subschema requires.
_NEGATED = {
    "not": {"not": {"enum": ["p", "q"]}},
    "not in allOf": {"allOf": [{"type": "string"}, {"not": {"enum": ["p", "q"]}}]},
    "not not": {"not": {"not": {"enum": ["p", "q"]}}},
    "not in a $ref target": {"$ref": "#/$defs/banned"},
}


@pytest.mark.parametrize("schema", _NEGATED.values(), ids=list(_NEGATED))
def test_a_name_made_under_not_never_says_the_opposite_of_its_text(
    schema: dict[str, Any],
) -> None:
    """``not: {enum: [...]}``: the message under ``not`` says the value "must be one of" the
    values; its constant is _N_ONE_OF, never _N_NOT_ONE_OF."""
    parameters = {
        "type": "object",
        "properties": {"n": schema},
        "$defs": {"banned": {"not": {"enum": ["p", "q"]}}},
    }
    tree = ast.parse(_source(parameters))
    held = _text_constants(tree)
    named = [name for name, text in held.items() if " must be one of: " in text]
    assert named and all(_names_what_it_holds(name, held[name]) for name in named), named


def test_one_constant_per_text_and_place_name_in_a_module_both_sides_alike() -> None:
    """The arguments and the result check the same enum at a place of the same name: one
    constant, which both validate() and validate_result() use."""
    tier = {"type": "object", "properties": {"tier": {"enum": ["free", "pro"]}}}
    made = _source(tier, output=tier)
    held = _text_constants(ast.parse(made))
    used = _used_by(made)
    assert used["validate"] == used["validate_result"] == ["_TIER_ONE_OF"], used
    assert [name for name in held if name.startswith("_TIER_ONE_OF")] == ["_TIER_ONE_OF"]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_two_message_constants_of_a_module_hold_one_text_under_one_name(path: Path) -> None:
    """In every committed module, a text is held once per place name: no _TIER_ONE_OF_2 holds
    what _TIER_ONE_OF does."""
    held = _text_constants(ast.parse(path.read_text(encoding="utf-8")))
    seen: dict[tuple[str, str], str] = {}
    for name, text in held.items():
        key = (re.sub(r"_\d+$", "", name), text)
        assert key not in seen, (seen[key], name, text)
        seen[key] = name
