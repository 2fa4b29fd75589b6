"""The generated tests' table rows fit a user's line length (issue 25): ``wrapping.entry``
lays out any JSON-like value within 88 columns and writes the same value.

Every line of an entry is at most 88 columns wide (as ruff's E501 measures: a wide
character counts two), whatever the value holds: long strings of any character (quotes,
backslashes, line breaks, wide and non-printable characters), long keys, bytes, deep
nesting; and the entry, read back by Python, is the value it was made from."""

from __future__ import annotations

import ast
import math
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from markupsafe import Markup
from support import CONTEXT, CONTRACTS
from toolshape.codegen import render, wrapping
from toolshape.codegen.context import GenerationContext
from toolshape.codegen.literals import Code, literal, literal_text
from toolshape.codegen.widths import width
from toolshape.project import pipeline

#: Characters that take more than one column in a literal, or in a line.
TRICKY = "'\"\\\n\r\t\x00\u2028\u200f é杭州😀 /"

texts = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=300)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(10**12), 10**12)
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts
    | st.binary(max_size=200)
    | st.just(Code("MISSING"))
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.lists(inner, max_size=4).map(tuple)
        | st.dictionaries(texts, inner, max_size=4)
        | st.frozensets(st.tuples(texts, texts), max_size=3)
    ),
    max_leaves=12,
)


def _read_back(text: str) -> Any:
    """An entry's value, read where the template prints it: inside a table's brackets."""
    table = eval("[\n" + text + "\n]", {"frozenset": frozenset, "MISSING": Code("MISSING")})
    return table[0]


def _same(a: Any, b: Any) -> bool:
    """Equal, with -0.0 and 0.0 told apart (a literal must keep the sign)."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, (list, tuple)) and type(a) is type(b):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def _lines(value: object, indent: int) -> list[str]:
    """The entry as the template prints it: indented, followed by a comma."""
    return f"{' ' * indent}{wrapping.entry(value, indent)},".split("\n")


@settings(max_examples=300, deadline=None)
@given(value=values, indent=st.sampled_from([0, 4, 12]))
def test_every_line_of_an_entry_fits_and_the_entry_is_the_value(value: object, indent: int) -> None:
    lines = _lines(value, indent)
    for line in lines:
        if width(line) > wrapping.LINE_LENGTH:
            assert _uncuttable(line), line
    assert _same(_read_back("\n".join(lines)[indent:].rstrip(",")), value)


def _holds_code(value: object) -> bool:
    if isinstance(value, Code):
        return True
    if isinstance(value, (list, tuple)):
        return any(_holds_code(item) for item in value)
    return isinstance(value, dict) and any(_holds_code(item) for item in value.values())


@settings(max_examples=300, deadline=None)
@given(value=values)
def test_a_value_on_one_line_is_the_literal_of_it(value: object) -> None:
    """wrapping writes a tuple, list or dict from its items' texts (each made once); that is
    literal()'s text of it, quotes and all, for every JSON-like value."""
    assume(not _holds_code(value))
    assert wrapping._text(value, {}) == str(literal(value))


@settings(max_examples=300, deadline=None)
@given(value=values)
def test_literal_is_its_text_as_code(value: object) -> None:
    """literal() makes its Code without Markup's constructor: the same text, of type Code."""
    assume(not _holds_code(value))
    made = literal(value)
    assert type(made) is Code
    assert str(made) == literal_text(value) == str(Markup(literal_text(value)))


@pytest.mark.parametrize("size", [1, 10, 100])
def test_a_row_is_measured_on_plain_text_and_made_code_once(
    size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table row's literals are measured and joined as plain text; the row becomes Code
    once, whatever it holds (the generated tests write hundreds of rows per contract)."""
    made = 0
    real = Markup.__new__

    def counted(cls: type[Markup], *args: Any, **kwargs: Any) -> Markup:
        nonlocal made
        made += 1
        return real(cls, *args, **kwargs)

    row = (
        "a case's name",
        {f"/key_{i}": [f"value {i}", i, {"inner": None}] for i in range(size)},
        frozenset({(f"/key_{i}", "type") for i in range(size)}),
    )
    monkeypatch.setattr(Markup, "__new__", counted)
    written = wrapping.entry(row)
    monkeypatch.undo()
    assert made == 1
    assert _same(_read_back(str(written)), row)


def _uncuttable(line: str) -> bool:
    """A line that holds nothing to cut: one number (a long float's repr) after its indent."""
    body = line.strip().removesuffix(",")
    try:
        return isinstance(float(body), float)
    except ValueError:
        return False


@pytest.mark.parametrize("size", [1, 60, 85, 86, 87, 88, 89, 100, 300, 5000])
@pytest.mark.parametrize("char", ["a", " ", '"', "\\", "\n", "杭", "😀", "\u2028"])
def test_a_string_of_any_length_is_cut_into_pieces_that_fit(size: int, char: str) -> None:
    text = ("x" + char) * (size // 2) + "y" * (size % 2)
    missing = Code("MISSING")  # a name the template defines, after a long key
    for value in (text, {text: text}, {text: missing}, (text, [text]), text.encode("utf-8")):
        lines = _lines(value, 4)
        assert all(width(line) <= wrapping.LINE_LENGTH for line in lines), lines
        assert _read_back("\n".join(lines)[4:].rstrip(",")) == value


def test_a_short_row_stays_on_its_line_and_a_long_one_splits_as_black_would() -> None:
    assert wrapping.entry(("case", {"/a": 1}, frozenset({("/a", "type")}))) == (
        '("case", {"/a": 1}, frozenset({("/a", "type")}))'
    )
    row = ("case " * 20, {"/a": Code("MISSING")}, frozenset({("/a", "required")}))
    assert _lines(row, 4) == [
        "    (",
        '        "case case case case case case case case case case case case case case case "',
        '        "case case case case case ",',
        '        {"/a": MISSING},',
        '        frozenset({("/a", "required")}),',
        "    ),",
    ]


def test_a_long_string_is_cut_after_a_space_or_a_slash_where_one_is_near() -> None:
    pointer = "/delegates/0" * 10
    lines = _lines(pointer, 4)
    assert [line.strip().strip('",') for line in lines[:-1]] == [
        "/delegates/0/delegates/0/delegates/0/delegates/0/delegates/0/delegates/0/",
    ]
    assert "".join(line.strip().strip('",') for line in lines) == pointer


def _measured_cuts(text: str | bytes, indent: int, suffix: str) -> list[str]:
    """The pieces as the rule says, every candidate literal written and measured: as many
    characters as fit (at least one), then back to after the last space or slash in the
    piece's second half, or to before its last backslash, whichever is later (the oracle for
    ``wrapping._pieces``, which measures otherwise)."""
    room = max(wrapping.LINE_LENGTH - indent - len(suffix), 1)
    pieces: list[str] = []
    start = 0
    while start < len(text):
        end = start + 1
        while end < len(text) and end - start < room:
            if width(literal(text[start : end + 1])) > room:
                break
            end += 1
        if end < len(text):
            middle = start + (end - start) // 2
            breaks = [i + 1 for i in range(middle, end) if text[i : i + 1] in _BREAKS]
            breaks += [i for i in range(middle, end) if text[i : i + 1] in ("\\", b"\\")]
            breaks = [i for i in breaks if i > middle]
            end = max(breaks) if breaks else end
        pieces.append(" " * indent + str(literal(text[start:end])))
        start = end
    pieces = pieces or [" " * indent + str(literal(text))]
    pieces[-1] += suffix
    return pieces


_BREAKS = (" ", "/", b" ", b"/")


@settings(max_examples=300, deadline=None)
@given(
    text=st.text(alphabet=st.sampled_from(TRICKY + "ab"), max_size=400),
    indent=st.sampled_from([0, 4, 8, 40, 86, 90]),
    suffix=st.sampled_from(["", ",", "),"]),
    as_bytes=st.booleans(),
)
def test_a_long_string_is_cut_as_measured_with_one_literal_for_the_text(
    text: str, indent: int, suffix: str, as_bytes: bool
) -> None:
    """The pieces are those of measuring every candidate piece's literal, yet ``literal`` is
    called for the whole text and not per piece (but for a piece that quotes otherwise
    than the whole text, or a character not measured before): cutting the package's tool
    lists, thousands of definitions of thousands of characters, stays a slicing job."""
    value: str | bytes = text.encode("utf-8") if as_bytes else text
    calls = 0
    real = literal_text  # what wrapping imported: literal()'s text, not yet Code

    def counted(item: object) -> str:
        nonlocal calls
        calls += 1
        return real(item)

    with pytest.MonkeyPatch.context() as patched:
        patched.setattr(wrapping, "literal_text", counted)
        pieces = wrapping._pieces(value, indent, suffix)
    assert pieces == _measured_cuts(value, indent, suffix)
    whole_quote = str(literal(value))[-1]
    quoted_otherwise = sum(1 for piece in pieces if piece.rstrip(suffix)[-1] != whole_quote)
    # beyond the whole text: a piece quoted otherwise, and each special character measured once
    specials = {value[i : i + 1] for i in wrapping._specials(value)}
    assert calls <= 1 + quoted_otherwise + len(specials), (calls, len(pieces))


@settings(max_examples=200, deadline=None)
@given(text=texts, indent=st.sampled_from([0, 8, 40]), whole=st.sampled_from([88, 100]))
def test_a_string_written_again_from_its_cuts_is_the_entry(
    text: str, indent: int, whole: int
) -> None:
    """The package's tool lists write each definition from its cuts (listing.py): written from
    them, the entry is the one made by measuring; ends that do not rise to the end are refused."""
    cuts = wrapping.string_cuts(text, indent, whole)
    assert wrapping.string_entry(text, cuts, indent) == wrapping.entry(text, indent, whole=whole)
    for wrong in ([0, len(text)], [len(text) + 1], [2, 1, len(text)]):
        if text and wrong != cuts:
            with pytest.raises(ValueError, match="must rise"):
                wrapping.string_entry(text, wrong, indent)


#: A template that prints entries where the tests template does: after ``NAME = `` and in a table.
_TABLES = "X = {{ one }}\nT = [\n{% for item in many %}\n    {{ item }},\n{% endfor %}\n]\n"


@pytest.fixture(scope="module")
def tables_context(tmp_path_factory: pytest.TempPathFactory) -> GenerationContext:
    folder = tmp_path_factory.mktemp("tables")
    (folder / "tables.py.j2").write_text(_TABLES, encoding="utf-8")
    return render.generation_context(folder)


@settings(max_examples=200, deadline=None)
@given(value=values, count=st.integers(0, 3))
def test_entries_spliced_after_compiling_the_code_around_them_are_the_plain_render(
    tables_context: GenerationContext, value: object, count: int
) -> None:
    """render_tables compiles the template's output with an atom for each entry, then puts the
    entries in: for every entry wrapping makes, in a table or after ``NAME = ``, the text is
    the plain render's, and Python reads each entry back as its value."""
    one = wrapping.entry(value, 0, "", before="X = ")
    many = [wrapping.entry(value) for _ in range(count)]
    entries = [one, *many]
    spliced = render.render_tables(
        tables_context,
        "tables.py.j2",
        "t.py",
        entries,
        one=render.stand_in(0),
        many=[render.stand_in(i) for i in range(1, len(entries))],
    )
    plain = render.render(
        tables_context, "tables.py.j2", "t.py", formatted=True, one=one, many=many
    )
    assert spliced == plain
    names = {"frozenset": frozenset, "MISSING": Code("MISSING")}
    exec(compile(spliced, "t.py", "exec"), names)
    assert _same(names["X"], value)
    table = names["T"]
    assert isinstance(table, list) and len(table) == count
    assert all(_same(item, value) for item in table)


def test_code_around_the_entries_that_does_not_compile_is_refused(
    tmp_path: Path,
) -> None:
    """The proof is the compile of the code around the entries: a template that writes broken
    code there fails, whatever the entries are; a stand-in nobody handed in is a RenderError."""
    (tmp_path / "broken.py.j2").write_text("X = {{ one }} +\n", encoding="utf-8")
    (tmp_path / "stray.py.j2").write_text("X = {{ one }}\n", encoding="utf-8")
    context = render.generation_context(tmp_path)
    entry = [wrapping.entry([1, 2])]
    with pytest.raises(SyntaxError):
        render.render_tables(context, "broken.py.j2", "b.py", entry, one=render.stand_in(0))
    with pytest.raises(render.RenderError, match="stand-in"):
        render.render_tables(context, "stray.py.j2", "s.py", entry, one=render.stand_in(1))


def test_generating_tests_compiles_the_code_around_their_tables_not_the_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Proving the generated tests compile costs the compile of their code, not of their
    tables' literals (most of their text): each row is an atom in what is compiled."""
    compiled: dict[str, str] = {}
    real = compile

    def watched(source: str, label: str, mode: str) -> Any:
        compiled[label] = source
        return real(source, label, mode)

    monkeypatch.setattr(render, "compile", watched, raising=False)
    path = CONTRACTS / "get_weather.yaml"
    made = pipeline.generate(
        path.read_bytes(),
        "contracts/get_weather.yaml",
        PurePosixPath("get_weather.yaml"),
        CONTEXT,
    )
    text = compiled[str(made.test_path)]
    rows = next(
        len(node.value.elts)
        for node in ast.parse(made.test_source).body
        if isinstance(node, ast.AnnAssign)
        and isinstance(node.target, ast.Name)
        and node.target.id == "CASES"
        and isinstance(node.value, ast.List)
    )
    table = text.split(
        "CASES: list[tuple[str, dict[str, object], frozenset[tuple[str, str]]]] = [\n"
    )
    assert rows > 10 and table[1].startswith("    None,\n" * rows + "]\n")
    real(made.test_source, "whole", "exec")  # and the whole text compiles


#: Pointers and codes of a case's errors: short and long (around the 88 columns a split
#: row's errors line may take), with the characters whose literal is wider than they are.
error_texts = st.text(alphabet=st.sampled_from(TRICKY) | st.characters(), max_size=40) | st.text(
    alphabet=st.sampled_from("ab/é杭"), min_size=20, max_size=80
)


@settings(max_examples=300, deadline=None)
@given(
    name=texts,
    changes=st.dictionaries(texts, values, max_size=2),
    errors=st.frozensets(st.tuples(error_texts, error_texts), max_size=3),
)
def test_a_case_row_written_with_its_errors_made_once_is_the_row_written_with_the_set(
    name: str, changes: dict[str, Any], errors: frozenset[tuple[str, str]]
) -> None:
    """tests_model writes a case's errors once per distinct set and hands ``entry`` the
    result: the row is the one ``entry`` writes with the set itself, whether the row stays on
    one line, splits with the errors on a line of their own, or cuts them too."""
    from toolshape.codegen import tests_model

    written: tests_model.ErrorsItems = {}
    once = tests_model._errors_item(errors, written)
    assert tests_model._errors_item(errors, written) is once  # made once
    assert wrapping.entry((name, changes, once)) == wrapping.entry((name, changes, errors))


@settings(max_examples=300, deadline=None)
@given(key=texts, value=values, indent=st.sampled_from([0, 4, 40, 80, 84, 96]))
def test_the_first_line_of_a_pair_is_known_before_its_value_is_laid_out(
    key: str, value: object, indent: int
) -> None:
    """A split dict's pair decides whether its key must be cut on its first line alone, made
    without laying out the value: that line is the layout's own first line, for every value,
    key and indent (deeper than the line is wide too)."""
    prefix = literal_text(key) + ": "
    made = wrapping._first_line(value, indent, prefix, ",", {})
    assert made == wrapping.laid_out(value, indent, prefix, ",")[0]


#: Values nested ``depth`` deep: a dict by a short key (a listed tree of a recursive
#: schema), by a key too long for a line, and a dict and a list in turn.
NESTED = {
    "short keys": lambda inner: {"child": inner},
    "long keys": lambda inner: {"a key far too long for one line " * 3: inner},
    "dicts and lists": lambda inner: {"items": [inner, 1]},
}

#: More calls of ``laid_out`` than any depth below needs: past it, the count stops (the
#: layout was exponential in the depth, seconds past 30 levels, hours past 40).
_LAYOUT_CALLS_CAP = 100_000


def _layout_calls(nest: Any, depth: int, monkeypatch: pytest.MonkeyPatch) -> int:
    """How many times ``laid_out`` runs to write a value nested ``depth`` deep as an entry."""
    value: object = {}
    for _ in range(depth):
        value = nest(value)
    calls = 0
    real = wrapping.laid_out

    def counted(*args: Any, **kwargs: Any) -> list[str]:
        nonlocal calls
        calls += 1
        if calls > _LAYOUT_CALLS_CAP:
            raise AssertionError(f"over {_LAYOUT_CALLS_CAP} layouts at depth {depth}")
        return real(*args, **kwargs)

    with monkeypatch.context() as patched:
        patched.setattr(wrapping, "laid_out", counted)
        written = wrapping.entry(value)
    assert _read_back(str(written)) == value
    return calls


@pytest.mark.parametrize("shape", list(NESTED))
def test_a_value_nested_deeper_than_a_line_is_wide_is_laid_out_once_per_part(
    shape: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twice the depth, twice the layouts: each part of the value is laid out once, however
    far past the line width its indent goes (a pair laid out again for each shape of its
    key doubled the work at every level)."""
    counts = [_layout_calls(NESTED[shape], depth, monkeypatch) for depth in (20, 40, 80)]
    assert counts[2] - counts[1] <= 2.2 * (counts[1] - counts[0]), counts
    assert counts[2] <= 3 * 80 + 3, counts  # at most a layout per dict, list and item


@settings(max_examples=300, deadline=None)
@given(items=st.lists(values, min_size=1, max_size=3).map(tuple))
def test_a_row_written_from_its_items_texts_is_the_entry(items: tuple[object, ...]) -> None:
    """tests_model writes a case row with ``tuple_entry``, handing it the items' one-line
    texts: the row is the one ``entry`` writes, on one line or split, with items cut too."""
    texts = [wrapping.one_line(item) for item in items]
    made = wrapping.tuple_entry(items, texts)
    assert type(made) is Code
    assert made == wrapping.entry(items)


def test_a_case_row_writes_each_scalar_as_its_own_literal() -> None:
    """tests_model makes a changed scalar's literal once per contract, keyed by type and value:
    1, 1.0 and True (equal in Python), and 0.0 and -0.0, still each get their own."""
    from toolshape.codegen import cases, tests_model

    base: dict[str, object] = {"a": []}
    scalars = [1, True, 1.0, 0.0, -0.0, 0, False, "1", None, 1, 1.0, True, -0.0]
    derived = [
        cases.Case(f"case {i}", {"a": value}, frozenset()) for i, value in enumerate(scalars)
    ]
    rows = tests_model._case_rows(base, derived)
    for row, value in zip(rows, scalars, strict=True):
        assert f'{{"/a": {literal_text(value)}}}' in str(row.row)
        assert _same(_read_back(str(row.row))[1]["/a"], value)
