"""Hostile arguments (issue 5): a ``pattern`` cannot stall a service.

A 1 MB string where a pattern applies: when ``maxLength`` refuses it, no regex ever sees it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from hostile_arguments_support import MODULE_NAMES, MODULES, TIMINGS, VALID, check_result


class PatternSpy:
    """Stands in for a compiled pattern; records the length of every string it is asked to search."""

    def __init__(self, real: Any, calls: list[tuple[str, int]], name: str) -> None:
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


#: Where a string goes in an instance: ("key", name) and ("item", None) steps.
Where = tuple[tuple[str, Any], ...]
#: (module name, where, the string's schema)
PatternCase = tuple[str, Where, dict[str, Any]]


def _string_schemas(schema: Any, path: Where = ()) -> Iterator[tuple[Where, dict[str, Any]]]:
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


def _place(base: Any, path: Where, value: Any) -> Any:
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


def _pattern_cases() -> list[PatternCase]:
    cases = []
    for name in MODULE_NAMES:
        for path, schema in _string_schemas(MODULES[name].INPUT_SCHEMA):
            cases.append((name, path, schema))
    return cases


PATTERN_CASES = _pattern_cases()


def _pattern_id(case: PatternCase) -> str:
    name, path, _ = case
    return (
        name.removeprefix("generated.")
        + ":"
        + "/".join(k if kind == "key" else "*" for kind, k in path)
    )


@pytest.mark.parametrize("case", PATTERN_CASES, ids=[_pattern_id(c) for c in PATTERN_CASES])
def test_a_pattern_never_sees_a_string_that_maxlength_refused(
    case: PatternCase, monkeypatch: pytest.MonkeyPatch
) -> None:
    name, path, schema = case
    module = MODULES[name]
    calls: list[tuple[str, int]] = []
    for attr, value in list(vars(module).items()):
        # re's compiled patterns, and the runtime's linear-time matcher (regex.linear)
        if isinstance(value, re.Pattern) or type(value).__name__ == "_Linear":
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
