"""The model the tests template (``tests.py.j2``) prints: one generated pytest module per contract.

Built beside the module's model (``model.py``) and, like it, holding every contract value as a
literal already: the contract's examples, the derived cases written as changes to one accepted
base, the texts ``parse`` must refuse, and what redaction must hide: the secrets of the
``x-sensitive`` schemas, mined from the cases and examples, which no output may show, and the
places each case redacts.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from ..contract import checker, redaction
from ..families.values.checks import TYPE_CODE
from ..schema.pointers import child
from . import cases, model, render
from .literals import Code, comment, literal, literal_text
from .masks import may_hold_secrets
from .widths import width
from .wrapping import (
    LINE_LENGTH,
    ROW_ITEM_INDENT,
    Texts,
    dict_text,
    entry,
    one_line,
    tuple_entry,
)


@dataclass
class TestsModel:
    """What the tests template prints (every contract value already a literal)."""

    version: Code
    source: Code
    digest: Code
    command: Code
    #: The docstring's first line, or two where a long tool name would not fit in one.
    summary: Code
    tool_name: Code
    schema: Code
    import_line: Code
    # Data, one literal per entry, laid out within 88 columns by ``wrapping.py``:
    # printed between "fmt: off" and "fmt: on", so no formatter rewrites them.
    examples: list[Code]
    base: Code
    cases: list[CaseRow]
    not_objects: list[Code]
    parse_cases: list[Code]
    valid_text: Code
    sensitive_values: list[Code]
    redaction_places: list[Code]
    #: (case, pointers, errors without a platform): nulls that stand for absent keys.
    absent_nulls: list[Code]
    #: (case, pointers): integers of the base sent as integral floats.
    integral: list[Code]
    #: Whether the base arguments are accepted: a schema may accept nothing (``import`` keeps
    #: one as written), or no accepted value was found; the tests of an accepted call are
    #: then skipped, saying why.
    accepted: bool = True
    #: The tests of the result's side (``validate_result``), when the contract has ``output``.
    result: ResultTests | None = None
    #: The code of the error on a value that is not an object, as its family spells it.
    type_code: Code = TYPE_CODE


@dataclass
class ResultTests:
    """What the tests template prints for the result's side: the same kinds of data as the
    arguments', derived by the same code from ``output`` (the contract's result side)."""

    schema: Code
    examples: list[Code]
    base: Code
    cases: list[CaseRow]
    not_objects: list[Code]
    valid_text: Code
    sensitive_values: list[Code]
    redaction_places: list[Code]
    accepted: bool


@dataclass
class CaseChange:
    """One change a derived case makes to the base arguments."""

    pointer: Code  # a JSON Pointer literal
    value: Code  # a literal, or MISSING (the key is left out)


@dataclass
class CaseRow:
    """One derived case. The built-in template prints ``row``; a custom one may print the
    parts itself (``name``, ``changes``, ``errors``: literals made when read, so that the
    built-in template does not pay for them)."""

    #: The row as the CASES table prints it: (name, {pointer: value}, errors), laid out.
    row: Code
    case: cases.Case
    found: list[tuple[str, Any]]

    @property
    def name(self) -> Code:
        return literal(self.case.name)

    @property
    def changes(self) -> list[CaseChange]:
        return [
            CaseChange(literal(pointer), Code("MISSING") if new is cases.MISSING else literal(new))
            for pointer, new in self.found
        ]

    @property
    def errors(self) -> Code:
        return literal(frozenset(self.case.errors))


class StandIns:
    """Every data entry of a tests' model, each in the model replaced by its stand-in
    (``render.stand_in``): the model the built-in template renders through
    ``render.render_tables``, which compiles only the code around the entries."""

    def __init__(self, tests: TestsModel) -> None:
        #: The entries, in the order of their stand-ins.
        self.entries: list[Code] = []
        result = tests.result
        #: The model with stand-ins.
        self.model = replace(
            tests,
            schema=self._one(tests.schema),
            examples=self._all(tests.examples),
            base=self._one(tests.base),
            cases=self._rows(tests.cases),
            not_objects=self._all(tests.not_objects),
            parse_cases=self._all(tests.parse_cases),
            valid_text=self._one(tests.valid_text),
            sensitive_values=self._all(tests.sensitive_values),
            redaction_places=self._all(tests.redaction_places),
            absent_nulls=self._all(tests.absent_nulls),
            integral=self._all(tests.integral),
            result=None if result is None else self._result(result),
        )

    def _one(self, entry: Code) -> Code:
        self.entries.append(entry)
        return render.stand_in(len(self.entries) - 1)

    def _all(self, entries: list[Code]) -> list[Code]:
        return [self._one(entry) for entry in entries]

    def _rows(self, rows: list[CaseRow]) -> list[CaseRow]:
        # Made directly, not by dataclasses.replace (which costs a few microseconds a call,
        # and a contract has hundreds of rows). measured: StandIns 0.94 -> 0.42 ms per contract.
        return [CaseRow(self._one(row.row), row.case, row.found) for row in rows]

    def _result(self, result: ResultTests) -> ResultTests:
        return replace(
            result,
            schema=self._one(result.schema),
            examples=self._all(result.examples),
            base=self._one(result.base),
            cases=self._rows(result.cases),
            not_objects=self._all(result.not_objects),
            valid_text=self._one(result.valid_text),
            sensitive_values=self._all(result.sensitive_values),
            redaction_places=self._all(result.redaction_places),
        )


#: The errors of a case as its row holds them (``_errors_item``), by the errors themselves.
ErrorsItems = dict[frozenset[tuple[str, str]], object]


def _errors_item(errors: frozenset[tuple[str, str]], written: ErrorsItems) -> object:
    """The errors of a case as its row hands them to ``entry``: their literal, made once per
    distinct set of errors (a property's type samples all report the same), where the line it
    takes in a split row fits, so ``entry`` writes it there as it is, exactly as it writes the
    set; the set itself where the row may cut it (``entry`` then splits it as always).
    ``written`` holds what was made, by the errors (pairs of strings: equal sets, equal text)."""
    known = written.get(errors)
    if known is None:
        text = literal_text(errors)
        fits = width(" " * ROW_ITEM_INDENT + text + ",") <= LINE_LENGTH
        known = written[errors] = Code(text) if fits else errors
    return known


#: The literals of the scalars the cases put in place (the type samples, bounds, enum
#: members: a property's cases share most), by type and value, made once per contract; a
#: float by its sign too: -0.0 equals 0.0 but is written apart.
ScalarTexts = dict[tuple[object, ...], str]

#: The scalars whose type and value tell their literal.
_KEYED_SCALARS = (str, int, bool, type(None))


def _value_text(value: object, texts: Texts, scalars: ScalarTexts) -> str:
    """``one_line(value, texts)``, a scalar's made once per contract (``scalars``); a float's
    too, keyed by its sign as well (-0.0 equals 0.0, and only they of equal finite floats are
    written apart); the empty list and dict, written as they always are. Most cases put one
    of these in place (measured: the case rows about 0.2 ms per contract over the 40-contract
    set)."""
    kind = type(value)
    if kind not in _KEYED_SCALARS:
        if kind is float:
            key: tuple[object, ...] = (float, value, math.copysign(1.0, value))  # type: ignore[arg-type]  # mypy does not narrow on `kind`
        elif (kind is list or kind is dict) and not value:
            return "[]" if kind is list else "{}"
        elif value is _MISSING:
            return _MISSING_TEXT
        else:
            return one_line(value, texts)
    else:
        key = (kind, value)
    known = scalars.get(key)
    if known is None:
        known = scalars[key] = one_line(value, texts)
    return known


def _case_row(
    base: Any,
    case: cases.Case,
    written: ErrorsItems | None = None,
    pointers: dict[str, str] | None = None,
    scalars: ScalarTexts | None = None,
) -> CaseRow:
    """The row of one case; ``written``: the errors items made for the rows before it;
    ``pointers``: the literals of the pointers they changed (a property's cases all change
    it), ``scalars``: of the scalars they put there."""
    found, exact = cases.case_changes(base, case)
    # The rebuilt case must be the case itself, key order included (it orders the errors).
    if not exact and not cases.identical(cases.apply(base, found), case.data, ordered=True):
        raise AssertionError(
            f"toolshape bug: case {case.name!r} cannot be written as changes to the base"
        )
    pointers = {} if pointers is None else pointers
    scalars = {} if scalars is None else scalars
    changes: dict[str, object] = {}
    pairs: list[tuple[str, str]] = []
    texts: Texts = {}  # the texts of the values' parts: a row that splits lays them out
    for pointer, new in found:
        value = changes[pointer] = _MISSING if new is cases.MISSING else new
        key = pointers.get(pointer)
        if key is None:
            key = pointers[pointer] = literal_text(pointer)
        pairs.append((key, _value_text(value, texts, scalars)))
    errors = _errors_item(frozenset(case.errors), {} if written is None else written)
    # The row's items' texts, as ``wrapping.one_line`` writes them, handed to tuple_entry,
    # which measures them without writing them again.
    items = [
        literal_text(case.name),
        dict_text(pairs),
        str(errors) if isinstance(errors, Code) else literal_text(errors),
    ]
    row = tuple_entry((case.name, changes, errors), items, texts)
    return CaseRow(row, case, list(found))


#: What a change that leaves its key out is written as: the template's MISSING.
_MISSING = Code("MISSING")
_MISSING_TEXT = str(_MISSING)


def _case_rows(base: Any, derived: list[cases.Case]) -> list[CaseRow]:
    """The rows of the derived cases, written against ``base``."""
    written: ErrorsItems = {}
    pointers: dict[str, str] = {}
    scalars: ScalarTexts = {}
    return [_case_row(base, case, written, pointers, scalars) for case in derived]


def build(
    checked: checker.Contract,
    built: model.ModuleModel,
    module_path: PurePosixPath,
    derived: list[cases.Case],
    result_derived: list[cases.Case] | None = None,
) -> TestsModel:
    """The tests' model for the module ``built`` at ``module_path`` and its derived cases (and
    those of its result's side, ``result_derived``, when the contract has ``output``)."""
    # Relative to the tests' own package, so the generated folder can be vendored
    # under any name: tests/billing/test_refund.py -> from ...billing import refund
    parents = module_path.parent.parts
    package = f"{'.' * (len(parents) + 2)}{'.'.join(parents)}"
    import_line = f"from {package} import {module_path.stem} as module"
    if width(import_line) > LINE_LENGTH:  # as black splits it (its comma holds it at 100)
        import_line = f"from {package} import (\n    {module_path.stem} as module,\n)"
    examples = [
        (
            f"example {e.index + 1}: {e.description}"
            if e.description
            else f"example {e.index + 1}",
            "args" if e.has_args else "json",
            e.args if e.has_args else e.json,
            e.status,
            e.errors,
        )
        for e in checked.examples
    ]
    # The first accepted case: an arguments object.
    accepted = next((c.data for c in derived if not c.errors), None)
    base: dict[str, Any] = {} if accepted is None else accepted
    valid_text = json.dumps(base, ensure_ascii=False)
    not_objects = [None, [], [base], "text", json.dumps(base), 42, 1.5, True, False]
    said = _said_anyway()
    secrets = sorted(s for s in _sensitive_strings(checked, derived) if s not in said)
    normalising = cases.normalise_cases(checked, base)
    return TestsModel(
        version=built.version,
        source=built.source,
        digest=built.digest,
        command=built.command,
        summary=_summary(comment(checked.name)),
        tool_name=built.tool_name,
        schema=entry(checked.parameters, 0, "", before="SCHEMA = "),
        import_line=Code(import_line),
        examples=[entry(e) for e in examples],
        base=entry(base, 0, "", before="BASE: dict[str, object] = "),
        cases=_case_rows(base, derived),
        not_objects=[entry(v) for v in not_objects],
        parse_cases=[entry((p.name, p.text, p.code)) for p in cases.parse_cases(valid_text)],
        valid_text=entry(valid_text, 0, "", before="VALID_TEXT = "),
        sensitive_values=[entry(v) for v in secrets],
        redaction_places=_redaction_places(checked, derived),
        absent_nulls=[entry(row) for row in normalising.absent_nulls],
        integral=[entry(row) for row in normalising.integral],
        accepted=accepted is not None,
        result=_result_tests(checked, built, result_derived or []),
    )


def _summary(tool: str) -> Code:
    """What the tests are, in the docstring's first line: the tool's name on a line of its own
    where the sentence would be wider than a line (a user's ruff reads docstrings: E501)."""
    line = f"Tests for the {tool} validator, derived from its contract."
    if width('"""' + line) <= LINE_LENGTH:
        return Code(line)
    return Code(f"Tests derived from its contract, for the validator of the tool\n{tool}.")


def _result_tests(
    checked: checker.Contract, built: model.ModuleModel, derived: list[cases.Case]
) -> ResultTests | None:
    """The result's side of the tests, from the contract's result side and its derived cases."""
    side = checked.result_side()
    if side is None or built.result is None:
        return None
    examples = [
        (
            f"example {e.index + 1}: {e.description}"
            if e.description
            else f"example {e.index + 1}",
            e.args,
            e.status,
            e.errors,
        )
        for e in side.examples
    ]
    accepted = next((c.data for c in derived if not c.errors), None)
    base: dict[str, Any] = {} if accepted is None else accepted
    said = _said_anyway()
    secrets = sorted(s for s in _sensitive_strings(side, derived) if s not in said)
    return ResultTests(
        schema=entry(side.parameters, 0, "", before="OUTPUT_SCHEMA = "),
        examples=[entry(e) for e in examples],
        base=entry(base, 0, "", before="RESULT_BASE: dict[str, object] = "),
        cases=_case_rows(base, derived),
        not_objects=[entry(v) for v in [None, [], [base], "text", json.dumps(base), 42, True]],
        valid_text=entry(
            json.dumps(base, ensure_ascii=False), 0, "", before="RESULT_VALID_TEXT = "
        ),
        sensitive_values=[entry(v) for v in secrets],
        redaction_places=_redaction_places(side, derived),
        accepted=accepted is not None,
    )


def _sensitive_strings(checked: checker.Contract, derived: list[cases.Case]) -> set[str]:
    """Strings (4+ characters) that no output may show: the values at the places the
    contract's x-sensitive schemas govern (in some case or example), and the allowed
    values (enum, const) of those schemas; less any that the contract or the cases also
    show in the open (a key, a pattern, a value elsewhere), where finding one proves nothing."""
    parameters = checked.parameters
    if not may_hold_secrets(parameters):
        return set()  # nothing is redacted: walking every case would only cost time (issue 16)
    instances = [case.data for case in derived] + [e.args for e in checked.examples if e.has_args]
    found = redaction.allowed_secrets(parameters)
    public: set[str] = {checked.name}
    for instance in instances:
        if isinstance(instance, dict):
            found |= redaction.secret_strings(parameters, instance)
            public |= _public_strings(instance, redaction.places(parameters, instance))
    keys, strings = _contract_strings(parameters)
    public |= keys | (strings - redaction.allowed_secrets(parameters))
    return {s for s in found if len(s) >= 4 and not any(s in text for text in public)}


#: The generator's modules that write the phrases a module's messages are made of: model.py and
#: what it was split into (its parts, masks, runtime imports, types, and the builder by kind).
_MESSAGE_SOURCES = (
    "model.py",
    "model_parts.py",
    "masks.py",
    "runtime_imports.py",
    "typing_model.py",
    "building/*.py",
)


@functools.lru_cache(maxsize=1)
def _said_anyway() -> str:
    """The words a module prints on its own: the runtime's texts and the phrases its messages are
    made of (``_MESSAGE_SOURCES``). A secret found in them proves nothing, so the tests do not
    look for it. Taken from the generator's sources, never from a module's output; read once
    per process (they do not change while it runs), not once per contract."""
    here = Path(__file__).resolve().parent
    sources = [
        render.BUILTIN_TEMPLATES / "_runtime.py.j2",
        render.BUILTIN_TEMPLATES / "formats.py.j2",
        *(path for pattern in _MESSAGE_SOURCES for path in sorted(here.glob(pattern))),
    ]
    return "\n".join(path.read_text(encoding="utf-8") for path in sources)


def _public_strings(instance: Any, hidden: redaction.Places) -> set[str]:
    """Keys and strings of an instance outside its redacted places."""
    skip = set(hidden.redacted) | set(hidden.described)
    found: set[str] = set()

    def visit(value: Any, pointer: str) -> None:
        if pointer in skip:
            return
        if isinstance(value, str):
            found.add(value)
        elif isinstance(value, list):
            for index, item in enumerate(value):
                visit(item, f"{pointer}/{index}")
        elif isinstance(value, dict):
            for key, item in value.items():
                found.add(key)
                visit(item, child(pointer, key))

    visit(instance, "")
    return found


def _contract_strings(schema: Any) -> tuple[set[str], set[str]]:
    """The keys and the strings of a schema (messages name keys, patterns, allowed values)."""
    keys: set[str] = set()
    strings: set[str] = set()
    todo = [schema]
    while todo:
        value = todo.pop()
        if isinstance(value, str):
            strings.add(value)
        elif isinstance(value, list):
            todo += value
        elif isinstance(value, dict):
            keys |= set(value)
            todo += list(value.values())
    return keys, strings


def _redaction_places(checked: checker.Contract, derived: list[cases.Case]) -> list[Code]:
    """(case, redacted pointers, described pointers) for each derived case with either, from the contract."""
    rows: list[Code] = []
    if not may_hold_secrets(checked.parameters):
        return rows  # no schema is sensitive: no case has a redacted or described place
    for case in derived:
        if isinstance(case.data, dict):
            found = redaction.places(checked.parameters, case.data)
            if found.redacted or found.described:
                rows.append(entry((case.name, found.redacted, found.described)))
    return rows
