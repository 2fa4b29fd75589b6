"""Tool results (issue 23): a contract's ``output``, the module's ``validate_result`` and
``parse_result``, and the gate's ``validate_result(name, value)``.

The example contracts ``web_search`` and ``accounts/create_login`` declare an ``output``;
every other one does not. The result validator agrees with jsonschema in
test_differential.py; the contract check's errors for a bad ``output`` are in
tests/broken_contracts/ (``output_*``, ``example_*result*``); here: what the gate, the
module and its ``OutputResult`` do with a result.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from support import ROOT
from toolshape.cli import main
from toolshape.contract import checker, source

import generated
from generated import _runtime
from generated import web_search as search
from generated.accounts import create_login as login

#: A result web_search's output accepts, and one its output refuses in two places.
GOOD_SEARCH = {
    "results": [{"title": "asyncio", "url": "https://docs.python.org/3/library/asyncio.html"}],
    "total_estimate": 3,
}
BAD_SEARCH = {"results": [{"title": "", "url": "https://example.com/", "rank": 1}]}
#: The session token of a create_login result: x-sensitive in its output.
TOKEN = "s3ss10n-t0k3n-0123456789abcdefghij-secret"
GOOD_LOGIN = {
    "login_id": "lg_0123456789ab",
    "session": {"token": TOKEN, "expires_at": "2026-12-06T12:00:00Z"},
}


def test_the_gate_checks_a_decoded_result_and_result_text() -> None:
    accepted = generated.validate_result("web_search", GOOD_SEARCH)
    assert isinstance(accepted, search.OutputResult) and isinstance(accepted, _runtime.Result)
    assert accepted.ok and accepted.layer is None and accepted.value is GOOD_SEARCH
    parsed = generated.validate_result("web_search", json.dumps(GOOD_SEARCH).encode())
    assert parsed.ok and parsed.value == GOOD_SEARCH
    refused = generated.validate_result("web_search", BAD_SEARCH)
    assert refused.status == "reject" and refused.layer == "result"
    assert {(e.path, e.code) for e in refused.errors} == {
        ("/results/0/title", "minLength"),
        ("/results/0/rank", "additionalProperties"),
    }
    broken = generated.validate_result("web_search", '{"results": [}')
    assert broken.status == "parse_error" and broken.layer == "parse"
    assert [e.code for e in broken.errors] == ["syntax"]


@pytest.mark.parametrize(
    "value", [None, [], [GOOD_SEARCH], 42, True, GOOD_SEARCH["results"]], ids=repr
)
def test_a_result_that_is_not_an_object_is_refused_in_words_for_results(value: Any) -> None:
    result = generated.validate_result("web_search", value)
    assert result.status == "reject" and result.layer == "result"
    assert [(e.path, e.code) for e in result.errors] == [("", "type")]
    assert result.errors[0].message.startswith("the result must be")


def test_a_tool_without_output_is_an_error_whatever_the_value() -> None:
    # get_weather's contract has no output: nothing it returns may pass unchecked.
    for value in ({"city": "Lisbon", "unit": "c"}, {}, '{"temperature": 21}', None):
        with pytest.raises(ValueError, match="get_weather': its contract has no 'output'"):
            generated.validate_result("get_weather", value)
    assert not hasattr(generated.tool_module("get_weather"), "validate_result")


def test_an_unknown_tool_is_a_dispatch_rejection_as_for_calls() -> None:
    names: list[Any] = ["no_such_tool", 42, None]
    for name in names:
        result = generated.validate_result(name, GOOD_SEARCH)
        assert isinstance(result, _runtime.UnknownTool)
        assert result.layer == "dispatch" and not result.ok


def test_the_gate_imports_only_the_tool_it_checks() -> None:
    code = (
        "import sys, generated\n"
        "generated.validate_result('web_search', {'results': []})\n"
        "print(sorted(m for m in sys.modules if m.startswith('generated.')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.strip() == "['generated._runtime', 'generated.web_search']"


def test_feedback_is_for_the_tools_developer_not_for_a_model() -> None:
    refused = search.validate_result(BAD_SEARCH).feedback()
    assert refused.startswith(
        "The result of the tool 'web_search' is JSON, but it does not match the tool's output schema:"
    )
    assert "- at /results/0/title: " in refused and "- at /results/0/rank: " in refused
    assert "call the tool again" not in refused and "arguments" not in refused
    assert "could not be read as JSON" in search.parse_result("").feedback()
    assert search.parse_result(42).errors[0].message == "the result is not JSON text (str or bytes)"
    assert search.validate_result(GOOD_SEARCH).feedback().endswith("matches its output schema.")


def test_a_sensitive_value_of_a_result_never_shows() -> None:
    accepted = login.validate_result(GOOD_LOGIN)
    assert accepted.ok
    record = accepted.log_record()
    assert record["layer"] is None and "arguments" not in record
    assert record["result"]["session"]["token"] == "[redacted]"
    assert record["result"]["login_id"] == "lg_0123456789ab"
    # Refused for the token itself (too short) and for the expiry: still never shown.
    short = TOKEN[:20]
    bad = {"login_id": "lg_0123456789ab", "session": {"token": short, "expires_at": "soon"}}
    for result in (login.validate_result(bad), login.parse_result(json.dumps(bad))):
        assert {(e.path, e.code) for e in result.errors} == {
            ("/session/token", "minLength"),
            ("/session/expires_at", "format"),
        }
        shown = "\n".join(
            [result.feedback(), repr(result), repr(result.log_record())]
            + [e.message for e in result.errors]
        )
        assert short not in shown
        assert result.log_record()["result"]["session"]["token"] == "[redacted]"


def test_the_arguments_side_is_unchanged_by_an_output() -> None:
    # The result's checks live in their own function: arguments are still checked by
    # `parameters` only, and a valid result is not valid arguments.
    assert search.validate({"query": "cats"}).ok
    assert [e.code for e in search.validate(GOOD_SEARCH).errors] == [
        "required",
        "additionalProperties",
        "additionalProperties",
    ]
    assert search.INPUT_SCHEMA["required"] == ["query"]
    assert search.OUTPUT_SCHEMA["required"] == ["results"]


def _contract(text: str) -> checker.Contract:
    return checker.check(source.load(text.encode(), "t.yaml"))


def test_the_result_side_of_a_contract_reads_output_in_place_of_parameters() -> None:
    contract = _contract(
        "name: t\ndescription: d.\n"
        "parameters: {type: object, properties: {key: {type: string, x-sensitive: true}}}\n"
        "output:\n"
        "  type: object\n"
        "  properties:\n"
        "    secret: {type: string, x-sensitive: true}\n"
        "examples:\n"
        "  - args: {key: k}\n"
        "  - result: {secret: s}\n"
    )
    assert contract.result_examples[0].of_result and contract.result_examples[0].args == {
        "secret": "s"
    }
    assert [e.args for e in contract.examples] == [{"key": "k"}]
    assert contract.sensitive == [("properties", "key")]
    side = contract.result_side()
    assert side is not None and side.root_key == "output"
    assert side.parameters == contract.output and side.sensitive == [("properties", "secret")]
    assert side.examples == contract.result_examples and side.result_side() is None
    assert side.line_of(("properties", "secret")) == 7
    without = _contract("name: t\ndescription: d.\nparameters: {type: object}\n")
    assert without.output is None and without.result_side() is None


def test_a_module_template_without_the_result_side_cannot_leave_output_unchecked(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    built_in = (ROOT / "templates" / "module.py.j2").read_text(encoding="utf-8")
    cut = built_in.index("{% if model.result %}\n\n\ndef validate_result")
    (tmp_path / "templates").mkdir()
    (tmp_path / "templates" / "module.py.j2").write_text(built_in[:cut], encoding="utf-8")
    (tmp_path / "contracts").mkdir()
    shutil.copy(ROOT / "contracts" / "web_search.yaml", tmp_path / "contracts")
    out = tmp_path / "out"
    code = main(
        ["generate", str(tmp_path / "contracts"), "--out", str(out)]
        + ["--templates", str(tmp_path / "templates")]
    )
    err = capsys.readouterr().err
    assert code == 1 and not out.exists()
    lines = (ROOT / "contracts" / "web_search.yaml").read_text(encoding="utf-8").splitlines()
    line = lines.index("output:") + 1  # the error points at the contract's output key
    assert (
        f"web_search.yaml:{line}:1: error: the module template lays out no validate_result()" in err
    )
