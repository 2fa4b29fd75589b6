"""The generated package's tool lists (issue 14): ``tool_definitions(platform)`` returns what
``toolshape schema --all --target PLATFORM`` prints, without toolshape and without importing
a tool module; a platform that refuses a tool gives no list, as ``schema --all`` does.

Every expected list comes from the command line (or from ``export``), never from the
generated data under test.
"""

from __future__ import annotations

import ast
import importlib
import itertools
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from support import CONTEXT, CONTRACTS, ROOT, check_example, example_contracts
from toolshape.cli import main
from toolshape.codegen import render, wrapping
from toolshape.contract import checker, source
from toolshape.contract.errors import Problem
from toolshape.platforms import export
from toolshape.project import headers, listing, pipeline, planning, writing

import generated


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": error: " in line]


@pytest.mark.parametrize("platform", export.PLATFORMS)
def test_each_platform_list_is_what_schema_all_prints(
    platform: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "schema", "--all", "--target", platform, "-q")
    if code == 0:
        assert generated.tool_definitions(platform) == json.loads(out)
        return
    # The platform refuses a tool: schema --all prints nothing, and the package has no list
    # either; its message gives every reason schema --all gives, at the same places.
    assert code == 1 and out == ""
    with pytest.raises(ValueError) as refused:
        generated.tool_definitions(platform)
    reasons = error_lines(err)
    assert reasons and str(refused.value).splitlines()[1:] == reasons


def test_one_platform_of_the_examples_refuses_and_the_others_list_every_tool() -> None:
    # What the parametrized test above meets in the example contracts (so neither branch is empty).
    checked = [check_example(p, str(p.relative_to(ROOT))) for p in example_contracts()]
    for platform in export.PLATFORMS:
        if platform == "gemini-legacy":  # recursive $refs: the legacy field has no $ref
            with pytest.raises(export.ExportError):
                export.definitions(checked, platform)
            continue
        listed = generated.tool_definitions(platform)
        assert listed == export.definitions(checked, platform)
        assert len(listed) == len(generated.TOOLS) == len(checked)


def test_an_unknown_platform_is_a_value_error_naming_the_choices() -> None:
    for wrong in ("openai-chat", "OpenAI", "", ["openai"], None):
        with pytest.raises(ValueError) as raised:
            generated.tool_definitions(wrong)  # type: ignore[arg-type]
        message = str(raised.value)
        assert f"unknown platform {wrong!r}" in message
        assert all(platform in message for platform in export.PLATFORMS)
    assert generated.PLATFORMS == export.PLATFORMS


def test_each_call_returns_a_fresh_copy() -> None:
    first = generated.tool_definitions("mcp")
    first[0]["inputSchema"]["properties"].clear()
    first.append({"name": "mine"})
    again = generated.tool_definitions("mcp")
    assert again != first and len(again) == len(generated.TOOLS)
    assert again[0]["inputSchema"]["properties"]


LAZY_PROBE = """\
import json, sys
sys.path.insert(0, sys.argv[1])
import generated
loaded = sorted(m for m in sys.modules if m.startswith("generated."))
assert loaded == ["generated._runtime"], loaded
lists = {p: generated.tool_definitions(p) for p in ("openai", "anthropic", "mcp")}
loaded = sorted(m for m in sys.modules if m.startswith("generated."))
assert loaded == ["generated._runtime", "generated._tool_definitions"], loaded
try:
    import toolshape
except ImportError:
    pass
else:
    raise AssertionError("toolshape is importable here")
assert not [m for m in sys.modules if m.startswith(("toolshape", "jinja2", "yaml"))]
print(json.dumps(lists))
"""


def supported_pythons() -> list[str]:
    """This interpreter, and CPython 3.9 (the oldest the generated code runs on) where pyenv has it."""
    found = [sys.executable]
    try:
        oldest = subprocess.run(["pyenv", "prefix", "3.9"], capture_output=True, text=True)
    except (OSError, subprocess.SubprocessError):
        return found
    candidate = Path(oldest.stdout.strip()) / "bin" / "python3.9"
    if oldest.returncode == 0 and candidate.is_file():
        found.append(str(candidate))
    return found


@pytest.mark.parametrize("python", supported_pythons())
def test_the_lists_need_no_toolshape_and_import_no_tool_module(python: str) -> None:
    # -I -S: no site-packages (so no toolshape), no working folder on the path.
    done = subprocess.run(
        [python, "-I", "-S", "-c", LAZY_PROBE, str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    lists = json.loads(done.stdout)
    checked = [check_example(p, str(p.relative_to(ROOT))) for p in example_contracts()]
    for platform, listed in lists.items():
        assert listed == export.definitions(checked, platform)


TREE = """\
name: tree
description: A recursive tree.
parameters:
  type: object
  properties:
    root: {$ref: '#/$defs/node'}
  required: [root]
  additionalProperties: false
  $defs:
    node:
      type: object
      properties:
        label: {type: string}
        children: {type: array, items: {$ref: '#/$defs/node'}}
      required: [label]
      additionalProperties: false
"""

LEAF = """\
name: leaf
description: A leaf.
parameters:
  type: object
  properties:
    label: {type: string, maxLength: 10}
  required: [label]
  additionalProperties: false
"""


def project_with_a_refused_tool(tmp_path: Path) -> Path:
    (tmp_path / "tools" / "more").mkdir(parents=True)
    (tmp_path / "tools" / "more" / "tree.yaml").write_text(TREE, encoding="utf-8")
    (tmp_path / "tools" / "leaf.yaml").write_text(LEAF, encoding="utf-8")
    return tmp_path / "tools"


def test_a_refused_tool_leaves_that_platform_without_a_list_as_schema_all_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    project_with_a_refused_tool(tmp_path)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", "")
    assert run(capsys, "generate", "tools", "--out", "lists_pkg_refused", "-q")[0] == 0
    monkeypatch.syspath_prepend(str(tmp_path))
    package = importlib.import_module("lists_pkg_refused")
    code, out, err = run(capsys, "schema", "--all", "tools", "--target", "gemini-legacy")
    assert code == 1 and out == ""
    with pytest.raises(ValueError) as refused:
        package.tool_definitions("gemini-legacy")
    message = str(refused.value)
    assert message.startswith("gemini-legacy refuses tools of this package:\n")
    # The same reasons at the same places; the package names the contract by its stable label.
    assert message.splitlines()[1:] == error_lines(err)
    assert "tools/more/tree.yaml:" in message and "is recursive" in message
    for platform in ("gemini", "mcp", "openai"):
        code, out, _ = run(capsys, "schema", "--all", "tools", "--target", platform, "-q")
        assert code == 0 and package.tool_definitions(platform) == json.loads(out)
        assert [d.get("name") or d["function"]["name"] for d in json.loads(out)] == [
            "leaf",
            "tree",
        ]


def test_reused_output_makes_the_same_lists_from_its_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # generate reuses output it wrote without loading the contracts again: the tool lists then
    # come from what each tool's test file recorded, and must be the same bytes.
    tools = project_with_a_refused_tool(tmp_path)
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    fresh = planning.plan(tools, CONTEXT, out=out)
    writing.write(fresh, out)
    reused = planning.plan(tools, CONTEXT, reuse_from=out, out=out)
    assert reused.reused and all(g.checked is None for g in reused.generated)
    assert reused.files == fresh.files
    trusted = planning.plan(tools, CONTEXT, reuse_from=out, trust_headers=True, out=out)
    assert trusted.reused and trusted.files == fresh.files
    assert run(capsys, "check", str(tools), "--out", str(out), "--headers-only", "-q")[0] == 0
    # Every platform, accepted or refused, is in the record; take one line away and the
    # output is not reused (generated afresh) rather than listed without it.
    test_file = out / "tests" / "more" / "test_tree.py"
    data = test_file.read_bytes()
    recorded = headers.recorded_definitions(data, "tools/more/tree.yaml")
    assert recorded is not None
    definitions, refusals = recorded
    assert set(definitions) == set(export.PLATFORMS) - {"gemini-legacy"}
    assert [p.message for p in refusals["gemini-legacy"]] == [
        f.message
        for f in export.lint(
            checker.check(source.load((tools / "more" / "tree.yaml").read_bytes(), "t.yaml")),
            "gemini-legacy",
        )
    ]
    without = b"".join(
        line for line in data.splitlines(keepends=True) if not line.startswith(b"# definition mcp:")
    )
    assert headers.recorded_definitions(without, "tools/more/tree.yaml") is None


#: Every way a cache entry's listing can be malformed (corrupt, or from another toolshape):
#: (what the case is, how the listing is changed; None removes it).
MALFORMED_LISTINGS: list[tuple[str, Callable[[dict[str, Any]], object]]] = [
    ("absent", lambda listing: None),
    ("not an object", lambda listing: "listing"),
    ("a platform neither listed nor refused", lambda listing: _without(listing, "mcp")),
    ("an entry that is not a string", lambda listing: _entry(listing, {"name": "x"})),
    ("a refusal that is not a list", lambda listing: _refused(listing, "reason")),
    ("a refusal reason that is not a string", lambda listing: _refused(listing, [1])),
    ("a hint MCP does not have", lambda listing: _hints(listing, {"fastHint": True})),
    (
        "a hint that is not a boolean (1 is not true)",
        lambda listing: _hints(listing, {"readOnlyHint": 1}),
    ),
    ("hints that are not an object", lambda listing: _hints(listing, ["readOnlyHint"])),
    # An entry is code the lists print as it is: only string literals, as literal() writes
    # them, one per line at the lists' indent, are taken (else a cache entry could write code).
    ("an entry that adds code to its string", lambda listing: _entry(listing, '"{}" + str(1)')),
    ("an entry that is a call", lambda listing: _entry(listing, '__import__("os").getcwd()')),
    ("an entry that is a name", lambda listing: _entry(listing, "DEFINITIONS")),
    ("an entry that is bare JSON text", lambda listing: _entry(listing, '{"name": "x"}')),
    ("an f-string", lambda listing: _entry(listing, 'f"{DEFINITIONS}"')),
    ("a bytes literal", lambda listing: _entry(listing, 'b"{}"')),
    ("an entry that closes the list", lambda listing: _entry(listing, '"{}"],\n    "x": ["{}"')),
    ("two literals on one line", lambda listing: _entry(listing, '"{" "}"')),
    ("a piece not at the indent", lambda listing: _entry(listing, '"{"\n    "}"')),
    ("a piece after a blank line", lambda listing: _entry(listing, '"{"\n\n        "}"')),
    ("a literal left open", lambda listing: _entry(listing, '"{}')),
    ("a raw line break in a literal", lambda listing: _entry(listing, '"{\n}"')),
    ("a raw NUL in a literal", lambda listing: _entry(listing, '"{\x00}"')),
    ("a lone surrogate in a literal", lambda listing: _entry(listing, '"{\ud800}"')),
    ("an escape repr never writes", lambda listing: _entry(listing, '"{\\N{BULLET}}"')),
    ("an escape cut short", lambda listing: _entry(listing, '"{\\x4}"')),
    ("an escape past the last code point", lambda listing: _entry(listing, '"{\\U00110000}"')),
    ("a quote escaped at the end", lambda listing: _entry(listing, '"{}\\"')),
]


def _without(listing: dict[str, Any], platform: str) -> dict[str, Any]:
    entries = {p: e for p, e in listing["entries"].items() if p != platform}
    refused = {p: r for p, r in listing["refused"].items() if p != platform}
    return {**listing, "entries": entries, "refused": refused}


def _entry(listing: dict[str, Any], value: object) -> dict[str, Any]:
    return {**listing, "entries": {**listing["entries"], "mcp": value}}


def _refused(listing: dict[str, Any], value: object) -> dict[str, Any]:
    return {**listing, "refused": {**listing["refused"], "gemini-legacy": value}}


def _hints(listing: dict[str, Any], value: object) -> dict[str, Any]:
    return {**listing, "hints": value}


def test_output_reused_on_the_caches_word_takes_its_lists_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The cache keeps each tool's part of the lists with the digests of its files: a contract
    # reused on the cache's word is not read for its definitions (none is decoded from its
    # header), and the lists are the same bytes. A listing the cache holds in any malformed
    # shape is not used: the definitions are read from the header, as without a cache.
    tools = project_with_a_refused_tool(tmp_path)
    (tools / "web_search.yaml").write_bytes((CONTRACTS / "web_search.yaml").read_bytes())
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", str(tmp_path / "cache"))
    out = tmp_path / "out"
    fresh = planning.plan(tools, CONTEXT, out=out)
    writing.write(fresh, out)
    read: list[str] = []
    recorded_definitions = headers.recorded_definitions

    def counted(data: bytes, display: str) -> object:
        read.append(display)
        return recorded_definitions(data, display)

    monkeypatch.setattr(headers, "recorded_definitions", counted)
    cut: list[str] = []  # the text of every string measured to be cut into pieces
    cutter = wrapping._Cutter

    def counted_cutter(text: str | bytes) -> object:
        cut.append(str(text))
        return cutter(text)

    monkeypatch.setattr(wrapping, "_Cutter", counted_cutter)
    monkeypatch.setenv("TOOLSHAPE_JOBS", "1")  # every count in this process
    reused = planning.plan(tools, CONTEXT, reuse_from=out, out=out)
    assert len(reused.reused) == 6 and read == []
    assert reused.files == fresh.files
    # Nor is any definition measured and cut into pieces again: the cache keeps its entries
    # as the lists write them (fresh, the long ones are cut: the count can fail).
    assert not [text for text in cut if text.startswith('{"')]
    planning.plan(tools, CONTEXT)
    assert [text for text in cut if text.startswith('{"')]
    assert (
        '"web_search": {"readOnlyHint": True, "openWorldHint": True}'
        in fresh.files[PurePosixPath("__init__.py")]
    )
    entries = [p for p in (tmp_path / "cache").rglob("*.json") if p.parent.name != "generator"]
    assert len(entries) == 3
    whole = {p: json.loads(p.read_bytes()) for p in entries}
    for case, change in MALFORMED_LISTINGS:
        for path, data in whole.items():
            listing = change(data["listing"])
            path.write_text(json.dumps({**data, "listing": listing}), encoding="ascii")
            if listing is None:
                path.write_text(json.dumps({k: data[k] for k in ("module", "test")}))
        read.clear()
        again = planning.plan(tools, CONTEXT, reuse_from=out, out=out)
        assert len(again.reused) == 6 and len(read) == 3, case
        assert again.files == fresh.files, case


#: Characters a description may hold that a literal must escape, or must keep as they are:
#: both quotes, a backslash, control characters, a line separator, a lone surrogate, wide
#: and astral characters, spaces where a piece may be cut.
AWKWARD = ['"', "'", "\\", "\n", "\x00", "\x7f", "\u2028", "\ud800", "é", "杭", "😀", "\U000e0001"]
AWKWARD += [" ", "a"]


@pytest.mark.parametrize("size", [1, 40, 80, 90, 100, 300])
def test_every_listed_entry_is_its_definitions_literal_and_the_cache_takes_it_back(
    size: int,
) -> None:
    # A listing keeps each definition as the lists print it (code), and the cache gives it
    # back only if it is nothing but string literals: whatever the definition holds, the
    # entry is the literal of its JSON text, and reads back from the cache's JSON.
    for first, second in itertools.product(AWKWARD, repeat=2):
        text = ((first + second + "b") * size)[:size]
        definitions = {p: {"name": "t", "description": text} for p in export.PLATFORMS}
        made = listing.of(definitions, {})
        for platform, entry in made.entries.items():
            written = json.dumps(definitions[platform], ensure_ascii=False)
            assert ast.literal_eval(f"({entry})") == written, (first, second, size)
        again = listing.from_json(json.loads(json.dumps(made.as_json())))
        assert again == made, (first, second, size)


def test_the_tool_lists_compile_only_the_code_around_their_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each entry of the lists is string literals by construction (listing.py): proving the
    # module compiles takes only the code around them, never the megabytes of definitions a
    # thousand tools make. What is compiled under the lists' name holds no entry, and the
    # lists written are the same bytes (a custom template's are compiled whole).
    tools = project_with_a_refused_tool(tmp_path)
    (tools / "web_search.yaml").write_bytes((CONTRACTS / "web_search.yaml").read_bytes())
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", "")
    monkeypatch.setenv("TOOLSHAPE_JOBS", "1")
    compiled: dict[str, str] = {}

    def recorded(source: str, label: str, mode: str) -> object:
        compiled[label] = source
        return compile(source, label, mode)

    monkeypatch.setattr(render, "compile", recorded, raising=False)
    plan = planning.plan(tools, CONTEXT)
    lists = plan.files[planning.DEFINITIONS_PATH]
    around = compiled[str(planning.DEFINITIONS_PATH)]
    refused = {platform for g in plan.generated for platform in g.listing.refused}
    entries = [
        g.listing.entries[p] for g in plan.generated for p in set(export.PLATFORMS) - refused
    ]
    assert entries and all(entry in lists and entry not in around for entry in entries)
    assert len(around) < len(lists) - sum(map(len, entries))
    namespace: dict[str, Any] = {}
    exec(compile(lists, "lists", "exec"), namespace)
    assert [json.loads(text) for text in namespace["DEFINITIONS"]["mcp"]] == [
        pipeline.platform_definitions(g.contract)[0]["mcp"] for g in plan.generated
    ]


def test_the_record_reads_back_what_was_written() -> None:
    body = f"# Generated by toolshape\n{headers.SEAL}\nX = 1\n"
    definitions = {
        p: {"name": 't\u2028\n"x"', "p": p, "n": [1, 1.5, None]} for p in export.PLATFORMS
    }
    del definitions["gemini"]
    refusals = {"gemini": [Problem("c.yaml", 3, 4, 'no "x"\n'), Problem("c.yaml", 5, 6, "two")]}
    warning = Problem("c.yaml", 1, 2, "careful", "warning")
    text = headers.seal(
        headers.record_warnings(headers.record_definitions(body, definitions, refusals), [warning])
    )
    assert headers.is_sealed_intact(text)
    assert headers.recorded_warnings(text.encode(), "c.yaml") == [warning]
    assert headers.recorded_definitions(text.encode(), "c.yaml") == (definitions, refusals)
    assert text.endswith("\nX = 1\n")


def test_the_tool_lists_file_is_sealed_recorded_and_checked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    tools = project_with_a_refused_tool(tmp_path)
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", "")
    out = tmp_path / "out"
    assert run(capsys, "generate", str(tools), "--out", str(out), "-q")[0] == 0
    lists = out / "_tool_definitions.py"
    text = lists.read_text(encoding="utf-8")
    assert headers.is_sealed_intact(text)
    assert f"  {PurePosixPath(lists.name)}\n" in (out / "toolshape-manifest.txt").read_text()
    lists.write_text(text.replace('"leaf"', '"lea"', 1), encoding="utf-8")
    code, _, err = run(capsys, "check", str(tools), "--out", str(out), "-q")
    assert code == 1 and f"{lists}: hand-edited" in err


@pytest.mark.parametrize("size", [10, 60, 83, 84, 85, 86, 87, 88, 89, 200, 1000])
def test_every_record_line_fits_88_columns_and_reads_back(size: int) -> None:
    # Texts of every length around the width, with spaces where a line may be cut (a cut
    # must leave no space at a line's end: black would strip it and break the seal).
    text = ("ab " * size)[:size]
    definitions = {p: {"name": "t", "description": text, "n": [size]} for p in export.PLATFORMS}
    del definitions["gemini"]
    refusals = {"gemini": [Problem("c.yaml", 3, 4, text), Problem("c.yaml", 5, 6, " " * size)]}
    warnings = [Problem("c.yaml", 1, 2, text + '"\\', "warning")]
    body = f"# Generated by toolshape\n{headers.SEAL}\nX = 1\n"
    text_file = headers.seal(
        headers.record_warnings(headers.record_definitions(body, definitions, refusals), warnings)
    )
    header = text_file.split("X = 1\n")[0].splitlines()
    assert all(len(line) <= 88 for line in header), header  # ruff E501 at 88
    assert all(line == line.rstrip() for line in header)
    assert headers.recorded_warnings(text_file.encode(), "c.yaml") == warnings
    assert headers.recorded_definitions(text_file.encode(), "c.yaml") == (definitions, refusals)
