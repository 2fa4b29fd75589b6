"""Each platform's lowering of the combinators (platforms stage).

An export never refuses arguments the contract accepts (``platforms/export.py``): a keyword
the platform cannot express is dropped, and a note says the generated validator is the only
enforcement. Every platform here takes ``anyOf``; ``oneOf`` (exactly one) is exported as
``anyOf`` (at least one), a loosening noted, or dropped beside an ``anyOf`` of its own; no
platform takes ``not`` or ``if``/``then``/``else``. An ``allOf`` is merged into the schema
that holds it (:func:`merged_entries`) before the node's keywords are lowered. Anthropic
refuses a combinator at the top level of a tool's input schema, and OpenAI strict mode an
``anyOf`` at the root (:func:`root_refusals`).

``platforms/export.py`` maps each of :data:`KEYWORDS` to :func:`lower` in its dispatch table.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ...platforms.lowering import KeywordAt, Lowering
from ...schema import vocabulary
from ...schema.pointers import SchemaPath

#: The keywords :func:`lower` lowers: the combinators but ``allOf``, which is merged first.
KEYWORDS = tuple(
    k
    for k in vocabulary.holders("one", "same value") + vocabulary.holders("list", "same value")
    if k != "allOf"
)
#: The one union the platforms here spell: a lowered schema's alternatives (a oneOf, the
#: types Gemini splits, OpenAI's "X or null") are written as an anyOf.
ANY_OF = "anyOf"
#: The combinators a top-level input schema may not hold, for Anthropic.
_NOT_AT_THE_TOP = (ANY_OF, "oneOf", "allOf")


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """One of the family's keywords, lowered into ``out`` when the platform takes it, else
    noted."""
    if kw.keyword == ANY_OF:
        out[ANY_OF] = _lowered_list(lowering, kw)
    elif kw.keyword == "oneOf" and ANY_OF not in kw.node:
        lowering.loosened(kw.path, "'oneOf' (exactly one) is exported as 'anyOf' (at least one)")
        out[ANY_OF] = _lowered_list(lowering, kw)
    else:  # a oneOf beside an anyOf; not, if, then, else: no platform here takes them
        lowering.dropped(kw.path, kw.keyword)


def _lowered_list(lowering: Lowering, kw: KeywordAt) -> list[Any]:
    return [lowering.lower(sub, kw.where + (i,)) for i, sub in enumerate(kw.value)]


def merged_entries(node: dict[str, Any], path: SchemaPath) -> Iterator[tuple[Any, SchemaPath]]:
    """Each entry of ``node``'s ``allOf`` (taken out of ``node``: the exporter merges them into
    it) and its path."""
    for i, branch in enumerate(node.pop("allOf", [])):
        yield branch, path + ("allOf", i)


def root_refusals(target: str, root: dict[str, Any]) -> Iterator[tuple[SchemaPath, str, bool]]:
    """What ``target`` refuses of the combinators on the root of the parameters: (path,
    message, whether the whole tool is refused)."""
    if target == "anthropic":
        for keyword in _NOT_AT_THE_TOP:
            if keyword in root:
                yield (
                    (keyword,),
                    f"Anthropic refuses '{keyword}' at the top level of input_schema (even without strict tool use)",
                    True,
                )
    if target == "openai" and ANY_OF in root:
        yield (
            (ANY_OF,),
            "OpenAI strict mode refuses 'anyOf' at the root: the root must be a plain object schema",
            False,
        )
