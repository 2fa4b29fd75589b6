"""How ``toolshape diff`` decides and samples a change of the array keywords (review stage).

A change of ``minItems``/``maxItems`` is decided exactly by the count ranges that
``review/decisions.py`` compares for every count; ``uniqueItems`` and ``items`` are decided
only when they come or go (``ADDED_OR_REMOVED``), any other change of them is left to the
witness search. ``review/samples.py`` feeds that search with the item schemas
(:func:`item_schemas`, whose values it crafts) and the arrays :func:`arrays_at_bounds` builds
at each count and around uniqueness; ``review/search.py`` crafts the items of a changed array
from :func:`item_schemas` and :func:`contains_schemas`.
"""

from __future__ import annotations

import copy
from typing import Any

from ...schema.values import is_integer

#: The family's keywords whose change is decided only when the keyword comes or goes.
ADDED_OR_REMOVED = ("uniqueItems", "items")
#: The counts sampled at, below and above.
_COUNTS = ("minItems", "maxItems")
#: The longest array sampled at a count.
_MAX_SAMPLED = 10_000


def item_schemas(nodes: list[Any]) -> list[Any]:
    """The ``items`` schema of each node (true where it has none, or is no schema object)."""
    return [n.get("items", True) if isinstance(n, dict) else True for n in nodes]


def contains_schemas(nodes: list[Any]) -> list[dict[str, Any]]:
    """The ``contains`` schema objects of the nodes: items worth trying match them."""
    found = [n.get("contains") if isinstance(n, dict) else None for n in nodes]
    return [c for c in found if isinstance(c, dict)]


def arrays_at_bounds(dicts: list[dict[str, Any]], arrays: list[Any], pool: list[Any]) -> list[Any]:
    """Arrays at each count bound (and one either side), of distinct and of repeated items;
    arrays with a repeated item where items must be unique."""
    found: list[Any] = []
    for schema in dicts:
        for keyword in _COUNTS:
            value = schema.get(keyword)
            if is_integer(value) and value >= 0 and pool:
                n = int(value)
                for length in (n - 1, n, n + 1):
                    if 0 <= length <= _MAX_SAMPLED:
                        distinct = pool[:length]
                        if len(distinct) == length:
                            found.append(distinct)
                        found.append([copy.deepcopy(pool[0]) for _ in range(length)])
        if schema.get("uniqueItems") is True and pool:
            found.append([pool[0], copy.deepcopy(pool[0])])
            found.extend([a[0], copy.deepcopy(a[0])] for a in arrays[:2] if a)
    return found
