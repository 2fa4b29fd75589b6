"""The command line: ``toolshape generate | check | lint | new | schema | import | diff``.

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
from dataclasses import replace
from pathlib import Path
from typing import TextIO

from . import __version__
from .codegen import render
from .codegen.context import GenerationContext
from .codegen.render import RenderError
from .contract import checker, source
from .contract.errors import ContractError, Problem, UsageError
from .platforms import export, importer
from .project import checking, discovery, output, planning, writing
from .review import diff, inputs, report

EXAMPLES = """\
examples:
  toolshape generate                      # contracts/ -> generated/
  toolshape generate api/tools --out src/validators
  toolshape check                         # in CI: fails unless generated/ is exactly what the contracts make
  toolshape check --headers-only          # fast, NOT tamper-proof: trusts the generated files' headers
  toolshape lint contracts/get_weather.yaml
  toolshape new lookup_order              # a commented starter contract: contracts/lookup_order.yaml
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="toolshape",
        description="Turn tool contracts (YAML) into standalone Python validators and their tests.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"toolshape {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def add(name: str, help_text: str, example: str, out: bool = True) -> argparse.ArgumentParser:
        sub = commands.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.add_argument(
            "contracts",
            nargs="?",
            default="contracts",
            help="a contract file or folder (default: contracts)",
        )
        if out:
            sub.add_argument(
                "--out", default="generated", help="the output folder (default: generated)"
            )
        sub.add_argument(
            "--templates",
            type=Path,
            default=None,
            help="a folder of templates overriding the built-in ones by file name",
        )
        sub.add_argument(
            "-q", "--quiet", action="store_true", help="print only errors and warnings"
        )
        sub.add_argument(
            "--strict",
            action="store_true",
            help="treat warnings (a default that fails its schema, derived cases left out) as errors: "
            "exit 1" + (", write nothing" if name == "generate" else ""),
        )
        return sub

    add(
        "generate",
        "generate validator modules and tests (all or nothing)",
        "toolshape generate contracts --out generated",
    )
    check_parser = add(
        "check",
        "exit 1 if the output is stale, missing, extra or hand-edited; write nothing",
        "toolshape check",
    )
    check_parser.add_argument(
        "--headers-only",
        action="store_true",
        help="fast: trust each file's header (contract digest, output seal) instead of generating it again; "
        "NOT tamper-proof (an edit that rewrites the header passes): for pre-commit, never for CI",
    )
    lint_parser = add(
        "lint",
        "check contracts only; report problems as path:line:col",
        "toolshape lint contracts --target openai",
        out=False,
    )
    lint_parser.add_argument(
        "--target",
        action="append",
        choices=export.TARGETS,
        default=[],
        help="also report what this platform refuses (repeatable); for openai and anthropic, every reason "
        "strict mode cannot be used",
    )
    lint_parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text: path:line:col: error: message on stderr (default); json: one JSON document on stdout, for tools; "
        "github: workflow annotations (::error file=...,line=...,col=...::message) on stdout, for pull requests",
    )
    schema_parser = commands.add_parser(
        "schema",
        help="print the tool definition for a platform (one tool, or --all)",
        description="Print one contract's tool definition for a platform, or with --all the list of every "
        "tool's definitions (what a service registers); notes on stderr name the constraints the platform "
        "does not enforce (the generated validator is the only enforcement). A tool the platform refuses "
        "is an error (exit 1, nothing printed); strict mode left off is always said on stderr, even with -q.",
        epilog="examples:\n  toolshape schema contracts/get_weather.yaml --target openai\n"
        "  toolshape schema --all --target openai-responses > tools.json\n"
        "  toolshape schema --all --target gemini-legacy    # Gemini's legacy 'parameters' (OpenAPI subset)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    schema_parser.add_argument(
        "contract",
        nargs="?",
        default=None,
        help="one contract file; with --all a contracts folder (default: contracts)",
    )
    schema_parser.add_argument(
        "--target",
        required=True,
        choices=export.TARGETS,
        help="openai: Chat Completions tools; openai-responses: the Responses API shape; anthropic; "
        "gemini: a FunctionDeclaration with parametersJsonSchema (JSON Schema: $ref, anyOf, recursion); "
        "gemini-legacy: the legacy 'parameters' field (an OpenAPI 3.0 subset: no $ref, no recursion); "
        "mcp; jsonschema",
    )
    schema_parser.add_argument(
        "--all", action="store_true", help="print a JSON list of every tool's definition"
    )
    schema_parser.add_argument(
        "--strict",
        action="store_true",
        help="exit 1, printing nothing, when strict mode cannot be used (openai, anthropic) or a warning is found",
    )
    schema_parser.add_argument(
        "-q", "--quiet", action="store_true", help="no notes (a strict mode left off is still said)"
    )
    schema_parser.set_defaults(templates=None)
    import_parser = commands.add_parser(
        "import",
        help="turn a JSON Schema or a tool list into contracts",
        description="Turn a JSON Schema, an MCP tools/list result, or an OpenAI/Anthropic tool list "
        "into one contract file per tool.",
        epilog="example:\n  toolshape import tools.json --out contracts",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    import_parser.add_argument("file", help="a JSON or YAML file")
    import_parser.add_argument(
        "--out", default="contracts", help="where to write the contracts (default: contracts)"
    )
    import_parser.add_argument(
        "--force", action="store_true", help="overwrite existing contract files"
    )
    import_parser.add_argument(
        "--draft",
        choices=importer.DRAFTS,
        default=None,
        help="the JSON Schema draft of schemas without $schema (default: guessed from the spellings, and said)",
    )
    import_parser.add_argument(
        "-q", "--quiet", action="store_true", help="print only errors and warnings"
    )
    import_parser.set_defaults(templates=None)
    diff_parser = commands.add_parser(
        "diff",
        help="what a contract change does to callers, with a witness for each claim",
        description="Compare two versions of the contracts: for each change, breaking, widening, "
        "both or annotation, each claim with a witness checked by both generated validators.",
        epilog="examples:\n  toolshape diff old/ new/\n"
        "  toolshape diff --base origin/main --format markdown --fail-on breaking",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    diff_arguments(diff_parser)
    new_parser = commands.add_parser(
        "new",
        help="write a commented starter contract NAME.yaml",
        description="Write a commented starter contract for the tool NAME: every field explained, "
        "an accepted and a rejected example. It passes `toolshape lint` as written; edit it, then "
        "generate. An existing file is never overwritten.",
        epilog="examples:\n  toolshape new lookup_order\n  toolshape new refund --dir contracts/billing",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    new_parser.add_argument(
        "name", help="the tool name: a Python identifier of A-Z a-z 0-9 _ (at most 64)"
    )
    new_parser.add_argument(
        "--dir", default="contracts", help="the contracts folder to write into (default: contracts)"
    )
    new_parser.add_argument("-q", "--quiet", action="store_true", help="print only errors")
    new_parser.set_defaults(templates=None)
    return parser


#: The formats of ``lint`` reports.
FORMATS = ("text", "json", "github")

#: At most this many problems are printed per contract file (an alias bomb has
#: hundreds of thousands); the rest are counted on one line.
MAX_PROBLEMS_PER_FILE = 50


def main(argv: list[str] | None = None) -> int:
    """Run one command; return the exit status (never raises for a bad contract or command)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as exc:  # --help, --version, or a usage error argparse printed
        return exc.code if isinstance(exc.code, int) else 2
    if args.templates is not None and not args.templates.is_dir():
        print(f"toolshape: error: --templates {args.templates}: no such folder", file=sys.stderr)
        return 2
    try:
        return _run(args)
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
        where = ""
        frames = traceback.extract_tb(exc.__traceback__)
        if frames:
            where = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})"
        print(
            f"toolshape: internal error: {type(exc).__name__}: {exc}{where}; "
            "this is a bug in toolshape, please report it with the contract that caused it",
            file=sys.stderr,
        )
        return 1


def _run(args: argparse.Namespace) -> int:
    if args.command == "diff":
        return run_diff(args)
    if args.command == "schema":
        return _schema(args)
    if args.command == "import":
        return _import(args)
    if args.command == "new":
        return _new(args)
    context = render.generation_context(args.templates)
    if args.command == "lint" and args.format != "text":
        return _lint_formatted(args, context)
    # generate reuses output that the cache (outside the output folder) records as written
    # by this generator for the very same contract bytes; check generates everything again
    # and compares bytes, unless --headers-only trusts the files' own headers.
    headers_only = args.command == "check" and args.headers_only
    reuse_from = Path(args.out) if args.command == "generate" or headers_only else None
    root = Path(args.contracts)
    out = None if args.command == "lint" else Path(args.out)
    plan = planning.plan(root, context, reuse_from, trust_headers=headers_only, out=out)
    if args.strict and plan.warnings:  # before anything is written
        _report(
            [
                replace(w, severity="error", message=f"{w.message} [a warning; --strict]")
                for w in plan.warnings
            ]
        )
        return 1
    _report(plan.warnings)
    for file, reason in plan.layout_gaps:  # never silent, even with --quiet: toolshape's bug
        print(
            f"toolshape: note: {file}: black formatted its module, since toolshape's layout.py "
            f"has no rule for a statement in it ({reason.rstrip(':')}); the output is the same, "
            "only slower to make: please report it",
            file=sys.stderr,
        )
    if args.command == "lint" and args.target:
        findings = _target_problems(plan, args.target)
        if findings:
            _report(findings)
            return 1
    if args.command == "lint":
        if not args.quiet:
            count = len(plan.warnings)
            found = _count(count, "warning") if count else "no problems"
            print(f"{_count(len(plan.generated), 'contract')}, {found}")
        return 0
    assert out is not None
    partial = output.partial_run(root, plan, out, args.command)
    if partial is not None:
        raise UsageError(partial)
    if args.command == "check":
        return _check(plan, out, args.quiet, _generate_again(args))
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


def _count(number: int, noun: str) -> str:
    """``1 module``, ``2 modules``: never "1 modules"."""
    return f"{number} {noun}{'s' * (number != 1)}"


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
        print(json.dumps(summary, indent=2, ensure_ascii=False))
    else:
        for problem in problems:
            print(github_annotation(problem))
    return 1 if failed else 0


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


def _schema(args: argparse.Namespace) -> int:
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
    checked = checker.check(source.load_file(path, args.contract))
    results = _exported([checked], args)
    if results is None:
        return 1
    print(results[0].to_json())
    return 0


def _schema_all(args: argparse.Namespace) -> int:
    """Every contract's definition for the target, as one JSON list (what a service registers)."""
    import json

    root = Path(args.contract or "contracts")
    checked: list[checker.Contract] = []
    problems: list[Problem] = []
    for path in discovery.find_contracts(root):
        try:
            checked.append(checker.check(source.load_file(path, str(path))))
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
        mode = (
            "OpenAI strict mode"
            if args.target.startswith("openai")
            else "Anthropic strict tool use"
        )
        for finding in result.strict_refused:
            problem = finding.problem(one)
            message = f"{mode} is off for this tool: {problem.message}"
            warnings.append(replace(problem, severity="warning", message=message))
    if args.strict:
        errors.extend(
            replace(w, severity="error", message=f"{w.message} [a warning; --strict]")
            for w in warnings
        )
        warnings = []
    _report(warnings + errors)
    if errors:
        return None
    if not args.quiet:
        for one, result in zip(checked, results, strict=True):
            for note in result.notes:
                print(f"{one.file}: note: {note}", file=sys.stderr)
    return results


def _import(args: argparse.Namespace) -> int:
    try:
        imported = importer.import_file(Path(args.file), args.draft)
    except importer.ContractImportError as exc:
        colour = _use_colour(sys.stderr)
        for problem in exc.problems:
            print(_problem_line(problem, colour), file=sys.stderr)
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
            print(_problem_line(_import_warning(args.file, path, warning), colour), file=sys.stderr)
        if not args.quiet:
            print(f"imported: {path}")
    if not args.quiet:
        print(
            f"imported {_count(len(written), 'contract')} into {args.out}; add examples, then run toolshape generate"
        )
    return 0


def _import_warning(file: str, written: Path, warning: importer.ImportNotice) -> Problem:
    """An import warning as ``path:line:col: warning:``: at its line in the written contract when
    the contract check found it there, else at its place in the input file (the thing warned
    about is often not in the contract at all), naming the contract it concerns."""
    if warning.contract_at is not None:
        line, col = warning.contract_at
        return Problem(str(written), line, col, warning.message, "warning")
    line, col = warning.input_at or (1, 1)
    at = "" if warning.pointer is None else f" at {warning.pointer or '/'}"
    return Problem(file, line, col, f"{warning.message} ({written}{at})", "warning")


#: The starter contract ``toolshape new`` writes; ``{name}`` is the only placeholder.
STARTER = """\
# A toolshape contract: one tool a model may call, and the arguments it accepts.
# Check it with `toolshape lint`, then turn it into a validator with `toolshape generate`.
# Every key and keyword is described in the "Contract format" section of toolshape's README.

# name: the tool name the model sees: 1-64 of A-Z a-z 0-9 _ . - (unique in the folder).
name: {name}

# description: what the tool does and when to call it; the model reads this text.
description: TODO say what {name} does and when the model should call it.

# parameters: a JSON Schema (2020-12 subset) for the arguments. The root is always an
# object schema: null, arrays, strings and numbers are refused as arguments.
parameters:
  type: object
  properties:
    # A string with a length range; pattern '\\S' also refuses whitespace-only text.
    # description: told to the model, like the tool's own description.
    query:
      type: string
      minLength: 1
      maxLength: 200
      pattern: '\\S'
      description: What to look up.
    # An optional integer with inclusive bounds. `default` is an annotation for the
    # model: the validator does not fill it in, the handler applies it when the key is
    # absent. (OpenAI strict mode wants every key required: `toolshape lint --target openai`.)
    limit:
      type: integer
      minimum: 1
      maximum: 50
      default: 10
      description: How many results to return, 1 to 50.
  # required: keys that must be present. A present null is not a missing key: it is
  # reported as a wrong type.
  required: [query]
  # additionalProperties: false refuses keys not listed under properties, so a
  # misspelt key is an error instead of being ignored.
  additionalProperties: false

# examples: run against the generated validator at generation time (generation fails
# if one does not behave as declared) and copied into the generated tests.
# Each has `args` (decoded arguments) or `json` (raw text, parsed first); `status` is
# accept (the default), reject or parse_error; `errors`, when given, is the exact set
# of (path, code) pairs expected, path being a JSON Pointer ("" is the top level).
examples:
  - description: accepted, with the optional limit
    args: {{query: order 1042, limit: 5}}
  - description: rejected, the required key query is missing
    args: {{limit: 5}}
    status: reject
    errors: [{{path: /query, code: required}}]
  - description: rejected, limit is above its maximum and an unknown key is present
    args: {{query: order 1042, limit: 500, sort: newest}}
    status: reject
    errors: [{{path: /limit, code: maximum}}, {{path: /sort, code: additionalProperties}}]
  - description: a parse error, not a contract error - the text is cut off before the closing brace
    json: '{{"query": "order 1042"'
    status: parse_error
    errors: [{{path: "", code: truncated}}]
"""


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
        handle.write(STARTER.format(name=name))
    if not args.quiet:
        print(
            f"created {target}: edit it, then run: toolshape lint {target} && {_generate_command(folder)}"
        )
    return 0


def _generate_command(folder: Path) -> str:
    """The command that regenerates the project ``folder`` belongs to, not a subfolder alone.

    Generating ``contracts/billing`` by itself into ``generated/`` would take every other
    tool out of it (``generate`` refuses that); a folder inside one named ``contracts`` is
    generated with it. Otherwise the folder is the only contracts folder known here.
    """
    for ancestor in [folder, *folder.parents]:
        if ancestor.name == "contracts":
            return (
                "toolshape generate"
                if ancestor == Path("contracts")
                else f"toolshape generate {ancestor}"
            )
    return f"toolshape generate {folder}"


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
    if name == "tests" or name in discovery.PACKAGE_NAMES:
        return "this name is taken by the generated package itself"
    return None


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


def _generate_again(args: argparse.Namespace) -> str:
    """The generate command for the contracts and output folder ``check`` was given, as typed
    (the defaults left out): what brings that output in line."""
    templates = None if args.templates is None else str(args.templates)
    return planning.generate_command(args.contracts, args.out, templates)


def _check(plan: planning.Plan, out: Path, quiet: bool, command: str) -> int:
    findings = checking.check(plan, out, command)
    for finding in findings:
        print(f"{out / finding.path}: {finding.reason}", file=sys.stderr)
        if finding.diff and not quiet:
            print(finding.diff, file=sys.stderr)
    if findings:
        return 1
    if not quiet:
        print(
            f"{_count(len(plan.files), 'file')} in {out} {'is' if len(plan.files) == 1 else 'are'} up to date"
        )
    return 0


# -- toolshape diff -------------------------------------------------------------------


def diff_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The arguments of ``toolshape diff`` (for its sub-parser of the main command line)."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="OLD NEW (contract files or folders); with --base: the contracts folder or file (default: contracts)",
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
        "any: every change but an equivalent one)",
    )
    parser.add_argument(
        "--templates",
        type=Path,
        default=None,
        help="a folder of templates overriding the built-in ones by file name",
    )
    return parser


def _diff_sides(
    args: argparse.Namespace, *, cwd: str | os.PathLike[str] | None = None
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Read (old, new) as the parsed arguments say; raise UsageError for a bad combination."""
    here = Path(cwd) if cwd is not None else Path.cwd()
    if args.base is not None:
        if len(args.paths) > 1:
            raise UsageError("with --base, give at most one contracts folder or file")
        target = args.paths[0] if args.paths else "contracts"
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


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
