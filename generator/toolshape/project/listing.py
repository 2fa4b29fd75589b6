"""One tool's part of the package's tool lists (``_tool_definitions.py``, ``TOOL_HINTS``), in the
form the lists take it.

A listing is made where the tool's definitions are at hand: in ``pipeline.generate`` (in a
worker process, when there are many contracts), or from what the generated tests' header
records when output is reused on its headers' word. The cache (``cache.py``) keeps it beside
the sha256 of the files, so that a contract reused on the cache's word costs one lookup: its
definitions are not decoded from the header and encoded again for the lists (for a thousand
tools that was most of what `generate` did when one contract changed).

Each definition is kept as the lists write it: the string literal of its JSON text, cut into
pieces that fit the lists' lines (``wrapping.string_entry``), made once, where the tool is
generated. Cutting a thousand tools' definitions for five platforms again on every run was
half of what `generate` cost per unchanged contract. The entries are code, so a listing read
from the cache is used only when each entry is nothing but string literals, one per line at
the lists' indent (``_ENTRY``): however a cache entry was made, it cannot put anything in a
generated file but a string.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from ..codegen.wrapping import JOINED_WIDTH, string_cuts, string_entry
from ..contract.errors import Problem
from ..contract.tool_hints import HINTS
from ..platforms import export


@dataclass(frozen=True)
class Listing:
    """What the package's tool lists take from one tool."""

    #: Platform -> the tool's definition as ``_tool_definitions.py`` lists it, for each
    #: platform that takes the tool: the literal of its JSON text, whole or in pieces on
    #: lines at ``INDENT`` (the first piece without its indent), as the lists' template prints it.
    entries: dict[str, str]
    #: Platform -> why it refuses the tool, each reason as ``path:line:col: error: message``.
    refused: dict[str, list[str]]
    #: The MCP hints the tool declares (its MCP definition's ``annotations``; empty if none).
    hints: dict[str, bool]

    def as_json(self) -> dict[str, Any]:
        """The listing as JSON data (what ``from_json`` reads back)."""
        return {
            "entries": self.entries,
            "refused": self.refused,
            "hints": self.hints,
        }


#: Where the lists' template writes each definition: 8 columns in, a comma after; a line
#: that a formatter reads (see ``wrapping.JOINED_WIDTH``).
INDENT = 8


def of(definitions: dict[str, dict[str, Any]], refusals: dict[str, list[Problem]]) -> Listing:
    """The listing of a tool with these definitions and refusals (``pipeline.platform_definitions``)."""
    # JSON text, one string per tool: a data module of dict displays compiles and lays out
    # far slower (seconds for a thousand tools) than one of strings.
    texts = {p: json.dumps(d, ensure_ascii=False) for p, d in definitions.items()}
    return Listing(
        {p: _entry(text) for p, text in texts.items()},
        {p: [str(problem) for problem in problems] for p, problems in refusals.items()},
        dict(definitions.get("mcp", {}).get("annotations", {})),
    )


def _entry(text: str) -> str:
    """``text`` as the lists write it at ``INDENT``, a comma after: whole where a formatter
    leaves it, else cut into pieces that fit (as ``wrapping.entry`` would, measured once)."""
    return str(string_entry(text, string_cuts(text, INDENT, JOINED_WIDTH), INDENT))


#: One string literal as ``literals.literal`` writes one (repr's escapes, either quote): no
#: raw control character, line break or surrogate, no escape repr does not write (nor one
#: past the last code point): each entry compiles as one expression. Written as
#: runs of plain characters between escapes: one class repeat takes each run (fast), and no
#: character can be taken two ways, so matching is linear in the text.
_ESCAPE = r"\\(?:[\\'\"ntr]|x[0-9a-f]{2}|u[0-9a-f]{4}|U(?:000[0-9a-f]|0010)[0-9a-f]{4})"
_RAW = r"\\\x00-\x1f\x7f\ud800-\udfff"  # what a literal never holds as it is
_LITERAL = rf"(?:\"[^\"{_RAW}]*(?:{_ESCAPE}[^\"{_RAW}]*)*\"|'[^'{_RAW}]*(?:{_ESCAPE}[^'{_RAW}]*)*')"
#: A listing's entry: string literals, the first at the start, each other on a line of its
#: own at ``INDENT`` (what ``_entry`` writes; Python joins adjacent literals into one string).
_ENTRY = re.compile(rf"{_LITERAL}(?:\n {{{INDENT}}}{_LITERAL})*")


def from_json(data: object) -> Listing | None:
    """The listing ``as_json`` wrote; None when ``data`` is not one (a corrupt cache entry):
    every platform listed or refused, each entry string literals and nothing else (``_ENTRY``),
    strings where strings go, MCP hints as booleans."""
    if not isinstance(data, dict):
        return None
    entries, refused, hints = data.get("entries"), data.get("refused"), data.get("hints")
    if not (
        isinstance(entries, dict)
        and isinstance(refused, dict)
        and isinstance(hints, dict)
        and set(entries) | set(refused) == set(export.PLATFORMS)
        and all(isinstance(text, str) and _ENTRY.fullmatch(text) for text in entries.values())
        and all(
            isinstance(reasons, list) and all(isinstance(r, str) for r in reasons)
            for reasons in refused.values()
        )
        and all(name in HINTS and isinstance(value, bool) for name, value in hints.items())
    ):
        return None
    return Listing(entries, refused, hints)
