"""The output folder's record of what toolshape generated in it, and its header.

Every file toolshape writes starts with ``HEADER``; files without it are not ours and
are never touched. ``MANIFEST`` lists the generated files with their sha256: orphan
cleanup removes only files listed there.
"""

from __future__ import annotations

import re
from pathlib import Path, PurePosixPath

from .. import __version__
from . import cache, headers

#: Every file toolshape writes starts with this; files without it are not ours.
HEADER = headers.GENERATED_BY
#: The output folder's record of the files toolshape generated in it: orphan cleanup
#: removes only files listed there, so a nested output folder (which has its own
#: record) and hand-written files are safe. Not a .py file: it is no module.
MANIFEST = PurePosixPath("toolshape-manifest.txt")


def manifest(
    files: dict[PurePosixPath, str], digests: dict[PurePosixPath, str] | None = None
) -> str:
    """The output folder's record of the files generated in it, each with its sha256 (sealed).

    Deterministic (sorted paths, the bytes as written), so `check` compares it like any
    other file. Cleanup trusts it only to name files: each must still carry the toolshape
    header and lie inside the folder, and not inside a nested output folder. ``digests``
    holds the sha256 of files' UTF-8 bytes that the caller computed already."""
    known = digests or {}
    lines = [
        f"{HEADER} {__version__}. Do not edit.",
        "# The files toolshape generated in this folder: `toolshape generate` removes a file only",
        "# when it is listed here and its contract is gone. Each line: sha256, two spaces, path.",
        headers.SEAL,
        *(
            f"{known.get(path) or cache.sha256(text.encode('utf-8'))}  {path.as_posix()}"
            for path, text in sorted(files.items())
            if path != MANIFEST
        ),
    ]
    return headers.seal("\n".join(lines) + "\n")


def is_ours(path: Path) -> bool:
    try:
        with path.open("rb") as handle:
            return handle.read(len(HEADER)) == HEADER.encode()
    except OSError:
        return False


#: A line of the record: sha256, two spaces, a relative path.
_LISTED = re.compile(r"[0-9a-f]{64}  (\S.*)")


def recorded(out: Path) -> set[PurePosixPath] | None:
    """The paths listed in ``out``'s record; None when it has none (an older toolshape wrote it).

    A record that cannot be read names nothing (nothing is removed). Listed paths that
    could leave the folder (absolute, ``..``) or are not modules are ignored."""
    path = out / Path(*MANIFEST.parts)
    if path.is_symlink() or not path.is_file() or not is_ours(path):
        return None
    try:
        text = path.read_bytes().decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return set()
    listed = set()
    for line in text.splitlines():
        match = _LISTED.fullmatch(line)
        if match is None or "\\" in match.group(1):
            continue
        relative = PurePosixPath(match.group(1))
        if (
            not relative.is_absolute()
            and relative.suffix == ".py"
            and not {".", "..", ""} & set(relative.parts)
        ):
            listed.add(relative)
    return listed
