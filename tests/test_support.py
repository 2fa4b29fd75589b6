"""The tests' own shared helpers (support.py), where a mistake would make other tests prove
less than they claim: ``generated``, the per-process memo of ``pipeline.generate``, must hand a
test exactly what generating its own inputs gives, never output made from other inputs; and
``run_pytest``, which every test that starts pytest in a process of its own goes through, must
run it as a user would, whatever ``PYTEST_*`` settings the suite itself runs under."""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath

import pytest
from support import CONTEXT, CONTRACTS, ROOT, generated, run_pytest
from toolshape.codegen import render
from toolshape.codegen.context import GenerationContext
from toolshape.contract.errors import ContractError
from toolshape.project import pipeline

RAW = (CONTRACTS / "get_weather.yaml").read_bytes()
PLACE = PurePosixPath("get_weather.yaml")


@dataclass(frozen=True)
class Inputs:
    """Everything ``generated`` takes: what the output may depend on."""

    raw: bytes = RAW
    display: str = "contracts/get_weather.yaml"
    relative: PurePosixPath = PLACE
    context: GenerationContext = field(default_factory=lambda: CONTEXT)
    files: dict[str, bytes] = field(default_factory=dict)

    def memo(self) -> pipeline.Generated:
        return generated(self.raw, self.display, self.relative, self.context, self.files)

    def fresh(self) -> pipeline.Generated:
        return pipeline.generate(self.raw, self.display, self.relative, self.context, self.files)


def _outputs(made: pipeline.Generated) -> tuple[str, str, str, str]:
    return made.tool_name, str(made.module_path), made.module_source, made.test_source


def test_the_same_inputs_are_generated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bytes] = []
    real = pipeline.generate

    def counted(
        raw: bytes,
        display: str,
        relative: PurePosixPath,
        context: GenerationContext,
        files: dict[str, bytes],
    ) -> pipeline.Generated:
        calls.append(raw)
        return real(raw, display, relative, context, files)

    monkeypatch.setattr(pipeline, "generate", counted)
    inputs = Inputs(raw=RAW + b"\n# generated once\n")
    first = inputs.memo()
    assert inputs.memo() is first
    assert calls == [inputs.raw]


def _custom_templates(folder: Path) -> GenerationContext:
    """A templates folder whose module template differs from the built-in one by a comment."""
    text = (ROOT / "templates" / "module.py.j2").read_text(encoding="utf-8")
    (folder / "module.py.j2").write_text(text + "# a custom template\n", encoding="utf-8")
    return render.generation_context(folder)


CHANGES = ["bytes", "display", "place", "command", "templates", "shared file"]


@pytest.mark.parametrize("change", CHANGES)
def test_any_other_input_is_generated_afresh_and_gets_its_own_output(
    change: str, tmp_path: Path
) -> None:
    """Each input the output depends on is part of the key: with one changed, ``generated``
    gives what pipeline.generate gives for the changed inputs, which is not the first output."""
    base = Inputs()
    base.memo()
    changed = {
        "bytes": replace(base, raw=RAW.replace(b"Current weather", b"Weather now")),
        "display": replace(base, display="elsewhere/get_weather.yaml"),
        "place": replace(base, relative=PurePosixPath("weather/get_weather.yaml")),
        "command": replace(base, context=CONTEXT.for_command("make validators")),
        "templates": replace(base, context=_custom_templates(tmp_path)),
        "shared file": replace(base, files={"common/unused.yaml": b"$defs: {}\n"}),
    }[change]
    assert _outputs(changed.fresh()) != _outputs(base.memo())
    assert _outputs(changed.memo()) == _outputs(changed.fresh())


def test_a_refused_contract_is_refused_on_every_call() -> None:
    broken = Inputs(raw=b"name: broken\ndescription: A tool.\nparameters: {type: array}\n")
    for _ in range(2):
        with pytest.raises(ContractError):
            broken.memo()


def test_a_nested_pytest_run_takes_none_of_the_suites_pytest_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The suite's own ``PYTEST_*`` settings (``PYTEST_ADDOPTS=--durations=15`` in the README's
    cost measurement, xdist's worker variables) are not a user's: one an inner run would
    refuse, and one that would change its output, leave it as a plain run."""
    (tmp_path / "project").mkdir()
    (tmp_path / "project" / "test_one.py").write_text("def test_one():\n    pass\n")
    monkeypatch.setenv("PYTEST_ADDOPTS", "--no-such-option --durations=5")
    monkeypatch.setenv("PYTEST_PLUGINS", "no_such_plugin_module")
    result = run_pytest("project", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "slowest" not in result.stdout
    assert result.stdout.strip().splitlines()[-1].startswith("1 passed")


def test_every_nested_pytest_run_goes_through_run_pytest() -> None:
    """No test file spells a pytest command line of its own (``-m pytest`` in a list), which
    would take the suite's ``PYTEST_*`` settings with it."""
    allowed = {"support.py"}
    found = []
    for path in sorted((ROOT / "tests").glob("*.py")):
        if path.name in allowed:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.List):
                items = [e.value if isinstance(e, ast.Constant) else None for e in node.elts]
                if any(a == "-m" and b == "pytest" for a, b in itertools.pairwise(items)):
                    found.append(f"{path.name}:{node.lineno}")
    assert not found, f"pytest started without support.run_pytest at {found}"
