"""Unicode property escapes in patterns (``\\p{...}``, ``\\P{...}``): what they match, by construction.

JSON Schema patterns are ECMA-262 in Unicode mode, where ``\\p{Letter}`` is any letter. Python's
``re`` has no such escape; toolshape spells the code points out, from a table of Unicode's
General_Category kept in the generator (``regex/categories.py``), so that a pattern means the
same whichever Python generates it. Run as a script with a Python whose Unicode version is the
table's, this file writes the table::

    python3.13 tests/test_regex_unicode.py > generator/toolshape/regex/categories.py
"""

from __future__ import annotations

import re
import subprocess
import sys
import unicodedata
from collections.abc import Callable
from pathlib import Path

WIDTH = 88
TABLE = (
    Path(__file__).resolve().parent.parent / "generator" / "toolshape" / "regex" / "categories.py"
)


def table_source() -> str:
    """The text of ``categories.py`` from this Python's ``unicodedata``."""
    found: dict[str, list[list[int]]] = {}
    for code in range(0x110000):
        spans = found.setdefault(unicodedata.category(chr(code)), [])
        if spans and spans[-1][1] == code - 1:
            spans[-1][1] = code
        else:
            spans.append([code, code])
    del found["Cn"]  # what no other category holds: computed
    out = [
        '"""Unicode\'s General_Category of every code point, as ranges (written by',
        "tests/test_regex_unicode.py from CPython's ``unicodedata``; do not edit).",
        "",
        "Kept here, not read from ``unicodedata`` at generation time, so that a pattern's",
        "``\\\\p{...}`` means the same code points whichever Python runs the generator (each",
        "Python ships its own Unicode version, and a generated module must not depend on it).",
        "Unassigned (``Cn``) is what no category here holds.",
        '"""',
        "",
        "#: The Unicode version of the table.",
        f'UNICODE_VERSION = "{unicodedata.unidata_version}"',
        "",
        "#: Each category's code points: hexadecimal ``low-high`` ranges (or one code point).",
        "RANGES: dict[str, str] = {",
    ]
    for category, spans in sorted(found.items()):
        words = [f"{a:X}" if a == b else f"{a:X}-{b:X}" for a, b in spans]
        lines, line = [], ""
        for word in words:
            if len(line) + len(word) + 1 > WIDTH - 10:
                lines.append(f"{line} ")
                line = word
            else:
                line = f"{line} {word}" if line else word
        lines.append(line)
        if len(lines) == 1:  # as ruff format writes it
            out.append(f'    "{category}": ("{line}"),')
            continue
        out.extend([f'    "{category}": (', *(f'        "{text}"' for text in lines), "    ),"])
    out.append("}")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.stdout.write(table_source())
    raise SystemExit(0)

import pytest  # noqa: E402 - the table is written without it
from test_generated_code import find_python  # noqa: E402
from toolshape.project.runtime import runtime_module  # noqa: E402
from toolshape.regex.categories import RANGES, UNICODE_VERSION  # noqa: E402
from toolshape.regex.charset import MAX_CODE_POINT, CharSet  # noqa: E402
from toolshape.regex.properties import (  # noqa: E402
    CATEGORY_NAMES,
    CATEGORY_PREFIXES,
    OTHER_PROPERTIES,
    category_chars,
    property_chars,
)
from toolshape.regex.syntax import PatternError  # noqa: E402
from toolshape.regex.translate import translate  # noqa: E402


def test_the_table_is_unicode_as_cpython_reads_it() -> None:
    """The committed table is what CPython's ``unicodedata`` of the table's Unicode version
    says, code point by code point (the Python that ships it writes it again, byte for byte)."""
    if unicodedata.unidata_version == UNICODE_VERSION:
        assert table_source() == TABLE.read_text(encoding="utf-8")
        return
    found = find_python("3.13")
    if found is None:
        pytest.skip("no CPython 3.13 (Unicode 15.1) to read the table's Unicode from")
    written = subprocess.run(
        [found[0], __file__], capture_output=True, text=True, encoding="utf-8", check=True
    ).stdout
    assert f'UNICODE_VERSION = "{UNICODE_VERSION}"' in written
    assert written == TABLE.read_text(encoding="utf-8")


def test_the_categories_partition_every_code_point() -> None:
    """Each code point is in exactly one two-letter category (Cn: the rest)."""
    two_letter = [*RANGES, "Cn"]
    sizes = [category_chars(c).size() for c in two_letter]
    assert sum(sizes) == MAX_CODE_POINT + 1
    union = CharSet.of(pair for c in two_letter for pair in category_chars(c).ranges)
    assert union.ranges == ((0, MAX_CODE_POINT),)


@pytest.mark.parametrize("short", sorted(CATEGORY_NAMES))
def test_every_name_of_a_category_means_its_code_points(short: str) -> None:
    """Every alias, with and without ``General_Category=``/``gc=``; a one-letter category
    (and LC) is the union of its members."""
    wanted = category_chars(short)
    for name in CATEGORY_NAMES[short]:
        for spelled in [name, *(f"{prefix}={name}" for prefix in CATEGORY_PREFIXES)]:
            assert property_chars(spelled) == wanted, spelled
    if len(short) == 1 or short == "LC":
        members = (
            ["Ll", "Lt", "Lu"] if short == "LC" else [c for c in [*RANGES, "Cn"] if c[0] == short]
        )
        assert wanted == CharSet.of(p for m in members for p in category_chars(m).ranges)


def test_the_other_properties() -> None:
    assert property_chars("Any").ranges == ((0, MAX_CODE_POINT),)
    assert property_chars("ASCII").ranges == ((0, 0x7F),)
    assert property_chars("Assigned") == category_chars("Cn").complement()
    assert set(OTHER_PROPERTIES) == {"Any", "ASCII", "Assigned"}


def _boundaries(chars: CharSet) -> list[int]:
    """Every code point where membership can change: each range's ends and their neighbours."""
    points: set[int] = set()
    for low, high in chars.ranges:
        points.update(p for p in (low - 1, low, high, high + 1) if 0 <= p <= MAX_CODE_POINT)
    return sorted(points)


@pytest.mark.parametrize("name", ["L", "Letter", "Nd", "digit", "P", "Zs", "Cn", "gc=Lu", "ASCII"])
def test_a_property_escape_matches_exactly_its_code_points(name: str) -> None:
    """The translation matches a code point exactly when the property holds it: shown at every
    code point where membership changes (so between them too), for ``\\p``, ``\\P``, and each
    inside a class with another member."""
    chars = property_chars(name)
    tried = _boundaries(chars)
    cases: dict[str, Callable[[int], bool]] = {
        rf"^\p{{{name}}}$": lambda c: c in chars,
        rf"^\P{{{name}}}$": lambda c: c not in chars,
        rf"^[\p{{{name}}}#]$": lambda c: c in chars or c == ord("#"),
        rf"^[^\p{{{name}}}#]$": lambda c: c not in chars and c != ord("#"),
        rf"^[\P{{{name}}}#]$": lambda c: c not in chars or c == ord("#"),
    }
    for pattern, holds in cases.items():
        compiled = re.compile(translate(pattern))
        wrong = [c for c in [*tried, ord("#")] if (compiled.search(chr(c)) is not None) != holds(c)]
        assert not wrong, (pattern, [hex(c) for c in wrong[:5]])


@pytest.mark.parametrize(
    "pattern",
    [
        r"\p{Script=Greek}",
        r"\p{sc=Grek}",
        r"\p{Alphabetic}",
        r"\p{letter}",
        r"\p{Other_Category=L}",
        r"\p",
        r"\pL",
        r"\p{L",
    ],
)
def test_properties_toolshape_cannot_translate_are_refused_by_name(pattern: str) -> None:
    with pytest.raises(PatternError) as refused:
        translate(pattern)
    assert "\\p" in str(refused.value) or "\\P" in str(refused.value)


def test_format_regex_at_run_time_knows_the_same_property_names() -> None:
    """The runtime's ``format: regex`` check accepts exactly the names the translation does."""
    rt = runtime_module()
    names = {name for names in CATEGORY_NAMES.values() for name in names}
    assert names == rt._GENERAL_CATEGORIES


#: Facts of Unicode and of ECMA-262's property names, written out here (not read from the
#: tables under test): an alias that points at the wrong category fails.
KNOWN = {
    "digit": ["5", "\u09ea"],
    "Nd": ["0", "\u0661"],
    "Letter": ["A", "\u03c0", "\u00e9"],
    "Lu": ["A", "\u00c9"],
    "Ll": ["a", "\u00e9"],
    "punct": ["!", "\u00bf"],
    "Zs": [" ", "\u3000"],
    "Sc": ["$", "\u20ac"],
    "Cased_Letter": ["a", "A"],
    "Cn": ["\u0378"],
}
KNOWN_NOT = {"digit": ["a", "\u00bd"], "Letter": ["1", " "], "Lu": ["a"], "punct": ["a", "$"]}


def test_property_names_mean_what_unicode_says() -> None:
    for name, members in KNOWN.items():
        assert all(ord(c) in property_chars(name) for c in members), name
    for name, others in KNOWN_NOT.items():
        assert not any(ord(c) in property_chars(name) for c in others), name


@pytest.mark.parametrize(
    "pattern",
    [
        r"\p{L}",
        r"\p{gc=Lu}",
        r"\p{General_Category=digit}",
        r"[\P{Nd}x]",
        r"\p{Any}",
        r"\P{ASCII}",
        r"\p{Assigned}",
        r"\P{Any}",
        r"\p{Script=Greek}",
        r"\p{sc=Lu}",
        r"\p{letter}",
        r"\p{L",
    ],
)
def test_format_regex_at_run_time_accepts_what_the_translation_does(pattern: str) -> None:
    try:
        translate(pattern)
        translates = True
    except PatternError:
        translates = False
    assert runtime_module()._is_regex(pattern) is translates
