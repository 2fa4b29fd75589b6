"""Checking a loaded contract: every keyword known, well-typed and satisfiable.

The whole contract is checked before anything is rendered (as ``dataclasses``
validates its fields before emitting code), so rendering never fails half way
and every problem is reported at once, located at its YAML node.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from ..families.annotations import rules as annotation_rules
from ..families.arrays import rules as array_rules
from ..families.combinators import rules as combinator_rules
from ..families.formats import rules as format_rules
from ..families.numbers import rules as number_rules
from ..families.objects import rules as object_rules
from ..families.references import rules as reference_rules
from ..families.references.targets import DEFS, REF
from ..families.strings import rules as string_rules
from ..families.unevaluated import rules as unevaluated_rules
from ..families.values import rules as value_rules
from ..schema import vocabulary
from ..schema.keywords import ONE_SCHEMA, SCHEMA_LISTS, SCHEMA_MAPS
from ..schema.pointers import SchemaPath
from ..schema.values import is_integer, json_type
from . import fields, shared, source, tool_hints, unfolding
from .errors import ContractError, Problem
from .reference import CANNOT_TELL, errors_of, refuses_every_value
from .source import Document
from .wording import suggest, with_article, yaml_text

TOOL_NAME_RE = re.compile(r"[A-Za-z0-9_.-]{1,64}")
JSON_TYPES = vocabulary.JSON_TYPES
MAX_SCHEMA_DEPTH = 32
#: The size limit of the generated parse() (MAX_TEXT_BYTES in _runtime.py.j2): a
#: minimum count above it can never be met by arguments that arrive as text.
MAX_ARGUMENT_BYTES = 1_048_576

#: Top-level keys of a contract file.
CONTRACT_KEYS = (*fields.CONTRACT_KEYS, *tool_hints.CONTRACT_KEYS)
#: Keys of one entry under ``examples``.
EXAMPLE_KEYS = fields.EXAMPLE_KEYS
#: What an example holds: decoded arguments, raw argument text, or a decoded result.
EXAMPLE_VALUES = ("args", "json", "result")
_EXAMPLE_VALUE_WORDS = {
    "args": "'args' (decoded arguments)",
    "json": "'json' (raw text)",
    "result": "'result' (a decoded result of the tool)",
}
EXAMPLE_STATUSES = ("accept", "reject", "parse_error")
#: A contract that reaches no shared-definitions file.
_NO_FILES: shared.Files = {}
#: Where a contract sits when nobody says: at the top of its contracts folder.
_AT_TOP = PurePosixPath("contract.yaml")

#: Keywords that take a non-negative integer.
COUNT_KEYWORDS = vocabulary.taking("count")
#: Keywords with no effect on validation: the 2020-12 meta-data and content vocabularies, $comment and $anchor.
ANNOTATIONS = vocabulary.annotation_names(root=False)
#: Annotations allowed only on the root of 'parameters' or 'output' (a nested $id would change how $refs resolve).
ROOT_ANNOTATIONS = vocabulary.root_only()
#: The formats toolshape asserts: those of JSON Schema 2020-12 (a name outside it is a typo).
FORMATS = vocabulary.format_names()
#: Every schema keyword the generator implements, in the order checks are emitted.
SCHEMA_KEYWORDS = vocabulary.implemented()
#: Keywords of the JSON Schema vocabulary this version does not implement yet:
#: named in the error so nobody mistakes them for typos.
NOT_YET = vocabulary.not_yet()


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
    #: Whether ``args`` holds a tool's result (the example's ``result``), checked against ``output``.
    of_result: bool = False


@dataclass
class Contract:
    """A contract that passed every check."""

    name: str
    description: str
    parameters: Any
    examples: list[Example]
    document: Document
    sensitive: list[SchemaPath] = field(default_factory=list)
    #: Findings that do not stop generation (``path:line:col: warning: ...``).
    warnings: list[Problem] = field(default_factory=list)
    #: The schema of the tool's result (``output``), None when the contract has none.
    output: Any = None
    #: The x-sensitive places under ``output``, and the examples that hold a result.
    output_sensitive: list[SchemaPath] = field(default_factory=list)
    result_examples: list[Example] = field(default_factory=list)
    #: The contract key whose schema ``parameters`` holds: "output" in a result side.
    root_key: str = "parameters"
    #: The MCP display title and tool hints (``tool_hints``), as the contract declares them.
    title: str | None = None
    annotations: dict[str, bool] = field(default_factory=dict)

    @property
    def file(self) -> str:
        return self.document.file

    def source_of(self, path: SchemaPath) -> str:
        """``file:line`` of the schema node at ``path`` under ``parameters`` (or ``output``): in
        the shared-definitions file it was copied from, for a shared definition."""
        return self.document.source_of((self.root_key, *path))

    def line_of(self, path: SchemaPath) -> int:
        """The 1-based line of the schema node at ``path`` under ``parameters`` (or ``output``)."""
        return self.document.value_at((self.root_key, *path))[0]

    def result_side(self) -> Contract | None:
        """The contract as the result's validator sees it: ``output`` in the place of
        ``parameters``, its sensitive places and result examples (None without ``output``).

        Every stage that reads ``parameters`` (the model builder, the masks, the derived
        cases, the reference evaluator) then builds the result's part from the same code."""
        if self.output is None:
            return None
        return dataclasses.replace(
            self,
            parameters=self.output,
            examples=self.result_examples,
            sensitive=self.output_sensitive,
            warnings=[],
            output=None,
            output_sensitive=[],
            result_examples=[],
            root_key="output",
        )


class _Checker:
    """Walks one contract document collecting problems."""

    def __init__(self, document: Document) -> None:
        self.doc = document
        self.problems: list[Problem] = []
        self.warnings: list[Problem] = []
        #: The x-sensitive places, from the document root (("parameters", ...) or ("output", ...)).
        self.sensitive: list[SchemaPath] = []
        #: The schema being walked: "parameters", or "output" (its root, and what $refs resolve in).
        self.top = "parameters"
        #: Errors left unsaid because they were about a value the YAML check refused.
        self.unread = 0
        #: The schema local $refs resolve in, and the path of the schema that may hold $id.
        self.root_schema: Any = None
        self.root_path: SchemaPath = ("parameters",)
        #: Whether the document is a shared-definitions file (shared.py): its references to
        #: other files are followed, and checked, where a contract uses them.
        self.shared = False

    def error(self, path: SchemaPath, message: str, *, at_key: bool = False) -> None:
        if not at_key and self.refused(path):  # a key is read as written, whatever its value
            self.unread += 1
            return
        self.problems.append(self.doc.problem(path, message, at_key=at_key))

    def warn(self, path: SchemaPath, message: str, *, at_key: bool = False) -> None:
        """A finding that does not stop generation (an annotation that contradicts its schema,
        legal JSON Schema that surely says what was not meant)."""
        if not self.refused(path):
            self.warnings.append(self.doc.problem(path, message, at_key=at_key, severity="warning"))

    def refused(self, path: SchemaPath) -> bool:
        """Whether a finding at ``path`` is about a value the YAML check refused (a null that
        stands for it, or the mapping or list that holds it): the YAML problem already says
        what is wrong there, and a second message about the stand-in would mislead."""
        return any(
            path[: len(place)] == place or (len(place) == len(path) + 1 and place[:-1] == path)
            for place in self.doc.refused
        )

    # -- the contract file -------------------------------------------------

    def contract(self) -> tuple[str, str, Any, Any, list[Example]]:
        data = self.doc.data
        if not isinstance(data, dict):
            self.error(
                (),
                f"a contract is a mapping with name, description and parameters, not {with_article(json_type(data))}",
            )
            return "", "", {}, None, []
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
        description = data.get(fields.DESCRIPTION)
        if fields.DESCRIPTION not in data:
            self.error((), f"missing '{fields.DESCRIPTION}': the model needs it to choose the tool")
        elif not isinstance(description, str) or not description.strip():
            self.error((fields.DESCRIPTION,), f"'{fields.DESCRIPTION}' must be a non-empty string")
        if "parameters" not in data:
            self.error((), "missing 'parameters': the JSON Schema of the tool's arguments")
            parameters: Any = {}
        else:
            parameters = data["parameters"]
            self.root(parameters, "parameters")
        output = data.get("output")
        if "output" in data:
            self.root(output, "output")
        examples = self.examples(
            data.get(fields.EXAMPLES), fields.EXAMPLES in data, isinstance(output, dict)
        )
        return (
            name if isinstance(name, str) else "",
            description if isinstance(description, str) else "",
            parameters,
            output,
            examples,
        )

    def root(self, schema: Any, top: str) -> None:
        """One of the contract's schemas (``top``: "parameters" or "output"), every rule the same."""
        self.top = top
        path: SchemaPath = (top,)
        self.root_schema, self.root_path = schema, path
        if isinstance(schema, bool):
            return  # JSON Schema's true or false: read as the object schema it means (check())
        if not isinstance(schema, dict):
            self.error(
                path,
                f"'{top}' must be an object schema (a mapping with type: object) or true/false",
            )
            return
        for where, message, at_key in value_rules.root(schema, path):
            self.error(where, message, at_key=at_key)
        self.schema(schema, path, depth=0)

    def definitions(self) -> None:
        """A shared-definitions file (shared.py): ``$defs`` of schemas, each checked as any
        contract schema is, with its local references resolved in the file."""
        data = self.doc.data
        for key in data if isinstance(data, dict) else ():
            if key not in shared.SHARED_KEYS and not key.startswith("x-"):
                hint = suggest(key, shared.SHARED_KEYS)
                if key in CONTRACT_KEYS:
                    hint = f"; a file under {shared.SHARED_FOLDER}/ holds shared definitions, not a tool"
                self.error((key,), f"unknown key '{key}'{hint}", at_key=True)
        if not isinstance(data, dict) or not isinstance(data.get(DEFS), dict):
            self.error(
                (),
                f"a file under {shared.SHARED_FOLDER}/ holds shared definitions: a mapping with "
                f"'{DEFS}', the schemas contracts refer to (a tool's contract goes elsewhere)",
            )
            return
        self.shared = True
        self.top, self.root_schema, self.root_path = self.doc.file, data, ()
        for name, schema in data[DEFS].items():
            self.schema(schema, (DEFS, name), depth=1)

    # -- schemas -----------------------------------------------------------

    def schema(self, schema: Any, path: SchemaPath, depth: int) -> None:
        """Check one schema node and, recursively, its subschemas."""
        if isinstance(schema, bool):
            return
        if not isinstance(schema, dict):
            hint = f"; did you mean {{type: {schema}}}?" if schema in JSON_TYPES else ""
            self.error(
                path,
                f"{_schema_place(path)} must be a schema (a mapping such as {{type: string}}, or true/false), "
                f"not {with_article(json_type(schema))} ({yaml_text(schema)}){hint}",
            )
            return
        if depth > MAX_SCHEMA_DEPTH:
            self.error(path, f"schemas nest deeper than {MAX_SCHEMA_DEPTH} levels")
            return
        for keyword in schema:
            if keyword in SCHEMA_KEYWORDS or keyword.startswith("x-"):
                continue
            if keyword in ROOT_ANNOTATIONS:
                if path != self.root_path:
                    self.error(
                        path + (keyword,),
                        f"'{keyword}' is allowed only on the root of '{self.top}': a nested one would change how "
                        "$refs inside it resolve (toolshape import resolves them to #/$defs pointers)",
                        at_key=True,
                    )
                continue
            if keyword in NOT_YET:
                self.error(
                    path + (keyword,),
                    f"'{keyword}' is not supported by this version of toolshape" + _advice(keyword),
                    at_key=True,
                )
            elif keyword == value_rules.NULLABLE:
                hint = value_rules.nullable_hint(schema)
                self.error(path + (keyword,), f"unknown keyword '{keyword}'{hint}", at_key=True)
            elif keyword == combinator_rules.DISCRIMINATOR:
                hint = combinator_rules.discriminator_hint(schema)
                self.error(path + (keyword,), f"unknown keyword '{keyword}'{hint}", at_key=True)
            else:
                hint = suggest(keyword, SCHEMA_KEYWORDS)
                self.error(path + (keyword,), f"unknown keyword '{keyword}'{hint}", at_key=True)
        types = self.type_keyword(schema, path)
        self.applicability(schema, path, types)
        self.extensions(schema, path)
        self.values(schema, path, types)
        self.counts(schema, path)
        self.bounds(schema, path, types)
        self.pattern(schema, path)
        self.annotations(schema, path, depth)
        self.object_keywords(schema, path, depth)
        self.subschemas(schema, path, depth)
        self.applicator_rules(schema, path)
        self.arrays(schema, path)

    def arrays(self, schema: dict[str, Any], path: SchemaPath) -> None:
        """items, prefixItems, contains and uniqueItems: their family's rules."""
        for where, message in array_rules.check(schema, path):
            self.error(where, message)
        for where, message in array_rules.warnings(schema, path):
            self.warn(where, message)

    def subschemas(self, schema: dict[str, Any], path: SchemaPath, depth: int) -> None:
        """Recurse into every keyword that holds schemas (but those object_keywords walks first)."""
        refused = array_rules.not_schemas(schema)
        for keyword in ONE_SCHEMA:
            if keyword in schema and keyword != object_rules.ADDITIONAL and keyword not in refused:
                self.schema(schema[keyword], path + (keyword,), depth + 1)
        for keyword in SCHEMA_LISTS:
            if keyword in schema:
                value = schema[keyword]
                if not isinstance(value, list) or not value:
                    self.error(
                        path + (keyword,), f"'{keyword}' must be a non-empty list of schemas"
                    )
                    continue
                for i, sub in enumerate(value):
                    self.schema(sub, path + (keyword, i), depth + 1)
        for keyword in SCHEMA_MAPS:
            if keyword in schema and keyword != object_rules.PROPERTIES:
                value = schema[keyword]
                if not isinstance(value, dict):
                    self.error(path + (keyword,), f"'{keyword}' must be a mapping to schemas")
                    continue
                for key, sub in value.items():
                    self.schema(sub, path + (keyword, key), depth + 1)
        for pattern, where in object_rules.key_patterns(schema, path):
            self.check_pattern(pattern, where, at_key=True)

    def applicator_rules(self, schema: dict[str, Any], path: SchemaPath) -> None:
        """$ref and format (their families' rules), the keywords that need another."""
        if not (self.shared and shared.is_external(schema.get(REF))):
            for where, message in reference_rules.check(schema, path, self.root_schema, self.top):
                self.error(where, message)
        for where, message in format_rules.check(schema, path):
            self.error(where, message)
        for where, message in format_rules.warnings(schema, path):
            self.warn(where, message)
        for keyword, needed in _NEEDS:
            if keyword in schema and needed not in schema:
                # Legal JSON Schema that means nothing: the generated code ignores it too.
                self.warn(
                    path + (keyword,),
                    f"'{keyword}' has no effect without '{needed}': it is ignored, and nothing "
                    "is generated for it",
                    at_key=True,
                )

    def applicability(
        self, schema: dict[str, Any], path: SchemaPath, types: tuple[str, ...] | None
    ) -> None:
        """A keyword for a kind of value the schema's types rule out would silently never be
        checked."""
        if types is None:
            return
        kinds = {"number" if t == "integer" else t for t in types}
        for keyword in schema:
            kind = _KEYWORD_KIND.get(keyword)
            if kind is None or kind in kinds:
                continue
            if keyword == object_rules.REQUIRED and isinstance(schema[keyword], bool):
                continue  # a property's 'required: true': its family's rules say where it belongs
            side = (
                "min"
                if keyword.startswith(("min", "exclusiveMin"))
                else "max"
                if keyword.startswith(("max", "exclusiveMax"))
                else ""
            )
            meant = next((_COUNTERPART[k][side] for k in types if side and k in _COUNTERPART), None)
            hint = f"; did you mean '{meant}'?" if meant else ""
            self.error(
                path + (keyword,),
                f"'{keyword}' applies only to {kind}s, and '{value_rules.TYPE}' ({', '.join(types)}) allows none: "
                f"it would never be checked{hint}",
                at_key=True,
            )

    def dead_values(self, schema: Any, path: SchemaPath, root: Any) -> None:
        """enum values and a const the rest of their schema refuses, and default/examples
        their schema refuses (warnings).

        Run only on a contract that passed every other check (the reference
        evaluator expects well-formed schemas). An enum value or a const that can never
        pass is legal JSON Schema: the generated checks keep its meaning (the value never
        passes), and the warning says it is still listed to the model. ``default`` and a
        schema's ``examples`` are annotations in JSON Schema, and real definitions
        often say ``default: null`` on an optional key that refuses null ("absent"):
        a warning, and nothing downstream takes such a value for a valid one.
        """
        if not isinstance(schema, dict):
            return
        for where, message in unevaluated_rules.warnings(root, schema, path):
            self.warn(where, message)

        def failures(rest: Any, value: Any) -> str:
            return _failures(rest, value, root)

        for where, message in value_rules.dead_members(schema, path, failures):
            self.warn(where, message)
        for where, message in value_rules.dead_const(schema, path, failures):
            self.warn(where, message)
        for where, message in annotation_rules.dead_offers(schema, path, failures):
            self.warn(where, message)
        # Not under not/if/then/else: a value there may well be meant to fail.
        for keyword in _CHILD_ONE:
            if keyword in schema:
                self.dead_values(schema[keyword], path + (keyword,), root)
        for keyword in SCHEMA_LISTS:
            if isinstance(schema.get(keyword), list):
                for i, sub in enumerate(schema[keyword]):
                    self.dead_values(sub, path + (keyword, i), root)
        for keyword in SCHEMA_MAPS:
            if isinstance(schema.get(keyword), dict):
                for key, sub in schema[keyword].items():
                    self.dead_values(sub, path + (keyword, key), root)

    def type_keyword(self, schema: dict[str, Any], path: SchemaPath) -> tuple[str, ...] | None:
        """The types the schema allows: its family's rules (None when absent or wrong)."""
        types, problems = value_rules.declared_types(schema, path)
        for where, message in problems:
            self.error(where, message)
        return types

    def extensions(self, schema: dict[str, Any], path: SchemaPath) -> None:
        if "x-sensitive" in schema:
            if not isinstance(schema["x-sensitive"], bool):
                self.error(path + ("x-sensitive",), "'x-sensitive' must be true or false")
            elif schema["x-sensitive"] and object_rules.under_property_names(path):
                # Keys are in every error path and "unknown key" message: they cannot be redacted.
                self.error(
                    path + ("x-sensitive",),
                    f"'x-sensitive' cannot apply to keys (under '{object_rules.NAMES}'): keys show in error paths "
                    "and messages; mark the values sensitive instead",
                )
            elif schema["x-sensitive"]:
                self.sensitive.append(path)

    def values(
        self, schema: dict[str, Any], path: SchemaPath, types: tuple[str, ...] | None
    ) -> None:
        """enum and const: their family's rules."""
        for where, message in value_rules.check(schema, path, types):
            self.error(where, message)
        for where, message in value_rules.warnings(schema, path, types):
            self.warn(where, message)

    def counts(self, schema: dict[str, Any], path: SchemaPath) -> None:
        for keyword in COUNT_KEYWORDS:
            if keyword in schema:
                value = schema[keyword]
                if not is_integer(value) or value < 0:
                    self.error(path + (keyword,), f"'{keyword}' must be a non-negative integer")
                elif keyword.startswith("min") and value > MAX_ARGUMENT_BYTES:
                    self.error(
                        path + (keyword,),
                        f"'{keyword}' ({value}) is more than the generated parse() accepts in all "
                        f"({MAX_ARGUMENT_BYTES} bytes of argument text): nothing could pass",
                    )
        for low, high, kind in _COUNT_RANGES:
            lo, hi = schema.get(low), schema.get(high)
            needed = vocabulary.keyword(low).needs  # without it, both are ignored (a warning)
            if is_integer(lo) and is_integer(hi) and lo > hi and (not needed or needed in schema):
                # Legal JSON Schema with an exact meaning: the generated code refuses them all.
                self.warn(
                    path + (low,),
                    f"'{low}' ({lo}) is greater than '{high}' ({hi}): as written, no {kind} "
                    "can pass here",
                )

    def bounds(
        self, schema: dict[str, Any], path: SchemaPath, types: tuple[str, ...] | None
    ) -> None:
        """The numeric bounds and multipleOf: their family's rules."""
        for where, message in number_rules.check(schema, path, types):
            self.error(where, message)
        for where, message in number_rules.warnings(schema, path, types):
            self.warn(where, message)

    def pattern(self, schema: dict[str, Any], path: SchemaPath) -> None:
        """pattern: its family's rules (minLength/maxLength are counts, checked in counts())."""
        for where, message in string_rules.check(schema, path):
            self.error(where, message)
        for where, message in string_rules.warnings(schema, path):
            self.warn(where, message)

    def check_pattern(self, pattern: str, path: SchemaPath, *, at_key: bool = False) -> None:
        """A key of patternProperties is a pattern too: the same rules, reported at the key."""
        problem = string_rules.pattern_problem(pattern)
        if problem is not None:
            self.error(path, problem, at_key=at_key)
            return
        warning = string_rules.backtracking_warning(pattern)
        if warning is not None:
            self.warn(path, warning)

    def annotations(self, schema: dict[str, Any], path: SchemaPath, depth: int) -> None:
        """Annotations have no effect on validation, but a malformed one is still a typo to report."""
        for where, message in annotation_rules.check(schema, path):
            self.error(where, message)
        for where, message in reference_rules.annotation_problems(schema, path):
            self.error(where, message)
        for sub, where in annotation_rules.held_schemas(schema, path):
            self.schema(sub, where, depth + 1)

    def object_keywords(self, schema: dict[str, Any], path: SchemaPath, depth: int) -> None:
        """The object family's rules, then the schemas of ``properties`` and
        ``additionalProperties``: walked before the other subschemas, the order in which
        sensitive places are found."""
        for where, message in object_rules.check(schema, path):
            self.error(where, message)
        for where, message in object_rules.warnings(schema, path):
            self.warn(where, message)
        for key, sub in object_rules.properties_of(schema).items():
            self.schema(sub, path + (object_rules.PROPERTIES, key), depth + 1)
        if object_rules.ADDITIONAL in schema:
            self.schema(
                schema[object_rules.ADDITIONAL], path + (object_rules.ADDITIONAL,), depth + 1
            )

    # -- examples ----------------------------------------------------------

    def examples(self, raw: Any, present: bool, has_output: bool) -> list[Example]:
        if not present or raw is None:
            return []
        if not isinstance(raw, list):
            self.error((fields.EXAMPLES,), f"'{fields.EXAMPLES}' must be a list")
            return []
        found: list[Example] = []
        for i, entry in enumerate(raw):
            path: SchemaPath = (fields.EXAMPLES, i)
            if not isinstance(entry, dict):
                self.error(path, "an example is a mapping with 'args' or 'json'")
                continue
            for key in entry:
                if key not in EXAMPLE_KEYS:
                    self.error(
                        path + (key,),
                        f"unknown example key '{key}'{suggest(key, EXAMPLE_KEYS)}",
                        at_key=True,
                    )
            held = [key for key in EXAMPLE_VALUES if key in entry]
            if len(held) > 1:
                first, second = (_EXAMPLE_VALUE_WORDS[key] for key in held[:2])
                self.error(
                    path + (held[1],),
                    f"this example has both {first} and {second}; keep one",
                    at_key=True,
                )
                continue
            if not held:
                self.error(
                    path,
                    "this example has neither 'args' (decoded arguments) nor 'json' (raw text)"
                    " nor 'result' (a decoded result of the tool)",
                )
                continue
            if "result" in entry and not has_output:
                self.error(
                    path + ("result",),
                    "a 'result' example needs the contract's 'output' schema to check it against",
                    at_key=True,
                )
                continue
            if "json" in entry and not isinstance(entry["json"], str):
                self.error(
                    path + ("json",), "'json' is the raw argument text: write it as a string"
                )
                continue
            status = entry.get("status", "accept")
            if status not in EXAMPLE_STATUSES:
                self.error(
                    path + ("status",),
                    f"'status' must be one of {', '.join(EXAMPLE_STATUSES)}{suggest(str(status), EXAMPLE_STATUSES)}",
                )
                continue
            if status == "parse_error" and "json" not in entry:
                self.error(path + ("status",), "only a 'json' example can be a parse_error")
            errors = self.expected_errors(entry, path, status)
            description = entry.get(fields.DESCRIPTION, "")
            if not isinstance(description, str):
                self.error(path + (fields.DESCRIPTION,), f"'{fields.DESCRIPTION}' must be a string")
                description = ""
            found.append(
                Example(
                    index=i,
                    description=description,
                    status=status,
                    args=entry.get("result", entry.get("args")),
                    json=entry.get("json"),
                    has_args="json" not in entry,
                    errors=errors,
                    of_result="result" in entry,
                )
            )
        return found

    def expected_errors(
        self, entry: dict[str, Any], path: SchemaPath, status: str
    ) -> frozenset[tuple[str, str]] | None:
        if "errors" not in entry:
            return None
        raw = entry["errors"]
        if status == "accept":
            self.error(
                path + ("errors",),
                "an accepted example has no errors: set 'status: reject' or drop 'errors'",
            )
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
                self.error(
                    where, "each expected error is {path: JSON Pointer string, code: string}"
                )
                continue
            if item["path"] and not item["path"].startswith("/"):
                self.error(where + ("path",), "a JSON Pointer is '' or starts with '/'")
            pairs.add((item["path"], item["code"]))
        return frozenset(pairs)


def _schema_place(path: SchemaPath) -> str:
    """How a schema at ``path`` is named in messages: the keyword holding it, quoted, or the
    entry of a list or map ("property 'city' in" the map's keyword)."""
    if len(path) >= 2 and path[-2] in SCHEMA_MAPS:
        what = vocabulary.keyword(str(path[-2])).entry
        return f"{what} '{path[-1]}' in '{path[-2]}'"
    if len(path) >= 2 and isinstance(path[-1], int):
        return f"entry {path[-1] + 1} of '{path[-2]}'"
    return f"'{path[-1]}'" if path else "the schema"


#: The kind of value each validation keyword applies to (JSON Schema ignores it on others).
#: Not ``format``: a format beside another type has always been let stand (JSON Schema passes
#: the values a format does not apply to).
_KEYWORD_KIND = {k: t for k, t in vocabulary.type_of_keyword().items() if k != format_rules.FORMAT}
#: The kind of value each validation keyword applies to (public: the importer drops those the
#: declared types rule out).
KEYWORD_KIND = _KEYWORD_KIND
#: The lower and upper bound keyword of each type, for did-you-mean hints.
_COUNTERPART = {
    type_name: {"min": low, "max": high}
    for low, high, kind in vocabulary.ranges()
    if not vocabulary.keyword(low).needs  # (minContains: not the array's own count)
    for type_name in (("integer", "number") if kind == "number" else (kind,))
}
#: The ranges of counts (lower keyword, upper keyword, what they count): every range whose
#: keywords take a count.
_COUNT_RANGES = tuple(r for r in vocabulary.ranges() if vocabulary.keyword(r[0]).value == "count")
#: Keywords with no effect without another, and that other (then: if).
_NEEDS = tuple((k.name, k.needs) for k in vocabulary.KEYWORDS if k.implemented and k.needs)
#: One-schema keywords whose schema applies to a child of the value.
_CHILD_ONE = vocabulary.holders("one", "children")


#: The warning on a root that no value can pass, said loudly: the tool is unusable as written.
_NOTHING_PASSES = {
    "parameters": "as written, NO ARGUMENTS CAN PASS: the generated validator refuses every "
    "call of this tool (see the warnings at the places no value can pass)",
    "output": "as written, NO RESULT CAN PASS: the generated validator refuses every result "
    "of this tool (see the warnings at the places no value can pass)",
}


def _advice(keyword: str) -> str:
    """What the vocabulary advises instead of a keyword the contract refuses ("" when nothing)."""
    instead = vocabulary.keyword(keyword).instead
    return f"; {instead}" if instead else ""


def _failures(schema: Any, value: Any, root: Any) -> str:
    """The keywords (comma-separated) of ``schema`` that refuse ``value``; "" when it passes."""
    try:
        errors = errors_of(schema, value, "", root=root)
    except CANNOT_TELL:  # no warning where the evaluator cannot tell; any other error is a bug
        return ""
    return ", ".join(sorted({code for _, code in errors}))


def check(document: Document) -> Contract:
    """Check a loaded document; raise :class:`ContractError` with every problem found."""
    checker = _Checker(document)
    name, description, parameters, output, examples = checker.contract()
    roots = {"parameters": parameters, "output": output}
    if output is None:
        del roots["output"]
    title, annotations = _tool_hints(checker)
    if not checker.problems and not checker.unread:
        # Before anything evaluates the schema: a cycle would recurse forever.
        for top, schema in roots.items():
            secret = any(place[0] == top for place in checker.sensitive)
            for finding in unfolding.check(schema, tagged=not secret):
                checker.error((top, *finding.path), finding.message)
    if not checker.problems and not checker.unread:
        for top, schema in roots.items():
            checker.dead_values(schema, (top,), schema)
            if refuses_every_value(schema, schema):
                checker.warn((top,), _NOTHING_PASSES[top])
    if checker.problems:
        raise ContractError(checker.problems)
    return Contract(
        name=name,
        description=description,
        parameters=value_rules.object_root(parameters),
        examples=[e for e in examples if not e.of_result],
        document=document,
        sensitive=[p[1:] for p in checker.sensitive if p[0] == "parameters"],
        warnings=sorted(checker.warnings),
        output=None if output is None else value_rules.object_root(output),
        output_sensitive=[p[1:] for p in checker.sensitive if p[0] == "output"],
        result_examples=[e for e in examples if e.of_result],
        title=title,
        annotations=annotations,
    )


class DocumentProblems(ContractError):
    """The problems of a contract whose YAML was read whole: ``document`` holds what it says
    (its tool name, say), null where a YAML problem refused a value."""

    def __init__(self, problems: list[Problem], document: Document) -> None:
        super().__init__(problems)
        self.document = document


def load_and_check(
    raw: bytes,
    file: str,
    relative: PurePosixPath = _AT_TOP,
    files: shared.Files = _NO_FILES,
) -> Contract:
    """Load contract bytes and check them; raise ContractError with every problem found
    (DocumentProblems where the YAML was read whole).

    Where the YAML has problems but could be read whole (a duplicate key, an unquoted ``yes``,
    an alias), the schema is checked as well, so that one run reports both; nothing is said
    about the values the YAML check refused. ``files`` are the shared-definitions files the
    contract reaches (shared.gather, by path in the contracts folder), the contract at
    ``relative`` there: their definitions are copied in before the check (shared.bundle)."""
    try:
        document = source.load(raw, file)
    except source.YamlProblems as error:
        problems = [*error.problems, *_problems_of(error.document, relative, files)]
        raise DocumentProblems(problems, error.document) from None
    try:
        shared.bundle(document, relative, files, check_shared)
        return check(document)
    except ContractError as error:
        raise DocumentProblems(error.problems, document) from None


def shared_problems(raw: bytes, file: str) -> list[Problem]:
    """A shared-definitions file's problems, YAML and schema (none when it checks)."""
    try:
        check_shared(source.load(raw, file))
    except ContractError as error:
        return error.problems
    return []


def check_shared(document: Document) -> None:
    """Check a loaded shared-definitions file; raise ContractError with every problem found."""
    checker = _Checker(document)
    checker.definitions()
    if checker.problems:
        raise ContractError(checker.problems)


def _problems_of(document: Document, relative: PurePosixPath, files: shared.Files) -> list[Problem]:
    """The contract check's errors on ``document`` (none when it passes), with the shared
    definitions it reaches copied in first, as :func:`load_and_check` checks it."""
    try:
        shared.bundle(document, relative, files, check_shared)
        check(document)
    except ContractError as error:
        return error.problems
    return []


def _tool_hints(checker: _Checker) -> tuple[str | None, dict[str, bool]]:
    """The contract's ``title`` and ``annotations``, checked (``tool_hints``)."""
    data = checker.doc.data
    if not isinstance(data, dict):
        return None, {}  # reported by contract()

    def report(path: SchemaPath, message: str, at_key: bool) -> None:
        checker.error(path, message, at_key=at_key)

    title = tool_hints.check_title(data, report)
    return title, tool_hints.check_annotations(data, report, checker.warn)
