"""What makes big contract folders fast must not change what is generated or reported.

* worker processes (planning.plan, above POOL_THRESHOLD contracts) write the same
  files and report the same problems, in the same order, as one process;
* on an unchanged folder, plan() loads, checks and renders no contract at all;
* the generator's fingerprint is parsed out of its modules once per generator, not per run;
* the files of a plan are written several at a time, each atomically, the record last;
* output reused on the cache's word is hashed once, and the record lists the bytes on disk;
* check's walk indexes the plan's names once, not once per folder.

Speed itself is measured by the benchmark (tests/bench/run.py --scale), never here.
"""

from __future__ import annotations

import ast
import hashlib
import multiprocessing
import os
import random
import shutil
import threading
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import synth
from support import CONTEXT
from toolshape.contract import source
from toolshape.contract.errors import ContractError, UsageError
from toolshape.project import cache, checking, headers, importable, pipeline, planning, writing


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


def _generated_then_one_changed(tmp_path: Path) -> tuple[Path, Path]:
    """Four synthetic contracts generated into ``generated``, then one of them (tool_1) edited:
    the contracts folder and the output folder."""
    folder, out = tmp_path / "contracts", tmp_path / "generated"
    _write_synthetic(folder, 4)
    writing.write(planning.plan(folder, CONTEXT), out)
    changed = folder / "group_1" / "tool_1.yaml"
    changed.write_text(changed.read_text(encoding="utf-8") + "# changed\n", encoding="utf-8")
    return folder, out


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


def _fingerprint_counting_parses(monkeypatch: pytest.MonkeyPatch) -> tuple[str, int]:
    """The generator fingerprint computed as a new process would (nothing remembered in
    memory), and how many modules it parsed to find it."""
    parsed = []
    real_parse = ast.parse

    def counting(source: str | bytes, *args: Any, **kwargs: Any) -> Any:
        parsed.append(source)
        return real_parse(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting)
    headers._generator_fingerprint.cache_clear()
    try:
        return headers._generator_fingerprint(), len(parsed)
    finally:
        monkeypatch.setattr(ast, "parse", real_parse)
        headers._generator_fingerprint.cache_clear()


def test_the_generator_fingerprint_parses_its_modules_once_per_generator(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every run needs the fingerprint (it is in every header digest); the modules that shape
    output are parsed to find them only when the cache has none for these very sources."""
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", "")  # off: computed every time
    expected, parsed = _fingerprint_counting_parses(monkeypatch)
    assert parsed > 50  # planning, writing, checking and what they import
    assert _fingerprint_counting_parses(monkeypatch) == (expected, parsed)
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", str(tmp_path / "cache"))
    assert _fingerprint_counting_parses(monkeypatch) == (expected, parsed)  # cold: remembered
    assert _fingerprint_counting_parses(monkeypatch) == (expected, 0)  # warm: nothing parsed
    # An entry the cache cannot vouch for is computed again (and then remembered again).
    (entry,) = (tmp_path / "cache" / "generator").iterdir()
    for corrupt in ("", "not json", "[]", '{"fingerprint": 1}', '{"fingerprint": "abc"}'):
        entry.write_text(corrupt, encoding="utf-8")
        assert _fingerprint_counting_parses(monkeypatch) == (expected, parsed)
        assert _fingerprint_counting_parses(monkeypatch) == (expected, 0)


def test_the_remembered_fingerprint_is_keyed_by_every_source_file(tmp_path: Path) -> None:
    """The key covers each Python file of the package, by path and bytes: any edit, added or
    renamed module, or other black makes a new key (and the fingerprint is computed again)."""
    package = Path(headers.__file__).resolve().parent.parent
    copy = tmp_path / "toolshape"
    shutil.copytree(package, copy, ignore=shutil.ignore_patterns("__pycache__"))
    seen = {headers._sources_digest(copy, b"black 1\0")}

    def changed(note: str) -> None:
        digest = headers._sources_digest(copy, b"black 1\0")
        assert digest not in seen, note
        seen.add(digest)

    assert headers._sources_digest(package, b"black 1\0") in seen  # the same files, elsewhere
    changed_black = headers._sources_digest(copy, b"black 2\0")
    assert changed_black not in seen
    for path in (copy / "project" / "planning.py", copy / "codegen" / "model.py", copy / "cli.py"):
        path.write_bytes(path.read_bytes() + b"\n")
        changed(f"edited {path.name}")
    (copy / "codegen" / "extra.py").write_text("X = 1\n", encoding="utf-8")
    changed("a module added")
    (copy / "codegen" / "extra.py").rename(copy / "codegen" / "extra2.py")
    changed("a module renamed")


def test_files_are_written_several_at_a_time_and_the_record_last(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each write waits for the disk (fsync), and a cold run writes two files a contract:
    write() keeps several under way at once, each still atomic, the record still last."""
    folder, out = tmp_path / "contracts", tmp_path / "generated"
    _write_synthetic(folder, 3)
    plan = planning.plan(folder, CONTEXT)
    real_fsync, real_replace = os.fsync, os.replace
    # The first two fsyncs wait for each other: they meet only if both are under way at once.
    # Written one at a time, the first would wait for ever: the timeout ends that wait only
    # (ten minutes: how busy the machine is never decides whether they meet).
    meeting = threading.Barrier(2, timeout=600)
    started, met, replaced = [], [], []

    def fsync(descriptor: int) -> None:
        started.append(descriptor)
        if len(started) <= 2:
            try:
                meeting.wait()
                met.append(descriptor)
            except threading.BrokenBarrierError:
                pass
        real_fsync(descriptor)

    def replace(source: str, destination: str) -> None:
        if Path(destination).is_relative_to(out):  # not the cache's entries
            replaced.append(Path(destination).relative_to(out).as_posix())
        real_replace(source, destination)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    writing.write(plan, out)
    monkeypatch.setattr(os, "replace", real_replace)
    assert len(met) == 2, "the first two files were written one after the other"
    assert len(started) == len(plan.files)  # every file on the disk before it replaced the old
    assert sorted(replaced) == sorted(p.as_posix() for p in plan.files)
    assert replaced[-1] == "toolshape-manifest.txt"
    assert {p: (out / p).read_text(encoding="utf-8") for p in plan.files} == plan.files
    assert checking.check(planning.plan(folder, CONTEXT, reuse_from=out), out) == []


def test_reused_output_is_hashed_once_and_the_record_lists_the_bytes_on_disk(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On the cache's word a reused module or test file is hashed once (the cache compares
    that sha256; its seal is not checked again, and the record takes the same sha256); the
    record still lists the sha256 of every file's bytes on disk, fresh and reused alike."""
    folder, out = _generated_then_one_changed(tmp_path)
    hashed: list[bytes] = []
    seals: list[object] = []
    real_sha256, real_sealed = cache.sha256, headers.is_sealed_intact

    def counting_sha256(data: bytes) -> str:
        hashed.append(data)
        return real_sha256(data)

    def counting_seal(text: str | bytes) -> bool:
        seals.append(text)
        return real_sealed(text)

    monkeypatch.setattr(cache, "sha256", counting_sha256)
    monkeypatch.setattr(headers, "is_sealed_intact", counting_seal)
    plan = planning.plan(folder, CONTEXT, reuse_from=out)
    monkeypatch.setattr(cache, "sha256", real_sha256)
    monkeypatch.setattr(headers, "is_sealed_intact", real_sealed)
    assert len(plan.reused) == 6  # three contracts' modules and tests
    for path in plan.reused | {p for p in plan.files if "tool_1" in p.name}:
        data = plan.files[path].encode("utf-8")
        assert hashed.count(data) == 1, f"{path} hashed {hashed.count(data)} times"
    assert seals == []
    writing.write(plan, out)
    listed = (out / "toolshape-manifest.txt").read_text(encoding="utf-8").splitlines()[4:]
    on_disk = {
        p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in out.rglob("*.py")
    }
    assert sorted(listed) == sorted(f"{digest}  {path}" for path, digest in on_disk.items())
    # With the headers trusted (check --headers-only, no cache) the seals are read.
    monkeypatch.setattr(headers, "is_sealed_intact", counting_seal)
    assert checking.check(planning.plan(folder, CONTEXT, out, trust_headers=True), out) == []
    assert len(seals) == 2 * 4


def test_a_contract_whose_output_the_cache_vouches_for_is_hashed_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """generate with one contract changed hashes each unchanged contract's inputs once, for
    the cache's key: output the cache vouches for has no header to compare the digest with."""
    folder, out = _generated_then_one_changed(tmp_path)
    digested: list[bytes] = []
    real_digest = headers.digest

    def counting_digest(raw: bytes, *rest: Any) -> str:
        digested.append(raw)
        return real_digest(raw, *rest)

    monkeypatch.setattr(headers, "digest", counting_digest)
    plan = planning.plan(folder, CONTEXT, reuse_from=out)
    assert len(plan.reused) == 6  # three contracts' modules and tests
    unchanged = [p for p in sorted(folder.rglob("*.yaml")) if p.name != "tool_1.yaml"]
    assert [digested.count(p.read_bytes()) for p in unchanged] == [1, 1, 1]


def _names_in(files: list[PurePosixPath], folder: PurePosixPath) -> dict[str, str]:
    """The names a plan puts in ``folder``, by a pass over every file (what the walk of
    importable.py asked of each folder before it indexed the plan once)."""
    names: dict[str, str] = {}
    for path in files:
        if path.parent == folder and path.suffix == ".py":
            names[path.stem.lower()] = path.name
        elif len(path.parts) > len(folder.parts) + 1 and path.parts[: len(folder.parts)] == (
            folder.parts
        ):
            name = path.parts[len(folder.parts)]
            names.setdefault(name.lower(), f"{name}/")
    return names


def test_the_names_a_plan_puts_in_each_folder_are_indexed_in_one_pass() -> None:
    """check's walk asks, for every folder, which modules and packages the plan puts there:
    one index over the plan gives what a pass over its files per folder gives, for plans
    where names differ only by case, a module and a package share a name, files are not
    modules, at any depth (random plans)."""
    rng = random.Random(7)
    for _ in range(500):
        files = []
        for _ in range(rng.randint(0, 12)):
            parts = [
                rng.choice(["a", "A", "pay", "Pay", "tests"]) for _ in range(rng.randint(0, 3))
            ]
            stem = rng.choice(["a", "A", "pay", "Pay", "x", "__init__"])
            files.append(PurePosixPath(*parts, stem + rng.choice([".py", ".py", ".txt", ""])))
        index = importable._names_by_folder(files)
        folders = {PurePosixPath(*f.parts[:depth]) for f in files for depth in range(len(f.parts))}
        for folder in folders | {PurePosixPath("elsewhere")}:
            assert index.get(folder, {}) == _names_in(files, folder), (files, folder)
