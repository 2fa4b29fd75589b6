"""Each platform's lowering of ``minLength``, ``maxLength`` and ``pattern`` (platforms stage).

An export never refuses arguments the contract accepts (``platforms/export.py``): a keyword
the platform cannot express is dropped, and a note says the generated validator is the only
enforcement. Only Gemini takes the length bounds (OpenAI strict mode and Anthropic strict
tool use refuse them). Every platform takes ``pattern``, except that Anthropic's strict
grammar compiler refuses backreferences, lookaround and word boundaries: such a pattern is
dropped for Anthropic, with the reason. A keyword a platform drops is told to the model in
the description instead (:func:`phrase`: ``(at most 64 characters)``, ``(matching ^[a-z]+$)``).

``platforms/export.py`` maps each of the family's keywords to :func:`lower` in its dispatch
table.
"""

from __future__ import annotations

import re
from typing import Any

from ...platforms.lowering import KeywordAt, Lowering, counted, tell_model
from ...schema import vocabulary

#: The keywords :func:`lower` lowers: the length bounds, then the pattern.
KEYWORDS = (*vocabulary.bounds(limits="length"), *vocabulary.taking("pattern"))
#: Regular-expression features Anthropic's strict grammar compiler refuses.
ANTHROPIC_PATTERN_REFUSED = re.compile(r"\\[1-9]|\\k<|\(\?<?[=!]|\\[bB]")
#: How a description tells the model a keyword the platform does not enforce.
PHRASES = {"minLength": "at least {}", "maxLength": "at most {}", "pattern": "matching {}"}


def phrase(keyword: str, value: Any) -> str:
    """The description's phrase for one of the family's keywords: ``at most 64 characters``."""
    if keyword == "pattern":
        return PHRASES[keyword].format(value)
    return PHRASES[keyword].format(counted(value, "character", "characters"))


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """One of the family's keywords, kept in ``out`` when the platform takes it, else noted."""
    if kw.keyword == "pattern":
        if lowering.target == "anthropic" and ANTHROPIC_PATTERN_REFUSED.search(kw.value):
            lowering.dropped(
                kw.path, kw.keyword, "it uses a backreference, lookaround or word boundary"
            )
            tell_model(out, phrase(kw.keyword, kw.value))
        else:
            out[kw.keyword] = kw.value
    elif lowering.target == "gemini":  # the length bounds
        out[kw.keyword] = kw.value
    else:
        lowering.dropped(kw.path, kw.keyword)
        tell_model(out, phrase(kw.keyword, kw.value))
