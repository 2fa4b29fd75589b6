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
  so no cut is made before one.
* black decides which Python versions the code targets from the syntax the whole
  file uses (f-strings, ``from __future__`` imports, ...), and that decides some
  formatting (a magic trailing comma after ``*args``). So the syntax features of
  every piece are collected (black's own ``get_features_used``, remembered per
  piece too) and every piece is formatted for the versions the whole file allows.
* Anything unusual (``# fmt:`` directives, form feeds, carriage returns, code
  ``ast`` cannot parse, features no version has) goes to black whole, as before.

``tests/test_formatting.py`` checks the result against whole-file black on every
example contract and on synthetic ones.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import black

#: Formatted pieces by (piece, target versions), and the syntax features of each piece.
_FORMATTED: dict[tuple[str, frozenset[Any]], str] = {}
_FEATURES: dict[str, frozenset[Any]] = {}
#: Each cache keeps at most this many pieces, the least recently used going first:
#: a run over thousands of contracts keeps the shared pieces, not every one.
MAX_REMEMBERED = 1024


def black_format(source: str) -> str:
    """Exactly ``black.format_str(source, mode=black.Mode())``, faster on generated modules."""
    import black

    pieces = split(source)
    if pieces is None or len(pieces) == 1:
        return black.format_str(source, mode=black.Mode())
    versions = _target_versions(pieces)
    if not versions:
        return black.format_str(source, mode=black.Mode())
    mode = black.Mode(target_versions=versions)
    try:
        formatted = [_format_piece(piece, versions, mode) for piece in pieces]
    except black.InvalidInput:
        return black.format_str(source, mode=black.Mode())  # the error, as black reports it for the file
    return "\n\n".join(formatted)


def split(source: str) -> list[str] | None:
    """The source cut after top-level defs and classes (see the module docstring); None: do not cut."""
    if any(odd in source for odd in ("\r", "\f", "\\\n", "fmt:", "yapf:")):
        return None
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    lines = source.splitlines(keepends=True)
    cuts = [0]
    for before, after in zip(tree.body, tree.body[1:]):
        if not _ends_cleanly(before, lines) or isinstance(after, ast.Expr):
            continue
        start = _first_line(after)  # 1-based
        gap = lines[before.end_lineno : start - 1]  # type: ignore[misc]
        if gap and not gap[0].strip() and all(not line.strip() or line.startswith("#") for line in gap):
            cuts.append(before.end_lineno)  # type: ignore[arg-type]
    cuts.append(len(lines))
    return ["".join(lines[a:b]) for a, b in zip(cuts, cuts[1:])]


def _ends_cleanly(node: ast.stmt, lines: list[str]) -> bool:
    """A def or class whose body begins on a line of its own (not ``def f(): ...``)."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return False
    first = node.body[0]
    return first.col_offset > 0 and not lines[first.lineno - 1][: first.col_offset].strip()


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", [])
    return min([node.lineno] + [d.lineno for d in decorators])


def _target_versions(pieces: list[str]) -> set[black.TargetVersion]:
    """The versions black would infer from the whole file: those that have every feature used."""
    import black
    from black.mode import VERSION_TO_FEATURES

    features: set[Any] = set()
    for index, piece in enumerate(pieces):
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
