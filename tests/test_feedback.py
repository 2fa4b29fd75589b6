"""Feedback the model acts on (issue 14): did-you-mean hints, parse messages of our own,
hints for JSON held in strings and for wrapped arguments, null and $ref wording.

The corpus (``tests/feedback_corpus/cases.json``) holds broken argument texts of the kinds
models produce, each with the words its feedback must (and must not) contain; it runs
against modules generated from its contracts, in this process and under every supported
CPython, which must all say the same. The README's examples are checked against the real
output of the generated package.
"""

from __future__ import annotations

import functools
import inspect
import json
import re
import subprocess
import types
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from support import CONTEXT, ROOT, build_module
from test_generated_code import find_python
from toolshape.project import pipeline
from toolshape.project.runtime import load_module, runtime_module, runtime_source

CORPUS = ROOT / "tests" / "feedback_corpus" / "cases.json"
CASES: list[dict[str, Any]] = json.loads(CORPUS.read_text(encoding="utf-8"))["cases"]
#: Words of json's own messages, which differ between Python versions: never shown.
JSON_WORDS = ("Expecting", "delimiter", "Extra data", "char ", "Unterminated", "Illegal")
PYTHONS = ("3.9", "3.10", "3.11", "3.12", "3.13")


@functools.cache
def generated(contract: str) -> pipeline.ModuleOnly:
    """The module generated (in memory) from a contract of the repository."""
    path = ROOT / contract
    return pipeline.generate_module(path.read_bytes(), contract, PurePosixPath(path.name), CONTEXT)


def module_of(contract: str) -> types.ModuleType:
    return generated(contract).module


def runtime() -> types.ModuleType:
    return runtime_module()


# -- the corpus ---------------------------------------------------------------------------


def test_the_corpus_is_large_and_covers_issue_14() -> None:
    assert len(CASES) >= 40
    names = " | ".join(case["name"] for case in CASES).lower()
    for kind in [
        "leading zero",
        "decimal without its leading 0",
        "decimal point with nothing after it",
        "stray ]",
        "stray }",
        "unquoted key",
        "single-quoted",
        "trailing comma",
        "nan",
        "infinity",
        "comment",
        "1e400",
        "cut off",
        "lables",
        "assignee",
        "(label)",
        "enum member",
        "x-sensitive",
        "json string",
        "wrapped",
        "null for a tool with a required key",
        "$ref",
    ]:
        assert kind in names, f"the corpus has no case for {kind!r}"
    for case in CASES:
        assert case["feedback"], f"{case['name']}: no words to look for"


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_corpus(case: dict[str, Any]) -> None:
    result = module_of(case["contract"]).parse(case["text"])
    feedback = result.feedback()
    assert result.status == case["status"], feedback
    assert case["code"] in {error.code for error in result.errors}, feedback
    missing = [word for word in case["feedback"] if word not in feedback]
    assert not missing, f"feedback lacks {missing}:\n{feedback}"
    present = [word for word in case.get("absent", []) if word in feedback]
    assert not present, f"feedback holds {present}:\n{feedback}"
    if result.status == "parse_error":
        leaked = [word for word in JSON_WORDS if word in feedback]
        assert not leaked, f"json's own words {leaked}:\n{feedback}"


def test_positions_lead_parse_messages_and_never_follow_a_hint() -> None:
    """ "at line L, column C: <sentence>", the same for every parse error that has a place."""
    for case in CASES:
        result = module_of(case["contract"]).parse(case["text"])
        if result.status != "parse_error" or "line" not in result.errors[0].message:
            continue
        message = result.errors[0].message
        assert re.fullmatch(r"at line \d+, column \d+: [^:]+", message), message
        assert f"could not be read as JSON {message}. " in result.feedback(), result.feedback()


PROBE = """
import json, sys
sys.path.insert(0, sys.argv[1])
import corpus
cases = json.loads(sys.stdin.read())
print(json.dumps([getattr(corpus, case["module"]).parse(case["text"]).feedback() for case in cases]))
"""


@pytest.mark.parametrize("version", PYTHONS)
def test_feedback_is_the_same_on_every_python(version: str, tmp_path: Path) -> None:
    """json's messages differ between versions; the runtime's own must not."""
    found = find_python(version)
    if found is None:
        pytest.skip(f"CPython {version} not found")
    package = tmp_path / "corpus"
    package.mkdir()
    (package / "_runtime.py").write_text(runtime_source(CONTEXT), encoding="utf-8")
    modules = {}
    for contract in sorted({case["contract"] for case in CASES}):
        name = Path(contract).stem
        modules[contract] = name
        (package / f"{name}.py").write_text(generated(contract).source, encoding="utf-8")
    imports = "".join(f"from . import {name}\n" for name in sorted(modules.values()))
    (package / "__init__.py").write_text(imports, encoding="utf-8")
    cases = [{"module": modules[c["contract"]], "text": c["text"]} for c in CASES]
    ran = subprocess.run(
        [found[0], "-c", PROBE, str(tmp_path)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr
    here = [module_of(c["contract"]).parse(c["text"]).feedback() for c in CASES]
    assert json.loads(ran.stdout) == here


# -- the README ---------------------------------------------------------------------------


def readme_examples() -> list[tuple[str, str, str]]:
    """(tool, text, feedback) of each example under the README's "What the model reads"."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.findall(
        r"<!-- feedback example: (\S+) -->\n```text\n(.*?)\n```\n\n```text\n(.*?)\n```",
        readme,
        re.S,
    )
    return [(tool, text, feedback) for tool, text, feedback in found]


def test_the_readme_shows_three_real_examples() -> None:
    import generated as package

    examples = readme_examples()
    assert len(examples) >= 3
    for tool, text, feedback in examples:
        assert package.validate_call(tool, text).feedback() == feedback


# -- did you mean -------------------------------------------------------------------------

KEYS = frozenset(["title", "body", "labels", "assignees", "milestone", "start_date", "start_time"])


@pytest.mark.parametrize(
    ("value", "hint"),
    [
        ("Title", '; did you mean "title"?'),  # case
        ("START-DATE", '; did you mean "start_date"?'),  # case, - for _
        ("lables", '; did you mean "labels"?'),  # a swap of neighbours
        ("labelz", '; did you mean "labels"?'),  # a replacement
        ("assignee", '; did you mean "assignees"?'),  # an insertion
        ("milestones", '; did you mean "milestone"?'),  # a deletion
        ("asignes", '; did you mean "assignees"?'),  # two edits in a long word
        ("label", '; did you mean "labels"?'),  # a prefix, one edit
        ("assign", '; did you mean "assignees"?'),  # a prefix, three edits
        ("start", '; did you mean "start_date" or "start_time"?'),  # a prefix of two
        ("xyz", ""),
        ("bdy", '; did you mean "body"?'),
        ("ab", ""),  # too short to guess from
        ("completely_unrelated", ""),
        (42, ""),
    ],
)
def test_did_you_mean(value: object, hint: str) -> None:
    assert runtime()._did_you_mean(value, KEYS) == hint


def test_did_you_mean_prefers_the_closest_and_is_deterministic() -> None:
    did_you_mean = runtime()._did_you_mean
    keys = frozenset(["lables_extra", "labels", "label_set"])
    # "labels" is one edit (a swap) away; "lables_extra" only has "lables" as its prefix.
    assert did_you_mean("lables", keys) == '; did you mean "labels"?'
    # An exact match but for case beats any edit.
    assert did_you_mean("LABELS", frozenset(["labels", "labelz"])) == '; did you mean "labels"?'
    # Ties are named in sorted order, at most three.
    many = frozenset(["cat", "bat", "hat", "mat", "rat"])
    assert did_you_mean("xat", many) == '; did you mean "bat" or "cat" or "hat"?'


@pytest.mark.parametrize(
    ("name", "hint"),
    [
        ("transfer_fund", '; did you mean "transfer_funds"?'),  # a deletion
        ("Get-Weather", '; did you mean "get_weather"?'),  # case, - for _
        ("websearch", '; did you mean "web_search"?'),  # _ left out
        ("send_emial", '; did you mean "send_email"?'),  # a swap of neighbours
        ("create", '; did you mean "create_event" or "create_login"?'),  # a prefix of two
        ("delete_everything", ""),  # nothing near: no guess
        ("x" * 300, ""),  # too long to be a misspelling
    ],
)
def test_an_unknown_tool_gets_the_nearest_tool_names(name: str, hint: str) -> None:
    """The gate's refusal of an unknown tool names the nearest tools, in its error and its
    feedback, as an unknown key gets the nearest keys."""
    import generated as package

    result = package.validate_call(name, {})
    shown = json.dumps(name[:64])
    assert result.errors[0].code == "unknown_tool"
    assert result.errors[0].message == f"there is no tool named {shown}{hint}"
    tools = ", ".join(sorted(package.TOOLS))
    assert result.feedback() == f"There is no tool named {shown}{hint}. The tools are: {tools}."


def test_did_you_mean_stays_cheap_on_huge_sets() -> None:
    """Work is bounded by count (no timing): a value far from every member finds nothing."""
    members = frozenset(f"member_{i:05d}" for i in range(20000))
    assert runtime()._did_you_mean("zzzzzzzzzzzz", members) == ""
    assert runtime()._did_you_mean("x" * 5000, members) == ""


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ("", "", 0),
        ("abc", "abc", 0),
        ("ab", "ba", 1),
        ("abc", "acb", 1),
        ("kitten", "sitting", 3),
        ("lables", "labels", 1),
        ("ca", "abc", 3),  # optimal string alignment: no edit of a swapped pair
    ],
)
def test_edit_distance(a: str, b: str, distance: int) -> None:
    limit = 2
    assert runtime()._edit_distance(a, b, limit) == min(distance, limit + 1)
    assert runtime()._edit_distance(b, a, limit) == min(distance, limit + 1)


def test_the_hint_ends_the_sentence_and_survives_shortening() -> None:
    issue = module_of("tests/feedback_corpus/create_issue.yaml")
    message = issue.validate({"title": "x", "Title": "y"}).errors[0].message
    assert message.startswith('unknown key "Title" is not allowed in the arguments; allowed keys:')
    assert message.endswith('; did you mean "title"?')
    long_message = "x" * 400 + '; did you mean "title"?'
    brief = runtime()._brief(long_message)
    assert brief.endswith('...[shortened]; did you mean "title"?')
    assert len(brief) <= 200 + len("...[shortened]")


def test_no_hint_for_sensitive_values() -> None:
    plan = module_of("tests/feedback_corpus/choose_plan.yaml")
    for sent in ["busines", "Business", "enterprise", "starter ", "BUSINESS"]:
        result = plan.validate({"account": "acme", "plan": sent})
        shown = result.feedback() + repr(result) + json.dumps(result.log_record())
        for word in ["did you mean", "business", "starter", "enterprise_gold", sent]:
            assert word not in shown, (sent, word, shown)


# -- parse messages -----------------------------------------------------------------------


def diagnosis(text: str) -> tuple[str, str] | None:
    bad = runtime()._diagnose(text)
    return None if bad is None else (bad.code, bad.sentence)


def test_diagnose_agrees_with_the_decoder() -> None:
    """_diagnose finds a problem exactly when the strict decoder refuses: on many mutations
    of valid texts, each one character changed, added or removed."""
    rt = runtime()
    seeds = [
        '{"a": [1, -2.5e3, "x\\"y\\u00e9", true, false, null, {}], "b": {"c": 0.0}}',
        '[{"k": "v"}, [], [[0]], -0, 1E+2, "\\\\"]',
        ' {\n\t"key" : "value" ,\r\n "n": 12 } ',
    ]
    alphabet = "{}[],:\"\\ .-+0159eEtfnuxNIa/*#\n'`"
    checked = 0
    for seed in seeds:
        variants = {seed}
        for i in range(len(seed) + 1):
            for char in alphabet:
                variants.add(seed[:i] + char + seed[i + 1 :])
                variants.add(seed[:i] + char + seed[i:])
            variants.add(seed[:i] + seed[i + 1 :])
            variants.add(seed[:i])
        for text in sorted(variants):
            if not text.strip():
                continue
            try:
                rt._strict_json(text)
                refused = False
            except rt._ParseFailure as failure:
                if failure.code == "duplicate_key":
                    continue  # the decoder's own finding: _refusal does not ask _diagnose
                refused = True
            except ValueError:
                refused = True
            bad = rt._diagnose(text)
            assert (bad is not None) == refused, (text, bad and bad.sentence)
            checked += 1
    assert checked > 5000


@pytest.mark.parametrize(
    ("text", "code", "words"),
    [
        ('{"a": 05}', "syntax", "leading zero"),
        ('{"a": -0.5e-3, "b": 0}', None, ""),
        ('{"a": 1.5.2}', "syntax", "two decimal points"),
        ('{"a": 1e400}', "too_large", "too large to represent"),
        ('{"a": 1' + "0" * 5000 + "}", "too_large", "more than 4300 digits"),
        ('{"a": "\\u12"}', "syntax", "four hexadecimal digits"),
        ('{"a": "\\u12', "truncated", "inside a string"),
        ('{"a": "x\\', "truncated", "inside a string"),
        ('{"a": -', "truncated", "inside a number"),
        ('{"a": 1.', "truncated", "inside a number"),
        ('{"a": 1e+', "truncated", "inside a number"),
        ('{"a": -x}', "syntax", "minus sign"),
        ('{"a" 1}', "syntax", "no colon"),
        ('{"a": 1 :', "syntax", "missing comma"),
        ('["a": 1]', "syntax", "colon inside an array"),
        ('{"a": [1, 2}', "syntax", "a } where ] should close the array"),
        ('{"a": 1, ]', "syntax", "] inside an object"),
        ('{"a": 1,', "truncated", "inside an object"),
        ('{"a": tr', "truncated", "true, false or null"),
        ('{"a": truth}', "syntax", "without quotes"),
        ("{,}", "syntax", "where a key in double quotes should be"),
        ("[,]", "syntax", "cannot start a JSON value"),
        ("`{}`", "syntax", "backtick"),
        ('{"a": 1} extra', "syntax", "more than one JSON value"),
        ('{"a": 1},{"b": 2}', "syntax", "more than one JSON value"),
    ],
)
def test_diagnose(text: str, code: str | None, words: str) -> None:
    found = diagnosis(text)
    if code is None:
        assert found is None
    else:
        assert found is not None and found[0] == code and words in found[1], found


def test_duplicate_keys_keep_their_message() -> None:
    weather = module_of("contracts/get_weather.yaml")
    result = weather.parse('{"city": "Paris", "unit": "c", "city": "Rome"}')
    assert (result.errors[0].code, result.errors[0].message) == (
        "duplicate_key",
        'the key "city" appears twice in one object',
    )


def test_a_too_large_number_is_not_told_to_send_shorter_arguments() -> None:
    weather = module_of("contracts/get_weather.yaml")
    number = weather.parse('{"city": "Paris", "unit": "c", "x": 1e400}').feedback()
    assert "shorter" not in number and "1.8e308" in number
    text = weather.parse("[" + "0," * 600_000 + "0]").feedback()
    assert "Send shorter arguments." in text


def test_parse_messages_never_quote_a_value() -> None:
    """Values may be secret: a parse message names keys and punctuation, not values."""
    weather = module_of("contracts/get_weather.yaml")
    secret = "hunter2secret"
    for text in [
        f'{{"city": {secret}}}',
        f"{{'city': '{secret}'}}",
        f'{{"city": "{secret}" "unit": "c"}}',
        f'{{"city": "{secret}\n"}}',
        f'{{"city": "{secret}',
        f'{{"city": "{secret}"}} {secret}',
    ]:
        result = weather.parse(text)
        assert result.status == "parse_error"
        assert secret not in result.feedback() + json.dumps(result.log_record()), text


# -- hints on the contract layer ----------------------------------------------------------


def test_a_string_holding_json_gets_a_hint_only_where_a_structure_is_wanted() -> None:
    issue = module_of("tests/feedback_corpus/create_issue.yaml")
    wanted = issue.validate({"title": "x", "labels": '["bug"]'}).errors[0].message
    assert wanted.endswith(
        "got a string holding a JSON array (send the array itself, not a string holding JSON)"
    )
    # Where a number is wanted, the JSON-looking string gets no structure hint.
    number = issue.validate({"title": "x", "milestone": "[1]"}).errors[0].message
    assert number == '"milestone" must be an integer, got a string'


def test_a_null_is_worded_by_whether_its_key_is_required() -> None:
    """A required key sent as null cannot be fixed by leaving it out: the hint says to send a
    value. An optional key's null keeps the leave-it-out hint; so does a required key whose
    value is an object or array (the _got_json path) where the hint must not be lost."""
    issue = module_of("tests/feedback_corpus/create_issue.yaml")
    required = issue.validate({"title": None}).errors[0].message
    assert required.startswith('"title" must be a string, got null')
    assert "leave it out" not in required
    assert "the key is required: send it with a value of the right type" in required
    optional = issue.validate({"title": "x", "body": None}).errors[0].message
    assert "leave it out instead of sending null" in optional
    assert "required" not in optional
    nested = issue.validate({"title": "x", "reviewer": {"login": None}}).errors[0].message
    assert "the key is required" in nested and "leave it out" not in nested
    structure = issue.validate({"title": "x", "labels": None}).errors[0].message
    assert "leave it out instead of sending null" in structure


#: Required and optional keys whose schema is a definition (through ``allOf`` or a second
#: ``$ref`` too), and a definition only an optional key uses.
REFERRED = {
    "type": "object",
    "properties": {
        "amount": {"$ref": "#/$defs/money"},
        "tip": {"$ref": "#/$defs/money"},
        "note": {"allOf": [{"$ref": "#/$defs/alias"}]},
        "memo": {"$ref": "#/$defs/text"},
    },
    "required": ["amount", "note"],
    "$defs": {
        "money": {
            "type": "object",
            "properties": {"units": {"type": "integer"}},
            "required": ["units"],
        },
        "alias": {"$ref": "#/$defs/words"},
        "words": {"type": "string"},
        "text": {"type": "string"},
    },
}


def test_a_null_through_a_definition_is_worded_by_whether_its_key_is_required() -> None:
    """A definition's function does not know the key its value came under: its caller says
    whether that key is required, through ``allOf`` and a chain of references too; a
    definition that no required key uses takes no such parameter."""
    pay = build_module(REFERRED)
    valid = {"amount": {"units": 1}, "note": "n"}
    for key in ("amount", "note"):
        message = pay.validate({**valid, key: None}).errors[0].message
        assert "the key is required: send it with a value" in message, (key, message)
        assert "leave it out" not in message
    for key in ("tip", "memo"):
        message = pay.validate({**valid, key: None}).errors[0].message
        assert "leave it out instead of sending null" in message, (key, message)
    inner = pay.validate({**valid, "amount": {"units": None}}).errors[0].message
    assert "the key is required" in inner
    told = {
        name: "key_required" in inspect.signature(function).parameters
        for name, function in vars(pay).items()
        if name.startswith("_check_")
    }
    # A required key inside a prefix position (the model holds it in an (index, node) pair):
    # its call says key_required=True, so its function must take the flag.
    row = build_module(
        {
            "type": "object",
            "properties": {"row": {"type": "array", "prefixItems": [REFERRED]}},
            "$defs": REFERRED["$defs"],
        }
    )
    assert row.validate({"row": [valid]}).ok
    message = row.validate({"row": [{**valid, "amount": None}]}).errors[0].message
    assert "the key is required: send it with a value" in message
    assert told == {
        "_check_money": True,
        "_check_alias": True,
        "_check_words": True,
        "_check_text": False,
    }


def test_the_unwrap_hint_needs_a_better_fit_inside() -> None:
    issue = module_of("tests/feedback_corpus/create_issue.yaml")
    hint = "wrapped in"
    assert hint in issue.validate({"arguments": {"title": "x"}}).feedback()
    assert hint in issue.validate({"params": {"title": "x", "body": "y"}}).feedback()
    # The inner object holds no more declared keys than the arguments themselves.
    assert hint not in issue.validate({"title": "x", "input": {"body": "y"}}).feedback()
    # Not an object inside, or not a wrapper name.
    assert hint not in issue.validate({"arguments": '{"title": "x"}'}).feedback()
    assert hint not in issue.validate({"payload": {"title": "x"}}).feedback()


def test_a_declared_key_is_never_called_a_wrapper() -> None:
    rt = runtime()

    class Declared(rt.Result):  # type: ignore[name-defined,misc]
        __slots__ = ()
        tool = "t"
        keys = frozenset(["input", "title"])

    result = Declared("reject", {"input": {"title": "x"}}, (rt.Error("", "type", "x"),))
    assert "wrapped" not in result.feedback()


def test_null_names_the_required_keys() -> None:
    issue = module_of("tests/feedback_corpus/create_issue.yaml")
    listing = module_of("tests/feedback_corpus/list_files.yaml")
    assert issue.validate(None).errors[0].message == (
        'the arguments must be a JSON object, not null; the required keys are "title"'
    )
    assert "send {} for no arguments" in listing.validate(None).errors[0].message


def test_a_property_reached_through_ref_is_called_by_its_name() -> None:
    issue = module_of("tests/feedback_corpus/create_issue.yaml")
    result = issue.validate(
        {"title": "x", "due": "soon", "start_date": 5, "reviewer": {"login": ""}}
    )
    messages = sorted(error.message for error in result.errors)
    assert messages == [
        '"due" must match the pattern ^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
        '"login" must be at least 1 character long',
        '"start_date" must be a string, got an integer',
    ]
    assert "the value" not in result.feedback()


def test_a_recursive_ref_is_called_by_each_callers_name() -> None:
    comments = module_of("contracts/comments/post_comment.yaml")
    result = comments.validate({"comment": {"author": "ann", "body": "x", "replies": [5]}})
    assert [e.message for e in result.errors] == [
        'each item of "replies" must be an object, got an integer'
    ]


def test_a_property_named_like_a_parameter_of_the_ref_functions_keeps_its_own_name() -> None:
    """A $ref function takes ``label`` and ``integral``: properties so named (JSONSchemaBench's
    Washington Post image schema has a ``label``) get other local names, and an unknown key
    next to them is still reported as one (it raised inside the function, read as unreadable)."""
    raw = b"""\
name: clash
description: d
parameters:
  type: object
  properties:
    image: {$ref: '#/$defs/image'}
  $defs:
    image:
      type: object
      properties:
        label: {type: object}
        integral: {type: integer}
        errors: {type: string}
        path: {type: string}
      additionalProperties: false
"""
    done = pipeline.generate(raw, "clash.yaml", PurePosixPath("clash.yaml"), CONTEXT)
    module = load_module(done.module_source, "clash")
    result = module.validate({"image": {"label": {}, "integral": 2.0, "other": 1}})
    assert [(e.path, e.code) for e in result.errors] == [("/image/other", "additionalProperties")]
    assert module.validate({"image": {"label": {}, "integral": 2.0}}).value == {
        "image": {"label": {}, "integral": 2}
    }


def test_a_union_inside_a_ref_target_names_the_value_as_its_caller_does() -> None:
    """The branch functions of an anyOf/oneOf (and the not/if conditions) at a $ref target's
    root take the target's label: their messages name the property, never "the value"."""
    raw = b"""\
name: reach
description: d
parameters:
  type: object
  properties:
    contact: {$ref: '#/$defs/handle'}
    backup: {$ref: '#/$defs/handle'}
    kind: {$ref: '#/$defs/kind'}
  $defs:
    handle:
      anyOf:
        - {type: string, minLength: 5}
        - {type: integer, minimum: 100}
    kind:
      oneOf:
        - {const: phone}
        - {const: mail}
      not: {const: fax}
      if: {const: phone}
      then: {minLength: 5}
"""
    done = pipeline.generate(raw, "reach.yaml", PurePosixPath("reach.yaml"), CONTEXT)
    module = load_module(done.module_source, "reach")
    result = module.validate({"contact": "abc", "backup": 7, "kind": "fax"})
    messages = {e.path: e.message for e in result.errors}
    assert set(messages) == {"/contact", "/backup", "/kind"}, messages
    assert messages["/contact"].startswith('"contact" must match at least one of 2 alternatives')
    assert '"contact" must be at least 5 characters long' in messages["/contact"]
    assert '"backup" must be a string, got an integer' in messages["/backup"]
    assert not any("the value" in m for m in messages.values()), messages
    assert module.validate({"contact": 150, "kind": "phone"}).ok
