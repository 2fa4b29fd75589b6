"""What ``toolshape diff`` reports for contract changes: the effect on callers, and a
witness for every breaking or widening claim, checked here again, independently: both
contracts are generated again here and the witness is run through both validators and
the reference evaluator (``diff_support.assert_witnesses_hold``)."""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable
from typing import Any

from diff_support import (
    assert_witnesses_hold,
    city,
    compare,
    dump,
    load_data,
    only,
    rename_property,
    weather,
)
from support import ROOT
from toolshape.review import diff
from toolshape.review.report import (
    UNKNOWN_TOOL,
    Report,
    exit_code,
    format_json,
    format_text,
    should_fail,
)


def test_tightened_max_length_is_breaking_with_a_witness_between_the_bounds() -> None:
    old = {"old/get_weather.yaml": weather(city(maxLength=100))}
    new = {"new/get_weather.yaml": weather(city(maxLength=50))}
    change = only(compare(old, new))
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
    change = only(compare(old, new))
    assert change.effect == "widening"
    assert 50 < len(change.witnesses[0].arguments["city"]) <= 100
    assert change.witnesses[0].old_errors == (("/city", "maxLength"),)


def test_added_enum_value_is_widening_and_reads_as_the_issue_shows() -> None:
    def add_k(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["unit"]["enum"].append("k")

    report = compare({"get_weather.yaml": weather()}, {"get_weather.yaml": weather(add_k)})
    change = only(report)
    assert change.effect == "widening"
    assert change.witnesses[0].arguments["unit"] == "k"
    line = format_text(report).splitlines()[0]
    assert re.fullmatch(
        r'get_weather /properties/unit/enum: value "k" added -> widening; '
        r'witness \{"city": "[^"]+", "unit": "k"\} \(refused before, accepted now: enum at /unit\)',
        line,
    ), line


def test_removed_enum_value_is_breaking() -> None:
    def drop_f(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["unit"]["enum"] = ["c"]
        data["examples"] = [
            e for e in data["examples"] if '"f"' not in json.dumps(e) + e.get("json", "")
        ]

    change = only(
        compare({"a.yaml": weather()}, {"a.yaml": weather(drop_f)}), "/properties/unit/enum"
    )
    assert change.change == 'value "f" removed'
    assert change.effect == "breaking"
    assert change.witnesses[0].arguments["unit"] == "f"


def test_enum_replaced_without_overlap_is_both_with_two_witnesses() -> None:
    def replace(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["unit"]["enum"] = ["k"]
        data["examples"] = [{"args": {"city": "Oslo", "unit": "k"}}]

    change = only(
        compare({"a.yaml": weather()}, {"a.yaml": weather(replace)}), "/properties/unit/enum"
    )
    assert change.effect == "both"
    breaking, widening = change.witnesses
    assert breaking.direction == "breaking" and breaking.arguments["unit"] in ("c", "f")
    assert widening.direction == "widening" and widening.arguments["unit"] == "k"


def test_new_required_key_is_breaking_and_the_witness_leaves_it_out() -> None:
    def extra(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["country"] = {
            "type": "string",
            "minLength": 2,
            "maxLength": 2,
        }
        data["parameters"]["required"].append("country")
        data["examples"] = [e for e in data["examples"] if e.get("status") == "parse_error"]
        data["examples"].append({"args": {"city": "Oslo", "unit": "c", "country": "NO"}})

    report = compare({"a.yaml": weather()}, {"a.yaml": weather(extra)})
    required = only(report, "/required")
    assert (required.change, required.effect) == ('"country" now required', "breaking")
    assert "country" not in required.witnesses[0].arguments
    added = only(report, "/properties/country")
    assert added.effect == "widening"  # additionalProperties: false refused the key before
    assert [c.pointer for c in report.changes if c.pointer is None] == [
        None
    ]  # the examples changed


def test_new_optional_property_under_additional_properties_false_is_widening() -> None:
    def extra(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["country"] = {"type": "string", "maxLength": 2}
        data["examples"] = [e for e in data["examples"] if "country" not in json.dumps(e)]

    report = compare({"a.yaml": weather()}, {"a.yaml": weather(extra)})
    change = only(report, "/properties/country")
    assert change.effect == "widening"
    witness = change.witnesses[0]
    assert "country" in witness.arguments and witness.old_errors == (
        ("/country", "additionalProperties"),
    )


def test_renamed_property_is_breaking_and_widening_with_attributed_witnesses() -> None:
    new = rename_property(load_data(ROOT / "contracts" / "get_weather.yaml"), "city", "town")
    report = compare({"a.yaml": weather()}, {"a.yaml": dump(new)})
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
    tightened = only(compare({"a.yaml": weather()}, {"a.yaml": weather(city(pattern="^\\S"))}))
    assert (tightened.change, tightened.effect) == ("'\\S' -> '^\\S'", "breaking")
    assert tightened.witnesses[0].arguments["city"][0].isspace()
    # The same language written another way: the regex difference is empty both ways.
    same = only(compare({"a.yaml": weather()}, {"a.yaml": weather(city(pattern="[^\\s]"))}))
    assert (same.effect, same.reason) == ("equivalent", None)
    assert same.change + " -> equivalent" in format_text(Report(changes=[same]))


def test_a_pattern_alternative_is_widening_with_a_string_built_from_the_pattern() -> None:
    def codes(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["city"] = {"type": "string", "pattern": "^[A-Z]{3}$"}
        data["examples"] = [{"args": {"city": "OSL", "unit": "c"}}]

    def more_codes(data: dict[str, Any]) -> None:
        codes(data)
        data["parameters"]["properties"]["city"]["pattern"] = "^[A-Z]{3}$|^zz-[0-9]+$"

    change = only(compare({"a.yaml": weather(codes)}, {"a.yaml": weather(more_codes)}))
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
        compare({"s.yaml": dump(data)}, {"s.yaml": dump(new)}),
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
    report = compare({"d.yaml": dump(data)}, {"d.yaml": dump(new)})
    removed = only(report, "/$defs/comparison/properties/op/enum")
    assert removed.effect == "breaking"
    assert '"prefix"' in json.dumps(removed.witnesses[0].arguments)
    loosened = only(report, "/$defs/group/properties/all/maxItems")
    assert loosened.effect == "widening"


def test_annotations_are_listed_without_witnesses() -> None:
    def reword(data: dict[str, Any]) -> None:
        data["description"] = "The weather right now in one city."
        data["parameters"]["properties"]["city"]["description"] = "City name, in English"
        data["parameters"]["properties"]["unit"]["title"] = "Unit"

    report = compare({"a.yaml": weather()}, {"a.yaml": weather(reword)})
    assert [(c.pointer, c.effect) for c in report.changes] == [
        (None, "annotation"),
        ("/properties/city/description", "annotation"),
        ("/properties/unit/title", "annotation"),
    ]
    assert report.changes[1].change == '"City name" -> "City name, in English"'
    assert not should_fail(report.changes, "breaking") and should_fail(report.changes, "any")


def test_reordered_properties_are_an_annotation() -> None:
    def swap(data: dict[str, Any]) -> None:
        props = data["parameters"]["properties"]
        data["parameters"]["properties"] = {"unit": props["unit"], "city": props["city"]}

    change = only(compare({"a.yaml": weather()}, {"a.yaml": weather(swap)}))
    assert change.effect == "annotation" and change.pointer == "/properties"
    assert "city, unit -> unit, city" in change.change


def test_tools_are_matched_by_name_not_by_file() -> None:
    same = compare({"old/get_weather.yaml": weather()}, {"new/weather/current.yaml": weather()})
    assert same.changes == [] and format_text(same) == "no changes\n"

    def other_name(data: dict[str, Any]) -> None:
        data["name"] = "get_forecast"

    report = compare({"x/get_weather.yaml": weather()}, {"x/get_weather.yaml": weather(other_name)})
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
        "get_forecast": ("tool added", "widening", UNKNOWN_TOOL, "accept"),
        "get_weather": ("tool removed", "breaking", "accept", UNKNOWN_TOOL),
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
    assert exit_code(report, None) == 1
    assert error in format_text(report) and error in format_json(report)

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
    def tag(data: dict[str, Any]) -> None:
        data["x-owner"] = "weather-team"

    change = only(compare({"a.yaml": weather()}, {"a.yaml": weather(tag)}))
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


def test_an_overlapping_pattern_swap_is_both_with_a_witness_each_way() -> None:
    """^x[0-9]*y$ -> ^x[a-z]*y$: "x0y" only before, "xay" only after, "xy" both (the only
    example); no small edit of "xy" reaches either side: the witnesses come from the engine."""

    def pattern(text: str) -> Callable[[dict[str, Any]], None]:
        def change(data: dict[str, Any]) -> None:
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

    def fmt(name: str) -> Callable[[dict[str, Any]], None]:
        def change(data: dict[str, Any]) -> None:
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
