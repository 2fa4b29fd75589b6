"""The unevaluated family: ``unevaluatedProperties`` and ``unevaluatedItems``, every stage's
knowledge of them.

Built like ``families/numbers/`` (read its notes first). Two keywords, named in
``schema/vocabulary.py`` (``dynamic=True``: their outcome depends on what the keywords beside
them, and the subschemas applied to the same value, evaluated):

    unevaluatedProperties   the schema of each key nothing else evaluated
    unevaluatedItems        the schema of each item nothing else evaluated

What evaluates what is a fact of each keyword's row (``evaluates``: ``properties`` its named
keys, ``contains`` the items it matches, ...; ``collects``: ``allOf`` always, ``anyOf`` the
branches that pass, ``then`` when ``if`` passes, ...), so this family names no other
family's keyword. Its modules, in the order of the stages:

    evaluation.py  contract stage  what a schema evaluates, read at generation time:
                                   ``evaluation.evaluated(root, schema, path, keyword)``, a
                                   static part (names, patterns, a prefix, contains schemas,
                                   everything) and the parts that count under a condition
                                   decided on the value (a branch passes, a key is present).
    oracle.py      contract stage  the reference evaluation: ``oracle.refused(schema, value,
                                   path, errors, apply, matches, root)``, computed on the value
                                   itself, for contract/reference.py.
    checks.py      codegen stage   the model's check: ``checks.unevaluated_checks(context,
                                   schema, var, path, schema_path, label, kind)``, for
                                   families/objects/checks.py and families/arrays/checks.py;
                                   printed by the ``unevaluated`` macro of
                                   templates/checks.py.j2.
    export.py      platforms stage each platform's lowering (``export.lower``).

``tests/test_vocabulary.py`` fails while a stage does not know them.
"""
