"""toolshape.families.formats.values: valid values and near misses for each asserted format, within length bounds.

The verdicts come from the reference evaluator (which defines the formats); the lengths at
which a format has valid values at all are written here from each grammar, independently
of the builders, so a bound the builders cannot meet is told apart from one they miss.
"""

from __future__ import annotations

import itertools

import pytest
from toolshape.contract.checker import FORMATS
from toolshape.contract.reference import errors_of
from toolshape.families.formats import values as formats

#: The lengths a valid value of each format can have, from its grammar (README, "Semantics").
UNBOUNDED = 10**9
ACHIEVABLE: dict[str, list[tuple[int, int]]] = {
    "date-time": [(20, 20), (22, UNBOUNDED)],  # date T time; a fraction of seconds takes 2 or more
    "date": [(10, 10)],
    "time": [(9, 9), (11, UNBOUNDED)],  # hh:mm:ssZ, or with .f+ (hh:mm:ss+hh:mm is 14)
    "duration": [(3, UNBOUNDED)],  # P1D, then more digits
    "email": [(3, UNBOUNDED)],  # a@b, then a longer local part
    "idn-email": [(3, UNBOUNDED)],  # as email
    "hostname": [(1, 253)],
    "idn-hostname": [(1, 253)],  # 253 octets as A-labels, and no shorter in Unicode
    "ipv4": [(7, 15)],
    "ipv6": [(2, 45)],  # :: up to six full groups and a dotted IPv4 tail
    "uri": [(2, UNBOUNDED)],  # a:
    "uri-reference": [(0, UNBOUNDED)],  # the empty reference (the document itself)
    "iri": [(2, UNBOUNDED)],  # a:
    "iri-reference": [(0, UNBOUNDED)],
    "uri-template": [(0, UNBOUNDED)],  # the empty template
    "uuid": [(36, 36)],
    "json-pointer": [(0, UNBOUNDED)],  # the empty pointer (the whole document)
    "relative-json-pointer": [(1, UNBOUNDED)],  # 0
    "regex": [(0, UNBOUNDED)],  # the empty pattern
}
#: Formats every string of one length is valid in, so no near miss of that length exists.
ALL_VALID_AT: dict[str, int] = {
    "uri-reference": 0,
    "iri-reference": 0,
    "uri-template": 0,
    "json-pointer": 0,
    "regex": 0,
}

MINIMA = [0, 1, 2, 3, 5, 9, 10, 11, 15, 16, 20, 21, 36, 37, 45, 46, 64, 100, 253, 254, 300]
MAXIMA: list[int | None] = [
    None,
    0,
    1,
    2,
    3,
    8,
    9,
    10,
    12,
    15,
    19,
    20,
    24,
    35,
    36,
    40,
    45,
    63,
    64,
    120,
    253,
    260,
]
GRID = [
    (low, high) for low, high in itertools.product(MINIMA, MAXIMA) if high is None or low <= high
]


def _verdict(format: str, value: str) -> set[tuple[str, str]]:
    """The reference's errors for the value under the format alone (no length bounds)."""
    schema = {"type": "string", "format": format}
    return errors_of(schema, value, "", root=schema)


def _possible(format: str, low: int, high: int | None) -> bool:
    top = UNBOUNDED if high is None else high
    return any(max(low, a) <= min(top, b) for a, b in ACHIEVABLE[format])


def _within(value: str, low: int, high: int | None) -> bool:
    return low <= len(value) and (high is None or len(value) <= high)


@pytest.mark.parametrize("format", FORMATS)
def test_every_format_has_a_valid_and_a_near_miss_without_bounds(format: str) -> None:
    good, bad = formats.valid(format), formats.invalid(format)
    assert len(good) == 1 and len(bad) == 1
    assert _verdict(format, good[0]) == set()
    assert _verdict(format, bad[0]) == {("", "format")}
    # A near miss: the same length as the valid value, and at most three characters differ (one field: 192 -> 256).
    assert len(bad[0]) == len(good[0])
    assert sum(a != b for a, b in zip(good[0], bad[0], strict=False)) <= 3


def test_every_format_is_listed() -> None:
    assert tuple(ACHIEVABLE) == FORMATS


@pytest.mark.parametrize("format", FORMATS)
def test_valid_values_pass_and_fit_the_bounds(format: str) -> None:
    for low, high in GRID:
        found = formats.valid(format, low, high, count=3)
        assert len(set(found)) == len(found), (low, high, found)
        for value in found:
            assert _verdict(format, value) == set(), (low, high, value)
            assert _within(value, low, high), (low, high, value)
        # Values exactly when the grammar has a length within the bounds.
        assert bool(found) == _possible(format, low, high), (low, high, found)


@pytest.mark.parametrize("format", FORMATS)
def test_invalid_values_fail_only_for_the_format_and_fit_the_bounds(format: str) -> None:
    for low, high in GRID:
        found = formats.invalid(format, low, high, count=3)
        # Some string of every length is not of the format ("" among them), save where all are.
        assert bool(found) == (high is None or high != ALL_VALID_AT.get(format)), (low, high)
        assert len(set(found)) == len(found), (low, high, found)
        for value in found:
            assert _verdict(format, value) == {("", "format")}, (low, high, value)
            assert _within(value, low, high), (low, high, value)


@pytest.mark.parametrize("format", FORMATS)
def test_count_gives_distinct_values_where_the_bounds_leave_room(format: str) -> None:
    assert len(formats.valid(format, count=5)) == 5
    assert len(formats.invalid(format, count=5)) == 5


@pytest.mark.parametrize(
    "format",
    [
        "hostname",
        "email",
        "uri",
        "time",
        "duration",
        "date-time",
        "uri-reference",
        "iri",
        "iri-reference",
        "uri-template",
        "json-pointer",
        "relative-json-pointer",
        "regex",
        "idn-email",
    ],
)
def test_padding_reaches_a_long_minimum(format: str) -> None:
    """Formats whose grammar pads (labels, local parts, paths, fractions, digits) meet minLength 200."""
    (value,) = formats.valid(format, 200, 210)
    assert 200 <= len(value) <= 210 and _verdict(format, value) == set()


def test_impossible_bounds_give_nothing() -> None:
    assert formats.valid("uuid", 0, 35) == [] and formats.valid("uuid", 37) == []
    assert formats.valid("date", 11) == [] and formats.valid("time", 10, 10) == []
    assert formats.valid("ipv4", 16) == [] and formats.valid("hostname", 254) == []
    assert formats.valid("date", 5, 3) == [] and formats.invalid("date", 5, 3) == []


def test_the_same_call_gives_the_same_values() -> None:
    for format in FORMATS:
        assert formats.valid(format, 12, 40, count=4) == formats.valid(format, 12, 40, count=4)
        assert formats.invalid(format, 12, 40, count=4) == formats.invalid(format, 12, 40, count=4)


def test_an_unknown_format_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown format 'color'"):
        formats.valid("color")


@pytest.mark.parametrize("format", FORMATS)
def test_every_exact_length_the_grammar_allows_is_met(format: str) -> None:
    """minLength == maxLength == n, for every n up to 260: a value exactly when the grammar has one."""
    for length in range(261):
        found = formats.valid(format, length, length)
        assert bool(found) == _possible(format, length, length), (length, found)
        assert all(len(value) == length and _verdict(format, value) == set() for value in found)
        misses = formats.invalid(format, length, length)
        if ALL_VALID_AT.get(format) == length:
            assert misses == [], misses
            continue
        (miss,) = misses
        assert len(miss) == length and _verdict(format, miss) == {("", "format")}
