"""Where the derived cases step into an array (codegen stage): ``items`` and ``prefixItems``.

``codegen/cases.py`` walks the base arguments and the contract's schemas together: to complete
an array, to walk its first items, to collect the values examples put in it, to apply the
generated validator's schemas to each item (for the normalisation cases). It asks this module
which schema an item falls under and where that schema is written, never reading the keywords
itself. (The array's own cases, its sizes and distinct items, are ``values.py``'s.)
"""

from __future__ import annotations

from typing import Any

from ...schema.pointers import SchemaPath

ITEMS = "items"
PREFIX = "prefixItems"


def items_of(schema: dict[str, Any], absent: Any = None) -> Any:
    """The schema of the items after the positions (``absent`` when the schema says none)."""
    return schema.get(ITEMS, absent)


def items_path(schema_path: SchemaPath) -> SchemaPath:
    """Where the items' schema of the array schema at ``schema_path`` is written."""
    return schema_path + (ITEMS,)


def positions(schema: dict[str, Any]) -> list[Any]:
    """The schemas of the array's first items, one per position ([]: none)."""
    found: list[Any] = schema.get(PREFIX, [])
    return found


def position_path(schema_path: SchemaPath, index: int) -> SchemaPath:
    """Where the schema of the item at ``index`` (a position) is written."""
    return schema_path + (PREFIX, index)


def item_schema(schema: dict[str, Any], index: int) -> Any:
    """The schema the item at ``index`` is checked against: its position's, else the items'
    (None: the schema says nothing of it)."""
    prefix = positions(schema)
    return prefix[index] if index < len(prefix) else items_of(schema)
