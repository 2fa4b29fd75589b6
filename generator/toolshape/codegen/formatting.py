"""black's output for a generated module, byte for byte, without running black over all of it.

Formatting one generated module with black takes about half a second, and most of
a module is the runtime (``runtime.py.j2``), the same text in every module. So the
source is cut into pieces, each piece is formatted by black on its own, and each
formatted piece is remembered by its text: the runtime's pieces are formatted once
per process, not once per contract.

Why the result is what black gives for the whole file:

* black formats each logical line on its own; only the blank lines between them
  depend on what came before. We cut only right after a top-level ``def`` or
  ``class`` whose body starts on a line of its own, and only where the lines up to
  the next statement are blank (at least one) or comments at column 0. There, black
  always puts exactly two blank lines before the next top-level line (its
  ``EmptyLineTracker``: the def just ended at depth 0), whatever that line is, and
  what follows is formatted as if the file began there. A bare string (any
  expression statement) would read as a module docstring at the start of a piece,
  so no cut is made before one. We also cut after the import block at the top when
  a plain statement follows it, with blank lines only between: there black always
  puts exactly one blank line.
* black decides which Python versions the code targets from the syntax the whole
  file uses (f-strings, ``from __future__`` imports, ...), and that decides some
  formatting (a magic trailing comma after ``*args``). So the syntax features of
  every piece are collected (black's own ``get_features_used``, remembered per
  piece too) and every piece is formatted for the versions the whole file allows.
* Anything unusual (``# fmt:`` directives, form feeds, carriage returns, code
  ``ast`` cannot parse, features no version has) goes to black whole, as before.

For the built-in templates, whose code is written in black's style, most pieces
do not go to black at all: ``layout.py`` lays them out (see there).

``tests/test_formatting.py`` checks the result against whole-file black on every
example contract and on synthetic ones.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Any

from . import layout

if TYPE_CHECKING:
    import black

#: Formatted pieces by (piece, target versions), and the syntax features of each piece.
_FORMATTED: dict[tuple[str, frozenset[Any]], str] = {}
_FEATURES: dict[str, frozenset[Any]] = {}
#: What layout.py made of each piece ("": a shape it does not know).
_LAID: dict[str, str] = {}
#: Statements black formatted for layout.py, by (indentation, statement, target versions).
_STATEMENTS: dict[tuple[int, str, frozenset[Any]], str] = {}
#: Each cache keeps at most this many pieces, the least recently used going first:
#: a run over thousands of contracts keeps the shared pieces, not every one.
MAX_REMEMBERED = 1024


def black_format(source: str, *, known_layout: bool = False) -> str:
    """Exactly ``black.format_str(source, mode=black.Mode())``, faster on generated modules.

    ``known_layout``: the source comes from toolshape's built-in templates, which write
    their code in black's style; the pieces ``layout.piece`` knows are laid out without
    running black on them, and only the long statements it has no rule for go to
    black, one at a time (see layout.py)."""
    import black

    pieces = split(source)
    if pieces is None or len(pieces) == 1:
        return black.format_str(source, mode=black.Mode())
    laid = [_laid_out(piece) if known_layout else None for piece in pieces]
    # The built-in templates' code uses no syntax the runtime's pieces do not already
    # use (tests/test_formatting.py checks it), so the pieces laid out add no feature.
    versions = _target_versions([(i, piece) for i, piece in enumerate(pieces) if laid[i] is None])
    if not versions:
        return black.format_str(source, mode=black.Mode())
    mode = black.Mode(target_versions=versions)

    def statement(match: re.Match[str]) -> str:
        return _format_statement(int(match.group(1)), match.group(2), versions, mode)

    try:
        formatted = [
            _format_piece(piece, versions, mode) if text is None else _MARKER.sub(statement, text) if "\0" in text else text
            for piece, text in zip(pieces, laid)
        ]
    except black.InvalidInput:
        return black.format_str(source, mode=black.Mode())  # the error, as black reports it for the file
    return pieces.join(formatted)


#: A statement layout.py leaves to black, in a laid-out piece: its indentation and text
#: between NULs (a NUL never occurs in generated source: literals.py escapes it). Black
#: formats it once the file's target versions are known, from the pieces it formats.
_MARKER = re.compile("\0([0-9]+)\0([^\0]*)\0")


def _laid_out(piece: str) -> str | None:
    """``layout.piece`` of a piece, remembered (shared pieces recur in every module)."""
    found = _recall(_LAID, piece)
    if found is None:
        found = layout.piece(piece, lambda indent, body: [f"\0{indent}\0{body}\0"]) or ""
        _remember(_LAID, piece, found)
    return found or None


def _format_statement(indent: int, body: str, versions: set[Any], mode: black.Mode) -> str:
    """One statement as black formats it at ``indent``: inside ``if x:`` blocks that give it its depth."""
    import black

    key = (indent, body, frozenset(versions))
    formatted = _recall(_STATEMENTS, key)
    if formatted is None:
        depth = indent // 4
        outer = ["    " * level + "if x:" for level in range(depth)]
        pad = "    " * depth
        before = [pad + "if x:", pad + "    pass"] if body.startswith(("elif ", "else:")) else []
        after = [pad + "    pass"] if body.endswith(":") else []
        snippet = "\n".join(outer + before + [pad + body] + after) + "\n"
        lines = black.format_str(snippet, mode=mode).split("\n")[:-1]
        start, end = len(outer) + len(before), len(lines) - len(after)
        if lines[:start] != outer + before or lines[end:] != after:
            raise AssertionError(f"black moved the lines around a statement: {snippet!r}")
        formatted = "\n".join(lines[start:end])
        _remember(_STATEMENTS, key, formatted)
    return formatted


def split(source: str) -> Pieces | None:
    """The source cut after top-level defs and classes (see the module docstring); None: do not cut."""
    if any(odd in source for odd in ("\r", "\f", "\\\n", "fmt:", "yapf:")):
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    lines = source.splitlines(keepends=True)
    cuts = [0]
    after_imports = set()
    for before, after in zip(tree.body, tree.body[1:]):
        if isinstance(after, ast.Expr):
            continue
        start = _first_line(after)  # 1-based
        gap = lines[before.end_lineno : start - 1]  # type: ignore[misc]
        if _ends_cleanly(before, lines):
            if gap and not gap[0].strip() and all(not line.strip() or line.startswith("#") for line in gap):
                cuts.append(before.end_lineno)  # type: ignore[arg-type]
        elif _ends_imports(before, after) and all(not line.strip() for line in gap):
            after_imports.add(len(cuts))
            cuts.append(before.end_lineno)  # type: ignore[arg-type]
    cuts.append(len(lines))
    return Pieces(["".join(lines[a:b]) for a, b in zip(cuts, cuts[1:])], after_imports)


class Pieces(list):  # type: ignore[type-arg]
    """The pieces of a source; ``after_imports``: the indexes of pieces that follow the import block."""

    def __init__(self, pieces: list[str], after_imports: set[int]) -> None:
        super().__init__(pieces)
        self.after_imports = after_imports

    def join(self, formatted: list[str]) -> str:
        """The formatted pieces as one file: two blank lines after a def or class, one after the imports."""
        return "".join(("\n" if i in self.after_imports else "\n\n") + text if i else text for i, text in enumerate(formatted))


def _ends_imports(before: ast.stmt, after: ast.stmt) -> bool:
    """The last import of the block at the top, followed by a plain statement.

    There black always puts exactly one blank line (its EmptyLineTracker: a line at
    depth 0 after an import line that is not an import, a def, a class or a decorator)."""
    return isinstance(before, (ast.Import, ast.ImportFrom)) and not isinstance(
        after, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
    )


def _ends_cleanly(node: ast.stmt, lines: list[str]) -> bool:
    """A def or class whose body begins on a line of its own (not ``def f(): ...``)."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    first = node.body[0]
    return first.col_offset > 0 and not lines[first.lineno - 1][: first.col_offset].strip()


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])


def _target_versions(pieces: list[tuple[int, str]]) -> set[black.TargetVersion]:
    """The versions black would infer from the whole file: those that have every feature used.

    ``pieces``: (index in the file, piece); the first one holds the __future__ imports."""
    import black
    from black.mode import VERSION_TO_FEATURES

    features: set[Any] = set()
    for index, piece in pieces:
        features |= _features(piece, first=index == 0)
    return {version for version in black.TargetVersion if features <= VERSION_TO_FEATURES[version]}


def _features(piece: str, first: bool) -> frozenset[Any]:
    key = piece if not first else "\0first\0" + piece
    found = _recall(_FEATURES, key)
    if found is None:
        import black
        from black.parsing import lib2to3_parse

        node = lib2to3_parse(piece.lstrip())
        # __future__ imports sit at the top of the file: in the first piece.
        future = black.get_future_imports(node) if first else set()
        found = frozenset(black.get_features_used(node, future_imports=future))
        _remember(_FEATURES, key, found)
    return found


def _format_piece(piece: str, versions: set[Any], mode: black.Mode) -> str:
    import black

    key = (piece, frozenset(versions))
    formatted = _recall(_FORMATTED, key)
    if formatted is None:
        formatted = black.format_str(piece, mode=mode)
        _remember(_FORMATTED, key, formatted)
    return formatted


def _recall(cache: dict, key: Any) -> Any:
    value = cache.pop(key, None)
    if value is not None:
        cache[key] = value  # now the most recently used
    return value


def _remember(cache: dict, key: Any, value: Any) -> None:
    if len(cache) >= MAX_REMEMBERED:
        cache.pop(next(iter(cache)))  # the least recently used
    cache[key] = value
