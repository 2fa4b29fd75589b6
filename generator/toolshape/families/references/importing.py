"""What the importer does with references (platforms stage): every ``$ref`` a ``#/$defs``
pointer.

A contract's references point at the root or at an entry of its ``$defs``
(``platforms/export.py`` keeps those, and the generated module makes each a function). An
imported schema may point anywhere: into ``properties``, an ``items``, a place its draft
keeps definitions in. The importer moves each such target under the root's ``$defs``
(:func:`hoist`, under a readable fresh name: :func:`definition_name`) and leaves a ``$ref``
where it was; then every reference is written as the pointer to the target's new place
(:func:`ref_to`).

Each move takes a subtree, and the paths recorded under it (later targets, where each input
node went) follow it. They are rebased once each, when read (:func:`relocated`), not every
time a subtree moves: the work stays linear in the number of moved targets (rebasing at
every move was quadratic: ``tests/test_import.py``, issue 20). ``platforms/importer.py``
keeps the calls, and the notes and errors it reports about them.
"""

from __future__ import annotations

import copy
from typing import Any
from urllib.parse import quote

from ...schema import pointers
from .targets import DEFS, REF

#: A place in the imported schema, or in the contract made of it: its keys, list indexes as
#: strings (the importer's own paths, ``platforms/importer.py``).
SchemaPath = tuple[str, ...]

#: The characters a pointer's steps keep as they are in a $ref (RFC 3986 fragment characters).
_FRAGMENT_SAFE = "$-_.!*'()~,;=@:+&"


def ref_to(path: SchemaPath) -> str:
    """The local ``$ref`` naming ``path`` (``("$defs", "a b")`` -> ``#/$defs/a%20b``)."""
    return "#" + "".join("/" + quote(pointers.escape(p), safe=_FRAGMENT_SAFE) for p in path)


def hoist(result: dict[str, Any], target: SchemaPath) -> SchemaPath | None:
    """Move the schema at ``target`` in ``result`` to the root's ``$defs``, leaving a ``$ref``
    in its place; its new path (None: nothing is there to move)."""
    parent: Any = result
    for step in target[:-1]:
        parent = parent[int(step)] if isinstance(parent, list) else parent.get(step)
        if parent is None:
            return None
    last = target[-1]
    defs = result.setdefault(DEFS, {})
    name = definition_name(target, defs)
    if isinstance(parent, list):
        defs[name] = parent[int(last)]
        parent[int(last)] = {REF: ref_to((DEFS, name))}
    elif isinstance(parent, dict) and last in parent:
        defs[name] = parent[last]
        parent[last] = {REF: ref_to((DEFS, name))}
    else:
        return None
    return (DEFS, name)


def definition_name(target: SchemaPath, defs: dict[str, Any]) -> str:
    """A fresh $defs name for a schema hoisted from ``target``: its path, readable."""
    if len(target) >= 2 and target[-2] in ("properties", DEFS, "dependentSchemas"):
        base = target[-1]  # a property's or definition's own name reads best
    else:
        base = "_".join(step.lstrip("$") for step in target if step not in (DEFS,)) or "schema"
    name, n = base, 2
    while name in defs:
        name, n = f"{base}_{n}", n + 1
    return name


def relocated(path: SchemaPath, relocations: dict[SchemaPath, SchemaPath]) -> SchemaPath:
    """Where ``path`` is after the subtrees in ``relocations`` (each subtree's path when it moved
    -> its new path, in the order they moved) were moved.

    The longest moved prefix of the path is replaced by where it went, and the result is read
    again: a later move may have taken a subtree of that new place (its source is a path after
    the earlier moves). Each step lands under a newer move's fresh ``$defs`` name, so the
    steps are at most the moves that nest, each a lookup per prefix length."""
    moved = True
    while moved and relocations:
        moved = False
        for length in range(len(path), 0, -1):
            new = relocations.get(path[:length])
            if new is not None:
                path = new + path[length:]
                moved = True
                break
    return path


def root_refs(schema: Any) -> list[dict[str, Any]]:
    """Every schema object under ``schema`` whose ``$ref`` is the root (``#``), nested
    ``$defs`` included."""
    found: list[dict[str, Any]] = []
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            if node.get(REF) == "#":
                found.append(node)
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return found


def untyped_root(result: dict[str, Any]) -> str | None:
    """Before ``type: object`` is added to a root that has none: the root as written, copied
    under ``$defs`` (its name returned; None when nothing refers to the root), and every
    ``$ref: '#'`` pointed at the copy. A reference to the root means the schema as written,
    which accepts any value its keywords allow (``false``, a string), not only objects."""
    refs = root_refs(result)
    if not refs:
        return None
    defs = result.setdefault(DEFS, {})
    name = definition_name(("root",), defs)
    for node in refs:
        node[REF] = ref_to((DEFS, name))
    # A deep copy: the YAML written must not share a node between two places.
    defs[name] = copy.deepcopy({k: v for k, v in result.items() if k != DEFS})
    return name
