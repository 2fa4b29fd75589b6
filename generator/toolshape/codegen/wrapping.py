"""Data literals laid out within a line width: the rows of the generated tests' tables.

The generated tests hold their data between ``# fmt: off`` and ``# fmt: on``, so no
formatter rewrites it (black would spend seconds on it, and ruff's formatter, at 100
columns, would join what black split at 88). A user's linter still reads those lines:
ruff's E501 at 88 or 100 columns. So each row is laid out here, in black's shapes, to
stay within :data:`LINE_LENGTH`:

* a literal that fits stays on its line;
* a tuple, list, dict or set that does not is split one item per line, with a trailing
  comma (a set as ``frozenset({`` ... ``})``, its items sorted as :func:`literal` sorts them);
* a string that does not is cut into pieces, one per line, that Python joins back into
  the same string (an implicit concatenation), cut after a space where one is near.

Every piece of contract text still reaches the source through :func:`literal`. A
:class:`Code` inside a value (``MISSING``) is written as it is.
"""

from __future__ import annotations

import itertools

from .literals import Code, literal
from .widths import char_width, width

#: The width no line of a table passes: black's, the narrowest a user's linter is likely to ask.
LINE_LENGTH = 88

#: What a piece is best cut after: a space, or a slash (the steps of a JSON Pointer).
_BREAKS = (" ", "/", b" ", b"/")

#: The least a string piece holds, however deep its line: a piece per character at worst.
_MIN_PIECE = 1


def entry(value: object, indent: int = 4, after: str = ",", before: str = "") -> Code:
    """``value`` as the lines of one table entry that the template writes at ``indent``
    columns, after ``before`` (``BASE = ``) and followed by ``after``: the first line
    without its indentation and ``before``, the last without ``after`` (the template
    writes those)."""
    lines = laid_out(value, indent, before, after)
    text = "\n".join(lines)[indent + len(before) :]
    return Code(text[: len(text) - len(after)])


def laid_out(value: object, indent: int, prefix: str = "", suffix: str = "") -> list[str]:
    """The lines of ``prefix + value + suffix`` at ``indent`` columns, none wider than
    :data:`LINE_LENGTH` where a line can be cut (a one-character piece at a deep indent,
    or a long number, is left as it is)."""
    pad = " " * indent
    line = pad + prefix + _text(value) + suffix
    if width(line) <= LINE_LENGTH:
        return [line]
    if isinstance(value, (str, bytes)) and not isinstance(value, Code):
        if prefix:  # after a dict key: the pieces in parentheses of their own, below it
            return [pad + prefix + "(", *_pieces(value, indent + 4, ""), pad + ")" + suffix]
        return _pieces(value, indent, suffix)
    shape = _shape(value)
    if shape is None:
        return [line]  # a number, None, a boolean, a Code: nothing to cut
    opening, items, closing = shape
    inner: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            inner.extend(_pair(str(key), item, indent + 4))
    else:
        for item in items:
            inner.extend(laid_out(item, indent + 4, "", ","))
    return [pad + prefix + opening, *inner, pad + closing + suffix]


def _pair(key: str, value: object, indent: int) -> list[str]:
    """One key-value pair of a split dict, with its trailing comma."""
    key_text = literal(key)
    lines = laid_out(value, indent, key_text + ": ", ",")
    if width(lines[0]) <= LINE_LENGTH:
        return lines
    # A key too long for a line: its pieces first, the value after the last one (room
    # kept there for an atom value, or for the bracket that opens a longer one).
    atom = _shape(value) is None and not isinstance(value, (str, bytes))
    tail = ": " + (_text(value) + "," if atom else "(")
    key_lines = _pieces(key, indent, tail)
    last = key_lines[-1][indent : len(key_lines[-1]) - len(tail)]
    return key_lines[:-1] + laid_out(value, indent, last + ": ", ",")


def _shape(value: object) -> tuple[str, list[object], str] | None:
    """The opening bracket, the items and the closing bracket of a display; None for an atom."""
    if isinstance(value, Code):
        return None
    if isinstance(value, tuple):
        return "(", list(value), ")"
    if isinstance(value, list):
        return "[", list(value), "]"
    if isinstance(value, dict):
        return "{", list(value.values()), "}"
    if isinstance(value, (set, frozenset)) and value:
        return "frozenset({", sorted(value, key=_text), "})"
    return None


def _text(value: object) -> str:
    """``value`` on one line: :func:`literal`'s text, with any :class:`Code` inside as it is."""
    if isinstance(value, Code):
        return str(value)
    if not _holds_code(value):
        return str(literal(value))
    if isinstance(value, tuple):
        inner = ", ".join(_text(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(_text(item) for item in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(str(k))}: {_text(v)}" for k, v in value.items()) + "}"
    return str(literal(value))


def _holds_code(value: object) -> bool:
    if isinstance(value, Code):
        return True
    if isinstance(value, (tuple, list)):
        return any(_holds_code(item) for item in value)
    if isinstance(value, dict):
        return any(_holds_code(item) for item in value.values())
    return False


def _pieces(text: str | bytes, indent: int, suffix: str) -> list[str]:
    """``text`` as string (or bytes) literals, one per line at ``indent``, the last
    followed by ``suffix``.

    A piece takes characters while its literal fits: each character costs the most
    columns its escape can take (:func:`_cost`), plus the quotes. A full piece is cut
    after its last space or slash, if that is in its second half."""
    quotes = 2 if isinstance(text, str) else 3  # b"..."
    room = max(LINE_LENGTH - indent - quotes - len(suffix), _MIN_PIECE)
    characters = [text[i : i + 1] for i in range(len(text))]
    costs = [_cost(character) for character in characters]
    cuts = [0]
    used = 0
    for index, cost in enumerate(costs):
        start = cuts[-1]
        if used + cost > room and index > start:
            spaces = [i + 1 for i in range(start, index) if characters[i] in _BREAKS]
            cut = spaces[-1] if spaces and spaces[-1] > start + (index - start) // 2 else index
            cuts.append(cut)
            used = sum(costs[cut:index])
        used += cost
    cuts.append(len(text))
    pad = " " * indent
    lines = [f"{pad}{literal(text[a:b])}" for a, b in itertools.pairwise(cuts)]
    lines[-1] += suffix
    return lines


def _cost(character: str | bytes) -> int:
    """The most columns one character (or byte) takes inside a literal: what ``repr``
    writes for it, a quote counted two (it may be escaped), a wide character two."""
    if isinstance(character, bytes):
        return len(repr(character)) - 3 + (character in (b'"', b"'"))
    if character in ('"', "'", "\\"):
        return 2
    if " " <= character <= "~":
        return 1
    escaped = repr(character)[1:-1]
    return len(escaped) if escaped != character else char_width(character)
