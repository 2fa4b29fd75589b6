"""Legal JSON Schema that the contract check only warns of generates exactly what JSON Schema
means: the generated module accepts and refuses what ``jsonschema``'s 2020-12 validator does,
on a class of values of every JSON type, and the derived test cases still agree with the
reference evaluator.

What each schema here says (the warnings' text and place are in ``tests/warning_contracts/``):

- a keyword with no effect without another (``then``/``else`` without ``if``,
  ``minContains``/``maxContains`` without ``contains``) generates nothing;
- an unknown ``format`` that is no near miss of a known one is an annotation: nothing
  checks it (a near miss, ``emial``, stays an error with a did-you-mean);
- a place no value can pass (an empty ``enum``, a ``const`` its schema refuses, a count range
  that leaves no count, a required key whose schema is ``false``) refuses every value that
  reaches it; where ``enum``/``const`` let none pass, with one error of code ``false`` that
  says so. The witness engine does not search there, and the derived cases expect the
  refusal.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

import pytest
from support import CONTEXT, build_module, verdicts_unlike_jsonschema
from toolshape.codegen import cases
from toolshape.contract import checker, reference, source
from toolshape.contract.errors import ContractError
from toolshape.families.values import rules as value_rules
from toolshape.platforms import export
from toolshape.project import examples, pipeline
from toolshape.regex import matcher
from toolshape.witness.values import Engine

#: Scalars of every JSON type, strings of a known format and not.
SCALARS: list[Any] = [None, True, False, 0, 1, 1.0, -2, 2.5, "", "a", "1.2.3", "2024-05-01", "x@y"]
#: Arrays of up to four items drawn from an integer and a string, and a nested one.
ARRAYS: list[Any] = [
    list(items) for n in range(5) for items in itertools.product([1, "a"], repeat=n)
] + [[[1]], [{"a": 1}]]
#: Every value above, and objects holding some of them.
VALUES: list[Any] = [*SCALARS, *ARRAYS, {}, {"a": 1}, {"v": [1, 1]}]


def contract_with(schema: Any) -> dict[str, Any]:
    """The parameters of a contract whose one optional argument ``v`` has ``schema``."""
    return {"type": "object", "properties": {"v": schema}}


def checked(parameters: Any) -> checker.Contract:
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    return checker.check(source.load(json.dumps(document).encode("utf-8"), "t.yaml"))


def assert_generates_what_jsonschema_means(parameters: Any) -> Any:
    """The module agrees with jsonschema on ``{"v": value}`` for every value of VALUES, and
    its derived cases agree with the reference evaluator (as ``generate`` checks them).
    Returns the module, for the test's own checks."""
    module = build_module(parameters)
    tried = [{"v": value} for value in VALUES]
    assert not verdicts_unlike_jsonschema(module, parameters, tried)
    contract = checked(parameters)
    examples.check_derived(contract, module, cases.derive(contract).cases)
    return module


NO_EFFECT = [
    {"then": {"type": "string"}},
    {"else": {"type": "integer"}},
    {"then": False, "else": False},
    {"type": "array", "minContains": 2},
    {"type": "array", "maxContains": 0},
    {"minContains": 3, "maxContains": 1},
    {"type": "array", "items": {"type": "integer"}, "minContains": 5, "maxContains": 0},
]


@pytest.mark.parametrize("schema", NO_EFFECT, ids=json.dumps)
def test_a_keyword_with_no_effect_is_warned_of_and_generates_nothing(schema: Any) -> None:
    parameters = contract_with(schema)
    warned = [w.message for w in checked(parameters).warnings]
    assert any("has no effect without" in m and "nothing is generated" in m for m in warned)
    module = assert_generates_what_jsonschema_means(parameters)
    # Nothing generated for it: the module refuses and accepts what it does without it.
    ignored = {k: v for k, v in schema.items() if k not in ("then", "else")}
    ignored = {k: v for k, v in ignored.items() if "contains" in schema or "Contains" not in k}
    bare = build_module(contract_with(ignored))
    for value in VALUES:
        got, alone = module.validate({"v": value}), bare.validate({"v": value})
        assert [(e.path, e.code) for e in got.errors] == [(e.path, e.code) for e in alone.errors]


@pytest.mark.parametrize(
    ("name", "typo", "meant"),
    [
        ("semver", "emial", "email"),
        ("unknown", "date_time", "date-time"),
        ("x-color", "UUID", "uuid"),
        ("int32", "ipv-4", "ipv4"),
        ("float", "hostnme", "hostname"),
    ],
)
def test_an_unknown_format_is_an_annotation_and_a_near_miss_an_error(
    name: str, typo: str, meant: str
) -> None:
    """An unknown name is warned of and checked by nothing; a near miss of a known name is
    surely a typo: an error with a did-you-mean, as before."""
    parameters = contract_with({"type": "string", "format": name, "maxLength": 3})
    warned = [w.message for w in checked(parameters).warnings]
    assert any(f"format '{name}' is not one toolshape knows" in m for m in warned), warned
    assert_generates_what_jsonschema_means(parameters)
    module = build_module(parameters)
    assert module.validate({"v": "abc"}).ok
    assert [e.code for e in module.validate({"v": "abcd"}).errors] == ["maxLength"]
    with pytest.raises(ContractError, match=f"did you mean '{meant}'"):
        checked(contract_with({"type": "string", "format": typo}))


def test_a_format_that_is_not_a_name_stays_an_error() -> None:
    with pytest.raises(ContractError, match="'format' must be a format name"):
        checked(contract_with({"type": "string", "format": 3}))


#: Schemas no value of the type they allow can pass, and whether ``enum``/``const`` say it
#: (then the module's one error is ``false``, "no value can pass here").
NO_VALUE = [
    ({"enum": []}, True),
    ({"type": "string", "const": ["a"]}, True),
    ({"enum": [1, 2], "const": 3}, True),
    ({"type": ["integer", "null"], "const": "x"}, True),
    ({"type": "string", "enum": [1, None]}, True),
    ({"type": "string", "const": "abc", "maxLength": 2}, False),
    ({"type": "string", "minLength": 3, "maxLength": 2}, False),
    ({"type": "array", "minItems": 3, "maxItems": 1}, False),
    ({"minItems": 3, "maxItems": 1}, False),  # every value but an array passes
    ({"contains": {"type": "integer"}, "minContains": 3, "maxContains": 1}, False),
    ({"type": "object", "properties": {"a": False}, "required": ["a"]}, False),
    ({"properties": {"a": {"enum": []}}, "required": ["a"]}, False),
    ({"type": "object", "minProperties": 2, "maxProperties": 1}, False),
    ({"type": "number", "minimum": 10, "maximum": 1}, False),
    ({"type": "number", "exclusiveMinimum": 5, "maximum": 5}, False),
    ({"type": "integer", "minimum": 1.2, "maximum": 1.8}, False),
    ({"type": "integer", "multipleOf": 3, "minimum": 1, "maximum": 2}, False),
    ({"type": "number", "multipleOf": 3, "exclusiveMinimum": 0, "exclusiveMaximum": 3}, False),
    ({"minimum": 10, "maximum": 1}, False),  # every value but a number passes
    ({"type": "array", "prefixItems": [{}], "items": False, "minItems": 2}, False),
    (
        {
            "type": "object",
            "properties": {"a": {}},
            "additionalProperties": False,
            "minProperties": 2,
        },
        False,
    ),
    ({"type": "object", "required": ["a", "b"], "maxProperties": 1}, False),
    ({"required": ["a", "b"], "maxProperties": 1}, False),  # every value but an object passes
]


@pytest.mark.parametrize("required", [False, True], ids=["optional", "required"])
@pytest.mark.parametrize(
    ("schema", "says_false"), NO_VALUE, ids=[json.dumps(s) for s, _ in NO_VALUE]
)
def test_a_place_no_value_can_pass_is_warned_of_and_refuses_what_reaches_it(
    schema: Any, says_false: bool, required: bool
) -> None:
    parameters = {**contract_with(schema), **({"required": ["v"]} if required else {})}
    warned = [w.message for w in checked(parameters).warnings]
    assert any("as written, no" in m and "can pass here" in m for m in warned), warned
    module = assert_generates_what_jsonschema_means(parameters)
    if not says_false:
        return
    for value in VALUES:
        errors = [(e.path, e.code) for e in module.validate({"v": value}).errors]
        assert errors == [("/v", "false")], (value, errors)
        (message,) = (e.message for e in module.validate({"v": value}).errors)
        assert "no value can pass here" in message


#: Schemas no value passes, the case that sends a value there, and its one error.
REQUIRED_NO_VALUE = [
    (False, "v", ("/v", "false")),
    ({"enum": []}, "v", ("/v", "false")),
    ({"type": "string", "const": ["a"]}, "v", ("/v", "false")),
    ({"enum": [1, 2], "const": 3}, "v", ("/v", "false")),
    ({"type": "string", "minLength": 3, "maxLength": 2}, "v", ("/v", "type")),
    ({"type": "integer", "multipleOf": 3, "minimum": 1, "maximum": 2}, "v", ("/v", "type")),
    # The base holds v as {} (its own required key missing): the case sends its key a.
    ({"type": "object", "properties": {"a": False}, "required": ["a"]}, "v.a", ("/v/a", "false")),
]


@pytest.mark.parametrize(
    ("schema", "place", "error"),
    REQUIRED_NO_VALUE,
    ids=[json.dumps(s) for s, *_ in REQUIRED_NO_VALUE],
)
def test_a_required_key_no_value_can_pass_is_said_loudly_and_every_case_expects_a_refusal(
    schema: Any, place: str, error: tuple[str, str]
) -> None:
    parameters = {**contract_with(schema), "required": ["v"]}
    contract = checked(parameters)
    assert any(w.message.startswith("as written, NO ARGUMENTS CAN PASS") for w in contract.warnings)
    derived = cases.derive(contract)
    assert derived.cases and all(case.errors for case in derived.cases)
    # No value there has a witness, so the base leaves it out; one case sends one, refused.
    sent = [case for case in derived.cases if case.name == f"{place}: no value can pass"]
    assert [case.errors for case in sent] == [frozenset({error})]
    examples.check_derived(contract, build_module(parameters), derived.cases)


#: Schemas no value passes whose candidates the engine would otherwise try one by one.
SEARCHED_IN_VAIN = [
    {"type": "string", "const": ["a"]},
    {"enum": [1, 2], "const": 3},
    {"type": ["integer", "null"], "const": "x"},
    {"allOf": [{"type": "string"}, {"enum": [1], "const": 2}]},
    {"type": "object", "properties": {"a": {"type": "string", "const": 1}}, "required": ["a"]},
]


@pytest.mark.parametrize("schema", SEARCHED_IN_VAIN, ids=json.dumps)
def test_the_witness_engine_does_not_search_where_no_value_can_pass(schema: Any) -> None:
    """Counted work: no candidate is tried, no reference evaluation made."""
    engine = Engine(schema)
    before, left = reference.checks_made(), engine.budget.left
    assert engine.accepted(schema, 3) == []
    assert (reference.checks_made(), engine.budget.left) == (before, left)


@pytest.mark.parametrize(
    ("schema", "says_false"), NO_VALUE, ids=[json.dumps(s) for s, _ in NO_VALUE]
)
def test_every_export_of_a_place_no_value_can_pass_is_a_schema_that_accepts_no_more_there(
    schema: Any, says_false: bool
) -> None:
    """Exports say it as written: each platform's definition (or its refusal, with findings)
    holds valid JSON Schema that refuses nothing there the module accepts (an export may
    loosen, with a note, never tighten), and keeps an ``enum``/``const`` that lets no value
    pass, or notes that it dropped it."""
    import jsonschema

    contract = checked(contract_with(schema))
    module = build_module(contract_with(schema))
    accepted = [value for value in VALUES if module.validate({"v": value}).ok]
    for target in ("openai", "anthropic", "gemini", "mcp"):
        try:
            result = export.export(contract, target)
        except export.ExportError as error:
            assert error.findings
            continue
        tool = result.definition.get("function", result.definition)
        (parameters,) = (tool[key] for key in PARAMETERS_KEYS if key in tool)
        jsonschema.Draft202012Validator.check_schema(parameters)
        place = parameters["properties"]["v"]
        assert [v for v in accepted if not jsonschema.Draft202012Validator(place).is_valid(v)] == []
        if says_false:
            kept = [k for k in ("enum", "const") if k in schema and _holds(place, k)]
            assert kept or any("enforce" in note for note in result.notes), (target, place)


def _holds(place: dict[str, Any], keyword: str) -> bool:
    """Whether an exported schema says ``keyword`` itself or in a member of its ``anyOf`` (a
    nullable export), as a key: not a word of a description."""
    members = place.get("anyOf", [])
    return keyword in place or any(isinstance(m, dict) and keyword in m for m in members)


#: Where each platform's definition holds the arguments' schema.
PARAMETERS_KEYS = ("parameters", "input_schema", "parametersJsonSchema", "inputSchema")


# -- enum members that never pass, and members listed twice --------------------------------

#: Legal enums with members that change nothing: listed twice, of a type ``type`` refuses,
#: or refused by another keyword of their schema; each warned of at the member.
DEAD_MEMBERS = [
    ({"type": "string", "enum": ["c", "f", "c"]}, "is listed twice"),
    ({"enum": [1, 2, 1.0]}, "is listed twice"),
    ({"enum": [{"a": 1}, {"a": 1.0}]}, "is listed twice"),
    ({"type": "string", "enum": ["a", 1]}, "which 'type' (string) does not allow"),
    ({"type": "boolean", "enum": [True, 1]}, "which 'type' (boolean) does not allow"),
    ({"type": "string", "enum": ["c", None]}, "this 'enum' value is null"),
    ({"type": "string", "maxLength": 2, "enum": ["ab", "abc"]}, "maxLength refuses it"),
    ({"type": "string", "pattern": "^[cf]$", "enum": ["c", "k"]}, "pattern refuses it"),
    ({"type": "integer", "minimum": 0, "enum": [-1, 0, 0]}, "minimum refuses it"),
]


@pytest.mark.parametrize(
    ("schema", "said"), DEAD_MEMBERS, ids=[json.dumps(s) for s, _ in DEAD_MEMBERS]
)
def test_an_enum_member_that_changes_nothing_is_warned_of_and_generates_what_it_means(
    schema: Any, said: str
) -> None:
    parameters = contract_with(schema)
    warned = [w.message for w in checked(parameters).warnings]
    assert any(said in m for m in warned), warned
    assert_generates_what_jsonschema_means(parameters)
    assert_generates_what_jsonschema_means({**parameters, "required": ["v"]})


# -- a listed value another keyword refuses ------------------------------------------------

#: For each keyword that judges a value (``type``, and every keyword the vocabulary says
#: applies to one JSON type): a schema of it, and a value it refuses. ``const`` or ``enum``
#: of that value beside it leaves no value: the class of ``type: string, const: 5``.
REFUSING: dict[str, tuple[dict[str, Any], Any]] = {
    "type": ({"type": "string"}, 5),
    "minLength": ({"minLength": 2}, "a"),
    "maxLength": ({"maxLength": 1}, "ab"),
    "pattern": ({"pattern": "^b"}, "a"),
    "format": ({"format": "email"}, "x"),
    "minimum": ({"minimum": 2}, 1),
    "maximum": ({"maximum": 0}, 1),
    "exclusiveMinimum": ({"exclusiveMinimum": 1}, 1),
    "exclusiveMaximum": ({"exclusiveMaximum": 1}, 1),
    "multipleOf": ({"multipleOf": 3}, 4),
    "minItems": ({"minItems": 2}, [1]),
    "maxItems": ({"maxItems": 1}, [1, 2]),
    "items": ({"items": {"type": "string"}}, [1]),
    "prefixItems": ({"prefixItems": [{"type": "string"}]}, [1]),
    "contains": ({"contains": {"type": "string"}}, [1]),
    "minContains": ({"contains": {"type": "integer"}, "minContains": 2}, [1]),
    "maxContains": ({"contains": {"type": "integer"}, "maxContains": 1}, [1, 2]),
    "uniqueItems": ({"uniqueItems": True}, [1, 1.0]),
    "unevaluatedItems": ({"unevaluatedItems": False}, [1]),
    "minProperties": ({"minProperties": 1}, {}),
    "maxProperties": ({"maxProperties": 0}, {"a": 1}),
    "properties": ({"properties": {"a": {"type": "string"}}}, {"a": 1}),
    "required": ({"required": ["a"]}, {}),
    "additionalProperties": ({"additionalProperties": False}, {"a": 1}),
    "patternProperties": ({"patternProperties": {"^a": {"type": "string"}}}, {"a": 1}),
    "propertyNames": ({"propertyNames": {"maxLength": 1}}, {"ab": 1}),
    "dependentRequired": ({"dependentRequired": {"a": ["b"]}}, {"a": 1}),
    "dependentSchemas": ({"dependentSchemas": {"a": {"required": ["b"]}}}, {"a": 1}),
    "unevaluatedProperties": ({"unevaluatedProperties": False}, {"a": 1}),
    "not": ({"not": {"type": "integer"}}, 1),
    "allOf": ({"allOf": [{"type": "string"}]}, 1),
}


def test_the_refusing_keywords_are_every_keyword_that_judges_one_type() -> None:
    from toolshape.schema import vocabulary

    assert {"type", *vocabulary.type_of_keyword()} <= set(REFUSING)


#: Each keyword's schema with its refused value as ``const``, and as the one ``enum`` member.
LISTED_AND_REFUSED = [
    {**schema, member: value if member == "const" else [value]}
    for schema, value in REFUSING.values()
    for member in ("const", "enum")
]


@pytest.mark.parametrize("schema", LISTED_AND_REFUSED, ids=json.dumps)
def test_a_value_listed_and_refused_is_a_place_no_value_can_pass_in_every_stage(
    schema: Any,
) -> None:
    """The check warns at the member, the witness engine does not search there (counted: no
    candidate tried), the derived cases send a value there and expect its refusal, and the
    module refuses every value there as jsonschema does."""
    parameters = contract_with(schema)
    contract = checked(parameters)
    warned = [w.message for w in contract.warnings]
    # Named by the code that refuses it: the keyword's own, or its subschema's.
    assert any("never pass" in m or NO_VALUE_SAID in m for m in warned), warned
    assert not any("no value this schema accepts was found" in m for m in warned), warned
    engine = Engine(schema)
    left = engine.budget.left
    assert (engine.accepted(schema, 3), engine.budget.left) == ([], left)
    derived = cases.derive(contract)
    assert [c.name for c in derived.cases if c.name == "v: no value can pass"] == [
        "v: no value can pass"
    ]
    assert_generates_what_jsonschema_means(parameters)
    required = checked({**parameters, "required": ["v"]})
    assert any(w.message.startswith("as written, NO ARGUMENTS CAN PASS") for w in required.warnings)


class _EvaluatorFault(KeyError):
    """An internal error of the reference evaluator, of a class an adapter used to swallow."""


@pytest.mark.parametrize("stage", ["the contract check", "the witness engine", "derived cases"])
def test_every_stage_asks_the_one_reference_answer_and_its_errors_surface(
    stage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whether no value can pass a place is one function (``reference.refuses_every_value``)
    that every stage asks (counted), and an error inside the evaluator is raised there, never
    taken for "this value passes" (which would hide a place no value can pass, or have the
    witness engine search it in vain)."""
    schema = {"enum": ["a", "b"], "maxLength": 5}  # listed values: the evaluator is asked
    parameters = {**contract_with(schema), "required": ["v"]}  # the check asks of the root
    contract = checked(parameters)
    asking: Callable[[], object] = {
        "the contract check": lambda: checked(parameters),
        "the witness engine": lambda: Engine(parameters).impossible(schema),
        "derived cases": lambda: cases.derive(contract),
    }[stage]
    asked: list[Any] = []

    def counted(place: Any, refuses: Any = None) -> bool:
        asked.append(place)
        return bool(value_rules.unsatisfiable(place, refuses))

    monkeypatch.setattr(reference, "unsatisfiable", counted)
    asking()
    assert asked, f"{stage} did not ask reference.refuses_every_value"

    def fault(*_: Any, **__: Any) -> Any:
        raise _EvaluatorFault("inside the evaluator")

    monkeypatch.setattr(reference, "errors_of", fault)
    with pytest.raises(_EvaluatorFault):
        asking()


#: How a derived-case warning says that no value can pass at its place.
NO_VALUE_SAID = "as written, no value can pass here"


# -- boolean schemas -------------------------------------------------------------------


#: Every place the vocabulary holds a schema, as a function of the schema put there: one
#: schema, a list of schemas, a map of names to schemas (each keyword that holds them).
def _holding(keyword: str, shape: str, sub: Any) -> dict[str, Any]:
    held = {"one": sub, "list": [sub], "map": {"a": sub}}[shape]
    return {keyword: held, **({"if": True} if keyword in ("then", "else") else {})}


def _places() -> list[tuple[str, str]]:
    from toolshape.schema import vocabulary

    held = [(k, shape) for shape in ("one", "list", "map") for k in vocabulary.holders(shape)]
    return [*held, (CONTENT_SCHEMA, "one")]


#: The one annotation that holds a schema (checked like one, never applied).
CONTENT_SCHEMA = "contentSchema"


BOOLEAN_PLACES = [(keyword, shape, sub) for keyword, shape in _places() for sub in (True, False)]


def test_the_boolean_places_are_every_place_that_holds_a_schema() -> None:
    """Every implemented keyword whose value is a schema, a list or a map of them, read from
    the table's rows (not from the holders' lists the places are built from)."""
    from toolshape.schema import vocabulary

    holders = {
        k.name for k in vocabulary.KEYWORDS if k.implemented and k.shape in ("one", "list", "map")
    }
    assert {k for k, _, _ in BOOLEAN_PLACES} == holders


@pytest.mark.parametrize(
    ("keyword", "shape", "sub"),
    BOOLEAN_PLACES,
    ids=[f"{k}-{json.dumps(b)}" for k, _, b in BOOLEAN_PLACES],
)
def test_a_boolean_schema_generates_in_every_place_a_schema_may_stand(
    keyword: str, shape: str, sub: bool
) -> None:
    """``true`` and ``false`` are schemas wherever a schema may stand: the check accepts them
    (a ``$defs`` entry is reached through a ``$ref``) and the module means what jsonschema
    does, on the argument and, for the object keywords, on the arguments themselves."""
    schema = _holding(keyword, shape, sub)
    if keyword == "$defs":
        schema["$ref"] = "#/properties/v/$defs/a"
    assert_generates_what_jsonschema_means(contract_with(schema))
    if keyword not in ("$defs", "items", "prefixItems", "contains", "unevaluatedItems"):
        root = {"type": "object", **_holding(keyword, shape, sub)}
        module = build_module(root)
        tried = [{}, {"a": 1}, {"a": "x", "b": [1]}]
        assert not verdicts_unlike_jsonschema(module, root, tried)


@pytest.mark.parametrize("root", [True, False])
@pytest.mark.parametrize("top", ["parameters", "output"])
def test_a_boolean_root_generates_what_it_means(root: bool, top: str) -> None:
    """``parameters: true`` lets every arguments object pass and ``parameters: false`` none,
    with a warning that no call can pass; the same for ``output``. Arguments and results
    are one JSON object, so a value of another type is refused either way."""
    document: dict[str, Any] = {"name": "t", "description": "A tool."}
    document["parameters"] = {"type": "object"}
    document[top] = root
    contract = checker.check(source.load(json.dumps(document).encode("utf-8"), "t.yaml"))
    loud = [w for w in contract.warnings if "CAN PASS" in w.message]
    assert len(loud) == (0 if root else 1), contract.warnings
    side = contract if top == "parameters" else contract.result_side()
    assert side is not None
    if top == "parameters":
        module = build_module(root)
        objects = [{}, {"a": 1}, {"a": [None, "x"]}]
        assert [module.validate(value).ok for value in objects] == [root] * 3
        others: list[Any] = [None, [], "x", 1]
        assert [module.validate(value).ok for value in others] == [False] * 4
        if not root:
            (error,) = module.validate({}).errors
            assert (error.path, error.code) == ("", "false")
    derived = cases.derive(side)
    assert derived.cases and all(bool(case.errors) != root for case in derived.cases)


def _deep_enum_through_a_chain(depth: int, chain: int) -> dict[str, Any]:
    """A contract whose root lists one value nested ``depth`` levels deep and reaches, through a
    chain of ``chain`` allOf/$ref steps, a schema that recurses into the same key: each within
    the checker's limits, the evaluator's recursion the two at once."""
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {"c": value}
    defs: dict[str, Any] = {
        f"a{n}": {"allOf": [{"$ref": f"#/$defs/a{n + 1}"}]} for n in range(1, chain)
    }
    defs[f"a{chain}"] = {"type": "object", "properties": {"c": {"$ref": "#/$defs/a1"}}}
    return {
        "name": "chain_tool",
        "description": "A tool with a long reference chain.",
        "parameters": {
            "type": "object",
            "properties": {"c": {"$ref": "#/$defs/a1"}},
            "allOf": [{"enum": [value], "allOf": [{"$ref": "#/$defs/a1"}]}],
            "$defs": defs,
        },
    }


def test_where_the_evaluator_runs_out_of_stack_the_one_answer_is_cannot_tell() -> None:
    """A listed value deep, checked through a long chain of references: the evaluator's
    recursion is both at once and may exceed the stack. The contract check still answers
    (no place is said to refuse every value: unsatisfiable may miss one, never invent one)."""
    raw = json.dumps(_deep_enum_through_a_chain(depth=40, chain=45)).encode()
    checked = checker.check(source.load(raw, "contracts/chain_tool.yaml"))
    assert not any("no value can pass" in w.message for w in checked.warnings)


def _long_listed_string() -> dict[str, Any]:
    """A legal contract listing one string whose ``pattern`` the matcher cannot settle within
    its steps (180,000 characters against a 40-way alternation: about 7 million steps), and
    one it can."""
    words = "|".join(f"w{i:02d}" for i in range(40))
    pattern = f"^(?:{words})*$"
    return {
        "name": "long_listed",
        "description": "A tool that lists a long string.",
        "parameters": {
            "type": "object",
            "properties": {
                "s": {"type": "string", "pattern": pattern, "enum": ["w01" * 60_000, "w02"]}
            },
            "required": ["s"],
        },
        "examples": [{"args": {"s": "w02"}}],
    }


def test_a_listed_string_whose_pattern_runs_out_of_steps_checks_and_generate_says_why_not() -> None:
    """The evaluator cannot tell whether such a string passes (its matcher runs out of steps,
    ``reference.CANNOT_TELL``): the contract check answers "cannot tell" (no place said to
    refuse every value, no dead value), and ``generate`` refuses it at the pattern with the
    matcher's located error, never an internal one."""
    raw = json.dumps(_long_listed_string()).encode()
    checked = checker.check(source.load(raw, "contracts/long_listed.yaml"))
    assert not checked.warnings
    with pytest.raises(ContractError) as raised:
        pipeline.generate(
            raw, "contracts/long_listed.yaml", PurePosixPath("long_listed.yaml"), CONTEXT
        )
    (problem,) = raised.value.problems
    assert "takes more than 5,000,000 steps" in problem.message and problem.line == 1


#: Errors the reference evaluator may raise only through a bug: never read as an answer.
_BUGS = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def _evaluator_raising(error: type[Exception]) -> Callable[..., Any]:
    def raising(*_: Any, **__: Any) -> Any:
        raise error("raised inside the evaluator")

    return raising


_LISTED = json.dumps(
    {
        "name": "listed",
        "description": "A tool with a listed value.",
        "parameters": {"type": "object", "properties": {"k": {"enum": ["a", "b"]}}},
    }
).encode()


@pytest.mark.parametrize("error", _BUGS, ids=lambda e: e.__name__)
def test_an_error_inside_the_evaluator_surfaces_from_the_check_and_the_witnesses(
    error: type[Exception], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dead-value check of the contract and the witness engine's confirmation ask the
    reference evaluator; an error it raises that is not "cannot tell" is a bug and surfaces,
    instead of being read as "no warning" or "not confirmed"."""
    from toolshape.witness import values as witness_values

    monkeypatch.setattr(checker, "errors_of", _evaluator_raising(error))
    with pytest.raises(error, match="raised inside the evaluator"):
        checker.check(source.load(_LISTED, "contracts/listed.yaml"))
    monkeypatch.setattr(witness_values, "errors_of", _evaluator_raising(error))
    schema = {"type": "string"}
    with pytest.raises(error, match="raised inside the evaluator"):
        Engine(schema).confirms([schema], "x")


#: What the evaluator raises where it cannot tell: out of stack, a pattern out of steps.
_CANNOT_TELL = (RecursionError, matcher.OutOfSteps)


@pytest.mark.parametrize("error", _CANNOT_TELL, ids=lambda e: e.__name__)
def test_where_the_evaluator_cannot_tell_the_check_and_the_witnesses_answer_safely(
    error: type[Exception], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the evaluator cannot tell, each caller gives its safe answer: the contract check
    warns of no dead value; the witness engine confirms no value out of stack (a value it
    cannot confirm is never offered as accepted), and lets a pattern out of steps reach the
    derivation, which reports it at the pattern."""
    from toolshape.witness import values as witness_values

    monkeypatch.setattr(checker, "errors_of", _evaluator_raising(error))
    assert not checker.check(source.load(_LISTED, "contracts/listed.yaml")).warnings
    monkeypatch.setattr(witness_values, "errors_of", _evaluator_raising(error))
    schema = {"type": "string"}
    if error is RecursionError:
        assert Engine(schema).confirms([schema], "x") is False
    else:  # a pattern out of steps: generate says so at the pattern (test_counted_work.py)
        with pytest.raises(error, match="raised inside the evaluator"):
            Engine(schema).confirms([schema], "x")
