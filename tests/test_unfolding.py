"""The generator and the validator under hostile contracts: cost in proportion to the contract (issue 13).

- ``$ref`` cycles that never move to a child value (``a -> b -> a``, a property that is a
  ``$ref`` to itself, loops through allOf/anyOf/not/if) are contract errors, not a
  RecursionError; recursion that descends into the value stays allowed.
- A ``$ref`` fan-out (``d_i: {allOf: [{$ref: d_(i-1)}, {$ref: d_(i-1)}]}``) costs the
  generated validator and the reference evaluator one call per level, not 2^n; a fan-out
  that cannot be folded is refused past ``unfolding.MAX_APPLICATIONS``.
- Contract checking, the model, rendering and layout handle 5,000 properties, with work
  linear in their number (counted in calls, not timed).

Exact ``multipleOf`` and extreme numbers are in test_numbers_exact.py.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
import textwrap
import types
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

import pytest
from support import CONTEXT, calls_made, run_profiled
from toolshape.codegen import model, render
from toolshape.contract import checker, reference, source, unfolding
from toolshape.contract.errors import ContractError
from toolshape.families.combinators import rules as combinator_rules
from toolshape.platforms import export
from toolshape.project import pipeline, runtime


def raw_contract(parameters: dict[str, Any], name: str = "t") -> bytes:
    return json.dumps({"name": name, "description": "d", "parameters": parameters}).encode()


def checked(parameters: dict[str, Any]) -> checker.Contract:
    return checker.check(source.load(raw_contract(parameters), "t.json"))


def module_of(parameters: dict[str, Any], name: str = "t") -> types.ModuleType:
    """The generated module alone: check, model, render (formatted), import. No test derivation."""
    built = model.build(checked(parameters), name, "0" * 64)
    return runtime.load_module(
        render.render(CONTEXT, "module.py.j2", f"{name}.py", model=built), name
    )


def calls_into(module: types.ModuleType, action: Callable[[], object]) -> int:
    """How many Python function calls ``action`` makes into code of ``module``."""
    filename = module.validate.__code__.co_filename
    count = 0

    def profile(frame: types.FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event == "call" and frame.f_code.co_filename == filename:
            count += 1

    run_profiled(action, profile)
    return count


# -- cycles that never descend -----------------------------------------------------------

CYCLES: dict[str, dict[str, Any]] = {
    "a -> b -> a": {
        "type": "object",
        "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
        "properties": {"x": {"$ref": "#/$defs/a"}},
    },
    "a property that is a $ref to itself": {
        "type": "object",
        "properties": {"x": {"$ref": "#/properties/x"}},
    },
    "through allOf": {
        "type": "object",
        "$defs": {"a": {"allOf": [{"$ref": "#/$defs/a"}]}},
        "properties": {"x": {"$ref": "#/$defs/a"}},
    },
    "through anyOf and not": {
        "type": "object",
        "$defs": {"a": {"anyOf": [{"type": "string"}, {"not": {"$ref": "#/$defs/a"}}]}},
        "properties": {"x": {"$ref": "#/$defs/a"}},
    },
    "through oneOf": {
        "type": "object",
        "$defs": {"a": {"oneOf": [{"type": "string"}, {"$ref": "#/$defs/a"}]}},
        "properties": {"x": {"$ref": "#/$defs/a"}},
    },
    "through if": {
        "type": "object",
        "$defs": {"a": {"if": {"$ref": "#/$defs/a"}, "then": {"type": "string"}}},
        "properties": {"x": {"$ref": "#/$defs/a"}},
    },
    "through else": {
        "type": "object",
        "$defs": {"a": {"if": {"type": "string"}, "else": {"$ref": "#/$defs/a"}}},
        "properties": {"x": {"$ref": "#/$defs/a"}},
    },
    "through dependentSchemas": {"type": "object", "dependentSchemas": {"k": {"$ref": "#"}}},
    "behind a type": {
        "type": "object",
        "properties": {"x": {"type": "string", "$ref": "#/properties/x"}},
    },
    "the root through allOf": {"type": "object", "allOf": [{"$ref": "#"}]},
}


@pytest.mark.parametrize("label", sorted(CYCLES))
def test_a_cycle_that_never_descends_is_a_contract_error(label: str) -> None:
    """Today these raise RecursionError (in the reference evaluator, the derivation, the validator)."""
    with pytest.raises(ContractError) as caught:
        pipeline.generate(raw_contract(CYCLES[label]), "t.json", PurePosixPath("t.yaml"), CONTEXT)
    text = str(caught.value)
    assert (
        text.startswith("t.json:1:")
        and ": error: this $ref makes a cycle that never moves to a child value (" in text
    )
    assert "recurse forever" in text


def test_the_cycle_is_named_and_located_at_its_ref() -> None:
    found = unfolding.check(CYCLES["a -> b -> a"])
    assert [(f.path, f.message.split(": checking")[0]) for f in found] == [
        (
            ("$defs", "a", "$ref"),
            "this $ref makes a cycle that never moves to a child value (#/$defs/a -> #/$defs/b -> #/$defs/a)",
        )
    ]


TREE = {
    "type": "object",
    "$defs": {
        "node": {
            "type": "object",
            "properties": {
                "value": {"type": "integer"},
                "left": {"$ref": "#/$defs/node"},
                "right": {"$ref": "#/$defs/node"},
                "children": {"type": "array", "items": {"$ref": "#/$defs/node"}},
            },
            "additionalProperties": False,
        }
    },
    "properties": {"tree": {"$ref": "#/$defs/node"}},
    "required": ["tree"],
}


def test_recursion_that_descends_stays_allowed() -> None:
    """Module and reference only: deriving this contract's tests (cases.py) takes minutes."""
    module = module_of(TREE, "tree")
    deep: dict[str, Any] = {"value": 1}
    for _ in range(40):
        deep = {"value": 1, "left": deep, "children": [{"value": 2}]}
    assert module.validate({"tree": deep}).ok
    deep["right"] = {"value": "x"}
    assert [(e.path, e.code) for e in module.validate({"tree": deep}).errors] == [
        ("/tree/right/value", "type")
    ]
    assert reference.evaluate(TREE, {"tree": deep}) == {("/tree/right/value", "type")}


# -- fan-out -------------------------------------------------------------------------------


def fan_out(
    levels: int, second: Callable[[str], dict[str, Any]] = lambda ref: {"$ref": ref}
) -> dict[str, Any]:
    """d_i applies d_(i-1) twice to the same value: 2^levels applications when unfolded."""
    defs: dict[str, Any] = {"d0": {"type": "integer", "minimum": 0}}
    for i in range(1, levels + 1):
        ref = f"#/$defs/d{i - 1}"
        defs[f"d{i}"] = {"allOf": [{"$ref": ref}, second(ref)]}
    return {
        "type": "object",
        "$defs": defs,
        "properties": {"x": {"$ref": f"#/$defs/d{levels}"}},
        "required": ["x"],
        "additionalProperties": False,
    }


def test_the_validator_calls_a_repeated_ref_once_per_level() -> None:
    """Unfolded, 16 levels are 65,536 calls of d0's function per value; folded, one per level."""
    module = module_of(fan_out(16), "fan16")
    assert calls_into(module, lambda: module.validate({"x": 3})) <= 3 * 16
    result = module.validate({"x": -1})
    assert [(e.path, e.code) for e in result.errors] == [
        ("/x", "minimum")
    ]  # once, not 65,536 times


def test_the_reference_evaluator_evaluates_a_repeated_ref_once_per_level(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    count = 0
    checks = reference._checks

    def counted(*args: Any) -> None:
        nonlocal count
        count += 1
        checks(*args)

    monkeypatch.setattr(reference, "_checks", counted)
    parameters = fan_out(16)
    assert reference.evaluate(parameters, {"x": -1}) == {("/x", "minimum")}
    assert count <= 4 * 16


def test_a_25_level_fan_out_generates() -> None:
    """The issue's contract (1.5 KB): more than 200 s before. In a child, killed if it hangs."""
    code = textwrap.dedent(f"""
        import json, sys
        from pathlib import PurePosixPath
        from toolshape.codegen import render
        from toolshape.project import pipeline, runtime
        raw = {json.dumps({"name": "fan", "description": "d", "parameters": fan_out(25)})!r}.encode()
        generated = pipeline.generate(raw, "fan.json", PurePosixPath("fan.yaml"), render.generation_context())
        module = runtime.load_module(generated.module_source, "fan")
        print(module.validate({{"x": 7}}).ok, module.validate({{"x": -7}}).ok)
        """)
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], check=False, capture_output=True, text=True
        )
    except subprocess.TimeoutExpired:
        pytest.fail("generating the 25-level fan-out did not finish within 300 s (killed)")
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["True", "False"]


NEAR_COPIES: dict[str, Callable[[str], dict[str, Any]]] = {
    "allOf of a $ref and an annotated copy": lambda ref: {"$ref": ref, "title": "x"},
    "allOf of a $ref and a copy inside allOf": lambda ref: {"allOf": [{"$ref": ref}]},
}


@pytest.mark.parametrize("label", sorted(NEAR_COPIES))
def test_a_fan_out_that_cannot_fold_is_refused_past_the_bound(label: str) -> None:
    """Near copies are applied both: 2^n work, refused where it passes MAX_APPLICATIONS."""
    with pytest.raises(ContractError) as caught:
        checked(fan_out(25, NEAR_COPIES[label]))
    [problem] = caught.value.problems
    assert f"would apply more than {unfolding.MAX_APPLICATIONS:,} subschemas" in problem.message
    # Reported once, where the count first passes the bound (the first levels stay under it).
    assert problem.line == 1 and problem.col > 1


def test_a_fan_out_under_the_bound_is_allowed_and_checks_what_it_says() -> None:
    parameters = fan_out(10, NEAR_COPIES["allOf of a $ref and an annotated copy"])
    module = module_of(parameters, "fan10")
    assert module.validate({"x": 1}).ok
    assert [(e.path, e.code) for e in module.validate({"x": -1}).errors][:1] == [("/x", "minimum")]
    assert reference.evaluate(parameters, {"x": -1}) == {("/x", "minimum")}


def test_the_bound_counts_unions_not_and_if_too() -> None:
    """Each keyword that applies a subschema to the same value adds to the count."""
    for keyword in ("anyOf", "oneOf"):
        defs: dict[str, Any] = {"d0": {"type": "integer"}}
        for i in range(1, 20):
            ref = f"#/$defs/d{i - 1}"
            defs[f"d{i}"] = {keyword: [{"$ref": ref}, {"$ref": ref, "minimum": 0}]}
        found = unfolding.check({"type": "object", "$defs": defs})
        assert [f.path for f in found] == [("$defs", "d12")], keyword
    defs = {"d0": {"type": "integer"}}
    for i in range(1, 20):
        ref = f"#/$defs/d{i - 1}"
        defs[f"d{i}"] = {"if": {"$ref": ref}, "then": {"$ref": ref}, "else": {"not": {"$ref": ref}}}
    assert len(unfolding.check({"type": "object", "$defs": defs})) == 1


def test_equal_allof_entries_report_one_error() -> None:
    parameters = {
        "type": "object",
        "$defs": {"small": {"type": "integer", "maximum": 3}},
        "properties": {"x": {"allOf": [{"$ref": "#/$defs/small"}, {"$ref": "#/$defs/small"}]}},
    }
    assert [(e.path, e.code) for e in module_of(parameters).validate({"x": 9}).errors] == [
        ("/x", "maximum")
    ]


def test_distinct_entries_keeps_true_and_1_apart() -> None:
    assert combinator_rules.distinct_entries(
        [{"const": 1}, {"const": True}, {"const": 1}, {"const": 1.0}]
    ) == [0, 1, 3]


# -- 5,000 properties ------------------------------------------------------------------------


def many(n: int) -> dict[str, Any]:
    return {
        "type": "object",
        "properties": {f"p{i}": {"type": "string", "maxLength": 20} for i in range(n)},
        "required": [f"p{i}" for i in range(n)],
        "additionalProperties": False,
    }


def module_work(n: int) -> int:
    """Python calls made checking, modelling, rendering and laying out a contract of ``n`` properties."""
    raw = raw_contract(many(n))

    def check_model_render() -> None:
        built = model.build(checker.check(source.load(raw, "t.json")), "many", "0" * 64)
        render.render(CONTEXT, "module.py.j2", "many.py", compiles=False, model=built)

    return calls_made(check_model_render)


def test_module_work_grows_linearly_with_the_number_of_properties() -> None:
    """Four times the properties, about four times the calls (quadratic work would be 16 times)."""
    small, large = module_work(250), module_work(1000)
    assert large < 5 * small, (small, large)


def test_a_module_for_5000_properties_is_generated() -> None:
    """Module only (check, model, render, layout, import): deriving its tests (cases.py) takes
    time quadratic in the number of properties, since each of about 7n cases is a whole instance
    of n keys that the generated tests (and generation's own run of them) validate; what the
    derivation holds is linear (test_derivation_cost.py)."""
    raw = raw_contract(many(5000))
    assert len(raw) < source.MAX_CONTRACT_BYTES
    module = module_of(many(5000), "many")
    value: dict[str, Any] = {f"p{i}": "x" for i in range(5000)}
    assert module.validate(value).ok
    del value["p4321"]
    value["p7"] = 7
    assert [(e.path, e.code) for e in module.validate(value).errors] == [
        ("/p7", "type"),
        ("/p4321", "required"),
    ]


# -- recursion whose work doubles with each level of the value -----------------------------------

EXPR_PARTS = {
    "add": {
        "properties": {
            "op": {"const": "add"},
            "left": {"$ref": "#/$defs/expr"},
            "right": {"$ref": "#/$defs/expr"},
        }
    },
    "mul": {
        "properties": {
            "op": {"const": "mul"},
            "left": {"$ref": "#/$defs/expr"},
            "right": {"$ref": "#/$defs/expr"},
        }
    },
}


def recursive(definition: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {
        "type": "object",
        "$defs": {"n": definition, **more},
        "properties": {"x": {"$ref": "#/$defs/n"}},
    }


DOUBLING = {
    "allOf of two near copies that descend": {
        "type": "object",
        "allOf": [
            {"properties": {"a": {"$ref": "#"}}},
            {"properties": {"a": {"$ref": "#"}}, "title": "t"},
        ],
    },
    "items and contains": recursive(
        {"type": "array", "items": {"$ref": "#/$defs/n"}, "contains": {"$ref": "#/$defs/n"}}
    ),
    "a pattern that matches a property": recursive(
        {
            "type": "object",
            "properties": {"p1": {"$ref": "#/$defs/n"}},
            "patternProperties": {"^p": {"$ref": "#/$defs/n"}},
        }
    ),
    "oneOf of alternatives that share a recursive key": {
        "type": "object",
        "$defs": {
            "expr": {"oneOf": [{"$ref": "#/$defs/add"}, {"$ref": "#/$defs/mul"}]},
            **EXPR_PARTS,
        },
        "properties": {"e": {"$ref": "#/$defs/expr"}},
    },
}

#: EXPR_PARTS as pydantic writes a tagged union of models: each part an object that
#: requires its tag, so the tag alone decides every object (``rules.Tag.decisive``).
DECIDED_PARTS: dict[str, Any] = {
    name: {"type": "object", "required": ["op", "left", "right"], **part}
    for name, part in EXPR_PARTS.items()
}
DECIDED_EXPR: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "expr": {
            "oneOf": [{"$ref": "#/$defs/add"}, {"$ref": "#/$defs/mul"}, {"$ref": "#/$defs/num"}]
        },
        **DECIDED_PARTS,
        "num": {
            "type": "object",
            "required": ["op"],
            "properties": {"op": {"const": "num"}, "value": {"type": "number"}},
        },
    },
    "properties": {"e": {"$ref": "#/$defs/expr"}},
}

DOUBLING.update(
    {
        "a tagged union whose tag an x-sensitive schema may hide": {
            **DECIDED_EXPR,
            "properties": {"e": {"$ref": "#/$defs/expr"}, "key": {"x-sensitive": True}},
        },
        "a tagged union where one alternative may leave the tag out": {
            **DECIDED_EXPR,
            "$defs": {
                **DECIDED_EXPR["$defs"],
                "num": {"type": "object", "properties": {"op": {"const": "num"}}},
            },
        },
        "a tagged union where one alternative refuses objects": {
            **DECIDED_EXPR,
            "$defs": {
                **DECIDED_EXPR["$defs"],
                "expr": {
                    "oneOf": [
                        {"$ref": "#/$defs/add"},
                        {"$ref": "#/$defs/mul"},
                        {"$ref": "#/$defs/num", "type": "array"},
                    ]
                },
            },
        },
        # Keys of dependentSchemas named like the branches of an if: both run on an object
        # that holds both keys (only an if's own then and else never run together).
        "dependentSchemas entries named then and else": recursive(
            {
                "type": "object",
                "if": {"required": ["z"]},
                "dependentSchemas": {
                    "then": {"properties": {"c": {"$ref": "#/$defs/n"}}},
                    "else": {"properties": {"c": {"$ref": "#/$defs/n"}}},
                },
            }
        ),
    }
)

NOT_DOUBLING = {
    "a tree": TREE,
    "a tagged union whose every alternative requires its tag": DECIDED_EXPR,
    "any JSON value": recursive(
        {
            "anyOf": [
                {"type": "string"},
                {"type": "array", "items": {"$ref": "#/$defs/n"}},
                {"type": "object", "additionalProperties": {"$ref": "#/$defs/n"}},
            ]
        }
    ),
    "properties and additionalProperties of one schema": recursive(
        {
            "type": "object",
            "properties": {"a": {"$ref": "#/$defs/n"}},
            "additionalProperties": {"$ref": "#/$defs/n"},
        }
    ),
    "a pattern that matches no property": recursive(
        {
            "type": "object",
            "properties": {"p1": {"$ref": "#/$defs/n"}},
            "patternProperties": {"^q": {"$ref": "#/$defs/n"}},
        }
    ),
    "prefixItems and items": recursive(
        {"type": "array", "prefixItems": [{"$ref": "#/$defs/n"}], "items": {"$ref": "#/$defs/n"}}
    ),
    "alternatives told apart with if/then/else": {
        "type": "object",
        "$defs": {
            "expr": {
                "type": "object",
                "if": {"properties": {"op": {"const": "add"}}},
                "then": {"$ref": "#/$defs/add"},
                "else": {"$ref": "#/$defs/mul"},
            },
            **EXPR_PARTS,
        },
        "properties": {"e": {"$ref": "#/$defs/expr"}},
    },
}


@pytest.mark.parametrize("label", sorted(DOUBLING))
def test_recursion_whose_work_doubles_at_each_level_is_refused(label: str) -> None:
    with pytest.raises(ContractError) as caught:
        checked(DOUBLING[label])
    [problem] = caught.value.problems
    assert "the work would double with every level the value nests" in problem.message


def test_doubling_recursion_really_doubles_in_the_validator() -> None:
    """What the check prevents: built without it, the validator's calls double with each level.
    (Not the oneOf of add and mul: its alternatives fix "op" to constants of their own, so the
    validator runs only the one a value's "op" picks, and that one does not double.)"""
    parameters = DOUBLING["allOf of two near copies that descend"]
    built = model.build(
        checker.Contract("t", "d", parameters, [], source.load(raw_contract(parameters), "t.json")),
        "expr",
        "0" * 64,
    )
    module = runtime.load_module(
        render.render(CONTEXT, "module.py.j2", "expr.py", model=built), "expr"
    )

    def nested(levels: int) -> dict[str, Any]:
        value: dict[str, Any] = {}
        for _ in range(levels):
            value = {"a": value}
        return value

    calls = [calls_into(module, functools.partial(module.validate, nested(n))) for n in (4, 5, 6)]
    assert calls[1] > 1.8 * calls[0] and calls[2] > 1.8 * calls[1], calls


@pytest.mark.parametrize("label", sorted(NOT_DOUBLING))
def test_recursion_that_does_not_double_is_allowed(label: str) -> None:
    assert unfolding.check(NOT_DOUBLING[label]) == []
    module_of(NOT_DOUBLING[label], "recursive")


def test_if_then_else_alternatives_cost_one_call_per_level() -> None:
    module = module_of(NOT_DOUBLING["alternatives told apart with if/then/else"], "expr_if")

    def nested(levels: int) -> dict[str, Any]:
        value: dict[str, Any] = {"op": "mul"}
        for _ in range(levels):
            value = {"op": "add", "left": value, "right": {"op": "mul"}}
        return {"e": value}

    assert module.validate(nested(30)).ok
    calls = [calls_into(module, functools.partial(module.validate, nested(n))) for n in (10, 20)]
    assert calls[1] < 2.5 * calls[0], calls


# -- chains and the whole unfolding --------------------------------------------------------------


def chain(links: int) -> dict[str, Any]:
    defs: dict[str, Any] = {f"c{i}": {"$ref": f"#/$defs/c{i + 1}"} for i in range(links)}
    defs[f"c{links}"] = {"type": "string"}
    return {"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/c0"}}}


def test_a_long_chain_of_refs_is_refused() -> None:
    """Each link is a nested call in the validator: 3,000 links would overflow the stack."""
    with pytest.raises(ContractError) as caught:
        checked(chain(3000))
    [problem] = caught.value.problems
    assert (
        f"starts a chain of more than {unfolding.MAX_CHAIN} schemas applied to the same value"
        in problem.message
    )
    module = module_of(chain(unfolding.MAX_CHAIN - 2), "chain")
    assert module.validate({"x": "s"}).ok and not module.validate({"x": 1}).ok


def test_a_long_ring_of_refs_that_descends_is_built_without_deep_recursion() -> None:
    """c_i: {properties: {a: {$ref: c_(i+1)}}}, 600 of them: the model builds the $ref functions
    one after another past MAX_NESTED_REFS (building each inside the last raised RecursionError)."""
    links = 600
    defs = {
        f"c{i}": {"type": "object", "properties": {"a": {"$ref": f"#/$defs/c{(i + 1) % links}"}}}
        for i in range(links)
    }
    parameters = {"type": "object", "$defs": defs, "properties": {"x": {"$ref": "#/$defs/c0"}}}
    module = module_of(parameters, "ring")
    value: dict[str, Any] = {"a": 1}
    for _ in range(20):
        value = {"a": value}
    assert [(e.path, e.code) for e in module.validate({"x": value}).errors] == [
        ("/x" + "/a" * 21, "type")
    ]


def test_the_whole_unfolding_is_bounded() -> None:
    """30 properties that each apply a definition of about 8,000 applications: under the bound
    for one value, 245,701 for the whole instance."""
    defs = fan_out(11, NEAR_COPIES["allOf of a $ref and an annotated copy"])["$defs"]
    parameters = {
        "type": "object",
        "$defs": defs,
        "properties": {f"p{i}": {"$ref": "#/$defs/d11"} for i in range(30)},
    }
    with pytest.raises(ContractError) as caught:
        checked(parameters)
    [problem] = caught.value.problems
    assert f"the limit is {unfolding.MAX_UNFOLDED:,}" in problem.message
    parameters["properties"] = {f"p{i}": {"$ref": "#/$defs/d11"} for i in range(3)}
    checked(parameters)


@pytest.mark.parametrize("target", export.TARGETS)
def test_every_export_of_a_fan_out_folds_each_definition_once(
    target: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """generate exports every platform's definition; a definition applied twice per level must
    not be folded 2^levels times (Gemini's legacy parameters inline every $ref)."""
    calls = 0
    fold = export._Lowering.fold

    def counted(self: export._Lowering, schema: dict[str, Any], path: Any) -> dict[str, Any]:
        nonlocal calls
        calls += 1
        return fold(self, schema, path)

    monkeypatch.setattr(export._Lowering, "fold", counted)
    levels = 20
    contract = checked(fan_out(levels))
    export.export(contract, target)
    assert calls <= 8 * levels, f"{calls} folds for {levels} levels"
