"""Each platform's lowering of ``format`` (platforms stage).

An export never refuses arguments the contract accepts (``platforms/export.py``): a format
the platform does not document is dropped, and a note says the generated validator is the
only enforcement. Each platform keeps the formats its documentation lists (``*_FORMATS``); a
format it drops is told to the model in the description instead (``(format: uri)``).
In plain JSON Schema (the MCP definition) ``format`` is kept everywhere, but a validator
treats it as an annotation unless told to assert it: :func:`annotation_note` says so.

``platforms/export.py`` maps ``format`` to :func:`lower` in its dispatch table, and adds
:func:`annotation_note` to the MCP definition's notes.
"""

from __future__ import annotations

from typing import Any

from ...platforms.lowering import KeywordAt, Lowering, tell_model
from ...schema import vocabulary

#: The keyword naming the format.
(FORMAT,) = vocabulary.taking("format")
#: The formats the generated validator asserts (any other name is an annotation).
FORMATS = vocabulary.format_names()

#: The formats OpenAI strict mode documents.
OPENAI_FORMATS = (
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
)
#: The formats Anthropic strict tool use documents.
ANTHROPIC_FORMATS = (
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "uri",
    "ipv4",
    "ipv6",
    "uuid",
)
#: The formats Gemini's schema documents.
GEMINI_FORMATS = ("date-time",)
#: Each lowering target's formats.
PLATFORM_FORMATS = {
    "openai": OPENAI_FORMATS,
    "anthropic": ANTHROPIC_FORMATS,
    "gemini": GEMINI_FORMATS,
}


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """``format``, kept in ``out`` when the platform documents the format, else noted. A name
    toolshape does not know is an annotation nothing checks: told to the model, no note."""
    if kw.value in PLATFORM_FORMATS[lowering.target]:
        out[kw.keyword] = kw.value
    elif not asserted(kw.value):
        tell_model(out, phrase(kw.value))
    else:
        lowering.dropped(kw.path, kw.keyword, value=kw.value)
        tell_model(out, phrase(kw.value))


def asserted(name: Any) -> bool:
    """Whether the generated validator checks the format ``name`` (one toolshape knows)."""
    return name in FORMATS


def phrase(name: str) -> str:
    """The description's phrase for a format the platform drops: ``format: uri``."""
    return f"{FORMAT}: {name}"


def annotation_note(places: list[str]) -> list[str]:
    """The note for the places (shown) where a plain JSON Schema holds ``format``: asserted
    by the generated validator, an annotation to other validators by default."""
    if not places:
        return []
    shown = ", ".join(places[:5]) + (", ..." if len(places) > 5 else "")
    return [
        (
            f"'format' ({shown}) is asserted by the generated validator, but JSON Schema 2020-12 validators treat it "
            "as an annotation unless format assertion is turned on (in jsonschema: format_checker=FORMAT_CHECKER)"
        )
    ]
