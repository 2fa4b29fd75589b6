"""What a contract change does to callers: ``toolshape diff`` (its command line is in cli.py).

Two sets of contracts (old and new), each a mapping ``display path -> raw bytes``
(from a folder with ``inputs.read_folder``, or from git with ``inputs.read_git``), are
loaded and checked (a broken file is reported as ``path:line:col: error: ...``),
matched by tool *name* (a renamed file that keeps its tool name is the same tool)
and compared:

* tools added and removed;
* for a changed tool, every changed place of its ``parameters``, by JSON Pointer:
  both schemas are walked in parallel, and each keyword, enum member, type,
  required key, property, subschema and list entry that differs is one change;
* then every changed place of its ``output`` the same way (the same walk and witness
  search, on ``validate_result``), and an ``output`` added or removed as one change.

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
(``search.Search.decide``, ``decisions.py``: the regex difference of two patterns when it
is complete, interval arithmetic for numeric and length bounds, set inclusion for
``type``, ``enum`` and ``required``, "an added assertion cannot widen" for ``format``,
``allOf`` entries and the like, "an added ``anyOf`` entry cannot narrow") together with
the node's *polarity* (``decisions.polarity_of``: a node under an odd number of ``not``
turns narrowing into widening; under ``oneOf``, ``if``, a ``$ref``
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

A result flows the other way (``report.RESULTS``): a wider ``output`` (a result refused
before is accepted now) is ``breaking``, for callers that read the result may get a value
they were never promised; a narrower one is ``narrowing`` (no reader breaks; the tool may no
longer return what it now refuses). Each result change names the place callers read
(``Change.reads``). A tool that loses its ``output`` is breaking (a result the old schema
refused is not checked now), one that gains it is narrowing.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..contract import checker, fields, reference
from ..schema import pointers
from ..witness import budget
from .hints import hint_changes
from .report import ARGUMENTS, NO_OUTPUT, RESULTS, UNKNOWN_TOOL, Change, Flow, Report, Witness
from .samples import focus
from .search import Search
from .sides import Built, View, context_for, load_side, ready
from .text import dump, keyword_text, show_text, size
from .walk import Pending, Place, walk_schemas


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
    context = context_for(templates)
    old_side = load_side(old, report)
    new_side = load_side(new, report)
    before, after = old_side.tools, new_side.tools
    for name in sorted(set(before) | set(after)):
        if (name not in after and new_side.unsure(before[name])) or (
            name not in before and old_side.unsure(after[name])
        ):
            continue  # its file on the other side is broken: the errors say so, nothing is claimed
        if name not in after:
            report.removed.append(name)
            if ready(before[name], context, report):
                report.changes.append(_tool_gone(before[name], name, removed=True))
        elif name not in before:
            report.added.append(name)
            if ready(after[name], context, report):
                report.changes.append(_tool_gone(after[name], name, removed=False))
        else:
            found = _compare_tool(before[name], after[name], context, report, steps)
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


def _tool_gone(built: Built, name: str, *, removed: bool) -> Change:
    """A tool only one side defines: every call to it changes verdict."""
    accepted = [c.data for c in built.derived if not c.errors]
    accepted += [e.args for e in built.checked.examples if e.has_args and e.status == "accept"]
    witnesses: tuple[Witness, ...] = ()
    for arguments in sorted(accepted, key=size):
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
    old: Built, new: Built, context: Any, report: Report, steps: int = budget.DEFAULT_STEPS
) -> list[Change]:
    """Every change between two versions of one tool: its description, its top-level ``x-*``
    keys, its title and MCP hints, each changed place of its parameters and then of its output
    (with its effect on callers; each schema has its own witness budget), its examples."""
    if old.raw == new.raw and old.files == new.files:  # the same inputs: nothing changed
        return []
    name = new.checked.name
    found = _description_change(name, old.checked, new.checked)
    found += _extension_changes(name, old.checked, new.checked)
    found += hint_changes(name, old.checked, new.checked)
    found += _judged(name, old, new, context, report, steps, ARGUMENTS)
    if old.checked.output is not None and new.checked.output is not None:
        found += _judged(name, old, new, context, report, steps, RESULTS)
    elif old.checked.output is not None or new.checked.output is not None:
        found += _output_gone(name, old, new, context, report)
    found += _examples_change(name, old.checked, new.checked)
    return found


def _description_change(name: str, old: checker.Contract, new: checker.Contract) -> list[Change]:
    if old.description == new.description:
        return []
    text = f"tool description changed: {show_text(old.description)} -> {show_text(new.description)}"
    return [Change(name, None, text, "annotation")]


def _extension_changes(name: str, old: checker.Contract, new: checker.Contract) -> list[Change]:
    """The contract's own ``x-*`` keys (beside ``parameters``): annotations."""
    old_data, new_data = _top_level(old), _top_level(new)
    found = []
    for key in [k for k in old_data if k.startswith("x-")] + [
        k for k in new_data if k.startswith("x-") and k not in old_data
    ]:
        if dump(old_data.get(key)) != dump(new_data.get(key)):
            text = keyword_text(
                key, old_data.get(key), new_data.get(key), key in old_data, key in new_data
            )
            found.append(Change(name, None, f"{key}: {text}", "annotation"))
    return found


def _top_level(checked: checker.Contract) -> dict[str, Any]:
    data = checked.document.data
    return data if isinstance(data, dict) else {}  # checked: always a mapping


def _judged(
    name: str,
    old: Built,
    new: Built,
    context: Any,
    report: Report,
    steps: int,
    flow: Flow,
) -> list[Change]:
    """Each changed place of the schema ``flow`` compares (``parameters`` or ``output``) with
    its effect: settled without a search, or by the witness search when both sides' validators
    can be generated."""
    before, after = (_schema_of(built, flow) for built in (old, new))
    pending: list[Pending] = []
    walk_schemas(before, after, (), pending, before, after)
    if not any(not p.annotation for p in pending):
        return [_unjudged(name, p, "", flow) for p in pending]
    if not (ready(old, context, report) and ready(new, context, report)):
        # A side cannot be generated (the errors say why): list the places, claim nothing.
        cannot = "a side's validator could not be generated"
        return [_unjudged(name, p, cannot, flow) for p in pending]
    search = _search(name, old, new, report, steps, flow, focus(before, after, pending))
    return [_judge(search, name, item, report, flow) for item in pending]


def _schema_of(built: Built, flow: Flow) -> Any:
    return built.checked.output if flow is RESULTS else built.parameters


def _search(
    name: str,
    old: Built,
    new: Built,
    report: Report,
    steps: int,
    flow: Flow,
    places: list[Place] | None,
) -> Search | None:
    try:
        return Search(old.view(flow), new.view(flow), report, steps, flow, places)
    except Exception as exc:  # noqa: BLE001 - a bug here must not hide the changes themselves
        report.notes.append(
            f"{name}: witness search failed ({type(exc).__name__}: {exc}); this is a toolshape bug"
        )
        return None


def _judge(search: Search | None, name: str, item: Pending, report: Report, flow: Flow) -> Change:
    if search is not None:
        try:
            return search.judge(name, item)
        except Exception as exc:  # noqa: BLE001 - claim nothing rather than crash
            where = _unjudged(name, item, "", flow).where  # the pointer as the report shows it
            report.notes.append(
                f"{name} {where}: witness search failed ({type(exc).__name__}: {exc})"
            )
    return _unjudged(name, item, "the witness search failed (see the notes)", flow)


def _unjudged(name: str, item: Pending, reason: str, flow: Flow) -> Change:
    """A change whose effect is not known (unless it is settled without a search): ``reason`` says why."""
    return Change(
        name,
        pointers.pointer(item.parts),
        item.text,
        item.settled or "undetermined",
        reason=None if item.settled else reason,
        flow=flow,
    )


def _output_gone(name: str, old: Built, new: Built, context: Any, report: Report) -> list[Change]:
    """A tool that gains an ``output`` (its results are checked now: narrowing, witnessed by a
    result the new schema refuses) or loses one (nothing is promised now: breaking, witnessed by
    a result the old schema refused)."""
    gained = new.checked.output is not None
    built = new if gained else old
    text = (
        "output added: results are checked now"
        if gained
        else "output removed: results are no longer checked"
    )
    if not ready(built, context, report):
        reason = "a side's validator could not be generated"
        return [Change(name, "", text, "undetermined", reason=reason, flow=RESULTS)]
    witness = _refused_result(built.view(RESULTS), gained)
    if witness is None:
        reason = "no refused example or derived case to witness it"
        return [Change(name, "", text, "undetermined", reason=reason, flow=RESULTS)]
    effect = "narrowing" if gained else "breaking"
    return [Change(name, "", text, effect, (witness,), flow=RESULTS)]


def _refused_result(view: View, gained: bool) -> Witness | None:
    """The smallest example or derived result the side with ``output`` refuses (the reference
    agreeing), as a witness against the side without it, whose results nothing checks."""
    # An object first: a result that is not one shows less than one missing a key.
    for value in sorted(view.samples, key=lambda v: (not isinstance(v, dict), size(v))):
        result = view.validate(value)
        errors = tuple(sorted((e.path, e.code) for e in result.errors))
        if result.status == "reject" and reference.evaluate(view.schema, value) == set(errors):
            if gained:
                return Witness(
                    copy.deepcopy(value), NO_OUTPUT, "reject", (), errors, errors, RESULTS
                )
            return Witness(copy.deepcopy(value), "reject", NO_OUTPUT, errors, (), errors, RESULTS)
    return None


def _examples_change(name: str, old: checker.Contract, new: checker.Contract) -> list[Change]:
    old_examples = _examples_key(old)
    new_examples = _examples_key(new)
    if old_examples == new_examples:
        return []
    gone = sum(1 for e in old_examples if e not in new_examples)
    came = sum(1 for e in new_examples if e not in old_examples)
    text = (
        f"contract examples changed ({came} new or edited, {gone} removed or edited; "
        "they are tests, not sent to the model)"
    )
    return [Change(name, None, text, "annotation")]


def _examples_key(checked: checker.Contract) -> list[str]:
    data = checked.document.data
    raw = data.get(fields.EXAMPLES) if isinstance(data, dict) else None
    return [dump(e) for e in raw] if isinstance(raw, list) else []
