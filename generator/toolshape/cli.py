"""The command line: ``toolshape generate | check | lint | new | schema | import | diff``.

Each command has one section below: a function that adds its arguments, its handler beside
it, and a :class:`Command` that names it; ``COMMANDS`` at the end lists them in the order
``toolshape --help`` shows them.

Exit codes: 0 all good (warnings allowed), 1 findings (contract errors, stale
output, warnings with --strict), 2 usage. Contract errors go to stderr as
``path:line:col: error: message`` and warnings as ``path:line:col: warning: message``;
no traceback is ever shown for a bad contract or a bad command.
"""

from __future__ import annotations

import argparse
import keyword
import os
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import jinja2

from . import __version__
from .codegen import render
from .codegen.context import GenerationContext
from .codegen.model import REGENERATE
from .codegen.names import PACKAGE_NAMES
from .codegen.render import RenderError
from .contract import checker
from .contract.errors import ContractError, Problem, UsageError
from .families.formats.importing import FORMAT_READINGS
from .platforms import export, mcp_stdio
from .project import checking, configuration, discovery, output, planning, writing
from .project.progress import Progress
from .review import report
from .schema.vocabulary import DRAFTS

if TYPE_CHECKING:
    from .platforms import importer

# The importer and the review (about 0.1 s of imports) are imported by the commands that use
# them, ``import`` and ``diff``: every other run, a pre-commit hook's above all, starts without.

EXAMPLES = f"""\
examples:
  {REGENERATE}                      # contracts/ -> generated/
  {REGENERATE} api/tools --out src/validators
  toolshape check                         # in CI: fails unless generated/ is exactly what the contracts make
  toolshape check --headers-only          # fast, NOT tamper-proof: trusts the generated files' headers
  toolshape lint contracts/get_weather.yaml
  toolshape new lookup_order              # a commented starter contract: contracts/lookup_order.yaml
"""

#: The formats of ``lint`` reports.
FORMATS = ("text", "json", "github")

#: At most this many problems are printed per contract file (an alias bomb has
#: hundreds of thousands); the rest are counted on one line.
MAX_PROBLEMS_PER_FILE = 50

#: ``check`` prints the diffs of at most this many files, each cut after this many lines of
#: at most this many characters: enough to see what changed, never a flood (every file
#: still gets its line saying why it fails, and the closing summary counts them all).
MAX_DIFFS = 10
MAX_DIFF_LINES = 60
MAX_DIFF_WIDTH = 200


@dataclass(frozen=True)
class Setting:
    """An option a command takes from ``[tool.toolshape]`` when the command line leaves it
    out (its parser's default is None), and from ``default`` when the table does too."""

    dest: str  # the option's attribute in the parsed arguments
    key: str  # its key in the table (configuration.KEYS)
    default: object


#: The settings of the commands that plan a folder of contracts.
FOLDER_SETTINGS = (
    Setting("contracts", "contracts", "contracts"),
    Setting("templates", "templates", None),
    Setting("strict", "strict", False),
)
OUTPUT_SETTINGS = (*FOLDER_SETTINGS, Setting("out", "out", "generated"))


@dataclass(frozen=True)
class Command:
    """One subcommand: its name and texts for ``--help``, the function that adds its
    arguments to its parser, and the function that runs it (returning the exit status)."""

    name: str
    help: str
    epilog: str
    arguments: Callable[[argparse.ArgumentParser], object]
    run: Callable[[argparse.Namespace], int]
    #: The description atop ``toolshape NAME --help`` (the ``help`` line when empty).
    description: str = ""
    #: The options ``[tool.toolshape]`` in pyproject.toml can give it.
    settings: tuple[Setting, ...] = ()


def main(argv: list[str] | None = None) -> int:
    """Run one command; return the exit status (never raises for a bad contract or command)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error argparse printed
        return exc.code if isinstance(exc.code, int) else 2
    try:
        command = _COMMANDS_BY_NAME[args.command]
        _settle(args, command)
        if args.templates is not None and not args.templates.is_dir():
            raise UsageError(f"--templates {args.templates}: no such folder")
        return command.run(args)
    except UsageError as exc:
        print(f"toolshape: error: {exc}", file=sys.stderr)
        return 2
    except ContractError as exc:
        _report(exc.problems)
        return 1
    except discovery.ProjectError as exc:
        print(f"toolshape: error: {exc}", file=sys.stderr)
        return 1
    except RenderError as exc:
        print(f"toolshape: template error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"toolshape: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("toolshape: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001  a bug in toolshape: say so, without a traceback
        _internal_error(exc)
        return 1


def _settle(args: argparse.Namespace, command: Command) -> None:
    """Fill in what the command line left out: from the project's ``[tool.toolshape]``
    (found by walking up from the working folder), else the built-in default. The table's
    ``settings`` stay on ``args`` (the commands name the shortest command that fixes things)."""
    settings = configuration.load() if command.settings else configuration.Settings()
    args.settings = settings
    for setting in command.settings:
        if getattr(args, setting.dest) is None:
            value = settings.value(setting.key)
            setattr(args, setting.dest, setting.default if value is None else value)


def _internal_error(exc: Exception) -> None:
    """Say that toolshape has a bug, and where, in one line (no traceback)."""
    where = ""
    frames = traceback.extract_tb(exc.__traceback__)
    if frames:
        where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})"
    print(
        f"toolshape: internal error: {type(exc).__name__}: {exc}{where}; "
        "this is a bug in toolshape, please report it with the contract that caused it",
        file=sys.stderr,
    )


def _parser() -> argparse.ArgumentParser:
    """The command line: ``--version`` and one sub-parser per entry of ``COMMANDS``."""
    parser = argparse.ArgumentParser(
        prog="toolshape",
        description="Turn tool contracts (YAML) into standalone Python validators and their tests.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"toolshape {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:
        sub = commands.add_parser(
            command.name,
            help=command.help,
            description=command.description or command.help,
            epilog=command.epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        command.arguments(sub)
    return parser


# -- what every command prints --------------------------------------------------------


def _count(number: int, noun: str) -> str:
    """``1 module``, ``2 modules``: never "1 modules"."""
    return f"{number} {noun}{'s' * (number != 1)}"


#: ANSI colours for the words "error" and "warning" in problem lines (only on a terminal, never with NO_COLOR).
RED, MAGENTA, RESET = "\033[31m", "\033[35m", "\033[0m"


def _use_colour(stream: object) -> bool:
    """Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or TERM=dumb."""
    if os.environ.get("NO_COLOR") or os.environ.get("TERM") == "dumb":
        return False
    isatty = getattr(stream, "isatty", None)
    try:
        return bool(isatty and isatty())
    except (OSError, ValueError):  # a closed or odd stream
        return False


def _problem_line(problem: object, colour: bool) -> str:
    """``path:line:col: error: message``, with "error" in red (or "warning" in magenta) when ``colour``."""
    text = str(problem)
    if colour and isinstance(problem, Problem):
        shade = RED if problem.severity == "error" else MAGENTA
        return f"{problem.file}:{problem.line}:{problem.col}: {shade}{problem.severity}{RESET}: {problem.message}"
    if colour and ": error: " in text:
        return text.replace(": error: ", f": {RED}error{RESET}: ", 1)
    return text


def _report(problems: list[Problem]) -> None:
    """Print problems as path:line:col: error: message, at most MAX_PROBLEMS_PER_FILE per file."""
    shown: dict[str, int] = {}
    hidden: dict[str, int] = {}
    colour = _use_colour(sys.stderr)
    for problem in problems:
        if shown.get(problem.file, 0) < MAX_PROBLEMS_PER_FILE:
            shown[problem.file] = shown.get(problem.file, 0) + 1
            print(_problem_line(problem, colour), file=sys.stderr)
        else:
            hidden[problem.file] = hidden.get(problem.file, 0) + 1
    for file, count in hidden.items():
        print(
            f"{file}: ... {count} more problems not shown (fix the ones above first)",
            file=sys.stderr,
        )


def _as_errors(warnings: list[Problem]) -> list[Problem]:
    """Warnings made errors by ``--strict``, each saying so."""
    return [
        replace(w, severity="error", message=f"{w.message} [a warning; --strict]") for w in warnings
    ]


# -- generate, check, lint: a folder of contracts planned ------------------------------


def _contracts_arguments(
    parser: argparse.ArgumentParser, *, out: bool = True, strict_effect: str = ""
) -> None:
    """The arguments ``generate``, ``check`` and ``lint`` share: the contracts, ``-o/--out``
    (not for ``lint``), ``--templates``, ``-q`` and ``--strict`` (``strict_effect`` adds
    what else it does to its help). Each but ``-q`` defaults to ``[tool.toolshape]``'s key
    of the same name (see _settle), which the option overrides."""
    parser.add_argument(
        "contracts",
        nargs="?",
        default=None,
        help="a contract file or folder (default: [tool.toolshape] contracts, else contracts)",
    )
    if out:
        parser.add_argument(
            "-o",
            "--out",
            default=None,
            help="the output folder, a Python package: its name must be an identifier "
            "(default: [tool.toolshape] out, else generated)",
        )
    parser.add_argument(
        "--templates",
        type=Path,
        default=None,
        help="a folder of templates overriding the built-in ones by file name "
        "(default: [tool.toolshape] templates)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only errors and warnings")
    parser.add_argument(
        "--strict",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="treat warnings (a default that fails its schema, derived cases left out) as errors: "
        "exit 1" + strict_effect,
    )


def _planned(
    args: argparse.Namespace,
    context: GenerationContext,
    *,
    reuse_from: Path | None = None,
    trust_headers: bool = False,
    out: Path | None = None,
) -> planning.Plan | None:
    """The contracts planned, their warnings reported; None when ``--strict`` refuses them
    (reported as errors, before anything is written)."""
    progress = Progress.on(sys.stderr, quiet=args.quiet)
    try:
        plan = planning.plan(
            Path(args.contracts),
            context,
            reuse_from,
            trust_headers=trust_headers,
            out=out,
            settings=args.settings,
            progress=progress,
        )
    finally:  # erased before any problem is reported
        progress.finish()
    if args.strict and plan.warnings:
        _report(_as_errors(plan.warnings))
        return None
    _report(plan.warnings)
    for file, reason in plan.layout_gaps:  # never silent, even with --quiet: toolshape's bug
        print(
            f"toolshape: note: {file}: black formatted part of its module, since toolshape's "
            f"layout.py has no rule for a statement in it ({reason.rstrip(':')}); the output is "
            "the same, "
            "only slower to make: please report it",
            file=sys.stderr,
        )
    return plan


def _refuse_partial_run(args: argparse.Namespace, plan: planning.Plan, out: Path) -> None:
    """Raise UsageError when the run would touch only part of what ``out`` holds."""
    partial = output.partial_run(Path(args.contracts), plan, out, args.command)
    if partial is not None:
        raise UsageError(partial)


# -- toolshape generate ---------------------------------------------------------------


def _generate_arguments(parser: argparse.ArgumentParser) -> None:
    _contracts_arguments(parser, strict_effect=", write nothing")


def _generate(args: argparse.Namespace) -> int:
    # generate reuses output that the cache (outside the output folder) records as written
    # by this generator for the very same contract bytes.
    out = _output_package(args.out)
    plan = _planned(args, render.generation_context(args.templates), reuse_from=out, out=out)
    if plan is None:
        return 1
    _refuse_partial_run(args, plan, out)
    changes = writing.write(plan, out)
    if not args.quiet:
        changed = sum(1 for c in changes if c.kind != "unchanged")
        print(
            f"generated {_count(len(plan.generated), 'module')}, {_count(len(plan.test_files), 'test file')}, "
            f"{changed} changed"
        )
        for change in changes:
            if change.kind != "unchanged":
                print(f"  {change.kind}: {out / change.path}")
    return 0


GENERATE = Command(
    "generate",
    help="generate validator modules and tests (all or nothing)",
    epilog=f"example:\n  {REGENERATE} contracts --out generated",
    arguments=_generate_arguments,
    run=_generate,
    settings=OUTPUT_SETTINGS,
)


# -- toolshape check ------------------------------------------------------------------


def _check_arguments(parser: argparse.ArgumentParser) -> None:
    _contracts_arguments(parser)
    parser.add_argument(
        "--headers-only",
        action="store_true",
        help="fast: trust each file's header (contract digest, output seal) instead of generating it again; "
        "NOT tamper-proof (an edit that rewrites the header passes): for pre-commit, never for CI",
    )


def _output_package(out: str) -> Path:
    """The output folder; refused (UsageError) before any work when its name cannot be
    imported as a Python package: the generated modules import each other relatively."""
    name = Path(out).resolve().name
    if name and discovery.module_name_problem(name) is None:
        return Path(out)
    if not name:
        raise UsageError(f"output folder {out}: the root folder cannot be a Python package")
    better = os.path.relpath(Path(out).resolve().parent / discovery.suggested_name(name))
    raise UsageError(
        f"output folder {out}: the generated package is imported by its folder's name, and "
        f"'{name}' is not a Python package name (ASCII letters, digits and _, not starting "
        f"with a digit or __, not a keyword); e.g. {better}"
    )


def _check(args: argparse.Namespace) -> int:
    # check generates again, and compares bytes, everything the cache (outside the output
    # folder) cannot vouch for: a file whose bytes are not those generate recorded for its
    # contract, generator and templates is generated again, so an edit is found whatever its
    # header says. --headers-only trusts the files' own headers instead.
    out = _output_package(args.out)
    context = render.generation_context(args.templates)
    plan = _planned(args, context, reuse_from=out, trust_headers=args.headers_only, out=out)
    if plan is None:
        return 1
    _refuse_partial_run(args, plan, out)
    command = _generate_again(args)
    findings = checking.check(plan, out, command)
    _show_findings(findings, out, args.quiet)
    if findings:
        if not args.quiet:
            print(_check_summary(plan, findings, out, command))
        return 1
    if not args.quiet:
        print(
            f"{_count(len(plan.files), 'file')} in {out} {'is' if len(plan.files) == 1 else 'are'} up to date"
        )
    return 0


def _show_findings(findings: list[checking.CheckFinding], out: Path, quiet: bool) -> None:
    """Each finding on stderr: a line naming the file and why it fails, then (unless ``quiet``)
    its diff, at most MAX_DIFF_LINES lines of it, for the first MAX_DIFFS files."""
    with_diff = 0
    for finding in findings:
        print(f"{out / finding.path}: {finding.reason}", file=sys.stderr)
        if finding.diff and not quiet:
            with_diff += 1
            if with_diff <= MAX_DIFFS:
                print(_bounded(finding.diff), file=sys.stderr)
    if with_diff > MAX_DIFFS:
        print(
            f"... the diffs of {with_diff - MAX_DIFFS} more files are not shown "
            "(generate, then read `git diff`)",
            file=sys.stderr,
        )


def _bounded(diff: str) -> str:
    """A unified diff cut at MAX_DIFF_LINES lines of at most MAX_DIFF_WIDTH characters, saying
    how much was left out."""
    lines = diff.splitlines()
    shown = [
        line if len(line) <= MAX_DIFF_WIDTH else f"{line[: MAX_DIFF_WIDTH - 3]}..."
        for line in lines[:MAX_DIFF_LINES]
    ]
    if len(lines) > MAX_DIFF_LINES:
        shown.append(f"... {len(lines) - MAX_DIFF_LINES} more lines of this diff not shown")
    return "\n".join(shown)


def _check_summary(
    plan: planning.Plan, findings: list[checking.CheckFinding], out: Path, command: str
) -> str:
    """The closing line of a failed ``check``: what was checked, how much differs and how, and
    what fixes it."""
    kinds: dict[str, int] = {}
    for finding in findings:
        kinds[finding.kind] = kinds.get(finding.kind, 0) + 1
    how = ", ".join(f"{count} {kind}" for kind, count in kinds.items())
    differ = "file differs" if len(findings) == 1 else "files differ"
    fixes = []
    if set(kinds) - {"importable"}:
        fixes.append(f"run {command}")
    if "importable" in kinds:
        fixes.append("remove what toolshape did not generate")
    return (
        f"checked {_count(len(plan.generated), 'module')} ({_count(len(plan.files), 'file')}) "
        f"in {out}: {len(findings)} {differ} ({how}); to fix: {' and '.join(fixes)}"
    )


def _generate_again(args: argparse.Namespace) -> str:
    """The generate command for the contracts and output folder ``check`` was given, with what
    plain ``toolshape generate`` would take anyway left out (the defaults, or what
    ``[tool.toolshape]`` says): what brings that output in line."""
    settings: configuration.Settings = args.settings
    templates = None if args.templates in (None, settings.templates) else str(args.templates)
    implied = (settings.contracts or "contracts", settings.out or "generated")
    return planning.generate_command(args.contracts, args.out, templates, implied=implied)


CHECK = Command(
    "check",
    help="exit 1 if the output is stale, missing, extra or hand-edited; write nothing",
    epilog="example:\n  toolshape check",
    arguments=_check_arguments,
    run=_check,
    settings=OUTPUT_SETTINGS,
)


# -- toolshape lint -------------------------------------------------------------------


def _lint_arguments(parser: argparse.ArgumentParser) -> None:
    _contracts_arguments(parser, out=False)
    parser.add_argument(
        "--target",
        action="append",
        choices=export.TARGETS,
        default=None,
        help="also report what this platform refuses (repeatable; default: [tool.toolshape] target); "
        "for openai and anthropic, every reason strict mode cannot be used",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: path:line:col: error: message on stderr (default); json: one JSON document on stdout, for tools; "
        "github: workflow annotations (::error file=...,line=...,col=...::message) on stdout, for pull requests",
    )


def _lint(args: argparse.Namespace) -> int:
    context = render.generation_context(args.templates)
    if args.format != "text":
        return _lint_formatted(args, context)
    plan = _planned(args, context)
    if plan is None:
        return 1
    if args.target:
        findings = _target_problems(plan, args.target)
        if findings:
            _report(findings)
            return 1
    if not args.quiet:
        count = len(plan.warnings)
        found = _count(count, "warning") if count else "no problems"
        print(f"{_count(len(plan.generated), 'contract')}, {found}")
    return 0


def _target_problems(plan: planning.Plan, targets: list[str]) -> list[Problem]:
    """What each target refuses, located in the contract files as they were found (like every other error)."""
    found = []
    for generated, shown in zip(plan.generated, plan.sources, strict=True):
        for target in targets:
            for finding in export.lint(generated.contract, target):
                found.append(replace(finding.problem(generated.contract), file=shown))
    return found


def _lint_formatted(args: argparse.Namespace, context: GenerationContext) -> int:
    """``lint --format json|github``: every problem and warning on stdout, in the chosen format."""
    contracts = 0
    try:
        plan = planning.plan(Path(args.contracts), context)
        problems = list(plan.warnings) + (
            _target_problems(plan, args.target) if args.target else []
        )
        contracts = len(plan.generated)
    except ContractError as exc:
        problems = list(exc.problems)
    if args.strict:
        problems = [
            replace(p, severity="error") if p.severity == "warning" else p for p in problems
        ]
    failed = any(p.severity == "error" for p in problems)
    if args.format == "json":
        print(_lint_json(contracts, problems))
    else:
        for problem in problems:
            print(github_annotation(problem))
    return 1 if failed else 0


def _lint_json(contracts: int, problems: list[Problem]) -> str:
    """``lint --format json``: the counts and every problem, one JSON document."""
    import json

    summary = {
        "contracts": contracts,
        "errors": sum(1 for p in problems if p.severity == "error"),
        "warnings": sum(1 for p in problems if p.severity != "error"),
        "problems": [
            {
                "file": p.file,
                "line": p.line,
                "col": p.col,
                "severity": p.severity,
                "message": p.message,
            }
            for p in problems
        ],
    }
    return json.dumps(summary, indent=2, ensure_ascii=False)


def github_annotation(problem: Problem) -> str:
    """A GitHub Actions workflow command: ``::error file=F,line=L,col=C::message`` (or ``::warning``).

    Values are escaped as the runner expects (% CR LF everywhere, and : , in properties),
    so a message with a newline or a path with a comma stays one annotation.
    """

    def data(text: str) -> str:
        return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")

    def prop(text: str) -> str:
        return data(text).replace(":", "%3A").replace(",", "%2C")

    kind = "error" if problem.severity == "error" else "warning"
    return f"::{kind} file={prop(problem.file)},line={problem.line},col={problem.col}::{data(problem.message)}"


LINT = Command(
    "lint",
    help="check contracts only; report problems as path:line:col",
    epilog="example:\n  toolshape lint contracts --target openai",
    arguments=_lint_arguments,
    run=_lint,
    settings=(*FOLDER_SETTINGS, Setting("target", "target", [])),
)


# -- toolshape schema -----------------------------------------------------------------


def _schema_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "contract",
        nargs="?",
        default=None,
        help="one contract file; with --all a contracts folder (default: contracts)",
    )
    parser.add_argument(
        "--target",
        default=None,
        choices=export.TARGETS,
        help="openai: Chat Completions tools; openai-responses: the Responses API shape; anthropic; "
        "gemini: a FunctionDeclaration with parametersJsonSchema (JSON Schema: $ref, anyOf, recursion); "
        "gemini-legacy: the legacy 'parameters' field (an OpenAPI 3.0 subset: no $ref, no recursion); "
        "mcp; jsonschema (default: [tool.toolshape] target, when it names one platform)",
    )
    parser.add_argument(
        "--all", action="store_true", help="print a JSON list of every tool's definition"
    )
    parser.add_argument(
        "--strict",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="exit 1, printing nothing, when strict mode cannot be used (openai, anthropic) or a warning is found",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true", help="no notes (a strict mode left off is still said)"
    )
    parser.set_defaults(templates=None, folder=None)


def _schema(args: argparse.Namespace) -> int:
    args.target = _schema_target(args.target, args.settings)
    if args.all:
        return _schema_all(args)
    if args.contract is None:
        print(
            "toolshape: error: schema needs one contract file, or --all for every contract of a folder",
            file=sys.stderr,
        )
        return 2
    path = Path(args.contract)
    if not path.is_file():
        print(
            f"toolshape: error: {args.contract}: not a contract file (use --all for a folder)",
            file=sys.stderr,
        )
        return 2
    folder = planning.contracts_folder_of(path, args.settings)
    checked = planning.checked_contract(folder, path, args.contract)
    results = _exported([checked], args)
    if results is None:
        return 1
    print(results[0].to_json())
    return 0


def _schema_target(given: str | None, settings: configuration.Settings) -> str:
    """The one platform ``schema`` prints for: ``--target``, else the table's ``target`` when it
    names exactly one (a table naming several, for ``lint``, cannot say which)."""
    if given is not None:
        return given
    if len(settings.target) == 1:
        return settings.target[0]
    if settings.target:
        raise UsageError(
            f"schema prints one platform's definitions, and {settings.file}: "
            f"{configuration.TABLE} target names {len(settings.target)} "
            f"({', '.join(settings.target)}): give --target"
        )
    raise UsageError(f"schema needs --target ({', '.join(export.TARGETS)})")


def _schema_all(args: argparse.Namespace) -> int:
    """Every contract's definition for the target, as one JSON list (what a service registers)."""
    import json

    root = Path(args.contract or args.folder)
    folder = planning.contracts_folder_of(root, args.settings)
    checked: list[checker.Contract] = []
    problems: list[Problem] = []
    for path in planning.tool_files(root, folder):
        try:
            checked.append(planning.checked_contract(folder, path, str(path)))
        except ContractError as exc:
            problems.extend(exc.problems)
    if problems:
        _report(problems)
        return 1
    results = _exported(checked, args)
    if results is None:
        return 1
    listed = [r.definition for r in results]
    print(json.dumps(listed, indent=2, ensure_ascii=False))
    return 0


def _exported(
    checked: list[checker.Contract], args: argparse.Namespace
) -> list[export.ExportResult] | None:
    """Each contract exported for ``args.target``, with warnings and notes said; None when refused.

    A tool the platform refuses outright is an error. Strict mode left off (openai,
    anthropic) is a warning at each reason, printed even with -q: a ``strict: false``
    is never silent; with --strict it is an error and nothing is printed.
    """
    errors: list[Problem] = []
    warnings: list[Problem] = [w for c in checked for w in c.warnings]
    results: list[export.ExportResult] = []
    for one in checked:
        try:
            result = export.export(one, args.target)
        except export.ExportError as exc:
            errors.extend(f.problem(one) for f in exc.findings)
            continue
        results.append(result)
        warnings.extend(_strict_mode_off(one, result, args.target))
    if args.strict:
        errors.extend(_as_errors(warnings))
        warnings = []
    _report(warnings + errors)
    if errors:
        return None
    if not args.quiet:
        for one, result in zip(checked, results, strict=True):
            for note in result.notes:
                print(f"{one.file}: note: {note}", file=sys.stderr)
    return results


def _strict_mode_off(
    contract: checker.Contract, result: export.ExportResult, target: str
) -> list[Problem]:
    """A warning at each reason the platform's strict mode is off for this tool."""
    mode = "OpenAI strict mode" if target.startswith("openai") else "Anthropic strict tool use"
    found = []
    for finding in result.strict_refused:
        problem = finding.problem(contract)
        message = f"{mode} is off for this tool: {problem.message}"
        found.append(replace(problem, severity="warning", message=message))
    return found


SCHEMA = Command(
    "schema",
    help="print the tool definition for a platform (one tool, or --all)",
    description="Print one contract's tool definition for a platform, or with --all the list of every "
    "tool's definitions (what a service registers); notes on stderr name the constraints the platform "
    "does not enforce (the generated validator is the only enforcement). A tool the platform refuses "
    "is an error (exit 1, nothing printed); strict mode left off is always said on stderr, even with -q.",
    epilog="examples:\n  toolshape schema contracts/get_weather.yaml --target openai\n"
    "  toolshape schema --all --target openai-responses > tools.json\n"
    "  toolshape schema --all --target gemini-legacy    # Gemini's legacy 'parameters' (OpenAPI subset)",
    arguments=_schema_arguments,
    run=_schema,
    settings=(Setting("strict", "strict", False), Setting("folder", "contracts", "contracts")),
)


# -- toolshape import -----------------------------------------------------------------


def _import_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "source",
        nargs="*",
        metavar="FILE | -- COMMAND ARGS",
        help="a JSON or YAML file; with --mcp, the command that starts the MCP server (after --)",
    )
    parser.add_argument(
        "--mcp",
        action="store_true",
        help="start the MCP server COMMAND over stdio and import every tool its tools/list lists",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=mcp_stdio.DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"with --mcp: how long the server may take in all (default: {mcp_stdio.DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "-o",
        "--out",
        default=None,
        help="where to write the contracts (default: [tool.toolshape] contracts, else contracts)",
    )
    parser.add_argument("--force", action="store_true", help="overwrite existing contract files")
    parser.add_argument(
        "--draft",
        choices=DRAFTS,
        default=None,
        help="the JSON Schema draft of schemas without $schema (default: guessed from the spellings, and said)",
    )
    parser.add_argument(
        "--formats",
        choices=FORMAT_READINGS,
        default="assert",
        help="assert each format (default), or keep it as the annotation x-format, "
        "as JSON Schema 2020-12 reads format unless told to assert it",
    )
    parser.add_argument(
        "--remote",
        action="append",
        default=[],
        metavar="PREFIX=FOLDER",
        help="read the schemas a $ref names by a URL starting with PREFIX from the files under "
        "FOLDER (the rest of the URL is the path; never the network; repeatable)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only errors and warnings")
    parser.set_defaults(templates=None)


def _import(args: argparse.Namespace) -> int:
    from .platforms import importer

    try:
        label, imported = _imported(args)
    except importer.ContractImportError as exc:
        colour = _use_colour(sys.stderr)
        for problem in exc.problems:
            print(_problem_line(_import_problem(problem), colour), file=sys.stderr)
        return 1
    except mcp_stdio.ServerError as exc:
        print(f"toolshape: error: {exc}", file=sys.stderr)
        return 1
    try:
        written = importer.write_imported(imported, Path(args.out), overwrite=args.force)
    except importer.ImportWriteError as exc:
        print(f"toolshape: error: {exc}", file=sys.stderr)
        return 1
    colour = _use_colour(sys.stderr)
    for item, path in zip(imported, written, strict=True):
        for translation in item.translations:
            print(f"{path}: translated: {translation}", file=sys.stderr)
        for warning in item.warnings:
            shown = _import_warning(label, path, warning, live=args.mcp)
            print(_problem_line(shown, colour), file=sys.stderr)
        if not args.quiet:
            print(f"imported: {path}")
    if not args.quiet:
        print(
            f"imported {_count(len(written), 'contract')} into {args.out}; add examples, then run {REGENERATE}"
        )
    return 0


def _imported(args: argparse.Namespace) -> tuple[str, list[importer.ImportedContract]]:
    """What to name the input in messages, and its tools as contracts: the file's, or those a
    live MCP server lists (raises UsageError for a command line that names neither)."""
    from .platforms import importer

    if not args.mcp:
        if len(args.source) != 1:
            raise UsageError("import takes one FILE (or --mcp -- COMMAND ARGS...)")
        return args.source[0], importer.import_file(
            Path(args.source[0]), args.draft, options=_import_options(args)
        )
    if not args.source:
        raise UsageError("--mcp needs the command that starts the server: --mcp -- COMMAND ARGS...")
    if not 0 < args.timeout <= mcp_stdio.MAX_TIMEOUT:
        raise UsageError(
            f"--timeout must be a number of seconds above 0 and at most {mcp_stdio.MAX_TIMEOUT:g}, "
            f"not {args.timeout:g}"
        )
    name, listed = mcp_stdio.list_tools(args.source, args.timeout)
    # Named by the server's own name, never by its command line (which may carry secrets).
    label = f"MCP server {name or Path(args.source[0]).name}"
    return label, importer.import_data(
        listed, label, "tool", args.draft, options=_import_options(args)
    )


def _import_options(args: argparse.Namespace) -> importer.ImportOptions:
    """How the command line asks the input's schemas to be read (UsageError for a bad --remote)."""
    from .platforms import importer, remotes

    try:
        folders = tuple(remotes.RemoteFolder.parse(text) for text in args.remote)
    except ValueError as error:
        raise UsageError(f"--remote: {error}") from None
    return importer.ImportOptions(formats=args.formats, remotes=folders)


def _import_problem(problem: importer.ImportProblem) -> Problem | importer.ImportProblem:
    """An import error as ``path:line:col: error:`` at its place in the input file, naming the
    tool and the JSON Pointer it concerns; as it is when it has no place in a text (input from a
    live server, or the file as a whole)."""
    if problem.input_at is None:
        return problem
    tool = f"tool '{problem.tool}' " if problem.tool else ""
    line, col = problem.input_at
    message = f"{problem.message} ({tool}at {problem.pointer or '/'})"
    return Problem(problem.file, line, col, message, "error")


def _import_warning(
    source: str, written: Path, warning: importer.ImportNotice, *, live: bool = False
) -> Problem | str:
    """An import warning as ``path:line:col: warning:``: at its line in the written contract when
    the contract check found it there, else at its place in the input file (the thing warned
    about is often not in the contract at all), naming the contract it concerns. Input from a
    live server has no lines: ``MCP server NAME: warning: ...``."""
    if warning.contract_at is not None:
        line, col = warning.contract_at
        return Problem(str(written), line, col, warning.message, "warning")
    at = "" if warning.pointer is None else f" at {warning.pointer or '/'}"
    message = f"{warning.message} ({written}{at})"
    if live:
        return f"{source}: warning: {message}"
    line, col = warning.input_at or (1, 1)
    return Problem(source, line, col, message, "warning")


IMPORT = Command(
    "import",
    help="turn a JSON Schema or a tool list into contracts",
    description="Turn a JSON Schema, an MCP tools/list result, or an OpenAI, Anthropic or Gemini "
    "tool list (every format `toolshape schema` prints), or with --mcp the tools a running MCP server "
    "lists, into one contract file per tool.",
    epilog="examples:\n  toolshape import tools.json --out contracts\n"
    "  toolshape import --mcp -- uvx mcp-server-time      # the tools of a live MCP server (stdio)",
    arguments=_import_arguments,
    run=_import,
    settings=(Setting("out", "contracts", "contracts"),),
)


# -- toolshape diff -------------------------------------------------------------------


def diff_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The arguments of ``toolshape diff`` (for its sub-parser of the main command line)."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="OLD NEW (contract files or folders); with --base: the contracts folder or file "
        "(default: [tool.toolshape] contracts, else contracts)",
    )
    parser.add_argument(
        "--base",
        metavar="REV",
        help="read the old side from git at REV (e.g. origin/main) instead of OLD",
    )
    parser.add_argument(
        "--format",
        choices=report.FORMATS,
        default="text",
        help="text (default), markdown (a pull-request comment) or json",
    )
    parser.add_argument(
        "--fail-on",
        choices=report.FAIL_ON,
        default=None,
        help="exit 1 when a change has this effect (breaking and widening include 'not determined'; "
        "widening also matches a result narrowing; any: every change but an equivalent one)",
    )
    parser.add_argument(
        "--templates",
        type=Path,
        default=None,
        help="a folder of templates overriding the built-in ones by file name "
        "(default: [tool.toolshape] templates)",
    )
    parser.set_defaults(contracts=None)  # with --base and no PATH: see _diff_sides
    return parser


def _diff_sides(
    args: argparse.Namespace, *, cwd: str | os.PathLike[str] | None = None
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Read (old, new) as the parsed arguments say; raise UsageError for a bad combination."""
    from .review import inputs

    here = Path(cwd) if cwd is not None else Path.cwd()
    if args.base is not None:
        if len(args.paths) > 1:
            raise UsageError("with --base, give at most one contracts folder or file")
        # The contracts folder main() settled from [tool.toolshape]; "contracts" for a caller
        # that parsed the arguments itself.
        target = args.paths[0] if args.paths else (args.contracts or "contracts")
        new = inputs.read_folder(here / target if not Path(target).is_absolute() else target)
        new = {_relative_display(k, here): v for k, v in new.items()}
        return inputs.read_git(args.base, target, cwd=here), new
    if len(args.paths) != 2:
        raise UsageError("give OLD and NEW (files or folders), or --base REV [CONTRACTS]")
    old, new = (
        inputs.read_folder(here / p if not Path(p).is_absolute() else p) for p in args.paths
    )
    return (
        {_relative_display(k, here): v for k, v in old.items()},
        {_relative_display(k, here): v for k, v in new.items()},
    )


def _relative_display(display: str, here: Path) -> str:
    try:
        return Path(display).relative_to(here).as_posix()
    except ValueError:
        return display


def run_diff(
    args: argparse.Namespace,
    *,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
    cwd: str | os.PathLike[str] | None = None,
) -> int:
    """Run ``toolshape diff`` for parsed arguments; return the exit status (0, 1 or 2)."""
    from .review import diff

    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        if args.templates is not None and not Path(args.templates).is_dir():
            raise UsageError(f"--templates {args.templates}: no such folder")
        old, new = _diff_sides(args, cwd=cwd)
        found = diff.diff(old, new, templates=args.templates)
    except UsageError as exc:
        print(f"toolshape: error: {exc}", file=stderr)
        return 2
    stdout.write(report.render_report(found, args.format))
    for warning in found.warnings:  # on stderr in every format: they change no claim
        print(warning, file=stderr)
    if args.format != "text":  # text already lists them; keep them visible in CI logs
        for error in found.errors:
            print(error, file=stderr)
    return report.exit_code(found, args.fail_on)


DIFF = Command(
    "diff",
    help="what a contract change does to callers, with a witness for each claim",
    description="Compare two versions of the contracts: for each change, breaking, widening, "
    "both or annotation, each claim with a witness checked by both generated validators.",
    epilog="examples:\n  toolshape diff old/ new/\n"
    "  toolshape diff --base origin/main --format markdown --fail-on breaking",
    arguments=diff_arguments,
    run=run_diff,
    settings=(
        Setting("contracts", "contracts", "contracts"),
        Setting("templates", "templates", None),
    ),
)


# -- toolshape new --------------------------------------------------------------------


def _new_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "name", help="the tool name: a Python identifier of A-Z a-z 0-9 _ (at most 64)"
    )
    parser.add_argument(
        "--dir",
        default=None,
        help="the contracts folder to write into (default: [tool.toolshape] contracts, else contracts)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    parser.set_defaults(templates=None)


def _new(args: argparse.Namespace) -> int:
    name: str = args.name
    reason = _bad_new_name(name)
    if reason is not None:
        print(f"toolshape: error: new {name!r}: {reason}", file=sys.stderr)
        return 2
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        print(f"toolshape: error: --dir {folder}: not a folder", file=sys.stderr)
        return 2
    target = folder / f"{name}.yaml"
    for existing in (target, target.with_suffix(".yml")):
        if existing.exists() or existing.is_symlink():
            print(f"toolshape: error: {existing} already exists; not overwritten", file=sys.stderr)
            return 1
    folder.mkdir(parents=True, exist_ok=True)
    with open(target, "x", encoding="utf-8", newline="\n") as handle:  # "x": never overwrite
        handle.write(starter_contract(name))
    if not args.quiet:
        print(
            f"created {target}: edit it, then run: toolshape lint {target} && {_generate_command(folder, args.settings)}"
        )
    return 0


def starter_contract(name: str) -> str:
    """The commented starter contract for the tool ``name`` (``starter/contract.yaml.j2``).

    Package data beside this module, not under templates/: every template the generation
    environment can load is part of each generated header's fingerprint, and this one makes
    no generated code."""
    starter = resources.files("toolshape") / "starter" / "contract.yaml.j2"
    text = starter.read_text(encoding="utf-8")
    template = jinja2.Environment(
        undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False
    ).from_string(text)
    return template.render(name=name, generate=REGENERATE)


def _generate_command(folder: Path, settings: configuration.Settings) -> str:
    """The command that regenerates the project ``folder`` belongs to, not a subfolder alone:
    plain ``toolshape generate`` for the contracts folder ``[tool.toolshape]`` names or one
    inside it.

    Generating ``contracts/billing`` by itself into ``generated/`` would take every other
    tool out of it (``generate`` refuses that); a folder inside one named ``contracts`` is
    generated with it. Otherwise the folder is the only contracts folder known here.
    """
    if settings.contracts is not None:
        configured = Path(settings.contracts).resolve()
        if folder.resolve() == configured or configured in folder.resolve().parents:
            return REGENERATE
    for ancestor in [folder, *folder.parents]:
        if ancestor.name == "contracts":
            return REGENERATE if ancestor == Path("contracts") else f"{REGENERATE} {ancestor}"
    return f"{REGENERATE} {folder}"


def _bad_new_name(name: str) -> str | None:
    """Why ``name`` cannot be a new contract's tool and module name, or None."""
    if not checker.TOOL_NAME_RE.fullmatch(name):
        return "a tool name is 1-64 characters of A-Z a-z 0-9 _ . -"
    if not name.isidentifier():
        return "the contract file name must be a Python identifier (letters, digits and _, not starting with a digit)"
    if keyword.iskeyword(name):
        return "a Python keyword cannot name a module"
    if name.startswith("__"):
        return "a name starting with __ cannot name a generated module"
    if name == "tests" or name in PACKAGE_NAMES:
        return "this name is taken by the generated package itself"
    return None


NEW = Command(
    "new",
    help="write a commented starter contract NAME.yaml",
    description="Write a commented starter contract for the tool NAME: every field explained, "
    "an accepted and a rejected example. It passes `toolshape lint` as written; edit it, then "
    "generate. An existing file is never overwritten.",
    epilog="examples:\n  toolshape new lookup_order\n  toolshape new refund --dir contracts/billing",
    arguments=_new_arguments,
    run=_new,
    settings=(Setting("dir", "contracts", "contracts"),),
)


#: Every subcommand, in the order ``toolshape --help`` lists them.
COMMANDS = (GENERATE, CHECK, LINT, SCHEMA, IMPORT, DIFF, NEW)
_COMMANDS_BY_NAME = {command.name: command for command in COMMANDS}


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
