"""Property tests of the witness search: for random patterns (tests/regex_strategies.py), every
string returned matches (or misses) by ``re`` and keeps the length bounds, and a search that says
it is complete has really found everything, checked by brute force over a small alphabet."""

from __future__ import annotations

import itertools
import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regex_strategies import patterns
from toolshape.regex import near_misses, strings, translate

#: The brute force's alphabet: the strategy's letters, a digit, and one character no atom names.
ALPHABET = "abc0-"
MAX_BRUTE = 4


def brute(min_length: int, max_length: int) -> list[str]:
    return [
        "".join(chars)
        for n in range(min_length, max_length + 1)
        for chars in itertools.product(ALPHABET, repeat=n)
    ]


def accepts(pattern: str, text: str) -> bool:
    return re.search(translate(pattern), text) is not None


bounds = st.tuples(st.integers(0, 3), st.integers(0, MAX_BRUTE)).map(lambda b: (min(b), max(b)))
SETTINGS = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(
    st.lists(patterns(), min_size=1, max_size=2),
    st.lists(patterns(), max_size=1),
    bounds,
    st.integers(1, 4),
)
def test_strings_are_confirmed_and_complete_means_all(
    positive: list[str], excluded: list[str], bound: tuple[int, int], count: int
) -> None:
    low, high = bound
    search = strings(positive, excluded=excluded, min_length=low, max_length=high, count=count)
    assert len(search.found) <= count
    assert len(set(search.found)) == len(search.found)
    for text in search.found:
        assert low <= len(text) <= high
        assert all(accepts(p, text) for p in positive)
        assert not any(accepts(p, text) for p in excluded)
    if search.complete and len(search.found) < count:
        everything = {
            text
            for text in brute(low, high)
            if all(accepts(p, text) for p in positive)
            and not any(accepts(p, text) for p in excluded)
        }
        assert everything <= set(search.found)


@SETTINGS
@given(patterns(), bounds, st.integers(1, 3))
def test_near_misses_miss_and_complete_means_all(
    pattern: str, bound: tuple[int, int], count: int
) -> None:
    low, high = bound
    search = near_misses(pattern, min_length=low, max_length=high, count=count)
    assert len(set(search.found)) == len(search.found) <= count
    for text in search.found:
        assert low <= len(text) <= high
        assert not accepts(pattern, text)
    if search.complete and len(search.found) < count:
        assert {t for t in brute(low, high) if not accepts(pattern, t)} <= set(search.found)


@SETTINGS
@given(patterns(lookarounds=False, backreferences=False), st.integers(0, 3))
def test_an_unbounded_search_finds_a_string_whenever_one_exists(pattern: str, low: int) -> None:
    search = strings([pattern], min_length=low)
    exists = any(accepts(pattern, t) for t in brute(low, low + 3))
    if exists:
        assert search.found
    if search.complete and not search.found:
        assert not exists


def test_the_search_is_deterministic() -> None:
    first = strings([r"^[a-z0-9]{3}$", r"\d"], excluded=["^0"], count=5)
    assert first == strings([r"^[a-z0-9]{3}$", r"\d"], excluded=["^0"], count=5)
    # the most readable first two characters are "aa"; the digit the second pattern asks for comes last
    assert first.found == ("aa0", "aa1", "aa2", "aa3", "aa4")
