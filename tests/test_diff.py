"""``toolshape diff`` (generator/toolshape/review/diff.py), and the size and place of generated diffs.

Two halves:

* what ``diff`` reports for contract changes: the effect on callers, and a witness
  for every breaking or widening claim, which is checked here again, independently:
  both contracts are generated again here (``module_source``, checked equal to
  ``pipeline.generate``'s output) and the witness is run through both validators
  and the reference evaluator;
* for every contract under contracts/, single-keyword edits (a bound, an enum
  member, a pattern; a property renamed, two reordered, one added) regenerate a
  module whose difflib diff against the original is small and lies inside the
  edited property's block, its INPUT_SCHEMA entry, its TypedDict field and its
  constants (issue 7, "Generated diffs a reviewer can read").
"""

from __future__ import annotations

import argparse
import copy
import difflib
import io
import json
import re
import shutil
import subprocess
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import yaml
from support import ENV, ROOT
from toolshape.contract import checker as contract
from toolshape.contract import reference, source
from toolshape.contract.errors import ContractError, UsageError
from toolshape.project import pipeline
from toolshape.review import diff
from toolshape.schema.values import is_integer, is_number

CONTRACT_FILES = sorted(
    p for p in (ROOT / "contracts").rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()
)
CONTRACT_IDS = [p.relative_to(ROOT / "contracts").as_posix() for p in CONTRACT_FILES]


# -- helpers ---------------------------------------------------------------------------


def dump(data: Any) -> bytes:
    """Contract data as YAML text: leaf lists and mappings inline (as contracts/ writes them)."""
    return yaml.safe_dump(
        data, sort_keys=False, allow_unicode=True, width=1_000_000, default_flow_style=None
    ).encode()


def load_data(path: Path) -> Any:
    return source.load(path.read_bytes(), str(path)).data


def assert_witnesses_hold(
    report: diff.Report, old: dict[str, bytes], new: dict[str, bytes]
) -> None:
    """Every witness: both validators (fully generated here) and the reference give its statuses."""
    by_tool = {}
    for side, files in (("old", old), ("new", new)):
        for raw in files.values():
            try:
                checked = contract.check(source.load(raw, "x.yaml"))
                by_tool[(side, checked.name)] = (
                    checked.parameters,
                    pipeline.load_module(module_source(raw), "x.py"),
                )
            except ContractError:
                continue
    for change in report.changes:
        if change.effect in ("breaking", "widening", "both"):
            assert change.witnesses, change
        else:
            assert not change.witnesses, change
        if change.effect == "both":
            assert {w.direction for w in change.witnesses} == {"breaking", "widening"}, change
        for witness in change.witnesses:
            if change.effect in ("breaking", "widening"):
                assert witness.direction == change.effect, change
            for side, status in (("old", witness.old_status), ("new", witness.new_status)):
                found = by_tool.get((side, change.tool))
                if found is None:
                    assert status == diff.UNKNOWN_TOOL, change
                    continue
                parameters, module = found
                result = module.validate(copy.deepcopy(witness.arguments))
                assert result.status == status, (change, side)
                expected = reference.evaluate(parameters, witness.arguments)
                assert {(e.path, e.code) for e in result.errors} == expected, (change, side)
            assert {witness.old_status, witness.new_status} in (
                {"accept", "reject"},
                {"accept", diff.UNKNOWN_TOOL},
            ), change


def run_diff(old: dict[str, bytes], new: dict[str, bytes]) -> diff.Report:
    report = diff.diff(old, new)
    assert_witnesses_hold(report, old, new)
    return report


def weather(edit: Callable[[dict], None] | None = None) -> bytes:
    data = load_data(ROOT / "contracts" / "get_weather.yaml")
    if edit is not None:
        edit(data)
    return dump(data)


def city(**changes: Any) -> Callable[[dict], None]:
    def edit(data: dict) -> None:
        data["parameters"]["properties"]["city"].update(changes)

    return edit


def only(report: diff.Report, pointer: str | None = None) -> diff.Change:
    found = [c for c in report.changes if pointer is None or c.pointer == pointer]
    assert len(found) == 1, [(c.pointer, c.change, c.effect) for c in report.changes]
    return found[0]


# -- effects and witnesses ------------------------------------------------------------------


def test_tightened_max_length_is_breaking_with_a_witness_between_the_bounds() -> None:
    old = {"old/get_weather.yaml": weather(city(maxLength=100))}
    new = {"new/get_weather.yaml": weather(city(maxLength=50))}
    change = only(run_diff(old, new))
    assert (change.tool, change.pointer, change.change, change.effect) == (
        "get_weather",
        "/properties/city/maxLength",
        "100 -> 50",
        "breaking",
    )
    (witness,) = change.witnesses
    assert 50 < len(witness.arguments["city"]) <= 100
    assert witness.new_errors == (("/city", "maxLength"),)


def test_loosened_max_length_is_widening() -> None:
    old = {"a.yaml": weather(city(maxLength=50))}
    new = {"b.yaml": weather(city(maxLength=100))}
    change = only(run_diff(old, new))
    assert change.effect == "widening"
    assert 50 < len(change.witnesses[0].arguments["city"]) <= 100
    assert change.witnesses[0].old_errors == (("/city", "maxLength"),)


def test_added_enum_value_is_widening_and_reads_as_the_issue_shows() -> None:
    def add_k(data: dict) -> None:
        data["parameters"]["properties"]["unit"]["enum"].append("k")

    report = run_diff({"get_weather.yaml": weather()}, {"get_weather.yaml": weather(add_k)})
    change = only(report)
    assert change.effect == "widening"
    assert change.witnesses[0].arguments["unit"] == "k"
    line = diff.format_text(report).splitlines()[0]
    assert re.fullmatch(
        r'get_weather /properties/unit/enum: value "k" added -> widening; '
        r'witness \{"city": "[^"]+", "unit": "k"\} \(refused before, accepted now: enum at /unit\)',
        line,
    ), line


def test_removed_enum_value_is_breaking() -> None:
    def drop_f(data: dict) -> None:
        data["parameters"]["properties"]["unit"]["enum"] = ["c"]
        data["examples"] = [
            e for e in data["examples"] if '"f"' not in json.dumps(e) + e.get("json", "")
        ]

    change = only(
        run_diff({"a.yaml": weather()}, {"a.yaml": weather(drop_f)}), "/properties/unit/enum"
    )
    assert change.change == 'value "f" removed'
    assert change.effect == "breaking"
    assert change.witnesses[0].arguments["unit"] == "f"


def test_enum_replaced_without_overlap_is_both_with_two_witnesses() -> None:
    def replace(data: dict) -> None:
        data["parameters"]["properties"]["unit"]["enum"] = ["k"]
        data["examples"] = [{"args": {"city": "Oslo", "unit": "k"}}]

    change = only(
        run_diff({"a.yaml": weather()}, {"a.yaml": weather(replace)}), "/properties/unit/enum"
    )
    assert change.effect == "both"
    breaking, widening = change.witnesses
    assert breaking.direction == "breaking" and breaking.arguments["unit"] in ("c", "f")
    assert widening.direction == "widening" and widening.arguments["unit"] == "k"


def test_new_required_key_is_breaking_and_the_witness_leaves_it_out() -> None:
    def extra(data: dict) -> None:
        data["parameters"]["properties"]["country"] = {
            "type": "string",
            "minLength": 2,
            "maxLength": 2,
        }
        data["parameters"]["required"].append("country")
        data["examples"] = [e for e in data["examples"] if e.get("status") == "parse_error"]
        data["examples"].append({"args": {"city": "Oslo", "unit": "c", "country": "NO"}})

    report = run_diff({"a.yaml": weather()}, {"a.yaml": weather(extra)})
    required = only(report, "/required")
    assert (required.change, required.effect) == ('"country" now required', "breaking")
    assert "country" not in required.witnesses[0].arguments
    added = only(report, "/properties/country")
    assert added.effect == "widening"  # additionalProperties: false refused the key before
    assert [c.pointer for c in report.changes if c.pointer is None] == [
        None
    ]  # the examples changed


def test_new_optional_property_under_additional_properties_false_is_widening() -> None:
    def extra(data: dict) -> None:
        data["parameters"]["properties"]["country"] = {"type": "string", "maxLength": 2}
        data["examples"] = [e for e in data["examples"] if "country" not in json.dumps(e)]

    report = run_diff({"a.yaml": weather()}, {"a.yaml": weather(extra)})
    change = only(report, "/properties/country")
    assert change.effect == "widening"
    witness = change.witnesses[0]
    assert "country" in witness.arguments and witness.old_errors == (
        ("/country", "additionalProperties"),
    )


def test_renamed_property_is_breaking_and_widening_with_attributed_witnesses() -> None:
    new = rename_property(load_data(ROOT / "contracts" / "get_weather.yaml"), "city", "town")
    report = run_diff({"a.yaml": weather()}, {"a.yaml": dump(new)})
    effects = [
        (c.pointer, c.change.split(":")[0], c.effect)
        for c in report.changes
        if c.pointer is not None
    ]
    assert effects == [
        ("/properties/city", 'property "city" removed', "breaking"),
        ("/properties/town", 'property "town" added', "widening"),
        ("/required", '"town" now required', "breaking"),
        ("/required", '"city" no longer required', "widening"),
    ]
    removed = report.changes[0].witnesses[0]
    assert "city" in removed.arguments and ("/city", "additionalProperties") in removed.new_errors


def test_pattern_added_tightened_and_rewritten() -> None:
    tightened = only(run_diff({"a.yaml": weather()}, {"a.yaml": weather(city(pattern="^\\S"))}))
    assert (tightened.change, tightened.effect) == ("'\\S' -> '^\\S'", "breaking")
    assert tightened.witnesses[0].arguments["city"][0].isspace()
    # The same language written another way: the regex difference is empty both ways.
    same = only(run_diff({"a.yaml": weather()}, {"a.yaml": weather(city(pattern="[^\\s]"))}))
    assert (same.effect, same.reason) == ("equivalent", None)
    assert same.change + " -> equivalent" in diff.format_text(diff.Report(changes=[same]))


def test_a_pattern_alternative_is_widening_with_a_string_built_from_the_pattern() -> None:
    def codes(data: dict) -> None:
        data["parameters"]["properties"]["city"] = {"type": "string", "pattern": "^[A-Z]{3}$"}
        data["examples"] = [{"args": {"city": "OSL", "unit": "c"}}]

    def more_codes(data: dict) -> None:
        codes(data)
        data["parameters"]["properties"]["city"]["pattern"] = "^[A-Z]{3}$|^zz-[0-9]+$"

    change = only(run_diff({"a.yaml": weather(codes)}, {"a.yaml": weather(more_codes)}))
    assert change.effect == "widening"
    assert re.fullmatch("zz-[0-9]+", change.witnesses[0].arguments["city"])


def test_type_widened_to_number_in_a_nested_array_item() -> None:
    data = load_data(ROOT / "contracts" / "send_email.yaml")
    new = copy.deepcopy(data)
    new["parameters"]["properties"]["attachments"]["items"]["properties"]["size_bytes"]["type"] = (
        "number"
    )
    new["examples"] = [e for e in new["examples"] if "1024.5" not in json.dumps(e)]
    change = only(
        run_diff({"s.yaml": dump(data)}, {"s.yaml": dump(new)}),
        "/properties/attachments/items/properties/size_bytes/type",
    )
    assert (change.change, change.effect) == ('"integer" -> "number"', "widening")
    (item,) = change.witnesses[0].arguments["attachments"]
    assert not float(item["size_bytes"]).is_integer()


def test_additional_properties_and_a_definition_behind_a_ref() -> None:
    data = load_data(ROOT / "contracts" / "docs" / "search_documents.yaml")
    new = copy.deepcopy(data)
    new["parameters"]["$defs"]["comparison"]["properties"]["op"]["enum"].remove("prefix")
    new["parameters"]["$defs"]["group"]["properties"]["all"]["maxItems"] = 20
    report = run_diff({"d.yaml": dump(data)}, {"d.yaml": dump(new)})
    removed = only(report, "/$defs/comparison/properties/op/enum")
    assert removed.effect == "breaking"
    assert '"prefix"' in json.dumps(removed.witnesses[0].arguments)
    loosened = only(report, "/$defs/group/properties/all/maxItems")
    assert loosened.effect == "widening"


def test_annotations_are_listed_without_witnesses() -> None:
    def reword(data: dict) -> None:
        data["description"] = "The weather right now in one city."
        data["parameters"]["properties"]["city"]["description"] = "City name, in English"
        data["parameters"]["properties"]["unit"]["title"] = "Unit"

    report = run_diff({"a.yaml": weather()}, {"a.yaml": weather(reword)})
    assert [(c.pointer, c.effect) for c in report.changes] == [
        (None, "annotation"),
        ("/properties/city/description", "annotation"),
        ("/properties/unit/title", "annotation"),
    ]
    assert report.changes[1].change == '"City name" -> "City name, in English"'
    assert not diff.should_fail(report.changes, "breaking") and diff.should_fail(
        report.changes, "any"
    )


def test_reordered_properties_are_an_annotation() -> None:
    def swap(data: dict) -> None:
        props = data["parameters"]["properties"]
        data["parameters"]["properties"] = {"unit": props["unit"], "city": props["city"]}

    change = only(run_diff({"a.yaml": weather()}, {"a.yaml": weather(swap)}))
    assert change.effect == "annotation" and change.pointer == "/properties"
    assert "city, unit -> unit, city" in change.change


def test_tools_are_matched_by_name_not_by_file() -> None:
    same = run_diff({"old/get_weather.yaml": weather()}, {"new/weather/current.yaml": weather()})
    assert same.changes == [] and diff.format_text(same) == "no changes\n"

    def other_name(data: dict) -> None:
        data["name"] = "get_forecast"

    report = run_diff(
        {"x/get_weather.yaml": weather()}, {"x/get_weather.yaml": weather(other_name)}
    )
    assert (report.added, report.removed) == (["get_forecast"], ["get_weather"])
    effects = {
        c.tool: (
            c.change.split(" (")[0],
            c.effect,
            c.witnesses[0].old_status,
            c.witnesses[0].new_status,
        )
        for c in report.changes
    }
    assert effects == {
        "get_forecast": ("tool added", "widening", diff.UNKNOWN_TOOL, "accept"),
        "get_weather": ("tool removed", "breaking", "accept", diff.UNKNOWN_TOOL),
    }


def test_a_broken_side_is_an_error_with_its_position_not_a_traceback() -> None:
    broken = weather().replace(b"minLength: 1", b"minLenght: 1")
    report = diff.diff({"old/get_weather.yaml": weather()}, {"new/get_weather.yaml": broken})
    assert report.changes == []
    (error,) = report.errors
    assert re.match(
        r"new/get_weather\.yaml:\d+:\d+: error: unknown keyword 'minLenght'; did you mean 'minLength'\?",
        error,
    ), error
    assert diff.exit_code(report, None) == 1
    assert error in diff.format_text(report) and error in diff.format_json(report)

    bad_example = weather(city(maxLength=2))  # the example "Lisbon" is now refused
    report = diff.diff({"a.yaml": weather()}, {"b.yaml": bad_example})
    assert report.errors and all(
        re.match(r"b\.yaml:\d+:\d+: error: example \d+ is declared", e) for e in report.errors
    )
    # The changed place is still listed, with no claim: its side could not be generated.
    assert [(c.pointer, c.effect) for c in report.changes] == [
        ("/properties/city/maxLength", "undetermined")
    ]


def test_tool_level_extensions_are_annotations() -> None:
    def tag(data: dict) -> None:
        data["x-owner"] = "weather-team"

    change = only(run_diff({"a.yaml": weather()}, {"a.yaml": weather(tag)}))
    assert (change.pointer, change.change, change.effect) == (
        None,
        'x-owner: "weather-team" added',
        "annotation",
    )


def test_the_same_tool_twice_on_one_side_is_an_error() -> None:
    report = diff.diff({"a.yaml": weather()}, {"a.yaml": weather(), "b.yaml": weather()})
    assert len(report.errors) == 1 and re.match(
        r"b\.yaml:1:7: error: tool 'get_weather' is also defined in a\.yaml", report.errors[0]
    )


# -- output formats and --fail-on ---------------------------------------------------------------


def sample_report() -> diff.Report:
    def change(data: dict) -> None:
        data["parameters"]["properties"]["city"]["maxLength"] = 50
        data["parameters"]["properties"]["unit"]["enum"].append("k")
        data["parameters"]["properties"]["city"]["description"] = "City | town"

    return run_diff(
        {"contracts/get_weather.yaml": weather(city(maxLength=100))},
        {"contracts/get_weather.yaml": weather(change)},
    )


def test_markdown_is_a_pull_request_comment() -> None:
    text = diff.format_markdown(sample_report())
    lines = text.splitlines()
    assert lines[0] == "## toolshape diff"
    assert (
        lines[2]
        == "**1 breaking, 1 widening, 0 both, 0 equivalent, 1 annotation, 0 not determined (1 tool changed, 0 added, 0 removed)**"
    )
    assert "### `get_weather` (changed)" in lines
    table = [line for line in lines if line.startswith("| `/")]
    assert len(table) == 3
    for row in table:  # four cells each: a pipe inside a value is escaped
        assert len(re.split(r"(?<!\\)\|", row)) == 6, row
    assert any("**breaking**" in row and "maxLength at /city" in row for row in table)
    assert any(
        '`{"city": ' in row and '"unit": "k"}`' in row and "**widening**" in row for row in table
    )
    assert "City \\| town" in text


def test_json_lists_every_change_with_its_witness() -> None:
    items = json.loads(diff.format_json(sample_report()))
    assert [
        set(i) >= {"tool", "pointer", "change", "effect", "witness", "old_status", "new_status"}
        for i in items
    ] == [True] * 3
    by_pointer = {i["pointer"]: i for i in items}
    tight = by_pointer["/properties/city/maxLength"]
    assert (tight["effect"], tight["old_status"], tight["new_status"]) == (
        "breaking",
        "accept",
        "reject",
    )
    assert 50 < len(tight["witness"]["city"]) <= 100  # whole, never shortened
    assert tight["witnesses"][0]["new_errors"] == [{"path": "/city", "code": "maxLength"}]
    assert by_pointer["/properties/city/description"]["witness"] is None


def test_text_shortens_long_strings_and_ends_with_a_summary() -> None:
    text = diff.format_text(sample_report())
    first = next(line for line in text.splitlines() if "/maxLength" in line)
    assert first.startswith(
        'get_weather /properties/city/maxLength: 100 -> 50 -> breaking; witness {"city": '
    )
    assert re.search(
        r'\.\.\." \(5[1-9] chars\)|\.\.\." \([6-9]\d chars\)|\.\.\." \(100 chars\)', first
    ), first
    assert text.splitlines()[-1].startswith("1 breaking, 1 widening")


@pytest.mark.parametrize(
    ("effects", "fail_on", "expected"),
    [
        ((), "any", False),
        (("annotation",), "breaking", False),
        (("annotation",), "widening", False),
        (("annotation",), "any", True),
        (("widening",), "breaking", False),
        (("widening",), "widening", True),
        (("breaking",), "breaking", True),
        (("breaking",), "widening", False),
        (("both",), "breaking", True),
        (("both",), "widening", True),
        (("undetermined",), "breaking", True),
        (("undetermined",), "widening", True),
        (("breaking", "widening"), None, False),
    ],
)
def test_should_fail(effects: tuple[str, ...], fail_on: str | None, expected: bool) -> None:
    changes = [diff.Change("t", "/x", "c", effect) for effect in effects]
    assert diff.should_fail(changes, fail_on) is expected


def test_should_fail_refuses_an_unknown_value() -> None:
    with pytest.raises(UsageError):
        diff.should_fail([], "everything")


# -- the command line: folders and git ----------------------------------------------------------


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    for name, raw in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(raw)


def cli(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    parser = diff.add_arguments(argparse.ArgumentParser(prog="toolshape diff"))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0), "", ""
    out, err = io.StringIO(), io.StringIO()
    code = diff.run(args, stdout=out, stderr=err, cwd=cwd)
    return code, out.getvalue(), err.getvalue()


def test_folders_exit_codes_and_formats(tmp_path: Path) -> None:
    write_tree(tmp_path / "old", {"get_weather.yaml": weather(city(maxLength=100))})
    write_tree(
        tmp_path / "new",
        {"tools/get_weather.yaml": weather(city(maxLength=50)), "notes.txt": b"not a contract"},
    )
    code, out, _ = cli(["old", "new"], tmp_path)
    assert code == 0 and out.startswith(
        "get_weather /properties/city/maxLength: 100 -> 50 -> breaking; witness"
    )
    assert cli(["old", "new", "--fail-on", "breaking"], tmp_path)[0] == 1
    assert cli(["old", "new", "--fail-on", "widening"], tmp_path)[0] == 0
    code, out, _ = cli(["old", "new", "--format", "json", "--fail-on", "any"], tmp_path)
    assert code == 1 and json.loads(out)[0]["effect"] == "breaking"
    code, out, _ = cli(
        ["old/get_weather.yaml", "new/tools/get_weather.yaml", "--format", "markdown"], tmp_path
    )
    assert code == 0 and out.startswith("## toolshape diff")
    assert cli(["old", "old", "--fail-on", "any"], tmp_path)[:2] == (0, "no changes\n")


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    write_tree(tmp_path / "old", {"a.yaml": weather()})
    assert cli(["old"], tmp_path)[0] == 2
    assert cli(["old", "missing"], tmp_path)[0] == 2
    assert cli(["old", "old", "--format", "html"], tmp_path)[0] == 2
    assert cli(["old", "old", "--fail-on", "some"], tmp_path)[0] == 2
    code, _, err = cli(["--base", "HEAD", "old"], tmp_path)  # not a git work tree
    assert code == 2 and "git" in err
    assert diff.main(["--format", "nope"]) == 2


def test_a_broken_new_side_exits_1_and_prints_the_position(tmp_path: Path) -> None:
    write_tree(tmp_path / "old", {"a.yaml": weather()})
    write_tree(
        tmp_path / "new",
        {
            "a.yaml": b"name: get_weather\ndescription: x\nparameters: {type: object, properties: {a: {type: strin}}}\n"
        },
    )
    code, out, err = cli(["old", "new", "--format", "json"], tmp_path)
    assert code == 1
    assert re.search(r"new/a\.yaml:3:\d+: error: ", err)
    assert json.loads(out)[-1]["effect"] == "error"


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")

    def git(*args: str) -> None:
        subprocess.run(
            [
                "git",
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "-c",
                "commit.gpgsign=false",
                *args,
            ],
            cwd=tmp_path,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    write_tree(
        tmp_path / "contracts",
        {
            "get_weather.yaml": weather(city(maxLength=100)),
            "billing/old_tool.yaml": weather(lambda d: d.update(name="old_tool")),
        },
    )
    (tmp_path / "README").write_text("x")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    git("tag", "base")
    (tmp_path / "contracts" / "billing" / "old_tool.yaml").unlink()

    def add_k(data: dict) -> None:
        data["parameters"]["properties"]["city"]["maxLength"] = 100
        data["parameters"]["properties"]["unit"]["enum"].append("k")

    write_tree(tmp_path / "contracts", {"get_weather.yaml": weather(add_k)})
    return tmp_path


def test_read_git_reads_the_old_side_at_a_revision(repo: Path) -> None:
    files = diff.read_git("base", "contracts", cwd=repo)
    assert sorted(files) == [
        "base:contracts/billing/old_tool.yaml",
        "base:contracts/get_weather.yaml",
    ]
    assert files["base:contracts/get_weather.yaml"] == weather(city(maxLength=100))
    assert diff.read_git("base", "contracts/get_weather.yaml", cwd=repo / "contracts" / "..") == {
        "base:contracts/get_weather.yaml": weather(city(maxLength=100))
    }
    assert diff.read_git("base", "nothing-here", cwd=repo) == {}
    with pytest.raises(UsageError):
        diff.read_git("no-such-rev", "contracts", cwd=repo)
    with pytest.raises(UsageError):
        diff.read_git("--output=/tmp/x", "contracts", cwd=repo)


def test_base_rev_in_ci(repo: Path) -> None:
    code, out, _ = cli(["--base", "base", "--fail-on", "widening"], repo)
    assert code == 1, out
    lines = out.splitlines()
    assert lines[0].startswith(
        'get_weather /properties/unit/enum: value "k" added -> widening; witness {"city": '
    )
    assert lines[1].startswith(
        "old_tool (tool): tool removed (was base:contracts/billing/old_tool.yaml) -> breaking; witness"
    )
    assert cli(["--base", "base", "contracts", "--fail-on", "breaking"], repo)[0] == 1
    assert cli(["--base", "base", "a", "b"], repo)[0] == 2
    assert (
        cli(["--base", "HEAD", "--fail-on", "any"], repo)[0] == 1
    )  # the working tree differs from HEAD too


# -- diff over every example contract -------------------------------------------------------------


@dataclass
class Edit:
    """One single-keyword (or single-property) edit of a contract."""

    original: bytes  # the contract before the edit (dumped)
    name: str
    data: Any  # the edited contract data
    keys: tuple[str, ...]  # the property keys whose regions may change
    constraint: (
        bool  # a single constraint: the generated diff must stay within MAX_CONSTRAINT_LINES
    )
    expect: tuple[str, ...] = ()  # the effects diff may report for the edited place


def property_sites(parameters: Any) -> list[tuple[tuple, str, dict]]:
    """(schema path, key, schema) of every property at every depth, top level first."""
    found: list[tuple[tuple, str, dict]] = []
    queue: list[tuple[tuple, Any]] = [((), parameters)]
    while queue:
        path, schema = queue.pop(0)
        if not isinstance(schema, dict):
            continue
        for key, sub in (schema.get("properties") or {}).items():
            found.append((path + ("properties", key), key, sub))
            queue.append((path + ("properties", key), sub))
        for keyword in ("items", "additionalProperties", "contains", "not", "if", "then", "else"):
            if isinstance(schema.get(keyword), dict):
                queue.append((path + (keyword,), schema[keyword]))
        for keyword in ("allOf", "anyOf", "oneOf", "prefixItems"):
            for i, sub in enumerate(schema.get(keyword) or []):
                queue.append((path + (keyword, i), sub))
        for name, sub in (schema.get("$defs") or {}).items():
            queue.append((path + ("$defs", name), sub))
    return found


def at(data: Any, path: tuple) -> Any:
    node = data["parameters"]
    for step in path:
        node = node[step]
    return node


def valid(data: Any) -> bool:
    """The edited contract checks, and its examples still behave as declared (by the reference
    evaluator: cheap enough for collection; the tests then generate the module for real)."""
    try:
        checked = contract.check(source.load(dump(data), "x.yaml"))
    except ContractError:
        return False
    for example in checked.examples:
        if example.status == "parse_error":
            continue
        value = example.args if example.has_args else json.loads(example.json or "null")
        errors = reference.evaluate(checked.parameters, value)
        if ("reject" if errors else "accept") != example.status:
            return False
        if example.errors is not None and set(example.errors) != errors:
            return False
    return True


_MODULES: dict[bytes, str] = {}


def module_source(raw: bytes) -> str:
    """pipeline.generate()'s module_source, without rendering its tests (see the test below)."""
    if raw not in _MODULES:
        _MODULES[raw] = pipeline.generate_module(
            raw, "contracts/x.yaml", PurePosixPath("x.yaml"), ENV
        ).source
    return _MODULES[raw]


def first_valid(data: Any, path: tuple, keyword: str, values: list) -> Any:
    for value in values:
        trial = copy.deepcopy(data)
        at(trial, path)[keyword] = value
        if valid(trial):
            return trial, value
    return None, None


def rename_property(data: Any, old: str, new: str) -> Any:
    data = copy.deepcopy(data)
    params = data["parameters"]
    params["properties"] = {(new if k == old else k): v for k, v in params["properties"].items()}
    if "required" in params:
        params["required"] = [new if k == old else k for k in params["required"]]
    for example in data.get("examples") or []:
        if isinstance(example.get("args"), dict):
            example["args"] = {(new if k == old else k): v for k, v in example["args"].items()}
        if "json" in example and example.get("status") != "parse_error":
            try:
                decoded = json.loads(example["json"])
            except ValueError:
                decoded = None
            if isinstance(decoded, dict) and old in decoded:
                example["json"] = json.dumps(
                    {(new if k == old else k): v for k, v in decoded.items()}, ensure_ascii=False
                )
        for error in example.get("errors") or []:
            if error["path"] == f"/{old}" or error["path"].startswith(f"/{old}/"):
                error["path"] = f"/{new}" + error["path"][len(old) + 1 :]
    return data


def edits(path: Path) -> list[Edit]:
    """The single-keyword edits that apply to one contract (each keeps the contract valid)."""
    data = load_data(path)
    original = dump(data)
    sites = property_sites(data["parameters"])
    found: list[Edit] = []

    def site_with(test: Callable[[dict], bool]) -> tuple[tuple, str, dict] | None:
        return next((s for s in sites if isinstance(s[2], dict) and test(s[2])), None)

    site = site_with(lambda s: is_integer(s.get("maxLength")))
    if site:
        n = int(site[2]["maxLength"])
        low = int(site[2].get("minLength", 0))
        edited, value = first_valid(
            data, site[0], "maxLength", [max(n // 2, low, 1), n - 1, n + 10]
        )
        if edited is not None:
            found.append(
                Edit(
                    original,
                    f"maxLength {n} -> {value} on {site[1]}",
                    edited,
                    (site[1],),
                    True,
                    ("breaking" if value < n else "widening",),
                )
            )
    site = site_with(lambda s: is_number(s.get("minimum")))
    if site:
        m = site[2]["minimum"]
        step = site[2].get(
            "multipleOf", 1
        )  # a bound moved by less than the step may let no new value through
        edited, value = first_valid(
            data, site[0], "minimum", [m + step, m - step, m + 10 * step, m - 10 * step]
        )
        if edited is not None:
            found.append(
                Edit(
                    original,
                    f"minimum {m} -> {value} on {site[1]}",
                    edited,
                    (site[1],),
                    True,
                    ("breaking" if value > m else "widening",),
                )
            )
    site = site_with(
        lambda s: isinstance(s.get("enum"), list) and any(isinstance(v, str) for v in s["enum"])
    )
    if site:
        edited, _ = first_valid(data, site[0], "enum", [[*site[2]["enum"], "zz-added"]])
        if edited is not None:
            found.append(
                Edit(
                    original,
                    f"enum member added on {site[1]}",
                    edited,
                    (site[1],),
                    True,
                    ("widening",),
                )
            )
    site = site_with(lambda s: isinstance(s.get("pattern"), str))
    if site:
        p = site[2]["pattern"]
        edited, _ = first_valid(data, site[0], "pattern", [f"(?:{p})|^zz-added$"])
        if edited is not None:
            found.append(
                Edit(
                    original,
                    f"pattern changed on {site[1]}",
                    edited,
                    (site[1],),
                    True,
                    ("widening", "equivalent"),
                )
            )
            # equivalent: the node's own length bounds refuse every string the alternative adds
    top = list(data["parameters"].get("properties") or {})
    text = json.dumps(data["parameters"])
    required = data["parameters"].get("required") or []
    renamable = [k for k in top if text.count(json.dumps(k)) == 1 + (k in required)]
    if renamable:
        key = renamable[-1]
        edited = rename_property(data, key, key + "_renamed")
        if valid(edited):
            found.append(
                Edit(original, f"property {key} renamed", edited, (key, key + "_renamed"), False)
            )
    if len(top) >= 2:
        edited = copy.deepcopy(data)
        props = edited["parameters"]["properties"]
        order = [top[1], top[0], *top[2:]]
        edited["parameters"]["properties"] = {k: props[k] for k in order}
        if valid(edited):
            found.append(
                Edit(
                    original,
                    f"properties {top[0]} and {top[1]} swapped",
                    edited,
                    (top[0], top[1]),
                    False,
                    ("annotation",),
                )
            )
    if top:
        closed = data["parameters"].get("additionalProperties") is False
        for where in ("first", "last"):
            edited = add_property(data, ADDED_KEY, ADDED_SCHEMA, first=where == "first")
            if valid(edited):
                found.append(
                    Edit(
                        original,
                        f"property {ADDED_KEY} added {where}",
                        edited,
                        (ADDED_KEY,),
                        False,
                        ("widening",) if closed else (),
                    )
                )
    return found


#: The optional property the "added" edits insert: its own block, schema entry and TypedDict field.
ADDED_KEY = "zz_added"
ADDED_SCHEMA = {
    "type": "array",
    "items": {"type": "object", "properties": {"key": {"type": "string", "maxLength": 10}}},
    "maxItems": 3,
}


def add_property(data: Any, key: str, schema: dict, first: bool) -> Any:
    data = copy.deepcopy(data)
    props = data["parameters"]["properties"]
    data["parameters"]["properties"] = {key: schema, **props} if first else {**props, key: schema}
    return data


def edit_cases() -> list[Any]:
    found = []
    for path, name in zip(CONTRACT_FILES, CONTRACT_IDS, strict=False):
        try:
            cases = edits(path)
        except ContractError:
            continue  # a broken contract is another test's business
        for edit in cases:
            found.append(pytest.param(path, edit, id=f"{name}: {edit.name}"))
    return found


EDIT_CASES = edit_cases()


def test_every_contract_gets_the_basic_edits() -> None:
    names = {p.id.split(": ", 1)[1].split(" on ")[0].split(" ")[0] for p in EDIT_CASES}
    assert {"maxLength", "minimum", "enum", "pattern", "property", "properties"} <= names


def test_module_shortcut_matches_pipeline_generate() -> None:
    raw = dump(load_data(ROOT / "contracts" / "get_weather.yaml"))
    assert (
        module_source(raw)
        == pipeline.generate(raw, "contracts/x.yaml", PurePosixPath("x.yaml"), ENV).module_source
    )


@pytest.mark.parametrize("path", CONTRACT_FILES, ids=CONTRACT_IDS)
def test_diff_reports_each_single_edit_with_a_checked_witness(path: Path) -> None:
    """All the edits of one contract at once: each edited place is reported, every witness holds."""
    original = dump(load_data(path))
    for edit in [e for e in edits(path) if e.expect]:
        report = run_diff({"old.yaml": original}, {"new.yaml": dump(edit.data)})
        assert not report.errors and not report.notes, (edit.name, report.errors, report.notes)
        effects = {c.effect for c in report.changes if c.pointer is not None}
        assert effects and effects <= set(edit.expect), (
            edit.name,
            [(c.pointer, c.change, c.effect) for c in report.changes],
        )


# -- generated diffs a reviewer can read -----------------------------------------------------------

#: A single constraint change touches at most this many lines besides the hash line (one of
#: them may be an import: `import re` when the module's first regex arrives).
MAX_CONSTRAINT_LINES = 13


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def logical_lines(lines: list[str]) -> list[int]:
    """For each physical line, the index of the first line of its logical line (black wraps
    statements over several lines; a statement is allowed to change as a whole)."""
    starts = list(range(len(lines)))
    text = "\n".join(lines) + "\n"
    first, depth = 0, 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
            elif token.type == tokenize.NEWLINE or (token.type == tokenize.NL and depth == 0):
                end = token.end[0] - 1
                for i in range(first, min(end + 1, len(lines))):
                    starts[i] = first
                first = end + 1
    except (tokenize.TokenError, IndentationError):
        pass
    return starts


def property_spans(raw: bytes, keys: tuple[str, ...]) -> list[range]:
    """The contract lines of every property named by ``keys``, at any depth."""
    document = source.load(raw, "contracts/x.yaml")
    spans = []
    for path in document.value_positions:
        if (
            len(path) >= 3
            and path[0] == "parameters"
            and path[-2] == "properties"
            and path[-1] in keys
        ):
            lines = [
                line
                for where in (document.value_positions, document.key_positions)
                for sub, (line, _) in where.items()
                if sub[: len(path)] == path
            ]
            spans.append(range(min(lines), max(lines) + 1))
    return spans


_LINE_REF = re.compile(r"contracts/x\.yaml:(\d+)")


def allowed_lines(
    lines: list[str], keys: tuple[str, ...], spans: list[range], helpers: bool, typed_dicts: bool
) -> set[int]:
    """Indexes of lines an edit of these properties may change."""
    allowed = {
        i
        for i, line in enumerate(lines)
        if line.startswith(("# contract-sha256:", "# output-sha256:"))
    }
    for i, line in enumerate(
        lines
    ):  # code made for the property's own schema (at any depth): by its line reference
        match = _LINE_REF.search(line)
        if match and any(int(match.group(1)) in span for span in spans):
            allowed.add(i)
            if (
                line.startswith("# contracts/")
                and i + 1 < len(lines)
                and lines[i + 1].startswith("class ")
            ):
                j = (
                    i + 1
                )  # a TypedDict of the property's object: the class, down to the next comment
                while j < len(lines) and not lines[j].startswith("# "):
                    allowed.add(j)
                    j += 1
            if (
                line.lstrip().startswith("# contracts/")
                and i > 0
                and lines[i - 1].startswith("def ")
            ):
                allowed.add(
                    i - 1
                )  # the def line of a function whose comment points into the property
    types_start = next(
        (
            i
            for i, line in enumerate(lines)
            if line.startswith("# -- The accepted arguments, as types")
        ),
        0,
    )
    types_end = next((i for i, line in enumerate(lines) if line.startswith("class Result(")), 0)
    # The imports name what the checks use (re for a pattern, a runtime helper for an enum...):
    # an edit that adds or removes the only check of a kind adds or removes its import.
    imports_end = next((i for i, line in enumerate(lines) if line.startswith("TOOL_NAME = ")), 0)
    allowed |= {
        i
        for i in range(imports_end)
        if lines[i].startswith(("import ", "from ", "    ")) or lines[i] == ")"
    }
    for key in keys:
        quoted = json.dumps(key)
        comment = re.compile(r"^(\s*)# " + re.escape(key) + r": (required|optional)\b")
        upper = "_" + re.sub(r"[^A-Za-z0-9]+", "_", key).upper()
        # constants and functions are named for their place in the schema: the key is a word of the name
        word = re.sub(r"[^A-Za-z0-9]+", "_", key)
        named = re.compile(
            rf"\b_(?:[A-Z0-9]+_)*{word.upper()}(?:_[A-Z0-9]+)*\b|\b_check_(?:[a-z0-9]+_)*{word.lower()}(?:_[a-z0-9]+)*\b"
        )
        for i, line in enumerate(lines):
            match = comment.match(line)
            if match:  # the property's block: its comment, down to the next comment at its level
                width = len(match.group(1))
                allowed.add(i)
                j = i + 1
                while (
                    j < len(lines)
                    and lines[j].strip()
                    and (
                        _indent(lines[j]) > width
                        or (_indent(lines[j]) == width and not lines[j].lstrip().startswith("#"))
                    )
                ):
                    allowed.add(j)
                    j += 1
            # a line naming the key: an INPUT_SCHEMA entry, a TypedDict field, a constant or function of the property
            if (
                quoted in line
                or re.match(rf"\s+{re.escape(key)}: ", line)
                or re.match(rf"{re.escape(upper)}(_[A-Z0-9_]+)?\b", line)
                or line.startswith(f"def _check{upper.lower()}")
                or named.search(line)
                # an error path ending in the key ("/key"): the block comment above names a long key only in part
                or f'/{key.replace("~", "~0").replace("/", "~1")}"' in line
            ):
                allowed.add(i)
                if line.rstrip().endswith(
                    ("{", "[", "(")
                ):  # an entry spread over lines: down to its closing bracket
                    j = i + 1
                    while j < len(lines) and not (
                        _indent(lines[j]) <= _indent(line) and lines[j].strip()[:1] in ")]}"
                    ):
                        allowed.add(j)
                        j += 1
                    allowed.add(j)
    if helpers:  # the shared constant for '\S' appears or goes with the last pattern that needs it
        for i, line in enumerate(lines):
            if line.startswith("_WHITESPACE = "):
                allowed.update(
                    (i - 1, i) if lines[i - 1].startswith("# ") else (i,)
                )  # with its comment
    if typed_dicts:  # a key added or removed may reshape its object's TypedDict (total=False split)
        allowed.update(
            i
            for i in range(types_start, types_end)
            if not lines[i].strip()
            or lines[i].startswith(("class ", "_"))
            or lines[i].strip().startswith('"""')
        )
    starts = logical_lines(lines)
    whole = {s for i, s in enumerate(starts) if i in allowed}
    return allowed | {i for i, s in enumerate(starts) if s in whole}


def stray_lines(before: str, after: str, edit: Edit) -> list[str]:
    """The changed lines an edit of ``edit.keys`` has no reason to change.

    A replaced line is fine when its own side allows it, or when the whole other side of
    its hunk is allowed (the new version of a line that names the key, say).
    """
    a, b = before.splitlines(), after.splitlines()
    helpers = edit.name.startswith("pattern")
    typed = not edit.constraint
    allowed_a = allowed_lines(
        a, edit.keys, property_spans(edit.original, edit.keys), helpers, typed
    )
    allowed_b = allowed_lines(
        b, edit.keys, property_spans(dump(edit.data), edit.keys), helpers, typed
    )
    # Matched with the old side's contract line references moved where the edit moved those
    # lines: a comment "# contracts/x.yaml:52" of one constant must not pair with the same
    # text that now names another (which makes a constant look moved when nothing moved).
    mapping = line_map(edit.original, dump(edit.data))
    shifted = [
        _LINE_REF.sub(lambda m: f"contracts/x.yaml:{mapping.get(int(m.group(1)), 0)}", line)
        for line in a
    ]
    matcher = difflib.SequenceMatcher(None, shifted, b, autojunk=False)
    stray = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        old_ok = all(i in allowed_a for i in range(i1, i2))
        new_ok = all(j in allowed_b for j in range(j1, j2))
        old_heads = {_head(a[i]) for i in range(i1, i2) if i in allowed_a}
        new_heads = {_head(b[j]) for j in range(j1, j2) if j in allowed_b}
        stray += [
            f"-{i + 1}: {a[i]}"
            for i in range(i1, i2)
            if i not in allowed_a
            and not (tag == "replace" and (new_ok or _head(a[i]) in new_heads))
        ]
        stray += [
            f"+{j + 1}: {b[j]}"
            for j in range(j1, j2)
            if j not in allowed_b
            and not (tag == "replace" and (old_ok or _head(b[j]) in old_heads))
        ]
    # A line that is only a closing bracket says nothing by itself (the lines of its statement
    # are checked), and difflib pairs identical ones with whichever statement is nearest.
    stray = [line for line in stray if line.split(": ", 1)[1].strip() not in _CLOSING]
    return without_shifted_references(stray, edit.original, dump(edit.data))


_CLOSING = {")", "]", "}", "),", "],", "},", "):"}


def line_map(before: bytes, after: bytes) -> dict[int, int]:
    """Contract line numbers (1-based) of unchanged lines: where each one is after the edit."""
    a, b = before.decode().splitlines(), after.decode().splitlines()
    mapping = {}
    for i1, j1, size in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        mapping.update({i1 + k + 1: j1 + k + 1 for k in range(size)})
    return mapping


def without_shifted_references(stray: list[str], before: bytes, after: bytes) -> list[str]:
    """Drop the pairs of stray lines that differ only in a contract line reference, where the
    new number is exactly where the edit moved the old line. A comment names its contract
    line, so lines inserted above it move the reference; nothing else on the line may change."""
    mapping = line_map(before, after)

    def text(line: str) -> str:
        return line.split(": ", 1)[1]

    added: dict[str, list[int]] = {}
    for i, line in enumerate(stray):
        if line.startswith("+"):
            added.setdefault(text(line), []).append(i)
    dropped = set()
    for i, line in enumerate(stray):
        if line.startswith("-"):
            old = text(line)
            moved = _LINE_REF.sub(
                lambda m: f"contracts/x.yaml:{mapping.get(int(m.group(1)), 0)}", old
            )
            if moved != old and added.get(moved):
                dropped |= {i, added[moved].pop(0)}
    return [line for i, line in enumerate(stray) if i not in dropped]


def _head(line: str) -> str:
    """The name a statement starts with (``_VALUE_KEYS`` of ``_VALUE_KEYS: frozenset[str] = ...``), or the line."""
    match = re.match(r"(_[A-Z0-9_]+)\b", line)
    return match.group(1) if match else line


def why(stray: list[str]) -> str:
    """What the stray lines have in common: a shifted contract line number, renumbered names, a moved line."""
    removed = [line.split(": ", 1)[1] for line in stray if line.startswith("-")]
    added = [line.split(": ", 1)[1] for line in stray if line.startswith("+")]
    refs = names = moved = 0
    for old in removed:
        if old in added:
            moved += 1
        elif any(_LINE_REF.sub("N", old) == _LINE_REF.sub("N", new) for new in added):
            refs += 1
        elif any(
            re.sub(r"_\d+\b", "", _LINE_REF.sub("N", old))
            == re.sub(r"_\d+\b", "", _LINE_REF.sub("N", new))
            for new in added
        ):
            names += 1
    return f"{refs} differ only in a contracts/...:line reference, {names} in a renumbered name (i -> i_2), {moved} moved unchanged"


def touched_lines(before: str, after: str) -> int:
    """Lines changed (the larger side of each hunk), besides the hash line."""
    a, b = before.splitlines(), after.splitlines()
    touched = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            hashes = sum(
                1
                for line in a[i1:i2]
                if line.startswith(("# contract-sha256:", "# output-sha256:"))
            )
            touched += max(i2 - i1, j2 - j1) - hashes
    return touched


@pytest.mark.parametrize(("path", "edit"), EDIT_CASES)
def test_generated_diff_of_a_single_edit_is_small_and_local(path: Path, edit: Edit) -> None:
    before = module_source(edit.original)
    after = module_source(dump(edit.data))
    touched = touched_lines(before, after)
    assert touched > 0
    stray = stray_lines(before, after, edit)
    assert not stray, (
        f"{edit.name}: {len(stray)} changed lines outside the edited property's places "
        f"(of the {sum(1 for line in stray if line.startswith('-'))} removed: {why(stray)}):\n"
        + "\n".join(line[:160] for line in stray[:24])
    )
    if edit.constraint:
        assert touched <= MAX_CONSTRAINT_LINES, f"{edit.name}: {touched} lines changed"


#: Lines of a generated tests file that hold the base arguments, or text made from them, or the
#: schema (SCHEMA, and the recorded tool definitions of the header).
_BASE_LINES = re.compile(
    r"""^(# (contract|output)-sha256: |# definition |# refused |BASE = |VALID_TEXT = |SCHEMA = |    \[\{|    '\{|    \(["']cut off at the end["'], |    \(["']byte order mark["'], )"""
)


@pytest.mark.parametrize(
    ("path", "edit"), [p for p in EDIT_CASES if f"property {ADDED_KEY} added" in p.id]
)
def test_a_property_added_adds_test_rows_without_rewriting_the_others(
    path: Path, edit: Edit
) -> None:
    """Derived cases are written as changes to BASE: adding a property changes the base (and
    the texts made from it) and adds the property's own rows; every other row stays."""
    if {"minProperties", "maxProperties"} & set(load_data(path)["parameters"]):
        pytest.skip("a count bound makes the base itself, and the rows built on it, change")
    before = pipeline.generate(
        edit.original, "contracts/x.yaml", PurePosixPath("x.yaml"), ENV
    ).test_source
    after = pipeline.generate(
        dump(edit.data), "contracts/x.yaml", PurePosixPath("x.yaml"), ENV
    ).test_source
    diff = list(difflib.unified_diff(before.splitlines(), after.splitlines(), lineterm="", n=0))
    removed = [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
    assert [line for line in removed if not _BASE_LINES.match(line)] == []
    rows = [line for line in added if not _BASE_LINES.match(line)]
    assert rows and all(
        f"'{ADDED_KEY}" in line or f'"{ADDED_KEY}' in line or f"/{ADDED_KEY}" in line
        for line in rows
    ), rows


def test_an_overlapping_pattern_swap_is_both_with_a_witness_each_way() -> None:
    """^x[0-9]*y$ -> ^x[a-z]*y$: "x0y" only before, "xay" only after, "xy" both (the only
    example); no small edit of "xy" reaches either side: the witnesses come from the engine."""

    def pattern(text: str) -> Callable[[dict], None]:
        def change(data: dict) -> None:
            data["parameters"]["properties"]["city"] = {"type": "string", "pattern": text}
            data["examples"] = [{"args": {"city": "xy", "unit": "c"}}]

        return change

    old, new = (
        {"a.yaml": weather(pattern("^x[0-9]*y$"))},
        {"a.yaml": weather(pattern("^x[a-z]*y$"))},
    )
    report = diff.diff(old, new)
    change = only(report)
    assert change.effect == "both"
    breaking, widening = change.witnesses
    assert re.fullmatch("x[0-9]+y", breaking.arguments["city"])
    assert re.fullmatch("x[a-z]+y", widening.arguments["city"])
    assert_witnesses_hold(report, old, new)


def test_a_format_change_is_witnessed_both_ways() -> None:
    """format: email -> format: hostname, no examples of either: the engine's samples witness it."""

    def fmt(name: str) -> Callable[[dict], None]:
        def change(data: dict) -> None:
            data["parameters"]["properties"]["city"] = {"type": "string", "format": name}
            data.pop("examples", None)

        return change

    old, new = {"a.yaml": weather(fmt("email"))}, {"a.yaml": weather(fmt("hostname"))}
    report = diff.diff(old, new)
    change = only(report)
    assert change.effect == "both"
    breaking, widening = change.witnesses
    assert "@" in breaking.arguments["city"]
    assert "@" not in widening.arguments["city"]
    assert_witnesses_hold(report, old, new)
