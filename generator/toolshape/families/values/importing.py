"""What the importer does with ``type`` and OpenAPI's ``nullable`` (platforms stage).

A Gemini declaration's ``parameters`` (an OpenAPI subset) may name types in upper case (its
``Type`` enum: ``STRING``): they are written in lower case. OpenAPI 3.0's ``nullable: true``
adds null to ``type`` (the null itself is added by the importer once every keyword of the
schema is translated); beside an ``enum`` without null it changes nothing in OpenAPI 3.0.3,
except in a Gemini declaration, whose enums hold only strings (null is added to the enum too).
``platforms/importer.py`` maps both keywords to :data:`TRANSLATIONS`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Hashable
from typing import Any

from ...platforms.translating import KeywordIn, SchemaPath, Translating, Translation
from ...schema.values import json_key, type_allows
from ..combinators.export import ANY_OF
from ..combinators.importing import refuse_every_value
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


def add_null(schema: dict[str, Any], out: dict[str, Any], gemini: bool) -> None:
    """OpenAPI's ``nullable: true`` in ``schema`` (see :func:`nullable`) adds null to the type
    translated into ``out`` (and, in a Gemini declaration, to its enum)."""
    if NULLABLE in schema and TYPE in out and schema.get(NULLABLE) is True:
        types = out[TYPE] if isinstance(out[TYPE], list) else [out[TYPE]]
        if "null" not in types:
            out[TYPE] = [*types, "null"]
        if gemini and isinstance(out.get(ENUM), list) and None not in out[ENUM]:
            out[ENUM] = [*out[ENUM], None]


def dead_members(
    schema: dict[str, Any], path: SchemaPath, warn: Callable[[SchemaPath, str], None]
) -> None:
    """An ``enum`` as its meaning is, in the spelling the contract check takes: a member
    listed twice is kept once, a member its ``type`` refuses is dropped (it could never
    pass); when none is left, nothing can pass, and ``allOf: [false]`` says so. ``warn``
    takes a place in the output (``path`` is the schema's)."""
    members = schema.get(ENUM)
    if not isinstance(members, list):
        return
    types = schema.get(TYPE)
    allowed = (
        (tuple(types) if isinstance(types, list) else (types,))
        if isinstance(types, (str, list))
        else None
    )
    kept: dict[Hashable, Any] = {}
    for i, member in enumerate(members):
        if json_key(member) in kept:
            why = "is listed twice: kept once"
        elif not type_allows(allowed, member):
            why = f"is not of '{TYPE}' {json.dumps(types)}: it could never pass; dropped"
        else:
            kept[json_key(member)] = member
            continue
        warn(path + (ENUM, str(i)), f"the '{ENUM}' value {json.dumps(member)[:40]} {why}")
    if len(kept) == len(members):
        return
    if kept:
        schema[ENUM] = list(kept.values())
        return
    del schema[ENUM]
    refuse_every_value(schema)
    warn(
        path + (ENUM,),
        f"no '{ENUM}' value is of its '{TYPE}': as written, no value can pass here; "
        "kept as 'allOf: [false]'",
    )


def says_null(schema: Any) -> bool:
    """Whether ``schema`` names null among its values (a type, or an ``anyOf`` branch that
    does), as the strict export spells a nullable key (see ``export.or_null``)."""
    if not isinstance(schema, dict):
        return False
    kind = schema.get(TYPE)
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    branches = schema.get(ANY_OF)
    return isinstance(branches, list) and any(says_null(b) for b in branches)


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {TYPE: type_keyword, NULLABLE: nullable}
