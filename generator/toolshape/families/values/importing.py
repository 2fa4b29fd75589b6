"""What the importer does with ``type`` and OpenAPI's ``nullable`` (platforms stage).

A Gemini declaration's ``parameters`` (an OpenAPI subset) may name types in upper case (its
``Type`` enum: ``STRING``): they are written in lower case. OpenAPI 3.0's ``nullable: true``
adds null to ``type`` (the null itself is added by the importer once every keyword of the
schema is translated); beside an ``enum`` without null it changes nothing in OpenAPI 3.0.3,
except in a Gemini declaration, whose enums hold only strings (null is added to the enum too).
``platforms/importer.py`` maps both keywords to :data:`TRANSLATIONS`.
"""

from __future__ import annotations

from ...platforms.translating import KeywordIn, Translating, Translation
from .rules import ENUM, NULLABLE, TYPE

#: The names of Gemini's ``Type`` enum that are JSON Schema types, in lower case.
_GEMINI_TYPES = ("string", "number", "integer", "boolean", "array", "object", "null")


def type_keyword(translator: Translating, kw: KeywordIn) -> None:
    """``type``; in a Gemini declaration, its upper-case names (``STRING``) in lower case."""
    if translator.gemini and isinstance(kw.value, str) and kw.value.lower() in _GEMINI_TYPES:
        if kw.value != kw.value.lower():
            translator.note(f"{TYPE} in upper case (Gemini) -> lower case", kw.where)
        kw.out[kw.key] = kw.value.lower()
    else:
        translator.carried_over(kw)


def nullable(translator: Translating, kw: KeywordIn) -> None:
    """OpenAPI 3.0's ``nullable: true`` adds null to ``type`` (the same meaning, in JSON Schema).

    The null is added by the importer's ``node`` once every keyword is translated."""
    if kw.value is True and TYPE in kw.schema:
        translator.note(f'{NULLABLE}: true (OpenAPI) -> {TYPE}: [..., "null"]', kw.where)
        if not isinstance(kw.schema.get(ENUM), list) or None in kw.schema[ENUM]:
            pass
        elif translator.gemini:
            translator.note(
                f"{NULLABLE}: true beside {ENUM} (Gemini) -> null added to the {ENUM}", kw.where
            )
        else:
            translator.warn(
                kw.where,
                f"'{NULLABLE}: true' beside an '{ENUM}' without null: null is still refused by the {ENUM} (OpenAPI 3.0.3)",
            )
    elif kw.value is True:
        translator.warn(
            kw.where,
            f"'{NULLABLE}: true' without '{TYPE}' has no effect (OpenAPI 3.0.3): dropped",
        )
    elif kw.value is not False:
        translator.error(kw.where, f"'{NULLABLE}' must be true or false")


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {TYPE: type_keyword, NULLABLE: nullable}
