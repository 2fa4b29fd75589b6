"""``toolshape diff`` works in proportion to a contract's width (issue 20's class: work in
proportion to the input).

A change inside one property of a wide contract once took work quadratic in its width: every
case derived from the contract was built whole and run through both generated validators
(once when each side was generated, again for the witness search), and each accepted base was
pruned with one check of the whole arguments per key (400 properties: 47 s; 1,000 properties:
700 MB). Counted here, never timed: the values the generated validators and the reference
evaluator look at, and the peak of the memory traced while the diff runs.
"""

from __future__ import annotations

import copy
import itertools
import tracemalloc
import types
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from diff_support import dump
from toolshape.contract import reference
from toolshape.project import runtime
from toolshape.review import diff
from work_counting import MAX_GROWTH, json_values

SIZES = (50, 100, 200, 400)
#: Tracing every allocation makes a diff some times slower: memory is compared on the first
#: three widths (on main before the fix, each doubling there added 3.7 times the one before).
TRACED_SIZES = SIZES[:3]


def _wide(width: int, tag: str) -> dict[str, Any]:
    """``width`` optional properties (strings and integers by turns) and one required one. The
    tool's name carries ``tag``: a contract the diff has already generated in this process is
    not generated again."""
    properties: dict[str, Any] = {}
    for i in range(width):
        if i % 2:
            properties[f"p{i}"] = {"type": "integer", "minimum": 0}
        else:
            properties[f"p{i}"] = {"type": "string", "maxLength": 20}
    parameters = {"type": "object", "properties": properties, "required": ["p0"]}
    return {"name": f"wide_{width}_{tag}", "description": "A wide tool.", "parameters": parameters}


def _minimum_raised(properties: dict[str, Any]) -> None:
    properties["p1"]["minimum"] = 5


def _enum_added(properties: dict[str, Any]) -> None:
    properties["p2"]["enum"] = ["a", "b"]


def _type_widened(properties: dict[str, Any]) -> None:
    properties["p3"]["type"] = ["integer", "string"]


#: One property changed, the pointer of the change, its effect, and what its witness holds at
#: that property (the old side accepts it and the new one refuses, or the reverse).
EDITS: dict[str, tuple[Callable[[dict[str, Any]], None], str, str, Callable[[Any], bool]]] = {
    "minimum raised": (
        _minimum_raised,
        "/properties/p1/minimum",
        "breaking",
        lambda arguments: 0 <= arguments["p1"] < 5,
    ),
    "enum added": (
        _enum_added,
        "/properties/p2/enum",
        "breaking",
        lambda arguments: arguments["p2"] not in ("a", "b"),
    ),
    "type widened": (
        _type_widened,
        "/properties/p3/type",
        "widening",
        lambda arguments: isinstance(arguments["p3"], str),
    ),
}


@dataclass
class Looked:
    """What the generated validators and the reference evaluator were given."""

    values: int = 0  # every value of each instance a generated validator was given
    calls: int = 0  # the generated validators' calls
    evaluations: int = 0  # the (schema, value) pairs the reference evaluator evaluated

    def work(self, width: int) -> int:
        """The values looked at: a generated validator runs straight-line code for each declared
        property whatever it is given, so each of its calls looks at ``width`` places at least."""
        return self.values + self.calls * width + self.evaluations


@pytest.fixture
def looked_at(monkeypatch: pytest.MonkeyPatch) -> Iterator[Looked]:
    """The validators are installed counting as they are loaded, the reference evaluator's
    per-value function counting as it is called."""
    looked = Looked()
    load_module = runtime.load_module
    evaluate_value = reference._value

    def counting(validate: Callable[[Any], Any]) -> Callable[[Any], Any]:
        def counted(instance: Any) -> Any:
            looked.values += json_values(instance)
            looked.calls += 1
            return validate(instance)

        return counted

    def loading(*args: Any, **kwargs: Any) -> types.ModuleType:
        module = load_module(*args, **kwargs)
        for name in ("validate", "validate_result"):
            if hasattr(module, name):
                setattr(module, name, counting(getattr(module, name)))
        return module

    def evaluating(*args: Any) -> None:
        looked.evaluations += 1
        evaluate_value(*args)

    monkeypatch.setattr(runtime, "load_module", loading)
    monkeypatch.setattr(reference, "_value", evaluating)
    yield looked


def _diff_of_one_property(width: int, tag: str, edit: str = "minimum raised") -> None:
    """The diff of a ``width``-property contract and the same with ``EDITS[edit]`` made: that one
    change, with its effect and a witness that shows it."""
    change_properties, pointer, effect, shows = EDITS[edit]
    old = _wide(width, tag)
    new = copy.deepcopy(old)
    change_properties(new["parameters"]["properties"])
    report = diff.diff({"wide.yaml": dump(old)}, {"wide.yaml": dump(new)})
    assert not report.errors and not report.notes, report
    [change] = report.changes
    assert (change.pointer, change.effect) == (pointer, effect), change
    [witness] = change.witnesses
    assert shows(witness.arguments), witness
    statuses = ("accept", "reject") if effect == "breaking" else ("reject", "accept")
    assert (witness.old_status, witness.new_status) == statuses, witness


def _assert_linear(label: str, measured: list[int], sizes: tuple[int, ...] = SIZES) -> None:
    added = [high - low for low, high in itertools.pairwise(measured)]
    for before, after in itertools.pairwise(added):
        assert after <= MAX_GROWTH * before, (
            f"{label} {measured} for widths {sizes}: a doubling of the width adds more than "
            f"{MAX_GROWTH} times what the doubling before it added"
        )


@pytest.mark.parametrize("edit", list(EDITS))
def test_a_diff_of_one_property_looks_at_values_in_proportion_to_the_width(
    looked_at: Looked, edit: str
) -> None:
    measured = []
    for width in SIZES:
        looked_at.values = looked_at.calls = looked_at.evaluations = 0
        _diff_of_one_property(width, "counted", edit)
        measured.append(looked_at.work(width))
    _assert_linear("values looked at", measured)


def test_a_diff_of_one_property_holds_memory_in_proportion_to_the_width() -> None:
    _diff_of_one_property(
        SIZES[0] - 1, "traced"
    )  # once before measuring: what a process builds once
    measured = []
    tracemalloc.start()
    try:
        for width in TRACED_SIZES:
            tracemalloc.reset_peak()
            start = tracemalloc.get_traced_memory()[0]
            _diff_of_one_property(width, "traced")
            measured.append(tracemalloc.get_traced_memory()[1] - start)
    finally:
        tracemalloc.stop()
    _assert_linear("peak bytes", measured, TRACED_SIZES)
