"""Hostile contracts (issue 5): every hostile text in one contract, laid out as black would,
still data only, and its generated tests pass under pytest in the generated layout.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hostile_contracts_support import (
    HOSTILE,
    WORDLIKE,
    ast_audit,
    bad_characters,
    baseline_audits,
    check_module_imports,
    code_outside_literals,
    exec_spied,
    generate,
    hostile_contract,
    neutral_events_names,
    pointer,
    probes,
    to_yaml,
)
from support import run_pytest
from toolshape.codegen import render
from toolshape.project import pipeline, runtime

#: Every text that is not a plain word, and a few words that name the module's own things.
#: (Not all 60-odd texts: generation time grows steeply with the number of properties.)
ALL_AT_ONCE = [t for t in HOSTILE.values() if not WORDLIKE.fullmatch(t)] + [
    "ab",
    "value",
    "errors",
    "Error",
    "json",
    "class",
    "1abc",
    "str",
    "_json_key",
]


def all_at_once_contract() -> dict[str, Any]:
    """One contract whose keys, enum values, descriptions and titles are the hostile texts, all at once."""
    texts = ALL_AT_ONCE
    properties: dict[str, Any] = {
        text: {
            "type": ["string", "null"],
            "title": text,
            "description": text,
            "enum": [text, f"other {i}", None],
        }
        for i, text in enumerate(texts)
    }
    return {
        "name": "all_hostile",
        "description": " ".join(texts),
        "parameters": {
            "type": "object",
            "title": "".join(texts),
            "description": "\n".join(texts),
            "properties": properties,
            "required": texts,
            "additionalProperties": False,
        },
        "examples": [
            {"description": "".join(texts), "args": {u: u for u in texts}},
            {"description": "all null", "args": dict.fromkeys(texts)},
            {"json": json.dumps({u: u for u in texts})},
            {
                "args": {u: u for u in texts[1:]},
                "status": "reject",
                "errors": [{"path": pointer(texts[0]), "code": "required"}],
            },
        ],
    }


#: Per-text contracts that also go through black (the rest skip it, for speed) and pytest.
FORMATTED = [
    "code injection",
    "U+2028 line separator",
    "backslash at the end of a line",
    "triple double quotes",
]


@pytest.fixture(scope="module")
def all_at_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[pipeline.Generated, Path]:
    """The all-at-once contract, and a few per-text ones formatted by black, in the generated layout.

    pkg/__init__.py, pkg/<stem>.py, pkg/tests/__init__.py, pkg/tests/test_<stem>.py: the
    generated tests import their module relatively (``from .. import <stem> as module``).
    """
    generated = generate(to_yaml(all_at_once_contract(), "quoted yaml"), "hostile")
    assert isinstance(generated, pipeline.Generated), (
        f"the all-at-once contract does not generate: {generated}"
    )
    root = tmp_path_factory.mktemp("all_at_once")
    package = root / "hostile_pkg"
    (package / "tests").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "tests" / "__init__.py").write_text("", encoding="utf-8")
    (package / "_runtime.py").write_text(
        runtime.runtime_source(render.generation_context()), encoding="utf-8"
    )
    outputs = [generated]
    for i, label in enumerate(FORMATTED):
        formatted = generate(
            to_yaml(hostile_contract(HOSTILE[label]), "quoted yaml"), f"formatted_{i}"
        )
        assert isinstance(formatted, pipeline.Generated), formatted
        outputs.append(formatted)
    for output in outputs:
        (package / output.module_path.as_posix()).write_text(output.module_source, encoding="utf-8")
        (package / output.test_path.as_posix()).write_text(output.test_source, encoding="utf-8")
    return generated, root


def test_all_hostile_texts_at_once_are_laid_out_as_black_would() -> None:
    """Every hostile text in one contract, formatted the way the built-in templates are
    (layout.py, black only where it must): the module is exactly what black makes of it,
    wide characters, escapes and quotes of every kind included."""
    import black

    generated = generate(to_yaml(all_at_once_contract(), "quoted yaml"), "hostile")
    assert isinstance(generated, pipeline.Generated), generated
    assert black.format_str(generated.module_source, mode=black.Mode()) == generated.module_source


def test_all_hostile_texts_at_once_are_data(all_at_once: tuple[pipeline.Generated, Path]) -> None:
    generated, _ = all_at_once
    contract = all_at_once_contract()
    module_baseline, _ = baseline_audits()
    for text in ALL_AT_ONCE:
        if WORDLIKE.fullmatch(text):
            continue
        code, _ = code_outside_literals(generated.module_source)
        for piece in probes(text):
            assert piece not in code, f"{piece!r} appears outside string literals and comments"
    for source, what in ((generated.module_source, "module"), (generated.test_source, "tests")):
        assert not bad_characters(source), f"the {what} holds raw {bad_characters(source)}"
        _, comments = code_outside_literals(source)
        assert all(c.isascii() and c.isprintable() for c in comments)
    audit = ast_audit(generated.module_source)
    assert audit["imports"] <= module_baseline["imports"]
    assert audit["free names"] <= module_baseline["free names"], (
        audit["free names"] - module_baseline["free names"]
    )
    module, events = exec_spied(generated.module_source, "hostile_pkg.hostile")
    check_module_imports(events, neutral_events_names())
    assert (
        contract["parameters"] == module.INPUT_SCHEMA
        and contract["description"] == module.DESCRIPTION
    )
    texts = ALL_AT_ONCE
    assert module.validate({u: u for u in texts}).ok
    assert module.validate(dict.fromkeys(texts)).ok
    for text in texts:
        others = {u: u for u in texts if u != text}
        assert {(e.path, e.code) for e in module.validate(others).errors} == {
            (pointer(text), "required")
        }, text
        assert {(e.path, e.code) for e in module.validate({**others, text: "nope"}).errors} == {
            (pointer(text), "enum")
        }, text


def test_all_hostile_texts_at_once_generated_tests_pass_under_pytest(
    all_at_once: tuple[pipeline.Generated, Path],
) -> None:
    _, root = all_at_once
    done = run_pytest("--rootdir", root, root / "hostile_pkg" / "tests", cwd=root)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"\d+ passed", done.stdout)
