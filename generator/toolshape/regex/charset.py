"""Sets of code points as sorted, disjoint, non-adjacent ranges: what a pattern's atoms match.

The parser builds one ``CharSet`` per literal, class or escape; the automaton and the witness
search only ever ask "is this code point in the set" and "what are the set's members, most
readable first", so a compact range list is enough and needs no table of Unicode.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise

MAX_CODE_POINT = 0x10FFFF

#: ECMA-262 WhiteSpace and LineTerminator: what its \s matches.
WHITESPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
LINE_TERMINATORS = "\n\r\u2028\u2029"

#: The order in which a witness picks characters: readable ones first (see ``readable``).
PREFERRED = "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ-_. " + "".join(
    chr(c) for c in range(0x21, 0x7F) if not chr(c).isalnum() and chr(c) not in "-_."
)
_PREFERRED_CODES = frozenset(ord(c) for c in PREFERRED)


@dataclass(frozen=True)
class CharSet:
    """A set of code points: ``ranges`` are sorted, disjoint and never adjacent (inclusive bounds)."""

    ranges: tuple[tuple[int, int], ...]

    @staticmethod
    def of(pairs: Iterable[tuple[int, int]]) -> CharSet:
        """The union of the inclusive ranges ``pairs``, normalised so equal sets compare equal."""
        merged: list[tuple[int, int]] = []
        for low, high in sorted(pairs):
            if merged and low <= merged[-1][1] + 1:
                if high > merged[-1][1]:
                    merged[-1] = (merged[-1][0], high)
            else:
                merged.append((low, high))
        return CharSet(tuple(merged))

    @staticmethod
    def chars(text: str) -> CharSet:
        return CharSet.of((ord(c), ord(c)) for c in text)

    def union(self, other: CharSet) -> CharSet:
        return CharSet.of(self.ranges + other.ranges)

    def complement(self) -> CharSet:
        out: list[tuple[int, int]] = []
        nxt = 0
        for low, high in self.ranges:
            if low > nxt:
                out.append((nxt, low - 1))
            nxt = high + 1
        if nxt <= MAX_CODE_POINT:
            out.append((nxt, MAX_CODE_POINT))
        return CharSet(tuple(out))

    def __contains__(self, code: int) -> bool:
        at = bisect_right(self.ranges, (code, MAX_CODE_POINT + 1)) - 1
        return at >= 0 and self.ranges[at][0] <= code <= self.ranges[at][1]

    def __bool__(self) -> bool:
        return bool(self.ranges)

    def size(self) -> int:
        return sum(high - low + 1 for low, high in self.ranges)

    def readable(self) -> Iterator[str]:
        """The members, most readable first: a-z, 0-9, A-Z, '-', '_', '.', ' ', other printable
        ASCII, then the rest by code point (so a generated test shows plain text where it can)."""
        for ch in PREFERRED:
            if ord(ch) in self:
                yield ch
        for low, high in self.ranges:
            for code in range(low, high + 1):
                if code not in _PREFERRED_CODES:
                    yield chr(code)


DIGITS = CharSet.of([(0x30, 0x39)])
WORD = CharSet.of([(0x30, 0x39), (0x41, 0x5A), (0x5F, 0x5F), (0x61, 0x7A)])
SPACE = CharSet.chars(WHITESPACE)
ANY = CharSet(((0, MAX_CODE_POINT),))
DOT = CharSet.chars(LINE_TERMINATORS).complement()


def partition(sets: Iterable[CharSet]) -> list[CharSet]:
    """The coarsest split of all code points into atoms that each set is a union of.

    Two code points in one atom are interchangeable for every set given, so the automaton
    needs one transition per atom, not per character.
    """
    distinct = sorted(set(sets), key=lambda s: s.ranges)
    cuts = {0, MAX_CODE_POINT + 1}
    for charset in distinct:
        for low, high in charset.ranges:
            cuts.add(low)
            cuts.add(high + 1)
    points = sorted(cuts)
    groups: dict[tuple[bool, ...], list[tuple[int, int]]] = {}
    for low, nxt in pairwise(points):
        signature = tuple(low in charset for charset in distinct)
        groups.setdefault(signature, []).append((low, nxt - 1))
    atoms = [CharSet.of(pairs) for pairs in groups.values()]
    return sorted(atoms, key=_atom_order)


def _atom_order(atom: CharSet) -> tuple[int, int]:
    first = next(atom.readable())
    return (PREFERRED.index(first) if first in PREFERRED else len(PREFERRED), ord(first))
