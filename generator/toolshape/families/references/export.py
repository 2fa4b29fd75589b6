"""Each platform's lowering of ``$ref`` and ``$defs`` (platforms stage).

OpenAI strict mode and Anthropic strict tool use take references: a ``$ref`` to the root or
to an entry of ``$defs`` is kept as written, and ``$defs`` is lowered entry by entry. A
``$ref`` beside other keywords, or one into another place (which may not survive the
lowering), is inlined: replaced by a lowered copy of its target, merged with its siblings
(:func:`inlines` decides, :func:`inlined_target` folds the target; ``platforms/export.py``'s
fold merges it, as it merges ``allOf``). Gemini's legacy
parameters have no references at all: every ``$ref`` is inlined and ``$defs`` dropped, so a
recursive reference is refused; Anthropic refuses recursive schemas too
(:func:`recursive_refs`).

``platforms/export.py`` maps both keywords to :func:`lower` in its dispatch table (and
``$defs`` to :func:`merge`, when two nodes become one), asks
:func:`inlined_target` for the part a node's ``$ref`` adds when it folds the node (through
the ``Folding`` interface of ``platforms/lowering.py``), and :func:`recursive_refs` for
Anthropic's top-level refusals.

Inlining copies a definition at every place it is met, so a DAG of definitions (``d0`` refers
to ``d1`` twice, ``d1`` to ``d2`` twice...) doubles at every level: its export is a tree of
``2^depth`` copies. Two things keep that from becoming the generator's cost. The fold of a
target is made once and copied where it is met again (:func:`inlined_target`), and before
anything is inlined, :func:`inlined_sizes` counts what inlining would make (nodes, properties,
object nesting) over the DAG, once per node, so that the exporter refuses past a platform's
limits without building the tree (:data:`MAX_INLINED_NODES`).
"""

from __future__ import annotations

import copy
from typing import Any, NamedTuple

from ...platforms.lowering import Folding, KeywordAt, Lowering, merge_map
from ...schema import pointers, vocabulary
from ...schema.keywords import subschemas
from ...schema.pointers import SchemaPath
from ..annotations.rules import DEFAULT
from ..combinators.rules import ALL_OF
from ..objects import export as object_export
from ..values import export as value_export
from .targets import DEFS, REF, is_defs_entry

#: The keywords :func:`lower` lowers.
KEYWORDS = (REF, DEFS)
#: The keywords :func:`merge` merges: two nodes' definitions, entry by entry.
MERGED = (DEFS,)
#: The most schema nodes inlining $refs may add to an export, for every target that inlines
#: (OpenAI strict mode has limits of its own besides). A contract whose inlined export would
#: be larger than its own tree by more is refused by the target (Gemini's legacy parameters),
#: or gets strict mode off (OpenAI, Anthropic).
MAX_INLINED_NODES = 10_000
#: Annotations no platform gets: beside a $ref they do not make it a merge.
_SILENT = vocabulary.annotation_names(exported=False)


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """A kept ``$ref`` as written; ``$defs`` lowered entry by entry (Gemini: dropped, every
    ``$ref`` being inlined)."""
    if kw.keyword == REF:
        out[kw.keyword] = kw.value
    elif lowering.target != "gemini":
        out[kw.keyword] = {
            key: lowering.lower(sub, kw.where + (key,)) for key, sub in kw.value.items()
        }


def inlines(lowering: Lowering, root: Any, node: dict[str, Any]) -> bool:
    """Whether ``node``'s $ref is replaced by (a lowered copy of) its target."""
    if lowering.target == "gemini":
        return True
    siblings = [k for k in node if k != REF and not k.startswith("x-") and k not in _SILENT]
    if lowering.target == "openai" and DEFAULT in siblings:
        siblings.remove(DEFAULT)  # (left out for OpenAI strict mode: annotations/export.py)
    if siblings:
        return True  # $ref beside other keywords: merged into one schema
    target = pointers.typed(root, pointers.ref_path(node[REF]))
    # Keep references to the root and to $defs entries (which stay in the export);
    # references into other places may not survive the lowering.
    return not (target == () or is_defs_entry(target))


def inlined_target(
    lowering: Folding, node: dict[str, Any], path: SchemaPath
) -> list[tuple[dict[str, Any], SchemaPath]]:
    """The folded target of ``node``'s ``$ref``, with its path, to merge into ``node`` when the
    platform inlines the reference (taken out of ``node``, a copy); none when the reference is
    kept, or when inlining it would never end (refused, for the platforms that need it)."""
    if REF not in node or not inlines(lowering, lowering.root, node):
        return []
    ref = node.pop(REF)
    target = pointers.typed(lowering.root, pointers.ref_path(ref))
    if any(target == open_target[: len(target)] for open_target in lowering.stack):
        lowering.recursions += 1
        _refuse_recursion(lowering, ref, path)
        return []
    if target in lowering.inlined:  # folded once already: the same node (a copy)
        return [(_copy(lowering, lowering.inlined[target]), target)]
    lowering.stack.append(target)
    recursions = lowering.recursions
    target_schema = pointers.resolve(lowering.root, target)
    if isinstance(target_schema, bool):
        folded = lowering.lower_bool(target_schema, target)
        part = folded if isinstance(folded, dict) else {}
    else:
        part = lowering.fold(target_schema, target)
        # A target is folded at its own path, not at the place its $ref is met: what the fold
        # reports (findings, notes, the origins of its properties) is located in the target,
        # so it is the same wherever the target is met. The place reaches the fold only
        # through the stack of open targets, read by the recursion check alone: a fold that
        # met no recursion would meet none elsewhere (a recursion found only there would run
        # through this target, and so be met here too). Kept, a definition met twice at
        # every level of a DAG is folded once, not 2^depth times.
        if lowering.recursions == recursions:
            lowering.inlined[target] = _copy(lowering, part)
    lowering.stack.pop()
    return [(part, target)]


def _copy(lowering: Folding, part: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a folded target, its properties' origins copied with it (OpenAI strict
    mode asks the origin of a property whether the contract allows null there)."""
    copies: dict[int, Any] = {}
    copied = copy.deepcopy(part, copies)
    for original, duplicate in list(copies.items()):
        origin = lowering.origins.get(original)
        if origin is not None and isinstance(duplicate, dict):
            lowering.origins[id(duplicate)] = (duplicate, origin[1])
    return copied


class Size(NamedTuple):
    """What lowering one schema node would make, its $refs inlined, counted without making it
    (an upper bound where two merged nodes name one property twice, or a platform drops a
    keyword's subschemas). A named tuple, not a frozen dataclass: one is made for every node
    of every walk, and a tuple is made several times faster."""

    #: Schema nodes, and the properties the object schemas among them list.
    nodes: int
    properties: int
    #: Whether the node itself is an object level, and the object levels down from it
    #: (the node's own included), as OpenAI strict mode counts them.
    nests: bool
    depth: int


def inlined_sizes(lowering: Folding) -> tuple[Size, Size]:
    """The size of the export of ``lowering.root``, each $ref the platform inlines counted as a
    copy of its target; and the contract's own size (no $ref inlined).

    The second walk is made only where the first inlined some $ref: without one the two walks
    are the same walk (measured, with the quicker ``subschemas``: platform_definitions
    4.0 -> 3.5 ms per contract over the 40-contract set, none of which has a $ref). Where the
    walk met no $ref and no $defs, nothing in it depended on the target: the sizes are kept
    in ``lowering.shared_sizes``, which the lowerings of one contract share, and the other
    targets take them (measured: the walks 0.37 -> 0.15 ms per contract over the same set)."""
    shared = lowering.shared_sizes
    if _ANY_TARGET in shared:
        found: tuple[Size, Size] = shared[_ANY_TARGET]
        return found
    inlined, followed, any_target = _walk(lowering, inlining=True)
    sizes = inlined, (_walk(lowering, inlining=False)[0] if followed else inlined)
    if any_target:
        shared[_ANY_TARGET] = sizes
    return sizes


#: The key of the sizes every target shares in ``shared_sizes`` (see :func:`inlined_sizes`).
_ANY_TARGET = "sizes for any target"


def _walk(lowering: Folding, *, inlining: bool) -> tuple[Size, bool, bool]:
    """The size of the export of ``lowering.root``, each $ref the platform inlines counted as a
    copy of its target (``inlining=False``: counted as nothing, the contract's own size);
    whether some $ref was followed; and whether the walk met neither a $ref nor $defs, the
    only places where what it counts depends on the target.

    Each node is counted once, whatever number of places refer to it (a memo by path): the
    work is linear in the contract, though the count may be exponential. A $ref back into a
    target being counted is a recursion, refused by the lowering itself: counted as nothing."""
    root = lowering.root
    sizes: dict[SchemaPath, Size | None] = {}
    followed = False
    any_target = True

    def of_node(node: Any, path: SchemaPath) -> Size:
        if path in sizes:
            return sizes[path] or _NOTHING  # None: being counted (a recursion)
        sizes[path] = None
        sizes[path] = size = _counted(node, path)
        return size

    def _counted(node: Any, path: SchemaPath) -> Size:
        nonlocal followed, any_target
        if not isinstance(node, dict):
            return _LEAF
        types = value_export.types_of(node)
        nests = "object" in types or object_export.has_keys(node)
        own = Size(1, object_export.key_count(node), nests, int(nests))
        children = subschemas(node, path)
        if not children and not (inlining and REF in node):
            return own  # a leaf (most nodes): what _together makes of it alone
        merged = [own]
        below: list[Size] = []
        for sub, where in children:
            if where[len(path)] == ALL_OF:
                merged.append(of_node(sub, where))  # merged into the node, as the fold does
                continue
            if where[len(path)] == DEFS:
                any_target = False
            if not (where[len(path)] == DEFS and lowering.target == "gemini"):
                below.append(of_node(sub, where))  # (Gemini drops $defs)
        if isinstance(node.get(REF), str):
            any_target = False
        if inlining and isinstance(node.get(REF), str) and inlines(lowering, root, node):
            followed = True
            target = pointers.typed(root, pointers.ref_path(node[REF]))
            merged.append(of_node(pointers.resolve(root, target), target))
        return _together(merged, below)

    return of_node(root, ()), followed, any_target


#: What a recursion counts: nothing (the lowering refuses it).
_NOTHING = Size(0, 0, False, 0)
#: What a boolean schema counts: one node.
_LEAF = Size(1, 0, False, 0)


def _together(merged: list[Size], below: list[Size]) -> Size:
    """One node made of ``merged`` (a node, its inlined target, its allOf entries) above the
    subschemas ``below``. (One loop over each list: it runs for every node of every walk.)"""
    nodes = properties = deepest = 0
    nests = False
    for size in merged:
        nodes += size.nodes
        properties += size.properties
        nests = nests or size.nests
        deepest = max(deepest, size.depth - size.nests)
    for size in below:
        nodes += size.nodes
        properties += size.properties
        deepest = max(deepest, size.depth)
    # the merged nodes are one node of the export
    return Size(nodes - (len(merged) - 1), properties, nests, deepest + nests)


def _refuse_recursion(lowering: Lowering, ref: str, path: SchemaPath) -> None:
    """Inlining would never end. Gemini inlines every $ref; the strict modes only a $ref
    beside other keywords (Anthropic's recursion is reported up front)."""
    if lowering.target == "gemini":
        lowering.refuse(
            path + (REF,),
            f"this $ref ({ref}) is recursive; Gemini's legacy parameters have no $ref, "
            "definitions are inlined, and a recursive one cannot be "
            "(--target gemini, with parametersJsonSchema, takes it)",
        )
    elif lowering.target == "openai":
        lowering.refuse(
            path + (REF,),
            f"this $ref ({ref}) beside other keywords is recursive, and OpenAI strict mode needs such a $ref inlined",
        )


def recursive_refs(root: Any) -> list[SchemaPath]:
    """Paths of the ``$ref`` keywords that close a cycle of references."""
    found: list[SchemaPath] = []
    state: dict[SchemaPath, str] = {}

    def visit_target(target: SchemaPath) -> None:
        state[target] = "open"
        visit(pointers.resolve(root, target), target)
        state[target] = "done"

    def visit(node: Any, path: SchemaPath) -> None:
        for sub, where in subschemas(node, path):
            visit(sub, where)
        if isinstance(node, dict) and isinstance(node.get(REF), str):
            try:
                target = pointers.typed(root, pointers.ref_path(node[REF]))
            except (KeyError, IndexError, ValueError, TypeError):
                return
            inside = any(
                target == open_target[: len(target)]
                for open_target, s in state.items()
                if s == "open"
            )
            if inside:
                if path + (REF,) not in found:
                    found.append(path + (REF,))
            elif target not in state:
                visit_target(target)

    visit_target(())
    return found


def merge(
    lowering: Lowering, keyword: str, mine: Any, theirs: Any, where: SchemaPath, out: dict[str, Any]
) -> None:
    """Two nodes' ``$defs`` made one (a definition both hold: one schema for both)."""
    merge_map(lowering, keyword, mine, theirs, where, out)
