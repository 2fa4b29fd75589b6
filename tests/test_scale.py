"""What makes big contract folders fast must not change what is generated or reported.

* worker processes (planning.plan, above POOL_THRESHOLD contracts) write the same
  files and report the same problems, in the same order, as one process;
* on an unchanged folder, plan() loads, checks and renders no contract at all.

Speed itself is measured by the benchmark (tests/bench/run.py --scale), never here.
"""

from __future__ import annotations

import multiprocessing
import random
from pathlib import Path

import pytest
import synth
from support import CONTEXT
from toolshape.contract import source
from toolshape.contract.errors import ContractError, UsageError
from toolshape.project import checking, pipeline, planning, writing


def _write_synthetic(folder: Path, count: int) -> None:
    rng = random.Random(5)
    for index in range(count):
        path = folder / f"group_{index % 2}" / f"tool_{index}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        # Small contracts: the point is the plumbing, not the size.
        data = synth.contract(rng, index)
        properties = data["parameters"]["properties"]
        keep = list(properties)[:4]
        data["parameters"]["properties"] = {k: properties[k] for k in keep}
        data["parameters"]["required"] = keep[:1]
        good = {k: v for k, v in data["examples"][0]["args"].items() if k in keep}
        data["examples"] = [{"args": good}]
        path.write_text(synth.render(data), encoding="utf-8")


def _problems(folder: Path) -> list[str]:
    with pytest.raises(ContractError) as caught:
        planning.plan(folder, CONTEXT)
    return [str(p) for p in caught.value.problems]


def test_workers_generate_what_one_process_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _write_synthetic(tmp_path / "contracts", 4)
    monkeypatch.setattr(planning, "POOL_THRESHOLD", 10**9)
    alone = planning.plan(tmp_path / "contracts", CONTEXT)
    monkeypatch.setattr(planning, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(planning, "_usable_cpus", lambda: 2)
    pooled = planning.plan(tmp_path / "contracts", CONTEXT)
    assert pooled.files == alone.files
    assert [g.tool_name for g in pooled.generated] == [g.tool_name for g in alone.generated]
    # The checked contract is not sent back from a worker; it is loaded again when asked for.
    assert pooled.generated[0].checked is None
    assert pooled.generated[0].contract.name == alone.generated[0].contract.name


BROKEN = "name: broken\ndescription: x\nparameters:\n  type: object\n  properties:\n    a: {type: strin}\n"


def test_workers_report_what_one_process_does_in_the_same_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "contracts"
    _write_synthetic(folder, 4)
    (folder / "group_0" / "a_broken.yaml").write_text(BROKEN, encoding="utf-8")
    (folder / "group_1" / "z_broken.yaml").write_text(
        BROKEN.replace("broken", "other"), encoding="utf-8"
    )
    # the same tool name twice: reported at the second file's name line
    twin = (folder / "group_0" / "tool_0.yaml").read_text(encoding="utf-8")
    (folder / "group_1" / "twin.yaml").write_text(twin, encoding="utf-8")
    monkeypatch.setattr(planning, "POOL_THRESHOLD", 10**9)
    alone = _problems(folder)
    monkeypatch.setattr(planning, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(planning, "_usable_cpus", lambda: 2)
    pooled = _problems(folder)
    assert pooled == alone
    assert len(alone) == 3
    assert alone[0].startswith(str(folder / "group_0" / "a_broken.yaml") + ":6:")
    assert (
        "tool name 'tool_0000' is already used by" in alone[1]
    )  # group_1/twin.yaml, before z_broken.yaml


def test_an_unchanged_folder_is_planned_without_loading_a_contract(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder, out = tmp_path / "contracts", tmp_path / "generated"
    _write_synthetic(folder, 3)
    writing.write(planning.plan(folder, CONTEXT), out)

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("an unchanged contract was loaded or generated again")

    monkeypatch.setattr(source, "load", forbidden)
    monkeypatch.setattr(pipeline, "generate", forbidden)
    again = planning.plan(folder, CONTEXT, reuse_from=out)
    assert checking.check(again, out) == []
    assert sorted(g.tool_name for g in again.generated) == ["tool_0000", "tool_0001", "tool_0002"]


def test_a_hand_edited_module_is_generated_again(tmp_path: Path) -> None:
    folder, out = tmp_path / "contracts", tmp_path / "generated"
    _write_synthetic(folder, 1)
    writing.write(planning.plan(folder, CONTEXT), out)
    module = out / "group_0" / "tool_0.py"
    module.write_text(
        module.read_text(encoding="utf-8").replace("TOOL_NAME = ", "TOOL_NAME  = "),
        encoding="utf-8",
    )
    findings = checking.check(planning.plan(folder, CONTEXT, reuse_from=out), out)
    assert [(str(f.path), f.kind) for f in findings] == [("group_0/tool_0.py", "hand-edited")]


@pytest.mark.skipif(
    "fork" not in multiprocessing.get_all_start_methods(),
    reason="the patch reaches forked workers only",
)
def test_a_bug_in_a_worker_reaches_the_caller(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An exception other than a contract error is a toolshape bug: it is raised, not reported as a problem."""
    _write_synthetic(tmp_path / "contracts", 3)

    def explode(*args: object, **kwargs: object) -> None:
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(planning, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(planning, "_usable_cpus", lambda: 2)
    monkeypatch.setattr(pipeline, "generate", explode)  # workers are forked: they see it too
    with pytest.raises(ZeroDivisionError, match="boom") as raised:
        planning.plan(tmp_path / "contracts", CONTEXT)
    # It came from a worker (concurrent.futures attaches the worker's traceback), not from
    # generating right here.
    assert type(raised.value.__cause__).__name__ == "_RemoteTraceback"


def test_toolshape_jobs_sets_the_number_of_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLSHAPE_JOBS", "3")
    assert planning._usable_cpus() == 3
    monkeypatch.setenv("TOOLSHAPE_JOBS", "1")
    assert planning._usable_cpus() == 1  # no workers at all
    monkeypatch.delenv("TOOLSHAPE_JOBS")
    assert 1 <= planning._usable_cpus() <= planning.MAX_WORKERS
    for wrong in ("many", "0", "-2", "²"):
        monkeypatch.setenv("TOOLSHAPE_JOBS", wrong)
        with pytest.raises(UsageError, match="TOOLSHAPE_JOBS"):
            planning._usable_cpus()
