"""The reference evaluation of ``type``, ``enum`` and ``const`` (contract stage).

Part of the oracle of the generated tests: ``contract/reference.py`` asks :func:`wrong_type`
of every value first (a value of the wrong type is refused by ``type`` alone: nothing else of
its schema is evaluated), then :func:`refused`. Values are compared as JSON compares them (1
and 1.0 are one value, true is not 1). Plain on purpose, and written apart from the generated
checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...schema.values import enum_has, is_integer, is_number, json_equal
from .rules import CONST, ENUM, no_value, type_names

#: The error code of a value of the wrong type (also the root's, when it is not an object).
TYPE = "type"


def wrong_type(schema: dict[str, Any], value: Any) -> bool:
    """Whether ``schema``'s ``type`` refuses ``value`` (False when it has none)."""
    kinds = type_names(schema)
    if kinds is not None and len(kinds) == 1:
        # Most schemas name one type, and this is asked of every value the evaluator checks:
        # no any() over a generator (measured, with reference.py's plain loops: a wrong type
        # and a string checked, 10.1 -> 6.8 us).
        return not _has_type(kinds[0], value)
    return kinds is not None and not any(_has_type(kind, value) for kind in kinds)


def refused_by_declared_types(schemas: list[dict[str, Any]], value: Any) -> bool:
    """Whether some of ``schemas`` (the schemas on one value) declare a ``type`` and none of
    those admits ``value``: the redaction oracle then logs the value as its type and size."""
    declaring = [schema for schema in schemas if TYPE in schema]
    return bool(declaring) and all(wrong_type(schema, value) for schema in declaring)


def listed_values(schema: dict[str, Any]) -> list[Any]:
    """The values a schema lists: its enum members, then its const."""
    found = list(schema.get(ENUM, []))
    if CONST in schema:
        found.append(schema[CONST])
    return found


def refuses_all(schema: dict[str, Any]) -> bool:
    """Whether ``enum`` and ``const`` let no value pass (rules.no_value): the schema then
    refuses every value as ``false`` does, with its code (``REFUSES_ALL``), as the
    generated node does."""
    return (ENUM in schema or CONST in schema) and bool(no_value(schema))


#: The code of a value at a place no value can pass: that of the ``false`` schema.
REFUSES_ALL = "false"


def refused(schema: dict[str, Any], value: Any) -> Iterator[str]:
    """The family's keywords of ``schema``, other than ``type``, that refuse ``value``."""
    if "enum" in schema and not enum_has(schema["enum"], value):
        yield "enum"
    if "const" in schema and not json_equal(value, schema["const"]):
        yield "const"


def _has_type(kind: str, value: Any) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return is_integer(value) and is_number(value)
    return is_number(value)
