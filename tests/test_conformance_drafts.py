"""The JSON-Schema-Test-Suite's older drafts (4, 6, 7, 2019-09), imported and run through GENERATED modules.

Each group whose keywords are in scope is wrapped as the 2020-12 conformance test wraps
it (the group's schema becomes the one required property ``v`` of an object root), but
written in the group's own draft: the wrapper says the draft's ``$schema``, and the group's
schema keeps its own resource (an ``id``/``$id`` of its own, so its ``#/...`` references
still resolve against it). That document goes through ``toolshape import``
(:func:`toolshape.platforms.importer.import_data`), and the contract it writes is generated exactly as
the 2020-12 test does it (:func:`test_conformance.generate_outcome`); every case of the group
is then fed to ``validate({"v": data})`` and must get the suite's verdict (one pytest test
per group, ``test_cases``, listing every case that disagrees).

The suite's ``remotes/`` are served as local files (``import --remote``), its custom
meta-schemas there too (a group's ``$schema`` naming one stays: the group's schema is a
resource of that dialect), and each draft's ``format.json`` is imported with formats read as
annotations (``import --formats annotate``).
Left out, each with its reason (``test_drafts_summary`` prints them with ``-s``):
keywords out of scope (``$vocabulary``...), remote references outside the suite's
``remotes/``, formats outside JSON Schema 2020-12's list, a ``$schema`` of another
draft inside a group, and groups the importer or the contract checker refuses (their
message is the reason).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import pytest
from support import SUITE, suite_draft
from test_conformance import (
    ANNOTATED_FORMATS,
    ECMA_REGEX_DIFFERENCES,
    SUPPORTED,
    Outcome,
    _short,
    generate_outcome,
    through_import,
)
from toolshape.contract.checker import FORMATS
from toolshape.platforms import importer, remotes
from toolshape.schema import vocabulary

# Each group is imported and generated once per process; under xdist the whole file runs on
# one worker (conftest.ONE_WORKER_FILES).

#: folder -> (the draft's name for ``import``, its dialect URI, the keyword that names a resource).
DRAFTS = {
    "draft4": ("4", "http://json-schema.org/draft-04/schema#", "id"),
    "draft6": ("6", "http://json-schema.org/draft-06/schema#", "$id"),
    "draft7": ("7", "http://json-schema.org/draft-07/schema#", "$id"),
    "draft2019-09": ("2019-09", "https://json-schema.org/draft/2019-09/schema", "$id"),
    "draft2020-12": ("2020-12", "https://json-schema.org/draft/2020-12/schema", "$id"),
}
#: The draft whose groups test_conformance.py runs directly, as contracts: only those it
#: sends through import run here (its ``through_import`` holds the split).
DIRECT = "draft2020-12"
#: The suite's remote schemas (its ``remotes/`` folder, vendored beside its tests), served to
#: ``import`` as local files (``--remote``) under the URL its cases name them by. A contract
#: refuses a remote ``$ref``, so 2020-12's groups with one run here only.
REMOTES = remotes.RemoteFolder("http://localhost:1234/", SUITE / "remotes")
#: The resource the group's schema becomes when it has no id of its own.
CASE_URI = "https://toolshape.invalid/conformance/case.json"

#: Keywords the older drafts spell differently (translated by import), and annotations.
IN_SCOPE = SUPPORTED | {
    "definitions",
    "dependencies",
    "additionalItems",
    "id",
    "$id",
    "$anchor",
    "$schema",
    "$recursiveRef",
    "$recursiveAnchor",
    "$dynamicRef",
    "$dynamicAnchor",
    "readOnly",
    "writeOnly",
    "deprecated",
    "contentEncoding",
    "contentMediaType",
    "contentSchema",
}

#: The keywords of every draft. Any other is unknown, ignored by JSON Schema (an annotation
#: from 2019-09 on) and dropped by import with a warning, so it is in scope.
KNOWN = frozenset(k.name for k in vocabulary.KEYWORDS)

#: Where an older draft's own meaning is not toolshape's: a case of a listed group that disagrees
#: is skipped with this reason, one that agrees must pass. Keyed by (folder, file, group description).
DRAFT_DIFFERENCES: dict[tuple[str, str, str], str] = {
    (
        "draft4",
        "optional/zeroTerminatedFloats.json",
        "some languages do not distinguish between different types of numeric value",
    ): (
        "draft 4 counts 1.0 as a number but not an integer; toolshape counts it as an integer, as drafts 6 and later do "
        "(no 2020-12 schema can say 'an integer written without a fraction')"
    ),
    **{
        ("draft7", "optional/content.json", description): (
            "draft 7 lets contentMediaType/contentEncoding assert (optionally); toolshape keeps them as annotations, "
            "as 2019-09 and later define them"
        )
        for description in (
            "validation of string-encoded content based on media type",
            "validation of binary string-encoding",
            "validation of binary-encoded media type documents",
        )
    },
}

#: At least this many groups (over the drafts) must be imported, generated and run.
MIN_GROUPS_RUN = 1339
MIN_CASES_RUN = 6418


@dataclass
class Group:
    folder: str  # "draft7"
    file: str  # relative to the draft folder
    index: int
    description: str
    schema: Any
    tests: list[dict[str, Any]]
    left_out: str | None  # why the group is not in scope, or None

    @property
    def key(self) -> tuple[str, str, int]:
        return (self.folder, self.file, self.index)

    @property
    def ident(self) -> str:
        return f"{self.folder}/{self.file}#{self.index} {self.description}"

    @property
    def ecma_reason(self) -> str | None:
        return ECMA_REGEX_DIFFERENCES.get((self.file, self.description))

    @property
    def difference(self) -> str | None:
        """Why a disagreeing case of this group may be skipped (None: it may not)."""
        if self.ecma_reason is not None:
            return f"ECMA-262 regex: {self.ecma_reason}"
        return DRAFT_DIFFERENCES.get((self.folder, self.file, self.description))


def out_of_scope(schema: Any, draft_uri: str) -> list[str]:
    """Keywords of JSON Schema (at keyword positions, any depth, in any draft's spelling) the
    import does not carry, and a ``$schema`` of another dialect. An unknown keyword is in
    scope: import drops it (with a warning), as JSON Schema ignores it."""
    found: list[str] = []

    def visit(node: Any) -> None:
        if not isinstance(node, dict):
            if not isinstance(node, bool):
                found.append(f"a non-schema value ({type(node).__name__})")
            return
        for keyword, value in node.items():
            if keyword == "$schema" and value != draft_uri and not served(value):
                found.append(f"$schema {value!r} inside the group (another dialect)")
                continue
            if keyword not in IN_SCOPE and keyword in KNOWN:
                if keyword not in found:
                    found.append(keyword)
                continue
            if keyword in (
                "properties",
                "$defs",
                "definitions",
                "patternProperties",
                "dependentSchemas",
            ):
                if isinstance(value, dict):
                    for sub in value.values():
                        visit(sub)
            elif keyword == "dependencies" and isinstance(value, dict):
                for sub in value.values():
                    if not isinstance(sub, list):
                        visit(sub)
            elif keyword in ("allOf", "anyOf", "oneOf", "prefixItems", "items") and isinstance(
                value, list
            ):
                for sub in value:
                    visit(sub)
            elif keyword in (
                "items",
                "additionalItems",
                "additionalProperties",
                "not",
                "if",
                "then",
                "else",
                "contains",
                "propertyNames",
                "contentSchema",
            ):
                visit(value)

    visit(schema)
    return found


def served(uri: Any) -> bool:
    """Whether ``uri`` names a document of the suite's ``remotes/`` (a custom meta-schema
    there is read through ``--remote``, as a remote ``$ref`` is)."""
    return isinstance(uri, str) and uri.startswith(REMOTES.prefix)


def scope(folder: str, relative: str, schema: Any) -> str | None:
    """Why a group is left out before import (None: it is imported)."""
    _, uri, _ = DRAFTS[folder]
    # optional/format/unknown.json: an unknown format is an annotation, in a contract as in
    # JSON Schema; any other format outside 2020-12's list is asserted by no contract.
    named = schema.get("format") if isinstance(schema, dict) else None
    if (
        relative.startswith("optional/format/")
        and relative != "optional/format/unknown.json"
        and named not in FORMATS
    ):
        return "a format outside JSON Schema 2020-12 (import keeps it as the annotation x-format, with a warning)"
    unsupported = out_of_scope(schema, uri)
    if unsupported:
        return "uses " + ", ".join(sorted(unsupported))
    return None


def load_groups() -> list[Group]:
    groups: list[Group] = []
    for folder in DRAFTS:
        root = suite_draft(folder)
        for path in sorted(root.glob("*.json")) + sorted((root / "optional").rglob("*.json")):
            relative = path.relative_to(root).as_posix()
            for index, raw in enumerate(json.loads(path.read_text(encoding="utf-8"))):
                if folder == DIRECT and not through_import(relative, raw["schema"]):
                    continue
                groups.append(
                    Group(
                        folder,
                        relative,
                        index,
                        raw["description"],
                        raw["schema"],
                        raw["tests"],
                        scope(folder, relative, raw["schema"]),
                    )
                )
    return groups


def wrapped(group: Group) -> dict[str, Any]:
    """The import's input: an object root in the group's draft whose one required property ``v`` is the group's schema.

    The group's schema gets an id of its own (unless it has one, or a ``$ref`` beside which
    drafts 4-7 ignore every keyword), so that ``#/...`` inside it still means its own root;
    without that id, its local references are re-pointed below ``/properties/v``.
    """
    _, uri, id_key = DRAFTS[group.folder]
    schema = group.schema
    if isinstance(schema, dict):
        # A custom meta-schema stays: the group's schema is a resource of its own dialect.
        schema = {k: v for k, v in schema.items() if k != "$schema" or served(v)}
        legacy = group.folder in ("draft4", "draft6", "draft7")
        if id_key not in schema and not (legacy and "$ref" in schema):
            schema = {id_key: CASE_URI, **schema}
        elif id_key not in schema:
            schema = _repoint(schema)
    return {
        "$schema": uri,
        "title": "conformance_case",
        "description": "One group of the JSON-Schema-Test-Suite, as the schema of the argument v.",
        "type": "object",
        "properties": {"v": schema},
        "required": ["v"],
    }


def _repoint(node: Any) -> Any:
    """Local references ("#", "#/...") re-pointed below /properties/v (data values left alone)."""
    if isinstance(node, list):
        return [_repoint(item) for item in node]
    if not isinstance(node, dict):
        return node
    moved: dict[str, Any] = {}
    for key, value in node.items():
        if key == "$ref" and isinstance(value, str) and (value == "#" or value.startswith("#/")):
            moved[key] = "#/properties/v" + value[1:]
        elif key in ("enum", "const", "default", "examples"):
            moved[key] = value
        else:
            moved[key] = _repoint(value)
    return moved


@dataclass
class Imported:
    """What importing and generating a group gave."""

    refused: str | None = None  # the importer's errors
    translations: list[str] | None = None
    generated: Outcome | None = None


_IMPORTED: dict[tuple[str, str, int], Imported] = {}


def imported(group: Group) -> Imported:
    """Import the group's wrapped schema, then generate the contract (once per group)."""
    if group.key in _IMPORTED:
        return _IMPORTED[group.key]
    label = f"{group.folder}_{group.file.replace('/', '_').removesuffix('.json')}_{group.index}"
    try:
        # Each draft's format.json reads format as an annotation (every draft's core reading
        # from 2019-09 on; before it, its cases hold no string, so both readings agree); the
        # formats of optional/format/ are imported asserted.
        reading = "annotate" if group.file == ANNOTATED_FORMATS else "assert"
        (contract,) = importer.import_data(
            wrapped(group),
            f"{label}.json",
            "conformance_case",
            options=importer.ImportOptions(formats=reading, remotes=(REMOTES,)),
        )
    except importer.ContractImportError as error:
        result = Imported(refused="; ".join(f"{p.pointer}: {p.message}" for p in error.problems))
    else:
        valid = [t["data"] for t in group.tests if t["valid"]]
        result = Imported(
            translations=contract.translations,
            generated=generate_outcome(contract.data, f"conformance/{label}.py", valid),
        )
    _IMPORTED[group.key] = result
    return result


GROUPS = load_groups()
IN = [g for g in GROUPS if g.left_out is None]
OUT = [g for g in GROUPS if g.left_out is not None]


#: The importer's refusals a group may get (anything else fails the group: an anchor left
#: unresolved must not pass as a skip). The contract checker's own refusals are allowed as in
#: the 2020-12 test.
ALLOWED_REFUSALS = (
    "remote $ref",  # the metaschema, or the suite's remotes/
    "remote $dynamicRef",
    "depends on the dynamic scope",  # $recursiveRef that no plain $ref can replace
    "(toolshape's contract check)",
)
#: Groups refused for a reason particular to them (none now: a $ref into 'examples' or into an
#: unknown keyword is read as a schema and moved under $defs, as the suite's optional tests expect).
REFUSED_GROUPS: dict[tuple[str, str, str], str] = {}


def _skip_reason(group: Group, result: Imported) -> str | None:
    if result.refused is not None:
        known = REFUSED_GROUPS.get((group.folder, group.file, group.description))
        if known is None and not all(
            any(allowed in problem for allowed in ALLOWED_REFUSALS)
            for problem in result.refused.split("; /")
        ):
            pytest.fail(f"toolshape import refused {group.ident}: {result.refused}", pytrace=False)
        return f"refused by toolshape import: {known or result.refused}"
    assert result.generated is not None
    if result.generated.refused is not None:
        prefix = f"ECMA-262 regex: {group.ecma_reason} " if group.ecma_reason else ""
        return f"{prefix}refused by toolshape's contract checker: {result.generated.refused}"
    return None


GROUP_PARAMS = [
    pytest.param(g, id=f"{g.folder}/{g.file}#{g.index} {_short(g.description)}") for g in IN
]


@pytest.mark.parametrize("group", GROUP_PARAMS)
def test_cases(group: Group) -> None:
    """Every case of the group, fed to the imported contract's generated module, gets the
    suite's verdict. One test per group (imported and generated once): its failure lists
    every case that disagrees."""
    result = imported(group)
    reason = _skip_reason(group, result)
    if reason is not None:
        pytest.skip(reason)
    assert result.generated is not None
    assert result.generated.failure is None, (
        f"generating {group.ident} failed:\n{result.generated.failure}"
    )
    module = result.generated.module
    assert module is not None
    wrong: list[str] = []
    differing: list[str] = []
    for test in group.tests:
        got = module.validate({"v": test["data"]})
        if got.status in ("accept", "reject") and (got.status == "accept") == test["valid"]:
            continue
        if got.status in ("accept", "reject") and group.difference is not None:
            differing.append(test["description"])
            continue
        wrong.append(
            f"test:     {test['description']}\ndata:     {json.dumps(test['data'])}\n"
            f"expected: {'valid' if test['valid'] else 'invalid'}\ngot:      {got.status} "
            f"{[(e.path, e.code) for e in got.errors]}"
        )
    if wrong:
        pytest.fail(
            f"the imported contract disagrees with the suite:\ngroup:    {group.ident}\n"
            f"schema:   {json.dumps(group.schema)}\n"
            f"imported: {json.dumps(result.generated.contract['parameters'])}\n" + "\n".join(wrong),
            pytrace=False,
        )
    if differing:
        pytest.skip(
            f"{group.difference} ({len(differing)} of {len(group.tests)} cases: {differing})"
        )


@pytest.mark.parametrize("group", GROUP_PARAMS)
def test_group_generates(group: Group) -> None:
    """The whole of pipeline.generate on the imported contract: derived cases agree with the reference evaluator."""
    result = imported(group)
    reason = _skip_reason(group, result)
    if reason is not None:
        pytest.skip(reason)
    assert result.generated is not None
    assert result.generated.failure is None, result.generated.failure
    assert result.generated.derived_problem is None, (
        f"{group.ident}:\n{result.generated.derived_problem}"
    )


def _kind(reason: str) -> str:
    """The reason's kind, for the counts."""
    if reason.startswith("uses $schema") and "(another dialect)" in reason:
        return "a custom metaschema"
    if reason.startswith("uses "):
        return "keywords out of scope"
    if "remote $ref" in reason or "remote $dynamicRef" in reason or reason.startswith("remote"):
        return "remote references that are no local file"
    if "(toolshape's contract check)" in reason or "contract checker" in reason:
        return "refused by the contract checker"
    return reason.split(":")[0].split(" (")[0]


def test_drafts_summary() -> None:
    """Enough of each draft ran; every group left out is listed with its reason."""
    lines: list[str] = []
    totals = {"run": 0, "cases": 0}
    header: list[str] = []
    for folder in DRAFTS:
        mine = [g for g in GROUPS if g.folder == folder]
        run = cases = 0
        reasons: dict[str, int] = {}
        for group in mine:
            reason = group.left_out or _skip_reason(group, imported(group))
            if reason is None:
                run += 1
                cases += len(group.tests)
                continue
            kind = _kind(reason)
            reasons[kind] = reasons.get(kind, 0) + 1
            lines.append(f"  skipped  {group.ident}: {reason}")
        totals["run"] += run
        totals["cases"] += cases
        by_reason = ", ".join(f"{n} {kind}" for kind, n in sorted(reasons.items()))
        header.append(
            f"{folder}: {len(mine)} groups; {run} imported, generated and run ({cases} cases); left out: {by_reason}"
        )
    print("\n".join(header) + "\n" + "\n".join(lines))
    assert totals["run"] >= MIN_GROUPS_RUN, header
    assert totals["cases"] >= MIN_CASES_RUN, header
