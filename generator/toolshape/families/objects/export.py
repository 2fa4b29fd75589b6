"""Each platform's lowering of the object keywords (platforms stage).

An export never refuses arguments the contract accepts (``platforms/export.py``): a keyword
the platform cannot express is dropped, and a note says the generated validator is the only
enforcement. Every platform takes ``properties``, ``required`` and ``additionalProperties``
(their subschemas lowered in turn); Gemini's legacy schema has no ``patternProperties`` (dropped;
the others keep it, and the exporter's finish refuses it where dropping it would refuse keys
the contract accepts); no platform here takes ``propertyNames``, ``dependentRequired`` or
``dependentSchemas``. ``minProperties`` and ``maxProperties`` are sizes, lowered by the
exporter's shared rule for lengths and sizes (only Gemini takes them): :data:`SIZES`.

``platforms/export.py`` maps each of :data:`KEYWORDS` to :func:`lower` in its dispatch table.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...platforms.lowering import KeywordAt, Lowering
from ...schema import vocabulary

#: The sizes, which the exporter lowers with the string lengths.
SIZES = vocabulary.bounds(limits="properties")
#: The keywords :func:`lower` lowers.
KEYWORDS = tuple(k for k in vocabulary.applying_to("object") if k not in SIZES)


def lower(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """One of the family's keywords, lowered into ``out`` when the platform takes it, else noted."""
    _LOWERINGS[kw.keyword](lowering, kw, out)


def _kept(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    out[kw.keyword] = kw.value


def _properties(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """Each property's schema lowered, and where it came from remembered (OpenAI strict mode
    asks the contract's own schema whether a key allows null)."""
    out[kw.keyword] = {}
    for key, sub in kw.value.items():
        lowered = out[kw.keyword][key] = lowering.lower(sub, kw.where + (key,))
        lowering.origins[id(lowered)] = (lowered, kw.where + (key,))


def _additional_properties(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    value = kw.value
    out[kw.keyword] = value if isinstance(value, bool) else lowering.lower(value, kw.where)


def _pattern_properties(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    if lowering.target == "gemini":
        lowering.dropped(kw.path, kw.keyword)
    else:  # refused in finish(): dropping it would refuse keys the contract accepts
        out[kw.keyword] = {
            key: lowering.lower(sub, kw.where + (key,)) for key, sub in kw.value.items()
        }


def _not_exported(lowering: Lowering, kw: KeywordAt, out: dict[str, Any]) -> None:
    """A keyword no platform here takes: left out, and noted."""
    lowering.dropped(kw.path, kw.keyword)


_LOWERINGS: dict[str, Callable[[Lowering, KeywordAt, dict[str, Any]], None]] = {
    "properties": _properties,
    "required": _kept,
    "additionalProperties": _additional_properties,
    "patternProperties": _pattern_properties,
    "propertyNames": _not_exported,
    "dependentRequired": _not_exported,
    "dependentSchemas": _not_exported,
}
