"""The ECMA-262 pattern core: parsing and refusals, translation, witness strings."""

from __future__ import annotations

import re

import pytest
from toolshape.regex import PatternError, Search, near_misses, strings, translate, witness

PYTHON_ONLY = {
    r"^a\Z": "`$`",
    r"\Aa": "`^`",
    r"\a": "\\x07",
    "^a{,2}$": "{0,2}",
    r"\N{DIGIT ONE}": "\\uHHHH",
    "(?P<n>a)": "(?<name>...)",
    "(?P<n>a)(?P=n)": "(?<name>...)",
    "(?<n>a)(?P=n)": "\\k<name>",
    "(?i:abc)": "[Aa]",
    "(?i)abc": "[Aa]",
    "a(?#note)": "remove the comment",
    "^[0-9]++$": "drop the '+'",
    "^a*+$": "drop the '+'",
    "^a?+$": "drop the '+'",
    "^a{2}+$": "drop the '+'",
    "(?>ab|a)c": "(?=(...))\\1",
}


@pytest.mark.parametrize("pattern", sorted(PYTHON_ONLY))
def test_python_only_syntax_is_refused_with_the_ecma_spelling(pattern: str) -> None:
    with pytest.raises(PatternError) as caught:
        translate(pattern)
    assert PYTHON_ONLY[pattern] in str(caught.value)


@pytest.mark.parametrize(
    ("pattern", "text", "matches"),
    [
        (r"^[\d-z]$", "-", True),  # Annex B: a class escape beside '-' makes the '-' literal
        (r"^[\d-z]$", "5", True),
        (r"^[\d-z]$", "y", False),
        (r"^a{$", "a{", True),  # a brace that starts no quantifier is a literal
        (r"^a]$", "a]", True),
        (r"^(a)\1(?:0)$", "aa0", True),  # \1 then the digit 0, not group 10
        (r"^\u{1F600}$", "\U0001f600", True),
        (r"^\uD83D\uDE00$", "\U0001f600", True),  # a surrogate pair spells one code point
        (r"^[\b]$", "\b", True),  # \b in a class is the backspace
        (r"\bfoo\b", "a foo.", True),
        (r"\bfoo\b", "afoo", False),
        (r"^\x41\u0042\cC$", "AB\x03", True),
        (r"^[&&~~||]$", "&", True),  # doubled characters Python reserves for set operations
        (r"^\/\-\.$", "/-.", True),
        # '_' escaped is '_', as ECMA-262 reads it without the u flag (and every dialect).
        (r"^\_$", "_", True),
        (r"^[\w\_-]+$", "a_-", True),
        (r"^[a\_]$", "\\", False),
        (r"^\_$", "\\_", False),
        (r"^(?<=a)b|c$", "c", True),
    ],
)
def test_translation_keeps_the_ecma_meaning(pattern: str, text: str, matches: bool) -> None:
    assert (re.search(translate(pattern), text) is not None) is matches


@pytest.mark.parametrize(
    "pattern",
    [
        r"\2(a)",
        r"\k<x>(?<y>a)",
        "(a",
        "a)",
        "*a",
        "a**",
        "a{2,1}",
        "[z-a]",
        r"\e",
        r"\q",
        "(?<=a+)b",
        "a{1001}",
        r"[\B]",
        r"\01",
        r"(a)\10",
    ],
)
def test_invalid_or_untranslatable_patterns_are_refused(pattern: str) -> None:
    with pytest.raises(PatternError):
        translate(pattern)


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"\d{3}-\d{4}", "000-0000"),
        (r"^C[0-9]{6}$", "C000000"),
        (r"^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$", "a/a"),
        (r"\S", "a"),
        (r"^(?!admin$)[a-z]+$", "a"),
        (r"^[^@\s]+@[^@\s]+\.[^@\s]+$", "a@a.a"),
        (r"^(\d{2})-\1$", "00-00"),
        (r"^(?<y>[a-z]{2})=\k<y>$", "aa=aa"),
        (r"^(ab|cd){2}$", "abab"),
        (r"^\+[1-9][0-9]{6,14}$", "+1000000"),
        (r"\bfoo\b", "foo"),
        (r"^[^a-z]$", "0"),
        (r"^\s$", " "),
    ],
)
def test_the_first_witness_is_the_shortest_most_readable(pattern: str, expected: str) -> None:
    search = strings([pattern], count=3)
    assert search.found[0] == expected
    assert search.complete
    assert len(set(search.found)) == 3
    assert all(re.search(translate(pattern), text) for text in search.found)


def test_witnesses_respect_length_bounds_and_intersections() -> None:
    search = strings([r"^[a-z]+$", r"\d|x"], min_length=3, max_length=3, count=2)
    assert search.found == ("aax", "abx")
    assert strings([r"^[a-z]+$"], excluded=[r"^[a-c]"], min_length=2).found == ("da",)
    assert strings(["^a{2,5}$"], min_length=4, count=5) == strings(
        ["^a{2,5}$"], min_length=4, count=5
    )
    assert strings(["^a{2,5}$"], min_length=4, count=5).found == ("aaaa", "aaaaa")


def test_an_empty_language_is_reported_complete_and_empty() -> None:
    assert strings(["a^"]).found == ()
    assert strings(["a^"]).complete
    assert strings(["^a+$"], excluded=["a"]).complete
    assert strings(["^a+$"], excluded=["a"]).found == ()
    assert strings(["^[a-z]{3}$"], max_length=2) == strings(["^[a-z]{3}$"], max_length=2)
    assert strings(["^[a-z]{3}$"], max_length=2).found == ()
    assert strings(["^[a-z]{3}$"], max_length=2).complete


def test_a_finite_language_is_listed_in_full() -> None:
    search = strings([r"^\d$"], count=20)
    assert search.found == tuple("0123456789") and search.complete


def test_a_search_that_runs_out_of_steps_says_so() -> None:
    search = strings(["^[a-z]{40}$"], excluded=["a", "b", "c"], count=1, steps=50)
    assert not search.complete


def test_leading_lookaheads_are_searched_exactly() -> None:
    search = strings([r"^(?=.*[A-Z])(?=.*\d).{8,}$"])
    assert search.found == ("aaaaaa0A",) and search.complete
    assert strings([r"^(?!a)[a-z]$"], count=30).found == tuple("bcdefghijklmnopqrstuvwxyz")
    # excluding ^(?!admin$)[a-z]+$ leaves exactly the reserved word
    assert strings(["^[a-z]+$"], excluded=[r"^(?!admin$)[a-z]+$"], count=3) == Search(
        ("admin",), True
    )


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        (r"^C[0-9]{6}$", ("000000", "C00000", "a000000")),
        (r"\d{3}-\d{4}", ("0000000", "000-000", "00-0000")),
        (r"^$", ("a", "0", "A")),
        (r"\S", ("", " ", "\n")),
    ],
)
def test_near_misses_are_one_edit_from_a_match(pattern: str, expected: tuple[str, ...]) -> None:
    search = near_misses(pattern, count=3)
    assert search == Search(expected, True)
    assert not any(re.search(translate(pattern), text) for text in search.found)


def test_near_misses_keep_the_length_bounds() -> None:
    search = near_misses(r"^C[0-9]{6}$", min_length=7, max_length=7, count=3)
    assert search.found == ("a000000", "0000000", "A000000")
    assert near_misses("a*", count=2) == Search(
        (), True
    )  # every string holds a (possibly empty) match


def test_a_near_miss_search_is_made_once_per_question(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every property of a contract (and every contract of a run) with the same pattern and
    bounds asks the same question: the edits are searched once, and each argument is part of
    the question (an answer is never one asked for other bounds, another count or budget)."""
    edited: list[str] = []
    real = witness._edits

    def counted(seed: str) -> set[str]:
        edited.append(seed)
        return real(seed)

    monkeypatch.setattr(witness, "_edits", counted)
    pattern = r"^Q[0-9]{3}-[a-z]{2}$"  # used by this test alone: nothing remembered yet
    default = witness.DEFAULT_STEPS
    # (min_length, max_length, count, steps): each differs from the first in one argument.
    questions: list[tuple[int, int | None, int, int]] = [
        (0, None, 1, default),
        (7, None, 1, default),
        (0, 7, 1, default),
        (0, None, 3, default),
        (0, None, 1, 20_000),
        (7, 7, 2, default),
    ]

    def ask(low: int, high: int | None, count: int, steps: int) -> Search:
        return near_misses(pattern, min_length=low, max_length=high, count=count, steps=steps)

    first = [ask(*question) for question in questions]
    searched = len(edited)
    assert searched >= len(questions)  # each question searched the edits of its seeds
    assert [ask(*question) for question in questions] == first
    assert len(edited) == searched  # asked again: nothing searched
    for question, answer in zip(questions, first, strict=True):
        # The search itself, not remembered: the remembered answer is its answer.
        assert answer == witness._near_misses.__wrapped__(pattern, *question), question


def test_a_near_miss_of_a_reserved_word_pattern_is_the_reserved_word() -> None:
    assert near_misses(r"^(?!admin$)[a-z]+$", count=1) == Search(("admin",), True)
    assert near_misses(r"^(?!admin$|root$)[a-z]+$", count=2).found == ("root", "admin")


def test_long_witnesses_are_found_directly() -> None:
    # lengths below the shortest way to acceptance are skipped, not searched one by one
    assert [len(t) for t in strings([r"^\d{1000}$"], count=2).found] == [1000, 1000]
    assert strings([".{300,}"]).found == ("a" * 300,)
    search = near_misses(r"^\d{1000}$", count=3)
    assert search.complete and all(not re.search(translate(r"^\d{1000}$"), t) for t in search.found)
    assert len(search.found) == 3


def test_a_bounded_language_is_complete_without_trying_longer_strings() -> None:
    assert strings(["^(aa)+$"], min_length=5, max_length=5) == Search((), True)
    assert strings(["^(ab|cd)$"], count=9) == Search(("ab", "cd"), True)


def test_an_unanchored_long_repeat_is_witnessed() -> None:
    search = strings(["a{0}b{1000}"], count=2)
    assert search.complete and search.found[0] == "b" * 1000 and len(search.found) == 2
