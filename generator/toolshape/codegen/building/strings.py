"""The checks of a string: its length, an asserted ``format`` and ``pattern``.

They run in that order, each an ``elif`` of the last where the pattern may rely on it: a
string too long never reaches the pattern's matcher, so a matcher proved linear only on
strings up to ``maxLength`` may run as ``re`` (``regex.linear``). The length and pattern
checks are the strings family's (``families/strings/checks.py``); this module orders them
around the format check.
"""

from __future__ import annotations

from typing import Any

from ...families.strings import checks as string_family
from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ..literals import Code, literal
from ..model_parts import Check
from .context import BuildContext

#: The formats asserted, and how messages describe them.
FORMATS = vocabulary.format_phrases()


def format_function(name: str) -> str:
    """The runtime helper that checks a format: ``date-time`` -> ``_is_date_time``."""
    return "_is_" + name.replace("-", "_")


def string_checks(
    context: BuildContext, schema: dict[str, Any], label: str, schema_path: SchemaPath
) -> list[Check]:
    checks = string_family.length_checks(context, schema, label)
    formatted = "format" in schema and schema["format"] in FORMATS
    if formatted:
        name = schema["format"]
        checks.append(
            Check(
                "bad_format",
                literal("format"),
                context.say(f"{label} must be {FORMATS[name]}"),
                Code(format_function(name)),
            )
        )
    pattern = string_family.pattern_check(
        context, schema, label, schema_path, follows_length=not formatted
    )
    if pattern is not None:
        checks.append(pattern)
    return checks
