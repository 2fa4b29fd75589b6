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
"""

from __future__ import annotations

import copy
from typing import Any

from ...platforms.lowering import Folding, KeywordAt, Lowering, merge_map
from ...schema import pointers, vocabulary
from ...schema.keywords import subschemas
from ...schema.pointers import SchemaPath
from ..annotations.rules import DEFAULT
from .targets import DEFS, REF, is_defs_entry

#: The keywords :func:`lower` lowers.
KEYWORDS = (REF, DEFS)
#: The keywords :func:`merge` merges: two nodes' definitions, entry by entry.
MERGED = (DEFS,)
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
        _refuse_recursion(lowering, ref, path)
        return []
    if target in lowering.inlined:  # folded once already: the same node (a copy)
        return [(copy.deepcopy(lowering.inlined[target]), target)]
    lowering.stack.append(target)
    target_schema = pointers.resolve(lowering.root, target)
    if isinstance(target_schema, bool):
        folded = lowering.lower_bool(target_schema, target)
        part = folded if isinstance(folded, dict) else {}
    else:
        part = lowering.fold(target_schema, target)
        if lowering.target == "gemini":
            # Gemini's legacy parameters inline every $ref: a definition met twice (an allOf
            # of two $refs to one, at every level) would be folded 2^depth times; its fold
            # does not depend on where it is met (a recursion through it is found the first
            # time, and refused).
            lowering.inlined[target] = copy.deepcopy(part)
    lowering.stack.pop()
    return [(part, target)]


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
