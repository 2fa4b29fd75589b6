"""``toolshape diff`` says "effect not determined" only where a search was cut (issue 12).

A direction without a witness is ruled out only by an exhaustive search of the changed
node (the regex difference of two patterns, interval arithmetic for bounds, set
inclusion for type/enum/required). These tests pin each outcome: an equivalent rewrite is
"equivalent", a narrower pattern is breaking only, a wider one widening only, an
overlapping swap both, and a search cut by a tiny witness budget is undetermined with
the budget named as the reason.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from diff_support import assert_witnesses_hold, dump, load_data
from support import ROOT
from toolshape.review import diff
from toolshape.review.report import (
    FAIL_ON,
    REASON_BUDGET,
    REASON_MASKED,
    REASON_PATTERN,
    REASON_PLACE,
    Report,
    format_json,
    format_markdown,
    format_text,
    should_fail,
    summary,
)
from toolshape.witness import budget


def tool(city: dict[str, Any], examples: list[Any] | None = None, **extra: Any) -> bytes:
    """get_weather with its city schema replaced (and its examples, when given)."""
    data = load_data(ROOT / "contracts" / "get_weather.yaml")
    data["parameters"]["properties"]["city"] = city
    data["parameters"]["properties"].update(extra)
    if examples is not None:
        data["examples"] = examples
    return dump(data)


def compare(old: bytes, new: bytes, **options: Any) -> Report:
    report = diff.diff({"a.yaml": old}, {"a.yaml": new}, **options)
    assert_witnesses_hold(report, {"a.yaml": old}, {"a.yaml": new})
    assert not report.errors, report.errors
    return report


def changes(report: Report) -> list[tuple[str, str, str | None]]:
    return [(c.where, c.effect, c.reason) for c in report.changes]


DIGITS = [{"args": {"city": "42", "unit": "c"}}]


def test_an_equivalent_pattern_rewrite_is_equivalent_and_never_fails() -> None:
    report = compare(
        tool({"type": "string", "pattern": "^[0-9]+$"}, DIGITS),
        tool({"type": "string", "pattern": "^\\d+$"}, DIGITS),
    )
    assert changes(report) == [("/properties/city/pattern", "equivalent", None)]
    assert report.counts()["equivalent"] == 1
    for fail_on in FAIL_ON:
        assert not should_fail(report.changes, fail_on)
    assert format_text(report).splitlines()[0].endswith("-> equivalent")
    assert "1 equivalent" in summary(report)
    assert json.loads(format_json(report))[0]["effect"] == "equivalent"
    assert "| equivalent |" in format_markdown(report)


def test_a_narrower_pattern_is_breaking_only() -> None:
    report = compare(
        tool({"type": "string", "pattern": "^[0-9]+$"}, DIGITS),
        tool({"type": "string", "pattern": "^[0-5]+$"}, DIGITS),
    )
    (change,) = report.changes
    assert (change.effect, change.reason) == (
        "breaking",
        None,
    )  # widening ruled out, not just unseen
    (witness,) = change.witnesses
    assert re.fullmatch("[0-9]*[6-9][0-9]*", witness.arguments["city"])


def test_a_wider_pattern_is_widening_only() -> None:
    report = compare(
        tool({"type": "string", "pattern": "^[0-5]+$"}, DIGITS),
        tool({"type": "string", "pattern": "^[0-9]+$"}, DIGITS),
    )
    (change,) = report.changes
    assert (change.effect, change.reason) == ("widening", None)
    assert re.fullmatch("[0-9]*[6-9][0-9]*", change.witnesses[0].arguments["city"])


def test_under_not_a_narrower_pattern_widens_and_only_widens() -> None:
    """The node's polarity flips under ``not``: the narrower pattern refuses less."""
    old = tool(
        {"type": "string", "not": {"pattern": "^[0-9]+$"}}, [{"args": {"city": "x", "unit": "c"}}]
    )
    new = tool(
        {"type": "string", "not": {"pattern": "^[0-5]+$"}}, [{"args": {"city": "x", "unit": "c"}}]
    )
    (change,) = compare(old, new).changes
    assert (change.effect, change.reason) == ("widening", None)


def test_an_overlapping_pattern_swap_is_both() -> None:
    examples = [{"args": {"city": "xy", "unit": "c"}}]
    report = compare(
        tool({"type": "string", "pattern": "^x[0-9]*y$"}, examples),
        tool({"type": "string", "pattern": "^x[a-z]*y$"}, examples),
    )
    (change,) = report.changes
    assert (change.effect, change.reason) == ("both", None)
    assert [w.direction for w in change.witnesses] == ["breaking", "widening"]


def test_a_cut_search_is_undetermined_with_the_budget_named() -> None:
    old, new = (
        tool({"type": "string", "pattern": "^[0-9]+$"}, DIGITS),
        tool({"type": "string", "pattern": "^\\d+$"}, DIGITS),
    )
    report = compare(old, new, steps=1)
    assert changes(report) == [("/properties/city/pattern", "undetermined", REASON_BUDGET)]
    assert "changed, effect not determined (the witness budget ran out)" in format_text(report)
    assert "effect not determined (the witness budget ran out)" in format_markdown(report)
    assert json.loads(format_json(report))[0]["reason"] == "the witness budget ran out"
    assert should_fail(report.changes, "breaking") and should_fail(report.changes, "widening")


def test_a_pattern_search_that_does_not_finish_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """Budget left, but the regex difference ran out of its own steps: that is the reason given."""
    old, new = (
        tool({"type": "string", "pattern": "^[0-9]+$"}, DIGITS),
        tool({"type": "string", "pattern": "^\\d+$"}, DIGITS),
    )
    monkeypatch.setattr(
        budget.Budget,
        "grant",
        lambda self, wanted=1: 0 if self.exhausted else min(1, self.left),
    )
    (change,) = compare(old, new).changes
    assert (change.effect, change.reason) == ("undetermined", REASON_PATTERN)


def test_rewritten_integer_bounds_are_equivalent() -> None:
    def count(**bounds: Any) -> bytes:
        return tool(
            {"type": "string"},
            [{"args": {"city": "a", "unit": "c", "days": 3}}],
            days={"type": "integer", **bounds},
        )

    report = compare(count(minimum=1), count(exclusiveMinimum=0))
    assert [(w, e) for w, e, _ in changes(report)] == [
        ("/properties/days/minimum", "equivalent"),
        ("/properties/days/exclusiveMinimum", "equivalent"),
    ]

    # On numbers the same rewrite is not equivalent: 0.5 passes one and not the other.
    def number(**bounds: Any) -> bytes:
        return tool(
            {"type": "string"},
            [{"args": {"city": "a", "unit": "c", "days": 3}}],
            days={"type": "number", **bounds},
        )

    assert "equivalent" not in {
        e for _, e, _ in changes(compare(number(minimum=1), number(exclusiveMinimum=0)))
    }


def test_reordered_all_of_is_equivalent() -> None:
    first, second = {"pattern": "^[a-z]"}, {"maxLength": 10}
    report = compare(
        tool({"type": "string", "allOf": [first, second]}, [{"args": {"city": "ab", "unit": "c"}}]),
        tool({"type": "string", "allOf": [second, first]}, [{"args": {"city": "ab", "unit": "c"}}]),
    )
    assert changes(report) == [("/properties/city/allOf", "equivalent", None)]


def test_an_added_format_is_breaking_only() -> None:
    """Adding an assertion cannot widen: the breaking witness stands alone, no reason left open."""
    examples = [{"args": {"city": "a@b.example", "unit": "c"}}]
    (change,) = compare(
        tool({"type": "string"}, examples), tool({"type": "string", "format": "email"}, examples)
    ).changes
    assert (change.effect, change.reason) == ("breaking", None)


def test_under_one_of_a_direction_is_not_ruled_out() -> None:
    """oneOf counts matches: a narrower branch can also widen, so the other direction stays open."""
    examples = [{"args": {"city": "12", "unit": "c"}}]
    old = tool({"type": "string", "oneOf": [{"pattern": "^[0-9]+$"}, {"maxLength": 1}]}, examples)
    new = tool({"type": "string", "oneOf": [{"pattern": "^[0-5]+$"}, {"maxLength": 1}]}, examples)
    (change,) = compare(old, new).changes
    # "6" matched both branches before and only one now: widening. "66" matched one before, none now: breaking.
    assert change.effect in ("widening", "both")
    if change.effect == "widening":
        assert change.reason == "whether it is also breaking: " + REASON_PLACE


def test_a_difference_hidden_by_the_rest_of_the_node_is_not_claimed_either_way() -> None:
    """The regex difference ("6") exists, but the enum refuses it: no witness, and not equivalent."""
    examples = [{"args": {"city": "1", "unit": "c"}}]
    old = tool({"type": "string", "enum": ["1", "2"], "pattern": "^[0-9]+$"}, examples)
    new = tool({"type": "string", "enum": ["1", "2"], "pattern": "^[0-5]+$"}, examples)
    assert changes(compare(old, new)) == [
        ("/properties/city/pattern", "undetermined", REASON_MASKED)
    ]


def test_a_closed_bound_made_exclusive_on_numbers_is_breaking_only() -> None:
    def days(**bounds: Any) -> bytes:
        return tool(
            {"type": "string"},
            [{"args": {"city": "a", "unit": "c", "days": 3}}],
            days={"type": "number", **bounds},
        )

    report = compare(days(maximum=10), days(exclusiveMaximum=10))
    found = {c.pointer: c for c in report.changes}
    added = found["/properties/days/exclusiveMaximum"]
    assert (added.effect, added.reason) == ("breaking", None)
    assert added.witnesses[0].arguments["days"] == 10
    assert (
        found["/properties/days/maximum"].effect == "equivalent"
    )  # undone alone: exclusive 10 already refuses 10


@pytest.mark.parametrize(("keyword", "effect"), [("allOf", "breaking"), ("anyOf", "widening")])
def test_a_combinator_entry_added_goes_one_way_only(keyword: str, effect: str) -> None:
    """allOf [A] -> [A, B] only refuses more; anyOf [A] -> [A, B] only accepts more."""
    examples = [{"args": {"city": "ab", "unit": "c"}}]
    first, second = (
        {"maxLength": 5},
        ({"pattern": "^a"} if keyword == "allOf" else {"minLength": 8}),
    )
    old = tool({"type": "string", keyword: [first]}, examples)
    new = tool({"type": "string", keyword: [first, second]}, examples)
    (change,) = compare(old, new).changes
    assert (change.pointer, change.effect, change.reason) == (
        f"/properties/city/{keyword}/1",
        effect,
        None,
    )
