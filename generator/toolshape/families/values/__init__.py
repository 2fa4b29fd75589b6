"""The values family: ``type``, ``enum`` and ``const``, the keywords that constrain a value
whatever its kind. Built the way ``families/numbers/`` is (read its notes first).

What it covers. Three keywords, named in ``schema/vocabulary.py``:

    type    the JSON types a value may be (integer is a number with no fraction)
    enum    the values allowed, compared as JSON compares them (1 and 1.0 are one value)
    const   the one value allowed

Unlike the other families they apply to every kind of value, so the other stages still
read ``type`` to pick a value's kind (see "What stays in the stages" below).

Its modules, one per stage, in the order of the stages:

    rules.py    contract stage   what the contract check says: ``type`` names JSON types, each
                                 once; ``enum`` is a list; a member listed twice, or one
                                 ``type`` or the rest of its schema refuses, is a warning
                                 (legal, it changes nothing); an empty ``enum`` or a ``const``
                                 no value passes is a warning (``rules.no_value``;
                                 ``rules.unsatisfiable``: a schema no value passes, told by
                                 the reference evaluator, where a stage hands it in, whether
                                 the rest refuses every listed value); a mapping root is ``type: object`` without
                                 ``enum``/``const``. Called by contract/checker.py:
                                 ``rules.root``, ``rules.declared_types``, ``rules.check``,
                                 ``rules.warnings``, ``rules.dead_members``, ``rules.dead_const``;
                                 ``rules.is_fixed`` and ``rules.fixed_values`` (the values a
                                 schema lists) for witness/values.py (a listed value is tried
                                 instead of a search) and the combinators' tagged unions.
    oracle.py   contract stage   the reference evaluation: ``oracle.wrong_type(schema, value)``
                                 (a value of the wrong type is refused by ``type`` alone,
                                 nothing else of its schema is evaluated), then
                                 ``oracle.refused(schema, value)`` yields ``enum``/``const``.
                                 Called by contract/reference.py for every value it meets.
    values.py   witness stage    the derived cases at and beside the values enum and const
                                 name (``values.string_member_variants``,
                                 ``values.member_variants``: each tested member, one in the
                                 wrong case, no member, the const and a value beside it) for
                                 codegen/cases.py (with a schema's types as written,
                                 ``values.declared``, and ``NON_LOCAL``). They need nothing
                                 of codegen/, so they stay
                                 at the witness rank (no ``cases.py``).
    checks.py   codegen stage    the model's checks: ``checks.type_message(context, declared,
                                 label)`` is what a node's type test reports, and
                                 ``checks.value_checks(context, schema, kind, label, path)``
                                 returns the ``Check`` of enum and const (a fast comparison
                                 where the branch pins the type), for codegen/building/nodes.py;
                                 the macros ``not_in``, ``json_not_in``, ``not_equal``, ... of
                                 templates/checks.py.j2 print them.
    typing.py   codegen stage    what the keywords make of a value's Python type, for
                                 codegen/typing_model.py: the JSON types ``type`` admits
                                 (``declared_types``, the model's branch per type reads it
                                 too), the ``Literal`` of an enum or const (``literal_type``),
                                 the types a union's branch and its schema share.
    export.py   platforms stage  each platform's lowering: platforms/export.py's dispatch table maps
                                 the three keywords to ``export.lower(lowering, keyword, out)``
                                 (type kept; Anthropic drops objects and arrays among the
                                 values), its Gemini finish calls ``export.gemini_values``
                                 (string enums, a string const as an enum of one, null as
                                 nullable), and it reads a node's types with ``export.type_list``
                                 and ``export.inferred_type``.
    review.py   review stage     how ``toolshape diff`` decides and samples a change:
                                 ``review.decides``/``review.change`` decide a changed type or
                                 enum by set inclusion, and a const that stays the same value,
                                 for review/decisions.py (``ADDED_OR_REMOVED``: enum and const
                                 when they come or go); ``review.may_be(node, kind)`` is what a
                                 node's type admits, for the other families' decisions;
                                 the members review/samples.py tries are
                                 ``values.listed_values(schema)``.

What stays in the stages, and why (``tests/test_vocabulary.py`` lists each module that still
names these keywords, with its reason). ``type`` says which kinds a value may be, so every
walk that picks a kind still reads it: the one subschema walk (``schema/keywords.py``), the
model's branch per type (``codegen/building/nodes.py``, with ``typing.declared_types``), the
kinds the witness engine tries, redaction and the OpenAI absent-nulls table, the other families' own reading of it
(an integer step, an object node, a nullable key), and each platform's finish of a node
(OpenAI strict mode needs a type; Gemini takes one type with ``nullable``; nullable by type;
merging two schemas). Also left (``importing.py`` translates ``type`` and OpenAPI's
``nullable``): the importer's dropping of enum members of another type (how an older spelling reads, not what a stage does), redaction's
strings a sensitive place may hold, review/walk.py's comparison of ``type`` and ``enum`` as
sets (review/walk.py sits below review/samples.py, which review.py here imports).

How to add a keyword to the family (a new keyword about a value whatever its kind):

1. its row in ``schema/vocabulary.py``;
2. in each module above, the part of its stage: its value rule (rules.py), its evaluation
   (oracle.py), the values it names and the cases at and beside them (values.py), its
   ``Check`` (checks.py), which platforms take it (export.py, and its entry in the lowering
   table there), how a change of it is decided and sampled (review.py);
3. when the generated check is new: its branch in ``templates/checks.py.j2``, and its test's
   name in ``CheckTest`` (``codegen/model_parts.py``; ``tests/test_template_branches.py``
   fails until both exist).

``tests/test_vocabulary.py`` fails while a stage does not know it.
"""
