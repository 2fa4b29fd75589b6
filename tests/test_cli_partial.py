"""Generating or checking part of a project leaves the rest alone, or refuses with the
command that covers the whole contracts folder; the printed next steps are safe."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from support import ROOT
from toolshape.cli import main

WEATHER = ROOT / "contracts" / "get_weather.yaml"
TRANSFER = ROOT / "contracts" / "billing" / "transfer_funds.yaml"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "contracts" / "billing").mkdir(parents=True)
    shutil.copy(WEATHER, tmp_path / "contracts" / "get_weather.yaml")
    shutil.copy(TRANSFER, tmp_path / "contracts" / "billing" / "transfer_funds.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def snapshot(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


@pytest.mark.parametrize("part", ["contracts/get_weather.yaml", "contracts/billing"])
@pytest.mark.parametrize("command", ["generate", "check"])
def test_part_of_a_project_is_refused_with_the_whole_folder_command(
    project: Path, capsys: pytest.CaptureFixture[str], part: str, command: str
) -> None:
    assert run(capsys, "generate", "-q")[0] == 0
    before = snapshot(project / "generated")
    code, out, err = run(capsys, command, part)
    assert code == 2 and out == ""
    assert f"{command} {part} would " in err
    assert f"Run it on the whole folder: toolshape {command} contracts --out generated" in err
    assert snapshot(project / "generated") == before
    assert run(capsys, "check", "-q")[0] == 0  # the whole project is still up to date


def test_a_part_in_an_output_folder_of_its_own_is_fine(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "generate", "-q")[0] == 0
    code, out, err = run(capsys, "generate", "contracts/get_weather.yaml", "--out", "weather_only")
    assert (code, err) == (0, "") and out.startswith("generated 1 module, 1 test file, ")
    assert run(capsys, "check", "contracts/get_weather.yaml", "--out", "weather_only", "-q")[0] == 0


def test_a_deleted_contract_is_still_cleaned_up(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "generate", "-q")[0] == 0
    (project / "contracts" / "billing" / "transfer_funds.yaml").unlink()
    code, out, err = run(capsys, "check")
    assert code == 1 and "extra: its contract is gone" in err
    code, out, err = run(capsys, "generate")
    assert code == 0 and "removed: generated/billing/transfer_funds.py" in out


def test_new_prints_a_safe_next_step(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "new", "refund", "--dir", "contracts/billing")
    target = Path("contracts") / "billing" / "refund.yaml"
    assert (
        code == 0
        and out
        == f"created {target}: edit it, then run: toolshape lint {target} && toolshape generate\n"
    )
    code, out, _ = run(capsys, "new", "lookup", "--dir", "tools")
    assert out.endswith("&& toolshape generate tools\n")
