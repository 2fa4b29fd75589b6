"""Instance places and crafted values: where a changed schema node applies in the
arguments, and the values put there to show what the change does."""

from __future__ import annotations

import contextlib
import copy
import json
from collections.abc import Iterator, Sequence
from typing import Any

from ..codegen import cases
from ..families.arrays import review as array_review
from ..families.formats import review as format_review
from ..families.numbers import review as number_review
from ..families.references import review as reference_review
from ..families.references import targets
from ..families.strings import review as string_review
from ..families.values import review as value_review
from ..families.values import values as member_values
from ..schema import vocabulary
from ..schema.children import named
from ..schema.values import is_integer, offered_values
from .text import dump, size, unique
from .walk import ANNOTATION_KEYWORDS, Parts, Pending, Place, node_at

MAX_VALUES = 120


#: The keywords applying subschemas (to the value itself, or to children), by name.
_APPLYING = {
    k.name: k
    for k in vocabulary.KEYWORDS
    if k.implemented and not k.dynamic and k.applies in ("same value", "children")
}

#: Instance-path steps that are not plain keys or indexes.
ITEM = ("item",)  # every item of an array (index 0 when setting)
EXTRA = ("extra",)  # a key no property names


def instance_paths(root: Any, schema_parts: Parts, depth: int = 0) -> list[Place]:
    """Where in the arguments the schema at ``schema_parts`` applies (via $ref too)."""
    places: list[Place] = [()]
    steps = list(schema_parts)
    i = 0
    while i < len(steps):
        step = steps[i]
        following = steps[i + 1] if i + 1 < len(steps) else None
        row = _APPLYING.get(step) if isinstance(step, str) else None
        reached = None if row is None else row.children
        if reached in ("named keys", "prefix") and following is not None:
            places = [p + (following,) for p in places]  # the key the map names, the position
            i += 2
        elif row is not None and row.applies == "same value":
            i += 1 if row.shape == "one" else 2
        elif reached in ("other items", "matching items"):
            places = [p + (ITEM,) for p in places]
            i += 1
        elif reached == "other keys":
            places = [p + (EXTRA,) for p in places]
            i += 1
        elif step == targets.DEFS and following is not None:
            if depth > 3:
                return []
            refs = _ref_sites(root, reference_review.definition_ref(following))
            places = [
                p + q
                for p in places
                for site in refs
                for q in instance_paths(root, site, depth + 1)
            ]
            i += 2
        else:  # the keys a pattern matches, the key names, ...: only the corpus can tell
            return []
    return unique(places)


def read_place(old_root: Any, new_root: Any, item: Pending) -> str:
    """The place of a value that a change is about, as a caller reading it would name it
    (``status``, ``results[].title``, ``labels.*``); "" for the whole value, or when the place
    cannot be told. A change about a key names the key when the old schema declared it (a
    caller may read it); a key only the new schema declares is read as part of its object."""
    places = instance_paths(new_root, item.node) or instance_paths(old_root, item.node)
    if not places:
        return ""
    place = places[0]
    declared = named(maybe(old_root, item.node))
    if item.key is not None and item.key in declared:
        place += (item.key,)
    return "".join(_read_step(step, first=i == 0) for i, step in enumerate(place))


def _read_step(step: Any, *, first: bool) -> str:
    if step == ITEM:
        return "[]"
    if step == EXTRA:
        return "*" if first else ".*"
    if isinstance(step, int):
        return f"[{step}]"
    if str(step).isidentifier():
        return str(step) if first else f".{step}"
    return f"[{json.dumps(step, ensure_ascii=False)}]"


def _ref_sites(root: Any, ref: str) -> list[Parts]:
    found: list[Parts] = []

    def visit(node: Any, parts: Parts) -> None:
        if isinstance(node, dict):
            if targets.ref_of(node) == ref:
                found.append(parts)
            for key, value in node.items():
                if key not in ANNOTATION_KEYWORDS and key not in value_review.VALUE_LISTS:
                    visit(value, parts + (key,))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                visit(value, parts + (i,))

    visit(root, ())
    return found


def values_at(instance: Any, place: Place) -> list[Any]:
    current = [instance]
    for step in place:
        following: list[Any] = []
        for value in current:
            if step == ITEM and isinstance(value, list):
                following.extend(value)
            elif step == EXTRA and isinstance(value, dict):
                following.extend(value.values())
            elif isinstance(value, (dict, list)) and not isinstance(step, tuple):
                with contextlib.suppress(KeyError, IndexError, TypeError):
                    following.append(value[step])  # a key of an object, an index of an array
        current = following
    return current


def with_values(
    base: Any, place: Place, values: Sequence[Any], *, delete: bool = False
) -> Iterator[Any]:
    """``base`` with the value at ``place`` replaced by each of ``values`` (and deleted)."""
    if not place:
        return
    try:
        parent = base
        for step in place[:-1]:
            if step == ITEM:
                if not isinstance(parent, list) or not parent:
                    return
                parent = parent[0]
            else:
                parent = parent[step]
    except (KeyError, IndexError, TypeError):
        return
    last = place[-1]
    if isinstance(parent, dict) and last != ITEM:
        key = "extra" if last == EXTRA else last
        if last == EXTRA:
            key = next(k for k in ("extra", "extra_key", "zz_extra") if k not in parent)
        for value in values:
            yield _replaced(base, place[:-1], key, value)
        if delete and key in parent:
            trial = copy.deepcopy(base)
            del _node_steps(trial, place[:-1])[key]
            yield trial
    elif isinstance(parent, list):
        index = 0 if last == ITEM else last
        if isinstance(index, int) and index <= len(parent):
            for value in values:
                yield _replaced(base, place[:-1], index, value)


def _node_steps(root: Any, place: Place) -> Any:
    for step in place:
        root = root[0] if step == ITEM else root[step]
    return root


def _replaced(base: Any, parent_place: Place, key: Any, value: Any) -> Any:
    trial = copy.deepcopy(base)
    parent = _node_steps(trial, parent_place)
    if isinstance(parent, list) and key == len(parent):
        parent.append(copy.deepcopy(value))
    else:
        parent[key] = copy.deepcopy(value)
    return trial


def reductions(value: Any) -> Iterator[Any]:
    """``value`` with one key or one array item left out, outermost first."""
    paths: list[Parts] = []

    def visit(node: Any, parts: Parts) -> None:
        if isinstance(node, dict):
            for key in node:
                paths.append(parts + (key,))
            for key, item in node.items():
                visit(item, parts + (key,))
        elif isinstance(node, list):
            for i in range(len(node) - 1, -1, -1):
                paths.append(parts + (i,))
            for i, item in enumerate(node):
                visit(item, parts + (i,))

    visit(value, ())
    for path in paths:
        trial = copy.deepcopy(value)
        try:
            del node_at(trial, path[:-1])[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
        yield trial


def simplified(value: Any, simple: Sequence[Any]) -> Iterator[Any]:
    """``value`` with one leaf replaced by a shorter one found at the same place in ``simple``."""
    for other in simple:
        for path in key_paths(value):
            mine, theirs = maybe(value, path), maybe(other, path)
            if theirs is None or isinstance(mine, (dict, list)) or isinstance(theirs, (dict, list)):
                continue
            if size(theirs) < size(mine):
                trial = copy.deepcopy(value)
                node_at(trial, path[:-1])[path[-1]] = copy.deepcopy(theirs)
                yield trial


def shrunk(base: dict[str, Any]) -> Iterator[Any]:
    for key in base:
        yield {k: v for k, v in base.items() if k != key}


def crafted_values(
    schemas: Sequence[Any],
    known: Sequence[Any],
    *,
    item: Pending | None = None,
    items: Sequence[Any] = (),
) -> list[Any]:
    """Values worth trying where these schemas apply: known ones, then ones at every bound of every side.

    ``known`` (and ``items``, known array items) are best given good values first: strings
    and arrays are built from the first few.
    """
    dicts = [s for s in schemas if isinstance(s, dict)]
    strings = [v for v in known if isinstance(v, str)] + ["x"]
    numbers = [v for v in known if isinstance(v, (int, float)) and not isinstance(v, bool)]
    arrays = [v for v in known if isinstance(v, list)]
    found = _declared_values(dicts)
    found += string_review.strings_at_lengths(dicts, strings)
    found += string_review.strings_near_patterns(dicts, strings)
    found += number_review.numbers_at_bounds(dicts, numbers)
    pool = _item_pool(dicts, arrays, items)
    found += _arrays_near(arrays, pool)
    found += array_review.arrays_at_bounds(dicts, arrays, pool)
    found += _type_samples(item)
    found.extend(known)  # last: what is crafted for the bounds must survive the cut
    return unique(found)[: MAX_VALUES * 3]


def _declared_values(dicts: list[dict[str, Any]]) -> list[Any]:
    """The values the schemas name: enum members, const, default, examples, and a valid and
    an invalid sample of each format."""
    found: list[Any] = []
    for schema in dicts:
        found.extend(member_values.listed_values(schema))
        found.extend(offered_values(schema, first="value"))
        found.extend(format_review.samples(schema))
    return found


def _item_pool(dicts: list[dict[str, Any]], arrays: list[Any], items: Sequence[Any]) -> list[Any]:
    """The items arrays are built from: known items, the known arrays' items, values crafted
    for each side's ``items`` schema."""
    return unique(
        list(items)
        + [i for a in arrays for i in a]
        + [s for sub in array_review.item_schemas(dicts) for s in crafted_values([sub], [])[:6]]
    )


def _arrays_near(arrays: list[Any], pool: list[Any]) -> list[Any]:
    """Known arrays with one item more (a repeat, or a new item from the pool) or one fewer."""
    found: list[Any] = []
    for array in arrays[:3]:
        found.extend([array + [copy.deepcopy(array[-1])], array[:-1]] if array else [])
        found.extend(array + [p] for p in pool[:3] if all(dump(p) != dump(a) for a in array))
    return found


def _type_samples(item: Pending | None) -> list[Any]:
    """A value of each JSON type (the type a change added or removed first), and a few odd ones."""
    found: list[Any] = []
    if item is not None and item.member and value_review.changed_type(item.parts):
        found.append(cases.TYPE_SAMPLES.get(str(item.member[0])))
        if item.member[0] == "integer":
            found.append(2)
    found.extend(cases.TYPE_SAMPLES.values())
    found.extend([1.5, -1, "", [1], {"a": 1}])
    return found


def is_count(value: Any) -> bool:
    return is_integer(value) and value >= 0


def key_paths(value: Any, parts: Parts = ()) -> Iterator[Parts]:
    """Every dict key path in ``value``, deepest first."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from key_paths(item, parts + (key,))
            yield parts + (key,)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from key_paths(item, parts + (i,))


def maybe(root: Any, parts: Parts) -> Any:
    try:
        return node_at(root, parts)
    except (KeyError, IndexError, TypeError):
        return None


# -- the corpus a tool's changes are searched with -------------------------------------------


def focus(old_root: Any, new_root: Any, items: Sequence[Pending]) -> list[Place] | None:
    """The instance places a tool's changes are about (both schemas' places of each changed
    node; a key the change is about, such as a property or a required key of the arguments
    object, is its own place), or None when a change's place cannot be told."""
    found: list[Place] = []
    for item in items:
        if item.annotation:
            continue
        places = instance_paths(old_root, item.node) + instance_paths(new_root, item.node)
        if not places:
            return None  # patternProperties, propertyNames, an unreferenced $defs entry, ...
        for place in places:
            about_key = item.key is not None and not (item.extra or item.items)
            # known() reads a non-empty place whole, so only the root gives way to the key.
            found.append((item.key,) if about_key and not place else place)
    return unique(found)


def near(path: Parts, places: Sequence[Place]) -> bool:
    """Whether a value changed at ``path`` is at, inside or around one of ``places`` (one a
    prefix of the other; ITEM stands for any index, EXTRA for any key)."""
    return any(_near_one(path, place) for place in places)


def _near_one(path: Parts, place: Place) -> bool:
    for step, at in zip(place, path, strict=False):  # the shorter one is a prefix
        if step == ITEM:
            if not isinstance(at, int):
                return False
        elif step == EXTRA:
            if not isinstance(at, str):
                return False
        elif step != at:
            return False
    return True


def corpus_of(
    examples: Sequence[Any], derived: Sequence[cases.Case], places: Sequence[Place] | None
) -> list[Any]:
    """The instances a witness search takes from one side: its examples and its derived cases,
    only those near ``places`` when they are known (every case otherwise).

    A derived case is mostly one change to a shared root; one changed far from every place
    holds there what its root holds, so it shows the search nothing its root's first such
    case does not (``known()`` finds the same values at each place, in the same order). Reading
    every case would copy the whole object once per case and run both validators on it:
    quadratic work in the contract's width for a change of one property."""
    chosen = list(examples)
    roots: set[int] = set()
    for case in derived:
        if places is None or case.change is None or near(case.change[1], places):
            chosen.append(case.data)
        elif id(case.change[0]) not in roots:  # the first far case of each root stands for it
            roots.add(id(case.change[0]))
            chosen.append(case.data)
    return chosen
