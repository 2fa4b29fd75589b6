"""The keywords that apply whole subschemas to the same value: ``$ref`` and the combinators,
each built by its family (``families/references/checks.py``, ``families/combinators/checks.py``).

Each becomes an :class:`~toolshape.codegen.model_parts.Applicator`: ``$ref`` calls its
target's function, once per reference; the combinators' applicators follow it.
"""

from __future__ import annotations

from typing import Any

from ...families.combinators.checks import combinator_checks
from ...families.references import checks as reference_checks
from ...schema.pointers import SchemaPath
from ..literals import Code
from ..model_parts import Applicator, PathPart
from .context import BuildContext


def applicators(
    context: BuildContext,
    schema: dict[str, Any],
    var: Code,
    path: list[PathPart],
    schema_path: SchemaPath,
    label: str,
) -> list[Applicator]:
    found = reference_checks.reference_call(context, schema, var, path, schema_path, label)
    found += combinator_checks(context, schema, var, path, schema_path, label)
    return found
