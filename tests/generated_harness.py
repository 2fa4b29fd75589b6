"""Generated tests run as plain calls, without pytest's runner: every test function of a
generated test module with every parametrized row, as pytest would collect them.

One harness for every place that runs generated tests in-process: the mutation test and the
vendoring tests (tests/test_generated_code.py), the hostile contracts (tests/
hostile_contracts_support.py), and every supported Python (run as a script by
``test_generated_tests_pass_on_every_supported_python``: one interpreter process per Python,
a few seconds, where pytest's runner took over a minute for the same calls).

Standard library and pytest only, in syntax CPython 3.9 reads: the script runs under every
interpreter the generated code supports. pytest itself runs the generated tests in a process
of its own (``test_pytest_runs_every_generated_test_as_a_user_runs_them``), where what it
collects and what this harness calls are compared (``expected_item_count``).
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import sys
import types
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

_PARAMETER_SET = type(pytest.param(None))


@dataclass
class Call:
    """One test item: a generated test function with one set of arguments."""

    name: str
    function: Callable[..., Any]
    kwargs: dict[str, Any]

    def __call__(self) -> None:
        self.function(**self.kwargs)


def _parametrize_rows(mark: Any) -> list[dict[str, Any]]:
    args = list(mark.args) + [mark.kwargs[k] for k in ("argnames", "argvalues") if k in mark.kwargs]
    argnames, argvalues = args[0], args[1]
    if isinstance(argnames, str):
        names = [n.strip() for n in argnames.split(",") if n.strip()]
    else:
        names = list(argnames)
    rows = []
    for value in argvalues:
        if isinstance(value, _PARAMETER_SET):
            if any(mark.name == "skip" for mark in value.marks):
                continue  # pytest skips it (an empty table's placeholder, with its reason)
            value = value.values
        elif len(names) == 1:
            value = (value,)
        if len(value) != len(names):
            raise ValueError(f"parametrize row {value!r} does not fit {names}")
        rows.append(dict(zip(names, value)))  # noqa: B905 (3.9 has no strict=)
    return rows


def generated_test_calls(test_module: types.ModuleType) -> list[Call]:
    """Every item pytest would collect from a generated test module, as plain calls."""
    classes = [
        n for n, v in vars(test_module).items() if n.startswith("Test") and inspect.isclass(v)
    ]
    if classes:  # the harness would silently skip them otherwise
        raise NotImplementedError(
            f"{test_module.__name__} has test classes {classes}; teach generated_test_calls them"
        )
    calls = []
    for name, function in list(vars(test_module).items()):
        if not (name.startswith("test") and inspect.isfunction(function)):
            continue
        if function.__module__ != test_module.__name__:
            continue
        if any(m.name == "skip" for m in getattr(function, "pytestmark", [])):
            continue  # pytest skips it (a test of an accepted call, where none was found)
        grids = [
            _parametrize_rows(m)
            for m in getattr(function, "pytestmark", [])
            if m.name == "parametrize"
        ]
        parameters = set(inspect.signature(function).parameters)
        for index, combination in enumerate(itertools.product(*grids)):
            kwargs: dict[str, Any] = {}
            for row in combination:
                kwargs.update(row)
            unknown = parameters - set(kwargs)
            if unknown:  # the harness would silently skip it otherwise
                raise NotImplementedError(
                    f"{test_module.__name__}.{name} takes fixtures {sorted(unknown)}; "
                    "tests/generated_harness.py cannot call it in-process"
                )
            calls.append(Call(f"{name}[{index}]", function, kwargs))
    return calls


def failure(call: Call) -> str | None:
    """Run one call; describe how it fails, or None if it passes."""
    try:
        call()
    except pytest.skip.Exception:
        return None  # a skip is not a failure, for a mutant as for the real module
    except BaseException as exc:
        if isinstance(exc, (KeyboardInterrupt, SystemExit)):
            raise
        first = (str(exc).splitlines() or [""])[0][:120]
        return f"{call.name}: {type(exc).__name__} {first}".rstrip()
    return None


def first_failure(calls: list[Call]) -> str | None:
    """Run the calls in order; describe the first that raises, or None if all pass."""
    for call in calls:
        described = failure(call)
        if described is not None:
            return described
    return None


def run_package(folder: Path, package: str) -> tuple[int, int, list[str]]:
    """Import every generated test module of ``folder/package/tests`` and run every call:
    (passed, skipped, failures, each described with its module)."""
    sys.path.insert(0, str(folder))
    passed = skipped = 0
    failures: list[str] = []
    tests = folder / package / "tests"
    for path in sorted(tests.rglob("test_*.py")):
        relative = path.relative_to(folder).with_suffix("")
        test_module = importlib.import_module(".".join(relative.parts))
        for call in generated_test_calls(test_module):
            try:
                call()
            except pytest.skip.Exception:
                skipped += 1
                continue
            except Exception as exc:  # noqa: BLE001 (a failing test, whatever it raised)
                first = (str(exc).splitlines() or [""])[0][:300]
                failures.append(
                    f"{test_module.__name__}::{call.name}: {type(exc).__name__} {first}"
                )
                continue
            passed += 1
    return passed, skipped, failures


def main(argv: list[str]) -> int:
    """``python generated_harness.py FOLDER PACKAGE``: run the package's generated tests; the
    last line is ``N passed, M failed`` (and ``, K skipped``)."""
    folder, package = Path(argv[0]), argv[1]
    passed, skipped, failures = run_package(folder, package)
    for failure in failures[:50]:
        print("FAILED", failure)
    print(
        f"{sys.implementation.name} {sys.version_info[0]}.{sys.version_info[1]}: "
        f"{passed} passed, {len(failures)} failed" + (f", {skipped} skipped" if skipped else "")
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
