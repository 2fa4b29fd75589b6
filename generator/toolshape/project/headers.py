"""What a generated file's header records, and how it is read back.

Every generated file begins with a header: the ``contract-sha256`` (``generator-sha256`` for
``_runtime.py``) that says what it was generated from (``digest``), and the ``output-sha256``
seal that shows a hand edit (``seal``, ``is_sealed_intact``). Just below the seal, the generated
tests record the contract's warnings and the tool's definition for each platform
(``record_warnings``, ``record_definitions``): output reused from disk loads no contract, so
``recorded_warnings`` and ``recorded_definitions`` read them back from there.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import itertools
import json
from pathlib import Path, PurePosixPath
from typing import Any

from .. import __version__
from ..codegen import model
from ..codegen.context import GenerationContext
from ..contract import shared
from ..contract.errors import Problem
from ..platforms import export
from . import cache

#: A contract that reaches no shared-definitions file.
_NO_FILES: shared.Files = {}


def digest(raw: bytes, context: GenerationContext, files: shared.Files = _NO_FILES) -> str:
    """What the header records: the contract's bytes and those of each shared-definitions file
    it reaches (``files``, by path), the generator (its version, the source of its modules that
    make output, and black's version), the context's templates and the command the header
    names. Output made from other inputs, by other generator code, or for another place, is
    never reused."""
    return _digest(raw + shared_part(files), context.template_fingerprint, context.command)


def shared_part(files: shared.Files) -> bytes:
    """The shared files' part of a contract's digest: each file's path and sha256 (nothing for a
    contract that reaches none, so its digest stays what it was before shared files existed)."""
    return b"".join(
        b"\0shared " + path.encode() + b"\0" + hashlib.sha256(files[path]).hexdigest().encode()
        for path in sorted(files)
    )


def _digest(raw: bytes, templates: str, command: str) -> str:
    generator = f"{__version__} {_generator_fingerprint()}"
    where = b"" if command == model.REGENERATE else b"\0" + command.encode()
    return hashlib.sha256(
        raw + b"\0toolshape " + generator.encode() + b"\0" + templates.encode() + where
    ).hexdigest()


@functools.cache
def _generator_fingerprint() -> str:
    """The sha256 of what shapes the output besides contract and templates: the source of
    project/'s planning, writing and checking and every toolshape module they import,
    directly or not (cli.py, review/ and the like stay out), and black's version. In a
    checkout the version stays the same while model.py changes: `check` must then call
    every output stale.

    Finding those modules parses each of them; the cache (cache.py) remembers the result
    under the digest of every source file of the package, so a run of the same generator
    reads the files but parses none."""
    from importlib.metadata import version

    package = Path(__file__).resolve().parent.parent
    black = f"black {version('black')}\0".encode()
    sources = _sources_digest(package, black)
    remembered = cache.recall_generator(sources)
    if remembered is not None:
        return remembered
    total = hashlib.sha256(black)
    for path in _output_modules(package):
        source = path.read_bytes().replace(b"\r\n", b"\n")  # the same on every checkout
        total.update(path.relative_to(package).as_posix().encode() + b"\0" + source + b"\0")
    cache.remember_generator(sources, total.hexdigest())
    return total.hexdigest()


def _sources_digest(package: Path, black: bytes) -> str:
    """The sha256 of black's version and every Python source file of the package (its path and
    bytes): whatever the fingerprint reads is among them, so the same digest means the same
    fingerprint."""
    total = hashlib.sha256(b"toolshape sources\0" + black)
    for path in sorted(package.rglob("*.py")):
        total.update(path.relative_to(package).as_posix().encode() + b"\0")
        total.update(hashlib.sha256(path.read_bytes()).digest())
    return total.hexdigest()


def _output_modules(package: Path) -> list[Path]:
    """project/'s planning, writing and checking modules and the package's modules they
    import, at any depth (read, not imported).

    Relative imports are followed into subpackages (``from .regex import x``,
    ``from ..witness import y``): a module is ``name.py`` or ``name/__init__.py``."""
    found: dict[PurePosixPath, Path] = {}
    todo = [
        PurePosixPath("project/planning"),
        PurePosixPath("project/writing"),
        PurePosixPath("project/checking"),
        PurePosixPath("__init__"),
    ]
    while todo:
        name = todo.pop()
        if name in found:
            continue
        path = _module_file(package, name)
        if path is None:
            raise RuntimeError(
                f"toolshape's own source is missing ({package / name}.py): it cannot tell its output apart"
            )
        found[name] = path
        here = name.parent if path.name != "__init__.py" else name
        for node in ast.walk(ast.parse(path.read_bytes())):
            if not isinstance(node, ast.ImportFrom) or node.level == 0:
                continue
            base = here
            for _ in range(node.level - 1):
                base = base.parent
            target = base.joinpath(*node.module.split(".")) if node.module else base
            if _module_file(package, target) is not None:
                todo.append(target)
            for alias in node.names:  # from . import x, or from .pkg import submodule
                if _module_file(package, target / alias.name) is not None:
                    todo.append(target / alias.name)
    return sorted(found.values())


def _module_file(package: Path, name: PurePosixPath) -> Path | None:
    for candidate in (
        package.joinpath(*name.parts).with_suffix(".py"),
        package.joinpath(*name.parts, "__init__.py"),
    ):
        if name.parts and candidate.is_file():
            return candidate
    return None


SEAL = "# output-sha256: (sealed after formatting)"


def seal(text: str) -> str:
    """Record in the header the hash of the file without that line: hand edits then show.
    A first line too wide for a user's linter is folded first (see :func:`_fold_first_line`)."""
    text = _fold_first_line(text)
    body = text.replace(SEAL + "\n", "", 1)
    return text.replace(SEAL, "# output-sha256: " + hashlib.sha256(body.encode()).hexdigest(), 1)


#: How the first line of every generated file begins.
GENERATED_BY = "# Generated by toolshape"
#: How the first line of a contract's module and tests names the contract, before its path
#: (``# Generated by toolshape 0.1.0 from contracts/x.yaml. Do not edit.``).
_FROM = " from "
#: How that line ends.
_DO_NOT_EDIT = ". Do not edit."


def _fold_first_line(text: str) -> str:
    """``text`` with a first line wider than :data:`RECORD_WIDTH` (a long contract path: a
    user's ruff reads the header too, E501) cut after its ``from``, the path running on below
    as a record does (``# | contracts/....yaml. Do not edit.``). Other text as it is."""
    first, _, rest = text.partition("\n")
    if len(first) <= RECORD_WIDTH or _FROM not in first or not first.endswith(_DO_NOT_EDIT):
        return text
    made, source = first.split(_FROM, 1)
    return f"{made}{_FROM.rstrip()}\n{_folded(CONTINUED + source)}{rest}"


def header_source(first_lines: list[str]) -> str | None:
    """The contract a generated file's first lines name (``contracts/x.yaml``), on one line or
    folded (:func:`_fold_first_line`); None when they name none."""
    if not first_lines or not first_lines[0].startswith(GENERATED_BY):
        return None
    first = first_lines[0]
    if first.endswith(_FROM.rstrip()):
        continued = itertools.takewhile(lambda line: line.startswith(CONTINUED), first_lines[1:])
        first += " " + "".join(line[len(CONTINUED) :] for line in continued)
    if _FROM not in first or not first.endswith(_DO_NOT_EDIT):
        return None
    return first.split(_FROM, 1)[1].removesuffix(_DO_NOT_EDIT)


def _head(data: bytes, count: int = 12) -> list[bytes]:
    """The first ``count`` lines (without splitting a 300 kB file into all of its lines)."""
    return data[:4096].splitlines(keepends=True)[:count]


def is_sealed_intact(text: str | bytes) -> bool:
    """Whether a generated file is exactly as toolshape wrote it."""
    data = text.encode() if isinstance(text, str) else text
    offset = 0
    for line in _head(data):
        if line.startswith(b"# output-sha256: "):
            recorded = line.rstrip(b"\n").removeprefix(b"# output-sha256: ")
            body = hashlib.sha256(memoryview(data)[:offset])  # the file without this line
            body.update(memoryview(data)[offset + len(line.rstrip(b"\n")) + 1 :])
            return body.hexdigest().encode() == recorded
        offset += len(line)
    return False


#: The header lines that record what a file was generated from: a contract module's
#: contract (and generator), or the shared runtime's generator alone.
_DIGEST_LINES = (b"# contract-sha256: ", b"# generator-sha256: ")


def header_digest(data: bytes) -> str | None:
    """The contract-sha256 (generator-sha256 for ``_runtime.py``) in a generated file's header (None: none)."""
    for line in _head(data):
        for prefix in _DIGEST_LINES:
            if line.startswith(prefix):
                return line.rstrip(b"\r\n").removeprefix(prefix).decode("ascii", "replace")
    return None


def generator_digest(context: GenerationContext) -> str:
    """What ``_runtime.py``'s header records: the generator and its templates, no contract (and
    no command: the runtime is the same wherever the output goes)."""
    return _digest(b"\0the shared runtime\0", context.template_fingerprint, model.REGENERATE)


def sealed_with_records(
    text: str,
    warnings: list[Problem],
    definitions: dict[str, dict[str, Any]],
    refusals: dict[str, list[Problem]],
) -> str:
    """The generated tests' ``text`` sealed, with its contract's warnings and its tool's
    definitions recorded below the seal line (what ``reuse`` reads back, without the contract)."""
    return seal(record_warnings(record_definitions(text, definitions, refusals), warnings))


#: How a warning is recorded in the generated tests' header: ``# warning: LINE:COL: "message"``
#: (the message JSON-escaped, ASCII only, so it stays one comment line whatever it holds).
WARNING_PREFIX = "# warning: "


def record_warnings(text: str, warnings: list[Problem]) -> str:
    """``text`` with one comment line per warning just below its seal line.

    Reused output (``reuse``) loads no contract, so the warnings its generation met are
    read back from here: `generate` twice prints the same warnings. The lines are
    sealed with the rest of the file (an edit to them shows as a hand edit). A file
    without a seal line is never reused, so it needs no record."""
    if not warnings or SEAL not in text:
        return text
    lines = "".join(
        _folded(f"{WARNING_PREFIX}{w.line}:{w.col}: {json.dumps(w.message, ensure_ascii=True)}")
        for w in sorted(warnings)
    )
    return text.replace(SEAL + "\n", SEAL + "\n" + lines, 1)


#: A record longer than :data:`RECORD_WIDTH` columns runs on over lines that begin with
#: this (a user's linter reads the header too: ruff's E501). Not a space after the ``#``:
#: no text of the contract can then begin a comment that a tool reads as its own (mypy's
#: type comments, ruff's and black's directives).
CONTINUED = "# | "
RECORD_WIDTH = 88


def _folded(record: str) -> str:
    """One record (ASCII) as comment lines of at most RECORD_WIDTH columns, each ending in a
    newline. No line ends in a space (black would strip it): a cut that would leave one
    moves before the spaces; a run of spaces as wide as a line is written ``\\u0020`` (past
    its head, a record's spaces are all inside JSON strings, where that reads as a space)."""
    lines = []
    head = ""
    while len(head) + len(record) > RECORD_WIDTH:
        cut = RECORD_WIDTH - len(head)
        while cut > 0 and record[cut - 1] == " ":
            cut -= 1
        if cut:
            line, taken = record[:cut], cut
        else:
            taken = (RECORD_WIDTH - len(head)) // len("\\u0020")
            line = "\\u0020" * taken
        lines.append(head + line)
        record, head = record[taken:], CONTINUED
    lines.append(head + record)
    return "".join(line + "\n" for line in lines)


def _records(data: bytes, kinds: tuple[str, ...] | None = None) -> list[str]:
    """The record lines just below the seal line of a generated file (``# warning: ...``,
    ``# definition ...``, ``# refused ...``), each with its continued lines joined to it, up to
    the first of a kind not in ``kinds`` (None: every kind). Read line by line from the seal line on: the file
    below the records (a module, thousands of lines of tests) is never split or decoded."""
    start = data.find(b"\n# output-sha256: ", 0, 4096)
    if start < 0:
        return []
    kinds = kinds or (WARNING_PREFIX, DEFINITION_PREFIX, REFUSED_PREFIX)
    records: list[str] = []
    at = data.find(b"\n", start + 1) + 1
    while at:
        end = data.find(b"\n", at)
        line = data[at : end if end >= 0 else len(data)].decode("ascii", "replace")
        if line.startswith(CONTINUED) and records:
            records[-1] += line.removeprefix(CONTINUED)
        elif line.startswith(kinds):
            records.append(line)
        else:
            break
        at = end + 1
    return records


def recorded_warnings(data: bytes, display: str) -> list[Problem]:
    """The warnings ``record_warnings`` wrote below the seal line of a generated file (for ``display``)."""
    found: list[Problem] = []
    for record in _records(data, (WARNING_PREFIX,)):  # they come first
        place, _, message = record.removeprefix(WARNING_PREFIX).partition(": ")
        row, _, col = place.partition(":")
        try:
            text = json.loads(message)
            found.append(
                Problem(
                    display,
                    int(row),
                    int(col),
                    text if isinstance(text, str) else str(text),
                    "warning",
                )
            )
        except ValueError:  # not a line this module wrote: the seal would not hold either
            break
    return found


#: How the tool's definition for each platform is recorded in the generated tests' header, below
#: the warnings: ``# definition PLATFORM: {...}`` (compact JSON, ASCII only, so one comment line)
#: and, for a platform that refuses the tool, ``# refused PLATFORM: LINE:COL: "message"`` (one
#: line per reason). Reused output loads no contract: the package's tool lists are made of these.
DEFINITION_PREFIX = "# definition "


REFUSED_PREFIX = "# refused "


def record_definitions(
    text: str, definitions: dict[str, dict[str, Any]], refusals: dict[str, list[Problem]]
) -> str:
    """``text`` with the lines that record ``definitions`` and ``refusals`` just below its seal
    line (sealed with the rest of the file); a file without a seal line is never reused."""
    if SEAL not in text:
        return text
    lines = []
    for platform in export.PLATFORMS:
        if platform in definitions:
            data = json.dumps(definitions[platform], ensure_ascii=True, separators=(",", ":"))
            lines.append(_folded(f"{DEFINITION_PREFIX}{platform}: {data}"))
        for problem in refusals.get(platform, ()):
            message = json.dumps(problem.message, ensure_ascii=True)
            place = f"{problem.line}:{problem.col}"
            lines.append(_folded(f"{REFUSED_PREFIX}{platform}: {place}: {message}"))
    return text.replace(SEAL + "\n", SEAL + "\n" + "".join(lines), 1)


def recorded_definitions(
    data: bytes, display: str
) -> tuple[dict[str, dict[str, Any]], dict[str, list[Problem]]] | None:
    """What ``record_definitions`` wrote below the seal line (and the warnings) of a generated
    file, for the contract ``display``; None unless every platform is recorded one way or the other."""
    definitions: dict[str, dict[str, Any]] = {}
    refusals: dict[str, list[Problem]] = {}
    if data.find(b"\n# output-sha256: ", 0, 4096) < 0:
        return None
    for line in _records(data):
        if line.startswith(WARNING_PREFIX):
            continue
        try:
            if line.startswith(DEFINITION_PREFIX):
                platform, _, text = line.removeprefix(DEFINITION_PREFIX).partition(": ")
                definition = json.loads(text)
                if not isinstance(definition, dict):
                    return None
                definitions[platform] = definition
            elif line.startswith(REFUSED_PREFIX):
                platform, _, rest = line.removeprefix(REFUSED_PREFIX).partition(": ")
                place, _, text = rest.partition(": ")
                row, _, col = place.partition(":")
                message = json.loads(text)
                refusals.setdefault(platform, []).append(
                    Problem(display, int(row), int(col), str(message))
                )
            else:
                break
        except ValueError:  # not a line toolshape wrote: the seal would not hold either
            return None
    if set(definitions) | set(refusals) != set(export.PLATFORMS):
        return None
    return definitions, refusals


def tool_name(module_text: str) -> str | None:
    """The string of the module's ``TOOL_NAME = "..."`` line, if it has one."""
    start = module_text.find("\nTOOL_NAME = ")
    if start < 0:
        return None
    line = module_text[start + 1 : module_text.find("\n", start + 1)]
    try:
        value = ast.literal_eval(line.removeprefix("TOOL_NAME = "))
    except (ValueError, SyntaxError):
        return None
    return value if isinstance(value, str) else None
