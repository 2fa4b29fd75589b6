"""The vocabulary table (``schema/vocabulary.py``) and the stages agree (issue 22: one vocabulary).

Every keyword the table names is known to each stage that must know it, shown by running the
stage on a small schema using the keyword: the contract check accepts it (or refuses it by
name when toolshape does not implement it), the reference evaluator and the generated
validator both enforce it, each platform's export handles it explicitly, the importer knows
it, the one walk over subschemas visits it; every format has its runtime check, a witness and
a near miss. And no generator module spells a list of keyword names of its own: such a list
is computed from the table.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, build_module
from toolshape.codegen.building.context import path_hint
from toolshape.contract import checker, source
from toolshape.contract.errors import ContractError
from toolshape.contract.reference import errors_of
from toolshape.families.formats import values as format_witness
from toolshape.platforms import export, importer
from toolshape.schema import children, keywords, vocabulary
from toolshape.schema import values as schema_values
from toolshape.schema.vocabulary import Keyword

PACKAGE = ROOT / "generator" / "toolshape"

#: A value of each kind, chosen so that a schema holding it refuses something (a subschema
#: is ``false``, a bound is 1 or 2), for writing a schema that uses a keyword.
SAMPLES: dict[str, Any] = {
    "types": "string",
    "value": "a",
    "values": ["a"],
    "count": 2,
    "number": 1,
    "positive number": 2,
    "pattern": "^a",
    "format": "date",
    "boolean": True,
    "string": "text",
    "names": ["a"],
    "names map": {"a": ["b"]},
    "schema": False,
    "schema list": [False],
    "schema map": {"a": False},
    "schemas or names map": {"a": ["b"]},
    "reference": "#/$defs/d",
    "anchor": "here",
    "uri": "https://example.com/arguments.json",
    "vocabulary map": {"https://json-schema.org/draft/2020-12/vocab/core": True},
}
#: Keywords whose generic sample has no effect of its own: ``not false`` refuses nothing,
#: ``if`` decides only with a ``then`` or ``else``, an ``else`` only after a failing ``if``.
SPECIAL: dict[str, dict[str, Any]] = {
    "not": {"not": True},
    "if": {"if": False, "else": False},
    "else": {"if": False, "else": False},
    "$recursiveRef": {"$recursiveRef": "#"},
}
#: Values tried on each schema: some value here tells every keyword's sample apart.
POOL: list[Any] = [
    None,
    True,
    0,
    1,
    2,
    1.5,
    "",
    "a",
    "b",
    "abc",
    [],
    [1],
    [1, 1],
    [1, 1, 1],
    {},
    {"a": 1},
    {"a": 1, "b": 2},
    {"a": 1, "b": 2, "c": 3},
]

IMPLEMENTED = [k for k in vocabulary.KEYWORDS if k.implemented and not k.root_only]
ASSERTING = [k for k in IMPLEMENTED if k.asserts]
NOT_IMPLEMENTED = [k for k in vocabulary.KEYWORDS if not k.implemented]


def using(keyword: Keyword) -> dict[str, Any]:
    """A small schema that uses ``keyword`` (with the keyword it needs, if any)."""
    if keyword.name in SPECIAL:
        return dict(SPECIAL[keyword.name])
    schema = {keyword.name: SAMPLES[keyword.value]}
    if keyword.needs:
        schema[keyword.needs] = {}  # no effect of its own
    return schema


def parameters(sub: dict[str, Any]) -> dict[str, Any]:
    """Contract parameters with ``sub`` as the schema of the property ``v`` (and a
    definition ``d`` for a $ref to point at)."""
    return {"type": "object", "properties": {"v": sub}, "$defs": {"d": False}}


def check(params: Any) -> checker.Contract:
    document = {"name": "t", "description": "A tool.", "parameters": params}
    return checker.check(source.load(json.dumps(document).encode("utf-8"), "t.yaml"))


def telling_value(keyword: Keyword) -> Any:
    """A value the reference evaluator refuses under the keyword's sample schema and accepts
    once the keyword is taken out (so the evaluator enforces the keyword itself)."""
    sub = using(keyword)
    without = {k: v for k, v in sub.items() if k != keyword.name}
    with_it, without_it = parameters(sub), parameters(without)
    for value in POOL:
        arguments = {"v": value}
        if errors_of(with_it, arguments, "", root=with_it) and not errors_of(
            without_it, arguments, "", root=without_it
        ):
            return value
    raise AssertionError(f"the reference evaluator never enforces {keyword.name!r} ({sub})")


# -- the table itself -------------------------------------------------------------------------


def test_each_keyword_is_named_once_and_its_facts_hold_together() -> None:
    names = [k.name for k in vocabulary.KEYWORDS]
    assert len(names) == len(set(names))
    for k in vocabulary.KEYWORDS:
        assert k.value in SAMPLES, f"{k.name}: no sample for the value kind {k.value!r}"
        assert (k.shape is not None) == (k.applies is not None), k.name
        assert k.applies_to in (None, "string", "number", "array", "object"), k.name
        assert (k.bound is None) == (k.limits is None), k.name
        assert k.needs in ("", *names), k.name
        assert all(s in names for s in k.successor), k.name
        assert k.drafts, k.name
        assert k.implemented or not k.exported, k.name
        assert not k.offers or (k.annotation and k.value in ("value", "values")), k.name
    for order in (vocabulary.SUBSCHEMA_ORDER, vocabulary.READING_ORDER):
        assert len(order) == len(set(order)) and set(order) <= set(names)
    assert set(vocabulary.format_phrases()) == set(vocabulary.format_names())


#: The keywords 2019-09 and 2020-12 still name outside every vocabulary: their standard
#: meta-schema keeps them for compatibility (so a custom meta-schema does not have them).
OUTSIDE_VOCABULARIES = {"definitions", "dependencies"}


def test_each_keyword_of_the_drafts_with_vocabularies_belongs_to_one_a_uri_turns_on() -> None:
    """A custom meta-schema's ``$vocabulary`` turns keywords on by their vocabulary: each
    keyword of 2019-09 or 2020-12 (those two excepted) is in one some vocabulary URI names,
    and a keyword of the older drafts only is in none. Core takes no part in validation by
    itself, the validation vocabulary holds no subschema, an annotation is in core, meta-data
    or content."""
    named = {name for names in vocabulary.VOCABULARY_URIS.values() for name in names}
    for k in vocabulary.KEYWORDS:
        vocabularies = (
            bool({"2019-09", "2020-12"} & set(k.drafts)) and k.name not in OUTSIDE_VOCABULARIES
        )
        assert (k.vocabulary in named) is vocabularies, k.name
        assert k.vocabulary != "validation" or k.shape is None, k.name
        assert k.annotation is None or k.vocabulary in ("core", "meta-data", "content", ""), k.name
    assert set(named) == {k.vocabulary for k in vocabulary.KEYWORDS} - {""}


def test_the_walk_order_names_every_subschema_keyword_toolshape_applies() -> None:
    """SUBSCHEMA_ORDER fixes the order of the one walk; it must name each holder once."""
    holding = {k.name for k in IMPLEMENTED if k.shape is not None and k.annotation is None}
    assert set(vocabulary.SUBSCHEMA_ORDER) == holding


@pytest.mark.parametrize("keyword", [k for k in IMPLEMENTED if k.shape], ids=lambda k: k.name)
def test_the_one_walk_visits_every_subschema_keyword(keyword: Keyword) -> None:
    schema = using(keyword)
    found = keywords.subschemas(schema)
    if keyword.annotation is not None:  # contentSchema documents, it is never applied
        assert all(path[0] != keyword.name for _, path in found)
        assert keywords.data_keyword({keyword.name: {}}, (keyword.name,)) is None
    else:
        assert any(path[0] == keyword.name for _, path in found), keyword.name


@pytest.mark.parametrize(
    "keyword", [k for k in IMPLEMENTED if k.shape in ("list", "map")], ids=lambda k: k.name
)
def test_every_list_or_map_of_schemas_says_how_its_entries_read_in_names(keyword: Keyword) -> None:
    """The namer (codegen/building/context.py) reads a place's words from the table: a list or
    a map of schemas says how the entry a place is in reads, and the namer steps over it."""
    assert keyword.in_names, keyword.name
    entry = 1 if keyword.shape == "list" else "city"
    words = path_hint((keyword.name, entry, "items")).split()
    assert words[-1] == "item", words  # the entry was taken as the entry, not as a step
    shown = keyword.in_names.format(keyword=keyword.name, entry=entry, position=2)
    assert words[:-1] == shown.split(), words


#: The keywords the walk of ``schema/children.py`` reaches: every one applying subschemas but
#: those whose children depend on what their siblings evaluated (their family walks them).
APPLYING = [k for k in IMPLEMENTED if k.applies in ("same value", "children") and not k.dynamic]


def test_the_walk_to_children_leaves_the_dynamic_keywords_to_their_family() -> None:
    """``unevaluated*`` reach the children no sibling evaluated: not a static walk's question."""
    dynamic = [k for k in IMPLEMENTED if k.dynamic and k.applies == "children"]
    assert dynamic
    for keyword in dynamic:
        assert not [steps for steps in _reached(using(keyword)) if steps[0] == keyword.name]


def _reached(schema: dict[str, Any]) -> list[Any]:
    """The places of the subschemas the walk of ``schema/children.py`` reaches: on the same
    value, under the key "a" (every pattern matching), at the first item, on the key names."""
    found = children.same_value(schema)
    found += children.for_key(schema, "a", lambda pattern, key: True)[0]
    found += children.for_index(schema, 0)[0]
    found += children.reaching(schema, "key names")
    return [steps for _, steps in found]


@pytest.mark.parametrize("keyword", APPLYING, ids=lambda k: k.name)
def test_the_walk_to_children_reaches_every_applying_keyword(keyword: Keyword) -> None:
    """A keyword the table says applies subschemas is walked from its row alone: a new one
    needs its ``applies`` (and, for children, what ``children`` it reaches), no other edit."""
    assert keyword.applies == "same value" or keyword.children is not None, keyword.name
    schema = using(keyword)
    assert [steps for steps in _reached(schema) if steps[0] == keyword.name], keyword.name


@pytest.fixture
def fresh_walk() -> Iterator[None]:
    """The vocabulary's remembered answers forgotten before and after (a test changing the table)."""
    vocabulary.holders.cache_clear()
    vocabulary.reaching.cache_clear()
    yield
    vocabulary.holders.cache_clear()
    vocabulary.reaching.cache_clear()


def test_a_keyword_added_to_the_table_is_walked_with_no_other_edit(
    monkeypatch: pytest.MonkeyPatch, fresh_walk: None
) -> None:
    """Two new rows, one applying a schema to the other keys, one a list to the same value,
    and the walk reaches both: the table is all it reads."""
    rows = (
        Keyword("otherKeysToo", "schema", "object", applies="children", evaluates="other keys"),
        Keyword("allOfToo", "schema list", applies="same value", collects="always"),
    )
    monkeypatch.setattr(vocabulary, "KEYWORDS", vocabulary.KEYWORDS + rows)
    monkeypatch.setattr(
        vocabulary, "_BY_NAME", {**vocabulary._BY_NAME, **{r.name: r for r in rows}}
    )
    order = vocabulary.SUBSCHEMA_ORDER + tuple(r.name for r in rows)
    monkeypatch.setattr(vocabulary, "SUBSCHEMA_ORDER", order)
    schema = {"properties": {"a": True}, "otherKeysToo": False, "allOfToo": [{}]}
    assert children.for_key(schema, "b", lambda pattern, key: False) == (
        [(False, ("otherKeysToo",))],
        False,
    )
    assert children.for_key(schema, "a", lambda pattern, key: False)[1]
    assert children.same_value(schema) == [({}, ("allOfToo", 0))]


def test_the_walk_to_children_takes_each_child_from_its_keywords_alone() -> None:
    """Under one schema of every kind, each child gets the schemas the table says reach it:
    a named key its own, a matched key its patterns', any other key the other keys' schema;
    a prefix position its own, a later one the other items', every item the matched ones'."""
    schema = {
        "properties": {"a": True},
        "patternProperties": {"^b": {}},
        "additionalProperties": False,
        "prefixItems": [True],
        "items": False,
        "contains": {},
    }

    def starts(pattern: str, key: str) -> bool:  # "^b" matches the keys starting with b
        return key.startswith(pattern[1:])

    assert [s for _, s in children.for_key(schema, "a", starts)[0]] == [("properties", "a")]
    assert children.for_key(schema, "bc", starts) == ([({}, ("patternProperties", "^b"))], True)
    assert children.for_key(schema, "c", starts) == ([(False, ("additionalProperties",))], False)
    assert children.for_index(schema, 0) == (
        [(True, ("prefixItems", 0)), ({}, ("contains",))],
        True,
    )
    assert children.for_index(schema, 1) == ([(False, ("items",)), ({}, ("contains",))], False)


def test_the_values_a_schema_offers_come_from_each_offering_annotation() -> None:
    """The witness search and the review try a schema's default and examples first: read from
    the rows marked ``offers``, one value or a list by the row's kind, in the order asked."""
    offering = [k for k in IMPLEMENTED if k.offers]
    assert offering
    held = {"value": [1], "values": [2, 3]}  # what a row of each kind offers: told apart
    schema = {k.name: held[k.value] if k.value == "values" else held[k.value][0] for k in offering}
    for first in ("value", "values"):
        expected: list[Any] = []
        for k in sorted(offering, key=lambda k: k.value != first):
            expected += held[k.value]
        assert schema_values.offered_values(schema, first) == expected
    assert schema_values.offered_values({k.name: "not a list" for k in offering}, "value") == [
        "not a list" for k in offering if k.value == "value"
    ]


# -- the contract check -------------------------------------------------------------------------


@pytest.mark.parametrize("keyword", IMPLEMENTED, ids=lambda k: k.name)
def test_the_contract_check_accepts_every_implemented_keyword(keyword: Keyword) -> None:
    check(parameters(using(keyword)))


def test_root_only_keywords_are_accepted_on_the_root_and_refused_below_it() -> None:
    for name in vocabulary.root_only():
        sample = SAMPLES[vocabulary.keyword(name).value]
        check({"type": "object", name: sample})
        with pytest.raises(ContractError, match=re.escape(f"'{name}' is allowed only on the root")):
            check(parameters({name: sample}))


@pytest.mark.parametrize("name", vocabulary.not_yet())
def test_the_contract_check_refuses_by_name_what_toolshape_does_not_implement(name: str) -> None:
    with pytest.raises(
        ContractError, match=re.escape(f"'{name}' is not supported by this version")
    ):
        check(parameters(using(vocabulary.keyword(name))))


# -- the two validators: the reference evaluator and the generated code ------------------------


@pytest.mark.parametrize("keyword", ASSERTING, ids=lambda k: k.name)
def test_the_reference_and_the_generated_validator_enforce_every_keyword(
    keyword: Keyword,
) -> None:
    value = telling_value(keyword)
    module = build_module(parameters(using(keyword)))
    assert not module.validate({"v": value}).ok, (keyword.name, value)


@pytest.mark.parametrize("name", vocabulary.format_names())
def test_every_format_has_a_runtime_check_a_witness_and_a_near_miss(name: str) -> None:
    runtime = "".join(
        (ROOT / "templates" / template).read_text(encoding="utf-8")
        for template in ("_runtime.py.j2", "formats.py.j2")
    )
    assert f"def _is_{name.replace('-', '_')}(" in runtime
    (good,) = format_witness.valid(name)
    (bad,) = format_witness.invalid(name)
    schema = {"type": "string", "format": name}
    module = build_module(parameters(schema))
    assert module.validate({"v": good}).ok
    assert not module.validate({"v": bad}).ok


# -- the side roads: export and import ----------------------------------------------------------


@pytest.mark.parametrize("keyword", IMPLEMENTED, ids=lambda k: k.name)
def test_every_platform_export_handles_every_keyword_explicitly(keyword: Keyword) -> None:
    """Kept, translated, dropped with a note or refused: never the catch-all for a keyword the
    exporter does not know."""
    contract = check(parameters(using(keyword)))
    for target in export.TARGETS:
        try:
            result = export.export(contract, target)
        except export.ExportError:
            continue  # refused outright, with its reasons
        unknown = [n for n in result.notes if "not translated for this platform" in n]
        assert not unknown, (target, unknown)


@pytest.mark.parametrize("keyword", vocabulary.KEYWORDS, ids=lambda k: k.name)
def test_the_importer_knows_every_keyword(keyword: Keyword) -> None:
    """Never "unknown keyword": an implemented keyword is carried into the contract; the
    others are translated, dropped with a reason or refused by name."""
    document = {"type": "object", "description": "A tool.", **parameters(using(keyword))}
    draft = "2020-12" if "2020-12" in keyword.drafts else keyword.drafts[-1]
    try:
        (imported,) = importer.import_data(document, "in.json", draft=draft)
    except importer.ContractImportError as error:
        assert not keyword.implemented and f"'{keyword.name}'" in str(error)
        return
    said = [str(w) for w in imported.warnings]
    assert not [w for w in said if "unknown keyword" in w], said
    if keyword.implemented and keyword.annotation != "core":
        assert keyword.name in json.dumps(imported.data["parameters"]), imported.data


# -- one spelling -------------------------------------------------------------------------------

#: Every name the vocabulary knows, keywords and formats.
KNOWN = {k.name for k in vocabulary.KEYWORDS} | set(vocabulary.format_names())

#: The literals that may still spell three or more keyword names outside the vocabulary, by
#: module and enclosing function, and why. Anything else that does fails the test below: read
#: the list from ``schema/vocabulary.py`` (or add the fact it stands for to the table).
ALLOWED = {
    # A family's own tables of its keywords (families/<family>/): one entry per keyword with
    # what the stage does of it.
    ("families/numbers/checks.py", "<module>"): "the number bounds' tests and wording",
    ("families/numbers/export.py", "gemini_inclusive_bounds"): "Gemini's exclusive bounds",
    ("families/arrays/values.py", "<module>"): "the keywords that make an array worth trying",
    ("families/objects/values.py", "<module>"): "the keywords that make an object worth trying",
    ("families/objects/export.py", "<module>"): "what marks an object for the strict platforms",
    ("families/numbers/export.py", "<module>"): "each bound's phrase in a description",
    ("families/strings/export.py", "<module>"): "each keyword's phrase in a description",
    ("families/arrays/export.py", "<module>"): "each keyword's phrase in a description",
    # Each format's own data (natural value, lengths, samples, platform support): one entry
    # per format with what differs, not a list of names. (Tables from a keyword or format to
    # the code handling it are dispatch tables, never counted: see _dispatch.)
    ("families/formats/values.py", "<module>"): "each format's natural value and lengths",
    ("witness/sources.py", "<module>"): "each format's fallback samples",
    ("families/formats/export.py", "<module>"): "the formats each platform documents",
}


def _spelled(node: ast.expr) -> set[str]:
    """The known names a collection literal spells, nested literals included."""
    if isinstance(node, ast.Dict):
        parts = [k for k in node.keys if k is not None] + list(node.values)
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        parts = list(node.elts)
    else:
        return set()
    found: set[str] = set()
    for part in parts:
        if isinstance(part, ast.Constant) and part.value in KNOWN:
            found.add(part.value)
        found |= _spelled(part)
    return found


def _dispatch(node: ast.AST) -> bool:
    """Whether ``node`` is a dispatch table: a dict from keywords to the code handling each
    (one entry per keyword, the way python-jsonschema dispatches), not a list of names."""
    return isinstance(node, ast.Dict) and all(
        isinstance(value, (ast.Name, ast.Attribute, ast.Lambda, ast.Call)) for value in node.values
    )


def _literals(tree: ast.AST, scope: str = "<module>") -> list[tuple[str, ast.expr]]:
    """Every outermost collection literal under ``tree`` (inside a dispatch table: the lists
    its values hold), with the function (or class method) it is in."""
    found: list[tuple[str, ast.expr]] = []
    for child in ast.iter_child_nodes(tree):
        if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            inner = child.name if scope == "<module>" else f"{scope}.{child.name}"
            found += _literals(child, inner)
        elif isinstance(child, (ast.Dict, ast.Tuple, ast.List, ast.Set)) and not _dispatch(child):
            found.append((scope, child))
        else:
            found += _literals(child, scope)
    return found


def _scope_allowed(module: str, scope: str) -> bool:
    # A method's literal is under its class in _literals: "_Lowering.keywords".
    return (module, "*") in ALLOWED or (module, scope) in ALLOWED


def test_no_module_spells_a_keyword_list_of_its_own() -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module == "schema/vocabulary.py":
            continue
        for scope, literal in _literals(ast.parse(path.read_text(encoding="utf-8"))):
            names = _spelled(literal)
            if len(names) >= 3 and not _scope_allowed(module, scope):
                found.append(f"{module}:{literal.lineno} ({scope}): {sorted(names)}")
    assert not found, "read these from schema/vocabulary.py:\n" + "\n".join(found)


def test_every_allowed_place_still_spells_a_list() -> None:
    """An entry of ALLOWED that no longer matches anything is removed, so the list stays true."""
    used = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        for scope, literal in _literals(ast.parse(path.read_text(encoding="utf-8"))):
            if len(_spelled(literal)) >= 3:
                used.add((module, scope))
                used.add((module, "*"))
    assert set(ALLOWED) <= used, set(ALLOWED) - used


# -- one place per keyword: the families ------------------------------------------------------

#: Each keyword family (``generator/toolshape/families/<family>/``) and its keywords: outside
#: the vocabulary and its family, no generator module spells them as a string.
FAMILIES = {
    "numbers": vocabulary.applying_to("number"),
    "strings": (*vocabulary.bounds(limits="length"), *vocabulary.taking("pattern")),
    "formats": vocabulary.taking("format"),
    "arrays": tuple(
        k for k in vocabulary.applying_to("array") if not vocabulary.keyword(k).dynamic
    ),
    "objects": tuple(
        k for k in vocabulary.applying_to("object") if not vocabulary.keyword(k).dynamic
    ),
    # The keywords whose outcome depends on what the keywords beside them evaluated.
    "unevaluated": vocabulary.names(lambda k: k.implemented and k.dynamic),
    # The keywords that constrain a value whatever its kind (no applies_to of their own).
    "values": ("type", "enum", "const"),
    # The references, and the older name of $defs the importer reads.
    "references": ("$ref", "$defs", "definitions", "$anchor", "$id"),
    # The annotations a reader learns of a value from (meta-data, content) and the notes for
    # maintainers: no effect on validation.
    "annotations": vocabulary.annotation_names("meta-data", "content", "comment"),
    # The keywords whose subschemas apply to the value itself (one schema, or a list of them).
    "combinators": (
        *vocabulary.holders("one", "same value"),
        *vocabulary.holders("list", "same value"),
    ),
}

#: The walks over subschemas read the holders from the vocabulary (``schema/keywords.py``) but
#: still step through an array's by name; issue 22 leaves them where they are.
_WALKS_THROUGH_ITEMS = "a walk over subschemas, stepping into an array's items by name"
#: Each family's modules that may still spell its keywords, and why. Each family's own list:
#: a module allowed to spell one family's keywords is still checked for the others'.
FAMILY_KEYWORDS_ELSEWHERE: dict[str, dict[str, str]] = {
    "arrays": {
        "families/objects/checks.py": "the keywords an object's description leaves unsaid",
    },
    # The object keywords shape the whole arguments object, so the walks over an object's
    # shape still name them (issue 22 leaves the structural walks where they are); what is
    # left here of each keyword's own rule, check, values, lowering and review is said too.
    "objects": {
        "families/references/importing.py": "the maps whose keys name a schema moved under "
        "$defs well (a property's, a dependent schema's)",
    },
}


#: A family keyword's name that is also a word of another meaning in a module (never the
#: keyword there), by name and module, and what it means there. Kept apart from
#: TEMPLATE_SAME_WORD below: that one is read from a template's text, this one from a module's
#: string constants.
SAME_WORD: dict[tuple[str, str], str] = {
    ("description", "contract/fields.py"): "the contract file's own key: what the tool does",
    ("examples", "contract/fields.py"): "the contract file's own key: its validator's tests",
}


def _strings(path: Path) -> set[str]:
    """Every string constant of a module (not the text of docstrings and f-strings: only a
    whole string can name a keyword)."""
    return {
        node.value
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }


@pytest.mark.parametrize("family", FAMILIES)
def test_a_familys_keywords_are_spelled_only_in_the_vocabulary_and_the_family(
    family: str,
) -> None:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE).as_posix()
        if module == "schema/vocabulary.py" or module.startswith(f"families/{family}/"):
            continue
        if module in FAMILY_KEYWORDS_ELSEWHERE.get(family, {}):
            continue
        spelled = {
            name
            for name in _strings(path) & set(FAMILIES[family])
            if (name, module) not in SAME_WORD
        }
        if spelled:
            found.append(f"{module}: {sorted(spelled)}")
    assert not found, f"move into families/{family}/:\n" + "\n".join(found)


def test_the_modules_allowed_to_spell_a_familys_keywords_still_do() -> None:
    """An entry of FAMILY_KEYWORDS_ELSEWHERE that spells none of them any more is removed."""
    for family, modules in FAMILY_KEYWORDS_ELSEWHERE.items():
        for module in modules:
            assert _strings(PACKAGE / module) & set(FAMILIES[family]), (family, module)


def test_each_same_word_is_still_spelled_where_it_is_listed() -> None:
    """An entry of SAME_WORD whose module no longer spells the word is removed."""
    for name, module in SAME_WORD:
        assert name in _strings(PACKAGE / module), (name, module)


# -- one place per keyword: the shared templates ----------------------------------------------

TEMPLATES = ROOT / "templates"
#: A keyword's name that a shared template still writes as a quoted string, by template and
#: name, and what it is there: the generated text keeps its exact bytes. Any other keyword a
#: template prints (an error's code, a schema key) comes from the model, as its family
#: spells it.
TEMPLATE_SAME_WORD = {
    ("tests.py.j2", "description"): "the parameter of a contract example in the generated test",
    ("_runtime.py.j2", "title"): 'a docstring\'s near miss ("Title", "title")',
    ("_runtime.py.j2", "contains"): "_count_matches' docstring",
    ("_runtime.py.j2", "const"): "the codes of the errors whose member the handler gets",
    ("_runtime.py.j2", "enum"): "the codes of the errors whose member the handler gets",
}


@pytest.mark.parametrize("template", sorted(p.name for p in TEMPLATES.glob("*.j2")))
def test_a_shared_template_spells_no_keyword(template: str) -> None:
    """A keyword's name in a template, quoted, is a second place for it (issue 22): a check's
    error code and a schema's key reach the template from the model, made by the family."""
    text = (TEMPLATES / template).read_text(encoding="utf-8")
    names = {k.name for k in vocabulary.KEYWORDS}
    spelled = {name for name in names if f'"{name}"' in text or f"'{name}'" in text}
    allowed = {name for listed, name in TEMPLATE_SAME_WORD if listed == template}
    assert spelled == allowed, f"{template}: spelled {sorted(spelled - allowed)}, " + (
        f"listed but no longer spelled {sorted(allowed - spelled)}"
    )
