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

from .literals import Code, literal
from .widths import width

#: The width no line of a table passes: black's, the narrowest a user's linter is likely to ask.
LINE_LENGTH = 88

#: The least a string piece holds, however deep its line: a piece per character at worst.
_MIN_PIECE = 1


#: The widest line a formatter joins an implicit concatenation into: ruff's formatter at
#: 100 columns (black never joins one). A string in code that formatters read is cut only
#: when its line is wider: cut pieces would be joined back.
JOINED_WIDTH = 100


def entry(
    value: object, indent: int = 4, after: str = ",", before: str = "", whole: int = LINE_LENGTH
) -> Code:
    """``value`` as the lines of one table entry that the template writes at ``indent``
    columns, after ``before`` (``BASE = ``) and followed by ``after``: the first line
    without its indentation and ``before``, the last without ``after`` (the template
    writes those). A string whose line is at most ``whole`` columns wide stays whole
    (:data:`JOINED_WIDTH` where a formatter reads the code)."""
    lines = laid_out(value, indent, before, after, whole, {})
    text = "\n".join(lines)[indent + len(before) :]
    return Code(text[: len(text) - len(after)])


def laid_out(
    value: object,
    indent: int,
    prefix: str = "",
    suffix: str = "",
    whole: int = LINE_LENGTH,
    texts: Texts | None = None,
) -> list[str]:
    """The lines of ``prefix + value + suffix`` at ``indent`` columns, none wider than
    :data:`LINE_LENGTH` where a line can be cut (a one-character piece at a deep indent,
    or a long number, is left as it is), but a string whose line is at most ``whole``.
    ``texts``: the one-line texts already made of the parts of the value (see ``_text``)."""
    texts = {} if texts is None else texts
    pad = " " * indent
    line = pad + prefix + _text(value, texts) + suffix
    if width(line) <= LINE_LENGTH:
        return [line]
    if isinstance(value, (str, bytes)) and width(line) <= whole:
        return [line]
    if isinstance(value, (str, bytes)) and not isinstance(value, Code):
        if prefix:  # after a dict key: the pieces in parentheses of their own, below it
            return [pad + prefix + "(", *_pieces(value, indent + 4, ""), pad + ")" + suffix]
        return _pieces(value, indent, suffix)
    shape = _shape(value, texts)
    if shape is None:
        return [line]  # a number, None, a boolean, a Code: nothing to cut
    opening, items, closing = shape
    inner: list[str] = []
    if isinstance(value, dict):
        for key, item in value.items():
            inner.extend(_pair(str(key), item, indent + 4, texts))
    else:
        for item in items:
            inner.extend(laid_out(item, indent + 4, "", ",", texts=texts))
    return [pad + prefix + opening, *inner, pad + closing + suffix]


def parenthesized(text: str, indent: int, before: str = "", after: str = "") -> list[str]:
    """``before + text + after`` at ``indent``, the string cut into pieces, one per line, in
    parentheses of their own: the shape of a long literal in code that formatters read
    (``long_literals.py``)."""
    pad = " " * indent
    return [pad + before + "(", *_pieces(text, indent + 4, ""), pad + ")" + after]


def pieces(text: str, indent: int) -> list[str]:
    """``text`` cut into string literals, one per line at ``indent``, as :func:`parenthesized`
    writes them, without the parentheses (the one argument of a call)."""
    return _pieces(text, indent, "")


def _pair(key: str, value: object, indent: int, texts: Texts) -> list[str]:
    """One key-value pair of a split dict, with its trailing comma."""
    key_text = literal(key)
    lines = laid_out(value, indent, key_text + ": ", ",", texts=texts)
    if width(lines[0]) <= LINE_LENGTH:
        return lines
    # A key too long for a line: its pieces first, the value after the last one (room
    # kept there for an atom value, or for the bracket that opens a longer one).
    cut = isinstance(value, (str, bytes)) and not isinstance(value, Code)
    atom = _shape(value, texts) is None and not cut
    tail = ": " + (_text(value, texts) + "," if atom else "(")
    key_lines = _pieces(key, indent, tail)
    last = key_lines[-1][indent : len(key_lines[-1]) - len(tail)]
    return key_lines[:-1] + laid_out(value, indent, last + ": ", ",", texts=texts)


def _shape(value: object, texts: Texts) -> tuple[str, list[object], str] | None:
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
        return "frozenset({", sorted(value, key=lambda item: _text(item, texts)), "})"
    return None


#: The one-line texts of the parts of one value, by ``id`` (the value outlives the call
#: that lays it out, so no id is reused meanwhile).
Texts = dict[int, str]


def _text(value: object, texts: Texts) -> str:
    """``value`` on one line: :func:`literal`'s text, with any :class:`Code` inside as it is.

    A tuple, list or dict is written from its items' texts, each made once (a row that is
    split is measured whole, then item by item): :func:`literal` writes a display the same
    way (``tests/test_wrapping.py`` holds the two equal over JSON-like values)."""
    known = texts.get(id(value))
    if known is not None:
        return known
    if isinstance(value, Code):
        text = str(value)
    elif isinstance(value, tuple):
        inner = ", ".join(_text(item, texts) for item in value)
        text = f"({inner},)" if len(value) == 1 else f"({inner})"
    elif isinstance(value, list):
        text = "[" + ", ".join(_text(item, texts) for item in value) + "]"
    elif isinstance(value, dict):
        pairs = (f"{literal(str(k))}: {_text(v, texts)}" for k, v in value.items())
        text = "{" + ", ".join(pairs) + "}"
    else:
        text = str(literal(value))
    texts[id(value)] = text
    return text


def _pieces(text: str | bytes, indent: int, suffix: str) -> list[str]:
    """``text`` as string (or bytes) literals, one per line at ``indent``, the last
    followed by ``suffix``.

    A piece takes as much of the text as fits, its literal measured (escapes and wide
    characters included); a full piece is cut after its last space or slash, if that is
    in its second half."""
    room = max(LINE_LENGTH - indent - len(suffix), _MIN_PIECE)
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = min(len(text), start + room)
        over = width(literal(text[start:end])) - room
        while over > 0 and end > start + _MIN_PIECE:
            # An escape takes at most 10 columns (\U0001f600): drop enough to fit, or one.
            end = max(start + _MIN_PIECE, end - max(1, over // 10))
            over = width(literal(text[start:end])) - room
        if end < len(text):
            end = _last_break(text, start + (end - start) // 2, end) or end
        pieces.append(f"{' ' * indent}{literal(text[start:end])}")
        start = end
    if not pieces:
        pieces.append(f"{' ' * indent}{literal(text)}")
    pieces[-1] += suffix
    return pieces


def _last_break(text: str | bytes, low: int, high: int) -> int:
    """Where a piece is best cut: after the last space or slash in ``text[low:high]``, or
    before its last backslash (a pattern's escape, ``\\u205f``, stays whole); 0: none."""
    if isinstance(text, str):
        after = max(text.rfind(" ", low, high), text.rfind("/", low, high)) + 1
        before = text.rfind("\\", low, high)
    else:
        after = max(text.rfind(b" ", low, high), text.rfind(b"/", low, high)) + 1
        before = text.rfind(b"\\", low, high)
    found = max(after, before)
    return found if found > low else 0
