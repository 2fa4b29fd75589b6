"""Deriving the generated tests costs work in proportion to the contract (issue 16).

A real Kubernetes schema (45 kB) took more than five minutes: its recursive definition
refers to itself from a dozen keys, and completing the accepted base followed every one of
them six levels deep (a base of 21,149 values, 141,081 cases), checking the whole base again
after each object it filled in. Counted here in evaluations by the reference evaluator and
in the size of the base, never timed.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import synth
from support import CONTEXT, check_example, example_contracts
from toolshape.codegen import cases, wrapping
from toolshape.contract import checker as contract
from toolshape.contract import reference, source
from toolshape.project import pipeline
from toolshape.witness import budget, values
from work_counting import json_values


def _checked(parameters: dict[str, Any]) -> contract.Contract:
    raw = json.dumps({"name": "t", "description": "d", "parameters": parameters}).encode()
    return contract.check(source.load(raw, "contracts/t.json"))


def _fan_out(keys: int) -> dict[str, Any]:
    """A node with a name and ``keys`` optional children, each a node itself (JSONSchemaProps'
    shape: its items, not, additionalProperties... are all JSONSchemaProps)."""
    node = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 8},
            **{f"k{i}": {"$ref": "#/$defs/node"} for i in range(keys)},
        },
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "$defs": {"node": node},
        "properties": {"root": {"$ref": "#/$defs/node"}},
        "required": ["root"],
    }


def _wide(objects: int) -> dict[str, Any]:
    """``objects`` optional object properties of five optional strings each: no recursion."""
    inner = {
        "type": "object",
        "properties": {f"s{j}": {"type": "string", "maxLength": 5} for j in range(5)},
        "additionalProperties": False,
    }
    return {
        "type": "object",
        "properties": {f"o{i}": inner for i in range(objects)},
        "additionalProperties": False,
    }


@pytest.fixture
def evaluations(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many (schema, value) pairs the reference evaluator looks at: one count per call of
    its per-value function, each recursive call included."""
    count = [0]
    original = reference._value

    def counting(*args: Any) -> None:
        count[0] += 1
        original(*args)

    monkeypatch.setattr(reference, "_value", counting)
    yield count


def _derive(parameters: dict[str, Any], evaluations: list[int]) -> tuple[int, int, int]:
    """The base's size, the number of cases and the evaluations spent deriving them."""
    checked = _checked(parameters)
    evaluations[0] = 0
    derived = cases.derive(checked).cases
    base = derived[0]
    assert base.name.startswith("base") and not base.errors
    return json_values(base.data), len(derived), evaluations[0]


def test_a_recursion_that_fans_out_is_completed_a_few_times_not_at_every_depth(
    evaluations: list[int],
) -> None:
    """Six children of a node, each a node: completed six levels deep that is 6^6 nodes."""
    size, count, _ = _derive(_fan_out(6), evaluations)
    nodes_at_most = cases.MAX_TARGET_COMPLETIONS + 1  # each completion fills in one node's keys
    assert size <= nodes_at_most * (6 + 2) + 2, size
    assert count <= 20 * size, (size, count)


def test_a_recursion_that_fans_out_costs_in_proportion_to_its_keys(
    evaluations: list[int],
) -> None:
    """Three times the children, about three times the base and the work (not 3^6)."""
    small, large = _derive(_fan_out(4), evaluations), _derive(_fan_out(12), evaluations)
    assert large[0] < 4 * small[0], (small, large)
    assert large[2] < 6 * small[2], (small, large)


def test_completing_checks_the_value_it_fills_in_not_the_whole_base(
    evaluations: list[int],
) -> None:
    """Four times the objects, about four times the evaluations; checking the whole base after
    filling in each object would be sixteen times."""
    small, large = _derive(_wide(20), evaluations), _derive(_wide(80), evaluations)
    assert large[0] > 3.5 * small[0], (small, large)  # the bases really are four times as large
    assert large[2] < 6 * small[2], (small, large)


def _flat(properties: int) -> dict[str, Any]:
    """``properties`` optional integers with a minimum: about seven cases each."""
    return {
        "type": "object",
        "properties": {f"p{i}": {"type": "integer", "minimum": 0} for i in range(properties)},
    }


def _held(derived: list[cases.Case]) -> int:
    """Entries of the distinct containers the cases hold (each counted once, by identity)."""
    seen: set[int] = set()
    todo = [c.given for c in derived] + [part for c in derived if c.change for part in c.change]
    total = 0
    while todo:
        value = todo.pop()
        if isinstance(value, (dict, list, tuple)) and id(value) not in seen:
            seen.add(id(value))
            total += len(value)
            todo.extend(value.values() if isinstance(value, dict) else value)
    return total


def test_many_properties_cost_evaluations_and_memory_in_proportion(
    evaluations: list[int],
) -> None:
    """Four times the properties: about four times the cases, the evaluations and what the
    cases hold. Each case once held its own copy of the object it changed: n properties,
    about 7n cases of n keys each (2.75 GB for 2,000 properties)."""
    measured = []
    for properties in (100, 400):
        checked = _checked(_flat(properties))
        evaluations[0] = 0
        derivation = cases.derive(checked)
        assert not derivation.warnings
        measured.append((len(derivation.cases), evaluations[0], _held(derivation.cases)))
    small, large = measured
    assert large[0] > 3.5 * small[0], measured  # the cases really are four times as many
    assert large[1] < 6 * small[1], measured
    assert large[2] < 6 * small[2], measured


def test_the_base_of_a_recursion_still_nests_several_levels() -> None:
    """The bound is per target and per base: a recursion that does not fan out is still
    completed MAX_TARGET_COMPLETIONS levels deep, so the cases reach a nested node's checks."""
    derived = cases.derive(_checked(_fan_out(1))).cases
    depth, node = 0, derived[0].data["root"]
    while isinstance(node, dict) and "k0" in node:
        depth, node = depth + 1, node["k0"]
    assert depth >= cases.MAX_TARGET_COMPLETIONS - 1, derived[0].data


def _steps(branches: int) -> dict[str, Any]:
    """A list of steps, each exactly one of ``branches`` closed objects of twelve strings
    (Ansible's tasks, a CI file's jobs): every case is checked against every branch, and the
    cases grow with the branches too, so the work of deriving them grows as their square."""

    def branch(i: int) -> dict[str, Any]:
        return {
            "type": "object",
            "properties": {f"b{i}_{j}": {"type": "string", "maxLength": 9} for j in range(12)},
            "required": [f"b{i}_0"],
            "additionalProperties": False,
        }

    union = {"oneOf": [branch(i) for i in range(branches)]}
    return {
        "type": "object",
        "properties": {"steps": {"type": "array", "items": union}},
        "required": ["steps"],
    }


#: The checks budget the next test sets, small to keep it quick (the default is budget.DEFAULT_CHECKS, 100,000).
_CHECKS = 8_000


@pytest.mark.parametrize("branches", [12, 24, 48])
def test_deriving_stops_at_the_checks_budget_and_says_so(
    branches: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the budget's reference checks no case is evaluated: the work stays within the
    budget (and one case's evaluation) whatever the union's width, where it grew as the
    square (a real schema of this shape took minutes), and a warning names where the
    derived cases stop. The cases derived before keep their outcomes: the base is accepted."""
    monkeypatch.setattr(budget, "DEFAULT_CHECKS", _CHECKS)
    checked = _checked(_steps(branches))
    start = reference.checks_made()
    derivation = cases.derive(checked)
    spent = reference.checks_made() - start
    assert spent <= _CHECKS + 40 * branches, (branches, spent)
    stopped = [w.message for w in derivation.warnings if "the witness budget ran out" in w.message]
    assert len(stopped) == 1, derivation.warnings
    assert "derived cases left out from '" in stopped[0], stopped
    base = derivation.cases[0]
    assert base.name.startswith("base") and not base.errors


# -- the shortcuts change nothing ---------------------------------------------------------

CONTRACTS = example_contracts()

#: Schemas whose cases change values below additionalProperties, bare $refs and items.
SHORTCUTS: dict[str, dict[str, Any]] = {
    "fan-out": _fan_out(3),
    "wide": _wide(3),
    "extra keys": {
        "type": "object",
        "properties": {
            "closed": {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": False},
            "typed": {"type": "object", "properties": {"a": {"type": "integer"}}, "additionalProperties": {"type": "string", "minLength": 2}},
            "open": {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["b"]},
            "list": {"type": "array", "items": {"$ref": "#/$defs/pair"}, "maxItems": 3},
        },
        "$defs": {"pair": {"type": "object", "properties": {"x": {"type": "string"}}, "additionalProperties": False}},
        "additionalProperties": False,
    },
    "refused completions": {
        "type": "object",
        "properties": {
            "one": {"$ref": "#/$defs/one"},
            "none": {"type": "array", "items": {"type": "string"}, "not": {"minItems": 1}},
            "deep": {"type": "object", "properties": {"one": {"$ref": "#/$defs/one"}}},
        },
        "$defs": {"one": {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "maxProperties": 1}},
    },
}  # fmt: skip


def _cases(checked: contract.Contract) -> list[tuple[str, str, list[tuple[str, str]]]]:
    return [(c.name, json.dumps(c.data), sorted(c.errors)) for c in cases.derive(checked).cases]


def _without_shortcuts(
    checked: contract.Contract, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """The cases when every case and every completion step is checked whole."""
    with monkeypatch.context() as patched:
        patched.setattr(cases._Deriver, "local_errors", lambda self, path, value: None)
        patched.setattr(cases._Deriver, "still_good_at", lambda self, at: self.still_good())
        return _cases(checked)


def _shortcut_contracts() -> Iterator[Any]:
    for path in CONTRACTS:  # each example with the shared definitions it reaches
        yield pytest.param(path.read_bytes(), path, id=path.stem)
    for label, parameters in SHORTCUTS.items():
        raw = json.dumps({"name": "t", "description": "d", "parameters": parameters})
        yield pytest.param(raw.encode(), None, id=label)
    for index in range(6):
        raw = synth.render(synth.contract(random.Random(5000 + index), index))
        yield pytest.param(raw.encode(), None, id=f"synthetic {index}")


@pytest.mark.parametrize("raw, path", list(_shortcut_contracts()))
def test_local_checks_derive_what_whole_checks_derive(
    raw: bytes, path: Path | None, monkeypatch: pytest.MonkeyPatch
) -> None:
    if path is not None:
        checked = check_example(path, "contracts/t.yaml")
    else:
        checked = contract.check(source.load(raw, "contracts/t.yaml"))
    assert _cases(checked) == _without_shortcuts(checked, monkeypatch)


@pytest.mark.parametrize("items", [1, 2, 3, 5])
def test_a_string_of_one_length_is_searched_once_however_many_items_ask(
    items: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every walked item of an array of strings asks for a string of exactly each length bound
    (the same item schema, the same length): the witness engine searches once per length."""
    item = {"type": "string", "minLength": 3, "maxLength": 7}
    checked = _checked(
        {
            "type": "object",
            "properties": {"tags": {"type": "array", "items": item, "minItems": items}},
            "required": ["tags"],
        }
    )
    searched: list[int] = []
    search = values.Engine._search

    def counted(engine: values.Engine, schemas: Any, *args: Any) -> Any:
        lengths = [
            s["minLength"]
            for s in schemas
            if isinstance(s, dict) and "minLength" in s and s["minLength"] == s.get("maxLength")
        ]
        searched.extend(lengths)
        return search(engine, schemas, *args)

    monkeypatch.setattr(values.Engine, "_search", counted)
    derived = cases.derive(checked).cases
    walked = min(items, cases.MAX_ITEMS_WALKED)
    # Each walked item still has its case of 7 characters (one of 3 is the base's own item).
    exact = [c.name for c in derived if c.name.endswith("maxLength 7 exactly")]
    assert exact == [f"tags[{i}]: maxLength 7 exactly" for i in range(walked)]
    assert sorted(searched) == [3, 7]


# -- a listed value nested deep -----------------------------------------------------------


def _listed_deep(keyword: str, depth: int) -> bytes:
    """A tree of a recursive schema whose ``enum`` or ``const`` lists one tree ``depth`` deep."""
    listed: dict[str, Any] = {}
    for _ in range(depth):
        listed = {"child": listed}
    node = {"type": "object", "properties": {"child": {"$ref": "#/$defs/node"}}}
    tree = {"$ref": "#/$defs/node", keyword: [listed] if keyword == "enum" else listed}
    parameters = {"type": "object", "$defs": {"node": node}, "properties": {"tree": tree}}
    return json.dumps({"name": "t", "description": "d", "parameters": parameters}).encode()


#: More table layouts than any depth below needs: past it, generating stops (they doubled
#: with each level once the indent passed the line's width: hours at 40 levels).
_LAYOUTS_CAP = 100_000


def _generation_work(
    keyword: str, depth: int, monkeypatch: pytest.MonkeyPatch
) -> tuple[int, int, int]:
    """The reference evaluator's checks, the witness budget's steps and the table layouts
    spent generating the module and tests of ``_listed_deep(keyword, depth)``."""
    steps, layouts = [0], [0]
    spend, lay_out = budget.Budget.spend, wrapping.laid_out

    def counted_spend(self: budget.Budget, taken: int = 1) -> bool:
        steps[0] += taken
        return spend(self, taken)

    def counted_layout(*args: Any, **kwargs: Any) -> list[str]:
        layouts[0] += 1
        if layouts[0] > _LAYOUTS_CAP:
            raise AssertionError(f"over {_LAYOUTS_CAP} layouts at depth {depth}")
        return lay_out(*args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(budget.Budget, "spend", counted_spend)
        patched.setattr(wrapping, "laid_out", counted_layout)
        start = reference.checks_made()
        pipeline.generate(_listed_deep(keyword, depth), "t.json", PurePosixPath("t.json"), CONTEXT)
        checks = reference.checks_made() - start
    return checks, steps[0], layouts[0]


@pytest.mark.parametrize("keyword", ["enum", "const"])
def test_a_value_listed_deep_costs_work_at_most_quadratic_in_its_depth(
    keyword: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Depth 10, 20, 40: each kind of work grows at most as the square of the depth (a case
    per level, each evaluated down its own changed path), where the tests' tables took hours
    at 40 levels. A quadratic count adds at most four times as much over the second doubling
    as over the first; a linear one twice."""
    work = [_generation_work(keyword, depth, monkeypatch) for depth in (10, 20, 40)]
    checks, steps, layouts = (list(counts) for counts in zip(*work, strict=True))
    assert checks[2] - checks[1] <= 4.4 * (checks[1] - checks[0]), work
    assert steps[2] - steps[1] <= 4.4 * (steps[1] - steps[0]), work
    assert layouts[2] - layouts[1] <= 2.2 * (layouts[1] - layouts[0]), work
