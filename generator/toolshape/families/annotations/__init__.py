"""The annotations family: ``title``, ``description``, ``default``, ``examples``, the flags
(``readOnly``, ``writeOnly``, ``deprecated``), the content keywords (``contentEncoding``,
``contentMediaType``, ``contentSchema``) and ``$comment``: every stage's knowledge of them.

Built as ``families/numbers/`` is (read its ``__init__.py`` first: the layout, the
interfaces and the rule that a module is ranked with its stage are the same).

What it covers. The keywords the vocabulary (``schema/vocabulary.py``) marks as annotations:
they have no effect on validation, so the validator never checks them, but a malformed one
is still a typo to report, and a value one of them offers (``default``, ``examples``: the
vocabulary's ``offers`` column) that its own schema refuses is worth a warning. (``$anchor``
and ``$id`` are annotations too, with rules of their own: the references family's.)

Its modules, one per stage:

    rules.py    contract stage   what the contract check says of them: each annotation's value
                                 of its kind (text, true or false, a list of values), read from
                                 the vocabulary (``rules.check(schema, path)``); the schemas an
                                 annotation holds, checked like any schema and never applied
                                 (``rules.held_schemas(schema, path)``: ``contentSchema``); and,
                                 once the contract is well-formed, the offered values their
                                 schema refuses (``rules.dead_offers(schema, path, failures)``,
                                 judged by the reference evaluator the checker hands in).

What stays elsewhere for now: which annotations each platform's tool definitions carry is
the vocabulary's ``exported`` column, read by platforms/; a contract's own ``description``
and ``examples`` (of the tool, not of a schema) are keys of the contract file, named in
``contract/checker.py``.
"""
