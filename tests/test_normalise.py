"""The handler receives what the contract means (issue 14).

On ``platform="openai"`` a null for an optional key whose schema refuses null stands for
the key left out (OpenAI strict mode lists every key as required) and is removed before
validation, at any depth; an integral float where the contract says ``integer`` reaches
the handler as an ``int``. Neither ever changes the caller's object, and neither copies
anything when there is nothing to change. Which keys are converted is one decision
(``contract/optional.py``) for the export and the generated module.
"""

from __future__ import annotations

import ast
import functools
import glob
import importlib
import json
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from support import CONTEXT, GENERATED, ROOT
from toolshape.cli import main
from toolshape.codegen import cases
from toolshape.contract import checker, source
from toolshape.contract.optional import converted_keys
from toolshape.platforms import export
from toolshape.project import pipeline

NESTED = """\
name: book_trip
description: Book a trip.
parameters:
  type: object
  properties:
    city: {type: string}
    nights: {type: integer, minimum: 1}
    budget: {type: number}
    note: {type: [string, 'null']}
    traveller: {$ref: '#/$defs/person'}
    stops:
      type: array
      items:
        type: object
        properties:
          place: {type: string}
          hours: {type: integer}
          remark: {type: string}
        required: [place]
        additionalProperties: false
    seats:
      anyOf:
        - {type: integer, maximum: 9}
        - {type: string, enum: [any]}
    pair:
      type: array
      prefixItems: [{$ref: '#/$defs/person'}, {type: integer}]
      items: false
  required: [city]
  additionalProperties: false
  $defs:
    person:
      type: object
      properties:
        name: {type: string}
        age: {type: integer, minimum: 0}
        email: {type: string}
      required: [name]
      additionalProperties: false
"""


def build(text: str, name: str = "book_trip.yaml") -> types.ModuleType:
    return pipeline.generate_module(
        text.encode("utf-8"), f"contracts/{name}", PurePosixPath(name), CONTEXT
    ).module


def check(text: str) -> checker.Contract:
    return checker.check(source.load(text.encode("utf-8"), "inline.yaml"))


@pytest.fixture(scope="module")
def trip() -> types.ModuleType:
    return build(NESTED)


def full() -> dict[str, Any]:
    return {
        "city": "Oslo",
        "nights": 2,
        "budget": 1.5,
        "note": "window",
        "traveller": {"name": "Ann", "age": 40, "email": "a@b.co"},
        "stops": [{"place": "Bergen", "hours": 3, "remark": "ferry"}, {"place": "Voss"}],
        "seats": 2,
        "pair": [{"name": "Bo", "email": "b@c.de"}, 7],
    }


def test_the_export_and_the_module_take_converted_keys_from_one_decision() -> None:
    checked = check(NESTED)
    root = checked.parameters
    decided = converted_keys(root, root["properties"], root["required"])
    assert ("note", True) in decided and ("nights", False) in decided
    result = export.export(checked, "openai")
    assert result.strict is True
    exported = {(c.path, c.key): c.contract_allows_null for c in result.converted}
    for key, allows_null in decided:
        assert exported[((), key)] is allows_null
    person = root["$defs"]["person"]
    for key, allows_null in converted_keys(root, person["properties"], person["required"]):
        assert exported[(("$defs", "person"), key)] is allows_null


def test_nulls_for_absent_keys_are_removed_at_any_depth(trip: types.ModuleType) -> None:
    sent: dict[str, Any] = {
        "city": "Oslo",
        "nights": None,
        "traveller": {"name": "Ann", "age": None, "email": None},
        "stops": [{"place": "Bergen", "hours": None, "remark": None}, {"place": "Voss"}],
        "seats": None,
        "pair": [{"name": "Bo", "email": None}, 7],
    }
    before = json.loads(json.dumps(sent))
    for platform in ("openai", "openai-responses"):
        result = trip.validate(sent, platform=platform)
        assert result.status == "accept", result.feedback()
        assert result.value == {
            "city": "Oslo",
            "traveller": {"name": "Ann"},
            "stops": [{"place": "Bergen"}, {"place": "Voss"}],
            "pair": [{"name": "Bo"}, 7],
        }
        # Copied only along the way to a removed null: the untouched item is the caller's.
        assert result.value["stops"][1] is sent["stops"][1]
        assert trip.parse(json.dumps(sent), platform=platform).value == result.value
    assert sent == before  # the caller's object is never changed
    refused = trip.validate(sent)
    assert refused.status == "reject"
    assert ("/nights", "type") in {(e.path, e.code) for e in refused.errors}
    assert trip.validate(sent, platform="anthropic").errors == refused.errors


def test_a_null_the_contract_allows_is_kept(trip: types.ModuleType) -> None:
    sent = {"city": "Oslo", "note": None}
    result = trip.validate(sent, platform="openai")
    assert result.ok and result.value is sent and result.value["note"] is None


def test_nothing_to_remove_or_convert_is_not_copied(trip: types.ModuleType) -> None:
    sent = full()
    for platform in (None, "openai", "gemini"):
        result = trip.validate(sent, platform=platform)
        assert result.ok, result.feedback()
        assert result.value is sent


def test_integral_floats_reach_the_handler_as_ints(trip: types.ModuleType) -> None:
    sent = full()
    sent["nights"] = 10.0
    sent["traveller"]["age"] = 1e2  # through a $ref
    sent["stops"][0]["hours"] = 3.0  # an array item
    sent["seats"] = 9.0  # the matching anyOf branch
    sent["pair"][1] = 7.0  # a prefixItems position
    sent["budget"] = 2.0  # number, not integer: stays a float
    before = json.loads(json.dumps(sent))
    for result in (trip.validate(sent), trip.parse(json.dumps(sent))):
        assert result.ok, result.feedback()
        got = result.value
        assert type(got["nights"]) is int and got["nights"] == 10
        assert type(got["traveller"]["age"]) is int and got["traveller"]["age"] == 100
        assert type(got["stops"][0]["hours"]) is int
        assert type(got["seats"]) is int and type(got["pair"][1]) is int
        assert type(got["budget"]) is float
    assert sent == before and type(sent["nights"]) is float  # the caller's floats stay
    result = trip.validate(sent)
    assert result.value["stops"][1] is sent["stops"][1]  # no needless copies


def test_a_large_integral_float_becomes_the_exact_int() -> None:
    module = build(NESTED.replace("nights: {type: integer, minimum: 1}", "nights: {type: integer}"))
    result = module.validate({"city": "Oslo", "nights": 1e300})
    assert result.ok
    # The decimal its repr writes, which every check judged (issue 20): not int(1e300).
    assert type(result.value["nights"]) is int and result.value["nights"] == 10**300
    assert module.parse('{"city": "Oslo", "nights": -4e20}').value["nights"] == -(4 * 10**20)


def test_a_refused_value_is_handed_back_as_sent(trip: types.ModuleType) -> None:
    sent = {"city": 5, "nights": 10.0}
    result = trip.validate(sent)
    assert result.status == "reject" and result.value is sent


def test_a_float_in_a_condition_is_not_taken_for_the_value() -> None:
    module = build(
        textwrap.dedent(
            """\
            name: cond
            description: A condition.
            parameters:
              type: object
              properties:
                n:
                  type: number
                  if: {type: integer}
                  then: {minimum: 0}
                  not: {type: integer, minimum: 100}
              additionalProperties: false
            """
        ),
        "cond.yaml",
    )
    result = module.validate({"n": 4.0})
    assert result.ok and type(result.value["n"]) is float


def test_an_unknown_platform_is_a_value_error(trip: types.ModuleType) -> None:
    for bad in ("OpenAI", "", "claude", 3):
        with pytest.raises(ValueError, match="unknown platform"):
            trip.validate({"city": "Oslo"}, platform=bad)
    with pytest.raises(ValueError, match="unknown platform"):
        trip.parse("not json", platform="oai")


def test_the_gate_passes_the_platform_on() -> None:
    gate = pytest.importorskip("generated")
    assert Path(gate.__file__).parent == GENERATED
    sent = {"to": ["a@b.co"], "subject": "Hi", "body": "x", "cc": None}
    assert gate.validate_call("send_email", sent).status == "reject"
    accepted = gate.validate_call("send_email", json.dumps(sent), platform="openai")
    assert accepted.ok and "cc" not in accepted.value
    with pytest.raises(ValueError, match="unknown platform"):
        gate.validate_call("no_such_tool", {}, platform="openai-chat")


def test_derived_cases_are_computed_from_the_contract() -> None:
    checked = check(NESTED)
    found = cases.normalise_cases(checked, full())
    nulled = {p for _, pointers, _ in found.absent_nulls for p in pointers}
    assert {"/nights", "/traveller/age", "/stops/0/hours", "/pair/0/email"} <= nulled
    assert "/note" not in nulled  # the contract allows null there
    floats = {p for _, ints in found.integral for p in ints}
    assert floats == {"/nights", "/traveller/age", "/stops/0/hours", "/seats", "/pair/1"}


def test_strict_mode_off_still_says_why_under_quiet(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    contract = tmp_path / "open.yaml"
    contract.write_text(
        "name: open\ndescription: Open.\nparameters:\n  type: object\n"
        "  properties:\n    a: {type: object}\n"  # a free-form map: strict mode cannot close it
    )
    assert main(["schema", str(contract), "--target", "openai", "-q"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["function"]["strict"] is False
    assert "warning: OpenAI strict mode is off for this tool" in captured.err
    assert "additionalProperties: false" in captured.err


def test_strict_mode_is_on_for_optional_keys_and_says_which_were_converted(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = ROOT / "contracts" / "send_email.yaml"
    assert main(["schema", str(path), "--target", "openai-responses"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["strict"] is True
    assert (
        "/properties/cc" in captured.err and "a null there means the key is absent" in captured.err
    )


def _pythons() -> list[str]:
    found = []
    for minor in range(9, 14):
        versions = sorted(glob.glob(f"/root/.pyenv/versions/3.{minor}.*/bin/python"))
        if versions:
            found.append(versions[-1])
    return found


SCRIPT = """\
import json, sys
sys.path.insert(0, sys.argv[1])
from generated import send_email
sent = {"to": ["a@b.co"], "subject": "Hi", "body": "x", "cc": None,
        "attachments": [{"filename": "a.pdf", "size_bytes": 1e3, "content_type": None}]}
result = send_email.validate(sent, platform="openai")
item = result.value["attachments"][0]
print(json.dumps([result.status, "cc" in result.value, sorted(item), type(item["size_bytes"]).__name__,
                  type(sent["attachments"][0]["size_bytes"]).__name__]))
"""


@pytest.mark.parametrize("python", _pythons() or [sys.executable])
def test_the_generated_package_does_the_same_on_every_supported_python(python: str) -> None:
    out = subprocess.run(
        [python, "-c", SCRIPT, str(ROOT)], capture_output=True, text=True, check=True
    ).stdout
    assert json.loads(out) == ["accept", False, ["filename", "size_bytes"], "int", "float"]


class _TakeOut(ast.NodeTransformer):
    """Replaces each statement that calls ``name`` (``integral.append`` or a runtime helper) by ``pass``."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.taken = 0

    def visit_stmt(self, node: ast.stmt) -> ast.AST:
        call = getattr(node, "value", None)
        if isinstance(call, ast.Call) and ast.unparse(call.func) == self.name:
            self.taken += 1
            return ast.copy_location(ast.Pass(), node)
        return self.generic_visit(node)

    visit_Expr = visit_Assign = visit_stmt


def _mutants(source: str) -> dict[str, ast.Module | None]:
    """The module with each new piece taken out (None where it has no such piece)."""
    found: dict[str, ast.Module | None] = {}
    for kind, name in (
        ("nulls kept", "_without_absent_nulls"),
        ("floats not recorded", "integral.append"),
        ("floats not converted", "_with_integers"),
    ):
        taker = _TakeOut(name)
        tree = taker.visit(ast.parse(source))
        found[kind] = ast.fix_missing_locations(tree) if taker.taken else None
    return found


GENERATED_MODULES = sorted(
    p for p in GENERATED.rglob("*.py") if "tests" not in p.parts and not p.name.startswith("_")
)


@pytest.mark.parametrize("path", GENERATED_MODULES, ids=lambda p: str(p.relative_to(GENERATED)))
def test_the_generated_tests_fail_without_the_new_code(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    relative = path.relative_to(GENERATED)
    package = ".".join(("generated", *relative.parent.parts))
    tests = importlib.import_module(
        ".".join(("generated", "tests", *relative.parent.parts, "test_" + path.stem))
    )
    source = path.read_text(encoding="utf-8")
    runs: dict[str, list[Callable[[], None]]] = {
        "nulls kept": [
            functools.partial(tests.test_a_null_for_an_absent_key_is_removed_on_openai, *row)
            for row in tests.ABSENT_NULLS
        ],
        "floats not recorded": [
            functools.partial(tests.test_an_integral_float_reaches_the_handler_as_an_int, *row)
            for row in tests.INTEGRAL
        ],
    }
    runs["floats not converted"] = runs["floats not recorded"]
    for kind, mutant in _mutants(source).items():
        if mutant is None:
            assert not runs[kind], f"{relative} has {kind} cases but no code to take out"
            continue
        if kind == "nulls kept" and tests.module._ABSENT_NULLS == {"#": {}}:
            continue  # no converted key: the removal has nothing to remove here
        assert runs[kind], f"{relative}: no generated test covers the code behind {kind!r}"
        module = types.ModuleType(f"{package}.normalise_mutant_{path.stem}")
        module.__package__ = package
        exec(compile(mutant, f"<{kind} {relative}>", "exec"), module.__dict__)
        monkeypatch.setattr(tests, "module", module)
        failed = 0
        for run in runs[kind]:
            try:
                run()
            except AssertionError:
                failed += 1
        assert failed, f"{relative} with {kind}: every generated test still passes"


def test_integer_beside_number_is_a_number() -> None:
    text = textwrap.dedent(
        """\
        name: kinds
        description: Kinds.
        parameters:
          type: object
          properties:
            a: {type: [integer, number]}
            c: {type: [integer, string]}
          additionalProperties: false
        """
    )
    got = build(text, "kinds.yaml").validate({"a": 1.0, "c": 3.0}).value
    assert type(got["a"]) is float and type(got["c"]) is int
    found = cases.normalise_cases(check(text), {"a": 1, "c": 3})
    assert [ints for _, ints in found.integral] == [{"/c": 3}]
