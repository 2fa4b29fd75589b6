"""What the contract check says of ``type``, ``enum`` and ``const`` (contract stage).

``type`` names JSON types, each once, quoted when it is ``'null'``; ``enum`` is a non-empty
list of distinct values; and a value ``type`` refuses, or a ``const`` outside its ``enum``,
could never pass. The root of ``parameters`` (and of ``output``) is one JSON object: ``type: object``, and no
``enum`` or ``const``. ``contract/checker.py`` calls :func:`root` on the root,
:func:`declared_types` and :func:`check` on every schema, and, once the whole contract is
well-formed, :func:`dead_members` (the members the rest of their schema refuses, judged by
the reference evaluator the checker hands in).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

from ...contract.wording import suggest, with_article, yaml_text
from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ...schema.values import enum_has, json_key, json_type, type_allows

TYPE = "type"
ENUM = "enum"
CONST = "const"
#: The keywords that list the values a schema allows, refused on the root (one object).
MEMBERS = (ENUM, CONST)
JSON_TYPES = vocabulary.JSON_TYPES


def is_fixed(schema: dict[str, Any]) -> bool:
    """Whether the schema lists its values (``enum`` or ``const``)."""
    return CONST in schema or ENUM in schema


def fixed_values(schema: dict[str, Any]) -> list[Any]:
    """The values a schema that :func:`is_fixed` allows at most: its const, else its members."""
    return [schema[CONST]] if CONST in schema else list(schema.get(ENUM, []))


#: One problem: where (a schema path from the document root) and what.
Problem = tuple[SchemaPath, str]
#: The keywords (comma-separated) of a schema that refuse a value; "" when it passes.
Failures = Callable[[Any, Any], str]


def root(schema: dict[str, Any], path: SchemaPath) -> Iterator[tuple[SchemaPath, str, bool]]:
    """The root's problems: (where, what, whether it is about the key rather than its value)."""
    top = str(path[0]) if path else "parameters"
    if schema.get(TYPE) != "object":
        where = path + (TYPE,) if TYPE in schema else path
        yield (where, f"the root of '{top}' must say 'type: object': {_ROOT_REASONS[top]}", False)
    for keyword in MEMBERS:
        if keyword in schema:
            yield (
                path + (keyword,),
                f"'{keyword}' is not supported on the root of '{top}'",
                True,
            )


#: Why the root of each schema of a contract is one object: the arguments' and the result's.
_ROOT_REASONS = {
    "parameters": "tool arguments are one JSON object",
    "output": "a tool's result is one JSON object (MCP's structuredContent)",
}


#: OpenAPI 3.0's keyword for "may also be null", which JSON Schema says in ``type``.
NULLABLE = "nullable"


def nullable_hint(schema: dict[str, Any]) -> str:
    """The hint for an unknown ``nullable`` keyword: the ``type`` that says the same in JSON
    Schema (``"null"`` added to the types listed), or that ``nullable: false`` says nothing."""
    if schema.get(NULLABLE) is not True:
        return f" (OpenAPI 3.0's); JSON Schema has no '{NULLABLE}': a value is null only where 'type' allows it, so remove it"
    declared = schema.get(TYPE)
    names = declared if isinstance(declared, list) else [declared]
    if not names or not all(isinstance(name, str) for name in names):
        return (
            f" (OpenAPI 3.0's); JSON Schema says 'may be null' in '{TYPE}': add a '{TYPE}' that lists "
            '"null" with the other types allowed, such as type: [string, "null"]'
        )
    if "null" in names:
        return f" (OpenAPI 3.0's); '{TYPE}' already allows null here, so remove it"
    written = ", ".join([*names, '"null"'])
    return f" (OpenAPI 3.0's); JSON Schema says 'may be null' in '{TYPE}': write type: [{written}] and remove '{NULLABLE}'"


def declared_types(
    schema: dict[str, Any], path: SchemaPath
) -> tuple[tuple[str, ...] | None, list[Problem]]:
    """The types ``type`` allows (None when it is absent or wrong), and its problems."""
    if TYPE not in schema:
        return None, []
    raw = schema[TYPE]
    names = raw if isinstance(raw, list) else [raw]
    if isinstance(raw, list) and not raw:
        return None, [(path + (TYPE,), "'type' must name at least one type")]
    problems: list[Problem] = []
    good: list[str] = []
    for i, name in enumerate(names):
        where = path + (TYPE, i) if isinstance(raw, list) else path + (TYPE,)
        problem = _type_name_problem(name, good)
        if problem:
            problems.append((where, problem))
        else:
            good.append(name)
    return (tuple(good) if len(good) == len(names) else None), problems


def _type_name_problem(name: Any, good: list[str]) -> str:
    """What is wrong with one name listed under ``type`` ("" when nothing)."""
    if name is None:
        return (
            "an unquoted null here is YAML's null value, not the type name: write 'null' in quotes "
            "(type: [string, 'null'])"
        )
    if not isinstance(name, str):
        return (
            f"'type' takes type names (strings such as string or 'null'), not {with_article(json_type(name))} "
            f"({yaml_text(name)}); the types are {', '.join(JSON_TYPES)}"
        )
    if name not in JSON_TYPES:
        hint = suggest(name, JSON_TYPES)
        return f"'{name}' is not a JSON type (one of {', '.join(JSON_TYPES)}){hint}"
    if name in good:
        return f"type '{name}' is listed twice"
    return ""


def check(
    schema: dict[str, Any], path: SchemaPath, types: tuple[str, ...] | None
) -> Iterator[Problem]:
    """The problems of ``enum`` and ``const``: a member listed twice or of a type ``types``
    refuses, a ``const`` outside the ``enum``."""
    if ENUM in schema:
        yield from _enum(schema[ENUM], path + (ENUM,), types)
    if CONST in schema:
        const = schema[CONST]
        if not type_allows(types, const):
            yield (
                path + (CONST,),
                f"'const' is {with_article(json_type(const))}, which 'type' ({', '.join(types or ())}) does not allow: "
                "nothing could pass",
            )
        if isinstance(schema.get(ENUM), list) and not enum_has(schema[ENUM], const):
            yield path + (CONST,), "'const' is not one of the 'enum' values: nothing could pass"


def _enum(enum: Any, path: SchemaPath, types: tuple[str, ...] | None) -> Iterator[Problem]:
    if not isinstance(enum, list) or not enum:
        yield path, "'enum' must be a non-empty list of allowed values"
        return
    seen: set[Hashable] = set()  # json_key: one look-up per value, not a pass
    for i, member in enumerate(enum):
        key = json_key(member)
        if key in seen:
            yield path + (i,), f"the 'enum' value {yaml_text(member)} is listed twice"
        seen.add(key)
        if member is None and not type_allows(types, member):
            yield (
                path + (i,),
                f"this 'enum' value is null, which 'type' ({', '.join(types or ())}) does not allow: "
                "write 'null' in quotes if you mean the string, or add 'null' to 'type'",
            )
        elif not type_allows(types, member):
            yield (
                path + (i,),
                f"the 'enum' value {yaml_text(member)} is {with_article(json_type(member))}, "
                f"which 'type' ({', '.join(types or ())}) does not allow: it could never pass",
            )


def dead_members(schema: dict[str, Any], path: SchemaPath, failures: Failures) -> Iterator[Problem]:
    """The ``enum`` members and the ``const`` that the rest of their schema refuses: each is
    still listed to the model as allowed, a contract bug."""
    rest = {k: v for k, v in schema.items() if k not in MEMBERS}
    for i, member in enumerate(schema.get(ENUM) or ()):
        codes = failures(rest, member)
        if codes:
            yield (
                path + (ENUM, i),
                f"the 'enum' value {yaml_text(member)} could never pass: this schema's {codes} refuses it",
            )
    if CONST in schema:
        codes = failures(rest, schema[CONST])
        if codes:
            yield (
                path + (CONST,),
                f"'const' {yaml_text(schema[CONST])} could never pass: this schema's {codes} refuses it",
            )
