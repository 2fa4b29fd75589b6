"""What the contract check says of ``$ref``, ``$anchor`` and ``$id`` (contract stage).

A ``$ref`` must be a local reference (toolshape never fetches) that points at a schema
inside the contract's schema that holds it (``parameters`` or ``output``), and not into a
keyword whose value is not a schema; an ``$anchor`` is a name; an ``$id`` holds no fragment.
``contract/checker.py`` calls :func:`check` on every schema and reports what it yields.
(Whether references loop without descending into the value is unfolding's finding:
contract/unfolding.py, following :mod:`.targets`.)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...schema.keywords import data_keyword
from ...schema.pointers import SchemaPath, ref_path, resolve
from .targets import REF

#: The form of a $anchor (2020-12: an XML NCName restricted to ASCII).
ANCHOR_RE = re.compile(r"[A-Za-z_][-A-Za-z0-9._]*")
ANCHOR = "$anchor"
ID = "$id"

#: One problem: where (a schema path from the document root) and what.
Problem = tuple[SchemaPath, str]


def check(schema: dict[str, Any], path: SchemaPath, root: Any, top: str) -> Iterator[Problem]:
    """The problems of the family's keywords in one schema (``root``: the schema its
    references resolve in, the contract's ``top``: "parameters" or "output")."""
    if REF in schema:
        yield from _reference(schema[REF], path + (REF,), root, top)


def annotation_problems(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """A malformed ``$anchor`` or ``$id``: annotations, but a typo all the same."""
    anchor = schema.get(ANCHOR)
    if ANCHOR in schema and not (isinstance(anchor, str) and ANCHOR_RE.fullmatch(anchor)):
        yield (
            path + (ANCHOR,),
            "'$anchor' must be a name: a letter or _, then letters, digits, - _ .",
        )
    identifier = schema.get(ID)
    if isinstance(identifier, str) and "#" in identifier.rstrip("#"):
        yield (
            path + (ID,),
            "'$id' must not hold a fragment (2020-12); name a place with '$anchor'",
        )


def _reference(ref: Any, path: SchemaPath, root: Any, top: str) -> Iterator[Problem]:
    if not isinstance(ref, str):
        yield path, "'$ref' must be a string such as '#/$defs/name'"
        return
    if not ref.startswith("#"):
        yield (
            path,
            f"remote '$ref' ({ref[:60]}) is refused: toolshape never fetches; put the schema under $defs",
        )
        return
    try:
        target = resolve(root, ref_path(ref))
    except (KeyError, IndexError, ValueError, TypeError):
        yield path, f"'$ref' {ref} points at nothing in '{top}'"
        return
    if not isinstance(target, (dict, bool)):
        yield path, f"'$ref' {ref} points at something that is not a schema"
        return
    keyword = data_keyword(root, ref_path(ref))
    if keyword is not None:
        yield (
            path,
            f"'$ref' {ref} points into '{keyword}', whose value is not a schema (JSON Schema "
            "leaves such a reference undefined): put the schema under $defs and refer to it there",
        )
