"""The derived cases of ``unevaluatedProperties`` and ``unevaluatedItems`` (codegen stage): a
key no schema here evaluates, an item past every evaluated one.

``codegen/cases.py`` calls :func:`unevaluated_cases` on every object and array of the base
arguments, handing itself in as the :class:`Deriver`. Each case's expected errors come from
the reference evaluator, never from here: the key or item is made so that the schemas beside
the keyword are unlikely to evaluate it, and the oracle says whether they did.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any, Protocol

from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from .evaluation import Evaluated, evaluated

#: The keywords that make a derived case be evaluated whole (``codegen/cases.py``'s
#: ``_NON_LOCAL``): a changed key or item changes what the schemas beside them evaluate.
NON_LOCAL = vocabulary.names(lambda k: k.implemented and k.dynamic)
#: Names tried, in order, for a key no schema names.
UNEVALUATED_KEYS = ("unevaluated", "unevaluated_key", "zz_unevaluated")

_PROPERTIES, _ITEMS = (
    next(n for n in NON_LOCAL if vocabulary.keyword(n).applies_to == kind)
    for kind in ("object", "array")
)


class Deriver(Protocol):
    """What the family asks of ``codegen.cases._Deriver``."""

    @property
    def type_samples(self) -> Mapping[str, Any]:
        """A sample of each JSON type, for the wrong-type cases."""

    def bound_variants(
        self, schema: dict[str, Any], schema_path: SchemaPath, value: Any
    ) -> Iterator[tuple[str, Any]]:
        """Named variants of ``value`` at and across the bounds of ``schema``."""

    def add(self, name: str, data: Any) -> None:
        """Add the case ``name`` with the arguments ``data`` (once per name)."""

    def replaced(self, path: SchemaPath, value: Any) -> Any:
        """The base arguments with the value at ``path`` replaced, for ``add`` (which builds
        them only if it needs the whole instance)."""

    def synth(self, schema: Any, schema_path: SchemaPath) -> tuple[bool, Any]:
        """A value ``schema`` accepts, and whether one was found."""


def unevaluated_cases(
    deriver: Deriver,
    root: Any,
    schema: dict[str, Any],
    path: SchemaPath,
    schema_path: SchemaPath,
    label: str,
    value: Any,
) -> None:
    """The cases of ``value`` (at ``path`` in the base, an object or an array) under
    ``schema``'s unevaluated*: one more key (item), its value one the keyword's schema accepts
    (when one is found), that value across each bound, and a value of each JSON type."""
    keyword = _PROPERTIES if isinstance(value, dict) else _ITEMS
    if keyword not in schema:
        return
    sub, where = schema[keyword], schema_path + (keyword,)
    tried: list[tuple[str, Any]] = []
    ok, good = deriver.synth(sub, where)
    if ok:
        tried.append(("valid value", good))
        if isinstance(sub, dict):
            tried += list(deriver.bound_variants(sub, where, good))
    tried += [(f"{kind} value", sample) for kind, sample in deriver.type_samples.items()]
    if isinstance(value, dict):
        names = _names(evaluated(root, schema, schema_path, keyword))
        key = next((k for k in UNEVALUATED_KEYS if k not in names and k not in value), None)
        if key is None:
            return
        for what, extra in tried:
            deriver.add(
                f"{label}: unevaluated key {key}, {what}", deriver.replaced(path + (key,), extra)
            )
    else:
        for what, extra in tried:
            deriver.add(f"{label}: one item more, {what}", deriver.replaced(path, [*value, extra]))


def _names(found: Evaluated) -> set[str]:
    """Every key name some part of ``found`` evaluates."""
    names = set(found.names)
    for _, part in found.parts:
        names |= _names(part)
    return names
