"""What the witness engine asks of ``unevaluatedProperties`` and ``unevaluatedItems`` (witness
stage): the schemas a key or an item that nothing else evaluates must pass.

The objects and arrays families build a value key by key (item by item) for one alternative
(``flat``: every schema that must hold). A key no ``properties``, pattern or
``additionalProperties`` of the alternative evaluates, an item past every ``prefixItems``
position that no ``items`` evaluates, is given a value that also passes the alternative's
unevaluated* schemas: a narrowing (a passing branch may have evaluated it after all), so the
value built is accepted whatever the branches evaluate. The caller confirms every value by
the reference evaluator, as always.
"""

from __future__ import annotations

from typing import Any

from ...schema import vocabulary

_PROPERTIES, _ITEMS = (
    next(
        k.name for k in vocabulary.KEYWORDS if k.implemented and k.dynamic and k.applies_to == kind
    )
    for kind in ("object", "array")
)


def rest_of_keys(flat: list[dict[str, Any]]) -> list[Any]:
    """The unevaluatedProperties schemas of ``flat``: what a key nothing else evaluates passes."""
    return [s[_PROPERTIES] for s in flat if _PROPERTIES in s]


def rest_of_items(flat: list[dict[str, Any]]) -> list[Any]:
    """The unevaluatedItems schemas of ``flat``: what an item nothing else evaluates passes."""
    return [s[_ITEMS] for s in flat if _ITEMS in s]
