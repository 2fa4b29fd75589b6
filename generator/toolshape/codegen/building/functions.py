"""Subschemas checked in module-level functions of their own: $ref targets and branches.

A $ref target's function is made once, however often the target is used, and takes the
label its caller calls the value by. A branch of anyOf/oneOf, the schema under ``not`` or
``if``, and ``contains`` get a function each, called by the runtime helper that needs to know
whether it found errors (``_any_of``, ``_one_of``, ``_errors_of``, ``_count_matches``).
"""

from __future__ import annotations

from typing import Any

from ...schema.pointers import SchemaPath, ref_path, resolve
from ..literals import Code, comment
from ..model_parts import Function, PathPart
from .context import BuildContext, path_hint

#: How many $ref functions are built inside each other before the next waits (see BuildContext.pending).
MAX_NESTED_REFS = 16


def function(context: BuildContext, schema: Any, schema_path: SchemaPath, label: str) -> Code:
    """A module-level function that checks ``schema`` on (value, path, errors)."""
    name = context.namer.function(path_hint(schema_path))
    # Inside a $ref target its callers (_any_of, _one_of, _errors_of) hand it the target's
    # label, so that its messages name the value as the target's do.
    made = Function(
        name, comment(context.where(schema_path), limit=120), labelled=context.labels(label)
    )
    context.functions.append(made)
    with context.namer.function_body():
        made.node = context.node(
            schema, Code("value"), [PathPart("base", var=Code("path"))], schema_path, label
        )
    return name


def ref_function(context: BuildContext, ref: str) -> Code:
    """The function for a local $ref target, made once however often it is used."""
    if ref in context.refs:
        return context.refs[ref]
    target = ref_path(ref)
    name = context.namer.function(str(target[-1]) if target else "arguments")
    context.refs[ref] = name
    made = Function(name, comment(f"{ref} ({context.where(target)})", limit=120), labelled=True)
    context.functions.append(made)
    schema = resolve(context.contract.parameters, target)
    if context.ref_depth >= MAX_NESTED_REFS:
        context.pending.append((made, schema, target))
    else:
        _ref_body(context, made, schema, target)
    return name


def _ref_body(context: BuildContext, made: Function, schema: Any, target: SchemaPath) -> None:
    context.ref_depth += 1
    try:
        with context.namer.function_body():
            made.node = context.node(
                schema,
                Code("value"),
                [PathPart("base", var=Code("path"))],
                target,
                context.ref_label,
            )
    finally:
        context.ref_depth -= 1


def finish(context: BuildContext) -> None:
    """Build the $ref functions left waiting (and those they leave waiting), in order."""
    done = 0
    while done < len(context.pending):
        made, schema, target = context.pending[done]
        done += 1
        _ref_body(context, made, schema, target)


def applicator_note(context: BuildContext, schema_path: SchemaPath, keyword: str) -> Code:
    """The comment above an applicator's code: the keyword and where it is written."""
    return comment(f"{keyword} ({context.where(schema_path + (keyword,))})", limit=120)


def passed_label(context: BuildContext, label: str) -> Code | None:
    """What a branch function is handed to call the value: inside a $ref target the value is
    called what the caller calls it, and the branch functions made there take that label too
    (see :func:`function`)."""
    return Code("label") if context.labels(label) else None
