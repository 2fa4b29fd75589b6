"""The Python types of the accepted arguments: the ``Arguments`` TypedDict and those it needs.

A call once accepted holds its arguments typed (``Result.value``): each object schema with
``properties`` becomes a TypedDict (children first, named by the namer for where they are),
every other schema a type expression (``list[str]``, ``Literal["a", "b"] | None``, ``Any``).
The templates print :class:`TypedDictDef` in class syntax where every key allows it.
"""

from __future__ import annotations

import keyword
from dataclasses import dataclass
from typing import Any

from ..contract.checker import Contract
from ..schema.pointers import SchemaPath
from .literals import Code, comment_text, literal
from .model_parts import JsonType
from .names import Namer


@dataclass
class Field:
    """One key of a TypedDict."""

    key: str
    type: str  # a type expression, PEP 604 style ("str | None")

    @property
    def name(self) -> Code:
        """The key as a class-body name (only used when ``TypedDictDef.class_syntax``)."""
        return Code(self.key)

    @property
    def key_literal(self) -> Code:
        return literal(self.key)

    @property
    def type_code(self) -> Code:
        return Code(self.type)

    @property
    def type_literal(self) -> Code:
        """The type as a string: functional TypedDicts evaluate their values at runtime."""
        return literal(self.type)


@dataclass
class TypedDictDef:
    """A TypedDict of the accepted arguments (or of one nested object)."""

    name: Code
    required: list[Field]
    optional: list[Field]
    comment: Code

    @property
    def name_literal(self) -> Code:
        return literal(str(self.name))

    @property
    def class_syntax(self) -> bool:
        """Class syntax reads best, but needs every key to be a plain identifier."""
        return all(
            f.key.isidentifier()
            and f.key.isascii()
            and not keyword.iskeyword(f.key)
            and not f.key.startswith("_")
            for f in self.required + self.optional
        )


class TypedDicts:
    """Python type expressions for schemas, and the TypedDicts they need (children first)."""

    def __init__(self, namer: Namer, contract: Contract) -> None:
        self.namer = namer
        self.contract = contract
        self.defs: list[TypedDictDef] = []

    def of(self, schema: Any, hint: str, schema_path: SchemaPath) -> str:
        if not isinstance(schema, dict):
            return "Any"
        values = schema.get("enum", [schema["const"]] if "const" in schema else None)
        if values is not None and all(v is None or isinstance(v, (str, bool, int)) for v in values):
            members = [v for v in values if v is not None]
            literal_type = f"Literal[{', '.join(literal(v) for v in members)}]" if members else ""
            return union([literal_type] * bool(members) + ["None"] * (None in values)) or "Any"
        kinds = declared_types(schema)
        if kinds is None:
            return "Any"
        return union([self.of_kind(kind, schema, hint, schema_path) for kind in kinds])

    def of_kind(self, kind: str, schema: dict[str, Any], hint: str, schema_path: SchemaPath) -> str:
        simple = {
            "null": "None",
            "boolean": "bool",
            "integer": "int",
            "number": "float",
            "string": "str",
        }
        if kind in simple:
            return simple[kind]
        if kind == "array":
            return f"list[{self.of(schema.get('items', True), hint + ' item', schema_path + ('items',))}]"
        if not schema.get("properties"):
            additional = schema.get("additionalProperties", True)
            return f"dict[str, {self.of(additional, hint + ' value', schema_path + ('additionalProperties',))}]"
        return self.typed_dict(schema, hint, schema_path)

    def typed_dict(self, schema: dict[str, Any], hint: str, schema_path: SchemaPath) -> str:
        name = self.namer.type_name(hint)
        required = set(schema.get("required", []))
        fields = [
            Field(key, self.of(sub, f"{hint} {key}", schema_path + ("properties", key)))
            for key, sub in schema.get("properties", {}).items()
        ]
        where = comment_text(
            f"{self.contract.file}:{self.contract.line_of(schema_path)}", limit=120
        )
        self.defs.append(
            TypedDictDef(
                name=name,
                required=[f for f in fields if f.key in required],
                optional=[f for f in fields if f.key not in required],
                comment=Code(where),
            )
        )
        return str(name)


def union(types: list[str]) -> str:
    return " | ".join(dict.fromkeys(types))


def declared_types(schema: dict[str, Any]) -> tuple[JsonType, ...] | None:
    """The JSON types a schema's ``type`` admits (None: no ``type``); with both ``integer``
    and ``number``, ``number`` alone (it admits every integer)."""
    if "type" not in schema:
        return None
    raw = schema["type"]
    types = tuple(raw) if isinstance(raw, list) else (raw,)
    if "integer" in types and "number" in types:
        types = tuple(t for t in types if t != "integer")
    return types
