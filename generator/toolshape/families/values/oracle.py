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
from .rules import no_value

#: The error code of a value of the wrong type (also the root's, when it is not an object).
TYPE = "type"


def wrong_type(schema: dict[str, Any], value: Any) -> bool:
    """Whether ``schema``'s ``type`` refuses ``value`` (False when it has none)."""
    if TYPE not in schema:
        return False
    kinds = schema[TYPE] if isinstance(schema[TYPE], list) else [schema[TYPE]]
    return not any(_has_type(kind, value) for kind in kinds)


def refuses_all(schema: dict[str, Any]) -> bool:
    """Whether ``enum`` and ``const`` let no value pass (rules.no_value): the schema then
    refuses every value as ``false`` does, with its code (``REFUSES_ALL``), as the
    generated node does."""
    return ("enum" in schema or "const" in schema) and bool(no_value(schema))


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
