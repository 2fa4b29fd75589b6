"""x-sensitive: every value a sensitive schema governs stays out of every output (issue 13).

1. Property-based: random contracts with ``x-sensitive`` at random places ($ref targets,
   recursion, patternProperties, additionalProperties, items, prefixItems, unions, the
   root) and random instances: no string at a sensitive place (by the reference view in
   ``toolshape.contract.redaction``) shows in a message, ``feedback()``, a repr or
   ``log_record()``; no allowed value of a sensitive enum/const shows in a message or
   feedback; every value the reference walk places outside a secret is logged as sent,
   and every value it cannot place (under a key no schema names, or of a JSON type that
   cannot hold the secret below its schema) as its JSON type and size.
2. The reference view itself, on hand-written schemas (it is the oracle of 1 and of the
   generated tests, so it is checked against expectations written out here).
3. Each defect of issue 13 reproduced on a generated module.
"""

from __future__ import annotations

import functools
import json
import os
import random
import re
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, example, given, note, settings
from hypothesis import strategies as st
from support import build_module
from toolshape.codegen import tests_model
from toolshape.contract import redaction
from toolshape.contract.errors import ContractError

EXAMPLES = int(os.environ.get("TOOLSHAPE_SENSITIVE_EXAMPLES", "60"))
KEYS = ["a", "b", "pan", "card"]
PATTERNS = ["^p", "^x_"]
DEFS = ["d0", "d1"]


def shown(result: Any) -> str:
    """Everything a result lets out."""
    texts = [
        result.feedback(),
        repr(result),
        repr(result.errors),
        json.dumps(result.log_record(), ensure_ascii=False),
    ]
    return "\n".join(texts + [error.message for error in result.errors])


def said(result: Any) -> str:
    """What a result says in words (the log record's copy of the arguments aside)."""
    return "\n".join([result.feedback(), repr(result)] + [error.message for error in result.errors])


# -- 1. property-based --------------------------------------------------------------


def _leaves() -> st.SearchStrategy[dict[str, Any]]:
    return st.sampled_from(
        [
            {"type": "string"},
            {"type": "integer"},
            {},
            {"type": "string", "enum": ["ENUM"]},
            {"const": "CONST"},
            {"type": "string", "minLength": 3},
        ]
    )


@functools.cache
def _schemas(depth: int) -> st.SearchStrategy[Any]:
    """Schemas nested up to ``depth`` levels. Built once per depth: ``contracts`` draws from
    them for every example, and a strategy built anew is validated anew (most of the time of
    an example went there)."""
    if depth == 0:
        return _maybe_sensitive(_leaves())
    sub = _schemas(depth - 1)
    objects = st.builds(
        _object,
        st.dictionaries(st.sampled_from(KEYS), sub, max_size=3),
        st.dictionaries(st.sampled_from(PATTERNS), sub, max_size=2),
        st.one_of(st.none(), st.booleans(), sub),
    )
    arrays = st.builds(_array, sub, st.lists(sub, max_size=2))
    unions = st.builds(
        lambda kind, branches: {kind: branches},
        st.sampled_from(["anyOf", "allOf", "oneOf"]),
        st.lists(sub, min_size=1, max_size=2),
    )
    conditionals = st.builds(lambda i, t, e: {"if": i, "then": t, "else": e}, sub, sub, sub)
    refs = st.sampled_from(DEFS).map(lambda name: {"$ref": f"#/$defs/{name}"})
    return _maybe_sensitive(st.one_of(_leaves(), objects, arrays, unions, conditionals, refs))


def _object(
    properties: dict[str, Any], patterns: dict[str, Any], additional: Any
) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if patterns:
        schema["patternProperties"] = patterns
    if additional is not None:
        schema["additionalProperties"] = additional
    return schema


def _array(items: Any, prefix: list[Any]) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "array", "items": items}
    if prefix:
        schema["prefixItems"] = prefix
    return schema


def _maybe_sensitive(schemas: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.tuples(schemas, st.integers(0, 5)).map(
        lambda p: {**p[0], "x-sensitive": True} if p[1] == 0 else p[0]
    )


def _renumber(schema: Any, counter: list[int]) -> Any:
    """A copy where each enum and const holds values of its own (so that a leak is traceable)."""
    if isinstance(schema, list):
        return [_renumber(s, counter) for s in schema]
    if not isinstance(schema, dict):
        return schema
    copy: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("enum", "const"):
            counter[0] += 1
            copy[key] = (
                [f"zq{counter[0]}x", f"zq{counter[0]}y"] if key == "enum" else f"zq{counter[0]}c"
            )
        elif key in ("properties", "patternProperties", "$defs"):
            copy[key] = {k: _renumber(v, counter) for k, v in value.items()}
        else:
            copy[key] = _renumber(value, counter)
    return copy


@st.composite
def contracts(draw: st.DrawFn) -> Any:
    root = draw(
        st.builds(
            _object,
            st.dictionaries(st.sampled_from(KEYS), _schemas(2), min_size=1, max_size=4),
            st.dictionaries(st.sampled_from(PATTERNS), _schemas(1), max_size=1),
            st.one_of(st.none(), st.booleans(), _schemas(1)),
        )
    )
    root["$defs"] = {name: draw(_schemas(2)) for name in DEFS}
    if draw(st.integers(0, 9)) == 0:
        root["x-sensitive"] = True
    return _renumber(root, [0])


class _Instances:
    """Random instances that follow a schema loosely (and stray from it), with unique strings."""

    def __init__(self, parameters: Any, rng: random.Random) -> None:
        self.parameters = parameters
        self.rng = rng
        self.count = 0

    def string(self) -> str:
        self.count += 1
        return f"val{self.count:03d}q"

    def scalar(self) -> Any:
        return self.rng.choice([self.string(), self.string(), 7, None, True, 2.5])

    def of(self, schema: Any, depth: int) -> Any:
        rng = self.rng
        if depth > 6 or not isinstance(schema, dict) or rng.random() < 0.1:
            return self.scalar()
        if "$ref" in schema and rng.random() < 0.8:
            return self.of(self.parameters["$defs"][schema["$ref"].rsplit("/", 1)[1]], depth + 1)
        for kind in ("anyOf", "allOf", "oneOf"):
            if kind in schema:
                return self.of(rng.choice(schema[kind]), depth + 1)
        if "if" in schema:
            return self.of(rng.choice([schema["if"], schema["then"], schema["else"]]), depth + 1)
        if "enum" in schema or "const" in schema:
            allowed = schema.get("enum", [schema.get("const")])
            choice = rng.choice(allowed)
            return rng.choice([choice, choice.upper(), self.string()])
        if schema.get("type") == "object":
            value: dict[str, Any] = {}
            for key, sub in schema.get("properties", {}).items():
                if rng.random() < 0.8:
                    value[key] = self.of(sub, depth + 1)
            for pattern, sub in schema.get("patternProperties", {}).items():
                value[pattern[1:] + str(rng.randint(0, 9))] = self.of(sub, depth + 1)
            if rng.random() < 0.4:  # an undeclared key, sometimes a misspelt declared one
                key = rng.choice(["zz", "PAN", "Card", "a_"])
                value[key] = self.of(schema.get("additionalProperties", True), depth + 1)
            return value
        if schema.get("type") == "array":
            count = rng.randint(0, 3)
            prefix = schema.get("prefixItems", [])
            return [
                self.of(prefix[i] if i < len(prefix) else schema.get("items"), depth + 1)
                for i in range(count)
            ]
        return self.scalar()


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    return []


def _without(value: Any, pointer: str, hidden: set[str]) -> Any:
    """A copy of ``value`` with the hidden places left out."""
    if pointer in hidden:
        return None
    if isinstance(value, list):
        return [_without(item, f"{pointer}/{i}", hidden) for i, item in enumerate(value)]
    if isinstance(value, dict):
        return {key: _without(item, f"{pointer}/{key}", hidden) for key, item in value.items()}
    return value


def _at(value: Any, pointer: str) -> Any:
    for step in pointer.split("/")[1:]:
        step = step.replace("~1", "/").replace("~0", "~")
        value = value[int(step)] if isinstance(value, list) else value[step]
    return value


def type_and_size(value: Any) -> str:
    """How the README says the log writes a value it cannot place: its JSON type and size."""
    if isinstance(value, (str, list, dict)):
        kind, noun = {
            str: ("a string", "character"),
            list: ("an array", "item"),
            dict: ("an object", "key"),
        }[type(value)]
        return f"[{kind} of {len(value)} {noun}{'' if len(value) == 1 else 's'}]"
    if value is None:
        return "[null]"
    if isinstance(value, bool):
        return "[a boolean]"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "[an integer]"
    return "[a number]"


def logged_as_sent(value: Any, logged: Any, pointer: str, hidden: redaction.Places) -> None:
    """The log record's copy: "[redacted]" and type and size at the hidden places, the rest unchanged."""
    if pointer in hidden.redacted:
        assert logged == "[redacted]", f"{pointer} is x-sensitive, logged as {logged!r}"
    elif pointer in hidden.described:
        assert logged == type_and_size(value), f"{pointer} cannot be placed, logged as {logged!r}"
    elif isinstance(value, dict):
        assert isinstance(logged, dict) and list(logged) == list(value), pointer
        for key, item in value.items():
            logged_as_sent(item, logged[key], f"{pointer}/{key}", hidden)
    elif isinstance(value, list):
        assert isinstance(logged, list) and len(logged) == len(value), pointer
        for index, item in enumerate(value):
            logged_as_sent(item, logged[index], f"{pointer}/{index}", hidden)
    else:
        assert logged == value, (
            f"{pointer} is not x-sensitive, yet logged as {logged!r}, not {value!r}"
        )


_BUILT: dict[str, Any] = {}


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,  # the same examples on every run: CI cannot flake (raise EXAMPLES to search wider)
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(parameters=contracts(), seed=st.integers(0, 2**32))
# Found by a wider search: a definition that only an unused sensitive definition refers to is
# not secret (its allowed values may be listed where a non-sensitive property uses it).
@example(
    parameters={
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/d0"}},
        "$defs": {
            "d0": {"type": "string", "enum": ["zq1x", "zq1y"]},
            "d1": {"$ref": "#/$defs/d0", "x-sensitive": True},
        },
    },
    seed=0,
)
def test_no_secret_ever_shows_and_nothing_else_is_hidden(parameters: Any, seed: int) -> None:
    key = json.dumps(parameters, sort_keys=True)
    if key not in _BUILT:
        try:
            _BUILT[key] = build_module(parameters)
        except ContractError:
            _BUILT[key] = None
    module = _BUILT[key]
    assume(module is not None)
    note(json.dumps(parameters, indent=1))
    allowed = redaction.allowed_secrets(parameters)
    contract_public = tests_model._contract_strings(parameters)[1] - allowed
    instances = _Instances(parameters, random.Random(seed))
    for _ in range(15):
        data = instances.of(parameters, 0)
        if not isinstance(data, dict):
            continue
        hidden = redaction.places(parameters, data)
        secrets = [
            s
            for pointer in hidden.redacted + hidden.described
            for s in _strings(_at(data, pointer))
        ]
        public = _strings(_without(data, "", set(hidden.redacted + hidden.described)))
        secrets = [s for s in secrets if s not in public]  # the same string sent in the open too
        # ... or written in the open by the contract (an allowed value of a schema that is not sensitive)
        secrets = [s for s in secrets if s not in contract_public]
        result = module.validate(data)
        everything = shown(result)
        for secret in secrets:
            assert secret not in everything, f"{secret!r} shows for {data}"
        words = said(result)
        for value in allowed:
            assert value not in words, (
                f"the allowed value {value!r} of a sensitive schema shows for {data}"
            )
        for error in (
            result.errors
        ):  # an error about a secret names no allowed value, whichever schema made it
            if any(error.path == p or error.path.startswith(p + "/") for p in hidden.redacted):
                assert re.search(r"zq[0-9]+[xyc]", error.message) is None, error
        logged_as_sent(data, result.log_record()["arguments"], "", hidden)


# -- 2. the reference view, against expectations written out ---------------------------

SECRET_DEF = {"$defs": {"secret": {"type": "string", "x-sensitive": True}}}


@pytest.mark.parametrize(
    ("parameters", "instance", "redacted", "described"),
    [
        pytest.param(
            {
                "type": "object",
                "properties": {"password": {"$ref": "#/$defs/secret"}, "user": {}},
                **SECRET_DEF,
            },
            {"password": "x", "user": "y", "PASSWORD": "z"},
            ["/password"],
            ["/PASSWORD"],
            id="$ref, and a misspelt key beside it",
        ),
        pytest.param(
            {
                "type": "object",
                "patternProperties": {"^tok_": {"x-sensitive": True}},
                "additionalProperties": {},
            },
            {"tok_a": "x", "label": "y"},
            ["/tok_a"],
            ["/label"],
            id="patternProperties (a key only additionalProperties takes is not named)",
        ),
        pytest.param(
            {
                "type": "object",
                "properties": {"login": {"$ref": "#/$defs/login"}},
                "$defs": {
                    "login": {
                        "type": "object",
                        "properties": {"password": {"x-sensitive": True}, "user": {}},
                    }
                },
            },
            {"login": {"password": "x", "user": "y", "pass_word": "z"}, "password": "open"},
            ["/login/password"],
            ["/login/pass_word", "/password"],
            id="a $defs object at depth: its mask is not the root's",
        ),
        pytest.param(
            {"type": "object", "x-sensitive": True, "properties": {"a": {}}},
            {"a": "x"},
            [""],
            [],
            id="the parameters root",
        ),
        pytest.param(
            {
                "type": "object",
                "properties": {"node": {"$ref": "#/$defs/node"}},
                "$defs": {
                    "node": {
                        "type": "object",
                        "properties": {
                            "pin": {"x-sensitive": True},
                            "kids": {"items": {"$ref": "#/$defs/node"}},
                        },
                    }
                },
            },
            {"node": {"pin": "1", "kids": [{"pin": "2", "kids": [{"pin": "3"}]}]}},
            ["/node/pin", "/node/kids/0/pin", "/node/kids/0/kids/0/pin"],
            [],
            id="recursion",
        ),
        pytest.param(
            {
                "type": "object",
                "properties": {
                    "r": {"anyOf": [{"type": "integer"}, {"type": "string", "x-sensitive": True}]}
                },
            },
            {"r": 5},
            ["/r"],
            [],
            id="any branch counts, whichever matched",
        ),
        pytest.param(
            {
                "type": "object",
                "properties": {"t": {"prefixItems": [{}, {"x-sensitive": True}], "items": {}}},
            },
            {"t": ["a", "b", "c"]},
            ["/t/1"],
            [],
            id="prefixItems",
        ),
        pytest.param(
            {"type": "object", "properties": {"amount": {}, "pan": {"x-sensitive": True}}},
            {"amount": 5, "pan": "4111"},
            ["/pan"],
            [],
            id="declared keys beside a sensitive one are not undeclared",
        ),
    ],
)
def test_the_reference_view(
    parameters: Any, instance: Any, redacted: list[str], described: list[str]
) -> None:
    found = redaction.places(parameters, instance)
    assert sorted(found.redacted) == sorted(redacted)
    assert sorted(found.described) == sorted(described)


# -- 3. the defects of issue 13, on generated modules -----------------------------------


SECRET_PLACES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "through $ref": (
        {
            "type": "object",
            "properties": {"password": {"$ref": "#/$defs/secret"}, "user": {}},
            **SECRET_DEF,
        },
        {"password": "hunter2-ref", "user": "open-value"},
    ),
    "under patternProperties": (
        {
            "type": "object",
            "properties": {
                "tokens": {"patternProperties": {"^tok_": {"x-sensitive": True}}},
                "note": {},
            },
        },
        {"tokens": {"tok_a": "hunter2-pattern"}, "note": "open-value"},
    ),
    "inside a $defs object used below the root": (
        {
            "type": "object",
            "properties": {
                "user": {
                    "type": "object",
                    "properties": {"login": {"$ref": "#/$defs/login"}, "name": {}},
                }
            },
            "$defs": {
                "login": {
                    "type": "object",
                    "properties": {"password": {"type": "string", "x-sensitive": True}},
                }
            },
        },
        {"user": {"login": {"password": "hunter2-defs"}, "name": "open-value"}},
    ),
    "the parameters root": (
        {"type": "object", "x-sensitive": True, "properties": {"a": {"type": "string"}}},
        {"a": "hunter2-root"},
    ),
}


@pytest.mark.parametrize("where", list(SECRET_PLACES))
def test_a_secret_is_never_logged_wherever_its_schema_applies(where: str) -> None:
    parameters, data = SECRET_PLACES[where]
    module = build_module(parameters)
    for result in (module.validate(data), module.validate({**data, "zz": 1})):
        assert "hunter2" not in shown(result)
        # ...and nothing else is hidden with it (redacting everything would be no fix):
        logged = json.dumps(result.log_record()["arguments"])
        assert ("open-value" in logged) is (where != "the parameters root")


def test_a_sensitive_enum_or_const_is_never_named() -> None:
    module = build_module(
        {
            "type": "object",
            "properties": {
                "tier": {"type": "string", "enum": ["gold", "platinum"], "x-sensitive": True},
                "code": {"const": "launch-code-42", "x-sensitive": True},
                "plan": {"type": "string", "enum": ["basic", "pro"]},
            },
        }
    )
    result = module.validate({"tier": "PLATINUM", "code": "launch", "plan": "PRO"})
    assert {(e.path, e.code) for e in result.errors} == {
        ("/tier", "enum"),
        ("/code", "const"),
        ("/plan", "enum"),
    }
    words = shown(result)
    for secret in ("gold", "platinum", "PLATINUM", "launch-code-42"):
        assert secret not in words
    assert 'did you mean "pro"?' in words  # a plain enum keeps its hint


def test_only_sensitive_values_are_replaced_and_the_guard_applies_at_every_depth() -> None:
    module = build_module(
        {
            "type": "object",
            "properties": {
                "amount": {"type": "number"},
                "pan": {"type": "string", "x-sensitive": True},
                "card": {
                    "type": "object",
                    "properties": {"pan": {"type": "string", "x-sensitive": True}, "name": {}},
                },
            },
        }
    )
    data = {
        "amount": 5,
        "pan": "4111-top",
        "PAN": "4111-misspelt",
        "card": {"pan": "4111-deep", "PAN": "4111-deep-misspelt", "name": "Ann"},
    }
    logged = module.validate(data).log_record()["arguments"]
    assert logged == {
        "amount": 5,
        "pan": "[redacted]",
        "PAN": "[a string of 13 characters]",
        "card": {"pan": "[redacted]", "PAN": "[a string of 18 characters]", "name": "Ann"},
    }


def test_a_long_property_name_is_shortened_in_feedback_by_the_documented_rule() -> None:
    key = "k" * 130
    module = build_module({"type": "object", "properties": {key: {"type": "string"}}})
    feedback = module.validate({key: 1}).feedback()
    path = "/" + key
    assert path not in feedback
    assert path[:120] + "...[shortened]" in feedback


def test_an_enum_beside_a_sensitive_schema_on_the_same_value_is_never_named() -> None:
    module = build_module(
        {
            "type": "object",
            "allOf": [
                {"properties": {"tier": {"x-sensitive": True}}},
                {"properties": {"tier": {"type": "string", "enum": ["gold", "platinum"]}}},
            ],
            "properties": {
                "code": {"allOf": [{"$ref": "#/$defs/secret"}, {"const": "launch-code-42"}]}
            },
            **SECRET_DEF,
        }
    )
    result = module.validate({"tier": "PLATINUM", "code": "launch"})
    assert {(e.path, e.code) for e in result.errors} == {("/tier", "enum"), ("/code", "const")}
    for secret in ("gold", "platinum", "PLATINUM", "launch"):
        assert secret not in shown(result)
