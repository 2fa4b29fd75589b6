"""A real MCP round trip: the official ``mcp`` SDK's client starts tests/fixtures/mcp_server.py
over stdio, and that server's tool handlers sit behind the repository's generated ``validate_call``.

A valid call reaches the handler; an invalid one, an unknown tool and a call without
arguments never do: they come back as tool results with ``isError: true`` whose text is
the validator's ``feedback()``. ``mcp`` is a test-only dependency; without it the test
is skipped.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

import pytest
from support import ROOT

import generated  # the gate the server imports; the repository root is on sys.path via pyproject

SERVER = Path(__file__).resolve().parent / "fixtures" / "mcp_server.py"

VALID = {"city": "杭州", "unit": "c"}
INVALID = {"city": "", "unit": "kelvin", "country": "CN"}


def is_error(result: Any) -> bool:
    """``isError`` of a CallToolResult (``is_error`` in SDK 2.x, ``isError`` in 1.x)."""
    return bool(getattr(result, "is_error", getattr(result, "isError", False)))


def text_of(result: Any) -> str:
    return "".join(block.text for block in result.content if getattr(block, "type", None) == "text")


async def round_trip(log: Path) -> dict[str, Any]:
    # The SDK is imported by the test that runs it, not when every xdist worker collects this
    # file (mcp's client, with pydantic and anyio, costs each about a second).
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    env = {key: os.environ[key] for key in ("PATH", "HOME", "SYSTEMROOT") if key in os.environ}
    params = StdioServerParameters(
        command=sys.executable, args=[str(SERVER), str(ROOT), "generated", str(log)], env=env
    )
    seen: dict[str, Any] = {}
    # Only a server that never answers reaches this limit: ten minutes, so that how busy the
    # machine is never decides the verdict.
    # The server's stderr goes to a file of its own: the SDK's default is the sys.stderr of
    # when its module was imported, and imported inside a test that is pytest's capture,
    # which has no file descriptor to hand a child process.
    with anyio.fail_after(600), log.with_suffix(".stderr").open("w") as errors:
        async with (
            stdio_client(params, errlog=errors) as (read, write),
            ClientSession(read, write) as session,
        ):
            await session.initialize()
            listed = await session.list_tools()
            seen["tools"] = {tool.name: tool for tool in listed.tools}
            seen["valid"] = await session.call_tool("get_weather", VALID)
            seen["invalid"] = await session.call_tool("get_weather", INVALID)
            seen["unknown"] = await session.call_tool("get_wether", VALID)
            seen["no_arguments"] = await session.call_tool("get_weather")
    return seen


def test_a_valid_call_reaches_the_handler_and_an_invalid_one_comes_back_with_the_feedback(
    tmp_path: Path,
) -> None:
    log = tmp_path / "handled.jsonl"
    pytest.importorskip(
        "mcp", reason="the official MCP SDK is not installed (pip install mcp): no MCP round trip"
    )
    anyio = pytest.importorskip("anyio")
    seen = anyio.run(round_trip, log)

    # tools/list hands the model the package's MCP tool list: the exact schema the gate enforces.
    assert set(seen["tools"]) == set(generated.TOOLS)
    assert [
        tool.model_dump(by_alias=True, exclude_none=True) for tool in seen["tools"].values()
    ] == generated.tool_definitions("mcp")
    weather = seen["tools"]["get_weather"]
    schema = getattr(weather, "input_schema", None) or weather.inputSchema
    module = generated.tool_module("get_weather")
    assert module is not None
    assert schema == module.INPUT_SCHEMA

    valid = seen["valid"]
    assert not is_error(valid), text_of(valid)
    assert json.loads(text_of(valid)) == {
        "tool": "get_weather",
        "handled": True,
        "arguments": VALID,
    }

    invalid = seen["invalid"]
    assert is_error(invalid)
    expected = generated.validate_call("get_weather", INVALID).feedback()
    assert text_of(invalid) == expected
    for where in ("/city", "/unit", "/country"):
        assert where in expected

    unknown = seen["unknown"]
    assert is_error(unknown)
    assert text_of(unknown) == generated.validate_call("get_wether", VALID).feedback()
    assert "get_weather" in text_of(unknown)  # the feedback lists the tools that exist

    no_arguments = seen["no_arguments"]
    assert is_error(no_arguments)
    assert text_of(no_arguments) == generated.validate_call("get_weather", {}).feedback()

    # Only the valid call ever reached a handler.
    handled = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert handled == [{"tool": "get_weather", "arguments": VALID}]
