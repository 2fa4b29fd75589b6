"""Where a schema holds subschemas, and the one walk over them.

The keywords of the 2020-12 subset toolshape implements, by the shape of what they hold: one
schema, a list of schemas, or a map of names to schemas (read from the vocabulary table, in
the order of the walk). The contract check, the importer, the exporter and ``toolshape diff``
read them from here, so a new applicator is added once, in ``vocabulary.py``.
"""

from __future__ import annotations

from typing import Any

from . import vocabulary
from .pointers import SchemaPath

#: Keywords whose value is one schema.
ONE_SCHEMA = vocabulary.holders("one")
#: Keywords whose value is a list of schemas.
SCHEMA_LISTS = vocabulary.holders("list")
#: Keywords whose value maps names (or patterns) to schemas.
SCHEMA_MAPS = vocabulary.holders("map")
#: Annotations whose value is one schema: checked as a schema, never applied.
ANNOTATION_SCHEMAS = vocabulary.names(
    lambda k: k.implemented and k.annotation is not None and k.shape == "one"
)
#: The keyword naming the JSON types a schema allows (the one taking "types").
(TYPE,) = vocabulary.taking("types")

_NULL = {TYPE: "null"}
#: Every keyword holding subschemas, for :func:`subschemas`' quick answer on a leaf.
HOLDERS = frozenset((*ONE_SCHEMA, *SCHEMA_LISTS, *SCHEMA_MAPS))


def subschemas(schema: Any, path: SchemaPath = ()) -> list[tuple[Any, SchemaPath]]:
    """The direct subschemas of ``schema`` with their paths (list indexes as ints), in keyword
    order: one-schema keywords, then lists, then maps (each map in its key order)."""
    # Most schemas of a contract are leaves: one pass over their few keys answers for them,
    # where asking for each of the 18 keywords took most of the export's walks (measured:
    # platform_definitions 4.6 -> 4.0 ms per contract over the 40-contract set).
    if not isinstance(schema, dict) or HOLDERS.isdisjoint(schema):
        return []
    found: list[tuple[Any, SchemaPath]] = []
    for keyword in ONE_SCHEMA:
        if keyword in schema and isinstance(schema[keyword], (dict, bool)):
            found.append((schema[keyword], path + (keyword,)))
    for keyword in SCHEMA_LISTS:
        if keyword in schema and isinstance(schema[keyword], list):
            found.extend((sub, path + (keyword, i)) for i, sub in enumerate(schema[keyword]))
    for keyword in SCHEMA_MAPS:
        if keyword in schema and isinstance(schema[keyword], dict):
            found.extend((sub, path + (keyword, key)) for key, sub in schema[keyword].items())
    return found


def data_keyword(root: Any, path: SchemaPath) -> str | None:
    """Where the existing ``path`` under the schema ``root`` leaves the subschemas: the keyword
    whose value is data or an annotation (``enum``, ``examples``, ``default``...), not schemas;
    None when every step goes through a keyword that holds subschemas (``contentSchema`` too).
    JSON Schema 2020-12 (core 9.4.2) leaves a ``$ref`` to such a place undefined."""
    node, at = root, 0
    while at < len(path):
        if not isinstance(node, dict):
            return None  # (a path into a boolean schema does not exist)
        keyword = path[at]
        if keyword in ONE_SCHEMA or keyword in ANNOTATION_SCHEMAS:
            node, at = node[keyword], at + 1
        elif keyword in (*SCHEMA_LISTS, *SCHEMA_MAPS) and at + 1 < len(path):
            held = node[keyword]
            node = held[int(path[at + 1])] if isinstance(held, list) else held[path[at + 1]]
            at += 2
        else:
            return str(keyword)
    return None


def nullable_alternative(branches: Any, exclusive: bool) -> tuple[int, Any] | None:
    """For the usual "optional" spelling ``[X, {type: null}]`` (either order), the index and
    schema of X; None for any other list.

    The generated code and the reference evaluator both read such an anyOf as "null, or X"
    and report X's own errors for a non-null value. For oneOf (``exclusive``) it only reads
    that way when X itself refuses null (a ``type`` without "null"): otherwise null would match
    both branches, which oneOf refuses."""
    if not isinstance(branches, list) or len(branches) != 2:
        return None
    for index, branch in enumerate(branches):
        if branch == _NULL:
            other = branches[1 - index]
            if exclusive and not _refuses_null(other):
                return None
            return 1 - index, other
    return None


def _refuses_null(schema: Any) -> bool:
    raw = schema.get(TYPE) if isinstance(schema, dict) else None
    if raw is None:
        return False
    return "null" not in (raw if isinstance(raw, list) else [raw])
