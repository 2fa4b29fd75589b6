"""Local $ref pointers ("#", "#/$defs/node"): one reading of them for every module."""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote

Path = tuple[str | int, ...]


def ref_path(ref: str) -> Path:
    """The schema path a local $ref points at ("#/$defs/node" -> ("$defs", "node"))."""
    if ref in ("#", ""):
        return ()
    if not ref.startswith("#/"):
        raise ValueError(f"not a local $ref: {ref}")
    return tuple(unquote(part).replace("~1", "/").replace("~0", "~") for part in ref[2:].split("/"))


def resolve(root: Any, path: Path) -> Any:
    """The schema at ``path`` under ``root`` (list indexes given as strings are converted)."""
    node = root
    for step in path:
        node = node[int(step)] if isinstance(node, list) else node[step]
    return node
