"""What the ``toolshape diff`` tests share: contracts as YAML, the get_weather contract with
edits, and ``assert_witnesses_hold``, which checks every witness of a report again,
independently of review/: both sides generated here, run through both validators (a
result's through ``validate_result``) and the reference evaluator."""

from __future__ import annotations

import copy
import functools
import json
import types
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

import yaml
from support import CONTEXT, ROOT, standalone_contracts
from toolshape.contract import checker, reference, source
from toolshape.contract.errors import ContractError
from toolshape.project import pipeline, runtime
from toolshape.review import diff
from toolshape.review.report import NO_OUTPUT, RESULTS, UNKNOWN_TOOL, Change, Report

#: The examples compared as single files (those that reach shared definitions need their
#: folder: tests/test_shared_definitions.py compares those).
CONTRACT_FILES = standalone_contracts()
CONTRACT_IDS = [p.relative_to(ROOT / "contracts").as_posix() for p in CONTRACT_FILES]

# -- helpers ---------------------------------------------------------------------------


def dump(data: Any) -> bytes:
    """Contract data as YAML text: leaf lists and mappings inline (as contracts/ writes them)."""
    text: str = yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, width=1_000_000, default_flow_style=None
    )
    return text.encode()


def load_data(path: Path) -> Any:
    return source.load(path.read_bytes(), str(path)).data


def assert_witnesses_hold(report: Report, old: dict[str, bytes], new: dict[str, bytes]) -> None:
    """Every witness: both validators (fully generated here) and the reference give its statuses."""
    by_tool = {}
    for side, files in (("old", old), ("new", new)):
        for raw in files.values():
            built = checked_module(raw)
            if built is not None:
                by_tool[(side, built[0].name)] = built
    for change in report.changes:
        directions = {"breaking", "narrowing" if change.flow is RESULTS else "widening"}
        if change.effect in directions | {"both"}:
            assert change.witnesses, change
        else:
            assert not change.witnesses, change
        if change.effect == "both":
            assert {w.direction for w in change.witnesses} == directions, change
        for witness in change.witnesses:
            assert witness.flow is change.flow, change
            if change.effect in directions:
                assert witness.direction == change.effect, change
            for side, status in (("old", witness.old_status), ("new", witness.new_status)):
                _assert_status(by_tool.get((side, change.tool)), change, witness.arguments, status)
            assert {witness.old_status, witness.new_status} in (
                {"accept", "reject"},
                {"accept", UNKNOWN_TOOL},
                {"reject", NO_OUTPUT},
            ), change


@functools.cache
def checked_module(raw: bytes) -> tuple[checker.Contract, types.ModuleType] | None:
    """A contract's checked form and its fully generated module, or None where it does not
    check. Built once per process for each text: a test compares one original with each of
    its edits, and the validators are pure (each witness is given its own copy)."""
    try:
        checked = checker.check(source.load(raw, "x.yaml"))
        return checked, runtime.load_module(module_source(raw), "x.py")
    except ContractError:
        return None


def _assert_status(found: Any, change: Change, value: Any, status: str) -> None:
    """One side's generated validator (``validate``, or ``validate_result`` for a result) gives
    ``value`` that status, with the reference evaluator's errors."""
    if found is None:
        assert status == UNKNOWN_TOOL, change
        return
    checked, module = found
    if change.flow is RESULTS and checked.output is None:
        assert status == NO_OUTPUT and not hasattr(module, "validate_result"), change
        return
    schema, validate = (
        (checked.output, module.validate_result)
        if change.flow is RESULTS
        else (checked.parameters, module.validate)
    )
    result = validate(copy.deepcopy(value))
    assert result.status == status, change
    assert {(e.path, e.code) for e in result.errors} == reference.evaluate(schema, value), change


def compare(old: dict[str, bytes], new: dict[str, bytes]) -> Report:
    report = diff.diff(old, new)
    assert_witnesses_hold(report, old, new)
    return report


def weather(edit: Callable[[dict[str, Any]], None] | None = None) -> bytes:
    data = load_data(ROOT / "contracts" / "get_weather.yaml")
    if edit is not None:
        edit(data)
    return dump(data)


def city(**changes: Any) -> Callable[[dict[str, Any]], None]:
    def edit(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["city"].update(changes)

    return edit


def only(report: Report, pointer: str | None = None) -> Change:
    found = [c for c in report.changes if pointer is None or c.pointer == pointer]
    assert len(found) == 1, [(c.pointer, c.change, c.effect) for c in report.changes]
    return found[0]


@functools.cache
def module_source(raw: bytes) -> str:
    """pipeline.generate()'s module_source, rendered only, once per contract text and process
    (test_diff_examples.py checks it is the same)."""
    return pipeline.module_source(raw, "contracts/x.yaml", PurePosixPath("x.yaml"), CONTEXT)


def rename_property(data: Any, old: str, new: str) -> Any:
    data = copy.deepcopy(data)
    params = data["parameters"]
    params["properties"] = {(new if k == old else k): v for k, v in params["properties"].items()}
    if "required" in params:
        params["required"] = [new if k == old else k for k in params["required"]]
    for example in data.get("examples") or []:
        if isinstance(example.get("args"), dict):
            example["args"] = {(new if k == old else k): v for k, v in example["args"].items()}
        if "json" in example and example.get("status") != "parse_error":
            try:
                decoded = json.loads(example["json"])
            except ValueError:
                decoded = None
            if isinstance(decoded, dict) and old in decoded:
                example["json"] = json.dumps(
                    {(new if k == old else k): v for k, v in decoded.items()}, ensure_ascii=False
                )
        for error in example.get("errors") or []:
            if error["path"] == f"/{old}" or error["path"].startswith(f"/{old}/"):
                error["path"] = f"/{new}" + error["path"][len(old) + 1 :]
    return data
