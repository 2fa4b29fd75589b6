"""Every pattern runs in linear time in the generated validator (issue 20, class 2).

``toolshape.regex.linear.plan`` gives a pattern to Python's ``re`` only where ``re_is_linear``
proves ``re`` linear, and everything else to the runtime's ``_Linear`` matcher (a lazily built
DFA). These tests:

- count the matcher's work (characters read plus automaton states visited while it builds DFA
  states) on adversarial strings of growing size, for each reproduction of the issue and for
  patterns of each kind that backtracks in ``re``, and fail on growth faster than linear or
  above the bound the construction promises (n passes over the automaton);
- hold the matcher against ``re`` on random patterns and strings (hypothesis);
- check that the patterns the proof must not accept (the issue's reproductions) go to the matcher,
  and that plain contract patterns keep ``re``;
- run the reproductions through generated modules, and check that no pattern sees a key that
  ``propertyNames``' ``maxLength`` refused;
- hold ``re_is_bounded``'s bound (the patterns ``re`` keeps under a length bound) against a
  backtracking oracle, a model of ``re`` that counts its tests: on adversarial strings up to the
  length bound, for the issue's patterns and a family drawn from the proof's grammar, the oracle
  answers as ``re`` does and stays within the bound; on the patterns the proof refuses its work
  grows exponentially, and it goes past the bound a broken proof would give.

No wall-clock assertion: work is counted.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import random
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from regex_strategies import patterns
from support import ROOT, build_module
from toolshape.contract.errors import ContractError
from toolshape.project import runtime
from toolshape.regex import linear, translate
from toolshape.regex.charset import partition
from toolshape.regex.linear import (
    LinearError,
    plan,
    re_ends_in_a_run,
    re_is_bounded,
    re_is_finite,
    re_is_linear,
    re_linear_bound,
)
from toolshape.regex.syntax import (
    Alt,
    Assert,
    Char,
    Empty,
    Group,
    Node,
    Pattern,
    Repeat,
    Seq,
    nodes,
    parse,
)

_Linear = runtime.runtime_module()._Linear

SIZES = (500, 1000, 2000, 4000, 8000)


def matcher(pattern: str) -> Any:
    """A fresh ``_Linear`` for ``pattern`` (an empty DFA cache, work 0)."""
    return _Linear(list(plan(pattern).parts))


def size(pattern: str) -> int:
    """States plus edges of the pattern's automata: what one DFA state costs at most to build."""
    return sum(
        len(part["chars"]) + sum(len(e) for e in part["chars"] + part["eps"]) // 2
        for part in plan(pattern).parts
    )


def steps(pattern: str, text: str) -> int:
    """The matcher's work on ``text``: one step per character read, plus every automaton state
    visited while building DFA states."""
    found = matcher(pattern)
    found.search(text)
    return len(text) * len(found._parts) + int(found.work)


_RNG = random.Random(20)
_RANDOM_AB = "".join(_RNG.choice("ab") for _ in range(max(SIZES) + 100))


def _ab(n: int) -> str:
    """n letters a and b at random (the same letters for every n: a longer string extends a shorter)."""
    return _RANDOM_AB[:n]


#: (pattern, adversarial string of n characters): the issue's reproductions and one pattern of
#: each kind a backtracking matcher is slow on.
ADVERSARIAL: list[tuple[str, Callable[[int], str]]] = [
    ("^(?:a{0,8}){0,8}$", lambda n: "a" * n + "b"),
    ("^(?:(?:a|a){6}){4}$", lambda n: "a" * n + "b"),
    ("f.*o", lambda n: "f" * n),
    ("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", lambda n: "a@" + "." * n + " "),
    ("^a*a*a*a*a*a*b", lambda n: "a" * n),
    ("^(a+)+$", lambda n: "a" * n + "!"),
    ("(a|aa)*c", lambda n: "a" * n),
    ("[a-z]+$", lambda n: "a" * n + "!"),
    ("^x_[a-z]+[a-z0-9]*$", lambda n: "x_" + "a" * n + "!"),
    ("\\b(?:a+\\b ?)+x", lambda n: "a " * (n // 2)),
    ("^(?=.*[A-Z])(?!.*x).{3,}$", lambda n: "a" * n),
    # 2^11 DFA states: more than the cache holds, so it is dropped and rebuilt as it goes.
    ("(?:a|b)*a(?:a|b){10}c", _ab),
    ("\u00e9+(?:\u00e9|\U0001f600)*z", lambda n: "\u00e9\U0001f600" * (n // 2)),
]


@pytest.mark.parametrize("pattern, make", ADVERSARIAL, ids=[p for p, _ in ADVERSARIAL])
def test_the_matcher_s_work_grows_linearly(pattern: str, make: Callable[[int], str]) -> None:
    assert plan(pattern).source is None, "this pattern must not go to re"
    counted = [steps(pattern, make(n)) for n in SIZES]
    bound = 2 * size(pattern) + 2
    for n, work in zip(SIZES, counted, strict=True):
        assert work <= bound * (n + 3), (n, work, bound)
    # Doubling the input about doubles the work (4 times for quadratic growth); a little more
    # for the DFA states first built.
    for (n, a), b in zip(zip(SIZES, counted, strict=True), counted[1:], strict=False):
        assert b <= 2.2 * a + bound * 4, (n, a, b)


def test_a_dropped_cache_keeps_the_answers(monkeypatch: pytest.MonkeyPatch) -> None:
    """The DFA cache is dropped whenever it holds MAX_STATES states (made small here, so that
    it is dropped often and mid-text): the answers stay those of ``re``."""
    pattern = "(?:a|b)*a(?:a|b){10}c"
    found = matcher(pattern)
    compiled = re.compile(translate(pattern))
    monkeypatch.setattr(_Linear, "MAX_STATES", 24)
    drops = []
    dfa = type(found._parts[0][1])
    new_cache = dfa._new_cache

    def counted(self: Any) -> None:
        drops.append(1)
        new_cache(self)

    monkeypatch.setattr(dfa, "_new_cache", counted)
    for n in range(0, 600, 7):
        text = _ab(n) + ("c" if n % 2 else "")
        assert (found.search(text) is not None) == (compiled.search(text) is not None), n
    assert len(drops) > 20, len(drops)


ALPHABET = "abc1 -\u00e9\n"


def _program_of(pattern: str) -> Any:
    from toolshape.regex.linear import _program

    return _program(parse(pattern), True)


@settings(max_examples=400, deadline=None)
@given(patterns(lookarounds=False, backreferences=False), st.lists(st.text(ALPHABET, max_size=8)))
def test_the_matcher_agrees_with_re(pattern: str, texts: list[str]) -> None:
    """The matcher on the automaton of any pattern (even one plan() gives to re)."""
    ours = _Linear([_program_of(pattern)])
    compiled = re.compile(translate(pattern))
    for text in texts + ["", "abc", "a1 b", "cba\n-"]:
        assert (ours.search(text) is not None) == (compiled.search(text) is not None), text


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["?=", "?!"]), patterns(lookarounds=False, anchors=False)),
        min_size=1,
        max_size=2,
    ),
    patterns(lookarounds=False, backreferences=False, anchors=False),
    st.lists(st.text(ALPHABET, max_size=8)),
)
def test_leading_lookaheads_agree_with_re(
    looks: list[tuple[str, str]], rest: str, texts: list[str]
) -> None:
    pattern = "^" + "".join(f"({sign}{body})" for sign, body in looks) + rest
    try:
        chosen = plan(pattern)
    except LinearError:
        assume(False)
        raise
    compiled = re.compile(translate(pattern))
    ours = compiled if chosen.source is not None else _Linear(list(chosen.parts))
    for text in texts + ["", "abc", "a1 b"]:
        assert (ours.search(text) is not None) == (compiled.search(text) is not None), text


@pytest.mark.parametrize(
    "pattern",
    [
        "^(?:a{0,8}){0,8}$",  # the unrolled copies take an 'a' two ways
        "^(?:(?:a|a){6}){4}$",  # (a|a): two ways per character
        "^(a*)*$",  # two loops back to the same 'a'
        "^(?:a?)*b",  # a loop whose body can match empty
        "a*b",  # searched at every start, each start reading the whole string
        "^[a-z]+[a-z0-9]*$",
        "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$",
    ],
)
def test_re_is_not_trusted_where_it_backtracks(pattern: str) -> None:
    assert not re_is_linear(parse(pattern))
    assert plan(pattern).source is None


@pytest.mark.parametrize(
    "pattern",
    [
        "^C[0-9]{6}$",
        "^[0-9]{4}-[0-9]{2}-[0-9]{2}$",
        "^[a-z0-9][a-z0-9-]*$",
        "^\\+[1-9][0-9]{6,14}$",
        "^[a-z]{2}(-[A-Z]{2})?$",
        "^\\.?[A-Za-z0-9_-][A-Za-z0-9_.-]*(/\\.?[A-Za-z0-9_-][A-Za-z0-9_.-]*)*$",
        "@security\\.example\\.com$",  # unanchored, but no match is longer than 22 characters
        "^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$",
    ],
)
def test_patterns_with_one_way_per_character_keep_re(pattern: str) -> None:
    assert re_is_linear(parse(pattern))
    assert plan(pattern).source == translate(pattern)


def test_backreferences_and_lookaheads_in_loops_are_refused() -> None:
    with pytest.raises(LinearError, match="backreference"):
        plan("^(a*)\\1$")
    with pytest.raises(LinearError, match="lookaround"):
        plan("^a*(?:(?=a*b)a)*$")


# -- through generated modules -------------------------------------------------------------------


def _matchers(module: Any) -> list[Any]:
    return [value for value in vars(module).values() if isinstance(value, _Linear)]


@pytest.mark.parametrize(
    "pattern, make",
    [
        ("^(?:a{0,8}){0,8}$", lambda n: "a" * n + "b"),
        ("^(?:(?:a|a){6}){4}$", lambda n: "a" * n + "b"),
        ("f.*o", lambda n: "f" * n),
        ("^[^@ ]+@[^@ ]+\\.[^@ ]+$", lambda n: "a@" + "." * n + " "),
        ("^a*a*a*a*a*a*b", lambda n: "a" * n),
        ("^x_[a-z]+[a-z0-9]*$", lambda n: "x_" + "a" * n + "!"),
    ],
)
def test_generated_validators_check_patterns_in_linear_work(
    pattern: str, make: Callable[[int], str]
) -> None:
    """Each generates (the lint refused the polynomial ones without a maxLength before), and the
    validator's pattern check counts linear work, as a pattern, a patternProperties key and a
    propertyNames pattern."""
    module = build_module(
        {
            "type": "object",
            "properties": {"v": {"type": "string", "pattern": pattern}},
            "patternProperties": {pattern: {"type": "string"}},
            "propertyNames": {"pattern": pattern},
        }
    )
    found = _matchers(module)
    assert len(found) == 3
    for where in ("value", "key"):
        counted = []
        for n in SIZES[:4]:
            for m in found:
                m.__init__(list(plan(pattern).parts))  # an empty cache: count from zero
            text = make(n)
            module.validate({"v": text} if where == "value" else {text: "x"})
            counted.append(sum(m.work for m in found))
        for a, b in itertools.pairwise(counted):
            assert b <= 2 * a + 8 * size(pattern) + 64, (where, counted)


def test_pattern_properties_never_see_a_key_that_property_names_refused() -> None:
    module = build_module(
        {
            "type": "object",
            "propertyNames": {"maxLength": 10},
            "patternProperties": {"^(?:a{0,8}){0,8}$": {"type": "string"}, "^b": True},
            "additionalProperties": False,
        }
    )
    seen: list[int] = []

    class Spy:
        def __init__(self, real: Any) -> None:
            self.real = real

        def search(self, text: str) -> Any:
            seen.append(len(text))
            return self.real.search(text)

    for name, value in list(vars(module).items()):
        if isinstance(value, (_Linear, re.Pattern)):
            setattr(module, name, Spy(value))
    result = module.validate({"a" * 20_000: "x", "aa": 1, "b": 2})
    assert seen and max(seen) <= 10
    # The long key is refused for its length (and nothing else); the others are checked as before.
    assert [(e.path, e.code) for e in result.errors] == [
        ("/" + "a" * 20_000, "maxLength"),
        ("/aa", "type"),
    ]


@pytest.mark.parametrize(
    "pattern, expected",
    [("^(a*)\\1$", "backreference"), ("^a*(?:(?=a*b)a)*$", "lookaround")],
)
def test_the_checker_refuses_what_no_linear_matcher_serves(pattern: str, expected: str) -> None:
    with pytest.raises(ContractError) as caught:
        build_module(
            {"type": "object", "properties": {"v": {"type": "string", "pattern": pattern}}}
        )
    assert "cannot be checked in linear time" in str(caught.value)
    assert expected in str(caught.value)


# -- on every supported Python --------------------------------------------------------------------

_SCRIPT = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("runtime", sys.argv[1])
runtime = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runtime)
cases = json.load(sys.stdin)
out = []
for parts, texts in cases:
    matcher = runtime._Linear(parts)
    out.append([matcher.search(text) is not None for text in texts])
print(json.dumps(out))
"""

PYTHON_PATTERNS = [p for p, _ in ADVERSARIAL] + ["^\\bab?\\B", "x$|^y", "\u00e9(?:\U0001f600|a)*$"]
PYTHON_TEXTS = [
    "",
    "a",
    "ab",
    "abc",
    "x",
    "yx",
    "foo",
    "f\no",
    "Abc",
    "Abx",
    "\u00e9\U0001f600",
    "a b",
]


@pytest.mark.parametrize("minor", [9, 10, 11, 12, 13])
def test_the_runtime_matcher_agrees_with_re_on_every_supported_python(minor: int) -> None:
    import glob
    import subprocess
    from pathlib import Path

    found = sorted(glob.glob(f"/root/.pyenv/versions/3.{minor}.*/bin/python"))
    if not found:
        pytest.skip(f"no CPython 3.{minor} under /root/.pyenv/versions")
    runtime = Path(__file__).resolve().parents[1] / "generated" / "_runtime.py"
    cases = [[list(plan(p).parts) or [_program_of(p)], PYTHON_TEXTS] for p in PYTHON_PATTERNS]
    result = subprocess.run(
        [found[-1], "-I", "-c", _SCRIPT, str(runtime)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    expected = [
        [re.compile(translate(p)).search(text) is not None for text in PYTHON_TEXTS]
        for p in PYTHON_PATTERNS
    ]
    assert json.loads(result.stdout) == expected


# -- re within a proven bound ----------------------------------------------------------------------


def test_a_flat_pattern_keeps_re_under_its_max_length_only() -> None:
    email = "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"
    assert plan(email, 254).source == translate(email)
    assert plan(email).source is None  # no bound: quadratic in re
    assert plan(email, 100_000).source is None  # a bound too long for the budget
    # Nested repeats are not flat: no bound makes them re's.
    assert plan("^(?:a{0,8}){0,8}$", 65).source is None
    assert plan("^(?:(?:a|a){6}){4}$", 25).source is None

    def kinds(parameters: Any) -> set[str]:
        module = build_module({"type": "object", "properties": {"v": parameters}})
        return {
            "re" if isinstance(value, re.Pattern) else "linear"
            for value in vars(module).values()
            if isinstance(value, (re.Pattern, _Linear))
        }

    assert kinds({"type": "string", "maxLength": 254, "pattern": email}) == {"re"}
    assert kinds({"type": "string", "pattern": email}) == {"linear"}


def test_a_key_pattern_relies_on_property_names_max_length() -> None:
    email = "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"
    bounded = build_module(
        {"type": "object", "propertyNames": {"maxLength": 64}, "patternProperties": {email: {}}}
    )
    unbounded = build_module({"type": "object", "patternProperties": {email: {"type": "string"}}})
    assert any(isinstance(v, re.Pattern) for v in vars(bounded).values())
    assert not any(isinstance(v, re.Pattern) for v in vars(unbounded).values())
    result = bounded.validate({"a@" + "." * 100_000 + " ": 1})
    assert [e.code for e in result.errors] == ["maxLength"]


def test_a_format_beside_max_length_and_pattern_keeps_the_bound() -> None:
    """The pattern's check is an elif of maxLength even when a format is asserted too (the
    format check comes after it), so a too-long string never reaches the pattern and
    re_is_bounded's bound holds: the pattern runs as re, as it does without the format."""
    email = "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"
    for extra in ({}, {"format": "email"}):
        module = build_module(
            {
                "type": "object",
                "properties": {
                    "v": {"type": "string", "maxLength": 254, **extra, "pattern": email}
                },
            }
        )
        assert any(isinstance(v, re.Pattern) for v in vars(module).values()), extra
        assert not any(isinstance(v, _Linear) for v in vars(module).values()), extra
        too_long = "a" * 250 + "@b.co"  # of the format and the pattern, but over maxLength
        assert {e.code for e in module.validate({"v": too_long}).errors} == {"maxLength"}


def test_the_hostname_pattern_keeps_re_under_its_max_length() -> None:
    """contracts/web_search.yaml's hostname pattern: a repeated group between runs (issue 20)."""
    contract = yaml.safe_load((ROOT / "contracts" / "web_search.yaml").read_text(encoding="utf-8"))
    site = contract["parameters"]["properties"]["site"]
    pattern, max_length = site["pattern"], site["maxLength"]
    assert (pattern, max_length) == ("^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,63}$", 253)
    assert not re_is_linear(parse(pattern))  # a '.' after a label: the group's or the last one
    assert plan(pattern, max_length).source == translate(pattern)
    assert plan(pattern).source is None  # no bound: the DFA
    generated = (ROOT / "generated" / "web_search.py").read_text(encoding="utf-8")
    assert "_SITE_PATTERN: re.Pattern[str] = re.compile(" in generated
    assert "_Linear" not in generated


# -- a backtracking oracle: re_is_bounded's bound, held against a model of re ---------------------


class _TooMany(Exception):
    """The oracle went past the tests it was allowed."""


class Backtracker:
    """A backtracking matcher modelled on CPython's ``re`` (``_sre``), written here apart from
    ``linear.py`` and counting its tests: of a character against a class (at the end of the
    string too), and of ``^`` and ``$``, the steps ``re_is_bounded`` counts.

    Over toolshape's syntax tree, depth first, each node matched with a continuation (the rest
    of the pattern): alternatives in order; a repeat of one character class as ``re``'s
    REPEAT_ONE (the longest run first, then backing off one character at a time; lazy: the
    shortest first, then one more at a time); any other repeat as REPEAT with a counter
    (MAX_UNTIL, MIN_UNTIL when lazy): below the minimum it must iterate, at the maximum it
    must stop, in between it tries one more iteration before leaving (after leaving, when lazy),
    and, as ``re``, no further iteration where the last one took nothing. ``$`` passes at the
    very end only (``\\Z``, what ``translate`` writes). A search tries every start in turn.
    """

    def __init__(self, pattern: str, cap: int = 10**7) -> None:
        self.root = parse(pattern).root
        self.cap = cap
        self.tests = 0
        self.text = ""

    def search(self, text: str) -> bool:
        self.text, self.tests = text, 0
        return any(self._match(self.root, at, lambda _: True) for at in range(len(text) + 1))

    def _test(self, pos: int, node: Char) -> bool:
        self._count()
        return pos < len(self.text) and ord(self.text[pos]) in node.chars

    def _count(self) -> None:
        self.tests += 1
        if self.tests > self.cap:
            raise _TooMany(self.tests)

    def _match(self, node: Node, pos: int, then: Callable[[int], bool]) -> bool:
        if isinstance(node, Empty):
            return then(pos)
        if isinstance(node, Char):
            return self._test(pos, node) and then(pos + 1)
        if isinstance(node, Seq):
            items = node.items

            def step(i: int, at: int) -> bool:
                if i == len(items):
                    return then(at)
                return self._match(items[i], at, lambda after: step(i + 1, after))

            return step(0, pos)
        if isinstance(node, Alt):
            return any(self._match(option, pos, then) for option in node.options)
        if isinstance(node, Group):
            return self._match(node.body, pos, then)
        if isinstance(node, Assert) and node.kind in ("start", "end"):
            self._count()
            return pos == (0 if node.kind == "start" else len(self.text)) and then(pos)
        if isinstance(node, Repeat) and isinstance(node.body, Char):
            return self._repeat_one(node, node.body, pos, then)
        if isinstance(node, Repeat):
            return self._repeat(node, pos, then)
        raise NotImplementedError(node)

    def _repeat_one(self, node: Repeat, char: Char, pos: int, then: Callable[[int], bool]) -> bool:
        high = len(self.text) + 1 - pos if node.max is None else node.max
        length = 0
        if node.lazy:
            while length < node.min:
                if not self._test(pos + length, char):
                    return False
                length += 1
            while not then(pos + length):
                if length >= high or not self._test(pos + length, char):
                    return False
                length += 1
            return True
        while length < high and self._test(pos + length, char):
            length += 1
        return any(then(pos + n) for n in range(length, node.min - 1, -1))

    def _repeat(self, node: Repeat, pos: int, then: Callable[[int], bool]) -> bool:
        def boundary(count: int, at: int, last: int | None) -> bool:
            def again() -> bool:
                return self._match(node.body, at, lambda after: boundary(count + 1, after, at))

            if count < node.min:
                return again()
            more = (node.max is None or count < node.max) and at != last
            if node.lazy:
                return then(at) or (more and again())
            return (more and again()) or then(at)

        return boundary(0, pos, None)


@contextlib.contextmanager
def _deep() -> Iterator[None]:
    """Room for the oracle's continuations (a few frames per character)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20_000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _representatives(pattern: str) -> tuple[list[str], list[str]]:
    """One character of each atom the pattern's classes split the alphabet into, and (a list of
    at most one) a character in none of them."""
    sets = [node.chars for node in nodes(parse(pattern).root) if isinstance(node, Char)]
    reps = [chr(atom.ranges[0][0]) for atom in partition(sets)]
    inside = [c for c in reps if any(ord(c) in s for s in sets)]
    outside = [c for c in reps if c not in inside][:1]
    return inside, outside


def _witness(node: Node, rng: random.Random, reps: list[str], stretch: int) -> str:
    """A string ``node`` matches, its repeats taking up to ``stretch`` iterations past their
    minimum (an Alt takes an option at random)."""
    if isinstance(node, Char):
        return rng.choice([c for c in reps if ord(c) in node.chars])
    if isinstance(node, Seq):
        return "".join(_witness(item, rng, reps, stretch) for item in node.items)
    if isinstance(node, Alt):
        return _witness(rng.choice(node.options), rng, reps, stretch)
    if isinstance(node, Group):
        return _witness(node.body, rng, reps, stretch)
    if isinstance(node, Repeat):
        top = node.min + stretch if node.max is None else min(node.max, node.min + stretch)
        count = rng.choice([node.min, top, rng.randint(node.min, top)])
        return "".join(_witness(node.body, rng, reps, stretch) for _ in range(count))
    return ""


def _adversarial(pattern: str, max_length: int, rng: random.Random, per_length: int) -> list[str]:
    """Strings of growing length up to ``max_length`` built to make a backtracking matcher work:
    matches cut short or extended by one character (near-misses, a failing last character),
    long runs of one character, runs broken by many separators, and random mixes, over one
    character of each class atom and one outside every class."""
    inside, outside = _representatives(pattern)
    chars = inside + outside
    lengths = sorted({0, 1, 2, 3, max_length} | {2**i for i in range(2, 16) if 2**i < max_length})
    root = parse(pattern).root
    found: list[str] = []
    for n in lengths:
        candidates = {c * n for c in chars}
        for a, b in itertools.product(chars, repeat=2):
            candidates.add(a * (n - 1) + b)
            for j in (1, 2):
                unit = a * j + b
                candidates.add((unit * (n // len(unit) + 1))[:n])
                candidates.add((unit * (n // len(unit) + 1))[: n - 1] + a)
        for _ in range(8):
            match = _witness(root, rng, inside, stretch=max(1, n // 2))[:n]
            candidates.add(match)
            for c in chars:
                candidates.add((match + c)[:n])
                candidates.add(match[:-1] + c)
        candidates.update("".join(rng.choices(chars, k=n)) for _ in range(4))
        picked = sorted(t for t in candidates if len(t) <= max_length)
        found.extend(rng.sample(picked, min(per_length, len(picked))))
    return found


def _holds_within_the_bound(pattern: str, texts: list[str]) -> None:
    """On each text, the oracle answers as ``re`` does and makes at most the tests
    ``re_is_bounded`` bounds ``re``'s steps by for strings of that length."""
    root = parse(pattern).root
    compiled = re.compile(translate(pattern))
    # One oracle for the pattern (it parses it), its cap set per text; one bound per length
    # (many texts share a length, and the bound depends on nothing else).
    oracle = Backtracker(pattern)
    bounds: dict[int, int | None] = {}
    with _deep():
        for text in texts:
            if len(text) not in bounds:
                bounds[len(text)] = re_is_bounded(root, len(text))
            bound = bounds[len(text)]
            assert bound is not None, (pattern, len(text))
            oracle.cap = bound
            try:
                found = oracle.search(text)
            except _TooMany:
                raise AssertionError(f"{pattern!r} on {text!r}: over the bound {bound}") from None
            assert found == (compiled.search(text) is not None), (pattern, text)


#: The issue's patterns and the flat one that kept re before: (pattern, maxLength).
BOUNDED = [
    ("^[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,63}$", 253),
    ("^[a-z]+(-[a-z]+)*$", 253),
    ("^\\d+(\\.\\d+){0,3}$", 64),
    ("^[a-z0-9]+(?:[._-][a-z0-9]+)*@[a-z0-9]+(?:\\.[a-z0-9]+)*$", 254),
    ("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$", 254),
    ("^[a-z]+?(?:-[0-9]{2,4}[a-z]?)+$", 128),  # a lazy run, a bounded one in the loop
]


@pytest.mark.parametrize("pattern, max_length", BOUNDED, ids=[p for p, _ in BOUNDED])
def test_re_stays_within_the_bound_on_the_issue_s_patterns(pattern: str, max_length: int) -> None:
    assert re_is_bounded(parse(pattern).root, max_length) is not None
    inside, outside = _representatives(pattern)
    short = ["".join(t) for n in range(6) for t in itertools.product(inside + outside, repeat=n)]
    rng = random.Random(20)
    _holds_within_the_bound(pattern, short + _adversarial(pattern, max_length, rng, 60))


_CLASSES = [
    "a",
    "b",
    "[ab]",
    "[a-z]",
    "\\d",
    "[a-z0-9]",
    "\\.",
    "-",
    "[.-]",
    "@",
    "[^@.]",
]
_RUN_COUNTS = ["", "", "+", "*", "?", "{2}", "{2,4}", "{0,3}", "+?", "*?"]
_LOOP_COUNTS = ["*", "+", "?", "{2}", "{0,3}", "{1,4}", "*?"]


def _random_pattern(rng: random.Random) -> str:
    """``^``, one to four segments (a class repeated, or a group of one to three of those,
    repeated), ``$`` or not: the grammar of re_is_bounded's patterns, and what it must refuse
    (overlapping classes, bodies that match empty, lazy loops)."""

    def run() -> str:
        return rng.choice(_CLASSES) + rng.choice(_RUN_COUNTS)

    segments = []
    for _ in range(rng.randint(1, 4)):
        if rng.random() < 0.5:
            body = "".join(run() for _ in range(rng.randint(1, 3)))
            segments.append(rng.choice(["(", "(?:"]) + body + ")" + rng.choice(_LOOP_COUNTS))
        else:
            segments.append(run())
    return "^" + "".join(segments) + rng.choice(["$", ""])


def _family(count: int, max_length: int) -> list[str]:
    rng = random.Random(20)
    drawn = dict.fromkeys(_random_pattern(rng) for _ in range(count))
    return [p for p in drawn if re_is_bounded(parse(p).root, max_length) is not None]


def test_re_stays_within_the_bound_on_a_family_of_patterns() -> None:
    """Every pattern of a fixed draw from the grammar that the proof accepts, on adversarial
    strings up to the length bound; the draw holds patterns of each kind the proof is for.
    """
    accepted = _family(600, 40)
    needs_bound = [p for p in accepted if not re_is_linear(parse(p))]
    with_loops = [p for p in needs_bound if "(" in p]
    assert len(accepted) >= 100 and len(needs_bound) >= 25 and len(with_loops) >= 10, (
        len(accepted),
        len(needs_bound),
        len(with_loops),
    )
    rng = random.Random(20)
    for pattern in accepted:
        _holds_within_the_bound(pattern, _adversarial(pattern, 40, rng, 6))


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 40))
def test_re_stays_within_the_bound_on_random_patterns(rng: random.Random, max_length: int) -> None:
    pattern = _random_pattern(rng)
    assume(re_is_bounded(parse(pattern).root, max_length) is not None)
    _holds_within_the_bound(pattern, _adversarial(pattern, max_length, rng, 8))


@settings(max_examples=300, deadline=None)
@given(
    patterns(lookarounds=False, backreferences=False),
    st.lists(st.text(ALPHABET, max_size=8)),
)
def test_the_oracle_answers_as_re_does(pattern: str, texts: list[str]) -> None:
    """The oracle is a matcher of the same language as ``re`` on any pattern of the strategy
    (alternations, nested and lazy repeats, anchors), not only the ones the proof accepts.
    """
    assume("\\b" not in pattern and "\\B" not in pattern)
    compiled = re.compile(translate(pattern))
    oracle = Backtracker(pattern, cap=200_000)  # search() starts each text's count at 0
    with _deep():
        for text in texts + ["", "abc", "a1 b", "aaab", "ab\n"]:
            try:
                found = oracle.search(text)
            except _TooMany:
                continue
            assert found == (compiled.search(text) is not None), text


#: Patterns the proof refuses, each with the strings a backtracking matcher is slow on.
REFUSED: list[tuple[str, Callable[[int], str]]] = [
    ("^(a|a)*$", lambda n: "a" * n + "!"),  # two ways per character
    ("^(?:a{0,8}){0,8}$", lambda n: "a" * n + "!"),  # a body that can match empty
    ("^(?:(?:a|a){6}){4}$", lambda n: "a" * n + "!"),  # a repeat in a loop's body
    (
        "^[a-z]+([a-z]+)*$",
        lambda n: "a" * n + "!",
    ),  # the body's run, then the body again
    (
        "^(?:[a-z]+-?)*$",
        lambda n: "a" * n + "!",
    ),  # the same, past an optional separator
    ("^(?:a+b?)+c$", lambda n: "a" * n),
]


@pytest.mark.parametrize("pattern, make", REFUSED, ids=[p for p, _ in REFUSED])
def test_the_oracle_sees_what_the_proof_refuses(
    pattern: str, make: Callable[[int], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check can fail. On the patterns the proof refuses, the oracle's work grows
    exponentially: four more characters multiply it by more than 8, at 8 characters as at 4 (a
    polynomial's factor ((n + 4) / n)^D falls as n grows; the proof's bounds are polynomials
    of degree d + 1). And a proof that saw no overlap and no empty body (every junction
    determined) accepts four of them, with a bound the oracle goes past."""
    root = parse(pattern).root
    assert all(re_is_bounded(root, n) is None for n in (8, 64, 253))
    with _deep():
        counted = []
        for n in (4, 8, 12):
            oracle = Backtracker(pattern)
            assert not oracle.search(make(n))
            counted.append(oracle.tests)
    assert counted[1] > 8 * counted[0] and counted[2] > 8 * counted[1], counted

    monkeypatch.setattr(linear, "_overlap", lambda a, b: False)
    monkeypatch.setattr(linear, "_nullable", lambda segments: False)
    if re_is_bounded(root, 40) is not None:  # the broken proof accepts it
        with pytest.raises(AssertionError, match="over the bound"):
            _holds_within_the_bound(pattern, [make(n) for n in range(0, 30, 3)])


# -- re with no length bound: finite spans, and runs before a finite tail -------------------------

#: Realistic patterns ``re_is_linear`` refuses (options sharing a first character, a run that
#: backs off) on which ``re`` is linear with no length bound: they keep ``re`` (issue 20).
REALISTIC = [
    "^(GET|POST|PUT|PATCH|DELETE)$",
    "^(en|en-US|en-GB|fr)$",
    "^([01]?\\d|2[0-3]):[0-5]\\d$",
    "^.*\\.pdf$",
    "^.*\\.(pdf|docx)$",
    "(GET|POST|PUT|PATCH|DELETE)",
    "\\d{3,}",
    "[a-z]+",
    "id-[0-9]+",
]


def _linear_bound(pattern: str) -> Callable[[int], int] | None:
    """The least bound the finite-span proofs give ``re``'s steps on a string of n characters
    (``re_is_finite``: C + n anchored, (n + 1) C not; ``re_linear_bound``: a (n + 1) + b;
    ``re_ends_in_a_run``: K (n + 1)), or None when none accepts the pattern."""
    tree = parse(pattern)
    bounds: list[Callable[[int], int]] = []
    tries = re_is_finite(tree)
    if tries is not None:
        if linear._items(tree.root)[:1] == [Assert("start")]:
            bounds.append(lambda n: tries + n)
        else:
            bounds.append(lambda n: (n + 1) * tries)
    found = re_linear_bound(tree.root)
    if found is not None:
        a, b = found
        bounds.append(lambda n: a * (n + 1) + b)
    constant = re_ends_in_a_run(tree)
    if constant is not None:
        bounds.append(lambda n: constant * (n + 1))
    if not bounds:
        return None
    return lambda n: min(bound(n) for bound in bounds)


def _holds_within_the_linear_bound(pattern: str, texts: list[str]) -> None:
    """On each text, of any length, the oracle answers as ``re`` does and makes at most the
    tests the finite-span proofs bound ``re``'s steps by."""
    bound = _linear_bound(pattern)
    assert bound is not None, pattern
    compiled = re.compile(translate(pattern))
    oracle = Backtracker(pattern)  # one per pattern (it parses it), its cap set per text
    with _deep():
        for text in texts:
            oracle.cap = bound(len(text))
            try:
                found = oracle.search(text)
            except _TooMany:
                raise AssertionError(
                    f"{pattern!r} on {text!r}: over the bound {bound(len(text))}"
                ) from None
            assert found == (compiled.search(text) is not None), (pattern, text)


#: Lengths far past any maxLength: the proofs that need none are held there.
LONG = 4096


@pytest.mark.parametrize("pattern", REALISTIC)
def test_realistic_patterns_keep_re_with_no_length_bound(pattern: str) -> None:
    assert not re_is_linear(parse(pattern))
    assert plan(pattern).source == translate(pattern)
    assert plan(pattern, 64).source == translate(pattern)
    module = build_module(
        {"type": "object", "properties": {"v": {"type": "string", "pattern": pattern}}}
    )
    assert any(isinstance(v, re.Pattern) for v in vars(module).values())
    assert not any(isinstance(v, _Linear) for v in vars(module).values())


@pytest.mark.parametrize("pattern", REALISTIC)
def test_re_stays_within_the_linear_bound_on_the_realistic_patterns(pattern: str) -> None:
    inside, outside = _representatives(pattern)
    short = ["".join(t) for n in range(4) for t in itertools.product(inside + outside, repeat=n)]
    rng = random.Random(20)
    _holds_within_the_linear_bound(pattern, short + _adversarial(pattern, LONG, rng, 30))


def test_the_linear_bounds_of_the_realistic_patterns() -> None:
    """The constants the proofs give: a handful of tests per character (the ``^`` test of each
    start, the run's scan and its back-off, the tail tried after each length)."""
    assert re_linear_bound(parse("^.*\\.pdf$").root) == (14, 0)
    assert re_linear_bound(parse("^.*\\.(pdf|docx)$").root) == (24, 0)
    assert re_linear_bound(parse("^(GET|POST|PUT|PATCH|DELETE)$").root) == (1, 26)
    assert re_is_finite(parse("(GET|POST|PUT|PATCH|DELETE)")) == 21
    # Nothing but the anchors: the test of '$' counts too.
    assert re_linear_bound(parse("^$").root) == (1, 1)
    _holds_within_the_linear_bound("^$", ["", "a", "ab"])
    _holds_within_the_bound("^$", ["", "a", "ab"])
    # The email pattern is quadratic in re with no bound: a run after an undetermined junction.
    assert re_linear_bound(parse("^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$").root) is None


_ATOMS = ["a", "b", "[ab]", "[a-c]", "\\d", "-", "\\."]
_ATOM_COUNTS = ["", "", "?", "??", "{2}", "{0,2}", "{1,3}"]
_GROUP_COUNTS = ["", "", "?", "{2}", "{0,2}", "{1,2}"]
_RUN_ENDS = ["*", "+", "*?", "+?"]


def _finite_piece(rng: random.Random, depth: int) -> str:
    """A sequence of one to three items of finite span: atoms, counted or optional, and groups
    of two or three alternatives (options that share a first character included)."""
    items = []
    for _ in range(rng.randint(1, 3)):
        if depth < 2 and rng.random() < 0.35:
            options = [_finite_piece(rng, depth + 1) for _ in range(rng.randint(2, 3))]
            items.append(rng.choice(["(", "(?:"]) + "|".join(options) + ")")
            items[-1] += rng.choice(_GROUP_COUNTS)
        else:
            items.append(rng.choice(_ATOMS) + rng.choice(_ATOM_COUNTS))
    return "".join(items)


def _finite_pattern(rng: random.Random) -> str:
    """A pattern of finite span, anchored or not; or ``^``, one unbounded run, a finite tail; or
    a finite part, then one unbounded run that ends the pattern, anchored or not."""
    end = rng.choice(["$", ""])
    run = rng.choice(_ATOMS + [".", "[^-]"]) + rng.choice(_RUN_ENDS + ["{2,}"])
    kind = rng.random()
    if kind < 0.4:
        return rng.choice(["^", ""]) + _finite_piece(rng, 0) + end
    if kind < 0.8:
        return "^" + run + _finite_piece(rng, 1) + end
    return rng.choice(["^", ""]) + _finite_piece(rng, 1) + run


def test_re_stays_within_the_linear_bound_on_a_family_of_patterns() -> None:
    """Every pattern of a fixed draw from the grammar that the finite-span proofs accept, on
    adversarial strings far longer than any of its matches; the draw holds patterns of each
    kind, and patterns ``re_is_linear`` refuses."""
    rng = random.Random(20)
    drawn = list(dict.fromkeys(_finite_pattern(rng) for _ in range(400)))
    accepted = [p for p in drawn if _linear_bound(p) is not None]
    new = [p for p in accepted if not re_is_linear(parse(p))]
    runs = [p for p in new if re_linear_bound(parse(p).root) and re_is_finite(parse(p)) is None]
    unanchored = [p for p in new if not p.startswith("^")]
    ending = [p for p in new if re_ends_in_a_run(parse(p)) is not None]
    counts = (len(drawn), len(accepted), len(new), len(runs), len(unanchored), len(ending))
    assert min(counts[2:]) >= 15 and len(new) >= 80, counts
    rng = random.Random(20)
    for pattern in accepted:
        # 1,024 characters: far past the drawn patterns' spans (a few dozen), and where work
        # that grows with the square of the length passes the largest bound (64 tests per
        # character plus 10,000) from n * n / 14 on; the realistic patterns are held to LONG.
        _holds_within_the_linear_bound(pattern, _adversarial(pattern, LONG // 4, rng, 3))


#: Patterns the finite-span proofs refuse, each with the strings a backtracking matcher is slow
#: on: unanchored runs (each start scans to the end), finite spans whose paths multiply out,
#: unbounded loops with two ways per character.
REFUSED_UNBOUNDED: list[tuple[str, Callable[[int], str]]] = [
    ("f.*o", lambda n: "f" * n),
    (".+@.+", lambda n: "a" * n),
    ("^(?:a{0,8}){0,8}$", lambda n: "a" * n + "!"),
    ("^(?:(?:a|a){6}){4}$", lambda n: "a" * n + "!"),
    ("^(a|a)*$", lambda n: "a" * n + "!"),
    ("[a-z]+$", lambda n: "a" * n + "!"),  # a test after the run: each start scans to the end
    ("\\d+-\\d+", lambda n: "1" * n),  # no fixed span before the last run
]


@pytest.mark.parametrize("pattern, make", REFUSED_UNBOUNDED, ids=[p for p, _ in REFUSED_UNBOUNDED])
def test_the_oracle_goes_past_any_linear_bound_on_what_the_proofs_refuse(
    pattern: str, make: Callable[[int], str]
) -> None:
    """They go to the linear matcher, and the oracle's work on them passes the most the
    finite-span proofs ever allow (MAX_TESTS_PER_CHARACTER per character plus
    MAX_FINITE_TESTS) at some length: no sound linear bound of that size exists for them."""
    tree = parse(pattern)
    assert re_is_finite(tree) is None and re_linear_bound(tree.root) is None
    assert re_ends_in_a_run(tree) is None and _linear_bound(pattern) is None
    assert plan(pattern).source is None
    with _deep():
        for n in (8, 16, 32, 64, 256, 1024):
            cap = linear.MAX_TESTS_PER_CHARACTER * (n + 1) + linear.MAX_FINITE_TESTS
            try:
                Backtracker(pattern, cap=cap).search(make(n))
            except _TooMany:
                return
    raise AssertionError(f"{pattern!r}: the oracle stayed within a linear bound")


def test_the_oracle_sees_a_broken_finite_span_proof(monkeypatch: pytest.MonkeyPatch) -> None:
    """The checks can fail. A count of the automaton's test edges instead of its paths accepts
    the finite patterns whose paths multiply out, and one that forgot that an unanchored
    search tries every start (reading ``f.*o`` as ``^f.*o``) accepts ``f.*o``: the oracle goes
    past both bounds."""
    from toolshape.regex.automaton import build

    def edges(node: Node, cap: int) -> int | None:
        nfa = build(Pattern(node, ()), at_any_start=False)
        return sum(len(c) for c in nfa.chars) + sum(g is not None for e in nfa.eps for g, _ in e)

    monkeypatch.setattr(linear, "_tests", edges)
    for pattern in ("^(?:a{0,8}){0,8}$", "^(?:(?:a|a){6}){4}$"):
        assert re_is_finite(parse(pattern)) is not None  # the broken proof accepts it
        with pytest.raises(AssertionError, match="over the bound"):
            _holds_within_the_linear_bound(pattern, ["a" * n + "!" for n in (4, 16, 30)])
    monkeypatch.undo()

    a, b = re_linear_bound(parse("^f.*o").root) or (0, 0)
    assert a > 0
    with _deep(), pytest.raises(_TooMany):
        Backtracker("f.*o", cap=a * 1025 + b).search("f" * 1024)


def test_unanchored_patterns_keep_re_only_where_a_search_ends_early() -> None:
    """A pattern that ends in its only unbounded run keeps re; a test after the run, or a second
    run before it, leaves it to the linear matcher (quadratic in re)."""
    for pattern in ("\\d{3,}", "[a-z]+", "x(\\d+)", "[a-z]+?"):
        assert re_ends_in_a_run(parse(pattern)) is not None, pattern
        assert plan(pattern).source == translate(pattern)
    for pattern in ("[a-z]+$", "f.*o", ".+@.+", "a+a+", "a*b"):
        assert plan(pattern).source is None, pattern
