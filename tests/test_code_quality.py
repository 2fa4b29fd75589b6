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

import pytest
from support import ROOT, user_cache

CHECKS = {
    "ruff format": ["ruff", "format", "--check", "generator", "tests"],
    "ruff check": ["ruff", "check", "generator", "tests"],
    "mypy --strict": ["mypy"],  # files and strictness from [tool.mypy]
}


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
