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
    rules.py       contract stage  the checker's warning of a required key that
                                   ``unevaluatedProperties: false`` surely refuses
                                   (``rules.warnings(root, schema, path)``).
    oracle.py      contract stage  the reference evaluation: ``oracle.refused(schema, value,
                                   path, errors, apply, matches, root)``, computed on the value
                                   itself, for contract/reference.py.
    values.py      witness stage   what a key or an item nothing else evaluates must pass, for
                                   the objects' and arrays' witness builders
                                   (``values.rest_of_keys(flat)``, ``values.rest_of_items``).
    cases.py       codegen stage   the derived cases: one key no schema names, one item more
                                   (``cases.unevaluated_cases``), for codegen/cases.py.
    checks.py      codegen stage   the model's check: ``checks.unevaluated_checks(context,
                                   schema, var, path, schema_path, label, kind)``, for the
                                   object and array branches of codegen/building/nodes.py;
                                   printed by the ``unevaluated`` macro of
                                   templates/checks.py.j2.
    export.py      platforms stage each platform's lowering (``export.lower``): kept where the
                                   platform reads JSON Schema as written, else left out with
                                   a note.

Outside the family: ``toolshape diff`` already rules no direction out under a dynamic
keyword (review/decisions.py reads ``dynamic`` from the vocabulary).

``tests/test_vocabulary.py`` fails while a stage does not know them.
"""
