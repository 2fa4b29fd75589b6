"""The Python type of an accepted array's items: ``items`` and ``prefixItems`` (codegen stage).

``codegen/typing_model.py`` types an array as ``list[...]`` of what :func:`item_types` lists:
the type of each ``prefixItems`` position, and ``items``' for the items after them. A
``list``, never a ``tuple[...]``: the handler gets the decoded JSON array, a list, and a tuple
type would promise what a list does not do (hashing, equality with a tuple).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...schema.pointers import SchemaPath

#: The type expression of a subschema: ``of(schema, hint, schema_path)``, the TypedDicts'.
TypeOf = Callable[[Any, str, SchemaPath], str]


def item_types(of: TypeOf, schema: dict[str, Any], hint: str, path: SchemaPath) -> list[str]:
    """The types an item of ``schema``'s arrays may have, positions first ([]: none is said)."""
    items = schema.get("items", True)
    positions = schema.get("prefixItems")
    if not isinstance(positions, list):
        return [of(items, f"{hint} item", path + ("items",))]
    types = [
        of(position, f"{hint} item {index + 1}", path + ("prefixItems", index))
        for index, position in enumerate(positions)
    ]
    if items is not False:  # more items after the positions, of ``items``' type
        types.append(of(items, f"{hint} item", path + ("items",)))
    return types
