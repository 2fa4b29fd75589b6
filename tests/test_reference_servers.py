"""The official MCP reference servers' tools, and a corpus of other public servers' tools, as
the servers list them (issues 23 and 24).

tests/data/mcp_servers/ holds the ``tools/list`` result of each reference server that installs
here, with its licence (PROVENANCE.md there says which package, version, date and command);
the tests read those files and need neither npm nor the network. For every tool of every
listing:

- ``toolshape import`` reads its ``inputSchema`` into ``parameters`` and its ``outputSchema``
  into ``output``, leaving nothing of either out, and the contract generates;
- the generated ``validate`` (arguments) and ``validate_result`` (results) agree with
  ``jsonschema``, judging with the validator of the draft the server's schema names (Draft 7
  for the TypeScript servers, 2020-12 for the Python one) on the schema as the server wrote
  it, so that the import's translation to 2020-12 is judged as well. They agree on every case
  the generator derives from the contract, and on valid values drawn for the schema and every
  mutation of them: test_differential.py's comparison (``agree``, ``run_differential``), reused.

The corpus (every other folder there: public servers from npm and PyPI, PROVENANCE.md's second
table) is held to the first point and to the verdicts on the derived cases, which is where
its import and generation defects showed.
"""

from __future__ import annotations

import functools
import json
import types
from pathlib import PurePosixPath
from typing import Any

import pytest
from differential_strategies import KINDS
from support import ROOT
from test_differential import agree, oracle, run_differential
from toolshape.codegen import cases, render
from toolshape.contract import checker, source
from toolshape.platforms import importer
from toolshape.project import pipeline, runtime

DATA = ROOT / "tests" / "data" / "mcp_servers"
#: The official reference servers saved here: the Python one from PyPI, three from npm.
SERVERS = ("everything", "filesystem", "memory", "time")
CONTEXT = render.generation_context()


def listing(server: str) -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = json.loads(
        (DATA / server / "tools_list.json").read_text(encoding="utf-8")
    )["tools"]
    return tools


#: The corpus of other public servers saved beside them (issue 24): every other folder.
CORPUS = tuple(sorted(p.name for p in DATA.iterdir() if p.is_dir() and p.name not in SERVERS))

#: (server, tool name) of every saved tool.
TOOLS = [(server, tool["name"]) for server in SERVERS for tool in listing(server)]
IDS = [f"{server}/{name}" for server, name in TOOLS]


@functools.cache
def imported(server: str) -> dict[str, importer.ImportedContract]:
    """Each tool of the server's listing as ``toolshape import`` reads the saved file."""
    return {i.data["name"]: i for i in importer.import_file(DATA / server / "tools_list.json")}


def tool_of(server: str, name: str) -> dict[str, Any]:
    (tool,) = [t for t in listing(server) if t["name"] == name]
    return tool


@functools.cache
def generated_module(server: str, name: str) -> Any:
    yaml_text = imported(server)[name].yaml_text
    made = pipeline.generate(
        yaml_text.encode("utf-8"), f"{name}.yaml", PurePosixPath("tool.yaml"), CONTEXT
    )
    return runtime.load_module(made.module_source, "tool.py")


@functools.cache
def contract_of(server: str, name: str) -> checker.Contract:
    return checker.check(source.load(imported(server)[name].yaml_text.encode("utf-8"), name))


class Side(types.ModuleType):
    """One side of a generated module as test_differential.py reads a module: its validator
    (``validate``), the schema it was generated from (``INPUT_SCHEMA``), and the server's own
    schema for jsonschema to judge with (``SOURCE_SCHEMA``)."""

    def __init__(self, label: str, validate: Any, schema: Any, written: Any) -> None:
        super().__init__(label)
        self.validate = validate
        self.INPUT_SCHEMA = schema
        self.SOURCE_SCHEMA = written


@functools.cache
def side(server: str, name: str, which: str) -> Side:
    """``which`` is "arguments" (validate, inputSchema) or "result" (validate_result,
    outputSchema). One object per side, so that its oracle and strategies are built once (under
    xdist the whole file runs on one worker: conftest.ONE_WORKER_FILES)."""
    module, tool = generated_module(server, name), tool_of(server, name)
    if which == "arguments":
        return Side(f"{server}/{name}", module.validate, module.INPUT_SCHEMA, tool["inputSchema"])
    return Side(
        f"{server}/{name} result",
        module.validate_result,
        module.OUTPUT_SCHEMA,
        tool["outputSchema"],
    )


#: Every side to compare: each tool's arguments, and its result where it declares one.
SIDES = [(server, name, "arguments") for server, name in TOOLS] + [
    (server, name, "result")
    for server, name in TOOLS
    if tool_of(server, name).get("outputSchema") is not None
]
SIDE_IDS = [f"{server}/{name}/{which}" for server, name, which in SIDES]


# -- the data ------------------------------------------------------------------------------


def test_every_listing_is_saved_with_its_licence_and_provenance() -> None:
    provenance = (DATA / "PROVENANCE.md").read_text(encoding="utf-8")
    assert len(CORPUS) >= 56, CORPUS
    for server in SERVERS + CORPUS:
        licence = (DATA / server / "LICENSE").read_text(encoding="utf-8", errors="replace")
        assert "licen" in licence.lower() or "permission" in licence.lower(), server
        assert f"`{server}/`" in provenance, server
        assert listing(server), server


def test_the_listings_declare_results() -> None:
    """The figure the issue asks for: 26 of the 38 tools declare an ``outputSchema`` (every
    tool of filesystem, memory and time; one of everything's 13)."""
    with_output = [
        IDS[i] for i, (server, name) in enumerate(TOOLS) if "outputSchema" in tool_of(server, name)
    ]
    assert (len(TOOLS), len(with_output)) == (38, 26), with_output
    assert len(SIDES) == 38 + 26


# -- import and generate -----------------------------------------------------------------------


@pytest.mark.parametrize(("server", "name"), TOOLS, ids=IDS)
def test_every_tool_imports_whole_and_generates(server: str, name: str) -> None:
    tool, contract = tool_of(server, name), imported(server)[name]
    # The only notice allowed: the draft's $schema, read and dropped (the contract's dialect
    # is 2020-12); any other drop, whatever its words, is a tool not imported whole.
    left_out = [str(w) for w in contract.warnings if not (w.pointer or "").endswith("/$schema")]
    assert left_out == []
    assert ("output" in contract.data) is ("outputSchema" in tool)
    module = generated_module(server, name)
    assert contract.data["parameters"] == module.INPUT_SCHEMA
    assert hasattr(module, "validate_result") is ("outputSchema" in tool)
    if "outputSchema" in tool:
        assert contract.data["output"] == module.OUTPUT_SCHEMA
        assert module.OUTPUT_SCHEMA["type"] == "object"


# -- agreement with jsonschema ---------------------------------------------------------------


@pytest.mark.parametrize(("server", "name", "which"), SIDES, ids=SIDE_IDS)
def test_the_derived_cases_agree_with_jsonschema(server: str, name: str, which: str) -> None:
    contract = contract_of(server, name)
    derived_from = contract if which == "arguments" else contract.result_side()
    assert derived_from is not None
    derived = cases.derive(derived_from).cases
    compared = side(server, name, which)
    assert any(not c.errors for c in derived), name
    for case in derived:
        agree(compared, case.data, case.name)
        assert compared.validate(case.data).ok is (not case.errors), case.name


@pytest.mark.parametrize("kind", (None, *KINDS), ids=("valid", *KINDS))
@pytest.mark.parametrize(("server", "name", "which"), SIDES, ids=SIDE_IDS)
def test_drawn_values_and_their_mutants_agree_with_jsonschema(
    server: str, name: str, which: str, kind: str | None
) -> None:
    run_differential(side(server, name, which), kind)


def test_the_judge_is_the_draft_the_server_names() -> None:
    """The comparison would prove little if jsonschema judged the imported 2020-12 schema: a
    Draft 7 schema is judged by Draft 7 on the server's own text."""
    drafts = {type(oracle(side(*s))).__name__ for s in SIDES}
    assert drafts == {"Draft7Validator", "Draft202012Validator"}, drafts
    judged = oracle(side("memory", "read_graph", "result"))
    assert judged.schema == tool_of("memory", "read_graph")["outputSchema"]
    assert type(judged).__name__ == "Draft7Validator"


# -- the corpus of other public servers ------------------------------------------------------


def _python_dollar(errors: list[Any], instance: Any) -> bool:
    """Whether toolshape's errors are only ``pattern`` errors on strings that end in a
    newline: there Python's ``$`` (jsonschema's ``re.search``) matches before the final
    newline and ECMA-262's does not (test_differential.py's test_pattern_semantics_are_ecma),
    the one difference the corpus shows besides ``\\d``."""
    if not errors:
        return False
    for error in errors:
        value: Any = instance
        for token in [t for t in error.path.split("/") if t]:
            token = token.replace("~1", "/").replace("~0", "~")
            value = value[int(token)] if isinstance(value, list) else value[token]
        if error.code != "pattern" or not (isinstance(value, str) and value.endswith("\n")):
            return False
    return True


#: Each distinct pair of schemas (inputSchema, outputSchema) of the corpus, compared once: many
#: tools share their schemas (one server's CRUD tools, two servers from one code base), and a
#: tool's name and description change neither the validators nor the derived cases.
_COMPARED: dict[str, str] = {}


def _compare_once(server: str, tool: dict[str, Any]) -> str:
    """The tool whose generation compared this tool's schemas: itself on the first sight of
    them, else the earlier tool that had the same two schemas."""
    key = json.dumps([tool["inputSchema"], tool.get("outputSchema")], sort_keys=True)
    if key not in _COMPARED:
        _compare_with_jsonschema(server, tool)
        _COMPARED[key] = f"{server}/{tool['name']}"
    return _COMPARED[key]


def _compare_with_jsonschema(server: str, tool: dict[str, Any]) -> None:
    name = tool["name"]
    made = pipeline.generate_module(
        imported(server)[name].yaml_text.encode("utf-8"),
        f"{name}.yaml",
        PurePosixPath("tool.yaml"),
        CONTEXT,
    )
    compared = [(made.module.validate, made.module.INPUT_SCHEMA, "inputSchema", made.derived)]
    if tool.get("outputSchema") is not None:
        assert made.contract.result_side() is not None, name
        compared.append(
            (
                made.module.validate_result,
                made.module.OUTPUT_SCHEMA,
                "outputSchema",
                made.result_derived,
            )
        )
    for validate, schema, key, derived in compared:
        judge = oracle(Side(f"{server}/{name}", validate, schema, tool[key]))
        assert any(not c.errors for c in derived), (server, name, key)
        for case in derived:
            ours = validate(case.data)
            if ours.ok is not judge.is_valid(case.data):
                assert _python_dollar(ours.errors, case.data), (server, name, case.name)


@pytest.mark.parametrize("server", CORPUS)
def test_every_corpus_tool_imports_generates_and_agrees_on_its_derived_cases(server: str) -> None:
    """Each public server's every tool imports (nothing refused), generates, and its
    validators give jsonschema's verdict (the draft the server names) on every case derived
    from the contract. Drawn values are left to the four reference servers above: the
    corpus's cost stays one generation per distinct pair of schemas (the module, its checked
    contract and its derived cases come out of one ``generate_module``; no tests file is
    rendered)."""
    for tool in listing(server):
        assert tool["name"] in imported(server), tool["name"]
        _compare_once(server, tool)


def test_the_corpus_shares_one_generation_per_distinct_pair_of_schemas() -> None:
    """Two tools with the same schemas but another name, description and server are compared
    once: the second is answered by the first's generation (counted: ``generate_module`` is
    not called again)."""
    server = CORPUS[0]
    tool = listing(server)[0]
    twin = {**tool, "name": "twin_of_" + tool["name"], "description": "Another tool."}
    calls: list[str] = []
    real = pipeline.generate_module

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1])
        return real(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(pipeline, "generate_module", counted)
        first = _compare_once(server, tool)
        before = len(calls)
        assert _compare_once("elsewhere", twin) == first
    assert len(calls) == before
