"""The two sides of ``toolshape diff`` as read: contract files from a folder or from git,
each a mapping ``display path -> raw bytes``."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path, PurePosixPath

from ..contract import source
from ..contract.errors import UsageError

#: The suffixes of contract files (as ``toolshape generate`` reads them).
CONTRACT_SUFFIXES = (".yaml", ".yml")


def read_folder(path: str | os.PathLike[str]) -> dict[str, bytes]:
    """The contracts of a file or folder: ``{display path: bytes}`` (display = the path as given).

    Symlinks are not followed (a contract is read at its real place); a file over
    the size limit is read only up to just past it (``source.load`` refuses it).
    """
    root = Path(path)
    if root.is_file():
        return {root.as_posix(): _read_limited(root)}
    if not root.is_dir():
        raise UsageError(f"{path}: no such contract file or folder")
    found: dict[str, bytes] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not (Path(folder) / d).is_symlink())
        for name in sorted(files):
            file = Path(folder) / name
            if file.suffix in CONTRACT_SUFFIXES and file.is_file() and not file.is_symlink():
                found[file.as_posix()] = _read_limited(file)
    return dict(sorted(found.items()))


def _read_limited(path: Path) -> bytes:
    with open(path, "rb") as stream:
        return stream.read(source.MAX_CONTRACT_BYTES + 1)


def read_git(
    rev: str,
    path: str | os.PathLike[str] = "contracts",
    *,
    cwd: str | os.PathLike[str] | None = None,
) -> dict[str, bytes]:
    """The contracts under ``path`` as they were at git revision ``rev``: ``{"REV:path": bytes}``.

    ``path`` (a folder or one file, relative to ``cwd``) is looked up in the tree of
    ``rev`` with ``git ls-tree -r --full-name -z REV -- <path>`` and each regular
    file ending in .yaml/.yml is read with ``git show REV:<path>``; git runs with a
    list of arguments, never through a shell. A path missing at ``rev`` gives an
    empty mapping (every tool is then "added"). Raises :class:`UsageError` when
    this is not a git work tree or ``rev`` names no commit.
    """
    if not rev or rev.startswith("-"):
        raise UsageError(f"--base {rev!r}: not a git revision")
    here = Path(cwd) if cwd is not None else Path.cwd()
    top = Path(
        _git(["rev-parse", "--show-toplevel"], here, what="not inside a git work tree")
        .decode()
        .strip()
    )
    commit = (
        _git(
            ["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
            here,
            what=f"--base {rev}: no such commit",
        )
        .decode()
        .strip()
    )
    target = (here / path).resolve()
    try:
        relative = target.relative_to(top.resolve()).as_posix()
    except ValueError:
        raise UsageError(f"{path}: outside the git work tree {top}") from None
    listing = _git(
        ["ls-tree", "-r", "--full-name", "-z", commit, "--", relative or "."],
        top,
        what=f"git ls-tree {rev}",
    )
    found: dict[str, bytes] = {}
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, name_bytes = entry.partition(b"\t")
        mode, kind = meta.split(b" ")[:2]
        name = name_bytes.decode("utf-8", "surrogateescape")
        if kind != b"blob" or mode not in (b"100644", b"100755"):
            continue  # symlinks, submodules
        if PurePosixPath(name).suffix not in CONTRACT_SUFFIXES:
            continue
        found[f"{rev}:{name}"] = _git(
            ["show", f"{commit}:{name}"], top, what=f"git show {rev}:{name}"
        )
    return dict(sorted(found.items()))


def _git(args: list[str], cwd: Path, *, what: str) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise UsageError(f"cannot run git: {exc.strerror or exc}") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(what + (f" ({detail[-1]})" if detail else ""))
    return done.stdout
