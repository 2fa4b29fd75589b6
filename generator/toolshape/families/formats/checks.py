"""The model's check of an asserted ``format`` (codegen stage).

``codegen/building/strings.py`` calls :func:`format_check` between a string's length checks
and its pattern check. The :class:`~toolshape.codegen.model_parts.Check` (test ``bad_format``)
is printed by its macro in ``templates/checks.py.j2``, calling the format's runtime function
(:func:`format_function`), which ``templates/formats.py.j2`` defines; its message says what a
valid value looks like (the vocabulary's phrase for the format).
"""

from __future__ import annotations

from typing import Any

from ...codegen.building.context import BuildContext
from ...codegen.literals import Code, literal
from ...codegen.model_parts import Check
from ...schema import vocabulary

#: The keyword naming the format.
(FORMAT,) = vocabulary.taking("format")
#: The formats asserted, and how messages describe them.
FORMATS = vocabulary.format_phrases()


def format_function(name: str) -> str:
    """The runtime helper that checks a format: ``date-time`` -> ``_is_date_time``."""
    return "_is_" + name.replace("-", "_")


def format_check(context: BuildContext, schema: dict[str, Any], label: str) -> Check | None:
    """The check of ``schema``'s format, for a string called ``label`` (None: it asserts none)."""
    if FORMAT not in schema or schema[FORMAT] not in FORMATS:
        return None
    name = schema[FORMAT]
    return Check(
        "bad_format",
        literal(FORMAT),
        context.say(f"{label} must be {FORMATS[name]}"),
        Code(format_function(name)),
    )
