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
  ``propertyNames``' ``maxLength`` refused.

No wall-clock assertion: work is counted.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from collections.abc import Callable
from typing import Any

import pytest
import yaml
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from regex_strategies import patterns
from support import ROOT, build_module
from toolshape.contract.errors import ContractError
from toolshape.project import pipeline
from toolshape.regex import translate
from toolshape.regex.linear import LinearError, plan, re_is_linear
from toolshape.regex.syntax import parse

_Linear = pipeline.runtime_module()._Linear

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


def test_a_format_between_max_length_and_pattern_voids_the_bound() -> None:
    """The pattern's check follows the format check (elif), so a too-long string that is of
    the format reaches the pattern: re_is_bounded's bound does not hold there."""
    email = "^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$"
    module = build_module(
        {
            "type": "object",
            "properties": {
                "v": {"type": "string", "maxLength": 254, "format": "email", "pattern": email}
            },
        }
    )
    assert not any(isinstance(v, re.Pattern) for v in vars(module).values())
    assert any(isinstance(v, _Linear) for v in vars(module).values())


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
