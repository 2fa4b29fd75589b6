"""Valid values and near misses for every asserted ``format``, within length bounds
(witness stage).

The derived test cases need a string that a ``format`` accepts (to build an accepted
instance) and one it refuses (to show the check at work). Both must also respect the
property's ``minLength``/``maxLength``, so each format has a builder that makes a valid
value of a requested length where its grammar allows one (longer host labels, longer
local parts, path segments, fractional seconds, more digits); an invalid value is a
valid one with one character wrong (month 13, a missing ``@``, an IPv4 octet 256), so a
generated test reads as a near miss rather than random junk.

What a format means is defined by :mod:`toolshape.contract.reference` (the oracle of the generated
tests): every value is confirmed there before it is returned, so a builder that strays
costs a candidate, never a wrong verdict. Everything is deterministic: no randomness,
no set iteration, no clock.

``witness/sources.py`` hands :func:`valid` and :func:`invalid` to the witness engine;
``witness/values.py`` asks :func:`strings` for the format samples of one alternative and
:func:`format_of` for the format a near miss must fail by.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable, Iterator
from typing import Any

from ...contract.checker import FORMATS
from ...contract.reference import errors_of
from ...families.strings import values as string_values
from ...families.values.rules import TYPE
from ...schema import vocabulary

#: The keyword naming the format.
(FORMAT,) = vocabulary.taking("format")

#: How many lengths either side of the preferred one are tried before giving up. Every
#: format whose lengths are unbounded has a valid value at every length past a small one,
#: so this only limits the search where the bounds leave nothing to find.
_LENGTH_WINDOW = 64
#: How many variants of one length a builder is asked for (for ``count`` > 1).
_VARIANTS = 16
#: Characters tried in place of one character of a valid value, for the generic near misses.
_SWAPS = ("x", "-", ".", ":", " ", "0", "@", "/")

_HEX = "0123456789abcdef"
_LETTERS = "abcdefghijklmnopqrstuvwxyz"

Builder = Callable[[int, int], "str | None"]


# -- valid values of a given length ---------------------------------------------------


def _date(length: int, variant: int) -> str | None:
    """Always ten characters; variants are the following days."""
    if length != 10:
        return None
    return (datetime.date(2024, 5, 1) + datetime.timedelta(days=variant)).isoformat()


def _time(length: int, variant: int) -> str | None:
    """``09:30:00Z`` (9), or with a fraction of seconds to pad (11 and more); 10 is impossible."""
    clock = f"09:{(30 + variant) % 60:02d}:00"
    if length == 9:
        return clock + "Z"
    if length < 11:
        return None
    digits = length - 10
    return f"{clock}.{_repeat('5', digits)}Z"


def _date_time(length: int, variant: int) -> str | None:
    """A date, ``T``, a time: 20 characters, or 22 and more with a fraction of seconds."""
    date = _date(10, variant)
    time = _time(length - 11, 0)
    return None if date is None or time is None else f"{date}T{time}"


def _duration(length: int, variant: int) -> str | None:
    """``P`` + digits + a unit letter; the digits pad (``P3D``, ``P30D``, ``P300D``)."""
    if length < 3:
        return None
    unit = "DWMY"[variant % 4]
    lead = str(1 + (variant // 4) % 9)
    return "P" + lead + "0" * (length - 3) + unit


def _hostname(length: int, variant: int) -> str | None:
    """Letters in labels of at most 63 characters, ending in ``.com`` when there is room."""
    if not 1 <= length <= 253:
        return None
    first = _LETTERS[variant % 26]
    if length < 5:
        return first + _repeat("example", length - 1)
    return first + _labels(length - 5) + ".com" if length > 5 else first + ".com"


def _labels(size: int) -> str:
    """``size`` characters of letters and dots, every label 1 to 63 letters (no dot at either end).

    The caller puts one letter in front, so the first label here has room for 62."""
    parts: list[str] = []
    room = 62
    while size > room:
        take = min(room, size - 2)  # leave a dot and at least one letter after it
        parts.append(_repeat("example", take))
        size -= take + 1
        room = 63
    parts.append(_repeat("example", size))
    return ".".join(parts)


def _email(length: int, variant: int) -> str | None:
    """A local part padded with letters, ``@example.com``; shorter, a shorter host."""
    first = _LETTERS[variant % 26]
    if length >= 13:
        return first + _repeat("janedoe", length - 13) + "@example.com"
    if length < 3:
        return None
    host = _hostname(length - 2, 0)
    return None if host is None else f"{first}@{host}"


def _idn_email(length: int, variant: int) -> str | None:
    """``_email`` with a non-ASCII first letter (``öjanedoe@example.com``); as ``_email`` for odd variants."""
    if variant % 2 or length < 3:
        return _email(length, variant // 2)
    value = _email(length, variant // 2)
    return None if value is None else "ö" + value[1:]


def _idn_hostname(length: int, variant: int) -> str | None:
    """``_hostname`` with a non-ASCII first letter (``üexample.com``); as ``_hostname`` for odd variants."""
    value = _hostname(length, variant // 2)
    if variant % 2 or value is None:
        return value
    return "ü" + value[1:]


def _ipv4(length: int, variant: int) -> str | None:
    """Four octets of one to three digits, without leading zeros: 7 to 15 characters."""
    if not 7 <= length <= 15:
        return None
    widths = [1, 1, 1, 1]
    extra = length - 7
    for i in range(4):
        grow = min(2, extra)
        widths[i] += grow
        extra -= grow
    octets = [_octet(width, 0) for width in widths[:3]] + [_octet(widths[3], variant)]
    return ".".join(octets)


def _octet(width: int, variant: int) -> str:
    if width == 1:
        return str(1 + variant % 9)
    if width == 2:
        return str(10 + variant % 90)
    return str(192 + variant % 64)


def _ipv6(length: int, variant: int) -> str | None:
    """``::`` with groups after it (2 to 14), eight full groups (15 to 39), an IPv4 tail (40 to 45)."""
    last = _HEX[variant % 16]
    if length == 2:
        return "::" if variant == 0 else None
    if 3 <= length <= 14:
        return "::" + _groups(length - 2, last)
    if 15 <= length <= 39:
        digits = length - 7
        widths = [1] * 8
        extra = digits - 8
        for i in range(8):
            grow = min(3, extra)
            widths[i] += grow
            extra -= grow
        groups = [_repeat("2001db8", w) for w in widths]
        groups[-1] = groups[-1][:-1] + last
        return ":".join(groups)
    if 40 <= length <= 45:
        tail = _ipv4(length - 30, variant)
        return None if tail is None else "2001:0db8:0000:0000:0000:ffff:" + tail
    return None


def _groups(size: int, last: str) -> str:
    """``size`` characters of hexadecimal groups (at most four digits each) joined by colons."""
    parts: list[str] = []
    while size > 4:
        take = min(4, size - 2)
        parts.append(_repeat("db8a", take))
        size -= take + 1
    parts.append(_repeat("1", size - 1) + last)
    return ":".join(parts)


def _uri(length: int, variant: int) -> str | None:
    """``https://example.com/`` and a path padded with segments; shorter, ``urn:`` or ``a:``."""
    first = _LETTERS[variant % 26]
    if length >= 21:
        return "https://example.com/" + first + _repeat("docs/", length - 21)
    if length >= 5:
        return "urn:" + first + _repeat("isbn", length - 5)
    if length >= 2:
        return first + ":" + _repeat("x", length - 2)
    return None


def _uri_reference(length: int, variant: int) -> str | None:
    """An absolute path padded with segments (``/adocs/docs``); one letter, or nothing at all."""
    first = _LETTERS[variant % 26]
    if length == 0:
        return "" if variant == 0 else None
    if length == 1:
        return first
    return "/" + first + _repeat("docs/", length - 2)


def _iri(length: int, variant: int) -> str | None:
    """``_uri`` with a non-ASCII letter (what an IRI adds) in place of its first path letter."""
    value = _uri(length, variant)
    if value is None or length < 3:
        return value  # ``a:`` has no room for one
    colon = value.index(":")
    at = len(value) - 1 if length < 21 else 20
    return value[:at] + "é" + value[at + 1 :] if at > colon else None


def _iri_reference(length: int, variant: int) -> str | None:
    """``/é`` and path segments; ``é`` alone; or nothing at all."""
    if length == 0:
        return "" if variant == 0 else None
    if length == 1:
        return "éèêë"[variant % 4]
    return "/é" + _repeat(_LETTERS[variant % 26] + "docs/", length - 2)


def _uri_template(length: int, variant: int) -> str | None:
    """``/{id}`` with a longer path or variable name; short ones are literals only."""
    first = _LETTERS[variant % 26]
    if length < 4:
        return _repeat(first + "b", length) if length or not variant else None
    return "/" + _repeat(first + "docs/", length - 4) + "{" + first + "}"


def _json_pointer(length: int, variant: int) -> str | None:
    """``/`` and tokens of letters; the empty pointer (the whole document) at length 0."""
    if length == 0:
        return "" if variant == 0 else None
    return "/" + _repeat(_LETTERS[(variant + 8) % 26] + "tems/0/", length - 1)  # /items/0/...


def _relative_json_pointer(length: int, variant: int) -> str | None:
    """A digit, then ``#`` or a pointer (``0#``, ``1/name``); one digit alone at length 1."""
    digit = str(variant % 10)
    if length < 1:
        return None
    if length == 1:
        return digit
    if length == 2:
        return digit + "#"
    return "1/" + _repeat(_LETTERS[(variant + 13) % 26] + "ame/", length - 2)  # 1/name/...


def _regex(length: int, variant: int) -> str | None:
    """``^a+$`` padded with letters; one letter; or the empty pattern."""
    first = _LETTERS[variant % 26]
    if length < 2:
        return first[:length] if length or not variant else None
    return "^" + _repeat(first, length - 2) + "$" if length != 3 else f"^{first}+"


def _uuid(length: int, variant: int) -> str | None:
    """Always 36 characters; variants change the last digit."""
    if length != 36:
        return None
    return "123e4567-e89b-42d3-a456-42661417400" + _HEX[variant % 16]


def _repeat(text: str, size: int) -> str:
    """``text`` repeated and cut to exactly ``size`` characters."""
    return (text * (size // len(text) + 1))[:size] if size > 0 else ""


_BUILDERS: dict[str, Builder] = {
    "date-time": _date_time,
    "date": _date,
    "time": _time,
    "duration": _duration,
    "email": _email,
    "idn-email": _idn_email,
    "hostname": _hostname,
    "idn-hostname": _idn_hostname,
    "ipv4": _ipv4,
    "ipv6": _ipv6,
    "uri": _uri,
    "uri-reference": _uri_reference,
    "iri": _iri,
    "iri-reference": _iri_reference,
    "uri-template": _uri_template,
    "uuid": _uuid,
    "json-pointer": _json_pointer,
    "relative-json-pointer": _relative_json_pointer,
    "regex": _regex,
}

#: The value a reader expects first, tried before any built one when its length fits.
_NATURAL: dict[str, str] = {
    "date-time": "2024-05-01T09:30:00Z",
    "date": "2024-05-01",
    "time": "09:30:00Z",
    "duration": "P3DT4H",
    "email": "jane@example.com",
    "idn-email": "jörg@bücher.example",
    "hostname": "example.com",
    "idn-hostname": "bücher.example",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
    "uri": "https://example.com/docs",
    "uri-reference": "/docs/index.html",
    "iri": "https://example.com/café",
    "iri-reference": "/café/menu",
    "uri-template": "/users/{id}/repos{?page}",
    "uuid": "123e4567-e89b-42d3-a456-426614174000",
    "json-pointer": "/items/0",
    "relative-json-pointer": "1/name",
    "regex": "^[a-z]+$",
}

#: The lengths a format's valid values can have at all (None: unbounded above).
_LENGTHS: dict[str, tuple[int, int | None]] = {
    "date-time": (20, None),
    "date": (10, 10),
    "time": (9, None),
    "duration": (3, None),
    "email": (3, None),
    "idn-email": (3, None),
    "hostname": (1, 253),
    "idn-hostname": (1, 253),
    "ipv4": (7, 15),
    "ipv6": (2, 45),
    "uri": (2, None),
    "uri-reference": (0, None),
    "iri": (2, None),
    "iri-reference": (0, None),
    "uri-template": (0, None),
    "uuid": (36, 36),
    "json-pointer": (0, None),
    "relative-json-pointer": (1, None),
    "regex": (0, None),
}


# -- near misses --------------------------------------------------------------------


def _near_misses(format: str, value: str) -> list[str]:
    """The telling mistakes for one valid value of ``format``, most telling first (same length)."""
    if format in ("date", "date-time"):
        return [
            value[:5] + "13" + value[7:],
            value[:8] + "32" + value[10:],
            value[:4] + "/" + value[5:],
        ]
    if format == "time":
        return ["24" + value[2:], value[:3] + "60" + value[5:]]
    if format == "duration":
        return [value[:-1] + "H" if value[-1] in "DWMY" else value, "p" + value[1:]]
    if format in ("email", "idn-email"):
        return [value.replace("@", "."), "." + value[1:]]
    if format in ("hostname", "idn-hostname"):
        return ["-" + value[1:], value[:1] + "_" + value[2:]]
    if format == "ipv4":
        octets = value.split(".")
        wide = [i for i, octet in enumerate(octets) if len(octet) == 3]
        if wide:
            octets[wide[-1]] = "256"
        return [".".join(octets), "0" + value[1:]]
    if format == "ipv6":
        return [value[:-1] + "g", value[:-1] + ":"]
    if format in ("uri", "iri"):
        return [value[:-1] + " ", "1" + value[1:]]
    if format in ("uri-reference", "iri-reference"):
        return [value[:-1] + " ", value[:-1] + "\\"] if value else []
    if format == "uri-template":
        return [value.replace("}", "{", 1), value[:-1] + " "] if value else []
    if format == "json-pointer":
        return ["a" + value[1:], value[:-1] + "~"] if value else []
    if format == "relative-json-pointer":
        return ["-" + value[1:], value[:-1] + "~"]
    if format == "regex":  # an unclosed group or class, a lone backslash
        return [value[:-1] + "(", value[:-1] + "[", value[:-1] + "\\"] if value else []
    return [value[:-1] + "g", value[:8] + "_" + value[9:]]  # uuid


# -- the public functions -----------------------------------------------------------


def format_of(schema: dict[str, Any]) -> str | None:
    """The format ``schema`` asserts (None: none, or a name toolshape does not know, which is
    an annotation only)."""
    name = schema.get(FORMAT)
    return name if isinstance(name, str) and name in FORMATS else None


def strings(
    flat: list[dict[str, Any]], negated: list[Any], low: int, high: int | None
) -> Iterator[str]:
    """The format samples of one alternative within the length bounds: valid strings of each
    format ``flat`` names, and near misses of a format a schema that must not hold names
    (when it says nothing but the format, and perhaps a type)."""
    for name in sorted({name for name in map(format_of, flat) if name is not None}):
        yield from valid(name, low, high)
    for n in negated:
        if isinstance(n, dict) and format_of(n) is not None and set(n) <= {FORMAT, TYPE}:
            yield from invalid(n[FORMAT], low, high)


def valid(
    format: str, min_length: int = 0, max_length: int | None = None, count: int = 1
) -> list[str]:
    """Up to ``count`` distinct strings that ``format`` accepts, each within the length bounds.

    Fewer (or none) when the bounds leave fewer: a ``uuid`` is always 36 characters, so
    bounds that exclude 36 give ``[]``. The value a reader expects comes first when it fits.
    """
    schema = _schema(format, min_length, max_length)
    found: list[str] = []
    for candidate in _valid_candidates(format, min_length, max_length):
        if len(found) >= count:
            break
        if candidate not in found and not errors_of(schema, candidate, "", root=schema):
            found.append(candidate)
    return found


def invalid(
    format: str, min_length: int = 0, max_length: int | None = None, count: int = 1
) -> list[str]:
    """Up to ``count`` distinct strings that ``format`` refuses and the length bounds accept.

    Each fails only for its format (its length is within the bounds), and is a near miss:
    a valid value with one character changed, dropped or added where one exists.
    """
    schema = _schema(format, min_length, max_length)
    only_format = {("", "format")}
    found: list[str] = []
    for candidate in _invalid_candidates(format, min_length, max_length):
        if len(found) >= count:
            break
        if candidate not in found and errors_of(schema, candidate, "", root=schema) == only_format:
            found.append(candidate)
    return found


def _schema(format: str, min_length: int, max_length: int | None) -> dict[str, object]:
    """The schema every returned value is confirmed against by the reference evaluator."""
    if format not in _BUILDERS:
        raise ValueError(f"unknown format {format!r}: expected one of {', '.join(FORMATS)}")
    lengths = string_values.of_lengths(max(min_length, 0), max_length)
    return {TYPE: "string", FORMAT: format, **lengths}


def _lengths(preferred: int, low: int, high: int | None) -> Iterator[int]:
    """Lengths in ``[low, high]``, the one nearest ``preferred`` first, then outwards (shorter first)."""
    low = max(low, 0)
    top = max(low, preferred) + _LENGTH_WINDOW
    if high is not None:
        top = min(top, high)
    if low > top:
        return
    start = min(max(preferred, low), top)
    yield start
    for step in range(1, top - low + 1):
        for length in (start - step, start + step):
            if low <= length <= top:
                yield length


def _valid_candidates(format: str, min_length: int, max_length: int | None) -> Iterator[str]:
    natural = _NATURAL[format]
    yield natural
    shortest, longest = _LENGTHS[format]
    low = max(min_length, shortest)
    high = (
        longest
        if max_length is None
        else (max_length if longest is None else min(max_length, longest))
    )
    if high is not None and low > high:
        return
    build = _BUILDERS[format]
    for length in _lengths(len(natural), low, high):
        for variant in range(_VARIANTS):
            candidate = build(length, variant)
            if candidate is not None:
                yield candidate


def _invalid_candidates(format: str, min_length: int, max_length: int | None) -> Iterator[str]:
    """Near misses of valid values, length by length nearest the natural one, then truncations."""
    natural = _NATURAL[format]
    if max_length is not None and min_length > max_length:
        return
    build = _BUILDERS[format]
    yield from _near_misses(format, natural)
    for length in _lengths(len(natural), min_length, max_length):
        same = build(length, 0)
        if same is not None:
            yield from _near_misses(format, same)
            yield from _swaps(same)
        longer = build(length + 1, 0)
        if longer is not None:
            yield from (longer[:i] + longer[i + 1 :] for i in range(len(longer) - 1, -1, -1))
        shorter = build(length - 1, 0) if length > 0 else None
        if shorter is not None:
            yield from (
                shorter[:i] + swap + shorter[i:]
                for i in range(len(shorter), -1, -1)
                for swap in _SWAPS
            )
        yield _repeat(natural, length)  # a value cut short or repeated: no valid value is near


def _swaps(value: str) -> Iterator[str]:
    """``value`` with one character replaced, from the end (where the telling part usually is)."""
    for i in range(len(value) - 1, -1, -1):
        for swap in _SWAPS:
            if swap != value[i]:
                yield value[:i] + swap + value[i + 1 :]
