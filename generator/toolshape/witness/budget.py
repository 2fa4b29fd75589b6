"""The witness engine's budget: a count of steps shared by everything built for one contract.

A hostile contract (a pattern with nested quantifiers, a `$ref` fan-out, thousands of
`oneOf` branches) must not make generation slow. Every candidate the engine confirms
with the reference evaluator costs one step, and the pattern search is handed the
steps that remain. One step can be dear where a schema is large (a candidate checked
against a union of big branches), so the reference evaluator's checks are counted too:
the budget also runs out after ``DEFAULT_CHECKS`` of them, witnesses and the derived
cases' expected outcomes together. Both are counted, not timed, so the same contract gives
the same witnesses (and the same bytes) on every machine.

The wall-clock cap is only a last-resort backstop against a step that is itself slow
(a reference evaluation of a deep instance): when it fires the output may differ from
a faster machine's, so it is set far above anything a realistic contract needs and
the exhaustion is reported like any other (a warning names what was left out).
"""

from __future__ import annotations

import time

from ..contract import reference

#: Steps per contract: one per candidate confirmed, SEARCH_COST per pattern search.
DEFAULT_STEPS = 200_000
#: Steps one pattern search may take (of those that remain): its own bound.
SEARCH_STEPS = 20_000
#: Reference-evaluator checks per contract (each schema-and-value pair it looks at): a real
#: schema of a few thousand lines uses some tens of thousands; this stops one whose unions
#: make every case cost thousands of checks while it is still seconds from its start.
DEFAULT_CHECKS = 100_000
#: What one pattern search costs the contract's budget (the search does not report what it
#: used; a search that runs out of its own steps exhausts the budget instead).
SEARCH_COST = 100
#: How many `$ref`s and nested values deep a value is built (recursive schemas stop here).
MAX_DEPTH = 6
#: The most items or keys of an array or object the engine builds (bigger bounds are not materialised).
MAX_SIZE = 4096
#: Last-resort backstop, in seconds per contract (see the module docstring).
BACKSTOP_SECONDS = 30.0


class Budget:
    """Steps left for one contract; ``exhausted`` stays True once they ran out."""

    def __init__(
        self,
        steps: int = DEFAULT_STEPS,
        seconds: float = BACKSTOP_SECONDS,
        checks: int | None = None,
    ) -> None:
        self.limit = steps
        self.left = steps
        self.exhausted = False
        #: The evaluator's count of checks at which this budget runs out.
        self._checks_end = reference.checks_made() + (DEFAULT_CHECKS if checks is None else checks)
        #: A pattern search stopped at its own bound (the contract's other values go on).
        self.searches_cut = False
        self._deadline = time.monotonic() + seconds
        self._calls = 0

    def spend(self, steps: int = 1) -> bool:
        """Take ``steps``; False (and exhausted from then on) when they are not there."""
        if self.exhausted:
            return False
        self._calls += 1
        if (
            steps > self.left
            or reference.checks_made() > self._checks_end
            or (self._calls % 256 == 0 and time.monotonic() > self._deadline)
        ):
            self.left = 0
            self.exhausted = True
            return False
        self.left -= steps
        return True

    def afford(self) -> bool:
        """Whether more work may be done: False (and exhausted from then on) once the steps
        or the checks ran out. For work that takes no step itself (a derived case's outcome)."""
        return self.spend(0)

    def grant(self, wanted: int = SEARCH_STEPS) -> int:
        """How many steps a sub-search may use (it reports back with :meth:`spend`)."""
        return 0 if self.exhausted else min(wanted, self.left)

    @property
    def used(self) -> int:
        return self.limit - self.left
