"""Redaction as an allow-list (issue 20, class 1): no secret in any output, whatever shape arrives.

By construction: a sensitive schema is put at every position a schema can hold one
(``POSITIONS``, one and two levels deep, under a root that also declares free-form keys), a
marker is put where the contract says the secret goes, and then every value on the way
from the arguments down to the marker is sent in every shape a value can arrive in
(``SHAPES``: as sent, JSON in a string, wrapped in an array, wrapped in an object under an
unknown key or a wrapper name, the secret as a number). No marker may show in
``log_record()``, a message, ``feedback()`` or a repr, through ``validate()`` or ``parse()``.
The same walk sends each key on the way as a ``str`` subclass and as a ``str`` Enum member,
and corrupts the argument text at every position for ``parse()``.
"""

from __future__ import annotations

import enum
import json
import re
from collections.abc import Callable
from typing import Any, ClassVar

import pytest
from support import build_module
from test_sensitive import logged_as_sent, shown
from toolshape.contract import redaction
from toolshape.contract.errors import ContractError

#: The secret, where the contract puts one; and the secret sent as a number.
MARKER = "zqsecret_6f1c2a"
NUMBER = 86753091234567
SECRET_SCHEMA = {"type": "string", "minLength": 4, "x-sensitive": True}

Make = Callable[[Any, dict[str, Any]], Any]
Place = Callable[[Any], Any]


def _ref(schema: Any, defs: dict[str, Any]) -> dict[str, Any]:
    name = f"d{len(defs)}"
    defs[name] = schema
    return {"$ref": f"#/$defs/{name}"}


def _recursive(schema: Any, defs: dict[str, Any]) -> dict[str, Any]:
    name = f"d{len(defs)}"
    defs[name] = {
        "type": "object",
        "properties": {"kid": {"$ref": f"#/$defs/{name}"}, "leaf": schema},
    }
    return {"$ref": f"#/$defs/{name}"}


#: Every place a schema can hold another: how to wrap a schema there, and how to put a
#: value where the wrapped schema applies.
POSITIONS: dict[str, tuple[Make, Place]] = {
    "property": (
        lambda s, d: {"type": "object", "properties": {"pin": s, "name": {}}},
        lambda v: {"pin": v, "name": "open"},
    ),
    "patternProperties": (
        lambda s, d: {"type": "object", "patternProperties": {"^tok_": s}},
        lambda v: {"tok_a": v},
    ),
    "additionalProperties": (
        lambda s, d: {"type": "object", "properties": {"name": {}}, "additionalProperties": s},
        lambda v: {"extra": v},
    ),
    "items": (lambda s, d: {"type": "array", "items": s}, lambda v: [v]),
    "prefixItems": (
        lambda s, d: {"type": "array", "prefixItems": [{"type": "string"}, s]},
        lambda v: ["open", v],
    ),
    "contains": (lambda s, d: {"type": "array", "contains": s}, lambda v: [v]),
    "anyOf": (lambda s, d: {"anyOf": [{"type": "integer"}, s]}, lambda v: v),
    "allOf": (lambda s, d: {"allOf": [s]}, lambda v: v),
    "oneOf": (lambda s, d: {"oneOf": [{"type": "integer"}, s]}, lambda v: v),
    "if/then/else": (
        lambda s, d: {"if": {"type": "object"}, "then": s, "else": s},
        lambda v: v,
    ),
    "$ref": (_ref, lambda v: v),
    "recursive $ref": (_recursive, lambda v: {"kid": {"leaf": v}}),
}
PAIRS = [(outer, inner) for outer in POSITIONS for inner in [None, *POSITIONS]]

#: Every shape a value can arrive in, applied to each value on the way to the secret.
SHAPES: dict[str, Callable[[Any], Any]] = {
    "as sent": lambda v: v,
    "JSON in a string": json.dumps,
    "wrapped in an array": lambda v: [v],
    "wrapped under an unknown key": lambda v: {"wrapped": v},
    "wrapped under a wrapper name": lambda v: {"arguments": v},
    "true instead": lambda v: True,
    "null instead": lambda v: None,
}
#: Shapes of the whole arguments: under keys the root declares, whose schemas name no key.
TOP_SHAPES: dict[str, Callable[[Any], Any]] = {
    "under a declared free-form object": lambda v: {"params": v},
    "under a declared free-form array": lambda v: {"list": [v]},
    "under a declared object with other keys": lambda v: {"options": v},
    "as JSON in a string under a declared free-form object": lambda v: {"params": json.dumps(v)},
    "as JSON in a string in a declared free-form array": lambda v: {"list": [json.dumps(v)]},
}


def contract(outer: str, inner: str | None) -> tuple[Any, Callable[[Any], Any]]:
    """The parameters with the secret at ``outer`` (around ``inner``), and how to place a value there."""
    defs: dict[str, Any] = {}
    make_in, place_in = POSITIONS[inner] if inner else (lambda s, d: s, lambda v: v)
    make_out, place_out = POSITIONS[outer]
    slot = make_out(make_in(SECRET_SCHEMA, defs), defs)
    parameters = {
        "type": "object",
        "properties": {
            "slot": slot,
            "note": {"type": "string"},
            "params": {"type": "object"},
            "list": {"type": "array"},
            "options": {"type": "object", "properties": {"verbose": {"type": "boolean"}}},
        },
        "$defs": defs,
    }
    return parameters, lambda v: {"slot": place_out(place_in(v)), "note": "open"}


_MODULES: dict[tuple[str, str | None], Any] = {}


def module_for(outer: str, inner: str | None) -> tuple[Any, Callable[[Any], Any]]:
    parameters, place = contract(outer, inner)
    if (outer, inner) not in _MODULES:
        try:
            _MODULES[outer, inner] = build_module(parameters)
        except ContractError:  # a combination the contract check refuses: nothing to run
            _MODULES[outer, inner] = None
    module = _MODULES[outer, inner]
    if module is None:
        pytest.skip("the contract check refuses this combination")
    return module, place


def path_to(value: Any, secret: Any) -> list[Any] | None:
    """The keys and indexes from ``value`` down to the first ``secret`` in it."""
    if value == secret and type(value) is type(secret):
        return []
    steps = value.items() if isinstance(value, dict) else enumerate(value)
    if isinstance(value, (dict, list)):
        for step, item in steps:
            below = path_to(item, secret)
            if below is not None:
                return [step, *below]
    return None


def reshaped(value: Any, path: list[Any], depth: int, shape: Callable[[Any], Any]) -> Any:
    """A copy of ``value`` whose part ``path[:depth]`` down is sent in ``shape``."""
    if depth == 0:
        return shape(value)
    copy = dict(value) if isinstance(value, dict) else list(value)
    copy[path[0]] = reshaped(value[path[0]], path[1:], depth - 1, shape)
    return copy


def variants(place: Callable[[Any], Any]) -> list[tuple[str, Any]]:
    """Every value on the way to the secret in every shape, for the secret as a string and a number."""
    found: list[tuple[str, Any]] = []
    for secret in (MARKER, NUMBER):
        data = place(secret)
        path = path_to(data, secret)
        assert path is not None
        for depth in range(len(path) + 1):
            for name, shape in SHAPES.items():
                found.append((f"{name} at depth {depth}", reshaped(data, path, depth, shape)))
        for name, shape in TOP_SHAPES.items():
            found.append((name, shape(data)))
    return found


def assert_hidden(result: Any, label: str) -> None:
    everything = shown(result) + "\n".join(error.path for error in result.errors)
    assert MARKER not in everything, f"{label}: the secret shows in\n{everything}"
    assert str(NUMBER) not in everything, f"{label}: the secret number shows in\n{everything}"


@pytest.mark.parametrize(("outer", "inner"), PAIRS, ids=[f"{o}>{i}" for o, i in PAIRS])
def test_no_shape_of_any_value_on_the_way_to_a_secret_shows_it(
    outer: str, inner: str | None
) -> None:
    module, place = module_for(outer, inner)
    parameters, _ = contract(outer, inner)
    for label, data in variants(place):
        result = module.validate(data)
        assert_hidden(result, f"validate, {label}")
        assert_hidden(module.parse(json.dumps(data)), f"parse, {label}")
        if isinstance(data, dict):
            # ...and exactly what the reference walk cannot place is hidden: the rest as sent.
            hidden = redaction.places(parameters, data)
            logged_as_sent(data, result.log_record()["arguments"], "", hidden)


class _Recorded(str):
    """A str subclass that records every call that would turn it into text."""

    calls: ClassVar[list[str]] = []

    def __str__(self) -> str:
        _Recorded.calls.append("__str__")
        return MARKER

    def __repr__(self) -> str:
        _Recorded.calls.append("__repr__")
        return MARKER

    def __format__(self, spec: str) -> str:
        _Recorded.calls.append("__format__")
        return MARKER


#: The Enum functional API (mypy checks its arguments only when they are literals).
_str_enum: Any = enum.Enum


def _with_key(value: Any, path: list[Any], depth: int, key: Any) -> Any:
    """A copy of ``value`` with the key ``path[depth]`` (of a dict) replaced by ``key``."""
    copy = dict(value) if isinstance(value, dict) else list(value)
    if depth == 0:
        assert isinstance(copy, dict)
        return {(key if k == path[0] else k): item for k, item in copy.items()}
    copy[path[0]] = _with_key(value[path[0]], path[1:], depth - 1, key)
    return copy


def _codes(result: Any) -> tuple[str, list[str]]:
    return result.status, sorted(error.code for error in result.errors)


@pytest.mark.parametrize(("outer", "inner"), PAIRS, ids=[f"{o}>{i}" for o, i in PAIRS])
def test_a_key_that_is_not_exactly_a_str_is_checked_as_its_text_and_never_shown(
    outer: str, inner: str | None
) -> None:
    module, place = module_for(outer, inner)
    for secret in (MARKER, NUMBER):
        data = place(secret)
        path = path_to(data, secret)
        assert path is not None
        for depth, step in enumerate(path):
            if not isinstance(step, str):
                continue
            member = _str_enum("Keys", [(step, step)], type=str)[step]
            for key in (_Recorded(step), member):
                _Recorded.calls.clear()
                sent = _with_key(data, path, depth, key)
                result = module.validate(sent)
                # The same verdict as for the plain key: JSON keys are strings, checked as such.
                assert _codes(result) == _codes(module.validate(data)), (step, type(key))
                assert_hidden(result, f"the key {step!r} as a {type(key).__name__}")
                assert _Recorded.calls == [], "a key's __str__, __repr__ or __format__ was called"
                logged = result.log_record()["arguments"]
                for before in path[:depth]:
                    logged = logged[before] if isinstance(logged, (dict, list)) else None
                if isinstance(logged, dict):
                    assert step not in logged, f"the key {step!r} is logged in clear"


#: What a parse error of a tool with sensitive parts may say: a position and fixed words.
PLAIN = re.compile(r"(at line [0-9]+, column [0-9]+: )?[a-zA-Z ,()0-9.-]+")


@pytest.mark.parametrize(("outer", "inner"), PAIRS, ids=[f"{o}>{i}" for o, i in PAIRS])
def test_a_parse_error_shows_no_piece_of_the_text_at_any_position(
    outer: str, inner: str | None
) -> None:
    module, place = module_for(outer, inner)
    text = json.dumps(place(MARKER))
    number_text = json.dumps(place(NUMBER))
    broken: list[str | bytes] = [text.replace(f'"{MARKER}"', MARKER)]  # the secret unquoted
    raw = text.encode("utf-8")
    for at in range(len(text) + 1):
        broken += [text[:at], text[:at] + "'" + text[at:], text[:at] + MARKER + text[at:]]
        broken.append(raw[:at] + b"\xff" + raw[at:])  # not UTF-8 there
    broken += [number_text[:at] for at in range(len(number_text) + 1)]
    refused = 0
    for sent in broken:
        result = module.parse(sent)
        if result.status != "parse_error":
            continue  # the corruption fell inside a string: JSON after all, walked as any
        refused += 1
        assert_hidden(result, f"parse({sent!r})")
        for logged in result.log_record()["errors"]:
            assert PLAIN.fullmatch(logged["message"]), (sent, logged)
    assert refused > len(text)  # every cut but the whole text, at least
