"""Hostile arguments against every generated module under generated/ (issue 5).

What a model sends, or what a service hands to ``validate()``, is untrusted. For
every generated tool module this file checks that ``validate()`` and ``parse()``

- never raise, whatever they are given: arbitrary JSON values and text
  (hypothesis), arbitrary Python objects (tuples, sets, bytes, dict subclasses
  that raise or lie, str subclasses whose ``__len__``/``__eq__``/``__hash__``
  raise, objects whose ``__class__`` lies, self-containing containers, ...),
  and every valid example with such objects swapped in at every path;
- return a sane ``Result`` whose ``feedback()``, ``log_record()`` (through
  ``json.dumps``), ``repr()`` and ``repr(errors)`` never raise either;
- stay bounded: at most ``MAX_ERRORS`` errors, a feedback text whose size does
  not grow with the input, big inputs (100,000 brackets, 10 MB, 100,000 unknown
  keys, ...) answered without a hang (timings are printed, never asserted);
- never let an ``x-sensitive`` value reach a message, ``feedback()``, a repr,
  ``log_record()`` or an exception, whatever path the failure takes;
- never run a ``pattern`` regex on a string that ``maxLength`` already refused.

It also runs the committed corpus ``tests/corpus/arguments.json``: the failures
models really produce, each with its precise outcome and a feedback phrase that
helps the next attempt.
"""

from __future__ import annotations

import collections
import copy
import decimal
import enum
import fractions
import functools
import importlib
import json
import os
import pickle
import re
import subprocess
import sys
import textwrap
import time
import types
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, note, settings
from hypothesis import strategies as st
from support import ROOT

GENERATED = ROOT / "generated"
CORPUS = Path(__file__).resolve().parent / "corpus" / "arguments.json"

from differential_strategies import paths  # noqa: E402  (every path into a JSON value)

import generated  # noqa: E402  (the dispatch gate; also makes generated.* importable)

STATUSES = ("accept", "reject", "parse_error")
LAYERS = {"accept": None, "reject": "contract", "parse_error": "parse"}
CONTRACT_CODES = {
    "type",
    "required",
    "additionalProperties",
    "enum",
    "const",
    "minLength",
    "maxLength",
    "pattern",
    "minimum",
    "maximum",
    "exclusiveMinimum",
    "exclusiveMaximum",
    "multipleOf",
    "minItems",
    "maxItems",
    "uniqueItems",
    "minProperties",
    "maxProperties",
    "false",
    "unreadable",
}
PARSE_CODES = {
    "empty",
    "truncated",
    "syntax",
    "duplicate_key",
    "non_finite",
    "too_large",
    "too_deep",
    "encoding",
    "not_text",
}


def _keys_anywhere(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for item in value.values() for k in _keys_anywhere(item)}
    if isinstance(value, list):
        return {k for item in value for k in _keys_anywhere(item)}
    return set()


@functools.cache
def _contract_codes(module_name: str) -> frozenset[str]:
    """A contract-layer code is the keyword that failed: one the schema uses (or one of the README's)."""
    return frozenset(CONTRACT_CODES | _keys_anywhere(sys.modules[module_name].INPUT_SCHEMA))


def contract_codes(module: types.ModuleType) -> frozenset[str]:
    return _contract_codes(module.__name__)


def _module_names() -> list[str]:
    names = []
    for path in sorted(GENERATED.rglob("*.py")):
        relative = path.relative_to(GENERATED)
        if (
            "__pycache__" in relative.parts
            or relative.parts[0] == "tests"
            or path.name == "__init__.py"
        ):
            continue
        if relative.as_posix() == "_runtime.py":  # what the tool modules share: not a tool
            continue
        names.append(".".join(("generated",) + relative.with_suffix("").parts))
    return names


def runtime(module: types.ModuleType) -> types.ModuleType:
    """The shared runtime a generated module imports (its limits live there)."""
    return sys.modules[module.Error.__module__]


MODULE_NAMES = _module_names()
MODULES = {name: importlib.import_module(name) for name in MODULE_NAMES}
BY_TOOL = {module.TOOL_NAME: module for module in MODULES.values()}
IDS = [name.removeprefix("generated.") for name in MODULE_NAMES]


def _test_module_of(module_name: str) -> types.ModuleType:
    parts = module_name.split(".")
    return importlib.import_module(
        ".".join(["generated", "tests", *parts[1:-1], "test_" + parts[-1]])
    )


def _valid_instance(module_name: str) -> Any:
    """An accepted instance: the generated tests' first accepted derived case (most keys filled)."""
    tests = _test_module_of(module_name)
    for _, changes, errors in tests.CASES:
        if not errors:
            return tests.arguments(changes)
    for _, via, data, status, _ in tests.EXAMPLES:
        if via == "args" and status == "accept":
            return data
    raise AssertionError(f"no accepted instance for {module_name}")


VALID = {name: _valid_instance(name) for name in MODULE_NAMES}


def _schema_keys(schema: Any, found: set[str] | None = None) -> set[str]:
    """Every property name at any depth of a schema (to steer generated objects into the contract)."""
    found = set() if found is None else found
    if isinstance(schema, dict):
        for key, sub in schema.get("properties", {}).items():
            found.add(key)
            _schema_keys(sub, found)
        for keyword in ("items", "additionalProperties"):
            _schema_keys(schema.get(keyword), found)
    return found


def _replace(value: Any, path: tuple, new: Any) -> Any:
    """A copy of ``value`` with ``new`` at ``path`` (the containers on the way are copied)."""
    if not path:
        return new
    head, rest = path[0], path[1:]
    copied = list(value) if isinstance(value, list) else dict(value)
    copied[head] = _replace(value[head], rest, new)
    return copied


def _pointer(path: tuple) -> str:
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


# -- The sanity of one Result --------------------------------------------------------

#: feedback() lists at most MAX_ERRORS problems, each on a line of bounded length: its
#: size must not grow with the input. 1,000 characters a line leaves room for every
#: message these contracts produce (the longest lists the allowed keys of create_event).
FEEDBACK_LINE = 1_000


def feedback_bound(module: types.ModuleType) -> int:
    return 10_000 + runtime(module).MAX_ERRORS * FEEDBACK_LINE


def check_result(
    module: types.ModuleType, result: Any, sent: Any = ..., *, via: str = "validate"
) -> tuple[str, str, str]:
    """Assert that a Result is sane; return (feedback, json of log_record, reprs)."""
    assert type(result) is module.Result, f"not a Result: {type(result)!r}"
    status = result.status
    assert status in STATUSES
    assert result.ok is (status == "accept")
    assert result.layer == LAYERS[status]
    errors = result.errors
    assert type(errors) is tuple
    assert len(errors) <= runtime(module).MAX_ERRORS
    if status == "accept":
        assert errors == ()
    else:
        assert len(errors) >= 1
    for error in errors:
        assert type(error) is module.Error
        assert type(error.path) is str and type(error.code) is str and type(error.message) is str
        assert error.path == "" or error.path.startswith("/")
        assert error.code in (PARSE_CODES if status == "parse_error" else contract_codes(module)), (
            error.code
        )
    if status == "parse_error":
        assert result.value is None
        assert len(errors) == 1 and errors[0].path == ""
    elif via == "validate" and sent is not ...:
        # The very value it was given, but for an accepted one with integral floats where
        # the contract says integer: a copy, equal to it, with those as ints.
        assert result.value is sent or (status == "accept" and result.value == sent), (
            "validate() must hand back the very value it was given"
        )
    feedback = result.feedback()
    assert type(feedback) is str and feedback
    assert len(feedback) <= feedback_bound(module), f"feedback() is {len(feedback)} characters"
    record = result.log_record()
    assert type(record) is dict
    assert (
        record["status"] == status
        and record["layer"] == result.layer
        and record["tool"] == module.TOOL_NAME
    )
    # log_record() shortens long paths (README): compare what it keeps.
    limit = runtime(module).MAX_LOGGED_CHARS
    assert [(e["path"][:limit], e["code"]) for e in record["errors"]] == [
        (e.path[:limit], e.code) for e in errors
    ]
    logged = json.dumps(record)
    reprs = repr(result) + repr(result.errors) + "".join(repr(e) for e in errors)
    return feedback, logged, reprs


def run_validate(module: types.ModuleType, value: Any) -> tuple[Any, tuple[str, str, str]]:
    result = module.validate(value)
    return result, check_result(module, result, value)


def run_parse(module: types.ModuleType, text: Any) -> tuple[Any, tuple[str, str, str]]:
    result = module.parse(text)
    return result, check_result(module, result, via="parse")


# -- Hostile Python objects ------------------------------------------------------------


class Hostile(Exception):
    """What every hostile method raises."""


def _boom(*args: Any, **kwargs: Any) -> Any:
    raise Hostile("hostile method called")


class RaisesOnEverything:
    """An object whose every special method raises."""

    __eq__ = __ne__ = __lt__ = __gt__ = __le__ = __ge__ = _boom
    __hash__ = __len__ = __iter__ = __contains__ = __getitem__ = __bool__ = _boom  # type: ignore[assignment]
    __repr__ = __str__ = __format__ = __index__ = __int__ = __float__ = _boom  # type: ignore[assignment]

    def __getattr__(self, name: str) -> Any:
        raise Hostile(name)


class HashableButRaises:
    """Usable as a dict key (hash works) but its __eq__, __str__ and __repr__ raise."""

    def __hash__(self) -> int:
        return 7

    __eq__ = __str__ = __repr__ = __format__ = _boom  # type: ignore[assignment]


class ClassRaises:
    """isinstance() consults __class__: this one raises."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise Hostile("__class__")


def _liar(kind: type) -> type:
    class Liar:
        @property  # type: ignore[misc]
        def __class__(self) -> type:
            return kind

    Liar.__name__ = f"ClaimsToBe{kind.__name__.title()}"
    return Liar


class NameRaisesMeta(type):
    """A metaclass whose classes have a __name__ that raises (type(x).__name__ raises)."""

    @property
    def __name__(cls) -> str:  # type: ignore[override]
        raise Hostile("__name__")


class Nameless(metaclass=NameRaisesMeta):
    pass


class ReprRaisesMeta(type):
    __repr__ = _boom  # type: ignore[assignment]


class ClassWithRaisingRepr(metaclass=ReprRaisesMeta):
    pass


class EvilStr(str):
    """A str whose methods raise (the value itself is a fine string)."""

    __len__ = __eq__ = __ne__ = __iter__ = __getitem__ = __contains__ = _boom  # type: ignore[assignment]
    __repr__ = __str__ = __format__ = __lt__ = __gt__ = _boom  # type: ignore[assignment]
    lstrip = strip = rstrip = isspace = encode = replace = startswith = endswith = _boom  # type: ignore[assignment]
    isascii = isidentifier = lower = upper = split = find = count = _boom  # type: ignore[assignment]

    def __hash__(self) -> int:
        raise Hostile("hash")


class ArmedStr(str):
    """A str that hashes and compares like a str until ARMED, then raises (usable as a dict key)."""

    ARMED = False

    def __hash__(self) -> int:
        if ArmedStr.ARMED:
            raise Hostile("hash")
        return str.__hash__(self)

    def __eq__(self, other: object) -> bool:
        if ArmedStr.ARMED:
            raise Hostile("eq")
        return str.__eq__(self, other)

    def __str__(self) -> str:
        if ArmedStr.ARMED:
            raise Hostile("str")
        return str.__str__(self)

    __repr__ = __str__  # type: ignore[assignment]


class EvilInt(int):
    __eq__ = __lt__ = __le__ = __gt__ = __ge__ = __mod__ = __rmod__ = __mul__ = __rmul__ = _boom  # type: ignore[assignment]
    __hash__ = __repr__ = __str__ = __index__ = __float__ = __bool__ = _boom  # type: ignore[assignment]


class EvilFloat(float):
    __eq__ = __lt__ = __le__ = __gt__ = __ge__ = __repr__ = __str__ = is_integer = _boom  # type: ignore[assignment]
    __hash__ = _boom  # type: ignore[assignment]


class Colour(enum.IntEnum):
    RED = 1


class StrColour(str, enum.Enum):
    C = "c"


def _dict_subclass(name: str, **methods: Callable[..., Any]) -> type:
    return type(name, (dict,), methods)


def _infinite_ghosts(self: Any) -> Iterator[str]:
    yield from ("ghost",) * 500


DICT_SUBCLASSES: dict[str, type] = {
    "getitem raises": _dict_subclass("GetitemRaises", __getitem__=_boom),
    "contains raises": _dict_subclass("ContainsRaises", __contains__=_boom),
    "iter raises": _dict_subclass("IterRaises", __iter__=_boom),
    "keys/items/values/get raise": _dict_subclass(
        "KeysRaise", keys=_boom, items=_boom, values=_boom, get=_boom
    ),
    "len raises": _dict_subclass("LenRaises", __len__=_boom),
    "eq/hash/repr raise": _dict_subclass(
        "EqRaises", __eq__=_boom, __hash__=_boom, __repr__=_boom, __str__=_boom
    ),
    "contains lies (always True)": _dict_subclass(
        "ContainsLies", __contains__=lambda self, key: True
    ),
    "getitem lies (hostile value)": _dict_subclass(
        "GetitemLies", __getitem__=lambda self, key: RaisesOnEverything()
    ),
    "iter lies (ghost keys)": _dict_subclass(
        "IterLies", __iter__=_infinite_ghosts, keys=_infinite_ghosts
    ),
    "items lies (3-tuples)": _dict_subclass("ItemsLie", items=lambda self: [(1, 2, 3)]),
    "len lies (0)": _dict_subclass("LenLiesZero", __len__=lambda self: 0),
    "len lies (huge)": _dict_subclass("LenLiesHuge", __len__=lambda self: 10**18),
    "len lies (negative)": _dict_subclass("LenLiesNegative", __len__=lambda self: -1),
}


class ListRaises(list):
    __iter__ = __len__ = __getitem__ = __contains__ = __eq__ = __repr__ = _boom  # type: ignore[assignment]


def _deep_list(depth: int) -> list:
    top: list = []
    node = top
    for _ in range(depth):
        child: list = []
        node.append(child)
        node = child
    return top


def _deep_dict(depth: int) -> dict:
    top: dict = {}
    node = top
    for _ in range(depth):
        child: dict = {}
        node["a"] = child
        node = child
    return top


DEEP_LIST = _deep_list(100_000)
DEEP_DICT = _deep_dict(100_000)


def _generator() -> Iterator[int]:
    yield 1


def hostile_objects() -> list[tuple[str, Any]]:
    """Fresh hostile objects (some are stateful, so build them anew for each use)."""
    self_list: list = [1]
    self_list.append(self_list)
    self_dict: dict = {"a": 1}
    self_dict["self"] = self_dict
    armed_key = {ArmedStr("city"): "x", ArmedStr("k"): 1}
    return [
        ("tuple", (1, "a")),
        ("empty tuple", ()),
        ("set", {1, 2}),
        ("frozenset", frozenset({"a"})),
        ("bytes", b'{"a": 1}'),
        ("bytearray", bytearray(b"abc")),
        ("memoryview", memoryview(b"abc")),
        ("complex", 1 + 2j),
        ("Decimal", decimal.Decimal("1.50")),
        ("Decimal NaN", decimal.Decimal("NaN")),
        ("Fraction", fractions.Fraction(1, 3)),
        ("object()", object()),
        ("a class", int),
        ("type", type),
        ("a function", lambda: 0),
        ("a builtin", len),
        ("a generator", _generator()),
        ("a range", range(3)),
        ("a module", json),
        ("Ellipsis", ...),
        ("NotImplemented", NotImplemented),
        ("an exception", ValueError("x")),
        ("defaultdict", collections.defaultdict(list)),
        ("defaultdict of hostile", collections.defaultdict(RaisesOnEverything, {"a": 1})),
        ("OrderedDict", collections.OrderedDict(a=1)),
        ("ChainMap", collections.ChainMap({"a": 1})),
        ("UserDict", collections.UserDict(a=1)),
        ("MappingProxy", types.MappingProxyType({"a": 1})),
        ("SimpleNamespace", types.SimpleNamespace(a=1)),
        ("int subclass", EvilInt(5)),
        ("float subclass", EvilFloat(5.0)),
        ("IntEnum", Colour.RED),
        ("str Enum", StrColour.C),
        ("True", True),
        ("False", False),
        ("NaN", float("nan")),
        ("inf", float("inf")),
        ("-inf", float("-inf")),
        ("-0.0", -0.0),
        ("5e-324", 5e-324),
        ("1.7976931348623157e308", 1.7976931348623157e308),
        ("huge int", 10**5000),
        ("huge negative int", -(10**4400)),
        ("2**64", 2**64),
        ("str subclass that raises", EvilStr("DE89370400440532013000")),
        ("empty str subclass that raises", EvilStr("")),
        ("raises on everything", RaisesOnEverything()),
        ("hashable, eq/str/repr raise", HashableButRaises()),
        ("__class__ raises", ClassRaises()),
        ("claims to be a dict", _liar(dict)()),
        ("claims to be a list", _liar(list)()),
        ("claims to be a str", _liar(str)()),
        ("claims to be an int", _liar(int)()),
        ("type(x).__name__ raises", Nameless()),
        ("a class whose repr raises", ClassWithRaisingRepr),
        ("list that raises", ListRaises([1, 2])),
        ("list containing itself", self_list),
        ("dict containing itself", self_dict),
        ("list nested 100,000 deep", DEEP_LIST),
        ("dict nested 100,000 deep", DEEP_DICT),
        ("dict with non-str keys", {1: "a", None: "b", (1, 2): "c", frozenset(): "d", 1.5: "e"}),
        ("dict with a key whose eq/str/repr raise", {HashableButRaises(): 1}),
        ("dict with keys that raise once armed", armed_key),
        ("a 1 MB string", "x" * 1_000_000),
        ("a string with a lone surrogate", "a\ud800b"),
        ("a string with NUL", "a\x00b"),
    ] + [(f"dict subclass: {label}", cls({"a": 1})) for label, cls in DICT_SUBCLASSES.items()]


@pytest.fixture(autouse=True)
def _disarm() -> Iterator[None]:
    ArmedStr.ARMED = False
    yield
    ArmedStr.ARMED = False


def _call_validate(module: types.ModuleType, value: Any, label: str) -> None:
    ArmedStr.ARMED = True
    try:
        try:
            result = module.validate(value)
        except Exception as exc:
            raise AssertionError(f"{label}: validate() raised {exc!r}"[:300]) from exc
        try:
            check_result(module, result, value)
        except AssertionError:
            raise
        except (
            Exception
        ) as exc:  # raised inside feedback(), log_record(), json.dumps(log_record()) or a repr
            raise AssertionError(
                f"{label}: a Result method (or json.dumps of log_record()) raised {exc!r}"[:300]
            ) from exc
    finally:
        ArmedStr.ARMED = False


# -- 1. validate(): arbitrary Python objects ---------------------------------------------


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@pytest.mark.parametrize("label", [label for label, _ in hostile_objects()])
def test_validate_survives_a_hostile_object_as_the_arguments(module_name: str, label: str) -> None:
    module = MODULES[module_name]
    value = dict(hostile_objects())[label]
    _call_validate(module, value, label)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_validate_survives_hostile_objects_at_every_path_of_a_valid_instance(
    module_name: str,
) -> None:
    module = MODULES[module_name]
    base = VALID[module_name]
    assert module.validate(copy.deepcopy(base)).status == "accept"
    failures = []
    for path in list(paths(base))[
        1:
    ]:  # the root: test_validate_survives_a_hostile_object_as_the_arguments
        for label, obj in hostile_objects():
            try:
                _call_validate(module, _replace(base, path, obj), f"{label} at {_pointer(path)!r}")
            except AssertionError as exc:
                failures.append(str(exc).splitlines()[0])
    assert not failures, f"{len(failures)} failures, e.g.:\n" + "\n".join(
        sorted(set(failures))[:30]
    )


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_validate_survives_dict_subclasses_and_hostile_keys_in_place_of_every_object(
    module_name: str,
) -> None:
    module = MODULES[module_name]
    base = VALID[module_name]
    failures = []
    objects = [path for path in paths(base) if isinstance(_get(base, path), dict)]
    assert objects, "the valid instance has no object?"
    for path in objects:
        content = _get(base, path)
        variants: list[tuple[str, Any]] = [
            (f"dict subclass: {label}", cls(content)) for label, cls in DICT_SUBCLASSES.items()
        ]
        variants += [
            ("defaultdict", collections.defaultdict(RaisesOnEverything, content)),
            ("OrderedDict", collections.OrderedDict(content)),
            ("with a hostile extra key", {**content, HashableButRaises(): 1}),
            ("with armed str keys", {ArmedStr(k): v for k, v in content.items()}),
            ("with an extra int key", {**content, 1: 1}),
            ("with an extra None key", {**content, None: 1}),
            ("with an extra tuple key", {**content, (1, 2): 1}),
            ("with a hostile extra value", {**content, "zz_unknown": RaisesOnEverything()}),
            ("with an armed str extra key", {**content, ArmedStr("zz"): 1}),
        ]
        for label, variant in variants:
            before = dict.copy(variant) if isinstance(variant, collections.defaultdict) else None
            try:
                _call_validate(
                    module, _replace(base, path, variant), f"{label} at {_pointer(path)!r}"
                )
            except AssertionError as exc:
                failures.append(str(exc).splitlines()[0])
            if before is not None:
                assert dict.copy(variant) == before, "validate() inserted keys into a defaultdict"
    assert not failures, f"{len(failures)} failures, e.g.:\n" + "\n".join(
        sorted(set(failures))[:30]
    )


def _get(value: Any, path: tuple) -> Any:
    for step in path:
        value = value[step]
    return value


def test_validate_never_iterates_a_dict_subclass_forever() -> None:
    """A dict subclass whose __iter__ never ends must not hang validate() (run in a child, with a timeout)."""
    code = textwrap.dedent("""
        import itertools, sys
        sys.path.insert(0, sys.argv[1])
        from generated import get_weather as m

        class Endless(dict):
            def __iter__(self):
                return itertools.cycle(["city", "unit"])
            keys = __iter__

        result = m.validate(Endless(city="Paris", unit="c", extra=1))
        print(result.status)
        """)
    _run_child(code, "validate() of a dict subclass whose __iter__ never ends")


def _run_child(code: str, what: str, timeout: float = 15.0) -> str:
    try:
        done = subprocess.run(
            [sys.executable, "-c", code, str(ROOT)], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"hang: {what} did not finish within {timeout:.0f} s (killed)")
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


# -- 2. validate(): arbitrary JSON values (hypothesis) -----------------------------------

#: Large integers, up to the 4,300 digits that repr() (and so hypothesis' own reports) can print;
#: the 5,000-digit ones are among the hostile objects (test_log_record_of_a_huge_integer_...).
HUGE_INTS = st.sampled_from([10**4299, -(10**4299), 2**63, -(2**63) - 1, 2**1024])
FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [-0.0, 0.0, 5e-324, 1e308, float("nan")]
)
ANY_TEXT = st.text(
    alphabet=st.characters(codec=None, exclude_categories=())
    | st.characters(categories=["Cs", "Cc", "Cf", "Zl", "Zp"]),
    max_size=20,
)


def json_values(keys: list[str]) -> st.SearchStrategy[Any]:
    """Arbitrary JSON values; objects use the contract's own keys half of the time."""
    key = st.sampled_from(keys) | ANY_TEXT if keys else ANY_TEXT
    leaf = st.none() | st.booleans() | st.integers() | HUGE_INTS | FLOATS | ANY_TEXT
    return st.recursive(
        leaf,
        lambda children: (
            st.lists(children, max_size=6) | st.dictionaries(key, children, max_size=8)
        ),
        max_leaves=40,
    )


#: Examples per module and property; raise TOOLSHAPE_HOSTILE_EXAMPLES for a deeper search.
EXAMPLES = int(os.environ.get("TOOLSHAPE_HOSTILE_EXAMPLES", "120"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_validate_survives_arbitrary_json(module_name: str, data: st.DataObject) -> None:
    module = MODULES[module_name]
    keys = sorted(_schema_keys(module.INPUT_SCHEMA))
    value = data.draw(json_values(keys), label="value")
    snapshot = pickle.dumps(value)
    run_validate(module, value)
    assert pickle.dumps(value) == snapshot, "validate() changed its input"


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_validate_survives_arbitrary_json_at_any_path_of_a_valid_instance(
    module_name: str, data: st.DataObject
) -> None:
    module = MODULES[module_name]
    base = VALID[module_name]
    keys = sorted(_schema_keys(module.INPUT_SCHEMA))
    path = data.draw(st.sampled_from(list(paths(base))), label="path")
    value = data.draw(json_values(keys), label="value")
    mutated = _replace(base, path, value)
    if data.draw(st.booleans(), label="add an unknown key"):
        mutated = (
            {**mutated, data.draw(ANY_TEXT, label="key"): value}
            if isinstance(mutated, dict)
            else mutated
        )
    run_validate(module, mutated)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_validate_survives_hostile_objects_anywhere_in_json(
    module_name: str, data: st.DataObject
) -> None:
    # The root and the 5,000-digit integers have tests of their own (..._as_the_arguments,
    # ..._huge_integer_...): left out here, so that this search looks for something new.
    module = MODULES[module_name]
    base = VALID[module_name]
    objects = [(label, obj) for label, obj in hostile_objects() if not label.startswith("huge")]
    path = data.draw(st.sampled_from(list(paths(base))[1:]), label="path")
    # Draw an index: hypothesis itself would call the hostile objects' methods (repr, hash).
    label, obj = objects[data.draw(st.integers(0, len(objects) - 1), label="object index")]
    note(f"object: {label}")
    wrap = data.draw(
        st.sampled_from(["bare", "in a list", "in a dict", "as a dict key"]), label="wrap"
    )
    if wrap == "in a list":
        obj = [obj]
    elif wrap == "in a dict":
        obj = {"zz": obj}
    elif wrap == "as a dict key":
        try:
            obj = {obj: 1}
        except Exception:
            assume(False)
    _call_validate(module, _replace(base, path, obj), f"{label} ({wrap}) at {_pointer(path)!r}")


# -- 3. parse(): arbitrary text, bytes and non-text --------------------------------------


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(
    text=st.text(
        alphabet=st.characters(codec=None, exclude_categories=())
        | st.characters(categories=["Cs", "Cc"])
    )
)
def test_parse_survives_arbitrary_text(module_name: str, text: str) -> None:
    run_parse(MODULES[module_name], text)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(raw=st.binary(max_size=200))
def test_parse_survives_arbitrary_bytes(module_name: str, raw: bytes) -> None:
    module = MODULES[module_name]
    run_parse(module, raw)
    run_parse(module, bytearray(raw))


JSONISH = st.text(alphabet='{}[]":,0123456789.eE-+ \\/untrflsabcN\t\n\u2028\ud800\x00', max_size=80)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_parse_survives_json_like_and_damaged_json_text(
    module_name: str, data: st.DataObject
) -> None:
    module = MODULES[module_name]
    base = json.dumps(VALID[module_name], ensure_ascii=data.draw(st.booleans(), label="ascii"))
    how = data.draw(st.sampled_from(["jsonish", "cut", "splice", "delete", "wrap"]), label="how")
    if how == "jsonish":
        text = data.draw(JSONISH, label="text")
    elif how == "cut":
        text = base[: data.draw(st.integers(0, len(base)), label="at")]
    elif how == "splice":
        at = data.draw(st.integers(0, len(base)), label="at")
        text = base[:at] + data.draw(JSONISH, label="insert") + base[at:]
    elif how == "delete":
        at = data.draw(st.integers(0, len(base)), label="at")
        text = base[:at] + base[at + data.draw(st.integers(1, 5), label="n") :]
    else:
        text = data.draw(
            st.sampled_from(["[%s]", '"%s"', "```json\n%s\n```", "%s%s", "%s,", "// c\n%s"]),
            label="w",
        )
        text = text.replace("%s", base)
    run_parse(module, text)
    run_parse(module, text.encode("utf-8", "surrogatepass"))


def _unknown_keys_text(n: int) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

    def name(i: int) -> str:
        out = "q"
        while True:
            i, r = divmod(i, len(alphabet))
            out += alphabet[r]
            if not i:
                return out

    return "{" + ",".join(f'"{name(i)}":0' for i in range(n)) + "}"


#: Measured wall-clock times of the big inputs, printed at the end of this file's run.
TIMINGS: dict[str, float] = {}


@functools.cache
def _big_inputs() -> tuple[tuple[str, Any], ...]:
    return (
        ("100,000 nested [", "[" * 100_000),
        ("100,000 nested [ closed", "[" * 100_000 + "]" * 100_000),
        ('100,000 nested {"a":', '{"a":' * 100_000),
        ("10 MB string", '"' + "x" * 10_000_000 + '"'),
        ("10 MB of bytes", b"[" + b"1," * 5_000_000 + b"1]"),
        ("5,000-digit integer", '{"a": ' + "9" * 5000 + "}"),
        ("5,000-digit integer, bytes", ("[" + "7" * 5000 + "]").encode()),
        ("4,300-digit integer", '{"a": ' + "9" * 4300 + "}"),
        ("1e999999", '{"a": 1e999999}'),
        ("-1e999999", "-1e999999"),
        ("1e-999999", '{"a": 1e-999999}'),
        ("lone surrogate (str)", '{"a": "\ud800"}'),
        ("lone low surrogate (str)", "\udc80"),
        ("lone surrogate as an escape", '{"a": "\\ud800"}'),
        ("surrogate pair as escapes", '{"a": "\\ud83d\\ude00"}'),
        ("UTF-8 BOM (bytes)", b'\xef\xbb\xbf{"a": 1}'),
        ("BOM (str)", '\ufeff{"a": 1}'),
        ("invalid UTF-8", b'{"a": "\xff\xfe"}'),
        ("overlong UTF-8", b'{"a": "\xc0\xaf"}'),
        ("UTF-8-encoded surrogate", b'{"a": "\xed\xa0\x80"}'),
        ("NUL bytes", b"\x00\x00\x00"),
        ("NUL in a string (raw)", '{"a": "\x00"}'),
        ("NUL escaped", '{"a": "\\u0000"}'),
        ("only NUL", "\x00"),
        ("100,000 unknown keys", _unknown_keys_text(100_000)),
        ("depth 64", "[" * 64 + "]" * 64),
        ("depth 65", "[" * 65 + "]" * 65),
        ("object depth 64", '{"a":' * 63 + "{}" + "}" * 63),
        ("object depth 65", '{"a":' * 64 + "{}" + "}" * 64),
        ("brackets inside a string", '{"a": "' + "[" * 100_000 + '"}'),
        ("just over 1 MiB of spaces", " " * (1_048_577)),
        ("1 MiB of multi-byte text", '"' + "é" * 524_300 + '"'),
        ("None", None),
        ("42", 42),
        ("a list", ['{"a": 1}']),
        ("a dict", {"a": 1}),
        ("bytearray", bytearray(b'{"a": 1}')),
        ("memoryview", memoryview(b'{"a": 1}')),
        ("a str subclass that raises", EvilStr('{"a": 1}')),
        ("a bytes subclass whose __len__ raises", type("B", (bytes,), {"__len__": _boom})(b"{}")),
        (
            "a bytes subclass whose __getitem__ raises",
            type("B", (bytes,), {"__getitem__": _boom})(b"{}"),
        ),
        (
            "a bytes subclass whose __bytes__ raises",
            type("B", (bytes,), {"__bytes__": _boom})(b"{}"),
        ),
        ("__class__ raises", ClassRaises()),
        ("claims to be a str", _liar(str)()),
        ("claims to be bytes", _liar(bytes)()),
        ("type(x).__name__ raises", Nameless()),
        ("raises on everything", RaisesOnEverything()),
    )


BIG_LABELS = [label for label, _ in _big_inputs()]


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@pytest.mark.parametrize("label", BIG_LABELS)
def test_parse_survives_big_and_strange_input(module_name: str, label: str) -> None:
    module = MODULES[module_name]
    text = dict(_big_inputs())[label]
    started = time.perf_counter()
    try:
        result = module.parse(text)
    except Exception as exc:
        raise AssertionError(f"parse() raised {exc!r} for {label}") from exc
    elapsed = time.perf_counter() - started
    TIMINGS[f"parse: {label}"] = max(TIMINGS.get(f"parse: {label}", 0.0), elapsed)
    try:
        check_result(module, result, via="parse")
    except Hostile as exc:
        raise AssertionError(f"a Result method raised {exc!r} for {label}") from exc
    if type(text) not in (str, bytes, bytearray):
        assert result.status == "parse_error" and result.errors[0].code == "not_text"


EXPECTED_PARSE_CODES = {
    "100,000 nested [": "too_deep",
    "100,000 nested [ closed": "too_deep",
    "10 MB string": "too_large",
    "10 MB of bytes": "too_large",
    "5,000-digit integer": "too_large",
    "5,000-digit integer, bytes": "too_large",
    "1e999999": "too_large",
    "-1e999999": "too_large",
    "lone surrogate (str)": "encoding",
    "lone low surrogate (str)": "encoding",
    "lone surrogate as an escape": "encoding",
    "UTF-8 BOM (bytes)": "encoding",
    "BOM (str)": "encoding",
    "invalid UTF-8": "encoding",
    "overlong UTF-8": "encoding",
    "UTF-8-encoded surrogate": "encoding",
    "NUL bytes": "syntax",
    "NUL in a string (raw)": "syntax",
    "only NUL": "syntax",
    "depth 65": "too_deep",
    "object depth 65": "too_deep",
    "just over 1 MiB of spaces": "too_large",
    "1 MiB of multi-byte text": "too_large",
}


@pytest.mark.parametrize(("label", "code"), sorted(EXPECTED_PARSE_CODES.items()))
def test_parse_codes_of_strange_input(label: str, code: str) -> None:
    module = MODULES["generated.get_weather"]
    result = module.parse(dict(_big_inputs())[label])
    assert result.status == "parse_error"
    assert [e.code for e in result.errors] == [code], result.errors


@pytest.mark.parametrize(
    "label",
    [
        "depth 64",
        "object depth 64",
        "4,300-digit integer",
        "NUL escaped",
        "1e-999999",
        "surrogate pair as escapes",
    ],
)
def test_parse_accepts_what_is_within_the_limits(label: str) -> None:
    result = MODULES["generated.get_weather"].parse(dict(_big_inputs())[label])
    assert result.status == "reject", result.errors  # JSON, just not get_weather's arguments


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_100000_unknown_keys_are_capped(module_name: str) -> None:
    module = MODULES[module_name]
    text = _unknown_keys_text(100_000)
    assert len(text.encode()) <= runtime(module).MAX_TEXT_BYTES
    started = time.perf_counter()
    result = module.parse(text)
    TIMINGS["parse: 100,000 unknown keys (" + module.TOOL_NAME + ")"] = (
        time.perf_counter() - started
    )
    check_result(module, result, via="parse")
    assert result.status == "reject"
    assert len(result.errors) <= runtime(module).MAX_ERRORS
    value = {f"unknown{i}": i for i in range(100_000)}
    started = time.perf_counter()
    result = module.validate(value)
    TIMINGS["validate: 100,000 unknown keys (" + module.TOOL_NAME + ")"] = (
        time.perf_counter() - started
    )
    check_result(module, result, value)
    assert len(result.errors) <= runtime(module).MAX_ERRORS
    if module.INPUT_SCHEMA.get("additionalProperties") is False:
        assert len(result.errors) == runtime(module).MAX_ERRORS
        assert "only the first" in result.feedback()


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_feedback_does_not_grow_with_the_length_of_unknown_keys(module_name: str) -> None:
    """100 unknown keys of 100,000 characters: the feedback must stay about as long as for short keys."""
    module = MODULES[module_name]
    if module.INPUT_SCHEMA.get("additionalProperties") is not False:
        pytest.skip("the contract allows extra keys at the top level")
    base = VALID[module_name]
    short = module.validate({**base, **{f"k{i}": 1 for i in range(100)}})
    long_keys = {f"k{i}" + "x" * 100_000: 1 for i in range(100)}
    started = time.perf_counter()
    long = module.validate({**base, **long_keys})
    TIMINGS["validate: 100 unknown keys of 100,000 characters (" + module.TOOL_NAME + ")"] = (
        time.perf_counter() - started
    )
    assert len(long.errors) == len(short.errors)
    grown = len(long.feedback()) - len(short.feedback())
    assert grown <= runtime(module).MAX_ERRORS * 200, (
        f"feedback() grew by {grown:,} characters ({len(long.feedback()):,} in all) because the unknown keys are long: "
        "each path is printed whole"
    )


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_log_record_shortens_every_long_string(module_name: str) -> None:
    """README: log_record() shortens strings longer than MAX_LOGGED_CHARS: keys and error paths too."""
    module = MODULES[module_name]
    base = VALID[module_name]
    key = "k" + "x" * 100_000
    record = module.validate({**base, key: "v" * 100_000}).log_record()
    longest = max(_strings(record), key=len)
    assert len(longest) <= runtime(module).MAX_LOGGED_CHARS + 100, (
        f"log_record() holds a string of {len(longest):,} characters: {longest[:40]!r}..."
    )


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_log_record_of_a_huge_integer_is_json_serialisable(module_name: str) -> None:
    module = MODULES[module_name]
    for path in list(paths(VALID[module_name]))[1:]:
        result = module.validate(_replace(VALID[module_name], path, 10**5000))
        json.dumps(result.log_record())  # ValueError: Exceeds the limit (4300 digits) ...


@pytest.mark.parametrize(
    "shape",
    ["unterminated string of escaped quotes", "truncated edit_file call holding JSON text"],
)
def test_parse_cost_is_linear_in_the_text(shape: str) -> None:
    """The nesting pre-scan must not go quadratic on an unterminated string full of \\" (run in a child)."""
    code = textwrap.dedent(f"""
        import json, sys, time
        sys.path.insert(0, sys.argv[1])
        from generated.files import edit_file as m
        shape = {shape!r}
        if shape.startswith("unterminated"):
            text = '"' + '\\\\"' * 500_000 + "[" * 65
        else:
            doc = json.dumps({{"items": [{{"id": i, "tags": ["a", "b"]}} for i in range(40_000)]}}, indent=1)[:700_000]
            text = json.dumps({{"path": "data.json", "edits": [{{"old_text": "{{}}", "new_text": doc}}]}})[:-10]
        from generated._runtime import MAX_TEXT_BYTES
        assert len(text.encode()) <= MAX_TEXT_BYTES, len(text)
        started = time.perf_counter()
        result = m.parse(text)
        print(result.status, result.errors[0].code, round(time.perf_counter() - started, 3), len(text))
        """)
    started = time.perf_counter()
    out = _run_child(code, f"parse() of a ~1 MiB {shape}", timeout=20.0)
    TIMINGS[f"parse (child process): ~1 MiB {shape}"] = time.perf_counter() - started
    assert out.split()[0] == "parse_error"


# -- 4. the dispatch gate ----------------------------------------------------------------


HOSTILE_NAMES: dict[str, Callable[[], Any]] = {
    "None": lambda: None,
    "42": lambda: 42,
    "bytes": lambda: b"get_weather",
    "empty": lambda: "",
    "100,000 characters": lambda: "x" * 100_000,
    "raises on everything": RaisesOnEverything,
    "hashable, eq/str/repr raise": HashableButRaises,
    "str subclass that raises": lambda: EvilStr("get_weather"),
    "__class__ raises": ClassRaises,
}


@pytest.mark.parametrize("label", list(HOSTILE_NAMES))
def test_validate_call_survives_hostile_tool_names(label: str) -> None:
    name = HOSTILE_NAMES[label]()
    try:
        result = generated.validate_call(name, "{}")
        feedback = result.feedback()
        json.dumps(result.log_record())
        repr(result)
    except Exception as exc:
        raise AssertionError(f"validate_call() or its Result raised {exc!r}") from exc
    assert result.status == "reject" and result.errors[0].code == "unknown_tool"
    assert len(feedback) < 2_000


@pytest.mark.parametrize("label", [label for label, _ in hostile_objects()])
def test_validate_call_survives_hostile_arguments(label: str) -> None:
    value = dict(hostile_objects())[label]
    ArmedStr.ARMED = True
    try:
        result = generated.validate_call("get_weather", value)
        check_result(
            BY_TOOL["get_weather"],
            result,
            via="parse" if type(value) in (str, bytes, bytearray) else "gate",
        )
    except Hostile as exc:
        raise AssertionError(f"validate_call() let {exc!r} escape") from exc


# -- 5. pattern cannot stall a service ---------------------------------------------------


class PatternSpy:
    """Stands in for a compiled pattern; records the length of every string it is asked to search."""

    def __init__(self, real: re.Pattern[str], calls: list[tuple[str, int]], name: str) -> None:
        self.real, self.calls, self.name = real, calls, name

    def _record(self, method: str) -> Callable[..., Any]:
        def call(text: str, *args: Any) -> Any:
            self.calls.append((self.name, len(text)))
            return getattr(self.real, method)(text, *args)

        return call

    def __getattr__(self, method: str) -> Any:
        if method in ("search", "match", "fullmatch", "finditer", "findall", "sub", "split"):
            return self._record(method)
        return getattr(self.real, method)


def _string_schemas(schema: Any, path: tuple = ()) -> Iterator[tuple[tuple, dict]]:
    """(instance path, schema) of every string schema with a pattern; "*" marks an array item or an extra key."""
    if not isinstance(schema, dict):
        return
    types_ = schema.get("type")
    kinds = types_ if isinstance(types_, list) else [types_]
    if "pattern" in schema and ("string" in kinds or types_ is None):
        yield path, schema
    for key, sub in schema.get("properties", {}).items():
        yield from _string_schemas(sub, path + (("key", key),))
    if isinstance(schema.get("items"), dict):
        yield from _string_schemas(schema["items"], path + (("item", None),))
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _string_schemas(
            schema["additionalProperties"], path + (("key", "zz_extra_key"),)
        )


def _place(base: Any, path: tuple, value: Any) -> Any:
    """``base`` with ``value`` placed at ``path`` (made of ("key", k) and ("item", None) steps)."""
    if not path:
        return value
    (kind, key), rest = path[0], path[1:]
    if kind == "key":
        container = dict(base) if isinstance(base, dict) else {}
        container[key] = _place(container.get(key), rest, value)
        return container
    items = list(base) if isinstance(base, list) and base else [None]
    items[0] = _place(items[0], rest, value)
    return items


def _pattern_cases() -> list[tuple[str, tuple, dict]]:
    cases = []
    for name in MODULE_NAMES:
        for path, schema in _string_schemas(MODULES[name].INPUT_SCHEMA):
            cases.append((name, path, schema))
    return cases


PATTERN_CASES = _pattern_cases()


def _pattern_id(case: tuple[str, tuple, dict]) -> str:
    name, path, _ = case
    return (
        name.removeprefix("generated.")
        + ":"
        + "/".join(k if kind == "key" else "*" for kind, k in path)
    )


@pytest.mark.parametrize("case", PATTERN_CASES, ids=[_pattern_id(c) for c in PATTERN_CASES])
def test_a_pattern_never_sees_a_string_that_maxlength_refused(
    case: tuple, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, path, schema = case
    module = MODULES[name]
    calls: list[tuple[str, int]] = []
    for attr, value in list(vars(module).items()):
        if isinstance(value, re.Pattern):
            monkeypatch.setattr(module, attr, PatternSpy(value, calls, attr))
    big = "A" * 1_000_000
    instance = _place(VALID[name], path, big)
    started = time.perf_counter()
    result = module.validate(instance)
    elapsed = time.perf_counter() - started
    check_result(module, result, instance)
    long_calls = [c for c in calls if c[1] >= 1_000_000]
    if "maxLength" in schema:
        pointer = "".join(
            "/" + (str(k).replace("~", "~0").replace("/", "~1") if kind == "key" else "0")
            for kind, k in path
        )
        assert (pointer, "maxLength") in {(e.path, e.code) for e in result.errors}
        assert not long_calls, f"a regex ran on a 1 MB string that maxLength refused: {long_calls}"
    else:
        TIMINGS[f"validate: 1 MB string at {_pattern_id(case)} (pattern, no maxLength)"] = elapsed


# -- 6. x-sensitive values never show ----------------------------------------------------

TRANSFER = MODULES["generated.billing.transfer_funds"]
TRANSFER_BASE = VALID["generated.billing.transfer_funds"]
SENSITIVE_KEYS = ("from_account", "to_account")
#: Everything the module could print on its own: a secret found in here proves nothing.
STATIC_TEXT = (GENERATED / "billing" / "transfer_funds.py").read_text(encoding="utf-8")

IBANS = st.from_regex(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}", fullmatch=True)
SECRETS = st.one_of(
    IBANS,  # valid
    IBANS.map(str.lower),  # wrong pattern
    IBANS.map(lambda s: s[:2] + " " + s[2:6] + " " + s[6:]),  # spaces: wrong pattern
    st.from_regex(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{4,10}", fullmatch=True),  # too short
    st.from_regex(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{31,400}", fullmatch=True),  # too long
    st.text(min_size=8, max_size=60),  # anything
    st.text(alphabet=st.characters(codec=None, exclude_categories=()), min_size=8, max_size=40),
)


def _placements(secret: str) -> list[Any]:
    return [
        secret,
        [secret],
        [[secret]],
        {"iban": secret},
        {"a": [secret, {"b": secret}]},
        secret * 3,
        secret + "\n",
        [secret, 1, None],
    ]


def _leaks(secret: str, texts: dict[str, str]) -> list[str]:
    """Which outputs hold the secret (or, for long secrets, any 12-character piece of it)."""
    window = min(len(secret), 12)
    pieces = {secret[i : i + window] for i in range(len(secret) - window + 1)}
    pieces = {p for p in pieces if p not in STATIC_TEXT and p.strip()}
    return [
        f"{name}: {text[:300]}" for name, text in texts.items() if any(p in text for p in pieces)
    ]


def _outputs(result: Any) -> dict[str, str]:
    record = result.log_record()
    outputs = {
        "feedback()": result.feedback(),
        "repr(result)": repr(result),
        "repr(result.errors)": repr(result.errors),
        "json.dumps(log_record())": json.dumps(record),
    }
    if _json_safe(record):
        outputs["json.dumps(log_record(), ensure_ascii=False)"] = json.dumps(
            record, ensure_ascii=False
        )
    for i, error in enumerate(result.errors):
        outputs[f"errors[{i}].message"] = error.message
        outputs[f"errors[{i}].path"] = error.path
    return outputs


def _json_safe(record: Any) -> bool:
    try:
        json.dumps(record, ensure_ascii=False)
        return True
    except Exception:
        return False


def _assert_no_leak(secret: str, run: Callable[[], Any]) -> None:
    try:
        result = run()
        texts = _outputs(result)
    except (
        Exception
    ) as exc:  # there should be none; and its message must not hold the secret either
        assert not _leaks(secret, {"str(exception)": str(exc), "repr(exception)": repr(exc)}), (
            "the secret is in an exception"
        )
        raise
    leaked = _leaks(secret, texts)
    assert not leaked, f"x-sensitive value {secret[:30]!r} shows in: {leaked}"


@settings(
    max_examples=max(300, EXAMPLES),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_sensitive_values_never_show(data: st.DataObject) -> None:
    secret = data.draw(SECRETS, label="secret")
    assume(secret.strip() and secret not in STATIC_TEXT and len(secret.strip()) >= 8)
    key = data.draw(st.sampled_from(SENSITIVE_KEYS), label="key")
    placed = data.draw(st.sampled_from(_placements(secret)), label="placement")
    other = data.draw(st.sampled_from(["valid", "both", "break the rest"]), label="rest")
    instance = dict(TRANSFER_BASE)
    instance[key] = placed
    if other == "both":
        instance[SENSITIVE_KEYS[1 - SENSITIVE_KEYS.index(key)]] = placed
    elif other == "break the rest":
        instance.update(amount="50", currency="eur", confirm="true", zz_unknown=1)
    _assert_no_leak(secret, lambda: TRANSFER.validate(instance))
    try:
        text = json.dumps(instance, ensure_ascii=data.draw(st.booleans(), label="ascii"))
    except ValueError:
        return
    _assert_no_leak(secret, lambda: TRANSFER.parse(text))
    _assert_no_leak(secret, lambda: TRANSFER.parse(text.encode("utf-8", "surrogatepass")))


SECRET = "CH9300762011623852957"  # not in the valid instance: only the test puts it there


def _with_secret(**changes: Any) -> dict[str, Any]:
    return {**TRANSFER_BASE, "from_account": SECRET, **changes}


SENSITIVE_FAILURE_PATHS: dict[str, Callable[[], Any]] = {
    "valid": lambda: TRANSFER.validate(_with_secret()),
    "wrong pattern (lowercase)": lambda: TRANSFER.validate(
        _with_secret(from_account=SECRET.lower())
    ),
    "unknown key next to it": lambda: TRANSFER.parse(json.dumps(_with_secret(zz=1))),
    "duplicate sensitive key": lambda: TRANSFER.parse(
        json.dumps(_with_secret())[:-1] + f', "from_account": "{SECRET}"}}'
    ),
    "cut off inside the sensitive value": lambda: TRANSFER.parse('{"from_account": "' + SECRET),
    "invalid escape inside the sensitive value": lambda: TRANSFER.parse(
        '{"from_account": "' + SECRET[:10] + "\\q" + SECRET[10:] + '"}'
    ),
    "raw line break inside the sensitive value": lambda: TRANSFER.parse(
        '{"from_account": "' + SECRET[:10] + "\n" + SECRET[10:] + '"}'
    ),
    "nested too deep under the sensitive key": lambda: TRANSFER.parse(
        '{"from_account": ' + "[" * 70 + json.dumps(SECRET) + "]" * 70 + "}"
    ),
    "as a number": lambda: TRANSFER.parse('{"from_account": 89370400440532013000}'),
    "double-encoded arguments (parse)": lambda: TRANSFER.parse(
        json.dumps(json.dumps(_with_secret()))
    ),
    "double-encoded arguments (validate)": lambda: TRANSFER.validate(json.dumps(_with_secret())),
    "arguments wrapped in an array": lambda: TRANSFER.parse(json.dumps([_with_secret()])),
    "arguments wrapped in an object": lambda: TRANSFER.parse(
        json.dumps({"arguments": _with_secret()})
    ),
    "a number too large to represent": lambda: TRANSFER.parse(
        '{"from_account": 89370400440532013000e999}'
    ),
    "sensitive key misspelled (fromAccount)": lambda: TRANSFER.parse(
        json.dumps(
            {("fromAccount" if k == "from_account" else k): v for k, v in _with_secret().items()}
        )
    ),
}


@pytest.mark.parametrize("how", list(SENSITIVE_FAILURE_PATHS))
def test_sensitive_value_never_shows_whatever_path_the_failure_takes(how: str) -> None:
    secret = "89370400440532013000" if "number" in how else SECRET
    _assert_no_leak(secret, SENSITIVE_FAILURE_PATHS[how])


# -- 7. the corpus of real model failures ------------------------------------------------

CORPUS_DATA = json.loads(CORPUS.read_text(encoding="utf-8"))
CORPUS_CASES = CORPUS_DATA["cases"]


def test_the_corpus_covers_the_failure_modes_of_issue_5() -> None:
    names = " | ".join(c["name"] for c in CORPUS_CASES).lower()
    for mode in [
        "empty",
        "whitespace",
        "double-encoded",
        "cut off",
        "invalid escape",
        "raw line break",
        "raw tab",
        "null for an optional",
        "invented key",
        "number sent as a string",
        "wrong case",
        "top-level array",
        "trailing comma",
        "single-quoted",
        "python true",
        "python none",
        "comment",
        "code fence",
        "concatenated",
    ]:
        assert mode in names, f"the corpus has no case for {mode!r}"
    assert {c["tool"] for c in CORPUS_CASES} >= {"get_weather", "transfer_funds"}
    for base_tool, base in CORPUS_DATA["bases"].items():
        assert BY_TOOL[base_tool].validate(base).ok


@pytest.mark.parametrize(
    "case", CORPUS_CASES, ids=[f"{c['tool']}: {c['name']}" for c in CORPUS_CASES]
)
def test_corpus(case: dict[str, Any]) -> None:
    module = BY_TOOL[case["tool"]]
    if "text" in case:
        result, (feedback, _, _) = run_parse(module, case["text"])
    else:
        result, (feedback, _, _) = run_validate(module, case["args"])
    got = {(e.path, e.code) for e in result.errors}
    expected = {tuple(e) for e in case["errors"]}
    assert (result.status, got) == (case["status"], expected), feedback
    if "text" in case and result.status != "parse_error":
        # Nothing is coerced or repaired: the value is exactly what the text says.
        assert result.value == json.loads(case["text"])
    missing = []
    for want in case["feedback"]:
        options = [want] if isinstance(want, str) else want
        if not any(option in feedback for option in options):
            missing.append(" or ".join(repr(o) for o in options))
    assert not missing, f"feedback() lacks {'; '.join(missing)}:\n{feedback}"


def test_feedback_reads_well() -> None:
    """Parse messages are built from json's own; they must not stutter ("starting at at line 1")."""
    stutters = []
    for case in CORPUS_CASES:
        if "text" not in case:
            continue
        feedback = BY_TOOL[case["tool"]].parse(case["text"]).feedback()
        if re.search(r"\b(\w+) \1\b", feedback):
            stutters.append(f"{case['name']}: {feedback}")
    assert not stutters, "\n".join(stutters)


# -- timings -----------------------------------------------------------------------------


def test_zz_print_timings(capsys: pytest.CaptureFixture[str]) -> None:
    """Not a check: prints the measured times of the big inputs (slowest first)."""
    with capsys.disabled():
        print("\n\nTimings of big inputs (seconds; the slowest module for each input):")
        for label, seconds in sorted(TIMINGS.items(), key=lambda kv: -kv[1]):
            print(f"  {seconds:8.3f}  {label}")
