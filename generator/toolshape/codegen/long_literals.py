"""String literals too long for a line, cut into parenthesized pieces after layout.

A contract's text reaches a module as one string literal (a description, a message that
names keys, a pattern's source), and black leaves a string as long as it is: nothing in
it to split at. A line of one such literal wider than
:data:`~toolshape.codegen.wrapping.LINE_LENGTH` (88 columns) fails a user's E501, so the
literal is written instead as an implicit concatenation in parentheses of its own, one
piece per line, each within 88 columns, cut where ``wrapping.py`` cuts the tests' strings
(after a space or slash, never inside an escape)::

    DESCRIPTION = (
        "Send a plain-text email from the user's account. Call it only after the user "
        "has confirmed the recipients, subject and body."
    )

Black keeps that as it is, and so does ruff's formatter at 88 columns. At 100 it would
join pieces that fit a line together again: ``pins.py`` then puts a comment between them,
which no formatter moves. The value is the same string: Python joins the pieces back.

Only a line that is one literal, with at most a name and ``=``, a ``+`` or a dict key
before it and a comma or a closing bracket after it, is cut (the shapes black leaves
long); any other line is kept as it is, and so is any line a triple-quoted string runs
over (a docstring holding contract text, which may hold quotes and triple quotes of its
own: ``in_long_strings`` reads them as Python's tokenizer does).
"""

from __future__ import annotations

import ast
import re

from .widths import width
from .wrapping import LINE_LENGTH, parenthesized, pieces

#: One string literal (black's double quotes, or single ones around a double quote):
#: its characters read a run at a time between escapes, as in ``layout._STRINGS``.
_STRING = r""""[^"\\\n]*(?:\\.[^"\\\n]*)*"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"""
#: What a line's scan steps over, whole: a one-line string or a comment (a quote inside
#: either opens nothing); and a triple quote, which opens or closes a string over lines.
_LEXED = re.compile(r'"""|\'\'\'|' + _STRING + r"|#[^\n]*")
#: Where a string over lines ends: its closing triple quote (an escaped quote is none).
_CLOSING = {
    '"""': re.compile(r'(?:[^"\\]|\\[\s\S]|"(?!""))*"""'),
    "'''": re.compile(r"(?:[^'\\]|\\[\s\S]|'(?!''))*'''"),
}
#: A line black leaves long around one literal: what may stand before it and after it.
_LONE = re.compile(
    r"(?P<pad> *)(?P<before>(?:[A-Za-z_][A-Za-z0-9_]*(?:: [A-Za-z_][\w\[\], .]*)? = "
    r"|\+ |(?:" + _STRING + r"): )?)(?P<literal>" + _STRING + r")(?P<after>[,)\]}]*:?)"
)

#: A dict key and what follows it on its line (its value, or the value's opening bracket).
_KEY = re.compile(r"(?P<pad> *)(?P<key>" + _STRING + r"): (?P<rest>.+)")


def cut(source: str) -> str:
    """``source`` with each line of one string literal wider than :data:`LINE_LENGTH`
    written as parenthesized pieces (see above); a source with none is returned as it is."""
    lines = source.split("\n")
    if all(width(line) <= LINE_LENGTH for line in lines):
        return source  # the common case, and a cheap one
    out: list[str] = []
    inside: set[int] | None = None  # found at the first line that may be cut
    for index, line in enumerate(lines):
        if width(line) <= LINE_LENGTH:
            out.append(line)  # most lines: nothing to cut, measured once
            continue
        key = _long_key(line)
        found = _LONE.fullmatch(line) if key is None else None
        if (found is not None or key is not None) and inside is None:
            inside = in_long_strings(lines)
        if index in (inside or ()) or (found is None and key is None):
            out.append(line)
            continue
        if key is not None:
            # The key itself is wider than a line: its pieces in parentheses of their own.
            pad, literal = key["pad"], key["key"]
            value = ast.literal_eval(literal)
            out.extend([pad + "(", *pieces(value, len(pad) + 4), pad + "): " + key["rest"]])
            continue
        assert found is not None
        value = ast.literal_eval(found["literal"])
        before = found["before"]
        indent = len(found["pad"])
        where = _place(lines, index, before, found["after"])
        if where == "alone":
            # All its brackets hold: they hold the pieces (parentheses more would be UP034's
            # extraneous ones), the call's magic trailing comma after the last.
            out.extend(pieces(value, indent, found["after"]))
        elif where == "part":
            out.extend(parenthesized(value, indent, before, found["after"]))
        else:
            out.append(line)
    return "\n".join(out)


def _long_key(line: str) -> re.Match[str] | None:
    """The dict key starting ``line`` (a line wider than 88 columns) where it is too wide for
    a line itself (``"key": (`` would pass 88 columns); None for any other line."""
    key = _KEY.fullmatch(line)
    if key is None or width(key["pad"] + key["key"] + ": (") <= LINE_LENGTH:
        return None
    return key


def in_long_strings(lines: list[str]) -> set[int]:
    """The indexes of the ``lines`` a triple-quoted string runs over, from the line it opens
    on to the line it closes on (a docstring holding contract text: quotes and triple quotes
    of its own). Only a line with a triple quote can open or close one, and a triple quote
    inside a one-line string or a comment opens nothing: each such line is read from its
    start, string by string, as Python's tokenizer reads it."""
    inside: set[int] = set()
    closing: re.Pattern[str] | None = None  # the open string's end, while one is open
    opened = 0
    for index, line in enumerate(lines):
        if closing is None and '"""' not in line and "'''" not in line:
            continue
        column = 0
        if closing is not None:
            end = closing.match(line)
            if end is None:
                continue  # the string runs on past this line
            inside.update(range(opened, index + 1))
            closing, column = None, end.end()
        token = _LEXED.search(line, column)
        while token is not None:
            column = token.end()
            if token.group() in _CLOSING:
                end = _CLOSING[token.group()].match(line, column)
                if end is None:
                    closing, opened = _CLOSING[token.group()], index
                    break
                inside.add(index)  # a triple-quoted string on one line: a docstring
                column = end.end()
            token = _LEXED.search(line, column)
    return inside


def _place(lines: list[str], index: int, before: str, after: str) -> str:
    """Where the literal on ``lines[index]`` stands, for the shapes both formatters keep once
    it is cut: "alone" between a call's or a subscript's brackets (a call's held by its
    trailing comma), "part" of a statement
    (assigned, a dict's value, an item or argument followed by a comma, an operand of
    ``+``), or "" for another place (the left side of ``in``: black would move the
    parentheses), where the line stays as it is."""
    following = lines[index + 1].lstrip(" ") if index + 1 < len(lines) else ""
    between = lines[index - 1].endswith(("(", "[")) and following.startswith((")", "]"))
    if not before and after in ("", ",") and between:
        return "alone"  # (a comma: the call's magic trailing comma, layout.held's)
    if before or after.startswith(","):
        return "part"
    if after:
        return ""
    return "part" if following.startswith("+ ") else ""
