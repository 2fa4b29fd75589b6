"""Writing a plan into its output folder: atomic replacements, orphans removed.

``write`` replaces each changed file atomically (a temporary file beside it, then
``os.replace``) and removes files it generated earlier for contracts that are gone
(``output.orphans``). Files without the toolshape header are never touched, and
nothing is written outside the output folder.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from ..contract.errors import ContractError, Problem
from . import cache, importable, manifest, output
from .planning import Plan


@dataclass
class FileChange:
    path: PurePosixPath
    kind: str  # "new" | "changed" | "removed" | "unchanged"


def _safe_target(out: Path, relative: PurePosixPath) -> Path:
    target = out / Path(*relative.parts)
    resolved_out = out.resolve()
    if not target.resolve().is_relative_to(resolved_out):
        raise ContractError(
            [
                Problem(
                    str(target),
                    1,
                    1,
                    f"refusing to write outside the output folder {out} (a symlink?)",
                )
            ]
        )
    return target


def write(result: Plan, out: Path) -> list[FileChange]:
    """Bring ``out`` in line with the plan; return what happened to each file.

    Every target is checked first (inside ``out``, not a file toolshape did not
    generate), so a refusal writes nothing. Then each changed file is replaced
    atomically; an interrupted run leaves every file either old or new.
    """
    out.mkdir(parents=True, exist_ok=True)
    gone = output.orphans(result, out)  # by the record as it is before this run
    pending: list[tuple[PurePosixPath, Path, bytes, bool]] = []
    changes: list[FileChange] = []
    unchanged = result.read_already(out)
    for relative, text in sorted(result.files.items()):
        if relative in unchanged:
            changes.append(FileChange(relative, "unchanged"))
            continue
        target = _safe_target(out, relative)
        data = text.encode("utf-8")
        old = output.read_bytes(target)
        if old == data:
            changes.append(FileChange(relative, "unchanged"))
            continue
        blocker = next(
            (p for p in output.ancestors(out, relative) if os.path.lexists(p) and not p.is_dir()),
            None,
        )
        if blocker is not None:
            raise ContractError(
                [
                    Problem(
                        str(blocker),
                        1,
                        1,
                        f"a file is in the way of the generated folder {blocker.name}/; move it",
                    )
                ]
            )
        if os.path.lexists(target) and not (target.is_file() and manifest.is_ours(target)):
            what = "a folder" if target.is_dir() else "a file that toolshape did not generate"
            raise ContractError(
                [
                    Problem(
                        str(target),
                        1,
                        1,
                        f"{what} is in the way of a generated file; move it, then run again",
                    )
                ]
            )
        pending.append((relative, target, data, old is None))
    # The record goes last, after the removals: interrupted before it, the old record
    # still lists the orphans, and the next run removes them.
    record = [item for item in pending if item[0] == manifest.MANIFEST]
    files = [item for item in pending if item[0] != manifest.MANIFEST]
    _write_all([(target, data) for _, target, data, _ in files])
    _remove(gone, out, changes)
    _write_all([(target, data) for _, target, data, _ in record])
    changes.extend(
        FileChange(relative, "new" if new else "changed") for relative, *_, new in pending
    )
    # Bytecode of a generated module that check would refuse (a source whose mtime moved,
    # a forged pyc): a cache, never a file of the user's, so it goes.
    for cached in importable.refused_bytecode(result, out):
        cached.unlink(missing_ok=True)
    cache.record(result.cache_entries)
    return sorted(changes, key=lambda change: change.path)


def _remove(gone: dict[PurePosixPath, Path], out: Path, changes: list[FileChange]) -> None:
    for relative, path in gone.items():
        path.unlink()
        _remove_bytecode(path)
        changes.append(FileChange(relative, "removed"))
        _remove_empty_parents(path.parent, out)


def _remove_bytecode(source: Path) -> None:
    """Remove the bytecode Pythons (and pytest) cached for ``source``, which was just written
    or removed: none of it records the file as it is now, and ``check`` refuses bytecode
    that does not (importable.py)."""
    pycache = source.parent / "__pycache__"
    if source.suffix != ".py" or pycache.is_symlink() or not pycache.is_dir():
        return
    for cached in pycache.iterdir():
        name = cached.name
        if name.startswith(f"{source.stem}.") and name.endswith(".pyc") and not cached.is_dir():
            cached.unlink(missing_ok=True)


#: How many files are written at once. Each write waits for the disk (fsync), and a disk
#: takes several at once in about the time of one: 300 files of 100 kB took 2.0 s one at a
#: time and 0.18 s eight at a time on this project's machine (a cold run writes 2,000).
WRITERS = 8


def _write_all(files: list[tuple[Path, bytes]]) -> None:
    """Write each of ``files`` atomically (see ``_atomic_write``), ``WRITERS`` at a time.

    The order they land in does not matter: the record, which says what the folder holds,
    is written after all of them. On a failure (or Ctrl-C) the writes not started are
    dropped, and those under way finish: every file is old or new, as in a serial run."""
    mode = _file_mode()  # os.umask is process-wide: read it once, before the threads
    if len(files) < 2:
        for target, data in files:
            _write_one(target, data, mode)
        return
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(WRITERS) as pool:
        futures = [pool.submit(_write_one, target, data, mode) for target, data in files]
        try:
            for future in futures:
                future.result()
        except BaseException:
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _write_one(target: Path, data: bytes, mode: int) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    _atomic_write(target, data, mode)
    _remove_bytecode(target)


def _file_mode() -> int:
    """The mode a new file gets from open(): 0o666 less the umask (mkstemp would give 0o600)."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def _atomic_write(target: Path, data: bytes, mode: int) -> None:
    """``data`` into ``target`` by a temporary file beside it, on the disk (fsync) before it
    replaces ``target``: an interruption, even a crash, leaves the old file or the new one."""
    handle, temporary = tempfile.mkstemp(
        dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
    )
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _remove_empty_parents(folder: Path, out: Path) -> None:
    top = out.resolve()
    while folder.resolve() != top and folder.resolve().is_relative_to(top):
        leftovers = [p for p in folder.iterdir() if p.name != "__pycache__"]
        if leftovers:
            return
        for pycache in folder.iterdir():
            _remove_tree(pycache)
        folder.rmdir()
        folder = folder.parent


def _remove_tree(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        for child in path.iterdir():
            _remove_tree(child)
        path.rmdir()
    else:
        path.unlink()
