"""A freshly generated module run against its contract, in memory, before anything is written.

The contract's examples must behave as declared (a contract error otherwise), and the module
must agree with the reference evaluator on every case derived from the contract (a bug in
toolshape otherwise).
"""

from __future__ import annotations

import types
from collections.abc import Callable
from typing import Any

from ..codegen import cases
from ..contract import checker, fields
from ..contract.errors import ContractError, Problem
from ..families.strings.rules import PATTERN
from ..regex import matcher
from ..schema import vocabulary


def check_module(
    checked: checker.Contract, module: types.ModuleType, *, run_cases: bool = True
) -> cases.Derivation:
    """Run the contract's examples, then its derived cases (unless not ``run_cases``), against
    ``module``: the derivation (the cases and the warnings met deriving them) when they all agree."""
    if checked.output is not None and not hasattr(module, "validate_result"):
        # A custom module template without the result's side: the output would go unchecked.
        raise ContractError(
            [
                checked.document.problem(
                    ("output",),
                    "the module template lays out no validate_result(), so this 'output' would go "
                    "unchecked: add the result's side to the custom module.py.j2 (see the built-in one)",
                    at_key=True,
                ),
                *checked.warnings,
            ]
        )
    try:
        check_examples(checked, module)
    except ContractError as exc:  # the contract's warnings are reported with its errors
        raise ContractError([*exc.problems, *checked.warnings]) from None
    try:
        derivation = cases.derive(checked)
    except matcher.OutOfSteps as exc:
        raise ContractError([_too_costly(checked, exc), *checked.warnings]) from None
    if run_cases:
        check_derived(checked, module, derivation.cases)
    return derivation


def check_result_side(
    side: checker.Contract | None,
    checked: checker.Contract,
    module: types.ModuleType,
    *,
    run_cases: bool = True,
) -> cases.Derivation | None:
    """The result's derived cases (from ``side``, the contract's ``result_side()``), run on
    ``validate_result`` as the arguments' run on ``validate`` (unless not ``run_cases``): the
    derivation when they all agree (None without ``output``)."""
    if side is None:
        return None
    try:
        derivation = cases.derive(side)
    except matcher.OutOfSteps as exc:
        raise ContractError([_too_costly(side, exc), *checked.warnings]) from None
    if run_cases:
        check_derived(side, module, derivation.cases, module.validate_result)
    return derivation


def _outcome(module: types.ModuleType, example: checker.Example) -> Any:
    if example.of_result:
        return module.validate_result(example.args)
    return module.parse(example.json) if not example.has_args else module.validate(example.args)


def check_examples(checked: checker.Contract, module: types.ModuleType) -> None:
    """Every example must behave as declared: a contract error otherwise."""
    problems: list[Problem] = []
    for example in [*checked.examples, *checked.result_examples]:
        result = _outcome(module, example)
        got = {(e.path, e.code) for e in result.errors}
        wrong_status = result.status != example.status
        wrong_errors = example.errors is not None and got != set(example.errors)
        if wrong_status or wrong_errors:
            shown = ", ".join(f"{c} at {p!r}" for p, c in sorted(got)) or "no errors"
            problems.append(
                checked.document.problem(
                    (fields.EXAMPLES, example.index),
                    f"example {example.index + 1} is declared {example.status}"
                    + (
                        f" with errors {_pairs(example.errors)}"
                        if example.errors is not None
                        else ""
                    )
                    + f", but the contract gives {result.status} ({shown})",
                )
            )
    if problems:
        raise ContractError(problems)


def check_derived(
    checked: checker.Contract,
    module: types.ModuleType,
    derived: list[cases.Case],
    validate: Callable[[Any], Any] | None = None,
) -> None:
    """The generated module must agree with the reference evaluator before anything is written
    (``validate``: the module's function for the cases' side, ``module.validate`` by default)."""
    run = validate or module.validate
    for case in derived:
        got = {(e.path, e.code) for e in run(case.data).errors}
        if got != case.errors:
            raise AssertionError(
                f"toolshape bug: for {checked.file} case {case.name!r} the generated module reports "
                f"{sorted(got)} but the reference evaluator {sorted(case.errors)}"
            )


def _pairs(errors: frozenset[tuple[str, str]] | None) -> str:
    return "[" + ", ".join(f"{c} at {p!r}" for p, c in sorted(errors or ())) + "]"


def _too_costly(checked: checker.Contract, exc: matcher.OutOfSteps) -> Problem:
    """The error for a pattern the reference evaluator could not match within its steps, at the
    first place the contract uses it (a ``pattern`` value or a ``patternProperties`` key)."""
    where: tuple[str | int, ...] = ()
    todo: list[tuple[tuple[str | int, ...], Any]] = [((), checked.parameters)]
    while todo and not where:
        path, node = todo.pop()
        if isinstance(node, list):
            todo.extend(((*path, i), item) for i, item in reversed(list(enumerate(node))))
        elif isinstance(node, dict):
            for key, item in node.items():
                if (key == PATTERN and item == exc.pattern) or (
                    _keyed_by_patterns(path) and key == exc.pattern
                ):
                    where = (*path, key)
                    break
            todo.extend(((*path, key), item) for key, item in reversed(list(node.items())))
    return checked.document.problem(
        (checked.root_key, *where),
        f"matching this pattern against a derived value of {exc.length} characters takes more "
        f"than {matcher.DEFAULT_MATCH_STEPS:,} steps of toolshape's matcher (lookarounds, "
        "backreferences and long counted repeats multiply its work); simplify the pattern or "
        "lower the maxLength",
        at_key=bool(where) and _keyed_by_patterns(where[:-1]),
    )


def _keyed_by_patterns(path: tuple[str | int, ...]) -> bool:
    """Whether ``path`` ends at a map whose keys are patterns matching keys (its last step a
    keyword the vocabulary says reaches the matching keys)."""
    return bool(path) and path[-1] in vocabulary.reaching("matching keys")
