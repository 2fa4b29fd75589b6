"""What the importer does with ``dependencies``, the object keyword of older drafts (platforms
stage).

Before 2019-09, ``dependencies`` maps a key either to a list of keys (then required too) or to
a schema (then applied to the object): 2019-09 splits it into ``dependentRequired`` and
``dependentSchemas``. ``platforms/importer.py`` maps it to :data:`TRANSLATIONS`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...platforms.translating import KeywordIn, SchemaPath, Translating, Translation
from ...regex.matcher import OutOfSteps
from ...regex.matcher import search as pattern_search
from ...regex.syntax import PatternError
from ...schema import pointers, vocabulary
from ...schema.values import json_equal
from ..values.rules import TYPE
from .rules import ADDITIONAL, DEPENDENT_REQUIRED, PATTERNS, PROPERTIES, REQUIRED

#: The annotations a property keeps when its own copy of a pattern's schema is dropped.
_ANNOTATIONS = vocabulary.annotation_names("meta-data", "comment")

DEPENDENCIES = "dependencies"
DEPENDENT_SCHEMAS = "dependentSchemas"
#: The keywords that make a root without a ``type`` an object schema (the importer adds
#: ``type: object`` there: a contract's arguments are one JSON object): every keyword that
#: constrains objects (``properties``, ``minProperties``, ``dependentRequired``...).
ABOUT_OBJECTS = vocabulary.names(lambda k: k.applies_to == "object")
#: The in-place applicators: a root of them (zod's ``z.union`` of objects, a pydantic root
#: ``Union``) says which objects pass as well as a root of properties does.
COMPOSITIONS = vocabulary.holders("one", "same value") + vocabulary.holders("list", "same value")


def about_objects(schema: dict[str, Any]) -> bool:
    """Whether a schema without ``type`` says which objects pass: a keyword of objects, or
    in-place applicators (see COMPOSITIONS)."""
    return any(k in schema for k in (*ABOUT_OBJECTS, *COMPOSITIONS))


def empty_object() -> dict[str, Any]:
    """The schema of a tool declared without parameters: it accepts only an empty object."""
    return {TYPE: "object", ADDITIONAL: False}


def has_dependencies(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` uses ``dependencies`` (split in 2019-09): a sign of an older draft
    when a schema does not say its draft."""
    return DEPENDENCIES in schema


def dependencies(translator: Translating, kw: KeywordIn) -> None:
    """``dependencies`` splits into ``dependentRequired`` (lists) and ``dependentSchemas``."""
    if not isinstance(kw.value, dict):
        translator.error(kw.where, f"'{DEPENDENCIES}' must be an object")
        return
    for name, dep in kw.value.items():
        if isinstance(dep, list):
            translator.note(f"{DEPENDENCIES} (list) -> {DEPENDENT_REQUIRED}", kw.where + (name,))
            kw.out.setdefault(DEPENDENT_REQUIRED, {})[name] = dep
        else:
            translator.note(f"{DEPENDENCIES} (schema) -> {DEPENDENT_SCHEMAS}", kw.where + (name,))
            kw.out.setdefault(DEPENDENT_SCHEMAS, {})[name] = translator.node(
                dep, kw.where + (name,), kw.new + (DEPENDENT_SCHEMAS, name)
            )


def checked_twice(
    schema: dict[str, Any],
    path: SchemaPath,
    note: Callable[[str, SchemaPath], None],
) -> None:
    """A property whose name a ``patternProperties`` pattern matches, with the same schema but
    for annotations, is checked by that pattern already: its own copy has no effect, and where
    the schema recurses the two copies would double the checking at every level (the contract
    check refuses that). It is dropped, the property's annotations kept. ``note`` takes a place
    in the output."""
    properties, patterns = schema.get(PROPERTIES), schema.get(PATTERNS)
    if not isinstance(properties, dict) or not isinstance(patterns, dict):
        return
    for name, sub in properties.items():
        checks = _without_annotations(sub)
        if not checks:
            continue
        for pattern, other in patterns.items():
            if _matches(pattern, name) and json_equal(checks, _without_annotations(other)):
                properties[name] = {k: v for k, v in sub.items() if k in _ANNOTATIONS}
                note(
                    f"a property that a {PATTERNS} pattern checks with the same schema: "
                    "its own copy dropped (annotations kept)",
                    path + (PROPERTIES, name),
                )
                break


def _without_annotations(schema: Any) -> dict[str, Any] | None:
    """A schema object's keywords that check something (None for a boolean schema)."""
    if not isinstance(schema, dict):
        return None
    return {k: v for k, v in schema.items() if k not in _ANNOTATIONS}


def _matches(pattern: str, name: str) -> bool:
    """Whether the ECMA-262 ``pattern`` matches somewhere in ``name`` (False when it is not one)."""
    try:
        return pattern_search(pattern, name)
    except (PatternError, OutOfSteps):
        return False


def required_nullable(node: dict[str, Any], says_null: Callable[[Any], bool]) -> list[str]:
    """The keys ``node`` requires whose own schema says null is allowed (``says_null``): how
    an OpenAI strict tool writes an optional key."""
    properties, required = node.get(PROPERTIES), node.get(REQUIRED)
    if not isinstance(properties, dict) or not isinstance(required, list):
        return []
    return [key for key in required if isinstance(key, str) and says_null(properties.get(key))]


def property_pointer(key: str) -> str:
    """The pointer from an object schema to the schema of its declared key ``key``."""
    return f"/{PROPERTIES}/{pointers.escape(key)}"


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {DEPENDENCIES: dependencies}
