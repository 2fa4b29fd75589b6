"""Reading one input document, JSON or YAML, within the import's limits (platforms stage).

The file ``toolshape import`` reads and each remote schema ``--remote`` maps to a local file
(``platforms/remotes.py``) are read here, the same way and under the same limits: a file over
MAX_INPUT_BYTES is refused unread; objects and arrays nested deeper than MAX_INPUT_DEPTH are
refused at their line and column before a decoder recurses into them (json and PyYAML recurse
once per level); a key twice in one JSON object, NaN and Infinity, text that is not UTF-8 and
text that does not parse are refused too. Each refusal is a :class:`DocumentError` with one
message whoever reads the file; its caller says where (the input file, or the ``$ref`` that
named a remote one).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from ..contract import checker, source
from ..schema import pointers
from ..schema.values import unique_keys

MAX_INPUT_BYTES = 16 * 1_048_576
"""Input files larger than this are refused unread."""

MAX_INPUT_DEPTH = source.MAX_DEPTH - 4
"""Objects and arrays nested deeper than this in the input are refused before anything walks
them (the decoders and every walk of the import recurse once per level): the contract written
from them (one level more under ``parameters``, two under ``$defs``) stays within the nesting a
contract file may have (``source.MAX_DEPTH``)."""

TOO_DEEP = (
    f"objects and arrays nest more than {MAX_INPUT_DEPTH} levels deep here; a contract nests at "
    f"most {source.MAX_DEPTH} (and its schemas at most {checker.MAX_SCHEMA_DEPTH}): move the "
    "repeated part under $defs and $ref it"
)

_YAML_SUFFIXES = (".yaml", ".yml")
_BOM = b"\xef\xbb\xbf"
#: A JSON string (skipped whole) or a bracket: the tokens that decide JSON nesting. Linear: the
#: alternatives inside the string start on disjoint characters, the bracket is one character,
#: and the closing quote is optional, so a string never closed runs to the end of the text
#: once (with the quote required, each quote after it would start a scan to the end again).
_JSON_NESTING = re.compile(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', re.S)


class DocumentError(Exception):
    """Why a document cannot be read: ``message``, at ``at`` (line, column) when it has a place."""

    def __init__(self, message: str, at: tuple[int, int] | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.at = at


#: Why a YAML alias is refused, as contracts refuse it (contract/source.py): each ``*name``
#: repeats a part without copying it, so a few lines of aliases of aliases hold a document
#: exponentially larger than their text ("billion laughs"), which every walk of the schema
#: would then visit in full.
ALIAS = (
    "a YAML alias (*name): anchors and aliases are not read, as one can repeat a part of the "
    "schema without bound; write the part out, or put it under $defs and $ref it"
)


@dataclass(frozen=True)
class Document:
    """A document read: its text (without a byte order mark) and the value it holds."""

    text: str
    data: Any


def read(path: Path) -> Document:
    """The JSON document in the file at ``path`` (or YAML, when its suffix says so and its text
    is not JSON); DocumentError saying why not."""
    try:
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise DocumentError(f"the file is {size} bytes; the limit is {MAX_INPUT_BYTES}")
        raw = path.read_bytes().removeprefix(_BOM)
    except OSError as error:
        raise DocumentError(f"cannot read the file: {error.strerror or error}") from None
    is_yaml = path.suffix.lower() in _YAML_SUFFIXES
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DocumentError(f"the file is not UTF-8 (byte {error.start})") from None
    at = _first_too_deep(text, is_yaml)
    if at is not None:
        raise DocumentError(TOO_DEEP, at)
    return Document(text, _parse(text, is_yaml))


def too_deep(data: Any) -> str | None:
    """The JSON Pointer of the first value nested deeper than MAX_INPUT_DEPTH (None: none is),
    for data decoded elsewhere, or grown by YAML aliases past what its text shows.
    An explicit stack, not recursion: it runs before anything else walks the data."""
    todo: list[tuple[Any, str, int]] = [(data, "", 0)]
    while todo:
        value, pointer, depth = todo.pop()
        if isinstance(value, (dict, list)):
            if depth >= MAX_INPUT_DEPTH:
                return pointer
            items = value.items() if isinstance(value, dict) else enumerate(value)
            todo.extend(
                (item, f"{pointer}/{pointers.escape(str(key))}", depth + 1) for key, item in items
            )
    return None


def line_col(text: str, offset: int) -> tuple[int, int]:
    """The line and column (both from 1) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _first_too_deep(text: str, is_yaml: bool) -> tuple[int, int] | None:
    """The line and column of the first object or array nested deeper than MAX_INPUT_DEPTH,
    found without recursion (None: none is); DocumentError at a YAML alias (see ALIAS)."""
    depth = 0
    if is_yaml:
        try:
            for event in yaml.parse(text, Loader=yaml.SafeLoader):  # events: no recursion
                if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                    depth += 1
                    if depth > MAX_INPUT_DEPTH:
                        mark = event.start_mark
                        return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
                elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                    depth -= 1
                elif isinstance(event, yaml.AliasEvent):
                    mark = event.start_mark
                    at = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
                    raise DocumentError(ALIAS, at)
        except yaml.YAMLError:
            pass  # not YAML: the decoder says so, with its own message
        return None
    for match in _JSON_NESTING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_INPUT_DEPTH:
                return line_col(text, match.start())
        elif token in "]}":
            depth -= 1
    return None


def _parse(text: str, is_yaml: bool) -> Any:
    """JSON first (a key twice in one object refused, NaN and Infinity too); YAML when the
    suffix allows it and the text is not JSON."""
    try:
        return json.loads(text, object_pairs_hook=unique_keys, parse_constant=_not_json)
    except ValueError as error:
        if not is_yaml:
            raise DocumentError(f"not valid JSON: {error}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise DocumentError(f"not valid YAML: {error}") from None


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")
