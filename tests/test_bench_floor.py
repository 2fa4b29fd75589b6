"""The benchmark's floor (tests/bench/floor.py, hand-written validators) reports what the
generated modules report, word for word, on every input the benchmark times.

The floor is what the per-call rows are measured against: a floor that says less than the
generated module is cheaper than it should be, and the ratio flatters the module. The
benchmark checks this before timing anything; this test makes every run of the suite check
it, so a change of a generated message that the floor did not follow fails here, not in the
next benchmark run.
"""

from __future__ import annotations

from pathlib import Path

import run


def test_the_floor_reports_what_the_generated_modules_report(tmp_path: Path) -> None:
    checked = run.check_agreement(run.load_benches(tmp_path))
    assert checked, "no bench was checked"
