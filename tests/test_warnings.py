"""Warnings: printed as ``path:line:col: warning: message``, exit 0, errors under ``--strict``.

Each file in ``tests/warning_contracts/`` starts with one or more lines

    # warn: LINE:COL: <a substring of the message>

naming a warning ``toolshape lint`` must print at that position (the schema node at
fault), worked out from the contract text. Such a contract generates; ``--strict``
refuses it. Warnings survive reused output (a second ``generate`` loads no contract)
and worker processes.
"""

from __future__ import annotations

import json
import re
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from toolshape import cli
from toolshape.cli import main
from toolshape.codegen import render
from toolshape.contract import checker, reference, source
from toolshape.contract.errors import Problem
from toolshape.platforms import export
from toolshape.project import headers, pipeline, planning, runtime

CORPUS = Path(__file__).resolve().parent / "warning_contracts"
FILES = sorted(CORPUS.glob("*.yaml"))
WARN = re.compile(r"^# warn: (\d+):(\d+): (.+)$", re.MULTILINE)


def expected(path: Path) -> list[tuple[int, int, str]]:
    found = [
        (int(line), int(col), text)
        for line, col, text in WARN.findall(path.read_text(encoding="utf-8"))
    ]
    assert found, f"{path.name} has no '# warn: LINE:COL: message' line"
    return found


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, captured.out, captured.err


def warning_lines(err: str, severity: str = "warning") -> list[str]:
    return [line for line in err.splitlines() if f": {severity}: " in line]


def assert_warned(err: str, shown: str, path: Path, severity: str = "warning") -> None:
    lines = err.splitlines()
    for line, col, text in expected(path):
        prefix = f"{shown}:{line}:{col}: {severity}: "
        assert any(entry.startswith(prefix) and text in entry for entry in lines), (
            f"{prefix}{text}\nnot in:\n{err}"
        )


def test_the_corpus_covers_defaults_and_schema_examples() -> None:
    names = {path.stem for path in FILES}
    assert {
        "default_fails_its_schema",
        "default_null_on_optional_key",
        "schema_examples_fail",
    } <= names


def test_the_corpus_covers_legal_schemas_the_check_once_refused() -> None:
    """JSON Schema accepts these, with an exact meaning the generated module keeps: a keyword
    with no effect, an unknown format, and places no value can pass."""
    names = {path.stem for path in FILES}
    assert {
        "keyword_without_its_condition",
        "format_unknown_is_an_annotation",
        "enum_empty",
        "const_not_in_enum",
        "const_fails_its_schema",
        "wrong_type_const",
        "unsat_min_length_over_max_length",
        "unsat_min_items_over_max_items",
        "required_false_and_nothing_passes",
        "unsat_minimum_over_maximum",
        "unsat_exclusive_minimum_equals_maximum",
        "unsat_integer_bounds",
        "unsat_multiple_of_bounds",
        "unsat_items_false_min_items",
        "unsat_max_properties_under_required",
        "enum_duplicate_value",
        "enum_duplicate_number",
        "enum_value_type_forbids",
        "enum_unquoted_null",
        "enum_value_fails_its_schema",
        "output_enum_value_fails_its_schema",
        "parameters_false",
    } <= names


# -- lint ----------------------------------------------------------------------------


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_lint_prints_each_warning_at_its_node_and_exits_0(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "lint", str(path))
    assert code == 0, err
    count = len(expected(path))
    assert out == f"1 contract, {count} warning{'s' * (count != 1)}\n"
    assert_warned(err, str(path), path)
    # Only warnings, one per expectation, in the order of their places in the file.
    lines = err.splitlines()
    assert lines == warning_lines(err) and len(lines) == count
    places = [tuple(int(n) for n in line.split(":")[1:3]) for line in lines]
    assert places == sorted(places)


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_strict_makes_the_warnings_errors(path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "lint", "--strict", str(path))
    assert code == 1 and out == ""
    assert_warned(err, str(path), path, severity="error")
    assert warning_lines(err) == []


def test_quiet_keeps_the_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    path = CORPUS / "default_null_on_optional_key.yaml"
    code, out, err = run(capsys, "lint", "-q", str(path))
    assert (code, out) == (0, "")
    assert_warned(err, str(path), path)


def test_a_contract_with_an_error_and_one_with_a_warning_report_both(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a_warns.yaml").write_bytes((CORPUS / "default_fails_its_schema.yaml").read_bytes())
    (tmp_path / "b_broken.yaml").write_text("name: b\ndescription: d\nparameters: {type: objec}\n")
    code, _, err = run(capsys, "lint", str(tmp_path))
    assert code == 1
    assert f"{tmp_path}/b_broken.yaml:3:" in err and ": error: " in err
    assert_warned(err, f"{tmp_path}/a_warns.yaml", CORPUS / "default_fails_its_schema.yaml")


def test_the_contracts_own_examples_stay_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Only annotations became warnings: a top-level example that misbehaves still stops everything."""
    path = tmp_path / "c.yaml"
    path.write_text(
        "name: t\ndescription: d\nparameters:\n  type: object\n  properties:\n    a: {type: integer, default: x}\n"
        "examples:\n  - args: {a: x}\n"
    )
    code, _, err = run(capsys, "lint", str(path))
    assert code == 1
    assert f"{path}:8:5: error: example 1 is declared accept" in err
    assert f"{path}:6:33: warning: 'default' \"x\" does not pass its own schema (type)" in err


def test_warnings_are_colour_coded_on_a_terminal() -> None:
    problem = Problem("c.yaml", 3, 4, "a message", "warning")
    assert (
        cli._problem_line(problem, colour=True)
        == f"c.yaml:3:4: {cli.MAGENTA}warning{cli.RESET}: a message"
    )
    assert cli._problem_line(problem, colour=False) == "c.yaml:3:4: warning: a message"
    error = Problem("c.yaml", 3, 4, "a message")
    assert (
        cli._problem_line(error, colour=True) == f"c.yaml:3:4: {cli.RED}error{cli.RESET}: a message"
    )


def test_help_documents_strict(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("lint", "generate", "check"):
        assert main([command, "--help"]) == 0
        assert "--strict" in capsys.readouterr().out


# -- generate, reuse, check ---------------------------------------------------------------


def _folder(tmp_path: Path, names: list[str]) -> Path:
    folder = tmp_path / "contracts"
    folder.mkdir()
    for name in names:
        (folder / name).write_bytes((CORPUS / name).read_bytes())
    return folder


def test_generate_writes_prints_and_prints_again_from_reused_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ["default_deep_in_defs.yaml", "schema_examples_fail.yaml"]
    folder, out = _folder(tmp_path, names), tmp_path / "generated"
    code, _, first = run(capsys, "generate", str(folder), "--out", str(out))
    assert code == 0, first
    assert (out / "default_deep_in_defs.py").is_file()
    for name in names:
        assert_warned(first, f"{folder}/{name}", CORPUS / name)

    def forbidden(*args: object, **kwargs: object) -> None:
        raise AssertionError("reused output was generated again")

    monkeypatch.setattr(pipeline, "generate", forbidden)
    monkeypatch.setattr(source, "load", forbidden)
    code, again_out, again = run(capsys, "generate", str(folder), "--out", str(out))
    assert code == 0 and "0 changed" in again_out
    assert again == first  # the same warnings, in the same order, without loading a contract
    code, _, checked = run(capsys, "check", "--headers-only", str(folder), "--out", str(out))
    assert code == 0 and checked == first
    monkeypatch.undo()  # check itself generates everything again, and finds the same warnings
    code, _, checked = run(capsys, "check", str(folder), "--out", str(out))
    assert code == 0 and checked == first


def test_generate_strict_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder, out = _folder(tmp_path, ["default_fails_its_schema.yaml"]), tmp_path / "generated"
    code, stdout, err = run(capsys, "generate", "--strict", str(folder), "--out", str(out))
    assert code == 1 and stdout == ""
    assert not out.exists()
    assert_warned(
        err,
        f"{folder}/default_fails_its_schema.yaml",
        CORPUS / "default_fails_its_schema.yaml",
        "error",
    )
    # Without --strict it generates; check --strict then fails on the same warnings.
    assert run(capsys, "generate", str(folder), "--out", str(out))[0] == 0
    code, _, err = run(capsys, "check", "--strict", str(folder), "--out", str(out))
    assert code == 1 and ": error: 'default' 0 does not pass its own schema" in err


def test_an_edited_warning_record_is_a_hand_edit(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder, out = _folder(tmp_path, ["default_fails_its_schema.yaml"]), tmp_path / "generated"
    assert run(capsys, "generate", str(folder), "--out", str(out))[0] == 0
    tests = out / "tests" / "test_default_fails_its_schema.py"
    text = tests.read_text(encoding="utf-8")
    assert "\n# warning: 7:48: " in text
    tests.write_text(text.replace("\n# warning: 7:48: ", "\n# warning: 7:49: "), encoding="utf-8")
    code, _, err = run(capsys, "check", str(folder), "--out", str(out))
    assert code == 1 and "hand-edited" in err
    # Regenerated (not reused), it prints the true position again.
    code, _, err = run(capsys, "generate", str(folder), "--out", str(out))
    assert code == 0 and f"{folder}/default_fails_its_schema.yaml:7:48: warning: " in err


def test_worker_processes_send_the_warnings_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "contracts"
    folder.mkdir()
    text = (CORPUS / "default_null_on_optional_key.yaml").read_text(encoding="utf-8")
    for i in range(4):
        (folder / f"tool_{i}.yaml").write_text(
            text.replace("name: search", f"name: search_{i}"), encoding="utf-8"
        )
    context = render.generation_context()
    monkeypatch.setattr(planning, "POOL_THRESHOLD", 10**9)
    alone = planning.plan(folder, context).warnings
    monkeypatch.setattr(planning, "POOL_THRESHOLD", 2)
    monkeypatch.setattr(planning, "_usable_cpus", lambda: 2)
    pooled = planning.plan(folder, context).warnings
    assert pooled == alone
    assert [(w.file, w.line, w.col, w.severity) for w in alone] == [
        (str(folder / f"tool_{i}.yaml"), 9, 48, "warning") for i in range(4)
    ]


def test_the_record_keeps_any_message_exactly() -> None:
    """A message names contract keys: newlines, quotes, non-ASCII must neither break the comment nor change."""
    body = "# Generated by toolshape\n" + headers.SEAL + "\n'''doc'''\n"
    warnings = [
        Problem("c.yaml", 2, 3, "key 'a\nb' # \"q\" \u00e9\u2028 \\ end", "warning"),
        Problem("c.yaml", 1, 9, "first", "warning"),
    ]
    text = headers.seal(headers.record_warnings(body, warnings))
    assert headers.is_sealed_intact(text)
    record = [line for line in text.splitlines() if line.startswith("# warning: ")]
    assert len(record) == 2 and all(line.isascii() for line in record)
    assert record[0] == f"# warning: 1:9: {json.dumps('first')}"
    assert headers.recorded_warnings(text.encode(), "shown.yaml") == [
        Problem("shown.yaml", 1, 9, "first", "warning"),
        Problem("shown.yaml", 2, 3, warnings[0].message, "warning"),
    ]
    assert headers.record_warnings(body, []) == body


@pytest.mark.parametrize("lines", [1_000, 10_000, 100_000])
def test_reading_the_records_holds_memory_for_the_header_alone(lines: int) -> None:
    """Reused output's warnings and definitions are read from the tests' header (a thousand
    files when one contract of a thousand changed): what is held while reading does not grow
    with the thousands of lines below the header (a file split whole held them all)."""
    import tracemalloc

    body = "# Generated by toolshape\n" + headers.SEAL + "\nX = 1\n" + "CASES = 1  # row\n" * lines
    definitions = {p: {"name": "t", "p": p} for p in export.PLATFORMS}
    warnings = [Problem("c.yaml", 1, 9, "first", "warning")]
    text = headers.seal(
        headers.record_warnings(headers.record_definitions(body, definitions, {}), warnings)
    )
    data = text.encode()
    tracemalloc.start()
    try:
        found = headers.recorded_warnings(data, "c.yaml")
        recorded = headers.recorded_definitions(data, "c.yaml")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert found == [Problem("c.yaml", 1, 9, "first", "warning")]
    assert recorded == (definitions, {})
    assert peak < 64_000, (lines, peak)


# -- schema and import ---------------------------------------------------------------------


def test_schema_prints_the_warnings_and_exports_the_default(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = CORPUS / "default_null_on_optional_key.yaml"
    code, out, err = run(capsys, "schema", str(path), "--target", "anthropic")
    assert code == 0
    assert_warned(err, str(path), path)
    assert json.loads(out)["input_schema"]["properties"]["sort"]["default"] is None


PYDANTIC = {
    "type": "function",
    "function": {
        "name": "search_items",
        "description": "Search the catalogue.",
        "parameters": {
            "type": "object",
            "title": "SearchArgs",
            "properties": {
                "query": {"type": "string", "title": "Query"},
                "category": {
                    "anyOf": [{"type": "string"}, {"type": "null"}],
                    "default": None,
                    "title": "Category",
                },
                "sort": {"type": "string", "default": None, "title": "Sort"},
            },
            "required": ["query"],
        },
    },
}


def test_import_then_generate_a_pydantic_style_optional_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("tools.json").write_text(json.dumps([PYDANTIC]), encoding="utf-8")
    code, _, err = run(capsys, "import", "tools.json", "--out", "contracts")
    assert code == 0, err
    # The null default that the key refuses is a warning at its line in the written contract
    # (where generate reports it too, below); the one the anyOf allows is no finding at all.
    (imported,) = warning_lines(err)
    place, message = imported.split(": warning: ")
    assert re.fullmatch(r"contracts/search_items\.yaml:\d+:\d+", place)
    assert message == (
        "'default' null does not pass its own schema (type); it is kept as an annotation "
        "(the validator never applies a default)"
    )
    data: Any = source.load(Path("contracts/search_items.yaml").read_bytes(), "c.yaml").data
    assert (
        data["parameters"]["properties"]["category"]["default"] is None
    )  # kept, not dropped or rewritten
    assert data["parameters"]["properties"]["sort"]["default"] is None
    code, _, err = run(capsys, "generate", "contracts", "--out", "generated")
    assert code == 0, err
    assert f"{place}: warning: 'default' null" in err
    checked = checker.check(source.load(Path("contracts/search_items.yaml").read_bytes(), "c.yaml"))
    schema = checked.parameters
    assert reference.evaluate(schema, {"query": "x"}) == set()
    assert reference.evaluate(schema, {"query": "x", "category": None}) == set()
    assert reference.evaluate(schema, {"query": "x", "sort": None}) == {("/sort", "type")}


# -- nothing downstream takes a failing default for a valid value ---------------------------


def test_a_failing_default_is_never_an_accepted_value(tmp_path: Path) -> None:
    path = CORPUS / "default_deep_in_defs.yaml"
    generated = pipeline.generate(
        path.read_bytes(), "c.yaml", PurePosixPath("c.yaml"), render.generation_context()
    )
    assert [(w.line, w.col) for w in generated.warnings] == [(14, 16), (18, 51)]
    from toolshape.codegen import cases

    derived = cases.derive(generated.contract).cases
    accepted = [c.data for c in derived if not c.errors]
    assert accepted
    for data in accepted:
        assert data.get("retries") != -1
        assert all(
            job.get("state") != "ok" for job in data.get("jobs", []) if isinstance(job, dict)
        )
    # The generated module refuses what the failing defaults say, like the reference.
    module = runtime.load_module(generated.module_source, "c.py")
    assert {(e.path, e.code) for e in module.validate({"retries": -1}).errors} == {
        ("/retries", "minimum")
    }
    assert {(e.path, e.code) for e in module.validate({"jobs": [{"state": "ok"}]}).errors} == {
        ("/jobs/0/state", "enum")
    }


def test_diff_prints_the_new_sides_warnings_and_exits_as_without(tmp_path: Path) -> None:
    import argparse
    import io

    from toolshape.cli import diff_arguments, run_diff

    text = (CORPUS / "default_fails_its_schema.yaml").read_text(encoding="utf-8")
    (tmp_path / "old").mkdir()
    (tmp_path / "new").mkdir()
    (tmp_path / "old" / "t.yaml").write_text(text, encoding="utf-8")
    (tmp_path / "new" / "t.yaml").write_text(
        text.replace("minimum: 1", "minimum: 2"), encoding="utf-8"
    )
    args = diff_arguments(argparse.ArgumentParser()).parse_args(["old", "new", "--format", "json"])
    out, err = io.StringIO(), io.StringIO()
    code = run_diff(args, stdout=out, stderr=err, cwd=tmp_path)
    assert code == 0
    assert json.loads(out.getvalue())[0]["effect"] == "breaking"
    # Only the new side's, once: the old side's warnings are history.
    assert err.getvalue().splitlines() == [
        (
            "new/t.yaml:7:48: warning: 'default' 0 does not pass its own schema (minimum); "
            "it is kept as an annotation (the validator never applies a default)"
        )
    ]


def test_derivation_warnings_are_printed_recorded_and_reused_in_place_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The witness engine's warnings (cases left out) come after the contract's from the pipeline,
    but are printed by their place in the file, the same on the first run as from reused output."""
    from toolshape.codegen import cases

    derive = cases.derive

    def with_a_warning(checked: checker.Contract) -> cases.Derivation:
        found = derive(checked)
        left_out = checked.document.problem(
            ("parameters", "properties"), "cases left out: add examples", severity="warning"
        )
        return cases.Derivation(found.cases, [*found.warnings, left_out])

    monkeypatch.setattr(cases, "derive", with_a_warning)
    folder, out = _folder(tmp_path, ["default_fails_its_schema.yaml"]), tmp_path / "generated"
    code, _, first = run(capsys, "generate", str(folder), "--out", str(out))
    assert code == 0
    shown = f"{folder}/default_fails_its_schema.yaml"
    assert [line.split(": warning: ")[0] for line in first.splitlines()] == [
        f"{shown}:7:5",
        f"{shown}:7:48",
    ]
    assert "cases left out: add examples" in first.splitlines()[0]
    code, _, again = run(capsys, "generate", str(folder), "--out", str(out))
    assert code == 0 and again == first


def test_diff_prints_the_derivation_warnings_of_the_new_side_under_its_own_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import argparse
    import io

    from toolshape.cli import diff_arguments, run_diff
    from toolshape.codegen import cases
    from toolshape.review import sides

    derive = cases.derive

    def with_a_warning(checked: checker.Contract) -> cases.Derivation:
        found = derive(checked)
        left_out = checked.document.problem(
            ("parameters", "properties"), "cases left out: add examples", severity="warning"
        )
        return cases.Derivation(found.cases, [*found.warnings, left_out])

    monkeypatch.setattr(cases, "derive", with_a_warning)
    monkeypatch.setattr(sides, "_CACHE", {})
    monkeypatch.setattr(sides, "_WARNINGS", {})
    text = (CORPUS / "default_fails_its_schema.yaml").read_text(encoding="utf-8")
    for side, minimum in (("old", "1"), ("new", "2")):
        (tmp_path / side).mkdir()
        (tmp_path / side / "t.yaml").write_text(
            text.replace("minimum: 1", f"minimum: {minimum}"), encoding="utf-8"
        )
    args = diff_arguments(argparse.ArgumentParser()).parse_args(["old", "new"])
    out, err = io.StringIO(), io.StringIO()
    assert run_diff(args, stdout=out, stderr=err, cwd=tmp_path) == 0
    assert [line.split(": warning: ")[0] for line in err.getvalue().splitlines()] == [
        "new/t.yaml:7:5",
        "new/t.yaml:7:48",
    ]
    assert "cases left out: add examples" in err.getvalue().splitlines()[0]
    # The same bytes under other names, in the same process (validators are cached by content):
    # the warnings name the files of this run.
    for side in ("old", "new"):
        (tmp_path / side).rename(tmp_path / f"{side}_again")
    args = diff_arguments(argparse.ArgumentParser()).parse_args(["old_again", "new_again"])
    out, err = io.StringIO(), io.StringIO()
    assert run_diff(args, stdout=out, stderr=err, cwd=tmp_path) == 0
    lines = err.getvalue().splitlines()
    assert [line.split(": warning: ")[0] for line in lines] == [
        "new_again/t.yaml:7:5",
        "new_again/t.yaml:7:48",
    ]
