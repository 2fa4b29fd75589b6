"""Hostile contracts (issue 5): contracts hypothesis makes up from arbitrary text generate
safely (or fail with a clean ``ContractError``), and hold their text as data only.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from typing import Any

import yaml
from hostile_contracts_support import (
    HOSTILE,
    TOOL_NAME_RE,
    WORDLIKE,
    ast_audit,
    bad_characters,
    baseline_audits,
    check_module_imports,
    code_outside_literals,
    ecma_escape,
    exec_spied,
    generate,
    neutral_events_names,
    pointer,
    probes,
    run_generated_tests,
    to_yaml,
)
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from toolshape.contract.errors import ContractError

#: Any text YAML can carry (lone surrogates cannot be written in a contract at all).
ANY_TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=["Cs"]), max_size=24)
SPICY = st.sampled_from(list(HOSTILE.values()))
TEXT = st.one_of(ANY_TEXT, SPICY, st.builds(lambda a, b: a + b, SPICY, ANY_TEXT))
RESERVED = {"zz_pattern", "zz_const", "zz_secret", "zz_nested", "zz_closed", "zz_list"}


@st.composite
def contracts(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    keys = draw(
        st.lists(TEXT, min_size=3, max_size=3, unique=True).filter(
            lambda ks: not set(ks) & RESERVED
        )
    )
    k1, k2, unknown = keys
    values = draw(st.lists(TEXT, min_size=1, max_size=3, unique=True))
    pattern_text = draw(TEXT)
    escapes: list[Callable[[str], str]] = [ecma_escape, re.escape]
    escape = draw(st.sampled_from(escapes))
    description = draw(TEXT)
    name = draw(st.from_regex(TOOL_NAME_RE, fullmatch=True))
    contract = {
        "name": name,
        "description": "d" + description,
        "parameters": {
            "type": "object",
            "title": draw(TEXT),
            "description": description,
            "properties": {
                k1: {
                    "type": "string",
                    "enum": values,
                    "description": draw(TEXT),
                    "title": draw(TEXT),
                    "default": values[0],
                    "examples": values,
                },
                k2: {
                    "type": "string",
                    "pattern": escape(pattern_text),
                    "maxLength": len(pattern_text) + 10,
                    "description": draw(TEXT),
                },
            },
            "required": [k1],
            "additionalProperties": False,
        },
        "examples": [
            {"args": {k1: values[0], k2: "<" + pattern_text + ">"}, "description": draw(TEXT)},
            {
                "args": {k1: values[-1], unknown: values[0]},
                "status": "reject",
                "errors": [{"path": pointer(unknown), "code": "additionalProperties"}],
            },
        ],
    }
    facts = {"k1": k1, "k2": k2, "unknown": unknown, "values": values, "pattern_text": pattern_text}
    return contract, facts


#: Modest by default, so that this file runs in well under a minute; raise it for a deeper search.
EXAMPLES = int(os.environ.get("TOOLSHAPE_HOSTILE_EXAMPLES", "50"))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(drawn=contracts(), how=st.sampled_from(["json", "quoted yaml"]))
def test_contracts_of_arbitrary_text(
    drawn: tuple[dict[str, Any], dict[str, Any]], how: str
) -> None:
    contract, facts = drawn
    raw = to_yaml(contract, how)
    if how != "json":
        assume(yaml.safe_load(raw.decode("utf-8")) == contract)  # pyyaml itself round-trips it
    result = generate(raw, "x")
    if isinstance(result, ContractError):
        event(f"clean contract error: {result.problems[0].message[:60]}")
        return  # a clean refusal is a fine outcome
    event("generated")
    module_baseline, test_baseline = baseline_audits()
    texts = [
        facts["k1"],
        facts["k2"],
        facts["unknown"],
        facts["pattern_text"],
        *facts["values"],
        contract["description"],
    ]
    for source, baseline, what in (
        (result.module_source, module_baseline, "module"),
        (result.test_source, test_baseline, "tests"),
    ):
        compile(source, what, "exec")
        assert not bad_characters(source), f"the {what} holds raw {bad_characters(source)}"
        code, comments = code_outside_literals(source)
        assert all(c.isascii() and c.isprintable() for c in comments)
        for text in texts:
            if not WORDLIKE.fullmatch(text):
                for piece in probes(text):
                    assert piece not in code, (
                        f"{what}: {piece!r} appears outside string literals and comments"
                    )
        for kind, found in ast_audit(source).items():
            assert found <= baseline.get(kind, set()), (
                f"the {what} has new {kind}: {sorted(found - baseline.get(kind, set()))}"
            )
    module, events = exec_spied(result.module_source, "arbitrary_x")
    check_module_imports(events, neutral_events_names())
    assert contract["parameters"] == module.INPUT_SCHEMA
    assert contract["description"] == module.DESCRIPTION
    k1, k2, unknown = facts["k1"], facts["k2"], facts["unknown"]
    for value in facts["values"]:
        assert module.validate({k1: value}).ok
    assert {(e.path, e.code) for e in module.validate({}).errors} == {(pointer(k1), "required")}
    refused = module.validate({k1: facts["values"][0], unknown: 1})
    assert {(e.path, e.code) for e in refused.errors} == {
        (pointer(unknown), "additionalProperties")
    }
    assert module.validate({k1: facts["values"][0], k2: "<" + facts["pattern_text"] + ">"}).ok
    json.dumps(refused.log_record())
    refused.feedback()
    assert run_generated_tests(result) > 0
