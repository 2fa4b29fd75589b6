"""What the contract check says of the array keywords (contract stage).

``uniqueItems`` is true or false; ``items`` is one schema (a list of schemas is draft 2019's
spelling of ``prefixItems``). A ``minItems`` above what ``items: false`` lets through is
legal JSON Schema that no array passes: a warning (:func:`warnings`). The counts' own rules
(a non-negative integer; a lower bound above the upper is a warning) are every count
keyword's, in contract/checker.py. ``contract/checker.py`` calls :func:`check` and
:func:`warnings` on every schema and reports what they yield, and does not descend into
what :func:`not_schemas` names.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...schema.pointers import SchemaPath
from ...schema.values import is_integer

#: One problem: where (a schema path from the document root) and what.
Problem = tuple[SchemaPath, str]


def check(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """The problems of the family's keywords in one schema."""
    if "uniqueItems" in schema and not isinstance(schema["uniqueItems"], bool):
        yield path + ("uniqueItems",), "'uniqueItems' must be true or false"
    if "items" in not_schemas(schema):
        yield (
            path + ("items",),
            "'items' is one schema in 2020-12; a list of schemas is 'prefixItems'",
        )


def warnings(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """Legal array keywords that let no array pass (``minItems`` above what ``items: false``
    lets through): the generated checks keep that meaning; a warning."""
    yield from _unreachable_count(schema, path)


def no_array(schema: dict[str, Any]) -> bool:
    """Whether the family's keywords let no array pass ``schema`` (:func:`warnings`)."""
    return any(_unreachable_count(schema, ()))


def not_schemas(schema: dict[str, Any]) -> tuple[str, ...]:
    """The family's keywords in ``schema`` that should hold a schema and hold an older draft's
    list instead: :func:`check` reports them, so the checker does not descend into them."""
    return ("items",) if isinstance(schema.get("items"), list) else ()


def _unreachable_count(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """``minItems`` above what ``items: false`` lets through (the ``prefixItems`` only)."""
    min_items = schema.get("minItems")
    prefix = schema.get("prefixItems")
    allowed = len(prefix) if isinstance(prefix, list) else 0
    if schema.get("items") is False and is_integer(min_items) and min_items > allowed:
        yield (
            path + ("minItems",),
            f"'minItems' ({min_items}) but 'items: false' allows "
            + (f"no more than {allowed} items (the 'prefixItems')" if allowed else "no items")
            + ": as written, no array can pass here",
        )
