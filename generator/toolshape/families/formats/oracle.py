"""The reference evaluation of ``format`` (contract stage): whether a string is a date-time,
an email, a hostname, ..., each written independently of the generated checks
(``templates/formats.py.j2``): from the RFCs' grammars and tables (IDNA2008 included), and
for ``regex`` from toolshape's own ECMA-262 translation.

``FORMAT_ORACLES`` maps each asserted format to its oracle; ``contract/reference.py`` calls
:func:`refused` on every string it meets.
"""

from __future__ import annotations

import datetime
import functools
import ipaddress
import re
import string
import unicodedata
import uuid
from collections.abc import Iterator
from typing import Any

from ...regex import PatternError
from ...regex import translate as translate_pattern


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
    labels = text.split(".")
    if not all(re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?", x) for x in labels):
        return False
    if any(x.lower().startswith("xn--") for x in labels):
        return _idn_labels(labels)  # an A-label must stand for a valid U-label
    return True


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


# -- IDNA2008 (RFC 5890-5893), from unicodedata and the RFCs' own tables ------------------

# RFC 5892 section 2.6 (F): exceptions.
_EXCEPTIONS_PVALID = {0x00DF, 0x03C2, 0x06FD, 0x06FE, 0x0F0B, 0x3007}
_EXCEPTIONS_CONTEXTO = {0x00B7, 0x0375, 0x05F3, 0x05F4, 0x30FB, *range(0x0660, 0x066A)} | set(
    range(0x06F0, 0x06FA)
)
_EXCEPTIONS_DISALLOWED = {
    0x0640,
    0x07FA,
    0x302E,
    0x302F,
    0x3031,
    0x3032,
    0x3033,
    0x3034,
    0x3035,
    0x303B,
}
# Section 2.3 (C): Default_Ignorable_Code_Point and White_Space (PropList.txt, DerivedCoreProperties.txt).
_DEFAULT_IGNORABLE = [
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
]  # fmt: skip
_WHITE_SPACE = [(0x09, 0x0D), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680),
    (0x2000, 0x200A), (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000)]  # fmt: skip
# Section 2.4 (D): Combining Diacritical Marks for Symbols, Musical Symbols, Ancient Greek Musical Notation.
_IGNORABLE_BLOCKS = [(0x20D0, 0x20FF), (0x1D100, 0x1D1FF), (0x1D200, 0x1D24F)]
# Section 2.9 (I): Hangul_Syllable_Type L, V or T (the Hangul Jamo blocks).
_OLD_HANGUL_JAMO = [(0x1100, 0x11FF), (0xA960, 0xA97F), (0xD7B0, 0xD7FF)]


def _in_any(code: int, ranges: list[tuple[int, int]]) -> bool:
    return any(low <= code <= high for low, high in ranges)


def _idna_property(code: int) -> str:
    """RFC 5892 section 3: the derived property, rule by rule in the RFC's order."""
    char = chr(code)
    if code in _EXCEPTIONS_PVALID:
        return "PVALID"
    if code in _EXCEPTIONS_CONTEXTO:
        return "CONTEXTO"
    if code in _EXCEPTIONS_DISALLOWED:
        return "DISALLOWED"
    if unicodedata.category(char) == "Cn":
        return "UNASSIGNED"
    if char in string.ascii_lowercase + string.digits + "-":
        return "PVALID"
    if code in (0x200C, 0x200D):
        return "CONTEXTJ"
    nfkc = functools.partial(unicodedata.normalize, "NFKC")
    if nfkc(nfkc(char).casefold()) != char:
        return "DISALLOWED"
    if any(
        _in_any(code, table)
        for table in (_DEFAULT_IGNORABLE, _WHITE_SPACE, _IGNORABLE_BLOCKS, _OLD_HANGUL_JAMO)
    ):
        return "DISALLOWED"
    if unicodedata.category(char) in {"Ll", "Lu", "Lo", "Nd", "Lm", "Mn", "Mc"}:
        return "PVALID"
    return "DISALLOWED"


# RFC 3492: punycode, by hand (the runtime uses the standard library's codec).
_BASE, _TMIN, _TMAX, _SKEW, _DAMP = 36, 1, 26, 38, 700


def _adapt(delta: int, points: int, first: bool) -> int:
    delta = delta // _DAMP if first else delta // 2
    delta += delta // points
    k = 0
    while delta > ((_BASE - _TMIN) * _TMAX) // 2:
        delta //= _BASE - _TMIN
        k += _BASE
    return k + (_BASE - _TMIN + 1) * delta // (delta + _SKEW)


def _puny_decode(text: str) -> str | None:
    basic, _, rest = text.rpartition("-") if "-" in text else ("", "", text)
    if not basic.isascii():
        return None
    out = [ord(c) for c in basic]
    n, i, bias, pos = 128, 0, 72, 0
    while pos < len(rest):
        old_i, w, k = i, 1, _BASE
        while True:
            if pos >= len(rest):
                return None
            c = rest[pos].lower()
            pos += 1
            if c in string.ascii_lowercase:
                digit = ord(c) - ord("a")
            elif c in string.digits:
                digit = ord(c) - ord("0") + 26
            else:
                return None
            i += digit * w
            t = _TMIN if k <= bias else _TMAX if k >= bias + _TMAX else k - bias
            if digit < t:
                break
            w *= _BASE - t
            k += _BASE
        bias = _adapt(i - old_i, len(out) + 1, old_i == 0)
        n += i // (len(out) + 1)
        i %= len(out) + 1
        if n > 0x10FFFF:
            return None
        out.insert(i, n)
        i += 1
    return "".join(map(chr, out))


def _puny_encode(text: str) -> str:
    codes = [ord(c) for c in text]
    out = [c for c in text if ord(c) < 128]
    handled = basic = len(out)
    if out:
        out.append("-")
    n, delta, bias = 128, 0, 72
    while handled < len(codes):
        m = min(c for c in codes if c >= n)
        delta += (m - n) * (handled + 1)
        n = m
        for c in codes:
            if c < n:
                delta += 1
            if c == n:
                q, k = delta, _BASE
                while True:
                    t = _TMIN if k <= bias else _TMAX if k >= bias + _TMAX else k - bias
                    if q < t:
                        break
                    digit = t + (q - t) % (_BASE - t)
                    out.append(chr(digit + 22 + 75 * (digit < 26)))
                    q = (q - t) // (_BASE - t)
                    k += _BASE
                out.append(chr(q + 22 + 75 * (q < 26)))
                bias = _adapt(delta, handled + 1, handled == basic)
                delta = 0
                handled += 1
        delta += 1
        n += 1
    return "".join(out)


def _context_ok(label: str, at: int) -> bool:
    """RFC 5892 appendix A, one rule per code point; scripts read from character names."""
    char = label[at]
    prev = label[:at]
    after = label[at + 1 :]
    names = [unicodedata.name(c, "") for c in label]
    if char in "\u200c\u200d":
        if prev and unicodedata.combining(prev[-1]) == 9:
            return True
        if char == "\u200d":
            return False
        joining = "".join(_joining(c) for c in label)
        # (L|D) T* ZWNJ T* (R|D), read on the joining types of the whole label.
        return (
            re.fullmatch(r"(.*[LD])T*", joining[:at]) is not None
            and re.fullmatch(r"T*[RD].*", joining[at + 1 :]) is not None
        )
    if char == "\u00b7":
        return prev.endswith("l") and after.startswith("l")
    if char == "\u0375":
        return bool(after) and unicodedata.name(after[0], "").startswith("GREEK ")
    if char in "\u05f3\u05f4":
        return bool(prev) and unicodedata.name(prev[-1], "").startswith("HEBREW ")
    if char == "\u30fb":
        return any(
            re.match(r"(HIRAGANA|KATAKANA|HALFWIDTH KATAKANA|CJK UNIFIED|CJK COMPATIBILITY) ", n)
            and c != "\u30fb"
            for c, n in zip(label, names, strict=True)
        )
    arabic_indic = re.search("[\u0660-\u0669]", label) is not None
    extended = re.search("[\u06f0-\u06f9]", label) is not None
    return not (arabic_indic and extended)


@functools.cache
def _arabic_forms() -> dict[str, set[str]]:
    forms: dict[str, set[str]] = {}
    for code in list(range(0xFB50, 0xFE00)) + list(range(0xFE70, 0xFF00)):
        parts = unicodedata.decomposition(chr(code)).split()
        if len(parts) == 2:
            forms.setdefault(chr(int(parts[1], 16)), set()).add(parts[0])
    return forms


def _joining(char: str) -> str:
    if char in "\u200c\u200d":
        return "U"
    if unicodedata.category(char) in ("Mn", "Me", "Cf"):
        return "T"
    forms = _arabic_forms().get(char, set())
    if forms & {"<initial>", "<medial>"}:
        return "D"
    return "R" if "<final>" in forms else "U"


def _u_label(label: str) -> bool:
    if not label or unicodedata.normalize("NFC", label) != label:
        return False
    if label.startswith("-") or label.endswith("-") or label[2:4] == "--":
        return False
    if unicodedata.category(label[0]).startswith("M"):
        return False
    for at, char in enumerate(label):
        kind = _idna_property(ord(char))
        if kind in ("DISALLOWED", "UNASSIGNED"):
            return False
        if kind in ("CONTEXTJ", "CONTEXTO") and not _context_ok(label, at):
            return False
    return True


def _bidi_ok(labels: list[str]) -> bool:
    """RFC 5893: in a name with a right-to-left label, every label keeps the Bidi rule."""
    letters = {"L": "L", "R": "R", "AL": "A", "AN": "N", "EN": "E", "NSM": "M"}
    spelled = [
        "".join(
            letters.get(
                unicodedata.bidirectional(c),
                "o" if unicodedata.bidirectional(c) in ("ES", "CS", "ET", "ON", "BN") else "x",
            )
            for c in label
        )
        for label in labels
    ]
    if not re.search("[RAN]", "".join(spelled)):
        return True
    for word in spelled:
        rtl = (
            re.fullmatch(r"[RA][RANEoM]*", word)
            and re.search(r"[RAEN]M*$", word)
            and not ("E" in word and "N" in word)
        )
        ltr = re.fullmatch(r"L[LEoM]*", word) and re.search(r"[LE]M*$", word)
        if not (rtl or ltr):
            return False
    return True


def _idn_labels(labels: list[str]) -> bool:
    """Each label LDH, an A-label or a U-label; lengths counted on the A-label form."""
    ascii_forms: list[str] = []
    unicode_forms: list[str] = []
    for label in labels:
        if label.isascii() and label.lower().startswith("xn--"):
            if len(label) > 63:
                return False
            decoded = _puny_decode(label[4:])
            if (
                decoded is None
                or decoded.isascii()
                or "xn--" + _puny_encode(decoded) != label.lower()
            ):
                return False
            if not _u_label(decoded):
                return False
            ascii_forms.append(label)
            unicode_forms.append(decoded)
        elif label.isascii():
            if (
                not re.fullmatch(r"[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?", label)
                or label[2:4] == "--"
            ):
                return False
            ascii_forms.append(label)
            unicode_forms.append(label)
        else:
            if not _u_label(label):
                return False
            ascii_forms.append("xn--" + _puny_encode(label))
            unicode_forms.append(label)
    if any(len(a) > 63 for a in ascii_forms) or len(".".join(ascii_forms)) > 253:
        return False
    return _bidi_ok(unicode_forms)


def _idn_hostname(text: str) -> bool:
    return text != "" and _idn_labels(re.split("[.\u3002\uff0e\uff61]", text))


def _idn_email(text: str) -> bool:
    local, at, domain = text.rpartition("@")
    if not at or not local:
        return False
    utf8 = "\u0080-\ud7ff\ue000-\U0010ffff"  # RFC 6531 UTF8-non-ascii (no lone surrogates)
    atom = f"[A-Za-z0-9!#$%&'*+/=?^_`{{|}}~{utf8}-]+"
    quoted = '"([^"\\\\\ud800-\udfff]|\\\\[^\ud800-\udfff])*"'
    if not (re.fullmatch(rf"{atom}(\.{atom})*", local) or re.fullmatch(quoted, local)):
        return False
    if domain.startswith("[") and domain.endswith("]"):
        return _email("x@" + domain)
    return _idn_hostname(unicodedata.normalize("NFC", domain))


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


#: Each format the reference evaluator asserts, and the function that decides it.
FORMAT_ORACLES = {
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
    "idn-hostname": _idn_hostname,
    "idn-email": _idn_email,
}


def refused(schema: dict[str, Any], value: str) -> Iterator[str]:
    """``format``, when ``schema`` asserts a format the string ``value`` is not of."""
    name = schema.get("format")
    if name is not None and name in FORMAT_ORACLES and not FORMAT_ORACLES[name](value):
        yield "format"
