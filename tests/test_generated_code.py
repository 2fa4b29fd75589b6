"""Tests of the committed generated code itself (everything under generated/).

1. Mutation: removing any single check from a generated module must make its
   generated tests fail. Each check is found with ``ast``; each mutant is
   compiled in memory and the matching generated test module's own test
   functions are run against it, in-process, with every parametrized tuple.
2. Every supported CPython (3.9 to 3.13, found through pyenv or PATH): the
   generated tests pass on a copy of generated/, every file byte-compiles, and
   every module imports alone, from an otherwise empty folder, with ``-I -S``
   (no site-packages: the standard library only).
3. Imports: modules import only a short, explicit list of stdlib modules; the
   generated tests import only pytest and, relatively, their module.
4. Vendoring: generated/ copied into a service as ``validators/`` still passes
   its tests there.

Pytest for the other interpreters lives in throwaway venvs cached under
``$TOOLSHAPE_TEST_VENVS`` (default ``~/.cache/toolshape-test-venvs/``); the
first run creates them (needs PyPI or a local index), later runs reuse them.
"""

from __future__ import annotations
import __future__

import ast
import contextlib
import functools
import importlib
import os
import re
import shutil
import subprocess
import sys
import types
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest
from generated_harness import Call, failure, first_failure, generated_test_calls
from support import ROOT, clean_environment, run_pytest, user_cache

GENERATED = ROOT / "generated"
CURRENT = f"{sys.version_info[0]}.{sys.version_info[1]}"
#: The interpreters generated modules promise to run on (issue 2).
SUPPORTED = ["3.9", "3.10", "3.11", "3.12", "3.13"]
#: ...plus the running one, whatever it is, so that at least one run happens.
VERSIONS = SUPPORTED + ([CURRENT] if CURRENT not in SUPPORTED else [])

#: The only imports a generated tool module may have (all standard library).
# ipaddress and unicodedata: imported inside the format checks that need them (ipv6; the IDN formats).
MODULE_IMPORTS = {
    "__future__",
    "bisect",  # the runtime's linear-time pattern matcher (_Linear): classes of characters
    "ipaddress",
    "json",
    "math",
    "re",
    "sys",
    "threading",  # _Linear's DFA cache grows under a lock
    "typing",
    "unicodedata",
}
#: The only absolute imports of the dispatch gate generated/__init__.py.
GATE_IMPORTS = {"__future__", "importlib", "json", "types", "typing"}
#: What every tool module shares, once, at the top of the generated folder.
RUNTIME_NAME = "_runtime"


def _rel(path: Path) -> str:
    return path.relative_to(GENERATED).as_posix()


def _is_tests(path: Path) -> bool:
    return path.relative_to(GENERATED).parts[0] == "tests"


def _python_files() -> list[Path]:
    return sorted(p for p in GENERATED.rglob("*.py") if "__pycache__" not in p.parts)


#: The package's tool lists (tool_definitions()): data, imported by the gate on first use.
DEFINITIONS_FILE = "_tool_definitions.py"
#: Tool modules: generated/**/*.py except tests/, __init__.py, the shared _runtime.py and the tool lists.
MODULES = [
    p
    for p in _python_files()
    if not _is_tests(p)
    and p.name != "__init__.py"
    and _rel(p) not in (f"{RUNTIME_NAME}.py", DEFINITIONS_FILE)
]
RUNTIME = GENERATED / f"{RUNTIME_NAME}.py"
#: Generated test modules: generated/tests/**/test_*.py.
TEST_FILES = [p for p in _python_files() if _is_tests(p) and p.name.startswith("test_")]
INITS = [p for p in _python_files() if p.name == "__init__.py"]


def _test_file_of(module_path: Path) -> Path:
    relative = module_path.relative_to(GENERATED)
    return GENERATED / "tests" / relative.parent / f"test_{relative.name}"


def _test_import_name(module_path: Path) -> str:
    relative = _test_file_of(module_path).relative_to(ROOT).with_suffix("")
    return ".".join(relative.parts)


def test_the_generated_folder_has_modules_and_tests() -> None:
    assert MODULES, f"no generated modules under {GENERATED}"
    assert {_test_file_of(m) for m in MODULES} == set(TEST_FILES), (
        "every generated module needs exactly one generated test module (and vice versa)"
    )


# -- Running generated test functions in-process (tests/generated_harness.py) ---------


def _import_generated_tests(module_path: Path) -> types.ModuleType:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    return importlib.import_module(_test_import_name(module_path))


@functools.cache
def expected_item_count() -> int:
    """How many test items the generated tests hold (what pytest must report as passed)."""
    return sum(len(generated_test_calls(_import_generated_tests(m))) for m in MODULES)


# -- 1. Mutation: every check is covered by the generated tests ----------------------


def _is_error_append(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Attribute)
        and statement.value.func.attr == "append"
        and isinstance(statement.value.func.value, ast.Name)
        and statement.value.func.value.id == "errors"
    )


def _is_not_an_object_return(statement: ast.stmt) -> bool:
    """``return Result(REJECT, value, (Error(...),))``: validate() refusing what is not an object."""
    return (
        isinstance(statement, ast.Return)
        and isinstance(statement.value, ast.Call)
        and isinstance(statement.value.func, ast.Name)
        and statement.value.func.id in ("Result", "OutputResult")
        and bool(statement.value.args)
        and isinstance(statement.value.args[0], ast.Name)
        and statement.value.args[0].id == "REJECT"
    )


@dataclass
class Mutant:
    kind: str  # "check removed" | "type check removed"
    node: ast.If  # the if (or elif) whose test is replaced
    replacement: bool  # the constant that replaces the test
    reported: ast.stmt  # the statement the check reports with
    source: str
    lines: list[str]
    comments: list[str]

    @contextlib.contextmanager
    def applied(self) -> Iterator[None]:
        original = self.node.test
        self.node.test = ast.copy_location(ast.Constant(self.replacement), original)
        try:
            yield
        finally:
            self.node.test = original

    def describe(self, path: Path) -> str:
        line = self.lines[self.node.lineno - 1].strip()
        reports = ast.get_source_segment(self.source, self.reported) or ""
        call = self.reported.value  # type: ignore[attr-defined]
        if _is_error_append(self.reported) and call.args and isinstance(call.args[0], ast.Call):
            error = call.args[0]
            shown = ", ".join(ast.get_source_segment(self.source, a) or "?" for a in error.args[:2])
            reports = f"Error({shown}, ...)"
        reports = " ".join(reports.split())
        comments = "\n              ".join(self.comments) or "(no comment above)"
        return (
            f"{_rel(path)}:{self.node.lineno}: {self.kind}: `{line}` -> {self.replacement}\n"
            f"    contract: {comments}\n"
            f"    reports:  {reports}"
        )


def _comment_block(lines: list[str], lineno: int, indent: int | None) -> str:
    """The comment lines right above line ``lineno`` (1-based), or the nearest ones no deeper than ``indent``."""
    number = lineno - 2
    if indent is not None:  # search upwards for the nearest comment at most this deep
        while number >= 0 and not (
            lines[number].lstrip().startswith("#")
            and len(lines[number]) - len(lines[number].lstrip()) <= indent
        ):
            number -= 1
    block: list[str] = []
    while number >= 0 and lines[number].lstrip().startswith("#"):
        block.insert(0, lines[number].strip())
        number -= 1
    return " ".join(block)


def _is_property_block(node: ast.AST) -> bool:
    """``if "key" in value:``: where the generated code checks one property (commented above)."""
    return (
        isinstance(node, ast.If)
        and isinstance(node.test, ast.Compare)
        and isinstance(node.test.left, ast.Constant)
        and isinstance(node.test.left.value, str)
        and len(node.test.ops) == 1
        and isinstance(node.test.ops[0], (ast.In, ast.NotIn))
    )


def _contract_comments(
    node: ast.If, parents: dict[ast.AST, ast.AST], lines: list[str]
) -> list[str]:
    """The comment nearest to a check and the contract comment of the property it sits in."""
    found = [_comment_block(lines, node.lineno, node.col_offset)]
    ancestor: ast.AST | None = node
    while ancestor is not None and not _is_property_block(ancestor):
        ancestor = parents.get(ancestor)
    if ancestor is not None:
        found.append(_comment_block(lines, ancestor.lineno, None))  # type: ignore[attr-defined]
    return list(dict.fromkeys(c for c in found if c))


def _is_elif(node: ast.If, lines: list[str]) -> bool:
    return lines[node.lineno - 1][node.col_offset :].startswith("elif")


def find_mutants(tree: ast.Module, source: str) -> list[Mutant]:
    """One mutant per check: every if/elif that reports, every if-chain whose else reports."""
    lines = source.splitlines()
    parents = {child: parent for parent in ast.walk(tree) for child in ast.iter_child_nodes(parent)}
    mutants = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.If):
            continue
        reporting = [s for s in node.body if _is_error_append(s) or _is_not_an_object_return(s)]
        if reporting:
            comments = _contract_comments(node, parents, lines)
            mutants.append(
                Mutant("check removed", node, False, reporting[0], source, lines, comments)
            )
        if _is_elif(node, lines):
            continue  # chains are handled from their head
        last = node
        while (
            len(last.orelse) == 1
            and isinstance(last.orelse[0], ast.If)
            and _is_elif(last.orelse[0], lines)
        ):
            last = last.orelse[0]
        final = [s for s in last.orelse if _is_error_append(s)]
        if final:
            comments = _contract_comments(node, parents, lines)
            mutants.append(
                Mutant("type check removed", node, True, final[0], source, lines, comments)
            )
    return sorted(mutants, key=lambda m: (m.node.lineno, m.kind))


def _future_flags(tree: ast.Module) -> int:
    """The compiler flags of the module's ``from __future__ import`` lines (compiling the whole
    module turns them on for all of it; compiling a piece needs them passed)."""
    flags = 0
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            for alias in node.names:
                flags |= getattr(__future__, alias.name).compiler_flag
    return flags


def _is_bare_string(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


def _runs(body: list[ast.stmt]) -> list[list[ast.stmt]]:
    """The module's statements cut into runs, one per statement, except that a bare string stays
    with the statement before it (compiled first in a run of its own, it would become ``__doc__``)."""
    runs: list[list[ast.stmt]] = []
    for statement in body:
        if runs and _is_bare_string(statement):
            runs[-1].append(statement)
        else:
            runs.append([statement])
    return runs


def _code_name(path: Path) -> str:
    """The file name a loaded module's code reports (in a traceback)."""
    return f"<in memory: {_rel(path)}>"


class MutantLoader:
    """Loads a generated module, or a mutant of it, in memory, compiling only what a mutant changed.

    Every top-level statement is compiled once, on its own; a mutant recompiles only the run
    that holds the mutated node, and the runs' code is executed in order into a fresh module.
    That is what executing the whole module's code does: at module level every name a
    statement reads is a global, looked up when it runs, so no statement's code depends on its
    neighbours, except through what the compiler knows of the whole module: its
    ``__future__`` flags (passed to every piece) and which names are imports (CPython calls a
    method of an imported module with other opcodes; every piece carries the module's imports
    in a branch after it that never runs). ``test_a_mutant_loaded_in_pieces_is_the_mutant_compiled_whole``
    holds the code equal, function by function.
    """

    def __init__(self, tree: ast.Module, path: Path) -> None:
        self.path = path
        self.flags = _future_flags(tree)
        self.runs = _runs(tree.body)
        self.imports: list[ast.stmt] = [
            node
            for node in tree.body
            if isinstance(node, ast.Import)
            or (isinstance(node, ast.ImportFrom) and node.module != "__future__")
        ]
        #: Which run holds each node of the module (a mutant's ``if`` names its run).
        self.run_of = {
            node: index
            for index, run in enumerate(self.runs)
            for statement in run
            for node in ast.walk(statement)
        }
        self.code = [self._compile(run) for run in self.runs]

    def _compile(self, run: list[ast.stmt]) -> types.CodeType:
        never = ast.copy_location(ast.If(ast.Constant(False), self.imports, []), run[0])
        ast.fix_missing_locations(never)
        piece = ast.Module(body=[*run, never] if self.imports else run, type_ignores=[])
        code: types.CodeType = compile(
            piece, _code_name(self.path), "exec", flags=self.flags, dont_inherit=True
        )
        return code

    def load(self, changed: ast.AST | None = None) -> types.ModuleType:
        """The module, in the package of generated/ so that ``from ._runtime import`` finds the
        committed runtime (shared: the checks themselves are all in the module). ``changed``:
        the node a mutant altered (its run is compiled again, as it now is)."""
        code = list(self.code)
        if changed is not None:
            index = self.run_of[changed]
            code[index] = self._compile(self.runs[index])
        package = ".".join(("generated", *self.path.relative_to(GENERATED).parent.parts))
        module = types.ModuleType(f"{package}.toolshape_mutant_{self.path.stem}")
        module.__file__ = str(self.path)
        module.__package__ = package
        for piece in code:
            exec(piece, module.__dict__)
        return module


class KillerFirst:
    """The generated test calls, reordered as mutants die: the test function whose call killed
    the last mutant goes first, from that call on (its rows after the killer, then those
    before it), and the other functions after it.

    Whether a mutant survives does not depend on the order: it survives when no call fails,
    and each call builds its own arguments and checks one result. The order only decides how
    many passing calls run before the failing one. Mutants come in the module's line order,
    and a function's rows of derived cases follow the contract's properties in much the same
    order, so the next mutant's killer is most often a few rows after the last one.
    """

    def __init__(self, calls: Sequence[Call]) -> None:
        self.order = list(calls)
        self.runs = 0  # calls made: the figure the order is there to keep small

    def killed(self) -> bool:
        """Whether some call fails against the module the tests now point at."""
        for call in self.order:
            self.runs += 1
            if failure(call) is not None:
                self._to_front(call)
                return True
        return False

    def _to_front(self, killer: Call) -> None:
        family = [c for c in self.order if c.function is killer.function]
        others = [c for c in self.order if c.function is not killer.function]
        at = family.index(killer)
        self.order = [*family[at:], *family[:at], *others]


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_generated_tests_catch_every_removed_check(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source, filename=str(path))
    mutants = find_mutants(tree, source)
    # At least the three top-level "not an object" checks exist in every module.
    assert len(mutants) >= 3, (
        f"found only {len(mutants)} checks in {_rel(path)}: is the finder broken?"
    )

    tests = _import_generated_tests(path)
    calls = generated_test_calls(tests)
    assert calls, f"{tests.__name__} has no test functions"
    assert hasattr(tests, "module"), f"{tests.__name__} has no global `module` to point at a mutant"

    # Control: the unmutated module, loaded the same way, passes every call.
    loader = MutantLoader(tree, path)
    monkeypatch.setattr(tests, "module", loader.load())
    failed = first_failure(calls)
    assert failed is None, f"the generated tests fail on the unmutated {_rel(path)}: {failed}"

    survivors = []
    order = KillerFirst(calls)
    for mutant in mutants:
        with mutant.applied():
            try:
                module = loader.load(mutant.node)
            except Exception:  # noqa: BLE001 - a mutant that cannot even load is killed
                continue
        monkeypatch.setattr(tests, "module", module)
        if not order.killed():
            survivors.append(mutant)

    if survivors:
        pytest.fail(
            f"{len(survivors)} of {len(mutants)} mutants of {_rel(path)} survive its generated tests "
            f"({tests.__name__}, {len(calls)} items): each removed check below goes unnoticed\n"
            + "\n".join(m.describe(path) for m in survivors),
            pytrace=False,
        )


def test_the_mutant_finder_finds_every_kind_of_check() -> None:
    source = (
        "def validate(value):\n"
        "    if value is None:\n"
        "        return Result(REJECT, value, (Error('', 'type', 'null'),))\n"
        "    errors = []\n"
        "    # a: the comment\n"
        "    if isinstance(a, str):\n"
        "        if len(a) > 3:\n"
        "            errors.append(Error('/a', 'maxLength', 'm'))\n"
        "        elif a == 'x':\n"
        "            errors.append(Error('/a', 'pattern', 'm'))\n"
        "    elif a is None:\n"
        "        pass\n"
        "    else:\n"
        "        errors.append(Error('/a', 'type', 'm'))\n"
        "    if 'b' in value:\n"
        "        b = value['b']\n"
        "    else:\n"
        "        if b:\n"
        "            errors.append(Error('/b', 'x', 'm'))\n"
    )
    found = [(m.node.lineno, m.kind) for m in find_mutants(ast.parse(source), source)]
    assert found == [
        (2, "check removed"),
        (6, "type check removed"),
        (7, "check removed"),
        (9, "check removed"),
        (18, "check removed"),
    ]
    mutant = find_mutants(ast.parse(source), source)[3]
    assert "contract: # a: the comment" in mutant.describe(GENERATED / "x.py")
    assert "Error('/a', 'pattern', ...)" in mutant.describe(GENERATED / "x.py")


def _namespace(module: types.ModuleType) -> dict[str, object]:
    """What a loaded module defines, comparable between two loads: code by value, the rest by repr
    (classes and functions by their qualified name and, for functions, their code)."""
    shown: dict[str, object] = {}
    for name, value in vars(module).items():
        if isinstance(value, types.FunctionType):
            shown[name] = (value.__qualname__, value.__code__, value.__annotations__)
        elif isinstance(value, type):
            methods = {k: v.__code__ for k, v in vars(value).items() if hasattr(v, "__code__")}
            shown[name] = (value.__qualname__, methods, getattr(value, "__annotations__", {}))
        elif name not in ("__builtins__", "__name__", "__package__", "__file__"):
            shown[name] = re.sub(" at 0x[0-9a-f]+", "", _ordered_repr(value))  # an address
    return shown


def _ordered_repr(value: object) -> str:
    """``repr(value)`` with every set's items in one order: a set's own order follows how it was
    built, and compiling a module whole shares one constant among equal sets (``x in {...}``
    and ``frozenset({...})`` of the same strings) where compiling it in pieces does not, so two
    loads of one module can list one set's items apart, as the string hash seed falls."""
    if isinstance(value, (set, frozenset)):
        return f"{type(value).__name__}({{{', '.join(sorted(map(_ordered_repr, value)))}}})"
    if isinstance(value, dict):
        pairs = (f"{_ordered_repr(k)}: {_ordered_repr(v)}" for k, v in value.items())
        return "{" + ", ".join(pairs) + "}"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(map(_ordered_repr, value))
        return f"[{inner}]" if isinstance(value, list) else f"({inner})"
    return repr(value)


def _whole(tree: ast.Module, path: Path) -> types.ModuleType:
    """The module loaded the plain way: the whole tree compiled as one."""
    package = ".".join(("generated", *path.relative_to(GENERATED).parent.parts))
    module = types.ModuleType(f"{package}.toolshape_mutant_{path.stem}")
    module.__package__ = package
    exec(compile(tree, _code_name(path), "exec", dont_inherit=True), module.__dict__)
    return module


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_a_mutant_loaded_in_pieces_is_the_mutant_compiled_whole(path: Path) -> None:
    """MutantLoader recompiles only the run a mutant changed: what it loads is what compiling the
    whole mutated module loads, for the unmutated module and one mutant in every run that has one."""
    source = path.read_text(encoding="utf-8")
    tree = ast.parse(source)
    loader = MutantLoader(tree, path)
    assert _namespace(loader.load()) == _namespace(_whole(tree, path))
    one_per_run = {loader.run_of[m.node]: m for m in find_mutants(tree, source)}
    for mutant in one_per_run.values():
        with mutant.applied():
            pieces, whole = loader.load(mutant.node), _whole(tree, path)
        assert _namespace(pieces) == _namespace(whole), f"{_rel(path)}: {mutant.describe(path)}"
        assert _namespace(pieces) != _namespace(loader.load()), "the mutant was not recompiled"


def test_the_mutant_loader_keeps_what_is_compiled_once_per_module() -> None:
    """The module-wide parts of compiling: the docstring, a later bare string (never a second
    ``__doc__``), ``from __future__`` (annotations stay strings in every piece)."""
    source = (
        '"""The docstring."""\n'
        "from __future__ import annotations\n"
        "LIMIT: Missing = 3\n"
        '"""What LIMIT holds."""\n'
        "def check(value: Unknown) -> Nowhere:\n"
        "    if value > LIMIT:\n"
        "        return 1\n"
        "    return helper(value)\n"
        "def helper(value: int) -> int:\n"
        "    return value\n"
    )
    tree = ast.parse(source)
    path = GENERATED / "x.py"
    loaded = MutantLoader(tree, path).load()
    assert loaded.__doc__ == "The docstring."
    assert loaded.__annotations__ == {"LIMIT": "Missing"}
    assert loaded.check.__annotations__ == {"value": "Unknown", "return": "Nowhere"}
    assert _namespace(loaded) == _namespace(_whole(tree, path))
    assert (loaded.check(5), loaded.check(2)) == (1, 2)  # helper() found at call time


def _call(name: str, function: Callable[..., None], **kwargs: object) -> Call:
    return Call(name, function, dict(kwargs))


def test_killer_first_goes_on_from_the_last_killer_and_a_survivor_runs_every_call() -> None:
    tried: list[str] = []
    broken = {"checks": set[int]()}

    def test_a(row: int) -> None:
        tried.append(f"a{row}")

    def test_b(row: int) -> None:
        tried.append(f"b{row}")
        assert row not in broken["checks"]

    calls = [_call(f"{f.__name__}[{r}]", f, row=r) for f in (test_a, test_b) for r in range(4)]
    order = KillerFirst(calls)

    def run(checks: set[int]) -> tuple[bool, list[str]]:
        broken["checks"] = checks
        tried.clear()
        return order.killed(), list(tried)

    # Nothing broken: a survivor runs every call, once.
    assert run(set()) == (False, ["a0", "a1", "a2", "a3", "b0", "b1", "b2", "b3"])
    assert run({1}) == (True, ["a0", "a1", "a2", "a3", "b0", "b1"])
    # The next mutants: the last killer first, then the rows after it, then those before.
    assert run({1, 3}) == (True, ["b1"])
    assert run({3}) == (True, ["b1", "b2", "b3"])
    assert run({2}) == (True, ["b3", "b0", "b1", "b2"])
    assert run(set()) == (False, ["b2", "b3", "b0", "b1", "a0", "a1", "a2", "a3"])
    assert order.runs == 8 + 6 + 1 + 3 + 4 + 8


# -- 3. Standalone: imports ------------------------------------------------------------


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    return [n for n in ast.walk(tree) if isinstance(n, (ast.Import, ast.ImportFrom))]


def _dynamic_imports(tree: ast.Module) -> list[int]:
    return [
        n.lineno
        for n in ast.walk(tree)
        if isinstance(n, ast.Name) and n.id in ("__import__", "importlib")
    ]


def _resolve(package: tuple[str, ...], node: ast.ImportFrom) -> tuple[str, ...]:
    """What a relative ``from`` import names, relative to generated/ (its package parts)."""
    assert node.level >= 1
    up = node.level - 1
    assert up <= len(package), f"line {node.lineno}: the import leaves the generated folder"
    base = package[: len(package) - up]
    return base + (tuple(node.module.split(".")) if node.module else ())


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_generated_module_imports_only_the_standard_library(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    bad = []
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            bad += [
                f"line {node.lineno}: import {a.name}"
                for a in node.names
                if a.name not in MODULE_IMPORTS
            ]
        elif node.level:
            package = path.relative_to(GENERATED).parent.parts
            if _resolve(package, node) != (RUNTIME_NAME,):
                bad.append(
                    f"line {node.lineno}: from {'.' * node.level}{node.module or ''} import ..."
                )
        elif node.module not in MODULE_IMPORTS:
            bad.append(f"line {node.lineno}: from {node.module or ''} import ...")
    bad += [f"line {n}: dynamic import" for n in _dynamic_imports(tree)]
    assert not bad, (
        f"{_rel(path)} may import only {sorted(MODULE_IMPORTS)} and {RUNTIME_NAME}:\n"
        + "\n".join(bad)
    )


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_modules_take_from_the_runtime_only_what_they_use(path: Path) -> None:
    """The model works out which runtime names a module's checks call: none missing (the
    generated tests would fail with a NameError), none unused (this test)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = [
        alias.asname or alias.name
        for node in _imports(tree)
        if isinstance(node, ast.ImportFrom) and node.level and node.module == RUNTIME_NAME
        for alias in node.names
    ]
    used = {node.id for node in ast.walk(tree) if isinstance(node, ast.Name)}
    assert imported, f"{_rel(path)} imports nothing from {RUNTIME_NAME}"
    assert not [name for name in imported if name not in used], (
        f"{_rel(path)} imports names it never uses"
    )


def test_the_runtime_imports_only_the_standard_library() -> None:
    tree = ast.parse(RUNTIME.read_text(encoding="utf-8"))
    bad = [
        f"line {node.lineno}: {ast.unparse(node)}"
        for node in _imports(tree)
        if (isinstance(node, ast.ImportFrom) and (node.level or node.module not in MODULE_IMPORTS))
        or (isinstance(node, ast.Import) and any(a.name not in MODULE_IMPORTS for a in node.names))
    ]
    bad += [f"line {n}: dynamic import" for n in _dynamic_imports(tree)]
    assert not bad, f"{RUNTIME_NAME}.py may import only {sorted(MODULE_IMPORTS)}:\n" + "\n".join(
        bad
    )


@pytest.mark.parametrize("path", MODULES, ids=_rel)
def test_generated_tests_import_only_pytest_and_their_module(path: Path) -> None:
    test_file = _test_file_of(path)
    tree = ast.parse(test_file.read_text(encoding="utf-8"))
    package = test_file.relative_to(GENERATED).parent.parts
    absolute, relative = [], []
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            absolute += [(a.name, a.asname) for a in node.names]
        elif node.module == "__future__":
            continue  # a compiler directive (annotations on 3.9), not a dependency
        elif node.level == 0:
            absolute.append((f"from {node.module}", None))
        else:
            relative += [(_resolve(package, node) + (a.name,), a.asname) for a in node.names]
    module_parts = path.relative_to(GENERATED).with_suffix("").parts
    assert absolute == [("pytest", None)], f"{_rel(test_file)} imports {absolute}, not just pytest"
    assert relative == [(module_parts, "module")], (
        f"{_rel(test_file)} must import only its module, relatively, as `module`; it imports {relative}"
    )
    assert not _dynamic_imports(tree)


@pytest.mark.parametrize("path", INITS, ids=_rel)
def test_package_files_import_only_the_stdlib_and_generated_modules(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = path.relative_to(GENERATED).parent.parts
    known = {m.relative_to(GENERATED).with_suffix("").parts for m in MODULES}
    bad = []
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            bad += [
                f"line {node.lineno}: import {a.name}"
                for a in node.names
                if a.name not in GATE_IMPORTS
            ]
        elif node.level == 0:
            if node.module not in GATE_IMPORTS:
                bad.append(f"line {node.lineno}: from {node.module} import ...")
        elif _resolve(package, node) != (RUNTIME_NAME,) and not (
            _resolve(package, node) == ()
            and [a.name for a in node.names] == [DEFINITIONS_FILE.removesuffix(".py")]
        ):
            bad.append(f"line {node.lineno}: from {'.' * node.level}{node.module or ''} import ...")
    if package:  # only the dispatch gate at the top imports anything
        assert not _imports(tree), f"{_rel(path)} should import nothing"
    assert not bad, (
        f"{_rel(path)} may import only {sorted(GATE_IMPORTS)}, {RUNTIME_NAME} and {DEFINITIONS_FILE}:\n"
        + "\n".join(bad)
    )
    if not package:  # the gate imports its tools lazily, from a table of relative module names
        import generated

        assert {tuple(where.lstrip(".").split(".")) for where in generated.TOOLS.values()} == known
        assert all(
            where.startswith(".") and not where.startswith("..")
            for where in generated.TOOLS.values()
        )


def test_the_gate_imports_a_tool_only_when_it_is_called(tmp_path: Path) -> None:
    """``import generated`` imports the runtime, not the tools; a call imports its own tool alone."""
    _copy_generated(tmp_path / "gate")
    probe = (
        "import sys\n"
        "sys.path.insert(0, '.')\n"
        "import gate\n"
        "tools = sorted(m for m in sys.modules if m.startswith('gate.') and m != 'gate._runtime')\n"
        "assert tools == [], tools\n"
        'result = gate.validate_call(\'get_weather\', \'{"city": "Oslo", "unit": "c"}\')\n'
        "assert result.ok and isinstance(result, gate.Result), result\n"
        "tools = sorted(m for m in sys.modules if m.startswith('gate.') and m != 'gate._runtime')\n"
        "assert tools == ['gate.get_weather'], tools\n"
        "unknown = gate.validate_call('nope', {})\n"
        "assert isinstance(unknown, gate.Result) and isinstance(unknown.errors[0], gate.Error), unknown\n"
        "assert unknown.layer == 'dispatch' and unknown.errors[0].code == 'unknown_tool'\n"
        "assert 'The tools are: allow_ip, create_event' in unknown.feedback(), unknown.feedback()\n"
        "print('ok')\n"
    )
    result = _run([sys.executable, "-I", "-c", probe], cwd=tmp_path)
    assert result.returncode == 0 and "ok" in result.stdout, _output(result)


# -- Subprocess helpers -------------------------------------------------------------


def _run(args: Sequence[str | Path], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=clean_environment(),
        capture_output=True,
        text=True,
    )


def _copy_generated(target: Path) -> Path:
    shutil.copytree(
        GENERATED, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".pytest_cache")
    )
    return target


def _output(result: subprocess.CompletedProcess[str], last: int = 60) -> str:
    text = (result.stdout + result.stderr).rstrip().splitlines()
    return "\n".join(text[-last:])


def _passed(result: subprocess.CompletedProcess[str]) -> int:
    found = re.findall(r"(\d+) passed", result.stdout)
    return int(found[-1]) if found else 0


# -- 2. Every supported Python ---------------------------------------------------------


def _pyenv_root() -> Path | None:
    if shutil.which("pyenv"):
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(["pyenv", "root"], capture_output=True, text=True)
            if out.returncode == 0 and out.stdout.strip():
                return Path(out.stdout.strip())
    root = os.environ.get("PYENV_ROOT")
    return (
        Path(root)
        if root
        else (Path.home() / ".pyenv" if (Path.home() / ".pyenv").is_dir() else None)
    )


def _candidates(version: str) -> list[str]:
    found: list[str] = []
    root = _pyenv_root()
    if root and (root / "versions").is_dir():
        pattern = re.compile(re.escape(version) + r"\.(\d+)")
        installed = [
            (int(m.group(1)), d)
            for d in (root / "versions").iterdir()
            if (m := pattern.fullmatch(d.name))
        ]
        found += [str(d / "bin" / "python") for _, d in sorted(installed, reverse=True)]
    on_path = shutil.which(f"python{version}")
    if on_path:
        found.append(on_path)
    if version == CURRENT:
        found.append(sys.executable)
    return found


_PROBE = "import platform, sys; print(platform.python_implementation(), '%d.%d.%d' % sys.version_info[:3])"


@functools.cache
def find_python(version: str) -> tuple[str, str] | None:
    """(executable, full version) of a CPython ``version``, or None."""
    for candidate in _candidates(version):
        if not os.access(candidate, os.X_OK):
            continue
        try:
            probe = subprocess.run([candidate, "-c", _PROBE], capture_output=True, text=True)
        except (OSError, subprocess.SubprocessError):
            continue  # e.g. a pyenv shim for a version that is not installed
        words = probe.stdout.split()
        if (
            probe.returncode == 0
            and len(words) == 2
            and words[0] == "CPython"
            and words[1].startswith(version + ".")
        ):
            return candidate, words[1]
    return None


def _require_python(version: str) -> tuple[str, str]:
    found = find_python(version)
    if found is None:
        pytest.skip(
            f"CPython {version} not found (looked in pyenv root versions/{version}.*, python{version} on PATH)"
        )
    return found


def _venv_cache() -> Path:
    return user_cache("toolshape-test-venvs", "TOOLSHAPE_TEST_VENVS")


def _venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a") as handle:
        try:
            import fcntl
        except ImportError:  # not POSIX: no lock
            yield
            return
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def pytest_venv(python: str, full_version: str) -> Path:
    """A cached venv of ``python`` with pytest in it; its interpreter's path."""
    venv = _venv_cache() / f"cpython-{full_version}"
    ready = venv / ".toolshape-ready"
    with _locked(_venv_cache() / f".cpython-{full_version}.lock"):
        if ready.is_file():
            check = _run([_venv_python(venv), "-c", "import pytest"])
            if check.returncode == 0:
                return _venv_python(venv)
        shutil.rmtree(venv, ignore_errors=True)
        made = _run([python, "-m", "venv", venv])
        assert made.returncode == 0, (
            f"cannot create a venv for CPython {full_version}:\n{_output(made)}"
        )
        installed = _run([_venv_python(venv), "-m", "pip", "install", "--quiet", "pytest"])
        assert installed.returncode == 0, (
            f"cannot install pytest for CPython {full_version}:\n{_output(installed)}"
        )
        ready.write_text("pytest installed\n")
    return _venv_python(venv)


#: The harness, run as a script by each interpreter (it needs only pytest, for its marks).
HARNESS = Path(__file__).with_name("generated_harness.py")


def _harness_counts(result: subprocess.CompletedProcess[str]) -> tuple[int, int]:
    """(passed, failed) from the harness's last line."""
    found = re.search(r"(\d+) passed, (\d+) failed", result.stdout)
    return (int(found.group(1)), int(found.group(2))) if found else (0, -1)


@pytest.mark.parametrize("version", VERSIONS)
def test_generated_tests_pass_on_every_supported_python(version: str, tmp_path: Path) -> None:
    """Every generated test item, on a copy of generated/, in one process of each interpreter
    (tests/generated_harness.py: the calls pytest would make, without its runner; pytest
    itself runs them on the current interpreter in the test above)."""
    python, full = _require_python(version)
    venv_python = pytest_venv(python, full)
    _copy_generated(tmp_path / "generated")
    result = _run([venv_python, HARNESS, tmp_path, "generated"], cwd=tmp_path)
    assert result.returncode == 0, (
        f"generated tests fail on CPython {full} ({python}):\n{_output(result)}"
    )
    assert _harness_counts(result) == (expected_item_count(), 0), (
        f"CPython {full} ran {_harness_counts(result)} generated tests, expected {expected_item_count()}:\n{_output(result, 5)}"
    )


def test_pytest_runs_every_generated_test_as_a_user_runs_them() -> None:
    """`pytest generated` (the README's command for the generated tests alone), in a process of
    its own: every item passes, and pytest runs as many as the harness calls. The suite's own
    run does not collect generated/tests (``testpaths``): under xdist each of their thousands of
    small items cost the workers and the controller about twice what running it costs, and one
    process runs them all in a third of that CPU time."""
    result = run_pytest("-n", "0", "generated", cwd=ROOT)
    assert result.returncode == 0, f"the generated tests fail under pytest:\n{_output(result)}"
    assert _passed(result) == expected_item_count(), (
        f"pytest ran {_passed(result)} generated tests, expected {expected_item_count()}:\n"
        f"{_output(result, 5)}"
    )


def vendor_one_tool(path: Path, folder: Path, tests: bool = False) -> str:
    """Copy one tool as the README says: its module and ``_runtime.py``, each in its place under
    ``folder`` (a package: an empty ``__init__.py`` in it and in each subfolder); the import name."""
    relative = path.relative_to(GENERATED)
    copies = [(path, relative), (RUNTIME, RUNTIME.relative_to(GENERATED))]
    if tests:
        test_file = _test_file_of(path)
        copies.append((test_file, test_file.relative_to(GENERATED)))
    for source, target in copies:
        destination = folder / target
        for package in [
            folder,
            *[folder / Path(*target.parts[:n]) for n in range(1, len(target.parts))],
        ]:
            package.mkdir(parents=True, exist_ok=True)
            (package / "__init__.py").touch()
        shutil.copy2(source, destination)
    return ".".join((folder.name, *relative.with_suffix("").parts))


#: Imports each vendored tool (its module and the runtime alone in a folder of their own) and
#: calls it, one after the other in one interpreter: one process per Python, not one per
#: module. Each tool's package is its own: the folder leaves the path and its package leaves
#: ``sys.modules`` before the next tool's folder comes in, so no module of one tool's folder
#: serves the next (the standard library's modules stay loaded, as in any service that
#: imports two tools). Arguments: folder, import name, folder, import name, ...
_STANDALONE = """\
import importlib, sys
pairs = sys.argv[1:]
for folder, name in zip(pairs[::2], pairs[1::2]):
    sys.path.insert(0, folder)
    try:
        module = importlib.import_module(name)
        assert module.__file__.startswith(folder), module.__file__
        assert module.validate(None).status == "reject", "validate(None)"
        assert module.validate([]).errors[0].code == "type", "validate([])"
        assert module.parse("{").status == "parse_error", "parse('{')"
        assert module.parse(b"[]").status == "reject", "parse(b'[]')"
        assert isinstance(module.TOOL_NAME, str) and isinstance(module.INPUT_SCHEMA, dict)
        print("ok", name)
    except Exception as error:
        print("FAILED", name, type(error).__name__, error)
    finally:
        sys.path.remove(folder)
        package = name.split(".")[0]
        for loaded in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[loaded]
"""


@pytest.mark.parametrize("version", VERSIONS)
def test_generated_modules_compile_and_import_alone_on_every_supported_python(
    version: str, tmp_path: Path
) -> None:
    python, full = _require_python(version)
    copy = _copy_generated(tmp_path / "generated")
    files = sorted(str(p) for p in copy.rglob("*.py"))
    compiled = _run([python, "-I", "-S", "-m", "py_compile", *files], cwd=tmp_path)
    assert compiled.returncode == 0, (
        f"generated files do not compile on CPython {full}:\n{_output(compiled)}"
    )

    tools: list[str | Path] = []
    names = []
    for path in MODULES:
        # The module and the runtime alone, as vendoring one tool copies them (vendor_one_tool).
        folder = tmp_path / "alone" / _rel(path).replace("/", "__").removesuffix(".py")
        names.append(vendor_one_tool(path, folder / "one_tool"))
        tools += [folder, names[-1]]
    # -I: no user site, no PYTHON* variables, no script folder; -S: no site-packages.
    result = _run([python, "-I", "-S", "-c", _STANDALONE, *tools], cwd=tmp_path)
    imported = [line.removeprefix("ok ") for line in result.stdout.splitlines()]
    assert (result.returncode, imported) == (0, names), (
        f"on CPython {full} ({python}), modules do not import alone:\n{_output(result)}"
    )


def test_supported_pythons_summary() -> None:
    found = {version: find_python(version) for version in VERSIONS}
    lines = [
        f"  CPython {v}: "
        + (f"{where[1]} at {where[0]}" if where else "absent (its tests are skipped)")
        for v, where in found.items()
    ]
    summary = "interpreters for the generated code:\n" + "\n".join(lines)
    print(summary)
    assert found[CURRENT] is not None, (
        f"the running interpreter's version {CURRENT} was not found\n{summary}"
    )


# -- 4. Vendoring -----------------------------------------------------------------------


def test_vendored_copy_passes_its_tests(tmp_path: Path) -> None:
    service = tmp_path / "service"
    _copy_generated(service / "validators")
    # Imported as validators.tests.test_* from the service's folder, as pytest's rootdir import
    # does; the harness makes pytest's calls in one process (pytest's own collection of the
    # same files is checked by the one-tool test below and by the main run).
    result = _run([sys.executable, HARNESS, service, "validators"], cwd=service)
    assert result.returncode == 0, f"the vendored copy fails its tests:\n{_output(result)}"
    assert _harness_counts(result) == (expected_item_count(), 0), (
        f"the vendored copy ran {_harness_counts(result)} tests, expected {expected_item_count()}:\n{_output(result, 5)}"
    )
    gate = _run(
        [
            sys.executable,
            "-c",
            "import validators, sys; assert validators.__file__.startswith(sys.argv[1]), validators.__file__;"
            "print(sorted(validators.TOOLS));"
            "assert validators.validate_call('no such tool', '{}').errors[0].code == 'unknown_tool'",
            service,
        ],
        cwd=service,
    )
    assert gate.returncode == 0, f"the vendored dispatch gate does not import:\n{_output(gate)}"


def test_one_tool_vendored_alone_passes_its_tests(tmp_path: Path) -> None:
    """One tool, taken alone into a service under another name: its module, ``_runtime.py``, its tests."""
    service = tmp_path / "service"
    for path in (GENERATED / "get_weather.py", GENERATED / "billing" / "transfer_funds.py"):
        vendor_one_tool(path, service / "acme_tools", tests=True)
    assert sorted(p.name for p in (service / "acme_tools").glob("*.py")) == [
        "__init__.py",
        "_runtime.py",
        "get_weather.py",
    ]
    result = run_pytest(cwd=service)
    assert result.returncode == 0, f"the vendored tools fail their tests:\n{_output(result)}"
    expected = sum(
        len(generated_test_calls(_import_generated_tests(GENERATED / p)))
        for p in ("get_weather.py", "billing/transfer_funds.py")
    )
    assert _passed(result) == expected, _output(result, 5)
