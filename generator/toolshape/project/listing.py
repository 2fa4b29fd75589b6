"""One tool's part of the package's tool lists (``_tool_definitions.py``, ``TOOL_HINTS``), in the
form the lists take it.

A listing is made where the tool's definitions are at hand: in ``pipeline.generate`` (in a
worker process, when there are many contracts), or from what the generated tests' header
records when output is reused on its headers' word. The cache (``cache.py``) keeps it beside
the sha256 of the files, so that a contract reused on the cache's word costs one lookup: its
definitions are not decoded from the header and encoded again for the lists (for a thousand
tools that was most of what `generate` did when one contract changed).

A listing holds JSON text, plain strings and numbers, never code: the lists' template still
writes each piece of a definition as a literal of that piece (planning.py), so a cache entry,
however it was made, cannot put anything in a generated file but a string. It keeps where each
definition is cut into pieces that fit the lists' lines (measured once, where the tool is
generated): a thousand definitions cut again for every run cost a second.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..codegen.wrapping import JOINED_WIDTH, string_cuts
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
    #: Platform -> where the lists cut the tool's definition (``wrapping.string_cuts`` at
    #: ``INDENT``): the end of each piece, none where it stays whole.
    cuts: dict[str, list[int]]

    def as_json(self) -> dict[str, Any]:
        """The listing as JSON data (what ``from_json`` reads back)."""
        return {
            "entries": self.entries,
            "refused": self.refused,
            "hints": self.hints,
            "cuts": self.cuts,
        }


#: Where the lists' template writes each definition: 8 columns in, a comma after; a line
#: that a formatter reads (see ``wrapping.JOINED_WIDTH``).
INDENT = 8


def of(definitions: dict[str, dict[str, Any]], refusals: dict[str, list[Problem]]) -> Listing:
    """The listing of a tool with these definitions and refusals (``pipeline.platform_definitions``)."""
    # JSON text, one string per tool: a data module of dict displays compiles and lays out
    # far slower (seconds for a thousand tools) than one of strings.
    entries = {p: json.dumps(d, ensure_ascii=False) for p, d in definitions.items()}
    return Listing(
        entries,
        {p: [str(problem) for problem in problems] for p, problems in refusals.items()},
        dict(definitions.get("mcp", {}).get("annotations", {})),
        {p: string_cuts(text, INDENT, JOINED_WIDTH) for p, text in entries.items()},
    )


def from_json(data: object) -> Listing | None:
    """The listing ``as_json`` wrote; None when ``data`` is not one (a corrupt cache entry):
    every platform listed or refused, strings where strings go, MCP hints as booleans, and
    each definition's cuts rising to its end."""
    if not isinstance(data, dict):
        return None
    entries, refused, hints = data.get("entries"), data.get("refused"), data.get("hints")
    cuts = data.get("cuts")
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
        and isinstance(cuts, dict)
        and set(cuts) == set(entries)
        and all(_rising_to(len(text), cuts[platform]) for platform, text in entries.items())
    ):
        return None
    return Listing(entries, refused, hints, cuts)


def _rising_to(end: int, cuts: object) -> bool:
    """``cuts`` are the ends of pieces of a text ``end`` characters long: whole numbers that
    rise to ``end`` (or none: the text whole)."""
    if not isinstance(cuts, list) or not all(type(cut) is int for cut in cuts):
        return False
    return not cuts or (cuts == sorted(set(cuts)) and cuts[0] > 0 and cuts[-1] == end)
