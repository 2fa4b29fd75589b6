"""How a schema unfolds on one value: cycles that never descend, and fan-out past a bound.

Keywords such as ``$ref``, ``allOf``, ``anyOf``, ``oneOf``, ``not``, ``if``/``then``/``else``
and ``dependentSchemas`` apply subschemas to the *same* value. Through ``$ref`` they form a
graph that can loop without ever moving to a child value (``a -> b -> a``): checking any
value would then recurse forever. And even without a loop, a contract of a few hundred
bytes can make that graph unfold exponentially (``d_i: {allOf: [{$ref: d_(i-1)}, {$ref:
d_(i-1), title: x}]}``): the generated validator would call a function 2^n times per value.

Both are found here statically, in time linear in the contract's size: every schema node
is visited once and the number of applications it causes is counted once per node
(memoised over the graph, which is acyclic once cycles are refused). The count is what the
generated code does: a ``$ref`` target is one function, called once per reference reached;
``allOf`` entries that are the same schema (``families/combinators/rules.py``) are applied once.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..families.combinators import rules as combinator_rules
from ..families.references import targets
from ..regex import PatternError
from ..regex.matcher import OutOfSteps
from ..regex.matcher import search as pattern_search
from ..schema import vocabulary
from ..schema.children import held, named, reaching
from ..schema.graphs import strongly_connected
from ..schema.pointers import SchemaPath, ref_path, resolve
from ..schema.pointers import pointer as json_pointer

#: The most subschema applications one value may cause through the keywords that apply
#: subschemas to the same value (README, "Security"). Ordinary contracts need tens.
MAX_APPLICATIONS = 10_000

#: The longest chain of same-value applications ($ref to $ref to ...): each link is a nested
#: Python call in the validator and the reference evaluator, so it bounds their stack depth.
MAX_CHAIN = 100

#: The most applications the whole schema may unfold to, each schema applied to a child value
#: (and the root) counted with everything it applies to that value.
MAX_UNFOLDED = 100_000
#: The steps the check for doubling recursion may take (a deterministic bound on its own cost).
MAX_GROWTH_STEPS = 2_000_000

#: Keywords whose subschema applies to the value itself (not to a child of it).
SAME_VALUE_ONE = vocabulary.holders("one", "same value")
SAME_VALUE_LISTS = vocabulary.holders("list", "same value")
#: Keywords whose map's entries apply to the value itself (each when its key is present).
SAME_VALUE_MAPS = vocabulary.holders("map", "same value")
#: Every keyword holding subschemas, by shape: those for the value, for its children, and
#: definitions (all walked; only the first make edges).
_ONE, _LISTS, _MAPS = (vocabulary.holders(shape) for shape in ("one", "list", "map"))


@dataclass(frozen=True)
class UnfoldingFinding:
    """A problem at ``path`` (under ``parameters``)."""

    path: SchemaPath
    message: str


@dataclass(frozen=True)
class _Edge:
    """One application of a subschema to the same value."""

    site: SchemaPath  # the keyword's place: where a cycle through it is reported
    target: int  # id() of the subschema applied
    counted: bool  # False for an allOf entry equal to an earlier one (applied once)


#: Keywords whose subschemas apply to a child of the value (an item, a key's value, a key).
DESCENDING = vocabulary.names(lambda k: k.implemented and k.applies == "children")

#: Which children a descending keyword reaches: ("key", name or None, names left out),
#: ("item", index or None, first index), ("name",) for propertyNames (the keys themselves).
Label = tuple[Any, ...]

#: The alternatives chosen on one way through the same-value graph: (the node holding them,
#: the keyword, the one taken): an ``if``'s branch taken, a decisive tagged union's
#: index. Two applications under two different alternatives of one node never both run
#: (for a union: on an object, so only for the keys of one).
Choices = frozenset[tuple[int, str, str]]
#: The keyword part of an ``if``'s choice (the branch it takes).
_IF = "/".join(combinator_rules.BRANCHES)
#: The labels of descents that reach a key of an object (or the key itself).
_KEYED = ("key", "name")
#: The unions: the lists of subschemas of which those that pass on a value count for it.
_UNIONS = tuple(k for k in vocabulary.collecting("passing") if k in SAME_VALUE_LISTS)


@dataclass(frozen=True)
class _Descent:
    """One application of a subschema to a child of the value."""

    site: SchemaPath
    target: int
    label: Label


def _label(node: dict[str, Any], steps: SchemaPath) -> Label:
    """The children the descending keyword at ``steps`` (under ``node``) reaches, by what the
    vocabulary says it reaches."""
    reached = vocabulary.keyword(str(steps[0])).children
    if reached == "named keys":
        return ("key", steps[1], frozenset())
    if reached == "matching keys":
        return ("key", None, frozenset(), steps[1])
    if reached == "other keys":
        return ("key", None, frozenset(named(node)))
    if reached == "prefix":
        return ("item", steps[1], 0)
    if reached == "other items":
        return ("item", None, len(reaching(node, "prefix")))
    if reached == "matching items":
        return ("item", None, 0)
    return ("name",)


def _may_meet(a: Label, b: Label) -> bool:
    """Whether two descending keywords can reach the same child (over-approximated: a pattern may match any key)."""
    if a[0] != b[0]:
        return False
    if a[0] == "name":
        return True
    if a[1] is not None and b[1] is not None:
        return bool(a[1] == b[1])
    if a[0] == "key":
        return _key_fits(a[1], b) and _key_fits(b[1], a)
    return (a[1] is None or a[1] >= b[2]) and (b[1] is None or b[1] >= a[2])


def _key_fits(key: str | None, label: Label) -> bool:
    """Whether a key (None: any) may be one the key label reaches: not a key it leaves out, and
    matching its pattern (a pattern that cannot be compiled here is assumed to match)."""
    if key is None:
        return True
    if key in label[2]:
        return False
    if len(label) < 4:
        return True
    try:
        return pattern_search(label[3], key)
    except (PatternError, OutOfSteps, RecursionError):
        return True  # as if it matched: the analysis errs on the side of refusing


class _Graph:
    """The schema nodes of one ``parameters`` tree and their same-value edges."""

    def __init__(self, root: Any, tagged: bool = True) -> None:
        self.root = root
        #: Whether decisive tagged unions count as alternatives (see :func:`check`).
        self.tagged = tagged
        #: (id(node), keyword) of each union whose tag decides every object (rules.Tag).
        self.decisive: set[tuple[int, str]] = set()
        self.paths: dict[int, SchemaPath] = {}  # id(node) -> its first place, in document order
        self.edges: dict[int, list[_Edge]] = {}
        self.descents: dict[int, list[_Descent]] = {}
        self.order: list[int] = []
        self.position: dict[int, int] = {}  # id(node) -> its index in order
        self._keep: list[Any] = []  # the nodes, so that no id is reused while the graph lives
        self._todo: list[tuple[Any, SchemaPath]] = []
        self.add(root, ())

    def add(self, schema: Any, path: SchemaPath) -> None:
        """Walk the tree under ``schema`` (iteratively: nesting is bounded, ref chains are not).

        A $ref target met on the way is walked in the same loop (``_target`` queues it)."""
        todo = self._todo = [(schema, path)]
        while todo:
            node, where = todo.pop()
            if not isinstance(node, dict) or id(node) in self.paths:
                continue
            self.paths[id(node)] = where
            self.position[id(node)] = len(self.order)
            self.order.append(id(node))
            self._keep.append(node)
            children = list(_subschemas(node, where))
            self.edges[id(node)] = self._edges(node, where, children)
            self.descents[id(node)] = [
                _Descent(path, id(sub), _label(node, path[len(where) :]))
                for sub, path in children
                if isinstance(sub, dict) and path[len(where)] in DESCENDING
            ]
            todo.extend(reversed(children))

    def _edges(
        self, node: dict[str, Any], where: SchemaPath, children: list[tuple[Any, SchemaPath]]
    ) -> list[_Edge]:
        edges: list[_Edge] = []
        ref = targets.ref_of(node)
        if ref is not None:
            target = self._target(ref)
            if target is not None:
                edges.append(_Edge(where + (targets.REF,), id(target), True))
        by_path = {p: s for s, p in children}
        for keyword in SAME_VALUE_ONE:
            sub = by_path.get(where + (keyword,))
            if isinstance(sub, dict):
                edges.append(_Edge(where + (keyword,), id(sub), True))
        for keyword in SAME_VALUE_LISTS:
            entries = node.get(keyword)
            if not isinstance(entries, list):
                continue
            kept = combinator_rules.applied_entries(keyword, entries)
            if self.tagged and keyword in _UNIONS:
                tag = combinator_rules.union_tag(
                    self.root, entries, where + (keyword,), lambda _: False
                )
                if tag is not None and tag.decisive:
                    self.decisive.add((id(node), keyword))
            for i, sub in enumerate(entries):
                if isinstance(sub, dict):
                    edges.append(_Edge(where + (keyword, i), id(sub), i in kept))
        for keyword in SAME_VALUE_MAPS:
            for sub, steps in held(node, keyword):
                if isinstance(sub, dict):
                    edges.append(_Edge(where + steps, id(sub), True))
        return edges

    def choice(self, node: int, edge: _Edge) -> Choices:
        """The alternative ``edge`` takes from ``node``, when it is one of alternatives that
        never run together (:data:`Choices`); else nothing."""
        where, site = self.paths[node], edge.site
        # The keywords from the node to the subschema ($ref's edge from the root is one).
        step = site[len(where) :] if site[: len(where)] == where else ()
        if len(step) == 1 and step[0] in combinator_rules.BRANCHES:
            return frozenset([(node, _IF, str(step[0]))])
        if len(step) == 2 and (node, str(step[0])) in self.decisive:
            return frozenset([(node, str(step[0]), str(step[1]))])
        return frozenset()

    def _target(self, ref: str) -> dict[str, Any] | None:
        """The schema a local $ref points at, walked if it lies outside the schema tree."""
        try:
            steps = ref_path(ref)
            target = resolve(self.root, steps)
        except (KeyError, IndexError, ValueError, TypeError):
            return None
        if not isinstance(target, dict):
            return None
        if id(target) not in self.paths:
            self._todo.append((target, _canonical(self.root, steps)))
        return target


def _subschemas(node: dict[str, Any], where: SchemaPath) -> Iterator[tuple[Any, SchemaPath]]:
    """Every subschema directly under ``node``, with its place, in document order."""
    for keyword, value in node.items():
        if keyword in _ONE:
            yield value, where + (keyword,)
        elif keyword in _LISTS and isinstance(value, list):
            for i, sub in enumerate(value):
                yield sub, where + (keyword, i)
        elif keyword in _MAPS and isinstance(value, dict):
            for key, sub in value.items():
                yield sub, where + (keyword, key)


def _canonical(root: Any, steps: SchemaPath) -> SchemaPath:
    """A $ref's steps as a document path: list indexes as integers."""
    node, path = root, []
    for step in steps:
        if isinstance(node, list):
            step = int(step)
        path.append(step)
        node = node[step]
    return tuple(path)


def pointer(path: SchemaPath) -> str:
    """A place in ``parameters`` as a $ref would name it: ``#/$defs/a``."""
    return "#" + json_pointer(path)


def check(parameters: Any, tagged: bool = True) -> list[UnfoldingFinding]:
    """Cycles of same-value applications; schemas past :data:`MAX_APPLICATIONS` on one value;
    a schema past :data:`MAX_UNFOLDED` in all; recursion whose work doubles at each level.

    ``tagged``: whether the generated code tells decisive tagged unions apart by their tag,
    as it does unless an x-sensitive schema may hide a tag (then every union counts as
    trying all its alternatives)."""
    graph = _Graph(parameters, tagged)
    findings: list[UnfoldingFinding] = []
    counts: dict[int, int] = {}
    depths: dict[int, int] = {}
    state: dict[int, int] = {}  # 1: on the DFS stack, 2: done
    for start in list(graph.order):
        if start not in state:
            _visit(graph, start, state, counts, depths, findings)
    if findings:  # counts along a cycle mean nothing
        return findings
    findings.extend(_over_the_bound(graph, counts))
    findings.extend(_too_deep(graph, depths))
    if not findings:
        findings.extend(_unfolded_total(graph, counts))
    if not findings:
        findings.extend(_growth(graph))
    return findings


def _over_the_bound(graph: _Graph, counts: dict[int, int]) -> list[UnfoldingFinding]:
    """The schemas that apply more than MAX_APPLICATIONS subschemas to one value (where it is first passed)."""
    findings = []
    for node in graph.order:
        edges = [e for e in graph.edges[node] if e.counted]
        if counts[node] > MAX_APPLICATIONS and all(
            counts[e.target] <= MAX_APPLICATIONS for e in edges
        ):
            findings.append(
                UnfoldingFinding(
                    graph.paths[node],
                    f"checking one value against this schema would apply more than {MAX_APPLICATIONS:,} "
                    "subschemas to it ($ref, allOf, anyOf, oneOf, not, if/then/else and dependentSchemas, "
                    "each counted every time it is reached): the limit keeps validation cost in proportion "
                    "to the contract's size; refer to a shared definition once instead of repeating it",
                )
            )
    return findings


def _too_deep(graph: _Graph, depths: dict[int, int]) -> list[UnfoldingFinding]:
    """The schemas that start a chain of more than MAX_CHAIN same-value applications (where first)."""
    findings = []
    for node in graph.order:
        if depths[node] > MAX_CHAIN and all(
            depths[e.target] <= MAX_CHAIN for e in graph.edges[node] if e.counted
        ):
            findings.append(
                UnfoldingFinding(
                    graph.paths[node],
                    f"this schema starts a chain of more than {MAX_CHAIN} schemas applied to the same value "
                    "($ref to $ref, allOf inside allOf, ...): each link is a nested call when a value is "
                    "checked; shorten the chain",
                )
            )
    return findings


def _entries(graph: _Graph) -> list[int]:
    """The root and every schema applied to a child value: where same-value unfolding starts."""
    found = dict.fromkeys([id(graph.root)] if isinstance(graph.root, dict) else [])
    for node in graph.order:
        for descent in graph.descents[node]:
            found[descent.target] = None
    return list(found)


def _unfolded_total(graph: _Graph, counts: dict[int, int]) -> list[UnfoldingFinding]:
    """The whole schema unfolded once (every entry with all it applies) must stay under MAX_UNFOLDED.

    5,000 properties that each refer to a definition applying 10,000 subschemas would make
    every valid instance cost 50 million applications, however small the contract."""
    total = sum(counts.get(entry, 1) for entry in _entries(graph))
    if total <= MAX_UNFOLDED:
        return []
    return [
        UnfoldingFinding(
            (),
            f"unfolded, this schema applies {total:,} subschemas to the values of one instance that has every "
            f"key and item it describes (each $ref counted where it is reached); the limit is {MAX_UNFOLDED:,}: "
            "validation cost must stay in proportion to the contract's size",
        )
    ]


def _growth(graph: _Graph) -> list[UnfoldingFinding]:
    """Recursion where one child value is reached twice on the way back to the same schema.

    If, from a schema, two applications reach the same child value and both lead back to
    that schema, the work doubles with each level of nesting of the value: 2^n for a value
    n levels deep (``allOf: [{properties: {a: {$ref: '#'}}}, {properties: {a: {$ref: '#'}}}]``).
    Every such recursion has a first point where its two paths part (same schema, two
    descending keywords that may meet), so looking for that point inside each strongly
    connected part of the graph finds them all; a pattern is assumed to match any key, and
    only the ``then`` and ``else`` of one ``if`` are known never to run together.

    The work is bounded (MAX_GROWTH_STEPS, counted, not timed): past it, the contract is refused."""
    findings = []
    budget = [MAX_GROWTH_STEPS]
    for part in _strongly_connected(graph):
        inside = set(part)
        internal = {n: [d for d in graph.descents[n] if d.target in inside] for n in part}
        internal = {n: found for n, found in internal.items() if found}
        done: set[tuple[tuple[int, int, Choices], ...]] = set()
        for start in dict.fromkeys(d.target for n in part for d in internal.get(n, ())):
            paths = _paths_from(graph, start, inside)
            budget[0] -= len(paths)
            relevant = tuple(
                (n, number, branches) for n, (number, branches) in paths.items() if n in internal
            )
            if relevant in done:
                continue  # the same unfolding as from an earlier start (say, many properties with one $ref)
            done.add(relevant)
            clash = _parting(relevant, internal, budget)
            if budget[0] < 0:
                findings.append(
                    UnfoldingFinding(
                        graph.paths[part[0]],
                        f"this recursive schema is too entangled to show that checking a nested value costs "
                        f"in proportion to its size (more than {MAX_GROWTH_STEPS:,} steps); simplify it",
                    )
                )
                return findings
            if clash is not None:
                findings.append(_doubling(graph, start, *clash))
                break  # one finding for each recursive part
    return findings


def _doubling(graph: _Graph, start: int, first: _Descent, second: _Descent) -> UnfoldingFinding:
    where = pointer(graph.paths[start])
    twice = (
        f"twice against {pointer(first.site)}"
        if first is second
        else (f"against both {pointer(first.site)} and {pointer(second.site)}")
    )
    return UnfoldingFinding(
        second.site,
        f"a value checked against {where} has one child value checked {twice}, and each leads back to {where}: "
        "the work would double with every level the value nests (2^n for n levels); check that child with "
        "one schema, or tell the alternatives apart with if/then/else, or by a key each of them requires "
        "and fixes to a constant of its own (a tagged union)",
    )


def _parting(
    relevant: tuple[tuple[int, int, Choices], ...],
    internal: dict[int, list[_Descent]],
    budget: list[int],
) -> tuple[_Descent, _Descent] | None:
    """Two descending applications in one unfolding that may reach one child value and both stay
    in the recursive part (not under the ``then`` and ``else`` of one ``if``); or one applied twice."""
    exact: dict[tuple[Any, Any], list[tuple[_Descent, Choices]]] = {}
    loose: dict[Any, list[tuple[_Descent, Choices]]] = {}  # wildcards and propertyNames, by kind
    for node, number, branches in relevant:
        for descent in internal[node]:
            if number > 1:
                return descent, descent
            kind, which = descent.label[0], descent.label[1] if len(descent.label) > 1 else None
            if which is None:  # may meet anything of its kind
                others = list(loose.get(kind, ())) + [
                    e for key, found in exact.items() if key[0] == kind for e in found
                ]
            else:
                others = list(exact.get((kind, which), ())) + list(loose.get(kind, ()))
            budget[0] -= len(others) + 1
            if budget[0] < 0:
                return None
            for other, other_branches in others:
                keyed = descent.label[0] in _KEYED and other.label[0] in _KEYED
                if _may_meet(other.label, descent.label) and not _exclusive(
                    branches, other_branches, keyed
                ):
                    return other, descent
            entry = (descent, branches)
            (
                loose.setdefault(kind, []) if which is None else exact.setdefault((kind, which), [])
            ).append(entry)
    return None


def _exclusive(a: Choices, b: Choices, keyed: bool) -> bool:
    """Whether two applications sit under two alternatives that never both run: the ``then``
    and the ``else`` of one ``if``; for two that reach a key of an object (``keyed``), two
    alternatives of a decisive tagged union (only the one an object's tag picks runs on it).
    One way takes one alternative of each node, so a node and keyword found on both ways
    with another alternative on the other is such a pair."""
    taken = {(node, keyword) for node, keyword, _ in b}
    return any(
        (node, keyword) in taken and (node, keyword, choice) not in b and (keyed or keyword == _IF)
        for node, keyword, choice in a
    )


def _paths_from(graph: _Graph, start: int, inside: set[int]) -> dict[int, tuple[int, Choices]]:
    """For each node reached from ``start`` by same-value applications inside ``inside``: how many
    ways (1, or 2 for "more than one"), and for a node reached one way, the alternatives chosen
    on that way (:data:`Choices`); in document order. The same-value graph has no cycle here."""
    order: list[int] = []
    seen: set[int] = {start}
    stack = [(start, iter(graph.edges[start]))]
    while stack:  # post-order, iteratively: $ref chains can be long
        node, edges = stack[-1]
        for edge in edges:
            if edge.counted and edge.target in inside and edge.target not in seen:
                seen.add(edge.target)
                stack.append((edge.target, iter(graph.edges[edge.target])))
                break
        else:
            stack.pop()
            order.append(node)
    ways = dict.fromkeys(order, 0)
    branches: dict[int, Choices] = {start: frozenset()}
    ways[start] = 1
    for node in reversed(order):  # reverse post-order: every node after all that apply it
        for edge in graph.edges[node]:
            if edge.counted and edge.target in ways:
                ways[edge.target] = min(2, ways[edge.target] + ways[node])
                step = graph.choice(node, edge)
                # Reached two ways: no branch is certain (the check stays on the safe side).
                branches[edge.target] = (
                    branches.get(node, frozenset()) | step
                    if ways[edge.target] == 1
                    else frozenset()
                )
    return {
        node: (ways[node], branches.get(node, frozenset()))
        for node in sorted(ways, key=graph.position.__getitem__)
    }


def _strongly_connected(graph: _Graph) -> list[list[int]]:
    """The strongly connected parts of the graph of all applications (same-value and descending)
    that hold a descending application inside them: the recursive parts."""

    def successors(node: int) -> list[int]:
        return [e.target for e in graph.edges[node] if e.counted] + [
            d.target for d in graph.descents[node]
        ]

    parts = []
    for part in strongly_connected(graph.order, successors):
        members = set(part)
        if any(d.target in members for n in part for d in graph.descents[n]):
            parts.append(sorted(part, key=graph.position.__getitem__))
    return parts


def _visit(
    graph: _Graph,
    start: int,
    state: dict[int, int],
    counts: dict[int, int],
    depths: dict[int, int],
    findings: list[UnfoldingFinding],
) -> None:
    """Depth-first from ``start``: report back edges (cycles); on the way out, count the applications
    each node makes on one value and the longest chain of them."""
    stack: list[tuple[int, Iterator[_Edge]]] = [(start, iter(graph.edges[start]))]
    via: list[_Edge] = []  # the edge that led to each stack entry after the first
    state[start] = 1
    while stack:
        node, edges = stack[-1]
        for edge in edges:
            seen = state.get(edge.target)
            if seen is None:
                state[edge.target] = 1
                stack.append((edge.target, iter(graph.edges[edge.target])))
                via.append(edge)
                break
            if seen == 1:
                findings.append(_cycle(graph, [n for n, _ in stack], via, edge))
        else:
            stack.pop()
            if via:
                via.pop()
            state[node] = 2
            total = 1 + sum(counts.get(e.target, 0) for e in graph.edges[node] if e.counted)
            counts[node] = min(total, MAX_APPLICATIONS + 1)
            deepest = max(
                (depths.get(e.target, 0) for e in graph.edges[node] if e.counted), default=0
            )
            depths[node] = min(1 + deepest, MAX_CHAIN + 1)


def _cycle(graph: _Graph, nodes: list[int], via: list[_Edge], closing: _Edge) -> UnfoldingFinding:
    """The finding for a cycle closed by ``closing``, reported at its first $ref."""
    first = nodes.index(closing.target)
    edges = via[first:] + [closing]
    loop = [pointer(graph.paths[n]) for n in nodes[first:]] + [pointer(graph.paths[closing.target])]
    site = next((e.site for e in edges if e.site[-1:] == (targets.REF,)), closing.site)
    return UnfoldingFinding(
        site,
        "this $ref makes a cycle that never moves to a child value ("
        + " -> ".join(loop)
        + "): checking any value would recurse forever; a recursive schema must go through "
        "properties, items or another keyword that descends into the value",
    )
