"""The annotations a contract and its shared files use by name (contract stage).

An annotation never changes which values pass, so the contract check takes each one the
vocabulary names (``vocabulary.annotation_names``). A few are also words of the contract
itself and of the tool definitions made of it; the stages spell them with these names.
"""

from __future__ import annotations

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
