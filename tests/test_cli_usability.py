"""The command line next to the tools around it: ``toolshape new`` and colour on a terminal only.

Everything runs under ``tmp_path``; the repository's contracts/ and generated/ are never written.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from support import run_pytest
from toolshape import cli
from toolshape.cli import main

BROKEN = """\
name: broken_tool
description: A tool with a typo.
parameters:
  type: object
  properties:
    city: {type: string, minLenght: 1}
"""
RED_ERROR = "\033[31merror\033[0m"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, captured.out, captured.err


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


# -- toolshape new ----------------------------------------------------------------------------


def test_new_writes_a_starter_contract_that_lints_and_generates(
    work: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "new", "lookup_order")
    assert (code, err) == (0, "")
    target = work / "contracts" / "lookup_order.yaml"
    assert (
        out
        == f"created {Path('contracts') / 'lookup_order.yaml'}: edit it, then run: toolshape lint {Path('contracts') / 'lookup_order.yaml'} && toolshape generate\n"
    )
    text = target.read_text(encoding="utf-8")
    assert re.search(r"^name: lookup_order$", text, re.MULTILINE)
    # Commented: every top-level key has a comment block right above it that starts "# key:".
    lines = text.splitlines()
    for key in ("name", "description", "parameters", "examples"):
        at = lines.index(next(line for line in lines if line.startswith(f"{key}:")))
        block: list[str] = []
        while at > 0 and lines[at - 1].startswith("#"):
            at -= 1
            block.insert(0, lines[at])
        assert block and block[0].startswith(f"# {key}:"), f"no comment explains {key!r}"
    for keyword in ("required", "additionalProperties", "properties"):
        assert re.search(rf"^\s*# .*\b{keyword}\b", text, re.MULTILINE), (
            f"no comment mentions {keyword!r}"
        )

    assert run(capsys, "lint") == (0, "1 contract, no problems\n", "")
    code, out, err = run(capsys, "generate", "--out", "out")
    assert (code, err) == (0, "")
    assert out.startswith("generated 1 module, 1 test file, ")
    result = run_pytest("out", cwd=work)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]


def test_new_has_an_accepted_and_a_rejected_example_that_behave_as_declared(
    work: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, "new", "lookup_order", "--quiet") == (0, "", "")
    import yaml

    data = yaml.safe_load((work / "contracts" / "lookup_order.yaml").read_text(encoding="utf-8"))
    statuses = [example.get("status", "accept") for example in data["examples"]]
    assert "accept" in statuses and "reject" in statuses
    assert run(capsys, "generate", "-q", "--out", "starter_out")[0] == 0
    monkeypatch.syspath_prepend(str(work))
    try:
        from starter_out import lookup_order  # type: ignore[import-not-found]

        assert lookup_order.validate({"query": "order 1042", "limit": 5}).ok
        rejected = lookup_order.validate({"limit": 5})
        assert [(e.path, e.code) for e in rejected.errors] == [("/query", "required")]
        assert lookup_order.TOOL_NAME == "lookup_order"
    finally:
        for name in [n for n in sys.modules if n == "starter_out" or n.startswith("starter_out.")]:
            del sys.modules[name]


def test_new_into_another_folder_creates_it(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(capsys, "new", "refund", "--dir", "api/tools/billing")
    assert code == 0
    assert (work / "api/tools/billing/refund.yaml").is_file()
    assert run(capsys, "lint", "api/tools")[0] == 0


def test_new_refuses_to_overwrite(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = work / "contracts"
    folder.mkdir()
    (folder / "lookup_order.yaml").write_text("mine\n", encoding="utf-8")
    (folder / "refund.yml").write_text("mine too\n", encoding="utf-8")
    code, out, err = run(capsys, "new", "lookup_order")
    assert (code, out) == (1, "")
    assert "already exists" in err and "lookup_order.yaml" in err
    assert (folder / "lookup_order.yaml").read_text(encoding="utf-8") == "mine\n"
    # The same module from a .yml file would clash: refused too.
    code, out, err = run(capsys, "new", "refund")
    assert (code, out) == (1, "")
    assert "refund.yml already exists" in err
    assert not (folder / "refund.yaml").exists()


@pytest.mark.parametrize(
    "name",
    [
        "get-weather",
        "get.weather",
        "2fa_reset",
        "class",
        "tests",
        "TOOLS",
        "validate_call",
        "__init__",
        "a" * 65,
        "",
        "météo",
        "get weather",
        "../escape",
    ],
)
def test_new_refuses_names_that_are_not_a_tool_name_and_a_python_identifier(
    work: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    code, out, err = run(capsys, "new", name)
    assert (code, out) == (2, "")
    assert err.startswith("toolshape: error: new ")
    assert not (work / "contracts").exists()


def test_new_refuses_a_dir_that_is_a_file(work: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (work / "contracts").write_text("", encoding="utf-8")
    code, out, err = run(capsys, "new", "lookup_order")
    assert (code, out) == (2, "")
    assert "not a folder" in err


def test_new_help_shows_examples(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "new", "--help")
    assert (code, err) == (0, "")
    assert "usage: toolshape new" in out
    assert re.search(r"^examples?:\n  toolshape new\b", out, re.MULTILINE)


# -- colour -------------------------------------------------------------------------------------


class Terminal(io.StringIO):
    """A stderr that says it is a terminal."""

    def isatty(self) -> bool:
        return True


@pytest.fixture
def broken(work: Path) -> Path:
    (work / "contracts").mkdir()
    (work / "contracts" / "broken.yaml").write_text(BROKEN, encoding="utf-8")
    return work


def lint_stderr(monkeypatch: pytest.MonkeyPatch, stream: io.StringIO) -> tuple[int, str]:
    monkeypatch.setattr(sys, "stderr", stream)
    code = main(["lint"])
    return code, stream.getvalue()


def test_error_is_red_on_a_terminal(broken: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    code, err = lint_stderr(monkeypatch, Terminal())
    assert code == 1
    line = err.splitlines()[0]
    assert re.fullmatch(
        rf"{re.escape(str(Path('contracts/broken.yaml')))}:6:\d+: {re.escape(RED_ERROR)}: .*minLenght.*",
        line,
    )
    # Only the word is coloured; stripping the escapes gives the plain line back.
    assert re.sub(r"\033\[[0-9;]*m", "", line).startswith(f"{Path('contracts/broken.yaml')}:6:")


def test_no_colour_when_stderr_is_not_a_terminal(
    broken: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    code, err = lint_stderr(monkeypatch, io.StringIO())
    assert code == 1
    assert "\033" not in err
    assert ": error: " in err


@pytest.mark.parametrize("value", ["1", "true", "0"])
def test_no_colour_with_no_color_set_even_on_a_terminal(
    broken: Path, monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("NO_COLOR", value)  # any non-empty value, as https://no-color.org says
    monkeypatch.setenv("TERM", "xterm-256color")
    code, err = lint_stderr(monkeypatch, Terminal())
    assert code == 1
    assert "\033" not in err and ": error: " in err


def test_no_colour_on_a_dumb_terminal(broken: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "dumb")
    code, err = lint_stderr(monkeypatch, Terminal())
    assert code == 1 and "\033" not in err


def test_colour_never_reaches_stdout_or_the_summary(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (work / "contracts").mkdir()
    (work / "contracts" / "ok.yaml").write_text(
        "name: ok\ndescription: d\nparameters: {type: object}\n", encoding="utf-8"
    )
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.setenv("TERM", "xterm-256color")
    out, err = Terminal(), Terminal()
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", err)
    assert main(["lint"]) == 0
    assert main(["lint", "--quiet"]) == 0
    assert out.getvalue() == "1 contract, no problems\n"
    assert err.getvalue() == ""


def test_a_stream_whose_isatty_fails_gets_no_colour(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("TERM", raising=False)

    class Closed(io.StringIO):
        def isatty(self) -> bool:
            raise ValueError("I/O operation on closed file")

    assert cli._use_colour(Closed()) is False
    assert cli._use_colour(object()) is False
    assert cli._use_colour(Terminal()) is True


def test_the_readme_names_every_layer_a_result_can_have() -> None:
    """Each ``layer`` the gate's results carry (a parse error, a refusal, an unknown tool) is in
    the README's description of ``Result``."""
    import generated

    root = Path(__file__).resolve().parents[1]
    readme = (root / "README.md").read_text(encoding="utf-8")
    (described,) = [line for line in readme.splitlines() if line.startswith("  `layer` (")]
    results = (
        generated.validate_call("get_weather", '{"city": '),
        generated.validate_call("get_weather", {"city": ""}),
        generated.validate_call("no_such_tool", {}),
        generated.validate_result("web_search", {"results": "none"}),
    )
    layers = [result.layer for result in results]
    assert layers == ["parse", "contract", "dispatch", "result"]
    for layer in layers:
        assert f'`"{layer}"`' in described
    assert generated.validate_call("get_weather", {"city": "Oslo", "unit": "c"}).layer is None
