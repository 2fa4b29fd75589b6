"""What the importer writes with the combinators (platforms stage).

When an imported schema, as written, can take no value (an ``enum`` none of whose members its
``type`` allows), the contract keeps that meaning in the spelling its check takes: an
``allOf`` holding ``false`` (:func:`refuse_every_value`). Called by families/values/importing.py.
Whether no object can pass a root composed of them (:func:`no_object_passes`) is the
importer's: such a root is refused, as a root of ``type: string`` is.
"""

from __future__ import annotations

from typing import Any

from ...schema import vocabulary
from ..values.rules import TYPE, admits_no_object, type_names
from .export import ANY_OF
from .rules import ALL_OF, INVERTING

ONE_OF = "oneOf"
#: What a schema may hold besides ``type: object`` and still pass every object.
_ANNOTATIONS = frozenset(vocabulary.annotation_names())


def refuse_every_value(schema: dict[str, Any]) -> None:
    """Have ``schema`` refuse every value: ``false`` added to its ``allOf``."""
    schema[ALL_OF] = [*schema.get(ALL_OF, []), False]


def no_object_passes(schema: Any) -> bool:
    """Whether no object can pass ``schema`` as written, by what it says outright: ``false``, a
    ``type``, ``const`` or ``enum`` without objects, an ``allOf`` member or every ``anyOf`` or
    ``oneOf`` branch of which that holds, a ``not`` of every object. (False where it cannot
    tell, behind a ``$ref`` say: the generated module then refuses every object no less.)"""
    if isinstance(schema, bool):
        return not schema
    if not isinstance(schema, dict):
        return False
    if admits_no_object(schema):
        return True
    if any(no_object_passes(member) for member in _listed(schema.get(ALL_OF))):
        return True
    for key in (ANY_OF, ONE_OF):
        branches = _listed(schema.get(key))
        if branches and all(no_object_passes(branch) for branch in branches):
            return True
    return any(key in schema and _every_object_passes(schema[key]) for key in INVERTING)


def _every_object_passes(schema: Any) -> bool:
    """Whether ``schema`` passes every object outright: ``true``, or nothing but annotations
    and ``type: object``."""
    if isinstance(schema, bool):
        return schema
    return isinstance(schema, dict) and all(
        key in _ANNOTATIONS or (key == TYPE and type_names(schema) == ("object",)) for key in schema
    )


def _listed(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []
