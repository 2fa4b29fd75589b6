"""What the contract check says of ``type``, ``enum`` and ``const`` (contract stage).

``type`` names JSON types, each once, quoted when it is ``'null'``; ``enum`` is a list (a
member listed twice or of a type ``type`` refuses is legal: a warning). A mapping at the root
of ``parameters`` (and of ``output``) is one JSON object: ``type: object``, and no ``enum`` or
``const`` (``true`` and ``false`` are roots too: the checker reads them as object schemas).
``contract/checker.py`` calls :func:`root` on the root, :func:`declared_types`, :func:`check`
and :func:`warnings` on every schema, and, once the whole contract is well-formed,
:func:`dead_members` and :func:`dead_const` (judged by the reference evaluator the checker
hands in).

Legal JSON Schema that no value can pass (an empty ``enum``, a ``const`` its schema refuses)
keeps its exact meaning: a warning, "as written, no value can pass here", and a generated
check that refuses every value there. :func:`no_value` says when ``enum``/``const`` let no
value pass (the generated node and the reference evaluator then refuse with the code
``false``); :func:`unsatisfiable` when a whole schema does, so that the witness engine does
not search it and the derived cases expect its refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

from ...contract.wording import suggest, with_article, yaml_text
from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ...schema.values import enum_has, is_integer, json_key, json_type, type_allows
from ..arrays import rules as array_rules
from ..numbers import rules as number_rules
from ..objects import rules as object_rules

TYPE = "type"
ENUM = "enum"
CONST = "const"
#: The keywords that list the values a schema allows, refused on the root (one object).
MEMBERS = (ENUM, CONST)
JSON_TYPES = vocabulary.JSON_TYPES
#: The keywords whose every schema applies to the value and must pass (``allOf``), read from
#: the table: the combinators family (above this one, it reads the tags' values here) owns them.
_EVERY_ONE_PASSES = tuple(
    k.name for k in vocabulary.KEYWORDS if k.collects == "always" and k.shape == "list"
)


def _conjuncts(schema: dict[str, Any]) -> list[Any]:
    """The schemas of ``schema`` that must all pass on its value (an ``allOf``'s entries)."""
    return [
        entry
        for keyword in _EVERY_ONE_PASSES
        if isinstance(schema.get(keyword), list)
        for entry in schema[keyword]
    ]


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


def object_root(root: Any) -> Any:
    """The schema every later stage reads for a contract's root: JSON Schema's ``true`` or
    ``false`` spelled as the object schema it means, else ``root`` itself. The arguments and
    a result are one JSON object (the generated validator refuses any other value whatever
    the schema), so ``true`` is every object and ``false`` none: one conjunct that is
    ``false``, which the generated code and the reference evaluator refuse with its own
    code and message."""
    if root is True:
        return {TYPE: "object"}
    if root is False:
        return {TYPE: "object", _EVERY_ONE_PASSES[0]: [False]}
    return root


#: Why the root of each schema of a contract is one object: the arguments' and the result's.
_ROOT_REASONS = {
    "parameters": "tool arguments are one JSON object",
    "output": "a tool's result is one JSON object (MCP's structuredContent)",
}


#: OpenAPI 3.0's keyword for "may also be null", which JSON Schema says in ``type``.
NULLABLE = "nullable"


def admits_no_object(schema: dict[str, Any]) -> bool:
    """Whether the schema's ``type``, ``const`` or ``enum`` lets no object pass, as written."""
    kinds = type_names(schema)
    enum = schema.get(ENUM)
    return (
        (kinds is not None and "object" not in kinds)
        or (CONST in schema and not isinstance(schema[CONST], dict))
        or (isinstance(enum, list) and not any(isinstance(member, dict) for member in enum))
    )


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
    """The problems of ``enum``: a value that is not a list."""
    if ENUM in schema and not isinstance(schema[ENUM], list):
        yield path + (ENUM,), "'enum' must be a list of allowed values"


def warnings(
    schema: dict[str, Any], path: SchemaPath, types: tuple[str, ...] | None
) -> Iterator[Problem]:
    """Legal ``enum`` and ``const`` that no value can pass (an empty ``enum``, a ``const`` of
    a type ``type`` refuses or outside the ``enum``): JSON Schema's meaning is exact, so the
    generated code refuses every value here, and the contract check warns. Members listed
    twice or of a type ``type`` refuses are legal too (a duplicate changes nothing, a dead
    member never passes): warned of, and generated as they mean."""
    if ENUM not in schema and CONST not in schema:
        return  # (most schemas: nothing to warn of, without reading their type)
    if isinstance(schema.get(ENUM), list):
        yield from _enum(schema[ENUM], path + (ENUM,), types)
    reason = no_value(schema, types)
    if reason:
        where = (CONST,) if reason.startswith(_CONST_REASON) else (ENUM,)
        yield path + where, f"{reason}: {NO_VALUE}"


#: What the warnings of a place no value can pass say of it.
NO_VALUE = "as written, no value can pass here"
_EMPTY_ENUM = "'enum' lists no value"
#: How each reason that names the ``const`` (rather than the ``enum``) begins.
_CONST_REASON = "'const'"


def no_value(schema: dict[str, Any], types: tuple[str, ...] | None = None) -> str:
    """Why ``enum`` and ``const`` let no value pass ``schema`` ("" when they let some): an
    empty ``enum``, an ``enum`` whose every member ``type`` refuses, a ``const`` of a type
    ``type`` refuses or outside the ``enum``.
    ``types``: what ``type`` allows, read from the schema when not given. Cheap: the
    reference evaluator asks it of every schema it applies."""
    if ENUM in schema and schema[ENUM] == []:
        return _EMPTY_ENUM
    if types is None:
        types = type_names(schema)
    enum = schema.get(ENUM)
    if isinstance(enum, list) and not any(type_allows(types, member) for member in enum):
        return (
            f"no 'enum' value is of a type that 'type' ({', '.join(map(str, types or ()))}) allows"
        )
    if CONST not in schema:
        return ""
    const = schema[CONST]
    if not type_allows(types, const):
        return (
            f"'const' is {with_article(json_type(const))}, which 'type' "
            f"({', '.join(str(t) for t in types or ())}) does not allow"
        )
    if isinstance(schema.get(ENUM), list) and not enum_has(schema[ENUM], const):
        return "'const' is not one of the 'enum' values"
    return ""


def type_names(schema: dict[str, Any]) -> tuple[Any, ...] | None:
    """The types ``schema``'s ``type`` names, as written (one name as a tuple of one; None
    without ``type``): every stage reads a schema's types through this."""
    if TYPE not in schema:
        return None
    declared = schema[TYPE]
    return tuple(declared) if isinstance(declared, list) else (declared,)


#: Whether a schema refuses a value: the reference evaluator's verdict, handed in by the
#: stages that hold it (the contract check, the witness engine, the derived cases).
Refuses = Callable[[Any, Any], bool]


def unsatisfiable(schema: Any, refuses: Refuses | None = None) -> bool:
    """Whether no value at all can pass ``schema`` as it is written, as far as its own
    keywords tell: ``false``, an ``enum``/``const`` no value passes (:func:`no_value`), an
    ``enum``/``const`` whose every value the rest of the schema ``refuses`` (``const: ab``
    beside ``maxLength: 1``: asked only when ``refuses`` is given), an
    object-only schema that no object passes (the objects family's
    :func:`~toolshape.families.objects.rules.no_object`), a count range of the one type it
    allows that leaves no count, number bounds that leave no number where only numbers pass, or a conjunct (an ``allOf`` entry) that is
    unsatisfiable. A ``$ref`` is not followed: True is always right, False may miss one."""
    if schema is False:
        return True
    if not isinstance(schema, dict):
        return False
    if no_value(schema) or _no_count_between(schema) or _no_number_between(schema):
        return True
    if refuses is not None and _every_listed_value_refused(schema, refuses):
        return True
    if any(unsatisfiable(entry, refuses) for entry in _conjuncts(schema)):
        return True
    if schema.get(TYPE) in ("array", ["array"]) and array_rules.no_array(schema):
        return True
    return schema.get(TYPE) in ("object", ["object"]) and object_rules.no_object(
        schema, lambda sub: unsatisfiable(sub, refuses)
    )


def _every_listed_value_refused(schema: dict[str, Any], refuses: Refuses) -> bool:
    """Whether ``schema`` lists its values (``enum``/``const``) and the rest of it refuses
    each one: the same class as a ``const`` of a type ``type`` refuses, for every other
    keyword (a bound, a count, a pattern, a format, a subschema). Stops at the first value
    that passes, which is nearly always the first."""
    if not is_fixed(schema):
        return False
    rest = {k: v for k, v in schema.items() if k not in MEMBERS}
    return all(refuses(rest, value) for value in fixed_values(schema))


#: The count ranges (low, high, the one type they apply to) that can leave no value: every
#: inclusive range but the numbers' (their bounds are the numbers family's rules).
_COUNT_RANGES = tuple(r for r in vocabulary.ranges() if r[2] not in ("number", "integer"))


def _no_number_between(schema: dict[str, Any]) -> bool:
    """Whether a schema that allows numbers only has bounds that leave none (the numbers
    family's warnings)."""
    declared = schema.get(TYPE)
    listed: list[Any] = declared if isinstance(declared, list) else [declared]
    kinds = tuple(str(kind) for kind in listed if kind in ("integer", "number"))
    return (
        bool(kinds) and len(kinds) == len(listed) and any(number_rules.warnings(schema, (), kinds))
    )


def _no_count_between(schema: dict[str, Any]) -> bool:
    """Whether a count range of the one type ``schema`` allows leaves no count
    (``minLength`` above ``maxLength`` under ``type: string``; the contract check warns)."""
    declared = schema.get(TYPE)
    for low, high, kind in _COUNT_RANGES:
        lo, hi = schema.get(low), schema.get(high)
        needed = vocabulary.keyword(low).needs
        if (
            declared in (kind, [kind])
            and is_integer(lo)
            and is_integer(hi)
            and lo > hi
            and (not needed or needed in schema)
        ):
            return True
    return False


def _enum(enum: list[Any], path: SchemaPath, types: tuple[str, ...] | None) -> Iterator[Problem]:
    """The members of ``enum`` listed twice or of a type ``types`` refuses."""
    seen: set[Hashable] = set()  # json_key: one look-up per value, not a pass
    for i, member in enumerate(enum):
        key = json_key(member)
        if key in seen:
            yield (
                path + (i,),
                f"the 'enum' value {yaml_text(member)} is listed twice: the second changes nothing",
            )
        seen.add(key)
        if member is None and not type_allows(types, member):
            yield (
                path + (i,),
                f"this 'enum' value is null, which 'type' ({', '.join(types or ())}) does not allow: "
                "it never passes; write 'null' in quotes if you mean the string, or add 'null' to 'type'",
            )
        elif not type_allows(types, member):
            yield (
                path + (i,),
                f"the 'enum' value {yaml_text(member)} is {with_article(json_type(member))}, "
                f"which 'type' ({', '.join(types or ())}) does not allow: it never passes (the validator refuses it)",
            )


def dead_members(schema: dict[str, Any], path: SchemaPath, failures: Failures) -> Iterator[Problem]:
    """The ``enum`` members that the rest of their schema refuses, but for those of a type
    ``type`` refuses (:func:`warnings` names them): legal JSON Schema, and the member never
    passes, yet it is still listed to the model as allowed (a warning)."""
    rest = {k: v for k, v in schema.items() if k not in MEMBERS}
    types = type_names(schema)
    for i, member in enumerate(schema.get(ENUM) or ()):
        codes = failures(rest, member) if type_allows(types, member) else ""
        if codes:
            yield (
                path + (ENUM, i),
                f"the 'enum' value {yaml_text(member)} never passes: this schema's {codes} "
                "refuses it (the validator refuses it)",
            )


def dead_const(schema: dict[str, Any], path: SchemaPath, failures: Failures) -> Iterator[Problem]:
    """A ``const`` the rest of its schema refuses (a warning: legal, and no value passes;
    one :func:`warnings` already names is not named twice)."""
    if CONST not in schema or no_value(schema):
        return
    rest = {k: v for k, v in schema.items() if k not in MEMBERS}
    codes = failures(rest, schema[CONST])
    if codes:
        yield (
            path + (CONST,),
            f"'const' {yaml_text(schema[CONST])} could never pass: this schema's {codes} "
            f"refuses it: {NO_VALUE}",
        )
