"""toolshape as a user gets it: ``pip install .`` (not editable) into a fresh virtual environment.

The working tree (tracked and untracked files, ignored ones left out: so no build/ or
egg-info of an earlier build) is copied under ``tmp_path`` and installed from there, so
that nothing is built or cached in this repository. The installed toolshape then runs
from an unrelated folder on a copy of contracts/, and its output must be byte for byte
the repository's generated/: the templates travelled in the wheel, and nothing leans on
the checkout. The fresh environment is made without pip of its own (``ensurepip`` costs
3 CPU s): this interpreter's pip installs into it (``pip --python``), as the same ``pip
install .`` a user runs in it, with the same isolated build. No step has a timeout: the
benchmark measures speed, tests never do, and a busy machine must not turn a test red.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import ROOT, pyproject

VERSION = pyproject()["project"]["version"]


def copy_working_tree(destination: Path) -> None:
    """The files git would see in this checkout (tracked and untracked, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    if listed.returncode != 0:
        pytest.skip(
            f"not a git checkout, cannot tell source from build output: {listed.stderr.strip()}"
        )
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)


def files_of(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"
    }


class Steps:
    """Runs commands in the fresh environment, each guarded against a hang."""

    def __init__(self, venv: Path) -> None:
        self.bin = venv / ("Scripts" if os.name == "nt" else "bin")
        # Nothing from this checkout or this interpreter may leak in.
        self.env = {
            k: v
            for k, v in os.environ.items()
            if k not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP")
        }
        self.env["PYTHONDONTWRITEBYTECODE"] = "1"
        self.env["VIRTUAL_ENV"] = str(venv)
        self.env["PATH"] = str(self.bin) + os.pathsep + self.env.get("PATH", "")

    def run(self, *argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(argv, cwd=cwd, env=self.env, capture_output=True, text=True)
        assert result.returncode == 0, (
            f"{argv} failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}"
        )
        return result


def test_a_non_editable_install_reproduces_the_repository_output_from_an_unrelated_folder(
    tmp_path: Path,
) -> None:
    source = tmp_path / "source"
    copy_working_tree(source)
    # The expected output, read at the same moment as the source it must come from.
    theirs = files_of(ROOT / "generated")
    contracts = tmp_path / "contracts-copy" / "contracts"
    shutil.copytree(ROOT / "contracts", contracts)
    venv = tmp_path / "venv"
    subprocess.run(
        [sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, capture_output=True
    )
    steps = Steps(venv)
    python = str(steps.bin / "python")
    unrelated = tmp_path / "somewhere" / "else"
    unrelated.mkdir(parents=True)

    steps.run(
        sys.executable,
        "-m",
        "pip",
        "--python",
        python,
        "install",
        "--quiet",
        "--disable-pip-version-check",
        str(source),
        cwd=unrelated,
    )
    shutil.rmtree(source)  # the installed copy must not need its source

    # Installed into the environment, templates included, and not the checkout's.
    where = steps.run(
        python,
        "-c",
        "import toolshape, toolshape.codegen.render as r; print(toolshape.__file__); print(r.BUILTIN_TEMPLATES)",
        cwd=unrelated,
    ).stdout.splitlines()
    package_file, templates = Path(where[0]), Path(where[1])
    assert package_file.is_relative_to(venv), package_file
    assert templates.is_relative_to(venv), templates
    shipped = {p.name for p in templates.glob("*.j2")}
    assert shipped == {p.name for p in (ROOT / "templates").glob("*.j2")}

    # Versions, from the console script and from python -m.
    assert (
        steps.run(str(steps.bin / "toolshape"), "--version", cwd=unrelated).stdout
        == f"toolshape {VERSION}\n"
    )
    assert (
        steps.run(python, "-m", "toolshape", "--version", cwd=unrelated).stdout
        == f"toolshape {VERSION}\n"
    )

    # The installed toolshape's output is the repository's, byte for byte: `check` regenerates
    # every file in memory and compares it with the folder (a missing, changed or unlisted
    # file fails), so a generate-and-compare here would only do the same work twice.
    shutil.copytree(contracts, unrelated / "contracts")  # the folder name is in the headers
    shutil.copytree(
        ROOT / "generated", unrelated / "generated", ignore=shutil.ignore_patterns("__pycache__")
    )
    assert files_of(unrelated / "generated") == theirs
    result = steps.run(
        str(steps.bin / "toolshape"), "check", "contracts", "--out", "generated", cwd=unrelated
    )
    assert "up to date" in result.stdout, result.stdout
    assert theirs["__init__.py"].startswith(f"# Generated by toolshape {VERSION}".encode())
    # And a hand edit is seen by the installed copy too (its check is not a no-op).
    edited = unrelated / "generated" / "get_weather.py"
    edited.write_bytes(edited.read_bytes() + b"# a hand edit\n")
    refused = subprocess.run(
        [str(steps.bin / "toolshape"), "check", "contracts", "--out", "generated", "--quiet"],
        cwd=unrelated,
        env=steps.env,
        capture_output=True,
        text=True,
    )
    assert refused.returncode == 1, refused.stdout + refused.stderr
    assert "generated/get_weather.py" in refused.stderr + refused.stdout

    # The starter contract travelled too (package data outside templates/), and lints as written.
    steps.run(str(steps.bin / "toolshape"), "new", "lookup_order", "--quiet", cwd=unrelated)
    starter = (unrelated / "contracts" / "lookup_order.yaml").read_text(encoding="utf-8")
    assert starter.startswith("# A toolshape contract: one tool a model may call"), starter[:200]
    steps.run(
        str(steps.bin / "toolshape"), "lint", "contracts/lookup_order.yaml", "-q", cwd=unrelated
    )


def test_every_package_folder_of_the_generator_is_in_the_wheel() -> None:
    """pyproject.toml lists the packages (the templates come from another folder), so a new
    folder of the generator that is not listed would be missing from every non-editable
    install while an editable one, and every test run in it, still works."""
    package_root = ROOT / "generator"
    on_disk = {
        ".".join(init.parent.relative_to(package_root).parts)
        for init in (package_root / "toolshape").rglob("__init__.py")
    }
    listed = set(pyproject()["tool"]["setuptools"]["packages"])
    assert sorted(on_disk - listed) == [], "add these to [tool.setuptools] packages"
    data_only = {"toolshape.templates", "toolshape.starter"}
    assert sorted(listed - on_disk - data_only) == [], "listed, but no such package"
