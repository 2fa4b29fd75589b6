"""black's layout for the code toolshape's built-in templates write, mostly without running black.

black spent about a third of a second on each generated module's own code (the
runtime's pieces are remembered, see ``formatting.py``), almost all of it on code
that was formatted already: the built-in templates write every statement of a
contract's checks on one line in black's style (double quotes from ``literals.py``,
black's spacing, one blank line at most inside a function). What black still
changes is:

* blank lines at the start of a piece and runs longer than black allows;
* lines wider than 88 columns. This module splits the ones the templates write as
  black does: a call statement such as ``errors.append(Error(path, code, message))``
  at its last bracket pair (black's "right hand split"), the arguments on
  one line if they fit, else one per line with a trailing comma, a ``+`` chain broken
  before each ``+``; an ``if`` condition inside parentheses, or split at its last
  bracket pair; an assignment of a data display or of a one-argument call. Any other
  long statement goes to black on its own, inside as many ``if x:`` blocks as its
  indentation needs, and black's answer is kept.

``piece()`` takes one piece as ``formatting.split`` cuts it and returns None for any
shape it does not know (an import, a decorator but one right above the def or class, a
second def, a docstring not right after its def or class, a statement over several lines,
...): black then formats the piece as before. It is used only for the built-in templates (``render.py``);
``tests/test_formatting.py`` checks its output against whole-file black on every
example contract and synthetic ones, ``tests/test_layout.py`` on random statements.

Each long statement's split brackets then get a magic trailing comma where one keeps the
code's meaning (``held``, at the end of this module): black keeps them, and ruff's
formatter at 100 columns no longer joins what black split at 88.
"""

from __future__ import annotations

import ast
import functools
import keyword
import re
from collections.abc import Callable

from .widths import width

#: black's default line length.
LINE_LENGTH = 88

_BRACKETS = re.compile(r"[()\[\]{}]")
#: A one-line string literal, repr-style. Its characters are read a run at a time between
#: escapes: the same strings as ``"(?:[^"\\\n]|\\.)*"`` (each string's end is its first
#: quote not escaped, either way), matched in about half the time, which counts as every
#: line of a module is read with it (measured: lay_out 15.7 -> 14.2 ms per contract over the
#: 40-contract set).
_STRINGS = re.compile(r""""[^"\\\n]*(?:\\.[^"\\\n]*)*"|'[^'\\\n]*(?:\\.[^'\\\n]*)*'""")
#: What the bracket count must skip: a string, or a comment.
_SKIPPED = re.compile(_STRINGS.pattern + "|#[^\n]*")
#: A docstring the templates write: one line, no quote or backslash inside, no space at either end
#: (black strips those); black leaves it as it is, however long.
_DOCSTRING = re.compile(r'"""[^"\\\s](?:[^"\\]*[^"\\\s])?"""')
#: Statements at column 0 a piece may hold besides comments and simple statements.
_OTHER_TOP_LEVEL = (
    "@",
    "import ",
    "from ",
    "async ",
    "if ",
    "for ",
    "while ",
    "try:",
    "with ",
    '"',
    "'",
)


def head(text: str) -> str | None:
    """The first piece of a generated file as black formats it, or None where its shape is not one this module knows.

    The shape: comments at column 0, a module docstring (one line or several), then
    one-line imports; a ``from`` import too wide for its line is split one name per
    line, with a trailing comma (black always explodes an import)."""
    lines = text.split("\n")
    out: list[str] = []
    blank = 0
    index = 0
    docstring = False  # the last thing written was the module docstring
    while index < len(lines):
        raw = lines[index]
        if not raw.strip():
            blank, index = blank + 1, index + 1
            continue
        if raw[0] in " \t" or raw != raw.rstrip() or raw.endswith("\\"):
            return None
        if raw.startswith("#"):
            laid: list[str] | None = [raw]
        elif raw.startswith('"""') and all(
            line.startswith("#") for line in out if line
        ):  # only comments above
            laid = _docstring(lines, index)
        elif raw.startswith(("import ", "from ")) and _one_line(raw):
            laid = _import(raw)
        else:
            laid = None
        if laid is None:
            return None
        # black puts exactly one blank line after a module docstring.
        before = 0 if not out else 1 if docstring else min(blank, 2)
        out.extend([""] * before + laid)
        docstring = raw.startswith('"""')
        blank = 0
        index += len(laid) if raw.startswith('"""') else 1
    return "\n".join(out) + "\n" if out else None


def _docstring(lines: list[str], start: int) -> list[str] | None:
    """The lines of the module docstring that opens at ``lines[start]``, if black leaves it as it is:
    no backslash or tab, no trailing space, its closing quotes at the end of its last line."""
    end = start
    if not (
        lines[start].count('"""') == 2 and lines[start].endswith('"""') and len(lines[start]) > 6
    ):
        end = start + 1
        while end < len(lines) and '"""' not in lines[end]:
            end += 1
        if end >= len(lines) or lines[end].count('"""') != 1 or not lines[end].endswith('"""'):
            return None
    found = lines[start : end + 1]
    if any("\\" in line or "\t" in line or line != line.rstrip() for line in found):
        return None
    if len(found) > 1 and lines[start].count('"""') != 1:
        return None
    return found


def _import(line: str) -> list[str] | None:
    """An import line as black lays it out: as it is if it fits, else ``from x import (`` one name per line ``)``."""
    if width(line) <= LINE_LENGTH:
        return [line]
    try:
        node = ast.parse(line).body[0]
    except SyntaxError:
        return None
    if (
        not isinstance(node, ast.ImportFrom)
        or "(" in line
        or width(line[: line.index(" import ") + 9]) > LINE_LENGTH
    ):
        return None
    names = [alias.name + (f" as {alias.asname}" if alias.asname else "") for alias in node.names]
    return [line[: line.index(" import ") + 8] + "(", *[f"    {name}," for name in names], ")"]


def piece(text: str, statement: Callable[[int, str], list[str]]) -> str | None:
    """``text`` as black formats it on its own, or None where its shape is not one this module knows.

    A piece this module knows: comments and one-line statements at column 0, then at
    most one ``def`` or ``class`` (it comes last) with a body of one-line statements,
    comments, and a one-line docstring right after the ``def`` or ``class`` line.
    ``statement(indent, line)`` formats one statement with black (see formatting.py)."""
    out: list[str] = []
    blank = 0
    block = ""  # "def " or "class " once the piece's def or class has begun
    previous = ""  # the last line written, stripped
    pending_comment = -1  # indentation of a comment still waiting for its statement
    code_indent = 0  # indentation of the last line that is not a comment
    comments_before = 0  # blank lines black keeps before the current run of comments
    docstring_after = False  # the line after a class docstring gets one blank line
    for raw in text.split("\n"):
        body = raw.lstrip(" ")
        if not body.strip():
            blank += 1
            continue
        if body[0] == "\t" or raw.endswith((" ", "\\")) or not _one_line(body):
            return None
        indent = len(raw) - len(body)
        if indent % 4:
            return None
        if (
            pending_comment >= 0
            and indent != pending_comment
            and not _stays(pending_comment, indent, code_indent)
        ):
            return None  # black would move a comment to the indentation of what follows it
        if indent == 0:
            if block or (body.startswith(_OTHER_TOP_LEVEL) and not body.startswith("@")):
                return None  # one def or class per piece, and it comes last
            if previous.startswith("@") and not body.startswith(("def ", "class ", "@")):
                return None  # a decorator (``@final``) stands right above its def or class
            if body.startswith(("def ", "class ")):
                block = "def " if body.startswith("def ") else "class "
            before = _blank_before_top_level(body, bool(out), previous, blank, comments_before)
        else:
            before = _blank_before_in_block(body, block, previous, blank, docstring_after)
        if before is None:
            return None
        comment = body[0] == "#"  # (asked four times a line, of every line of a module)
        if comment and (blank or not previous.startswith("#")):  # a run of comments begins
            comments_before = before if out else 2  # (at the top of the file, black adds none)
        docstring_after = block == "class " and body.startswith('"""')
        blank = 0
        pending_comment = indent if comment else -1
        code_indent = code_indent if comment else indent
        if before:
            out.extend([""] * before)
        if comment or body.startswith('"""') or width(raw) <= LINE_LENGTH:
            out.append(raw)
        else:
            out.extend(
                _long_statement_held(indent, body) or _held_if_split(statement(indent, body))
            )
        previous = body
    if not out or (pending_comment >= 0 and not _stays(pending_comment, 0, code_indent)):
        return None
    return "\n".join(out) + "\n"


@functools.lru_cache(maxsize=4096)
def _long_statement_held(indent: int, body: str) -> tuple[str, ...] | None:
    """``long_statement``'s lines, held (``held``); None where black must lay it out.

    Both are functions of the indentation and the text alone, so a statement met again (the
    same check at the same depth in another module, the same contract generated again in
    one process) costs a look-up, and its lines are the same bytes. The bound keeps the
    memory of a long run small: a few thousand statements of a few hundred bytes."""
    laid = long_statement(indent, body)
    return None if laid is None else tuple(_held_if_split(laid))


def _held_if_split(laid: list[str]) -> list[str]:
    """The lines of one statement, held (``held``) where it is split over lines."""
    return held(laid) if len(laid) > 1 else laid


def _blank_before_top_level(
    body: str, written: bool, previous: str, blank: int, comments_before: int
) -> int | None:
    """The blank lines black puts before a line at column 0 (``written``: lines came before
    it), or None where black would move a comment (see :func:`piece`). A decorator counts
    as the start of its def or class, which black puts right below it."""
    if previous.startswith("@"):
        return 0
    if not body.startswith(("def ", "class ", "@")):
        return min(blank, 2) if written else 0
    if not written:
        return 0
    if previous.startswith("#") and not blank:
        # A comment right above: black leaves it there only when the run of
        # comments has its two blank lines before it already.
        return 0 if comments_before >= 2 else None
    return 2


def _blank_before_in_block(
    body: str, block: str, previous: str, blank: int, docstring_after: bool
) -> int | None:
    """The blank lines black puts before a line in the piece's def or class (``block``), or
    None where the line is not one :func:`piece` knows there."""
    if not block or body.startswith(("def ", "class ", "@", "async ")):
        return None
    if body.startswith('"""'):
        if not (
            _DOCSTRING.fullmatch(body) and previous.startswith(block) and previous.endswith(":")
        ):
            return None
        return 0  # black removes blank lines between a def or class and its docstring
    if docstring_after:
        return 1  # and puts one after a class docstring
    return min(blank, 1)


def _stays(comment: int, following: int, code: int) -> bool:
    """Whether black leaves a comment at ``comment`` columns where the next line dedents to ``following``.

    It does when the comment is at the indentation of a block that the dedent closes (one
    between the next line and the last code line): it closes that block, as a trailing
    comment (blib2to3 hands a comment to the block its column belongs to)."""
    return following < comment <= code


def _has_comment(body: str) -> bool:
    """Whether a line ends with a comment (a ``#`` outside its strings): ast would not see it."""
    return "#" in body and "#" in _STRINGS.sub("", body)


def _one_line(body: str) -> bool:
    """Whether the statement on the line ends on it: every string closes on it (no
    triple-quoted string runs on) and every bracket, outside strings and comments."""
    code = _SKIPPED.sub("", body) if "'" in body or '"' in body or "#" in body else body
    if "'" in code or '"' in code:
        return False  # a string that does not close on this line
    # (No test for a line without brackets first: findall finds none sooner than six ``in``
    # tests in a generator do; measured: 1.06 -> 0.72 ms per contract over the 40-contract set.)
    depth = 0
    for bracket in _BRACKETS.findall(code):
        depth += 1 if bracket in "([{" else -1
        if depth < 0:
            return False
    return depth == 0


def long_statement(indent: int, body: str) -> list[str] | None:
    """A statement too wide for one line, laid out as black would; None: black must do it.

    Three shapes: an ``if``/``elif`` line (``if_statement``), a call statement, and an
    assignment of a data display (``INPUT_SCHEMA``) or of a call with one argument
    (``frozenset({...})``, ``re.compile("...")``): black drops the invisible parentheses
    around such a value (nothing in it to split at but its brackets) and splits at its
    last bracket pair, ``= {`` or ``= frozenset(`` ending the first line."""
    if body.startswith(("if ", "elif ")):
        return if_statement(indent, body)
    if body.startswith(("def ", "class ")):
        return def_line(indent, body)
    if body.startswith("for "):
        return for_line(indent, body)
    parsed = _parse(indent, body)
    if parsed is None or isinstance(parsed, list):
        return parsed
    return (
        _call_statement(indent, body, parsed)
        or _assignment(indent, body, parsed)
        or _field(indent, body, parsed)
    )


def _field(indent: int, body: str, statement: ast.stmt) -> list[str] | None:
    """A TypedDict field, ``name: type`` with no value: split in its type, as black does."""
    if not (
        isinstance(statement, ast.AnnAssign)
        and statement.value is None
        and isinstance(statement.target, ast.Name)
    ):
        return None
    layout = _Layout(body.encode())
    prefix = body[: len(body.encode()[: statement.annotation.col_offset].decode())]  # "name: "
    annotation = statement.annotation
    pad = " " * indent
    if width(pad + body) <= LINE_LENGTH:
        return [pad + body]
    if _is_union(annotation):
        # black wraps a union in parentheses, then breaks it before each | if it must.
        inner = layout.union(annotation, indent + 4)
        return None if inner is None else [pad + prefix + "(", *inner, pad + ")"]
    wrapped = " " * (indent + 4) + layout.text(annotation)
    if _is_atom(annotation) or isinstance(annotation, ast.Attribute):
        # Nothing to split inside: parentheses if the type then fits, whatever the first line.
        return (
            [pad + prefix + "(", wrapped, pad + ")"]
            if width(wrapped) <= LINE_LENGTH
            else [pad + body]
        )
    if not (isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name)):
        return None
    # At the type's last bracket pair if `name: X[` fits; else in parentheses if `name: (` fits;
    # else at the bracket pair all the same, the first line too long.
    if (
        width(pad + prefix + layout.text(annotation.value) + "[") > LINE_LENGTH
        and width(pad + prefix + "(") <= LINE_LENGTH
    ):
        inner = layout.type_lines(annotation, indent + 4, "", "")
        return None if inner is None else [pad + prefix + "(", *inner, pad + ")"]
    return layout.type_lines(annotation, indent, prefix, "", long_head=True)


def _parse(indent: int, body: str) -> ast.stmt | list[str] | None:
    """The one statement on the line; the line itself if it fits; None if it is not one simple statement."""
    if width(" " * indent + body) <= LINE_LENGTH:
        return [" " * indent + body]
    if body.endswith(":") or _has_comment(body):
        return None
    try:
        tree = ast.parse(body)
    except SyntaxError:
        return None
    return tree.body[0] if len(tree.body) == 1 else None


def _call_statement(indent: int, body: str, statement: ast.stmt) -> list[str] | None:
    if not isinstance(statement, ast.Expr) or not isinstance(statement.value, ast.Call):
        return None
    return _Layout(body.encode()).call(statement.value, indent, "", "")


def _assignment(indent: int, body: str, statement: ast.stmt) -> list[str] | None:
    if (
        isinstance(statement, ast.AnnAssign) and statement.simple and statement.value is not None
    ) or (
        isinstance(statement, ast.Assign)
        and len(statement.targets) == 1
        and _plain_target(statement.targets[0])
    ):
        value = statement.value
    else:
        return None
    assert value is not None  # an annotation without a value was returned above
    layout = _Layout(body.encode())
    target = body[: len(body.encode()[: value.col_offset].decode())]  # "name: annotation = "
    if not target.endswith(" = "):
        return None
    if isinstance(value, (ast.Dict, ast.Set, ast.List, ast.Tuple)):
        return layout.display(value, indent, target, "")  # (a tuple only in its own parentheses)
    if _is_atom(value):
        # Nothing to split at: black wraps the value in parentheses if it then fits, else leaves the line long.
        wrapped = " " * (indent + 4) + layout.text(value)
        if width(wrapped) <= LINE_LENGTH:
            return [" " * indent + target + "(", wrapped, " " * indent + ")"]
        return [" " * indent + body]
    if (
        isinstance(value, ast.Subscript)
        and isinstance(value.value, ast.Name)
        and isinstance(value.slice, ast.Constant)
    ):
        return _subscript(indent, target, layout.text(value.value), layout.text(value.slice))
    if isinstance(value, ast.Call) and len(value.args) > 1:
        return layout.call(
            value, indent, target, ""
        )  # matched, failures = _one_of(value, path, (...))
    negated = _negated_call(value)
    if negated is not None:  # passed = not _errors_of(check, value, path)
        before = layout.text(value)[: negated.col_offset - value.col_offset]
        return layout.call(negated, indent, target + before, "")
    if (
        isinstance(value, ast.Call)
        and len(value.args) == 1
        and not value.keywords
        and _plain_callee(value.func)
    ):
        argument = value.args[0]
        if not (isinstance(argument, (ast.Dict, ast.Set, ast.List)) or _is_text(argument)):
            return None
        head = " " * indent + target + layout.text(value.func) + "("
        if width(head) > LINE_LENGTH:
            return None
        inner = (
            layout.display(argument, indent + 4, "", "")
            if not _is_text(argument)
            else [" " * (indent + 4) + layout.text(argument)]
        )
        return None if inner is None else [head, *inner, " " * indent + ")"]
    return None


def _negated_call(node: ast.expr) -> ast.Call | None:
    """The call of ``not f(a, b)`` or ``name and not f(a, b)`` (an unevaluated* guard), the
    last bracket black splits at; None for any other expression."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And) and len(node.values) == 2:
        if not isinstance(node.values[0], ast.Name):
            return None
        node = node.values[1]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        call = node.operand
        if isinstance(call, ast.Call) and len(call.args) > 1:
            return call
    return None


def _subscript(indent: int, target: str, holder: str, key: str) -> list[str]:
    """``item = holder["key"]`` too wide (a property's value, deep in the checks), as black splits it.

    If ``item = holder[`` fits, at the brackets. Else black wraps the value in parentheses
    when that makes every line fit (splitting the value at its brackets inside them if it
    must), and otherwise splits at the brackets all the same, the first line too long."""
    pad, inner = " " * indent, " " * (indent + 4)
    at_brackets = [f"{pad}{target}{holder}[", inner + key, pad + "]"]  # (a key too long stays long)
    if width(at_brackets[0]) <= LINE_LENGTH:
        return at_brackets
    wrapped = [pad + target + "(", f"{inner}{holder}[{key}]", pad + ")"]
    if all(width(line) <= LINE_LENGTH for line in wrapped):
        return wrapped
    split = [pad + target + "(", f"{inner}{holder}[", f"{inner}    {key}", inner + "]", pad + ")"]
    if all(width(line) <= LINE_LENGTH for line in split):
        return split
    return at_brackets


def _is_union(node: ast.expr) -> bool:
    return isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr)


def _chain(node: ast.expr, operator: type[ast.operator]) -> list[ast.expr]:
    """The operands of a left-leaning chain of one operator (``a + b + c``), in order."""
    terms: list[ast.expr] = []
    while isinstance(node, ast.BinOp) and isinstance(node.op, operator):
        terms.insert(0, node.right)
        node = node.left
    terms.insert(0, node)
    return terms


def _plain_target(node: ast.expr) -> bool:
    """A name, or names separated by commas (``matched, failures``)."""
    return isinstance(node, ast.Name) or (
        isinstance(node, ast.Tuple) and all(isinstance(n, ast.Name) for n in node.elts)
    )


def _is_atom(node: ast.expr) -> bool:
    """A constant, a negative number or a name: nothing black could split inside."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node = node.operand
    return isinstance(node, (ast.Constant, ast.Name))


def _is_text(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def if_statement(indent: int, body: str) -> list[str] | None:
    """A too-long ``if``/``elif`` line, laid out as black would, in black's two shapes.

    Where black keeps the condition's invisible parentheses (``_kept_parentheses``):
    ``if (`` / the condition / ``):``. Where it drops them, for ``if A or (B and C):``
    (the type test for integers and numbers: one top-level ``or`` or ``and``, a last
    bracket pair after another bracket, ``type(``): it splits at that last pair, and
    breaks its inside before each ``and``/``or`` when it does not fit on one line."""
    if width(" " * indent + body) <= LINE_LENGTH:
        return [" " * indent + body]
    keyword = "if " if body.startswith("if ") else "elif " if body.startswith("elif ") else None
    if keyword is None or not body.endswith(":") or _has_comment(body):
        return None
    condition = body[len(keyword) : -1]
    try:
        node = ast.parse(condition, mode="eval").body
    except SyntaxError:
        return None
    layout = _Layout(condition.encode())
    if isinstance(node, ast.IfExp):
        return _conditional(node, layout, indent, keyword)
    kept = _kept_parentheses(node, condition, layout, indent, keyword)
    if kept is not None:
        return kept or None
    negated = isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)
    call = node.operand if isinstance(node, ast.UnaryOp) and negated else node
    if isinstance(call, ast.Call) and condition == ("not " if negated else "") + layout.text(call):
        # ``if f(...):`` or ``if not f(...):``: no delimiter at the top; black splits at the call's brackets.
        return layout.call(call, indent, keyword + ("not " if negated else ""), ":")
    if not isinstance(node, ast.BoolOp) or len(node.values) != 2:
        return None
    first, last = (layout.text(value) for value in node.values)
    if not condition.endswith("(" + last + ")") or "(" not in first:
        return None
    head = " " * indent + keyword + condition[: -len(last) - 1]
    if width(head) > LINE_LENGTH:
        return None
    inner = " " * (indent + 4)
    if width(inner + last) <= LINE_LENGTH:
        lines = [inner + last]
    else:
        if not isinstance(node.values[1], ast.BoolOp):
            return None
        word = "and " if isinstance(node.values[1].op, ast.And) else "or "
        lines = [
            inner + (word if index else "") + layout.text(value)
            for index, value in enumerate(node.values[1].values)
        ]
        if any(width(line) > LINE_LENGTH for line in lines):
            return None
    return [head, *lines, " " * indent + "):"]


def for_line(indent: int, body: str) -> list[str] | None:
    """A ``for`` line too wide, in the shapes the templates write (``for i, item in enumerate(items):``,
    ``for i in range(2, len(items)):``, ``for key, item in value.items():``, ``for key in dict.keys(value):``).

    black splits at the call's brackets if ``for ... in f(`` fits; else it puts the target's
    names in parentheses, one per line (``for (`` / names / ``) in ...:``), splitting what
    follows ``in`` at its own brackets, or wrapping it in parentheses, if it must."""
    pad = " " * indent
    if width(pad + body) <= LINE_LENGTH:
        return [pad + body]
    try:
        node = ast.parse(body + "\n    pass").body[0]
    except SyntaxError:
        return None
    if not isinstance(node, ast.For) or node.orelse or body.count(" in ") != 1:
        return None
    layout = _Layout(body.encode())
    target, iterable = layout.text(node.target), node.iter
    if not isinstance(iterable, ast.Call) or not _plain_callee(iterable.func):
        return None
    if iterable.args:
        laid = layout.call(iterable, indent, f"for {target} in ", ":")
        if laid is not None:
            return laid
    if isinstance(node.target, ast.Name):
        names = [f"{pad}    {target}"]
    elif isinstance(node.target, ast.Tuple) and all(
        isinstance(n, ast.Name) for n in node.target.elts
    ):
        names = [f"{pad}    {layout.text(name)}," for name in node.target.elts]
    else:
        return None
    rest = f"{pad}) in {layout.text(iterable)}:"
    if width(rest) <= LINE_LENGTH:
        tail = [rest]
    elif iterable.args:
        tail = layout.call(iterable, indent, ") in ", ":") or []
    else:
        tail = [f"{pad}) in (", f"{pad}    {layout.text(iterable)}", f"{pad}):"]
    return [f"{pad}for (", *names, *tail] if tail else None


_DEF = re.compile(r"(def|class) ([A-Za-z_][A-Za-z0-9_]*)\(([^()]*)\)( -> [^():]+)?:")


def def_line(indent: int, body: str) -> list[str] | None:
    """A ``def`` or ``class`` line too wide: black splits at its parentheses, the parameters (or
    bases) on one line between them (the only shape the templates write: they fit on one line)."""
    if width(" " * indent + body) <= LINE_LENGTH:
        return [" " * indent + body]
    match = _DEF.fullmatch(body)
    if (
        match is None
        or not match[3]
        or match[3].endswith(",")
        or (match[1] == "class" and match[4])
    ):
        return None
    pad = " " * indent
    middle = [f"{pad}    {match[3]}"]
    if width(middle[0]) > LINE_LENGTH:  # one per line, and a trailing comma
        items = match[3].split(",")
        if any(item.count("[") != item.count("]") for item in items):
            return None  # a comma inside brackets (``dict[str, int]``): not one item per piece
        middle = [f"{pad}    {item.strip()}," for item in items]
    lines = [f"{pad}{match[1]} {match[2]}(", *middle, f"{pad}){match[4] or ''}:"]
    return lines if all(width(line) <= LINE_LENGTH for line in lines) else None


def _conditional(node: ast.IfExp, layout: _Layout, indent: int, keyword: str) -> list[str] | None:
    """``if A if B else C:`` (the multipleOf check of an integer step): black keeps the
    condition's parentheses, the condition on one line if it fits, else broken before
    ``if`` and ``else``; a part still too long splits at its call's brackets."""
    inner = indent + 4
    whole = " " * inner + layout.text(node)
    if width(whole) <= LINE_LENGTH:
        lines = [whole]
    else:
        lines = []
        for prefix, part in (("", node.body), ("if ", node.test), ("else ", node.orelse)):
            line = " " * inner + prefix + layout.text(part)
            negated = isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not)
            call = part.operand if isinstance(part, ast.UnaryOp) and negated else part
            if width(line) <= LINE_LENGTH:
                lines.append(line)
            elif not prefix and isinstance(part, (ast.Compare, ast.BinOp)):
                laid = layout.operands(part, inner, "")  # value % step != 0, split at its operators
                if laid is None:
                    return None
                lines.extend(laid)
            elif isinstance(call, ast.Call) and layout.text(part) == (
                "not " if negated else ""
            ) + layout.text(call):
                laid = layout.call(call, inner, prefix + ("not " if negated else ""), "")
                if laid is None:
                    return None
                lines.extend(laid)
            else:
                return None
    return [" " * indent + keyword + "(", *lines, " " * indent + "):"]


def _kept_parentheses(
    node: ast.expr, condition: str, layout: _Layout, indent: int, keyword: str
) -> list[str] | None:
    """``if (`` / condition / ``):`` where black keeps a condition's invisible parentheses; None where it may not.

    It keeps them when the condition has two or more and/or (or comparisons) at its
    top level, or one that neither starts nor ends the condition with a bracket.
    Inside, the condition stays on one line if it fits, else it breaks before each
    and/or (or comparison). An empty list: black keeps them, but the lines are not
    ones this module lays out."""
    # What would add delimiters of the same or a higher priority at the top level
    # (black: and/or above comparisons, conditional expressions above both).
    if isinstance(node, ast.BoolOp):
        word = "and " if isinstance(node.op, ast.And) else "or "
        parts = [("", node.values[0])] + [(word, value) for value in node.values[1:]]
        higher: tuple[type, ...] = (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr)
    elif isinstance(node, ast.Compare) and all(type(op) in _COMPARISONS for op in node.ops):
        parts = [("", node.left)] + [
            (_COMPARISONS[type(op)], value)
            for op, value in zip(node.ops, node.comparators, strict=False)
        ]
        higher = (ast.BoolOp, ast.Compare, ast.IfExp, ast.Lambda, ast.NamedExpr)
    else:
        return None
    if any(
        isinstance(value, higher) and not _parenthesized(layout, value, condition)
        for _, value in parts
    ):
        return None
    if len(parts) == 2 and (condition[0] in "([{" or condition[-1] in ")]}"):
        return None  # black may split at that bracket instead
    inner = indent + 4
    if width(" " * inner + condition) <= LINE_LENGTH:
        lines = [" " * inner + condition]
    else:
        lines = []
        for prefix, value in parts:
            if _parenthesized(layout, value, condition):
                return []
            if isinstance(value, ast.Call):
                # Alone on its line (after an operator at most), the call's own brackets are
                # where black splits it, however long the part before them (a pattern
                # constant named after a deep place: if _A_B_..._PATTERN.search(v) is None).
                laid = layout.call(value, inner, prefix, "", long_head=True)
            else:
                laid = layout.expression(value, inner, prefix, "")
            if laid is None:
                return []
            lines.extend(laid)
    return [" " * indent + keyword + "(", *lines, " " * indent + "):"]


_COMPARISONS = {
    ast.Is: "is ",
    ast.IsNot: "is not ",
    ast.In: "in ",
    ast.NotIn: "not in ",
    ast.Eq: "== ",
    ast.NotEq: "!= ",
    ast.Lt: "< ",
    ast.LtE: "<= ",
    ast.Gt: "> ",
    ast.GtE: ">= ",
}


_ARITHMETIC = {ast.Mod: "% ", ast.Add: "+ ", ast.Sub: "- ", ast.Mult: "* "}


def _parenthesized(layout: _Layout, node: ast.expr, whole: str) -> bool:
    """Whether ``node`` stands in parentheses of its own in ``whole`` (ast does not keep them)."""
    start, end = (
        len(layout.source[: node.col_offset].decode()),
        len(layout.source[: node.end_col_offset].decode()),
    )
    before, after = whole[:start].rstrip(), whole[end:].lstrip()
    return (
        before.endswith("(")
        and after.startswith(")")
        and not before[:-1].rstrip()[-1:].isidentifier()
    )


class _Layout:
    """Lines for the parts of one statement, by black's rules for call arguments."""

    def __init__(self, source: bytes) -> None:
        self.source = source

    def text(self, node: ast.expr) -> str:
        return self.source[node.col_offset : node.end_col_offset].decode()

    def expression(self, node: ast.expr, indent: int, prefix: str, suffix: str) -> list[str] | None:
        """``prefix + node + suffix`` at ``indent``, inside brackets (black's delimiter split, then rhs)."""
        line = " " * indent + prefix + self.text(node) + suffix
        if width(line) <= LINE_LENGTH:
            return [line]
        if _is_atom(node):
            return [
                line
            ]  # nothing to split (a name, a constant, a negative number): black leaves the line long
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.sum(node, indent, prefix, suffix)
        if isinstance(node, ast.Call):
            return self.call(node, indent, prefix, suffix)
        if isinstance(node, (ast.Dict, ast.Set, ast.List, ast.Tuple)):
            return self.display(node, indent, prefix, suffix)
        return None

    def display(self, node: ast.expr, indent: int, prefix: str, suffix: str) -> list[str] | None:
        """A dict, set, list or tuple display of plain data (or a path's tuple, whose steps may
        be calls): one line if it fits, else split at its brackets.

        Inside, black puts the items of a display with two or more one per line and adds
        a trailing comma (a collection always "explodes"); a single item stays as it is."""
        line = " " * indent + prefix + self.text(node) + suffix
        if width(line) <= LINE_LENGTH:
            return [line]
        opening, closing = (
            "{}"
            if isinstance(node, (ast.Dict, ast.Set))
            else "()"
            if isinstance(node, ast.Tuple)
            else "[]"
        )
        head = " " * indent + prefix + opening
        if not self.text(node).startswith(opening):
            return None
        if width(head) > LINE_LENGTH and prefix.endswith("= "):
            return None  # an assignment black may split elsewhere; an item (a long key) splits here all the same
        items: list[tuple[str, ast.expr]] = []
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=False):
                if key is None or not _is_text(key):
                    return None
                items.append((self.text(key) + ": ", value))
        elif isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            items = [("", item) for item in node.elts]
        else:
            return None
        if not items:
            return None
        inner = indent + 4
        lines = [head]
        for item_prefix, item in items:
            # One item gets no comma (nothing to explode at), but a tuple's one item has its own.
            item_suffix = "," if len(items) > 1 or isinstance(node, ast.Tuple) else ""
            if isinstance(item, (ast.Dict, ast.Set, ast.List)):
                laid = self.display(item, inner, item_prefix, item_suffix)
            elif _is_atom(item):
                laid = [" " * inner + item_prefix + self.text(item) + item_suffix]
            elif isinstance(item, ast.Call):  # a path's step: _key(key)
                laid = self.expression(item, inner, item_prefix, item_suffix)
            else:
                return None
            if laid is None:
                return None
            lines.extend(laid)
        lines.append(" " * indent + closing + suffix)
        return lines

    def type_lines(
        self, node: ast.expr, indent: int, prefix: str, suffix: str, long_head: bool = False
    ) -> list[str] | None:
        """A type (``Literal[...]``, ``dict[str, X]``, ``A | None``) as black splits it: at the last
        bracket pair, its items on one line if they fit, else one per line with a trailing comma."""
        line = " " * indent + prefix + self.text(node) + suffix
        if width(line) <= LINE_LENGTH or _is_atom(node) or isinstance(node, ast.Attribute):
            return [line]  # (an atom: nothing to split, black leaves the line long)
        if _is_union(node):
            return None if prefix else self.union(node, indent, suffix)
        if not (isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name)):
            return None
        head = " " * indent + prefix + self.text(node.value) + "["
        if width(head) > LINE_LENGTH and not long_head:
            return None
        inner = indent + 4
        items = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        joined = ", ".join(self.text(item) for item in items)
        if len(items) == 1:
            body = self.type_lines(items[0], inner, "", "")
        elif width(" " * inner + joined) <= LINE_LENGTH:
            body = [" " * inner + joined]
        else:
            body = []
            for item in items:
                laid = self.type_lines(item, inner, "", ",")
                if laid is None:
                    return None
                body.extend(laid)
        return None if body is None else [head, *body, " " * indent + "]" + suffix]

    def operands(self, node: ast.expr, indent: int, prefix: str) -> list[str] | None:
        """A comparison or arithmetic too long for its line, broken before its operator (black's
        delimiter split, the comparison first, then the arithmetic inside it): ``v % step`` / ``!= 0``."""
        line = " " * indent + prefix + self.text(node)
        if width(line) <= LINE_LENGTH or _is_atom(node):
            return [line]
        if (
            isinstance(node, ast.Compare)
            and len(node.ops) == 1
            and type(node.ops[0]) in _COMPARISONS
        ):
            left, operator, right = node.left, _COMPARISONS[type(node.ops[0])], node.comparators[0]
        elif isinstance(node, ast.BinOp) and type(node.op) in _ARITHMETIC:
            left, operator, right = node.left, _ARITHMETIC[type(node.op)], node.right
        else:
            return None
        if (isinstance(left, (ast.Compare, ast.BinOp)) and type(left) is type(node)) or isinstance(
            right, (ast.Compare, ast.BinOp)
        ):
            return None  # a chain of same-priority operators: not a shape the templates write
        first = self.operands(left, indent, prefix)
        second = self.operands(right, indent, operator)
        return None if first is None or second is None else first + second

    def union(self, node: ast.expr, indent: int, suffix: str = "") -> list[str] | None:
        """``A | B | None`` inside brackets: on one line if it fits, else broken before each ``|``."""
        line = " " * indent + self.text(node) + suffix
        if width(line) <= LINE_LENGTH:
            return [line]
        return self.broken_before(_chain(node, ast.BitOr), "| ", indent, suffix, self.type_lines)

    def sum(self, node: ast.BinOp, indent: int, prefix: str, suffix: str) -> list[str] | None:
        """A ``+`` chain too long for its line: black breaks before each ``+`` (delimiter split)."""
        if prefix:
            return None  # a chain after another operator: not a shape the templates write
        terms = _chain(node, ast.Add)
        if any(
            isinstance(t, (ast.BinOp, ast.BoolOp, ast.Compare, ast.IfExp, ast.UnaryOp))
            for t in terms
        ):
            return None  # a delimiter of another priority inside a term
        return self.broken_before(terms, "+ ", indent, suffix, self.expression)

    def broken_before(
        self,
        terms: list[ast.expr],
        operator: str,
        indent: int,
        suffix: str,
        lay: Callable[[ast.expr, int, str, str], list[str] | None],
    ) -> list[str] | None:
        """Terms of one operator, one line each, broken before each operator (black's
        delimiter split): ``lay(term, indent, prefix, suffix)`` lays out each."""
        lines: list[str] = []
        for index, term in enumerate(terms):
            laid = lay(
                term, indent, operator if index else "", suffix if index == len(terms) - 1 else ""
            )
            if laid is None:
                return None
            lines.extend(laid)
        return lines

    def call(
        self, node: ast.Call, indent: int, prefix: str, suffix: str, long_head: bool = False
    ) -> list[str] | None:
        """A call too long for its line: split at its own brackets (black's rhs), then its arguments.

        Keyword arguments are taken only with a constant value (``total=False``). A head too
        long for its line (up to the opening bracket) is split there too only where the
        caller knows black has no other bracket to try (``long_head``)."""
        if not node.args or any(isinstance(a, ast.Starred) for a in node.args):
            return None
        if not _plain_callee(node.func) or not all(
            k.arg and isinstance(k.value, ast.Constant) for k in node.keywords
        ):
            return None
        head = " " * indent + prefix + self.text(node.func) + "("
        texts = [self.text(a) for a in node.args] + [
            f"{k.arg}={self.text(k.value)}" for k in node.keywords
        ]
        line = head + ", ".join(texts) + ")" + suffix
        if width(line) <= LINE_LENGTH:
            return [line]
        if width(head) > LINE_LENGTH and not long_head:
            return None  # black would try other splits first
        inner = indent + 4
        arguments = ", ".join(texts)
        if width(" " * inner + arguments) <= LINE_LENGTH:
            body = [" " * inner + arguments]
        elif len(texts) == 1:
            # No comma to split at: black's delimiter split finds nothing (a "+" chain
            # aside) and its rhs splits the argument at its own last bracket pair.
            laid = self.expression(node.args[0], inner, "", "")
            if laid is None:
                return None
            body = laid
        else:
            body = []
            for argument in node.args:  # one per line, and a trailing comma
                laid = self.expression(argument, inner, "", ",")
                if laid is None:
                    return None
                body.extend(laid)
            body.extend(f"{' ' * inner}{k.arg}={self.text(k.value)}," for k in node.keywords)
        return [head, *body, " " * indent + ")" + suffix]


def _plain_callee(node: ast.expr) -> bool:
    """A name or a dotted name (``errors.append``): no bracket or delimiter black could split at."""
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)


# Split brackets held by a magic trailing comma
#
# black splits a statement that passes 88 columns at its brackets; ruff's formatter, asked
# for 100 columns, joins those brackets again wherever the joined line fits in 100. A
# bracket that ends with a comma stays split under both (their "magic trailing comma"), so
# each long statement, once laid out (``piece``), gets one in every split bracket that can
# take one, and the items it held on one line go one per line, as both formatters lay out
# such a bracket. A comma never changes what the code means: none goes after the one item
# of a subscript (``x[a,]`` is a tuple key) or of a comprehension, nor into parentheses
# that only group (``if (`` ... ``):``, ``= (`` ... ``)``); a subscript of two items or
# more is a tuple already. Those brackets ruff at 100 may still join.

#: The parts of a statement's line that the commas are decided by: a string (the statements
#: here hold one-line strings only, ``piece`` makes sure), a comment, a bracket or a comma,
#: and a run of any other characters but spaces (a dotted name, a keyword, an operator).
_PART = re.compile(_SKIPPED.pattern + r"""|[()\[\]{},]|[^\s()\[\]{},'"#]+""")
#: ``_PART``'s parts, each with the spaces before it, as ``findall`` gives them: plain strings,
#: whose columns are counted, where ``finditer`` would make a match object of each and be
#: asked for its text and columns (measured: held() from 3.4 ms to 2.6 ms per contract over
#: the 40-contract set). A quote that opens no string, which ``_PART`` steps over, is a
#: part of its own here, to be stepped over by hand (any other character is in a part).
_SPACED_PART = re.compile(r"([^\S\n]*)(" + _PART.pattern + r"""|['"])""")


def held(lines: list[str]) -> list[str]:
    """The lines of one statement (or more) laid out in black's style, each split bracket held
    by a magic trailing comma where one keeps its meaning (see above); the same lines where
    none is missing.

    An item that a comma pushes past 88 columns is split at its own brackets, as black then
    splits it, and those brackets are held in turn (a pass more over the lines)."""
    source = "\n".join(lines)
    while any(line.endswith(("(", "[", "{")) for line in lines):
        source, again = _held_once(source)
        if not again:
            break
        lines = source.split("\n")
    return source.split("\n")


def _held_once(source: str) -> tuple[str, bool]:
    """One pass of :func:`held`, and whether it split an item (its brackets want a pass more)."""
    lines = source.split("\n")
    commas: list[tuple[int, int]] = []  # (row from 0, column) where a comma goes
    replaced: dict[int, list[str]] = {}  # row from 0 -> the lines that stand for it
    for bracket in _split_brackets(lines):
        if bracket.items_row is not None:
            replaced[bracket.items_row] = _items(lines[bracket.items_row], bracket.item_commas)
        elif bracket.comma_at is not None:
            commas.append(bracket.comma_at)
    again = False
    for row, column in sorted(commas, reverse=True):
        line = lines[row][:column] + "," + lines[row][column:]
        if width(line) > LINE_LENGTH and column == len(lines[row]):
            split = _item_lines(line)
            if split is not None:
                replaced[row], again = split, True
                continue
        lines[row] = line
    for row in sorted(replaced, reverse=True):
        lines[row : row + 1] = replaced[row]
    return "\n".join(lines), again


def _item_lines(line: str) -> list[str] | None:
    """A bracket's one item with its comma (``line``), too wide, as black splits it: an
    expression, or a dict's key and value (split in the value); None where it is neither
    or has nothing to split at."""
    body = line.lstrip(" ")[:-1]
    prefix, value = "", body
    try:
        node = ast.parse(body, mode="eval").body
    except SyntaxError:
        pair = _pair(body)
        if pair is None:
            return None
        prefix, value, node = pair
    laid = _Layout(value.encode()).expression(node, len(line) - len(body) - 1, prefix, ",")
    return laid if laid is not None and len(laid) > 1 else None


def _pair(body: str) -> tuple[str, str, ast.expr] | None:
    """A dict's ``"key": value`` as its key with ``: ``, its value's text and its node."""
    try:
        pair = ast.parse("{" + body + "}", mode="eval").body
    except SyntaxError:
        return None
    if not isinstance(pair, ast.Dict) or len(pair.keys) != 1:
        return None
    key = pair.keys[0]
    if key is None or not _is_text(key):
        return None
    text = ("{" + body + "}").encode()
    value = text[pair.values[0].col_offset : pair.values[0].end_col_offset].decode()
    return text[1 : pair.values[0].col_offset].decode(), value, ast.parse(value, mode="eval").body


class _Bracket:
    """One bracket pair of a statement: whether it may take a trailing comma, and what that
    comma needs (``comma_at``: after its one item; ``items_row``: its items' one line, cut at
    ``item_commas``, the columns of its own commas)."""

    __slots__ = (
        "before",
        "comma_at",
        "comprehension",
        "first_row",
        "item_commas",
        "items_row",
        "last",
        "last_end",
        "opening",
        "row",
    )

    def __init__(self, row: int, opening: str, before: str) -> None:
        # One is made for every bracket of every long statement, and most open and close on
        # one line: whether one takes a comma (``_takes_comma``) is asked only where it is split.
        self.row = row  # the opening bracket's (from 0)
        self.opening = opening
        self.before = before  # the part before the opening bracket
        self.item_commas: list[int] = []  # columns of the commas between its items
        self.comprehension = False  # ``for`` among its items: a comprehension or generator
        self.first_row = -1  # the row its first part is on (-1: none yet)
        self.last = ""  # its last part but the closing bracket
        self.last_end: tuple[int, int] = (row, 0)  # where that part ends (row, column)
        self.comma_at: tuple[int, int] | None = None
        self.items_row: int | None = None

    def close(self, row: int, column: int, lines: list[str]) -> bool:
        """Decide the comma at the closing bracket, at ``row`` and ``column`` (the first on its
        line, or the pair is not split); whether the bracket needs one."""
        if (
            row == self.row
            or not self.last
            or self.last == ","
            or self.comprehension
            or lines[row][:column].strip()
            or self.first_row == self.row
        ):
            return False
        if not self.item_commas:
            if not _takes_comma(self.opening, self.before):
                return False  # parentheses that group one expression: a comma makes a tuple
            self.comma_at = self.last_end
            return True
        if not self.first_row == self.last_end[0] == row - 1:
            return False  # items over several lines without a trailing comma: not black's shape
        self.items_row = row - 1
        return True


def _takes_comma(opening: str, before: str) -> bool:
    """Whether a bracket holding one item keeps its meaning with a comma after it: a call's,
    a def's or a class's parentheses (after a name, ``errors.append``, or a closing bracket),
    a list, a dict or a set; not a subscript, nor parentheses that only group (after a
    keyword, an operator, a comma or another bracket)."""
    callee = before in (")", "]", "}") or (
        (before[-1:].isalnum() or before[-1:] == "_") and not keyword.iskeyword(before)
    )
    if opening == "(":
        return callee
    if opening == "[":
        return not callee and before[:1] not in ("'", '"')
    return True


def _split_brackets(lines: list[str]) -> list[_Bracket]:
    """The bracket pairs of a statement's ``lines`` split over lines that need a trailing
    comma (a bracket in a string or a comment is none)."""
    stack: list[_Bracket] = []
    found: list[_Bracket] = []
    # The part read last (comments skipped), and where: a bracket's last part is the one
    # before its closing bracket, its first the one after its opening bracket, so neither is
    # noted at every part (this runs over every part of every long statement of a module).
    before, before_row, before_at = "", 0, 0
    opened: _Bracket | None = None  # the bracket whose opening bracket is that part
    for row, line in enumerate(lines):
        end = 0  # the column where the part read last on this line ends
        # (Spaces at the end hold no part: taken off first, they are not read again and again
        # for a part after them, as _SPACED_PART would from each of them in turn.)
        for space, text in _SPACED_PART.findall(line.rstrip()):
            start = end + len(space)
            end = start + len(text)
            if text[0] == "#" or text in ("'", '"'):
                continue  # a comment, or a quote that opens no string (see _SPACED_PART)
            if opened is not None:
                opened.first_row = row
            if text in (")", "]", "}"):
                if not stack:
                    return []  # not one statement: nothing to decide
                bracket = stack.pop()
                if bracket is not opened:  # it holds a part
                    bracket.last, bracket.last_end = before, (before_row, before_at)
                if bracket.close(row, start, lines):
                    found.append(bracket)
            elif stack:
                if text == ",":
                    stack[-1].item_commas.append(start)
                elif text == "for":
                    stack[-1].comprehension = True
            if text in ("(", "[", "{"):
                opened = _Bracket(row, text, before)
                stack.append(opened)
            else:
                opened = None
            before, before_row, before_at = text, row, end
    return found


def _items(line: str, commas: list[int]) -> list[str]:
    """A line of items cut at ``commas`` (their columns), one item per line, each with a comma."""
    pad = line[: len(line) - len(line.lstrip(" "))]
    starts = [len(pad), *(column + 1 for column in commas)]
    ends = [*commas, len(line)]
    return [pad + line[start:end].strip() + "," for start, end in zip(starts, ends, strict=True)]
