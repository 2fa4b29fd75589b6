"""Checking an output folder against a plan, byte for byte; nothing is written."""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import ClassVar

from ..codegen import model
from . import headers, importable, manifest, output
from .planning import DEFINITIONS_PATH, Plan


@dataclass
class CheckFinding:
    """One reason ``check`` fails."""

    path: PurePosixPath
    kind: str  # "missing" | "stale" | "hand-edited" | "extra" | "importable"
    diff: str = ""
    #: How to bring the output in line: the generate command of the same contracts and output.
    command: str = model.REGENERATE
    #: For "importable": what Python could make of the entry (importable.Importable.what).
    detail: str = ""

    REASONS: ClassVar[dict[str, str]] = {
        "missing": "missing: run {command}",
        "stale": "stale: its contract changed since it was generated; run {command}",
        "hand-edited": "hand-edited: it differs from what its unchanged contract generates; run {command}",
        "extra": "extra: its contract is gone; run {command} to remove it",
        "importable": (
            "importable: {detail}; toolshape did not generate it: remove it, "
            "or move it out of the output folder"
        ),
    }

    @property
    def reason(self) -> str:
        if self.path == manifest.MANIFEST and self.kind == "stale":  # it has no contract of its own
            return f"stale: the generated files it lists changed; run {self.command}"
        if self.path == DEFINITIONS_PATH and self.kind == "stale":  # every contract's
            return f"stale: a contract changed since it was generated; run {self.command}"
        return self.REASONS[self.kind].format(command=self.command, detail=self.detail)

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


def check(result: Plan, out: Path, command: str = model.REGENERATE) -> list[CheckFinding]:
    """What differs between the plan and ``out``, byte for byte; writes nothing. Each finding
    says to run ``command``: the generate command of the same contracts and output folder."""
    findings: list[CheckFinding] = []
    unchanged = result.read_already(out)
    for relative, text in sorted(result.files.items()):
        if relative in unchanged:
            continue
        target = out / Path(*relative.parts)
        old_bytes = output.read_bytes(target)
        if old_bytes is None:
            findings.append(CheckFinding(relative, "missing", command=command))
            continue
        if old_bytes == text.encode("utf-8"):
            continue
        old = old_bytes.decode("utf-8", errors="replace")
        same_contract = _digest(old) == _digest(text) is not None
        kind = "hand-edited" if same_contract else "stale"
        diff = "".join(
            difflib.unified_diff(
                old.splitlines(keepends=True),
                text.splitlines(keepends=True),
                f"{relative} (on disk)",
                f"{relative} (generated)",
            )
        )
        findings.append(CheckFinding(relative, kind, diff, command))
    extra = output.orphans(result, out)
    for relative in extra:
        findings.append(CheckFinding(relative, "extra", command=command))
    # What Python imports is names, not files: every importable entry the plan does not list.
    for entry in importable.unlisted(result, out, skip=set(extra)):
        findings.append(CheckFinding(entry.path, "importable", command=command, detail=entry.what))
    # The record follows from the other files: when they differ, its diff only repeats that.
    if len(findings) > 1:
        for finding in findings:
            if finding.path == manifest.MANIFEST:
                finding.diff = ""
    # A package __init__.py records no contract digest: when no contract changed
    # (nothing else is stale, missing or extra), a difference in it is an edit.
    if all(f.kind in ("hand-edited", "importable") or _digest_free(f, result) for f in findings):
        for finding in findings:
            if _digest_free(finding, result):
                finding.kind = "hand-edited"
    return findings


def _digest_free(finding: CheckFinding, result: Plan) -> bool:
    """Whether ``finding`` is about a changed file whose generated text records no contract digest."""
    text = result.files.get(finding.path)
    return finding.kind == "stale" and text is not None and _digest(text) is None


def _digest(text: str) -> str | None:
    """The contract-sha256 of a generated file's header (None: there is none)."""
    return headers.header_digest(text[:4096].encode("utf-8", "replace"))
