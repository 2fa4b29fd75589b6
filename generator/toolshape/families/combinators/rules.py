"""What the contract check knows of the combinators (contract stage): which of their
subschemas are applied to one value, and which never run together.

``contract/unfolding.py`` counts the applications a schema makes on one value (a cycle that
never descends, a fan-out past its bound) over the graph of the keywords that apply
subschemas to the same value; that graph comes from the vocabulary. Two facts about these
keywords' meaning are the family's:

- an ``allOf`` is idempotent: an entry that is the same schema as an earlier one finds the
  same errors, so the generated code applies it once (:func:`applied_entries`; the model's
  ``allOf`` check in ``checks.py`` skips the same entries);
- the ``then`` and the ``else`` of one ``if`` never both run on a value
  (:func:`other_branch`), so a schema under both is not applied twice.
"""

from __future__ import annotations

import json
from typing import Any

#: The two branches of an ``if``: one of them runs on a value, never both.
BRANCHES = ("then", "else")

#: OpenAPI's keyword naming the key that tells a union's alternatives apart (pydantic writes
#: it beside a oneOf of models); JSON Schema says the same with a constant in each one.
DISCRIMINATOR = "discriminator"


def discriminator_hint(schema: dict[str, Any]) -> str:
    """The hint for an unknown ``discriminator``: the constants that do its work in JSON
    Schema, which toolshape reads to tell the alternatives apart (``checks.union_tag``)."""
    named = schema.get(DISCRIMINATOR)
    name = named.get("propertyName") if isinstance(named, dict) else None
    key = json.dumps(name, ensure_ascii=False) if isinstance(name, str) else "the key"
    return (
        f" (OpenAPI's); JSON Schema tells the alternatives apart by {key} fixed to a constant"
        " of its own in each one (const, or an enum of one), and toolshape names each"
        f" alternative by it in its messages: keep those and remove '{DISCRIMINATOR}'"
    )


#: The combinator whose entries all apply to the value.
ALL_OF = "allOf"


def conjuncts(schema: dict[str, Any]) -> list[Any]:
    """The entries of ``schema``'s ``allOf`` (none when it has none, or not a list)."""
    entries = schema.get(ALL_OF)
    return entries if isinstance(entries, list) else []


def distinct_entries(entries: list[Any]) -> list[int]:
    """The indexes of the entries of an ``allOf`` that are not the same schema as an earlier one.

    allOf is idempotent: a schema applied twice to one value finds the same errors twice.
    Equality is that of the JSON text with sorted keys, so ``true`` and ``1`` stay apart."""
    seen: set[str] = set()
    keep: list[int] = []
    for i, entry in enumerate(entries):
        try:
            key = json.dumps(entry, sort_keys=True, allow_nan=True)
        except (TypeError, ValueError):
            keep.append(i)
            continue
        if key not in seen:
            seen.add(key)
            keep.append(i)
    return keep


def applied_entries(keyword: str, entries: list[Any]) -> set[int]:
    """The indexes of the entries of the list ``keyword`` holds that are applied to a value:
    an ``allOf``'s distinct ones, every branch of the others."""
    return set(distinct_entries(entries)) if keyword == ALL_OF else set(range(len(entries)))


def other_branch(side: str) -> str:
    """The branch of an ``if`` that never runs with ``side`` (one of :data:`BRANCHES`)."""
    return BRANCHES[1 - BRANCHES.index(side)]
