"""One side of a diff: its contracts checked and generated in memory, the validators
loaded (cached per contract and templates folder), by tool name; and a tool's arguments or
its result as the witness search sees them (``Built.view``)."""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from ..codegen import render
from ..codegen.cases import Case
from ..codegen.context import GenerationContext
from ..contract import checker, shared
from ..contract.errors import ContractError, Problem
from ..project import headers, pipeline
from .report import RESULTS, Flow, Report


@dataclass
class Built:
    """A contract with its generated validator and derived cases."""

    raw: bytes
    display: str
    checked: checker.Contract
    module: Any = None
    derived: list[Any] = field(default_factory=list)
    #: The warnings met deriving its cases (once its validator is generated).
    derivation_warnings: list[Problem] = field(default_factory=list)
    #: The cases derived from its ``output`` (empty without one).
    result_derived: list[Any] = field(default_factory=list)
    #: Where it sits in its contracts folder, and the shared-definitions files it reaches.
    relative: PurePosixPath = field(default_factory=lambda: PurePosixPath("x.yaml"))
    files: shared.Files = field(default_factory=dict)

    @property
    def parameters(self) -> Any:
        return self.checked.parameters

    def view(self, flow: Flow) -> View:
        """The tool's arguments, or its result, as the witness search sees them (once generated)."""
        if flow is RESULTS:
            examples = [e.args for e in self.checked.result_examples]
            return View(
                self.checked.output, self.module.validate_result, examples, self.result_derived
            )
        found: list[Any] = []
        for example in self.checked.examples:
            if example.has_args:
                found.append(example.args)
            elif example.json is not None:
                with contextlib.suppress(ValueError):
                    found.append(json.loads(example.json))
        return View(self.parameters, self.module.validate, found, self.derived)


@dataclass(frozen=True)
class View:
    """One side of a tool as one flow sees it: the schema compared (``parameters`` or
    ``output``), the generated validator of its values, and the values the contract offers:
    its examples (decoded) and its derived cases. A case holds its instance as one change to a
    shared root until ``data`` is read, so the cases are kept as cases: reading every one
    would copy the changed object once per case (quadratic in the contract's width)."""

    schema: Any
    validate: Callable[[Any], Any]
    examples: list[Any]
    cases: list[Case]

    @property
    def samples(self) -> list[Any]:
        """Every value the contract offers: its examples, then each derived case's instance."""
        return [*self.examples, *(case.data for case in self.cases)]


#: Generated validators by (contract bytes, templates folder); generation contexts by templates folder.
_CACHE: dict[tuple[str, str], tuple[Any, list[Any], list[Any]]] = {}
#: The derivation's warnings by the same key (each names the file it was first generated for).
_WARNINGS: dict[tuple[str, str], list[Problem]] = {}
_CONTEXTS: dict[str, GenerationContext] = {}


def context_for(templates: Path | None) -> tuple[str, GenerationContext]:
    """The generation context for ``templates`` (made once per folder), with its cache key."""
    key = str(Path(templates).resolve()) if templates is not None else ""
    if key not in _CONTEXTS:
        _CONTEXTS[key] = render.generation_context(templates)
    return key, _CONTEXTS[key]


def _key(built: Built, context: tuple[str, GenerationContext]) -> tuple[str, str]:
    """What a generated validator is cached by: the contract's bytes, where it sits and the
    shared files it reaches (the inputs of its module), and the templates."""
    where = built.relative.as_posix().encode() if built.files else b""
    inputs = built.raw + headers.shared_part(built.files) + where
    return hashlib.sha256(inputs).hexdigest(), context[0]


def _generate(
    built: Built, context: tuple[str, GenerationContext]
) -> tuple[Any, list[Any], list[Any]]:
    """The generated module and derived cases (the arguments', the result's) of one contract,
    cached by content."""
    key = _key(built, context)
    raw, display = built.raw, built.display
    if key not in _CACHE:
        # pipeline.generate() without rendering the test module (half of its time), and
        # without running every derived case: each is a whole instance, so running them all
        # is quadratic in the contract's width; the witness search checks each instance it
        # uses against the reference evaluator instead.
        half = pipeline.generate_module(
            raw, display, built.relative, context[1], run_cases=False, files=built.files
        )
        _CACHE[key] = (half.module, half.derived, half.result_derived)
        _WARNINGS[key] = [w for w in half.warnings if w not in half.contract.warnings]
    return _CACHE[key]


def _derivation_warnings(built: Built, context: tuple[str, GenerationContext]) -> list[Problem]:
    """The warnings deriving ``built``'s cases met, named after its own file."""
    found = _WARNINGS.get(_key(built, context), [])
    return [replace(w, file=built.display) for w in found]


@dataclass
class _Side:
    """One side's contracts by tool name, and what its broken files may have defined."""

    tools: dict[str, Built] = field(default_factory=dict)
    broken_names: set[str] = field(default_factory=set)  # tool names of files that do not check
    broken_files: set[str] = field(default_factory=set)  # file names of files that do not even load

    def unsure(self, built: Built) -> bool:
        """Whether a tool missing from this side may just be in one of its broken files."""
        return (
            built.checked.name in self.broken_names
            or PurePosixPath(built.display).name in self.broken_files
        )


def load_side(files: Mapping[str, bytes], report: Report) -> _Side:
    """Load and check every file; problems go to the report. Files under the folder's
    ``common/`` hold shared definitions (contract/shared.py): each is checked, and each tool
    that refers to one is read with it, so a change there is a change of every such tool."""
    side = _Side()
    tools = side.tools
    where: dict[str, str] = {}
    top = _folder_of(files)
    for display, raw in files.items():
        # Without a contracts folder of shared files each file stands alone, named by its
        # file name (a display may start with "../" or a revision).
        relative = PurePosixPath(display[len(top) :] if top else PurePosixPath(display).name)
        if shared.is_shared(relative):
            report.errors.extend(str(p) for p in checker.shared_problems(raw, display))
            continue
        try:
            reached = shared.gather(raw, display, relative, _reader(files, top))
            checked = checker.load_and_check(raw, display, relative, reached)
        except ContractError as exc:
            report.errors.extend(str(p) for p in exc.problems)
            name = _tool_name(exc)
            if name is not None:
                side.broken_names.add(name)
            else:
                side.broken_files.add(PurePosixPath(display).name)
            continue
        if checked.name in tools:
            line, col = checked.document.value_at(("name",))
            report.errors.append(
                str(
                    Problem(
                        display,
                        line,
                        col,
                        f"tool '{checked.name}' is also defined in {where[checked.name]}",
                    )
                )
            )
            continue
        tools[checked.name] = Built(bytes(raw), display, checked, relative=relative, files=reached)
        where[checked.name] = display
    # A broken shared file is said once, however many tools reach it.
    report.errors[:] = list(dict.fromkeys(report.errors))
    return side


def _folder_of(files: Mapping[str, bytes]) -> str:
    """The contracts folder of a side, as the prefix of its display paths (``contracts/``,
    ``REV:contracts/``): the outermost folder holding a ``common/`` that holds every file;
    "" (each file stands alone) when there is none."""
    found = [""]
    for display in files:
        for match in re.finditer(rf"(?:^|[/:])(?={shared.SHARED_FOLDER}/)", display):
            found.append(display[: match.end()])
    usable = [p for p in found if p and all(d.startswith(p) for d in files)]
    return min(usable, key=len) if usable else ""


def _reader(files: Mapping[str, bytes], top: str) -> shared.Reader:
    """Reads a shared file of this side by its path in the side's contracts folder."""

    def read(relative: PurePosixPath) -> bytes:
        raw = files.get(top + relative.as_posix())
        if raw is None:
            raise shared.Unreadable(f"no such file {relative} in the contracts folder")
        return raw

    return read


def _tool_name(error: ContractError) -> str | None:
    """The tool name a contract that does not check still gives (None: its YAML could not be
    read, or it names none)."""
    if not isinstance(error, checker.DocumentProblems):
        return None
    data = error.document.data
    name = data.get("name") if isinstance(data, dict) else None
    return name if isinstance(name, str) else None


def ready(built: Built, context: Any, report: Report) -> bool:
    """Generate the validator; a failure is reported as an error, never a traceback."""
    if built.module is not None:
        return True
    try:
        built.module, built.derived, built.result_derived = _generate(built, context)
        built.derivation_warnings = _derivation_warnings(built, context)
    except ContractError as exc:
        report.errors.extend(str(p) for p in exc.problems)
        return False
    except Exception as exc:  # noqa: BLE001 - a toolshape bug or a template error: say where, go on
        report.errors.append(
            f"{built.display}:1:1: error: cannot generate the validator: {type(exc).__name__}: {exc}"
        )
        return False
    return True
