"""What ``properties``, ``required``, ``additionalProperties`` and ``patternProperties`` make of
an accepted object's Python type (codegen stage).

``codegen/typing_model.py`` types an object schema with declared ``properties`` as a TypedDict
(its keys :func:`properties_of`, those :func:`required_of` required, ``@final`` when
:func:`closed`), any other object as ``dict[str, ...]`` of its other keys' type
(:func:`map_type`). A union's branch is taken with the schema around it
(:func:`merge_keys`: the keys of both) and named by what it fixes (:func:`branch_words`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...codegen.literals import Code, literal
from ...schema.pointers import SchemaPath
from ..values.typing import pinned_values
from .rules import ADDITIONAL, PATTERNS, PROPERTIES, REQUIRED

# A TypedDict's keys are the declared keys the contract check reads: one reading of them.
from .rules import properties_of as properties_of
from .rules import required_of as required_of

#: The keyword under which a schema declares its keys, as generated code spells it.
KEYS_KEYWORD: Code = literal(PROPERTIES)

#: The type expression of a subschema: ``of(schema, hint, schema_path)``, the TypedDicts'.
TypeOf = Callable[[Any, str, SchemaPath], str]


def declares_keys(schema: Any) -> bool:
    """Whether ``schema`` declares some key (a TypedDict types it)."""
    return isinstance(schema, dict) and bool(schema.get(PROPERTIES))


def property_path(path: SchemaPath, key: str) -> SchemaPath:
    """Where the schema of the declared key ``key`` of the object schema at ``path`` is."""
    return path + (PROPERTIES, key)


def closed(schema: dict[str, Any]) -> bool:
    """Whether an object holds no key but those declared (printed ``@final``, so that
    ``"key" in value`` narrows a union)."""
    return schema.get(ADDITIONAL) is False and not schema.get(PATTERNS)


def map_type(of: TypeOf, schema: dict[str, Any], hint: str, path: SchemaPath) -> str:
    """``dict[str, ...]`` of an object that declares no key: its values are its other keys'."""
    additional = schema.get(ADDITIONAL, True)
    return f"dict[str, {of(additional, hint + ' value', path + (ADDITIONAL,))}]"


def merge_keys(both: dict[str, Any], rest: dict[str, Any], branch: dict[str, Any]) -> None:
    """Have ``both`` (a union's branch merged with the schema around it, ``rest``) declare the
    keys of both (the branch's schema for a key both name: the value matches it) and require
    the required keys of both."""
    if PROPERTIES in rest or PROPERTIES in branch:
        both[PROPERTIES] = {**properties_of(rest), **properties_of(branch)}
    if REQUIRED in rest or REQUIRED in branch:
        required = [*required_of(rest), *required_of(branch)]
        both[REQUIRED] = list(dict.fromkeys(required))


def branch_words(branch: dict[str, Any], both: dict[str, Any]) -> str | None:
    """The words that name a union's branch: the value it fixes for a required key of its own
    (``kind: {const: round_trip}``: ``round_trip``), else the keys it requires (``with
    email``); None when it says neither."""
    required = required_of(both)
    for key, sub in properties_of(branch).items():
        if key in required and isinstance(sub, dict):
            values = pinned_values(sub)
            if values is not None and len(values) == 1 and isinstance(values[0], str):
                return values[0]
    own = required_of(branch)
    return f"with {' '.join(own)}" if own else None
