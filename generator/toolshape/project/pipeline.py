"""One contract file through the whole pipeline, in memory: this module orchestrates, the
steps live where their job is.

YAML -> checked contract (``contract/``) -> module model (``codegen/model.py``) -> templates
(``codegen/render.py``) -> formatted source, sealed (``headers.py``); the module is run in
memory (``runtime.py``) against the contract's examples and derived cases (``examples.py``);
then the tests' model (``codegen/tests_model.py``) -> the tests, with the header records that
let reused output skip all of this (``headers.py``). Nothing is written here: ``planning``,
``writing`` and ``checking`` decide what reaches the disk, and when.
"""

from __future__ import annotations

import types
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from ..codegen import cases, model, render, tests_model
from ..codegen.context import GenerationContext
from ..contract import checker, shared
from ..contract.errors import Problem
from ..platforms import export
from . import examples, headers, listing, runtime
from .listing import Listing

#: A contract that reaches no shared-definitions file.
_NO_FILES: shared.Files = {}


@dataclass
class Generated:
    """The output for one contract: module and test sources, keyed by relative path.

    Output reused from disk (see ``reuse``) does not load its contract: the
    checked contract is loaded from ``raw`` only when asked for (``contract``).
    Plain data only, so that a worker process can send it back (planning.py).
    """

    tool_name: str
    module_path: PurePosixPath  # e.g. billing/transfer_funds.py
    module_source: str
    test_path: PurePosixPath  # e.g. tests/billing/test_transfer_funds.py
    test_source: str
    raw: bytes = field(repr=False)
    display: str
    checked: checker.Contract | None = field(default=None, repr=False, compare=False)
    #: The contract's warnings and those met deriving its cases (printed, never fatal).
    warnings: list[Problem] = field(default_factory=list)
    #: The tool's definition for each platform that takes it (export.PLATFORMS), and why
    #: each other platform refuses it, as the package's tool lists take them.
    listing: Listing = field(default_factory=lambda: Listing({}, {}, {}))
    #: Why layout.py could not lay out its module, which black's format_str formatted instead
    #: (the context's layout notes): toolshape's gap, never the contract's; the command line says so.
    layout_gaps: list[str] = field(default_factory=list)
    #: The shared-definitions files the contract reaches, by path in the contracts folder.
    files: shared.Files = field(default_factory=dict, repr=False)

    @property
    def contract(self) -> checker.Contract:
        """The checked contract (loaded again from its bytes when the output was reused)."""
        if self.checked is None:
            # The module's path sits in the contract's folder: shared $refs resolve from there.
            at = self.module_path.with_suffix(".yaml")
            self.checked = checker.load_and_check(self.raw, self.display, at, self.files)
        return self.checked

    @property
    def import_name(self) -> str:
        return ".".join(self.module_path.with_suffix("").parts)


def paths_for(relative: PurePosixPath) -> tuple[PurePosixPath, PurePosixPath]:
    """Where a contract's module and tests go: billing/refund.yaml -> billing/refund.py, tests/billing/test_refund.py."""
    module_path = relative.with_suffix(".py")
    return module_path, PurePosixPath(
        "tests", *module_path.parent.parts, f"test_{module_path.name}"
    )


def reuse(
    raw: bytes,
    display: str,
    relative: PurePosixPath,
    context: GenerationContext,
    module_data: bytes,
    test_data: bytes,
    *,
    vouched: bool = False,
    files: shared.Files = _NO_FILES,
    listed: Listing | None = None,
) -> Generated | None:
    """The existing output (its bytes), when it was generated from these very contract bytes
    by this generator and nobody edited it since; None means generate afresh.

    Nothing is loaded, checked or rendered: the same bytes through the same generator
    and templates passed every check when the output was written, and would again. Their
    headers must name these contract bytes and generator, and their seals hold, unless the
    cache ``vouched`` for them (planning.py): then they are the bytes generate wrote, and
    ``listed`` is the tool's listing the cache kept with them (else it is read from the
    tests' header).
    """
    if not vouched and not _headers_hold(raw, context, files, module_data, test_data):
        return None
    try:
        module_text, test_text = module_data.decode("utf-8"), test_data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    name = headers.tool_name(module_text)
    if name is None:  # a custom module template without a plain TOOL_NAME line
        name = checker.load_and_check(raw, display, relative, files).name
    module_path, test_path = paths_for(relative)
    warnings = headers.recorded_warnings(test_data, display)
    if listed is None:
        recorded = headers.recorded_definitions(test_data, display)
        if recorded is None:  # written by a toolshape that did not record them: generate afresh
            return None
        listed = listing.of(*recorded)
    return Generated(
        name,
        module_path,
        module_text,
        test_path,
        test_text,
        raw,
        display,
        warnings=warnings,
        listing=listed,
        files=files,
    )


def _headers_hold(
    raw: bytes, context: GenerationContext, files: shared.Files, *outputs: bytes
) -> bool:
    """Whether each output's header names these contract bytes and generator, and its seal
    holds (the contract is hashed only here: output the cache vouched for needs neither)."""
    wanted = headers.digest(raw, context, files)
    return all(headers.header_digest(d) == wanted and headers.is_sealed_intact(d) for d in outputs)


def platform_definitions(
    checked: checker.Contract,
) -> tuple[dict[str, dict[str, Any]], dict[str, list[Problem]]]:
    """The tool's definition for each platform of ``export.PLATFORMS`` that takes it, and the
    reasons of each platform that refuses it (located in the contract, as ``schema`` says them)."""
    definitions: dict[str, dict[str, Any]] = {}
    refusals: dict[str, list[Problem]] = {}
    # Not copied (export_each): these definitions are only serialised, into the header's
    # records and the package's tool lists.
    for platform, result in export.export_each(checked, export.PLATFORMS).items():
        if isinstance(result, export.ExportError):
            refusals[platform] = [finding.problem(checked) for finding in result.findings]
        else:
            definitions[platform] = result.definition
    return definitions, refusals


@dataclass
class ModuleOnly:
    """The module half of the pipeline: what `toolshape diff` needs (no tests rendered)."""

    contract: checker.Contract
    built: model.ModuleModel
    source: str
    module: types.ModuleType
    derived: list[cases.Case]
    warnings: list[Problem]
    #: Why layout.py could not lay out the module (see ``Generated.layout_gaps``).
    layout_gaps: list[str]
    #: The result's derived cases (from ``output``; empty without it), run on validate_result.
    result_derived: list[cases.Case] = field(default_factory=list)


def module_source(
    raw: bytes,
    display: str,
    relative: PurePosixPath,
    context: GenerationContext,
    files: shared.Files = _NO_FILES,
) -> str:
    """The module ``generate`` writes for one contract, rendered only: nothing is run on it
    (no examples, no derived cases), so it is for a contract that generates (raise
    ContractError when it does not check)."""
    checked = checker.load_and_check(raw, display, relative, files)
    source = _rendered(checked, raw, relative, context, files)[1]
    context.take_layout_notes(str(paths_for(relative)[0]))
    return source


def _rendered(
    checked: checker.Contract,
    raw: bytes,
    relative: PurePosixPath,
    context: GenerationContext,
    files: shared.Files,
) -> tuple[model.ModuleModel, str]:
    """The module's model and its source, rendered and sealed (not compiled: load_module
    compiles it, once)."""
    module_path, _ = paths_for(relative)
    built = model.build(
        checked,
        module_path.stem,
        headers.digest(raw, context, files),
        depth=len(module_path.parent.parts),
        command=context.command,
    )
    source = headers.seal(
        render.render(context, "module.py.j2", str(module_path), compiles=False, model=built)
    )
    return built, source


def generate_module(
    raw: bytes,
    display: str,
    relative: PurePosixPath,
    context: GenerationContext,
    *,
    run_cases: bool = True,
    files: shared.Files = _NO_FILES,
) -> ModuleOnly:
    """Load, check, render and run one contract's module, with its examples and derived cases
    checked; its header names the context's command as what regenerates it. Without
    ``run_cases`` the derived cases are derived but not run on the module (``toolshape diff``
    checks each instance it uses against the reference evaluator itself). ``files``: the
    shared-definitions files the contract reaches (shared.gather), part of its inputs."""
    checked = checker.load_and_check(raw, display, relative, files)
    result_side = checked.result_side()  # the contract's stage, done before the model's
    module_path, _ = paths_for(relative)
    built, module_source = _rendered(checked, raw, relative, context, files)
    layout_gaps = context.take_layout_notes(str(module_path))
    module = runtime.load_module(module_source, str(module_path), runtime.runtime_source(context))
    derivation = examples.check_module(checked, module, run_cases=run_cases)
    result_derivation = examples.check_result_side(
        result_side, checked, module, run_cases=run_cases
    )
    result_cases = result_derivation.cases if result_derivation else []
    result_warnings = result_derivation.warnings if result_derivation else []
    # By place in the file, as reused output reads them back (record_warnings sorts too).
    warnings = sorted([*checked.warnings, *derivation.warnings, *result_warnings])
    return ModuleOnly(
        checked, built, module_source, module, derivation.cases, warnings, layout_gaps, result_cases
    )


def generate(
    raw: bytes,
    display: str,
    relative: PurePosixPath,
    context: GenerationContext,
    files: shared.Files = _NO_FILES,
) -> Generated:
    """Generate module and tests for one contract file (with the shared-definitions ``files``
    it reaches); raise ContractError on any problem."""
    half = generate_module(raw, display, relative, context, files=files)
    checked, built, module_source, derived = half.contract, half.built, half.source, half.derived
    module_path, test_path = paths_for(relative)
    tests = tests_model.build(checked, built, module_path, derived, half.result_derived)
    # The tests template is written black-formatted and its data sits between
    # "fmt: off" and "fmt: on": black would only spend seconds confirming it
    # (a test in tests/ does confirm it for the example contracts).
    label = str(test_path)
    if context.builtin:  # the built-in template prints each entry where an expression goes
        stand_ins = tests_model.StandIns(tests)
        test_source = render.render_tables(
            context, "tests.py.j2", label, stand_ins.entries, model=stand_ins.model
        )
    else:
        test_source = render.render(context, "tests.py.j2", label, formatted=True, model=tests)
    definitions, refusals = platform_definitions(checked)
    test_source = headers.sealed_with_records(test_source, half.warnings, definitions, refusals)
    return Generated(
        checked.name,
        module_path,
        module_source,
        test_path,
        test_source,
        raw,
        display,
        checked,
        half.warnings,
        listing.of(definitions, refusals),
        half.layout_gaps,
        files,
    )
