"""Objects that pass the object keywords (witness stage).

``witness/values.py`` asks :func:`candidates` for the objects of one alternative (every schema
that must hold, and the schemas that must not), and :func:`constrains` whether a schema says
anything that only an object with keys meets. An object is built key by key: the required
keys and those ``dependentRequired`` makes them need, then every declared key, then each
optional key alone (for a ``dependentSchemas`` or an ``if`` on it), then, for each schema
that must not hold, its property's value avoided; filled up to ``minProperties`` with names
every ``propertyNames`` allows. Each key's value comes from the engine (the schemas of
``properties``, the ``patternProperties`` it matches, else ``additionalProperties``), through
the small interface :class:`Builder`; every object is still confirmed by the caller.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from typing import Any, Protocol

from ...families.combinators.values import negation
from ...families.strings import values as string_values
from ...families.unevaluated.values import rest_of_keys
from ...families.values.rules import TYPE
from ...schema.values import count_or
from ...witness.budget import MAX_DEPTH, MAX_SIZE

#: The keywords that ask for keys, so that an object is worth trying first (the others are
#: met by an empty object too).
ASKING_FOR_KEYS = (
    "properties",
    "required",
    "patternProperties",
    "minProperties",
    "dependentRequired",
)

#: A schema object (a JSON object).
Obj = dict[str, Any]


class Builder(Protocol):
    """What the family asks of the witness engine (``witness.values.Engine``)."""

    def conjunction(
        self,
        schemas: Sequence[Any],
        count: int = 1,
        *,
        extra: Sequence[Any] = (),
        depth: int = 0,
    ) -> list[Any]:
        """Up to ``count`` distinct values every one of ``schemas`` accepts."""

    def confirms(self, schemas: Sequence[Any], value: Any) -> bool:
        """Whether the reference evaluator accepts ``value`` against every schema."""


class _NoValue:
    def __repr__(self) -> str:
        return "NO_VALUE"


_NONE: Any = _NoValue()


def constrains(schema: Obj) -> bool:
    """Whether ``schema`` holds a keyword that asks for keys."""
    return any(k in schema for k in ASKING_FOR_KEYS)


def candidates(
    engine: Builder, flat: list[Obj], negated: list[Any], depth: int
) -> Iterator[dict[str, Any]]:
    """Objects for one alternative (``flat``: the schemas that must hold, ``negated``: those
    that must not), most natural first."""
    objects = _Objects(engine, flat, depth)
    if objects.low > MAX_SIZE:
        return
    keys = objects.closure(objects.required)
    minimal = objects.build(keys)
    if minimal is not None:
        yield minimal
    yield from objects.richer(keys)
    for schema in negated:  # a schema that must not hold (a failed if, another oneOf branch)
        for key, sub in schema.get("properties", {}).items() if isinstance(schema, dict) else ():
            if key in keys or key in objects.properties:
                wanted = keys if key in keys else objects.closure(keys + [key])
                other = objects.build(wanted, avoid={key: [negation(sub)]})
                if other is not None:
                    yield other


class _Objects:
    """The object keywords of one alternative, read together, and the objects built from them."""

    def __init__(self, engine: Builder, flat: list[Obj], depth: int) -> None:
        self.engine = engine
        self.flat = flat
        self.depth = depth
        self.properties: dict[str, list[Any]] = {}
        for schema in flat:
            for key, sub in schema.get("properties", {}).items():
                self.properties.setdefault(key, []).append(sub)
        self.required: list[str] = []
        for schema in flat:
            self.required += [k for k in schema.get("required", []) if k not in self.required]
        self.dependents: dict[str, list[str]] = {}
        for schema in flat:
            for key, needs in schema.get("dependentRequired", {}).items():
                self.dependents.setdefault(key, []).extend(needs)
        self.low = max((count_or(s.get("minProperties"), 0) for s in flat), default=0)
        highs = [count_or(s["maxProperties"], 0) for s in flat if "maxProperties" in s]
        self.high = min(highs) if highs else None

    def richer(self, keys: list[str]) -> Iterator[dict[str, Any]]:
        """Every declared key (up to ``maxProperties``), then each optional key alone."""
        properties, high = self.properties, self.high
        everything = self.closure(keys + [k for k in properties if k not in keys])
        if high is not None:
            everything = (
                self.closure(keys)
                + [k for k in everything if k not in keys][: max(high - len(keys), 0)]
            )
        if everything != keys:
            rich = self.build(everything, optional=set(everything) - set(keys))
            if rich is not None:
                yield rich
        for key in properties:  # one optional key at a time: for a dependentSchemas or an if on it
            if key not in keys and (high is None or len(keys) < high):
                one = self.build(self.closure(keys + [key]))
                if one is not None:
                    yield one

    def closure(self, keys: list[str]) -> list[str]:
        """``keys`` and every key dependentRequired makes them need, in order."""
        result = list(keys)
        for key in result:
            result += [k for k in self.dependents.get(key, []) if k not in result]
        return result

    def build(
        self,
        keys: list[str],
        optional: AbstractSet[str] = frozenset(),
        avoid: Mapping[str, list[Any]] | None = None,
    ) -> dict[str, Any] | None:
        """An object with ``keys`` (those in ``optional`` only when a value is found), filled up
        to ``minProperties`` keys; ``avoid``: more schemas a key's value must pass."""
        result: dict[str, Any] = {}
        for key in keys:
            value = self.member(key, (avoid or {}).get(key, []))
            if value is _NONE:
                if key in optional:
                    continue
                return None
            result[key] = value
        if len(result) < self.low and not self.fill(result):
            return None
        return self.dependent_schemas(result)

    def fill(self, result: dict[str, Any]) -> bool:
        """Keys added to ``result`` up to ``minProperties``; whether there are enough."""
        names = self.names(self.low - len(result) + len(self.properties))
        for name in names:
            if len(result) >= self.low:
                break
            if name in result:
                continue
            value = self.member(name)
            if value is not _NONE:
                result[name] = value
        return len(result) >= self.low

    def dependent_schemas(self, result: dict[str, Any]) -> dict[str, Any]:
        """``result``, or when a dependentSchemas of its keys refuses it, an object built to
        pass them too (``result`` again when none is found)."""
        flat, depth = self.flat, self.depth
        extra = [s for s in flat if any(k in result for k in s.get("dependentSchemas", {}))]
        if extra and depth <= MAX_DEPTH:
            deps = [sub for s in extra for k, sub in s["dependentSchemas"].items() if k in result]
            if not self.engine.confirms(deps, result):
                merged = (
                    self.engine.conjunction([*flat, *deps], 1, extra=[], depth=depth + 1)
                    if depth < MAX_DEPTH
                    else []
                )
                return merged[0] if merged and isinstance(merged[0], dict) else result
        return result

    def member(self, key: str, more: Sequence[Any] = ()) -> Any:
        """A value for ``key``: its properties, the patternProperties it matches, or else
        additionalProperties, of every schema of the alternative."""
        wanted: list[Any] = list(self.properties.get(key, [])) + list(more)
        evaluated = key in self.properties
        for schema in self.flat:
            matched = False
            for pattern, sub in schema.get("patternProperties", {}).items():
                if self.engine.confirms([string_values.matching(pattern)], key):
                    wanted.append(sub)
                    matched = evaluated = True
            if (
                key not in schema.get("properties", {})
                and not matched
                and "additionalProperties" in schema
            ):
                wanted.append(schema["additionalProperties"])
                evaluated = True
        if not evaluated:  # nothing else evaluates it: unevaluatedProperties does
            wanted += rest_of_keys(self.flat)
        found = self.engine.conjunction(wanted or [True], 1, depth=self.depth + 1)
        return found[0] if found else _NONE

    def names(self, count: int) -> list[str]:
        """Key names for minProperties: allowed by every propertyNames, patternProperties first."""
        engine, depth = self.engine, self.depth
        rules = [s["propertyNames"] for s in self.flat if "propertyNames" in s]
        found: list[str] = []
        for schema in self.flat:
            for pattern in schema.get("patternProperties", {}):
                found += [
                    s
                    for s in engine.conjunction(
                        [{TYPE: "string", **string_values.matching(pattern)}, *rules],
                        2,
                        depth=depth + 1,
                    )
                    if isinstance(s, str)
                ]
        names = [f"key_{i}" for i in range(count)] + list("abcdefgh")
        found += [n for n in names if not rules or engine.confirms(rules, n)]
        if len(found) < count and rules:
            found += [
                s
                for s in engine.conjunction([{TYPE: "string"}, *rules], count, depth=depth + 1)
                if isinstance(s, str)
            ]
        return list(dict.fromkeys(found))
