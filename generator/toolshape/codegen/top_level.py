"""A module's top-level statements, read from its lines instead of by ``ast.parse``.

``formatting.split`` cuts a module into pieces after its top-level defs and classes; all
it needs of each top-level statement is where it begins and ends and what kind it is.
``ast.parse`` of a whole generated module (hundreds of lines, thousands of nodes) builds
every node as a Python object; this scanner reads the same facts with a few regular
expressions over the whole text. It masks strings and comments (one substitution), then
reads the lines at column 0, following only what makes such a line continue the one above:
an open bracket, a triple-quoted string running on, or a clause (``else:``, ``except``)
of the statement above; indented lines belong to the statement above them.

It reads Python that compiles (every source it is given is compiled afterwards, by
``render.render`` or ``runtime.load_module``), and it answers None for anything it does
not know for sure: a first line of a kind it does not recognise (an expression that is
not a bare string, an assignment to anything but a plain name), an f-string whose braces
do not balance on its own line or a triple-quoted one (Python 3.12 lets a replacement
field hold the string's own quote), statements that share a line (``;``), tabs and line
ends ast does not count, brackets still open at the end. ``split`` then asks ``ast.parse``. ``tests/test_top_level.py`` holds the
scanner to ``ast.parse`` on every example contract's module, on synthetic ones, on every
generated file and on hostile sources, hand-written and randomly assembled.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

#: What the scanner masks, left to right: a triple-quoted string (tried before a one-line
#: one, so ``"""`` is never read as ``""`` then ``"``), a one-line string, a comment.
_TRIPLE = (
    r"\"\"\"[^\"\\]*(?:(?:\\.|\"(?!\"\"))[^\"\\]*)*\"\"\""
    r"|'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
)
_ONE_LINE = r"\"[^\"\\\n]*(?:\\.[^\"\\\n]*)*\"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'"
_COMMENT = r"#[^\n]*"
_STRINGS = f"(?P<triple>{_TRIPLE})|(?P<string>{_ONE_LINE})|(?P<comment>{_COMMENT})"
#: The same branches in the same order, not in groups, for the common source (no f-string):
#: with each branch in a group, the regular expression engine tries every branch at every
#: character; without, it skips straight to the next quote or ``#`` (four times faster over
#: a module). ``_plain_kind`` tells the branches apart by the text each matches.
_PLAIN = re.compile(f"{_TRIPLE}|{_ONE_LINE}|{_COMMENT}")
#: The same with f-strings first (checked for their braces), for a source where ``_PLAIN``
#: leaves a string right after an ``f`` or an ``r``. A prefix counts only at the start of a
#: word (``if"x"`` is ``if``, then a string). Without these branches the regular expression
#: engine skips straight to the next quote or ``#``: with them it costs several times more.
_MASKED = re.compile(
    r"(?P<ftriple>(?<!\w)[rRbBuU]?[fF][rRbB]?(?:\"\"\"|'''))"
    r"|(?P<fstring>(?<!\w)[rRbBuU]?[fF][rRbB]?(?:\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'))|"
    + _STRINGS
)
#: What stands for a string in the masked source: neither a bracket nor a colon, nor valid
#: Python outside a string. Each line a string runs on to begins with ``_INSIDE``.
_STRING = "$"
_INSIDE = "\x01"
#: What the masked source holds where the scanner cannot read an f-string.
_REFUSED = "\x00"
#: Tabs, line ends ast does not count, a backslash continuation: sources left to ast.
_ODD = re.compile("[\t\v\f\r\x1c\x1d\x1e\x85\u2028\u2029]")
#: A line of code at column 0 in the masked source: maybe a statement's first line.
_COLUMN_ZERO = re.compile(r"^[^\s\x01]", re.MULTILINE)
#: A clause that continues the compound statement above it at column 0.
_CLAUSE = re.compile(r"(?:else|elif|except|finally)\b")
#: An assignment (plain, annotated or augmented) to one plain name: ``NAME = ...``, ``NAME: T``.
_ASSIGNMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*) *(?:=(?!=)|:|(?:[-+*/%&|^@]|//|\*\*|>>|<<)=)")
#: First words of statements that are neither expressions, imports, defs nor classes.
_OTHER = (
    "if ",
    "for ",
    "while ",
    "try:",
    "with ",
    "async for ",
    "async with ",
    "del ",
    "assert ",
    "raise ",
    "global ",
)
_DEF = ("def ", "async def ", "class ")


@dataclass
class Statement:
    """One top-level statement: ``first`` and ``end`` lines (1-based, as ast's ``lineno``
    of its first decorator, else of the statement, and ``end_lineno``), ``kind`` (``def``
    for a def or class, ``import``, ``expr`` for an expression statement, ``other``) and,
    for a def or class, whether its body begins on a line of its own (``clean``)."""

    first: int
    end: int
    kind: str
    clean: bool = False


class _Unknown(Exception):
    """A line the scanner does not know for sure: ``ast.parse`` must decide."""


def statements(source: str) -> list[Statement] | None:
    """The top-level statements of a module, or None where the scanner cannot tell (see
    the module docstring)."""
    if "\\\n" in source or _ODD.search(source):
        return None
    masked = _PLAIN.sub(_mask, source)
    if any(prefix in masked for prefix in ("f$", "F$", "r$", "R$")):
        # A string right after an f (``f"``, ``rf"``, ``fr"``): maybe an f-string.
        masked = _MASKED.sub(_mask, source)
    if _REFUSED in masked or "'" in masked or '"' in masked or ";" in masked:
        # An f-string it cannot read, a quote that opens no string it knows, or statements
        # that share a line.
        return None
    try:
        return _scan(masked, source.split("\n"))
    except _Unknown:
        return None


def _mask(found: re.Match[str]) -> str:
    """What stands for a string or comment in the masked source (the lines stay where they are)."""
    kind = found.lastgroup or _plain_kind(found.group())
    if kind == "string":
        return _STRING
    if kind == "comment":
        return ""
    text = found.group()
    if kind == "triple":
        return _STRING + ("\n" + _INSIDE) * text.count("\n")
    if kind == "fstring" and text.count("{") == text.count("}"):
        return _STRING
    return _REFUSED  # Python 3.12 may read an f-string on past a quote inside it


def _plain_kind(text: str) -> str:
    """Which of ``_PLAIN``'s branches matched ``text``: a triple-quoted string is tried first,
    so a match that opens with three quotes is one (a one-line string that opens with two
    is ``""``, two characters); a comment opens with ``#``."""
    if text.startswith(('"""', "'''")):
        return "triple"
    return "comment" if text.startswith("#") else "string"


def _scan(masked_source: str, lines: list[str]) -> list[Statement]:
    """The statements, from the source's ``lines`` and the masked source."""
    masked = masked_source.split("\n")
    found: list[Statement] = []
    depth = 0  # brackets open before line ``done`` (0-based)
    done = 0
    newlines = 0
    offset = 0
    for match in _COLUMN_ZERO.finditer(masked_source):
        newlines += masked_source.count("\n", offset, match.start())
        offset, index = match.start(), newlines
        depth += _brackets("\n".join(masked[done:index]))
        done = index
        if not depth:
            _begin(found, lines[index], index, masked)
    depth += _brackets("\n".join(masked[done:]))
    if depth or (found and found[-1].kind == "decorator"):
        raise _Unknown
    if not found:
        return found
    ends = [statement.first - 1 for statement in found[1:]] + [len(masked)]
    for statement, end in zip(found, ends, strict=True):
        statement.end = _last_code_line(masked, statement.first - 1, end)
        if statement.kind == "expr" and (
            "\n".join(masked[statement.first - 1 : statement.end])
            .replace(_STRING, "")
            .replace(_INSIDE, "")
            .strip()
        ):
            raise _Unknown  # an expression statement must be strings alone ("a".x = 1 is not)
    return found


def _begin(found: list[Statement], line: str, index: int, masked: list[str]) -> None:
    """Take in the line at ``index``, at column 0 outside brackets: a new statement, or a
    clause, def or class that continues the one above."""
    decorated = bool(found) and found[-1].kind == "decorator"
    if decorated or _CLAUSE.match(line):
        if not found or (decorated and not line.startswith((*_DEF, "@"))):
            raise _Unknown
        if line.startswith(_DEF):
            found[-1].kind, found[-1].clean = "def", _clean(masked, index)
        return
    found.append(Statement(index + 1, index + 1, _kind(line)))
    if found[-1].kind == "def":
        found[-1].clean = _clean(masked, index)


def _last_code_line(masked: list[str], first: int, end: int) -> int:
    """The 1-based number of the last line in ``masked[first:end]`` with code on it."""
    for index in range(end - 1, first - 1, -1):
        if masked[index].strip():
            return index + 1
    raise _Unknown


def _clean(masked: list[str], index: int) -> bool:
    """Whether the def or class header at ``index`` ends with ``:`` (its body on lines of its own)."""
    depth = 0
    for line in masked[index:]:
        depth += _brackets(line)
        if not depth:
            return line.rstrip().endswith(":")
    raise _Unknown


def _kind(line: str) -> str:
    """The kind of the statement that begins on ``line`` (see Statement)."""
    if line.startswith("@"):
        return "decorator"  # until its def or class begins
    if line.startswith(_DEF):
        return "def"
    if line.startswith(("import ", "from ")):
        return "import"
    if line.startswith(('"', "'")):
        return "expr"  # a bare string, or an expression that begins with one
    assigned = _ASSIGNMENT.match(line)
    if (
        (assigned and not keyword.iskeyword(assigned.group(1)))
        or line.startswith(_OTHER)
        or line.rstrip() == "pass"
    ):
        return "other"
    raise _Unknown


def _brackets(code: str) -> int:
    """How many brackets ``code`` opens, less those it closes."""
    opened = code.count("(") + code.count("[") + code.count("{")
    return opened - code.count(")") - code.count("]") - code.count("}")
