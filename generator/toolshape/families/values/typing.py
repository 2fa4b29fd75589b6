"""The Python types ``type``, ``enum`` and ``const`` give an accepted value (codegen stage).

``codegen/typing_model.py`` types the accepted arguments (the ``Arguments`` TypedDicts). It asks
this module what the family's keywords say of a value's Python type: the JSON types ``type``
admits (:func:`declared_types`, read by the model's branch per type too), the ``Literal`` an
``enum`` or ``const`` of literals makes (:func:`literal_type`), and for a union's branch taken
with the schema around it, the types both admit (:func:`common_types`, :func:`with_types`).
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from ...codegen.literals import literal
from ...codegen.model_parts import JsonType
from ...schema.values import json_key, type_allows
from .rules import type_names


def union(types: list[str]) -> str:
    """Type expressions joined with ``|``, each once, in order."""
    return " | ".join(dict.fromkeys(types))


def pinned_values(schema: dict[str, Any]) -> list[Any] | None:
    """The values that fix a value's Python type: ``enum``'s members, else ``const``'s one
    value in a list, each once and only those ``type`` allows (a member listed twice or of
    another type never reaches the handler); None when the schema lists none."""
    values = schema.get("enum", [schema["const"]] if "const" in schema else None)
    if not isinstance(values, list):
        return None
    declared = schema.get("type")
    types = (
        None if declared is None else tuple(declared if isinstance(declared, list) else [declared])
    )
    kept: dict[Hashable, Any] = {}
    for value in values:
        if type_allows(types, value):
            kept.setdefault(json_key(value), value)
    return list(kept.values())


def literal_type(schema: dict[str, Any]) -> str | None:
    """``Literal[...]`` (``| None``) of an ``enum``/``const`` whose members are all literals
    Python's ``Literal`` takes (strings, integers, booleans, null); None otherwise."""
    values = pinned_values(schema)
    if not values:
        return None
    if not all(v is None or isinstance(v, (str, bool, int)) for v in values):
        return None
    members = [v for v in values if v is not None]
    literal_part = [f"Literal[{', '.join(literal(v) for v in members)}]"] if members else []
    return union(literal_part + ["None"] * (None in values))


def declared_types(schema: dict[str, Any]) -> tuple[JsonType, ...] | None:
    """The JSON types a schema's ``type`` admits (None: no ``type``); with both ``integer``
    and ``number``, ``number`` alone (it admits every integer)."""
    types = type_names(schema)
    if types is None:
        return None
    if "integer" in types and "number" in types:
        types = tuple(t for t in types if t != "integer")
    return types


def common_types(outer: tuple[JsonType, ...], inner: tuple[JsonType, ...]) -> list[JsonType]:
    """The JSON types both lists admit (an integer is a number)."""
    common: list[JsonType] = []
    for kind in inner:
        if kind in outer:
            common.append(kind)
        elif {kind, *outer} >= {"integer", "number"}:
            common.append("integer")  # one says integer, the other number: an integer
    return list(dict.fromkeys(common))


def with_types(schema: dict[str, Any], types: list[JsonType]) -> None:
    """Have ``schema`` (a merged copy) admit ``types`` only."""
    schema["type"] = types
