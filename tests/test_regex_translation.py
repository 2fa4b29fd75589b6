"""ECMA-262 pattern translation and the catastrophic-backtracking lint (toolshape.regex)."""

from __future__ import annotations

import re

import pytest
from toolshape.regex import PatternError, backtracking_problem, translate


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
        # \S inside a class: ECMA-262's non-whitespace, spelled as ranges (Python's \S differs)
        (r"^[\S]$", "\ufeff", False),
        (r"^[\S]$", "\x1c", True),
        (r"^[\S]+$", "a b", False),
        (r"^[\S-]+$", "é-\U0001f600", True),
        (r"^[\s\S]$", "\u2028", True),
        (r"^[^\S]$", "\xa0", True),
        (r"^[^\S]$", "\x85", False),
        # ECMA-262's empty class matches nothing, and [^] any character, newlines too:
        (r"^a[]?b$", "ab", True),
        (r"^[]*$", "", True),
        (r"^[]$", "", False),
        (r"[]", "[]", False),
        (r"^[]a]$", "a]", False),  # [] then 'a]': never matches, as in ECMA-262
        (r"^[^]$", "\n", True),
        (r"^[^]+$", "a\u2028\U0001f600", True),
        (r"^\P{Any}?x$", "x", True),
        (r"^[\P{Any}]$", "a", False),
        (r"^[^\P{Any}]$", "\n", True),
        (r"^[\P{Any}a]$", "a", True),
    ],
)
def test_translation_keeps_the_ecma_meaning(pattern: str, text: str, matches: bool) -> None:
    assert (re.search(translate(pattern), text) is not None) is matches


@pytest.mark.parametrize("pattern", [r"^\p{Script=Greek}+$", "(?<=a+)b", "a\\"])
def test_untranslatable_patterns_are_refused(pattern: str) -> None:
    with pytest.raises(PatternError):
        translate(pattern)


@pytest.mark.parametrize(
    ("pattern", "max_length", "risky"),
    [
        ("(a+)+$", None, True),
        ("(a+)+$", 20, True),  # exponential: no maxLength makes it safe
        ("(a+)+", None, False),  # the first 'a' already matches: the search never backtracks
        ("^([a-z]+\\.)*com$", None, False),  # the '.' ends each repeat: one way to match
        ("(a|ab)*c", None, True),  # tried at every start, each scanning on: quadratic and unbounded
        ("(a|ab)*c", 1000, False),
        ("(x*)*", None, False),  # matches the empty string at the start
        (r"^\d+$", None, False),
        ("(ab){2,5}", None, False),
        (r"^[^@\s]+@[^@\s]+\.[^@\s]+$", None, True),  # which '.' ends the domain: quadratic
        (r"^[^@\s]+@[^@\s]+\.[^@\s]+$", 254, False),
    ],
)
def test_backtracking_problem(pattern: str, max_length: int | None, risky: bool) -> None:
    assert (backtracking_problem(pattern, max_length) is not None) is risky
