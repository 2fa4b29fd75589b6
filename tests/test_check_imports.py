"""`check` proves what Python will import, not only what files hold (issue 20, class 5).

Python imports names: in each folder of a package, importlib's FileFinder takes a package
folder (``pay/__init__.*``) before a module, an extension module before source before
sourceless bytecode, a source module's bytecode from ``__pycache__`` when its header matches,
and any other folder as a namespace package; ``site`` runs ``.pth`` files. Every such entry
that toolshape did not generate makes ``check`` fail and is named, at the top of the output
folder, in a subpackage and in the tests package; a real import through the dispatch gate
shows that the shadows are effective. Files nothing imports (a README, data) stay allowed,
and bytecode Python wrote for the generated sources is accepted.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import marshal
import os
import py_compile
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath

import pytest
from support import CONTEXT, ROOT
from toolshape.cli import main
from toolshape.project import checking, planning, writing

#: Where a shadow goes (a folder of the output) -> the tool whose module lives there.
FOLDERS = {"": "get_weather", "billing": "transfer_funds"}
#: A stand-in module: every call accepted, whatever the arguments.
BACKDOOR = (
    "import types\n"
    "def validate(value, platform=None):\n"
    "    return types.SimpleNamespace(status='shadowed')\n"
    "parse = validate\n"
)
TAG = sys.implementation.cache_tag


@pytest.fixture(scope="module")
def base(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, planning.Plan]]:
    """contracts/ (get_weather, billing/transfer_funds) generated into generated/, and the plan."""
    folder = tmp_path_factory.mktemp("base")
    (folder / "contracts" / "billing").mkdir(parents=True)
    shutil.copyfile(
        ROOT / "contracts" / "get_weather.yaml", folder / "contracts" / "get_weather.yaml"
    )
    shutil.copyfile(
        ROOT / "contracts" / "billing" / "transfer_funds.yaml",
        folder / "contracts" / "billing" / "transfer_funds.yaml",
    )
    before = Path.cwd()
    os.chdir(folder)
    try:
        plan = planning.plan(Path("contracts"), CONTEXT, out=Path("generated"))
        writing.write(plan, Path("generated"))
    finally:
        os.chdir(before)
    yield folder, plan


@pytest.fixture
def work(
    base: tuple[Path, planning.Plan], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, planning.Plan]:
    """A fresh copy of the base (modification times kept), as the working folder."""
    folder = tmp_path / "work"
    shutil.copytree(base[0], folder)
    monkeypatch.chdir(folder)
    return folder, base[1]


def found(plan: planning.Plan) -> dict[str, str]:
    """What check finds in generated/: path -> kind."""
    return {str(f.path): f.kind for f in checking.check(plan, Path("generated"))}


def call(folder: Path, tool: str, *python_options: str, write_bytecode: bool = False) -> str:
    """The status the dispatch gate of ``folder/generated`` gives an empty-array call, in a
    new interpreter (Python's own import system, nothing of this process cached)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    if not write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    code = (
        f"import sys; sys.path.insert(0, {str(folder)!r}); from generated import validate_call; "
        f"print(validate_call({tool!r}, []).status)"
    )
    done = subprocess.run(
        [sys.executable, *python_options, "-c", code],
        capture_output=True,
        text=True,
        env=env,
        cwd=folder,
        check=True,
    )
    return done.stdout.strip()


def write_bytecode(folder: Path, *python_options: str) -> None:
    """Python writes __pycache__ for the gate, the runtime and both tools, as a service would."""
    for tool in FOLDERS.values():
        assert call(folder, tool, *python_options, write_bytecode=True) == "reject"


# -- each shape of importable entry -------------------------------------------------------------


def _extension_names(stem: str) -> list[str]:
    """Extension-module file names of every supported CPython and platform, and the running one's."""
    names = {f"{stem}{suffix}" for suffix in importlib.machinery.EXTENSION_SUFFIXES}
    for minor in range(9, 14):
        names |= {
            f"{stem}.cpython-3{minor}-x86_64-linux-gnu.so",
            f"{stem}.cpython-3{minor}-darwin.so",
            f"{stem}.cp3{minor}-win_amd64.pyd",
            f"{stem}.cpython-3{minor}-x86_64-cygwin.dll",
        }
    names |= {
        f"{stem}.abi3.so",
        f"{stem}.so",
        f"{stem}.pyd",
        f"{stem}.cpython-313t-aarch64-linux-gnu.so",
    }
    return sorted(names)


def _shapes() -> Iterator[tuple[str, str, Callable[[Path, str], str]]]:
    """(folder, label, make): make(folder path, module stem) creates the entry, returns its name."""

    def package(folder: Path, stem: str) -> str:
        (folder / stem).mkdir()
        (folder / stem / "__init__.py").write_text(BACKDOOR, encoding="utf-8")
        return stem

    def namespace_named_like_a_module(folder: Path, stem: str) -> str:
        (folder / stem).mkdir()
        (folder / stem / "notes.txt").write_text("x\n", encoding="utf-8")
        return stem

    def other_package(folder: Path, stem: str) -> str:
        (folder / "helpers").mkdir()
        (folder / "helpers" / "__init__.pyc").write_bytes(b"")
        return "helpers"

    def module_in_a_plain_folder(folder: Path, stem: str) -> str:
        (folder / "data" / "more").mkdir(parents=True)
        (folder / "data" / "more" / "evil.py").write_text(BACKDOOR, encoding="utf-8")
        return "data/more/evil.py"

    def file_named(name: str) -> Callable[[Path, str], str]:
        def make(folder: Path, stem: str) -> str:
            target = name.format(stem=stem)
            (folder / target).write_bytes(b"\x7fELF")
            return target

        make.__name__ = name
        return make

    makers: list[Callable[[Path, str], str]] = [
        package,
        namespace_named_like_a_module,
        other_package,
        module_in_a_plain_folder,
        file_named("{stem}.pyc"),  # sourceless bytecode beside the module
        file_named("{stem}.pyw"),
        file_named("{stem}.PY"),
        file_named("__init__.cpython-311-x86_64-linux-gnu.so"),  # the package's own __init__
        file_named("__init__.pyc"),
        file_named("mine.py"),
        file_named("local.pth"),
        *(file_named(n.replace("STEM", "{stem}")) for n in _extension_names("STEM")),
    ]
    for where in (*FOLDERS, "tests"):
        for make in makers:
            yield where, make.__name__, make


SHAPES = list(_shapes())


@pytest.mark.parametrize(
    ("where", "make"),
    [(w, m) for w, _, m in SHAPES],
    ids=[f"{w or 'top'}-{n}" for w, n, _ in SHAPES],
)
def test_every_importable_entry_is_named(
    work: tuple[Path, planning.Plan], where: str, make: Callable[[Path, str], str]
) -> None:
    folder, plan = work
    assert found(plan) == {}
    stem = FOLDERS.get(where, "test_get_weather")
    name = make(folder / "generated" / where, stem)
    shown = str(PurePosixPath(where, name))
    assert shown in found(plan), found(plan)
    assert found(plan)[shown] == "importable"


@pytest.mark.parametrize("where", [*FOLDERS, "tests"])
def test_files_nothing_imports_stay_allowed(work: tuple[Path, planning.Plan], where: str) -> None:
    folder, plan = work
    target = folder / "generated" / where
    (target / "README.md").write_text("# notes\n", encoding="utf-8")
    (target / "schema.json").write_text("{}\n", encoding="utf-8")
    (target / "assets").mkdir()
    (target / "assets" / "logo.svg").write_text("<svg/>\n", encoding="utf-8")
    (target / "pay.py.orig").write_text("not a module\n", encoding="utf-8")
    assert found(plan) == {}


def test_the_command_line_fails_and_names_the_entry(
    work: tuple[Path, planning.Plan], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _ = work
    (folder / "generated" / "get_weather").mkdir()
    (folder / "generated" / "get_weather" / "__init__.py").write_text(BACKDOOR, encoding="utf-8")
    code = main(["check"])
    err = capsys.readouterr().err
    assert code == 1
    assert "generated/get_weather: importable: a package folder" in err
    assert "in place of the generated get_weather.py" in err
    code = main(["check", "--headers-only"])
    assert code == 1
    assert "generated/get_weather: importable" in capsys.readouterr().err


# -- the shadows are real: the gate runs them ----------------------------------------------------


@pytest.mark.parametrize("where", list(FOLDERS))
def test_a_package_folder_shadows_the_module_for_the_gate(
    work: tuple[Path, planning.Plan], where: str
) -> None:
    folder, plan = work
    tool = FOLDERS[where]
    assert call(folder, tool) == "reject"
    (folder / "generated" / where / tool).mkdir()
    (folder / "generated" / where / tool / "__init__.py").write_text(BACKDOOR, encoding="utf-8")
    assert call(folder, tool) == "shadowed"
    assert found(plan) == {
        str(PurePosixPath(where, tool)): "importable",
        str(PurePosixPath(where, tool, "__init__.py")): "importable",
    }


def _build_extension(target: Path, stem: str) -> None:
    """A real extension module named ``stem`` whose init runs BACKDOOR (skips without a compiler)."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    include = sysconfig.get_paths()["include"]
    if compiler is None or not (Path(include) / "Python.h").is_file():
        pytest.skip("no C compiler or Python headers to build an extension module")
    source = target.parent / f"{stem}_ext.c"
    body = BACKDOOR.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    source.write_text(
        "#include <Python.h>\n"
        f'static struct PyModuleDef def = {{PyModuleDef_HEAD_INIT, "{stem}", NULL, -1, NULL}};\n'
        f"PyMODINIT_FUNC PyInit_{stem}(void) {{\n"
        "    PyObject *m = PyModule_Create(&def);\n"
        "    if (m == NULL) return NULL;\n"
        "    PyObject *d = PyModule_GetDict(m);\n"
        '    PyDict_SetItemString(d, "__builtins__", PyEval_GetBuiltins());\n'
        f'    PyObject *r = PyRun_String("{body}", Py_file_input, d, d);\n'
        "    if (r == NULL) { Py_DECREF(m); return NULL; }\n"
        "    Py_DECREF(r);\n"
        "    return m;\n"
        "}\n",
        encoding="utf-8",
    )
    subprocess.run(
        [compiler, "-shared", "-fPIC", f"-I{include}", "-o", str(target), str(source)],
        check=True,
        capture_output=True,
    )
    source.unlink()


@pytest.mark.parametrize("where", list(FOLDERS))
def test_an_extension_module_shadows_the_module_for_the_gate(
    work: tuple[Path, planning.Plan], where: str
) -> None:
    folder, plan = work
    tool = FOLDERS[where]
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    target = folder / "generated" / where / f"{tool}{suffix}"
    _build_extension(target, tool)
    assert call(folder, tool) == "shadowed"
    assert found(plan) == {str(PurePosixPath(where, target.name)): "importable"}


# -- __pycache__ ---------------------------------------------------------------------------------


def test_bytecode_python_wrote_for_the_generated_sources_is_accepted(
    work: tuple[Path, planning.Plan],
) -> None:
    folder, plan = work
    write_bytecode(folder)
    write_bytecode(folder, "-O")
    cached = sorted((folder / "generated").rglob("*.pyc"))
    assert any(p.name == f"get_weather.{TAG}.pyc" for p in cached)
    assert any(p.name == f"transfer_funds.{TAG}.opt-1.pyc" for p in cached)
    assert found(plan) == {}


def test_generate_removes_the_bytecode_of_what_it_rewrites(
    work: tuple[Path, planning.Plan], capsys: pytest.CaptureFixture[str]
) -> None:
    folder, _ = work
    write_bytecode(folder)
    contract = folder / "contracts" / "get_weather.yaml"
    contract.write_text(
        contract.read_text(encoding="utf-8").replace("description: ", "description: Now, ", 1),
        encoding="utf-8",
    )
    assert main(["generate", "-q"]) == 0
    assert main(["check", "-q"]) == 0, capsys.readouterr().err


def _pyc(folder: Path, where: str, stem: str, tag: str = TAG) -> Path:
    return folder / "generated" / where / "__pycache__" / f"{stem}.{tag}.pyc"


@pytest.mark.parametrize("where", list(FOLDERS))
def test_bytecode_with_the_sources_header_but_other_code_is_refused(
    work: tuple[Path, planning.Plan], where: str
) -> None:
    """A header copied onto other code: Python checks only the header, and runs the code."""
    folder, plan = work
    tool = FOLDERS[where]
    write_bytecode(folder)
    pyc = _pyc(folder, where, tool)
    pyc.write_bytes(pyc.read_bytes()[:16] + marshal.dumps(compile(BACKDOOR, "x", "exec")))
    assert call(folder, tool) == "shadowed"
    assert found(plan) == {str(pyc.relative_to(folder / "generated").as_posix()): "importable"}


@pytest.mark.parametrize("where", list(FOLDERS))
def test_unchecked_hash_bytecode_is_refused(work: tuple[Path, planning.Plan], where: str) -> None:
    """An unchecked hash-based pyc is used whatever the source holds."""
    folder, plan = work
    tool = FOLDERS[where]
    other = folder / "other.py"
    other.write_text(BACKDOOR, encoding="utf-8")
    pyc = _pyc(folder, where, tool)
    pyc.parent.mkdir(exist_ok=True)
    py_compile.compile(
        str(other), cfile=str(pyc), invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
    )
    assert call(folder, tool) == "shadowed"
    assert found(plan) == {str(pyc.relative_to(folder / "generated").as_posix()): "importable"}


@pytest.mark.parametrize("where", [*FOLDERS, "tests"])
@pytest.mark.parametrize("tag", [TAG, "cpython-39", "cpython-313", "cpython-311-pytest-8.3.4"])
def test_stale_bytecode_passes_since_python_never_runs_it(
    work: tuple[Path, planning.Plan], where: str, tag: str
) -> None:
    """Bytecode whose header records another size or time of its source (what a checkout
    leaves behind): Python checks the header, compiles the source instead and writes the file
    again, so the file is harmless and check passes; the source's own code runs."""
    folder, plan = work
    stem = FOLDERS.get(where, "test_get_weather")
    source = folder / "generated" / where / f"{stem}.py"
    other = folder / "other.py"
    other.write_text(BACKDOOR, encoding="utf-8")
    pyc = _pyc(folder, where, stem, tag)
    pyc.parent.mkdir(exist_ok=True)
    py_compile.compile(str(other), cfile=str(pyc))  # another file's header and code
    assert found(plan) == {}
    if where in FOLDERS and tag == TAG:
        assert call(folder, stem) == "reject"  # not "shadowed": Python ignored the file
    stat = source.stat()
    os.utime(source, (stat.st_atime, stat.st_mtime + 7))
    assert found(plan) == {}


@pytest.mark.parametrize("where", [*FOLDERS, "tests"])
def test_bytecode_without_its_source_in_pycache_passes_since_python_never_reads_it(
    work: tuple[Path, planning.Plan], where: str
) -> None:
    """PEP 3147: ``__pycache__`` bytecode is read only for a source beside it."""
    folder, plan = work
    other = folder / "generated" / where / "gone.py"
    other.write_text(BACKDOOR, encoding="utf-8")
    pyc = _pyc(folder, where, "gone")
    pyc.parent.mkdir(exist_ok=True)
    py_compile.compile(str(other), cfile=str(pyc))
    other.unlink()
    assert found(plan) == {}


def test_a_source_module_inside_pycache_is_refused(work: tuple[Path, planning.Plan]) -> None:
    """``__pycache__`` is a folder like any other to the import system: a namespace package."""
    folder, plan = work
    (folder / "generated" / "__pycache__").mkdir()
    (folder / "generated" / "__pycache__" / "evil.py").write_text(BACKDOOR, encoding="utf-8")
    assert found(plan) == {"__pycache__/evil.py": "importable"}


def test_generate_removes_bytecode_check_refuses(
    work: tuple[Path, planning.Plan], capsys: pytest.CaptureFixture[str]
) -> None:
    """A pyc is forged onto a generated module's header: generate, which rewrites no source,
    removes it; a stale cache (a checkout moved a source's mtime) and a user's bytecode stay."""
    folder, plan = work
    write_bytecode(folder)
    source = folder / "generated" / "get_weather.py"
    stat = source.stat()
    os.utime(source, (stat.st_atime, stat.st_mtime + 7))
    forged = _pyc(folder, "billing", "transfer_funds")
    forged.write_bytes(forged.read_bytes()[:16] + marshal.dumps(compile(BACKDOOR, "x", "exec")))
    mine = folder / "generated" / "__pycache__" / f"mine.{TAG}.pyc"
    mine.write_bytes(b"")
    assert set(found(plan)) == {f"billing/__pycache__/transfer_funds.{TAG}.pyc"}
    assert call(folder, "transfer_funds") == "shadowed"
    assert main(["generate", "-q"]) == 0
    assert found(plan) == {}
    assert not forged.exists() and mine.exists()
    assert call(folder, "transfer_funds") == "reject"
