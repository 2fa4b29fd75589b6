"""``literal`` of a plain string quotes repr()'s one token directly instead of searching the
text for tokens: the same literal, for every kind of string (quotes of both kinds,
backslashes, "e+", line breaks, non-ASCII), and one black leaves as it is."""

from __future__ import annotations

import itertools
import random

import black
import pytest
from toolshape.codegen import literals

PIECES = ["a", "'", '"', "\\", "e+", "1e+5", "\n", "\u2028", "é", "\x00", " ", "''", '""', "\\'"]


def _searched(text: str) -> str:
    """The general path: repr(), then every string token in it quoted as black writes it."""
    written = literals._literal(text)
    return literals._TOKEN.sub(literals._as_black_writes, written)


def _strings() -> list[str]:
    found = ["", *PIECES]
    found += ["".join(pair) for pair in itertools.product(PIECES, repeat=2)]
    rng = random.Random(7)
    found += ["".join(rng.choices(PIECES, k=rng.randint(3, 9))) for _ in range(400)]
    return found


def test_a_string_literal_is_the_one_the_token_search_writes() -> None:
    for text in _strings():
        assert str(literals.literal(text)) == _searched(text), repr(text)


@pytest.mark.parametrize("text", ["it's", 'say "hi"', "both ' and \"", 'a\\\'b"c"', "1e+5"])
def test_a_string_literal_is_as_black_writes_it(text: str) -> None:
    line = f"x = {literals.literal(text)}\n"
    assert black.format_str(line, mode=black.Mode()) == line
    assert eval(str(literals.literal(text))) == text
