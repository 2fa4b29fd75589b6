"""What the contract check says of ``unevaluatedProperties`` and ``unevaluatedItems``
(contract stage).

Their value is a schema, checked like any other by the checker's walk. One more thing is
legal JSON Schema with an exact meaning that is surely not what was meant: a key the schema
requires that ``unevaluatedProperties: false`` refuses, because nothing beside it (no
property, pattern, ``additionalProperties``, in no subschema applied to the same value) could
evaluate it. No object passes there: a warning, as the objects family warns of a required key
``additionalProperties: false`` forbids, and the generated code refuses every object there.
``contract/checker.py`` calls :func:`warnings` on every schema of a contract that passed
every other check (references resolve).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...contract.wording import suggest
from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ..objects.rules import REQUIRED
from .evaluation import Evaluated, evaluated

#: One problem: where (a schema path from the document root) and what.
Problem = tuple[SchemaPath, str]

_PROPERTIES = next(
    k.name for k in vocabulary.KEYWORDS if k.implemented and k.dynamic and k.applies_to == "object"
)


def warnings(root: Any, schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """A required key that ``unevaluatedProperties: false`` surely refuses, in one schema."""
    required = schema.get(REQUIRED)
    if schema.get(_PROPERTIES) is not False or not isinstance(required, list):
        return
    found = evaluated(root, schema, path, _PROPERTIES)
    if _open(found):
        return
    names = _names(found)
    seen: set[str] = set()
    for i, key in enumerate(required):
        if isinstance(key, str) and key not in names and key not in seen:
            seen.add(key)
            yield (
                path + (REQUIRED, i),
                f"'{key}' is required but {_PROPERTIES}: false refuses it (no keyword here "
                f"evaluates it): as written, no object can pass here{suggest(key, names)}",
            )


def _open(found: Evaluated) -> bool:
    """Whether some part could evaluate keys not known by name (a pattern, every key)."""
    return bool(found.everything or found.patterns) or any(_open(p) for _, p in found.parts)


def _names(found: Evaluated) -> tuple[str, ...]:
    """Every key name some part evaluates."""
    names = list(found.names)
    for _, part in found.parts:
        names += [n for n in _names(part) if n not in names]
    return tuple(names)
