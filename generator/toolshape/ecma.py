"""JSON Schema patterns are ECMA-262 regular expressions: translate them for Python's ``re``.

Where the two dialects differ, the translation keeps ECMA-262's meaning:

- ``\\d``, ``\\w``, ``\\b`` and their negations are ASCII-only (the ``(?a)`` flag);
- ``\\s`` is ECMA-262's whitespace and line terminators, not Python's ``str.isspace()``;
- ``.`` does not match any line terminator (``\\r``, U+2028, U+2029 as well as ``\\n``);
- ``$`` matches only at the very end (Python's also matches before a final newline);
- ``(?<name>...)`` and ``\\k<name>`` become Python's named groups.

A construct with no exact translation (Unicode property escapes such as
``\\p{Letter}``, ``\\S`` inside a character class, ``[^]``) is refused with a reason:
a silent difference would let the validator and the model's platform disagree.
"""

from __future__ import annotations

#: ECMA-262 WhiteSpace and LineTerminator: what its \\s matches.
WHITESPACE = "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
_LINE_TERMINATORS = "\\n\\r\\u2028\\u2029"
_CLASS_WHITESPACE = "\\t\\n\\x0b\\x0c\\r \\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000\\ufeff"


class PatternError(ValueError):
    """A pattern whose ECMA-262 meaning Python's ``re`` cannot reproduce exactly."""


def translate_pattern(pattern: str) -> str:
    """The Python ``re`` pattern with the same meaning as the ECMA-262 ``pattern``."""
    out: list[str] = ["(?a)"]
    i = 0
    in_class = False
    class_start = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\":
            if i + 1 >= len(pattern):
                raise PatternError("the pattern ends with a lone backslash")
            out.append(_escape(pattern, i, in_class))
            i += _escape_length(pattern, i)
            continue
        if in_class:
            if ch == "]" and i > class_start:
                in_class = False
                out.append("]")
            elif ch == "[":
                out.append("\\[")  # a literal in ECMA-262; Python warns of set operations
            else:
                out.append(ch)
            i += 1
            continue
        if ch == "[":
            if pattern.startswith("[^]", i):
                raise PatternError("'[^]' (any character) has no exact translation; use [\\s\\S]")
            if pattern.startswith("[]", i):
                raise PatternError("'[]' (matches nothing) has no exact translation")
            in_class = True
            class_start = i + 1 + (pattern[i + 1 : i + 2] == "^")
            out.append("[^" if pattern[i + 1 : i + 2] == "^" else "[")
            i = class_start
            continue
        if ch == ".":
            out.append(f"[^{_LINE_TERMINATORS}]")
        elif ch == "$":
            out.append("\\Z")
        elif pattern.startswith("(?<", i) and pattern[i + 3 : i + 4] not in ("=", "!"):
            out.append("(?P<")
            i += 3
            continue
        else:
            out.append(ch)
        i += 1
    if in_class:
        raise PatternError("a character class is not closed")
    return "".join(out)


def _escape_length(pattern: str, i: int) -> int:
    nxt = pattern[i + 1]
    if nxt in "pPk" or (nxt == "u" and pattern[i + 2 : i + 3] == "{"):
        end = pattern.find("}" if nxt != "k" else ">", i)
        return (end - i + 1) if end != -1 else 2
    if nxt == "c":
        return 3
    return 2


def _escape(pattern: str, i: int, in_class: bool) -> str:
    nxt = pattern[i + 1]
    if nxt in "pP":
        raise PatternError(f"Unicode property escapes such as '\\{nxt}{{...}}' are not supported by Python's re")
    if nxt == "s":
        return _CLASS_WHITESPACE if in_class else f"[{_CLASS_WHITESPACE}]"
    if nxt == "S":
        if in_class:
            raise PatternError("'\\S' inside a character class has no exact translation")
        return f"[^{_CLASS_WHITESPACE}]"
    if nxt == "c":
        letter = pattern[i + 2 : i + 3]
        if not letter.isascii() or not letter.isalpha():
            raise PatternError("'\\c' must be followed by a letter")
        return f"\\x{ord(letter) % 32:02x}"
    if nxt == "k":
        end = pattern.find(">", i)
        if pattern[i + 2 : i + 3] != "<" or end == -1:
            raise PatternError("'\\k' must name a group: \\k<name>")
        return f"(?P={pattern[i + 3 : end]})"
    if nxt == "u" and pattern[i + 2 : i + 3] == "{":
        end = pattern.find("}", i)
        digits = pattern[i + 3 : end] if end != -1 else ""
        if not digits or any(c not in "0123456789abcdefABCDEF" for c in digits) or int(digits, 16) > 0x10FFFF:
            raise PatternError("'\\u{...}' must hold a hexadecimal code point")
        return f"\\U{int(digits, 16):08x}"
    if nxt == "/":
        return "/"
    if nxt == "-" and not in_class:
        return "\\-"
    if nxt == "0" and not pattern[i + 2 : i + 3].isdigit():
        return "\\x00"
    return pattern[i : i + 2]


def backtracking_risk(pattern: str) -> str | None:
    """Why a pattern may backtrack catastrophically, or None.

    Flags an unbounded repeat that holds another unbounded repeat ("(a+)+",
    "([a-z]+\\.)*"), or an alternation ("(a|ab)*"): on a long input that almost
    matches, the engine tries exponentially many ways to split it.
    """
    try:
        import re._parser as sre_parse  # Python 3.11+
    except ImportError:  # pragma: no cover - 3.10
        import sre_parse  # type: ignore[import-not-found, no-redef]

    try:
        tree = sre_parse.parse(translate_pattern(pattern))
    except Exception:
        return None
    repeats = {sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, getattr(sre_parse, "POSSESSIVE_REPEAT", None)}

    def unbounded(item: object) -> bool:
        op, av = item  # type: ignore[misc]
        return op in repeats and av[1] == sre_parse.MAXREPEAT

    def inner_risk(items: object) -> str | None:
        for op, av in items:  # type: ignore[attr-defined]
            if op in repeats:
                if unbounded((op, av)):
                    return "a repeat inside a repeat"
                found = inner_risk(av[2])
            elif op is sre_parse.SUBPATTERN:
                found = inner_risk(av[-1])
            elif op is sre_parse.BRANCH:
                return "an alternation inside a repeat"
            else:
                found = None
            if found:
                return found
        return None

    def walk(items: object) -> str | None:
        for op, av in items:  # type: ignore[attr-defined]
            if op in repeats:
                if unbounded((op, av)):
                    found = inner_risk(av[2])
                    if found:
                        return found
                found = walk(av[2])
            elif op is sre_parse.SUBPATTERN:
                found = walk(av[-1])
            elif op is sre_parse.BRANCH:
                found = next((r for r in (walk(b) for b in av[1]) if r), None)
            else:
                found = None
            if found:
                return found
        return None

    return walk(tree)
