"""Where a reference points (contract stage): one reading of ``$ref`` for every stage.

A contract's references are local (``#``, ``#/$defs/name``; the contract check refuses any
other, see rules.py), so a ``$ref`` is a path under the contract's ``parameters``. Every
stage that follows a reference (the reference evaluator, unfolding, redaction, the witness
engine, the derived cases, the masks, the export, the review) asks this module for the
schema it reaches, instead of reading the keyword itself.
"""

from __future__ import annotations

from typing import Any

from ...schema.pointers import SchemaPath, ref_path, resolve

#: The keyword a reference is written with, a step of the paths that name it.
REF = "$ref"
#: Where a contract keeps the schemas its references share, a step of the paths under it.
DEFS = "$defs"


def ref_of(schema: Any) -> str | None:
    """The reference ``schema`` holds (None: it holds none, or it is not a schema)."""
    ref = schema.get(REF) if isinstance(schema, dict) else None
    return ref if isinstance(ref, str) else None


def path_of(schema: Any) -> SchemaPath | None:
    """The path (under ``parameters``) that ``schema``'s reference points at, or None."""
    ref = ref_of(schema)
    return None if ref is None else ref_path(ref)


def target(root: Any, schema: Any) -> Any:
    """The schema ``schema``'s reference reaches under ``root``, or None when it holds none.

    For a checked contract (every reference resolves to a schema); an unchecked one may
    raise what :func:`~toolshape.schema.pointers.resolve` raises."""
    path = path_of(schema)
    return None if path is None else resolve(root, path)


def is_definition(where: SchemaPath) -> bool:
    """Whether a place under a schema is in its ``$defs``: a schema applied only where a
    reference reaches it, never by where it sits."""
    return bool(where) and where[0] == DEFS


def is_defs_entry(path: SchemaPath) -> bool:
    """Whether ``path`` (from the root) is an entry of the root's ``$defs``: where a reference
    may point and stay a reference in every export."""
    return len(path) == 2 and path[0] == DEFS


def followed(root: Any, schema: Any) -> list[Any]:
    """The schemas a walk steps into through ``schema``'s reference: its target, or none."""
    path = path_of(schema)
    return [] if path is None else [resolve(root, path)]
