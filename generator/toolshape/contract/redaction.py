"""The reference view of ``x-sensitive``: which values of an instance a sensitive schema governs.

It is the oracle of the generated tests' redaction checks, so it is written apart from
the masks the generated module carries (``model._Masks``): it reads the contract's
schema and one instance together, the way the reference evaluator walks them, and
says which values ``log_record()`` must replace. Like the module it is conservative:
a value that any branch (``anyOf``, ``oneOf``, ``if``/``then``/``else``, ``not``,
``dependentSchemas``, ``contains``) could mark sensitive counts as sensitive,
whichever branch the value matches.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..schema.keywords import subschemas
from ..schema.pointers import escape, ref_path, resolve, unescape
from .reference import matches_pattern


@dataclass
class Places:
    """Where, in one instance, ``log_record()`` must not show the value (JSON Pointers)."""

    #: Values a sensitive schema governs: logged as "[redacted]" (outermost only).
    redacted: list[str] = field(default_factory=list)
    #: Values under a key no schema declares, in an object where a sensitive key is
    #: declared: the key may be a sensitive one misspelt, so only the value's type is logged.
    undeclared: list[str] = field(default_factory=list)


def places(parameters: Any, instance: Any) -> Places:
    """The places of ``instance`` (the arguments) that the contract's x-sensitive schemas hide."""
    found = Places()
    _walk(parameters, [parameters], instance, "", found, 0)
    return found


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
            _strings(schema.get("enum", []), strings)
            if "const" in schema:
                _strings(schema["const"], strings)
        # $defs are reached through the $refs that use them: a definition nothing refers to
        # governs no value, so its allowed values are not secrets of any argument.
        todo += [(sub, inside) for sub, where in subschemas(schema) if where[0] != "$defs"]
        if isinstance(schema.get("$ref"), str):
            todo.append((resolve(parameters, ref_path(schema["$ref"])), inside))
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
        if isinstance(schema.get("$ref"), str):
            todo.append(resolve(parameters, ref_path(schema["$ref"])))
        for keyword in ("allOf", "anyOf", "oneOf"):
            todo += schema.get(keyword, [])
        todo += [schema[k] for k in ("not", "if", "then", "else") if k in schema]
        todo += list(schema.get("dependentSchemas", {}).values())
    return found


def _sensitive(parameters: Any, schemas: list[Any]) -> bool:
    return any(s.get("x-sensitive") is True for s in _same_value(parameters, schemas))


def _walk(
    parameters: Any, schemas: list[Any], value: Any, pointer: str, found: Places, depth: int
) -> None:
    applied = _same_value(parameters, schemas)
    if any(s.get("x-sensitive") is True for s in applied):
        found.redacted.append(pointer)
        return
    if isinstance(value, dict):
        _walk_object(parameters, applied, value, pointer, found, depth)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            subs: list[Any] = []
            for schema in applied:
                prefix = schema.get("prefixItems", [])
                if index < len(prefix):
                    subs.append(prefix[index])
                elif "items" in schema:
                    subs.append(schema["items"])
                if "contains" in schema:
                    subs.append(schema["contains"])
            _walk(parameters, subs, item, f"{pointer}/{index}", found, depth + 1)


def _walk_object(
    parameters: Any,
    applied: list[dict[str, Any]],
    value: dict[str, Any],
    pointer: str,
    found: Places,
    depth: int,
) -> None:
    declared = {key for schema in applied for key in schema.get("properties", {})}
    patterns = [p for schema in applied for p in schema.get("patternProperties", {})]
    guarded = any(
        _sensitive(parameters, [sub])
        for schema in applied
        for sub in schema.get("properties", {}).values()
    )
    for key, item in value.items():
        subs: list[Any] = []
        for schema in applied:
            properties = schema.get("properties", {})
            if key in properties:
                subs.append(properties[key])
            matched = [
                sub
                for p, sub in schema.get("patternProperties", {}).items()
                if matches_pattern(p, key)
            ]
            subs += matched
            if key not in properties and not matched and "additionalProperties" in schema:
                subs.append(schema["additionalProperties"])
        child = f"{pointer}/{escape(key)}"
        if _sensitive(parameters, subs):
            found.redacted.append(child)
        elif guarded and key not in declared and not any(matches_pattern(p, key) for p in patterns):
            found.undeclared.append(child)
        else:
            _walk(parameters, subs, item, child, found, depth + 1)


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
