"""The reference evaluation of the combinators: ``allOf``, ``anyOf``, ``oneOf``, ``not`` and
``if``/``then``/``else`` (contract stage).

Part of the oracle of the generated tests: ``contract/reference.py`` calls :func:`refused` on
every value it meets. Each subschema applies to the value itself: the ones that must hold go
to ``apply`` (their own errors are the value's), the ones that only decide (an ``anyOf`` or
``oneOf`` branch, ``not``, ``if``) go to ``matches``. Plain on purpose, and written apart
from the generated checks (``checks.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...schema.keywords import nullable_alternative

#: Evaluates the value against a subschema, adding what it refuses to the errors.
Apply = Callable[[Any], None]
#: Whether the value passes a subschema.
Matches = Callable[[Any], bool]


def refused(schema: dict[str, Any], value: Any, apply: Apply, matches: Matches) -> Iterator[str]:
    """The family's keywords of ``schema`` that refuse ``value``; each subschema that must hold
    goes to ``apply`` on the way."""
    for sub in schema.get("allOf", []):
        apply(sub)
    for keyword in ("anyOf", "oneOf"):
        if keyword not in schema:
            continue
        branches = schema[keyword]
        nullable = nullable_alternative(branches, exclusive=keyword == "oneOf")
        if nullable is not None:
            # "null, or X": a value other than null has X's own errors (README, "Semantics").
            if value is not None:
                apply(nullable[1])
            continue
        matched = sum(1 for sub in branches if matches(sub))
        if (keyword == "anyOf" and matched == 0) or (keyword == "oneOf" and matched != 1):
            yield keyword
    if "not" in schema and matches(schema["not"]):
        yield "not"
    if "if" in schema:
        if matches(schema["if"]):
            if "then" in schema:
                apply(schema["then"])
        elif "else" in schema:
            apply(schema["else"])
