"""What a keyword's lowering gets from the exporter: the keyword where it was met, and the
lowering it reports to.

``platforms/export.py`` lowers a contract schema for a platform keyword by keyword, through a
dispatch table from each keyword to the function that lowers it (its own methods, and the
families' ``export.lower``: ``families/numbers/export.py``, ``families/arrays/export.py``,
``families/objects/export.py``). Each such function takes the :class:`Lowering` (which
platform, and where to note what the platform does not get), the :class:`KeywordAt` and the
lowered node to fill, the way Ajv's code generator hands a keyword definition its
``KeywordCxt``. A ``$ref`` the platform inlines sees more of it, the :class:`Folding`
(``families/references/export.py``).

A bound the platform does not enforce is never only dropped: the model is told it in the
description of the node that held it, in a fixed form, one phrase per keyword (``(at most 64
characters)``, ``(a multiple of 5)``), each phrase written by the keyword's family. A family's
lowering hands the phrase to :func:`tell_model`; the exporter writes the node's phrases into
its description when it finishes the node (:func:`described`), so phrases met in a ``$ref``
target or an ``allOf`` branch merged into the node are kept too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..families.annotations.rules import DESCRIPTION
from ..schema.pointers import SchemaPath

#: Where a lowered node keeps, until it is finished, the phrases its description will carry
#: (an ``x-`` key: the lowering never copies a contract's own ``x-`` keywords, so it is ours).
UNENFORCED = "x-toolshape-unenforced"


@dataclass(frozen=True)
class KeywordAt:
    """One keyword of a contract schema node, met by the exporter's walk."""

    keyword: str
    value: Any
    #: The node holding it (some keywords are lowered with their siblings) and its path.
    node: dict[str, Any]
    path: SchemaPath

    @property
    def where(self) -> SchemaPath:
        """The keyword's own path (its subschemas' paths start here)."""
        return self.path + (self.keyword,)


class Lowering(Protocol):
    """The exporter's lowering of one contract, as a keyword's lowering sees it."""

    #: The rules lowered for: "openai" (strict mode), "anthropic" (strict tool use) or "gemini".
    target: str
    #: The platform's name in messages ("OpenAI strict mode").
    platform: str
    #: Each lowered property's schema (by id) and the contract path it was lowered from.
    origins: dict[int, tuple[Any, SchemaPath]]

    def dropped(
        self, path: SchemaPath, keyword: str, detail: str = "", *, value: Any = None
    ) -> None:
        """Note a constraint the export leaves out (``value``: shown as 'keyword: value')."""

    def loosened(self, path: SchemaPath, message: str) -> None:
        """Note a constraint the export makes looser (``message`` says how)."""

    def refuse(self, path: SchemaPath, message: str) -> None:
        """Note what the platform refuses (its strict mode; Gemini: the whole tool)."""

    def closed(self, path: SchemaPath) -> None:
        """Note an open object the strict export closes (``additionalProperties: false`` added)."""

    def lower(self, schema: Any, path: SchemaPath) -> Any:
        """A subschema at ``path`` lowered for the platform (a keyword holding schemas)."""

    def finish(self, node: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
        """A node the keyword made up itself, finished as every lowered node is."""

    def merge_schemas(self, a: Any, b: Any, where: SchemaPath) -> Any:
        """One lowered schema for ``a`` AND ``b`` (a subschema of two merged nodes)."""


class Folding(Lowering, Protocol):
    """The exporter's lowering as the inlining of a ``$ref`` sees it: the target is folded
    (lowered, its own ``$ref`` and ``allOf`` merged in) and merged into the node referring to
    it (``families/references/export.py``)."""

    #: The contract's parameters, which every reference resolves in.
    root: Any
    #: Targets of the $refs being inlined (the root counts: a "#" reference recurses).
    stack: list[SchemaPath]
    #: Each $ref target's fold, by its path (kept where it does not depend on the place).
    inlined: dict[SchemaPath, dict[str, Any]]
    #: The recursions met so far (a fold that met one is not kept).
    recursions: int
    #: What the lowerings of one contract share of their size walks (one dict for them all:
    #: ``families/references/export.py``'s inlined_sizes).
    shared_sizes: dict[str, Any]

    def fold(self, schema: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
        """One node in the platform's spelling, its $ref and allOf merged in (not finished)."""

    def lower_bool(self, schema: bool, path: SchemaPath) -> Any:
        """A boolean schema at ``path`` in the platform's spelling."""


#: How two values of one keyword merge when two nodes become one (a ``$ref`` beside keywords,
#: ``allOf``): ``merge(lowering, keyword, mine, theirs, where, out)`` puts the merged value in
#: ``out`` (which holds ``mine``), or notes what the platform gets less of. Each family's
#: ``export.merge``; the exporter keeps a dispatch table from keyword to it.
Merge = Callable[[Lowering, str, Any, Any, SchemaPath, dict[str, Any]], None]
#: Why a keyword is dropped when two nodes hold it with values that do not merge.
CANNOT_MERGE = "it cannot be merged with the same keyword beside it"


def merge_map(
    lowering: Lowering, keyword: str, mine: Any, theirs: Any, where: SchemaPath, out: dict[str, Any]
) -> None:
    """A map of schemas merged entry by entry: an entry both hold is one schema for both."""
    merged = dict(mine)
    for name, sub in theirs.items():
        merged[name] = (
            lowering.merge_schemas(merged[name], sub, where + (keyword, name))
            if name in merged
            else sub
        )
    out[keyword] = merged


def merge_listed(
    lowering: Lowering, keyword: str, mine: Any, theirs: Any, where: SchemaPath, out: dict[str, Any]
) -> None:
    """A list of names merged: mine, then those only theirs names."""
    out[keyword] = list(mine) + [k for k in theirs if k not in mine]


def tell_model(out: dict[str, Any], phrase: str) -> None:
    """Have the finished node's description say ``phrase`` (a bound the platform drops)."""
    told = out.get(UNENFORCED, [])
    if phrase not in told:
        out[UNENFORCED] = [*told, phrase]  # a new list: merged nodes may share the old one


def described(node: dict[str, Any]) -> dict[str, Any]:
    """``node`` with its phrases (see :func:`tell_model`) appended to its description, each in
    parentheses: ``City name (at most 64 characters) (matching ^\\S)``."""
    if UNENFORCED not in node:
        return node
    node = dict(node)
    told = " ".join(f"({phrase})" for phrase in node.pop(UNENFORCED))
    own = node.get(DESCRIPTION)
    node[DESCRIPTION] = f"{own} {told}" if isinstance(own, str) and own else told
    return node


def shown(value: Any) -> str:
    """A keyword's value as a phrase shows it: JSON's spelling (``0.01``, ``true``), strings bare."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def counted(count: Any, one: str, many: str) -> str:
    """``1 character``, ``64 characters``: a count with its noun."""
    return f"{shown(count)} {one if count == 1 else many}"
