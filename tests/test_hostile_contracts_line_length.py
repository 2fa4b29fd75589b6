"""Contracts with long text are generated into code a user's checks accept (issue 25).

The committed generated/ is held to a user's checks by test_code_quality.py; the rules
must hold for every contract, not only the examples. So contracts are made here with
long property names, descriptions, enum strings, constants, patterns and tool
descriptions, at lengths around the widths that matter (88 and 100 columns, and the
indentation before them), generated into one output folder, and that folder is held to
the same checks but mypy: black, ruff check of every file without E501, ruff's formatter
at 88 and at 100 columns, ruff check with E501 at 100 (for the files test_code_quality.py
holds at 100: all but the contracts' modules), and at 88 for the generated tests.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from test_code_quality import held_at_100, joined_at_100, package_files
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


#: The longest key the modules are held to E501 at 100 columns with: a longer one is a
#: Python name (a TypedDict field) or a dict key that no line can hold.
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


CHECKS: dict[str, Callable[[Path], list[str]]] = {
    "black": lambda out: ["black", "--check", str(out)],
    # As test_code_quality.GENERATED_CHECKS holds the committed folder: every file to the
    # usual rule families but E501 (an import left unused only where the texts are long, say).
    "ruff check E,F,W,B,UP": lambda out: [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--ignore", "E501", str(out)),
    ],
    # A module whose field name is longer than a line: ruff's formatter and black wrap its
    # TypedDict field differently, so the modules are left to black here.
    "ruff format at 88, but the modules": lambda out: [
        *("ruff", "format", "--isolated", "--check", "--line-length", "88", *held_at_100(out)),
    ],
    "ruff format at 100": lambda out: [
        *("ruff", "format", "--isolated", "--check", "--line-length", "100", *held_at_100(out)),
    ],
    "ruff check E,F,W,B,UP at 88, the tests": lambda out: [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--line-length", "88", str(out / "tests")),
    ],
    "package files: ruff check E,F,W,B,UP at 88": lambda out: [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--line-length", "88", *package_files(out)),
    ],
    "ruff check E,F,W,B,UP at 100": lambda out: [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--line-length", "100", *held_at_100(out)),
    ],
    # The contracts' own modules, where the texts are long and the keys fit a line: long
    # comments folded, long literals cut into parenthesized pieces.
    "modules: ruff check E,F,W,B,UP at 100": lambda out: [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--line-length", "100", *_text_modules(out)),
    ],
    "modules: ruff format at 88": lambda out: [
        *("ruff", "format", "--isolated", "--check", "--line-length", "88", *_text_modules(out)),
    ],
    # Where black split at 88 what no magic trailing comma holds (a condition's parentheses,
    # a string cut into pieces, a ``+`` chain), a comment between keeps ruff at 100 from
    # joining it again (pins.py); long literals are cut within 88 columns.
    "modules: ruff check E,F,W,B,UP at 88": lambda out: [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--line-length", "88", *_text_modules(out)),
    ],
    "modules: ruff format at 100": lambda out: [
        *("ruff", "format", "--isolated", "--check", "--line-length", "100", *_text_modules(out)),
    ],
}


def _text_modules(out: Path) -> list[str]:
    modules = sorted(str(path) for path in out.glob("text_*.py"))
    assert len(modules) == len(LENGTHS)
    return modules


@pytest.mark.parametrize("check", CHECKS.values(), ids=CHECKS.keys())
def test_long_contract_text_passes_a_users_checks(
    generated: Path, check: Callable[[Path], list[str]]
) -> None:
    argv = check(generated)
    if importlib.util.find_spec(argv[0]) is None:
        pytest.fail(f"{argv[0]} is not installed: pip install -e '.[test]'")
    done = subprocess.run(
        [sys.executable, "-m", *argv], cwd=generated.parent, capture_output=True, text=True
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-5000:]


def test_ruff_at_100_keeps_every_bracket_a_comma_holds(generated: Path) -> None:
    """Every module, the long keys' too: each split call, def, class and display carries a
    magic trailing comma, so ruff's formatter at 100 columns keeps what black split at 88."""
    modules = sorted(str(path) for path in generated.glob("*.py"))
    assert len(modules) > 2 * len(LENGTHS)
    assert joined_at_100(modules, generated.parent) == []
