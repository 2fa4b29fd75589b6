"""The checks of a string: its length, an asserted ``format`` and ``pattern``.

They run in that order, each an ``elif`` of the last where the pattern may rely on it: a
string too long never reaches the pattern's matcher, so a matcher proved linear only on
strings up to ``maxLength`` may run as ``re`` (``regex.linear``). The checks are the
families' (``families/strings/checks.py``, ``families/formats/checks.py``); this module puts
them in order.
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
    asserted = format_family.format_check(context, schema, label)
    if asserted is not None:
        checks.append(asserted)
    # An asserted format between the length check and the pattern breaks the elif chain, and
    # with it the bound the pattern may rely on.
    pattern = string_family.pattern_check(
        context, schema, label, schema_path, follows_length=asserted is None
    )
    if pattern is not None:
        checks.append(pattern)
    return checks
