"""Which subschemas of a schema apply where: to the same value, to a key's value, to an item.

The one walk from a schema to the schemas applying to the values it governs, read from the
vocabulary table: a keyword that applies its subschemas to the same value (``Keyword.applies``)
or to children, and then to which (``Keyword.children``: the keys its map names, the keys its
patterns match, the other keys, the first items, the other items, the items it matches, the
key names). The redaction oracle, the redaction masks, the unfolding check and the review ask
this module instead of naming keywords, so a keyword added to the table with those facts is
walked with no other edit. A keyword whose children depend on what its siblings evaluated
(``Keyword.dynamic``: ``unevaluated*``) is not walked here: its family decides which
children it reaches.

Each subschema comes with its steps below the schema holding it (``(keyword,)``,
``(keyword, index)`` or ``(keyword, key)``), for a caller that needs its place.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from . import vocabulary
from .pointers import SchemaPath

#: A subschema and its steps below the schema holding it.
Child = tuple[Any, SchemaPath]

#: The children of an object that are values (under its keys), and those of an array.
KEY_VALUES: tuple[vocabulary.Reaches, ...] = ("named keys", "matching keys", "other keys")
ITEMS: tuple[vocabulary.Reaches, ...] = ("prefix", "other items", "matching items")


def held(schema: Any, keyword: str) -> list[Child]:
    """The subschemas ``keyword`` holds in ``schema`` (its shape read from the table): a list's
    in index order, a map's in key order; none when the schema does not use the keyword."""
    if not isinstance(schema, dict) or keyword not in schema:
        return []
    value = schema[keyword]
    shape = vocabulary.keyword(keyword).shape
    if shape == "list":
        return (
            [(sub, (keyword, i)) for i, sub in enumerate(value)] if isinstance(value, list) else []
        )
    if shape == "map":
        return [(sub, (keyword, k)) for k, sub in value.items()] if isinstance(value, dict) else []
    return [(value, (keyword,))]


def reaching(schema: Any, *children: vocabulary.Reaches) -> list[Child]:
    """The subschemas of ``schema`` applying to ``children`` (every keyword that does), in
    the order the kinds of children are given."""
    if not isinstance(schema, dict):
        return []
    # (whether the schema uses a keyword is asked first: most schemas use none of them)
    return [
        child
        for kind in children
        for keyword in vocabulary.reaching(kind)
        if keyword in schema
        for child in held(schema, keyword)
    ]


def same_value(schema: Any) -> list[Child]:
    """The subschemas applying to the very value ``schema`` applies to ($ref aside), each one
    whatever the value (every branch, every entry of a map by key): the keywords holding a
    list, then one schema, then a map (whose entries apply when the object holds their key)."""
    if not isinstance(schema, dict):
        return []
    return [
        child
        for shape in _SAME_VALUE_SHAPES
        for keyword in vocabulary.holders(shape, "same value")
        if keyword in schema
        for child in held(schema, keyword)
    ]


#: The order in which :func:`same_value` takes the shapes (the masks' order of ``all``).
_SAME_VALUE_SHAPES: tuple[vocabulary.Shape, ...] = ("list", "one", "map")


def named(schema: Any) -> dict[str, Child]:
    """Each key ``schema`` names with a schema for its value (the first keyword naming it)."""
    found: dict[str, Child] = {}
    for sub, steps in reaching(schema, "named keys"):
        found.setdefault(str(steps[-1]), (sub, steps))
    return found


def patterns(schema: Any) -> list[tuple[str, Child]]:
    """Each pattern of ``schema`` with the schema of the values under a key it matches."""
    return [(str(steps[-1]), (sub, steps)) for sub, steps in reaching(schema, "matching keys")]


def for_key(schema: Any, key: str, matches: Callable[[str, str], bool]) -> tuple[list[Child], bool]:
    """The subschemas applying to the value under ``key`` (``matches(pattern, key)`` tells
    whether a pattern matches), and whether the key is named or matched (not "other")."""
    found = _entries(schema, "named keys", key)
    found += [child for pattern, child in patterns(schema) if matches(pattern, key)]
    if found:
        return found, True
    return reaching(schema, "other keys"), False


def for_index(schema: Any, index: int) -> tuple[list[Child], bool]:
    """The subschemas applying to the item at ``index`` (the items a schema matches count for
    every item), and whether a schema is declared for its position (``false`` is none)."""
    found = _entries(schema, "prefix", index)
    if found:
        placed = True
    else:
        found = reaching(schema, "other items")
        placed = any(sub is not False for sub, _ in found)
    return found + reaching(schema, "matching items"), placed


def _entries(schema: Any, children: vocabulary.Reaches, at: str | int) -> list[Child]:
    """The entries at ``at`` (a key, an index) of the maps or lists applying to ``children``:
    looked up, not listed, so that each child costs one step however many its schema names."""
    if not isinstance(schema, dict):
        return []
    found: list[Child] = []
    for keyword in vocabulary.reaching(children):
        value: Any = schema.get(keyword)
        in_map = isinstance(value, dict) and at in value
        in_list = isinstance(value, list) and isinstance(at, int) and 0 <= at < len(value)
        if in_map or in_list:
            found.append((value[at], (keyword, at)))
    return found
