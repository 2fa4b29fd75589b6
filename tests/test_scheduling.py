"""The suite's xdist scheduler (scheduling.py), driven by fake workers as xdist's controller
drives it: every test runs once, a one-worker file stays on one worker, a crash hands the rest
of the crashed worker's tests to the others, and the bookkeeping is linear in the number of
tests (counted, never timed)."""

from __future__ import annotations

from typing import Any

import pytest
from scheduling import GroupScheduling
from work_counting import assert_linear

FILES = ["tests/test_a.py", "tests/test_shared.py", "tests/test_b.py"]


def collection(per_file: int) -> list[str]:
    return [f"{file}::test_{i}" for file in FILES for i in range(per_file)]


def unit_of(nodeid: str) -> str | None:
    file = nodeid.split("::", 1)[0]
    return file if file == "tests/test_shared.py" else None


class Worker:
    """What the scheduler sees of an xdist worker: it is sent indices, and shut down."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.queue: list[int] = []
        self.ran: list[int] = []
        self.shutting_down = False

    def send_runtest_some(self, indices: list[int]) -> None:
        assert not self.shutting_down
        self.queue.extend(indices)

    def shutdown(self) -> None:
        self.shutting_down = True

    def can_run(self) -> bool:
        # A worker runs a test once it knows the next one, or that there is none.
        return len(self.queue) >= 2 or (len(self.queue) == 1 and self.shutting_down)


def start(tests: list[str], count: int = 2) -> tuple[GroupScheduling, list[Worker]]:
    config: Any = None  # only read when the workers' collections differ
    scheduler = GroupScheduling(config, count, unit_of)
    workers = [Worker(f"gw{i}") for i in range(count)]
    for worker in workers:
        scheduler.add_node(worker)
    for worker in workers:
        scheduler.add_node_collection(worker, tests)
    scheduler.schedule()
    return scheduler, workers


def run(
    scheduler: GroupScheduling, workers: list[Worker], crash: Worker | None = None
) -> str | None:
    """Complete tests, taking turns, until the scheduler says the run is over and the workers
    it shut down have run what they hold (as xdist does); ``crash`` dies on its third test.
    Returns the test it crashed in."""
    crashed = None
    while not scheduler.tests_finished or any(w.queue for w in workers if w in scheduler.nodes):
        if scheduler.tests_finished:
            for worker in workers:
                worker.shutdown()  # xdist's triggershutdown
        progressed = False
        for worker in [w for w in workers if w in scheduler.nodes]:
            if not worker.can_run():
                continue
            index = worker.queue.pop(0)
            if worker is crash and len(worker.ran) == 2:
                worker.queue.insert(0, index)
                crashed = scheduler.remove_node(worker)
                continue
            worker.ran.append(index)
            scheduler.mark_test_complete(worker, index)
            progressed = True
        assert progressed or crashed, "no worker can run and the run is not over"
    return crashed


def test_every_test_runs_once_and_a_one_worker_file_stays_on_one_worker() -> None:
    tests = collection(40)
    scheduler, workers = start(tests)
    run(scheduler, workers)
    ran = [index for worker in workers for index in worker.ran]
    assert sorted(ran) == list(range(len(tests)))
    shared = {i for i, nodeid in enumerate(tests) if unit_of(nodeid)}
    holders = [worker for worker in workers if shared & set(worker.ran)]
    assert len(holders) == 1
    # ... first (the longest unit starts first), in collection order; and both workers had work.
    assert holders[0].ran[: len(shared)] == sorted(shared)
    assert all(worker.ran for worker in workers)
    assert all(worker.shutting_down for worker in workers)


@pytest.mark.parametrize("count", [2, 3, 8])
def test_every_selection_runs_to_the_end(count: int) -> None:
    """Whatever ``-k`` leaves (1 to 80 tests, a shared file's or not), every test runs: a worker
    sent a single test while others waited held it for ever (``pytest -n 2 -k`` on three tests
    hung)."""
    every = collection(80)  # 80 tests of each file: slices cross into the shared file's
    for size in range(1, 81):
        for start_at in sorted({0, 40, 80 - size // 2, 80}):
            tests = every[start_at : start_at + size]
            scheduler, workers = start(tests, count)
            run(scheduler, workers)
            ran = sorted(i for w in workers for i in w.ran)
            assert ran == list(range(len(tests))), (size, start_at)


def test_a_crash_names_its_test_and_the_rest_run_elsewhere() -> None:
    tests = collection(10)
    scheduler, workers = start(tests)
    crashed = run(scheduler, workers, crash=workers[0])
    assert crashed is not None
    lost = tests.index(crashed)
    ran = sorted(index for worker in workers for index in worker.ran)
    assert ran == [i for i in range(len(tests)) if i != lost]


def test_different_collections_are_reported_not_run(monkeypatch: pytest.MonkeyPatch) -> None:
    reports: list[Any] = []

    class Hook:
        def pytest_collectreport(self, report: Any) -> None:
            reports.append(report)

    class Config:
        hook = Hook()

    scheduler = GroupScheduling(Config(), 2, unit_of)  # type: ignore[arg-type]
    workers = [Worker("gw0"), Worker("gw1")]
    for worker in workers:
        scheduler.add_node(worker)
    scheduler.add_node_collection(workers[0], collection(3))
    scheduler.add_node_collection(workers[1], collection(4))
    scheduler.schedule()
    assert [report.outcome for report in reports] == ["failed"]
    assert not any(worker.queue for worker in workers)


def test_the_bookkeeping_is_linear_in_the_number_of_tests() -> None:
    """xdist's loadgroup recounted every test a worker was given at each completion (quadratic);
    every line the scheduler runs over a whole run is counted here for n, 2n and 4n tests."""

    def whole_run(n: int) -> Any:
        tests = collection(n // len(FILES))

        def call() -> None:
            scheduler, workers = start(tests)
            run(scheduler, workers)

        return call

    assert_linear("a whole run's scheduling", whole_run, 600)
