"""How ``toolshape diff`` decides a change under the combinators (review stage).

A combinator's subschemas are searched with sampled candidates, not decided, with two
exceptions the family knows of their meaning:

- the direction a change can take through them (:func:`polarity_step`): under an ``allOf`` or
  ``anyOf`` entry, a ``then`` or an ``else``, a change that makes the subschema refuse more
  makes the whole refuse more (or nothing); under a ``not`` it is the reverse; under a
  ``oneOf`` or an ``if`` no direction is known. ``review/decisions.py``'s ``polarity_of``
  walks a change's path with it;
- an entry added to or removed from an ``allOf`` or ``anyOf`` (:func:`entry_change`): an
  ``allOf`` entry added, or an ``anyOf`` entry removed, only refuses more; the reverse only
  accepts more. And a ``not`` that comes or goes is decided as any refusing keyword is
  (``ADDED_OR_REMOVED``).
"""

from __future__ import annotations

from typing import Any

#: The family's keywords whose change is otherwise decided only when they come or go: adding
#: one cannot widen, removing one cannot narrow.
ADDED_OR_REMOVED = ("not",)
#: The lists whose entries' coming and going :func:`entry_change` decides.
ENTRY_LISTS = ("allOf", "anyOf")
#: Narrows, widens: False when the change is known not to (None: not known).
Change = tuple[bool | None, bool | None]


def polarity_step(step: Any) -> tuple[int, int] | None:
    """For a step of a change's path through a combinator: how many steps it takes (2 for a
    list's entry) and the sign it multiplies the change's direction by (-1 under ``not``);
    None when no direction is known through it (``oneOf``, ``if``) or ``step`` is none of the
    family's keywords."""
    if step in ENTRY_LISTS:
        return 2, 1
    if step in ("then", "else"):
        return 1, 1
    if step == "not":
        return 1, -1
    return None


def entry_change(keyword: str, before: list[Any], after: list[Any]) -> Change | None:
    """An entry added to or removed from ``keyword``'s list (one of :data:`ENTRY_LISTS`), as
    (narrows, widens); None when the lists differ by more than one entry."""
    if abs(len(after) - len(before)) != 1:
        return None
    added = len(after) > len(before)
    if (keyword == "allOf") == added:
        return None, False  # allOf entry added, anyOf entry removed
    return False, None
