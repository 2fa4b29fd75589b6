"""What the importer does with the array keywords of older drafts (platforms stage).

Before 2020-12, a list under ``items`` is a tuple: each schema checks the item at its
position, and ``additionalItems`` the items after them. 2020-12 says the same with
``prefixItems`` and ``items``. ``platforms/importer.py`` maps both keywords to the functions
of :data:`TRANSLATIONS`.
"""

from __future__ import annotations

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


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {ITEMS: items, ADDITIONAL: additional_items}
