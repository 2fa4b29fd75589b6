"""What the importer does with a ``format`` toolshape does not assert (platforms stage).

JSON Schema reads a format it does not know as an annotation, and so does the contract: such
a format is kept as the annotation ``x-format`` (toolshape's own extension keyword), with a
warning, and never asserted. ``platforms/importer.py`` maps ``format`` to :data:`TRANSLATIONS`.
"""

from __future__ import annotations

import json

from ...platforms.translating import KeywordIn, Translating, Translation
from ...schema import vocabulary

FORMAT = "format"
#: Where a format toolshape does not assert is kept, as an annotation.
X_FORMAT = "x-format"


def defined_formats(draft: str | None) -> tuple[str, ...]:
    """The asserted formats a schema of ``draft`` knows (the vocabulary's ``since``: draft 7
    has no ``uuid``, which zod-to-json-schema writes in draft-07 schemas); None, a guessed
    draft, is read as 2020-12: every one."""
    return vocabulary.format_names() if draft is None else vocabulary.format_names_of(draft)


def format_keyword(translator: Translating, kw: KeywordIn) -> None:
    """An asserted format carried over; any other kept as ``x-format`` (when free), or dropped."""
    draft = translator.declared_draft
    if kw.value in defined_formats(draft):
        kw.out[kw.key] = kw.value
        return
    why = (
        f"a format draft {draft} does not define"
        if kw.value in vocabulary.format_names()
        else "not a JSON Schema 2020-12 format"
    )
    if X_FORMAT not in kw.schema:
        # JSON Schema reads an unknown format as an annotation; so does the contract.
        kw.out[X_FORMAT] = kw.value
        translator.warn(
            kw.where,
            f"format {json.dumps(kw.value)} is {why}: kept as the annotation '{X_FORMAT}', not asserted",
        )
    else:
        translator.warn(
            kw.where, f"format {json.dumps(kw.value)} is {why}: dropped ('{X_FORMAT}' is taken)"
        )


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {FORMAT: format_keyword}
