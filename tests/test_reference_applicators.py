"""The reference evaluator skips its applicators where a schema holds none of their keywords
(issue 26): most schemas of a contract are leaves, and stepping into the combinators, the
reference and ``unevaluated*`` for each of them was a fifth of the evaluator's work. The skip
is sound only while ``APPLICATOR_KEYWORDS`` (computed from the vocabulary table) is exactly
the set of keys ``_applicators`` reads: shown here by recording every key it asks a schema
for, on a value of each JSON type.
"""

from __future__ import annotations

from typing import Any

import pytest
from toolshape.contract import reference
from toolshape.schema import vocabulary

#: A value of each JSON type: the applicators read some keywords of objects or arrays only.
_VALUES: tuple[Any, ...] = (None, True, 1, 1.5, "text", [1, "a"], {"a": 1})


class _Recording(dict[str, Any]):
    """A schema that notes every key it is asked for, however it is asked."""

    def __init__(self, schema: dict[str, Any], asked: set[str]) -> None:
        super().__init__(schema)
        self.asked = asked

    def __contains__(self, key: object) -> bool:
        self.asked.add(str(key))
        return super().__contains__(key)

    def __getitem__(self, key: str) -> Any:
        self.asked.add(key)
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        self.asked.add(key)
        return super().get(key, default)


def _asked_by_applicators(schema: dict[str, Any], value: Any) -> set[str]:
    asked: set[str] = set()
    recording = _Recording(schema, asked)
    reference._ROOT.append(recording)
    try:
        with reference.changing():
            reference._applicators(recording, value, "", set())
    finally:
        reference._ROOT.pop()
    return asked


def test_the_applicators_read_exactly_the_keywords_that_let_a_schema_skip_them() -> None:
    # {} asks for every keyword a schema might hold; ``then``/``else`` are read only once
    # ``if`` decided, so the schemas with an ``if`` that passes and one that fails add them.
    asked: set[str] = set()
    for schema in ({}, {"if": True}, {"if": False}):
        for value in _VALUES:
            asked |= _asked_by_applicators(schema, value)
    assert asked == reference.APPLICATOR_KEYWORDS


#: Schemas of leaves and of containers whose keywords are all their own family's.
_PLAIN: tuple[dict[str, Any], ...] = (
    {"type": "string", "maxLength": 3, "pattern": "^a"},
    {"type": "integer", "minimum": 0, "enum": [1, 2]},
    {"type": "array", "items": {"type": "integer"}, "minItems": 1},
    {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
    {"dependentSchemas": {"a": {"required": ["b"]}}, "additionalProperties": False},
)


def _stepped_into(schema: dict[str, Any], value: Any, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many times evaluating ``value`` against ``schema`` calls the applicators."""
    calls = [0]
    original = reference._applicators

    def counting(*arguments: Any) -> None:
        calls[0] += 1
        original(*arguments)

    monkeypatch.setattr(reference, "_applicators", counting)
    reference.errors_of(schema, value, "", root=schema)
    return calls[0]


@pytest.mark.parametrize("value", _VALUES, ids=lambda value: type(value).__name__)
def test_a_schema_holding_no_applicator_keyword_is_not_stepped_into(
    value: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    for schema in _PLAIN:
        assert _stepped_into(schema, value, monkeypatch) == 0, schema


@pytest.mark.parametrize("keyword", sorted(reference.APPLICATOR_KEYWORDS))
def test_a_schema_holding_any_applicator_keyword_is_stepped_into(
    keyword: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    row = vocabulary.keyword(keyword)
    schema: dict[str, Any] = {keyword: [True] if row.shape == "list" else True}
    if row.value == "reference":  # to a definition beside it: "#" would refer to itself
        schema = {keyword: "#/$defs/d", "$defs": {"d": True}}
    for value in _VALUES:
        assert _stepped_into(schema, value, monkeypatch) >= 1, (schema, value)
