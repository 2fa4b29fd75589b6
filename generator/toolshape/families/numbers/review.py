"""How ``toolshape diff`` decides and samples a change of the numeric bounds and
``multipleOf`` (review stage).

A change of the bounds is decided exactly: ``review/decisions.py`` compares the ranges
:func:`number_range` gives before and after (a closed integer range where only integers
pass: ``minimum: 1`` and ``exclusiveMinimum: 0`` admit the same integers). A changed
``multipleOf`` is decided only when it is added or removed (``ADDED_OR_REMOVED``); any other
change is left to the witness search, which ``review/samples.py`` feeds with
:func:`numbers_at_bounds`.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ...schema import vocabulary
from ...schema.values import is_number

#: The bounds, decided by intervals (together they make one range).
BOUNDS = vocabulary.bounds(limits="value")
#: The family's keywords whose change is decided only when the keyword comes or goes (a step
#: changed from 2 to 3 is sampled): adding one cannot widen, removing one cannot narrow.
ADDED_OR_REMOVED = ("multipleOf",)

#: An integer or real range: (low, low open, high, high open); None is unbounded.
Range = tuple[Fraction | None, bool, Fraction | None, bool]


def number_range(node: dict[str, Any], integers: bool) -> Range | None:
    """The numbers a node's bounds admit, as a closed integer range when only integers pass
    (None: a bound that is not a finite number, which nothing decides)."""
    low: Fraction | None = None
    high: Fraction | None = None
    low_open = high_open = False
    for keyword in BOUNDS:
        if keyword not in node:
            continue
        value = node[keyword]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if isinstance(value, float) and not math.isfinite(value):
            return None
        row = vocabulary.keyword(keyword)
        bound, is_open = Fraction(value), row.exclusive
        if row.bound == "lower":
            if low is None or bound > low or (bound == low and is_open):
                low, low_open = bound, is_open
        elif high is None or bound < high or (bound == high and is_open):
            high, high_open = bound, is_open
    if not integers:
        return (low, low_open, high, high_open)
    first = None if low is None else (math.floor(low) + 1 if low_open else math.ceil(low))
    last = None if high is None else (math.ceil(high) - 1 if high_open else math.floor(high))
    return (
        None if first is None else Fraction(first),
        False,
        None if last is None else Fraction(last),
        False,
    )


def numbers_at_bounds(dicts: list[dict[str, Any]], numbers: list[Any]) -> list[Any]:
    """Numbers at and around each bound, and multiples (and halves) of each multipleOf
    (``numbers``: known numbers, moved half a step off)."""
    found: list[Any] = []
    for schema in dicts:
        step = schema.get("multipleOf") if is_number(schema.get("multipleOf")) else None
        for keyword in BOUNDS:
            bound = schema.get(keyword)
            if is_number(bound):
                for delta in (0, -1, 1, -0.5, 0.5, *((-step, step) if step else ())):
                    found.append(_number(bound + delta))
        if step:
            found.extend(_number(v) for v in (step, 2 * step, step / 2, 1.5 * step))
            found.extend(_number(v + step / 2) for v in numbers[:3])
    return found


def _number(value: float) -> float:
    """An integral float below 2**53 as the int it equals (the way JSON shows it)."""
    return (
        int(value)
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53
        else value
    )
