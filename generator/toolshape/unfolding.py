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
``allOf`` entries that are the same schema (:func:`distinct_entries`) are applied once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterator

from .pointers import ref_path, resolve

Path = tuple[str | int, ...]

#: The most subschema applications one value may cause through the keywords that apply
#: subschemas to the same value (README, "Security"). Ordinary contracts need tens.
MAX_APPLICATIONS = 10_000

#: Keywords whose subschema applies to the value itself (not to a child of it).
SAME_VALUE_ONE = ("not", "if", "then", "else")
SAME_VALUE_LISTS = ("allOf", "anyOf", "oneOf")
#: Keywords that hold subschemas for children of the value (walked, but no edge).
CHILD_ONE = ("items", "contains", "propertyNames", "additionalProperties")
CHILD_LISTS = ("prefixItems",)
CHILD_MAPS = ("properties", "patternProperties", "$defs")


@dataclass(frozen=True)
class Finding:
    """A problem at ``path`` (under ``parameters``)."""

    path: Path
    message: str


def distinct_entries(entries: list[Any]) -> list[int]:
    """The indexes of the entries of an ``allOf`` that are not the same schema as an earlier one.

    allOf is idempotent: a schema applied twice to one value finds the same errors twice.
    Equality is that of the JSON text with sorted keys, so ``true`` and ``1`` stay apart."""
    seen: set[str] = set()
    keep: list[int] = []
    for i, entry in enumerate(entries):
        try:
            key = json.dumps(entry, sort_keys=True, allow_nan=True)
        except (TypeError, ValueError):
            keep.append(i)
            continue
        if key not in seen:
            seen.add(key)
            keep.append(i)
    return keep


@dataclass(frozen=True)
class _Edge:
    """One application of a subschema to the same value."""

    site: Path  # the keyword's place: where a cycle through it is reported
    target: int  # id() of the subschema applied
    counted: bool  # False for an allOf entry equal to an earlier one (applied once)


class _Graph:
    """The schema nodes of one ``parameters`` tree and their same-value edges."""

    def __init__(self, root: Any) -> None:
        self.root = root
        self.paths: dict[int, Path] = {}  # id(node) -> its first place, in document order
        self.edges: dict[int, list[_Edge]] = {}
        self.order: list[int] = []
        self._keep: list[Any] = []  # the nodes, so that no id is reused while the graph lives
        self.add(root, ())

    def add(self, schema: Any, path: Path) -> None:
        """Walk the tree under ``schema`` (iteratively: nesting is bounded, ref chains are not)."""
        todo: list[tuple[Any, Path]] = [(schema, path)]
        while todo:
            node, where = todo.pop()
            if not isinstance(node, dict) or id(node) in self.paths:
                continue
            self.paths[id(node)] = where
            self.order.append(id(node))
            self._keep.append(node)
            children = list(_subschemas(node, where))
            self.edges[id(node)] = self._edges(node, where, children)
            todo.extend(reversed(children))

    def _edges(self, node: dict, where: Path, children: list[tuple[Any, Path]]) -> list[_Edge]:
        edges: list[_Edge] = []
        if isinstance(node.get("$ref"), str):
            target = self._target(node["$ref"])
            if target is not None:
                edges.append(_Edge(where + ("$ref",), id(target), True))
        by_path = {p: s for s, p in children}
        for keyword in SAME_VALUE_ONE:
            sub = by_path.get(where + (keyword,))
            if isinstance(sub, dict):
                edges.append(_Edge(where + (keyword,), id(sub), True))
        for keyword in SAME_VALUE_LISTS:
            entries = node.get(keyword)
            if not isinstance(entries, list):
                continue
            kept = set(distinct_entries(entries)) if keyword == "allOf" else set(range(len(entries)))
            for i, sub in enumerate(entries):
                if isinstance(sub, dict):
                    edges.append(_Edge(where + (keyword, i), id(sub), i in kept))
        dependent = node.get("dependentSchemas")
        if isinstance(dependent, dict):
            for key, sub in dependent.items():
                if isinstance(sub, dict):
                    edges.append(_Edge(where + ("dependentSchemas", key), id(sub), True))
        return edges

    def _target(self, ref: str) -> dict | None:
        """The schema a local $ref points at, walked if it lies outside the schema tree."""
        try:
            steps = ref_path(ref)
            target = resolve(self.root, steps)
        except (KeyError, IndexError, ValueError, TypeError):
            return None
        if not isinstance(target, dict):
            return None
        if id(target) not in self.paths:
            self.add(target, _canonical(self.root, steps))
        return target


def _subschemas(node: dict, where: Path) -> Iterator[tuple[Any, Path]]:
    """Every subschema directly under ``node``, with its place, in document order."""
    for keyword, value in node.items():
        if keyword in SAME_VALUE_ONE or keyword in CHILD_ONE:
            yield value, where + (keyword,)
        elif (keyword in SAME_VALUE_LISTS or keyword in CHILD_LISTS) and isinstance(value, list):
            for i, sub in enumerate(value):
                yield sub, where + (keyword, i)
        elif (keyword in CHILD_MAPS or keyword == "dependentSchemas") and isinstance(value, dict):
            for key, sub in value.items():
                yield sub, where + (keyword, key)


def _canonical(root: Any, steps: Path) -> Path:
    """A $ref's steps as a document path: list indexes as integers."""
    node, path = root, []
    for step in steps:
        if isinstance(node, list):
            step = int(step)
        path.append(step)
        node = node[step]
    return tuple(path)


def pointer(path: Path) -> str:
    """A place in ``parameters`` as a $ref would name it: ``#/$defs/a``."""
    return "#" + "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in path)


def check(parameters: Any) -> list[Finding]:
    """Cycles of same-value applications, and schemas past :data:`MAX_APPLICATIONS`."""
    graph = _Graph(parameters)
    findings: list[Finding] = []
    counts: dict[int, int] = {}
    state: dict[int, int] = {}  # 1: on the DFS stack, 2: done
    for start in list(graph.order):
        if start not in state:
            _visit(graph, start, state, counts, findings)
    if findings:  # counts along a cycle mean nothing
        return findings
    for node in graph.order:
        edges = [e for e in graph.edges[node] if e.counted]
        if counts[node] > MAX_APPLICATIONS and all(counts[e.target] <= MAX_APPLICATIONS for e in edges):
            findings.append(
                Finding(
                    graph.paths[node],
                    f"checking one value against this schema would apply more than {MAX_APPLICATIONS:,} "
                    "subschemas to it ($ref, allOf, anyOf, oneOf, not, if/then/else and dependentSchemas, "
                    "each counted every time it is reached): the limit keeps validation cost in proportion "
                    "to the contract's size; refer to a shared definition once instead of repeating it",
                )
            )
    return findings


def _visit(graph: _Graph, start: int, state: dict[int, int], counts: dict[int, int], findings: list[Finding]) -> None:
    """Depth-first from ``start``: report back edges (cycles), count applications on the way out."""
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


def _cycle(graph: _Graph, nodes: list[int], via: list[_Edge], closing: _Edge) -> Finding:
    """The finding for a cycle closed by ``closing``, reported at its first $ref."""
    first = nodes.index(closing.target)
    edges = via[first:] + [closing]
    loop = [pointer(graph.paths[n]) for n in nodes[first:]] + [pointer(graph.paths[closing.target])]
    site = next((e.site for e in edges if e.site[-1:] == ("$ref",)), closing.site)
    return Finding(
        site,
        "this $ref makes a cycle that never moves to a child value ("
        + " -> ".join(loop)
        + "): checking any value would recurse forever; a recursive schema must go through "
        "properties, items or another keyword that descends into the value",
    )
