"""The size bounds: minLength/maxLength, minItems/maxItems, minProperties/maxProperties.

Each is one :class:`~toolshape.codegen.model_parts.Check` of the same shape: the size of the
value (``len()`` of a string, an array or an object) against the bound, ``shorter`` for the
lower bound and ``longer`` for the upper one; only the message's words differ. One table
says them; :func:`count_checks` writes the checks of one pair.
"""

from __future__ import annotations

from typing import Any

from ..literals import literal
from ..model_parts import Check, CheckTest
from .context import BuildContext

#: Each size keyword: the test its check makes, what the message says after the label ("{}"
#: is the bound with its unit: "3 characters"), and the unit counted.
COUNTS: dict[str, tuple[CheckTest, str, str]] = {
    "minLength": ("shorter", "must be at least {} long", "character"),
    "maxLength": ("longer", "must be at most {} long", "character"),
    "minItems": ("shorter", "must have at least {}", "item"),
    "maxItems": ("longer", "must have at most {}", "item"),
    "minProperties": ("shorter", "must have at least {}", "key"),
    "maxProperties": ("longer", "must have at most {}", "key"),
}


def count_checks(
    context: BuildContext, schema: dict[str, Any], label: str, keywords: tuple[str, str]
) -> list[Check]:
    """The checks of the size keywords ``keywords`` (lower bound first) that ``schema`` has."""
    checks = []
    for keyword in keywords:
        if keyword in schema:
            test, words, unit = COUNTS[keyword]
            n = int(schema[keyword])
            message = context.say(f"{label} {words.format(counted(n, unit))}")
            checks.append(Check(test, literal(keyword), message, literal(n)))
    return checks


def counted(n: int, unit: str) -> str:
    """``n`` of ``unit``: "1 item", "3 items"."""
    return f"{n} {unit}" + ("" if n == 1 else "s")
