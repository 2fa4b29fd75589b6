"""The pre-commit hooks (.pre-commit-hooks.yaml) and the sample configuration in the README.

The hooks file is checked statically here, and the hooks run for real (``pre-commit`` is in
the test extra) in a throw-away git repository holding contracts and their generated
output, through the README's sample ``.pre-commit-config.yaml`` (``pre-commit try-repo``
would build a second hook environment to show the same: the hooks installed from a
repository pass on up-to-date output and refuse a hand edit).

pre-commit installs a hook repository from a git commit, and the working tree under test
may hold uncommitted or untracked changes (``try-repo`` would only pick up tracked ones):
so the hooks repository is a snapshot of the working tree (tracked and untracked files,
ignored ones left out), committed in a temporary folder. Nothing is written into this
repository, and pre-commit's store lives under ``tmp_path``.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import yaml
from support import ROOT, pyproject, script
from toolshape.cli import _parser, main

HOOKS = ROOT / ".pre-commit-hooks.yaml"
# One test runs pre-commit for real, so the hook's environment (toolshape installed from the
# snapshot, with black) is built once per run.
GIT_IDENTITY = {
    "GIT_AUTHOR_NAME": "toolshape tests",
    "GIT_AUTHOR_EMAIL": "tests@toolshape.invalid",
    "GIT_COMMITTER_NAME": "toolshape tests",
    "GIT_COMMITTER_EMAIL": "tests@toolshape.invalid",
}


def hooks() -> dict[str, dict[str, object]]:
    data = yaml.safe_load(HOOKS.read_text(encoding="utf-8"))
    assert isinstance(data, list)
    return {hook["id"]: hook for hook in data}


# -- the hooks file, statically -----------------------------------------------------------


def test_the_hooks_file_declares_a_generate_and_a_check_hook() -> None:
    declared = hooks()
    assert set(declared) == {"toolshape-generate", "toolshape-check"}
    for hook_id, command in (("toolshape-generate", "generate"), ("toolshape-check", "check")):
        hook = declared[hook_id]
        for key in ("id", "name", "entry", "language"):  # what pre-commit requires of a hook
            assert isinstance(hook.get(key), str) and hook[key], f"{hook_id}: {key} missing"
        assert hook["entry"] == f"toolshape {command}"
        assert (
            hook["language"] == "python"
        )  # pre-commit installs this repository into the hook's env
        assert hook["pass_filenames"] is False  # the whole project, never a list of changed files
        files = re.compile(str(hook["files"]))
        for path in (
            "contracts/get_weather.yaml",
            "contracts/billing/refund.yml",
            "generated/__init__.py",
            "generated/tests/test_get_weather.py",
            "pyproject.toml",  # [tool.toolshape] may move the folders
        ):
            assert files.search(path), f"{hook_id} does not run when {path} changes"
        for path in (
            "README.md",
            "src/contracts/x.yaml",
            "mygenerated/x.py",
            "tests/test_x.py",
            "sub/pyproject.toml",
            "pyproject.toml.orig",
        ):
            assert not files.search(path), f"{hook_id} runs when {path} changes"


def test_the_hook_entries_are_commands_toolshape_has() -> None:
    scripts = pyproject()["project"]["scripts"]
    assert "toolshape" in scripts  # the executable the entries name, installed into the hook's env
    for hook in hooks().values():
        program, command = str(hook["entry"]).split()
        assert program == "toolshape"
        # argparse's public face: a known subcommand's --help exits 0, an unknown one exits 2.
        with pytest.raises(SystemExit) as stopped:
            _parser().parse_args([command, "--help"])
        assert stopped.value.code == 0, f"{command} is not a toolshape subcommand"


def test_the_readme_documents_the_hooks_with_a_sample_config() -> None:
    config = readme_sample_config()
    (repo,) = config["repos"]
    assert {hook["id"] for hook in repo["hooks"]} <= set(hooks())
    assert repo["rev"]


def readme_sample_config() -> dict[str, Any]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Use with pre-commit", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    assert block, "the README's pre-commit section has a ```yaml sample"
    config: dict[str, Any] = yaml.safe_load(block.group(1))
    return config


# -- the hooks, for real ------------------------------------------------------------------


def git(*args: str, cwd: Path) -> str:
    result = subprocess.run(
        ["git", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, **GIT_IDENTITY},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def snapshot_of_the_working_tree(destination: Path) -> str:
    """The repository as it is on disk (ignored files left out), committed; returns the commit."""
    listed = git("ls-files", "-z", "--cached", "--others", "--exclude-standard", cwd=ROOT)
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a tracked file deleted on disk is left out
            target = destination / name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git("init", "-q", cwd=destination)
    git("add", "-A", cwd=destination)
    git("commit", "-q", "-m", "snapshot", cwd=destination)
    return git("rev-parse", "HEAD", cwd=destination).strip()


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A service's repository: one contract and its up-to-date output, committed."""
    root = tmp_path / "service"
    (root / "contracts").mkdir(parents=True)
    shutil.copyfile(
        ROOT / "contracts" / "get_weather.yaml", root / "contracts" / "get_weather.yaml"
    )
    (root / "README.md").write_text("a service\n", encoding="utf-8")
    monkeypatch.chdir(root)
    assert main(["generate", "--quiet"]) == 0
    git("init", "-q", cwd=root)
    git("add", "-A", cwd=root)
    git("commit", "-q", "-m", "contracts and generated validators", cwd=root)
    return root


@dataclass(frozen=True)
class Hooks:
    """The hooks repository (a snapshot of the working tree, committed) and pre-commit's store."""

    repo: Path
    commit: str
    home: Path


@pytest.fixture
def hooks_repo(tmp_path: Path) -> Hooks:
    folder = tmp_path / "hooks"
    commit = snapshot_of_the_working_tree(folder / "toolshape")
    return Hooks(folder / "toolshape", commit, folder / "pre-commit-home")


def pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, **GIT_IDENTITY, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    env.pop("PYTHONPATH", None)  # the hook runs the toolshape pre-commit installed, nothing else
    return subprocess.run(
        [script("pre-commit"), *args], cwd=cwd, capture_output=True, text=True, env=env
    )


def hand_edit(project: Path) -> None:
    with open(project / "generated" / "get_weather.py", "a", encoding="utf-8") as handle:
        handle.write("# a hand edit\n")
    git("add", "-A", cwd=project)


def test_the_readme_sample_config_regenerates_and_checks(project: Path, hooks_repo: Hooks) -> None:
    home = hooks_repo.home
    config = readme_sample_config()
    config["repos"][0]["repo"] = str(hooks_repo.repo)
    config["repos"][0]["rev"] = hooks_repo.commit
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config), encoding="utf-8")
    git("add", "-A", cwd=project)

    result = pre_commit("run", "--all-files", cwd=project, home=home)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    ran = re.findall(r"^(toolshape \w+)\.+(\w+)$", result.stdout, re.MULTILINE)
    assert ran == [("toolshape generate", "Passed")], ran  # the check is for CI (manual stage)
    result = pre_commit(
        "run", "--hook-stage", "manual", "toolshape-check", "--all-files", cwd=project, home=home
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    assert re.search(r"^toolshape check\.+Passed$", result.stdout, re.MULTILINE), result.stdout

    # A change outside contracts/ and generated/ does not run them.
    result = pre_commit("run", "--files", "README.md", cwd=project, home=home)
    assert result.returncode == 0
    assert re.search(
        r"^toolshape generate\.+\(no files to check\)Skipped$", result.stdout, re.MULTILINE
    )

    # A hand edit: the check hook refuses it and leaves the file as it is...
    hand_edit(project)
    result = pre_commit(
        "run", "--hook-stage", "manual", "toolshape-check", "--all-files", cwd=project, home=home
    )
    assert result.returncode == 1, result.stdout[-4000:]
    assert re.search(r"^toolshape check\.+Failed$", result.stdout, re.MULTILINE), result.stdout
    assert "generated/get_weather.py: hand-edited" in result.stdout
    edited = project / "generated" / "get_weather.py"
    assert edited.read_text(encoding="utf-8").endswith("# a hand edit\n")
    # ...and the generate hook puts the generated file back and stops the commit.
    result = pre_commit("run", "toolshape-generate", "--all-files", cwd=project, home=home)
    assert result.returncode == 1
    assert "files were modified by this hook" in result.stdout
    assert "changed: generated/get_weather.py" in result.stdout
    assert (
        not (project / "generated" / "get_weather.py")
        .read_text(encoding="utf-8")
        .endswith("# a hand edit\n")
    )
    git("add", "-A", cwd=project)
    result = pre_commit(
        "run", "--hook-stage", "manual", "toolshape-check", "--all-files", cwd=project, home=home
    )
    assert result.returncode == 0, result.stdout[-4000:]
