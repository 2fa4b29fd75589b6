"""The backtracking lint: which patterns can make a backtracking matcher (Python's ``re``) run for long.

Following Weideman, van der Merwe, Berglund and Watson (2016), "Analyzing matching time behavior of
backtracking regular expression matchers by using ambiguity of NFA": a backtracking matcher that
fails on a string explores every path of the pattern's automaton, so its worst case follows the
automaton's degree of ambiguity.

- The automaton is epsilon-free with the matcher's structure: Glushkov's position automaton, one
  state per character occurrence, counted repeats unrolled as the matcher runs them (``a{0,3}`` as
  ``(a(a(a)?)?)?``, not ``a?a?a?``), counts above 8 read as a loop (``(a|a){50}`` has 2^50 ways
  to match, which only a loop makes visible). Zero-width parts (anchors, lookarounds, backreferences) are
  read as always passing, which only adds paths; lookaround bodies are analysed on their own (as
  tried at every position, except lookaheads right after a leading ``^``, which run once).
- Search semantics: a pattern that does not begin with ``^`` is tried at every start position,
  modelled by a state that loops on any character before the pattern (one more degree).
- Success ends the search: a state after which the rest of the pattern can match nothing without
  any assertion accepts unconditionally, so at most one explored path runs through it; the
  ambiguity that costs time lies on loops of the other states, and only those are examined.
- EDA (exponential): a state with two distinct loops on the same word, i.e. a strongly connected
  component of the pair automaton holding both a pair (p, p) and a pair (p, q) with p != q.
- IDA of degree k (polynomial, about n^(k+1) steps on n characters): a chain of k+1 loops where
  each next loop can be reached on a word that both loops can also read (p -> p, p -> q and
  q -> q on one word: a path from (p, p, q) to (p, q, q) in the triple automaton).

Budget: a degree-k pattern is accepted when ``maxLength ** (k + 1) <= WORK_BUDGET``. Measured on
CPython 3.11 on a loaded 2-core machine, the slowest degree-1 cases (``^\\d+\\.?\\d*$`` on digits
and a letter, ``[a-z]+$`` unanchored) cost 6 to 13 ns per unit, so the budget of 5 million units
keeps one validator call under about 0.06 s: maxLength 2236 for degree 1, 170 for degree 2, 47 for
degree 3. Exponential ambiguity is refused at any length.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache

from ..schema.graphs import strongly_connected
from .charset import ANY, CharSet, partition
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
    as_written,
    parse,
)

#: The largest maxLength ** (degree + 1) accepted (see the module docstring for the measurement).
WORK_BUDGET = 5_000_000
#: Counted repeats are unrolled up to this count; above it they are read as a loop (see _Builder.repeat).
UNROLL = 8
#: Above this many automaton states the pattern is refused as too complex to analyse.
MAX_POSITIONS = 5000
#: Above this many states visited, the analysis gives up and refuses the pattern as too complex.
MAX_WORK = 3_000_000


class _TooComplex(Exception):
    pass


@dataclass(frozen=True)
class _Part:
    """What Glushkov's construction knows about a sub-pattern: its first and last positions, whether it
    can match empty, and the same two facts when no assertion may be crossed ("free")."""

    first: frozenset[int]
    last: frozenset[int]
    nullable: bool
    free_last: frozenset[int]
    free_nullable: bool


_EMPTY = _Part(frozenset(), frozenset(), True, frozenset(), True)
_ZERO_WIDTH = _Part(frozenset(), frozenset(), True, frozenset(), False)


@dataclass
class _GlushkovBuilder:
    """Glushkov's position automaton; state 0 is the initial state, positions are 1, 2, ..."""

    sets: list[CharSet] = field(default_factory=lambda: [CharSet(())])
    follow: list[dict[int, int]] = field(default_factory=lambda: [{}])
    looks: list[Node] = field(default_factory=list)
    loop_spans: dict[tuple[int, int], set[tuple[int, int]]] = field(default_factory=dict)
    edges: int = 0

    def position(self, chars: CharSet) -> int:
        if len(self.sets) > MAX_POSITIONS:
            raise _TooComplex()
        self.sets.append(chars)
        self.follow.append({})
        return len(self.sets) - 1

    def link(self, sources: frozenset[int], targets: frozenset[int]) -> None:
        """One more edge from each source to each target: a second route between the same two
        states (the inner and outer loop of ``(a*)*``) is a second path the matcher tries.
        Each edge is a counted unit of work (``MAX_WORK`` in all, as for the analysis)."""
        self.edges += len(sources) * len(targets)
        if self.edges > MAX_WORK:
            raise _TooComplex()
        for x in sources:
            edges = self.follow[x]
            for y in targets:
                edges[y] = edges.get(y, 0) + 1

    def seq(self, a: _Part, b: _Part) -> _Part:
        self.link(a.last, b.first)
        return _Part(
            a.first | (b.first if a.nullable else frozenset()),
            b.last | (a.last if b.nullable else frozenset()),
            a.nullable and b.nullable,
            b.free_last | (a.free_last if b.free_nullable else frozenset()),
            a.free_nullable and b.free_nullable,
        )

    def star(self, a: _Part, span: tuple[int, int]) -> _Part:
        """``a`` repeated; each edge back to the start remembers the repeat's span, to name loops."""
        self.link(a.last, a.first)
        for x in a.last:
            for y in a.first:
                self.loop_spans.setdefault((x, y), set()).add(span)
        return _Part(a.first, a.last, True, a.free_last, True)

    @staticmethod
    def optional(a: _Part) -> _Part:
        return _Part(a.first, a.last, True, a.free_last, True)

    def part(self, node: Node) -> _Part:
        if isinstance(node, Char):
            p = frozenset([self.position(node.chars)])
            return _Part(p, p, False, p, False)
        if isinstance(node, Empty):
            return _EMPTY
        if isinstance(node, (Assert, Backref)):
            return _ZERO_WIDTH
        if isinstance(node, Look):
            self.looks.append(node.body)
            return _ZERO_WIDTH
        if isinstance(node, Group):
            return self.part(node.body)
        if isinstance(node, Seq):
            result = _EMPTY
            for item in node.items:
                result = self.seq(result, self.part(item))
            return result
        if isinstance(node, Alt):
            parts = [self.part(option) for option in node.options]
            return _Part(
                frozenset().union(*(p.first for p in parts)),
                frozenset().union(*(p.last for p in parts)),
                any(p.nullable for p in parts),
                frozenset().union(*(p.free_last for p in parts)),
                any(p.free_nullable for p in parts),
            )
        assert isinstance(node, Repeat)
        return self.repeat(node)

    def repeat(self, node: Repeat) -> _Part:
        """``min`` copies, then a loop or ``max - min`` nested optional copies, as the matcher counts.

        Counts above UNROLL become a loop (``a{3,100}`` is read as ``a{3,}``, ``(a|a){50}`` as
        ``(a|a){8,}``): a longer bounded repeat multiplies paths as a loop does, and a loop is what
        the analysis can see; it only adds paths, so a pattern it passes is safe."""
        low = min(node.min, UNROLL)
        high = node.max if node.max is not None and node.max <= UNROLL else None
        result = _EMPTY
        for _ in range(low):
            result = self.seq(result, self.part(node.body))
        if high is None:
            return self.seq(result, self.star(self.part(node.body), node.span))
        return self.seq(result, self.nested(node.body, high - low))

    def nested(self, body: Node, copies: int) -> _Part:
        """``(b(b(b)?)?)?`` for three copies, built from the innermost out (no recursion per copy)."""
        heads = [self.part(body) for _ in range(copies)]
        result = _EMPTY
        for head in reversed(heads):
            result = self.optional(self.seq(head, result))
        return result


@dataclass
class _Automaton:
    sets: list[CharSet]
    succ: list[list[int]]
    multiple: set[tuple[int, int]]
    final: set[int]
    prefix: int | None
    loop_spans: dict[tuple[int, int], set[tuple[int, int]]]
    masks: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        atoms = partition(self.sets)
        self.masks = [
            sum(1 << i for i, atom in enumerate(atoms) if atom.ranges[0][0] in s) for s in self.sets
        ]


def _automaton(root: Node, anchored: bool) -> tuple[_Automaton, list[Node]]:
    builder = _GlushkovBuilder()
    part = builder.part(root)
    first = set(part.first)
    prefix = None
    if (
        not anchored and not part.free_nullable
    ):  # a pattern that can match empty succeeds at position 0
        prefix = builder.position(ANY)
        builder.follow[prefix] = dict.fromkeys(first | {prefix}, 1)
        first.add(prefix)
    builder.follow[0] = dict.fromkeys(first, 1)
    final = set(part.free_last) | ({0} if part.free_nullable else set())
    succ = [sorted(targets) for targets in builder.follow]
    multiple = {(x, y) for x, edges in enumerate(builder.follow) for y, n in edges.items() if n > 1}
    automaton = _Automaton(builder.sets, succ, multiple, final, prefix, builder.loop_spans)
    return automaton, builder.looks


def _anchored(root: Node) -> bool:
    """True when the pattern starts with ``^``: Python's search then tries only position 0."""
    first = root.items[0] if isinstance(root, Seq) else root
    return first == Assert("start")


def _sccs(nodes: Iterable[int], succ: list[list[int]], allowed: set[int]) -> list[list[int]]:
    """The strongly connected components of the graph restricted to ``allowed``, each sorted,
    successors first (``schema.graphs.strongly_connected``)."""
    components = strongly_connected(nodes, lambda node: [t for t in succ[node] if t in allowed])
    return [sorted(component) for component in components]


@dataclass(frozen=True)
class Ambiguity:
    """The analysis' verdict: ``exponential`` names a loop with two ways around; otherwise ``degree``
    is the polynomial degree and ``chain`` the loops (as pattern spans, None for the search's retry)."""

    exponential: tuple[int, int] | None
    degree: int
    chain: tuple[tuple[int, int] | None, ...]


def analyse(pattern: str) -> Ambiguity:
    """The ambiguity of ``pattern`` (and of its lookaround bodies): raises PatternError if it does not parse."""
    parsed = parse(pattern)
    return _analyse_node(parsed.root, _anchored(parsed.root), _leading_looks(parsed.root))


def _leading_looks(root: Node) -> set[int]:
    """The lookaheads right after a leading ``^`` (``^(?=.*\\d)...``): they run once, at position 0,
    so their bodies are analysed anchored; any other lookaround may run at every position."""
    items = root.items if isinstance(root, Seq) else (root,)
    if not items or items[0] != Assert("start"):
        return set()
    leading: set[int] = set()
    for item in items[1:]:
        if not (isinstance(item, Look) and item.ahead):
            break
        leading.add(id(item.body))
    return leading


def _analyse_node(root: Node, anchored: bool, leading: set[int]) -> Ambiguity:
    automaton, looks = _automaton(root, anchored)
    verdict = _Analysis(automaton).run()
    for body in looks:
        inner = _analyse_node(body, id(body) in leading, set())
        if inner.exponential is not None or inner.degree > verdict.degree:
            verdict = inner
        if verdict.exponential is not None:
            break
    return verdict


class _Analysis:
    def __init__(self, automaton: _Automaton) -> None:
        self.a = automaton
        self.work = 0
        # A position whose set is empty ([], \P{Any}, [^\s\S]) reads no character: no match
        # ever stands on it, so it is no state of the search, and no loop runs through it.
        reachable = {0}
        todo = [0]
        while todo:
            for t in automaton.succ[todo.pop()]:
                if t not in reachable and automaton.sets[t]:
                    reachable.add(t)
                    todo.append(t)
        self.allowed = reachable - automaton.final
        components = _sccs(sorted(self.allowed), automaton.succ, self.allowed)
        self.loops = [c for c in components if len(c) > 1 or c[0] in automaton.succ[c[0]]]

    def spend(self, units: int = 1) -> None:
        """Count ``units`` of work (a state pair or triple visited, a successor examined)."""
        self.work += units
        if self.work > MAX_WORK:
            raise _TooComplex()

    def run(self) -> Ambiguity:
        for loop in self.loops:
            if self.exponential(loop):
                return Ambiguity(self.name(loop), 0, ())
        return self.polynomial()

    def name(self, loop: list[int]) -> tuple[int, int] | None:
        """The widest repeat whose edge back to its start lies on ``loop`` (None for the search's retry)."""
        if self.a.prefix in loop:
            return None
        members = set(loop)
        spans = {
            span
            for x in loop
            for y in self.a.succ[x]
            if y in members
            for span in self.a.loop_spans.get((x, y), ())
        }
        return max(spans, key=lambda span: (span[1] - span[0], -span[0])) if spans else None

    def exponential(self, loop: list[int]) -> bool:
        """Two distinct ways around ``loop`` on one word: a pair SCC with (p, p) and (p, q), p != q.

        Pairs whose states have the same successors in the loop share one node standing for
        their successor pairs (every state that ends an alternative of ``(w1|...|wn)+`` returns to
        the same n starts): built once, so a wide alternation costs the pairs it reaches, not
        those times its width. Every successor pair examined is a counted unit of work."""
        members = set(loop)
        masks = self.a.masks
        # the successors inside the loop of each state, each distinct list numbered once
        lists: dict[tuple[int, ...], int] = {}
        inside: dict[int, tuple[int, ...]] = {}
        list_of: dict[int, int] = {}
        for state in loop:
            targets = tuple(x for x in self.a.succ[state] if x in members)
            self.spend(len(targets) + 1)
            inside[state] = targets
            list_of[state] = lists.setdefault(targets, len(lists))
        nodes: list[tuple[int, int] | None] = []  # a pair, or None for a shared successor node
        ids: dict[tuple[int, int], int] = {}
        shared: dict[tuple[int, int], int] = {}
        succ: list[list[int]] = []

        def pair_node(pair: tuple[int, int]) -> int:
            known = ids.get(pair)
            if known is None:
                known = ids[pair] = len(nodes)
                nodes.append(pair)
                succ.append([])
                todo.append(pair)
            return known

        todo: list[tuple[int, int]] = []
        for p in loop:
            pair_node((p, p))
        while todo:
            a, b = todo.pop()
            self.spend()
            key = (list_of[a], list_of[b])
            via = shared.get(key)
            if via is None:
                via = shared[key] = len(nodes)
                nodes.append(None)
                succ.append([])
                following: list[int] = []
                for x in inside[a]:
                    self.spend(len(inside[b]))
                    mask = masks[x]
                    following.extend(pair_node((x, y)) for y in inside[b] if mask & masks[y])
                succ[via] = following
            succ[ids[(a, b)]].append(via)
        for component in _sccs(range(len(nodes)), succ, set(range(len(nodes)))):
            pairs = [pair for pair in (nodes[i] for i in component) if pair is not None]
            if any(x == y for x, y in pairs) and any(x != y for x, y in pairs):
                return True
            inside_pairs = set(pairs)
            # two parallel edges p -> q inside the loop: two paths that visit the same states
            if any(a == b for a, b in pairs):
                for a in {a for a, _ in pairs}:
                    self.spend(len(self.a.succ[a]))
                    if any(
                        (a, x) in self.a.multiple and (x, x) in inside_pairs for x in self.a.succ[a]
                    ):
                        return True
        return False

    def polynomial(self) -> Ambiguity:
        """The longest chain of loops linked by a shared word (IDA degree), by dynamic programming
        over the loops in reverse topological order (Tarjan lists successors first)."""
        where = {state: i for i, loop in enumerate(self.loops) for state in loop}
        best: list[tuple[int, tuple[int, ...]]] = []
        for i, loop in enumerate(self.loops):
            chain: tuple[int, tuple[int, ...]] = (0, (i,))
            for j in range(i):
                self.spend()
                if best[j][0] + 1 > chain[0] and self.linked(loop, self.loops[j], where):
                    chain = (best[j][0] + 1, (i, *best[j][1]))
            best.append(chain)
        if not best:
            return Ambiguity(None, 0, ())
        degree, members = max(best, key=lambda item: item[0])
        return Ambiguity(None, degree, tuple(self.name(self.loops[m]) for m in members))

    def linked(self, upper: list[int], lower: list[int], where: dict[int, int]) -> bool:
        """Some p in ``upper`` and q in ``lower`` with p -> p, p -> q and q -> q on one word."""
        up, down = set(upper), set(lower)
        masks = self.a.masks
        for p in upper:
            for q in lower:
                start = (p, p, q)
                seen = {start}
                todo = [start]
                while todo:
                    a, b, c = todo.pop()
                    self.spend(1 + len(self.a.succ[a]))
                    for x in self.a.succ[a]:
                        if x not in up:
                            continue
                        self.spend(len(self.a.succ[b]))
                        for y in self.a.succ[b]:
                            if y not in self.allowed or not masks[x] & masks[y]:
                                continue
                            self.spend(len(self.a.succ[c]))
                            for z in self.a.succ[c]:
                                if z in down and masks[x] & masks[y] & masks[z]:
                                    triple = (x, y, z)
                                    if triple == (p, q, q):
                                        return True
                                    if triple not in seen:
                                        seen.add(triple)
                                        todo.append(triple)
        return False


@lru_cache(maxsize=1024)
def backtracking_problem(pattern: str, max_length: int | None) -> str | None:
    """The lint's message for ``pattern`` on strings of at most ``max_length`` characters (None:
    unbounded), or None when a backtracking matcher stays within WORK_BUDGET on every such string."""
    try:
        verdict = analyse(pattern)
    except PatternError:
        return None  # reported by the pattern check itself
    except (_TooComplex, RecursionError):
        return (
            f"pattern {as_written(pattern)} is too large for the backtracking analysis; split it or simplify its "
            "repeats so it can be shown not to backtrack catastrophically"
        )
    if verdict.exponential is not None:
        where = _show(pattern, verdict.exponential)
        return (
            f"pattern {as_written(pattern)} can backtrack catastrophically: {where} can match the same text in "
            "exponentially many ways, so a string that almost matches takes about 2^n steps at any maxLength; "
            "rewrite it so each character has one way to match (e.g. '(a+)+' -> 'a+', '(a|ab)*' -> '(ab?)*', "
            "'(\\w+\\s?)*' -> '\\w+(\\s\\w+)*')"
        )
    degree = verdict.degree
    if degree == 0 or (max_length is not None and max_length ** (degree + 1) <= WORK_BUDGET):
        return None
    limit = _limit(degree)
    loops = " and ".join(_show(pattern, span) for span in verdict.chain)
    bound = (
        "no maxLength bounds it"
        if max_length is None
        else f"maxLength {max_length} is too long for it"
    )
    return (
        f"pattern {as_written(pattern)} can backtrack polynomially: {loops} can each take the same characters, so a "
        f"string of n characters that almost matches takes about n^{degree + 1} steps, and {bound}; add a "
        f"maxLength of at most {limit} (checked before the pattern runs), or make the repeats take different "
        "characters (anchor with '^' and '$', or separate them by a character they cannot take)"
    )


def _limit(degree: int) -> int:
    """The largest maxLength with maxLength ** (degree + 1) <= WORK_BUDGET (integer arithmetic)."""
    limit: int = round(float(WORK_BUDGET) ** (1 / (degree + 1))) + 1
    while pow(limit, degree + 1) > WORK_BUDGET:
        limit -= 1
    return limit


def _show(pattern: str, span: tuple[int, int] | None) -> str:
    if span is None:
        return "the search retrying at every start (the pattern does not begin with '^')"
    return as_written(pattern[span[0] : span[1]])
