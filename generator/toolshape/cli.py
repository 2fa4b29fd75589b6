"""The command line: ``toolshape generate | check | lint``.

Exit codes: 0 all good, 1 findings (contract errors, stale output), 2 usage.
Contract errors go to stderr as ``path:line:col: error: message``; no traceback
is ever shown for a bad contract or a bad command.
"""

from __future__ import annotations

import argparse
import sys
import traceback
from pathlib import Path

from . import __version__, project
from . import contract, export, importer, source
from . import diff as diff_command
from .errors import ContractError
from .render import RenderError

EXAMPLES = """\
examples:
  toolshape generate                      # contracts/ -> generated/
  toolshape generate api/tools --out src/validators
  toolshape check                         # in CI: fails when generated/ is stale
  toolshape lint contracts/get_weather.yaml
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
            name, help=help_text, description=help_text, epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        sub.add_argument("contracts", nargs="?", default="contracts", help="a contract file or folder (default: contracts)")
        if out:
            sub.add_argument("--out", default="generated", help="the output folder (default: generated)")
        sub.add_argument("--templates", type=Path, default=None, help="a folder of templates overriding the built-in ones by file name")
        sub.add_argument("-q", "--quiet", action="store_true", help="print only errors")
        return sub

    add("generate", "generate validator modules and tests (all or nothing)", "toolshape generate contracts --out generated")
    add("check", "exit 1 if the output is stale, missing, extra or hand-edited; write nothing", "toolshape check")
    lint_parser = add("lint", "check contracts only; report problems as path:line:col", "toolshape lint contracts --target openai", out=False)
    lint_parser.add_argument(
        "--target", action="append", choices=export.TARGETS, default=[],
        help="also report what this platform refuses (repeatable)",
    )
    schema_parser = commands.add_parser(
        "schema",
        help="print the tool definition for a platform",
        description="Print one contract's tool definition for a platform; notes on stderr name the "
        "constraints the platform does not enforce (the generated validator is the only enforcement).",
        epilog="example:\n  toolshape schema contracts/get_weather.yaml --target openai",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    schema_parser.add_argument("contract", help="one contract file")
    schema_parser.add_argument("--target", required=True, choices=export.TARGETS)
    schema_parser.add_argument("-q", "--quiet", action="store_true", help="no notes")
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
    import_parser.add_argument("--out", default="contracts", help="where to write the contracts (default: contracts)")
    import_parser.add_argument("--force", action="store_true", help="overwrite existing contract files")
    import_parser.add_argument("-q", "--quiet", action="store_true", help="print only errors and warnings")
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
    diff_command.add_arguments(diff_parser)
    return parser


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
    except project.UsageError as exc:
        print(f"toolshape: error: {exc}", file=sys.stderr)
        return 2
    except ContractError as exc:
        _report(exc.problems)
        return 1
    except project.ProjectError as exc:
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
    except Exception as exc:  # a bug in toolshape: say so, without a traceback
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
        return diff_command.run(args)
    if args.command == "schema":
        return _schema(args)
    if args.command == "import":
        return _import(args)
    env = project.environment(args.templates)
    plan = project.plan(Path(args.contracts), env)
    if args.command == "lint" and args.target:
        findings = [f.problem(g.contract) for g in plan.generated for t in args.target for f in export.lint(g.contract, t)]
        if findings:
            _report(findings)
            return 1
    if args.command == "lint":
        if not args.quiet:
            print(f"{len(plan.generated)} contracts, no problems")
        return 0
    out = Path(args.out)
    if args.command == "check":
        return _check(plan, out, args.quiet)
    changes = project.write(plan, out)
    if not args.quiet:
        changed = sum(1 for c in changes if c.kind != "unchanged")
        print(
            f"generated {len(plan.generated)} modules, {len(plan.test_files)} test files, {changed} changed"
        )
        for change in changes:
            if change.kind != "unchanged":
                print(f"  {change.kind}: {out / change.path}")
    return 0


def _schema(args: argparse.Namespace) -> int:
    path = Path(args.contract)
    if not path.is_file():
        print(f"toolshape: error: {args.contract}: not a contract file", file=sys.stderr)
        return 2
    checked = contract.check(source.load_file(path, args.contract))
    try:
        result = export.export(checked, args.target)
    except export.ExportError as exc:
        _report([f.problem(checked) for f in exc.findings])
        return 1
    print(result.to_json())
    if not args.quiet:
        for note in result.notes:
            print(f"{checked.file}: note: {note}", file=sys.stderr)
    return 0


def _import(args: argparse.Namespace) -> int:
    try:
        imported = importer.import_file(Path(args.file))
    except importer.ContractImportError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    try:
        written = importer.write_imported(imported, Path(args.out), overwrite=args.force)
    except importer.ImportWriteError as exc:
        print(f"toolshape: error: {exc}", file=sys.stderr)
        return 1
    for item, path in zip(imported, written):
        for warning in item.warnings:
            print(f"{path}: warning: {warning}", file=sys.stderr)
        if not args.quiet:
            print(f"imported: {path}")
    if not args.quiet:
        print(f"imported {len(written)} contracts into {args.out}; add examples, then run toolshape generate")
    return 0


def _report(problems: list) -> None:
    """Print problems as path:line:col: error: message, at most MAX_PROBLEMS_PER_FILE per file."""
    shown: dict[str, int] = {}
    hidden: dict[str, int] = {}
    for problem in problems:
        if shown.get(problem.file, 0) < MAX_PROBLEMS_PER_FILE:
            shown[problem.file] = shown.get(problem.file, 0) + 1
            print(problem, file=sys.stderr)
        else:
            hidden[problem.file] = hidden.get(problem.file, 0) + 1
    for file, count in hidden.items():
        print(f"{file}: ... {count} more problems not shown (fix the ones above first)", file=sys.stderr)


def _check(plan: project.Plan, out: Path, quiet: bool) -> int:
    findings = project.check(plan, out)
    for finding in findings:
        print(f"{out / finding.path}: {finding.reason}", file=sys.stderr)
        if finding.diff and not quiet:
            print(finding.diff, file=sys.stderr)
    if findings:
        return 1
    if not quiet:
        print(f"{len(plan.files)} files in {out} are up to date")
    return 0


def run() -> None:
    sys.exit(main())


if __name__ == "__main__":
    run()
