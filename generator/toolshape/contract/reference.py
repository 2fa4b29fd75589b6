"""A small, slow, obviously-correct evaluator of the contract semantics.

It is the oracle for the generated tests: the expected outcome of every case the
generator derives (a key dropped, a bound crossed, a type swapped) is computed
here, from the contract, independently of the generated module under test. It
follows the same rules the generated code promises (README, "Semantics"): a
value of the wrong type reports only ``type``; a string over ``maxLength`` is
not tried against ``pattern``; errors for a key point at the key.
"""

from __future__ import annotations

import contextlib
import datetime
import functools
import ipaddress
import re
import string
import uuid
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from ..regex import PatternError
from ..regex import translate as translate_pattern
from ..schema.keywords import nullable_alternative
from ..schema.pointers import escape, ref_path, resolve
from ..schema.values import is_integer, is_number, json_equal

Errors = set[tuple[str, str]]


_ROOT: list[Any] = []  # the parameters being evaluated, for $ref


def evaluate(schema: Any, instance: Any) -> Errors:
    """The set of ``(JSON Pointer, code)`` the contract's parameters report for ``instance``."""
    if not isinstance(instance, dict):
        return {("", "type")}
    return errors_of(schema, instance, "", root=schema)


def errors_of(schema: Any, value: Any, path: str, root: Any) -> Errors:
    """The errors of one value against one schema (``root`` resolves $ref).

    Within one call nothing changes the value, so (schema, value, path) is always
    remembered by identity for the call's duration: a schema reached many times on one
    value (``allOf: [{$ref: d}, {$ref: d}]`` nested n deep) is evaluated once, not 2^n
    times. Across calls, only inside :func:`remembering`."""
    errors: Errors = set()
    _ROOT.append(root)
    local = not _MEMO or _MEMO[-1] is None
    if local:
        _MEMO.append({})
    try:
        _value(schema, value, path, errors)
    finally:
        _ROOT.pop()
        if local:
            _MEMO.pop()
    return errors


def _matches(schema: Any, value: Any, path: str = "") -> bool:
    found: Errors = set()
    _value(schema, value, path, found)
    return not found


def _has_type(kind: str, value: Any) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return is_integer(value) and is_number(value)
    return is_number(value)


#: While cases are derived: the errors of (schema, value, path) by the objects' ids
#: (each entry keeps both objects alive, so an id is not reused). A derived case shares
#: every value off its changed path with the base, so only that path is evaluated again.
_MEMO: list[dict[tuple[int, int, str], tuple[frozenset[tuple[str, str]], Any, Any]] | None] = []


@contextlib.contextmanager
def remembering() -> Iterator[None]:
    """Remember evaluations by object identity: only for instances nobody changes in place."""
    _MEMO.append({})
    try:
        yield
    finally:
        _MEMO.pop()


@contextlib.contextmanager
def changing() -> Iterator[None]:
    """Around code that changes instances in place: nothing is remembered, and what was is forgotten."""
    _MEMO.append(None)
    try:
        yield
    finally:
        _MEMO.pop()
        for memo in _MEMO:
            if memo is not None:
                memo.clear()


def _value(schema: Any, value: Any, path: str, errors: Errors) -> None:
    memo = _MEMO[-1] if _MEMO else None
    if memo is None:
        _checks(schema, value, path, errors)
        return
    key = (id(schema), id(value), path)
    found = memo.get(key)
    if found is None:
        new: Errors = set()
        _checks(schema, value, path, new)
        found = memo[key] = (frozenset(new), schema, value)
    errors |= found[0]


def _checks(schema: Any, value: Any, path: str, errors: Errors) -> None:
    if schema is True:
        return
    if schema is False:
        errors.add((path, "false"))
        return
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_has_type(k, value) for k in kinds):
            errors.add((path, "type"))
            return
    if "enum" in schema and not any(json_equal(value, m) for m in schema["enum"]):
        errors.add((path, "enum"))
    if "const" in schema and not json_equal(value, schema["const"]):
        errors.add((path, "const"))
    if isinstance(value, str):
        _string(schema, value, path, errors)
    elif is_number(value):
        _number(schema, value, path, errors)
    elif isinstance(value, list):
        _array(schema, value, path, errors)
    elif isinstance(value, dict):
        _object(schema, value, path, errors)
    _applicators(schema, value, path, errors)


def _applicators(schema: dict, value: Any, path: str, errors: Errors) -> None:
    if "$ref" in schema:
        _value(_resolve(schema["$ref"]), value, path, errors)
    for sub in schema.get("allOf", []):
        _value(sub, value, path, errors)
    for keyword in ("anyOf", "oneOf"):
        if keyword not in schema:
            continue
        branches = schema[keyword]
        nullable = nullable_alternative(branches, exclusive=keyword == "oneOf")
        if nullable is not None:
            other = nullable[1]
            if value is not None:
                _value(other, value, path, errors)
            continue
        matched = sum(1 for sub in branches if _matches(sub, value, path))
        if (keyword == "anyOf" and matched == 0) or (keyword == "oneOf" and matched != 1):
            errors.add((path, keyword))
    if "not" in schema and _matches(schema["not"], value, path):
        errors.add((path, "not"))
    if "if" in schema:
        if _matches(schema["if"], value, path):
            if "then" in schema:
                _value(schema["then"], value, path, errors)
        elif "else" in schema:
            _value(schema["else"], value, path, errors)


def _resolve(ref: str) -> Any:
    return resolve(_ROOT[-1], ref_path(ref))


@functools.lru_cache(maxsize=1024)
def _regex(pattern: str) -> re.Pattern[str]:
    """A contract pattern as a compiled Python regex (translated once, not at every use)."""
    return re.compile(translate_pattern(pattern))


def _string(schema: dict, value: str, path: str, errors: Errors) -> None:
    if len(value) < schema.get("minLength", 0):
        errors.add((path, "minLength"))
    too_long = "maxLength" in schema and len(value) > schema["maxLength"]
    if too_long:
        errors.add((path, "maxLength"))
    if (
        "format" in schema
        and schema["format"] in _FORMATS
        and not _FORMATS[schema["format"]](value)
    ):
        errors.add((path, "format"))
    if "pattern" in schema and not too_long and _regex(schema["pattern"]).search(value) is None:
        errors.add((path, "pattern"))


def _number(schema: dict, value: float, path: str, errors: Errors) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        errors.add((path, "minimum"))
    if "maximum" in schema and value > schema["maximum"]:
        errors.add((path, "maximum"))
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        errors.add((path, "exclusiveMinimum"))
    if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
        errors.add((path, "exclusiveMaximum"))
    if "multipleOf" in schema:
        quotient = _decimal(value) / _decimal(schema["multipleOf"])
        if quotient.denominator != 1:
            errors.add((path, "multipleOf"))


def _decimal(number: float) -> Fraction:
    """The number as written in decimal (shortest repr), exactly."""
    return Fraction(number) if isinstance(number, int) else Fraction(repr(float(number)))


def _array(schema: dict, value: list, path: str, errors: Errors) -> None:
    if len(value) < schema.get("minItems", 0):
        errors.add((path, "minItems"))
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        errors.add((path, "maxItems"))
    if schema.get("uniqueItems") is True and any(
        json_equal(a, b) for i, a in enumerate(value) for b in value[i + 1 :]
    ):
        errors.add((path, "uniqueItems"))
    prefix = schema.get("prefixItems", [])
    for i, (sub, item) in enumerate(zip(prefix, value, strict=False)):
        _value(sub, item, f"{path}/{i}", errors)
    if "items" in schema:
        for i, item in enumerate(value[len(prefix) :], start=len(prefix)):
            _value(schema["items"], item, f"{path}/{i}", errors)
    if "contains" in schema:
        matches = sum(1 for item in value if _matches(schema["contains"], item))
        low = schema.get("minContains", 1)
        if matches < low:
            errors.add((path, "minContains" if "minContains" in schema else "contains"))
        if "maxContains" in schema and matches > schema["maxContains"]:
            errors.add((path, "maxContains"))


def _object(schema: dict, value: dict, path: str, errors: Errors) -> None:
    properties = schema.get("properties", {})
    for key, sub in properties.items():
        if key in value:
            _value(sub, value[key], f"{path}/{escape(key)}", errors)
    for key in schema.get("required", []):
        if key not in value:
            errors.add((f"{path}/{escape(key)}", "required"))
    additional = schema.get("additionalProperties", True)
    patterns = schema.get("patternProperties", {})
    for key, item in value.items():
        if "propertyNames" in schema:
            _value(schema["propertyNames"], key, f"{path}/{escape(key)}", errors)
        matched = False
        for pattern, sub in patterns.items():
            if _regex(pattern).search(key):
                matched = True
                _value(sub, item, f"{path}/{escape(key)}", errors)
        if key in properties or matched:
            continue
        if additional is False:
            errors.add((f"{path}/{escape(key)}", "additionalProperties"))
        elif isinstance(additional, dict):
            _value(additional, item, f"{path}/{escape(key)}", errors)
    for key, needs in schema.get("dependentRequired", {}).items():
        if key in value:
            for need in needs:
                if need not in value:
                    errors.add((f"{path}/{escape(need)}", "dependentRequired"))
    for key, sub in schema.get("dependentSchemas", {}).items():
        if key in value:
            _value(sub, value, path, errors)
    if len(value) < schema.get("minProperties", 0):
        errors.add((path, "minProperties"))
    if "maxProperties" in schema and len(value) > schema["maxProperties"]:
        errors.add((path, "maxProperties"))


# -- format, written independently of the generated checks --------------------------


def _date(text: str) -> bool:
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", text):
        return False
    try:
        datetime.date(int(text[:4]), int(text[5:7]), int(text[8:]))
    except ValueError:
        return False
    return True


def _time(text: str) -> bool:
    m = re.fullmatch(
        r"([0-9]{2}):([0-9]{2}):([0-9]{2})(\.[0-9]+)?([Zz]|([+-])([0-9]{2}):([0-9]{2}))", text
    )
    if not m:
        return False
    h, mi, sec = int(m[1]), int(m[2]), int(m[3])
    if h > 23 or mi > 59 or sec > 60:
        return False
    offset = 0
    if m[6]:
        oh, om = int(m[7]), int(m[8])
        if oh > 23 or om > 59:
            return False
        offset = (oh * 60 + om) * (1 if m[6] == "+" else -1)
    utc = (h * 60 + mi - offset) % 1440
    return sec < 60 or utc == 23 * 60 + 59


def _date_time(text: str) -> bool:
    parts = re.split("[Tt]", text)
    return len(parts) == 2 and _date(parts[0]) and _time(parts[1])


def _duration(text: str) -> bool:
    # RFC 3339 appendix A: each unit may only be followed by the next smaller ones.
    time = r"T([0-9]+H([0-9]+M([0-9]+S)?)?|[0-9]+M([0-9]+S)?|[0-9]+S)"
    date = r"([0-9]+Y([0-9]+M([0-9]+D)?)?|[0-9]+M([0-9]+D)?|[0-9]+D)"
    return re.fullmatch(rf"P([0-9]+W|{date}({time})?|{time})", text) is not None


def _ipv4(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 4 and all(
        p.isascii() and p.isdigit() and (p == "0" or not p.startswith("0")) and int(p) <= 255
        for p in parts
    )


def _ipv6(text: str) -> bool:
    if not text.isascii() or "%" in text or text.strip() != text:
        return False
    try:
        ipaddress.IPv6Address(text)
    except ValueError:
        return False
    return True


def _hostname(text: str) -> bool:
    if not 0 < len(text) <= 253:
        return False
    return all(
        re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?", label)
        for label in text.split(".")
    )


def _email(text: str) -> bool:
    local, at, domain = text.rpartition("@")
    if not at:
        return False
    atom = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"
    if not (re.fullmatch(rf"{atom}(\.{atom})*", local) or re.fullmatch(r'"([^"\\]|\\.)*"', local)):
        return False
    if domain.startswith("[") and domain.endswith("]"):
        inner = domain[1:-1]
        return _ipv6(inner[5:]) if inner.lower().startswith("ipv6:") else _ipv4(inner)
    return _hostname(domain)


def _uri(text: str) -> bool:
    m = re.fullmatch(r"([A-Za-z][A-Za-z0-9+.-]*):(.*)", text, re.S)
    if (
        not m
        or re.search(r"[^A-Za-z0-9\-._~!$&'()*+,;=:@/?#\[\]%]", m[2])
        or re.search(r"%(?![0-9A-Fa-f]{2})", text)
    ):
        return False
    rest = m[2]
    if "#" in rest.partition("#")[2]:  # RFC 3986: fragment = *( pchar / "/" / "?" ), no second "#"
        return False
    if rest.startswith("//"):
        authority = re.split(r"[/?#]", rest[2:], maxsplit=1)[0]
        after = rest[2 + len(authority) :]
        userinfo, at, host_port = authority.partition("@")
        authority = host_port if at else userinfo
        if "@" in authority or (at and ("[" in userinfo or "]" in userinfo)):
            return False  # userinfo holds no "@" and no brackets
        literal = re.fullmatch(r"\[([^\]]*)\](?::([0-9]*))?", authority)
        if literal:
            ip_future = re.fullmatch(
                r"[Vv][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+", literal[1]
            )  # RFC 3986 IPvFuture
            return (
                (_ipv6(literal[1]) or ip_future is not None)
                and "[" not in after
                and "]" not in after
            )
        if "[" in authority or "]" in authority:
            return False
        _host, colon, port = authority.partition(":")
        if colon and not re.fullmatch(r"[0-9]*", port):
            return False
    return "[" not in rest and "]" not in rest


def _uuid(text: str) -> bool:
    if not re.fullmatch(r"[0-9A-Fa-f]{8}(-[0-9A-Fa-f]{4}){3}-[0-9A-Fa-f]{12}", text):
        return False
    uuid.UUID(text)
    return True


# RFC 3986 characters, and the ranges RFC 3987 adds for IRIs (ucschar everywhere, iprivate in queries).
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_SUB_DELIMS = frozenset("!$&'()*+,;=")
_UCS_RANGES = (
    ((0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF))
    + tuple((plane << 16, (plane << 16) + 0xFFFD) for plane in range(1, 14))
    + ((0xE1000, 0xEFFFD),)
)
_PRIVATE_RANGES = ((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))


def _in_ranges(char: str, ranges: tuple[tuple[int, int], ...]) -> bool:
    return any(low <= ord(char) <= high for low, high in ranges)


def _chars_ok(text: str, extra: str, iri: bool, private: bool = False) -> bool:
    """Every character unreserved, a sub-delim, in ``extra``, or part of a %XX escape
    (for an IRI also ucschar, and iprivate where ``private``)."""
    i = 0
    while i < len(text):
        char = text[i]
        if char == "%":
            if len(text) < i + 3 or not all(
                c in "0123456789abcdefABCDEF" for c in text[i + 1 : i + 3]
            ):
                return False
            i += 3
            continue
        if not (
            char in _UNRESERVED
            or char in _SUB_DELIMS
            or char in extra
            or (iri and _in_ranges(char, _UCS_RANGES))
            or (private and _in_ranges(char, _PRIVATE_RANGES))
        ):
            return False
        i += 1
    return True


def _reference(text: str, iri: bool, absolute: bool) -> bool:
    """A URI/IRI reference, split as RFC 3986 appendix B does, each part checked on its own."""
    m = re.fullmatch(
        r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", text, re.S
    )
    if m is None:
        return False
    scheme, authority, path, query, fragment = m.groups()
    # What appendix B reads as a scheme and is none is a colon in a relative path's first segment.
    if scheme is not None and not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", scheme):
        return False
    if absolute and scheme is None:
        return False
    if query is not None and not _chars_ok(query, ":@/?", iri, private=iri):
        return False
    if fragment is not None and not _chars_ok(fragment, ":@/?", iri):
        return False
    if not all(_chars_ok(segment, ":@", iri) for segment in path.split("/")):
        return False
    if authority is None:
        if path.startswith("//"):
            return False
        first = path.split("/")[0]
        return scheme is not None or ":" not in first
    if path and not path.startswith("/"):
        return False
    userinfo, at, host_port = authority.rpartition("@")
    if at and not _chars_ok(userinfo, ":", iri):
        return False
    if host_port.startswith("["):
        close = host_port.find("]")
        if close == -1:
            return False
        literal, port = host_port[1:close], host_port[close + 1 :]
        future = re.fullmatch(r"[Vv][0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+", literal)
        if not (_ipv6(literal) or future):
            return False
    else:
        host, colon, port = host_port.partition(":")
        port = colon + port
        if not _chars_ok(host, "", iri):
            return False
    return port == "" or (port[0] == ":" and all(c in "0123456789" for c in port[1:]))


def _regex_format(text: str) -> bool:
    """What toolshape's own ECMA-262 translation accepts, and Python's re then compiles."""
    try:
        re.compile(translate_pattern(text))
    except (PatternError, re.error, RecursionError, OverflowError):
        return False
    return True


def _uri_reference(text: str) -> bool:
    return _reference(text, iri=False, absolute=False)


def _iri(text: str) -> bool:
    return _reference(text, iri=True, absolute=True)


def _iri_reference(text: str) -> bool:
    return _reference(text, iri=True, absolute=False)


def _uri_template(text: str) -> bool:
    # RFC 6570 section 2: literals (the apostrophe allowed, as the JSON Schema test suite reads it) and expressions.
    literal_ascii = set("!#$&'()*+,-./0123456789:;=?@[]_~") | set(string.ascii_letters)
    i = 0
    while i < len(text):
        char = text[i]
        if char == "{":
            end = text.find("}", i)
            if end == -1 or not _expression(text[i + 1 : end]):
                return False
            i = end + 1
        elif char == "%":
            if not re.fullmatch(r"%[0-9A-Fa-f]{2}", text[i : i + 3]):
                return False
            i += 3
        elif char in literal_ascii or _in_ranges(char, _UCS_RANGES + _PRIVATE_RANGES):
            i += 1
        else:
            return False
    return True


def _expression(body: str) -> bool:
    if body[:1] and body[0] in "+#./;?&=,!@|":
        body = body[1:]
    for varspec in body.split(","):
        name, colon, length = varspec.partition(":")
        if not colon and name.endswith("*"):
            name = name[:-1]
        if colon and not (
            length.isascii() and length.isdigit() and length[0] != "0" and len(length) <= 4
        ):
            return False
        names = name.split(".")
        for part in names:
            if not part or not re.fullmatch(r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+", part):
                return False
    return True


def _json_pointer(text: str) -> bool:
    if text and not text.startswith("/"):
        return False
    for token in text.split("/")[1:]:
        escapes = token.split("~")[1:]
        if any(not rest or rest[0] not in "01" for rest in escapes):
            return False
    return True


def _relative_json_pointer(text: str) -> bool:
    digits = len(text) - len(text.lstrip("0123456789"))
    prefix, rest = text[:digits], text[digits:]
    if not prefix or (len(prefix) > 1 and prefix[0] == "0"):
        return False
    return rest == "#" or _json_pointer(rest)


_FORMATS = {
    "date-time": _date_time,
    "date": _date,
    "time": _time,
    "duration": _duration,
    "email": _email,
    "hostname": _hostname,
    "ipv4": _ipv4,
    "ipv6": _ipv6,
    "uri": _uri,
    "uuid": _uuid,
    "uri-reference": _uri_reference,
    "iri": _iri,
    "iri-reference": _iri_reference,
    "uri-template": _uri_template,
    "json-pointer": _json_pointer,
    "relative-json-pointer": _relative_json_pointer,
    "regex": _regex_format,
}
