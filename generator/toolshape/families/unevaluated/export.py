"""Each platform's lowering of ``unevaluatedProperties`` and ``unevaluatedItems`` (platforms
stage).

An export never refuses arguments the contract accepts (``platforms/export.py``). The JSON
Schema and MCP definitions carry the contract's schema as written, these keywords included.
OpenAI strict mode, Anthropic strict tool use and Gemini know neither keyword, and their
closest safe lowering is to leave it out, with a note: the platform then accepts more keys
(items) than the contract, never fewer, and the generated validator is the only enforcement.
(Where the strict platforms close every object themselves, ``export.strict_object`` of the
objects family still decides it from the listed properties.)

``platforms/export.py`` maps each of :data:`KEYWORDS` to :func:`lower` in its dispatch table.
"""

from __future__ import annotations

from typing import Any

from ...platforms.lowering import KeywordAt, Lowering
from ...schema import vocabulary

#: The keywords :func:`lower` lowers: those whose outcome depends on what their siblings
#: evaluated.
KEYWORDS = vocabulary.names(lambda k: k.implemented and k.dynamic)


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """Left out, noted: no platform here knows what its siblings evaluated."""
    if kw.value is True:
        return  # true evaluates nothing and refuses nothing: nothing is lost
    lowering.dropped(
        kw.path, kw.keyword, "it depends on what the keywords beside it evaluate", value=kw.value
    )
