"""``literal`` of an int: the int itself wherever it stands, and short enough for a line where
it is the exact value of a float (``1e300`` is ``10**300``) or a step beside one.

A contract may write a bound or a member as ``1e300``; where values are ints, the module
compares with, and the tests send, the int of that decimal, 301 digits long as digits (E501
in a user's ruff). Written near a power of ten instead, it is one operand in any expression
(``x % (15 * 10**299)``, ``-(10**300)``) and black and ruff's formatter leave it as it is.
"""

from __future__ import annotations

import random
from decimal import Decimal

import black
import pytest
from toolshape.codegen import literals


def _beside_floats() -> list[int]:
    """The decimals of floats from 1e15 to 1e308 (what a bound written ``1.5e300`` is) and
    the ints a step beside them (what a case sends to cross it), of both signs."""
    rng = random.Random(11)
    found = []
    for _ in range(600):
        number = rng.uniform(1, 10) * 10 ** rng.randint(15, 307)
        exact = int(Decimal(repr(number)))
        for step in (0, 1, -1, 2, -(10**6)):
            found += [exact + step, -(exact + step)]
    return found


#: Ints of every size: small, at the threshold, beside floats, and with no round number near.
BESIDE_FLOATS = _beside_floats()
_OTHERS = random.Random(12)
INTS = [0, 1, -1, 10**21 - 1, 10**21, 10**21 + 1, -(10**21), 2**200, -(2**200)]
INTS += BESIDE_FLOATS + [_OTHERS.getrandbits(_OTHERS.randint(70, 1100)) for _ in range(600)]


def test_an_int_literal_is_the_int_wherever_it_stands() -> None:
    for value in INTS:
        text = literals.literal_text(value)
        assert type(eval(text)) is int and eval(text) == value, (value, text)
        # One operand: the operators that bind tighter than its own + and * around it.
        assert not value or eval(f"7 % {text}") == 7 % value, text
        assert eval(f"-{text}") == -value, text
        assert eval(f"{text} // 3") == value // 3, text
        assert eval(f"[{text}][0] ** 1") == value, text


def test_an_int_literal_is_never_longer_than_its_digits() -> None:
    for value in INTS:
        assert len(literals.literal_text(value)) <= len(str(value)), value


def test_the_decimal_of_a_float_and_the_ints_beside_it_fit_a_line() -> None:
    for value in BESIDE_FLOATS:
        text = literals.literal_text(value)
        assert len(text) <= 40 or len(str(value)) <= 40, text


FORMS = {
    "10**300": 10**300,
    "-(10**300)": -(10**300),
    "(15 * 10**299)": 15 * 10**299,
    "-(15 * 10**299)": -(15 * 10**299),
    "(10**300 - 1)": 10**300 - 1,
    "-(10**300 + 1)": -(10**300) - 1,
}


@pytest.mark.parametrize("value", FORMS.values(), ids=FORMS.keys())
def test_an_int_literal_is_as_the_formatters_write_it(value: int) -> None:
    text = literals.literal_text(value)
    assert text in FORMS
    source = f"x = {{'a': [{text}, 1]}}\nif a > {text}:\n    y = b % {text}\n".replace("'", '"')
    assert black.format_str(source, mode=black.Mode()) == source
