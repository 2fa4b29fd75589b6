"""What the importer does with ``dependencies``, the object keyword of older drafts (platforms
stage).

Before 2019-09, ``dependencies`` maps a key either to a list of keys (then required too) or to
a schema (then applied to the object): 2019-09 splits it into ``dependentRequired`` and
``dependentSchemas``. ``platforms/importer.py`` maps it to :data:`TRANSLATIONS`.
"""

from __future__ import annotations

from ...platforms.translating import KeywordIn, Translating, Translation
from .rules import DEPENDENT_REQUIRED

DEPENDENCIES = "dependencies"
DEPENDENT_SCHEMAS = "dependentSchemas"


def dependencies(translator: Translating, kw: KeywordIn) -> None:
    """``dependencies`` splits into ``dependentRequired`` (lists) and ``dependentSchemas``."""
    if not isinstance(kw.value, dict):
        translator.error(kw.where, f"'{DEPENDENCIES}' must be an object")
        return
    for name, dep in kw.value.items():
        if isinstance(dep, list):
            translator.note(f"{DEPENDENCIES} (list) -> {DEPENDENT_REQUIRED}", kw.where + (name,))
            kw.out.setdefault(DEPENDENT_REQUIRED, {})[name] = dep
        else:
            translator.note(f"{DEPENDENCIES} (schema) -> {DEPENDENT_SCHEMAS}", kw.where + (name,))
            kw.out.setdefault(DEPENDENT_SCHEMAS, {})[name] = translator.node(
                dep, kw.where + (name,), kw.new + (DEPENDENT_SCHEMAS, name)
            )


#: Each keyword this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {DEPENDENCIES: dependencies}
