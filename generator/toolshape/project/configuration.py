"""The project's settings: the ``[tool.toolshape]`` table of ``pyproject.toml``.

``find`` walks up from the working folder to the first ``pyproject.toml`` that has the
table, stopping at a repository root (a folder holding ``.git``) or the file system's root;
``load`` reads and checks the table. Each key is the long name of a command-line option
(``contracts`` for the contracts folder): the option, when given, wins. A key toolshape does
not know, or a value of the wrong kind, is an error naming the file and the key, so that a
typo never passes unseen as "no setting".

Paths in the table are relative to the folder of its ``pyproject.toml``, whatever the
working folder; they are handed to the commands relative to the working folder, so that
messages name files the way a user would type them.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass
from pathlib import Path

from ..contract.errors import UsageError
from ..contract.wording import suggest
from ..platforms import export

if sys.version_info >= (3, 11):
    import tomllib
else:  # the standard library's TOML reader is 3.11's; tomli is the same code, for 3.10
    import tomli as tomllib

PYPROJECT = "pyproject.toml"
TABLE = "[tool.toolshape]"

#: Every key of the table: the long names of the options they stand for.
KEYS = ("contracts", "out", "templates", "target", "strict")


@dataclass(frozen=True)
class Settings:
    """What the table says; every value None (or empty) that it leaves out."""

    #: The pyproject.toml read, as the working folder sees it (None: no table found).
    file: Path | None = None
    #: The folders, relative to the working folder where possible (as a user would type them).
    contracts: str | None = None
    out: str | None = None
    templates: Path | None = None
    target: tuple[str, ...] = ()
    strict: bool | None = None

    def value(self, key: str) -> object:
        """The table's value for ``key`` as a command takes it (None when it is not set)."""
        if key == "target":
            return list(self.target) or None
        found: object = getattr(self, key)
        return found

    def generates(self, contracts: Path, out: Path) -> bool:
        """Whether a plain ``toolshape generate``, run from the folder that holds ``contracts``,
        generates ``contracts`` into ``out`` with this table: the table names both folders,
        and walking up from there finds this very file."""
        if self.file is None or self.contracts is None or self.out is None:
            return False
        if Path(self.contracts).resolve() != contracts.resolve():
            return False
        if Path(self.out).resolve() != out.resolve():
            return False
        top = contracts.resolve() if contracts.is_dir() else contracts.resolve().parent
        found = find(top.parent)
        return found is not None and found.resolve() == self.file.resolve()


def find(start: Path) -> Path | None:
    """The first ``pyproject.toml`` with a ``[tool.toolshape]`` table in ``start`` or a folder
    above it; the walk ends at a repository root (``.git``) or the file system's root."""
    for folder in (start, *start.parents):
        candidate = folder / PYPROJECT
        if candidate.is_file() and _table(candidate) is not None:
            return candidate
        if (folder / ".git").exists():
            return None
    return None


def load(start: Path | None = None) -> Settings:
    """The settings of the project ``start`` (default: the working folder) is in; raise
    UsageError for a table toolshape cannot take, naming the file and the key."""
    here = Path.cwd()
    found = find((start or here).resolve())
    if found is None:
        return Settings()
    shown = _shown(found, here)
    table = _table(found)
    if not isinstance(table, dict):
        raise UsageError(f"{shown}: {TABLE} must be a table of settings")
    for key in table:
        if key not in KEYS:
            raise UsageError(
                f"{shown}: {TABLE}: unknown key '{key}'{suggest(key, KEYS)} "
                f"(known: {', '.join(KEYS)})"
            )
    home = found.parent

    def path(key: str) -> str | None:
        return None if key not in table else _path(shown, key, table[key], home, here)

    templates = path("templates")
    return Settings(
        file=Path(shown),
        contracts=path("contracts"),
        out=path("out"),
        templates=None if templates is None else Path(templates),
        target=_targets(shown, table["target"]) if "target" in table else (),
        strict=_flag(shown, "strict", table["strict"]) if "strict" in table else None,
    )


def _flag(shown: str, key: str, value: object) -> bool:
    if not isinstance(value, bool):
        raise UsageError(f"{shown}: {TABLE} {key}: must be true or false, not {value!r}")
    return value


def _targets(shown: str, value: object) -> tuple[str, ...]:
    """A platform name or a list of them (``lint --target``, repeated)."""
    where = f"{shown}: {TABLE} target"
    targets = [value] if isinstance(value, str) else value
    if not isinstance(targets, list) or not all(isinstance(t, str) for t in targets):
        raise UsageError(f"{where}: must be a platform name or a list of them, not {value!r}")
    for target in targets:
        if target not in export.TARGETS:
            raise UsageError(
                f"{where}: unknown platform '{target}'{suggest(target, export.TARGETS)} "
                f"(known: {', '.join(export.TARGETS)})"
            )
    return tuple(targets)


def _path(shown: str, key: str, value: object, home: Path, here: Path) -> str:
    """A folder of the table, relative to its pyproject.toml's ``home``, as seen from ``here``."""
    where = f"{shown}: {TABLE} {key}"
    if not isinstance(value, str) or not value:
        raise UsageError(f"{where}: must be a path (a non-empty string), not {value!r}")
    path = _shown(home / value, here)
    if key == "templates" and not Path(path).is_dir():
        raise UsageError(f"{where} = {value!r}: no such folder")
    return path


def _shown(path: Path, here: Path) -> str:
    """``path`` relative to the working folder ``here`` when it can be (``contracts``,
    ``../api/tools``), else absolute: how a user would type it, and how messages name it."""
    try:
        return os.path.relpath(path, here)
    except ValueError:  # another drive (Windows)
        return str(path)


def _table(path: Path) -> object:
    """The ``[tool.toolshape]`` value of a pyproject.toml (None: it has none); UsageError when
    the file is not TOML (pip would refuse it too)."""
    try:
        with open(path, "rb") as handle:
            document = tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise UsageError(f"{_shown(path, Path.cwd())}: not valid TOML: {exc}") from None
    tool = document.get("tool")
    return tool.get("toolshape") if isinstance(tool, dict) else None
