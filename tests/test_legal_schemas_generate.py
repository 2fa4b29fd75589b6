"""Legal JSON Schema that the contract check only warns of generates exactly what JSON Schema
means: the generated module accepts and refuses what ``jsonschema``'s 2020-12 validator does,
on a class of values of every JSON type, and the derived test cases still agree with the
reference evaluator.

What each schema here says (the warnings' text and place are in ``tests/warning_contracts/``):

- a keyword with no effect without another (``then``/``else`` without ``if``,
  ``minContains``/``maxContains`` without ``contains``) generates nothing;
- an unknown ``format`` that is no near miss of a known one is an annotation: nothing
  checks it (a near miss, ``emial``, stays an error with a did-you-mean).
"""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from support import build_module, verdicts_unlike_jsonschema
from toolshape.codegen import cases
from toolshape.contract import checker, source
from toolshape.contract.errors import ContractError
from toolshape.project import examples

#: Scalars of every JSON type, strings of a known format and not.
SCALARS: list[Any] = [None, True, False, 0, 1, 1.0, -2, 2.5, "", "a", "1.2.3", "2024-05-01", "x@y"]
#: Arrays of up to four items drawn from an integer and a string, and a nested one.
ARRAYS: list[Any] = [
    list(items) for n in range(5) for items in itertools.product([1, "a"], repeat=n)
] + [[[1]], [{"a": 1}]]
#: Every value above, and objects holding some of them.
VALUES: list[Any] = [*SCALARS, *ARRAYS, {}, {"a": 1}, {"v": [1, 1]}]


def contract_with(schema: Any) -> dict[str, Any]:
    """The parameters of a contract whose one optional argument ``v`` has ``schema``."""
    return {"type": "object", "properties": {"v": schema}}


def checked(parameters: Any) -> checker.Contract:
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    return checker.check(source.load(json.dumps(document).encode("utf-8"), "t.yaml"))


def assert_generates_what_jsonschema_means(parameters: Any) -> None:
    """The module agrees with jsonschema on ``{"v": value}`` for every value of VALUES, and
    its derived cases agree with the reference evaluator (as ``generate`` checks them)."""
    module = build_module(parameters)
    tried = [{"v": value} for value in VALUES]
    assert not verdicts_unlike_jsonschema(module, parameters, tried)
    contract = checked(parameters)
    examples.check_derived(contract, module, cases.derive(contract).cases)


NO_EFFECT = [
    {"then": {"type": "string"}},
    {"else": {"type": "integer"}},
    {"then": False, "else": False},
    {"type": "array", "minContains": 2},
    {"type": "array", "maxContains": 0},
    {"minContains": 3, "maxContains": 1},
    {"type": "array", "items": {"type": "integer"}, "minContains": 5, "maxContains": 0},
]


@pytest.mark.parametrize("schema", NO_EFFECT, ids=json.dumps)
def test_a_keyword_with_no_effect_is_warned_of_and_generates_nothing(schema: Any) -> None:
    parameters = contract_with(schema)
    warned = [w.message for w in checked(parameters).warnings]
    assert any("has no effect without" in m and "nothing is generated" in m for m in warned)
    assert_generates_what_jsonschema_means(parameters)
    # Nothing generated for it: the module refuses and accepts what it does without it.
    ignored = {k: v for k, v in schema.items() if k not in ("then", "else")}
    ignored = {k: v for k, v in ignored.items() if "contains" in schema or "Contains" not in k}
    bare = build_module(contract_with(ignored))
    module = build_module(parameters)
    for value in VALUES:
        got, alone = module.validate({"v": value}), bare.validate({"v": value})
        assert [(e.path, e.code) for e in got.errors] == [(e.path, e.code) for e in alone.errors]


@pytest.mark.parametrize(
    ("name", "typo", "meant"),
    [
        ("semver", "emial", "email"),
        ("unknown", "date_time", "date-time"),
        ("x-color", "UUID", "uuid"),
        ("int32", "ipv-4", "ipv4"),
        ("float", "hostnme", "hostname"),
    ],
)
def test_an_unknown_format_is_an_annotation_and_a_near_miss_an_error(
    name: str, typo: str, meant: str
) -> None:
    """An unknown name is warned of and checked by nothing; a near miss of a known name is
    surely a typo: an error with a did-you-mean, as before."""
    parameters = contract_with({"type": "string", "format": name, "maxLength": 3})
    warned = [w.message for w in checked(parameters).warnings]
    assert any(f"format '{name}' is not one toolshape knows" in m for m in warned), warned
    assert_generates_what_jsonschema_means(parameters)
    module = build_module(parameters)
    assert module.validate({"v": "abc"}).ok
    assert [e.code for e in module.validate({"v": "abcd"}).errors] == ["maxLength"]
    with pytest.raises(ContractError, match=f"did you mean '{meant}'"):
        checked(contract_with({"type": "string", "format": typo}))


def test_a_format_that_is_not_a_name_stays_an_error() -> None:
    with pytest.raises(ContractError, match="'format' must be a format name"):
        checked(contract_with({"type": "string", "format": 3}))
