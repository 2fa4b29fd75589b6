"""The handler gets what was checked (issue 20, class 6).

* An integral float reaches the handler as the integer every check judged: the decimal of
  its shortest repr (``int(Decimal(repr(x)))``). ``1e23`` under ``multipleOf: 1000`` arrives
  as 10**23, never ``int(1e23)`` = 99999999999999991611392; the bounds, ``enum``, ``const``
  and ``uniqueItems`` judge that same decimal, so nothing the handler gets breaks a check.
* An ``enum``/``const`` value arrives as the member the contract writes, wherever JSON
  equality lets the value differ from it in Python (``1.0`` for ``1``, ``[1.0]`` for ``[1]``,
  ``{"a": 1.0}`` for ``{"a": 1}``), but for the member's integral numbers, which arrive as
  ints, as they do where the contract says ``integer``: a member written ``1.0`` arrives as
  ``1`` whether ``1`` or ``1.0`` was sent, under ``integer`` and under ``number`` alike.
* With ``platform="openai"``, a call the contract accepts as sent is accepted unchanged: a
  null the chosen ``anyOf`` branch requires is never removed; the nulls that stand for
  absent keys are removed only when the call as sent is refused.

Each case is put at every position a value can take in a contract (a property, a nested
object's property, array items and ``prefixItems``, ``additionalProperties`` and
``patternProperties`` values, a ``$ref``'d definition, ``allOf``/``anyOf``/``oneOf``
branches, ``then``, ``dependentSchemas``), generated through the pipeline.
"""

from __future__ import annotations

import json
import types
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import CONTEXT
from toolshape.codegen import model, render
from toolshape.contract import checker, source
from toolshape.project import runtime


def module_of(parameters: dict[str, Any], name: str, **fields: Any) -> types.ModuleType:
    """The module generated for a contract of ``parameters`` (and ``fields``: an output)."""
    contract = {"name": "t", "description": "d", "parameters": parameters, **fields}
    raw = json.dumps(contract).encode()
    built = model.build(checker.check(source.load(raw, "t.json")), name, "0" * 64)
    return runtime.load_module(
        render.render(CONTEXT, "module.py.j2", f"{name}.py", model=built), name
    )


def positions(schema: Any) -> dict[str, Any]:
    """A contract holding ``schema`` at every position a value can take."""
    return {
        "type": "object",
        "$defs": {"d": schema},
        "properties": {
            "prop": schema,
            "obj": {"type": "object", "properties": {"p": schema}},
            "items": {"type": "array", "items": schema},
            "prefix": {"type": "array", "prefixItems": [schema]},
            "ref": {"$ref": "#/$defs/d"},
            "all_of": {"allOf": [schema, {}]},
            "any_of": {"anyOf": [{"type": "string"}, schema]},
            "one_of": {"oneOf": [{"type": "string"}, schema]},
            "then": {"if": {"not": {"type": "string"}}, "then": schema},
            "dep": {},
        },
        "patternProperties": {"^pat_": schema},
        "additionalProperties": schema,
        "dependentSchemas": {"dep": {"properties": {"dep": schema}}},
    }


def arguments(value: Any) -> dict[str, Any]:
    """``value`` at every position of ``positions``."""
    return {
        "prop": value,
        "obj": {"p": value},
        "items": [value],
        "prefix": [value],
        "ref": value,
        "all_of": value,
        "any_of": value,
        "one_of": value,
        "then": value,
        "dep": value,
        "pat_x": value,
        "extra": value,
    }


def same(a: Any, b: Any) -> bool:
    """Equal with the same Python types all the way down (1 is not 1.0 here)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return bool(a == b)


class Text(str):
    """A str subclass: equal to a str member as JSON, not the member in Python."""


class Mapping(dict[str, Any]):
    """A dict subclass: likewise."""


BIG = 10**23
#: (schema, sent, delivered): the schema accepts ``sent`` and the handler gets ``delivered``.
ACCEPTED = {
    "multipleOf": ({"type": "integer", "multipleOf": 1000}, 1e23, BIG),
    "integer": ({"type": "integer"}, 1e23, BIG),
    "integer 2**60": ({"type": "integer"}, 2.0**60, int(Decimal(repr(2.0**60)))),
    "minimum as written": ({"type": "integer", "minimum": BIG}, 1e23, BIG),
    "maximum as written": ({"type": "integer", "maximum": BIG}, 1e23, BIG),
    "enum": ({"enum": [1, 2]}, 1.0, 1),
    "typed enum": ({"type": "integer", "enum": [1, 2]}, 2.0, 2),
    "number enum": ({"type": "number", "enum": [1, 2.5]}, 1.0, 1),
    "enum of a big integer": ({"enum": [BIG, "x"]}, 1e23, BIG),
    "enum of a float": ({"enum": [1.5, 2.0]}, 2.5 - 1, 1.5),
    "enum of an integral float, sent as an int": ({"enum": [1.5, 2.0]}, 2, 2),
    "enum of an integral float, sent as it": ({"enum": [1.5, 2.0]}, 2.0, 2),
    "integer enum of a float": ({"type": "integer", "enum": [1.0, 2]}, 1, 1),
    "integer enum of a float, sent as it": ({"type": "integer", "enum": [1.0, 2]}, 1.0, 1),
    "number enum of a float": ({"type": "number", "enum": [1.0, 2.5]}, 1, 1),
    "integer const of a float": ({"type": "integer", "const": 3.0}, 3, 3),
    "integer and const of a float apart": ({"allOf": [{"type": "integer"}, {"const": 3.0}]}, 3, 3),
    "the same, sent as a float": ({"allOf": [{"const": 3.0}, {"type": "integer"}]}, 3.0, 3),
    "const of a big float": ({"const": 1e23}, 10**23, BIG),
    "enum of arrays, a str subclass inside": ({"enum": [["x"], 1]}, [Text("x")], ["x"]),
    "const object, a dict subclass": ({"const": {"a": 1}}, Mapping({"a": 1}), {"a": 1}),
    "nested const of a float": ({"const": {"a": [1.0, 2.5]}}, {"a": [1, 2.5]}, {"a": [1, 2.5]}),
    "const": ({"const": 3}, 3.0, 3),
    "typed const": ({"type": "integer", "const": 3}, 3.0, 3),
    "enum of arrays": ({"enum": [[1, 2], "x"]}, [1.0, 2.0], [1, 2]),
    "enum of objects": ({"enum": [{"a": 1}, None]}, {"a": 1.0}, {"a": 1}),
    "nested const": (
        {"const": {"a": [1, {"b": 2}], "c": True}},
        {"a": [1.0, {"b": 2.0}], "c": True},
        {"a": [1, {"b": 2}], "c": True},
    ),
    "array const": ({"type": "array", "const": [BIG]}, [1e23], [BIG]),
}
#: (schema, sent): refused, since what the handler would get breaks the contract.
REFUSED = {
    "maximum below the decimal": ({"type": "integer", "maximum": int(1e23)}, 1e23),
    "minimum above the float": ({"type": "number", "minimum": BIG + 1}, 1e23),
    "exclusiveMaximum at the decimal": ({"type": "integer", "exclusiveMaximum": BIG}, 1e23),
    "uniqueItems": (
        {"type": "array", "items": {"type": "integer"}, "uniqueItems": True},
        [1e23, BIG],
    ),
    "const of int(1e23)": ({"const": int(1e23)}, 1e23),
}


@pytest.mark.parametrize(("schema", "sent", "delivered"), ACCEPTED.values(), ids=list(ACCEPTED))
def test_the_handler_gets_the_value_every_check_judged(
    schema: dict[str, Any], sent: Any, delivered: Any
) -> None:
    module = module_of(positions(schema), "t")
    result = module.validate(arguments(sent))
    assert result.status == "accept", result.errors
    assert same(result.value, arguments(delivered)), result.value


@pytest.mark.parametrize(("schema", "sent"), REFUSED.values(), ids=list(REFUSED))
def test_a_value_the_handler_would_get_wrong_is_refused(schema: dict[str, Any], sent: Any) -> None:
    module = module_of(positions(schema), "t")
    result = module.validate(arguments(sent))
    assert result.status == "reject"
    paths = {error.path for error in result.errors}
    for where in (
        "/prop",
        "/obj/p",
        "/items/0",
        "/prefix/0",
        "/ref",
        "/all_of",
        "/pat_x",
        "/extra",
    ):
        assert where in paths, (where, result.errors)


@pytest.mark.parametrize(
    "member", [[1, 2], {"a": [1.5, "x"], "b": None}, [], {}], ids=["array", "object", "[]", "{}"]
)
def test_a_member_sent_as_the_member_is_arrives_as_sent(member: Any) -> None:
    # Nothing to convert: the caller's object itself, as for any other accepted value.
    module = module_of(positions({"enum": [member, "x"]}), "t")
    sent = arguments(json.loads(json.dumps(member)))
    result = module.validate(sent)
    assert result.status == "accept", result.errors
    assert result.value is sent


def test_the_members_delivered_are_copies() -> None:
    module = module_of(positions({"enum": [[1, 2]]}), "t")
    first = module.validate(arguments([1.0, 2.0])).value
    first["prop"].append(3)
    again = module.validate(arguments([1.0, 2.0])).value
    assert same(again["prop"], [1, 2])


@pytest.fixture(scope="module")
def integers() -> types.ModuleType:
    return module_of(
        positions({"type": "integer", "multipleOf": 8, "minimum": -(10**299), "maximum": 10**299}),
        "integers",
    )


@settings(deadline=None, max_examples=150)
@given(st.floats(min_value=-1e299, max_value=1e299).filter(lambda x: x.is_integer()))
def test_every_integral_float_arrives_as_the_decimal_of_its_repr(
    integers: types.ModuleType, sent: float
) -> None:
    exact = int(Decimal(repr(sent)))
    result = integers.validate(arguments(sent))
    assert result.status == ("accept" if exact % 8 == 0 else "reject")
    if result.ok:
        assert same(result.value, arguments(exact))


# -- platform="openai" -----------------------------------------------------------------------

#: An object whose key "a" is optional (a null there stands for it left out on OpenAI) in one
#: branch, and a required null in the other.
NULL_IN_A_BRANCH = {
    "anyOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "additionalProperties": False},
        {
            "type": "object",
            "properties": {"a": {"type": "null"}, "b": {"type": "string"}},
            "required": ["a", "b"],
            "additionalProperties": False,
        },
    ]
}


@pytest.fixture(scope="module")
def null_in_a_branch() -> types.ModuleType:
    return module_of(positions(NULL_IN_A_BRANCH), "nulls")


@pytest.mark.parametrize("platform", ["openai", "openai-responses"])
def test_a_null_the_chosen_branch_requires_is_kept(
    null_in_a_branch: types.ModuleType, platform: str
) -> None:
    sent = arguments({"a": None, "b": "x"})
    assert null_in_a_branch.validate(sent).ok  # the contract accepts it as sent
    result = null_in_a_branch.validate(sent, platform=platform)
    assert result.status == "accept", result.errors
    assert result.value is sent and same(result.value, arguments({"a": None, "b": "x"}))


@pytest.mark.parametrize("platform", ["openai", "openai-responses"])
def test_a_null_for_a_key_left_out_is_still_removed(
    null_in_a_branch: types.ModuleType, platform: str
) -> None:
    """The reverse direction: refused as sent, and what the contract means once removed."""
    # Where OpenAI strict mode can put an optional key (not in then, dependentSchemas,
    # additionalProperties or patternProperties schemas, which it does not take).
    sent = {
        "prop": {"a": None},
        "obj": {"p": {"a": None}},
        "items": [{"a": None}],
        "prefix": [{"a": None}],
        "ref": {"a": None},
        "all_of": {"a": None},
        "any_of": {"a": None},
        "one_of": {"a": None},
    }
    assert not null_in_a_branch.validate(sent).ok
    result = null_in_a_branch.validate(sent, platform=platform)
    assert result.status == "accept", result.errors
    expected = {
        "prop": {},
        "obj": {"p": {}},
        "items": [{}],
        "prefix": [{}],
        "ref": {},
        "all_of": {},
        "any_of": {},
        "one_of": {},
    }
    assert same(result.value, expected), result.value


#: The positions OpenAI strict mode can put an optional key at.
STRICT_POSITIONS = ("prop", "obj", "items", "prefix", "ref", "all_of", "any_of", "one_of")


def at_strict_positions(value: Any) -> dict[str, Any]:
    every = arguments(value)
    return {key: every[key] for key in STRICT_POSITIONS}


@pytest.fixture(scope="module")
def null_in_a_branch_beside_an_optional_key() -> types.ModuleType:
    parameters = positions(NULL_IN_A_BRANCH)
    parameters["properties"]["gone"] = {"type": "string"}  # optional: null stands for absent
    return module_of(parameters, "nulls_beside")


@pytest.mark.parametrize("platform", ["openai", "openai-responses"])
def test_a_required_null_is_kept_beside_a_null_for_an_absent_key(
    null_in_a_branch_beside_an_optional_key: types.ModuleType, platform: str
) -> None:
    """Refused as sent (the null for "gone"), yet the null the anyOf branch requires stays."""
    module = null_in_a_branch_beside_an_optional_key
    sent = {**at_strict_positions({"a": None, "b": "x"}), "gone": None}
    assert not module.validate(sent).ok
    result = module.validate(sent, platform=platform)
    assert result.status == "accept", result.errors
    assert same(result.value, at_strict_positions({"a": None, "b": "x"}))


@pytest.mark.parametrize("platform", ["openai", "openai-responses"])
def test_nulls_for_absent_keys_are_all_removed_when_that_is_what_is_meant(
    null_in_a_branch_beside_an_optional_key: types.ModuleType, platform: str
) -> None:
    module = null_in_a_branch_beside_an_optional_key
    sent = {**at_strict_positions({"a": None}), "gone": None}
    result = module.validate(sent, platform=platform)
    assert result.status == "accept", result.errors
    assert same(result.value, at_strict_positions({}))
