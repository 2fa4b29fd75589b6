"""The generator's own code is held to what its output is held to (issue 15): ruff's
formatter and linter and mypy --strict, with the settings in pyproject.toml, over
generator/ and tests/. Each runs as a subprocess of this interpreter, from the `test`
extra's pinned versions, so `pytest` alone runs every check CI runs.

mypy keeps its incremental cache in the user's cache folder (``$TOOLSHAPE_TEST_MYPY_CACHE``,
default ``~/.cache/toolshape-test-mypy``), beside the other Pythons' venvs, not in the clone:
a fresh clone then checks in about 2 CPU s instead of 36 (typeshed and every package's stubs
analysed again). mypy trusts an entry only when its own version, its options and the file's
hash match, so a cache from another clone or another commit never hides an error."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, user_cache

CHECKS = {
    "ruff format": ["ruff", "format", "--check", "generator", "tests"],
    "ruff check": ["ruff", "check", "generator", "tests"],
    "mypy --strict": ["mypy"],  # files and strictness from [tool.mypy]
}


#: What a user's project may hold the committed generated/ to (issue 25), with the user's
#: settings unknown (``--isolated``: none of this repository's): ruff's usual rule families,
#: for the oldest Python the generated code runs on, with E501 at 88 and at 100 columns;
#: ruff's formatter at 88 and at 100 columns and black (which formats generated code) at
#: 88; mypy --strict. The modules' long comments are folded by comments.py, their long
#: literals cut by long_literals.py; the tests' tables are laid out within 88 columns by
#: wrapping.py, their header records folded at 88 by headers.py; where ruff's formatter at
#: 100 would join what black split at 88 and no magic trailing comma holds it, pins.py puts
#: a comment naming the contract line between (the runtime's template writes its own). A
#: key too long for a line (create_login's, 120 characters) is cut like a long string, and
#: its TypedDict part is written as a call (typing_model.py: no class body can cut a name).
GENERATED_CHECKS = {
    "ruff check E,F,W,B,UP": [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--ignore", "E501", "generated"),
    ],
    "ruff format": [
        *("ruff", "format", "--isolated", "--check", "--line-length", "88", "generated"),
    ],
    "black": ["black", "--check", "generated"],
    "mypy --strict": ["mypy", "--strict", "generated"],
    "ruff check E,F,W,B,UP at 88": [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--line-length", "88", "generated"),
    ],
    "ruff check E,F,W,B,UP at 100": [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--line-length", "100", "generated"),
    ],
    "ruff format at 100": [
        *("ruff", "format", "--isolated", "--check", "--line-length", "100", "generated"),
    ],
}


#: A line that ends in a bracket a magic trailing comma can hold (codegen/layout.py's held):
#: a call's, a def's or a class's parentheses, a dict's or a set's brace, a list's bracket
#: (not a subscript's, nor parentheses that only group).
_HOLDABLE = re.compile(r"(?:[A-Za-z0-9_)\]]\(|\{|(?:^|[^A-Za-z0-9_)\]])\[)$")


def joined_at_100(paths: list[str], cwd: Path) -> list[str]:
    """The code lines ruff's formatter at 100 columns would join (its diff's removed lines) that
    end in a bracket a magic trailing comma holds: none, where every such bracket has one.
    What it still joins at 100 (a condition's or an assigned string's parentheses, a ``+``
    chain, a subscript's one item) is written where no comma can hold it."""
    argv = ["ruff", "format", "--isolated", "--diff", "--line-length", "100", *paths]
    done = subprocess.run([sys.executable, "-m", *argv], cwd=cwd, capture_output=True, text=True)
    assert done.returncode in (0, 1), done.stderr
    return [
        line
        for line in done.stdout.split("\n")
        if line.startswith("-")
        and not line.startswith("---")
        and not line[1:].lstrip().startswith("#")
        and _HOLDABLE.search(line)
    ]


def test_ruff_at_100_joins_no_bracket_a_comma_holds() -> None:
    """The contracts' modules are laid out at 88 columns; ruff's formatter at 100 keeps every
    split call, def, class and display of theirs (about 200 places joined without the
    commas)."""
    if importlib.util.find_spec("ruff") is None:
        pytest.fail("ruff is not installed: pip install -e '.[test]'")
    assert joined_at_100(["generated"], ROOT) == []


@pytest.mark.parametrize("argv", GENERATED_CHECKS.values(), ids=GENERATED_CHECKS.keys())
def test_the_generated_folder_passes_a_users_checks(argv: list[str]) -> None:
    test_the_generator_and_the_tests_pass(argv)


@pytest.mark.parametrize("argv", CHECKS.values(), ids=CHECKS.keys())
def test_the_generator_and_the_tests_pass(argv: list[str]) -> None:
    if importlib.util.find_spec(argv[0]) is None:
        pytest.fail(f"{argv[0]} is not installed: pip install -e '.[test]'")
    if argv[0] == "mypy":
        argv = [
            *argv,
            "--cache-dir",
            str(user_cache("toolshape-test-mypy", "TOOLSHAPE_TEST_MYPY_CACHE")),
        ]
    done = subprocess.run(
        [sys.executable, "-m", *argv], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
