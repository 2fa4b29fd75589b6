"""Where an error points, and where the handler's integers go: paths built lazily (issue 20).

The checks give the path of a value below a key or index the input decides as a tuple,
``(parent, step, ...)``, so that it costs the same whatever the keys above it hold and however
deep it lies; ``Error.path`` writes the JSON Pointer out when it is first read, and
``_with_integers`` follows the tuples' steps, remembering each parent's container. These tests
hold them to what the pointer strings did before: the same pointers, the same errors, the same
value for the handler (tests/test_linear_work.py shows what they cost).
"""

from __future__ import annotations

import copy
import json
import pickle
import types
from pathlib import PurePosixPath
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import CONTEXT
from toolshape.project import pipeline
from toolshape.project.runtime import runtime_module


def runtime() -> types.ModuleType:
    return runtime_module()


def module_of(parameters: dict[str, Any]) -> types.ModuleType:
    contract = {"name": "paths", "description": "Paths.", "parameters": parameters}
    raw = json.dumps(contract).encode()
    return pipeline.generate_module(raw, "x.yaml", PurePosixPath("x.yaml"), CONTEXT).module


# -- Error: a str path for its users -----------------------------------------------------


def test_an_error_given_a_tuple_shows_the_pointer_it_names() -> None:
    rt = runtime()
    lazy = rt.Error((("/a", "b/c", 0), rt._key("d~e"), 12), "type", "m")
    plain = rt.Error("/a/b~1c/0/d~0e/12", "type", "m")
    assert lazy == plain and hash(lazy) == hash(plain)
    assert repr(lazy) == repr(plain) and lazy.as_dict() == plain.as_dict()
    assert type(lazy.path) is str and lazy.path is lazy.path  # written out once
    assert not hasattr(lazy, "__dict__") and rt.Error.__slots__ == ("_path", "code", "message")
    lazy.path = "/x"
    assert lazy.path == "/x" and lazy != plain
    assert pickle.loads(pickle.dumps(lazy)) == lazy


class _Key(str):
    """A key that is not a plain str: its text is never asked for."""

    def __str__(self) -> str:
        raise AssertionError("asked for")

    __repr__ = __format__ = __str__  # type: ignore[assignment]


def test_a_key_that_is_not_a_str_is_a_placeholder_in_a_path() -> None:
    rt = runtime()
    assert rt._pointer(("", rt._key(_Key("k")), rt._key(1), 1)) == (
        f"/{rt._NOT_A_KEY}/{rt._NOT_A_KEY}/1"
    )
    assert rt._pointer(("/a", "", 0)) == "/a//0" and rt._pointer("") == ""


PARAMETERS: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "tree": {
            "type": "object",
            "properties": {
                "v": {"type": "integer"},
                "kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}},
                "m": {"type": "object", "additionalProperties": {"$ref": "#/$defs/tree"}},
            },
        },
    },
    "properties": {
        "t": {"$ref": "#/$defs/tree"},
        "u": {
            "type": "object",
            "additionalProperties": {
                "anyOf": [
                    {"type": "array", "items": {"type": "integer"}},
                    {"type": "string"},
                ]
            },
        },
    },
    "additionalProperties": {"type": "array", "prefixItems": [{"type": "integer"}]},
}


def test_the_pointers_of_errors_below_dynamic_keys_and_recursion() -> None:
    validate = module_of(PARAMETERS).validate
    tree = {"kids": [{"v": 1}, {"m": {"a/b": {"kids": [{"v": "x"}]}, "c~d": {"v": 1.5}}}]}
    result = validate({"t": tree, "k/~": ["x"], "k2": [1, "y"], _Key("k3"): ["z"]})
    assert [(e.path, e.code) for e in result.errors] == [
        ("/t/kids/1/m/a~1b/kids/0/v", "type"),
        ("/t/kids/1/m/c~0d/v", "type"),
        ("/k~1~0/0", "type"),
        (f"/{runtime()._NOT_A_KEY}/0", "type"),
    ]


def test_a_union_names_where_its_closest_branch_fails_only_below_it() -> None:
    validate = module_of(PARAMETERS).validate
    below = validate({"u": {"k/x": [1, "x"]}}).errors[0]
    assert below.path == "/u/k~1x" and "(alternative 1) fails at /u/k~1x/1: " in below.message
    here = validate({"u": {"k/x": 5}}).errors[0]
    assert here.path == "/u/k~1x" and "(alternative 1) fails: " in here.message


def test_the_handler_gets_ints_below_dynamic_keys_and_recursion() -> None:
    validate = module_of(PARAMETERS).validate
    tree = {"v": 2.0, "kids": [{"v": 1.0}, {"m": {"a/b": {"kids": [{"v": 3.0}]}, "c": {}}}]}
    shared = [4.0]
    sent = {"t": tree, "k/~": shared, "k2": shared}
    kept = copy.deepcopy(sent)
    result = validate(sent)
    assert result.ok and sent == kept and repr(sent) == repr(kept)  # (1.0 == 1: repr tells)
    assert repr(result.value) == repr(
        {
            "t": {"v": 2, "kids": [{"v": 1}, {"m": {"a/b": {"kids": [{"v": 3}]}, "c": {}}}]},
            "k/~": [4],
            "k2": [4],
        }
    )
    assert result.value["k/~"] is result.value["k2"]  # one list sent, one list handed on


def test_a_member_written_over_a_place_takes_the_integers_recorded_after_it() -> None:
    """A const object checked after the properties below it recorded integral floats (an
    allOf after them), then more below it, in a $ref'd definition (its paths extend the one
    it is given): the member replaces what was copied for the first integers, and those
    recorded after it go into the member, as the pointer walk did."""
    pair = {
        "type": "object",
        "properties": {"x": {"type": "integer"}},
        "allOf": [{"const": {"x": 1, "y": 2.0}}, {"properties": {"y": {"type": "integer"}}}],
    }
    validate = module_of(
        {
            "type": "object",
            "$defs": {"pair": pair},
            "properties": {"a": {"type": "array", "items": {"$ref": "#/$defs/pair"}}},
        }
    ).validate
    sent = {"a": [{"x": 1.0, "y": 2.0}, {"x": 1, "y": 2}]}
    result = validate(sent)
    assert result.ok
    # (A value equal to the member gets the member, its integral numbers as ints: the
    # member's 2.0 arrives as 2, whether 2 or 2.0 was sent.)
    assert repr(result.value) == repr({"a": [{"x": 1, "y": 2}, {"x": 1, "y": 2}]})
    assert repr(sent) == repr({"a": [{"x": 1.0, "y": 2.0}, {"x": 1, "y": 2}]})
    assert result.value["a"][0] is not sent["a"][0]  # the member's own copy, converted
    assert result.value["a"][1] is sent["a"][1]  # already the member, type for type: as sent


# -- _with_integers against the pointer walk it replaced ----------------------------------


def _walk(value: Any, entries: list[tuple[str, bool, Any]]) -> Any:
    """What _with_integers did with pointer strings: each entry walked from the top, in order."""
    rt = runtime()
    copies: dict[int, Any] = {}

    def copied(container: Any) -> Any:
        made = copies.get(id(container))
        if made is None:
            made = dict(container) if isinstance(container, dict) else list(container)
            copies[id(container)] = copies[id(made)] = made
        return made

    top = copied(value)
    for path, written, member in entries:
        if not path:
            top = rt._fresh(member)
            continue
        node = top
        tokens = path.split("/")[1:]
        for depth, token in enumerate(tokens):
            step: Any = int(token) if isinstance(node, list) else rt._unescape(token)
            if depth == len(tokens) - 1:
                node[step] = rt._fresh(member) if written else int(rt._exact(node[step]))
            else:
                node[step] = copied(node[step])
                node = node[step]
    return top


keys = st.sampled_from(["a", "b", "a/b", "~", "0", ""])
leaves = st.sampled_from([1.0, 2.0, 1e23, -3.0, "s", None])
values = st.recursive(
    leaves,
    lambda inner: (
        st.lists(inner, min_size=1, max_size=3)
        | st.dictionaries(keys, inner, min_size=1, max_size=3)
    ),
    max_leaves=12,
)
members = st.sampled_from([7, 7.0, [1.0], {"a": 2.0}, "w"])


def _places(value: Any, steps: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The steps to every place in ``value`` below the top."""
    found = [steps] if steps else []
    if isinstance(value, (dict, list)):
        for step, item in value.items() if isinstance(value, dict) else enumerate(value):
            found += _places(item, (*steps, step))
    return found


def _at(value: Any, steps: tuple[Any, ...]) -> Any:
    for step in steps:
        value = value[step]
    return value


@settings(max_examples=300, deadline=None)
@given(values.filter(lambda v: isinstance(v, (dict, list))), st.data())
def test_with_integers_does_what_the_pointer_walk_did(value: Any, data: st.DataObject) -> None:
    """Random places, each an integral float's or a member's (objects and arrays too, some
    written over what is below them, before or after it), each path a pointer for its first
    steps and tuples after them, a parent tuple shared by the paths below it, as the checks
    build them."""
    rt = runtime()
    places = _places(value)
    if not places:
        return
    cut = data.draw(st.integers(0, 3), label="steps in the pointer")
    links: dict[tuple[Any, ...], Any] = {}

    def path_of(steps: tuple[Any, ...]) -> Any:
        if len(steps) <= cut:
            return "".join("/" + rt._pointer_token(str(s)) for s in steps)
        if steps not in links:
            links[steps] = (path_of(steps[:-1]), steps[-1])
        return links[steps]

    entries: list[Any] = []
    expected: list[tuple[str, bool, Any]] = []
    for _ in range(data.draw(st.integers(1, 8), label="entries")):
        steps = data.draw(st.sampled_from([(), *places]), label="place")
        thing = _at(value, steps)
        if steps and type(thing) is float:
            entries.append(path_of(steps))
            expected.append((rt._pointer(path_of(steps)), False, None))
        else:
            member = data.draw(members, label="member")
            entries.append(rt._Written(path_of(steps), member))
            expected.append((rt._pointer(path_of(steps)), True, member))
    kept = copy.deepcopy(value)
    assert _outcome(lambda: rt._with_integers(value, entries)) == _outcome(
        lambda: _walk(value, expected)
    )
    assert repr(value) == repr(kept)


def _outcome(call: Any) -> str:
    """The result's repr (1 and 1.0 differ there), or that it raised (a path into a member
    that has no such place: validate() refuses the arguments then)."""
    try:
        return repr(call())
    except (KeyError, IndexError, TypeError, ValueError):
        return "raised"


@pytest.mark.parametrize("depth", [1, 2, 50])
def test_with_integers_follows_a_deep_tuple_path(depth: int) -> None:
    rt = runtime()
    value: Any = [1.0]
    path: Any = ""
    for _ in range(depth):
        value = {"k": value}
        path = (path, "k")
    entries = [(path, 0)]
    steps = "/k" * depth + "/0"
    result = rt._with_integers(value, entries)
    assert repr(_at(result, tuple(["k"] * depth + [0]))) == "1"
    assert repr(result) == repr(_walk(value, [(steps, False, None)]))
