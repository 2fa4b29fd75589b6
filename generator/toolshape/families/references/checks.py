"""The model's part of a reference (codegen stage): a ``$ref`` becomes a call to a function.

A ``$ref`` target's function is made once, however often the target is used, and takes the
label its caller calls the value by (so that its messages name the value as the caller
does). Targets are built inside the function that first refers to them, up to
``MAX_NESTED_REFS`` deep; deeper ones wait in ``BuildContext.pending`` until :func:`finish`,
so a long chain of references never nests Python calls past the stack. The call itself is
printed by the ``applicator`` macro of ``templates/checks.py.j2`` (an ``Applicator`` of
kind ``ref``); ``codegen/building/applicators.py`` asks :func:`reference_call` for it first.
"""

from __future__ import annotations

from typing import Any

from ...codegen.building.context import BuildContext
from ...codegen.building.functions import applicator_note
from ...codegen.literals import Code, comment
from ...codegen.model_parts import Applicator, Function, PathPart
from ...schema.pointers import SchemaPath, ref_path, resolve
from .targets import REF

#: How many $ref functions are built inside each other before the next waits (see BuildContext.pending).
MAX_NESTED_REFS = 16


def reference_call(
    context: BuildContext, schema: dict[str, Any], schema_path: SchemaPath, label: str
) -> list[Applicator]:
    """The call of the function of ``schema``'s ``$ref`` target (none when it holds none)."""
    if REF not in schema:
        return []
    made = ref_function(context, schema[REF])
    note = applicator_note(context, schema_path, REF)
    return [Applicator("ref", note, function=made, label=context.say(label))]


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
