"""The model's checks of a string's length (minLength, maxLength) and pattern (codegen stage).

``codegen/building/strings.py`` calls :func:`length_checks` first, then :func:`pattern_check`
(an asserted ``format`` comes after both): the pattern an ``elif`` of ``maxLength``, so a
string too long never reaches the pattern's matcher, and a matcher proved linear only on
strings up to ``maxLength`` may run as ``re`` (``regex.linear``). Each
:class:`~toolshape.codegen.model_parts.Check` is printed by its macro in
``templates/checks.py.j2`` (``shorter``, ``longer``, ``blank``, ``no_match``).
"""

from __future__ import annotations

from typing import Any

from ...codegen.building.context import BuildContext, length_limit
from ...codegen.building.counts import CountRow, count_checks
from ...codegen.literals import literal
from ...codegen.model_parts import Check
from ...schema.pointers import SchemaPath

#: The length bounds' rows for the shared size checks (``counts.py``), lower bound first.
LENGTHS: dict[str, CountRow] = {
    "minLength": ("shorter", "must be at least {} long", "character"),
    "maxLength": ("longer", "must be at most {} long", "character"),
}

#: Patterns that only ask for one non-whitespace character ("not blank").
NON_BLANK_PATTERNS = ("\\S", "[^\\s]")


def length_checks(context: BuildContext, schema: dict[str, Any], label: str) -> list[Check]:
    """The checks of ``schema``'s length bounds, for a string called ``label``."""
    return count_checks(context, schema, label, LENGTHS)


def pattern_bound(schema: dict[str, Any]) -> int | None:
    """The ``maxLength`` of ``schema`` as the bound its pattern may rely on (None: none)."""
    return length_limit(schema.get("maxLength"))


def pattern_check(
    context: BuildContext,
    schema: dict[str, Any],
    label: str,
    schema_path: SchemaPath,
) -> Check | None:
    """The check of ``schema``'s pattern (None: it has none), to follow the length checks
    directly: an ``elif`` of ``maxLength`` when there is one, relying on its bound."""
    if "pattern" not in schema:
        return None
    pattern = schema["pattern"]
    message = context.say(f"{label} must match the pattern {pattern}")
    # Length bounds run first; a too-long string never reaches the regex.
    chained = "maxLength" in schema
    if pattern in NON_BLANK_PATTERNS:
        # No regex needed: one character that is not ECMA-262 whitespace
        # is there exactly when stripping that whitespace leaves something.
        spaces = context.whitespace_constant()
        return Check("blank", literal("pattern"), message, spaces, chained=chained)
    bound = pattern_bound(schema)
    name = context.pattern_constant("pattern", pattern, schema_path + ("pattern",), bound)
    return Check("no_match", literal("pattern"), message, name, chained=chained)
