"""The values ``enum`` and ``const`` name, and the derived cases at and beside them (witness
stage).

An ``enum`` or ``const`` fixes the value: the witness engine (``witness/values.py``) tries
``rules.fixed_values`` instead of searching a kind (``rules.is_fixed``); the derived cases
(``codegen/cases.py``) try each member (the first and last ``ENUM_CASES // 2`` of a long
enum), a string member in the wrong case, a value that is no member, the const and a value
beside it (:func:`string_member_variants`, :func:`member_variants`); and
:func:`listed_values` are every value a schema lists, for the cases' integral floats and
the review's samples. They need nothing of codegen/, so they stay at the witness rank.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from .oracle import listed_values as listed_values  # (the redaction oracle's too)
from .rules import CONST, ENUM, MEMBERS, TYPE

#: Enum members each given a case of their own, at most: the first and last halves of this many
#: (the validator checks every member alike, by one look-up; 100,000 members would otherwise
#: make 100,000 cases, and a test file to match).
ENUM_CASES = 32

#: The keywords that look at a value whole (a changed key or item can change their verdict):
#: below them, a derived case is evaluated whole.
NON_LOCAL = MEMBERS

#: One derived case: what it tries, and the value.
Variant = tuple[str, Any]


def string_member_variants(schema: dict[str, Any]) -> Iterator[Variant]:
    """The derived cases of an enum, for a string value: each tested member, the first
    string member not in upper case in upper case, and a string that is no member."""
    if ENUM not in schema:
        return
    for member in tested_members(schema[ENUM]):
        yield f"enum member {json.dumps(member, ensure_ascii=False)}", member
    for member in schema[ENUM]:
        if isinstance(member, str) and member.upper() != member:
            yield "enum member in the wrong case", member.upper()
            break
    yield "not an enum member", "not-a-member"


def member_variants(schema: dict[str, Any], value: Any) -> Iterator[Variant]:
    """The derived cases of a const (it, and a value beside it) and, for a value that is not
    a string, of an enum (each tested member, and a string that is no member)."""
    if CONST in schema:
        const = schema[CONST]
        yield "the const value", const
        yield "another value than const", other_than(const)
    if ENUM in schema and not isinstance(value, str):
        for member in tested_members(schema[ENUM]):
            yield f"enum member {json.dumps(member)}", member
        yield "not an enum member", "not-a-member"


def tested_members(enum: list[Any]) -> list[Any]:
    """The members that get a case of their own (a long enum: its first and last ones)."""
    if len(enum) <= ENUM_CASES:
        return enum
    return enum[: ENUM_CASES // 2] + enum[-(ENUM_CASES // 2) :]


def other_than(const: Any) -> Any:
    """A value beside ``const`` (None: none of its kind is made up)."""
    if isinstance(const, bool):
        return not const
    if isinstance(const, (int, float)):
        return const + 1
    if isinstance(const, str):
        return const + "x"
    if const is None:
        return 0
    return None


def declared(schema: Any) -> tuple[str, ...] | None:
    """The JSON types ``schema``'s ``type`` names, as written (None: no ``type``)."""
    if not isinstance(schema, dict) or TYPE not in schema:
        return None
    raw = schema[TYPE]
    return tuple(raw) if isinstance(raw, list) else (raw,)


def of_type(kind: str) -> dict[str, Any]:
    """The schema of the values of one JSON type."""
    return {TYPE: kind}
