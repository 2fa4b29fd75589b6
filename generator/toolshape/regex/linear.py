"""Which matcher runs each pattern in the generated validator, and the program of the linear one.

Every ``pattern``, ``patternProperties`` key and ``propertyNames`` pattern runs in time linear in
the string it is tried on, by construction (``plan``):

- CPython's ``re`` where ``re_is_linear`` proves its backtracking linear for every string (the
  proof is that function's docstring). Most contract patterns are of that kind (``^C[0-9]{6}$``,
  dates, uuids, ``^[a-z0-9][a-z0-9-]*$``), and ``re`` matches them at C speed. Also where
  ``re_is_bounded`` proves, for an anchored pattern of class runs and repeated groups of them
  (``^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$``, ``^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,63}$``),
  that ``re`` stays within WORK_BUDGET steps on strings of the length bound checked before the
  pattern runs (``maxLength``; ``propertyNames``' ``maxLength`` for keys): n times a constant
  of the pattern and the bound. Also where no match is longer than a fixed span
  (``^(GET|POST|PUT)$``, ``^([01]?\\d|2[0-3]):[0-5]\\d$``): ``re_is_finite`` counts the paths
  one try can take, a constant of the pattern. And where ``re_linear_bound`` reads the
  pattern as runs entered a bounded number of times, then a tail of fixed span
  (``^.*\\.(pdf|docx)$``): a constant per character, with no length bound; and where
  ``re_ends_in_a_run`` reads it as a part of fixed span, then an unbounded run and nothing else
  (``\\d{3,}``): a search ends on the first start whose run is long enough. Before toolshape
  proved anything every pattern ran in ``re`` (issue 20): these keep it there;
- otherwise the generated runtime's ``_Linear`` matcher: a lazily built DFA (the subset
  construction run one character at a time and cached per pattern) over the pattern's Thompson
  automaton, the one ``automaton.build`` makes from toolshape's own syntax tree. Each character
  costs one table lookup once its DFA state is known, and at most one new DFA state (one pass
  over the automaton, ``len(program)`` states) when it is not; the cache is dropped when it
  exceeds ``_Linear.MAX_STATES``. So a search of n characters costs at most n * (states + edges)
  steps, whatever the pattern and the string. Why a DFA and not a Pike VM: the set of states a
  Pike VM carries is the DFA state, and caching its transitions turns the per-character set
  work into one list index, which is what a Python loop can afford.

Zero-width assertions (``^ $ \\b \\B``) are guards the DFA evaluates from the position's context
(start, end, word character before and after). Lookarounds and backreferences have no place in a
finite automaton; what the matcher serves of them:

- lookaheads right after a leading ``^`` (``^(?=.*[A-Z])(?!.*admin).{8,64}$``): they are tried at
  position 0 only, so each is a pattern of its own (``^X``), and the whole is their conjunction
  with the rest (``^.{8,64}$``): one linear search each (``parts``);
- any other lookaround, only where ``re_is_linear`` proves ``re`` linear on the whole pattern;
- backreferences never (``^(a*)\\1$`` is quadratic in every backtracking matcher, and no finite
  automaton matches it): refused with the reason (``problem``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .automaton import Nfa, TooLarge, build
from .charset import WORD, CharSet, partition
from .syntax import (
    Alt,
    Assert,
    Backref,
    Char,
    Empty,
    Group,
    Look,
    Node,
    Pattern,
    PatternError,
    Repeat,
    Seq,
    parse,
)
from .translate import translate

#: A pattern goes to ``re`` only when every position explores at most this many paths that
#: consume nothing (the constant of ``re_is_linear``'s bound; beyond it the DFA is cheaper).
MAX_PATHS = 64
#: ... and, when it is searched at every start, consumes at most this many characters per start.
MAX_SPAN = 64
#: The most steps ``re_is_bounded`` lets ``re`` take on one string (the constant the
#: backtracking lint used: about 0.06 s on CPython 3.11 in its slowest cases).
WORK_BUDGET = 5_000_000
#: The most tests per character of the string ``re_is_finite`` (unanchored) and
#: ``re_linear_bound`` let ``re`` make: MAX_PATHS, the per-position constant ``re_is_linear``
#: allows an anchored pattern. A test is a C-speed step of ``re``, tens of times cheaper than the
#: Python-level table lookup ``_Linear`` makes per character, so ``re`` stays the cheaper one.
MAX_TESTS_PER_CHARACTER = MAX_PATHS
#: The most tests ``re_is_finite`` lets one anchored try make, and the most ``re_linear_bound``
#: lets a string cost beyond its per-character ones: a constant of the pattern, paid once per
#: string (about what ``_Linear`` spends building its first few DFA states, and 1/500 of
#: WORK_BUDGET). It refuses the finite patterns whose tries multiply out
#: (``^(?:(?:a|a){6}){4}$``: 2^24 paths; ``^(?:a{0,8}){0,8}$``: over 9^8).
MAX_FINITE_TESTS = 10_000
#: ``re_is_bounded`` and ``re_linear_bound`` try at most this many tails of a pattern, shortest
#: first (a tail is a few items in the patterns they serve: ``\.pdf$``, ``\.(pdf|docx)$``):
#: each tail costs an automaton of its own, so trying every one would make the planner's work
#: quadratic in the pattern.
MAX_TAILS = 16
#: The guards of epsilon edges in a program, as the runtime reads them.
GUARDS = {None: 0, "start": 1, "end": 2, "word": 3, "nonword": 4}


class LinearError(PatternError):
    """A pattern no linear-time matcher can serve (a backreference, a lookaround ``re`` cannot be
    proved linear on, an automaton above ``automaton.MAX_STATES``)."""


#: One automaton as the runtime's ``_Linear`` reads it, a dict of plain data (so the generated
#: module lays it out as it lays out any data): ``match`` (whether this search must find a match),
#: ``starts`` (the first code point of each interval of characters the pattern tells apart) and
#: ``atoms`` (the class of each interval), ``words`` (the classes of word characters, as bits),
#: ``start`` and ``final`` (states), and per state ``chars`` [class bits, target, ...] (an edge
#: taking a character of those classes) and ``eps`` [guard, target, ...] (an edge taking none,
#: allowed when the guard holds: 0 always, 1 ``^``, 2 ``$``, 3 ``\b``, 4 ``\B``).
Program = dict[str, Any]


@dataclass(frozen=True)
class Plan:
    """How the validator runs one pattern: ``re`` source, or the linear matcher's ``parts``,
    programs whose searches must all come out as their ``match`` says."""

    source: str | None
    parts: tuple[Program, ...] = ()


@lru_cache(maxsize=1024)
def plan(pattern: str, max_length: int | None = None) -> Plan:
    """The matcher for ``pattern`` on strings of at most ``max_length`` characters (None: any
    length; a bound must be checked before the pattern runs); raises PatternError (LinearError
    when only the matcher is missing)."""
    source = translate(pattern)
    tree = parse(pattern)
    if (
        re_is_linear(tree)
        or re_is_finite(tree) is not None
        or re_linear_bound(tree.root) is not None
        or re_ends_in_a_run(tree) is not None
        or (max_length is not None and re_is_bounded(tree.root, max_length) is not None)
    ):
        return Plan(source)
    if _has(tree.root, Backref):
        raise LinearError(
            "a backreference (\\1, \\k<name>) has no linear-time matcher (a string of n characters "
            "can cost n^2 steps or more); spell out what the group may hold instead"
        )
    items = _items(tree.root)
    looks: list[Look] = []
    if items and items[0] == Assert("start"):
        while len(items) > 1 and isinstance(items[1], Look) and items[1].ahead:
            looks.append(items[1])
            del items[1]
    rest = Seq(tuple(items)) if len(items) != 1 else items[0]
    if not looks:
        rest = tree.root
    if _has(rest, Look) or any(_has(look.body, Look) for look in looks):
        raise LinearError(
            "a lookaround is served only as a lookahead right after a leading '^' "
            "('^(?=.*[0-9]).{8,}$'), or where Python's re provably never backtracks (a "
            "lookaround of bounded length in a pattern with one way to match each character); "
            "move it to the start or drop it"
        )
    parts = [_program(Pattern(rest, tree.groups), True)]
    for look in looks:
        body = Seq((Assert("start"), look.body))
        parts.append(_program(Pattern(body, tree.groups), not look.negative))
    return Plan(None, tuple(parts))


def problem(pattern: str) -> str | None:
    """Why ``pattern`` cannot run in linear time, or None (a PatternError is reported elsewhere)."""
    try:
        plan(pattern)
    except LinearError as exc:
        return str(exc)
    except PatternError:
        return None
    return None


def _program(pattern: Pattern, match: bool) -> Program:
    """The automaton of ``pattern`` as the runtime's literal (see Program)."""
    anchored = _items(pattern.root)[:1] == [Assert("start")]
    try:
        nfa = build(pattern, at_any_start=not anchored)
    except TooLarge:
        raise LinearError(
            "the pattern's automaton is too large for the linear-time matcher (its counted "
            "repeats multiply out); use smaller counts or '*' / '+'"
        ) from None
    sets = list(nfa.sets) + ([WORD] if nfa.uses_words else [])
    atoms = partition(sets)
    bounds = sorted((low, index) for index, atom in enumerate(atoms) for low, _ in atom.ranges)
    masks = [_mask(atoms, charset) for charset in nfa.sets]
    # The final state's loop on any character is the search semantics the DFA gets by
    # stopping at the first match: the runtime never steps out of it.
    nfa.chars[nfa.final] = []
    order, chars, eps = _compact(nfa)
    return {
        "match": match,
        "starts": [low for low, _ in bounds],
        "atoms": [index for _, index in bounds],
        "words": _mask(atoms, WORD) if nfa.uses_words else 0,
        "start": order[nfa.start],
        "final": order[nfa.final],
        "chars": [[n for set_id, t in edges for n in (masks[set_id], order[t])] for edges in chars],
        "eps": [[n for guard, t in edges for n in (GUARDS[guard], order[t])] for edges in eps],
    }


def _compact(
    nfa: Nfa,
) -> tuple[dict[int, int], list[list[tuple[int, int]]], list[list[tuple[str | None, int]]]]:
    """The automaton without the states that only pass on (no character edge, one unguarded
    epsilon edge), numbered from the start in the order reached: (new number of each kept
    state, character edges and epsilon edges of each kept state, in new order)."""

    def onward(state: int) -> int:
        seen = set()
        while (
            state not in (nfa.start, nfa.final)
            and not nfa.chars[state]
            and len(nfa.eps[state]) == 1
            and nfa.eps[state][0][0] is None
            and state not in seen
        ):
            seen.add(state)
            state = nfa.eps[state][0][1]
        return state

    order: dict[int, int] = {}
    todo = [nfa.start, nfa.final]
    kept: list[int] = []
    while todo:
        state = onward(todo.pop(0))
        if state in order:
            continue
        order[state] = len(kept)
        kept.append(state)
        todo.extend(t for _, t in nfa.chars[state])
        todo.extend(t for _, t in nfa.eps[state])
    for state in range(len(nfa.chars)):
        if state not in order:
            order[state] = order.get(onward(state), -1)
    chars = [list(dict.fromkeys((c, onward(t)) for c, t in nfa.chars[s])) for s in kept]
    eps = [
        list(dict.fromkeys((g, onward(t)) for g, t in nfa.eps[s] if (g, onward(t)) != (None, s)))
        for s in kept
    ]
    return order, chars, eps


def _mask(atoms: list[CharSet], charset: CharSet) -> int:
    """The atoms inside ``charset`` as bits (each atom is wholly inside or outside it)."""
    return sum(1 << i for i, atom in enumerate(atoms) if atom.ranges[0][0] in charset)


def _items(node: Node) -> list[Node]:
    """The top-level sequence of ``node`` (groups that capture nothing opened)."""
    while isinstance(node, Group) and node.index is None:
        node = node.body
    return list(node.items) if isinstance(node, Seq) else [node]


def _has(node: Node, kind: type) -> bool:
    if isinstance(node, kind):
        return True
    if isinstance(node, (Seq, Alt)):
        children = node.items if isinstance(node, Seq) else node.options
        return any(_has(child, kind) for child in children)
    if isinstance(node, (Group, Repeat, Look)):
        return _has(node.body, kind)
    return False


# -- When Python's re is linear ------------------------------------------------------------------


def re_is_linear(pattern: Pattern) -> bool:
    """Whether CPython's ``re`` searches every string of n characters in O(n) steps.

    The proof. ``re`` is a backtracking matcher: from its state at a position it tries the
    pattern's choices (an alternative, one more or one fewer repeat, including each count of a
    counted repeat and each length a single-character repeat backs off to) depth first, and
    backtracks to the most recent choice with an untried option when a path fails. Its paths are
    the paths of the Thompson automaton ``automaton.build`` makes (counted repeats unrolled as
    ``re`` runs them: ``a{0,2}`` as ``(?:a(?:a)?)?``): one epsilon path per way to reach a
    character test without consuming. This function accepts a pattern when:

    1. (one way per character) from the start state and from every state entered by consuming
       a character, for every character c, at most one epsilon path (counted as paths, not as
       states: ``(a*)*`` reaches its 'a' twice) ends at an edge that consumes c;
    2. (no empty loop) no epsilon cycle (a loop whose body can match empty), so that the
       number of epsilon paths from a state, P, is finite; and P <= MAX_PATHS;
    3. no backreference; every lookaround's body meets 1-2 itself and either is tried at position
       0 only (right after a leading '^') or matches at most MAX_SPAN characters (every
       lookbehind does: ``re`` needs them fixed-width), and holds no lookaround of its own;
    4. the search tries the pattern at a bounded number of positions per character: the pattern
       starts with '^' (every start but 0 fails on its first test), or none of its matches is
       longer than MAX_SPAN characters (each start then consumes at most MAX_SPAN).

    Then in one attempt at a start position, by 1, at every position at most one explored path
    consumes the next character; all others end at their character test (or at a guard, or in
    success, which ends the search), after at most P epsilon steps. Backtracking only revisits
    untried options, each of which is such a dead end. So the attempt follows one path of
    consuming steps, a character at a time, and spends at most P steps per position it reaches:
    P * (k + 1) steps when it reaches k characters. A lookaround on that path is a sub-search
    (``re`` never backtracks into one) of the same kind: by 3, it costs at most
    P' * (MAX_SPAN + 1) steps each time, or P' * (n + 1) once. By 4, the attempts add up to
    n * P (anchored) or n * P * (MAX_SPAN + 1) steps: linear, with a constant fixed at generation.
    Zero-width guards ('$', '\\b') only cut paths. ``re``'s own shortcuts (literal prefixes,
    single-character repeats matched in one go) only skip work this count includes. Patterns
    whose matches the analysis reads through lookarounds as always passing, it reads with
    more paths than ``re`` takes, never fewer.

    The backtracking lint (``ambiguity``) is not relied on: it reads ``^(?:a{0,8}){0,8}$`` as safe,
    and it fails 1 (after an 'a' of one inner copy, the next 'a' has two ways: the same copy or the
    next outer one).
    """
    if _has(pattern.root, Backref):
        return False
    root = pattern.root
    items = _items(root)
    anchored = items[:1] == [Assert("start")]
    leading: set[int] = set()
    if anchored:
        for item in items[1:]:
            if not (isinstance(item, Look) and item.ahead):
                break
            leading.add(id(item))
    if not _one_way(Pattern(root, pattern.groups)):
        return False
    if not anchored and _span(root) > MAX_SPAN:
        return False
    for look in _looks(root):
        if _has(look.body, Look):
            return False
        if id(look) not in leading and _span(look.body) > MAX_SPAN:
            return False
        if not _one_way(Pattern(look.body, pattern.groups)):
            return False
    return True


def re_is_bounded(root: Node, max_length: int) -> int | None:
    """A bound on ``re``'s steps for ``root`` on strings of at most ``max_length`` characters, when
    it is at most WORK_BUDGET and ``root`` is an anchored pattern of runs and repeated groups of
    runs, then a tail of finite span; else None.

    The patterns: ``^``, then segments S1 ... Sk, then a tail Z, then ``$`` or nothing (the ``$``
    is part of Z when Z is not empty). A segment is a run, one
    character class C repeated {m, M} (M may be unbounded; a plain class is {1, 1}), or a loop,
    a group (capturing or not) whose body is runs R1 ... Rp, itself repeated {m, M}, greedily:
    ``^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$``, ``^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,63}$``.
    A group that is not repeated is read as its body (its marks cost no choice). Anything else
    is refused: an alternation, a group repeated inside a loop (``(?:a{0,8}){0,8}`` nests a
    repeat in a repeat's body), a lazy loop (``(...)*?``), an assertion but the two anchors, a
    lookaround, a backreference. ``$`` is ``\\Z`` once translated (``translate``: never Python's
    ``$``, which also passes before a final newline), so it passes at the end only. The tail Z
    is any sequence of items that are not segments or come after them, whose matches are never
    longer than a fixed span and which holds no lookaround or backreference: alternations and
    nested counted repeats included (``^.*\\.(pdf|docx)$``: ``.*``, then ``\\.(pdf|docx)$``).
    Every split of the pattern into segments and a tail is tried, and the least bound kept
    (each is a bound); the split with no tail (k >= 1) is the reading without tails. With no
    segment (k = 0) the tail is all of the pattern after ``^``, ``$`` included.

    What ``re`` does. A run is one repeat: it takes the longest run of C it may (one test per
    character, and one more that stops it), then backs off one character at a time, trying the
    rest of the pattern after each length: its options are its lengths. A loop keeps a counter:
    at each boundary (before the first iteration and after each one) it must iterate while the
    count is below m, must leave at M, and in between tries one more iteration first and leaving
    second: its options at a boundary are ``iterate`` and ``exit``. ``re`` tries options depth
    first and backtracks to the latest untried one; it keeps no memory of failed positions. The
    bound counts every option of the whole tree of tries, so the order they are tried in (a
    lazy run tries its lengths shortest first) changes nothing; a success only stops early.
    A step is a test: of a character against a class (a success or not, at the end of the
    string included), or of the end (``$``), or of the start (``^``). What ``re`` does between
    two tests (a counter, a mark, backing off to the next option) is bounded by the pattern's
    size, so steps count its work up to a constant of the pattern.

    The proof goes in steps, each in the docstring of the function that computes it: the tail
    and its tests C_Z (``_splits``), first characters (``_follows``), dead ends and their tests
    T (``_dead_end_tests``), junctions (``_junction_is_determined``, and inside a loop
    ``_loop_is_determined``), and the count (``_steps``), which comes to

        (n + 1) + sum over i of Ei * wi * (xi + 1) * (T + 1) + E_Z * C_Z

    steps, wi = 1 for a run and p + 2 for a loop of p runs, whatever the string: every term is a
    count of options or tests, not an estimate of what a string makes ``re`` do. It grows with
    n, so its value at max_length bounds every string the length check lets through. With no
    tail (C_Z = 0), xi + 1 <= n + 1 and Li <= n + 1, so it is at most the bound this function
    gave before tails and spans, (n + 1) * (1 + (T + 1) * sum over i of wi * (n + 1)^ui) (ui the
    undetermined junctions before Si), and accepts every pattern that one did. Read as a
    polynomial in N = n + 1 (xi + 1 = si + 1 and Li = M - m + 1 where those are finite, N where
    not), it bounds every n: ``re_linear_bound`` takes it from there. The caller checks the
    length first (``maxLength`` before ``pattern``, ``propertyNames``' ``maxLength`` before any
    ``patternProperties`` key). ``tests/test_regex_linear.py`` holds the bound against a model
    of ``re`` that counts these tests, on adversarial strings up to the length bound.
    """
    found = [_steps(split, max_length) for split in _splits(root)]
    steps = min((total[0] for total in found if total is not None), default=None)
    return steps if steps is not None and steps <= WORK_BUDGET else None


def re_linear_bound(root: Node) -> tuple[int, int] | None:
    """(a, b) such that ``re`` makes at most a * (n + 1) + b steps on every string of n
    characters, with a <= MAX_TESTS_PER_CHARACTER and b <= MAX_FINITE_TESTS, for an anchored
    pattern ``re_is_bounded`` reads; else None. No length bound is needed.

    The bound is ``re_is_bounded``'s, read as a polynomial in N = n + 1 (every min(N, x) with a
    finite x taken as x, with an unbounded one as N) over the ways to split the pattern: it
    holds for every n, and it is of degree 1 (a * N + b) where every segment that can take
    unboundedly many characters is entered a bounded number of times, and so is every segment
    after a junction of unbounded choice (the least a, then b, over the splits is kept).
    ``^.*\\.pdf$``: ``.*`` is entered
    once, at most (T + 1) N = 8 N tests, and the tail ``\\.pdf$`` (C_Z = 5) at most N times:
    N + 8 N + 5 N = 14 N. A search of n characters then costs at most a tests per character
    and b once, as ``re_is_finite``'s do, under the same limits.
    """
    best: tuple[int, int] | None = None
    for split in _splits(root):
        total = _steps(split, None)
        if total is None or len(total) > 2:
            continue
        b, a = (total + [0])[:2]
        if (
            a <= MAX_TESTS_PER_CHARACTER
            and b <= MAX_FINITE_TESTS
            and (best is None or (a, b) < best)
        ):
            best = (a, b)
    return best


@dataclass(frozen=True)
class _Split:
    """An anchored pattern read by ``re_is_bounded``: ``^``, the segments, then a tail (a finite
    span sequence, ``$`` included) of which one try makes at most ``tests`` tests and whose
    first test can take only ``first``; with no tail, ``tests`` is 0 and ``first`` empty."""

    segments: tuple[_Run | _Loop, ...]
    tests: int
    first: CharSet


def _splits(root: Node) -> list[_Split]:
    """The ways to read ``root`` as ``^``, segments, and a tail of finite span (the tail may be
    empty, or all of it), the shortest tails first: at most MAX_TAILS of them, and none longer
    than the first tail that is not of finite span or has more than MAX_FINITE_TESTS tests (a
    longer one holds it). Fewer splits only means fewer patterns proved; the work stays linear
    in the pattern (each tail's automaton once, each item read as a segment once).

    The tail. A try of Z at one position makes at most C_Z tests, whatever the string: the
    paths of Z's automaton that end in a test (``re_is_finite``: its proof shows every test of
    ``re`` in a try is the last edge of its own such path), refused above MAX_FINITE_TESTS
    (``^(?:(?:a|a){6}){4}$`` reads as one tail of 2^24 paths). C_Z = 0 when there is no tail.
    """
    items = _items(root)
    if not items or items[0] != Assert("start"):
        return []
    body = items[1:]
    end = bool(body) and body[-1] == Assert("end")
    if end:
        body = body[:-1]
    pieces: list[list[_Run | _Loop]] = []  # the segments of each item, up to the first that is none
    for item in body:
        piece = _segments([item], nested=False)
        if piece is None:
            break
        pieces.append(piece)
    found: list[_Split] = []
    if len(pieces) == len(body) and body:
        everything = tuple(segment for piece in pieces for segment in piece)
        found.append(_Split(everything, 0, CharSet(())))
    for j in range(len(body), max(len(body) - MAX_TAILS, 0) - 1, -1):
        if j == len(body) and j > 0:
            continue  # no tail: the split above
        # With no segment, the tail is all of it (``^$``: the tail ``$``, one test).
        tail = Seq(tuple(body[j:]) + ((Assert("end"),) if end else ()))
        tests = _tests(tail, MAX_FINITE_TESTS)
        if tests is None or tests > MAX_FINITE_TESTS:
            break  # every longer tail holds this one
        if j <= len(pieces):
            segments = tuple(segment for piece in pieces[:j] for segment in piece)
            found.append(_Split(segments, tests, _first_node(tail)[0]))
    return found


def _steps(split: _Split, n: int | None) -> list[int] | None:
    """``re_is_bounded``'s bound for ``split`` on strings of n characters, as the coefficients
    of a polynomial in N = n + 1 (one coefficient when n is given; None when n is given and the
    bound is above WORK_BUDGET, or a loop's body is refused).

    The count. An entry of Si (of Z) is ``re`` starting it at some position from a try that is
    not a dead end. S1 (Z when k = 0) is entered once. Each entry of Si leads to at most one entry
    of S(i+1) (of Z, after Sk) when the junction after Si is determined (every other option is a
    dead end), and to at most Li = min(n + 1, M - m + 1) (n + 1 when M is unbounded) when not:
    one per length of the run (m ... min(n, M)), or one exit per boundary of the loop whose count
    is in m ... M (boundaries are at distinct positions, each iteration taking a character). So
    Si is entered at most Ei times, the product of Lj over the undetermined junctions before it
    (E1 = 1), and Z at most E_Z times, the product over all of them. An entry of Si costs what
    ``_entry_tests`` says, an entry of Z at most C_Z. Starts other than 0 fail on ``^``: one
    test each, n + 1 with position 0's.
    """
    dead_end = _dead_end_tests(split)
    total = _upto(n, INF)  # a test of '^' at every start
    entries = [1]
    for segment, after in zip(split.segments, _follows(split), strict=True):
        tests = _entry_tests(segment, after, n, dead_end)
        if tests is None:
            return None
        total = _add(total, _mul(entries, tests))
        if not _junction_is_determined(segment, after):
            choices = INF if segment.high is None else segment.high - segment.low + 1
            entries = _mul(entries, _upto(n, choices))
        if n is not None and total[0] > WORK_BUDGET:
            return None
        if n is None and (len(total) > 2 or len(entries) > 2):
            # Degree 2 or more: never linear (total only grows; entries of degree 2 multiply
            # every later term), and the polynomials would grow with the pattern.
            return None
    return _add(total, _mul(entries, [split.tests]))


def _upto(n: int | None, x: float) -> list[int]:
    """min(N, x), N = n + 1, as a polynomial in N: a number when n is given."""
    if n is not None:
        return [int(min(n + 1, x))]
    return [0, 1] if x == INF else [int(x)]


def _follows(split: _Split) -> list[CharSet]:
    """Fi = FIRST(S(i+1) ... Sk Z) for each segment Si of ``split``: what may follow it.

    First characters. FIRST(x) is the set of characters the first test of x can take: for a
    run, C (nothing when M = 0); for a loop, FIRST(R1 ... Rp); for a sequence, the union over
    its segments up to the first that cannot match empty (a run with m = 0, a loop with m = 0),
    and FIRST(Z) when all of them can; for Z, the union over its paths of the first character
    test (assertions read as passing, which only adds characters: ``_first_node``).
    """
    segments = split.segments
    # Right to left, so that each segment is read once.
    afters: list[CharSet] = [CharSet(())] * len(segments)
    following = split.first
    for i in range(len(segments) - 1, -1, -1):
        afters[i] = following
        own = _first(segments[i : i + 1])
        following = own.union(following) if segments[i].low == 0 else own
    return afters


def _dead_end_tests(split: _Split) -> int:
    """T, the most tests a dead end of ``split`` makes.

    A try is a dead end when its next character c (there is one) is in no FIRST of what it
    tries: every path fails on c without taking it (or reaches the pattern's end where it has
    no ``$``: a match, which ends the search). A dead end visits each later segment once
    (a loop: its body's runs, then the exit), and from inside a loop, first the rest of the
    body, then the next iteration's body, then the tail once: it makes at most
    T = r + 1 + P + C_Z tests (r runs in all, P the most runs in a loop's body, 1 for ``$``).
    """
    segments = split.segments
    runs = sum(len(s.body) if isinstance(s, _Loop) else 1 for s in segments)
    widest = max((len(s.body) for s in segments if isinstance(s, _Loop)), default=0)
    return runs + 1 + widest + split.tests


def _junction_is_determined(segment: _Run | _Loop, after: CharSet) -> bool:
    """Whether every option after ``segment`` but one is a dead end, ``after`` being what may
    follow it (Fi).

    Junctions. The junction after a run Si is determined when it has one length (m = M) or C is
    disjoint from Fi: after any length but the longest, the next character is in C (the run
    took it), so that try is a dead end. The junction after a loop Si is determined when m = M
    (no choice) or FIRST(body) is disjoint from Fi: at a boundary, of ``iterate`` and ``exit``
    only the one whose FIRST holds c can take it, the other is a dead end.
    """
    start = segment.chars if isinstance(segment, _Run) else _first(segment.body)
    return segment.low == segment.high or not _overlap(start, after)


def _loop_is_determined(loop: _Loop, after: CharSet) -> bool:
    """Whether ``re`` running ``loop``'s body never has a choice that is not a dead end but one,
    ``after`` being what may follow the loop (Fi).

    Inside a loop the proof demands more than a determined junction after it: the body cannot
    match empty (some Rj has m >= 1: each iteration takes a character, so the counter never
    spins in place), and every run of the body has a determined junction, where the follow of
    Rj is FIRST(R(j+1) ... Rp), plus, where R(j+1) ... Rp can match empty, FIRST(body) (the next
    iteration, unless M = 1) and Fi (the exit). ``^(?:[a-z]+-?)*$`` fails this ([a-z] can follow
    [a-z]+ in the next iteration), and ``^[a-z]+([a-z]+)*$``: a body's undetermined junction
    comes once per iteration, so its cost would multiply per character.
    """
    if _nullable(loop.body):
        return False  # an iteration could take nothing
    again = _first(loop.body) if loop.high != 1 else CharSet(())
    # Right to left: what may follow each run of the body (the next iteration and the exit
    # after a part of the body that can match empty).
    follow = again.union(after)
    for run in reversed(loop.body):
        if run.low != run.high and _overlap(run.chars, follow):
            return False  # undetermined once per iteration: no constant exponent
        own = run.chars if run.high != 0 else CharSet(())
        follow = own.union(follow) if run.low == 0 else own
    return True


def _entry_tests(
    segment: _Run | _Loop, after: CharSet, n: int | None, dead_end: int
) -> list[int] | None:
    """The most tests one entry of ``segment`` costs, as a polynomial in N (None: a loop whose
    body ``_loop_is_determined`` refuses), ``dead_end`` being T.

    Let si be the most characters Si can take (M for a run, M (M1 + ... + Mp) for a loop;
    unbounded when a count is) and xi = min(n, si). An entry of a run costs at most
    (xi + 1) (T + 1) tests: at most xi + 1 scanning tests and xi + 1 lengths, each followed by
    a dead end of at most T tests or by an entry of S(i+1), counted there. An entry of a loop
    follows one path of options that take characters, its spine (at each run only the longest
    length can take the next character, at each boundary ``iterate`` when c is in FIRST(body);
    every other option is a dead end, or an exit, which is an entry of S(i+1)): J <= xi
    complete iterations (each takes a character of the at most xi the loop takes) and at most
    one more that fails, so at most p (xi + 1) run instances, which make at most
    xi + p (xi + 1) scanning tests and have as many lengths, and J + 1 <= xi + 1 boundaries.
    Each length, and each boundary (its exit; a failing ``iterate`` is the last iteration's
    runs), is followed by at most one dead end of at most T tests: at most
    (xi + (p + 1) (xi + 1)) (T + 1) <= (p + 2) (xi + 1) (T + 1) tests.
    """
    if isinstance(segment, _Run):
        span = INF if segment.high is None else segment.high
        return _mul(_upto(n, span + 1), [dead_end + 1])
    if not _loop_is_determined(segment, after):
        return None
    span = sum(INF if r.high is None else r.high for r in segment.body)
    span = span * (INF if segment.high is None else segment.high)
    weight = len(segment.body) + 2
    return _mul(_upto(n, span + 1), [weight * (dead_end + 1)])


INF = float("inf")


def _add(a: list[int], b: list[int]) -> list[int]:
    """The sum of two polynomials (coefficients, lowest degree first)."""
    longer, shorter = (a, b) if len(a) >= len(b) else (b, a)
    return [x + (shorter[i] if i < len(shorter) else 0) for i, x in enumerate(longer)]


def _mul(a: list[int], b: list[int]) -> list[int]:
    """The product of two polynomials, without the zero terms of highest degree."""
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            out[i + j] += x * y
    while len(out) > 1 and out[-1] == 0:
        out.pop()
    return out


def re_is_finite(pattern: Pattern) -> int | None:
    """C, when ``re`` makes at most C tests per start position on every string, because no match
    of the pattern is longer than a fixed span; C <= MAX_FINITE_TESTS when the pattern is anchored
    (a search costs at most C + n), C <= MAX_TESTS_PER_CHARACTER when not ((n + 1) * C); else
    None.

    The patterns: any whose matches are at most s characters long, s fixed (``_span``: no
    unbounded repeat of a body that takes a character), with no lookaround and no
    backreference: ``^(GET|POST|PUT|PATCH|DELETE)$``, ``^([01]?\\d|2[0-3]):[0-5]\\d$``,
    ``^(en|en-US|en-GB|fr)$``, alternations whose options share a first character included,
    which ``re_is_linear`` refuses.

    What ``re`` does. At one start position it tries the pattern's choices depth first (an
    alternative; one more iteration of a counted repeat or leaving it; each length a
    single-character repeat backs off to, shortest first when lazy) and backtracks to the latest
    untried one; its choices are those of the Thompson automaton ``automaton.build`` makes,
    counted repeats unrolled as ``re`` runs them (``a{0,2}`` as ``(?:a(?:a)?)?``: its counter is
    the copy the automaton is in). A step is a test: of a character against a class (at the end
    of the string too), or of an assertion (``^``, ``$``, ``\\b``, ``\\B``).

    What is counted. C is the number of paths of that automaton from its start that end in a
    test edge (a character edge, or an epsilon edge guarded by an assertion), ignoring which
    characters the string holds: a DP over the automaton, C(state) = (its test edges) + the sum
    of C(target) over all its edges, after refusing an epsilon cycle (a loop whose body takes
    nothing; the span being finite, no other cycle exists), so the automaton is acyclic and C
    finite. Counted repeats multiply out here: ``^(?:(?:a|a){6}){4}$`` has 2^24 paths,
    ``^(?:a{0,8}){0,8}$`` more than 9^8, and both are refused by the limit, not by their shape.

    The bound. Every test ``re`` makes in one try is the last edge of the sequence of choices
    that led to it, a path of the automaton ending in that test, and two tests of the try have
    different sequences (backtracking only takes untried options, so it never repeats a
    sequence; a scanning test of a single-character repeat is the path through the copies it
    has taken). So one try makes at most C tests, whatever the string: ``re``'s shortcuts
    (literal prefixes, repeats matched in one go, no further iteration after an empty one) only
    skip paths, a success only stops early. What ``re`` does between two tests (a mark, a
    counter, backing off) is bounded by the pattern's size. A search tries every start: an
    anchored pattern (``^`` first) fails at each start but 0 on its first test, so it costs at
    most C + n; any other at most (n + 1) * C. Both are linear, with a constant fixed at
    generation; the limits are MAX_FINITE_TESTS (paid once per string) and
    MAX_TESTS_PER_CHARACTER (paid per character). ``tests/test_regex_linear.py`` holds the bound
    against a model of ``re`` that counts these tests, on strings far longer than any match.
    """
    root = pattern.root
    anchored = _items(root)[:1] == [Assert("start")]
    limit = MAX_FINITE_TESTS if anchored else MAX_TESTS_PER_CHARACTER
    tests = _tests(root, limit)
    return tests if tests is not None and tests <= limit else None


def re_ends_in_a_run(pattern: Pattern) -> int | None:
    """K, when ``re`` makes at most K * (n + 1) steps on every string of n characters because the
    pattern ends in an unbounded run and nothing before it can take more than a fixed span, with
    K <= MAX_TESTS_PER_CHARACTER; else None.

    The patterns: X, then one character class C repeated {m,} (greedy or lazy, in a group or
    not), and nothing after it: ``\\d{3,}``, ``[a-z]+``, ``^id-[0-9]+``. X is any sequence
    ``re_is_finite`` reads (matches of at most a fixed span, no lookaround, no backreference);
    it may be empty. Not ``[a-z]+$`` (a test after the run: each start scans to the end, then
    backs off, quadratic) nor ``f.*o``.

    What ``re`` does. At each start it tries X's paths, and each path that gets through X
    arrives at the run. The run is the last thing to match, so an arrival that gets m
    characters of C is a match, which ends the search: greedy, it has scanned the whole run of
    C from there (at most n + 1 tests); lazy, it has tested m characters. An arrival that does
    not match has found fewer than m characters of C there (m >= 1), so it failed on one of its
    first m tests: at most max(m, 1) tests, greedy or lazy.

    What is counted. C_Xc, the paths of X followed by one test of C that end in a test
    (``re_is_finite``'s count, which bounds the tests of one try of X): each arrival at the run
    is one more such path, ending in the run's first test. So one start that does not match
    costs at most C_X + A * max(m, 1) <= max(m, 1) * C_Xc tests, A the arrivals.

    The bound. n + 1 starts, at most one of which matches (at most C_Xc tests before the run
    and n + 1 in it): at most (n + 1) * (max(m, 1) * C_Xc + 1) = K * (n + 1) steps, linear
    with a constant fixed at generation, for every string.
    """
    items = _items(pattern.root)
    if not items:
        return None
    last = items[-1]
    while isinstance(last, Group):
        last = last.body
    if not (isinstance(last, Repeat) and isinstance(last.body, Char) and last.max is None):
        return None
    tried = Seq((*items[:-1], last.body))
    tests = _tests(tried, MAX_TESTS_PER_CHARACTER)
    if tests is None:
        return None
    constant = max(last.min, 1) * tests + 1
    return constant if constant <= MAX_TESTS_PER_CHARACTER else None


def _tests(node: Node, cap: int) -> int | None:
    """The number of paths of ``node``'s automaton (counted repeats unrolled) from its start
    that end with a test (a character edge, or an epsilon edge guarded by an assertion), or
    cap + 1 when it is more than cap; None when a match of ``node`` can be unboundedly long,
    when the automaton has an epsilon cycle or is too large, or ``node`` holds a lookaround or
    a backreference."""
    if _has(node, Look) or _has(node, Backref) or _span(node) == INF:
        return None
    try:
        nfa = build(Pattern(node, ()), at_any_start=False)
    except TooLarge:
        return None
    nfa.chars[nfa.final] = []
    counted: dict[int, int] = {}
    open_: set[int] = set()
    stack: list[tuple[int, bool]] = [(nfa.start, False)]
    while stack:
        state, done = stack.pop()
        targets = [t for _, t in nfa.chars[state]] + [t for _, t in nfa.eps[state]]
        if done:
            found = len(nfa.chars[state]) + sum(g is not None for g, _ in nfa.eps[state])
            found += sum(counted[t] for t in targets)
            counted[state] = min(found, cap + 1)
            open_.discard(state)
            continue
        if state in counted:
            continue
        if state in open_:
            return None  # a cycle (of epsilon edges: the span is finite)
        open_.add(state)
        stack.append((state, True))
        stack.extend((t, False) for t in targets if t not in counted)
    return counted[nfa.start]


def _first_node(node: Node) -> tuple[CharSet, bool]:
    """(the characters the first test of ``node`` that takes one can take, whether a try of
    ``node`` can pass it without taking a character); an assertion is read as passing."""
    if isinstance(node, Char):
        return node.chars, False
    if isinstance(node, Seq):
        found = CharSet(())
        for item in node.items:
            first, empty = _first_node(item)
            found = found.union(first)
            if not empty:
                return found, False
        return found, True
    if isinstance(node, Alt):
        found = CharSet(())
        empty = False
        for option in node.options:
            first, passes = _first_node(option)
            found, empty = found.union(first), empty or passes
        return found, empty
    if isinstance(node, (Group, Look)):
        return _first_node(node.body) if isinstance(node, Group) else (CharSet(()), True)
    if isinstance(node, Repeat):
        if node.max == 0:
            return CharSet(()), True
        first, empty = _first_node(node.body)
        return first, empty or node.min == 0
    return CharSet(()), True  # Empty, Assert (a backreference is refused before)


@dataclass(frozen=True)
class _Run:
    """A segment of ``re_is_bounded``: one character class repeated {low, high} (None: no
    bound), which ``re`` runs as one repeat."""

    chars: CharSet
    low: int
    high: int | None


@dataclass(frozen=True)
class _Loop:
    """A segment of ``re_is_bounded``: a group of runs repeated {low, high} with a counter."""

    body: tuple[_Run, ...]
    low: int
    high: int | None


def _segments(items: list[Node], nested: bool) -> list[_Run | _Loop] | None:
    """``items`` as runs and (unless ``nested``: inside a loop's body) loops, groups that are
    not repeated opened; None when one is neither."""
    segments: list[_Run | _Loop] = []
    for item in items:
        if isinstance(item, Char):
            segments.append(_Run(item.chars, 1, 1))
        elif isinstance(item, Group):
            inner = _segments(_seq(item.body), nested)
            if inner is None:
                return None
            segments.extend(inner)
        elif isinstance(item, Repeat) and isinstance(item.body, Char):
            segments.append(_Run(item.body.chars, item.min, item.max))
        elif (
            isinstance(item, Repeat)
            and isinstance(item.body, Group)
            and not nested
            and not item.lazy
            and item.max != 0
        ):
            inner = _segments(_seq(item.body.body), nested=True)
            runs = tuple(s for s in inner or () if isinstance(s, _Run))
            if not runs or len(runs) != len(inner or ()):
                return None
            segments.append(_Loop(runs, item.min, item.max))
        else:
            return None
    return segments


def _seq(node: Node) -> list[Node]:
    """The items of ``node`` as a sequence (itself alone when it is not one)."""
    return list(node.items) if isinstance(node, Seq) else [node]


def _nullable(segments: Sequence[_Run | _Loop]) -> bool:
    """Whether every one of ``segments`` can match empty."""
    return all(segment.low == 0 for segment in segments)


def _first(segments: Sequence[_Run | _Loop]) -> CharSet:
    """FIRST of the sequence ``segments``: the characters its first test can take."""
    found = CharSet(())
    for segment in segments:
        if isinstance(segment, _Run):
            if segment.high != 0:
                found = found.union(segment.chars)
        else:
            found = found.union(_first(segment.body))
        if segment.low >= 1:
            break
    return found


def _overlap(a: CharSet, b: CharSet) -> bool:
    """Whether the two sets share a character."""
    return any(
        low <= other_high and other_low <= high
        for low, high in a.ranges
        for other_low, other_high in b.ranges
    )


def _looks(node: Node) -> list[Look]:
    if isinstance(node, Look):
        return [node]
    if isinstance(node, (Seq, Alt)):
        children = node.items if isinstance(node, Seq) else node.options
        return [look for child in children for look in _looks(child)]
    if isinstance(node, (Group, Repeat)):
        return _looks(node.body)
    return []


def _span(node: Node) -> float:
    """The most characters one match of ``node`` consumes (inf when unbounded)."""
    if isinstance(node, Char):
        return 1
    if isinstance(node, (Empty, Assert, Look)):
        return 0
    if isinstance(node, Seq):
        return sum(_span(item) for item in node.items)
    if isinstance(node, Alt):
        return max(_span(option) for option in node.options)
    if isinstance(node, Group):
        return _span(node.body)
    if isinstance(node, Repeat):
        inner = _span(node.body)
        if inner == 0:
            return 0
        return float("inf") if node.max is None else inner * node.max
    return float("inf")  # a backreference


def _one_way(pattern: Pattern) -> bool:
    """Conditions 1 and 2 of ``re_is_linear`` on ``pattern``'s automaton (lookarounds read as
    passing, which only adds paths)."""
    try:
        nfa = build(pattern, at_any_start=False)
    except TooLarge:
        return False
    nfa.chars[nfa.final] = []
    atoms = partition(nfa.sets) if nfa.sets else []
    masks = [_mask(atoms, charset) for charset in nfa.sets]
    memo: dict[int, tuple[int, list[int]] | None] = {}
    on_stack: set[int] = set()

    def reach(state: int) -> tuple[int, list[int]] | None:
        """(epsilon paths from ``state``, per atom how many of them end at an edge taking it);
        None on an epsilon cycle or too many paths."""
        if state in memo:
            return memo[state]
        if state in on_stack or len(on_stack) > MAX_PATHS:
            # A cycle; or a chain of more than MAX_PATHS epsilon edges, whose first state has
            # that many paths at least: refused either way (and the recursion stays shallow).
            return None
        on_stack.add(state)
        paths = 1
        takes = [0] * len(atoms)
        for set_id, _ in nfa.chars[state]:
            mask = masks[set_id]
            for i in range(len(atoms)):
                if mask >> i & 1:
                    takes[i] += 1
        found: tuple[int, list[int]] | None = (paths, takes)
        for _, target in nfa.eps[state]:
            inner = reach(target)
            if inner is None:
                found = None
                break
            paths += inner[0]
            takes = [a + b for a, b in zip(takes, inner[1], strict=True)]
            if paths > MAX_PATHS:
                found = None
                break
            found = (paths, takes)
        on_stack.discard(state)
        memo[state] = found
        return found

    sources = {nfa.start} | {target for edges in nfa.chars for _, target in edges}
    for source in sources:
        found = reach(source)
        if found is None or any(count > 1 for count in found[1]):
            return False
    return True
