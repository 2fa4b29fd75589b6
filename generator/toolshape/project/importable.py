"""What Python could import from an output folder besides the files toolshape generated.

``check`` compares every generated file byte for byte, but Python does not import files,
it imports names: ``importlib``'s FileFinder looks, in each folder of a package, for a
package folder first (``pay/`` holding ``__init__`` with any suffix), then for a module
with each suffix in turn (extension modules before source before sourceless bytecode),
and makes any other folder a namespace package; a source module's bytecode comes from
``__pycache__`` when its header matches the source; ``site`` runs ``.pth`` files. So an
entry toolshape did not write can run in place of a generated module, or beside it.

``unlisted`` walks every entry of every folder Python could import from the output
(the package folders, and every folder below them, each a namespace package) and names
every entry importlib could make something of that the plan does not list. What no
import can reach stays allowed: data files, a README, folders whose name holds a dot.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import marshal
import os
import sys
import types
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from . import manifest
from .planning import Plan

#: Source suffixes of every supported Python (``.pyw`` is one on Windows).
SOURCE_SUFFIXES = (".py", ".pyw")
#: How every CPython's extension-module suffixes end (EXTENSION_SUFFIXES: Linux and macOS
#: ``.cpython-311-x86_64-linux-gnu.so``, ``.abi3.so``, ``.so``; Windows ``.cp311-win_amd64.pyd``,
#: ``.pyd``; Cygwin ``.dll``), whatever tag comes between the module's name and the ending.
EXTENSION_ENDINGS = (".so", ".pyd", ".dll")
PYCACHE = "__pycache__"


@dataclass(frozen=True)
class Importable:
    """An entry of the output folder that Python could import and toolshape did not write."""

    path: PurePosixPath
    what: str  # why it is importable, and what it could stand in for


def module_name(filename: str) -> str | None:
    """The module importlib could load from a file named ``filename`` in a package folder
    (by the suffixes of any supported Python, not only the running one), or None.

    Matched without regard to case, as on a case-insensitive file system with PYTHONCASEOK."""
    lower = filename.lower()
    suffixes = {*SOURCE_SUFFIXES, ".pyc", *importlib.machinery.all_suffixes()}
    for suffix in sorted(suffixes, key=len, reverse=True):
        stem = filename[: -len(suffix)]
        if lower.endswith(suffix.lower()) and stem and "." not in stem:
            return stem
    stem, dot, _ = filename.partition(".")
    if stem and dot and lower.endswith(EXTENSION_ENDINGS):
        return stem
    return None


def _kind(filename: str) -> str:
    lower = filename.lower()
    if lower.endswith(EXTENSION_ENDINGS):
        return "an extension module"
    if lower.endswith(".pyc"):
        return "sourceless bytecode"
    return "a source module"


def unlisted(result: Plan, out: Path, skip: set[PurePosixPath] | None = None) -> list[Importable]:
    """Every entry under ``out`` that Python could import, in place of or beside a generated
    module, and that the plan does not list (``skip``: paths already reported otherwise)."""
    if not out.is_dir():
        return []
    walk = _Walk(result, out, skip or set())
    walk.folder(PurePosixPath(), out)
    return walk.found


def refused_bytecode(result: Plan, out: Path) -> list[Path]:
    """The bytecode of generated modules that ``unlisted`` refuses (stale, forged, or of a
    kind check cannot verify): caches ``generate`` removes, so that ``check`` passes after
    it. Only ``.pyc`` files in the ``__pycache__`` of a generated package folder, named after
    a module generated there, and inside ``out`` (never through a symlink out of it)."""
    top = out.resolve()
    found = []
    for entry in unlisted(result, out):
        folder = entry.path.parent.parent
        if (
            entry.path.parent.name == PYCACHE
            and entry.path.name.lower().endswith(".pyc")
            and folder / "__init__.py" in result.files
            and folder / f"{entry.path.name.split('.', 1)[0]}.py" in result.files
        ):
            path = out / Path(*entry.path.parts)
            if path.parent.resolve().is_relative_to(top) and not path.parent.is_symlink():
                found.append(path)
    return found


class _Walk:
    def __init__(self, result: Plan, out: Path, skip: set[PurePosixPath]) -> None:
        self.files = result.files
        self.skip = skip
        self.packages = {p.parent for p in result.files if p.name == "__init__.py"}
        self.found: list[Importable] = []
        self.seen: set[tuple[int, int]] = set()
        self.names = _names_by_folder(result.files)

    def _generated_names(self, folder: PurePosixPath) -> dict[str, str]:
        """Lower-cased module and package names the plan puts in ``folder`` -> their paths."""
        return self.names.get(folder, {})

    def report(self, relative: PurePosixPath, what: str) -> None:
        if relative not in self.skip:
            self.found.append(Importable(relative, what))

    def folder(self, relative: PurePosixPath, path: Path) -> None:
        """Every entry of a folder Python imports from (a package, or a namespace package)."""
        try:
            info = path.stat()
            entries = sorted(os.scandir(path), key=lambda e: e.name)
        except OSError:
            return
        if (info.st_dev, info.st_ino) in self.seen:  # a symlink loop
            return
        self.seen.add((info.st_dev, info.st_ino))
        generated = self._generated_names(relative)
        for entry in entries:
            child = relative / entry.name
            if child in self.files:
                continue  # checked byte for byte
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                self.subfolder(child, Path(entry.path), generated)
            else:
                self.file(child, entry.name, generated)

    def subfolder(self, relative: PurePosixPath, path: Path, generated: dict[str, str]) -> None:
        name = relative.name
        if "." in name:
            return  # no module name holds a dot: nothing in it can be imported
        if relative in self.packages:
            self.folder(relative, path)
            return
        if name == PYCACHE:
            self.pycache(relative, path)
            return
        shadowed = generated.get(name.lower())
        if self._nested_output(path):
            if shadowed is not None:
                self.report(
                    relative,
                    f"another output folder named like the generated {shadowed}: "
                    "Python could import it in its place",
                )
            return  # its own check vouches for its files
        has_init = any((module_name(e) or "").lower() == "__init__" for e in _names(path))
        if has_init:
            where = (
                f"in place of the generated {shadowed}"
                if shadowed
                else "beside the generated modules"
            )
            self.report(
                relative,
                f"a package folder (it has an __init__ module) that Python imports {where}",
            )
        elif shadowed is not None:
            self.report(
                relative,
                f"a folder named like the generated {shadowed}: Python could import it "
                "as a namespace package in its place",
            )
        self.folder(relative, path)  # a namespace package: its entries are importable too

    def file(self, relative: PurePosixPath, name: str, generated: dict[str, str]) -> None:
        if name.lower().endswith(".pth"):
            self.report(relative, "a .pth file: site runs the code in it at start-up")
            return
        module = module_name(name)
        if module is None:
            return  # a data file: nothing imports it
        shadowed = generated.get(module.lower())
        if shadowed is not None:
            where = f"named like the generated {shadowed}: Python could import it in its place"
        else:
            where = "that Python could import beside the generated modules"
        self.report(relative, f"{_kind(name)} {where}")

    def pycache(self, relative: PurePosixPath, path: Path) -> None:
        """``__pycache__`` of a folder: bytecode must belong to a generated source, as written."""
        folder = relative.parent
        for name in _names(path):
            child = relative / name
            entry = path / name
            if entry.is_dir():
                self.subfolder(child, entry, {})
            elif name.lower().endswith(".pyc"):
                problem = _bytecode_problem(self.files, folder, name, entry)
                if problem is not None:
                    self.report(child, problem)
            else:
                self.file(child, name, {})

    @staticmethod
    def _nested_output(path: Path) -> bool:
        record = path / Path(*manifest.MANIFEST.parts)
        return record.is_file() and not record.is_symlink() and manifest.is_ours(record)


def _names(path: Path) -> list[str]:
    try:
        return sorted(os.listdir(path))
    except OSError:
        return []


def loaded_names(stem: str) -> dict[str, int]:
    """The bytecode files the running Python's importer reads for source ``stem``.py, with
    the optimisation level each is compiled at (``importlib.util.cache_from_source``)."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return {}
    return {
        f"{stem}.{tag}.pyc": 0,
        f"{stem}.{tag}.opt-1.pyc": 1,
        f"{stem}.{tag}.opt-2.pyc": 2,
    }


def _bytecode_problem(
    files: dict[PurePosixPath, str], folder: PurePosixPath, name: str, path: Path
) -> str | None:
    """Why Python could run the bytecode ``folder/__pycache__/name`` in place of its generated
    source, or None where it never would.

    Python reads ``__pycache__`` only for a source beside it (PEP 3147: without its source it is
    never imported), and uses a timestamp or checked-hash pyc only when its header records the
    source as it is on disk; otherwise it compiles the source again (a checkout that moves
    mtimes leaves such harmless, stale files behind, and they pass). What Python would run is
    checked: bytecode whose header matches the source, and unchecked hash-based bytecode (used
    whatever the source holds), must hold exactly the code the generated source compiles to."""
    stem = name.split(".", 1)[0]
    source = folder / f"{stem}.py"
    if source not in files:
        return None  # never imported: no source beside it
    source_path = path.parent.parent / f"{stem}.py"
    try:
        data = path.read_bytes()
        stat = source_path.stat()
    except OSError:
        return None  # what cannot be read cannot be run either
    if len(data) < 16 or data[:4] != importlib.util.MAGIC_NUMBER:
        # Another Python's (its own name tells which): that Python checks the header of a
        # timestamp or checked-hash pyc as this one does; an unchecked one it would run unseen.
        flags = int.from_bytes(data[4:8], "little") if len(data) >= 8 else 0
        if flags == 1:
            return "unchecked hash-based bytecode of another Python, which check cannot verify"
        return None
    flags = int.from_bytes(data[4:8], "little")
    expected = files[source].encode("utf-8")
    if flags == 0:
        size = int.from_bytes(data[12:16], "little")
        mtime = int.from_bytes(data[8:12], "little")
        if mtime != int(stat.st_mtime) & 0xFFFFFFFF or size != stat.st_size & 0xFFFFFFFF:
            return None  # stale: Python compiles the source instead (and writes it again)
    elif flags == 3:
        if data[8:16] != importlib.util.source_hash(expected):
            return None  # stale: the hash is checked
    elif flags != 1:
        return None  # invalid flags: Python refuses the file and compiles the source
    level = loaded_names(stem).get(name)
    if level is None:
        return None  # a name this Python's importer never reads (another tag, a tool's own)
    try:
        code = marshal.loads(data[16:])
    except (EOFError, ValueError, TypeError):
        return "bytecode Python would try to load in place of the source, and cannot read"
    compiled = compile(expected, str(source_path), "exec", dont_inherit=True, optimize=level)
    if not isinstance(code, types.CodeType) or code != compiled:
        return (
            f"bytecode that is not the code of {source.name}, though Python would load it "
            "(its header matches, or it is not checked): Python would run it in place of the source"
        )
    return None


def _names_by_folder(files: Iterable[PurePosixPath]) -> dict[PurePosixPath, dict[str, str]]:
    """For each folder, the lower-cased names of the modules and packages the plan puts in it
    -> their file or folder name (``pay.py``, ``billing/``), in one pass over the plan (a walk
    asks for every folder, and a plan of a thousand contracts lists two thousand files).
    In the plan's order: a module's entry replaces an earlier one of the same name, a
    package's never does."""
    names: dict[PurePosixPath, dict[str, str]] = {}
    for path in files:
        parts = path.parts
        for depth in range(len(parts) - 1):  # each folder above the file's own
            folder = PurePosixPath(*parts[:depth])
            names.setdefault(folder, {}).setdefault(parts[depth].lower(), f"{parts[depth]}/")
        if path.suffix == ".py":
            names.setdefault(path.parent, {})[path.stem.lower()] = path.name
    return names
