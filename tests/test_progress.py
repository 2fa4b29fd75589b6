"""Progress on stderr while contracts are generated: only on a terminal, never with -q, never
in the first second; counted in status lines written, never timed.

The unit tests drive ``Progress`` with a clock that advances a fixed step per call (steps that
are exact in binary, so that no rounding decides a count); the end-to-end tests run ``generate``
with stderr on a pseudo-terminal (``os.openpty``) and on a pipe.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from support import ROOT, example_contracts
from toolshape.cli import main
from toolshape.project import planning, progress
from toolshape.project.progress import ERASE, Progress

SUBSET = ("get_weather.yaml", "send_email.yaml", "web_search.yaml")


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def ticking(step: float) -> Iterator[float]:
    now = 0.0
    while True:
        yield now
        now += step


def drive(stream: io.StringIO, step: float, calls: int, *, quiet: bool = False) -> Progress:
    clock = ticking(step)
    shown = Progress.on(stream, quiet=quiet)
    shown.clock = lambda: next(clock)
    shown.width = 60
    for done in range(calls):
        shown(done, calls, f"contracts/tool_{done}.yaml")
    shown.finish()
    return shown


def test_nothing_is_shown_in_the_first_second() -> None:
    stream = Terminal()
    shown = drive(stream, step=0.25, calls=4)  # 0, 0.25, 0.5, 0.75 s
    assert shown.updates == 0 and stream.getvalue() == ""


def test_after_a_second_each_call_a_tenth_of_a_second_apart_is_shown() -> None:
    stream = Terminal()
    shown = drive(stream, step=0.25, calls=10)  # shown at 1.0, 1.25, ..., 2.25 s
    assert shown.updates == 6
    lines = stream.getvalue().split(ERASE)
    assert lines[0] == "" and lines[-1] == ""  # each update starts by erasing; finish erases
    assert lines[1] == "toolshape: 4/10 contracts, 4.0/s: contracts/tool_4.yaml"
    assert lines[6] == "toolshape: 9/10 contracts, 4.0/s: contracts/tool_9.yaml"


def test_updates_closer_than_a_tenth_of_a_second_are_skipped() -> None:
    stream = Terminal()
    shown = drive(stream, step=0.0625, calls=32)  # 1.0 s at call 16; then every other call
    assert shown.updates == 8


def test_a_line_never_wraps() -> None:
    stream = Terminal()
    clock = ticking(1.0)
    shown = Progress(stream, enabled=True, clock=lambda: next(clock), width=30)
    shown(0, 2, "x" * 100)
    shown(1, 2, "x" * 100)
    assert stream.getvalue() == ERASE + "toolshape: 1/2 contracts, 1.0/s: xxxxx"[:29]


@pytest.mark.parametrize("quiet", [False, True])
def test_not_on_a_pipe_and_not_with_quiet(quiet: bool) -> None:
    stream: io.StringIO = Terminal() if quiet else io.StringIO()
    shown = drive(stream, step=0.25, calls=10, quiet=quiet)
    assert shown.updates == 0 and stream.getvalue() == ""


# -- generate, end to end --------------------------------------------------------------------

#: A status line as generate writes it; the rate is the clock's, so only its form is known.
STATUS = re.compile(r"toolshape: (\d+)/(\d+) contracts, \d+\.\d/s: (.+)")


@pytest.fixture
def contracts(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three contracts in tmp_path/contracts, generated in this process one by one, every
    progress call shown (no delay, no interval: the test counts lines, never time)."""
    folder = tmp_path / "contracts"
    folder.mkdir()
    for name in SUBSET:
        shutil.copyfile(ROOT / "contracts" / name, folder / name)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOOLSHAPE_JOBS", "1")
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", "")
    monkeypatch.setattr(progress, "DELAY", 0.0)
    monkeypatch.setattr(progress, "INTERVAL", 0.0)
    return folder


def on_a_terminal(*args: str) -> tuple[int, str]:
    """Run toolshape with stderr on a pseudo-terminal; what it wrote there."""
    leader, follower = os.openpty()
    saved = sys.stderr
    try:
        with open(follower, "w", encoding="utf-8") as terminal:
            sys.stderr = terminal
            code = main(list(args))
    finally:
        sys.stderr = saved
    os.set_blocking(leader, False)
    written = b""
    try:
        while chunk := os.read(leader, 65536):
            written += chunk
    except OSError:  # all read: EAGAIN, or EIO once the follower is closed (Linux)
        pass
    os.close(leader)
    return code, written.decode("utf-8")


def test_generate_shows_each_contract_on_a_terminal(
    contracts: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, written = on_a_terminal("generate")
    assert code == 0, written
    assert "generated 3 modules" in capsys.readouterr().out
    statuses = [part for part in written.split(ERASE) if part]
    found = [STATUS.fullmatch(status) for status in statuses]
    assert [m.groups() if m else status for m, status in zip(found, statuses, strict=True)] == [
        (str(done), "3", str(Path("contracts") / name)) for done, name in enumerate(SUBSET)
    ]
    assert written.endswith(ERASE)  # erased at the end: what follows starts on a clean line


def test_generate_shows_nothing_on_a_terminal_with_quiet(contracts: Path) -> None:
    assert on_a_terminal("generate", "-q") == (0, "")


def test_generate_shows_nothing_on_a_pipe(
    contracts: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["generate"]) == 0
    assert capsys.readouterr().err == ""


def test_generate_in_worker_processes_shows_each_contract_in_order(
    contracts: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """From POOL_THRESHOLD contracts on, workers generate them; the status still counts each,
    in the order of the contract files."""
    shutil.rmtree(contracts)
    shutil.copytree(ROOT / "contracts", contracts)
    monkeypatch.setenv("TOOLSHAPE_JOBS", "2")
    names = sorted(p.relative_to(contracts).parts for p in example_contracts(contracts))
    assert len(names) >= planning.POOL_THRESHOLD
    code, written = on_a_terminal("generate")
    assert code == 0, written
    found = [STATUS.fullmatch(part) for part in written.split(ERASE) if part]
    assert [m.groups() if m else None for m in found] == [
        (str(done), str(len(names)), str(Path("contracts", *name)))
        for done, name in enumerate(names)
    ]
