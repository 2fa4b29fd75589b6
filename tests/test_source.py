"""Tests for toolshape.contract.source: YAML in, JSON-compatible data and positions out."""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

import pytest
from toolshape.contract.errors import ContractError, Problem
from toolshape.contract.source import MAX_CONTRACT_BYTES, Document, load, load_file

FILE = "contracts/get_weather.yaml"


def problems_of(text: str | bytes) -> list[Problem]:
    """The problems load() reports for `text` (which must be refused)."""
    raw = text.encode("utf-8") if isinstance(text, str) else text
    with pytest.raises(ContractError) as caught:
        load(raw, FILE)
    assert caught.value.problems, "a ContractError must carry problems"
    return caught.value.problems


def only_problem(text: str | bytes) -> Problem:
    """The single problem load() reports for `text`."""
    problems = problems_of(text)
    assert len(problems) == 1, problems
    return problems[0]


def data_of(text: str) -> Any:
    """The data load() reads from `text` (which must be accepted): decoded JSON."""
    return load(text.encode("utf-8"), FILE).data


# A realistic contract; the line numbers in the tests below refer to it.
CONTRACT = textwrap.dedent("""\
    # Weather lookup
    name: get_weather
    description: >
      Look up the current weather
      for one city.
    parameters:
      type: object
      properties:
        city:
          type: string
          minLength: 1
          examples: [杭州, "São Paulo"]
        units: {type: string, enum: [metric, imperial, 'no'], default: metric}
        days:
          type: integer
          minimum: 1
          maximum: 1e1
      required:
        - city
        - days
    notes: |
      Line one.
      Line two.
    strict: true
    retries: ~
    """)


@pytest.fixture
def contract() -> Document:
    return load(CONTRACT.encode("utf-8"), FILE)


# --- accepted contracts: data -------------------------------------------------------


def test_realistic_contract_data(contract: Document) -> None:
    assert contract.file == FILE
    assert contract.text == CONTRACT
    assert contract.data == {
        "name": "get_weather",
        "description": "Look up the current weather for one city.\n",
        "parameters": {
            "type": "object",
            "properties": {
                "city": {
                    "type": "string",
                    "minLength": 1,
                    "examples": ["杭州", "São Paulo"],
                },
                "units": {
                    "type": "string",
                    "enum": ["metric", "imperial", "no"],
                    "default": "metric",
                },
                "days": {"type": "integer", "minimum": 1, "maximum": 10.0},
            },
            "required": ["city", "days"],
        },
        "notes": "Line one.\nLine two.\n",
        "strict": True,
        "retries": None,
    }


def test_mapping_order_is_kept(contract: Document) -> None:
    data: Any = contract.data
    assert list(data) == [
        "name",
        "description",
        "parameters",
        "notes",
        "strict",
        "retries",
    ]
    units = data["parameters"]["properties"]["units"]
    assert list(units) == ["type", "enum", "default"]


def test_numbers_keep_their_python_type(contract: Document) -> None:
    data: Any = contract.data
    days = data["parameters"]["properties"]["days"]
    assert type(days["minimum"]) is int
    assert type(days["maximum"]) is float
    assert type(data["strict"]) is bool


def test_utf8_bom_is_stripped() -> None:
    document = load(b"\xef\xbb\xbfname: x\n", FILE)
    assert document.data == {"name": "x"}
    assert document.text == "name: x\n"
    assert document.value_at(("name",)) == (1, 7)


def test_windows_line_endings() -> None:
    document = load(b"a: 1\r\nb:\r\n  c: x\r\n", FILE)
    assert document.data == {"a": 1, "b": {"c": "x"}}
    assert document.value_at(("b", "c")) == (3, 6)


# --- accepted contracts: positions -----------------------------------------------------


def test_value_and_key_positions_in_block_mappings(contract: Document) -> None:
    path = ("parameters", "properties", "city", "minLength")
    assert contract.value_at(path) == (11, 18)
    assert contract.key_at(path) == (11, 7)
    assert contract.key_at(("name",)) == (2, 1)
    assert contract.value_at(("name",)) == (2, 7)


def test_positions_in_flow_style(contract: Document) -> None:
    units = ("parameters", "properties", "units")
    assert contract.value_at(units) == (13, 12)  # the "{"
    assert contract.key_at((*units, "enum")) == (13, 27)
    assert contract.value_at((*units, "enum")) == (13, 33)
    assert contract.value_at((*units, "enum", 2)) == (13, 52)  # 'no' (at the quote)
    # Columns count characters (杭州 is two), not bytes or display width.
    assert contract.value_at(("parameters", "properties", "city", "examples", 1)) == (
        12,
        22,
    )


def test_positions_in_block_lists_and_scalars(contract: Document) -> None:
    assert contract.value_at(("parameters", "required", 0)) == (19, 7)
    assert contract.value_at(("parameters", "required", 1)) == (20, 7)
    assert contract.value_at(("notes",)) == (21, 8)  # the "|"
    assert contract.value_at(("retries",)) == (25, 10)


def test_root_position(contract: Document) -> None:
    assert contract.value_at(()) == (2, 1)
    assert contract.key_at(()) == (2, 1)


def test_value_at_missing_path_gives_deepest_existing_ancestor(
    contract: Document,
) -> None:
    city = ("parameters", "properties", "city")
    assert contract.value_at((*city, "maxLength")) == contract.value_at(city) == (10, 7)
    assert contract.value_at((*city, "examples", 7, "x")) == (12, 17)
    assert contract.value_at(("nope", "deeper")) == (2, 1)


def test_key_at_falls_back_to_value_at(contract: Document) -> None:
    required = ("parameters", "required", 1)
    assert contract.key_at(required) == contract.value_at(required) == (20, 7)
    assert contract.key_at(("parameters", "missing")) == (7, 3)


def test_problem_points_at_value_or_key(contract: Document) -> None:
    path = ("parameters", "properties", "days", "maximum")
    assert contract.problem(path, "too big") == Problem(FILE, 17, 16, "too big")
    assert contract.problem(path, "bad key", at_key=True) == Problem(FILE, 17, 7, "bad key")
    assert str(contract.problem(path, "too big")) == f"{FILE}:17:16: error: too big"


# --- 1. not UTF-8 --------------------------------------------------------------------------


def test_not_utf8_reports_first_bad_byte() -> None:
    problem = only_problem("a: 杭州\n".encode() + b"b: x\xffy\xfe\n")
    assert (problem.file, problem.line, problem.col) == (FILE, 2, 5)
    assert "not valid UTF-8" in problem.message
    assert "0xff" in problem.message


def test_utf16_is_not_utf8() -> None:
    problem = only_problem("a: 1\n".encode("utf-16"))
    assert (problem.line, problem.col) == (1, 1)
    assert "not valid UTF-8" in problem.message


# --- 2. size limit ------------------------------------------------------------------------


def test_too_large_bytes_are_refused() -> None:
    size = MAX_CONTRACT_BYTES + 1
    problem = only_problem(b"#" * size)
    assert (problem.line, problem.col) == (1, 1)
    assert f"contract file is {size} bytes; the limit is {MAX_CONTRACT_BYTES}" in problem.message


def test_exactly_the_limit_is_accepted() -> None:
    head = b"a: 1\n#"
    document = load(head + b"x" * (MAX_CONTRACT_BYTES - len(head)), FILE)
    assert document.data == {"a": 1}


def test_load_file_checks_the_size_first(tmp_path: Path) -> None:
    path = tmp_path / "big.yaml"
    with open(path, "wb") as stream:
        stream.truncate(50 * MAX_CONTRACT_BYTES)  # sparse: nothing is actually written
    with pytest.raises(ContractError) as caught:
        load_file(path, "big.yaml")
    [problem] = caught.value.problems
    assert (problem.file, problem.line, problem.col) == ("big.yaml", 1, 1)
    assert f"contract file is {50 * MAX_CONTRACT_BYTES} bytes" in problem.message


def test_load_file_reads_a_contract(tmp_path: Path) -> None:
    path = tmp_path / "c.yaml"
    path.write_bytes(CONTRACT.encode("utf-8"))
    document = load_file(path, "contracts/c.yaml")
    assert document.file == "contracts/c.yaml"
    data: Any = document.data
    assert data["name"] == "get_weather"
    assert document.problem(("name",), "x").file == "contracts/c.yaml"


def test_load_file_missing_file(tmp_path: Path) -> None:
    with pytest.raises(ContractError) as caught:
        load_file(tmp_path / "absent.yaml", "absent.yaml")
    [problem] = caught.value.problems
    assert (problem.file, problem.line, problem.col) == ("absent.yaml", 1, 1)
    assert "cannot read" in problem.message


# --- 3. syntax errors, empty files, several documents ---------------------------------------


def test_syntax_error_unclosed_flow_sequence() -> None:
    problem = only_problem("key: [")
    assert (problem.line, problem.col) == (1, 7)
    assert "invalid YAML" in problem.message
    assert "expected the node content" in problem.message


def test_syntax_error_keeps_context() -> None:
    problem = only_problem("a: 1\nb: 'unclosed\n")
    assert (problem.line, problem.col) == (3, 1)
    assert "found unexpected end of stream" in problem.message
    assert "while scanning a quoted scalar at line 2 column 4" in problem.message


def test_tab_indentation() -> None:
    problem = only_problem("parameters:\n\ttype: object\n")
    assert (problem.line, problem.col) == (2, 1)
    assert "tab" in problem.message


@pytest.mark.parametrize("text", ["", "\n\n", "# only\n# comments\n", "---\n", "--- # nothing\n"])
def test_empty_file(text: str) -> None:
    problem = only_problem(text)
    assert (problem.line, problem.col) == (1, 1)
    assert problem.message == "contract file is empty"


def test_more_than_one_document() -> None:
    problem = only_problem("name: a\n---\nname: b\n")
    assert (problem.line, problem.col) == (2, 1)
    assert "more than one YAML document" in problem.message


def test_control_character() -> None:
    problem = only_problem(b"a: 1\nb: x\x00y\n")
    assert (problem.line, problem.col) == (2, 5)
    assert "U+0000" in problem.message


# --- 4. anchors, aliases, merge keys ------------------------------------------------------


def test_anchor_and_alias_are_refused() -> None:
    problems = problems_of("base: &b {type: string}\ncity: *b\n")
    assert [(p.line, p.col) for p in problems] == [(1, 7), (2, 7)]
    for problem in problems:
        assert problem.message == "YAML anchors and aliases are not allowed in contracts"


def test_undefined_alias_is_refused_the_same_way() -> None:
    problem = only_problem("city: *nowhere\n")
    assert (problem.line, problem.col) == (1, 7)
    assert "anchors and aliases are not allowed" in problem.message


def test_merge_key_is_refused() -> None:
    problem = only_problem("city:\n  <<: {type: string}\n  minLength: 1\n")
    assert (problem.line, problem.col) == (2, 3)
    assert "merge keys" in problem.message


def test_billion_laughs_is_refused_unexpanded() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for previous, name in zip("abcdefghi", "bcdefghij", strict=False):
        lines.append(f"{name}: &{name} [{', '.join(['*' + previous] * 9)}]")
    problems = problems_of("\n".join(lines) + "\n")
    assert len(problems) == 10 + 9 * 9  # every anchor and every alias, nothing expanded
    assert {p.message for p in problems} == {
        "YAML anchors and aliases are not allowed in contracts"
    }


# --- 5. duplicate keys --------------------------------------------------------------------


def test_duplicate_key_deep_down() -> None:
    problem = only_problem("parameters:\n  properties:\n    city: {}\n    days: {}\n    city: {}\n")
    assert (problem.line, problem.col) == (5, 5)
    assert "duplicate key 'city'" in problem.message
    assert "line 3" in problem.message


def test_duplicate_key_in_flow_mapping() -> None:
    problem = only_problem("units: {type: string, type: number}\n")
    assert (problem.line, problem.col) == (1, 23)
    assert "duplicate key 'type' (first defined on line 1)" in problem.message


def test_quoted_and_plain_spellings_of_a_key_are_duplicates() -> None:
    problem = only_problem("name: a\n'name': b\n")
    assert (problem.line, problem.col) == (2, 1)
    assert "duplicate key 'name'" in problem.message


# --- 6. keys that are not strings -----------------------------------------------------------


@pytest.mark.parametrize(
    "key", ["1", "true", "null", "1.5", "~", "-3", "yes", "Off", "2024-01-01", "0x1F"]
)
def test_scalar_keys_must_be_strings(key: str) -> None:
    problem = only_problem(f"parameters:\n  {key}: x\n")
    assert (problem.line, problem.col) == (2, 3)
    assert problem.message == f"mapping keys must be strings; write '{key}' in quotes"


def test_quoted_keys_are_strings() -> None:
    assert data_of("'1': a\n\"true\": b\n'yes': c\n") == {
        "1": "a",
        "true": "b",
        "yes": "c",
    }


def test_plain_keys_that_pyyaml_reads_as_strings_are_kept() -> None:
    # As values, n and y are refused (YAML 1.1 booleans); as keys they are common
    # parameter names, and pyyaml reads them as strings.
    assert data_of("n: 1\ny: 2\nN: 3\n1e3: 4\n=: 5\n") == {
        "n": 1,
        "y": 2,
        "N": 3,
        "1e3": 4,
        "=": 5,
    }


def test_empty_key() -> None:
    problem = only_problem("? \n: x\n")
    assert (problem.line, problem.col) == (1, 2)
    assert problem.message == "mapping keys must be strings; this key is empty"


@pytest.mark.parametrize(
    ("text", "kind", "col"),
    [
        ("? [a, b]\n: x\n", "a list", 3),
        ("? {a: b}\n: x\n", "a mapping", 3),
        ("{[a]: x}\n", "a list", 2),
    ],
)
def test_collection_keys_are_refused(text: str, kind: str, col: int) -> None:
    problem = only_problem(text)
    assert (problem.line, problem.col) == (1, col)
    assert problem.message == f"mapping keys must be strings, not {kind}"


# --- 7. YAML 1.1 surprises ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("word", "meant"),
    [
        ("yes", "true"),
        ("Yes", "true"),
        ("YES", "true"),
        ("on", "true"),
        ("ON", "true"),
        ("y", "true"),
        ("Y", "true"),
    ]
    + [
        ("no", "false"),
        ("No", "false"),
        ("NO", "false"),
        ("off", "false"),
        ("Off", "false"),
        ("n", "false"),
    ],
)
def test_yaml11_booleans_are_refused(word: str, meant: str) -> None:
    problem = only_problem(f"strict: {word}\n")
    assert (problem.line, problem.col) == (1, 9)
    assert problem.message == (
        f"'{word}' is read as a boolean by YAML 1.1; quote it ('{word}') if you mean the string, or write {meant}"
    )


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("true", True),
        ("True", True),
        ("TRUE", True),
        ("false", False),
        ("False", False),
    ],
)
def test_true_and_false_are_booleans(word: str, value: bool) -> None:
    assert data_of(f"strict: {word}\n") == {"strict": value}


@pytest.mark.parametrize(
    "text", ["2024-01-01", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5"]
)
def test_dates_are_refused(text: str) -> None:
    problem = only_problem(f"since: {text}\n")
    assert (problem.line, problem.col) == (1, 8)
    assert f"'{text}' is read as a date by YAML 1.1; quote it" in problem.message


@pytest.mark.parametrize(
    "text",
    ["1:30", "017", "-017", "09", "0o17", "0x1F", "0b101", "1_000", "1_000.5", "017.5"],
)
def test_surprising_numbers_are_refused(text: str) -> None:
    problem = only_problem(f"limits: [1, {text}]\n")
    assert (problem.line, problem.col) == (1, 13)
    assert f"'{text}' is a surprising number" in problem.message
    assert "plain decimal" in problem.message


@pytest.mark.parametrize("text", [".inf", "-.inf", "+.INF", ".nan", ".NaN"])
def test_inf_and_nan_are_not_json_numbers(text: str) -> None:
    problem = only_problem(f"maximum: {text}\n")
    assert (problem.line, problem.col) == (1, 10)
    assert f"'{text}' is not a JSON number" in problem.message


def test_float_overflow_is_not_a_json_number() -> None:
    problem = only_problem("maximum: 1e400\n")
    assert (problem.line, problem.col) == (1, 10)
    assert "too large for a JSON number" in problem.message


def test_integer_with_too_many_digits() -> None:
    problem = only_problem("maximum: " + "9" * 5000 + "\n")
    assert (problem.line, problem.col) == (1, 10)
    assert "too many digits" in problem.message


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("1", 1),
        ("-3", -3),
        ("+7", 7),
        ("0", 0),
        ("123456789012345678901234567890", 123456789012345678901234567890),
    ]
    + [
        ("2.5", 2.5),
        ("1e3", 1000.0),
        ("1.0e+3", 1000.0),
        ("1.0e3", 1000.0),
        ("-2E-2", -0.02),
        ("-.5", -0.5),
    ],
)
def test_decimal_numbers_are_accepted(text: str, value: int | float) -> None:
    data = data_of(f"n: {text}\n")
    assert data == {"n": value}
    assert type(data["n"]) is type(value)


@pytest.mark.parametrize("text", ["~", "null", "Null", "NULL", ""])
def test_null_forms(text: str) -> None:
    assert data_of(f"default: {text}\n") == {"default": None}


def test_quoted_and_block_scalars_are_always_strings() -> None:
    text = "a: ['no', \"yes\", '017', \"2024-01-01\", '.inf', 'null', '1e3', '1:30']\nb: |\n  yes\nc: >-\n  017\n"
    assert data_of(text) == {
        "a": ["no", "yes", "017", "2024-01-01", ".inf", "null", "1e3", "1:30"],
        "b": "yes\n",
        "c": "017",
    }


def test_other_plain_strings_stay_strings() -> None:
    # pyyaml gives '=' and '<<' values special tags; as values they are just strings.
    assert data_of("ops: [=, <, '<<', x=1, 1.2.3, v1, 12abc]\n") == {
        "ops": ["=", "<", "<<", "x=1", "1.2.3", "v1", "12abc"]
    }


@pytest.mark.parametrize(
    "tagged",
    [
        "!!binary aGk=",
        "!!python/object/apply:os.system [ls]",
        "!custom x",
        "!!set {a: null}",
        "!!omap [a: 1]",
    ]
    + ["!!timestamp 2024-01-01", "!<tag:example.com,2024:x> 1"],
)
def test_other_tags_are_refused(tagged: str) -> None:
    problem = only_problem(f"value: {tagged}\n")
    assert (problem.line, problem.col) == (1, 8)
    assert "is not allowed in contracts" in problem.message
    assert "!!str" in problem.message


def test_standard_tags_are_allowed() -> None:
    text = "a: !!str 017\nb: !!int '12'\nc: !!float 1\nd: !!bool true\ne: !!null ~\nf: !!map {x: 1}\ng: !!seq [1]\n"
    data = data_of(text)
    assert data == {
        "a": "017",
        "b": 12,
        "c": 1.0,
        "d": True,
        "e": None,
        "f": {"x": 1},
        "g": [1],
    }
    assert type(data["c"]) is float


@pytest.mark.parametrize(
    ("tagged", "phrase"),
    [
        ("!!int 0x1F", "'0x1F' is not a valid !!int value"),
        ("!!bool yes", "'yes' is not a valid !!bool value"),
    ]
    + [
        ("!!map x", "!!map cannot be used on a single value"),
        ("!!str [1]", "!!str cannot be used on a list"),
    ],
)
def test_standard_tags_must_fit(tagged: str, phrase: str) -> None:
    problem = only_problem(f"value: {tagged}\n")
    assert (problem.line, problem.col) == (1, 8)
    assert phrase in problem.message


# --- 8. strings must be valid Unicode -------------------------------------------------------


@pytest.mark.parametrize("escape", ["\\ud800", "\\udfff", "\\ud83d\\ude00"])
def test_lone_surrogates_are_refused(escape: str) -> None:
    problem = only_problem(f'description: "x{escape}"\n')
    assert (problem.line, problem.col) == (1, 14)
    assert "surrogate" in problem.message


def test_surrogate_in_a_key_is_refused() -> None:
    problem = only_problem('a: 1\n"\\udc00": 2\n')
    assert (problem.line, problem.col) == (2, 1)
    assert "surrogate" in problem.message


def test_unicode_escapes_are_fine() -> None:
    assert data_of('a: "\\U0001F600 \\u00e9 \\x41"\n') == {"a": "\U0001f600 \u00e9 A"}


# --- collecting problems, limits, robustness ------------------------------------------------


def test_all_problems_are_reported_together_in_order() -> None:
    text = "a: &x yes\nb:\n  1: x\n  c: 2024-01-01\nb: 2\nd: !!binary aGk=\n"
    problems = problems_of(text)
    assert [(p.line, p.col) for p in problems] == [
        (1, 4),
        (1, 4),
        (3, 3),
        (4, 6),
        (5, 1),
        (6, 4),
    ]
    assert all(p.file == FILE for p in problems)
    # A node's position is where it starts, which is its anchor or tag if it has one.
    assert {problems[0].message, problems[1].message} == {
        "YAML anchors and aliases are not allowed in contracts",
        "'yes' is read as a boolean by YAML 1.1; quote it ('yes') if you mean the string, or write true",
    }


def test_problems_after_a_syntax_error_are_kept() -> None:
    problems = problems_of("a: &x 1\nb: [\n")
    assert [(p.line, p.col) for p in problems] == [(1, 4), (3, 1)]
    assert "anchors" in problems[0].message
    assert "invalid YAML" in problems[1].message


def test_moderate_nesting_is_fine() -> None:
    data = data_of("a: " + "[" * 50 + "1" + "]" * 50 + "\n")["a"]
    for _ in range(50):
        data = data[0]
    assert data == 1


def test_deep_nesting_is_refused() -> None:
    problem = only_problem("[" * 5000 + "]" * 5000)
    assert problem.line == 1
    assert "levels deep" in problem.message


@pytest.mark.parametrize(
    "raw",
    [
        b"\xff\xfe",
        b"\x00",
        b"key: [",
        b"- a\n- b: c\n  d",
        b"\xef\xbb\xbf",
        b"\t",
        b"*",
        b"&",
        b"!",
        b"? ",
        b"%",
    ]
    + [
        b":",
        b"'",
        b'"\\',
        b'"\\u12"',
        b"\r\n\r\n",
        b"\xc2\x85",
        b"- " * 3000,
        b"{a: 1, ? b}",
        b"a: !<x> 1",
    ]
    + [
        b"&a [*a]",
        b"%YAML 2.0\n--- a",
        b"%TAG ! tag:x:\n--- !y 1",
        b"a: |\n  x\n y",
        b"- \xed\xa0\x80",
    ],
)
def test_any_bytes_give_a_document_or_a_contract_error(raw: bytes) -> None:
    try:
        document = load(raw, FILE)
    except ContractError as error:
        assert error.problems
        for problem in error.problems:
            assert problem.file == FILE
            assert problem.line >= 1 and problem.col >= 1
    else:
        assert isinstance(document, Document)


# -- libyaml's events, pyyaml's reading ----------------------------------------------------
#
# load() reads a contract with libyaml's parser when the result is sure to be the one
# pyyaml's pure-Python parser gives (source._load_fast), and with pyyaml's otherwise: every
# error, and every text the two parsers read differently, takes the pure path.


def _pure(text: str) -> Any:
    """What the pure-Python path makes of ``text``: its data and positions, or its problems."""
    from toolshape.contract import source

    try:
        loader = source._ContractLoader(text, "x.yaml")
        root = loader.compose_contract()
    except ContractError as error:
        return [str(p) for p in error.problems]
    builder = source._DataBuilder("x.yaml", loader.explicitly_tagged)
    data = builder.build(root, ())
    if loader.problems or builder.problems:
        return [str(p) for p in loader.problems + builder.problems]
    return (data, builder.value_positions, builder.key_positions)


def _texts() -> list[str]:
    """Contract-like YAML: the repository's, the test suite's schemas in three styles, and
    each of those cut, doubled and sprinkled with YAML's punctuation (a fixed seed)."""
    import json
    import random

    import yaml
    from support import ROOT

    texts = [p.read_text(encoding="utf-8") for p in sorted(ROOT.glob("contracts/**/*.yaml"))]
    suite = ROOT / "tests/json-schema-test-suite/tests/draft2020-12"
    for path in sorted(suite.glob("*.json")):
        for group in json.loads(path.read_text(encoding="utf-8"))[:4]:
            contract = {"name": "t", "description": "d", "parameters": group["schema"]}
            for style in (None, False, True):
                texts.append(yaml.safe_dump(contract, default_flow_style=style))
            texts.append(yaml.safe_dump({"v": group["tests"][0]["data"]}, default_style='"'))
    rng = random.Random(20)
    marks = [*" \n:-#'\"[]{},!&*?|>%@`\\x0.", "  ", "\n  ", "- ", ": ", "\r\n", "é", "\t", "~"]
    for _ in range(4000):
        text = rng.choice(texts[:400])
        for _ in range(rng.randint(1, 4)):
            at, to = rng.randrange(len(text) + 1), rng.randrange(len(text) + 1)
            choice = rng.random()
            if choice < 0.4:
                text = text[:at] + rng.choice(marks) + text[at:]
            elif choice < 0.7:
                text = text[:at] + text[at + rng.randint(1, 4) :]
            else:
                text = text[:at] + text[to : to + rng.randint(1, 20)] + text[at:]
        texts.append(text)
    return texts


def test_the_libyaml_path_reads_every_text_as_the_pure_path_does() -> None:
    from toolshape.contract import source

    if source._FastContractLoader is None:
        pytest.skip("pyyaml without libyaml: every contract takes the pure path")
    used = 0
    for text in _texts():
        fast = source._load_fast(text, "x.yaml")
        if fast is not None:
            used += 1
            assert (fast.data, fast.value_positions, fast.key_positions) == _pure(text), text
    assert used > 1500, used  # the fast path is taken (mostly by the unbroken texts)


def test_plain_contracts_are_read_from_the_events_as_the_nodes_read_them() -> None:
    """source._EventReader reads a plain contract (no tag, anchor or problem) straight from
    libyaml's events, never composing nodes: the repository's contracts all take it, and
    each reads as the pure path reads it. A tag written out, an anchor or a duplicate key
    leave the text to the node path."""
    import yaml
    from toolshape.contract import source

    if source._FastContractLoader is None:
        pytest.skip("pyyaml without libyaml: every contract takes the pure path")

    def events(text: str) -> Any:
        reader = source._EventReader(source._FastContractLoader(text, "x.yaml"))
        return (reader.document(), reader.value_positions, reader.key_positions)

    from support import ROOT

    for path in sorted(ROOT.glob("contracts/**/*.yaml")):
        text = path.read_text(encoding="utf-8")
        assert events(text) == _pure(text), path
    for text in ["a: !!str 1\n", "a: &x 1\nb: *x\n", "a: 1\na: 2\n", "[1]: a\n", "a: yes\n"]:
        with pytest.raises((source._NotPlain, yaml.YAMLError)):
            events(text)
        fast = source._load_fast(text, "x.yaml")
        if fast is not None:  # the node path reads it: as the pure path does
            assert (fast.data, fast.value_positions, fast.key_positions) == _pure(text), text


@pytest.mark.parametrize(
    "text",
    [
        "a: {b: c?d}\n",  # '?' in a flow plain scalar: pyyaml refuses it, libyaml reads it
        "a: {b: c:d}\n",
        "a: {b: , c: 1}\n",  # an empty plain scalar
        "a: |-#\n  x\n",  # a block scalar's header with a comment glued on
        "a:\tb\n",  # a tab
        "%YAML 1.1\n---\na: b\n",  # a directive
        "a: b\u2028c\n",  # a line break only pyyaml counts as one
    ],
)
def test_what_the_two_parsers_could_read_differently_takes_the_pure_path(text: str) -> None:
    from toolshape.contract import source

    assert source._load_fast(text, "x.yaml") is None
    plain = "a: {b: c}\n"
    if source._FastContractLoader is not None:
        assert source._load_fast(plain, "x.yaml") is not None
