"""The model's checks of an array: its size and uniqueness, then prefixItems, contains and
items (codegen stage).

The size checks run on the whole array; ``prefixItems`` check the items at their positions,
``items`` every item after them (in one loop over an index), and ``contains`` counts the
items its function accepts (``_count_matches``). ``codegen/building/nodes.py`` calls
:func:`array_checks` for the array branch of a node; the result is printed by the array
macros of ``templates/checks.py.j2``, and ``uniqueItems``' ``has_duplicates`` by its helper in
``templates/_runtime.py.j2``.
"""

from __future__ import annotations

from typing import Any

from ...codegen.building.context import BuildContext
from ...codegen.building.counts import CountRow, count_checks, counted
from ...codegen.building.functions import function
from ...codegen.literals import Code, literal
from ...codegen.model_parts import ArrayChecks, Check, Contains, Node, PathPart, extend
from ...schema.pointers import SchemaPath

#: The item count bounds' rows for the shared size checks (``counts.py``), lower bound first.
ITEM_COUNTS: dict[str, CountRow] = {
    "minItems": ("shorter", "must have at least {}", "item"),
    "maxItems": ("longer", "must have at most {}", "item"),
}


def array_checks(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> ArrayChecks:
    """The checks of ``schema`` on an array ``var``; the steps run in the order they name things."""
    checks = count_checks(context, schema, label, ITEM_COUNTS)
    if schema.get("uniqueItems") is True:
        checks.append(
            Check(
                "has_duplicates",
                literal("uniqueItems"),
                context.say(f"{label} must not contain the same item twice"),
            )
        )
    index = context.namer.local("i")  # before the items: their own loops get i_2
    prefix = _prefix_items(context, schema, var, path, schema_path, label)
    contains = _contains(context, schema, schema_path, label)
    start = len(schema.get("prefixItems", []))
    item_path = extend(path, PathPart("index", var=index))
    item = _items(context, schema, var, item_path, schema_path, label)
    if not item.has_checks:
        return ArrayChecks(None, None, checks, prefix, contains, start)
    return ArrayChecks(index, item, checks, prefix, contains, start)


def _prefix_items(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> list[tuple[int, Node]]:
    """prefixItems: the node of each position that checks something."""
    prefix = []
    for i, sub in enumerate(schema.get("prefixItems", [])):
        child = context.child(
            sub,
            context.namer.local(f"{var}_{i}"),
            extend(path, PathPart("position", str(i))),
            schema_path + ("prefixItems", i),
            f"item {i} of {label}",
        )
        if child.has_checks:
            prefix.append((i, child))
    return prefix


def _contains(
    context: BuildContext, schema: dict[str, Any], schema_path: SchemaPath, label: str
) -> Contains | None:
    """contains with minContains and maxContains: how many items its function must accept."""
    if not (
        ("contains" in schema and schema.get("minContains", 1) != 0)
        or ("maxContains" in schema and "contains" in schema)
    ):
        return None
    low = int(schema.get("minContains", 1))
    high = int(schema["maxContains"]) if "maxContains" in schema else None
    return Contains(
        function=function(context, schema["contains"], schema_path + ("contains",), "an item"),
        minimum=low,
        maximum=high,
        too_few=context.say(
            f"{label} must contain at least {counted(low, 'item')} matching the 'contains' schema"
        ),
        too_many=context.say(
            f"{label} must contain at most {counted(high or 0, 'item')} matching the 'contains' schema"
        )
        if high is not None
        else None,
        too_few_code=literal("minContains" if "minContains" in schema else "contains"),
        too_many_code=literal("maxContains"),
    )


def _items(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    item_path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> Node:
    """items: the node of every item after the prefixItems positions."""
    after = len(schema.get("prefixItems", []))
    return context.child(
        schema.get("items", True),
        context.namer.local(f"{var}_item"),
        item_path,
        schema_path + ("items",),
        f"each item of {label}" + (f" after the first {counted(after, 'item')}" if after else ""),
    )
