"""The ``format`` checks of the generated runtime, held against what they must agree with.

- ``format: regex``: the runtime cannot import toolshape, so it carries its own small reader
  of ECMA-262 patterns (``_RegexCheck``). A pattern is valid exactly when toolshape's own
  parser and translation (``toolshape.regex``) accept it and Python's ``re`` compiles the
  translation, as the reference evaluator checks it; hypothesis draws patterns from the
  syntax's pieces and both must agree.
- Every format check gives the same verdict on every supported CPython (3.9-3.13): the
  JSON-Schema-Test-Suite's format strings and a few of our own, run through the committed
  ``generated/_runtime.py`` by each interpreter pyenv has.
"""

from __future__ import annotations

import glob
import json
import subprocess

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from support import GENERATED, suite_draft
from toolshape.contract.checker import FORMATS
from toolshape.contract.reference import errors_of

from generated import _runtime as runtime

SUITE_FORMATS = suite_draft("draft2020-12") / "optional" / "format"


REGEX_FORMAT = {"type": "string", "format": "regex"}


def toolshape_accepts(pattern: str) -> bool:
    """The reference evaluator's verdict, whose definition is toolshape.regex's: its ECMA-262
    parser and translation accept the pattern, and Python's re compiles the translation."""
    return not errors_of(REGEX_FORMAT, pattern, "", root=REGEX_FORMAT)


#: Pieces of pattern syntax, valid and broken, that hypothesis strings together.
PIECES = [
    *"ab()|*+?{}[]^$.\\-,019:<>=!kPpSsdDwbBcxuZ_/",
    "(?<n>",
    "(?<m>",
    "\\k<n>",
    "(?<=",
    "(?<!",
    "(?=",
    "(?!",
    "(?:",
    "(?P<n>",
    "{1,2}",
    "{2}",
    "{3,1}",
    "{,2}",
    "{1001}",
    "\\1",
    "\\2",
    "\\10",
    "\\u{41}",
    "\\u{110000}",
    "\\ud800\\udc00",
    "\\u0041",
    "\\x4",
    "\\x41",
    "\\cA",
    "\\0",
    "\\00",
    "[^]",
    "[]",
    "[z-a]",
    "[\\S]",
    "[\\d-z]",
    "\\p{L}",
    "\\P{Nd}",
    "\\p{gc=Lu}",
    "\\p{Script=Greek}",
    "\\p{letter}",
    "\\P{Any}",
    "\\p{",
    "\\pL",
    "é",
    "\u0661",  # ARABIC-INDIC DIGIT ONE: a digit to str.isdigit, not to ECMA-262
    "²",
]
patterns = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


@settings(
    derandomize=True,
    max_examples=3000,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(patterns)
@example("([abc])+\\s+$")
@example("^(abc]")
@example("(a)\\1")
@example("\\1(a)")
@example("(a\\1)")
@example("(?<=(a)(?=\\1))")
@example("(?<=a+)b")
@example("(?<n>a)\\k<n>")
@example("\\k<n>(?<n>a)")
@example("a{2}{3}")
@example("a**")
@example("a*?")
@example("x{,\u0661}")
@example("a{{2}")
@example("{{{2}")
@example("ab{{}*c{1,{2}}")
@example("{{*")
@example("()\\10")
@example("()()()()()()()()()()\\10")
@example("a{0000000000001}")
@example("a{00}")
@example("a{0,00}")
@example("a{1,00000000002000}")
@example("\\_")
@example("[\\w\\_]")
def test_the_runtime_regex_check_agrees_with_toolshape_regex(pattern: str) -> None:
    assert runtime._is_regex(pattern) == toolshape_accepts(pattern), pattern


@settings(derandomize=True, max_examples=1000, database=None)
@given(st.text(max_size=16))
def test_the_runtime_regex_check_agrees_on_any_text(pattern: str) -> None:
    assert runtime._is_regex(pattern) == toolshape_accepts(pattern), pattern


def test_the_regex_check_refuses_what_the_translation_cannot_keep() -> None:
    # Each is a pattern some engine accepts; each is refused, with its reason named by toolshape.
    for pattern in [r"\p{Alphabetic}", r"\Z", r"(?P<n>a)", r"a++", r"(?<=a+)", r"\1(a)"]:
        assert not runtime._is_regex(pattern), pattern
        assert not toolshape_accepts(pattern), pattern
    for pattern in [
        r"^[a-z]+$",
        r"a{",
        r"a]",
        r"(?<year>\d{4})-\k<year>",
        r"[\d-z]",
        r"[\S]",
        "",
        r"^\p{L}[\P{Nd}]$",
        r"^\_$",  # '_' escaped: itself, as ECMA-262 reads it without the u flag
        r"[\w\_]",
    ]:
        assert runtime._is_regex(pattern), pattern


# -- every format: the runtime's check and the reference evaluator's, written apart, agree ---

#: Pieces of URIs, templates, pointers, host names and mailboxes, valid and broken.
TEXT_PIECES = [
    *"aZ09:/?#[]@%.-_~!$&'()*+,;={}\\ \"<>|^`\n",
    "http:",
    "a+b.c:",
    "//",
    "%41",
    "%zz",
    "[::1]",
    "[v1.x]",
    "[::ffff:1.2.3.04]",
    ":80",
    "é",
    "\ue000",
    "\U000f0000",
    "\U000e1000",
    "\ud800",
    "{+x}",
    "{a.b:3}",
    "{x*}",
    "~0",
    "~1",
    "~2",
    "xn--",
    "xn--bcher-kva",
    "xn--zca",
    "ü",
    "\u00df",
    "\u00b7",
    "l\u00b7l",
    "\u0375",
    "\u03b1",
    "\u05d0",
    "\u05f3",
    "\u30fb",
    "\u30a1",
    "\u0628",
    "\u0660",
    "\u06f0",
    "\u200c",
    "\u200d",
    "\u094d",
    "\u0915",
    "\u0301",
    "\u3002",
    "\uff0e",
    "\u302e",
]
texts = st.lists(st.sampled_from(TEXT_PIECES), max_size=10).map("".join)
OTHER_FORMATS = [name for name in FORMATS if name != "regex"]


@pytest.mark.parametrize("name", OTHER_FORMATS)
@settings(derandomize=True, max_examples=400, database=None)
@given(value=texts)
def test_the_runtime_and_the_reference_agree_on_every_format(name: str, value: str) -> None:
    schema = {"type": "string", "format": name}
    reference_accepts = not errors_of(schema, value, "", root=schema)
    assert getattr(runtime, "_is_" + name.replace("-", "_"))(value) == reference_accepts, value


# -- the same verdicts on every supported CPython ------------------------------------------

SCRIPT = """
import importlib.util, json, sys
spec = importlib.util.spec_from_file_location("toolshape_runtime", sys.argv[1])
runtime = importlib.util.module_from_spec(spec)
spec.loader.exec_module(runtime)
out = []
for name, value in json.load(sys.stdin):
    out.append(getattr(runtime, "_is_" + name.replace("-", "_"))(value))
print(json.dumps(out))
"""

#: Strings of our own beside the suite's: non-ASCII, surrogates, the edges of ucschar.
OWN = [
    "",
    "\ud800",
    "a\udc00b",
    "http://example.com/\ue000",
    "http://example.com/?\ue000",
    "http://example.com/\U000e1000",
    "http://example.com/\U000efffe",
    "{x:1000}",
    "/a~01",
    "0#",
    "(?<名>a)\\k<名>",
    "[\\u{10FFFF}-\\u{10FFFF}]",
]


def format_samples() -> list[tuple[str, str]]:
    """(format, string) for every asserted format: the suite's strings, then ours."""
    samples: list[tuple[str, str]] = []
    for name in FORMATS:
        path = SUITE_FORMATS / f"{name}.json"
        if path.exists():
            for group in json.loads(path.read_text(encoding="utf-8")):
                samples += [(name, t["data"]) for t in group["tests"] if isinstance(t["data"], str)]
        samples += [(name, value) for value in OWN]
    return samples


def test_the_samples_cover_every_format() -> None:
    assert {name for name, _ in format_samples()} == set(FORMATS)


@pytest.mark.parametrize("minor", [9, 10, 11, 12, 13])
def test_format_verdicts_are_the_same_on_every_supported_python(minor: int) -> None:
    found = sorted(glob.glob(f"/root/.pyenv/versions/3.{minor}.*/bin/python"))
    if not found:
        pytest.skip(f"no CPython 3.{minor} under /root/.pyenv/versions")
    samples = format_samples()
    result = subprocess.run(
        [found[-1], "-c", SCRIPT, str(GENERATED / "_runtime.py")],
        input=json.dumps(samples),
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    here = [getattr(runtime, "_is_" + name.replace("-", "_"))(value) for name, value in samples]
    there = json.loads(result.stdout)
    different = [
        (name, value, mine, theirs)
        for (name, value), mine, theirs in zip(samples, here, there, strict=True)
        if mine != theirs
    ]
    assert not different, f"CPython 3.{minor} disagrees: {different}"


def test_idn_verdicts_follow_the_unicode_version_of_the_python_that_runs_them() -> None:
    """U+1E290 TOTO LETTER PA is new in Unicode 14.0: unassigned, so refused, where
    unicodedata is 13.0 (CPython 3.9, 3.10); a letter, so accepted, from 3.11 on (README)."""
    name = "\U0001e290.example"
    verdicts: dict[int, bool] = {}
    for minor in (10, 11):
        found = sorted(glob.glob(f"/root/.pyenv/versions/3.{minor}.*/bin/python"))
        if not found:
            continue
        result = subprocess.run(
            [found[-1], "-c", SCRIPT, str(GENERATED / "_runtime.py")],
            input=json.dumps([["idn-hostname", name], ["idn-hostname", "bücher.example"]]),
            capture_output=True,
            text=True,
            check=False,
        )
        assert result.returncode == 0, result.stderr
        verdicts[minor], ascii_one = json.loads(result.stdout)
        assert ascii_one is True
    if len(verdicts) < 2:
        pytest.skip("CPython 3.10 and 3.11 are both needed under /root/.pyenv/versions")
    assert verdicts == {10: False, 11: True}
