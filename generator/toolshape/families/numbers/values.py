"""Numbers that pass the numeric bounds and ``multipleOf``, and numbers just outside them
(witness stage).

``witness/values.py`` asks :func:`candidates` for the numbers of one alternative (every
schema that must hold, and the schemas that must not), and :func:`constrains` whether a
schema says anything of numbers; ``codegen/cases.py`` asks :func:`bound_variants` for the
derived cases at each bound of a number and :func:`integers_at_bounds` for integers the
bounds suggest. Every value is still confirmed by the reference evaluator by the caller.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import Any

from ...families.values.rules import TYPE
from ...schema import vocabulary
from ...schema.values import is_integer, is_number

#: The family's keywords (any of them makes a number worth trying first).
KEYWORDS = vocabulary.applying_to("number")
#: The bounds of each side, in the order they give anchors (values follow it).
LOWER = vocabulary.bounds("lower", limits="value")
UPPER = vocabulary.bounds("upper", limits="value")

#: A bound of the range: its number, and whether the number itself is outside.
Bound = tuple[Fraction, bool]


def constrains(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` holds any of the family's keywords."""
    return any(k in schema for k in KEYWORDS)


def candidates(
    flat: list[dict[str, Any]], kind: str, negated: Sequence[Any] = ()
) -> Iterator[float]:
    """Numbers on the grid of every multipleOf (integers for ``integer``), inside every bound;
    also just past the bounds of the schemas that must not hold (the other oneOf branches)."""
    step = _grid(flat, kind)
    low, high = _tightest(flat)
    anchors: list[Fraction] = [Fraction(0), Fraction(1), Fraction(10)]
    if low is not None:
        anchors += [low[0], low[0] + 1, low[0] + Fraction(1, 2)]
    if high is not None:
        anchors += [high[0], high[0] - 1, high[0] - Fraction(1, 2)]
    if low is not None and high is not None:
        anchors.append((low[0] + high[0]) / 2)
    for schema in negated:
        for keyword in (LOWER + UPPER) if isinstance(schema, dict) else ():
            if is_number(schema.get(keyword)):
                bound = _fraction(schema[keyword])
                anchors += [bound - 1, bound + 1, bound - Fraction(1, 2), bound + Fraction(1, 2)]
    for anchor in anchors:
        for value in _snapped(anchor, step, low, high):
            yield _as_json(value, kind)


def _grid(flat: list[dict[str, Any]], kind: str) -> Fraction | None:
    """The step every value must be a multiple of (1 for integers; None: any number)."""
    step = Fraction(1) if kind == "integer" else None
    for schema in flat:
        m: Any = schema.get("multipleOf")
        if is_number(m) and m > 0:
            f = _fraction(m)
            step = f if step is None else _lcm(step, f)
    return step


def _tightest(flat: list[dict[str, Any]]) -> tuple[Bound | None, Bound | None]:
    """The tightest lower and upper bound of all the schemas (None: that side is open)."""
    lows: list[Bound] = []
    highs: list[Bound] = []
    for schema in flat:
        for keyword in LOWER + UPPER:
            if is_number(schema.get(keyword)):
                into = lows if keyword in LOWER else highs
                into.append((_fraction(schema[keyword]), vocabulary.keyword(keyword).exclusive))
    low = max(lows, key=lambda b: (b[0], b[1])) if lows else None
    high = min(highs, key=lambda b: (b[0], not b[1])) if highs else None
    return low, high


def _snapped(
    anchor: Fraction,
    step: Fraction | None,
    low: tuple[Fraction, bool] | None,
    high: tuple[Fraction, bool] | None,
) -> list[Fraction]:
    """The anchor, moved onto the grid and inside the bounds when it can be."""
    values = [anchor]
    if step is not None:
        values = [math.ceil(anchor / step) * step, math.floor(anchor / step) * step]
    out = []
    for value in values:
        if low is not None and (value < low[0] or (low[1] and value == low[0])):
            value = low[0] if step is None else (math.floor(low[0] / step) + 1) * step
            if step is None and low[1]:
                value = low[0] + (
                    Fraction(1, 2) if high is None else min(Fraction(1, 2), (high[0] - low[0]) / 2)
                )
        if high is not None and (value > high[0] or (high[1] and value == high[0])):
            continue
        out.append(value)
    return out


def _lcm(a: Fraction, b: Fraction) -> Fraction:
    """The least common multiple of two positive fractions."""
    numerator = a.numerator * b.numerator // math.gcd(a.numerator, b.numerator)
    return Fraction(numerator, math.gcd(a.denominator, b.denominator))


def _as_json(value: Fraction, kind: str) -> float:
    if value.denominator == 1 and (kind == "integer" or abs(value) < 2**53):
        return int(value)
    return float(value)


def _fraction(number: Any) -> Fraction:
    return Fraction(number) if isinstance(number, int) else Fraction(repr(float(number)))


# -- the derived cases ----------------------------------------------------------------


def bound_variants(schema: dict[str, Any], value: Any) -> Iterator[tuple[str, Any]]:
    """The derived cases of a number ``value`` (an accepted one) at each bound of ``schema``
    and off its step: each case's name and its value (the reference decides its outcome)."""
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return
    for keyword, step in (("minimum", -1), ("maximum", 1)):
        if keyword in schema:
            bound = schema[keyword]
            yield f"{keyword} {bound} exactly", bound
            yield f"{keyword} {bound} crossed", bound + step
    for keyword, step in (("exclusiveMinimum", 1), ("exclusiveMaximum", -1)):
        if keyword in schema:
            bound = schema[keyword]
            yield f"{keyword} {bound} itself", bound
            yield f"{keyword} {bound} just inside", bound + step * _unit(schema)
    if "multipleOf" in schema:
        m = schema["multipleOf"]
        yield (
            f"multipleOf {m}: off by half",
            value + m / 2 if not is_integer(m) or m % 2 else value + m // 2,
        )
        yield f"multipleOf {m}: off by one", value + 1


def _unit(schema: dict[str, Any]) -> float:
    """How far inside an exclusive bound the nearest accepted number may be."""
    if "multipleOf" in schema:
        step: float = schema["multipleOf"]  # a number above 0: the contract check saw to it
        return step
    return 1 if schema.get(TYPE) in ("integer", ["integer"]) else 0.5


def integers_at_bounds(schema: dict[str, Any]) -> list[Any]:
    """The integers the bounds suggest (an inclusive bound, one inside an exclusive one);
    None where a bound is missing or not an integer."""
    return [schema.get(k) for k in ("minimum", "maximum")] + [
        schema["exclusiveMinimum"] + 1 if is_integer(schema.get("exclusiveMinimum")) else None,
        schema["exclusiveMaximum"] - 1 if is_integer(schema.get("exclusiveMaximum")) else None,
    ]
