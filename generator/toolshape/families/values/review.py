"""How ``toolshape diff`` decides and samples a change of ``type``, ``enum`` and ``const``
(review stage).

A changed ``type`` or ``enum`` is decided exactly, by set inclusion: ``review/decisions.py``
asks :func:`decides` whether the family has an exact procedure for the change and takes
:func:`change` if so (``integer`` is within ``number``; enum members compared as JSON
values). A ``const`` is decided exactly only when it stays the same value (1 -> 1.0); an
``enum`` or ``const`` that comes or goes is decided as any refusing keyword is
(``ADDED_OR_REMOVED``); the rest is left to the witness search, which ``review/samples.py``
feeds with every member and const (``values.listed_values``). :func:`may_be` says whether a
node's ``type`` admits a kind of value, for the decisions of the other families' keywords.
"""

from __future__ import annotations

from typing import Any

from ...review.text import list_of
from ...schema import vocabulary
from ...schema.values import json_equal, json_key
from .rules import CONST, ENUM, MEMBERS, TYPE

#: The keywords of the family whose change is otherwise decided only when they come or go:
#: adding one cannot widen, removing one cannot narrow.
ADDED_OR_REMOVED = MEMBERS
#: The keywords whose members are values, not schemas (no walk steps into them).
VALUE_LISTS = MEMBERS
#: Widens, narrows: whether the change lets through something it refused, and the opposite.
Change = tuple[bool, bool]


def admitted_types(node: dict[str, Any]) -> set[str] | None:
    """The JSON types a node admits ("number" as "integer" plus non-integers), None for a bad
    ``type``."""
    declared = node.get(TYPE, list(vocabulary.JSON_TYPES))
    names = list_of(declared)
    if not all(isinstance(n, str) and n in vocabulary.JSON_TYPES for n in names):
        return None
    found = set(names)
    if "number" in found:
        found |= {"integer", "fraction"}
    found.discard("number")
    return found


def may_be(node: dict[str, Any], kind: str) -> bool:
    """Whether a node's ``type`` admits values of ``kind`` (unknown: True)."""
    types = admitted_types(node)
    return types is None or kind in types


def decides(keyword: Any, before: dict[str, Any], after: dict[str, Any]) -> bool:
    """Whether the family decides a change of ``keyword`` itself (:func:`change`)."""
    if keyword == TYPE:
        return True
    if keyword == ENUM:
        return isinstance(before.get(ENUM), list) and isinstance(after.get(ENUM), list)
    return keyword == CONST and CONST in before and CONST in after


def change(keyword: Any, before: dict[str, Any], after: dict[str, Any]) -> Change | None:
    """A change :func:`decides` takes, decided (None: no exact procedure, sampled)."""
    if keyword == TYPE:
        old_types, new_types = admitted_types(before), admitted_types(after)
        if old_types is None or new_types is None:
            return None
        return not old_types <= new_types, not new_types <= old_types
    if keyword == ENUM:
        old_enum, new_enum = before[ENUM], after[ENUM]
        return not _members_in(old_enum, new_enum), not _members_in(new_enum, old_enum)
    if json_equal(before[CONST], after[CONST]):
        return False, False  # 1 -> 1.0
    return None


def _members_in(members: list[Any], others: list[Any]) -> bool:
    keys = {json_key(m) for m in others}
    return all(json_key(m) in keys for m in members)


def changed_type(parts: tuple[Any, ...]) -> bool:
    """Whether a change's place (its schema path parts) is a member of ``type``."""
    return parts[-1:] == (TYPE,)


def changed_enum(parts: tuple[Any, ...]) -> bool:
    """Whether a change's place (its schema path parts) is a member of ``enum``."""
    return parts[-1:] == (ENUM,)
