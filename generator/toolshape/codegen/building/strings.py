"""The checks of a string: its length, an asserted ``format`` and ``pattern``.

The pattern comes right after the length checks, an ``elif`` of ``maxLength``: a string too
long never reaches the pattern's matcher, so a matcher proved linear only on strings up to
``maxLength`` may run as ``re`` (``regex.linear``). The format check comes last and runs on
its own, so a string that fails the format is still tried against the pattern. The checks
are the families' (``families/strings/checks.py``, ``families/formats/checks.py``); this
module puts them in order.
"""

from __future__ import annotations

from typing import Any

from ...families.formats import checks as format_family
from ...families.strings import checks as string_family
from ...schema.pointers import SchemaPath
from ..model_parts import Check
from .context import BuildContext


def string_checks(
    context: BuildContext, schema: dict[str, Any], label: str, schema_path: SchemaPath
) -> list[Check]:
    checks = string_family.length_checks(context, schema, label)
    # The pattern's elif must follow maxLength directly: after the format check it would run
    # only when the format passed, and lose the bound it may rely on.
    pattern = string_family.pattern_check(context, schema, label, schema_path)
    if pattern is not None:
        checks.append(pattern)
    asserted = format_family.format_check(context, schema, label)
    if asserted is not None:
        checks.append(asserted)
    return checks
