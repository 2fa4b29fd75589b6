"""Where a generated validate()/parse() spends its time: ablations of the generated source.

    python tests/bench/ablate.py [--repeat N] [--loop-ms MS]

Each variant is the generated module's source with one change applied (as text,
in memory: nothing in the repository is touched), compiled with toolshape's own
``load_module`` and timed against the unchanged module and the hand-written floor
on the benchmark inputs, in interleaved rounds (best of ``--repeat``). A
"suggestion" keeps the module's behaviour (the variant must report the same
(path, code) errors on every input); an "ablation" removes work only to measure
what it costs. A variant whose text is not found in the current generated code is
reported as not applicable (the generator changes under us).

Then the parse layer is taken apart: the generated ``_decode`` against its own
``_DECODER.decode``, the floor's strict decoder and plain ``json.loads``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # floor.py imports `generated`

import floor  # after sys.path above
import run  # tests/bench/run.py: the loader, the contracts, the timing loop
import toolshape.project.runtime


def _subst(
    pattern: str, replacement: str, count: int = 0, flags: int = re.M
) -> Callable[[str], str | None]:
    def apply(source: str) -> str | None:
        new, n = re.subn(pattern, replacement, source, count=count, flags=flags)
        return new if n else None

    return apply


def _chain(*steps: Callable[[str], str | None]) -> Callable[[str], str | None]:
    def apply(source: str) -> str | None:
        for step in steps:
            out = step(source)
            if out is None:
                return None
            source = out
        return source

    return apply


# The unknown-key test as the generator writes it: only an object longer than the
# count of declared keys present can hold another key.
_UNKNOWN = r"if len\((\w+)\) > (declared\w*):"


VARIANTS: list[tuple[str, str, Callable[[str], str | None]]] = [
    (
        "ablation",
        "accept returns the value itself, no Result object",
        _subst(r"return Result\(ACCEPT, value, \(\)\)", "return value"),
    ),
    (
        "ablation",
        "no unknown-key test at all (its cost)",
        _subst(_UNKNOWN, "if False:"),
    ),
    (
        "suggestion",
        "math.isfinite -> isfinite bound at import",
        _chain(
            _subst(r"math\.isfinite\(", "_isfinite("),
            _subst(
                r"^import math$", "import math\nfrom math import isfinite as _isfinite", count=1
            ),
        ),
    ),
    (
        "suggestion",
        "isinstance(x, str) -> type(x) is str or isinstance(x, str)",
        _subst(r"(?<![\w.])isinstance\((\w+), str\)", r"(type(\1) is str or isinstance(\1, str))"),
    ),
]


def _all_suggestions(source: str) -> str | None:
    """Every suggestion above that applies, together."""
    changed = False
    for kind, _, transform in VARIANTS:
        if kind != "suggestion" or transform is _all_suggestions:
            continue
        out = transform(source)
        if out is not None:
            source, changed = out, True
    return source if changed else None


VARIANTS.append(("suggestion", "all the suggestions above together", _all_suggestions))


def _errors(result: object) -> set[tuple[str, str]] | None:
    errors = getattr(result, "errors", None)
    return None if errors is None else {(e.path, e.code) for e in errors}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=9)
    parser.add_argument("--loop-ms", type=float, default=20.0)
    args = parser.parse_args()
    for line in run.machine():
        print(line)
    print()
    import tempfile

    with tempfile.TemporaryDirectory() as temp:
        benches = run.load_benches(Path(temp))
        sources = {
            bench.name: Path(bench.module_path).read_text(encoding="utf-8") for bench in benches
        }
    target = int(args.loop_ms * 1e6)
    for bench in benches:
        source = sources[bench.name]
        rows = [row for row in bench.rows if row.kind == "validate"]
        validate_name = bench.functions[0]  # validate, or validate_result for a result bench
        modules = {"generated": bench.module}
        kinds = {"generated": "", "floor": ""}
        for kind, label, transform in VARIANTS:
            changed = transform(source)
            if changed is None:
                print(f"{bench.name}: not applicable to the current generated code: {label}")
                continue
            module = toolshape.project.runtime.load_module(changed, f"variant_{bench.name}.py")
            if kind == "suggestion":
                for row in rows:
                    want = _errors(bench.validate(row.data))
                    got = _errors(getattr(module, validate_name)(row.data))
                    assert got == want, f"{label}: changes behaviour on {row.name}: {got} vs {want}"
            modules[label] = module
            kinds[label] = kind
        names = ["floor", *modules]
        calls = {
            name: (
                floor.FLOORS[bench.name][0]
                if name == "floor"
                else getattr(modules[name], validate_name)
            )
            for name in names
        }
        best: dict[tuple[str, str], float] = {}
        for row in rows:
            loops = {name: run.calibrate(calls[name], row.data, target) for name in names}
            for round_ in range(args.repeat):
                order = names[round_ % len(names) :] + names[: round_ % len(names)]
                for name in order:
                    n = loops[name]
                    t = run._timed(calls[name], row.data, n) / (n * run.UNROLL)
                    key = (row.name, name)
                    best[key] = min(best.get(key, float("inf")), t)
        print()
        print(
            f"{bench.name}: ns per validate() call; variants as the change against the generated module (negative = faster)"
        )
        head = f"  {'variant':<92}" + "".join(f" {row.name[:14]:>14}" for row in rows)
        print(head)
        for name in names:
            if name in ("floor", "generated"):
                line = f"  {name:<92}" + "".join(
                    f" {best[(row.name, name)]:>14,.0f}" for row in rows
                )
            else:
                line = f"  {kinds[name] + ': ' + name:<92}" + "".join(
                    f" {best[(row.name, name)] - best[(row.name, 'generated')]:>+14,.0f}"
                    for row in rows
                )
            print(line)
        print(
            f"  {'generated - floor':<92}"
            + "".join(
                f" {best[(row.name, 'generated')] - best[(row.name, 'floor')]:>+14,.0f}"
                for row in rows
            )
        )

    print()
    print("The parse layer, ns per call (interleaved rounds, best of them):")
    for bench in benches:
        module = bench.module
        for row in [r for r in bench.rows if r.kind == "parse"]:
            text = row.data
            try:
                decoded = json.loads(text)
            except ValueError:
                decoded = None
            parts: dict[str, tuple[Callable[..., Any], object]] = {
                "generated parse()": (bench.parse, text),
                "generated _decode() (pre-checks + decode)": (module._decode, text),
                "generated _DECODER.decode (hooks: pairs, constant, float)": (
                    sys.modules[module._decode.__module__]._DECODER.decode,
                    text,
                ),
                "floor decoder (hooks: pairs, constant)": (floor._DECODER.decode, text),
                "plain json.loads (no hooks)": (json.loads, text),
                "floor parse()": (floor.FLOORS[bench.name][1], text),
            }
            if decoded is not None:
                parts["generated validate() on the decoded value"] = (bench.validate, decoded)
                parts["floor validate() on the decoded value"] = (
                    floor.FLOORS[bench.name][0],
                    decoded,
                )

            def safe(call: Callable[..., Any]) -> Callable[..., Any]:
                def wrapped(x: object) -> object:
                    try:
                        return call(x)
                    except ValueError as exc:
                        return exc

                return wrapped

            guarded = {label: (safe(call), arg) for label, (call, arg) in parts.items()}
            loops = {
                label: run.calibrate(f, arg, target // 2) for label, (f, arg) in guarded.items()
            }
            times = {label: float("inf") for label in guarded}
            labels = list(guarded)
            for round_ in range(args.repeat):
                for label in labels[round_ % len(labels) :] + labels[: round_ % len(labels)]:
                    f, arg = guarded[label]
                    n = loops[label]
                    times[label] = min(times[label], run._timed(f, arg, n) / (n * run.UNROLL))
            print(
                f"  {bench.name} / {row.name} ({len(text)} chars; every call through the same try/except wrapper):"
            )
            for label, value in times.items():
                print(f"    {label:<60} {value:>9,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
