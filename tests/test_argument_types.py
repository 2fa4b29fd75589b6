"""The ``Arguments`` and ``Output`` TypedDicts type unions (issue 25): a handler type-checks
under ``mypy --strict`` with no ``Any`` where the contract fixes a value's type.

One contract holds each kind of union (a tagged union of objects whose branches add to the
object around them, closed objects told apart by a key, ``null`` beside an enum, scalars,
an array of a scalar or an object, a recursive reference, the result's tagged union) and
one value whose type the contract leaves open. It is generated with the command line, and
mypy --strict checks two handlers against the generated package, as Python 3.10 (the oldest
this mypy checks; the generated code runs on 3.9 as well, test_generated_code.py runs it): ``narrowing.py`` narrows every union as a user would and must pass;
``mistakes.py`` marks each line mypy must refuse (a key of the other branch, a union used
unnarrowed, the open value returned as a precise type) with ``# error: <what mypy says>``.
mypy's cache is ``$TOOLSHAPE_TEST_MYPY_CACHE`` (see test_code_quality.py).

The types of single schemas (each union shape, and where ``Any`` must stay) are checked
without mypy, from the model: ``model.build`` and its TypedDicts.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import re
import subprocess
import sys
import types
import typing
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from support import CONTRACTS, user_cache
from test_differential import MODULE_NAMES, SETTINGS, valid_instances
from toolshape.cli import main
from toolshape.codegen import model
from toolshape.codegen.typing_model import TypedDictDef
from toolshape.contract import checker, source

CONTRACT = """\
name: book_trip
description: Book a trip.
parameters:
  type: object
  $defs:
    traveller:
      type: object
      properties:
        name: {type: string}
        companions: {type: array, items: {$ref: '#/$defs/traveller'}}
      required: [name]
  properties:
    trip:
      type: object
      properties:
        depart_date: {type: string, format: date}
      required: [kind, depart_date]
      oneOf:
        - properties: {kind: {const: one_way}}
        - properties: {kind: {const: round_trip}, return_date: {type: string, format: date}}
          required: [return_date]
    contact:
      oneOf:
        - {type: object, properties: {email: {type: string}}, required: [email], additionalProperties: false}
        - {type: object, properties: {phone: {type: string}}, required: [phone], additionalProperties: false}
    seat: {anyOf: [{type: string, enum: [aisle, window]}, {type: 'null'}]}
    budget: {anyOf: [{type: integer}, {type: string, pattern: '^[0-9]+ EUR$'}]}
    legs:
      type: array
      items:
        anyOf:
          - {type: string}
          - {type: object, properties: {from: {type: string}, to: {type: string}}, required: [from, to]}
    lead: {$ref: '#/$defs/traveller'}
    note: {anyOf: [{type: string}, {minLength: 1}]}
    window: {type: array, prefixItems: [{type: string, format: date}, {type: integer}], items: false}
  required: [trip]
  additionalProperties: false
output:
  type: object
  properties:
    booking:
      oneOf:
        - type: object
          properties: {status: {const: confirmed}, ref: {type: string}}
          required: [status, ref]
        - type: object
          properties: {status: {const: waitlisted}, position: {type: integer}}
          required: [status, position]
  required: [booking]
"""

NARROWING = """\
from __future__ import annotations

from typing import Literal

from trips.book_trip import Arguments, Output


def return_date(args: Arguments) -> str | None:
    trip = args["trip"]
    if trip["kind"] == "round_trip":
        return trip["return_date"]
    return None


def depart_date(args: Arguments) -> str:
    return args["trip"]["depart_date"]  # every branch has it


def contact(args: Arguments) -> str:
    contact = args.get("contact")
    if contact is None:
        return ""
    if "email" in contact:
        return contact["email"]
    return contact["phone"]


def seat(args: Arguments) -> Literal["aisle", "window"] | None:
    return args.get("seat")


def budget_cents(args: Arguments) -> int:
    budget = args.get("budget", 0)
    if isinstance(budget, int):
        return budget * 100
    return int(budget.split()[0]) * 100


def legs(args: Arguments) -> list[str]:
    return [leg if isinstance(leg, str) else leg["from"] + "-" + leg["to"] for leg in args.get("legs", [])]


def companions(args: Arguments) -> list[str]:
    lead = args.get("lead")
    if lead is None:
        return []
    return [c["name"] + str(len(c.get("companions", []))) for c in lead.get("companions", [])]


def window_days(args: Arguments) -> int:
    return sum(part if isinstance(part, int) else 0 for part in args.get("window", []))


def position(out: Output) -> int:
    booking = out["booking"]
    if booking["status"] == "waitlisted":
        return booking["position"]
    return 0
"""

MISTAKES = """\
from __future__ import annotations

from trips.book_trip import Arguments, Output


def return_date(args: Arguments) -> str:
    trip = args["trip"]
    if trip["kind"] == "one_way":
        return trip["return_date"]  # error: TypedDict "ArgumentsTripOneWay" has no key "return_date"
    return ""


def email(args: Arguments) -> str:
    contact = args["contact"]
    return contact["email"]  # error: TypedDict "ArgumentsContactWithPhone" has no key "email"


def budget(args: Arguments) -> int:
    return args["budget"]  # error: Incompatible return value type (got "int | str", expected "int")


def note(args: Arguments) -> int:
    return args["note"]  # error: Returning Any from function declared to return "int"


def window(args: Arguments) -> str:
    return args["window"][0]  # error: Incompatible return value type (got "str | int", expected "str")


def ref(out: Output) -> str:
    booking = out["booking"]
    if booking["status"] == "waitlisted":
        return booking["ref"]  # error: TypedDict "OutputBookingWaitlisted" has no key "ref"
    return booking["ref"]
"""

#: A contract whose arguments and result are each a union at the root: pydantic's shape for a
#: discriminated-union model (branches by reference, each fixing its tag), and branches that
#: add to the keys of the object around them.
ROOT_CONTRACT = """\
name: adopt_pet
description: Adopt a pet.
parameters:
  type: object
  oneOf:
    - $ref: '#/$defs/Cat'
    - $ref: '#/$defs/Dog'
  $defs:
    Cat:
      type: object
      properties:
        pet_type: {const: cat}
        meows: {type: integer}
      required: [pet_type, meows]
      additionalProperties: false
    Dog:
      type: object
      properties:
        pet_type: {const: dog}
        barks: {type: number}
      required: [pet_type, barks]
      additionalProperties: false
output:
  type: object
  properties:
    request_id: {type: string}
  required: [request_id]
  oneOf:
    - properties: {status: {const: adopted}, tag: {type: string}}
      required: [status, tag]
    - properties: {status: {const: refused}, reason: {type: string}}
      required: [status, reason]
"""

ROOT_NARROWING = """\
from __future__ import annotations

from trips.adopt_pet import Arguments, Output


def noise(args: Arguments) -> float:
    if args["pet_type"] == "cat":
        return args["meows"]
    return args["barks"]


def outcome(out: Output) -> str:
    if out["status"] == "adopted":
        return out["request_id"] + out["tag"]
    return out["request_id"] + out["reason"]
"""

ROOT_MISTAKES = """\
from __future__ import annotations

from trips.adopt_pet import Arguments, Output


def meows(args: Arguments) -> int:
    return args["meows"]  # error: TypedDict "ArgumentsDog" has no key "meows"


def tag(out: Output) -> str:
    if out["status"] == "refused":
        return out["tag"]  # error: TypedDict "OutputRefused" has no key "tag"
    return out["tag"]
"""

#: The handlers mypy checks, by file name: each ``mistakes`` file marks every line mypy must
#: refuse with ``# error: <what mypy says>``; the others must pass.
HANDLERS = {
    "narrowing.py": NARROWING,
    "mistakes.py": MISTAKES,
    "root_narrowing.py": ROOT_NARROWING,
    "root_mistakes.py": ROOT_MISTAKES,
}

#: mypy's line for one error: ``mistakes.py:9: error: message  [code]``.
ERROR_LINE = re.compile(r"^(?P<file>[\w.]+):(?P<line>\d+): error: (?P<message>.*?)(  \[[\w-]+\])?$")


@pytest.fixture(scope="module")
def checked(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[str, int], str]]:
    """The work folder (trips/ generated from CONTRACT, the two handlers) and mypy's errors
    by (file, line)."""
    if importlib.util.find_spec("mypy") is None:
        pytest.fail("mypy is not installed: pip install -e '.[test]'")
    work = tmp_path_factory.mktemp("argument-types")
    (work / "contracts").mkdir()
    (work / "contracts" / "book_trip.yaml").write_text(CONTRACT, encoding="utf-8")
    (work / "contracts" / "adopt_pet.yaml").write_text(ROOT_CONTRACT, encoding="utf-8")
    generated = main(["generate", str(work / "contracts"), "--out", str(work / "trips"), "-q"])
    assert generated == 0
    for name, text in HANDLERS.items():
        (work / name).write_text(text, encoding="utf-8")
    cache = user_cache("toolshape-test-mypy", "TOOLSHAPE_TEST_MYPY_CACHE")
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.10"]
        + ["--cache-dir", str(cache), *HANDLERS],
        cwd=work,
        capture_output=True,
        text=True,
        check=False,
    )
    errors: dict[tuple[str, int], str] = {}
    for line in done.stdout.splitlines():
        found = ERROR_LINE.match(line)
        if found:
            key = (found["file"], int(found["line"]))
            errors[key] = errors.get(key, "") + found["message"] + "\n"
    assert done.returncode in (0, 1), done.stdout + done.stderr  # 2: mypy itself failed
    return work, errors


def test_a_handler_that_narrows_every_union_type_checks(
    checked: tuple[Path, dict[tuple[str, int], str]],
) -> None:
    _, errors = checked
    assert {key: message for key, message in errors.items() if key[0] == "narrowing.py"} == {}


def assert_mypy_refuses_each_marked_line(
    errors: dict[tuple[str, int], str], file: str, count: int
) -> None:
    """mypy reports each line of ``file`` marked ``# error: ...`` (``count`` of them) with
    those words, and no other line."""
    expected = {
        (file, number): line.split("# error: ")[1]
        for number, line in enumerate(HANDLERS[file].splitlines(), start=1)
        if "# error: " in line
    }
    assert len(expected) == count
    found = {key: message for key, message in errors.items() if key[0] == file}
    assert set(found) == set(expected), found
    for key, message in expected.items():
        assert message in found[key], (key, found[key])


def test_mypy_refuses_a_key_of_the_wrong_branch_and_the_open_value_as_a_precise_type(
    checked: tuple[Path, dict[tuple[str, int], str]],
) -> None:
    assert_mypy_refuses_each_marked_line(checked[1], "mistakes.py", 6)


def test_a_union_at_the_root_types_arguments_and_output_branch_by_branch(
    checked: tuple[Path, dict[tuple[str, int], str]],
) -> None:
    """``Arguments`` and ``Output`` are unions of their branches' TypedDicts where the root
    itself is the union: a handler narrows them by tag, and mypy refuses a key of the other
    branch."""
    _, errors = checked
    assert {key: message for key, message in errors.items() if key[0] == "root_narrowing.py"} == {}
    assert_mypy_refuses_each_marked_line(errors, "root_mistakes.py", 2)


def test_a_root_union_s_alias_names_its_branches_at_import_and_accepted_values_have_it(
    checked: tuple[Path, dict[tuple[str, int], str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    work, _ = checked
    monkeypatch.syspath_prepend(str(work))
    module = importlib.import_module("trips.adopt_pet")
    assert typing.get_args(module.Arguments) == (module.ArgumentsCat, module.ArgumentsDog)
    assert typing.get_args(module.Output) == (module.OutputAdopted, module.OutputRefused)
    check = Conformance(module)
    for value in ({"pet_type": "cat", "meows": 3}, {"pet_type": "dog", "barks": 2.5}):
        result = module.validate(value)
        assert result.ok and check.holds(result.value, module.Arguments), value
    result = module.validate_result({"request_id": "r1", "status": "refused", "reason": "no"})
    assert result.ok and check.holds(result.value, module.Output)
    assert not check.holds({"pet_type": "cat", "barks": 1.0}, module.Arguments)
    assert check.unions == 4


def test_the_open_value_is_any_and_a_comment_says_so(
    checked: tuple[Path, dict[tuple[str, int], str]],
) -> None:
    work, _ = checked
    text = (work / "trips" / "book_trip.py").read_text(encoding="utf-8")
    assert "# Any where the contract leaves the type open: note\n" in text
    types = text[text.index("# -- The accepted arguments, as types") : text.index("class Result(")]
    assert re.findall(r"^    \w+: .*\bAny\b.*$", types, re.MULTILINE) == ["    note: Any"]


# -- the type of each shape of schema, from the model ------------------------------------------


def typed_dicts(parameters: dict[str, Any]) -> dict[str, TypedDictDef]:
    """The TypedDicts of a contract with these parameters, by name."""
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    checked = checker.check(source.load(json.dumps(document).encode(), "t.yaml"))
    return {str(d.name): d for d in model.build(checked, "t", "0" * 64).typed_dicts}


def field_types(parameters: dict[str, Any]) -> dict[str, str]:
    """The ``Arguments`` fields' types for a contract with these parameters (key: type)."""
    arguments = typed_dicts(parameters)["Arguments"]
    return {f.key: f.type for f in arguments.required + arguments.optional}


def one_key(schema: Any, **defs: Any) -> dict[str, Any]:
    parameters: dict[str, Any] = {"type": "object", "properties": {"v": schema}}
    if defs:
        parameters["$defs"] = defs
    return parameters


OBJECT_A = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
OBJECT_B = {"type": "object", "properties": {"b": {"type": "integer"}}}
#: Each shape of union and the type its value gets.
UNIONS = {
    "a nullable string": ({"anyOf": [{"type": "string"}, {"type": "null"}]}, "str | None"),
    "a union of scalars": ({"oneOf": [{"type": "boolean"}, {"type": "number"}]}, "bool | float"),
    "an enum beside null": (
        {"anyOf": [{"enum": ["a", "b"]}, {"type": "null"}]},
        'Literal["a", "b"] | None',
    ),
    "a const per branch": ({"anyOf": [{"const": 1}, {"const": "x"}]}, 'Literal[1] | Literal["x"]'),
    "an integer branch of a number": (
        {"type": "number", "anyOf": [{"type": "integer"}, {"minimum": 5}]},
        "int | float",
    ),
    "a false branch": ({"anyOf": [False, {"type": "string"}]}, "str"),
    "an array of a union": (
        {"type": "array", "items": {"anyOf": [{"type": "string"}, {"type": "integer"}]}},
        "list[str | int]",
    ),
    "positions and no more items": (
        {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}], "items": False},
        "list[str | int]",  # a list, as the handler gets it: never a tuple
    ),
    "positions, then items": (
        {"type": "array", "prefixItems": [{"enum": ["a"]}], "items": {"type": "boolean"}},
        'list[Literal["a"] | bool]',
    ),
    "a union holding a union": (
        {"anyOf": [{"type": "null"}, {"oneOf": [{"type": "string"}, {"type": "integer"}]}]},
        "None | str | int",
    ),
    "a free-form object beside a string": (
        {"anyOf": [{"type": "object"}, {"type": "string"}]},
        "dict[str, Any] | str",
    ),
    "objects, one named by the key it requires": (
        {"oneOf": [OBJECT_A, OBJECT_B]},
        "ArgumentsVWithA | ArgumentsVOption2",
    ),
}


@pytest.mark.parametrize(("schema", "expected"), UNIONS.values(), ids=UNIONS.keys())
def test_each_shape_of_union_gets_its_type(schema: Any, expected: str) -> None:
    assert field_types(one_key(schema))["v"] == expected


#: Where the contract does not fix a value's type: a branch that is anything, a branch
#: with no type, more alternatives than a type lists.
OPEN = {
    "a true branch": {"anyOf": [True, {"type": "string"}]},
    "a branch with no type": {"anyOf": [{"type": "string"}, {"minLength": 1}]},
    "an array of an open union": {"type": "array", "items": {"oneOf": [{"type": "null"}, {}]}},
    "too many alternatives": {"anyOf": [{"const": n} for n in range(40)]},
    "positions, then anything": {"type": "array", "prefixItems": [{"type": "string"}]},
}


@pytest.mark.parametrize("schema", OPEN.values(), ids=OPEN.keys())
def test_where_the_type_is_open_any_stays_and_a_comment_names_the_key(schema: Any) -> None:
    arguments = typed_dicts(one_key(schema))["Arguments"]
    assert re.search(r"\bAny\b", field_types(one_key(schema))["v"])
    assert arguments.open_note == "Any where the contract leaves the type open: v"


def test_the_schema_around_a_union_holds_in_each_branch() -> None:
    """A value taking a branch matches the schema around the union too: its types (those
    both admit; a branch whose types it refuses is no variant), properties and required keys."""
    group = {
        "type": "object",
        "properties": {"all": {"type": "array"}, "not": {"type": "string"}},
        "additionalProperties": False,
        "oneOf": [{"required": ["all"]}, {"required": ["not"]}],
    }
    parameters = one_key(group)
    parameters["properties"] |= {
        "n": {"type": "integer", "oneOf": [{"type": "number", "minimum": 1}, {"maximum": -1}]},
        "s": {"type": "string", "anyOf": [{"type": "integer"}, {"minLength": 2}]},
    }
    defs = typed_dicts(parameters)
    assert [(f.key, f.type) for f in defs["Arguments"].optional] == [
        ("v", "ArgumentsVWithAll | ArgumentsVWithNot"),
        ("n", "int"),
        ("s", "str"),
    ]
    for name, key in (("ArgumentsVWithAll", "all"), ("ArgumentsVWithNot", "not")):
        branch = defs[name]
        assert [f.key for f in branch.required] == [key]
        assert sorted(f.key for f in branch.required + branch.optional) == ["all", "not"]
        assert branch.closed  # additionalProperties: false around it: @final


def test_a_root_union_of_open_objects_imports_only_what_it_uses(tmp_path: Path) -> None:
    """pydantic's shape with branches that allow other keys: each branch's function prints no
    key path, so the module imports no ``_key`` it never calls (ruff's F401)."""
    contract = ROOT_CONTRACT.replace("      additionalProperties: false\n", "")
    assert contract.count("additionalProperties") == 0
    (tmp_path / "contracts").mkdir()
    (tmp_path / "contracts" / "adopt_pet.yaml").write_text(contract, encoding="utf-8")
    assert main(["generate", str(tmp_path / "contracts"), "-o", str(tmp_path / "pets"), "-q"]) == 0
    tree = ast.parse((tmp_path / "pets" / "adopt_pet.py").read_text(encoding="utf-8"))
    imported = {
        alias.asname or alias.name
        for node in tree.body
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    }
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert "_tagged" in imported  # the branch is chosen by its tag
    assert imported - used - {"annotations"} == set()


def root_union(parameters: dict[str, Any]) -> tuple[list[str] | None, list[str]]:
    """The members of ``Arguments`` where it is a root union's alias (None: a TypedDict of its
    own), and the names of the contract's TypedDicts."""
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    checked = checker.check(source.load(json.dumps(document).encode(), "t.yaml"))
    built = model.build(checked, "t", "0" * 64)
    members = None if built.root_union is None else built.root_union.members
    return members, [str(d.name) for d in built.typed_dicts]


def test_a_root_union_is_an_alias_only_where_each_branch_is_one_typed_dict() -> None:
    """Each branch an object with declared keys (with the root's own, merged in): the alias of
    their union. A branch whose type is open, or an object with no declared keys, leaves
    ``Arguments`` the root's own TypedDict, as for any object, and makes no TypedDict of the
    branches."""
    shared: dict[str, Any] = {
        "type": "object",
        "properties": {"id": {"type": "string"}},
        "required": ["id"],
    }
    precise = {
        "type": "object",
        "properties": {"id": {"type": "string"}, "email": {"type": "string"}},
        "required": ["id"],
        "anyOf": [{"required": ["email"]}, OBJECT_A],
    }
    assert root_union(precise) == (
        ["ArgumentsWithEmail", "ArgumentsWithA"],
        ["ArgumentsWithEmail", "ArgumentsWithA"],
    )
    # A branch that is anything; objects with no declared keys (beside a root that has none).
    assert root_union(shared | {"oneOf": [OBJECT_A, True]}) == (None, ["Arguments"])
    for branch in ({"type": "object"}, {"minProperties": 1, "properties": {}}):
        bare = {"type": "object", "oneOf": [OBJECT_A, branch]}
        assert root_union(bare) == (None, ["Arguments"])
    assert root_union(shared) == (None, ["Arguments"])  # no union


def test_a_reference_is_its_target_s_type_and_a_recursive_one_ends() -> None:
    node = {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
    }
    parameters = one_key({"$ref": "#/$defs/node"}, node=node, name={"type": "string"})
    parameters["properties"]["w"] = {"oneOf": [{"$ref": "#/$defs/name"}, {"$ref": "#/$defs/node"}]}
    defs = typed_dicts(parameters)
    assert sorted(defs) == ["Arguments", "ArgumentsNode"]  # the node's TypedDict made once
    assert [(f.key, f.type) for f in defs["ArgumentsNode"].optional] == [
        ("children", "list[ArgumentsNode]")
    ]
    assert [(f.key, f.type) for f in defs["Arguments"].optional] == [
        ("v", "ArgumentsNode"),
        ("w", "str | ArgumentsNode"),
    ]


def test_a_value_that_nests_in_itself_with_no_object_between_is_any_there() -> None:
    """A list of lists of ... through a reference: no TypedDict names it, so its type stops
    at ``Any`` where it meets itself again (and generating it ends)."""
    nested = {"anyOf": [{"type": "array", "items": {"$ref": "#/$defs/nested"}}, {"type": "string"}]}
    types = field_types(one_key({"$ref": "#/$defs/nested"}, nested=nested))
    assert types["v"] == "list[Any] | str"


def test_a_literal_spelled_any_is_not_an_open_type() -> None:
    arguments = typed_dicts(one_key({"enum": ["Any", "b"]}))["Arguments"]
    assert [f.type for f in arguments.optional] == ['Literal["Any", "b"]']
    assert arguments.open_note is None


def test_an_all_of_is_typed_by_its_entries_together() -> None:
    """Every entry holds with the schema around it: a reference's target (a string beside a
    ``not``), or properties and required keys added to the object's."""
    handle = {"type": "string", "pattern": "^[a-z]+$"}
    parameters = one_key(
        {"allOf": [{"$ref": "#/$defs/handle"}, {"not": {"const": "admin"}}]}, handle=handle
    )
    parameters["properties"]["o"] = {
        "type": "object",
        "properties": {"a": {"type": "string"}},
        "allOf": [True, {"properties": {"b": {"type": "integer"}}, "required": ["b"]}],
    }
    parameters["properties"]["never"] = {"allOf": [{"type": "string"}, {"type": "integer"}]}
    defs = typed_dicts(parameters)
    assert [(f.key, f.type) for f in defs["Arguments"].optional] == [
        ("v", "str"),
        ("o", "ArgumentsO"),
        ("never", "Any"),  # no value has both types: nothing to type
    ]
    assert [(f.key, f.type) for f in defs["ArgumentsO"].required] == [("b", "int")]
    assert [(f.key, f.type) for f in defs["ArgumentsO"].optional] == [("a", "str")]


# -- every accepted value has its type ----------------------------------------------------------


class Conformance:
    """Whether a value has a type of the generated module (``Arguments``, ``Output``): the
    check a handler trusts mypy with, made at runtime. ``unions`` counts the union types a
    value was checked against, so that a run that met none (every value ``Any``) shows."""

    def __init__(self, module: types.ModuleType) -> None:
        self.namespace = vars(module)
        self.unions = 0

    def holds(self, value: Any, annotation: Any) -> bool:
        origin, args = typing.get_origin(annotation), typing.get_args(annotation)
        if annotation is Any:
            return True
        if origin in (typing.Union, types.UnionType):
            self.unions += 1
            return any(self.holds(value, member) for member in args)
        if origin is typing.Literal:
            return any(value == a and type(value) is type(a) for a in args)
        if origin is list:
            return type(value) is list and all(self.holds(item, args[0]) for item in value)
        if origin is dict:
            return type(value) is dict and all(self.holds(v, args[1]) for v in value.values())
        if typing.is_typeddict(annotation):
            return self.typed_dict(value, annotation)
        scalars: dict[Any, tuple[type, ...]] = {
            type(None): (type(None),),
            bool: (bool,),
            int: (int,),
            float: (int, float),  # mypy's promotion: an int is a float
            str: (str,),
        }
        return type(value) in scalars[annotation]

    def typed_dict(self, value: Any, annotation: Any) -> bool:
        hints = typing.get_type_hints(annotation, globalns=self.namespace)
        return (
            type(value) is dict
            and annotation.__required_keys__ <= value.keys()
            and all(self.holds(value[key], hint) for key, hint in hints.items() if key in value)
        )


#: The example contracts' modules whose arguments hold a union (anyOf, oneOf).
UNION_MODULES = [
    name
    for name in MODULE_NAMES
    if re.search(
        r"\b(anyOf|oneOf):",
        (CONTRACTS / name.removeprefix("generated.").replace(".", "/"))
        .with_suffix(".yaml")
        .read_text(encoding="utf-8"),
    )
]


def unions_met(module: types.ModuleType) -> int:
    """Draws accepted values of ``module`` and checks each against ``Arguments``; how many
    union types the checks met."""
    check = Conformance(module)

    @SETTINGS
    @given(data=st.data())
    def accepted_values_conform(data: st.DataObject) -> None:
        result = module.validate(data.draw(valid_instances(module), label="valid instance"))
        assert result.ok, result.errors
        assert check.holds(result.value, module.Arguments), result.value

    accepted_values_conform()
    return check.unions


def test_every_accepted_value_has_the_arguments_type() -> None:
    """Valid instances of each example contract with a union, drawn from its schema
    (test_differential.py's strategies, confirmed by jsonschema) and accepted: the value the
    handler gets has the type ``Arguments`` says, and the values met union types."""
    assert len(UNION_MODULES) >= 4, UNION_MODULES
    typed = 0
    for name in UNION_MODULES:
        module = importlib.import_module(name)
        met = unions_met(module)
        if holds_a_union(module.Arguments):  # each one checked against union types, not Any
            typed += 1
            assert met > 0, name
    assert typed >= 4


def holds_a_union(annotation: Any, seen: frozenset[Any] = frozenset()) -> bool:
    """Whether a type (a TypedDict's fields, at any depth) names a union somewhere."""
    if annotation in seen:
        return False
    if typing.is_typeddict(annotation):
        hints = typing.get_type_hints(annotation).values()
        return any(holds_a_union(hint, seen | {annotation}) for hint in hints)
    origin = typing.get_origin(annotation)
    if origin in (typing.Union, types.UnionType):
        return True
    return any(holds_a_union(arg, seen) for arg in typing.get_args(annotation))


#: Enums whose members change nothing (listed twice, or of a type ``type`` refuses: legal,
#: warned of) and the type the value gets: only what can reach the handler, each once.
DEAD_MEMBERS = {
    "a member listed twice": ({"type": "string", "enum": ["a", "b", "a"]}, 'Literal["a", "b"]'),
    "a member type refuses": ({"type": "string", "enum": ["a", 1, None]}, 'Literal["a"]'),
    "1.0 after 1": ({"enum": [1, 1.0, 2]}, "Literal[1, 2]"),
    "no member type allows": ({"type": "string", "enum": [1, 2]}, "str"),
}


@pytest.mark.parametrize(("schema", "expected"), DEAD_MEMBERS.values(), ids=DEAD_MEMBERS.keys())
def test_an_enum_member_that_never_passes_is_not_in_the_type(schema: Any, expected: str) -> None:
    assert field_types(one_key(schema))["v"] == expected
