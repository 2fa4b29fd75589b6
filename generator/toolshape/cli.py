"""The command line: ``toolshape generate | check | lint``.

Exit codes: 0 all good, 1 findings (contract errors, stale output), 2 usage.
Contract errors go to stderr as ``path:line:col: error: message``; no traceback
is ever shown for a bad contract or a bad command.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from . import __version__, project
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
    add("lint", "check contracts only; report problems as path:line:col", "toolshape lint contracts", out=False)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.templates is not None and not args.templates.is_dir():
        print(f"toolshape: error: --templates {args.templates}: no such folder", file=sys.stderr)
        return 2
    try:
        env = project.environment(args.templates)
        plan = project.plan(Path(args.contracts), env)
        if args.command == "lint":
            if not args.quiet:
                print(f"{len(plan.generated)} contracts, no problems")
            return 0
        out = Path(args.out)
        if args.command == "check":
            return _check(plan, out, args.quiet)
        changes = project.write(plan, out)
    except ContractError as exc:
        for problem in exc.problems:
            print(problem, file=sys.stderr)
        return 1
    except RenderError as exc:
        print(f"toolshape: template error: {exc}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"toolshape: error: {exc}", file=sys.stderr)
        return 1
    if not args.quiet:
        changed = sum(1 for c in changes if c.kind != "unchanged")
        tests = sum(1 for g in plan.generated)
        print(f"generated {len(plan.generated)} modules, {tests} test files, {changed} changed")
        for change in changes:
            if change.kind != "unchanged":
                print(f"  {change.kind}: {out / change.path}")
    return 0


def _check(plan: project.Plan, out: Path, quiet: bool) -> int:
    findings = project.check(plan, out)
    for finding in findings:
        print(f"{out / finding.path}: {str(finding).split(': ', 1)[1]}", file=sys.stderr)
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
