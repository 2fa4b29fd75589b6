"""What the importer does with a ``format`` toolshape does not assert (platforms stage).

JSON Schema reads a format it does not know as an annotation, and so does the contract: such
a format is kept as the annotation ``x-format`` (toolshape's own extension keyword), with a
warning, and never asserted. So is every format when the import is asked to read formats as
annotations (``import --formats annotate``: JSON Schema 2020-12's default, the
format-annotation vocabulary), with a note instead of a warning: the user asked for it.
``platforms/importer.py`` maps ``format`` to :data:`TRANSLATIONS`.
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
    """A format the schema's draft asserts carried over (kept as ``x-format`` when formats are
    read as annotations, ``import --formats annotate``); any other kept as ``x-format`` (when
    free), or dropped."""
    draft = translator.declared_draft
    asserted = kw.value in defined_formats(draft)
    if asserted and translator.asserts_formats_at(kw.old):
        kw.out[kw.key] = kw.value
    elif asserted and X_FORMAT not in kw.schema:
        kw.out[X_FORMAT] = kw.value
        translator.note(f"format -> {X_FORMAT} (formats read as annotations)", kw.where)
    elif asserted:
        translator.warn(
            kw.where,
            f"format {json.dumps(kw.value)} read as an annotation: dropped ('{X_FORMAT}' is taken)",
        )
    else:
        _not_asserted(translator, kw, draft)


def _not_asserted(translator: Translating, kw: KeywordIn, draft: str | None) -> None:
    """A format the schema's draft does not define: an annotation, as JSON Schema reads it."""
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
