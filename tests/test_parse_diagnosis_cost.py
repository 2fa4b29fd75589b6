"""What the diagnosis of refused text costs (issue 25): only the failure's neighbourhood.

When json's decoder refuses a text, the runtime names the first problem in words of its
own. It used to read the whole text again in Python, a token at a time; it now starts just
before where the decoder stopped, in the state a few C-level passes over the prefix find
there. The words must be the same: ``diagnose_before`` keeps the old reading as the
reference, compared on every truncation and every single-character deletion of the
feedback corpus's texts and of the generated tests' parse cases and valid texts. The work
is counted (lines of Python run), never timed.
"""

from __future__ import annotations

import ast
import functools
import json
from collections.abc import Iterator
from typing import Any

import pytest
from support import ROOT
from work_counting import Tracked, work

from generated import _runtime as runtime


def diagnose_before(text: str) -> Any:
    """The runtime's _diagnose before it started near the decoder's stop: the reference."""
    rt = runtime
    closes = ""
    try:
        at = rt._skip(text, 0)
        if text.startswith("```", at):
            raise rt._Bad(
                at, "syntax", "a markdown code fence (send bare JSON, without the ``` fence)"
            )
        expect = "value"
        comma = 0
        while True:
            if expect in ("value", "value after comma"):
                at = rt._skip(text, at)
                if at < len(text) and text[at] in "[{":
                    closes += "]" if text[at] == "[" else "}"
                    at = rt._skip(text, at + 1)
                    if at < len(text) and text[at] == closes[-1]:
                        closes = closes[:-1]
                        at += 1
                        expect = "next"
                    else:
                        expect = "value" if closes[-1] == "]" else "key"
                    continue
                if expect == "value after comma" and text[at : at + 1] == "]":
                    raise rt._Bad(
                        comma, "syntax", "a trailing comma before the closing ] (remove it)"
                    )
                at = rt._value_end(text, at, closes)
                expect = "next"
            elif expect in ("key", "key after comma"):
                at = rt._key_end(
                    text, rt._skip(text, at), comma if expect == "key after comma" else -1
                )
                at = rt._skip(text, at)
                if at >= len(text):
                    raise rt._cut(at, "after a key")
                if text[at] != ":":
                    if text[at] == "=":
                        raise rt._Bad(
                            at,
                            "syntax",
                            "= after a key (JSON puts a colon between a key and its value)",
                        )
                    raise rt._Bad(at, "syntax", "a key with no colon after it")
                at += 1
                expect = "value"
            else:
                at = rt._skip(text, at)
                if not closes:
                    if at >= len(text):
                        return None
                    if text[at] in "]}":
                        raise rt._Bad(
                            at, "syntax", f"a stray {text[at]} after the end of the JSON value"
                        )
                    if text.startswith("```", at):
                        raise rt._Bad(
                            at,
                            "syntax",
                            "a markdown code fence (send bare JSON, without the ``` fence)",
                        )
                    raise rt._Bad(
                        at, "syntax", "more than one JSON value (send exactly one object)"
                    )
                if at >= len(text):
                    inside = "an object" if closes[-1] == "}" else "an array"
                    still = f"{len(closes)} brackets" if len(closes) > 1 else "1 bracket"
                    raise rt._cut(at, f"inside {inside} ({still} still open)")
                char = text[at]
                if char == ",":
                    comma = at
                    at += 1
                    expect = "key after comma" if closes[-1] == "}" else "value after comma"
                elif char == closes[-1]:
                    closes = closes[:-1]
                    at += 1
                elif char in "]}":
                    raise rt._Bad(
                        at,
                        "syntax",
                        f"a {char} where {closes[-1]} should close the "
                        + ("object" if closes[-1] == "}" else "array"),
                    )
                elif char == ":" and closes[-1] == "]":
                    raise rt._Bad(
                        at, "syntax", "a colon inside an array (keys and values go in {...})"
                    )
                else:
                    between = "entries of an object" if closes[-1] == "}" else "items of an array"
                    raise rt._Bad(at, "syntax", f"a missing comma between two {between}")
    except rt._Bad as bad:
        return bad


def refusal_before(text: str, failure: Exception) -> tuple[str, str]:
    """The runtime's _refusal (code and message) with the reference diagnosis."""
    if isinstance(failure, runtime._ParseFailure) and failure.code == "duplicate_key":
        return failure.code, failure.message
    bad = diagnose_before(text)
    if bad is None:
        if isinstance(failure, runtime._ParseFailure):
            return failure.code, failure.message
        if not isinstance(failure, json.JSONDecodeError):
            return "too_large", f"an integer has more than {runtime.MAX_INT_DIGITS} digits"
        bad = runtime._Bad(failure.pos, "syntax", "text that is not valid JSON")
    line = text.count("\n", 0, bad.at) + 1
    column = bad.at - text.rfind("\n", 0, bad.at)
    return bad.code, f"at line {line}, column {column}: {bad.sentence}"


def _assigned(path: Any, name: str) -> ast.expr | None:
    """The expression a generated tests module assigns to ``name``."""
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        targets: list[ast.expr]
        value: ast.expr | None
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        else:
            continue
        if any(isinstance(t, ast.Name) and t.id == name for t in targets):
            return value
    return None


def _rows(node: ast.expr | None) -> Iterator[list[object]]:
    """Each tuple of the list ``node``, its literal items as values (others as None)."""
    for row in node.elts if isinstance(node, ast.List) else []:
        if isinstance(row, ast.Tuple):
            yield [item.value if isinstance(item, ast.Constant) else None for item in row.elts]


#: Texts with what the resumed reading must see through: brackets, commas, colons and
#: escaped quotes and backslashes inside strings, text beyond ASCII, nesting, whitespace,
#: and a value after the end.
_SEEDS = (
    '{"a": [1, -2.5e3, "x\\"y\\u00e9", true, false, null, {}], "b": {"c": 0.0}}',
    '[{"k": "v"}, [], [[0]], -0, 1E+2, "\\\\"]',
    ' {\n\t"key" : "value" ,\r\n "n": 12 } ',
    '{"q": "a, b: [c] {d}", "r": ["]", "}", "\\\\", "\\"]"], "s": {"t": "杭州 [x"}}',
    '{"city": "杭州", "tags": [{"x": "{"}, {"y": "]"}], "n": 1}',
    '{"a": 1} {"b": [2, {"c": 3}]}',
)


@functools.cache
def corpus() -> tuple[str, ...]:
    """The feedback corpus's texts, and each generated tests module's parse cases, valid
    text and examples sent as JSON text."""
    texts = {
        case["text"]
        for case in json.loads(
            (ROOT / "tests" / "feedback_corpus" / "cases.json").read_text(encoding="utf-8")
        )["cases"]
        if type(case.get("text")) is str
    }
    for path in sorted((ROOT / "generated" / "tests").rglob("test_*.py")):
        for case in _rows(_assigned(path, "PARSE_CASES")):
            text = case[1]
            if type(text) is bytes:
                text = text.decode("utf-8", "replace")
            if type(text) is str:
                texts.add(text)
        valid = _assigned(path, "VALID_TEXT")
        if isinstance(valid, ast.Constant) and type(valid.value) is str:
            texts.add(valid.value)
        for example in _rows(_assigned(path, "EXAMPLES")):
            if example[1:2] == ["json"] and type(example[2]) is str:
                texts.add(example[2])
    texts.update(_SEEDS)
    return tuple(sorted(texts))


def _variants(text: str) -> Iterator[str]:
    """Every truncation and every single-character deletion of ``text``."""
    for i in range(len(text)):
        yield text[:i]
        yield text[:i] + text[i + 1 :]


def _refused(text: str) -> Exception | None:
    """What the strict decoder raises on ``text`` (None: it accepts it)."""
    try:
        runtime._strict_json(text)
    except (runtime._ParseFailure, ValueError) as failure:
        return failure
    return None


def test_the_corpus_is_large() -> None:
    assert len(corpus()) > 100


def test_the_diagnosis_is_the_one_before() -> None:
    """Every truncation and deletion of the corpus's texts that the decoder refuses gets
    the code and message the whole-text reading gave."""
    compared = resumed = 0
    for seed in corpus():
        for text in sorted(set(_variants(seed))):
            if not text or text.isspace():
                continue
            failure = _refused(text)
            if failure is None:
                continue
            error = runtime._refusal(text, failure)
            assert (error.code, error.message) == refusal_before(text, failure), text
            compared += 1
            stop = getattr(failure, "pos", -1)
            resumed += stop > 0 and runtime._resume(text, stop) is not None
    assert compared > 20_000
    assert resumed > compared // 2, (resumed, compared)  # most start near the failure


def _cut_texts(entries: int) -> list[str]:
    """Arguments with ``entries`` items, cut near their end in different places."""
    item = '{"sku": "A-1\\"x", "path": "C:\\\\", "qty": 2, "tags": ["a", "b"], "ok": true}'
    whole = '{"note": "a, b: [c] {d}", "items": [' + ", ".join([item] * entries) + "]}"
    return [
        whole[:-2],  # after the last item: inside the array
        whole[: whole.rfind('"b"') + 2],  # inside a string
        whole[: whole.rfind('"b"')],  # after a comma in an array
        whole[: whole.rfind(": true")],  # after a key
        whole[: whole.rfind('2, "tags"')] + "1.",  # inside a number
        whole[: whole.rfind("true") + 2],  # inside true
        whole[:-2] + ",]",  # a trailing comma
        whole[:-3] + " 1",  # a missing comma
    ]


@pytest.mark.parametrize("shape", range(8))
def test_a_cut_text_costs_the_same_whatever_its_length(shape: int) -> None:
    """Diagnosing text cut near its end runs the same lines of Python for 50, 100 and 200
    entries before the cut (the prefix is read in C-level passes only), and the C-level
    reads of the text itself stay within a few characters per character."""
    lines, reads = [], []
    for entries in (50, 100, 200):
        text = _cut_texts(entries)[shape]
        failure = _refused(text)
        assert failure is not None
        assert runtime._refusal(text, failure).message == refusal_before(text, failure)[1]
        lines.append(work(functools.partial(runtime._refusal, text, failure)))
        tracked = functools.partial(runtime._refusal, Tracked(text), failure)
        reads.append(work(tracked, runtime) - lines[-1])
        assert reads[-1] <= 4 * len(text), (reads, len(text))
    assert lines[0] == lines[1] == lines[2], lines
    assert lines[0] < 150, lines
