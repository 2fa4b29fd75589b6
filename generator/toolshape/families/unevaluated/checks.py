"""The model's check of ``unevaluatedProperties`` and ``unevaluatedItems`` (codegen stage).

``codegen/building/nodes.py`` calls :func:`unevaluated_checks` for the object and the array
branch of a node. What the schema evaluates is read at generation time (``evaluation.py``):

- static (no part waits for a condition): one loop over the keys (items) that skips those
  the known names, patterns, prefix and ``contains`` schemas evaluate, like
  ``additionalProperties``' loop; with ``additionalProperties`` (or ``items``) beside it,
  nothing is left and no code is printed;
- dynamic (an ``anyOf``/``oneOf`` branch, ``if``/``then``/``else`` or a ``dependentSchemas``
  entry evaluates some): each condition is decided once per value into a local
  (``passed``: the branch's function finds no error; ``has_key``), then the same loop skips
  a key when a part whose condition held evaluated it. The work is the branches' functions
  once each and, per key, one test per part: linear in the value.

Printed by the ``unevaluated`` macro of ``templates/checks.py.j2``, after the value's other
checks.
"""

from __future__ import annotations

from typing import Any, Literal

from ...codegen.building.context import BuildContext, show
from ...codegen.building.functions import function, passed_label
from ...codegen.literals import Code, comment, literal
from ...codegen.model_parts import (
    EvaluatedBy,
    EvaluatedPart,
    Guard,
    PathPart,
    Unevaluated,
    extend,
)
from ...schema import vocabulary
from ...schema.pointers import SchemaPath, pointer
from .evaluation import Condition, Evaluated, evaluated

#: The keyword of each kind of value: the dynamic keyword that applies to it.
_KEYWORD = {
    vocabulary.keyword(name).applies_to: name
    for name in vocabulary.names(lambda k: k.implemented and k.dynamic)
}


def unevaluated_checks(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
    kind: Literal["object", "array"],
) -> Unevaluated | None:
    """The check of ``schema``'s unevaluated* on ``var`` (an object or an array, ``kind``);
    None when the schema has none or it can never refuse anything."""
    keyword = _KEYWORD[kind]
    if keyword not in schema or schema[keyword] is True:
        return None
    found = evaluated(context.contract.parameters, schema, schema_path, keyword)
    if found.everything:  # additionalProperties or items beside it: nothing is left
        return None
    key_var = context.namer.local("key" if kind == "object" else "i")
    item_var = context.namer.local(f"{var}_value" if kind == "object" else f"{var}_item")
    key_path = extend(path, PathPart("key" if kind == "object" else "index", var=key_var))
    where = schema_path + (keyword,)
    check = Unevaluated(
        kind,
        comment(f"{keyword} ({context.where(where)}): what nothing else evaluated", limit=120),
        [],
        [],
        key_var,
        item_var,
        key_path,
    )
    check.parts = _Parts(context, check.guards, where, label).of(found, None)
    if schema[keyword] is False and kind == "object":
        names = _names(found)
        check.known = context.constant("keys", "strings", literal(frozenset(names)), where)
        check.refuse_code = literal(keyword)
        allowed = ", ".join(show(k) for k in names) or "none"
        check.refuse_message = context.message_constant(
            f" is not allowed in {label}; allowed keys: {allowed}"
            if found.static
            else f" is not allowed in {label}: no schema that passed here evaluates it "
            f"(the keys they may evaluate: {allowed})",
            "key not allowed",
            where,
            tail_suffix="allowed keys" if found.static else "evaluable keys",
        )
        return check
    what = "each unevaluated key in" if kind == "object" else "each unevaluated item of"
    check.node = context.child(schema[keyword], item_var, key_path, where, f"{what} {label}")
    return check if check.node.has_checks else None


class _Parts:
    """The evaluated parts of one check, and the guards they need, in the order printed."""

    def __init__(
        self,
        context: BuildContext,
        guards: list[Guard],
        where: SchemaPath,
        label: str,
    ) -> None:
        self.context, self.guards, self.label = context, guards, label
        self.where = where  # the keyword's place: the constants are named for it
        self.passed: dict[tuple[SchemaPath, Code | None], Code] = {}

    def of(self, found: Evaluated, guard: Code | None) -> list[EvaluatedPart]:
        """The parts of ``found`` (under ``guard``): its own, then each conditional one's."""
        own = EvaluatedPart(guard, self._tests(found), found.everything)
        parts = [own] if own.tests or own.everything else []
        for condition, part in found.parts:
            parts += self.of(part, self._guard(condition, guard))
        return parts

    def _tests(self, found: Evaluated) -> list[EvaluatedBy]:
        context = self.context
        tests = []
        if found.names:
            names = literal(frozenset(found.names))
            tests.append(
                EvaluatedBy("named", context.constant("keys", "strings", names, self.where))
            )
        for pattern, where in found.patterns:
            made = context.pattern_constant("key_pattern", pattern, where, None)
            tests.append(EvaluatedBy("matching", made))
        if found.prefix:
            tests.append(EvaluatedBy("prefix", Code(str(found.prefix))))
        for schema, where in found.matching:
            # The label and path the arrays family gives contains': one function for both.
            tests.append(EvaluatedBy("matched", function(context, schema, where, "an item")))
        return tests

    def _guard(self, condition: Condition, within: Code | None) -> Code:
        """The local holding whether ``condition`` holds (made once per condition)."""
        context = self.context
        if condition.kind == "key present":
            made = Guard(context.namer.local("has_key"), "key present", key=literal(condition.key))
        else:
            passed = self.passed.get((condition.path, within))
            if passed is None:
                made = Guard(
                    context.namer.local("passed"),
                    "passes",
                    function=function(context, condition.schema, condition.path, self.label),
                    label=passed_label(context, self.label),
                    note=comment(
                        f"{pointer(condition.path)} ({context.where(condition.path)}) passes",
                        limit=120,
                    ),
                )
                made.within = within
                self.guards.append(made)
                passed = self.passed[(condition.path, within)] = made.var
            if condition.kind == "passes":
                return passed
            made = Guard(context.namer.local("failed"), "fails", passed=passed)
        made.within = within
        self.guards.append(made)
        return made.var


def _names(found: Evaluated) -> list[str]:
    """Every key name any part evaluates: what a refused key's did-you-mean chooses from."""
    names = list(found.names)
    for _, part in found.parts:
        names += [n for n in _names(part) if n not in names]
    return names
