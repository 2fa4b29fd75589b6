"""How ``toolshape diff`` decides and samples a change of ``minLength``, ``maxLength`` and
``pattern`` (review stage).

A change of the length bounds is decided by ``review/decisions.py``'s interval comparison
from the vocabulary's ranges (nothing of this family's own). A changed ``pattern`` is decided
by the regex difference both ways (:func:`pattern_difference`: strings of one pattern the
other does not match, within the node's own length bounds), exact when the search completes;
:func:`strings_apart` gives the witness search such strings to try. ``review/samples.py``
feeds the search with :func:`strings_at_lengths` and :func:`strings_near_patterns`; and
:func:`near_misses` are the small edits of a known string that often cross a changed
pattern or format.

It imports nothing of review/ but the report's reasons: ``review/decisions.py`` reads
``review/samples.py``, which reads this module, so ``review/search.py`` makes the
``Decision`` of :func:`pattern_difference`'s answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ... import regex
from ...families.formats.values import FORMAT
from ...review.report import REASON_BUDGET, REASON_PATTERN, REASON_SAMPLED
from ...schema.values import is_integer
from ...witness import budget as budgets
from ...witness import sources

#: The keyword whose change is decided by the regex difference.
PATTERN = "pattern"
#: The length bounds, lower first: the lengths samples are built at.
LENGTHS = ("minLength", "maxLength")
#: The longest string built at a length bound.
MAX_SAMPLE_LENGTH = 2_000_000

#: One side's answer: True (a witness exists), False (none exists) or None (unknown).
Answer = bool | None


def pattern_difference(
    before: dict[str, Any], after: dict[str, Any], budget: budgets.Budget
) -> tuple[Answer, Answer, str | None]:
    """Whether some string of ``before``'s lengths matches the old pattern and not the new one
    (narrows), and the reverse (widens), and the reason an answer is unknown."""
    low, high = before.get("minLength", 0), before.get("maxLength")
    low = low if _is_count(low) else 0
    high = high if _is_count(high) else None
    answers: list[Answer] = []
    reason: str | None = None
    old_pattern, new_pattern = before.get(PATTERN), after.get(PATTERN)
    for mine, theirs in ((old_pattern, new_pattern), (new_pattern, old_pattern)):
        if not isinstance(theirs, str):
            answers.append(False)  # no pattern on the other side: it refuses no string for it
            continue
        steps = budget.grant()
        if steps <= 0:
            answers.append(None)
            reason = REASON_BUDGET
            continue
        try:
            search = regex.strings(
                [
                    mine if isinstance(mine, str) else ""
                ],  # no pattern: every string ("" matches anywhere)
                excluded=[theirs],
                min_length=low,
                max_length=high,
                steps=steps,
            )
        except regex.PatternError:
            answers.append(None)
            reason = reason or REASON_SAMPLED
            continue
        budget.spend(min(budget.left, budgets.SEARCH_COST))
        if search.found:
            answers.append(True)
        elif search.complete:
            answers.append(False)
        else:
            answers.append(None)
            budget.searches_cut = True
            reason = reason or REASON_PATTERN
    return answers[0], answers[1], reason


def strings_apart(keyword: Any, old_node: Any, new_node: Any, budget: budgets.Budget) -> list[str]:
    """When ``keyword`` is a changed pattern: strings of each pattern the other does not match."""
    if keyword != PATTERN or not (isinstance(old_node, dict) and isinstance(new_node, dict)):
        return []
    found: list[str] = []
    old_pattern, new_pattern = old_node.get(PATTERN), new_node.get(PATTERN)
    for mine, theirs in ((old_pattern, new_pattern), (new_pattern, old_pattern)):
        if isinstance(mine, str):
            search = sources.pattern_strings(
                [mine],
                excluded=[theirs] if isinstance(theirs, str) else [],
                count=3,
                steps=budget.grant(),
            )
            budget.spend(min(budget.left, budgets.SEARCH_COST))
            if not search.complete:
                budget.searches_cut = True
            found.extend(search.found)
    return found


def strings_at_lengths(dicts: list[dict[str, Any]], strings: list[str]) -> list[str]:
    """Strings at each length bound of each side (and one either side), built from known strings."""
    found: list[str] = []
    for schema in dicts:
        for keyword in LENGTHS:
            if _is_count(schema.get(keyword)):
                n = int(schema[keyword])
                for length in (n - 1, n, n + 1):
                    if 0 <= length <= MAX_SAMPLE_LENGTH:
                        found.extend(_stretch(s, length) for s in strings[:4])
    return found


def strings_near_patterns(dicts: list[dict[str, Any]], strings: list[str]) -> list[str]:
    """Near misses of known strings, and strings each side's pattern matches, alone and
    spliced into known ones (only where a pattern or format is)."""
    if not any(PATTERN in s or FORMAT in s for s in dicts):
        return []
    found: list[str] = []
    for text in strings[:6]:
        found.extend(near_misses(text))
    for schema in dicts:
        if isinstance(schema.get(PATTERN), str):
            samples = list(
                sources.pattern_strings(
                    [schema[PATTERN]], count=6, steps=budgets.SEARCH_STEPS
                ).found
            )
            found.extend(samples)
            found.extend(_splices(strings[:4], samples[:6]))
    return found


def near_misses(text: str) -> list[str]:
    """Small edits of a string that often cross a changed pattern or format."""
    found = [text.upper(), text.lower(), text[1:], text[:-1], text + text]
    for extra in (" ", "-", "_", ".", "/", "@", "0", "A", "a", "é"):
        found += [extra + text, text + extra]
    if len(text) > 2:
        middle = len(text) // 2
        found += [text[:middle] + " " + text[middle:], text[:middle] + "0" + text[middle + 1 :]]
    return found


def _splices(strings: Sequence[str], samples: Sequence[str]) -> list[str]:
    """Known strings with a part replaced by a pattern sample, cut where they have punctuation
    ("mia@security.example.com" and "@sec.example.com" give "mia@sec.example.com")."""
    found = []
    for text in strings:
        cuts = [i for i, ch in enumerate(text) if not ch.isalnum()][:4]
        for sample in samples:
            for cut in cuts:
                found += [text[:cut] + sample, sample + text[cut + 1 :]]
    return found


def _stretch(text: str, length: int) -> str:
    """``text`` cut or extended (with its own last character) to ``length`` characters."""
    if len(text) >= length:
        return text[:length]
    return text + (text[-1:] or "x") * (length - len(text))


def _is_count(value: Any) -> bool:
    return is_integer(value) and value >= 0
