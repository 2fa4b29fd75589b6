"""Numbers at their edges: exact ``multipleOf`` and extreme bounds (issue 13, "Numbers").

The README promises ``multipleOf`` exact in decimal for every JSON number: a float value is
the decimal its repr denotes (``3e23`` is 3 * 10**23, a multiple of ``1e23``;
``9007199254740992.0`` is not a multiple of ``9007199254740993``). The generated check and
the reference evaluator are compared with a ``decimal``/``fractions`` oracle written here.

Extreme numbers in a contract (``minimum: 1e308, maximum: 1.5e308``, ``multipleOf: 5e-324``,
300-digit integers) either work, with the generated module and the reference evaluator
agreeing on extreme values, or are contract errors at ``path:line:col``; no exception escapes.
"""

from __future__ import annotations

import json
import math
import re
import types
from decimal import Decimal
from fractions import Fraction
from pathlib import PurePosixPath
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support import CONTEXT
from toolshape.codegen import model, render
from toolshape.contract import checker, reference, source
from toolshape.contract.errors import ContractError
from toolshape.project import pipeline, runtime


def raw_contract(parameters: dict[str, Any]) -> bytes:
    return json.dumps({"name": "t", "description": "d", "parameters": parameters}).encode()


def module_of(parameters: dict[str, Any], name: str) -> types.ModuleType:
    built = model.build(
        checker.check(source.load(raw_contract(parameters), "t.json")), name, "0" * 64
    )
    return runtime.load_module(
        render.render(CONTEXT, "module.py.j2", f"{name}.py", model=built), name
    )


def exact(number: float) -> Fraction:
    """The oracle's reading of a JSON number: an int as is, a float as the decimal of its repr."""
    return Fraction(number) if isinstance(number, int) else Fraction(Decimal(repr(number)))


def is_multiple(value: float, step: float) -> bool:
    return (exact(value) / exact(step)).denominator == 1


#: Whole steps, as JSON integers; some past 2**53, where a float cannot hold every integer.
INT_STEPS = [1, 2, 3, 7, 10, 2**53, 2**53 + 1, 2**64 + 1, 10**30, 10**299 + 7]
#: Steps written as floats: whole ones (1e23 is 10**23 as written, not int(1e23)) and decimals.
FLOAT_STEPS = [4.0, 1e16, 1e23, 1e300, 1.7976931348623157e308, 0.01, 0.1, 0.3, 2.5, 1e-7, 5e-324]
STEPS = INT_STEPS + FLOAT_STEPS
PARAMETERS = {
    "type": "object",
    "properties": {f"n{i}": {"type": "number", "multipleOf": step} for i, step in enumerate(STEPS)}
    | {f"i{i}": {"type": "integer", "multipleOf": step} for i, step in enumerate(INT_STEPS)},
}


@pytest.fixture(scope="module")
def steps_module() -> types.ModuleType:
    return module_of(PARAMETERS, "steps")


def finite(value: float) -> bool:
    return math.isfinite(value)


def multiples() -> st.SearchStrategy[int | float]:
    """Values that are multiples of one of the steps, as ints and as floats (when finite)."""

    def make(k: int, step: float, as_float: bool) -> int | float:
        product = Fraction(k) * exact(step)
        if product.denominator == 1 and not as_float:
            return int(product)
        value = float(Decimal(product.numerator) / Decimal(product.denominator))
        return value if finite(value) else k

    return st.builds(make, st.integers(-(10**6), 10**6), st.sampled_from(STEPS), st.booleans())


VALUES = st.one_of(
    st.integers(),
    st.integers(-(2**1100), 2**1100),
    st.floats(allow_nan=False, allow_infinity=False),
    st.floats(min_value=2.0**52, max_value=2.0**80),
    multiples(),
)


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(value=VALUES)
@example(value=9007199254740992.0)
@example(value=3e23)
@example(value=10**308)
@example(value=1e308)
@example(value=2.0**53 + 2)
@example(value=-0.0)
def test_multiple_of_is_exact_for_every_json_number(
    steps_module: types.ModuleType, value: float
) -> None:
    for i, step in enumerate(STEPS):
        expected = is_multiple(value, step)
        found = {(e.path, e.code) for e in steps_module.validate({f"n{i}": value}).errors}
        assert (("/n" + str(i), "multipleOf") not in found) == expected, (value, step, found)
        assert (reference.evaluate(PARAMETERS, {f"n{i}": value}) == set()) == expected, (
            value,
            step,
        )
    if isinstance(value, int) or value.is_integer():
        for i, step in enumerate(INT_STEPS):
            found = {(e.path, e.code) for e in steps_module.validate({f"i{i}": value}).errors}
            assert (found == set()) == is_multiple(value, step), (value, step, found)


@pytest.mark.parametrize(
    ("value", "step", "multiple"),
    [
        (9007199254740992.0, 9007199254740993, False),  # float arithmetic rounds the step to 2**53
        (9007199254740993, 9007199254740993, True),
        (
            3e23,
            1e23,
            True,
        ),  # 3e23's repr is 3 * 10**23; the binary float is 299999999999999991611392
        (299999999999999991611392, 1e23, False),
        (10**308, 1e308, True),
        (19.99, 0.01, True),
        (1e16 + 2, 4.0, False),  # 10000000000000002.0 is not a multiple of 4
    ],
    ids=[
        "2**53 as a float, step 2**53+1",
        "2**53+1",
        "3e23, step 1e23",
        "int(3e23), step 1e23",
        "10**308, step 1e308",
        "19.99, step 0.01",
        "1e16+2, step 4.0",
    ],
)
def test_the_issue_examples(value: float, step: float, multiple: bool) -> None:
    assert is_multiple(value, step) is multiple
    parameters = {"type": "object", "properties": {"x": {"type": "number", "multipleOf": step}}}
    module = module_of(parameters, "one_step")
    assert module.validate({"x": value}).ok is multiple
    assert (reference.evaluate(parameters, {"x": value}) == set()) is multiple


# -- extreme numbers in contracts ---------------------------------------------------------------

EXTREMES = [
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    1e-300,
    0.1,
    1,
    -1,
    0,
    1e308,
    -1e308,
    1.5e308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    10**299,
    -(10**299),
    2**1023,
]
EXTREME_VALUES = EXTREMES + [
    10**400,
    -(10**400),
    1.0,
    1e307,
    2**1024,
    12345.678,
    10**308,
    3 * 10**308,
]
NUMBER_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")
LOCATION = re.compile(r"^t\.json:\d+:\d+: error: ")


@settings(max_examples=150, deadline=None, derandomize=True)
@given(
    kind=st.sampled_from(["number", "integer"]),
    keywords=st.dictionaries(
        st.sampled_from(NUMBER_KEYWORDS), st.sampled_from(EXTREMES), min_size=1, max_size=3
    ),
)
@example(kind="number", keywords={"minimum": 1e308, "maximum": 1.5e308})
@example(kind="number", keywords={"multipleOf": 5e-324})
@example(
    kind="number",
    keywords={"multipleOf": 5e-324, "minimum": -1.7976931348623157e308, "maximum": 1.5e308},
)
@example(kind="integer", keywords={"multipleOf": 1e308, "minimum": 1e308})
def test_extreme_numbers_work_or_are_contract_errors(
    kind: str, keywords: dict[str, int | float]
) -> None:
    parameters = {"type": "object", "properties": {"x": {"type": kind, **keywords}}}
    try:
        module = module_of(parameters, "extreme")
    except ContractError as exc:
        assert all(LOCATION.match(line) for line in str(exc).splitlines()), str(exc)
        return
    for value in EXTREME_VALUES:
        found = {(e.path, e.code) for e in module.validate({"x": value}).errors}
        assert found == reference.evaluate(parameters, {"x": value}), (value, found)


def test_extreme_bounds_generate_with_their_tests() -> None:
    raw = raw_contract(
        {
            "type": "object",
            "properties": {"x": {"type": "number", "minimum": 1e308, "maximum": 1.5e308}},
        }
    )
    pipeline.generate(raw, "t.json", PurePosixPath("t.yaml"), CONTEXT)
