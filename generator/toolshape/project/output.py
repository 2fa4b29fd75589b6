"""An output folder as found on disk: the files toolshape generated there, and those
it generated earlier for contracts that are gone (orphans).

Only files that the folder's own record (``manifest.MANIFEST``) lists count as orphans,
never files of another output folder nested inside it or files put there by hand.
"""

from __future__ import annotations

import os
from pathlib import Path, PurePosixPath

from . import headers, manifest
from .planning import Plan


def existing_output(out: Path) -> dict[PurePosixPath, Path]:
    """Files under ``out`` that toolshape generated (they start with its header)."""
    if not out.is_dir():
        return {}
    return {
        PurePosixPath(*p.relative_to(out).parts): p
        for p in sorted(out.rglob("*.py"))
        if p.is_file() and not p.is_symlink() and manifest.is_ours(p)
    }


def ancestors(out: Path, relative: PurePosixPath) -> list[Path]:
    """The folders between ``out`` and the file at ``relative`` (billing/, billing/eu/)."""
    return [out / Path(*relative.parts[:n]) for n in range(1, len(relative.parts))]


def read_bytes(path: Path) -> bytes | None:
    """The bytes of the file at ``path``; None when there is no regular file there."""
    if not path.is_file():
        return None
    return path.read_bytes()


def _inside_nested_output(out: Path, relative: PurePosixPath) -> bool:
    """Whether a folder between ``out`` and ``relative`` holds its own record: another output folder."""
    return any(
        os.path.lexists(folder / Path(*manifest.MANIFEST.parts))
        for folder in ancestors(out, relative)
    )


def _has_contract_digest(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return headers.header_digest(handle.read(4096)) is not None
    except OSError:
        return False


def orphans(result: Plan, out: Path) -> dict[PurePosixPath, Path]:
    """Files toolshape generated in ``out`` earlier that the plan no longer produces: what
    ``write`` removes and ``check`` calls extra.

    Only files listed in ``out``'s own record, still carrying the toolshape header, inside
    ``out`` and not inside a nested output folder (one with its own record). A folder an
    older toolshape wrote has no record, but its dispatch gate ``__init__.py``: then its
    generated modules and tests (a header with a ``contract-sha256`` line) outside nested
    output folders count, as they did before. A folder with neither has nothing to clean."""
    if not out.is_dir():
        return {}
    listed = manifest.recorded(out)
    if listed is not None:
        candidates = listed
    elif manifest.is_ours(
        out / "__init__.py"
    ):  # an older toolshape's output: it always has its dispatch gate
        candidates = {
            relative
            for relative, path in existing_output(out).items()
            if _has_contract_digest(path)
        }
    else:  # no output of toolshape's own here yet (perhaps a nested one): nothing to clean up
        candidates = set()
    top = out.resolve()
    found: dict[PurePosixPath, Path] = {}
    for relative in sorted(candidates):
        if relative in result.files:
            continue
        path = out / Path(*relative.parts)
        if (
            path.is_symlink()
            or not path.is_file()
            or not path.resolve().is_relative_to(top)
            or not manifest.is_ours(path)
        ):
            continue
        if _inside_nested_output(out, relative):
            continue
        found[relative] = path
    return found


def _header_source(path: Path) -> str | None:
    """The contract a generated module's first lines name ("... from contracts/x.yaml. Do not edit.")."""
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            first_lines = [handle.readline().rstrip("\n") for _ in range(8)]
    except OSError:
        return None
    return headers.header_source(first_lines)


def partial_run(root: Path, result: Plan, out: Path, command: str) -> str | None:
    """Why running ``command`` on ``root`` would take apart ``out``, or None when it is safe.

    ``out`` holds the output of a whole contracts folder; generating one contract file, or
    a subfolder, into it would remove (and ``check`` would call extra) every module of the
    other contracts, which are not gone at all. That is refused with the command that
    covers the whole folder. A file root owns no other module; a folder root owns the
    modules whose header names a contract under a folder of the same name.
    """
    gone = orphans(result, out)
    if not gone:
        return None
    top = root.resolve() if root.is_dir() else root.resolve().parent
    others = []
    for relative, path in gone.items():
        label = _header_source(path)
        if label is None:
            continue
        if root.is_file() or PurePosixPath(label).parts[0] != top.name:
            others.append((relative, label))
    if not others:
        return None
    whole = _whole_folder(root, PurePosixPath(others[0][1]).parts[0])
    modules = sorted({str(r) for r, _ in others})
    shown = ", ".join(modules[:3]) + (", ..." if len(modules) > 3 else "")
    count = len(modules)
    verb = "remove" if command == "generate" else "report as extra"
    return (
        f"{out} holds the output of a whole contracts folder; {command} {root} would {verb} "
        f"{count} file{'s' * (count != 1)} generated from other contracts ({shown}). "
        f"Run it on the whole folder: toolshape {command} {whole} --out {out} "
        f"(or give this part an output folder of its own with --out)"
    )


def _whole_folder(root: Path, name: str) -> str:
    """The folder named ``name`` that contains ``root`` (as the user would type it), else ``name``."""
    for ancestor in [root, *root.parents]:
        if ancestor.name == name and ancestor.is_dir():
            return str(ancestor)
    for ancestor in root.resolve().parents:
        if ancestor.name == name:
            return os.path.relpath(ancestor)
    return name
