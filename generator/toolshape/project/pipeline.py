"""One contract file through the whole pipeline, in memory.

YAML -> checked contract -> model -> templates -> formatted source, then the
contract's examples are run against the freshly generated module. Nothing is
written here: ``planning``, ``writing`` and ``checking`` decide what reaches the disk,
and when.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import json
import sys
import types
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

from .. import __version__
from ..codegen import cases, model, render
from ..codegen.context import GenerationContext
from ..codegen.literals import Code, comment, literal
from ..contract import checker, redaction, source
from ..contract.errors import ContractError, Problem
from ..platforms import export
from ..regex import matcher
from ..schema.pointers import child


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
    #: each other platform refuses it: the package's tool lists are made of these.
    definitions: dict[str, dict[str, Any]] = field(default_factory=dict)
    refusals: dict[str, list[Problem]] = field(default_factory=dict)
    #: Why layout.py could not lay out its module, which black's format_str formatted instead
    #: (the context's layout notes): toolshape's gap, never the contract's; the command line says so.
    layout_gaps: list[str] = field(default_factory=list)

    @property
    def contract(self) -> checker.Contract:
        """The checked contract (loaded again from its bytes when the output was reused)."""
        if self.checked is None:
            self.checked = checker.check(source.load(self.raw, self.display))
        return self.checked

    @property
    def import_name(self) -> str:
        return ".".join(self.module_path.with_suffix("").parts)


def digest(raw: bytes, context: GenerationContext) -> str:
    """What the header records: the contract's bytes, the generator (its version, the source
    of its modules that make output, and black's version), the context's templates and the
    command the header names. Output made by other generator code, or for another place, is
    never reused."""
    return _digest(raw, context.template_fingerprint, context.command)


def _digest(raw: bytes, templates: str, command: str) -> str:
    generator = f"{__version__} {_generator_fingerprint()}"
    where = b"" if command == model.REGENERATE else b"\0" + command.encode()
    return hashlib.sha256(
        raw + b"\0toolshape " + generator.encode() + b"\0" + templates.encode() + where
    ).hexdigest()


@functools.cache
def _generator_fingerprint() -> str:
    """The sha256 of what shapes the output besides contract and templates: the source of
    project/'s planning, writing and checking and every toolshape module they import,
    directly or not (cli.py, review/ and the like stay out), and black's version. In a
    checkout the version stays the same while model.py changes: `check` must then call
    every output stale."""
    from importlib.metadata import version

    package = Path(__file__).resolve().parent.parent
    total = hashlib.sha256(f"black {version('black')}\0".encode())
    for path in _output_modules(package):
        source = path.read_bytes().replace(b"\r\n", b"\n")  # the same on every checkout
        total.update(path.relative_to(package).as_posix().encode() + b"\0" + source + b"\0")
    return total.hexdigest()


def _output_modules(package: Path) -> list[Path]:
    """project/'s planning, writing and checking modules and the package's modules they
    import, at any depth (read, not imported).

    Relative imports are followed into subpackages (``from .regex import x``,
    ``from ..witness import y``): a module is ``name.py`` or ``name/__init__.py``."""
    found: dict[PurePosixPath, Path] = {}
    todo = [
        PurePosixPath("project/planning"),
        PurePosixPath("project/writing"),
        PurePosixPath("project/checking"),
        PurePosixPath("__init__"),
    ]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        path = _module_file(package, name)
        if path is None:
            raise RuntimeError(
                f"toolshape's own source is missing ({package / name}.py): it cannot tell its output apart"
            )
        found[name] = path
        here = name.parent if path.name != "__init__.py" else name
        for node in ast.walk(ast.parse(path.read_bytes())):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            base = here
            for _ in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*node.module.split(".")) if node.module else base
            if _module_file(package, target) is not None:
                todo.append(target)
            for alias in node.names:  # from . import x, or from .pkg import submodule
                if _module_file(package, target / alias.name) is not None:
                    todo.append(target / alias.name)
    return sorted(found.values())


def _module_file(package: Path, name: PurePosixPath) -> Path | None:
    for candidate in (
        package.joinpath(*name.parts).with_suffix(".py"),
        package.joinpath(*name.parts, "__init__.py"),
    ):
        if name.parts and candidate.is_file():
            return candidate
    return None


SEAL = "# output-sha256: (sealed after formatting)"


def seal(text: str) -> str:
    """Record in the header the hash of the file without that line: hand edits then show."""
    body = text.replace(SEAL + "\n", "", 1)
    return text.replace(SEAL, "# output-sha256: " + hashlib.sha256(body.encode()).hexdigest(), 1)


def _head(data: bytes, count: int = 6) -> list[bytes]:
    """The first ``count`` lines (without splitting a 300 kB file into all of its lines)."""
    return data[:4096].splitlines(keepends=True)[:count]


def is_sealed_intact(text: str | bytes) -> bool:
    """Whether a generated file is exactly as toolshape wrote it."""
    data = text.encode() if isinstance(text, str) else text
    offset = 0
    for line in _head(data):
        if line.startswith(b"# output-sha256: "):
            recorded = line.rstrip(b"\n").removeprefix(b"# output-sha256: ")
            body = hashlib.sha256(memoryview(data)[:offset])  # the file without this line
            body.update(memoryview(data)[offset + len(line.rstrip(b"\n")) + 1 :])
            return body.hexdigest().encode() == recorded
        offset += len(line)
    return False


#: The header lines that record what a file was generated from: a contract module's
#: contract (and generator), or the shared runtime's generator alone.
_DIGEST_LINES = (b"# contract-sha256: ", b"# generator-sha256: ")


def header_digest(data: bytes) -> str | None:
    """The contract-sha256 (generator-sha256 for ``_runtime.py``) in a generated file's header (None: none)."""
    for line in _head(data):
        for prefix in _DIGEST_LINES:
            if line.startswith(prefix):
                return line.rstrip(b"\r\n").removeprefix(prefix).decode("ascii", "replace")
    return None


#: The shared runtime every tool module imports, at the root of the output folder.
RUNTIME_PATH = PurePosixPath("_runtime.py")


def generator_digest(context: GenerationContext) -> str:
    """What ``_runtime.py``'s header records: the generator and its templates, no contract (and
    no command: the runtime is the same wherever the output goes)."""
    return _digest(b"\0the shared runtime\0", context.template_fingerprint, model.REGENERATE)


def runtime_source(context: GenerationContext) -> str:
    """The sealed text of ``_runtime.py`` for the context's templates (rendered once per context).

    The built-in template is written as black formats it (a test holds it to that), so it
    is not formatted again; a custom one goes through black like every custom template."""
    if context.runtime is None:
        text = render.render(
            context,
            "_runtime.py.j2",
            str(RUNTIME_PATH),
            formatted=context.builtin,
            version=Code(__version__),
            digest=Code(generator_digest(context)),
        )
        context.runtime = seal(text)
    return context.runtime


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
) -> Generated | None:
    """The existing output (its bytes), when it was generated from these very contract bytes
    by this generator and nobody edited it since; None means generate afresh.

    Nothing is loaded, checked or rendered: the same bytes through the same generator
    and templates passed every check when the output was written, and would again.
    """
    wanted = digest(raw, context)
    if not all(
        header_digest(d) == wanted and is_sealed_intact(d) for d in (module_data, test_data)
    ):
        return None
    try:
        module_text, test_text = module_data.decode("utf-8"), test_data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    name = _tool_name(module_text)
    if name is None:  # a custom module template without a plain TOOL_NAME line
        name = checker.check(source.load(raw, display)).name
    module_path, test_path = paths_for(relative)
    warnings = recorded_warnings(test_data, display)
    recorded = recorded_definitions(test_data, display)
    if recorded is None:  # written by a toolshape that did not record them: generate afresh
        return None
    definitions, refusals = recorded
    return Generated(
        name,
        module_path,
        module_text,
        test_path,
        test_text,
        raw,
        display,
        warnings=warnings,
        definitions=definitions,
        refusals=refusals,
    )


#: How a warning is recorded in the generated tests' header: ``# warning: LINE:COL: "message"``
#: (the message JSON-escaped, ASCII only, so it stays one comment line whatever it holds).
WARNING_PREFIX = "# warning: "


def record_warnings(text: str, warnings: list[Problem]) -> str:
    """``text`` with one comment line per warning just below its seal line.

    Reused output (``reuse``) loads no contract, so the warnings its generation met are
    read back from here: `generate` twice prints the same warnings. The lines are
    sealed with the rest of the file (an edit to them shows as a hand edit). A file
    without a seal line is never reused, so it needs no record."""
    if not warnings or SEAL not in text:
        return text
    lines = "".join(
        f"{WARNING_PREFIX}{w.line}:{w.col}: {json.dumps(w.message, ensure_ascii=True)}\n"
        for w in sorted(warnings)
    )
    return text.replace(SEAL + "\n", SEAL + "\n" + lines, 1)


def recorded_warnings(data: bytes, display: str) -> list[Problem]:
    """The warnings ``record_warnings`` wrote below the seal line of a generated file (for ``display``)."""
    found: list[Problem] = []
    start = data.find(b"\n# output-sha256: ", 0, 4096)
    if start < 0:
        return found
    position = data.find(b"\n", start + 1) + 1
    prefix = WARNING_PREFIX.encode()
    while position > 0 and data.startswith(prefix, position):
        end = data.find(b"\n", position)
        line = data[position + len(prefix) : end if end >= 0 else len(data)].decode(
            "ascii", "replace"
        )
        place, _, message = line.partition(": ")
        row, _, col = place.partition(":")
        try:
            text = json.loads(message)
            found.append(
                Problem(
                    display,
                    int(row),
                    int(col),
                    text if isinstance(text, str) else str(text),
                    "warning",
                )
            )
        except ValueError:  # not a line this module wrote: the seal would not hold either
            break
        position = end + 1 if end >= 0 else 0
    return found


#: How the tool's definition for each platform is recorded in the generated tests' header, below
#: the warnings: ``# definition PLATFORM: {...}`` (compact JSON, ASCII only, so one comment line)
#: and, for a platform that refuses the tool, ``# refused PLATFORM: LINE:COL: "message"`` (one
#: line per reason). Reused output loads no contract: the package's tool lists are made of these.
DEFINITION_PREFIX = "# definition "
REFUSED_PREFIX = "# refused "


def platform_definitions(
    checked: checker.Contract,
) -> tuple[dict[str, dict[str, Any]], dict[str, list[Problem]]]:
    """The tool's definition for each platform of ``export.PLATFORMS`` that takes it, and the
    reasons of each platform that refuses it (located in the contract, as ``schema`` says them)."""
    definitions: dict[str, dict[str, Any]] = {}
    refusals: dict[str, list[Problem]] = {}
    for platform in export.PLATFORMS:
        try:
            definitions[platform] = export.export(checked, platform).definition
        except export.ExportError as exc:
            refusals[platform] = [finding.problem(checked) for finding in exc.findings]
    return definitions, refusals


def record_definitions(
    text: str, definitions: dict[str, dict[str, Any]], refusals: dict[str, list[Problem]]
) -> str:
    """``text`` with the lines that record ``definitions`` and ``refusals`` just below its seal
    line (sealed with the rest of the file); a file without a seal line is never reused."""
    if SEAL not in text:
        return text
    lines = []
    for platform in export.PLATFORMS:
        if platform in definitions:
            data = json.dumps(definitions[platform], ensure_ascii=True, separators=(",", ":"))
            lines.append(f"{DEFINITION_PREFIX}{platform}: {data}\n")
        for problem in refusals.get(platform, ()):
            message = json.dumps(problem.message, ensure_ascii=True)
            lines.append(f"{REFUSED_PREFIX}{platform}: {problem.line}:{problem.col}: {message}\n")
    return text.replace(SEAL + "\n", SEAL + "\n" + "".join(lines), 1)


def recorded_definitions(
    data: bytes, display: str
) -> tuple[dict[str, dict[str, Any]], dict[str, list[Problem]]] | None:
    """What ``record_definitions`` wrote below the seal line (and the warnings) of a generated
    file, for the contract ``display``; None unless every platform is recorded one way or the other."""
    definitions: dict[str, dict[str, Any]] = {}
    refusals: dict[str, list[Problem]] = {}
    start = data.find(b"\n# output-sha256: ", 0, 4096)
    if start < 0:
        return None
    position = data.find(b"\n", start + 1) + 1
    while 0 < position < len(data):
        end = data.find(b"\n", position)
        end = len(data) if end < 0 else end
        line = data[position:end].decode("ascii", "replace")
        position = end + 1
        if line.startswith(WARNING_PREFIX):
            continue
        try:
            if line.startswith(DEFINITION_PREFIX):
                platform, _, text = line.removeprefix(DEFINITION_PREFIX).partition(": ")
                definition = json.loads(text)
                if not isinstance(definition, dict):
                    return None
                definitions[platform] = definition
            elif line.startswith(REFUSED_PREFIX):
                platform, _, rest = line.removeprefix(REFUSED_PREFIX).partition(": ")
                place, _, text = rest.partition(": ")
                row, _, col = place.partition(":")
                message = json.loads(text)
                refusals.setdefault(platform, []).append(
                    Problem(display, int(row), int(col), str(message))
                )
            else:
                break
        except ValueError:  # not a line toolshape wrote: the seal would not hold either
            return None
    if set(definitions) | set(refusals) != set(export.PLATFORMS):
        return None
    return definitions, refusals


def _tool_name(module_text: str) -> str | None:
    """The string of the module's ``TOOL_NAME = "..."`` line, if it has one."""
    start = module_text.find("\nTOOL_NAME = ")
    if start < 0:
        return None
    line = module_text[start + 1 : module_text.find("\n", start + 1)]
    try:
        value = ast.literal_eval(line.removeprefix("TOOL_NAME = "))
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None


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


def generate_module(
    raw: bytes, display: str, relative: PurePosixPath, context: GenerationContext
) -> ModuleOnly:
    """Load, check, render and run one contract's module, with its examples and derived cases
    checked; its header names the context's command as what regenerates it."""
    checked = checker.check(source.load(raw, display))
    module_path, _ = paths_for(relative)
    built = model.build(
        checked,
        module_path.stem,
        digest(raw, context),
        depth=len(module_path.parent.parts),
        command=context.command,
    )
    # load_module compiles it (once, not twice).
    module_source = seal(
        render.render(context, "module.py.j2", str(module_path), compiles=False, model=built)
    )
    layout_gaps = context.take_layout_notes(str(module_path))
    module = load_module(module_source, str(module_path), runtime_source(context))
    try:
        check_examples(checked, module)
    except ContractError as exc:  # the contract's warnings are reported with its errors
        raise ContractError([*exc.problems, *checked.warnings]) from None
    try:
        derivation = cases.derive(checked)
    except matcher.OutOfSteps as exc:
        raise ContractError([_too_costly(checked, exc), *checked.warnings]) from None
    check_derived(checked, module, derivation.cases)
    # By place in the file, as reused output reads them back (record_warnings sorts too).
    warnings = sorted([*checked.warnings, *derivation.warnings])
    return ModuleOnly(
        checked, built, module_source, module, derivation.cases, warnings, layout_gaps
    )


def _too_costly(checked: checker.Contract, exc: matcher.OutOfSteps) -> Problem:
    """The error for a pattern the reference evaluator could not match within its steps, at the
    first place the contract uses it (a ``pattern`` value or a ``patternProperties`` key)."""
    where: tuple[str | int, ...] = ()
    todo: list[tuple[tuple[str | int, ...], Any]] = [((), checked.parameters)]
    while todo and not where:
        path, node = todo.pop()
        if isinstance(node, list):
            todo.extend(((*path, i), item) for i, item in reversed(list(enumerate(node))))
        elif isinstance(node, dict):
            for key, item in node.items():
                if (key == "pattern" and item == exc.pattern) or (
                    path[-1:] == ("patternProperties",) and key == exc.pattern
                ):
                    where = (*path, key)
                    break
            todo.extend(((*path, key), item) for key, item in reversed(list(node.items())))
    return checked.document.problem(
        ("parameters", *where),
        f"matching this pattern against a derived value of {exc.length} characters takes more "
        f"than {matcher.DEFAULT_MATCH_STEPS:,} steps of toolshape's matcher (lookarounds, "
        "backreferences and long counted repeats multiply its work); simplify the pattern or "
        "lower the maxLength",
        at_key=bool(where) and where[-2:-1] == ("patternProperties",),
    )


def generate(
    raw: bytes, display: str, relative: PurePosixPath, context: GenerationContext
) -> Generated:
    """Generate module and tests for one contract file; raise ContractError on any problem."""
    half = generate_module(raw, display, relative, context)
    checked, built, module_source, derived = half.contract, half.built, half.source, half.derived
    module_path, test_path = paths_for(relative)
    tests_model = _tests_model(checked, built, module_path, derived)
    # The tests template is written black-formatted and its data sits between
    # "fmt: off" and "fmt: on": black would only spend seconds confirming it
    # (a test in tests/ does confirm it for the example contracts).
    label = str(test_path)
    test_source = render.render(context, "tests.py.j2", label, formatted=True, model=tests_model)
    definitions, refusals = platform_definitions(checked)
    test_source = record_definitions(test_source, definitions, refusals)
    test_source = seal(record_warnings(test_source, half.warnings))
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
        definitions,
        refusals,
        half.layout_gaps,
    )


def load_module(module_source: str, label: str, runtime: str | None = None) -> types.ModuleType:
    """Execute generated source (ours, not the contract's) as a fresh module, in memory.

    Its ``from ._runtime import ...`` (``.._runtime`` from billing/x.py) finds ``runtime``
    (the built-in templates' runtime if None) in a package made up for it (see _memory_package),
    whatever folders the label names."""
    package = _memory_package(runtime if runtime is not None else _builtin_runtime())
    parts = PurePosixPath(label).with_suffix("").parts
    shared = sys.modules[package + "._runtime"]
    for depth in range(1, len(parts)):
        # The runtime at every level of the label's folders: a module built for the top
        # (``from ._runtime``) loads under any label, one built for billing/ (``.._runtime``) too.
        sys.modules.setdefault(".".join((package, *parts[:depth], "_runtime")), shared)
    module = types.ModuleType(".".join((package, *parts)))
    module.__package__ = ".".join((package, *parts[:-1]))
    exec(compile(module_source, f"<generated {label}>", "exec"), module.__dict__)
    return module


def runtime_module(runtime: str | None = None) -> types.ModuleType:
    """The in-memory ``_runtime`` module that ``load_module`` gives modules with this runtime
    text (the built-in templates' if None): for code that loads a module its own way."""
    return sys.modules[
        _memory_package(runtime if runtime is not None else _builtin_runtime()) + "._runtime"
    ]


@functools.lru_cache(maxsize=1)
def _builtin_runtime() -> str:
    return runtime_source(render.generation_context())


def _memory_package(runtime: str) -> str:
    """The name of a package, in ``sys.modules`` only, whose ``_runtime`` module runs ``runtime``.

    One per runtime text (named by its hash), made on first use: every module loaded in
    memory with that runtime shares it, as the modules of a generated folder share theirs.
    A relative import resolves by name through ``sys.modules``, so the package needs no
    folder and no subpackages."""
    name = "_toolshape_in_memory_" + hashlib.sha256(runtime.encode()).hexdigest()[:16]
    if name not in sys.modules:
        package = types.ModuleType(name)
        package.__path__ = []
        shared = types.ModuleType(name + "._runtime")
        shared.__package__ = name
        exec(compile(runtime, f"<generated {RUNTIME_PATH}>", "exec"), shared.__dict__)
        sys.modules[shared.__name__] = shared
        sys.modules[name] = package
    return name


def _outcome(module: types.ModuleType, example: checker.Example) -> Any:
    return module.parse(example.json) if not example.has_args else module.validate(example.args)


def check_examples(checked: checker.Contract, module: types.ModuleType) -> None:
    """Every example must behave as declared: a contract error otherwise."""
    problems: list[Problem] = []
    for example in checked.examples:
        result = _outcome(module, example)
        got = {(e.path, e.code) for e in result.errors}
        wrong_status = result.status != example.status
        wrong_errors = example.errors is not None and got != set(example.errors)
        if wrong_status or wrong_errors:
            shown = ", ".join(f"{c} at {p!r}" for p, c in sorted(got)) or "no errors"
            problems.append(
                checked.document.problem(
                    ("examples", example.index),
                    f"example {example.index + 1} is declared {example.status}"
                    + (
                        f" with errors {_pairs(example.errors)}"
                        if example.errors is not None
                        else ""
                    )
                    + f", but the contract gives {result.status} ({shown})",
                )
            )
    if problems:
        raise ContractError(problems)


def check_derived(
    checked: checker.Contract, module: types.ModuleType, derived: list[cases.Case]
) -> None:
    """The generated module must agree with the reference evaluator before anything is written."""
    for case in derived:
        got = {(e.path, e.code) for e in module.validate(case.data).errors}
        if got != set(case.errors):
            raise AssertionError(
                f"toolshape bug: for {checked.file} case {case.name!r} the generated module reports "
                f"{sorted(got)} but the reference evaluator {sorted(case.errors)}"
            )


def _pairs(errors: frozenset[tuple[str, str]] | None) -> str:
    return "[" + ", ".join(f"{c} at {p!r}" for p, c in sorted(errors or ())) + "]"


@dataclass
class TestsModel:
    """What the tests template prints (every contract value already a literal)."""

    version: Code
    source: Code
    digest: Code
    command: Code
    tool_comment: Code
    tool_name: Code
    schema: Code
    import_line: Code
    # Data, one literal per entry: printed one per line between "fmt: off" and
    # "fmt: on", so black leaves the (long) lines alone and formatting stays fast.
    examples: list[Code]
    base: Code
    cases: list[CaseRow]
    not_objects: list[Code]
    parse_cases: list[Code]
    valid_text: Code
    sensitive_values: list[Code]
    redaction_places: list[Code]
    #: (case, pointers, errors without a platform): nulls that stand for absent keys.
    absent_nulls: list[Code]
    #: (case, pointers): integers of the base sent as integral floats.
    integral: list[Code]


@dataclass
class CaseChange:
    """One change a derived case makes to the base arguments."""

    pointer: Code  # a JSON Pointer literal
    value: Code  # a literal, or MISSING (the key is left out)


@dataclass
class CaseRow:
    name: Code
    changes: list[CaseChange]
    errors: Code


def _case_row(base: Any, case: cases.Case) -> CaseRow:
    found, exact = cases.case_changes(base, case)
    # The rebuilt case must be the case itself, key order included (it orders the errors).
    if not exact and not cases.identical(cases.apply(base, found), case.data, ordered=True):
        raise AssertionError(
            f"toolshape bug: case {case.name!r} cannot be written as changes to the base"
        )
    return CaseRow(
        literal(case.name),
        [
            CaseChange(literal(pointer), Code("MISSING") if new is cases.MISSING else literal(new))
            for pointer, new in found
        ],
        literal(frozenset(case.errors)),
    )


def _tests_model(
    checked: checker.Contract,
    built: model.ModuleModel,
    module_path: PurePosixPath,
    derived: list[cases.Case],
) -> TestsModel:
    # Relative to the tests' own package, so the generated folder can be vendored
    # under any name: tests/billing/test_refund.py -> from ...billing import refund
    parents = module_path.parent.parts
    import_line = (
        f"from {'.' * (len(parents) + 2)}{'.'.join(parents)} import {module_path.stem} as module"
    )
    examples = [
        (
            f"example {e.index + 1}: {e.description}"
            if e.description
            else f"example {e.index + 1}",
            "args" if e.has_args else "json",
            e.args if e.has_args else e.json,
            e.status,
            e.errors,
        )
        for e in checked.examples
    ]
    # The first accepted case: an arguments object.
    base: dict[str, Any] = next((c.data for c in derived if not c.errors), {})
    valid_text = json.dumps(base, ensure_ascii=False)
    not_objects = [None, [], [base], "text", json.dumps(base), 42, 1.5, True, False]
    said = _said_anyway()
    secrets = sorted(s for s in _sensitive_strings(checked, derived) if s not in said)
    normalising = cases.normalise_cases(checked, base)
    return TestsModel(
        version=built.version,
        source=built.source,
        digest=built.digest,
        command=built.command,
        tool_comment=comment(checked.name),
        tool_name=built.tool_name,
        schema=built.schema,
        import_line=Code(import_line),
        examples=[literal(e) for e in examples],
        base=literal(base),
        cases=[_case_row(base, c) for c in derived],
        not_objects=[literal(v) for v in not_objects],
        parse_cases=[literal((p.name, p.text, p.code)) for p in cases.parse_cases(valid_text)],
        valid_text=literal(valid_text),
        sensitive_values=[literal(v) for v in secrets],
        redaction_places=_redaction_places(checked, derived),
        absent_nulls=[literal(entry) for entry in normalising.absent_nulls],
        integral=[literal(entry) for entry in normalising.integral],
    )


def _sensitive_strings(checked: checker.Contract, derived: list[cases.Case]) -> set[str]:
    """Strings (4+ characters) that no output may show: the values at the places the
    contract's x-sensitive schemas govern (in some case or example), and the allowed
    values (enum, const) of those schemas; less any that the contract or the cases also
    show in the open (a key, a pattern, a value elsewhere), where finding one proves nothing."""
    parameters = checked.parameters
    if not _marks_sensitive(parameters):
        return set()  # nothing is redacted: walking every case would only cost time (issue 16)
    instances = [case.data for case in derived] + [e.args for e in checked.examples if e.has_args]
    found = redaction.allowed_secrets(parameters)
    public: set[str] = {checked.name}
    for instance in instances:
        if isinstance(instance, dict):
            found |= redaction.secret_strings(parameters, instance)
            public |= _public_strings(instance, redaction.places(parameters, instance))
    keys, strings = _contract_strings(parameters)
    public |= keys | (strings - redaction.allowed_secrets(parameters))
    return {s for s in found if len(s) >= 4 and not any(s in text for text in public)}


def _marks_sensitive(schema: Any) -> bool:
    """Whether ``x-sensitive: true`` appears anywhere in the schema (without it no value is redacted)."""
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if node.get("x-sensitive") is True:
                return True
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return False


@functools.lru_cache(maxsize=1)
def _said_anyway() -> str:
    """The words a module prints on its own: the runtime's texts and the phrases its messages are
    made of (written in model.py). A secret found in them proves nothing, so the tests do not
    look for it. Taken from the generator's sources, never from a module's output; read once
    per process (they do not change while it runs), not once per contract."""
    sources = [
        render.BUILTIN_TEMPLATES / "_runtime.py.j2",
        render.BUILTIN_TEMPLATES / "formats.py.j2",
    ]
    return "\n".join(path.read_text(encoding="utf-8") for path in sources) + inspect.getsource(
        model
    )


def _public_strings(instance: Any, hidden: redaction.Places) -> set[str]:
    """Keys and strings of an instance outside its redacted places."""
    skip = set(hidden.redacted) | set(hidden.described)
    found: set[str] = set()

    def visit(value: Any, pointer: str) -> None:
        if pointer in skip:
            return
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                visit(item, f"{pointer}/{index}")
        elif isinstance(value, dict):
            for key, item in value.items():
                found.add(key)
                visit(item, child(pointer, key))

    visit(instance, "")
    return found


def _contract_strings(schema: Any) -> tuple[set[str], set[str]]:
    """The keys and the strings of a schema (messages name keys, patterns, allowed values)."""
    keys: set[str] = set()
    strings: set[str] = set()
    todo = [schema]
    while todo:
        value = todo.pop()
        if isinstance(value, str):
            strings.add(value)
        elif isinstance(value, list):
            todo += value
        elif isinstance(value, dict):
            keys |= set(value)
            todo += list(value.values())
    return keys, strings


def _redaction_places(checked: checker.Contract, derived: list[cases.Case]) -> list[Code]:
    """(case, redacted pointers, described pointers) for each derived case with either, from the contract."""
    rows: list[Code] = []
    if not _marks_sensitive(checked.parameters):
        return rows  # no schema is sensitive: no case has a redacted or described place
    for case in derived:
        if isinstance(case.data, dict):
            found = redaction.places(checked.parameters, case.data)
            if found.redacted or found.described:
                rows.append(literal((case.name, found.redacted, found.described)))
    return rows
