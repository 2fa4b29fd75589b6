"""The intermediate model: a checked contract turned into what templates print.

Every decision about the generated code is made here, in Python: which checks a
value needs and in which order, the names of variables and constants, the
messages, the comments. Templates only loop over this model and lay out code.
Contract text reaches the model only as :class:`~toolshape.codegen.literals.Code` made by
:func:`~toolshape.codegen.literals.literal` or :func:`~toolshape.codegen.literals.comment`.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..contract.checker import ANNOTATIONS, ROOT_ANNOTATIONS, Contract
from ..contract.unfolding import distinct_entries
from ..regex import WHITESPACE as ECMA_WHITESPACE
from ..regex.linear import plan as pattern_plan
from ..schema.keywords import nullable_alternative
from ..schema.pointers import SchemaPath, ref_path, resolve
from .literals import Code, comment, comment_text, literal
from .masks import absent_nulls, redaction_masks, secret_paths
from .model_parts import (
    Applicator,
    ApplicatorKind,
    ArrayChecks,
    Branch,
    Check,
    CheckTest,
    Conditional,
    Constant,
    ConstantKind,
    Contains,
    Dependency,
    Function,
    JsonType,
    Node,
    ObjectChecks,
    PathPart,
    Property,
    RequiredKey,
    extend,
)
from .names import Namer
from .runtime_imports import module_needs
from .typing_model import TypedDictDef, TypedDicts, declared_types

#: The formats asserted, and how messages describe them.
FORMATS = {
    "date-time": "a date-time such as 2024-05-01T09:30:00Z (RFC 3339)",
    "date": "a date such as 2024-05-01 (RFC 3339 full-date)",
    "time": "a time such as 09:30:00Z (RFC 3339 full-time)",
    "duration": "a duration such as P3DT4H (ISO 8601)",
    "email": "an email address",
    "idn-email": "an email address (RFC 6531: non-ASCII allowed)",
    "hostname": "a hostname (RFC 1123)",
    "idn-hostname": "an internationalized hostname (IDNA2008)",
    "ipv4": "an IPv4 address",
    "ipv6": "an IPv6 address",
    "uri": "an absolute URI (RFC 3986)",
    "uri-reference": "a URI reference (RFC 3986)",
    "iri": "an absolute IRI (RFC 3987)",
    "iri-reference": "an IRI reference (RFC 3987)",
    "uri-template": "a URI template (RFC 6570)",
    "uuid": "a UUID",
    "json-pointer": "a JSON Pointer such as /items/0 (RFC 6901)",
    "relative-json-pointer": "a relative JSON Pointer such as 1/name",
    "regex": "a regular expression (ECMA-262, as toolshape translates it)",
}


def format_function(name: str) -> str:
    """The runtime helper that checks a format: ``date-time`` -> ``_is_date_time``."""
    return "_is_" + name.replace("-", "_")


#: How many $ref functions are built inside each other before the next waits (see _Builder.pending).
MAX_NESTED_REFS = 16

#: Patterns that only ask for one non-whitespace character ("not blank").
NON_BLANK_PATTERNS = ("\\S", "[^\\s]")

#: What a type test admits, in words, for messages.
TYPE_WORDS = {
    "null": "null",
    "boolean": "a boolean",
    "object": "an object",
    "array": "an array",
    "string": "a string",
    "integer": "an integer",
    "number": "a number",
}


@dataclass
class ModuleModel:
    """Everything the module template prints.

    Nothing changes a model once ``build`` made it, so what the templates ask of it more
    than once (``integral``, the runtime names) is found by walking it once."""

    tool_name: Code
    description: Code
    schema: Code
    source: Code  # the contract path, for the header comment
    source_literal: Code
    version: Code
    digest: Code
    root: Node
    functions: list[Function]
    constants: list[Constant]
    sensitive: (
        Code  # the redaction masks literal: {"#": the arguments' mask, $ref: its target's mask}
    )
    module_name: Code
    typed_dicts: list[TypedDictDef]
    #: The message for null arguments: the runtime's, or one naming the required keys.
    null_message: Code
    #: Whether the arguments declare keys (``properties``): the Result names them for feedback.
    declares_keys: bool
    #: The command that regenerates it, for the header comment (see ``REGENERATE``).
    command: Code
    #: How many packages deep the module sits in the output folder (billing/x.py: 1).
    depth: int = 0
    #: The masks literal of the nulls ``validate(..., platform="openai")`` removes (see
    #: :class:`_AbsentNulls`; ``{"#": {}}`` when the contract has no such key, so that the
    #: first one changes only this literal).
    absent_nulls: Code = field(default_factory=lambda: literal({"#": {}}))
    #: Whether an x-sensitive schema governs some value: then parse() keeps excerpts of
    #: the text out of its errors (``_without_excerpt``).
    has_secrets: bool = False

    @functools.cached_property
    def integral(self) -> bool:
        """Whether an integer, enum or const check sits anywhere: what it records (an integral
        float, a member as the contract writes it) is what the handler gets on accept."""
        return _has_integral([self.root, *self.functions])

    @functools.cached_property
    def runtime_needs(self) -> frozenset[str]:
        """The runtime names (and ``math``, ``re``) the module's checks use (see runtime_imports.py)."""
        return frozenset(module_needs(self))

    @property
    def keeps_integral(self) -> bool:
        """Whether ``validate()`` holds the list of integral floats: its checks or the functions it calls take it."""
        return bool(self.functions) or self.integral

    @property
    def typing_imports(self) -> Code:
        """The names the module takes from ``typing``: only those it uses."""
        text = " ".join(f.type for d in self.typed_dicts for f in d.required + d.optional)
        used = ["Any", "TypedDict"] + ["Literal"] * ("Literal[" in text)
        return Code(", ".join(sorted(used)))

    @property
    def stdlib_imports(self) -> list[Code]:
        """The module's standard-library imports: ``math`` and ``re`` only where a check uses them."""
        needs = self.runtime_needs
        lines = [f"import {name}" for name in ("math", "re") if name in needs]
        return [Code(line) for line in lines + [f"from typing import {self.typing_imports}"]]

    @property
    def runtime_module(self) -> Code:
        """The shared runtime, relative to the module: ``._runtime``, ``.._runtime`` one package down."""
        return Code("." * (self.depth + 1) + "_runtime")

    @property
    def runtime_imports(self) -> list[Code]:
        """The names the module takes from the shared runtime: only those its checks call."""
        needs = self.runtime_needs - {"math", "re"}
        # isort's order: constants, then classes, then functions, each alphabetical.
        return [
            Code(name)
            for name in sorted(
                needs,
                key=lambda name: (0 if name.isupper() else 1 if name[0].isupper() else 2, name),
            )
        ]


# -- building ----------------------------------------------------------------


class _ModelBuilder:
    def __init__(self, contract: Contract) -> None:
        self.contract = contract
        self.namer = Namer()
        self.constants: list[Constant] = []
        self.functions: list[Function] = []
        self.refs: dict[str, Code] = {}  # $ref -> the function that checks its target
        #: $ref functions named but not built yet. A $ref's function is built where it is first
        #: met, inside the function that refers to it, up to MAX_NESTED_REFS deep; deeper ones
        #: wait here and finish() builds them one after another: a chain of thousands of $refs
        #: costs no deep Python recursion, and the usual contract's output keeps its order.
        self.pending: list[tuple[Function, Any, SchemaPath]] = []
        self.ref_depth = 0
        self.whitespace: Code | None = None
        #: The schemas that apply to values an x-sensitive schema governs: their
        #: messages never name the value or the allowed values.
        self.secret = secret_paths(contract.parameters)
        #: The label a $ref target's checks use: say() makes it the function's ``label``
        #: parameter. (A contract that holds this text keeps the fixed "the value".)
        text = json.dumps(contract.parameters, ensure_ascii=False)
        self.ref_label = _REF_LABEL if _REF_LABEL not in text else "the value"

    def where(self, path: SchemaPath) -> str:
        return f"{self.contract.file}:{self.contract.line_of(path)}"

    def labels(self, label: str) -> bool:
        """Whether ``label`` is a $ref target's: its code then names the value by ``label``."""
        return self.ref_label != "the value" and self.ref_label in label

    def say(self, text: str) -> Code:
        """A message as code: a literal, joined with the ``label`` parameter where the text
        holds ``ref_label`` (in a $ref target's function, the value is called what its
        caller calls it: "address", not "the value")."""
        parts = text.split(self.ref_label) if self.ref_label != "the value" else [text]
        code = " + label + ".join(literal(part) for part in parts)
        return Code(code.removeprefix('"" + ').removesuffix(' + ""'))

    # A node is one schema applied to one value.
    def node(
        self, schema: Any, var: Code, path: list[PathPart], schema_path: SchemaPath, label: str
    ) -> Node:
        with self.namer.block():  # its locals are free again for the next sibling
            return self._node(schema, var, path, schema_path, label)

    def _node(
        self, schema: Any, var: Code, path: list[PathPart], schema_path: SchemaPath, label: str
    ) -> Node:
        if schema is False:
            return Node(
                var,
                path,
                label,
                False,
                [],
                None,
                [],
                self.say(f"{label} is not allowed (the schema is false)"),
            )
        if schema is True or not isinstance(schema, dict):
            return Node(var, path, label, False, [], None, [], None)
        declared = declared_types(schema)
        kinds = list(declared) if declared else _implied_kinds(schema)
        branches = [
            self.branch(kind, schema, var, path, schema_path, label, declared) for kind in kinds
        ]
        any_checks: list[Check] = []
        if declared is None:
            branches = [b for b in branches if not b.empty]
            any_checks = self.value_checks(schema, "any", label, schema_path)
        type_message = None
        if declared:
            words = " or ".join(TYPE_WORDS[k] for k in declared)
            type_message = self.say(f"{label} must be {words}, got ")
        applicators = self.applicators(schema, var, path, schema_path, label)
        node = Node(
            var, path, label, declared is not None, branches, type_message, any_checks, None
        )
        node.secret = schema_path in self.secret
        if declared is None:
            node.applicators = applicators
        else:
            # With a type, they run only once the type is right: a value of the
            # wrong type reports `type` alone.
            for branch in node.branches:
                branch.applicators = applicators
        return node

    # -- applicators: subschemas on the same value --------------------------

    def applicators(
        self,
        schema: dict[str, Any],
        var: Code,
        path: list[PathPart],
        schema_path: SchemaPath,
        label: str,
    ) -> list[Applicator]:
        found: list[Applicator] = []
        # Inside a $ref target the value is called what the caller calls it: the branch
        # functions made here take that label too (see function()).
        passed = Code("label") if self.labels(label) else None

        def note(keyword: str) -> Code:
            return comment(f"{keyword} ({self.where(schema_path + (keyword,))})", limit=120)

        if "$ref" in schema:
            function = self.ref_function(schema["$ref"])
            found.append(Applicator("ref", note("$ref"), function=function, label=self.say(label)))
        if "allOf" in schema:
            # A schema listed twice applies once: its second run finds the same errors (and a
            # nest of such pairs would otherwise double the calls at every level).
            entries = schema["allOf"]
            nodes = [
                self.node(entries[i], var, path, schema_path + ("allOf", i), label)
                for i in distinct_entries(entries)
            ]
            checked = [n for n in nodes if n.has_checks]
            if checked:  # allOf: [{}] checks nothing (and would print an empty block)
                found.append(Applicator("all_of", note("allOf"), nodes=checked))
        for union in ("anyOf", "oneOf"):
            if union not in schema:
                continue
            branches = schema[union]
            nullable = nullable_alternative(branches, exclusive=union == "oneOf")
            if nullable is not None:
                index, other = nullable
                inner = self.node(other, var, path, schema_path + (union, index), label)
                found.append(
                    Applicator(
                        "nullable", note(f"{union}: null, or the other alternative"), nodes=[inner]
                    )
                )
                continue
            functions = [
                self.function(sub, schema_path + (union, i), label)
                for i, sub in enumerate(branches)
            ]
            how = "at least one" if union == "anyOf" else "exactly one"
            message = self.say(f"{label} must match {how} of {len(branches)} alternatives")
            kind: ApplicatorKind = "any_of" if union == "anyOf" else "one_of"
            found.append(
                Applicator(kind, note(union), message=message, functions=functions, label=passed)
            )
        if "not" in schema:
            function = self.function(schema["not"], schema_path + ("not",), label)
            message = self.say(f"{label} must not match the schema under 'not'")
            found.append(
                Applicator("not", note("not"), message=message, function=function, label=passed)
            )
        if "if" in schema and ("then" in schema or "else" in schema):
            function = self.function(schema["if"], schema_path + ("if",), label)
            then = (
                self.node(schema["then"], var, path, schema_path + ("then",), label)
                if "then" in schema
                else None
            )
            otherwise = (
                self.node(schema["else"], var, path, schema_path + ("else",), label)
                if "else" in schema
                else None
            )
            found.append(
                Applicator(
                    "if",
                    note("if"),
                    function=function,
                    then=then,
                    otherwise=otherwise,
                    label=passed,
                )
            )
        return found

    def function(self, schema: Any, schema_path: SchemaPath, label: str) -> Code:
        """A module-level function that checks ``schema`` on (value, path, errors)."""
        name = self.namer.function(_path_hint(schema_path))
        # Inside a $ref target its callers (_any_of, _one_of, _errors_of) hand it the target's
        # label, so that its messages name the value as the target's do.
        function = Function(
            name, comment(self.where(schema_path), limit=120), labelled=self.labels(label)
        )
        self.functions.append(function)
        with self.namer.function_body():
            function.node = self.node(
                schema, Code("value"), [PathPart("base", var=Code("path"))], schema_path, label
            )
        return name

    def ref_function(self, ref: str) -> Code:
        """The function for a local $ref target, made once however often it is used."""
        if ref in self.refs:
            return self.refs[ref]
        target = ref_path(ref)
        name = self.namer.function(str(target[-1]) if target else "arguments")
        self.refs[ref] = name
        function = Function(
            name, comment(f"{ref} ({self.where(target)})", limit=120), labelled=True
        )
        self.functions.append(function)
        schema = resolve(self.contract.parameters, target)
        if self.ref_depth >= MAX_NESTED_REFS:
            self.pending.append((function, schema, target))
        else:
            self.ref_body(function, schema, target)
        return name

    def ref_body(self, function: Function, schema: Any, target: SchemaPath) -> None:
        self.ref_depth += 1
        try:
            with self.namer.function_body():
                function.node = self.node(
                    schema,
                    Code("value"),
                    [PathPart("base", var=Code("path"))],
                    target,
                    self.ref_label,
                )
        finally:
            self.ref_depth -= 1

    def finish(self) -> None:
        """Build the $ref functions left waiting (and those they leave waiting), in order."""
        done = 0
        while done < len(self.pending):
            function, schema, target = self.pending[done]
            done += 1
            self.ref_body(function, schema, target)

    def branch(
        self,
        kind: JsonType,
        schema: dict[str, Any],
        var: Code,
        path: list[PathPart],
        schema_path: SchemaPath,
        label: str,
        declared: tuple[str, ...] | None,
    ) -> Branch:
        branch = Branch(kind)
        pinned = declared is not None
        if kind == "string":
            branch.checks = self.string_checks(schema, label, schema_path)
        elif kind in ("integer", "number"):
            branch.checks = self.number_checks(schema, label, kind)
            branch.integral = kind == "integer"
        elif kind == "array":
            branch.array = self.array_checks(schema, var, path, schema_path, label)
        elif kind == "object":
            branch.object = self.object_checks(schema, var, path, schema_path, label)
        if pinned:
            branch.checks = self.value_checks(schema, kind, label, schema_path) + branch.checks
        return branch

    # -- keyword groups ------------------------------------------------------

    def value_checks(
        self, schema: dict[str, Any], kind: str, label: str, schema_path: SchemaPath
    ) -> list[Check]:
        """enum and const, with a fast comparison where the branch pins the type.

        Under an x-sensitive schema the message says only that the value is not allowed:
        the allowed values would tell the value (or the secret it should have been).
        """
        checks = []
        secret = schema_path in self.secret
        if "enum" in schema:
            members = schema["enum"]
            shown = ", ".join(_show(m) for m in members)
            message = self.say(
                f"{label} must be one of: {shown}" if not secret else f"{label} {_SECRET_ENUM}"
            )
            if kind == "string":
                strings = [m for m in members if isinstance(m, str)]
                name = self.constant(
                    "values", "strings", literal(frozenset(strings)), schema_path + ("enum",)
                )
                checks.append(Check("not_in", literal("enum"), message, name, hint=not secret))
            elif kind == "null":
                if None not in members:
                    checks.append(Check("always", literal("enum"), message))
            else:
                name = self.constant(
                    "values", "json_values", literal(members), schema_path + ("enum",)
                )
                # A string that misses a string member gets did-you-mean, as with type: string.
                strings = [m for m in members if isinstance(m, str)]
                names = (
                    self.constant(
                        "names", "strings", literal(frozenset(strings)), schema_path + ("enum",)
                    )
                    if strings and not secret
                    else None
                )
                checks.append(
                    Check(
                        "json_not_in",
                        literal("enum"),
                        message,
                        name,
                        names,
                        hint=not secret,
                        written=_written_types(members),
                    )
                )
        if "const" in schema:
            const = schema["const"]
            message = self.say(
                f"{label} must be {_show(const)}" if not secret else f"{label} {_SECRET_CONST}"
            )
            if kind == "string" and isinstance(const, str):
                checks.append(Check("not_equal", literal("const"), message, literal(const)))
            elif kind == "null" or const is None:
                checks.append(
                    Check("not_none" if const is None else "always", literal("const"), message)
                )
            else:
                name = self.constant(
                    "const", "json_values", literal([const]), schema_path + ("const",)
                )
                checks.append(
                    Check(
                        "json_not_in",
                        literal("const"),
                        message,
                        name,
                        hint=not secret,
                        written=_written_types([const]),
                    )
                )
        return checks

    def string_checks(
        self, schema: dict[str, Any], label: str, schema_path: SchemaPath
    ) -> list[Check]:
        checks = []
        if "minLength" in schema:
            n = int(schema["minLength"])
            checks.append(
                Check(
                    "shorter",
                    literal("minLength"),
                    self.say(f"{label} must be at least {_chars(n)} long"),
                    literal(n),
                )
            )
        if "maxLength" in schema:
            n = int(schema["maxLength"])
            checks.append(
                Check(
                    "longer",
                    literal("maxLength"),
                    self.say(f"{label} must be at most {_chars(n)} long"),
                    literal(n),
                )
            )
        if "format" in schema and schema["format"] in FORMATS:
            name = schema["format"]
            checks.append(
                Check(
                    "bad_format",
                    literal("format"),
                    self.say(f"{label} must be {FORMATS[name]}"),
                    Code(format_function(name)),
                )
            )
        if "pattern" in schema:
            pattern = schema["pattern"]
            message = self.say(f"{label} must match the pattern {pattern}")
            # Length bounds run first; a too-long string never reaches the regex.
            chained = "maxLength" in schema
            if pattern in NON_BLANK_PATTERNS:
                # No regex needed: one character that is not ECMA-262 whitespace
                # is there exactly when stripping that whitespace leaves something.
                spaces = self.whitespace_constant()
                checks.append(Check("blank", literal("pattern"), message, spaces, chained=chained))
            else:
                # The bound re_is_bounded may rely on: the pattern's elif follows the
                # maxLength check directly (an asserted format in between breaks the chain).
                formatted = schema.get("format") in FORMATS
                bound = None if formatted else _length_limit(schema.get("maxLength"))
                name = self.pattern_constant("pattern", pattern, schema_path + ("pattern",), bound)
                checks.append(Check("no_match", literal("pattern"), message, name, chained=chained))
        return checks

    def number_checks(self, schema: dict[str, Any], label: str, kind: str) -> list[Check]:
        checks = []
        wording: dict[str, tuple[CheckTest, str]] = {
            "minimum": ("below", "at least"),
            "exclusiveMinimum": ("not_above", "greater than"),
            "maximum": ("above", "at most"),
            "exclusiveMaximum": ("not_below", "less than"),
        }
        for bound_keyword, (test, words) in wording.items():
            if bound_keyword in schema:
                bound = schema[bound_keyword]
                message = self.say(f"{label} must be {words} {_show(bound)}")
                # From 2**53 up a float is not the decimal it is written as (1e23 is 10**23,
                # the float 99999999999999991611392): both sides are compared as written,
                # the integer the handler gets (_exact); below, the verdicts cannot differ.
                exact = abs(bound) >= 2**53
                limit = _decimal_fraction(bound)[0] if exact and isinstance(bound, float) else bound
                checks.append(
                    Check(test, literal(bound_keyword), message, literal(limit), exact=exact)
                )
        if "multipleOf" in schema:
            step = schema["multipleOf"]
            message = self.say(f"{label} must be a multiple of {_show(step)}")
            # Exact in decimal: 1e23 is 10**23 (int(1e23) is not), and a float value is the
            # decimal its repr denotes; `value % step` is used for int values only.
            numerator, denominator = (
                _decimal_fraction(step) if isinstance(step, float) else (int(step), 1)
            )
            if denominator == 1:
                checks.append(
                    Check("not_multiple_int", literal("multipleOf"), message, literal(numerator))
                )
            else:
                checks.append(
                    Check(
                        "not_multiple",
                        literal("multipleOf"),
                        message,
                        literal(numerator),
                        literal(denominator),
                    )
                )
        return checks

    def array_checks(
        self,
        schema: dict[str, Any],
        var: Code,
        path: list[PathPart],
        schema_path: SchemaPath,
        label: str,
    ) -> ArrayChecks:
        checks = []
        if "minItems" in schema:
            n = int(schema["minItems"])
            checks.append(
                Check(
                    "shorter",
                    literal("minItems"),
                    self.say(f"{label} must have at least {_items(n)}"),
                    literal(n),
                )
            )
        if "maxItems" in schema:
            n = int(schema["maxItems"])
            checks.append(
                Check(
                    "longer",
                    literal("maxItems"),
                    self.say(f"{label} must have at most {_items(n)}"),
                    literal(n),
                )
            )
        if schema.get("uniqueItems") is True:
            checks.append(
                Check(
                    "has_duplicates",
                    literal("uniqueItems"),
                    self.say(f"{label} must not contain the same item twice"),
                )
            )
        index = self.namer.local("i")  # before the items: their own loops get i_2
        prefix = []
        for i, sub in enumerate(schema.get("prefixItems", [])):
            child = self.node(
                sub,
                self.namer.local(f"{var}_{i}"),
                extend(path, PathPart("position", str(i))),
                schema_path + ("prefixItems", i),
                f"item {i} of {label}",
            )
            if child.has_checks:
                prefix.append((i, child))
        contains = None
        if ("contains" in schema and schema.get("minContains", 1) != 0) or (
            "maxContains" in schema and "contains" in schema
        ):
            low = int(schema.get("minContains", 1))
            high = int(schema["maxContains"]) if "maxContains" in schema else None
            contains = Contains(
                function=self.function(schema["contains"], schema_path + ("contains",), "an item"),
                minimum=low,
                maximum=high,
                too_few=self.say(
                    f"{label} must contain at least {_items(low)} matching the 'contains' schema"
                ),
                too_many=self.say(
                    f"{label} must contain at most {_items(high or 0)} matching the 'contains' schema"
                )
                if high is not None
                else None,
                too_few_code=literal("minContains" if "minContains" in schema else "contains"),
            )
        item_schema = schema.get("items", True)
        after = len(schema.get("prefixItems", []))
        item = self.node(
            item_schema,
            self.namer.local(f"{var}_item"),
            extend(path, PathPart("index", var=index)),
            schema_path + ("items",),
            f"each item of {label}" + (f" after the first {_items(after)}" if after else ""),
        )
        start = len(schema.get("prefixItems", []))
        if not item.has_checks:
            return ArrayChecks(None, None, checks, prefix, contains, start)
        return ArrayChecks(index, item, checks, prefix, contains, start)

    def object_checks(
        self,
        schema: dict[str, Any],
        var: Code,
        path: list[PathPart],
        schema_path: SchemaPath,
        label: str,
    ) -> ObjectChecks:
        properties_schema = schema.get("properties", {})
        required = list(schema.get("required", []))
        # The names this object's code may use around its properties first: the
        # properties' own objects and loops then get key_2, declared_2.
        key_var = self.namer.local("key")
        item_var = self.namer.local(f"{var}_value")
        count_var = self.namer.local("declared")
        properties = []
        for key, sub in properties_schema.items():
            sub_path = schema_path + ("properties", key)
            key_label = _show(key)
            with self.namer.block():  # a sibling added or removed renames nothing here
                child = self.node(
                    sub,
                    self.namer.local(key),
                    extend(path, PathPart("name", key)),
                    sub_path,
                    key_label,
                )
            properties.append(
                Property(
                    key=literal(key),
                    node=child,
                    required=key in required,
                    missing_message=literal(f"missing required key {key_label}"),
                    comment=self.property_comment(key, sub, key in required, sub_path),
                )
            )
        required_only = [
            RequiredKey(
                literal(key),
                extend(path, PathPart("name", key)),
                literal(f"missing required key {_show(key)}"),
            )
            for key in required
            if key not in properties_schema
        ]
        additional = schema.get("additionalProperties", True)
        patterns = schema.get("patternProperties", {})
        key_path = extend(path, PathPart("key", var=key_var))
        extra = None
        if isinstance(additional, dict):
            extra = self.node(
                additional,
                item_var,
                key_path,
                schema_path + ("additionalProperties",),
                f"the value of each extra key in {label}",
            )
            if not extra.has_checks:
                extra = None
        pattern_properties = []
        key_limit = (
            _length_limit(schema["propertyNames"].get("maxLength"))
            if isinstance(schema.get("propertyNames"), dict)
            else None
        )
        for pattern, sub in patterns.items():
            child = self.node(
                sub,
                item_var,
                key_path,
                schema_path + ("patternProperties", pattern),
                f"the value of a key matching {pattern}",
            )
            name = self.pattern_constant(
                "key_pattern", pattern, schema_path + ("patternProperties",), key_limit
            )
            pattern_properties.append(Conditional(name, child))
        property_names = None
        if "propertyNames" in schema:
            property_names = self.node(
                schema["propertyNames"],
                key_var,
                key_path,
                schema_path + ("propertyNames",),
                "each key",
            )
            if not property_names.has_checks:
                property_names = None
        known = None
        if additional is False or extra is not None:
            known = self.constant(
                "keys",
                "strings",
                literal(frozenset(properties_schema)),
                schema_path + ("properties",),
            )
        allowed = ", ".join(_show(k) for k in properties_schema) or "none"
        counts = []
        if "minProperties" in schema:
            n = int(schema["minProperties"])
            counts.append(
                Check(
                    "shorter",
                    literal("minProperties"),
                    self.say(f"{label} must have at least {_keys(n)}"),
                    literal(n),
                )
            )
        if "maxProperties" in schema:
            n = int(schema["maxProperties"])
            counts.append(
                Check(
                    "longer",
                    literal("maxProperties"),
                    self.say(f"{label} must have at most {_keys(n)}"),
                    literal(n),
                )
            )
        dependencies = [
            Dependency(
                literal(key),
                [
                    RequiredKey(
                        literal(need),
                        extend(path, PathPart("name", need)),
                        literal(f"{_show(need)} is required when {_show(key)} is present"),
                    )
                    for need in needs
                ],
            )
            for key, needs in schema.get("dependentRequired", {}).items()
            if needs
        ]
        dependent_schemas = [
            Conditional(
                literal(key),
                self.node(sub, var, path, schema_path + ("dependentSchemas", key), label),
            )
            for key, sub in schema.get("dependentSchemas", {}).items()
        ]
        checks = ObjectChecks(
            properties=properties,
            required_only=required_only,
            known_keys=known,
            refuse_unknown=additional is False,
            unknown_message=self.say(f" is not allowed in {label}; allowed keys: {allowed}")
            if additional is False
            else None,
            extra=extra,
            key_var=key_var,
            key_path=key_path,
            counts=counts,
            dependencies=dependencies,
            dependent_schemas=[c for c in dependent_schemas if c.node.has_checks],
            pattern_properties=pattern_properties,
            property_names=property_names,
            item_var=item_var,
            key_limit=literal(key_limit) if pattern_properties and key_limit is not None else None,
        )
        if checks.refuse_unknown and not checks.per_key:
            checks.count_var = count_var
        return checks

    # -- names, constants, comments -------------------------------------------

    def whitespace_constant(self) -> Code:
        if self.whitespace is None:
            self.whitespace = self.namer.constant("whitespace")
            note = Code("what \\s matches in JSON Schema (ECMA-262) patterns")
            # First among the constants, whichever property needs it first: a
            # reorder of properties must not move it in the generated diff.
            self.constants.insert(
                0, Constant(self.whitespace, "text", literal(ECMA_WHITESPACE), note)
            )
        return self.whitespace

    def constant(
        self, suffix: str, kind: ConstantKind, value: Code, schema_path: SchemaPath
    ) -> Code:
        """A module constant for the keyword at ``schema_path``, named for where it is
        (``_CITY_PATTERN``, ``_ATTENDEES_ITEM_KEYS``), not for the variable it checks."""
        name = self.namer.constant(f"{_path_hint(schema_path[:-1]) or 'value'} {suffix}")
        self.constants.append(Constant(name, kind, value, comment(self.where(schema_path))))
        return name

    def pattern_constant(
        self, suffix: str, pattern: str, schema_path: SchemaPath, max_length: int | None
    ) -> Code:
        """The constant that matches ``pattern`` on strings of at most ``max_length`` characters
        (checked before it runs): compiled by ``re`` where toolshape proves ``re`` linear on
        them, else the runtime's linear-time matcher (regex.linear.plan)."""
        plan = pattern_plan(pattern, max_length)
        if plan.source is not None:
            return self.constant(suffix, "pattern", literal(plan.source), schema_path)
        # One JSON text, not a Python list: a program is hundreds of numbers, which black would
        # lay out one per line; the runtime reads the text once, at import.
        program = json.dumps(list(plan.parts), separators=(",", ":"), ensure_ascii=False)
        return self.constant(suffix, "linear", literal(program), schema_path)

    def null_message(self) -> Code:
        """The message for null arguments: with required keys, a constant naming them (the
        runtime's own says "send {} for no arguments")."""
        parameters = self.contract.parameters
        required = parameters.get("required", []) if isinstance(parameters, dict) else []
        if not required:
            return Code("_NULL_ARGUMENTS")
        shown = ", ".join(_show(key) for key in required)
        name = self.namer.constant("null message")
        message = literal(
            f"the arguments must be a JSON object, not null; the required keys are {shown}"
        )
        # Placed at the arguments (not at `required`, which a renamed key rewrites).
        self.constants.append(Constant(name, "text", message, comment(self.where(()))))
        return name

    def property_comment(
        self, key: str, schema: Any, required: bool, schema_path: SchemaPath
    ) -> Code:
        words = ["required" if required else "optional"]
        if isinstance(schema, dict):
            types = declared_types(schema)
            if types:
                words.append(" or ".join(types))
            for keyword, value in schema.items():
                if (
                    keyword in ("type", "properties", "items", "additionalProperties", "required")
                    or keyword in _ANNOTATIONS
                ):
                    continue
                if keyword.startswith("x-"):
                    if keyword == "x-sensitive" and value:
                        words.append("sensitive")
                    continue
                words.append(f"{keyword} {_compact(value)}")
        elif schema is False:
            words.append("never allowed")
        text = comment_text(f"{key}: " + ", ".join(words), limit=80)
        return Code(f"{text} ({comment_text(self.where(schema_path), limit=120)})")


#: Keywords left out of a property's comment: they say nothing about what is accepted.
_ANNOTATIONS = (*ANNOTATIONS, *ROOT_ANNOTATIONS)

#: What an enum or const failure says under an x-sensitive schema (the label goes first).
#: Stands for the label in a $ref target's messages (see _ModelBuilder.say).
_REF_LABEL = "\ufdd0label\ufdd0"
_SECRET_ENUM = "is not one of the allowed values (not listed: the value is sensitive)"
_SECRET_CONST = "is not the allowed value (not shown: the value is sensitive)"


def _path_hint(schema_path: SchemaPath) -> str:
    """Words for names made from a place in the schema: ``attendees item email`` for
    /properties/attendees/items/properties/email; "" for the root."""
    words: list[str] = []
    steps = iter(schema_path)
    for step in steps:
        if step in ("properties", "$defs", "dependentSchemas"):
            words.append(str(next(steps, "")))
        elif step == "patternProperties":  # the next step is a regex: no name in it
            next(steps, None)
            words.append("value")
        elif step in ("allOf", "anyOf", "oneOf"):
            words.append(f"{step} {int(next(steps, 0)) + 1}")
        elif step == "prefixItems":
            words.append(str(next(steps, "")))
        else:
            words.append(_STEP_WORDS.get(str(step), str(step)))
    return " ".join(words)


#: How a schema keyword reads in a name made from a place in the schema.
_STEP_WORDS = {"items": "item", "additionalProperties": "value", "propertyNames": "key"}


#: The command a generated file's header says regenerates it, when the contracts folder is
#: ``contracts`` and the output folder ``generated`` beside it (the command line's defaults).
REGENERATE = "toolshape generate"


def build(
    contract: Contract, module_name: str, digest: str, depth: int = 0, command: str = REGENERATE
) -> ModuleModel:
    """Turn a checked contract into the module model (``depth``: packages between it and the
    runtime; ``command``: what regenerates it, for the header)."""
    builder = _ModelBuilder(contract)
    types = TypedDicts(builder.namer, contract)
    types.typed_dict(contract.parameters, "Arguments", ())
    root = builder.node(contract.parameters, Code("value"), [], (), "the arguments")
    builder.finish()
    null_message = builder.null_message()
    nulls = absent_nulls(contract)
    masks = redaction_masks(contract)
    return ModuleModel(
        tool_name=literal(contract.name),
        description=literal(contract.description),
        schema=literal(contract.parameters),
        source=comment(contract.file, limit=200),
        source_literal=literal(contract.file),
        version=Code(__version__),
        digest=Code(digest),
        root=root,
        functions=builder.functions,
        constants=builder.constants,
        sensitive=literal(masks),
        module_name=Code(module_name),
        typed_dicts=types.defs,
        depth=depth,
        null_message=null_message,
        declares_keys=bool(
            isinstance(contract.parameters, dict) and contract.parameters.get("properties")
        ),
        command=comment(command, limit=400),
        absent_nulls=literal(nulls),
        has_secrets=bool(masks["#"]),
    )


def _has_integral(item: Any) -> bool:
    """Whether an integer check sits anywhere in this piece of the model."""
    todo: list[Any] = [item]
    while todo:
        item = todo.pop()
        if isinstance(item, (list, tuple)):
            todo.extend(item)
        elif isinstance(item, Branch) and item.integral:
            return True
        elif isinstance(item, Check) and item.written:
            return True  # a member JSON-equal to the value reaches the handler as written
        elif hasattr(item, "__dataclass_fields__"):
            todo.extend(getattr(item, name) for name in item.__dataclass_fields__)
    return False


def _length_limit(value: object) -> int | None:
    """A ``maxLength`` as the bound a pattern may rely on (the length check runs first)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if value >= 0 and float(value).is_integer() else None


# -- small pure helpers ----------------------------------------------------------


def _implied_kinds(schema: dict[str, Any]) -> list[JsonType]:
    """Without `type`, each keyword applies to the values of its own type only."""
    return ["string", "number", "array", "object"]


def _show(value: Any) -> str:
    """A value as JSON, short: how messages name keys and allowed values."""
    text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "))
    return text if len(text) <= 60 else text[:57] + "..."


def _compact(value: Any) -> str:
    if isinstance(value, str):
        return f"'{value}'"
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _chars(n: int) -> str:
    return f"{n} character" + ("" if n == 1 else "s")


def _items(n: int) -> str:
    return f"{n} item" + ("" if n == 1 else "s")


def _keys(n: int) -> str:
    return f"{n} key" + ("" if n == 1 else "s")


def _written_types(members: list[Any]) -> tuple[str, ...]:
    """The Python types of a value that JSON-equals one of ``members`` without being it as
    written (Check.written): a float can equal any number (1.0 and 1; 1e23 and 10**23), an
    int a float member (1 and 1.0), an array or object an array or object member."""
    numbers = [m for m in members if type(m) in (int, float)]
    written = ["float"] * bool(numbers)
    written += ["int"] * any(type(m) is float for m in numbers)
    written += ["container"] * any(isinstance(m, (list, dict)) for m in members)
    return tuple(written)


def _decimal_fraction(number: float) -> tuple[int, int]:
    """The decimal value a float is written as (its shortest repr), as numerator/denominator."""
    mantissa, _, exponent = repr(float(number)).lower().partition("e")
    whole, _, fraction = mantissa.partition(".")
    numerator = int(whole + fraction)
    scale = int(exponent or 0) - len(fraction)
    if scale >= 0:
        return numerator * 10**scale, 1
    return numerator, 10**-scale
