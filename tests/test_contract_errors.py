"""Broken contracts: every one is refused with `path:line:col: error: message`, never a traceback.

Each file in ``tests/broken_contracts/`` starts with one or more comment lines

    # expect: LINE:COL: <a substring of the message>

naming a problem ``toolshape lint`` must report at that position (the YAML node
at fault). The positions were worked out from the contract text, not copied
from toolshape's output. Files that cannot live in the repository (over the
1 MiB limit) are written by the tests below.
"""

from __future__ import annotations

import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from support import script
from toolshape.cli import MAX_PROBLEMS_PER_FILE, main
from toolshape.contract import source
from toolshape.contract.source import MAX_CONTRACT_BYTES

CORPUS = Path(__file__).resolve().parent / "broken_contracts"
EXPECT = re.compile(rb"^# expect: (\d+):(\d+): (.+?)\r?$", re.MULTILINE)


@dataclass(frozen=True)
class Expected:
    line: int
    col: int
    text: str


def expectations(path: Path) -> list[Expected]:
    """The `# expect:` lines of a corpus file (read as bytes: one file is not UTF-8)."""
    raw = path.read_bytes()
    found = [
        Expected(int(line), int(col), text.decode("utf-8"))
        for line, col, text in EXPECT.findall(raw)
    ]
    assert found, f"{path.name} has no '# expect: LINE:COL: message' line"
    assert raw.startswith(b"# expect: "), f"{path.name}: the first line must be an expectation"
    return found


FILES = sorted(CORPUS.glob("*.yaml"))


def missing_from(stderr: str, shown: str, expected: list[Expected]) -> list[Expected]:
    """The expectations with no `shown:LINE:COL: error: ...substring...` line on stderr."""
    lines = stderr.splitlines()
    return [
        e
        for e in expected
        if not any(
            line.startswith(f"{shown}:{e.line}:{e.col}: error: ") and e.text in line
            for line in lines
        )
    ]


def lint(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["lint", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- the corpus ------------------------------------------------------------------------


def test_the_corpus_is_large_and_covers_the_listed_problems() -> None:
    assert len(FILES) >= 45
    names = {path.stem for path in FILES}
    required = {
        "yaml_syntax_unclosed_flow_mapping", "yaml_tab_indentation", "yaml_duplicate_key", "yaml_non_string_key",
        "yaml_unquoted_yes_no", "yaml_unquoted_on_off", "yaml_unquoted_date", "yaml_inf_nan", "yaml_octal_number",
        "yaml_anchor_alias", "yaml_billion_laughs", "yaml_not_utf8", "yaml_empty_file", "yaml_multiple_documents",
        "unknown_top_level_key", "missing_name", "missing_description", "missing_parameters", "bad_tool_name",
        "root_not_type_object", "wrong_type_type", "wrong_type_enum", "wrong_type_required",
        "wrong_type_additional_properties", "wrong_type_properties", "wrong_type_min_length",
        "wrong_type_max_length", "wrong_type_pattern", "wrong_type_minimum", "wrong_type_maximum",
        "wrong_type_exclusive_minimum", "wrong_type_exclusive_maximum", "wrong_type_multiple_of", "wrong_type_items",
        "wrong_type_min_items", "wrong_type_max_items", "wrong_type_unique_items", "wrong_type_min_properties",
        "wrong_type_max_properties", "wrong_type_title", "wrong_type_description", "wrong_type_examples",
        "wrong_type_x_sensitive", "unknown_keyword_minlenght", "unknown_keyword_requried",
        "unknown_keyword_capital_type", "not_supported_keywords", "ref_points_at_nothing", "any_of_empty",
        "format_unknown",
        "type_unquoted_null", "pattern_does_not_compile",
        "example_args_and_json", "example_neither_args_nor_json", "example_bad_status", "example_accept_with_errors",
        "example_declared_accept_but_rejected", "example_declared_reject_wrong_errors",
    }  # fmt: skip
    assert required <= names, f"missing from the corpus: {sorted(required - names)}"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_broken_contract_is_refused_at_the_right_place(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    expected = expectations(path)
    code, out, err = lint([str(path)], capsys)
    assert "Traceback" not in out + err
    assert code == 1, err
    assert out == "", "problems go to stderr, nothing to stdout"
    missing = missing_from(err, str(path), expected)
    assert not missing, f"expected {missing}\nbut stderr was:\n{err}"
    # Every line is a located problem (or the one "more problems" line of a capped file).
    for line in err.splitlines():
        assert (
            re.match(rf"{re.escape(str(path))}:\d+:\d+: error: \S", line)
            or " more problems not shown" in line
        ), line


def test_the_whole_corpus_at_once_in_a_subprocess() -> None:
    """`toolshape lint FOLDER` as a user runs it: one process, every file, every problem."""
    result = subprocess.run(
        [sys.executable, "-m", "toolshape", "lint", CORPUS.name],
        cwd=CORPUS.parent,
        capture_output=True,
        text=True,
    )
    assert "Traceback" not in result.stdout + result.stderr
    assert result.returncode == 1
    assert result.stdout == ""
    for path in FILES:
        shown = f"{CORPUS.name}/{path.name}"  # as given on the command line, relative to the cwd
        missing = missing_from(result.stderr, shown, expectations(path))
        assert not missing, f"{shown}: expected {missing}"


def test_a_broken_contract_in_a_subprocess_with_an_absolute_path() -> None:
    path = CORPUS / "unknown_keyword_minlenght.yaml"
    result = subprocess.run(
        [script("toolshape"), "lint", str(path)], capture_output=True, text=True, cwd=Path("/")
    )
    assert result.returncode == 1
    assert "Traceback" not in result.stderr
    assert not missing_from(result.stderr, str(path), expectations(path)), result.stderr


# -- what cannot be committed, or needs a closer look ------------------------------------------


def test_a_file_over_the_size_limit_is_refused_unread(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "huge.yaml"
    body = "name: huge\ndescription: A tool.\nparameters:\n  type: object\n  properties:\n"
    filler = "".join(
        f"    p{i}: {{type: string, description: {'x' * 60}}}\n" for i in range(20_000)
    )
    path.write_text(body + filler, encoding="utf-8")
    size = path.stat().st_size
    assert size > 1024 * 1024

    # Refused before it is parsed: the YAML loader is never built for it.
    def never(*args: object, **kwargs: object) -> None:
        raise AssertionError("an oversized file must be refused before it is parsed")

    monkeypatch.setattr(source._ContractLoader, "__init__", never)
    code, out, err = lint([str(path)], capsys)
    assert code == 1
    assert "Traceback" not in out + err
    assert (
        f"{path}:1:1: error: contract file is {size} bytes; the limit is {MAX_CONTRACT_BYTES} bytes"
        in err
    )


def test_problems_are_capped_per_file(capsys: pytest.CaptureFixture[str]) -> None:
    """The billion-laughs file has one problem per anchor and alias: the first ones, then a count."""
    path = CORPUS / "yaml_billion_laughs.yaml"
    text = path.read_text(encoding="utf-8")
    body = text.split("\n", 2)[2]  # below the header
    # Each anchor and alias, and each top-level key a contract does not have (reported too:
    # the YAML could be read whole, so the schema is checked in the same run).
    total = len(re.findall(r"[&*]a\d*\b", body)) + len(re.findall(r"^a\d*:", body, re.M))
    assert total > MAX_PROBLEMS_PER_FILE
    code, _, err = lint([str(path)], capsys)
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == MAX_PROBLEMS_PER_FILE + 1
    assert all(line.startswith(f"{path}:") for line in lines)
    assert (
        lines[-1]
        == f"{path}: ... {total - MAX_PROBLEMS_PER_FILE} more problems not shown (fix the ones above first)"
    )


def test_a_big_alias_bomb_prints_a_bounded_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    aliases = 60_000
    path = tmp_path / "bomb.yaml"
    path.write_text(
        "name: t\ndescription: d\nparameters: {type: object}\nx: &x v\nz: ["
        + ", ".join(["*x"] * aliases)
        + "]\n"
    )
    code, _, err = lint([str(path)], capsys)
    assert code == 1
    lines = err.splitlines()
    assert len(lines) == MAX_PROBLEMS_PER_FILE + 1
    # the anchor, each alias, and the unknown contract keys x and z
    assert lines[-1].startswith(f"{path}: ... {aliases + 3 - MAX_PROBLEMS_PER_FILE} more problems")


def test_the_problems_of_several_files_are_each_capped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in ("a", "b"):
        (tmp_path / f"{name}.yaml").write_text(
            "name: t\ndescription: d\nparameters: {type: object}\nx: &x v\nz: ["
            + ", ".join(["*x"] * 80)
            + "]\n"
        )
    code, _, err = lint([str(tmp_path)], capsys)
    assert code == 1
    for name in ("a", "b"):
        shown = f"{tmp_path}/{name}.yaml"
        located = [
            line
            for line in err.splitlines()
            if line.startswith(f"{shown}:") and ": error: " in line
        ]
        assert len(located) == MAX_PROBLEMS_PER_FILE
        assert f"{shown}: ... {83 - MAX_PROBLEMS_PER_FILE} more problems not shown" in err


def test_a_well_formed_contract_passes_lint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The corpus files are broken by the one thing they show: fixed, the same shape passes."""
    path = tmp_path / "fine.yaml"
    path.write_text(
        "name: t\ndescription: A tool.\nparameters:\n  type: object\n  properties:\n"
        "    city: {type: string, minLength: 1}\n    unit: {type: string, enum: ['yes', 'no']}\n"
        "    nickname: {type: [string, 'null']}\n  required: [city]\n  additionalProperties: false\n"
        "examples:\n  - args: {city: Lisbon}\n  - args: {city: ''}\n    status: reject\n"
        "    errors: [{path: /city, code: minLength}]\n",
        encoding="utf-8",
    )
    code, out, err = lint([str(path)], capsys)
    assert (code, err) == (0, "")
    assert out == "1 contract, no problems\n"


@pytest.mark.parametrize(
    ("schema", "fragment"),
    [
        ("{type: [string, null]}", "write 'null' in quotes"),
        ("{type: integer, exclusiveMinimum: true}", "it is the bound itself"),
        ("{type: string, maximum: 3}", "did you mean 'maxLength'?"),
        ("{type: array, minLength: 1}", "did you mean 'minItems'?"),
        ("{type: object, maxItems: 1}", "did you mean 'maxProperties'?"),
        (
            "{enum: [{type: string}], allOf: [{$ref: '#/properties/a/enum/0'}]}",
            "points into 'enum', whose value is not a schema",
        ),
        (
            "{examples: [{type: integer}], not: {$ref: '#/properties/a/examples/0'}}",
            "points into 'examples', whose value is not a schema",
        ),
    ],
)
def test_more_refusals(
    schema: str, fragment: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "c.yaml"
    path.write_text(
        f"name: t\ndescription: d\nparameters:\n  type: object\n  properties:\n    a: {schema}\n"
    )
    code, _, err = lint([str(path)], capsys)
    assert code == 1
    assert f"{path}:6:" in err and fragment in err, err


@pytest.mark.parametrize(
    "schema",
    [
        "{type: integer, multipleOf: 3, minimum: 1, maximum: 3}",
        "{type: integer, multipleOf: 2.5, minimum: 1, maximum: 5}",
        "{type: number, multipleOf: 0.1, minimum: 0.05, maximum: 0.1}",
        "{type: [string, integer], minLength: 1, minimum: 0}",
        "{minLength: 2, minimum: 3}",
        "{type: string, enum: [ab, cd], maxLength: 2, default: ab}",
        "{type: array, items: false, maxItems: 0}",
    ],
)
def test_satisfiable_schemas_are_not_refused(
    schema: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The new checks must not refuse what can pass (the boundary cases of the refusals above)."""
    path = tmp_path / "c.yaml"
    path.write_text(
        f"name: t\ndescription: d\nparameters:\n  type: object\n  properties:\n    a: {schema}\n"
    )
    code, _, err = lint([str(path)], capsys)
    assert (code, err) == (0, "")


# -- hints for what other schema languages spell differently ---------------------------


def lint_errors(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> list[str]:
    """The error lines ``lint`` prints for a contract written from ``text`` (exit 1 asserted)."""
    path = tmp_path / "c.yaml"
    path.write_text(text, encoding="utf-8")
    code, _, err = lint([str(path)], capsys)
    assert code == 1, err
    return [line.removeprefix(f"{path}:") for line in err.splitlines() if ": error: " in line]


def contract_with(schema: str) -> str:
    """A contract whose one property ``a`` (line 6) has ``schema``."""
    return f"name: t\ndescription: d\nparameters:\n  type: object\n  properties:\n    a: {schema}\n"


@pytest.mark.parametrize(
    ("schema", "advice"),
    [
        ("{type: string, nullable: true}", 'write type: [string, "null"]'),
        ("{type: [integer, string], nullable: true}", 'write type: [integer, string, "null"]'),
        ("{nullable: true, type: object}", 'write type: [object, "null"]'),
        ("{nullable: true}", "add a 'type' that lists \"null\""),
        ("{nullable: true, type: [1, string]}", "add a 'type' that lists \"null\""),
        ("{type: [string, 'null'], nullable: true}", "'type' already allows null here"),
        ("{type: string, nullable: false}", "a value is null only where 'type' allows it"),
    ],
)
def test_openapi_nullable_is_told_the_type_it_should_become(
    schema: str, advice: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    errors = lint_errors(contract_with(schema), tmp_path, capsys)
    nullable = [e for e in errors if "'nullable'" in e]
    assert len(nullable) == 1, errors
    col = contract_with(schema).splitlines()[5].index("nullable") + 1
    assert nullable[0].startswith(f"6:{col}: error: unknown keyword 'nullable' (OpenAPI 3.0's)")
    assert advice in nullable[0], errors


@pytest.mark.parametrize(
    ("text", "parent"),
    [
        (contract_with("{type: string, required: true}"), "(parameters)"),
        (contract_with("{required: true}"), "(parameters)"),
        (
            "name: t\ndescription: d\nparameters:\n  type: object\n  properties:\n"
            "    box:\n      type: object\n      properties:\n"
            "        inner: {type: integer, required: true}\n",
            "(parameters/properties/box)",
        ),
    ],
)
def test_required_true_on_a_property_is_one_error_naming_the_parent(
    text: str, parent: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``required: true`` on a property (OpenAPI 2's and many hand-written schemas' habit) is
    one error that says where the key belongs: the parent object's ``required`` list."""
    errors = lint_errors(text, tmp_path, capsys)
    assert len(errors) == 1, errors
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "required: true" in row)
    col = text.splitlines()[line - 1].index("true") + 1  # at the value, as other wrong values
    assert errors[0].startswith(
        f"{line}:{col}: error: 'required: true' does not make a property required"
    )
    assert f"in the 'required' of its parent object {parent}" in errors[0], errors


def test_required_false_on_a_property_says_it_means_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    errors = lint_errors(contract_with("{type: string, required: false}"), tmp_path, capsys)
    assert len(errors) == 1, errors
    assert "'required: false' has no meaning on a property" in errors[0]


@pytest.mark.parametrize(
    ("pattern", "shown"),
    [
        (r"'^(\w+\s?)\1$'", r"pattern '^(\w+\s?)\1$' cannot be checked in linear time"),
        (r"'^\d+(?P<n>x)$'", r"pattern '^\d+(?P<n>x)$' cannot keep its JSON Schema"),
        (r"'^(a)\1$'", r"pattern '^(a)\1$' cannot be checked in linear time"),
        (r'"^(\t+|\t\t)\\1\n$"', r"pattern '^(\t+|\t\t)\1\n$' cannot be checked in linear time"),
        (r"'\p{Lu}(?i)x'", r"pattern '\p{Lu}(?i)x'"),
    ],
)
def test_patterns_are_shown_as_the_contract_writes_them(
    pattern: str, shown: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """One backslash per escape, as in the contract and in JSON Schema's spelling: never
    Python's repr with its doubled backslashes; a tab or a line break (a YAML double-quoted
    escape) is shown as the escape, so the message stays one line."""
    errors = lint_errors(contract_with(f"{{type: string, pattern: {pattern}}}"), tmp_path, capsys)
    assert len(errors) == 1, errors
    assert shown in errors[0], errors
    assert "\\\\" not in errors[0], errors


# -- YAML problems and schema problems in one run ---------------------------------------

#: A contract with one schema error (line 6, 'strin'); each YAML snippet below follows it.
_ONE_SCHEMA_ERROR = (
    "name: t\ndescription: d\nparameters:\n  type: object\n  properties:\n    a: {type: strin}\n"
)


#: YAML problems that leave the text readable whole, each with the words of its messages.
_READABLE_YAML_PROBLEMS = pytest.mark.parametrize(
    ("snippet", "yaml_problems"),
    [
        ("    b: {type: string}\n    b: {type: integer}\n", ["duplicate key 'b'"]),
        ("    b: {type: string, enum: [x, yes]}\n", ["'yes' is read as a boolean"]),
        ("    b: {type: yes}\n", ["'yes' is read as a boolean"]),
        ("    b: {type: string, default: 2024-01-01}\n", ["is read as a date"]),
        ("    b: {type: string, minLength: 017, maxLength: 2}\n", ["a surprising number"]),
        ("    b: {type: number, maximum: .inf}\n", ["not a JSON number"]),
        ("    b: &s {type: string}\n    c: *s\n", ["anchors and aliases"] * 2),
        ("    b: {<<: {type: string}}\n", ["merge keys"]),
        ("    b: {type: string, 1: x}\n", ["mapping keys must be strings"]),
        ("    b: !!binary aGk=\n", ["the tag !!binary is not allowed"]),
        ("    b: !!str {type: string}\n", ["the tag !!str cannot be used on a mapping"]),
        ('    b: {type: string, description: "\\ud800"}\n', ["lone surrogate"]),
        ('    "\\ud800": {type: string}\n', ["lone surrogate"]),
        ("    b: {type: string}\n---\nname: u\n", ["more than one YAML document"]),
    ],
)


@_READABLE_YAML_PROBLEMS
def test_yaml_and_schema_problems_are_reported_in_one_run(
    snippet: str, yaml_problems: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Wherever the YAML can be read whole, its problems do not hide the schema's: one run
    reports both, and says nothing more about a value the YAML check refused (no second
    error about the null or missing key that stands for it)."""
    errors = lint_errors(_ONE_SCHEMA_ERROR + snippet, tmp_path, capsys)
    assert any(e.startswith("6:15: error: 'strin' is not a JSON type") for e in errors), errors
    for words in yaml_problems:
        assert any(words in e for e in errors), (words, errors)
    assert len(errors) == 1 + len(yaml_problems), errors


@_READABLE_YAML_PROBLEMS
def test_every_command_that_reads_contracts_reports_both_in_one_run_as_lint_does(
    snippet: str,
    yaml_problems: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``schema`` (one file, or ``--all``) and ``diff`` report exactly ``lint``'s errors."""
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "c.yaml").write_text(_ONE_SCHEMA_ERROR + snippet, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    runs = {
        "lint": ["lint", "new/c.yaml"],
        "schema": ["schema", "new/c.yaml", "--target", "mcp"],
        "schema --all": ["schema", "--all", "new", "--target", "mcp"],
        "diff": ["diff", "old", "new", "--format", "json"],
    }
    errors = {}
    for name, argv in runs.items():
        code = main(argv)
        err = capsys.readouterr().err
        assert code == 1 and "Traceback" not in err, (name, err)
        errors[name] = sorted(line for line in err.splitlines() if ": error: " in line)
    assert len(errors["lint"]) == 1 + len(yaml_problems), errors["lint"]
    assert any("'strin' is not a JSON type" in line for line in errors["lint"])
    for name, found in errors.items():
        assert found == errors["lint"], name


@pytest.mark.parametrize(
    ("snippet", "words"),
    [
        ("    b: {type: string\n", "invalid YAML"),
        ("    b:\n\t{type: string}\n", "use spaces, not tabs"),
        ("    b: {type: string}\n\x07\n", "which YAML does not allow"),
    ],
)
def test_yaml_that_cannot_be_read_whole_reports_the_yaml_problem_alone(
    snippet: str, words: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A syntax error (or a character YAML refuses) leaves no document to check: the YAML
    problem alone is reported, never a guess at the schema."""
    errors = lint_errors(_ONE_SCHEMA_ERROR + snippet, tmp_path, capsys)
    assert len(errors) == 1 and words in errors[0], errors


def test_a_schema_error_beside_a_refused_value_is_still_reported(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only what is about the refused value is left unsaid: a sibling keyword's error in the
    same schema is reported with the YAML problem."""
    text = contract_with("{type: string, minLength: 017, pattern: '(?P<n>x)'}")
    errors = lint_errors(text, tmp_path, capsys)
    assert len(errors) == 2, errors
    assert "a surprising number" in errors[0] and "cannot keep its JSON Schema" in errors[1]
