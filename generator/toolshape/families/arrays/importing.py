"""What the importer does with the array keywords of older drafts (platforms stage).

Before 2020-12, a list under ``items`` is a tuple: each schema checks the item at its
position, and ``additionalItems`` the items after them. 2020-12 says the same with
``prefixItems`` and ``items``. ``platforms/importer.py`` maps both keywords to the functions
of :data:`TRANSLATIONS`.
"""

from __future__ import annotations

from typing import Any

from ...platforms.translating import KeywordIn, Translating, Translation

ITEMS = "items"
PREFIX = "prefixItems"
ADDITIONAL = "additionalItems"


def items(translator: Translating, kw: KeywordIn) -> None:
    """A list of ``items`` is a tuple: ``prefixItems``, and ``additionalItems`` the rest."""
    if not isinstance(kw.value, list):
        kw.out[ITEMS] = translator.node(kw.value, kw.where, kw.new + (ITEMS,))
        return
    rest = ADDITIONAL in kw.schema
    translator.note(
        f"{ITEMS}: [...] -> {PREFIX}" + (f", {ADDITIONAL} -> {ITEMS}" if rest else ""), kw.where
    )
    kw.out[PREFIX] = [
        translator.node(sub, kw.where + (str(i),), kw.new + (PREFIX, str(i)))
        for i, sub in enumerate(kw.value)
    ]
    if rest:
        kw.out[ITEMS] = translator.node(
            kw.schema[ADDITIONAL], kw.old + (ADDITIONAL,), kw.new + (ITEMS,)
        )


def additional_items(translator: Translating, kw: KeywordIn) -> None:
    """Translated with a list of ``items`` (see :func:`items`); alone it does nothing."""
    if not isinstance(kw.schema.get(ITEMS), list):
        translator.warn(
            kw.where, f"'{ADDITIONAL}' without a list of '{ITEMS}' has no effect: dropped"
        )


def listed_items(schema: dict[str, Any]) -> bool:
    """Whether ``schema``'s ``items`` is a list (a tuple, before 2020-12): a sign of an older
    draft when a schema does not say its draft, and a list of subschemas to walk."""
    return isinstance(schema.get(ITEMS), list)


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {ITEMS: items, ADDITIONAL: additional_items}
