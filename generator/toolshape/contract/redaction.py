"""The reference view of ``x-sensitive``: which values of an instance a sensitive schema governs.

It is the oracle of the generated tests' redaction checks, so it is written apart from
the masks the generated module carries (``codegen.masks._Masks``): it reads the contract's
schema and one instance together, the way the reference evaluator walks them, and
says which values ``log_record()`` must replace. Like the module it is conservative:
a value that any branch (``anyOf``, ``oneOf``, ``if``/``then``/``else``, ``not``,
``dependentSchemas``, ``contains``) could mark sensitive counts as sensitive,
whichever branch the value matches.

It is an allow-list: in a tool with sensitive parts a value shows only where the walk
places it. A value of a JSON type other than the one a sensitive part below its schema
needs (a string or an array where an object holding a secret is declared) or that no
schema declaring a ``type`` admits (a string holding JSON where an object is declared), a value
under a key no schema names (``properties``, ``patternProperties``) and an item at a
position no schema is declared for (``prefixItems``, ``items``) are ``described``:
logged as their JSON type and size.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..families.references import targets
from ..families.values import oracle as value_oracle
from ..schema import children
from ..schema.graphs import strongly_connected
from ..schema.keywords import subschemas
from ..schema.pointers import escape, unescape
from ..schema.vocabulary import Reaches
from .reference import matches_pattern


@dataclass
class Places:
    """Where, in one instance, ``log_record()`` must not show the value (JSON Pointers)."""

    #: Values a sensitive schema governs: logged as "[redacted]" (outermost only).
    redacted: list[str] = field(default_factory=list)
    #: Values the walk cannot place, in a tool with sensitive parts: of the wrong JSON
    #: type under a schema with a sensitive part below it, or under a key no schema
    #: names. Only their JSON type and size are logged (outermost only).
    described: list[str] = field(default_factory=list)


def places(parameters: Any, instance: Any) -> Places:
    """The places of ``instance`` (the arguments) that the contract's x-sensitive schemas hide."""
    found = Places()
    below = _leading_to_secrets(parameters)
    _walk(parameters, [parameters], instance, "", found, below if id(parameters) in below else None)
    return found


def _leading_to_secrets(parameters: Any) -> set[int]:
    """The ids of the schemas with an x-sensitive schema at or below them ($refs followed,
    $defs only through them): by strongly connected components, each edge looked at once."""
    schemas: dict[int, dict[str, Any]] = {}

    def successors(key: int) -> list[int]:
        found = []
        for sub in _below(parameters, schemas[key]):
            if isinstance(sub, dict):
                schemas.setdefault(id(sub), sub)
                found.append(id(sub))
        return found

    schemas[id(parameters)] = parameters
    leading: set[int] = set()
    for component in strongly_connected([id(parameters)], successors):  # successors first
        members = set(component)
        if any(
            schemas[key].get("x-sensitive") is True
            or any(sub in leading for sub in successors(key) if sub not in members)
            for key in component
        ):
            leading |= members
    return leading


def _below(parameters: Any, schema: dict[str, Any]) -> list[Any]:
    subs = [sub for sub, where in subschemas(schema) if not targets.is_definition(where)]
    return subs + targets.followed(parameters, schema)


def secret_strings(parameters: Any, instance: Any) -> set[str]:
    """The strings inside the redacted places of ``instance``."""
    strings: set[str] = set()
    for pointer in places(parameters, instance).redacted:
        _strings(_at(instance, pointer), strings)
    return strings


def allowed_secrets(parameters: Any) -> set[str]:
    """The string values of every enum and const at or under an x-sensitive schema ($ref followed)."""
    strings: set[str] = set()
    seen: set[tuple[int, bool]] = set()
    todo: list[tuple[Any, bool]] = [(parameters, False)]
    while todo:
        schema, inside = todo.pop()
        if not isinstance(schema, dict):
            continue
        inside = inside or _sensitive(parameters, [schema])  # a branch on a sensitive value counts
        if (id(schema), inside) in seen:
            continue
        seen.add((id(schema), inside))
        if inside:
            _strings(value_oracle.listed_values(schema), strings)
        # $defs are reached through the $refs that use them: a definition nothing refers to
        # governs no value, so its allowed values are not secrets of any argument.
        todo += [
            (sub, inside) for sub, where in subschemas(schema) if not targets.is_definition(where)
        ]
        todo += [(target, inside) for target in targets.followed(parameters, schema)]
    return strings


def _same_value(parameters: Any, schemas: list[Any]) -> list[dict[str, Any]]:
    """The schemas that apply to one value: ``schemas``, their $ref targets and all their branches."""
    found: list[dict[str, Any]] = []
    seen: set[int] = set()
    todo = list(schemas)
    while todo:
        schema = todo.pop(0)
        if not isinstance(schema, dict) or id(schema) in seen:
            continue
        seen.add(id(schema))
        found.append(schema)
        todo += targets.followed(parameters, schema)
        todo += [sub for sub, _ in children.same_value(schema)]
    return found


def _sensitive(parameters: Any, schemas: list[Any]) -> bool:
    return any(s.get("x-sensitive") is True for s in _same_value(parameters, schemas))


def _walk(
    parameters: Any, schemas: list[Any], value: Any, pointer: str, found: Places, below: Any
) -> None:
    """``below``: the schemas leading to secrets when the tool has any (else None)."""
    applied = _same_value(parameters, schemas)
    if any(s.get("x-sensitive") is True for s in applied):
        found.redacted.append(pointer)
        return
    if below is not None:
        objects = _leads_to_secrets(applied, children.KEY_VALUES, below)
        arrays = _leads_to_secrets(applied, children.ITEMS, below)
        fits = (objects and isinstance(value, dict)) or (arrays and isinstance(value, list))
        if ((objects or arrays) and not fits) or value_oracle.refused_by_declared_types(
            applied, value
        ):
            found.described.append(pointer)
            return
    if isinstance(value, dict):
        _walk_object(parameters, applied, value, pointer, found, below)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            subs: list[Any] = []
            placed = False
            for schema in applied:
                reached, declared = children.for_index(schema, index)
                subs += [sub for sub, _ in reached]
                placed = placed or declared
            child = f"{pointer}/{index}"
            if below is not None and not placed and not _sensitive(parameters, subs):
                found.described.append(child)
            else:
                _walk(parameters, subs, item, child, found, below)


def _leads_to_secrets(
    applied: list[dict[str, Any]], reached: tuple[Reaches, ...], below: Any
) -> bool:
    """Whether a subschema of ``applied`` applying to the ``reached`` children leads to secrets."""
    return any(
        id(sub) in below for schema in applied for sub, _ in children.reaching(schema, *reached)
    )


def _walk_object(
    parameters: Any,
    applied: list[dict[str, Any]],
    value: dict[str, Any],
    pointer: str,
    found: Places,
    below: Any,
) -> None:
    for key, item in value.items():
        subs: list[Any] = []
        named = False
        for schema in applied:
            reached, declared = children.for_key(schema, key, matches_pattern)
            subs += [sub for sub, _ in reached]
            named = named or declared
        child = f"{pointer}/{escape(key)}"
        if _sensitive(parameters, subs):
            found.redacted.append(child)
        elif below is not None and not named:
            found.described.append(child)
        else:
            _walk(parameters, subs, item, child, found, below)


def _at(instance: Any, pointer: str) -> Any:
    value = instance
    for step in pointer.split("/")[1:]:
        step = unescape(step)
        value = value[int(step)] if isinstance(value, list) else value[step]
    return value


def _strings(value: Any, into: set[str]) -> None:
    if isinstance(value, str):
        into.add(value)
    elif isinstance(value, list):
        for item in value:
            _strings(item, into)
    elif isinstance(value, dict):
        for item in value.values():
            _strings(item, into)
