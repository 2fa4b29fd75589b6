"""The fast formatter (toolshape/codegen/formatting.py) gives exactly what whole-file black gives.

Checked on the unformatted module source of every example contract, of the
benchmark's large contract and of synthetic contracts (tests/bench/synth.py), and
on hand-written sources with the cases its cutting rule has to get right.
"""

from __future__ import annotations

import random
from pathlib import Path

import black
import pytest

from toolshape.codegen import formatting, model
from toolshape.contract import checker as contract, source
from toolshape.project import pipeline

import synth  # noqa: E402
from support import ENV, ROOT

CONTRACTS = sorted((ROOT / "contracts").rglob("*.yaml")) + [ROOT / "tests/bench/contracts/large_order.yaml"]


def _whole(source_text: str) -> str:
    return black.format_str(source_text, mode=black.Mode())


def _module_source(raw: bytes, stem: str) -> str:
    """The module template's output for a contract, before any formatting."""
    checked = contract.check(source.load(raw, f"contracts/{stem}.yaml"))
    built = model.build(checked, stem, pipeline.digest(raw, ENV))
    return ENV.get_template("module.py.j2").render(model=built)


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_example_modules_format_as_whole_file_black(path: Path) -> None:
    text = _module_source(path.read_bytes(), path.stem)
    assert len(formatting.split(text) or []) > 10, "the module should be cut into many pieces"
    assert formatting.black_format(text) == _whole(text)


@pytest.mark.parametrize("index", range(6))
def test_synthetic_modules_format_as_whole_file_black(index: int) -> None:
    rng = random.Random(1000 + index)
    raw = synth.render(synth.contract(rng, index)).encode()
    text = _module_source(raw, f"tool_{index}")
    assert formatting.black_format(text) == _whole(text)


def _laid_out(text: str) -> int:
    """How many of the source's pieces layout.py lays out itself (the rest go to black)."""
    return sum(formatting._laid_out(piece) is not None for piece in formatting.split(text) or [])


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_example_modules_laid_out_as_whole_file_black(path: Path) -> None:
    """What render.py does for the built-in templates: layout.py, black only where it must."""
    text = _module_source(path.read_bytes(), path.stem)
    assert formatting.black_format(text, known_layout=True) == _whole(text)
    # The contract's own pieces (its types, constants, check functions) are laid out.
    assert _laid_out(text) >= 4


@pytest.mark.parametrize("index", range(24))
def test_synthetic_modules_laid_out_as_whole_file_black(index: int) -> None:
    rng = random.Random(2000 + index)
    raw = synth.render(synth.contract(rng, index)).encode()
    text = _module_source(raw, f"tool_{index}")
    assert formatting.black_format(text, known_layout=True) == _whole(text)
    assert _laid_out(text) >= 4


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_laid_out_pieces_add_no_syntax_feature(path: Path) -> None:
    """black infers the target versions from the whole file; the pieces laid out are left
    out of that inference, which is only right if they use no feature the others lack."""
    text = _module_source(path.read_bytes(), path.stem)
    pieces = formatting.split(text) or []
    laid = [formatting._laid_out(piece) is not None for piece in pieces]
    others = set().union(*(formatting._features(p, first=i == 0) for i, p in enumerate(pieces) if not laid[i]))
    for index, piece in enumerate(pieces):
        if laid[index]:
            assert formatting._features(piece, first=index == 0) <= others, piece[:200]


# The cases the cutting rule must get right, each after a def or a class: the text, and how
# many pieces split() makes of it (0: it refuses to cut, black gets the whole file). A case
# in one piece checks that no cut is made there; the others that the pieces join up right.
EDGE_CASES = {
    "decorators and comments between defs": (
        '''
import functools
def a(x:int)->int:
    return x

# a comment at column 0

# another, after a blank line
@functools.cache
def b(): return 1
@functools.cache

def c(y):
    return {'k':y}
''',
        2,
    ),
    "a class with only a docstring, then a statement": (
        '''
class A:
    """Only a docstring."""
B = A()
class C:
    """Docstring."""

    x = 1


y = [1,2,3]
''',
        2,
    ),
    "a stub def last in a class, then a blank line": (
        '''
class P:
    def f(self): ...

def g(): ...
def h():
    pass

x = 1
''',
        3,
    ),
    "no blank line after a def: no cut": (
        '''
class P:
    def f(self): ...
def g():
    pass
x = 1
''',
        1,
    ),
    "a bare string after a def (not a docstring): no cut before it": (
        '''
def f():
    pass

"""Not a docstring."""

def g():
    pass
''',
        1,
    ),
    "trailing commas after *args need the file's versions": (
        '''
def f(*args, **kwargs):
    return 1

def g():
    return f(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, *cccccccccccccc)

def h():
    return f"{1}"
''',
        3,
    ),
    "no f-string: older versions allowed, no trailing comma after *args": (
        '''
def f(*args, **kwargs):
    return 1

def g():
    return f(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb, *cccccccccccccc)
''',
        2,
    ),
    "an indented comment at the end of a body: no cut": (
        '''
def f():
    return 1
    # still inside f

def g():
    return 2
''',
        1,
    ),
    "fmt: off goes to black whole": (
        '''
def f():
    return 1

# fmt: off
X = [1,
     2]
# fmt: on
def g():
    return 2
''',
        0,
    ),
    "the import block, then statements: one blank line, however many were there": (
        '''
from __future__ import annotations
import json


X = json.dumps({'a':1})
def f():
    return X
''',
        2,
    ),
    "no blank line after the imports": (
        '''
import json
Y = 2
''',
        2,
    ),
    "a comment after the imports: no cut": (
        '''
import json
# about Y
Y = 2
''',
        1,
    ),
    "a class after the imports: no cut (two blank lines there)": (
        '''
import json
class A:
    x = 1
''',
        1,
    ),
    "if/else at top level after a def": (
        '''
def f():
    return 1

if f():
    def g():
        return 2
else:
    g = None
try:
    import json
except ImportError:
    json = None
def h(): return 3
''',
        2,
    ),
}


@pytest.mark.parametrize(("text", "pieces"), EDGE_CASES.values(), ids=EDGE_CASES.keys())
def test_edge_cases_format_as_whole_file_black(text: str, pieces: int) -> None:
    assert len(formatting.split(text) or []) == pieces
    assert formatting.black_format(text) == _whole(text)


def test_runtime_pieces_are_formatted_once() -> None:
    """The second module reuses the first one's formatted runtime pieces."""
    first, second = (_module_source(p.read_bytes(), p.stem) for p in CONTRACTS[:2])
    formatting._FORMATTED.clear()  # forget what the tests above formatted
    formatting.black_format(first)
    remembered = len(formatting._FORMATTED)
    formatting.black_format(second)
    new = len(formatting._FORMATTED) - remembered
    assert 0 < new < len(formatting.split(second) or []) / 2


def test_invalid_source_is_reported_by_black() -> None:
    with pytest.raises(black.InvalidInput):
        formatting.black_format("def f(:\n    pass\n")
