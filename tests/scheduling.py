"""How the suite's tests are shared out between xdist's workers (``conftest.py`` installs it
through xdist's ``pytest_xdist_make_scheduler`` hook, for ``--dist loadgroup``).

The tests of a file that shares what one process builds once (a conformance group's module,
pre-commit's hook environment: ``conftest.ONE_WORKER_FILES``) go to one worker, in collection
order, as one unit, and these units are handed out first (the longest work first, so that the
single tests after them even out the end); every other test is a unit of its own, handed to
whichever worker runs out of work first. Why not xdist's own ``loadgroup``:

- with pytest 9 it groups nothing: it marks a grouped test by rewriting ``item._nodeid``, which
  pytest 9 no longer reads (a node's id is ``item._id``), so every test was a unit of its own and
  the two workers took turns through a file, each building the same module;
- its bookkeeping is quadratic: it recounts every test a worker was ever given each time one
  completes, and finds each test's index by a search of the collection. A run of 21,670 tests
  cost the controller 72 CPU s, a fifth of the run; 16,000 tests that do nothing cost it
  51 CPU s (14 under ``--dist load``, 11 here).

Here a worker's pending tests are a dict (insertion-ordered: the first is the one running, which
a crash names), a completion deletes one key, and the units are lists of indices built once:
O(1) work per event. Single tests are sent in batches (at most ``MAX_BATCH``, shrinking as the
queue empties so that the workers finish together), since each message costs the worker and the
controller about as much as a small test.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import pytest

#: A worker gets more work when it has this many tests or fewer left (it runs a test once it
#: knows the next one, so it must hold two to keep going).
LOW = 2
#: The most ungrouped tests sent in one message.
MAX_BATCH = 32


def workers(config: pytest.Config) -> int:
    """How many workers xdist starts: its ``--tx`` specs (``-n 2`` is two ``popen``; a spec may
    say ``3*popen``)."""
    count = 0
    for spec in config.getvalue("tx"):
        times, star, _ = spec.partition("*")
        count += int(times) if star and times.isdigit() else 1
    return count


class GroupScheduling:
    """xdist's scheduler protocol (``xdist.scheduler.protocol.Scheduling``): the tests that
    ``unit_of`` gives one name go to one worker together, O(1) bookkeeping per event."""

    def __init__(
        self, config: pytest.Config, numnodes: int, unit_of: Callable[[str], str | None]
    ) -> None:
        self.config = config
        self.numnodes = numnodes
        self.unit_of = unit_of  # a test's id -> the name of the unit it is part of, or None
        self.collection: list[str] | None = None
        self.collections: dict[Any, list[str]] = {}
        #: Per worker, the indices it was sent and has not completed, in the order sent.
        self.pending: dict[Any, dict[int, None]] = {}
        self.units: deque[list[int]] = deque()
        self.queued = 0  # tests in self.units

    # -- what DSession reads --------------------------------------------------------------------

    @property
    def nodes(self) -> list[Any]:
        return list(self.pending)

    @property
    def collection_is_completed(self) -> bool:
        return len(self.collections) >= self.numnodes

    @property
    def tests_finished(self) -> bool:
        if not self.collection_is_completed or self.units:
            return False
        return all(len(pending) < LOW for pending in self.pending.values())

    @property
    def has_pending(self) -> bool:
        return bool(self.units) or any(self.pending.values())

    # -- events ---------------------------------------------------------------------------------

    def add_node(self, node: Any) -> None:
        assert node not in self.pending
        self.pending[node] = {}

    def add_node_collection(self, node: Any, collection: Sequence[str]) -> None:
        assert node in self.pending
        if self.collection is not None and list(collection) != self.collection:
            # A worker started later (one died) that collected other tests: never used.
            return
        self.collections[node] = list(collection)

    def schedule(self) -> None:
        assert self.collection_is_completed
        if self.collection is not None:  # a worker added later: give it work
            for node in self.nodes:
                self._refill(node)
            return
        first, *others = self.collections.values()
        for other in others:
            if other != first:
                self.config.hook.pytest_collectreport(
                    report=pytest.CollectReport(
                        nodeid="",
                        outcome="failed",
                        longrepr="xdist workers collected different tests: "
                        f"{len(first)} and {len(other)}; run with -n 0 to see why",
                        result=[],
                    )
                )
                return
        self.collection = first
        groups: dict[str, list[int]] = {}
        singles: list[list[int]] = []
        for index, nodeid in enumerate(first):
            name = self.unit_of(nodeid)
            if name is None:
                singles.append([index])
            else:
                groups.setdefault(name, []).append(index)
        # The groups first: each is a long unit that one worker must run alone, and the single
        # tests after them are what lets the workers finish together.
        self.units.extend(groups.values())
        self.units.extend(singles)
        self.queued = len(first)
        for node in self.nodes:
            self._refill(node)

    def mark_test_complete(self, node: Any, item_index: int, duration: float = 0) -> None:
        del self.pending[node][item_index]
        self._refill(node)

    def mark_test_pending(self, item: str) -> None:
        raise NotImplementedError  # only schedulers that steal work use it

    def remove_pending_tests_from_node(self, node: Any, indices: Sequence[int]) -> None:
        raise NotImplementedError  # only schedulers that steal work use it

    def remove_node(self, node: Any) -> str | None:
        """Forget a worker (finished or crashed); a crashed one's tests go back in the queue,
        and the one it was running is returned."""
        pending = self.pending.pop(node)
        if not pending:
            return None
        assert self.collection is not None
        left = list(pending)
        if left[1:]:  # the one that crashed is reported, not run again
            self.units.appendleft(left[1:])
            self.queued += len(left) - 1
        for other in self.nodes:
            self._refill(other)
        return self.collection[left[0]]

    # -- handing out work -----------------------------------------------------------------------

    def _refill(self, node: Any) -> None:
        if getattr(node, "shutting_down", False):
            return
        if not self.units:
            node.shutdown()
            return
        pending = self.pending[node]
        if len(pending) > LOW:
            return
        # Smaller batches as the queue empties, so that the workers finish together; never one
        # test alone while others wait: a worker runs a test only once it knows the next (or that
        # there is none), so a worker sent one would wait for a refill that never comes.
        batch = max(2, min(MAX_BATCH, self.queued // (4 * max(1, len(self.pending)))))
        sent: list[int] = []
        while self.units and len(sent) < batch:
            unit = self.units.popleft()
            sent.extend(unit)
            self.queued -= len(unit)
        for index in sent:
            pending[index] = None
        node.send_runtest_some(sent)
