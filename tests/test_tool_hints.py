"""The rest of an MCP tool definition (issue 23): a contract's ``title`` and ``annotations``
(MCP's tool hints), checked at their YAML node, read by ``import``, written by the MCP export
and the package's tool lists, exposed by the generated package (``TOOL_ANNOTATIONS``,
``tool_hints``) and reviewed by ``diff``.

Every expected value is written here from MCP's specification (2025-06-18, ``ToolAnnotations``:
readOnlyHint default false, destructiveHint default true, idempotentHint default false,
openWorldHint default true), never read back from the output under test.
"""

from __future__ import annotations

import importlib
import itertools
import json
from pathlib import Path
from typing import Any

import pytest
from diff_support import compare, dump, load_data, weather
from support import ROOT
from toolshape.cli import main
from toolshape.contract import checker, source
from toolshape.contract.errors import ContractError
from toolshape.platforms import export, importer
from toolshape.review.report import should_fail

import generated

HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")


def contract_text(extra: str) -> bytes:
    return (
        "name: lookup\ndescription: Look a thing up.\n"
        + extra
        + "parameters: {type: object, additionalProperties: false}\n"
    ).encode()


def errors_of(raw: bytes) -> list[str]:
    with pytest.raises(ContractError) as raised:
        checker.check(source.load(raw, "c.yaml"))
    return [str(p) for p in raised.value.problems]


def check(raw: bytes) -> checker.Contract:
    return checker.check(source.load(raw, "c.yaml"))


# -- the contract check --------------------------------------------------------------------------


def test_title_and_hints_are_kept_as_declared() -> None:
    checked = check(
        contract_text("title: Look up\nannotations: {readOnlyHint: true, openWorldHint: false}\n")
    )
    assert checked.title == "Look up"
    assert checked.annotations == {"readOnlyHint": True, "openWorldHint": False}
    plain = check(contract_text(""))
    assert plain.title is None and plain.annotations == {}


@pytest.mark.parametrize(
    ("written", "expected"),
    [
        ("destructivehint", "did you mean 'destructiveHint'?"),
        ("readOnly", "did you mean 'readOnlyHint'?"),
        ("openWorld", "did you mean 'openWorldHint'?"),
        ("idempotent_hint", "did you mean 'idempotentHint'?"),
        (
            "sideEffects",
            "MCP's hints: readOnlyHint, destructiveHint, idempotentHint, openWorldHint",
        ),
        ("title", "'title' goes at the top level of the contract"),
    ],
)
def test_an_unknown_hint_is_an_error_at_its_key(written: str, expected: str) -> None:
    (error,) = errors_of(contract_text(f"annotations:\n  {written}: true\n"))
    assert error.startswith("c.yaml:4:3: error: ")
    assert expected in error


@pytest.mark.parametrize("value", ["'true'", "yes_please", "1", "0", "null", "[]", "{}", "1.0"])
def test_a_hint_that_is_not_a_boolean_is_an_error_at_its_value(value: str) -> None:
    # JSON's booleans only: 1 and 0 are numbers, 'true' is a string.
    (error,) = errors_of(contract_text(f"annotations:\n  readOnlyHint: {value}\n"))
    assert error.startswith("c.yaml:4:17: error: 'readOnlyHint' must be true or false, not ")


@pytest.mark.parametrize("value", ["[readOnlyHint]", "readOnlyHint", "true", "null"])
def test_annotations_that_are_not_a_mapping_are_an_error(value: str) -> None:
    (error,) = errors_of(contract_text(f"annotations: {value}\n"))
    assert error.startswith("c.yaml:3:14: error: 'annotations' must be a mapping of MCP tool hints")


@pytest.mark.parametrize("value", ["''", "'   '", "42", "true", "null", "[a]"])
def test_a_title_that_is_not_text_is_an_error(value: str) -> None:
    (error,) = errors_of(contract_text(f"title: {value}\n"))
    assert error.startswith("c.yaml:3:8: error: 'title' must be a non-empty string")


def test_every_problem_is_reported_at_once() -> None:
    raw = (
        b"name: lookup\ntitle: 7\ndescription: d\n"
        b"annotations: {readOnlyHint: 1, destructive: true}\n"
        b"parameters: {type: object, minProperties: -1}\n"
    )
    errors = errors_of(raw)
    assert [e.split(": error: ")[0] for e in errors] == [
        "c.yaml:2:8",
        "c.yaml:4:29",
        "c.yaml:4:32",
        "c.yaml:5:43",
    ], errors


@pytest.mark.parametrize(
    ("annotations", "warned"),
    [
        (
            "{readOnlyHint: true, destructiveHint: true}",
            ["c.yaml:3:52: warning: 'destructiveHint: true'"],
        ),
        (
            "{readOnlyHint: true, idempotentHint: false}",
            ["c.yaml:3:51: warning: 'idempotentHint: false'"],
        ),
        ("{readOnlyHint: true, destructiveHint: false, idempotentHint: true}", []),
        ("{readOnlyHint: false, destructiveHint: true, idempotentHint: false}", []),
        ("{destructiveHint: true}", []),
    ],
)
def test_a_hint_a_read_only_tool_overrides_is_a_warning(
    annotations: str, warned: list[str]
) -> None:
    # MCP reads destructiveHint and idempotentHint only when readOnlyHint is false.
    checked = check(contract_text(f"annotations: {annotations}\n"))
    found = [str(w) for w in checked.warnings]
    assert [w.split(" has no effect")[0] for w in found] == warned
    assert all("has no effect on a read-only tool (readOnlyHint: true)" in w for w in found)


# -- import and export ---------------------------------------------------------------------------


def mcp_tool(**fields: Any) -> dict[str, Any]:
    return {"name": "t", "description": "d", "inputSchema": {"type": "object"}, **fields}


def test_every_combination_of_hints_survives_import_and_export() -> None:
    # Each hint absent, true or false: 81 tools, each imported, checked, exported, and read by
    # the MCP SDK's own Tool model as it was listed. The SDK (with pydantic, half a second) is
    # imported here, not when every xdist worker collects this file.
    import mcp.types

    tools = []
    for i, values in enumerate(itertools.product((None, True, False), repeat=4)):
        annotations = {h: v for h, v in zip(HINTS, values, strict=True) if v is not None}
        tool = mcp_tool(name=f"t{i}", title=f"Tool {i}")
        if annotations:
            tool["annotations"] = annotations
        tools.append(tool)
    imported = importer.import_data({"tools": tools}, "tools.json")
    for contract, tool in zip(imported, tools, strict=True):
        # Only a read-only tool saying it is destructive, or not idempotent, is warned about.
        hints = tool.get("annotations", {})
        contradicted = [
            f"{contract.name}:/tools/{tool['name'][1:]}/annotations/{hint}"
            for hint, said in (("destructiveHint", True), ("idempotentHint", False))
            if hints.get("readOnlyHint") is True and hints.get(hint) is said
        ]
        assert [f"{contract.name}:{w.pointer}" for w in contract.warnings] == contradicted
        checked = checker.check(source.load(contract.yaml_text.encode(), "x.yaml"))
        definition = export.export(checked, "mcp").definition
        assert definition == {**tool, "inputSchema": {"type": "object"}}
        sdk = mcp.types.Tool.model_validate(definition)
        hints = tool.get("annotations", {})
        assert sdk.title == tool["title"]
        if not hints:
            assert sdk.annotations is None
        else:
            assert sdk.annotations is not None
            assert sdk.annotations.read_only_hint == hints.get("readOnlyHint")
            assert sdk.annotations.destructive_hint == hints.get("destructiveHint")
            assert sdk.annotations.idempotent_hint == hints.get("idempotentHint")
            assert sdk.annotations.open_world_hint == hints.get("openWorldHint")


def test_the_yaml_says_title_and_hints_beside_name_and_description() -> None:
    (imported,) = importer.import_data(
        [mcp_tool(title="Look", annotations={"openWorldHint": False, "readOnlyHint": True})], "x"
    )
    lines = imported.yaml_text.splitlines()[1:5]
    assert lines == [
        "name: t",
        "title: Look",
        "description: d",
        "annotations: {readOnlyHint: true, openWorldHint: false}",
    ]


@pytest.mark.parametrize(
    ("fields", "kept", "left_out"),
    [
        # What an SDK writes for "none" is no hint and no warning.
        ({"title": None, "annotations": None}, {}, []),
        ({"annotations": {"title": None, "readOnlyHint": None}}, {}, []),
        # MCP shows annotations.title when a tool has no title: it becomes the contract's.
        ({"annotations": {"title": "Shown"}}, {"title": "Shown"}, []),
        ({"title": "Own", "annotations": {"title": "Own"}}, {"title": "Own"}, []),
        (
            {"title": "Own", "annotations": {"title": "Other"}},
            {"title": "Own"},
            ["/tools/0/annotations/title"],
        ),
        ({"title": ""}, {}, ["/tools/0/title"]),
        ({"title": 5}, {}, ["/tools/0/title"]),
        ({"title": "a\ud800b"}, {}, ["/tools/0/title"]),
        ({"annotations": []}, {}, ["/tools/0/annotations"]),
        (
            {"annotations": {"readOnlyHint": "true", "destructiveHint": False}},
            {"annotations": {"destructiveHint": False}},
            ["/tools/0/annotations/readOnlyHint"],
        ),
        (
            {"annotations": {"openWorldHint": 1, "x-vendor": True, "readOnlyHint": True}},
            {"annotations": {"readOnlyHint": True}},
            ["/tools/0/annotations/openWorldHint", "/tools/0/annotations/x-vendor"],
        ),
    ],
)
def test_what_a_contract_cannot_keep_is_left_out_with_a_warning_at_its_place(
    fields: dict[str, Any], kept: dict[str, Any], left_out: list[str]
) -> None:
    (imported,) = importer.import_data({"tools": [mcp_tool(**fields)]}, "tools.json")
    assert {k: v for k, v in imported.data.items() if k in ("title", "annotations")} == kept
    assert [w.pointer for w in imported.warnings] == left_out
    # Each warning says what a contract keeps, so the author knows how to fix the source.
    assert all(
        "is not carried over: a contract keeps a non-empty title and the hints" in w.message
        for w in imported.warnings
    )


def test_only_the_mcp_definition_carries_title_and_hints() -> None:
    checked = check(contract_text("title: Look up\nannotations: {destructiveHint: false}\n"))
    for platform in export.PLATFORMS:
        text = json.dumps(export.export(checked, platform).definition)
        assert ("annotations" in text) == (platform == "mcp"), platform
        assert ("Look up" in text) == (platform == "mcp"), platform


def test_a_contract_title_wins_over_the_schema_title_in_the_mcp_definition() -> None:
    raw = b"name: a\ndescription: d\nparameters: {type: object, title: Schema title}\n"
    assert export.export(check(raw), "mcp").definition["title"] == "Schema title"
    raw = raw.replace(b"description", b"title: Tool title\ndescription")
    assert export.export(check(raw), "mcp").definition["title"] == "Tool title"


# -- the generated package -----------------------------------------------------------------------

#: Declared hints and the four a client reads, from MCP's defaults (a read-only tool is neither
#: destructive nor anything but idempotent: those two are meaningful only when not read-only).
PACKAGE_CASES: dict[str, tuple[dict[str, bool], tuple[bool, bool, bool, bool]]] = {
    "nothing_declared": ({}, (False, True, False, True)),
    "read_only": ({"readOnlyHint": True}, (True, False, True, True)),
    "read_only_says_destructive": (
        {"readOnlyHint": True, "destructiveHint": True, "idempotentHint": False},
        (True, False, True, True),
    ),
    "careful_writer": (
        {"destructiveHint": False, "idempotentHint": True, "openWorldHint": False},
        (False, False, True, False),
    ),
    "writer": ({"readOnlyHint": False}, (False, True, False, True)),
}


def test_the_package_exposes_each_tools_hints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = tmp_path / "tools"
    tools.mkdir()
    for name, (declared, _) in PACKAGE_CASES.items():
        data = {"name": name, "description": "d", "parameters": {"type": "object"}}
        if declared:
            data["annotations"] = declared
        (tools / f"{name}.yaml").write_bytes(dump(data))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", "")
    assert main(["generate", "tools", "--out", "hints_pkg", "-q"]) == 0, capsys.readouterr()
    monkeypatch.syspath_prepend(str(tmp_path))
    package = importlib.import_module("hints_pkg")
    assert {n: d for n, (d, _) in PACKAGE_CASES.items() if d} == package.TOOL_ANNOTATIONS
    for name, (declared, expected) in PACKAGE_CASES.items():
        assert package.tool_hints(name) == dict(zip(HINTS, expected, strict=True)), name
        listed = next(t for t in package.tool_definitions("mcp") if t["name"] == name)
        assert listed.get("annotations", {}) == declared
    for unknown in ("missing", None, ["nothing_declared"], 3):
        assert package.tool_hints(unknown) is None


def test_the_example_package_knows_which_tools_are_destructive() -> None:
    # contracts/files/edit_file.yaml declares destructiveHint: true; web_search is read-only;
    # get_weather declares nothing, so MCP's defaults hold (destructive until it says otherwise).
    assert generated.tool_hints("edit_file") == {
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": False,
    }
    assert generated.tool_hints("web_search") == {
        "readOnlyHint": True,
        "destructiveHint": False,
        "idempotentHint": True,
        "openWorldHint": True,
    }
    assert "get_weather" not in generated.TOOL_ANNOTATIONS
    assert generated.tool_hints("get_weather") == {
        "readOnlyHint": False,
        "destructiveHint": True,
        "idempotentHint": False,
        "openWorldHint": True,
    }
    for path, name in (("files/edit_file.yaml", "edit_file"), ("web_search.yaml", "web_search")):
        declared = load_data(ROOT / "contracts" / path)["annotations"]
        assert generated.TOOL_ANNOTATIONS[name] == declared
        (listed,) = (t for t in generated.tool_definitions("mcp") if t["name"] == name)
        assert listed["annotations"] == declared


# -- diff -----------------------------------------------------------------------------------------


def hinted(annotations: dict[str, bool] | None, title: str | None = None) -> dict[str, bytes]:
    def edit(data: dict[str, Any]) -> None:
        if annotations is not None:
            data["annotations"] = annotations
        if title is not None:
            data["title"] = title

    return {"contracts/get_weather.yaml": weather(edit)}


def hint_lines(old: dict[str, bytes], new: dict[str, bytes]) -> list[str]:
    report = compare(old, new)
    assert report.changed == ["get_weather"]
    assert {c.effect for c in report.changes} == {"annotation"}  # no argument changes verdict
    assert not should_fail(report.changes, "breaking")
    assert should_fail(report.changes, "any")
    return [c.change for c in report.changes]


FLAG = "a reviewer must see this: "


@pytest.mark.parametrize(
    ("before", "after", "expected"),
    [
        (
            {"destructiveHint": False},
            {"destructiveHint": True},
            "annotations destructiveHint: false -> true: " + FLAG + "the tool becomes destructive",
        ),
        (
            {"destructiveHint": False},
            None,
            "annotations destructiveHint: false -> absent (read as true): "
            + FLAG
            + "the tool becomes destructive",
        ),
        (
            {"openWorldHint": False},
            {"openWorldHint": True},
            "annotations openWorldHint: false -> true: "
            + FLAG
            + "the tool now reaches an open world",
        ),
        (
            {"idempotentHint": True},
            {"idempotentHint": False},
            "annotations idempotentHint: true -> false: "
            + FLAG
            + "the tool is no longer idempotent",
        ),
        (
            {"destructiveHint": True},
            {"destructiveHint": False},
            "annotations destructiveHint: true -> false: the tool is no longer destructive",
        ),
        (
            {"openWorldHint": True},
            None,
            "annotations openWorldHint: true -> absent (read as true) (no change for clients)",
        ),
    ],
)
def test_diff_says_which_way_a_hint_moved(
    before: dict[str, bool], after: dict[str, bool] | None, expected: str
) -> None:
    (line,) = hint_lines(hinted(before), hinted(after))
    assert line.startswith(expected), line


def test_a_tool_no_longer_read_only_is_flagged_twice() -> None:
    # Dropping readOnlyHint: true makes it a writer, and by MCP's default a destructive one.
    lines = hint_lines(hinted({"readOnlyHint": True}), hinted(None))
    assert lines[0] == "annotations readOnlyHint: true -> absent (read as false): " + FLAG + (
        "the tool is no longer read-only"
    )
    assert lines[1].startswith(
        "annotations destructiveHint: absent (read as false) -> absent (read as true): " + FLAG
    )
    assert lines[2].startswith(
        "annotations idempotentHint: absent (read as true) -> absent (read as false): " + FLAG
    )
    assert len(lines) == 3
    back = hint_lines(hinted(None), hinted({"readOnlyHint": True}))
    assert not any(FLAG in line for line in back) and len(back) == 3


def test_diff_reports_a_title_change() -> None:
    assert hint_lines(hinted(None), hinted(None, title="Weather")) == [
        'tool title changed: absent -> "Weather"'
    ]
