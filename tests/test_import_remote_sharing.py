"""``toolshape import --remote`` reads each remote document once and translates it once in each
draft it is read in, however many paths through other remote documents reach it.

A remote document of another draft is translated on its own, in its draft
(``platforms/importer.py``); the documents it refers to are read inside that translation. A
diamond of documents of alternating drafts (the schema refers to L and R, both refer to T,
which refers to the next L and R, ...) reaches each document along many paths: the work must
grow with the number of documents, never with the number of paths (2 to the depth). Counted,
never timed: the documents read (``remotes.read_document``) and the translations made on their
own (``_Translator.translate_document``). A cycle of such documents stays an error at each
``$ref`` that leads into it, printed as ``path:line:col: error:`` at the ``$ref`` in the input
file.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from toolshape import cli
from toolshape.platforms import importer, remotes

REMOTE = "https://schemas.example.com/"
DRAFT_7 = "http://json-schema.org/draft-07/schema#"
DRAFT_2019 = "https://json-schema.org/draft/2019-09/schema"


def write(folder: Path, name: str, document: dict[str, Any]) -> None:
    """``document`` as the file ``name``, described by its name (found in the contract)."""
    described = {"description": f"document {name}", **document}
    (folder / name).write_text(json.dumps(described), encoding="utf-8")


def diamonds(folder: Path, depth: int, last: dict[str, Any]) -> int:
    """Write ``depth`` diamonds under ``folder``: level k's ``lk.json`` and ``rk.json`` (draft
    2019-09) both refer to ``t{k+1}.json`` (draft 7), which refers to the next level's two; the
    last ``t`` holds ``last``. The number of documents written."""
    folder.mkdir(exist_ok=True)
    for level in range(1, depth + 1):
        below = f"t{level + 1}.json"
        write(folder, f"l{level}.json", {"$schema": DRAFT_2019, "$ref": below})
        write(folder, f"r{level}.json", {"$schema": DRAFT_2019, "allOf": [{"$ref": below}]})
        if level < depth:
            pair = [{"$ref": f"l{level + 1}.json"}, {"$ref": f"r{level + 1}.json"}]
            write(folder, below, {"$schema": DRAFT_7, "anyOf": pair})
    write(folder, f"t{depth + 1}.json", {"$schema": DRAFT_7, **last})
    return 3 * depth


def top(draft: str = DRAFT_7) -> dict[str, Any]:
    """The imported schema: its property ``v`` is level 1's ``l`` or ``r``."""
    pair = [{"$ref": REMOTE + "l1.json"}, {"$ref": REMOTE + "r1.json"}]
    return {
        "$schema": draft,
        "description": "d",
        "type": "object",
        "properties": {"v": {"anyOf": pair}},
        "required": ["v"],
    }


class Counted:
    """How often the import read a remote document, and translated one on its own."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reads: dict[str, int] = {}
        self.translations = 0
        read, translate = remotes.read_document, importer._Translator.translate_document

        def counting_read(uri: str, path: Path) -> Any:
            self.reads[uri] = self.reads.get(uri, 0) + 1
            return read(uri, path)

        def counting_translate(translator: importer._Translator) -> Any:
            self.translations += 1
            return translate(translator)

        monkeypatch.setattr(remotes, "read_document", counting_read)
        monkeypatch.setattr(importer._Translator, "translate_document", counting_translate)


def options(folder: Path) -> importer.ImportOptions:
    return importer.ImportOptions(remotes=(remotes.RemoteFolder.parse(f"{REMOTE}={folder}"),))


@pytest.mark.parametrize("depth", range(2, 9))
def test_a_diamond_of_remote_documents_is_read_and_translated_once_per_document(
    depth: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Depth 2 to 8 (the deepest a chain of documents of alternating drafts may nest): every
    document read once, translated once and written once, 3 per level; along every path that
    was 2 to the depth of each for the last document alone."""
    folder = tmp_path / "remotes"
    count = diamonds(folder, depth, {"type": "string", "minLength": 2})
    counted = Counted(monkeypatch)
    (imported,) = importer.import_data(top(), "t.json", "t", options=options(folder))
    assert counted.reads == {
        REMOTE + name: 1
        for level in range(1, depth + 1)
        for name in (f"l{level}.json", f"r{level}.json", f"t{level + 1}.json")
    }
    # Each document is of another draft than the one referring to it: each is translated
    # on its own, once, and the contract holds it once (the other places refer to it).
    assert counted.translations == count
    for name in counted.reads:
        assert imported.yaml_text.count(f"document {name.removeprefix(REMOTE)}") == 1, name


def test_a_document_translated_once_is_grafted_as_a_copy_in_each_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last document of a diamond, translated once, keeps its meaning on both sides: each
    place gets a copy of the translation, its references re-pointed there (one object grafted
    twice has its references re-pointed twice, and they point at nothing)."""
    from test_import_dialects import generated_module

    folder = tmp_path / "remotes"
    last = {
        "$ref": "#/definitions/word",
        "definitions": {"word": {"type": "string", "minLength": 2}},
    }
    count = diamonds(folder, 3, last)
    counted = Counted(monkeypatch)
    (imported,) = importer.import_data(top(), "t.json", "t", options=options(folder))
    assert counted.translations == count
    module = generated_module(imported, "diamond")
    assert module.validate({"v": "ab"}).ok
    assert not module.validate({"v": "a"}).ok
    assert not module.validate({"v": 1}).ok


def test_a_cycle_of_remote_documents_of_alternating_drafts_is_an_error_at_each_ref(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A diamond whose last document belongs to a cycle across drafts (``t5`` refers to
    ``c.json``, of draft 2019-09, which refers back to ``t5``): an error at both ``$ref``s of
    the imported schema, found by reading each document once (the failed translations are
    shared too)."""
    folder = tmp_path / "remotes"
    diamonds(folder, 4, {"anyOf": [{"type": "string"}, {"$ref": "c.json"}]})
    write(folder, "c.json", {"$schema": DRAFT_2019, "items": {"$ref": "t5.json"}})
    counted = Counted(monkeypatch)
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_data(top(), "t.json", "t", options=options(folder))
    assert set(counted.reads.values()) == {1} and REMOTE + "c.json" in counted.reads
    problems = raised.value.problems
    assert [p.pointer for p in problems] == [f"/properties/v/anyOf/{i}/$ref" for i in (0, 1)]
    assert all("refer to each other in a chain that comes back" in p.message for p in problems)
    assert all("t5.json -> " + REMOTE + "c.json -> " in p.message for p in problems)


#: The errors a ``$ref`` to a remote document meets: the document it names, and what the
#: error says.
ERRORS_AT_A_REF = {
    "a cycle across drafts": ("a.json", "refer to each other in a chain that comes back"),
    "a chain across drafts too long": ("c0.json", "runs longer than"),
    "no such file": ("missing.json", "is not there"),
    "no folder maps it": ("https://elsewhere.example.com/s.json", "toolshape never fetches"),
}


@pytest.mark.parametrize("kind", sorted(ERRORS_AT_A_REF))
def test_an_import_error_is_printed_at_its_place_in_the_input_file(
    kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``path:line:col: error:`` at the ``$ref`` in the input file (as import's warnings are),
    naming the tool and the pointer; ``import`` writes nothing."""
    folder = tmp_path / "remotes"
    folder.mkdir()
    for name, draft, other in (("a.json", DRAFT_7, "b.json"), ("b.json", DRAFT_2019, "a.json")):
        write(folder, name, {"$schema": draft, "anyOf": [{"type": "string"}, {"$ref": other}]})
    length = importer.MAX_FOREIGN_CHAIN + 2
    for index in range(length):
        draft = DRAFT_7 if index % 2 == 0 else DRAFT_2019
        link = [{"$ref": f"c{index + 1}.json"}] if index + 1 < length else []
        write(folder, f"c{index}.json", {"$schema": draft, "anyOf": [{"type": "string"}, *link]})
    target, message = ERRORS_AT_A_REF[kind]
    url = target if "://" in target else REMOTE + target
    schema = {**top(DRAFT_2019), "properties": {"v": {"$ref": url}}}
    path, out = tmp_path / "t.json", tmp_path / "contracts"
    text = json.dumps(schema, indent=2)
    path.write_text(text, encoding="utf-8")
    argv = ["import", str(path), "--out", str(out), "--remote", f"{REMOTE}={folder}"]
    assert cli.main(argv) == 1
    (line,) = capsys.readouterr().err.splitlines()
    row, col = place(text, text.index('"$ref": ') + len('"$ref": '))
    assert line.startswith(f"t.json:{row}:{col}: error: ") and message in line, line
    assert line.endswith("(tool 't' at /properties/v/$ref)"), line
    assert not out.exists()


def place(text: str, offset: int) -> tuple[int, int]:
    """The line and column (from 1) of ``offset`` in ``text``."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1
