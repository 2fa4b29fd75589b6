"""The project's settings in pyproject.toml (``[tool.toolshape]``), ``-o``, and the output
folder refused when Python could not import it as a package.

Each project is a folder under ``tmp_path`` holding ``.git`` (so the walk up for a
pyproject.toml stops there, as it does at a repository's root), one small contract, and a
pyproject.toml written by the test.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from support import ROOT
from toolshape.cli import main
from toolshape.project import configuration, planning

WEATHER = ROOT / "contracts" / "get_weather.yaml"
RECURSIVE = ROOT / "contracts" / "comments" / "post_comment.yaml"
#: A contract with one warning (a default its own schema refuses) and nothing else.
WARNS = (
    "name: odd\ndescription: d\nparameters:\n  type: object\n  properties:\n"
    "    n: {type: [integer, 'null'], default: x}\n"
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, captured.out, captured.err


def project(tmp_path: Path, table: str, contracts: str = "api") -> Path:
    """A repository with ``WEATHER`` in ``contracts`` and ``table`` as its [tool.toolshape]."""
    home = tmp_path / "project"
    (home / ".git").mkdir(parents=True)
    (home / contracts).mkdir(parents=True)
    shutil.copyfile(WEATHER, home / contracts / "get_weather.yaml")
    (home / "pyproject.toml").write_text(
        f'[project]\nname = "demo"\n\n[tool.toolshape]\n{table}', encoding="utf-8"
    )
    return home


def second_line(path: Path) -> str:
    """The header line of a generated file that names the command regenerating it."""
    return path.read_text(encoding="utf-8").splitlines()[1]


# -- the folders -----------------------------------------------------------------------------


def test_generate_and_check_take_their_folders_from_pyproject_wherever_they_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, 'contracts = "api"\nout = "src/validators"\n')
    (home / "src" / "deep").mkdir(parents=True)
    monkeypatch.chdir(home / "src" / "deep")  # the table's paths start at pyproject.toml
    code, _, err = run(capsys, "generate")
    assert (code, err) == (0, "")
    module = home / "src" / "validators" / "get_weather.py"
    assert module.is_file() and not (home / "src" / "deep" / "generated").exists()
    # The header names the short command: the table supplies both folders.
    assert second_line(module) == "# To change it, edit the contract and run: toolshape generate"
    monkeypatch.chdir(home)
    assert run(capsys, "check")[0] == 0
    # The same output however the folders are named: given on the command line, the same bytes.
    before = module.read_bytes()
    assert run(capsys, "check", "api", "-o", "src/validators")[0] == 0
    assert module.read_bytes() == before


def test_the_command_line_overrides_the_table_and_the_header_spells_it_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, 'contracts = "api"\nout = "src/validators"\n')
    monkeypatch.chdir(home)
    code, _, err = run(capsys, "generate", "-o", "elsewhere", "-q")
    assert (code, err) == (0, "")
    assert not (home / "src").exists()
    module = home / "elsewhere" / "get_weather.py"
    # Plain `toolshape generate` would write src/validators: the header says what makes this.
    assert second_line(module).endswith("run: toolshape generate api --out elsewhere")
    # check's fix names only what differs from the table.
    module.write_text(module.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    code, _, err = run(capsys, "check", "--out", "elsewhere")
    assert code == 1
    assert "get_weather.py: hand-edited: " in err
    assert err.splitlines()[0].endswith("; run toolshape generate --out elsewhere")


def test_a_table_above_the_repository_root_is_not_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, "", contracts="contracts")
    (home / "pyproject.toml").write_text('[project]\nname = "demo"\n', encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text('[tool.toolshape]\nout = "never"\n', encoding="utf-8")
    monkeypatch.chdir(home)
    assert run(capsys, "generate", "-q")[0] == 0
    assert (home / "generated" / "get_weather.py").is_file()
    assert not (home / "never").exists() and not (tmp_path / "never").exists()


def test_import_and_new_write_into_the_configured_contracts_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, 'contracts = "api"\n')
    monkeypatch.chdir(home)
    code, out, _ = run(capsys, "new", "lookup_order")
    assert (home / "api" / "lookup_order.yaml").is_file()
    # The table names the folder: plain generate regenerates it.
    target = Path("api", "lookup_order.yaml")
    assert out == (
        f"created {target}: edit it, then run: toolshape lint {target} && toolshape generate\n"
    )
    code, out, _ = run(capsys, "new", "refund", "--dir", "api/billing")
    assert code == 0 and out.endswith(" && toolshape generate\n")
    code, out, _ = run(capsys, "new", "other", "--dir", "elsewhere")
    assert code == 0 and out.endswith(" && toolshape generate elsewhere\n")
    tools = home / "tools.json"
    tools.write_text(
        '{"tools": [{"name": "ping", "description": "Ping.", '
        '"inputSchema": {"type": "object", "properties": {}}}]}',
        encoding="utf-8",
    )
    assert run(capsys, "import", "tools.json", "-q")[0] == 0
    assert (home / "api" / "ping.yaml").is_file()


def git(home: Path, *args: str) -> None:
    """Run git in ``home`` as a throw-away identity (the repository's own settings aside)."""
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.com"]
        + ["-c", "commit.gpgsign=false", *args],
        cwd=home,
        check=True,
        capture_output=True,
    )


def test_diff_base_compares_the_configured_contracts_folder_and_takes_its_templates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    home = project(tmp_path, 'contracts = "api"\n')
    shutil.rmtree(home / ".git")
    shutil.copytree(home / "api", home / "other")  # a second folder, left unchanged
    git(home, "init", "-q")
    git(home, "add", "-A")
    git(home, "commit", "-q", "-m", "base")
    contract = home / "api" / "get_weather.yaml"
    text = contract.read_text(encoding="utf-8")
    assert "minLength: 1, " in text
    contract.write_text(text.replace("minLength: 1, ", "minLength: 1, maxLength: 50, "), "utf-8")
    (home / "sub").mkdir()
    monkeypatch.chdir(home / "sub")  # the table's paths start at pyproject.toml
    code, out, err = run(capsys, "diff", "--base", "HEAD")
    assert (code, err) == (0, "")
    assert out.startswith("get_weather /properties/city/maxLength: 50 added -> breaking; ")
    # templates from the table: one that cannot render makes each side's validator fail.
    (home / "broken").mkdir()
    (home / "broken" / "module.py.j2").write_text("{{ no_such_value }}\n", encoding="utf-8")
    with open(home / "pyproject.toml", "a", encoding="utf-8") as table:
        table.write('templates = "broken"\n')
    code, out, err = run(capsys, "diff", "--base", "HEAD")
    assert code == 1
    assert "cannot generate the validator" in out and "no_such_value" in out
    # The command line wins over the table, for both.
    (home / "empty").mkdir()
    code, out, _ = run(capsys, "diff", "--base", "HEAD", "--templates", "../empty")
    assert code == 0 and out.startswith("get_weather /properties/city/maxLength: 50 added ")
    code, out, _ = run(capsys, "diff", "--base", "HEAD", "../other", "--templates", "../empty")
    assert (code, out) == (0, "no changes\n")


def test_schema_takes_its_one_target_from_the_table(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, 'contracts = "api"\ntarget = "anthropic"\n')
    monkeypatch.chdir(home)
    code, out, _ = run(capsys, "schema", "api/get_weather.yaml")
    assert code == 0 and "input_schema" in json.loads(out)  # Anthropic's spelling
    code, out, _ = run(capsys, "schema", "--all")
    assert code == 0 and "input_schema" in json.loads(out)[0]
    code, out, _ = run(capsys, "schema", "--all", "--target", "mcp")
    assert code == 0 and "inputSchema" in json.loads(out)[0]  # the option wins
    (home / "pyproject.toml").write_text(
        '[tool.toolshape]\ntarget = ["openai", "anthropic"]\n', encoding="utf-8"
    )
    code, out, err = run(capsys, "schema", "api/get_weather.yaml")
    assert (code, out) == (2, "")
    assert err == (
        "toolshape: error: schema prints one platform's definitions, and pyproject.toml: "
        "[tool.toolshape] target names 2 (openai, anthropic): give --target\n"
    )


# -- strictness and targets --------------------------------------------------------------------


def test_strict_from_the_table_and_no_strict_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, "strict = true\n", contracts="contracts")
    (home / "contracts" / "get_weather.yaml").unlink()
    (home / "contracts" / "odd.yaml").write_text(WARNS, encoding="utf-8")
    monkeypatch.chdir(home)
    code, _, err = run(capsys, "generate")
    assert code == 1 and "[a warning; --strict]" in err
    assert not (home / "generated").exists()
    code, _, err = run(capsys, "generate", "--no-strict", "-q")
    assert code == 0 and ": warning: " in err and (home / "generated" / "odd.py").is_file()


def test_lint_targets_from_the_table_and_the_option_replacing_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, 'target = ["gemini-legacy"]\n', contracts="contracts")
    shutil.copyfile(RECURSIVE, home / "contracts" / "get_weather.yaml")
    monkeypatch.chdir(home)
    code, _, err = run(capsys, "lint")
    assert code == 1 and "is recursive" in err
    assert run(capsys, "lint", "--target", "jsonschema")[0] == 0


# -- what the table may hold -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "named", "hint"),
    [
        ('outt = "x"', "unknown key 'outt'", "did you mean 'out'?"),
        ('contract = "x"', "unknown key 'contract'", "did you mean 'contracts'?"),
        ("Strict = true", "unknown key 'Strict'", "did you mean 'strict'?"),
        ('targets = ["openai"]', "unknown key 'targets'", "did you mean 'target'?"),
        (
            "quiet = true",
            "unknown key 'quiet'",
            "(known: contracts, out, templates, target, strict)",
        ),
        ('strict = "yes"', "strict: must be true or false", ""),
        ("out = 3", "out: must be a path", ""),
        ('out = ""', "out: must be a path", ""),
        ('target = "gemni"', "unknown platform 'gemni'", "did you mean 'gemini'?"),
        ("target = [1]", "target: must be a platform name or a list of them", ""),
        ('templates = "nowhere"', "templates = 'nowhere': no such folder", ""),
    ],
)
def test_a_bad_table_is_refused_naming_the_file_and_the_key(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    line: str,
    named: str,
    hint: str,
) -> None:
    home = project(tmp_path, line + "\n", contracts="contracts")
    (home / "sub").mkdir()
    monkeypatch.chdir(home / "sub")
    for command in (["generate"], ["check"], ["lint"]):
        code, out, err = run(capsys, *command)
        assert code == 2 and out == ""
        assert err.startswith(f"toolshape: error: {Path('..', 'pyproject.toml')}: [tool.toolshape]")
        assert named in err and hint in err
    assert sorted(p.name for p in home.iterdir()) == [".git", "contracts", "pyproject.toml", "sub"]


def test_a_pyproject_that_is_not_toml_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, "", contracts="contracts")
    (home / "pyproject.toml").write_text("[tool.toolshape\n", encoding="utf-8")
    monkeypatch.chdir(home)
    code, _, err = run(capsys, "generate")
    assert code == 2 and err.startswith("toolshape: error: pyproject.toml: not valid TOML: ")


# -- -o, and the output folder's name ----------------------------------------------------------


def test_o_is_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, "", contracts="contracts")
    monkeypatch.chdir(home)
    assert run(capsys, "generate", "-o", "short", "-q")[0] == 0
    assert run(capsys, "check", "--out", "short", "-q")[0] == 0
    assert second_line(home / "short" / "get_weather.py").endswith("generate --out short")


@pytest.mark.parametrize(
    ("out", "name", "better"),
    [
        ("my-validators", "my-validators", "my_validators"),
        ("src/2fast", "2fast", "src/tool_2fast"),
        ("class", "class", "class_tool"),
        ("caf\u00e9", "caf\u00e9", "cafe"),
        ("gen.v2", "gen.v2", "gen_v2"),
        ("__private", "__private", "private"),
        ("..", "work-tree", "../../work_tree"),
    ],
)
def test_an_output_folder_python_cannot_import_is_refused_before_any_work(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    out: str,
    name: str,
    better: str,
) -> None:
    home = project(tmp_path, "", contracts="contracts")
    (home / "work-tree" / "inner").mkdir(parents=True)
    shutil.copytree(home / "contracts", home / "work-tree" / "inner" / "contracts")
    monkeypatch.chdir(home / "work-tree" / "inner" if out == ".." else home)
    planned: list[Path] = []
    real_plan = planning.plan

    def counted(root: Path, *args: Any, **options: Any) -> planning.Plan:
        planned.append(root)
        return real_plan(root, *args, **options)

    monkeypatch.setattr(planning, "plan", counted)
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    for command in ("generate", "check"):
        code, stdout, err = run(capsys, command, "-o", out)
        assert (code, stdout) == (2, "")
        assert err == (
            f"toolshape: error: output folder {out}: the generated package is imported by its "
            f"folder's name, and '{name}' is not a Python package name (ASCII letters, digits "
            f"and _, not starting with a digit or __, not a keyword); e.g. {better}\n"
        )
    assert planned == []  # refused before any contract was read
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_configured_output_folder_python_cannot_import_is_refused_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    home = project(tmp_path, 'out = "my-validators"\n', contracts="contracts")
    monkeypatch.chdir(home)
    code, _, err = run(capsys, "generate")
    assert code == 2 and "output folder my-validators: " in err
    assert not (home / "my-validators").exists()


def test_the_readme_sample_table_is_read_as_it_says(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's sample, as a project's pyproject.toml: every key, each value taken."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme.split("## Command line", 1)[1].split("\n## ", 1)[0]
    block = re.search(r"```toml\n(.*?)```", section, re.DOTALL)
    assert block, "the README's Command line section shows a [tool.toolshape] sample"
    keys = re.findall(r"^(\w+) = ", block.group(1), re.MULTILINE)
    assert tuple(keys) == configuration.KEYS
    (tmp_path / ".git").mkdir()
    (tmp_path / "pyproject.toml").write_text(block.group(1), encoding="utf-8")
    templates = re.search(r'^templates = "(.+)"', block.group(1), re.MULTILINE)
    assert templates
    (tmp_path / templates.group(1)).mkdir()
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    settings = configuration.load()
    assert settings.file == Path("..", "pyproject.toml")
    assert (settings.contracts, settings.out) == (
        str(Path("..", "api", "tools")),
        str(Path("..", "src", "validators")),
    )
    assert settings.templates == Path("..", templates.group(1))
    assert (settings.target, settings.strict) == (("openai", "anthropic"), True)
