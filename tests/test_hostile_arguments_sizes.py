"""Hostile arguments (issue 5): big and strange input stays bounded.

100,000 brackets, 10 MB, 5,000-digit integers, lone surrogates, NUL, 100,000 unknown keys, long
keys, ...: ``parse()`` answers each without a hang and with its documented code, the limits
accept what is within them, ``feedback()`` and ``log_record()`` do not grow with the input.
Timings are printed by the last test, never asserted.
"""

from __future__ import annotations

import functools
import json
import sys
import time
from collections.abc import Iterator
from typing import Any

import pytest
from differential_strategies import paths, replace
from hostile_arguments_support import (
    IDS,
    MODULE_NAMES,
    MODULES,
    TIMINGS,
    VALID,
    ClassRaises,
    EvilStr,
    Hostile,
    Nameless,
    RaisesOnEverything,
    boom,
    check_result,
    liar,
    runtime,
)
from test_handler_gets_what_was_checked import module_of
from work_counting import work


@functools.cache  # a str: built once per process, read by every module's test
def _unknown_keys_text(n: int) -> str:
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

    def name(i: int) -> str:
        out = "q"
        while True:
            i, r = divmod(i, len(alphabet))
            out += alphabet[r]
            if not i:
                return out

    return "{" + ",".join(f'"{name(i)}":0' for i in range(n)) + "}"


@functools.cache
def _big_inputs() -> tuple[tuple[str, Any], ...]:
    return (
        ("100,000 nested [", "[" * 100_000),
        ("100,000 nested [ closed", "[" * 100_000 + "]" * 100_000),
        ('100,000 nested {"a":', '{"a":' * 100_000),
        ("10 MB string", '"' + "x" * 10_000_000 + '"'),
        ("10 MB of bytes", b"[" + b"1," * 5_000_000 + b"1]"),
        ("5,000-digit integer", '{"a": ' + "9" * 5000 + "}"),
        ("5,000-digit integer, bytes", ("[" + "7" * 5000 + "]").encode()),
        ("4,300-digit integer", '{"a": ' + "9" * 4300 + "}"),
        ("1e999999", '{"a": 1e999999}'),
        ("-1e999999", "-1e999999"),
        ("1e-999999", '{"a": 1e-999999}'),
        ("lone surrogate (str)", '{"a": "\ud800"}'),
        ("lone low surrogate (str)", "\udc80"),
        ("lone surrogate as an escape", '{"a": "\\ud800"}'),
        ("surrogate pair as escapes", '{"a": "\\ud83d\\ude00"}'),
        ("UTF-8 BOM (bytes)", b'\xef\xbb\xbf{"a": 1}'),
        ("BOM (str)", '\ufeff{"a": 1}'),
        ("invalid UTF-8", b'{"a": "\xff\xfe"}'),
        ("overlong UTF-8", b'{"a": "\xc0\xaf"}'),
        ("UTF-8-encoded surrogate", b'{"a": "\xed\xa0\x80"}'),
        ("NUL bytes", b"\x00\x00\x00"),
        ("NUL in a string (raw)", '{"a": "\x00"}'),
        ("NUL escaped", '{"a": "\\u0000"}'),
        ("only NUL", "\x00"),
        ("100,000 unknown keys", _unknown_keys_text(100_000)),
        ("depth 64", "[" * 64 + "]" * 64),
        ("depth 65", "[" * 65 + "]" * 65),
        ("object depth 64", '{"a":' * 63 + "{}" + "}" * 63),
        ("object depth 65", '{"a":' * 64 + "{}" + "}" * 64),
        ("brackets inside a string", '{"a": "' + "[" * 100_000 + '"}'),
        ("just over 1 MiB of spaces", " " * (1_048_577)),
        ("1 MiB of multi-byte text", '"' + "é" * 524_300 + '"'),
        ("None", None),
        ("42", 42),
        ("a list", ['{"a": 1}']),
        ("a dict", {"a": 1}),
        ("bytearray", bytearray(b'{"a": 1}')),
        ("memoryview", memoryview(b'{"a": 1}')),
        ("a str subclass that raises", EvilStr('{"a": 1}')),
        ("a bytes subclass whose __len__ raises", type("B", (bytes,), {"__len__": boom})(b"{}")),
        (
            "a bytes subclass whose __getitem__ raises",
            type("B", (bytes,), {"__getitem__": boom})(b"{}"),
        ),
        (
            "a bytes subclass whose __bytes__ raises",
            type("B", (bytes,), {"__bytes__": boom})(b"{}"),
        ),
        ("__class__ raises", ClassRaises()),
        ("claims to be a str", liar(str)()),
        ("claims to be bytes", liar(bytes)()),
        ("type(x).__name__ raises", Nameless()),
        ("raises on everything", RaisesOnEverything()),
    )


BIG_LABELS = [label for label, _ in _big_inputs()]


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@pytest.mark.parametrize("label", BIG_LABELS)
def test_parse_survives_big_and_strange_input(module_name: str, label: str) -> None:
    module = MODULES[module_name]
    text = dict(_big_inputs())[label]
    started = time.perf_counter()
    try:
        result = module.parse(text)
    except Exception as exc:
        raise AssertionError(f"parse() raised {exc!r} for {label}") from exc
    elapsed = time.perf_counter() - started
    TIMINGS[f"parse: {label}"] = max(TIMINGS.get(f"parse: {label}", 0.0), elapsed)
    try:
        check_result(module, result, via="parse")
    except Hostile as exc:
        raise AssertionError(f"a Result method raised {exc!r} for {label}") from exc
    if type(text) not in (str, bytes, bytearray):
        assert result.status == "parse_error" and result.errors[0].code == "not_text"


EXPECTED_PARSE_CODES = {
    "100,000 nested [": "too_deep",
    "100,000 nested [ closed": "too_deep",
    "10 MB string": "too_large",
    "10 MB of bytes": "too_large",
    "5,000-digit integer": "too_large",
    "5,000-digit integer, bytes": "too_large",
    "1e999999": "too_large",
    "-1e999999": "too_large",
    "lone surrogate (str)": "encoding",
    "lone low surrogate (str)": "encoding",
    "lone surrogate as an escape": "encoding",
    "UTF-8 BOM (bytes)": "encoding",
    "BOM (str)": "encoding",
    "invalid UTF-8": "encoding",
    "overlong UTF-8": "encoding",
    "UTF-8-encoded surrogate": "encoding",
    "NUL bytes": "syntax",
    "NUL in a string (raw)": "syntax",
    "only NUL": "syntax",
    "depth 65": "too_deep",
    "object depth 65": "too_deep",
    "just over 1 MiB of spaces": "too_large",
    "1 MiB of multi-byte text": "too_large",
}


@pytest.mark.parametrize(("label", "code"), sorted(EXPECTED_PARSE_CODES.items()))
def test_parse_codes_of_strange_input(label: str, code: str) -> None:
    module = MODULES["generated.get_weather"]
    result = module.parse(dict(_big_inputs())[label])
    assert result.status == "parse_error"
    assert [e.code for e in result.errors] == [code], result.errors


@pytest.mark.parametrize(
    "label",
    [
        "depth 64",
        "object depth 64",
        "4,300-digit integer",
        "NUL escaped",
        "1e-999999",
        "surrogate pair as escapes",
    ],
)
def test_parse_accepts_what_is_within_the_limits(label: str) -> None:
    result = MODULES["generated.get_weather"].parse(dict(_big_inputs())[label])
    assert result.status == "reject", result.errors  # JSON, just not get_weather's arguments


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_100000_unknown_keys_are_capped(module_name: str) -> None:
    module = MODULES[module_name]
    text = _unknown_keys_text(100_000)
    assert len(text.encode()) <= runtime(module).MAX_TEXT_BYTES
    started = time.perf_counter()
    result = module.parse(text)
    TIMINGS["parse: 100,000 unknown keys (" + module.TOOL_NAME + ")"] = (
        time.perf_counter() - started
    )
    check_result(module, result, via="parse")
    assert result.status == "reject"
    assert len(result.errors) <= runtime(module).MAX_ERRORS
    value = {f"unknown{i}": i for i in range(100_000)}
    started = time.perf_counter()
    result = module.validate(value)
    TIMINGS["validate: 100,000 unknown keys (" + module.TOOL_NAME + ")"] = (
        time.perf_counter() - started
    )
    check_result(module, result, value)
    assert len(result.errors) <= runtime(module).MAX_ERRORS
    if module.INPUT_SCHEMA.get("additionalProperties") is False:
        assert len(result.errors) == runtime(module).MAX_ERRORS
        assert "only the first" in result.feedback()


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_feedback_does_not_grow_with_the_length_of_unknown_keys(module_name: str) -> None:
    """100 unknown keys of 100,000 characters: the feedback must stay about as long as for short keys."""
    module = MODULES[module_name]
    if module.INPUT_SCHEMA.get("additionalProperties") is not False:
        pytest.skip("the contract allows extra keys at the top level")
    base = VALID[module_name]
    short = module.validate({**base, **{f"k{i}": 1 for i in range(100)}})
    long_keys = {f"k{i}" + "x" * 100_000: 1 for i in range(100)}
    started = time.perf_counter()
    long = module.validate({**base, **long_keys})
    TIMINGS["validate: 100 unknown keys of 100,000 characters (" + module.TOOL_NAME + ")"] = (
        time.perf_counter() - started
    )
    assert len(long.errors) == len(short.errors)
    grown = len(long.feedback()) - len(short.feedback())
    assert grown <= runtime(module).MAX_ERRORS * 200, (
        f"feedback() grew by {grown:,} characters ({len(long.feedback()):,} in all) because the unknown keys are long: "
        "each path is printed whole"
    )


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_log_record_shortens_every_long_string(module_name: str) -> None:
    """README: log_record() shortens strings longer than MAX_LOGGED_CHARS: keys and error paths too."""
    module = MODULES[module_name]
    base = VALID[module_name]
    key = "k" + "x" * 100_000
    record = module.validate({**base, key: "v" * 100_000}).log_record()
    longest = max(_strings(record), key=len)
    assert len(longest) <= runtime(module).MAX_LOGGED_CHARS + 100, (
        f"log_record() holds a string of {len(longest):,} characters: {longest[:40]!r}..."
    )


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_log_record_of_a_huge_integer_is_json_serialisable(module_name: str) -> None:
    module = MODULES[module_name]
    for path in list(paths(VALID[module_name]))[1:]:
        result = module.validate(replace(VALID[module_name], path, 10**5000))
        json.dumps(result.log_record())  # ValueError: Exceeds the limit (4300 digits) ...


def _parse_text(shape: str, scale: int) -> str:
    """A text of about ``scale`` times 50 KB in the given shape, within MAX_TEXT_BYTES."""
    if shape.startswith("unterminated"):
        return '"' + '\\"' * (25_000 * scale) + "[" * 65
    doc = json.dumps(
        {"items": [{"id": i, "tags": ["a", "b"]} for i in range(3_000 * scale)]}, indent=1
    )
    return json.dumps({"path": "data.json", "edits": [{"old_text": "{}", "new_text": doc}]})[:-10]


@pytest.mark.parametrize(
    "shape",
    ["unterminated string of escaped quotes", "truncated edit_file call holding JSON text"],
)
def test_parse_cost_is_linear_in_the_text(shape: str) -> None:
    """The nesting pre-scan must not go quadratic on an unterminated string full of \\":
    four times the text, at most about four times the work (lines of Python run and characters
    read, work_counting.work: counted, not timed)."""
    from generated.files import edit_file as module

    small, large = _parse_text(shape, 1), _parse_text(shape, 4)
    assert len(large.encode()) <= runtime(module).MAX_TEXT_BYTES
    for text in (small, large):
        assert module.parse(text).status == "parse_error"
    counted = [work(functools.partial(module.parse, text)) for text in (small, large)]
    assert counted[1] <= 5 * counted[0] + 100, counted


# -- a value nested past Python's recursion limit --------------------------------------

#: A contract that recurses through every applicator a value can nest in (a property, array
#: items, other keys, a union branch), on the arguments and on the result.
RECURSIVE = {
    "type": "object",
    "properties": {
        "p": {"$ref": "#"},
        "i": {"type": "array", "items": {"$ref": "#"}},
        "u": {"anyOf": [{"type": "string"}, {"$ref": "#"}]},
    },
    "additionalProperties": {"$ref": "#"},
}


def _nested(key: str, depth: int) -> dict[str, Any]:
    """``{key: {key: ...}}`` (items: ``{"i": [{"i": [...]}]}``), ``depth`` objects deep, built
    without recursion."""
    value: dict[str, Any] = {}
    for _ in range(depth):
        value = {key: [value] if key == "i" else value}
    return value


@pytest.mark.parametrize("key", ["p", "i", "u", "other"])
def test_a_value_nested_past_the_recursion_limit_is_refused_saying_so(key: str) -> None:
    module = module_of(RECURSIVE, "recursive_" + key, output=RECURSIVE)
    deep = _nested(key, 20 * sys.getrecursionlimit())
    for check in (module.validate, module.validate_result):
        assert check(_nested(key, 100)).status == "accept"
        result = check(deep)
        assert result.value is deep
        # Its feedback, log record and repr are made without recursing down the value.
        assert len(result.feedback()) < 1000 and len(repr(result)) < 1000
        assert len(json.dumps(result.log_record())) < 10_000
        assert [(e.path, e.code) for e in result.errors] == [("", "unreadable")]
        assert "nest deeper than Python's recursion limit" in result.errors[0].message
        assert "raised" not in result.errors[0].message
