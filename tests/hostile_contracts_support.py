"""What the hostile-contract tests share (issue 5): the hostile texts, the contracts made of
them, generation with every dangerous call trapped, the checks of one generated source, a
module executed with its imports spied, and its generated tests run in-process.

A contract cannot make the generator emit code nobody wrote. A contract arrives in a pull request from someone who may not be trusted; the
reviewer reads the contract, not every generated line. Every string a contract
holds (property names, descriptions, titles, enum and const values, defaults,
schema examples, patterns, example arguments, the tool description) must reach
the generated code as data only. For each hostile text, and for contracts
hypothesis makes up from arbitrary text, the ``test_hostile_contracts_*.py`` files check that

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

The files: ``..._texts`` (each hostile text in every place of a
contract), ``..._raw`` (raw contract bytes: NUL, surrogates, invalid UTF-8, YAML tags),
``..._sizes`` (a 100,000-character enum value, 150 properties), ``..._all_at_once`` (every text
in one contract, formatted and run by pytest), ``..._arbitrary`` (hypothesis) and
``..._output_folder`` (the generator never writes outside its output folder).
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import functools
import io
import itertools
import json
import os
import re
import socket
import subprocess
import sys
import tokenize
import types
import unicodedata
from collections.abc import Callable, Iterator
from pathlib import PurePosixPath
from typing import Any

import pytest
import yaml
from generated_harness import generated_test_calls
from support import CONTEXT
from toolshape.contract.errors import ContractError
from toolshape.project import pipeline, runtime

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
    contract = _hostile_parameters(text, name, other, pattern_escape)
    # The result's schema holds the text in the same places: it reaches the module the same way.
    contract["output"] = json.loads(json.dumps(contract["parameters"]))
    contract["examples"].append({"description": text, "result": valid_args(text)})
    return contract


def _hostile_parameters(
    text: str, name: str, other: str, pattern_escape: Callable[[str], str]
) -> dict[str, Any]:
    """The contract of ``hostile_contract`` but for its ``output``."""
    return {
        "name": name,
        "title": "Tool: " + text,
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
            {"description": text, "args": valid_args(text)},
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


def valid_args(text: str) -> dict[str, Any]:
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
                raw, f"{stem}.yaml", PurePosixPath(f"{stem}.yaml"), CONTEXT
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
    generated = generated_neutral()
    return (
        code_outside_literals(generated.module_source)[0]
        + code_outside_literals(generated.test_source)[0]
    )


def ast_audit(source: str, tree: ast.Module | None = None) -> dict[str, set[str]]:
    """Imports, free names (neither bound in the module nor ...), attribute names and call targets of a source.

    ``tree`` is ``source`` parsed, where the caller has it; it is normalised in place."""
    tree = ast.parse(source) if tree is None else tree
    bound: set[str] = set()
    loads: set[str] = set()
    imports: set[str] = set()
    attrs: set[str] = set()
    top_level: set[str] = set()
    node: ast.AST
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

    # Every call's target is listed before any is normalised: normalising replaces names and
    # constants inside a target, and a call nested in another's target is normalised twice,
    # which gives what once does.
    targets = [node.func for node in ast.walk(tree) if isinstance(node, ast.Call)]
    calls = {ast.unparse(Normalise().visit(target)) for target in targets}
    return {"imports": imports, "free names": free, "attributes": attrs, "calls": calls}


def check_source(
    source: str, text: str, baseline: dict[str, set[str]], *, identifier_ok: bool, what: str
) -> None:
    tree = ast.parse(source)
    compile(tree, f"<{what}>", "exec")
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
    audit = ast_audit(source, tree)
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
    # In the package where runtime.load_module puts modules: `from ._runtime import` finds the runtime there.
    module.__dict__["__package__"] = (
        package if package is not None else runtime.runtime_module().__package__
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


_PACKAGES = itertools.count()


def run_generated_tests(generated: pipeline.Generated) -> int:
    """Run every test of the generated test module against the generated module, in-process."""
    package = f"_hostile_pkg_{next(_PACKAGES)}"
    stem = generated.module_path.stem
    top = types.ModuleType(package)
    top.__path__ = []
    tests = types.ModuleType(f"{package}.tests")
    tests.__path__ = []
    module = types.ModuleType(f"{package}.{stem}")
    module.__package__ = package
    sys.modules[f"{package}._runtime"] = (
        runtime.runtime_module()
    )  # what `from ._runtime import` finds
    exec(compile(generated.module_source, module.__name__, "exec"), module.__dict__)
    setattr(top, stem, module)
    sys.modules.update({package: top, tests.__name__: tests, module.__name__: module})
    try:
        test_module = types.ModuleType(f"{package}.tests.test_{stem}")
        test_module.__package__ = tests.__name__
        sys.modules[test_module.__name__] = test_module
        exec(compile(generated.test_source, test_module.__name__, "exec"), test_module.__dict__)
        calls = generated_test_calls(test_module)
        for call in calls:
            try:
                call()
            except Exception as exc:
                raise AssertionError(
                    f"generated test {call.name}{call.kwargs!r:.300} failed: {exc!r:.500}"
                ) from exc
        return len(calls)
    finally:
        for key in [k for k in sys.modules if k == package or k.startswith(package + ".")]:
            del sys.modules[key]


# -- One hostile text's output, and the neutral one to compare with ----------------------


def generated_or_skip(label: str, how: str = "json") -> pipeline.Generated:
    """The output for one hostile text; the test is skipped when the contract is refused cleanly."""
    result = generated_for(label, how)
    if isinstance(result, ContractError):
        pytest.skip(f"a clean contract error: {str(result)[:200]}")
    return result


@functools.cache
def generated_neutral() -> pipeline.Generated:
    """The output for the same contract with neutral text in every place."""
    result = generate(to_yaml(hostile_contract(NEUTRAL), "json"), "x")
    assert isinstance(result, pipeline.Generated)
    return result


@functools.cache
def neutral_events() -> tuple[str, ...]:
    """What executing the neutral module does (its imports, spied)."""
    return tuple(exec_spied(generated_neutral().module_source, "neutral_x")[1])


def neutral_events_names() -> set[str]:
    """The modules the neutral module imports: the standard library's and the runtime."""
    return {e.removeprefix("import ") for e in neutral_events()} & (STDLIB | RUNTIME)
