"""How ``toolshape diff`` prints what it found (text, markdown, JSON) and when it fails
(``--fail-on``): review/report.py."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from diff_support import city, compare, weather
from toolshape.contract.errors import UsageError
from toolshape.review.report import (
    Change,
    Report,
    format_json,
    format_markdown,
    format_text,
    should_fail,
)


def sample_report() -> Report:
    def change(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["city"]["maxLength"] = 50
        data["parameters"]["properties"]["unit"]["enum"].append("k")
        data["parameters"]["properties"]["city"]["description"] = "City | town"

    return compare(
        {"contracts/get_weather.yaml": weather(city(maxLength=100))},
        {"contracts/get_weather.yaml": weather(change)},
    )


def test_markdown_is_a_pull_request_comment() -> None:
    text = format_markdown(sample_report())
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
    items = json.loads(format_json(sample_report()))
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
    text = format_text(sample_report())
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
    changes = [Change("t", "/x", "c", effect) for effect in effects]
    assert should_fail(changes, fail_on) is expected


def test_should_fail_refuses_an_unknown_value() -> None:
    with pytest.raises(UsageError):
        should_fail([], "everything")
