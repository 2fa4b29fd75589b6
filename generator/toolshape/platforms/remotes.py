"""Remote schemas read from local folders: ``import --remote PREFIX=FOLDER`` (platforms stage).

toolshape never fetches. A schema that refers to another by URL
(``$ref: https://schemas.example.com/money.json#/$defs/amount``) imports when the user says
where such schemas are kept: a URL prefix mapped to a local folder. The rest of the URL after
the prefix is a path relative to that folder (``money.json``); the file there (JSON, or YAML
by its suffix) is the document the URL names. Nothing outside the folder is ever read: a path
that climbs out of it (``..``, a symlink, an absolute path), a query, a missing file, or one
the import would refuse as its input file (``platforms/documents.py``: over the size limit,
nested too deep, not JSON or YAML) is an error at the ``$ref``, and a URL no prefix covers
stays a remote reference (refused, as before). ``platforms/importer.py`` grafts each document read
into the schema's ``$defs`` as a resource of its own (its URL as its ``$id``), as JSON Schema's
bundling does, so the references into it resolve as local ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from . import documents

#: At most this many remote documents are read for one schema (a chain of documents that
#: refer to further ones ends here, with an error).
MAX_DOCUMENTS = 256


@dataclass(frozen=True)
class RemoteFolder:
    """URLs starting with ``prefix`` name files under ``folder``."""

    prefix: str
    folder: Path

    @classmethod
    def parse(cls, text: str) -> RemoteFolder:
        """``PREFIX=FOLDER`` (the command line's spelling); ValueError saying what is wrong."""
        prefix, equals, folder = text.partition("=")
        if not equals or not folder:
            raise ValueError(
                f"expected PREFIX=FOLDER (a URL prefix and a local folder), not {text!r}"
            )
        split = urlsplit(prefix)
        if not split.scheme or not split.netloc or not prefix.endswith("/"):
            raise ValueError(
                f"the prefix {prefix!r} must be an absolute URL ending in '/' "
                "(such as http://localhost:1234/)"
            )
        return cls(prefix, Path(folder))


class RemoteError(Exception):
    """Why a remote document under a mapped folder cannot be read (an error at the ``$ref``)."""


def local_file(uri: str, folders: tuple[RemoteFolder, ...]) -> Path | None:
    """The file under a mapped folder that ``uri`` (without its fragment) names, or None when
    no prefix covers ``uri``; RemoteError when the file cannot be one."""
    folder = next((f for f in folders if uri.startswith(f.prefix)), None)
    if folder is None:
        return None
    rest = uri[len(folder.prefix) :]
    relative = PurePosixPath(unquote(rest))
    where = f"the remote schema {uri!r} (under {folder.prefix}, read from {folder.folder})"
    bad = "?" in rest or "\x00" in str(relative)  # a query; a NUL no path can hold
    if bad or not rest or relative.is_absolute() or ".." in relative.parts:
        raise RemoteError(f"{where} names no file inside the folder")
    base = folder.folder.resolve()
    path = (base / Path(*relative.parts)).resolve()
    if not path.is_relative_to(base):
        raise RemoteError(f"{where} leads out of the folder (a link)")
    if not path.is_file():
        raise RemoteError(f"{where} is not there: no file {folder.folder / Path(*relative.parts)}")
    return path


def read_document(uri: str, path: Path) -> Any:
    """The document of ``uri`` in the file at ``path``, read as the import reads its input
    file (``platforms/documents.py``: the same limits, the same messages); RemoteError."""
    where = f"the remote schema {uri!r} ({path}"
    try:
        data = documents.read(path).data
    except documents.DocumentError as error:
        at = f":{error.at[0]}:{error.at[1]}" if error.at else ""
        raise RemoteError(f"{where}{at}): {error.message}") from None
    deep = documents.too_deep(data)  # YAML's aliases can nest deeper than its text shows
    if deep is not None:
        raise RemoteError(f"{where}, at '{deep}'): {documents.TOO_DEEP}")
    return data
