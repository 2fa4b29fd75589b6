"""Matching a contract's pattern inside the generator, with every unit of work counted.

The generator never hands a contract's pattern to Python's ``re`` to match (a backtracking matcher
can take exponential time: ``^(?:(?:a|a){7}){4}$`` on 27 ``a`` and a ``b``). It matches here
instead: a Pike/Thompson simulation over a small program compiled from toolshape's own syntax
tree, which keeps, at each position of the text, the set of configurations the pattern can be in.

- A configuration is (instruction, repeat counters, capture spans); counted repeats keep a counter
  instead of being unrolled, so ``(?:[a-z]{1000}){1000}`` compiles to a few instructions.
  Capture spans are tracked only when the pattern has a backreference.
- ``^ $ \\b \\B`` are evaluated at the position. A lookahead's body is compiled a second time to
  match right to left: one backward pass over the text finds every position it matches from.
  A lookbehind (of one fixed width, as the translation requires) runs its body from that many
  characters back. Both are remembered per lookaround within one match.
- A backreference (the only construct that is not regular) moves a configuration ahead by the
  captured text's length; Python's meaning: a group that did not take part matches nothing.
  Limit: a group captured inside a lookaround is not seen outside it (read as unset).

Cost, by construction: one step per configuration examined (a branch of k options, k steps), and
no configuration is examined twice at one position. For a pattern without lookarounds or
backreferences the configurations at one position are at most the pattern's size times the
counter values it can reach (the size of its unrolled automaton, ``m``): one match of a text of
n characters costs at most about (n + 1) * m steps, linear in the text. A lookahead adds one
backward pass, (n + 1) * m again; a lookbehind of width w one simulation of w characters per
position; backreferences multiply the configurations by the spans they can hold (and make
lookaheads run forward from each position tried). Every step is charged to a ``Steps`` counter, which
raises ``OutOfSteps`` past its limit: a caller with a budget stops, never hangs.

The step count of a match depends only on the pattern and the text (never on caches or the
machine), so a budget charged with it keeps the generator's output deterministic.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from .charset import WORD
from .syntax import (
    Alt,
    Assert,
    Backref,
    Char,
    Empty,
    Group,
    Look,
    Node,
    Repeat,
    Seq,
    fixed_width,
    nodes,
    parse,
)

#: Steps one match may take when the caller gives no budget of its own (the reference evaluator):
#: the backtracking lint's budget for one validator call (``ambiguity.WORK_BUDGET``), a few seconds
#: here at most; a linear match of a contract's value stays far below it.
DEFAULT_MATCH_STEPS = 5_000_000


class OutOfSteps(Exception):
    """A match needed more steps than its ``Steps`` allow; ``pattern`` and ``length`` say which
    (set by ``search``)."""

    def __init__(self, pattern: str = "", length: int = 0) -> None:
        super().__init__(pattern, length)
        self.pattern = pattern
        self.length = length


class Steps:
    """A count of matching work; ``limit`` None counts without a bound."""

    def __init__(self, limit: int | None = None) -> None:
        self.used = 0
        self.limit = limit

    def spend(self, amount: int) -> None:
        self.used += amount
        if self.limit is not None and self.used > self.limit:
            raise OutOfSteps()


# Instructions: (CHAR, set, next), (SPLIT, targets), (ASSERT, kind, next), (LOOK, index, next),
# (SAVE, slot, next), (BACKREF, group, next), (ENTER, counter, next),
# (LOOP, counter, min, max, body, next), (MATCH,).
CHAR, SPLIT, ASSERT, LOOK, SAVE, BACKREF, ENTER, LOOP, MATCH = range(9)

Op = tuple[Any, ...]
Config = tuple[int, tuple[int, ...], tuple[int, ...]]


@dataclass
class Program:
    """A compiled pattern (or lookaround body): ``ops[start]`` is where matching begins."""

    ops: list[Op] = field(default_factory=list)
    start: int = 0
    counters: int = 0
    slots: int = 0
    #: (body, ahead, negative, fixed width or None) of each lookaround, by index.
    looks: list[tuple[Program, bool, bool, int | None]] = field(default_factory=list)
    #: Each lookahead's body compiled to match right to left (None: a lookbehind, or a pattern
    #: with backreferences): one backward pass finds every position the body matches from.
    backward: list[Program | None] = field(default_factory=list)
    #: Without lookarounds and backreferences, what one position does depends only on the set of
    #: configurations and the characters around it: remembered here, each set by a number
    #: (``kernels``), so a long text costs a few dict look-ups per character. The steps are
    #: charged all the same (``closures`` keeps them): the count never depends on what is known.
    kernels: dict[frozenset[Config], int] = field(default_factory=dict)
    kernel_sets: list[frozenset[Config]] = field(default_factory=list)
    closures: dict[tuple[int, int], tuple[tuple[Config, ...], bool, int]] = field(
        default_factory=dict
    )
    moves: dict[tuple[int, int, int], int] = field(default_factory=dict)


class _Compiler:
    def __init__(self, captures: bool, slots: int, backward: bool = False) -> None:
        self.program = Program(slots=slots)
        self.captures = captures
        #: Match the text from right to left (a lookahead's body, for ``_Run.starts``).
        self.backward = backward

    def emit(self, op: Op) -> int:
        self.program.ops.append(op)
        return len(self.program.ops) - 1

    def node(self, node: Node, nxt: int) -> int:
        """The instruction that matches ``node`` and then continues at ``nxt`` (built back to front)."""
        if isinstance(node, Char):
            return self.emit((CHAR, node.chars, nxt))
        if isinstance(node, Empty):
            return nxt
        if isinstance(node, Seq):
            for item in node.items if self.backward else reversed(node.items):
                nxt = self.node(item, nxt)
            return nxt
        if isinstance(node, Alt):
            return self.emit((SPLIT, tuple(self.node(option, nxt) for option in node.options)))
        if isinstance(node, Group):
            if self.captures and node.index is not None:
                close = self.emit((SAVE, 2 * node.index + 1, nxt))
                return self.emit((SAVE, 2 * node.index, self.node(node.body, close)))
            return self.node(node.body, nxt)
        if isinstance(node, Assert):
            return self.emit((ASSERT, node.kind, nxt))
        if isinstance(node, Look):
            body = _compile(node.body, self.captures, self.program.slots)
            self.program.looks.append((body, node.ahead, node.negative, fixed_width(node.body)))
            self.program.backward.append(
                _compile(node.body, False, 0, backward=True)
                if node.ahead and not self.captures
                else None
            )
            return self.emit((LOOK, len(self.program.looks) - 1, nxt))
        if isinstance(node, Backref):
            return self.emit((BACKREF, node.index, nxt))
        return self.repeat(node, nxt)

    def repeat(self, node: Repeat, nxt: int) -> int:
        if node.max == 0:
            return nxt
        if node.min == 0 and node.max == 1:
            return self.emit((SPLIT, (self.node(node.body, nxt), nxt)))
        loop = self.emit((MATCH,))  # patched below, once the body knows where it returns
        body = self.node(node.body, loop)
        if node.max is None and node.min <= 1:
            self.program.ops[loop] = (SPLIT, (body, nxt))
            return loop if node.min == 0 else body
        counter = self.program.counters
        self.program.counters += 1
        self.program.ops[loop] = (LOOP, counter, node.min, node.max, body, nxt)
        return self.emit((ENTER, counter, loop))


def _compile(root: Node, captures: bool, slots: int, backward: bool = False) -> Program:
    compiler = _Compiler(captures, slots, backward)
    done = compiler.emit((MATCH,))
    compiler.program.start = compiler.node(root, done)
    return compiler.program


def _has_backref(node: Node) -> bool:
    return any(isinstance(item, Backref) for item in nodes(node))


@lru_cache(maxsize=1024)
def compiled(pattern: str) -> Program:
    """The program of an ECMA-262 pattern; raises PatternError for one toolshape refuses."""
    parsed = parse(pattern)
    captures = _has_backref(parsed.root)
    slots = 2 * (max((g.index or 0 for g in parsed.groups), default=0) + 1) if captures else 0
    return _compile(parsed.root, captures, slots)


def search(pattern: str, text: str, steps: Steps | None = None) -> bool:
    """Whether ``pattern`` matches anywhere in ``text`` (JSON Schema's meaning, ``re.search``).

    Every step is charged to ``steps`` (a fresh ``Steps(DEFAULT_MATCH_STEPS)`` when None), which
    raises ``OutOfSteps`` past its limit. Raises PatternError for a pattern toolshape refuses."""
    counter = Steps(DEFAULT_MATCH_STEPS) if steps is None else steps
    key = (pattern, text)
    known = _RESULTS.get(key)
    try:
        if known is not None:
            # The same steps as matching again: a budget runs out exactly where it would have.
            counter.spend(known[1])
            return known[0]
        before = counter.used
        found = _search(compiled(pattern), text, counter)
    except OutOfSteps:
        raise OutOfSteps(pattern, len(text)) from None
    _remember(key, found, counter.used - before)
    return found


#: Finished matches, (pattern, text) -> (whether it matched, the steps it took): case derivation
#: and the reference evaluator match the same few hundred texts thousands of times. Forgotten
#: all at once past MAX_RESULT_CHARS characters of text held.
_RESULTS: dict[tuple[str, str], tuple[bool, int]] = {}
MAX_RESULT_CHARS = 4_000_000
_held = [0]


def _remember(key: tuple[str, str], found: bool, steps: int) -> None:
    if _held[0] + len(key[1]) > MAX_RESULT_CHARS:
        _RESULTS.clear()
        _held[0] = 0
    _RESULTS[key] = (found, steps)
    _held[0] += len(key[1])


def _search(program: Program, text: str, counter: Steps) -> bool:
    """``search`` of a compiled program, every step charged to ``counter``."""
    # A match at position 0 first: one simulation without a new start at every position
    # (which a counted repeat such as ``.{300,}`` would multiply), then the full search.
    if not program.looks and not program.slots:
        return _plain(program, text, counter, True) or _plain(program, text, counter, False)
    run = _Run(program, text, counter)
    return run.matches(program, 0, True, None) or run.matches(program, 0, False, None)


#: Remembered closures and moves per program, at most (then forgotten and built again).
MAX_REMEMBERED = 20_000


def _plain(program: Program, text: str, steps: Steps, anchored: bool) -> bool:
    """``search`` for a program without lookarounds or backreferences, through its remembered
    closures and moves (charging the steps ``_Run.closure`` takes for each)."""
    if len(program.kernels) + len(program.closures) + len(program.moves) > MAX_REMEMBERED:
        program.kernels.clear()
        program.kernel_sets.clear()
        program.closures.clear()
        program.moves.clear()
    closures, moves = program.closures, program.moves
    codes = [ord(c) for c in text]
    last = len(codes)
    initial: Config = (program.start, (0,) * program.counters, ())
    run = _Run(program, text, steps)
    kernel = _number(program, frozenset([initial]))
    words = [code in WORD for code in codes] + [False]
    for pos in range(last + 1):
        context = (pos == 0) | (pos == last) << 1 | words[pos - 1] << 2 | words[pos] << 3
        if pos == 0:
            context &= ~4
        known = closures.get((kernel, context))
        if known is None:
            before = steps.used
            found = run.closure(program, set(program.kernel_sets[kernel]), pos, {})
            waiting = tuple(config for config in found if config is not None)
            known = (waiting, None in found, steps.used - before + 1)
            closures[(kernel, context)] = known
            steps.spend(1)
        else:
            steps.spend(known[2])
        if known[1]:
            return True
        if pos == last:
            return False
        code = codes[pos]
        moved = moves.get((kernel, context, code))
        if moved is None:
            ops = program.ops
            states = {
                (ops[pc][2], counters, caps)
                for pc, counters, caps in known[0]
                if code in ops[pc][1]
            }
            moved = _number(program, frozenset(states))
            moves[(kernel, context, code)] = moved
        if not anchored:
            # the same set with a match starting here too
            again = moves.get((moved, -1, -1))
            if again is None:
                again = _number(program, program.kernel_sets[moved] | {initial})
                moves[(moved, -1, -1)] = again
            moved = again
        if not program.kernel_sets[moved]:
            return False  # anchored, and nothing is left that could match
        kernel = moved
    return False


def _number(program: Program, kernel: frozenset[Config]) -> int:
    known = program.kernels.get(kernel)
    if known is None:
        known = program.kernels[kernel] = len(program.kernel_sets)
        program.kernel_sets.append(kernel)
    return known


class _Run:
    """One match of one text: the lookaround verdicts it found, shared by its sub-simulations."""

    def __init__(self, program: Program, text: str, steps: Steps) -> None:
        self.text = text
        self.codes = [ord(c) for c in text]
        self.steps = steps
        self.looks: dict[tuple[int, int, int], bool] = {}
        self.ahead: dict[int, set[int]] = {}

    def matches(self, program: Program, begin: int, anchored: bool, end: int | None) -> bool:
        """Whether ``program`` matches from ``begin`` (or, unless ``anchored``, from any later
        position), ending anywhere, or exactly at ``end`` when it is given."""
        codes, steps = self.codes, self.steps
        stop = len(codes) if end is None else end
        initial: Config = (program.start, (0,) * program.counters, (-1,) * program.slots)
        pending: dict[int, set[Config]] = {begin: {initial}}
        pos = begin
        while pos <= stop:
            kernel = pending.pop(pos, set())
            if not anchored:
                kernel.add(initial)
            if not kernel:
                if not pending:
                    return False
                pos = min(pending)
                continue
            steps.spend(1)
            code = codes[pos] if pos < stop else -1
            for config in self.closure(program, kernel, pos, pending):
                if config is None:
                    if end is None or pos == end:
                        return True
                    continue
                op = program.ops[config[0]]
                if code >= 0 and code in op[1]:
                    pending.setdefault(pos + 1, set()).add((op[2], config[1], config[2]))
            pos += 1
        return False

    def closure(
        self, program: Program, kernel: set[Config], pos: int, pending: dict[int, set[Config]]
    ) -> list[Config | None]:
        """The configurations waiting on a character at ``pos`` (None for a match), following
        every zero-width instruction whose condition holds there; backreferences that consume
        text are put in ``pending`` at the position they reach."""
        codes, ops, steps = self.codes, program.ops, self.steps
        seen = set(kernel)
        todo = list(kernel)
        out: list[Config | None] = []
        while todo:
            config = todo.pop()
            pc, counters, caps = config
            op = ops[pc]
            kind = op[0]
            steps.spend(1)
            following: list[Config] = []
            if kind == CHAR:
                out.append(config)
            elif kind == MATCH:
                out.append(None)
            elif kind == SPLIT:
                targets: tuple[int, ...] = op[1]
                steps.spend(len(targets))
                following = [(t, counters, caps) for t in targets]
            elif kind == ASSERT:
                if self.holds(op[1], pos):
                    following = [(op[2], counters, caps)]
            elif kind == LOOK:
                if self.look(program, op[1], pos):
                    following = [(op[2], counters, caps)]
            elif kind == SAVE:
                slot: int = op[1]
                saved = caps[:slot] + (pos,) + caps[slot + 1 :]
                following = [(op[2], counters, saved)]
            elif kind == BACKREF:
                group: int = op[1]
                first, last = caps[2 * group], caps[2 * group + 1]
                if first >= 0 and last >= first:
                    size = last - first
                    steps.spend(size)
                    if codes[pos : pos + size] == codes[first:last]:
                        if size == 0:
                            following = [(op[2], counters, caps)]
                        else:
                            pending.setdefault(pos + size, set()).add((op[2], counters, caps))
            elif kind == ENTER:
                counter: int = op[1]
                reset = counters[:counter] + (0,) + counters[counter + 1 :]
                following = [(op[2], reset, caps)]
            else:  # LOOP
                _, counter, low, high, body, nxt = op
                count = counters[counter]
                if high is None or count < high:
                    more = count + 1 if high is not None else min(count + 1, low)
                    again = counters[:counter] + (more,) + counters[counter + 1 :]
                    following.append((body, again, caps))
                if count >= low:
                    done = counters[:counter] + (0,) + counters[counter + 1 :]
                    following.append((nxt, done, caps))
            for item in following:
                if item not in seen:
                    seen.add(item)
                    todo.append(item)
        return out

    def starts(self, program: Program) -> set[int]:
        """The positions a lookahead's body matches from, by one right-to-left simulation of its
        backward program over the whole text (so a lookahead costs (n + 1) * m steps in all, not
        at every position it is tried at); remembered for the rest of this match."""
        known = self.ahead.get(id(program))
        if known is not None:
            return known
        codes, steps = self.codes, self.steps
        initial: Config = (program.start, (0,) * program.counters, ())
        found: set[int] = set()
        kernel: set[Config] = set()
        for pos in range(len(codes), -1, -1):
            kernel.add(initial)
            steps.spend(1)
            moved: set[Config] = set()
            for config in self.closure(program, kernel, pos, {}):
                if config is None:
                    found.add(pos)
                elif pos > 0 and codes[pos - 1] in program.ops[config[0]][1]:
                    moved.add((program.ops[config[0]][2], config[1], config[2]))
            kernel = moved
        self.ahead[id(program)] = found
        return found

    def holds(self, kind: str, pos: int) -> bool:
        codes = self.codes
        if kind == "start":
            return pos == 0
        if kind == "end":
            return pos == len(codes)
        before = pos > 0 and codes[pos - 1] in WORD
        after = pos < len(codes) and codes[pos] in WORD
        return (before != after) == (kind == "word")

    def look(self, program: Program, index: int, pos: int) -> bool:
        key = (id(program), index, pos)
        known = self.looks.get(key)
        if known is None:
            body, ahead, negative, width = program.looks[index]
            backward = program.backward[index]
            if backward is not None:
                found = pos in self.starts(backward)
            elif ahead:
                found = self.matches(body, pos, True, None)
            elif width is not None:
                found = pos >= width and self.matches(body, pos - width, True, pos)
            else:
                found = any(self.matches(body, start, True, pos) for start in range(pos + 1))
            known = found != negative
            self.looks[key] = known
        return known
