"""The backtracking lint (toolshape.regex.ambiguity): issue 13's cases, a published ReDoS corpus,
real-world patterns that must stay accepted, and regexploit as an independent oracle."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from regex_strategies import patterns
from toolshape.regex import WORK_BUDGET, backtracking_problem, translate
from toolshape.regex.ambiguity import analyse


@pytest.mark.parametrize(
    ("pattern", "max_length", "expected"),
    [
        # issue 13: any maxLength used to silence the lint
        ("^(a+)+$", 100, "can backtrack catastrophically: '(a+)+'"),
        # bounded inner repeats and polynomial patterns used to pass
        ("^(a{1,30})+$", None, "can backtrack catastrophically: '(a{1,30})+'"),
        (
            "^a*a*a*a*a*a*b",
            400,
            "about n^6 steps, and maxLength 400 is too long for it; add a maxLength of at most 13",
        ),
        # the generator hung deriving cases for this one
        ("^(a+)+b", 60, "can backtrack catastrophically: '(a+)+'"),
        (
            "[a-z]+$",
            None,
            "the search retrying at every start (the pattern does not begin with '^') and '[a-z]+'",
        ),
    ],
)
def test_issue_cases_are_refused_with_the_sub_pattern_named(
    pattern: str, max_length: int | None, expected: str
) -> None:
    problem = backtracking_problem(pattern, max_length)
    assert problem is not None and expected in problem


@pytest.mark.parametrize(
    ("pattern", "degree"),
    [
        ("^a*b$", 0),
        ("a*b", 1),  # tried at every start: one degree more
        ("^a*a*b", 1),
        ("^a*a*a*a*a*a*b", 5),
        ("^[^@]+@[^@]+\\.[^@]+$", 1),
        ("^[a-z]+(-[a-z]+)*$", 0),
        ("^(a|b)*c(a|b)*$", 0),
        ("(A*A*X)*", 1),  # matches the empty string at the start: no retry at later starts
        ("a(?=.*b)", 1),  # the lookahead runs at every start of an unanchored pattern
        ("^\\d+\\.?\\d*$", 1),
    ],
)
def test_polynomial_degree(pattern: str, degree: int) -> None:
    verdict = analyse(pattern)
    assert verdict.exponential is None
    assert verdict.degree == degree


def test_a_polynomial_pattern_passes_exactly_up_to_the_budget() -> None:
    # degree 1: maxLength ** 2 <= WORK_BUDGET
    limit = int(WORK_BUDGET**0.5)
    assert backtracking_problem("^a*a*b", limit) is None
    assert backtracking_problem("^a*a*b", limit + 1) is not None
    assert backtracking_problem("^a*a*b", None) is not None


#: Exponential cases from the ReDoS tests of GitHub's CodeQL (swift/ql/test/library-tests/regex/
#: redos_variants.swift, "BAD" with firstMatch: search semantics, as JSON Schema's), kept where the
#: pattern is ECMA-262 that Python's re can run.
CODEQL_EXPONENTIAL = [
    r"(a*)*b",
    r"((a*)*b)",
    r"(a|aa?)*b",
    r"^_(__|.)+_$",
    r"^([a-z]+)+$",
    r"^([a-z]*)*$",
    r"^(([a-z])+.)+[A-Z]([a-z])+$",
    r"(b|a?b)*c",
    r'((.|[^a])*)"',
    r'((b|[^a])*)"',
    r'(([0-9]|[^a])*)"',
    r'(([a-z]|[d-h])*)"',
    r'(([^a-z]|[^0-9])*)"',
    r'((\d|[0-9])*)"',
    r'((\s|\s)*)"',
    r'((\w|G)*)"',
    r'((\d|\w)*)"',
    r'((\s|[\f])*)"',
    r'((\W|\D)*)"',
    r'((\S|\w)*)"',
    r'((1s|[\da-z])*)"',
    r'(([\d]+)*)"',
    r"^([^>a]+)*(>|$)",
    r"(\n\s*)+$",
    r"(a+|b+|c+)*c",
    r"(((a+a?)*)+b+)",
    r"(a+)+bbbb",
    r"(a+)+aaaaa$",
    r"(\n+)+\n\n$",
    r"([^X]+)*$",
    r"(([^X]b)+)*$",
    r"(([^X]b)+)*($|[^X]c)",
    r"((ab)+)*$",
    r"a{2,3}(b+)+X",
    r"^([\s\[\{\(]|#.*)*$",
    r"^(?:\s+|#.*|\(\?#[^)]*\))*(?:[?*+]|\{\d+(?:,\d*)?})",
    r"(\w*foobarbaz\w*foobarbaz\w*foobarbaz\w*foobarbaz\s*foobarbaz\d*foobarbaz\w*)+-",
]

#: Not exponential (CodeQL's "GOOD" with firstMatch that this analysis also proves).
CODEQL_NOT_EXPONENTIAL = [
    r".*",
    r"(a|aa?)b",
    r"^_(__|[^_])+_$",
    r"(\r\n|\r|\n)+",
    r"(a|.)*",
    r"(.|\n)*!",
    r"([\w.]+)*",
    r"([^\"']+)*",
    r'((a|[^a])*)"',
    r'((\s|\d)*)"',
    r"(\d+(X\d+)?)+",
    r"([0-9]+(X[0-9]*)?)*",
    r"((ab)+)*",
    r"(A*A*X)*",
    r"([^\\\]]+)*",
]


@pytest.mark.parametrize("pattern", CODEQL_EXPONENTIAL)
def test_published_exponential_cases_are_found(pattern: str) -> None:
    assert analyse(pattern).exponential is not None
    problem = backtracking_problem(pattern, 10)
    assert problem is not None and "catastrophically" in problem


@pytest.mark.parametrize("pattern", CODEQL_NOT_EXPONENTIAL)
def test_published_safe_cases_are_not_exponential(pattern: str) -> None:
    assert analyse(pattern).exponential is None


#: Real-world patterns that are not ambiguous: accepted with no maxLength at all.
SAFE = [
    r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
    r"^\d{4}-\d{2}-\d{2}$",
    r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$",
    r"^[a-z]+(-[a-z]+)*$",
    r"^[a-z0-9]+(?:-[a-z0-9]+)*$",
    r"^[a-z0-9][a-z0-9-]*$",
    r"^#[0-9a-fA-F]{6}$",
    r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$",
    r"^C[0-9]{6,10}$",
    r"^\+[1-9][0-9]{6,14}$",
    r"^[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,63}$",
    r"^\.?[A-Za-z0-9_-][A-Za-z0-9_.-]*(/\.?[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$",
    r"^[a-z]+/[A-Za-z0-9.+-]+$",
    r"^[^/\\]+$",
    r"\S",
    r"@security\.example\.com$",
    r"^(?!admin$)[a-z]+$",
    r"^([01]?\d|2[0-3]):[0-5]\d$",
    r"^(\d{1,3}\.){3}\d{1,3}$",
    r"^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$",
    r"^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$",  # the last '.' ends the domain: one way
    r"^(?=.*[0-9]).{12,}$",  # a lookahead right after '^' runs once, at position 0
    r"^(?=.*[A-Z])(?=.*\d)(?!.*\s).{8,64}$",
]


@pytest.mark.parametrize("pattern", SAFE)
def test_real_world_unambiguous_patterns_pass_without_max_length(pattern: str) -> None:
    assert backtracking_problem(pattern, None) is None


@pytest.mark.parametrize(
    ("pattern", "max_length"),
    [
        (r"^[^@\s]+@[^@\s]+\.[^@\s]+$", 254),  # which '.' ends the domain: quadratic, short enough
        (r"^\d+\.?\d*$", 1000),  # the . is optional: where the first \d+ ends is open
        (r"^[a-z0-9]+[a-z0-9-]*[a-z0-9]+$", 170),  # degree 2: up to 170
    ],
)
def test_polynomial_patterns_pass_with_a_short_enough_max_length(
    pattern: str, max_length: int
) -> None:
    assert backtracking_problem(pattern, max_length) is None
    assert backtracking_problem(pattern, None) is not None


def _regexploit_starriness(pattern: str) -> int:
    """regexploit's verdict (its command line reports starriness > 2) on the translated pattern."""
    sre = pytest.importorskip("regexploit.ast.sre")
    redos = pytest.importorskip("regexploit.redos")
    try:
        parsed = sre.SreOpParser().parse_sre(translate(pattern).removeprefix("(?a)"))
    except Exception:  # noqa: BLE001 - regexploit cannot read every pattern; then it has no verdict
        return 0
    return max((r.starriness for r in redos.find(parsed)), default=0)


@pytest.mark.parametrize("pattern", CODEQL_EXPONENTIAL + CODEQL_NOT_EXPONENTIAL + SAFE)
def test_everything_regexploit_flags_is_flagged(pattern: str) -> None:
    if _regexploit_starriness(pattern) > 2:
        assert backtracking_problem(pattern, None) is not None


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(patterns(lookarounds=False, backreferences=False))
def test_random_patterns_regexploit_flags_are_flagged(pattern: str) -> None:
    if _regexploit_starriness(pattern) > 2:
        assert backtracking_problem(pattern, None) is not None


@settings(max_examples=200, deadline=None)
@given(patterns(), st.one_of(st.none(), st.integers(0, 5000)))
def test_the_lint_never_raises(pattern: str, max_length: int | None) -> None:
    problem = backtracking_problem(pattern, max_length)
    assert problem is None or pattern in problem or repr(pattern) in problem


@pytest.mark.parametrize(
    "pattern", [r"^(a|a){50}$", r"^(\w{1,1000}\s?){1,1000}$", r"^([a-z0-9]{1,1000}[-.]?){1,50}$"]
)
def test_long_bounded_repeats_count_as_loops(pattern: str) -> None:
    # 2^50 ways to match '(a|a){50}': a bounded repeat this long is as bad as a loop
    assert analyse(pattern).exponential is not None


#: Where a group's body starts, in a pattern without lookbehinds: after '(' and the '?:', '?='
#: or '?!' that may follow it (a named group's '?<name>' too).
_GROUP_BODY = re.compile(r"(?<!\\)\((?:\?(?::|=|!|<[A-Za-z]\w*>))?")


def _with_dead_loops(pattern: str) -> str:
    """``pattern`` with ``(?:[]+)*`` at the start of every group: a loop over a class that
    matches nothing, so it matches only the empty string and never a character."""
    return _GROUP_BODY.sub(lambda found: found.group(0) + "(?:[]+)*", pattern)


@pytest.mark.parametrize(
    "pattern",
    [
        p
        for p in CODEQL_EXPONENTIAL
        + CODEQL_NOT_EXPONENTIAL
        + SAFE
        + [r"^()*$", r"^(a|)*b$", r"^(?:)+x$"]
        if "(" in p and "(?<=" not in p and "(?<!" not in p and not re.search(r"\[[^\]]*\(", p)
    ],
)
def test_a_loop_over_nothing_changes_no_verdict(pattern: str) -> None:
    """A position that reads no character ([], \\P{Any}, [^\\s\\S]) is no state of the search:
    looping over it is no way to match text twice (the lint once called ``([]*)*`` exponential,
    and --strict refused it)."""
    dead = _with_dead_loops(pattern)
    assert dead != pattern
    assert (backtracking_problem(dead, None) is None) == (
        backtracking_problem(pattern, None) is None
    ), dead
