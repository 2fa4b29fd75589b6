"""The JSON Schema vocabulary toolshape knows: every keyword named once, and the formats.

One row per keyword says what the stages need to know of it: the JSON type it applies to,
the kind of value it takes, whether it holds subschemas (one, a list, a map) and whether
those apply to the same value or to its children, whether it is an annotation, whether it
is allowed only at the root, the drafts that know it and whether toolshape implements it.
Every keyword list elsewhere in the generator is computed from this table (the checker's
known keywords, the one walk over subschemas, the importer's draft rules, the exporter's
silent annotations, ...): a new keyword is named here once, the way Ajv lists its
vocabulary once in ``lib/vocabularies/*/index.ts``. ``tests/test_vocabulary.py`` fails
when a keyword of the table is missing from a stage that must know it, and when a module
spells a list of keyword names of its own.

The base of the package: it imports nothing else of toolshape.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

#: The drafts toolshape reads, oldest first (``import --draft`` takes the same names).
Draft = Literal["4", "6", "7", "2019-09", "2020-12"]
DRAFTS: tuple[Draft, ...] = ("4", "6", "7", "2019-09", "2020-12")

#: The type names ``type`` takes.
JSON_TYPES = ("null", "boolean", "object", "array", "string", "integer", "number")

#: The kind of value a keyword takes. "count": a non-negative integer; "number": any number;
#: "positive number": a number above 0; "names": a list of distinct key names; "names map": a
#: map from a key to such a list; "schemas or names map": draft 4's ``dependencies`` (a map to
#: a schema or to a list of names); "reference": a URI reference to a schema; "values": a
#: list of any JSON values; "value": any JSON value.
Value = Literal[
    "types",
    "value",
    "values",
    "count",
    "number",
    "positive number",
    "pattern",
    "format",
    "boolean",
    "string",
    "names",
    "names map",
    "schema",
    "schema list",
    "schema map",
    "schemas or names map",
    "reference",
    "anchor",
    "uri",
    "vocabulary map",
]
#: The kinds of value that are a piece of syntax (a pattern, a format's name, a reference):
#: messages and the diff show them as written.
SYNTAX_VALUES: tuple[Value, ...] = ("pattern", "format", "reference")
#: Where the subschemas of a keyword apply: to the value the keyword's schema checks, to
#: children of it (items, keys, the values of keys), or nowhere (definitions that only a
#: ``$ref`` reaches, and ``contentSchema``, which only documents).
Applies = Literal["same value", "children", "nowhere"]
#: The annotations (keywords with no effect on validation), by what they are: "meta-data"
#: (the 2020-12 meta-data vocabulary: what a reader learns of the value), "content" (how a
#: string encodes other data), "comment" (``$comment``) and "core" (the identifiers and the
#: dialect: they place a schema, they never describe a value).
Group = Literal["meta-data", "content", "comment", "core"]
#: What a subschema-holding keyword holds: one schema, a list of schemas, a map of them.
Shape = Literal["one", "list", "map"]
#: Which side of a range a bound keyword closes.
Side = Literal["lower", "upper"]
#: What a keyword's subschemas evaluate of an object or an array when they apply (the
#: annotation 2020-12 says it leaves, which ``unevaluated*`` reads): "named keys" (the keys of
#: its map), "matching keys" (the keys one of its patterns matches), "other keys" and "other
#: items" (every one, together with its siblings), "prefix" (the first items, one per schema
#: of its list), "matching items" (the items its schema matches).
Evaluates = Literal[
    "named keys", "matching keys", "other keys", "prefix", "other items", "matching items"
]
#: For a keyword applying subschemas to children: which children they apply to, what it
#: evaluates (``Evaluates``) or "key names" (the keys themselves, as strings).
Reaches = Literal[
    "named keys",
    "matching keys",
    "other keys",
    "prefix",
    "other items",
    "matching items",
    "key names",
]
#: For a keyword applying subschemas to the value itself: when what they evaluate counts for
#: ``unevaluated*`` (only a subschema that passes leaves annotations): "always" (each must
#: pass for the schema to pass), "passing" (the ones that pass), "if passes" and "if fails"
#: (the branch ``if`` chose), "key present" (a map's entry, when the object holds its key),
#: "never" (``not``: a schema that passes under it makes the value fail).
Collects = Literal["always", "passing", "if passes", "if fails", "key present", "never"]
#: The vocabulary of 2020-12 a keyword belongs to (``format`` serves both format vocabularies:
#: "format"); "" for the keywords of no vocabulary (draft 4's ``id``, and ``definitions`` and
#: ``dependencies``, which 2019-09 and 2020-12 keep in their standard meta-schema only). A
#: custom meta-schema (``$schema``) turns on only the vocabularies its ``$vocabulary`` lists:
#: the keywords of the others are unknown keywords there.
Vocabulary = Literal[
    "core", "applicator", "unevaluated", "validation", "meta-data", "format", "content", ""
]

_SHAPES: dict[str, Shape] = {
    "schema": "one",
    "schema list": "list",
    "schema map": "map",
    "schemas or names map": "map",
}


@dataclass(frozen=True)
class Keyword:
    """One keyword of JSON Schema, as every stage of toolshape needs to know it."""

    name: str
    value: Value
    #: The JSON type the keyword constrains ("number" takes in "integer"); None: any value.
    applies_to: str | None = None
    #: For a keyword that holds subschemas: where they apply.
    applies: Applies | None = None
    #: For an annotation: which kind it is.
    annotation: Group | None = None
    #: For a bound: the side of the range it closes, what it limits ("length", "items",
    #: "properties", "contains" or "value": the keywords limiting one thing make one range)
    #: and whether the bound itself is outside the range.
    bound: Side | None = None
    limits: str | None = None
    exclusive: bool = False
    #: The keyword without which this one has no effect (``then`` needs ``if``).
    needs: str = ""
    #: Whether leaving the keyword out means what ``true`` means (2020-12: "omitting this
    #: keyword has the same assertion behavior as an empty schema").
    omitted_is_true: bool = False
    #: What its subschemas evaluate of the value's keys or items (``unevaluated*`` reads it).
    evaluates: Evaluates | None = None
    #: For a keyword applying subschemas to the same value: when what they evaluate counts.
    collects: Collects | None = None
    #: Whether its outcome depends on more than its own value and subschemas: on what sibling
    #: keywords evaluated (``unevaluated*``) or on the dynamic scope (``$dynamicRef``).
    dynamic: bool = False
    #: Allowed only on the root of ``parameters`` (a nested ``$id`` would change how the
    #: $refs inside it resolve).
    root_only: bool = False
    #: The drafts whose meta-schema names the keyword: from ``since`` to ``until`` (2020-12
    #: still names ``definitions``, ``dependencies`` and ``$recursive*``, as deprecated).
    since: Draft = "4"
    until: Draft = "2020-12"
    #: Whether contracts may use it (False: known, so never called a typo, but refused).
    implemented: bool = True
    #: For a keyword toolshape does not implement: what ``toolshape import`` writes instead.
    successor: tuple[str, ...] = ()
    #: For a keyword toolshape does not implement: advice added to the message refusing it.
    instead: str = ""
    #: For an annotation: whether the platforms' tool definitions carry it (what a model
    #: reads about a value).
    exported: bool = False
    #: For a map of schemas: what one of its keys names, in messages ("property").
    entry: str = ""
    #: How a place under the keyword reads in the names made for generated code
    #: (``attendees item email`` for /properties/attendees/items/properties/email): a word,
    #: or for a list or a map of schemas, a form of its entry: ``{entry}`` (the key or the
    #: index), ``{position}`` (the index counted from 1), ``{keyword}`` (the name). Empty: the
    #: keyword's own name.
    in_names: str = ""
    #: For an annotation: whether its value is a value the schema expects (``default``), or
    #: a list of them (``examples``): the witness search and the review try those first.
    offers: bool = False
    #: For a keyword applying its subschema to children: whether the children are the
    #: object's key names (as strings), not values inside it.
    key_names: bool = False
    #: The vocabulary it belongs to (most keywords are assertions of the validation one).
    vocabulary: Vocabulary = "validation"

    @property
    def shape(self) -> Shape | None:
        """How the keyword holds subschemas; None when it holds none."""
        return _SHAPES.get(self.value)

    @property
    def children(self) -> Reaches | None:
        """For a keyword applying subschemas to children: which ones; None for any other."""
        if self.applies != "children":
            return None
        return "key names" if self.key_names else self.evaluates

    @property
    def drafts(self) -> tuple[Draft, ...]:
        """The drafts that know the keyword, oldest first."""
        return DRAFTS[DRAFTS.index(self.since) : DRAFTS.index(self.until) + 1]

    @property
    def asserts(self) -> bool:
        """Whether the keyword takes part in validation: neither an annotation nor a place
        for definitions."""
        return self.annotation is None and self.applies != "nowhere"


#: What a contract refusing a dynamic reference advises: ``toolshape import`` makes it static.
_BY_IMPORT = (
    "write the schema as JSON Schema and run 'toolshape import' on it: import binds each "
    "dynamic reference to a plain $ref, once per dynamic scope it is reached in"
)

#: How an entry of a list of schemas applying to the value itself reads in generated names.
_NTH = "{keyword} {position}"

#: Every keyword toolshape knows. The implemented ones come first, in the order their checks
#: are emitted; then the root-only ``$id``; then those of drafts 4 to 2020-12 that toolshape
#: does not implement (named so that nobody takes them for typos).
KEYWORDS = (
    Keyword("type", "types"),
    Keyword("enum", "values"),
    Keyword("const", "value", since="6"),
    Keyword("minLength", "count", "string", bound="lower", limits="length"),
    Keyword("maxLength", "count", "string", bound="upper", limits="length"),
    Keyword("minItems", "count", "array", bound="lower", limits="items"),
    Keyword("maxItems", "count", "array", bound="upper", limits="items"),
    Keyword("minProperties", "count", "object", bound="lower", limits="properties"),
    Keyword("maxProperties", "count", "object", bound="upper", limits="properties"),
    Keyword(
        "minContains",
        "count",
        "array",
        bound="lower",
        limits="contains",
        needs="contains",
        since="2019-09",
    ),
    Keyword(
        "maxContains",
        "count",
        "array",
        bound="upper",
        limits="contains",
        needs="contains",
        since="2019-09",
    ),
    Keyword("pattern", "pattern", "string"),
    Keyword("minimum", "number", "number", bound="lower", limits="value"),
    Keyword("maximum", "number", "number", bound="upper", limits="value"),
    Keyword("exclusiveMinimum", "number", "number", bound="lower", limits="value", exclusive=True),
    Keyword("exclusiveMaximum", "number", "number", bound="upper", limits="value", exclusive=True),
    Keyword("multipleOf", "positive number", "number"),
    Keyword(
        "properties",
        "schema map",
        "object",
        applies="children",
        entry="property",
        evaluates="named keys",
        in_names="{entry}",
        vocabulary="applicator",
    ),
    Keyword("required", "names", "object"),
    Keyword(
        "additionalProperties",
        "schema",
        "object",
        applies="children",
        omitted_is_true=True,
        evaluates="other keys",
        in_names="value",
        vocabulary="applicator",
    ),
    Keyword(
        "items",
        "schema",
        "array",
        applies="children",
        omitted_is_true=True,
        evaluates="other items",
        in_names="item",
        vocabulary="applicator",
    ),
    Keyword("uniqueItems", "boolean", "array"),
    Keyword(
        "prefixItems",
        "schema list",
        "array",
        applies="children",
        since="2020-12",
        evaluates="prefix",
        in_names="{entry}",
        vocabulary="applicator",
    ),
    Keyword(
        "contains",
        "schema",
        "array",
        applies="children",
        since="6",
        evaluates="matching items",
        vocabulary="applicator",
    ),
    Keyword(
        "patternProperties",
        "schema map",
        "object",
        applies="children",
        entry="pattern",
        evaluates="matching keys",
        in_names="value",  # its entries' keys are regular expressions: no name in them
        vocabulary="applicator",
    ),
    Keyword(
        "propertyNames",
        "schema",
        "object",
        applies="children",
        since="6",
        omitted_is_true=True,
        in_names="key",
        key_names=True,
        vocabulary="applicator",
    ),
    Keyword("dependentRequired", "names map", "object", since="2019-09"),
    Keyword(
        "dependentSchemas",
        "schema map",
        "object",
        applies="same value",
        since="2019-09",
        entry="key",
        collects="key present",
        in_names="{entry}",
        vocabulary="applicator",
    ),
    Keyword("$ref", "reference", vocabulary="core"),
    Keyword(
        "$defs",
        "schema map",
        applies="nowhere",
        since="2019-09",
        entry="definition",
        in_names="{entry}",
        vocabulary="core",
    ),
    Keyword(
        "allOf",
        "schema list",
        applies="same value",
        collects="always",
        in_names=_NTH,
        vocabulary="applicator",
    ),
    Keyword(
        "anyOf",
        "schema list",
        applies="same value",
        collects="passing",
        in_names=_NTH,
        vocabulary="applicator",
    ),
    Keyword(
        "oneOf",
        "schema list",
        applies="same value",
        collects="passing",
        in_names=_NTH,
        vocabulary="applicator",
    ),
    Keyword("not", "schema", applies="same value", collects="never", vocabulary="applicator"),
    Keyword(
        "if", "schema", applies="same value", since="7", collects="passing", vocabulary="applicator"
    ),
    Keyword(
        "then",
        "schema",
        applies="same value",
        needs="if",
        omitted_is_true=True,
        since="7",
        collects="if passes",
        vocabulary="applicator",
    ),
    Keyword(
        "else",
        "schema",
        applies="same value",
        needs="if",
        omitted_is_true=True,
        since="7",
        collects="if fails",
        vocabulary="applicator",
    ),
    Keyword("format", "format", "string", vocabulary="format"),
    Keyword("title", "string", annotation="meta-data", exported=True, vocabulary="meta-data"),
    Keyword("description", "string", annotation="meta-data", exported=True, vocabulary="meta-data"),
    Keyword(
        "default",
        "value",
        annotation="meta-data",
        exported=True,
        offers=True,
        vocabulary="meta-data",
    ),
    Keyword(
        "examples", "values", annotation="meta-data", since="6", offers=True, vocabulary="meta-data"
    ),
    Keyword("$comment", "string", annotation="comment", since="7", vocabulary="core"),
    Keyword("readOnly", "boolean", annotation="meta-data", since="7", vocabulary="meta-data"),
    Keyword("writeOnly", "boolean", annotation="meta-data", since="7", vocabulary="meta-data"),
    Keyword(
        "deprecated", "boolean", annotation="meta-data", since="2019-09", vocabulary="meta-data"
    ),
    Keyword("contentEncoding", "string", annotation="content", since="7", vocabulary="content"),
    Keyword("contentMediaType", "string", annotation="content", since="7", vocabulary="content"),
    Keyword(
        "contentSchema",
        "schema",
        applies="nowhere",
        annotation="content",
        since="2019-09",
        vocabulary="content",
    ),
    Keyword("$anchor", "anchor", annotation="core", since="2019-09", vocabulary="core"),
    Keyword("$id", "uri", annotation="core", root_only=True, since="6", vocabulary="core"),
    # Known, not implemented:
    Keyword(
        "definitions",
        "schema map",
        applies="nowhere",
        implemented=False,
        successor=("$defs",),
        entry="definition",
        vocabulary="",
    ),
    Keyword(
        "dependencies",
        "schemas or names map",
        "object",
        applies="same value",
        implemented=False,
        successor=("dependentRequired", "dependentSchemas"),
        vocabulary="",
    ),
    Keyword(
        "unevaluatedProperties",
        "schema",
        "object",
        applies="children",
        omitted_is_true=True,
        dynamic=True,
        since="2019-09",
        evaluates="other keys",
        vocabulary="unevaluated",
    ),
    Keyword(
        "unevaluatedItems",
        "schema",
        "array",
        applies="children",
        omitted_is_true=True,
        dynamic=True,
        since="2019-09",
        evaluates="other items",
        vocabulary="unevaluated",
    ),
    Keyword("$schema", "uri", annotation="core", implemented=False, vocabulary="core"),
    Keyword(
        "$dynamicRef",
        "reference",
        dynamic=True,
        since="2020-12",
        implemented=False,
        successor=("$ref",),
        instead=_BY_IMPORT,
        vocabulary="core",
    ),
    Keyword(
        "$dynamicAnchor",
        "anchor",
        annotation="core",
        since="2020-12",
        implemented=False,
        successor=("$anchor",),
        instead=_BY_IMPORT,
        vocabulary="core",
    ),
    Keyword(
        "$recursiveRef",
        "reference",
        dynamic=True,
        since="2019-09",
        implemented=False,
        successor=("$ref",),
        vocabulary="core",
    ),
    Keyword(
        "$recursiveAnchor",
        "boolean",
        annotation="core",
        since="2019-09",
        implemented=False,
        successor=("$anchor",),
        vocabulary="core",
    ),
    Keyword(
        "$vocabulary",
        "vocabulary map",
        annotation="core",
        since="2019-09",
        implemented=False,
        vocabulary="core",
    ),
    Keyword(
        "additionalItems",
        "schema",
        "array",
        applies="children",
        omitted_is_true=True,
        until="2019-09",
        implemented=False,
        successor=("items",),
        vocabulary="applicator",
    ),
    Keyword(
        "id",
        "uri",
        annotation="core",
        until="4",
        implemented=False,
        successor=("$id",),
        vocabulary="",
    ),
)

_BY_NAME = {keyword.name: keyword for keyword in KEYWORDS}

#: The order of the one walk over subschemas (``keywords.subschemas``, and the exporter's
#: rebuild of a schema): one-schema keywords, then lists, then maps. The model, redaction
#: and the exporter visit schemas in this order, so generated output depends on it: it is
#: fixed here, apart from the table's order (the order checks are emitted).
SUBSCHEMA_ORDER = (
    "not",
    "if",
    "then",
    "else",
    "contains",
    "propertyNames",
    "items",
    "additionalProperties",
    "unevaluatedItems",
    "unevaluatedProperties",
    "allOf",
    "anyOf",
    "oneOf",
    "prefixItems",
    "$defs",
    "properties",
    "patternProperties",
    "dependentSchemas",
)
#: The keywords a written contract shows first, in this order (what a reader looks for
#: first: where the schema comes from, its type, what it is); ``toolshape import`` writes
#: schemas this way.
READING_ORDER = ("$ref", "type", "title", "description", "format", "enum", "const", "default")


def name_words() -> dict[str, tuple[str, bool]]:
    """For each implemented keyword: how a place under it reads in generated names (see
    ``Keyword.in_names``) and whether the step after it is an entry of its list or map."""
    return {
        k.name: (k.in_names or k.name, k.shape in ("list", "map"))
        for k in KEYWORDS
        if k.implemented
    }


def keyword(name: str) -> Keyword:
    """The row of ``name`` (KeyError for a name the vocabulary does not know)."""
    return _BY_NAME[name]


def names(test: Callable[[Keyword], bool], order: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The names of the keywords that pass ``test``, in table order (or in ``order``)."""
    rows = KEYWORDS if order is None else tuple(_BY_NAME[name] for name in order)
    return tuple(row.name for row in rows if test(row))


def implemented() -> tuple[str, ...]:
    """Every keyword a contract may use anywhere, in the order checks are emitted."""
    return names(lambda k: k.implemented and not k.root_only)


def root_only() -> tuple[str, ...]:
    """The keywords a contract may use only on the root of ``parameters``."""
    return names(lambda k: k.implemented and k.root_only)


def not_yet() -> tuple[str, ...]:
    """The keywords of JSON Schema 2020-12 (its meta-schema) toolshape does not implement."""
    return names(lambda k: not k.implemented and "2020-12" in k.drafts)


def taking(value: Value) -> tuple[str, ...]:
    """The implemented keywords whose value is of the kind ``value``."""
    return names(lambda k: k.implemented and k.value == value)


def annotation_names(
    *groups: Group, root: bool = True, exported: bool | None = None
) -> tuple[str, ...]:
    """The implemented annotations (of ``groups``, or all), the root-only ones unless ``root``
    is False; with ``exported``, only those the platforms carry (True) or drop (False)."""
    return names(
        lambda k: (
            k.implemented
            and k.annotation is not None
            and (not groups or k.annotation in groups)
            and (root or not k.root_only)
            and (exported is None or k.exported == exported)
        )
    )


@functools.cache  # (the walks ask it for every schema they visit)
def holders(shape: Shape, applies: Applies | None = None) -> tuple[str, ...]:
    """The implemented keywords that hold subschemas in ``shape`` and apply them (``applies``,
    or anywhere) and are not annotations, in the order of the one walk over subschemas."""
    return names(
        lambda k: (
            k.implemented
            and k.shape == shape
            and k.annotation is None
            and (applies is None or k.applies == applies)
        ),
        SUBSCHEMA_ORDER,
    )


def applying_to(json_type: str) -> tuple[str, ...]:
    """The implemented keywords that constrain only values of ``json_type``."""
    return names(lambda k: k.implemented and k.applies_to == json_type)


def type_of_keyword() -> dict[str, str]:
    """The JSON type each implemented type-specific keyword constrains."""
    return {k.name: k.applies_to for k in KEYWORDS if k.implemented and k.applies_to is not None}


def bounds(side: Side | None = None, limits: str | None = None) -> tuple[str, ...]:
    """The implemented bound keywords (of one ``side``; of what they ``limits``)."""
    return names(
        lambda k: (
            k.implemented
            and k.bound is not None
            and (side is None or k.bound == side)
            and (limits is None or k.limits == limits)
        )
    )


def ranges(*limits: str) -> tuple[tuple[str, str, str], ...]:
    """Each inclusive range (of what ``limits`` names, or all): (lower keyword, upper keyword,
    the JSON type they apply to), in table order: minLength/maxLength, ..., minimum/maximum."""
    found = []
    for low in KEYWORDS:
        if low.bound != "lower" or low.exclusive or low.applies_to is None:
            continue
        if limits and low.limits not in limits:
            continue
        high = next(
            k for k in KEYWORDS if k.bound == "upper" and not k.exclusive and k.limits == low.limits
        )
        found.append((low.name, high.name, low.applies_to))
    return tuple(found)


def evaluating(evaluates: Evaluates) -> tuple[str, ...]:
    """The implemented keywords whose subschemas evaluate ``evaluates`` (for unevaluated*)."""
    return names(lambda k: k.implemented and k.evaluates == evaluates)


def collecting(collects: Collects) -> tuple[str, ...]:
    """The implemented keywords applying subschemas to the same value whose evaluations count
    ``collects`` (for unevaluated*), in the order of the one walk over subschemas."""
    return names(lambda k: k.implemented and k.collects == collects, SUBSCHEMA_ORDER)


@functools.cache  # (the walks ask it for every schema they visit)
def reaching(children: Reaches) -> tuple[str, ...]:
    """The implemented keywords applying subschemas to ``children`` whatever their siblings
    evaluated (not the ``dynamic`` ones: their family decides which children they reach), in
    the order of the one walk over subschemas."""
    return names(
        lambda k: k.implemented and not k.dynamic and k.children == children, SUBSCHEMA_ORDER
    )


def introduced_in(draft: Draft) -> tuple[str, ...]:
    """The keywords taking part in validation that ``draft`` added (an older draft ignores them)."""
    return names(lambda k: k.asserts and k.since == draft)


@dataclass(frozen=True)
class Format:
    """One ``format`` toolshape asserts: its name and how a message describes a valid value.
    Asserted in a schema of every draft (drafts 4 to 7 let a validator assert the formats it
    knows, and Ajv's (with ajv-formats) and jsonschema's ``FormatChecker()`` do, whatever draft
    first named them): ``import --formats annotate`` reads every format as an annotation."""

    name: str
    phrase: str


#: The formats toolshape asserts: those of JSON Schema 2020-12 (a name outside them is a typo).
FORMATS = (
    Format("date-time", "a date-time such as 2024-05-01T09:30:00Z (RFC 3339)"),
    Format("date", "a date such as 2024-05-01 (RFC 3339 full-date)"),
    Format("time", "a time such as 09:30:00Z (RFC 3339 full-time)"),
    Format("duration", "a duration such as P3DT4H (ISO 8601)"),
    Format("email", "an email address"),
    Format("idn-email", "an email address (RFC 6531: non-ASCII allowed)"),
    Format("hostname", "a hostname (RFC 1123)"),
    Format("idn-hostname", "an internationalized hostname (IDNA2008)"),
    Format("ipv4", "an IPv4 address"),
    Format("ipv6", "an IPv6 address"),
    Format("uri", "an absolute URI (RFC 3986)"),
    Format("uri-reference", "a URI reference (RFC 3986)"),
    Format("iri", "an absolute IRI (RFC 3987)"),
    Format("iri-reference", "an IRI reference (RFC 3987)"),
    Format("uri-template", "a URI template (RFC 6570)"),
    Format("uuid", "a UUID"),
    Format("json-pointer", "a JSON Pointer such as /items/0 (RFC 6901)"),
    Format("relative-json-pointer", "a relative JSON Pointer such as 1/name"),
    Format("regex", "a regular expression (ECMA-262, as toolshape translates it)"),
)


#: The vocabularies of 2019-09 and 2020-12, by the URI a meta-schema's ``$vocabulary`` names
#: them with: the table's vocabularies each turns on (2019-09's applicator vocabulary holds
#: ``unevaluated*``; its format vocabulary and 2020-12's two serve ``format``).
VOCABULARY_URIS: dict[str, tuple[Vocabulary, ...]] = {
    **{
        f"https://json-schema.org/draft/2020-12/vocab/{name}": (name,)
        for name in ("core", "applicator", "unevaluated", "validation", "meta-data", "content")
    },
    "https://json-schema.org/draft/2020-12/vocab/format-annotation": ("format",),
    "https://json-schema.org/draft/2020-12/vocab/format-assertion": ("format",),
    **{
        f"https://json-schema.org/draft/2019-09/vocab/{name}": (name,)
        for name in ("core", "validation", "meta-data", "format", "content")
    },
    "https://json-schema.org/draft/2019-09/vocab/applicator": ("applicator", "unevaluated"),
}
#: The vocabulary under which ``format`` asserts: a meta-schema naming it asserts formats,
#: whether it requires it (true) or not (false: the value matters only to a validator that
#: does not know the vocabulary).
FORMAT_ASSERTION = "https://json-schema.org/draft/2020-12/vocab/format-assertion"


def outside(vocabularies: frozenset[str]) -> frozenset[str]:
    """The keywords taking part in validation of no vocabulary in ``vocabularies``: unknown
    keywords in a dialect that turns on only those. (Annotations stay: an unknown keyword
    is an annotation too, and a tool's description is one.)"""
    return frozenset(names(lambda k: k.vocabulary not in vocabularies and k.asserts))


def format_names() -> tuple[str, ...]:
    """The names of the asserted formats, in table order."""
    return tuple(f.name for f in FORMATS)


def format_phrases() -> dict[str, str]:
    """Each asserted format's name and how messages describe it (``must be <phrase>``)."""
    return {f.name: f.phrase for f in FORMATS}
