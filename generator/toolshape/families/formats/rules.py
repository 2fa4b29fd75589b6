"""What the contract check says of ``format`` (contract stage).

A format toolshape knows is one JSON Schema 2020-12 names (``schema/vocabulary.py``'s
``FORMATS``), and toolshape asserts every one of them. Any other name is legal JSON Schema,
where an unknown format is an annotation: it is kept as one, with a warning, and nothing
checks it (:func:`warnings`). A name close to a known one (``emial``) is surely a typo, and
an error with a did-you-mean hint (:func:`check`), as is a value that is not a string.
``contract/checker.py`` calls both on every schema and reports what they yield.
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
    """The errors of ``format`` in one schema: a value that is not a name, or a near miss of
    a known name."""
    if FORMAT not in schema:
        return
    name = schema[FORMAT]
    if not isinstance(name, str):
        yield (
            path + (FORMAT,),
            f"'{FORMAT}' must be a format name (a string such as email), not "
            f"{json_type(name)}; the formats checked are {', '.join(FORMATS)}",
        )
    elif name not in FORMATS and suggest(name, FORMATS):
        yield (
            path + (FORMAT,),
            f"format '{name}' is not a JSON Schema 2020-12 format ({', '.join(FORMATS)})"
            + suggest(name, FORMATS),
        )


def warnings(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """An unknown format that is no near miss of a known one: an annotation, not checked."""
    name = schema.get(FORMAT)
    if isinstance(name, str) and name not in FORMATS and not suggest(name, FORMATS):
        yield (
            path + (FORMAT,),
            f"format '{name}' is not one toolshape knows ({', '.join(FORMATS)}): it is kept as "
            "an annotation, as JSON Schema 2020-12 reads an unknown format, and nothing checks it",
        )
