"""What the contract check says of the numeric bounds and ``multipleOf`` (contract stage).

Each value must be a number (an exclusive bound is the bound itself since draft 6, never
draft 4's boolean); ``multipleOf`` is above 0. Bounds that together leave no number (no
integer, for ``type: integer``; no multiple of ``multipleOf``) are legal JSON Schema that no
number passes: a warning (:func:`warnings`). ``contract/checker.py`` calls :func:`check` and
:func:`warnings` on every schema and reports what they yield.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from ...contract.wording import with_article, yaml_text
from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ...schema.values import is_number, json_type

#: The longest integer a bound (or step) may be, in digits.
MAX_INT_DIGITS = 300
#: The bound keywords, then ``multipleOf``: the order their value problems are reported in.
KEYWORDS = (*vocabulary.taking("number"), *vocabulary.taking("positive number"))
#: The keywords closing each side of the range (inclusive first).
LOWER = vocabulary.bounds("lower", limits="value")
UPPER = vocabulary.bounds("upper", limits="value")
#: The inclusive bounds, beside which an equal bound of the other side still leaves a number.
INCLUSIVE = vocabulary.names(lambda k: k.limits == "value" and not k.exclusive)
STEP = "multipleOf"
#: The same keywords, to tell at once that a schema uses none.
_KEYWORD_SET = frozenset(KEYWORDS)

#: What a warning of bounds that leave no number says of the place.
NO_NUMBER = "as written, no number can pass here"

#: One problem: where (a schema path from the document root) and what.
Problem = tuple[SchemaPath, str]
#: A bound as written: its keyword and its number.
Bound = tuple[str, Any]


def check(
    schema: dict[str, Any], path: SchemaPath, types: tuple[str, ...] | None
) -> Iterator[Problem]:
    """The problems of the family's keywords in one schema: values that are no bound."""
    yield from _values(schema, path)


def warnings(
    schema: dict[str, Any], path: SchemaPath, types: tuple[str, ...] | None
) -> Iterator[Problem]:
    """Bounds that leave no number (no integer, no multiple) that could pass (``types``: what
    its ``type`` allows, None when it has none): legal JSON Schema with an exact meaning,
    which the generated checks keep (they refuse every number there); a warning. Only
    bounds that are numbers are read (:func:`check` reports the others)."""
    if _KEYWORD_SET.isdisjoint(schema):
        return  # (most schemas: asked of every one, and reading the bounds took a third of it)
    if any(p for p in _values(schema, path)):
        return
    low = [(k, schema[k]) for k in LOWER if is_number(schema.get(k))]
    high = [(k, schema[k]) for k in UPPER if is_number(schema.get(k))]
    found = list(_empty_ranges(path, types, low, high))
    yield from found
    step = schema.get(STEP)
    if low and high and not found and is_number(step) and step > 0:
        yield from _no_multiple_between(path, types, low, high, step)


def _values(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    for keyword in KEYWORDS:
        if keyword not in schema:
            continue
        value = schema[keyword]
        if isinstance(value, bool) and vocabulary.keyword(keyword).exclusive:
            bound = _inclusive_of(keyword)
            yield (
                path + (keyword,),
                f"'{keyword}' must be a number: in JSON Schema 2020-12 it is the bound itself "
                f"(write '{keyword}: 0' instead of '{bound}: 0' with '{keyword}: {str(value).lower()}')",
            )
        elif not is_number(value):
            yield (
                path + (keyword,),
                f"'{keyword}' must be a number, not {with_article(json_type(value))} ({yaml_text(value)})",
            )
        elif isinstance(value, int) and len(str(abs(value))) > MAX_INT_DIGITS:
            yield path + (keyword,), f"'{keyword}' has more than {MAX_INT_DIGITS} digits"
        elif keyword == STEP and value <= 0:
            yield path + (keyword,), f"'{STEP}' must be greater than 0"


def _inclusive_of(exclusive: str) -> str:
    """The inclusive bound of the side ``exclusive`` closes (exclusiveMinimum: minimum)."""
    side = vocabulary.keyword(exclusive).bound
    return next(k for k in INCLUSIVE if vocabulary.keyword(k).bound == side)


def _empty_ranges(
    path: SchemaPath, types: tuple[str, ...] | None, low: list[Bound], high: list[Bound]
) -> Iterator[Problem]:
    """Each pair of bounds that leaves no number; else, for integers, all bounds together
    when they leave no integer."""
    empty = False
    for lo_key, lo in low:
        for hi_key, hi in high:
            inclusive = lo_key in INCLUSIVE and hi_key in INCLUSIVE
            if lo > hi or (lo == hi and not inclusive):
                empty = True
                yield (
                    path + (lo_key,),
                    f"'{lo_key}' ({lo}) and '{hi_key}' ({hi}) leave no number that could pass: "
                    f"{NO_NUMBER}",
                )
    if types == ("integer",) and low and high and not empty:
        smallest = max(_ceil_above(k, v) for k, v in low)
        largest = min(_floor_below(k, v) for k, v in high)
        if smallest > largest:
            shown = " and ".join(f"'{k}' ({v})" for k, v in (*low, *high))
            yield path + (low[0][0],), f"{shown} leave no integer that could pass: {NO_NUMBER}"


def _no_multiple_between(
    path: SchemaPath,
    types: tuple[str, ...] | None,
    low: list[Bound],
    high: list[Bound],
    step: float,
) -> Iterator[Problem]:
    """Bounds that leave no multiple of ``multipleOf`` (of an integer one, for integers) between them."""
    unit = _fraction(step)
    integers_only = types is not None and "number" not in types
    if integers_only:
        unit = Fraction(unit.numerator)  # the integer multiples of p/q are the multiples of p
    first = max(
        math.floor(_fraction(v) / unit) + 1
        if vocabulary.keyword(k).exclusive
        else math.ceil(_fraction(v) / unit)
        for k, v in low
    )
    last = min(
        math.ceil(_fraction(v) / unit) - 1
        if vocabulary.keyword(k).exclusive
        else math.floor(_fraction(v) / unit)
        for k, v in high
    )
    if first > last:
        kind = "integer multiple" if integers_only else "multiple"
        shown = " and ".join(f"'{k}' ({v})" for k, v in (*low, *high))
        yield (
            path + (STEP,),
            f"{shown} leave no {kind} of '{STEP}' ({step}) that could pass: {NO_NUMBER}",
        )


def _fraction(number: float) -> Fraction:
    """A JSON number exactly as written (0.1 is 1/10, not the nearest binary float)."""
    return Fraction(repr(number)) if isinstance(number, float) else Fraction(number)


def _ceil_above(keyword: str, bound: float) -> int:
    return math.floor(bound) + 1 if vocabulary.keyword(keyword).exclusive else math.ceil(bound)


def _floor_below(keyword: str, bound: float) -> int:
    return math.ceil(bound) - 1 if vocabulary.keyword(keyword).exclusive else math.floor(bound)
