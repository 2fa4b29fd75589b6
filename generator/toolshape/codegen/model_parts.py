"""The parts of the module model: what one value's checks are, and the module's functions and constants.

A :class:`Node` is one schema applied to one value: its :class:`Branch` per JSON type holds the
:class:`Check` of each keyword, the :class:`ObjectChecks` or :class:`ArrayChecks` that reach
the values inside, and the :class:`Applicator` of each keyword that applies whole subschemas
to the same value. ``templates/checks.py.j2`` prints them, one macro per part; the ``Literal``
types below name each branch a template takes (tests/test_template_branches.py holds the two
together). A :class:`Function` (a $ref target, a branch of a union) and a :class:`Constant`
(a compiled pattern, a frozenset) sit at module level (``templates/module.py.j2``).

Nothing here decides anything: the builder (``codegen/building/``) fills these in, and
``codegen/model.py`` gathers them into the :class:`~toolshape.codegen.model.ModuleModel`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from ..schema.pointers import escape
from .literals import Code

#: Which condition a :class:`Check` writes: one branch each of the ``condition`` and ``check``
#: macros in templates/checks.py.j2 (tests/test_template_branches.py holds the two together).
CheckTest = Literal[
    "shorter",
    "longer",
    "no_match",
    "blank",
    "bad_format",
    "below",
    "above",
    "not_above",
    "not_below",
    "not_multiple_int",
    "not_multiple",
    "not_in",
    "json_not_in",
    "not_equal",
    "not_none",
    "has_duplicates",
    "always",
]
#: A piece of a path: its start (fixed pointer text, or the path the function was given), then
#: steps: a key or an array position the contract names, an index or a key in a variable.
PathPartKind = Literal["text", "base", "name", "position", "index", "key"]
#: How an applicator's subschemas are applied (``apply`` in templates/checks.py.j2).
ApplicatorKind = Literal[
    "ref", "all_of", "nullable", "any_of", "one_of", "tagged", "negated", "conditional"
]
#: What a module-level constant holds (the constants loop in templates/module.py.j2).
ConstantKind = Literal["regex", "linear", "text", "strings", "json_values", "tag"]
#: How an ``unevaluated*`` guard is decided on the value (the ``unevaluated`` macro).
GuardTest = Literal["passes", "fails", "key present"]
#: What an evaluated part tests of one key or item (the ``evaluated_by`` macro).
EvaluatedTest = Literal["named", "matching", "prefix", "matched"]
#: The JSON type a :class:`Branch` tests (``type_test`` in templates/checks.py.j2).
JsonType = Literal["null", "boolean", "object", "array", "string", "integer", "number"]


@dataclass
class PathPart:
    """A piece of a path. A path is its start, then its steps: while they are all fixed, the
    start is one pointer ("/a/0"); past the first step held in a variable, the template
    writes the path as a tuple, ``(start, step, ...)``, that the runtime turns into a
    pointer only when an error is shown (``_pointer``). Each item's path then costs the
    same whatever the keys above it hold and however deep it lies (issue 20)."""

    kind: PathPartKind
    text: str | None = None  # "text": pointer text; "name": a key; "position": its digits
    var: Code | None = None  # a variable, for "base", "index" and "key"


def extend(path: list[PathPart], *steps: PathPart) -> list[PathPart]:
    """A new path with ``steps`` appended; a fixed step joins a start of fixed text ("/a" and
    the name "b/c" make "/a/b~1c")."""
    result = list(path) or [PathPart("text", "")]
    for step in steps:
        if step.kind in ("name", "position") and len(result) == 1 and result[0].kind == "text":
            result[0] = PathPart("text", f"{result[0].text}/{escape(step.text or '')}")
        else:
            result.append(step)
    return result


@dataclass
class Check:
    """One keyword's check on a value whose type is already known."""

    test: CheckTest
    code: Code  # the error code: the keyword, as a literal
    message: Code  # the message, as a literal
    limit: Code | None = None  # a literal or a constant's name
    extra: Code | None = None  # a second operand, where the test needs one
    chained: bool = False  # runs only when the previous check passed ("elif")
    #: Whether a failure may add a hint built from the value (did-you-mean, quoted literal):
    #: never under an x-sensitive schema, where the hint would echo the value or an allowed one.
    hint: bool = True
    #: A bound of 2**53 or more: the value is compared as the decimal it is written as
    #: (``_exact``), as the bound is, since there a float's binary value differs from it.
    exact: bool = False
    #: json_not_in: the Python types of a value that can equal a member and yet differ from
    #: it as the handler gets it ("float": 1.0 for 1, "container": an array or object),
    #: for which the handler gets the member itself (``_as_written``).
    written: tuple[str, ...] = ()


@dataclass
class Property:
    """One entry of ``properties``: present-or-missing, then the value's own checks."""

    key: Code
    node: Node
    required: bool
    missing_message: Code
    comment: Code


@dataclass
class RequiredKey:
    """A key listed in ``required`` with no schema in ``properties``."""

    key: Code
    path: list[PathPart]
    message: Code


@dataclass
class Dependency:
    """dependentRequired: when ``key`` is present, each of ``needs`` must be too."""

    key: Code
    needs: list[RequiredKey]


@dataclass
class Conditional:
    """A node that applies when a key is present (dependentSchemas) or a key matches (patternProperties)."""

    test: Code  # a key literal, or a compiled pattern constant
    node: Node


@dataclass
class ObjectChecks:
    properties: list[Property]
    required_only: list[RequiredKey]
    known_keys: Code | None  # the frozenset constant of declared keys
    refuse_unknown: bool
    unknown_message: Code | None
    extra: Node | None  # additionalProperties as a schema
    key_var: Code | None
    key_path: list[PathPart]  # the pointer of the key held in key_var
    counts: list[Check]
    #: The codes of the errors the template prints, as the family spells the keywords: a
    #: missing required key, a missing dependent key, an unknown key.
    required_code: Code
    dependent_code: Code
    unknown_code: Code
    #: Counts the declared keys present, property by property, where unknown keys are
    #: refused without a per-key loop: only an object longer than the count holds another.
    count_var: Code | None = None
    dependencies: list[Dependency] = field(default_factory=list)
    dependent_schemas: list[Conditional] = field(default_factory=list)
    pattern_properties: list[Conditional] = field(default_factory=list)
    property_names: Node | None = None
    item_var: Code | None = None  # the value of the key in key_var, in the per-key loop
    #: propertyNames' maxLength, where patterns run on keys: a key it refuses goes no further
    #: (so a key pattern may rely on it, see regex.linear.re_is_bounded).
    key_limit: Code | None = None

    @property
    def per_key(self) -> bool:
        """Whether a loop over every key is needed (patterns, or a schema for extra keys)."""
        return bool(self.pattern_properties or self.extra or self.property_names)

    @property
    def reads_items(self) -> bool:
        """Whether the loop over every key needs each key's value: a schema checks it (else
        the loop goes over the keys: propertyNames alone, or schemas that are ``false``)."""
        nodes = [c.node for c in self.pattern_properties]
        if self.extra is not None:
            nodes.append(self.extra)
        return any(node.reads_value for node in nodes)

    @property
    def checks_other_keys(self) -> bool:
        """Whether a key outside ``properties`` is refused or checked: the per-key loop then
        notes whether a pattern matched it (``key_matched``), which also gives a matching
        key's block a body when its own schema checks nothing."""
        return self.refuse_unknown or self.extra is not None

    @property
    def empty(self) -> bool:
        checked = [p for p in self.properties if p.required or p.node.has_checks]
        return not (
            checked
            or self.required_only
            or self.refuse_unknown
            or self.per_key
            or self.counts
            or self.dependencies
            or self.dependent_schemas
        )


@dataclass
class Contains:
    """contains / minContains / maxContains: how many items match a subschema."""

    function: Code
    minimum: int
    maximum: int | None
    too_few: Code  # message
    too_many: Code | None
    too_few_code: Code
    too_many_code: Code


@dataclass
class ArrayChecks:
    index_var: Code | None
    item: Node | None
    checks: list[Check]
    prefix: list[tuple[int, Node]] = field(default_factory=list)  # prefixItems, by position
    contains: Contains | None = None
    start: int = 0  # where ``items`` starts: after the prefixItems positions

    @property
    def empty(self) -> bool:
        return not self.checks and self.item is None and not self.prefix and self.contains is None


@dataclass
class Branch:
    """The checks that apply when the value has one JSON type."""

    kind: JsonType
    checks: list[Check] = field(default_factory=list)
    object: ObjectChecks | None = None
    array: ArrayChecks | None = None
    applicators: list[Applicator] = field(default_factory=list)
    #: integer: a float that passes (10.0, 1e2) is recorded, to reach the handler as an int.
    integral: bool = False
    #: unevaluatedProperties or unevaluatedItems, after every other check of the value.
    unevaluated: Unevaluated | None = None

    @property
    def empty(self) -> bool:
        return (
            not self.checks
            and not self.integral
            and not self.applicators
            and self.unevaluated is None
            and (self.object is None or self.object.empty)
            and (self.array is None or self.array.empty)
        )


@dataclass
class Node:
    """A value to check: where it lives, and what its schema asks of it."""

    var: Code
    path: list[PathPart]
    label: str
    typed: bool  # a `type` keyword is present: the branches end in a type error
    branches: list[Branch]
    type_message: Code | None
    any_checks: list[Check]  # enum/const when the type is not pinned to one branch
    refuse_all: Code | None  # the message, when the schema is `false`
    applicators: list[Applicator] = field(default_factory=list)  # $ref, anyOf, ... on this value
    #: Under an x-sensitive schema: a type error names the JSON type only (no hint that repeats the value).
    secret: bool = False
    #: Whether the value is a key ``required`` lists, as code: ``True``, or a $ref function's
    #: ``required`` parameter (its caller knows); None: not a required key's value. A null
    #: there is told to send a value, not to leave the key out.
    required_key: Code | None = None
    #: The code of the type error, as the family spells the keyword (with ``type_message``).
    type_code: Code | None = None

    @property
    def got(self) -> Code:
        """The runtime helper whose words follow a type error's "got "."""
        if self.secret:
            return Code("_json_type")  # the JSON type only: no hint that repeats the value
        wants_structure = any(b.kind in ("object", "array") for b in self.branches)
        return Code("_got_json" if wants_structure else "_got")

    @property
    def got_arguments(self) -> Code:
        """The arguments of :attr:`got`'s call: the value, and for a required key's value a flag
        that words a null as a required key's (send a value), not an optional one's (leave it out)."""
        if self.required_key is not None and not self.secret:
            return Code(f"{self.var}, required={self.required_key}")
        return self.var

    def mark_required(self, required: Code | None) -> None:
        """Say (``required``: the code that says it; None: it is not) whether the value is a
        required key's, here and wherever the same value is checked again: the nodes of an
        ``allOf``, and the function a ``$ref`` calls, which is handed it."""
        self.required_key = required
        for applicator in self.applicators:
            if applicator.kind == "ref":
                applicator.required = required
            elif applicator.kind == "all_of":
                for node in applicator.nodes:
                    node.mark_required(required)

    @property
    def has_checks(self) -> bool:
        return bool(
            self.typed
            or self.refuse_all
            or self.any_checks
            or self.applicators
            or any(not b.empty for b in self.branches)
        )

    @property
    def reads_value(self) -> bool:
        """Whether the node's code reads its value: it checks something, and the schema is
        not ``false`` (whose code only reports the path: its value is never fetched)."""
        return self.has_checks and not self.refuse_all


@dataclass
class Applicator:
    """A keyword that applies whole subschemas to the same value.

    ``ref`` calls a definition's function; ``all_of`` checks its nodes inline;
    ``any_of``/``one_of`` try branch functions (``tagged``: the one a value's tag picks, see
    ``families/combinators/checks.py``); ``negated`` (not) and ``conditional`` (if) call
    one function and act on whether it found errors; ``then``/``otherwise`` are inline nodes.

    The builder makes one only when it checks something, and an inline node it holds
    (``nodes``, ``then``, ``otherwise``) only when that node has checks: each opens a block
    in the generated code, and a block needs a body (``anyOf: [{}, {type: null}]`` makes
    none).
    """

    kind: ApplicatorKind
    comment: Code
    message: Code | None = None
    function: Code | None = None
    functions: list[Code] = field(default_factory=list)
    nodes: list[Node] = field(default_factory=list)
    then: Node | None = None
    otherwise: Node | None = None
    #: For ``ref``: what the caller calls the value, handed to the function.
    label: Code | None = None
    #: For ``ref``: whether the value is a required key's (see ``Node.mark_required``), handed
    #: to the function; None leaves its default (not required).
    required: Code | None = None
    #: For ``any_of``, ``one_of``, ``tagged`` and ``negated``: the keyword (its errors' code,
    #: the family's spelling); for ``tagged``, the module's ``_Tag`` constant that tells its
    #: alternatives apart.
    keyword: Code | None = None
    tag: Code | None = None


@dataclass
class Guard:
    """A condition an evaluated part counts under, decided once per value into ``var``:
    a subschema's ``function`` passes on it, or fails (``not`` the guard ``passed``), or the
    object holds ``key``; ``within`` the guard of the part it is nested in."""

    var: Code
    test: GuardTest
    function: Code | None = None
    passed: Code | None = None
    key: Code | None = None
    within: Code | None = None
    label: Code | None = None
    #: For "passes": the subschema's place (a comment above the guard).
    note: Code | None = None


@dataclass
class EvaluatedBy:
    """One test of a key (an item) against an evaluated part: in the ``named`` keys (a
    frozenset constant), ``matching`` a pattern constant, below the ``prefix`` length, or
    ``matched`` by a contains function."""

    test: EvaluatedTest
    code: Code


@dataclass
class EvaluatedPart:
    """What a part evaluates: every key or item (``everything``) or those its ``tests``
    accept; under ``guard`` (None: whatever the value)."""

    guard: Code | None
    tests: list[EvaluatedBy]
    everything: bool = False


@dataclass
class Unevaluated:
    """unevaluatedProperties or unevaluatedItems: the loop over the keys (``kind`` "object")
    or items ("array") that no part evaluated. ``guards`` are decided first; a key no part
    evaluated is refused (``refuse_message``, with did-you-mean among ``known``) or checked
    by ``node``."""

    kind: Literal["object", "array"]
    comment: Code
    guards: list[Guard]
    parts: list[EvaluatedPart]
    key_var: Code
    item_var: Code
    key_path: list[PathPart]
    node: Node | None = None
    refuse_message: Code | None = None
    known: Code | None = None
    #: With ``refuse_message``: the code of the error, the keyword as its family spells it.
    refuse_code: Code | None = None

    @property
    def reads_items(self) -> bool:
        """Whether the loop needs each key's value (item): its node checks it, or a
        contains function is tried on it (else the loop goes over the keys, the indexes)."""
        matched = any(t.test == "matched" for p in self.parts for t in p.tests)
        return matched or (self.node is not None and self.node.reads_value)


@dataclass
class Function:
    """A subschema checked in a function of its own: a $ref target or a branch of a union."""

    name: Code
    comment: Code
    node: Node | None = None
    #: A $ref target's function takes the label its caller calls the value by.
    labelled: bool = False
    #: A $ref target's function is told whether the value is a required key's.
    takes_required: bool = False


@dataclass
class Constant:
    """A module-level constant: a compiled pattern (``re`` or the runtime's linear-time
    matcher) or a frozenset built once at import."""

    name: Code
    kind: ConstantKind
    value: Code
    comment: Code
