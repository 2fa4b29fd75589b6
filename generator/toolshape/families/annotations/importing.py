"""What the importer does with annotations (platforms stage).

An annotation never changes which values pass, so the importer carries over every one
toolshape knows, as it is. Two need more: OpenAPI's single ``example`` (Gemini's legacy
``parameters``), which becomes a one-entry ``examples``, and the annotations toolshape has
no place for (``$vocabulary``, the content's and the core's it does not implement), which
are dropped with a warning (``$vocabulary`` silently: it only says which vocabularies a
meta-schema uses). ``platforms/importer.py`` maps them to the functions of
:data:`TRANSLATIONS` and :func:`dropped`.
"""

from __future__ import annotations

from ...platforms.translating import KeywordIn, Translating, Translation
from ...schema import vocabulary
from .rules import DIALECT_KEY, EXAMPLES

#: OpenAPI's single example of a value.
EXAMPLE = "example"
#: Where a meta-schema lists the vocabularies it uses: nothing a contract has any use for,
#: dropped without a warning.
_VOCABULARIES = "$vocabulary"

#: The annotations toolshape has no place for, dropped with a warning (the dialect is read
#: first: it names the draft).
DROPPED = vocabulary.names(
    lambda k: (
        not k.implemented and k.annotation is not None and not k.successor and k.name != DIALECT_KEY
    )
)


def example(translator: Translating, kw: KeywordIn) -> None:
    """OpenAPI's ``example`` becomes an entry of ``examples``: kept, since an example
    documents the schema, and the contract check warns when it does not pass."""
    translator.note(f"{EXAMPLE} (OpenAPI) -> {EXAMPLES}: [...]", kw.where)
    kw.out.setdefault(EXAMPLES, []).append(kw.value)


def dropped(translator: Translating, kw: KeywordIn) -> None:
    """An annotation of :data:`DROPPED` left out, saying so (``$vocabulary``: silently)."""
    if kw.key != _VOCABULARIES:
        translator.warn(kw.where, f"'{kw.key}' is dropped (toolshape has no use for it)")


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {EXAMPLE: example}
