"""The reference evaluation of the numeric bounds and ``multipleOf`` (contract stage).

Part of the oracle of the generated tests: ``contract/reference.py`` calls :func:`refused`
on every number it meets. Value, bounds and step are compared exactly as the contract writes
them in decimal, as ``multipleOf`` reads them, where a float would round (1e23 is 10**23,
0.1 is 1/10). Plain on purpose, and written apart from the generated checks (``checks.py``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from fractions import Fraction
from typing import Any


def refused(schema: dict[str, Any], value: float) -> Iterator[str]:
    """The family's keywords of ``schema`` that refuse the number ``value``."""
    exact = _decimal(value)
    if "minimum" in schema and exact < _decimal(schema["minimum"]):
        yield "minimum"
    if "maximum" in schema and exact > _decimal(schema["maximum"]):
        yield "maximum"
    if "exclusiveMinimum" in schema and exact <= _decimal(schema["exclusiveMinimum"]):
        yield "exclusiveMinimum"
    if "exclusiveMaximum" in schema and exact >= _decimal(schema["exclusiveMaximum"]):
        yield "exclusiveMaximum"
    if "multipleOf" in schema:
        quotient = exact / _decimal(schema["multipleOf"])
        if quotient.denominator != 1:
            yield "multipleOf"


@functools.lru_cache(maxsize=4096, typed=True)  # typed: 2**70 == 2.0**70, but not as written
def _decimal(number: float) -> Fraction:
    """The number as written in decimal (shortest repr), exactly. Remembered: a schema's bounds
    are read again for every number checked against them, and reading a float's repr into a
    Fraction is most of checking a number."""
    return Fraction(number) if isinstance(number, int) else Fraction(repr(float(number)))
