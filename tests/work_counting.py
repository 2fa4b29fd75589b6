"""Counting the work a generated validator does, to show it grows linearly (issue 20).

No clock: ``work(call)`` counts, while ``call()`` runs,

- every line of Python executed (``sys.settrace`` line events), in the generated module,
  its runtime and the standard library alike;
- the characters that C-level string work may read, for the strings a test marks as
  ``Tracked`` (a ``str`` subclass the generated checks take as a string): each method and
  slice charges what it can read, and so does every compiled pattern of the runtime and
  of the module called on one (a pattern is charged up to where it stops, the whole rest
  of the text if it fails: what a search that does not backtrack can read);
- the C calls whose own cost is not linear, charged by their worst case: a ``set`` of the
  runtime charges the size of the set for each lookup or insertion of a key that is not
  an exact ``str`` (CPython randomises only the hashes of str and bytes, so an attacker
  can choose those keys to collide), and ``unicodedata.normalize`` charges the square of
  its text (canonical reordering is an insertion sort over a run of combining marks);
- with ``allocations=True``, every byte the call allocates (tracemalloc's traced memory, read
  at each trace event: what it grew by since the last one). Copying a string is C-level work
  no line shows, and the strings a validator builds for itself (an error's path from a plain
  key) are not ``Tracked``: the bytes they take are what the copy costs. (Ints up to 256
  are shared, not allocated: a size of a few hundred or more keeps them from bending the
  growth.)

``assert_linear(label, make, base)`` builds a call for sizes n, 2n and 4n and fails when the
work added by the second doubling is more than 2.5 times the work added by the first (2 for
linear growth, 2.1 to 2.2 for n log n, 4 for quadratic growth; the fixed cost cancels out).
Regex backtracking is not counted here: the format grammars are shown unambiguous by the
backtracking lint instead (test_linear_work.py).
"""

from __future__ import annotations

import gc
import re
import sys
import tracemalloc
import types
import unicodedata
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from support import no_collection

#: The largest ratio of the work added by the second doubling to that of the first.
MAX_GROWTH = 2.5


class _Meter:
    """The running counts (one meter: the tests run one call at a time)."""

    def __init__(self) -> None:
        self.lines = 0
        self.chars = 0
        self.bytes = 0  # allocated, with allocations=True
        self.held = 0  # tracemalloc's traced memory at the last trace event
        self.active = False

    def charge(self, amount: int) -> None:
        if self.active:
            self.chars += amount


METER = _Meter()


def _charge_all(name: str) -> Callable[..., Any]:
    method = getattr(str, name)

    def charged(self: str, *args: Any, **kwargs: Any) -> Any:
        METER.charge(len(self) + 1)
        return method(self, *args, **kwargs)

    charged.__name__ = name
    return charged


def _charge_scan(name: str) -> Callable[..., Any]:
    """find/index and their right-hand twins: charged from where they start to where they stop."""
    method = getattr(str, name)
    rightward = name in ("find", "index")

    def charged(self: str, sub: str, *args: Any) -> Any:
        bounds = (*args, None, None)[:2]
        start, stop, _ = slice(*bounds).indices(len(self))
        try:
            found = method(self, sub, *args)
        except ValueError:  # index and rindex: not found
            METER.charge(stop - start + 1)
            raise
        if found < 0:
            METER.charge(stop - start + 1)
        elif rightward:
            METER.charge(found + len(sub) - start + 1)
        else:
            METER.charge(stop - found + 1)
        return found

    charged.__name__ = name
    return charged


class Tracked(str):
    """A string whose C-level work is charged to the meter (results are plain ``str``)."""

    __slots__ = ()

    def __getitem__(self, key: Any) -> str:
        result = str.__getitem__(self, key)
        METER.charge(len(result) + 1)
        return result

    def __str__(self) -> str:
        METER.charge(len(self) + 1)
        return str.__str__(self)

    def __radd__(self, other: str) -> str:
        METER.charge(len(other) + len(self) + 1)
        return other + str.__str__(self)

    def startswith(self, prefix: Any, *args: Any) -> bool:
        METER.charge(max(map(len, prefix)) if isinstance(prefix, tuple) else len(prefix))
        return str.startswith(self, prefix, *args)

    def endswith(self, suffix: Any, *args: Any) -> bool:
        METER.charge(max(map(len, suffix)) if isinstance(suffix, tuple) else len(suffix))
        return str.endswith(self, suffix, *args)

    find = _charge_scan("find")
    index = _charge_scan("index")
    rfind = _charge_scan("rfind")
    rindex = _charge_scan("rindex")


#: The str methods that may read the whole string: each charges its length.
_WHOLE = (
    "__contains__",
    "__iter__",
    "__add__",
    "__mod__",
    "capitalize",
    "casefold",
    "count",
    "encode",
    "isalnum",
    "isalpha",
    "isascii",
    "isdecimal",
    "isdigit",
    "isidentifier",
    "islower",
    "isnumeric",
    "isprintable",
    "isspace",
    "isupper",
    "lower",
    "lstrip",
    "partition",
    "replace",
    "rpartition",
    "rsplit",
    "rstrip",
    "split",
    "splitlines",
    "strip",
    "upper",
)
for _name in _WHOLE:
    setattr(Tracked, _name, _charge_all(_name))


class _Pattern:
    """A compiled pattern that charges the text it can read when the subject is Tracked."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern

    def __getattr__(self, name: str) -> Any:
        return getattr(self.pattern, name)

    def _call(self, name: str, string: str, *args: Any, **kwargs: Any) -> Any:
        result = getattr(self.pattern, name)(string, *args, **kwargs)
        if isinstance(string, Tracked):
            start = args[0] if args and name in ("match", "fullmatch", "search") else 0
            end = result.end() if isinstance(result, re.Match) else len(string)
            METER.charge(max(end - start, 0) + 1)
        return result

    def match(self, string: str, *args: Any) -> Any:
        return self._call("match", string, *args)

    def fullmatch(self, string: str, *args: Any) -> Any:
        return self._call("fullmatch", string, *args)

    def search(self, string: str, *args: Any) -> Any:
        return self._call("search", string, *args)

    def split(self, string: str, *args: Any, **kwargs: Any) -> Any:
        return self._call("split", string, *args, **kwargs)

    def finditer(self, string: str, *args: Any) -> Any:
        return self._call("finditer", string, *args)

    def findall(self, string: str, *args: Any) -> Any:
        return self._call("findall", string, *args)


class _Set(set):  # type: ignore[type-arg]
    """The runtime's ``set`` while counting: a key that is not an exact str is charged the
    size of the set (the probe chain when an attacker chose the keys' hashes)."""

    def _charge(self, key: object) -> None:
        if type(key) is not str:
            METER.charge(len(self) + 1)

    def add(self, key: object) -> None:
        self._charge(key)
        set.add(self, key)

    def __contains__(self, key: object) -> bool:
        self._charge(key)
        return set.__contains__(self, key)


def _normalize(form: Any, text: str) -> str:
    METER.charge(len(text) ** 2)
    return _NORMALIZE(form, text)


_NORMALIZE = unicodedata.normalize


def _tracer(frame: types.FrameType, event: str, arg: object) -> Any:
    return _lines


def _lines(frame: types.FrameType, event: str, arg: object) -> Any:
    if event == "line":
        METER.lines += 1
    return _lines


def _allocating(frame: types.FrameType, event: str, arg: object) -> Any:
    """_lines, and the bytes allocated since the last event (freed ones are not given back)."""
    held = tracemalloc.get_traced_memory()[0]
    if held > METER.held:
        METER.bytes += held - METER.held
    METER.held = held
    if event == "line":
        METER.lines += 1
    return _allocating


def _wrap_patterns(namespace: dict[str, Any]) -> list[tuple[dict[str, Any], str, Any]]:
    """Each compiled pattern in ``namespace`` (and in its dicts of patterns) replaced by a
    charging one; the originals, to put back."""
    saved: list[tuple[dict[str, Any], str, Any]] = []
    for table in [namespace, *(v for v in list(namespace.values()) if type(v) is dict)]:
        for key, value in list(table.items()):
            if isinstance(value, re.Pattern) and type(key) is str:
                saved.append((table, key, value))
                table[key] = _Pattern(value)
    return saved


@contextmanager
def _instrumented(modules: tuple[types.ModuleType, ...]) -> Iterator[None]:
    saved: list[tuple[dict[str, Any], str, Any]] = []
    for module in modules:
        namespace = module.__dict__
        saved += _wrap_patterns(namespace)
        saved.append((namespace, "set", namespace.get("set", _MISSING)))
        namespace["set"] = _Set
    unicodedata.normalize = _normalize
    try:
        yield
    finally:
        unicodedata.normalize = _NORMALIZE
        for table, key, value in reversed(saved):
            if value is _MISSING:
                del table[key]
            else:
                table[key] = value


_MISSING = object()


def empty_free_lists() -> None:
    """Empty CPython's free lists (of tuples, dicts, floats...): an object taken from one is
    not allocated, so tracemalloc would not see it. A full collection empties them, and scans
    every object of the process to do so (a tenth of a second or more in a test worker, each
    time): the objects alive now are frozen first (``gc.freeze``), so that it has nothing to
    scan. The free lists are what it is run for, not garbage: garbage made before tracing
    starts is not traced, and no collection runs inside a counted call (``no_collection``)."""
    gc.freeze()
    try:
        gc.collect()
    finally:
        gc.unfreeze()


def work(call: Callable[[], object], *modules: types.ModuleType, allocations: bool = False) -> int:
    """The work ``call()`` does: lines of Python run plus the charges above (and the bytes
    it allocates, with ``allocations``). ``modules`` (the generated module and its runtime)
    get their patterns and ``set`` instrumented."""
    # No collection while the tracer is on, from before it starts to after it stops: one
    # would run the finalizers earlier tests left, and count their lines as the call's.
    with _instrumented(modules), no_collection():
        METER.lines = METER.chars = METER.bytes = 0
        METER.active = True
        previous = sys.gettrace()
        if allocations:
            empty_free_lists()  # every object the call makes is then allocated, and traced
            tracemalloc.start()
            METER.held = tracemalloc.get_traced_memory()[0]
        sys.settrace(_allocating if allocations else _tracer)
        try:
            call()
        finally:
            sys.settrace(previous)
            METER.active = False
            if allocations:
                tracemalloc.stop()
    return METER.lines + METER.chars + METER.bytes


def growth(
    make: Callable[[int], Callable[[], object]],
    base: int,
    *modules: types.ModuleType,
    allocations: bool = False,
) -> tuple[list[int], float]:
    """The work for sizes base, 2*base, 4*base, and how much faster the second doubling adds
    work than the first (2.0 for linear growth)."""
    counts = [work(make(base * factor), *modules, allocations=allocations) for factor in (1, 2, 4)]
    first, second = counts[1] - counts[0], counts[2] - counts[1]
    return counts, second / max(first, 1)


def assert_linear(
    label: str,
    make: Callable[[int], Callable[[], object]],
    base: int,
    *modules: types.ModuleType,
    allocations: bool = False,
) -> None:
    counts, ratio = growth(make, base, *modules, allocations=allocations)
    assert ratio <= MAX_GROWTH, (
        f"{label}: work {counts} for sizes {base}, {2 * base}, {4 * base}: each doubling adds"
        f" {ratio:.2f} times the work of the one before (at most {MAX_GROWTH} for linear growth)"
    )


def json_values(data: Any) -> int:
    """The JSON values in ``data`` (each object, array and scalar counts one): what a
    validator looks at, the size a count of work is compared with."""
    if isinstance(data, dict):
        return 1 + sum(json_values(v) for v in data.values())
    if isinstance(data, list):
        return 1 + sum(json_values(v) for v in data)
    return 1
