"""Contracts with long text are generated into code a user's checks accept (issue 25).

The committed generated/ is held to a user's checks by test_code_quality.py; the rules
must hold for every contract, not only the examples. So contracts are made here with
long property names, descriptions, enum strings, constants, patterns and tool
descriptions, at lengths around the widths that matter (88 and 100 columns, and the
indentation before them), generated into one output folder, and that folder is held to
the same checks but mypy: black, ruff check with E501 at 88 and at 100 columns, ruff's
formatter at 88 and at 100 columns, every file (the contracts' modules too).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_code_quality import GENERATED_CHECKS, assert_generated_check_passes
from toolshape.cli import main

#: Lengths of the contracts' texts: short, around 88 and 100 columns less the indentation
#: they are written at (4 to 16 columns, quotes and a comma), and far past both.
LENGTHS = (40, 66, 70, 74, 78, 82, 86, 90, 94, 98, 120, 300)


def _text(length: int, seed: str) -> str:
    """Words and quotes, cut to ``length`` characters: ``seed`` makes each text distinct. The
    triple quotes are odd in number where a text holds one set: a tool reading the module
    line by line, counting them to tell a docstring's lines, loses count there."""
    words = f'{seed} said \'the quick brown fox\' """ jumps over the lazy dog / and runs on '
    return (words * (length // len(words) + 1))[:length].rstrip() or seed


def _key(length: int) -> str:
    """A property name of ``length`` characters, an identifier (a TypedDict field)."""
    return ("property_" + "x" * length)[:length]


#: A key that fits a line, beside the long ones (a TypedDict field in class syntax, a dict
#: key left whole).
HELD_KEY = 60


def contract(length: int, key_length: int | None = None) -> dict[str, object]:
    """A contract holding texts of about ``length`` characters everywhere it holds text
    (its property names ``key_length`` long, if given)."""
    key = _key(length if key_length is None else key_length)
    value = _text(length, "value")
    pattern = "^" + "(?:abc|def)" * (length // 11 + 1) + "$"
    return {
        "name": f"long_{length}" if key_length is None else f"text_{length}",
        "description": _text(length, "tool"),
        "parameters": {
            "type": "object",
            "properties": {
                key: {"type": "string", "description": _text(length, "name"), "maxLength": 500},
                "choice": {"enum": [value, value + " two"], "description": _text(length, "e")},
                "fixed": {"const": _text(length, "const")},
                "code": {"type": "string", "pattern": pattern},
                "inner": {
                    "type": "object",
                    "properties": {key: {"type": "integer", "minimum": length}},
                    "required": [key],
                    "additionalProperties": False,
                },
            },
            "required": [key, "choice"],
            "additionalProperties": False,
        },
        "examples": [
            {"description": _text(length, "example"), "args": {key: value, "choice": value}},
        ],
    }


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("long")
    contracts = root / "contracts"
    contracts.mkdir()
    for length in LENGTHS:
        (contracts / f"long_{length}.yaml").write_text(json.dumps(contract(length)))
        held = contract(length, HELD_KEY)
        (contracts / f"text_{length}.yaml").write_text(json.dumps(held))
    out = root / "generated"
    assert main(["generate", str(contracts), "--out", str(out), "-q"]) == 0
    return out


#: The checks test_code_quality.GENERATED_CHECKS holds the committed folder to, on this
#: folder: every file, the modules of keys longer than a line too (a TypedDict part written
#: as a call, the key cut into pieces); where black split at 88 what no magic trailing comma
#: holds (a condition's parentheses, a string cut into pieces, a ``+`` chain), a comment
#: between keeps ruff at 100 from joining it again (pins.py). mypy is left to the committed
#: folder (its cost per module is high and the long texts change no type).
CHECKS = {name: argv for name, argv in GENERATED_CHECKS.items() if name != "mypy --strict"}


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
def test_long_contract_text_passes_a_users_checks(generated: Path, check: list[str]) -> None:
    assert_generated_check_passes(check, generated)
