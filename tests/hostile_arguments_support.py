"""What the hostile-argument tests share (issue 5): the generated tool modules, the sanity
check of one ``Result``, and the hostile Python objects.

What a model sends, or what a service hands to ``validate()``, is untrusted. The
``test_hostile_arguments_*.py`` files check, for every generated tool module under
generated/, that ``validate()`` and ``parse()`` never raise whatever they are given, return a
sane ``Result`` (``check_result``: its ``feedback()``, ``log_record()`` through ``json.dumps``,
``repr()`` and ``repr(errors)`` never raise either), stay bounded, never let an
``x-sensitive`` value show, and never run a ``pattern`` on a string ``maxLength`` refused:

- ``..._objects``: arbitrary Python objects as the arguments and at every path of a valid instance;
- ``..._json``: arbitrary JSON values (hypothesis);
- ``..._parse``: arbitrary text and bytes (hypothesis);
- ``..._sizes``: big and strange input, the limits and their codes (timings printed, never asserted);
- ``..._gate``: the dispatch gate ``generated.validate_call``;
- ``..._patterns``: a pattern never sees a string that maxLength refused;
- ``..._sensitive``: x-sensitive values never show;
- ``..._corpus``: the committed corpus of real model failures, ``tests/corpus/arguments.json``.

A module rather than fixtures: the parametrize lists need these names when a test file is
imported. It imports every generated tool module, so only the hostile-argument tests import it.
"""

from __future__ import annotations

import collections
import contextlib
import decimal
import enum
import fractions
import functools
import importlib
import json
import os
import sys
import types
from collections.abc import Callable, Iterator
from typing import Any

from hypothesis import HealthCheck, settings
from support import GENERATED
from toolshape.schema.values import json_equal

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
        if relative.as_posix() in ("_runtime.py", "_tool_definitions.py"):  # package data: no tool
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


def schema_keys(schema: Any, found: set[str] | None = None) -> set[str]:
    """Every property name at any depth of a schema (to steer generated objects into the contract)."""
    found = set() if found is None else found
    if isinstance(schema, dict):
        for key, sub in schema.get("properties", {}).items():
            found.add(key)
            schema_keys(sub, found)
        for keyword in ("items", "additionalProperties"):
            schema_keys(schema.get(keyword), found)
    return found


# -- The sanity of one Result --------------------------------------------------------

#: feedback() lists at most MAX_ERRORS problems, each on a line of bounded length: its
#: size must not grow with the input. 1,000 characters a line leaves room for every
#: message these contracts produce (the longest lists the allowed keys of create_event).
FEEDBACK_LINE = 1_000


def feedback_bound(module: types.ModuleType) -> int:
    max_errors: int = runtime(module).MAX_ERRORS
    return 10_000 + max_errors * FEEDBACK_LINE


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
        # the contract says integer (or enum/const members): a copy, equal to it as JSON
        # (1e308 arrives as the int its repr writes, 10**308 * 1.797..., not int(1e308)).
        assert result.value is sent or (status == "accept" and json_equal(result.value, sent)), (
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


def boom(*args: Any, **kwargs: Any) -> Any:
    raise Hostile("hostile method called")


class RaisesOnEverything:
    """An object whose every special method raises."""

    __eq__ = __ne__ = __lt__ = __gt__ = __le__ = __ge__ = boom
    __hash__ = __len__ = __iter__ = __contains__ = __getitem__ = __bool__ = boom
    __repr__ = __str__ = __format__ = __index__ = __int__ = __float__ = boom

    def __getattr__(self, name: str) -> Any:
        raise Hostile(name)


class HashableButRaises:
    """Usable as a dict key (hash works) but its __eq__, __str__ and __repr__ raise."""

    def __hash__(self) -> int:
        return 7

    __eq__ = __str__ = __repr__ = __format__ = boom


class ClassRaises:
    """isinstance() consults __class__: this one raises."""

    @property  # type: ignore[misc]
    def __class__(self) -> type:
        raise Hostile("__class__")


def liar(kind: type) -> type:
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
    __repr__ = boom


class ClassWithRaisingRepr(metaclass=ReprRaisesMeta):
    pass


class EvilStr(str):
    """A str whose methods raise (the value itself is a fine string)."""

    __len__ = __eq__ = __ne__ = __iter__ = __getitem__ = __contains__ = boom
    __repr__ = __str__ = __format__ = __lt__ = __gt__ = boom
    lstrip = strip = rstrip = isspace = encode = replace = startswith = endswith = boom
    isascii = isidentifier = lower = upper = split = find = count = boom

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

    __repr__ = __str__


class EvilInt(int):
    __eq__ = __lt__ = __le__ = __gt__ = __ge__ = __mod__ = __rmod__ = __mul__ = __rmul__ = boom
    __hash__ = __repr__ = __str__ = __index__ = __float__ = __bool__ = boom


class EvilFloat(float):
    __eq__ = __lt__ = __le__ = __gt__ = __ge__ = __repr__ = __str__ = is_integer = boom
    __hash__ = boom


class Colour(enum.IntEnum):
    RED = 1


class StrColour(str, enum.Enum):
    C = "c"


def _dict_subclass(name: str, **methods: Callable[..., Any]) -> type:
    return type(name, (dict,), methods)


def _infinite_ghosts(self: Any) -> Iterator[str]:
    yield from ("ghost",) * 500


DICT_SUBCLASSES: dict[str, type] = {
    "getitem raises": _dict_subclass("GetitemRaises", __getitem__=boom),
    "contains raises": _dict_subclass("ContainsRaises", __contains__=boom),
    "iter raises": _dict_subclass("IterRaises", __iter__=boom),
    "keys/items/values/get raise": _dict_subclass(
        "KeysRaise", keys=boom, items=boom, values=boom, get=boom
    ),
    "len raises": _dict_subclass("LenRaises", __len__=boom),
    "eq/hash/repr raise": _dict_subclass(
        "EqRaises", __eq__=boom, __hash__=boom, __repr__=boom, __str__=boom
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


class ListRaises(list[Any]):
    __iter__ = __len__ = __getitem__ = __contains__ = __eq__ = __repr__ = boom


def _deep_list(depth: int) -> list[Any]:
    top: list[Any] = []
    node = top
    for _ in range(depth):
        child: list[Any] = []
        node.append(child)
        node = child
    return top


def _deep_dict(depth: int) -> dict[str, Any]:
    top: dict[str, Any] = {}
    node = top
    for _ in range(depth):
        child: dict[str, Any] = {}
        node["a"] = child
        node = child
    return top


DEEP_LIST = _deep_list(100_000)
DEEP_DICT = _deep_dict(100_000)


def _generator() -> Iterator[int]:
    yield 1


def hostile_objects() -> list[tuple[str, Any]]:
    """Fresh hostile objects (some are stateful, so build them anew for each use)."""
    self_list: list[Any] = [1]
    self_list.append(self_list)
    self_dict: dict[str, Any] = {"a": 1}
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
        (
            "defaultdict of hostile",
            collections.defaultdict[str, object](RaisesOnEverything, {"a": 1}),
        ),
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
        ("claims to be a dict", liar(dict)()),
        ("claims to be a list", liar(list)()),
        ("claims to be a str", liar(str)()),
        ("claims to be an int", liar(int)()),
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


@contextlib.contextmanager
def armed() -> Iterator[None]:
    """ArmedStr objects raise inside this block, and only there, whatever happens in it."""
    ArmedStr.ARMED = True
    try:
        yield
    finally:
        ArmedStr.ARMED = False


def call_validate(module: types.ModuleType, value: Any, label: str) -> None:
    """validate(value) and check_result() of what it returns, with ArmedStr armed."""
    with armed():
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


#: Examples per module and property; raise TOOLSHAPE_HOSTILE_EXAMPLES for a deeper search.
EXAMPLES = int(os.environ.get("TOOLSHAPE_HOSTILE_EXAMPLES", "120"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


#: Measured wall-clock times of the big inputs (..._sizes, ..._patterns): printed at the end of
#: the run by conftest.py (a record, never a check: tests make no timed assertions).
TIMINGS: dict[str, float] = {}
