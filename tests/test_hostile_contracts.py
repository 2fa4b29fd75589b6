"""Hostile contracts: a contract cannot make the generator emit code nobody wrote (issue 5).

A contract arrives in a pull request from someone who may not be trusted; the
reviewer reads the contract, not every generated line. Every string a contract
holds (property names, descriptions, titles, enum and const values, defaults,
schema examples, patterns, example arguments, the tool description) must reach
the generated code as data only. For each hostile text, and for contracts
hypothesis makes up from arbitrary text, this file checks that

- generation succeeds, or fails with a clean ``ContractError`` (never another
  exception), without running anything or opening a socket;
- the module and test sources compile; they hold no raw control, bidi or line
  separator characters; outside string literals and comments (found with
  ``tokenize``) no piece of the hostile text appears; comments are printable ASCII;
- an AST audit against a module generated from the same contract with neutral
  text finds no new import, no new free name, no new attribute and no new call;
- executing the module (with ``__import__``, ``open``, ``exec``, ``eval``, ...
  spied and ``os.system``/``subprocess``/sockets trapped) does nothing beyond its
  own definitions, and its API names (``validate``, ``Error``, ``json``, ...) are
  intact whatever the contract's keys are called;
- the contract's strings come back exactly as data (``TOOL_NAME``,
  ``DESCRIPTION``, ``INPUT_SCHEMA``, the TypedDict's keys), and a key with the
  hostile name is accepted where declared and refused as unknown where not;
- the generated tests pass against the module (in-process; and, for a contract
  holding every hostile text at once, formatted with black and run by pytest in
  a subprocess in the generated layout).

And, with ``toolshape.project``: the generator never writes outside its output
folder (symlinks in the contracts folder or the output folder, ``..`` and
absolute paths are refused and leave the outside untouched).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import importlib
import inspect
import io
import itertools
import json
import os
import re
import socket
import subprocess
import sys
import textwrap
import tokenize
import types
import typing
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from support import ENV
from toolshape.codegen import render
from toolshape.contract.errors import ContractError
from toolshape.project import pipeline, planning, writing

#: The hostile texts of issue 5, and then some. Each is put everywhere a contract holds text.
HOSTILE: dict[str, str] = {
    "code injection": 'x"]; import os; os.system("id") #',
    "code on a new line": "x\nimport os\nos.system('id')",
    "__class__": "__class__",
    "__init__": "__init__",
    "__secret (name mangling)": "__secret",
    "__builtins__": "__builtins__",
    "__import__": "__import__",
    "U+2028 line separator": "a\u2028b",
    "U+2029 paragraph separator": "a\u2029b",
    "triple double quotes": 'a"""b',
    "triple single quotes": "a'''b",
    "Jinja expression": "{{ 7*7 }}",
    "Jinja raw": "{% raw %}",
    "Jinja for": "{% for x in y %}",
    "Jinja comment": "{# x #}",
    "backslash at the end of a line": "a\\\nb",
    "trailing backslash": "ab\\",
    "lone backslash": "\\",
    "NUL": "a\x00b",
    "right-to-left override": "abc\u202edef",
    "Trojan Source isolates": "# \u2066 } \u2069 \u202e",
    "U+FEFF": "\ufeffx",
    "zero-width space": "a\u200bb",
    "carriage return": "a\rb",
    "NEL U+0085": "a\x85b",
    "ANSI escape": "\x1b[31mred",
    "tab": "a\tb",
    "f-string braces": "{value}",
    "percent format": "%s %(x)s",
    "non-BMP": "\U0001f600",
    "combining accent": "e\u0301",
    "value": "value",
    "errors": "errors",
    "Error": "Error",
    "Result": "Result",
    "validate": "validate",
    "parse": "parse",
    "json": "json",
    "re": "re",
    "math": "math",
    "sys": "sys",
    "self": "self",
    "True": "True",
    "None": "None",
    "class": "class",
    "import": "import",
    "1abc": "1abc",
    "a-b": "a-b",
    "ab": "ab",
    "tilde and slash": "a~b/c~1",
    "empty string": "",
    "Any": "Any",
    "Literal": "Literal",
    "TypedDict": "TypedDict",
    "str": "str",
    "underscore": "_",
    "match": "match",
    "type": "type",
    "MAX_ERRORS": "MAX_ERRORS",
    "_json_key": "_json_key",
    "isinstance": "isinstance",
    "key": "key",
    "message": "message",
    "module": "module",
    "pytest": "pytest",
}
LABELS = list(HOSTILE)

#: Texts made of ASCII letters, digits and _ only: the namer may rightly build names from
#: them (``n1abc``, ``_STR_VALUES``) and TypedDict fields may be called so.
WORDLIKE = re.compile(r"[A-Za-z0-9_]*")
IDENTIFIER_LIKE = {label for label, text in HOSTILE.items() if WORDLIKE.fullmatch(text)}

NEUTRAL = "neutral"
TOOL_NAME_RE = re.compile(r"[A-Za-z0-9_.-]{1,64}")


def ecma_escape(text: str) -> str:
    """A JSON Schema (ECMA-262) pattern that matches ``text`` literally."""
    return re.sub(r"([\\^$.*+?()\[\]{}|/])", r"\\\1", text)


def pointer(*keys: str) -> str:
    return "".join("/" + k.replace("~", "~0").replace("/", "~1") for k in keys)


def hostile_contract(
    text: str, *, pattern_escape: Callable[[str], str] = ecma_escape
) -> dict[str, Any]:
    """A contract holding ``text`` everywhere a contract holds text."""
    name = text if TOOL_NAME_RE.fullmatch(text) else "hostile_tool"
    other = "other value" if text != "other value" else "another value"
    return {
        "name": name,
        "description": "Tool: " + text,
        "x-note": text,
        "parameters": {
            "type": "object",
            "title": text,
            "description": text,
            "$comment": text,
            "properties": {
                text: {
                    "type": "string",
                    "title": text,
                    "description": text,
                    "enum": [text, other],
                    "default": text,
                    "examples": [text],
                    "$comment": text,
                    "x-note": text,
                },
                "zz_pattern": {
                    "type": "string",
                    "maxLength": len(text) + 2,
                    "pattern": pattern_escape(text),
                    "description": text,
                },
                "zz_const": {"const": text, "description": text},
                "zz_secret": {"type": "string", "x-sensitive": True, "description": text},
                "zz_nested": {
                    "type": "object",
                    "properties": {text: {"type": "integer", "minimum": 0, "description": text}},
                    "required": [text],
                    "additionalProperties": False,
                },
                "zz_closed": {
                    "type": "object",
                    "properties": {"zz_only": {"type": "integer"}},
                    "additionalProperties": False,
                },
                "zz_list": {
                    "type": "array",
                    "items": {"type": "string", "enum": [text]},
                    "maxItems": 3,
                },
            },
            "required": [text, "zz_const"],
            "additionalProperties": False,
        },
        "examples": [
            {"description": text, "args": _valid_args(text)},
            {"description": text, "json": json.dumps({text: text, "zz_const": text})},
            {
                "description": text,
                "args": {text: text, "zz_const": text, "zz_unknown": text},
                "status": "reject",
                "errors": [{"path": "/zz_unknown", "code": "additionalProperties"}],
            },
            {
                "args": {text: other, "zz_const": text, "zz_nested": {text: -1}},
                "status": "reject",
                "errors": [{"path": pointer("zz_nested", text), "code": "minimum"}],
            },
            {
                "args": {text: text, "zz_const": text, "zz_closed": {text: 1}},
                "status": "reject",
                "errors": [{"path": pointer("zz_closed", text), "code": "additionalProperties"}],
            },
        ],
    }


def _valid_args(text: str) -> dict[str, Any]:
    return {
        text: text,
        "zz_const": text,
        "zz_pattern": "<" + text + ">",
        "zz_nested": {text: 1},
        "zz_list": [text],
        "zz_secret": "s3cr3t-value",
    }


class _QuotingDumper(yaml.SafeDumper):
    """Every string double-quoted (non-printable characters escaped by the emitter); no anchors."""

    def ignore_aliases(self, data: Any) -> bool:
        return True


_QuotingDumper.add_representer(
    str, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text, style='"')
)


_SURROGATE_PAIR = re.compile(r"\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})")


def _yaml_escape_pair(match: re.Match[str]) -> str:
    high, low = int(match.group(1), 16), int(match.group(2), 16)
    return "\\U%08x" % (0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))


def to_yaml(data: Any, how: str) -> bytes:
    """Contract text: JSON (ASCII, every string quoted and escaped) or YAML with every string quoted.

    JSON writes a character beyond U+FFFF as a surrogate pair of escapes, which YAML
    reads as two lone surrogates (toolshape refuses them, with a clean error: see
    test_json_surrogate_pair_escapes_are_refused_cleanly); such a pair is written as
    YAML's single \\U escape instead, so that the text means what the JSON meant.
    """
    if how == "json":
        return _SURROGATE_PAIR.sub(
            _yaml_escape_pair, json.dumps(data, ensure_ascii=True, indent=1)
        ).encode()
    return yaml.dump(data, Dumper=_QuotingDumper, allow_unicode=True, sort_keys=False).encode(
        "utf-8"
    )


# -- Generation, trapped -----------------------------------------------------------------


class Trapped(Exception):
    """Raised by every spy: the generator or a generated module did something it must not."""


@contextlib.contextmanager
def traps() -> Iterator[list[str]]:
    """Make os.system, subprocess, sockets and friends raise (and record the attempt)."""
    seen: list[str] = []

    def trap(name: str) -> Callable[..., Any]:
        def spy(*args: Any, **kwargs: Any) -> Any:
            seen.append(name)
            raise Trapped(name)

        return spy

    patches = [
        (os, "system"),
        (os, "popen"),
        (os, "execv"),
        (os, "execve"),
        (os, "fork"),
        (os, "remove"),
        (os, "unlink"),
        (os, "rmdir"),
        (subprocess, "Popen"),
        (subprocess, "run"),
        (socket, "socket"),
        (socket, "create_connection"),
        (socket, "getaddrinfo"),
    ]
    saved = [(owner, attr, getattr(owner, attr)) for owner, attr in patches if hasattr(owner, attr)]
    for owner, attr, _ in saved:
        setattr(owner, attr, trap(f"{owner.__name__}.{attr}"))
    try:
        yield seen
    finally:
        for owner, attr, original in saved:
            setattr(owner, attr, original)


def generate(raw: bytes, stem: str = "x") -> pipeline.Generated | ContractError:
    """Generate in memory; return the ContractError instead of raising it; fail on anything else.

    (Laid out as always, by layout.py: the built-in templates' output never goes to black.)"""
    with traps() as seen:
        try:
            result: pipeline.Generated | ContractError = pipeline.generate(
                raw, f"{stem}.yaml", PurePosixPath(f"{stem}.yaml"), ENV
            )
        except ContractError as exc:
            result = exc
        except Trapped:
            raise
        except Exception as exc:
            raise AssertionError(
                f"generation raised {type(exc).__name__}, not ContractError: {exc}"[:2000]
            ) from exc
    assert not seen, f"the generator tried {seen}"
    if isinstance(result, ContractError):
        message = str(result)
        assert message and "Traceback" not in message
        for problem in result.problems:
            assert problem.line >= 1 and problem.col >= 1
    return result


@functools.cache
def generated_for(label: str, how: str = "json") -> pipeline.Generated | ContractError:
    return generate(to_yaml(hostile_contract(HOSTILE[label]), how), "x")


@functools.cache
def baseline_audits(how: str = "json") -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """What modules (and tests) from the same contract shape with neutral text use: imports, free names, attributes, calls."""
    module_audit: dict[str, set[str]] = {}
    test_audit: dict[str, set[str]] = {}
    for neutral in (
        NEUTRAL,
        "neutral-key",
        "_neutral",
        "neutral key 2",
    ):  # class and functional TypedDicts
        result = generate(to_yaml(hostile_contract(neutral), how), "x")
        assert isinstance(result, pipeline.Generated), (
            f"the neutral contract does not generate: {result}"
        )
        for audit, source in (
            (module_audit, result.module_source),
            (test_audit, result.test_source),
        ):
            for kind, found in ast_audit(source).items():
                audit.setdefault(kind, set()).update(found)
    return module_audit, test_audit


# -- Checks of one generated source ----------------------------------------------------

#: Raw characters that make source read differently from how it runs (Trojan Source,
#: CVE-2021-42574), end a line for some readers, or cannot be encoded.
_BAD_CATEGORIES = {"Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"}


def bad_characters(source: str) -> list[str]:
    return sorted(
        {
            f"U+{ord(ch):04X}"
            for ch in source
            if ch != "\n" and unicodedata.category(ch) in _BAD_CATEGORIES
        }
    )


_TEXT_TOKENS = {tokenize.STRING, tokenize.COMMENT} | {
    getattr(tokenize, name)
    for name in ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END")
    if hasattr(tokenize, name)
}


def code_outside_literals(source: str) -> tuple[str, list[str]]:
    """The source with every string literal and comment blanked out; and the comments."""
    lines = source.splitlines(keepends=True)
    offsets = list(itertools.accumulate([0] + [len(line) for line in lines]))
    chars = list(source)
    comments = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type in _TEXT_TOKENS:
            start = offsets[token.start[0] - 1] + token.start[1]
            end = offsets[token.end[0] - 1] + token.end[1]
            for i in range(start, end):
                if chars[i] != "\n":
                    chars[i] = " "
            if token.type == tokenize.COMMENT:
                comments.append(token.string)
    return "".join(chars), comments


def probes(text: str) -> list[str]:
    """Pieces of a hostile text that must never show up as code.

    Pieces made only of letters, digits and _ are left out (the namer builds names from
    them), and so are pieces that the neutral module's own code holds (``value)``).
    """
    pieces = {text} if len(text) >= 3 else set()
    pieces |= {p for p in re.split(r"[\"'\\\n\r\u2028\u2029\x85]", text) if len(p.strip()) >= 4}
    neutral_code = baseline_code()
    return sorted(p for p in pieces if not WORDLIKE.fullmatch(p) and p not in neutral_code)


@functools.cache
def baseline_code() -> str:
    """The code (string literals and comments blanked) of the neutral module and its tests."""
    generated = _generated_neutral()
    return (
        code_outside_literals(generated.module_source)[0]
        + code_outside_literals(generated.test_source)[0]
    )


def ast_audit(source: str) -> dict[str, set[str]]:
    """Imports, free names (neither bound in the module nor ...), attribute names and call targets of a source."""
    tree = ast.parse(source)
    bound: set[str] = set()
    loads: set[str] = set()
    imports: set[str] = set()
    attrs: set[str] = set()
    top_level: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            top_level.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            top_level.update((a.asname or a.name).split(".")[0] for a in node.names)
    # An annotation without a value (a TypedDict field) binds nothing.
    fields = {
        id(n.target) for n in ast.walk(tree) if isinstance(n, ast.AnnAssign) and n.value is None
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            if id(node) not in fields:
                (loads if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.Import):
            imports.update(a.name for a in node.names)
            bound.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            imports.add("." * node.level + (node.module or ""))
            bound.update(a.asname or a.name for a in node.names)
        elif isinstance(node, ast.Attribute):
            attrs.add(node.attr)
    free = loads - bound
    keep = free | top_level

    class Normalise(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.AST:
            return ast.copy_location(
                ast.Name(id=node.id if node.id in keep else "_", ctx=node.ctx), node
            )

        def visit_Constant(self, node: ast.Constant) -> ast.AST:
            return ast.copy_location(
                ast.Constant(value="S" if isinstance(node.value, (str, bytes)) else 0), node
            )

    calls = {
        ast.unparse(Normalise().visit(node.func))
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
    }
    return {"imports": imports, "free names": free, "attributes": attrs, "calls": calls}


def check_source(
    source: str, text: str, baseline: dict[str, set[str]], *, identifier_ok: bool, what: str
) -> None:
    compile(source, f"<{what}>", "exec")
    bad = bad_characters(source)
    assert not bad, f"{what} holds raw {bad}: text that reads differently from how it runs"
    code, comments = code_outside_literals(source)
    for comment in comments:
        assert comment.isascii() and comment.isprintable(), (
            f"{what} has a comment that is not printable ASCII: {comment!r}"
        )
    if not identifier_ok:
        for piece in probes(text):
            assert piece not in code, (
                f"{what}: the contract text {piece!r} appears outside string literals and comments"
            )
    audit = ast_audit(source)
    for kind, found in audit.items():
        new = found - baseline.get(kind, set())
        assert not new, (
            f"{what} has {kind} that the same contract with neutral text does not: {sorted(new)}"
        )


# -- Executing a generated module, spied ----------------------------------------------

STDLIB = set(sys.stdlib_module_names) | {"__future__"}
#: What a module may import besides the standard library: the shared runtime, relatively.
RUNTIME = {"._runtime"}


def exec_spied(
    source: str, name: str, package: str | None = None
) -> tuple[types.ModuleType, list[str]]:
    """Execute a source as a module with spied builtins; return it and what it did."""
    events: list[str] = []
    real_import = builtins.__import__

    def spy_import(
        module: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:
        events.append(f"import {'.' * level}{module}")
        return real_import(module, globals, locals, fromlist, level)

    def refuse(what: str) -> Callable[..., Any]:
        def spy(*args: Any, **kwargs: Any) -> Any:
            events.append(what)
            raise Trapped(what)

        return spy

    spied = dict(vars(builtins))
    spied["__import__"] = spy_import
    for what in (
        "open",
        "exec",
        "eval",
        "compile",
        "input",
        "breakpoint",
        "print",
        "exit",
        "quit",
        "help",
        "globals",
        "vars",
        "setattr",
        "delattr",
    ):
        spied[what] = refuse(what)
    module = types.ModuleType(name)
    module.__dict__["__builtins__"] = spied
    # In the package where pipeline.load_module puts modules: `from ._runtime import` finds the runtime there.
    module.__dict__["__package__"] = (
        package if package is not None else pipeline.runtime_module().__package__
    )
    with traps() as trapped:
        exec(compile(source, f"<{name}>", "exec"), module.__dict__)
    module.__dict__["__builtins__"] = builtins  # later calls run with the real ones
    return module, events + trapped


def check_module_imports(events: list[str], allowed: set[str]) -> None:
    refused = [e for e in events if not e.startswith("import ")]
    assert not refused, f"importing the module called {refused}"
    imported = {e.removeprefix("import ") for e in events}
    assert imported <= allowed, f"importing the module imported {sorted(imported - allowed)}"


# -- Running generated tests in-process -------------------------------------------------


def _rows(mark: Any) -> list[dict[str, Any]]:
    args = list(mark.args) + [mark.kwargs[k] for k in ("argnames", "argvalues") if k in mark.kwargs]
    names = [n.strip() for n in args[0].split(",")] if isinstance(args[0], str) else list(args[0])
    rows = []
    for value in args[1]:
        if hasattr(value, "values") and hasattr(value, "marks"):  # pytest.param
            value = value.values
        elif len(names) == 1:
            value = (value,)
        rows.append(dict(zip(names, value, strict=True)))
    return rows


_PACKAGES = itertools.count()


def run_generated_tests(generated: pipeline.Generated) -> int:
    """Run every test of the generated test module against the generated module, in-process."""
    package = f"_hostile_pkg_{next(_PACKAGES)}"
    stem = generated.module_path.stem
    top = types.ModuleType(package)
    top.__path__ = []  # type: ignore[attr-defined]
    tests = types.ModuleType(f"{package}.tests")
    tests.__path__ = []  # type: ignore[attr-defined]
    module = types.ModuleType(f"{package}.{stem}")
    module.__package__ = package
    sys.modules[f"{package}._runtime"] = (
        pipeline.runtime_module()
    )  # what `from ._runtime import` finds
    exec(compile(generated.module_source, module.__name__, "exec"), module.__dict__)
    setattr(top, stem, module)
    sys.modules.update({package: top, tests.__name__: tests, module.__name__: module})
    try:
        test_module = types.ModuleType(f"{package}.tests.test_{stem}")
        test_module.__package__ = tests.__name__
        sys.modules[test_module.__name__] = test_module
        exec(compile(generated.test_source, test_module.__name__, "exec"), test_module.__dict__)
        count = 0
        for name, function in list(vars(test_module).items()):
            if not (name.startswith("test") and inspect.isfunction(function)):
                continue
            grids = [
                _rows(m) for m in getattr(function, "pytestmark", []) if m.name == "parametrize"
            ]
            for combination in itertools.product(*grids):
                kwargs: dict[str, Any] = {}
                for row in combination:
                    kwargs.update(row)
                missing = set(inspect.signature(function).parameters) - set(kwargs)
                if missing:
                    raise NotImplementedError(
                        f"{name} needs fixtures {missing}: run it with pytest"
                    )
                try:
                    function(**kwargs)
                except Exception as exc:
                    raise AssertionError(
                        f"generated test {name}{kwargs!r:.300} failed: {exc!r:.500}"
                    ) from exc
                count += 1
        return count
    finally:
        for key in [k for k in sys.modules if k == package or k.startswith(package + ".")]:
            del sys.modules[key]


# -- 1. each hostile text ---------------------------------------------------------------


def _generated(label: str, how: str = "json") -> pipeline.Generated:
    result = generated_for(label, how)
    if isinstance(result, ContractError):
        pytest.skip(f"a clean contract error: {str(result)[:200]}")
    return result


@pytest.mark.parametrize("how", ["json", "quoted yaml"])
@pytest.mark.parametrize("label", LABELS)
def test_generation_succeeds_or_fails_cleanly(label: str, how: str) -> None:
    generated_for(label, how)  # raises AssertionError for anything but success or a ContractError


@pytest.mark.parametrize("label", LABELS)
def test_the_sources_hold_the_text_only_as_data(label: str) -> None:
    generated = _generated(label)
    module_baseline, test_baseline = baseline_audits()
    text = HOSTILE[label]
    identifier_ok = label in IDENTIFIER_LIKE
    check_source(
        generated.module_source,
        text,
        module_baseline,
        identifier_ok=identifier_ok,
        what="the module",
    )
    check_source(
        generated.test_source,
        text,
        test_baseline,
        identifier_ok=identifier_ok,
        what="the generated tests",
    )


@pytest.mark.parametrize("label", LABELS)
def test_importing_the_module_has_no_side_effect(label: str) -> None:
    generated = _generated(label)
    module, events = exec_spied(generated.module_source, "hostile_x")
    baseline, _ = exec_spied(_generated_neutral().module_source, "neutral_x")
    allowed = {e.removeprefix("import ") for e in _neutral_events()} & (STDLIB | RUNTIME)
    check_module_imports(events, allowed)
    assert set(vars(module)) - {"__builtins__"} <= set(vars(baseline)) | _namer_names(
        module, baseline
    ), (
        "the module defines names that the neutral one does not (and that are not its own constants or types)"
    )


def _namer_names(module: types.ModuleType, baseline: types.ModuleType) -> set[str]:
    """Module-level names that depend on the contract's text: constants and TypedDicts."""
    return {
        name
        for name, value in vars(module).items()
        if name not in vars(baseline)
        and (
            (name.startswith("_") and name.upper() == name)
            or isinstance(value, (type, re.Pattern, frozenset))
        )
    }


@functools.cache
def _generated_neutral() -> pipeline.Generated:
    result = generate(to_yaml(hostile_contract(NEUTRAL), "json"), "x")
    assert isinstance(result, pipeline.Generated)
    return result


@functools.cache
def _neutral_events() -> tuple[str, ...]:
    return tuple(exec_spied(_generated_neutral().module_source, "neutral_x")[1])


@pytest.mark.parametrize("label", LABELS)
def test_the_contract_strings_come_back_as_data(label: str) -> None:
    text = HOSTILE[label]
    contract = hostile_contract(text)
    module = pipeline.load_module(_generated(label).module_source, "_hostile_strings_x.py")
    assert contract["name"] == module.TOOL_NAME
    assert contract["description"] == module.DESCRIPTION
    assert contract["parameters"] == module.INPUT_SCHEMA
    # The module's own names are intact, whatever the contract's keys are called: what it
    # takes from the runtime and the standard library is what they hold.
    runtime = pipeline.runtime_module()
    for name in (
        "ACCEPT",
        "REJECT",
        "PARSE_ERROR",
        "MAX_ERRORS",
        "_decode",
        "_json_type",
        "_NOT_AN_OBJECT",
    ):
        assert getattr(module, name) is getattr(runtime, name), name
    assert issubclass(module.Result, runtime.Result) and module.Error is runtime.Error
    for name, stdlib in (("json", json), ("re", re), ("math", math_module()), ("sys", sys)):
        assert vars(module).get(name, stdlib) is stdlib, name
    assert inspect.isfunction(module.validate) and module.validate.__name__ == "validate"
    assert inspect.isfunction(module.parse) and module.parse.__name__ == "parse"
    assert isinstance(module.Error, type) and module.Error.__name__ == "Error"
    assert isinstance(module.Result, type) and module.Result.__name__ == "Result"
    assert module.MAX_ERRORS == 100 and module.ACCEPT == "accept"
    typed = getattr(module, "Arguments", None)
    if typed is not None:  # the TypedDict of the accepted arguments names the keys exactly
        keys = set(typed.__required_keys__) | set(typed.__optional_keys__)
        assert keys == set(contract["parameters"]["properties"]), keys ^ set(
            contract["parameters"]["properties"]
        )
        assert set(typed.__required_keys__) == set(contract["parameters"]["required"])
        sys.modules[module.__name__] = module
        try:
            typing.get_type_hints(typed)  # the annotations evaluate
        finally:
            del sys.modules[module.__name__]


def math_module() -> types.ModuleType:
    return importlib.import_module("math")


@pytest.mark.parametrize("label", LABELS)
def test_a_key_with_that_name_is_accepted_where_declared_and_refused_where_not(label: str) -> None:
    text = HOSTILE[label]
    module = pipeline.load_module(_generated(label).module_source, "x.py")

    def pairs(value: Any) -> set[tuple[str, str]]:
        result = module.validate(value)
        result.feedback(), json.dumps(result.log_record()), repr(result)
        return {(e.path, e.code) for e in result.errors}

    valid = _valid_args(text)
    assert pairs(valid) == set()
    assert module.parse(json.dumps(valid)).ok
    assert module.parse(json.dumps(valid, ensure_ascii=False).encode("utf-8")).ok
    assert pairs({"zz_const": text}) == {(pointer(text), "required")}
    assert pairs({**valid, text: None}) == {(pointer(text), "type")}
    assert pairs({**valid, text: text + "x"}) == {(pointer(text), "enum")}
    assert pairs({**valid, "zz_nested": {}}) == {(pointer("zz_nested", text), "required")}
    assert pairs({**valid, "zz_closed": {text: 1}}) == {
        (pointer("zz_closed", text), "additionalProperties")
    }
    assert pairs({**valid, "zz_const": text + "x"}) == {("/zz_const", "const")}
    assert pairs({**valid, "zz_pattern": "<>"}) == ({("/zz_pattern", "pattern")} if text else set())
    assert pairs({**valid, "zz_list": [text + "x"]}) == {("/zz_list/0", "enum")}
    unknown = text + "_unknown"
    assert pairs({**valid, unknown: 1}) == {(pointer(unknown), "additionalProperties")}
    record = module.validate({**valid, "zz_secret": "TOP-SECRET-VALUE"}).log_record()
    assert "TOP-SECRET-VALUE" not in json.dumps(record)
    message = module.validate({"zz_const": text}).errors[0].message
    assert len(message) < 200


@pytest.mark.parametrize("label", LABELS)
def test_the_generated_tests_pass(label: str) -> None:
    """Every test function of the generated test module, with every parametrized row, in-process."""
    assert run_generated_tests(_generated(label)) > 0


def test_keys_that_differ_only_in_punctuation_stay_distinct() -> None:
    keys = [
        "a-b",
        "ab",
        "a_b",
        "a.b",
        "a b",
        "A-B",
        "a~b",
        "a/b",
        "a~1b",
        "a~0b",
        "",
        " ",
        "value",
        "value_2",
        "_value",
        "VALUE",
    ]
    contract = {
        "name": "distinct",
        "description": "keys that a namer could merge",
        "parameters": {
            "type": "object",
            "properties": {k: {"type": "integer", "const": i} for i, k in enumerate(keys)},
            "required": keys,
            "additionalProperties": False,
        },
        "examples": [{"args": {k: i for i, k in enumerate(keys)}}],
    }
    generated = generate(to_yaml(contract, "json"))
    assert isinstance(generated, pipeline.Generated), generated
    module = pipeline.load_module(generated.module_source, "x.py")
    valid = {k: i for i, k in enumerate(keys)}
    assert module.validate(valid).ok
    for i, key in enumerate(keys):
        missing = {k: v for k, v in valid.items() if k != key}
        assert {(e.path, e.code) for e in module.validate(missing).errors} == {
            (pointer(key), "required")
        }, key
        wrong = {**valid, key: i + 100}
        assert {(e.path, e.code) for e in module.validate(wrong).errors} == {
            (pointer(key), "const")
        }, key
    assert run_generated_tests(generated) > 0


def test_a_100000_character_enum_value() -> None:
    big = "é" + "x" * 99_998 + '"'
    contract = {
        "name": "big_enum",
        "description": "an enum value of 100,000 characters: " + big[:10],
        "parameters": {
            "type": "object",
            "properties": {"unit": {"type": "string", "enum": [big, "c"], "description": big}},
            "required": ["unit"],
            "additionalProperties": False,
        },
        "examples": [
            {"args": {"unit": big}},
            {
                "args": {"unit": big[:-1]},
                "status": "reject",
                "errors": [{"path": "/unit", "code": "enum"}],
            },
        ],
    }
    generated = generate(to_yaml(contract, "json"))
    assert isinstance(generated, pipeline.Generated), generated
    source = generated.module_source
    compile(source, "<big>", "exec")
    assert not bad_characters(source)
    assert len(source) < 2_000_000, f"the module is {len(source):,} characters"
    module, events = exec_spied(source, "big_enum")
    check_module_imports(events, set(_neutral_events_names()))
    assert module.validate({"unit": big}).ok
    assert module.parse(json.dumps({"unit": big})).ok
    result = module.validate({"unit": "C"})
    assert {(e.path, e.code) for e in result.errors} == {("/unit", "enum")}
    assert len(result.feedback()) < 2_000, (
        "feedback() must not print a 100,000-character enum value whole"
    )
    assert run_generated_tests(generated) > 0


def _neutral_events_names() -> set[str]:
    return {e.removeprefix("import ") for e in _neutral_events()} & (STDLIB | RUNTIME)


@pytest.mark.parametrize(
    ("label", "raw"),
    [
        ("raw NUL in YAML", b'name: t\ndescription: "a\x00b"\nparameters: {type: object}\n'),
        (
            "raw NUL in a key",
            b'name: t\ndescription: d\nparameters: {type: object, properties: {"a\x00": {}}}\n',
        ),
        (
            "escaped NUL in a double-quoted YAML string",
            b'name: t\ndescription: "a\\0b"\nparameters: {type: object}\n',
        ),
        (
            "escaped NUL key",
            b'name: t\ndescription: d\nparameters: {type: object, properties: {"a\\0": {type: string}}}\n',
        ),
        (
            "lone surrogate escape",
            b'name: t\ndescription: "a\\ud800b"\nparameters: {type: object}\n',
        ),
        (
            "lone surrogate key",
            b'name: t\ndescription: d\nparameters: {type: object, properties: {"\\ud800": {}}}\n',
        ),
        ("invalid UTF-8", b"name: t\ndescription: \xff\nparameters: {type: object}\n"),
        (
            "tool name with a quote",
            b'name: "x\\"]; import os"\ndescription: d\nparameters: {type: object}\n',
        ),
        (
            "tool name with a path",
            b'name: "../../etc/passwd"\ndescription: d\nparameters: {type: object}\n',
        ),
        (
            "tool name that is a Jinja expression",
            b'name: "{{ 7*7 }}"\ndescription: d\nparameters: {type: object}\n',
        ),
        ("tool name ..", b'name: ".."\ndescription: d\nparameters: {type: object}\n'),
        (
            "YAML python tag",
            b'name: t\ndescription: !!python/object/apply:os.system ["id"]\nparameters: {type: object}\n',
        ),
        (
            "YAML python name tag",
            b"name: t\ndescription: d\nparameters: !!python/name:os.system {type: object}\n",
        ),
        (
            "a line-continued double-quoted description",
            b'name: t\ndescription: "a \\\n  b"\nparameters: {type: object}\n',
        ),
        (
            "U+2028 raw in a YAML string",
            'name: t\ndescription: "a\u2028b"\nparameters: {type: object}\n'.encode(),
        ),
        (
            "right-to-left override raw in a key",
            'name: t\ndescription: d\nparameters: {type: object, properties: {"a\u202eb": {type: string}}}\n'.encode(),
        ),
    ],
)
def test_raw_contract_text_generates_safely_or_fails_cleanly(label: str, raw: bytes) -> None:
    result = generate(raw, "x")
    if isinstance(result, ContractError):
        return
    module_baseline, test_baseline = baseline_audits()
    for source, baseline, what in (
        (result.module_source, module_baseline, "module"),
        (result.test_source, test_baseline, "tests"),
    ):
        compile(source, what, "exec")
        assert not bad_characters(source), f"{label}: the {what} holds raw {bad_characters(source)}"
        for kind, found in ast_audit(source).items():
            if kind == "calls":  # a different contract shape: only the dangerous calls matter
                found = {
                    c
                    for c in found
                    if re.search(r"system|popen|exec|eval|__import__|open|subprocess", c)
                }
            if kind in ("free names", "calls", "imports"):
                assert found <= baseline.get(kind, set()) | {"TypedDict"}, (
                    f"{label}: new {kind} {sorted(found - baseline.get(kind, set()))}"
                )
    module, events = exec_spied(result.module_source, "raw_x")
    check_module_imports(events, _neutral_events_names())
    data = yaml.safe_load(raw.decode("utf-8"))
    assert data["description"] == module.DESCRIPTION
    assert data["parameters"] == module.INPUT_SCHEMA
    assert run_generated_tests(result) > 0


def test_generation_time_does_not_explode_with_the_number_of_properties() -> None:
    """150 plain string properties (5 KB of contract) must generate in seconds, not minutes (in a child, with a timeout).

    A contract is reviewed, not trusted: one that makes `toolshape generate` (and so CI) run
    for hours is a denial of service. Measured before this test: 50 properties 2 s,
    100 properties 12 s, 200 properties 84 s (without black): cases.add() compares each new
    derived case with every earlier one by re-serialising all of them.
    """
    code = textwrap.dedent("""
        import json, sys, time
        from pathlib import PurePosixPath
        from toolshape.codegen import render
        from toolshape.project import pipeline
        n = 150
        contract = {
            "name": "many", "description": "d",
            "parameters": {
                "type": "object",
                "properties": {f"p{i}": {"type": "string"} for i in range(n)},
                "required": [f"p{i}" for i in range(n)],
                "additionalProperties": False,
            },
        }
        started = time.perf_counter()
        pipeline.generate(json.dumps(contract).encode(), "many.yaml", PurePosixPath("many.yaml"), render.environment())
        print(round(time.perf_counter() - started, 2))
        """)
    timeout = 25.0
    try:
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        pytest.fail(
            f"hang: generating a contract of 150 properties did not finish within {timeout:.0f} s (killed)"
        )
    assert done.returncode == 0, done.stderr[-2000:]


def test_json_surrogate_pair_escapes_are_refused_cleanly() -> None:
    """JSON is YAML, except for \\ud83d\\ude00: YAML reads two lone surrogates. A clean error, not a crash."""
    raw = json.dumps(
        {"name": "t", "description": "\U0001f600", "parameters": {"type": "object"}}
    ).encode()
    assert b"\\ud83d\\ude00" in raw
    result = generate(raw)
    assert isinstance(result, ContractError) and "surrogate" in str(result)


# -- 2. every hostile text at once, formatted, run by pytest -----------------------------


#: Every text that is not a plain word, and a few words that name the module's own things.
#: (Not all 60-odd texts: generation time grows steeply with the number of properties.)
ALL_AT_ONCE = [t for t in HOSTILE.values() if not WORDLIKE.fullmatch(t)] + [
    "ab",
    "value",
    "errors",
    "Error",
    "json",
    "class",
    "1abc",
    "str",
    "_json_key",
]


def all_at_once_contract() -> dict[str, Any]:
    """One contract whose keys, enum values, descriptions and titles are the hostile texts, all at once."""
    texts = ALL_AT_ONCE
    properties: dict[str, Any] = {
        text: {
            "type": ["string", "null"],
            "title": text,
            "description": text,
            "enum": [text, f"other {i}", None],
        }
        for i, text in enumerate(texts)
    }
    return {
        "name": "all_hostile",
        "description": " ".join(texts),
        "parameters": {
            "type": "object",
            "title": "".join(texts),
            "description": "\n".join(texts),
            "properties": properties,
            "required": texts,
            "additionalProperties": False,
        },
        "examples": [
            {"description": "".join(texts), "args": {u: u for u in texts}},
            {"description": "all null", "args": dict.fromkeys(texts)},
            {"json": json.dumps({u: u for u in texts})},
            {
                "args": {u: u for u in texts[1:]},
                "status": "reject",
                "errors": [{"path": pointer(texts[0]), "code": "required"}],
            },
        ],
    }


#: Per-text contracts that also go through black (the rest skip it, for speed) and pytest.
FORMATTED = [
    "code injection",
    "U+2028 line separator",
    "backslash at the end of a line",
    "triple double quotes",
]


@pytest.fixture(scope="module")
def all_at_once(tmp_path_factory: pytest.TempPathFactory) -> tuple[pipeline.Generated, Path]:
    """The all-at-once contract, and a few per-text ones formatted by black, in the generated layout.

    pkg/__init__.py, pkg/<stem>.py, pkg/tests/__init__.py, pkg/tests/test_<stem>.py: the
    generated tests import their module relatively (``from .. import <stem> as module``).
    """
    generated = generate(to_yaml(all_at_once_contract(), "quoted yaml"), "hostile")
    assert isinstance(generated, pipeline.Generated), (
        f"the all-at-once contract does not generate: {generated}"
    )
    root = tmp_path_factory.mktemp("all_at_once")
    package = root / "hostile_pkg"
    (package / "tests").mkdir(parents=True)
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "tests" / "__init__.py").write_text("", encoding="utf-8")
    (package / "_runtime.py").write_text(
        pipeline.runtime_source(render.environment()), encoding="utf-8"
    )
    outputs = [generated]
    for i, label in enumerate(FORMATTED):
        formatted = generate(
            to_yaml(hostile_contract(HOSTILE[label]), "quoted yaml"), f"formatted_{i}"
        )
        assert isinstance(formatted, pipeline.Generated), formatted
        outputs.append(formatted)
    for output in outputs:
        (package / output.module_path.as_posix()).write_text(output.module_source, encoding="utf-8")
        (package / output.test_path.as_posix()).write_text(output.test_source, encoding="utf-8")
    return generated, root


def test_all_hostile_texts_at_once_are_laid_out_as_black_would() -> None:
    """Every hostile text in one contract, formatted the way the built-in templates are
    (layout.py, black only where it must): the module is exactly what black makes of it,
    wide characters, escapes and quotes of every kind included."""
    import black

    generated = generate(to_yaml(all_at_once_contract(), "quoted yaml"), "hostile")
    assert isinstance(generated, pipeline.Generated), generated
    assert black.format_str(generated.module_source, mode=black.Mode()) == generated.module_source


def test_all_hostile_texts_at_once_are_data(all_at_once: tuple[pipeline.Generated, Path]) -> None:
    generated, _ = all_at_once
    contract = all_at_once_contract()
    module_baseline, test_baseline = baseline_audits()
    for text in ALL_AT_ONCE:
        if WORDLIKE.fullmatch(text):
            continue
        code, _ = code_outside_literals(generated.module_source)
        for piece in probes(text):
            assert piece not in code, f"{piece!r} appears outside string literals and comments"
    for source, what in ((generated.module_source, "module"), (generated.test_source, "tests")):
        assert not bad_characters(source), f"the {what} holds raw {bad_characters(source)}"
        _, comments = code_outside_literals(source)
        assert all(c.isascii() and c.isprintable() for c in comments)
    audit = ast_audit(generated.module_source)
    assert audit["imports"] <= module_baseline["imports"]
    assert audit["free names"] <= module_baseline["free names"], (
        audit["free names"] - module_baseline["free names"]
    )
    module, events = exec_spied(generated.module_source, "hostile_pkg.hostile")
    check_module_imports(events, _neutral_events_names())
    assert (
        contract["parameters"] == module.INPUT_SCHEMA
        and contract["description"] == module.DESCRIPTION
    )
    texts = ALL_AT_ONCE
    assert module.validate({u: u for u in texts}).ok
    assert module.validate(dict.fromkeys(texts)).ok
    for text in texts:
        others = {u: u for u in texts if u != text}
        assert {(e.path, e.code) for e in module.validate(others).errors} == {
            (pointer(text), "required")
        }, text
        assert {(e.path, e.code) for e in module.validate({**others, text: "nope"}).errors} == {
            (pointer(text), "enum")
        }, text


def test_all_hostile_texts_at_once_generated_tests_pass_under_pytest(
    all_at_once: tuple[pipeline.Generated, Path],
) -> None:
    _, root = all_at_once
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(root),
            str(root / "hostile_pkg" / "tests"),
        ],
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert re.search(r"\d+ passed", done.stdout)


# -- 3. hypothesis: contracts made of arbitrary text ------------------------------------

#: Any text YAML can carry (lone surrogates cannot be written in a contract at all).
ANY_TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=("Cs",)), max_size=24)
SPICY = st.sampled_from(list(HOSTILE.values()))
TEXT = st.one_of(ANY_TEXT, SPICY, st.builds(lambda a, b: a + b, SPICY, ANY_TEXT))
RESERVED = {"zz_pattern", "zz_const", "zz_secret", "zz_nested", "zz_closed", "zz_list"}


@st.composite
def contracts(draw: st.DrawFn) -> tuple[dict[str, Any], dict[str, Any]]:
    keys = draw(
        st.lists(TEXT, min_size=3, max_size=3, unique=True).filter(
            lambda ks: not set(ks) & RESERVED
        )
    )
    k1, k2, unknown = keys
    values = draw(st.lists(TEXT, min_size=1, max_size=3, unique=True))
    pattern_text = draw(TEXT)
    escape = draw(st.sampled_from([ecma_escape, re.escape]))
    description = draw(TEXT)
    name = draw(st.from_regex(TOOL_NAME_RE, fullmatch=True))
    contract = {
        "name": name,
        "description": "d" + description,
        "parameters": {
            "type": "object",
            "title": draw(TEXT),
            "description": description,
            "properties": {
                k1: {
                    "type": "string",
                    "enum": values,
                    "description": draw(TEXT),
                    "title": draw(TEXT),
                    "default": values[0],
                    "examples": values,
                },
                k2: {
                    "type": "string",
                    "pattern": escape(pattern_text),
                    "maxLength": len(pattern_text) + 10,
                    "description": draw(TEXT),
                },
            },
            "required": [k1],
            "additionalProperties": False,
        },
        "examples": [
            {"args": {k1: values[0], k2: "<" + pattern_text + ">"}, "description": draw(TEXT)},
            {
                "args": {k1: values[-1], unknown: values[0]},
                "status": "reject",
                "errors": [{"path": pointer(unknown), "code": "additionalProperties"}],
            },
        ],
    }
    facts = {"k1": k1, "k2": k2, "unknown": unknown, "values": values, "pattern_text": pattern_text}
    return contract, facts


#: Modest by default, so that this file runs in well under a minute; raise it for a deeper search.
EXAMPLES = int(os.environ.get("TOOLSHAPE_HOSTILE_EXAMPLES", "50"))


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(drawn=contracts(), how=st.sampled_from(["json", "quoted yaml"]))
def test_contracts_of_arbitrary_text(
    drawn: tuple[dict[str, Any], dict[str, Any]], how: str
) -> None:
    contract, facts = drawn
    raw = to_yaml(contract, how)
    if how != "json":
        assume(yaml.safe_load(raw.decode("utf-8")) == contract)  # pyyaml itself round-trips it
    result = generate(raw, "x")
    if isinstance(result, ContractError):
        event(f"clean contract error: {result.problems[0].message[:60]}")
        return  # a clean refusal is a fine outcome
    event("generated")
    module_baseline, test_baseline = baseline_audits()
    texts = [
        facts["k1"],
        facts["k2"],
        facts["unknown"],
        facts["pattern_text"],
        *facts["values"],
        contract["description"],
    ]
    for source, baseline, what in (
        (result.module_source, module_baseline, "module"),
        (result.test_source, test_baseline, "tests"),
    ):
        compile(source, what, "exec")
        assert not bad_characters(source), f"the {what} holds raw {bad_characters(source)}"
        code, comments = code_outside_literals(source)
        assert all(c.isascii() and c.isprintable() for c in comments)
        for text in texts:
            if not WORDLIKE.fullmatch(text):
                for piece in probes(text):
                    assert piece not in code, (
                        f"{what}: {piece!r} appears outside string literals and comments"
                    )
        for kind, found in ast_audit(source).items():
            assert found <= baseline.get(kind, set()), (
                f"the {what} has new {kind}: {sorted(found - baseline.get(kind, set()))}"
            )
    module, events = exec_spied(result.module_source, "arbitrary_x")
    check_module_imports(events, _neutral_events_names())
    assert contract["parameters"] == module.INPUT_SCHEMA
    assert contract["description"] == module.DESCRIPTION
    k1, k2, unknown = facts["k1"], facts["k2"], facts["unknown"]
    for value in facts["values"]:
        assert module.validate({k1: value}).ok
    assert {(e.path, e.code) for e in module.validate({}).errors} == {(pointer(k1), "required")}
    refused = module.validate({k1: facts["values"][0], unknown: 1})
    assert {(e.path, e.code) for e in refused.errors} == {
        (pointer(unknown), "additionalProperties")
    }
    assert module.validate({k1: facts["values"][0], k2: "<" + facts["pattern_text"] + ">"}).ok
    json.dumps(refused.log_record())
    refused.feedback()
    assert run_generated_tests(result) > 0


# -- 4. the generator never writes outside its output folder ----------------------------

GOOD_CONTRACT = json.dumps(
    {
        "name": "ok_tool",
        "description": "A fine tool.",
        "parameters": {
            "type": "object",
            "properties": {"a": {"type": "string"}},
            "required": ["a"],
            "additionalProperties": False,
        },
    }
)


def _tree(root: Path) -> dict[str, bytes]:
    """Every file under root (symlinks as their target), to compare before and after."""
    found = {}
    for path in sorted(root.rglob("*")):
        if path.is_symlink():
            found[str(path.relative_to(root))] = b"-> " + os.readlink(path).encode()
        elif path.is_file():
            found[str(path.relative_to(root))] = path.read_bytes()
    return found


@pytest.fixture
def contracts_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "contracts"
    folder.mkdir()
    (folder / "ok_tool.yaml").write_text(GOOD_CONTRACT, encoding="utf-8")
    return folder


def _plan(folder: Path) -> planning.Plan:
    return planning.plan(folder, ENV)


def test_a_symlink_to_a_contract_outside_is_refused(contracts_dir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "evil.yaml").write_text(
        GOOD_CONTRACT.replace("ok_tool", "evil_tool"), encoding="utf-8"
    )
    (contracts_dir / "evil.yaml").symlink_to(outside / "evil.yaml")
    with pytest.raises(ContractError) as refused:
        _plan(contracts_dir)
    assert "symlink" in str(refused.value)


def test_a_symlinked_folder_outside_is_not_read(contracts_dir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "evil.yaml").write_text(
        GOOD_CONTRACT.replace("ok_tool", "evil_tool"), encoding="utf-8"
    )
    (contracts_dir / "sub").symlink_to(outside, target_is_directory=True)
    try:
        plan = _plan(contracts_dir)
    except ContractError as refused:
        assert "symlink" in str(refused)
        return
    assert all(g.contract.name != "evil_tool" for g in plan.generated), (
        "a contract outside the tree was generated"
    )


@pytest.mark.parametrize("name", ["..yaml", "a..b.yaml", "...yaml", "..."])
def test_contract_file_names_with_dots_are_refused(contracts_dir: Path, name: str) -> None:
    path = contracts_dir / (name if name.endswith(".yaml") else name + "/x.yaml")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(GOOD_CONTRACT.replace("ok_tool", "dots"), encoding="utf-8")
    with pytest.raises(ContractError):
        _plan(contracts_dir)


@pytest.mark.parametrize(
    "relative", ["../evil.py", "../../evil.py", "sub/../../evil.py", "<absolute>/evil.py"]
)
def test_write_refuses_paths_that_leave_the_output_folder(tmp_path: Path, relative: str) -> None:
    out = tmp_path / "work" / "out"
    out.mkdir(parents=True)
    absolute = tmp_path / "absolute"
    absolute.mkdir()
    relative = relative.replace("<absolute>", str(absolute))
    before = _tree(tmp_path)
    plan = planning.Plan(files={PurePosixPath(relative): "# Generated by toolshape\nX = 1\n"})
    with pytest.raises(ContractError):
        writing.write(plan, out)
    assert _tree(tmp_path) == before, "write() changed files although it refused the plan"


def test_a_generated_module_that_is_a_symlink_out_is_refused_and_nothing_changes(
    contracts_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    plan = _plan(contracts_dir)
    writing.write(plan, out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    target = elsewhere / "ok_tool.py"
    target.write_text("# Generated by toolshape\nprecious = True\n", encoding="utf-8")
    (out / "ok_tool.py").unlink()
    (out / "ok_tool.py").symlink_to(target)
    (contracts_dir / "ok_tool.yaml").write_text(
        GOOD_CONTRACT.replace("A fine tool.", "A changed tool."), encoding="utf-8"
    )
    before_out, before_target = _tree(out), target.read_bytes()
    changed = _plan(contracts_dir)
    with pytest.raises(ContractError) as refused:
        writing.write(changed, out)
    assert "outside" in str(refused.value)
    assert target.read_bytes() == before_target, "the file outside the output folder was written"
    assert _tree(out) == before_out, (
        "write() refused, but only after replacing other files: the output is a mix of old and new "
        f"({sorted(k for k in _tree(out) if _tree(out)[k] != before_out.get(k))})"
    )


def test_a_generated_subfolder_that_is_a_symlink_out_is_refused(tmp_path: Path) -> None:
    contracts_dir = tmp_path / "contracts"
    (contracts_dir / "billing").mkdir(parents=True)
    (contracts_dir / "billing" / "refund.yaml").write_text(
        GOOD_CONTRACT.replace("ok_tool", "refund"), encoding="utf-8"
    )
    out = tmp_path / "out"
    out.mkdir()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (out / "billing").symlink_to(elsewhere, target_is_directory=True)
    with pytest.raises(ContractError):
        writing.write(_plan(contracts_dir), out)
    assert list(elsewhere.iterdir()) == [], "files were written through the symlinked folder"


def test_stale_files_behind_a_symlinked_folder_are_not_removed(
    contracts_dir: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    writing.write(_plan(contracts_dir), out)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    precious = elsewhere / "old_tool.py"
    precious.write_text("# Generated by toolshape\nprecious = True\n", encoding="utf-8")
    (out / "old").symlink_to(elsewhere, target_is_directory=True)
    with contextlib.suppress(ContractError):
        writing.write(_plan(contracts_dir), out)
    assert precious.exists(), "write() removed a file outside the output folder"


def test_a_tool_named_dot_dot_writes_only_inside_the_output_folder(tmp_path: Path) -> None:
    contracts_dir = tmp_path / "contracts"
    contracts_dir.mkdir()
    (contracts_dir / "dots.yaml").write_text(
        GOOD_CONTRACT.replace("ok_tool", ".."), encoding="utf-8"
    )
    out = tmp_path / "out"
    outside_before = {p for p in tmp_path.rglob("*") if out not in p.parents and p != out}
    try:
        writing.write(_plan(contracts_dir), out)
    except ContractError:
        return
    outside_after = {p for p in tmp_path.rglob("*") if out not in p.parents and p != out}
    assert outside_after == outside_before
