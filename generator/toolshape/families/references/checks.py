"""The model's part of a reference (codegen stage): a ``$ref`` becomes a call to a function.

A ``$ref`` target's function is made once, however often the target is used, and takes the
label its caller calls the value by (so that its messages name the value as the caller
does). Targets are built inside the function that first refers to them, up to
``MAX_NESTED_REFS`` deep; deeper ones wait in ``BuildContext.pending`` until :func:`finish`,
so a long chain of references never nests Python calls past the stack. The call itself is
printed by the ``applicator`` macro of ``templates/checks.py.j2`` (an ``Applicator`` of
kind ``ref``); ``codegen/building/applicators.py`` asks :func:`reference_call` for it first.

In an alternative of a decisive union, whose checks of the tag are left out
(``BuildContext.settled``), a target at the alternative's root is checked in place instead:
its shared function keeps those checks for its other callers.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

from ...codegen.building.context import BuildContext
from ...codegen.building.functions import applicator_note
from ...codegen.literals import Code, comment
from ...codegen.model_parts import Applicator, Function, Node, PathPart
from ...schema.pointers import SchemaPath, ref_path, resolve
from .targets import REF, path_of

#: The parameter a $ref target's function is told by whether its value is a required key's
#: (``module.py.j2`` declares it).
KEY_REQUIRED = Code("key_required")
#: How many $ref functions are built inside each other before the next waits (see BuildContext.pending).
MAX_NESTED_REFS = 16


def reference_call(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> list[Applicator]:
    """The call of the function of ``schema``'s ``$ref`` target (none when it holds none); or
    the target's checks in place, where the caller settled some of them (see module doc)."""
    if REF not in schema:
        return []
    note = applicator_note(context, schema_path, REF)
    target = path_of(schema)
    if target is not None and schema_path in context.settled and target in context.settled:
        node = context.node(resolve(context.contract.parameters, target), var, path, target, label)
        return [Applicator("all_of", note, nodes=[node])] if node.has_checks else []
    made = ref_function(context, schema[REF])
    return [Applicator("ref", note, function=made, label=context.say(label))]


def ref_function(context: BuildContext, ref: str) -> Code:
    """The function for a local $ref target, made once however often it is used."""
    if ref in context.refs:
        return context.refs[ref]
    target = ref_path(ref)
    name = context.namer.function(str(target[-1]) if target else "arguments")
    context.refs[ref] = name
    made = labelled_function(context, name, comment(f"{ref} ({context.where(target)})", limit=120))
    schema = resolve(context.contract.parameters, target)
    if context.ref_depth >= MAX_NESTED_REFS:
        context.pending.append((made, schema, target))
    else:
        _ref_body(context, made, schema, target)
    return name


def labelled_function(context: BuildContext, name: Code, note: Code) -> Function:
    """A module-level function (its body built by :func:`labelled_body`) that checks one value
    on (value, path, errors, integral, label, key_required): a $ref target's, or a value nested
    too deep to be checked in place (``codegen/building/nodes.py``)."""
    made = Function(name, note, labelled=True, takes_required=True)
    context.functions.append(made)
    return made


def labelled_body(context: BuildContext, made: Function, schema: Any, target: SchemaPath) -> None:
    """The body of a :func:`labelled_function`: ``schema``, the one at ``target``, checked on
    ``value``, called what the caller calls it."""
    with context.namer.function_body(), context.settling(()):
        made.node = context.node(
            schema, Code("value"), [PathPart("base", var=Code("path"))], target, context.ref_label
        )
        # Its caller says whether the value is a required key's (a null is then worded so).
        made.node.mark_required(KEY_REQUIRED)


def _ref_body(context: BuildContext, made: Function, schema: Any, target: SchemaPath) -> None:
    context.ref_depth += 1
    try:
        labelled_body(context, made, schema, target)
    finally:
        context.ref_depth -= 1


def finish(context: BuildContext) -> None:
    """Build the $ref functions left waiting (and those they leave waiting), in order."""
    done = 0
    while done < len(context.pending):
        made, schema, target = context.pending[done]
        done += 1
        _ref_body(context, made, schema, target)


def settle_required(root: Node, functions: list[Function]) -> None:
    """Which $ref functions are told whether their value is a required key's: those a required
    key's value calls, directly or through another function so told. The others take no such
    parameter, and their calls pass none: a function no required key reaches reads as before.

    Each function's body was built saying ``key_required`` (``_ref_body``), before its callers
    were known; here the calls are followed from those that pass ``True``."""
    if not any(made.takes_required for made in functions):
        return  # nothing to settle: walking every check for its calls would only cost time
    calls = {f.name: list(_ref_calls(f.node)) for f in functions if f.node is not None}
    told: set[str] = set()
    waiting = [
        a.function
        for found in [list(_ref_calls(root)), *calls.values()]
        for a in found
        if a.required == "True"
    ]
    while waiting:
        name = waiting.pop()
        if name is None or name in told:
            continue
        told.add(name)
        waiting.extend(a.function for a in calls.get(name, []) if a.required == KEY_REQUIRED)
    for made in functions:
        if made.takes_required and made.name not in told:
            made.takes_required = False
            if made.node is not None:
                made.node.mark_required(None)


def _ref_calls(node: Node) -> Iterator[Applicator]:
    """Every $ref call in ``node``'s code (not in the functions it calls: they are apart)."""
    pending: list[object] = [node]
    while pending:
        part = pending.pop()
        if isinstance(part, Applicator) and part.kind == "ref":
            yield part
        if isinstance(part, (list, tuple)):  # a prefix position is an (index, node) pair
            pending.extend(part)
        elif dataclasses.is_dataclass(part) and not isinstance(part, type):
            pending.extend(getattr(part, f.name) for f in dataclasses.fields(part))
