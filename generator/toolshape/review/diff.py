"""What a contract change does to callers: ``toolshape diff``.

Two sets of contracts (old and new), each a mapping ``display path -> raw bytes``
(from a folder with :func:`read_folder`, or from git with :func:`read_git`), are
loaded and checked (a broken file is reported as ``path:line:col: error: ...``),
matched by tool *name* (a renamed file that keeps its tool name is the same tool)
and compared:

* tools added and removed;
* for a changed tool, every changed place of its ``parameters``, by JSON Pointer:
  both schemas are walked in parallel, and each keyword, enum member, type,
  required key, property, subschema and list entry that differs is one change.

Each change gets an effect on callers:

``breaking``
    some arguments accepted before are refused now;
``widening``
    some arguments refused before are accepted now;
``both``
    one witness each way;
``annotation``
    title, description, default, examples, ``$comment``, ``x-*``, the order of
    properties: no effect on which arguments pass (listed because a description
    changes what the model is told);
``equivalent``
    no effect on which arguments pass, shown by an exhaustive search (the two patterns
    match the same strings, the bounds admit the same numbers, the entries of an
    ``allOf``/``anyOf``/``oneOf`` were only reordered); never fails ``--fail-on``;
``undetermined``
    "changed, effect not determined": no witness was found and no exhaustive search
    rules a direction out, so nothing is claimed; ``Change.reason`` says why (the
    witness budget ran out, a pattern search did not finish, formats are sampled, ...).

A direction is *ruled out* only by an exhaustive search of the changed schema node alone
(:meth:`_Search.decide`: the regex difference of two patterns when it is complete,
interval arithmetic for numeric and length bounds, set inclusion for ``type``, ``enum``
and ``required``, "an added assertion cannot widen" for ``format``, ``allOf`` entries and
the like, "an added ``anyOf`` entry cannot narrow") together with the node's *polarity* (:func:`_polarity`: a node under an
odd number of ``not`` turns narrowing into widening; under ``oneOf``, ``if``, a ``$ref``
target or ``unevaluated*`` no direction is ruled out, only equivalence is claimed).

A breaking or widening claim is never guessed from the keyword: it is made only
when a *witness* was found, a concrete argument object accepted by one side and
refused by the other. Candidates come from both contracts' examples, from the
cases :mod:`toolshape.codegen.cases` derives for both, and from values crafted for the
change (a string one longer than the new ``maxLength``, the added enum member,
the key that became required left out, ...) put into small accepted arguments.
A candidate becomes a witness only when

1. both sides' *generated* validators (each contract run through
   :func:`toolshape.project.pipeline.generate`, loaded in memory, cached per contract)
   disagree on it,
2. :func:`toolshape.contract.reference.evaluate` agrees with each generated validator, and
3. the change itself is responsible: the new parameters with only this change
   undone give a different answer (breaking: undoing it removes an error the new
   side reports; widening: undoing it makes the new side refuse).

The smallest witness (as JSON text) is kept for each direction.
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import itertools
import json
import math
import os
import subprocess
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path, PurePosixPath
from typing import Any

from .. import regex
from ..codegen import cases, render
from ..contract import checker as contract
from ..contract import reference, source
from ..contract.errors import ContractError, Problem, UsageError
from ..project import pipeline
from ..schema import pointers
from ..schema.keywords import ONE_SCHEMA, SCHEMA_LISTS, SCHEMA_MAPS
from ..schema.values import is_integer, is_number, json_equal
from ..witness import budget, sources
from ..witness.values import Engine
import contextlib

Parts = tuple[str | int, ...]
#: A place in the arguments: keys, indexes, and the markers _ITEM and _EXTRA.
Place = tuple[Any, ...]

#: The effects a change can have, most severe first (the order of the summary).
EFFECTS = ("breaking", "both", "widening", "undetermined", "equivalent", "annotation")
#: Values of ``--fail-on``.
FAIL_ON = ("breaking", "widening", "any")
#: Values of ``--format``.
FORMATS = ("text", "markdown", "json")
#: The suffixes of contract files (as ``toolshape generate`` reads them).
CONTRACT_SUFFIXES = (".yaml", ".yml")

#: The status of arguments for a tool a side does not define (the dispatch gate's code).
UNKNOWN_TOOL = "unknown_tool"

_ANNOTATION_KEYWORDS = frozenset(contract.ANNOTATIONS)
#: One-schema keywords whose absence means ``true``.
_DEFAULT_TRUE = frozenset({"items", "additionalProperties", "propertyNames", "then", "else"})
_RAW_TEXT_KEYWORDS = frozenset({"pattern", "format", "$ref"})

#: Witness search limits (per change): bases tried, values per place.
_MAX_BASES = 6
_MAX_VALUES = 120
#: At most this many distinguishing candidates are checked against the reference per change.
_MAX_REFERENCE_CHECKS = 400
#: Strings longer than this are shortened in text and markdown output (JSON has them whole).
SHOW_STRING = 40


#: Why an effect is not (fully) determined: ``Change.reason``.
REASON_BUDGET = "the witness budget ran out"
REASON_PATTERN = "a pattern search did not finish"
REASON_FORMAT = "formats are sampled"
REASON_COMBINATOR = "combinators are searched with sampled candidates, not decided"
REASON_SAMPLED = "no witness among the arguments tried, and no exhaustive search for this change"
REASON_PLACE = "under oneOf, if, a $ref target or unevaluated*, a narrower schema can also widen callers' arguments"
REASON_MASKED = "the changed schema differs, but no arguments tried show it (the rest of the schema may hide it)"


# -- the report ------------------------------------------------------------------


@dataclass(frozen=True)
class Witness:
    """Arguments accepted by one side and refused by the other, as both validators said."""

    arguments: Any
    old_status: str  # "accept", "reject" or "unknown_tool"
    new_status: str
    old_errors: tuple[tuple[str, str], ...] = ()  # (path, code) the old validator reported
    new_errors: tuple[tuple[str, str], ...] = ()
    #: The refusing side's errors this change is responsible for (the others come from other changes).
    cause: tuple[tuple[str, str], ...] = ()

    @property
    def direction(self) -> str:
        """ "breaking" (accepted before, refused now) or "widening" (the reverse)."""
        return "breaking" if self.old_status == "accept" else "widening"

    def as_dict(self) -> dict[str, Any]:
        return {
            "arguments": self.arguments,
            "old_status": self.old_status,
            "new_status": self.new_status,
            "old_errors": [{"path": p, "code": c} for p, c in self.old_errors],
            "new_errors": [{"path": p, "code": c} for p, c in self.new_errors],
            "cause": [{"path": p, "code": c} for p, c in self.cause],
        }


@dataclass(frozen=True)
class Change:
    """One changed place of one tool, with its effect on callers."""

    tool: str
    pointer: str | None  # a JSON Pointer into ``parameters``; None for the tool itself
    change: str  # what changed, in words
    effect: str  # one of EFFECTS
    witnesses: tuple[Witness, ...] = ()  # breaking first; two for "both"
    #: Why the effect is not fully determined: for "undetermined", why no direction is known; for
    #: "breaking" or "widening", why the other direction is not ruled out. None: fully determined.
    reason: str | None = None

    @property
    def where(self) -> str:
        """The pointer, or what a tool-level change is about."""
        if self.pointer is not None:
            return self.pointer or "(the parameters)"
        return "(tool)"

    def as_dict(self) -> dict[str, Any]:
        first = self.witnesses[0] if self.witnesses else None
        return {
            "tool": self.tool,
            "pointer": self.pointer,
            "change": self.change,
            "effect": self.effect,
            "witness": first.arguments if first else None,
            "old_status": first.old_status if first else None,
            "new_status": first.new_status if first else None,
            "witnesses": [w.as_dict() for w in self.witnesses],
            "reason": self.reason,
        }


@dataclass
class Report:
    """Everything ``toolshape diff`` found."""

    changes: list[Change] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # "path:line:col: error: message"
    notes: list[str] = field(default_factory=list)  # anomalies worth a bug report
    warnings: list[str] = field(
        default_factory=list
    )  # the new contracts' "path:line:col: warning: message"
    added: list[str] = field(default_factory=list)  # tool names
    removed: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)

    def counts(self) -> dict[str, int]:
        found = dict.fromkeys(EFFECTS, 0)
        for change in self.changes:
            found[change.effect] += 1
        return found


# -- reading both sides ------------------------------------------------------------


def read_folder(path: str | os.PathLike[str]) -> dict[str, bytes]:
    """The contracts of a file or folder: ``{display path: bytes}`` (display = the path as given).

    Symlinks are not followed (a contract is read at its real place); a file over
    the size limit is read only up to just past it (``source.load`` refuses it).
    """
    root = Path(path)
    if root.is_file():
        return {root.as_posix(): _read_limited(root)}
    if not root.is_dir():
        raise UsageError(f"{path}: no such contract file or folder")
    found: dict[str, bytes] = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not (Path(folder) / d).is_symlink())
        for name in sorted(files):
            file = Path(folder) / name
            if file.suffix in CONTRACT_SUFFIXES and file.is_file() and not file.is_symlink():
                found[file.as_posix()] = _read_limited(file)
    return dict(sorted(found.items()))


def _read_limited(path: Path) -> bytes:
    with open(path, "rb") as stream:
        return stream.read(source.MAX_CONTRACT_BYTES + 1)


def read_git(
    rev: str,
    path: str | os.PathLike[str] = "contracts",
    *,
    cwd: str | os.PathLike[str] | None = None,
) -> dict[str, bytes]:
    """The contracts under ``path`` as they were at git revision ``rev``: ``{"REV:path": bytes}``.

    ``path`` (a folder or one file, relative to ``cwd``) is looked up in the tree of
    ``rev`` with ``git ls-tree -r --full-name -z REV -- <path>`` and each regular
    file ending in .yaml/.yml is read with ``git show REV:<path>``; git runs with a
    list of arguments, never through a shell. A path missing at ``rev`` gives an
    empty mapping (every tool is then "added"). Raises :class:`UsageError` when
    this is not a git work tree or ``rev`` names no commit.
    """
    if not rev or rev.startswith("-"):
        raise UsageError(f"--base {rev!r}: not a git revision")
    here = Path(cwd) if cwd is not None else Path.cwd()
    top = Path(
        _git(["rev-parse", "--show-toplevel"], here, what="not inside a git work tree")
        .decode()
        .strip()
    )
    commit = (
        _git(
            ["rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}"],
            here,
            what=f"--base {rev}: no such commit",
        )
        .decode()
        .strip()
    )
    target = (here / path).resolve()
    try:
        relative = target.relative_to(top.resolve()).as_posix()
    except ValueError:
        raise UsageError(f"{path}: outside the git work tree {top}") from None
    listing = _git(
        ["ls-tree", "-r", "--full-name", "-z", commit, "--", relative or "."],
        top,
        what=f"git ls-tree {rev}",
    )
    found: dict[str, bytes] = {}
    for entry in listing.split(b"\0"):
        if not entry:
            continue
        meta, _, name_bytes = entry.partition(b"\t")
        mode, kind = meta.split(b" ")[:2]
        name = name_bytes.decode("utf-8", "surrogateescape")
        if kind != b"blob" or mode not in (b"100644", b"100755"):
            continue  # symlinks, submodules
        if PurePosixPath(name).suffix not in CONTRACT_SUFFIXES:
            continue
        found[f"{rev}:{name}"] = _git(
            ["show", f"{commit}:{name}"], top, what=f"git show {rev}:{name}"
        )
    return dict(sorted(found.items()))


def _git(args: list[str], cwd: Path, *, what: str) -> bytes:
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, check=False)
    except OSError as exc:
        raise UsageError(f"cannot run git: {exc.strerror or exc}") from None
    if done.returncode != 0:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise UsageError(what + (f" ({detail[-1]})" if detail else ""))
    return done.stdout


# -- one side's contracts, generated in memory ------------------------------------------


@dataclass
class _Built:
    """A contract with its generated validator and derived cases."""

    raw: bytes
    display: str
    checked: contract.Contract
    module: Any = None
    derived: list[Any] = field(default_factory=list)
    #: The warnings met deriving its cases (once its validator is generated).
    derivation_warnings: list[Problem] = field(default_factory=list)

    @property
    def parameters(self) -> Any:
        return self.checked.parameters


#: Generated validators by (contract bytes, templates folder); environments by templates folder.
_CACHE: dict[tuple[str, str], Any] = {}
#: The derivation's warnings by the same key (each names the file it was first generated for).
_WARNINGS: dict[tuple[str, str], list[Problem]] = {}
_ENVIRONMENTS: dict[str, Any] = {}


def _environment(templates: Path | None) -> tuple[str, Any]:
    key = str(Path(templates).resolve()) if templates is not None else ""
    if key not in _ENVIRONMENTS:
        _ENVIRONMENTS[key] = render.environment(templates)
    return key, _ENVIRONMENTS[key]


def _generate(raw: bytes, display: str, env: tuple[str, Any]) -> tuple[Any, list[Any]]:
    """The generated module (and derived cases) of one contract, cached by content."""
    key = (hashlib.sha256(raw).hexdigest(), env[0])
    if key not in _CACHE:
        # pipeline.generate() without rendering the test module (half of its time).
        half = pipeline.generate_module(raw, display, PurePosixPath("x.yaml"), env[1])
        module, derived = half.module, half.derived
        _CACHE[key] = (module, derived)
        _WARNINGS[key] = [w for w in half.warnings if w not in half.contract.warnings]
    return _CACHE[key]


def _derivation_warnings(built: _Built, env: tuple[str, Any]) -> list[Problem]:
    """The warnings deriving ``built``'s cases met, named after its own file."""
    found = _WARNINGS.get((hashlib.sha256(built.raw).hexdigest(), env[0]), [])
    return [replace(w, file=built.display) for w in found]


@dataclass
class _Side:
    """One side's contracts by tool name, and what its broken files may have defined."""

    tools: dict[str, _Built] = field(default_factory=dict)
    broken_names: set[str] = field(default_factory=set)  # tool names of files that do not check
    broken_files: set[str] = field(default_factory=set)  # file names of files that do not even load

    def unsure(self, built: _Built) -> bool:
        """Whether a tool missing from this side may just be in one of its broken files."""
        return (
            built.checked.name in self.broken_names
            or PurePosixPath(built.display).name in self.broken_files
        )


def _load_side(files: Mapping[str, bytes], report: Report) -> _Side:
    """Load and check every file; problems go to the report."""
    side = _Side()
    tools = side.tools
    where: dict[str, str] = {}
    for display, raw in files.items():
        try:
            document = source.load(raw, display)
        except ContractError as exc:
            report.errors.extend(str(p) for p in exc.problems)
            side.broken_files.add(PurePosixPath(display).name)
            continue
        try:
            checked = contract.check(document)
        except ContractError as exc:
            report.errors.extend(str(p) for p in exc.problems)
            name = document.data.get("name") if isinstance(document.data, dict) else None
            if isinstance(name, str):
                side.broken_names.add(name)
            else:
                side.broken_files.add(PurePosixPath(display).name)
            continue
        if checked.name in tools:
            line, col = checked.document.value_at(("name",))
            report.errors.append(
                str(
                    Problem(
                        display,
                        line,
                        col,
                        f"tool '{checked.name}' is also defined in {where[checked.name]}",
                    )
                )
            )
            continue
        tools[checked.name] = _Built(bytes(raw), display, checked)
        where[checked.name] = display
    return side


def _ready(built: _Built, env: Any, report: Report) -> bool:
    """Generate the validator; a failure is reported as an error, never a traceback."""
    if built.module is not None:
        return True
    try:
        built.module, built.derived = _generate(built.raw, built.display, env)
        built.derivation_warnings = _derivation_warnings(built, env)
    except ContractError as exc:
        report.errors.extend(str(p) for p in exc.problems)
        return False
    except Exception as exc:  # noqa: BLE001 - a toolshape bug or a template error: say where, go on
        report.errors.append(
            f"{built.display}:1:1: error: cannot generate the validator: {type(exc).__name__}: {exc}"
        )
        return False
    return True


# -- the comparison ---------------------------------------------------------------


def diff(
    old: Mapping[str, bytes],
    new: Mapping[str, bytes],
    *,
    templates: Path | None = None,
    steps: int = budget.DEFAULT_STEPS,
) -> Report:
    """Compare two sets of contracts (``{display path: raw bytes}`` each); ``steps`` is each changed
    tool's witness budget (:class:`toolshape.witness.budget.Budget`)."""
    report = Report()
    env = _environment(templates)
    old_side = _load_side(old, report)
    new_side = _load_side(new, report)
    before, after = old_side.tools, new_side.tools
    for name in sorted(set(before) | set(after)):
        if (name not in after and new_side.unsure(before[name])) or (
            name not in before and old_side.unsure(after[name])
        ):
            continue  # its file on the other side is broken: the errors say so, nothing is claimed
        if name not in after:
            report.removed.append(name)
            if _ready(before[name], env, report):
                report.changes.append(_tool_gone(before[name], name, removed=True))
        elif name not in before:
            report.added.append(name)
            if _ready(after[name], env, report):
                report.changes.append(_tool_gone(after[name], name, removed=False))
        else:
            found = _compare_tool(before[name], after[name], env, report, steps)
            if found:
                report.changed.append(name)
                report.changes.extend(found)
    for (
        built
    ) in after.values():  # the new side's warnings, file by file; the old side's are history
        report.warnings.extend(
            str(w) for w in sorted([*built.checked.warnings, *built.derivation_warnings])
        )
    return report


def _tool_gone(built: _Built, name: str, *, removed: bool) -> Change:
    """A tool only one side defines: every call to it changes verdict."""
    accepted = [c.data for c in built.derived if not c.errors]
    accepted += [e.args for e in built.checked.examples if e.has_args and e.status == "accept"]
    witnesses: tuple[Witness, ...] = ()
    for arguments in sorted(accepted, key=_size):
        if built.module.validate(arguments).ok and not reference.evaluate(
            built.parameters, arguments
        ):
            status = ("accept", UNKNOWN_TOOL) if removed else (UNKNOWN_TOOL, "accept")
            witnesses = (Witness(copy.deepcopy(arguments), *status),)
            break
    reason = None if witnesses else "no accepted example or derived case to witness it"
    if removed:
        effect = "breaking" if witnesses else "undetermined"
        return Change(name, None, f"tool removed (was {built.display})", effect, witnesses, reason)
    effect = "widening" if witnesses else "undetermined"
    return Change(name, None, f"tool added ({built.display})", effect, witnesses, reason)


def _compare_tool(
    old: _Built, new: _Built, env: Any, report: Report, steps: int = budget.DEFAULT_STEPS
) -> list[Change]:
    if old.raw == new.raw:
        return []
    name = new.checked.name
    found: list[Change] = []
    if old.checked.description != new.checked.description:
        found.append(
            Change(
                name,
                None,
                f"tool description changed: {_show_text(old.checked.description)} -> {_show_text(new.checked.description)}",
                "annotation",
            )
        )
    pending: list[_Pending] = []
    _walk(old.parameters, new.parameters, (), pending, old.parameters, new.parameters)
    old_data: dict[str, Any] = old.checked.document.data  # type: ignore[assignment]  # checked: a mapping
    new_data: dict[str, Any] = new.checked.document.data  # type: ignore[assignment]
    for key in [k for k in old_data if k.startswith("x-")] + [
        k for k in new_data if k.startswith("x-") and k not in old_data
    ]:
        if _dump(old_data.get(key)) != _dump(new_data.get(key)):
            text = _keyword_text(
                key, old_data.get(key), new_data.get(key), key in old_data, key in new_data
            )
            found.append(Change(name, None, f"{key}: {text}", "annotation"))
    if (
        pending
        and any(not p.annotation for p in pending)
        and not (_ready(old, env, report) and _ready(new, env, report))
    ):
        # A side cannot be generated (the errors say why): list the places, claim nothing.
        cannot = "a side's validator could not be generated"
        found.extend(
            Change(
                name,
                pointers.pointer(p.parts),
                p.text,
                p.settled or "undetermined",
                reason=None if p.settled else cannot,
            )
            for p in pending
        )
    elif pending and any(not p.annotation for p in pending):
        try:
            search: _Search | None = _Search(old, new, report, steps)
        except Exception as exc:  # noqa: BLE001 - a bug here must not hide the changes themselves
            report.notes.append(
                f"{name}: witness search failed ({type(exc).__name__}: {exc}); this is a toolshape bug"
            )
            search = None
        for item in pending:
            try:
                if search is None:
                    raise RuntimeError("no witness search")
                found.append(search.judge(name, item))
            except Exception as exc:  # noqa: BLE001 - claim nothing rather than crash
                if search is not None:
                    report.notes.append(
                        f"{name} {pointers.pointer(item.parts)}: witness search failed ({type(exc).__name__}: {exc})"
                    )
                why = None if item.settled else "the witness search failed (see the notes)"
                found.append(
                    Change(
                        name,
                        pointers.pointer(item.parts),
                        item.text,
                        item.settled or "undetermined",
                        reason=why,
                    )
                )
    else:
        found.extend(
            Change(name, pointers.pointer(p.parts), p.text, p.settled or "annotation")
            for p in pending
        )
    old_examples = _examples_key(old.checked)
    new_examples = _examples_key(new.checked)
    if old_examples != new_examples:
        gone = sum(1 for e in old_examples if e not in new_examples)
        came = sum(1 for e in new_examples if e not in old_examples)
        found.append(
            Change(
                name,
                None,
                f"contract examples changed ({came} new or edited, {gone} removed or edited; they are tests, not sent to the model)",
                "annotation",
            )
        )
    return found


def _examples_key(checked: contract.Contract) -> list[str]:
    data = checked.document.data
    raw = data.get("examples") if isinstance(data, dict) else None
    return [_dump(e) for e in raw] if isinstance(raw, list) else []


# -- walking both schemas in parallel -------------------------------------------------------


@dataclass
class _Pending:
    """A changed place, before its effect is known."""

    parts: Parts  # where, for the pointer
    node: Parts  # the schema whose value the change is about
    text: str
    annotation: bool = False
    undo: Callable[[Any], None] | None = (
        None  # reverts only this change in (a copy of) the new parameters
    )
    key: str | None = None  # a child key the change is about (required, properties)
    member: tuple[Any, ...] = ()  # (the enum member or type added or removed,)
    extra: bool = False  # about keys no property names (additionalProperties, patternProperties)
    items: bool = False  # about array items (items, prefixItems, contains)
    equivalent: bool = False  # known to change nothing without a search (entries reordered); annotation is True too

    @property
    def settled(self) -> str | None:
        """The effect known without a witness search: "equivalent", "annotation", or None."""
        return ("equivalent" if self.equivalent else "annotation") if self.annotation else None


def _walk(
    old: Any, new: Any, parts: Parts, out: list[_Pending], old_root: Any, new_root: Any
) -> None:
    """Append every changed place between two schemas at ``parts``."""
    if _dump(old) == _dump(new):
        return
    if not (isinstance(old, dict) and isinstance(new, dict)):
        out.append(
            _about(_Pending(parts, (), f"{_show(old)} -> {_show(new)}", undo=_setter(parts, old)))
        )
        return
    for keyword in list(old) + [k for k in new if k not in old]:
        here = parts + (keyword,)
        had, has = keyword in old, keyword in new
        before, after = old.get(keyword), new.get(keyword)
        if had and has and _dump(before) == _dump(after):
            continue
        if keyword in _ANNOTATION_KEYWORDS or keyword.startswith("x-"):
            out.append(
                _Pending(
                    here, parts, _keyword_text(keyword, before, after, had, has), annotation=True
                )
            )
        elif keyword in SCHEMA_MAPS:
            _walk_map(
                keyword, before if had else {}, after if has else {}, parts, out, old_root, new_root
            )
        elif keyword in ONE_SCHEMA and had and has:
            _walk(before, after, here, out, old_root, new_root)
        elif keyword in _REORDERABLE and had and has and _reordered(before, after):
            text = f"order of {keyword} entries changed (no validation effect)"
            out.append(_Pending(here, parts, text, annotation=True, equivalent=True))
        elif (
            keyword in SCHEMA_LISTS
            and had
            and has
            and isinstance(before, list)
            and isinstance(after, list)
        ):
            for i in range(max(len(before), len(after))):
                if i < len(before) and i < len(after):
                    _walk(before[i], after[i], here + (i,), out, old_root, new_root)
                elif i < len(after):
                    out.append(
                        _about(
                            _Pending(
                                here + (i,),
                                (),
                                f"entry {i} added: {_show(after[i])}",
                                undo=_popper(here, i),
                            )
                        )
                    )
                else:
                    out.append(
                        _about(
                            _Pending(
                                here + (i,),
                                (),
                                f"entry {i} removed: {_show(before[i])}",
                                undo=_appender(here, before[i]),
                            )
                        )
                    )
        elif (
            keyword == "enum"
            and had
            and has
            and isinstance(before, list)
            and isinstance(after, list)
            and _overlap(before, after)
        ):
            _members(here, parts, before, after, "value", out)
        elif keyword == "type" and had and has and _overlap(_as_list(before), _as_list(after)):
            _members(here, parts, _as_list(before), _as_list(after), "type", out, as_list=True)
        elif keyword == "required":
            _required(
                here, parts, _as_list(before) if had else [], _as_list(after) if has else [], out
            )
        else:
            text = _keyword_text(keyword, before, after, had, has)
            pending = _about(_Pending(here, (), text, undo=_setter(here, before, had)))
            if keyword in _DEFAULT_TRUE and (before if had else after) is True:
                pending.annotation = True  # true is what the keyword means when absent
                pending.text += " (the same as leaving it out: no validation effect)"
            out.append(pending)


#: Lists of subschemas whose order has no effect on which instances pass.
_REORDERABLE = frozenset({"allOf", "anyOf", "oneOf"})


def _reordered(before: Any, after: Any) -> bool:
    """Whether two subschema lists hold the same entries, only in another order."""
    if not (isinstance(before, list) and isinstance(after, list)) or len(before) != len(after):
        return False
    return sorted(map(_dump, before)) == sorted(map(_dump, after))


def _about(pending: _Pending) -> _Pending:
    """Fill in which schema (and which part of its value) a change at ``pending.parts`` is about."""
    parts = pending.parts
    if len(parts) >= 2 and (parts[-2] in SCHEMA_MAPS or parts[-2] in SCHEMA_LISTS):
        pending.node = parts  # a whole subschema: the value it applies to
        if parts[-2] == "properties":
            pending.node, pending.key = parts[:-2], str(parts[-1])
        elif parts[-2] == "patternProperties":
            pending.node, pending.extra = parts[:-2], True
        elif parts[-2] == "prefixItems":
            pending.node, pending.items = parts[:-2], True
        elif parts[-2] in ("allOf", "anyOf", "oneOf", "dependentSchemas"):
            pending.node = parts[:-2]
        return pending
    pending.node = parts[:-1]
    keyword = parts[-1] if parts else None
    pending.extra = keyword in ("additionalProperties", "propertyNames", "patternProperties")
    pending.items = keyword in (
        "items",
        "contains",
        "minItems",
        "maxItems",
        "uniqueItems",
        "minContains",
        "maxContains",
        "prefixItems",
    )
    return pending


def _walk_map(
    keyword: str,
    before: Any,
    after: Any,
    parts: Parts,
    out: list[_Pending],
    old_root: Any,
    new_root: Any,
) -> None:
    if not (isinstance(before, dict) and isinstance(after, dict)):
        out.append(
            _Pending(
                parts + (keyword,),
                parts,
                _keyword_text(keyword, before, after, True, True),
                undo=_setter(parts + (keyword,), before),
            )
        )
        return
    what = {
        "properties": "property",
        "$defs": "definition",
        "patternProperties": "pattern",
        "dependentSchemas": "schema for key",
    }[keyword]
    for key in list(before) + [k for k in after if k not in before]:
        here = parts + (keyword, key)
        if key in before and key in after:
            _walk(before[key], after[key], here, out, old_root, new_root)
            continue
        added = key in after
        text = f"{what} {_show(key)} " + (f"added: {_show(after[key])}" if added else "removed")
        undo = (
            _key_remover(parts + (keyword,), key)
            if added
            else _key_adder(parts + (keyword,), key, before[key])
        )
        pending = _about(_Pending(here, (), text, undo=undo))
        if keyword == "$defs" and not (_referenced(old_root, key) or _referenced(new_root, key)):
            pending.annotation = True
            pending.text += " (not referenced by any $ref: no validation effect)"
        out.append(pending)
    common = [k for k in before if k in after]
    if keyword == "properties" and common != [k for k in after if k in before]:
        out.append(
            _Pending(
                parts + (keyword,),
                parts,
                f"order of properties changed: {', '.join(common)} -> {', '.join(k for k in after if k in before)} "
                "(no validation effect; errors are listed, and the model reads them, in the new order)",
                annotation=True,
            )
        )


def _overlap(before: list, after: list) -> bool:
    """Whether two enum (or type) lists share a member: then each member added or removed is one change.

    Without a shared member, undoing one member alone would leave an empty list
    (which refuses everything), so the keyword is one change: "[a] -> [b]".
    """
    return any(json_equal(a, b) and type(a) is type(b) for a in before for b in after)


def _members(
    here: Parts,
    parts: Parts,
    before: list,
    after: list,
    what: str,
    out: list[_Pending],
    *,
    as_list: bool = False,
) -> None:
    for member in after:
        if not any(json_equal(member, m) and type(member) is type(m) for m in before):
            out.append(
                _Pending(
                    here,
                    parts,
                    f"{what} {_show(member)} added",
                    undo=_member_remover(here, member, as_list),
                    member=(member,),
                )
            )
    for member in before:
        if not any(json_equal(member, m) and type(member) is type(m) for m in after):
            out.append(
                _Pending(
                    here,
                    parts,
                    f"{what} {_show(member)} removed",
                    undo=_member_adder(here, member, as_list),
                    member=(member,),
                )
            )
    if [_dump(m) for m in before] != [_dump(m) for m in after] and sorted(
        map(_dump, before)
    ) == sorted(map(_dump, after)):
        out.append(
            _Pending(
                here,
                parts,
                f"order of {'enum members' if what == 'value' else 'types'} changed (no validation effect)",
                annotation=True,
            )
        )


def _required(here: Parts, parts: Parts, before: list, after: list, out: list[_Pending]) -> None:
    for key in after:
        if key not in before:
            out.append(
                _Pending(
                    here,
                    parts,
                    f"{_show(key)} now required",
                    undo=_member_remover(here, key, False),
                    key=key,
                )
            )
    for key in before:
        if key not in after:
            out.append(
                _Pending(
                    here,
                    parts,
                    f"{_show(key)} no longer required",
                    undo=_member_adder(here, key, False),
                    key=key,
                )
            )


def _referenced(root: Any, name: str) -> bool:
    target = "#/$defs/" + pointers.escape(name)
    text = _dump(root)
    return json.dumps(target) in text or json.dumps(target.replace("%", "%25")) in text


# -- undoing one change in a copy of the new parameters ----------------------------------------------


def _node(root: Any, parts: Parts) -> Any:
    for part in parts:
        root = root[part]
    return root


def _setter(parts: Parts, value: Any, present: bool = True) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        parent = _node(root, parts[:-1])
        if present:
            parent[parts[-1]] = copy.deepcopy(value)
        elif isinstance(parent, dict):
            parent.pop(parts[-1], None)

    return undo


def _key_remover(parts: Parts, key: str) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        _node(root, parts).pop(key, None)

    return undo


def _key_adder(parts: Parts, key: str, value: Any) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        parent = _node(root, parts[:-1])
        parent.setdefault(parts[-1], {})[key] = copy.deepcopy(value)

    return undo


def _popper(parts: Parts, index: int) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        del _node(root, parts)[index]

    return undo


def _appender(parts: Parts, value: Any) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        _node(root, parts).append(copy.deepcopy(value))

    return undo


def _member_remover(parts: Parts, member: Any, as_list: bool) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        parent = _node(root, parts[:-1])
        values = _as_list(parent.get(parts[-1], [])) if as_list else list(parent.get(parts[-1], []))
        values = [m for m in values if not (json_equal(m, member) and type(m) is type(member))]
        parent[parts[-1]] = values

    return undo


def _member_adder(parts: Parts, member: Any, as_list: bool) -> Callable[[Any], None]:
    def undo(root: Any) -> None:
        parent = _node(root, parts[:-1])
        values = _as_list(parent.get(parts[-1], [])) if as_list else list(parent.get(parts[-1], []))
        parent[parts[-1]] = values + [copy.deepcopy(member)]

    return undo


# -- finding witnesses ------------------------------------------------------------------


#: Instance-path steps that are not plain keys or indexes.
_ITEM = ("item",)  # every item of an array (index 0 when setting)
_EXTRA = ("extra",)  # a key no property names


class _Search:
    """Finds, checks and attributes witnesses for the changes of one tool."""

    def __init__(
        self, old: _Built, new: _Built, report: Report, steps: int = budget.DEFAULT_STEPS
    ) -> None:
        self.old, self.new, self.report = old, new, report
        self.verdicts: dict[str, tuple[Any, Any] | None] = {}
        self.reference_cache: dict[str, tuple[set, set]] = {}
        corpus: list[Any] = []
        for built in (old, new):
            for example in built.checked.examples:
                if example.has_args:
                    corpus.append(example.args)
                elif example.json is not None:
                    with contextlib.suppress(ValueError):
                        corpus.append(json.loads(example.json))
            corpus.extend(c.data for c in built.derived)
        self.corpus = _unique(c for c in corpus if isinstance(c, dict))
        both = [c for c in self.corpus if self.verdict(c) == ("accept", "accept")]
        old_only = [c for c in self.corpus if self.verdict(c) == ("accept", "reject")]
        new_only = [c for c in self.corpus if self.verdict(c) == ("reject", "accept")]
        bases = [self.prune(c, ("accept", "accept")) for c in sorted(both, key=_size)[:3]]
        bases += sorted(both, key=_size)[:2] + sorted(both, key=_size, reverse=True)[:1]
        bases += [self.prune(c, ("accept", "reject")) for c in sorted(old_only, key=_size)[:1]]
        bases += [self.prune(c, ("reject", "accept")) for c in sorted(new_only, key=_size)[:1]]
        self.bases = _unique(bases)[: _MAX_BASES + 2]
        # One witness budget for the tool: both sides' engines draw on it.
        self.budget = budget.Budget(steps)
        #: The per-change limit on reference checks cut a witness search short.
        self.checks_cut = False
        self.old_engine = Engine(old.parameters, self.budget)
        self.new_engine = Engine(new.parameters, self.budget)

    # -- verdicts ---------------------------------------------------------------

    def verdict(self, arguments: Any) -> tuple[str, str]:
        """(old status, new status) from the generated validators."""
        key = _dump(arguments)
        if key not in self.verdicts:
            try:
                self.verdicts[key] = (
                    self.old.module.validate(arguments),
                    self.new.module.validate(arguments),
                )
            except Exception:  # noqa: BLE001 - validate() never raises; be safe anyway
                self.verdicts[key] = None
        pair = self.verdicts[key]
        return (pair[0].status, pair[1].status) if pair else ("?", "?")

    def references(self, arguments: Any) -> tuple[set, set]:
        """The reference evaluator's errors for both sides (cached: they do not depend on the change)."""
        key = _dump(arguments)
        if key not in self.reference_cache:
            self.reference_cache[key] = (
                reference.evaluate(self.old.parameters, arguments),
                reference.evaluate(self.new.parameters, arguments),
            )
        return self.reference_cache[key]

    def results(self, arguments: Any) -> tuple[Any, Any]:
        self.verdict(arguments)
        return self.verdicts[_dump(arguments)]  # type: ignore[return-value]

    def prune(self, arguments: dict, want: tuple[str, str]) -> dict:
        """Smaller arguments with the same verdicts: optional keys dropped, at every depth."""
        current = copy.deepcopy(arguments)
        for path in list(_key_paths(current)):
            trial = copy.deepcopy(current)
            try:
                parent = _node(trial, path[:-1])
                del parent[path[-1]]
            except (KeyError, IndexError, TypeError):
                continue
            if self.verdict(trial) == want:
                current = trial
        return current

    # -- judging one change --------------------------------------------------------------

    def judge(self, tool: str, item: _Pending) -> Change:
        pointer = pointers.pointer(item.parts)
        if item.annotation:
            return Change(tool, pointer, item.text, item.settled or "annotation")
        undone = copy.deepcopy(self.new.parameters)
        try:
            assert item.undo is not None
            item.undo(undone)
        except Exception:  # noqa: BLE001 - the change cannot be isolated: claim nothing
            return Change(
                tool,
                pointer,
                item.text,
                "undetermined",
                reason="the change cannot be undone on its own",
            )
        clean: dict[str, Any] = {}  # direction -> arguments this change alone explains
        loose: dict[str, Any] = {}  # direction -> arguments it only contributes to
        budget = _MAX_REFERENCE_CHECKS
        for arguments in sorted(_unique(self.candidates(item)), key=_size):
            status = self.verdict(arguments)
            if status not in (("accept", "reject"), ("reject", "accept")):
                continue
            direction = "breaking" if status[0] == "accept" else "widening"
            if direction in clean:
                continue
            budget -= 1
            if budget < 0:
                self.checks_cut = True
                break
            found = self.witness(arguments, undone, direction)
            if found is None:
                continue
            if found:
                clean[direction] = arguments
                if len(clean) == 2:
                    break
            else:
                loose.setdefault(direction, arguments)
        best: dict[str, Witness] = {}
        for direction in ("breaking", "widening"):
            if direction in clean or direction in loose:
                is_clean = direction in clean
                arguments = self.minimize(
                    clean[direction] if is_clean else loose[direction], undone, direction, is_clean
                )
                best[direction] = self.as_witness(arguments, undone, direction)
        return self.attribute(tool, item, undone, best)

    def attribute(self, tool: str, item: _Pending, undone: Any, best: dict[str, Witness]) -> Change:
        """The effect from the witnesses found and the directions an exhaustive search rules out.

        A witness proves its direction; a direction without one is ruled out only by
        :meth:`decide` (the changed node alone) read through the node's polarity. Neither
        direction possible is "equivalent"; otherwise a missing direction stays open, with the
        reason no search could close it.
        """
        pointer = pointers.pointer(item.parts)
        decision = self.decide(item, undone)
        polarity = _polarity(self.new.parameters, item.node)
        ruled_out = decision.ruled_out(polarity)
        if (
            polarity is None
            and False in (decision.narrows, decision.widens)
            and not decision.reason
        ):
            decision = replace(
                decision, reason=REASON_PLACE
            )  # the node's direction is known, the callers' is not
        witnesses = tuple(best[d] for d in ("breaking", "widening") if d in best)
        contradicted = [d for d in best if d in ruled_out]
        if contradicted:  # a checked witness beats the search: say so, claim what the witness shows
            self.report.notes.append(
                f"{tool} {pointer}: a {contradicted[0]} witness was found that the exhaustive search ruled out; "
                "this is a toolshape bug"
            )
            ruled_out = set()
        if len(best) == 2:
            return Change(tool, pointer, item.text, "both", witnesses)
        if best:
            direction = next(iter(best))
            other = "widening" if direction == "breaking" else "breaking"
            reason = (
                None if other in ruled_out else f"whether it is also {other}: {self.why(decision)}"
            )
            return Change(tool, pointer, item.text, direction, witnesses, reason)
        if ruled_out == {"breaking", "widening"}:
            return Change(tool, pointer, item.text, "equivalent")
        reason = self.why(decision)
        if reason == REASON_SAMPLED and (decision.narrows or decision.widens):
            reason = REASON_MASKED  # the exhaustive search found a difference at the node itself
        return Change(tool, pointer, item.text, "undetermined", reason=reason)

    def why(self, decision: _Decision) -> str:
        """Why a direction stays open: the search that was cut, else what kind of search this change has."""
        if decision.reason in (REASON_BUDGET, REASON_PATTERN):
            return decision.reason
        if self.budget.exhausted or self.checks_cut:
            return REASON_BUDGET
        return decision.reason or REASON_SAMPLED

    # -- deciding one change exhaustively ------------------------------------------------

    def decide(self, item: _Pending, undone: Any) -> _Decision:
        """What the changed schema node alone can do: the node with the change undone (as in
        ``undone``) against the new node; only one keyword differs between them. Exhaustive
        procedures exist for ``pattern`` (regex difference), numeric and length bounds (intervals),
        ``type``, ``enum`` and ``required`` (sets); anything else is left open with its reason."""
        combinator = any(part in _COMBINATORS for part in item.parts if isinstance(part, str))
        open_reason = REASON_COMBINATOR if combinator else REASON_SAMPLED
        if (
            len(item.parts) >= 2
            and item.parts[-2] in ("allOf", "anyOf")
            and item.node == item.parts[:-2]
        ):
            return self.decide_entry(item, undone)
        if item.parts[:-1] != item.node or not item.parts:
            return _Decision(None, None, open_reason)  # a whole subschema or list entry
        keyword = item.parts[-1]
        before, after = _maybe(undone, item.node), _maybe(self.new.parameters, item.node)
        if not (isinstance(before, dict) and isinstance(after, dict)):
            return _Decision(None, None, open_reason)
        if keyword == "pattern":
            return self.decide_pattern(before, after)
        if keyword == "format":
            return _keyword_added_or_removed(keyword, before, after, REASON_FORMAT)
        decided = _decide_structurally(keyword, before, after)
        if keyword in _BOUND_FAMILY and not (
            decided and decided.narrows is False and decided.widens is False
        ):
            # Bounds rewritten together (minimum: 1 -> exclusiveMinimum: 0 on an integer): each
            # change undone alone differs, but the old node and the new one admit the same values.
            whole = self.decide_bounds_together(item.node, keyword)
            if whole is not None:
                return whole
        return decided if decided is not None else _Decision(None, None, open_reason)

    def decide_entry(self, item: _Pending, undone: Any) -> _Decision:
        """An ``allOf`` entry added only refuses more, an ``anyOf`` entry added only accepts more
        (and the reverse for one removed); what the entry itself admits is sampled, not decided."""
        before, after = (
            _maybe(undone, item.parts[:-1]),
            _maybe(self.new.parameters, item.parts[:-1]),
        )
        if (
            not (isinstance(before, list) and isinstance(after, list))
            or abs(len(after) - len(before)) != 1
        ):
            return _Decision(None, None, REASON_COMBINATOR)
        added = len(after) > len(before)
        if (item.parts[-2] == "allOf") == added:
            return _Decision(
                None, False, REASON_COMBINATOR
            )  # allOf entry added, anyOf entry removed
        return _Decision(False, None, REASON_COMBINATOR)

    def decide_bounds_together(self, node: Parts, keyword: str) -> _Decision | None:
        """Equivalence of the old and the new node when all that differs between them is bounds of
        ``keyword``'s family (and annotations); None when that is not so or they differ."""
        old_node, new_node = _maybe(self.old.parameters, node), _maybe(self.new.parameters, node)
        if not (isinstance(old_node, dict) and isinstance(new_node, dict)):
            return None
        family = _BOUND_FAMILY[keyword]
        keys = set(old_node) | set(new_node)
        differing = {
            k
            for k in keys
            if k not in old_node or k not in new_node or _dump(old_node[k]) != _dump(new_node[k])
        }
        if not differing <= family | _ANNOTATION_KEYWORDS:
            return None
        decided = _decide_structurally(keyword, old_node, new_node)
        return (
            decided
            if decided is not None and decided.narrows is False and decided.widens is False
            else None
        )

    def decide_pattern(self, before: dict[str, Any], after: dict[str, Any]) -> _Decision:
        """The regex difference both ways (strings of one pattern the other does not match),
        within the node's own length bounds; exact when the search is complete."""
        if not _may_be(before, "string"):
            return _Decision(False, False)
        low = before.get("minLength", 0)
        high = before.get("maxLength")
        low = low if _is_count(low) else 0
        high = high if _is_count(high) else None
        answers: list[bool | None] = []
        reason: str | None = None
        old_pattern, new_pattern = before.get("pattern"), after.get("pattern")
        for mine, theirs in ((old_pattern, new_pattern), (new_pattern, old_pattern)):
            if not isinstance(theirs, str):
                answers.append(False)  # no pattern on the other side: it refuses no string for it
                continue
            steps = self.budget.grant()
            if steps <= 0:
                answers.append(None)
                reason = REASON_BUDGET
                continue
            try:
                search = regex.strings(
                    [
                        mine if isinstance(mine, str) else ""
                    ],  # no pattern: every string ("" matches anywhere)
                    excluded=[theirs],
                    min_length=low,
                    max_length=high,
                    steps=steps,
                )
            except regex.PatternError:
                answers.append(None)
                reason = reason or REASON_SAMPLED
                continue
            self.budget.spend(min(self.budget.left, budget.SEARCH_COST))
            if search.found:
                answers.append(True)
            elif search.complete:
                answers.append(False)
            else:
                answers.append(None)
                self.budget.searches_cut = True
                reason = reason or REASON_PATTERN
        return _Decision(answers[0], answers[1], reason)

    def minimize(self, arguments: Any, undone: Any, direction: str, clean: bool) -> Any:
        """Drop keys and array items from a witness while it stays one (and stays clean)."""
        current = arguments
        for _ in range(200):
            for trial in itertools.chain(
                _reductions(current), _simplified(current, self.bases[:1])
            ):
                if self.verdict(trial) != self.verdict(current):
                    continue
                found = self.witness(trial, undone, direction)
                if found is None or (clean and not found):
                    continue
                current = trial
                break
            else:
                break
        return current

    def as_witness(self, arguments: Any, undone: Any, direction: str) -> Witness:
        old_result, new_result = self.results(arguments)
        old_errors = {(e.path, e.code) for e in old_result.errors}
        new_errors = {(e.path, e.code) for e in new_result.errors}
        without = reference.evaluate(undone, arguments)
        cause = new_errors - without if direction == "breaking" else without & old_errors or without
        return Witness(
            copy.deepcopy(arguments),
            old_result.status,
            new_result.status,
            tuple(sorted(old_errors)),
            tuple(sorted(new_errors)),
            tuple(sorted(cause)),
        )

    def witness(self, arguments: Any, undone: Any, direction: str) -> bool | None:
        """Whether ``arguments`` witness the change: None when not (the reference disagrees with a
        generated validator, or the change is not why the verdicts differ); True when the change
        alone explains the difference (undoing it gives the old verdict and errors); False when it
        only contributes (other changes play a part too).
        """
        old_result, new_result = self.results(arguments)
        old_errors = {(e.path, e.code) for e in old_result.errors}
        new_errors = {(e.path, e.code) for e in new_result.errors}
        try:
            old_ref, new_ref = self.references(arguments)
            without = reference.evaluate(undone, arguments)
        except Exception:  # noqa: BLE001 - the reference cannot judge it: not a witness
            return None
        if old_ref != old_errors or new_ref != new_errors:
            note = (
                f"generated validator and reference evaluator disagree on {_shown(arguments)}: "
                f"old {sorted(old_errors)} vs {sorted(old_ref)}, new {sorted(new_errors)} vs {sorted(new_ref)}"
            )
            if note not in self.report.notes:
                self.report.notes.append(note)
            return None
        if direction == "breaking" and not (new_ref - without):
            return None  # refused now, but not because of this change
        if direction == "widening" and not without:
            return None  # accepted now, but not because of this change
        return without == old_ref

    # -- candidates ------------------------------------------------------------------

    def candidates(self, item: _Pending) -> Iterator[Any]:
        """Crafted arguments for this change first, then every corpus instance."""
        old_node = _maybe(self.old.parameters, item.node)
        new_node = _maybe(self.new.parameters, item.node)
        nodes = [old_node, new_node]
        places = set(_instance_paths(self.old.parameters, item.node)) | set(
            _instance_paths(self.new.parameters, item.node)
        )

        def children(keyword: str, default: Any = True) -> list[Any]:
            return [n.get(keyword, default) if isinstance(n, dict) else default for n in nodes]

        item_schemas = children("items") + [
            c for c in children("contains", None) if isinstance(c, dict)
        ]
        between = self.between(old_node, new_node, item)
        for place in sorted(places, key=len):
            if place:
                for base in self.bases:
                    yield from _with(base, place, between)
            else:
                yield from (value for value in between if isinstance(value, dict))
            if item.key is not None:
                subs = [_maybe(n, ("properties", item.key)) for n in nodes]
                values = _values(
                    [s for s in subs if s is not None], self.known(place + (item.key,), subs)
                )
                for base in self.bases:
                    yield from _with(base, place + (item.key,), values, delete=True)
            if item.extra:
                subs = children("additionalProperties")
                values = _values(subs, self.known(place + (_EXTRA,), subs))
                for base in self.bases:
                    yield from _with(base, place + (_EXTRA,), values)
            if item.items:
                values = _values(item_schemas, self.known(place + (_ITEM,), children("items")))
                for base in self.bases:
                    yield from _with(base, place + (_ITEM,), values)
            if place:
                members = list(item.member) if item.parts[-1:] == ("enum",) else []
                known = self.known(place, nodes)
                items_known = self.known(place + (_ITEM,), children("items"))
                if item.items and items_known:  # more distinct items, for arrays at a count bound
                    more = [
                        m for v in items_known[:2] if isinstance(v, str) for m in _near_misses(v)
                    ]
                    items_known = sorted(
                        _unique(items_known + more),
                        key=lambda v: not self.passes(children("items"), v),
                    )
                values = members + _values(
                    [n for n in nodes if n is not None], known, item=item, items=items_known
                )
                for base in self.bases:
                    yield from _with(base, place, values)
            else:  # the arguments object itself: drop keys, add keys
                for base in self.bases:
                    yield from _shrunk(base)
                    yield from _grown(base, old_node, new_node)
        yield from self.corpus

    def between(self, old_node: Any, new_node: Any, item: _Pending) -> list[Any]:
        """Values (from the witness engine) the old node accepts and the new one refuses, and the
        reverse: a changed pattern gets strings of each language outside the other."""
        found: list[Any] = []
        if (
            item.parts[-1:] == ("pattern",)
            and isinstance(old_node, dict)
            and isinstance(new_node, dict)
        ):
            old_pattern, new_pattern = old_node.get("pattern"), new_node.get("pattern")
            for mine, theirs in ((old_pattern, new_pattern), (new_pattern, old_pattern)):
                if isinstance(mine, str):
                    search = sources.pattern_strings(
                        [mine],
                        excluded=[theirs] if isinstance(theirs, str) else [],
                        count=3,
                        steps=self.budget.grant(),
                    )
                    self.budget.spend(min(self.budget.left, budget.SEARCH_COST))
                    if not search.complete:
                        self.budget.searches_cut = True
                    found.extend(search.found)
        for engine, mine, theirs in (
            (self.old_engine, old_node, new_node),
            (self.new_engine, new_node, old_node),
        ):
            if mine is None or mine is False:
                continue
            schemas = [mine] if theirs is None else [mine, {"not": theirs}]
            found.extend(engine.conjunction(schemas, 3))
        return _unique(found)

    def known(self, place: Place, schemas: Sequence[Any] = ()) -> list[Any]:
        """Values found at an instance place in the corpus (both sides' examples and cases),
        those that pass one of ``schemas`` (on either side) first."""
        found: list[Any] = []
        for instance in self.corpus:
            found.extend(_values_at(instance, place))
        found = _unique(found)[:_MAX_VALUES]
        return sorted(found, key=lambda value: not self.passes(schemas, value))

    def passes(self, schemas: Sequence[Any], value: Any) -> bool:
        """Whether ``value`` passes one of ``schemas`` ($ref resolved against either side)."""
        for schema in schemas:
            if schema is None:
                continue
            for root in (self.old.parameters, self.new.parameters):
                try:
                    if not reference.errors_of(schema, value, "", root=root):
                        return True
                except Exception:  # noqa: BLE001 - a $ref into the other side: try the next root
                    continue
        return False


# -- exhaustive decisions for one changed node -------------------------------------------------

#: Keywords whose subschemas make a change a combinator change.
_COMBINATORS = frozenset({"allOf", "anyOf", "oneOf", "not", "if", "then", "else"})
_NUMBER_BOUNDS = ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum")
#: Length bounds: (lower keyword, upper keyword, the JSON type they apply to).
_COUNT_BOUNDS = (
    ("minLength", "maxLength", "string"),
    ("minItems", "maxItems", "array"),
    ("minProperties", "maxProperties", "object"),
)
#: Each bound keyword's family: the keywords that together make one range.
_BOUND_FAMILY: dict[str, frozenset[str]] = {k: frozenset(_NUMBER_BOUNDS) for k in _NUMBER_BOUNDS}
_BOUND_FAMILY.update(
    {k: frozenset((low, high)) for low, high, _ in _COUNT_BOUNDS for k in (low, high)}
)
_JSON_TYPES = ("null", "boolean", "object", "array", "string", "integer", "number")


@dataclass(frozen=True)
class _Decision:
    """What the changed node alone can do. ``narrows``: some value the node accepted before the
    change is refused after it; ``widens``: the reverse. False is exhaustively ruled out; True
    and None claim nothing (a node-level difference may still be masked elsewhere); ``reason``
    says why a None was left open."""

    narrows: bool | None
    widens: bool | None
    reason: str | None = None

    def ruled_out(self, polarity: int | None) -> set[str]:
        """The directions (for callers) this decision rules out, through the node's polarity."""
        if self.narrows is False and self.widens is False:
            return {"breaking", "widening"}  # the node accepts the same values wherever it is used
        if polarity is None:
            return set()
        found = set()
        if self.narrows is False:
            found.add("breaking" if polarity > 0 else "widening")
        if self.widens is False:
            found.add("widening" if polarity > 0 else "breaking")
        return found


#: Keywords whose outcome depends on what sibling subschemas evaluated: no polarity under them.
_SIBLING_KEYWORDS = ("unevaluatedProperties", "unevaluatedItems", "$dynamicRef", "$recursiveRef")


def _polarity(root: Any, node: Parts) -> int | None:
    """+1 when the arguments the whole schema accepts grow with those the node at ``node``
    accepts, -1 when they shrink (under an odd number of ``not``), None when neither is known
    (under ``oneOf``, ``if``, ``contains`` with ``maxContains``, a ``$ref`` target, or anywhere
    in a schema using ``unevaluated*`` or ``$dynamicRef``, whose outcome depends on siblings)."""
    text = _dump(root)
    if any(json.dumps(k) in text for k in _SIBLING_KEYWORDS):
        return None
    for ref in _refs(root):
        if not ref.startswith("#"):
            return None
        target = (
            tuple(p.replace("~1", "/").replace("~0", "~") for p in ref[1:].split("/")[1:])
            if ref != "#"
            else ()
        )
        if tuple(str(p) for p in node[: len(target)]) == target:
            return None
    sign, i = 1, 0
    while i < len(node):
        step = node[i]
        if step in (
            "properties",
            "patternProperties",
            "dependentSchemas",
            "allOf",
            "anyOf",
            "prefixItems",
        ):
            i += 2
        elif step in ("then", "else", "items", "additionalProperties", "propertyNames", "contains"):
            if step == "contains" and "maxContains" in (_maybe(root, node[:i]) or {}):
                return None  # more matching items can fail maxContains
            i += 1
        elif step == "not":
            sign, i = -sign, i + 1
        else:
            return None  # oneOf, if, $defs, contains with maxContains, anything unknown
    return sign


def _refs(node: Any) -> Iterator[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "$ref" and isinstance(value, str):
                yield value
            else:
                yield from _refs(value)
    elif isinstance(node, list):
        for value in node:
            yield from _refs(value)


def _types(node: dict[str, Any]) -> set[str] | None:
    """The JSON types a node admits ("number" as "integer" plus non-integers), None for a bad ``type``."""
    declared = node.get("type", list(_JSON_TYPES))
    names = _as_list(declared)
    if not all(isinstance(n, str) and n in _JSON_TYPES for n in names):
        return None
    found = set(names)
    if "number" in found:
        found |= {"integer", "fraction"}
    found.discard("number")
    return found


def _may_be(node: dict[str, Any], kind: str) -> bool:
    """Whether a node's ``type`` admits values of ``kind`` (unknown: True)."""
    types = _types(node)
    return types is None or kind in types


def _keyword_added_or_removed(
    keyword: str, before: dict[str, Any], after: dict[str, Any], reason: str
) -> _Decision:
    """An assertion keyword that only refuses: adding it cannot widen, removing it cannot narrow."""
    if keyword not in before and keyword in after:
        return _Decision(None, False, reason)
    if keyword in before and keyword not in after:
        return _Decision(False, None, reason)
    return _Decision(None, None, reason)


def _decide_structurally(
    keyword: Any, before: dict[str, Any], after: dict[str, Any]
) -> _Decision | None:
    """Bounds by intervals, ``type``/``enum``/``required`` by set inclusion; None: no exact procedure."""
    if keyword in _NUMBER_BOUNDS:
        if not _may_be(before, "integer"):
            return _Decision(False, False)
        integers = not _may_be(before, "fraction")
        old_range, new_range = _number_range(before, integers), _number_range(after, integers)
        if old_range is None or new_range is None:
            return None
        return _Decision(not _within(old_range, new_range), not _within(new_range, old_range))
    for low_key, high_key, kind in _COUNT_BOUNDS:
        if keyword in (low_key, high_key):
            if not _may_be(before, kind):
                return _Decision(False, False)
            old_count, new_count = (
                _count_range(before, low_key, high_key),
                _count_range(after, low_key, high_key),
            )
            if old_count is None or new_count is None:
                return None
            return _Decision(not _within(old_count, new_count), not _within(new_count, old_count))
    if keyword == "type":
        old_types, new_types = _types(before), _types(after)
        if old_types is None or new_types is None:
            return None
        return _Decision(not old_types <= new_types, not new_types <= old_types)
    if keyword == "enum":
        old_enum, new_enum = before.get("enum"), after.get("enum")
        if not (isinstance(old_enum, list) and isinstance(new_enum, list)):
            return _keyword_added_or_removed(keyword, before, after, REASON_SAMPLED)
        return _Decision(not _members_in(old_enum, new_enum), not _members_in(new_enum, old_enum))
    if keyword == "const" and "const" in before and "const" in after:
        if json_equal(before["const"], after["const"]):
            return _Decision(False, False)  # 1 -> 1.0
        return None
    if keyword == "required":
        old_keys = set(map(str, _as_list(before.get("required", []))))
        new_keys = set(map(str, _as_list(after.get("required", []))))
        return _Decision(not new_keys <= old_keys, not old_keys <= new_keys)
    if keyword in (
        "const",
        "multipleOf",
        "uniqueItems",
        "dependentRequired",
        "not",
        "additionalProperties",
        "items",
    ):
        reason = REASON_COMBINATOR if keyword == "not" else REASON_SAMPLED
        return _keyword_added_or_removed(keyword, before, after, reason)
    return None


#: An integer or real range: (low, low open, high, high open); None is unbounded.
_Range = tuple[Fraction | None, bool, Fraction | None, bool]


def _number_range(node: dict[str, Any], integers: bool) -> _Range | None:
    """The numbers a node's bounds admit, as a closed integer range when only integers pass."""
    low: Fraction | None = None
    high: Fraction | None = None
    low_open = high_open = False
    for keyword in _NUMBER_BOUNDS:
        if keyword not in node:
            continue
        value = node[keyword]
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        if isinstance(value, float) and not math.isfinite(value):
            return None
        bound, is_open = Fraction(value), keyword.startswith("exclusive")
        if keyword in ("minimum", "exclusiveMinimum"):
            if low is None or bound > low or (bound == low and is_open):
                low, low_open = bound, is_open
        elif high is None or bound < high or (bound == high and is_open):
            high, high_open = bound, is_open
    if not integers:
        return (low, low_open, high, high_open)
    first = None if low is None else (math.floor(low) + 1 if low_open else math.ceil(low))
    last = None if high is None else (math.ceil(high) - 1 if high_open else math.floor(high))
    return (
        None if first is None else Fraction(first),
        False,
        None if last is None else Fraction(last),
        False,
    )


def _count_range(node: dict[str, Any], low_key: str, high_key: str) -> _Range | None:
    low, high = node.get(low_key, 0), node.get(high_key)
    if not _is_count(low) or (high is not None and not _is_count(high)):
        return None
    return (Fraction(low), False, None if high is None else Fraction(high), False)


def _empty(span: _Range) -> bool:
    low, low_open, high, high_open = span
    return (
        low is not None
        and high is not None
        and (low > high or (low == high and (low_open or high_open)))
    )


def _within(inner: _Range, outer: _Range) -> bool:
    """Whether every value of ``inner`` lies in ``outer`` (integer ranges are closed and exact)."""
    if _empty(inner):
        return True
    low, low_open, high, high_open = inner
    o_low, o_low_open, o_high, o_high_open = outer
    low_ok = o_low is None or (
        low is not None and (low > o_low or (low == o_low and (low_open or not o_low_open)))
    )
    high_ok = o_high is None or (
        high is not None and (high < o_high or (high == o_high and (high_open or not o_high_open)))
    )
    return low_ok and high_ok


def _members_in(inner: list[Any], outer: list[Any]) -> bool:
    return all(any(json_equal(a, b) for b in outer) for a in inner)


# -- instance places and crafted values -------------------------------------------------------


def _instance_paths(root: Any, schema_parts: Parts, depth: int = 0) -> list[Place]:
    """Where in the arguments the schema at ``schema_parts`` applies (via $ref too)."""
    places: list[Place] = [()]
    steps = list(schema_parts)
    i = 0
    while i < len(steps):
        step = steps[i]
        following = steps[i + 1] if i + 1 < len(steps) else None
        if step == "properties" and following is not None:
            places = [p + (following,) for p in places]
            i += 2
        elif step == "dependentSchemas" or (step in SCHEMA_LISTS and step != "prefixItems"):
            i += 2
        elif step == "prefixItems" and following is not None:
            places = [p + (following,) for p in places]
            i += 2
        elif step in ("items", "contains"):
            places = [p + (_ITEM,) for p in places]
            i += 1
        elif step == "additionalProperties":
            places = [p + (_EXTRA,) for p in places]
            i += 1
        elif step in ("not", "if", "then", "else"):
            i += 1
        elif step == "$defs" and following is not None:
            if depth > 3:
                return []
            refs = _ref_sites(root, "#/$defs/" + pointers.escape(following))
            places = [
                p + q
                for p in places
                for site in refs
                for q in _instance_paths(root, site, depth + 1)
            ]
            i += 2
        else:  # patternProperties, propertyNames, ...: only the corpus can tell
            return []
    return _unique(places)


def _ref_sites(root: Any, ref: str) -> list[Parts]:
    found: list[Parts] = []

    def visit(node: Any, parts: Parts) -> None:
        if isinstance(node, dict):
            if node.get("$ref") == ref:
                found.append(parts)
            for key, value in node.items():
                if key not in _ANNOTATION_KEYWORDS and key != "enum" and key != "const":
                    visit(value, parts + (key,))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                visit(value, parts + (i,))

    visit(root, ())
    return found


def _values_at(instance: Any, place: Place) -> list[Any]:
    current = [instance]
    for step in place:
        following: list[Any] = []
        for value in current:
            if step == _ITEM and isinstance(value, list):
                following.extend(value)
            elif step == _EXTRA and isinstance(value, dict):
                following.extend(value.values())
            elif isinstance(value, (dict, list)) and not isinstance(step, tuple):
                try:
                    following.append(value[step])  # a key of an object, an index of an array
                except (KeyError, IndexError, TypeError):
                    pass
        current = following
    return current


def _with(base: Any, place: Place, values: Sequence[Any], *, delete: bool = False) -> Iterator[Any]:
    """``base`` with the value at ``place`` replaced by each of ``values`` (and deleted)."""
    if not place:
        return
    try:
        parent = base
        for step in place[:-1]:
            if step == _ITEM:
                if not isinstance(parent, list) or not parent:
                    return
                parent = parent[0]
            else:
                parent = parent[step]
    except (KeyError, IndexError, TypeError):
        return
    last = place[-1]
    if isinstance(parent, dict) and last != _ITEM:
        key = "extra" if last == _EXTRA else last
        if last == _EXTRA:
            key = next(k for k in ("extra", "extra_key", "zz_extra") if k not in parent)
        for value in values:
            yield _replaced(base, place[:-1], key, value)
        if delete and key in parent:
            trial = copy.deepcopy(base)
            del _node_steps(trial, place[:-1])[key]
            yield trial
    elif isinstance(parent, list):
        index = 0 if last == _ITEM else last
        if isinstance(index, int) and index <= len(parent):
            for value in values:
                yield _replaced(base, place[:-1], index, value)


def _node_steps(root: Any, place: Place) -> Any:
    for step in place:
        root = root[0] if step == _ITEM else root[step]
    return root


def _replaced(base: Any, parent_place: Place, key: Any, value: Any) -> Any:
    trial = copy.deepcopy(base)
    parent = _node_steps(trial, parent_place)
    if isinstance(parent, list) and key == len(parent):
        parent.append(copy.deepcopy(value))
    else:
        parent[key] = copy.deepcopy(value)
    return trial


def _reductions(value: Any) -> Iterator[Any]:
    """``value`` with one key or one array item left out, outermost first."""
    paths: list[Parts] = []

    def visit(node: Any, parts: Parts) -> None:
        if isinstance(node, dict):
            for key, item in node.items():
                paths.append(parts + (key,))
            for key, item in node.items():
                visit(item, parts + (key,))
        elif isinstance(node, list):
            for i in range(len(node) - 1, -1, -1):
                paths.append(parts + (i,))
            for i, item in enumerate(node):
                visit(item, parts + (i,))

    visit(value, ())
    for path in paths:
        trial = copy.deepcopy(value)
        try:
            del _node(trial, path[:-1])[path[-1]]
        except (KeyError, IndexError, TypeError):
            continue
        yield trial


def _simplified(value: Any, simple: Sequence[Any]) -> Iterator[Any]:
    """``value`` with one leaf replaced by a shorter one found at the same place in ``simple``."""
    for other in simple:
        for path in _key_paths(value):
            mine, theirs = _maybe(value, path), _maybe(other, path)
            if theirs is None or isinstance(mine, (dict, list)) or isinstance(theirs, (dict, list)):
                continue
            if _size(theirs) < _size(mine):
                trial = copy.deepcopy(value)
                _node(trial, path[:-1])[path[-1]] = copy.deepcopy(theirs)
                yield trial


def _shrunk(base: dict) -> Iterator[Any]:
    for key in base:
        yield {k: v for k, v in base.items() if k != key}


def _grown(base: dict, old_node: Any, new_node: Any) -> Iterator[Any]:
    for node in (old_node, new_node):
        if isinstance(node, dict):
            for key, sub in node.get("properties", {}).items():
                if key not in base:
                    for value in _values([sub], [])[:8]:
                        yield {**base, key: value}
    for count in range(1, 4):
        yield {**base, **{f"extra_{i}": 1 for i in range(count)}}


def _values(
    schemas: Sequence[Any],
    known: Sequence[Any],
    *,
    item: _Pending | None = None,
    items: Sequence[Any] = (),
) -> list[Any]:
    """Values worth trying where these schemas apply: known ones, then ones at every bound of every side.

    ``known`` (and ``items``, known array items) are best given good values first: strings
    and arrays are built from the first few.
    """
    found: list[Any] = []
    dicts = [s for s in schemas if isinstance(s, dict)]
    strings = [v for v in known if isinstance(v, str)] + ["x"]
    numbers = [v for v in known if isinstance(v, (int, float)) and not isinstance(v, bool)]
    arrays = [v for v in known if isinstance(v, list)]
    for schema in dicts:
        found.extend(m for m in schema.get("enum", []))
        if "const" in schema:
            found.append(schema["const"])
        if "default" in schema:
            found.append(schema["default"])
        if isinstance(schema.get("examples"), list):
            found.extend(schema["examples"])
        if isinstance(schema.get("format"), str):
            found.extend(sources.format_valid(schema["format"])[:2])
            found.extend(sources.format_invalid(schema["format"])[:2])
    for schema in dicts:  # strings at each length bound of each side, built from known strings
        for keyword in ("minLength", "maxLength"):
            if _is_count(schema.get(keyword)):
                n = int(schema[keyword])
                for length in (n - 1, n, n + 1):
                    if 0 <= length <= 2_000_000:
                        found.extend(_stretch(s, length) for s in strings[:4])
    if any("pattern" in s or "format" in s for s in dicts):  # near misses of known strings
        for text in strings[:6]:
            found.extend(_near_misses(text))
        for (
            schema
        ) in dicts:  # strings each side's pattern matches, alone and spliced into known ones
            if isinstance(schema.get("pattern"), str):
                samples = list(
                    sources.pattern_strings(
                        [schema["pattern"]], count=6, steps=budget.SEARCH_STEPS
                    ).found
                )
                found.extend(samples)
                found.extend(_splices(strings[:4], samples[:6]))
    for schema in dicts:  # numbers at and around each bound
        step = schema.get("multipleOf") if is_number(schema.get("multipleOf")) else None
        for keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            bound = schema.get(keyword)
            if is_number(bound):
                for delta in (0, -1, 1, -0.5, 0.5, *((-step, step) if step else ())):
                    found.append(_number(bound + delta))
        if step:
            found.extend(_number(v) for v in (step, 2 * step, step / 2, 1.5 * step))
            found.extend(_number(v + step / 2) for v in numbers[:3])
    item_pool = _unique(
        list(items)
        + [i for a in arrays for i in a]
        + [s for d in dicts for s in _values([d.get("items", True)], [])[:6]]
    )
    for array in arrays[:3]:  # one item more, one fewer
        found.extend([array + [copy.deepcopy(array[-1])], array[:-1]] if array else [])
        found.extend(array + [p] for p in item_pool[:3] if all(_dump(p) != _dump(a) for a in array))
    for schema in dicts:  # arrays at each count bound, of distinct and of repeated items
        for keyword in ("minItems", "maxItems"):
            if _is_count(schema.get(keyword)) and item_pool:
                n = int(schema[keyword])
                for length in (n - 1, n, n + 1):
                    if 0 <= length <= 10_000:
                        distinct = item_pool[:length]
                        if len(distinct) == length:
                            found.append(distinct)
                        found.append([copy.deepcopy(item_pool[0]) for _ in range(length)])
        if schema.get("uniqueItems") is True and item_pool:
            found.append([item_pool[0], copy.deepcopy(item_pool[0])])
            found.extend([a[0], copy.deepcopy(a[0])] for a in arrays[:2] if a)
    if item is not None and item.member and item.parts[-1:] == ("type",):
        found.append(cases.TYPE_SAMPLES.get(str(item.member[0])))
        if item.member[0] == "integer":
            found.append(2)
    found.extend(cases.TYPE_SAMPLES.values())
    found.extend([1.5, -1, "", [1], {"a": 1}])
    found.extend(known)  # last: what is crafted for the bounds must survive the cut
    return _unique(found)[: _MAX_VALUES * 3]


def _splices(strings: Sequence[str], samples: Sequence[str]) -> list[str]:
    """Known strings with a part replaced by a pattern sample, cut where they have punctuation
    ("mia@security.example.com" and "@sec.example.com" give "mia@sec.example.com")."""
    found = []
    for text in strings:
        cuts = [i for i, ch in enumerate(text) if not ch.isalnum()][:4]
        for sample in samples:
            for cut in cuts:
                found += [text[:cut] + sample, sample + text[cut + 1 :]]
    return found


def _near_misses(text: str) -> list[str]:
    """Small edits of a string that often cross a changed pattern or format."""
    found = [text.upper(), text.lower(), text[1:], text[:-1], text + text]
    for extra in (" ", "-", "_", ".", "/", "@", "0", "A", "a", "é"):
        found += [extra + text, text + extra]
    if len(text) > 2:
        middle = len(text) // 2
        found += [text[:middle] + " " + text[middle:], text[:middle] + "0" + text[middle + 1 :]]
    return found


def _stretch(text: str, length: int) -> str:
    """``text`` cut or extended (with its own last character) to ``length`` characters."""
    if len(text) >= length:
        return text[:length]
    return text + (text[-1:] or "x") * (length - len(text))


def _number(value: float) -> float:
    return (
        int(value)
        if isinstance(value, float) and value.is_integer() and abs(value) < 2**53
        else value
    )


def _is_count(value: Any) -> bool:
    return is_integer(value) and value >= 0


def _key_paths(value: Any, parts: Parts = ()) -> Iterator[Parts]:
    """Every dict key path in ``value``, deepest first."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _key_paths(item, parts + (key,))
            yield parts + (key,)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _key_paths(item, parts + (i,))


def _maybe(root: Any, parts: Parts) -> Any:
    try:
        return _node(root, parts)
    except (KeyError, IndexError, TypeError):
        return None


# -- small helpers ------------------------------------------------------------------


def _dump(value: Any) -> str:
    """Order-preserving JSON text: 1 and 1.0 differ here, as they do in the contract text."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=repr)


def _size(value: Any) -> tuple[int, int]:
    """How big arguments read (non-ASCII counts extra; on a tie, fewer distinct characters win)."""
    text = json.dumps(value, default=repr)
    return len(text), len(set(text))


def _unique(values: Iterable[Any]) -> list[Any]:
    seen: set[str] = set()
    found = []
    for value in values:
        key = _dump(value) + type(value).__name__
        if key not in seen:
            seen.add(key)
            found.append(value)
    return found


def _as_list(value: Any) -> list:
    return list(value) if isinstance(value, list) else [value]


def _show(value: Any, limit: int = 60) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _show_text(text: str, limit: int = 60) -> str:
    return _show(text, limit)


def _keyword_text(keyword: str, before: Any, after: Any, had: bool, has: bool) -> str:
    """What changed in one keyword (the pointer names the keyword): "100 -> 50", "50 added"."""
    show = _raw if keyword in _RAW_TEXT_KEYWORDS else _show
    if had and has:
        return f"{show(before)} -> {show(after)}"
    if has:
        return f"{show(after)} added"
    return f"{show(before)} removed"


def _raw(value: Any) -> str:
    """A pattern, format or $ref as written in YAML (single-quoted), not JSON-escaped."""
    if isinstance(value, str):
        text = value if len(value) <= 60 else value[:57] + "..."
        return "'" + text.replace("'", "''") + "'"
    return _show(value)


def _shown(value: Any) -> str:
    """Arguments for text and markdown: JSON, with long strings shortened (JSON output has them whole)."""

    def shorten(item: Any) -> Any:
        if isinstance(item, str) and len(item) > SHOW_STRING:
            return _Long(item)
        if isinstance(item, list):
            return [shorten(i) for i in item]
        if isinstance(item, dict):
            return {k: shorten(v) for k, v in item.items()}
        return item

    return _encode(shorten(value))


class _Long(str):
    """A long string, shown as its start and its length."""


def _encode(value: Any) -> str:
    if isinstance(value, _Long):
        head = json.dumps(str(value)[:12], ensure_ascii=False)[:-1]
        return f'{head}..." ({len(value)} chars)'
    if isinstance(value, dict):
        return (
            "{"
            + ", ".join(
                f"{json.dumps(k, ensure_ascii=False)}: {_encode(v)}" for k, v in value.items()
            )
            + "}"
        )
    if isinstance(value, list):
        return "[" + ", ".join(_encode(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


# -- output -------------------------------------------------------------------------


_BEFORE_NOW = {
    ("accept", "reject"): "accepted before, refused now",
    ("reject", "accept"): "refused before, accepted now",
    ("accept", UNKNOWN_TOOL): "accepted before, unknown tool now",
    (UNKNOWN_TOOL, "accept"): "unknown tool before, accepted now",
}


def _why(witness: Witness) -> str:
    """How a witness reads: which side accepts it, and the refusing side's errors."""
    said = _BEFORE_NOW.get(
        (witness.old_status, witness.new_status),
        f"{witness.old_status} before, {witness.new_status} now",
    )
    errors = witness.new_errors if witness.direction == "breaking" else witness.old_errors
    cause = [e for e in witness.cause if e in errors] or list(errors)
    if cause:
        shown = ", ".join(f"{code} at {path or '/'}" for path, code in cause[:3])
        said += f": {shown}" + (", ..." if len(cause) > 3 else "")
    others = [e for e in errors if e not in cause]
    if others:
        shown = ", ".join(f"{code} at {path or '/'}" for path, code in others[:2])
        said += f" (also {shown}" + (", ..." if len(others) > 2 else "") + ", from other changes)"
    return said


def _effect_words(change: Change) -> str:
    """The effect as the reports print it; "not determined" carries its reason."""
    if change.effect == "undetermined":
        return "changed, effect not determined" + (f" ({change.reason})" if change.reason else "")
    return change.effect


def summary(report: Report) -> str:
    """One line: the counts of changes by effect, and of tools."""
    counts = report.counts()
    parts = [
        f"{counts['breaking']} breaking",
        f"{counts['widening']} widening",
        f"{counts['both']} both",
    ]
    parts += [f"{counts['equivalent']} equivalent", f"{counts['annotation']} annotation"]
    parts.append(f"{counts['undetermined']} not determined")
    tools = f"{_plural(len(report.changed), 'tool')} changed, {len(report.added)} added, {len(report.removed)} removed"
    line = f"{', '.join(parts)} ({tools})"
    if report.errors:
        line += f"; {_plural(len(report.errors), 'contract error')}"
    return line


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}" + ("" if count == 1 else "s")


def format_text(report: Report) -> str:
    """One line per change, then the errors, notes and a summary line."""
    lines = []
    for change in report.changes:
        line = f"{change.tool} {change.where}: {change.change} -> {_effect_words(change)}"
        for witness in change.witnesses:
            line += f"; witness {_shown(witness.arguments)} ({_why(witness)})"
        lines.append(line)
    lines.extend(report.errors)
    lines.extend(f"note: {n}" for n in report.notes)
    lines.append(summary(report) if report.changes or report.errors else "no changes")
    return "\n".join(lines) + "\n"


def format_markdown(report: Report) -> str:
    """A pull-request comment: a summary line, then a heading and a table per tool."""
    out = [
        "## toolshape diff",
        "",
        f"**{summary(report)}**" if report.changes or report.errors else "No contract changes.",
        "",
    ]
    if report.errors:
        out += ["### Contract errors", ""]
        out += [f"- {_code(e)}" for e in report.errors]
        out.append("")
    tools: dict[str, list[Change]] = {}
    for change in report.changes:
        tools.setdefault(change.tool, []).append(change)
    for tool, changes in tools.items():
        state = (
            "added" if tool in report.added else "removed" if tool in report.removed else "changed"
        )
        out += [
            f"### {_code(tool)} ({state})",
            "",
            "| where | change | effect | witness |",
            "|---|---|---|---|",
        ]
        for change in changes:
            effect = _effect_words(change)
            if change.effect in ("breaking", "widening", "both"):
                effect = f"**{effect}**"
            witness = (
                "<br>".join(
                    f"{_code(_shown(w.arguments))} {_cell(_why(w))}" for w in change.witnesses
                )
                or ""
            )
            out.append(f"| {_code(change.where)} | {_cell(change.change)} | {effect} | {witness} |")
        out.append("")
    if report.notes:
        out += ["### Notes", ""] + [f"- {_cell(n)}" for n in report.notes] + [""]
    out.append(
        "<sub>A witness is a concrete argument object that one side's generated validator accepts and the other refuses: "
        "breaking = accepted before, refused now; widening = the reverse; equivalent = an exhaustive search found "
        "no argument either way. Long strings are shortened here; "
        "`toolshape diff --format json` has them whole.</sub>"
    )
    return "\n".join(out) + "\n"


def _cell(text: str) -> str:
    """Plain text for a table cell: pipes escaped, no line breaks."""
    return (
        text.replace("\\", "\\\\")
        .replace("|", "\\|")
        .replace("\n", " ")
        .replace("<", "&lt;")
        .replace("*", "\\*")
        .replace("_", "\\_")
    )


def _code(text: str) -> str:
    """A code span that survives a table cell (pipes escaped; backticks fenced)."""
    text = text.replace("\n", " ").replace("|", "\\|")
    fence = "`"
    while fence in text:
        fence += "`"
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def format_json(report: Report) -> str:
    """A JSON list: one object per change (and one per contract error, effect "error")."""
    items: list[dict[str, Any]] = [c.as_dict() for c in report.changes]
    items += [
        {
            "tool": None,
            "pointer": None,
            "change": e,
            "effect": "error",
            "witness": None,
            "old_status": None,
            "new_status": None,
            "witnesses": [],
            "reason": None,
        }
        for e in report.errors
    ]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"


def render_report(report: Report, fmt: str = "text") -> str:
    """The report in one of FORMATS."""
    if fmt == "markdown":
        return format_markdown(report)
    if fmt == "json":
        return format_json(report)
    if fmt == "text":
        return format_text(report)
    raise UsageError(f"--format {fmt}: choose one of {', '.join(FORMATS)}")


def should_fail(changes: Iterable[Change], fail_on: str | None) -> bool:
    """Whether ``--fail-on`` matches: "breaking" (breaking, both, or not determined), "widening"
    (widening, both, or not determined), "any" (any change but an equivalent one: a rewrite shown
    to change nothing, such as a pattern spelled another way); None never fails.

    A change whose effect could not be determined matches both breaking and widening:
    nothing proves it is neither, so CI asks a person to look.
    """
    if fail_on is None:
        return False
    if fail_on not in FAIL_ON:
        raise UsageError(f"--fail-on {fail_on}: choose one of {', '.join(FAIL_ON)}")
    wanted = {
        "breaking": {"breaking", "both", "undetermined"},
        "widening": {"widening", "both", "undetermined"},
        "any": set(EFFECTS) - {"equivalent"},
    }[fail_on]
    return any(c.effect in wanted for c in changes)


def exit_code(report: Report, fail_on: str | None) -> int:
    """0: nothing failing; 1: ``--fail-on`` matched, or a contract on either side is broken."""
    return 1 if report.errors or should_fail(report.changes, fail_on) else 0


# -- command line --------------------------------------------------------------------


def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The arguments of ``toolshape diff`` (for a sub-parser of the main command line)."""
    parser.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="OLD NEW (contract files or folders); with --base: the contracts folder or file (default: contracts)",
    )
    parser.add_argument(
        "--base",
        metavar="REV",
        help="read the old side from git at REV (e.g. origin/main) instead of OLD",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="text (default), markdown (a pull-request comment) or json",
    )
    parser.add_argument(
        "--fail-on",
        choices=FAIL_ON,
        default=None,
        help="exit 1 when a change has this effect (breaking and widening include 'not determined'; "
        "any: every change but an equivalent one)",
    )
    parser.add_argument(
        "--templates",
        type=Path,
        default=None,
        help="a folder of templates overriding the built-in ones by file name",
    )
    return parser


def sides(
    args: argparse.Namespace, *, cwd: str | os.PathLike[str] | None = None
) -> tuple[dict[str, bytes], dict[str, bytes]]:
    """Read (old, new) as the parsed arguments say; raise UsageError for a bad combination."""
    here = Path(cwd) if cwd is not None else Path.cwd()
    if args.base is not None:
        if len(args.paths) > 1:
            raise UsageError("with --base, give at most one contracts folder or file")
        target = args.paths[0] if args.paths else "contracts"
        new = read_folder(here / target if not Path(target).is_absolute() else target)
        new = {_relative_display(k, here): v for k, v in new.items()}
        return read_git(args.base, target, cwd=here), new
    if len(args.paths) != 2:
        raise UsageError("give OLD and NEW (files or folders), or --base REV [CONTRACTS]")
    old, new = (read_folder(here / p if not Path(p).is_absolute() else p) for p in args.paths)
    return (
        {_relative_display(k, here): v for k, v in old.items()},
        {_relative_display(k, here): v for k, v in new.items()},
    )


def _relative_display(display: str, here: Path) -> str:
    try:
        return Path(display).relative_to(here).as_posix()
    except ValueError:
        return display


def run(
    args: argparse.Namespace,
    *,
    stdout: Any = None,
    stderr: Any = None,
    cwd: str | os.PathLike[str] | None = None,
) -> int:
    """Run ``toolshape diff`` for parsed arguments; return the exit status (0, 1 or 2)."""
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    try:
        if args.templates is not None and not Path(args.templates).is_dir():
            raise UsageError(f"--templates {args.templates}: no such folder")
        old, new = sides(args, cwd=cwd)
        report = diff(old, new, templates=args.templates)
    except UsageError as exc:
        print(f"toolshape: error: {exc}", file=stderr)
        return 2
    stdout.write(render_report(report, args.format))
    for warning in report.warnings:  # on stderr in every format: they change no claim
        print(warning, file=stderr)
    if args.format != "text":  # text already lists them; keep them visible in CI logs
        for error in report.errors:
            print(error, file=stderr)
    return exit_code(report, args.fail_on)


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m toolshape.review.diff ...``: the same as ``toolshape diff ...``."""
    parser = add_arguments(
        argparse.ArgumentParser(
            prog="toolshape diff", description="what a contract change does to callers"
        )
    )
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else 2
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
