"""What many test files share, importable by name (``from support import ROOT, CONTEXT``):
the repository's folders and the built-in templates' generation context, built once per session.

Plain module-level names rather than fixtures because parametrize lists need them when a
test file is imported; ``conftest.py`` offers the same as fixtures (``root``, ``context``).
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import subprocess
import sys
import types
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from toolshape.codegen import model, render
from toolshape.codegen.context import GenerationContext
from toolshape.contract import checker, shared, source
from toolshape.project import pipeline, planning, runtime

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = ROOT / "contracts"
GENERATED = ROOT / "generated"
BENCH = ROOT / "tests" / "bench"
#: The scripts folder of the environment under test: a subprocess runs ``sys.executable`` or an
#: entry point from here, never whatever ``PATH`` finds (the venv need not be activated).
SCRIPTS = Path(sys.executable).parent


def clean_environment() -> dict[str, str]:
    """The environment a subprocess that stands for a user's own run gets: none of the suite's
    settings (``PYTHON*``, ``PYTEST_*`` such as ``PYTEST_ADDOPTS`` and xdist's worker variables,
    an activated venv's, coverage's), no bytecode written into the folders it runs in."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PYTHON", "PYTEST_", "VIRTUAL_ENV", "PYENV_VERSION", "COV_CORE_"))
    }
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def run_pytest(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    """pytest run in a process of its own the way a user runs it in their project (``-q``, no
    cache folder written): this environment's interpreter, in a ``clean_environment``
    (``PYTEST_ADDOPTS=--durations=15``, inherited, made a nested run list its slowest tests,
    one named "... is a type error")."""
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *map(str, args)],
        cwd=cwd,
        env=clean_environment(),
        capture_output=True,
        text=True,
    )


def example_contracts(folder: Path = CONTRACTS, pattern: str = "*.yaml") -> list[Path]:
    """The tool contracts under ``folder`` (the repository's examples), sorted: files under its
    ``common/`` hold shared definitions, not tools."""
    return [
        path
        for path in sorted(folder.rglob(pattern))
        if not shared.is_shared(PurePosixPath(*path.relative_to(folder).parts))
    ]


def standalone_contracts(folder: Path = CONTRACTS) -> list[Path]:
    """The tool contracts under ``folder`` that reach no shared definitions: each can be read,
    changed and compared alone (as one file, without its folder)."""
    reader = planning.shared_reader(folder)

    def alone(path: Path) -> bool:
        relative = PurePosixPath(*path.relative_to(folder).parts)
        return not shared.gather(path.read_bytes(), str(path), relative, reader)

    return [p for p in example_contracts(folder) + example_contracts(folder, "*.yml") if alone(p)]


def check_example(path: Path, display: str | None = None) -> checker.Contract:
    """The contract at ``path`` checked as ``toolshape generate`` checks it: with the shared
    definitions it reaches in its contracts folder (the repository's for an example, else the
    file's own folder)."""
    root = CONTRACTS if path.is_relative_to(CONTRACTS) else path.parent
    raw, shown = path.read_bytes(), display or str(path)
    relative = PurePosixPath(*path.relative_to(root).parts)
    files = shared.gather(raw, shown, relative, planning.shared_reader(root))
    return checker.load_and_check(raw, shown, relative, files)


def user_cache(name: str, variable: str) -> Path:
    """A folder the tests keep between runs and clones (built venvs, mypy's cache): $variable
    when set, else ``name`` in the user's cache folder (``$XDG_CACHE_HOME`` or ``~/.cache``)."""
    configured = os.environ.get(variable)
    if configured:
        return Path(configured)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / name


def script(name: str) -> str:
    """The path of an entry point (``toolshape``, ``pre-commit``) installed beside the running
    interpreter; a missing one fails the test that needs it."""
    path = SCRIPTS / name
    assert path.is_file(), f"{name} is not installed in {SCRIPTS} (pip install -e '.[test]')"
    return str(path)


#: The official JSON-Schema-Test-Suite, vendored with its licence (PROVENANCE.md names the
#: upstream commit), so that conformance runs in every clone.
SUITE = ROOT / "tests" / "json-schema-test-suite"


def suite_draft(folder: str) -> Path:
    """A draft's folder of the vendored suite (``draft2020-12``, ``draft7``, ...). Missing data is
    an error when the test file is collected, never a skip: a clone without it must not pass
    green with no conformance run."""
    path = SUITE / "tests" / folder
    if not any(path.glob("*.json")):
        raise FileNotFoundError(
            f"the vendored JSON-Schema-Test-Suite has no {folder} cases at {path}: restore "
            "tests/json-schema-test-suite/ from git"
        )
    return path


#: The built-in templates' generation context. Rendering does not change it (beyond rendering
#: the shared runtime once), so one serves every test (building its environment parses every
#: template: about a tenth of a second each time).
CONTEXT: GenerationContext = render.generation_context()


def calls_made(call: Callable[[], object]) -> int:
    """How many Python function calls ``call()`` makes (its own included): the generator's work,
    counted rather than timed (``tests/work_counting.py`` counts a validator's work finer)."""
    count = 0

    def profile(frame: types.FrameType, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    run_profiled(call, profile)
    return count


def run_profiled(
    call: Callable[[], object], profile: Callable[[types.FrameType, str, Any], object]
) -> None:
    """``call()`` with ``profile`` as the profile function, and no garbage collection from
    before it is set to after it is removed: a collection would run the finalizers earlier
    tests left, and the profile would count their calls as ``call``'s."""
    with no_collection():
        sys.setprofile(profile)
        try:
            call()
        finally:
            sys.setprofile(None)


def run_traced(
    call: Callable[[], object], trace: Callable[[types.FrameType, str, Any], Any]
) -> None:
    """``call()`` with ``trace`` as the trace function (the one set before is put back), no
    garbage collection while it is on (see ``run_profiled``)."""
    previous = sys.gettrace()
    with no_collection():
        sys.settrace(trace)
        try:
            call()
        finally:
            sys.settrace(previous)


@contextlib.contextmanager
def no_collection() -> Iterator[None]:
    """No garbage collection inside a counted call: one would run the finalizers of whatever
    earlier tests left, and their calls or lines would count as the call's."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def pyproject() -> dict[str, Any]:
    """The repository's pyproject.toml, read with tomllib (Python 3.11+: the test or the test file
    that needs it is skipped on 3.10, the oldest Python the generator runs on)."""
    if sys.version_info >= (3, 11):
        import tomllib

        data: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        return data
    pytest.skip("reading pyproject.toml needs tomllib (Python 3.11+)", allow_module_level=True)


#: What ``generated`` made, by its inputs: the contract's bytes, how it is shown, where it sits,
#: the shared-definitions files it reaches, and the context (by identity: the context is kept
#: in the value, so its id cannot be reused by another while the entry lives).
_GENERATED: dict[
    tuple[bytes, str, str, tuple[tuple[str, bytes], ...], int],
    tuple[GenerationContext, pipeline.Generated],
] = {}


def generated(
    raw: bytes,
    display: str,
    relative: PurePosixPath,
    context: GenerationContext = CONTEXT,
    files: shared.Files | None = None,
) -> pipeline.Generated:
    """``pipeline.generate`` of these inputs, made once per test process: the tests that read the
    same contract's output (its module or tests text, its listing) share one generation. Only
    for tests that read the output: a test that counts, watches or patches generation (a
    monkeypatched engine, a starved budget) calls the pipeline itself, or it would be handed
    what an unpatched generator made. A ContractError is raised again on each call (nothing
    is kept)."""
    reached = files or {}
    key = (raw, display, str(relative), tuple(sorted(reached.items())), id(context))
    if key not in _GENERATED:
        _GENERATED[key] = (
            context,
            pipeline.generate(raw, display, relative, context, files=reached),
        )
    return _GENERATED[key][1]


def build_module(parameters: Any) -> Any:
    """The generated module for a contract with these parameters (ContractError if refused):
    checked, modelled, rendered and loaded in memory, as ``pipeline.generate`` does it."""
    document = {"name": "t", "description": "A tool.", "parameters": parameters}
    raw = json.dumps(document).encode("utf-8")
    checked = checker.check(source.load(raw, "t.yaml"))
    built = model.build(checked, "t", "0" * 64)
    text = render.render(CONTEXT, "module.py.j2", "t.py", model=built)
    return runtime.load_module(text, "t.py")


def verdicts_unlike_jsonschema(
    module: types.ModuleType, parameters: Any, tried: list[Any]
) -> list[tuple[Any, bool]]:
    """The arguments of ``tried`` on which the generated ``module`` and jsonschema's 2020-12
    validator of ``parameters`` disagree, each with jsonschema's verdict."""
    import jsonschema

    oracle = jsonschema.Draft202012Validator(parameters)
    return [
        (arguments, oracle.is_valid(arguments))
        for arguments in tried
        if module.validate(arguments).ok != oracle.is_valid(arguments)
    ]
