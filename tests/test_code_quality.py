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
    # E501 is the one rule of these families that reads the line length: at 88, so at 100.
    "ruff check E,F,W,B,UP at 88": [
        *("ruff", "check", "--isolated", "--target-version", "py39"),
        *("--select", "E,F,W,B,UP", "--line-length", "88", "generated"),
    ],
    "ruff format at 88": [
        *("ruff", "format", "--isolated", "--check", "--line-length", "88", "generated"),
    ],
    "ruff format at 100": [
        *("ruff", "format", "--isolated", "--check", "--line-length", "100", "generated"),
    ],
    "black": ["black", "--check", "generated"],
    "mypy --strict": ["mypy", "--strict", "generated"],
}


def assert_generated_check_passes(argv: list[str], folder: Path) -> None:
    """One of GENERATED_CHECKS (``argv``) passes on ``folder``, a generated package that is not
    the committed one (its word ``generated`` stands for the folder)."""
    argv = [str(folder) if word == "generated" else word for word in argv]
    if importlib.util.find_spec(argv[0]) is None:
        pytest.fail(f"{argv[0]} is not installed: pip install -e '.[test]'")
    done = subprocess.run(
        [sys.executable, "-m", *argv], cwd=folder.parent, capture_output=True, text=True
    )
    assert done.returncode == 0, (done.stdout + done.stderr)[-5000:]


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
