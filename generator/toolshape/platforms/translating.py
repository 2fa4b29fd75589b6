"""What a keyword's translation gets from the importer: the keyword where it was read, and the
translator it reports to.

``platforms/importer.py`` translates an input schema (any draft from 4 to 2020-12, OpenAPI's
subset) to toolshape's 2020-12 dialect keyword by keyword, through a dispatch table from each
keyword to the function that translates it (its own methods for the references and the
groups of subschemas, and the families' ``importing.TRANSLATIONS``: how an older draft spelled
``items``, ``dependencies``, the exclusive bounds, ...). Each such function takes the
:class:`Translating` (the draft, where to note, warn and refuse, how to translate a
subschema) and the :class:`KeywordIn`, the way ``platforms/lowering.py`` hands the export's
keyword lowerings their ``Lowering``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from ..families.references.targets import REF

#: A place in the input schema or in the contract made of it: keys, list indexes as strings.
SchemaPath = tuple[str, ...]


@dataclass(frozen=True)
class KeywordIn:
    """One keyword of an input schema, met by the importer's walk: what it is, where it was
    read, and the translated schema its translation goes into."""

    key: str
    value: Any
    #: The input schema holding it (some keywords are read with their siblings).
    schema: dict[str, Any]
    #: That schema's path in the input, and in the output.
    old: SchemaPath
    new: SchemaPath
    #: The translated schema being built.
    out: dict[str, Any]

    @property
    def where(self) -> SchemaPath:
        """The keyword's own path in the input (where its warnings point)."""
        return self.old + (self.key,)

    @property
    def beside_ref(self) -> bool:
        return isinstance(self.schema.get(REF), str)


class Translating(Protocol):
    """The importer's translation of one schema, as a keyword's translation sees it."""

    #: Read as a Gemini declaration's ``parameters`` (OpenAPI's subset: upper-case type
    #: names, ``nullable``).
    gemini: bool
    #: Every ``format`` asserted (toolshape's default), else kept as the annotation ``x-format``
    #: (``import --formats annotate``: 2020-12's default reading).
    asserts_formats: bool

    def asserts_formats_at(self, path: SchemaPath) -> bool:
        """Whether ``format`` asserts in the schema at ``path`` (``asserts_formats``, or a
        custom meta-schema naming the format-assertion vocabulary)."""

    def error(self, path: SchemaPath, message: str) -> None:
        """Refuse the input at ``path`` (the import fails, every error listed)."""

    def warn(self, path: SchemaPath, message: str) -> None:
        """Warn about what the translation drops or cannot keep at ``path``."""

    def note(self, kind: str, path: SchemaPath) -> None:
        """Record a translation of ``kind`` made at ``path`` (reported once per kind)."""

    def node(self, schema: Any, old: SchemaPath, new: SchemaPath) -> Any:
        """A subschema at ``old`` in the input translated, to be written at ``new``."""

    def carried_over(self, kw: KeywordIn) -> None:
        """The keyword kept as it is (a keyword of 2020-12), or dropped when unknown."""

    def reference(self, out: dict[str, Any], old: SchemaPath, kind: str) -> None:
        """Record the reference of ``kind`` (``$ref``, ``$dynamicRef``, ``$recursiveRef``)
        now in ``out``, read at ``old`` in the input: rewritten at the end."""


#: How one keyword is translated: ``translation(translator, keyword)``.
Translation = Callable[[Translating, KeywordIn], None]
