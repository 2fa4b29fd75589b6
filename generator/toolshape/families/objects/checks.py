"""The model's checks of an object (codegen stage): its properties, then the keys it refuses
or checks one by one.

In the order the template prints them: ``properties`` (present or missing, then each value's
own checks), keys ``required`` without a schema, unknown keys refused
(``additionalProperties: false``), the per-key loop (``additionalProperties`` as a schema,
``patternProperties``, ``propertyNames``), the size (``minProperties``/``maxProperties``,
codegen/building/counts.py), ``dependentRequired`` and ``dependentSchemas``.
``codegen/building/nodes.py`` calls :func:`object_checks` for the object branch of a node;
each part is printed by the ``object_checks`` macro of ``templates/checks.py.j2``.

The order of the steps below is the order names and constants are made in, which the
generated code shows: a step moved renames variables in every module.
"""

from __future__ import annotations

import json
from typing import Any

from ...codegen.building.context import BuildContext, show
from ...codegen.building.counts import CountRow, count_checks
from ...codegen.literals import Code, comment_text, literal
from ...codegen.model_parts import (
    Conditional,
    Dependency,
    Node,
    ObjectChecks,
    PathPart,
    Property,
    RequiredKey,
    extend,
)
from ...families.strings import checks as string_family
from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ..values.rules import TYPE
from ..values.typing import declared_types
from .rules import ADDITIONAL, DEPENDENT_REQUIRED, PROPERTIES, REQUIRED

#: Keywords left out of a property's comment: they say nothing about what is accepted.
_ANNOTATIONS = vocabulary.annotation_names()
#: The property count bounds' rows for the shared size checks (``counts.py``), lower first.
PROPERTY_COUNTS: dict[str, CountRow] = {
    "minProperties": ("shorter", "must have at least {}", "key"),
    "maxProperties": ("longer", "must have at most {}", "key"),
}


def object_checks(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> ObjectChecks:
    """The checks of ``schema`` on an object ``var``; the steps run in the order they name things."""
    # The names this object's code may use around its properties first: the
    # properties' own objects and loops then get key_2, declared_2.
    key_var = context.namer.local("key")
    item_var = context.namer.local(f"{var}_value")
    count_var = context.namer.local("declared")
    key_path = extend(path, PathPart("key", var=key_var))
    settled = context.settled.get(schema_path)
    properties = _properties(context, schema, path, schema_path, settled)
    extra = _extra(context, schema, item_var, key_path, schema_path, label)
    key_limit = _key_limit(schema)
    pattern_properties = _pattern_properties(
        context, schema, item_var, key_path, schema_path, key_limit
    )
    property_names = _property_names(context, schema, key_var, key_path, schema_path)
    refuse_unknown = schema.get("additionalProperties", True) is False
    known = (
        _known_keys(context, schema, schema_path) if refuse_unknown or extra is not None else None
    )
    dependent_schemas = _dependent_schemas(context, schema, var, path, schema_path, label)
    checks = ObjectChecks(
        properties=properties,
        required_only=_required_only(schema, path, settled),
        known_keys=known,
        refuse_unknown=refuse_unknown,
        unknown_message=(
            _unknown_message(context, schema, schema_path, label) if refuse_unknown else None
        ),
        extra=extra,
        key_var=key_var,
        key_path=key_path,
        counts=count_checks(context, schema, label, PROPERTY_COUNTS),
        required_code=literal(REQUIRED),
        dependent_code=literal(DEPENDENT_REQUIRED),
        unknown_code=literal(ADDITIONAL),
        dependencies=_dependencies(schema, path),
        dependent_schemas=dependent_schemas,
        pattern_properties=pattern_properties,
        property_names=property_names,
        item_var=item_var,
        key_limit=literal(key_limit) if pattern_properties and key_limit is not None else None,
    )
    if checks.refuse_unknown and not checks.per_key:
        checks.count_var = count_var
    return checks


def _properties(
    context: BuildContext,
    schema: dict[str, Any],
    path: list[PathPart],
    schema_path: SchemaPath,
    settled: str | None,
) -> list[Property]:
    """properties: each key present or missing (``required``), then its value's own checks;
    for the ``settled`` key (a decisive union's tag, see BuildContext.settled), nothing: the
    union found it present, with a value that passes them all."""
    required = set(schema.get("required", []))  # a set: looked up once per key
    properties = []
    for key, sub in schema.get("properties", {}).items():
        sub_path = schema_path + ("properties", key)
        key_label = show(key)
        if key == settled:
            properties.append(_settled_property(context, key, path, sub_path))
            continue
        with context.namer.block():  # a sibling added or removed renames nothing here
            child = context.child(
                sub,
                context.namer.local(key),
                extend(path, PathPart("name", key)),
                sub_path,
                key_label,
            )
        if key in required:
            child.mark_required(Code("True"))
        properties.append(
            Property(
                key=literal(key),
                node=child,
                required=key in required,
                missing_message=literal(f"missing required key {key_label}"),
                comment=property_comment(context, key, sub, key in required, sub_path),
            )
        )
    return properties


def _settled_property(
    context: BuildContext, key: str, path: list[PathPart], schema_path: SchemaPath
) -> Property:
    """The tag's entry in an alternative its union picked by the tag: no check, and no
    value read (the object's count of declared keys still counts it)."""
    nothing = Node(Code("_"), extend(path, PathPart("name", key)), "", False, [], None, [], None)
    words = comment_text(f"{key}: the tag, checked before this alternative is chosen", limit=80)
    note = Code(f"{words} ({comment_text(context.where(schema_path), limit=120)})")
    missing = literal(f"missing required key {show(key)}")
    return Property(
        key=literal(key), node=nothing, required=False, missing_message=missing, comment=note
    )


def _required_only(
    schema: dict[str, Any], path: list[PathPart], settled: str | None
) -> list[RequiredKey]:
    """The keys ``required`` lists that ``properties`` does not (but the ``settled`` one)."""
    properties = schema.get("properties", {})
    return [
        RequiredKey(
            literal(key),
            extend(path, PathPart("name", key)),
            literal(f"missing required key {show(key)}"),
        )
        for key in schema.get("required", [])
        if key not in properties and key != settled
    ]


def _extra(
    context: BuildContext,
    schema: dict[str, Any],
    item_var: Code,
    key_path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> Node | None:
    """additionalProperties as a schema: the node of each undeclared key's value."""
    additional = schema.get("additionalProperties", True)
    if not isinstance(additional, dict):
        return None
    extra = context.child(
        additional,
        item_var,
        key_path,
        schema_path + ("additionalProperties",),
        f"the value of each extra key in {label}",
    )
    return extra if extra.has_checks else None


def _key_limit(schema: dict[str, Any]) -> int | None:
    """propertyNames' maxLength: key patterns may rely on it (ObjectChecks.key_limit)."""
    names = schema.get("propertyNames")
    return string_family.pattern_bound(names) if isinstance(names, dict) else None


def _pattern_properties(
    context: BuildContext,
    schema: dict[str, Any],
    item_var: Code,
    key_path: list[PathPart],
    schema_path: SchemaPath,
    key_limit: int | None,
) -> list[Conditional]:
    """patternProperties: for each pattern, its matcher and the node of a matching key's value."""
    found = []
    for pattern, sub in schema.get("patternProperties", {}).items():
        child = context.child(
            sub,
            item_var,
            key_path,
            schema_path + ("patternProperties", pattern),
            f"the value of a key matching {pattern}",
        )
        name = context.pattern_constant(
            "key_pattern", pattern, schema_path + ("patternProperties",), key_limit
        )
        found.append(Conditional(name, child))
    return found


def _property_names(
    context: BuildContext,
    schema: dict[str, Any],
    key_var: Code,
    key_path: list[PathPart],
    schema_path: SchemaPath,
) -> Node | None:
    """propertyNames: the node every key is checked by, as a string."""
    if "propertyNames" not in schema:
        return None
    names = context.node(
        schema["propertyNames"], key_var, key_path, schema_path + ("propertyNames",), "each key"
    )
    return names if names.has_checks else None


def _known_keys(context: BuildContext, schema: dict[str, Any], schema_path: SchemaPath) -> Code:
    """The frozenset constant of the declared keys: a key outside it is extra."""
    declared = literal(frozenset(schema.get("properties", {})))
    return context.constant("keys", "strings", declared, schema_path + ("properties",))


def _unknown_message(
    context: BuildContext, schema: dict[str, Any], schema_path: SchemaPath, label: str
) -> Code:
    """additionalProperties: false: the message after the key that is not allowed (a module
    constant, ``_VALUE_KEY_NOT_ALLOWED``; after a $ref target's label, ``_X_ALLOWED_KEYS``)."""
    allowed = ", ".join(show(k) for k in schema.get("properties", {})) or "none"
    return context.message_constant(
        f" is not allowed in {label}; allowed keys: {allowed}",
        "key not allowed",
        schema_path + ("additionalProperties",),
        tail_suffix="allowed keys",
    )


def _dependencies(schema: dict[str, Any], path: list[PathPart]) -> list[Dependency]:
    """dependentRequired: the keys each present key needs."""
    return [
        Dependency(
            literal(key),
            [
                RequiredKey(
                    literal(need),
                    extend(path, PathPart("name", need)),
                    literal(f"{show(need)} is required when {show(key)} is present"),
                )
                for need in needs
            ],
        )
        for key, needs in schema.get("dependentRequired", {}).items()
        if needs
    ]


def _dependent_schemas(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> list[Conditional]:
    """dependentSchemas: the node applied to the whole object when its key is present."""
    found = [
        Conditional(
            literal(key),
            context.node(sub, var, path, schema_path + ("dependentSchemas", key), label),
        )
        for key, sub in schema.get("dependentSchemas", {}).items()
    ]
    return [c for c in found if c.node.has_checks]


def property_comment(
    context: BuildContext, key: str, schema: Any, required: bool, schema_path: SchemaPath
) -> Code:
    """The comment above a property's block: what its schema asks, and where it is written."""
    words = ["required" if required else "optional"]
    if isinstance(schema, dict):
        types = declared_types(schema)
        if types:
            words.append(" or ".join(types))
        for keyword, value in schema.items():
            if (
                keyword in (TYPE, PROPERTIES, "items", ADDITIONAL, REQUIRED)
                or keyword in _ANNOTATIONS
            ):
                continue
            if keyword.startswith("x-"):
                if keyword == "x-sensitive" and value:
                    words.append("sensitive")
                continue
            words.append(f"{keyword} {_compact(value)}")
    elif schema is False:
        words.append("never allowed")
    text = comment_text(f"{key}: " + ", ".join(words), limit=80)
    return Code(f"{text} ({comment_text(context.where(schema_path), limit=120)})")


def _compact(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
