"""Long string literals cut into parenthesized pieces after layout (codegen/long_literals.py):
the value is the same, no line passes 100 columns, and black and ruff's formatter (at 88
and at 100 columns) keep the result as it is, for a literal at every place black leaves
one long."""

from __future__ import annotations

import ast
import io
import random
import subprocess
import sys
import tokenize
from pathlib import Path

import black
import pytest
from support import ROOT
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
    "alone in a call held by its comma": "    re.compile(\n        {},\n    )",
    "alone in a subscript": "    v = value[\n        {}\n    ]",
    "first operand": "    f(\n        x,\n        {}\n        + g(x),\n    )",
    "later operand": "    f(\n        x,\n        g(x)\n        + {}\n        + g(x),\n    )",
}


def _text(rng: random.Random) -> str:
    """Around and past the widths: a literal that fits a line of its own in parentheses
    (after a ``+`` or a dict key) and one that must be cut."""
    words: list[str] = []
    while sum(len(w) + 1 for w in words) < rng.choice([80, 84, 88, 92, rng.randint(96, 400)]):
        words.append(rng.choice(WORDS))
    return " ".join(words)


def _sources(count: int) -> list[tuple[str, str]]:
    """(place, source) pairs: each place with texts of many lengths and characters, as black
    lays them out, where that leaves a line over 100 columns."""
    rng = random.Random(25)
    sources = []
    texts = [_text(rng) for _ in range(count)]
    # Each length from where a line passes 100 columns to where the literal no longer fits
    # one of its own: every width of the band where it is written whole.
    texts += [("a quick fox " * 10)[:length] + "." for length in range(76, 100)]
    for text in texts:
        for place, shape in PLACES.items():
            body = shape.format(literal(text))
            source = black.format_str(f"def check(x, value, d, f, g, re):\n{body}\n", mode=MODE)
            if any(width(line) > 100 for line in source.split("\n")):
                sources.append((place, source))
    return sources


MODE = black.Mode()
SOURCES = _sources(16)


def _strings(source: str) -> list[object]:
    return [n.value for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Constant)]


@pytest.mark.parametrize(("place", "source"), SOURCES, ids=[p for p, _ in SOURCES])
def test_a_long_literal_is_cut_to_the_same_value_within_the_widths(place: str, source: str) -> None:
    cut = long_literals.cut(source)
    assert cut != source
    assert _strings(cut) == _strings(source)
    assert all(width(line) <= 100 for line in cut.split("\n")), cut
    kept = set(source.split("\n"))
    new = [line for line in cut.split("\n") if line not in kept]
    pieces = [line for line in new if line.lstrip()[:1] in "'\"" and not line.endswith("(")]
    # One piece: the literal whole on a line of its own (see long_literals.py).
    assert len(pieces) == 1 or all(width(line) <= 88 for line in pieces), cut
    assert black.format_str(cut, mode=MODE) == cut


def test_ruffs_formatter_keeps_every_cut_literal_at_88_and_100(tmp_path: Path) -> None:
    for index, (_, source) in enumerate(SOURCES):
        if "NAME = " not in source:  # (an assigned string: see long_literals.py)
            (tmp_path / f"m{index}.py").write_text(long_literals.cut(source), encoding="utf-8")
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


def test_the_lines_of_long_strings_are_those_pythons_tokenizer_finds() -> None:
    """long_literals reads which lines a triple-quoted string runs over from the lines with a
    triple quote alone (Python's tokenizer over the whole module costs several times more);
    the two agree on every committed module and on text holding quotes, triple quotes,
    escapes and comment signs in every kind of string."""
    rng = random.Random(7)
    hostile = ['"""', "'''", '"', "'", "\\\\", "#", "x", "b", "f"]
    texts = ["".join(rng.choice(hostile) for _ in range(rng.randint(1, 9))) for _ in range(200)]
    made = "\n".join(
        f"X{index} = {literal(text)}  # {text}\nB{index} = b{literal(text)}\n"
        f"def f{index}():\n    {_docstring(text)}\n    return {literal(text)}\n"
        f"Y{index} = {_docstring(text)} + {literal(text)}\n"
        for index, text in enumerate(texts)
    )
    modules = [made, *(p.read_text() for p in (ROOT / "generated").rglob("*.py"))]
    for source in modules:
        tokens = tokenize.generate_tokens(io.StringIO(source).readline)
        expected = {
            row - 1
            for token in tokens
            if token.type == tokenize.STRING
            and token.string[len(_prefix(token.string)) :][:3] in ('"""', "'''")
            for row in range(token.start[0], token.end[0] + 1)
        }
        assert long_literals.in_long_strings(source.split("\n")) == expected


def _prefix(string: str) -> str:
    """A string token's prefix: the letters before its first quote."""
    return string[: len(string) - len(string.lstrip("rRbBuUfF"))]


def _docstring(text: str) -> str:
    """``text`` in a triple-quoted string over two lines, its quotes escaped as a docstring's."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return f'"""{escaped}\n    {escaped} """'
