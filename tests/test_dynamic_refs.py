"""Dynamic references (``$dynamicRef``/``$dynamicAnchor``, 2019-09's ``$recursiveRef``/
``$recursiveAnchor``), made static by ``toolshape import`` (families/references/dynamic.py).

Extensible recursive schemas, the shapes real schemas use them for (a tree whose node type an
outer schema extends; a generic list whose item type each user binds), are imported,
generated, and judged against ``jsonschema`` reading the ORIGINAL schema, dynamic scope and
all: on the contract's derived cases, on trees of every depth and on their mutations at every
depth. The number of copies the binding makes is bounded and refused past the bound at the
reference's place; a generated validator's work stays linear in the instance.
"""

from __future__ import annotations

import copy
import itertools
import json
import re
import types
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import Any

import jsonschema
import pytest
from support import CONTEXT, calls_made
from toolshape.codegen import cases
from toolshape.contract import checker
from toolshape.families.references.dynamic import MAX_VARIANTS
from toolshape.platforms import export, importer
from toolshape.project import pipeline
from toolshape.project.runtime import runtime_module
from work_counting import assert_linear

DRAFT2020 = "https://json-schema.org/draft/2020-12/schema"
DRAFT2019 = "https://json-schema.org/draft/2019-09/schema"

#: The generic tree both tree schemas extend: its children are whatever the dynamic scope
#: binds "node" to.
TREE: dict[str, Any] = {
    "$id": "tree",
    "$dynamicAnchor": "node",
    "type": "object",
    "properties": {
        "label": {"type": "string"},
        "children": {"type": "array", "items": {"$dynamicRef": "#node"}},
    },
    "required": ["label"],
}

#: A tree whose every node refuses keys it does not know: the outer schema closes the node
#: type the tree's schema leaves open, at every depth, through the dynamic anchor ``node``.
STRICT_TREE: dict[str, Any] = {
    "$schema": DRAFT2020,
    "$id": "https://example.com/strict-tree",
    "title": "strict_tree",
    "description": "A tree of labelled nodes; no node may carry a key the tree does not name.",
    "type": "object",
    "$dynamicAnchor": "node",
    "$ref": "tree",
    "unevaluatedProperties": False,
    "$defs": {
        "tree": TREE,
    },
}

#: A generic list whose item type each of its two users binds differently.
TYPED_LISTS: dict[str, Any] = {
    "$schema": DRAFT2020,
    "$id": "https://example.com/typed-lists",
    "title": "typed_lists",
    "description": "Two lists built from one generic list: numbers and words.",
    "type": "object",
    "properties": {"numbers": {"$ref": "numbers"}, "words": {"$ref": "words"}},
    "$defs": {
        "list": {
            "$id": "list",
            "type": "array",
            "items": {"$dynamicRef": "#item"},
            "$defs": {"item": {"$dynamicAnchor": "item"}},
        },
        "numbers": {
            "$id": "numbers",
            "$ref": "list",
            "$defs": {"item": {"$dynamicAnchor": "item", "type": "number"}},
        },
        "words": {
            "$id": "words",
            "$ref": "list",
            "$defs": {"item": {"$dynamicAnchor": "item", "type": "string", "minLength": 1}},
        },
    },
}

#: A tree whose node type the outer schema extends: every node, at every depth, also needs an
#: integer ``id`` (the outer node is the tree's node and more; the tree alone never asks for it).
EXTENDED_TREE: dict[str, Any] = {
    "$schema": DRAFT2020,
    "$id": "https://example.com/numbered-tree",
    "title": "numbered_tree",
    "description": "A tree of labelled nodes, each numbered.",
    "type": "object",
    "$ref": "#/$defs/numbered",
    "$defs": {
        "numbered": {
            "$dynamicAnchor": "node",
            "$ref": "tree",
            "properties": {"id": {"type": "integer"}},
            "required": ["id"],
        },
        "tree": TREE,
    },
}

#: 2019-09's spelling of the strict tree: $recursiveRef and $recursiveAnchor.
RECURSIVE_TREE: dict[str, Any] = {
    "$schema": DRAFT2019,
    "$id": "https://example.com/strict-tree-2019",
    "title": "recursive_tree",
    "description": "A tree of labelled nodes, closed at every depth by the outer schema.",
    "type": "object",
    "$recursiveAnchor": True,
    "$ref": "tree",
    "unevaluatedProperties": False,
    "$defs": {
        "tree": {
            "$id": "tree",
            "$recursiveAnchor": True,
            "type": "object",
            "properties": {
                "label": {"type": "string"},
                "children": {"type": "array", "items": {"$recursiveRef": "#"}},
            },
            "required": ["label"],
        }
    },
}

SCHEMAS = {
    "strict_tree": STRICT_TREE,
    "extended_tree": EXTENDED_TREE,
    "typed_lists": TYPED_LISTS,
    "recursive_tree": RECURSIVE_TREE,
}


def oracle(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """jsonschema's verdict on the original schema, in its own draft."""
    kind = jsonschema.Draft201909Validator if schema["$schema"] == DRAFT2019 else None
    validator = (kind or jsonschema.Draft202012Validator)(schema)
    return validator.is_valid


def imported_module(
    schema: dict[str, Any], tmp_path: Path
) -> tuple[importer.ImportedContract, types.ModuleType, list[Any]]:
    """The schema imported and generated; its module and its derived instances."""
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    (contract,) = importer.import_file(path)
    raw = contract.yaml_text.encode("utf-8")
    built = pipeline.generate_module(
        raw, "contracts/t.yaml", PurePosixPath(contract.relative_path), CONTEXT
    )
    derived = [case.data for case in cases.derive(built.contract).cases]
    return contract, built.module, derived


def tree(depth: int, extra: dict[str, Any] | None = None, at: int = -1) -> dict[str, Any]:
    """A chain of ``depth`` nodes below the root; ``extra`` keys added to the node at depth
    ``at`` (the root is depth 0)."""
    node: dict[str, Any] = {"label": f"n{depth}"}
    if depth == at and extra:
        node.update(extra)
    for level in range(depth - 1, -1, -1):
        node = {"label": f"n{level}", "children": [node, {"label": "leaf"}]}
        if level == at and extra:
            node.update(extra)
    return node


def _numbered(node: Any, skip: int = -1, depth: int = 0) -> Any:
    """``node`` with an integer ``id`` added at every depth but ``skip`` (one it has is kept)."""
    if not isinstance(node, dict):
        return node
    out = {
        k: [_numbered(c, skip, depth + 1) for c in v] if k == "children" else v
        for k, v in node.items()
    }
    if depth != skip:
        out.setdefault("id", depth)
    return out


def tree_instances() -> list[Any]:
    """Trees of depth 0 to 4, each with one mutation at every depth: an unknown key (what the
    strict tree refuses), a label of the wrong type, a child that is not an object; and each
    numbered at every depth, then with the ``id`` the numbered tree needs left out or a string
    at one depth."""
    found: list[Any] = []
    for depth in range(5):
        found.append(tree(depth))
        found.append(_numbered(tree(depth)))
        for at in range(depth + 1):
            found.append(_numbered(tree(depth), skip=at))
            found.append(_numbered(tree(depth, {"id": "7"}, at)))
            found.append(tree(depth, {"colour": "red"}, at))
            found.append(tree(depth, {"label": 7}, at))
            found.append(tree(depth, {"children": [3]}, at))
    return found


def list_instances() -> list[Any]:
    """Each list holding what its binding allows, what the other list's binding allows, and
    what neither does."""
    values: list[Any] = [1, 2.5, "a", "", None, True, [], {}]
    found: list[Any] = [{}]
    for value in values:
        found += [{"numbers": [value]}, {"words": [value]}, {"numbers": [1, value], "words": ["x"]}]
    return found


INSTANCES = {
    "strict_tree": tree_instances,
    "extended_tree": tree_instances,
    "typed_lists": list_instances,
    "recursive_tree": tree_instances,
}


@pytest.mark.parametrize("name", list(SCHEMAS))
def test_the_generated_module_agrees_with_jsonschema_on_the_original_schema(
    name: str, tmp_path: Path
) -> None:
    """Derived cases, and instances at every depth with their mutations: the generated
    module's verdict is jsonschema's reading of the schema with its dynamic references."""
    _, module, derived = imported_module(SCHEMAS[name], tmp_path)
    valid = oracle(SCHEMAS[name])
    instances = derived + INSTANCES[name]()
    disagree = [
        json.dumps(value) for value in instances if module.validate(value).ok != valid(value)
    ]
    assert not disagree, "\n".join(disagree)
    # Both verdicts are met: the instances tell accepting from refusing.
    verdicts = {valid(value) for value in instances}
    assert verdicts == {True, False}


def test_the_outer_schema_closes_the_node_type_at_every_depth(tmp_path: Path) -> None:
    """The strict tree refuses an unknown key at any depth (the tree's own schema alone would
    take it), and names where."""
    contract, module, _ = imported_module(STRICT_TREE, tmp_path)
    for depth in range(4):
        assert module.validate(tree(depth)).ok
        for at in range(depth + 1):
            refused = module.validate(tree(depth, {"colour": "red"}, at))
            paths = [error.path for error in refused.errors]
            assert paths == ["/children/0" * at + "/colour"], paths
    assert any(t.startswith("$dynamicRef -> $ref") for t in contract.translations)


def test_each_binding_is_one_function_named_for_what_it_binds(tmp_path: Path) -> None:
    """The generic list is built once per item type: the copy's $defs name and comment say
    which anchor it binds to what, and every dynamic reference is a plain $ref."""
    contract, module, _ = imported_module(TYPED_LISTS, tmp_path)
    assert not _dynamic_keys(contract.data["parameters"])
    defs = contract.data["parameters"]["$defs"]
    copies = [name for name in defs if "__item_" in name]
    assert len(copies) == 1, list(defs)
    comment = defs[copies[0]]["$comment"]
    assert comment.startswith("#/$defs/list with $dynamicAnchor item bound to")
    # The copy's name and its comment name the same user, one of the two that bind the item.
    user = copies[0].removeprefix("list__item_of_")
    assert user in ("numbers", "words") and comment.endswith(f"(declared in #/$defs/{user})")
    # The list its copy binds takes that user's item type: the other user's is refused there.
    other_user_item = {"numbers": "a", "words": 1}[user]
    assert not module.validate({user: [other_user_item]}).ok
    assert module.validate({"numbers": [1, 2], "words": ["a"]}).ok
    assert not module.validate({"numbers": ["a"]}).ok
    assert not module.validate({"words": [1]}).ok


def _dynamic_keys(node: Any) -> list[str]:
    """The dynamic keywords used as keys anywhere under ``node``."""
    if isinstance(node, list):
        return [key for item in node for key in _dynamic_keys(item)]
    if not isinstance(node, dict):
        return []
    own = [key for key in node if key.startswith(("$dynamic", "$recursive"))]
    return own + [key for value in node.values() for key in _dynamic_keys(value)]


def _many_bindings(users: int) -> dict[str, Any]:
    """A generic list bound by ``users`` resources, each to an item type of its own: the list
    is needed once per user."""
    defs: dict[str, Any] = {
        "list": {
            "$id": "list",
            "type": "array",
            "items": {"$dynamicRef": "#item"},
            "$defs": {"item": {"$dynamicAnchor": "item"}},
        }
    }
    for n in range(users):
        defs[f"user{n}"] = {
            "$id": f"user{n}",
            "$ref": "list",
            "$defs": {"item": {"$dynamicAnchor": "item", "const": n}},
        }
    return {
        "$schema": DRAFT2020,
        "$id": "https://example.com/many",
        "description": "One generic list, bound by many users.",
        "type": "object",
        "properties": {f"p{n}": {"$ref": f"user{n}"} for n in range(users)},
        "$defs": defs,
    }


@pytest.mark.parametrize("users", [2, MAX_VARIANTS + 1])
def test_copies_up_to_the_bound_are_made(users: int, tmp_path: Path) -> None:
    """Up to MAX_VARIANTS copies (one per binding but the first) the schema imports, and every
    user's list takes only its own item."""
    path = tmp_path / "many.json"
    path.write_text(json.dumps(_many_bindings(users)), encoding="utf-8")
    (contract,) = importer.import_file(path)
    built = pipeline.generate_module(
        contract.yaml_text.encode(), "contracts/t.yaml", PurePosixPath("t.yaml"), CONTEXT
    )
    last = users - 1
    assert built.module.validate({f"p{last}": [last, last]}).ok
    assert not built.module.validate({f"p{last}": [0 if last else 1]}).ok


def test_past_the_bound_the_reference_is_refused_at_its_place(tmp_path: Path) -> None:
    """One binding more than the bound allows: an error at the $dynamicRef, not a module."""
    path = tmp_path / "many.json"
    path.write_text(json.dumps(_many_bindings(MAX_VARIANTS + 2)), encoding="utf-8")
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_file(path)
    (problem,) = raised.value.problems
    # The reference that asked for the copy past the bound: a user's $ref to the list.
    assert problem.pointer is not None
    assert re.fullmatch(r"/\$defs/user[0-9]+/\$ref", problem.pointer), problem.pointer
    assert "reaches #/$defs/list with $dynamicAnchor item bound to" in problem.message
    assert f"one copy more than the {MAX_VARIANTS}" in problem.message
    assert str(problem).startswith(f"many.json: tool 'many' at {problem.pointer}: error:")


def test_a_contract_names_import_as_the_way_to_dynamic_references() -> None:
    """Written in a contract, $dynamicRef is refused with the way to it: toolshape import."""
    raw = json.dumps(
        {
            "name": "t",
            "description": "d",
            "parameters": {"type": "object", "properties": {"a": {"$dynamicRef": "#a"}}},
        }
    ).encode()
    with pytest.raises(Exception, match="run 'toolshape import' on it") as raised:
        pipeline.generate_module(raw, "t.yaml", PurePosixPath("t.yaml"), CONTEXT)
    assert "t.yaml:1:" in str(raised.value)


def test_validating_a_tree_does_work_linear_in_its_size(tmp_path: Path) -> None:
    """Counted, never timed: a strict tree of n, 2n, 4n nodes (deep and wide) costs linear
    work in the generated validator, as any recursive $ref does."""
    _, module, _ = imported_module(STRICT_TREE, tmp_path)

    def wide_and_deep(n: int) -> Callable[[], object]:
        value = {"label": "root", "children": [tree(8) for _ in range(n)]}
        return lambda: module.validate(value).feedback()

    assert_linear("strict tree", wide_and_deep, 4, module, runtime_module())


def test_every_platform_gets_plain_references_kept_inlined_or_refused(tmp_path: Path) -> None:
    """What import writes has only plain $refs, so every export treats the bindings as it
    treats any reference: kept (JSON Schema, MCP), inlined where the platform has no $ref
    (Gemini's legacy parameters), and refused there when inlining would never end."""
    for name, schema in (("strict_tree", STRICT_TREE), ("typed_lists", TYPED_LISTS)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(schema), encoding="utf-8")
        (contract,) = importer.import_file(path)
        checked = checker.load_and_check(contract.yaml_text.encode(), f"{name}.yaml")
        for target in ("jsonschema", "mcp", "openai", "anthropic", "gemini"):
            definition = export.export(checked, target).definition
            assert not _dynamic_keys(definition), (name, target)
            assert '"$ref"' in json.dumps(definition), (name, target)
        if name == "strict_tree":
            with pytest.raises(export.ExportError, match="recursive"):
                export.export(checked, "gemini-legacy")
        else:
            inlined = export.export(checked, "gemini-legacy").definition
            assert '"$ref"' not in json.dumps(inlined)


def _chain(links: int) -> dict[str, Any]:
    """The strict tree reached through ``links`` resources in a chain, each declaring the
    anchor again (the outermost, the root's, stays bound) and reaching the tree."""
    defs: dict[str, Any] = {"tree": copy.deepcopy(STRICT_TREE["$defs"]["tree"])}
    for n in range(links):
        follow = {"$ref": f"link{n + 1}"} if n + 1 < links else {"$ref": "tree"}
        defs[f"link{n}"] = {
            "$id": f"link{n}",
            "$dynamicAnchor": "node",
            "type": "object",
            "properties": {"next": follow, "tree": {"$ref": "tree"}},
        }
    return {**STRICT_TREE, "$ref": "link0", "$defs": defs}


def test_import_binds_a_chain_of_resources_in_linear_work(tmp_path: Path) -> None:
    """Counted, never timed: the calls import makes grow linearly with the resources a
    dynamic reference is reached through (each doubling adds about twice what the one
    before added), and the chain needs no copy (the root's anchor stays the outermost)."""

    def cost(links: int) -> int:
        path = tmp_path / f"chain{links}.json"
        path.write_text(json.dumps(_chain(links)), encoding="utf-8")
        made: list[importer.ImportedContract] = []
        calls = calls_made(lambda: made.extend(importer.import_file(path)))
        assert not any("__" in name for name in made[0].data["parameters"]["$defs"])
        return calls

    cost(8)  # once before counting: what is built once per process
    costs = [cost(n) for n in (25, 50, 100, 200)]
    added = [high - low for low, high in itertools.pairwise(costs)]
    for before, after in itertools.pairwise(added):
        assert after <= 2.5 * before + 100, costs


@pytest.mark.parametrize(
    ("node", "says"),
    [
        ({"$dynamicRef": "#node", "$ref": "#/$defs/other"}, "'$dynamicRef' beside '$ref'"),
        ({"$dynamicRef": 3}, "'$dynamicRef' must be a URI reference"),
        ({"$dynamicRef": "#nowhere"}, "$dynamicRef '#nowhere' names an anchor that no"),
        ({"$dynamicRef": "https://example.com/other#node"}, "remote $dynamicRef"),
    ],
)
def test_a_dynamic_reference_import_cannot_bind_is_an_error_at_its_place(
    node: dict[str, Any], says: str, tmp_path: Path
) -> None:
    """Each malformed or unresolvable dynamic reference: one error at its own pointer, no
    contract."""
    schema = {
        "$schema": DRAFT2020,
        "description": "d",
        "type": "object",
        "properties": {"a": node},
        "$defs": {"other": {"$dynamicAnchor": "node"}},
    }
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(schema), encoding="utf-8")
    with pytest.raises(importer.ContractImportError) as raised:
        importer.import_file(path)
    (problem,) = raised.value.problems
    assert problem.pointer == "/properties/a/$dynamicRef"
    assert says in problem.message, problem.message


def test_an_anchor_in_a_target_outside_the_subschemas_is_bound_too(tmp_path: Path) -> None:
    """A schema kept under a keyword JSON Schema does not know (``components``, as OpenAPI
    documents keep them) is read as a schema only when a $ref reaches it, while the references
    are being resolved: a dynamic anchor found there then is bound like the others."""
    schema = copy.deepcopy(STRICT_TREE)
    schema["$defs"]["tree"]["properties"]["note"] = {
        "$ref": "https://example.com/strict-tree#/components/note"
    }
    schema["components"] = {
        "note": {"$dynamicAnchor": "note", "type": "string", "maxLength": 3},
    }
    _, module, derived = imported_module(schema, tmp_path)
    valid = oracle(schema)
    instances = (
        derived + tree_instances() + [tree(1, {"note": "long"}, 1), tree(1, {"note": "ok"}, 1)]
    )
    for value in instances:
        assert module.validate(value).ok == valid(value), value
    assert not module.validate(tree(2, {"colour": "red"}, 2)).ok
    assert not module.validate(tree(1, {"note": "long"}, 1)).ok
