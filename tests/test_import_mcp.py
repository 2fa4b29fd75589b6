"""``toolshape import --mcp -- COMMAND ARGS...``: the tools of a running MCP server.

Against real servers: the reference ``mcp-server-time`` (a test dependency) and
tests/fixtures/mcp_server.py, the official SDK's server listing this repository's generated
package (its tools come back as the contracts they were generated from). Against a fake
server the test writes, every way a server can fail: a command that cannot start, early exit,
an exit after a line that is not JSON or JSON that is not JSON-RPC (named in the error), an
error answer, a server that never answers (and ignores SIGTERM), a cursor that never ends; and
the happy paths the real servers do not take: several pages, the server's own requests (a ping
is answered, anything else refused as "method not found") and notifications in between, a
banner on stdout (skipped), an empty cursor (the end). After
each, the server's process is gone.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import textwrap
from pathlib import Path, PurePosixPath
from typing import Any

import jsonschema
import pytest
from support import ROOT
from toolshape import cli
from toolshape.codegen import cases, render
from toolshape.contract import checker, source
from toolshape.platforms import importer, mcp_stdio
from toolshape.project import pipeline, runtime

import generated

SERVER = ROOT / "tests" / "fixtures" / "mcp_server.py"

#: A fake MCP server: its behaviour is its first argument; it writes its pid to the second.
FAKE = textwrap.dedent(
    """
    import json, signal, sys, time

    mode, pid_file = sys.argv[1], sys.argv[2]
    open(pid_file, "w").write(str(__import__("os").getpid()))
    TOOL = {"name": "t%d", "description": "Tool %d.", "inputSchema": {"type": "object"}}

    def send(message):
        sys.stdout.write(json.dumps(message) + "\\n")
        sys.stdout.flush()

    def tool(n):
        return json.loads(json.dumps(TOOL).replace("%d", str(n)))

    def answer(request, result):
        send({"jsonrpc": "2.0", "id": request["id"], "result": result})

    if mode == "exit":
        print("fatal: no config", file=sys.stderr)
        sys.exit(3)
    if mode == "hang":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        while True:
            time.sleep(1)
    for line in sys.stdin:
        request = json.loads(line)
        method = request.get("method")
        if method == "initialize":
            if mode == "bad-json":  # a banner, then gone: the error names the banner
                sys.stdout.write("Server starting on stdio...\\n")
                sys.stdout.flush()
                sys.exit(0)
            elif mode == "not-rpc":
                send({"id": request["id"], "result": {}})
                sys.exit(0)
            elif mode == "banner":  # lines that are not JSON-RPC, then the answer
                sys.stdout.write("Starting MCP server with stdio transport...\\n{not json\\n")
                sys.stdout.flush()
                answer(request, {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "serverInfo": {"name": "banner"}})
            elif mode == "wrong-id":  # true is not the id 1, though Python says True == 1
                send({"jsonrpc": "2.0", "id": True, "result": {}})
            else:
                answer(request, {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}},
                                 "serverInfo": {"name": "fake\\nserver"}})
        elif method == "tools/list":
            cursor = request["params"].get("cursor")
            if mode == "long-line":  # one line of over 250 bytes: over the test's limit of 200
                answer(request, {"tools": [], "padding": "y" * (250 - 52)})
            elif mode == "flood":  # 20 lines of about 100 bytes: over the test's 1,000 in all
                for _ in range(20):
                    send({"jsonrpc": "2.0", "method": "notifications/message",
                          "params": "z" * (100 - 67)})
            elif mode == "error":
                send({"jsonrpc": "2.0", "id": request["id"],
                      "error": {"code": -32603, "message": "database offline"}})
            elif mode == "endless":
                answer(request, {"tools": [], "nextCursor": "again"})
            elif mode == "banner":
                print("listing tools", flush=True)
                answer(request, {"tools": [tool(1)]})
            elif mode == "empty-cursor":  # "" ends the list, as the SDKs' loops read it
                answer(request, {"tools": [tool(1)], "nextCursor": ""})
            elif mode == "exit-later":
                sys.exit(0)
            elif cursor is None:
                send({"jsonrpc": "2.0", "method": "notifications/message",
                      "params": {"level": "info", "data": "listing"}})
                send({"jsonrpc": "2.0", "id": "s1", "method": "ping"})
                echoed = json.loads(sys.stdin.readline())
                assert echoed == {"jsonrpc": "2.0", "id": "s1", "result": {}}, echoed
                send({"jsonrpc": "2.0", "id": "s2", "method": "roots/list"})
                refused = json.loads(sys.stdin.readline())
                assert refused["id"] == "s2" and refused["error"]["code"] == -32601, refused
                answer(request, {"tools": [tool(1)], "nextCursor": "p2"})
            elif cursor == "p2":
                answer(request, {"tools": [tool(2), tool(3)], "nextCursor": "p3"})
            else:
                answer(request, {"tools": [tool(4)]})
    """
)


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The fake server's command for a mode; the pid file it writes is checked after each call."""
    monkeypatch.setattr(mcp_stdio, "GRACE_SECONDS", 0.5)  # the hang mode waits out two of them
    script = tmp_path / "fake_server.py"
    script.write_text(FAKE, encoding="utf-8")
    pids: list[Path] = []

    def command(mode: str) -> list[str]:
        pids.append(tmp_path / f"{mode}.pid")
        return [sys.executable, str(script), mode, str(pids[-1])]

    yield command
    for pid_file in pids:
        if pid_file.exists():  # the server started: it must be gone (waited for, so no zombie)
            with pytest.raises(ProcessLookupError):
                os.kill(int(pid_file.read_text()), 0)


def import_mcp(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str], *options: str
) -> tuple[int, str, str]:
    """``toolshape import --out OUT [OPTIONS] --mcp -- COMMAND``: exit code, stdout, stderr.
    Unless the test sets one, the timeout is far above what any server here takes to start on
    a busy machine: the default (30 s) would make a test's verdict depend on the load."""
    if "--timeout" not in options:
        options = ("--timeout", "600", *options)
    out = tmp_path / "contracts"
    code = cli.main(["import", "--out", str(out), *options, "--mcp", "--", *command])
    printed = capsys.readouterr()
    return code, printed.out, printed.err


def validator_of(text: str) -> Any:
    """The module generated from contract text, loaded."""
    made = pipeline.generate(
        text.encode("utf-8"), "t.yaml", PurePosixPath("t.yaml"), render.generation_context()
    )
    return runtime.load_module(made.module_source, "t.py")


# -- real servers ------------------------------------------------------------------------------


def test_the_reference_time_server(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip(
        "mcp_server_time", reason="mcp-server-time (the test extra) is not installed"
    )
    code, out, err = import_mcp(tmp_path, capsys, [sys.executable, "-m", "mcp_server_time"])
    assert code == 0, err
    written = sorted(p.name for p in (tmp_path / "contracts").iterdir())
    assert written == ["convert_time.yaml", "get_current_time.yaml"]
    assert "imported 2 contracts" in out
    text = (tmp_path / "contracts" / "convert_time.yaml").read_text(encoding="utf-8")
    assert text.startswith("# Imported by toolshape from MCP server mcp-time (MCP tools/list)")
    contract = checker.check(source.load(text.encode("utf-8"), "convert_time.yaml"))
    assert set(contract.parameters["required"]) == {"source_timezone", "time", "target_timezone"}
    # its outputSchema is the contract's output, the shared result under $defs as listed
    assert contract.output is not None
    assert contract.output["properties"]["source"] == {"$ref": "#/$defs/TimeResult"}
    assert set(contract.output["$defs"]["TimeResult"]["required"]) == {
        "timezone",
        "datetime",
        "day_of_week",
        "is_dst",
    }
    assert "outputSchema" not in err
    # ... and the module generated from it checks the server's results
    module = validator_of(text)
    result: dict[str, Any] = {"timezone": "Asia/Tokyo", "datetime": "2026-12-06T14:00:00+09:00"}
    result |= {"day_of_week": "Sunday", "is_dst": False}
    assert module.validate_result(
        {"source": result, "target": result, "time_difference": "+9.0h"}
    ).ok
    refused = module.validate_result({"source": result, "target": {**result, "is_dst": "no"}})
    assert {(e.path, e.code) for e in refused.errors} == {
        ("/target/is_dst", "type"),
        ("/time_difference", "required"),
    }


#: Official reference servers that declare outputSchema: their command, and what they need.
REFERENCE_SERVERS = {
    "time": ([sys.executable, "-m", "mcp_server_time"], "mcp_server_time"),
    # npm's cache only: this machine has no network; a server not cached there is skipped.
    "everything": (
        ["npx", "--offline", "-y", "@modelcontextprotocol/server-everything", "stdio"],
        None,
    ),
}


@pytest.mark.parametrize("server", REFERENCE_SERVERS)
def test_a_reference_servers_result_schemas_import_and_agree_with_jsonschema(server: str) -> None:
    command, module_name = REFERENCE_SERVERS[server]
    if module_name is not None:
        pytest.importorskip(module_name, reason=f"{module_name} (the test extra) is not installed")
    elif shutil.which(command[0]) is None:
        pytest.skip(f"{command[0]} is not installed")
    try:
        name, listed = mcp_stdio.list_tools(command, timeout=600)
    except mcp_stdio.ServerError as error:
        if "ENOTCACHED" in str(error):
            pytest.skip(f"the {server} server is not in npm's cache: {error}")
        raise
    originals = {
        tool["name"]: tool["outputSchema"] for tool in listed["tools"] if "outputSchema" in tool
    }
    assert originals, f"the {server} server lists no outputSchema"
    imported = {c.name: c for c in importer.import_data(listed, f"MCP server {name}")}
    for tool, original in originals.items():
        contract = imported[tool]
        assert "output" in contract.data, [str(w) for w in contract.warnings]
        assert not [
            w for w in contract.warnings if "'outputSchema' is not carried over" in w.message
        ]
        checked = checker.check(source.load(contract.yaml_text.encode("utf-8"), "t.yaml"))
        side = checked.result_side()
        assert side is not None
        derived = cases.derive(side).cases
        assert (
            len(derived) > 3
            and any(c.errors for c in derived)
            and any(not c.errors for c in derived)
        )
        module = validator_of(contract.yaml_text)
        # The server's own schema, read in its own draft ($schema), is the judge.
        judge = jsonschema.validators.validator_for(
            original, default=jsonschema.Draft202012Validator
        )
        for case in derived:
            expected = judge(original).is_valid(case.data)
            assert module.validate_result(case.data).ok is expected, (tool, case.name)


def test_the_sdk_server_lists_the_generated_package_back_as_its_contracts(tmp_path: Path) -> None:
    pytest.importorskip("mcp", reason="the official MCP SDK (the test extra) is not installed")
    log = tmp_path / "handled.jsonl"
    name, listed = mcp_stdio.list_tools(
        [sys.executable, str(SERVER), str(ROOT), "generated", str(log)]
    )
    assert name == "toolshape-gate"
    assert listed == {"tools": generated.tool_definitions("mcp")}
    imported = importer.import_data(listed, "MCP server toolshape-gate")
    assert [c.name for c in imported] == list(generated.TOOLS)
    for contract in imported:
        module = generated.tool_module(contract.name)
        assert module is not None and contract.data["parameters"] == module.INPUT_SCHEMA
        assert contract.data.get("output") == getattr(module, "OUTPUT_SCHEMA", None)
    assert [c.name for c in imported if "output" in c.data] == ["create_login", "web_search"]
    assert not log.exists()  # listing calls no tool


# -- a fake server: pagination and the server's own messages -------------------------------------


def test_every_page_is_listed_and_the_servers_requests_are_answered(fake: Any) -> None:
    name, listed = mcp_stdio.list_tools(fake("pages"))
    assert name == "fake?server"  # printable: it goes into a comment of every contract
    assert [tool["name"] for tool in listed["tools"]] == ["t1", "t2", "t3", "t4"]


@pytest.mark.parametrize("mode", ["banner", "empty-cursor"])
def test_a_banner_on_stdout_and_an_empty_cursor_are_read_as_the_sdks_read_them(
    mode: str, fake: Any
) -> None:
    """Servers that print a banner on stdout (elastic's, grafana's, elevenlabs') or end the
    list with ``"nextCursor": ""`` work with the official SDKs' clients: so they do here."""
    _, listed = mcp_stdio.list_tools(fake(mode), timeout=600)
    assert [tool["name"] for tool in listed["tools"]] == ["t1"]


# -- a fake server: every failure is one clear error, and the server is gone ---------------------


FAILURES = {
    "exit": "exited (status 3) before answering initialize; its stderr ends: fatal: no config",
    "exit-later": "exited (status 0) before answering tools/list",
    "bad-json": "exited (status 0) before answering initialize; it wrote a line on stdout that "
    "is not JSON-RPC 2.0, the first 'Server starting on stdio...'",
    "not-rpc": "exited (status 0) before answering initialize; it wrote a line on stdout that "
    "is not JSON-RPC 2.0",
    "wrong-id": "answered request true while initialize was asked",
    "error": 'answered tools/list with an error: -32603 "database offline"',
    "long-line": "sent a line of more than 200 bytes while tools/list was asked",
    "flood": "sent more than 1000 bytes while tools/list was asked",
    "endless": 'answered tools/list with the nextCursor "again", which is no new string',
    "hang": "did not answer initialize within 1 s (--timeout sets the limit)",
}


@pytest.mark.parametrize("mode", list(FAILURES))
def test_a_failing_server_is_one_clear_error(
    mode: str,
    fake: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # limits a test can reach without writing 16 MiB (every other mode stays far below them)
    monkeypatch.setattr(mcp_stdio, "MAX_LINE_BYTES", 200)
    monkeypatch.setattr(mcp_stdio, "MAX_OUTPUT_BYTES", 1000)
    # Only the server that never answers meets the timeout, whatever the machine's load; the
    # others must fail for their own reason, so they get all the time a busy machine needs to
    # start them (a limit, not a measurement: a hang would still end).
    timeout = "1" if mode == "hang" else "600"
    code, out, err = import_mcp(tmp_path, capsys, fake(mode), "--timeout", timeout)
    assert code == 1 and out == ""
    assert err.startswith("toolshape: error: the MCP server ") and FAILURES[mode] in err, err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "contracts").exists()  # nothing written


def test_a_command_that_cannot_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = import_mcp(tmp_path, capsys, [str(tmp_path / "no-such-server")])
    assert code == 1
    assert err == (
        f"toolshape: error: cannot start the MCP server '{tmp_path / 'no-such-server'}': "
        "No such file or directory\n"
    )


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["import", "--mcp"], "--mcp needs the command that starts the server"),
        (["import", "--mcp", "--timeout", "0", "--", "x"], "--timeout must be a number of seconds"),
        (
            ["import", "--mcp", "--timeout", "nan", "--", "x"],
            "--timeout must be a number of seconds",
        ),
        (
            ["import", "--mcp", "--timeout", "1e300", "--", "x"],
            "--timeout must be a number of seconds",
        ),
        (["import"], "import takes one FILE"),
        (["import", "a.json", "b.json"], "import takes one FILE"),
    ],
)
def test_usage_errors(argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(argv) == 2
    assert message in capsys.readouterr().err


def test_what_the_server_lists_is_imported_like_a_saved_list(
    fake: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, listed = mcp_stdio.list_tools(fake("pages"))
    saved = tmp_path / "tools.json"
    saved.write_text(json.dumps(listed), encoding="utf-8")
    code, out, err = import_mcp(tmp_path, capsys, fake("pages"))
    assert "imported 4 contracts" in out
    assert code == 0, err
    live = {p.name: p.read_text(encoding="utf-8") for p in (tmp_path / "contracts").iterdir()}
    from_file = {c.relative_path: c.yaml_text for c in importer.import_file(saved)}
    assert live.keys() == from_file.keys() == {"t1.yaml", "t2.yaml", "t3.yaml", "t4.yaml"}
    for name, text in live.items():  # the same contract, but for the header naming the source
        assert text.splitlines()[1:] == from_file[name].splitlines()[1:]


# -- shapes real servers list (distilled from the MCP server corpus of issue 24) ---------------


def _generated(contract: importer.ImportedContract) -> Any:
    made = pipeline.generate(
        contract.yaml_text.encode("utf-8"),
        "tool.yaml",
        PurePosixPath("tool.yaml"),
        render.generation_context(),
    )
    return runtime.load_module(made.module_source, "tool.py")


@pytest.mark.parametrize(
    "schema",
    [
        {},
        {
            "$schema": "http://json-schema.org/draft-07/schema#"
        },  # @modelcontextprotocol/server-gitlab
        {"description": "anything", "$comment": "x"},
        {"title": "Args", "examples": [{"a": 1}], "$defs": {"unused": {"type": "string"}}},
    ],
    ids=["empty", "only-dialect", "description", "title-examples-defs"],
)
def test_an_empty_root_imports_as_any_object(schema: dict[str, Any]) -> None:
    """A root that says nothing about values accepts every object: it imports, with a warning,
    and the validator takes any object (the only values tool arguments can be)."""
    listed = {"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
    (contract,) = importer.import_data(listed, "tools.json")
    assert contract.data["parameters"]["type"] == "object"
    assert any("root schema is empty" in str(w) for w in contract.warnings)
    module = _generated(contract)
    for value in ({}, {"a": 1}, {"b": [None, "x"], "c": {"d": True}}):
        assert module.validate(value).ok, value
        assert jsonschema.Draft202012Validator(schema).is_valid(value)


_A = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
_B = {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}
#: Roots without a type that say which objects pass through in-place applicators: zod's
#: ``z.union`` of objects (draft 7, the branches behind $ref), a pydantic root Union, parts
#: joined with allOf, a condition, a negation, a branch that is no object.
ROOT_COMPOSITIONS = {
    "anyOf": {"anyOf": [_A, _B]},
    "zod union": {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "oneOf": [{"$ref": "#/definitions/A"}, {"$ref": "#/definitions/B"}],
        "definitions": {"A": _A, "B": _B},
    },
    "allOf": {
        "allOf": [{"type": "object", "properties": {"a": {"type": "string"}}}, {"required": ["a"]}]
    },
    "if-then": {"if": {"required": ["a"]}, "then": {"required": ["b"]}},
    "not": {"not": {"required": ["x"]}},
    "a branch no object passes": {"anyOf": [{"type": "string"}, _A]},
}
#: Objects on both sides of every root above.
OBJECTS: list[dict[str, Any]] = [
    {},
    {"a": "x"},
    {"b": 1},
    {"a": 1},
    {"b": "x"},
    {"x": 1},
    {"a": "x", "b": 1},
    {"a": "x", "x": 0},
]


@pytest.mark.parametrize("schema", ROOT_COMPOSITIONS.values(), ids=ROOT_COMPOSITIONS.keys())
def test_a_root_composed_without_a_type_imports_and_keeps_its_meaning(
    schema: dict[str, Any],
) -> None:
    """A root whose in-place applicators say which objects pass imports with ``type: object``
    added and a warning (they were refused as saying nothing about objects): among objects, the
    only values tool arguments can be, the validator accepts exactly what jsonschema does."""
    listed = {"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
    (contract,) = importer.import_data(listed, "tools.json")
    assert contract.data["parameters"]["type"] == "object"
    assert any("the root has no 'type'" in str(w) for w in contract.warnings)
    module = _generated(contract)
    judge = jsonschema.validators.validator_for(schema, jsonschema.Draft202012Validator)(schema)
    assert [module.validate(v).ok for v in OBJECTS] == [judge.is_valid(v) for v in OBJECTS]
    assert any(judge.is_valid(v) for v in OBJECTS) and not all(map(judge.is_valid, OBJECTS))


@pytest.mark.parametrize(
    "schema",
    [
        {"anyOf": [{"type": "string"}, {"type": "integer"}]},  # pydantic RootModel[str | int]
        {"oneOf": [{"const": 1}, {"enum": ["a", None]}]},
        {"allOf": [{"type": "string"}], "properties": {}},
        {"not": {"type": "object", "title": "any object"}},
        {"not": True},
        {"anyOf": [False, {"type": ["array", "null"]}]},
    ],
)
def test_a_root_no_object_can_pass_is_refused_at_the_root(schema: dict[str, Any]) -> None:
    """Where what the root says outright lets no object pass, import refuses it, as a root of
    ``type: string``: arguments that can never be valid are a broken tool, not a contract."""
    assert not any(jsonschema.Draft202012Validator(schema).is_valid(value) for value in OBJECTS)
    listed = {"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
    with pytest.raises(importer.ContractImportError, match="no object passes the root schema"):
        importer.import_data(listed, "tools.json")


@pytest.mark.parametrize(
    "schema",
    [
        {"minProperties": 1},
        {"patternProperties": {"^a": {"type": "string"}}},
        {"dependentRequired": {"a": ["b"]}},
    ],
)
def test_a_root_of_any_object_keyword_gets_type_object(schema: dict[str, Any]) -> None:
    """Every keyword that constrains objects says which objects pass, as properties does."""
    listed = {"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
    (contract,) = importer.import_data(listed, "tools.json")
    assert contract.data["parameters"] == {"type": "object", **schema}
    module = _generated(contract)
    judge = jsonschema.Draft202012Validator(schema)
    assert [module.validate(v).ok for v in OBJECTS] == [judge.is_valid(v) for v in OBJECTS]


@pytest.mark.parametrize(
    "schema",
    [
        ROOT_COMPOSITIONS["anyOf"],
        ROOT_COMPOSITIONS["if-then"],
        {"type": ["object"], "required": ["a"]},
    ],
    ids=["anyOf", "if-then", "type list"],
)
def test_a_schema_file_of_such_a_root_is_read_as_a_schema(
    schema: dict[str, Any], tmp_path: Path
) -> None:
    """A standalone schema file whose root is composed, or typed ``["object"]``, is read as a
    JSON Schema (it was "expected a JSON Schema, an MCP tools/list result, or ...")."""
    path = tmp_path / "u.json"
    path.write_text(json.dumps({"description": "d", **schema}), encoding="utf-8")
    (contract,) = importer.import_file(path)
    assert contract.data["parameters"]["type"] == "object"


def test_a_root_typed_as_a_list_of_object_alone_imports() -> None:
    """``type: ["object"]`` is ``type: "object"``: the root imports as it (it was refused as
    "not object"); a list with another type still changes what passes, and stays refused."""
    schema = {"type": ["object"], "properties": {"a": {"type": "string"}}, "required": ["a"]}
    listed = {"tools": [{"name": "t", "description": "d", "inputSchema": schema}]}
    (contract,) = importer.import_data(listed, "tools.json")
    assert contract.data["parameters"] == {**schema, "type": "object"}
    module = _generated(contract)
    judge = jsonschema.Draft202012Validator(schema)
    assert [module.validate(v).ok for v in OBJECTS] == [judge.is_valid(v) for v in OBJECTS]
    nullable = {
        "tools": [{"name": "t", "description": "d", "inputSchema": {"type": ["object", "null"]}}]
    }
    with pytest.raises(importer.ContractImportError, match='not "object"'):
        importer.import_data(nullable, "tools.json")


def test_a_root_with_assertions_about_other_types_is_still_refused() -> None:
    listed = {"tools": [{"name": "t", "description": "d", "inputSchema": {"minLength": 2}}]}
    with pytest.raises(importer.ContractImportError, match="says nothing about objects"):
        importer.import_data(listed, "tools.json")


@pytest.mark.parametrize(
    ("tool", "said"),
    [
        ({"name": "search"}, "The search tool."),  # wikipedia-mcp lists its tools so
        ({"name": "search", "title": "Search Wikipedia"}, "Search Wikipedia"),
        ({"name": "search", "annotations": {"title": " Search "}}, "Search"),
        ({"name": "search", "title": " ", "annotations": {"title": "T"}}, "T"),
        ({"name": "search", "description": None}, "The search tool."),
        ({"name": "search", "description": ""}, "The search tool."),
        ({"name": "search", "description": " \n", "title": "Search"}, "Search"),
    ],
    ids=[
        "name",
        "title",
        "annotations-title",
        "blank-title",
        "null-description",
        "empty-description",
        "blank-description",
    ],
)
def test_a_tool_listed_without_description_imports(tool: dict[str, Any], said: str) -> None:
    """MCP's description is optional, a contract's is not: the title or the name stands in,
    with a warning that asks for a real one."""
    entry = {**tool, "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}}}
    (contract,) = importer.import_data({"tools": [entry]}, "tools.json")
    assert contract.data["description"] == said
    (warning,) = [w for w in contract.warnings if "has no description" in str(w)]
    assert (warning.pointer or "").endswith("/tools/0/description")
    assert _generated(contract).validate({"q": "x"}).ok


@pytest.mark.parametrize("description", [3, ["d"], {"text": "d"}])
def test_a_description_that_is_no_string_is_still_refused(description: Any) -> None:
    entry = {"name": "t", "description": description, "inputSchema": {"type": "object"}}
    with pytest.raises(importer.ContractImportError, match="no description"):
        importer.import_data({"tools": [entry]}, "tools.json")
