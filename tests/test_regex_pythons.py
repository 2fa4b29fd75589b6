"""Every translated pattern compiles alike on every supported CPython (3.9-3.13).

``^[0-9]++$`` once generated on 3.11 and then broke ``import`` of the generated package on 3.9 and
3.10: the translation must only use syntax all of them share. One subprocess per interpreter
compiles the whole corpus with warnings as errors (a FutureWarning today is an error tomorrow) and
checks each pattern's verdict on sample strings against this interpreter's.
"""

from __future__ import annotations

import glob
import json
import re
import subprocess
from typing import Any

import pytest
import yaml
from support import ROOT
from test_regex_ambiguity import CODEQL_EXPONENTIAL, CODEQL_NOT_EXPONENTIAL, SAFE
from toolshape.regex import PatternError, translate

TRICKY = [
    r"^(?<year>\d{4})-(?<month>\d{2})-\k<month>$",
    r"[\d-z]",
    r"[&&]|[~~]|[||]|[--]",
    r"a{",
    r"a]",
    r"x{2,}?y",
    r"(?<=ab)c(?<!x)",
    r"\u{1F600}+",
    r"\uD83D\uDE00",
    r"[\u0000-\u001f\u007f]",
    r"[\b]\cJ\x41\0",
    r"^\s*$|\S",
    r"(a)\1(?:0)",
    r"\/\-\.\$",
    r"[\^\]\[\\]",
    r"^(?=.*[A-Z])(?=.*\d)(?!.*\s).{8,64}$",
    r"a{0}b{1000}",
    r"(?:)|()",
    r"[#]#",
]

SCRIPT = """
import json, re, sys, warnings
warnings.simplefilter("error")
out = []
for source, samples in json.load(sys.stdin):
    try:
        compiled = re.compile(source)
    except Exception as exc:
        out.append([source, "error: " + repr(exc)])
        continue
    out.append([source, [compiled.search(s) is not None for s in samples]])
print(json.dumps(out))
"""

SAMPLES = ["", "a", "abc", "2024-01-01", "a\n", "A1b2C3d4", "\U0001f600", "x_y-z", " \t", "C123456"]


def contract_patterns() -> list[str]:
    """Every pattern and patternProperties key of the example contracts."""
    found: list[str] = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            for key, value in node.items():
                if key == "pattern" and isinstance(value, str):
                    found.append(value)
                if key == "patternProperties" and isinstance(value, dict):
                    found.extend(k for k in value if isinstance(k, str))
                walk(value)
        elif isinstance(node, list):
            for item in node:
                walk(item)

    for path in sorted((ROOT / "contracts").rglob("*.yaml")):
        walk(yaml.safe_load(path.read_text(encoding="utf-8")))
    return found


def corpus() -> list[tuple[str, list[bool]]]:
    patterns = contract_patterns() + TRICKY + SAFE + CODEQL_EXPONENTIAL + CODEQL_NOT_EXPONENTIAL
    out = []
    for pattern in dict.fromkeys(patterns):
        try:
            source = translate(pattern)
        except PatternError:
            continue
        compiled = re.compile(source)
        out.append((source, [compiled.search(s) is not None for s in SAMPLES]))
    return out


def test_the_corpus_holds_the_contract_patterns() -> None:
    assert len(contract_patterns()) >= 10
    assert len(corpus()) >= 90


def _interpreter(minor: int) -> str | None:
    found = sorted(glob.glob(f"/root/.pyenv/versions/3.{minor}.*/bin/python"))
    return found[-1] if found else None


@pytest.mark.parametrize("minor", [9, 10, 11, 12, 13])
def test_translations_compile_alike_on_every_supported_python(minor: int) -> None:
    python = _interpreter(minor)
    if python is None:
        pytest.skip(f"no CPython 3.{minor} under /root/.pyenv/versions")
    entries = corpus()
    payload = json.dumps([[source, SAMPLES] for source, _ in entries])
    result = subprocess.run(
        [python, "-c", SCRIPT],
        input=payload,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    verdicts = dict(json.loads(result.stdout))
    different = {source: verdicts[source] for source, here in entries if verdicts[source] != here}
    assert not different, f"CPython 3.{minor} disagrees: {different}"


def test_possessive_syntax_never_reaches_the_translation() -> None:
    with pytest.raises(PatternError):
        translate("^[0-9]++$")


GENERATOR_SCRIPT = """
import json, sys
from toolshape.regex import PatternError, backtracking_problem, near_misses, strings
out = []
for pattern in json.load(sys.stdin):
    try:
        found = strings([pattern], count=3)
        missed = near_misses(pattern, count=3)
        out.append([list(found.found), found.complete, list(missed.found), missed.complete,
                    backtracking_problem(pattern, 100)])
    except PatternError as exc:
        out.append(str(exc))
print(json.dumps(out))
"""


def _answers(patterns: list[str]) -> list[Any]:
    from toolshape.regex import backtracking_problem, near_misses, strings

    out: list[Any] = []
    for pattern in patterns:
        try:
            found = strings([pattern], count=3)
            missed = near_misses(pattern, count=3)
            out.append(
                [
                    list(found.found),
                    found.complete,
                    list(missed.found),
                    missed.complete,
                    backtracking_problem(pattern, 100),
                ]
            )
        except PatternError as exc:
            out.append(str(exc))
    return out


@pytest.mark.parametrize(("minor", "seed"), [(10, "1"), (12, "2"), (13, "3")])
def test_witnesses_and_lint_are_the_same_on_every_generator_python(minor: int, seed: str) -> None:
    """Same answers on 3.10-3.13 and under any string hash seed (set iteration never reaches output)."""
    python = _interpreter(minor)
    if python is None:
        pytest.skip(f"no CPython 3.{minor} under /root/.pyenv/versions")
    patterns = list(dict.fromkeys(contract_patterns() + TRICKY + SAFE[:8] + CODEQL_EXPONENTIAL[:3]))
    env = {"PYTHONPATH": str(ROOT / "generator"), "PYTHONHASHSEED": seed, "PATH": "/usr/bin:/bin"}
    result = subprocess.run(
        [python, "-c", GENERATOR_SCRIPT],
        input=json.dumps(patterns),
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == json.loads(json.dumps(_answers(patterns)))
