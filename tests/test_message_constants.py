"""The fixed text of an unknown-key message and of an enum message is a module constant.

Where a key is not allowed (``additionalProperties: false``, ``unevaluatedProperties:
false``) or a value is not one of an ``enum``'s, the generated check builds its message around
the value: ``"unknown key " + _show_key(key) + _VALUE_KEY_NOT_ALLOWED + _did_you_mean(...)``,
``_UNIT_ONE_OF + _did_you_mean(unit, _UNIT_VALUES)``. The text that does not change with the
value is a module constant named for what it says (one per text in a module), so the
expression stays short: with the text inline, black at 88 columns split it over lines that
ruff's formatter at 100 would join again, and ``codegen/pins.py`` had to hold each piece apart
with a comment naming the contract (three in ``get_weather``'s unknown-key message). Shown on
every committed module, whose checks test_code_quality.GENERATED_CHECKS runs (black, ruff at
88 and 100, mypy).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from pathlib import Path

import pytest

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


def _messages(tree: ast.Module) -> list[tuple[str, ast.expr]]:
    """Each ``Error(path, code, message)`` of a code in _CODES: its code and its message."""
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
        if code == "enum":
            assert " must be one of: " in said or " is not one of the allowed values " in said
            assert re.search(r"_ONE_OF(?:_\d+)?$", fixed[0]), fixed[0]
        else:
            assert said.startswith((" is not allowed in ", "; allowed keys: ")), said
            assert "allowed keys: " in said or "the keys they may evaluate: " in said, said
            assert re.search(r"_KEY_NOT_ALLOWED(?:_\d+)?$", fixed[0]), fixed[0]
    assert messages or "Error(" not in path.read_text(encoding="utf-8")


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
