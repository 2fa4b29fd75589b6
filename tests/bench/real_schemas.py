"""Real-world schemas through `toolshape import` and `toolshape generate` (issue 16).

    TOOLSHAPE_REAL_SCHEMAS=/path/to/data python tests/bench/real_schemas.py            # 400 schemas
    python tests/bench/real_schemas.py --data /path/to/data --count 100 --timeout 60
    python tests/bench/real_schemas.py --data /path/to/data --only WashingtonPost     # one set
    python tests/bench/real_schemas.py --data /path/to/data --count 0                 # all of them

The data is JSONSchemaBench (github.com/guidance-ai/jsonschemabench), which is not part of
this project (licence and size): point ``--data`` or ``TOOLSHAPE_REAL_SCHEMAS`` at either of
its two layouts:

- ``maskbench/data``: files ``<Set>---<id>.json`` holding ``{"schema": ..., "tests": [...]}``,
  where every test is ``{"data": ..., "valid": bool}`` (the labelled instances);
- ``data``: folders ``<Set>/<id>.json`` holding the bare schema (no labels).

A file holding ``{"json_schema": ...}`` (a string or an object) is read too. Only schemas
with an object root (``"type": "object"``, or no type and ``properties``) from the sets the
issue measured are sampled: the function-calling set, GitHub, the JSON Schema Store,
Kubernetes, Snowplow and the Washington Post. The sample is deterministic: every k-th file
of those sorted by path, so the same data gives the same sample on every machine;
``--count 0`` runs every one of them instead.

Each schema becomes an MCP tool list ``{"tools": [{"name", "description", "inputSchema"}]}``,
goes through the importer and the generator in-process, each in a forked child limited to
``--timeout`` seconds of CPU (and ``--wall-timeout`` of wall clock, in case it waits; a
timeout is reported as such, never counted as generated), and every
labelled instance's verdict from the generated module's ``validate`` is compared with the
label. Printed: how many import, how many generate, time per schema (CPU seconds: median,
max, the slowest; wall-clock time on a machine shared with other work measures the load
more than the schema), every failure grouped by reason, and the labelled agreement. Nothing here is a
pytest test; tests/test_real_schemas.py runs a small sample of it.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import multiprocessing.connection
import os
import re
import resource
import signal
import statistics
import sys
import time
import traceback
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "generator"))  # toolshape, even when not installed

from toolshape.codegen import render  # noqa: E402 - after sys.path above
from toolshape.contract.errors import ContractError  # noqa: E402 - after sys.path above
from toolshape.platforms import importer  # noqa: E402 - after sys.path above
from toolshape.project import headers, pipeline, runtime  # noqa: E402 - after sys.path above

ENV_VAR = "TOOLSHAPE_REAL_SCHEMAS"
#: The sets issue 16 measured (file name prefixes / folder names in JSONSchemaBench).
SETS = ("Glaiveai2K", "Github_", "JsonSchemaStore", "Kubernetes", "Snowplow", "WashingtonPost")


@dataclass(frozen=True)
class Sample:
    """One schema of the data, with its labelled instances ((instance, valid) pairs)."""

    path: Path
    name: str
    schema: dict[str, Any]
    labelled: tuple[tuple[Any, bool], ...]


@dataclass
class Outcome:
    """What happened to one schema: ``stage`` is "generated", "import", "generate",
    "internal" or "timeout"; ``reason`` groups failures; agreement counts labelled instances."""

    name: str
    stage: str
    reason: str = ""
    detail: str = ""
    seconds: float = 0.0  # CPU seconds spent importing and generating the schema
    wall: float = 0.0  # wall-clock seconds, set by run_limited
    agreed: int = 0
    disagreed: list[str] = field(default_factory=list)


# -- reading the data ----------------------------------------------------------------


def _set_of(path: Path, root: Path) -> str:
    """The set a file belongs to: its folder under the root, or the prefix before ``---``."""
    relative = path.relative_to(root)
    return relative.parts[0] if len(relative.parts) > 1 else path.name.split("---", 1)[0]


def _schema_of(data: Any) -> Any:
    """The schema inside one data file, whichever of the layouts it uses."""
    if isinstance(data, dict) and "schema" in data and ("tests" in data or "meta" in data):
        return data["schema"]
    if isinstance(data, dict) and "json_schema" in data:
        inner = data["json_schema"]
        return json.loads(inner) if isinstance(inner, str) else inner
    return data


def _object_root(schema: Any) -> bool:
    """Usable as tool parameters: the root is an object schema."""
    if not isinstance(schema, dict):
        return False
    kind = schema.get("type")
    return kind == "object" or (kind is None and isinstance(schema.get("properties"), dict))


def _labelled(data: Any) -> tuple[tuple[Any, bool], ...]:
    tests = data.get("tests") if isinstance(data, dict) else None
    if not isinstance(tests, list):
        return ()
    return tuple(
        (t["data"], bool(t["valid"]))
        for t in tests
        if isinstance(t, dict) and "data" in t and "valid" in t
    )


def candidates(root: Path, only: str | None = None) -> list[Path]:
    """Every data file of the measured sets, sorted by path (the order sampling relies on)."""
    paths = sorted(p for p in root.rglob("*.json") if _set_of(p, root).startswith(SETS))
    return [p for p in paths if only is None or _set_of(p, root).startswith(only)]


def load(path: Path, root: Path) -> Sample | None:
    """The sample in one file, or None when it is not an object-root schema."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        schema = _schema_of(data)
    except (OSError, ValueError):
        return None
    if not _object_root(schema):
        return None
    name = str(path.relative_to(root).with_suffix(""))
    return Sample(path, name, schema, _labelled(data))


def sample(root: Path, count: int, only: str | None = None) -> tuple[list[Sample], int]:
    """``count`` object-root samples spread evenly over the sorted files (every k-th), and
    how many object-root schemas there were in all; a ``count`` of 0 takes them all."""
    usable = [s for s in (load(p, root) for p in candidates(root, only)) if s is not None]
    if count <= 0 or count >= len(usable):
        return usable, len(usable)
    step = len(usable) / count
    return [usable[int(i * step)] for i in range(count)], len(usable)


# -- one schema ----------------------------------------------------------------------

_NUMBER = re.compile(r"\b\d+(\.\d+)?\b")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`")


def kind_of(message: str) -> str:
    """A failure message without its particulars (names, numbers), to group failures by."""
    text = _QUOTED.sub("'…'", message)
    text = _NUMBER.sub("N", text)
    return text[:110]


_CONTEXT: list[Any] = []


def _context() -> Any:
    """One generation context for the run, its fingerprints computed once (in the parent,
    before forking), as `toolshape generate` computes them once per run: not per schema."""
    if not _CONTEXT:
        context = render.generation_context()
        headers.digest(b"", context)
        _CONTEXT.append(context)
    return _CONTEXT[0]


def run_one(item: Sample) -> Outcome:
    """Import and generate one schema in this process; never raises."""
    context = _context()
    tools = {
        "tools": [
            {"name": "tool", "description": "A real-world schema.", "inputSchema": item.schema}
        ]
    }
    start = time.process_time()
    try:
        imported = importer.import_data(tools, f"{item.name}.json", "tool")
    except importer.ContractImportError as exc:
        message = exc.problems[0].message if exc.problems else str(exc)
        return Outcome(
            item.name, "import", kind_of(message), str(exc)[:400], time.process_time() - start
        )
    except Exception as exc:  # noqa: BLE001 (an internal error: the point of the measurement)
        return Outcome(
            item.name,
            "internal",
            f"import: {type(exc).__name__}",
            _trace(exc),
            time.process_time() - start,
        )
    contract = imported[0]
    try:
        relative = PurePosixPath(contract.relative_path)
        done = pipeline.generate(
            contract.yaml_text.encode(), contract.relative_path, relative, context
        )
    except ContractError as exc:
        errors = [p for p in exc.problems if p.severity == "error"] or exc.problems
        return Outcome(
            item.name,
            "generate",
            kind_of(errors[0].message),
            str(exc)[:400],
            time.process_time() - start,
        )
    except Exception as exc:  # noqa: BLE001 (any other exception is a toolshape bug, reported)
        return Outcome(
            item.name,
            "internal",
            f"generate: {type(exc).__name__}",
            _trace(exc),
            time.process_time() - start,
        )
    seconds = time.process_time() - start
    module = runtime.load_module(done.module_source, str(done.module_path))
    outcome = Outcome(item.name, "generated", seconds=seconds)
    for index, (instance, valid) in enumerate(item.labelled):
        try:
            verdict = module.validate(instance).ok
        except Exception as exc:  # noqa: BLE001 (the generated module must never raise)
            outcome.disagreed.append(
                f"instance {index}: validate raised {type(exc).__name__}: {exc}"
            )
            continue
        if verdict == valid:
            outcome.agreed += 1
        else:
            outcome.disagreed.append(
                f"instance {index}: labelled {'valid' if valid else 'invalid'}, got {verdict}"
            )
    return outcome


def _trace(exc: BaseException) -> str:
    lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
    return "".join(lines[-6:])[-1500:]


def _child(item: Sample, conn: multiprocessing.connection.Connection, cpu_limit: float) -> None:
    # Past the soft limit the kernel sends SIGXCPU, which ends the process; SIGKILL at the hard.
    soft = math.ceil(cpu_limit)
    resource.setrlimit(resource.RLIMIT_CPU, (soft, soft + 5))
    conn.send(run_one(item))
    conn.close()


def run_limited(item: Sample, timeout: float, wall_timeout: float = 600.0) -> Outcome:
    """``run_one`` in a forked child, stopped after ``timeout`` seconds of CPU (a forked child's
    CPU time starts at zero), or ``wall_timeout`` seconds of wall clock."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    start = time.perf_counter()
    child = context.Process(target=_child, args=(item, send, timeout))
    child.start()
    send.close()
    outcome: Outcome | None = None
    ended = receive.poll(wall_timeout)  # an outcome, or the child's end of the pipe closed
    if ended:
        try:
            outcome = receive.recv()
        except EOFError:
            outcome = None
    wall = time.perf_counter() - start
    if not ended:
        child.kill()
        child.join()
        reason = f"more than {wall_timeout:g} s of wall clock"
        return Outcome(item.name, "timeout", reason, wall=wall)
    child.join()
    if outcome is None and child.exitcode in (-signal.SIGXCPU, -signal.SIGKILL):
        reason = f"more than {timeout:g} s of CPU"
        return Outcome(item.name, "timeout", reason, seconds=timeout, wall=wall)
    if outcome is None:
        reason = f"child died (exit {child.exitcode})"
        return Outcome(item.name, "internal", reason, wall=wall)
    outcome.wall = wall
    return outcome


# -- the report ----------------------------------------------------------------------


def report(outcomes: list[Outcome], total: int, verbose: bool) -> str:
    """The figures issue 16 asks for, as text."""
    n = len(outcomes)
    by_stage = Counter(o.stage for o in outcomes)
    imported = n - by_stage["import"] - sum(1 for o in outcomes if o.reason.startswith("import:"))
    generated = by_stage["generated"]
    lines = [f"object-root schemas in the data: {total}; sampled: {n}"]
    lines.append(f"import:   {imported}/{n} ({100 * imported / max(n, 1):.1f}%)")
    lines.append(f"generate: {generated}/{n} ({100 * generated / max(n, 1):.1f}%)")
    times = sorted((o.seconds, o.name) for o in outcomes if o.stage == "generated")
    if times:
        median = statistics.median(t for t, _ in times)
        walls = [o.wall for o in outcomes if o.stage == "generated"]
        lines.append(
            f"CPU time per generated schema: median {median:.2f} s, max {times[-1][0]:.2f} s "
            f"({times[-1][1]}); wall clock max {max(walls):.2f} s"
        )
        lines.append(
            "slowest: " + ", ".join(f"{name} {t:.1f} s" for t, name in reversed(times[-5:]))
        )
    labelled = sum(o.agreed + len(o.disagreed) for o in outcomes)
    agreed = sum(o.agreed for o in outcomes)
    lines.append(
        f"labelled instances checked: {labelled}; agree: {agreed} ({100 * agreed / max(labelled, 1):.1f}%)"
    )
    for o in outcomes:
        for line in o.disagreed:
            lines.append(f"  DISAGREE {o.name}: {line}")
    groups: dict[tuple[str, str], list[Outcome]] = defaultdict(list)
    for o in outcomes:
        if o.stage != "generated":
            groups[(o.stage, o.reason)].append(o)
    lines.append("failures by reason:")
    for (stage, reason), members in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0])):
        names = ", ".join(m.name for m in members[:4]) + (", …" if len(members) > 4 else "")
        lines.append(f"  {len(members):4d}  [{stage}] {reason}  ({names})")
        if verbose or stage == "internal":
            lines.append("        " + members[0].detail.replace("\n", "\n        "))
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--data",
        type=Path,
        default=os.environ.get(ENV_VAR),
        help=f"the data folder (or ${ENV_VAR})",
    )
    parser.add_argument(
        "--count",
        type=int,
        default=400,
        help="how many schemas to sample (default 400; 0 runs them all)",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=60.0,
        help="CPU seconds per schema before it counts as a timeout (default 60)",
    )
    parser.add_argument(
        "--wall-timeout",
        type=float,
        default=600.0,
        help="wall-clock seconds per schema before it counts as a timeout (default 600)",
    )
    parser.add_argument("--only", help="only the sets whose name starts with this")
    parser.add_argument(
        "--name", action="append", help="only this sample (a path under the data, no .json)"
    )
    parser.add_argument(
        "--skip", type=int, default=0, help="leave out the first N of the sample (to resume a run)"
    )
    parser.add_argument(
        "--verbose", action="store_true", help="print one full message per failure group"
    )
    args = parser.parse_args(argv)
    if args.data is None or not Path(args.data).is_dir():
        print(
            f"no data: pass --data or set {ENV_VAR} to JSONSchemaBench's data folder",
            file=sys.stderr,
        )
        return 2
    root = Path(args.data)
    chosen, total = sample(root, args.count, args.only)
    if args.name:
        chosen = [s for s in chosen if s.name in args.name] or [
            s for s in (load(root / f"{n}.json", root) for n in args.name) if s is not None
        ]
    chosen = chosen[args.skip :]
    _context()
    outcomes = []
    for index, item in enumerate(chosen, 1):
        outcome = run_limited(item, args.timeout, args.wall_timeout)
        outcomes.append(outcome)
        labels = (
            f" labels {outcome.agreed}/{outcome.agreed + len(outcome.disagreed)}"
            if item.labelled
            else ""
        )
        line = f"[{index}/{len(chosen)}] {item.name}: {outcome.stage} {outcome.seconds:.2f} s{labels} {outcome.reason} (wall {outcome.wall:.2f} s)"
        print(line, flush=True)
    print(report(outcomes, total, args.verbose))
    return 0


if __name__ == "__main__":
    sys.exit(main())
