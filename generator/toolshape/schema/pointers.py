"""JSON Pointers (RFC 6901) and local $ref pointers ("#", "#/$defs/node"): one reading and one
spelling of them for every module.

A schema path is a tuple of keys and list indexes (``("fields", "a/b", 0)``); its pointer is
``/fields/a~1b/0``.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

SchemaPath = tuple[str | int, ...]


def escape(key: str | int) -> str:
    """One reference token of a pointer: ``~`` -> ``~0``, ``/`` -> ``~1`` (in that order)."""
    return str(key).replace("~", "~0").replace("/", "~1")


def unescape(token: str) -> str:
    """The key a reference token stands for (``~1`` first, so ``~01`` is ``~1``)."""
    return token.replace("~1", "/").replace("~0", "~")


def pointer(path: SchemaPath) -> str:
    """The JSON Pointer of a path (``()`` -> ``""``, the whole document)."""
    return "".join("/" + escape(step) for step in path)


def child(base: str, key: str | int) -> str:
    """The pointer one step below ``base``."""
    return base + "/" + escape(key)


def tokens(text: str) -> list[str]:
    """The keys of a JSON Pointer (``""`` -> ``[]``), unescaped; list indexes stay strings."""
    return [unescape(token) for token in text.split("/")[1:]]


def ref_path(ref: str) -> SchemaPath:
    """The schema path a local $ref points at ("#/shared/node" -> ("shared", "node")).

    The fragment is URI-encoded (``%25`` is ``%``) before it is a pointer. List indexes stay
    strings: :func:`resolve` reads them, :func:`typed` turns them into ints."""
    if ref in ("#", ""):
        return ()
    if not ref.startswith("#/"):
        raise ValueError(f"not a local $ref: {ref}")
    return tuple(unescape(unquote(part)) for part in ref[2:].split("/"))


def resolve(root: Any, path: SchemaPath) -> Any:
    """The schema at ``path`` under ``root`` (list indexes given as strings are converted)."""
    node = root
    for step in path:
        node = node[int(step)] if isinstance(node, list) else node[step]
    return node


def typed(root: Any, path: SchemaPath) -> SchemaPath:
    """``path`` with the steps into lists as ints, as a walk of ``root`` spells them."""
    steps: list[str | int] = []
    node = root
    for step in path:
        step = int(step) if isinstance(node, list) else step
        steps.append(step)
        node = node[step]
    return tuple(steps)
