"""The model's checks of the combinators (codegen stage): ``allOf``, ``anyOf``/``oneOf``,
``not`` and ``if``/``then``/``else``.

``codegen/building/applicators.py`` calls :func:`combinator_checks` on every schema, after
its ``$ref``. Each combinator becomes an :class:`~toolshape.codegen.model_parts.Applicator`,
printed by its branch of ``templates/checks.py.j2`` (the kind names the branch): ``allOf``
checks its subschemas inline (``all_of``); ``anyOf``/``oneOf`` try a function per branch
(``any_of``, ``one_of``) or, for "null or one schema", check that schema inline
(``nullable``); ``not`` and ``if`` call a function and act on whether it found errors,
``then``/``else`` checked inline.

A tagged union (``tagged``, the OpenAPI "discriminator" shape that pydantic writes for a
union of models told apart by a ``Literal`` field) is decided here, when generating: every
alternative fixes one key, the tag, to a constant of its own (:func:`union_tag`). Every
alternative but one then refuses a value's tag, so the runtime tries only the one the tag
picks, and a refusal names that alternative by its tag (``for kind "round_trip": ...``)
instead of by its position; the verdict is the union's, whatever the value.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...codegen.building.context import BuildContext, show
from ...codegen.building.functions import applicator_note, function, passed_label
from ...codegen.literals import Code, comment, literal
from ...codegen.model_parts import Applicator, ApplicatorKind, Node, PathPart
from ...schema.keywords import nullable_alternative
from ...schema.pointers import SchemaPath, resolve
from ...schema.values import json_key
from ..objects.rules import PROPERTIES, properties_of
from ..references.targets import path_of
from ..values.values import fixed_values, is_fixed
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
    tag = union_tag(context, branches, schema_path + (union,))
    if tag is None:
        return [Applicator(kind, note, message=message, functions=functions, label=passed)]
    constant = context.constant("tag", "tag", tag.arguments(), schema_path + (union,))
    where = context.where(schema_path + (union,))
    told_apart = comment(f"{union}, told apart by the key {show(tag.key)} ({where})", limit=120)
    return [
        Applicator(
            "tagged",
            told_apart,
            message=message,
            functions=functions,
            label=passed,
            keyword=literal(union),
            tag=constant,
        )
    ]


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


# -- tagged unions ----------------------------------------------------------------------------

#: The types a tag's constants may have: a string, number, boolean or null (the runtime's
#: ``_Tag`` looks only those up).
_TAG_TYPES = (str, int, float, bool, type(None))
#: A key shown bare in the name of an alternative (``kind "one_way"``); any other is quoted.
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: How many $refs are followed from one alternative (or one property) to the schema holding
#: its constants: a chain this long is no tagged union anyone wrote.
_MAX_REFS = 8


@dataclass(frozen=True)
class UnionTag:
    """The key that tells a union's alternatives apart, and each alternative's constant."""

    key: str
    values: tuple[Any, ...]

    def names(self) -> tuple[str, ...]:
        """Each alternative as a message names it: ``kind "round_trip"``."""
        key = self.key if _PLAIN_KEY.fullmatch(self.key) else show(self.key)
        return tuple(f"{key} {show(value)}" for value in self.values)

    def arguments(self) -> Code:
        """The runtime ``_Tag``'s arguments: the key, the constants, the names (literals)."""
        return Code(f"{literal(self.key)}, {literal(list(self.values))}, {literal(self.names())}")


def union_tag(
    context: BuildContext, branches: list[Any], union_path: SchemaPath
) -> UnionTag | None:
    """The tag of a union, when it has one: a key that every alternative fixes (in its
    ``properties``, or those of a ``$ref`` target at its root) to a constant (``const``, or an
    ``enum`` of one) that is a string, number, boolean or null and equals no other
    alternative's. For an object whose tag is one alternative's constant, every other
    alternative refuses it: that one decides the union. The first such key of the first
    alternative's properties is the tag; None when there is none, and where a tag's value
    is x-sensitive (a refusal would name it).
    """
    if len(branches) < 2:
        return None
    fixed = [_fixed_keys(context, branch, union_path + (i,)) for i, branch in enumerate(branches)]
    for key in fixed[0]:
        if not all(key in keys for keys in fixed):
            continue
        values = tuple(keys[key] for keys in fixed)
        # One look-up per alternative, not a comparison of each pair: a union of thousands
        # of alternatives costs its size.
        if len({json_key(value) for value in values}) == len(values):
            return UnionTag(key, values)
    return None


def _fixed_keys(context: BuildContext, branch: Any, path: SchemaPath) -> dict[str, Any]:
    """The keys an alternative fixes to one constant that may be a tag, and the constants."""
    fixed: dict[str, Any] = {}
    for schema, where in _at_root(context, branch, path):
        for key, sub in properties_of(schema).items():
            for value_schema, value_path in _at_root(context, sub, where + (PROPERTIES, key)):
                if value_path in context.secret:
                    continue
                values = fixed_values(value_schema) if is_fixed(value_schema) else []
                if len(values) == 1 and isinstance(values[0], _TAG_TYPES):
                    fixed.setdefault(key, values[0])
    return fixed


def _at_root(
    context: BuildContext, schema: Any, path: SchemaPath
) -> list[tuple[dict[str, Any], SchemaPath]]:
    """A schema and the $ref targets at its root, in turn (each applies to the same value)."""
    found: list[tuple[dict[str, Any], SchemaPath]] = []
    while isinstance(schema, dict) and len(found) < _MAX_REFS:
        found.append((schema, path))
        target = path_of(schema)
        if target is None or any(target == seen for _, seen in found):
            break
        schema, path = resolve(context.contract.parameters, target), target
    return found
