"""The checks of a string: its length (counts.py), an asserted ``format`` and ``pattern``.

They run in that order, each an ``elif`` of the last where the pattern may rely on it: a
string too long never reaches the pattern's matcher, so a matcher proved linear only on
strings up to ``maxLength`` may run as ``re`` (``regex.linear``).
"""

from __future__ import annotations

from typing import Any

from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ..literals import Code, literal
from ..model_parts import Check
from .context import BuildContext, length_limit
from .counts import count_checks

#: The formats asserted, and how messages describe them.
FORMATS = vocabulary.format_phrases()


def format_function(name: str) -> str:
    """The runtime helper that checks a format: ``date-time`` -> ``_is_date_time``."""
    return "_is_" + name.replace("-", "_")


#: Patterns that only ask for one non-whitespace character ("not blank").
NON_BLANK_PATTERNS = ("\\S", "[^\\s]")


def string_checks(
    context: BuildContext, schema: dict[str, Any], label: str, schema_path: SchemaPath
) -> list[Check]:
    checks = count_checks(context, schema, label, ("minLength", "maxLength"))
    if "format" in schema and schema["format"] in FORMATS:
        name = schema["format"]
        checks.append(
            Check(
                "bad_format",
                literal("format"),
                context.say(f"{label} must be {FORMATS[name]}"),
                Code(format_function(name)),
            )
        )
    if "pattern" in schema:
        checks.append(_pattern_check(context, schema, label, schema_path))
    return checks


def _pattern_check(
    context: BuildContext, schema: dict[str, Any], label: str, schema_path: SchemaPath
) -> Check:
    pattern = schema["pattern"]
    message = context.say(f"{label} must match the pattern {pattern}")
    # Length bounds run first; a too-long string never reaches the regex.
    chained = "maxLength" in schema
    if pattern in NON_BLANK_PATTERNS:
        # No regex needed: one character that is not ECMA-262 whitespace
        # is there exactly when stripping that whitespace leaves something.
        spaces = context.whitespace_constant()
        return Check("blank", literal("pattern"), message, spaces, chained=chained)
    # The bound re_is_bounded may rely on: the pattern's elif follows the
    # maxLength check directly (an asserted format in between breaks the chain).
    formatted = schema.get("format") in FORMATS
    bound = None if formatted else length_limit(schema.get("maxLength"))
    name = context.pattern_constant("pattern", pattern, schema_path + ("pattern",), bound)
    return Check("no_match", literal("pattern"), message, name, chained=chained)
