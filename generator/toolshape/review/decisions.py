"""Exhaustive decisions for one changed schema node: interval arithmetic for bounds, set
inclusion for ``type``, ``enum`` and ``required``, and the node's polarity, which say that a
direction is ruled out (or that the change is equivalent)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..families.arrays import review as array_review
from ..families.combinators import review as combinator_review
from ..families.numbers import review as number_review
from ..families.objects import review as object_review
from ..families.references import review as reference_review
from ..families.values import review as value_review
from ..families.values.review import may_be
from ..schema import vocabulary
from .report import NARROWS, REASON_COMBINATOR, REASON_SAMPLED, WIDENS
from .samples import is_count, maybe
from .text import dump
from .walk import Parts

#: Keywords whose subschemas make a change a combinator change.
COMBINATORS = frozenset(
    vocabulary.holders("list", "same value") + vocabulary.holders("one", "same value")
)
#: The numeric bounds: decided by the ranges their family computes.
_NUMBER_BOUNDS = number_review.BOUNDS
#: The count bounds (of a length, of items, of keys): (lower keyword, upper keyword, the JSON
#: type they apply to); the bounds of what another keyword matches are decided with it.
_COUNT_BOUNDS = tuple(
    (low, high, kind)
    for low, high, kind in vocabulary.ranges()
    if vocabulary.keyword(low).value == "count" and not vocabulary.keyword(low).needs
)
#: Each bound keyword's family: the keywords that together make one range.
BOUND_FAMILY: dict[str, frozenset[str]] = {k: frozenset(_NUMBER_BOUNDS) for k in _NUMBER_BOUNDS}
BOUND_FAMILY.update(
    {k: frozenset((low, high)) for low, high, _ in _COUNT_BOUNDS for k in (low, high)}
)


@dataclass(frozen=True)
class Decision:
    """What the changed node alone can do. ``narrows``: some value the node accepted before the
    change is refused after it; ``widens``: the reverse. False is exhaustively ruled out; True
    and None claim nothing (a node-level difference may still be masked elsewhere); ``reason``
    says why a None was left open."""

    narrows: bool | None
    widens: bool | None
    reason: str | None = None

    def ruled_out(self, polarity: int | None) -> set[str]:
        """The directions (NARROWS, WIDENS) of the whole schema's values this decision rules
        out, through the node's polarity."""
        if self.narrows is False and self.widens is False:
            return {NARROWS, WIDENS}  # the node accepts the same values wherever it is used
        if polarity is None:
            return set()
        found = set()
        if self.narrows is False:
            found.add(NARROWS if polarity > 0 else WIDENS)
        if self.widens is False:
            found.add(WIDENS if polarity > 0 else NARROWS)
        return found


#: Keywords whose outcome depends on what sibling subschemas evaluated: no polarity under them.
_SIBLING_KEYWORDS = vocabulary.names(lambda k: k.dynamic)
#: Keywords whose subschemas keep the direction of a change below them: those applying to
#: children, and a map's entries applying to the same value when the object has their key
#: (each accepting more lets the whole accept more). How many steps each takes: 1 for one
#: schema, 2 for an entry of a list or map.
_KEEPING = {
    k.name: 1 if k.shape == "one" else 2
    for k in vocabulary.KEYWORDS
    if k.implemented and not k.dynamic and (k.applies == "children" or k.collects == "key present")
}


def _caps(name: str) -> tuple[str, ...]:
    """The keywords bounding from above how many children ``name`` matches."""
    return vocabulary.names(lambda k: k.needs == name and k.bound == "upper")


#: For a keyword of ``_KEEPING``: the keywords capping how many children it matches (with
#: one, more matching children can make the value fail: no direction is known below it).
_CAPPED_BY = {name: _caps(name) for name in _KEEPING}


def polarity_of(root: Any, node: Parts) -> int | None:
    """+1 when the arguments the whole schema accepts grow with those the node at ``node``
    accepts, -1 when they shrink (under an odd number of ``not``), None when neither is known
    (under ``oneOf``, ``if``, ``contains`` with ``maxContains``, a ``$ref`` target, or anywhere
    in a schema using ``unevaluated*`` or ``$dynamicRef``, whose outcome depends on siblings)."""
    text = dump(root)
    if any(json.dumps(k) in text for k in _SIBLING_KEYWORDS):
        return None
    for ref in reference_review.refs_in(root):
        if not ref.startswith("#"):
            return None
        target = (
            tuple(p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/")[1:])
            if ref != "#"
            else ()
        )
        if tuple(str(p) for p in node[: len(target)]) == target:
            return None
    sign, i = 1, 0
    while i < len(node):
        step = node[i]
        through = combinator_review.polarity_step(step)
        if through is not None:  # allOf, anyOf, then, else keep the sign; not flips it
            size, flip = through
            sign, i = sign * flip, i + size
        elif step in _KEEPING:
            here = maybe(root, node[:i]) or {}
            if any(cap in here for cap in _CAPPED_BY[step]):
                return None  # more matching items can fail maxContains
            i += _KEEPING[step]
        else:
            return None  # oneOf, if, $defs, contains with maxContains, anything unknown
    return sign


def keyword_added_or_removed(
    keyword: str, before: dict[str, Any], after: dict[str, Any], reason: str
) -> Decision:
    """An assertion keyword that only refuses: adding it cannot widen, removing it cannot narrow."""
    if keyword not in before and keyword in after:
        return Decision(None, False, reason)
    if keyword in before and keyword not in after:
        return Decision(False, None, reason)
    return Decision(None, None, reason)


def decide_structurally(
    keyword: Any, before: dict[str, Any], after: dict[str, Any]
) -> Decision | None:
    """Bounds by intervals, ``type``/``enum``/``required`` by set inclusion; None: no exact procedure."""
    if keyword in _NUMBER_BOUNDS:
        if not may_be(before, "integer"):
            return Decision(False, False)
        integers = not may_be(before, "fraction")
        old_range, new_range = (
            number_review.number_range(before, integers),
            number_review.number_range(after, integers),
        )
        if old_range is None or new_range is None:
            return None
        return Decision(not _within(old_range, new_range), not _within(new_range, old_range))
    for low_key, high_key, kind in _COUNT_BOUNDS:
        if keyword in (low_key, high_key):
            if not may_be(before, kind):
                return Decision(False, False)
            old_count, new_count = (
                _count_range(before, low_key, high_key),
                _count_range(after, low_key, high_key),
            )
            if old_count is None or new_count is None:
                return None
            return Decision(not _within(old_count, new_count), not _within(new_count, old_count))
    if value_review.decides(keyword, before, after):
        found = value_review.change(keyword, before, after)
        return None if found is None else Decision(*found)
    if keyword == object_review.REQUIRED:
        return Decision(*object_review.required_change(before, after))
    if keyword in (
        *value_review.ADDED_OR_REMOVED,
        *number_review.ADDED_OR_REMOVED,
        *array_review.ADDED_OR_REMOVED,
        *object_review.ADDED_OR_REMOVED,
        *combinator_review.ADDED_OR_REMOVED,
    ):
        combinator = keyword in combinator_review.ADDED_OR_REMOVED
        reason = REASON_COMBINATOR if combinator else REASON_SAMPLED
        return keyword_added_or_removed(keyword, before, after, reason)
    return None


def _count_range(node: dict[str, Any], low_key: str, high_key: str) -> number_review.Range | None:
    low, high = node.get(low_key, 0), node.get(high_key)
    if not is_count(low) or (high is not None and not is_count(high)):
        return None
    return (Fraction(low), False, None if high is None else Fraction(high), False)


def _empty(span: number_review.Range) -> bool:
    low, low_open, high, high_open = span
    return (
        low is not None
        and high is not None
        and (low > high or (low == high and (low_open or high_open)))
    )


def _within(inner: number_review.Range, outer: number_review.Range) -> bool:
    """Whether every value of ``inner`` lies in ``outer`` (integer ranges are closed and exact)."""
    if _empty(inner):
        return True
    low, low_open, high, high_open = inner
    o_low, o_low_open, o_high, o_high_open = outer
    low_ok = o_low is None or (
        low is not None and (low > o_low or (low == o_low and (low_open or not o_low_open)))
    )
    high_ok = o_high is None or (
        high is not None and (high < o_high or (high == o_high and (high_open or not o_high_open)))
    )
    return low_ok and high_ok
