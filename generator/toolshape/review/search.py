"""The witness search for the changes of one tool's arguments or result (one flow): candidates
from examples, derived cases and crafted values, checked by both generated validators and the
reference evaluator, and attributed to the change that is responsible.

The search only knows which way a value moved (``NARROWS``: accepted before, refused now;
``WIDENS``: the reverse); the flow names the effect each has on callers."""

from __future__ import annotations

import copy
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import Any

from ..contract import reference
from ..families.arrays import review as array_review
from ..families.combinators import review as combinator_review
from ..families.combinators.values import negation
from ..families.formats import review as format_review
from ..families.objects import review as object_review
from ..families.objects.review import grown
from ..families.strings import review as string_review
from ..families.values import review as value_review
from ..families.values.review import may_be
from ..schema import children, pointers
from ..witness import budget
from ..witness.values import Engine
from .decisions import (
    BOUND_FAMILY,
    COMBINATORS,
    Decision,
    decide_structurally,
    keyword_added_or_removed,
    polarity_of,
)
from .report import (
    ARGUMENTS,
    NARROWS,
    REASON_BUDGET,
    REASON_COMBINATOR,
    REASON_FORMAT,
    REASON_MASKED,
    REASON_PATTERN,
    REASON_PLACE,
    REASON_SAMPLED,
    RESULTS,
    WIDENS,
    Change,
    Flow,
    Report,
    Witness,
    reason_for,
)
from .samples import (
    EXTRA,
    ITEM,
    MAX_VALUES,
    corpus_of,
    crafted_values,
    instance_paths,
    key_paths,
    maybe,
    read_place,
    reductions,
    shrunk,
    simplified,
    values_at,
    with_values,
)
from .sides import View
from .text import dump, shown_arguments, size, unique
from .walk import ANNOTATION_KEYWORDS, Parts, Pending, Place, node_at

#: Witness search limits (per change): bases tried, values per place.
_MAX_BASES = 6
#: At most this many distinguishing candidates are checked against the reference per change.
_MAX_REFERENCE_CHECKS = 400


class Search:
    """Finds, checks and attributes witnesses for the changes of one tool's arguments or result:
    ``old`` and ``new`` are the two sides as ``flow`` sees them."""

    def __init__(
        self,
        old: View,
        new: View,
        report: Report,
        steps: int = budget.DEFAULT_STEPS,
        flow: Flow = ARGUMENTS,
        places: Sequence[Place] | None = None,
    ) -> None:
        """``places``: the instance places the changes are about (:func:`samples.focus`), so
        that only the derived cases near them are searched; None searches every case."""
        self.old, self.new, self.report, self.flow = old, new, report, flow
        self.verdicts: dict[str, tuple[Any, Any] | None] = {}
        self.reference_cache: dict[str, tuple[set[tuple[str, str]], set[tuple[str, str]]]] = {}
        corpus = [
            *corpus_of(old.examples, old.cases, places),
            *corpus_of(new.examples, new.cases, places),
        ]
        self.corpus = unique(c for c in corpus if isinstance(c, dict))
        both = [c for c in self.corpus if self.verdict(c) == ("accept", "accept")]
        old_only = [c for c in self.corpus if self.verdict(c) == ("accept", "reject")]
        new_only = [c for c in self.corpus if self.verdict(c) == ("reject", "accept")]
        bases = [self.prune(c, ("accept", "accept")) for c in sorted(both, key=size)[:3]]
        bases += sorted(both, key=size)[:2] + sorted(both, key=size, reverse=True)[:1]
        bases += [self.prune(c, ("accept", "reject")) for c in sorted(old_only, key=size)[:1]]
        bases += [self.prune(c, ("reject", "accept")) for c in sorted(new_only, key=size)[:1]]
        self.bases = unique(bases)[: _MAX_BASES + 2]
        # One witness budget for the tool: both sides' engines draw on it.
        self.budget = budget.Budget(steps)
        #: The per-change limit on reference checks cut a witness search short.
        self.checks_cut = False
        self.old_engine = Engine(old.schema, self.budget)
        self.new_engine = Engine(new.schema, self.budget)

    # -- verdicts ---------------------------------------------------------------

    def verdict(self, arguments: Any) -> tuple[str, str]:
        """(old status, new status) from the generated validators."""
        key = dump(arguments)
        if key not in self.verdicts:
            try:
                self.verdicts[key] = (
                    self.old.validate(arguments),
                    self.new.validate(arguments),
                )
            except Exception:  # noqa: BLE001 - validate() never raises; be safe anyway
                self.verdicts[key] = None
        pair = self.verdicts[key]
        return (pair[0].status, pair[1].status) if pair else ("?", "?")

    def references(self, arguments: Any) -> tuple[set[tuple[str, str]], set[tuple[str, str]]]:
        """The reference evaluator's errors for both sides (cached: they do not depend on the change)."""
        key = dump(arguments)
        if key not in self.reference_cache:
            self.reference_cache[key] = (
                reference.evaluate(self.old.schema, arguments),
                reference.evaluate(self.new.schema, arguments),
            )
        return self.reference_cache[key]

    def results(self, arguments: Any) -> tuple[Any, Any]:
        self.verdict(arguments)
        return self.verdicts[dump(arguments)]  # type: ignore[return-value]

    def prune(self, arguments: dict[str, Any], want: tuple[str, str]) -> dict[str, Any]:
        """Smaller arguments with the same verdicts: optional keys dropped, at every depth.

        The keys are tried in blocks, deepest first. A block whose dropping keeps the verdicts
        goes whole; one that does not first gives back the keys that a side meant to accept now
        reports missing (``required``) and is tried again without them, else it is split in
        halves. Where dropping one key never makes dropping another possible, that drops what
        trying each key alone drops, in a few checks: one check per key would run both
        validators on the whole arguments once per key, quadratic work in their width."""
        current = copy.deepcopy(arguments)
        blocks = [list(key_paths(current))]
        while blocks:
            block = blocks.pop()
            trial = _without(current, block)
            if trial is None:
                continue  # every key of the block went with a block before it
            if self.verdict(trial) == want:
                current = trial
                continue
            missing = self.missing(trial, want)
            rest = [path for path in block if pointers.pointer(path) not in missing]
            if rest and len(rest) < len(block):
                blocks.append(rest)  # the keys reported missing stay
            elif len(block) > 1:
                middle = len(block) // 2
                blocks += [block[middle:], block[:middle]]  # the first half is tried first
        return current

    def missing(self, arguments: Any, want: tuple[str, str]) -> set[str]:
        """The places of the keys reported missing by each side that ``want`` has accept but
        refuses ``arguments``."""
        found: set[str] = set()
        if self.verdicts.get(dump(arguments)) is None:
            return found  # a validator raised: nothing to read
        for wanted, result in zip(want, self.results(arguments), strict=True):
            if wanted == "accept" and result.status != "accept":
                found.update(e.path for e in result.errors if e.code == object_review.REQUIRED)
        return found

    # -- judging one change --------------------------------------------------------------

    def change(
        self,
        tool: str,
        item: Pending,
        effect: str,
        witnesses: tuple[Witness, ...] = (),
        reason: str | None = None,
    ) -> Change:
        """A judged change as its flow says it (a result change names the place callers read)."""
        reads = read_place(self.old.schema, self.new.schema, item) if self.flow is RESULTS else ""
        return Change(
            tool,
            pointers.pointer(item.parts),
            item.text,
            effect,
            witnesses,
            reason_for(self.flow, reason),
            self.flow,
            reads,
        )

    def judge(self, tool: str, item: Pending) -> Change:
        if item.annotation:
            return self.change(tool, item, item.settled or "annotation")
        undone = copy.deepcopy(self.new.schema)
        try:
            assert item.undo is not None
            item.undo(undone)
        except Exception:  # noqa: BLE001 - the change cannot be isolated: claim nothing
            return self.change(
                tool, item, "undetermined", reason="the change cannot be undone on its own"
            )
        clean: dict[
            str, Any
        ] = {}  # direction (NARROWS, WIDENS) -> arguments this change alone explains
        loose: dict[str, Any] = {}  # direction -> arguments it only contributes to
        budget = _MAX_REFERENCE_CHECKS
        for arguments in sorted(unique(self.candidates(item)), key=size):
            status = self.verdict(arguments)
            if status not in (("accept", "reject"), ("reject", "accept")):
                continue
            direction = NARROWS if status[0] == "accept" else WIDENS
            if direction in clean:
                continue
            budget -= 1
            if budget < 0:
                self.checks_cut = True
                break
            found = self.witness(arguments, undone, direction)
            if found is None:
                continue
            if found:
                clean[direction] = arguments
                if len(clean) == 2:
                    break
            else:
                loose.setdefault(direction, arguments)
        best: dict[str, Witness] = {}
        for direction in (NARROWS, WIDENS):
            if direction in clean or direction in loose:
                is_clean = direction in clean
                arguments = self.minimize(
                    clean[direction] if is_clean else loose[direction], undone, direction, is_clean
                )
                best[direction] = self.as_witness(arguments, undone, direction)
        return self.attribute(tool, item, undone, best)

    def attribute(self, tool: str, item: Pending, undone: Any, best: dict[str, Witness]) -> Change:
        """The effect from the witnesses found and the directions an exhaustive search rules out.

        A witness proves its direction; a direction without one is ruled out only by
        :meth:`decide` (the changed node alone) read through the node's polarity. Neither
        direction possible is "equivalent"; otherwise a missing direction stays open, with the
        reason no search could close it.
        """
        decision = self.decide(item, undone)
        polarity = polarity_of(self.new.schema, item.node)
        ruled_out = decision.ruled_out(polarity)
        if (
            polarity is None
            and False in (decision.narrows, decision.widens)
            and not decision.reason
        ):
            decision = replace(
                decision, reason=REASON_PLACE
            )  # the node's direction is known, the callers' is not
        witnesses = tuple(best[d] for d in self.flow.order if d in best)
        contradicted = [d for d in best if d in ruled_out]
        if contradicted:  # a checked witness beats the search: say so, claim what the witness shows
            self.report.notes.append(
                f"{tool} {pointers.pointer(item.parts)}: a {self.flow.effect(contradicted[0])} "
                "witness was found that the exhaustive search ruled out; this is a toolshape bug"
            )
            ruled_out = set()
        if len(best) == 2:
            return self.change(tool, item, "both", witnesses)
        if best:
            direction = next(iter(best))
            other = WIDENS if direction == NARROWS else NARROWS
            reason = (
                None
                if other in ruled_out
                else f"whether it is also {self.flow.effect(other)}: {self.why(decision)}"
            )
            return self.change(tool, item, self.flow.effect(direction), witnesses, reason)
        if ruled_out == {NARROWS, WIDENS}:
            return self.change(tool, item, "equivalent")
        reason = self.why(decision)
        if reason == REASON_SAMPLED and (decision.narrows or decision.widens):
            reason = REASON_MASKED  # the exhaustive search found a difference at the node itself
        return self.change(tool, item, "undetermined", reason=reason)

    def why(self, decision: Decision) -> str:
        """Why a direction stays open: the search that was cut, else what kind of search this change has."""
        if decision.reason in (REASON_BUDGET, REASON_PATTERN):
            return decision.reason
        if self.budget.exhausted or self.checks_cut:
            return REASON_BUDGET
        return decision.reason or REASON_SAMPLED

    # -- deciding one change exhaustively ------------------------------------------------

    def decide(self, item: Pending, undone: Any) -> Decision:
        """What the changed schema node alone can do: the node with the change undone (as in
        ``undone``) against the new node; only one keyword differs between them. Exhaustive
        procedures exist for ``pattern`` (regex difference), numeric and length bounds (intervals),
        ``type``, ``enum`` and ``required`` (sets); anything else is left open with its reason."""
        combinator = any(part in COMBINATORS for part in item.parts if isinstance(part, str))
        open_reason = REASON_COMBINATOR if combinator else REASON_SAMPLED
        if (
            len(item.parts) >= 2
            and item.parts[-2] in combinator_review.ENTRY_LISTS
            and item.node == item.parts[:-2]
        ):
            return self.decide_entry(item, undone)
        if item.parts[:-1] != item.node or not item.parts:
            return Decision(None, None, open_reason)  # a whole subschema or list entry
        keyword = item.parts[-1]
        before, after = maybe(undone, item.node), maybe(self.new.schema, item.node)
        if not (isinstance(before, dict) and isinstance(after, dict)):
            return Decision(None, None, open_reason)
        if keyword == string_review.PATTERN:
            return self.decide_pattern(before, after)
        if keyword == format_review.FORMAT:
            return keyword_added_or_removed(keyword, before, after, REASON_FORMAT)
        decided = decide_structurally(keyword, before, after)
        if keyword in BOUND_FAMILY and not (
            decided and decided.narrows is False and decided.widens is False
        ):
            # Bounds rewritten together (minimum: 1 -> exclusiveMinimum: 0 on an integer): each
            # change undone alone differs, but the old node and the new one admit the same values.
            whole = self.decide_bounds_together(item.node, keyword)
            if whole is not None:
                return whole
        return decided if decided is not None else Decision(None, None, open_reason)

    def decide_entry(self, item: Pending, undone: Any) -> Decision:
        """An ``allOf`` entry added only refuses more, an ``anyOf`` entry added only accepts more
        (and the reverse for one removed); what the entry itself admits is sampled, not decided."""
        before, after = (
            maybe(undone, item.parts[:-1]),
            maybe(self.new.schema, item.parts[:-1]),
        )
        change = None
        if isinstance(before, list) and isinstance(after, list):
            change = combinator_review.entry_change(str(item.parts[-2]), before, after)
        if change is None:
            return Decision(None, None, REASON_COMBINATOR)
        return Decision(*change, REASON_COMBINATOR)

    def decide_bounds_together(self, node: Parts, keyword: str) -> Decision | None:
        """Equivalence of the old and the new node when all that differs between them is bounds of
        ``keyword``'s family (and annotations); None when that is not so or they differ."""
        old_node, new_node = maybe(self.old.schema, node), maybe(self.new.schema, node)
        if not (isinstance(old_node, dict) and isinstance(new_node, dict)):
            return None
        family = BOUND_FAMILY[keyword]
        keys = set(old_node) | set(new_node)
        differing = {
            k
            for k in keys
            if k not in old_node or k not in new_node or dump(old_node[k]) != dump(new_node[k])
        }
        if not differing <= family | ANNOTATION_KEYWORDS:
            return None
        decided = decide_structurally(keyword, old_node, new_node)
        return (
            decided
            if decided is not None and decided.narrows is False and decided.widens is False
            else None
        )

    def decide_pattern(self, before: dict[str, Any], after: dict[str, Any]) -> Decision:
        """The regex difference both ways (the strings family's), within the node's own
        length bounds; exact when the search is complete."""
        if not may_be(before, "string"):
            return Decision(False, False)
        return Decision(*string_review.pattern_difference(before, after, self.budget))

    def minimize(self, arguments: Any, undone: Any, direction: str, clean: bool) -> Any:
        """Drop keys and array items from a witness while it stays one (and stays clean)."""
        current = arguments
        for _ in range(200):
            for trial in itertools.chain(reductions(current), simplified(current, self.bases[:1])):
                if self.verdict(trial) != self.verdict(current):
                    continue
                found = self.witness(trial, undone, direction)
                if found is None or (clean and not found):
                    continue
                current = trial
                break
            else:
                break
        return current

    def as_witness(self, arguments: Any, undone: Any, direction: str) -> Witness:
        old_result, new_result = self.results(arguments)
        old_errors = {(e.path, e.code) for e in old_result.errors}
        new_errors = {(e.path, e.code) for e in new_result.errors}
        without = reference.evaluate(undone, arguments)
        cause = new_errors - without if direction == NARROWS else without & old_errors or without
        return Witness(
            copy.deepcopy(arguments),
            old_result.status,
            new_result.status,
            tuple(sorted(old_errors)),
            tuple(sorted(new_errors)),
            tuple(sorted(cause)),
            self.flow,
        )

    def witness(self, arguments: Any, undone: Any, direction: str) -> bool | None:
        """Whether ``arguments`` witness the change: None when not (the reference disagrees with a
        generated validator, or the change is not why the verdicts differ); True when the change
        alone explains the difference (undoing it gives the old verdict and errors); False when it
        only contributes (other changes play a part too).
        """
        old_result, new_result = self.results(arguments)
        old_errors = {(e.path, e.code) for e in old_result.errors}
        new_errors = {(e.path, e.code) for e in new_result.errors}
        try:
            old_ref, new_ref = self.references(arguments)
            without = reference.evaluate(undone, arguments)
        except Exception:  # noqa: BLE001 - the reference cannot judge it: not a witness
            return None
        if old_ref != old_errors or new_ref != new_errors:
            note = (
                f"generated validator and reference evaluator disagree on {shown_arguments(arguments)}: "
                f"old {sorted(old_errors)} vs {sorted(old_ref)}, new {sorted(new_errors)} vs {sorted(new_ref)}"
            )
            if note not in self.report.notes:
                self.report.notes.append(note)
            return None
        if direction == NARROWS and not (new_ref - without):
            return None  # refused now, but not because of this change
        if direction == WIDENS and not without:
            return None  # accepted now, but not because of this change
        return without == old_ref

    # -- candidates ------------------------------------------------------------------

    def candidates(self, item: Pending) -> Iterator[Any]:
        """Crafted arguments for this change first, then every corpus instance."""
        old_node = maybe(self.old.schema, item.node)
        new_node = maybe(self.new.schema, item.node)
        nodes = [old_node, new_node]
        places = set(instance_paths(self.old.schema, item.node)) | set(
            instance_paths(self.new.schema, item.node)
        )

        items_of_nodes = array_review.item_schemas(nodes)
        item_schemas = items_of_nodes + array_review.contains_schemas(nodes)
        between = self.between(old_node, new_node, item)
        for place in sorted(places, key=len):
            if place:
                for base in self.bases:
                    yield from with_values(base, place, between)
            else:
                yield from (value for value in between if isinstance(value, dict))
            if item.key is not None:
                subs = [_named_schema(n, item.key) for n in nodes]
                values = crafted_values(
                    [s for s in subs if s is not None], self.known(place + (item.key,), subs)
                )
                for base in self.bases:
                    yield from with_values(base, place + (item.key,), values, delete=True)
            if item.extra:
                subs = [_other_keys_schema(n) for n in nodes]
                values = crafted_values(subs, self.known(place + (EXTRA,), subs))
                for base in self.bases:
                    yield from with_values(base, place + (EXTRA,), values)
            if item.items:
                values = crafted_values(item_schemas, self.known(place + (ITEM,), items_of_nodes))
                for base in self.bases:
                    yield from with_values(base, place + (ITEM,), values)
            if place:
                members = list(item.member) if value_review.changed_enum(item.parts) else []
                known = self.known(place, nodes)
                items_known = self.known(place + (ITEM,), items_of_nodes)
                if item.items and items_known:  # more distinct items, for arrays at a count bound
                    more = [
                        m
                        for v in items_known[:2]
                        if isinstance(v, str)
                        for m in string_review.near_misses(v)
                    ]
                    items_known = sorted(
                        unique(items_known + more),
                        key=lambda v: not self.passes(items_of_nodes, v),
                    )
                values = members + crafted_values(
                    [n for n in nodes if n is not None], known, item=item, items=items_known
                )
                for base in self.bases:
                    yield from with_values(base, place, values)
            else:  # the arguments object itself: drop keys, add keys
                for base in self.bases:
                    yield from shrunk(base)
                    yield from grown(base, old_node, new_node)
        yield from self.corpus

    def between(self, old_node: Any, new_node: Any, item: Pending) -> list[Any]:
        """Values (from the witness engine) the old node accepts and the new one refuses, and the
        reverse: a changed pattern gets strings of each language outside the other."""
        keyword = item.parts[-1] if item.parts else None
        found: list[Any] = list(
            string_review.strings_apart(keyword, old_node, new_node, self.budget)
        )
        for engine, mine, theirs in (
            (self.old_engine, old_node, new_node),
            (self.new_engine, new_node, old_node),
        ):
            if mine is None or mine is False:
                continue
            schemas = [mine] if theirs is None else [mine, negation(theirs)]
            found.extend(engine.conjunction(schemas, 3))
        return unique(found)

    def known(self, place: Place, schemas: Sequence[Any] = ()) -> list[Any]:
        """Values found at an instance place in the corpus (both sides' examples and cases),
        those that pass one of ``schemas`` (on either side) first."""
        found: list[Any] = []
        for instance in self.corpus:
            found.extend(values_at(instance, place))
        found = unique(found)[:MAX_VALUES]
        return sorted(found, key=lambda value: not self.passes(schemas, value))

    def passes(self, schemas: Sequence[Any], value: Any) -> bool:
        """Whether ``value`` passes one of ``schemas`` ($ref resolved against either side)."""
        for schema in schemas:
            if schema is None:
                continue
            for root in (self.old.schema, self.new.schema):
                try:
                    if not reference.errors_of(schema, value, "", root=root):
                        return True
                except Exception:  # noqa: BLE001 - a $ref into the other side: try the next root
                    continue
        return False


def _without(arguments: Any, paths: Sequence[Parts]) -> Any:
    """A copy of ``arguments`` without the keys at ``paths`` (None when none of them is there)."""
    trial = copy.deepcopy(arguments)
    dropped = False
    for path in paths:
        try:
            parent = node_at(trial, path[:-1])
            del parent[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
        dropped = True
    return trial if dropped else None


def _named_schema(node: Any, key: str) -> Any:
    """The schema ``node`` names for the value under ``key``; None when it names none."""
    found = children.named(node).get(key)
    return None if found is None else found[0]


def _other_keys_schema(node: Any) -> Any:
    """The schema of the values under the keys ``node`` does not name (none: ``true``)."""
    others = children.reaching(node, "other keys")
    return others[0][0] if others else True
