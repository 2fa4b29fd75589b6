"""Differential test (issue 3): the generated validators against the `jsonschema` library.

For every contract under contracts/ (discovered, not listed), the committed module
``generated.<folder>.<name>`` and ``jsonschema.Draft202012Validator(INPUT_SCHEMA,
format_checker=FORMAT_CHECKER)`` judge the same instances:

- valid instances, drawn by the strategy builder in differential_strategies.py and
  kept only when jsonschema accepts them: the generated module must accept them too;
- their broken variants, at every position (the root and every nested value) of the
  drawn instance: a key dropped (required or optional), a value nulled, a type
  swapped (bool <-> number, 1 <-> 1.0, string <-> number, array <-> object, ...), a
  bound crossed and met (lengths, minimum/maximum, item and property counts,
  uniqueItems), an unknown key added (one of them needs JSON Pointer escaping), the
  value wrapped in an array, the value serialised into a JSON string.

For each instance this file asserts (see ``agree``):

1. the verdicts agree: toolshape accepts exactly when jsonschema reports no error;
2. an accepted instance has no error, a refused one at least one;
3. every ``Error.path`` of toolshape exists in the instance. "Exists" means: the JSON
   Pointer resolves, step by step, to a value of the instance; except for the codes
   that point at a key that is *missing* (``required``, ``dependentRequired``), where
   every step but the last resolves to an object and the last token is not a key of it;
4. the locations agree: every location jsonschema reports (its ``absolute_path``) is
   on the same branch of the instance tree as some toolshape error path (one is a
   prefix of the other), and the other way round. Exact error lists differ by design
   (toolshape reports a missing key at ``/key``, jsonschema at the parent; toolshape
   reports a nullable ``anyOf`` branch's own errors, jsonschema the ``anyOf``), so
   only this prefix relation is compared.

Known differences, each steered around where the instances are made (comments
``STEER:`` in differential_strategies.py) and each pinned below by a test stating
both verdicts and the reason: ECMA-262 vs Python ``re`` patterns
(test_pattern_semantics_are_ecma), decimal vs float ``multipleOf``
(test_multiple_of_is_decimal), and the formats where jsonschema's checkers are looser
or stricter than toolshape's RFC reading (KNOWN_DIFFERENCES: year 0000, leap seconds,
a final newline, trailing-dot and non-ASCII host names, ISO 8601 durations outside RFC
3339's grammar, and an email check that only looks for "@",
see also test_email_is_asserted_strictly). Edge values of every format the contracts
use, none of them a known difference, must agree (test_format_edges_agree). Broken
copies of generated modules must make the differential fail
(test_a_broken_module_is_caught).

Hypothesis runs derandomized (the same examples on every run, so CI cannot flake)
with ``EXAMPLES`` valid instances per contract and per mutation kind
(``TOOLSHAPE_DIFFERENTIAL_EXAMPLES`` overrides it for a longer local run).
"""

from __future__ import annotations

import functools
import importlib
import importlib.util
import json
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from differential_strategies import (
    ECMA_WHITESPACE,
    KINDS,
    UNSAFE_CHARACTERS,
    WHITESPACE_DISAGREEMENT,
    Builder,
    mutants,
    type_swaps,
)
from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st
from support import example_contracts
from toolshape.project import runtime

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = ROOT / "contracts"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

EXAMPLES = int(os.environ.get("TOOLSHAPE_DIFFERENTIAL_EXAMPLES", "12"))
SETTINGS = settings(
    max_examples=EXAMPLES,
    derandomize=True,
    deadline=None,
    database=None,
    report_multiple_bugs=False,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)

# Each contract's module and strategies are built once per process; under xdist the whole
# file runs on one worker (conftest.ONE_WORKER_FILES).

FORMAT_CHECKER = jsonschema.Draft202012Validator.FORMAT_CHECKER
#: The formats the committed contracts may use here: those jsonschema's format checker asserts
#: too. The others (iri, uri-template, json-pointer...) jsonschema leaves unchecked without more
#: extras; the JSON-Schema-Test-Suite holds them (test_conformance.py, test_format_checks.py).
TOOLSHAPE_FORMATS = {
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uuid",
}
#: Error codes whose path names a key that is absent from the instance.
MISSING_KEY_CODES = {"required", "dependentRequired"}


def _module_names() -> list[str]:
    names = []
    for path in example_contracts() + example_contracts(pattern="*.yml"):
        if path.is_file():
            names.append(
                ".".join(("generated",) + path.relative_to(CONTRACTS).with_suffix("").parts)
            )
    return names


MODULE_NAMES = _module_names()
IDS = [name.removeprefix("generated.") for name in MODULE_NAMES]


@functools.cache
def oracle(module: types.ModuleType) -> jsonschema.protocols.Validator:
    """The judge: Draft 2020-12 on ``INPUT_SCHEMA``; for a module imported from a schema that
    names another draft, that draft's validator on the schema as written, its ``SOURCE_SCHEMA``
    (tests/test_reference_servers.py), so that the import's translation is judged too, with
    2020-12's format checker (formats are asserted in every draft)."""
    written = getattr(module, "SOURCE_SCHEMA", None)
    if written is None:
        return jsonschema.Draft202012Validator(module.INPUT_SCHEMA, format_checker=FORMAT_CHECKER)
    draft = jsonschema.validators.validator_for(written, default=jsonschema.Draft202012Validator)
    # Formats as toolshape asserts them in every draft, as 2020-12 defines them (a draft-07
    # schema's uuid too: families/formats/importing.py), not as the draft's own checker lists them.
    return draft(written, format_checker=FORMAT_CHECKER)


@functools.cache
def _builder(module: types.ModuleType) -> Builder:
    return Builder(module.INPUT_SCHEMA, _Accepts(_jsonschema_judge(module.INPUT_SCHEMA)))


def _jsonschema_judge(root: Any) -> Callable[[Any, Any], bool]:
    """``judge(schema, value)``: whether a 2020-12 validator of ``root`` (the builder walks
    its subschemas), evolved to ``schema``, accepts ``value``. An evolved validator is kept
    by the schema's ``id``: it holds the schema, so no other schema takes that ``id``."""
    validator = jsonschema.Draft202012Validator(root, format_checker=FORMAT_CHECKER)
    evolved: dict[int, jsonschema.protocols.Validator] = {}

    def judge(schema: Any, value: Any) -> bool:
        if id(schema) not in evolved:
            evolved[id(schema)] = validator.evolve(schema=schema)
        return evolved[id(schema)].is_valid(value)

    return judge


class _Accepts:
    """The builder's ``accepts(schema, value)``: ``judge``'s verdict, judged once per process.

    Hypothesis runs derandomized, so each mutation kind's test draws the very candidates the
    other kinds' tests drew for that module. A verdict is kept by the schema's ``id`` (see
    ``_jsonschema_judge``) and the value's JSON text with sorted keys, which tells ``1`` from
    ``1.0`` and ``true`` and leaves out only key order, which no keyword reads."""

    def __init__(self, judge: Callable[[Any, Any], bool]) -> None:
        self.judge = judge
        self.verdicts: dict[tuple[int, str], bool] = {}

    def __call__(self, schema: Any, value: Any) -> bool:
        key = (id(schema), json.dumps(value, sort_keys=True))
        if key not in self.verdicts:
            self.verdicts[key] = self.judge(schema, value)
        return self.verdicts[key]


@st.composite
def valid_instances(draw: st.DrawFn, module: types.ModuleType) -> Any:
    return _builder(module).value(draw, module.INPUT_SCHEMA)


# -- The comparison ---------------------------------------------------------------------


def _tokens(pointer: str) -> list[str]:
    assert pointer == "" or pointer.startswith("/"), f"not a JSON Pointer: {pointer!r}"
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def _step(value: Any, token: str) -> tuple[bool, Any]:
    if isinstance(value, dict):
        return (token in value, value.get(token))
    if isinstance(value, list):
        ok = (
            token.isdigit()
            and (token == "0" or not token.startswith("0"))
            and int(token) < len(value)
        )
        return (ok, value[int(token)] if ok else None)
    return (False, None)


def path_exists(instance: Any, pointer: str, code: str) -> bool:
    """Item 3 of the module docstring: the error's location is in the instance."""
    tokens = _tokens(pointer)
    missing = code in MISSING_KEY_CODES
    if missing and not tokens:
        return False  # a missing key has a name
    value = instance
    for token in tokens[:-1] if missing else tokens:
        ok, value = _step(value, token)
        if not ok:
            return False
    return not missing or (isinstance(value, dict) and tokens[-1] not in value)


def _related(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return a[: len(b)] == b or b[: len(a)] == a


def agree(module: types.ModuleType, instance: Any, label: str = "") -> None:
    """Assert items 1-4 of the module docstring for one instance."""
    ours = module.validate(instance)
    theirs = list(oracle(module).iter_errors(instance))
    context = (
        f"{module.__name__} on {label or 'an instance'}\n"
        f"instance: {json.dumps(instance, ensure_ascii=False)[:2000]}\n"
        f"toolshape: {ours.status} {[(e.path, e.code) for e in ours.errors]}\n"
        f"jsonschema: {[('/'.join(map(str, e.absolute_path)), e.validator, e.message[:120]) for e in theirs]}"
    )
    assert ours.status in ("accept", "reject"), context
    assert (ours.status == "accept") == (not theirs), "verdicts differ: " + context
    assert (not ours.errors) == ours.ok, context
    for error in ours.errors:
        assert path_exists(instance, error.path, error.code), (
            f"{error.path!r} ({error.code}) not in the instance: {context}"
        )
    mine = [tuple(_tokens(e.path)) for e in ours.errors]
    js = [tuple(str(step) for step in e.absolute_path) for e in theirs]
    for location in js:
        assert any(_related(location, m) for m in mine), (
            f"jsonschema's /{'/'.join(location)} unmatched: {context}"
        )
    for location in mine:
        assert any(_related(location, j) for j in js), (
            f"toolshape's {location} unmatched: {context}"
        )


def run_differential(module: types.ModuleType, kind: str | None, *, shrink: bool = True) -> None:
    """Draw valid instances of ``module``'s schema; check them (kind None) or their mutants."""

    @settings(SETTINGS, phases=tuple(Phase) if shrink else (Phase.generate,))
    @given(data=st.data())
    def check(data: st.DataObject) -> None:
        instance = data.draw(valid_instances(module), label="valid instance")
        if kind is None:
            agree(module, instance, "a valid instance")
            assert module.validate(instance).ok
            return
        variants = mutants(kind, module.INPUT_SCHEMA, instance)
        note(f"{len(variants)} {kind} variants")
        for label, variant in variants:
            agree(module, variant, label)

    check()


# -- The tests --------------------------------------------------------------------------


def test_every_contract_has_a_committed_module() -> None:
    assert len(MODULE_NAMES) >= 10, MODULE_NAMES
    for name in MODULE_NAMES:
        module = importlib.import_module(name)
        assert module.INPUT_SCHEMA["type"] == "object", name


def test_jsonschema_asserts_every_format_toolshape_asserts() -> None:
    """Without its format extras jsonschema silently ignores `format`; then the differential
    would prove nothing about it. The `test` extra installs jsonschema[format-nongpl]."""
    assert set(FORMAT_CHECKER.checkers) >= TOOLSHAPE_FORMATS, sorted(
        TOOLSHAPE_FORMATS - set(FORMAT_CHECKER.checkers)
    )
    for fmt, bad in {
        "hostname": "-bad-",
        "uri": "no scheme",
        "duration": "P",
        "date-time": "2024-13-01T00:00:00Z",
    }.items():
        assert not FORMAT_CHECKER.conforms(bad, fmt), fmt


@pytest.mark.parametrize("name", MODULE_NAMES, ids=IDS)
def test_valid_instances_are_accepted_by_both(name: str) -> None:
    run_differential(importlib.import_module(name), None)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", MODULE_NAMES, ids=IDS)
def test_broken_variants_get_the_same_verdict(name: str, kind: str) -> None:
    run_differential(importlib.import_module(name), kind)


def test_the_builder_judges_each_candidate_once_and_by_json() -> None:
    """Each (schema, value) goes to jsonschema once; values JSON tells apart (1, 1.0, true)
    go apart, key order is no difference, and the verdict is the judge's."""
    judged: list[tuple[Any, Any]] = []
    judge = _jsonschema_judge({"type": "object"})

    def counting(schema: Any, value: Any) -> bool:
        judged.append((schema, value))
        return judge(schema, value)

    accepts = _Accepts(counting)
    integer = {"type": "integer"}
    verdicts = [accepts(integer, value) for value in (1, 1.0, True, 1, 1.0, True, "1")]
    assert verdicts == [True, True, False, True, True, False, False]
    assert judged == [(integer, 1), (integer, 1.0), (integer, True), (integer, "1")]
    closed = {"maxProperties": 1}
    assert [accepts(closed, v) for v in ({"a": 1, "b": 2}, {"b": 2, "a": 1})] == [False, False]
    assert len(judged) == 5
    assert accepts({"type": "string"}, 1) is False and len(judged) == 6  # another schema


# -- The result's side: validate_result against jsonschema on OUTPUT_SCHEMA ----------------


class _ResultSide(types.ModuleType):
    """A module's result validator as the comparison above reads a module: ``validate`` is
    its ``validate_result`` and ``INPUT_SCHEMA`` its ``OUTPUT_SCHEMA``."""

    def __init__(self, module: types.ModuleType) -> None:
        super().__init__(f"{module.__name__}.validate_result")
        self.validate = module.validate_result
        self.INPUT_SCHEMA = module.OUTPUT_SCHEMA


@functools.cache
def result_side(module: types.ModuleType) -> types.ModuleType:
    """One side object per module, so that its oracle and strategies are built once."""
    return _ResultSide(module)


#: The example contracts that declare an ``output`` (their modules have validate_result).
RESULT_NAMES = [
    name
    for name in MODULE_NAMES
    if "\noutput:"
    in (CONTRACTS / (name.removeprefix("generated.").replace(".", "/") + ".yaml")).read_text(
        encoding="utf-8"
    )
]


def test_some_contracts_declare_a_result() -> None:
    assert len(RESULT_NAMES) >= 2, RESULT_NAMES
    for name in RESULT_NAMES:
        assert importlib.import_module(name).OUTPUT_SCHEMA["type"] == "object", name


@pytest.mark.parametrize(
    "name", RESULT_NAMES, ids=[n.removeprefix("generated.") for n in RESULT_NAMES]
)
def test_valid_results_are_accepted_by_both(name: str) -> None:
    run_differential(result_side(importlib.import_module(name)), None)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize(
    "name", RESULT_NAMES, ids=[n.removeprefix("generated.") for n in RESULT_NAMES]
)
def test_broken_results_get_the_same_verdict(name: str, kind: str) -> None:
    run_differential(result_side(importlib.import_module(name)), kind)


# -- Known differences: pinned, with both verdicts ---------------------------------------
#
# Each row: the contract, an instance, toolshape's verdict, jsonschema's verdict, and
# why they differ. The strategies steer around every one of them (STEER: comments in
# differential_strategies.py); these rows prove the steering is needed and that
# toolshape's side is the documented one. The base instances are accepted by both.

BASES = {
    "get_weather": {"city": "Berlin", "unit": "c"},
    "send_email": {"to": ["ada@example.com"], "subject": "Hi", "body": ""},
    "billing.transfer_funds": {
        "from_account": "DE89370400440532013000",
        "to_account": "GB29NWBK60161331926819",
        "amount": 250,
        "currency": "EUR",
        "confirm": True,
    },
    "net.allow_ip": {
        "address": "203.0.113.7",
        "service_host": "api.internal.example.com",
        "ttl": "PT30M",
        "approvers": ["sec@security.example.com"],
        "daily_window": {"start": "09:00:00Z", "end": "17:00:00+02:00"},
    },
    "comments.post_comment": {
        "comment": {"author": "ada", "body": "hi", "posted_at": "2024-05-01T09:30:00Z"},
        "attachments": [{"kind": "image", "url": "https://example.com/a.png"}],
    },
    "docs.search_documents": {
        "query": "x",
        "created_from": "2024-02-29",
        "author_email": "ada@example.com",
    },
}

KNOWN_DIFFERENCES = [
    # (contract, path, value, toolshape accepts, jsonschema accepts, reason)
    (
        "billing.transfer_funds",
        ("amount",),
        19.99,
        True,
        False,
        "multipleOf is exact in decimal in toolshape (README); jsonschema divides floats: 19.99 / 0.01 = 1998.9999999999998",
    ),
    (
        "net.allow_ip",
        ("daily_window", "start"),
        "23:59:60Z",
        True,
        False,
        "a leap second: RFC 3339 allows it at 23:59 UTC; rfc3339-validator supports none",
    ),
    (
        "comments.post_comment",
        ("comment", "posted_at"),
        "0000-01-01T00:00:00Z",
        True,
        False,
        "year 0000: RFC 3339's 4DIGIT allows it; rfc3339-validator refuses year 0",
    ),
    (
        "docs.search_documents",
        ("created_from",),
        "0000-01-01",
        True,
        False,
        "year 0000: RFC 3339's 4DIGIT allows it; jsonschema's date check uses datetime.date, which has no year 0",
    ),
    (
        "comments.post_comment",
        ("comment", "posted_at"),
        "2024-05-01T09:30:00Z\n",
        False,
        True,
        "rfc3339-validator's regex ends in `$`, which Python lets match before a final newline",
    ),
    (
        "net.allow_ip",
        ("ttl",),
        "P1Y1D",
        False,
        True,
        "RFC 3339 appendix A: a year is followed by months before days; isoduration reads ISO 8601 loosely",
    ),
    (
        "net.allow_ip",
        ("ttl",),
        "PT1H30S",
        False,
        True,
        "RFC 3339 appendix A: hours are followed by minutes before seconds; isoduration reads ISO 8601 loosely",
    ),
    (
        "net.allow_ip",
        ("ttl",),
        "P1.5D",
        False,
        True,
        "RFC 3339 appendix A has whole numbers only; isoduration accepts ISO 8601 decimal fractions",
    ),
    (
        "net.allow_ip",
        ("service_host",),
        "api.example.com.",
        False,
        True,
        "fqdn accepts the absolute form with a trailing dot; an RFC 1123 host name has no empty label",
    ),
    (
        "net.allow_ip",
        ("service_host",),
        "\u212aelvin.example.com",
        False,
        True,
        "fqdn's regex is IGNORECASE without ASCII, so the Kelvin sign U+212A passes for a 'k'",
    ),
    (
        "docs.search_documents",
        ("author_email",),
        '"ada@example.com"',
        False,
        True,
        "jsonschema's email check is only `'@' in value`; toolshape asserts an RFC 5321 mailbox",
    ),
    (
        "docs.search_documents",
        ("author_email",),
        "ada@@example.com",
        False,
        True,
        "jsonschema's email check is only `'@' in value`; toolshape asserts an RFC 5321 mailbox",
    ),
]


def _with(base: Any, path: tuple[Any, ...], value: Any) -> Any:
    from differential_strategies import replace

    return replace(base, path, value)


@pytest.mark.parametrize("name", sorted(BASES))
def test_the_pinned_bases_are_valid(name: str) -> None:
    agree(importlib.import_module("generated." + name), BASES[name], "the base instance")
    assert importlib.import_module("generated." + name).validate(BASES[name]).ok


@pytest.mark.parametrize(
    "name, path, value, ours, theirs, reason",
    KNOWN_DIFFERENCES,
    ids=[f"{row[0]}:{row[2]!r}" for row in KNOWN_DIFFERENCES],
)
def test_formats_where_jsonschema_differs(
    name: str, path: tuple[Any, ...], value: Any, ours: bool, theirs: bool, reason: str
) -> None:
    module = importlib.import_module("generated." + name)
    instance = _with(BASES[name], path, value)
    assert module.validate(instance).ok is ours, reason
    assert oracle(module).is_valid(instance) is theirs, reason


def test_email_is_asserted_strictly() -> None:
    """Why the serialise mutation skips email strings: a JSON string holding an address
    still contains "@", which is all jsonschema's email check asks for."""
    module = importlib.import_module("generated.docs.search_documents")
    instance = _with(
        BASES["docs.search_documents"], ("author_email",), json.dumps("ada@example.com")
    )
    assert [(e.path, e.code) for e in module.validate(instance).errors] == [
        ("/author_email", "format")
    ]
    assert oracle(module).is_valid(instance)


@pytest.mark.parametrize("text", ["NaN", "Infinity", "-Infinity", "5", "true", "[1]"])
def test_a_strings_type_swaps_are_json_values(text: str) -> None:
    """A string swapped for the value it spells is a JSON value: never Python's NaN or
    infinities, which no JSON text holds (toolshape refuses them as not JSON, jsonschema takes
    them as numbers: a disagreement the mutation made, not the validator)."""
    for swapped in type_swaps(text):
        assert json.loads(json.dumps(swapped, allow_nan=False)) == swapped


def test_multiple_of_is_decimal() -> None:
    """Why numbers under a float multipleOf are steered (float_multiple_disagrees)."""
    from differential_strategies import float_multiple_disagrees

    module = importlib.import_module("generated.billing.transfer_funds")
    for amount in (19.99, 0.07, 0.29):
        assert float_multiple_disagrees(amount, 0.01), amount
        instance = _with(BASES["billing.transfer_funds"], ("amount",), amount)
        assert module.validate(instance).ok and not oracle(module).is_valid(instance), amount
    for amount in (0.01, 250, 1499.5):
        assert not float_multiple_disagrees(amount, 0.01), amount


@pytest.mark.parametrize(
    "char", sorted(UNSAFE_CHARACTERS | {"\n"}), ids=lambda c: f"U+{ord(c):04X}"
)
def test_pattern_semantics_are_ecma(char: str) -> None:
    """Why generated text avoids UNSAFE_CHARACTERS: toolshape keeps ECMA-262's meaning.

    get_weather's city has pattern '\\S': for the characters that Python's and
    ECMA-262's \\s classify differently, toolshape follows ECMA-262 and jsonschema
    (Python's re) says the opposite. send_email's addresses end in `$`: a final newline
    is refused by toolshape (ECMA-262 `$` is the very end) and accepted by jsonschema.
    CR, U+2028 and U+2029 differ only under `.`, which no example contract uses bare;
    they are excluded for any future contract that does."""
    weather = importlib.import_module("generated.get_weather")
    instance = {"city": char, "unit": "c"}
    ecma_matches = char not in ECMA_WHITESPACE  # \S: one character that is not whitespace
    assert weather.validate(instance).ok is ecma_matches
    if char in WHITESPACE_DISAGREEMENT:
        assert oracle(weather).is_valid(instance) is not ecma_matches
    email = importlib.import_module("generated.send_email")
    instance = _with(BASES["send_email"], ("to",), ["ada@example.com" + char])
    assert email.validate(instance).ok is ecma_matches  # ...[^@\s]+$ takes one more non-space
    if char in WHITESPACE_DISAGREEMENT:
        assert oracle(email).is_valid(instance) is not ecma_matches
    if char == "\n":
        assert oracle(email).is_valid(instance)  # Python's `$` matches before a final "\n"


#: Edge values of the formats the contracts use: each must get the same verdict from
#: both (none of them is a known difference).
FORMAT_EDGES = (
    [
        ("comments.post_comment", ("attachments", 0, "url"), url)
        for url in (
            "http://h/a#b#c",  # a second "#": RFC 3986's fragment has none (toolshape accepted it, fixed)
            "http://h/a##",
            "a:b#c#d",
            "http://a@b@c/",
            "http://h/?a#b?c",
            "http://[::1]:8/#a?b",
            "http://[::1]/x[",
            "http://[v1.fe]/",  # an RFC 3986 IPvFuture literal (toolshape refused it, fixed)
            "http://[v1f.a:b]:80/",
            "http://[v1.]/",
            "http://[vg.a]/",
            "http://h:x/",
            "http://h/a%2",
            "http://h/%41",
            "urn:isbn:0451450523",
            "http:",
        )
    ]
    + [
        ("net.allow_ip", ("address",), address)
        for address in (
            "0.0.0.0",
            "::",
            "1.2.3.04",
            "256.1.1.1",
            "::ffff:1.2.3.4",
            "fe80::1%eth0",
            "1::2::3",
            "1.2.3.4 ",
        )
    ]
    + [
        ("net.allow_ip", ("ttl",), ttl)
        for ttl in (
            "P",
            "PT",
            "P1W2D",
            "P0D",
            "PT0S",
            "p1d",
            "P1DT",
            "P1M",
            "PT1M",
            "P1Y2M3DT4H5M6S",
        )
    ]
    + [
        ("net.allow_ip", ("service_host",), host)
        for host in (
            "-a.com",
            "a-.com",
            "a" * 63 + ".com",
            "a" * 64 + ".com",
            "a..b",
            "a_b.com",
            "123",
            "",
        )
    ]
    + [
        ("net.allow_ip", ("daily_window", "start"), time)
        for time in (
            "23:59:59Z",
            "24:00:00Z",
            "12:00:00",
            "12:00:00+24:00",
            "12:00:00.Z",
            "1:00:00Z",
            "12:00:00-00:00",
        )
    ]
    + [
        ("docs.search_documents", ("created_from",), date)
        for date in (
            "2023-02-29",
            "2024-02-29",
            "2024-13-01",
            "2024-1-01",
            "1900-02-29",
            "2000-02-29",
        )
    ]
    + [
        ("comments.post_comment", ("thread_id",), uuid)
        for uuid in (
            "00000000-0000-0000-0000-00000000000g",
            "00000000000000000000000000000000",
            "{00000000-0000-0000-0000-000000000000}",
        )
    ]
)


@pytest.mark.parametrize(
    "name, path, value", FORMAT_EDGES, ids=[f"{row[0]}:{row[2]!r}" for row in FORMAT_EDGES]
)
def test_format_edges_agree(name: str, path: tuple[Any, ...], value: Any) -> None:
    agree(
        importlib.import_module("generated." + name), _with(BASES[name], path, value), repr(value)
    )


# -- The test can fail: broken copies of generated modules ------------------------------

MUTANTS = [
    # (module, text in the generated source, replacement, kind of variant, what breaks)
    (
        "get_weather",
        "if len(value) > declared:",
        "if len(value) > declared + 1:",
        "unknown_key",
        "one unknown key next to the declared ones goes unnoticed",
    ),
    (
        "get_weather",
        '("", _key(key))',
        '"/" + key',
        "unknown_key",
        "an unknown key's error path is written unescaped (a/b~c): the path is not in the instance",
    ),
    (
        "get_weather",
        "if len(city) < 1:",
        "if len(city) < 2:",
        None,
        "a one-character city is refused",
    ),
    (
        "web_search",
        "type(max_results) is int or (",
        "isinstance(max_results, int) or (",
        "type_swap",
        "true counts as an integer",
    ),
    (
        "web_search",
        "type(max_results) is float and max_results.is_integer()",
        "False",
        "type_swap",
        "1.0 is not counted as an integer",
    ),
]


@pytest.mark.parametrize("name, old, new, kind, what", MUTANTS, ids=[row[4] for row in MUTANTS])
def test_a_broken_module_is_caught(
    name: str, old: str, new: str, kind: str | None, what: str
) -> None:
    source = (ROOT / "generated" / f"{name}.py").read_text(encoding="utf-8")
    assert source.count(old) == 1, f"the generated code changed shape: update this mutant ({old!r})"
    # In memory, beside the built-in runtime (its `from ._runtime import` finds it there).
    mutant = runtime.load_module(source.replace(old, new), f"mutant_{name}_{abs(hash(old))}.py")
    with pytest.raises(AssertionError):
        run_differential(mutant, kind, shrink=False)


#: Broken result checks (contract, the code as generated, the broken code, the kind of
#: variant that must catch it, what it breaks): the result's differential is no weaker.
RESULT_MUTANTS = [
    (
        "web_search",
        'errors.append(\n                                Error(\n                                    ("/results", i, "url"),\n                                    "required"',
        '[].append(\n                                Error(\n                                    ("/results", i, "url"),\n                                    "required"',
        "drop_key",
        "a result item's required url is not required",
    ),
    (
        "accounts/create_login",
        "if len(token) < 32:",
        "if len(token) < 31:",
        "bound_cross",
        "the session token's minLength is one short",
    ),
    (
        "web_search",
        "if type(total_estimate) is int or (",
        "if type(total_estimate) in (int, bool) or (",
        "type_swap",
        "true passes as the integer total_estimate",
    ),
]


@pytest.mark.parametrize(
    "name, old, new, kind, what", RESULT_MUTANTS, ids=[row[4] for row in RESULT_MUTANTS]
)
def test_a_broken_result_check_is_caught(
    name: str, old: str, new: str, kind: str, what: str
) -> None:
    source = (ROOT / "generated" / f"{name}.py").read_text(encoding="utf-8")
    result_part = source[source.index("def validate_result") :]
    assert result_part.count(old) == 1, f"the generated code changed shape: update ({old!r})"
    broken = source.replace(result_part, result_part.replace(old, new))
    # Loaded beside the built-in runtime, as a top-level module: its runtime is "._runtime".
    broken = broken.replace("from .._runtime import", "from ._runtime import")
    label = f"mutant_{name.replace('/', '_')}_{abs(hash(old))}.py"
    mutant = runtime.load_module(broken, label)
    with pytest.raises(AssertionError):
        run_differential(_ResultSide(mutant), kind, shrink=False)
