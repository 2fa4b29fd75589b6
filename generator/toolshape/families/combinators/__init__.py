"""The combinators family: ``allOf``, ``anyOf``, ``oneOf``, ``not`` and ``if``/``then``/
``else``, the keywords whose subschemas apply to the same value. Built the way
``families/numbers/`` is (read its notes first).

What it covers. Seven keywords, named in ``schema/vocabulary.py`` (their rows hold
subschemas, one or a list, that apply to the same value: ``vocabulary.holders("one", "same
value")`` and ``vocabulary.holders("list", "same value")``):

    allOf           every subschema holds (an entry that is the same schema is applied once)
    anyOf, oneOf    at least one branch holds, exactly one branch holds ("null, or X", the
                    usual spelling of an optional value, reads X's own errors)
    not             the subschema does not hold
    if, then, else  when ``if`` holds, ``then`` must; when it does not, ``else`` must

Unlike the other families they apply to every kind of value, and their subschemas hold
every other family's keywords: a stage that only walks into subschemas (any keyword's, to
reach the schemas below) reads the holders and their shape from the vocabulary, never these
names (see "What stays in the stages" below).

Its modules, one per stage, in the order of the stages:

    rules.py    contract stage   what contract/unfolding.py knows of their meaning: an
                                 ``allOf``'s distinct entries (``rules.applied_entries``,
                                 ``rules.distinct_entries``), the two branches of an ``if``
                                 that never run together (``rules.BRANCHES``) and a union's
                                 tag (``rules.union_tag``: the key whose constant picks the
                                 one alternative that runs; ``checks.py`` lays it out).
    oracle.py   contract stage   the reference evaluation: ``oracle.refused(schema, value, apply,
                                 matches)`` yields the keywords that refuse a value, the
                                 subschemas that must hold going to ``apply``. Called by
                                 contract/reference.py for every value it meets.
    values.py   witness stage    how the witness engine reads them: ``values.conjuncts`` (an
                                 ``allOf``'s entries hold with the schema), ``values.choices``
                                 (a branch of each ``anyOf``/``oneOf``, a side of each ``if``)
                                 and ``values.negated`` (a ``not``), for witness/values.py;
                                 ``values.alternatives`` (the branches a value takes one of,
                                 for codegen/masks.py's absent-nulls table);
                                 ``values.unions`` (each ``anyOf``/``oneOf`` with its
                                 keyword, for codegen/typing_model.py's union types); and
                                 ``values.negation(schema)``, the schema of the values another
                                 refuses, which the stages and the other families use to ask
                                 for a value that does not match.
    cases.py    codegen stage    the derived cases: ``cases.conjuncts`` and ``cases.branches``
                                 (the subschemas codegen/cases.py walks into, from a value
                                 taking each branch), ``cases.broken`` (the values that break
                                 one combinator and keep the rest of the schema),
                                 ``cases.followed`` (the subschemas the generated validator
                                 applies to a value) and ``cases.NON_LOCAL``. They are at the
                                 codegen rank because only codegen/cases.py asks.
    checks.py   codegen stage    the model's checks: ``checks.combinator_checks(context, schema,
                                 var, path, schema_path, label)`` returns an ``Applicator``
                                 per combinator (``all_of``, ``nullable``, ``any_of``,
                                 ``one_of``, ``tagged``, ``not``, ``if``; ``tagged`` is an
                                 anyOf/oneOf whose alternatives each fix one key to a
                                 constant of their own, ``checks.union_tag``: the value's
                                 tag picks the alternative), for codegen/building/
                                 applicators.py, which asks the references family for the
                                 ``$ref`` one before them; what every applicator shares (its
                                 comment, the label a branch function is handed) is
                                 codegen/building/functions.py's; each kind is printed by its
                                 branch in templates/checks.py.j2.
    export.py   platforms stage  each platform's lowering: platforms/export.py's dispatch table maps
                                 anyOf, oneOf, not, if, then and else to ``export.lower``
                                 (``anyOf`` kept, ``oneOf`` loosened to ``anyOf``, the others
                                 dropped with a note); its fold merges ``allOf`` into the node
                                 (``export.merged_entries``) and its tool checks take
                                 ``export.root_refusals``. ``export.ANY_OF`` is how the
                                 platforms spell a union, read by the finishes that make or
                                 read one (OpenAI's nullable, Gemini's split types,
                                 Anthropic's union count) and by the arrays family.
    review.py   review stage     how ``toolshape diff`` decides a change under them (otherwise
                                 searched with sampled candidates): ``review.polarity_step``
                                 (a change under an allOf or anyOf entry, a then or an else
                                 keeps its direction, under a not it turns, under a oneOf or
                                 an if it is unknown), for review/decisions.py's
                                 ``polarity_of``; ``review.entry_change`` (an allOf entry
                                 added only refuses more, an anyOf entry added only accepts
                                 more), for review/search.py; and ``review.ADDED_OR_REMOVED``
                                 (a not that comes or goes).

Each module says what it holds in its docstring; each stage keeps only the call.

What stays in the stages, and why:

- the walks into subschemas (any keyword's, to reach the schemas below, or the graph of the
  schemas applied to one value) read the holders, their shape and where they apply from the
  vocabulary (``vocabulary.holders``), never these names: ``schema/keywords.py``,
  ``contract/unfolding.py``, ``contract/redaction.py``, ``codegen/masks.py``,
  ``codegen/building/context.py`` (the words of a generated name), ``codegen/cases.py``
  (a value whose type a subschema decides), ``review/samples.py``, ``review/walk.py`` and
  ``review/decisions.py`` (``COMBINATORS``);
- ``$ref``, which applies its target to the same value too, belongs to the references
  family (``families/references/``), not to this one: the stages call both families;
- the applicator kinds ``negated`` (not) and ``conditional`` (if) (``ApplicatorKind`` in
  codegen/model_parts.py, and the runtime helper they need in codegen/runtime_imports.py)
  name their branches in templates/checks.py.j2; the error code a branch prints is the
  keyword checks.py hands it (``Applicator.keyword``);
- platforms/importer.py: a ``then`` or ``else`` without its ``if`` dropped with a warning
  (in the order the warnings have always had, with the contains counts), and an ``enum`` no
  member of which can pass kept as ``allOf: [false]``: what the importer does with an
  imported schema.

How to add a keyword to the family (a new keyword applying subschemas to the same value):

1. its row in ``schema/vocabulary.py`` (its value ``schema`` or ``schema list``,
   ``applies="same value"``, ``needs`` if it has no effect alone) and its place in
   ``SUBSCHEMA_ORDER``: every walk above then steps into it, and the unfolding counts it;
2. in each module above, the part of its stage: what unfolding must know of its meaning
   (rules.py), its evaluation (oracle.py), how a value satisfies it (values.py), its
   branches and the values that break it (cases.py), its ``Applicator`` (checks.py), which
   platforms take it (export.py), the direction a change under it takes (review.py);
3. its ``ApplicatorKind`` (``codegen/model_parts.py``) and its branch in
   ``templates/checks.py.j2`` (``tests/test_template_branches.py`` fails until both exist).

``tests/test_vocabulary.py`` fails while a stage does not know it.
"""
