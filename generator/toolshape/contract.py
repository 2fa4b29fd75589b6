"""Checking a loaded contract: every keyword known, well-typed and satisfiable.

The whole contract is checked before anything is rendered (as ``dataclasses``
validates its fields before emitting code), so rendering never fails half way
and every problem is reported at once, located at its YAML node.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field
from typing import Any

from .errors import ContractError, Problem
from .source import Document

Path = tuple[str | int, ...]

TOOL_NAME_RE = re.compile(r"[A-Za-z0-9_.-]{1,64}")
JSON_TYPES = ("null", "boolean", "object", "array", "string", "integer", "number")
MAX_SCHEMA_DEPTH = 32
MAX_INT_DIGITS = 300

#: Top-level keys of a contract file.
CONTRACT_KEYS = ("name", "description", "parameters", "examples")
#: Keys of one entry under ``examples``.
EXAMPLE_KEYS = ("args", "json", "status", "errors", "description")
EXAMPLE_STATUSES = ("accept", "reject", "parse_error")

#: Keywords that take a non-negative integer.
COUNT_KEYWORDS = (
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "minProperties",
    "maxProperties",
)
#: Keywords that take a number.
BOUND_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
#: Keywords with no effect on validation.
ANNOTATIONS = ("title", "description", "default", "examples", "$comment")
#: Every schema keyword the generator implements, in the order checks are emitted.
SCHEMA_KEYWORDS = (
    "type",
    "enum",
    "const",
    *COUNT_KEYWORDS,
    "pattern",
    *BOUND_KEYWORDS,
    "multipleOf",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "uniqueItems",
    *ANNOTATIONS,
)
#: Keywords of the JSON Schema vocabulary this version does not implement yet:
#: named in the error so nobody mistakes them for typos.
NOT_YET = (
    "$ref",
    "$defs",
    "definitions",
    "anyOf",
    "oneOf",
    "allOf",
    "not",
    "if",
    "then",
    "else",
    "format",
    "prefixItems",
    "contains",
    "minContains",
    "maxContains",
    "patternProperties",
    "propertyNames",
    "dependentRequired",
    "dependentSchemas",
    "unevaluatedProperties",
    "unevaluatedItems",
    "$id",
    "$schema",
    "$anchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
    "readOnly",
    "writeOnly",
    "deprecated",
)


@dataclass(frozen=True)
class Example:
    """One example from the contract, as declared."""

    index: int
    description: str
    status: str
    args: Any = None
    json: str | None = None
    has_args: bool = False
    errors: frozenset[tuple[str, str]] | None = None


@dataclass
class Contract:
    """A contract that passed every check."""

    name: str
    description: str
    parameters: Any
    examples: list[Example]
    document: Document
    sensitive: list[Path] = field(default_factory=list)

    @property
    def file(self) -> str:
        return self.document.file

    def line_of(self, path: Path) -> int:
        """The 1-based line of the schema node at ``path`` under ``parameters``."""
        return self.document.value_at(("parameters", *path))[0]


def suggest(word: str, known: tuple[str, ...]) -> str:
    """A did-you-mean hint for ``word`` among ``known``, or ``""``."""
    lowered = {k.lower(): k for k in known}
    if word.lower() in lowered:
        return f"; did you mean '{lowered[word.lower()]}'?"
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""


def is_number(value: object) -> bool:
    """JSON's idea of a number: bool is not one, NaN and infinities are not either."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def is_integer(value: object) -> bool:
    """JSON Schema's integer: 1.0 counts."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def json_type(value: object) -> str:
    """The JSON type name of a loaded YAML value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "integer" if is_integer(value) else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def type_allows(types: tuple[str, ...] | None, value: object) -> bool:
    """Whether a ``type`` keyword (None: absent) admits ``value``."""
    if types is None:
        return True
    kind = json_type(value)
    return kind in types or (kind == "integer" and "number" in types)


class _Checker:
    """Walks one contract document collecting problems."""

    def __init__(self, document: Document) -> None:
        self.doc = document
        self.problems: list[Problem] = []
        self.sensitive: list[Path] = []

    def error(self, path: Path, message: str, *, at_key: bool = False) -> None:
        self.problems.append(self.doc.problem(path, message, at_key=at_key))

    # -- the contract file -------------------------------------------------

    def contract(self) -> tuple[str, str, Any, list[Example]]:
        data = self.doc.data
        if not isinstance(data, dict):
            self.error((), "a contract is a mapping with name, description and parameters")
            return "", "", {}, []
        for key in data:
            if key not in CONTRACT_KEYS and not key.startswith("x-"):
                hint = suggest(key, CONTRACT_KEYS)
                self.error((key,), f"unknown contract key '{key}'{hint}", at_key=True)
        name = data.get("name")
        if "name" not in data:
            self.error((), "missing 'name': the tool name the model sees")
        elif not isinstance(name, str) or not TOOL_NAME_RE.fullmatch(name):
            self.error(
                ("name",),
                "'name' must be 1-64 characters of A-Z a-z 0-9 _ . - (the limit the model APIs share)",
            )
        description = data.get("description")
        if "description" not in data:
            self.error((), "missing 'description': the model needs it to choose the tool")
        elif not isinstance(description, str) or not description.strip():
            self.error(("description",), "'description' must be a non-empty string")
        if "parameters" not in data:
            self.error((), "missing 'parameters': the JSON Schema of the tool's arguments")
            parameters: Any = {}
        else:
            parameters = data["parameters"]
            self.root(parameters)
        examples = self.examples(data.get("examples"), "examples" in data)
        return (
            name if isinstance(name, str) else "",
            description if isinstance(description, str) else "",
            parameters,
            examples,
        )

    def root(self, schema: Any) -> None:
        path: Path = ("parameters",)
        if not isinstance(schema, dict):
            self.error(path, "'parameters' must be an object schema (a mapping with type: object)")
            return
        if schema.get("type") != "object":
            where = path + ("type",) if "type" in schema else path
            self.error(where, "the root of 'parameters' must say 'type: object': tool arguments are one JSON object")
        for keyword in ("enum", "const"):
            if keyword in schema:
                self.error(path + (keyword,), f"'{keyword}' is not supported on the root of 'parameters'", at_key=True)
        self.schema(schema, path, depth=0)

    # -- schemas -----------------------------------------------------------

    def schema(self, schema: Any, path: Path, depth: int) -> None:
        """Check one schema node and, recursively, its subschemas."""
        if isinstance(schema, bool):
            return
        if not isinstance(schema, dict):
            self.error(path, f"a schema must be a mapping (or true/false), not {json_type(schema)}")
            return
        if depth > MAX_SCHEMA_DEPTH:
            self.error(path, f"schemas nest deeper than {MAX_SCHEMA_DEPTH} levels")
            return
        for keyword in schema:
            if keyword in SCHEMA_KEYWORDS or keyword.startswith("x-"):
                continue
            if keyword in NOT_YET:
                self.error(path + (keyword,), f"'{keyword}' is not supported by this version of toolshape", at_key=True)
            else:
                hint = suggest(keyword, SCHEMA_KEYWORDS)
                self.error(path + (keyword,), f"unknown keyword '{keyword}'{hint}", at_key=True)
        types = self.type_keyword(schema, path)
        self.extensions(schema, path)
        self.values(schema, path, types)
        self.counts(schema, path)
        self.bounds(schema, path, types)
        self.pattern(schema, path)
        self.annotations(schema, path)
        self.object_keywords(schema, path, depth)
        if "items" in schema:
            self.schema(schema["items"], path + ("items",), depth + 1)
        if "uniqueItems" in schema and not isinstance(schema["uniqueItems"], bool):
            self.error(path + ("uniqueItems",), "'uniqueItems' must be true or false")

    def type_keyword(self, schema: dict, path: Path) -> tuple[str, ...] | None:
        if "type" not in schema:
            return None
        raw = schema["type"]
        names = raw if isinstance(raw, list) else [raw]
        if isinstance(raw, list) and not raw:
            self.error(path + ("type",), "'type' must name at least one type")
            return None
        good: list[str] = []
        for i, name in enumerate(names):
            where = path + ("type", i) if isinstance(raw, list) else path + ("type",)
            if not isinstance(name, str) or name not in JSON_TYPES:
                shown = name if isinstance(name, str) else json_type(name)
                hint = suggest(shown, JSON_TYPES) if isinstance(name, str) else ""
                self.error(where, f"'{shown}' is not a JSON type (one of {', '.join(JSON_TYPES)}){hint}")
            elif name in good:
                self.error(where, f"type '{name}' is listed twice")
            else:
                good.append(name)
        return tuple(good) if len(good) == len(names) else None

    def extensions(self, schema: dict, path: Path) -> None:
        if "x-sensitive" in schema:
            if not isinstance(schema["x-sensitive"], bool):
                self.error(path + ("x-sensitive",), "'x-sensitive' must be true or false")
            elif schema["x-sensitive"]:
                self.sensitive.append(path[1:])

    def values(self, schema: dict, path: Path, types: tuple[str, ...] | None) -> None:
        if "enum" in schema:
            enum = schema["enum"]
            if not isinstance(enum, list) or not enum:
                self.error(path + ("enum",), "'enum' must be a non-empty list of allowed values")
            else:
                seen: list[Any] = []
                for i, member in enumerate(enum):
                    if any(json_equal(member, other) for other in seen):
                        self.error(path + ("enum", i), "this 'enum' value is listed twice")
                    seen.append(member)
                    if not type_allows(types, member):
                        self.error(
                            path + ("enum", i),
                            f"this 'enum' value is a {json_type(member)}, which 'type' does not allow",
                        )
        if "const" in schema:
            const = schema["const"]
            if not type_allows(types, const):
                self.error(path + ("const",), f"'const' is a {json_type(const)}, which 'type' does not allow")
            if isinstance(schema.get("enum"), list) and not any(json_equal(const, m) for m in schema["enum"]):
                self.error(path + ("const",), "'const' is not one of the 'enum' values: nothing could pass")

    def counts(self, schema: dict, path: Path) -> None:
        for keyword in COUNT_KEYWORDS:
            if keyword in schema:
                value = schema[keyword]
                if not is_integer(value) or value < 0:
                    self.error(path + (keyword,), f"'{keyword}' must be a non-negative integer")
        for low, high in (("minLength", "maxLength"), ("minItems", "maxItems"), ("minProperties", "maxProperties")):
            lo, hi = schema.get(low), schema.get(high)
            if is_integer(lo) and is_integer(hi) and lo > hi:
                self.error(path + (low,), f"'{low}' ({lo}) is greater than '{high}' ({hi}): nothing could pass")

    def bounds(self, schema: dict, path: Path, types: tuple[str, ...] | None) -> None:
        for keyword in (*BOUND_KEYWORDS, "multipleOf"):
            if keyword in schema:
                value = schema[keyword]
                if not is_number(value):
                    self.error(path + (keyword,), f"'{keyword}' must be a number")
                elif isinstance(value, int) and len(str(abs(value))) > MAX_INT_DIGITS:
                    self.error(path + (keyword,), f"'{keyword}' has more than {MAX_INT_DIGITS} digits")
                elif keyword == "multipleOf" and value <= 0:
                    self.error(path + (keyword,), "'multipleOf' must be greater than 0")
        low = [(k, schema[k]) for k in ("minimum", "exclusiveMinimum") if is_number(schema.get(k))]
        high = [(k, schema[k]) for k in ("maximum", "exclusiveMaximum") if is_number(schema.get(k))]
        empty = False
        for lo_key, lo in low:
            for hi_key, hi in high:
                inclusive = lo_key == "minimum" and hi_key == "maximum"
                if lo > hi or (lo == hi and not inclusive):
                    empty = True
                    self.error(path + (lo_key,), f"'{lo_key}' ({lo}) and '{hi_key}' ({hi}) leave no number that could pass")
        if types == ("integer",) and low and high and not empty:
            smallest = max(_ceil_above(k, v) for k, v in low)
            largest = min(_floor_below(k, v) for k, v in high)
            if smallest > largest:
                self.error(path + (low[0][0],), "the bounds leave no integer that could pass")

    def pattern(self, schema: dict, path: Path) -> None:
        if "pattern" not in schema:
            return
        pattern = schema["pattern"]
        if not isinstance(pattern, str):
            self.error(path + ("pattern",), "'pattern' must be a string (a regular expression)")
            return
        try:
            re.compile(pattern)
        except (re.error, RecursionError, OverflowError) as exc:
            self.error(path + ("pattern",), f"'pattern' does not compile: {exc}")

    def annotations(self, schema: dict, path: Path) -> None:
        for keyword in ("title", "description", "$comment"):
            if keyword in schema and not isinstance(schema[keyword], str):
                self.error(path + (keyword,), f"'{keyword}' must be a string")
        if "examples" in schema and not isinstance(schema["examples"], list):
            self.error(path + ("examples",), "'examples' in a schema must be a list of values")

    def object_keywords(self, schema: dict, path: Path, depth: int) -> None:
        properties = schema.get("properties", {})
        if not isinstance(properties, dict):
            self.error(path + ("properties",), "'properties' must be a mapping from key to schema")
            properties = {}
        for key, sub in properties.items():
            self.schema(sub, path + ("properties", key), depth + 1)
        additional = schema.get("additionalProperties", True)
        if "additionalProperties" in schema:
            self.schema(additional, path + ("additionalProperties",), depth + 1)
        if "required" not in schema:
            return
        required = schema["required"]
        if not isinstance(required, list) or not all(isinstance(k, str) for k in required):
            self.error(path + ("required",), "'required' must be a list of key names")
            return
        for i, key in enumerate(required):
            where = path + ("required", i)
            if key in required[:i]:
                self.error(where, f"'{key}' is listed twice in 'required'")
            elif key not in properties and additional is False:
                hint = suggest(key, tuple(properties))
                self.error(where, f"'{key}' is required but additionalProperties: false forbids it (not in 'properties'){hint}")
            elif properties.get(key) is False:
                self.error(where, f"'{key}' is required but its schema is false: nothing could pass")
        max_properties = schema.get("maxProperties")
        if is_integer(max_properties) and len(set(required)) > max_properties:
            self.error(path + ("maxProperties",), f"'maxProperties' ({max_properties}) is smaller than the number of required keys ({len(required)})")

    # -- examples ----------------------------------------------------------

    def examples(self, raw: Any, present: bool) -> list[Example]:
        if not present or raw is None:
            return []
        if not isinstance(raw, list):
            self.error(("examples",), "'examples' must be a list")
            return []
        found: list[Example] = []
        for i, entry in enumerate(raw):
            path: Path = ("examples", i)
            if not isinstance(entry, dict):
                self.error(path, "an example is a mapping with 'args' or 'json'")
                continue
            for key in entry:
                if key not in EXAMPLE_KEYS:
                    self.error(path + (key,), f"unknown example key '{key}'{suggest(key, EXAMPLE_KEYS)}", at_key=True)
            if ("args" in entry) == ("json" in entry):
                self.error(path, "an example has exactly one of 'args' (decoded arguments) or 'json' (raw text)")
                continue
            if "json" in entry and not isinstance(entry["json"], str):
                self.error(path + ("json",), "'json' is the raw argument text: write it as a string")
                continue
            status = entry.get("status", "accept")
            if status not in EXAMPLE_STATUSES:
                self.error(path + ("status",), f"'status' must be one of {', '.join(EXAMPLE_STATUSES)}{suggest(str(status), EXAMPLE_STATUSES)}")
                continue
            if status == "parse_error" and "args" in entry:
                self.error(path + ("status",), "only a 'json' example can be a parse_error")
            errors = self.expected_errors(entry, path, status)
            description = entry.get("description", "")
            if not isinstance(description, str):
                self.error(path + ("description",), "'description' must be a string")
                description = ""
            found.append(
                Example(
                    index=i,
                    description=description,
                    status=status,
                    args=entry.get("args"),
                    json=entry.get("json"),
                    has_args="args" in entry,
                    errors=errors,
                )
            )
        return found

    def expected_errors(self, entry: dict, path: Path, status: str) -> frozenset[tuple[str, str]] | None:
        if "errors" not in entry:
            return None
        raw = entry["errors"]
        if status == "accept":
            self.error(path + ("errors",), "an accepted example has no errors: set 'status: reject' or drop 'errors'")
            return None
        if not isinstance(raw, list) or not raw:
            self.error(path + ("errors",), "'errors' must be a non-empty list of {path, code}")
            return None
        pairs: set[tuple[str, str]] = set()
        for j, item in enumerate(raw):
            where = path + ("errors", j)
            if (
                not isinstance(item, dict)
                or set(item) != {"path", "code"}
                or not isinstance(item["path"], str)
                or not isinstance(item["code"], str)
            ):
                self.error(where, "each expected error is {path: JSON Pointer string, code: string}")
                continue
            if item["path"] and not item["path"].startswith("/"):
                self.error(where + ("path",), "a JSON Pointer is '' or starts with '/'")
            pairs.add((item["path"], item["code"]))
        return frozenset(pairs)


def _ceil_above(keyword: str, bound: float) -> int:
    return math.floor(bound) + 1 if keyword == "exclusiveMinimum" else math.ceil(bound)


def _floor_below(keyword: str, bound: float) -> int:
    return math.ceil(bound) - 1 if keyword == "exclusiveMaximum" else math.floor(bound)


def json_equal(a: object, b: object) -> bool:
    """Equality as JSON means it: true is not 1, 1 is 1.0, containers compare deeply."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return a == b
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def check(document: Document) -> Contract:
    """Check a loaded document; raise :class:`ContractError` with every problem found."""
    checker = _Checker(document)
    name, description, parameters, examples = checker.contract()
    if checker.problems:
        raise ContractError(checker.problems)
    return Contract(
        name=name,
        description=description,
        parameters=parameters,
        examples=examples,
        document=document,
        sensitive=checker.sensitive,
    )
