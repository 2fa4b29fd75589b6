"""Existing tool definitions in, toolshape contracts out.

``import_file(path)`` reads a JSON (or YAML) file holding one of

* a bare JSON Schema of the arguments (draft-04/06/07, 2019-09 or 2020-12): one contract,
  named after its ``title`` (when that is a valid tool name) or the file name, described by
  its ``description``;
* an MCP ``tools/list`` result ``{"tools": [{"name", "description", "inputSchema"}, ...]}``,
  or the JSON-RPC response that wraps it under ``"result"``;
* an OpenAI tool list ``[{"type": "function", "function": {"name", "description",
  "parameters"}}]`` (also ``{"tools": [...]}``, and the Responses API's flat
  ``{"type": "function", "name", ...}``);
* an Anthropic tool list ``[{"name", "description", "input_schema"}]`` (also ``{"tools": [...]}``);

and returns one :class:`ImportedContract` per tool: the contract as YAML text, ready for
``toolshape generate`` (after review: the importer never invents ``examples``), and the
warnings worth a look. Older JSON Schema spellings are translated to 2020-12:
``definitions`` -> ``$defs`` (and every ``$ref`` to them), ``items: [...]`` ->
``prefixItems`` (with ``additionalItems`` -> ``items``), ``dependencies`` ->
``dependentRequired``/``dependentSchemas``, draft-04 boolean ``exclusiveMinimum``, a
draft-07 root ``$ref`` (zod-to-json-schema's ``{"$ref": "#/definitions/x", "definitions":
...}``) hoisted to the root; ``$schema`` and the root ``$id`` are dropped. What cannot be
carried over is an error naming the tool and the JSON Pointer of the offending place in
the input file (:class:`ContractImportError`, every problem at once): remote ``$ref``,
keywords toolshape does not implement (``unevaluatedProperties``, ``$dynamicRef``, ...),
a root that is not an object schema, an invalid tool name, a missing description. Every
contract is verified before it is returned: its text is loaded back with
:func:`toolshape.contract.source.load` (which refuses YAML surprises) and checked with
:func:`toolshape.contract.checker.check`.

``write_imported(contracts, out_dir)`` writes the files, refusing to overwrite (unless
asked) or to write outside ``out_dir``.
"""

from __future__ import annotations

import json
import keyword
import os
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import quote, unquote

import yaml

from ..contract import checker as contract_module
from ..contract import source
from ..contract.checker import FORMATS, SCHEMA_KEYWORDS, TOOL_NAME_RE
from ..schema.keywords import ONE_SCHEMA, SCHEMA_LISTS
from ..schema.values import json_equal
from ..contract.errors import ContractError
from ..schema import pointers

SchemaPath = tuple[str, ...]

MAX_INPUT_BYTES = 16 * 1_048_576
"""Input files larger than this are refused unread."""

#: Keywords of JSON Schema that toolshape cannot carry over: an error.
REFUSED_KEYWORDS = {
    "unevaluatedProperties": "toolshape does not implement 'unevaluatedProperties'; list the properties and use additionalProperties",
    "unevaluatedItems": "toolshape does not implement 'unevaluatedItems'",
    "$dynamicRef": "toolshape does not implement '$dynamicRef'",
    "$recursiveRef": "toolshape does not implement '$recursiveRef'",
}
#: Annotation keywords (no effect on validation in JSON Schema) toolshape has no place for: dropped, with a warning.
DROPPED_ANNOTATIONS = (
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "$anchor",
    "$dynamicAnchor",
    "$recursiveAnchor",
    "$vocabulary",
)
#: Schema keys in the order contracts are written (the rest keep their order, then $defs).
KEY_ORDER = ("$ref", "type", "title", "description", "format", "enum", "const", "default")
_LEGACY_DIALECTS = ("draft-03", "draft-04", "draft-06", "draft-07")
_ANNOTATION_SIBLINGS = ("title", "description", "default", "examples", "$comment", "readOnly", "writeOnly", "deprecated")


@dataclass(frozen=True)
class ImportProblem:
    """One thing that cannot be carried over, located in the input file."""

    file: str
    tool: str | None
    pointer: str | None
    message: str

    def __str__(self) -> str:
        where = f" tool '{self.tool}'" if self.tool else ""
        at = f" at {self.pointer or '/'}" if self.pointer is not None else ""
        return f"{self.file}:{where}{at}: error: {self.message}"


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
    warnings: list[str] = field(default_factory=list)
    #: The input kind: "jsonschema", "mcp", "openai" or "anthropic".
    kind: str = "jsonschema"
    #: The contract as data: {"name", "description", "parameters"}.
    data: dict[str, Any] = field(default_factory=dict)


# -- reading ------------------------------------------------------------------------


def import_file(path: Path) -> list[ImportedContract]:
    """One contract per tool found in the file at ``path``; raise ContractImportError."""
    path = Path(path)
    label = path.name
    try:
        size = path.stat().st_size
        if size > MAX_INPUT_BYTES:
            raise ContractImportError([ImportProblem(label, None, None, f"the file is {size} bytes; the limit is {MAX_INPUT_BYTES}")])
        raw = path.read_bytes()
    except OSError as error:
        raise ContractImportError([ImportProblem(label, None, None, f"cannot read the file: {error.strerror or error}")]) from None
    data = _parse(raw, label, path.suffix.lower())
    return import_data(data, label, _stem(path.name))


def import_data(data: Any, label: str, stem: str = "tool") -> list[ImportedContract]:
    """As :func:`import_file`, for already-decoded JSON data (``label`` names it in messages,
    ``stem`` is the fallback name of a bare schema without a usable title)."""
    importer = _Importer(label, stem)
    contracts = importer.run(data)
    if importer.problems:
        raise ContractImportError(importer.problems)
    return contracts


def _parse(raw: bytes, label: str, suffix: str) -> Any:
    def fail(message: str) -> ContractImportError:
        return ContractImportError([ImportProblem(label, None, None, message)])

    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise fail(f"the file is not UTF-8 (byte {error.start})") from None

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        result: dict[str, Any] = {}
        for key, value in items:
            if key in result:
                raise ValueError(f"the key {key!r} appears twice in one object")
            result[key] = value
        return result

    def constant(name: str) -> Any:
        raise ValueError(f"{name} is not JSON")

    try:
        return json.loads(text, object_pairs_hook=pairs, parse_constant=constant)
    except ValueError as error:
        if suffix not in (".yaml", ".yml"):
            raise fail(f"not valid JSON: {error}") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise fail(f"not valid YAML: {error}") from None


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
    warnings: list[str] = field(default_factory=list)


class _Importer:
    def __init__(self, label: str, stem: str) -> None:
        self.label = label
        self.stem = stem
        self.problems: list[ImportProblem] = []

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
                imported.warnings.append(f"written as {path}: {imported.relative_path} is taken by another tool of this file")
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
            self.error(None, pointer, "expected a JSON Schema, an MCP tools/list result or an OpenAI/Anthropic tool list")
            return []
        if "jsonrpc" in data:
            if "error" in data:
                self.error(None, f"{pointer}/error", f"the JSON-RPC response is an error: {json.dumps(data['error'])[:200]}")
                return []
            if "result" not in data:
                self.error(None, pointer, "a JSON-RPC message without 'result'")
                return []
            return self.tools(data["result"], f"{pointer}/result")
        if isinstance(data.get("tools"), list) and not _looks_like_schema(data):
            found = self.tools(data["tools"], f"{pointer}/tools")
            if data.get("nextCursor"):
                for tool in found:
                    tool.warnings.append("the tools/list result has a nextCursor: only this page of tools was imported")
            return found
        if any(k in data for k in ("inputSchema", "input_schema", "function")) or (
            data.get("type") == "function" and "name" in data
        ):
            return self.tool(data, pointer)
        if _looks_like_schema(data):
            return [_Tool("jsonschema", None, None, data, pointer, pointer)]
        self.error(None, pointer, "expected a JSON Schema, an MCP tools/list result or an OpenAI/Anthropic tool list")
        return []

    def tool(self, entry: Any, pointer: str) -> list[_Tool]:
        if not isinstance(entry, dict):
            self.error(None, pointer, "a tool entry must be an object")
            return []
        name = entry.get("name")
        shown = name if isinstance(name, str) else None
        warnings: list[str] = []
        if entry.get("type") == "function" and isinstance(entry.get("function"), dict):
            function = entry["function"]
            fn_pointer = f"{pointer}/function"
            return [self.entry("openai", function, fn_pointer, "parameters", warnings)]
        if "inputSchema" in entry:
            for key in ("title", "outputSchema", "annotations"):
                if key in entry:
                    warnings.append(f"the MCP tool's {key!r} is not carried over (a contract has no place for it)")
            return [self.entry("mcp", entry, pointer, "inputSchema", warnings)]
        if "input_schema" in entry:
            return [self.entry("anthropic", entry, pointer, "input_schema", warnings)]
        if entry.get("type") == "function" or ("parameters" in entry and "name" in entry):
            return [self.entry("openai", entry, pointer, "parameters", warnings)]
        if "type" in entry and isinstance(name, str):
            # A platform's built-in tool (Anthropic web_search_..., OpenAI file_search): no schema to import.
            self.error(shown, pointer, f"a built-in tool of type {entry['type']!r} has no input schema to import; remove it from the list")
            return []
        self.error(shown, pointer, "not a tool definition: expected inputSchema (MCP), input_schema (Anthropic) or function/parameters (OpenAI)")
        return []

    def entry(self, kind: str, entry: dict, pointer: str, schema_key: str, warnings: list[str]) -> _Tool:
        name = entry.get("name")
        description = entry.get("description")
        if schema_key not in entry:
            schema: Any = {"type": "object", "additionalProperties": False}
            warnings.append("the tool has no parameters: the contract accepts only an empty object")
        else:
            schema = entry[schema_key]
        return _Tool(kind, name, description, schema, f"{pointer}/{schema_key}", pointer, warnings)

    # -- one tool ----------------------------------------------------------------------

    def contract(self, found: _Tool) -> ImportedContract | None:
        kind, name, description, schema, pointer = found.kind, found.name, found.description, found.schema, found.schema_pointer
        before = len(self.problems)
        tool = name if isinstance(name, str) else None
        if not isinstance(schema, dict):
            self.error(tool, pointer, "the arguments schema must be an object schema (a JSON object with type: object)")
            return None
        translator = _Translator(schema)
        parameters = translator.translate()
        warnings = list(found.warnings)
        warnings.extend(f"{_join(pointer, p)}: {w}" for p, w in translator.warnings)
        if kind == "jsonschema":
            name, description = self.bare_identity(parameters, schema, translator, pointer, warnings)
            tool = name
        for p, message in translator.errors:
            self.error(tool, _join(pointer, p), message)
        self.check_identity(kind, name, description, found.tool_pointer)
        for where, _ in _lone_surrogates(schema, ""):
            self.error(tool, _join(pointer, where), "a string here holds a lone surrogate (\\ud800-\\udfff), which is not Unicode text")
        if isinstance(description, str) and _SURROGATE.search(description):
            self.error(tool, pointer, "the description holds a lone surrogate, which is not Unicode text")
        if len(self.problems) > before:
            return None
        data = {"name": name, "description": description, "parameters": parameters}
        relative = _file_name(name)
        text = to_yaml(data, header=f"Imported by toolshape from {self.label} ({_KIND_NAMES[kind]}); review it and add examples.")
        verified = self.verify(text, relative, data, tool, pointer, translator, warnings)
        if not verified:
            return None
        return ImportedContract(name, relative, text, warnings, kind, data)

    def bare_identity(self, parameters: dict, original: dict, translator: _Translator, pointer: str, warnings: list[str]) -> tuple[Any, Any]:
        """A bare schema's tool name (title, hoisted definition name, file name) and description."""
        title = parameters.get("title")
        if isinstance(title, str) and TOOL_NAME_RE.fullmatch(title):
            name: Any = parameters.pop("title")
        elif translator.hoisted and TOOL_NAME_RE.fullmatch(translator.hoisted):
            name = translator.hoisted
        else:
            name = self.stem
            if isinstance(title, str):
                warnings.append(f"the title {title!r} is not a tool name (1-64 of A-Z a-z 0-9 _ . -): named {name!r} after the file")
        description = parameters.pop("description", None)
        return name, description

    def check_identity(self, kind: str, name: Any, description: Any, pointer: str) -> None:
        tool = name if isinstance(name, str) else None
        if not isinstance(name, str) or not TOOL_NAME_RE.fullmatch(name):
            where = pointer if kind == "jsonschema" else f"{pointer}/name"
            self.error(tool, where, f"the tool name {json.dumps(name)} is not 1-64 characters of A-Z a-z 0-9 _ . -")
        if not isinstance(description, str) or not description.strip():
            where = f"{pointer}/description"
            what = "the schema has no 'description' at its root" if kind == "jsonschema" else "the tool has no description"
            self.error(tool, where, f"{what}: a contract needs one (the model reads it to choose the tool)")

    def verify(
        self,
        text: str,
        relative: str,
        data: dict,
        tool: str | None,
        pointer: str,
        translator: _Translator,
        warnings: list[str],
    ) -> bool:
        """Load the emitted text back and check it: it must be the intended contract, and pass.

        The check's warnings (a ``default: null`` on a key that refuses null) join the
        import's, at their place in the input file: the contract is written all the same."""
        try:
            document = source.load(text.encode("utf-8"), relative)
        except ContractError as error:  # the YAML writer made something source.load refuses: our bug
            raise AssertionError(f"toolshape bug: the imported contract for {tool} does not load back:\n{error}") from None
        if not _same(document.data, data):
            raise AssertionError(f"toolshape bug: the imported contract for {tool} loads back as different data")
        try:
            checked = contract_module.check(document)
        except ContractError as error:
            for problem in error.problems:
                at = self.input_pointer(document, problem, pointer, translator)
                self.error(tool, at, f"{problem.message} (toolshape's contract check)")
            return False
        for problem in checked.warnings:
            warnings.append(f"{self.input_pointer(document, problem, pointer, translator)}: {problem.message}")
        return True

    @staticmethod
    def input_pointer(document: source.Document, problem: Any, pointer: str, translator: _Translator) -> str:
        """Where in the input file the contract check's finding is (the tool's schema, at worst)."""
        where = _path_at(document, problem.line, problem.col)
        if where and where[0] == "parameters":
            return _join(pointer, translator.original_pointer(tuple(str(p) for p in where[1:])))
        return pointer


_KIND_NAMES = {
    "jsonschema": "JSON Schema",
    "mcp": "MCP tools/list",
    "openai": "OpenAI tools",
    "anthropic": "Anthropic tools",
}


def _looks_like_schema(data: dict) -> bool:
    return any(k in data for k in ("$schema", "properties", "$ref", "definitions", "$defs")) or data.get("type") == "object"


def _join(base: str, pointer: str) -> str:
    return base + pointer


def _path_at(document: source.Document, line: int, col: int) -> tuple | None:
    """The longest document path whose value (or key) starts at line:col."""
    best: tuple | None = None
    for positions in (document.value_positions, document.key_positions):
        for path, position in positions.items():
            if position == (line, col) and (best is None or len(path) > len(best)):
                best = path
    return best


_SURROGATE = re.compile("[\ud800-\udfff]")


def _lone_surrogates(value: Any, pointer: str):
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
    reserved = {"tests"}
    try:
        from ..project import folder as project

        reserved |= {n.lower() for n in getattr(project, "PACKAGE_NAMES", ())}
    except ImportError:  # pragma: no cover - project is part of the package
        pass
    if keyword.iskeyword(stem) or keyword.issoftkeyword(stem) or stem in reserved:
        stem = f"{stem}_tool"
    return f"{stem}.yaml"


# -- translating a schema to toolshape's 2020-12 subset ----------------------------------


class _Translator:
    """One schema, translated to 2020-12; paths are tuples of strings (list indexes too)."""

    def __init__(self, schema: dict) -> None:
        self.root = schema
        self.errors: list[tuple[str, str]] = []
        self.warnings: list[tuple[str, str]] = []
        dialect = schema.get("$schema", "")
        self.legacy = isinstance(dialect, str) and any(d in dialect for d in _LEGACY_DIALECTS)
        self.draft4 = isinstance(dialect, str) and any(d in dialect for d in ("draft-03", "draft-04"))
        base = schema.get("$id", schema.get("id") if self.draft4 else None)
        self.base = base.split("#", 1)[0] if isinstance(base, str) else None
        #: old path -> new path of every schema node translated.
        self.moved: dict[SchemaPath, SchemaPath] = {}
        #: (new node, old path) of every $ref, rewritten at the end.
        self.refs: list[tuple[dict, SchemaPath]] = []
        self.hoisted: str | None = None

    def error(self, path: SchemaPath, message: str) -> None:
        self.errors.append((pointers.pointer(path), message))

    def warn(self, path: SchemaPath, message: str) -> None:
        self.warnings.append((pointers.pointer(path), message))

    def original_pointer(self, new_path: SchemaPath) -> str:
        """The input pointer of a node of the translated schema (its nearest translated ancestor)."""
        back = {v: k for k, v in self.moved.items()}
        for length in range(len(new_path), -1, -1):
            if new_path[:length] in back:
                return pointers.pointer(back[new_path[:length]] + new_path[length:])
        return pointers.pointer(new_path)

    def translate(self) -> dict:
        root = self.root
        ref = root.get("$ref")
        hoist = (
            isinstance(ref, str)
            and ref.startswith("#/")
            and all(k in ("$ref", "$schema", "$id", "id", "definitions", "$defs", "title", "description", "$comment") for k in root)
        )
        if hoist:
            target = self.steps(ref)
            node = _follow(root, target)
            if isinstance(node, dict) and target and target[0] in ("definitions", "$defs") and len(target) == 2:
                self.hoisted = target[1]
                result = self.node(node, target, ())
                self.moved[()] = ()
                for key in ("title", "description", "$comment"):
                    if key in root and key not in result:
                        result[key] = root[key]
                defs = {}
                for keyword_ in ("definitions", "$defs"):
                    for name, sub in (root.get(keyword_) or {}).items():
                        if (keyword_, name) != target:
                            defs[name] = self.node(sub, (keyword_, name), ("$defs", name))
                if defs:
                    result["$defs"] = {**result.get("$defs", {}), **defs}
                self.rewrite_refs()
                return self.root_checks(result)
        result = self.node(root, (), ())
        self.rewrite_refs()
        return self.root_checks(result)

    def root_checks(self, result: Any) -> dict:
        if not isinstance(result, dict):
            self.error((), "the arguments schema must be an object schema")
            return {}
        kind = result.get("type")
        if kind is None:
            if any(k in result for k in ("properties", "required", "additionalProperties")):
                self.warn((), "the root has no 'type': added 'type: object' (tool arguments are always one JSON object)")
                result = {"type": "object", **result}
            else:
                self.error((), "the root schema says nothing about objects: tool arguments are one JSON object (type: object)")
        elif kind != "object":
            self.error(("type",), f"the root type is {json.dumps(kind)}, not \"object\": tool arguments are one JSON object")
        return result

    def steps(self, ref: str) -> SchemaPath:
        pointer = ref[1:]
        if not pointer:
            return ()
        return tuple(pointers.unescape(unquote(p)) for p in pointer.split("/")[1:])

    def node(self, schema: Any, old: SchemaPath, new: SchemaPath) -> Any:
        """The translation of the schema at ``old`` (input path), placed at ``new``."""
        self.moved[old] = new
        if isinstance(schema, bool):
            return schema
        if not isinstance(schema, dict):
            self.error(old, f"expected a schema (an object or true/false), found {json.dumps(schema)[:40]}")
            return {}
        out: dict[str, Any] = {}
        is_ref = isinstance(schema.get("$ref"), str)
        for key, value in schema.items():
            where = old + (key,)
            if key.startswith("x-"):
                out[key] = value
            elif key == "$schema":
                if old:
                    self.warn(where, "'$schema' inside a schema is dropped")
            elif key in ("$id", "id") and (key == "$id" or self.draft4) and isinstance(value, str):
                if old:
                    self.error(where, f"a nested '{key}' changes how $refs inside it resolve; toolshape cannot carry it over")
            elif key in REFUSED_KEYWORDS:
                self.error(where, REFUSED_KEYWORDS[key])
            elif key in DROPPED_ANNOTATIONS:
                if key != "$vocabulary":
                    self.warn(where, f"'{key}' is dropped (toolshape has no use for it)")
            elif is_ref and self.legacy and key not in ("$ref", *_ANNOTATION_SIBLINGS, "definitions", "$defs"):
                self.warn(where, f"'{key}' beside '$ref' is dropped: before 2019-09 JSON Schema ignores keywords beside $ref")
            elif key == "$ref":
                out[key] = value
                self.refs.append((out, old))
            elif key in ("definitions", "$defs"):
                if not isinstance(value, dict):
                    self.error(where, f"'{key}' must map names to schemas")
                    continue
                defs = out.setdefault("$defs", {})
                for name, sub in value.items():
                    if name in defs:
                        self.error(where + (name,), f"the definition {name!r} is in both 'definitions' and '$defs'")
                    defs[name] = self.node(sub, where + (name,), new + ("$defs", name))
            elif key == "items":
                if isinstance(value, list):
                    out["prefixItems"] = [self.node(sub, where + (str(i),), new + ("prefixItems", str(i))) for i, sub in enumerate(value)]
                    if "additionalItems" in schema:
                        out["items"] = self.node(schema["additionalItems"], old + ("additionalItems",), new + ("items",))
                else:
                    out["items"] = self.node(value, where, new + ("items",))
            elif key == "additionalItems":
                if not isinstance(schema.get("items"), list):
                    self.warn(where, "'additionalItems' without a list of 'items' has no effect: dropped")
            elif key == "dependencies":
                if not isinstance(value, dict):
                    self.error(where, "'dependencies' must be an object")
                    continue
                for name, dep in value.items():
                    if isinstance(dep, list):
                        out.setdefault("dependentRequired", {})[name] = dep
                    else:
                        out.setdefault("dependentSchemas", {})[name] = self.node(dep, where + (name,), new + ("dependentSchemas", name))
            elif key in ("exclusiveMinimum", "exclusiveMaximum") and isinstance(value, bool):
                bound = "minimum" if key == "exclusiveMinimum" else "maximum"
                if value and bound in schema:
                    out[key] = schema[bound]
                elif value:
                    self.warn(where, f"'{key}: true' without '{bound}' has no effect: dropped")
            elif key in ("minimum", "maximum") and schema.get("exclusive" + key[0].upper() + key[1:]) is True:
                continue  # draft-04: carried by exclusiveMinimum/exclusiveMaximum above
            elif key == "format":
                if value in FORMATS:
                    out[key] = value
                else:
                    self.warn(where, f"format {json.dumps(value)} is dropped: toolshape asserts only {', '.join(FORMATS)} (to JSON Schema other formats are annotations)")
            elif key == "example":
                out.setdefault("examples", []).append(value)
            elif key == "nullable":
                self.warn(where, "'nullable' (OpenAPI, not JSON Schema) is dropped; to accept null, add \"null\" to 'type'")
            elif key in ONE_SCHEMA:
                out[key] = self.node(value, where, new + (key,))
            elif key in SCHEMA_LISTS:
                if not isinstance(value, list):
                    self.error(where, f"'{key}' must be a list of schemas")
                    continue
                out[key] = [self.node(sub, where + (str(i),), new + (key, str(i))) for i, sub in enumerate(value)]
            elif key in ("properties", "patternProperties", "dependentSchemas"):
                if not isinstance(value, dict):
                    self.error(where, f"'{key}' must map names to schemas")
                    continue
                out[key] = {name: self.node(sub, where + (name,), new + (key, name)) for name, sub in value.items()}
            elif key in SCHEMA_KEYWORDS:
                out[key] = value
            else:
                self.warn(where, f"unknown keyword '{key}' is dropped (JSON Schema ignores it too)")
        return out

    def rewrite_refs(self) -> None:
        for node, old in self.refs:
            ref = node["$ref"]
            where = old + ("$ref",)
            if self.base and ref.startswith(self.base):
                ref = ref[len(self.base):] or "#"
            if not ref.startswith("#"):
                self.error(where, f"remote $ref {ref[:80]!r}: toolshape never fetches schemas; copy it under $defs and refer to it as #/$defs/...")
                continue
            if ref != "#" and not ref.startswith("#/"):
                self.error(where, f"$ref {ref!r} names an anchor; toolshape resolves only JSON Pointers (#/$defs/name)")
                continue
            target = self.steps(ref)
            if target not in self.moved:
                self.error(where, f"$ref {ref!r} points at nothing (or at no schema) in this schema")
                continue
            node["$ref"] = "#" + "".join("/" + quote(pointers.escape(p), safe="$-_.!*'()~,;=@:+&") for p in self.moved[target])


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


def _represent_dict(dumper: yaml.SafeDumper, data: dict) -> yaml.MappingNode:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=_flow(data) and bool(data))


def _represent_list(dumper: yaml.SafeDumper, data: list) -> yaml.SequenceNode:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=_flow(data) or not data)


class _Block(dict):
    """A mapping always written in block style (the contract's top level, schemas with properties)."""


def _represent_block(dumper: yaml.SafeDumper, data: dict) -> yaml.MappingNode:
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
    last = [k for k in ("$defs",) if k in schema]
    rest = [k for k in schema if k not in first and k not in last]
    out: dict[str, Any] = {}
    for key in first + rest + last:
        value = schema[key]
        if key in ONE_SCHEMA:
            value = _ordered(value)
        elif key in SCHEMA_LISTS and isinstance(value, list):
            value = [_ordered(v) for v in value]
        elif key in ("properties", "patternProperties", "dependentSchemas", "$defs") and isinstance(value, dict):
            value = {name: _ordered(sub) for name, sub in value.items()}
        out[key] = value
    return out


def to_yaml(data: dict[str, Any], header: str | None = None) -> str:
    """Contract data ({"name", "description", "parameters", ...}) as readable contract YAML.

    Strings YAML 1.1 or toolshape's reader would take for something else (yes, no, y,
    dates, numbers, octal, sexagesimal) are quoted; short schemas and lists go on one line.
    """
    ordered = {key: data[key] for key in ("name", "description", "parameters", "examples") if key in data}
    ordered.update({k: v for k, v in data.items() if k not in ordered})
    if "parameters" in ordered:
        ordered["parameters"] = _ordered(ordered["parameters"])
    text = yaml.dump(_Block(ordered), Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=88)
    if header:
        text = "".join(f"# {line}\n" for line in header.splitlines()) + text
    return text


# -- writing files ----------------------------------------------------------------------------


def write_imported(contracts: list[ImportedContract], out_dir: Path, overwrite: bool = False) -> list[Path]:
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
        if relative.is_absolute() or ".." in relative.parts or not relative.parts or relative.suffix not in (".yaml", ".yml") or "\\" in imported.relative_path:
            problems.append(f"{imported.relative_path}: not a relative path to a .yaml file inside {out_dir}")
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
            problems.append(f"{target}: exists; pass overwrite=True (--force) to replace it")
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
