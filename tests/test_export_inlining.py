"""Exports of a DAG of definitions: the work stays linear in the contract, the verdicts follow
the platforms' limits.

``d0`` refers to ``d1`` twice (two properties, each a ``$ref`` beside a ``description``, so the
strict modes inline it), ``d1`` to ``d2`` twice, and so on to ``dN``, a string. Inlined, the
export is a tree of ``2^N`` copies; the exporter folds each definition once and counts the
inlined size over the DAG before making anything, so past a limit it refuses without building
the tree. The work is counted in calls of the exporter's fold, never timed.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from toolshape.contract import checker
from toolshape.platforms import export

DEPTHS = range(4, 21)


def dag(depth: int) -> checker.Contract:
    """The diamond of definitions ``d0`` .. ``d<depth>``, checked."""
    defs: dict[str, Any] = {
        f"d{i}": {
            "type": "object",
            "properties": {
                "a": {"$ref": f"#/$defs/d{i + 1}", "description": "left"},
                "b": {"$ref": f"#/$defs/d{i + 1}", "description": "right"},
            },
        }
        for i in range(depth)
    }
    defs[f"d{depth}"] = {"type": "string"}
    contract = {
        "name": "dag",
        "description": "A diamond of definitions.",
        "parameters": {
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/d0"}},
            "$defs": defs,
        },
    }
    return checker.load_and_check(json.dumps(contract).encode(), "dag.yaml")  # JSON is YAML


@pytest.fixture
def folds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the exporter's fold calls (one entry per call)."""
    calls: list[int] = []
    fold = export._Lowering.fold

    def counted(self: Any, schema: dict[str, Any], path: Any) -> dict[str, Any]:
        calls.append(1)
        return fold(self, schema, path)

    monkeypatch.setattr(export._Lowering, "fold", counted)
    return calls


@pytest.mark.parametrize("depth", DEPTHS)
def test_exporting_a_dag_folds_each_definition_a_bounded_number_of_times(
    depth: int, folds: list[int]
) -> None:
    contract = dag(depth)
    export.export_each(contract)
    # Every platform that lowers (openai, anthropic, gemini-legacy) folds each node of the
    # contract's own tree (4 per level) a few times at most: linear, where inlining the tree
    # would fold 2^depth copies.
    assert len(folds) <= 16 * depth + 8, f"depth {depth}: {len(folds)} folds"


def messages(result: export.ExportResult | export.ExportError) -> list[str]:
    findings = result.findings if isinstance(result, export.ExportError) else result.strict_refused
    return [finding.message for finding in findings]


@pytest.mark.parametrize("depth", DEPTHS)
def test_a_dag_past_a_platforms_limits_gets_the_platforms_answer_with_the_size(
    depth: int,
) -> None:
    results = export.export_each(dag(depth), ("openai", "anthropic", "gemini-legacy"))
    # Sizes of the inlined export, from the DAG's shape. OpenAI and Anthropic keep the $ref
    # of /properties/root (nothing beside it: 2 nodes, 1 property with the root) and lower
    # each d<i> in $defs, its tree inlined: 2^(k+1) - 1 nodes and 2^(k+1) - 2 properties for
    # the k levels below it; Gemini inlines the
    # root's too and drops $defs. Objects nest depth + 1 levels (the root, d0 .. d<depth-1>).
    strict_nodes = 2 + sum(2 ** (k + 1) - 1 for k in range(depth + 1))
    strict_properties = 1 + sum(2 ** (k + 1) - 2 for k in range(1, depth + 1))
    gemini_nodes = 2 ** (depth + 1)
    # Without inlining: the root and its property, and each d<i> with its two (Gemini: $defs
    # dropped).
    strict_own, gemini_own = 2 + 3 * depth + 1, 2
    most = export.MAX_INLINED_NODES

    openai = results["openai"]
    assert isinstance(openai, export.ExportResult)
    expected = []
    if strict_nodes - strict_own > most:
        expected.append(
            f"inlining these $refs would add {strict_nodes - strict_own} schema nodes to the "
            f"contract's {strict_own}; toolshape's export for OpenAI strict mode allows at most "
            f"{most} more"
        )
    if strict_properties > export.OPENAI_MAX_PROPERTIES:
        expected.append(
            f"inlining these $refs would make {strict_properties} properties; OpenAI strict mode "
            f"allows at most {export.OPENAI_MAX_PROPERTIES}"
        )
    if depth + 1 > export.OPENAI_MAX_OBJECT_DEPTH:
        expected.append(
            f"inlining these $refs would make {depth + 1} levels of object nesting; OpenAI "
            f"strict mode allows at most {export.OPENAI_MAX_OBJECT_DEPTH}"
        )
    assert messages(openai) == expected
    assert openai.strict is (not expected)
    if openai.strict:
        # Each optional key is reported where the contract says it, in its definition, however
        # often the definition is inlined (a kept fold carries its properties' origins).
        assert {converted.pointer for converted in openai.converted} == {
            "/properties/root",
            *(f"/$defs/d{i}/properties/{key}" for i in range(depth) for key in "ab"),
        }

    anthropic = results["anthropic"]
    assert isinstance(anthropic, export.ExportResult) and anthropic.strict is False
    if strict_nodes - strict_own > most:
        assert messages(anthropic) == [
            f"inlining these $refs would add {strict_nodes - strict_own} schema nodes to the "
            f"contract's {strict_own}; toolshape's export for Anthropic strict tool use allows at "
            f"most {most} more"
        ]

    gemini = results["gemini-legacy"]
    if gemini_nodes - gemini_own > most:
        assert isinstance(gemini, export.ExportError)
        assert messages(gemini) == [
            f"inlining these $refs would add {gemini_nodes - gemini_own} schema nodes to the "
            f"contract's {gemini_own}; toolshape's export for Gemini allows at most {most} more"
        ]
    else:
        assert isinstance(gemini, export.ExportResult)
