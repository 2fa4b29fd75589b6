"""The reference evaluation of the array keywords (contract stage).

Part of the oracle of the generated tests: ``contract/reference.py`` calls :func:`refused`
on every array it meets. It counts the items, compares them pairwise for ``uniqueItems``
(as JSON values: 1 and 1.0 are equal, true and 1 are not), hands each item to the schema of
its position (``prefixItems``, then ``items``) and counts the items ``contains`` matches.
Plain on purpose, and written apart from the generated checks (``checks.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...schema.values import json_equal

#: Evaluates the item at an index against a subschema, adding what it refuses to the errors.
CheckItem = Callable[[Any, int], None]
#: Whether a value passes a subschema.
Matches = Callable[[Any, Any], bool]


def refused(
    schema: dict[str, Any], value: list[Any], check_item: CheckItem, matches: Matches
) -> Iterator[str]:
    """The family's keywords of ``schema`` that refuse the array ``value`` itself; each item
    goes to ``check_item`` with the schema of its position on the way."""
    if len(value) < schema.get("minItems", 0):
        yield "minItems"
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        yield "maxItems"
    if schema.get("uniqueItems") is True and any(
        json_equal(a, b) for i, a in enumerate(value) for b in value[i + 1 :]
    ):
        yield "uniqueItems"
    prefix = schema.get("prefixItems", [])
    for i, sub in enumerate(prefix[: len(value)]):
        check_item(sub, i)
    if "items" in schema:
        for i in range(len(prefix), len(value)):
            check_item(schema["items"], i)
    if "contains" in schema:
        found = sum(1 for item in value if matches(schema["contains"], item))
        if found < schema.get("minContains", 1):
            yield "minContains" if "minContains" in schema else "contains"
        if "maxContains" in schema and found > schema["maxContains"]:
            yield "maxContains"
