"""Shared fixtures of the generator's tests; the names behind them live in support.py.

tests/bench is put on the import path here, once, for the tests that build synthetic
contracts with its ``synth`` module.

Hypothesis runs under one profile, loaded here before any test file is imported: no deadline
and no "too slow" health check (both depend on the machine's load, and a test must not turn
red on a busy machine), derandomized (the same examples every run, in CI and on a laptop).
A test's own ``@settings`` inherit these and may only add to them.
"""

from __future__ import annotations

import gc
import sys
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from scheduling import GroupScheduling, workers
from support import BENCH, CONTEXT, ROOT
from toolshape.codegen.context import GenerationContext

settings.register_profile(
    "toolshape", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile("toolshape")

if str(BENCH) not in sys.path:
    sys.path.insert(0, str(BENCH))


#: The test files whose tests share what one process builds once, each run whole by one xdist
#: worker (scheduling.py): a conformance group's module and its summary, each contract's
#: module and strategies, each hostile text's contract, the platforms' SDKs (imported lazily),
#: each edited contract's module (rendered for its diff report and for its generated diff),
#: each reference server tool's module, judge and strategies (read by four tests each).
ONE_WORKER_FILES = frozenset(
    {
        "tests/test_agent_loops.py",
        "tests/test_conformance.py",
        "tests/test_conformance_drafts.py",
        "tests/test_diff_examples.py",
        "tests/test_differential.py",
        "tests/test_hostile_contracts_texts.py",
        "tests/test_reference_servers.py",
    }
)


def _unit_of(nodeid: str) -> str | None:
    file = nodeid.split("::", 1)[0]
    return file if file in ONE_WORKER_FILES else None


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> GroupScheduling | None:
    """``--dist loadgroup`` (the suite's addopts) as scheduling.py does it: ONE_WORKER_FILES
    whole on one worker, linear bookkeeping. Any other ``--dist`` is xdist's own."""
    if config.getvalue("dist") != "loadgroup":
        return None
    return GroupScheduling(config, workers(config), _unit_of)


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """Collection without the garbage collector, then one collection and ``gc.freeze``.

    Collecting makes every worker import every test file and build some 20,000 items: the
    objects only grow, and each full collection the growth set off scanned all of them again
    (about 2.5 CPU s in each worker, for garbage that one collection at the end finds as
    well). What is alive after collection (the items, the test modules and their tables)
    lives to the end of the session, so it is frozen: the collections that run while the
    tests do scan only what the tests make. (work_counting.empty_free_lists unfreezes it.)"""
    collecting = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        if collecting:
            gc.enable()
        gc.collect()
        gc.freeze()


@pytest.fixture(autouse=True, scope="session")
def _own_generate_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``generate``'s cache (project/cache.py) in a folder of this test process's own: the
    tests never read or write the user's cache, and two xdist workers never share one (a test
    that rewrites every entry and then plans would otherwise race the other worker's
    ``generate`` of the same contract). Subprocesses inherit it; a test may still point it
    elsewhere with monkeypatch."""
    folder = tmp_path_factory.mktemp("generate-cache")
    patch = pytest.MonkeyPatch()
    patch.setenv("TOOLSHAPE_CACHE_DIR", str(folder))
    yield folder
    patch.undo()


@pytest.fixture(scope="session")
def root() -> Path:
    """The repository's root folder."""
    return ROOT


@pytest.fixture(scope="session")
def context() -> GenerationContext:
    """The built-in templates' generation context (shared: rendering does not change it)."""
    return CONTEXT


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The times the hostile-argument tests measured on big inputs, slowest first (if they ran)."""
    support = sys.modules.get("hostile_arguments_support")
    timings: dict[str, float] = getattr(support, "TIMINGS", {})
    if timings:
        terminalreporter.section("timings of big inputs (seconds; the slowest module for each)")
        for label, seconds in sorted(timings.items(), key=lambda kv: -kv[1]):
            terminalreporter.write_line(f"  {seconds:8.3f}  {label}")
