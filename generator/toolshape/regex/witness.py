"""Strings a set of patterns match (and near misses they do not), for generated tests and diffs.

The search runs over the product of the patterns' automata, determinised on the fly: a state is
the set of automaton states of each pattern plus what the assertions need (at the start? was the
last character a word character?). Characters are grouped into atoms (``charset.partition``): all
characters of an atom lead to the same state, so a dead end is recognised once per atom.

First the whole reachable product is built, and for each state the shortest and longest way to
acceptance (the longest is unbounded when a cycle lies on the way). Then for each length from
max(min_length, shortest) to min(max_length, longest) a depth-first search yields strings in
readable order (``CharSet.readable``), skipping successors that cannot end in acceptance at the
right length and (state, remaining length) pairs already known to lead nowhere. Every candidate is
confirmed before it is returned by toolshape's own matcher (``matcher.search``, never ``re``: a
backtracking match of ``^(?:(?:a|a){7}){4}$`` would not end), whose steps are charged to the search.

An unanchored pattern's automaton holds a state for each start still in progress, so a long
counted repeat (``b{1000}``) makes large states; when the full search runs out of steps, a second
one looks only for matches at position 0, which needs a small automaton (its answers are answers;
only completeness is then not claimed). Large states also cost steps in proportion.

Completeness: the automaton accepts every string the patterns accept (approximations only widen
it), and the search visits every string it accepts of the lengths it covers; when the longest way
is bounded, all lengths are covered, so running out of lengths means nothing else exists.

One step is one (state, atom) successor examined, one candidate character placed, one candidate
string tried, or one step of the matcher confirming it. DEFAULT_STEPS is 50 000: measured on CPython 3.11, a search that spends all of
it (an unsatisfiable lookahead such as ``(?=a)b``, which the automaton cannot see through) takes
about 1 s; ``strings`` plus ``near_misses`` with ``count=3`` for each of the example contracts'
31 patterns take about 0.3 s together.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache

from .automaton import Nfa, TooLarge, build, closure
from .charset import PREFERRED, WORD, CharSet, partition
from .matcher import OutOfSteps, Steps, compiled
from .matcher import search as matcher_search
from .syntax import Assert, Look, Pattern, Seq, nodes, parse

DEFAULT_STEPS = 50_000
#: Where the automaton only approximates (lookarounds, backreferences), the characters of an atom
#: tried at each position: the confirmation may refuse any of them, and an atom can be huge.
INEXACT_CHARACTERS = 3


@dataclass(frozen=True)
class Search:
    """The answer of a search: ``found`` in order (shortest, then most readable first); ``complete``
    is True when the search finished within its budget, so fewer than asked means no more exist."""

    found: tuple[str, ...]
    complete: bool


class _OutOfSteps(Exception):
    pass


Confirm = Callable[[str, list[int]], bool]


def _matches(pattern: str, text: str, budget: list[int]) -> bool:
    """``matcher.search``, its steps taken from ``budget`` (``_OutOfSteps`` when they run out)."""
    steps = Steps(max(budget[0], 0))
    try:
        return matcher_search(pattern, text, steps)
    except OutOfSteps:
        raise _OutOfSteps() from None
    finally:
        budget[0] -= steps.used


@lru_cache(maxsize=256)
def _automata(pattern: str, at_any_start: bool = True) -> tuple[list[Nfa], list[Nfa]]:
    """Automata whose product is the pattern: ``^(?=X)(?!Z)Y`` is "^X and ^Y and not ^Z", which
    makes the common leading lookaheads (password rules, reserved words) exact."""
    parsed = parse(pattern)
    items = list(parsed.root.items) if isinstance(parsed.root, Seq) else [parsed.root]
    if not items or items[0] != Assert("start"):
        return [build(parsed, at_any_start=at_any_start)], []
    positive: list[Nfa] = []
    negative: list[Nfa] = []
    rest = items[1:]
    inexact = False
    while rest and isinstance(rest[0], Look) and rest[0].ahead:
        look = rest.pop(0)
        assert isinstance(look, Look)
        part = build(Pattern(Seq((Assert("start"), look.body)), parsed.groups), at_any_start=False)
        if not look.negative:
            positive.append(part)
        elif part.exact:
            negative.append(part)
        else:
            inexact = True  # excluding an over-approximation could exclude too much: confirmation checks it
    main = build(Pattern(Seq((Assert("start"), *rest)), parsed.groups), at_any_start=False)
    main.exact = main.exact and not inexact
    return [main, *positive], negative


State = tuple[bool, bool, tuple[frozenset[int], ...]]


class _Product:
    """The on-the-fly determinised product of several automata over a shared alphabet of atoms."""

    def __init__(
        self, positive: list[Nfa], negative: list[Nfa], budget: list[int], all_excluded: bool
    ) -> None:
        self.nfas = positive + negative
        self.positive = len(positive)
        words = any(nfa.uses_words for nfa in self.nfas)
        sets = [s for nfa in self.nfas for s in nfa.sets] + ([WORD] if words else [])
        self.atoms: list[CharSet] = partition(sets)
        self.atom_word = [atom.ranges[0][0] in WORD for atom in self.atoms]
        self.member = [
            [[atom.ranges[0][0] in s for s in nfa.sets] for nfa in self.nfas] for atom in self.atoms
        ]
        self.budget = budget
        #: Exact: every string the product accepts is an answer, so one character per atom speaks for all.
        self.exact = all_excluded and all(nfa.exact for nfa in self.nfas)
        #: Set when an inexact search tried only some characters of an atom: it can no longer be complete.
        self.truncated = False
        self.successors: dict[State, list[State]] = {}
        self.accepting: dict[State, bool] = {}
        self.start: State = (True, False, tuple(frozenset([nfa.start]) for nfa in self.nfas))
        self.shortest: dict[State, int] = {}
        self.longest: dict[State, int | None] = {}
        self._targets: dict[tuple[int, int], list[tuple[int, ...]]] = {}
        self._closures: dict[
            tuple[int, frozenset[int], bool, bool, bool, bool], frozenset[int]
        ] = {}

    def spend(self, amount: int = 1) -> None:
        self.budget[0] -= amount
        if self.budget[0] < 0:
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
            for n, kernel in enumerate(kernels):
                targets = self.targets(n, a)
                reach = self.closure(n, kernel, at_start, False, prev_word, atom_word)
                moved.append(frozenset().union(*(targets[s] for s in reach)))
            out.append((False, atom_word, tuple(moved)))
            self.spend(
                sum(len(kernel) for kernel in moved) // 16
            )  # large state sets cost more time
        self.successors[state] = out
        return out

    def targets(self, n: int, a: int) -> list[tuple[int, ...]]:
        """For automaton ``n`` and atom ``a``: the states each state moves to on that atom."""
        key = (n, a)
        known = self._targets.get(key)
        if known is None:
            nfa, member = self.nfas[n], self.member[a][n]
            known = [tuple(t for set_id, t in edges if member[set_id]) for edges in nfa.chars]
            self._targets[key] = known
        return known

    def closure(
        self,
        n: int,
        kernel: frozenset[int],
        at_start: bool,
        at_end: bool,
        prev_word: bool,
        next_word: bool,
    ) -> frozenset[int]:
        """``automaton.closure``, remembered (many states and atoms share one)."""
        nfa = self.nfas[n]
        if not nfa.uses_words:
            prev_word = next_word = False
        key = (n, kernel, at_start, at_end, prev_word, next_word)
        known = self._closures.get(key)
        if known is None:
            known = closure(nfa, kernel, at_start, at_end, prev_word, next_word)
            self._closures[key] = known
        return known

    def accepts(self, state: State) -> bool:
        known = self.accepting.get(state)
        if known is None:
            at_start, prev_word, kernels = state
            verdicts = [
                self.nfas[n].final in self.closure(n, kernel, at_start, True, prev_word, False)
                for n, kernel in enumerate(kernels)
            ]
            known = all(verdicts[: self.positive]) and not any(verdicts[self.positive :])
            self.accepting[state] = known
        return known

    def fits(self, state: State, remaining: int) -> bool:
        """Whether some path of exactly ``remaining`` characters might lead from ``state`` to acceptance
        (within the shortest and longest such paths; the dead set catches the gaps in between)."""
        if remaining == 0:
            return self.accepts(state)
        shortest = self.shortest.get(state)
        if shortest is None or shortest > remaining:
            return False
        longest = self.longest[state]
        return longest is None or remaining <= longest

    def distances(self) -> None:
        """For every reachable state, the fewest and most characters that lead from it to acceptance
        (``shortest``, ``longest``; None for unbounded); states that never accept get neither."""
        order = [self.start]
        seen = {self.start}
        for state in order:  # grows while it is read: breadth-first
            for nxt in self.successor_list(state):
                if nxt not in seen:
                    seen.add(nxt)
                    order.append(nxt)
        back: dict[State, list[State]] = {state: [] for state in order}
        for state in order:
            for nxt in set(self.successor_list(state)):
                back[nxt].append(state)
        self.shortest = {state: 0 for state in order if self.accepts(state)}
        frontier = sorted(self.shortest, key=order.index)
        while frontier:
            following: list[State] = []
            for state in frontier:
                for prev in back[state]:
                    if prev not in self.shortest:
                        self.shortest[prev] = self.shortest[state] + 1
                        following.append(prev)
            frontier = following
        self.longest = _longest(order, self.shortest, self.successor_list, self.accepts)


def _longest(
    order: list[State],
    live: dict[State, int],
    successors: Callable[[State], list[State]],
    accepts: Callable[[State], bool],
) -> dict[State, int | None]:
    """The longest path to acceptance from each live state, None when a cycle makes it unbounded.

    Kahn's algorithm from the end: a state is settled once all its live successors are; states on
    or before a cycle are never settled and stay unbounded."""
    edges = {
        state: [n for n in dict.fromkeys(successors(state)) if n in live]
        for state in order
        if state in live
    }
    pending = {state: len(targets) for state, targets in edges.items()}
    back: dict[State, list[State]] = {state: [] for state in edges}
    for state, targets in edges.items():
        for nxt in targets:
            back[nxt].append(state)
    ready = [state for state in edges if pending[state] == 0]
    settled: dict[State, int] = {}
    while ready:
        state = ready.pop()
        settled[state] = max(
            [settled[n] + 1 for n in edges[state]] + ([0] if accepts(state) else [])
        )
        for prev in back[state]:
            pending[prev] -= 1
            if pending[prev] == 0:
                ready.append(prev)
    return {state: settled.get(state) for state in edges}


def _of_length(product: _Product, length: int, dead: set[tuple[State, int]]) -> Iterator[str]:
    """Automaton-accepted strings of exactly ``length`` characters, most readable first.

    Depth-first with an explicit stack (lengths may exceed Python's recursion limit); a frame that
    produced nothing marks its (state, remaining) dead for every later length and candidate.
    """
    if length == 0:
        if product.accepts(product.start):
            yield ""
        return
    frames: list[list[object]] = [
        [product.start, length, _choices(product, product.start, length, dead), False]
    ]
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
    for atom, nxt in zip(product.atoms, product.successor_list(state), strict=False):
        if not product.fits(nxt, remaining - 1) or (nxt, remaining - 1) in dead:
            continue
        for tried, char in enumerate(atom.readable()):
            if remaining > 1 and (nxt, remaining - 1) in dead:
                break  # the first characters of this atom found that the rest leads nowhere
            if not product.exact and tried == INEXACT_CHARACTERS:
                product.truncated = (
                    True  # the confirmation decides, and an atom may hold a million characters
                )
                break
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
    for pattern in [*patterns, *excluded]:
        compiled(pattern)  # PatternError for one toolshape refuses
    if count <= 0 or (max_length is not None and max_length < min_length):
        return Search((), True)
    return _strings(tuple(patterns), tuple(excluded), min_length, max_length, count, steps)


@lru_cache(maxsize=2048)
def _strings(
    patterns: tuple[str, ...],
    excluded: tuple[str, ...],
    min_length: int,
    max_length: int | None,
    count: int,
    steps: int,
) -> Search:
    """``strings``, remembered: its answer depends on its arguments alone (the budget is counted in
    steps, never in time), and case derivation asks the same question for each edit of a contract."""

    def confirmed(text: str, budget: list[int]) -> bool:
        return all(_matches(p, text, budget) for p in patterns) and not any(
            _matches(p, text, budget) for p in excluded
        )

    full_budget = [steps - steps // 4]
    found, complete = _union(
        patterns, excluded, True, confirmed, min_length, max_length, count, full_budget
    )
    if (
        len(found) < count
        and not complete
        and patterns
        and all(_starts_anywhere(p) for p in patterns)
    ):
        # Out of steps: an unanchored pattern's automaton holds a state per possible start. Matches at
        # position 0 alone need a much smaller one; its answers are answers too.
        rest = [steps // 4 + max(full_budget[0], 0)]
        quick, _ = _union(patterns, excluded, False, confirmed, min_length, max_length, count, rest)
        found = tuple(sorted(set(found) | set(quick), key=readable_key)[:count])
    return Search(found, complete or len(found) == count)


@lru_cache(maxsize=256)
def _starts_anywhere(pattern: str) -> bool:
    """Whether a match of ``pattern`` can be moved to position 0 without changing what it needs: not
    when it looks behind or tests a word boundary, whose verdict depends on the text before it."""
    return not any(
        (isinstance(node, Look) and not node.ahead)
        or (isinstance(node, Assert) and node.kind in ("word", "nonword"))
        for node in nodes(parse(pattern).root)
    )


def _union(
    patterns: Sequence[str],
    excluded: Sequence[str],
    at_any_start: bool,
    confirmed: Confirm,
    min_length: int,
    max_length: int | None,
    count: int,
    budget: list[int],
) -> tuple[tuple[str, ...], bool]:
    """The first ``count`` answers of the union of the products (``_branches``), and whether the
    search saw everything."""
    try:
        branches, all_excluded = _branches(patterns, excluded, at_any_start)
    except TooLarge:
        return (), False
    found: set[str] = set()
    complete = True
    for more, fewer in branches:
        try:
            product = _Product(more, fewer, budget, all_excluded)
        except TooLarge:
            complete = False
            continue
        branch_found, branch_complete = _search(product, confirmed, min_length, max_length, count)
        found.update(branch_found)
        complete = complete and branch_complete
    return tuple(sorted(found, key=readable_key)[:count]), complete


#: At most this many products are searched for one call (each excluded ``^(?!X)Y`` doubles them).
MAX_BRANCHES = 16


def _branches(
    patterns: Sequence[str], excluded: Sequence[str], at_any_start: bool = True
) -> tuple[list[tuple[list[Nfa], list[Nfa]]], bool]:
    """The (positive, negative) automata of products whose union is the answer, and whether every
    excluded pattern is in them (else the confirmation alone keeps it out).

    Excluding ``^(?=W)(?!X)Y`` means "W fails, or Y fails, or X holds": one product per case, so the
    search stays exact; an excluded pattern with an approximated part is left to the confirmation.
    """
    base_more: list[Nfa] = []
    base_fewer: list[Nfa] = []
    for pattern in patterns:
        more, fewer = _automata(pattern, at_any_start)
        base_more += more
        base_fewer += fewer
    branches = [(base_more, base_fewer)]
    complete = True
    for pattern in excluded:
        more, fewer = _automata(pattern)
        cases: list[tuple[list[Nfa], list[Nfa]]] = [([], [nfa]) for nfa in more] + [
            ([nfa], []) for nfa in fewer
        ]
        if not all(nfa.exact for nfa in more + fewer) or len(branches) * len(cases) > MAX_BRANCHES:
            complete = False
            continue
        branches = [(m + cm, f + cf) for m, f in branches for cm, cf in cases]
    return branches, complete


def readable_key(text: str) -> tuple[int, tuple[int, ...]]:
    """Shortest first, then most readable first (the order of ``charset.PREFERRED``)."""
    return len(text), tuple(_RANK.get(c, len(_RANK) + ord(c)) for c in text)


_RANK = {c: i for i, c in enumerate(PREFERRED)}


def _search(
    product: _Product,
    confirmed: Confirm,
    min_length: int,
    max_length: int | None,
    count: int,
) -> tuple[list[str], bool]:
    """Up to ``count`` confirmed strings of the product, and whether the search saw them all."""
    found: list[str] = []
    try:
        product.distances()
        if product.start not in product.shortest:
            return found, True  # nothing is ever accepted
        longest = product.longest[product.start]
        length = max(min_length, product.shortest[product.start])
        dead: set[tuple[State, int]] = set()
        while (max_length is None or length <= max_length) and (
            longest is None or length <= longest
        ):
            for text in _of_length(product, length, dead):
                product.spend()
                if confirmed(text, product.budget):
                    found.append(text)
                    if len(found) == count:
                        return found, True
            length += 1
    except _OutOfSteps:
        return found, False
    return found, not product.truncated


#: Characters tried when a near miss swaps or adds one: readable ones, then a line break and a non-ASCII letter.
PROBES = "a0A-_. !\n\u00e9"


def near_misses(
    pattern: str,
    *,
    min_length: int = 0,
    max_length: int | None = None,
    count: int = 1,
    steps: int = DEFAULT_STEPS,
) -> Search:
    """Up to ``count`` strings within the length bounds that ``pattern`` does not match, each one edit
    (a character dropped, doubled, swapped or added) away from a string it matches, so a generated test
    shows the pattern check at work. Falls back to the shortest non-matching strings when no edit of a
    match misses (e.g. a pattern that matches a prefix of anything)."""
    compiled(pattern)  # PatternError for one toolshape refuses
    if count <= 0 or (max_length is not None and max_length < min_length):
        return Search((), True)
    return _near_misses(pattern, min_length, max_length, count, steps)


@lru_cache(maxsize=2048)
def _near_misses(
    pattern: str, min_length: int, max_length: int | None, count: int, steps: int
) -> Search:
    """``near_misses``, remembered as ``_strings`` is: its answer depends on its arguments alone,
    and a contract's properties (a thousand contracts' too) share a few patterns and bounds."""
    upper = None if max_length is None else max_length + 1
    seeds = strings(
        [pattern], min_length=max(0, min_length - 1), max_length=upper, count=3, steps=steps // 2
    )
    budget = steps - steps // 2
    found = _forbidden(pattern, min_length, max_length, count, budget // 2)
    budget -= budget // 2
    if len(found) == count:
        return Search(tuple(found), True)
    seen: set[str] = set(found)
    for seed in seeds.found:
        for text in sorted(_edits(seed), key=readable_key):
            budget -= 1
            if budget < 0:
                return Search(tuple(found), False)
            if (
                text in seen
                or len(text) < min_length
                or (max_length is not None and len(text) > max_length)
            ):
                continue
            seen.add(text)
            left = [budget]
            try:
                missed = not _matches(pattern, text, left)
            except _OutOfSteps:
                return Search(tuple(found), False)
            budget = left[0]
            if missed:
                found.append(text)
                if len(found) == count:
                    return Search(tuple(found), True)
    rest = strings(
        [],
        excluded=[pattern],
        min_length=min_length,
        max_length=max_length,
        count=count,
        steps=budget,
    )
    merged = found + [text for text in rest.found if text not in seen][: count - len(found)]
    return Search(tuple(merged), rest.complete or len(merged) == count)


def _forbidden(
    pattern: str,
    min_length: int,
    max_length: int | None,
    count: int,
    steps: int,
) -> list[str]:
    """Strings the rest of ``^(?!X)Y`` accepts but its lookahead refuses (X holds): the reserved
    word itself, which shows the lookahead at work better than any edit."""
    more, fewer = _automata(pattern)
    out: list[str] = []
    budget = [steps]
    for forbidden in fewer:
        try:
            product = _Product([*more, forbidden], [], budget, True)
        except TooLarge:
            continue
        found, _ = _search(
            product,
            lambda t, steps: not _matches(pattern, t, steps),
            min_length,
            max_length,
            count - len(out),
        )
        out += [text for text in found if text not in out]
        if len(out) >= count:
            break
    return out[:count]


#: A long seed is edited only at this many positions at each end (its edits are otherwise alike).
EDGE_POSITIONS = 12


def _edits(seed: str) -> set[str]:
    """Strings one edit away from ``seed``: one character dropped, doubled, replaced or inserted."""
    out: set[str] = set()
    positions = list(range(len(seed) + 1))
    if len(seed) > 2 * EDGE_POSITIONS:
        positions = positions[:EDGE_POSITIONS] + positions[-EDGE_POSITIONS:]
    for i in positions:
        if i < len(seed):
            out.add(seed[:i] + seed[i + 1 :])
            out.add(seed[:i] + seed[i] + seed[i:])
        for probe in PROBES:
            out.add(seed[:i] + probe + seed[i:])
            if i < len(seed):
                out.add(seed[:i] + probe + seed[i + 1 :])
    out.discard(seed)
    return out
