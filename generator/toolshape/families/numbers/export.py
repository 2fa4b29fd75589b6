"""Each platform's lowering of the numeric bounds and ``multipleOf`` (platforms stage).

An export never refuses arguments the contract accepts (``platforms/export.py``): a keyword
the platform cannot express is dropped, and a note says the generated validator is the only
enforcement. OpenAI strict mode takes all five keywords; Anthropic strict tool use takes none
("numerical bounds" are not supported); Gemini's legacy schema (OpenAPI 3.0) takes
``minimum`` and ``maximum`` only, so its exclusive bounds become inclusive ones (a loosening,
noted) and ``multipleOf`` is dropped. A bound a platform does not enforce is told to the model
in the description instead (:data:`PHRASES`: ``(at least 1)``, ``(a multiple of 5)``).

``platforms/export.py`` maps each of the family's keywords to :func:`lower` in its dispatch
table, and calls :func:`gemini_inclusive_bounds` when it finishes a node for Gemini.
"""

from __future__ import annotations

from typing import Any

from ...platforms.lowering import KeywordAt, Lowering, shown, tell_model
from ...schema import vocabulary
from ...schema.pointers import SchemaPath

#: The keywords :func:`lower` lowers.
KEYWORDS = vocabulary.applying_to("number")
#: How a description tells the model a bound the platform does not enforce.
PHRASES = {
    "minimum": "at least {}",
    "maximum": "at most {}",
    "exclusiveMinimum": "greater than {}",
    "exclusiveMaximum": "less than {}",
    "multipleOf": "a multiple of {}",
}


def phrase(keyword: str, value: Any) -> str:
    """The description's phrase for one of the family's keywords: ``at most 5``."""
    return PHRASES[keyword].format(shown(value))


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """One of the family's keywords, kept in ``out`` when the platform takes it, else noted."""
    if kw.keyword == "multipleOf":
        taken = lowering.target == "openai"
    else:  # the bounds: every platform but Anthropic takes them
        taken = lowering.target != "anthropic"
    if taken:
        out[kw.keyword] = kw.value
    else:
        lowering.dropped(kw.path, kw.keyword)
        tell_model(out, phrase(kw.keyword, kw.value))


def gemini_inclusive_bounds(lowering: Lowering, node: dict[str, Any], path: SchemaPath) -> None:
    """Gemini's legacy schema has no exclusive bounds: each becomes the inclusive bound of its
    side (the tighter one, when both are there), a note says so, and the description tells
    the model the exclusive bound."""
    for exclusive, inclusive, pick in (
        ("exclusiveMinimum", "minimum", max),
        ("exclusiveMaximum", "maximum", min),
    ):
        if exclusive in node:
            bound = node.pop(exclusive)
            node[inclusive] = pick(bound, node[inclusive]) if inclusive in node else bound
            lowering.loosened(
                path,
                f"'{exclusive}' {bound} is exported as '{inclusive}' {bound} (the bound itself is allowed)",
            )
            tell_model(node, phrase(exclusive, bound))
