"""What the importer writes with the combinators (platforms stage).

When an imported schema, as written, can take no value (an ``enum`` none of whose members its
``type`` allows), the contract keeps that meaning in the spelling its check takes: an
``allOf`` holding ``false`` (:func:`refuse_every_value`). Called by families/values/importing.py.
"""

from __future__ import annotations

from typing import Any

ALL_OF = "allOf"


def refuse_every_value(schema: dict[str, Any]) -> None:
    """Have ``schema`` refuse every value: ``false`` added to its ``allOf``."""
    schema[ALL_OF] = [*schema.get(ALL_OF, []), False]
