"""``toolshape diff`` on the command line: folders, files and git revisions (review/inputs.py
and the diff part of cli.py), exit codes and usage errors."""

from __future__ import annotations

import argparse
import io
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from diff_support import city, weather
from toolshape.cli import diff_arguments, main, run_diff
from toolshape.contract.errors import UsageError
from toolshape.review.inputs import read_git


def write_tree(root: Path, files: dict[str, bytes]) -> None:
    for name, raw in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(raw)


def cli(argv: list[str], cwd: Path) -> tuple[int, str, str]:
    parser = diff_arguments(argparse.ArgumentParser(prog="toolshape diff"))
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return int(exc.code or 0), "", ""
    out, err = io.StringIO(), io.StringIO()
    code = run_diff(args, stdout=out, stderr=err, cwd=cwd)
    return code, out.getvalue(), err.getvalue()


def test_folders_exit_codes_and_formats(tmp_path: Path) -> None:
    write_tree(tmp_path / "old", {"get_weather.yaml": weather(city(maxLength=100))})
    write_tree(
        tmp_path / "new",
        {"tools/get_weather.yaml": weather(city(maxLength=50)), "notes.txt": b"not a contract"},
    )
    code, out, _ = cli(["old", "new"], tmp_path)
    assert code == 0 and out.startswith(
        "get_weather /properties/city/maxLength: 100 -> 50 -> breaking; witness"
    )
    assert cli(["old", "new", "--fail-on", "breaking"], tmp_path)[0] == 1
    assert cli(["old", "new", "--fail-on", "widening"], tmp_path)[0] == 0
    code, out, _ = cli(["old", "new", "--format", "json", "--fail-on", "any"], tmp_path)
    assert code == 1 and json.loads(out)[0]["effect"] == "breaking"
    code, out, _ = cli(
        ["old/get_weather.yaml", "new/tools/get_weather.yaml", "--format", "markdown"], tmp_path
    )
    assert code == 0 and out.startswith("## toolshape diff")
    assert cli(["old", "old", "--fail-on", "any"], tmp_path)[:2] == (0, "no changes\n")


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    write_tree(tmp_path / "old", {"a.yaml": weather()})
    assert cli(["old"], tmp_path)[0] == 2
    assert cli(["old", "missing"], tmp_path)[0] == 2
    assert cli(["old", "old", "--format", "html"], tmp_path)[0] == 2
    assert cli(["old", "old", "--fail-on", "some"], tmp_path)[0] == 2
    code, _, err = cli(["--base", "HEAD", "old"], tmp_path)  # not a git work tree
    assert code == 2 and "git" in err
    assert main(["diff", "--format", "nope"]) == 2


def test_a_broken_new_side_exits_1_and_prints_the_position(tmp_path: Path) -> None:
    write_tree(tmp_path / "old", {"a.yaml": weather()})
    write_tree(
        tmp_path / "new",
        {
            "a.yaml": b"name: get_weather\ndescription: x\nparameters: {type: object, properties: {a: {type: strin}}}\n"
        },
    )
    code, out, err = cli(["old", "new", "--format", "json"], tmp_path)
    assert code == 1
    assert re.search(r"new/a\.yaml:3:\d+: error: ", err)
    assert json.loads(out)[-1]["effect"] == "error"


@pytest.fixture()
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")

    def git(*args: str) -> None:
        subprocess.run(
            [
                "git",
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@example.com",
                "-c",
                "commit.gpgsign=false",
                *args,
            ],
            cwd=tmp_path,
            check=True,
            capture_output=True,
        )

    git("init", "-q")
    write_tree(
        tmp_path / "contracts",
        {
            "get_weather.yaml": weather(city(maxLength=100)),
            "billing/old_tool.yaml": weather(lambda d: d.update(name="old_tool")),
        },
    )
    (tmp_path / "README").write_text("x")
    git("add", "-A")
    git("commit", "-q", "-m", "base")
    git("tag", "base")
    (tmp_path / "contracts" / "billing" / "old_tool.yaml").unlink()

    def add_k(data: dict[str, Any]) -> None:
        data["parameters"]["properties"]["city"]["maxLength"] = 100
        data["parameters"]["properties"]["unit"]["enum"].append("k")

    write_tree(tmp_path / "contracts", {"get_weather.yaml": weather(add_k)})
    return tmp_path


def test_read_git_reads_the_old_side_at_a_revision(repo: Path) -> None:
    files = read_git("base", "contracts", cwd=repo)
    assert sorted(files) == [
        "base:contracts/billing/old_tool.yaml",
        "base:contracts/get_weather.yaml",
    ]
    assert files["base:contracts/get_weather.yaml"] == weather(city(maxLength=100))
    assert read_git("base", "contracts/get_weather.yaml", cwd=repo / "contracts" / "..") == {
        "base:contracts/get_weather.yaml": weather(city(maxLength=100))
    }
    assert read_git("base", "nothing-here", cwd=repo) == {}
    with pytest.raises(UsageError):
        read_git("no-such-rev", "contracts", cwd=repo)
    with pytest.raises(UsageError):
        read_git("--output=/tmp/x", "contracts", cwd=repo)


def test_base_rev_in_ci(repo: Path) -> None:
    code, out, _ = cli(["--base", "base", "--fail-on", "widening"], repo)
    assert code == 1, out
    lines = out.splitlines()
    assert lines[0].startswith(
        'get_weather /properties/unit/enum: value "k" added -> widening; witness {"city": '
    )
    assert lines[1].startswith(
        "old_tool (tool): tool removed (was base:contracts/billing/old_tool.yaml) -> breaking; witness"
    )
    assert cli(["--base", "base", "contracts", "--fail-on", "breaking"], repo)[0] == 1
    assert cli(["--base", "base", "a", "b"], repo)[0] == 2
    assert (
        cli(["--base", "HEAD", "--fail-on", "any"], repo)[0] == 1
    )  # the working tree differs from HEAD too
