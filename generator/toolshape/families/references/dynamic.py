"""Dynamic references made static (platforms stage): ``$dynamicRef`` (2020-12) and
``$recursiveRef`` (2019-09), specialised into plain ``$ref`` pointers at import.

What they mean (2020-12 core 8.2.3.2). A ``$dynamicRef`` first resolves like a ``$ref``; when
that initial target declares a ``$dynamicAnchor`` of the name the reference's fragment
gives, the reference goes instead to the declaration of that name in the OUTERMOST schema
resource (``$id``) of the dynamic scope: the resources entered on the way from the root to
the reference. 2019-09's ``$recursiveRef: "#"`` is the same with one nameless anchor
(``$recursiveAnchor: true``, only on a resource's root), with one difference: the outermost
resource is searched only while every resource entered since also declares it.

Within one schema the dynamic scope is known on each path of references, so the importer
makes it static: each place a reference reaches (a "unit": the root, or an entry of the
root's ``$defs``) is built once per binding of the anchor names that matter below it. The
first binding a unit is reached with keeps its place; each other one is a copy under
``$defs`` whose name says what it binds (``list__item_of_numbers``: ``list`` with the anchor ``item``
bound to the declaration in the resource ``numbers``), and in which every dynamic reference is a plain ``$ref``
to its bound target. The binding changes only where a resource is entered, and only the
names a unit can reach a dynamic reference of are part of its key, so real schemas need a
few copies; past :data:`MAX_VARIANTS` the schema is refused at the reference that asked for
one more. The generated module then holds one function per (unit, binding), and checking a
value stays one pass over it, as for any ``$ref``.

The importer (``platforms/importer.py``) resolves every reference to a ``#/$defs`` pointer
first (with the initial target of a dynamic one), then calls :func:`specialise` with what it
learnt of the resources and anchors (:class:`Scope`, in output paths).
"""

from __future__ import annotations

import copy
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ...schema import pointers
from ...schema.graphs import strongly_connected
from ...schema.keywords import ONE_SCHEMA, SCHEMA_LISTS, SCHEMA_MAPS
from ..annotations.rules import COMMENT
from .importing import SchemaPath, ref_to
from .targets import DEFS, REF

#: The name 2019-09's nameless ``$recursiveAnchor`` is bound under.
RECURSIVE = ""
#: How many copies (units reached with a binding other than their first) one schema may need.
MAX_VARIANTS = 64

#: The anchor names bound where a unit is entered, each to the unit its declaration is.
Binding = tuple[tuple[str, SchemaPath], ...]


@dataclass
class Scope:
    """What the specialisation needs to know of a translated schema, in output paths."""

    #: The place of each schema whose ``$ref`` is dynamic -> the anchor name it looks up
    #: (:data:`RECURSIVE` for a ``$recursiveRef``). Its ``$ref`` holds the initial target.
    dynamic: dict[SchemaPath, str] = field(default_factory=dict)
    #: The place of each resource's root -> the names it declares -> the unit declaring each.
    resources: dict[SchemaPath, dict[str, SchemaPath]] = field(default_factory=dict)
    #: Each unit that is not its resource's root -> that root: a reference to the unit
    #: enters the resource all the same (its anchors are bound from there on).
    within: dict[SchemaPath, SchemaPath] = field(default_factory=dict)


def specialise(result: dict[str, Any], scope: Scope) -> list[tuple[SchemaPath, str]]:
    """Rewrite ``result`` (every ``$ref`` a pointer to the root or a ``$defs`` entry) so that
    no reference depends on the dynamic scope. Returns the place of each reference that went
    past :data:`MAX_VARIANTS`, with the copy it asked for (nothing is rewritten then)."""
    if not scope.dynamic:
        return []
    work = _Specialiser(result, scope)
    work.run()
    if work.past_bound:
        return work.past_bound
    work.assemble()
    return []


def _enter(binding: dict[str, SchemaPath], declared: dict[str, SchemaPath]) -> None:
    """``binding`` after entering a resource that declares ``declared``."""
    for name, unit in declared.items():
        binding.setdefault(name, unit)  # the outermost declaration wins
    if RECURSIVE in binding and RECURSIVE not in declared:
        del binding[RECURSIVE]  # 2019-09: a resource without $recursiveAnchor ends the search


def _unit_of(target: SchemaPath) -> bool:
    return target == () or (len(target) == 2 and target[0] == DEFS)


class _Specialiser:
    """One schema's units, each built once per binding that matters to it."""

    def __init__(self, result: dict[str, Any], scope: Scope) -> None:
        self.result = result
        self.scope = scope
        self.defs: dict[str, Any] = dict(result.get(DEFS) or {})
        self.needs = _needs(result, self.defs, scope)
        #: (unit, binding) -> where its schema goes; the first binding keeps the unit's place.
        self.places: dict[tuple[SchemaPath, Binding], SchemaPath] = {}
        self.todo: list[tuple[SchemaPath, Binding]] = []
        #: The units placed so far, and how many copies were made of them.
        self.placed: set[SchemaPath] = set()
        self.copies = 0
        self.built: dict[SchemaPath, Any] = {}
        self.comments: dict[SchemaPath, str] = {}
        self.past_bound: list[tuple[SchemaPath, str]] = []
        #: Each declaration's unit -> the root of the resource declaring it (for names).
        self.owners = {
            unit: resource
            for resource, declared in scope.resources.items()
            for unit in declared.values()
        }

    def run(self) -> None:
        self.place((), {}, ())
        while self.todo and not self.past_bound:
            unit, binding = self.todo.pop()
            schema = self.result if unit == () else self.defs[unit[1]]
            self.built[self.places[unit, binding]] = self.rewrite(schema, unit, dict(binding))

    def place(
        self, unit: SchemaPath, binding: dict[str, SchemaPath], asked_at: SchemaPath
    ) -> SchemaPath:
        """Where the unit ``unit``, reached with ``binding``, is built (queued when new).

        The key is the binding inside the unit (its resource entered), restricted to the names
        it needs: a unit is copied only where a dynamic reference below it goes elsewhere."""
        inside = self.entered(unit, binding)
        key = (unit, tuple(sorted((n, u) for n, u in inside.items() if n in self.needs[unit])))
        if key in self.places:
            return self.places[key]
        if unit not in self.placed:
            where = unit
            self.placed.add(unit)
        elif self.copies >= MAX_VARIANTS:
            self.past_bound.append((asked_at, self.variant_words(unit, key[1])))
            return unit
        else:
            self.copies += 1
            where = (DEFS, self.variant_name(unit, key[1]))
            self.comments[where] = self.variant_words(unit, key[1])
        self.places[key] = where
        self.todo.append(key)
        return where

    def variant_name(self, unit: SchemaPath, binding: Binding) -> str:
        """A fresh ``$defs`` name saying which unit and what it binds."""
        parts = [unit[-1] if unit else "arguments"]
        for name, bound in binding:
            owner = self.owners.get(bound, bound)
            parts.append(f"{name or 'recursive'}_of_{owner[-1] if owner else 'arguments'}")
        base, n = "__".join(parts), 2
        name = base
        while name in self.defs or (DEFS, name) in self.comments:
            name, n = f"{base}_{n}", n + 1
        return name

    def entered(self, path: SchemaPath, binding: dict[str, SchemaPath]) -> dict[str, SchemaPath]:
        """The binding at ``path``: the resource it is the root of entered, and for a unit
        the resource it lies in (a reference into a resource enters it too). Entering a
        resource twice changes nothing."""
        inside = dict(binding)
        if path in self.scope.within:
            for name, unit in self.scope.resources[self.scope.within[path]].items():
                inside.setdefault(name, unit)
        if path in self.scope.resources:
            _enter(inside, self.scope.resources[path])
        return inside

    def variant_words(self, unit: SchemaPath, binding: Binding) -> str:
        """What a copy is: ``#/$defs/list with $dynamicAnchor item bound to #/$defs/item_2
        (declared in #/$defs/numbers)``."""
        return f"{ref_to(unit)} with " + ", ".join(
            f"{_anchor_words(name)} bound to {ref_to(bound)}"
            + f" (declared in {ref_to(self.owners.get(bound, bound))})"
            for name, bound in binding
        )

    def rewrite(self, node: Any, path: SchemaPath, binding: dict[str, SchemaPath]) -> Any:
        """A copy of the schema ``node`` (at ``path``) with its references bound."""
        binding = self.entered(path, binding)
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            if key == DEFS:
                if path:  # nested definitions: no $ref reaches them (the importer hoisted those)
                    out[key] = copy.deepcopy(value)
            elif key == REF and isinstance(value, str):
                out[key] = ref_to(self.target(node, path, binding))
            else:
                out[key] = self.rewrite_value(key, value, path, binding)
        return out

    def rewrite_value(
        self, key: str, value: Any, path: SchemaPath, binding: dict[str, SchemaPath]
    ) -> Any:
        if key in ONE_SCHEMA and isinstance(value, (dict, bool)):
            return self.rewrite(value, path + (key,), binding)
        if key in SCHEMA_LISTS and isinstance(value, list):
            return [self.rewrite(s, path + (key, str(i)), binding) for i, s in enumerate(value)]
        if key in SCHEMA_MAPS and isinstance(value, dict):
            return {n: self.rewrite(s, path + (key, n), binding) for n, s in value.items()}
        return copy.deepcopy(value)

    def target(
        self, node: dict[str, Any], path: SchemaPath, binding: dict[str, SchemaPath]
    ) -> SchemaPath:
        """Where the ``$ref`` of ``node`` goes under ``binding``."""
        unit = pointers.ref_path(node[REF])
        name = self.scope.dynamic.get(path)
        if name is not None and name in binding:
            unit = binding[name]
        key = tuple(str(step) for step in unit)
        return self.place(key, binding, path) if _unit_of(key) else key

    def assemble(self) -> None:
        """Put every built unit in its place in ``result``."""
        root = self.built[()]
        defs = {name: self.built.get((DEFS, name), schema) for name, schema in self.defs.items()}
        for where, comment in self.comments.items():
            variant = self.built[where]
            defs[where[1]] = {COMMENT: comment, **variant} if isinstance(variant, dict) else variant
        self.result.clear()
        self.result.update(root)
        if defs:
            self.result[DEFS] = defs


def _anchor_words(name: str) -> str:
    return "$recursiveAnchor" if name == RECURSIVE else f"$dynamicAnchor {name}"


def _nodes(node: Any, path: SchemaPath) -> Iterator[tuple[SchemaPath, dict[str, Any]]]:
    """Every schema object under ``node`` (``$defs`` left out) with its path."""
    if not isinstance(node, dict):
        return
    yield path, node
    for key, value in node.items():
        if key == DEFS:
            continue
        if key in ONE_SCHEMA:
            yield from _nodes(value, path + (key,))
        elif key in SCHEMA_LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                yield from _nodes(sub, path + (key, str(i)))
        elif key in SCHEMA_MAPS and isinstance(value, dict):
            for name, sub in value.items():
                yield from _nodes(sub, path + (key, name))


def _needs(
    root: dict[str, Any], defs: dict[str, Any], scope: Scope
) -> dict[SchemaPath, frozenset[str]]:
    """For each unit: the anchor names of the dynamic references it can reach (through its
    own subschemas, ``$ref`` and any declaration a dynamic reference may go to)."""
    units: dict[SchemaPath, Any] = {(): root, **{(DEFS, name): s for name, s in defs.items()}}
    declarations: dict[str, set[SchemaPath]] = {}
    for declared in scope.resources.values():
        for name, unit in declared.items():
            declarations.setdefault(name, set()).add(unit)
    names: dict[SchemaPath, set[str]] = {}
    edges: dict[SchemaPath, set[SchemaPath]] = {}
    for unit, schema in units.items():
        names[unit], edges[unit] = set(), set()
        for path, node in _nodes(schema, unit):
            ref = node.get(REF)
            if isinstance(ref, str):
                edges[unit].add(tuple(str(step) for step in pointers.ref_path(ref)))
            looked_up = scope.dynamic.get(path)
            if looked_up is not None:
                names[unit].add(looked_up)
                edges[unit] |= declarations.get(looked_up, set())
    # The names grow along the edges: read once per strongly connected part of the graph,
    # successors first (a fixpoint over every unit would go round once per step of a chain).
    needs: dict[SchemaPath, frozenset[str]] = {}
    for part in strongly_connected(list(units), lambda unit: sorted(edges.get(unit, ()))):
        found = set().union(*(names.get(unit, set()) for unit in part))
        for unit in part:
            found |= set().union(*(needs.get(e, frozenset()) for e in edges.get(unit, ())))
        for unit in part:
            needs[unit] = frozenset(found)
    return needs
