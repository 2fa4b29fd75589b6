"""The derived cases of an object (codegen stage): each key dropped or nulled, an unknown
key, an extra key's value varied, one key too few, one too many.

``codegen/cases.py`` calls :func:`object_cases` on every object of the base arguments, handing
itself in as the :class:`Deriver` (the small interface the family asks of it: add a case,
vary the base at a path, walk a property's value, synthesise a value); each case's expected
errors come from the reference evaluator, never from here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any, Protocol

from ...schema.pointers import SchemaPath
from ...schema.values import count_at
from ..values.rules import TYPE
from .rules import (
    ADDITIONAL,
    DEPENDENT_REQUIRED,
    MAX_KEYS,
    MIN_KEYS,
    NAMES,
    PATTERNS,
    PROPERTIES,
    REQUIRED,
    properties_of,
)
from .rules import required_of as required_of  # this stage's interface too

#: The keywords that look at an object as a whole (or at its keys through other schemas):
#: below them, a changed value can change errors elsewhere, so a case is evaluated whole.
NON_LOCAL = (DEPENDENT_REQUIRED, "dependentSchemas", MIN_KEYS, MAX_KEYS, NAMES, PATTERNS)

#: Names tried, in order, for a key the schema does not declare.
UNKNOWN_KEYS = ("unexpected", "unexpected_key", "zz_unknown")


class Deriver(Protocol):
    """What the family asks of ``codegen.cases._Deriver``."""

    @property
    def type_samples(self) -> Mapping[str, Any]:
        """A sample of each JSON type, for the wrong-type cases."""

    @property
    def edge_items(self) -> int:
        """The most items (or keys) a derived case holds."""

    def add(self, name: str, data: Any) -> None:
        """Add the case ``name`` with the arguments ``data`` (once per name)."""

    def replaced(self, path: SchemaPath, value: Any) -> Any:
        """The base arguments with the value at ``path`` replaced, for ``add`` (which builds
        them only if it needs the whole instance)."""

    def removed(self, path: SchemaPath) -> Any:
        """The base arguments without the key at ``path``."""

    def walk(self, schema: Any, path: SchemaPath, schema_path: SchemaPath, label: str) -> None:
        """Derive the cases for the value at ``path`` and below."""

    def synth(self, schema: Any, schema_path: SchemaPath) -> tuple[bool, Any]:
        """A value ``schema`` accepts, and whether one was found."""

    def impossible(self, schema: Any) -> bool:
        """Whether no value can pass ``schema`` as written."""

    def bound_variants(
        self, schema: dict[str, Any], schema_path: SchemaPath, value: Any
    ) -> Iterator[tuple[str, Any]]:
        """Named variants of ``value`` at and across the bounds of ``schema``."""

    def too_large(self, schema_path: SchemaPath, what: str) -> None:
        """Record an edge case left out because it would be too big to write into a test."""


def object_cases(
    deriver: Deriver,
    schema: dict[str, Any],
    path: SchemaPath,
    schema_path: SchemaPath,
    label: str,
    value: dict[str, Any],
) -> None:
    """The cases of the object ``value`` (at ``path`` in the base) under ``schema``."""
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    prefix = "" if not path else label + "."
    for key, sub in properties.items():
        key_label = prefix + key
        if key in required and key in value:
            deriver.add(f"{key_label}: missing", deriver.removed(path + (key,)))
        if key in value:
            if (declared := _declared(sub)) is not None and "null" not in declared:
                deriver.add(f"{key_label}: null", deriver.replaced(path + (key,), None))
            deriver.walk(sub, path + (key,), schema_path + ("properties", key), key_label)
        elif deriver.impossible(sub):  # no value has a witness here: any one sent is refused
            deriver.add(f"{key_label}: no value can pass", deriver.replaced(path + (key,), None))
    _unknown_key_cases(deriver, schema, path, schema_path, prefix)
    if "minProperties" in schema:
        n = count_at(schema, "minProperties")
        keep = [k for k in value if k in required][: max(n - 1, 0)]
        keep += [k for k in value if k not in keep][: max(n - 1 - len(keep), 0)]
        smaller = {k: value[k] for k in keep}
        deriver.add(
            f"{label}: minProperties {n} - 1",
            deriver.replaced(path, smaller) if path else smaller,
        )
    if "maxProperties" in schema and count_at(schema, "maxProperties") >= deriver.edge_items:
        deriver.too_large(
            schema_path, f"the maxProperties {count_at(schema, 'maxProperties')} edge case"
        )
    elif "maxProperties" in schema:
        _one_key_too_many(deriver, schema, path, schema_path, label, value)


def _unknown_key_cases(
    deriver: Deriver,
    schema: dict[str, Any],
    path: SchemaPath,
    schema_path: SchemaPath,
    prefix: str,
) -> None:
    """A key the schema does not declare: refused outright (``additionalProperties: false``),
    or its value valid, across each bound, and of each JSON type (a schema)."""
    properties = schema.get("properties", {})
    additional = schema.get("additionalProperties", True)
    unknown = next(k for k in UNKNOWN_KEYS if k not in properties)
    where = path + (unknown,)
    if additional is False:
        deriver.add(f"{prefix}{unknown}: unknown key", deriver.replaced(where, 1))
    elif isinstance(additional, dict):
        ok, good = deriver.synth(additional, schema_path + ("additionalProperties",))
        if ok:
            deriver.add(f"{prefix}{unknown}: extra key, valid value", deriver.replaced(where, good))
            for name, variant in deriver.bound_variants(
                additional, schema_path + ("additionalProperties",), good
            ):
                deriver.add(
                    f"{prefix}{unknown}: extra key, {name}", deriver.replaced(where, variant)
                )
        for kind, sample in deriver.type_samples.items():
            deriver.add(
                f"{prefix}{unknown}: extra key, {kind} value", deriver.replaced(where, sample)
            )


def _one_key_too_many(
    deriver: Deriver,
    schema: dict[str, Any],
    path: SchemaPath,
    schema_path: SchemaPath,
    label: str,
    value: dict[str, Any],
) -> None:
    """``maxProperties`` + 1 keys: the declared keys first, then extra ones, each with a value
    its schema accepts when one is found."""
    properties = schema.get("properties", {})
    additional = schema.get("additionalProperties", True)
    n = count_at(schema, "maxProperties")
    bigger = dict(value)
    filler = (k for k in [*properties, *(f"extra_{i}" for i in range(n + 2))] if k not in bigger)
    while len(bigger) <= n:
        key = next(filler)
        sub = properties.get(key, additional)
        ok, good = deriver.synth(
            sub,
            schema_path + (("properties", key) if key in properties else ("additionalProperties",)),
        )
        bigger[key] = good if ok else 1
    deriver.add(
        f"{label}: maxProperties {n} + 1", deriver.replaced(path, bigger) if path else bigger
    )


def _declared(schema: Any) -> tuple[str, ...] | None:
    """The types a schema's ``type`` names (None: it has none)."""
    if not isinstance(schema, dict) or TYPE not in schema:
        return None
    raw = schema[TYPE]
    return tuple(raw) if isinstance(raw, list) else (raw,)


# -- where the deriver steps into an object ---------------------------------------------
#
# codegen/cases.py walks the base arguments and the schemas together (completing the base,
# the values examples hold, the schemas the validator applies to each key); these say which
# schema a key falls under and where it is written, so the walk reads no keyword itself.


def declares_keys(schema: Any) -> bool:
    """Whether ``schema`` is an object schema that lists its keys (``properties``)."""
    return isinstance(schema, dict) and isinstance(schema.get(PROPERTIES), dict)


def declared(schema: dict[str, Any]) -> dict[str, Any]:
    """The keys the object schema declares and their schemas ({}: none)."""
    return properties_of(schema)


def property_path(schema_path: SchemaPath, key: str) -> SchemaPath:
    """Where the schema of the declared key ``key`` is written."""
    return schema_path + (PROPERTIES, key)


def requirement(schema: dict[str, Any], key: str) -> str:
    """How a warning calls the declared key ``key``: "required" (the keyword's word) or
    "optional"."""
    return REQUIRED if key in required_of(schema) else "optional"


def other_keys(schema: dict[str, Any], absent: Any = True) -> Any:
    """The schema of the keys the object schema does not declare (``absent``: it says none)."""
    return schema.get(ADDITIONAL, absent)


def other_keys_path(schema_path: SchemaPath) -> SchemaPath:
    """Where the schema of the undeclared keys is written."""
    return schema_path + (ADDITIONAL,)


def key_schemas(schema: dict[str, Any], key: str, matches: Callable[[str, str], bool]) -> list[Any]:
    """The schemas the validator applies to the value of ``key``: its declared schema, those
    of the patterns ``matches(pattern, key)`` says it matches, else the undeclared keys'."""
    properties = declared(schema)
    subs = [properties[key]] if key in properties else []
    matched = [s for p, s in schema.get(PATTERNS, {}).items() if matches(p, key)]
    extra = other_keys(schema, None)
    if not subs and not matched and isinstance(extra, dict):
        subs.append(extra)
    return subs + matched


def missing_key_code(schema: dict[str, Any], key: Any) -> str | None:
    """The reference evaluator's code for ``key`` left out of the object (None: no error)."""
    return REQUIRED if key in required_of(schema) else None


def refused_key_code(schema: dict[str, Any], key: Any) -> str | None:
    """The reference evaluator's code for ``key`` when its schema is ``false``: an undeclared
    key refused by the undeclared keys' schema (None: a declared key, refused by its own)."""
    return None if key in declared(schema) else ADDITIONAL
