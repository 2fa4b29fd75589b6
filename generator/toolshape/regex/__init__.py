"""The ECMA-262 regular-expression core: parse JSON Schema patterns with a parser of our own, then
translate them for Python's ``re``, search strings they match (and near misses), and find the
patterns a backtracking matcher would run for too long on.

- ``syntax``: pattern text -> syntax tree (refuses Python-only syntax with the ECMA-262 spelling);
- ``translate``: tree -> Python ``re`` source with the ECMA-262 meaning;
- ``automaton``: tree -> a finite automaton over character-class atoms;
- ``witness``: ``strings`` and ``near_misses``, every answer confirmed with ``re``;
- ``ambiguity``: the backtracking lint (Weideman et al., 2016);
- ``linear``: which matcher runs each pattern in the validator (``re`` where proved linear, else
  the runtime's linear-time ``_Linear``) and that matcher's program.
"""

from __future__ import annotations

from .ambiguity import WORK_BUDGET, backtracking_problem
from .charset import WHITESPACE
from .syntax import PatternError
from .translate import translate
from .witness import DEFAULT_STEPS, Search, near_misses, strings

__all__ = [
    "DEFAULT_STEPS",
    "WHITESPACE",
    "WORK_BUDGET",
    "PatternError",
    "Search",
    "backtracking_problem",
    "near_misses",
    "strings",
    "translate",
]
