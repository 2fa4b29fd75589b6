"""Our syntax tree -> Python ``re`` source with the pattern's ECMA-262 meaning.

Where the two dialects differ, the translation keeps ECMA-262's meaning:

- ``\\d``, ``\\w``, ``\\b`` and their negations are ASCII-only (the ``(?a)`` flag);
- ``\\s`` is ECMA-262's whitespace and line terminators, not Python's ``str.isspace()``;
- ``.`` does not match any line terminator (``\\r``, U+2028, U+2029 as well as ``\\n``);
- ``$`` matches only at the very end (``\\Z``; Python's ``$`` also matches before a final newline);
- ``(?<name>...)`` and ``\\k<name>`` become Python's named groups.

The output uses only syntax every supported Python (3.9-3.13) compiles alike: no possessive or
atomic forms, no inline flags but the leading ``(?a)``, lookbehinds of one fixed width.
"""

from __future__ import annotations

from functools import lru_cache

from .syntax import (
    Alt,
    Assert,
    Backref,
    Char,
    Empty,
    Group,
    Look,
    Node,
    PatternError,
    Repeat,
    Seq,
    fixed_width,
    parse,
)

_ASSERTIONS = {"start": "^", "end": "\\Z", "word": "\\b", "nonword": "\\B"}


@lru_cache(maxsize=1024)
def translate(pattern: str) -> str:
    """The Python ``re`` source with the same meaning as the ECMA-262 ``pattern``; raises PatternError."""
    return "(?a)" + _emit(parse(pattern).root)


def _emit(node: Node) -> str:
    if isinstance(node, Char):
        return node.py
    if isinstance(node, Empty):
        return ""
    if isinstance(node, Seq):
        return "".join(_emit(item) for item in node.items)
    if isinstance(node, Alt):
        return "|".join(_emit(option) for option in node.options)
    if isinstance(node, Group):
        if node.name is not None:
            return f"(?P<{node.name}>{_emit(node.body)})"
        return f"({_emit(node.body)})" if node.index is not None else f"(?:{_emit(node.body)})"
    if isinstance(node, Repeat):
        return _atom(node.body) + _quantifier(node)
    if isinstance(node, Assert):
        return _ASSERTIONS[node.kind]
    if isinstance(node, Look):
        if not node.ahead:
            _check_lookbehind(node.body)
        sign = "!" if node.negative else "="
        return f"(?{'' if node.ahead else '<'}{sign}{_emit(node.body)})"
    assert isinstance(node, Backref)
    return f"(?P={node.name})" if node.name is not None else f"(?:\\{node.index})"


def _atom(node: Node) -> str:
    """The body of a repeat, grouped when it is more than one atom."""
    text = _emit(node)
    if isinstance(node, (Char, Group, Backref)):
        return text
    return f"(?:{text})"


def _quantifier(node: Repeat) -> str:
    low, high = node.min, node.max
    if (low, high) == (0, None):
        text = "*"
    elif (low, high) == (1, None):
        text = "+"
    elif (low, high) == (0, 1):
        text = "?"
    elif high is None:
        text = f"{{{low},}}"
    elif low == high:
        text = f"{{{low}}}"
    else:
        text = f"{{{low},{high}}}"
    return text + ("?" if node.lazy else "")


def _check_lookbehind(body: Node) -> None:
    """Python's ``re`` only looks behind by a fixed width; ECMA-262 allows any."""
    if fixed_width(body) is None:
        raise PatternError(
            "a lookbehind must match a fixed number of characters for Python's re "
            "(e.g. (?<=ab) or (?<=a|b), not (?<=a+) or (?<=a|bc))"
        )
