"""``toolshape import`` reads each schema in its dialect: a custom meta-schema's ``$vocabulary``
(``platforms/dialects.py``), and a remote document of another draft in its own draft.

A ``$schema`` naming a meta-schema under a ``--remote`` folder makes the schema (or the
schema resource holding it) a schema of that dialect: the keywords of each vocabulary the
meta-schema leaves out are unknown keywords there (dropped, with a warning at each), the
format-assertion vocabulary asserts formats, and a required vocabulary toolshape does not know
is an error at the ``$schema``. Shown for every vocabulary of the keyword table, in both drafts
that have vocabularies; the suite's own groups (``vocabulary.json``,
``optional/format-assertion.json``) run through generated code in ``test_conformance_drafts.py``.
"""

from __future__ import annotations

import json
from pathlib import Path, PurePosixPath
from typing import Any

import jsonschema
import pytest
from support import CONTEXT
from test_vocabulary import SAMPLES, SPECIAL
from toolshape import cli
from toolshape.platforms import importer, remotes
from toolshape.project import pipeline, runtime
from toolshape.schema import vocabulary

REMOTE = "https://schemas.example.com/"
DIALECT_OF = {
    "2019-09": "https://json-schema.org/draft/2019-09/schema",
    "2020-12": "https://json-schema.org/draft/2020-12/schema",
}
#: Each vocabulary of the table a meta-schema may leave out (core never is; "" holds the
#: keywords of no vocabulary).
VOCABULARIES = sorted({k.vocabulary for k in vocabulary.KEYWORDS} - {"core", ""})


def vocabulary_uris(draft: str, leaving_out: str = "") -> dict[str, bool]:
    """Every vocabulary of ``draft`` (its URIs), but those serving ``leaving_out``."""
    prefix = f"https://json-schema.org/draft/{draft}/vocab/"
    return {
        uri: True
        for uri, names in vocabulary.VOCABULARY_URIS.items()
        if uri.startswith(prefix) and leaving_out not in names
    }


def meta_schema(folder: Path, name: str, draft: str, listed: Any) -> str:
    """Write a meta-schema of ``draft`` listing ``listed``; its URL."""
    folder.mkdir(exist_ok=True)
    document = {"$schema": DIALECT_OF[draft], "$id": REMOTE + name, "$vocabulary": listed}
    (folder / name).write_text(json.dumps(document), encoding="utf-8")
    return REMOTE + name


def with_dialect(draft: str, meta: str, schema: dict[str, Any]) -> dict[str, Any]:
    """A ``draft`` root whose one required property ``v`` is a resource of the dialect ``meta``."""
    return {
        "$schema": DIALECT_OF[draft],
        "description": "d",
        "type": "object",
        "properties": {"v": {"$id": "https://example.com/v.json", "$schema": meta, **schema}},
        "required": ["v"],
    }


def import_with(
    tmp_path: Path, schema: dict[str, Any], formats: str = "assert"
) -> importer.ImportedContract:
    folder = remotes.RemoteFolder.parse(f"{REMOTE}={tmp_path / 'metas'}")
    options = importer.ImportOptions(formats=formats, remotes=(folder,))
    (imported,) = importer.import_data(schema, "t.json", "t", options=options)
    return imported


def turned_off(imported: importer.ImportedContract) -> set[str]:
    """The keywords the import says the dialect turned off, by their input pointers."""
    return {
        w.pointer.rsplit("/", 1)[-1]
        for w in imported.warnings
        if w.pointer is not None and "is not a keyword of the dialect of" in w.message
    }


def sample(keyword: vocabulary.Keyword) -> dict[str, Any]:
    return SPECIAL.get(keyword.name, {keyword.name: SAMPLES[keyword.value]})


def keywords_of(name: str, draft: str) -> list[vocabulary.Keyword]:
    """The keywords of the vocabulary ``name`` that ``draft`` knows and import carries."""
    return [
        k
        for k in vocabulary.KEYWORDS
        if k.vocabulary == name and draft in k.drafts and (k.implemented or k.successor)
    ]


@pytest.mark.parametrize("draft", sorted(DIALECT_OF))
@pytest.mark.parametrize("left_out", VOCABULARIES)
def test_the_keywords_of_a_vocabulary_the_meta_schema_leaves_out_are_dropped(
    left_out: str, draft: str, tmp_path: Path
) -> None:
    """Each keyword of the left-out vocabulary that takes part in validation is dropped with a
    warning at its place (an annotation stays, as an unknown keyword would: it changes nothing
    that passes); under a meta-schema listing every vocabulary, none is."""
    without = meta_schema(
        tmp_path / "metas", "without.json", draft, vocabulary_uris(draft, left_out)
    )
    whole = meta_schema(tmp_path / "metas", "whole.json", draft, vocabulary_uris(draft))
    for keyword in keywords_of(left_out, draft):
        schema = sample(keyword)
        dropped = turned_off(import_with(tmp_path, with_dialect(draft, without, schema)))
        assert (keyword.name in dropped) is keyword.asserts, keyword.name
        assert not turned_off(import_with(tmp_path, with_dialect(draft, whole, schema)))


def generated_module(imported: importer.ImportedContract, name: str) -> Any:
    raw = imported.yaml_text.encode("utf-8")
    generated = pipeline.generate(
        raw, f"contracts/{name}.yaml", PurePosixPath(f"{name}.yaml"), CONTEXT
    )
    return runtime.load_module(generated.module_source, f"{name}.py")


def test_without_the_validation_vocabulary_a_bound_checks_nothing_and_applicators_still_do(
    tmp_path: Path,
) -> None:
    meta = meta_schema(
        tmp_path / "metas", "m.json", "2020-12", vocabulary_uris("2020-12", "validation")
    )
    schema = {"properties": {"n": {"minimum": 10}, "bad": False}}
    module = generated_module(import_with(tmp_path, with_dialect("2020-12", meta, schema)), "t")
    assert module.validate({"v": {"n": 1}}).ok
    assert not module.validate({"v": {"bad": 1}}).ok


@pytest.mark.parametrize(
    ("vocabulary_name", "required", "asserted"),
    [
        ("format-assertion", False, True),
        ("format-assertion", True, True),
        ("format-annotation", True, False),
    ],
)
def test_the_format_assertion_vocabulary_asserts_formats_read_as_annotations(
    vocabulary_name: str, required: bool, asserted: bool, tmp_path: Path
) -> None:
    """Under ``--formats annotate``, a meta-schema naming format-assertion (required or not:
    toolshape knows it) asserts ``format``; one naming format-annotation keeps it an annotation."""
    listed = {
        "https://json-schema.org/draft/2020-12/vocab/core": True,
        f"https://json-schema.org/draft/2020-12/vocab/{vocabulary_name}": required,
    }
    meta = meta_schema(tmp_path / "metas", "f.json", "2020-12", listed)
    imported = import_with(tmp_path, with_dialect("2020-12", meta, {"format": "ipv4"}), "annotate")
    module = generated_module(imported, "f")
    assert module.validate({"v": "not-an-ipv4"}).ok is not asserted
    assert module.validate({"v": "127.0.0.1"}).ok


def test_a_root_schema_of_a_custom_dialect_is_read_in_it(tmp_path: Path) -> None:
    """A custom meta-schema at the root names the draft (its own ``$schema``'s) and the
    dialect; the tool's description stays though the dialect has no meta-data vocabulary."""
    listed = {
        uri: True
        for uri, names in vocabulary.VOCABULARY_URIS.items()
        if "2019-09" in uri and not {"validation", "meta-data"} & set(names)
    }
    meta = meta_schema(tmp_path / "metas", "r.json", "2019-09", listed)
    schema = {"$schema": meta, "description": "d", "properties": {"n": {"maximum": 1}}}
    imported = import_with(tmp_path, schema)
    assert turned_off(imported) == {"maximum"}
    assert any("of draft 2019-09" in line for line in imported.translations)
    assert imported.data["description"] == "d"


@pytest.mark.parametrize(
    ("listed", "message"),
    [
        (
            {"https://example.com/vocab/money": True},
            "requires the vocabulary 'https://example.com/vocab/money'",
        ),
        ("many", "must map URIs to true or false"),
        (
            {"https://json-schema.org/draft/2019-09/vocab/core": "yes"},
            "must map URIs to true or false",
        ),
        (None, "must say '$schema' of draft 2019-09 or 2020-12"),
        ("missing", "is not there: no file"),
        ("draft 2019-09", "a resource inside it is read in its draft"),
    ],
)
def test_a_meta_schema_toolshape_cannot_read_as_its_author_means_is_an_error_at_the_schema(
    listed: Any, message: str, tmp_path: Path
) -> None:
    """A required vocabulary toolshape does not know, a malformed ``$vocabulary``, a
    meta-schema of no draft with vocabularies, of another draft than the schema, one missing
    from the folder: an error at the ``$schema``, never a traceback, and nothing is written."""
    folder = tmp_path / "metas"
    draft = "2019-09" if listed == "draft 2019-09" else "2020-12"
    meta = meta_schema(
        folder, "m.json", draft, {"https://json-schema.org/draft/2020-12/vocab/core": True}
    )
    if isinstance(listed, dict) or listed == "many":
        meta = meta_schema(folder, "m.json", "2020-12", listed)
    elif listed is None:
        (folder / "m.json").write_text('{"$vocabulary": {}}', encoding="utf-8")
    elif listed == "missing":
        meta = REMOTE + "missing.json"
    path = tmp_path / "t.json"
    path.write_text(json.dumps(with_dialect("2020-12", meta, {"type": "string"})), encoding="utf-8")
    folder_option = remotes.RemoteFolder.parse(f"{REMOTE}={folder}")
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_file(path, options=importer.ImportOptions(remotes=(folder_option,)))
    (problem,) = raised.value.problems
    assert problem.pointer == "/properties/v/$schema" and message in problem.message
    out = tmp_path / "contracts"
    argv = ["import", str(path), "--out", str(out), "--remote", f"{REMOTE}={folder}"]
    assert cli.main(argv) == 1
    assert not out.exists()


def test_an_optional_vocabulary_toolshape_does_not_know_is_ignored(tmp_path: Path) -> None:
    """A vocabulary listed with false that toolshape does not know changes nothing: the
    dialect is the vocabularies it does know (here without validation)."""
    listed = {**vocabulary_uris("2020-12", "validation"), "https://example.com/vocab/money": False}
    meta = meta_schema(tmp_path / "metas", "o.json", "2020-12", listed)
    schema = {"type": "string", "properties": {"bad": False}}
    imported = import_with(tmp_path, with_dialect("2020-12", meta, schema))
    assert turned_off(imported) == {"type"}
    module = generated_module(imported, "o")
    assert module.validate({"v": 1}).ok
    assert not module.validate({"v": {"bad": 1}}).ok


#: Each draft's ``$schema``, for remote documents.
DRAFT_URIS = {
    "4": "http://json-schema.org/draft-04/schema#",
    "6": "http://json-schema.org/draft-06/schema#",
    "7": "http://json-schema.org/draft-07/schema#",
    **DIALECT_OF,
}


def refers_to(draft: str, ref: str) -> dict[str, Any]:
    return {
        "$schema": DRAFT_URIS[draft],
        "description": "d",
        "type": "object",
        "properties": {"v": {"$ref": ref}},
        "required": ["v"],
    }


@pytest.mark.parametrize("outer", sorted(DRAFT_URIS))
@pytest.mark.parametrize("remote", sorted(DRAFT_URIS))
def test_a_remote_document_is_read_in_its_own_draft(
    outer: str, remote: str, tmp_path: Path
) -> None:
    """Whatever the draft of the schema referring to it, a remote document keeps its own
    draft's reading: ``dependentRequired`` (2019-09 on) and ``prefixItems`` (2020-12) check
    what they say in a document of a draft that has them, and nothing in an older one; its
    own references resolve in it."""
    folder = tmp_path / "metas"
    folder.mkdir()
    document = {
        "$schema": DRAFT_URIS[remote],
        "anyOf": [
            {"$ref": "#/definitions/pair"},
            {"type": "object", "dependentRequired": {"foo": ["bar"]}},
        ],
        "definitions": {"pair": {"type": "array", "prefixItems": [{"type": "string"}]}},
    }
    (folder / "doc.json").write_text(json.dumps(document), encoding="utf-8")
    imported = import_with(tmp_path, refers_to(outer, REMOTE + "doc.json"))
    module = generated_module(imported, "cross")
    knows_dependent = remote in ("2019-09", "2020-12")
    assert module.validate({"v": {"foo": 1}}).ok is not knows_dependent
    assert module.validate({"v": {"foo": 1, "bar": 2}}).ok
    assert module.validate({"v": [1]}).ok is (remote != "2020-12")
    assert module.validate({"v": ["a"]}).ok


def test_a_ref_into_a_remote_document_of_another_draft_is_an_error_at_the_ref(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "metas"
    folder.mkdir()
    document = {"$schema": DRAFT_URIS["7"], "definitions": {"s": {"type": "string"}}}
    (folder / "doc.json").write_text(json.dumps(document), encoding="utf-8")
    with pytest.raises(importer.ContractImportError) as raised:
        import_with(tmp_path, refers_to("2020-12", REMOTE + "doc.json#/definitions/s"))
    (problem,) = raised.value.problems
    assert problem.pointer == "/properties/v/$ref"
    assert "points inside a remote schema of another draft" in problem.message


def test_remote_documents_of_alternating_drafts_that_refer_back_are_an_error_at_the_ref(
    tmp_path: Path,
) -> None:
    """A draft-07 document and a 2019-09 one referring to each other (each translated on its
    own, in its draft) would never end: an error at the ``$ref``, never a RecursionError; so is
    a chain of them longer than the importer's limit."""
    folder = tmp_path / "metas"
    folder.mkdir()
    for name, draft, other in (("a.json", "7", "b.json"), ("b.json", "2019-09", "a.json")):
        document = {"$schema": DRAFT_URIS[draft], "anyOf": [{"type": "string"}, {"$ref": other}]}
        (folder / name).write_text(json.dumps(document), encoding="utf-8")
    length = importer.MAX_FOREIGN_CHAIN + 2
    for index in range(length):
        draft = "7" if index % 2 == 0 else "2019-09"
        link = [{"$ref": f"c{index + 1}.json"}] if index + 1 < length else []
        document = {"$schema": DRAFT_URIS[draft], "anyOf": [{"type": "string"}, *link]}
        (folder / f"c{index}.json").write_text(json.dumps(document), encoding="utf-8")
    for start in ("a.json", "c0.json"):
        with pytest.raises(importer.ContractImportError) as raised:
            import_with(tmp_path, refers_to("2020-12", REMOTE + start))
        (problem,) = raised.value.problems
        assert problem.pointer == "/properties/v/$ref"
        assert "refer to each other in a chain" in problem.message


def test_a_nested_schema_naming_a_meta_schema_no_folder_maps_is_read_in_the_draft_with_a_warning(
    tmp_path: Path,
) -> None:
    """As at the root: an unknown ``$schema`` no ``--remote`` folder maps is read as the
    schema's draft, with a warning at it (not the drop a standard draft's gets)."""
    meta = "https://elsewhere.example.com/m.json"
    imported = import_with(tmp_path, with_dialect("2020-12", meta, {"minimum": 1}))
    (warning,) = [w for w in imported.warnings if w.pointer == "/properties/v/$schema"]
    assert "no --remote folder maps it" in warning.message
    assert not turned_off(imported)


@pytest.mark.parametrize("draft", sorted(DIALECT_OF))
def test_dependencies_is_in_no_custom_dialect_as_the_specification_and_jsonschema_read_it(
    draft: str, tmp_path: Path
) -> None:
    """``dependencies`` belongs to no vocabulary of 2019-09 or 2020-12 (it was split into
    ``dependentRequired`` and ``dependentSchemas``; only the draft's own meta-schema keeps it,
    for compatibility), so even a meta-schema listing every vocabulary does not turn it on: it
    is dropped as an unknown keyword, the warning saying so (not that a vocabulary was left
    out), and the generated module agrees with jsonschema's validator of the draft, which
    ignores it, value for value."""
    whole = meta_schema(tmp_path / "metas", "whole.json", draft, vocabulary_uris(draft))
    schema = {
        "properties": {"a": {}, "b": {}},
        "dependencies": {"a": ["b"], "b": {"required": ["c"]}},
    }
    imported = import_with(tmp_path, with_dialect(draft, whole, schema))
    (warning,) = (w for w in imported.warnings if w.pointer == "/properties/v/dependencies")
    assert f"it is in no vocabulary of draft {draft}" in warning.message
    assert "'dependentRequired' and 'dependentSchemas'" in warning.message
    assert "leaves out" not in warning.message
    assert "dependencies" not in imported.data["parameters"]["properties"]["v"]
    module = generated_module(imported, "t")
    reference = jsonschema.validators.validator_for({"$schema": DIALECT_OF[draft]})(
        {"type": "object", "properties": {"v": schema}, "required": ["v"]}
    )
    for value in ({"a": 1}, {"b": 1}, {"a": 1, "b": 1, "c": 1}, {}):
        arguments = {"v": value}
        assert module.validate(arguments).ok is reference.is_valid(arguments), value
