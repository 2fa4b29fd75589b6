"""Read one contract file's YAML into plain JSON-compatible data, remembering positions.

The YAML is composed into pyyaml's node graph and the Python data is built from the nodes
here, never by pyyaml's constructors. The events come from libyaml's parser where pyyaml
has it and the text holds nothing the two parsers read differently (about five times
faster), else from pyyaml's pure-Python ``SafeLoader`` machinery, which also words every
error: marks and messages do not depend on whether libyaml is installed. That
way every key and value keeps its line and column, and the YAML 1.1 "surprises"
can be refused instead of silently turned into something the author did not mean:

* ``no``/``yes``/``on``/``off``/``y``/``n`` as booleans, dates, octal and
  sexagesimal numbers, ``.inf``/``.nan``;
* anchors, aliases and merge keys (which also rules out "billion laughs");
* duplicate keys, keys that are not strings, non-standard tags;
* text that is not UTF-8, strings holding lone surrogates, oversized files.

Every problem that can be found is reported at once in a ``ContractError``;
only syntax errors stop the reading early.
"""

from __future__ import annotations

import codecs
import functools
import math
import os
import pathlib
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import yaml
from yaml.composer import Composer
from yaml.constructor import SafeConstructor
from yaml.error import Mark
from yaml.events import (
    AliasEvent,
    CollectionEndEvent,
    CollectionStartEvent,
    DocumentStartEvent,
    MappingEndEvent,
    ScalarEvent,
    SequenceEndEvent,
    SequenceStartEvent,
    StreamEndEvent,
)
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode
from yaml.reader import ReaderError
from yaml.resolver import Resolver

try:  # libyaml's parser, when pyyaml was built with it (yaml.CSafeLoader uses the same)
    import yaml.cyaml

    _CParser: Any = getattr(yaml.cyaml, "CParser", None)
except ImportError:  # pragma: no cover - pyyaml without libyaml
    _CParser = None

from toolshape.contract.errors import ContractError, Problem, Severity

MAX_CONTRACT_BYTES = 1_048_576
"""Contract files larger than this (in bytes) are refused unread."""

MAX_DEPTH = 100
"""Deepest nesting of mappings and sequences accepted (keeps recursion bounded)."""

PathKey = tuple[str | int, ...]
"""A path from the root: mapping keys (str) and sequence indexes (int)."""

Position = tuple[int, int]
"""A 1-based (line, column)."""

_TAG = "tag:yaml.org,2002:"
_STR, _INT, _FLOAT, _BOOL, _NULL = (_TAG + name for name in ("str", "int", "float", "bool", "null"))
_MAP, _SEQ, _TIMESTAMP, _MERGE = (_TAG + name for name in ("map", "seq", "timestamp", "merge"))
_ALLOWED_TAGS = (_STR, _INT, _FLOAT, _BOOL, _NULL, _MAP, _SEQ)
#: The tags a scalar may have written out, in a contract and in a file ``import`` reads.
SCALAR_TAGS = (_STR, _INT, _FLOAT, _BOOL, _NULL)

_TRUE_WORDS = frozenset({"true", "True", "TRUE"})
_FALSE_WORDS = frozenset({"false", "False", "FALSE"})
_NULL_WORDS = frozenset({"", "~", "null", "Null", "NULL"})
# YAML 1.1 booleans other than true/false. pyyaml itself reads y/Y/n/N as strings,
# but the YAML 1.1 specification (and other readers) say boolean: refused as well.
_YAML11_TRUE_WORDS = frozenset({"y", "Y", "yes", "Yes", "YES", "on", "On", "ON"})
_YAML11_FALSE_WORDS = frozenset({"n", "N", "no", "No", "NO", "off", "Off", "OFF"})

_DECIMAL_INT = re.compile(r"[-+]?(?:0|[1-9][0-9]*)")
# A decimal with a fraction and/or an exponent (checked after _DECIMAL_INT, so the
# plain integers it also matches never get here). Accepts 1e3, 1.0e3 and -.5, which
# pyyaml (YAML 1.1) reads as strings but YAML 1.2 reads as numbers, as the author meant.
_DECIMAL_FLOAT = re.compile(r"[-+]?(?:(?:0|[1-9][0-9]*)(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
# Numbers in YAML 1.2 that pyyaml reads as strings: 0o17 (octal), 09 (leading zero).
_YAML12_ONLY_NUMBER = re.compile(r"[-+]?0(?:o[0-7]+|[0-9]+)")
_NOT_JSON_NUMBER = re.compile(r"[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)")
_SURROGATE = re.compile(r"[\ud800-\udfff]")
# Path element for values that are checked but not stored (their key was refused): not a
# string, so that no key of the data shares their paths, and their positions are never looked up.
_UNSTORED = -1
# The line breaks pyyaml counts when it numbers lines.
_LINE_BREAK = re.compile(r"\r\n|[\r\n\x85\u2028\u2029]")


@dataclass
class Document:
    """One contract file's data, with the position of every key and value in it."""

    file: str
    data: object
    text: str
    value_positions: dict[PathKey, Position] = field(
        default_factory=dict, repr=False, compare=False
    )
    key_positions: dict[PathKey, Position] = field(default_factory=dict, repr=False, compare=False)
    #: Where a value could not be read as written (a problem refused it): the data holds null
    #: there, or lacks the key. Only a YamlProblems' document has any.
    refused: frozenset[PathKey] = field(default=frozenset(), repr=False, compare=False)
    #: The places whose data was copied in from another file (contract/shared.py): for each,
    #: that file's document and the place in it.
    copied_from: dict[PathKey, tuple[Document, PathKey]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def source_of(self, path: PathKey) -> str:
        """``file:line`` of the node at ``path``: in the file it was copied from, if it was."""
        if not self.copied_from:  # (most documents: every generated comment asks this)
            return f"{self.file}:{self.value_at(path)[0]}"
        for length in range(len(path), 0, -1):
            origin = self.copied_from.get(tuple(path[:length]))
            if origin is not None:
                other, place = origin
                return other.source_of((*place, *path[length:]))
        return f"{self.file}:{self.value_at(path)[0]}"

    def value_at(self, path: PathKey) -> Position:
        """(line, col) of the node at `path`, or of its deepest existing ancestor."""
        path = tuple(path)
        for length in range(len(path), -1, -1):
            position = self.value_positions.get(path[:length])
            if position is not None:
                return position
        return (1, 1)

    def key_at(self, path: PathKey) -> Position:
        """(line, col) of the mapping key that ends `path`; otherwise as `value_at`."""
        path = tuple(path)
        position = self.key_positions.get(path)
        if position is not None:
            return position
        return self.value_at(path)

    def problem(
        self, path: PathKey, message: str, *, at_key: bool = False, severity: Severity = "error"
    ) -> Problem:
        """A Problem in this file at the value (or, with `at_key`, the key) at `path`."""
        line, col = self.key_at(path) if at_key else self.value_at(path)
        return Problem(self.file, line, col, message, severity)


class YamlProblems(ContractError):
    """YAML problems in text that could still be read whole: ``document`` holds its data, null
    (or no key) at each place a problem refused (its ``refused`` paths), so that the schema
    can be checked in the same run. Syntax errors, an empty or oversized file, text that is
    not UTF-8 and nesting past MAX_DEPTH leave nothing to read: a plain ContractError."""

    def __init__(self, problems: list[Problem], document: Document) -> None:
        super().__init__(problems)
        self.document = document


def load(raw: bytes, file: str) -> Document:
    """Read contract bytes into a Document; raise ContractError listing every problem
    (YamlProblems, with the document as far as it could be read, when the text was read whole)."""
    raw = bytes(raw)
    if len(raw) > MAX_CONTRACT_BYTES:
        raise ContractError([_too_large(file, len(raw))])
    text = _decode(raw, file)
    document = _load_fast(text, file)
    if document is not None:
        return document
    loader = _ContractLoader(text, file)
    root = loader.compose_contract()
    builder = _DataBuilder(file, loader.explicitly_tagged)
    data = builder.build(root, ())
    document = Document(file, data, text, builder.value_positions, builder.key_positions)
    problems = loader.problems + builder.problems
    if problems:
        document.refused = frozenset(builder.refused)
        raise YamlProblems(problems, document)
    return document


# Text the libyaml path leaves to the pure-Python one: what the two readers could tell apart
# (characters YAML refuses or reads as line breaks, a BOM inside, tabs, directives, a block
# scalar's header with a comment glued to it).
_ONLY_PURE = re.compile(
    r"[^\x0a\x0d\x20-\x7e\xa0-\u2027\u202a-\ud7ff\ue000-\ufefe\uff00-\ufffd\U00010000-\U0010ffff]"
    r"|^%|[|>][-+0-9]*#",
    re.MULTILINE,
)


def _load_fast(text: str, file: str) -> Document | None:
    """The Document of a contract that libyaml reads without a single problem, else None.

    libyaml only makes the events (pyyaml's Python scanner and parser took most of the time of
    a load; a load of contracts/ is 5.1 times faster); the nodes, marks and data come from the same code as the pure-Python path. Any
    problem, any error, or text the two readers could tell apart sends the contract down the
    pure-Python path, so every message and position is the pure path's, and a contract reads
    the same whether or not libyaml is installed (tests/test_source.py compares both)."""
    if _FastContractLoader is None or _ONLY_PURE.search(text):
        return None
    try:
        reader = _EventReader(_FastContractLoader(text, file))
        data = reader.document()
        return Document(file, data, text, reader.value_positions, reader.key_positions)
    except (ContractError, yaml.YAMLError, _NotPyyaml, _NotPlain):
        pass  # something to check or report: composed into nodes below, or read by pyyaml
    try:
        loader = _FastContractLoader(text, file)
        root = loader.compose_contract()
    except (ContractError, yaml.YAMLError, _NotPyyaml):
        return None
    if loader.problems:
        return None
    builder = _DataBuilder(file, loader.explicitly_tagged)
    data = builder.build(root, ())
    if builder.problems:
        return None
    return Document(file, data, text, builder.value_positions, builder.key_positions)


def load_file(path: pathlib.Path, file: str) -> Document:
    """Read the contract at `path` (shown as `file` in problems) and load it (see read_file)."""
    return load(read_file(path, file), file)


def read_file(path: pathlib.Path, file: str) -> bytes:
    """The bytes of the contract at `path` (shown as `file` in problems).

    The size is checked before reading, so an oversized file is never read whole;
    a file that cannot be read is reported as a ContractError too.
    """
    try:
        with open(path, "rb") as stream:
            size = os.fstat(stream.fileno()).st_size
            if size > MAX_CONTRACT_BYTES:
                raise ContractError([_too_large(file, size)])
            raw = stream.read(MAX_CONTRACT_BYTES + 1)
    except OSError as error:
        reason = error.strerror or str(error)
        raise ContractError(
            [Problem(file, 1, 1, f"cannot read the contract file: {reason}")]
        ) from None
    return raw


def _too_large(file: str, size: int) -> Problem:
    """The problem for a file over MAX_CONTRACT_BYTES."""
    return Problem(
        file,
        1,
        1,
        f"contract file is {size} bytes; the limit is {MAX_CONTRACT_BYTES} bytes",
    )


def _decode(raw: bytes, file: str) -> str:
    """Decode UTF-8 (dropping a leading BOM) or raise a ContractError at the first bad byte."""
    if raw.startswith(codecs.BOM_UTF8):
        raw = raw[len(codecs.BOM_UTF8) :]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        line, col = _end_position(raw[: error.start].decode("utf-8"))
        byte = raw[error.start]
        message = f"contract file is not valid UTF-8: byte 0x{byte:02x} at line {line}, column {col} cannot be decoded"
        raise ContractError([Problem(file, line, col, message)]) from None


def _end_position(prefix: str) -> Position:
    """(line, col) just after `prefix`, counting line breaks the way pyyaml does."""
    breaks = list(_LINE_BREAK.finditer(prefix))
    if not breaks:
        return (1, len(prefix) + 1)
    return (len(breaks) + 1, len(prefix) - breaks[-1].end() + 1)


def _position(mark: Mark) -> Position:
    """A pyyaml mark (0-based) as a 1-based (line, col)."""
    return (mark.line + 1, mark.column + 1)


def show_tag(tag: str) -> str:
    """Write a standard tag the short way it appears in YAML: !!str, not tag:yaml.org,2002:str."""
    return "!!" + tag[len(_TAG) :] if tag.startswith(_TAG) else tag


class _AliasPlaceholder(ScalarNode):
    """Stands where an alias (`*name`) was, once it has been reported; builds to None."""


class _ContractComposer(Composer):
    """pyyaml's composer, changed to refuse what contracts must not use.

    Anchors and aliases are reported instead of registered or followed (an alias
    becomes an _AliasPlaceholder), nesting is bounded by MAX_DEPTH, a second
    document is reported, and nodes with an explicit tag are remembered. The events
    come from pyyaml's Python parser (_ContractLoader) or from libyaml's
    (_FastContractLoader).
    """

    if TYPE_CHECKING:  # given by the parser and resolver each loader mixes in

        def check_event(self, *choices: Any) -> bool: ...
        def peek_event(self) -> Any: ...
        def get_event(self) -> Any: ...
        def dispose(self) -> None: ...
        def descend_resolver(self, current_node: Any, current_index: Any) -> None: ...
        def ascend_resolver(self) -> None: ...

    def _start(self, text: str, file: str) -> None:
        self.file = file
        self.text = text
        self.problems: list[Problem] = []
        # id() of every node whose tag was written out (`!!str x`); the ids stay
        # unique because the composed tree keeps all its nodes alive.
        self.explicitly_tagged: set[int] = set()
        self._depth = 0

    def compose_contract(self) -> Node:
        """Compose the single document of the file; raise ContractError if it cannot be read."""
        try:
            root = self.get_single_node()
        except yaml.YAMLError as error:
            raise ContractError([*self.problems, self._yaml_problem(error)]) from None
        finally:
            self.dispose()
        if root is None or (
            isinstance(root, ScalarNode) and root.style is None and root.value == ""
        ):
            raise ContractError(
                [*self.problems, Problem(self.file, 1, 1, "contract file is empty")]
            )
        return root

    def get_single_node(self) -> Node | None:
        """Compose the first document; report (and do not read) any second one."""
        self.get_event()  # the stream start
        root = None
        if not self.check_event(StreamEndEvent):
            root = self.compose_document()
        if not self.check_event(StreamEndEvent):
            event = self.get_event()
            self._report(
                event.start_mark,
                "contract file holds more than one YAML document ('---'); write exactly one",
            )
        return root

    def compose_node(self, parent: Node | None, index: object) -> Node:
        """Compose one node, refusing anchors and aliases and bounding the depth."""
        if self.check_event(AliasEvent):
            return self._refuse_alias()
        event = self.peek_event()
        if event.anchor is not None:
            self._report(
                event.start_mark,
                "YAML anchors and aliases are not allowed in contracts",
            )
        self._depth += 1
        if self._depth > MAX_DEPTH:
            line, col = _position(event.start_mark)
            message = f"contract nests mappings and lists more than {MAX_DEPTH} levels deep"
            raise ContractError([*self.problems, Problem(self.file, line, col, message)])
        self.descend_resolver(parent, index)
        # types-PyYAML types the anchor argument as a dict; pyyaml takes the anchor's name or None.
        node: Node
        if self.check_event(ScalarEvent):
            node = self.compose_scalar_node(None)  # type: ignore[arg-type]
        elif self.check_event(SequenceStartEvent):
            node = self.compose_sequence_node(None)  # type: ignore[arg-type]
        else:  # the parser allows nothing else here
            node = self.compose_mapping_node(None)  # type: ignore[arg-type]
        self.ascend_resolver()
        self._depth -= 1
        if event.tag not in (None, "!"):  # "!" alone means "untagged" to pyyaml
            self.explicitly_tagged.add(id(node))
        return node

    def _refuse_alias(self) -> Node:
        """Report an alias and return a placeholder node in its place."""
        event = self.get_event()
        self._report(event.start_mark, "YAML anchors and aliases are not allowed in contracts")
        return _AliasPlaceholder(_NULL, "", event.start_mark, event.end_mark)

    def _report(self, mark: Mark, message: str) -> None:
        """Record a problem at a pyyaml mark."""
        line, col = _position(mark)
        self.problems.append(Problem(self.file, line, col, message))

    def _yaml_problem(self, error: yaml.YAMLError) -> Problem:
        """Turn a pyyaml error into a Problem at its position."""
        if isinstance(error, ReaderError):
            line, col = _end_position(self.text[: error.position])
            code = ord(error.character) if isinstance(error.character, str) else error.character
            message = (
                f"contract file contains the character U+{code:04X}, which YAML does not allow"
            )
            return Problem(self.file, line, col, message)
        if not isinstance(error, yaml.MarkedYAMLError):
            return Problem(self.file, 1, 1, f"invalid YAML: {error}")
        return _syntax_problem(error, self.file)


class _ContractLoader(_ContractComposer, yaml.SafeLoader):
    """The contract composer over pyyaml's pure-Python reader, scanner and parser: the
    reference path, and the one that words every error."""

    def __init__(self, text: str, file: str) -> None:
        self._start(text, file)
        try:
            yaml.SafeLoader.__init__(self, text)
        except yaml.YAMLError as error:  # the reader checks every character up front
            raise ContractError([self._yaml_problem(error)]) from None


class _NotPyyaml(Exception):
    """Raised on the libyaml path where pyyaml's parser could read the text otherwise."""


_FLOW_RISK = re.compile(r"[:?]")


def _read_otherwise_by_pyyaml(text: str, in_flow: bool) -> bool:
    """Whether pyyaml's parser could read a plain scalar that libyaml read as ``text`` otherwise:
    where libyaml (YAML 1.2) reads more than pyyaml (1.1), an empty plain scalar, and in a flow
    collection (``in_flow``) a plain one holding ':' or '?'. Both libyaml paths ask it."""
    return not text or (in_flow and _FLOW_RISK.search(text) is not None)


_FastContractLoader: Any = None  # the libyaml-fed loader class, where there is libyaml
if _CParser is not None:

    class _LibyamlContractLoader(_ContractComposer, _CParser, SafeConstructor, Resolver):  # type: ignore[misc]
        """The contract composer over libyaml's parser (pyyaml's CParser, as in CSafeLoader)."""

        def __init__(self, text: str, file: str) -> None:
            self._start(text, file)
            self._flow: list[bool] = []  # for each open collection: is it a flow one?
            _CParser.__init__(self, text)
            Composer.__init__(self)
            SafeConstructor.__init__(self)
            Resolver.__init__(self)

        # libyaml writes a plain scalar's style as "", pyyaml's parser as None (what the
        # composer and the builder test for): the events are given pyyaml's spelling.
        def peek_event(self) -> Any:
            return self._as_pyyaml(_CParser.peek_event(self))

        def get_event(self) -> Any:
            event = self._as_pyyaml(_CParser.get_event(self))
            if isinstance(event, CollectionStartEvent):
                self._flow.append(bool(event.flow_style))
            elif isinstance(event, CollectionEndEvent):
                self._flow.pop()
            return event

        def _as_pyyaml(self, event: Any) -> Any:
            if type(event) is ScalarEvent and event.style in ("", None):
                if _read_otherwise_by_pyyaml(event.value, self._flow[-1:] == [True]):
                    raise _NotPyyaml
                event.style = None
            return event

    _FastContractLoader = _LibyamlContractLoader


class _NotPlain(Exception):
    """Raised by :class:`_EventReader` on anything it leaves to the node path (see there)."""


@functools.lru_cache(maxsize=4096)
def _plain_tag(text: str, implicit: bool) -> str:
    """The tag pyyaml's resolver gives a plain scalar (``implicit``: the event's first flag),
    as the composer asks it. Its table is pyyaml's own, fixed: the answer depends on these
    two alone, and a contract asks it again and again for the same keys and words."""
    tag: str = _RESOLVER.resolve(ScalarNode, text, (implicit, False))
    return tag


_RESOLVER: Any = Resolver()  # (pyyaml's resolver is untyped)


class _EventReader:
    """The data and positions of a plain contract, read straight from libyaml's events.

    Most contracts use nothing the node path checks for: no tag written out, no anchor or
    alias, no duplicate or non-string key, no scalar refused. For those, composing pyyaml's
    nodes first and building the data from them cost most of a load; this reads the same data
    and the same positions (a node's position is its first event's start) from the events
    the composer would take. On anything else, and on a plain scalar pyyaml could read
    otherwise (:func:`_read_otherwise_by_pyyaml`, as the loader's ``_as_pyyaml`` asks), it raises
    :class:`_NotPlain`, and the contract is read again by the node path, which reports it
    (measured: a load 2.85 -> 1.43 ms CPU per contract over the 40-contract set, with the
    cached tags of :func:`_plain_tag`)."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader
        self.value_positions: dict[PathKey, Position] = {}
        self.key_positions: dict[PathKey, Position] = {}
        self.depth = 0  # as the composer counts it: every node, keys too

    def next(self) -> Any:
        """libyaml's next event, as it wrote it (a plain scalar's style is "")."""
        return _CParser.get_event(self.loader)

    def document(self) -> object:
        """The data of the one document of the stream."""
        self.next()  # the stream start
        if not isinstance(self.next(), DocumentStartEvent):
            raise _NotPlain  # an empty file
        data = self.value(self.next(), (), False)
        self.next()  # the document end
        if not isinstance(self.next(), StreamEndEvent):
            raise _NotPlain  # a second document
        return data

    def value(self, event: Any, path: PathKey, flow: bool) -> object:
        """The data of the node starting with ``event``, found at ``path`` (``flow``: inside
        a flow collection)."""
        mark = event.start_mark
        self.value_positions[path] = (mark.line + 1, mark.column + 1)
        kind = self._node(event)
        if kind is ScalarEvent:
            value = self.scalar(event, flow)
        elif kind is SequenceStartEvent:
            inner = bool(event.flow_style)
            items: list[object] = []
            while type(item := self.next()) is not SequenceEndEvent:
                items.append(self.value(item, (*path, len(items)), inner))
            value = items
        else:
            value = self.mapping(path, bool(event.flow_style))
        self.depth -= 1
        return value

    def scalar(self, event: Any, flow: bool, *, key: bool = False) -> object:
        """The value of a scalar (``key``: read as a mapping key is, see :func:`read_key`)."""
        text = event.value
        if _SURROGATE.search(text):
            raise _NotPlain  # (read as a string or not, the node path reports it)
        if event.style:  # quoted, literal (|) or folded (>): always a string
            return text
        if _read_otherwise_by_pyyaml(text, flow):  # a plain scalar from here on
            raise _NotPlain
        tag = _plain_tag(text, event.implicit[0])
        if key and tag == _STR:
            return text
        if key and tag == _MERGE:
            raise _NotPlain
        value, message = _read_plain(text, tag)
        if message is not None:
            raise _NotPlain
        return value

    def mapping(self, path: PathKey, flow: bool) -> dict[str, object]:
        """The entries of a mapping whose start event was just read."""
        result: dict[str, object] = {}
        while type(event := self.next()) is not MappingEndEvent:
            if self._node(event) is not ScalarEvent:
                raise _NotPlain  # a key that is a mapping or a list
            self.depth -= 1
            key = self.scalar(event, flow, key=True)
            if not isinstance(key, str) or key in result:
                raise _NotPlain
            key_path = (*path, key)
            mark = event.start_mark
            self.key_positions[key_path] = (mark.line + 1, mark.column + 1)
            result[key] = self.value(self.next(), key_path, flow)
        return result

    def _node(self, event: Any) -> type:
        """The kind of the node ``event`` starts, counted one level deeper; raises
        :class:`_NotPlain` on an alias, an anchor, a tag written out or too deep a nesting."""
        kind = type(event)
        if kind is AliasEvent or event.anchor is not None or event.tag not in (None, "!"):
            raise _NotPlain
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _NotPlain
        return kind


def _syntax_problem(error: yaml.MarkedYAMLError, file: str) -> Problem:
    """A Problem for a pyyaml syntax error: its problem text, with its context if any."""
    mark = error.problem_mark or error.context_mark
    line, col = _position(mark) if mark is not None else (1, 1)
    message = error.problem or error.context or "invalid YAML"
    if error.problem and error.context:
        where = ""
        if error.context_mark is not None:
            where = " at line {} column {}".format(*_position(error.context_mark))
        message = f"{message} ({error.context}{where})"
    if "'\\t'" in message:
        message += "; use spaces, not tabs (YAML does not allow tabs for indentation)"
    return Problem(file, line, col, f"invalid YAML: {message}")


class _DataBuilder:
    """Builds Python data from a composed node graph, checking every node on the way."""

    def __init__(self, file: str, explicitly_tagged: set[int]) -> None:
        self.file = file
        self.explicitly_tagged = explicitly_tagged
        self.problems: list[Problem] = []
        self.value_positions: dict[PathKey, Position] = {}
        self.key_positions: dict[PathKey, Position] = {}
        #: The paths of values built as null after a problem, and of mappings that lost a
        #: key (as the path of an unstored entry under them): see Document.refused.
        self.refused: set[PathKey] = set()

    def build(self, node: Node, path: PathKey) -> object:
        """The data for `node`, found at `path`; records its position."""
        self.value_positions[path] = _position(node.start_mark)
        if isinstance(node, _AliasPlaceholder):
            self.refused.add(path)
            return None  # already reported
        if id(node) in self.explicitly_tagged and self._check_tag(node):
            self.refused.add(path)  # read all the same, but not as its tag says
        if isinstance(node, MappingNode):
            return self._build_mapping(node, path)
        if isinstance(node, SequenceNode):
            return [self.build(item, (*path, index)) for index, item in enumerate(node.value)]
        assert isinstance(node, ScalarNode)  # a composed node is a mapping, a list or a scalar
        reported = len(self.problems)
        value = self._build_scalar(node)
        if len(self.problems) > reported:
            self.refused.add(path)
        return value

    def _build_mapping(self, node: MappingNode, path: PathKey) -> dict[str, object]:
        """A dict from a mapping node, refusing duplicate and non-string keys."""
        result: dict[str, object] = {}
        first_lines: dict[str, int] = {}
        for key_node, value_node in node.value:
            key = self._key(key_node)
            if key is None:
                self.refused.add((*path, _UNSTORED))  # the mapping lacks an entry it was given
                self.build(value_node, (*path, _UNSTORED))  # still checked, for its own problems
                continue
            line, col = _position(key_node.start_mark)
            if key in first_lines:
                self._report(
                    key_node,
                    f"duplicate key '{key}' (first defined on line {first_lines[key]})",
                )
                self.build(value_node, (*path, _UNSTORED))
                continue
            first_lines[key] = line
            key_path = (*path, key)
            self.key_positions[key_path] = (line, col)
            result[key] = self.build(value_node, key_path)
        return result

    def _key(self, node: Node) -> str | None:
        """The string a key node stands for, or None (after reporting) if it is not one."""
        if isinstance(node, _AliasPlaceholder):
            return None  # already reported
        if not isinstance(node, ScalarNode):  # a mapping or a list
            kind = "a mapping" if isinstance(node, MappingNode) else "a list"
            self._report(node, f"mapping keys must be strings, not {kind}")
            return None
        explicit = id(node) in self.explicitly_tagged
        if explicit and node.tag not in _ALLOWED_TAGS:
            self._check_tag(node)
            return None
        if explicit:
            value, message = _read_tagged(node)
        elif node.style is None and node.tag == _MERGE:
            self._report(node, "YAML merge keys (<<) are not allowed in contracts")
            return None
        else:
            value, message = read_key(node)
        if message is not None or not isinstance(value, str):
            advice = f"write '{node.value}' in quotes" if node.value else "this key is empty"
            self._report(node, f"mapping keys must be strings; {advice}")
            return None
        return self._checked_text(node, value)

    def _check_tag(self, node: Node) -> bool:
        """Report an explicit tag that is not standard or does not fit the node's kind;
        whether there was one."""
        reported = len(self.problems)
        self._report_tag(node)
        return len(self.problems) > reported

    def _report_tag(self, node: Node) -> None:
        """The reports of :meth:`_check_tag`."""
        tag = show_tag(node.tag)
        if node.tag not in _ALLOWED_TAGS:
            allowed = ", ".join(show_tag(allowed) for allowed in _ALLOWED_TAGS)
            self._report(node, f"the tag {tag} is not allowed in contracts; only {allowed}")
        elif isinstance(node, MappingNode) and node.tag != _MAP:
            self._report(node, f"the tag {tag} cannot be used on a mapping")
        elif isinstance(node, SequenceNode) and node.tag != _SEQ:
            self._report(node, f"the tag {tag} cannot be used on a list")
        elif isinstance(node, ScalarNode) and node.tag in (_MAP, _SEQ):
            self._report(node, f"the tag {tag} cannot be used on a single value")

    def _build_scalar(self, node: ScalarNode) -> object:
        """The value of a scalar node, or None after reporting a problem with it."""
        value, message = read_scalar(node, id(node) in self.explicitly_tagged)
        if message is not None:
            self._report(node, message)
            return None
        if isinstance(value, str):
            return self._checked_text(node, value)
        return value

    def _checked_text(self, node: ScalarNode, text: str) -> str | None:
        """`text` if it is valid Unicode; None after reporting a lone surrogate in it."""
        match = _SURROGATE.search(text)
        if match is None:
            return text
        self._report(
            node,
            f"string contains the lone surrogate \\u{ord(match.group()):04x}, which is not valid Unicode text; "
            "write the character itself or a single \\U escape for it",
        )
        return None

    def _report(self, node: Node, message: str) -> None:
        """Record a problem at the start of `node`."""
        line, col = _position(node.start_mark)
        self.problems.append(Problem(self.file, line, col, message))


def read_scalar(node: ScalarNode, explicit: bool) -> tuple[object, str | None]:
    """(value, problem message or None) for a scalar node; `explicit` if its tag was written out."""
    if explicit:
        return _read_tagged(node)
    if node.style is not None:  # quoted, literal (|) or folded (>): always a string
        return node.value, None
    return _read_plain(node.value, node.tag)


def read_key(node: ScalarNode) -> tuple[object, str | None]:
    """(value, problem message or None) for an untagged scalar mapping key: read as a value is,
    except that a plain key pyyaml reads as a string stays one. Unlike values, plain keys such
    as n, y, 1e3 or 09 are not refused: a key can only be a string here, and n and y are common
    parameter names. (A key that reads as anything but a string is the caller's to refuse.)"""
    if node.style is not None or node.tag == _STR:
        return node.value, None
    return _read_plain(node.value, node.tag)


def _read_plain(text: str, tag: str) -> tuple[object, str | None]:
    """(value, problem message or None) for an untagged plain scalar that pyyaml resolved to `tag`."""
    if text in _YAML11_TRUE_WORDS or text in _YAML11_FALSE_WORDS:
        meant = "true" if text in _YAML11_TRUE_WORDS else "false"
        return None, (
            f"'{text}' is read as a boolean by YAML 1.1; quote it ('{text}') if you mean the string, or write {meant}"
        )
    if tag == _BOOL and (text in _TRUE_WORDS or text in _FALSE_WORDS):
        return text in _TRUE_WORDS, None
    if tag == _NULL and text in _NULL_WORDS:
        return None, None
    if _DECIMAL_INT.fullmatch(text):
        return _read_int(text)
    if _DECIMAL_FLOAT.fullmatch(text):
        return _read_float(text)
    if tag == _TIMESTAMP:
        return None, read_as_date(text)
    if _NOT_JSON_NUMBER.fullmatch(text):
        return None, not_a_json_number(text)
    if tag in (_INT, _FLOAT) or _YAML12_ONLY_NUMBER.fullmatch(text):
        return None, (
            f"'{text}' is a surprising number in YAML (leading zero, octal, hexadecimal, binary, "
            f"sexagesimal or '_'); quote it ('{text}') if you mean the string, or write a plain decimal number"
        )
    return text, None  # a string (also '=' and '<<', which pyyaml tags specially)


def read_as_date(text: str) -> str:
    """Why the plain scalar ``text`` that YAML 1.1 reads as a date is refused, and what to write."""
    return f"'{text}' is read as a date by YAML 1.1; quote it ('{text}') if you mean the string"


def not_a_json_number(text: str) -> str:
    """Why the plain scalar ``text`` (``.inf``, ``.nan``) is refused, and what to write."""
    return f"'{text}' is not a JSON number; quote it ('{text}') if you mean the string"


def _read_tagged(node: ScalarNode) -> tuple[object, str | None]:
    """(value, problem message or None) for a scalar with an explicit, allowed tag."""
    text, tag = node.value, node.tag
    if tag == _STR or tag not in _ALLOWED_TAGS:
        return text, None  # a tag that is not allowed was already reported
    if tag == _BOOL and (text in _TRUE_WORDS or text in _FALSE_WORDS):
        return text in _TRUE_WORDS, None
    if tag == _NULL and text in _NULL_WORDS:
        return None, None
    if tag == _INT and _DECIMAL_INT.fullmatch(text):
        return _read_int(text)
    if tag == _FLOAT and _DECIMAL_FLOAT.fullmatch(text):
        return _read_float(text)
    if tag in (_MAP, _SEQ):
        return None, None  # already reported by the tag check
    return None, f"'{text}' is not a valid {show_tag(tag)} value"


def _read_int(text: str) -> tuple[int | None, str | None]:
    """A decimal integer, refusing ones too long for Python to convert."""
    try:
        return int(text), None
    except ValueError:  # more digits than sys.get_int_max_str_digits()
        return None, f"the integer '{text[:20]}...' has too many digits"


def _read_float(text: str) -> tuple[float | None, str | None]:
    """A decimal float, refusing ones too large for a (finite) JSON number."""
    value = float(text)
    if not math.isfinite(value):
        return None, (
            f"the number '{text}' is too large for a JSON number; write a smaller one, or quote "
            f"it ('{text}') if you mean the string"
        )
    return value, None
