"""Accepted values for a schema, each confirmed by the reference evaluator.

A schema is read as a *conjunction*: the schema itself, the subschemas ``allOf`` and
``$ref`` add to it, one branch of each ``anyOf``/``oneOf`` and one side of each
``if`` (``if`` and ``then``, or ``else``) chosen per alternative. From the keywords of
one alternative, all together, candidates are built (strings for every pattern, length
bound, format and enum at once; numbers on the common grid of every ``multipleOf``
between the tightest bounds; arrays and objects item by item, key by key, each built
the same way). A candidate is only returned after :func:`toolshape.contract.reference.errors_of`
accepted it against the whole schema, so ``oneOf`` (exactly one branch), ``not`` and
the else-side of an ``if`` are enforced by that confirmation; ``not`` of a pattern or of
a format is also used while building (an excluded pattern, an invalid format sample).

All work counts against one :class:`~toolshape.witness.budget.Budget` per contract; when
it runs out, the engine returns what it has and ``budget.exhausted`` says so, so that
the caller can warn instead of failing or guessing.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Sequence
from typing import Any

from ..contract.reference import errors_of, refuses_every_value
from ..families.arrays import values as array_values
from ..families.combinators import values as combinator_values
from ..families.formats import values as format_values
from ..families.numbers import values as number_values
from ..families.objects import values as object_values
from ..families.references import targets
from ..families.strings import values as string_values
from ..families.values import rules as value_rules
from ..schema.values import offered_values
from . import sources
from .budget import MAX_DEPTH, MAX_SIZE, SEARCH_COST, Budget

#: At most this many alternatives (union branches times if-sides) per conjunction.
MAX_ALTERNATIVES = 24
#: The JSON types, in the order the engine tries them when a schema does not say.
KINDS = ("string", "integer", "boolean", "null", "number", "array", "object")

Schema = Any
#: A schema object (a JSON object).
Obj = dict[str, Any]


class Engine:
    """Builds confirmed accepted values for subschemas of one root (which resolves ``$ref``)."""

    def __init__(self, root: Any, budget: Budget | None = None) -> None:
        self.root = root
        self.budget = budget or Budget()
        self._memo: dict[tuple[tuple[int, ...], int, int], tuple[list[Any], list[Any]]] = {}
        #: Whether each schema (by id, kept alive beside it) is :meth:`impossible`.
        self._impossible: dict[int, tuple[bool, Schema]] = {}

    # -- public ---------------------------------------------------------------------

    def accepted(self, schema: Schema, count: int = 1, *, extra: Sequence[Any] = ()) -> list[Any]:
        """Up to ``count`` distinct values ``schema`` accepts, most natural first; ``extra``
        are tried first (a property's examples, values seen in the contract's examples)."""
        return self.conjunction([schema], count, extra=extra)

    def conjunction(
        self,
        schemas: Sequence[Schema],
        count: int = 1,
        *,
        extra: Sequence[Any] = (),
        depth: int = 0,
    ) -> list[Any]:
        """Up to ``count`` distinct values every one of ``schemas`` accepts."""
        key = (tuple(id(s) for s in schemas), count, depth)
        if not extra and key in self._memo:
            return list(self._memo[key][0])
        # As written, no value passes an unsatisfiable schema: none to search for (the
        # checker warns); the empty answer is remembered like any other.
        unsatisfied = any(self.impossible(s) for s in schemas)
        found = [] if unsatisfied else self._search(schemas, count, extra, depth)
        if not extra:
            self._memo[key] = (found, list(schemas))  # the schemas keep their ids alive
        return list(found)

    def _search(
        self, schemas: Sequence[Schema], count: int, extra: Sequence[Any], depth: int
    ) -> list[Any]:
        """Up to ``count`` of ``extra`` then the candidates, each confirmed, while the
        budget lasts."""
        found: list[Any] = []
        tried: set[str] = set()
        for candidate in itertools.chain(extra, self._candidates(list(schemas), depth)):
            text = _key(candidate)
            if text in tried:
                continue
            tried.add(text)
            if not self.budget.spend():
                break
            if self.confirms(schemas, candidate):
                found.append(candidate)
                if len(found) >= count:
                    break
        return found

    def impossible(self, schema: Schema) -> bool:
        """Whether no value can pass ``schema`` as written (the reference evaluator's
        answer, :func:`~toolshape.contract.reference.refuses_every_value`); remembered per
        schema."""
        known = self._impossible.get(id(schema))
        if known is None:
            known = (refuses_every_value(schema, self.root), schema)
            self._impossible[id(schema)] = known
        return known[0]

    def confirms(self, schemas: Sequence[Schema], value: Any) -> bool:
        """Whether the reference evaluator accepts ``value`` against every schema. Out of stack
        it is not confirmed (never offered as accepted); a pattern out of its match steps is
        not caught here: the derivation reports it at the pattern, as the match budget
        promises, instead of quietly deriving fewer cases."""
        try:
            return all(not errors_of(s, value, "", root=self.root) for s in schemas)
        except RecursionError:  # out of stack: not confirmed (see confirms)
            return False

    def near_misses(self, schema: Obj, count: int = 1) -> list[str]:
        """Strings that fail ``schema`` only by its ``pattern`` (confirmed): one character off,
        or one too few or too many, within the length bounds."""
        pattern = string_values.pattern_of(schema)
        if pattern is None:
            return []
        low, high = string_values.length_bounds([schema])
        search = sources.pattern_near_misses(
            pattern, min_length=low, max_length=high, count=count * 4, steps=self.budget.grant()
        )
        self._settle(search)
        found = [s for s in search.found if self._only(schema, s, string_values.PATTERN)]
        return found[:count]

    def format_misses(self, schema: Obj, count: int = 1) -> list[str]:
        """Strings that fail ``schema`` only by its ``format`` (confirmed)."""
        name = format_values.format_of(schema)
        if name is None:
            return []
        low, high = string_values.length_bounds([schema])
        return [
            s
            for s in sources.format_invalid(name, low, high)
            if self._only(schema, s, format_values.FORMAT)
        ][:count]

    def _only(self, schema: Obj, value: Any, code: str) -> bool:
        if not self.budget.spend():
            return False
        try:
            return errors_of(schema, value, "", root=self.root) == {("", code)}
        except RecursionError:  # out of stack: not confirmed (see confirms)
            return False

    def _settle(self, search: sources.Found) -> None:
        """Account for a pattern search: its cost is spent; an unfinished one is noted (for the warning)."""
        self.budget.spend(min(self.budget.left, SEARCH_COST))
        if not search.complete:
            self.budget.searches_cut = True

    # -- candidates -------------------------------------------------------------------

    def _candidates(self, schemas: list[Schema], depth: int) -> Iterator[Any]:
        """Unconfirmed candidates for the conjunction of ``schemas``, alternative by alternative."""
        if depth > MAX_DEPTH:
            return
        for flat, negated in itertools.islice(self._alternatives(schemas, depth), MAX_ALTERNATIVES):
            if self.budget.exhausted:
                return
            yield from self._typed(flat, negated, depth)

    def _alternatives(
        self, schemas: list[Schema], depth: int
    ) -> Iterator[tuple[list[Obj], list[Any]]]:
        """Each way to satisfy the applicators: (plain schemas that all hold, schemas that must not)."""
        flat: list[Obj] = []
        negated: list[Any] = []
        seen: set[int] = set()
        # Per union or if: the options, each (schemas that hold, schemas that must not).
        choices: list[list[combinator_values.Option]] = []
        queue = list(schemas)
        while queue:
            schema = queue.pop(0)
            if schema is True or id(schema) in seen:
                continue
            if not isinstance(schema, dict):
                return  # false (or not a schema): no value at all
            seen.add(id(schema))
            flat.append(schema)
            try:
                queue += targets.followed(self.root, schema)
            except (KeyError, IndexError, TypeError, ValueError):
                return
            queue.extend(combinator_values.conjuncts(schema))
            choices.extend(combinator_values.choices(schema))
            negated.extend(combinator_values.negated(schema))
        if not choices:
            yield flat, negated
            return
        for picked in itertools.islice(itertools.product(*choices), MAX_ALTERNATIVES):
            more = [s for option in picked for s in option[0]]
            avoided = [s for option in picked for s in option[1]]
            own = {id(s) for s in flat}
            for inner, inner_negated in self._alternatives(more, depth):
                yield (
                    flat + [s for s in inner if id(s) not in own],
                    negated + avoided + inner_negated,
                )

    def _typed(self, flat: list[Obj], negated: list[Any], depth: int) -> Iterator[Any]:
        """Candidates from the keywords of one alternative (no applicators left)."""
        fixed = [s for s in flat if value_rules.is_fixed(s)]
        for schema in flat:
            yield from _annotated(schema)
        if fixed:
            first = fixed[0]
            yield from value_rules.fixed_values(first)
            return
        for kind in _kinds(flat, negated):
            if self.budget.exhausted:
                return
            if kind == "null":
                yield None
            elif kind == "boolean":
                yield from (False, True)
            elif kind == "string":
                yield from self._strings(flat, negated)
            elif kind in ("integer", "number"):
                yield from number_values.candidates(flat, kind, negated)
            elif kind == "array":
                yield from self._arrays(flat, depth)
            elif kind == "object":
                yield from object_values.candidates(self, flat, negated, depth)

    # -- strings ----------------------------------------------------------------------

    def _strings(self, flat: list[Obj], negated: list[Any]) -> Iterator[str]:
        low, high = string_values.length_bounds(flat)
        if high is not None and high < low:
            return
        patterns, excluded = string_values.patterns(flat, negated)
        yield from format_values.strings(flat, negated, low, high)
        if patterns or excluded:
            search = sources.pattern_strings(
                patterns,
                excluded=excluded,
                min_length=low,
                max_length=high,
                count=6,
                steps=self.budget.grant(),
            )
            self._settle(search)
            yield from search.found
        yield from string_values.fillers(low, high)

    # -- arrays ------------------------------------------------------------------------

    def _arrays(self, flat: list[Obj], depth: int) -> Iterator[list[Any]]:
        """The arrays of one alternative: their family's, with items found one level down."""

        def conjunction(schemas: list[Schema], count: int) -> list[Any]:
            return self.conjunction(schemas, count, depth=depth + 1)

        return array_values.candidates(flat, conjunction, MAX_SIZE)


def _annotated(schema: Obj) -> list[Any]:
    """The schema's own examples and default: the most natural values, when they pass."""
    return offered_values(schema, first="values")


def _kinds(flat: list[Obj], negated: list[Any]) -> list[str]:
    """The JSON types a value may have: those every ``type`` allows, minus those a ``not``
    forbids outright; inferred from the keywords when no ``type`` says."""
    allowed = list(KINDS)
    for schema in flat:
        kinds = value_rules.type_names(schema)
        if kinds is not None:
            allowed = [k for k in allowed if k in kinds or (k == "integer" and "number" in kinds)]
    for schema in negated:
        kinds = value_rules.type_names(schema) if isinstance(schema, dict) else None
        if kinds is not None and len(schema) == 1:  # a type alone: those types are forbidden
            allowed = [
                k for k in allowed if k not in kinds and not (k == "integer" and "number" in kinds)
            ]
    if "integer" in allowed and "number" in allowed:
        allowed.remove("integer")  # the numbers tried include integers: try them only once
    hinted = [k for k in _hinted(flat) if k in allowed]
    return hinted + [k for k in allowed if k not in hinted]


def _hinted(flat: list[Obj]) -> list[str]:
    hints: list[str] = []
    for schema in flat:
        if object_values.constrains(schema):
            hints.append("object")
        if array_values.hinted(schema):
            hints.append("array")
        if string_values.constrains(schema) or format_values.FORMAT in schema:
            hints.append("string")
        if number_values.constrains(schema):
            hints.append("integer")
            hints.append("number")
    return list(dict.fromkeys(hints))


def _key(value: Any) -> str:
    """Canonical JSON (1 and 1.0, true and 1 stay apart): to try each candidate once."""
    return _CANONICAL_JSON_TEXT.encode(value) + type(value).__name__


#: ``json.dumps(value, sort_keys=True, default=repr)``'s encoder, made once (dumps makes one at
#: every call given any option: half the time of a small candidate's key). Never changed.
_CANONICAL_JSON_TEXT = json.JSONEncoder(sort_keys=True, default=repr)
