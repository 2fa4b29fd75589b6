"""Hostile arguments (issue 5): the committed corpus ``tests/corpus/arguments.json``.

The failures models really produce, each with its precise outcome and a feedback phrase
that helps the next attempt.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hostile_arguments_support import BY_TOOL, run_parse, run_validate

CORPUS = Path(__file__).resolve().parent / "corpus" / "arguments.json"
CORPUS_DATA = json.loads(CORPUS.read_text(encoding="utf-8"))
CORPUS_CASES = CORPUS_DATA["cases"]


def test_the_corpus_covers_the_failure_modes_of_issue_5() -> None:
    names = " | ".join(c["name"] for c in CORPUS_CASES).lower()
    for mode in [
        "empty",
        "whitespace",
        "double-encoded",
        "cut off",
        "invalid escape",
        "raw line break",
        "raw tab",
        "null for an optional",
        "invented key",
        "number sent as a string",
        "wrong case",
        "top-level array",
        "trailing comma",
        "single-quoted",
        "python true",
        "python none",
        "comment",
        "code fence",
        "concatenated",
    ]:
        assert mode in names, f"the corpus has no case for {mode!r}"
    assert {c["tool"] for c in CORPUS_CASES} >= {"get_weather", "transfer_funds"}
    for base_tool, base in CORPUS_DATA["bases"].items():
        assert BY_TOOL[base_tool].validate(base).ok


@pytest.mark.parametrize(
    "case", CORPUS_CASES, ids=[f"{c['tool']}: {c['name']}" for c in CORPUS_CASES]
)
def test_corpus(case: dict[str, Any]) -> None:
    module = BY_TOOL[case["tool"]]
    if "text" in case:
        result, (feedback, _, _) = run_parse(module, case["text"])
    else:
        result, (feedback, _, _) = run_validate(module, case["args"])
    got = {(e.path, e.code) for e in result.errors}
    expected = {tuple(e) for e in case["errors"]}
    assert (result.status, got) == (case["status"], expected), feedback
    if "text" in case and result.status != "parse_error":
        # Nothing is coerced or repaired: the value is exactly what the text says.
        assert result.value == json.loads(case["text"])
    missing = []
    for want in case["feedback"]:
        options = [want] if isinstance(want, str) else want
        if not any(option in feedback for option in options):
            missing.append(" or ".join(repr(o) for o in options))
    assert not missing, f"feedback() lacks {'; '.join(missing)}:\n{feedback}"


def test_feedback_reads_well() -> None:
    """Parse messages are built from json's own; they must not stutter ("starting at at line 1")."""
    stutters = []
    for case in CORPUS_CASES:
        if "text" not in case:
            continue
        feedback = BY_TOOL[case["tool"]].parse(case["text"]).feedback()
        if re.search(r"\b(\w+) \1\b", feedback):
            stutters.append(f"{case['name']}: {feedback}")
    assert not stutters, "\n".join(stutters)
