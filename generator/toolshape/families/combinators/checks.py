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
instead of by its position; the verdict is the union's, whatever the value. When the tag is
decisive (``rules.Tag``), the runtime has checked it before an alternative runs, so each
alternative's function is built without its own checks of the tag, which could never fail
(``UnionTag.settled``, ``BuildContext.settled``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ...codegen.building.context import BuildContext, Settled, show
from ...codegen.building.functions import applicator_note, function, passed_label
from ...codegen.literals import Code, comment, literal
from ...codegen.model_parts import Applicator, ApplicatorKind, Node, PathPart
from ...schema.keywords import nullable_alternative
from ...schema.pointers import SchemaPath
from .rules import distinct_entries
from .rules import union_tag as rules_union_tag

#: The codes of a union's errors, as the runtime's ``_tagged`` tells them apart (the runtime
#: template is rendered with them: ``unions.any_of``, ``unions.one_of``).
UNION_CODES = {"any_of": literal("anyOf"), "one_of": literal("oneOf")}


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
        found.append(
            Applicator(
                "negated",
                note,
                message=message,
                function=made,
                label=passed,
                keyword=literal("not"),
            )
        )
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
    tag = union_tag(context, branches, schema_path + (union,))
    # A decisive tag is checked before an alternative runs: each alternative leaves its own
    # checks of it out (none of them could fail there).
    functions = [
        function(context, sub, schema_path + (union, i), label, tag.settled(i) if tag else ())
        for i, sub in enumerate(branches)
    ]
    how = "at least one" if union == "anyOf" else "exactly one"
    message = context.say(f"{label} must match {how} of {len(branches)} alternatives")
    kind: ApplicatorKind = "any_of" if union == "anyOf" else "one_of"
    note = applicator_note(context, schema_path, union)
    passed = passed_label(context, label)
    if tag is None:
        return [
            Applicator(
                kind,
                note,
                message=message,
                functions=functions,
                label=passed,
                keyword=literal(union),
            )
        ]
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
            "conditional",
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

#: A key shown bare in the name of an alternative (``kind "one_way"``); any other is quoted.
_PLAIN_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class UnionTag:
    """The key that tells a union's alternatives apart, each alternative's constant, and
    whether the tag alone decides every object (``rules.Tag``)."""

    key: str
    values: tuple[Any, ...]
    decisive: bool = False
    #: Each alternative's places whose checks of the tag it leaves out (``rules.Tag``).
    places: tuple[tuple[SchemaPath, ...], ...] = ()

    def settled(self, index: int) -> Settled:
        """The places of alternative ``index`` whose checks of the tag the union makes (none
        unless the tag is decisive), as ``BuildContext.settled`` takes them."""
        places = self.places[index] if self.decisive else ()
        return tuple((place, self.key) for place in places)

    def names(self) -> tuple[str, ...]:
        """Each alternative as a message names it: ``kind "round_trip"``."""
        key = self.key if _PLAIN_KEY.fullmatch(self.key) else show(self.key)
        return tuple(f"{key} {show(value)}" for value in self.values)

    def arguments(self) -> Code:
        """The runtime ``_Tag``'s arguments: the key, the constants, the names (literals), and
        whether it decides every object alone."""
        return Code(
            f"{literal(self.key)}, {literal(list(self.values))}, {literal(self.names())}, "
            f"{literal(self.decisive)}"
        )


def union_tag(
    context: BuildContext, branches: list[Any], union_path: SchemaPath
) -> UnionTag | None:
    """The tag of a union, when it has one (``rules.union_tag``); never where a tag's value
    is x-sensitive (a refusal would name it)."""
    tag = rules_union_tag(
        context.contract.parameters, branches, union_path, context.secret.__contains__
    )
    return None if tag is None else UnionTag(tag.key, tag.values, tag.decisive, tag.places)
