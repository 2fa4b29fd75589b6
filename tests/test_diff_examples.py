"""Single-keyword edits of every contract under contracts/ (a bound, an enum member, a
pattern; a property renamed, two reordered, one added): ``toolshape diff`` reports each with
a checked witness, and the regenerated module's difflib diff against the original is small
and lies inside the edited property's block, its INPUT_SCHEMA entry, its TypedDict field and
its constants (issue 7, "Generated diffs a reviewer can read")."""

from __future__ import annotations

import copy
import difflib
import functools
import io
import json
import re
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
from diff_support import (
    CONTRACT_FILES,
    CONTRACT_IDS,
    compare,
    dump,
    load_data,
    module_source,
    rename_property,
)
from support import ROOT, generated
from toolshape.contract import checker, reference, source
from toolshape.contract.errors import ContractError
from toolshape.schema.values import is_integer, is_number


@dataclass
class Edit:
    """One single-keyword (or single-property) edit of a contract."""

    original: bytes  # the contract before the edit (dumped)
    name: str
    data: Any  # the edited contract data
    keys: tuple[str, ...]  # the property keys whose regions may change
    constraint: (
        bool  # a single constraint: the generated diff must stay within MAX_CONSTRAINT_LINES
    )
    expect: tuple[str, ...] = ()  # the effects diff may report for the edited place

    @functools.cached_property
    def edited(self) -> bytes:
        """The edited contract (dumped): dumped once, though every test reads it several times."""
        return dump(self.data)


def property_sites(parameters: Any) -> list[tuple[tuple[Any, ...], str, dict[str, Any]]]:
    """(schema path, key, schema) of every property at every depth, top level first."""
    found: list[tuple[tuple[Any, ...], str, dict[str, Any]]] = []
    queue: list[tuple[tuple[Any, ...], Any]] = [((), parameters)]
    while queue:
        path, schema = queue.pop(0)
        if not isinstance(schema, dict):
            continue
        for key, sub in (schema.get("properties") or {}).items():
            found.append((path + ("properties", key), key, sub))
            queue.append((path + ("properties", key), sub))
        for keyword in ("items", "additionalProperties", "contains", "not", "if", "then", "else"):
            if isinstance(schema.get(keyword), dict):
                queue.append((path + (keyword,), schema[keyword]))
        for keyword in ("allOf", "anyOf", "oneOf", "prefixItems"):
            for i, sub in enumerate(schema.get(keyword) or []):
                queue.append((path + (keyword, i), sub))
        for name, sub in (schema.get("$defs") or {}).items():
            queue.append((path + ("$defs", name), sub))
    return found


def at(data: Any, path: tuple[Any, ...]) -> Any:
    node = data["parameters"]
    for step in path:
        node = node[step]
    return node


def valid(data: Any) -> bool:
    """The edited contract checks, and its examples still behave as declared (by the reference
    evaluator: cheap enough for collection; the tests then write the YAML, load it and generate
    the module for real). Checked as data: a YAML round trip here cost each xdist worker
    seconds of collection, in pyyaml's pure-Python emitter."""
    try:
        checked = checker.check(source.Document(file="x.yaml", data=data, text=""))
    except ContractError:
        return False
    for example in checked.examples:
        if example.status == "parse_error":
            continue
        value = example.args if example.has_args else json.loads(example.json or "null")
        errors = reference.evaluate(checked.parameters, value)
        if ("reject" if errors else "accept") != example.status:
            return False
        if example.errors is not None and set(example.errors) != errors:
            return False
    return True


def first_valid(data: Any, path: tuple[Any, ...], keyword: str, values: list[Any]) -> Any:
    for value in values:
        trial = copy.deepcopy(data)
        at(trial, path)[keyword] = value
        if valid(trial):
            return trial, value
    return None, None


@functools.cache
def edits(path: Path) -> list[Edit]:
    """The single-keyword edits that apply to one contract (each keeps the contract valid).

    Made once per contract and process: collection makes them all (EDIT_CASES), and
    test_diff_reports_each_single_edit_with_a_checked_witness reads the same list again instead
    of checking every candidate edit a second time. Nothing changes an ``Edit`` once made."""
    data = load_data(path)
    original = dump(data)
    sites = property_sites(data["parameters"])
    found: list[Edit] = []

    def site_with(
        test: Callable[[dict[str, Any]], bool],
    ) -> tuple[tuple[Any, ...], str, dict[str, Any]] | None:
        return next((s for s in sites if isinstance(s[2], dict) and test(s[2])), None)

    site = site_with(lambda s: is_integer(s.get("maxLength")))
    if site:
        n = int(site[2]["maxLength"])
        low = int(site[2].get("minLength", 0))
        edited, value = first_valid(
            data, site[0], "maxLength", [max(n // 2, low, 1), n - 1, n + 10]
        )
        if edited is not None:
            found.append(
                Edit(
                    original,
                    f"maxLength {n} -> {value} on {site[1]}",
                    edited,
                    (site[1],),
                    True,
                    ("breaking" if value < n else "widening",),
                )
            )
    site = site_with(lambda s: is_number(s.get("minimum")))
    if site:
        m = site[2]["minimum"]
        step = site[2].get(
            "multipleOf", 1
        )  # a bound moved by less than the step may let no new value through
        edited, value = first_valid(
            data, site[0], "minimum", [m + step, m - step, m + 10 * step, m - 10 * step]
        )
        if edited is not None:
            found.append(
                Edit(
                    original,
                    f"minimum {m} -> {value} on {site[1]}",
                    edited,
                    (site[1],),
                    True,
                    ("breaking" if value > m else "widening",),
                )
            )
    site = site_with(
        lambda s: isinstance(s.get("enum"), list) and any(isinstance(v, str) for v in s["enum"])
    )
    if site:
        edited, _ = first_valid(data, site[0], "enum", [[*site[2]["enum"], "zz-added"]])
        if edited is not None:
            found.append(
                Edit(
                    original,
                    f"enum member added on {site[1]}",
                    edited,
                    (site[1],),
                    True,
                    ("widening",),
                )
            )
    site = site_with(lambda s: isinstance(s.get("pattern"), str))
    if site:
        p = site[2]["pattern"]
        edited, _ = first_valid(data, site[0], "pattern", [f"(?:{p})|^zz-added$"])
        if edited is not None:
            found.append(
                Edit(
                    original,
                    f"pattern changed on {site[1]}",
                    edited,
                    (site[1],),
                    True,
                    ("widening", "equivalent"),
                )
            )
            # equivalent: the node's own length bounds refuse every string the alternative adds
    top = list(data["parameters"].get("properties") or {})
    text = json.dumps(data["parameters"])
    required = data["parameters"].get("required") or []
    renamable = [k for k in top if text.count(json.dumps(k)) == 1 + (k in required)]
    if renamable:
        key = renamable[-1]
        edited = rename_property(data, key, key + "_renamed")
        if valid(edited):
            found.append(
                Edit(original, f"property {key} renamed", edited, (key, key + "_renamed"), False)
            )
    if len(top) >= 2:
        edited = copy.deepcopy(data)
        props = edited["parameters"]["properties"]
        order = [top[1], top[0], *top[2:]]
        edited["parameters"]["properties"] = {k: props[k] for k in order}
        if valid(edited):
            found.append(
                Edit(
                    original,
                    f"properties {top[0]} and {top[1]} swapped",
                    edited,
                    (top[0], top[1]),
                    False,
                    ("annotation",),
                )
            )
    if top:
        closed = data["parameters"].get("additionalProperties") is False
        for where in ("first", "last"):
            edited = add_property(data, ADDED_KEY, ADDED_SCHEMA, first=where == "first")
            if valid(edited):
                found.append(
                    Edit(
                        original,
                        f"property {ADDED_KEY} added {where}",
                        edited,
                        (ADDED_KEY,),
                        False,
                        ("widening",) if closed else (),
                    )
                )
    return found


#: The optional property the "added" edits insert: its own block, schema entry and TypedDict field.
ADDED_KEY = "zz_added"
ADDED_SCHEMA = {
    "type": "array",
    "items": {"type": "object", "properties": {"key": {"type": "string", "maxLength": 10}}},
    "maxItems": 3,
}


def add_property(data: Any, key: str, schema: dict[str, Any], first: bool) -> Any:
    data = copy.deepcopy(data)
    props = data["parameters"]["properties"]
    data["parameters"]["properties"] = {key: schema, **props} if first else {**props, key: schema}
    return data


def edit_cases() -> list[Any]:
    found = []
    for path, name in zip(CONTRACT_FILES, CONTRACT_IDS, strict=False):
        try:
            cases = edits(path)
        except ContractError:
            continue  # a broken contract is another test's business
        for edit in cases:
            found.append(pytest.param(path, edit, id=f"{name}: {edit.name}"))
    return found


EDIT_CASES = edit_cases()


def test_every_contract_gets_the_basic_edits() -> None:
    names = {p.id.split(": ", 1)[1].split(" on ")[0].split(" ")[0] for p in EDIT_CASES}
    assert {"maxLength", "minimum", "enum", "pattern", "property", "properties"} <= names


def test_module_shortcut_matches_pipeline_generate() -> None:
    raw = dump(load_data(ROOT / "contracts" / "get_weather.yaml"))
    assert (
        module_source(raw)
        == generated(raw, "contracts/x.yaml", PurePosixPath("x.yaml")).module_source
    )


@pytest.mark.parametrize("path", CONTRACT_FILES, ids=CONTRACT_IDS)
def test_diff_reports_each_single_edit_with_a_checked_witness(path: Path) -> None:
    """All the edits of one contract at once: each edited place is reported, every witness holds."""
    original = dump(load_data(path))
    for edit in [e for e in edits(path) if e.expect]:
        report = compare({"old.yaml": original}, {"new.yaml": edit.edited})
        assert not report.errors and not report.notes, (edit.name, report.errors, report.notes)
        effects = {c.effect for c in report.changes if c.pointer is not None}
        assert effects and effects <= set(edit.expect), (
            edit.name,
            [(c.pointer, c.change, c.effect) for c in report.changes],
        )


#: A single constraint change touches at most this many lines besides the hash line (some of
#: them imports and shared constants: `import re` when the module's first regex arrives; a
#: pattern that moves from `re` to the linear-time matcher brings `_Linear` from the runtime,
#: its program as one JSON text, and may take `_WHITESPACE` away).
MAX_CONSTRAINT_LINES = 15


def _key_piece(line: str, key: str) -> bool:
    """Whether ``line`` is one piece of a cut string literal, and its text a part of ``key``
    too long to be a word of another key (eight characters or more)."""
    piece = re.fullmatch(r'\s*"([^"\\]*)"\s*', line)
    return piece is not None and len(piece.group(1)) >= 8 and piece.group(1) in key


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def logical_lines(lines: list[str]) -> list[int]:
    """For each physical line, the index of the first line of its logical line (black wraps
    statements over several lines; a statement is allowed to change as a whole)."""
    starts = list(range(len(lines)))
    text = "\n".join(lines) + "\n"
    first, depth = 0, 0
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.OP and token.string in "([{":
                depth += 1
            elif token.type == tokenize.OP and token.string in ")]}":
                depth -= 1
            elif token.type == tokenize.NEWLINE or (token.type == tokenize.NL and depth == 0):
                end = token.end[0] - 1
                for i in range(first, min(end + 1, len(lines))):
                    starts[i] = first
                first = end + 1
    except (tokenize.TokenError, IndentationError):
        pass
    return starts


def property_spans(raw: bytes, keys: tuple[str, ...]) -> list[range]:
    """The contract lines of every property named by ``keys``, at any depth."""
    document = source.load(raw, "contracts/x.yaml")
    spans = []
    for path in document.value_positions:
        if (
            len(path) >= 3
            and path[0] == "parameters"
            and path[-2] == "properties"
            and path[-1] in keys
        ):
            lines = [
                line
                for where in (document.value_positions, document.key_positions)
                for sub, (line, _) in where.items()
                if sub[: len(path)] == path
            ]
            spans.append(range(min(lines), max(lines) + 1))
    return spans


_LINE_REF = re.compile(r"contracts/x\.yaml:(\d+)")


def allowed_lines(
    lines: list[str], keys: tuple[str, ...], spans: list[range], helpers: bool, typed_dicts: bool
) -> set[int]:
    """Indexes of lines an edit of these properties may change."""
    allowed = {
        i
        for i, line in enumerate(lines)
        if line.startswith(("# contract-sha256:", "# output-sha256:"))
    }
    for i, line in enumerate(
        lines
    ):  # code made for the property's own schema (at any depth): by its line reference
        match = _LINE_REF.search(line)
        if match and any(int(match.group(1)) in span for span in spans):
            allowed.add(i)
            if (
                line.startswith("# contracts/")
                and i + 1 < len(lines)
                and lines[i + 1].startswith("class ")
            ):
                j = (
                    i + 1
                )  # a TypedDict of the property's object: the class, down to the next comment
                while j < len(lines) and not lines[j].startswith("# "):
                    allowed.add(j)
                    j += 1
            if (
                line.lstrip().startswith("# contracts/")
                and i > 0
                and lines[i - 1].startswith("def ")
            ):
                allowed.add(
                    i - 1
                )  # the def line of a function whose comment points into the property
    types_start = next(
        (
            i
            for i, line in enumerate(lines)
            if line.startswith("# -- The accepted arguments, as types")
        ),
        0,
    )
    types_end = next((i for i, line in enumerate(lines) if line.startswith("class Result(")), 0)
    # The imports name what the checks use (re for a pattern, a runtime helper for an enum...):
    # an edit that adds or removes the only check of a kind adds or removes its import.
    imports_end = next((i for i, line in enumerate(lines) if line.startswith("TOOL_NAME = ")), 0)
    allowed |= {
        i
        for i in range(imports_end)
        if lines[i].startswith(("import ", "from ", "    ")) or lines[i] == ")"
    }
    for key in keys:
        quoted = json.dumps(key)
        comment = re.compile(r"^(\s*)# " + re.escape(key) + r": (required|optional)\b")
        upper = "_" + re.sub(r"[^A-Za-z0-9]+", "_", key).upper()
        # constants and functions are named for their place in the schema: the key is a word of the name
        word = re.sub(r"[^A-Za-z0-9]+", "_", key)
        named = re.compile(
            rf"\b_(?:[A-Z0-9]+_)*{word.upper()}(?:_[A-Z0-9]+)*\b|\b_check_(?:[a-z0-9]+_)*{word.lower()}(?:_[a-z0-9]+)*\b"
        )
        for i, line in enumerate(lines):
            match = comment.match(line)
            if match:  # the property's block: its comment, down to the next comment at its level
                width = len(match.group(1))
                allowed.add(i)
                j = i + 1
                while (
                    j < len(lines)
                    and lines[j].strip()
                    and (
                        _indent(lines[j]) > width
                        or (_indent(lines[j]) == width and not lines[j].lstrip().startswith("#"))
                        # the comment's own continuation (codegen/comments.py folds it)
                        or (_indent(lines[j]) == width and lines[j].lstrip().startswith("#   "))
                    )
                ):
                    allowed.add(j)
                    j += 1
            # a line naming the key: an INPUT_SCHEMA entry, a TypedDict field, a constant or function of the property
            if (
                quoted in line
                or re.match(rf"\s+{re.escape(key)}: ", line)
                or re.match(rf"{re.escape(upper)}(_[A-Z0-9_]+)?\b", line)
                or line.startswith(f"def _check{upper.lower()}")
                or named.search(line)
                # an error path ending in the key ("/key"): the block comment above names a long key only in part
                or f'/{key.replace("~", "~0").replace("/", "~1")}"' in line
                # a piece of a string literal cut over lines (codegen/long_literals.py) that holds a
                # part of the key long enough to be its own
                or _key_piece(line, key)
            ):
                allowed.add(i)
                if line.rstrip().endswith(
                    ("{", "[", "(")
                ):  # an entry spread over lines: down to its closing bracket
                    j = i + 1
                    while j < len(lines) and not (
                        _indent(lines[j]) <= _indent(line) and lines[j].strip()[:1] in ")]}"
                    ):
                        allowed.add(j)
                        j += 1
                    allowed.add(j)
    if helpers:  # the shared constant for '\S' appears or goes with the last pattern that needs it
        for i, line in enumerate(lines):
            if line.startswith("_WHITESPACE = "):
                allowed.update(
                    (i - 1, i) if lines[i - 1].startswith("# ") else (i,)
                )  # with its comment
    if typed_dicts:  # a key added or removed may reshape its object's TypedDict (total=False split,
        # the @final of a closed object moving to the half that is the object's type)
        allowed.update(
            i
            for i in range(types_start, types_end)
            if not lines[i].strip()
            or lines[i].startswith(("class ", "_", "@final"))
            or lines[i].strip().startswith('"""')
        )
    starts = logical_lines(lines)
    whole = {s for i, s in enumerate(starts) if i in allowed}
    return allowed | {i for i, s in enumerate(starts) if s in whole}


def stray_lines(before: str, after: str, edit: Edit) -> list[str]:
    """The changed lines an edit of ``edit.keys`` has no reason to change.

    A replaced line is fine when its own side allows it, or when the whole other side of
    its hunk is allowed (the new version of a line that names the key, say).
    """
    a, b = before.splitlines(), after.splitlines()
    helpers = edit.name.startswith("pattern")
    typed = not edit.constraint
    allowed_a = allowed_lines(
        a, edit.keys, property_spans(edit.original, edit.keys), helpers, typed
    )
    allowed_b = allowed_lines(b, edit.keys, property_spans(edit.edited, edit.keys), helpers, typed)
    # Matched with the old side's contract line references moved where the edit moved those
    # lines: a comment "# contracts/x.yaml:52" of one constant must not pair with the same
    # text that now names another (which makes a constant look moved when nothing moved).
    mapping = line_map(edit.original, edit.edited)
    shifted = [
        _LINE_REF.sub(lambda m: f"contracts/x.yaml:{mapping.get(int(m.group(1)), 0)}", line)
        for line in a
    ]
    matcher = difflib.SequenceMatcher(None, shifted, b, autojunk=False)
    stray = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        old_ok = all(i in allowed_a for i in range(i1, i2))
        new_ok = all(j in allowed_b for j in range(j1, j2))
        old_heads = {_head(a[i]) for i in range(i1, i2) if i in allowed_a}
        new_heads = {_head(b[j]) for j in range(j1, j2) if j in allowed_b}
        stray += [
            f"-{i + 1}: {a[i]}"
            for i in range(i1, i2)
            if i not in allowed_a
            and not (tag == "replace" and (new_ok or _head(a[i]) in new_heads))
        ]
        stray += [
            f"+{j + 1}: {b[j]}"
            for j in range(j1, j2)
            if j not in allowed_b
            and not (tag == "replace" and (old_ok or _head(b[j]) in old_heads))
        ]
    # A line that is only a closing bracket says nothing by itself (the lines of its statement
    # are checked), and difflib pairs identical ones with whichever statement is nearest.
    stray = [line for line in stray if line.split(": ", 1)[1].strip() not in _CLOSING]
    return without_shifted_references(stray, edit.original, edit.edited)


_CLOSING = {")", "]", "}", "),", "],", "},", "):"}


def line_map(before: bytes, after: bytes) -> dict[int, int]:
    """Contract line numbers (1-based) of unchanged lines: where each one is after the edit."""
    a, b = before.decode().splitlines(), after.decode().splitlines()
    mapping = {}
    for i1, j1, size in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        mapping.update({i1 + k + 1: j1 + k + 1 for k in range(size)})
    return mapping


def without_shifted_references(stray: list[str], before: bytes, after: bytes) -> list[str]:
    """Drop the pairs of stray lines that differ only in a contract line reference, where the
    new number is exactly where the edit moved the old line. A comment names its contract
    line, so lines inserted above it move the reference; nothing else on the line may change."""
    mapping = line_map(before, after)

    def text(line: str) -> str:
        return line.split(": ", 1)[1]

    added: dict[str, list[int]] = {}
    for i, line in enumerate(stray):
        if line.startswith("+"):
            added.setdefault(text(line), []).append(i)
    dropped = set()
    for i, line in enumerate(stray):
        if line.startswith("-"):
            old = text(line)
            moved = _LINE_REF.sub(
                lambda m: f"contracts/x.yaml:{mapping.get(int(m.group(1)), 0)}", old
            )
            if moved != old and added.get(moved):
                dropped |= {i, added[moved].pop(0)}
    return [line for i, line in enumerate(stray) if i not in dropped]


def _head(line: str) -> str:
    """The name a statement starts with (``_VALUE_KEYS`` of ``_VALUE_KEYS: frozenset[str] = ...``), or the line."""
    match = re.match(r"(_[A-Z0-9_]+)\b", line)
    return match.group(1) if match else line


def why(stray: list[str]) -> str:
    """What the stray lines have in common: a shifted contract line number, renumbered names, a moved line."""
    removed = [line.split(": ", 1)[1] for line in stray if line.startswith("-")]
    added = [line.split(": ", 1)[1] for line in stray if line.startswith("+")]
    refs = names = moved = 0
    for old in removed:
        if old in added:
            moved += 1
        elif any(_LINE_REF.sub("N", old) == _LINE_REF.sub("N", new) for new in added):
            refs += 1
        elif any(
            re.sub(r"_\d+\b", "", _LINE_REF.sub("N", old))
            == re.sub(r"_\d+\b", "", _LINE_REF.sub("N", new))
            for new in added
        ):
            names += 1
    return f"{refs} differ only in a contracts/...:line reference, {names} in a renumbered name (i -> i_2), {moved} moved unchanged"


def touched_lines(before: str, after: str) -> int:
    """Lines changed (the larger side of each hunk), besides the hash line."""
    a, b = before.splitlines(), after.splitlines()
    touched = 0
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            hashes = sum(
                1
                for line in a[i1:i2]
                if line.startswith(("# contract-sha256:", "# output-sha256:"))
            )
            touched += max(i2 - i1, j2 - j1) - hashes
    return touched


@pytest.mark.parametrize(("path", "edit"), EDIT_CASES)
def test_generated_diff_of_a_single_edit_is_small_and_local(path: Path, edit: Edit) -> None:
    before = module_source(edit.original)
    after = module_source(edit.edited)
    touched = touched_lines(before, after)
    assert touched > 0
    stray = stray_lines(before, after, edit)
    assert not stray, (
        f"{edit.name}: {len(stray)} changed lines outside the edited property's places "
        f"(of the {sum(1 for line in stray if line.startswith('-'))} removed: {why(stray)}):\n"
        + "\n".join(line[:160] for line in stray[:24])
    )
    if edit.constraint:
        assert touched <= MAX_CONSTRAINT_LINES, f"{edit.name}: {touched} lines changed"


#: Rows of a generated tests file (see ``rows_of``) that hold the base arguments, or text made
#: from them.
_BASE_LINES = re.compile(
    r"""^(# (contract|output)-sha256: |# definition |# refused |BASE: dict\[str, object\] = |VALID_TEXT = |SCHEMA = |    \[ ?\{|    '\{|    \( ?["']cut off at the end["'], |    \( ?["']byte order mark["'], )"""
)


def rows_of(source: str) -> list[str]:
    """The generated tests file as rows: each line with the lines that continue it, joined
    with single spaces: a header record's ``# | `` lines, and, for a line inside a block or a
    table (indented), the lines indented deeper and those that close its brackets at its own
    indentation, or go on a string its line left open (a piece of an implicit concatenation):
    a table row that the layout spreads over lines is one row. A row inside the data of
    ``BASE``, ``VALID_TEXT`` or ``SCHEMA`` (spread over lines) starts with that name."""
    rows: list[str] = []
    first = previous = owner = ""
    for line in source.splitlines():
        depth = len(line) - len(line.lstrip(" "))
        start = len(first) - len(first.lstrip(" "))
        text = line.strip()
        continues = line.startswith("# | ") or (
            start >= 4
            and bool(text)
            and (
                depth > start
                or (depth == start and text[0] in ")]}")
                or (previous.endswith(("'", '"')) and text[0] in "'\"")
            )
        )
        if rows and continues:
            rows[-1] += line[4:] if line.startswith("# | ") else " " + text
        else:
            if depth == 0 and text:
                owner = next((n for n in _BASE_DATA if line.startswith(f"{n} = ")), "")
            rows.append(f"{owner} = {line}" if owner and depth else line)
            first = line
        previous = line.rstrip()
    return rows


#: The top-level names of a generated tests file whose data is the base arguments or made
#: from them.
_BASE_DATA = ("BASE", "VALID_TEXT", "SCHEMA")


@pytest.mark.parametrize(
    ("path", "edit"), [p for p in EDIT_CASES if f"property {ADDED_KEY} added" in p.id]
)
def test_a_property_added_adds_test_rows_without_rewriting_the_others(
    path: Path, edit: Edit
) -> None:
    """Derived cases are written as changes to BASE: adding a property changes the base (and
    the texts made from it) and adds the property's own rows; every other row stays."""
    if {"minProperties", "maxProperties"} & set(load_data(path)["parameters"]):
        pytest.skip("a count bound makes the base itself, and the rows built on it, change")
    # The original's tests are generated once for both of its edits (added first, added last).
    before = generated(edit.original, "contracts/x.yaml", PurePosixPath("x.yaml")).test_source
    after = generated(edit.edited, "contracts/x.yaml", PurePosixPath("x.yaml")).test_source
    diff = list(difflib.unified_diff(rows_of(before), rows_of(after), lineterm="", n=0))
    removed = [line[1:] for line in diff if line.startswith("-") and not line.startswith("---")]
    added = [line[1:] for line in diff if line.startswith("+") and not line.startswith("+++")]
    assert [line for line in removed if not _BASE_LINES.match(line)] == []
    rows = [line for line in added if not _BASE_LINES.match(line)]
    assert rows and all(
        f"'{ADDED_KEY}" in line or f'"{ADDED_KEY}' in line or f"/{ADDED_KEY}" in line
        for line in rows
    ), rows
