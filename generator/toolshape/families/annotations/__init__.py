"""The annotations family: ``title``, ``description``, ``default``, ``examples``, ``$comment``
and the other keywords that never change which values pass, every stage's knowledge of them.

Built as ``families/numbers/`` is (read its ``__init__.py`` first: the layout, the
interfaces and the rule that a module is ranked with its stage are the same).

What it covers. The annotations are named in ``schema/vocabulary.py``, each row with its
group (meta-data, content, comment, core) and whether the platforms' tool definitions carry
it (``exported``): every list of them is read from there. A few of them are also words of a
contract and of a tool definition: a contract's ``description`` is what every platform shows
the model about the tool, its ``title`` the name MCP shows a person, and a shared-definitions
file may carry a ``description`` and a ``$comment`` beside its ``$defs``. The stages spell
those through this family's names, never as strings of their own.

Its modules, one per stage, in the order of the stages (a module imports its own stage and
earlier ones; ``tests/test_import_graph.py`` ranks each with its stage):

    rules.py      contract stage   what the contract check says of them: each annotation's
                                   value of its kind (``rules.check``), the schemas an
                                   annotation holds, checked and never applied
                                   (``rules.held_schemas``: ``contentSchema``), and the
                                   offered values their own schema refuses
                                   (``rules.dead_offers``, warnings); and the names: ``TITLE``,
                                   ``DESCRIPTION``, ``DEFAULT``, ``EXAMPLES``, ``COMMENT``,
                                   ``DIALECT_KEY`` (``$schema``) and ``SHARED_FILE_NOTES``
                                   (what a shared-definitions file may say besides its
                                   ``$defs``), read by contract/, the importer and exporter.
    export.py     platforms stage  each platform's lowering: platforms/export.py's dispatch
                                   table maps the exported annotations (``export.KEYWORDS``,
                                   the vocabulary's ``exported`` rows) to ``export.lower(
                                   lowering, keyword, out)`` (kept; a ``default`` left out for
                                   OpenAI strict mode, where every key is required), skips
                                   ``export.SILENT`` (the others) and keeps the base's value of
                                   an exported one when it merges two nodes.
    importing.py  platforms stage  the importer's part: OpenAPI's ``example`` becomes an entry
                                   of ``examples`` (``importing.TRANSLATIONS``), and the
                                   annotations toolshape has no place for are dropped
                                   (``importing.DROPPED``, ``importing.dropped``), through the
                                   importer's dispatch tables.

Each module says what it holds in its docstring; each stage keeps only the call.

How to add an annotation: its row in ``schema/vocabulary.py`` (``annotation=`` its group,
``exported=True`` when the platforms carry it); the lists here and in every stage read it
from there. Only an annotation some stage treats on its own needs a name in rules.py.
"""
