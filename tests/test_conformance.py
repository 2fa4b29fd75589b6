"""The official JSON-Schema-Test-Suite (draft 2020-12), run through GENERATED modules.

Every group of the suite whose schema uses only keywords toolshape supports is
turned into a contract (the group's schema becomes the one required property
``v`` of an object root), generated exactly as ``pipeline.generate`` does it
(check -> model -> render -> load; then the derived cases against the reference
evaluator), and each of the group's tests is fed to ``validate({"v": data})``.
A test is valid iff the generated module accepts it. One pytest test per group
(``test_cases``) runs all of its cases, and lists each one that disagrees.

The suite's data is vendored under ``tests/json-schema-test-suite/`` (its licence
and the upstream commit beside it): conformance runs in every clone, and a clone
without that data fails at collection (``support.suite_draft``), never skips.

Groups that use other keywords (or that read ``format`` as an annotation, or ``$ref`` a
remote schema or into a value) are not generated here: ``through_import`` says which, and
test_conformance_drafts.py runs them through ``toolshape import``. They are listed, with
what they use, by ``test_suite_summary`` (run with ``-s`` to see the list,
or look at the skip reasons with ``-rs``). Groups toolshape's contract checker
refuses are skipped with the checker's message. The one group where toolshape reads
ECMA-262 differently by design (``format: regex`` accepts what a contract's pattern may be)
is listed in ``ECMA_REGEX_DIFFERENCES``: its test is skipped, naming the cases, when (and
only when) some of them disagree and every other check holds; a listed group whose cases
all agree fails, so the list cannot hide a regression.
"""

from __future__ import annotations

import json
import traceback
import types
from dataclasses import dataclass
from typing import Any

import pytest
from support import suite_draft
from toolshape.codegen import cases, model, render
from toolshape.codegen.context import GenerationContext
from toolshape.contract import checker
from toolshape.contract.errors import ContractError
from toolshape.contract.source import Document
from toolshape.project import examples, runtime

# Each group's module is generated once per process (_OUTCOMES); under xdist the whole file
# runs on one worker (conftest.ONE_WORKER_FILES).

# -- Where the suite is ------------------------------------------------------------

DRAFT = suite_draft("draft2020-12")

#: The draft's own dialect URI: only at a group's root, where it merely names the
#: dialect these cases are written in (nearly every group in the suite has it), it
#: is dropped before the schema is wrapped. Anywhere else, or any other value,
#: counts as an unsupported use of ``$schema``.
DIALECT = "https://json-schema.org/draft/2020-12/schema"

#: The keywords toolshape implements (annotations included); anything else in a
#: schema means the group is skipped as "uses X".
SUPPORTED = frozenset(
    {
        "type",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "minLength",
        "maxLength",
        "pattern",
        "minimum",
        "maximum",
        "exclusiveMinimum",
        "exclusiveMaximum",
        "multipleOf",
        "items",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minProperties",
        "maxProperties",
        "prefixItems",
        "contains",
        "minContains",
        "maxContains",
        "patternProperties",
        "propertyNames",
        "dependentRequired",
        "dependentSchemas",
        "$ref",
        "$defs",
        "allOf",
        "anyOf",
        "oneOf",
        "not",
        "if",
        "then",
        "else",
        "format",
        "unevaluatedProperties",
        "unevaluatedItems",
        # annotations
        "title",
        "description",
        "default",
        "examples",
        "$comment",
        # annotations in 2020-12 (content vocabulary): accepted, never checked
        "contentEncoding",
        "contentMediaType",
        "contentSchema",
    }
)

#: At least this many groups must be generated and run: the suite cannot silently pass by
#: skipping groups (356 groups, 1889 cases once Unicode property escapes and the legal
#: schemas the check once refused, a keyword with no effect, an unknown format, a place no
#: value can pass, and the content annotations, began to generate).
MIN_GROUPS_RUN = 356
MIN_CASES_RUN = 1889

#: Where toolshape reads ECMA-262 regular expressions differently, by design. Keyed by
#: (file, group description); a case of a listed group that disagrees is skipped with this
#: reason, one that agrees must pass. (The pattern cases of optional/ecmascript-regex.json
#: all pass: the translation keeps ECMA-262's \d, \w, \s, $, \cX, [] and [^].)
ECMA_REGEX_DIFFERENCES: dict[tuple[str, str], str] = {
    # format: regex accepts the patterns toolshape can keep the meaning of in Python's re (README, Formats).
    (
        "optional/format/ecmascript-regex.json",
        "ECMA 262 lookbehind is valid, including variable width",
    ): (
        "format: regex is what a contract's pattern may be; Python's re looks behind by a fixed width only"
    ),
}


# -- Reading and selecting groups ------------------------------------------------


@dataclass
class Group:
    file: str  # relative to the draft folder, e.g. "optional/bignum.json"
    index: int
    description: str
    schema: Any  # as in the suite
    tests: list[dict[str, Any]]
    unsupported: list[str]  # keywords toolshape does not support, in order of appearance

    @property
    def key(self) -> tuple[str, int]:
        return (self.file, self.index)

    @property
    def ident(self) -> str:
        return f"{self.file}#{self.index} {self.description}"

    @property
    def ecma_reason(self) -> str | None:
        return ECMA_REGEX_DIFFERENCES.get((self.file, self.description))


def unsupported_keywords(schema: Any, *, root: bool = False) -> list[str]:
    """The keywords of ``schema`` (at any depth) that toolshape does not support.

    Only keyword positions are looked at: the keys under ``properties`` are
    property names (data), and the values of enum/const/default/examples are
    data too, so a property called "$ref" or an enum member {"$ref": ...} is not
    a use of $ref.
    """
    found: list[str] = []

    def visit(node: Any, at_root: bool) -> None:
        if isinstance(node, bool):
            return
        if not isinstance(node, dict):
            found.append(f"a non-schema value ({type(node).__name__})")
            return
        for keyword, value in node.items():
            if keyword == "$schema" and at_root and value == DIALECT:
                continue
            if keyword not in SUPPORTED:
                if keyword not in found:
                    found.append(keyword)
                continue
            if keyword in (
                "properties",
                "$defs",
                "patternProperties",
                "dependentSchemas",
            ) and isinstance(value, dict):
                for sub in value.values():
                    visit(sub, False)
            elif keyword in ("allOf", "anyOf", "oneOf", "prefixItems") and isinstance(value, list):
                for sub in value:
                    visit(sub, False)
            elif keyword in (
                "items",
                "additionalProperties",
                "not",
                "if",
                "then",
                "else",
                "contains",
                "propertyNames",
                "unevaluatedProperties",
                "unevaluatedItems",
                "contentSchema",
            ):
                visit(value, False)

    visit(schema, root)
    return found


def case_schema(schema: Any) -> Any:
    """The group's schema as the subschema of ``v``: the root dialect declaration dropped,
    and local $refs re-pointed below ``/properties/v`` where the schema now lives."""
    if isinstance(schema, dict) and schema.get("$schema") == DIALECT:
        schema = {k: v for k, v in schema.items() if k != "$schema"}
    return _repoint(schema)


def _repoint(node: Any) -> Any:
    if isinstance(node, list):
        return [_repoint(item) for item in node]
    if not isinstance(node, dict):
        return node
    moved = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and value.startswith("#"):
            moved[key] = "#/properties/v" + value[1:]
        elif key in ("enum", "const", "default", "examples"):
            moved[key] = value
        else:
            moved[key] = _repoint(value)
    return moved


#: The file whose groups read ``format`` as an annotation: a contract asserts every format.
ANNOTATED_FORMATS = "format.json"
#: The file whose groups ``$ref`` into a keyword's value that is no schema (``examples``, an
#: unknown keyword): a contract refuses it, import reads it as a schema under ``$defs``.
REFS_INTO_VALUES = "optional/refOfUnknownKeyword.json"


def through_import(relative: str, schema: Any) -> list[str]:
    """Why a group of this draft is run through ``toolshape import`` in
    test_conformance_drafts.py rather than as a contract here (empty: it runs here): keywords
    a contract refuses, formats read as annotations, a ``$ref`` into a value, a remote
    ``$ref``. This is the one place that splits the 2020-12 groups between the two files."""
    reasons = unsupported_keywords(schema, root=True)
    if relative == ANNOTATED_FORMATS:
        reasons.append("format as an annotation only (a contract asserts format)")
    if relative == REFS_INTO_VALUES:
        reasons.append("a $ref into a value that is no schema")
    if '"$ref": "http' in json.dumps(schema):
        reasons.append("a remote $ref (toolshape import --remote reads the suite's remotes/)")
    return reasons


def load_groups() -> list[Group]:
    if not DRAFT.is_dir():
        return []
    groups: list[Group] = []
    files = sorted(DRAFT.glob("*.json")) + sorted((DRAFT / "optional").rglob("*.json"))
    for path in files:
        relative = path.relative_to(DRAFT).as_posix()
        for index, raw in enumerate(json.loads(path.read_text(encoding="utf-8"))):
            groups.append(
                Group(
                    file=relative,
                    index=index,
                    description=raw["description"],
                    schema=raw["schema"],
                    tests=raw["tests"],
                    unsupported=through_import(relative, raw["schema"]),
                )
            )
    return groups


GROUPS = load_groups()
SELECTED = [g for g in GROUPS if not g.unsupported]
NOT_SUPPORTED = [g for g in GROUPS if g.unsupported]


# -- Generating one module per group -------------------------------------------------


@dataclass
class Outcome:
    """What generating a group's contract gave."""

    contract: dict[str, Any]
    module: types.ModuleType | None = None
    source: str | None = None  # the module's source, as render.py laid it out
    refused: str | None = None  # the contract checker's message
    failure: str | None = None  # building, rendering or loading the module went wrong
    derived_problem: str | None = None  # what the derived cases (examples.check_derived) gave
    needs_example: str | None = None  # derive refused without examples; this is its message


_OUTCOMES: dict[tuple[str, int], Outcome] = {}
_CONTEXT: GenerationContext | None = None


def wrap(schema: Any) -> dict[str, Any]:
    """A contract whose one required argument ``v`` has the case's schema."""
    return {
        "name": "conformance_case",
        "description": "One group of the JSON-Schema-Test-Suite, as the schema of the argument v.",
        "parameters": {
            "type": "object",
            "properties": {"v": case_schema(schema)},
            "required": ["v"],
        },
    }


def _derived(checked: checker.Contract, module: types.ModuleType) -> None:
    """The end of pipeline.generate: examples, then derived cases vs the reference evaluator."""
    examples.check_examples(checked, module)
    examples.check_derived(checked, module, cases.derive(checked).cases)


def outcome(group: Group) -> Outcome:
    """Generate the group's module (once), mirroring pipeline.generate without examples."""
    if group.key not in _OUTCOMES:
        label = f"conformance/{group.file.replace('/', '_').removesuffix('.json')}_{group.index}.py"
        valid = [t["data"] for t in group.tests if t["valid"]]
        _OUTCOMES[group.key] = generate_outcome(wrap(group.schema), label, valid)
    return _OUTCOMES[group.key]


def with_example(data: dict[str, Any], example: Any) -> dict[str, Any]:
    """``data`` (a contract whose one argument is ``v``) with ``{"v": example}`` as its accepted example."""
    return {
        **data,
        "examples": [{"description": "the group's first valid case", "args": {"v": example}}],
    }


def generate_outcome(data: dict[str, Any], label: str, valid: list[Any]) -> Outcome:
    """Generate the contract ``data`` as pipeline.generate does (check, model, render, load, derived cases).

    Shared by every conformance test (this one and the older drafts' in test_conformance_drafts.py).
    When the derived cases cannot be built without an accepted example (the pipeline then
    refuses the contract, asking for one), generation is tried again as a contract author
    would: with ``valid[0]`` (the group's first valid case) as the example. ``needs_example``
    records the first refusal.
    """
    global _CONTEXT
    if _CONTEXT is None:
        _CONTEXT = render.generation_context()
    result = Outcome(contract=data)
    try:
        checked = checker.check(Document(file=label, data=data, text=""))
    except ContractError as exc:
        result.refused = "; ".join(p.message for p in exc.problems)
        return result
    try:
        built = model.build(checked, "case", "0" * 64)
        source = render.render(_CONTEXT, "module.py.j2", label, model=built)
        result.source = source
        result.module = runtime.load_module(source, label)
    except Exception:  # noqa: BLE001 - a crash is recorded with its traceback: the test reports it
        result.failure = traceback.format_exc()
        return result
    try:
        _derived(checked, result.module)
    except ContractError as exc:
        result.needs_example = "; ".join(p.message for p in exc.problems)
        if not valid:
            # Nothing is valid (for a required key, `false` or `not: {}` leave no
            # value): refusing to build an accepted instance is the right answer,
            # and the module itself was checked against every case above.
            result.needs_example = (
                f"unsatisfiable (the group has no valid case): {result.needs_example}"
            )
        else:
            try:
                again = checker.check(
                    Document(file=label, data=with_example(data, valid[0]), text="")
                )
                _derived(again, result.module)
            except ContractError as exc2:
                result.derived_problem = "refused even with an accepted example: " + "; ".join(
                    p.message for p in exc2.problems
                )
            except Exception:  # noqa: BLE001 - recorded with its traceback, as above
                result.derived_problem = "with an accepted example:\n" + traceback.format_exc()
    except Exception:  # noqa: BLE001 - recorded with its traceback, as above
        result.derived_problem = traceback.format_exc()
    return result


# -- The cases -------------------------------------------------------------------------


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _describe(group: Group, test: dict[str, Any], got: Any) -> str:
    errors = [(e.path, e.code, e.message) for e in got.errors]
    return (
        f"\ntest:     {test['description']}\ndata:     {json.dumps(test['data'], ensure_ascii=False)}\n"
        f"expected: {'valid (accept)' if test['valid'] else 'invalid (reject)'}\n"
        f"got:      {got.status} {errors}"
    )


GROUP_PARAMS = [pytest.param(g, id=f"{g.file}#{g.index} {_short(g.description)}") for g in SELECTED]


@pytest.mark.parametrize("group", GROUP_PARAMS)
def test_cases(group: Group) -> None:
    """Every case of the group, fed to the group's generated module: accepted iff valid, and
    every error of a refusal at ``/v`` or below. One test per group (the group's module is
    generated once): its failure lists every case that disagrees."""
    generated = outcome(group)
    if generated.refused is not None:
        reason = group.ecma_reason
        if reason is not None:
            pytest.skip(f"ECMA-262 regex: {reason} [{generated.refused}]")
        pytest.skip(f"refused by toolshape's contract checker: {generated.refused}")
    assert generated.failure is None, f"generating {group.ident} failed:\n{generated.failure}"
    assert generated.module is not None
    wrong: list[str] = []
    ecma: list[str] = []
    for test in group.tests:
        got = generated.module.validate({"v": test["data"]})
        if got.status not in ("accept", "reject"):
            wrong.append("status outside accept/reject:" + _describe(group, test, got))
        elif (got.status == "accept") != test["valid"]:
            # A listed ECMA-262 difference may disagree; every other case must agree.
            if group.ecma_reason is not None:
                ecma.append(test["description"])
            else:
                wrong.append("disagrees with the suite:" + _describe(group, test, got))
        elif not test["valid"]:
            # Every error must point at v or below: the wrapper itself is always satisfied.
            bad = [
                (e.path, e.code)
                for e in got.errors
                if not (e.path == "/v" or e.path.startswith("/v/"))
            ]
            if bad:
                wrong.append(f"errors outside /v: {bad}" + _describe(group, test, got))
    if wrong:
        pytest.fail(
            f"generated module of {group.ident} (schema {json.dumps(group.schema, ensure_ascii=False)}):\n"
            + "\n".join(wrong),
            pytrace=False,
        )
    if ecma:
        pytest.skip(
            f"ECMA-262 regex: {group.ecma_reason} ({len(ecma)} of {len(group.tests)} cases: {ecma})"
        )
    # A listed difference that no case shows any more would skip the next regression.
    assert group.ecma_reason is None, "every case agrees: take it out of ECMA_REGEX_DIFFERENCES"


@pytest.mark.parametrize("group", GROUP_PARAMS)
def test_group_generates(group: Group) -> None:
    """The whole of pipeline.generate: the derived cases must agree with the reference evaluator."""
    generated = outcome(group)
    if generated.refused is not None:
        if group.ecma_reason is not None:
            pytest.skip(f"ECMA-262 regex: {group.ecma_reason} [{generated.refused}]")
        pytest.skip(f"refused by toolshape's contract checker: {generated.refused}")
    assert generated.failure is None, generated.failure
    assert generated.derived_problem is None, (
        f"{group.ident}: schema {json.dumps(group.schema, ensure_ascii=False)}\n{generated.derived_problem}"
    )
    if generated.needs_example is not None:
        pytest.skip(
            f"generates only with an accepted example (given the group's first valid case, it then passes): "
            f"{generated.needs_example}"
        )


@pytest.mark.parametrize("group", GROUP_PARAMS[::3])
def test_group_module_is_laid_out_as_black_formats_it(group: Group) -> None:
    """layout.py alone lays out the module (no black); black over the whole file changes nothing.
    Every third group: the suite's schemas reach shapes the example contracts do not."""
    import black

    generated = outcome(group)
    if generated.source is None:
        pytest.skip("no module: " + (generated.refused or generated.failure or "?")[:200])
    assert black.format_str(generated.source, mode=black.Mode()) == generated.source


UNSUPPORTED_PARAMS = [
    pytest.param(g, id=f"{g.file}#{g.index} {_short(g.description)}") for g in NOT_SUPPORTED
]


@pytest.mark.parametrize("group", UNSUPPORTED_PARAMS)
def test_unsupported_group(group: Group) -> None:
    """Recorded only: the group uses what a contract refuses. test_conformance_drafts.py runs
    it through ``toolshape import`` (its draft2020-12 entry), or lists why it cannot."""
    where = " (a contract refuses it; test_conformance_drafts.py runs it through toolshape import)"
    pytest.skip("uses " + ", ".join(sorted(group.unsupported)) + where)


def test_no_pattern_group_is_refused() -> None:
    """Every pattern runs in linear time in the validator (regex.linear), so no ``pattern``,
    ``patternProperties`` or ``propertyNames`` group of the suite is refused for what its regex
    costs (the ``f.*o`` groups, unanchored with no maxLength, were refused by the backtracking
    lint)."""
    refused = [
        f"{group.ident}: {outcome(group).refused}"
        for group in SELECTED
        if not group.file.startswith("optional/")
        and any(word in json.dumps(group.schema) for word in ('"pattern', '"propertyNames"'))
        and outcome(group).refused is not None
    ]
    assert not refused, "\n".join(refused)


def test_the_check_refuses_no_group_that_json_schema_accepts() -> None:
    """A lint of toolshape's own that would refuse a legal schema is a warning: no group this
    file runs is refused (what a contract refuses, a remote ``$ref`` or a ``$ref`` into a
    value, is sent through import by :func:`through_import`)."""
    refused = [
        f"{group.ident}: {outcome(group).refused}"
        for group in SELECTED
        if outcome(group).refused is not None
    ]
    assert not refused, "\n".join(refused)


def test_suite_summary() -> None:
    """Enough of the suite ran; every group left out is listed with its reason."""
    ran = refused = 0
    lines = []
    for group in SELECTED:
        generated = outcome(group)
        if generated.refused is not None:
            refused += 1
            lines.append(f"  refused  {group.ident}: {generated.refused}")
        else:
            ran += 1
            if generated.needs_example is not None:
                lines.append(
                    f"  example  {group.ident}: generates only with an example: {generated.needs_example}"
                )
    for group in NOT_SUPPORTED:
        lines.append(f"  skipped  {group.ident}: uses {', '.join(sorted(group.unsupported))}")
    cases_run = sum(len(g.tests) for g in SELECTED if outcome(g).refused is None)
    header = (
        f"JSON-Schema-Test-Suite draft 2020-12 (vendored): {len(GROUPS)} groups; "
        f"{ran} generated and run ({cases_run} cases), {refused} refused by the checker, "
        f"{len(NOT_SUPPORTED)} use unsupported keywords"
    )
    print(header + "\n" + "\n".join(lines))  # shown with -s (or -rA)
    assert ran >= MIN_GROUPS_RUN, header
    assert cases_run >= MIN_CASES_RUN, header
