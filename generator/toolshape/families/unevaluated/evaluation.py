"""What a schema evaluates of an object's keys or an array's items, read at generation time
(contract stage): the set ``unevaluatedProperties`` and ``unevaluatedItems`` leave alone.

A key (an item) is evaluated at a place when a keyword of a schema applied there, and that
passed, evaluated it: ``properties`` its named keys, ``patternProperties`` the keys its
patterns match, ``additionalProperties`` (and a nested ``unevaluatedProperties``) every other
key; ``prefixItems`` the first items, ``items`` (a nested ``unevaluatedItems``) every other,
``contains`` the items it matches. The schemas applied to the same value add theirs: each of
``allOf`` and the target of ``$ref`` always (the value fails anyway when one of them fails),
the branches of ``anyOf``/``oneOf`` and ``if`` only when they pass, ``then`` when ``if``
passes, ``else`` when it fails, a ``dependentSchemas`` entry when the object holds its key;
``not`` never. Which keyword does what is a fact of the vocabulary (``Keyword.evaluates`` and
``Keyword.collects``): this module names none.

:func:`evaluated` returns it as an :class:`Evaluated`: what holds whatever the value (its
names, patterns, prefix, ``contains`` schemas, or every key), and the parts that count only
under a :class:`Condition` decided on the value. With no such part the set is static: the
generated check is a plain loop (``checks.py``); with some, the generated code decides each
condition once per value and the loop tests the parts whose condition held.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ..references import targets

#: The keywords whose subschemas evaluate keys or items, by name (their rows).
#: The keywords whose subschemas evaluate keys or items, by name (the oracle reads them too).
EVALUATING = {k.name: k for k in vocabulary.KEYWORDS if k.implemented and k.evaluates}
#: The applicators to the same value, by when their subschemas' evaluations count.
_ALWAYS = vocabulary.collecting("always")
_PASSING = vocabulary.collecting("passing")
_CHOSEN = (*vocabulary.collecting("if passes"), *vocabulary.collecting("if fails"))
_KEYED = vocabulary.collecting("key present")


@dataclass(frozen=True)
class Condition:
    """When a part's evaluations count: the schema at ``path`` passes on the value ("passes"),
    fails on it ("fails"), or the object holds ``key`` ("key present")."""

    kind: Literal["passes", "fails", "key present"]
    schema: Any = None
    path: SchemaPath = ()
    key: str = ""


@dataclass
class Evaluated:
    """What one place's schemas evaluate of one object or array."""

    names: list[str] = field(default_factory=list)
    #: Each pattern, with the path of the map that holds it.
    patterns: list[tuple[str, SchemaPath]] = field(default_factory=list)
    prefix: int = 0
    #: The ``contains`` schemas (an item one of them matches is evaluated), with their paths.
    matching: list[tuple[Any, SchemaPath]] = field(default_factory=list)
    everything: bool = False
    #: The parts that count only when their condition holds on the value.
    parts: list[tuple[Condition, Evaluated]] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not (
            self.names
            or self.patterns
            or self.prefix
            or self.matching
            or self.everything
            or self.parts
        )

    @property
    def static(self) -> bool:
        """Whether the set is known at generation time (no part waits for a condition)."""
        return not self.parts


def evaluated(root: Any, schema: dict[str, Any], path: SchemaPath, keyword: str) -> Evaluated:
    """What ``schema`` (at ``path`` under ``root``) evaluates for its own ``keyword``
    (``unevaluatedProperties`` or ``unevaluatedItems``), that keyword left out."""
    found = Evaluated()
    kind = vocabulary.keyword(keyword).applies_to
    _collect(root, schema, path, kind, found, skip=keyword, seen=frozenset())
    return found


def _collect(
    root: Any,
    schema: Any,
    path: SchemaPath,
    kind: str | None,
    into: Evaluated,
    skip: str,
    seen: frozenset[int],
) -> None:
    # `seen`: a schema reached again on the same value through $ref evaluates nothing new
    # (and a cycle of them would never end; the contract check refuses those anyway).
    if not isinstance(schema, dict) or id(schema) in seen:
        return
    seen = seen | {id(schema)}
    for name, held in schema.items():
        row = EVALUATING.get(name)
        if row is not None and row.applies_to == kind and name != skip:
            _own(row.evaluates, held, path + (name,), into)
    reached = targets.target(root, schema)
    if reached is not None:
        _collect(root, reached, targets.path_of(schema) or (), kind, into, "", seen)
    for sub, sub_path in _applied(schema, path, _ALWAYS):
        _collect(root, sub, sub_path, kind, into, "", seen)
    for sub, sub_path in _applied(schema, path, _PASSING):
        _part(root, sub, sub_path, kind, into, Condition("passes", sub, sub_path), seen)
    for name in _CHOSEN:
        decider = vocabulary.keyword(name).needs
        if name in schema and decider in schema:
            how: Literal["passes", "fails"] = (
                "passes" if vocabulary.keyword(name).collects == "if passes" else "fails"
            )
            condition = Condition(how, schema[decider], path + (decider,))
            _part(root, schema[name], path + (name,), kind, into, condition, seen)
    for name in _KEYED:
        for key, sub in schema.get(name, {}).items():
            condition = Condition("key present", key=key)
            _part(root, sub, path + (name, key), kind, into, condition, seen)


def _own(evaluates: str | None, held: Any, path: SchemaPath, into: Evaluated) -> None:
    """What one keyword evaluates by itself."""
    if evaluates == "named keys":
        into.names += [key for key in held if key not in into.names]
    elif evaluates == "matching keys":
        into.patterns += [(pattern, path) for pattern in held]
    elif evaluates == "prefix":
        into.prefix = max(into.prefix, len(held))
    elif evaluates == "matching items":
        into.matching.append((held, path))
    else:  # "other keys", "other items": with the keywords beside it, every one
        into.everything = True


def _applied(schema: dict[str, Any], path: SchemaPath, names: tuple[str, ...]) -> list[Any]:
    """The subschemas ``schema``'s keywords ``names`` apply to the value, with their paths."""
    found: list[tuple[Any, SchemaPath]] = []
    for name in names:
        if name not in schema:
            continue
        held = schema[name]
        if isinstance(held, list):
            found += [(sub, path + (name, i)) for i, sub in enumerate(held)]
        else:
            found.append((held, path + (name,)))
    return found


def _part(
    root: Any,
    sub: Any,
    path: SchemaPath,
    kind: str | None,
    into: Evaluated,
    condition: Condition,
    seen: frozenset[int],
) -> None:
    """A subschema whose evaluations count under ``condition``: kept when it evaluates any."""
    part = Evaluated()
    _collect(root, sub, path, kind, part, "", seen)
    if not part.empty:
        into.parts.append((condition, part))
