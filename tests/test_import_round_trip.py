"""Every format toolshape exports, imported back: the same tool.

Each example contract is exported to each target (``toolshape schema --target X``), the
definition is imported (``toolshape import``), and the imported contract's generated validator
is run on every case of the original's generated tests. Where the export carries the contract
whole (``jsonschema``, ``mcp``, ``gemini``, and OpenAI or Anthropic with strict mode off) the
verdicts are the same on every case. Where the platform cannot express a constraint (strict
mode, Gemini's legacy ``parameters``), the export is a loosening, and the import keeps exactly
what the export says: exporting the imported contract again gives the same definition, and the
import refuses more than the original only where a call leaves out a key OpenAI strict mode
made required, a key its warning names.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from support import ROOT, check_example, example_contracts
from toolshape.codegen import cases, render
from toolshape.contract import checker, source
from toolshape.platforms import export, importer
from toolshape.project import pipeline, runtime

import generated

CONTRACTS = example_contracts()
CONTEXT = render.generation_context()


@functools.cache
def checked(path: Path) -> checker.Contract:
    """The example contract checked once per process: each of its export targets reads the same
    contract (nothing here changes it), and its derived cases are made from it."""
    return check_example(path, str(path.relative_to(ROOT)))


def reimported(name: str, definition: dict[str, Any], tmp_path: Path) -> importer.ImportedContract:
    """The definition as ``schema --target X > NAME.json`` writes it, read back by ``import``
    (a JSON Schema whose own title is no tool name is named after its file)."""
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(definition), encoding="utf-8")
    (imported,) = importer.import_file(path)
    return imported


@functools.cache
def validator(yaml_text: str) -> Any:
    """The validator generated from an imported contract's YAML: generated once per text, since
    several targets often import back to the same contract (generation is deterministic)."""
    raw = yaml_text.encode("utf-8")
    made = pipeline.generate(raw, "t.yaml", PurePosixPath("t.yaml"), CONTEXT)
    return runtime.load_module(made.module_source, "t.py")


@functools.cache
def derived_cases(path: Path) -> list[cases.Case]:
    """The cases derived from a contract: the same for each of the targets it is exported to,
    so derived once per contract (the reference evaluator is the slow part of this file)."""
    return cases.derive(checked(path)).cases


def lossless(result: export.ExportResult) -> bool:
    """Whether the export is the contract's own schema (no platform rule loosened it)."""
    if result.target == "gemini-legacy":  # an OpenAPI subset: never the whole contract
        return False
    return result.target in ("jsonschema", "mcp", "gemini") or not result.strict


@pytest.mark.parametrize("target", export.TARGETS)
@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_every_export_imports_back_to_a_validator_that_agrees(
    path: Path, target: str, tmp_path: Path
) -> None:
    contract = checked(path)
    try:
        result = export.export(contract, target)
    except export.ExportError:
        pytest.skip(f"{target} refuses {contract.name} outright (lint --target {target} says why)")
    original = generated.tool_module(contract.name)
    assert original is not None
    imported = reimported(contract.name, result.definition, tmp_path)
    assert imported.name == contract.name
    module = validator(imported.yaml_text)
    derived = derived_cases(path)
    assert derived
    differ = [c for c in derived if original.validate(c.data).ok != module.validate(c.data).ok]
    if lossless(result):
        assert not differ, f"{target}: verdicts unlike the original's: {[c.name for c in differ]}"
        return
    # A loosening: the import refuses more only where a key strict mode made required is left
    # out, and the import's warning names that key.
    converted = {c.key for c in result.converted}
    warned = "\n".join(map(str, imported.warnings))
    for case in differ:
        after = module.validate(case.data)
        if after.ok:
            continue
        keys = {e.path.rsplit("/", 1)[-1] for e in after.errors if e.code == "required"}
        assert len(keys) == len(after.errors) and keys <= converted, (case.name, after.feedback())
        assert all(f"/properties/{key}" in warned for key in keys), (case.name, warned)
    # ... and nothing the export said is lost: the import exports to the very same definition.
    again = export.export(checker.check(source.load(imported.yaml_text.encode(), "t.yaml")), target)
    assert again.definition == result.definition
