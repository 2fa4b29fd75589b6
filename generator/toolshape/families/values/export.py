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

from ...families.combinators.export import ANY_OF
from ...families.references.targets import REF
from ...platforms.lowering import KeywordAt, Lowering, tell_model
from ...schema import vocabulary
from ...schema.pointers import SchemaPath, pointer
from ...schema.values import json_key, json_type
from .rules import CONST, ENUM, TYPE, type_names

#: The keywords :func:`lower` lowers.
KEYWORDS = (TYPE, ENUM, CONST)
#: The kind of value each keyword constrains (to split a schema with several types into anyOf
#: branches; a Gemini node holds only the keywords Gemini keeps by then).
_KIND = vocabulary.type_of_keyword()
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


def types_of(node: dict[str, Any]) -> list[str]:
    """The types a node's ``type`` names, as a list ([] for no ``type``)."""
    return list(type_names(node) or ())


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


def or_null(schema: Any) -> Any:
    """``schema`` or null, spelled the way OpenAI strict mode takes it (a type list, or anyOf with null)."""
    if (
        isinstance(schema, dict)
        and TYPE in schema
        and set(schema) & {ENUM, CONST, REF, ANY_OF} == set()
    ):
        return {**schema, TYPE: type_list(schema[TYPE]) + ["null"]}
    plain_enum = isinstance(schema, dict) and isinstance(schema.get(ENUM), list)
    if plain_enum and CONST not in schema and ANY_OF not in schema:
        out = {**schema, ENUM: schema[ENUM] + [None]}
        if TYPE in out:
            out[TYPE] = type_list(out[TYPE]) + ["null"]
        return out
    return {ANY_OF: [schema, {TYPE: "null"}]}


def strict_type(lowering: Lowering, node: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
    """The node for the strict platforms: where it says no type (nor ``anyOf`` or ``$ref``),
    the type of the values its ``enum`` or ``const`` lists; OpenAI strict mode refuses a node
    with none."""
    if TYPE in node or ANY_OF in node or REF in node:
        return node
    values = node[ENUM] if ENUM in node else [node[CONST]] if CONST in node else None
    if values:  # (an empty enum names no type: no value passes it)
        return {TYPE: inferred_type(values), **node}
    if lowering.target == "openai":
        lowering.refuse(
            path,
            f"the schema at {_where(path)} has no 'type'; OpenAI strict mode needs a 'type' "
            f"(or '{ANY_OF}' or '{REF}') on every schema: add one",
        )
    return node


def _where(path: SchemaPath) -> str:
    """A place as the exporter's messages name it (its JSON Pointer, or the root)."""
    return pointer(path) or "the root"


def gemini_type(
    lowering: Lowering, node: dict[str, Any], types: list[str], nullable: bool, path: SchemaPath
) -> dict[str, Any]:
    """The node with one ``type`` and ``nullable``; several types become ``anyOf`` a branch each."""
    others = [t for t in types if t != "null"]
    if len(others) == 1 or (not others and nullable):
        node = {TYPE: others[0] if others else "null", **node}
        if ENUM in node and node[TYPE] != "string":
            node.pop(ENUM)
    elif len(others) > 1:
        if ANY_OF in node:
            lowering.dropped(path, TYPE, f"{types} beside '{ANY_OF}'")
        else:
            node[ANY_OF] = _split_by_type(node, others)
    if nullable and (others or ANY_OF in node):
        node["nullable"] = True
    return node


def _split_by_type(node: dict[str, Any], types: list[str]) -> list[dict[str, Any]]:
    """One branch per type, each with the node's keywords about that kind of value (integer
    takes the number keywords, string the enum), which leave the node."""
    branches = []
    for kind in types:
        branch: dict[str, Any] = {TYPE: kind}
        for key in list(node):
            if _KIND.get(key) == ("number" if kind == "integer" else kind) or (
                key == ENUM and kind == "string"
            ):
                branch[key] = node[key]
        branches.append(branch)
    for key in list(node):
        if key in _KIND or key == ENUM:
            del node[key]
    return branches


def is_of_type(node: dict[str, Any], kind: str) -> bool:
    """Whether the node says exactly one type, ``kind``."""
    return node.get(TYPE) == kind


def several_types(node: dict[str, Any]) -> bool:
    """Whether the node allows one of several types (a union, for Anthropic's count)."""
    return ANY_OF in node or isinstance(node.get(TYPE), list)


def members(node: dict[str, Any]) -> list[Any] | None:
    """The members of the node's ``enum`` (None: it has none)."""
    found = node.get(ENUM)
    return found if isinstance(found, list) else None


def members_path(path: SchemaPath) -> SchemaPath:
    """Where the ``enum`` of the node at ``path`` is."""
    return path + (ENUM,)


def const_text(node: dict[str, Any]) -> str | None:
    """The node's ``const`` when it is a string (None: otherwise)."""
    value = node.get(CONST)
    return value if isinstance(value, str) else None


def of_type(kind: str) -> dict[str, Any]:
    """The schema of the values of one JSON type."""
    return {TYPE: kind}
