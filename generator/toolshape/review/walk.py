"""Walking both schemas of a changed tool in parallel: every changed place (keyword, enum
member, type, required key, property, subschema, list entry) becomes one pending change,
with the edit that undoes it in a copy of the new parameters."""

from __future__ import annotations

import copy
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from ..families.objects.rules import REQUIRED
from ..families.references import review as reference_review
from ..families.references import targets
from ..families.values.rules import ENUM, TYPE
from ..schema import vocabulary
from ..schema.keywords import ONE_SCHEMA, SCHEMA_LISTS, SCHEMA_MAPS
from ..schema.values import json_equal, json_key
from .text import dump, keyword_text, list_of, show_json

Parts = tuple[str | int, ...]
#: A place in the arguments: keys, indexes, and the markers ITEM and EXTRA.
Place = tuple[Any, ...]

ANNOTATION_KEYWORDS = frozenset(vocabulary.annotation_names(root=False))
#: One-schema keywords whose absence means ``true``.
_DEFAULT_TRUE = frozenset(vocabulary.names(lambda k: k.implemented and k.omitted_is_true))


@dataclass
class Pending:
    """A changed place, before its effect is known."""

    parts: Parts  # where, for the pointer
    node: Parts  # the schema whose value the change is about
    text: str
    annotation: bool = False
    undo: Callable[[Any], None] | None = (
        None  # reverts only this change in (a copy of) the new parameters
    )
    key: str | None = None  # a child key the change is about (required, properties)
    member: tuple[Any, ...] = ()  # (the enum member or type added or removed,)
    extra: bool = False  # about keys no property names (additionalProperties, patternProperties)
    items: bool = False  # about array items (items, prefixItems, contains)
    equivalent: bool = False  # known to change nothing without a search (entries reordered); annotation is True too

    @property
    def settled(self) -> str | None:
        """The effect known without a witness search: "equivalent", "annotation", or None."""
        return ("equivalent" if self.equivalent else "annotation") if self.annotation else None


def walk_schemas(
    old: Any, new: Any, parts: Parts, out: list[Pending], old_root: Any, new_root: Any
) -> None:
    """Append every changed place between two schemas at ``parts``."""
    if dump(old) == dump(new):
        return
    if not (isinstance(old, dict) and isinstance(new, dict)):
        text = f"{show_json(old)} -> {show_json(new)}"
        out.append(_about(Pending(parts, (), text, undo=_setter(parts, old))))
        return
    for keyword in list(old) + [k for k in new if k not in old]:
        change = _KeywordChange(keyword, old, new, parts, out, old_root, new_root)
        if change.both and dump(change.before) == dump(change.after):
            continue
        if keyword in ANNOTATION_KEYWORDS or keyword.startswith("x-"):
            _annotation_changed(change)
        else:
            _KEYWORD_WALKS.get(keyword, _value_changed)(change)


@dataclass(frozen=True)
class _KeywordChange:
    """One keyword of two schemas at ``parts`` that differs (or is on one side only), and the
    walk it is part of: where its changes go and the roots (for what a $ref reaches)."""

    keyword: str
    old: dict[str, Any]
    new: dict[str, Any]
    parts: Parts
    out: list[Pending]
    old_root: Any
    new_root: Any

    @property
    def here(self) -> Parts:
        return self.parts + (self.keyword,)

    @property
    def had(self) -> bool:
        return self.keyword in self.old

    @property
    def has(self) -> bool:
        return self.keyword in self.new

    @property
    def both(self) -> bool:
        """On both sides: its value changed (else it was added or removed)."""
        return self.had and self.has

    @property
    def before(self) -> Any:
        return self.old.get(self.keyword)

    @property
    def after(self) -> Any:
        return self.new.get(self.keyword)


# -- one function per kind of keyword (dispatched by _KEYWORD_WALKS) -------------------


def _annotation_changed(change: _KeywordChange) -> None:
    text = keyword_text(change.keyword, change.before, change.after, change.had, change.has)
    change.out.append(Pending(change.here, change.parts, text, annotation=True))


def _map_changed(change: _KeywordChange) -> None:
    _walk_map(
        change.keyword,
        change.before if change.had else {},
        change.after if change.has else {},
        change.parts,
        change.out,
        change.old_root,
        change.new_root,
    )


def _subschema_changed(change: _KeywordChange) -> None:
    if change.both:
        walk_schemas(
            change.before, change.after, change.here, change.out, change.old_root, change.new_root
        )
    else:
        _value_changed(change)


def _list_changed(change: _KeywordChange) -> None:
    """A list of subschemas: only reordered (for allOf, anyOf, oneOf), or entry by entry."""
    before, after = change.before, change.after
    if change.both and change.keyword in _REORDERABLE and _reordered(before, after):
        text = f"order of {change.keyword} entries changed (no validation effect)"
        change.out.append(
            Pending(change.here, change.parts, text, annotation=True, equivalent=True)
        )
    elif change.both and isinstance(before, list) and isinstance(after, list):
        _walk_list(change, before, after)
    else:
        _value_changed(change)


def _walk_list(change: _KeywordChange, before: list[Any], after: list[Any]) -> None:
    """Entries at the same index are walked; entries past the other side's end are one change each."""
    here = change.here
    for i in range(max(len(before), len(after))):
        if i < len(before) and i < len(after):
            walk_schemas(
                before[i], after[i], here + (i,), change.out, change.old_root, change.new_root
            )
        elif i < len(after):
            text = f"entry {i} added: {show_json(after[i])}"
            change.out.append(_about(Pending(here + (i,), (), text, undo=_popper(here, i))))
        else:
            text = f"entry {i} removed: {show_json(before[i])}"
            undo = _appender(here, before[i])
            change.out.append(_about(Pending(here + (i,), (), text, undo=undo)))


def _enum_changed(change: _KeywordChange) -> None:
    before, after = change.before, change.after
    if (
        change.both
        and isinstance(before, list)
        and isinstance(after, list)
        and _overlap(before, after)
    ):
        _members(change.here, change.parts, before, after, "value", change.out)
    else:
        _value_changed(change)


def _type_changed(change: _KeywordChange) -> None:
    before, after = list_of(change.before), list_of(change.after)
    if change.both and _overlap(before, after):
        _members(change.here, change.parts, before, after, TYPE, change.out, as_list=True)
    else:
        _value_changed(change)


def _required_changed(change: _KeywordChange) -> None:
    before = list_of(change.before) if change.had else []
    after = list_of(change.after) if change.has else []
    _required(change.here, change.parts, before, after, change.out)


def _value_changed(change: _KeywordChange) -> None:
    """Any other keyword: its value changed as a whole (or it was added or removed)."""
    keyword, before, after = change.keyword, change.before, change.after
    text = keyword_text(keyword, before, after, change.had, change.has)
    pending = _about(Pending(change.here, (), text, undo=_setter(change.here, before, change.had)))
    if keyword in _DEFAULT_TRUE and (before if change.had else after) is True:
        pending.annotation = True  # true is what the keyword means when absent
        pending.text += " (the same as leaving it out: no validation effect)"
    change.out.append(pending)


#: Lists of subschemas whose order has no effect on which instances pass.
_REORDERABLE = frozenset(vocabulary.holders("list", "same value"))


#: Keywords whose subschemas apply to the value itself (a change in them is about that value).
_SAME_VALUE_HOLDERS = vocabulary.holders("list", "same value") + vocabulary.holders(
    "map", "same value"
)
#: Keywords about the items of an array.
_ARRAY_KEYWORDS = vocabulary.applying_to("array")
#: The keywords applying subschemas to children, by name: which children each reaches.
_REACHES = {
    k.name: k.children
    for k in vocabulary.KEYWORDS
    if k.implemented and not k.dynamic and k.children
}
#: What the keywords reaching the keys no named entry covers, or the key names, are about.
_ABOUT_OTHER_KEYS = ("other keys", "key names", "matching keys")
#: The diff's word for an entry of each map of subschemas: the table's (a "property"), and
#: for a map applying to the value itself, the schema it applies (a "schema for key").
_ENTRY_WORDS = {
    k.name: k.entry if k.applies != "same value" else f"schema for {k.entry}"
    for k in vocabulary.KEYWORDS
    if k.shape == "map" and k.entry
}

#: How each kind of keyword is compared (annotations first, in walk_schemas; the rest:
#: _value_changed).
_KEYWORD_WALKS: dict[str, Callable[[_KeywordChange], None]] = {
    **dict.fromkeys(SCHEMA_MAPS, _map_changed),
    **dict.fromkeys(ONE_SCHEMA, _subschema_changed),
    **dict.fromkeys(SCHEMA_LISTS, _list_changed),
    ENUM: _enum_changed,
    TYPE: _type_changed,
    REQUIRED: _required_changed,
}


def _reordered(before: Any, after: Any) -> bool:
    """Whether two subschema lists hold the same entries, only in another order."""
    if not (isinstance(before, list) and isinstance(after, list)) or len(before) != len(after):
        return False
    return sorted(map(dump, before)) == sorted(map(dump, after))


def _about(pending: Pending) -> Pending:
    """Fill in which schema (and which part of its value) a change at ``pending.parts`` is about."""
    parts = pending.parts
    if len(parts) >= 2 and (parts[-2] in SCHEMA_MAPS or parts[-2] in SCHEMA_LISTS):
        pending.node = parts  # a whole subschema: the value it applies to
        reached = _REACHES.get(str(parts[-2]))
        if reached == "named keys":
            pending.node, pending.key = parts[:-2], str(parts[-1])
        elif reached == "matching keys":
            pending.node, pending.extra = parts[:-2], True
        elif reached == "prefix":
            pending.node, pending.items = parts[:-2], True
        elif parts[-2] in _SAME_VALUE_HOLDERS:
            pending.node = parts[:-2]
        return pending
    pending.node = parts[:-1]
    keyword = parts[-1] if parts else None
    pending.extra = _REACHES.get(str(keyword)) in _ABOUT_OTHER_KEYS
    pending.items = keyword in _ARRAY_KEYWORDS
    return pending


def _walk_map(
    keyword: str,
    before: Any,
    after: Any,
    parts: Parts,
    out: list[Pending],
    old_root: Any,
    new_root: Any,
) -> None:
    if not (isinstance(before, dict) and isinstance(after, dict)):
        out.append(
            Pending(
                parts + (keyword,),
                parts,
                keyword_text(keyword, before, after, True, True),
                undo=_setter(parts + (keyword,), before),
            )
        )
        return
    what = _ENTRY_WORDS[keyword]
    for key in list(before) + [k for k in after if k not in before]:
        here = parts + (keyword, key)
        if key in before and key in after:
            walk_schemas(before[key], after[key], here, out, old_root, new_root)
            continue
        added = key in after
        text = f"{what} {show_json(key)} " + (
            f"added: {show_json(after[key])}" if added else "removed"
        )
        undo = (
            _key_remover(parts + (keyword,), key)
            if added
            else _key_adder(parts + (keyword,), key, before[key])
        )
        pending = _about(Pending(here, (), text, undo=undo))
        if keyword == targets.DEFS and not (
            reference_review.referenced(old_root, key) or reference_review.referenced(new_root, key)
        ):
            pending.annotation = True
            pending.text += " (not referenced by any $ref: no validation effect)"
        out.append(pending)
    common = [k for k in before if k in after]
    if _REACHES.get(keyword) == "named keys" and common != [k for k in after if k in before]:
        out.append(
            Pending(
                parts + (keyword,),
                parts,
                f"order of properties changed: {', '.join(common)} -> {', '.join(k for k in after if k in before)} "
                "(no validation effect; errors are listed, and the model reads them, in the new order)",
                annotation=True,
            )
        )


def _overlap(before: list[Any], after: list[Any]) -> bool:
    """Whether two enum (or type) lists share a member: then each member added or removed is one change.

    Without a shared member, undoing one member alone would leave an empty list
    (which refuses everything), so the keyword is one change: "[a] -> [b]".
    """
    return not {_strict_key(a) for a in before}.isdisjoint(_strict_key(b) for b in after)


def _strict_key(value: Any) -> Hashable:
    """JSON equality and the same Python type (so 1 and 1.0 differ here): one hashed key, so the
    members of two lists are matched in time linear in their lengths, not by every pair."""
    return (type(value), json_key(value))


def _members(
    here: Parts,
    parts: Parts,
    before: list[Any],
    after: list[Any],
    what: str,
    out: list[Pending],
    *,
    as_list: bool = False,
) -> None:
    # Added members first, then removed ones; undoing an addition removes the member again.
    for members, others, verb, undo in (
        (after, before, "added", _member_remover),
        (before, after, "removed", _member_adder),
    ):
        other_keys = {_strict_key(m) for m in others}
        for member in members:
            if _strict_key(member) not in other_keys:
                out.append(
                    Pending(
                        here,
                        parts,
                        f"{what} {show_json(member)} {verb}",
                        undo=undo(here, member, as_list),
                        member=(member,),
                    )
                )
    if [dump(m) for m in before] != [dump(m) for m in after] and sorted(
        map(dump, before)
    ) == sorted(map(dump, after)):
        out.append(
            Pending(
                here,
                parts,
                f"order of {'enum members' if what == 'value' else 'types'} changed (no validation effect)",
                annotation=True,
            )
        )


def _required(
    here: Parts, parts: Parts, before: list[Any], after: list[Any], out: list[Pending]
) -> None:
    for keys, others, verb, undo in (
        (after, before, "now required", _member_remover),
        (before, after, "no longer required", _member_adder),
    ):
        for key in keys:
            if key not in others:
                out.append(
                    Pending(
                        here,
                        parts,
                        f"{show_json(key)} {verb}",
                        undo=undo(here, key, False),
                        key=key,
                    )
                )


def node_at(root: Any, parts: Parts) -> Any:
    for part in parts:
        root = root[part]
    return root


def _setter(parts: Parts, value: Any, present: bool = True) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        parent = node_at(root, parts[:-1])
        if present:
            parent[parts[-1]] = copy.deepcopy(value)
        elif isinstance(parent, dict):
            parent.pop(parts[-1], None)

    return undo


def _key_remover(parts: Parts, key: str) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        node_at(root, parts).pop(key, None)

    return undo


def _key_adder(parts: Parts, key: str, value: Any) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        parent = node_at(root, parts[:-1])
        parent.setdefault(parts[-1], {})[key] = copy.deepcopy(value)

    return undo


def _popper(parts: Parts, index: int) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        del node_at(root, parts)[index]

    return undo


def _appender(parts: Parts, value: Any) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        node_at(root, parts).append(copy.deepcopy(value))

    return undo


def _member_remover(parts: Parts, member: Any, as_list: bool) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        parent = node_at(root, parts[:-1])
        values = list_of(parent.get(parts[-1], [])) if as_list else list(parent.get(parts[-1], []))
        values = [m for m in values if not (json_equal(m, member) and type(m) is type(member))]
        parent[parts[-1]] = values

    return undo


def _member_adder(parts: Parts, member: Any, as_list: bool) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        parent = node_at(root, parts[:-1])
        values = list_of(parent.get(parts[-1], [])) if as_list else list(parent.get(parts[-1], []))
        parent[parts[-1]] = values + [copy.deepcopy(member)]

    return undo
