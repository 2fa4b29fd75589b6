"""layout.held: each bracket black split gets a magic trailing comma where one keeps the code's
meaning, so ruff's formatter at 100 columns keeps black's split at 88 (issue 25).

Each case is a statement as black lays it out at 88 columns and what held makes of it;
black keeps the result as it is, and the code means what it meant (the same ast)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import black
import pytest
from toolshape.codegen import layout

CASES = {
    "a call's one argument": (
        ["errors.append(", "    Error(path, 'type', message)", ")"],
        ["errors.append(", "    Error(path, 'type', message),", ")"],
    ),
    "a call's arguments on one line: one per line": (
        ["f(", "    a, b[1, 2], 'c, (d'", ")"],
        ["f(", "    a,", "    b[1, 2],", "    'c, (d',", ")"],
    ),
    "a def's parameters and a class's bases": (
        ["def check(", "    value: object, path: str", ") -> None:", "    pass"],
        ["def check(", "    value: object,", "    path: str,", ") -> None:", "    pass"],
    ),
    "a dict, a set and a list of one item": (
        ["x = {", "    'key': [", "        1", "    ]", "}"],
        ["x = {", "    'key': [", "        1,", "    ],", "}"],
    ),
    "a subscript's items, a tuple already": (
        ["x: Literal[", "    'a', 'b'", "]"],
        ["x: Literal[", "    'a',", "    'b',", "]"],
    ),
    "an item pushed past 88 columns by its comma: split, and held in turn": (
        ["errors.append(", "    Error(" + "'/title', 'pattern', '" + "x" * 59 + "')", ")"],
        [
            "errors.append(",
            "    Error(",
            "        '/title',",
            "        'pattern',",
            "        '" + "x" * 59 + "',",
            "    ),",
            ")",
        ],
    ),
    "a dict's value pushed past 88 columns": (
        ["x = {", "    'k': {'items': {'drop': ['" + "a" * 30 + "', '" + "b" * 20 + "']}}", "}"],
        [
            "x = {",
            "    'k': {",
            "        'items': {'drop': ['" + "a" * 30 + "', '" + "b" * 20 + "']},",
            "    },",
            "}",
        ],
    ),
}

#: Brackets a comma would change the meaning of, or that hold one already: kept as they are.
KEPT = {
    "a subscript's one item": ["x = value[", "    'key'", "]"],
    "a dict literal's subscript": ['x = {"a": 1, "b": 2}[', "    key", "]"],
    "a call's result subscripted": ["x = f()[", "    key", "]"],
    "parentheses that group": ["if (", "    a and b", "):", "    pass"],
    "an assigned value's parentheses": ["x = (", "    a + b", ")"],
    "a generator's one item": ["f(", "    x for x in y", ")"],
    "a comprehension": ["x = [", "    x for x in y", "]"],
    "a tuple of one": ["x = (", "    a,", ")"],
    "brackets in a string and a comment": ["x = 1  # f(", "y = 'f('"],
    "a bracket on one line": ["x = f(a, b)"],
}


@pytest.mark.parametrize(("lines", "expected"), CASES.values(), ids=CASES.keys())
def test_a_split_bracket_is_held_by_a_comma(lines: list[str], expected: list[str]) -> None:
    held = layout.held(lines)
    assert held == expected
    source = "\n".join(held) + "\n"
    assert ast.dump(ast.parse(source)) == ast.dump(ast.parse("\n".join(lines) + "\n"))
    assert black.format_str(source, mode=black.Mode(string_normalization=False)) == source


@pytest.mark.parametrize("lines", KEPT.values(), ids=KEPT.keys())
def test_a_bracket_a_comma_would_change_is_kept(lines: list[str]) -> None:
    assert layout.held(lines) == lines


def test_ruffs_formatter_keeps_the_held_brackets_at_88_and_100(tmp_path: Path) -> None:
    for index, (_, expected) in enumerate(CASES.values()):
        (tmp_path / f"m{index}.py").write_text("\n".join(expected) + "\n", encoding="utf-8")
    for length in ("88", "100"):
        argv = ["ruff", "format", "--isolated", "--check", "--line-length", length]
        argv += ["--config", "format.quote-style='preserve'", str(tmp_path)]
        done = subprocess.run([sys.executable, "-m", *argv], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
