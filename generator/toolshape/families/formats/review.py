"""How ``toolshape diff`` decides and samples a change of ``format`` (review stage).

A changed ``format`` is decided only when it is added or removed (adding one cannot widen,
removing one cannot narrow); any other change is left to the witness search, with its own
reason (``REASON_FORMAT``): ``review/search.py`` decides it so for :data:`FORMAT`.
``review/samples.py`` feeds the search with :func:`samples`: a valid value and a near miss
of each format a schema names.
"""

from __future__ import annotations

from typing import Any

from ...witness import sources
from . import values

#: The keyword whose change is decided only when it comes or goes.
FORMAT = values.FORMAT


def samples(schema: dict[str, Any]) -> list[str]:
    """Two valid values and two near misses of the format ``schema`` names (none: none)."""
    name = values.format_of(schema)
    if name is None:
        return []
    return sources.format_valid(name)[:2] + sources.format_invalid(name)[:2]
