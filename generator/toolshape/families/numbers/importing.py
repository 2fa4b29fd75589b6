"""What the importer does with draft 4's exclusive bounds (platforms stage).

In draft 4 ``exclusiveMinimum``/``exclusiveMaximum`` are booleans that make ``minimum``/
``maximum`` exclusive; from draft 6 on they are numbers of their own. A ``true`` takes its
bound's number (and the bound itself is then carried by it); ``false`` says nothing.
``platforms/importer.py`` maps the four keywords to :data:`TRANSLATIONS`.
"""

from __future__ import annotations

from typing import Any

from ...platforms.translating import KeywordIn, Translating, Translation
from ...schema import vocabulary


def _value_bound(side: vocabulary.Side, exclusive: bool) -> str:
    """The bound keyword of a number's value on ``side``, exclusive or not (minimum, ...)."""
    (name,) = vocabulary.names(
        lambda k: k.limits == "value" and k.bound == side and k.exclusive == exclusive
    )
    return name


#: Each inclusive bound and the exclusive keyword of its side (minimum: exclusiveMinimum).
_EXCLUSIVE_OF = {_value_bound(side, False): _value_bound(side, True) for side in ("lower", "upper")}
_INCLUSIVE_OF = {exclusive: inclusive for inclusive, exclusive in _EXCLUSIVE_OF.items()}


def exclusive_bound(translator: Translating, kw: KeywordIn) -> None:
    """Draft 4's boolean ``exclusiveMinimum``/``exclusiveMaximum`` takes its bound's number."""
    if not isinstance(kw.value, bool):
        translator.carried_over(kw)
        return
    bound = _INCLUSIVE_OF[kw.key]
    if kw.value and bound in kw.schema:
        translator.note(f"{kw.key}: true (draft 4) -> {kw.key}: <{bound}>", kw.where)
        kw.out[kw.key] = kw.schema[bound]
    elif kw.value:
        translator.warn(kw.where, f"'{kw.key}: true' without '{bound}' has no effect: dropped")


def bound(translator: Translating, kw: KeywordIn) -> None:
    """``minimum``/``maximum`` carried over, but where draft 4's ``true`` beside it makes it
    exclusive (then :func:`exclusive_bound` carries it)."""
    if kw.schema.get(_EXCLUSIVE_OF[kw.key]) is not True:
        translator.carried_over(kw)


def boolean_exclusive(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` spells an exclusive bound as draft 4 does (a boolean): a sign of
    draft 4 when a schema does not say its draft."""
    return any(isinstance(schema.get(key), bool) for key in _INCLUSIVE_OF)


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {
    **dict.fromkeys(_INCLUSIVE_OF, exclusive_bound),
    **dict.fromkeys(_EXCLUSIVE_OF, bound),
}
