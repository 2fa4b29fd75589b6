"""What the contract check says of ``pattern`` (contract stage).

A pattern must be a string that means in Python exactly what it means in ECMA-262, compiles,
and runs in linear time in the validator (``regex.linear``: no backreference, no lookaround
it cannot serve). One that a backtracking engine would run for exponential time is a warning
(:func:`backtracking_warning`): toolshape matches it in linear time everywhere (the validator
with ``regex.linear``, the generator with its counted ``regex.matcher``), but a platform that
validates the same schema with ``re`` or JavaScript's ``RegExp`` would not. ``contract/checker.py``
calls :func:`check` and :func:`warnings` on every schema, and :func:`pattern_problem` and
:func:`backtracking_warning` on each key of ``patternProperties`` (the same rules, at a key). ``minLength``/``maxLength`` are
counts: the checker checks them with the other counts, from the vocabulary's ranges.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ...regex import PatternError, backtracking_problem
from ...regex import translate as translate_pattern
from ...regex.linear import problem as linear_problem
from ...regex.syntax import as_written
from ...schema import vocabulary
from ...schema.pointers import SchemaPath

#: The keyword holding a regular expression the value must match.
(PATTERN,) = vocabulary.taking("pattern")

#: One problem: where (a schema path from the document root) and what.
Problem = tuple[SchemaPath, str]


def check(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """The problems of the family's keywords in one schema."""
    if PATTERN not in schema:
        return
    pattern = schema[PATTERN]
    if not isinstance(pattern, str):
        yield path + (PATTERN,), f"'{PATTERN}' must be a string (a regular expression)"
        return
    problem = pattern_problem(pattern)
    if problem is not None:
        yield path + (PATTERN,), problem


def warnings(schema: dict[str, Any], path: SchemaPath) -> Iterator[Problem]:
    """The warnings of the family's keywords in one schema (a pattern that backtracks)."""
    pattern = schema.get(PATTERN)
    if isinstance(pattern, str) and pattern_problem(pattern) is None:
        warning = backtracking_warning(pattern)
        if warning is not None:
            yield path + (PATTERN,), warning


def pattern_problem(pattern: str) -> str | None:
    """What keeps ``pattern`` from being checked as JSON Schema means it (None: nothing).

    The exponential-backtracking lint runs here, before any case derivation, so the
    generator's own ``re`` confirmations never hang on such a pattern."""
    try:
        re.compile(translate_pattern(pattern))
    except PatternError as exc:
        return (
            f"pattern {as_written(pattern)} cannot keep its JSON Schema (ECMA-262) meaning: {exc}"
        )
    except (re.error, RecursionError, OverflowError) as exc:
        return f"pattern {as_written(pattern)} does not compile: {exc}"
    problem = linear_problem(pattern)
    if problem is not None:
        return f"pattern {as_written(pattern)} cannot be checked in linear time: {problem}"
    return None


def backtracking_warning(pattern: str) -> str | None:
    """The warning for a pattern (one ``pattern_problem`` passes) that a backtracking engine
    would run for exponential time, or None. Not an error: the generated validator runs every
    pattern in linear time (regex.linear) and the generator matches with its counted matcher,
    never ``re``; but the same schema given to another validator could hang it. (A bound of 1
    keeps only the exponential verdict and "too large to analyse": polynomial ambiguity is
    a cost only to a backtracking engine, and a small one.)"""
    problem = backtracking_problem(pattern, 1)
    if problem is None:
        return None
    return (
        f"{problem}; toolshape's validator matches it in linear time, but a platform that "
        "validates with a backtracking engine (Python's re, JavaScript's RegExp) may hang on it"
    )
