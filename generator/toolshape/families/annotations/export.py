"""Each platform's lowering of the annotations (platforms stage).

An annotation never changes which values pass. The ones a model reads about a value (the
vocabulary's ``exported`` rows: ``title``, ``description``, ``default``) are carried into
every platform's tool definition, except that OpenAI strict mode makes every key required,
so a ``default`` could never apply there and is left out. The others (``examples``,
``$comment``, ``readOnly``, the content and core annotations) are left out of every
platform's definition without a note: nothing the model is held to is lost with them.

``platforms/export.py`` maps :data:`KEYWORDS` to :func:`lower` in its dispatch table, skips
:data:`SILENT` before it dispatches, and keeps the base's value of a :data:`KEYWORDS` entry
when it merges two nodes into one (a ``$ref`` beside keywords, ``allOf``).
"""

from __future__ import annotations

from typing import Any

from ...platforms.lowering import KeywordAt, Lowering
from ...schema import vocabulary
from .rules import DEFAULT

#: The annotations :func:`lower` carries into the platforms' definitions.
KEYWORDS = vocabulary.annotation_names(exported=True)
#: The annotations every platform's definition leaves out, without a note.
SILENT = vocabulary.annotation_names(exported=False)


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """One exported annotation, kept in ``out`` (a ``default``: not for OpenAI strict mode,
    where every property is required, so a default never applies)."""
    if kw.keyword == DEFAULT and lowering.target == "openai":
        return
    out[kw.keyword] = kw.value
