"""Hostile arguments (issue 5): the dispatch gate ``generated.validate_call`` survives hostile
tool names and hostile arguments.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hostile_arguments_support import (
    BY_TOOL,
    ClassRaises,
    EvilStr,
    HashableButRaises,
    Hostile,
    RaisesOnEverything,
    armed,
    check_result,
    hostile_objects,
)

import generated  # the dispatch gate

HOSTILE_NAMES: dict[str, Callable[[], Any]] = {
    "None": lambda: None,
    "42": lambda: 42,
    "bytes": lambda: b"get_weather",
    "empty": lambda: "",
    "100,000 characters": lambda: "x" * 100_000,
    "raises on everything": RaisesOnEverything,
    "hashable, eq/str/repr raise": HashableButRaises,
    "str subclass that raises": lambda: EvilStr("get_weather"),
    "__class__ raises": ClassRaises,
}


@pytest.mark.parametrize("label", list(HOSTILE_NAMES))
def test_validate_call_survives_hostile_tool_names(label: str) -> None:
    name = HOSTILE_NAMES[label]()
    try:
        result = generated.validate_call(name, "{}")
        feedback = result.feedback()
        json.dumps(result.log_record())
        repr(result)
    except Exception as exc:
        raise AssertionError(f"validate_call() or its Result raised {exc!r}") from exc
    assert result.status == "reject" and result.errors[0].code == "unknown_tool"
    assert len(feedback) < 2_000


@pytest.mark.parametrize("label", [label for label, _ in hostile_objects()])
def test_validate_call_survives_hostile_arguments(label: str) -> None:
    value = dict(hostile_objects())[label]
    try:
        with armed():
            result = generated.validate_call("get_weather", value)
            check_result(
                BY_TOOL["get_weather"],
                result,
                via="parse" if type(value) in (str, bytes, bytearray) else "gate",
            )
    except Hostile as exc:
        raise AssertionError(f"validate_call() let {exc!r} escape") from exc
