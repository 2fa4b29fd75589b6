"""ECMA-262 pattern text -> an abstract syntax tree of our own.

One recursive-descent parser serves translation, witness search and the backtracking lint, so the
three agree on what a pattern means. It reads the syntax JSON Schema patterns use (ECMA-262 without
flags, with the Annex B leniencies Python's ``re`` shares: a lone ``{`` or ``]`` is a literal) and
refuses, with the ECMA-262 spelling to use, Python-only syntax that would otherwise slip through
translation with a Python meaning (``\\Z``, ``(?P<n>...)``, possessive ``a++``...).

Each ``Char`` node carries both its set of code points (for the automaton) and its Python ``re``
spelling (for ``translate``), computed here where the source text is at hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from .charset import DIGITS, DOT, MAX_CODE_POINT, SPACE, WORD, CharSet
from .properties import UnknownProperty, property_chars

#: The largest repeat count accepted: every supported Python compiles it, and the automaton stays small.
MAX_REPEAT = 1000


#: Characters a message cannot show as they are: controls (a line break would split the
#: ``path:line:col`` line) and the two Unicode line separators.
_UNSHOWABLE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def as_written(pattern: str) -> str:
    """A pattern (or a part of one) quoted for a message the way a contract spells it: ECMA-262,
    one backslash per escape (``'^(\\w+\\s?)*$'``), not Python's repr with its doubled ones.
    Only the characters a one-line message cannot hold are escaped, with the ECMA-262 escape
    that means the same character (``\\n``, ``\\u0007``)."""

    def escape(match: re.Match[str]) -> str:
        char = match.group()
        return _SHORT_ESCAPES.get(char, f"\\u{ord(char):04x}")

    return "'" + _UNSHOWABLE.sub(escape, pattern) + "'"


class PatternError(ValueError):
    """A pattern that is not ECMA-262, or whose ECMA-262 meaning Python's ``re`` cannot reproduce exactly."""


@dataclass(frozen=True)
class Empty:
    """Matches the empty string (an empty alternative or group)."""


@dataclass(frozen=True)
class Char:
    """One character from ``chars``; ``py`` is its Python ``re`` spelling."""

    chars: CharSet
    py: str


@dataclass(frozen=True)
class Seq:
    items: tuple[Node, ...]


@dataclass(frozen=True)
class Alt:
    options: tuple[Node, ...]


@dataclass(frozen=True)
class Group:
    """A group; ``index`` is its number when it captures (ECMA-262 and Python number alike)."""

    body: Node
    index: int | None = None
    name: str | None = None


@dataclass(frozen=True)
class Repeat:
    """A quantified atom; ``span`` is its (start, end) offset in the pattern text, for messages."""

    body: Node
    min: int
    max: int | None
    lazy: bool = False
    span: tuple[int, int] = field(default=(0, 0), compare=False)


@dataclass(frozen=True)
class Assert:
    """A zero-width assertion: ``start`` (^), ``end`` ($), ``word`` (\\b) or ``nonword`` (\\B)."""

    kind: str


@dataclass(frozen=True)
class Look:
    body: Node
    ahead: bool
    negative: bool


@dataclass(frozen=True)
class Backref:
    index: int
    name: str | None = None


Node = Empty | Char | Seq | Alt | Group | Repeat | Assert | Look | Backref


@dataclass(frozen=True)
class Pattern:
    """A parsed pattern: the tree and its capturing groups (number -> the group node)."""

    root: Node
    groups: tuple[Group, ...]


_SYNTAX = "^$\\.*+?()[]{}|/"
_PY_SPECIAL = "\\.^$*+?{}[]|()"
#: Escaped inside a class: its syntax, and doubled characters Python reserves for set operations.
_CLASS_SPECIAL = "\\]^-[&~|"
#: ECMA-262 whitespace as Python class text (as the old translator spelled it, so output is stable).
_CLASS_WHITESPACE = (
    "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"
)
_CONTROL_ESCAPES = {"t": 0x09, "n": 0x0A, "v": 0x0B, "f": 0x0C, "r": 0x0D}
_PYTHON_ESCAPES = {
    "A": "`\\A` is Python syntax; in JSON Schema (ECMA-262) `^` matches at the very start",
    "Z": "`\\Z` is Python syntax; in JSON Schema (ECMA-262) `$` matches at the very end",
    "z": "`\\z` is not ECMA-262; in JSON Schema (ECMA-262) `$` matches at the very end",
    "a": "`\\a` is Python syntax for the bell character; in ECMA-262 write `\\x07`",
    "N": "`\\N{...}` is Python syntax; in ECMA-262 write the code point as `\\uHHHH` or `\\u{H...}`",
    "G": "`\\G` is not ECMA-262 (it has no such anchor)",
    "e": "`\\e` is not ECMA-262; write the escape character as `\\x1b`",
}


def _render(code: int, in_class: bool) -> str:
    """A code point as Python ``re`` text: itself when printable and harmless, else an escape."""
    ch = chr(code)
    if ch in (_CLASS_SPECIAL if in_class else _PY_SPECIAL):
        return "\\" + ch
    if ch.isprintable() and not 0xD800 <= code <= 0xDFFF:
        return ch
    if code <= 0xFF:
        return f"\\x{code:02x}"
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def _class_escape_py(letter: str, in_class: bool) -> tuple[CharSet, str]:
    """The sets behind ``\\d \\D \\w \\W \\s \\S`` (ASCII \\d and \\w, ECMA-262 whitespace)."""
    base = {"d": DIGITS, "w": WORD, "s": SPACE}[letter.lower()]
    chars = base if letter.islower() else base.complement()
    if letter in "dDwW":
        return chars, "\\" + letter  # translate() sets (?a): ASCII meanings, as ECMA-262
    spelled = _CLASS_WHITESPACE
    if letter == "s":
        return chars, spelled if in_class else f"[{spelled}]"
    if in_class:
        # Python's \S is Unicode's non-space, not ECMA-262's: inside a class ([\s\S], [\S]+)
        # it is spelled as the ranges it stands for, which a class can always hold.
        return chars, "".join(_class_range(low, high) for low, high in chars.ranges)
    return chars, f"[^{spelled}]"


def _class_range(low: int, high: int) -> str:
    """One range of code points as Python class text (a single character when they are one)."""
    if low == high:
        return _render(low, True)
    return f"{_render(low, True)}-{_render(high, True)}"


#: What ECMA-262's ``[^]`` and ``[]`` match (any character; none), spelled as Python's re can:
#: it has no empty class, and its ``[^]`` is an error.
_EVERY_CODE_POINT = f"[{_class_range(0, MAX_CODE_POINT)}]"
_NOTHING = Char(CharSet(()), f"[^{_class_range(0, MAX_CODE_POINT)}]")


class _Parser:
    """Recursive descent over the pattern text; ``pos`` is the next character to read."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.pos = 0
        self.groups: list[Group | None] = []
        self.names: dict[str, int] = {}
        self.references: list[tuple[int | str, int]] = []

    # -- helpers ---------------------------------------------------------------------------------
    def peek(self, k: int = 0) -> str:
        at = self.pos + k
        return self.text[at] if at < len(self.text) else ""

    def startswith(self, prefix: str) -> bool:
        return self.text.startswith(prefix, self.pos)

    def fail(self, message: str) -> PatternError:
        return PatternError(f"{message} (at offset {self.pos})")

    # -- grammar ---------------------------------------------------------------------------------
    def parse(self) -> Pattern:
        root = self.disjunction()
        if self.pos < len(self.text):
            raise self.fail("unbalanced ')': there is no group to close")
        for ref, at in self.references:
            if isinstance(ref, str):
                if ref not in self.names:
                    raise PatternError(f"'\\k<{ref}>' names no group (at offset {at})")
            elif ref > len(self.groups):
                raise PatternError(
                    f"'\\{ref}' refers to group {ref}, but the pattern has {len(self.groups)} groups"
                )
        groups = tuple(g for g in self.groups if g is not None)
        return Pattern(_resolve(root, self.names), groups)

    def disjunction(self) -> Node:
        options = [self.alternative()]
        while self.peek() == "|":
            self.pos += 1
            options.append(self.alternative())
        return options[0] if len(options) == 1 else Alt(tuple(options))

    def alternative(self) -> Node:
        items: list[Node] = []
        while self.pos < len(self.text) and self.peek() not in "|)":
            items.append(self.term())
        if not items:
            return Empty()
        return items[0] if len(items) == 1 else Seq(tuple(items))

    def term(self) -> Node:
        start = self.pos
        atom = self.atom()
        quantifier = self.quantifier()
        if quantifier is None:
            return atom
        low, high, lazy = quantifier
        if isinstance(atom, (Assert, Look)):
            self.pos = start
            raise self.fail("an anchor or lookaround cannot be repeated")
        return Repeat(atom, low, high, lazy, (start, self.pos))

    def quantifier(self) -> tuple[int, int | None, bool] | None:
        ch = self.peek()
        if ch in ("*", "+", "?"):
            self.pos += 1
            bounds: tuple[int, int | None] = {"*": (0, None), "+": (1, None), "?": (0, 1)}[ch]
        elif ch == "{":
            braces = self.braces()
            if braces is None:
                return None
            bounds = braces
        else:
            return None
        lazy = self.peek() == "?"
        if lazy:
            self.pos += 1
        if self.peek() == "+":
            raise self.fail(
                "possessive quantifiers ('*+', '++', '?+', '{n}+') are Python syntax, not ECMA-262; "
                "drop the '+' (or use a lookahead with a backreference, (?=(a+))\\1, for an atomic match)"
            )
        if self.peek() in ("*", "?") or (self.peek() == "{" and self.braces_ahead()):
            raise self.fail("nothing to repeat: a quantifier cannot follow another quantifier")
        return bounds[0], bounds[1], lazy

    def braces_ahead(self) -> bool:
        saved = self.pos
        try:
            return self.braces() is not None
        finally:
            self.pos = saved

    def braces(self) -> tuple[int, int | None] | None:
        """``{n}``, ``{n,}``, ``{n,m}``; None (a literal brace, Annex B) for anything else."""
        end = self.text.find("}", self.pos)
        if end == -1:
            return None
        body = self.text[self.pos + 1 : end]
        if body.startswith(",") and body[1:].isdigit():
            raise self.fail(
                f"'{{{body}}}' is Python syntax; in JSON Schema (ECMA-262) it is literal text: write '{{0{body}}}'"
            )
        low_text, comma, high_text = body.partition(",")
        if not (low_text.isdigit() and low_text.isascii()) or not (
            high_text == "" or high_text.isdigit()
        ):
            return None
        if not high_text.isascii():
            return None
        low = int(low_text)
        high = None if comma and not high_text else int(high_text) if comma else low
        if high is not None and high < low:
            raise self.fail(f"'{{{body}}}': the repeat counts are out of order")
        if max(low, high or 0) > MAX_REPEAT:
            raise self.fail(f"'{{{body}}}': repeat counts above {MAX_REPEAT} are not supported")
        self.pos = end + 1
        return low, high

    def atom(self) -> Node:
        ch = self.peek()
        if ch in ("*", "+", "?"):
            raise self.fail(f"nothing to repeat before '{ch}'")
        if ch == "{" and self.braces_ahead():
            raise self.fail("nothing to repeat before '{'")
        self.pos += 1
        if ch == "^":
            return Assert("start")
        if ch == "$":
            return Assert("end")
        if ch == ".":
            return Char(DOT, "[^\\n\\r\\u2028\\u2029]")
        if ch == "(":
            return self.group()
        if ch == "[":
            return self.char_class()
        if ch == "\\":
            return self.atom_escape()
        return Char(CharSet.chars(ch), _render(ord(ch), False))

    def group(self) -> Node:
        if not self.startswith("?"):
            return self.capture(None)
        head = self.text[self.pos : self.pos + 3]
        for prefix, ahead, negative in (
            ("?=", True, False),
            ("?!", True, True),
            ("?<=", False, False),
            ("?<!", False, True),
        ):
            if head.startswith(prefix):
                self.pos += len(prefix)
                body = self.disjunction()
                self.close()
                return Look(body, ahead, negative)
        if head.startswith("?:"):
            self.pos += 2
            body = self.disjunction()
            self.close()
            return Group(body)
        if head.startswith("?<"):
            end = self.text.find(">", self.pos)
            name = self.text[self.pos + 2 : end] if end != -1 else ""
            if not name.isidentifier():
                raise self.fail("a group name must be an identifier: (?<name>...)")
            self.pos = end + 1
            return self.capture(name)
        raise self.fail(self.python_group_message())

    def python_group_message(self) -> str:
        rest = self.text[self.pos :]
        if rest.startswith("?P<"):
            return "'(?P<name>...)' is Python syntax; in JSON Schema (ECMA-262) a named group is '(?<name>...)'"
        if rest.startswith("?P="):
            return "'(?P=name)' is Python syntax; in JSON Schema (ECMA-262) a named backreference is '\\k<name>'"
        if rest.startswith("?#"):
            return "'(?#...)' comments are Python syntax; ECMA-262 has none: remove the comment"
        if rest.startswith("?>"):
            return "atomic groups '(?>...)' are Python syntax; in ECMA-262 write (?=(...))\\1 for an atomic match"
        if rest.startswith("?("):
            return "conditional groups '(?(...)...)' are Python syntax; ECMA-262 has none: use an alternation"
        if rest[1:2].isalpha() or rest[1:2] == "-":
            return (
                "inline flags such as '(?i)' or '(?i:...)' are Python syntax; JSON Schema patterns have no flags: "
                "spell the cases out, e.g. [Aa] for a case-insensitive a"
            )
        return "'(?' must start a group (?:...), (?<name>...), or a lookaround (?=...) (?!...) (?<=...) (?<!...)"

    def capture(self, name: str | None) -> Group:
        index = len(self.groups) + 1
        self.groups.append(None)
        if name is not None:
            if name in self.names:
                raise self.fail(f"the group name '{name}' is used twice")
            self.names[name] = index
        body = self.disjunction()
        self.close()
        group = Group(body, index, name)
        self.groups[index - 1] = group
        return group

    def close(self) -> None:
        if self.peek() != ")":
            raise self.fail("a group is not closed: ')' is missing")
        self.pos += 1

    def atom_escape(self) -> Node:
        ch = self.peek()
        if not ch:
            raise self.fail("the pattern ends with a lone backslash")
        if ch == "b":
            self.pos += 1
            return Assert("word")
        if ch == "B":
            self.pos += 1
            return Assert("nonword")
        if ch in "123456789":
            start = self.pos
            while self.peek().isdigit() and self.peek().isascii():
                self.pos += 1
            index = int(self.text[start : self.pos])
            self.references.append((index, start))
            return Backref(index)
        if ch == "k":
            end = self.text.find(">", self.pos)
            if self.peek(1) != "<" or end == -1:
                raise self.fail("'\\k' must name a group: \\k<name>")
            name = self.text[self.pos + 2 : end]
            self.references.append((name, self.pos))
            self.pos = end + 1
            return Backref(0, name)
        chars, py = self.char_escape(in_class=False)
        return Char(chars, py)

    def char_escape(self, in_class: bool) -> tuple[CharSet, str]:
        """An escape after the backslash (``pos`` at the letter): its set and Python spelling."""
        ch = self.peek()
        self.pos += 1
        if ch in "dDwWsS":
            return _class_escape_py(ch, in_class)
        if ch in "pP":
            chars = self.property_escape(negated=ch == "P")
            body = "".join(_class_range(low, high) for low, high in chars.ranges)
            if in_class:
                return chars, body  # empty for \P{Any}: char_class spells an empty class
            return chars, f"[{body}]" if body else _NOTHING.py
        if ch in _CONTROL_ESCAPES:
            code = _CONTROL_ESCAPES[ch]
            return CharSet.of([(code, code)]), "\\" + ch
        if ch == "c":
            letter = self.peek()
            if not (letter.isascii() and letter.isalpha()):
                raise self.fail("'\\c' must be followed by a letter")
            self.pos += 1
            code = ord(letter) % 32
            return CharSet.of([(code, code)]), f"\\x{code:02x}"
        if ch == "0":
            if self.peek().isdigit():
                raise self.fail("octal escapes are not ECMA-262 patterns; write '\\xHH'")
            return CharSet.of([(0, 0)]), "\\x00"
        if ch in "123456789" and in_class:
            raise self.fail(f"'\\{ch}' inside a character class is not ECMA-262; write '\\xHH'")
        if ch == "x":
            digits = self.text[self.pos : self.pos + 2]
            if len(digits) != 2 or not _is_hex(digits):
                raise self.fail("'\\x' must be followed by two hexadecimal digits")
            self.pos += 2
            code = int(digits, 16)
            return CharSet.of([(code, code)]), _render(code, in_class)
        if ch == "u":
            code = self.unicode_escape()
            return CharSet.of([(code, code)]), _render(code, in_class)
        if ch == "b" and in_class:
            return CharSet.of([(8, 8)]), "\\x08"
        if ch in _PYTHON_ESCAPES:
            raise self.fail(_PYTHON_ESCAPES[ch])
        if ch.isascii() and ch.isalnum():
            raise self.fail(f"'\\{ch}' is not an ECMA-262 escape; write the character itself")
        # Any other character escaped stands for itself (ECMA-262's identity escape without
        # the u flag): punctuation, and '_', which no regex dialect reads as anything else.
        return CharSet.chars(ch), _render(ord(ch), in_class)

    def property_escape(self, negated: bool) -> CharSet:
        """``\\p{...}`` or ``\\P{...}`` (``pos`` at the brace): the code points it matches,
        spelled out since Python's re has no such escape (see properties.py)."""
        end = self.text.find("}", self.pos)
        if self.peek() != "{" or end == -1:
            raise self.fail("'\\p' and '\\P' must name a Unicode property: \\p{Letter}")
        try:
            chars = property_chars(self.text[self.pos + 1 : end])
        except UnknownProperty as error:
            raise self.fail(str(error)) from None
        self.pos = end + 1
        return chars.complement() if negated else chars

    def unicode_escape(self) -> int:
        if self.peek() == "{":
            end = self.text.find("}", self.pos)
            digits = self.text[self.pos + 1 : end] if end != -1 else ""
            if not digits or not _is_hex(digits) or int(digits, 16) > 0x10FFFF:
                raise self.fail("'\\u{...}' must hold a hexadecimal code point")
            self.pos = end + 1
            return int(digits, 16)
        digits = self.text[self.pos : self.pos + 4]
        if len(digits) != 4 or not _is_hex(digits):
            raise self.fail("'\\u' must be followed by four hexadecimal digits (or '{...}')")
        self.pos += 4
        code = int(digits, 16)
        low = self.text[self.pos : self.pos + 6]
        if (
            0xD800 <= code <= 0xDBFF
            and low.startswith("\\u")
            and _is_hex(low[2:])
            and len(low) == 6
        ):
            second = int(low[2:], 16)
            if 0xDC00 <= second <= 0xDFFF:  # a surrogate pair spells one code point
                self.pos += 6
                return 0x10000 + ((code - 0xD800) << 10) + (second - 0xDC00)
        return code

    def char_class(self) -> Char:
        negated = self.peek() == "^"
        if negated:
            self.pos += 1
        chars = CharSet(())
        spelled: list[str] = []
        while True:
            if self.pos >= len(self.text):
                raise self.fail("a character class is not closed")
            if self.peek() == "]":
                self.pos += 1
                break
            first, first_py, single = self.class_atom()
            if self.peek() == "-" and self.peek(1) not in ("]", ""):
                self.pos += 1
                last, last_py, last_single = self.class_atom()
                if single is not None and last_single is not None:
                    if single > last_single:
                        raise self.fail("a character class range is out of order")
                    chars = chars.union(CharSet.of([(single, last_single)]))
                    spelled.append(f"{first_py}-{last_py}")
                    continue
                # Annex B: a class escape next to '-' makes the '-' a literal ([\d-z]).
                chars = chars.union(first).union(last).union(CharSet.chars("-"))
                spelled.extend([first_py, "\\-", last_py])
                continue
            chars = chars.union(first)
            spelled.append(first_py)
        if spelled and spelled[-1] == "\\-":
            spelled[-1] = (
                "-"  # a final '-' is a literal in both dialects: keep the pattern's spelling
            )
        body = "".join(spelled)
        if not body:  # [] and [^] (or only \P{Any}): Python's re has no empty class
            return Char(chars.complement(), _EVERY_CODE_POINT) if negated else _NOTHING
        if negated:
            return Char(chars.complement(), f"[^{body}]")
        return Char(chars, f"[{body}]")

    def class_atom(self) -> tuple[CharSet, str, int | None]:
        """One class member: its set, spelling, and code point when it is a single character."""
        ch = self.peek()
        self.pos += 1
        if ch == "\\":
            if not self.peek():
                raise self.fail("the pattern ends with a lone backslash")
            letter = self.peek()
            chars, py = self.char_escape(in_class=True)
            if letter in "dDwWsSpP":
                return chars, py, None
            if letter == "B":
                raise self.fail("'\\B' is not allowed inside a character class")
            code = chars.ranges[0][0]
            return chars, _render(code, True), code
        return CharSet.chars(ch), _render(ord(ch), True), ord(ch)


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdefABCDEF" for c in text)


def _resolve(node: Node, names: dict[str, int]) -> Node:
    """Give each named backreference its group number (names may be used before they are defined)."""
    if isinstance(node, Backref) and node.name is not None:
        return Backref(names[node.name], node.name)
    if isinstance(node, (Seq, Alt)):
        children = node.items if isinstance(node, Seq) else node.options
        resolved = tuple(_resolve(child, names) for child in children)
        return Seq(resolved) if isinstance(node, Seq) else Alt(resolved)
    if isinstance(node, Group):
        return Group(_resolve(node.body, names), node.index, node.name)
    if isinstance(node, Repeat):
        return Repeat(_resolve(node.body, names), node.min, node.max, node.lazy, node.span)
    if isinstance(node, Look):
        return Look(_resolve(node.body, names), node.ahead, node.negative)
    return node


def parse(text: str) -> Pattern:
    """The syntax tree of the ECMA-262 pattern ``text``; raises PatternError with a hint."""
    try:
        return _Parser(text).parse()
    except RecursionError:
        raise PatternError("the pattern nests groups too deeply") from None


def fixed_width(node: Node) -> int | None:
    """The fixed number of characters ``node`` matches, or None when it varies (or has a backreference)."""
    if isinstance(node, Char):
        return 1
    if isinstance(node, (Empty, Assert, Look)):
        return 0
    if isinstance(node, Seq):
        widths = [fixed_width(item) for item in node.items]
        return None if None in widths else sum(w for w in widths if w is not None)
    if isinstance(node, Alt):
        options = {fixed_width(option) for option in node.options}
        return options.pop() if len(options) == 1 else None
    if isinstance(node, Group):
        return fixed_width(node.body)
    if isinstance(node, Repeat):
        inner = fixed_width(node.body)
        if inner is None or node.max != node.min:
            return None if inner != 0 else 0
        return inner * node.min
    return None


def nodes(root: Node) -> Iterator[Node]:
    """Every node of the tree under ``root`` (itself included), each once, in no set order."""
    todo = [root]
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, Seq):
            todo.extend(node.items)
        elif isinstance(node, Alt):
            todo.extend(node.options)
        elif isinstance(node, (Group, Repeat, Look)):
            todo.append(node.body)
