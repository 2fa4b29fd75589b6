"""The strings family: ``minLength``, ``maxLength`` and ``pattern``, every stage's knowledge of them.

Built as ``families/numbers/`` is (read its ``__init__.py`` first: the layout, the
interfaces and the rule that a module is ranked with its stage are the same).

What it covers. Three keywords, named in ``schema/vocabulary.py``:

    minLength, maxLength   the length range: counts of code points (a bound row each, limits="length")
    pattern                a regular expression (ECMA-262) the string must match somewhere

They apply to strings only. A string over ``maxLength`` is never tried against ``pattern``:
the generated check stops at the length, so a pattern may rely on it (it runs as ``re`` where
that is linear up to the bound, ``regex.linear``). The pattern machinery itself (parsing,
translating, matching, the near-miss search) is ``regex/``: the family says what each stage
does with the keywords and calls ``regex/`` for the work.

Its modules, one per stage, in the order of the stages:

    rules.py    contract stage   what the contract check says of a pattern: a string, with the
                                 same meaning in Python as in ECMA-262, linear in the validator,
                                 no exponential backtracking. Called by contract/checker.py:
                                 ``rules.check(schema, path)`` yields (path, message) problems,
                                 and ``rules.pattern_problem(pattern)`` judges a
                                 patternProperties key the same way. (The lengths are counts:
                                 the checker checks every count range from the vocabulary.)
    oracle.py   contract stage   the reference evaluation: ``oracle.refused(schema, value)``
                                 yields the keywords that refuse a string. Called by
                                 contract/reference.py for every string it meets.
    values.py   witness stage    accepted values: what the family's keywords of one alternative
                                 say of a string, for witness/values.py:
                                 ``values.length_bounds(flat)``, ``values.patterns(flat,
                                 negated)`` (to match, to avoid; the search is regex/'s),
                                 ``values.fillers(low, high)`` (plain strings at and inside
                                 the bounds), ``values.constrains(schema)``, a length range as
                                 keywords (``of_lengths``, for families/formats/values.py too) and the
                                 one-keyword pattern schema (``pattern_of``, ``matching``).
    cases.py    codegen stage    the derived cases: ``cases.bound_variants(deriver, schema,
                                 schema_path, value)`` yields one character short of
                                 minLength, one past maxLength, exactly each bound, and a near
                                 miss of the pattern, for codegen/cases.py. Unlike the
                                 numbers' variants they need the deriver (the engine, the
                                 warning for a bound too long to test: ``cases.Deriver``), so
                                 they sit at the codegen rank.
    checks.py   codegen stage    the model's checks: ``checks.length_checks(context, schema,
                                 label)`` (the length rows, ``LENGTHS``, written by the shared
                                 size checks of codegen/building/counts.py) and
                                 ``checks.pattern_check(context, schema, label,
                                 schema_path)``, for codegen/building/strings.py, which puts
                                 an asserted format after both; ``checks.pattern_bound``
                                 is the maxLength a pattern may rely on (propertyNames' too).
                                 Each test is printed by its macro in templates/checks.py.j2
                                 (``shorter``, ``longer``, ``blank``, ``no_match``).
    export.py   platforms stage  each platform's lowering: platforms/export.py's dispatch table
                                 maps the three keywords to ``export.lower(lowering, keyword,
                                 out)``: the lengths kept for Gemini only, the pattern kept
                                 everywhere but where Anthropic's grammar compiler refuses it.
    review.py   review stage     how ``toolshape diff`` decides and samples a change: a changed
                                 pattern by the regex difference both ways
                                 (``review.pattern_difference(before, after, budget)``, made a
                                 Decision by review/search.py, which also tries
                                 ``review.strings_apart``); the length bounds by
                                 review/decisions.py's shared interval comparison; and the
                                 strings review/samples.py tries at each length bound and
                                 near each pattern (``strings_at_lengths``,
                                 ``strings_near_patterns``, ``near_misses``). It reads nothing
                                 of review/ but the report's reasons (decisions.py reads
                                 samples.py, which reads it).

Each module says what it holds in its docstring; each stage keeps only the call.

What stays in the stages, shared with other families: the count checks of the contract
(every min/max pair from the vocabulary's ranges, contract/checker.py), the size check all
three size families print (codegen/building/counts.py, fed the family's ``LENGTHS``), the
interval comparison of review/decisions.py, and the order of a string's checks around an
asserted ``format`` (codegen/building/strings.py, witness/values.py: the formats family's).

How to add a keyword to the family (a new string keyword):

1. its row in ``schema/vocabulary.py`` (``applies_to="string"``; ``bound``/``limits="length"``
   for a length bound: the checker's count ranges and the review's intervals read it there);
2. in each module above, the part of its stage: its value rule (rules.py), its evaluation
   (oracle.py), the strings that pass it (values.py) and just fail it (cases.py), its
   ``Check`` (checks.py), which platforms take it (export.py), how a change of it is decided
   and sampled (review.py);
3. when the generated check is new: its branch in ``templates/checks.py.j2``, and its test's
   name in ``CheckTest`` (``codegen/model_parts.py``).

``tests/test_vocabulary.py`` fails while a stage does not know it, and when a module outside
the family spells one of its names (``SAME_WORD`` lists where "pattern" means something else).
"""
