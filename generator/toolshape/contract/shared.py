"""Shared definitions: a ``$ref`` from one contract file into another (contract stage).

Teams share schemas (an address, a money amount, a pagination block) in files under the
contracts folder's ``common/`` folder. Such a file is not a tool: it holds ``$defs`` (and
optionally ``description``, ``$comment``, ``x-*``), and a contract refers into it with a path
relative to the referring file and a JSON Pointer fragment::

    $ref: ../common/money.yaml#/$defs/amount

Reading happens in two steps, so that a worker process never touches the disk:

* :func:`gather` (the project stage calls it, with a reader that keeps to the contracts folder)
  finds every shared file a contract reaches, directly or through other shared files, and
  returns their bytes; a reference that leaves the folder, names a URL or a missing file is an
  error at the ``$ref``, with its ``path:line:col``.
* :func:`bundle` copies each definition reached into the ``$defs`` of the contract schema that
  refers to it (``parameters`` or ``output``) and rewrites the references to local ones, so
  every later stage sees one self-contained schema and each generated module stays standalone.
  Each shared file is checked on its own first (checker.check_shared), its errors at its lines.
"""

from __future__ import annotations

import copy
import posixpath
import re
from collections.abc import Callable, Iterator, Mapping
from pathlib import PurePosixPath
from typing import Any
from urllib.parse import unquote

from ..families.annotations.rules import SHARED_FILE_NOTES
from ..families.references.targets import DEFS, REF
from ..schema.keywords import subschemas
from ..schema.pointers import SchemaPath, pointer, resolve, tokens
from . import source
from .errors import ContractError, Problem

#: The folder (directly under the contracts folder) that holds shared definitions, not tools.
SHARED_FOLDER = "common"
#: The files a reference may reach: YAML, or JSON (which YAML reads as well).
SUFFIXES = (".yaml", ".yml", ".json")
#: The keys a shared-definitions file may hold besides ``x-*`` extensions.
SHARED_KEYS = (DEFS, *SHARED_FILE_NOTES)
#: The contract keys whose schemas may refer to shared definitions.
SCHEMA_KEYS = ("parameters", "output")

#: The bytes of the shared files a contract reaches, by their path in the contracts folder.
Files = Mapping[str, bytes]
#: Reads a file by its path in the contracts folder; raises :class:`Unreadable` when it cannot.
Reader = Callable[[PurePosixPath], bytes]

#: A ``$ref`` key followed by a value that starts with ``#``.
_LOCAL_REF = re.compile(rb"\$ref[\"']?[ \t]*:[ \t]*[\"']?#")
#: The escapes of a double-quoted YAML scalar that could spell ``$ref``: a character by its
#: code, or an escaped line break (which joins the lines around it).
_ESCAPE = re.compile(rb"\\(?:[xuU\r\n]|\xc2\x85|\xe2\x80[\xa8\xa9])")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:|//")
_NOT_IN_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


class Unreadable(Exception):
    """A reader's refusal: the message says why the file cannot be read (missing, a symlink...)."""


class Refused(Exception):
    """A reference toolshape does not follow: the message says why."""


def is_shared(relative: PurePosixPath) -> bool:
    """Whether the file at ``relative`` (in the contracts folder) holds shared definitions."""
    return len(relative.parts) > 1 and relative.parts[0] == SHARED_FOLDER


def is_external(ref: Any) -> bool:
    """Whether ``ref`` is a reference to another file (anything but ``#...``)."""
    return isinstance(ref, str) and not ref.startswith("#")


def locate(ref: str, holder: PurePosixPath) -> tuple[PurePosixPath, SchemaPath]:
    """The shared file (path in the contracts folder) and the place in it that ``ref``, written
    in the file at ``holder``, names; raise :class:`Refused` saying why it names none."""
    file, _, fragment = ref.partition("#")
    if _URL.match(file) or file.startswith("/") or "\\" in file:
        raise Refused(
            f"remote '{REF}' ({ref[:80]}) is refused: toolshape never fetches and reads only the "
            f"contracts folder; put the schema under $defs, or under {SHARED_FOLDER}/ and refer "
            f"to it by a relative path such as ../{SHARED_FOLDER}/money.yaml#/$defs/amount"
        )
    joined = posixpath.normpath(posixpath.join(holder.parent.as_posix(), unquote(file)))
    if joined == ".." or joined.startswith("../"):
        raise Refused(f"'{REF}' {ref[:80]} leads out of the contracts folder")
    target = PurePosixPath(joined)
    if not is_shared(target):
        raise Refused(
            f"'{REF}' {ref[:80]} reaches {target}: a reference to another file reaches shared "
            f"definitions only, files under {SHARED_FOLDER}/ of the contracts folder"
        )
    if target.suffix not in SUFFIXES:
        raise Refused(
            f"'{REF}' {ref[:80]} reaches {target}: shared definitions are {', '.join(SUFFIXES)} files"
        )
    if not fragment.startswith("/"):
        raise Refused(
            f"'{REF}' {ref[:80]} names no definition: add a JSON Pointer, such as {file}#/$defs/<name>"
        )
    return target, tuple(tokens(unquote(fragment)))


def display_of(display: str, relative: PurePosixPath, target: PurePosixPath) -> str:
    """How problems name the shared file ``target``, for a contract shown as ``display`` that
    sits at ``relative`` in the contracts folder (``contracts/shop/a.yaml`` -> ``contracts/common/x.yaml``)."""
    inside = relative.as_posix()
    base = display[: -len(inside)] if display.endswith(inside) else ""
    return base + target.as_posix()


def references(document: source.Document, shared: bool) -> Iterator[tuple[SchemaPath, str]]:
    """Every ``$ref`` to another file in a contract (or, with ``shared``, a shared file):
    its place from the document root and its text."""
    data = document.data
    if not isinstance(data, dict):
        return
    # A shared file is walked as one schema: its $defs are the subschemas of its root.
    stack: list[tuple[Any, SchemaPath]] = (
        [(data, ())] if shared else [(data[key], (key,)) for key in SCHEMA_KEYS if key in data]
    )
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict) and is_external(node.get(REF)):
            yield where + (REF,), node[REF]
        stack.extend(subschemas(node, where))


def might_refer(raw: bytes) -> bool:
    """Whether contract bytes may hold a ``$ref`` to another file; False only when they
    surely do not, so that most contracts need no parse here.

    A ``$ref`` key is written as such (plain, quoted or in JSON style), or spelled with escapes
    in a double-quoted key (``\\x24ref``, or a line broken by an escaped line break): bytes
    with such an escape may hold one; else they hold none when every ``$ref`` written is
    followed by a value that starts with ``#`` (a local reference, or a YAML comment)."""
    if _ESCAPE.search(raw):
        return True
    return raw.count(REF.encode()) != len(_LOCAL_REF.findall(raw))


def gather(raw: bytes, display: str, relative: PurePosixPath, read: Reader) -> dict[str, bytes]:
    """The bytes of every shared file the contract reaches (directly, or through shared files),
    by path in the contracts folder; raise ContractError naming each reference that reaches none.

    A contract (or shared file) that does not load has its YAML problems reported where it is
    checked: here it just leads nowhere."""
    if not might_refer(raw):
        return {}
    files: dict[str, bytes] = {}
    problems: list[Problem] = []
    pending = [(raw, display, relative)]
    while pending:
        data, shown, at = pending.pop()
        try:
            document = source.load(data, shown)
        except ContractError:
            continue
        for where, ref in references(document, shared=at != relative):
            try:
                target, _ = locate(ref, at)
                key = target.as_posix()
                if key not in files:
                    files[key] = read(target)
                    pending.append((files[key], display_of(display, relative, target), target))
            except Refused as reason:
                problems.append(document.problem(where, str(reason)))
            except Unreadable as reason:
                problems.append(document.problem(where, f"'{REF}' {ref[:80]}: {reason}"))
    if problems:
        raise ContractError(problems)
    return dict(sorted(files.items()))


def bundle(
    document: source.Document,
    relative: PurePosixPath,
    files: Files,
    check_shared: Callable[[source.Document], None],
) -> None:
    """Copy every shared definition the contract reaches into the ``$defs`` of the schema that
    refers to it, and make each reference local; raise ContractError with every problem.

    ``check_shared`` checks a loaded shared file (checker.check_shared): one with errors stops
    the contract, its errors at its own lines. A copied definition's places take the position
    of the contract's reference that first reached it, so a later finding there names that
    reference."""
    found = list(references(document, shared=False))
    if not found:
        return
    bundler = _Bundler(document, relative, files, check_shared)
    for where, ref in found:
        bundler.refer(where, ref)
    if bundler.problems:
        raise ContractError(bundler.problems)


class _Bundler:
    """The copies made for one contract: one ``$defs`` entry per (schema key, file, place)."""

    def __init__(
        self,
        document: source.Document,
        relative: PurePosixPath,
        files: Files,
        check_shared: Callable[[source.Document], None],
    ) -> None:
        self.document = document
        self.relative = relative
        self.files = files
        self.check_shared = check_shared
        self.problems: list[Problem] = []
        self.loaded: dict[PurePosixPath, source.Document | None] = {}
        #: The $defs name of each definition copied, by (schema key, file, place).
        self.names: dict[tuple[str, PurePosixPath, SchemaPath], str] = {}

    def refer(self, where: SchemaPath, ref: str) -> None:
        """Make the contract's reference at ``where`` (ending in ``$ref``) a local one."""
        top = str(where[0])
        try:
            name = self.copied(top, ref, self.relative, where)
        except Refused as reason:
            self.problems.append(self.document.problem(where, str(reason)))
            return
        if name is not None:
            holder = resolve(self.document.data, where[:-1])
            holder[REF] = "#" + pointer((DEFS, name))

    def copied(self, top: str, ref: str, holder: PurePosixPath, origin: SchemaPath) -> str | None:
        """The $defs name (under ``top``) of the definition ``ref`` (written in ``holder``)
        reaches, copying it, and what it refers to, on first use; None when its file has
        problems (reported once)."""
        file, place = locate(ref, holder)
        key = (top, file, place)
        if key in self.names:
            return self.names[key]
        shared = self.load(file)
        if shared is None:
            return None
        try:
            target = resolve(shared.data, place)
        except (KeyError, IndexError, ValueError, TypeError):
            raise Refused(f"'{REF}' {ref[:80]} points at nothing in {file}") from None
        if not isinstance(target, (dict, bool)) or not place or place[0] != DEFS:
            raise Refused(
                f"'{REF}' {ref[:80]} points at something in {file} that is not a definition "
                f"(a schema under its '{DEFS}')"
            )
        defs = self.defs(top)
        name = self.names[key] = _fresh_name(defs, file, place)
        schema = copy.deepcopy(target)
        defs[name] = schema
        self.document.value_positions[(top, DEFS, name)] = self.document.value_at(origin)
        self.document.key_positions[(top, DEFS, name)] = self.document.value_at(origin)
        self.document.copied_from[(top, DEFS, name)] = (shared, place)
        self.localize(schema, top, file, shared, origin)
        return name

    def localize(
        self,
        schema: Any,
        top: str,
        file: PurePosixPath,
        shared: source.Document,
        origin: SchemaPath,
    ) -> None:
        """Point every reference in a copied definition at its copy in the contract."""
        stack = [schema]
        while stack:
            node = stack.pop()
            if isinstance(node, dict) and isinstance(node.get(REF), str):
                ref = node[REF]
                local = file.name + ref if ref.startswith("#") else ref
                name = self.copied(top, local, file, origin)
                if name is not None:
                    node[REF] = "#" + pointer((DEFS, name))
            stack.extend(sub for sub, _ in subschemas(node))

    def load(self, file: PurePosixPath) -> source.Document | None:
        """The shared file, loaded and checked once (None when it has problems, reported)."""
        if file in self.loaded:
            return self.loaded[file]
        shown = display_of(self.document.file, self.relative, file)
        raw = self.files.get(file.as_posix())
        document: source.Document | None = None
        if raw is None:
            self.problems.append(Problem(shown, 1, 1, "shared definitions file not read"))
        else:
            try:
                document = source.load(raw, shown)
                self.check_shared(document)
            except ContractError as error:
                self.problems.extend(error.problems)
                document = None
        self.loaded[file] = document
        return document

    def defs(self, top: str) -> dict[str, Any]:
        """The ``$defs`` of the contract's schema ``top``, made when it has none."""
        schema = resolve(self.document.data, (top,))
        defs = schema.setdefault(DEFS, {})
        if not isinstance(defs, dict):
            raise Refused(f"'{DEFS}' of '{top}' must be a mapping to hold shared definitions")
        return defs


def _fresh_name(taken: Mapping[str, Any], file: PurePosixPath, place: SchemaPath) -> str:
    """A readable $defs name for a copy (``money.amount``), none of those ``taken``."""
    parts = [*file.with_suffix("").parts[1:], *(str(p) for p in place if p != DEFS)]
    base = _NOT_IN_NAME.sub("_", ".".join(parts)) or "shared"
    name, count = base, 1
    while name in taken:
        count += 1
        name = f"{base}_{count}"
    return name
