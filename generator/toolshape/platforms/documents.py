"""Reading one input document, JSON or YAML, within the import's limits (platforms stage).

The file ``toolshape import`` reads and each remote schema ``--remote`` maps to a local file
(``platforms/remotes.py``) are read here, the same way and under the same limits: a file over
MAX_INPUT_BYTES is refused unread; the text is parsed once, and objects and arrays nested
deeper than MAX_INPUT_DEPTH are refused at their line and column before a decoder recurses into
them (json and PyYAML recurse once per level: JSON's brackets are counted first, YAML's as it is
composed); a key twice in one object, YAML aliases, merge keys and keys that are not strings,
NaN and Infinity, YAML-only values (dates, bytes, sets, ordered pairs), text that is not UTF-8
and text that does not parse are refused too. A YAML scalar is read as a contract reads it
(``contract/source.py``), tagged or not: where YAML 1.1 and 1.2 read one differently (``yes``,
``017``, ``0x1F``, ``1:20``, ``!!int 017``), it is refused at its place rather than read as
one of them. Each refusal is a :class:`DocumentError` with one message whoever reads the file;
its caller says where (the input file, or the ``$ref`` that named a remote one).
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode

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


#: Why a YAML merge key is refused, as contracts refuse it (contract/source.py): merge keys
#: are YAML 1.1 only, and an imported document is read as the JSON it stands for.
MERGE = (
    "a YAML merge key (<<): merge keys are YAML 1.1 only and JSON has none, so they are not "
    "read; write the keys out in this object (or put the shared part under $defs and $ref it)"
)

_MERGE_TAG = "tag:yaml.org,2002:merge"


@dataclass(frozen=True)
class Document:
    """A document read: its text (without a byte order mark) and the value it holds."""

    text: str
    data: Any
    #: The root node YAML text was composed into (None: read as JSON), kept so that finding
    #: where each of many warnings is (importer.locate) does not compose the text again.
    yaml_root: Node | None = field(default=None, repr=False, compare=False)


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
    return _parse(text, is_yaml)


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


def _parse(text: str, is_yaml: bool) -> Document:
    """The document the text holds, parsed once: JSON (a key twice in one object refused, NaN,
    Infinity and a number past the largest double too) unless its brackets nest too deep; YAML when the suffix allows it and the
    text is not JSON (or nests too deep as JSON: the YAML reader then refuses it in its turn,
    at the same bracket when the text is JSON)."""
    at = _json_too_deep(text)
    if at is None:
        try:
            return Document(
                text,
                json.loads(
                    text,
                    object_pairs_hook=unique_keys,
                    parse_constant=_not_json,
                    parse_float=_finite,
                ),
            )
        except ValueError as error:
            if not is_yaml:
                raise DocumentError(f"not valid JSON: {error}") from None
    elif not is_yaml:
        raise DocumentError(TOO_DEEP, at)
    try:
        loader = _LimitedYamlLoader(text)
        root = loader.get_single_node()
        return Document(text, None if root is None else loader.construct_document(root), root)
    except yaml.YAMLError as error:
        raise DocumentError(f"not valid YAML: {error}") from None


def _json_too_deep(text: str) -> tuple[int, int] | None:
    """The line and column of the first object or array nested deeper than MAX_INPUT_DEPTH
    when the text is read as JSON (None: none is), found by a linear scan of its strings and
    brackets before json's decoder recurses into them."""
    depth = 0
    for match in _JSON_NESTING.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > MAX_INPUT_DEPTH:
                return line_col(text, match.start())
        elif token in "]}":
            depth -= 1
    return None


class _LimitedYamlLoader(yaml.SafeLoader):
    """PyYAML's safe loader under the import's limits, checked as it composes (one parse):
    DocumentError at an alias (see ALIAS), at the first mapping or sequence nested deeper than
    MAX_INPUT_DEPTH (before the composer recurses into it) and at a key given twice in one
    mapping (as in JSON: last-wins would let one reader see what another does not)."""

    if TYPE_CHECKING:  # the parser's, untyped in the stubs

        def peek_event(self) -> Any: ...

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self._depth = 0
        #: The nodes whose tag is written out (``!!str yes``): see construct_object.
        self._tagged: set[int] = set()

    def compose_node(self, parent: Node | None, index: int) -> Node | None:
        event = self.peek_event()
        if isinstance(event, yaml.AliasEvent):
            raise DocumentError(ALIAS, _at(event.start_mark))
        nests = isinstance(event, yaml.CollectionStartEvent)
        if nests:
            self._depth += 1
            if self._depth > MAX_INPUT_DEPTH:
                raise DocumentError(TOO_DEEP, _at(event.start_mark))
        node = super().compose_node(parent, index)
        if nests:
            self._depth -= 1
        if event.tag not in (None, "!"):  # "!" alone means "untagged" to pyyaml
            self._tagged.add(id(node))
        return node

    def construct_object(self, node: Node, deep: bool = False) -> Any:
        """A scalar is read as a contract reads it, tagged (``!!int``, ``!!str``...) or not:
        YAML 1.2's numbers (``1e3``, ``-.5``), ``true``/``false``/``null``, and the YAML 1.1
        readings the two versions disagree on (``yes``/``no``/``on``/``off``, ``017``,
        ``0x1F``, ``1:20``, dates, ``!!int 017``) refused at their place, saying what to
        write: never a value the author may not have meant. A tag JSON has no value for is
        refused at its place (the YAML-only kinds by their constructors, which say what to
        write instead); objects and lists as PyYAML's safe loader reads them."""
        tagged = id(node) in self._tagged
        if not isinstance(node, ScalarNode) and tagged and node.tag in source.SCALAR_TAGS:
            message = f"the tag {source.show_tag(node.tag)} cannot be used on an object or a list"
            raise DocumentError(message, _at(node.start_mark))
        if not isinstance(node, ScalarNode) or (tagged and node.tag in _REFUSED_TAGS):
            return super().construct_object(node, deep=deep)
        if tagged and node.tag not in source.SCALAR_TAGS:
            allowed = ", ".join(map(source.show_tag, source.SCALAR_TAGS))
            message = (
                f"the tag {source.show_tag(node.tag)} is not JSON: write the value untagged, "
                f"or tag it {allowed}"
            )
            raise DocumentError(message, _at(node.start_mark))
        value, problem = source.read_scalar(node, tagged)
        if problem is not None:
            raise DocumentError(problem, _at(node.start_mark))
        return value

    def construct_mapping(self, node: MappingNode, deep: bool = False) -> dict[Hashable, Any]:
        for key_node, _ in node.value:
            if key_node.tag == _MERGE_TAG:
                raise DocumentError(MERGE, _at(key_node.start_mark))
        # After the merge keys are refused, this only gives the special key `=` (tagged
        # !!value, which has no constructor) the string tag it is read with.
        self.flatten_mapping(node)
        # Each key as _key reads it (a plain key PyYAML reads as a string stays one: ``1e3:``),
        # all of them before any value.
        value_nodes: dict[str, Node] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            if key in value_nodes:
                message = f"the key {key!r} appears twice in one object"
                raise DocumentError(message, _at(key_node.start_mark))
            value_nodes[key] = value_node
        return {key: self.construct_object(value, deep=deep) for key, value in value_nodes.items()}

    def _key(self, key_node: Node) -> str:
        """The string a mapping's key node holds; DocumentError at the key when it is not one
        (a JSON object's keys are strings: ``1`` and ``true`` would otherwise be one key)."""
        if not isinstance(key_node, ScalarNode):
            kind = "an object" if isinstance(key_node, MappingNode) else "a list"
            raise DocumentError(f"keys must be strings, not {kind}", _at(key_node.start_mark))
        tagged = id(key_node) in self._tagged
        if tagged and key_node.tag not in source.SCALAR_TAGS:
            key = self.construct_object(key_node)  # refused at its place, saying what to write
        else:  # as a contract reads its keys
            read = source.read_scalar(key_node, True) if tagged else source.read_key(key_node)
            key = None if read[1] is not None else read[0]
        if not isinstance(key, str):
            advice = (
                f"write '{key_node.value}' in quotes" if key_node.value else "this key is empty"
            )
            raise DocumentError(f"keys must be strings; {advice}", _at(key_node.start_mark))
        return key


#: What to write instead of each YAML-only kind of value (JSON has no bytes, sets or ordered
#: pairs): each is refused where it is written, whether its tag is written out or implied.
_YAML_ONLY = {
    "tag:yaml.org,2002:binary": (
        "a !!binary value is YAML only (JSON has no bytes): write its base64 text as a string"
    ),
    "tag:yaml.org,2002:set": (
        "a !!set is YAML only: write its members as a JSON list (with uniqueItems: true "
        "where that matters)"
    ),
    "tag:yaml.org,2002:omap": (
        "a !!omap is YAML only: write a JSON object (or a list of [key, value] lists)"
    ),
    "tag:yaml.org,2002:pairs": (
        "a !!pairs list is YAML only: write a JSON object (or a list of [key, value] lists)"
    ),
}


def _refuse_yaml_only(loader: _LimitedYamlLoader, node: Node) -> Any:
    """A value of one of the _YAML_ONLY kinds: refused at its place, saying what to write."""
    raise DocumentError(_YAML_ONLY[node.tag], _at(node.start_mark))


def _refuse_timestamp(loader: _LimitedYamlLoader, node: Node) -> Any:
    """A date or time (``2001-12-14``) is not JSON: the string it is written as is."""
    raise DocumentError(source.read_as_date(str(node.value)), _at(node.start_mark))


#: The tags refused by a constructor of their own, which says what to write instead.
_REFUSED_TAGS = frozenset({*_YAML_ONLY, "tag:yaml.org,2002:timestamp"})

for _tag in _YAML_ONLY:
    _LimitedYamlLoader.add_constructor(_tag, _refuse_yaml_only)
_LimitedYamlLoader.add_constructor("tag:yaml.org,2002:timestamp", _refuse_timestamp)


def _at(mark: Any) -> tuple[int, int]:
    """A PyYAML mark (from 0) as a line and column from 1."""
    return (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)


def _not_json(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    """A JSON number as a float, refused where it is past the largest double: ``1e999`` decodes
    to infinity, which no JSON text can stand for (and no contract can hold)."""
    value = float(text)
    if math.isinf(value):
        raise ValueError(
            f"{text} is past the largest number a JSON reader holds; write a smaller one"
        )
    return value
