"""The witness engine (toolshape.witness) and what test derivation makes of it.

1. Unit tests per keyword: every value the engine returns is accepted by the reference
   evaluator (checked here again, independently of the engine's own confirmation), and
   has the shape the keyword demands (the intersection of an allOf, exactly one oneOf
   branch, both sides of an if, ...).
2. Contracts without any example generate, and their derived tests kill at least 90%
   of the check-removing mutants of their validator (the mutant finder of
   tests/test_generated_code.py).
3. When no witness is found (here: a budget of no steps), generation still succeeds, and
   a warning points at the property, names the cases left out and suggests `examples`.
"""

from __future__ import annotations

import json
import textwrap
import types
from pathlib import PurePosixPath
from typing import Any

import pytest
import support
from generated_harness import first_failure, generated_test_calls
from support import check_example, example_contracts
from test_generated_code import find_mutants
from toolshape.codegen import cases, render
from toolshape.contract import checker, reference, source
from toolshape.project import pipeline, runtime
from toolshape.witness import budget
from toolshape.witness.values import Engine

# -- 1. the engine, keyword by keyword -------------------------------------------------------


def _accepted(schema: Any, count: int = 3, root: Any = None) -> list[Any]:
    found = Engine(schema if root is None else root).accepted(schema, count)
    for value in found:  # independently of the engine's own confirmation
        assert not reference.errors_of(schema, value, "", root=schema if root is None else root), (
            value
        )
    return found


def test_numbers_on_the_common_grid_inside_every_bound() -> None:
    schema = {"type": "integer", "minimum": 3, "multipleOf": 4, "allOf": [{"multipleOf": 6}]}
    found = _accepted(schema)
    assert found and all(v >= 3 and v % 12 == 0 for v in found)
    assert _accepted({"type": "number", "exclusiveMinimum": 0, "exclusiveMaximum": 1}) == [0.5]


def test_all_of_two_objects_is_their_intersection() -> None:
    schema = {
        "allOf": [
            {
                "type": "object",
                "properties": {"a": {"type": "string", "minLength": 2}},
                "required": ["a"],
            },
            {"properties": {"b": {"type": "integer", "minimum": 5}}, "required": ["b"]},
        ]
    }
    found = _accepted(schema, 1)
    assert found and set(found[0]) >= {"a", "b"}


def test_one_of_overlapping_branches_gives_values_of_exactly_one_branch() -> None:
    schema = {"oneOf": [{"type": "integer", "minimum": 0}, {"type": "integer", "maximum": 10}]}
    found = _accepted(schema, 2)
    assert len(found) == 2
    assert any(v > 10 for v in found) and any(v < 0 for v in found)


def test_not_and_an_excluded_enum() -> None:
    found = _accepted({"type": "string", "not": {"enum": ["", "a", "x"]}}, 2)
    assert found and not {"", "a", "x"} & set(found)


def test_if_then_else_both_sides() -> None:
    schema = {
        "type": "object",
        "properties": {"kind": {"enum": ["card", "bank"]}},
        "required": ["kind"],
        "if": {"properties": {"kind": {"const": "card"}}},
        "then": {"required": ["card_number"]},
        "else": {"required": ["iban"]},
    }
    found = _accepted(schema, 4)
    kinds = {v["kind"] for v in found}
    assert kinds == {"card", "bank"}
    assert all(("card_number" in v) == (v["kind"] == "card") for v in found)


def test_dependent_required_and_dependent_schemas() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}, "c": {"type": "string"}},
        "required": ["a"],
        "dependentRequired": {"a": ["b"]},
        "dependentSchemas": {"b": {"required": ["c"]}},
    }
    found = _accepted(schema, 1)
    assert found and set(found[0]) == {"a", "b", "c"}


def test_contains_with_min_and_max_contains() -> None:
    schema = {
        "type": "array",
        "items": {"type": ["integer", "string"]},
        "contains": {"type": "integer"},
        "minContains": 2,
        "maxContains": 2,
        "minItems": 3,
    }
    found = _accepted(schema, 1)
    assert found and sum(isinstance(v, int) for v in found[0]) == 2 and len(found[0]) >= 3


def test_prefix_items_and_unique_items() -> None:
    schema = {
        "type": "array",
        "prefixItems": [{"type": "string"}, {"type": "boolean"}],
        "uniqueItems": True,
        "minItems": 4,
    }
    found = _accepted(schema, 1)
    value = found[0]
    assert isinstance(value[0], str) and isinstance(value[1], bool) and len(value) == 4
    assert len({json.dumps(v) for v in value}) == 4


def test_property_names_pattern_properties_and_min_properties() -> None:
    schema = {
        "type": "object",
        "propertyNames": {"maxLength": 3},
        "patternProperties": {"^n": {"type": "integer"}},
        "additionalProperties": False,
        "minProperties": 2,
    }
    found = _accepted(schema, 1)
    assert found and len(found[0]) >= 2
    assert all(
        k.startswith("n") and len(k) <= 3 and isinstance(v, int) for k, v in found[0].items()
    )


def test_max_properties_keeps_the_rich_value_small() -> None:
    schema = {
        "type": "object",
        "properties": {k: {"type": "integer"} for k in "abcde"},
        "maxProperties": 2,
    }
    assert all(len(v) <= 2 for v in _accepted(schema, 3))


def test_recursive_ref() -> None:
    root = {
        "type": "object",
        "$defs": {
            "node": {
                "type": "object",
                "properties": {
                    "children": {"type": "array", "items": {"$ref": "#/$defs/node"}, "minItems": 1}
                },
                "required": ["name"],
                "additionalProperties": True,
            }
        },
        "properties": {"tree": {"$ref": "#/$defs/node"}},
        "required": ["tree"],
    }
    assert _accepted(root, 1, root)


def test_formats_honour_length_bounds() -> None:
    for name in checker.FORMATS:
        found = _accepted({"type": "string", "format": name, "maxLength": 40}, 1)
        assert found, name


def test_pattern_strings_intersect_patterns_lengths_and_an_excluded_pattern() -> None:
    found = _accepted({"type": "string", "pattern": "^C[0-9]{6}$", "not": {"pattern": "^C0"}}, 2)
    assert len(found) == 2 and all(len(v) == 7 and v[1] != "0" for v in found)
    found = _accepted(
        {"type": "string", "allOf": [{"pattern": "[a-z]"}, {"pattern": "[0-9]"}], "minLength": 4}, 1
    )
    assert found and len(found[0]) >= 4


def test_near_misses_fail_by_the_pattern_alone() -> None:
    schema = {"type": "string", "pattern": "^C[0-9]{6}$", "maxLength": 7}
    misses = Engine(schema).near_misses(schema, 3)
    assert misses
    for miss in misses:
        assert reference.errors_of(schema, miss, "", root=schema) == {("", "pattern")}
    email = {"type": "string", "format": "email", "maxLength": 20}
    (bad,) = Engine(email).format_misses(email, 1)
    assert reference.errors_of(email, bad, "", root=email) == {("", "format")}


def test_a_ref_fan_out_costs_no_more_than_its_depth() -> None:
    """d_i: allOf [d_(i-1), d_(i-1)]: the engine's steps do not grow with the unfolding (2**12
    here; 25 levels need the reference evaluator's memo, from branch wp-hostile, to confirm fast)."""
    defs: dict[str, Any] = {"d0": {"type": "integer", "minimum": 1}}
    for i in range(1, 13):
        defs[f"d{i}"] = {"allOf": [{"$ref": f"#/$defs/d{i - 1}"}, {"$ref": f"#/$defs/d{i - 1}"}]}
    root = {
        "type": "object",
        "$defs": defs,
        "properties": {"x": {"$ref": "#/$defs/d12"}},
        "required": ["x"],
    }
    engine = Engine(root)
    assert engine.accepted(root, 1)
    assert engine.budget.used < 100


def test_the_same_schema_gives_the_same_values() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "format": "email"},
            "b": {"oneOf": [{"type": "integer"}, {"type": "string"}]},
        },
    }
    assert Engine(schema).accepted(schema, 3) == Engine(schema).accepted(schema, 3)


def test_an_empty_budget_finds_nothing_and_says_so() -> None:
    engine = Engine({}, budget.Budget(0))
    assert engine.accepted({"type": "integer"}) == []
    assert engine.budget.exhausted


# -- 2. contracts without examples: they generate, and their tests kill the mutants ----------------


CONTRACTS = {
    "pattern": """
        type: object
        properties:
          ticket: {type: string, pattern: '^C[0-9]{6}$'}
          repo: {type: string, pattern: '^[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+$'}
          phone: {type: string, pattern: '\\d{3}-\\d{4}'}
        required: [ticket, repo]
        additionalProperties: false
    """,
    "formats": """
        type: object
        properties:
"""
    + "".join(
        f"          f_{name.replace('-', '_')}: {{type: string, format: {name}}}\n"
        for name in checker.FORMATS
    )
    + """        required: [f_email, f_uri, f_uuid]
        additionalProperties: false
    """,
    "all_of": """
        type: object
        properties:
          who:
            allOf:
              - {type: object, properties: {name: {type: string, minLength: 1}}, required: [name]}
              - {type: object, properties: {age: {type: integer, minimum: 0, maximum: 150}}, required: [age]}
        required: [who]
    """,
    "one_of": """
        type: object
        properties:
          limit:
            oneOf:
              - {type: integer, minimum: 0}
              - {type: integer, maximum: 10}
        required: [limit]
    """,
    "not": """
        type: object
        properties:
          name: {type: string, not: {enum: [admin, root]}}
          level: {type: integer, not: {minimum: 5}}
        required: [name, level]
    """,
    "if_then_else": """
        type: object
        properties:
          method: {enum: [card, bank]}
          card_number: {type: string, minLength: 12}
          iban: {type: string, minLength: 15}
        required: [method]
        if: {properties: {method: {const: card}}}
        then: {required: [card_number]}
        else: {required: [iban]}
    """,
    "recursive_ref": """
        type: object
        $defs:
          node:
            type: object
            properties:
              label: {type: string, maxLength: 10}
              children: {type: array, items: {$ref: '#/$defs/node'}, maxItems: 3}
            required: [label]
            additionalProperties: false
        properties:
          tree: {$ref: '#/$defs/node'}
        required: [tree]
    """,
}


def _contract_text(kind: str) -> bytes:
    body = textwrap.indent(textwrap.dedent(CONTRACTS[kind]).strip(), "  ")
    return f"name: no_examples_{kind}\ndescription: A contract with no examples ({kind}).\nparameters:\n{body}\n".encode()


def _generate(raw: bytes) -> pipeline.Generated:
    return pipeline.generate(
        raw, "c.yaml", PurePosixPath("tool.py"), render.generation_context(None)
    )


def _generated_once(kind: str) -> pipeline.Generated:
    """The contract of ``kind`` generated once per process (support.generated), for the tests
    that only read its output: each kind's mutation test, and the overall score."""
    return support.generated(_contract_text(kind), "c.yaml", PurePosixPath("tool.py"))


def _test_module(generated: pipeline.Generated, module: types.ModuleType) -> types.ModuleType:
    """The generated tests, run in memory against ``module`` (their relative import replaced)."""
    text = "\n".join(
        "" if line.startswith("from .") and " import " in line and " as module" in line else line
        for line in generated.test_source.splitlines()
    )
    tests = types.ModuleType("toolshape_witness_generated_tests")
    tests.__dict__["module"] = module
    exec(compile(text, "<generated tests>", "exec"), tests.__dict__)
    return tests


def _mutation_score(generated: pipeline.Generated) -> tuple[int, int, list[str]]:
    """(killed, total, survivors) over the check-removing mutants of the generated module."""
    import ast

    tree = ast.parse(generated.module_source)
    mutants = find_mutants(tree, generated.module_source)
    tests = _test_module(generated, runtime.load_module(generated.module_source, "unmutated"))
    calls = generated_test_calls(tests)
    assert first_failure(calls) is None, "the generated tests fail on the unmutated module"
    survivors = []
    for mutant in mutants:
        with mutant.applied():
            try:
                code = compile(tree, "<mutant>", "exec")
            except Exception:  # noqa: BLE001 - a mutant that does not compile is killed
                continue
        module = types.ModuleType("toolshape_witness_mutant")
        # Beside the runtime load_module uses: `from ._runtime import` must load (else every mutant "dies").
        module.__package__ = runtime.runtime_module().__package__
        try:
            exec(code, module.__dict__)
        except Exception:  # noqa: BLE001 - a mutant that cannot load is killed
            continue
        tests.__dict__["module"] = module
        if first_failure(calls) is None:
            survivors.append(f"line {mutant.node.lineno}: {mutant.kind}")
    return len(mutants) - len(survivors), len(mutants), survivors


@pytest.mark.parametrize("kind", sorted(CONTRACTS))
def test_a_contract_without_examples_generates_and_its_tests_kill_the_mutants(kind: str) -> None:
    killed, total, survivors = _mutation_score(_generated_once(kind))
    assert total >= 3
    assert killed / total >= 0.9, (
        f"{kind}: {killed} of {total} mutants killed; survivors: {survivors}"
    )


def test_mutation_scores_overall() -> None:
    """The figure for the report: killed / total over all the example-free contracts."""
    killed = total = 0
    for kind in sorted(CONTRACTS):
        k, t, _ = _mutation_score(_generated_once(kind))
        killed, total = killed + k, total + t
    print(
        f"witness contracts: {killed} of {total} check-removing mutants killed ({killed / total:.0%})"
    )
    assert killed / total >= 0.9


# -- 3. no witness: a warning at the property, and generation goes on ----------------------------


def test_no_witness_gives_a_warning_at_the_property_and_the_other_cases(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    raw = _contract_text("pattern")

    class Starved(Engine):
        """An engine that finds no witness for the ticket pattern (as if its budget ran out)."""

        def conjunction(self, schemas: Any, count: int = 1, **kwargs: Any) -> list[Any]:
            if any(isinstance(s, dict) and s.get("pattern") == "^C[0-9]{6}$" for s in schemas):
                return []
            found: list[Any] = super().conjunction(schemas, count, **kwargs)
            return found

    monkeypatch.setattr(cases, "Engine", Starved)
    generated = _generate(raw)
    warnings = [str(w) for w in generated.warnings]
    assert len(warnings) == 1, warnings
    document = source.load(raw, "c.yaml")
    line, col = document.value_at(("parameters", "properties", "ticket"))
    assert warnings[0].startswith(f"c.yaml:{line}:{col}: warning: "), warnings[0]
    assert "cases left out" in warnings[0] and "examples: [...]" in warnings[0]
    names = [c.name for c in cases.derive(checker.check(document)).cases]
    assert any(n.startswith("repo:") for n in names), names  # the other properties keep their cases
    assert "base: every key a value was found for" in names


def test_a_property_example_is_used_as_its_witness() -> None:
    raw = _contract_text("pattern").replace(
        b"pattern: '^C[0-9]{6}$'}", b"pattern: '^C[0-9]{6}$', examples: [C123456]}"
    )
    document = source.load(raw, "c.yaml")
    derivation = cases.derive(checker.check(document))
    base = next(c.data for c in derivation.cases if not c.errors)
    assert base["ticket"] == "C123456"


def test_huge_bounds_are_left_out_with_a_warning_not_materialised() -> None:
    raw = b"""name: huge
description: Huge bounds.
parameters:
  type: object
  properties:
    text: {type: string, maxLength: 20000000}
    items: {type: array, items: {type: integer}, maxItems: 20000000}
    map: {type: object, maxProperties: 2000000}
  required: [text, items, map]
"""
    document = source.load(raw, "huge.yaml")
    derivation = cases.derive(checker.check(document))
    size = len(json.dumps([c.data for c in derivation.cases]))
    assert size < 200_000
    text = "\n".join(str(w) for w in derivation.warnings)
    assert (
        "maxLength 20000000" in text
        and "maxItems 20000000" in text
        and "maxProperties 2000000" in text
    )


def test_errors_computed_from_the_change_agree_with_a_whole_evaluation() -> None:
    """add() evaluates a one-change case from its root's errors where it can: for every
    example contract, every case's errors are those of evaluating the whole instance."""
    checked = 0
    for path in example_contracts():
        found = check_example(path)
        for case in cases.derive(found).cases:
            assert case.errors == frozenset(reference.evaluate(found.parameters, case.data)), (
                path.name,
                case.name,
            )
            checked += 1
    assert checked > 500
