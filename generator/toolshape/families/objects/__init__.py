"""The objects family: what an object's keys must be, every stage's knowledge of them.

Built like ``families/numbers/`` (read its notes first). Nine keywords, named in
``schema/vocabulary.py`` (``applies_to="object"``; ``unevaluatedProperties``, which depends on
what these evaluate, is the unevaluated family's):

    properties, additionalProperties, patternProperties   the schema of each key's value
    propertyNames                                          the schema of each key's name
    required, dependentRequired                            the keys that must be present
    dependentSchemas                                       what the object meets when a key is there
    minProperties, maxProperties                           how many keys

Its modules, one per stage, in the order of the stages:

    rules.py    contract stage   what the contract check says: ``properties`` a mapping,
                                 ``required`` and ``dependentRequired`` lists of distinct key
                                 names that could be present, no more of them than
                                 ``maxProperties``, no ``minProperties`` above what
                                 ``additionalProperties: false`` leaves. Called by
                                 contract/checker.py: ``rules.check(schema, path)`` yields
                                 (path, message) problems; the checker walks the subschemas
                                 itself (``rules.properties_of``), checks the
                                 ``patternProperties`` names as patterns
                                 (``rules.key_patterns``) and refuses ``x-sensitive`` on keys
                                 (``rules.under_property_names``).
    oracle.py   contract stage   the reference evaluation: ``oracle.evaluate(schema, value, path,
                                 errors, apply)`` adds the errors of an object, applying
                                 subschemas through the evaluator's ``apply``. Called by
                                 contract/reference.py for every object it meets.
    values.py   witness stage    accepted objects: ``values.candidates(engine, flat, negated,
                                 depth)`` builds objects key by key (required keys and their
                                 dependents, every declared key, each optional key alone, up
                                 to minProperties keys under propertyNames), each key's value
                                 asked of the engine through the small ``values.Builder``
                                 interface; ``values.constrains(schema)`` says whether an object
                                 is worth trying first. For witness/values.py.
    cases.py    codegen stage    the derived cases of an object: ``cases.object_cases(deriver,
                                 schema, path, schema_path, label, value)`` adds each key
                                 missing or null, an unknown or extra key, minProperties - 1
                                 and maxProperties + 1 keys, through the small
                                 ``cases.Deriver`` interface. Called by codegen/cases.py,
                                 whose walk over the base arguments also asks it where it
                                 steps into an object (``declared``, ``required_of``,
                                 ``key_schemas``, ``other_keys``), the evaluator's codes for
                                 a key left out or refused, and ``NON_LOCAL``.
    checks.py   codegen stage    the model's checks: ``checks.object_checks(context, schema, var,
                                 path, schema_path, label)`` returns the ``ObjectChecks`` of an
                                 object (each property present or missing and its node, the
                                 keys refused, the per-key loop, the dependencies), for
                                 codegen/building/nodes.py; printed by the ``object_checks``
                                 macro of templates/checks.py.j2. The size checks are the
                                 family's rows (``PROPERTY_COUNTS``) written by the shared
                                 size checks of codegen/building/counts.py.
    typing.py   codegen stage    what the keywords make of an object's Python type, for
                                 codegen/typing_model.py: a TypedDict's keys, required ones
                                 and ``@final`` (``properties_of``, ``required_of``,
                                 ``closed``), a ``dict[str, ...]`` (``map_type``), a union
                                 branch's merged keys and its name (``merge_keys``,
                                 ``branch_words``).
    export.py   platforms stage  each platform's lowering: platforms/export.py's dispatch table maps
                                 the family's keywords but the sizes to ``export.lower(lowering,
                                 keyword, out)`` (properties and additionalProperties lowered in
                                 turn, patternProperties dropped for Gemini, propertyNames and
                                 the dependent* keywords dropped with a note); the sizes share
                                 the exporter's rule for lengths (``export.SIZES``). The
                                 exporter's finish of a node calls ``export.strict_object``
                                 (OpenAI, Anthropic: patternProperties and anything but
                                 additionalProperties: false refused) and
                                 ``export.gemini_drop_additional_properties``.
    review.py   review stage     how ``toolshape diff`` decides and samples a change:
                                 ``review.required_change(before, after)`` decides a changed
                                 ``required`` by set inclusion for review/decisions.py, which
                                 decides ``ADDED_OR_REMOVED`` only when they come or go (and
                                 the sizes by its shared count ranges); ``review.grown(base,
                                 old, new)`` are the objects with one more key that
                                 review/search.py tries.

Each module says what it holds in its docstring; each stage keeps only the call.

What stays in the stages, and why (``tests/test_vocabulary.py`` lists each module that still
names these keywords, with its reason). The object keywords shape the whole arguments object,
so the walks over that shape still name them: the one subschema walk (``schema/keywords.py``),
unfolding, redaction and its masks, the checker's own walk
(properties and additionalProperties first: the order sensitive places are found in), the
instance places of ``toolshape diff``. (The importer's translation of the older drafts'
``dependencies`` is ``importing.py``'s.) Also left:
OpenAI strict mode's every key required in ``platforms/export.py`` (it records the keys it makes nullable for the generated package),
and review/walk.py's
comparison of ``required`` (review/walk.py sits below review/samples.py, which review.py here
imports).

How to add a keyword to the family (a new object keyword):

1. its row in ``schema/vocabulary.py`` (``applies_to="object"``; a size keyword also
   ``bound``/``limits="properties"``);
2. in each module above, the part of its stage: its value rule (rules.py), its evaluation
   (oracle.py), the objects that meet it (values.py) and the cases that break it (cases.py),
   its check (checks.py), which platforms take it (export.py, and its entry in the lowering
   table there), how a change of it is decided and sampled (review.py);
3. when the generated check is new: its part in the ``object_checks`` macro of
   ``templates/checks.py.j2`` (and its test's name in ``CheckTest``, for a ``Check``).

``tests/test_vocabulary.py`` fails while a stage does not know it.
"""
