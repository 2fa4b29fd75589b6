"""One contract goes down the stages once (issue 22): the data flows one way at run time too.

test_import_graph.py shows the imports go one way; this follows what runs. While one contract
is planned and written, every call the orchestrator (``project/``) makes into another stage is
recorded in order, a stage entered again after it only once: that sequence is the contract's
trip. A *return* is a step into a stage of lower rank than one the trip has already left for:
the data going back up to be worked on again. The trip may return at most three times.
"""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from support import CONTEXT, CONTRACTS, run_profiled
from test_import_graph import rank
from toolshape.project import planning, writing

#: The most returns a contract's trip may make (issue 22's bound).
MAX_RETURNS = 3

ORCHESTRATOR = "toolshape.project"


def _stage(module: str) -> str | None:
    """The stage a module belongs to, as the import graph ranks it (a family module is its
    stage's); None outside the generator."""
    if module.split(".", 1)[0] != "toolshape" or rank(module) is None:
        return None
    parts = module.split(".")
    return ".".join(parts[:4] if parts[1] == "families" else parts[:2])


def trip(contract: Path, tmp_path: Path) -> list[tuple[str, int]]:
    """The stages (with their ranks) the orchestrator calls into while one contract is planned
    and written (with the shared definitions it may reach), in order, each repeat of the step
    just taken dropped."""
    folder = tmp_path / "contracts"
    for source in (contract, *sorted((CONTRACTS / "common").glob("*.yaml"))):
        copy = folder / source.relative_to(CONTRACTS)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(source.read_bytes())
    steps: list[tuple[str, int]] = []

    def called(frame: types.FrameType, event: str, arg: object) -> None:
        if event != "call" or frame.f_back is None:
            return
        callee = _stage(frame.f_globals.get("__name__", ""))
        caller = _stage(frame.f_back.f_globals.get("__name__", ""))
        if caller == ORCHESTRATOR and callee not in (None, ORCHESTRATOR):
            step = (callee, rank(frame.f_globals["__name__"]) or 0)
            if not steps or steps[-1] != step:
                steps.append(step)

    run_profiled(
        lambda: writing.write(planning.plan(folder, CONTEXT), tmp_path / "generated"), called
    )
    return steps


def returns(steps: list[tuple[str, int]]) -> list[str]:
    """Each step into a stage of lower rank than a stage the trip entered before it."""
    found = []
    highest = 0
    for stage, place in steps:
        if place < highest:
            found.append(stage)
        highest = max(highest, place)
    return found


def test_returns_are_counted() -> None:
    assert returns([("a", 1), ("b", 2), ("c", 3)]) == []
    assert returns([("a", 1), ("b", 3), ("a", 1), ("c", 2), ("b", 3)]) == ["a", "c"]


#: A contract of each kind: a plain one, one with results and shared definitions.
TRAVELLERS = ["get_weather.yaml", "shop/place_order.yaml"]


@pytest.mark.parametrize("contract", TRAVELLERS)
def test_a_contract_goes_down_the_stages_returning_at_most_three_times(
    contract: str, tmp_path: Path
) -> None:
    steps = trip(CONTRACTS / contract, tmp_path)
    stages = " -> ".join(stage.removeprefix("toolshape.") for stage, _ in steps)
    assert len(returns(steps)) <= MAX_RETURNS, f"the trip returns up too often: {stages}"
    assert steps, "the orchestrator called no other stage"
