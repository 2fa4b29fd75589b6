"""Subschemas checked in module-level functions of their own: branches.

A branch of anyOf/oneOf, the schema under ``not`` or ``if``, and ``contains`` get a function
each, called by the runtime helper that needs to know whether it found errors (``_any_of``,
``_one_of``, ``_tagged``, ``_errors_of``, ``_count_matches``). A $ref target's function is the references
family's (``families/references/checks.py``).
"""

from __future__ import annotations

from typing import Any

from ...schema.pointers import SchemaPath
from ..literals import Code, comment
from ..model_parts import Function, PathPart
from .context import BuildContext, Settled, path_hint


def function(
    context: BuildContext, schema: Any, schema_path: SchemaPath, label: str, settled: Settled = ()
) -> Code:
    """A module-level function that checks ``schema`` on (value, path, errors); without the
    checks of a key at the ``settled`` places, which its caller makes (a decisive union's
    alternative: see BuildContext.settled)."""
    known = (schema_path, label, settled)
    if known in context.made:
        return context.made[known]
    name = context.made[known] = context.namer.function(path_hint(schema_path))
    # Inside a $ref target its callers (_any_of, _one_of, _tagged, _errors_of) hand it the
    # target's label, so that its messages name the value as the target's do.
    made = Function(
        name, comment(context.where(schema_path), limit=120), labelled=context.labels(label)
    )
    context.functions.append(made)
    with context.namer.function_body(), context.settling(settled):
        made.node = context.node(
            schema, Code("value"), [PathPart("base", var=Code("path"))], schema_path, label
        )
    return name


def applicator_note(context: BuildContext, schema_path: SchemaPath, keyword: str) -> Code:
    """The comment above an applicator's code: the keyword and where it is written."""
    return comment(f"{keyword} ({context.where(schema_path + (keyword,))})", limit=120)


def passed_label(context: BuildContext, label: str) -> Code | None:
    """What a branch function is handed to call the value: inside a $ref target the value is
    called what the caller calls it, and the branch functions made there take that label too
    (see :func:`function`)."""
    return Code("label") if context.labels(label) else None
