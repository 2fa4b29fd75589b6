"""The keywords that apply whole subschemas to the same value: ``$ref`` here, the
combinators in their family (``families/combinators/checks.py``).

Each becomes an :class:`~toolshape.codegen.model_parts.Applicator`: ``$ref`` calls its
target's function, once per reference; the combinators' applicators follow it.
"""

from __future__ import annotations

from typing import Any

from ...families.combinators.checks import combinator_checks
from ...schema.pointers import SchemaPath
from ..literals import Code
from ..model_parts import Applicator, PathPart
from .context import BuildContext
from .functions import applicator_note, ref_function


def applicators(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> list[Applicator]:
    found: list[Applicator] = []
    if "$ref" in schema:
        made = ref_function(context, schema["$ref"])
        note = applicator_note(context, schema_path, "$ref")
        found.append(Applicator("ref", note, function=made, label=context.say(label)))
    found += combinator_checks(context, schema, var, path, schema_path, label)
    return found
