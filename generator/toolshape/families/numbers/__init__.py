"""The numbers family: the numeric bounds and ``multipleOf``, every stage's knowledge of them.

The model for the other families: copy its layout, its interfaces and these notes.

What it covers. Five keywords, named in ``schema/vocabulary.py`` (their rows say what they
apply to, the kind of value they take, and for a bound its side and whether it is exclusive):

    minimum, exclusiveMinimum   the lower bound (the value may equal minimum, not exclusiveMinimum)
    maximum, exclusiveMaximum   the upper bound
    multipleOf                  the step: value / step is an integer, exactly, in decimal

They apply to numbers only (JSON Schema lets every other value pass them), and every stage
compares them as the contract writes them in decimal, never as floats: 1e23 is 10**23, 0.1 is
1/10 (README, "Semantics").

Its modules, one per stage, in the order of the stages (a module imports its own stage and
earlier ones; ``tests/test_import_graph.py`` ranks each with its stage):

    rules.py    contract stage   what the contract check says: each value a number (an exclusive
                                 bound is a number since draft 6), multipleOf above 0, and bounds
                                 that leave some number, integer or multiple that could pass.
                                 Called by contract/checker.py: ``rules.check(schema, path,
                                 types)`` yields (path, message) problems.
    oracle.py   contract stage   the reference evaluation: ``oracle.refused(schema, value)`` yields
                                 the keywords that refuse a number. Called by
                                 contract/reference.py for every number it meets.
    values.py   witness stage    accepted values and near misses: ``values.candidates(schemas, kind,
                                 negated)`` yields numbers on the common grid of every step,
                                 inside the tightest bounds (and just past the bounds of the
                                 schemas that must not hold), for witness/values.py; and the
                                 derived cases' bound variants (``values.bound_variants(schema,
                                 value)``: at, across and just inside each bound, off the
                                 step) for codegen/cases.py. They need nothing of codegen/, so
                                 they stay at the witness rank (no ``cases.py``).
    checks.py   codegen stage    the model's checks: ``checks.number_checks(context, schema, label)``
                                 returns a ``Check`` per keyword (its test, its message, the
                                 bound as written), for codegen/building/nodes.py; each test is
                                 printed by its macro in templates/checks.py.j2 (``below``,
                                 ``not_multiple``, ...), the one template the family has.
    export.py   platforms stage  each platform's lowering: platforms/export.py's dispatch table maps
                                 the five keywords to ``export.lower(lowering, keyword, out)``
                                 (kept for the platforms that take it, else dropped with a
                                 note), and its Gemini finish calls
                                 ``export.gemini_inclusive_bounds`` (exclusive bounds made
                                 inclusive). The interface, ``Lowering`` and ``KeywordAt``, is
                                 in platforms/lowering.py.
    review.py   review stage     how ``toolshape diff`` decides and samples a change:
                                 ``review.number_range(node, integers)`` is the range the
                                 bounds admit, which review/decisions.py compares before and
                                 after (``multipleOf`` is decided only when added or removed);
                                 ``review.numbers_at_bounds(schemas, known)`` are the values
                                 review/samples.py tries at and around each bound and step.

Each module says what it holds in its docstring; each stage keeps only the call.

How to add a keyword to the family (a new numeric keyword):

1. its row in ``schema/vocabulary.py`` (``applies_to="number"``, and ``bound``/``limits``/
   ``exclusive`` for a bound: the lists here read it from there);
2. in each module above, the part of its stage: its value rule and what makes it
   unsatisfiable (rules.py), its evaluation (oracle.py), the values at and across it
   (values.py), its ``Check`` (checks.py), which platforms take it
   (export.py), how a change of it is decided and sampled (review.py);
3. when the generated check is new: its branch in ``templates/checks.py.j2``, and its test's
   name in ``CheckTest`` (``codegen/model_parts.py``; ``tests/test_template_branches.py``
   fails until both exist).

``tests/test_vocabulary.py`` fails while a stage does not know it.
"""
