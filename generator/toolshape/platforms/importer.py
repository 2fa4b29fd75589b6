"""Existing tool definitions in, toolshape contracts out.

``import_file(path)`` reads a JSON (or YAML) file holding one of

* a bare JSON Schema of the arguments (draft-04/06/07, 2019-09 or 2020-12): one contract,
  named after its ``title`` (when that is a valid tool name) or the file name, described by
  its ``description``;
* an MCP ``tools/list`` result ``{tools: [{name, description, inputSchema}, ...]}``,
  or the JSON-RPC response that wraps it under ``result`` (a tool's ``title`` and
  ``annotations``, MCP's tool hints, become the contract's: ``_mcp_title_and_hints``; its
  ``outputSchema`` becomes the contract's ``output``, translated as ``inputSchema`` is, or
  left out with a warning at its place when it cannot be carried over: ``result_schema``);
* an OpenAI tool list ``[{type: function, function: {name, description, parameters}}]``
  (also ``{tools: [...]}``, and the Responses API's flat ``{type: function, name, ...}``);
* an Anthropic tool list ``[{name, description, input_schema}]`` (also ``{tools: [...]}``);
* Gemini FunctionDeclarations ``{name, description, parametersJsonSchema}``, or the
  legacy ``parameters`` (an OpenAPI subset, where type names may be upper case and
  ``nullable: true`` beside an ``enum`` adds null to the enum too, as Gemini reads them; a tool
  without parameters has none), alone, listed, or in a Tool's ``functionDeclarations``;

so every format ``toolshape schema --target X`` prints. A tool OpenAI strict mode exported
(``strict: true``) has every key required; the keys that also allow null, as strict mode writes
optional keys, are named in a warning saying how to make them optional again.

and returns one :class:`ImportedContract` per tool: the contract as YAML text, ready for
``toolshape generate`` (after review: the importer never invents ``examples``), and the
warnings worth a look. Older JSON Schema spellings are translated to 2020-12:
``definitions`` -> ``$defs`` (and every ``$ref`` to them), ``items: [...]`` ->
``prefixItems`` (with ``additionalItems`` -> ``items``), ``dependencies`` ->
``dependentRequired``/``dependentSchemas``, draft-04 boolean ``exclusiveMinimum``, a
draft-07 root ``$ref`` (zod-to-json-schema's ``{$ref: "#/definitions/x", definitions:
...}``) hoisted to the root; ``$schema`` and every ``$id``/``id`` are dropped after every
``$ref`` is resolved against its nearest base (ids, ``$anchor``, plain-name fragments) to a
``#/$defs/...`` pointer; ``$dynamicRef`` and ``$recursiveRef`` become plain ``$ref``
pointers, one per dynamic scope they are reached in (``families/references/dynamic.py``).
Each schema is read in its own draft (its ``$schema``, the caller's ``draft``, or a guess):
keywords beside ``$ref`` before 2019-09, and keywords a draft does not know, are dropped as
that draft ignores them. OpenAPI's ``nullable: true`` adds null to
``type``. Keywords with no effect that the contract checker refuses as typos are dropped with
a warning. ``ImportedContract.translations`` says what was translated. What cannot be
carried over is an error naming the tool and the JSON Pointer of the offending place in
the input file (:class:`ContractImportError`, every problem at once): remote ``$ref``,
keywords toolshape does not implement (``$vocabulary``, ...),
a root that is not an object schema, an invalid tool name, a missing description. Every
contract is verified before it is returned: its text is loaded back with
:func:`toolshape.contract.source.load` (which refuses YAML surprises) and checked with
:func:`toolshape.contract.checker.check`.

``write_imported(contracts, out_dir)`` writes the files, refusing to overwrite (unless
asked) or to write outside ``out_dir``.
"""

from __future__ import annotations

import bisect
import copy
import json
import keyword
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit

import yaml

from ..codegen.names import PACKAGE_NAMES
from ..contract import checker, source, tool_hints
from ..contract.checker import KEYWORD_KIND, SCHEMA_KEYWORDS, TOOL_NAME_RE
from ..contract.errors import ContractError
from ..families.annotations import importing as annotation_importing
from ..families.annotations.rules import DESCRIPTION, DIALECT_KEY, TITLE
from ..families.arrays import importing as array_importing
from ..families.combinators import importing as combinator_importing
from ..families.formats import importing as format_importing
from ..families.numbers import importing as number_importing
from ..families.objects import importing as object_importing
from ..families.objects.rules import PROPERTIES, REQUIRED
from ..families.references import dynamic, importing
from ..families.references import targets as reference_targets
from ..families.references.importing import (
    ANCHOR,
    DEFINITION_PLACES,
    DEFINITIONS,
    DYNAMIC_ANCHOR,
    DYNAMIC_REF,
    ID,
    LEGACY_ID,
    RECURSIVE_ANCHOR,
    RECURSIVE_REF,
)
from ..families.references.targets import DEFS, REF
from ..families.values import importing as value_importing
from ..families.values import rules as value_rules
from ..families.values.rules import TYPE
from ..schema import pointers, vocabulary
from ..schema.keywords import ONE_SCHEMA, SCHEMA_LISTS, SCHEMA_MAPS, subschemas
from ..schema.values import json_equal
from . import dialects, documents, remotes
from .translating import KeywordIn

SchemaPath = tuple[str, ...]

#: How many $refs the root's type is looked for through (a chain of aliases, never a cycle).
MAX_ROOT_REF_CHAIN = 32

#: Keywords of JSON Schema that toolshape cannot carry over: an error.
REFUSED_KEYWORDS = {
    k.name: f"toolshape does not implement '{k.name}'" + (f"; {k.instead}" if k.instead else "")
    for k in vocabulary.KEYWORDS
    if not k.implemented and k.asserts and not k.successor
}
#: Annotation keywords (no effect on validation in JSON Schema) toolshape has no place for:
#: dropped, with a warning ($schema is read first: it names the draft).
DROPPED_ANNOTATIONS = annotation_importing.DROPPED
#: Schema keys in the order contracts are written (the rest keep their order, then $defs).
KEY_ORDER = vocabulary.READING_ORDER
_LEGACY_DIALECTS = ("draft-03", "draft-04", "draft-06", "draft-07")
#: The keywords with no effect without the one they need (``then`` without ``if``), each
#: with that one: dropped with a warning, in the order of the walk over what they need.
_NEEDING = tuple(
    (k.name, k.needs)
    for k in sorted(
        (k for k in vocabulary.KEYWORDS if k.needs),
        key=lambda k: vocabulary.SUBSCHEMA_ORDER.index(k.needs),
    )
)
#: What a schema keeps beside a ``$ref`` before 2019-09 (the drafts ignore every other
#: keyword there): the annotations and the definitions.
_KEPT_BESIDE_LEGACY_REF = (
    REF,
    *vocabulary.annotation_names("meta-data", "comment"),
    *DEFINITION_PLACES,
)


#: How ``format`` may be read (``import --formats``).
FORMAT_READINGS = format_importing.FORMAT_READINGS


@dataclass(frozen=True)
class ImportOptions:
    """How the input's schemas are read, beyond their draft (``import``'s ``--formats`` and
    ``--remote``)."""

    #: One of :data:`FORMAT_READINGS`.
    formats: str = "assert"
    #: Where the schemas that remote ``$ref``s name are read from (never the network).
    remotes: tuple[remotes.RemoteFolder, ...] = ()

    def __post_init__(self) -> None:
        if self.formats not in FORMAT_READINGS:
            raise ValueError(
                f"unknown format reading {self.formats!r}: expected one of {', '.join(FORMAT_READINGS)}"
            )


#: toolshape's own reading: every format asserted.
DEFAULT_OPTIONS = ImportOptions()


@dataclass(frozen=True)
class ImportProblem:
    """One thing that cannot be carried over, located in the input file."""

    file: str
    tool: str | None
    pointer: str | None
    message: str
    #: Where ``pointer`` is in the input file's text (line, column), when the text is known.
    input_at: tuple[int, int] | None = None

    def __str__(self) -> str:
        where = f" tool '{self.tool}'" if self.tool else ""
        at = f" at {self.pointer or '/'}" if self.pointer is not None else ""
        if not where and not at:  # never "file.json:: error:"
            return f"{self.file}: error: {self.message}"
        return f"{self.file}:{where}{at}: error: {self.message}"


@dataclass
class ImportNotice:
    """A warning of ``import`` (not Python's ImportWarning): something it changed or left out
    that deserves a look, located in the input file
    (``pointer``; None: the file as a whole) or, for the contract check's own warnings, in the
    written contract (``contract_at``: its line and column)."""

    pointer: str | None
    message: str
    contract_at: tuple[int, int] | None = None
    #: Where ``pointer`` is in the input file's text (line, column), when the text is known.
    input_at: tuple[int, int] | None = None

    def __str__(self) -> str:
        return self.message if self.pointer is None else f"{self.pointer or '/'}: {self.message}"


class ContractImportError(Exception):
    """Raised with every problem found; nothing is imported when it is raised."""

    def __init__(self, problems: list[ImportProblem]) -> None:
        self.problems = problems
        super().__init__("\n".join(str(p) for p in problems))


class ImportWriteError(Exception):
    """``write_imported`` refused to write (existing files, or a path outside the folder); nothing was written."""


@dataclass
class ImportedContract:
    """One tool turned into a contract."""

    name: str
    #: Where the contract goes, relative to the contracts folder (e.g. "get_weather.yaml").
    relative_path: str
    #: The contract file's text, verified to load and check.
    yaml_text: str
    #: What the import changed or left out that deserves a look.
    warnings: list[ImportNotice] = field(default_factory=list)
    #: The input kind: "jsonschema", "mcp", "openai" or "anthropic".
    kind: str = "jsonschema"
    #: The contract as data: its name, description and parameters (and output, ...).
    data: dict[str, Any] = field(default_factory=dict)
    #: What was translated to 2020-12, one line per kind with the input's JSON Pointers.
    translations: list[str] = field(default_factory=list)


# -- reading ------------------------------------------------------------------------


def import_file(
    path: Path, draft: str | None = None, *, options: ImportOptions = DEFAULT_OPTIONS
) -> list[ImportedContract]:
    """One contract per tool found in the file at ``path``; raise ContractImportError.

    ``draft`` ("4", "6", "7", "2019-09", "2020-12") is how a schema without ``$schema`` is
    read; without it the draft is guessed from the spellings (and the guess is reported).
    ``options`` say how the rest is read (:class:`ImportOptions`)."""
    path = Path(path)
    label = path.name
    try:
        document = documents.read(path)
    except documents.DocumentError as error:
        where = f"{label}:{error.at[0]}:{error.at[1]}" if error.at else label
        raise ContractImportError([ImportProblem(where, None, None, error.message)]) from None
    place = _placer(document)
    try:
        imported = import_data(document.data, label, _stem(path.name), draft, options=options)
    except ContractImportError as error:
        located = [
            p if p.pointer is None else replace(p, input_at=place(p.pointer))
            for p in error.problems
        ]
        raise ContractImportError(located) from None
    for contract in imported:
        for warning in contract.warnings:
            if warning.pointer is not None:
                warning.input_at = place(warning.pointer)
    return imported


def import_data(
    data: Any,
    label: str,
    stem: str = "tool",
    draft: str | None = None,
    *,
    options: ImportOptions = DEFAULT_OPTIONS,
) -> list[ImportedContract]:
    """As :func:`import_file`, for already-decoded JSON data (``label`` names it in messages,
    ``stem`` is the fallback name of a bare schema without a usable title)."""
    if draft is not None and draft not in DRAFTS:
        raise ValueError(f"unknown draft {draft!r}: expected one of {', '.join(DRAFTS)}")
    deep = documents.too_deep(data)
    if deep is not None:
        raise ContractImportError([ImportProblem(label, None, deep, documents.TOO_DEEP)])
    importer = _Importer(label, stem, draft, options)
    contracts = importer.run(data)
    if importer.problems:
        raise ContractImportError(importer.problems)
    return contracts


def _mcp_title_and_hints(
    entry: dict[str, Any], pointer: str, warnings: list[ImportNotice]
) -> dict[str, Any]:
    """An MCP tool's ``title`` and ``annotations`` as contract keys: the four hints that are
    booleans, and the title (``annotations.title`` when the tool has no ``title`` of its own).
    Anything else there is left out with a warning; a null is what an SDK writes for "none"."""
    title = entry.get(TITLE)
    if title is not None and not _is_text(title):
        warnings.append(ImportNotice(f"{pointer}/{TITLE}", _LEFT_OUT.format(TITLE, _short(title))))
        title = None
    annotations = entry.get("annotations")
    if annotations is not None and not isinstance(annotations, dict):
        warnings.append(
            ImportNotice(
                f"{pointer}/annotations", _LEFT_OUT.format("annotations", _short(annotations))
            )
        )
        annotations = None
    hints: dict[str, bool] = {}
    for key, value in (annotations or {}).items():
        where = f"{pointer}/annotations/{pointers.escape(key)}"
        if key == TITLE and title is None and _is_text(value):
            title = value  # MCP shows annotations.title when the tool has no title
        elif key in tool_hints.HINTS and type(value) is bool:
            hints[key] = value
        elif value is not None and not (key == TITLE and value == title):
            warnings.append(ImportNotice(where, _LEFT_OUT.format(key, _short(value))))
    found: dict[str, Any] = {} if title is None else {TITLE: title}
    if hints:
        found["annotations"] = {h: hints[h] for h in tool_hints.HINTS if h in hints}
    return found


_LEFT_OUT = (
    "the MCP tool's {!r} ({}) is not carried over: a contract keeps a non-empty title and the "
    "hints readOnlyHint, destructiveHint, idempotentHint, openWorldHint as booleans"
)


#: The keywords a root may hold and still say nothing about the values it accepts.
_ANNOTATIONS = frozenset(vocabulary.annotation_names()) | {DEFS}


def _stand_in_description(name: str, entry: dict[str, Any]) -> str:
    """The description of a tool listed without one: its title (MCP's ``title``, or its
    ``annotations.title``) where it has a non-blank one, else a sentence naming it."""
    annotations = entry.get("annotations")
    titles = [entry.get(TITLE), annotations.get(TITLE) if isinstance(annotations, dict) else None]
    for title in titles:
        if isinstance(title, str) and title.strip():
            return title.strip()
    return f"The {name} tool."


def _is_text(value: Any) -> bool:
    """A title a contract can keep: text, not blank, no lone surrogate (not Unicode)."""
    return isinstance(value, str) and bool(value.strip()) and not _SURROGATE.search(value)


def _short(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)[:80]


def _stem(filename: str) -> str:
    """A file name without its extensions: "get_weather.schema.json" -> "get_weather"."""
    return filename.split(".", 1)[0]


@dataclass
class _Tool:
    """One tool found in the input, before translation."""

    kind: str  # "jsonschema", "mcp", "openai", "anthropic"
    name: Any
    description: Any
    schema: Any
    schema_pointer: str  # where the arguments schema is in the input
    tool_pointer: str  # where the tool entry is (its name and description)
    warnings: list[ImportNotice] = field(default_factory=list)
    #: An MCP tool's ``title`` and ``annotations``, as the contract keeps them (``_mcp_title_and_hints``).
    title_and_hints: dict[str, Any] = field(default_factory=dict)
    #: An MCP tool's ``outputSchema`` (None: it has none) and where it is in the input.
    output: Any = None
    output_pointer: str = ""


class _Importer:
    def __init__(self, label: str, stem: str, draft: str | None, options: ImportOptions) -> None:
        self.label = label
        self.stem = stem
        self.draft = draft
        self.options = options
        self.problems: list[ImportProblem] = []
        #: The remote documents read and translated for any schema of this import.
        self.remotes_read = _SharedRemotes()

    def error(self, tool: str | None, pointer: str | None, message: str) -> None:
        self.problems.append(ImportProblem(self.label, tool, pointer, message))

    def run(self, data: Any) -> list[ImportedContract]:
        tools = self.tools(data, "")
        contracts = [c for c in (self.contract(tool) for tool in tools) if c is not None]
        names: set[str] = set()
        for imported in contracts:
            if imported.name in names:
                self.error(imported.name, None, "two tools in the file have this name")
            names.add(imported.name)
        taken: set[str] = set()
        for imported in contracts:
            path = imported.relative_path
            base = path[: -len(".yaml")]
            n = 2
            while path.lower() in taken:
                path = f"{base}_{n}.yaml"
                n += 1
            if path != imported.relative_path:
                imported.warnings.append(
                    ImportNotice(
                        None,
                        f"written as {path}: {imported.relative_path} is taken by another tool of this file",
                    )
                )
                imported.relative_path = path
            taken.add(path.lower())
        return contracts

    # -- what the file holds ---------------------------------------------------------

    def tools(self, data: Any, pointer: str) -> list[_Tool]:
        """Every tool in ``data`` (found at ``pointer`` of the input)."""
        if isinstance(data, list):
            found: list[_Tool] = []
            for i, entry in enumerate(data):
                found.extend(self.tool(entry, f"{pointer}/{i}"))
            if not data:
                self.error(None, pointer, "the tool list is empty")
            return found
        if not isinstance(data, dict):
            self.error(
                None,
                pointer,
                "expected a JSON Schema, an MCP tools/list result, or an OpenAI, Anthropic or Gemini tool list",
            )
            return []
        if "jsonrpc" in data:
            if "error" in data:
                self.error(
                    None,
                    f"{pointer}/error",
                    f"the JSON-RPC response is an error: {json.dumps(data['error'])[:200]}",
                )
                return []
            if "result" not in data:
                self.error(None, pointer, "a JSON-RPC message without 'result'")
                return []
            return self.tools(data["result"], f"{pointer}/result")
        if isinstance(data.get("tools"), list) and not _looks_like_schema(data):
            found = self.tools(data["tools"], f"{pointer}/tools")
            if data.get("nextCursor"):
                for tool in found:
                    tool.warnings.append(
                        ImportNotice(
                            f"{pointer}/nextCursor",
                            "the tools/list result has a nextCursor: only this page of tools was imported",
                        )
                    )
            return found
        if any(k in data for k in _TOOL_KEYS) or (data.get(TYPE) == "function" and "name" in data):
            return self.tool(data, pointer)
        if _is_parameterless_declaration(data) or ("name" in data and "parameters" in data):
            return self.tool(data, pointer)  # a function declaration (OpenAI's or Gemini's)
        if _looks_like_schema(data):
            dropped = []
            if isinstance(data, dict) and DIALECT_KEY in data:
                dropped.append(
                    ImportNotice(
                        f"{pointer}/{DIALECT_KEY}",
                        f"'{DIALECT_KEY}' ({json.dumps(data[DIALECT_KEY])[:80]}) is dropped: "
                        "a contract's parameters are always JSON Schema 2020-12",
                    )
                )
            return [_Tool("jsonschema", None, None, data, pointer, pointer, dropped)]
        self.error(
            None,
            pointer,
            "expected a JSON Schema, an MCP tools/list result, or an OpenAI, Anthropic or Gemini tool list",
        )
        return []

    def tool(self, entry: Any, pointer: str) -> list[_Tool]:
        if not isinstance(entry, dict):
            self.error(None, pointer, "a tool entry must be an object")
            return []
        name = entry.get("name")
        shown = name if isinstance(name, str) else None
        warnings: list[ImportNotice] = []
        for key in _GEMINI_LISTS:
            if isinstance(entry.get(key), list) and "name" not in entry:
                # A Gemini Tool: {"functionDeclarations": [...]}, one tool per declaration.
                return self.tools(entry[key], f"{pointer}/{key}")
        for key in _GEMINI_SCHEMAS:
            if key in entry:
                return [self.entry("gemini", entry, pointer, key, warnings)]
        if entry.get(TYPE) == "function" and isinstance(entry.get("function"), dict):
            function = entry["function"]
            fn_pointer = f"{pointer}/function"
            return [self.entry("openai", function, fn_pointer, "parameters", warnings)]
        if "inputSchema" in entry:
            found = self.entry("mcp", entry, pointer, "inputSchema", warnings)
            found.title_and_hints = _mcp_title_and_hints(entry, pointer, warnings)
            # A null is what an SDK writes for "no outputSchema".
            found.output = entry.get("outputSchema")
            found.output_pointer = f"{pointer}/outputSchema"
            return [found]
        if "input_schema" in entry:
            return [self.entry("anthropic", entry, pointer, "input_schema", warnings)]
        if entry.get(TYPE) == "function":
            return [self.entry("openai", entry, pointer, "parameters", warnings)]
        if ("parameters" in entry and "name" in entry) or _is_parameterless_declaration(entry):
            # Gemini's legacy declaration (or OpenAI's older "functions"); a tool without
            # parameters has no 'parameters' field there.
            return [self.entry("declaration", entry, pointer, "parameters", warnings)]
        if TYPE in entry and isinstance(name, str):
            # A platform's built-in tool (Anthropic web_search_..., OpenAI file_search): no schema to import.
            self.error(
                shown,
                pointer,
                f"a built-in tool of type {entry[TYPE]!r} has no input schema to import; remove it from the list",
            )
            return []
        self.error(
            shown,
            pointer,
            "not a tool definition: expected inputSchema (MCP), input_schema (Anthropic), "
            "function/parameters (OpenAI) or parametersJsonSchema/parameters (Gemini)",
        )
        return []

    def entry(
        self,
        kind: str,
        entry: dict[str, Any],
        pointer: str,
        schema_key: str,
        warnings: list[ImportNotice],
    ) -> _Tool:
        name = entry.get("name")
        description = entry.get(DESCRIPTION)
        blank = isinstance(description, str) and not description.strip()
        if (description is None or blank) and isinstance(name, str):  # absent, null or blank
            # Every platform's description is optional, a contract's is not: say what is
            # known (the title, else the name) and ask for a better one. (A server that lists
            # one tool with "description": "" would otherwise stop the whole import.)
            description = _stand_in_description(name, entry)
            warnings.append(
                ImportNotice(
                    f"{pointer}/{DESCRIPTION}",
                    f"the tool has no description: the contract says {description!r} "
                    "(the model reads it to choose the tool: write a better one)",
                )
            )
        if schema_key not in entry:
            schema: Any = object_importing.empty_object()
            warnings.append(
                ImportNotice(
                    pointer, "the tool has no parameters: the contract accepts only an empty object"
                )
            )
        else:
            schema = entry[schema_key]
        if kind == "openai" and entry.get("strict") is True:
            warnings.extend(_strict_nullable_keys(schema, f"{pointer}/{schema_key}"))
        if kind == "openai" and "strict" in entry:
            warnings.append(
                ImportNotice(
                    f"{pointer}/strict",
                    f"OpenAI's 'strict: {json.dumps(entry['strict'])}' is dropped (a contract has no place for it): "
                    "`toolshape schema --target openai` turns strict mode on exactly when "
                    "`toolshape lint --target openai` finds nothing",
                )
            )
        if isinstance(schema, dict) and DIALECT_KEY in schema:
            warnings.append(
                ImportNotice(
                    f"{pointer}/{schema_key}/{DIALECT_KEY}",
                    f"'{DIALECT_KEY}' ({json.dumps(schema[DIALECT_KEY])[:80]}) is dropped: "
                    "a contract's parameters are always JSON Schema 2020-12",
                )
            )
        return _Tool(kind, name, description, schema, f"{pointer}/{schema_key}", pointer, warnings)

    # -- one tool ----------------------------------------------------------------------

    def contract(self, found: _Tool) -> ImportedContract | None:
        kind, name, description, schema, pointer = (
            found.kind,
            found.name,
            found.description,
            found.schema,
            found.schema_pointer,
        )
        before = len(self.problems)
        tool = name if isinstance(name, str) else None
        if not isinstance(schema, (dict, bool)):
            self.error(
                tool,
                pointer,
                "the arguments schema must be an object schema (a JSON object with type: object)"
                " or true/false",
            )
            return None
        warnings = list(found.warnings)
        if isinstance(schema, bool):
            # JSON Schema's true or false: every arguments object, or none.
            schema = _object_root(schema, pointer, warnings, "", "arguments")
        translator = _Translator(
            schema,
            self.draft,
            gemini=kind == "declaration",
            options=self.options,
            remotes_read=self.remotes_read,
        )
        parameters = translator.translate()
        warnings.extend(ImportNotice(_join(pointer, p), w) for p, w in translator.warnings)
        if kind == "jsonschema":
            name, description = self.bare_identity(
                parameters, schema, translator, pointer, warnings
            )
            tool = name
        for p, message in translator.errors:
            self.error(tool, _join(pointer, p), message)
        self.check_identity(kind, name, description, found.tool_pointer)
        for where, _ in _lone_surrogates(schema, ""):
            self.error(
                tool,
                _join(pointer, where),
                "a string here holds a lone surrogate (\\ud800-\\udfff), which is not Unicode text",
            )
        if isinstance(description, str) and _SURROGATE.search(description):
            self.error(
                tool, pointer, "the description holds a lone surrogate, which is not Unicode text"
            )
        if len(self.problems) > before:
            return None
        data = {
            "name": name,
            DESCRIPTION: description,
            **found.title_and_hints,
            "parameters": parameters,
        }
        sides = {"parameters": (pointer, translator)}
        result = self.result_schema(found, warnings)
        if result is not None:
            data["output"] = result[0]
            sides["output"] = (found.output_pointer, result[1])
        relative = _file_name(name)
        header = f"Imported by toolshape from {self.label} ({_KIND_NAMES[kind]}); review it and add examples."
        text = to_yaml(data, header=header)
        verified = self.verify(text, relative, data, tool, sides, warnings)
        if verified is None and "output" in data:  # the check refused the output: without it
            del data["output"], sides["output"]
            text = to_yaml(data, header=header)
            verified = self.verify(text, relative, data, tool, sides, warnings)
        if not verified:
            return None
        translations = [
            f"{kind_}: {', '.join(_join(where, p) or '/' for p in places)}"
            for where, side in sides.values()
            for kind_, places in side.notes.items()
        ]
        return ImportedContract(name, relative, text, warnings, kind, data, translations)

    def result_schema(
        self, found: _Tool, warnings: list[ImportNotice]
    ) -> tuple[dict[str, Any], _Translator] | None:
        """An MCP tool's ``outputSchema`` as the contract's ``output`` (translated as the
        arguments are), and its translator; None when the tool has none, or when it cannot
        be carried over: then each reason is a warning at its place, and the contract is
        written without ``output`` (its arguments are no less usable for that)."""
        schema, pointer = found.output, found.output_pointer
        if schema is None:
            return None
        if isinstance(schema, bool):
            # One rule with the arguments and with an annotations-only schema: a result (its
            # structuredContent) is one JSON object, so true is any object and false none.
            why = f" ({_RESULT_VALUES} one JSON object)"
            schema = _object_root(schema, pointer, warnings, why, "result")
        if not isinstance(schema, dict):
            warnings.append(ImportNotice(pointer, _OUTPUT_LEFT_OUT.format(_NOT_OBJECT)))
            return None
        translator = _Translator(
            schema,
            self.draft,
            values=_RESULT_VALUES,
            options=self.options,
            remotes_read=self.remotes_read,
        )
        output = translator.translate()
        if DIALECT_KEY in schema:
            warnings.append(
                ImportNotice(
                    f"{pointer}/{DIALECT_KEY}",
                    f"'{DIALECT_KEY}' ({json.dumps(schema[DIALECT_KEY])[:80]}) is dropped: "
                    "a contract's output is always JSON Schema 2020-12",
                )
            )
        warnings.extend(ImportNotice(_join(pointer, p), w) for p, w in translator.warnings)
        refused = [(_join(pointer, p), message) for p, message in translator.errors]
        refused += [
            (
                _join(pointer, where),
                "a string here holds a lone surrogate, which is not Unicode text",
            )
            for where, _ in _lone_surrogates(schema, "")
        ]
        warnings.extend(ImportNotice(at, _OUTPUT_LEFT_OUT.format(why)) for at, why in refused)
        return None if refused else (output, translator)

    def bare_identity(
        self,
        parameters: dict[str, Any],
        original: dict[str, Any],
        translator: _Translator,
        pointer: str,
        warnings: list[ImportNotice],
    ) -> tuple[Any, Any]:
        """A bare schema's tool name (title, hoisted definition name, file name) and description."""
        title = parameters.get(TITLE)
        if isinstance(title, str) and TOOL_NAME_RE.fullmatch(title):
            name: Any = parameters.pop(TITLE)
        elif translator.hoisted and TOOL_NAME_RE.fullmatch(translator.hoisted):
            name = translator.hoisted
        else:
            name = self.stem
            if isinstance(title, str):
                warnings.append(
                    ImportNotice(
                        f"{pointer}/{TITLE}",
                        f"the title {title!r} is not a tool name (1-64 of A-Z a-z 0-9 _ . -): named {name!r} after the file",
                    )
                )
        description = parameters.pop(DESCRIPTION, None)
        return name, description

    def check_identity(self, kind: str, name: Any, description: Any, pointer: str) -> None:
        tool = name if isinstance(name, str) else None
        if not isinstance(name, str) or not TOOL_NAME_RE.fullmatch(name):
            where = pointer if kind == "jsonschema" else f"{pointer}/name"
            self.error(
                tool,
                where,
                f"the tool name {json.dumps(name)} is not 1-64 characters of A-Z a-z 0-9 _ . -",
            )
        if not isinstance(description, str) or not description.strip():
            where = f"{pointer}/{DESCRIPTION}"
            what = (
                f"the schema has no '{DESCRIPTION}' at its root"
                if kind == "jsonschema"
                else "the tool has no description"
            )
            self.error(
                tool, where, f"{what}: a contract needs one (the model reads it to choose the tool)"
            )

    def verify(
        self,
        text: str,
        relative: str,
        data: dict[str, Any],
        tool: str | None,
        sides: dict[str, tuple[str, _Translator]],
        warnings: list[ImportNotice],
    ) -> bool | None:
        """Load the emitted text back and check it: it must be the intended contract, and pass.

        ``sides`` maps "parameters" (and "output") to where that schema is in the input and
        its translator. The check's warnings (a ``default: null`` on a key that refuses null)
        join the import's, at their place in the input file: the contract is written all the
        same. A check that fails only in ``output`` returns None, each problem a warning
        (the caller writes the contract without it); any other failure is an error (False)."""
        try:
            document = source.load(text.encode("utf-8"), relative)
        except (
            ContractError
        ) as error:  # the YAML writer made something source.load refuses: our bug
            raise AssertionError(
                f"toolshape bug: the imported contract for {tool} does not load back:\n{error}"
            ) from None
        if not _same(document.data, data):
            raise AssertionError(
                f"toolshape bug: the imported contract for {tool} loads back as different data"
            )
        try:
            checked = checker.check(document)
        except ContractError as error:
            found = [
                (problem, _path_at(document, problem.line, problem.col))
                for problem in error.problems
            ]
            if "output" in sides and all(where and where[0] == "output" for _, where in found):
                for problem, where in found:
                    at = self.input_pointer(where, sides)
                    why = f"{problem.message} (toolshape's contract check)"
                    warnings.append(ImportNotice(at, _OUTPUT_LEFT_OUT.format(why)))
                return None
            for problem, where in found:
                at = self.input_pointer(where, sides)
                self.error(tool, at, f"{problem.message} (toolshape's contract check)")
            return False
        for problem in checked.warnings:
            warnings.append(
                ImportNotice(
                    self.input_pointer(_path_at(document, problem.line, problem.col), sides),
                    problem.message,
                    contract_at=(problem.line, problem.col),
                )
            )
        return True

    @staticmethod
    def input_pointer(
        where: source.PathKey | None, sides: dict[str, tuple[str, _Translator]]
    ) -> str:
        """Where in the input file the contract check's finding at ``where`` (its path in the
        contract) is: in the schema it came from (the tool's arguments schema, at worst)."""
        pointer = sides["parameters"][0]
        if where and where[0] in sides:
            at, translator = sides[str(where[0])]
            return _join(at, translator.original_pointer(tuple(str(p) for p in where[1:])))
        if where and where[0] == "annotations":  # an MCP tool's hints, beside its inputSchema
            tool = pointer.rsplit("/", 1)[0]
            return tool + "".join(f"/{pointers.escape(str(p))}" for p in where)
        return pointer


#: How the root checks speak of a result, and the warning for an outputSchema left out.
_RESULT_VALUES = "an MCP tool's result (its structuredContent) is"
_NOT_OBJECT = f"the root must be an object schema: {_RESULT_VALUES} one JSON object"
_OUTPUT_LEFT_OUT = (
    "{}; the MCP tool's 'outputSchema' is not carried over: the contract is written without "
    "'output' (add one by hand to check the tool's results)"
)

_KIND_NAMES = {
    "jsonschema": "JSON Schema",
    "mcp": "MCP tools/list",
    "openai": "OpenAI tools",
    "anthropic": "Anthropic tools",
    "gemini": "Gemini function declarations",
    "declaration": "function declarations",
}
#: Where a Gemini FunctionDeclaration holds its JSON Schema (the API's JSON and the SDK's field).
_GEMINI_SCHEMAS = ("parametersJsonSchema", "parameters_json_schema")
#: Where a Gemini Tool lists its FunctionDeclarations (the API's JSON and the SDK's field).
_GEMINI_LISTS = ("functionDeclarations", "function_declarations")
#: The keys that make an object a tool entry (or a Gemini Tool) of some platform.
_TOOL_KEYS = ("inputSchema", "input_schema", "function", *_GEMINI_SCHEMAS, *_GEMINI_LISTS)


def _is_parameterless_declaration(entry: dict[str, Any]) -> bool:
    """A Gemini declaration of a tool without parameters: a name and a description, nothing else
    (its legacy export leaves ``parameters`` out rather than send an object without properties)."""
    return isinstance(entry.get("name"), str) and set(entry) == {"name", DESCRIPTION}


def _strict_nullable_keys(schema: Any, pointer: str) -> list[ImportNotice]:
    """The warning for the keys an OpenAI strict tool requires and lets be null.

    Strict mode makes every key required, so toolshape's export (and OpenAI's SDK) writes each
    optional key as required with null allowed: read back as written, such a key must be sent."""
    found = [
        f"{pointer}{pointers.pointer(path)}{object_importing.property_pointer(key)}"
        for node, path in _schema_nodes(schema, ())
        for key in object_importing.required_nullable(node, value_importing.says_null)
    ]
    if not found:
        return []
    message = (
        f"OpenAI strict mode: {', '.join(found)} {'is' if len(found) == 1 else 'are'} required "
        "and allow null, which is how a strict tool writes an optional key; for each one that was "
        f"optional, remove it from '{REQUIRED}' and the null from its schema in the contract (unless "
        "null is a value the tool takes): as imported, every call must send it"
    )
    return [ImportNotice(pointer, message)]


def _schema_nodes(
    schema: Any, path: pointers.SchemaPath
) -> Iterator[tuple[dict[str, Any], pointers.SchemaPath]]:
    """Every schema object under ``schema`` (itself included), with its path."""
    if isinstance(schema, dict):
        yield schema, path
        for sub, at in subschemas(schema, path):
            yield from _schema_nodes(sub, at)


#: The keys that say a file holds a bare JSON Schema (with ``type: object``).
_SCHEMA_SIGNS = (DIALECT_KEY, PROPERTIES, REF, *DEFINITION_PLACES, *object_importing.COMPOSITIONS)


def _looks_like_schema(data: dict[str, Any]) -> bool:
    return any(k in data for k in _SCHEMA_SIGNS) or data.get(TYPE) in ("object", ["object"])


def _join(base: str, pointer: str) -> str:
    return base + pointer


def _path_at(document: source.Document, line: int, col: int) -> source.PathKey | None:
    """The longest document path whose value (or key) starts at line:col."""
    best: source.PathKey | None = None
    for positions in (document.value_positions, document.key_positions):
        for path, position in positions.items():
            if position == (line, col) and (best is None or len(path) > len(best)):
                best = path
    return best


_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogates(value: Any, pointer: str) -> Iterator[tuple[str, str]]:
    """(pointer, text) of every string (key or value) under ``value`` holding a lone surrogate."""
    if isinstance(value, str):
        if _SURROGATE.search(value):
            yield pointer, value
    elif isinstance(value, dict):
        for key, item in value.items():
            where = f"{pointer}/{pointers.escape(key)}"
            if _SURROGATE.search(key):
                yield where, key
            yield from _lone_surrogates(item, where)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _lone_surrogates(item, f"{pointer}/{i}")


def _same(a: Any, b: Any) -> bool:
    return json_equal(a, b)


def _file_name(name: str) -> str:
    """A contract file name for a tool name: a Python module name toolshape accepts."""
    stem = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    stem = re.sub(r"[^a-z0-9_]", "_", stem).strip("_") or "tool"
    if stem[0].isdigit():
        stem = f"tool_{stem}"
    reserved = {"tests"} | {n.lower() for n in PACKAGE_NAMES}
    if keyword.iskeyword(stem) or keyword.issoftkeyword(stem) or stem in reserved:
        stem = f"{stem}_tool"
    return f"{stem}.yaml"


# -- translating a schema to toolshape's 2020-12 subset ----------------------------------


@dataclass(frozen=True)
class _Foreign:
    """A remote document of another draft, translated on its own in its draft."""

    #: Its translation: never grafted itself (a later step re-points and moves what is
    #: grafted), each place gets a copy.
    translated: Any
    #: (pointer in the document, message) of each warning of its translation.
    warnings: tuple[tuple[str, str], ...]
    #: Why it cannot be translated (said at each ``$ref`` to it); None: it was.
    error: str | None = None
    #: Where in ``translated`` each remote document of another draft it holds is, with its
    #: URL and draft: each once (:meth:`_Translator.share_grafts`), the outer first.
    grafts: tuple[tuple[SchemaPath, tuple[str, str]], ...] = ()


@dataclass
class _SharedRemotes:
    """What every translator of one import shares about remote documents (``--remote``), so
    that each is read once and translated once per draft it is read in, however many
    schemas (tools, results) and remote documents of other drafts refer to it. A translator
    of a document of another draft that started afresh read and translated a diamond of
    them (A refers to B and C, both refer to D, and so on, the drafts alternating) once per
    path through it: exponential in its depth."""

    #: Each remote document read, by the file it was read from; each translator reading it
    #: gets a copy of its own.
    documents: dict[Path, Any] = field(default_factory=dict)
    #: Why the document of a URL cannot be read, by its URL.
    unreadable: dict[str, str] = field(default_factory=dict)
    #: Each remote document of another draft, by its URL and the draft it is read in. What
    #: a translation makes depends on nothing else: the options are the import's, and a
    #: document is translated without the root checks (whatever the schema it serves).
    translations: dict[tuple[str, str], _Foreign] = field(default_factory=dict)
    #: The custom meta-schema read for each ``$schema`` URI, or why it cannot be used.
    meta_schemas: dict[str, dialects.Dialect | str | None] = field(default_factory=dict)


class _Translator:
    """One schema, translated to toolshape's 2020-12 dialect; paths are tuples of strings (list indexes too).

    Three passes: :meth:`index` walks the input as its draft reads it and records every
    resource (``$id``/``id``) and anchor with its base URI; :meth:`node` translates each
    keyword in place; :meth:`rewrite_refs` resolves every ``$ref`` against its base to the
    input place it means, then to a ``#/$defs/...`` pointer of the output, hoisting the
    target into the root's ``$defs`` when it lives elsewhere. :meth:`drop_no_effect` then
    removes what cannot affect validation and toolshape's checker refuses as a likely typo.
    """

    def __init__(
        self,
        schema: dict[str, Any],
        draft: str | None = None,
        *,
        gemini: bool = False,
        values: str = "tool arguments are",
        options: ImportOptions = DEFAULT_OPTIONS,
        remotes_read: _SharedRemotes | None = None,
    ) -> None:
        self.root = schema
        #: The remote documents read and translated in this import (shared with every
        #: translator of it).
        self.remotes_read = remotes_read if remotes_read is not None else _SharedRemotes()
        #: Every ``format`` asserted (else kept as the annotation ``x-format``).
        self.asserts_formats = options.formats == "assert"
        self.remote_folders = options.remotes
        #: (input path, value) of every ``$ref`` met by :meth:`index`.
        self.ref_sites: list[tuple[SchemaPath, str]] = []
        #: Why the remote document of a URL under a mapped folder could not be read.
        self.remote_errors: dict[str, str] = {}
        #: What the root schema describes, as the root checks say it ("tool arguments are",
        #: or, for an MCP outputSchema, the result's words).
        self.values = values
        #: Read as a Gemini declaration's ``parameters`` (an OpenAPI subset): type names may be
        #: upper case (its ``Type`` enum), and ``nullable: true`` beside an ``enum`` adds null
        #: to the enum too (its enums hold only strings: null can be said only with ``nullable``).
        self.gemini = gemini
        self.errors: list[tuple[str, str]] = []
        self.warnings: list[tuple[str, str]] = []
        #: kind of translation -> input pointers where it was made (reported on stderr).
        self.notes: dict[str, list[str]] = {}
        #: The custom meta-schema read for each ``$schema`` URI (once per import), and the path
        #: of each schema resource whose ``$schema`` names one (None: a standard draft's, in a
        #: nested resource).
        self.custom_dialects = self.remotes_read.meta_schemas
        self.dialect_at: dict[SchemaPath, dialects.Dialect | None] = {}
        #: Each remote document of another draft, translated on its own in its draft (a copy
        #: for this translator): by its URL, with the key of its translation in the import's
        #: ``remotes_read``; the URL by the input path of its placeholder in the definitions.
        self.foreign_by_uri: dict[str, Any] = {}
        self.foreign_key: dict[str, tuple[str, str]] = {}
        self.foreign: dict[SchemaPath, str] = {}
        #: Where in the output each remote document of another draft was grafted, with its
        #: translation's key (:meth:`share_grafts`).
        self.grafts: list[tuple[SchemaPath, tuple[str, str]]] = []
        #: The URLs of the remote documents of another draft whose translation this one is
        #: part of (outermost first): a chain of them that comes back is an error.
        self.within: tuple[str, ...] = ()
        self.draft, self.draft_reason = self.dialect(schema, draft)
        self.legacy = self.draft in ("4", "6", "7")
        self.draft4 = self.draft == "4"
        #: The keyword this draft names a schema resource with.
        self.id_key = LEGACY_ID if self.draft4 else ID
        self.ignored = _IGNORED_BY_DRAFT[self.draft]
        #: input path -> base URI of every schema node; resources and anchors by absolute URI.
        self.bases: dict[SchemaPath, str] = {}
        self.resources: dict[str, SchemaPath] = {}
        self.anchors: dict[tuple[str, str], SchemaPath] = {}
        #: (input path, name) of every dynamic anchor: 2020-12's ``$dynamicAnchor``, 2019-09's
        #: ``$recursiveAnchor: true`` on a resource's root (named ``dynamic.RECURSIVE``).
        self.dynamic_anchors: dict[SchemaPath, str] = {}
        #: old path -> new path of every schema node translated.
        self.moved: dict[SchemaPath, SchemaPath] = {}
        #: ``moved`` read backwards (output path -> input path), kept as it grows, so that a
        #: warning's input place costs a lookup per prefix, not a pass over every move.
        self.moved_back: dict[SchemaPath, SchemaPath] = {}
        #: (new node, old path, the kind of reference: ``$ref``, ``$dynamicRef``, ...) of every reference,
        #: rewritten at the end.
        self.refs: list[tuple[dict[str, Any], SchemaPath, str]] = []
        self.hoisted: str | None = None

    # -- which draft ----------------------------------------------------------------

    def dialect(self, schema: dict[str, Any], chosen: str | None) -> tuple[str, str]:
        """The draft the schema is written in: its $schema, else the caller's choice, else a guess."""
        declared = schema.get(DIALECT_KEY)
        if isinstance(declared, str):
            for marker, draft in _DIALECT_MARKERS:
                if marker in declared:
                    return draft, f"'{DIALECT_KEY}' says draft {draft}"
            custom = self.custom_dialect(declared, ())
            if isinstance(custom, dialects.Dialect):
                self.dialect_at[()] = custom
                return custom.draft, (
                    f"'{DIALECT_KEY}' names the meta-schema {custom.uri!r}, of draft {custom.draft}"
                )
            if "draft-03" in declared:
                self.error(
                    (DIALECT_KEY,),
                    "draft-03 schemas are not supported (toolshape imports drafts 4, 6, 7, 2019-09 and 2020-12)",
                )
            elif custom is None:
                self.warn(
                    (DIALECT_KEY,),
                    f"unknown '{DIALECT_KEY}' {declared[:80]!r}: read as draft {chosen or _guess_draft(schema)[0]}",
                )
        if chosen is not None:
            return chosen, f"chosen with --draft {chosen}"
        guess, why = _guess_draft(schema)
        return guess, f"no '{DIALECT_KEY}': read as draft {guess} ({why})"

    def custom_dialect(self, declared: str, path: SchemaPath) -> dialects.Dialect | str | None:
        """The custom meta-schema ``declared`` (a ``$schema`` at ``path``) names, read from
        its mapped folder once; None when no folder maps it; the error said at ``path``
        when it cannot be used."""
        if declared not in self.custom_dialects:
            read: dialects.Dialect | str | None
            try:
                read = dialects.read_dialect(declared, self.remote_folders, dict(_DIALECT_MARKERS))
            except (dialects.DialectError, remotes.RemoteError) as error:
                read = str(error)
            self.custom_dialects[declared] = read
        found = self.custom_dialects[declared]
        if isinstance(found, str):
            self.error(path + (DIALECT_KEY,), found)
        return found

    def index_dialect(self, node: dict[str, Any], path: SchemaPath) -> None:
        """Record the dialect a nested resource's ``$schema`` names: a custom meta-schema's,
        or None for a standard draft's or an unknown one no folder maps (a warning)."""
        declared = node.get(DIALECT_KEY)
        if not isinstance(declared, str) or not path:
            return
        if any(marker in declared for marker, _ in _DIALECT_MARKERS):
            self.dialect_at[path] = None
            return
        custom = self.custom_dialect(declared, path)
        if custom is None:
            # As at the root: an unknown $schema no folder maps is read as this draft.
            self.warn(
                path + (DIALECT_KEY,),
                f"unknown '{DIALECT_KEY}' {declared[:80]!r} (no --remote folder maps it): read "
                f"as draft {self.draft}",
            )
        elif isinstance(custom, dialects.Dialect) and custom.draft != self.draft:
            self.error(
                path + (DIALECT_KEY,),
                f"the meta-schema {custom.uri!r} is of draft {custom.draft}; this schema is read "
                f"as draft {self.draft}, and a resource inside it is read in its draft (a remote "
                "document of another draft is read in its own)",
            )
        self.dialect_at[path] = custom if isinstance(custom, dialects.Dialect) else None

    def dialect_of(self, path: SchemaPath) -> dialects.Dialect | None:
        """The custom dialect the schema at ``path`` is read in (None: its draft's own): that of
        the nearest enclosing resource whose ``$schema`` says one."""
        if not self.dialect_at:
            return None
        for end in range(len(path), -1, -1):
            if path[:end] in self.dialect_at:
                return self.dialect_at[path[:end]]
        return None

    def asserts_formats_at(self, path: SchemaPath) -> bool:
        """Whether ``format`` asserts in the schema at ``path``: where its dialect names the
        format-assertion vocabulary, else as the import reads formats (``--formats``)."""
        custom = self.dialect_of(path)
        return self.asserts_formats or (custom is not None and custom.asserts_formats)

    def error(self, path: SchemaPath, message: str) -> None:
        self.errors.append((pointers.pointer(path), message))

    def warn(self, path: SchemaPath, message: str) -> None:
        self.warnings.append((pointers.pointer(path), message))

    def note(self, kind: str, path: SchemaPath) -> None:
        """Record one translation (``kind`` says what became what) made at ``path`` of the input."""
        self.notes.setdefault(kind, []).append(pointers.pointer(path))

    def original_pointer(self, new_path: SchemaPath) -> str:
        """The input pointer of a node of the translated schema (its nearest translated ancestor)."""
        return pointers.pointer(self.input_path(new_path))

    # -- pass 1: resources, anchors and base URIs -----------------------------------------

    def index(self, node: Any, path: SchemaPath, base: str) -> None:
        """Record the base URI of ``node`` and of every schema below it, and the ids and anchors they declare."""
        if not isinstance(node, dict):
            self.bases[path] = base
            return
        identifier = node.get(self.id_key)
        # Before 2019-09 every keyword beside $ref is ignored: a sibling id changes nothing.
        if isinstance(identifier, str) and not (self.legacy and REF in node):
            absolute = _join_uri(base, identifier)
            resource, fragment = _split_fragment(absolute)
            if resource != _split_fragment(base)[0] or not identifier.startswith("#"):
                base = resource
                self.resources.setdefault(resource, path)
            if fragment and self.legacy and not fragment.startswith("/"):
                self.anchors.setdefault((resource, fragment), path)  # draft 4-7 plain-name fragment
        if isinstance(identifier, str) and DIALECT_KEY in node:
            self.index_dialect(node, path)
        if isinstance(node.get(REF), str):
            self.ref_sites.append((path, node[REF]))
        anchor = node.get(ANCHOR)
        if isinstance(anchor, str) and not self.legacy:
            self.anchors.setdefault((base, anchor), path)
        self.index_dynamic_anchor(node, path, base, isinstance(identifier, str) or not path)
        self.bases[path] = base
        for key, sub in _subschemas(node):
            self.index(sub, path + key, base)

    def index_dynamic_anchor(
        self, node: dict[str, Any], path: SchemaPath, base: str, resource_root: bool
    ) -> None:
        """Record a dynamic anchor: a ``$dynamicAnchor`` (2020-12, also a plain-name fragment
        a ``$ref`` may name) or a ``$recursiveAnchor: true`` on a resource's root (2019-09)."""
        name = node.get(DYNAMIC_ANCHOR)
        if isinstance(name, str) and self.draft == "2020-12":
            self.anchors.setdefault((base, name), path)
            self.dynamic_anchors[path] = name
        if node.get(RECURSIVE_ANCHOR) is True and self.draft == "2019-09" and resource_root:
            self.dynamic_anchors[path] = dynamic.RECURSIVE

    def bundle_remotes(self) -> dict[str, Any]:
        """The root with each remote document a ``$ref`` reaches under a mapped folder
        (``--remote``) grafted into its definitions, a resource of its own, and indexed there
        (its references reaching further documents too): JSON Schema's bundling. The retrieval
        URL names the document even when its ``$id`` says another."""
        defs_key = DEFINITIONS if self.legacy else DEFS
        defs = self.root.get(defs_key, {})
        if not self.remote_folders or not isinstance(defs, dict):
            return self.root
        grafted = dict(defs)
        seen = 0
        while seen < len(self.ref_sites):
            path, ref = self.ref_sites[seen]
            seen += 1
            uri = _split_fragment(_join_uri(self.bases.get(path, _DEFAULT_BASE), ref))[0]
            if uri in self.resources:
                continue
            try:
                document = self.remote_document(uri, len(grafted) - len(defs))
            except remotes.RemoteError as error:
                self.remote_errors[uri] = str(error)  # said at each $ref by target_of
                continue
            if document is None:
                continue  # no prefix covers it: target_of refuses it as remote
            name = _fresh_name(uri, grafted)
            grafted[name] = document
            if uri in self.foreign_by_uri:
                self.foreign[(defs_key, name)] = uri
            self.index(document, (defs_key, name), uri)
            self.resources.setdefault(uri, (defs_key, name))
        if len(grafted) > len(defs):
            self.root = {**self.root, defs_key: grafted}
        return self.root

    def remote_document(self, uri: str, count: int) -> Any:
        """The document of ``uri`` read from its mapped folder, its ``$schema`` (this draft's)
        dropped (None: no folder is mapped for it); RemoteError."""
        path = remotes.local_file(uri, self.remote_folders)
        if path is None:
            return None
        if count >= remotes.MAX_DOCUMENTS:
            raise remotes.RemoteError(
                f"more than {remotes.MAX_DOCUMENTS} remote schemas: {uri!r} is one too many"
            )
        document = self.read_remote(uri, path)
        if not isinstance(document, (dict, bool)):
            raise remotes.RemoteError(f"the remote schema {uri!r} ({path}) is not a schema")
        if isinstance(document, bool):
            return document
        declared = document.get(DIALECT_KEY)
        if isinstance(declared, str):
            draft = next((d for marker, d in _DIALECT_MARKERS if marker in declared), None)
            if draft is not None and draft != self.draft:
                return self.foreign_document(uri, document, draft)
            if draft is None:
                raise remotes.RemoteError(
                    f"the remote schema {uri!r} says '{DIALECT_KEY}' {declared[:80]!r}, which names "
                    "no draft toolshape reads (a remote schema's own metaschema is not read)"
                )
            document = {k: v for k, v in document.items() if k != DIALECT_KEY}
        return document if self.id_key in document else {self.id_key: uri, **document}

    def read_remote(self, uri: str, path: Path) -> Any:
        """The document of ``uri`` in the file at ``path``: read once per import, a copy of its
        own for this translator (its values reach the output as they are); RemoteError."""
        shared = self.remotes_read
        if uri in shared.unreadable:
            raise remotes.RemoteError(shared.unreadable[uri])
        if path not in shared.documents:
            try:
                shared.documents[path] = remotes.read_document(uri, path)
            except remotes.RemoteError as error:
                shared.unreadable[uri] = str(error)
                raise
        return copy.deepcopy(shared.documents[path])

    def foreign_document(self, uri: str, document: dict[str, Any], draft: str) -> dict[str, Any]:
        """A remote document of another draft: translated on its own, read as its draft reads
        it (a schema refers to it as a whole, and it keeps its own meaning), once per import,
        and a placeholder resource grafted in its place (:meth:`graft_foreign` puts a copy of
        the translation there); RemoteError saying what its translation refused."""
        found = self.remotes_read.translations.get((uri, draft))
        if found is None:
            found = self.translated_on_its_own(uri, document, draft)
            self.remotes_read.translations[(uri, draft)] = found
        if found.error is not None:
            raise remotes.RemoteError(found.error)
        for pointer, message in found.warnings:
            self.warn(
                (), f"in the remote schema {uri!r} (draft {draft}), at {pointer or '/'}: {message}"
            )
        self.note(f"the remote schema {uri!r} read as draft {draft}, its own", ())
        self.foreign_by_uri[uri] = copy.deepcopy(found.translated)
        self.foreign_key[uri] = (uri, draft)
        return {self.id_key: uri}

    def translated_on_its_own(self, uri: str, document: dict[str, Any], draft: str) -> _Foreign:
        """The translation of a remote document of another draft by a translator of its own
        (sharing this import's remote documents); RemoteError when the chain of translations
        in progress comes back to it or grows too long."""
        if uri in self.within or len(self.within) >= MAX_FOREIGN_CHAIN:
            chain = " -> ".join((*self.within, uri))
            raise remotes.RemoteError(
                f"remote schemas of different drafts refer to each other in a chain that comes "
                f"back or runs longer than {MAX_FOREIGN_CHAIN}: {chain[:400]}"
            )
        options = ImportOptions(
            formats="assert" if self.asserts_formats else "annotate", remotes=self.remote_folders
        )
        id_key = LEGACY_ID if draft == "4" else ID
        if id_key not in document:
            document = {id_key: uri, **document}  # its references resolve against its URL
        inner = _Translator(
            document, draft, values=self.values, options=options, remotes_read=self.remotes_read
        )
        inner.within = (*self.within, uri)
        translated = inner.translate_document()
        if inner.errors:
            said = "; ".join(f"{pointer or '/'}: {message}" for pointer, message in inner.errors)
            return _Foreign(None, (), f"the remote schema {uri!r} (draft {draft}): {said}")
        return _Foreign(translated, tuple(inner.warnings), grafts=tuple(inner.grafts))

    def graft_foreign(self, result: dict[str, Any]) -> None:
        """Put each remote document of another draft, translated, at its placeholder's place
        in the output, its references (``#``, ``#/$defs/...``: its own) re-pointed there; then
        keep one copy of each such document the output holds (:meth:`share_grafts`)."""
        for old, uri in self.foreign.items():
            new = self.moved.get(old)
            holder = _follow(result, new[:-1]) if new else None
            if new is None or not isinstance(holder, dict):
                continue  # no $ref reached it: nothing refers to it
            translated = self.foreign_by_uri[uri]
            prefix = "#" + pointers.pointer(new)
            for node, _ in _schema_nodes(translated, ()):
                ref = node.get(REF)
                if isinstance(ref, str) and ref.startswith("#"):
                    node[REF] = prefix + ref[1:]
            holder[new[-1]] = translated
            key = self.foreign_key[uri]
            inside = self.remotes_read.translations[key].grafts
            self.grafts += [(new, key), *((new + path, k) for path, k in inside)]
        self.share_grafts(result)

    def share_grafts(self, result: dict[str, Any]) -> None:
        """Keep the first copy of each remote document of another draft in the output (the
        outer first) and make each later one a ``$ref`` to it, so that the output grows with
        the documents, not with the paths to them: each translation grafted holds its own
        copy of the documents it refers to, and two documents referring to a third (a diamond
        of documents, repeated at every level) would double it at each level. A reference
        reaches such a document as a whole only, so one copy serves every place."""
        first: dict[tuple[str, str], SchemaPath] = {}
        replaced: set[SchemaPath] = set()
        kept: list[tuple[SchemaPath, tuple[str, str]]] = []
        for path, key in self.grafts:
            if any(path[:end] in replaced for end in range(len(path))):
                continue  # inside a copy already replaced
            holder = _follow(result, path[:-1])
            if key in first and isinstance(holder, dict):
                holder[path[-1]] = {REF: "#" + pointers.pointer(first[key])}
                replaced.add(path)
            else:
                first.setdefault(key, path)
                kept.append((path, key))
        self.grafts = kept

    def translate_document(self) -> Any:
        """The whole schema translated as a document another schema refers to (no root
        checks: it need not be an object schema)."""
        root = self.root
        root_id = root.get(self.id_key)
        base = _join_uri(_DEFAULT_BASE, root_id) if isinstance(root_id, str) else _DEFAULT_BASE
        self.resources[_split_fragment(base)[0]] = ()
        self.index(root, (), _split_fragment(base)[0])
        result = self.node(self.bundle_remotes(), (), ())
        if isinstance(result, dict):
            self.rewrite_refs(result)
        return result

    # -- pass 2: keyword by keyword --------------------------------------------------------

    def translate(self) -> dict[str, Any]:
        root = self.root
        root_id = root.get(self.id_key)
        base = _join_uri(_DEFAULT_BASE, root_id) if isinstance(root_id, str) else _DEFAULT_BASE
        self.resources[_split_fragment(base)[0]] = ()
        self.index(root, (), _split_fragment(base)[0])
        root = self.bundle_remotes()
        if DIALECT_KEY in root:
            self.note(f"{DIALECT_KEY} dropped ({self.draft_reason})", (DIALECT_KEY,))
        elif self.draft != "2020-12":
            self.note(self.draft_reason, ())
        ref = importing.hoisted_ref(root)
        if ref is not None:
            target = self.steps(ref)
            node = _follow(root, target)
            if isinstance(node, dict) and len(target) == 2 and target[0] in DEFINITION_PLACES:
                self.hoisted = target[1]
                self.note(f"root {REF} hoisted to the root", (REF,))
                result = self.node(node, target, ())
                self.moved[()] = ()
                self.moved_back[()] = ()
                for key in importing.HOISTED_ROOT_KEEPS:
                    if key in root and key not in result:
                        result[key] = root[key]
                defs = {}
                for place in DEFINITION_PLACES:
                    for name, sub in (root.get(place) or {}).items():
                        if (place, name) != target:
                            defs[name] = self.node(sub, (place, name), (DEFS, name))
                if defs:
                    result[DEFS] = {**result.get(DEFS, {}), **defs}
                self.rewrite_refs(result)
                return self.drop_no_effect(self.root_checks(result))
        result = self.node(root, (), ())
        if isinstance(result, dict):
            self.rewrite_refs(result)
        return self.drop_no_effect(self.root_checks(result))

    def root_checks(self, result: object) -> dict[str, Any]:
        if not isinstance(result, dict):
            self.error((), f"the root must be an object schema: {self.values} one JSON object")
            return {}
        kind = result.get(TYPE)
        if kind is None and self.refers_to_an_object(result):
            # The root's $ref (its siblings dropped, as drafts 4 to 7 ignore them) leads to
            # an object schema: saying so at the root changes nothing it accepts.
            self.warn(
                (),
                f"the root has no '{TYPE}' but its $ref leads to an object schema: added "
                f"'{TYPE}: object' ({self.values} always one JSON object)",
            )
            result = {TYPE: "object", **result}
        elif kind is None:
            if combinator_importing.no_object_passes(result):
                self.error(
                    (),
                    f"no object passes the root schema as written: {self.values} one JSON object",
                )
            # Among the values that can arrive (objects), type: object changes nothing.
            elif object_importing.about_objects(result):
                self.warn(
                    (),
                    f"the root has no '{TYPE}': added '{TYPE}: object' ({self.values} always one JSON object)",
                )
                kept = importing.untyped_root(result)
                if kept is not None:
                    self.note(
                        f"$ref '#' -> '#/$defs/{kept}' (the root as written, without the type added)",
                        (),
                    )
                result = {TYPE: "object", **result}
            elif all(k in _ANNOTATIONS for k in result):
                # An empty root ({}, or only annotations: what a broken zod-to-json-schema
                # emits) accepts every value, so every object: the values that can arrive.
                self.warn(
                    (),
                    f"the root schema is empty: added '{TYPE}: object' ({self.values} always "
                    "one JSON object, and any object passes)",
                )
                result = {TYPE: "object", **result}
            else:
                self.error(
                    (),
                    f"the root schema says nothing about objects: {self.values} one JSON object (type: object)",
                )
        elif kind == ["object"]:  # the same schema: a contract's root says type: object
            self.note('root type ["object"] -> "object"', (TYPE,))
            result = {**result, TYPE: "object"}
        elif kind != "object":
            self.error(
                (TYPE,),
                f'the root type is {json.dumps(kind)}, not "object": {self.values} one JSON object',
            )
        return result

    def refers_to_an_object(self, result: dict[str, Any]) -> bool:
        """Whether the root's ``$ref`` chain (within the imported schema) ends at an object
        schema: ``type: object``, or no type and keywords of objects (as the root itself)."""
        node: Any = result
        for _ in range(MAX_ROOT_REF_CHAIN):
            ref = node.get(REF) if isinstance(node, dict) else None
            if not isinstance(ref, str) or not ref.startswith("#"):
                break
            node = _follow(result, self.steps(ref))
        if node is result or not isinstance(node, dict):
            return False
        kind = node.get(TYPE)
        return kind == "object" or (
            kind is None and any(k in node for k in object_importing.ABOUT_OBJECTS)
        )

    def steps(self, ref: str) -> SchemaPath:
        pointer = ref[1:]
        if not pointer:
            return ()
        return tuple(pointers.unescape(unquote(p)) for p in pointer.split("/")[1:])

    def node(self, schema: Any, old: SchemaPath, new: SchemaPath) -> Any:
        """The translation of the schema at ``old`` (input path), placed at ``new``."""
        self.moved[old] = new
        self.moved_back[new] = old
        if isinstance(schema, bool):
            return schema
        if not isinstance(schema, dict):
            self.error(
                old, f"expected a schema (an object or true/false), found {json.dumps(schema)[:40]}"
            )
            return {}
        out: dict[str, Any] = {}
        for key, value in schema.items():
            self.keyword(KeywordIn(key, value, schema, old, new, out))
        value_importing.add_null(schema, out, self.gemini)
        return out

    def keyword(self, kw: KeywordIn) -> None:
        """Translate one keyword into ``kw.out``, or drop or refuse it, saying why.

        The tests run in order of precedence: a keyword the draft ignores is dropped before
        it is translated, and before 2019-09 everything beside a ``$ref`` but annotations and
        definitions is dropped (``$ref`` overrides its siblings there).
        """
        key = kw.key
        if key.startswith("x-"):
            kw.out[key] = kw.value  # toolshape's own extensions: kept as they are
        elif key == DIALECT_KEY:
            if kw.old and kw.old not in self.dialect_at:
                self.warn(kw.where, f"'{DIALECT_KEY}' inside a schema is dropped")
        elif self.names_resource(kw):
            self.resource_id(kw)
        elif self.turned_off(kw):
            custom = self.dialect_of(kw.old)
            assert custom is not None  # (turned_off says so)
            self.warn(kw.where, dialects.why_dropped(key, custom))
        elif key in self.ignored:
            self.warn(
                kw.where,
                f"'{key}' is not a keyword of draft {self.draft} (JSON Schema ignores it there): dropped",
            )
        elif key in REFUSED_KEYWORDS:
            self.error(kw.where, REFUSED_KEYWORDS[key])
        elif key in _REFERENCE_TRANSLATIONS:
            _REFERENCE_TRANSLATIONS[key](self, kw)
        elif kw.beside_ref and self.legacy and key not in _KEPT_BESIDE_LEGACY_REF:
            self.dropped_beside_ref(kw)
        else:
            _KEYWORD_TRANSLATIONS.get(key, _Translator.carried_over)(self, kw)

    # -- one method per keyword (dispatched by _REFERENCE_TRANSLATIONS and _KEYWORD_TRANSLATIONS)

    def turned_off(self, kw: KeywordIn) -> bool:
        """Whether ``kw`` belongs to a vocabulary the custom dialect of its schema leaves out."""
        custom = self.dialect_of(kw.old)
        return custom is not None and kw.key in custom.off

    def dropped_beside_ref(self, kw: KeywordIn) -> None:
        self.warn(
            kw.where,
            f"'{kw.key}' beside '{REF}' is dropped: before 2019-09 JSON Schema ignores keywords beside $ref",
        )

    def names_resource(self, kw: KeywordIn) -> bool:
        """Whether ``kw`` is an identifier of this draft (``$id``; draft 4 also ``id``) naming a URI."""
        is_id = kw.key == ID or (kw.key == LEGACY_ID and self.draft4)
        return is_id and isinstance(kw.value, str)

    def resource_id(self, kw: KeywordIn) -> None:
        """An ``$id`` is dropped: :meth:`rewrite_refs` resolves every $ref against it first."""
        if kw.beside_ref and self.legacy:
            self.dropped_beside_ref(kw)
        elif kw.old:
            self.note(
                f"nested '{kw.key}' resolved ($refs through it now point into #/$defs)", kw.where
            )
        else:
            self.note(f"root '{kw.key}' dropped: $refs against it now point into #/$defs", kw.where)

    def reference(self, out: dict[str, Any], old: SchemaPath, kind: str) -> None:
        self.refs.append((out, old, kind))

    def one_schema(self, kw: KeywordIn) -> None:
        kw.out[kw.key] = self.node(kw.value, kw.where, kw.new + (kw.key,))

    def schema_list(self, kw: KeywordIn) -> None:
        if not isinstance(kw.value, list):
            self.error(kw.where, f"'{kw.key}' must be a list of schemas")
            return
        kw.out[kw.key] = [
            self.node(sub, kw.where + (str(i),), kw.new + (kw.key, str(i)))
            for i, sub in enumerate(kw.value)
        ]

    def schema_map(self, kw: KeywordIn) -> None:
        if not isinstance(kw.value, dict):
            self.error(kw.where, f"'{kw.key}' must map names to schemas")
            return
        kw.out[kw.key] = {
            name: self.node(sub, kw.where + (name,), kw.new + (kw.key, name))
            for name, sub in kw.value.items()
        }

    def carried_over(self, kw: KeywordIn) -> None:
        """A keyword of 2020-12 spelled the same in every draft is kept; an unknown one dropped."""
        if kw.key in SCHEMA_KEYWORDS:
            kw.out[kw.key] = kw.value
        else:
            self.warn(
                kw.where, f"unknown keyword '{kw.key}' is dropped (JSON Schema ignores it too)"
            )

    # -- pass 3: references ------------------------------------------------------------------

    def target_of(self, ref: str, old: SchemaPath, kind: str) -> SchemaPath | str:
        """The input path ``ref`` (found at ``old``) points at, or the reason it cannot be resolved."""
        base = self.bases.get(old, _DEFAULT_BASE)
        if kind == RECURSIVE_REF:
            return self.resources.get(base, ())  # the initial target: its resource's root
        absolute = _join_uri(base, ref)
        resource_uri, fragment = _split_fragment(absolute)
        if resource_uri in self.remote_errors:
            return self.remote_errors[resource_uri]
        if resource_uri not in self.resources:
            return (
                f"remote {kind} {ref[:80]!r}: toolshape never fetches schemas; copy it under $defs "
                "and refer to it as #/$defs/..., or name a local folder for its URL with --remote PREFIX=FOLDER"
            )
        resource = self.resources[resource_uri]
        if fragment == "":
            return resource
        if resource_uri in self.foreign_by_uri:
            return (
                f"{kind} {ref[:80]!r} points inside a remote schema of another draft: a schema may "
                "refer to one of another draft as a whole only (each is read in its own draft)"
            )
        if fragment.startswith("/"):
            return resource + self.steps("#" + fragment)
        anchored = self.anchors.get((resource_uri, unquote(fragment)))
        if anchored is None:
            return (
                f"{kind} {ref!r} names an anchor that no '{ANCHOR}' (nor '{DYNAMIC_ANCHOR}'; "
                f"'{ID}'/'{LEGACY_ID}' "
                "'#name' before 2019-09) declares: it points at nothing"
            )
        return anchored

    def rewrite_refs(self, result: dict[str, Any]) -> None:
        """Point every $ref at its target's place in the output, under the root's $defs."""
        targets: list[tuple[dict[str, Any], SchemaPath]] = []
        anchors: list[tuple[dict[str, Any], SchemaPath, str]] = []
        done = 0
        while True:
            # Adopting a target adds the references (and dynamic anchors) inside it.
            while done < len(self.refs):
                node, old, kind = self.refs[done]
                done += 1
                target = self.resolved(node[REF], old, kind, result)
                if target is not None:
                    targets.append((node, target))
            more = self.anchor_refs(anchors)
            if not more:
                break
            anchors += more
            self.refs += more
        # Each hoist moves a subtree; the paths under it (later targets, and where each input
        # node went) follow it. They are rebased once each, when read (_relocated), not every
        # time a subtree moves: that was quadratic in the number of hoisted targets.
        # Messages name the input place of a target: the input path translated to where the
        # target was before any move (moves keep distinct paths distinct).
        relocations: dict[SchemaPath, SchemaPath] = {}
        back = {v: k for k, v in self.moved.items()}
        for node, recorded in targets:
            target = importing.relocated(recorded, relocations)
            if target and not reference_targets.is_defs_entry(target):
                hoisted = self.hoist(result, target, back.get(recorded, target))
                if hoisted is None:
                    self.error(
                        back.get(recorded, target),
                        "a $ref points here, and it cannot be moved under $defs",
                    )
                    continue
                relocations[target] = hoisted
                target = hoisted
            node[REF] = importing.ref_to(target)
        if relocations:
            self.moved = {k: importing.relocated(v, relocations) for k, v in self.moved.items()}
            self.moved_back = {v: k for k, v in self.moved.items()}
        self.graft_foreign(result)
        if anchors and not self.errors:
            self.specialise(result, anchors)

    def resolved(
        self, ref: str, old: SchemaPath, kind: str, result: dict[str, Any]
    ) -> SchemaPath | None:
        """The output place of the target of ``ref`` (found at ``old``), adopted into $defs
        when the walk did not reach it; None after an error saying why there is none."""
        where = old + (kind,)
        target = self.target_of(ref, old, kind)
        if isinstance(target, str):
            self.error(where, target)
            return None
        if target not in self.moved:
            refused = self.adopt(target, result)
            if refused is not None:
                self.error(where, f"$ref {ref!r} {refused}")
                return None
        return self.moved[target]

    # -- pass 3b: dynamic references ------------------------------------------------------

    def anchor_refs(
        self, made: list[tuple[dict[str, Any], SchemaPath, str]]
    ) -> list[tuple[dict[str, Any], SchemaPath, str]]:
        """A stand-in ``$ref`` to each dynamic anchor's schema that has none among ``made``
        yet (when the schema has dynamic references), resolved with the others: so each
        declaration is moved under $defs, where a reference can name it, and its new place is
        read from the stand-in."""
        if not any(kind != REF for _, _, kind in self.refs):
            return []
        covered = {path for _, path, _ in made}
        more = []
        for path in self.dynamic_anchors:
            if path not in covered:
                resource = self.resource_of(path)
                more.append(({REF: importing.ref_to(path[len(resource) :])}, path, REF))
        return more

    def resource_of(self, path: SchemaPath) -> SchemaPath:
        """The input path of the root of the resource ``path`` lies in."""
        return self.resources.get(self.bases.get(path, _DEFAULT_BASE), ())

    def specialise(
        self, result: dict[str, Any], anchors: list[tuple[dict[str, Any], SchemaPath, str]]
    ) -> None:
        """Bind every dynamic reference to its target in each dynamic scope it is reached in
        (:mod:`..families.references.dynamic`)."""
        scope = dynamic.Scope()
        for resource in self.resources.values():
            if resource in self.moved:
                scope.resources.setdefault(self.moved[resource], {})
        for stand_in, path, _ in anchors:
            resource = self.resource_of(path)
            if resource in self.moved and stand_in[REF].startswith("#"):
                declared = scope.resources[self.moved[resource]]
                unit = tuple(str(step) for step in pointers.ref_path(stand_in[REF]))
                declared.setdefault(self.dynamic_anchors[path], unit)
        for old, new in self.moved.items():
            resource = self.moved.get(self.resource_of(old), ())
            if reference_targets.is_defs_entry(new) and new != resource:
                scope.within[new] = resource
        kinds: dict[SchemaPath, str] = {}
        for _, old, kind in self.refs:
            looked_up = self.dynamic_name(old, kind)
            if looked_up is None:
                if kind != REF:
                    self.note(f"{kind} -> $ref (it reduces to a plain reference)", old + (kind,))
                continue
            scope.dynamic[self.moved[old]] = looked_up
            kinds[self.moved[old]] = kind
            self.note(
                f"{kind} -> $ref (one for each dynamic scope it is reached in)", old + (kind,)
            )
        for where, copy_asked in dynamic.specialise(result, scope):
            kind = kinds.get(where, REF)
            self.error(
                self.input_path(where) + (kind,),
                f"'{kind}' here reaches {copy_asked}: one copy more than the "
                f"{dynamic.MAX_VARIANTS} a schema may need to bind its dynamic references "
                "(one per binding of the dynamic anchors in scope); refused",
            )

    def dynamic_name(self, old: SchemaPath, kind: str) -> str | None:
        """The anchor name the reference at ``old`` looks up in the dynamic scope; None when it
        reduces to a plain reference (its initial target does not declare that anchor)."""
        if kind == RECURSIVE_REF:
            root = _follow(self.root, self.resource_of(old))
            recursive = isinstance(root, dict) and root.get(RECURSIVE_ANCHOR) is True
            return dynamic.RECURSIVE if recursive else None
        if kind != DYNAMIC_REF:
            return None
        ref = _follow(self.root, old).get(kind)
        fragment = _split_fragment(_join_uri(self.bases.get(old, _DEFAULT_BASE), ref))[1]
        if not fragment or fragment.startswith("/"):
            return None  # a JSON Pointer: no anchor to look up
        target = self.target_of(ref, old, kind)
        node = _follow(self.root, target) if not isinstance(target, str) else None
        declared = isinstance(node, dict) and node.get(DYNAMIC_ANCHOR) == unquote(fragment)
        return unquote(fragment) if declared else None

    def adopt(self, target: SchemaPath, result: dict[str, Any]) -> str | None:
        """Translate a $ref target the schema walk did not reach into the root's $defs; or say why not.

        JSON Schema 2020-12 (core 9.4.2) leaves a $ref to a place that is not known to hold a
        schema undefined; the implementations these schemas were written for resolve any JSON
        Pointer and read an object (or boolean) there as a schema. So that is what import does,
        with a note, for a target under a keyword JSON Schema does not know (draft-04 schemas
        keep definitions in ``#/constraints/...`` or at the root: ``#/List``) or under one whose
        value is data (an ``enum`` member, an ``examples`` entry: copied, the data stays); a
        target the walk skipped on purpose (a keyword this draft ignores, one beside a $ref
        before 2019-09) or that is not an object or boolean is refused."""
        reason = "points at nothing (or at no schema, or at one this draft ignores) in this schema"
        depth = max(n for n in range(len(target)) if target[:n] in self.moved)
        keyword = target[depth]
        if keyword in _SCHEMA_HOLDERS or keyword in self.ignored:
            return reason
        node = _follow(self.root, target)
        if node is None:
            return reason
        if not isinstance(node, (dict, bool)):
            kind = "a list" if isinstance(node, list) else f"{json.dumps(node)[:40]}"
            return f"points at {kind} under '{keyword}', not at a schema"
        defs = result.setdefault(DEFS, {})
        name = importing.definition_name(target, defs)
        defs[name] = {}  # (taken: a $ref inside it to another such place gets another name)
        base = self.bases.get(target[:depth], _DEFAULT_BASE)
        self.index(node, target, base)
        if keyword in SCHEMA_KEYWORDS:  # an enum member, an examples entry: data that a $ref reads
            self.warn(
                target,
                f"a $ref reads this '{keyword}' entry as a schema (JSON Schema leaves that undefined): "
                f"copied to #/$defs/{name}",
            )
        else:
            self.note(
                "$ref target outside the schema's subschemas read as a schema, moved under $defs",
                target,
            )
        defs[name] = self.node(node, target, (DEFS, name))
        return None

    def hoist(
        self, result: dict[str, Any], target: SchemaPath, where: SchemaPath
    ) -> SchemaPath | None:
        """Move the schema at ``target`` to the root's $defs, leaving a $ref in its place; its new
        path. ``where`` is its place in the input, for the note."""
        hoisted = importing.hoist(result, target)
        if hoisted is None:
            return None
        self.note(
            "$ref target moved under $defs (every $ref is a #/$defs pointer)",
            where,
        )
        return hoisted

    # -- pass 4: keywords with no effect -------------------------------------------------------

    def drop_no_effect(self, result: dict[str, Any]) -> dict[str, Any]:
        """Drop what cannot affect validation but toolshape's checker refuses as a typo in a hand-written contract."""
        self.no_effect(result, ())
        return result

    def no_effect(self, schema: Any, path: SchemaPath) -> None:
        if not isinstance(schema, dict):
            return
        types = schema.get(TYPE)
        kinds = None
        if isinstance(types, str):
            kinds = {types}
        elif isinstance(types, list) and all(isinstance(t, str) for t in types):
            kinds = set(types)
        if kinds is not None and path:
            kinds = {"number" if t == "integer" else t for t in kinds}
            for key in [k for k in schema if k in KEYWORD_KIND and KEYWORD_KIND[k] not in kinds]:
                del schema[key]
                self.warn(
                    self.input_path(path + (key,)),
                    f"'{key}' has no effect beside 'type: {json.dumps(types)}' (it applies to {KEYWORD_KIND[key]}s): dropped",
                )
        for key, needs in _NEEDING:
            if key in schema and needs not in schema:
                del schema[key]
                self.warn(
                    self.input_path(path + (key,)),
                    f"'{key}' has no effect without '{needs}': dropped",
                )
        value_importing.dead_members(schema, path, self.warn_at_output)
        object_importing.checked_twice(schema, path, self.note_at_output)
        for key, sub in _subschemas(schema):
            self.no_effect(sub, path + key)

    def note_at_output(self, kind: str, new_path: SchemaPath) -> None:
        """Note a translation made at the input place of ``new_path``, a place in the output."""
        self.note(kind, self.input_path(new_path))

    def warn_at_output(self, new_path: SchemaPath, message: str) -> None:
        """Warn at the input place of ``new_path``, a place in the output."""
        self.warn(self.input_path(new_path), message)  # (a walk of every move made)

    def input_path(self, new_path: SchemaPath) -> SchemaPath:
        """The input path of a place in the output (for warnings)."""
        back = self.moved_back
        for length in range(len(new_path), -1, -1):
            if new_path[:length] in back:
                return back[new_path[:length]] + new_path[length:]
        return new_path


_Translation = Callable[[_Translator, KeywordIn], None]

#: The maps of schemas that apply somewhere (not definitions, which $defs gathers).
_APPLIED_MAPS = (*vocabulary.holders("map", "children"), *vocabulary.holders("map", "same value"))

#: Keywords about references and vocabularies: translated (or dropped, saying why) even beside
#: a ``$ref`` before 2019-09, where every other keyword there is dropped.
_REFERENCE_TRANSLATIONS: dict[str, _Translation] = {
    **dict.fromkeys(DROPPED_ANNOTATIONS, annotation_importing.dropped),
    **importing.REFERENCE_TRANSLATIONS,
}
#: The keywords translated by more than copying them; the rest are carried over as they are
#: (:meth:`_Translator.carried_over`). Later entries win: a keyword's own translation
#: (``items``) replaces its group's (one subschema).
_KEYWORD_TRANSLATIONS: dict[str, _Translation] = {
    **dict.fromkeys(_APPLIED_MAPS, _Translator.schema_map),
    **dict.fromkeys(SCHEMA_LISTS, _Translator.schema_list),
    **dict.fromkeys(
        vocabulary.names(lambda k: k.implemented and k.shape == "one"), _Translator.one_schema
    ),
    **importing.TRANSLATIONS,
    **array_importing.TRANSLATIONS,
    **object_importing.TRANSLATIONS,
    **number_importing.TRANSLATIONS,
    **format_importing.TRANSLATIONS,
    **annotation_importing.TRANSLATIONS,
    **value_importing.TRANSLATIONS,
}

_DEFAULT_BASE = "https://toolshape.invalid/arguments.json"
"""The base URI of a schema without a root id: $refs relative to it stay inside the document."""

#: At most this many remote documents of another draft, each referring to the next, are
#: translated one inside the other (each on its own, inside the translation of the one before
#: it; one already translated in the import is not translated again).
MAX_FOREIGN_CHAIN = 16
#: Substrings of $schema URIs and the draft each names.
_DIALECT_MARKERS = (
    ("draft-04", "4"),
    ("draft-06", "6"),
    ("draft-07", "7"),
    ("draft/2019-09", "2019-09"),
    ("draft/2020-12", "2020-12"),
)
DRAFTS = vocabulary.DRAFTS
"""The drafts ``import --draft`` accepts."""

#: The validation keywords each draft added.
_SINCE = {draft: vocabulary.introduced_in(draft) for draft in DRAFTS[1:]}
#: Validation keywords a draft does not know (it ignores them): dropped with a warning.
_IGNORED_BY_DRAFT: dict[str, frozenset[str]] = {
    draft: frozenset(k for later in DRAFTS[i + 1 :] for k in _SINCE.get(later, ()))
    for i, draft in enumerate(DRAFTS)
}


def _older_spelling(node: dict[str, Any]) -> bool:
    """Whether ``node`` spells something as only drafts before 2019-09 do."""
    return (
        array_importing.listed_items(node)
        or object_importing.has_dependencies(node)
        or importing.keeps_definitions(node)
    )


#: What says a schema is written in an older draft when it does not say which: (draft, why,
#: whether a node shows it, given the node and whether it is the root), looked for in this
#: order in each node; each test is the family's that knows the spelling.
_DRAFT_SIGNS: tuple[tuple[str, str, Callable[[dict[str, Any], bool], bool]], ...] = (
    ("4", f"it has '{LEGACY_ID}'", lambda node, root: root and importing.legacy_id(node)),
    (
        "4",
        "boolean exclusiveMinimum/exclusiveMaximum",
        lambda node, root: number_importing.boolean_exclusive(node),
    ),
    (
        "7",
        "it has definitions, dependencies or a list of items",
        lambda node, root: _older_spelling(node),
    ),
    ("2019-09", "it has $recursiveRef", lambda node, root: importing.recursive(node)),
)


def _guess_draft(schema: Any) -> tuple[str, str]:
    """The draft a schema without $schema is most likely written in, and why."""
    found: dict[str, str] = {}

    def visit(node: Any, at_root: bool) -> None:
        if not isinstance(node, dict):
            return
        for draft, why, shows in _DRAFT_SIGNS:
            if shows(node, at_root):
                found.setdefault(draft, why)
        for _, sub in _subschemas(node):
            visit(sub, False)

    visit(schema, True)
    for draft in ("4", "2019-09", "7"):
        if draft in found:
            return draft, found[draft]
    return "2020-12", "no older spelling found"


#: Keywords whose value is one schema, in any draft's spelling (and ``items``, a list before
#: 2020-12).
_ONE_SCHEMA_ANY_DRAFT = vocabulary.names(lambda k: k.shape == "one")
#: Keywords whose value maps names to schemas, in any draft's spelling.
_SCHEMA_MAPS = vocabulary.names(lambda k: k.shape == "map")
#: Keywords whose value holds schemas, in any draft's spelling (not those refused).
_SCHEMA_HOLDERS = vocabulary.names(lambda k: k.shape is not None and k.name not in REFUSED_KEYWORDS)


def _subschemas(node: dict[str, Any]) -> list[tuple[SchemaPath, Any]]:
    """(relative path, schema) of every subschema of ``node`` in any draft's spelling."""
    found: list[tuple[SchemaPath, Any]] = []
    for key, value in node.items():
        if key in _ONE_SCHEMA_ANY_DRAFT:
            if isinstance(value, list) and key == array_importing.ITEMS:
                found.extend(((key, str(i)), sub) for i, sub in enumerate(value))
            elif isinstance(value, (dict, bool)):
                found.append(((key,), value))
        elif key in SCHEMA_LISTS and isinstance(value, list):
            found.extend(((key, str(i)), sub) for i, sub in enumerate(value))
        elif key in _SCHEMA_MAPS and isinstance(value, dict):
            found.extend(
                ((key, name), sub) for name, sub in value.items() if isinstance(sub, (dict, bool))
            )
    return found


def _fresh_name(uri: str, taken: dict[str, Any]) -> str:
    """A definition name for the remote document at ``uri``, from its file name, not in ``taken``."""
    stem = PurePosixPath(urlsplit(uri).path).stem
    base = "remote_" + (re.sub(r"[^A-Za-z0-9_]+", "_", stem).strip("_") or "schema")
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


def _join_uri(base: str, reference: str) -> str:
    """``reference`` resolved against ``base`` (RFC 3986), also for schemes urljoin does not know (urn:, tag:)."""
    if reference.startswith("#"):
        return _split_fragment(base)[0] + reference
    if re.match(r"[A-Za-z][A-Za-z0-9+.-]*:", reference):
        return reference
    return urljoin(base, reference)


def _split_fragment(uri: str) -> tuple[str, str]:
    resource, _, fragment = uri.partition("#")
    return resource, fragment


def _follow(root: Any, steps: SchemaPath) -> Any:
    node = root
    for step in steps:
        if isinstance(node, list):
            node = node[int(step)] if step.isdigit() and int(step) < len(node) else None
        elif isinstance(node, dict):
            node = node.get(step)
        else:
            return None
    return node


# -- writing YAML ---------------------------------------------------------------------------

#: Plain scalars that YAML 1.1 (or toolshape's reader) would not read back as this string.
_SPECIAL_WORDS = frozenset(
    w
    for word in ("y", "n", "yes", "no", "on", "off", "true", "false", "null", "~", "=", "<<")
    for w in (word, word.upper(), word.capitalize())
)
_NUMBER_LIKE = re.compile(r"[-+]?\.?[0-9]|[-+]?\.(?:inf|nan)", re.IGNORECASE)


class _Dumper(yaml.SafeDumper):
    """SafeDumper with readable contract output: quoted surprises, short flow collections."""


#: Characters written only as escapes (in double quotes): controls, tabs, the other line breaks.
_ESCAPED = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]")


def _represent_str(dumper: yaml.SafeDumper, text: str) -> yaml.ScalarNode:
    style = None
    if _ESCAPED.search(text):
        style = '"'
    elif "\n" in text.rstrip("\n") and len(text) > 1:
        style = "|"
    elif text in _SPECIAL_WORDS or _NUMBER_LIKE.match(text) or text != text.strip() or text == "":
        style = "'"
    return dumper.represent_scalar("tag:yaml.org,2002:str", text, style=style)


def _flow(value: Any) -> bool:
    """Short collections of scalars (and short schemas) are written on one line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        return False
    return len(text) <= 64 and "\\n" not in text and _depth(value) <= 2


def _depth(value: Any) -> int:
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    return 0


def _represent_dict(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.MappingNode:
    return dumper.represent_mapping(
        "tag:yaml.org,2002:map", data.items(), flow_style=_flow(data) and bool(data)
    )


def _represent_list(dumper: yaml.SafeDumper, data: list[Any]) -> yaml.SequenceNode:
    return dumper.represent_sequence(
        "tag:yaml.org,2002:seq", data, flow_style=_flow(data) or not data
    )


class _Block(dict[str, Any]):
    """A mapping always written in block style (the contract's top level, schemas with properties)."""


def _represent_block(dumper: yaml.SafeDumper, data: dict[str, Any]) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=False)


_Dumper.add_representer(_Block, _represent_block)
_Dumper.add_representer(str, _represent_str)
_Dumper.add_representer(dict, _represent_dict)
_Dumper.add_representer(list, _represent_list)


def _ordered(schema: Any) -> Any:
    """A schema with its keywords in a readable order (property and definition order kept)."""
    if isinstance(schema, list):
        return schema
    if not isinstance(schema, dict):
        return schema
    first = [k for k in KEY_ORDER if k in schema]
    last = [k for k in (DEFS,) if k in schema]
    rest = [k for k in schema if k not in first and k not in last]
    out: dict[str, Any] = {}
    for key in first + rest + last:
        value = schema[key]
        if key in ONE_SCHEMA:
            value = _ordered(value)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            value = [_ordered(v) for v in value]
        elif key in SCHEMA_MAPS and isinstance(value, dict):
            value = {name: _ordered(sub) for name, sub in value.items()}
        out[key] = value
    return out


def to_yaml(data: dict[str, Any], header: str | None = None) -> str:
    """Contract data (its name, description, parameters, ...) as readable contract YAML.

    Strings YAML 1.1 or toolshape's reader would take for something else (yes, no, y,
    dates, numbers, octal, sexagesimal) are quoted; short schemas and lists go on one line.
    """
    first = ("name", TITLE, DESCRIPTION, "annotations", "parameters")
    ordered: dict[str, Any] = {key: data[key] for key in first if key in data}
    ordered.update({k: v for k, v in data.items() if k not in ordered})
    for schema_key in ("parameters", "output"):
        if schema_key in ordered:
            ordered[schema_key] = _ordered(ordered[schema_key])
    text: str = yaml.dump(
        _Block(ordered), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=88
    )
    if header:
        text = "".join(f"# {line}\n" for line in header.splitlines()) + text
    return text


# -- writing files ----------------------------------------------------------------------------


def write_imported(
    contracts: list[ImportedContract], out_dir: Path, overwrite: bool = False
) -> list[Path]:
    """Write each contract to ``out_dir / relative_path``; return the paths written.

    Every target is checked before anything is written: a path that would leave
    ``out_dir`` (absolute, ``..``, or through a symbolic link) raises ImportWriteError, and so
    do existing files unless ``overwrite``. Files are replaced atomically.
    """
    out_dir = Path(out_dir)
    base = out_dir.resolve()
    targets: list[tuple[Path, ImportedContract]] = []
    problems: list[str] = []
    seen: set[str] = set()
    for imported in contracts:
        relative = PurePosixPath(imported.relative_path)
        if (
            relative.is_absolute()
            or ".." in relative.parts
            or not relative.parts
            or relative.suffix not in (".yaml", ".yml")
            or "\\" in imported.relative_path
        ):
            problems.append(
                f"{imported.relative_path}: not a relative path to a .yaml file inside {out_dir}"
            )
            continue
        target = out_dir.joinpath(*relative.parts)
        if not _inside(target.parent, base):
            problems.append(f"{target}: leaves {out_dir} (through a symbolic link)")
            continue
        if str(relative).lower() in seen:
            problems.append(f"{target}: two contracts would be written here")
            continue
        seen.add(str(relative).lower())
        if target.is_symlink() or (target.exists() and not target.is_file()):
            problems.append(f"{target}: exists and is not a regular file; not touched")
            continue
        if target.exists() and not overwrite:
            problems.append(f"{target}: exists; pass --force to replace it")
            continue
        targets.append((target, imported))
    if problems:
        raise ImportWriteError("\n".join(problems))
    written: list[Path] = []
    for target, imported in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not _inside(target.parent, base):  # a link made meanwhile
            raise ImportWriteError(f"{target}: leaves {out_dir}")
        descriptor, temporary = tempfile.mkstemp(prefix=".toolshape-import-", dir=target.parent)
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8", newline="\n") as stream:
                stream.write(imported.yaml_text)
            os.replace(temporary, target)
        except BaseException:
            if os.path.exists(temporary):
                os.unlink(temporary)
            raise
        written.append(target)
    return written


def _inside(folder: Path, base: Path) -> bool:
    """Whether ``folder`` (resolved, following links) is ``base`` or inside it."""
    resolved = folder.resolve()
    return resolved == base or base in resolved.parents


def _placer(document: documents.Document) -> Callable[[str], tuple[int, int] | None]:
    """Where a JSON Pointer is in the document read (see :func:`locate`), for each of its
    warnings and errors: YAML is walked as the nodes it was composed into when it was read
    (composed once for all of them), JSON as its text; each object's members are found once."""
    if document.yaml_root is not None:
        return _YamlPlaces(document.yaml_root).find
    return _JsonPlaces(document.text).find


def locate(text: str, pointer: str) -> tuple[int, int] | None:
    """The line and column (1-based) of the value at JSON Pointer ``pointer`` in ``text`` (JSON,
    or YAML as import reads it), or of its nearest ancestor found (None: no place to name).

    Walks the text along the pointer, skipping the values on the way with the json module's
    own decoder, so that each warning of ``import`` can name its place as ``file:line:col``."""
    if not text.lstrip(" \t\n\r").startswith(("{", "[")):  # not a JSON object or array: YAML
        return _locate_yaml(text, pointer)
    try:
        return _JsonPlaces(text).find(pointer)
    except ValueError:  # not JSON (the file parsed, so it is YAML): walk its nodes instead
        return _locate_yaml(text, pointer)


class _JsonPlaces:
    """The places of JSON Pointers in JSON text: each lookup walks down from the root, the
    members of an object or array found (their values skipped with the json module's own
    decoder) the first time a lookup passes through it, so that many lookups do not each
    skip the same values again. ValueError where the text is not JSON."""

    _SPACE = re.compile(r"[ \t\n\r]*")

    def __init__(self, text: str) -> None:
        self.text = text
        self._decoder = json.JSONDecoder()
        #: By offset of an object or array: the offset of each member's value, by its token.
        self._members: dict[int, dict[str, int]] = {}
        self._line_starts = [0, *(match.end() for match in re.finditer("\n", text))]

    def find(self, pointer: str) -> tuple[int, int]:
        """The line and column of the value at ``pointer``, or of its nearest ancestor."""
        at = self._skip(0)
        for token in pointers.tokens(pointer):
            members = self._members.get(at)
            if members is None:
                members = self._members[at] = self._read_members(at)
            if token not in members:
                break
            at = members[token]
        line = bisect.bisect_right(self._line_starts, at)
        return line, at - self._line_starts[line - 1] + 1

    def _read_members(self, at: int) -> dict[str, int]:
        """The members of the object or array at ``at`` (none: a scalar is there)."""
        text = self.text
        members: dict[str, int] = {}
        if text.startswith("{", at):
            at = self._skip(at + 1)
            while not text.startswith("}", at):
                key, at = self._decoder.raw_decode(text, at)
                at = self._skip(at)
                if not isinstance(key, str) or not text.startswith(":", at):
                    raise ValueError("not a JSON object")
                at = self._skip(at + 1)
                members.setdefault(key, at)  # a key twice: the first
                at = self._past_value(at)
        elif text.startswith("[", at):
            at = self._skip(at + 1)
            while not text.startswith("]", at):
                members[str(len(members))] = at
                at = self._past_value(at)
        return members

    def _past_value(self, at: int) -> int:
        """Past the value at ``at``, the comma after it and the space after that."""
        at = self._skip(self._decoder.raw_decode(self.text, at)[1])
        return self._skip(at + 1) if self.text.startswith(",", at) else at

    def _skip(self, at: int) -> int:
        match = self._SPACE.match(self.text, at)
        return match.end() if match else at


def _locate_yaml(text: str, pointer: str) -> tuple[int, int] | None:
    """As :func:`locate`, for a YAML input (composed, never constructed: no tag runs)."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return None
    return None if root is None else _YamlPlaces(root).find(pointer)


class _YamlPlaces:
    """The places of JSON Pointers in composed YAML: each lookup walks down from the root, a
    mapping's keys indexed the first time a lookup passes through it, so that many lookups
    under one wide mapping do not each scan its keys."""

    def __init__(self, root: yaml.Node) -> None:
        self.root = root
        #: By id() of a mapping node (the root keeps every node alive): its keys' value nodes.
        self._children: dict[int, dict[str, yaml.Node]] = {}

    def find(self, pointer: str) -> tuple[int, int]:
        """The line and column of the node at ``pointer``, or of its nearest ancestor."""
        node = self.root
        for token in pointers.tokens(pointer):
            child = self._child(node, token)
            if child is None:
                break
            node = child
        return node.start_mark.line + 1, node.start_mark.column + 1

    def _child(self, node: yaml.Node, token: str) -> yaml.Node | None:
        if isinstance(node, yaml.MappingNode):
            children = self._children.get(id(node))
            if children is None:
                children = {}
                for key, value in node.value:
                    if isinstance(key, yaml.ScalarNode):
                        children.setdefault(key.value, value)  # a key twice: the first
                self._children[id(node)] = children
            return children.get(token)
        if isinstance(node, yaml.SequenceNode) and token.isdigit() and int(token) < len(node.value):
            child: yaml.Node = node.value[int(token)]
            return child
        return None


def _object_root(
    schema: bool, pointer: str, warnings: list[ImportNotice], why: str, what: str
) -> Any:
    """The object schema a root ``true`` or ``false`` means (``what``: the arguments or a
    result, each one JSON object), with a warning at ``pointer`` that says so."""
    none = "" if schema else f"; as written, no {what} can pass"
    warnings.append(
        ImportNotice(
            pointer,
            f"the schema is {json.dumps(schema)}: read as the object schema it means{why}{none}",
        )
    )
    return value_rules.object_root(schema)
