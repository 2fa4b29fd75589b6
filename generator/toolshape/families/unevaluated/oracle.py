"""The reference evaluation of ``unevaluatedProperties`` and ``unevaluatedItems`` (contract
stage).

Part of the oracle of the generated tests: ``contract/reference.py`` calls :func:`refused`
on every object and array it meets. It computes, on the value itself, the keys (the item
indexes) the schema's other keywords and the subschemas applied to the same value evaluated
(2020-12 core, 11.2 and 11.3: only a subschema that passes counts), then applies the keyword's
schema to each key or item left. Plain on purpose, and written apart from the generated
checks: ``checks.py`` decides at generation time what ``evaluation.py`` reads of the schema;
this evaluates every subschema on the value.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...regex.matcher import search as pattern_search
from ...schema import vocabulary
from ...schema.pointers import escape
from ..references import targets
from .evaluation import EVALUATING

#: The evaluator's errors: (JSON Pointer, keyword) pairs.
Errors = set[tuple[str, str]]
#: How the evaluator applies a subschema to a value at a path, adding to the errors.
Apply = Callable[[Any, Any, str, Errors], None]
#: Whether a value passes a subschema.
Matches = Callable[[Any, Any], bool]

_PROPERTIES = next(n for n in vocabulary.names(lambda k: k.dynamic) if n.endswith("Properties"))
_ITEMS = next(n for n in vocabulary.names(lambda k: k.dynamic) if n.endswith("Items"))


def refused(
    schema: dict[str, Any],
    value: Any,
    path: str,
    errors: Errors,
    apply: Apply,
    matches: Matches,
    root: Any,
) -> None:
    """Add the errors of ``schema``'s unevaluated* on ``value`` (``root`` resolves $ref)."""
    if isinstance(value, dict) and _PROPERTIES in schema:
        done = _evaluated(root, schema, value, matches, _PROPERTIES, set())
        for key, item in value.items():
            if key in done:
                continue
            if schema[_PROPERTIES] is False:  # an unknown key, like additionalProperties: false
                errors.add((f"{path}/{escape(key)}", _PROPERTIES))
            else:
                apply(schema[_PROPERTIES], item, f"{path}/{escape(key)}", errors)
    if isinstance(value, list) and _ITEMS in schema:
        done = _evaluated(root, schema, value, matches, _ITEMS, set())
        for index, item in enumerate(value):
            if index not in done:
                apply(schema[_ITEMS], item, f"{path}/{index}", errors)


def _evaluated(
    root: Any, schema: Any, value: Any, matches: Matches, skip: str, seen: set[int]
) -> set[Any]:
    """The keys (indexes) of ``value`` that ``schema`` evaluates, ``skip`` left out."""
    if not isinstance(schema, dict) or id(schema) in seen:
        return set()
    seen = seen | {id(schema)}
    kind = "object" if isinstance(value, dict) else "array"
    done: set[Any] = set()
    for name, held in schema.items():
        row = EVALUATING.get(name)
        if row is not None and row.applies_to == kind and name != skip:
            done |= _own(row.evaluates, held, value, matches)
    for sub in _passing(root, schema, value, matches):
        done |= _evaluated(root, sub, value, matches, "", seen)
    return done


def _own(evaluates: str | None, held: Any, value: Any, matches: Matches) -> set[Any]:
    if evaluates == "named keys":
        return {key for key in held if key in value}
    if evaluates == "matching keys":
        return {key for key in value if any(pattern_search(p, key) for p in held)}
    if evaluates == "prefix":
        return set(range(min(len(held), len(value))))
    if evaluates == "matching items":
        return {i for i, item in enumerate(value) if matches(held, item)}
    return set(value) if isinstance(value, dict) else set(range(len(value)))


def _passing(root: Any, schema: dict[str, Any], value: Any, matches: Matches) -> list[Any]:
    """The subschemas applied to ``value`` itself whose evaluations count: the $ref target
    and allOf always, the others when they pass or are chosen."""
    found = [targets.target(root, schema)] if targets.ref_of(schema) is not None else []
    for row in vocabulary.KEYWORDS:
        if not row.implemented or row.collects is None or row.name not in schema:
            continue
        held = schema[row.name]
        subs = list(held.items()) if isinstance(held, dict) and row.shape == "map" else None
        if row.collects == "always":
            found += held
        elif row.collects == "passing":
            found += [
                sub for sub in (held if isinstance(held, list) else [held]) if matches(sub, value)
            ]
        elif row.collects in ("if passes", "if fails") and row.needs in schema:
            passed = matches(schema[row.needs], value)
            if passed == (row.collects == "if passes"):
                found.append(held)
        elif row.collects == "key present" and subs is not None:
            found += [sub for key, sub in subs if key in value]
    return found
