"""One schema applied to one value: its branch per JSON type, each kind's checks, its applicators.

:class:`ModelBuilder` is the :class:`~.context.BuildContext` the kinds get: it builds a node
(the ``node`` macro of ``templates/checks.py.j2``) by handing each JSON type's keywords to
their kind (the ``branch`` macro): strings.py, families/numbers/checks.py,
families/arrays/checks.py, families/objects/checks.py, families/values/checks.py for type,
enum and const, and applicators.py for the subschemas on the same value.
"""

from __future__ import annotations

from typing import Any

from ...families.arrays.checks import array_checks
from ...families.numbers.checks import number_checks
from ...families.objects.checks import object_checks
from ...families.references.checks import labelled_body, labelled_function
from ...families.unevaluated.checks import unevaluated_checks
from ...families.values.checks import TYPE_CODE, value_checks
from ...families.values.checks import type_message as type_message_of
from ...families.values.rules import no_value
from ...families.values.typing import declared_types
from ...schema import keywords
from ...schema.pointers import SchemaPath
from ..literals import Code, comment
from ..model_parts import Applicator, Branch, Check, JsonType, Node, PathPart
from .applicators import applicators
from .context import BuildContext, path_hint
from .strings import string_checks

#: How many values deep (keys and items) the checks written in one function reach: the value
#: one level deeper, where its schema holds subschemas, is checked in a function of its own,
#: called there. Each level indents the code twice (the key's test, the type's), so without
#: a bound the lines of a deeply nested contract start ever further right and black cuts
#: them ever shorter: 24 levels made a 695 kB module of a 1.1 kB schema, one character a line.
MAX_VALUE_DEPTH = 6
#: The keywords holding subschemas: a schema with none of them adds a bounded block wherever
#: it is checked.
_HOLDERS = frozenset((*keywords.ONE_SCHEMA, *keywords.SCHEMA_LISTS, *keywords.SCHEMA_MAPS))


class ModelBuilder(BuildContext):
    """Builds the nodes of one contract; the kinds' functions call back through :meth:`node`."""

    def node(
        self, schema: Any, var: Code, path: list[PathPart], schema_path: SchemaPath, label: str
    ) -> Node:
        with self.namer.block():  # its locals are free again for the next sibling
            return self._node(schema, var, path, schema_path, label)

    def child(
        self, schema: Any, var: Code, path: list[PathPart], schema_path: SchemaPath, label: str
    ) -> Node:
        """The node of a child value (a property's, an item's): :meth:`node`, or, where the value
        lies MAX_VALUE_DEPTH values deep in this function and its schema holds subschemas, a
        call of a function that checks it, which starts again at depth 0. A $ref target's
        function is the same kind of function: the value, its path, its label, whether it is
        a required key's."""
        if (
            _depth(path) < MAX_VALUE_DEPTH
            or not isinstance(schema, dict)
            or _HOLDERS.isdisjoint(schema)
            or schema_path in self.settled
        ):
            return self.node(schema, var, path, schema_path, label)
        name = self._nested_function(schema, schema_path)
        node = Node(var, path, label, False, [], None, [], None)
        note = comment(f"checked in {name} ({self.where(schema_path)})", limit=120)
        node.applicators = [Applicator("ref", note, function=name, label=self.say(label))]
        return node

    def _nested_function(self, schema: dict[str, Any], schema_path: SchemaPath) -> Code:
        """The function that checks the value at ``schema_path`` (see :meth:`child`), made once."""
        if schema_path in self.nested:
            return self.nested[schema_path]
        name = self.nested[schema_path] = self.namer.function(path_hint(schema_path))
        made = labelled_function(self, name, comment(self.where(schema_path), limit=120))
        labelled_body(self, made, schema, schema_path)
        return name

    def _node(
        self, schema: Any, var: Code, path: list[PathPart], schema_path: SchemaPath, label: str
    ) -> Node:
        if schema is False or (isinstance(schema, dict) and no_value(schema)):
            # One check refusing every value, as JSON Schema means (the same code, false).
            refusal = _refusal(schema, label, whole=label == self.noun)
            return Node(var, path, label, False, [], None, [], self.say(refusal))
        if schema is True or not isinstance(schema, dict):
            return Node(var, path, label, False, [], None, [], None)
        declared = declared_types(schema)
        kinds = list(declared) if declared else _implied_kinds(schema)
        branches = [
            self.branch(kind, schema, var, path, schema_path, label, declared) for kind in kinds
        ]
        any_checks: list[Check] = []
        if declared is None:
            branches = [b for b in branches if not b.empty]
            any_checks = value_checks(self, schema, "any", label, schema_path)
        type_message = type_message_of(self, declared, label)
        found = applicators(self, schema, var, path, schema_path, label)
        node = Node(
            var,
            path,
            label,
            declared is not None,
            branches,
            type_message,
            any_checks,
            None,
            type_code=TYPE_CODE,
        )
        node.secret = schema_path in self.secret
        if declared is None:
            node.applicators = found
        else:
            # With a type, they run only once the type is right: a value of the
            # wrong type reports `type` alone.
            for branch in node.branches:
                branch.applicators = found
        return node

    def branch(
        self,
        kind: JsonType,
        schema: dict[str, Any],
        var: Code,
        path: list[PathPart],
        schema_path: SchemaPath,
        label: str,
        declared: tuple[str, ...] | None,
    ) -> Branch:
        """The checks of ``schema`` that apply when the value is of JSON type ``kind``."""
        branch = Branch(kind)
        pinned = declared is not None
        if kind == "string":
            branch.checks = string_checks(self, schema, label, schema_path)
        elif kind in ("integer", "number"):
            branch.checks = number_checks(self, schema, label)
            branch.integral = kind == "integer"
        elif kind == "array":
            branch.array = array_checks(self, schema, var, path, schema_path, label)
        elif kind == "object":
            branch.object = object_checks(self, schema, var, path, schema_path, label)
        if kind in ("array", "object"):
            branch.unevaluated = unevaluated_checks(
                self, schema, var, path, schema_path, label, kind
            )
        if pinned:
            branch.checks = value_checks(self, schema, kind, label, schema_path) + branch.checks
        return branch


def _refusal(schema: Any, label: str, *, whole: bool = False) -> str:
    """The message of a value where no value can pass: the ``false`` schema, or an ``enum``
    and ``const`` that let none pass (the contract check warns of it). ``whole``: the value
    is the whole of the arguments (or of the result), named in the plural or as a whole."""
    if schema is False and whole:
        return f"no {label.removeprefix('the ')} can pass (the schema is false)"
    if schema is False:
        return f"{label} is not allowed (the schema is false)"
    return (
        f"{label} cannot have any value: as the tool's contract is written, no value can pass"
        f" here ({no_value(schema)}); do not send one"
    )


def _implied_kinds(schema: dict[str, Any]) -> list[JsonType]:
    """Without `type`, each keyword applies to the values of its own type only."""
    return ["string", "number", "array", "object"]


def _depth(path: list[PathPart]) -> int:
    """How many values deep ``path`` reaches from the start of its function: each step a key or
    an item (fixed steps are joined into one text part, "/a/b~1c": one "/" each)."""
    return sum(
        (part.text or "").count("/") if part.kind == "text" else part.kind != "base"
        for part in path
    )
