"""Keyword families: what every stage knows of a group of keywords that belong together.

The families, each a sub-package:

    numbers/   minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf
    strings/   minLength, maxLength, pattern
    formats/   format (with each format's oracle and its valid and near-miss values)
    arrays/    items, prefixItems, contains, minContains, maxContains, minItems, maxItems,
               uniqueItems
    objects/   properties, required, additionalProperties, patternProperties, propertyNames,
               minProperties, maxProperties, dependentRequired, dependentSchemas
    values/    type, enum, const
    combinators/  allOf, anyOf, oneOf, not, if, then, else
    references/   $ref, $defs (and the older definitions), $anchor, $id; through import,
                  $dynamicRef, $dynamicAnchor, $recursiveRef, $recursiveAnchor
    unevaluated/  unevaluatedProperties, unevaluatedItems (what the others evaluated, read
                  from the vocabulary's ``evaluates`` and ``collects``)
    annotations/  title, description, default, examples, $comment and the other keywords
                  that never change which values pass (read from the vocabulary's
                  ``annotation`` and ``exported``)

A family is a sub-package (``families/numbers/``: the numeric bounds and ``multipleOf``)
holding one module per stage, each with that stage's knowledge of the family's keywords and
nothing else: the contract rules, the reference evaluation, the values that pass and just
fail, the model's checks, each platform's lowering, how the review decides and samples a
change. The keywords themselves are named once, in ``schema/vocabulary.py``; their template
macro stays in ``templates/checks.py.j2``. So a keyword lives in three places: the vocabulary
table, its family, its macro (Ajv keeps ``limitNumber.ts`` the same way; python-jsonschema
dispatches one function per keyword by name). One place outside may still name it: a new
kind of check adds its test's name to ``CheckTest`` (``codegen/model_parts.py``). How an
older draft spelled a keyword is the family's ``importing.py`` too: its translation, and the
test the importer's draft guess asks of a schema (draft 4's boolean ``exclusiveMinimum``:
``numbers/importing.boolean_exclusive``).

The rule: a family's modules are ranked by their stage (``tests/test_import_graph.py``):

    rules.py, oracle.py   the contract stage   (beside contract/)
    values.py             the witness stage    (beside witness/)
    cases.py, checks.py,  the codegen stage    (beside codegen/)
    typing.py
    export.py, importing.py  the platforms stage  (beside platforms/)
    review.py             the review stage     (beside review/)

A family module imports its own stage and earlier ones, like any module of that stage; the
stage imports the family module, never the other way round. A family does not need every
module: only the stages that know something of its keywords.

How a stage calls a family: through one small interface each, the one the stage already
uses for a keyword, and the stage keeps only the call:

    contract/checker.py    problems = rules.check(schema, path, types)
    contract/reference.py  codes = oracle.refused(schema, value)
    witness/values.py      numbers = values.candidates(schemas, kind, negated)
    codegen/cases.py       cases = values.bound_variants(schema, value)
    codegen/building/      checks = checks.number_checks(context, schema, label)
    platforms/export.py    a dispatch table entry: keyword -> export.lower(lowering, keyword, out)
    review/decisions.py    old, new = review.number_range(before, ...), review.number_range(after, ...)
    review/samples.py      values = review.numbers_at_bounds(schemas, known)

``families/numbers/__init__.py`` is the fully commented model: read it before adding a
family. These ``__init__.py`` files hold a docstring only.
"""
