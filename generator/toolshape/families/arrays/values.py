"""Arrays that pass the array keywords, and the derived cases at their counts (witness stage).

``witness/values.py`` asks :func:`candidates` for the arrays of one alternative (every schema
that must hold) and :func:`hinted` whether a schema makes an array worth trying first;
``codegen/cases.py`` asks :func:`pool_size` how many distinct items to have at hand,
:func:`size_variants` for the derived cases at ``minItems``, ``maxItems`` and
``uniqueItems``, :func:`too_large` whether the ``maxItems`` cases are too big to write, and
``NON_LOCAL`` which keywords make a derived case be evaluated whole.
Every value is still confirmed by the reference evaluator by the caller. They need nothing
of codegen/, so they stay at the witness rank (no ``cases.py``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from typing import Any

from ...families.combinators.values import negation
from ...families.unevaluated.values import rest_of_items
from ...schema.values import count_or, json_equal

#: Up to a count of distinct values that every one of some schemas accepts (the witness
#: engine, one level down).
Conjunction = Callable[[list[Any], int], list[Any]]
#: The keywords that make an array worth trying first (maxItems alone does not).
HINTS = ("items", "prefixItems", "contains", "minItems", "uniqueItems")
#: The keywords that look at an array as a whole, or at its items through other schemas:
#: below them a changed item can change errors elsewhere, so the derived case is evaluated
#: whole (codegen/cases.py's local evaluation steps through ``items`` alone).
NON_LOCAL = ("prefixItems", "contains", "uniqueItems")


def hinted(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` holds a keyword that makes an array worth trying first."""
    return any(k in schema for k in HINTS)


def candidates(
    flat: list[dict[str, Any]], conjunction: Conjunction, max_size: int
) -> Iterator[list[Any]]:
    """Arrays of the fewest items every schema of ``flat`` allows (and of one item, when
    that is allowed too): none when their counts leave no length up to ``max_size``."""
    low = max((count_or(s.get("minItems"), 0) for s in flat), default=0)
    highs = [count_or(s["maxItems"], 0) for s in flat if "maxItems" in s]
    high = min(highs) if highs else None
    if (high is not None and high < low) or low > max_size:
        return
    prefix: list[list[Any]] = []
    for schema in flat:
        for i, sub in enumerate(schema.get("prefixItems", [])):
            while len(prefix) <= i:
                prefix.append([])
            prefix[i].append(sub)
    items = [s["items"] for s in flat if "items" in s]
    contains = [s for s in flat if "contains" in s]
    needed = max((count_or(s.get("minContains"), 1) for s in contains), default=0)
    unique = any(s.get("uniqueItems") is True for s in flat)
    if low == 0 and needed == 0:
        yield []
    for length in sorted({max(low, needed), max(low, needed, 1)}):
        if high is not None and length > high:
            continue
        rest = items or rest_of_items(flat)
        built = _array(conjunction, prefix, items, rest, contains, needed, length, unique)
        if built is not None:
            yield built


def _array(
    conjunction: Conjunction,
    prefix: list[list[Any]],
    items: list[Any],
    rest: list[Any],
    contains: list[dict[str, Any]],
    needed: int,
    length: int,
    unique: bool,
) -> list[Any] | None:
    """``length`` items: the first ``needed`` match every ``contains``, the others (when a
    ``maxContains`` is set) match none; prefix positions get their prefixItems, the items
    after them ``items`` (``rest``: or, where nothing evaluates them, unevaluatedItems)."""
    limited = any("maxContains" in s for s in contains)
    result: list[Any] = []
    for i in range(length):
        where = prefix[i] if i < len(prefix) else items if i < needed else rest
        wanted = list(where)
        if i < needed:
            wanted += [s["contains"] for s in contains]
        elif limited:
            wanted += [negation(s["contains"]) for s in contains]
        pool = conjunction(wanted, len(result) + 1 if unique else 1)
        pick = next(
            (p for p in pool if not unique or not any(json_equal(p, r) for r in result)), None
        )
        if pick is None:
            return None
        result.append(pick)
    return result


def pool_size(schema: dict[str, Any]) -> int:
    """How many distinct items the derived cases want at hand: one past maxItems, minItems,
    and two for uniqueItems' pair."""
    return max(count_or(schema.get("maxItems"), 0) + 1, count_or(schema.get("minItems"), 0), 2)


def too_large(schema: dict[str, Any], max_items: int) -> str | None:
    """What is left out when the maxItems cases would hold ``max_items`` items or more."""
    high = schema.get("maxItems")
    if high is not None and int(high) >= max_items:
        return f"the maxItems {int(high)} edge cases"
    return None


def size_variants(
    schema: dict[str, Any], pool: list[Any], max_items: int
) -> Iterator[tuple[str, list[Any]]]:
    """The derived cases at the counts and uniqueness of an array, made of the distinct
    accepted items in ``pool``: (what the case is, the array)."""
    if "minItems" in schema and int(schema["minItems"]) > 0:
        n = int(schema["minItems"])
        yield f"minItems {n} - 1", pool[: n - 1]
        if len(pool) >= n:
            yield f"minItems {n} exactly", pool[:n]
    if "maxItems" in schema and too_large(schema, max_items) is None:
        n = int(schema["maxItems"])
        if len(pool) >= n + 1:
            yield f"maxItems {n} + 1", pool[: n + 1]
            yield f"maxItems {n} exactly", pool[:n]
        elif pool:
            # Too few distinct items: repeat them (with uniqueItems, that also
            # breaks uniqueness, and the expected errors say so).
            yield f"maxItems {n} + 1", [copy.deepcopy(pool[i % len(pool)]) for i in range(n + 1)]
    if schema.get("uniqueItems") is True and pool:
        yield "the same item twice", [pool[0], copy.deepcopy(pool[0])]
        if len(pool) >= 2:
            yield "two different items", pool[:2]
