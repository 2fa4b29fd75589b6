"""Case derivation and the normalising cases remember evaluations by object identity
(reference.remembering); that must change nothing: every derived case, its arguments and
its expected errors, and every normalising case, is the same as when each case is
evaluated from scratch."""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import synth
from support import CONTEXT, ROOT, check_example, example_contracts
from toolshape.codegen import cases
from toolshape.contract import checker, reference, source
from toolshape.project import pipeline, runtime

CONTRACTS = example_contracts() + [ROOT / "tests/bench/contracts/large_order.yaml"]


def _checked(raw: bytes, stem: str, path: Path | None) -> checker.Contract:
    """A contract's bytes checked (an example's at ``path``, with the shared definitions it reaches)."""
    if path is not None:
        return check_example(path, f"contracts/{stem}.yaml")
    return checker.check(source.load(raw, f"contracts/{stem}.yaml"))


def _derived(
    raw: bytes, stem: str, path: Path | None = None
) -> list[tuple[str, str, list[tuple[str, str]]]]:
    checked = _checked(raw, stem, path)
    return [(c.name, json.dumps(c.data), sorted(c.errors)) for c in cases.derive(checked).cases]


def _from_scratch(
    raw: bytes, stem: str, monkeypatch: pytest.MonkeyPatch, path: Path | None = None
) -> list[tuple[str, str, list[tuple[str, str]]]]:
    with monkeypatch.context() as patched:
        patched.setattr(reference, "remembering", contextlib.nullcontext)
        return _derived(raw, stem, path)


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_remembered_evaluations_change_no_case(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    raw = path.read_bytes()
    assert _derived(raw, path.stem, path) == _from_scratch(raw, path.stem, monkeypatch, path)


@pytest.mark.parametrize("index", range(8))
def test_remembered_evaluations_change_no_synthetic_case(
    index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = synth.render(synth.contract(random.Random(4000 + index), index)).encode()
    assert _derived(raw, f"tool_{index}") == _from_scratch(raw, f"tool_{index}", monkeypatch)


def _normalising(raw: bytes, stem: str, path: Path | None = None) -> cases.NormaliseCases:
    checked = _checked(raw, stem, path)
    base: Any = next((c.data for c in cases.derive(checked).cases if not c.errors), {})
    return cases.normalise_cases(checked, base)


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_remembered_evaluations_change_no_normalising_case(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = path.read_bytes()
    remembered = _normalising(raw, path.stem, path)
    with monkeypatch.context() as patched:
        patched.setattr(reference, "remembering", contextlib.nullcontext)
        assert _normalising(raw, path.stem, path) == remembered


@pytest.mark.parametrize("index", range(8))
def test_remembered_evaluations_change_no_synthetic_normalising_case(
    index: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    raw = synth.render(synth.contract(random.Random(4000 + index), index)).encode()
    remembered = _normalising(raw, f"tool_{index}")
    assert remembered.absent_nulls or remembered.integral  # the synthetic contracts have both
    with monkeypatch.context() as patched:
        patched.setattr(reference, "remembering", contextlib.nullcontext)
        assert _normalising(raw, f"tool_{index}") == remembered


def test_a_union_branch_is_completed_on_a_copy() -> None:
    """Filling in a branch's optional keys must not change the contract's own values
    (here a const object the branch starts from)."""
    raw = b"""name: pick
description: Pick one.
parameters:
  type: object
  properties:
    choice:
      oneOf:
        - type: object
          const: {kind: a}
          properties:
            kind: {type: string}
            note: {type: string}
        - type: string
  required: [choice]
examples:
  - args: {choice: x}
"""
    checked = checker.check(source.load(raw, "contracts/pick.yaml"))
    branch = checked.parameters["properties"]["choice"]["oneOf"][0]
    cases.derive(checked)
    assert branch["const"] == {"kind": "a"}


def test_identical_means_the_same_json_text() -> None:
    assert cases.identical({"a": 1, "b": [1.5]}, {"b": [1.5], "a": 1})
    assert not cases.identical({"a": 1, "b": 2}, {"b": 2, "a": 1}, ordered=True)
    assert (
        not cases.identical(1, 1.0)
        and not cases.identical(True, 1)
        and not cases.identical([0.1], [0.1000001])
    )


def test_a_case_the_rows_cannot_rebuild_in_key_order_is_a_toolshape_bug() -> None:
    """The generated tests rebuild each case from BASE and its changes; the key order
    decides the order of the errors, so a case whose keys come in another order
    (no change finds that) must stop generation rather than be written wrong."""
    from toolshape.codegen import tests_model

    base = {"a": 1, "b": 2}
    row = tests_model._case_row(base, cases.Case("b changed", {"a": 1, "b": 3}, frozenset()))
    assert [str(change.pointer) for change in row.changes] == ['"/b"']
    with pytest.raises(AssertionError, match="cannot be written as changes"):
        tests_model._case_row(base, cases.Case("reordered", {"b": 2, "a": 1}, frozenset()))


def test_the_error_cap_is_the_runtimes() -> None:
    assert runtime.runtime_module().MAX_ERRORS == cases.MAX_ERRORS


def test_a_case_with_more_errors_than_the_cap_is_left_out_with_a_warning() -> None:
    """JSONSchemaBench's Handwritten/object2 (issue 24): maxProperties 100 in one allOf branch,
    propertyNames in another. Its "maxProperties + 1" case holds 101 keys that each break the
    key pattern: more errors than a module reports (MAX_ERRORS), so no set of them can be the
    module's; it once ended generation in an internal AssertionError."""
    parameters = {
        "type": "object",
        "allOf": [{"propertyNames": {"pattern": "^...$"}}, {"maxProperties": 100}],
    }
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    raw = json.dumps(document).encode("utf-8")
    derivation = cases.derive(checker.check(source.load(raw, "t.yaml")))
    assert all(len(case.errors) <= cases.MAX_ERRORS for case in derivation.cases)
    (warning,) = [w for w in derivation.warnings if "more than 100 errors" in w.message]
    assert "maxProperties 100 + 1" in warning.message
    pipeline.generate(raw, "t.yaml", PurePosixPath("t.yaml"), CONTEXT)  # no AssertionError


def test_two_changes_are_one_case_exactly_when_their_json_is_one() -> None:
    """A derived case that is one change is de-duplicated by the change without serialising a
    scalar: two changes at one place count as the same exactly when their values are the same
    JSON (or both leave the key out), as their JSON texts would say, over every kind of value."""
    values: list[Any] = [
        *(True, False, 0, 1, -1, 10**30, 1.0, 0.0, 2.5, float("nan"), None, cases.MISSING),
        *("", "1", "true", "null", "é", "\ud800"),
        *([], [1], [True], [1.0], {}, {"a": 1}, {"a": True}, {"b": 1, "a": 2}, {"a": 2, "b": 1}),
    ]
    paths: list[tuple[str | int, ...]] = [("a",), ("a", 0), ("a", "0"), ("1",), (1,)]

    def as_json(path: tuple[str | int, ...], value: Any) -> str:
        missing = value is cases.MISSING
        return json.dumps([path, None if missing else value, missing], default=repr)

    pairs = [(path, value) for path in paths for value in values]
    for path, value in pairs:
        for other_path, other in pairs:
            same = as_json(path, value) == as_json(other_path, other)
            key = cases._change_key(7, path, value)
            assert (key == cases._change_key(7, other_path, other)) == same, (path, value, other)
            assert key != cases._change_key(8, other_path, other)  # another root, another case


@pytest.mark.parametrize("depth", [2, 8, 16])
def test_cases_deep_in_objects_find_their_schema_without_walking_from_the_top_each_time(
    depth: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A case that changes one value deep in nested objects takes the schema of the object
    around it from what an earlier case at that object found: the steps walked down the
    schema grow with the cases plus the depth squared, not with the cases times the depth."""
    leaf: dict[str, Any] = {
        "type": "object",
        "properties": {f"k{i}": {"type": "string", "maxLength": 5} for i in range(20)},
        "required": ["k0"],
    }
    for _ in range(depth):
        leaf = {"type": "object", "properties": {"inner": leaf}, "required": ["inner"]}
    document = {"name": "deep", "description": "Nested deep.", "parameters": leaf}
    checked = checker.check(source.load(json.dumps(document).encode(), "t.yaml"))
    walked = [0]
    real_local_schema = cases._Deriver.local_schema

    def counting(deriver: Any, schema: Any, path: tuple[str | int, ...]) -> Any:
        walked[0] += len(path)
        return real_local_schema(deriver, schema, path)

    monkeypatch.setattr(cases._Deriver, "local_schema", counting)
    derivation = cases.derive(checked)
    assert any(case.name.endswith("k19: maxLength 5 + 1") for case in derivation.cases)
    assert walked[0] <= 2 * len(derivation.cases) + depth**2, (walked[0], len(derivation.cases))


def test_a_set_of_errors_is_written_once_however_many_rows_report_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every type sample of a property reports the same error: the tests' model writes the
    literal of each distinct set of errors once, not once per row (counted, not timed)."""
    from toolshape.codegen import literals, tests_model

    properties = {f"p{i}": {"type": "string", "maxLength": 5} for i in range(6)}
    parameters = {"type": "object", "properties": properties, "required": ["p0"]}
    raw = json.dumps({"name": "t", "description": "d", "parameters": parameters}).encode()
    checked = _checked(raw, "t", None)
    derived = cases.derive(checked).cases
    base = derived[0].data  # the accepted base
    made: list[object] = []

    def counting(write: Callable[[Any], str | None]) -> Callable[[Any], str | None]:
        def counted(value: Any) -> str | None:
            text = write(value)
            if isinstance(value, frozenset) and text is not None:
                made.append(value)
            return text

        return counted

    # Where every set literal is written, whoever asks (the tests' model, wrapping): the
    # string pairs' way, and the general way for any other set (None: not written there).
    for name in ("_string_pairs_text", "_literal"):
        monkeypatch.setattr(literals, name, counting(getattr(literals, name)))
    rows = tests_model._case_rows(base, derived)
    reported = [frozenset(case.errors) for case in derived]
    assert len(rows) == len(derived) > len(set(reported))
    assert sorted(map(repr, made)) == sorted(map(repr, set(reported)))


def _evaluated_afresh(schema: Any, value: Any, path: str) -> set[tuple[str, str]]:
    """The errors of ``value`` at ``path``, nothing remembered: every schema evaluated at the
    place it stands, its path handed down as the evaluator did before it remembered."""
    errors: set[tuple[str, str]] = set()
    reference._ROOT.append(schema)
    try:
        reference._checks(schema, value, path, errors)
    finally:
        reference._ROOT.pop()
    return errors


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_an_evaluation_remembered_at_the_root_pointer_serves_every_place(path: Path) -> None:
    """The evaluator remembers a value's errors at the root pointer and prefixes them with the
    place it stands: for every derived case of every example (each keyword, refused and
    accepted), evaluated at the root and below a prefix (an escaped key and an index), the
    errors are those an evaluation that hands its path down finds."""
    checked = _checked(path.read_bytes(), path.stem, path)
    schema = checked.parameters
    for case in cases.derive(checked).cases:
        data = case.data
        for place in ("", "/a~1b~0c/3"):
            with reference.remembering():
                remembered = reference.errors_of(schema, data, place, root=schema)
            assert remembered == _evaluated_afresh(schema, data, place), (case.name, place)


@pytest.mark.parametrize("items", [10, 40])
def test_one_value_at_many_indexes_is_evaluated_once(items: int) -> None:
    """An array holding one object at every index (a size case repeats its pool's values):
    the object's keys are checked once, not once per index."""
    item = {f"k{i}": "text" for i in range(8)}
    schema = {
        "type": "array",
        "items": {"type": "object", "properties": {f"k{i}": {"type": "string"} for i in range(8)}},
    }
    start = reference.checks_made()
    assert not reference.errors_of(schema, [item] * items, "", root=schema)
    checks = reference.checks_made() - start
    assert checks <= 1 + items + 8, (items, checks)  # the array, each index, the keys once
