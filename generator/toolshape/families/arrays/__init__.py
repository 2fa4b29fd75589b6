"""The arrays family: ``items``, ``prefixItems``, ``contains`` and the array counts, every
stage's knowledge of them.

Built like ``families/numbers/`` (read its docstring first: the layout, the interfaces and
the notes are the same).

What it covers. Eight keywords, named in ``schema/vocabulary.py`` (their rows say they apply
to arrays, the kind of value they take, and for a count its side and what it limits;
``unevaluatedItems``, which depends on what these evaluate, is the unevaluated family's):

    prefixItems                 a schema per position, from the first item
    items                       the schema of every item after the prefixItems
    contains                    the schema some items must match
    minContains, maxContains    how many items contains must match (1 and no limit if absent)
    minItems, maxItems          how many items the array may hold
    uniqueItems                 no two items equal as JSON values (true is not 1, 1 is 1.0)

They apply to arrays only (JSON Schema lets every other value pass them). ``prefixItems``,
``items`` and ``contains`` hold subschemas: the walks over subschemas (schema/keywords.py,
contract/unfolding.py, contract/redaction.py, codegen/masks.py, the derived cases' and the
review's walks) find them through the vocabulary and step into them themselves; that is not
this family's knowledge (``tests/test_vocabulary.py`` lists each such module, with why).

Its modules, one per stage, in the order of the stages (a module imports its own stage and
earlier ones; ``tests/test_import_graph.py`` ranks each with its stage):

    rules.py    contract stage   what the contract check says: uniqueItems true or false,
                                 items one schema (a list is prefixItems), and a minItems
                                 that items: false leaves reachable. Called by
                                 contract/checker.py: ``rules.check(schema, path)`` yields
                                 (path, message) problems, and the checker does not descend
                                 into ``rules.not_schemas(schema)``. The counts' value rules
                                 and min-above-max are every count's, in the checker.
    oracle.py   contract stage   the reference evaluation: ``oracle.refused(schema, value,
                                 check_item, matches)`` yields the keywords that refuse an
                                 array and hands each item to the schema of its position.
                                 Called by contract/reference.py for every array it meets.
    values.py   witness stage    accepted values and the derived cases: ``values.candidates(flat,
                                 conjunction, max_size)`` yields the shortest arrays every
                                 schema of an alternative allows (their items found by the
                                 engine one level down, through ``conjunction``), for
                                 witness/values.py, which also asks ``values.hinted(schema)``;
                                 and the derived cases at minItems, maxItems and uniqueItems
                                 (``values.size_variants(schema, pool, max_items)``, with
                                 ``pool_size`` and ``too_large``) for codegen/cases.py,
                                 which also reads ``values.NON_LOCAL``. They
                                 need nothing of codegen/, so they stay at the witness rank.
    cases.py    codegen stage    where codegen/cases.py's walk steps into an array: the
                                 schema of an item and where it is written (``items_of``,
                                 ``positions``, ``item_schema``, ``items_path``).
    checks.py   codegen stage    the model's checks: ``checks.array_checks(context, schema,
                                 var, path, schema_path, label)`` returns the array's
                                 ``ArrayChecks`` (its count and uniqueness checks, the node
                                 of each prefixItems position and of the items after them,
                                 the contains count), for codegen/building/nodes.py; printed
                                 by the array macros of templates/checks.py.j2, and
                                 uniqueItems' ``_has_duplicates`` is in
                                 templates/_runtime.py.j2. The count checks are the family's
                                 rows (``ITEM_COUNTS``) written by the shared size checks of
                                 codegen/building/counts.py, as the string and object counts.
    typing.py   codegen stage    the items' Python type: ``typing.item_types(of, schema, hint,
                                 path)`` lists each prefixItems position's type and the other
                                 items', for codegen/typing_model.py's ``list[...]``.
    export.py   platforms stage  each platform's lowering: platforms/export.py's dispatch table
                                 maps the eight keywords to ``export.lower(lowering, kw,
                                 out)`` (prefixItems made items that any position
                                 satisfies, the counts each platform takes, the rest dropped
                                 with a note). It lowers the subschemas it holds through
                                 ``lowering.lower`` and ``lowering.finish``, in the
                                 interface of platforms/lowering.py.
    review.py   review stage     how ``toolshape diff`` decides and samples a change:
                                 ``review.ADDED_OR_REMOVED`` (uniqueItems, items) are decided
                                 only when they come or go, in review/decisions.py (the item
                                 counts are decided by its shared count ranges);
                                 ``review.item_schemas(schemas)`` and
                                 ``review.arrays_at_bounds(schemas, arrays, pool)`` are what
                                 review/samples.py builds arrays from and tries at each count
                                 and around uniqueness; review/search.py crafts a changed
                                 array's items from ``review.item_schemas(nodes)`` and
                                 ``review.contains_schemas(nodes)``.

Each module says what it holds in its docstring; each stage keeps only the call.

The importer's translation of draft 2019's list ``items`` (and ``additionalItems``) is
``importing.py``'s; platforms/export.py calls ``export.openai_items``, ``gemini_items`` and
``fill_items`` for what each platform requires of an array.

How to add a keyword to the family (a new array keyword):

1. its row in ``schema/vocabulary.py`` (``applies_to="array"``; ``shape``/``applies`` when it
   holds subschemas, ``bound``/``limits`` for a count);
2. in each module above, the part of its stage;
3. when the generated check is new: its branch in ``templates/checks.py.j2``, and its test's
   name in ``CheckTest`` (``codegen/model_parts.py``; ``tests/test_template_branches.py``
   fails until both exist).
"""
