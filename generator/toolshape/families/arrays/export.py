"""Each platform's lowering of the array keywords (platforms stage).

An export never refuses arguments the contract accepts (``platforms/export.py``): a keyword
the platform cannot express is dropped, and a note says the generated validator is the only
enforcement. No platform here takes ``contains`` and its counts, nor ``uniqueItems: true``;
Anthropic strict tool use takes ``minItems`` 0 or 1 only (a larger one becomes 1, a
loosening) and no ``maxItems``. No platform has tuples either: ``prefixItems`` becomes an
``items`` schema that any position's schema satisfies (a loosening, noted), lowered together
with the ``items`` after it. A size or uniqueness a platform does not enforce is told to the
model in the description instead (:data:`PHRASES`: ``(at least 2 items)``).

``platforms/export.py`` maps each of the family's keywords to :func:`lower` in its dispatch
table, and ``items`` to :func:`merge` (two nodes made one).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...families.combinators.export import ANY_OF
from ...platforms.lowering import KeywordAt, Lowering, counted, tell_model
from ...schema import pointers, vocabulary
from ...schema.pointers import SchemaPath

#: The keywords :func:`lower` lowers.
#: (unevaluatedItems is the unevaluated family's: it depends on what its siblings evaluate.)
KEYWORDS = tuple(k for k in vocabulary.applying_to("array") if not vocabulary.keyword(k).dynamic)
#: The keywords :func:`merge` merges (the others cannot be merged: dropped, noted).
ITEMS = "items"
MERGED = (ITEMS,)
#: How a description tells the model a size or uniqueness the platform does not enforce.
PHRASES = {"minItems": "at least {}", "maxItems": "at most {}", "uniqueItems": "no item repeated"}


def phrase(keyword: str, value: Any) -> str:
    """The description's phrase for a size or ``uniqueItems``: ``at most 3 items``."""
    if keyword == "uniqueItems":
        return PHRASES[keyword]
    return PHRASES[keyword].format(counted(value, "item", "items"))


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """One of the family's keywords, kept in ``out`` as the platform takes it, else noted."""
    _LOWERINGS.get(kw.keyword, _not_exported)(lowering, kw, out)


def _tuple_items(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    out.update(_prefix_items(lowering, kw.node, kw.path))


def _items(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    if "prefixItems" in kw.node:
        return  # lowered with prefixItems
    if kw.value is False:
        lowering.dropped(kw.path, kw.keyword, "the array must be empty", value=False)
    elif kw.value is not True:
        out[kw.keyword] = lowering.lower(kw.value, kw.where)


def _unique_items(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    if kw.value:
        lowering.dropped(kw.path, kw.keyword, value=True)
        tell_model(out, phrase(kw.keyword, kw.value))


def _min_items(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    if lowering.target == "anthropic" and kw.value > 1:
        lowering.loosened(
            kw.path,
            f"'minItems' {kw.value} is exported as 'minItems' 1 (only 0 and 1 are supported)",
        )
        out[kw.keyword] = 1
        tell_model(out, phrase(kw.keyword, kw.value))
    else:
        out[kw.keyword] = kw.value


def _max_items(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    if lowering.target == "anthropic":
        lowering.dropped(kw.path, kw.keyword)
        tell_model(out, phrase(kw.keyword, kw.value))
    else:
        out[kw.keyword] = kw.value


def _not_exported(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """contains, minContains, maxContains: no platform here takes them."""
    lowering.dropped(kw.path, kw.keyword)


def _prefix_items(lowering: Lowering, node: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
    """'prefixItems' (a tuple) as 'items' that any of the positions' schemas satisfies: a loosening.

    No target here has tuples; a bare array would be refused ('array schema missing
    items'), so every item may match any position's schema (and, after the tuple,
    the 'items' schema); 'items: false' (nothing after the tuple) becomes 'maxItems'.
    """
    prefix = node["prefixItems"]
    rest = node.get("items", True)
    branches = [lowering.lower(sub, path + ("prefixItems", i)) for i, sub in enumerate(prefix)]
    out: dict[str, Any] = {}
    if rest is False:
        out["maxItems"] = min(len(prefix), node.get("maxItems", len(prefix)))
    elif rest is True:
        lowering.dropped(
            path,
            "prefixItems",
            "items after the listed positions may be anything, so no items schema is exported",
        )
        return out
    else:
        branches.append(lowering.lower(rest, path + ("items",)))
    if any(b is True or b == {} for b in branches):
        lowering.dropped(path, "prefixItems", "a position accepts anything")
        return out
    lowering.loosened(
        path,
        f"'prefixItems' (a schema per position) is exported as 'items' with '{ANY_OF}' of those"
        " schemas",
    )
    items = lowering.finish(
        {ANY_OF: [b for b in branches if b is not False]}, path + ("prefixItems",)
    )
    out["items"] = items
    return out


#: How each keyword is lowered (the rest: :func:`_not_exported`).
_LOWERINGS: dict[str, Callable[[Lowering, KeywordAt, dict[str, Any]], None]] = {
    "prefixItems": _tuple_items,
    "items": _items,
    "uniqueItems": _unique_items,
    "minItems": _min_items,
    "maxItems": _max_items,
}


def merge(
    lowering: Lowering, keyword: str, mine: Any, theirs: Any, where: SchemaPath, out: dict[str, Any]
) -> None:
    """Two nodes' ``items`` made one schema for both."""
    out[keyword] = lowering.merge_schemas(mine, theirs, where + (keyword,))


def lacks_items(node: dict[str, Any], types: list[str]) -> bool:
    """Whether a node allowing arrays (``types``: its type list) says nothing of their items."""
    return "array" in types and ITEMS not in node


def openai_items(
    lowering: Lowering, node: dict[str, Any], types: list[str], path: SchemaPath
) -> None:
    """OpenAI strict mode refuses an array schema without ``items``."""
    if lacks_items(node, types):
        lowering.refuse(
            path,
            f"the array at {_where(path)} has no 'items' schema (or only 'items: true'); OpenAI strict mode "
            "refuses it ('array schema missing items'): give the array an items schema with a type",
        )


def gemini_items(lowering: Lowering, node: dict[str, Any], path: SchemaPath) -> None:
    """Gemini's legacy parameters refuse an array schema (``node``) without ``items``."""
    if ITEMS not in node:
        lowering.refuse(
            path,
            f"the array at {_where(path)} has no 'items' schema (or only 'items: true'); Gemini's legacy "
            "parameters refuse it ('items: missing field'): give the array an items schema, or export "
            "--target gemini (parametersJsonSchema)",
        )


def fill_items(
    node: dict[str, Any], types: list[str], in_its_place: Callable[[dict[str, Any]], Any]
) -> None:
    """The no-op ``items: {}`` OpenAI requires on every array schema, even with strict mode
    off (``in_its_place(node)``: what the items must hold instead, or None for nothing)."""
    if lacks_items(node, types):
        instead = in_its_place(node)
        node[ITEMS] = {} if instead is None else instead


def _where(path: SchemaPath) -> str:
    """A place as the exporter's messages name it (its JSON Pointer, or the root)."""
    return pointers.pointer(path) or "the root"
