"""Generated source in black's style: laid out by ``layout.py`` (built-in templates) or by black (custom ones).

The built-in templates write their code in black's style already; what black would
still change (long lines, blank lines) is what ``layout.py`` knows how to lay out. A
module is cut into pieces at its top-level defs and classes (``split``), each piece is
laid out on its own, and the pieces are joined with the blank lines black puts there.
A piece or statement of a shape ``layout.py`` does not know is a ``LayoutError`` (a bug
in toolshape: ``tests/test_formatting.py`` checks every built-in template's output
against whole-file black), never a silent call to black.

Custom templates may write anything: their output goes to ``black.format_str``, black's
public API, whole.

Why laying out the pieces one by one gives what black gives for the whole file:

* black formats each logical line on its own; only the blank lines between them
  depend on what came before. We cut only right after a top-level ``def`` or
  ``class`` whose body starts on a line of its own, and only where the lines up to
  the next statement are blank (at least one) or comments at column 0. There, black
  always puts exactly two blank lines before the next top-level line (its
  ``EmptyLineTracker``: the def just ended at depth 0), whatever that line is, and
  what follows is formatted as if the file began there. A bare string (any
  expression statement) would read as a module docstring at the start of a piece,
  so no cut is made before one. We also cut after the import block at the top when
  a plain statement follows it, with blank lines and comments at column 0 only
  between: there black always puts exactly one blank line.
* black chooses some layouts by the Python versions a file's syntax allows (a magic
  trailing comma after ``*args``); the templates write none of those shapes, so the
  version inference (black's internals) is not needed.
"""

from __future__ import annotations

import ast
import functools
import itertools
from collections.abc import Callable

from . import layout, top_level


class LayoutError(Exception):
    """Built-in template output that ``layout.py`` has no rule for: a bug in toolshape."""


def black_format(source: str) -> str:
    """``black.format_str(source, mode=black.Mode())``: for custom templates' output."""
    import black

    return black.format_str(source, mode=black.Mode())


def lay_out(source: str, gaps: list[str] | None = None) -> str:
    """The built-in templates' output as black formats it, laid out by ``layout.py`` alone.

    With ``gaps``, what ``layout.py`` has no rule for is formatted by black, as small as it
    comes: a long statement on its own at its depth (black formats each logical line by its
    depth and text alone, which tests/test_layout.py holds layout.py to as well), a piece
    of another shape on its own (see above); the first line of each reason is added to
    ``gaps``. Without, it is a ``LayoutError``. Either way black never formats a module of
    tens of thousands of lines for one statement."""
    pieces = split(source)
    if pieces is None:
        raise LayoutError(
            "the source has a construct the built-in templates never write (see split)"
        )
    statement = _no_rule if gaps is None else functools.partial(_black_statement, gaps)
    laid = []
    for index, piece in enumerate(pieces):
        try:
            laid.append(_piece(piece, index, statement))
        except LayoutError as exc:
            if gaps is None:
                raise
            gaps.append(str(exc).splitlines()[0])
            laid.append(black_format(piece))
    return pieces.join(laid)


def _piece(piece: str, index: int, statement: Callable[[int, str], list[str]]) -> str:
    """One piece laid out by ``layout.py`` (``statement`` formats a long statement it has
    no rule for); a LayoutError where the piece is of a shape it does not know."""
    text = layout.head(piece) if index == 0 else None
    if text is None:
        text = layout.piece(piece, statement)
    if text is None:
        raise LayoutError(f"layout.py has no rule for this piece of generated code:\n{piece}")
    return text


def _black_statement(gaps: list[str], indent: int, body: str) -> list[str]:
    """One long statement as black formats it at ``indent``, its gap added to ``gaps``."""
    gaps.append(f"layout.py has no rule for this long statement (at indent {indent}):")
    return list(_black_lines(indent, body))


@functools.lru_cache(maxsize=1024)
def _black_lines(indent: int, body: str) -> tuple[str, ...]:
    """Black's lines for one statement at ``indent``: inside ``if x:`` blocks that give it its
    depth, a body after it where it opens a block (tests/test_layout.py's black_lines). A
    module repeats its statements (the integer test of each item, at one depth): black runs
    once for each."""
    depth = indent // 4
    outer = ["    " * level + "if x:" for level in range(depth)]
    pad = "    " * depth
    before = [pad + "if x:", pad + "    pass"] if body.startswith(("elif ", "else:")) else []
    after = [pad + "    pass"] if body.endswith(":") else []
    snippet = "\n".join([*outer, *before, pad + body, *after]) + "\n"
    import black

    try:
        lines = black_format(snippet).split("\n")[:-1]
    except black.InvalidInput:  # a statement that needs more around it (an except clause)
        raise LayoutError(f"black cannot format this statement alone:\n{body}") from None
    start, end = len(outer) + len(before), len(lines) - len(after)
    if lines[:start] != outer + before or lines[end:] != after:
        raise LayoutError(f"black moved the lines around this statement:\n{body}")
    return tuple(lines[start:end])


def _no_rule(indent: int, body: str) -> list[str]:
    raise LayoutError(
        f"layout.py has no rule for this long statement (at indent {indent}):\n{body}"
    )


def split(source: str) -> Pieces | None:
    """The source cut after top-level defs and classes (see the module docstring); None: do not cut."""
    if any(odd in source for odd in ("\r", "\f", "\\\n", "fmt:", "yapf:")):
        return None
    lines = source.splitlines(keepends=True)
    found = top_level.statements(source)
    if found is None:
        found = parsed_statements(source)
    if found is None:
        return None
    cuts = [0]
    after_imports = set()
    for before, after in itertools.pairwise(found):
        if after.kind == "expr":
            continue
        gap = lines[before.end : after.first - 1]
        if before.kind == "def" and before.clean:
            # Indented comments right after the body end it (black keeps them in it).
            inside = next(
                (
                    i
                    for i, line in enumerate(gap)
                    if not line.startswith(" ") or not line.lstrip().startswith("#")
                ),
                len(gap),
            )
            rest = gap[inside:]
            if (
                rest
                and not rest[0].strip()
                and all(not line.strip() or line.startswith("#") for line in rest)
            ):
                cuts.append(before.end + inside)
        elif _ends_imports(before, after) and all(
            not line.strip() or line.startswith("#") for line in gap
        ):
            after_imports.add(len(cuts))
            cuts.append(before.end)
    cuts.append(len(lines))
    return Pieces(["".join(lines[a:b]) for a, b in itertools.pairwise(cuts)], after_imports)


def parsed_statements(source: str) -> list[top_level.Statement] | None:
    """What ``top_level.statements`` reads from the lines, read by ``ast.parse`` (None: the
    source does not parse): for sources the scanner does not know, and to hold it to ast."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    lines = source.splitlines(keepends=True)
    return [
        top_level.Statement(
            _first_line(node),
            node.end_lineno or node.lineno,
            _kind(node),
            _ends_cleanly(node, lines),
        )
        for node in tree.body
    ]


class Pieces(list[str]):
    """The pieces of a source; ``after_imports``: the indexes of pieces that follow the import block."""

    def __init__(self, pieces: list[str], after_imports: set[int]) -> None:
        super().__init__(pieces)
        self.after_imports = after_imports

    def join(self, formatted: list[str]) -> str:
        """The formatted pieces as one file: two blank lines after a def or class, one after the imports."""
        return "".join(
            ("\n" if i in self.after_imports else "\n\n") + text if i else text
            for i, text in enumerate(formatted)
        )


def _ends_imports(before: top_level.Statement, after: top_level.Statement) -> bool:
    """The last import of the block at the top, followed by a plain statement.

    There black always puts exactly one blank line (its EmptyLineTracker: a line at
    depth 0 after an import line that is not an import, a def, a class or a decorator)."""
    return before.kind == "import" and after.kind not in ("import", "def")


def _kind(node: ast.stmt) -> str:
    """A statement's kind as ``top_level.Statement`` names it."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return "def"
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return "import"
    return "expr" if isinstance(node, ast.Expr) else "other"


def _ends_cleanly(node: ast.stmt, lines: list[str]) -> bool:
    """A def or class whose body begins on a line of its own (not ``def f(): ...``)."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    first = node.body[0]
    return first.col_offset > 0 and not lines[first.lineno - 1][: first.col_offset].strip()


def _first_line(node: ast.stmt) -> int:
    decorators: list[ast.expr] = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])
