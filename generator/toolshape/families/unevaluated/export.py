"""Each platform's lowering of ``unevaluatedProperties`` and ``unevaluatedItems`` (platforms
stage).

An export never refuses arguments the contract accepts (``platforms/export.py``). The JSON
Schema and MCP definitions carry the contract's schema as written, these keywords included.
OpenAI strict mode, Anthropic strict tool use and Gemini know neither keyword, and their
closest safe lowering is to leave it out, with a note: the platform then accepts more keys
(items) than the contract, never fewer, and the generated validator is the only enforcement.
(Where the strict platforms close every object themselves, ``export.strict_object`` of the
objects family still decides it from the listed properties.)

``platforms/export.py`` maps each of :data:`KEYWORDS` to :func:`lower` in its dispatch table,
and OpenAI's filling in of ``items`` on every array asks :func:`items_in_its_place` first:
an empty ``items`` would evaluate every item and so switch unevaluatedItems off.
"""

from __future__ import annotations

from typing import Any

from ...platforms.lowering import KeywordAt, Lowering
from ...schema import vocabulary
from ..combinators.export import ANY_OF
from ..references import targets
from .evaluation import evaluated

#: The keywords :func:`lower` lowers: those whose outcome depends on what their siblings
#: evaluated.
KEYWORDS = vocabulary.names(lambda k: k.implemented and k.dynamic)
_ITEMS = next(n for n in KEYWORDS if vocabulary.keyword(n).applies_to == "array")
_PREFIX = vocabulary.evaluating("prefix")[0]


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """Left out, noted: no platform here knows what its siblings evaluated."""
    if kw.value is True:
        return  # true evaluates nothing and refuses nothing: nothing is lost
    lowering.dropped(
        kw.path, kw.keyword, "it depends on what the keywords beside it evaluate", value=kw.value
    )


def items_in_its_place(node: dict[str, Any]) -> Any:
    """An ``items`` schema that means what the node's unevaluatedItems means, for a platform
    that needs ``items`` on every array (OpenAI): exact where what the node evaluates is
    static and it is its own prefixItems and ``contains`` (an item after them passes the
    unevaluatedItems schema or is matched by a contains schema); None elsewhere."""
    if _ITEMS not in node or targets.ref_of(node) is not None:
        return None
    found = evaluated(node, node, (), _ITEMS)
    own_prefix = len(node.get(_PREFIX, []))
    if not found.static or found.everything or found.prefix != own_prefix:
        return None
    rest = node[_ITEMS]
    if not found.matching:
        return rest
    return {ANY_OF: [schema for schema, _ in found.matching] + [rest]}
