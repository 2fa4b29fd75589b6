"""Long string literals cut into parenthesized pieces after layout (codegen/long_literals.py):
the value is the same, no line passes 100 columns, and black and ruff's formatter (at 88
and at 100 columns) keep the result as it is, for a literal at every place black leaves
one long."""

from __future__ import annotations

import ast
import random
import subprocess
import sys
from pathlib import Path

import black
import pytest
from toolshape.codegen import long_literals
from toolshape.codegen.literals import literal
from toolshape.codegen.widths import width

#: Words of contract text: quotes, an escape, a pattern, wide characters, a long word.
WORDS = ['"key"', "it's", "a\\b", "^[A-Z]{2}$", "\\u205f", "杭州", "/", "x" * 70, "and", "tab\t"]

#: The places black leaves a long literal, as a function body line: {} is the literal.
PLACES = {
    "assigned": "    NAME = {}",
    "annotated": "    NAME: str = {}",
    "dict value": '    d = {{\n        "key": {},\n        "other": 1,\n    }}',
    "argument": "    f(\n        x,\n        {},\n    )",
    "alone in a call": "    re.compile(\n        {}\n    )",
    "alone in a subscript": "    v = value[\n        {}\n    ]",
    "first operand": "    f(\n        x,\n        {}\n        + g(x),\n    )",
    "later operand": "    f(\n        x,\n        g(x)\n        + {}\n        + g(x),\n    )",
}


def _text(rng: random.Random) -> str:
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < rng.randint(96, 400):
        words.append(rng.choice(WORDS))
    return " ".join(words)


def _sources(count: int) -> list[tuple[str, str]]:
    """(place, source) pairs: each place with texts of many lengths and characters."""
    rng = random.Random(25)
    return [
        (place, "def check(x, value, d, f, g, re):\n" + shape.format(literal(_text(rng))) + "\n")
        for _ in range(count)
        for place, shape in PLACES.items()
    ]


SOURCES = _sources(12)


def _strings(source: str) -> list[object]:
    return [n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)]


@pytest.mark.parametrize(("place", "source"), SOURCES, ids=[p for p, _ in SOURCES])
def test_a_long_literal_is_cut_to_the_same_value_within_the_widths(place: str, source: str) -> None:
    # What the literal is cut from: black's layout, which leaves it long.
    source = black.format_str(source, mode=black.Mode())
    assert any(width(line) > 100 for line in source.split("\n"))
    cut = long_literals.cut(source)
    assert cut != source
    assert _strings(cut) == _strings(source)
    assert all(width(line) <= 100 for line in cut.split("\n")), cut
    pieces = [line for line in cut.split("\n") if line.lstrip().startswith(("'", '"'))]
    assert all(width(line) <= 88 for line in pieces), cut
    assert black.format_str(cut, mode=black.Mode()) == cut


def test_ruffs_formatter_keeps_every_cut_literal_at_88_and_100(tmp_path: Path) -> None:
    for index, (_, source) in enumerate(SOURCES):
        laid_out = black.format_str(source, mode=black.Mode())
        (tmp_path / f"m{index}.py").write_text(long_literals.cut(laid_out), encoding="utf-8")
    for length in ("88", "100"):
        argv = ["ruff", "format", "--isolated", "--check", "--line-length", length, str(tmp_path)]
        done = subprocess.run([sys.executable, "-m", *argv], capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr


def test_a_line_of_another_shape_or_a_short_one_is_kept() -> None:
    long = literal("word " * 30)
    kept = [
        f"    if (\n        {long}\n        in value\n    ):\n        pass",  # black moves the brackets
        "    NAME = " + literal("short text"),
        "    " + "# " + "comment " * 20,
        f'    """A docstring, a line of it code:\n\n    TEXT = {long}\n    """',
    ]
    for body in kept:
        source = f"def check(value):\n{body}\n"
        assert long_literals.cut(source) == source
