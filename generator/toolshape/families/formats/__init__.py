"""The formats family: ``format``, every stage's knowledge of it.

Built as ``families/numbers/`` is (read its ``__init__.py`` first: the layout, the
interfaces and the rule that a module is ranked with its stage are the same).

What it covers. One keyword, ``format``, and the formats it names: every format of JSON
Schema 2020-12, each listed once in ``schema/vocabulary.py`` (``FORMATS``: its name and how a
message describes a valid value). toolshape asserts them all; any other name is an annotation
(as JSON Schema 2020-12 reads an unknown format), checked by nothing, unless it is a near
miss of a known name (a typo).
A format applies to strings only; JSON Schema lets a format stand beside another type (the
values it does not apply to pass), so the checker's applicability rule leaves it out. The
generated check of each format is a runtime function, ``_is_<format>``, in
``templates/formats.py.j2``: the family's template.

Its modules, one per stage, in the order of the stages:

    rules.py    contract stage   what the contract check says: a near miss of a name of
                                 FORMATS is an error with a did-you-mean hint, any other
                                 unknown name a warning (an annotation). Called by
                                 contract/checker.py: ``rules.check(schema, path)`` and
                                 ``rules.warnings(schema, path)`` yield (path, message).
    oracle.py   contract stage   the reference evaluation: one oracle per format, written from
                                 the RFCs apart from the generated checks (``FORMAT_ORACLES``);
                                 ``oracle.refused(schema, value)`` yields ``format`` for a
                                 string not of the schema's format. Called by
                                 contract/reference.py for every string it meets.
    values.py   witness stage    a valid value and a near miss of each format within length
                                 bounds (``values.valid``, ``values.invalid``: a builder per
                                 format, every value confirmed by the reference evaluator),
                                 handed to the engine by witness/sources.py; the format
                                 samples of one alternative (``values.strings(flat, negated,
                                 low, high)``) and the format a near miss fails by
                                 (``values.format_of``) for witness/values.py.
    cases.py    codegen stage    the derived case: ``cases.bound_variants(engine, schema)``
                                 yields a near miss of the format (confirmed by the engine to
                                 fail by the format alone), for codegen/cases.py.
    checks.py   codegen stage    the model's check: ``checks.format_check(context, schema,
                                 label)`` is a ``bad_format`` Check calling the format's
                                 runtime function (``format_function``), with the format's
                                 phrase in its message; codegen/building/strings.py puts it
                                 between the strings family's length and pattern checks.
    export.py   platforms stage  each platform's lowering: the formats each platform documents
                                 (``OPENAI_FORMATS``, ...); platforms/export.py's dispatch
                                 table maps ``format`` to ``export.lower(lowering, keyword,
                                 out)`` (kept when documented, else dropped with a note), and
                                 the MCP definition's notes take ``export.annotation_note``.
    review.py   review stage     how ``toolshape diff`` decides and samples a change: a format
                                 decided only when added or removed (review/search.py, for
                                 ``review.FORMAT``), and ``review.samples(schema)``, a valid
                                 value and a near miss of each format, for review/samples.py.

Each module says what it holds in its docstring; each stage keeps only the call.

What stays outside: the format names and phrases themselves (``schema/vocabulary.py``'s
``FORMATS``, read by every module here; ``contract/checker.py`` keeps ``FORMATS`` for its
importers), the runtime functions (``templates/formats.py.j2``), the order of a string's
checks around the format (codegen/building/strings.py), witness/sources.py's fallback
samples. (The importer's handling of a format name toolshape does not assert, kept as the
annotation ``x-format``, is ``importing.py``'s.)

How to add a format: its row in ``FORMATS`` (name and phrase); its oracle in oracle.py
(``FORMAT_ORACLES``); its builder of valid values in values.py; its ``_is_<format>`` in
``templates/formats.py.j2``; and in export.py, the platforms that document it.
``tests/test_vocabulary.py`` fails until it has a runtime check, a witness and a near miss,
and when a module outside the family spells ``format`` (``SAME_WORD`` lists where the word
means something else).
"""
