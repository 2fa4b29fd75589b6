"""Every runtime check does work linear in its input, hash flooding included (issue 20, class 3).

Each family of checks gets adversarial inputs of sizes n, 2n and 4n, and
``work_counting.assert_linear`` counts (never times) the work ``validate()`` or ``parse()``
does on them: lines of Python, characters read by C-level string work on the marked
strings, worst-case charges for hashing a key that is not a str and for
``unicodedata.normalize``. Work that grows faster than linearly fails the test.
"""

from __future__ import annotations

import functools
import gc
import json
import re
import sys
import tracemalloc
import types
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

import pytest
from support import CONTEXT, calls_made
from toolshape.contract.checker import FORMATS
from toolshape.project import pipeline
from toolshape.project.runtime import runtime_module
from toolshape.regex.ambiguity import analyse
from work_counting import MAX_GROWTH, Tracked, assert_linear, empty_free_lists, work

#: 2**61 - 1, the modulus of CPython's int hash: its multiples all hash to 0.
MODULUS = 2**61 - 1

CONTRACTS: dict[str, dict[str, Any]] = {
    "strings": {
        "type": "object",
        "properties": {
            "short": {"type": "string", "minLength": 2, "maxLength": 5},
            "long": {"type": "string", "minLength": 1_000_000},
            "blank": {"type": "string", "pattern": "\\S"},
        },
    },
    "formats": {
        "type": "object",
        "properties": {
            name: {"type": "string", "format": name}
            for name in FORMATS  # every asserted format
        },
    },
    "arrays": {
        "type": "object",
        "properties": {
            "a": {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"type": "string"}],
                "items": {"type": "integer", "minimum": 0},
                "contains": {"type": "string"},
                "minContains": 2,
                "maxContains": 3,
                "minItems": 1,
                "maxItems": 10,
            }
        },
    },
    "uniqueItems": {
        "type": "object",
        "properties": {"u": {"type": "array", "uniqueItems": True}},
    },
    "objects": {
        "type": "object",
        "properties": {
            "a": {"type": "integer"},
            "b": {"type": "object", "minProperties": 1, "maxProperties": 2},
            "c": {"type": "string"},
            "d": {"type": "string"},
            "e": {"type": "string"},
            "f": {"type": "string"},
        },
        "required": ["a", "b", "c", "d"],
        "dependentRequired": {"a": ["e"]},
        "dependentSchemas": {"b": {"required": ["f"]}},
        "additionalProperties": False,
        "minProperties": 1,
        "maxProperties": 5,
    },
    "paths": {
        "type": "object",
        "$defs": {
            "n": {"type": "integer"},
            "integers": {"type": "array", "items": {"type": "integer"}},
            "tree": {
                "type": "object",
                "properties": {
                    "v": {"type": "integer"},
                    "kids": {"type": "array", "items": {"$ref": "#/$defs/tree"}},
                },
            },
        },
        "properties": {
            # items that are a $ref'd definition: a call per item, each given its path
            "r": {
                "type": "object",
                "additionalProperties": {"type": "array", "items": {"$ref": "#/$defs/n"}},
            },
            # a $ref'd array: one call, given the path its items' paths extend
            "d": {"type": "object", "additionalProperties": {"$ref": "#/$defs/integers"}},
            # dynamic keys under dynamic keys
            "p": {
                "type": "object",
                "additionalProperties": {
                    "type": "object",
                    "patternProperties": {"^a": {"type": "array", "items": {"type": "integer"}}},
                    "additionalProperties": {"type": "integer"},
                },
            },
            # a recursive $ref: each level's path extends its parent's
            "t": {"$ref": "#/$defs/tree"},
        },
        "additionalProperties": {"type": "array", "items": {"type": "integer"}},
    },
    "keys": {
        "type": "object",
        "properties": {
            "label": {"type": "string"},
            "labels": {"type": "string"},
            "title": {"type": "string"},
            "names": {
                "type": "object",
                "propertyNames": {"minLength": 2, "maxLength": 8},
                "properties": {"first": {"type": "string"}, "last": {"type": "string"}},
                "additionalProperties": False,
            },
        },
        "additionalProperties": False,
    },
    "enum": {
        "type": "object",
        "properties": {
            "e": {"enum": [1, "a", [1, 2], {"x": [1]}, None, True]},
            "c": {"const": {"x": [1, 2.5]}},
            "s": {"enum": ["red", "green", "blue"]},
        },
    },
    "combinators": {
        "type": "object",
        "properties": {
            "any": {
                "anyOf": [
                    {"type": "array", "items": {"type": "integer"}},
                    {"type": "array", "items": {"type": "string"}},
                ]
            },
            "one": {
                "oneOf": [
                    {"type": "array", "items": {"type": "integer"}},
                    {"type": "array", "items": {"type": "number"}},
                ]
            },
            "not": {"not": {"type": "array", "items": {"type": "integer"}}},
            "cond": {
                "if": {"type": "array", "items": {"type": "integer"}},
                "then": {"maxItems": 1},
                "else": {"items": {"type": "string"}},
            },
        },
    },
    "numbers": {
        "type": "object",
        "properties": {
            "cents": {"type": "number", "multipleOf": 0.01},
            "third": {"type": "integer", "multipleOf": 3, "minimum": 0, "maximum": 10**200},
        },
    },
}


@functools.cache
def module(family: str) -> types.ModuleType:
    contract = {
        "name": f"linear_{family.lower()}",
        "description": f"The {family} checks.",
        "parameters": CONTRACTS[family],
    }
    raw = json.dumps(contract).encode()
    return pipeline.generate_module(raw, "x.yaml", PurePosixPath("x.yaml"), CONTEXT).module


def runtime() -> types.ModuleType:
    return runtime_module()


def check_validate(label: str, family: str, make: Callable[[int], Any], base: int) -> None:
    """validate() of make(n) does linear work in n."""
    validator = module(family)

    def call(n: int) -> Callable[[], object]:
        value = make(n)
        return lambda: validator.validate(value).feedback()

    assert_linear(f"{family}: {label}", call, base, validator, runtime())


class _Left:
    """Garbage an earlier test may leave: a cycle whose finalizer runs Python lines."""

    def __init__(self) -> None:
        self.me = self

    def __del__(self) -> None:
        for _ in range(20):
            pass


def test_the_meter_counts_the_call_not_what_a_collection_runs() -> None:
    """A garbage collection inside the counted call would run the finalizers of cycles that
    earlier code left, and count their lines as the call's: the same call then counts more
    work in a full run than alone."""

    def call() -> object:
        return [[] for _ in range(5000)]  # enough new containers to start a collection

    quiet = work(call)
    for _ in range(50):
        _Left()
    assert work(call) == quiet


def _tracer_at_collections(count: Callable[[], object]) -> list[object]:
    """The trace and profile functions set when each collection started while ``count()`` ran
    with the collector at its most eager (a young collection at every allocation)."""
    hooks: list[object] = []

    def started(phase: str, info: object) -> None:
        if phase == "start":
            hooks.extend(hook for hook in (sys.gettrace(), sys.getprofile()) if hook is not None)

    threshold, collecting = gc.get_threshold(), gc.isenabled()
    gc.set_threshold(1)
    gc.enable()
    gc.callbacks.append(started)
    try:
        count()
    finally:
        gc.callbacks.remove(started)
        gc.set_threshold(*threshold)
        if not collecting:
            gc.disable()
    return hooks


@pytest.mark.parametrize(
    "counter",
    [
        lambda: work(lambda: [[] for _ in range(10)]),
        lambda: work(lambda: [[] for _ in range(10)], allocations=True),
        lambda: calls_made(lambda: [[] for _ in range(10)]),
    ],
    ids=["lines", "bytes", "calls"],
)
def test_no_collection_starts_while_a_counter_is_on(counter: Callable[[], object]) -> None:
    """A collection that starts while a counter's trace or profile function is set counts the
    finalizers it runs as the call's work: a collection that began as the count started or
    ended (the collector turned off inside the traced part) added an earlier test's
    finalizer, 9 lines, to one count of a full run and not to the same count alone. At every
    allocation a collection may start: none does while a counter is on."""
    assert _tracer_at_collections(counter) == []


@pytest.mark.parametrize(
    "kind, make",
    [
        ("floats", lambda i: i + 0.5),
        ("tuples", lambda i: (i, -i)),
        ("dicts", lambda i: {}),
        ("lists", lambda i: []),
    ],
    ids=["floats", "tuples", "dicts", "lists"],
)
def test_the_meter_traces_what_a_free_list_would_have_served(
    kind: str, make: Callable[[int], object]
) -> None:
    """CPython keeps the memory of small objects just freed (its free lists) and serves new
    ones from there unallocated, so untraced: empty_free_lists, run before every count of
    bytes, leaves none, however full an earlier test left them."""
    count = 40  # fewer than any of these free lists holds
    for _ in range(3):
        made = [make(i) for i in range(count)]
        del made  # every list of the free list full of them
    empty_free_lists()
    tracemalloc.start()
    try:
        made = [make(i) for i in range(count)]
        traced = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert traced >= count * sys.getsizeof(made[0]), (kind, traced)


def test_the_meter_sees_quadratic_work() -> None:
    """The harness itself: a quadratic scan and a flooded set fail it, a linear one passes."""

    def rescans(n: int) -> Callable[[], object]:
        text = Tracked("{" * n)
        return lambda: [text.find("}", at) for at in range(n)]

    def flooded(n: int) -> Callable[[], object]:
        def fill() -> None:
            seen = runtime().set()
            for i in range(n):
                seen.add(i * MODULUS)

        return fill

    def scans(n: int) -> Callable[[], object]:
        text = Tracked("{" * n)
        return lambda: text.find("}")

    def copies(n: int) -> Callable[[], object]:
        key = "k" * n  # a plain str: only the bytes its copies take show their cost
        return lambda: ["/" + key + "/" + str(i) for i in range(n)]

    def tokens(n: int) -> Callable[[], object]:
        key = "k" * n
        return lambda: [(key, "/") for _ in range(n)]

    for make in (rescans, flooded):
        with pytest.raises(AssertionError, match="each doubling adds"):
            assert_linear("quadratic", make, 200, runtime())
    assert_linear("linear", scans, 200, runtime())
    assert work(lambda: Tracked("abc")[1:], runtime()) > 0
    with pytest.raises(AssertionError, match="each doubling adds"):
        assert_linear("copies", copies, 200, runtime(), allocations=True)
    assert_linear("copies", copies, 200, runtime())  # (lines alone do not see them)
    assert_linear("no copies", tokens, 200, runtime(), allocations=True)


# -- strings ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "label, make",
    [
        ("astral code points over maxLength", lambda n: {"short": Tracked("\U0001f600" * n)}),
        ("combining marks under minLength", lambda n: {"long": Tracked("\u0301" * n)}),
        ("blank string", lambda n: {"blank": Tracked(" \u3000\n" * n)}),
        ("a string holding JSON", lambda n: {"short": Tracked("[" + "1," * n + "1]")}),
    ],
)
def test_strings(label: str, make: Callable[[int], Any]) -> None:
    check_validate(label, "strings", make, 2000)


# -- formats ------------------------------------------------------------------------

FORMAT_INPUTS: list[tuple[str, Callable[[int], str]]] = [
    ("date-time", lambda n: "2024-01-01T" + "0" * n),
    ("date-time", lambda n: "t" * n),
    ("date", lambda n: "2" * n),
    ("time", lambda n: "00:00:00." + "0" * n),
    ("duration", lambda n: "P" + "1" * n + "X"),
    ("duration", lambda n: "P1Y" + "1" * n + "M1DT" + "1" * n),
    ("email", lambda n: "a" * n + "@"),
    ("email", lambda n: '"' + "\\a" * n),
    ("email", lambda n: "a." * n + "@example.com!"),
    ("email", lambda n: "a@[IPv6:" + "1:" * n + "]"),
    ("idn-email", lambda n: "a@" + "\u0301\u0316" * n),
    ("idn-email", lambda n: "\u00e9" * n + "@"),
    ("hostname", lambda n: "a." * n),
    ("idn-hostname", lambda n: "\u00e9." * n),
    ("idn-hostname", lambda n: "\u0301" * n),
    ("ipv4", lambda n: "1." * n),
    ("ipv6", lambda n: "1:" * n),
    ("ipv6", lambda n: "::" + "f" * n),
    ("uri", lambda n: "a:" + "/" * n + "<"),
    ("uri", lambda n: "a://" + "a:" * n + "@"),
    ("uri", lambda n: "a://[" + "1" * n),
    ("uri", lambda n: "a:" + "%" * n),
    ("uri-reference", lambda n: "//" + "a" * n + "<"),
    ("uri-reference", lambda n: "/a" * n + "<"),
    ("iri", lambda n: "a:" + "\u00e9" * n + "<"),
    ("iri-reference", lambda n: "?" + "\u00e9/" * n + "<"),
    ("uri-template", lambda n: "{" * n),
    ("uri-template", lambda n: "{a" * n),
    ("uri-template", lambda n: "{" + "a," * n),
    ("uuid", lambda n: "0" * n),
    ("json-pointer", lambda n: "/~" * n),
    ("relative-json-pointer", lambda n: "1" * n + "~"),
    ("regex", lambda n: "{" * n),
    ("regex", lambda n: "a{1," + "{" * n + "}"),
    ("regex", lambda n: "a{" + "0" * n + "1}"),
    ("regex", lambda n: "a{1," + "9" * n + "}"),
    ("regex", lambda n: "\\" + "1" * n),
    ("regex", lambda n: "()" * n + "\\" + "1" * n),
    ("regex", lambda n: "(?<" + "a" * n),
    ("regex", lambda n: "\\k<" + "a" * n),
    ("regex", lambda n: "(?:a|bb)" * n),
    ("regex", lambda n: "|".join("a" * (i % 7) for i in range(n))),
    ("regex", lambda n: "[" + "a-b" * n + "]"),
    ("regex", lambda n: "\\u{" + "0" * n),
]


@pytest.mark.parametrize(
    "name, make",
    FORMAT_INPUTS,
    ids=[f"{name}-{i}" for i, (name, _) in enumerate(FORMAT_INPUTS)],
)
def test_formats(name: str, make: Callable[[int], str]) -> None:
    check_validate(name, "formats", lambda n: {name: Tracked(make(n))}, 1500)


def test_every_format_has_an_adversarial_input() -> None:
    assert {name for name, _ in FORMAT_INPUTS} == set(CONTRACTS["formats"]["properties"])


# -- arrays -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "label, make",
    [
        ("integers", lambda n: {"a": [1] * n}),
        ("strings", lambda n: {"a": ["x"] * n}),
        ("negative integers", lambda n: {"a": [-1] * n}),
        ("mixed", lambda n: {"a": [1, "x", 1.5, None, [], {}] * n}),
    ],
)
def test_arrays(label: str, make: Callable[[int], Any]) -> None:
    check_validate(label, "arrays", make, 500)


# -- uniqueItems --------------------------------------------------------------------


@pytest.mark.parametrize(
    "label, make",
    [
        ("integers with one hash", lambda n: [i * MODULUS for i in range(n)]),
        ("negative integers with one hash", lambda n: [-i * MODULUS for i in range(n)]),
        ("big integers", lambda n: [10**300 + i * MODULUS for i in range(n)]),
        ("integral floats", lambda n: [float(i * 2**40) for i in range(n)]),
        ("floats", lambda n: [i + 0.5 for i in range(n)]),
        ("arrays of integers", lambda n: [[i * MODULUS] for i in range(n)]),
        ("objects", lambda n: [{"k": i * MODULUS} for i in range(n)]),
        ("one object of many keys", lambda n: [{f"k{i}": 1 for i in range(n)}, 1]),
        ("strings", lambda n: [f"s{i}" for i in range(n)]),
        ("long strings", lambda n: [Tracked("s" * n), Tracked("s" * n + "t")]),
        ("booleans and null", lambda n: [True, False, None] + list(range(n))),
    ],
)
def test_unique_items(label: str, make: Callable[[int], Any]) -> None:
    check_validate(label, "uniqueItems", lambda n: {"u": make(n)}, 500)


def test_unique_items_compares_as_json() -> None:
    """1 equals 1.0, true is not 1, keys are unordered, big integers stay exact."""
    validate = module("uniqueItems").validate
    duplicates = [
        [1, 1.0],
        [{"a": 1, "b": [2]}, {"b": [2.0], "a": 1}],
        [2**53, float(2**53)],
        [10**400, 10**400],
        ["x", "x"],
        [[], []],
        [None, None],
        [-0.0, 0],
    ]
    distinct = [
        [True, 1],
        [False, 0],
        [15, False],
        [2**53 + 1, float(2**53)],
        [{"a": 1}, {"a": True}],
        [[1, 2], [2, 1]],
        ["1", 1],
        [["a,b"], ["a", "b"]],
        [{"a": "b"}, {"a:": "b"}],
        [0.5, 0.25],
        [[], {}],
        ["", []],
    ]
    for items in duplicates:
        assert validate({"u": items}).errors[0].code == "uniqueItems", items
    for items in distinct:
        assert validate({"u": items}).ok, items


# -- objects and keys ---------------------------------------------------------------


@pytest.mark.parametrize(
    "label, make",
    [
        ("many unknown keys", lambda n: {f"k{i}": i for i in range(n)}),
        ("many near misses", lambda n: {f"a{i}": i for i in range(n)}),
        ("one huge unknown key", lambda n: {Tracked("k" * n): 1, "a": 1}),
        ("a long dependent key", lambda n: {"a": 1, "b": {Tracked("x" * n): 1}}),
    ],
)
def test_objects(label: str, make: Callable[[int], Any]) -> None:
    check_validate(label, "objects", make, 500)


@pytest.mark.parametrize(
    "label, make",
    [
        ("many misspelt keys", lambda n: {f"labl{i % 10}" + "x" * (i // 10): 1 for i in range(n)}),
        ("one huge misspelt key", lambda n: {Tracked("labe" + "l" * n): 1}),
        ("a near key of every length", lambda n: {"lab" + "e" * i: 1 for i in range(n)}),
        ("propertyNames over many keys", lambda n: {"names": {f"n{i}": 1 for i in range(n)}}),
        ("propertyNames on a huge key", lambda n: {"names": {Tracked("firs" + "t" * n): 1}}),
    ],
)
def test_keys(label: str, make: Callable[[int], Any]) -> None:
    check_validate(label, "keys", make, 300)


@pytest.mark.parametrize(
    "label, make", [("many keys", lambda n: {f"k{i}": [1.0, "x"] for i in range(n)})]
)
def test_paths(label: str, make: Callable[[int], Any]) -> None:
    check_validate(label, "paths", make, 300)


@pytest.mark.parametrize(
    "label, make",
    [
        ("errors under a long key", lambda n: {"k" * n: ["x"] * n}),
        ("integral floats under a long key", lambda n: {"r": {"k" * n: [1.0] * n}}),
    ],
)
def test_paths_under_a_long_key_hold_memory_linear_in_the_input(
    label: str, make: Callable[[int], Any]
) -> None:
    """Counted in bytes held at the peak (tracemalloc), for a plain key: a ``Tracked`` key is
    not a plain ``str``, and the runtime puts a placeholder in its paths instead."""
    assert_memory_linear(label, make, 500)


def assert_memory_linear(label: str, make: Callable[[int], Any], base: int) -> None:
    """validate(make(n)) holds at most linearly more memory at its peak as n doubles."""
    validator = module("paths")
    peaks = []
    for n in (base, 2 * base, 4 * base):
        value = make(n)
        # Every object the call makes is then traced, whatever ran before it.
        empty_free_lists()
        tracemalloc.start()
        try:
            validator.validate(value)
        finally:
            peaks.append(tracemalloc.get_traced_memory()[1])
            tracemalloc.stop()
    assert peaks[2] - peaks[1] <= MAX_GROWTH * (peaks[1] - peaks[0]), (label, peaks)


def _tree(depth: int, leaf: Any) -> dict[str, Any]:
    """``{"v": leaf, "kids": [{"v": leaf, "kids": [...]}]}``, ``depth`` levels deep."""
    tree: dict[str, Any] = {"v": leaf}
    for _ in range(depth - 1):
        tree = {"v": leaf, "kids": [tree]}
    return tree


#: Inputs whose items' paths (an error's, an integral float's) lie under long dynamic keys or
#: deep nesting, where a path that copied what is above it costs each item the size of the
#: input (issue 20): (label, make, base size: the keys' length and the items' count, or the depth).
PATH_INPUTS: list[tuple[str, Callable[[int], Any], int]] = [
    ("errors under a long key", lambda n: {"k" * n: ["x"] * n}, 500),
    ("integral floats under a long key, items a $ref", lambda n: {"r": {"k" * n: [1.0] * n}}, 500),
    ("integral floats under a long key", lambda n: {"k" * n: [1.0] * n}, 500),
    ("errors under a long key, items a $ref", lambda n: {"r": {"k" * n: ["x"] * n}}, 500),
    ("errors in a $ref'd array under a long key", lambda n: {"d": {"k" * n: ["x"] * n}}, 500),
    (
        "integral floats in a $ref'd array under a long key",
        lambda n: {"d": {"k" * n: [1.0] * n}},
        500,
    ),
    (
        "errors under two long keys (patternProperties)",
        lambda n: {"p": {"k" * n: {"a" * n: ["x"] * n}}},
        500,
    ),
    (
        "integral floats under two long keys (patternProperties)",
        lambda n: {"p": {"k" * n: {"a" * n: [1.0] * n}}},
        500,
    ),
    (
        "errors at many keys under a long key (additionalProperties)",
        lambda n: {"p": {"k" * n: {f"b{i}": "x" for i in range(n)}}},
        500,
    ),
    (
        "integral floats at many keys under a long key (additionalProperties)",
        lambda n: {"p": {"k" * n: {f"b{i}": 1.0 for i in range(n)}}},
        500,
    ),
    ("an error at every level of a recursive $ref", lambda n: {"t": _tree(n, "x")}, 100),
    ("an integral float at every level of a recursive $ref", lambda n: {"t": _tree(n, 1.0)}, 100),
]


@pytest.mark.parametrize(
    "label, make, base", PATH_INPUTS[2:], ids=[label for label, _, _ in PATH_INPUTS[2:]]
)
def test_paths_hold_memory_linear_in_the_input(
    label: str, make: Callable[[int], Any], base: int
) -> None:
    """As above, for the other ways a path grows (the first two rows are the test above's)."""
    assert_memory_linear(label, make, base)


WORK_INPUTS = [
    *PATH_INPUTS,
    # Accepted: nothing is kept, but each item's call is given its path.
    ("integers under a long key, items a $ref", lambda n: {"r": {"k" * n: [1] * n}}, 500),
]


@pytest.mark.parametrize(
    "label, make, base", WORK_INPUTS, ids=[label for label, _, _ in WORK_INPUTS]
)
def test_paths_cost_work_linear_in_the_input(
    label: str, make: Callable[[int], Any], base: int
) -> None:
    """validate() and its feedback: lines run and bytes allocated (a path copied from a
    plain key is C-level work that only the bytes it takes show)."""
    validator = module("paths")

    def call(n: int) -> Callable[[], object]:
        value = make(n)
        return lambda: validator.validate(value).feedback()

    assert_linear(f"paths: {label}", call, base, validator, runtime(), allocations=True)


# -- enum and const -----------------------------------------------------------------


@pytest.mark.parametrize(
    "label, make",
    [
        ("an array of integers with one hash", lambda n: {"e": [i * MODULUS for i in range(n)]}),
        ("an object of many keys", lambda n: {"e": {f"k{i}": i * MODULUS for i in range(n)}}),
        ("nested arrays", lambda n: {"c": {"x": [[i * MODULUS] for i in range(n)]}}),
        ("a long near miss", lambda n: {"s": Tracked("rde" + "d" * n)}),
        ("a long string holding a number", lambda n: {"s": Tracked("1" * n)}),
    ],
)
def test_enum_and_const(label: str, make: Callable[[int], Any]) -> None:
    check_validate(label, "enum", make, 500)


# -- combinators --------------------------------------------------------------------


@pytest.mark.parametrize("key", ["any", "one", "not", "cond"])
@pytest.mark.parametrize(
    "label, make",
    [
        ("floats", lambda n: [1.5] * n),
        ("integers", lambda n: [1] * n),
        ("mixed", lambda n: [1, "x"] * n),
    ],
)
def test_combinators(key: str, label: str, make: Callable[[int], Any]) -> None:
    check_validate(f"{key}: {label}", "combinators", lambda n: {key: make(n)}, 500)


# -- numbers ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "label, make",
    [
        ("a huge integer", lambda n: {"third": 10 ** (n * 10) + 1}),
        ("a huge integer, multipleOf 0.01", lambda n: {"cents": 10 ** (n * 10) + 1}),
        ("a huge float", lambda n: {"cents": 1e300 + n}),
    ],
)
def test_numbers(label: str, make: Callable[[int], Any]) -> None:
    check_validate(label, "numbers", make, 100)


# -- parse() ------------------------------------------------------------------------


PARSE_INPUTS: list[tuple[str, Callable[[int], str]]] = [
    ("truncated array", lambda n: '{"short": [' + "1," * n),
    ("unterminated string of escaped quotes", lambda n: '{"short": "' + '\\"' * n),
    (
        "duplicate key at the end",
        lambda n: "{" + "".join(f'"k{i}": 1, ' for i in range(n)) + '"k0": 1}',
    ),
    ("missing comma at the end", lambda n: '{"short": [' + "1, " * n + "1 2]}"),
    ("long integer", lambda n: '{"short": ' + "1" * (n * 10) + "x}"),
    ("extra data", lambda n: '{"short": "x"}' + " " * n + "x"),
    ("lone surrogate", lambda n: '{"short": "\\ud800' + "x" * n + '"}'),
    ("deep then cut", lambda n: '{"short": ' + "[" * 60 + '"' + "x" * n),
    ("many brackets in strings", lambda n: '{"short": "' + "[{" * n + '"'),
    ("valid", lambda n: json.dumps({"short": "x" * n, "blank": "é" * n})),
]


@pytest.mark.parametrize("label, make", PARSE_INPUTS, ids=[label for label, _ in PARSE_INPUTS])
def test_parse(label: str, make: Callable[[int], str]) -> None:
    parser = module("strings")

    def call(n: int) -> Callable[[], object]:
        text = make(n)
        return lambda: parser.parse(text).feedback()

    assert_linear(f"parse: {label}", call, 2000, parser, runtime())


# -- the runtime's own regular expressions -----------------------------------------

#: How the runtime calls each of its patterns; the lint analyses it that way (a search
#: retries at every start, a fullmatch must reach the end).
SEARCHED = {"_BAD_PERCENT", "_STRUCTURE", "_IDN_DOTS"}
MATCHED = {
    "_SCHEME",
    "_BRACE_END",
    "_LITERAL_RUN",
    "_STRING_RUN",
    "_SPACE_RUN",
    "_NUMBER",
    "_WORD",
    "_HEX4",
}


def _ecma(source: str) -> str:
    """A Python pattern of the runtime in ECMA-262 spelling, for toolshape's parser."""
    source = source.replace("(?P<", "(?<")
    return re.sub(r"\\U([0-9a-fA-F]{8})", lambda m: f"\\u{{{int(m[1], 16):x}}}", source)


def test_the_runtime_patterns_never_backtrack_more_than_linearly() -> None:
    """The work counter charges a regex only what it reads, not its backtracking: the
    backtracking lint shows each of the runtime's patterns (the format grammars, the parse
    layer's scanners) matches in linear time, as it is called: degree 0, not exponential."""
    shared = runtime()
    for check in ("uri-template", "iri", "iri-reference", "uri", "uri-reference", "idn-email"):
        getattr(shared, "_is_" + check.replace("-", "_"))("a:b@c")
        getattr(shared, "_is_" + check.replace("-", "_"))("b@c")
    patterns = {
        name: value for name, value in vars(shared).items() if isinstance(value, re.Pattern)
    }
    patterns.update(shared._GRAMMARS)
    assert {"_DURATION", "_LOCAL_PART", "uri-hier", "iri-relative", "idn-email-local"} <= set(
        patterns
    )
    for name, pattern in sorted(patterns.items()):
        source = _ecma(pattern.pattern)
        if name in SEARCHED:
            anchored = source
        elif name in MATCHED:
            anchored = f"^(?:{source})"
        else:
            anchored = f"^(?:{source})$"
        verdict = analyse(anchored)
        assert verdict.exponential is None and verdict.degree == 0, (name, verdict)
