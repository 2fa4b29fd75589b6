"""The generator's stages import one way (issue 15): no import cycle, schema/ imports nothing of
toolshape, and no stage imports a later one.

The graph is read from the source (``ast``, every import at any depth, lazy ones inside
functions included), never by importing: a cycle that only a lazy import hides still counts.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from toolshape.schema.graphs import strongly_connected

PACKAGE = Path(__file__).resolve().parents[1] / "generator" / "toolshape"

#: Each top-level part of the package and its place in the data flow (YAML -> checked contract
#: -> model -> templates -> formatted files; the review and the command line last). A module
#: may import its own part and earlier ones only. A new top-level module or folder gets a rank here.
RANKS = {
    "toolshape": 0,  # __init__.py: the version
    "toolshape.schema": 0,  # JSON values, pointers, keywords: the base
    "toolshape.regex": 1,
    "toolshape.contract": 2,
    "toolshape.witness": 3,
    "toolshape.codegen": 4,
    # A side road below project/: project/'s pipeline and planning take each tool's platform
    # definitions from platforms/export.py, and platforms/ imports nothing of project/.
    "toolshape.platforms": 5,
    "toolshape.project": 6,
    "toolshape.review": 7,
    "toolshape.cli": 8,
    "toolshape.__main__": 9,
}

#: A keyword family (``toolshape.families.<family>``) holds one module per stage, each ranked
#: with its stage: ``rules``/``oracle`` with contract/, ``values`` with witness/, ``cases``,
#: ``checks`` and ``typing`` with codegen/, ``export`` with platforms/, ``review`` with review/ (and the
#: references family's ``targets``, where a reference points, with contract/: every stage from
#: there on follows a reference; its ``importing``, the importer's moving of reference targets,
#: and ``dynamic``, the importer's binding of dynamic references, with platforms/; the unevaluated family's ``evaluation``, what a schema evaluates, read by
#: the later stages, with contract/). The ``families`` package and each family's package hold a docstring only
#: (rank 0).
FAMILY_MODULES = {
    "rules": "toolshape.contract",
    "targets": "toolshape.contract",
    "evaluation": "toolshape.contract",
    "oracle": "toolshape.contract",
    "values": "toolshape.witness",
    "cases": "toolshape.codegen",
    "checks": "toolshape.codegen",
    "typing": "toolshape.codegen",
    "export": "toolshape.platforms",
    "importing": "toolshape.platforms",
    "dynamic": "toolshape.platforms",
    "review": "toolshape.review",
}


def modules(package: Path) -> dict[str, Path]:
    """Every module of the package under its dotted name (a package is its ``__init__``)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        found[name] = path
    return found


def imports(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """The package's modules that ``name`` imports, anywhere in it."""
    is_package = path.name == "__init__.py"
    here = name.split(".") if is_package else name.split(".")[:-1]
    edges: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            edges.update(_closest(alias.name, known) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = here[: len(here) - (node.level - 1)] if node.level else []
            target = ".".join(base + (node.module.split(".") if node.module else []))
            for alias in node.names:  # from package import submodule, or a name of the module
                edges.add(_closest(f"{target}.{alias.name}", known))
    edges.discard("")
    edges.discard(name)
    return edges


def _closest(dotted: str, known: dict[str, Path]) -> str:
    """The module a dotted name lives in ("" when it is outside the package)."""
    parts = dotted.split(".")
    while parts and ".".join(parts) not in known:
        parts.pop()
    return ".".join(parts)


def graph(package: Path) -> dict[str, set[str]]:
    known = modules(package)
    return {name: imports(name, path, known) for name, path in known.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """One cycle (as a path that ends where it starts) per group of modules that import each other."""
    groups = strongly_connected(sorted(edges), lambda node: sorted(edges.get(node, ())))
    return [_cycle_through(sorted(group), edges) for group in groups if len(group) > 1]


def _cycle_through(group: list[str], edges: dict[str, set[str]]) -> list[str]:
    """A shortest cycle from the group's first module back to it, for the message."""
    start = group[0]
    paths = [[start]]
    while paths:
        path = paths.pop(0)
        for other in sorted(edges[path[-1]] & set(group)):
            if other == start:
                return path + [start]
            if other not in path:
                paths.append(path + [other])
    return group  # not reached: a component of two or more has a cycle through each member


def rank(name: str) -> int | None:
    """The place of the top-level part ``name`` belongs to (None: not listed); a family's
    module takes its stage's place."""
    parts = name.split(".")
    if parts[:2] == ["toolshape", "families"]:
        if len(parts) <= 3:
            return 0  # the packages: a docstring only
        stage = FAMILY_MODULES.get(parts[3])
        return None if stage is None else RANKS[stage]
    return RANKS.get(".".join(parts[:2]))


def backward(edges: dict[str, set[str]]) -> list[str]:
    """Imports against the data flow: into a later stage, or out of schema/ into the rest."""
    found = []
    for name, targets in sorted(edges.items()):
        for target in sorted(targets):
            if name.startswith("toolshape.schema") and not target.startswith("toolshape.schema"):
                found.append(
                    f"{name} imports {target}: schema/ is the base and imports nothing else of toolshape"
                )
            elif (rank(target) or 0) > (rank(name) or 0):
                found.append(f"{name} imports {target}, a later stage")
    return found


def test_every_part_of_the_package_has_a_place_in_the_data_flow() -> None:
    unplaced = sorted(name for name in modules(PACKAGE) if rank(name) is None)
    assert not unplaced, f"add these to RANKS in {Path(__file__).name}: {unplaced}"


def test_the_package_has_no_import_cycle() -> None:
    found = cycles(graph(PACKAGE))
    assert not found, "import cycles: " + "; ".join(" -> ".join(cycle) for cycle in found)


def test_imports_follow_the_data_flow() -> None:
    found = backward(graph(PACKAGE))
    assert not found, "\n".join(found)


def test_the_stage_packages_hold_only_a_docstring() -> None:
    """No re-exports: a name lives in one module, imported from there."""
    for name, path in modules(PACKAGE).items():
        if path.name == "__init__.py" and name.count(".") == 1 and rank(name) in (0, 2, 4, 5, 6, 7):
            body = ast.parse(path.read_bytes()).body
            assert len(body) == 1 and isinstance(body[0], ast.Expr), f"{path}: only a docstring"


def test_the_family_packages_hold_only_a_docstring() -> None:
    """``families/__init__.py`` and each family's ``__init__.py``: what it is, no code."""
    for name, path in modules(PACKAGE).items():
        if path.name == "__init__.py" and name.startswith("toolshape.families"):
            body = ast.parse(path.read_bytes()).body
            assert len(body) == 1 and isinstance(body[0], ast.Expr), f"{path}: only a docstring"


# -- the checks themselves, on a package made up here --------------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "toolshape"
    for relative, text in {"__init__.py": "", **files}.items():
        (root / relative).parent.mkdir(parents=True, exist_ok=True)
        (root / relative).write_text(text)
    return root


def test_a_cycle_through_a_lazy_import_is_found(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "contract/__init__.py": '"""doc"""',
            "contract/checker.py": "def check():\n    from .reference import evaluate\n",
            "contract/reference.py": "from .checker import check\n",
            "codegen/__init__.py": '"""doc"""',
            "codegen/model.py": "from ..contract import checker\n",
        },
    )
    assert cycles(graph(root)) == [
        ["toolshape.contract.checker", "toolshape.contract.reference", "toolshape.contract.checker"]
    ]


def test_an_import_out_of_schema_or_into_a_later_stage_is_found(tmp_path: Path) -> None:
    root = _package(
        tmp_path,
        {
            "schema/__init__.py": '"""doc"""',
            "schema/values.py": "from toolshape.contract.errors import Problem\n",
            "contract/__init__.py": '"""doc"""',
            "contract/errors.py": "from ..codegen.model import Node\n",
            "codegen/__init__.py": '"""doc"""',
            "codegen/model.py": "from ..schema import values\nimport toolshape.contract.errors\n",
        },
    )
    assert backward(graph(root)) == [
        "toolshape.contract.errors imports toolshape.codegen.model, a later stage",
        "toolshape.schema.values imports toolshape.contract.errors: schema/ is the base and imports nothing else of toolshape",
    ]
    assert graph(root)["toolshape.codegen.model"] == {
        "toolshape.schema.values",
        "toolshape.contract.errors",
    }


@pytest.mark.parametrize(
    "name, expected",
    [
        ("toolshape.codegen.model", 4),
        ("toolshape.cli", 8),
        ("toolshape.nowhere", None),
        ("toolshape.families", 0),
        ("toolshape.families.numbers", 0),
        ("toolshape.families.numbers.rules", 2),
        ("toolshape.families.numbers.values", 3),
        ("toolshape.families.numbers.checks", 4),
        ("toolshape.families.numbers.export", 5),
        ("toolshape.families.numbers.review", 7),
        ("toolshape.families.numbers.elsewhere", None),
    ],
)
def test_rank_is_the_place_of_the_closest_listed_part(name: str, expected: int | None) -> None:
    assert rank(name) == expected
