"""A small, slow, obviously-correct evaluator of the contract semantics.

It is the oracle for the generated tests: the expected outcome of every case the
generator derives (a key dropped, a bound crossed, a type swapped) is computed
here, from the contract, independently of the generated module under test. It
follows the same rules the generated code promises (README, "Semantics"): a
value of the wrong type reports only ``type``; a string over ``maxLength`` is
not tried against ``pattern``; errors for a key point at the key. Whether a string
is of a ``format`` is decided by ``families/formats/oracle.py``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from ..families.arrays import oracle as array_oracle
from ..families.combinators import oracle as combinator_oracle
from ..families.formats import oracle as format_oracle
from ..families.numbers import oracle as number_oracle
from ..families.objects import oracle as object_oracle
from ..families.references import targets
from ..families.strings import oracle as string_oracle
from ..families.unevaluated import oracle as unevaluated_oracle
from ..families.values import oracle as value_oracle
from ..families.values.rules import unsatisfiable
from ..regex.matcher import OutOfSteps
from ..regex.matcher import search as pattern_search
from ..schema import vocabulary
from ..schema.values import is_number

Errors = set[tuple[str, str]]

#: What the evaluator raises where it cannot tell, which is no fault: RecursionError where a
#: value nested deep is checked through a long chain of references (each within its limit, not
#: both at once), ``OutOfSteps`` where a pattern needs more steps than a match may take (see
#: :func:`matches_pattern`). A caller with a safe answer for "cannot tell" catches these; any
#: other error inside the evaluator is a bug, and is raised.
CANNOT_TELL: tuple[type[Exception], ...] = (RecursionError, OutOfSteps)


_ROOT: list[Any] = []  # the parameters being evaluated, for $ref


def evaluate(schema: Any, instance: Any) -> Errors:
    """The set of ``(JSON Pointer, code)`` the contract's parameters report for ``instance``."""
    if not isinstance(instance, dict):
        return {("", value_oracle.TYPE)}
    return errors_of(schema, instance, "", root=schema)


def errors_of(schema: Any, value: Any, path: str, root: Any) -> Errors:
    """The errors of one value against one schema (``root`` resolves $ref).

    Within one call nothing changes the value, so (schema, value) is always
    remembered by identity for the call's duration: a schema reached many times on one
    value (``allOf: [{$ref: d}, {$ref: d}]`` nested n deep) is evaluated once, not 2^n
    times. Across calls, only inside :func:`remembering`."""
    errors: Errors = set()
    _ROOT.append(root)
    local = not _MEMO or _MEMO[-1] is None
    if local:
        _MEMO.append({})
    try:
        _value(schema, value, path, errors)
    finally:
        _ROOT.pop()
        if local:
            _MEMO.pop()
    return errors


def refuses_every_value(schema: Any, root: Any) -> bool:
    """Whether no value can pass ``schema`` as written: the values family's
    :func:`~toolshape.families.values.rules.unsatisfiable`, told by this evaluator (``root``
    resolves $ref) whether the rest of a schema refuses each value its ``enum``/``const``
    lists. The one answer the contract check, the witness engine and the derived cases share.
    False may miss a schema no value passes (unsatisfiable's own promise), never the other way:
    so where the evaluator cannot tell (:data:`CANNOT_TELL`: out of stack, or a pattern out of
    steps on a long listed string) the answer is False; any other error inside the evaluator is
    raised, never read as a verdict."""
    try:
        return unsatisfiable(
            schema, lambda rest, value: bool(errors_of(rest, value, "", root=root))
        )
    except CANNOT_TELL:
        return False


def _matches(schema: Any, value: Any, path: str = "") -> bool:
    found: Errors = set()
    _value(schema, value, path, found)
    return not found


#: While cases are derived: the errors of (schema, value) at the root pointer by the objects' ids
#: (each entry keeps both objects alive, so an id is not reused). A derived case shares
#: every value off its changed path with the base, so only that path is evaluated again.
_MEMO: list[dict[tuple[int, int], tuple[frozenset[tuple[str, str]], Any, Any]] | None] = []


@contextlib.contextmanager
def remembering() -> Iterator[None]:
    """Remember evaluations by object identity: only for instances nobody changes in place."""
    _MEMO.append({})
    try:
        yield
    finally:
        _MEMO.pop()


@contextlib.contextmanager
def changing() -> Iterator[None]:
    """Around code that changes instances in place: nothing is remembered, and what was is forgotten."""
    _MEMO.append(None)
    try:
        yield
    finally:
        _MEMO.pop()
        for memo in _MEMO:
            if memo is not None:
                memo.clear()


def _value(schema: Any, value: Any, path: str, errors: Errors) -> None:
    memo = _MEMO[-1] if _MEMO else None
    if memo is None:
        _checks(schema, value, path, errors)
        return
    # Remembered at the root pointer: the path only ever prefixes the pointers of the errors
    # found below it (every keyword names a place as its path plus the steps below), so one
    # evaluation serves the value wherever it stands: an array's items at each index, the same
    # sample value tried at every item of a list.
    key = (id(schema), id(value))
    found = memo.get(key)
    if found is None:
        new: Errors = set()
        _checks(schema, value, "", new)
        found = memo[key] = (frozenset(new), schema, value)
    if not path:
        errors |= found[0]
    elif found[0]:
        errors.update((path + pointer, code) for pointer, code in found[0])


#: How many (schema, value) pairs the evaluator has checked in this process: the work its
#: callers count against their budget (a count, not a time, so every machine stops alike).
_CHECKED = [0]


def checks_made() -> int:
    """The number of (schema, value) checks made so far (remembered results not counted)."""
    return _CHECKED[0]


#: The keywords :func:`_applicators` reads: a reference, the subschemas that apply to the value
#: itself whatever its type (the combinators; ``dependentSchemas`` is the objects family's) and
#: the keywords that depend on what those evaluated (``unevaluated*``). A schema holding none
#: of them skips the applicators: most schemas of a contract are plain leaves.
APPLICATOR_KEYWORDS = frozenset(
    vocabulary.names(
        lambda keyword: (
            keyword.implemented
            and (
                keyword.value == "reference"
                or keyword.dynamic
                or (keyword.applies == "same value" and keyword.applies_to is None)
            )
        )
    )
)


def _checks(schema: Any, value: Any, path: str, errors: Errors) -> None:
    _CHECKED[0] += 1
    if schema is True:
        return
    if schema is False or value_oracle.refuses_all(schema):
        errors.add((path, value_oracle.REFUSES_ALL))
        return
    if value_oracle.wrong_type(schema, value):
        errors.add((path, value_oracle.TYPE))
        return
    # (Each family's codes added in a plain loop, here and below: a generator expression
    # around each family's generator was a fifth of checking a leaf, and a derivation checks
    # some 500 values per contract.)
    for code in value_oracle.refused(schema, value):
        errors.add((path, code))
    if isinstance(value, str):
        _string(schema, value, path, errors)
    elif is_number(value):
        _number(schema, value, path, errors)
    elif isinstance(value, list):
        _array(schema, value, path, errors)
    elif isinstance(value, dict):
        _object(schema, value, path, errors)
    if not schema.keys().isdisjoint(APPLICATOR_KEYWORDS):
        _applicators(schema, value, path, errors)


def _applicators(schema: dict[str, Any], value: Any, path: str, errors: Errors) -> None:
    target = targets.target(_ROOT[-1], schema)
    if target is not None:
        _value(target, value, path, errors)

    def apply(sub: Any) -> None:
        _value(sub, value, path, errors)

    def matches(sub: Any) -> bool:
        return _matches(sub, value, path)

    for code in combinator_oracle.refused(schema, value, apply, matches):
        errors.add((path, code))
    unevaluated_oracle.refused(schema, value, path, errors, _value, _matches, _ROOT[-1])


def matches_pattern(pattern: str, text: str) -> bool:
    """Whether a contract pattern matches in ``text`` (``re.search`` meaning), by toolshape's own
    counted matcher (``regex.matcher``), never by a backtracking ``re`` call: its work is linear in
    the text, and past ``matcher.DEFAULT_MATCH_STEPS`` it raises ``matcher.OutOfSteps``."""
    return pattern_search(pattern, text)


def _string(schema: dict[str, Any], value: str, path: str, errors: Errors) -> None:
    for code in string_oracle.refused(schema, value):
        errors.add((path, code))
    for code in format_oracle.refused(schema, value):
        errors.add((path, code))


def _number(schema: dict[str, Any], value: float, path: str, errors: Errors) -> None:
    for code in number_oracle.refused(schema, value):
        errors.add((path, code))


def _array(schema: dict[str, Any], value: list[Any], path: str, errors: Errors) -> None:
    def check_item(sub: Any, index: int) -> None:
        _value(sub, value[index], f"{path}/{index}", errors)

    errors.update(
        (path, code) for code in array_oracle.refused(schema, value, check_item, _matches)
    )


def _object(schema: dict[str, Any], value: dict[str, Any], path: str, errors: Errors) -> None:
    object_oracle.evaluate(schema, value, path, errors, _value)
