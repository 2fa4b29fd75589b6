"""The model's Literal types and the templates' branches name the same things.

Templates choose what to print by comparing a model field with a string
(``{% if c.test == "shorter" %}``). The field's ``Literal`` type lists the values the model
may give it; a value the templates do not branch on would print the ``unreachable`` fallback,
and a branch no value reaches is dead code. Both directions are checked here, from the
template text.
"""

from __future__ import annotations

import re
import typing

import pytest
from support import ROOT
from toolshape.codegen import model_parts

TEMPLATES = ROOT / "templates"

#: (Literal type, template, the variable the template compares, values the template handles
#: without naming them: the last ``else`` of a chain).
BRANCHES = [
    (model_parts.CheckTest, "checks.py.j2", "c.test", set()),
    (model_parts.PathPartKind, "checks.py.j2", "part.kind", set()),
    (model_parts.ApplicatorKind, "checks.py.j2", "a.kind", set()),
    (model_parts.ConstantKind, "module.py.j2", "c.kind", {"json_values"}),
    (model_parts.JsonType, "checks.py.j2", "kind", set()),
]


def compared(template: str, variable: str) -> set[str]:
    """The strings ``variable`` is compared with (``==``) in ``template``."""
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    return set(re.findall(rf"(?<![\w.]){re.escape(variable)} == \"([a-z_]+)\"", text))


@pytest.mark.parametrize(
    ("kind", "template", "variable", "by_else"), BRANCHES, ids=[b[2] for b in BRANCHES]
)
def test_every_value_has_a_branch_and_every_branch_a_value(
    kind: object, template: str, variable: str, by_else: set[str]
) -> None:
    values = set(typing.get_args(kind))
    branches = compared(template, variable)
    assert branches, f"{template} no longer compares {variable}: update BRANCHES"
    assert values - by_else == branches, (
        f"{variable}: values without a branch {sorted(values - by_else - branches)}, "
        f"branches without a value {sorted(branches - values)}"
    )


def test_the_check_tests_the_model_makes_are_all_listed() -> None:
    """Every ``Check("...")`` the builder and the families' checks write, and every test in
    their tables of bounds and counts, names a CheckTest (mypy says so too, statically)."""
    package = ROOT / "generator" / "toolshape"
    paths = sorted((package / "codegen" / "building").glob("*.py"))
    paths += sorted((package / "families").glob("*/checks.py"))
    source = "\n".join(path.read_text(encoding="utf-8") for path in paths)
    made = set(re.findall(r'\bCheck\(\s*"([a-z_]+)"', source)) | set(
        re.findall(r'\("([a-z_]+)", "(?:at|greater|less|must)', source)
    )
    assert made and made <= set(typing.get_args(model_parts.CheckTest)), sorted(
        made - set(typing.get_args(model_parts.CheckTest))
    )
