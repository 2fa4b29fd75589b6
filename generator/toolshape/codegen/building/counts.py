"""The size bounds: a string's length, an array's items, an object's keys.

Each is one :class:`~toolshape.codegen.model_parts.Check` of the same shape: the size of the
value (``len()`` of a string, an array or an object) against the bound, ``shorter`` for the
lower bound and ``longer`` for the upper one; only the message's words differ. Each family
supplies the rows of its pair (``LENGTHS``, ``ITEM_COUNTS`` and ``PROPERTY_COUNTS`` in
``families/strings/``, ``families/arrays/`` and ``families/objects/checks.py``); :func:`count_checks` writes the checks of one pair from them.
"""

from __future__ import annotations

from typing import Any

from ..literals import literal
from ..model_parts import Check, CheckTest
from .context import BuildContext

#: One size keyword's row: the test its check makes, what the message says after the label
#: ("{}" is the bound with its unit: "3 characters"), and the unit counted.
CountRow = tuple[CheckTest, str, str]


def count_checks(
    context: BuildContext, schema: dict[str, Any], label: str, rows: dict[str, CountRow]
) -> list[Check]:
    """The checks of the size keywords of ``rows`` (lower bound first) that ``schema`` has."""
    checks = []
    for keyword, (test, words, unit) in rows.items():
        if keyword in schema:
            n = int(schema[keyword])
            message = context.say(f"{label} {words.format(counted(n, unit))}")
            checks.append(Check(test, literal(keyword), message, literal(n)))
    return checks


def counted(n: int, unit: str) -> str:
    """``n`` of ``unit``: "1 item", "3 items"."""
    return f"{n} {unit}" + ("" if n == 1 else "s")
