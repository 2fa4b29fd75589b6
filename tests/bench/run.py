"""The toolshape benchmark: generated validators against a hand-written floor and the peers.

    python tests/bench/run.py              # full run (about a minute)
    python tests/bench/run.py --quick      # smoke run (a few seconds of timing)
    python tests/bench/run.py --repeat 15  # more rounds, for a quieter table
    python tests/bench/run.py --scale      # also: generator scale over 1,000 synthetic contracts

Every number is the best of ``--repeat`` rounds; in each round every contender
runs one timed loop, in turn (A, B, C, ..., A, B, C, ...), with the garbage
collector off during the loop. Times are ns per call; ratios are to the
hand-written floor (tests/bench/floor.py), targets are ratios too (issue 4), so
they hold on a noisy machine. Before anything is timed, every contender must
agree on accept/reject for every input, and the floor must report the same
(path, code) errors as the generated module on every input and every case
toolshape derives from the contract. Nothing here is a pytest test.
"""

from __future__ import annotations

import argparse
import copy
import gc
import importlib.metadata
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from time import perf_counter_ns
from typing import Any

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO))  # `from generated import get_weather`
sys.path.insert(0, str(REPO / "generator"))  # toolshape, even when not installed
sys.path.insert(0, str(HERE))

import floor  # noqa: E402
import peers  # noqa: E402
import toolshape  # noqa: E402
import toolshape.codegen.cases  # noqa: E402
import toolshape.codegen.literals  # noqa: E402
import toolshape.codegen.render  # noqa: E402
import toolshape.contract.checker  # noqa: E402
import toolshape.contract.source  # noqa: E402
import toolshape.contract.tool_hints  # noqa: E402
import toolshape.platforms.export  # noqa: E402
import toolshape.project.pipeline  # noqa: E402
import toolshape.project.planning  # noqa: E402
import toolshape.project.runtime  # noqa: E402
import yaml  # noqa: E402

LARGE_CONTRACT = HERE / "contracts" / "large_order.yaml"
#: A contract with an ``output``: its result is benchmarked (validate_result, parse_result).
RESULT_CONTRACT = HERE / "contracts" / "convert_time.yaml"

CONTENDERS = (
    "generated",
    "floor",
    "plain floor",
    "fastjsonschema",
    "jsonschema",
    "pydantic",
    "msgspec",
)
PEERS = CONTENDERS[3:]
RESULT_FUNCTIONS = ("validate_result", "parse_result")

#: validate(): the generated module at most this many times the floor.
FLOOR_TARGET = 1.10
#: A refusal (reject or parse error): the generated module, feedback searches included, at
#: most this many times the floor with plain messages (no did-you-mean, json's own words).
REFUSAL_TARGET = 1.30
#: How many times faster than each peer the generated module must be (peer time / generated time).
VALID_TARGETS = {"fastjsonschema": 1.25, "jsonschema": 15.0, "pydantic": 1.4, "msgspec": 1.0}
INVALID_TARGETS = {"fastjsonschema": 2.5, "jsonschema": 10.0, "pydantic": 1.0, "msgspec": 1.0}
#: parse(): only the floor has an explicit ratio; "ahead of every peer on every input" gives 1.0.
PARSE_TARGETS = {"fastjsonschema": 1.0, "jsonschema": 1.0, "pydantic": 1.0, "msgspec": 1.0}
IMPORT_TARGET_MS = 2.0
#: `import <package>` plus its first validate_call, with 1,000 tools in the package (issue 15).
GATE_TARGET_MS = 100.0
GATE_TOOLS = 1000
#: Seconds for 1,000 contracts (issue 13: check generates everything again, within 60 s on 2
#: cores). Which steps scale with the count: see scale().
SCALE_TARGETS = {
    "generate (cold)": 30.0,
    "check (warm cache)": 5.0,
    "check (cold cache)": 30.0,
    "check --headers-only": 5.0,
    "generate (one changed)": 2.0,
    "generate (cold cache)": 30.0,
}


# -- the machine -------------------------------------------------------------------------


def machine() -> list[str]:
    cpu = "unknown CPU"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        cpu = platform.processor() or cpu
    try:
        usable = len(os.sched_getaffinity(0))
    except AttributeError:
        usable = os.cpu_count() or 1
    versions = []
    for name in ("fastjsonschema", "jsonschema", "pydantic", "msgspec", "black", "jinja2"):
        try:
            versions.append(f"{name} {importlib.metadata.version(name)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{name} ?")
    try:
        commit = subprocess.run(
            ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            [
                "git",
                "-C",
                str(REPO),
                "status",
                "--porcelain",
                "--",
                "generator",
                "templates",
                "generated",
            ],
            capture_output=True,
            text=True,
        ).stdout.strip()
        commit += " (+ uncommitted changes to generator/templates/generated)" if dirty else ""
    except (OSError, subprocess.CalledProcessError):  # no git, or not a repository
        commit = "?"
    return [
        f"machine: {cpu}, {os.cpu_count()} cores ({usable} usable), {platform.system()} {platform.release()}",
        f"python:  {platform.python_implementation()} {platform.python_version()} ({sys.executable})",
        f"peers:   {', '.join(versions)}",
        f"toolshape {toolshape.__version__} at commit {commit}",
    ]


# -- contracts, inputs, contenders -----------------------------------------------------------


@dataclass
class Row:
    contract: str
    name: str
    kind: str  # "validate" | "parse"
    data: Any
    expected: str  # "accept" | "reject" | "parse_error"
    calls: dict[str, Callable[[Any], Any]] = field(default_factory=dict)
    best: dict[str, float] = field(default_factory=dict)  # ns per call
    loops: dict[str, int] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return self.expected == "accept"


@dataclass
class Bench:
    name: str
    module: Any  # the generated module
    schema: dict[str, Any]
    checked: Any  # toolshape's checked contract (for the derived cases)
    module_path: Path  # a file holding the generated module (for the import time)
    rows: list[Row] = field(default_factory=list)
    accepted: dict[str, Callable[[Any], bool]] = field(default_factory=dict)
    #: The module's functions under test: the arguments' pair, or the result's
    #: ("validate_result", "parse_result").
    functions: tuple[str, str] = ("validate", "parse")

    @property
    def validate(self) -> Callable[[Any], Any]:
        found: Callable[[Any], Any] = getattr(self.module, self.functions[0])
        return found

    @property
    def parse(self) -> Callable[[Any], Any]:
        found: Callable[[Any], Any] = getattr(self.module, self.functions[1])
        return found


def _generate(raw: bytes, label: str, relative: str) -> Any:
    return toolshape.project.pipeline.generate(
        raw, label, PurePosixPath(relative), toolshape.codegen.render.generation_context()
    )


def load_benches(workdir: Path) -> list[Bench]:
    from generated import get_weather  # the module as committed, from the repository

    # Only its checked contract is needed (for the derived cases): no rendering.
    weather_checked = toolshape.contract.checker.check(
        toolshape.contract.source.load(
            (REPO / "contracts/get_weather.yaml").read_bytes(), "contracts/get_weather.yaml"
        )
    )
    raw = LARGE_CONTRACT.read_bytes()
    built = _generate(raw, "tests/bench/contracts/large_order.yaml", "large_order.yaml")
    # A package of its own, as generated: the module beside the runtime it imports.
    package = workdir / "bench_order"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "_runtime.py").write_text(
        toolshape.project.runtime.runtime_source(toolshape.codegen.render.generation_context()),
        encoding="utf-8",
    )
    large_path = package / "large_order.py"
    large_path.write_text(built.module_source, encoding="utf-8")
    large = toolshape.project.runtime.load_module(built.module_source, "large_order.py")

    weather = Bench(
        "get_weather",
        get_weather,
        get_weather.INPUT_SCHEMA,
        weather_checked,
        Path(get_weather.__file__),
    )
    order = Bench("large_order", large, large.INPUT_SCHEMA, built.contract, large_path)

    good = {"city": "Lisbon", "unit": "c"}
    text = json.dumps(good)
    weather.rows = [
        Row("get_weather", "valid", "validate", good, "accept"),
        Row("get_weather", "missing key", "validate", {"city": "Lisbon"}, "reject"),
        Row("get_weather", "wrong type", "validate", {"city": 42, "unit": "c"}, "reject"),
        Row("get_weather", "unknown key", "validate", {**good, "country": "PT"}, "reject"),
        Row("get_weather", "top-level array", "validate", [good], "reject"),
        Row("get_weather", "parse: valid", "parse", text, "accept"),
        Row("get_weather", "parse: missing key", "parse", json.dumps({"city": "Lisbon"}), "reject"),
        Row("get_weather", "parse: cut off", "parse", text[: len(text) * 2 // 3], "parse_error"),
    ]

    order_good = yaml.safe_load(raw)["examples"][0]["args"]
    missing = copy.deepcopy(order_good)
    del missing["email"]
    wrong_top = {**copy.deepcopy(order_good), "priority": "high"}
    wrong_nested = copy.deepcopy(order_good)
    wrong_nested["shipping_address"]["postal_code"] = 12345
    wrong_item = copy.deepcopy(order_good)
    wrong_item["items"][1]["quantity"] = "2"
    order_text = json.dumps(order_good)
    order.rows = [
        Row("large_order", "valid", "validate", order_good, "accept"),
        Row("large_order", "missing key", "validate", missing, "reject"),
        Row("large_order", "wrong type (top level)", "validate", wrong_top, "reject"),
        Row("large_order", "wrong type (nested object)", "validate", wrong_nested, "reject"),
        Row("large_order", "wrong type (array item)", "validate", wrong_item, "reject"),
        Row(
            "large_order",
            "unknown key",
            "validate",
            {**copy.deepcopy(order_good), "gift": True},
            "reject",
        ),
        Row("large_order", "top-level array", "validate", [order_good], "reject"),
        Row("large_order", "parse: valid", "parse", order_text, "accept"),
        Row("large_order", "parse: missing key", "parse", json.dumps(missing), "reject"),
        Row(
            "large_order",
            "parse: cut off",
            "parse",
            order_text[: len(order_text) * 2 // 3],
            "parse_error",
        ),
    ]

    benches = [weather, order, result_bench(package)]
    plain = floor.plain_floors()
    for bench in benches:
        floor_validate, floor_parse = floor.FLOORS[bench.name]
        pairs = {
            "generated": (bench.validate, bench.parse, lambda r: r.status == "accept"),
            "floor": (floor_validate, floor_parse, lambda r: r.status == "accept"),
            "plain floor": (*plain[bench.name], lambda r: r.status == "accept"),
            "fastjsonschema": peers.fastjsonschema_pair(bench.schema),
            "jsonschema": peers.jsonschema_pair(bench.schema),
            "pydantic": peers.pydantic_pair(peers.MODELS[bench.name]),
            "msgspec": peers.msgspec_pair(peers.STRUCTS[bench.name]),
        }
        for name, (validate, parse, accepted) in pairs.items():
            bench.accepted[name] = accepted
            for row in bench.rows:
                row.calls[name] = validate if row.kind == "validate" else parse
    return benches


def result_bench(package: Path) -> Bench:
    """The reference time server's convert_time result, through validate_result and
    parse_result: the result side's accept path against the floor."""
    raw = RESULT_CONTRACT.read_bytes()
    built = _generate(raw, "tests/bench/contracts/convert_time.yaml", "convert_time.yaml")
    path = package / "convert_time.py"
    path.write_text(built.module_source, encoding="utf-8")
    module = toolshape.project.runtime.load_module(built.module_source, "convert_time.py")
    side = built.contract.result_side()
    assert side is not None
    bench = Bench(
        "convert_time", module, module.OUTPUT_SCHEMA, side, path, functions=RESULT_FUNCTIONS
    )
    good = yaml.safe_load(raw)["examples"][0]["result"]
    missing = copy.deepcopy(good)
    del missing["target"]["is_dst"]
    wrong_nested = copy.deepcopy(good)
    wrong_nested["source"]["is_dst"] = "false"
    text = json.dumps(good)
    bench.rows = [
        Row("convert_time", "result: valid", "validate", good, "accept"),
        Row("convert_time", "result: missing key", "validate", missing, "reject"),
        Row("convert_time", "result: wrong type", "validate", wrong_nested, "reject"),
        Row("convert_time", "result: top-level array", "validate", [good], "reject"),
        Row("convert_time", "parse_result: valid", "parse", text, "accept"),
        Row(
            "convert_time",
            "parse_result: cut off",
            "parse",
            text[: len(text) * 2 // 3],
            "parse_error",
        ),
    ]
    return bench


# -- agreement, before any timing ------------------------------------------------------------


def _pairs(result: Any) -> set[tuple[str, str]]:
    return {(e.path, e.code) for e in result.errors}


def _triples(result: Any) -> list[tuple[str, str, str]]:
    """Every error with its message: the floor builds the generated module's messages, word for word."""
    return sorted((e.path, e.code, e.message) for e in result.errors)


def check_agreement(benches: list[Bench]) -> list[str]:
    """Assert every contender agrees on every input; return what was checked, for the report."""
    done = []
    for bench in benches:
        for row in bench.rows:
            generated = row.calls["generated"](row.data)
            assert generated.status == row.expected, (bench.name, row.name, generated)
            floored = row.calls["floor"](row.data)
            assert floored.status == row.expected, (bench.name, row.name, floored)
            plain = row.calls["plain floor"](row.data)
            assert plain.status == row.expected, (bench.name, row.name, plain)
            if (
                row.expected == "parse_error"
            ):  # the parse-error wording is the generated module's own
                assert _pairs(floored) == _pairs(generated), (
                    bench.name,
                    row.name,
                    floored,
                    generated,
                )
            else:
                assert _triples(floored) == _triples(generated), (
                    f"{bench.name} / {row.name}: floor reports {_triples(floored)}, generated {_triples(generated)}"
                )
            for name in PEERS:
                outcome = row.calls[name](row.data)
                agrees = bench.accepted[name](outcome) == (row.expected == "accept")
                assert agrees, f"{name} disagrees on {bench.name} / {row.name}: {outcome!r}"[:2000]
        # The floor is held to the whole contract, not only to the benchmark inputs.
        cases = toolshape.codegen.cases.derive(bench.checked).cases
        validate_floor = floor.FLOORS[bench.name][0]
        # (path, code, message) triples, or (path, code) pairs for parse errors
        got: Collection[tuple[str, ...]]
        want: Collection[tuple[str, ...]]
        for case in cases:
            got = _triples(validate_floor(copy.deepcopy(case.data)))
            want = _triples(bench.validate(copy.deepcopy(case.data)))
            assert got == want, (
                f"floor differs from generated on {bench.name} case {case.name!r}: {got} vs {want}"
            )
        examples = list(bench.checked.examples)
        for example in examples:
            if example.has_args:
                got = _triples(validate_floor(copy.deepcopy(example.args)))
                want = _triples(bench.validate(copy.deepcopy(example.args)))
            else:
                got = {(e.path, e.code) for e in floor.FLOORS[bench.name][1](example.json).errors}
                want = {(e.path, e.code) for e in bench.parse(example.json).errors}
            assert got == want, (
                f"floor differs from generated on {bench.name} example {example.index + 1}: {sorted(got)} vs {sorted(want)}"
            )
        done.append(
            f"{bench.name}: {len(bench.rows)} inputs x {len(CONTENDERS)} contenders agree on accept/reject; "
            f"floor == generated (path, code, message) on them, on {len(cases)} derived cases and {len(examples)} examples "
            f"(parse errors: path and code)"
        )
    return done


# -- timing ------------------------------------------------------------------------------------

UNROLL = 10


def _make_loop() -> Callable[..., int]:
    body = "".join("        f(x)\n" for _ in range(UNROLL))
    source = (
        "def loop(f, x, n, clock):\n"
        "    r = range(n)\n"
        "    t0 = clock()\n"
        "    for _ in r:\n" + body + "    return clock() - t0\n"
    )
    namespace: dict[str, Any] = {}
    exec(source, namespace)
    loop: Callable[..., int] = namespace["loop"]
    return loop


LOOP = _make_loop()


def _timed(f: Callable[..., Any], x: Any, n: int) -> int:
    gc.disable()
    try:
        return LOOP(f, x, n, perf_counter_ns)
    finally:
        gc.enable()


def calibrate(f: Callable[..., Any], x: Any, target_ns: int) -> int:
    """Loop iterations (of UNROLL calls) that take about target_ns."""
    n = 1
    while True:
        elapsed = _timed(f, x, n)
        if elapsed >= target_ns / 8 or n >= 1 << 22:
            return max(1, round(n * target_ns / max(elapsed, 1)))
        n *= 4


def time_rows(benches: list[Bench], repeat: int, target_ns: int, progress: bool) -> None:
    rows = [row for bench in benches for row in bench.rows]
    for index, row in enumerate(rows):
        if progress:
            print(
                f"\r  timing {index + 1}/{len(rows)}: {row.contract} / {row.name:<30}",
                end="",
                file=sys.stderr,
                flush=True,
            )
        gc.collect()
        for name in CONTENDERS:
            row.loops[name] = calibrate(row.calls[name], row.data, target_ns)
            row.best[name] = float("inf")
        for round_ in range(repeat):
            # Interleaved: every contender once per round; the starting one rotates.
            order = CONTENDERS[round_ % len(CONTENDERS) :] + CONTENDERS[: round_ % len(CONTENDERS)]
            for name in order:
                n = row.loops[name]
                per_call = _timed(row.calls[name], row.data, n) / (n * UNROLL)
                row.best[name] = min(row.best[name], per_call)
    if progress:
        print("\r" + " " * 80 + "\r", end="", file=sys.stderr, flush=True)


# -- the table ------------------------------------------------------------------------------------


def _ns(value: float) -> str:
    if value >= 100_000:
        return f"{value / 1000:,.0f}us"
    if value >= 10_000:
        return f"{value / 1000:.1f}us"
    return f"{value:,.0f}"


def print_table(benches: list[Bench]) -> list[tuple[str, str, str, float, float, bool]]:
    """Print times and targets; return every (row, check, ratio, target, passed)."""
    rows = [row for bench in benches for row in bench.rows]
    head = f"{'contract':<12} {'input':<27} {'floor':>7}"
    for name in CONTENDERS:
        if name != "floor":
            head += f" | {name:>16}"
    print(
        "Time per call, best of all rounds (ns; us = microseconds), and the ratio to the hand-written floor:"
    )
    print()
    print(head)
    print("-" * len(head))
    last = None
    for row in rows:
        if last is not None and row.contract != last:
            print()
        last = row.contract
        base = row.best["floor"]
        line = f"{row.contract:<12} {row.name:<27} {_ns(base):>7}"
        for name in CONTENDERS:
            if name == "floor":
                continue
            value = row.best[name]
            line += f" | {_ns(value):>8} {value / base:>6.2f}x"
        print(line)
    print()
    print(
        "Targets (issue 4). generated/floor: at most the target; peer/generated (how many times faster"
    )
    print("the generated module is than the peer): at least the target.")
    print()
    checks_head = f"{'contract':<12} {'input':<27} {'generated/floor':>21}"
    for name in PEERS:
        checks_head += f" | {name + '/gen':>24}"
    checks_head += " | row"
    print(checks_head)
    print("-" * len(checks_head))
    results = []
    last = None
    for row in rows:
        if last is not None and row.contract != last:
            print()
        last = row.contract
        gen = row.best["generated"]
        ratio = gen / row.best["floor"]
        ok = ratio <= FLOOR_TARGET
        results.append((row.contract, row.name, "generated/floor", ratio, FLOOR_TARGET, ok))
        if not row.valid:
            plainly = gen / row.best["plain floor"]
            results.append(
                (
                    row.contract,
                    row.name,
                    "generated/plain floor",
                    plainly,
                    REFUSAL_TARGET,
                    plainly <= REFUSAL_TARGET,
                )
            )
        line = f"{row.contract:<12} {row.name:<27} {ratio:>6.2f} <={FLOOR_TARGET:<5.2f} {'PASS' if ok else 'MISS':>4}"
        row_ok = ok
        targets = (
            PARSE_TARGETS
            if row.kind == "parse"
            else VALID_TARGETS
            if row.valid
            else INVALID_TARGETS
        )
        for name in PEERS:
            speedup = row.best[name] / gen
            target = targets[name]
            ok = speedup >= target
            row_ok &= ok
            results.append((row.contract, row.name, f"{name}/generated", speedup, target, ok))
            line += f" | {speedup:>8.2f} >={target:<6.2f} {'PASS' if ok else 'MISS':>5}"
        line += f" | {'PASS' if row_ok else 'MISS'}"
        print(line)
    print()
    print(
        "validate() peer targets: valid input fastjsonschema >=1.25, pydantic >=1.4, jsonschema >=15, msgspec ahead (>=1);"
    )
    print(
        "invalid input fastjsonschema >=2.5, jsonschema >=10, pydantic and msgspec ahead (>=1). parse(): <=1.10x the"
    )
    print(
        "strict-json floor; the peers' >=1 on parse rows follows from 'ahead of every peer on every input'."
    )
    return results


# -- import time ------------------------------------------------------------------------------------

_PROBE = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
t0 = time.perf_counter_ns()
import importlib
if sys.argv[3] == "warm-deps":
    import json, math, re, typing
    importlib.import_module(sys.argv[2].rpartition(".")[0] + "._runtime")
t1 = time.perf_counter_ns()
module = importlib.import_module(sys.argv[2])
t2 = time.perf_counter_ns()
print(t2 - t1, t2 - t0)
"""


def _probe(path: Path, mode: str, env: dict[str, str]) -> tuple[float, float]:
    """Import the module at ``path`` (in its package, the folder above it) in a fresh interpreter.

    "warm-deps": the stdlib modules and the package's _runtime imported first (a service
    has them already); the first figure is the module alone, the second everything."""
    name = f"{path.parent.name}.{path.stem}"
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, str(path.parent.parent), name, mode],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout.split()
    return int(out[0]) / 1e6, int(out[1]) / 1e6


def _importtime(env: dict[str, str]) -> dict[str, tuple[float, float]]:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import generated.get_weather"],
        capture_output=True,
        text=True,
        env=env,
        cwd=REPO,
        check=True,
    )
    found: dict[str, tuple[float, float]] = {}
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)", line)
        if match:  # the first line of a name is where it was really imported
            found.setdefault(
                match.group(3), (int(match.group(1)) / 1000, int(match.group(2)) / 1000)
            )
    return found


def import_times(benches: list[Bench], runs: int) -> list[tuple[str, float, bool]]:
    print(
        f"Import time of a generated module (fresh interpreter each run, best of {runs}; bytecode cached):"
    )
    results = []
    with tempfile.TemporaryDirectory(prefix="toolshape-bench-pyc-") as cache:
        env = dict(os.environ, PYTHONPYCACHEPREFIX=cache, PYTHONDONTWRITEBYTECODE="")
        env.pop("PYTHONDONTWRITEBYTECODE")
        env["PYTHONPATH"] = os.pathsep.join([str(REPO), env.get("PYTHONPATH", "")]).rstrip(
            os.pathsep
        )
        _importtime(env)  # writes the bytecode cache
        best: dict[str, list[float]] = {}
        for _ in range(runs):
            for name, (own, total) in _importtime(env).items():
                if name in ("generated.get_weather", "generated"):
                    old = best.setdefault(name, [own, total])
                    best[name] = [min(old[0], own), min(old[1], total)]
        if "generated.get_weather" in best:
            own, total = best["generated.get_weather"]
            print(
                f"  python -X importtime -c 'import generated.get_weather': generated.get_weather self {own:.2f} ms,"
            )
            if "generated" in best:
                print(
                    f"    the generated package (its gate imports _runtime, no tool) {best['generated'][1]:.2f} ms cumulative"
                )
        for bench in benches:
            _probe(bench.module_path, "warm-deps", env)
            _probe(bench.module_path, "cold", env)
            alone = min(_probe(bench.module_path, "warm-deps", env)[0] for _ in range(runs))
            cold = min(_probe(bench.module_path, "cold", env)[1] for _ in range(runs))
            no_cache = dict(
                env, PYTHONDONTWRITEBYTECODE="1", PYTHONPYCACHEPREFIX=os.path.join(cache, "empty")
            )
            compiled = min(_probe(bench.module_path, "warm-deps", no_cache)[0] for _ in range(runs))
            ok = alone < IMPORT_TARGET_MS
            results.append((bench.name, alone, ok))
            print(
                f"  {bench.name:<12} the module alone (json, math, re, typing, _runtime already imported): {alone:5.2f} ms  "
                f"target < {IMPORT_TARGET_MS:.0f} ms {'PASS' if ok else 'MISS'}"
            )
            print(
                f"  {'':<12} with its stdlib imports, in a bare interpreter: {cold:5.2f} ms;  "
                f"the module alone with no bytecode cache (compiled from source): {compiled:5.2f} ms"
            )
    return results


# -- the gate with many tools --------------------------------------------------------------------

_GATE_PROBE = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
t0 = time.perf_counter_ns()
package = __import__(sys.argv[2])  # an import statement's path: -X importtime lists it
result = package.validate_call(sys.argv[3], sys.argv[4])
t1 = time.perf_counter_ns()
assert result.status == "accept", result.feedback()
loaded = sorted(name for name in sys.modules if name.startswith(sys.argv[2] + "."))
print(t1 - t0, len(loaded))
"""


def gate_package(folder: Path, count: int) -> Path:
    """A generated package of ``count`` tools (get_weather's module under ``count`` names) and its
    gate and runtime, rendered by toolshape's own templates; returns the package folder.

    The gate imports a tool only when it is called, so what the other modules hold does not
    reach the figure; ``--scale`` measures the package of 1,000 distinct synthetic contracts."""
    context = toolshape.codegen.render.generation_context()
    package = folder / "gate_bench"
    package.mkdir(parents=True)
    module = (REPO / "generated" / "get_weather.py").read_text(encoding="utf-8")
    tools = {}
    for index in range(count):
        name = f"tool_{index:04d}"
        (package / f"{name}.py").write_text(
            module.replace('TOOL_NAME = "get_weather"', f'TOOL_NAME = "{name}"'), encoding="utf-8"
        )
        tools[name] = "." + name
    gate = toolshape.codegen.render.render(
        context,
        "package.py.j2",
        "__init__.py",
        version=toolshape.codegen.literals.Code(toolshape.__version__),
        tools=toolshape.codegen.literals.literal(tools),
        platforms=toolshape.codegen.literals.literal(toolshape.platforms.export.PLATFORMS),
        annotations=toolshape.codegen.literals.literal({}),
        hint_defaults=toolshape.codegen.literals.literal(toolshape.contract.tool_hints.DEFAULTS),
        command=toolshape.codegen.literals.Code("toolshape generate"),
    )
    (package / "__init__.py").write_text(gate, encoding="utf-8")
    (package / "_runtime.py").write_text(
        toolshape.project.runtime.runtime_source(context), encoding="utf-8"
    )
    return package


def gate_time(
    package: Path, tool: str, text: str, runs: int, cache: str
) -> list[tuple[str, float, bool]]:
    """``import <package>`` and its first ``validate_call`` in a fresh interpreter, best of ``runs``:
    with the bytecode cached (the usual case) and compiled from source (the first run after an install)."""
    env = dict(os.environ, PYTHONPYCACHEPREFIX=cache)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    args = [sys.executable, "-c", _GATE_PROBE, str(package.parent), package.name, tool, text]

    def once(environment: dict[str, str]) -> tuple[float, int]:
        out = subprocess.run(
            args, capture_output=True, text=True, env=environment, check=True
        ).stdout.split()
        return int(out[0]) / 1e6, int(out[1])

    once(env)  # writes the bytecode cache
    cached = min(once(env)[0] for _ in range(runs))
    loaded = once(env)[1]
    fresh = dict(env, PYTHONDONTWRITEBYTECODE="1", PYTHONPYCACHEPREFIX=os.path.join(cache, "empty"))
    compiled = min(once(fresh)[0] for _ in range(runs))
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args[1:]],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    cumulative: dict[str, float] = {}
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|\s*(\S+)", line)
        if match:
            cumulative.setdefault(match.group(3), int(match.group(2)) / 1000)
    ok = cached <= GATE_TARGET_MS
    count = sum(
        1
        for p in package.rglob("*.py")
        if p.name not in ("__init__.py", "_runtime.py") and "tests" not in p.parts
    )
    print(
        f"  {count} tools in {package.name}/: import it + the first validate_call, fresh interpreter, best of {runs}:"
    )
    print(
        f"    bytecode cached {cached:6.2f} ms  target <= {GATE_TARGET_MS:.0f} ms {'PASS' if ok else 'MISS'};"
        f"  compiled from source {compiled:6.2f} ms;  modules of the package loaded: {loaded} (the runtime, the tool, its folder's)"
    )
    shown = ", ".join(
        f"{name} {ms:.2f} ms" for name, ms in cumulative.items() if name.startswith(package.name)
    )
    # The tool's own import goes through importlib.import_module, which -X importtime does not list.
    print(
        f"    python -X importtime (cumulative, bytecode cached; the tool's lazy import is not listed): {shown}"
    )
    return [(f"gate, {count} tools", cached, ok)]


def gate_times(runs: int) -> list[tuple[str, float, bool]]:
    print(f"The gate (generated/__init__.py) with {GATE_TOOLS} tools:")
    with tempfile.TemporaryDirectory(prefix="toolshape-bench-gate-") as temp:
        package = gate_package(Path(temp), GATE_TOOLS)
        return gate_time(
            package,
            f"tool_{GATE_TOOLS // 2:04d}",
            json.dumps({"city": "Lisbon", "unit": "c"}),
            runs,
            str(Path(temp) / "pyc"),
        )


# -- generator scale --------------------------------------------------------------------------------


def _children_cpu() -> float:
    """CPU seconds (user + system) of the finished child processes of this one, and theirs."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _loadavg() -> str:
    try:
        return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


def _run_toolshape(
    args: list[str], cwd: Path, timeout: float, cache: Path, bytecode: Path
) -> tuple[float | None, float, str]:
    """Run toolshape with its cache in ``cache``; return (wall seconds, CPU seconds of it and its workers, problem).

    Python keeps the bytecode it compiles in ``bytecode`` (PYTHONPYCACHEPREFIX, even where
    PYTHONDONTWRITEBYTECODE is set, as it is on some CI machines): toolshape is then timed as
    it runs once installed, where pip compiled its modules at install time; with no bytecode
    every run would first compile toolshape's ~150 modules (about 0.3 s here)."""
    command = [sys.executable, "-m", "toolshape", *args]
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(bytecode)
    env["TOOLSHAPE_CACHE_DIR"] = str(cache)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(REPO / "generator"), env.get("PYTHONPATH", "")]
    ).rstrip(os.pathsep)
    cpu = _children_cpu()
    start = time.perf_counter()
    try:
        done = subprocess.run(
            command, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env
        )
    except subprocess.TimeoutExpired:
        return None, _children_cpu() - cpu, f"stopped after {timeout:.0f} s"
    elapsed = time.perf_counter() - start
    cpu = _children_cpu() - cpu
    if done.returncode != 0:
        return elapsed, cpu, f"exit {done.returncode}: {(done.stderr or done.stdout).strip()[:500]}"
    return elapsed, cpu, ""


def _profile_sample(contracts: list[Path], root: Path, count: int) -> float:
    """cProfile the pipeline on `count` contracts in this process; print where the time goes; return s/contract."""
    import cProfile
    import pstats

    context = toolshape.codegen.render.generation_context()
    sample = contracts[:count]
    profiler = cProfile.Profile()
    start = time.perf_counter()
    profiler.enable()
    for path in sample:
        relative = path.relative_to(root)
        toolshape.project.pipeline.generate(
            path.read_bytes(),
            f"contracts/{relative.as_posix()}",
            PurePosixPath(relative.as_posix()),
            context,
        )
    profiler.disable()
    wall = time.perf_counter() - start
    stats = pstats.Stats(profiler)
    table = stats.stats  # type: ignore[attr-defined]

    def cumulative(file_part: str, function: str) -> float:
        # max, not sum: a function name can occur twice in a file, one calling the other
        found: float = max(
            (v[3] for k, v in table.items() if k[0].endswith(file_part) and k[2] == function),
            default=0.0,
        )
        return found

    def own(function: str) -> float:
        seconds: float = sum(v[2] for k, v in table.items() if k[2] == function)
        return seconds

    total = sum(v[2] for v in table.values())
    groups = [
        ("YAML read (source.load)", cumulative("toolshape/contract/source.py", "load")),
        ("contract check (contract.check)", cumulative("toolshape/contract/checker.py", "check")),
        ("model build (model.build)", cumulative("toolshape/codegen/model.py", "build")),
        ("render: Jinja (Template.render)", cumulative("jinja2/environment.py", "render")),
        (
            "render: layout (formatting.lay_out; black never runs)",
            cumulative("toolshape/codegen/formatting.py", "lay_out"),
        ),
        (
            "  black.format_str (0: built-in templates' output never reaches it)",
            cumulative("black/__init__.py", "format_str"),
        ),
        ("compile() of generated sources", cumulative("", "<built-in method builtins.compile>")),
        (
            "exec of the generated module (load_module)",
            cumulative("toolshape/project/runtime.py", "load_module"),
        ),
        (
            "examples run (check_examples)",
            cumulative("toolshape/project/examples.py", "check_examples"),
        ),
        ("case derivation (cases.derive)", cumulative("toolshape/codegen/cases.py", "derive")),
        (
            "  of which cases.add de-duplication (json.dumps)",
            cumulative("toolshape/codegen/cases.py", "<setcomp>"),
        ),
        (
            "  of which the reference evaluator",
            cumulative("toolshape/contract/reference.py", "evaluate"),
        ),
        (
            "  of which the witness engine (Engine.conjunction)",
            cumulative("toolshape/witness/values.py", "conjunction"),
        ),
        (
            "derived cases run (check_derived)",
            cumulative("toolshape/project/examples.py", "check_derived"),
        ),
        (
            "tests model (tests_model.build: literals)",
            cumulative("toolshape/codegen/tests_model.py", "build"),
        ),
    ]
    print(
        f"Where `generate` spends its time: cProfile of toolshape.project.pipeline.generate on {len(sample)} of the contracts"
    )
    print(
        f"({wall:.1f} s wall with the profiler on, {wall / len(sample):.2f} s per contract; cumulative times, overlapping):"
    )
    for label, seconds in groups:
        print(f"  {label:<50} {seconds:8.2f} s  {100 * seconds / max(total, 1e-9):5.1f}%")
    print("  top functions by own time:")
    top = sorted(table.items(), key=lambda kv: kv[1][2], reverse=True)[:8]
    for (file, line, function), (_, calls, own_time, _, _) in top:
        where = f"{Path(file).name}:{line}" if file != "~" else "builtin"
        print(f"    {own_time:7.2f} s  {calls:>9} calls  {function} ({where})")
    return wall / len(sample)


def scale(
    count: int, timeout: float, sample: int
) -> list[tuple[str, float | None, float, float, str]]:
    from synth import write_contracts

    results: list[tuple[str, float | None, float, float, str]] = []
    with tempfile.TemporaryDirectory(prefix="toolshape-bench-scale-") as temp:
        root = Path(temp)
        contracts = write_contracts(root / "contracts", count)
        size = sum(p.stat().st_size for p in contracts)
        print(
            f"Generator scale: {count} synthetic contracts (10-30 properties, nested objects and arrays), "
            f"{size / 1e6:.1f} MB of YAML, in {root}"
        )
        per_contract = (
            _profile_sample(contracts, root / "contracts", min(sample, count)) if sample else None
        )
        if per_contract:
            print(
                f"  => about {per_contract * count:,.0f} s for {count} contracts at that rate (profiler on; expect somewhat less without)"
            )
        print()
        factor = count / 1000
        targets = {label: target * factor for label, target in SCALE_TARGETS.items()}
        targets["generate (one changed)"] = SCALE_TARGETS["generate (one changed)"]
        generate = ["generate", "contracts", "--out", "generated", "-q"]
        check = ["check", "contracts", "--out", "generated", "-q"]
        # The cache (cache.py) starts empty; "cold cache" steps run with another, empty one
        # (check writes no cache entry): what check and generate cost on a fresh CI runner or
        # after clearing the cache.
        warm, cold = root / "cache", root / "empty-cache"
        # A first generate and check, untimed, compiles toolshape's modules (and the standard
        # library's and its dependencies', whose own bytecode Python no longer reads with a
        # prefix set) into the bytecode folder, as installing toolshape would: the timed runs
        # measure toolshape's work, not Python's. Enough contracts that generate starts its
        # worker processes (multiprocessing's modules compiled too).
        bytecode = root / "toolshape-bytecode"
        (root / "warm_up").mkdir()
        for path in contracts[: toolshape.project.planning.POOL_THRESHOLD]:
            shutil.copy(path, root / "warm_up" / path.name)
        for args in (
            ["generate", "warm_up", "--out", "warm_up_out", "-q"],
            ["check", "warm_up", "--out", "warm_up_out", "-q"],
        ):
            _, _, problem = _run_toolshape(args, root, timeout, root / "warm_up_cache", bytecode)
            if problem:
                print(f"  the warm-up run failed: {problem}")
        steps = [
            ("generate (cold)", generate, warm),
            ("check (warm cache)", check, warm),
            ("check (cold cache)", check, cold),
            ("check --headers-only", [*check, "--headers-only"], warm),
            ("generate (one changed)", generate, warm),
            ("generate (cold cache)", generate, cold),
        ]
        ok_so_far = True
        for label, args, cache in steps:
            if label == "generate (one changed)" and ok_so_far:
                changed = contracts[count // 2]
                changed.write_text(
                    changed.read_text(encoding="utf-8").replace(
                        "for the generator scale benchmark.",
                        "for the generator scale benchmark (changed).",
                        1,
                    ),
                    encoding="utf-8",
                )
            if not ok_so_far:
                results.append(
                    (label, None, 0.0, targets[label], "skipped: the cold generate did not finish")
                )
                continue
            load = _loadavg()
            elapsed, cpu, problem = _run_toolshape(args, root, timeout, cache, bytecode)
            results.append((label, elapsed, cpu, targets[label], problem or f"({load} before)"))
            if label == "generate (cold)" and (elapsed is None or problem):
                ok_so_far = False
            if label == "generate (cold)" and ok_so_far:
                # The gate over the 1,000 distinct tools just generated: import + the first call.
                middle = contracts[count // 2]
                example = yaml.safe_load(middle.read_text(encoding="utf-8"))["examples"][0]["args"]
                print("The gate of the generated package:")
                gate_time(
                    root / "generated", middle.stem, json.dumps(example), 7, str(root / "pyc")
                )
                print()
        scaled = (
            ""
            if count == 1000
            else f" (targets scaled to {count} contracts where they depend on the count)"
        )
        print(
            f"Generator scale, toolshape as a subprocess{scaled}, its bytecode compiled by an untimed "
            "first run as an install compiles it; wall time is what the targets are about,"
        )
        print(
            f"CPU is user + system of toolshape and its workers ({_usable_cpus()} usable CPUs here; "
            "when CPU / wall is far below the CPUs used, other load slowed the run):"
        )
        for label, elapsed, cpu, target, problem in results:
            shown = (
                f"{elapsed:8.2f} s"
                if elapsed is not None
                else f"> {timeout:.0f} s"
                if "stopped" in problem
                else "       -"
            )
            failed = problem and not problem.startswith("(")
            verdict = "PASS" if elapsed is not None and not failed and elapsed <= target else "MISS"
            if problem.startswith("skipped"):
                verdict = "-"
            ratio = f"{elapsed / target:6.1f}x target" if elapsed is not None else ""
            print(
                f"  {label:<24} {shown} wall {cpu:8.2f} s CPU   target {target:7.2f} s  {verdict:<4} {ratio}  {problem}"
            )
    return results


def _usable_cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


# -- main -------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--quick", action="store_true", help="a fast smoke run: 3 rounds of short loops"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="rounds per input (best is kept); default 9, 3 with --quick",
    )
    parser.add_argument(
        "--loop-ms",
        type=float,
        default=None,
        help="length of one timed loop; default 20 ms, 2 ms with --quick",
    )
    parser.add_argument("--no-import", action="store_true", help="skip the import-time measurement")
    parser.add_argument(
        "--scale",
        action="store_true",
        help="also time toolshape generate/check over synthetic contracts",
    )
    parser.add_argument(
        "--scale-contracts",
        type=int,
        default=1000,
        help="how many synthetic contracts (default 1000)",
    )
    parser.add_argument(
        "--scale-timeout",
        type=float,
        default=900,
        help="stop one toolshape command after this many seconds (default 900)",
    )
    parser.add_argument(
        "--scale-profile",
        type=int,
        default=10,
        help="contracts to cProfile in-process first (0: none; default 10)",
    )
    parser.add_argument(
        "--only-scale", action="store_true", help="run only the generator scale part"
    )
    parser.add_argument(
        "--rows",
        default="",
        help="time only the rows whose 'contract / input' holds this text (e.g. 'unknown key')",
    )
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 9)
    loop_ms = args.loop_ms or (2.0 if args.quick else 20.0)

    for line in machine():
        print(line)
    print()
    if not args.only_scale:
        with tempfile.TemporaryDirectory(prefix="toolshape-bench-") as temp:
            started = time.perf_counter()
            benches = load_benches(Path(temp))
            print(
                f"generated large_order with toolshape.project.pipeline.generate in {time.perf_counter() - started:.1f} s"
            )
            for line in check_agreement(benches):
                print("checked: " + line)
            for note in peers.NOTES:
                print("note: " + note)
            print(
                f"timing: {repeat} interleaved rounds of ~{loop_ms:g} ms loops per contender and input "
                f"({UNROLL} calls per loop iteration), gc off during each loop"
            )
            print()
            for bench in benches:
                bench.rows = [r for r in bench.rows if args.rows in f"{r.contract} / {r.name}"]
            time_rows(benches, repeat, int(loop_ms * 1e6), progress=sys.stderr.isatty())
            results = print_table(benches)
            missed = [r for r in results if not r[5]]
            print()
            print(f"{len(results) - len(missed)} of {len(results)} ratio targets met. Missed:")
            for contract, row, check, ratio, target, _ in missed:
                if check.startswith("generated/"):
                    by = f"{100 * (ratio / target - 1):.0f}% over"
                    shown = f"{ratio:.2f}x the {check[10:]}, target <= {target:.2f}x"
                else:
                    by = f"{100 * (1 - ratio / target):.0f}% short"
                    peer = check.split("/")[0]
                    shown = (
                        f"{ratio:.2f}x faster than {peer}, target >= {target:.2f}x"
                        if ratio >= 1
                        else f"{1 / ratio:.2f}x SLOWER than {peer}, target >= {target:.2f}x faster"
                    )
                print(f"  {contract:<12} {row:<27} {shown} ({by})")
            print()
            if not args.no_import:
                import_times(benches, 3 if args.quick else 7)
                print()
                gate_times(3 if args.quick else 7)
                print()
    if args.scale or args.only_scale:
        scale(args.scale_contracts, args.scale_timeout, args.scale_profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
