"""What the importer does with a ``format`` toolshape does not assert (platforms stage).

JSON Schema reads a format it does not know as an annotation, and so does the contract: such
a format is kept as the annotation ``x-format`` (toolshape's own extension keyword), with a
warning, and never asserted. So is every format when the import is asked to read formats as
annotations (``import --formats annotate``: JSON Schema 2020-12's default, the
format-annotation vocabulary), with a note instead of a warning: the user asked for it.

A format toolshape asserts is asserted in a schema of every draft, also one that a later draft
first named (``uuid`` in the draft-07 schemas zod-to-json-schema writes, ``date`` under draft
4): drafts 4 to 7 leave format validation to the implementation, which may assert the formats it
knows, and validators people run do (Ajv with ajv-formats, jsonschema's
``FormatChecker()``; JSONSchemaBench's labels were made that way).
``platforms/importer.py`` maps ``format`` to :data:`TRANSLATIONS`.
"""

from __future__ import annotations

import json

from ...platforms.translating import KeywordIn, Translating, Translation
from ...schema import vocabulary

FORMAT = "format"
#: How ``format`` may be read: asserted (toolshape's default, 2020-12's format-assertion
#: vocabulary) or kept as the annotation ``x-format`` (2020-12's own default reading).
FORMAT_READINGS = ("assert", "annotate")
#: Where a format toolshape does not assert is kept, as an annotation.
X_FORMAT = "x-format"
#: Why a format is not asserted, in the warning that says so.
_UNKNOWN = "not a JSON Schema 2020-12 format"


def format_keyword(translator: Translating, kw: KeywordIn) -> None:
    """A format toolshape asserts carried over, whatever draft the schema declares (kept as
    ``x-format`` when formats are read as annotations, ``import --formats annotate``); any
    other kept as ``x-format`` (when free), or dropped."""
    asserted = kw.value in vocabulary.format_names()
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
        _not_asserted(translator, kw)


def _not_asserted(translator: Translating, kw: KeywordIn) -> None:
    """A format toolshape does not know: an annotation, as JSON Schema reads it."""
    if X_FORMAT not in kw.schema:
        # JSON Schema reads an unknown format as an annotation; so does the contract.
        kw.out[X_FORMAT] = kw.value
        translator.warn(
            kw.where,
            f"format {json.dumps(kw.value)} is {_UNKNOWN}: kept as the annotation '{X_FORMAT}', not asserted",
        )
    else:
        translator.warn(
            kw.where,
            f"format {json.dumps(kw.value)} is {_UNKNOWN}: dropped ('{X_FORMAT}' is taken)",
        )


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {FORMAT: format_keyword}
