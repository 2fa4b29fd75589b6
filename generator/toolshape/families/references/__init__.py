"""The references family: ``$ref``, ``$defs`` (and the older ``definitions``), ``$anchor``,
``$id``, every stage's knowledge of them.

Built as ``families/numbers/`` is (read its ``__init__.py`` first: the layout, the
interfaces and the rule that a module is ranked with its stage are the same).

What it covers. A contract's references are local: a ``$ref`` is ``#`` or a JSON Pointer
fragment (``#/$defs/name``) into the contract's ``parameters``, never fetched; the schemas
they share sit under ``$defs`` (the importer moves older drafts' ``definitions``, and any
other target, there). ``$anchor`` and ``$id`` are annotations: checked for form, never
followed (an ``$id`` is allowed on the root only). The keywords are named in
``schema/vocabulary.py``; the family has no template of its own (a reference is printed as a
call to its target's function, by the ``ref`` branch of the ``applicator`` macro in
``templates/checks.py.j2``).

Its modules, one per stage, in the order of the stages (a module imports its own stage and
earlier ones; ``tests/test_import_graph.py`` ranks each with its stage):

    targets.py    contract stage   where a reference points, for every stage that follows one:
                                   ``targets.target(root, schema)`` is the schema a node's
                                   ``$ref`` reaches (None: it holds none), ``targets.followed``
                                   the same as a list for a walk, ``targets.ref_of`` and
                                   ``targets.path_of`` the reference itself, and
                                   ``targets.is_definition(where)`` whether a place is under
                                   ``$defs`` (``targets.is_defs_entry(path)``: an entry of the
                                   root's). Called by contract/reference.py (the reference
                                   evaluation follows a reference: no oracle.py of its own),
                                   contract/unfolding.py (the edges of the reference graph,
                                   whose cycles it refuses) and contract/redaction.py, and by
                                   the later stages that follow a reference: the witness engine
                                   (witness/values.py), the derived cases (codegen/cases.py: a
                                   bare ``$ref`` stands for its target) and the redaction masks
                                   (codegen/masks.py). No values.py or cases.py: a reference has
                                   no values of its own, only its target's.
    rules.py      contract stage   what the contract check says: a ``$ref`` is a local reference
                                   to a schema in ``parameters`` (or ``output``, where it
                                   sits: ``rules.check(schema, path, root, top)``), an
                                   ``$anchor`` a name and an ``$id`` without
                                   a fragment (``rules.annotation_problems(schema, path)``).
                                   Called by contract/checker.py.
    checks.py     codegen stage    the model's part: a ``$ref`` becomes a call to its target's
                                   function, made once however often the target is used
                                   (``checks.reference_call(context, schema, var, path,
                                   schema_path, label)``, the first applicator
                                   codegen/building/applicators.py lists, its comment
                                   codegen/building/functions.py's ``applicator_note``;
                                   ``checks.finish(context)`` builds the functions left waiting
                                   past ``MAX_NESTED_REFS``, called by codegen/model.py).
                                   Printed by the ``ref`` branch of the ``applicator`` macro in
                                   templates/checks.py.j2.
    export.py     platforms stage  each platform's lowering: platforms/export.py's dispatch
                                   table maps ``$ref`` and ``$defs`` to ``export.lower(lowering,
                                   keyword, out)`` (kept; Gemini: ``$defs`` dropped), its fold
                                   asks ``export.inlined_target(lowering, node, path)`` for
                                   the folded target of a ``$ref`` the platform replaces by its
                                   target (``export.inlines``: always for Gemini; beside other
                                   keywords, or into a place other than the root or ``$defs``;
                                   the interface it needs is ``Folding``, in
                                   platforms/lowering.py), and Anthropic's refusals take
                                   ``export.recursive_refs(root)``.
    importing.py  platforms stage  the importer's moving of ``$ref`` targets under ``$defs``
                                   (every reference of an imported contract a ``#/$defs``
                                   pointer): ``importing.hoist(result, target)`` moves one and
                                   leaves a ``$ref`` in its place, under a fresh readable name
                                   (``importing.definition_name``); ``importing.relocated``
                                   rebases a recorded path past the moves, once, when read (the
                                   linear-time behaviour of issue 20);
                                   ``importing.ref_to(path)`` spells the pointer. Called by
                                   platforms/importer.py, which keeps its notes and errors.
                                   And the translation of each reference keyword as a draft
                                   spells it (``$ref``, ``definitions``/``$defs``, the anchors,
                                   ``$dynamicRef``, ``$recursiveRef``), through the importer's
                                   dispatch tables (``importing.TRANSLATIONS``,
                                   ``importing.REFERENCE_TRANSLATIONS``); the names the
                                   importer's walk reads (``importing.ID``, ``LEGACY_ID``, the
                                   anchors, ``DEFINITION_PLACES``), whether a root ``$ref`` is
                                   hoisted to the root (``importing.hoisted_ref``) and the
                                   draft signs of references (``importing.legacy_id``,
                                   ``keeps_definitions``, ``recursive``).
    dynamic.py    platforms stage  the importer's binding of ``$dynamicRef`` and 2019-09's
                                   ``$recursiveRef`` to the dynamic scope: each definition a
                                   dynamic reference is reached from, built once per binding of
                                   the anchors in scope, every dynamic reference a plain ``$ref``
                                   (``dynamic.specialise(result, scope)``, bounded by
                                   ``MAX_VARIANTS``). Called by platforms/importer.py, which
                                   learns the resources and anchors (``dynamic.Scope``). A
                                   contract itself never holds a dynamic reference: the contract
                                   check refuses one, naming ``toolshape import``.
    review.py     review stage     how ``toolshape diff`` reads a change behind a reference: a
                                   definition no ``$ref`` names has no validation effect
                                   (``review.referenced(root, name)``, for review/walk.py), the
                                   instance places of a changed definition are those of the
                                   references to it (``review.definition_ref(name)``, for
                                   review/samples.py), and a change's polarity is read through
                                   every reference of the schema (``review.refs_in(root)``, for
                                   review/decisions.py).

Each module says what it holds in its docstring; each stage keeps only the call.

What stays outside: the importer's walk over each draft's references (the ``$anchor``
indexes, resolving a reference against ``$id`` bases, rewriting every reference at the end)
in platforms/importer.py, which reads each keyword through this family's names. The stages
that
follow a reference name it through ``targets.REF`` and ``targets.DEFS`` where it is a step
of a path or a key a walk meets (unfolding's cycle sites, the export's merge of two schemas'
``$defs`` and its OpenAI size limits, the review's words for a map's entries).

How to add a keyword to the family: its row in
``schema/vocabulary.py``; its rule in rules.py; how it reaches its target in targets.py
(every stage that follows a reference then follows it too); and in each stage module of the
family, what that stage does with it.
"""
