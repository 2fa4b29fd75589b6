"""Every generator analysis on counted work (issue 20, class 4).

Each test counts work (matcher steps, comparisons, calls) on inputs of growing size and fails on
growth beyond linear; the reproductions of the issue run in a child process, killed if it hangs
(a bound on the child, never a timed assertion).
"""

from __future__ import annotations

import inspect
import itertools
import json
import re
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from regex_strategies import patterns
from support import CONTRACTS, calls_made, example_contracts
from toolshape.contract import shared
from toolshape.project import pipeline, planning
from toolshape.regex import linear, matcher, translate
from toolshape.regex.witness import near_misses, strings

#: The issue's pattern: 2^28 ways for a backtracking matcher to fail on 27 ``a`` and a ``b``.
NESTED = "^(?:(?:a|a){7}){4}$"

#: Patterns whose backtracking (or unrolled automaton) is costly, with a text to grow.
COSTLY = [
    (NESTED, "a"),
    ("^(a|a)*$", "a"),
    ("^(?:[a-z]{1000}){1000}", "ab"),
    ("^(?:a{1,30})+$", "a"),
    ("^(?=a*c)a", "a"),
    ("(?=a*c)a", "a"),  # unanchored: tried at every position, one backward pass answers all
    ("(?!(?=a*b)a*c)a", "a"),
    ("(?<=a{3})b", "a"),
    ("\\b(?:\\w+\\s?)+$", "ab "),
    ("(?:x|y|z)+$", "xyz"),
]


def _limit_cpu() -> None:
    """A safety net, not the test: a hang (the old uncounted ``re`` call) is killed after 120
    seconds of the child's own CPU (about 40 times what the run takes), so CI does not wait
    forever. CPU time, not elapsed time: a busy machine does not bring it closer."""
    resource.setrlimit(resource.RLIMIT_CPU, (120, 120))


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolshape", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        preexec_fn=_limit_cpu,
    )


def _grows_linearly(
    cost: Callable[[int], int], sizes: tuple[int, ...] = (50, 100, 200, 400)
) -> None:
    """Each doubling of the input adds at most about twice the work the previous one added (linear
    growth doubles the increase, quadratic growth would quadruple it)."""
    cost(sizes[0])  # once before counting: what is built once per process (imports, caches)
    costs = [cost(n) for n in sizes]
    added = [high - low for low, high in itertools.pairwise(costs)]
    for before, after in itertools.pairwise(added):
        assert after <= 2.5 * before + 100, (sizes, costs)


def _steps(pattern: str, text: str) -> int:
    steps = matcher.Steps()
    matcher.search(pattern, text, steps)
    return steps.used


@pytest.mark.parametrize(("pattern", "unit"), COSTLY)
def test_matching_a_contract_pattern_costs_steps_linear_in_the_text(
    pattern: str, unit: str
) -> None:
    _grows_linearly(lambda n: _steps(pattern, unit * n + "!"))


#: Patterns of n repeated items that no proof of linear.py accepts cheaply: the planner tries
#: every proof on them (each tail of a pattern, each junction, each epsilon chain).
PLANNED = {
    "optional items": lambda n: "^" + "a?" * n + "$",
    "runs and optional items": lambda n: "^" + "a*b?" * n + "$",
    "runs that overlap what follows": lambda n: "^" + "[ab]*a" * n + "$",
    "counted repeats": lambda n: "^" + "a{0,2}" * n + "c$",
    "a loop of optional items": lambda n: "^(?:" + "ab?" * n + ")*$",
    "unanchored": lambda n: "a?" * n + "b",
    "a long tail of fixed span": lambda n: "^.*" + "(a|ab)" * n + "$",
}


@pytest.mark.parametrize("make", PLANNED.values(), ids=PLANNED.keys())
def test_planning_a_pattern_is_linear_in_its_length(make: Callable[[int], str]) -> None:
    """Which matcher serves a pattern (regex.linear.plan: re_is_linear, re_is_finite,
    re_linear_bound, re_ends_in_a_run, re_is_bounded) is decided in calls linear in the
    pattern's length, and a long one is an answer, not a RecursionError."""

    def cost(n: int) -> int:
        linear.plan.cache_clear()
        return calls_made(lambda: linear.plan(make(n), 256))

    _grows_linearly(cost, (100, 200, 400, 800))


def test_a_backreference_is_counted_and_stops_at_the_limit() -> None:
    steps = matcher.Steps(10_000)
    with pytest.raises(matcher.OutOfSteps):
        matcher.search("^(a*)(a*)(a*)\\1\\2\\3b", "a" * 400, steps)
    assert steps.used <= 10_000 + 1000


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(patterns(backreferences=False), patterns(lookarounds=False)),
    st.lists(st.sampled_from("abc1 "), max_size=7).map("".join),
)
def test_the_counted_matcher_agrees_with_re_on_small_inputs(pattern: str, text: str) -> None:
    # (A backreference to a group inside a lookaround is read as unset: see matcher's docstring.)
    # Python's re on a pattern of six leaves and seven characters is bounded: the reference here.
    expected = re.search(translate(pattern), text) is not None
    assert matcher.search(pattern, text) == expected, (pattern, text)


@pytest.mark.parametrize(
    ("pattern", "text", "expected"),
    [
        ("(?<=ab)c", "abc", True),
        ("(?<=ab)c", "bbc", False),
        ("(?<!a)b", "ab", False),
        ("\\bfoo\\b", "a foo.", True),
        ("\\Bfoo", "a foo", False),
        ("^(a|b)\\1$", "aa", True),
        ("^(a|b)\\1$", "ab", False),
        (
            "^(?:(a)|b)\\1$",
            "b",
            False,
        ),  # Python's meaning: a group that took no part matches nothing
        ("^(?=.*[A-Z])(?=.*\\d).{8,}$", "Passw0rdx", True),
        ("^(?=.*[A-Z])(?=.*\\d).{8,}$", "password1", False),
        ("^[a-z]{2,3}$", "abcd", False),
        ("^(?:ab){2,}$", "ababab", True),
        ("x{0}y", "y", True),
        ("$", "", True),
    ],
)
def test_the_counted_matcher_on_known_cases(pattern: str, text: str, expected: bool) -> None:
    assert matcher.search(pattern, text) == expected
    assert (re.search(translate(pattern), text) is not None) == expected


def _record(seen: list[str], pattern: str) -> None:
    """Note ``pattern`` when the code two frames up (the caller of the wrapper) is the generator's."""
    frame = inspect.currentframe()
    caller = frame.f_back.f_back if frame and frame.f_back else None
    if caller is not None and caller.f_globals.get("__name__", "").startswith("toolshape."):
        seen.append(pattern)


@pytest.fixture
def contract_patterns_to_re(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Every pattern ``re`` matches with while it is active, when it is a contract pattern's
    translation and the generator's code asks (compiling one is linear and allowed; matching with
    it is not). The generated module's own matching is the generated runtime's business."""
    seen: list[str] = []
    original = re.compile

    class Guarded:
        def __init__(self, compiled: re.Pattern[str]) -> None:
            self.compiled = compiled

        def __getattr__(self, name: str) -> Any:
            if name in ("search", "match", "fullmatch", "finditer", "findall", "sub", "split"):
                _record(seen, self.compiled.pattern)
            return getattr(self.compiled, name)

    def compile_(pattern: Any, flags: int = 0) -> Any:
        compiled = original(pattern, flags)
        if isinstance(pattern, str) and pattern.startswith("(?a)"):  # translate()'s output
            return Guarded(compiled)
        return compiled

    monkeypatch.setattr(re, "compile", compile_)
    for name in ("search", "match", "fullmatch"):
        real = getattr(re, name)

        def direct(pattern: Any, *args: Any, _real: Any = real) -> Any:
            if isinstance(pattern, str) and pattern.startswith("(?a)"):
                _record(seen, pattern)
            return _real(pattern, *args)

        monkeypatch.setattr(re, name, direct)
    yield seen


def test_generate_never_matches_a_contract_pattern_with_re(
    contract_patterns_to_re: list[str], tmp_path: Path
) -> None:
    """By construction: the generator (checker, reference evaluator, derivation, witness search)
    matches contract patterns only with the counted matcher, for every example contract."""
    from toolshape.codegen.render import generation_context

    context = generation_context()
    for path in example_contracts():
        rel = PurePosixPath(path.relative_to(CONTRACTS).as_posix())
        raw = path.read_bytes()
        files = shared.gather(raw, str(path), rel, planning.shared_reader(CONTRACTS))
        pipeline.generate(raw, str(path), rel, context, files)
    assert contract_patterns_to_re == []


def test_the_witness_search_charges_confirmation_to_its_steps() -> None:
    for count in (1, 3):
        found = strings([NESTED], count=count, steps=20_000)
        assert found.found[:1] == ("a" * 28,)
        missed = near_misses(NESTED, count=count, steps=20_000)
        assert missed.found
        # NESTED's language, exactly 28 "a", written so that ``re`` decides it at once: asking
        # ``re`` with NESTED itself is the 2^28-path search this file is about (30 s a miss).
        assert all(re.search("^a{28}$", t) is None for t in missed.found), missed.found


def test_lint_and_generate_of_the_issue_pattern_finish(tmp_path: Path) -> None:
    """The issue's reproduction: one ``re.search`` of the near-miss search never returned."""
    (tmp_path / "nested.yaml").write_text(
        "name: nested\ndescription: Nested counted alternation.\nparameters:\n  type: object\n"
        f"  properties:\n    code: {{type: string, pattern: '{NESTED}'}}\n  required: [code]\n",
        encoding="utf-8",
    )
    linted = _run("lint", "nested.yaml", cwd=tmp_path)
    assert linted.returncode == 0, linted.stdout + linted.stderr
    generated = _run("generate", "nested.yaml", "--out", "out", cwd=tmp_path)
    assert generated.returncode == 0, generated.stdout + generated.stderr
    assert '"' + "a" * 28 + '"' in (tmp_path / "out" / "tests" / "test_nested.py").read_text(
        encoding="utf-8"
    )


# -- enums: linear in the number of values ---------------------------------------------------------


def _enum_contract(n: int) -> bytes:
    strings_ = json.dumps([f"v{i}" for i in range(n)])
    numbers = json.dumps([i if i % 2 else float(i) for i in range(n)])
    return (
        "name: many\ndescription: Many values.\nparameters:\n  type: object\n  properties:\n"
        f"    s: {{type: string, enum: {strings_}}}\n    n: {{enum: {numbers}}}\n"
        "  required: [s]\n"
    ).encode()


ENUM_SIZES = (100, 200, 400, 800)


def test_lint_and_generate_are_linear_in_the_enum_values() -> None:
    from toolshape.codegen.render import generation_context

    context = generation_context()

    def cost(n: int) -> int:
        raw = _enum_contract(n)
        return calls_made(
            lambda: pipeline.generate(raw, "many.yaml", PurePosixPath("many.yaml"), context)
        )

    _grows_linearly(cost, ENUM_SIZES)


def test_import_is_linear_in_the_enum_values(tmp_path: Path) -> None:
    from toolshape.platforms import importer

    def cost(n: int) -> int:
        path = tmp_path / f"many{n}.json"
        schema = {
            "name": "many",
            "description": "Many values.",
            "type": "object",
            "properties": {
                "n": {"enum": list(range(n))},
                "s": {"enum": [str(i) for i in range(n)]},
            },
        }
        path.write_text(json.dumps(schema), encoding="utf-8")
        return calls_made(lambda: importer.import_file(path))

    _grows_linearly(cost, ENUM_SIZES)


def test_diff_matches_enum_members_in_linear_work() -> None:
    from toolshape.families.values import review as value_review
    from toolshape.review import walk

    def cost(n: int) -> int:
        before = list(range(n))
        after = [float(i) for i in range(1, n + 1)]
        out: list[Any] = []

        def action() -> None:
            walk._overlap(before, after)
            walk._members((), (), before, after, "enum", out)
            value_review._members_in(before, after)

        return calls_made(action)

    _grows_linearly(cost, ENUM_SIZES)


def test_duplicate_enum_values_are_still_found_by_json_equality() -> None:
    from toolshape.contract import checker, source

    raw = (
        b"name: dup\ndescription: Duplicates.\nparameters:\n  type: object\n  properties:\n"
        b"    v: {enum: [1, 1.0, true, {a: 1, b: [2]}, {b: [2.0], a: 1}, '1', [1], [true]]}\n"
    )
    checked = checker.check(source.load(raw, "dup.yaml"))
    twice = [p for p in checked.warnings if "listed twice" in p.message]
    assert [p.message.split("'enum' value ")[1].split(" is listed")[0] for p in twice] == [
        "1.0",
        '{"a": 1, "b": [2.0]}',  # its own spelling, keys sorted
    ]


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.sampled_from([0.0, 1.0, 2.5, -1.0])
    | st.text("ab", max_size=2),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text("ab", max_size=2), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=500, deadline=None)
@given(JSON, JSON)
def test_json_key_is_json_equality(a: Any, b: Any) -> None:
    from toolshape.schema.values import enum_has, json_equal, json_key

    assert (json_key(a) == json_key(b)) == json_equal(a, b)
    assert enum_has([b], a) == json_equal(a, b)


# -- import: deep nesting is a located error -------------------------------------------------------


def _nested(kind: str, depth: int) -> str:
    """A tool's schema with ``depth`` levels of one way of nesting, as JSON text (written out
    directly: json.dumps itself recurses once per level)."""
    opening, inner, closing = {
        "properties": ('{"type": "object", "properties": {"a": ', '{"type": "string"}', "}}"),
        "items": ('{"type": "array", "items": ', '{"type": "string"}', "}"),
        "anyOf": ('{"anyOf": [', '{"type": "string"}', ', {"type": "null"}]}'),
        "data": ("[", "[]", "]"),
    }[kind]
    nested = opening * depth + inner + closing * depth
    if kind == "data":
        nested = '{"type": "array", "default": ' + nested + "}"
    return (
        '{"name": "deep", "description": "Deep.", "type": "object", "properties": {"x": '
        + nested
        + "}}"
    )


@pytest.mark.parametrize("kind", ["properties", "items", "anyOf", "data"])
def test_import_of_any_nesting_depth_gives_a_contract_or_a_located_error(
    kind: str, tmp_path: Path
) -> None:
    """For every depth (to past the recursion limit), in JSON and YAML input: a contract, or
    errors naming their place; never an exception from a walk that recursed too deep."""
    from toolshape.platforms import importer

    for depth in [*range(0, 130, 9), 1000, 3000]:
        for suffix in (".json", ".yaml"):
            path = tmp_path / f"deep{depth}{suffix}"
            path.write_text(_nested(kind, depth), encoding="utf-8")
            try:
                importer.import_file(path)
            except importer.ContractImportError as exc:
                for problem in exc.problems:
                    assert problem.pointer is not None or re.fullmatch(
                        rf"{re.escape(path.name)}:\d+:\d+", problem.file
                    ), str(problem)


def test_import_of_a_deeply_nested_schema_is_a_located_error_not_an_internal_one(
    tmp_path: Path,
) -> None:
    """The issue's reproduction: ``import`` died with RecursionError ("internal error")."""
    text = _nested("properties", 200)
    (tmp_path / "deep.json").write_text(text, encoding="utf-8")
    done = _run("import", "deep.json", "--out", "out", cwd=tmp_path)
    assert done.returncode == 1
    assert "internal error" not in done.stderr
    from toolshape.platforms import documents

    # the first brace past the limit (no string in this text holds a brace)
    braces = [at for at, char in enumerate(text) if char == "{"]
    col = braces[documents.MAX_INPUT_DEPTH] + 1
    assert done.stderr.startswith(f"deep.json:1:{col}: error: "), done.stderr


# -- the backtracking lint: every inner step counted --------------------------------------------


def _alternation(width: int, looped: bool) -> str:
    words = "|".join(f"k{i:03d}" for i in range(width))
    return f"^(?:{words})+$" if looped else f"^(?:{words})(?:,(?:{words}))*$"


@pytest.mark.parametrize("looped", [True, False])
def test_the_ambiguity_analysis_counts_every_successor_it_examines(
    looped: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every pair or triple of successors the analysis looks at (each reads the two states'
    character masks) is a unit of its counted work, so MAX_WORK bounds its time: reads of the
    masks stay within a constant of the work counted, at every width."""
    from toolshape.regex import ambiguity

    reads = [0]

    class Counting(list[int]):
        def __getitem__(self, index: Any) -> Any:
            reads[0] += 1
            return super().__getitem__(index)

    counted: list[int] = []
    original = ambiguity._Analysis.run

    def run(self: Any) -> Any:
        self.a.masks = Counting(self.a.masks)
        try:
            return original(self)
        finally:
            counted.append(self.work)

    monkeypatch.setattr(ambiguity._Analysis, "run", run)
    works = []
    for width in (25, 50, 100, 200):
        reads[0] = 0
        counted.clear()
        ambiguity.analyse(_alternation(width, looped))
        assert reads[0] <= 3 * sum(counted) + 100, (width, reads[0], counted)
        works.append(sum(counted))
    # the pair automaton of a width-w alternation under a loop has about w^2 pairs: the work is
    # at most quadratic in the width (it was cubic: each loop-back state re-examined w^2 pairs)
    for before, after in itertools.pairwise(works):
        assert after <= 4.5 * before + 1000, works


def test_a_reference_match_out_of_steps_is_an_error_at_the_pattern(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Past its steps, the reference evaluator's match stops; generate reports it at the
    pattern's place in the contract (here with the bound lowered to a few steps)."""
    from toolshape.codegen.render import generation_context
    from toolshape.contract.errors import ContractError

    monkeypatch.setattr(matcher, "DEFAULT_MATCH_STEPS", 20)
    raw = (
        b"name: costly\ndescription: Costly.\nparameters:\n  type: object\n  properties:\n"
        b"    code: {type: string, pattern: '^[a-z]+-[0-9]+$', examples: [abcdefgh-12345678]}\n"
        b"  required: [code]\n"
    )
    with pytest.raises(ContractError) as caught:
        pipeline.generate(raw, "costly.yaml", PurePosixPath("costly.yaml"), generation_context())
    [problem] = [p for p in caught.value.problems if p.severity == "error"]
    assert (problem.file, problem.line, problem.col) == (
        "costly.yaml",
        6,
        35,
    )  # the pattern value, str(problem)
    assert "more than 20 steps" in problem.message


def test_a_reference_match_out_of_steps_is_an_error_at_the_key_pattern(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pattern used as a key of a map of patterns (the keys it matches get its schema) is
    reported at that key, not at the schema it maps to."""
    from toolshape.codegen.render import generation_context
    from toolshape.contract.errors import ContractError

    monkeypatch.setattr(matcher, "DEFAULT_MATCH_STEPS", 20)
    raw = (
        b"name: costly\ndescription: Costly.\nparameters:\n  type: object\n"
        b"  patternProperties:\n    '^[a-z]+-[0-9]+$': {type: string}\n"
        b"  examples: [{abcdefgh-12345678: x}]\n"
    )
    with pytest.raises(ContractError) as caught:
        pipeline.generate(raw, "costly.yaml", PurePosixPath("costly.yaml"), generation_context())
    [problem] = [p for p in caught.value.problems if p.severity == "error"]
    assert (problem.line, problem.col) == (6, 5)  # the key, where its quote opens
    assert "more than 20 steps" in problem.message


@pytest.mark.parametrize("text", ["", "ab" * 40 + "c", "x" * 500])
def test_a_remembered_match_charges_the_steps_of_matching_again(text: str) -> None:
    """matcher.search remembers finished matches; a second ask costs the same steps as the
    first (so a budget runs out at the same place whatever was asked before), and one that
    ran out of steps is not remembered."""
    pattern = "(?:a|b)*a(?:a|b){3}c"
    matcher._RESULTS.clear()
    first, second = matcher.Steps(), matcher.Steps()
    found = matcher.search(pattern, text, first)
    assert matcher.search(pattern, text, second) == found
    assert second.used == first.used > 0
    matcher._RESULTS.clear()
    short = matcher.Steps(first.used - 1)
    with pytest.raises(matcher.OutOfSteps):
        matcher.search(pattern, text, short)
    assert (pattern, text) not in matcher._RESULTS
    with pytest.raises(matcher.OutOfSteps):
        matcher.search(pattern, text, matcher.Steps(first.used - 1))


# -- the module model: linear in the number of properties ---------------------------------------


def test_the_redaction_masks_are_found_in_work_linear_in_the_keys_and_positions() -> None:
    """``masks.secret_paths`` groups, for each key (each prefix position), the schemas of its
    value: each schema's children are read once, not once per key (quadratic: 131 s for the
    5,000-property module of test_unfolding.py before). Shown for many keys and many prefix
    positions, with and without a sensitive one."""
    from toolshape.codegen import masks
    from work_counting import assert_linear

    def parameters(n: int, sensitive: bool) -> dict[str, Any]:
        properties: dict[str, Any] = {f"p{i}": {"type": "string"} for i in range(n)}
        if sensitive:
            properties["p0"] = {"type": "string", "x-sensitive": True}
        return {"type": "object", "properties": properties, "required": list(properties)}

    def positions(n: int, sensitive: bool) -> dict[str, Any]:
        items: list[Any] = [{"type": "string"} for _ in range(n)]
        if sensitive:
            items[0] = {"type": "string", "x-sensitive": True}
        return {"type": "object", "properties": {"row": {"type": "array", "prefixItems": items}}}

    for shape in (parameters, positions):
        for sensitive in (False, True):

            def finding(
                n: int, shape: Any = shape, sensitive: bool = sensitive
            ) -> Callable[[], object]:
                schema = shape(n, sensitive)
                return lambda: masks.secret_paths(schema)

            assert_linear(f"secret_paths, {shape.__name__}, sensitive={sensitive}", finding, 200)
