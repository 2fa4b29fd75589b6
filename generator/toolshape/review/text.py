"""JSON values as ``toolshape diff`` shows and measures them: dumped for comparison, sized
for "smallest", shortened for text and markdown."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from ..schema import vocabulary

#: Keywords whose value is a piece of syntax (a pattern, a format name, a reference): shown as written.
_RAW_TEXT_KEYWORDS = frozenset(
    vocabulary.names(lambda k: k.implemented and k.value in vocabulary.SYNTAX_VALUES)
)
#: Strings longer than this are shortened in text and markdown output (JSON has them whole).
SHOW_STRING = 40


def dump(value: Any) -> str:
    """Order-preserving JSON text: 1 and 1.0 differ here, as they do in the contract text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)


def size(value: Any) -> tuple[int, int]:
    """How big arguments read (non-ASCII counts extra; on a tie, fewer distinct characters win)."""
    text = json.dumps(value, default=repr)
    return len(text), len(set(text))


def unique(values: Iterable[Any]) -> list[Any]:
    seen: set[str] = set()
    found = []
    for value in values:
        key = dump(value) + type(value).__name__
        if key not in seen:
            seen.add(key)
            found.append(value)
    return found


def list_of(value: Any) -> list[Any]:
    return list(value) if isinstance(value, list) else [value]


def show_json(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def show_text(text: str, limit: int = 60) -> str:
    return show_json(text, limit)


def keyword_text(keyword: str, before: Any, after: Any, had: bool, has: bool) -> str:
    """What changed in one keyword (the pointer names the keyword): "100 -> 50", "50 added"."""
    show = _raw if keyword in _RAW_TEXT_KEYWORDS else show_json
    if had and has:
        return f"{show(before)} -> {show(after)}"
    if has:
        return f"{show(after)} added"
    return f"{show(before)} removed"


def _raw(value: Any) -> str:
    """A pattern, format or $ref as written in YAML (single-quoted), not JSON-escaped."""
    if isinstance(value, str):
        text = value if len(value) <= 60 else value[:57] + "..."
        return "'" + text.replace("'", "''") + "'"
    return show_json(value)


def shown_arguments(value: Any) -> str:
    """Arguments for text and markdown: JSON, with long strings shortened (JSON output has them whole)."""

    def shorten(item: Any) -> Any:
        if isinstance(item, str) and len(item) > SHOW_STRING:
            return _Long(item)
        if isinstance(item, list):
            return [shorten(i) for i in item]
        if isinstance(item, dict):
            return {k: shorten(v) for k, v in item.items()}
        return item

    return _encode(shorten(value))


class _Long(str):
    """A long string, shown as its start and its length."""


def _encode(value: Any) -> str:
    if isinstance(value, _Long):
        head = json.dumps(str(value)[:12], ensure_ascii=False)[:-1]
        return f'{head}..." ({len(value)} chars)'
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(
                f"{json.dumps(k, ensure_ascii=False)}: {_encode(v)}" for k, v in value.items()
            )
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(_encode(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)
