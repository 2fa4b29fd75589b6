"""Optional keys under OpenAI strict mode: which ones a null stands in for.

OpenAI strict mode wants every property listed in ``required``. The export lists each
optional key there with ``null`` added to its schema, so a model that would leave the key
out sends ``null`` instead. Whether that ``null`` means "absent" depends on the contract:
where the key's schema refuses ``null``, it can only mean the key was left out, and the
generated module removes it (``platform="openai"``); where the schema accepts ``null``,
it is one of the contract's values and is kept.

:func:`converted_keys` makes that decision, once, for the export
(``platforms/export.py``, ``ConvertedKey``) and for the generated module
(``codegen/masks.py``, the nulls ``validate(..., platform="openai")`` removes).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from .reference import errors_of


def accepts_null(root: Any, schema: Any) -> bool:
    """Whether ``schema`` (a subschema of the parameters ``root``) accepts ``null``, exactly.

    Evaluated by the reference evaluator, so ``$ref``, ``allOf``, ``anyOf``, ``not`` and
    the rest count as the generated validator counts them.
    """
    return not errors_of(schema, None, "", root)


def converted_keys(
    root: Any, properties: Mapping[str, Any], required: Collection[str]
) -> list[tuple[str, bool]]:
    """The optional keys of one object schema, in order, each with whether the contract allows null there.

    These are the keys OpenAI strict mode lists in ``required`` with ``null`` allowed. For
    a key paired with False, a ``null`` stands for the key left out (the generated
    module removes it on ``platform="openai"``); with True, a ``null`` keeps its meaning.
    """
    return [
        (key, accepts_null(root, schema))
        for key, schema in properties.items()
        if key not in required
    ]
