"""ECMA-262 pattern translation and the catastrophic-backtracking lint."""

from __future__ import annotations

import re

import pytest

from toolshape.ecma import PatternError, backtracking_risk, translate_pattern


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        (r"^\d$", "٣", False),  # Python's \d also takes Arabic-Indic digits; ECMA-262's only 0-9
        (r"^\d$", "7", True),
        (r"^\w+$", "é", False),
        (r"^abc$", "abc\n", False),  # $ only at the very end
        (r"^abc$", "abc", True),
        (r"^\s$", "\ufeff", True),  # ECMA-262 whitespace includes the BOM
        (r"^\s$", "\x1c", False),  # Python's str.isspace() includes it; ECMA-262 does not
        (r"^a.c$", "a\u2028c", False),  # '.' stops at every line terminator
        (r"^(?<y>\d{2})-\k<y>$", "12-12", True),
        (r"^\cJ$", "\n", True),
    ],
)
def test_translation_keeps_the_ecma_meaning(pattern: str, text: str, matches: bool) -> None:
    assert (re.search(translate_pattern(pattern), text) is not None) is matches


@pytest.mark.parametrize("pattern", [r"^\p{Letter}+$", r"[\S]", "[^]", "a\\"])
def test_untranslatable_patterns_are_refused(pattern: str) -> None:
    with pytest.raises(PatternError):
        translate_pattern(pattern)


@pytest.mark.parametrize(
    ("pattern", "risky"),
    [
        ("(a+)+", True),
        ("^([a-z]+\\.)*com$", True),
        ("(a|ab)*c", True),
        ("(x*)*", True),
        (r"^\d+$", False),
        ("(ab){2,5}", False),
        (r"^[^@\s]+@[^@\s]+\.[^@\s]+$", False),
    ],
)
def test_backtracking_risk(pattern: str, risky: bool) -> None:
    assert (backtracking_risk(pattern) is not None) is risky
