"""What the contract check knows of the combinators (contract stage): which of their
subschemas are applied to one value, and which never run together.

``contract/unfolding.py`` counts the applications a schema makes on one value (a cycle that
never descends, a fan-out past its bound) over the graph of the keywords that apply
subschemas to the same value; that graph comes from the vocabulary. Two facts about these
keywords' meaning are the family's:

- an ``allOf`` is idempotent: an entry that is the same schema as an earlier one finds the
  same errors, so the generated code applies it once (:func:`applied_entries`; the model's
  ``allOf`` check in ``checks.py`` skips the same entries);
- the ``then`` and the ``else`` of one ``if`` (:data:`BRANCHES`) never both run on a value,
  so a schema under both is not applied twice;
- a union's alternatives may be told apart by a tag (:func:`union_tag`: a key each one fixes
  to constants of its own, a ``const`` or an ``enum`` no other alternative shares a value
  of; OpenAPI's "discriminator"). The generated code tries only the alternative a value's
  tag picks; when every alternative also requires the tag, admits objects and asks nothing
  of the tag but its constants, a :attr:`Tag.decisive` tag decides
  every object alone: one without a tag any alternative fixes is refused by the tag, and no
  alternative is tried; the alternative a tag picks is built without its checks of the tag. So at most one
  alternative ever runs on an object, and its keys are checked by at most one of them (a
  recursive expression tree, ``oneOf`` ``add``/``mul`` nodes with ``left``/``right``, unfolds
  once per level, not twice).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...schema import vocabulary
from ...schema.pointers import SchemaPath, resolve
from ...schema.values import enum_has, json_equal, json_key, type_allows
from ..objects.rules import PROPERTIES, REQUIRED, properties_of
from ..references.targets import REF, path_of
from ..values.rules import CONST, ENUM, TYPE, fixed_values, is_fixed

#: The two branches of an ``if``: one of them runs on a value, never both.
BRANCHES = ("then", "else")

#: The keywords whose check inverts its subschema's verdict: the messages made under one say
#: what the subschema requires, so a name made from the place leaves the keyword's word out
#: (``codegen/building/context.py``), or it would read as the opposite of the message.
INVERTING = frozenset({"not"})

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


# -- tagged unions ----------------------------------------------------------------------------

#: The types a tag's constants may have: a string, number, boolean or null (the runtime's
#: ``_Tag`` looks only those up).
_TAG_TYPES = (str, int, float, bool, type(None))
#: How many $refs are followed from one alternative (or one property) to the schema holding
#: its constants: a chain this long is no tagged union anyone wrote.
_MAX_REFS = 8
#: The keywords a tag's schema may hold for the tag to decide its alternative alone: its
#: constants, its type, a ``$ref`` (followed) and annotations, which check nothing.
_TAG_KEYWORDS = frozenset((CONST, ENUM, TYPE, REF, *vocabulary.annotation_names()))
#: One schema at the root of an alternative, and its place.
_Rooted = tuple[dict[str, Any], SchemaPath]


@dataclass(frozen=True)
class Tag:
    """The key that tells a union's alternatives apart, and each alternative's constants
    (``values[i]``: one or more; no two alternatives share one).

    ``decisive``: every alternative also requires the key, admits objects, and says of the
    key nothing but its constants (:func:`_says_only`), so an object whose tag
    no alternative fixes fails every one of them at the tag, whatever else it holds: the tag
    alone decides it, and no alternative needs to be tried. And an alternative the tag picks
    finds its own checks of the tag passed before it runs: the generated code leaves them
    out of it, at each of ``places[i]`` (alternative ``i`` and the ``$ref`` targets at its
    root)."""

    key: str
    values: tuple[tuple[Any, ...], ...]
    decisive: bool
    places: tuple[tuple[SchemaPath, ...], ...] = ()


def union_tag(
    root: Any,
    branches: list[Any],
    path: SchemaPath,
    hidden: Callable[[SchemaPath], bool],
) -> Tag | None:
    """The tag of a union (``path``: the ``anyOf``/``oneOf``; ``root``: what $refs resolve
    in), when it has one: a key that every alternative fixes (in its ``properties``, or those
    of a ``$ref`` target at its root) to constants (``const``, or an ``enum``) that are
    strings, numbers, booleans or null, no two alternatives sharing one. For an object whose
    tag is one of one alternative's constants, every other alternative refuses it: that one
    decides the union. The first such key of the first alternative's properties is the tag;
    None when there is none. A constant at a place ``hidden`` says is never a tag (an
    x-sensitive value: a refusal would name it).

    A tag that only the schema holding the union requires does not decide: an object
    without it fails there, but whether the union refuses it too is for its alternatives to
    say (the reference evaluation of the derived cases reports the union's error only when
    they do), and telling that would mean trying them all."""
    if len(branches) < 2:
        return None
    fixed = [_fixed_keys(root, branch, path + (i,), hidden) for i, branch in enumerate(branches)]
    for key in fixed[0]:
        if not all(key in keys for keys in fixed):
            continue
        values = tuple(tuple(keys[key].values()) for keys in fixed)
        # One look-up per constant (made by _fixed_keys), not a comparison of each pair: a
        # union of thousands of alternatives costs its size. An alternative's own constants
        # are distinct already.
        flat = [constant for keys in fixed for constant in keys[key]]
        if len(set(flat)) == len(flat):
            chains = [_at_root(root, branch, path + (i,)) for i, branch in enumerate(branches)]
            decisive = all(
                _decides(root, chain, key, constants)
                for chain, constants in zip(chains, values, strict=True)
            )
            places = tuple(tuple(where for _, where in chain) for chain in chains)
            return Tag(key, values, decisive, places if decisive else ())
    return None


def _fixed_keys(
    root: Any, branch: Any, path: SchemaPath, hidden: Callable[[SchemaPath], bool]
) -> dict[str, dict[Any, Any]]:
    """The keys an alternative fixes to constants that may be a tag, and the constants (by
    their ``json_key``): those every schema of the key that lists only such constants admits
    (each such schema narrows what the alternative admits there)."""
    fixed: dict[str, dict[Any, Any]] = {}
    for schema, where in _at_root(root, branch, path):
        for key, sub in properties_of(schema).items():
            for value_schema, value_path in _at_root(root, sub, where + (PROPERTIES, key)):
                if hidden(value_path) or not is_fixed(value_schema):
                    continue
                listed = fixed_values(value_schema)
                if not all(isinstance(value, _TAG_TYPES) for value in listed):
                    continue
                # Keyed by JSON equality: 1 and 1.0 are one constant, true and 1 two.
                keyed: dict[Any, Any] = {}
                for value in listed:
                    keyed.setdefault(json_key(value), value)
                known = fixed.get(key)
                fixed[key] = keyed if known is None else {k: known[k] for k in known if k in keyed}
    return {key: constants for key, constants in fixed.items() if constants}


def _requires(schema: Any, key: str) -> bool:
    """Whether a schema requires the key of every object it admits."""
    required = schema.get(REQUIRED) if isinstance(schema, dict) else None
    return isinstance(required, list) and key in required


def _decides(root: Any, chain: list[_Rooted], key: str, constants: tuple[Any, ...]) -> bool:
    """Whether the alternative (``chain``: its schemas at its root) refuses, at the tag, every
    object without one of ``constants`` there, and passes every object with one of them
    there: one of its schemas requires the key, none of them refuses objects by ``type``
    (which would refuse an object at its root, not at the tag), and each says of the key
    nothing but ``constants``."""
    schemas = [schema for schema, _ in chain]
    required = any(_requires(s, key) for s in schemas)
    return (
        required
        and all(_admits_objects(s.get(TYPE, "object")) for s in schemas)
        and all(
            _says_only(root, properties_of(s)[key], where + (PROPERTIES, key), value)
            for s, where in chain
            if key in properties_of(s)
            for value in constants
        )
    )


def _says_only(root: Any, schema: Any, path: SchemaPath, value: Any) -> bool:
    """Whether a schema of the tag admits ``value`` and asks nothing else of it: it (and each
    ``$ref`` target at its root) holds only its constants, its type and annotations, all of
    which admit ``value``. Then an alternative the tag picks needs none of its checks of the
    tag: a key present with ``value`` passes each."""
    if schema is True:
        return True
    chain = _at_root(root, schema, path)
    if not chain or path_of(chain[-1][0]) is not None:  # false; a $ref left unfollowed
        return False
    for part, _ in chain:
        types = part.get(TYPE)
        if (
            any(keyword not in _TAG_KEYWORDS for keyword in part)
            or (CONST in part and not json_equal(part[CONST], value))
            or (ENUM in part and not (isinstance(part[ENUM], list) and enum_has(part[ENUM], value)))
            or (TYPE in part and not _admits(types, value))
        ):
            return False
    return True


def _admits(types: Any, value: Any) -> bool:
    """Whether a ``type`` (a name or a list of names) admits ``value``."""
    names = tuple(types) if isinstance(types, list) else (types,)
    return type_allows(names, value)


def _admits_objects(types: Any) -> bool:
    return types == "object" or (isinstance(types, list) and "object" in types)


def _at_root(root: Any, schema: Any, path: SchemaPath) -> list[_Rooted]:
    """A schema and the $ref targets at its root, in turn (each applies to the same value)."""
    found: list[_Rooted] = []
    while isinstance(schema, dict) and len(found) < _MAX_REFS:
        found.append((schema, path))
        target = path_of(schema)
        if target is None or any(target == seen for _, seen in found):
            break
        try:
            schema, path = resolve(root, target), target
        except (KeyError, IndexError, TypeError, ValueError):  # the checker says where
            break
    return found
