"""A thin alias kept for callers outside the regex package that still import it (diff.py).

The ECMA-262 pattern core lives in ``toolshape.regex``; new code imports from there.
"""

from __future__ import annotations

from .regex import WHITESPACE, PatternError
from .regex import translate as translate_pattern

__all__ = ["WHITESPACE", "PatternError", "translate_pattern", "backtracking_risk"]


def backtracking_risk(pattern: str) -> str | None:
    """Why a pattern may backtrack catastrophically, or None.

    Flags an unbounded repeat that holds another unbounded repeat ("(a+)+",
    "([a-z]+\\.)*"), or an alternation ("(a|ab)*"): on a long input that almost
    matches, the engine tries exponentially many ways to split it.
    """
    try:
        import re._parser as sre_parse  # Python 3.11+
    except ImportError:  # pragma: no cover - 3.10
        import sre_parse  # type: ignore[import-not-found, no-redef]

    try:
        tree = sre_parse.parse(translate_pattern(pattern))
    except Exception:
        return None
    repeats = {sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT, getattr(sre_parse, "POSSESSIVE_REPEAT", None)}

    def unbounded(item: object) -> bool:
        op, av = item  # type: ignore[misc]
        return op in repeats and av[1] == sre_parse.MAXREPEAT

    def inner_risk(items: object) -> str | None:
        for op, av in items:  # type: ignore[attr-defined]
            if op in repeats:
                if unbounded((op, av)):
                    return "a repeat inside a repeat"
                found = inner_risk(av[2])
            elif op is sre_parse.SUBPATTERN:
                found = inner_risk(av[-1])
            elif op is sre_parse.BRANCH:
                return "an alternation inside a repeat"
            else:
                found = None
            if found:
                return found
        return None

    def walk(items: object) -> str | None:
        for op, av in items:  # type: ignore[attr-defined]
            if op in repeats:
                if unbounded((op, av)):
                    found = inner_risk(av[2])
                    if found:
                        return found
                found = walk(av[2])
            elif op is sre_parse.SUBPATTERN:
                found = walk(av[-1])
            elif op is sre_parse.BRANCH:
                found = next((r for r in (walk(b) for b in av[1]) if r), None)
            else:
                found = None
            if found:
                return found
        return None

    return walk(tree)
