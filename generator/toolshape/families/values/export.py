"""Each platform's lowering of ``type``, ``enum`` and ``const`` (platforms stage).

An export never refuses arguments the contract accepts (``platforms/export.py``): what the
platform cannot express is dropped, and a note says the generated validator is the only
enforcement. ``type`` is kept everywhere (the finishes of a node read it: OpenAI strict mode
needs one, Gemini takes one type with ``nullable``); Anthropic's strict tool use takes no
object or array among the allowed values; Gemini's legacy schema (OpenAPI 3.0) has string
enums only and no ``const``: a string ``const`` becomes an enum of one, null becomes
``nullable``, and the other values are dropped. Values a platform drops are told to the model
in the description instead (``(one of 1, 2, "large")``, ``(exactly true)``).

``platforms/export.py`` maps the three keywords to :func:`lower` in its dispatch table (and
``type`` and ``enum`` to :func:`merge`, when two nodes become one), calls
:func:`gemini_values` when it finishes a node for Gemini, and reads a node's types with
:func:`type_list` (and, where it must say a type, :func:`inferred_type`).
"""

from __future__ import annotations

import json
from typing import Any

from ...platforms.lowering import KeywordAt, Lowering, tell_model
from ...schema.pointers import SchemaPath
from ...schema.values import json_key, json_type
from .rules import CONST, ENUM, TYPE

#: The keywords :func:`lower` lowers.
KEYWORDS = (TYPE, ENUM, CONST)
#: The keywords :func:`merge` merges (two different consts cannot be merged).
MERGED = (TYPE, ENUM)


def phrase(keyword: str, value: Any) -> str:
    """The description's phrase for an ``enum`` or ``const`` the platform drops (values in JSON)."""
    if keyword == ENUM:
        return "one of " + ", ".join(json.dumps(v, ensure_ascii=False) for v in value)
    return "exactly " + json.dumps(value, ensure_ascii=False)


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """One of the family's keywords, kept in ``out`` when the platform takes it, else noted."""
    values = kw.value if kw.keyword == ENUM else [kw.value]
    if kw.keyword == TYPE:
        out[kw.keyword] = kw.value
    elif lowering.target == "anthropic" and any(isinstance(v, (dict, list)) for v in values):
        lowering.dropped(kw.path, kw.keyword, "objects and arrays are not allowed in it")
        tell_model(out, phrase(kw.keyword, kw.value))
    else:
        out[kw.keyword] = kw.value


def type_list(value: Any) -> list[str]:
    """The types a ``type`` value names, as a list ([] for no ``type``)."""
    if value is None:
        return []
    return [value] if isinstance(value, str) else list(value)


def inferred_type(values: list[Any]) -> Any:
    """The ``type`` that exactly covers the JSON types of ``values`` (integers within number)."""
    kinds: list[str] = []
    for value in values:
        kind = json_type(value)
        if kind not in kinds:
            kinds.append(kind)
    if "number" in kinds and "integer" in kinds:
        kinds.remove("integer")
    return kinds[0] if len(kinds) == 1 else kinds


def gemini_values(
    lowering: Lowering, node: dict[str, Any], path: SchemaPath
) -> tuple[list[str], bool]:
    """Take ``type``, ``enum`` and ``const`` out of the node: the types it allows (inferred
    from the values when it has no ``type``) and whether null is one of its values; the
    string values stay as ``enum``."""
    types = type_list(node.pop(TYPE, None))
    nullable = "null" in types
    if ENUM in node:
        values = node.pop(ENUM)
        nullable = nullable or None in values
        types = types or type_list(inferred_type(values))
        _gemini_string_enum(lowering, node, values, path)
    if CONST in node:
        value = node.pop(CONST)
        types = types or type_list(inferred_type([value]))
        nullable = nullable or value is None
        _gemini_const(lowering, node, value, path)
    return types, nullable


def _gemini_string_enum(
    lowering: Lowering, node: dict[str, Any], values: list[Any], path: SchemaPath
) -> None:
    strings = [v for v in values if isinstance(v, str)]
    others = [v for v in values if not isinstance(v, str) and v is not None]
    if others:
        shown = ", ".join(json.dumps(v) for v in others[:5]) + (", ..." if len(others) > 5 else "")
        lowering.dropped(path, ENUM, f"Gemini enums hold only strings; {shown} not enforced")
        tell_model(node, phrase(ENUM, values))
    if strings:
        node[ENUM] = strings


def _gemini_const(lowering: Lowering, node: dict[str, Any], value: Any, path: SchemaPath) -> None:
    """A string ``const`` is an enum of one; null is ``nullable`` (see gemini_values)."""
    if isinstance(value, str):
        node[ENUM] = [value]
    elif value is not None:
        lowering.dropped(path, CONST, f"Gemini has no const; {json.dumps(value)} is not enforced")
        tell_model(node, phrase(CONST, value))


def merge(
    lowering: Lowering, keyword: str, mine: Any, theirs: Any, where: SchemaPath, out: dict[str, Any]
) -> None:
    """Two nodes' ``type`` (the types both allow; none: dropped, noted) or ``enum`` (the
    members both list, else mine) made one."""
    if keyword == TYPE:
        both = intersect_types(type_list(mine), type_list(theirs))
        if both:
            out[keyword] = both[0] if len(both) == 1 else both
        else:
            lowering.dropped(where, keyword, "it contradicts the type beside it")
    else:
        listed = {json_key(w) for w in theirs}
        common = [v for v in mine if json_key(v) in listed]
        out[keyword] = common or mine


def intersect_types(a: list[str], b: list[str]) -> list[str]:
    """The types both lists allow (integer is also a number)."""
    both = [t for t in a if t in b or (t == "integer" and "number" in b)]
    both += [t for t in b if t == "integer" and "number" in a and t not in both]
    return both
