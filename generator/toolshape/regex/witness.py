"""Strings a set of patterns match (and near misses they do not), for generated tests and diffs.

The search runs over the product of the patterns' automata, determinised on the fly: a state is
the set of automaton states of each pattern plus what the assertions need (at the start? was the
last character a word character?). Characters are grouped into atoms (``charset.partition``): all
characters of an atom lead to the same state, so a dead end is recognised once per atom.

For each length from ``min_length`` up, a depth-first search yields strings in readable order
(``CharSet.readable``), pruning (state, remaining length) pairs already known to lead nowhere.
Every candidate is confirmed with the compiled translation before it is returned.

Completeness: with ``R`` reachable product states, the automaton's language is infinite exactly
when it holds a string of length in [R, 2R); if it holds none, every string is shorter than R, so
searching lengths below max(min_length, 2R) has seen them all.

One step is one (state, atom) successor examined, or one candidate string built; DEFAULT_STEPS
(200 000) takes well under a second for the patterns of real contracts.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .automaton import Nfa, TooLarge, build, closure
from .charset import WORD, CharSet, partition
from .syntax import parse
from .translate import translate

DEFAULT_STEPS = 200_000


@dataclass(frozen=True)
class Search:
    """The answer of a search: ``found`` in order (shortest, then most readable first); ``complete``
    is True when the search finished within its budget, so fewer than asked means no more exist."""

    found: tuple[str, ...]
    complete: bool


class _OutOfSteps(Exception):
    pass


@lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(translate(pattern))


@lru_cache(maxsize=256)
def _automaton(pattern: str) -> Nfa:
    return build(parse(pattern))


State = tuple[bool, bool, tuple[frozenset[int], ...]]


class _Product:
    """The on-the-fly determinised product of several automata over a shared alphabet of atoms."""

    def __init__(self, positive: list[Nfa], negative: list[Nfa], steps: int) -> None:
        self.nfas = positive + negative
        self.positive = len(positive)
        words = any(nfa.uses_words for nfa in self.nfas)
        sets = [s for nfa in self.nfas for s in nfa.sets] + ([WORD] if words else [])
        self.atoms: list[CharSet] = partition(sets)
        self.atom_word = [atom.ranges[0][0] in WORD for atom in self.atoms]
        self.member = [[[atom.ranges[0][0] in s for s in nfa.sets] for nfa in self.nfas] for atom in self.atoms]
        self.steps = steps
        self.successors: dict[State, list[State]] = {}
        self.accepting: dict[State, bool] = {}
        self.start: State = (True, False, tuple(frozenset([nfa.start]) for nfa in self.nfas))

    def spend(self, amount: int = 1) -> None:
        self.steps -= amount
        if self.steps < 0:
            raise _OutOfSteps()

    def successor_list(self, state: State) -> list[State]:
        """The state after each atom, in atom order."""
        known = self.successors.get(state)
        if known is not None:
            return known
        at_start, prev_word, kernels = state
        out: list[State] = []
        for a, atom_word in enumerate(self.atom_word):
            self.spend()
            moved = []
            for n, (nfa, kernel) in enumerate(zip(self.nfas, kernels)):
                reach = closure(nfa, kernel, at_start, False, prev_word, atom_word)
                member = self.member[a][n]
                moved.append(frozenset(t for s in reach for set_id, t in nfa.chars[s] if member[set_id]))
            out.append((False, atom_word, tuple(moved)))
        self.successors[state] = out
        return out

    def accepts(self, state: State) -> bool:
        known = self.accepting.get(state)
        if known is None:
            at_start, prev_word, kernels = state
            verdicts = [
                nfa.final in closure(nfa, kernel, at_start, True, prev_word, False)
                for nfa, kernel in zip(self.nfas, kernels)
            ]
            known = all(verdicts[: self.positive]) and not any(verdicts[self.positive :])
            self.accepting[state] = known
        return known

    def reachable(self) -> int:
        """How many states the product reaches (R in the module docstring)."""
        seen = {self.start}
        todo = [self.start]
        while todo:
            for nxt in self.successor_list(todo.pop()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return len(seen)


def _of_length(product: _Product, length: int, dead: set[tuple[State, int]]) -> Iterator[str]:
    """Automaton-accepted strings of exactly ``length`` characters, most readable first.

    Depth-first with an explicit stack (lengths may exceed Python's recursion limit); a frame that
    produced nothing marks its (state, remaining) dead for every later length and candidate.
    """
    if length == 0:
        if product.accepts(product.start):
            yield ""
        return
    frames: list[list[object]] = [[product.start, length, _choices(product, product.start, length, dead), False]]
    prefix: list[str] = []
    while frames:
        frame = frames[-1]
        state, remaining, choices, _ = frame
        pick = next(choices, None)  # type: ignore[call-overload]
        if pick is None:
            frames.pop()
            if not frame[3]:
                dead.add((state, remaining))  # type: ignore[arg-type]
            elif frames:
                frames[-1][3] = True
            if prefix:
                prefix.pop()
            continue
        char, nxt = pick
        product.spend()
        if remaining == 1:
            frame[3] = True
            yield "".join(prefix) + char
            continue
        prefix.append(char)
        frames.append([nxt, remaining - 1, _choices(product, nxt, remaining - 1, dead), False])  # type: ignore[operator]


def _choices(
    product: _Product, state: State, remaining: int, dead: set[tuple[State, int]]
) -> Iterator[tuple[str, State]]:
    """(character, next state) pairs worth trying from ``state`` with ``remaining`` characters to go."""
    for atom, nxt in zip(product.atoms, product.successor_list(state)):
        if remaining == 1:
            if not product.accepts(nxt):
                continue
        elif (nxt, remaining - 1) in dead:
            continue
        for char in atom.readable():
            if remaining > 1 and (nxt, remaining - 1) in dead:
                break  # the first characters of this atom found that the rest leads nowhere
            yield char, nxt


def strings(
    patterns: Sequence[str],
    *,
    excluded: Sequence[str] = (),
    min_length: int = 0,
    max_length: int | None = None,
    count: int = 1,
    steps: int = DEFAULT_STEPS,
) -> Search:
    """Up to ``count`` strings, ``min_length <= len <= max_length`` code points, that every pattern in
    ``patterns`` matches and none in ``excluded`` does (JSON Schema's unanchored ``re.search``).
    Raises PatternError for a pattern that is not ECMA-262."""
    positive = [_compiled(p) for p in patterns]
    negative = [_compiled(p) for p in excluded]
    if count <= 0 or (max_length is not None and max_length < min_length):
        return Search((), True)
    try:
        exact_excluded = [p for p in excluded if _automaton(p).exact]
        product = _Product([_automaton(p) for p in patterns], [_automaton(p) for p in exact_excluded], steps)
    except TooLarge:
        return Search((), False)
    found: list[str] = []

    def confirmed(text: str) -> bool:
        product.spend()
        return all(r.search(text) for r in positive) and not any(r.search(text) for r in negative)

    try:
        reach = product.reachable()
        dead: set[tuple[State, int]] = set()
        long_seen = False
        length = min_length
        while max_length is None or length <= max_length:
            if length >= max(min_length, 2 * reach) and not long_seen:
                break  # finite, and every string is shorter than reach: all seen
            for text in _of_length(product, length, dead):
                long_seen = long_seen or length >= reach
                if confirmed(text):
                    found.append(text)
                    if len(found) == count:
                        return Search(tuple(found), True)
            length += 1
    except _OutOfSteps:
        return Search(tuple(found), False)
    return Search(tuple(found), True)
