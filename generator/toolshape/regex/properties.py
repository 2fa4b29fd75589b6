"""ECMA-262's Unicode property escapes (``\\p{...}`` and ``\\P{...}``) as sets of code points.

A JSON Schema pattern is ECMA-262 in Unicode mode, where ``\\p{Letter}`` matches any letter
and ``\\P{Letter}`` anything else. Python's ``re`` has no such escape, so the parser replaces
one with the ranges it stands for (``translate`` spells them as a class), read from
``categories.py``: Unicode's General_Category, one fixed Unicode version whatever Python runs
the generator. A property is named as ECMA-262 names it, case and underscores exactly:

* a General_Category value by any of its names (``L``, ``Letter``; ``Nd``, ``Decimal_Number``,
  ``digit``), alone or after ``General_Category=`` or ``gc=``;
* ``Any``, ``ASCII`` and ``Assigned``.

Scripts (``Script=Greek``) and the other binary properties (``Alphabetic``, ``Emoji``) need
tables Python's standard library does not hold: they are refused by name, as untranslatable.
"""

from __future__ import annotations

from functools import cache

from .categories import RANGES
from .charset import MAX_CODE_POINT, CharSet

#: Each General_Category value (Unicode's PropertyValueAliases.txt, ``gc``): its names, the
#: short one first, and for a group of categories its members.
CATEGORY_NAMES: dict[str, tuple[str, ...]] = {
    "C": ("C", "Other"),
    "Cc": ("Cc", "Control", "cntrl"),
    "Cf": ("Cf", "Format"),
    "Cn": ("Cn", "Unassigned"),
    "Co": ("Co", "Private_Use"),
    "Cs": ("Cs", "Surrogate"),
    "L": ("L", "Letter"),
    "LC": ("LC", "Cased_Letter"),
    "Ll": ("Ll", "Lowercase_Letter"),
    "Lm": ("Lm", "Modifier_Letter"),
    "Lo": ("Lo", "Other_Letter"),
    "Lt": ("Lt", "Titlecase_Letter"),
    "Lu": ("Lu", "Uppercase_Letter"),
    "M": ("M", "Mark", "Combining_Mark"),
    "Mc": ("Mc", "Spacing_Mark"),
    "Me": ("Me", "Enclosing_Mark"),
    "Mn": ("Mn", "Nonspacing_Mark"),
    "N": ("N", "Number"),
    "Nd": ("Nd", "Decimal_Number", "digit"),
    "Nl": ("Nl", "Letter_Number"),
    "No": ("No", "Other_Number"),
    "P": ("P", "Punctuation", "punct"),
    "Pc": ("Pc", "Connector_Punctuation"),
    "Pd": ("Pd", "Dash_Punctuation"),
    "Pe": ("Pe", "Close_Punctuation"),
    "Pf": ("Pf", "Final_Punctuation"),
    "Pi": ("Pi", "Initial_Punctuation"),
    "Po": ("Po", "Other_Punctuation"),
    "Ps": ("Ps", "Open_Punctuation"),
    "S": ("S", "Symbol"),
    "Sc": ("Sc", "Currency_Symbol"),
    "Sk": ("Sk", "Modifier_Symbol"),
    "Sm": ("Sm", "Math_Symbol"),
    "So": ("So", "Other_Symbol"),
    "Z": ("Z", "Separator"),
    "Zl": ("Zl", "Line_Separator"),
    "Zp": ("Zp", "Paragraph_Separator"),
    "Zs": ("Zs", "Space_Separator"),
}
#: The properties that are not a General_Category value.
OTHER_PROPERTIES = ("Any", "ASCII", "Assigned")
#: What may precede ``=`` and a General_Category value.
CATEGORY_PREFIXES = ("General_Category", "gc")

_BY_NAME = {name: short for short, names in CATEGORY_NAMES.items() for name in names}


class UnknownProperty(ValueError):
    """A property name ECMA-262 does not know, or one toolshape cannot translate: the message
    says which."""


def property_chars(name: str) -> CharSet:
    """The code points ``\\p{name}`` matches; raise :class:`UnknownProperty`."""
    if name in OTHER_PROPERTIES:
        return _other(name)
    prefix, equals, value = name.rpartition("=")
    short = _BY_NAME.get(value) if not equals or prefix in CATEGORY_PREFIXES else None
    if short is None:
        raise UnknownProperty(
            f"'\\p{{{name}}}' cannot be translated: toolshape knows the General_Category values "
            f"(L or Letter, Nd or digit, ...) and {', '.join(OTHER_PROPERTIES)}, named with "
            "their exact case; a script or another property (Script=Greek, Alphabetic) needs "
            "Unicode tables Python's re lacks"
        )
    return category_chars(short)


@cache
def category_chars(short: str) -> CharSet:
    """The code points of a General_Category value, by its short name (one letter: a group)."""
    if short == "Cn":
        return CharSet.of(pair for cat in RANGES for pair in _ranges(cat)).complement()
    if short == "LC":
        members = ["Ll", "Lt", "Lu"]
    elif len(short) == 1:
        members = [cat for cat in [*RANGES, "Cn"] if cat.startswith(short)]
    else:
        members = [short]
    return CharSet.of(
        pair
        for cat in members
        for pair in (category_chars(cat).ranges if cat == "Cn" else _ranges(cat))
    )


@cache
def _ranges(category: str) -> tuple[tuple[int, int], ...]:
    pairs = []
    for word in RANGES[category].split():
        low, _, high = word.partition("-")
        pairs.append((int(low, 16), int(high or low, 16)))
    return tuple(pairs)


def _other(name: str) -> CharSet:
    if name == "Any":
        return CharSet.of([(0, MAX_CODE_POINT)])
    if name == "ASCII":
        return CharSet.of([(0, 0x7F)])
    return category_chars("Cn").complement()  # Assigned
