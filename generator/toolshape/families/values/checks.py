"""The model's checks of type, enum and const: the value is of a type, and one of those the
contract lists (codegen stage).

``codegen/building/nodes.py`` calls :func:`type_message` for a node whose schema declares a
type (the ``node`` macro of ``templates/checks.py.j2`` prints the type test from the node's
branches; this says what it reports) and :func:`value_checks` for each branch (or, without a
type, for the whole node).

Where the branch pins the JSON type the comparison is fast (a string in a frozenset, ``is
None``); elsewhere it compares JSON values as JSON means them (``_json_key``), and the
handler gets a member as the contract writes it where the value only equals it (1.0 for 1).
Under an x-sensitive schema the message says only that the value is not allowed: the allowed
values would tell the value (or the secret it should have been).
"""

from __future__ import annotations

from typing import Any

from ...codegen.building.context import BuildContext, show
from ...codegen.literals import Code, literal
from ...codegen.model_parts import Check
from ...schema.pointers import SchemaPath
from ...schema.values import is_integer
from .rules import TYPE

#: The code of a type error, as generated code spells it.
TYPE_CODE = literal(TYPE)

#: What a type test admits, in words, for messages.
TYPE_WORDS = {
    "null": "null",
    "boolean": "a boolean",
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
}

#: What an enum or const failure says under an x-sensitive schema (the label goes first).
_SECRET_ENUM = "is not one of the allowed values (not listed: the value is sensitive)"
_SECRET_CONST = "is not the allowed value (not shown: the value is sensitive)"


def type_message(
    context: BuildContext, declared: tuple[str, ...] | None, label: str
) -> Code | None:
    """What the type test of a node called ``label`` says (the value's type follows it);
    None where the schema declares no type."""
    if not declared:
        return None
    words = " or ".join(TYPE_WORDS[k] for k in declared)
    return context.say(f"{label} must be {words}, got ")


def value_checks(
    context: BuildContext, schema: dict[str, Any], kind: str, label: str, schema_path: SchemaPath
) -> list[Check]:
    """enum and const, with a fast comparison where the branch pins the type (``kind``;
    "any" where it does not)."""
    checks = []
    secret = schema_path in context.secret
    if "enum" in schema:
        where = schema_path + ("enum",)
        checks += _enum_checks(context, schema["enum"], kind, label, where, secret)
    if "const" in schema:
        where = schema_path + ("const",)
        checks += _const_checks(context, schema["const"], kind, label, where, secret)
    return checks


def _enum_checks(
    context: BuildContext,
    members: list[Any],
    kind: str,
    label: str,
    enum_path: SchemaPath,
    secret: bool,
) -> list[Check]:
    shown = ", ".join(show(m) for m in members)
    message = context.message_constant(
        f"{label} must be one of: {shown}" if not secret else f"{label} {_SECRET_ENUM}",
        "one of",
        enum_path,
    )
    strings = [m for m in members if isinstance(m, str)]
    if kind == "string":
        name = context.constant("values", "strings", literal(frozenset(strings)), enum_path)
        return [Check("not_in", literal("enum"), message, name, hint=not secret)]
    if kind == "null":
        return [] if None in members else [Check("always", literal("enum"), message)]
    name = context.constant("values", "json_values", literal(members), enum_path)
    # A string that misses a string member gets did-you-mean, as with type: string.
    names = (
        context.constant("names", "strings", literal(frozenset(strings)), enum_path)
        if strings and not secret
        else None
    )
    return [
        Check(
            "json_not_in",
            literal("enum"),
            message,
            name,
            names,
            hint=not secret,
            written=_written_types(members),
        )
    ]


def _const_checks(
    context: BuildContext, const: Any, kind: str, label: str, const_path: SchemaPath, secret: bool
) -> list[Check]:
    message = context.say(
        f"{label} must be {show(const)}" if not secret else f"{label} {_SECRET_CONST}"
    )
    if kind == "string" and isinstance(const, str):
        return [Check("not_equal", literal("const"), message, literal(const))]
    if kind == "null" or const is None:
        return [Check("not_none" if const is None else "always", literal("const"), message)]
    name = context.constant("const", "json_values", literal([const]), const_path)
    return [
        Check(
            "json_not_in",
            literal("const"),
            message,
            name,
            hint=not secret,
            written=_written_types([const]),
        )
    ]


def _written_types(members: list[Any]) -> tuple[str, ...]:
    """The Python types of a value that JSON-equals one of ``members`` without being the
    member the handler gets (Check.written; the runtime's ``_member``, where an integral
    number is an int): a float can equal an integral member (1.0 and 1; 1e23 and 10**23),
    an array or object an array or object member. An int equals only an integral member,
    which is an int there, so it is always delivered as sent."""
    written = ["float"] * any(is_integer(m) for m in members)
    written += ["container"] * any(isinstance(m, (list, dict)) for m in members)
    return tuple(written)
