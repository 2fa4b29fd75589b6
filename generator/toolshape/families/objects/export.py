"""Each platform's lowering of the object keywords (platforms stage).

An export never refuses arguments the contract accepts (``platforms/export.py``): a keyword
the platform cannot express is dropped, and a note says the generated validator is the only
enforcement. Every platform takes ``properties``, ``required`` and ``additionalProperties``
(their subschemas lowered in turn); Gemini's legacy schema has no ``patternProperties`` (dropped;
the others keep it, and the exporter's finish refuses it where dropping it would refuse keys
the contract accepts); no platform here takes ``propertyNames``, ``dependentRequired`` or
``dependentSchemas``. Only Gemini takes the sizes ``minProperties`` and ``maxProperties``
(:func:`lower_size`); the others tell the model a size in the description (``(at most 10
properties)``).

The platforms that take an object node also finish it by their own rules: OpenAI strict mode
and Anthropic strict tool use need ``additionalProperties: false`` on every object
(:func:`strict_object`). An open object is exported closed where closing is a narrowing that
keeps the contract's meaning: the model then sends only the listed keys, each of which the
contract accepts (what both SDKs do to a pydantic model). Where closing cannot express the
contract (``patternProperties``, ``additionalProperties`` as a schema, an object listing no
properties, a required key not among the properties, keys listed in ``anyOf`` branches), strict
mode is refused there, with the reason. OpenAI's every key required stays with the exporter,
which records the keys it makes nullable. Gemini's legacy schema has no
``additionalProperties`` (:func:`gemini_drop_additional_properties`).

``platforms/export.py`` maps each of :data:`KEYWORDS` to :func:`lower` in its dispatch table
(and each of :data:`MERGED` to :func:`merge`, when two nodes become one), and calls the
finishes when it finishes a node.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...families.combinators.export import ANY_OF
from ...families.values.rules import TYPE
from ...platforms.lowering import KeywordAt, Lowering, counted, merge_listed, merge_map, tell_model
from ...schema import pointers, vocabulary
from ...schema.pointers import SchemaPath
from . import rules

#: The sizes, lowered by :func:`lower_size`.
SIZES = vocabulary.bounds(limits="properties")
#: How a description tells the model a size the platform does not enforce.
PHRASES = {"minProperties": "at least {}", "maxProperties": "at most {}"}
#: The keywords :func:`lower` lowers.
#: (unevaluatedProperties is the unevaluated family's: it depends on what its siblings evaluate.)
KEYWORDS = tuple(
    k
    for k in vocabulary.applying_to("object")
    if k not in SIZES and not vocabulary.keyword(k).dynamic
)
#: The keywords :func:`merge` merges (the others cannot be merged: dropped, noted).
MERGED = ("properties", "required", "additionalProperties", "patternProperties")
#: The keywords that make a node without a ``type`` an object, for the strict finish.
_OBJECT_SHAPED = ("properties", "additionalProperties", "patternProperties")


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """One of the family's keywords, lowered into ``out`` when the platform takes it, else noted."""
    _LOWERINGS[kw.keyword](lowering, kw, out)


def lower_size(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """``minProperties`` or ``maxProperties``: only Gemini takes them; the others are told."""
    if lowering.target == "gemini":
        out[kw.keyword] = kw.value
    else:
        lowering.dropped(kw.path, kw.keyword)
        tell_model(out, PHRASES[kw.keyword].format(counted(kw.value, "property", "properties")))


def _kept(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    out[kw.keyword] = kw.value


def _properties(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """Each property's schema lowered, and where it came from remembered (OpenAI strict mode
    asks the contract's own schema whether a key allows null)."""
    out[kw.keyword] = {}
    for key, sub in kw.value.items():
        lowered = out[kw.keyword][key] = lowering.lower(sub, kw.where + (key,))
        lowering.origins[id(lowered)] = (lowered, kw.where + (key,))


def _additional_properties(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    value = kw.value
    out[kw.keyword] = value if isinstance(value, bool) else lowering.lower(value, kw.where)


def _pattern_properties(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    if lowering.target == "gemini":
        lowering.dropped(kw.path, kw.keyword)
    else:  # refused in finish(): dropping it would refuse keys the contract accepts
        out[kw.keyword] = {
            key: lowering.lower(sub, kw.where + (key,)) for key, sub in kw.value.items()
        }


def _not_exported(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """A keyword no platform here takes: left out, and noted."""
    lowering.dropped(kw.path, kw.keyword)


def is_object(node: dict[str, Any], types: list[str]) -> bool:
    """Whether the strict platforms finish ``node`` as an object (``types``: its type list)."""
    return "object" in types or (TYPE not in node and any(k in node for k in _OBJECT_SHAPED))


def strict_object(lowering: Lowering, node: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
    """An object node for OpenAI strict mode or Anthropic strict tool use: closed
    (``additionalProperties: false`` added, the place reported to ``lowering.closed``) where
    closing keeps the contract's meaning; otherwise refused, with the reason."""
    mode = lowering.platform
    if "patternProperties" in node:
        lowering.refuse(
            path + ("patternProperties",),
            f"{mode} refuses 'patternProperties' (only listed properties and additionalProperties: false "
            "are allowed), and closing the object would refuse every key the patterns describe",
        )
        node = {k: v for k, v in node.items() if k != "patternProperties"}
    additional = node.get("additionalProperties", True)
    if additional is True:
        unclosable = _why_not_closable(node, path)
        if unclosable is None:
            lowering.closed(path)
            return {**node, "additionalProperties": False}
        detail = "does not say 'additionalProperties: false'"
        if "additionalProperties" in node:
            detail = "says 'additionalProperties: true'"
        lowering.refuse(
            path,
            f"the object at {_where(path)} {detail}; {mode} requires it on every object, and closing "
            f"this one cannot express the contract: {unclosable}",
        )
    elif additional is not False:
        lowering.refuse(
            path + ("additionalProperties",),
            f"'additionalProperties' at {_where(path)} is a schema (a map of free-form keys); "
            f"{mode} allows only additionalProperties: false, and closing the object would refuse "
            "every key the schema describes",
        )
    return node


def _why_not_closable(node: dict[str, Any], path: SchemaPath) -> str | None:
    """Why closing this open object would not keep the contract's meaning (None: it would).

    Closed, an object takes only its listed properties. That is a narrowing the model can
    work with when those are the keys the contract describes: not when it lists none (a
    free-form map; the root is a tool without parameters, which closing fits), when a
    required key is not listed (nothing could pass), or when ``anyOf`` branches list keys of
    their own (the object and its branches would each refuse the other's keys).
    """
    branches = node.get(ANY_OF, [])
    if any(isinstance(b, dict) and b.get("properties") for b in branches):
        return (
            f"its '{ANY_OF}' branches list keys of their own, which the object closed would refuse"
        )
    properties = node.get("properties", {})
    if not properties and path:
        return "it lists no properties (a map of free-form keys), so closed it would take only {}"
    missing = [key for key in node.get("required", []) if key not in properties]
    if missing:
        shown = ", ".join(repr(key) for key in missing)
        return f"required {shown} not among its properties, so closed no object would pass"
    return None


def gemini_drop_additional_properties(
    lowering: Lowering, node: dict[str, Any], path: SchemaPath
) -> None:
    """Gemini's legacy schema has no ``additionalProperties``: taken out, and noted unless true."""
    if "additionalProperties" in node:
        additional = node.pop("additionalProperties")
        if additional is not True:
            if additional is False:
                lowering.dropped(path, "additionalProperties", value=False)
            else:
                lowering.dropped(path, "additionalProperties", "a schema for the keys not listed")


def merge(
    lowering: Lowering, keyword: str, mine: Any, theirs: Any, where: SchemaPath, out: dict[str, Any]
) -> None:
    """Two nodes' object keywords made one: the properties and patterns of both (a key both
    hold: one schema for both), the required keys of both, the stricter of two
    ``additionalProperties`` when one is a boolean (two schemas: dropped, noted)."""
    if keyword == "required":
        merge_listed(lowering, keyword, mine, theirs, where, out)
    elif keyword != "additionalProperties":
        merge_map(lowering, keyword, mine, theirs, where, out)
    elif mine is False or theirs is False:
        out[keyword] = False
    elif mine is True:
        out[keyword] = theirs
    elif theirs is not True:
        lowering.dropped(where, keyword)


def declares_keys(node: dict[str, Any]) -> bool:
    """Whether the node lists some key (``properties`` not empty)."""
    return bool(node.get("properties"))


def has_keys(node: dict[str, Any]) -> bool:
    """Whether the node says ``properties`` (an object's nesting counts it, even empty)."""
    return "properties" in node


def key_count(node: dict[str, Any]) -> int:
    """How many keys a (lowered) node lists: ``len(keys_of(node))``, without its copy (the
    export's size walk asks it of every node)."""
    properties = node.get("properties")
    return len(properties) if isinstance(properties, dict) else 0


def keys_of(node: dict[str, Any]) -> dict[str, Any]:
    """The keys a (lowered) node lists and their schemas, a copy ({}: none)."""
    properties = node.get("properties")
    return dict(properties) if isinstance(properties, dict) else {}


def required_of(node: dict[str, Any]) -> list[str]:
    """The keys the node requires, a copy ([]: none)."""
    return list(rules.required_of(node))


def optional_keys(node: dict[str, Any]) -> list[str]:
    """The keys the node lists and does not require."""
    required = rules.required_of(node)
    return [key for key in keys_of(node) if key not in required]


def with_keys(
    node: dict[str, Any], properties: dict[str, Any], required: list[str]
) -> dict[str, Any]:
    """The node (the caller's own copy, changed) listing ``properties`` and requiring
    ``required``."""
    node["properties"] = properties
    node["required"] = required
    return node


def property_path(path: SchemaPath, key: str) -> SchemaPath:
    """Where the schema of the listed key ``key`` of the node at ``path`` is."""
    return path + ("properties", key)


def fill_properties(node: dict[str, Any], types: list[str]) -> None:
    """The no-op ``properties: {}`` OpenAI requires on every object schema, even with strict
    mode off (``types``: the node's type list)."""
    if "object" in types and "properties" not in node:
        node["properties"] = {}


def gemini_root_map(lowering: Lowering, root: dict[str, Any]) -> None:
    """Gemini's parameters need listed keys: arguments that are a map of free-form keys (no
    ``properties``, keys under ``additionalProperties`` or ``patternProperties``) are refused."""
    if not root.get("properties") and (
        isinstance(root.get("additionalProperties"), dict) or "patternProperties" in root
    ):
        lowering.refuse(
            (),
            "the arguments are a map of free-form keys (no 'properties'); Gemini parameters need listed properties",
        )


def gemini_free_form(lowering: Lowering, path: SchemaPath) -> None:
    """Gemini's legacy parameters refuse an object schema that lists no keys."""
    lowering.refuse(
        path,
        f"Gemini refuses an object schema without properties (a free-form map) at {_where(path)}: "
        "'properties: should be non-empty for OBJECT type' (--target gemini, with parametersJsonSchema, "
        "takes such schemas)",
    )


def _where(path: SchemaPath) -> str:
    """A place as the exporter's messages name it (its JSON Pointer, or the root)."""
    return pointers.pointer(path) or "the root"


_LOWERINGS: dict[str, Callable[[Lowering, KeywordAt, dict[str, Any]], None]] = {
    "properties": _properties,
    "required": _kept,
    "additionalProperties": _additional_properties,
    "patternProperties": _pattern_properties,
    "propertyNames": _not_exported,
    "dependentRequired": _not_exported,
    "dependentSchemas": _not_exported,
}
