"""The objects family: what an object's keys must be, every stage's knowledge of them.

Built like ``families/numbers/`` (read its notes first). Nine keywords, named in
``schema/vocabulary.py`` (``applies_to="object"``):

    properties, additionalProperties, patternProperties   the schema of each key's value
    propertyNames                                          the schema of each key's name
    required, dependentRequired                            the keys that must be present
    dependentSchemas                                       a schema the object meets when a key is present
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
                                 ``cases.Deriver`` interface. Called by codegen/cases.py.
    checks.py   codegen stage    the model's checks: ``checks.object_checks(context, schema, var,
                                 path, schema_path, label)`` returns the ``ObjectChecks`` of an
                                 object (each property present or missing and its node, the
                                 keys refused, the per-key loop, the dependencies), for
                                 codegen/building/nodes.py; printed by the ``object_checks``
                                 macro of templates/checks.py.j2. The size checks come from
                                 the shared table of codegen/building/counts.py.
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

What stays in the stages, and why: the walks over subschemas (``schema/keywords.py``,
``contract/unfolding.py``, ``contract/redaction.py``, ``codegen/masks.py``,
``codegen/typing_model.py``) read the vocabulary's shapes, or are about the whole object's
shape rather than one keyword's rule.
"""
