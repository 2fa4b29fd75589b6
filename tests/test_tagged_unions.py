"""Tagged unions: a oneOf/anyOf of objects told apart by one key fixed to a constant (issue 25).

pydantic writes a union of models told apart by a ``Literal`` field as a ``oneOf`` (with an
OpenAPI ``discriminator`` beside it) or an ``anyOf`` of ``$ref``s, each model fixing the key
with ``const`` (older writers: an ``enum`` of one). toolshape decides when generating that
such a union is tagged, and by which key; the value's own tag then picks the alternative,
and a refusal names it by its tag (``for kind "round_trip": ...``), never "alternative 1".
Without a tag (missing, or no alternative's), the message says what the tag must be.

What must not change is the verdict: the last tests compare every error (path and code)
with the reference evaluator over a class of union shapes and values, and count the
branch functions a tagged value costs.
"""

from __future__ import annotations

import copy
import functools
import itertools
import json
import re
import types
from pathlib import PurePosixPath
from typing import Any, cast

import pytest
from support import CONTEXT, ROOT
from toolshape.codegen.building.context import BuildContext
from toolshape.contract import checker, reference
from toolshape.contract.errors import ContractError
from toolshape.families.combinators import checks as combinator_checks
from toolshape.families.combinators import rules as combinator_rules
from toolshape.platforms import importer
from toolshape.project import pipeline
from toolshape.schema.values import json_key

# -- schemas as pydantic writes them (pydantic 2's model_json_schema()) ---------------------

#: ``trip: Annotated[OneWay | RoundTrip, Field(discriminator="kind")]``: a oneOf of $refs,
#: each model fixing ``kind`` with const, and the discriminator with its mapping beside it.
TRIP_DISCRIMINATED = {
    "$defs": {
        "OneWay": {
            "properties": {
                "kind": {"const": "one_way", "title": "Kind", "type": "string"},
                "depart_date": {"title": "Depart Date", "type": "string"},
            },
            "required": ["kind", "depart_date"],
            "title": "OneWay",
            "type": "object",
        },
        "RoundTrip": {
            "properties": {
                "kind": {"const": "round_trip", "title": "Kind", "type": "string"},
                "depart_date": {"title": "Depart Date", "type": "string"},
                "return_date": {"title": "Return Date", "type": "string"},
            },
            "required": ["kind", "depart_date", "return_date"],
            "title": "RoundTrip",
            "type": "object",
        },
    },
    "properties": {
        "trip": {
            "discriminator": {
                "mapping": {"one_way": "#/$defs/OneWay", "round_trip": "#/$defs/RoundTrip"},
                "propertyName": "kind",
            },
            "oneOf": [{"$ref": "#/$defs/OneWay"}, {"$ref": "#/$defs/RoundTrip"}],
            "title": "Trip",
        }
    },
    "required": ["trip"],
    "title": "Book",
    "type": "object",
}

#: ``pets: list[Annotated[Cat | Dog, Field(discriminator="pet_type")]]``: the union is an
#: array's items.
PETS = {
    "$defs": {
        "Cat": {
            "properties": {
                "pet_type": {"const": "cat", "title": "Pet Type", "type": "string"},
                "meows": {"title": "Meows", "type": "integer"},
            },
            "required": ["pet_type", "meows"],
            "title": "Cat",
            "type": "object",
        },
        "Dog": {
            "properties": {
                "pet_type": {"const": "dog", "title": "Pet Type", "type": "string"},
                "barks": {"title": "Barks", "type": "number"},
            },
            "required": ["pet_type", "barks"],
            "title": "Dog",
            "type": "object",
        },
    },
    "properties": {
        "pets": {
            "items": {
                "discriminator": {
                    "mapping": {"cat": "#/$defs/Cat", "dog": "#/$defs/Dog"},
                    "propertyName": "pet_type",
                },
                "oneOf": [{"$ref": "#/$defs/Cat"}, {"$ref": "#/$defs/Dog"}],
            },
            "title": "Pets",
            "type": "array",
        }
    },
    "required": ["pets"],
    "title": "Owner",
    "type": "object",
}


def _trip_with(union: str, fixed: str) -> dict[str, Any]:
    """The trip union written inline as ``union`` (anyOf, oneOf), each alternative fixing
    ``kind`` as ``fixed`` says: "const", or "enum" (an enum of one, as older writers do)."""

    def kind(value: str) -> dict[str, Any]:
        return {"const": value} if fixed == "const" else {"enum": [value]}

    one_way: dict[str, Any] = {
        "type": "object",
        "properties": {"kind": kind("one_way"), "depart_date": {"type": "string"}},
        "required": ["kind", "depart_date"],
    }
    round_trip = copy.deepcopy(one_way)
    round_trip["properties"]["kind"] = kind("round_trip")
    round_trip["properties"]["return_date"] = {"type": "string"}
    round_trip["required"].append("return_date")
    return {
        "type": "object",
        "properties": {"trip": {union: [one_way, round_trip]}},
        "required": ["trip"],
    }


# -- building modules -----------------------------------------------------------------------


def module_of(parameters: dict[str, Any], name: str = "book") -> types.ModuleType:
    """The module generated (in memory) from a contract with these parameters."""
    contract = {"name": name, "description": "d", "parameters": parameters}
    return module_of_text(json.dumps(contract), name)  # JSON is YAML


def module_of_text(text: str, name: str) -> types.ModuleType:
    return generated(text, name).module


@functools.cache
def generated(text: str, name: str) -> pipeline.ModuleOnly:
    """The module, its examples and derived cases checked (generation fails otherwise)."""
    return pipeline.generate_module(
        text.encode("utf-8"), f"{name}.yaml", PurePosixPath(f"{name}.yaml"), CONTEXT
    )


def imported(parameters: dict[str, Any]) -> types.ModuleType:
    """The module of the contract ``toolshape import`` makes of a JSON Schema (as a user
    brings pydantic's output in)."""
    [contract] = importer.import_data(_tool(parameters), "book.json")
    return module_of_text(contract.yaml_text, contract.name)


def _tool(parameters: dict[str, Any]) -> dict[str, Any]:
    """A tool definition (name, description, parameters) holding a model's JSON Schema."""
    return {"name": "book", "description": "Book it.", "parameters": parameters}


def messages(module: types.ModuleType, value: Any) -> dict[str, str]:
    result = module.validate(value)
    assert not result.ok, value
    return {error.path: error.message for error in result.errors}


# -- the tag picks the alternative ----------------------------------------------------------


def test_a_discriminated_oneof_names_the_alternative_its_tag_picks() -> None:
    """The issue's call: a round trip without its return date was told to be a one-way trip
    ('the closest (alternative 1) fails at /trip/kind: "kind" must be "one_way"')."""
    module = imported(TRIP_DISCRIMINATED)
    found = messages(module, {"trip": {"kind": "round_trip", "depart_date": "2026-07-01"}})
    assert found == {
        "/trip": 'for kind "round_trip", at /trip/return_date: missing required key "return_date"'
    }
    found = messages(module, {"trip": {"kind": "one_way", "depart_date": 20260701}})
    assert found == {
        "/trip": 'for kind "one_way", at /trip/depart_date: "depart_date" must be a string, '
        "got an integer"
    }
    assert module.validate({"trip": {"kind": "one_way", "depart_date": "2026-07-01"}}).ok
    # A Python float that is no JSON number is no alternative's tag: refused by the union,
    # as by each alternative's own check of the string it must be.
    for not_json in (float("nan"), float("inf")):
        result = module.validate({"trip": {"kind": not_json, "depart_date": "2026-07-01"}})
        assert [(e.path, e.code) for e in result.errors] == [("/trip", "oneOf")], result.errors


def test_the_discriminator_mapping_goes_and_the_constants_still_tell_the_alternatives_apart() -> (
    None
):
    """pydantic's ``discriminator`` (propertyName and mapping) is OpenAPI's, not JSON
    Schema's: import drops it, saying so, and the tag comes from each model's const."""
    [contract] = importer.import_data(_tool(TRIP_DISCRIMINATED), "book.json")
    assert "discriminator" not in contract.yaml_text
    assert any("'discriminator'" in warning.message for warning in contract.warnings)
    source = generated(contract.yaml_text, contract.name).source
    assert re.search(r'_Tag\(\s*"kind",\s*\["one_way", "round_trip"\]', source), source
    assert '# oneOf, told apart by the key "kind"' in source


def test_a_discriminator_written_in_a_contract_is_refused_with_what_does_its_work() -> None:
    """A contract is JSON Schema: OpenAPI's ``discriminator``, pasted from pydantic's output,
    is refused at its place, and the message says the constants already tell the
    alternatives apart."""
    contract = {"name": "book", "description": "d", "parameters": TRIP_DISCRIMINATED}
    with pytest.raises(ContractError) as refused:
        checker.load_and_check(json.dumps(contract, indent=1).encode("utf-8"), "book.json")
    [problem] = [str(p) for p in refused.value.problems]
    assert problem.startswith("book.json:"), problem
    assert problem.endswith(
        "error: unknown keyword 'discriminator' (OpenAPI's); JSON Schema tells the "
        'alternatives apart by "kind" fixed to a constant of its own in each one (const, or '
        "an enum of one), and toolshape names each alternative by it in its messages: keep "
        "those and remove 'discriminator'"
    ), problem


def test_an_anyof_of_enums_of_one_is_tagged_too() -> None:
    """pydantic's plain ``OneWay | RoundTrip`` is an anyOf; older writers fix a Literal with
    an enum of one member."""
    for union in ("anyOf", "oneOf"):
        for fixed in ("enum", "const"):
            module = module_of(_trip_with(union, fixed), f"trip_{union}_{fixed}")
            found = messages(module, {"trip": {"kind": "round_trip", "depart_date": "x"}})
            assert found == {
                "/trip": 'for kind "round_trip", at /trip/return_date: '
                'missing required key "return_date"'
            }, (union, fixed)


def test_a_union_inside_an_array_item_names_the_item_and_its_tag() -> None:
    module = imported(PETS)
    value = {
        "pets": [
            {"pet_type": "cat", "meows": 3},
            {"pet_type": "dog", "barks": "loud"},
            {"pet_type": "cat", "barks": 1.5},
        ]
    }
    assert messages(module, value) == {
        "/pets/1": 'for pet_type "dog", at /pets/1/barks: "barks" must be a number, got a string',
        "/pets/2": 'for pet_type "cat", at /pets/2/meows: missing required key "meows"',
    }


def test_a_tagged_union_in_a_shared_definition_names_each_value_as_its_caller_does() -> None:
    """One $ref target serves two properties: its tag's messages name "outbound" and
    "inbound", never "the value"."""
    union = _trip_with("oneOf", "const")["properties"]["trip"]
    parameters = {
        "type": "object",
        "$defs": {"trip": union},
        "properties": {
            "outbound": {"$ref": "#/$defs/trip"},
            "inbound": {"$ref": "#/$defs/trip"},
        },
    }
    module = module_of(parameters, "legs")
    found = messages(
        module,
        {"outbound": {"kind": "round_trip", "depart_date": "x"}, "inbound": {"depart_date": "x"}},
    )
    assert found == {
        "/outbound": 'for kind "round_trip", at /outbound/return_date: '
        'missing required key "return_date"',
        "/inbound": '"inbound" must match exactly one of 2 alternatives: '
        'missing required key "kind" (one of "one_way", "round_trip")',
    }


def test_the_tag_is_the_key_whose_constants_differ() -> None:
    """Both alternatives fix ``version`` to 1 and ``kind`` to a constant of their own: a
    key whose constants two alternatives share tells nothing apart, so ``kind`` is the tag."""
    parameters = _trip_with("oneOf", "const")
    for branch in parameters["properties"]["trip"]["oneOf"]:
        branch["properties"] = {"version": {"const": 1}, **branch["properties"]}
    module = module_of(parameters, "versioned")
    found = messages(module, {"trip": {"version": 1, "kind": "round_trip", "depart_date": "x"}})
    assert found == {
        "/trip": 'for kind "round_trip", at /trip/return_date: missing required key "return_date"'
    }
    found = messages(module, {"trip": {"version": 1, "kind": "one_way", "depart_date": 5}})
    assert found == {
        "/trip": 'for kind "one_way", at /trip/depart_date: "depart_date" must be a string, '
        "got an integer"
    }


def test_the_booking_contract_tells_the_model_which_trip_and_passenger_it_meant() -> None:
    """contracts/travel/reserve_trip.yaml, the issue's call and a child without an age: the
    feedback a model reads names each alternative by its tag."""
    path = ROOT / "contracts" / "travel" / "reserve_trip.yaml"
    text = path.read_text(encoding="utf-8")
    module = generated(text, "reserve_trip").module
    trip = {
        "kind": "round_trip",
        "origin": "LHR",
        "destination": "JFK",
        "depart_date": "2026-07-01",
    }
    passengers = [{"type": "adult", "name": "Ana"}, {"type": "child", "name": "Ben"}]
    call = {"trip": trip, "passengers": passengers}
    feedback = module.parse(json.dumps(call)).feedback()
    assert (
        '- at /trip: for kind "round_trip", at /trip/return_date: '
        'missing required key "return_date"\n'
    ) in feedback, feedback
    assert (
        '- at /passengers/1: for type "child", at /passengers/1/age: missing required key "age"\n'
    ) in feedback, feedback
    assert "alternative 1" not in feedback


# -- without a tag: what the tag must be ----------------------------------------------------


def test_an_unknown_tag_names_the_tags_there_are() -> None:
    module = imported(TRIP_DISCRIMINATED)
    trip = {"depart_date": "2026-07-01", "return_date": "2026-07-09"}
    prefix = '"trip" must match exactly one of 2 alternatives: '
    assert messages(module, {"trip": {**trip, "kind": "roundtrip"}}) == {
        "/trip": prefix + '"kind" must be one of "one_way", "round_trip"; '
        'did you mean "round_trip"?'
    }
    for other in ("return", 1, None, ["round_trip"], {"round_trip": 1}):
        assert messages(module, {"trip": {**trip, "kind": other}}) == {
            "/trip": prefix + '"kind" must be one of "one_way", "round_trip"'
        }, other
    assert messages(module, {"trip": trip}) == {
        "/trip": prefix + 'missing required key "kind" (one of "one_way", "round_trip")'
    }


def test_without_a_tag_the_closest_is_an_alternative_that_does_not_require_one() -> None:
    """A Literal field with a default (``kind: Literal["one_way"] = "one_way"``) is not
    required: a value without a tag can only be that alternative, and is told its own
    problem, by its tag's name."""
    parameters = _trip_with("oneOf", "const")
    one_way = parameters["properties"]["trip"]["oneOf"][0]
    one_way["required"] = ["depart_date"]
    module = module_of(parameters, "trip_default")
    assert module.validate({"trip": {"depart_date": "x"}}).ok
    assert messages(module, {"trip": {"depart_date": 5}}) == {
        "/trip": '"trip" must match exactly one of 2 alternatives; the closest (kind "one_way") '
        'fails at /trip/depart_date: "depart_date" must be a string, got an integer'
    }


def test_an_untagged_union_prefers_the_alternative_whose_constants_the_value_matches() -> None:
    """No key tells these three apart (the third fixes none), so the union is not tagged;
    of the alternatives that fail once each, the closest is the one whose const holds,
    not the first."""
    parameters = _trip_with("anyOf", "const")
    parameters["properties"]["trip"]["anyOf"].append({"type": "string"})
    module = module_of(parameters, "trip_untagged")
    found = messages(module, {"trip": {"kind": "round_trip", "depart_date": "x"}})
    assert found == {
        "/trip": '"trip" must match at least one of 3 alternatives; the closest (alternative 2) '
        'fails at /trip/return_date: missing required key "return_date"'
    }


def test_a_sensitive_tag_is_never_named_and_a_plain_one_beside_it_is() -> None:
    """A refusal names the tags; where the tag's value is x-sensitive the union is not told
    apart by it, and no message shows a constant of it."""
    parameters = _trip_with("oneOf", "const")
    secret = copy.deepcopy(parameters["properties"]["trip"])
    for branch in secret["oneOf"]:
        branch["properties"]["kind"]["x-sensitive"] = True
    parameters["properties"]["code"] = secret
    module = module_of(parameters, "trip_secret")
    broken = {"kind": "round_trip", "depart_date": "x"}
    found = messages(module, {"trip": broken, "code": broken})
    assert found["/trip"].startswith('for kind "round_trip", ')
    assert "round_trip" not in found["/code"] and "one_way" not in found["/code"], found


# -- the verdict is the union's: a class of shapes and values --------------------------------

#: Tag constants of each JSON type a tag may have, and values JSON-equal to them that Python
#: tells apart (1.0 for 1), or that Python confuses with them (True for 1, 0 for False).
TAG_SETS: dict[str, list[Any]] = {
    "strings": ["a", "b", "c"],
    "numbers": [1, 2.5, -3],
    "others": [True, None, 0],
}
TAG_PROBES = ["a", "b", "c", "x", 1, 1.0, 2.5, -3, -3.0, True, False, None, 0, 0.0, "1", [1], {}]


def _union_schema(
    union: str, tags: list[Any], required: list[bool], typed: bool, by_ref: bool, fixed: str
) -> dict[str, Any]:
    branches = []
    defs = {}
    for i, (tag, needs_tag) in enumerate(zip(tags, required, strict=True)):
        branch: dict[str, Any] = {
            "properties": {
                "t": {"const": tag} if fixed == "const" else {"enum": [tag]},
                f"f{i}": {"type": "integer"},
            },
            "required": (["t"] if needs_tag else []) + [f"f{i}"],
        }
        if typed:
            branch["type"] = "object"
        if by_ref:
            defs[f"b{i}"] = branch
            branches.append({"$ref": f"#/$defs/b{i}"})
        else:
            branches.append(branch)
    parameters: dict[str, Any] = {"type": "object", "properties": {"u": {union: branches}}}
    if defs:
        parameters["$defs"] = defs
    return parameters


#: Whether each of the three alternatives requires the tag (pydantic leaves a Literal field
#: with a default out of ``required``).
REQUIRED = [(True, True, True), (False, False, False), (True, False, True)]
#: The values tried on every shape: not objects, then objects with each tag probe (or none)
#: and the alternatives' own keys present, absent or of the wrong type.
NOT_OBJECTS = ["s", 1, None, [], True]
OWN_KEYS: list[dict[str, Any]] = [
    {},
    {"f0": 1},
    {"f0": "1"},
    {"f0": 1, "f1": 1.0},
    {"f1": 2.0},
    {"f2": 3},
]
MISSING = object()


def _values() -> list[Any]:
    values: list[Any] = list(NOT_OBJECTS)
    for tag in [MISSING, *TAG_PROBES]:
        for keys in OWN_KEYS:
            values.append(dict(keys) if tag is MISSING else {"t": tag, **keys})
    return values


@pytest.mark.parametrize("tag_set", sorted(TAG_SETS))
@pytest.mark.parametrize("union", ["anyOf", "oneOf"])
def test_the_errors_are_the_reference_evaluators_and_a_tag_names_its_alternative(
    union: str, tag_set: str
) -> None:
    """Every shape (the tag required by all, none or some alternatives; with or without
    ``type: object``, which decides whether a non-object matches; inline or through $ref;
    const or an enum of one) against every value: the errors are the reference
    evaluator's, and a refused value whose tag is an alternative's names it."""
    tags = TAG_SETS[tag_set]
    named = 0
    for required, typed, by_ref, fixed in itertools.product(
        REQUIRED, (True, False), (True, False), ("const", "enum")
    ):
        parameters = _union_schema(union, tags, list(required), typed, by_ref, fixed)
        module = module_of(parameters, "shape")
        for value in _values():
            result = module.validate({"u": value})
            expected = reference.evaluate(parameters, {"u": value})
            errors = {(error.path, error.code) for error in result.errors}
            assert errors == expected, (parameters, value)
            picked = [
                tag
                for tag in tags
                if isinstance(value, dict) and "t" in value and _json_equal(value["t"], tag)
            ]
            if picked and expected:
                [message] = [error.message for error in result.errors]
                assert message.startswith(f"for t {json.dumps(picked[0])}"), message
                named += 1
    assert named >= 100  # the class holds refused tagged values, not only accepted ones


def _json_equal(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True) or (
        type(a) in (int, float) and type(b) in (int, float) and a == b
    )


# -- the work a tagged value costs ----------------------------------------------------------


def test_a_tagged_value_runs_only_the_alternative_its_tag_picks() -> None:
    """Counted, not timed: each branch function of the module is wrapped to count its calls.
    An untagged oneOf runs every alternative to know that exactly one matches; a tag rules
    out every other alternative, accepted or refused. When every alternative requires the
    tag, an object whose tag is none of theirs fails them all at the tag: none runs; a value
    that is not an object runs each (to say which it is closest to)."""
    branches = [
        {
            "type": "object",
            "properties": {"t": {"const": f"k{i}"}, "n": {"type": "integer"}},
            "required": ["t", "n"],
        }
        for i in range(8)
    ]
    parameters = {"type": "object", "properties": {"u": {"oneOf": branches}}}
    module = module_of(parameters, "eight")
    calls: list[str] = []
    for name in [n for n in vars(module) if n.startswith("_check_")]:
        setattr(module, name, _counting(getattr(module, name), name, calls))
    for value, ok in [({"t": "k5", "n": 1}, True), ({"t": "k5", "n": "1"}, False)]:
        calls.clear()
        assert module.validate({"u": value}).ok is ok
        assert len(calls) == 1, calls
    for value, tried in [({"t": "k9", "n": 1}, 0), ({"n": 1}, 0), (5, 8), ([{"t": "k5"}], 8)]:
        calls.clear()
        assert not module.validate({"u": value}).ok
        assert len(calls) == tried, (value, calls)
    # With the tag optional in one alternative, an object without a tag of theirs may still
    # match that one: every alternative is tried.
    branches[3]["required"] = ["n"]
    module = module_of(parameters, "eight_open")
    calls = []
    for name in [n for n in vars(module) if n.startswith("_check_")]:
        setattr(module, name, _counting(getattr(module, name), name, calls))
    for value in [{"t": "k9", "n": 1}, {"n": 1}]:
        calls.clear()
        module.validate({"u": value})
        assert len(calls) == 8, (value, calls)


def _counting(function: Any, name: str, calls: list[str]) -> Any:
    def counted(*arguments: Any) -> Any:
        calls.append(name)
        return function(*arguments)

    return counted


def test_deciding_the_tag_costs_one_look_up_per_alternative(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Counted, not timed: whether the constants differ is one look-up per alternative, so a
    contract's union of thousands of alternatives costs its size, not its size squared."""
    size = 3000
    branches = [
        {"type": "object", "properties": {"t": {"const": f"k{i}"}}, "required": ["t"]}
        for i in range(size)
    ]
    parameters = {"type": "object", "properties": {"u": {"oneOf": branches}}}
    looked_up: list[Any] = []
    real = json_key

    def counted(value: Any) -> Any:
        looked_up.append(value)
        return real(value)

    monkeypatch.setattr(combinator_rules, "json_key", counted)
    contract = types.SimpleNamespace(parameters=parameters)
    context = cast(BuildContext, types.SimpleNamespace(secret=set(), contract=contract))
    tag = combinator_checks.union_tag(context, branches, ("properties", "u", "oneOf"))
    assert tag is not None and tag.key == "t" and len(tag.values) == size
    assert len(looked_up) == size
