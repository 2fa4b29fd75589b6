"""The built-in templates' output, laid out by layout.py alone, is exactly what whole-file black gives.

But for the magic trailing commas that hold its split brackets (layout.held): black keeps
them, and they are the only difference (see ``_as_black``).

Checked on the unformatted module source of every example contract, of the
benchmark's large contract and of synthetic contracts (tests/bench/synth.py), on the
package files and the runtime, and on hand-written sources with the cases the
cutting rule has to get right. A shape layout.py does not know is an error.
"""

from __future__ import annotations

import ast
import functools
import json
import random
from pathlib import Path, PurePosixPath

import black
import jinja2
import pytest
import synth
from support import CONTEXT, ROOT, check_example, example_contracts
from toolshape import __version__
from toolshape.codegen import formatting, layout, model, render
from toolshape.codegen.literals import Code, literal
from toolshape.contract import checker, source, tool_hints
from toolshape.platforms import export
from toolshape.project import headers, pipeline, runtime

CONTRACTS = example_contracts() + [ROOT / "tests/bench/contracts/large_order.yaml"]


def _whole(source_text: str) -> str:
    return black.format_str(source_text, mode=black.Mode())


@functools.cache
def _held_black(text: str) -> str:
    """Black's layout of ``text`` (whole file, its default mode), each split bracket then held
    by the magic trailing comma layout.held adds: what lay_out must give, byte for byte."""
    return "\n".join(layout.held(_whole(text).split("\n")))


def _as_black(laid: str, text: str) -> None:
    """``laid`` is black's layout of ``text`` but for the magic trailing commas layout.held
    adds, and black keeps it as it is: three passes of black (two over ``text``, one over
    ``laid``), where comparing both under ``--skip-magic-trailing-comma`` took five.

    ``laid == _held_black(text)`` says more than the skipping comparison did: that compared
    ``laid`` and ``text`` with every magic comma ignored, so a bracket split or joined where
    black does neither was caught, but so would be any comma; this is black's own output with
    the commas held adds and nothing else. held is what lay_out calls, so that comparison alone
    would hold it to itself: black's one pass over ``laid`` holds its commas to black (black
    keeps a bracket split by a magic comma, so a fixed point costs black one pass; a layout
    black would change costs two and fails). The ast comparison holds what the commas mean."""
    assert laid == _held_black(text)
    assert _whole(laid) == laid
    assert ast.dump(ast.parse(laid)) == ast.dump(ast.parse(text))


def _module_source(raw: bytes, stem: str, path: Path | None = None) -> str:
    """The module template's output for a contract (an example's at ``path``, with the shared
    definitions it reaches), before any formatting."""
    display = f"contracts/{stem}.yaml"
    checked = check_example(path, display) if path else checker.check(source.load(raw, display))
    built = model.build(checked, stem, headers.digest(raw, CONTEXT))
    return CONTEXT.environment.get_template("module.py.j2").render(model=built)


#: How many synthetic contracts (tests/bench/synth.py) the layout is held to black on.
SYNTHETIC = 40


@functools.cache
def example_module_source(path: Path) -> str:
    """An example contract's module source before layout, rendered once per process: this file
    and tests/test_top_level.py both read it."""
    return _module_source(path.read_bytes(), path.stem, path)


@functools.cache
def synthetic_module_source(index: int) -> str:
    """The module source, before layout, of the synthetic contract drawn from seed
    ``2000 + index``; rendered once per process and shared with tests/test_top_level.py."""
    raw = synth.render(synth.contract(random.Random(2000 + index), index)).encode()
    return _module_source(raw, f"tool_{index}")


@pytest.mark.parametrize("path", CONTRACTS, ids=lambda p: p.stem)
def test_example_modules_laid_out_as_whole_file_black(path: Path) -> None:
    """What render.py does for the built-in templates: layout.py alone, never black."""
    text = example_module_source(path)
    assert len(formatting.split(text) or []) > 4, "the module should be cut into pieces"
    _as_black(formatting.lay_out(text), text)


@pytest.mark.parametrize("index", range(SYNTHETIC))
def test_synthetic_modules_laid_out_as_whole_file_black(index: int) -> None:
    text = synthetic_module_source(index)
    _as_black(formatting.lay_out(text), text)


#: Each kind of layout error, made in get_weather's laid-out module: (what is found, what
#: stands for it). Each is valid Python that means the same. The dropped comma (in a call's
#: one argument, a split black itself makes) passed the skipping comparison; the rest failed it.
LAYOUT_ERRORS = {
    "a split line joined": (
        "errors.append(\n                        Error(",
        "errors.append(Error(",
    ),
    "a joined line split": (
        "if not isinstance(value, dict):",
        "if not isinstance(\n            value, dict\n        ):",
    ),
    "a held comma dropped": ("),\n                    )", ")\n                    )"),
    "a blank line added": ('\n        if "city" in value:', '\n\n        if "city" in value:'),
    "parentheses changed": (
        "if not isinstance(value, dict):",
        "if (not isinstance(value, dict)):",
    ),
}


@pytest.mark.parametrize(("found", "put"), LAYOUT_ERRORS.values(), ids=LAYOUT_ERRORS.keys())
def test_each_kind_of_layout_error_fails_the_check(found: str, put: str) -> None:
    path = ROOT / "contracts/get_weather.yaml"
    text = example_module_source(path)
    laid = formatting.lay_out(text)
    _as_black(laid, text)
    assert laid.count(found) >= 1
    wrong = laid.replace(found, put, 1)
    assert ast.dump(ast.parse(wrong)) == ast.dump(ast.parse(laid))
    with pytest.raises(AssertionError):
        _as_black(wrong, text)


# Every committed generated file is black's output as it stands (black --check on a vendored
# copy): tests/test_code_quality.py runs black --check over generated/ with a user's other
# checks, once for the folder.


def _listed(lists: dict[str, list[str]]) -> list[tuple[Code, list[Code]]]:
    """What planning.py gives tool_definitions.py.j2: each platform and its items, as literals."""
    return [(literal(key), [literal(item) for item in items]) for key, items in lists.items()]


def _package_sources() -> dict[str, str]:
    """The gate (for many tools and for one) and the package __init__ files, before any formatting."""
    tools = {f"tool_{i}": "." + ".".join(["folder"] * (i % 3) + [f"tool_{i}"]) for i in range(12)}
    tools["a_tool_with_a_name_long_enough_to_need_its_own_line_and_more_words"] = (
        ".x.y.z.w.the_module"
    )
    gate = CONTEXT.environment.get_template("package.py.j2")
    init = CONTEXT.environment.get_template("subpackage.py.j2")
    lists = CONTEXT.environment.get_template("tool_definitions.py.j2")
    version = Code(__version__)
    platforms = literal(export.PLATFORMS)
    command = Code("toolshape generate 'api tools' --out ../src/validators")
    definition = json.dumps({"name": "x", "description": "d " * 60, "inputSchema": {}})
    hints = {
        "tool_0": {"readOnlyHint": True},
        "a_tool_with_a_name_long_enough_to_need_its_own_line_and_more_words": dict(
            tool_hints.DEFAULTS
        ),
    }
    defaults = literal(tool_hints.DEFAULTS)
    return {
        "gate": gate.render(
            version=version,
            tools=literal(tools),
            platforms=platforms,
            command=command,
            annotations=literal(hints),
            hint_defaults=defaults,
        ),
        "gate of one tool": gate.render(
            version=version,
            tools=literal({"x": ".x"}),
            platforms=platforms,
            command=command,
            annotations=literal({}),
            hint_defaults=defaults,
        ),
        "tool lists": lists.render(
            version=version,
            command=command,
            definitions=_listed({"mcp": [definition, definition], "openai": []}),
            refused=_listed({"gemini-legacy": ["contracts/x.yaml:3:5: error: " + "why " * 30]}),
        ),
        "tool lists, none refused": lists.render(
            version=version,
            command=command,
            definitions=_listed({"mcp": [definition]}),
            refused=_listed({}),
        ),
        "tests __init__": init.render(version=version, tests=True),
        "package __init__": init.render(version=version, tests=False),
    }


@pytest.mark.parametrize(
    ("name", "text"), _package_sources().items(), ids=_package_sources().keys()
)
def test_package_files_laid_out_as_whole_file_black(name: str, text: str) -> None:
    if name.startswith("tool lists"):  # rendered without layout: written in black's layout
        assert text == _whole(text)
    else:
        _as_black(formatting.lay_out(text), text)


def test_the_runtime_template_is_written_as_black_formats_it() -> None:
    """_runtime.py is rendered without formatting (it holds no contract data): its template must be black's layout."""
    text = runtime.runtime_source(CONTEXT)
    assert _whole(text) == text


UNKNOWN_SHAPES = {
    # (``@final`` right above a top-level class is a shape it knows: the TypedDicts')
    "a decorator in a class body": "class C:\n    @property\n    def f(self):\n        return 1\n",
    "a long statement of no known shape": "X = 1\nY = lambda value: value + "
    + " + ".join(["value"] * 20)
    + "\n",
    "a statement over two lines": "X = [\n    1,\n]\n",
}


@pytest.mark.parametrize("text", UNKNOWN_SHAPES.values(), ids=UNKNOWN_SHAPES.keys())
def test_a_shape_layout_does_not_know_is_an_error_not_black(text: str) -> None:
    with pytest.raises(formatting.LayoutError, match=r"layout\.py has no rule"):
        formatting.lay_out(text)


def test_built_in_output_of_an_unknown_shape_is_recorded_and_formatted_by_black(
    tmp_path: Path,
) -> None:
    """A layout gap never fails a user's contract: black's public format_str formats that
    module, and the generation context notes it (the test below fails on any gap)."""
    (tmp_path / "module.py.j2").write_text("X = [\n    1,\n]\n", encoding="utf-8")
    context = render.generation_context()
    context.environment.loader = jinja2.FileSystemLoader(
        str(tmp_path)
    )  # the built-in environment, its template replaced
    assert render.render(context, "module.py.j2", "x.py") == "X = [\n    1,\n]\n"
    assert context.layout_notes == [
        ("x.py", "layout.py has no rule for this piece of generated code:")
    ]
    assert context.take_layout_notes("x.py") == [
        "layout.py has no rule for this piece of generated code:"
    ]
    assert context.layout_notes == []


# Shapes found by tests/bench/real_schemas.py on real schemas (JSONSchemaBench), each once a
# generation failure: a long elif at a deep indent, a commented assignment too long to split.
DEEP = """\
name: deep
description: d
parameters:
  type: object
  properties:
    a_rather_long_property_name_for_nesting:
      type: object
      properties:
        another_rather_long_property_name:
          type: object
          properties:
            yet_another_long_property_name_here:
              type: object
              properties:
                trademarknumber_of_the_registered_mark_in_the_register:
                  type: string
                  pattern: '^[0-9A-Z]{2,30}$'
                  x-note: deep
              patternProperties:
                '^fr_':
                  type: object
                  properties:
                    trademarknumber_again_with_a_long_name: {type: string, pattern: '^[A-Z]+$'}
"""


def test_deeply_nested_real_world_shapes_generate_black_formatted() -> None:
    raw = DEEP.encode()
    done = pipeline.generate(
        raw, "deep.yaml", PurePosixPath("deep.yaml"), render.generation_context()
    )
    assert _whole(done.module_source) == done.module_source


def test_custom_templates_are_formatted_by_black(tmp_path: Path) -> None:
    (tmp_path / "module.py.j2").write_text("X = [\n    1,\n]\nY = {'a':1}\n", encoding="utf-8")
    context = render.generation_context(tmp_path)
    assert render.render(context, "module.py.j2", "x.py") == 'X = [\n    1,\n]\nY = {"a": 1}\n'


# The cases the cutting rule must get right, each after a def or a class: the text, and how
# many pieces split() makes of it (0: it refuses to cut, black gets the whole file). A case
# in one piece checks that no cut is made there; the others that the pieces join up right.
EDGE_CASES = {
    "decorators and comments between defs": (
        """
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
""",
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
        """
class P:
    def f(self): ...

def g(): ...
def h():
    pass

x = 1
""",
        3,
    ),
    "no blank line after a def: no cut": (
        """
class P:
    def f(self): ...
def g():
    pass
x = 1
""",
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
    "an indented comment at the end of a body: the cut comes after it": (
        """
def f():
    return 1
    # still inside f

def g():
    return 2
""",
        2,
    ),
    "fmt: off goes to black whole": (
        """
def f():
    return 1

# fmt: off
X = [1,
     2]
# fmt: on
def g():
    return 2
""",
        0,
    ),
    "the import block, then statements: one blank line, however many were there": (
        """
from __future__ import annotations
import json


X = json.dumps({'a':1})
def f():
    return X
""",
        2,
    ),
    "no blank line after the imports": (
        """
import json
Y = 2
""",
        2,
    ),
    "a comment after the imports: a cut (black puts one blank line before it)": (
        """
import json
# about Y
Y = 2
""",
        2,
    ),
    "a class after the imports: no cut (two blank lines there)": (
        """
import json
class A:
    x = 1
""",
        1,
    ),
    "if/else at top level after a def": (
        """
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
""",
        2,
    ),
}


@pytest.mark.parametrize(("text", "pieces"), EDGE_CASES.values(), ids=EDGE_CASES.keys())
def test_edge_cases_cut_where_black_formats_pieces_alike(text: str, pieces: int) -> None:
    """The cutting rule: black on each piece, joined, is black on the whole file."""
    cut = formatting.split(text)
    assert len(cut or []) == pieces
    if cut is not None:
        assert cut.join([_whole(piece) for piece in cut]) == _whole(text)


def test_invalid_custom_template_output_is_reported(tmp_path: Path) -> None:
    (tmp_path / "module.py.j2").write_text("def f(:\n    pass\n", encoding="utf-8")
    with pytest.raises(render.RenderError, match="invalid Python"):
        render.render(render.generation_context(tmp_path), "module.py.j2", "x.py")


def test_a_layout_gap_is_said_on_the_command_line_never_silent(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A user's contract that meets a shape layout.py lacks still generates (black formats that
    module, the same bytes), and generate says so on stderr, even with --quiet."""
    from toolshape.cli import main

    contracts = tmp_path / "contracts"
    contracts.mkdir()
    (contracts / "get_weather.yaml").write_bytes((ROOT / "contracts/get_weather.yaml").read_bytes())
    monkeypatch.setenv("TOOLSHAPE_CACHE_DIR", "")
    real = formatting.lay_out

    def lacking(text: str, gaps: list[str] | None = None) -> str:
        if "def validate(" in text:  # the tool module's template output: a made-up gap
            raise formatting.LayoutError("layout.py has no rule for this piece of generated code:")
        return real(text, gaps)

    monkeypatch.setattr(formatting, "lay_out", lacking)
    code = main(["generate", str(contracts), "--out", str(tmp_path / "out"), "--quiet"])
    err = capsys.readouterr().err
    assert code == 0, err
    assert (
        f"toolshape: note: {contracts / 'get_weather.yaml'}: black formatted part of its module"
        in err
    )
    module = (tmp_path / "out/get_weather.py").read_text(encoding="utf-8")
    assert _whole(module) == module  # black's bytes all the same


#: A statement layout.py has no rule for (black's own shape for an integer test too deep for
#: its head), as JSON Schema Store's cityjson has it 107 times at one depth.
DEEP_INTEGER_TEST = (
    "if type(values_item_item_item) is int or "
    "(type(values_item_item_item) is float and values_item_item_item.is_integer()):"
)


def _deep_gaps(count: int) -> str:
    """A module of ``count`` functions, each with that statement 14 levels deep."""
    nested = "".join("    " * level + "if x:\n" for level in range(1, 14))
    body = nested + "    " * 14 + DEEP_INTEGER_TEST + "\n" + "    " * 15 + "pass\n"
    return "X = 1\n" + "".join(f"\n\ndef f_{i}(x):\n" + body for i in range(count))


@pytest.mark.parametrize("count", [1, 4, 16])
def test_a_statement_without_a_rule_costs_black_one_statement_once(
    count: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Black formats what layout.py has no rule for as small as it comes (the statement, at
    its depth), once per distinct statement: JSON Schema Store's cityjson (issue 24) once sent
    its 72,000-line module to black whole for such a line, over 200 seconds."""
    text = _deep_gaps(count)
    sizes: list[int] = []
    real = formatting.black_format

    def counting(source_text: str) -> str:
        sizes.append(source_text.count("\n"))
        return real(source_text)

    monkeypatch.setattr(formatting, "black_format", counting)
    formatting._black_lines.cache_clear()
    gaps: list[str] = []
    laid = formatting.lay_out(text, gaps)
    assert len(sizes) == 1 and max(sizes) <= 16, sizes  # one call, on the statement alone
    assert len(gaps) == count
    _as_black(laid, text)
