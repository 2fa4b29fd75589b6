"""The module model answers ``integral`` and the runtime names from one walk each
(``functools.cached_property``: nothing changes a model once it is built). That must
change nothing: after the module is rendered, walking the model again gives what the
templates were given, and the module is the one a model never asked before renders."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import synth
from support import CONTEXT, ROOT, check_example, example_contracts
from toolshape.codegen import model, render, runtime_imports
from toolshape.codegen.model_parts import Applicator, Node
from toolshape.contract import checker, source
from toolshape.families.references import checks as ref_checks

CONTRACTS = example_contracts() + [ROOT / "tests/bench/contracts/large_order.yaml"]


def _built(raw: bytes, stem: str, path: Path | None = None) -> model.ModuleModel:
    display = f"contracts/{stem}.yaml"
    checked = check_example(path, display) if path else checker.check(source.load(raw, display))
    return model.build(checked, stem, "0" * 64)


def _check(raw: bytes, stem: str, path: Path | None = None) -> None:
    rendered = _built(raw, stem, path)
    text = render.render(CONTEXT, "module.py.j2", f"{stem}.py", model=rendered)
    # The values the render used, against fresh walks of the same (rendered) model.
    assert rendered.integral == model._has_integral([rendered.root, *rendered.functions])
    needs = runtime_imports.module_needs(rendered)
    if rendered.result is not None:  # the result's side (a contract with output)
        side = rendered.result
        assert side.integral == model._has_integral([side.root, *side.functions])
        needs |= runtime_imports.module_needs(side) | runtime_imports.RESULT_ALWAYS
    assert rendered.runtime_needs == frozenset(needs)
    # And the render of a model built afresh, every value walked for the first time.
    assert (
        render.render(CONTEXT, "module.py.j2", f"{stem}.py", model=_built(raw, stem, path)) == text
    )


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_walking_the_model_once_changes_no_module(path: Path) -> None:
    _check(path.read_bytes(), path.stem, path)


@pytest.mark.parametrize("index", range(6))
def test_walking_the_model_once_changes_no_synthetic_module(index: int) -> None:
    raw = synth.render(synth.contract(random.Random(5000 + index), index)).encode()
    _check(raw, f"tool_{index}")


@pytest.fixture
def walked(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Each node walked for its $ref calls (``settle_required``), in order."""
    nodes: list[object] = []
    real = ref_checks._ref_calls

    def counted(node: Node) -> Iterator[Applicator]:
        nodes.append(node)
        return real(node)

    monkeypatch.setattr(ref_checks, "_ref_calls", counted)
    return nodes


@pytest.mark.parametrize("index", range(3))
def test_a_model_with_no_ref_function_to_settle_is_not_walked_for_calls(
    index: int, walked: list[object]
) -> None:
    """Which $ref functions hear whether their value is a required key's is settled by walking
    every check for its $ref calls (``settle_required``); a module with no such function has
    nothing to settle, and its model is not walked for it (one that has still is: below)."""
    raw = synth.render(synth.contract(random.Random(6000 + index), index)).encode()
    built = _built(raw, f"tool_{index}")
    assert not any(made.takes_required for made in built.functions)
    assert walked == []


def test_a_model_with_a_ref_function_to_settle_is_walked_for_calls(
    walked: list[object],
) -> None:
    """The other side of the test above: an example contract with a $ref function that hears
    whether its value is a required key's has its model walked for the calls."""
    with_refs = next(
        made
        for path in CONTRACTS
        for made in [_built(path.read_bytes(), path.stem, path)]
        if any(function.takes_required for function in made.functions)
    )
    assert with_refs.functions and walked
