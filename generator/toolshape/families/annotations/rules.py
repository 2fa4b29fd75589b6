"""What the contract check says of the annotations, and the names the stages spell them by
(contract stage).

Annotations have no effect on validation, but a malformed one is still a typo: an annotation
taking text must be a string, a flag true or false, a list of values a list (each kind read
from the vocabulary's ``value`` column, so a new annotation is checked by its row). An
annotation holding a schema (``contentSchema``) is checked like any schema and never applied:
:func:`held_schemas` gives them to the checker's walk. ``contract/checker.py`` calls
:func:`check` and :func:`held_schemas` on every schema and, once the whole contract is
well-formed, :func:`dead_offers`: a ``default`` or an example value its own schema refuses is
a warning (real definitions often say ``default: null`` on an optional key that refuses
null), and nothing downstream takes such a value for a valid one.

A few annotations are also words of the contract itself and of the tool definitions made of
it: the stages spell them with the names below (``TITLE``, ``DESCRIPTION``, ...).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from ...contract.wording import yaml_text
from ...schema import vocabulary
from ...schema.keywords import ANNOTATION_SCHEMAS
from ...schema.pointers import SchemaPath

#: A display name: a schema's ``title``, and a contract's own (MCP's ``Tool.title``).
TITLE = "title"
#: What a reader learns of a value; a contract's ``description`` is what every platform shows
#: the model about the tool.
DESCRIPTION = "description"
#: A value the schema expects when the key is absent.
DEFAULT = "default"
#: Values the schema accepts, as a list.
EXAMPLES = "examples"
#: A note for the schema's maintainers, never shown to a model.
COMMENT = "$comment"

#: Where a schema names the dialect it is written in (toolshape's is 2020-12's): the JSON
#: Schema export writes it, the importer reads the draft from it and drops it.
DIALECT_KEY = "$schema"

#: What a shared-definitions file (``common/``) may say besides its ``$defs``: a description
#: of what it shares, and a note for its maintainers.
SHARED_FILE_NOTES = (DESCRIPTION, COMMENT)

#: One problem: where (a schema path from the document root) and what.
Problem = tuple[SchemaPath, str]
#: The keywords (comma-separated) of a schema that refuse a value; "" when it passes.
Failures = Callable[[Any, Any], str]

#: Annotations whose value is text, and those that are true or false.
_TEXT = vocabulary.names(
    lambda k: k.implemented and k.annotation is not None and k.value in ("string", "uri")
)
_FLAGS = vocabulary.names(
    lambda k: k.implemented and k.annotation is not None and k.value == "boolean"
)
#: Annotations whose value is a list of values (``examples``).
_LISTS = vocabulary.names(
    lambda k: k.implemented and k.annotation is not None and k.value == "values"
)
#: What the warning on a refused offered value says of it, and of what is done with it.
_OFFERED = {
    DEFAULT: ("'default' {value}", "(the validator never applies a default)"),
    EXAMPLES: ("the example value {value}", "and not used in the generated tests"),
}
#: The keywords offering values the schema expects (the vocabulary's ``offers``), in table order.
_OFFERS = vocabulary.names(lambda k: k.implemented and k.offers)


def check(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """Each annotation of ``schema`` whose value is not of its kind."""
    for keyword in _TEXT:
        if keyword in schema and not isinstance(schema[keyword], str):
            yield path + (keyword,), f"'{keyword}' must be a string"
    for keyword in _FLAGS:
        if keyword in schema and not isinstance(schema[keyword], bool):
            yield path + (keyword,), f"'{keyword}' must be true or false"
    for keyword in _LISTS:
        if keyword in schema and not isinstance(schema[keyword], list):
            yield path + (keyword,), f"'{keyword}' in a schema must be a list of values"


def held_schemas(schema: dict[str, Any], path: SchemaPath) -> Iterator[tuple[Any, SchemaPath]]:
    """The schemas annotations of ``schema`` hold, with their paths: checked like any schema,
    never applied."""
    for keyword in ANNOTATION_SCHEMAS:
        if keyword in schema:
            yield schema[keyword], path + (keyword,)


def dead_offers(schema: dict[str, Any], path: SchemaPath, failures: Failures) -> Iterator[Problem]:
    """Each value ``default`` or ``examples`` offers that ``schema`` itself refuses (warnings:
    it is kept as an annotation)."""
    for keyword in _OFFERS:
        if keyword not in schema:
            continue
        if vocabulary.keyword(keyword).value == "values":
            if not isinstance(schema[keyword], list):
                continue
            offered = [(path + (keyword, i), v) for i, v in enumerate(schema[keyword])]
        else:
            offered = [(path + (keyword,), schema[keyword])]
        said, done = _OFFERED[keyword]
        for where, value in offered:
            codes = failures(schema, value)
            if codes:
                yield (
                    where,
                    f"{said.format(value=yaml_text(value))} does not pass its own schema "
                    f"({codes}); it is kept as an annotation {done}",
                )
