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

import functools
import operator
import re
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import accumulate, pairwise

from .literals import Code, literal, literal_text
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


def tuple_entry(
    items: tuple[object, ...], item_texts: Sequence[str], texts: Texts | None = None
) -> Code:
    """``entry(items)`` (a table's row: at 4 columns, a comma after) for a tuple whose items'
    one-line texts the caller made (``item_texts[i]`` is ``one_line(items[i], texts)``, and
    ``texts`` holds the texts of their parts, as ``one_line`` left them): the same
    lines, laid out here without the general walk. The generated tests write a few hundred
    case rows per contract, each a tuple of three short items, most split one item per line;
    measured: ``tests_model.build`` 11.6 ms -> 10.0 ms per contract over the 40-contract set."""
    whole = tuple_text(item_texts)
    if _fits(whole, LINE_LENGTH - _ROW_INDENT - 1):  # the row, its indent and its comma
        return Code.of(whole)
    # Split one item per line, as laid_out splits a tuple: an item that fits its line as it
    # is, any other laid out by laid_out itself (given its text, made already).
    pad = _ROW_ITEM_PAD
    room = LINE_LENGTH - len(pad) - 1  # an item's line: its indent, its comma
    texts = {} if texts is None else texts
    lines = ["("]
    for item, text in zip(items, item_texts, strict=True):
        if len(text) <= room and (text.isascii() or width(text) <= room):  # _fits, inline
            lines.append(pad + text + ",")
        else:
            texts[id(item)] = text
            lines.extend(laid_out(item, len(pad), "", ",", texts=texts))
    lines.append(" " * _ROW_INDENT + ")")
    return Code.of("\n".join(lines))


#: Where the template writes a table's rows (``entry``'s default indent).
_ROW_INDENT = 4
#: How deep a split row's items stand, one per line: one level in.
ROW_ITEM_INDENT = _ROW_INDENT + 4
_ROW_ITEM_PAD = " " * ROW_ITEM_INDENT


def one_line(value: object, texts: Texts | None = None) -> str:
    """``value`` on one line: :func:`literal`'s text, with any :class:`Code` inside as it is.
    ``texts``: the texts made of its parts (``_text``), where the caller lays it out after."""
    return _text(value, {} if texts is None else texts)


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
    if _fits(line):
        return [line]
    if isinstance(value, (str, bytes)) and _fits(line, whole):
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
            inner.extend(_pair(key, item, indent + 4, texts))
    else:
        item_pad = pad + "    "
        for item in items:
            # An item that fits its line is that line (laid_out's first case), written
            # here without a call: most items of a split list fit.
            item_line = item_pad + _text(item, texts) + ","
            if _fits(item_line):
                inner.append(item_line)
            else:
                inner.extend(laid_out(item, indent + 4, "", ",", texts=texts))
    return [pad + prefix + opening, *inner, pad + closing + suffix]


def parenthesized(text: str, indent: int, before: str = "", after: str = "") -> list[str]:
    """``before + text + after`` at ``indent``, the string cut into pieces, one per line, in
    parentheses of their own: the shape of a long literal in code that formatters read
    (``long_literals.py``)."""
    pad = " " * indent
    return [pad + before + "(", *_pieces(text, indent + 4, ""), pad + ")" + after]


def pieces(text: str, indent: int, suffix: str = "") -> list[str]:
    """``text`` cut into string literals, one per line at ``indent``, as :func:`parenthesized`
    writes them, without the parentheses (the one argument of a call), the last followed by
    ``suffix`` (the call's trailing comma)."""
    return _pieces(text, indent, suffix)


def _pair(key: object, value: object, indent: int, texts: Texts) -> list[str]:
    """One key-value pair of a split dict, with its trailing comma.

    The value is laid out once: whether the key must be cut is decided on the pair's first
    line alone (``_first_line``), so a dict nested ``n`` deep costs ``n`` layouts, not
    ``2**n`` (a layout per key shape at every level, once its indent passes the width)."""
    key_text = _key_text(key, texts)
    line = " " * indent + key_text + ": " + _text(value, texts) + ","
    if _fits(line):
        return [line]  # the whole pair fits: laid_out's first case, without measuring twice
    key = str(key)
    if _fits(_first_line(value, indent, key_text + ": ", ",", texts)):
        return laid_out(value, indent, key_text + ": ", ",", texts=texts)
    # A key too long for a line: its pieces first, the value after the last one (room
    # kept there for an atom value, or for the bracket that opens a longer one).
    cut = isinstance(value, (str, bytes)) and not isinstance(value, Code)
    atom = _shape(value, texts) is None and not cut
    tail = ": " + (_text(value, texts) + "," if atom else "(")
    key_lines = _pieces(key, indent, tail)
    last = key_lines[-1][indent : len(key_lines[-1]) - len(tail)]
    return key_lines[:-1] + laid_out(value, indent, last + ": ", ",", texts=texts)


def _first_line(value: object, indent: int, prefix: str, suffix: str, texts: Texts) -> str:
    """The first line of ``laid_out(value, indent, prefix, suffix, texts=texts)``, a
    non-empty ``prefix`` before it, without laying out the rest: the whole line where it
    fits or cannot be cut, else the prefix and the bracket that opens the value's lines."""
    line = " " * indent + prefix + _text(value, texts) + suffix
    if _fits(line):
        return line
    if isinstance(value, (str, bytes)) and not isinstance(value, Code):
        return " " * indent + prefix + "("
    shape = _shape(value, texts)
    return line if shape is None else " " * indent + prefix + shape[0]


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
    if type(value) is str:  # the commonest part (a name, a message): not a Code, a plain leaf
        text = literal_text(value)
    elif isinstance(value, Code):
        text = str(value)
    elif isinstance(value, tuple):
        text = tuple_text([_text(item, texts) for item in value])
    elif isinstance(value, list):
        text = "[" + ", ".join(_text(item, texts) for item in value) + "]"
    elif isinstance(value, dict):
        text = dict_text((_key_text(k, texts), _text(v, texts)) for k, v in value.items())
    else:
        text = literal_text(value)
    texts[id(value)] = text
    return text


def tuple_text(item_texts: Sequence[str]) -> str:
    """A tuple display on one line, from its items' texts."""
    inner = ", ".join(item_texts)
    return f"({inner},)" if len(item_texts) == 1 else f"({inner})"


def dict_text(pair_texts: Iterable[tuple[str, str]]) -> str:
    """A dict display on one line, from its keys' and values' texts."""
    return "{" + ", ".join(f"{key}: {value}" for key, value in pair_texts) + "}"


def _key_text(key: object, texts: Texts) -> str:
    """A dict key's literal (a key is written as its ``str``), made once per key object: a
    split dict's keys are written when it is measured, and again on their lines."""
    return _text(key, texts) if type(key) is str else literal_text(str(key))


def _fits(line: str, limit: int = LINE_LENGTH) -> bool:
    """Whether ``line`` is at most ``limit`` columns wide. A character takes one column or
    two, never none: a line of more characters than that is wider, and is not measured (a
    long value's text is measured character by character where it holds one non-ASCII
    character, at every level of its layout)."""
    # An ASCII line is as wide as it is long (``width`` says so): no call to measure it. Every
    # line of a table is measured, most of them ASCII (measured: tests_model.build about
    # 0.2 ms per contract over the 40-contract set).
    return len(line) <= limit and (line.isascii() or width(line) <= limit)


def _pieces(text: str | bytes, indent: int, suffix: str) -> list[str]:
    """``text`` as string (or bytes) literals, one per line at ``indent``, the last
    followed by ``suffix``.

    A piece takes as much of the text as its line has room for, its literal measured
    (escapes and wide characters included), at least one character; a full piece is cut
    after its last space or slash, if that is in its second half. Measuring and writing
    the pieces costs one :func:`literal`, of the whole text (see ``_Cutter``)."""
    if not text:
        return [f"{' ' * indent}{literal(text)}{suffix}"]
    cutter = _Cutter(text)
    pieces = cutter.pieces(cutter.ends(max(LINE_LENGTH - indent - len(suffix), _MIN_PIECE)), indent)
    pieces[-1] += suffix
    return pieces


def string_cuts(text: str, indent: int, whole: int) -> list[int]:
    """Where :func:`entry` cuts the string ``text`` it writes at ``indent`` with a comma after
    (``whole`` as there): the end of each piece, or none where it stays whole. With them,
    :func:`string_entry` writes the entry again without measuring anything."""
    if not text or width(literal_text(text)) + indent + 1 <= max(LINE_LENGTH, whole):
        return []
    return _Cutter(text).ends(max(LINE_LENGTH - indent - 1, _MIN_PIECE))


def string_entry(text: str, ends: list[int], indent: int) -> Code:
    """``entry(text, indent, whole=...)`` for a string whose pieces end where ``ends`` says
    (``string_cuts``; none: whole). Every piece is still a literal of a piece of ``text``,
    whatever ``ends`` says, as long as the ends rise and the last is the text's end."""
    if not ends:
        return literal(text)
    if ends[0] <= 0 or ends[-1] != len(text) or not all(map(operator.lt, ends, ends[1:])):
        raise ValueError("the ends of a string's pieces must rise to the end of the string")
    return Code("\n".join(_Cutter(text).pieces(ends, indent))[indent:])


class _Cutter:
    """One text's literal, cut into the literals of consecutive pieces of the text.

    The literal of a piece is its characters' escapes between quotes: the same escapes as in
    the literal of the whole text when the two take the same quote (black's choice: a double
    quote unless the text holds more double quotes than single ones, see :func:`literal`),
    or when the piece holds no quote. So a piece's width follows from its characters'
    columns and its quote counts, and its text is a slice of the whole literal; a piece
    that quotes otherwise is written by :func:`literal` itself. Every character is one
    column and one character of the literal, but the few ``_SPECIAL`` ones (escapes, wide
    characters), whose extra columns and lengths are totalled once for the text.
    ``tests/test_wrapping.py`` holds the pieces equal to the literals of the pieces."""

    def __init__(self, text: str | bytes) -> None:
        self.text = text
        whole = literal_text(text)
        #: ``b`` before a bytes literal's quote, or nothing.
        self.lead = "b" if isinstance(text, bytes) else ""
        self.quote = whole[-1]
        self.body = whole[len(self.lead) + 1 : -1]
        #: Where in ``body`` the next piece starts (pieces are asked for in order).
        self.at = 0
        #: Where the special characters are, and the extra columns and lengths of the first
        #: 0, 1, 2, ... of them (beyond one each).
        self.specials = _specials(text)
        extras = [_escaped(text[at]) for at in self.specials]
        self.columns = list(accumulate((c - 1 for c, _ in extras), initial=0))
        self.lengths = list(accumulate((n - 1 for _, n in extras), initial=0))

    def ends(self, room: int) -> list[int]:
        """Where each piece ends, each taking at most ``room`` columns (or one character)."""
        text = self.text
        ends: list[int] = []
        start = 0
        while start < len(text):
            end = start + self.fitting(start, room)
            if end < len(text):
                end = _last_break(text, start + (end - start) // 2, end) or end
            ends.append(end)
            start = end
        return ends

    def pieces(self, ends: list[int], indent: int) -> list[str]:
        """The literals of the pieces that end at ``ends``, each on a line at ``indent``."""
        pad = " " * indent
        if isinstance(self.text, str) and self.quote not in self.text:
            # The common case (JSON text holds double quotes, and no single one): no escaped
            # quote, so a piece's place in the body follows from the special characters
            # before it, and a piece takes the whole's quote, or '"' where it holds no quote.
            at = [0, *(end + self.lengths[bisect_left(self.specials, end)] for end in ends)]
            slices = [self.body[first:last] for first, last in pairwise(at)]
            if self.quote == '"':
                return [f'{pad}"{body}"' for body in slices]
            return [f"{pad}'{body}'" if '"' in body else f'{pad}"{body}"' for body in slices]
        starts = [0, *ends[:-1]]
        return [pad + self.piece(start, end) for start, end in zip(starts, ends, strict=True)]

    def fitting(self, start: int, room: int) -> int:
        """How many characters from ``start`` the next piece takes: as many as fit in
        ``room`` columns, at least one."""
        size = max(min(len(self.text) - start, room - len(self.lead) - 2), _MIN_PIECE)
        over = self.width(start, start + size) - room
        while over > 0 and size > _MIN_PIECE:
            # A character takes at most 10 columns (\U0001f600): drop enough to fit, or one.
            size = max(_MIN_PIECE, size - max(1, over // 10))
            over = self.width(start, start + size) - room
        return size

    def width(self, start: int, end: int) -> int:
        """The columns of the literal of ``text[start:end]``."""
        extra = self._extra(self.columns, start, end)
        return len(self.lead) + 2 + end - start + extra + min(self._quotes(start, end))

    def piece(self, start: int, end: int) -> str:
        """The literal of ``text[start:end]``, the piece right after the last one asked for."""
        singles, doubles = self._quotes(start, end)
        quote = "'" if doubles > singles else '"'
        escaped = singles if self.quote == "'" else doubles
        size = end - start + self._extra(self.lengths, start, end) + escaped
        first, self.at = self.at, self.at + size
        if quote != self.quote and (singles or doubles):
            return literal_text(self.text[start:end])
        return f"{self.lead}{quote}{self.body[first : self.at]}{quote}"

    def _extra(self, totals: list[int], start: int, end: int) -> int:
        """The extra columns or lengths (``totals``) of the special characters in ``text[start:end]``."""
        return totals[bisect_left(self.specials, end)] - totals[bisect_left(self.specials, start)]

    def _quotes(self, start: int, end: int) -> tuple[int, int]:
        """How many single and double quotes ``text[start:end]`` holds."""
        text = self.text
        if isinstance(text, str):
            return text.count("'", start, end), text.count('"', start, end)
        return text.count(b"'", start, end), text.count(b'"', start, end)


#: The characters (and bytes) a literal writes as other than one column, one character:
#: all but printable ASCII, and the backslash. Quotes are counted apart (``_Cutter``).
_SPECIAL = re.compile(r"[^ -\[\]-~]")
_SPECIAL_BYTES = re.compile(rb"[^ -\[\]-~]")


def _specials(text: str | bytes) -> list[int]:
    """Where ``text``'s special characters are (see ``_SPECIAL``)."""
    if isinstance(text, bytes):
        return [found.start() for found in _SPECIAL_BYTES.finditer(text)]
    return [found.start() for found in _SPECIAL.finditer(text)]


@functools.lru_cache(maxsize=4096)
def _escaped(unit: str | int) -> tuple[int, int]:
    """The columns and the length of one character (or byte) in a literal: measured on
    :func:`literal`'s own text of it."""
    text = literal_text(unit) if isinstance(unit, str) else literal_text(bytes([unit]))[1:]
    return width(text) - 2, len(text) - 2


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
