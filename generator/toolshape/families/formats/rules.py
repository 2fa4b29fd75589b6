"""What the contract check says of ``format`` (contract stage).

A format must be one of the formats JSON Schema 2020-12 names (``schema/vocabulary.py``'s
``FORMATS``): toolshape asserts every one of them, so an unknown name is a typo, reported
with a did-you-mean hint. ``contract/checker.py`` calls :func:`check` on every schema and
reports what it yields.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...contract.wording import suggest
from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ...schema.values import json_type

#: The keyword naming the format.
(FORMAT,) = vocabulary.taking("format")
#: The formats a contract may name.
FORMATS = vocabulary.format_names()

#: One problem: where (a schema path from the document root) and what.
Problem = tuple[SchemaPath, str]


def check(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """The problems of ``format`` in one schema."""
    if FORMAT not in schema:
        return
    name = schema[FORMAT]
    if not isinstance(name, str) or name not in FORMATS:
        shown = name if isinstance(name, str) else json_type(name)
        hint = suggest(shown, FORMATS)
        yield (
            path + (FORMAT,),
            f"format '{shown}' is not a JSON Schema 2020-12 format ({', '.join(FORMATS)}){hint}",
        )
