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


def format_keyword(translator: Translating, kw: KeywordIn) -> None:
    """An asserted format carried over; any other kept as ``x-format`` (when free), or dropped."""
    known = kw.value in vocabulary.format_names()
    if known and translator.asserts_formats:
        kw.out[kw.key] = kw.value
    elif known and X_FORMAT not in kw.schema:
        kw.out[X_FORMAT] = kw.value
        translator.note(f"format -> {X_FORMAT} (formats read as annotations)", kw.where)
    elif known:
        translator.warn(
            kw.where,
            f"format {json.dumps(kw.value)} read as an annotation: dropped ('{X_FORMAT}' is taken)",
        )
    elif X_FORMAT not in kw.schema:
        # JSON Schema reads an unknown format as an annotation; so does the contract.
        kw.out[X_FORMAT] = kw.value
        translator.warn(
            kw.where,
            f"format {json.dumps(kw.value)} is not a JSON Schema 2020-12 format: kept as the annotation '{X_FORMAT}', not asserted",
        )
    else:
        translator.warn(
            kw.where,
            f"format {json.dumps(kw.value)} is not a JSON Schema 2020-12 format: dropped ('{X_FORMAT}' is taken)",
        )


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {FORMAT: format_keyword}
