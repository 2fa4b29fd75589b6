"""What the contract check says of the object keywords (contract stage).

``properties`` is a mapping from key to schema; ``required`` a list of distinct key names;
``dependentRequired`` maps a key to a list of distinct key names. Legal keywords that let no
object pass are warnings (:func:`warnings`; :func:`no_object` as a verdict): a required key
whose schema is ``false`` or that ``additionalProperties: false`` forbids, more required keys
than ``maxProperties``, a ``minProperties`` above the keys ``additionalProperties: false``
leaves. ``contract/checker.py`` calls :func:`check` on every
schema and reports what it yields; it walks the subschemas itself (``properties`` and
``additionalProperties`` first, named here), checks the ``patternProperties`` names as
patterns (:func:`key_patterns`) and refuses ``x-sensitive`` on keys
(:func:`under_property_names`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...contract.wording import suggest, with_article
from ...schema.keywords import SCHEMA_MAPS
from ...schema.pointers import SchemaPath
from ...schema.values import is_integer, json_type

PROPERTIES = "properties"
ADDITIONAL = "additionalProperties"
PATTERNS = "patternProperties"
#: The schema every key (as a string) is checked against: keys show in error paths.
NAMES = "propertyNames"
REQUIRED = "required"
DEPENDENT_REQUIRED = "dependentRequired"
MIN_KEYS = "minProperties"
MAX_KEYS = "maxProperties"

#: One problem: where (a schema path from the document root) and what.
Problem = tuple[SchemaPath, str]


def check(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """The problems of the family's keywords in one schema (their subschemas aside)."""
    if not isinstance(schema.get(PROPERTIES, {}), dict):
        yield path + (PROPERTIES,), f"'{PROPERTIES}' must be a mapping from key to schema"
    yield from _required(schema, path)
    if DEPENDENT_REQUIRED in schema:
        yield from _dependent_required(schema[DEPENDENT_REQUIRED], path + (DEPENDENT_REQUIRED,))


def properties_of(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema's ``properties`` (none when it is not a mapping: :func:`check` says so)."""
    properties = schema.get(PROPERTIES, {})
    return properties if isinstance(properties, dict) else {}


def required_of(schema: dict[str, Any]) -> Any:
    """The schema's ``required`` as written (none: an empty tuple)."""
    return schema.get(REQUIRED, ())


def key_patterns(schema: dict[str, Any], path: SchemaPath) -> Iterator[tuple[str, SchemaPath]]:
    """Each ``patternProperties`` name, a pattern the checker checks like any other, and where."""
    patterns = schema.get(PATTERNS)
    if isinstance(patterns, dict):
        for pattern in patterns:
            yield pattern, path + (PATTERNS, pattern)


def under_property_names(path: SchemaPath) -> bool:
    """Whether a schema path (from the document root) passes through a ``propertyNames`` keyword.

    Only keyword positions count: a property that happens to be named "propertyNames" does not.
    """
    steps = iter(path[1:])
    for step in steps:
        if step in SCHEMA_MAPS:
            next(steps, None)  # a name, not a keyword
        elif step == NAMES:
            return True
    return False


def _too_few_keys_allowed(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """``minProperties`` above the keys ``additionalProperties: false`` leaves."""
    min_properties = schema.get(MIN_KEYS)
    properties = schema.get(PROPERTIES, {})
    if (
        schema.get(ADDITIONAL) is False
        and PATTERNS not in schema
        and isinstance(properties, dict)
        and is_integer(min_properties)
        and min_properties > len(properties)
    ):
        yield (
            path + (MIN_KEYS,),
            f"'{MIN_KEYS}' ({min_properties}) but '{ADDITIONAL}: false' allows only the "
            f"{len(properties)} keys in '{PROPERTIES}': {NO_OBJECT}",
        )


def _required(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """``required``: key names, each listed once, each allowed, no more than ``maxProperties``."""
    if REQUIRED not in schema:
        return
    required = schema[REQUIRED]
    if isinstance(required, bool):
        yield path + (REQUIRED,), required_flag_problem(path, required)
        return
    if not isinstance(required, list):
        yield path + (REQUIRED,), f"'{REQUIRED}' must be a list of key names"
        return
    odd = [i for i, key in enumerate(required) if not isinstance(key, str)]
    for i in odd:  # at the entry that is not a key name
        yield (
            path + (REQUIRED, i),
            f"'{REQUIRED}' must be a list of key names; this is {with_article(json_type(required[i]))}",
        )
    if odd:
        return
    yield from _required_keys(schema, path, required)


def _more_required_than_allowed(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """``maxProperties`` below the number of keys ``required`` lists."""
    required, max_properties = schema.get(REQUIRED), schema.get(MAX_KEYS)
    if (
        isinstance(required, list)
        and all(isinstance(key, str) for key in required)
        and is_integer(max_properties)
        and len(set(required)) > max_properties
    ):
        yield (
            path + (MAX_KEYS,),
            f"'{MAX_KEYS}' ({max_properties}) is smaller than the number of required keys "
            f"({len(set(required))}): {NO_OBJECT}",
        )


#: What a warning of object keywords that let no object pass says of the place.
NO_OBJECT = "as written, no object can pass here"


def required_flag_problem(path: SchemaPath, flag: bool) -> str:
    """``required: true`` (or false) written on a property, as some other schema languages do:
    in JSON Schema the object lists its required keys, so the message names that object."""
    if len(path) < 2 or path[-2] != PROPERTIES:
        return (
            f"'{REQUIRED}' must be a list of key names, not {str(flag).lower()}: an object lists "
            f"its required keys in its own '{REQUIRED}'"
        )
    key, parent = path[-1], "/".join(str(part) for part in path[:-2])
    if not flag:
        return (
            f"'{REQUIRED}: false' has no meaning on a property: '{key}' is optional unless the "
            f"'{REQUIRED}' list of its parent object ({parent}) names it; remove it"
        )
    return (
        f"'{REQUIRED}: true' does not make a property required in JSON Schema: list '{key}' in "
        f"the '{REQUIRED}' of its parent object ({parent}), beside its '{PROPERTIES}', and "
        "remove it here"
    )


def _required_keys(
    schema: dict[str, Any], path: SchemaPath, required: list[str]
) -> Iterator[Problem]:
    """Each required key listed twice."""
    for i, key in enumerate(required):
        where = path + (REQUIRED, i)
        if key in required[:i]:
            yield where, f"'{key}' is listed twice in '{REQUIRED}'"


def warnings(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """What the contract check warns of in one schema: legal JSON Schema with an exact meaning
    that is surely not what was meant. A required key that ``additionalProperties: false``
    forbids (and no ``patternProperties`` could allow) means that no object passes: an
    imported schema must keep that meaning, so it is a warning, and the generated code
    refuses every object there."""
    yield from _too_few_keys_allowed(schema, path)
    yield from _more_required_than_allowed(schema, path)
    required = schema.get(REQUIRED)
    if not isinstance(required, list) or not all(isinstance(key, str) for key in required):
        return  # (check() reports a malformed list)
    properties = properties_of(schema)
    for i, key in enumerate(required):
        if properties.get(key) is False and key not in required[:i]:
            yield (
                path + (REQUIRED, i),
                f"'{key}' is required but its schema is false: as written, no object can pass here",
            )
    if schema.get(ADDITIONAL, True) is not False or PATTERNS in schema:
        return
    for i, key in enumerate(required):
        if key not in properties and key not in required[:i]:
            hint = suggest(key, tuple(properties))
            yield (
                path + (REQUIRED, i),
                f"'{key}' is required but {ADDITIONAL}: false forbids it (not in "
                f"'{PROPERTIES}'): as written, no object can pass here{hint}",
            )


def no_object(schema: dict[str, Any], unsatisfiable: Callable[[Any], bool]) -> bool:
    """Whether no object passes ``schema``'s object keywords as written: a required key whose
    schema is ``unsatisfiable``, or that ``additionalProperties: false`` forbids (and no
    ``patternProperties`` could allow). What :func:`warnings` warns of, as a verdict."""
    if any(_too_few_keys_allowed(schema, ())) or any(_more_required_than_allowed(schema, ())):
        return True
    required = schema.get(REQUIRED)
    if not isinstance(required, list):
        return False
    properties = properties_of(schema)
    closed = schema.get(ADDITIONAL) is False and PATTERNS not in schema
    return any(
        isinstance(key, str) and (unsatisfiable(properties[key]) if key in properties else closed)
        for key in required
    )


def _dependent_required(value: Any, path: SchemaPath) -> Iterator[Problem]:
    """``dependentRequired`` maps a key to a list of distinct key names; a problem points at
    the entry at fault."""
    message = f"'{DEPENDENT_REQUIRED}' maps a key to a list of distinct key names"
    if not isinstance(value, dict):
        yield path, message
        return
    for key, needs in value.items():
        if not isinstance(needs, list):
            yield path + (key,), f"{message}; under '{key}' is {with_article(json_type(needs))}"
            continue
        for i, need in enumerate(needs):
            if not isinstance(need, str):
                yield path + (key, i), f"{message}; this is {with_article(json_type(need))}"
            elif need in needs[:i]:
                yield path + (key, i), f"{message}; '{need}' is listed twice under '{key}'"
