"""Tool definitions for model platforms, exported from one checked contract.

``export(contract, target)`` returns the tool definition a platform expects (an
:class:`ExportResult`: the JSON-ready ``definition`` and human-readable ``notes``);
``lint(contract, target)`` returns what the platform *refuses* (:class:`Finding`, each
located at a node of ``parameters``); ``definitions(contracts, target)`` the list of every
tool's definition a service registers (``schema --all``). Targets: ``jsonschema``,
``openai`` (Chat Completions), ``openai-responses`` (the Responses API shape, the same
rules), ``anthropic``, ``gemini`` (``parametersJsonSchema``: the contract's JSON Schema),
``gemini-legacy`` (the legacy ``parameters``, an OpenAPI 3.0 subset), ``mcp``.

One principle decides every translation: **an exported schema never refuses arguments
the contract accepts**, with one exception, below. It is the contract's own schema or a
loosening of it, so a model constrained by it can always produce every valid call, and
whatever the export lets through that the contract does not is caught by the generated
validator. The exception: both strict modes need ``additionalProperties: false`` on every
object, and an object the contract leaves open is exported closed (recorded in
``ExportResult.closed``, and noted): a narrowing, so every call the model can then send
with its listed keys, the contract accepts, as both platforms' SDKs close a pydantic
model's objects.

* Where a platform cannot express a constraint (OpenAI strict mode and ``minLength``,
  Anthropic strict tool use and ``maximum``, Gemini and ``additionalProperties``), the
  constraint is dropped from the export and a note says so: "... does not enforce
  minLength at /properties/city: the generated validator is the only enforcement" (the
  note quotes the keyword). A
  bound so dropped is told to the model in the description of the schema that held it
  (``City name (at least 1 character)``): each family's ``export.py`` writes its keywords'
  phrases, ``platforms/lowering.py`` carries them to the description.
  ``oneOf`` becomes ``anyOf``, ``allOf`` and ``$ref`` beside other keywords are merged into
  one schema, Gemini's exclusive bounds become inclusive ones: always a loosening, always
  noted.
* OpenAI strict mode needs every property in ``required``: the export lists each optional
  key there with ``null`` added to its schema, records it (:class:`ConvertedKey`, in
  ``ExportResult.converted``) and notes it; a ``null`` from the model then stands for the
  absent key (the generated package removes it before validation, with
  ``platform="openai"``), unless the contract itself allows ``null`` there (the one
  decision: :func:`toolshape.contract.optional.converted_keys`). Objects get
  ``properties: {}`` and arrays ``items: {}`` where OpenAI demands them; ``prefixItems``
  become ``items`` with ``anyOf``.
* Where neither a loosening nor closing is expressible (``patternProperties``,
  ``additionalProperties`` as a schema, an object without properties or whose keys are
  spread over ``anyOf`` branches, for the strict modes; OpenAI an ``items`` schema with a
  type; a recursive definition cannot be inlined for Gemini's legacy field), :func:`lint`
  reports a finding. For
  OpenAI and Anthropic, :func:`export` then emits the tool with strict mode off (the schema
  unchanged but for the no-op fillers, a note, and the reasons in
  ``ExportResult.strict_refused``); for Gemini's legacy field, and for a tool name a
  platform refuses, :func:`export` raises :class:`ExportError`.

So ``strict: true`` is emitted exactly when ``lint`` finds nothing.

Platform rules used (public documentation and API error messages, late 2025):

* OpenAI function calling, ``{type: function, function: {...}}`` (Chat Completions)
  with ``strict: true`` (Structured Outputs, "Supported schemas",
  https://platform.openai.com/docs/guides/structured-outputs#supported-schemas): function
  names ``^[a-zA-Z0-9_-]{1,64}$``; the root is an object and not ``anyOf``; every object has
  ``additionalProperties: false`` and lists every property in ``required`` (API error
  "required is required to be supplied and to be an array including every key in
  properties", the keyword quoted); every schema has a ``type`` (or ``anyOf``/``$ref``; error
  "schema must have a type key", quoted likewise); supported: ``type`` (lists with ``null``), ``enum``, ``const``, ``anyOf``,
  ``$defs``/``$ref`` (recursion allowed, but not ``$ref`` beside other keywords, which the
  official SDK inlines), ``pattern``, ``format`` date-time, time, date, duration, email,
  hostname, ipv4, ipv6, uuid (not ``uri``: error "'uri' is not a valid format"),
  ``minimum``, ``maximum``, ``exclusiveMinimum``, ``exclusiveMaximum``, ``multipleOf``,
  ``minItems``, ``maxItems``; anything else is refused ("minLength is not permitted"):
  ``minLength``, ``maxLength``, ``uniqueItems``, ``minProperties``, ``maxProperties``,
  ``patternProperties``, ``propertyNames``, ``prefixItems``, ``contains``, ``allOf``,
  ``oneOf``, ``not``, ``if``/``then``/``else``, ``dependentRequired``, ``dependentSchemas``;
  at most 5000 properties, 10 levels of object nesting, 1000 enum values, 120,000
  characters of names and enum/const strings, 15,000 characters for one enum of more than
  250 strings.
* Anthropic tools, ``{name, description, input_schema}``
  (https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use), names
  ``^[a-zA-Z0-9_-]{1,64}$``, no ``oneOf``/``allOf``/``anyOf`` at the top level of
  ``input_schema``; ``strict: true`` (strict tool use, "JSON Schema limitations",
  https://platform.claude.com/docs/en/build-with-claude/structured-outputs): supported
  ``type``, ``enum`` of strings/numbers/booleans/null, ``const``, ``anyOf``, ``allOf`` (not
  with ``$ref``), ``$ref``/``$defs`` (not recursive), ``default``, ``required``,
  ``additionalProperties: false`` (mandatory on every object), ``format`` date-time, time,
  date, duration, email, hostname, uri, ipv4, ipv6, uuid, ``minItems`` 0 or 1, ``pattern``
  without backreferences, lookaround or word boundaries; not supported: numerical bounds,
  ``minLength``/``maxLength``, other array bounds, recursion; per request at most 20 strict
  tools, 24 optional parameters and 16 parameters with ``anyOf`` or type lists.
* Gemini ``FunctionDeclaration`` ``{name, description, parameters}``
  (https://ai.google.dev/api/caching#FunctionDeclaration, Schema at
  https://ai.google.dev/api/caching#Schema): names start with a letter or ``_``, then up to
  63 of ``a-zA-Z0-9_.:-``; Vertex AI documents parameter names as ``^[A-Za-z_][A-Za-z0-9_]{0,63}$``;
  ``parameters`` is an OpenAPI 3.0 subset with the fields ``type`` (written lowercase, as in
  the function-calling guide), ``format``, ``title``, ``description``, ``nullable``,
  ``enum`` (strings only), ``properties``, ``required``, ``minProperties``,
  ``maxProperties``, ``items``, ``minItems``, ``maxItems``, ``minLength``, ``maxLength``,
  ``pattern``, ``minimum``, ``maximum``, ``anyOf``, ``default``, ``example``,
  ``propertyOrdering``; no ``$ref`` (inlined here; recursion is refused), no
  ``additionalProperties``, no type lists (``nullable: true`` or ``anyOf`` instead), and an
  object must have non-empty ``properties`` (API error "properties: should be non-empty
  for OBJECT type"; a tool without parameters omits ``parameters``). Only ``date-time`` is
  kept of the formats (the Gemini Developer API refuses most others).
* Formats: each platform keeps the ones it documents (the lists below); every other asserted
  format (``idn-email``, ``idn-hostname``, ``uri-reference``, ``iri``, ``iri-reference``,
  ``uri-template``, ``json-pointer``, ``relative-json-pointer``, ``regex``) is dropped with
  a note, for OpenAI, Anthropic and Gemini alike, and passed through to ``jsonschema`` and
  ``mcp``.
* MCP ``Tool`` ``{name, title?, description, inputSchema, outputSchema?,
  annotations?}`` (MCP specification,
  https://modelcontextprotocol.io/specification/2025-06-18/server/tools): ``inputSchema`` is
  a JSON Schema object schema, passed through unchanged, and so is ``outputSchema``, the
  contract's ``output`` (the schema of the tool's ``structuredContent``), when it has one;
  ``title`` and ``annotations`` (the tool hints) are the contract's, when it has them. The
  other platforms' tool definitions have no place for a result schema: their exports leave
  ``output`` out.
"""

from __future__ import annotations

import copy
import dataclasses
import json
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..contract.checker import Contract
from ..contract.errors import Problem
from ..contract.optional import converted_keys
from ..contract.tool_hints import HINTS
from ..families.annotations import export as annotation_export
from ..families.annotations.rules import DESCRIPTION, DIALECT_KEY, TITLE
from ..families.arrays import export as array_export
from ..families.combinators import export as combinator_export
from ..families.combinators.export import ANY_OF
from ..families.formats import export as format_export
from ..families.numbers import export as number_export
from ..families.objects import export as object_export
from ..families.references import export as reference_export
from ..families.references.targets import DEFS
from ..families.strings import export as string_export
from ..families.unevaluated import export as unevaluated_export
from ..families.values import export as value_export
from ..families.values.rules import TYPE
from ..schema import pointers, vocabulary
from ..schema.keywords import HOLDERS, ONE_SCHEMA, SCHEMA_LISTS, SCHEMA_MAPS, subschemas
from ..schema.pointers import SchemaPath
from ..schema.values import json_equal
from .lowering import CANNOT_MERGE, UNENFORCED, KeywordAt, Lowering, Merge, described, merge_listed

TARGETS = (
    "jsonschema",
    "openai",
    "openai-responses",
    "anthropic",
    "gemini",
    "gemini-legacy",
    "mcp",
)
#: The targets a service registers tools with (``schema --all``, :func:`definitions`).
PLATFORMS = ("openai", "openai-responses", "anthropic", "gemini", "gemini-legacy", "mcp")
#: Targets that are another target's rules in a different envelope (lint is shared).
_SAME_RULES = {"openai-responses": "openai", "gemini-legacy": "gemini"}
DIALECT = "https://json-schema.org/draft/2020-12/schema"

OPENAI_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
ANTHROPIC_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")
GEMINI_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]{0,63}")
GEMINI_PARAMETER_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")

OPENAI_MAX_PROPERTIES = 5000
#: (the fixed bound on an export's size where $refs are inlined: references/export.py)
MAX_INLINED_NODES = reference_export.MAX_INLINED_NODES
OPENAI_MAX_OBJECT_DEPTH = 10
OPENAI_MAX_ENUM_VALUES = 1000
OPENAI_MAX_STRING_CHARS = 120_000
OPENAI_LARGE_ENUM = 250
OPENAI_LARGE_ENUM_CHARS = 15_000
ANTHROPIC_MAX_OPTIONAL = 24
ANTHROPIC_MAX_UNIONS = 16

#: Lower and upper bounds, for merging two schemas into one (the tighter bound wins).
_LOWER = vocabulary.bounds("lower")
_UPPER = vocabulary.bounds("upper")


@dataclass(frozen=True)
class Finding:
    """Something a target refuses, located at a schema node of ``parameters``.

    ``path`` is the schema path under ``parameters`` (so the YAML position is
    ``contract.document.value_at(("parameters", *path))``), ``pointer`` the same as a
    JSON Pointer. ``fatal`` findings make the target refuse the tool outright
    (:func:`export` raises); the others refuse only the target's strict mode.
    """

    target: str
    path: SchemaPath
    message: str
    fatal: bool = False
    document_path: SchemaPath | None = None

    @property
    def pointer(self) -> str:
        return pointers.pointer(self.path)

    @property
    def location(self) -> SchemaPath:
        """The path in the contract file (``("parameters", ...)``, or ``("name",)``)."""
        return self.document_path if self.document_path is not None else ("parameters", *self.path)

    def problem(self, contract: Contract) -> Problem:
        """This finding as a located Problem: ``file:line:col: error: message``."""
        line, col = contract.document.value_at(self.location)
        return Problem(contract.file, line, col, self.message)

    def __str__(self) -> str:
        return self.message


@dataclass(frozen=True)
class ConvertedKey:
    """An optional property that the OpenAI strict export lists in ``required`` with ``null`` allowed.

    ``path`` is the schema path (under ``parameters``) of the object schema that holds the
    property, ``key`` the property name. ``contract_allows_null`` says whether the contract
    itself accepts ``null`` for it: if not, a ``null`` from the model means "absent" and the
    generated package removes the key before validation; if so, ``null`` keeps the
    contract's meaning and the model has no way to leave the key out.
    """

    path: SchemaPath
    key: str
    contract_allows_null: bool

    @property
    def pointer(self) -> str:
        return pointers.pointer(object_export.property_path(self.path, self.key))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, for templates: ``{"schema_path": [...], "key": ..., "contract_allows_null": ...}``."""
        return {
            "schema_path": list(self.path),
            "key": self.key,
            "contract_allows_null": self.contract_allows_null,
        }


@dataclass
class ExportResult:
    """A tool definition for one target, and what the target leaves to the generated validator."""

    target: str
    definition: dict[str, Any]
    notes: list[str] = field(default_factory=list)
    #: openai and anthropic: whether the definition turns strict mode on; None for the other targets.
    strict: bool | None = None
    #: openai with strict mode on: the optional keys made required and nullable (in schema order).
    converted: list[ConvertedKey] = field(default_factory=list)
    #: openai and anthropic with strict mode off: why strict mode cannot be used (never silent).
    strict_refused: list[Finding] = field(default_factory=list)
    #: openai and anthropic with strict mode on: the open objects exported closed (schema paths).
    closed: list[SchemaPath] = field(default_factory=list)

    def to_json(self) -> str:
        """The definition as JSON text (2-space indent, UTF-8 kept), ending in a newline."""
        return json.dumps(self.definition, indent=2, ensure_ascii=False) + "\n"


class ExportError(Exception):
    """The target refuses the tool outright; ``findings`` says where and why."""

    def __init__(self, target: str, findings: list[Finding]) -> None:
        self.target = target
        self.findings = findings
        super().__init__("\n".join(f.message for f in findings))


def lint(contract: Contract, target: str) -> list[Finding]:
    """What ``target`` refuses in ``contract``, each finding located at a schema node.

    For ``openai`` and ``anthropic`` the findings are the reasons strict mode cannot be
    used (plus, marked ``fatal``, what the platform refuses even without it); for
    ``gemini-legacy`` everything found is fatal; ``gemini`` (``parametersJsonSchema``)
    refuses only names; ``jsonschema`` and ``mcp`` take any contract.
    """
    _check_target(target)
    rules = _SAME_RULES.get(target, target)
    if rules in ("jsonschema", "mcp"):
        return []
    if target == "gemini":
        return _gemini_name_findings(contract)
    return _Lowering(contract, target).run()[1]


def export(contract: Contract, target: str) -> ExportResult:
    """The tool definition of ``contract`` for ``target`` (see the module documentation).

    Raises :class:`ExportError` when the target refuses the tool outright (``fatal``
    findings of :func:`lint`); ``ValueError`` for an unknown target.
    """
    _check_target(target)
    result = _export(contract, target, _Lowerings())
    result.definition = copy.deepcopy(result.definition)  # never shares data with the contract
    return result


def export_each(
    contract: Contract, targets: Sequence[str] = PLATFORMS
) -> dict[str, ExportResult | ExportError]:
    """What :func:`export` gives for each of ``targets`` (its result, or the ExportError it
    would raise), made at once: the targets that share rules (openai and openai-responses)
    share one lowering. Nothing is copied, so a definition may share data with the contract
    and with the other targets' definitions: it is for serialising (the generated package's
    tool lists), never to be changed; :func:`export` gives a definition of one's own."""
    for target in targets:
        _check_target(target)
    lowerings = _Lowerings()
    results: dict[str, ExportResult | ExportError] = {}
    for target in targets:
        try:
            results[target] = _export(contract, target, lowerings)
        except ExportError as exc:
            results[target] = exc
    return results


def definitions(contracts: list[Contract], target: str) -> list[dict[str, Any]]:
    """Every tool's definition for ``target``, in the order given: the list a service registers.

    This is what ``toolshape schema --all --target X`` prints (as a JSON array) and what the
    generated package embeds for ``tool_definitions(X)``. Raises :class:`ExportError` (all
    fatal findings of every tool) when the target refuses any tool outright, so a list is
    never silently short of a tool.
    """
    _check_target(target)
    found: list[Finding] = []
    listed: list[dict[str, Any]] = []
    for checked in contracts:
        try:
            listed.append(export(checked, target).definition)
        except ExportError as exc:
            found.extend(exc.findings)
    if found:
        raise ExportError(target, found)
    return listed


#: A lowering that has run: the lowering, and what its run() gave (lowered, findings, notes).
_Lowered = tuple["_Lowering", dict[str, Any], list[Finding], list[str]]


@dataclasses.dataclass
class _Lowerings:
    """One contract's lowerings, made as its targets ask for them."""

    #: Each rules' lowering, run once (the targets that share rules share it).
    runs: dict[str, _Lowered] = dataclasses.field(default_factory=dict)
    #: What their size walks found alike, shared by all of them (inlined_sizes).
    sizes: dict[str, Any] = dataclasses.field(default_factory=dict)


def _lowered(contract: Contract, target: str, lowerings: _Lowerings) -> _Lowered:
    """The lowering of ``contract`` for ``target``'s rules, run once per rules in ``lowerings``:
    a target that shares its rules with one lowered before takes that lowering, its findings
    named for ``target`` (the lowering reads only the rules; the findings name the target)."""
    rules = _SAME_RULES.get(target, target)
    if rules not in lowerings.runs:
        lowering = _Lowering(contract, target, lowerings.sizes)
        lowerings.runs[rules] = (lowering, *lowering.run())
    lowering, lowered, findings, notes = lowerings.runs[rules]
    if any(finding.target != target for finding in findings):
        findings = [dataclasses.replace(finding, target=target) for finding in findings]
    return lowering, lowered, findings, notes


def _export(contract: Contract, target: str, lowerings: _Lowerings) -> ExportResult:
    """The definition for ``target``, sharing data with the contract (the callers copy or only
    read it); ``lowerings`` keeps each rules' lowering for the targets that share them."""
    if target == "jsonschema":
        return _export_jsonschema(contract)
    if target == "mcp":
        return _export_mcp(contract)
    if target == "gemini":
        return _export_gemini_json_schema(contract)
    rules = _SAME_RULES.get(target, target)
    lowering, lowered, findings, notes = _lowered(contract, target, lowerings)
    fatal = [f for f in findings if f.fatal]
    if fatal:
        raise ExportError(target, fatal)
    if rules == "gemini":
        declaration: dict[str, Any] = {"name": contract.name, DESCRIPTION: contract.description}
        if object_export.declares_keys(lowered):
            declaration["parameters"] = lowered
        return ExportResult(target, declaration, notes)
    strict = not findings
    converted: list[ConvertedKey] = []
    closed: list[SchemaPath] = []
    if strict:
        parameters = lowered
        converted = list(lowering.converted.values())
        closed = list(lowering.closed_objects)
        if closed:
            notes = notes + [_closed_note(lowering.platform, closed)]
        if converted:
            notes = notes + [_converted_note(converted)]
    else:
        parameters = _strip_extensions(contract.parameters)
        if rules == "openai":
            parameters = _openai_fillers(parameters)
        mode = "OpenAI strict mode" if rules == "openai" else "Anthropic strict tool use"
        notes = [
            (
                f"{mode} is off ({len(findings)} problem{'s' if len(findings) != 1 else ''}: "
                f"see lint --target {target}): the model is not constrained by this schema, "
                "and the generated validator is the only enforcement of every constraint"
            )
        ]
    if target == "openai":
        function = {
            "name": contract.name,
            DESCRIPTION: contract.description,
            "parameters": parameters,
            "strict": strict,
        }
        return ExportResult(
            target,
            {TYPE: "function", "function": function},
            notes,
            strict,
            converted,
            findings,
            closed,
        )
    if target == "openai-responses":
        responses = {
            TYPE: "function",
            "name": contract.name,
            DESCRIPTION: contract.description,
            "parameters": parameters,
            "strict": strict,
        }
        return ExportResult(target, responses, notes, strict, converted, findings, closed)
    tool: dict[str, Any] = {
        "name": contract.name,
        DESCRIPTION: contract.description,
        "input_schema": parameters,
    }
    if strict:
        tool["strict"] = True
    return ExportResult(target, tool, notes, strict, [], findings, closed)


def _closed_note(platform: str, closed: list[SchemaPath]) -> str:
    """Which open objects the strict export closes, and what that means for the model."""
    places = ", ".join(_where(path) for path in closed)
    objects = "objects" if len(closed) != 1 else "object"
    return (
        f"{platform}: the open {objects} at {places} {'are' if len(closed) != 1 else 'is'} exported "
        "closed (additionalProperties: false), as strict mode requires: the model sends only the "
        "listed keys (a narrowing), and keys the contract would take beyond them cannot be sent"
    )


def _converted_note(converted: list[ConvertedKey]) -> str:
    """Which optional keys OpenAI strict mode sees as required and nullable, and what a null then means."""
    plain = [c.pointer for c in converted if not c.contract_allows_null]
    ambiguous = [c.pointer for c in converted if c.contract_allows_null]
    parts = []
    if plain:
        parts.append(
            f"optional key{'s' * (len(plain) != 1)} {', '.join(plain)} "
            f"{'are' if len(plain) != 1 else 'is'} exported as required with null allowed (OpenAI strict mode "
            "requires every key): a null there means the key is absent"
        )
    if ambiguous:
        parts.append(
            f"optional key{'s' * (len(ambiguous) != 1)} {', '.join(ambiguous)} "
            f"already allow{'s' * (len(ambiguous) == 1)} null in the contract and "
            f"{'are' if len(ambiguous) != 1 else 'is'} exported as required: a null there "
            "keeps the contract's meaning (the model cannot leave such a key out)"
        )
    return "; ".join(parts)


def _gemini_name_findings(contract: Contract) -> list[Finding]:
    """What Gemini refuses whatever the parameters field: the function name."""
    if GEMINI_NAME.fullmatch(contract.name):
        return []
    message = (
        "Gemini function names start with a letter or _ and have at most 64 of a-z A-Z 0-9 _ . : -: "
        f"rename the tool {contract.name!r}"
    )
    return [
        Finding("gemini", (), message, True, ("name",))
    ]  # the same for gemini-legacy (reported there too)


def _export_gemini_json_schema(contract: Contract) -> ExportResult:
    """A Gemini FunctionDeclaration with ``parametersJsonSchema``: the contract's schema ($ref, anyOf and all)."""
    fatal = _gemini_name_findings(contract)
    if fatal:
        raise ExportError("gemini", fatal)
    declaration = {
        "name": contract.name,
        DESCRIPTION: contract.description,
        "parametersJsonSchema": _strip_extensions(contract.parameters),
    }
    return ExportResult("gemini", declaration, _format_notes(contract.parameters))


def _openai_fillers(parameters: Any) -> Any:
    """Add the no-op ``items: {}`` and ``properties: {}`` OpenAI requires on every array and object schema.

    OpenAI refuses "array schema missing items" and "object schema missing properties"
    even with strict mode off; an empty ``items`` or ``properties`` constrains nothing.
    """

    def fill(node: dict[str, Any]) -> dict[str, Any]:
        types = value_export.types_of(node)
        # (An empty items evaluates every item: unevaluatedItems' meaning moves into it.)
        array_export.fill_items(node, types, unevaluated_export.items_in_its_place)
        object_export.fill_properties(node, types)
        return node

    return _map_schema(parameters, fill)


def _check_target(target: str) -> None:
    if target not in TARGETS:
        raise ValueError(f"unknown target {target!r}; choose one of {', '.join(TARGETS)}")


def _export_jsonschema(contract: Contract) -> ExportResult:
    parameters = contract.parameters
    definition = {
        DIALECT_KEY: DIALECT,
        TITLE: contract.name,
        DESCRIPTION: contract.description,
        **parameters,
    }
    notes = []
    if TITLE in parameters and parameters[TITLE] != contract.name:
        notes.append(
            f"the schema's own title {parameters[TITLE]!r} is kept; the tool name {contract.name!r} is not in this document"
        )
    if DESCRIPTION in parameters and parameters[DESCRIPTION] != contract.description:
        notes.append(
            "the schema's own description is kept; the tool description is not in this document"
        )
    return ExportResult("jsonschema", definition, notes + _format_notes(parameters))


def _export_mcp(contract: Contract) -> ExportResult:
    tool: dict[str, Any] = {"name": contract.name}
    # The contract's own title; a contract without one shows its schema's title, if any.
    title = contract.title if contract.title is not None else contract.parameters.get(TITLE)
    if isinstance(title, str):
        tool[TITLE] = title
    tool[DESCRIPTION] = contract.description
    tool["inputSchema"] = contract.parameters
    places = _format_places(contract.parameters)
    if contract.output is not None:  # the result's schema, as the arguments' is written
        tool["outputSchema"] = contract.output
        places += [f"outputSchema {place}" for place in _format_places(contract.output)]
    if contract.annotations:  # as declared: a client applies MCP's defaults to the rest
        tool["annotations"] = {
            h: contract.annotations[h] for h in HINTS if h in contract.annotations
        }
    return ExportResult("mcp", tool, format_export.annotation_note(places))


def _format_notes(parameters: Any) -> list[str]:
    """``format`` is asserted by the generated validator but only annotates in plain JSON Schema 2020-12."""
    return format_export.annotation_note(_format_places(parameters))


def _format_places(schema: Any) -> list[str]:
    """Where ``schema`` holds a ``format`` (for the note of :func:`_format_notes`)."""
    return [
        _where(path)
        for node, path, _ in _walk(schema)
        if format_export.asserted(node.get(format_export.FORMAT))
    ]


# -- the lowering: one contract schema -> what a platform accepts -------------------


class _Lowering:
    """Translates ``parameters`` for openai (strict), anthropic (strict) or gemini.

    Every subschema is lowered bottom-up: ``fold`` turns one node (with its ``$ref`` and
    ``allOf`` merged in) into the platform's spelling, its subschemas lowered first;
    ``finish`` then checks and completes the node as a whole. Findings and notes are
    collected, each once.
    """

    def __init__(
        self, contract: Contract, target: str, shared_sizes: dict[str, Any] | None = None
    ) -> None:
        self.contract = contract
        #: What this contract's other lowerings found of the sizes (see inlined_sizes).
        self.shared_sizes = {} if shared_sizes is None else shared_sizes
        #: The target findings name; ``target`` is the rules it shares ("openai-responses" -> "openai").
        self.named = target
        target = _SAME_RULES.get(target, target)
        self.target = target
        self.root = contract.parameters
        self.platform = {
            "openai": "OpenAI strict mode",
            "anthropic": "Anthropic strict tool use",
            "gemini": "Gemini",
        }[target]
        self.findings: dict[tuple[SchemaPath, str], Finding] = {}
        self.notes: dict[str, None] = {}
        #: Where each lowered property schema came from (a $ref target's properties are
        #: reported there, however often the target is inlined): id -> (schema, path).
        self.origins: dict[int, tuple[Any, SchemaPath]] = {}
        #: Targets of the $refs being inlined (the root counts: a "#" reference recurses).
        self.stack: list[SchemaPath] = [()]
        #: Each $ref target's fold, by its path, and the recursions met (see
        #: references/export.py's inlined_target).
        self.inlined: dict[SchemaPath, dict[str, Any]] = {}
        self.recursions = 0
        #: openai: the optional keys listed in ``required`` with null allowed, by (object path, key).
        self.converted: dict[tuple[SchemaPath, str], ConvertedKey] = {}
        #: openai and anthropic: the open objects exported closed, in the order met (see closed).
        self.closed_objects: dict[SchemaPath, None] = {}

    # -- reporting ---------------------------------------------------------------

    def refuse(
        self,
        path: SchemaPath,
        message: str,
        *,
        fatal: bool = False,
        document_path: SchemaPath | None = None,
    ) -> None:
        fatal = fatal or self.target == "gemini"
        self.findings.setdefault(
            (path, message), Finding(self.named, path, message, fatal, document_path)
        )

    def dropped(
        self, path: SchemaPath, keyword: str, detail: str = "", *, value: Any = None
    ) -> None:
        """Note a constraint the export leaves out (``value``: shown as 'keyword: value')."""
        shown = keyword if value is None else f"{keyword}: {_short(value)}"
        what = f"'{shown}'" + (f" ({detail})" if detail else "")
        self.notes.setdefault(
            f"{self.platform} does not enforce {what} at {_where(path)}: the generated validator is the only enforcement"
        )

    def closed(self, path: SchemaPath) -> None:
        """Record an open object the strict export closes (said in one note when strict is on)."""
        self.closed_objects.setdefault(path)

    def loosened(self, path: SchemaPath, message: str) -> None:
        self.notes.setdefault(
            f"{self.platform}: {message} at {_where(path)}; the generated validator is the only enforcement"
        )

    # -- the walk ----------------------------------------------------------------

    def run(self) -> tuple[dict[str, Any], list[Finding], list[str]]:
        self.tool_level_checks()
        if self.inlining_limits():
            # Refused before anything is inlined: the export would be too large to make.
            return value_export.of_type("object"), self.ordered_findings(), list(self.notes)
        lowered = self.lower(self.root, ())
        if not isinstance(lowered, dict):  # the root is always an object schema
            lowered = value_export.of_type("object")
        if self.target == "openai":
            self.openai_limits(lowered)
        elif self.target == "anthropic":
            self.anthropic_limits(lowered)
        return lowered, self.ordered_findings(), list(self.notes)

    def ordered_findings(self) -> list[Finding]:
        """The findings, the fatal ones first, each in the order of the contract."""
        return sorted(self.findings.values(), key=lambda f: (not f.fatal, self._line(f)))

    def inlining_limits(self) -> bool:
        """Whether inlining the $refs the platform inlines would pass one of its limits (refused):
        counted before anything is inlined, since a DAG of definitions doubles at every level.
        A limit the contract passes without inlining is left to the lowering's own checks."""
        inlined, plain = reference_export.inlined_sizes(self)
        added = inlined.nodes - plain.nodes
        # (the count, the contract's own, the limit, the message). The nodes inlining adds are
        # bounded, not the nodes it makes: a contract of any size is lowered in linear time.
        limits = [
            (
                inlined.nodes,
                plain.nodes,
                plain.nodes + MAX_INLINED_NODES,
                f"inlining these $refs would add {added} schema nodes to the contract's {plain.nodes}; "
                f"toolshape's export for {self.platform} allows at most {MAX_INLINED_NODES} more",
            )
        ]
        if self.target == "openai":
            made = f"inlining these $refs would make {inlined.properties} properties"
            limits.append(
                (
                    inlined.properties,
                    plain.properties,
                    OPENAI_MAX_PROPERTIES,
                    f"{made}; {self.platform} allows at most {OPENAI_MAX_PROPERTIES}",
                )
            )
            made = f"inlining these $refs would make {inlined.depth} levels of object nesting"
            limits.append(
                (
                    inlined.depth,
                    plain.depth,
                    OPENAI_MAX_OBJECT_DEPTH,
                    f"{made}; {self.platform} allows at most {OPENAI_MAX_OBJECT_DEPTH}",
                )
            )
        refused = False
        for would_make, own, limit, message in limits:
            if would_make > limit >= own:
                self.refuse((), message)
                refused = True
        return refused

    def _line(self, finding: Finding) -> tuple[int, int]:
        return self.contract.document.value_at(finding.location)

    def tool_level_checks(self) -> None:
        name = self.contract.name
        if self.target in ("openai", "anthropic"):
            pattern = OPENAI_NAME if self.target == "openai" else ANTHROPIC_NAME
            if not pattern.fullmatch(name):
                who = "OpenAI function" if self.target == "openai" else "Anthropic tool"
                self.refuse(
                    (),
                    f"{who} names are 1-64 characters of a-z A-Z 0-9 _ - (no dots): rename the tool {name!r}",
                    fatal=True,
                    document_path=("name",),
                )
        for path, message, fatal in combinator_export.root_refusals(self.target, self.root):
            self.refuse(path, message, fatal=fatal)
        if self.target == "gemini":
            if not GEMINI_NAME.fullmatch(name):
                self.refuse(
                    (),
                    f"Gemini function names start with a letter or _ and have at most 64 of a-z A-Z 0-9 _ . : -: rename the tool {name!r}",
                    document_path=("name",),
                )
            for key in object_export.keys_of(self.root):
                if not GEMINI_PARAMETER_NAME.fullmatch(key):
                    self.refuse(
                        object_export.property_path((), key),
                        f"Gemini (Vertex AI) parameter names start with a letter or _ and have at most 64 of a-z A-Z 0-9 _: rename the parameter {key!r}",
                    )
            object_export.gemini_root_map(self, self.root)
        if self.target == "anthropic":
            for path in reference_export.recursive_refs(self.root):
                self.refuse(
                    path,
                    "Anthropic strict tool use refuses recursive schemas, and this $ref is recursive",
                )

    def lower(self, schema: Any, path: SchemaPath) -> Any:
        if isinstance(schema, bool):
            return self.lower_bool(schema, path)
        return self.finish(self.fold(schema, path), path)

    def lower_bool(self, schema: bool, path: SchemaPath) -> Any:
        if self.target == "openai":
            what = "accepts anything" if schema else "accepts nothing"
            self.refuse(
                path,
                f"the schema at {_where(path)} is '{str(schema).lower()}' ({what}); OpenAI strict mode needs a schema with a '{TYPE}'",
            )
            return schema
        if self.target == "gemini":
            if not schema:
                self.dropped(path, "false", "nothing is allowed here")
            return {}
        return schema

    def fold(self, schema: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
        """One node in the platform's spelling, with its $ref and allOf merged in (not yet finished)."""
        node = dict(schema)
        parts = reference_export.inlined_target(self, node, path)
        for branch, where in combinator_export.merged_entries(node, path):
            if isinstance(branch, bool):
                folded = self.lower_bool(branch, where)
                parts.append((folded if isinstance(folded, dict) else {}, where))
            else:
                parts.append((self.fold(branch, where), where))
        result = self.keywords(node, path)
        for part, where in parts:
            result = self.merge(result, part, where)
        return result

    def keywords(self, node: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
        """Every keyword of one node except $ref (when inlined) and allOf, lowered."""
        out: dict[str, Any] = {}
        for keyword, value in node.items():
            if keyword.startswith("x-") or keyword in annotation_export.SILENT:
                continue
            lowering = _KEYWORD_LOWERINGS.get(keyword, _Lowering.untranslated)
            lowering(self, KeywordAt(keyword, value, node, path), out)
        return out

    # -- one method per keyword (dispatched by _KEYWORD_LOWERINGS) -----------------
    #
    # Each puts the keyword's lowering into ``out`` (the lowered node), or notes why the
    # platform gets less than the contract says. A keyword family's lowering is the
    # family's ``export.lower`` (families/numbers/export.py, families/arrays/export.py,
    # families/combinators/export.py, families/objects/export.py, families/values/export.py),
    # called the same way.

    def untranslated(self, kw: KeywordAt, out: dict[str, Any]) -> None:
        """A keyword this module does not know yet: never passed on silently."""
        self.dropped(kw.path, kw.keyword, "not translated for this platform")

    # -- merging ($ref beside keywords, allOf) -------------------------------------

    def merge(
        self, base: dict[str, Any], extra: dict[str, Any], where: SchemaPath
    ) -> dict[str, Any]:
        """One schema for base AND extra, or a loosening of it (noted): base wins on annotations."""
        out = dict(base)
        for key, value in extra.items():
            if key not in out:
                out[key] = value
                continue
            mine = out[key]
            if json_equal(mine, value) or key in annotation_export.KEYWORDS:
                continue
            _KEYWORD_MERGES.get(key, _cannot_merge)(self, key, mine, value, where, out)
        return out

    def merge_schemas(self, a: Any, b: Any, where: SchemaPath) -> Any:
        if a is True or (isinstance(a, dict) and not a):
            return b
        if b is True or (isinstance(b, dict) and not b):
            return a
        if a is False or b is False:
            return False
        return self.merge(a, b, where)

    # -- finishing a node --------------------------------------------------------

    def finish(self, node: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
        if isinstance(node.get(ANY_OF), list):
            branches: list[Any] = []
            for branch in node[ANY_OF]:
                if not any(json_equal(branch, seen) for seen in branches):
                    branches.append(branch)
            node = dict(node)
            if len(branches) == 1 and isinstance(branches[0], dict):
                del node[ANY_OF]
                node = self.merge(node, branches[0], path + (ANY_OF, 0))
            else:
                node[ANY_OF] = branches
        if self.target == "gemini":
            return described(self.finish_gemini(node, path))
        return described(self.finish_strict(node, path))

    def finish_strict(self, node: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
        openai = self.target == "openai"
        node = value_export.strict_type(self, node, path)
        types = value_export.types_of(node)
        if object_export.is_object(node, types):
            node = object_export.strict_object(self, node, path)
            if openai:
                node = self.openai_require_every_key(node, path)
        if openai:
            array_export.openai_items(self, node, types, path)
        return node

    def openai_require_every_key(self, node: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
        """List every property in ``required``, adding null to each optional one (recorded in ``converted``).

        OpenAI strict mode needs every key required; a model that would leave an optional
        key out sends null instead, and the generated package removes that null again
        (unless the contract itself allows null there, which the record says).
        """
        node = dict(node)
        properties, required = object_export.keys_of(node), object_export.required_of(node)
        # Whether the contract allows null for a key is asked of the contract's own schema
        # for it where the lowering knows which that is (a loosening accepts null wherever
        # the contract does, so the lowered schema is the fallback for merged properties).
        places: dict[str, SchemaPath] = {}
        schemas: dict[str, Any] = {}
        for key, sub in properties.items():
            origin = self.origins.get(id(sub))
            known = origin is not None and origin[0] is sub and len(origin[1]) >= 2
            places[key] = origin[1][:-2] if origin is not None and known else path
            schemas[key] = pointers.resolve(self.root, origin[1]) if origin and known else sub
        for key, allows_null in converted_keys(self.root, schemas, required):
            where = places[key]
            if not allows_null:
                # The model sends null for this key when it leaves it out; the generated
                # package removes that null before validation (platform="openai").
                properties[key] = value_export.or_null(properties[key])
            self.converted.setdefault((where, key), ConvertedKey(where, key, allows_null))
            required.append(key)
        return object_export.with_keys(node, properties, required)

    def finish_gemini(self, node: dict[str, Any], path: SchemaPath) -> dict[str, Any]:
        """The node in Gemini's legacy spelling (OpenAPI 3.0): one type with ``nullable``,
        string enums, inclusive bounds, no ``additionalProperties``."""
        node = dict(node)
        types, nullable = value_export.gemini_values(self, node, path)
        number_export.gemini_inclusive_bounds(self, node, path)
        object_export.gemini_drop_additional_properties(self, node, path)
        node = value_export.gemini_type(self, node, types, nullable, path)
        several_types = len([t for t in types if t != "null"]) > 1
        self.gemini_refusals(node, path, split=several_types)
        return node

    def gemini_refusals(self, node: dict[str, Any], path: SchemaPath, *, split: bool) -> None:
        """What Gemini's legacy parameters cannot take (``split``: the node's types became anyOf)."""
        if value_export.is_of_type(node, "array"):
            array_export.gemini_items(self, node, path)
        made = node.get(ANY_OF, []) if split else []
        if path and any(
            value_export.is_of_type(n, "object") and not object_export.declares_keys(n)
            for n in [node, *made]
        ):
            object_export.gemini_free_form(self, path)

    # -- platform limits -----------------------------------------------------------

    def openai_limits(self, lowered: dict[str, Any]) -> None:
        properties = enum_values = chars = 0
        deepest: tuple[int, SchemaPath] = (0, ())
        for node, path, depth in _walk(lowered):
            keys = object_export.keys_of(node)
            properties += len(keys)
            chars += sum(len(k) for k in keys)
            if isinstance(node.get(DEFS), dict):
                chars += sum(len(k) for k in node[DEFS])
            values = value_export.members(node)
            if values is not None:
                enum_values += len(values)
                size = sum(len(v) for v in values if isinstance(v, str))
                chars += size
                if len(values) > OPENAI_LARGE_ENUM and size > OPENAI_LARGE_ENUM_CHARS:
                    self.refuse(
                        value_export.members_path(path),
                        f"this enum has {len(values)} values with {size} characters in all; OpenAI strict mode allows at most "
                        f"{OPENAI_LARGE_ENUM_CHARS} characters in an enum of more than {OPENAI_LARGE_ENUM} strings",
                    )
            chars += len(value_export.const_text(node) or "")
            if depth > deepest[0]:
                deepest = (depth, path)
        if properties > OPENAI_MAX_PROPERTIES:
            self.refuse(
                (),
                f"the schema has {properties} properties; OpenAI strict mode allows at most {OPENAI_MAX_PROPERTIES}",
            )
        if deepest[0] > OPENAI_MAX_OBJECT_DEPTH:
            self.refuse(
                deepest[1],
                f"objects nest {deepest[0]} levels deep here; OpenAI strict mode allows at most {OPENAI_MAX_OBJECT_DEPTH}",
            )
        if enum_values > OPENAI_MAX_ENUM_VALUES:
            self.refuse(
                (),
                f"the schema has {enum_values} enum values; OpenAI strict mode allows at most {OPENAI_MAX_ENUM_VALUES}",
            )
        if chars > OPENAI_MAX_STRING_CHARS:
            self.refuse(
                (),
                f"property names, definition names and enum/const strings have {chars} characters; "
                f"OpenAI strict mode allows at most {OPENAI_MAX_STRING_CHARS}",
            )

    def anthropic_limits(self, lowered: dict[str, Any]) -> None:
        optional = unions = 0
        for node, _path, _depth in _walk(lowered):
            optional += len(object_export.optional_keys(node))
            if value_export.several_types(node):
                unions += 1
        if optional > ANTHROPIC_MAX_OPTIONAL:
            self.refuse(
                (),
                f"the schema has {optional} optional properties; Anthropic strict tool use allows at most "
                f"{ANTHROPIC_MAX_OPTIONAL} optional parameters (in all strict tools of a request)",
            )
        if unions > ANTHROPIC_MAX_UNIONS:
            self.refuse(
                (),
                f"the schema has {unions} schemas with '{ANY_OF}' or a list of types; Anthropic strict tool use allows at most "
                f"{ANTHROPIC_MAX_UNIONS} (in all strict tools of a request)",
            )


_KeywordLowering = Callable[[_Lowering, KeywordAt, dict[str, Any]], None]

#: How each keyword is lowered (the rest: :meth:`_Lowering.untranslated`): a method here or
#: its family's ``export.lower``.
_KEYWORD_LOWERINGS: dict[str, _KeywordLowering] = {
    **dict.fromkeys(annotation_export.KEYWORDS, annotation_export.lower),
    **dict.fromkeys(reference_export.KEYWORDS, reference_export.lower),
    **dict.fromkeys(value_export.KEYWORDS, value_export.lower),
    **dict.fromkeys(object_export.KEYWORDS, object_export.lower),
    **dict.fromkeys(combinator_export.KEYWORDS, combinator_export.lower),
    format_export.FORMAT: format_export.lower,
    **dict.fromkeys(string_export.KEYWORDS, string_export.lower),
    **dict.fromkeys(object_export.SIZES, object_export.lower_size),
    **dict.fromkeys(number_export.KEYWORDS, number_export.lower),
    **dict.fromkeys(array_export.KEYWORDS, array_export.lower),
    **dict.fromkeys(unevaluated_export.KEYWORDS, unevaluated_export.lower),
}


def _cannot_merge(
    lowering: Lowering, key: str, mine: Any, value: Any, where: SchemaPath, out: dict[str, Any]
) -> None:
    lowering.dropped(where, key, CANNOT_MERGE)


def _tighter_lower(
    lowering: Lowering, key: str, mine: Any, value: Any, where: SchemaPath, out: dict[str, Any]
) -> None:
    """Two lower bounds merged: the higher (the tighter)."""
    if isinstance(mine, (int, float)) and isinstance(value, (int, float)):
        out[key] = max(mine, value)
    else:
        _cannot_merge(lowering, key, mine, value, where, out)


def _tighter_upper(
    lowering: Lowering, key: str, mine: Any, value: Any, where: SchemaPath, out: dict[str, Any]
) -> None:
    """Two upper bounds merged: the lower (the tighter)."""
    if isinstance(mine, (int, float)) and isinstance(value, (int, float)):
        out[key] = min(mine, value)
    else:
        _cannot_merge(lowering, key, mine, value, where, out)


#: How two values of each keyword merge (the rest: :func:`_cannot_merge`): its family's
#: ``export.merge``, or a bound's tighter value.
_KEYWORD_MERGES: dict[str, Merge] = {
    **dict.fromkeys(value_export.MERGED, value_export.merge),
    **dict.fromkeys(object_export.MERGED, object_export.merge),
    **dict.fromkeys(reference_export.MERGED, reference_export.merge),
    **dict.fromkeys(array_export.MERGED, array_export.merge),
    **dict.fromkeys(_LOWER, _tighter_lower),
    **dict.fromkeys(_UPPER, _tighter_upper),
    UNENFORCED: merge_listed,
}


# -- helpers --------------------------------------------------------------------------


def _short(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _where(path: SchemaPath) -> str:
    return pointers.pointer(path) or "the root"


def _walk(
    schema: Any, path: SchemaPath = (), depth: int = 0
) -> Iterator[tuple[dict[str, Any], SchemaPath, int]]:
    """Every dict schema under ``schema`` with its path and object-nesting depth (the root object is 1)."""
    if not isinstance(schema, dict):
        return
    nests = "object" in value_export.types_of(schema) or object_export.has_keys(schema)
    depth = depth + 1 if nests else depth
    yield schema, path, depth
    for sub, where in subschemas(schema, path):
        yield from _walk(sub, where, depth)


def _strip_extensions(schema: Any) -> Any:
    """``schema`` without toolshape's ``x-*`` keywords (property names are kept)."""
    return _map_schema(
        schema, lambda node: {k: v for k, v in node.items() if not k.startswith("x-")}
    )


def _map_schema(schema: Any, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """Apply ``change`` to every schema node (bottom-up), rebuilding the containers."""
    if not isinstance(schema, dict):
        return schema
    node = dict(schema)
    if HOLDERS.isdisjoint(node):  # a leaf (most nodes): no keyword to look for
        return change(node)
    for keyword in ONE_SCHEMA:
        if isinstance(node.get(keyword), dict):
            node[keyword] = _map_schema(node[keyword], change)
    for keyword in SCHEMA_LISTS:
        if isinstance(node.get(keyword), list):
            node[keyword] = [_map_schema(sub, change) for sub in node[keyword]]
    for keyword in SCHEMA_MAPS:
        if isinstance(node.get(keyword), dict):
            node[keyword] = {key: _map_schema(sub, change) for key, sub in node[keyword].items()}
    return change(node)
