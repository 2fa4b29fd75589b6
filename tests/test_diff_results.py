"""``toolshape diff`` on a change of a tool's result schema (``output``): the same walk and
witness search as for ``parameters``, read the other way round.

A wider result (a value refused before is accepted now) breaks callers that read it; a
narrower one breaks no reader (the tool may no longer return what it now refuses). Every
witness here is run again through both sides' generated ``validate_result`` and the
reference evaluator by ``diff_support.assert_witnesses_hold``.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from diff_support import compare, dump, load_data, only
from support import ROOT
from test_diff_cli import cli, write_tree
from toolshape.review.report import (
    NO_OUTPUT,
    RESULTS,
    Change,
    format_json,
    format_markdown,
    format_text,
    should_fail,
)

Edit = Callable[[dict[str, Any]], None]

#: A tool whose result has an enum, required keys, bounds, a string that refuses null and no
#: other keys: each case below edits one of them.
ORDER: dict[str, Any] = {
    "name": "get_order",
    "description": "The state of one order.",
    "parameters": {
        "type": "object",
        "properties": {"order_id": {"type": "string", "minLength": 1}},
        "required": ["order_id"],
        "additionalProperties": False,
    },
    "output": {
        "type": "object",
        "properties": {
            "status": {"type": "string", "enum": ["pending", "shipped"]},
            "total": {"type": "number", "minimum": 0, "maximum": 1000},
            "note": {"type": "string"},
        },
        "required": ["status", "total"],
        "additionalProperties": False,
    },
}


def order(edit: Edit | None = None) -> dict[str, bytes]:
    data = copy.deepcopy(ORDER)
    if edit is not None:
        edit(data)
    return {"contracts/get_order.yaml": dump(data)}


def _output(data: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = data["output"]
    return found


def enum_value_added(data: dict[str, Any]) -> None:
    _output(data)["properties"]["status"]["enum"].append("lost")


def key_made_optional(data: dict[str, Any]) -> None:
    _output(data)["required"].remove("status")


def bound_loosened(data: dict[str, Any]) -> None:
    _output(data)["properties"]["total"]["maximum"] = 5000


def null_added(data: dict[str, Any]) -> None:
    _output(data)["properties"]["note"]["type"] = ["string", "null"]


def property_added(data: dict[str, Any]) -> None:
    _output(data)["properties"]["carrier"] = {"type": "string"}


#: Each edit widens the result (old = ORDER, new = edited), and narrows it the other way round;
#: the place of the result a caller reads, and the error the narrower side gives the witness.
WIDER_RESULTS = {
    "enum value added": (enum_value_added, "status", ("/status", "enum")),
    "key made optional": (key_made_optional, "status", ("/status", "required")),
    "bound loosened": (bound_loosened, "total", ("/total", "maximum")),
    "type widened with null": (null_added, "note", ("/note", "type")),
    "property added where additionalProperties is false": (
        property_added,
        "",
        ("/carrier", "additionalProperties"),
    ),
}


def _result_change(old: dict[str, bytes], new: dict[str, bytes]) -> Change:
    report = compare(old, new)
    assert report.changed == ["get_order"] and not report.errors and not report.notes
    change = only(report)
    assert change.flow is RESULTS and change.pointer is not None
    return change


@pytest.mark.parametrize("case", list(WIDER_RESULTS))
def test_a_wider_result_breaks_callers_that_read_it(case: str) -> None:
    edit, reads, error = WIDER_RESULTS[case]
    change = _result_change(order(), order(edit))
    assert change.effect == "breaking" and change.reads == reads
    (witness,) = change.witnesses
    assert (witness.old_status, witness.new_status) == ("reject", "accept")
    assert error in witness.old_errors and not witness.new_errors
    assert witness.direction == "breaking" and witness.flow is RESULTS


@pytest.mark.parametrize("case", list(WIDER_RESULTS))
def test_a_narrower_result_breaks_no_reader(case: str) -> None:
    edit, _, error = WIDER_RESULTS[case]
    change = _result_change(order(edit), order())
    assert change.effect == "narrowing"
    (witness,) = change.witnesses
    assert (witness.old_status, witness.new_status) == ("accept", "reject")
    assert error in witness.new_errors and not witness.old_errors
    assert witness.direction == "narrowing"


def test_a_nested_place_is_named_as_a_caller_reads_it() -> None:
    data = load_data(ROOT / "contracts" / "web_search.yaml")
    wider = copy.deepcopy(data)
    wider["output"]["properties"]["results"]["items"]["properties"]["snippet"]["maxLength"] = 2000
    old, new = {"contracts/web_search.yaml": dump(data)}, {"contracts/web_search.yaml": dump(wider)}
    change = only(compare(old, new))
    assert change.flow is RESULTS and change.effect == "breaking"
    assert change.pointer == "/properties/results/items/properties/snippet/maxLength"
    assert change.reads == "results[].snippet"
    (witness,) = change.witnesses
    assert ("/results/0/snippet", "maxLength") in witness.old_errors
    assert len(witness.arguments["results"][0]["snippet"]) > 1000


def _drop_output(data: dict[str, Any]) -> None:
    del data["output"]


def test_a_tool_that_loses_its_output_breaks_callers_that_read_the_result() -> None:
    change = _result_change(order(), order(_drop_output))
    assert change.effect == "breaking" and change.reads == "" and change.pointer == ""
    (witness,) = change.witnesses
    assert (witness.old_status, witness.new_status) == ("reject", NO_OUTPUT)
    assert witness.old_errors and witness.direction == "breaking"


def test_a_tool_that_gains_an_output_narrows_its_results() -> None:
    change = _result_change(order(_drop_output), order())
    assert change.effect == "narrowing"
    (witness,) = change.witnesses
    assert (witness.old_status, witness.new_status) == (NO_OUTPUT, "reject")
    assert witness.new_errors and witness.direction == "narrowing"


def _argument_and_result(data: dict[str, Any]) -> None:
    data["parameters"]["properties"]["order_id"]["maxLength"] = 20
    enum_value_added(data)


def test_both_sides_in_one_report_and_the_argument_side_reads_as_before() -> None:
    def argument_only(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["order_id"]["maxLength"] = 20

    alone = format_text(compare(order(), order(argument_only))).splitlines()
    report = compare(order(), order(_argument_and_result))
    lines = format_text(report).splitlines()
    assert lines[0] == alone[0]  # the argument change, word for word
    assert lines[0].startswith("get_order /properties/order_id/maxLength: 20 added -> breaking;")
    assert lines[1].startswith(
        'get_order output /properties/status/enum: value "lost" added -> breaking (breaks '
        "callers that read `status`"
    )
    assert '; witness result {"status": "lost"' in lines[1]
    assert "(refused before, accepted now: enum at /status)" in lines[1]
    assert [c.effect for c in report.changes] == ["breaking", "breaking"]


def test_markdown_and_json_say_which_side_a_change_is_on() -> None:
    report = compare(order(), order(_argument_and_result))
    markdown = format_markdown(report)
    assert "**2 breaking, 0 widening, 0 narrowing, 0 both," in markdown
    row = next(line for line in markdown.splitlines() if line.startswith("| `output "))
    assert "breaks callers that read `status`" in row and 'result `{"status": "lost"' in row
    assert "A result (`output`) flows the other way" in markdown
    argument, result = json.loads(format_json(report))
    assert "side" not in argument and "arguments" in argument["witnesses"][0]
    assert result["side"] == "result" and result["pointer"] == "/properties/status/enum"
    assert result["meaning"].startswith("breaks callers that read `status`")
    assert result["witnesses"][0]["result"]["status"] == "lost"
    assert (result["old_status"], result["new_status"]) == ("reject", "accept")


@pytest.mark.parametrize(
    ("effect", "fail_on", "expected"),
    [
        ("breaking", "breaking", True),
        ("breaking", "widening", False),
        ("narrowing", "breaking", False),
        ("narrowing", "widening", True),
        ("narrowing", "any", True),
        ("undetermined", "breaking", True),
    ],
)
def test_fail_on_reads_a_result_change_by_who_it_breaks(
    effect: str, fail_on: str, expected: bool
) -> None:
    change = Change("t", "/x", "c", effect, flow=RESULTS)
    assert should_fail([change], fail_on) is expected


def test_fail_on_breaking_fails_on_a_result_change_alone(tmp_path: Path) -> None:
    write_tree(tmp_path / "base", order())
    write_tree(tmp_path / "wider", order(enum_value_added))
    code, out, _ = cli(["base", "wider", "--fail-on", "breaking"], tmp_path)
    assert code == 1 and "breaks callers that read `status`" in out
    code, out, _ = cli(["wider", "base", "--fail-on", "breaking"], tmp_path)
    assert code == 0 and "-> narrowing" in out
    assert cli(["wider", "base", "--fail-on", "widening"], tmp_path)[0] == 1


def test_an_overlapping_pattern_swap_is_both_and_the_breaking_witness_comes_first() -> None:
    def digits(data: dict[str, Any]) -> None:
        _output(data)["properties"]["note"]["pattern"] = "^[0-9]+$"

    def hex_pairs(data: dict[str, Any]) -> None:
        _output(data)["properties"]["note"]["pattern"] = "^[0-9a-f]{2,}$"

    change = _result_change(order(digits), order(hex_pairs))
    assert change.effect == "both" and change.reads == "note"
    assert [w.direction for w in change.witnesses] == ["breaking", "narrowing"]
    assert [(w.old_status, w.new_status) for w in change.witnesses] == [
        ("reject", "accept"),
        ("accept", "reject"),
    ]
