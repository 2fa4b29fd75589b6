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
import json
from typing import Any
from urllib.parse import quote

from ...platforms.translating import KeywordIn, Translating, Translation
from ...schema import pointers
from ..annotations.rules import COMMENT, DESCRIPTION, DIALECT_KEY, TITLE
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


# -- translating each draft's references (dispatched by platforms/importer.py) -----------
#
# Each reference is recorded with the translator (``Translating.reference``) and rewritten at
# the end, once every resource and anchor is known; anchors are resolved then too.

#: The older name of ``$defs`` (drafts 4 to 7).
DEFINITIONS = "definitions"
#: Where any draft keeps the schemas its references share.
DEFINITION_PLACES = (DEFINITIONS, DEFS)
#: A schema resource's identifier, and draft 4's spelling of it.
ID = "$id"
LEGACY_ID = "id"
#: A plain name for a schema, as a fragment a ``$ref`` may name (2019-09 on).
ANCHOR = "$anchor"
#: 2020-12's dynamic reference and the anchor it looks up in the dynamic scope.
DYNAMIC_REF = "$dynamicRef"
DYNAMIC_ANCHOR = "$dynamicAnchor"
#: 2019-09's dynamic reference, which may only say "#" (the resource's root), and the mark a
#: resource's root carries to take part in its dynamic scope.
RECURSIVE_REF = "$recursiveRef"
RECURSIVE_ANCHOR = "$recursiveAnchor"


#: The annotations a root keeps when the importer hoists its ``$ref``'s target to the root.
HOISTED_ROOT_KEEPS = (TITLE, DESCRIPTION, COMMENT)
#: What a root may hold beside a ``$ref`` the importer hoists: definitions, identifiers, the
#: dialect and the annotations it keeps (anything else would be lost with the root).
_BESIDE_HOISTED_REF = (REF, DIALECT_KEY, ID, LEGACY_ID, *DEFINITION_PLACES, *HOISTED_ROOT_KEEPS)


def hoisted_ref(root: dict[str, Any]) -> str | None:
    """The root's ``$ref`` when the importer may put its target in the root's place (a JSON
    Pointer, beside nothing but what :data:`_BESIDE_HOISTED_REF` allows: zod-to-json-schema's
    draft-07 root, a ``$ref`` to one of its ``definitions``); None otherwise."""
    ref = root.get(REF)
    if (
        isinstance(ref, str)
        and ref.startswith("#/")
        and all(k in _BESIDE_HOISTED_REF for k in root)
    ):
        return ref
    return None


def legacy_id(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` names itself with draft 4's ``id``: a sign of draft 4 at the root of
    a schema that does not say its draft."""
    return isinstance(schema.get(LEGACY_ID), str)


def keeps_definitions(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` keeps definitions under the older ``definitions`` (before 2019-09)."""
    return DEFINITIONS in schema


def recursive(schema: dict[str, Any]) -> bool:
    """Whether ``schema`` uses 2019-09's ``$recursiveRef`` or ``$recursiveAnchor``."""
    return RECURSIVE_REF in schema or RECURSIVE_ANCHOR in schema


def ref(translator: Translating, kw: KeywordIn) -> None:
    """A ``$ref`` kept, and rewritten at the end to the ``#/$defs`` place it means."""
    kw.out[kw.key] = kw.value
    translator.reference(kw.out, kw.old, REF)


def dynamic_ref(translator: Translating, kw: KeywordIn) -> None:
    """A ``$dynamicRef`` becomes a ``$ref`` to its initial target, bound to the dynamic
    scope at the end (the importer's ``specialise``)."""
    if not isinstance(kw.value, str):
        translator.error(kw.where, f"'{kw.key}' must be a URI reference such as '#name'")
    elif REF in kw.schema:
        translator.error(
            kw.where,
            f"'{kw.key}' beside '{REF}' in one schema: toolshape imports one reference per "
            "schema (put one of them in an 'allOf')",
        )
    else:
        kw.out[REF] = kw.value
        translator.reference(kw.out, kw.old, kw.key)


def recursive_ref(translator: Translating, kw: KeywordIn) -> None:
    """2019-09's ``$recursiveRef: "#"`` becomes a ``$ref`` to its initial target (the
    resource's root), bound to the dynamic scope at the end (as :func:`dynamic_ref`)."""
    if kw.value != "#":
        translator.error(
            kw.where,
            f"'{RECURSIVE_REF}' must be \"#\" (2019-09); found {json.dumps(kw.value)[:40]}",
        )
    else:
        dynamic_ref(translator, kw)


def anchor(translator: Translating, kw: KeywordIn) -> None:
    """An anchor (``$anchor``, ``$dynamicAnchor``, ``$recursiveAnchor``) is dropped: the
    references to it are resolved into ``#/$defs`` at the end."""
    translator.note(f"'{kw.key}' resolved ($refs to it now point into #/{DEFS})", kw.where)


def definitions(translator: Translating, kw: KeywordIn) -> None:
    """``definitions`` and ``$defs`` both become ``$defs``."""
    if not isinstance(kw.value, dict):
        translator.error(kw.where, f"'{kw.key}' must map names to schemas")
        return
    if kw.key == DEFINITIONS:
        translator.note(f"{DEFINITIONS} -> {DEFS}", kw.where)
    defs = kw.out.setdefault(DEFS, {})
    for name, sub in kw.value.items():
        if name in defs:
            translator.error(
                kw.where + (name,),
                f"the definition {name!r} is in both '{DEFINITIONS}' and '{DEFS}'",
            )
        defs[name] = translator.node(sub, kw.where + (name,), kw.new + (DEFS, name))


#: The references and anchors, translated even beside a ``$ref`` before 2019-09 (where every
#: other keyword there is dropped), and how.
REFERENCE_TRANSLATIONS: dict[str, Translation] = {
    RECURSIVE_ANCHOR: anchor,
    ANCHOR: anchor,
    RECURSIVE_REF: recursive_ref,
    DYNAMIC_ANCHOR: anchor,
    DYNAMIC_REF: dynamic_ref,
}
#: The other keywords of references this module translates, and how.
TRANSLATIONS: dict[str, Translation] = {REF: ref, DEFINITIONS: definitions, DEFS: definitions}
