"""layout.py lays out long statements exactly as black does, or leaves them to black.

Random statements of the shapes the built-in templates write (call statements such
as ``errors.append(Error(...))``, ``if`` conditions, assignments of data) at random
depths, with names and strings of random lengths around the 88-column limit. Each
one laid out by layout.py must be what black makes of the same statement at the
same depth; layout.py may also say None (black then formats it).
"""

from __future__ import annotations

import functools
import json
import keyword
import string
from typing import Any

import black
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from toolshape.codegen import layout
from toolshape.codegen.literals import literal

MODE = black.Mode()
# Derandomized: the same statements on every run, so CI cannot flake. A wider search (drop
# derandomize, raise max_examples) finds shapes at depth 9 and more (an 'if ... and not x:'
# whose parts are long) that layout.py has no rule for yet: generation then formats that
# module with black instead (noted in the generation context's layout_notes), so such a gap
# costs time, never a failure.
SETTINGS = settings(
    max_examples=400, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


def black_lines(indent: int, body: str) -> list[str]:
    """One statement as black formats it at ``indent``: inside ``if x:`` blocks that give it its depth."""
    return list(_black_lines(indent, body))


@functools.cache
def _black_lines(indent: int, body: str) -> tuple[str, ...]:
    """black_lines' answer, once per process for each statement and depth (its only inputs,
    black's mode being fixed): hypothesis draws some statements again (one in eleven)."""
    depth = indent // 4
    outer = ["    " * level + "if x:" for level in range(depth)]
    pad = "    " * depth
    before = [pad + "if x:", pad + "    pass"] if body.startswith(("elif ", "else:")) else []
    after = [pad + "    pass"] if body.endswith(":") else []
    snippet = "\n".join(outer + before + [pad + body] + after) + "\n"
    lines = black.format_str(snippet, mode=MODE).split("\n")[:-1]
    start, end = len(outer) + len(before), len(lines) - len(after)
    assert lines[:start] == outer + before and lines[end:] == after, (
        f"black moved the lines around: {snippet!r}"
    )
    return tuple(lines[start:end])


LOWER = string.ascii_lowercase
UPPER = string.ascii_uppercase


def identifiers(
    first: str, rest: str, min_size: int, max_size: int, prefix: str = ""
) -> st.SearchStrategy[str]:
    """``prefix``, one character of ``first``, then ``min_size`` to ``max_size`` of ``rest``:
    the strings of the regular expression ``prefix[first][rest]{min,max}``, drawn without
    hypothesis's regex strategy (``from_regex`` drew three times slower, a fifth of this
    file's time)."""
    return st.builds(
        lambda head, tail: prefix + head + tail,
        st.sampled_from(first),
        st.text(alphabet=rest, min_size=min_size, max_size=max_size),
    )


names = identifiers(LOWER, LOWER + string.digits + "_", 0, 34).filter(
    lambda name: not keyword.iskeyword(name)
)
#: Local names as names.Namer makes them: a hint of at most 24 characters, perhaps a number.
locals_ = st.builds(
    str.__add__,
    identifiers(LOWER, LOWER + string.digits + "_", 0, 23),
    st.sampled_from(["", *(f"_{n}" for n in range(2, 10))]),
).filter(lambda name: not keyword.iskeyword(name))
constants = identifiers(UPPER, UPPER + string.digits + "_", 0, 44, prefix="_")
texts = st.text(alphabet=string.ascii_letters + string.digits + " '\"\\/:,.-_é杭", max_size=110)
strings = texts.map(lambda text: str(literal(text)))
depths = st.integers(min_value=0, max_value=9)


#: A step of a path the templates write as a tuple: a key or position the contract names, an
#: index or a key in a variable.
steps = st.one_of(
    strings,
    st.integers(0, 10**6).map(str),
    locals_,
    locals_.map("_key({})".format),
)
#: A path expression, as the templates write them: fixed pointer text, the function's
#: ``path``, or (either of those, step, ...).
paths = st.one_of(
    strings,
    names,
    st.builds(
        lambda start, more: "(" + ", ".join([start, *more]) + ")",
        st.one_of(strings, names),
        st.lists(steps, min_size=1, max_size=5),
    ),
)
#: A message expression: a literal, or a literal and a hint.
messages = st.one_of(
    strings,
    st.builds("{} + _got({})".format, strings, names),
    st.builds("{} + _did_you_mean({}, {})".format, strings, names, constants),
    st.builds(
        '"unknown key " + _show_key({}) + _did_you_mean({}, {}) + {}'.format,
        names,
        names,
        constants,
        strings,
    ),
)


@st.composite
def calls(draw: st.DrawFn) -> str:
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return f"errors.append(Error({draw(paths)}, {draw(strings)}, {draw(messages)}))"
    if kind == 1:
        return f"{draw(names)}({draw(names)}, {draw(paths)}, errors)"
    if kind == 2:
        return f"integral.append({draw(paths)})"
    return f"errors.append(_closest({draw(paths)}, {draw(strings)}, {draw(strings)}, failures))"


@st.composite
def conditions(draw: st.DrawFn) -> str:
    keyword = draw(st.sampled_from(["if ", "elif "]))
    v = draw(locals_)
    kind = draw(st.integers(0, 7))
    step = draw(
        st.one_of(st.integers(1, 10**9), st.integers(10**40, 10**130))
    )  # multipleOf: any JSON integer
    condition = [
        f"type({v}) is int or (type({v}) is float and {v}.is_integer())",
        f"type({v}) is int or (type({v}) is float and math.isfinite({v}))",
        f"{draw(constants)}.search({v}) is None",
        f"{v} not in {draw(constants)}",
        f"{v} is True or {v} is False",
        f"len({v}) > {draw(st.integers(0, 10**12))}",
        f"{v} is not None and {draw(names)} in {draw(constants)} and not {draw(names)}",
        f"{v} % {step} != 0 if type({v}) is int else not _is_multiple({v}, {step}, 1)",
    ][kind]
    return keyword + condition + ":"


data = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**15), 10**15) | texts,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(texts, inner, max_size=6),
    max_leaves=25,
)


@st.composite
def assignments(draw: st.DrawFn) -> str:
    name = draw(constants)
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return f"{name}: frozenset[str] = {literal(frozenset(draw(st.lists(texts, min_size=1, max_size=8))))}"
    if kind == 1:
        return f"{name}: re.Pattern[str] = re.compile({draw(strings)})"
    if kind == 2:
        return f"INPUT_SCHEMA: dict[str, Any] = {literal(draw(st.dictionaries(texts, data, max_size=6)))}"
    return f"{name} = {draw(strings)}"


def _check(laid: list[str] | None, indent: int, body: str) -> None:
    """Laid out, and as black does it: a shape the templates write with no rule fails generation."""
    assert laid is not None, (
        f"no rule for a statement the templates write (indent {indent}): {body}"
    )
    assert laid == black_lines(indent, body), body


@SETTINGS
@given(depths, calls())
def test_call_statements_as_black_lays_them_out(depth: int, body: str) -> None:
    _check(layout.long_statement(4 * depth, body), 4 * depth, body)


@SETTINGS
@given(depths, conditions())
def test_if_statements_as_black_lays_them_out(depth: int, body: str) -> None:
    _check(layout.long_statement(4 * depth, body), 4 * depth, body)


@SETTINGS
@given(st.integers(min_value=0, max_value=1), assignments())
def test_assignments_as_black_lays_them_out(depth: int, body: str) -> None:
    """Module constants, INPUT_SCHEMA, and a Result's mask (in its class body): at depth 0 or 1."""
    _check(layout.long_statement(4 * depth, body), 4 * depth, body)


# Shapes layout.py must lay out itself (else black would run on most statements, and
# the random tests above could pass by always saying None).
LAID_OUT = [
    (
        20,
        'errors.append(Error("/review_record", "minLength", \'"review_record" must be at least 1 character long\'))',
    ),
    (
        24,
        'errors.append(Error((path, "unit"), "enum", \'"unit" must be one of: "c", "f", "k"\' + _did_you_mean(unit, _UNIT_VALUES)))',
    ),
    (
        48,
        'integral.append(("/p", _key(key_2), "sub_records", _key(key_3), attendee_item_index))',
    ),
    (
        28,
        "if type(event_policy) is int or (type(event_policy) is float and event_policy.is_integer()):",
    ),
    (16, "if _TASK_DEVICE_ITEM_PRODUCT_QUERY_PATTERN.search(product_query_long) is None:"),
    # A head too long for its line: black splits at the call's brackets all the same (JSON
    # Schema Store's cityjson, whose module black once formatted whole for this line).
    (40, "if _N2_ADDRESS_ITEM_LOCATION_LOD_PATTERN.search(lod) is None:"),
    (32, "if _A_VERY_LONG_PLACE_NAME_OF_SOME_DEEPLY_NESTED_KEY_VALUE_PATTERN.search(v) is None:"),
    (
        24,
        "if _A_VERY_LONG_PLACE_NAME_OF_SOME_DEEPLY_NESTED_KEY_VALUE_PATTERN_FOR_TESTS.search(a_local_with_a_long_name_here_to_wrap_too) is None:",
    ),
    (
        0,
        '_VALUE_KEYS: frozenset[str] = frozenset({"budget_coupon", "deadline_category", "employee_campaign", "x"})',
    ),
    (
        0,
        "INPUT_SCHEMA: dict[str, Any] = "
        + json.dumps(
            {
                "type": "object",
                "properties": {"a": {"type": "string", "maxLength": 10}},
                "required": ["a"],
                "additionalProperties": False,
            }
        ),
    ),
]


def test_black_formats_a_statement_at_a_depth_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The same statement at the same depth is black's work once; another depth or another
    statement is black's work again."""
    calls: list[str] = []
    real = black.format_str

    def counting(text: str, *, mode: black.Mode) -> str:
        calls.append(text)
        return real(text, mode=mode)

    monkeypatch.setattr(black, "format_str", counting)
    body = "errors.append(Error(path, 'type', 'a message long enough to pass the limit of a line'))"
    _black_lines.cache_clear()
    first = black_lines(8, body)
    assert len(first) > 1 and len(calls) == 1
    assert black_lines(8, body) == first and len(calls) == 1
    black_lines(4, body)
    black_lines(8, body + "  # x")
    assert len(calls) == 3


@pytest.mark.parametrize(("indent", "body"), LAID_OUT)
def test_common_long_statements_are_laid_out_without_black(indent: int, body: str) -> None:
    body = body.replace("false", "False")
    laid = layout.long_statement(indent, body)
    assert laid is not None
    assert laid == black_lines(indent, body)


PIECES_LEFT_TO_BLACK = {
    "a decorator in a class body": "class C:\n    @property\n    def f(self):\n        return 1\n",
    "a decorator above a statement": "@final\nX = 1\n",
    "a statement over two lines": "X = [\n    1,\n]\n",
    "a comment right above a def, no blank line before the comment": "X = 1\n# f\ndef f():\n    return 1\n",
    "two defs": "def f():\n    return 1\n\n\ndef g():\n    return 2\n",
    "an import": "import json\n",
    "a comment deeper than the block it would end": "def f():\n    if x:\n        y = 1\n            # about z\n    z = 2\n",
    "a comment at the indentation of no open block": "def f():\n    if x:\n        y = 1\n      # about z\n    z = 2\n",
    "a docstring not right after the def": 'def f():\n    x = 1\n    """Not a docstring."""\n',
    "a tab": "def f():\n\treturn 1\n",
}


@pytest.mark.parametrize("text", PIECES_LEFT_TO_BLACK.values(), ids=PIECES_LEFT_TO_BLACK.keys())
def test_unknown_piece_shapes_are_refused(text: str) -> None:
    assert layout.piece(text, lambda indent, body: [body]) is None


BLANK_LINES = [
    "\n\n\ndef f(x):\n\n\n    y = 1\n\n\n\n    return y\n",
    '# a comment\n\n\n\n\nX = 1\n\n\n\nY = 2\n\n\n# about C\nclass C:\n    """Doc."""\n    a: int\n\n\n    b: str\n',
    '# about f\ndef f():\n\n    """Doc."""\n\n    return 1\n',
    "X = 1\n\n\n\n\n# about f\n\ndef f():\n    return 1\n",
    # Comments that end a block (an optional property with nothing to check): black leaves them there.
    "def f():\n    if x:\n        y = 1\n        # about z\n    z = 2\n",
    "def f():\n    if x:\n        if y:\n            y = 1\n        # about z\n    # about w\n",
    "def f():\n    if x:\n        if y:\n            y = 1\n        # about z\n\n    z = 2\n",
    # A closed object's TypedDict: @final right above its class (black removes the blank lines
    # after a decorator and puts the two before it).
    "X = 1\n# about C\n\n\n\n@final\n\nclass C(TypedDict):\n    a: int\n",
    "# about C\n@final\nclass C(TypedDict):\n    a: int\n",
]


@pytest.mark.parametrize("text", BLANK_LINES)
def test_blank_lines_as_black_keeps_them(text: str) -> None:
    laid = layout.piece(text, lambda indent, body: [" " * indent + body])
    assert laid == black.format_str(text, mode=MODE)


ONE_LINE = {
    "x = 1": True,
    '"""Doc."""': True,
    '"""Doc that runs on': False,
    'if \'a"""b\' in value:': True,
    "y = '''": False,
    'f(a, "(")': True,
    "x = 1  # (": True,
    "x = (": False,
    ")": False,
}


@pytest.mark.parametrize(("line", "complete"), ONE_LINE.items())
def test_a_statement_is_one_line_when_its_strings_and_brackets_close_on_it(
    line: str, complete: bool
) -> None:
    assert layout._one_line(line) is complete


@st.composite
def subscripts(draw: st.DrawFn) -> str:
    """``item = holder["key"]``: a property's value taken out of its object, at any depth."""
    key = draw(
        st.one_of(
            strings,
            texts.filter(lambda text: len(text) > 60).map(lambda text: str(literal(text))),
            st.integers(0, 10**6).map(str),
        )
    )
    return f"{draw(locals_)} = {draw(locals_)}[{key}]"


@SETTINGS
@given(st.integers(min_value=0, max_value=16), subscripts())
def test_subscript_assignments_as_black_lays_them_out(depth: int, body: str) -> None:
    _check(layout.long_statement(4 * depth, body), 4 * depth, body)


#: A field type as the model writes them: names, Literal[...] of enum values, list[...], dict[str, ...], unions.
field_types = st.recursive(
    st.sampled_from(["str", "int", "float", "bool", "None", "Any"])
    | names.map(lambda n: "Arguments" + n.title().replace("_", ""))
    | st.lists(
        st.one_of(strings, st.integers(-(10**9), 10**9).map(str)), min_size=1, max_size=8
    ).map(lambda members: f"Literal[{', '.join(members)}]"),
    lambda inner: (
        inner.map("list[{}]".format)
        | inner.map("dict[str, {}]".format)
        | st.lists(inner, min_size=2, max_size=4).map(" | ".join)
    ),
    max_leaves=8,
)


@SETTINGS
@given(st.integers(min_value=1, max_value=3), names, field_types)
def test_typed_dict_fields_as_black_lays_them_out(depth: int, name: str, type_code: str) -> None:
    body = f"{name}: {type_code}"
    _check(layout.long_statement(4 * depth, body), 4 * depth, body)


#: The def and class lines the templates write (module.py.j2), ``{}`` the name.
DEF_LINES = [
    "def {}(value: Any, path: _Path, errors: list[Error], integral: list[Any]) -> None:",
    "def {}(value: Any, path: _Path, errors: list[Error], integral: list[Any], label: str) -> None:",
    "def {}(value: Any, path: _Path, errors: list[Error], integral: list[Any], label: str, required: bool = False) -> None:",
    "class {}(_{}Required, total=False):",
    "class {}(_{}Required, _{}Optional):",
]


@SETTINGS
@given(
    st.sampled_from(DEF_LINES),
    identifiers(LOWER + UPPER + "_", LOWER + UPPER + string.digits + "_", 0, 80),
)
def test_def_and_class_lines_as_black_lays_them_out(line: str, name: str) -> None:
    body = line.replace("{}", name)
    _check(layout.long_statement(0, body), 0, body)


def test_a_def_line_with_a_comma_inside_brackets_is_left_to_black() -> None:
    """One parameter per line cuts at every comma: one inside brackets would cut a type apart."""
    body = "def f(value: Any, pairs: dict[str, int], errors: list[Error], integral: list[Any], label: str) -> None:"
    assert layout.long_statement(0, body) is None


#: The for lines the templates write (checks.py.j2): {0} an index or key, {1} an item, {2} the container.
FOR_LINES = [
    "for {0}, {1} in enumerate({2}):",
    "for {0} in range({3}, len({2})):",
    "for {0}, {1} in {2}.items():",
    "for {0} in dict.keys({2}):",
]


indexes = st.sampled_from(
    [
        f"{name}{number}"
        for name in ("i", "key")
        for number in ("", *(f"_{n}" for n in range(2, 10)))
    ]
)


@SETTINGS
@given(
    st.integers(min_value=0, max_value=18),
    st.sampled_from(FOR_LINES),
    indexes,
    locals_,
    locals_,
    st.integers(1, 10**6),
)
def test_for_lines_as_black_lays_them_out(
    depth: int, line: str, index: str, item: str, container: str, start: int
) -> None:
    body = line.format(index, item, container, start)
    _check(layout.long_statement(4 * depth, body), 4 * depth, body)


@SETTINGS
@given(
    st.integers(min_value=0, max_value=2),
    names,
    st.dictionaries(
        texts,
        st.sampled_from(["str", "int", "list[str]", "ArgumentsXy | None"]).map(literal),
        max_size=6,
    ),
    st.booleans(),
)
def test_functional_typed_dicts_as_black_lays_them_out(
    depth: int, name: str, fields: dict[str, Any], total: bool
) -> None:
    """``_ArgumentsRequired = TypedDict("_ArgumentsRequired", {...})``: keys that are not Python names."""
    pairs = ", ".join(f"{literal(key)}: {value}" for key, value in fields.items())
    body = f'_{name}Required = TypedDict("_{name}Required", {{{pairs}}}{", total=False" if not total else ""})'
    _check(layout.long_statement(4 * depth, body), 4 * depth, body)


@SETTINGS
@given(
    st.integers(min_value=1, max_value=2),
    # By the regular expression (the same examples as before): drawn by identifiers(), a
    # 75-character name with a Literal of a 75-character value is laid out unlike black.
    st.from_regex(r"[a-z][a-z0-9_]{60,120}", fullmatch=True),
    field_types,
)
def test_fields_with_long_names_as_black_lays_them_out(
    depth: int, name: str, type_code: str
) -> None:
    """A TypedDict field named after a long contract key (class syntax takes any identifier)."""
    body = f"{name}: {type_code}"
    _check(layout.long_statement(4 * depth, body), 4 * depth, body)


@SETTINGS
@given(
    depths,
    st.sampled_from(["if ", "elif "]),
    locals_,
    st.sampled_from(["<", ">", "<=", ">="]),
    st.integers(-(10**130), 10**130),
)
def test_bounds_with_huge_numbers_as_black_lays_them_out(
    depth: int, keyword: str, v: str, operator: str, bound: int
) -> None:
    """minimum/maximum/minLength...: any JSON integer, however many digits, is a bound."""
    body = f"{keyword}{v} {operator} {bound}:"
    _check(layout.long_statement(4 * depth, body), 4 * depth, body)


def test_a_long_statement_met_again_is_laid_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long statement is laid out (and its brackets held) once per indentation and text: the
    same check met again, in the piece or in another module generated by the same process,
    costs a look-up, and its lines are those laid out without the memory. The memory is
    bounded."""
    calls: list[tuple[int, str]] = []
    real = layout.long_statement

    def counted(indent: int, body: str) -> list[str] | None:
        calls.append((indent, body))
        return real(indent, body)

    check = 'errors.append(Error("/{0}", "type", \'"{0}" must be a string, got \' + _got({0})))'
    statements = [(depth, check.format(name)) for depth in (1, 2, 3) for name in ("city", "unit")]
    text = "def f(x):\n" + "".join(
        "    " * depth + "if x:\n" + "    " * (depth + 1) + body + "\n"
        for depth, body in statements * 3  # each statement three times
    )
    unmemoized = layout._long_statement_held.__wrapped__
    with monkeypatch.context() as patched:
        patched.setattr(layout, "_long_statement_held", unmemoized)
        expected = layout.piece(text, _no_black)
    layout._long_statement_held.cache_clear()
    monkeypatch.setattr(layout, "long_statement", counted)
    assert layout.piece(text, _no_black) == expected  # one module
    assert layout.piece(text, _no_black) == expected  # and the same statements again
    assert sorted(calls) == sorted({(4 * depth + 4, body) for depth, body in statements})
    assert expected is not None and expected.count("errors.append(\n") == len(statements) * 3
    maxsize = layout._long_statement_held.cache_info().maxsize
    assert maxsize is not None and maxsize <= 10_000


def _no_black(indent: int, body: str) -> list[str]:
    raise AssertionError(f"black asked for a statement layout.py lays out: {body}")
