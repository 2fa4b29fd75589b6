"""Hostile contracts (issue 5): raw contract text (NUL, lone surrogates, invalid UTF-8, YAML
python tags, tool names that are paths or Jinja) generates safely or fails with a clean
``ContractError``.
"""

from __future__ import annotations

import json
import re

import pytest
import yaml
from hostile_contracts_support import (
    ast_audit,
    bad_characters,
    baseline_audits,
    check_module_imports,
    exec_spied,
    generate,
    neutral_events_names,
    run_generated_tests,
)
from toolshape.contract.errors import ContractError


@pytest.mark.parametrize(
    ("label", "raw"),
    [
        ("raw NUL in YAML", b'name: t\ndescription: "a\x00b"\nparameters: {type: object}\n'),
        (
            "raw NUL in a key",
            b'name: t\ndescription: d\nparameters: {type: object, properties: {"a\x00": {}}}\n',
        ),
        (
            "escaped NUL in a double-quoted YAML string",
            b'name: t\ndescription: "a\\0b"\nparameters: {type: object}\n',
        ),
        (
            "escaped NUL key",
            b'name: t\ndescription: d\nparameters: {type: object, properties: {"a\\0": {type: string}}}\n',
        ),
        (
            "lone surrogate escape",
            b'name: t\ndescription: "a\\ud800b"\nparameters: {type: object}\n',
        ),
        (
            "lone surrogate key",
            b'name: t\ndescription: d\nparameters: {type: object, properties: {"\\ud800": {}}}\n',
        ),
        ("invalid UTF-8", b"name: t\ndescription: \xff\nparameters: {type: object}\n"),
        (
            "tool name with a quote",
            b'name: "x\\"]; import os"\ndescription: d\nparameters: {type: object}\n',
        ),
        (
            "tool name with a path",
            b'name: "../../etc/passwd"\ndescription: d\nparameters: {type: object}\n',
        ),
        (
            "tool name that is a Jinja expression",
            b'name: "{{ 7*7 }}"\ndescription: d\nparameters: {type: object}\n',
        ),
        ("tool name ..", b'name: ".."\ndescription: d\nparameters: {type: object}\n'),
        (
            "YAML python tag",
            b'name: t\ndescription: !!python/object/apply:os.system ["id"]\nparameters: {type: object}\n',
        ),
        (
            "YAML python name tag",
            b"name: t\ndescription: d\nparameters: !!python/name:os.system {type: object}\n",
        ),
        (
            "a line-continued double-quoted description",
            b'name: t\ndescription: "a \\\n  b"\nparameters: {type: object}\n',
        ),
        (
            "U+2028 raw in a YAML string",
            'name: t\ndescription: "a\u2028b"\nparameters: {type: object}\n'.encode(),
        ),
        (
            "right-to-left override raw in a key",
            'name: t\ndescription: d\nparameters: {type: object, properties: {"a\u202eb": {type: string}}}\n'.encode(),
        ),
    ],
)
def test_raw_contract_text_generates_safely_or_fails_cleanly(label: str, raw: bytes) -> None:
    result = generate(raw, "x")
    if isinstance(result, ContractError):
        return
    module_baseline, test_baseline = baseline_audits()
    for source, baseline, what in (
        (result.module_source, module_baseline, "module"),
        (result.test_source, test_baseline, "tests"),
    ):
        compile(source, what, "exec")
        assert not bad_characters(source), f"{label}: the {what} holds raw {bad_characters(source)}"
        for kind, found in ast_audit(source).items():
            if kind == "calls":  # a different contract shape: only the dangerous calls matter
                found = {
                    c
                    for c in found
                    if re.search(r"system|popen|exec|eval|__import__|open|subprocess", c)
                }
            if kind in ("free names", "calls", "imports"):
                assert found <= baseline.get(kind, set()) | {"TypedDict"}, (
                    f"{label}: new {kind} {sorted(found - baseline.get(kind, set()))}"
                )
    module, events = exec_spied(result.module_source, "raw_x")
    check_module_imports(events, neutral_events_names())
    data = yaml.safe_load(raw.decode("utf-8"))
    assert data["description"] == module.DESCRIPTION
    assert data["parameters"] == module.INPUT_SCHEMA
    assert run_generated_tests(result) > 0


def test_json_surrogate_pair_escapes_are_refused_cleanly() -> None:
    """JSON is YAML, except for \\ud83d\\ude00: YAML reads two lone surrogates. A clean error, not a crash."""
    raw = json.dumps(
        {"name": "t", "description": "\U0001f600", "parameters": {"type": "object"}}
    ).encode()
    assert b"\\ud83d\\ude00" in raw
    result = generate(raw)
    assert isinstance(result, ContractError) and "surrogate" in str(result)
