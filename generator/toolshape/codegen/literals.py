"""The one way contract text reaches generated source: as escaped Python literals.

Everything a contract says (names, descriptions, enum values, patterns, examples)
is data written by someone the reviewer may not trust. It enters generated code
only through :func:`literal` (a Python expression that evaluates to the same
data) or :func:`comment` (printable ASCII that cannot end the comment line).
Both return :class:`Code`, the only kind of value the template environment
prints (see ``render.py``), so a template that pastes raw text fails to render.
"""

from __future__ import annotations

import math
import re

from markupsafe import Markup

__all__ = ["Code", "comment", "literal", "literal_text"]


class Code(Markup):
    """A string that is already Python source: a literal, a name, a comment's text.

    It is a ``Markup`` only so that the template environment (``render.py``) can tell
    it from raw text and print it as it is; never concatenate it with other strings.
    """

    __slots__ = ()

    @classmethod
    def of(cls, text: str) -> Code:
        """``text``, which toolshape wrote as Python source, as Code: made by ``str.__new__``,
        not ``Code(text)``, whose Markup constructor first asks its argument for an
        ``__html__`` that text made here never has (a third of a short literal's cost, for the
        thousands of literals, rows and stand-ins of a contract)."""
        return str.__new__(cls, text)


def _plain_result(name: str) -> object:
    method = getattr(str, name)

    def plain(self: Code, *args: object, **kwargs: object) -> object:
        # Slicing or editing Code makes new text that nobody escaped: plain str,
        # which the template environment refuses to print.
        result = method(str(self), *args, **kwargs)
        return str(result) if isinstance(result, str) else result

    plain.__name__ = name
    return plain


# The methods named by their objects, not their names: a typo fails at import.
for _method in (
    str.__getitem__,
    str.__add__,
    str.__mul__,
    str.__rmul__,
    str.__mod__,
    str.format,
    str.format_map,
    str.strip,
    str.lstrip,
    str.rstrip,
    str.replace,
    str.join,
    str.lower,
    str.upper,
    str.title,
    str.capitalize,
    str.casefold,
    str.swapcase,
    str.center,
    str.ljust,
    str.rjust,
    str.zfill,
    str.expandtabs,
    str.translate,
    str.removeprefix,
    str.removesuffix,
):
    setattr(Code, _method.__name__, _plain_result(_method.__name__))
Code.__radd__ = lambda self, other: str(other) + str(self)  # type: ignore[method-assign, assignment, return-value]  # plain str, as above
for _name in ("split", "rsplit", "partition", "rpartition", "splitlines"):
    setattr(
        Code,
        _name,
        # The default binds this loop's method now (a closure would see the last _name).
        lambda self, *a, _m=getattr(str, _name), **k: [str(x) for x in _m(str(self), *a, **k)],  # noqa: B008
    )
for _name in ("striptags", "unescape"):
    setattr(Code, _name, lambda self, _m=_name: str(getattr(Markup(str(self)), _m)()))


def literal(value: object) -> Code:
    """Return a Python expression that evaluates to ``value`` (JSON-like data only).

    Strings are quoted the way black quotes them (double quotes unless that takes more
    backslashes), so generated code needs no reformatting to pass ``black --check``."""
    return Code.of(literal_text(value))


def literal_text(value: object) -> str:
    """The plain ``str`` behind :func:`literal`, for code that measures and joins literals
    into a longer one (``wrapping.py``) before it becomes :class:`Code`."""
    if type(value) is str:
        # The commonest call (names, pointers, messages): repr() writes one string token, the
        # whole text, so there is nothing to search for in it.
        return _black_quotes(repr(value))
    if type(value) is frozenset:
        pairs = _string_pairs_text(value)
        if pairs is not None:
            return pairs
    text = _literal(value)
    if "e+" in text:
        return _TOKEN.sub(_as_black_writes, text)
    if "'" not in text:
        return text
    if '"' not in text:
        # No " anywhere: repr() quoted every string (or bytes) with ', holding no ' itself
        # (it would have taken " then), and writes no quote outside them, so every ' is a
        # delimiter and black's quoting of each token is that ' made ": one replace() of
        # the whole text, not a search calling back for each string token (measured: a
        # schema's literal, most of model.build's literal(contract.parameters), and the
        # tests' data about 3x faster).
        return text.replace("'", '"')
    return _TOKEN.sub(_as_black_writes, text)


def _string_pairs_text(value: frozenset[object]) -> str | None:
    """The literal of a frozenset of pairs of plain strings (the errors of a generated test's
    case, a few thousand per contract), or None for any other set: what the general way
    writes, without its walk and without searching its whole text again for the strings'
    quotes. That way sorts the items' repr() texts and then requotes each string token as
    black does; a pair's repr() is ``(`` repr(a) ``, `` repr(b) ``)``, its tokens the two
    strings, so each is quoted alone (measured: tests_model.build about 0.3 ms per contract
    over the 40-contract set)."""
    if not value:
        return "frozenset()"
    written = []
    for item in value:
        if type(item) is not tuple or len(item) != 2:
            return None
        first, second = item
        if type(first) is not str or type(second) is not str:
            return None
        first_repr, second_repr = repr(first), repr(second)
        written.append(
            (
                f"({first_repr}, {second_repr})",
                f"({_black_quotes(first_repr)}, {_black_quotes(second_repr)})",
            )
        )
    written.sort()  # by the repr() texts, which tell the items apart: as _literal sorts
    return "frozenset({" + ", ".join(text for _, text in written) + "})"


#: A string literal as repr() writes one (single-quoted, or double-quoted when the text
#: holds a ' and no "), or a float with a "+" exponent. Outside strings, repr() of
#: JSON-like data writes no quote and no "e+".
_TOKEN = re.compile(r"'(?:[^'\\]|\\.)*'|" r'"(?:[^"\\]|\\.)*"|[0-9]e\+', re.S)


def _as_black_writes(match: re.Match[str]) -> str:
    """black's ``normalize_string_quotes`` for a literal written by repr(); and 1e+16 as 1e16."""
    token = match.group()
    if token[-1] == "+":
        return token[0] + "e"
    return _black_quotes(token)


def _black_quotes(token: str) -> str:
    """black's ``normalize_string_quotes`` for one string literal written by repr()."""
    if token[0] == '"':
        return token  # repr() chose " because the text holds a ': black keeps it
    body = token[1:-1]
    if '"' not in body:
        return f'"{body}"'  # then the text holds no ' either: nothing was escaped
    # Both quotes in the text: repr() escaped every ', and no ". black picks the
    # quote that needs fewer backslashes, " on a tie.
    if body.count('"') > body.count("\\'"):
        return token
    return '"' + body.replace("\\'", "'").replace('"', '\\"') + '"'


def _literal(value: object) -> str:
    if _is_plain(value):
        # Built-in types only, finite floats, str keys: repr() writes exactly what the
        # cases below would (and it is much faster on the big data of generated tests).
        return repr(value)
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return _int_text(int(value))
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError("non-finite numbers have no JSON literal")
        return repr(float(value))
    if isinstance(value, bytes):
        return repr(value)
    if isinstance(value, str):
        # repr() escapes quotes, backslashes, line breaks (including U+2028),
        # NUL, bidi overrides and every other non-printable character.
        return repr(str(value))
    if isinstance(value, tuple):
        inner = ", ".join(_literal(item) for item in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, list):
        return "[" + ", ".join(_literal(item) for item in value) + "]"
    if isinstance(value, dict):
        items = (f"{_literal(str(k))}: {_literal(v)}" for k, v in value.items())
        return "{" + ", ".join(items) + "}"
    if isinstance(value, (set, frozenset)):
        if not value:
            return "frozenset()"
        return "frozenset({" + ", ".join(sorted(_literal(v) for v in value)) + "})"
    raise TypeError(f"no literal for {type(value).__name__}")


#: Ints this far from zero are written near a power of ten where that is shorter (below).
_LONG_INT = 10**21
#: How far from its nearest round number such an int may be: the cases step a bound by one.
_NEAR = 10**6


def _int_text(value: int) -> str:
    """An int as Python source: its digits, or, from 22 digits on, near a power of ten
    when that is shorter (``10**300``, ``(15 * 10**299)``, ``(10**300 - 1)``,
    ``-(10**300)``: each an operand on its own, as black writes it): the exact value of a
    float written ``1e300`` or ``1.5e300`` and the ints a step beside it, which would not
    fit a line as digits."""
    if -_LONG_INT < value < _LONG_INT:
        return str(value)
    size = abs(value)
    scale = len(str(size)) - 17
    stem = round(size, -scale)  # the nearest int of 17 significant digits
    rest = size - stem
    if abs(rest) > _NEAR:
        return str(value)
    digits = str(stem).rstrip("0")
    power = f"10**{len(str(stem)) - len(digits)}"
    text = power if digits == "1" else f"{digits} * {power}"
    if rest:
        text = f"{text} {'+' if rest > 0 else '-'} {abs(rest)}"
    if text != power:
        text = f"({text})"
    if value < 0:
        text = f"-({text})" if text == power else f"-{text}"
    return text if len(text) < len(str(value)) else str(value)


def _is_plain(value: object) -> bool:
    """JSON data of exactly the built-in types (no subclass, whose repr could differ), floats
    finite, ints that repr() writes as :func:`_int_text` does."""
    kind = type(value)
    if kind is int:
        return -_LONG_INT < value < _LONG_INT  # type: ignore[operator]  # mypy does not narrow on `kind`
    if kind is str or kind is bool or value is None:
        return True
    if kind is float:
        return math.isfinite(value)  # type: ignore[arg-type]  # mypy does not narrow on `kind`
    if kind is list or kind is tuple:
        return all(_is_plain(item) for item in value)  # type: ignore[attr-defined]  # as above
    if kind is dict:
        return all(type(key) is str and _is_plain(item) for key, item in value.items())  # type: ignore[attr-defined]  # as above
    return False


def comment(text: str, limit: int = 72) -> Code:
    """Text safe inside a ``#`` comment: printable ASCII, escapes for the rest, shortened."""
    return Code(comment_text(text, limit))


def comment_text(text: str, limit: int = 72) -> str:
    """The plain ``str`` behind :func:`comment`, for building a longer comment."""
    safe = text if _plain(text) else ascii(text)[1:-1]
    return safe if len(safe) <= limit else safe[: limit - 3] + "..."


def _plain(text: str) -> bool:
    """Whether every character of ``text`` is printable ASCII, space to ``~``.

    ``isascii() and isprintable()`` says the same of every code point (checked over all of
    0..0x10FFFF: among ASCII, isprintable() refuses exactly the controls 0x00-0x1F and DEL
    0x7F, and both are conjunctions over the characters), in C rather than a generator that
    compares each character twice (measured: model.build about 10% of its time here)."""
    return text.isascii() and text.isprintable()
