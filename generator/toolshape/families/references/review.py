"""How ``toolshape diff`` reads a change behind a reference (review stage).

A change inside ``$defs`` changes what every ``$ref`` to that definition applies, and
nothing when no ``$ref`` reaches it: review/walk.py marks a definition added or removed that
no side refers to as having no validation effect (:func:`referenced`), review/samples.py
finds the instance places of a changed definition through the references to it
(:func:`definition_ref`), and review/decisions.py reads a change's polarity through the
references of the whole schema (:func:`refs_in`: one that is not local rules a decision out).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ...review.text import dump
from ...schema import pointers
from .targets import DEFS, REF


def definition_ref(name: str | int) -> str:
    """The ``$ref`` that names the definition ``name`` (``#/$defs/name``, escaped)."""
    return f"#/{DEFS}/" + pointers.escape(name)


def referenced(root: Any, name: str) -> bool:
    """Whether some ``$ref`` under ``root`` names the definition ``name`` (as written, or with
    its ``%`` encoded)."""
    target = definition_ref(name)
    text = dump(root)
    return json.dumps(target) in text or json.dumps(target.replace("%", "%25")) in text


def refs_in(node: Any) -> Iterator[str]:
    """Every ``$ref`` written anywhere under ``node``, in document order."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == REF and isinstance(value, str):
                yield value
            else:
                yield from refs_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from refs_in(value)
