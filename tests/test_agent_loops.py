"""The manual's agent loops (issue 14), run as written against the official SDKs' own types.

Each loop's code block is taken from README.md's "Agent loops" section (OpenAI) or from
docs/agent-loops.md (Anthropic, Gemini, the MCP server and client loops that check results too)
and executed, so the manual cannot drift from what is tested.
A stand-in client with the SDK method's signature
checks every request the loop sends against the SDK's request type (a TypedDict, checked
with pydantic's ``TypeAdapter``, unknown keys refused) and answers with the SDK's response
model, built from the JSON the platform sends. Nothing goes over the network.

Each conversation is scripted: a first turn whose calls the gate refuses (wrong values, text
that is not JSON, an unknown tool), a second with a valid call, then an answer. The tests
check that the request carries the package's tool list, that every refusal goes back to the
model as its feedback and never reaches the handler, and that the handler receives the
validated arguments once.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from support import ROOT
from test_readme import blocks, readme, section

import generated


class _SDKs:
    """The platforms' SDK modules, imported when a test first reads one: importing them costs
    each xdist worker that collects this file about 3 s, and only the worker that runs it needs
    them (conftest.ONE_WORKER_FILES keeps its tests on one). A missing SDK skips the test that
    needs it, with the reason."""

    _MODULES: ClassVar[dict[str, tuple[str, str]]] = {
        "openai_chat": ("openai.types.chat", "the openai SDK is not installed"),
        "openai_request": ("openai.types.chat.completion_create_params", "no openai SDK"),
        "anthropic_types": ("anthropic.types", "the anthropic SDK is not installed"),
        "anthropic_request": ("anthropic.types.message_create_params", "no anthropic SDK"),
        "genai_types": ("google.genai.types", "google-genai is not installed"),
        "mcp_types": ("mcp.types", "the mcp SDK is not installed"),
        "pydantic": ("pydantic", "pydantic is not installed"),
    }

    def __getattr__(self, name: str) -> Any:
        module, reason = self._MODULES[name]
        loaded = pytest.importorskip(module, reason=reason)
        setattr(self, name, loaded)
        return loaded


sdk = _SDKs()


def openai_request() -> Any:
    return sdk.openai_request.CompletionCreateParamsNonStreaming


def anthropic_request() -> Any:
    return sdk.anthropic_request.MessageCreateParamsNonStreaming


VALID = {"city": "杭州", "unit": "c"}
WRONG = {"city": "", "unit": "kelvin", "country": "CN"}
CUT_OFF = '{"city": "Oslo", "unit": "c"'
WEATHER = {"temperature": 21, "unit": "c"}


#: The page that holds the agent loops beyond the README's first.
LOOPS_PAGE = ROOT / "docs" / "agent-loops.md"


def loop_blocks() -> list[tuple[str, str]]:
    """(where, text) of each python code block of the agent loops, in order: the README's
    "Agent loops" section (the section as test_readme reads it, which runs every python block
    outside it), then every block of docs/agent-loops.md."""
    loops = section(readme(), "## Agent loops")
    page = LOOPS_PAGE.read_text(encoding="utf-8")
    found = [("README.md", block.text) for block in blocks(loops) if block.language == "python"]
    where = str(LOOPS_PAGE.relative_to(ROOT))
    return found + [(where, block.text) for block in blocks(page) if block.language == "python"]


def loop_block(defines: str) -> tuple[str, str]:
    """(where, text) of the one loop block that defines ``defines``."""
    defined = re.compile(rf"^(async )?def {defines}\(", flags=re.MULTILINE)
    (block,) = [(where, text) for where, text in loop_blocks() if defined.search(text)]
    return block


class Recorder:
    """What the loop's surroundings see: the handler's calls and the logger's warnings."""

    def __init__(self, results: dict[str, Any] | None = None) -> None:
        self.handled: list[tuple[str, Any]] = []
        self.logged: list[dict[str, Any]] = []
        self.results = {} if results is None else results  # by tool: what run_tool returns

    def run_tool(self, name: str, arguments: Any) -> Any:
        self.handled.append((name, copy.deepcopy(arguments)))
        return copy.deepcopy(self.results.get(name, WEATHER))

    def warning(self, message: str, extra: dict[str, Any]) -> None:
        self.logged.append(extra)

    error = warning  # a refused result is logged as an error


def run_block(defines: str, recorder: Recorder) -> dict[str, Any]:
    """Execute the manual's block that defines ``defines``, with the names it leaves to the
    reader."""
    namespace: dict[str, Any] = {
        "__name__": "readme_agent_loop",
        "MODEL": "a-model",
        "run_tool": recorder.run_tool,
        "logger": recorder,
    }
    where, text = loop_block(defines)
    exec(compile(text, f"{where} ({defines})", "exec"), namespace)
    return namespace


def drained(value: Any) -> Any:
    """``value`` with every lazily validated iterable consumed: pydantic checks an ``Iterable``
    field's items only as they are read."""
    if isinstance(value, dict):
        return {key: drained(item) for key, item in value.items()}
    if isinstance(value, (list, tuple, Iterator)):
        return [drained(item) for item in value]
    return value


def sdk_check(request_type: Any, request: dict[str, Any]) -> Any:
    """``request`` checked against the SDK's request TypedDict, unknown keys refused at every level."""
    adapter = sdk.pydantic.TypeAdapter(
        list[request_type], config=sdk.pydantic.ConfigDict(extra="forbid")
    )
    return drained(adapter.validate_python([request])[0])  # (the adapter lives while draining)


#: The function each loop block defines, which a test below runs.
#: The loops a test of this file runs: each name a ``run_block("...")`` call below names, read
#: from this file itself, so a test deleted takes its loop off the list.
LOOPS_RUN_HERE = tuple(
    dict.fromkeys(re.findall(r'run_block\("(\w+)"', Path(__file__).read_text(encoding="utf-8")))
)


def test_every_loop_block_is_run_here() -> None:
    """A loop block in the README or docs/agent-loops.md that no test runs fails here."""
    defined = [re.findall(r"^(?:async )?def (\w+)\(", text, re.M) for _, text in loop_blocks()]
    assert len(defined) == len(LOOPS_RUN_HERE)
    for names in defined:
        assert [name for name in names if name in LOOPS_RUN_HERE], names
    for name in LOOPS_RUN_HERE:
        loop_block(name)


def test_the_sdk_checks_refuse_what_the_platforms_refuse() -> None:
    """The request checks are not vacuous: a key too many or too few anywhere is refused."""
    tools = generated.tool_definitions("openai")
    user = {"role": "user", "content": "hi"}
    sdk_check(openai_request(), {"model": "m", "messages": [user], "tools": tools})
    for wrong in (
        {"model": "m", "messages": [user, {"role": "tool", "content": "no call id"}]},
        {"model": "m", "messages": [user], "tools": [{**tools[0], "strict": True}]},
        {
            "model": "m",
            "messages": [user],
            "tools": [{"type": "function", "function": {**tools[0]["function"], "x": 1}}],
        },
    ):
        with pytest.raises(sdk.pydantic.ValidationError):
            sdk_check(openai_request(), wrong)
    result = {"type": "tool_result", "tool_use_id": "t", "content": "x", "is_error": True}
    request = {"model": "m", "max_tokens": 1, "messages": [{"role": "user", "content": [result]}]}
    sdk_check(anthropic_request(), request)
    typo = {**result, "is_eror": True}
    with pytest.raises(sdk.pydantic.ValidationError):
        sdk_check(
            anthropic_request(), {**request, "messages": [{"role": "user", "content": [typo]}]}
        )


def test_every_tool_list_is_what_its_sdk_takes() -> None:
    """Each platform's list passes the SDK's own request or declaration type, unknown keys refused
    (gemini-legacy only where every tool fits it: not for the example contracts)."""
    from openai.types.responses import response_create_params

    user = {"role": "user", "content": "hi"}
    sdk_check(openai_request(), {"model": "m", "messages": [user], "tools": tool_list("openai")})
    sdk_check(
        response_create_params.ResponseCreateParamsNonStreaming,
        {"model": "m", "input": "hi", "tools": tool_list("openai-responses")},
    )
    sdk_check(
        anthropic_request(),
        {"model": "m", "max_tokens": 1, "messages": [user], "tools": tool_list("anthropic")},
    )
    for declaration in tool_list("gemini"):
        sdk.genai_types.FunctionDeclaration.model_validate(declaration)  # (extra="forbid")
    for tool in tool_list("mcp"):
        sdk.mcp_types.Tool.model_validate(tool)
    with pytest.raises(ValueError, match="gemini-legacy refuses tools of this package"):
        generated.tool_definitions("gemini-legacy")


def tool_list(platform: str) -> list[dict[str, Any]]:
    listed = generated.tool_definitions(platform)
    assert len(listed) == len(generated.TOOLS)
    return listed


# -- OpenAI -----------------------------------------------------------------------------


def openai_reply(*calls: tuple[str, str, str], text: str | None = None) -> dict[str, Any]:
    """A Chat Completions response as the API sends it: tool calls (id, name, arguments text)."""
    message: dict[str, Any] = {"role": "assistant", "content": text, "refusal": None}
    if calls:
        message["tool_calls"] = [
            {"id": i, "type": "function", "function": {"name": name, "arguments": arguments}}
            for i, name, arguments in calls
        ]
    return {
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "created": 1767225600,
        "model": "a-model",
        "choices": [
            {
                "index": 0,
                "finish_reason": "tool_calls" if calls else "stop",
                "logprobs": None,
                "message": message,
            }
        ],
    }


class StandIn:
    """A client's create method: checks each request against the SDK's request type, records it
    as sent, and answers with the next scripted reply as the SDK's response model."""

    def __init__(self, request_type: Any, response_type: Any, replies: list[Any]) -> None:
        self.request_type = request_type
        self.response_type = response_type
        self.replies = iter(replies)
        self.requests: list[dict[str, Any]] = []

    def create(self, **request: Any) -> Any:
        sdk_check(self.request_type, request)
        self.requests.append(copy.deepcopy(request))  # as sent: the loop appends to it later
        return self.response_type.model_validate(next(self.replies))


class OpenAIStandIn(StandIn):
    """``client.chat.completions.create``."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        super().__init__(openai_request(), sdk.openai_chat.ChatCompletion, replies)
        self.chat = SimpleNamespace(completions=SimpleNamespace(create=self.create))


def test_the_openai_loop_sends_the_strict_tool_list_and_returns_feedback() -> None:
    recorder = Recorder()
    loop = run_block("openai_turn", recorder)
    client = OpenAIStandIn(
        [
            openai_reply(
                ("call_1", "get_weather", json.dumps(WRONG)), ("call_2", "get_weather", CUT_OFF)
            ),
            openai_reply(("call_3", "get_weather", json.dumps(VALID, ensure_ascii=False))),
            openai_reply(text="21 °C in Hangzhou."),
        ]
    )
    messages: list[Any] = [{"role": "user", "content": "Weather in Hangzhou, in Celsius?"}]
    answers = [loop["openai_turn"](client, messages) for _ in range(3)]
    assert answers == [None, None, "21 °C in Hangzhou."]

    tools = generated.tool_definitions("openai")
    assert all(request["tools"] == tools for request in client.requests)
    strict = {tool["function"]["name"]: tool["function"]["strict"] for tool in tools}
    assert strict["get_weather"] is True  # strict mode on where the contract allows it

    wrong, cut_off = (
        generated.validate_call("get_weather", t) for t in (json.dumps(WRONG), CUT_OFF)
    )
    assert wrong.status == "reject" and cut_off.status == "parse_error"
    second = client.requests[1]["messages"]
    assert second[1]["role"] == "assistant"
    assert [call["id"] for call in second[1]["tool_calls"]] == ["call_1", "call_2"]
    assert second[2:] == [
        {"role": "tool", "tool_call_id": "call_1", "content": wrong.feedback()},
        {"role": "tool", "tool_call_id": "call_2", "content": cut_off.feedback()},
    ]
    assert "/unit" in second[2]["content"] and "/country" in second[2]["content"]
    assert client.requests[2]["messages"][-1] == {
        "role": "tool",
        "tool_call_id": "call_3",
        "content": json.dumps(WEATHER),
    }
    assert recorder.handled == [("get_weather", VALID)]
    assert recorder.logged == [wrong.log_record(), cut_off.log_record()]


# -- Anthropic --------------------------------------------------------------------------


def anthropic_reply(*blocks: dict[str, Any]) -> dict[str, Any]:
    """A Messages API response as the API sends it."""
    uses = any(block["type"] == "tool_use" for block in blocks)
    return {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "a-model",
        "content": list(blocks),
        "stop_reason": "tool_use" if uses else "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 10},
    }


def tool_use(use_id: str, name: str, arguments: Any) -> dict[str, Any]:
    return {"type": "tool_use", "id": use_id, "name": name, "input": arguments}


class AnthropicStandIn(StandIn):
    """``client.messages.create``."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        super().__init__(anthropic_request(), sdk.anthropic_types.Message, replies)
        self.messages = SimpleNamespace(create=self.create)


def test_the_anthropic_loop_sends_the_tool_list_and_returns_feedback_as_errors() -> None:
    recorder = Recorder()
    loop = run_block("anthropic_turn", recorder)
    client = AnthropicStandIn(
        [
            anthropic_reply(
                {"type": "text", "text": "Checking."},
                tool_use("toolu_1", "get_weather", WRONG),
                tool_use("toolu_2", "get_wether", VALID),
            ),
            anthropic_reply(tool_use("toolu_3", "get_weather", VALID)),
            anthropic_reply({"type": "text", "text": "21 °C in Hangzhou."}),
        ]
    )
    messages: list[Any] = [{"role": "user", "content": "Weather in Hangzhou, in Celsius?"}]
    answers = [loop["anthropic_turn"](client, messages) for _ in range(3)]
    assert answers == [None, None, "21 °C in Hangzhou."]

    assert all(r["tools"] == generated.tool_definitions("anthropic") for r in client.requests)
    wrong = generated.validate_call("get_weather", WRONG)
    unknown = generated.validate_call("get_wether", VALID)
    assert unknown.layer == "dispatch"
    assert client.requests[1]["messages"][-1] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "toolu_1",
                "content": wrong.feedback(),
                "is_error": True,
            },
            {
                "type": "tool_result",
                "tool_use_id": "toolu_2",
                "content": unknown.feedback(),
                "is_error": True,
            },
        ],
    }
    assert client.requests[2]["messages"][-1]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_3", "content": json.dumps(WEATHER)}
    ]
    assert recorder.handled == [("get_weather", VALID)]
    assert recorder.logged == [wrong.log_record(), unknown.log_record()]


# -- Gemini -----------------------------------------------------------------------------


def gemini_reply(*parts: dict[str, Any]) -> Any:
    """A generateContent response as the API sends it."""
    return sdk.genai_types.GenerateContentResponse.model_validate(
        {"candidates": [{"content": {"role": "model", "parts": list(parts)}}]}
    )


class GeminiStandIn:
    """``client.models.generate_content`` that checks each request and replies as scripted."""

    def __init__(self, replies: list[Any]) -> None:
        self.replies = iter(replies)
        self.requests: list[dict[str, Any]] = []
        self.models = SimpleNamespace(generate_content=self.generate_content)

    def generate_content(self, *, model: str, contents: list[Any], config: Any) -> Any:
        # The SDK's models refuse unknown fields; each content is checked again as sent.
        sent = [
            sdk.genai_types.Content.model_validate(
                c.model_dump() if hasattr(c, "model_dump") else c
            )
            for c in contents
        ]
        config = sdk.genai_types.GenerateContentConfig.model_validate(config.model_dump())
        self.requests.append({"model": model, "contents": sent, "config": config})
        return next(self.replies)


def test_the_gemini_loop_declares_the_tool_list_and_returns_feedback() -> None:
    recorder = Recorder()
    loop = run_block("gemini_turn", recorder)
    client = GeminiStandIn(
        [
            gemini_reply({"functionCall": {"name": "get_weather", "args": WRONG}}),
            gemini_reply({"functionCall": {"name": "get_weather", "args": VALID}}),
            gemini_reply({"text": "21 °C in Hangzhou."}),
        ]
    )
    contents: list[Any] = [{"role": "user", "parts": [{"text": "Weather in Hangzhou?"}]}]
    answers = [loop["gemini_turn"](client, contents) for _ in range(3)]
    assert answers == [None, None, "21 °C in Hangzhou."]

    for request in client.requests:
        (tool,) = request["config"].tools
        declared = [
            d.model_dump(by_alias=True, exclude_none=True, mode="json")
            for d in tool.function_declarations
        ]
        assert declared == generated.tool_definitions("gemini")
    wrong = generated.validate_call("get_weather", WRONG)
    refused = client.requests[1]["contents"][-1].parts[0].function_response
    assert refused.name == "get_weather" and refused.response == {"error": wrong.feedback()}
    answered = client.requests[2]["contents"][-1].parts[0].function_response
    assert answered.response == {"output": WEATHER}
    assert recorder.handled == [("get_weather", VALID)]
    assert recorder.logged == [wrong.log_record()]


# -- MCP --------------------------------------------------------------------------------


def test_the_mcp_handlers_list_the_tools_and_refuse_with_feedback() -> None:
    recorder = Recorder()
    server = run_block("call_tool", recorder)
    listed = server["list_tools"]()
    result = sdk.mcp_types.ListToolsResult(tools=listed)
    assert [
        tool.model_dump(by_alias=True, exclude_none=True) for tool in result.tools
    ] == generated.tool_definitions("mcp")
    for tool in listed:
        module = generated.tool_module(tool.name)
        assert module is not None and tool.input_schema == module.INPUT_SCHEMA

    def text_of(answer: Any) -> str:
        (block,) = answer.content
        return str(block.text)

    for name, arguments in (("get_weather", WRONG), ("get_wether", VALID), ("get_weather", None)):
        answer = server["call_tool"](name, arguments)
        assert isinstance(answer, sdk.mcp_types.CallToolResult) and answer.is_error
        expected = generated.validate_call(name, {} if arguments is None else arguments)
        assert text_of(answer) == expected.feedback()
    answer = server["call_tool"]("get_weather", VALID)
    assert not answer.is_error and json.loads(text_of(answer)) == WEATHER
    assert recorder.handled == [("get_weather", VALID)]


# -- MCP results: checked by the server before they leave, and by the client on receipt ---------

SEARCH = {"query": "asyncio"}
HITS = {
    "results": [
        {
            "title": "asyncio",
            "url": "https://docs.python.org/3/library/asyncio.html",
            "published": None,
        }
    ],
    "total_estimate": 1200,
}
#: Results web_search's output refuses, each in a different way: a hit without its url, a
#: boolean count, an undeclared key, the list itself instead of an object, nothing at all.
BROKEN_HITS = [
    {"results": [{"title": "asyncio"}]},
    {"results": [], "total_estimate": True},
    {"results": [], "page": 2},
    [HITS],
    None,
]


def output_schema(name: str) -> dict[str, Any]:
    (tool,) = [t for t in generated.tool_definitions("mcp") if t["name"] == name]
    schema: dict[str, Any] = tool["outputSchema"]
    return schema


def test_the_mcp_server_returns_a_result_only_when_it_matches_its_output_schema() -> None:
    import jsonschema

    # The cases are real refusals: jsonschema, on the outputSchema the tools list hands out,
    # accepts HITS and refuses every one of BROKEN_HITS.
    judge = jsonschema.Draft202012Validator(output_schema("web_search"))
    assert judge.is_valid(HITS) and not any(judge.is_valid(b) for b in BROKEN_HITS)
    recorder = Recorder({"web_search": HITS})
    server = run_block("call_tool", recorder)
    answer = server["call_tool"]("web_search", SEARCH)
    sent = sdk.mcp_types.CallToolResult.model_validate(answer.model_dump(by_alias=True))
    assert not sent.is_error and sent.structured_content == HITS
    (text,) = sent.content
    assert json.loads(text.text) == HITS  # the same result, for clients that read only content
    # A tool without an output keeps its text result, with no structuredContent.
    weather = server["call_tool"]("get_weather", VALID)
    assert not weather.is_error and weather.structured_content is None
    assert recorder.handled == [("web_search", SEARCH), ("get_weather", VALID)]
    assert recorder.logged == []

    for broken in BROKEN_HITS:
        recorder = Recorder({"web_search": broken})
        server = run_block("call_tool", recorder)
        answer = server["call_tool"]("web_search", SEARCH)
        assert answer.is_error and answer.structured_content is None, broken
        (text,) = answer.content
        assert text.text == "the tool web_search failed; see the server's log"
        expected = generated.validate_result("web_search", broken)
        assert expected.status == "reject" and recorder.logged == [expected.log_record()]
        assert recorder.handled == [("web_search", SEARCH)]  # the tool ran; its result stays


def test_the_mcp_server_logs_a_refused_result_without_its_sensitive_values() -> None:
    import yaml

    contract = yaml.safe_load((ROOT / "contracts/accounts/create_login.yaml").read_text("utf-8"))
    arguments = contract["examples"][0]["args"]
    assert generated.validate_call("create_login", arguments).ok
    token = "a-token-too-short-to-be-one"  # x-sensitive, and under its minLength of 32
    result = {"login_id": "lg_0123456789ab", "session": {"token": token, "expires_at": "soon"}}
    recorder = Recorder({"create_login": result})
    server = run_block("call_tool", recorder)
    answer = server["call_tool"]("create_login", arguments)
    assert answer.is_error and token not in answer.model_dump_json()
    (logged,) = recorder.logged
    assert logged == generated.validate_result("create_login", result).log_record()
    assert {e["path"] for e in logged["errors"]} == {"/session/token", "/session/expires_at"}
    assert token not in json.dumps(logged) and "soon" in json.dumps(logged)


class SessionStandIn:
    """``ClientSession.call_tool``: answers each call with the next scripted ``tools/call``
    result, as the server sends it (JSON), read by the SDK's ``CallToolResult``."""

    def __init__(self, replies: list[dict[str, Any]]) -> None:
        self.replies = iter(replies)
        self.calls: list[tuple[str, Any]] = []

    async def call_tool(self, name: str, arguments: dict[str, Any] | None = None) -> Any:
        self.calls.append((name, arguments))
        return sdk.mcp_types.CallToolResult.model_validate(next(self.replies))


def sent_by_server(result: Any, *, structured: bool = True, error: bool = False) -> dict[str, Any]:
    reply: dict[str, Any] = {
        "content": [{"type": "text", "text": json.dumps(result)}],
        "isError": error,
    }
    if structured:
        reply["structuredContent"] = result
    return reply


def test_the_mcp_client_checks_each_result_it_receives() -> None:
    import asyncio

    recorder = Recorder()
    client = run_block("call_checked", recorder)
    replies = [
        sent_by_server(HITS),
        sent_by_server(WEATHER, structured=False),  # get_weather has no output: as received
        sent_by_server("rate limited", structured=False, error=True),  # a tool error: as received
        sent_by_server(HITS, structured=False),  # web_search promised structuredContent
        *(sent_by_server(broken) for broken in BROKEN_HITS),
    ]
    session = SessionStandIn(replies)
    names = ["web_search", "get_weather", "web_search", "web_search"] + ["web_search"] * len(
        BROKEN_HITS
    )

    async def conversation() -> list[Any]:
        return [await client["call_checked"](session, name, SEARCH) for name in names]

    answers = asyncio.run(conversation())
    assert session.calls == [(name, SEARCH) for name in names]
    received = [sdk.mcp_types.CallToolResult.model_validate(reply) for reply in replies]
    assert answers[:3] == received[:3]  # matching, unstructured, or an error: passed on
    refused = [None, *BROKEN_HITS]  # no structuredContent is a null one: refused
    for answer, content in zip(answers[3:], refused, strict=True):
        assert answer.is_error and answer.structured_content is None, content
        (text,) = answer.content
        assert text.text == "the tool web_search returned a malformed result"
    assert recorder.logged == [
        generated.validate_result("web_search", content).log_record() for content in refused
    ]
    assert recorder.handled == []  # the client runs no tool
