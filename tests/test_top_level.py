"""The line scanner (codegen/top_level.py) reads a module's top-level statements as ``ast.parse`` does.

``formatting.split`` takes the scanner's answer and asks ``ast.parse`` only where the
scanner says it cannot tell. Held here to ``ast.parse`` on every module the built-in
templates write for the example contracts and synthetic ones, on every committed
generated file, and on hostile sources, hand-written and randomly assembled: the
scanner's answer is ast's, or None.
"""

from __future__ import annotations

import ast
import functools
import random
import re
from collections.abc import Callable

import pytest
from support import ROOT
from test_formatting import (
    CONTRACTS,
    EDGE_CASES,
    SYNTHETIC,
    _package_sources,
    example_module_source,
    synthetic_module_source,
)
from toolshape.codegen import formatting, top_level


def _scanned(text: str) -> list[top_level.Statement] | None:
    return top_level.statements(text)


#: The package files' sources (six small templates: rendered at once).
_PACKAGE = _package_sources()

#: Where each source the scanner is held to comes from, by the name its test is given: what
#: the built-in templates write before layout (for the example contracts, the synthetic ones and
#: the package files), and every committed generated file. A source is built when its test
#: runs (once per process, shared with tests/test_formatting.py), not while the suite is being
#: collected: every xdist worker collects every test.
_MAKERS: dict[str, Callable[[], str]] = {
    **{p.stem: functools.partial(example_module_source, p) for p in CONTRACTS},
    **{
        f"synthetic {index}": functools.partial(synthetic_module_source, index)
        for index in range(SYNTHETIC)
    },
    **{name: functools.partial(_PACKAGE.__getitem__, name) for name in _PACKAGE},
    **{
        str(path.relative_to(ROOT)): functools.partial(path.read_text, encoding="utf-8")
        for path in sorted((ROOT / "generated").rglob("*.py"))
    },
}


@pytest.mark.parametrize("name", _MAKERS)
def test_the_scanner_reads_every_generated_module_as_ast_does(name: str) -> None:
    """No refusal on what toolshape writes (else no work is saved), and ast's answer; the
    generated tests' backslash continuations are left to ast (split does not cut them)."""
    text = _MAKERS[name]()
    scanned = _scanned(text)
    assert (scanned is None) == ("\\\n" in text)
    if scanned is None:
        return
    assert scanned == formatting.parsed_statements(text)


def test_splitting_a_generated_module_parses_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The work saved: split() cuts a module without ast.parse, and cuts it as before."""
    text = _MAKERS["large_order"]()
    with monkeypatch.context() as patched:
        patched.setattr(top_level, "statements", lambda source: None)  # ast's cut
        expected = formatting.split(text)
    calls: list[str] = []
    real = ast.parse

    def counted(source: str) -> ast.Module:
        calls.append(source)
        return real(source)

    monkeypatch.setattr(ast, "parse", counted)
    assert formatting.split(text) == expected
    assert len(expected or []) > 4
    assert calls == []


#: Sources whose lines mislead a reader that does not follow strings, brackets, clauses and
#: decorators: the scanner must answer as ast does, or refuse.
HOSTILE = {
    "a docstring whose lines look like statements": (
        'def f():\n    """Doc\ndef g():\nimport x\n"""\n    return 1\n\n\nX = 1\n'
    ),
    "triple quotes inside one-line strings": "A = '\"\"\"'\nB = \"'''\"\ndef f():\n    pass\n\n\nC = 2\n",
    "a bare string over lines between defs": (
        'def f():\n    pass\n\n\n"""\nx = 1\n"""\ndef g():\n    pass\n'
    ),
    "brackets and colons in strings and comments": (
        'def f(a="(", b="[{"):  # ) ]\n    return ":"\n\n\nX = ")"  # (\n'
    ),
    "a header over lines": "def f(\n    a: int,\n) -> dict[\n    str, int\n]:\n    return {}\n\n\nY = 1\n",
    "a one-line def and class": "def f(): return 1\nclass C: pass\nZ = 1\n",
    "a body on the header line ending in a colon-like token": "def f(): x = {1: 2}\n\n\nA = 1\n",
    "top-level clauses": (
        "try:\n    import json\nexcept ImportError:\n    json = None\nelse:\n    pass\n"
        "finally:\n    pass\nif A:\n    pass\nelif B:\n    pass\nelse:\n    pass\nX = 1\n"
    ),
    "decorators over lines, comments and blank lines": (
        "@a(\n    1,\n)\n# c\n\n@b\nclass C:\n    x: int\n\n\n@d\ndef f(): ...\nX = 2\n"
    ),
    "indented comments after a body": "def f():\n    pass\n    # trailing\n# col 0\n\nX = 1\n",
    "an assignment to a string's attribute": 'def f():\n    pass\n\n\n"a".x = 1\n',
    "a lambda statement": "def f():\n    pass\n\n\nlambda: 0\n",
    "a call statement": "def f():\n    pass\n\n\nprint(1)\n",
    "f-strings": 'def f():\n    pass\n\n\nX = f"{A}{{}}"\nY = Rf"{A}" fr"x" FR"y"\n',
    "an f-string with a brace on its own": 'X = f"{A}{{"\n',
    "an f-string with its own quote inside (3.12)": 'def f():\n    pass\n\n\nX = f"{A["k"]}"\n',
    "a triple-quoted f-string": 'def f():\n    pass\n\n\nX = f"""\n{A}\n"""\n',
    "a line separator ast does not count": "# a\x85b = 1\ndef f():\n    pass\n\n\nX = 1\n",
    "a separator inside a string": 'X = "a\u2028b"\ndef f():\n    pass\n',
    "escaped quotes": "X = 'it\\'s'  # \"\nY = \"\\\"\"\ndef f():\n    return '\\\\'\n\n\nZ = 1\n",
    "raw and byte strings": "X = rb'\\d'\nY = R\"\\\\\"\ndef f():\n    pass\n\n\nZ = 1\n",
    "empty and adjacent strings": 'X = "" "" \'\'\nY = """"a"""\ndef f():\n    pass\n\n\nZ = 1\n',
    "annotated and augmented assignments": "X: int\nY: int = 1\nY += 1\nY //= 2\nZ = Y == 1\n",
    "async defs": "async def f():\n    pass\n\n\nasync def g(): pass\nX = 1\n",
    "keywords that are statements": "del X\nassert X\nglobal Y\npass\nwith A:\n    pass\nfor a in b:\n    pass\nelse:\n    pass\nwhile 0:\n    pass\n",
    "a soft keyword as a name": "match: int = 1\ntype = 2\ncase = 3\n",
    "a decorator without its def": "@a\nX = 1\n",
    "statements sharing a line": "import os; X = 1\ndef f(): pass; y = 2\nZ = 3\n",
    "a semicolon in a string": 'import os\nX = ";"\ndef f():\n    pass\n',
    "tabs": "def f():\n\tpass\n\n\nX = 1\n",
    "no newline at the end": "def f():\n    pass\n\n\nX = 1",
}


@pytest.mark.parametrize("text", HOSTILE.values(), ids=HOSTILE.keys())
def test_hostile_sources_are_read_as_ast_does_or_refused(text: str) -> None:
    parsed = formatting.parsed_statements(text)
    scanned = _scanned(text)
    assert parsed is not None or scanned is None
    if scanned is not None:
        assert scanned == parsed


def test_the_hostile_sources_reach_the_scanners_decisions() -> None:
    """The class is covered both ways: the scanner decides most of them, and refuses some."""
    answers = [_scanned(text) for text in HOSTILE.values()]
    assert sum(answer is None for answer in answers) >= 6
    assert sum(answer is not None for answer in answers) >= 15


@pytest.mark.parametrize("text", EDGE_CASES.values(), ids=EDGE_CASES.keys())
def test_the_cutting_rules_edge_cases_are_read_as_ast_does(text: tuple[str, int]) -> None:
    scanned = _scanned(text[0])
    if scanned is not None:
        assert scanned == formatting.parsed_statements(text[0])


#: Top-level snippets to assemble at random: each compiles on its own and at any place.
SNIPPETS = [*HOSTILE.values()][:10] + [
    "import os\n",
    "from a import (\n    b,\n    c,\n)\n",
    "# a comment\n",
    "\n\n",
    "    # an indented comment\n",
    '"""A docstring."""\n',
    "X = {\n    'a': [1, (2, 3)],  # ]\n}\n",
    "@final\nclass C(TypedDict, total=False):\n    a: int\n",
    "def f(\n    x,\n):\n    '''x\n\n    y'''\n    return x\n",
]


@pytest.mark.parametrize("seed", range(200))
def test_random_assemblies_are_read_as_ast_does_or_refused(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice(SNIPPETS) for _ in range(rng.randint(1, 12)))
    parsed = formatting.parsed_statements(text)
    scanned = _scanned(text)
    if scanned is not None:
        assert scanned == parsed


def test_random_assemblies_are_mostly_decided() -> None:
    """The random class is one the scanner reads (not a test that always refuses)."""
    decided = 0
    for seed in range(200):
        rng = random.Random(seed)
        text = "".join(rng.choice(SNIPPETS) for _ in range(rng.randint(1, 12)))
        decided += _scanned(text) is not None and formatting.parsed_statements(text) is not None
    assert decided >= 60


def test_split_falls_back_to_ast_where_the_scanner_refuses() -> None:
    """A source the scanner does not know is still cut, by ast."""
    text = "def f():\n    pass\n\n\nX.y = 1\n\n\ndef g():\n    pass\n"
    assert _scanned(text) is None  # an assignment to an attribute
    assert formatting.split(text) == [
        "def f():\n    pass\n",
        "\n\nX.y = 1\n\n\ndef g():\n    pass\n",
    ]


def test_the_common_sources_mask_has_no_groups_and_masks_as_the_named_one_does() -> None:
    """Masking a module runs over every character of it: the pattern for a source with no
    f-string holds no group (a group around each branch makes the regular expression engine
    try every branch at every character, four times the cost), and masks every source here
    (hostile, assembled at random, and a generated module) exactly as the pattern with the
    branches named does."""
    assert top_level._PLAIN.groups == 0
    named = re.compile(top_level._STRINGS)
    rng = random.Random(0)
    assembled = ["".join(rng.choice(SNIPPETS) for _ in range(12)) for _ in range(50)]
    sources = [*HOSTILE.values(), *assembled, _MAKERS["large_order"]()]
    for text in sources:
        assert top_level._PLAIN.sub(top_level._mask, text) == named.sub(top_level._mask, text)
