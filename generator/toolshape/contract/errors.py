"""Problems found in contracts, reported as ``path:line:col: error: message``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


@dataclass(frozen=True, order=True)
class Problem:
    """One finding in one contract file, located at a line and column (both 1-based).

    An error stops generation; a warning is printed and generation goes on (exit 0),
    unless the command runs with ``--strict``."""

    file: str
    line: int
    col: int
    message: str
    severity: Severity = "error"

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.severity}: {self.message}"


class ContractError(Exception):
    """Raised with every problem found; nothing is generated when it is raised."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class UsageError(Exception):
    """The command itself is wrong (a missing path, a bad option value, a bad git revision):
    exit status 2. One class for every command, so that the command line catches one."""
