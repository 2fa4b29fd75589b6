"""Recursive tagged unions whose tag decides every object alone (issue 24: real schemas).

An expression tree of ``add``/``mul`` nodes with ``left``/``right``, or a JSON Schema Store
style ``oneOf`` of node kinds keyed by ``type`` whose kinds hold children: each alternative
requires a key, the tag, and fixes it to a constant of its own, and says nothing else of it.
The tag then decides every object (``combinators/rules.Tag.decisive``): the generated code
runs the one alternative an object's tag picks, none for an object no tag picks, so such a
union recurses once per level of the value, and the contract is accepted. Shown here:

- the generated validator agrees with ``jsonschema`` on families of trees (hypothesis),
  with tags of every alternative, of none, of other JSON types, and missing;
- its work grows with the number of nodes, counted (``work_counting``), whatever tags the
  nodes hold;
- its messages are those of the same union built to try every alternative (a tag that is
  not decisive), on every kind of object;
- an alternative leaves its checks of the tag out (the union made them: they could never
  fail), while a ``$ref`` target it shares with another caller keeps them for that caller;
- an alternative's tag may be several constants (an ``enum``) when no two alternatives share
  one: it decides too (the work and the messages are shown for each union of
  :data:`CONTRACTS` that says how its trees are built).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import build_module, verdicts_unlike_jsonschema
from toolshape.families.combinators import checks as combinator_checks
from toolshape.families.combinators import rules as combinator_rules
from toolshape.project.runtime import runtime_module
from work_counting import assert_linear


def _operator(op: str) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {
            "op": {"const": op, "description": f"{op} node"},
            "left": {"$ref": "#/$defs/expr"},
            "right": {"$ref": "#/$defs/expr"},
        },
        "required": ["op", "left", "right"],
        "additionalProperties": False,
    }


#: pydantic's shape of a tagged union of models: each part a $ref to an object that requires
#: its ``Literal`` tag.
EXPRESSION: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "expr": {
            "oneOf": [{"$ref": "#/$defs/add"}, {"$ref": "#/$defs/mul"}, {"$ref": "#/$defs/num"}]
        },
        "add": _operator("add"),
        "mul": _operator("mul"),
        "num": {
            "type": "object",
            "properties": {"op": {"type": "string", "enum": ["num"]}, "value": {"type": "number"}},
            "required": ["op", "value"],
            "additionalProperties": False,
        },
    },
    "properties": {"e": {"$ref": "#/$defs/expr"}},
    "required": ["e"],
}

#: The same tree, with ``add`` also checked on its own (``first``): that caller must keep
#: every check of ``op`` that the union's alternative leaves out.
SHARED: dict[str, Any] = {
    **EXPRESSION,
    "properties": {"e": {"$ref": "#/$defs/expr"}, "first": {"$ref": "#/$defs/add"}},
}

#: JSON Schema Store's way: an anyOf of inline node kinds keyed by "type", two of which hold
#: children (untagged, every child would be checked twice at every level).
STORE: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "node": {
            "anyOf": [
                {
                    "type": "object",
                    "properties": {
                        "type": {"const": "group"},
                        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                    },
                    "required": ["type", "children"],
                },
                {
                    "type": "object",
                    "properties": {
                        "type": {"type": "string", "const": "list"},
                        "ordered": {"type": "boolean"},
                        "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
                    },
                    "required": ["type", "children"],
                },
                {
                    "type": "object",
                    "properties": {"type": {"const": "text"}, "text": {"minLength": 1}},
                    "required": ["type", "text"],
                },
            ]
        }
    },
    "properties": {"root": {"$ref": "#/$defs/node"}},
    "required": ["root"],
}


def _children() -> dict[str, Any]:
    return {"type": "array", "items": {"$ref": "#/$defs/node"}}


#: Node kinds told apart by enums of several tags each: two kinds hold children (a child is
#: checked by one of them, never by both, when the tags decide).
ENUM_TAGS: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "node": {
            "oneOf": [
                {
                    "type": "object",
                    "properties": {"type": {"enum": ["group", "list"]}, "children": _children()},
                    "required": ["type", "children"],
                },
                {
                    "properties": {
                        "type": {"enum": ["sub", 1, None]},
                        "children": {**_children(), "maxItems": 2},
                        "ordered": {"type": "boolean"},
                    },
                    "required": ["type"],
                },
                {
                    "type": "object",
                    "properties": {"type": {"const": "text"}, "text": {"minLength": 1}},
                    "required": ["type", "text"],
                },
            ]
        }
    },
    "properties": {"root": {"$ref": "#/$defs/node"}},
    "required": ["root"],
}

#: Tags an object may hold: each alternative's, none's, of every other JSON type.
TAGS = ["add", "mul", "num", "group", "list", "text", "sub", "Add", "", 1, 1.0, True, None, []]
#: Values a leaf's other keys may hold.
LEAVES = [1, 2.5, "x", "", True, None, [], {}]
#: Marks a key left out.
ABSENT = object()


def _objects(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """An object with a tag (maybe missing) under ``op`` or ``type``, and children or leaves
    under the keys the schemas above know (each maybe missing), or an extra key."""
    keys = {
        "op": st.sampled_from([*TAGS, ABSENT]),
        "type": st.sampled_from([*TAGS, ABSENT]),
        "left": st.one_of(children, st.just(ABSENT)),
        "right": st.one_of(children, st.just(ABSENT)),
        "children": st.one_of(st.lists(children, max_size=3), st.just(ABSENT), children),
        "value": st.sampled_from([*LEAVES, ABSENT]),
        "text": st.sampled_from([*LEAVES, ABSENT]),
        "ordered": st.sampled_from([True, "yes", ABSENT]),
        "other": st.sampled_from([ABSENT, ABSENT, 1]),
    }
    return st.fixed_dictionaries(keys).map(
        lambda made: {k: v for k, v in made.items() if v is not ABSENT}
    )


#: Trees of such objects, and now and then a value that is no object.
TREES = st.recursive(st.sampled_from(LEAVES), _objects, max_leaves=12)


@dataclass(frozen=True)
class Union:
    """A contract of this file: the key its tree is under and its parameters; for the unions
    whose work and messages are shown, how a tree of n nodes over a leaf is built, the
    objects of its shape holding a tag, and the leaves its trees are counted over."""

    key: str
    parameters: dict[str, Any]
    tree: Callable[[int, Any], Any] | None = None
    objects: Callable[[Any], list[Any]] | None = None
    leaves: dict[str, Any] = field(default_factory=dict)
    #: A key whose value the contract checks on its own (a caller the union shares a target with).
    alone: str | None = None


def _balanced(size: int, leaf: Any, op: int = 0) -> Any:
    """A tree of ``size`` add and mul nodes, as balanced as it goes, with ``leaf`` under each
    node that has no other child: about ``2 * size + 1`` nodes, ``log2(size)`` levels deep."""
    if size == 0:
        return leaf
    left = (size - 1) // 2
    return {
        "op": ("add", "mul")[op % 2],
        "left": _balanced(left, leaf, op + 1),
        "right": _balanced(size - 1 - left, leaf, op + 1),
    }


def _forest(size: int, leaf: Any, kind: int = 0) -> Any:
    """A tree of ``size`` group and list nodes of two children each, as balanced as it goes,
    with ``leaf`` for each child no node fills (the ``type``/``children`` shape of
    :data:`ENUM_TAGS`)."""
    if size == 0:
        return leaf
    left = (size - 1) // 2
    children = [_forest(left, leaf, kind + 1), _forest(size - 1 - left, leaf, kind + 1)]
    return {"type": ("group", "list")[kind % 2], "children": children}


def _shallow(tag: Any) -> list[Any]:
    """Objects tagged ``tag`` (or without a tag, for ``ABSENT``), alone, with children
    (tagged alike) and with other keys."""
    objects: list[dict[str, Any]] = [
        {"op": tag},
        {"op": tag, "value": "x"},
        {"op": tag, "value": 1},
    ]
    child = _present({"op": tag, "left": {"op": "num", "value": 1}, "right": {"op": "num"}})
    objects += [child, {"op": tag, "left": child, "right": child, "extra": 1}]
    return [_present(o) for o in objects]


def _present(value: dict[str, Any]) -> dict[str, Any]:
    """``value`` without the keys whose value is ``ABSENT`` (a tag left out)."""
    return {k: v for k, v in value.items() if v is not ABSENT}


def _nodes(tag: Any) -> list[Any]:
    """Objects of the ``type``/``children`` shape tagged ``tag`` (or without a tag, for
    ``ABSENT``), alone, with a bad or good leaf, with children and with other keys."""
    child = _present({"type": tag, "children": [{"type": "text", "text": ""}], "text": "x"})
    objects: list[dict[str, Any]] = [
        {"type": tag},
        {"type": tag, "text": "x"},
        {"type": tag, "text": ""},
        {"type": tag, "children": []},
        {"type": tag, "children": [child, child, child], "ordered": "no"},
        child,
    ]
    return [_present(o) for o in objects]


#: Leaves of expression trees: a node of each kind of tag, a bad node, and no object.
EXPRESSION_LEAVES = {
    "tagged": {"op": "num", "value": 1},
    "no alternative's tag": {
        "op": "sub",
        "left": {"op": "num", "value": 1},
        "right": {"op": "num", "value": 1},
    },
    "a number": {"op": 1.5, "value": 1},
    "null": {"op": None, "value": 1},
    "no tag": {"left": {"op": "num", "value": 1}, "right": {"op": "num", "value": 1}},
    "bad children": {"op": "add", "left": {"op": "num", "value": "x"}, "right": {"value": 1}},
    "array": [{"op": "num", "value": 1}],
}

CONTRACTS = {
    "expression tree": Union("e", EXPRESSION, _balanced, _shallow, EXPRESSION_LEAVES),
    "store": Union("root", STORE),
    "shared": Union("e", SHARED, None, _shallow, alone="first"),
    # An alternative's tag may be several constants (an enum), no two alternatives sharing one.
    "enum tags": Union(
        "root",
        ENUM_TAGS,
        _forest,
        _nodes,
        {
            "tagged": {"type": "text", "text": "x"},
            "bad child": {"type": "sub", "children": [{"type": "text", "text": ""}]},
            "no alternative's tag": {"type": "other", "children": []},
            "a number": {"type": 1.5},
            "no tag": {"text": "x", "children": []},
            "array": ["x"],
        },
    ),
}


@pytest.mark.parametrize("name", CONTRACTS)
@settings(max_examples=300, deadline=None, database=None)
@given(trees=st.lists(TREES, min_size=1, max_size=4))
def test_the_generated_validator_agrees_with_jsonschema(name: str, trees: list[Any]) -> None:
    union = CONTRACTS[name]
    module = _module(name)
    tried = [{union.key: tree} for tree in trees]
    if union.alone is not None:
        tried += [{union.key: trees[0], union.alone: tree} for tree in trees]
    assert verdicts_unlike_jsonschema(module, union.parameters, tried) == []


_MODULES: dict[str, Any] = {}


def _module(name: str) -> Any:
    """The module of one of :data:`CONTRACTS`, built once (hypothesis calls a test often)."""
    if name not in _MODULES:
        _MODULES[name] = build_module(CONTRACTS[name].parameters)
    return _MODULES[name]


@pytest.mark.parametrize(
    ("name", "leaf"),
    [
        pytest.param(name, leaf, id=f"{name}: {kind}")
        for name, union in CONTRACTS.items()
        for kind, leaf in union.leaves.items()
    ],
)
def test_the_work_grows_with_the_nodes(name: str, leaf: Any) -> None:
    """Counted: lines run and characters read, for trees of n, 2n and 4n nodes (two children
    each) whose leaves are ``leaf``: each object runs the one alternative its tag picks, or
    none (tried on every alternative, each node that holds children would check them twice,
    and the work would double at every level)."""
    union = CONTRACTS[name]
    tree = union.tree
    assert tree is not None
    module = _module(name)
    assert [t.decisive for t in _tags(module)] == [True]

    def make(size: int) -> Callable[[], object]:
        value = {union.key: tree(size, leaf)}
        return lambda: module.validate(value)

    assert_linear(name, make, 64, module, runtime_module())


def _every_alternative(monkeypatch: pytest.MonkeyPatch, parameters: dict[str, Any]) -> Any:
    """The module of ``parameters`` with each union's tag built as not decisive: an object no
    tag picks is tried on every alternative, each with its own checks of the tag (the
    contract check still counts the tag as decisive: the trees tried are shallow)."""
    found = combinator_checks.union_tag

    def not_decisive(*arguments: Any) -> combinator_checks.UnionTag | None:
        tag = found(*arguments)
        return None if tag is None else combinator_checks.UnionTag(tag.key, tag.values)

    monkeypatch.setattr(combinator_checks, "union_tag", not_decisive)
    module = build_module(parameters)
    monkeypatch.undo()
    assert [t.decisive for t in _tags(module)] == [False]
    return module


def _tags(module: Any) -> list[Any]:
    return [v for v in vars(module).values() if type(v).__name__ == "_Tag"]


@pytest.mark.parametrize("name", [name for name, u in CONTRACTS.items() if u.objects])
def test_the_messages_are_those_of_trying_every_alternative(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """For every kind of object the union meets, the decisive module reports what the module
    trying every alternative (each checking its tag) reports: the same paths, codes and
    messages; and refuses exactly what the reference evaluation refuses."""
    union = CONTRACTS[name]
    objects = union.objects
    assert objects is not None
    decided = _module(name)
    assert [t.decisive for t in _tags(decided)] == [True]
    tried = _every_alternative(monkeypatch, union.parameters)
    values = [{union.key: o} for tag in [*TAGS, ABSENT, {}] for o in objects(tag)]
    values += [{union.key: v} for v in LEAVES]
    if union.alone is not None:
        values += [
            {union.key: {"op": "num", "value": 1}, union.alone: v[union.key]} for v in values
        ]
    for value in values:
        got = [(e.path, e.code, e.message) for e in decided.validate(value).errors]
        expected = [(e.path, e.code, e.message) for e in tried.validate(value).errors]
        assert got == expected, value
    assert verdicts_unlike_jsonschema(decided, union.parameters, values) == []


def test_an_alternative_tagged_by_an_enum_is_named_by_all_its_tags() -> None:
    """Whichever of its tags the object holds, the message names the alternative by all."""
    named = _module("enum tags").validate({"root": {"type": 1, "children": [], "ordered": "no"}})
    assert [e.message.split(": ")[0] for e in named.errors] == [
        'for type "sub" or 1 or null, at /root/ordered'
    ]


def test_an_alternative_leaves_its_checks_of_the_tag_to_the_union() -> None:
    """The tag's checks are gone from the union's alternatives (no "op" const or required
    message is left for them) and stay in the shared ``add`` that ``first`` calls."""
    module = _module("expression tree")
    texts = [repr(c.co_consts) for c in _codes(module)]
    assert not any('"op" must be' in t or 'missing required key "op"' in t for t in texts)
    shared = _module("shared")
    refused = shared.validate({"e": {"op": "num", "value": 1}, "first": {"op": "mul"}})
    assert [(e.path, e.code) for e in refused.errors] == [
        ("/first/op", "const"),
        ("/first/left", "required"),
        ("/first/right", "required"),
    ]


def _codes(module: Any) -> list[Any]:
    """The code objects of the module's functions (the alternatives and the $ref targets)."""
    return [f.__code__ for f in vars(module).values() if callable(f) and hasattr(f, "__code__")]


@pytest.mark.parametrize(
    ("tag_schema", "tagged"),
    [
        ({"const": "add", "minLength": 2}, True),
        ({"const": "add", "not": {"const": "sub"}}, True),
        ({"$ref": "#/$defs/add"}, True),
        ({"enum": ["add", "mul"]}, False),
        ({"type": "string", "enum": ["add", 1]}, True),
        ({"allOf": [{"const": "add"}]}, False),
    ],
    ids=["minLength", "not", "$ref", "enum sharing a tag", "enum its type narrows", "allOf"],
)
def test_a_tag_schema_that_asks_more_than_its_constant_is_not_decisive(
    tag_schema: dict[str, Any], tagged: bool
) -> None:
    """Where an alternative's schema of the tag asks more than its constants (or admits
    another alternative's), its checks of the tag may fail: they stay, and the union is
    not decisive."""
    branches = [
        {"type": "object", "properties": {"op": {"const": "mul"}}, "required": ["op"]},
        {"type": "object", "properties": {"op": tag_schema}, "required": ["op"]},
    ]
    parameters = {
        "type": "object",
        "$defs": {"add": {"const": "add", "pattern": "^a"}},
        "properties": {"u": {"oneOf": branches}},
    }
    found = combinator_rules.union_tag(
        parameters, branches, ("properties", "u", "oneOf"), lambda _: False
    )
    assert (found is not None, found is not None and found.decisive) == (tagged, False)
    module = build_module(parameters)
    values = [{"u": {"op": op}} for op in ["add", "mul", "sub", 1, None]]
    assert verdicts_unlike_jsonschema(module, parameters, values) == []


#: The tree at the root of the arguments: the root's own ``$ref`` leads into the union, and
#: each node's children lead back to the root.
ROOTED: dict[str, Any] = {
    "type": "object",
    "$ref": "#/$defs/expr",
    "$defs": {
        **EXPRESSION["$defs"],
        "add": {
            **_operator("add"),
            "properties": {
                **_operator("add")["properties"],
                "left": {"$ref": "#"},
                "right": {"$ref": "#"},
            },
        },
    },
}


def test_a_tree_at_the_root_is_checked_like_one_under_a_key() -> None:
    """The root's ``$ref`` is a step of the recursion too (the unfolding check once took the
    root's one-keyword step for a union's two-keyword one and failed)."""
    module = build_module(ROOTED)
    leaf: dict[str, Any] = {"op": "num", "value": 1}
    leaves: list[Any] = [leaf, {"op": "sub"}, {"value": 1}, [], {"op": "num", "value": "x"}]
    values = [_balanced(size, node) for size in (0, 1, 5) for node in leaves]
    values += [{"op": "mul", "left": leaf, "right": leaf}, {"op": "add", "left": leaf}]
    assert verdicts_unlike_jsonschema(module, ROOTED, values) == []
    # Accepted: the trees of 0, 1 and 5 nodes over num leaves, and the mul node.
    assert sum(module.validate(v).ok for v in values) == 4
