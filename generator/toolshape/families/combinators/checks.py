"""The model's checks of the combinators (codegen stage): ``allOf``, ``anyOf``/``oneOf``,
``not`` and ``if``/``then``/``else``.

``codegen/building/applicators.py`` calls :func:`combinator_checks` on every schema, after
its ``$ref``. Each combinator becomes an :class:`~toolshape.codegen.model_parts.Applicator`,
printed by its branch of ``templates/checks.py.j2`` (the kind names the branch): ``allOf``
checks its subschemas inline (``all_of``); ``anyOf``/``oneOf`` try a function per branch
(``any_of``, ``one_of``) or, for "null or one schema", check that schema inline
(``nullable``); ``not`` and ``if`` call a function and act on whether it found errors,
``then``/``else`` checked inline.
"""

from __future__ import annotations

from typing import Any

from ...codegen.building.context import BuildContext
from ...codegen.building.functions import applicator_note, function, passed_label
from ...codegen.literals import Code
from ...codegen.model_parts import Applicator, ApplicatorKind, Node, PathPart
from ...schema.keywords import nullable_alternative
from ...schema.pointers import SchemaPath
from .rules import distinct_entries


def combinator_checks(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> list[Applicator]:
    """The applicators of ``schema``'s combinators, in the order they are checked."""
    found: list[Applicator] = []
    if "allOf" in schema:
        found += _all_of(context, schema["allOf"], var, path, schema_path, label)
    for union in ("anyOf", "oneOf"):
        if union in schema:
            found += _union(context, schema, union, var, path, schema_path, label)
    if "not" in schema:
        made = function(context, schema["not"], schema_path + ("not",), label)
        message = context.say(f"{label} must not match the schema under 'not'")
        note = applicator_note(context, schema_path, "not")
        passed = passed_label(context, label)
        found.append(Applicator("not", note, message=message, function=made, label=passed))
    if "if" in schema and ("then" in schema or "else" in schema):
        found += _if(context, schema, var, path, schema_path, label)
    return found


def _all_of(
    context: BuildContext,
    entries: list[Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> list[Applicator]:
    # A schema listed twice applies once: its second run finds the same errors (and a
    # nest of such pairs would otherwise double the calls at every level).
    nodes = [
        context.node(entries[i], var, path, schema_path + ("allOf", i), label)
        for i in distinct_entries(entries)
    ]
    checked = [n for n in nodes if n.has_checks]
    if not checked:  # allOf: [{}] checks nothing (and would print an empty block)
        return []
    return [Applicator("all_of", applicator_note(context, schema_path, "allOf"), nodes=checked)]


def _union(
    context: BuildContext,
    schema: dict[str, Any],
    union: str,
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> list[Applicator]:
    """anyOf or oneOf (``union``): a function per branch, or "null, or the other" inline (none
    when the other checks nothing: ``anyOf: [{}, {type: null}]``, pydantic's ``Any | None``,
    accepts every value)."""
    branches = schema[union]
    nullable = nullable_alternative(branches, exclusive=union == "oneOf")
    if nullable is not None:
        index, other = nullable
        inner = context.node(other, var, path, schema_path + (union, index), label)
        if not inner.has_checks:
            return []
        note = applicator_note(context, schema_path, f"{union}: null, or the other alternative")
        return [Applicator("nullable", note, nodes=[inner])]
    functions = [
        function(context, sub, schema_path + (union, i), label) for i, sub in enumerate(branches)
    ]
    how = "at least one" if union == "anyOf" else "exactly one"
    message = context.say(f"{label} must match {how} of {len(branches)} alternatives")
    kind: ApplicatorKind = "any_of" if union == "anyOf" else "one_of"
    note = applicator_note(context, schema_path, union)
    passed = passed_label(context, label)
    return [Applicator(kind, note, message=message, functions=functions, label=passed)]


def _if(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> list[Applicator]:
    """if with then and/or else: the ``if`` schema's function decides which node applies (none
    when neither checks anything)."""
    made = function(context, schema["if"], schema_path + ("if",), label)
    then = _checking(context, schema, "then", var, path, schema_path, label)
    otherwise = _checking(context, schema, "else", var, path, schema_path, label)
    if then is None and otherwise is None:
        return []
    return [
        Applicator(
            "if",
            applicator_note(context, schema_path, "if"),
            function=made,
            then=then,
            otherwise=otherwise,
            label=passed_label(context, label),
        )
    ]


def _checking(
    context: BuildContext,
    schema: dict[str, Any],
    keyword: str,
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> Node | None:
    """The node of ``then`` or ``else``; None when it is absent or checks nothing."""
    if keyword not in schema:
        return None
    node = context.node(schema[keyword], var, path, schema_path + (keyword,), label)
    return node if node.has_checks else None
