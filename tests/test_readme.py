"""README.md as a user reads it: its commands and code run as written, its figures come from
one table.

Every ```sh block runs in a scratch project (a copy of ``contracts/`` and ``generated/``, a git
repository with an ``origin``), as written, with the ``toolshape`` and ``python`` of the running
environment on ``PATH``; the few commands that cannot run inside a test (installs, the whole
suite, the formatters that rewrite the sources) are listed in ``NOT_RUN``, each with its reason
and a check of what it names. The ```python blocks outside "Agent loops" run with stand-ins for
the names the README leaves to the reader (``tests/test_agent_loops.py`` runs the loops).

Figures: a measurement (a number with a unit: s, ms, us, ns, x, %, MB, ...) may stand only in
the Performance table or in the table of what the test run costs; anywhere else in README.md
and docs/*.md a number with a unit must be a limit listed in ``LIMITS``, whose value is read
from the code. So no figure is given twice, and none can contradict the table.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from support import ROOT, SCRIPTS
from toolshape.contract import source
from toolshape.platforms import mcp_stdio
from toolshape.witness import budget

README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))


@dataclass(frozen=True)
class Block:
    """One fenced code block: its language, its text, the line its fence opens on."""

    language: str
    text: str
    line: int


def blocks(text: str) -> list[Block]:
    found = []
    for match in re.finditer(r"^```(\w*)\n(.*?)^```", text, flags=re.MULTILINE | re.DOTALL):
        line = text.count("\n", 0, match.start()) + 1
        found.append(Block(match.group(1), match.group(2), line))
    return found


def section(text: str, heading: str) -> str:
    """The text under ``heading`` (a whole heading line), up to the next heading of its level
    or above."""
    level = len(heading.split(" ", 1)[0])
    start = text.index(f"\n{heading}\n") + len(heading) + 2
    following = re.search(rf"^#{{1,{level}}} ", without_code_blocks(text[start:]), re.MULTILINE)
    return text[start : start + following.start()] if following else text[start:]


def readme() -> str:
    return README.read_text(encoding="utf-8")


# -- shell commands -----------------------------------------------------------------------


def _extra_exists(extra: str) -> Callable[[], None]:
    def check() -> None:
        pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
        assert re.search(rf"^{extra} = \[", pyproject, re.MULTILINE), f"no [{extra}] extra"

    return check


def _path_exists(name: str) -> Callable[[], None]:
    def check() -> None:
        assert (ROOT / name).exists(), f"{name} does not exist"

    return check


def _installed(name: str) -> Callable[[], None]:
    def check() -> None:
        assert (SCRIPTS / name).is_file(), f"{name} is not installed beside the interpreter"

    return check


def _code_quality_runs(tool: str) -> Callable[[], None]:
    def check() -> None:
        text = (ROOT / "tests" / "test_code_quality.py").read_text(encoding="utf-8")
        assert tool in text, f"tests/test_code_quality.py does not run {tool}"
        _installed(tool)()

    return check


#: Commands the README shows that this test does not run: why, and what it checks instead.
NOT_RUN: dict[str, tuple[str, Callable[[], None]]] = {
    "pip install .": (
        "would replace the environment running this test; tests/test_packaging.py installs "
        "the package from a wheel into a fresh venv",
        _installed("toolshape"),
    ),
    "pip install -e '.[test]'": (
        "the environment running this test is installed so",
        _extra_exists("test"),
    ),
    "pytest": ("the whole suite, of which this test is one", _path_exists("generated/tests")),
    "pytest tests/test_cli.py": ("one file of this suite", _path_exists("tests/test_cli.py")),
    "pytest generated": ("the generated tests, part of this suite", _path_exists("generated")),
    "ruff format generator tests": (
        "rewrites the sources; tests/test_code_quality.py runs it in check mode",
        _code_quality_runs("ruff"),
    ),
    "ruff check --fix generator tests": (
        "rewrites the sources; tests/test_code_quality.py runs ruff check",
        _code_quality_runs("ruff"),
    ),
    "mypy": ("tests/test_code_quality.py runs it", _code_quality_runs("mypy")),
}


def not_run_pattern(command: str) -> re.Pattern[str]:
    """``command`` as a whole command: at a line's start or after ``&&``, before ``&&``, a
    comment or the line's end."""
    return re.compile(rf"(?:^|(?<=&& )){re.escape(command)}(?=\s*(?:&&|#|$))", flags=re.MULTILINE)


def runnable(script: str) -> str:
    """The script with each NOT_RUN command replaced by ``true``."""
    for command in sorted(NOT_RUN, key=len, reverse=True):
        script = not_run_pattern(command).sub("true", script)
    return script


def shell_blocks() -> list[Block]:
    return [block for block in blocks(readme()) if block.language == "sh"]


def block_starting(prefix: str) -> Block:
    (block,) = [block for block in shell_blocks() if block.text.startswith(prefix)]
    return block


@pytest.fixture
def scratch(tmp_path: Path) -> Iterator[Path]:
    """A service's repository as the README's commands expect it: the example contracts and
    their output, committed, with an ``origin`` whose ``main`` holds the same."""
    project = tmp_path / "project"
    shutil.copytree(ROOT / "contracts", project / "contracts")
    shutil.copytree(ROOT / "generated", project / "generated")
    for cached in project.rglob("__pycache__"):
        shutil.rmtree(cached)
    git("init", "-q", "-b", "main", cwd=project)
    git("add", "-A", cwd=project)
    git("commit", "-q", "-m", "contracts", cwd=project)
    git("clone", "-q", "--bare", str(project), str(tmp_path / "origin.git"), cwd=tmp_path)
    git("remote", "add", "origin", str(tmp_path / "origin.git"), cwd=project)
    yield project


def git(*args: str, cwd: Path) -> str:
    identity = {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    ran = subprocess.run(
        ["git", *args], cwd=cwd, capture_output=True, text=True, env={**os.environ, **identity}
    )
    assert ran.returncode == 0, ran.stderr
    return ran.stdout


def run_block(block: Block, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run the block with bash as the README writes it (NOT_RUN commands aside): the running
    environment's scripts first on PATH, and ``uvx TOOL`` standing for the installed TOOL."""
    shims = cwd.parent / "shims"
    shims.mkdir(exist_ok=True)
    uvx = shims / "uvx"
    uvx.write_text('#!/bin/sh\nexec "$@"\n', encoding="utf-8")
    uvx.chmod(0o755)
    env = {**os.environ, "PATH": os.pathsep.join([str(SCRIPTS), str(shims), os.environ["PATH"]])}
    env.pop("PYTHONPATH", None)  # the commands see what a user's shell sees
    return subprocess.run(
        ["bash", "-o", "pipefail", "-c", runnable(block.text)],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=env,
    )


def test_every_not_run_command_is_in_the_readme_and_checked() -> None:
    scripts = "\n".join(block.text for block in shell_blocks())
    for command, (reason, check) in NOT_RUN.items():
        assert not_run_pattern(command).search(scripts), f"{command!r} is not in the README"
        assert reason
        check()


def test_every_shell_block_is_run_here() -> None:
    """A new ```sh block needs a test below: each is named by how it starts."""
    run_here = {
        "pip install . && toolshape generate",
        "mkdir -p mytools",
        "toolshape import --out contracts --mcp",
        "git fetch origin main",
        "pip install -e '.[test]' && pytest     # every test",
    }
    for block in shell_blocks():
        assert any(block.text.startswith(start) for start in run_here), (
            f"README.md:{block.line}: a shell block this test does not run"
        )


def test_the_quick_start_regenerates_the_committed_output(scratch: Path) -> None:
    ran = run_block(block_starting("pip install . && toolshape generate"), scratch)
    assert ran.returncode == 0, ran.stderr
    assert git("status", "--porcelain", cwd=scratch) == ""


def test_your_own_tool_in_a_minute(tmp_path: Path) -> None:
    folder = tmp_path / "work"
    folder.mkdir()
    ran = run_block(block_starting("mkdir -p mytools"), folder)
    assert ran.returncode == 0, ran.stderr
    lines = ran.stdout.splitlines()
    assert lines[0].startswith("generated 1 module")
    accepted = lines.index("accept")
    assert lines[accepted + 1].startswith("The arguments for the tool 'get_weather' are JSON")
    assert (folder / "myvalidators" / "get_weather.py").is_file()


def test_import_from_an_mcp_server(scratch: Path) -> None:
    ran = run_block(block_starting("toolshape import --out contracts --mcp"), scratch)
    assert ran.returncode == 0, ran.stderr
    imported = sorted(path.name for path in (scratch / "contracts").glob("*time*.yaml"))
    assert imported == ["convert_time.yaml", "get_current_time.yaml"], imported
    assert "MCP server mcp-time" in (scratch / "contracts" / "get_current_time.yaml").read_text(
        encoding="utf-8"
    )


def test_diff_in_ci_fails_on_a_breaking_change(scratch: Path) -> None:
    contract = scratch / "contracts" / "get_weather.yaml"
    text = contract.read_text(encoding="utf-8")
    assert "minLength: 1" in text
    contract.write_text(text.replace("minLength: 1", "minLength: 1, maxLength: 2", 1), "utf-8")
    ran = run_block(block_starting("git fetch origin main"), scratch)
    assert ran.returncode == 1, ran.stderr  # --fail-on breaking
    report = (scratch / "diff.md").read_text(encoding="utf-8")
    assert "maxLength" in report
    assert "breaking" in report


def test_the_development_commands(scratch: Path) -> None:
    ran = run_block(block_starting("pip install -e '.[test]' && pytest     # every test"), scratch)
    assert ran.returncode == 0, ran.stderr
    assert "diff --git" not in ran.stdout  # generate reproduced the committed output


# -- contracts and python blocks ----------------------------------------------------------


def test_the_contract_sample_lints_and_generates(tmp_path: Path) -> None:
    (sample,) = [
        block
        for block in blocks(section(readme(), "## The contract"))
        if block.language == "yaml" and block.text.startswith("name: get_weather")
    ]
    (tmp_path / "contracts").mkdir()
    (tmp_path / "contracts" / "get_weather.yaml").write_text(sample.text, encoding="utf-8")
    ran = subprocess.run(
        [str(SCRIPTS / "toolshape"), "generate", "--strict"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert ran.returncode == 0, ran.stderr
    assert (tmp_path / "generated" / "get_weather.py").is_file()


def python_blocks() -> list[Block]:
    """The ```python blocks outside "Agent loops" (tests/test_agent_loops.py runs those)."""
    text = readme()
    loops = section(text, "## Agent loops")
    return [block for block in blocks(text.replace(loops, "")) if block.language == "python"]


class Stand:
    """The names the gate example leaves to the reader: a call, a dispatch, a logger, a reply."""

    def __init__(self, name: str, arguments: str) -> None:
        self.call = SimpleNamespace(function=SimpleNamespace(name=name, arguments=arguments))
        self.dispatched: list[tuple[str, Any]] = []
        self.logged: list[dict[str, Any]] = []
        self.replies: list[str] = []

    def namespace(self) -> dict[str, Any]:
        return {
            "__name__": "readme_example",
            "call": self.call,
            "dispatch": lambda name, value: self.dispatched.append((name, value)),
            "logger": SimpleNamespace(
                warning=lambda message, extra: self.logged.append(json.loads(json.dumps(extra)))
            ),
            "reply_to_model": self.replies.append,
        }


def test_every_python_block_outside_the_loops_is_run_here() -> None:
    starts = [block.text.splitlines()[0] for block in python_blocks()]
    assert starts == ["from generated import validate_call"]


@pytest.mark.parametrize(
    ("arguments", "dispatched"),
    [('{"city": "Oslo", "unit": "c"}', True), ('{"city": "Oslo", "units": "c"}', False)],
)
def test_the_gate_example_dispatches_or_replies(arguments: str, dispatched: bool) -> None:
    (block,) = python_blocks()
    stand = Stand("get_weather", arguments)
    exec(compile(block.text, f"README.md:{block.line}", "exec"), stand.namespace())
    if dispatched:
        assert stand.dispatched == [("get_weather", {"city": "Oslo", "unit": "c"})]
        assert stand.replies == []
        assert stand.logged == []
    else:
        assert stand.dispatched == []
        (reply,) = stand.replies
        assert 'did you mean "unit"?' in reply
        (record,) = stand.logged
        assert record["status"] == "reject"


# -- figures ------------------------------------------------------------------------------

#: A number with a unit of time, size, ratio or share: what a measurement looks like.
FIGURE = re.compile(
    r"(?<![\w.\\/-])"
    r"(\d[\d,]*(?:\.\d+)?(?:-\d[\d,]*(?:\.\d+)?)?)"
    r"(?:\s?(ns|us|µs|ms|s|[kKMG]i?B|seconds|minutes|hours)|(x|%))"
    r"(?!\w)"
)


def _mib(value: float) -> str:
    return f"{value / 1_048_576:g} MiB"


#: The limits the manual may state anywhere, each as the code defines it.
LIMITS: dict[str, Callable[[], set[str]]] = {
    "1 MiB": lambda: {_mib(source.MAX_CONTRACT_BYTES), _mib(runtime_limit("MAX_TEXT_BYTES"))},
    "16 MiB": lambda: {_mib(mcp_stdio.MAX_LINE_BYTES)},
    "64 MiB": lambda: {_mib(mcp_stdio.MAX_OUTPUT_BYTES)},
    "30 s": lambda: {f"{budget.BACKSTOP_SECONDS:g} s", f"{mcp_stdio.DEFAULT_TIMEOUT:g} s"},
}


def runtime_limit(name: str) -> int:
    import generated._runtime as runtime

    value = getattr(runtime, name)
    assert isinstance(value, int)
    return value


def measurement_tables(text: str) -> list[str]:
    """The table rows of the Performance section and of "What the test run costs"."""
    tables = []
    for heading in ("## Performance", "### What the test run costs"):
        rows = [line for line in section(text, heading).splitlines() if line.startswith("|")]
        tables.append("\n".join(rows))
    return tables


def without_code_blocks(text: str) -> str:
    """The text with each fenced block blanked: its characters made spaces, its line breaks kept,
    so that offsets and line numbers hold."""
    return re.sub(
        r"^```.*?^```",
        lambda m: re.sub(r"[^\n]", " ", m.group(0)),
        text,
        flags=re.MULTILINE | re.DOTALL,
    )


def stray_figures(text: str, allowed: list[str]) -> list[str]:
    """Each figure of ``text`` outside the ``allowed`` passages that is not a listed limit,
    as ``line: figure``."""
    for passage in allowed:
        text = text.replace(passage, "\n" * passage.count("\n"))
    found = []
    for number, line in enumerate(without_code_blocks(text).splitlines(), 1):
        for match in FIGURE.finditer(line):
            figure = " ".join(part for part in match.groups() if part)
            if match.group(3):  # x and % are written against the number
                figure = match.group(1) + match.group(3)
            if figure not in LIMITS:
                found.append(f"{number}: {figure}")
    return found


def test_figures_stand_only_in_the_tables() -> None:
    text = readme()
    assert stray_figures(text, measurement_tables(text)) == []
    for doc in DOCS:
        strays = stray_figures(doc.read_text(encoding="utf-8"), [])
        assert strays == [], f"{doc.relative_to(ROOT)}: {strays}"


@pytest.mark.parametrize("limit", sorted(LIMITS))
def test_each_limit_the_manual_states_is_the_codes(limit: str) -> None:
    assert LIMITS[limit]() == {limit}


def test_the_figure_check_finds_a_figure_outside_the_tables() -> None:
    text = "| what | measured |\n|---|--:|\n| cold | 48.3 s |\n\nA cold run takes 48.3 s, 2.1x.\n"
    table = "| what | measured |\n|---|--:|\n| cold | 48.3 s |"
    assert stray_figures(text, [table]) == ["5: 48.3 s", "5: 2.1x"]
    assert stray_figures("Texts over 1 MiB; 2 cores; 1,000 contracts; `\\x07`.", []) == []
    assert stray_figures("```\ntook 3 s\n```\nabout 40 ms", []) == ["4: 40 ms"]


def test_the_performance_section_has_one_table_one_row_per_fact() -> None:
    performance = section(readme(), "## Performance")
    rows = [line for line in performance.splitlines() if line.startswith("|")]
    tables = re.findall(r"(?:^\|.*\n)+", performance, flags=re.MULTILINE)
    assert len(tables) == 1
    facts = [row.split("|")[1].strip() for row in rows[2:]]
    assert len(facts) == len(set(facts)), "a fact measured twice"
    for row in rows[2:]:
        assert re.search(r"\| 20\d\d-\d\d-\d\d \|$", row), f"a row without its date: {row}"


def test_the_test_run_costs_are_dated_with_the_15_slowest_tests() -> None:
    costs = section(readme(), "### What the test run costs")
    assert re.search(r"\b20\d\d-\d\d-\d\d\b", costs.split("\n|", 1)[0])
    rows = [line for line in costs.splitlines() if line.startswith("| `")]
    assert any("wall" in row for row in rows) and any("CPU" in row for row in rows)
    assert len([row for row in rows if ".py::" in row]) == 15


def test_no_history_in_the_manual() -> None:
    """No issue numbers, commit hashes or "this round": the manual says what is, not how."""
    for path in [README, *DOCS]:
        text = path.read_text(encoding="utf-8")
        assert not re.findall(r"\bissues? \d+", text), path
        hashes = re.findall(r"\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b", text)
        assert hashes == [], f"{path.relative_to(ROOT)}: {hashes}"
        assert not re.findall(r"this round|since this|before this", text), path


# -- links --------------------------------------------------------------------------------


def anchors(text: str) -> set[str]:
    """The anchors GitHub gives the headings of ``text``."""
    headings = re.findall(r"^#+ (.+)$", without_code_blocks(text), flags=re.MULTILINE)
    return {re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-") for heading in headings}


def test_every_link_between_the_manual_and_docs_resolves() -> None:
    for path in [README, *DOCS]:
        text = path.read_text(encoding="utf-8")
        for target in re.findall(r"\]\(([^)\s]+)\)", without_code_blocks(text)):
            if re.match(r"\w+://", target):
                continue
            file, _, anchor = target.partition("#")
            linked = (path.parent / file).resolve() if file else path
            assert linked.exists(), f"{path.relative_to(ROOT)}: {target}: no such file"
            if anchor:
                assert anchor in anchors(linked.read_text(encoding="utf-8")), (
                    f"{path.relative_to(ROOT)}: {target}: no such heading"
                )
