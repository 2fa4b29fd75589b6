"""Progress on a terminal while a folder of contracts is planned: count, rate, current contract.

A ``Progress`` is the listener ``planning.plan`` calls before it waits for each contract. It
stays silent for the first second (a short run shows nothing), then rewrites one status line
(``toolshape: 12/160 contracts, 7.5/s: contracts/billing/refund.yaml``) at most ten times a
second, and ``finish`` erases it, so that what a command prints next starts on a clean line.
It writes only to a terminal, never with ``-q``: a log or a pipe gets no carriage returns.
"""

from __future__ import annotations

import shutil
import time
from collections.abc import Callable
from typing import TextIO

#: Nothing is shown before a run has taken this long (seconds): most runs end before.
DELAY = 1.0
#: The status line is rewritten at most this often (seconds): a terminal is slow to scroll.
INTERVAL = 0.1
#: Erase the line: carriage return, then ANSI "erase to the end of the line".
ERASE = "\r\033[K"


def is_terminal(stream: TextIO) -> bool:
    """Whether ``stream`` is a terminal (a closed or odd stream is not)."""
    try:
        return stream.isatty()
    except (OSError, ValueError, AttributeError):
        return False


class Progress:
    """The status line of one run; ``enabled`` False makes every call do nothing."""

    def __init__(
        self,
        stream: TextIO,
        *,
        enabled: bool,
        clock: Callable[[], float] = time.monotonic,
        width: int | None = None,
    ) -> None:
        self.stream = stream
        self.enabled = enabled
        self.clock = clock
        self.width = width
        self.started: float | None = None
        self.last_shown: float | None = None
        #: How many times the status line was written (what the tests count).
        self.updates = 0

    @classmethod
    def on(cls, stream: TextIO, *, quiet: bool) -> Progress:
        """Progress on ``stream`` when it is a terminal and the run is not quiet."""
        return cls(stream, enabled=not quiet and is_terminal(stream))

    def __call__(self, done: int, total: int, current: str) -> None:
        """``done`` of ``total`` contracts are finished; ``current`` is the one being waited for."""
        if not self.enabled:
            return
        now = self.clock()
        if self.started is None:
            self.started = now
        elapsed = now - self.started
        if elapsed < DELAY or (self.last_shown is not None and now - self.last_shown < INTERVAL):
            return
        self.last_shown = now
        rate = done / elapsed if elapsed > 0 else 0.0
        line = f"toolshape: {done}/{total} contracts, {rate:.1f}/s: {current}"
        width = self.width or shutil.get_terminal_size((80, 24)).columns
        self.stream.write(ERASE + line[: max(width - 1, 1)])  # never wraps: \r returns to it
        self.stream.flush()
        self.updates += 1

    def finish(self) -> None:
        """Erase the status line, if one was written."""
        if self.updates:
            self.stream.write(ERASE)
            self.stream.flush()
