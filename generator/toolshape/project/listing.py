"""One tool's part of the package's tool lists (``_tool_definitions.py``, ``TOOL_HINTS``), in the
form the lists take it.

A listing is made where the tool's definitions are at hand: in ``pipeline.generate`` (in a
worker process, when there are many contracts), or from what the generated tests' header
records when output is reused on its headers' word. The cache (``cache.py``) keeps it beside
the sha256 of the files, so that a contract reused on the cache's word costs one lookup: its
definitions are not decoded from the header and encoded again for the lists (for a thousand
tools that was most of what `generate` did when one contract changed).

A listing holds JSON text and plain strings, never code: the lists' template still writes
each through ``literal`` (planning.py), so a cache entry, however it was made, cannot put
anything in a generated file but a string.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..contract.errors import Problem
from ..contract.tool_hints import HINTS
from ..platforms import export


@dataclass(frozen=True)
class Listing:
    """What the package's tool lists take from one tool."""

    #: Platform -> the tool's definition as the JSON text ``_tool_definitions.py`` lists, for
    #: each platform that takes the tool.
    entries: dict[str, str]
    #: Platform -> why it refuses the tool, each reason as ``path:line:col: error: message``.
    refused: dict[str, list[str]]
    #: The MCP hints the tool declares (its MCP definition's ``annotations``; empty if none).
    hints: dict[str, bool]

    def as_json(self) -> dict[str, Any]:
        """The listing as JSON data (what ``from_json`` reads back)."""
        return {"entries": self.entries, "refused": self.refused, "hints": self.hints}


def of(definitions: dict[str, dict[str, Any]], refusals: dict[str, list[Problem]]) -> Listing:
    """The listing of a tool with these definitions and refusals (``pipeline.platform_definitions``)."""
    return Listing(
        # JSON text, one string per tool: a data module of dict displays compiles and lays
        # out far slower (seconds for a thousand tools) than one of strings.
        {p: json.dumps(d, ensure_ascii=False) for p, d in definitions.items()},
        {p: [str(problem) for problem in problems] for p, problems in refusals.items()},
        dict(definitions.get("mcp", {}).get("annotations", {})),
    )


def from_json(data: object) -> Listing | None:
    """The listing ``as_json`` wrote; None when ``data`` is not one (a corrupt cache entry):
    every platform listed or refused, strings where strings go, MCP hints as booleans."""
    if not isinstance(data, dict):
        return None
    entries, refused, hints = data.get("entries"), data.get("refused"), data.get("hints")
    if not (
        isinstance(entries, dict)
        and isinstance(refused, dict)
        and isinstance(hints, dict)
        and set(entries) | set(refused) == set(export.PLATFORMS)
        and all(isinstance(text, str) for text in entries.values())
        and all(
            isinstance(reasons, list) and all(isinstance(r, str) for r in reasons)
            for reasons in refused.values()
        )
        and all(name in HINTS and isinstance(value, bool) for name, value in hints.items())
    ):
        return None
    return Listing(entries, refused, hints)
