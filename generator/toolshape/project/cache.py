"""What `generate` wrote, recorded outside the output folder: the only evidence it skips work on.

A generated file's header (its ``contract-sha256`` and ``output-sha256`` lines) is written by
toolshape, but anyone who edits the file can write it again: it proves nothing. So `generate`
reuses a file on disk only when this cache, kept in the user's cache folder, says that for
these contract bytes, this generator and these templates, toolshape wrote exactly the bytes
now on disk (their sha256). An edited file no longer has that sha256 and is generated again.

The cache is an optimisation and nothing more: absent, corrupt or unwritable, it is ignored
and everything is generated afresh. `check` reads it the same way: a file it vouches for is
compared as it is, everything else is generated again.

Where: ``$TOOLSHAPE_CACHE_DIR`` when set (empty turns the cache off), else
``$XDG_CACHE_HOME/toolshape``, else ``~/.cache/toolshape``. One small JSON file per
contract version, ``<key[:2]>/<key>.json``, and one per version of the generator's source,
``generator/<digest>.json``, its fingerprint (``headers.py``); delete the folder at any time.
An entry also keeps the tool's part of the package's tool lists (``listing.py``), so that a
contract reused on the cache's word is not read for it again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from .listing import Listing, from_json

ENV_VAR = "TOOLSHAPE_CACHE_DIR"
_SHA256 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class Entry:
    """The sha256 of the module and of the tests toolshape wrote for one contract version, and
    the tool's listing (None in an entry that has none: it is then read from the tests' header).
    Two entries are equal when their digests are: the listing follows from the bytes."""

    module_sha256: str
    test_sha256: str
    listing: Listing | None = field(default=None, compare=False)


def folder() -> Path | None:
    """The cache folder (it may not exist yet), or None when the cache is off."""
    explicit = os.environ.get(ENV_VAR)
    if explicit is not None:
        return Path(explicit) if explicit.strip() else None
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):  # the XDG spec says to ignore a relative path
        return Path(xdg) / "toolshape"
    try:
        return Path.home() / ".cache" / "toolshape"
    except RuntimeError:  # no home folder to be found
        return None


def key(contract_digest: str, label: str, relative: PurePosixPath) -> str:
    """The entry name for one contract version: its digest (contract bytes, generator and
    templates) and what else reaches the output (the label in headers, the module path)."""
    return hashlib.sha256(f"{contract_digest}\0{label}\0{relative.as_posix()}".encode()).hexdigest()


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _path(base: Path, name: str) -> Path:
    return base / name[:2] / f"{name}.json"


def lookup(name: str) -> Entry | None:
    """The entry recorded under ``name``; None when there is none or it cannot be read."""
    base = folder()
    if base is None:
        return None
    try:
        data = json.loads(_path(base, name).read_bytes())
    except (OSError, ValueError):  # absent, unreadable, or not JSON (corrupt): generate afresh
        return None
    if not isinstance(data, dict):
        return None
    module, test = data.get("module"), data.get("test")
    if not (
        isinstance(module, str)
        and isinstance(test, str)
        and _SHA256.fullmatch(module)
        and _SHA256.fullmatch(test)
    ):
        return None
    return Entry(module, test, from_json(data.get("listing")))


def record(entries: dict[str, Entry]) -> None:
    """Record ``entries`` (key -> entry); failures are ignored (the cache is only an optimisation).

    Each entry is written atomically, so a concurrent run or an interruption leaves an
    entry old, new or absent, never half-written."""
    base = folder()
    if base is None:
        return
    for name, entry in sorted(entries.items()):
        data: dict[str, object] = {"module": entry.module_sha256, "test": entry.test_sha256}
        if entry.listing is not None:
            data["listing"] = entry.listing.as_json()
        # Keys in their order, not sorted: the hints are listed in the order the tool declares them.
        text = json.dumps(data, ensure_ascii=True)
        if not _write(_path(base, name), text):
            return


#: Where the generator's fingerprint is remembered (see ``recall_generator``), beside the entries.
_GENERATOR = "generator"


def recall_generator(sources_digest: str) -> str | None:
    """The generator fingerprint ``remember_generator`` recorded for the generator whose
    source files have ``sources_digest``; None when there is none, or it cannot be read.

    Computing the fingerprint parses every module that shapes output (about 0.3 s, paid by
    every run, even one that generates nothing); the sources' digest is a few ms of reads."""
    base = folder()
    if base is None:
        return None
    try:
        data = json.loads((base / _GENERATOR / f"{sources_digest}.json").read_bytes())
    except (OSError, ValueError):
        return None
    fingerprint = data.get("fingerprint") if isinstance(data, dict) else None
    if not (isinstance(fingerprint, str) and _SHA256.fullmatch(fingerprint)):
        return None
    return fingerprint


def remember_generator(sources_digest: str, fingerprint: str) -> None:
    """Record ``fingerprint`` for the generator whose source files have ``sources_digest``
    (failures are ignored, as in ``record``)."""
    base = folder()
    if base is not None:
        target = base / _GENERATOR / f"{sources_digest}.json"
        _write(target, json.dumps({"fingerprint": fingerprint}))


def _write(target: Path, text: str) -> bool:
    """Write ``target`` atomically; False when it cannot be written (read-only home, full
    disk, a file where the folder goes): the cache is then left alone."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=".entry.", suffix=".tmp")
        try:
            with os.fdopen(handle, "w", encoding="ascii") as stream:
                stream.write(text)
            os.replace(temporary, target)
        except BaseException:
            Path(temporary).unlink(missing_ok=True)
            raise
    except OSError:
        return False
    return True
