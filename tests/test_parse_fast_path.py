"""parse() decodes with the JSON scanner directly (the generated runtime's ``_strict_json``).

``_strict_json`` replaces ``JSONDecoder.decode`` (its whitespace regexes, its
``raw_decode`` wrapper and its "Extra data" test). That is a speed-up only: for every text, the value
returned or the error raised must be exactly what the strict ``JSONDecoder``
(hooks and all) gives. The runtime is one module that every generated module shares
(``_runtime.py``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generated import _runtime

STRICT = json.JSONDecoder(
    object_pairs_hook=_runtime._object_from_pairs,
    parse_constant=_runtime._refuse_constant,
    parse_float=_runtime._finite_float,
    parse_int=None if _runtime._LIMITS_INTS else _runtime._bounded_int,
)


def outcome(decode: Callable[[str], Any], text: str) -> tuple[Any, ...]:
    try:
        value = decode(text)
    except json.JSONDecodeError as exc:
        return ("JSONDecodeError", exc.msg, exc.pos)
    except _runtime._ParseFailure as exc:
        return ("refused", exc.code, exc.message)
    except (RecursionError, ValueError) as exc:
        return (type(exc).__name__,)
    return (
        "value",
        repr(value),
        [type(v).__name__ for v in (value.values() if type(value) is dict else [])],
    )


def same_as_strict(text: str) -> None:
    if not text or text.isspace():  # _decode answers these itself, before decoding
        return
    assert outcome(_runtime._strict_json, text) == outcome(STRICT.decode, text), text


CASES = [
    '{"city": "Lisbon", "unit": "c"}',
    '{"city": "Lisbon", "city": "Porto"}',  # duplicate key, one object
    '{"a": 1, "a": 1}',
    '{"time": "10:00", "a": 1}',  # a colon in a string: more colons than keys
    '{"time": "10:00", "time": 1}',  # ... and a duplicate
    '{"a:b": 1, "a:b": 2}',
    '{"x": "{", "x": 1}',  # a brace in a string: not the one-object path
    '{"a": [1, 2, {"a": 1, "a": 2}]}',
    '[{"a": 1, "a": 2}]',
    '[{"a": 1, "a": 2}, x]',
    '{"a": 1, "a": 2} x',  # duplicate first, then extra data: the duplicate wins
    '{"a": 1} x',
    '{"a": 1}  \n\t\r',
    '  \n{"a": 1}',
    '\u00a0{"a": 1}',  # not JSON whitespace
    '{"a": 1}\u00a0',
    "{}",
    "{} {}",
    '{"a": }',
    '{"a": 1,}',
    '{"a": 1',
    '{"a": "unterminated',
    '{"a": NaN}',
    '{"a": 1e999}',
    '{"a": 1e999, "a": 2}',
    '{"a": 1, "a": 1e999}',
    '{"a": Infinity, "a": 1}',
    "[1, 2]",
    '"text"',
    "42",
    "nul",
    "x",
    "]",
    '{"a": [1, [2, [3]]], "b": null, "c": true, "d": false, "e": -0.0}',
    '{"\\u0061": 1, "a": 2}',  # the same key, escaped once
    '{"a\\"": 1, "a\\"": 2}',
    '{"a": "\\\\", "b": ":"}',
]


@pytest.mark.parametrize("text", CASES)
def test_strict_json_matches_the_strict_decoder(text: str) -> None:
    same_as_strict(text)


TOKENS = [
    "{", "}", "[", "]", ":", ",", " ", "\n", '"a"', '"b"', '"a"', '":"', '"{"', '"x:y"', "1", "-2.5", "1e999",
    "true", "null", "NaN", '"\\u0061"', '"\\"', "\u00a0", "x",
]  # fmt: skip


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), min_size=1, max_size=16))
def test_strict_json_matches_the_strict_decoder_on_token_soup(tokens: list[str]) -> None:
    same_as_strict("".join(tokens))


@settings(max_examples=1000, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from(["a", "b", "c:d", "e", "{"]), st.sampled_from(['1', '"x"', '"1:2"', "[1]", "null", "{}"])),
             max_size=6),
    st.sampled_from(["", " ", "\n", " x"]),
)  # fmt: skip
def test_strict_json_matches_the_strict_decoder_on_objects_with_repeated_keys(
    pairs: list[Any], after: str
) -> None:
    same_as_strict("{" + ", ".join(f'"{k}": {v}' for k, v in pairs) + "}" + after)
