"""The model's checks of a number: its bounds (minimum, maximum and their exclusive forms)
and multipleOf (codegen stage).

``codegen/building/nodes.py`` calls :func:`number_checks` for the number branch of a node;
each :class:`~toolshape.codegen.model_parts.Check` is printed by its macro in
``templates/checks.py.j2`` (the test names the macro: ``below``, ``not_multiple``, ...).
Both sides compare as the contract writes the number, where a float would not: from 2**53 up
a float is not the decimal it is written as, and a step such as 0.1 is no float's exact value.
"""

from __future__ import annotations

from typing import Any

from ...codegen.building.context import BuildContext, show
from ...codegen.literals import literal
from ...codegen.model_parts import Check, CheckTest

#: Each bound keyword: the test its check makes, and how its message says the bound.
BOUNDS: dict[str, tuple[CheckTest, str]] = {
    "minimum": ("below", "at least"),
    "exclusiveMinimum": ("not_above", "greater than"),
    "maximum": ("above", "at most"),
    "exclusiveMaximum": ("not_below", "less than"),
}


def number_checks(context: BuildContext, schema: dict[str, Any], label: str) -> list[Check]:
    """The checks of the family's keywords in ``schema``, for a number called ``label``."""
    checks = []
    for bound_keyword, (test, words) in BOUNDS.items():
        if bound_keyword in schema:
            bound = schema[bound_keyword]
            message = context.say(f"{label} must be {words} {show(bound)}")
            # From 2**53 up a float is not the decimal it is written as (1e23 is 10**23,
            # the float 99999999999999991611392): both sides are compared as written,
            # the integer the handler gets (_exact); below, the verdicts cannot differ.
            exact = abs(bound) >= 2**53
            limit = decimal_fraction(bound)[0] if exact and isinstance(bound, float) else bound
            checks.append(Check(test, literal(bound_keyword), message, literal(limit), exact=exact))
    if "multipleOf" in schema:
        checks.append(_multiple_check(context, schema["multipleOf"], label))
    return checks


def _multiple_check(context: BuildContext, step: Any, label: str) -> Check:
    message = context.say(f"{label} must be a multiple of {show(step)}")
    # Exact in decimal: 1e23 is 10**23 (int(1e23) is not), and a float value is the
    # decimal its repr denotes; `value % step` is used for int values only.
    numerator, denominator = decimal_fraction(step) if isinstance(step, float) else (int(step), 1)
    if denominator == 1:
        return Check("not_multiple_int", literal("multipleOf"), message, literal(numerator))
    return Check(
        "not_multiple", literal("multipleOf"), message, literal(numerator), literal(denominator)
    )


def decimal_fraction(number: float) -> tuple[int, int]:
    """The decimal value a float is written as (its shortest repr), as numerator/denominator."""
    mantissa, _, exponent = repr(float(number)).lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    numerator = int(whole + fraction)
    scale = int(exponent or 0) - len(fraction)
    if scale >= 0:
        return numerator * 10**scale, 1
    return numerator, 10**-scale
