"""Remote schemas read from local folders: ``import --remote PREFIX=FOLDER`` (platforms stage).

toolshape never fetches. A schema that refers to another by URL
(``$ref: https://schemas.example.com/money.json#/$defs/amount``) imports when the user says
where such schemas are kept: a URL prefix mapped to a local folder. The rest of the URL after
the prefix is a path relative to that folder (``money.json``); the file there (JSON, or YAML
by its suffix) is the document the URL names. Nothing outside the folder is ever read: a path
that climbs out of it (``..``, a symlink, an absolute path), a query, a missing file, one
over the input size limit or nested deeper than an input may be is an error at the ``$ref``, and a URL no prefix covers stays a
remote reference (refused, as before). ``platforms/importer.py`` grafts each document read
into the schema's ``$defs`` as a resource of its own (its URL as its ``$id``), as JSON Schema's
bundling does, so the references into it resolve as local ones.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

import yaml

from ..schema.values import unique_keys

#: At most this many remote documents are read for one schema (a chain of documents that
#: refer to further ones ends here, with an error).
MAX_DOCUMENTS = 256
#: A remote document larger than this is refused unread (the import's own input limit).
MAX_DOCUMENT_BYTES = 16 * 1_048_576


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


def read_document(path: Path) -> Any:
    """The JSON (or YAML, by its suffix) document in the file at ``path``; RemoteError."""
    try:
        if path.stat().st_size > MAX_DOCUMENT_BYTES:
            raise RemoteError(f"{path} is over {MAX_DOCUMENT_BYTES} bytes")
        text = path.read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise RemoteError(f"cannot read {path}: {error}") from None
    try:
        if path.suffix.lower() in (".yaml", ".yml"):
            return yaml.safe_load(text)
        return json.loads(text, object_pairs_hook=unique_keys, parse_constant=_not_json)
    except RecursionError:
        raise RemoteError(f"{path} nests too deep to be read") from None
    except (ValueError, yaml.YAMLError) as error:
        raise RemoteError(
            f"{path} is not valid {'YAML' if path.suffix.lower() in ('.yaml', '.yml') else 'JSON'}: {error}"
        ) from None


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
