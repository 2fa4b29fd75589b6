"""How ``toolshape diff`` decides and samples a change of the object keywords (review stage).

A change of ``required`` is decided exactly by set inclusion (:func:`required_change`: a key
newly required refuses objects without it; one no longer required admits them). A changed
``dependentRequired`` or ``additionalProperties`` is decided only when the keyword comes or
goes (``ADDED_OR_REMOVED``); ``minProperties``/``maxProperties`` share the count ranges of
``review/decisions.py``; anything else is left to the witness search, which
``review/search.py`` feeds with :func:`grown` (objects given one more key).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...review.samples import crafted_values
from ...review.text import list_of

#: The family's keywords whose change is decided only when the keyword comes or goes:
#: adding one cannot widen, removing one cannot narrow.
ADDED_OR_REMOVED = ("dependentRequired", "additionalProperties")
#: The keyword whose change is decided by set inclusion.
REQUIRED = "required"


def required_change(before: dict[str, Any], after: dict[str, Any]) -> tuple[bool, bool]:
    """Whether a change of ``required`` may narrow (a key newly required) and may widen (a key
    no longer required) what the node accepts."""
    old_keys = set(map(str, list_of(before.get(REQUIRED, []))))
    new_keys = set(map(str, list_of(after.get(REQUIRED, []))))
    return not new_keys <= old_keys, not old_keys <= new_keys


def grown(base: dict[str, Any], old_node: Any, new_node: Any) -> Iterator[Any]:
    """``base`` with one more key: each property either side declares (with values crafted
    for its schema), then one to three extra keys."""
    for node in (old_node, new_node):
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                if key not in base:
                    for value in crafted_values([sub], [])[:8]:
                        yield {**base, key: value}
    for count in range(1, 4):
        yield {**base, **{f"extra_{i}": 1 for i in range(count)}}
