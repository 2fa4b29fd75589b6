"""Comments folded within a line width, so the generated code passes E501 at 88 columns.

A generated module names the contract line of each block in a comment
(``# subject: required, string, minLength 1, ... (contracts/x.yaml:33)``), and at the
depth of a nested property that comment runs past 88 and 100 columns. No formatter
touches a comment, so a user's linter (E501) would flag it whatever formatter runs.
Here each comment line wider than :data:`~toolshape.codegen.wrapping.LINE_LENGTH` is
folded after a space into lines of its own at the same indentation, the later ones
marked as continued (``#   ``). A word wider than a line on its own is cut where the
line is full.

The comments at the top of a file (the header that names the contract, its command and
its digests) are left as they are: ``headers.py`` reads and writes them line by line.
"""

from __future__ import annotations

from .widths import width
from .wrapping import LINE_LENGTH

#: What starts each line a long comment continues on.
CONTINUED = "#   "


def folded(source: str) -> str:
    """``source`` with each comment wider than :data:`LINE_LENGTH` folded (see above), but
    for the comments at its top. A source with no such line is returned as it is."""
    lines = source.split("\n")
    header = next((i for i, line in enumerate(lines) if not line.startswith("#")), len(lines))
    # An ASCII line's width is its length, measured in C over a whole module at once; and a
    # line with no "# " is passed at once (measured: 0.72 -> 0.45 ms per contract over the
    # 40-contract set).
    measure = len if source.isascii() else width
    if header == len(lines) or max(map(measure, lines[header:])) <= LINE_LENGTH:
        return source  # the common case, and a cheap one
    out = lines[:header]
    index = header
    while index < len(lines):
        if "# " not in lines[index]:  # no comment starts the line: most lines, passed at once
            out.append(lines[index])
            index += 1
            continue
        run = _run(lines, index)
        if run and any(width(line) > LINE_LENGTH for line in run):
            pad = run[0][: len(run[0]) - len(run[0].lstrip(" "))]
            # Each wide line folded on its own, continued below it: adjacent comments may be
            # unrelated (a keyword's heading above its first branch's), never one paragraph.
            for line in run:
                wide = width(line) > LINE_LENGTH
                out.extend(fold(pad, line.lstrip(" ")[2:]) if wide else [line])
        else:
            out.extend(run or [lines[index]])
        index += max(len(run), 1)
    return "\n".join(out)


def _run(lines: list[str], start: int) -> list[str]:
    """The comment lines (``# text``) from ``start`` on at one indentation; empty: none there."""
    first = lines[start]
    pad = len(first) - len(first.lstrip(" "))
    end = start
    while end < len(lines):
        line = lines[end]
        if (
            line[pad : pad + 2] != "# "
            or line[:pad].strip()
            or len(line) - len(line.lstrip(" ")) != pad
        ):
            break
        end += 1
    return lines[start:end]


def fold(pad: str, text: str) -> list[str]:
    """One comment's ``text`` as lines at ``pad``: the first marked ``# ``, the rest
    :data:`CONTINUED`."""
    return _lines(pad, text, CONTINUED)


def _lines(pad: str, text: str, later: str) -> list[str]:
    """``text`` as comment lines at ``pad``, the first marked ``# ``, the rest ``later``; none
    wider than :data:`LINE_LENGTH` where the indentation leaves room for a word."""
    lines: list[str] = []
    marker = "# "
    rest = text
    while rest:
        room = max(LINE_LENGTH - width(pad + marker), 1)
        if width(rest) <= room:
            lines.append(pad + marker + rest)
            break
        cut = _cut(rest, room)
        lines.append(pad + marker + rest[:cut].rstrip(" "))
        rest = rest[cut:].lstrip(" ")
        marker = later
    return lines


def _cut(text: str, room: int) -> int:
    """Where ``text`` is cut for a line of ``room`` columns: after the last space that fits,
    else (one word wider than the line) where the columns run out."""
    end = min(len(text), room)
    if not text.isascii():
        end = 0
        while end < len(text) and width(text[: end + 1]) <= room:
            end += 1
    space = text.rfind(" ", 0, end + 1)
    return space + 1 if space > 0 else max(end, 1)
