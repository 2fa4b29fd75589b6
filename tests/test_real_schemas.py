"""Real-world schemas (issue 16): a small sample of JSONSchemaBench through import and generate,
when the data is there, and hand-made regressions for what the full measurement found.

The sample runs only with ``TOOLSHAPE_REAL_SCHEMAS`` set to JSONSchemaBench's data folder
(see tests/bench/real_schemas.py and the README's "Real-world schemas"); the regressions always run.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import real_schemas  # tests/bench/real_schemas.py (conftest.py puts tests/bench on the path)
from support import CONTEXT, verdicts_unlike_jsonschema
from toolshape.codegen import cases, tests_model
from toolshape.contract import checker, reference, source
from toolshape.project import pipeline
from toolshape.project.runtime import runtime_module
from work_counting import assert_linear

DATA = os.environ.get(real_schemas.ENV_VAR)


def _checked(parameters: dict[str, Any]) -> checker.Contract:
    text = json.dumps(
        {
            "name": "real_regression",
            "description": "A regression from real schemas.",
            "parameters": parameters,
        }
    )
    return checker.check(source.load(text.encode(), "contracts/real_regression.yaml"))


@pytest.mark.skipif(
    not DATA,
    reason=f"set {real_schemas.ENV_VAR} to JSONSchemaBench's data folder to run the sample",
)
def test_a_sample_of_real_schemas_generates_without_internal_errors() -> None:
    """Every sampled schema imports and generates, or is refused with a clean error; every
    labelled instance gets its label's verdict from the generated module."""
    chosen, _ = real_schemas.sample(Path(str(DATA)), 24)
    assert chosen, f"no object-root schema found under {DATA}"
    outcomes = [real_schemas.run_limited(item, 120.0) for item in chosen]
    internal = [
        (o.name, o.reason, o.detail) for o in outcomes if o.stage in ("internal", "timeout")
    ]
    assert internal == []
    disagreements = [(o.name, d) for o in outcomes for d in o.disagreed]
    assert disagreements == []
    assert any(o.stage == "generated" for o in outcomes)


# -- regressions: minimal hand-made schemas ------------------------------------------

#: Real schemas put a $ref on nearly every property, and arrays of $ref'd objects.
_REF_HEAVY: dict[str, Any] = {
    "type": "object",
    "$defs": {
        "link": {
            "type": "object",
            "properties": {
                "href": {"type": "string", "minLength": 1},
                "rel": {"type": "string", "maxLength": 9},
            },
            "required": ["href"],
            "additionalProperties": False,
        },
        "links": {
            "type": "array",
            "items": {"$ref": "#/$defs/link"},
            "description": "Related links.",
        },
    },
    "properties": {
        f"field_{i}": {"$ref": "#/$defs/links", "description": "Some links."} for i in range(12)
    },
    "required": ["field_0"],
    "additionalProperties": False,
}


def test_cases_below_a_bare_ref_or_an_item_are_evaluated_locally(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A case that changes one value below a bare $ref (or inside an array item) is not evaluated
    whole: evaluating each case whole made derivation quadratic in the contract's size (a 30 kB
    real schema took over a minute). The local errors must equal a whole evaluation."""
    whole = []
    real_evaluate = reference.evaluate  # what cases imported: the one it calls

    def counting(schema: Any, data: Any) -> Any:
        whole.append(data)
        return real_evaluate(schema, data)

    monkeypatch.setattr(cases, "evaluate", counting)
    checked = _checked(_REF_HEAVY)
    derived = cases.derive(checked).cases
    assert len(derived) > 150
    # The base, and the few cases that change a whole object or list: not one per case.
    assert len(whole) < len(derived) // 4, (len(whole), len(derived))
    for case in derived:
        assert case.errors == frozenset(reference.evaluate(checked.parameters, case.data)), (
            case.name
        )


def test_no_sensitive_schema_means_no_redaction_rows() -> None:
    """Without x-sensitive the redaction walks are skipped (they cost seconds on large contracts);
    with it they still run: the skip must not hide a sensitive value."""
    plain = _checked(
        {"type": "object", "properties": {"token": {"type": "string"}}, "required": ["token"]}
    )
    derived = cases.derive(plain).cases
    assert tests_model._sensitive_strings(plain, derived) == set()
    secret = _checked(
        {
            "type": "object",
            "properties": {
                "token": {"type": "string", "x-sensitive": True, "enum": ["hunter2-secret"]}
            },
            "required": ["token"],
        }
    )
    assert "hunter2-secret" in tests_model._sensitive_strings(secret, cases.derive(secret).cases)


def _nested(depth: int) -> dict[str, Any]:
    """Objects nested ``depth`` deep, each with optional keys for completion to fill in."""
    schema: dict[str, Any] = {
        "type": "object",
        "properties": {"note": {"type": "string", "maxLength": 5}},
    }
    for level in range(depth):
        schema = {
            "type": "object",
            "properties": {f"n{level}": schema, "flag": {"type": "boolean"}},
        }
    return schema


def test_completing_the_base_checks_the_whole_root_once_per_object(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Completion keeps a key only if the root stays accepted, so a root accepted at the start
    needs no whole check before each object's keys, only after them: checking it before too
    doubled the whole-root evaluations that made large recursive schemas take minutes."""
    checks = []
    real = cases._Deriver.still_good

    def counting(self: Any) -> bool:
        checks.append(1)
        return bool(real(self))

    monkeypatch.setattr(cases._Deriver, "still_good", counting)
    depth = 20
    deriver = cases._Deriver(_checked(_nested(depth)))
    base, accepted = deriver.base()
    assert accepted and reference.evaluate(deriver.schema, base) == set()
    # One check when completion starts, one after each of the depth + 1 objects' keys.
    assert len(checks) <= depth + 3, len(checks)


#: Patterns a backtracking engine runs for exponential time on a string that almost matches,
#: as real schemas write them (Composer's package name, an e-mail, a tag list).
_EXPONENTIAL = [
    r"^[a-z0-9]([_.-]?[a-z0-9]+)*/[a-z0-9](([_.]|-{1,2})?[a-z0-9]+)*$",
    r"^[a-z\d_\.\+-]+@([a-z\d\.-]+\.)*(([a-z]+)|\(none\))$",
    r"^(\w+\s?)*$",
    r"^(a+)+$",
    r"(a|aa)*b",
    r"^(a{1,30})+$",
    r"^(a+)+b",  # (the generator hung deriving cases for it when it matched with re)
]


@pytest.mark.parametrize("pattern", _EXPONENTIAL)
def test_a_pattern_that_backtracks_exponentially_generates_with_a_warning(pattern: str) -> None:
    """Refused until now (about 1% of JSONSchemaBench's object-root schemas): the generated
    validator and the generator's own matcher both run every pattern in linear time, so the
    pattern is kept and only warned about (another platform's backtracking engine would hang
    on it). The module agrees with jsonschema, and an almost-matching string of n characters
    costs it linear work."""
    parameters = {
        "type": "object",
        "properties": {"s": {"type": "string", "pattern": pattern}},
        "patternProperties": {pattern: {"type": "string"}},  # a key is a pattern too
        "required": ["s"],
    }
    raw = json.dumps({"name": "t", "description": "d", "parameters": parameters}).encode()
    done = pipeline.generate_module(raw, "x.yaml", PurePosixPath("x.yaml"), CONTEXT)
    warned = [w for w in done.warnings if "backtrack catastrophically" in w.message]
    assert len(warned) == 2, done.warnings  # the value of `pattern`, and the key
    samples = ("a", "aa", "ab", "a-b", "a b", "a/b", "a@b.c", "a!", "", "b")
    tried = [{"s": s} for s in samples] + [{"s": "a", s: s} for s in samples]
    assert verdicts_unlike_jsonschema(done.module, parameters, tried) == []

    def call(n: int) -> Any:
        value = {"s": "a" * n + "!"}
        return lambda: done.module.validate(value)

    call(4000)()  # the matcher builds its automaton's states lazily, once: not per string
    assert_linear(pattern, call, 1000, done.module, runtime_module())


#: Strings that fail any mix of maxLength, an asserted format and the pattern below.
_STRING_SAMPLES = ("", "x", "2024", "2024-05-01", "2024-5-1", "9" * 12, "2024-05-01" * 2, "a@b")


@pytest.mark.parametrize("asserted", ["date", "email", "uuid"])
@pytest.mark.parametrize("lengths", [{"maxLength": 10}, {"minLength": 1, "maxLength": 10}])
def test_a_pattern_is_checked_whether_or_not_the_format_passes(
    asserted: str, lengths: dict[str, int]
) -> None:
    """maxLength, an asserted format and a pattern on one string (a birth date in a real
    schema): the pattern ran only when the format passed (an ``elif`` of the format check),
    so a string failing both reported only the format, unlike the reference evaluator (an
    internal error in generate). The pattern is checked unless the string is too long."""
    parameters = {
        "type": "object",
        "properties": {
            "d": {
                "type": "string",
                "format": asserted,
                **lengths,
                "pattern": "^([0-9]{4})(-([0-9]{2}))?(-([0-9]{2}))?$",
            }
        },
    }
    raw = json.dumps({"name": "t", "description": "d", "parameters": parameters}).encode()
    done = pipeline.generate_module(raw, "x.yaml", PurePosixPath("x.yaml"), CONTEXT)
    checked = _checked(parameters)
    for text in _STRING_SAMPLES:
        got = {(e.path, e.code) for e in done.module.validate({"d": text}).errors}
        assert got == reference.evaluate(checked.parameters, {"d": text}), text
    both = {("/d", "format"), ("/d", "pattern")}
    assert both <= {(e.path, e.code) for e in done.module.validate({"d": "x"}).errors}


def _waiting(item: real_schemas.Sample) -> real_schemas.Outcome:
    time.sleep(1.5)  # half as much wall clock again as the CPU limit of 1 s, next to no CPU
    return real_schemas.Outcome(item.name, "generated")


def _blocked(item: real_schemas.Sample) -> real_schemas.Outcome:
    """Waits for ever, spending no CPU: it reads a pipe whose write end it holds itself, so
    only the parent's kill ends it (a sleep would hold the test for as long as it sleeps)."""
    read, _write = os.pipe()
    os.read(read, 1)
    raise AssertionError("a read of a pipe no one writes to returned")


def _spinning(item: real_schemas.Sample) -> real_schemas.Outcome:
    while True:
        pass


def test_a_real_schema_is_limited_by_the_cpu_it_spends_not_by_the_wall_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On a machine shared with other work a schema needing 8 s of CPU took over 60 s of wall
    clock and was counted as a timeout: the limit is the CPU the child spends, with a wall
    clock limit only for a child that waits."""
    item = real_schemas.Sample(Path("x.json"), "x", {"type": "object"}, ())
    monkeypatch.setattr(real_schemas, "run_one", _waiting)
    assert real_schemas.run_limited(item, 1.0).stage == "generated"
    monkeypatch.setattr(real_schemas, "run_one", _spinning)
    spun = real_schemas.run_limited(item, 1.0, wall_timeout=120.0)
    assert (spun.stage, spun.reason) == ("timeout", "more than 1 s of CPU")
    monkeypatch.setattr(real_schemas, "run_one", _blocked)
    waited = real_schemas.run_limited(item, 60.0, wall_timeout=0.25)
    assert waited.stage == "timeout" and "wall clock" in waited.reason
