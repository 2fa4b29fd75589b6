"""The derived cases of an object (codegen stage): each key dropped or nulled, an unknown
key, an extra key's value varied, one key too few, one too many.

``codegen/cases.py`` calls :func:`object_cases` on every object of the base arguments, handing
itself in as the :class:`Deriver` (the small interface the family asks of it: add a case,
vary the base at a path, walk a property's value, synthesise a value); each case's expected
errors come from the reference evaluator, never from here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from ...schema.pointers import SchemaPath
from ...schema.values import count_at
from ..values.rules import unsatisfiable

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
        """The base arguments with the value at ``path`` replaced."""

    def removed(self, path: SchemaPath) -> Any:
        """The base arguments without the key at ``path``."""

    def walk(self, schema: Any, path: SchemaPath, schema_path: SchemaPath, label: str) -> None:
        """Derive the cases for the value at ``path`` and below."""

    def synth(self, schema: Any, schema_path: SchemaPath) -> tuple[bool, Any]:
        """A value ``schema`` accepts, and whether one was found."""

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
        elif unsatisfiable(sub):  # no value has a witness here: any one sent is refused
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
    if not isinstance(schema, dict) or "type" not in schema:
        return None
    raw = schema["type"]
    return tuple(raw) if isinstance(raw, list) else (raw,)
