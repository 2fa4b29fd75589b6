"""Our syntax tree -> a nondeterministic automaton with JSON Schema's search semantics.

Thompson's construction over character sets, with zero-width assertions (``^ $ \\b \\B``) kept as
guarded epsilon edges so they stay exact. Two constructs are approximated from above, and the
automaton says so (``exact`` is False): a lookaround is read as "always passes", a backreference as
"any text the group could match". The witness search confirms every answer with ``re``, so an
approximation can only cost search time, never a wrong answer.

The pattern is wrapped for search semantics: any text may come before and after the match.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .charset import ANY, CharSet
from .syntax import Alt, Assert, Backref, Char, Empty, Group, Look, Node, Pattern, Repeat, Seq

#: Above this many states a pattern is not searched (the counted repeats multiply out).
MAX_STATES = 20000


class TooLarge(Exception):
    """The automaton would exceed MAX_STATES."""


@dataclass
class Nfa:
    """States are numbers; ``chars[s]`` lists (set id, target), ``eps[s]`` lists (guard, target)
    where the guard is None or an assertion kind ("start", "end", "word", "nonword")."""

    sets: list[CharSet] = field(default_factory=list)
    chars: list[list[tuple[int, int]]] = field(default_factory=list)
    eps: list[list[tuple[str | None, int]]] = field(default_factory=list)
    start: int = 0
    final: int = 0
    exact: bool = True
    uses_words: bool = False
    _set_ids: dict[CharSet, int] = field(default_factory=dict)

    def state(self) -> int:
        if len(self.chars) >= MAX_STATES:
            raise TooLarge()
        self.chars.append([])
        self.eps.append([])
        return len(self.chars) - 1

    def set_id(self, chars: CharSet) -> int:
        if chars not in self._set_ids:
            self._set_ids[chars] = len(self.sets)
            self.sets.append(chars)
        return self._set_ids[chars]


def build(pattern: Pattern, *, at_any_start: bool = True) -> Nfa:
    """The search automaton of ``pattern``: accepts exactly the strings ``re.search`` finds it in
    (when ``exact``), or a superset of them (when not). With ``at_any_start`` False, only strings
    with a match at position 0: a smaller automaton whose answers are still answers."""
    nfa = Nfa()
    groups = {group.index: group for group in pattern.groups}
    start, final = nfa.state(), nfa.state()
    nfa.start, nfa.final = start, final
    anything = nfa.set_id(ANY)
    if at_any_start:
        nfa.chars[start].append((anything, start))
    nfa.chars[final].append((anything, final))
    _fragment(nfa, pattern.root, start, final, groups)
    return nfa


def _fragment(
    nfa: Nfa, node: Node, entry: int, exit_: int, groups: dict[int | None, Group]
) -> None:
    """Add states and edges so that ``exit_`` is reached from ``entry`` over the strings ``node`` matches."""
    if isinstance(node, Char):
        nfa.chars[entry].append((nfa.set_id(node.chars), exit_))
    elif isinstance(node, Empty):
        nfa.eps[entry].append((None, exit_))
    elif isinstance(node, Seq):
        current = entry
        for i, item in enumerate(node.items):
            nxt = exit_ if i == len(node.items) - 1 else nfa.state()
            _fragment(nfa, item, current, nxt, groups)
            current = nxt
    elif isinstance(node, Alt):
        for option in node.options:
            _fragment(nfa, option, entry, exit_, groups)
    elif isinstance(node, Group):
        _fragment(nfa, node.body, entry, exit_, groups)
    elif isinstance(node, Assert):
        nfa.uses_words = nfa.uses_words or node.kind in ("word", "nonword")
        nfa.eps[entry].append((node.kind, exit_))
    elif isinstance(node, Look):
        nfa.exact = False
        nfa.eps[entry].append((None, exit_))
    elif isinstance(node, Backref):
        nfa.exact = False
        _fragment(nfa, groups[node.index].body, entry, exit_, groups)
    else:
        _repeat(nfa, node, entry, exit_, groups)


def _repeat(
    nfa: Nfa, node: Repeat, entry: int, exit_: int, groups: dict[int | None, Group]
) -> None:
    """``min`` copies in a row, then ``max - min`` optional ones, or a loop when unbounded."""
    current = entry
    for _ in range(node.min):
        nxt = nfa.state()
        _fragment(nfa, node.body, current, nxt, groups)
        current = nxt
    if node.max is None:
        loop = nfa.state()
        nfa.eps[current].append((None, loop))
        body_end = nfa.state()
        _fragment(nfa, node.body, loop, body_end, groups)
        nfa.eps[body_end].append((None, loop))
        nfa.eps[loop].append((None, exit_))
        return
    for _ in range(node.max - node.min):
        nfa.eps[current].append((None, exit_))
        nxt = nfa.state()
        _fragment(nfa, node.body, current, nxt, groups)
        current = nxt
    nfa.eps[current].append((None, exit_))


def closure(
    nfa: Nfa, states: frozenset[int], at_start: bool, at_end: bool, prev_word: bool, next_word: bool
) -> frozenset[int]:
    """The states reachable over epsilon edges whose assertions hold between the previous and next character."""
    holds = {
        None: True,
        "start": at_start,
        "end": at_end,
        "word": prev_word != next_word,
        "nonword": prev_word == next_word,
    }
    seen = set(states)
    todo = list(states)
    while todo:
        for guard, target in nfa.eps[todo.pop()]:
            if target not in seen and holds[guard]:
                seen.add(target)
                todo.append(target)
    return frozenset(seen)
