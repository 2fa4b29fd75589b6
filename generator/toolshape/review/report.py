"""What ``toolshape diff`` found (``Witness``, ``Change``, ``Report``) and how it is
printed: text, markdown (a pull-request comment) or JSON, and the exit status."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from ..contract.errors import UsageError
from .text import shown_arguments

#: The effects a change can have, most severe first (the order of the summary); "narrowing"
#: is the result side's only (a result refused now that was accepted before).
EFFECTS = ("breaking", "both", "widening", "narrowing", "undetermined", "equivalent", "annotation")
#: Values of ``--fail-on``.
FAIL_ON = ("breaking", "widening", "any")
#: Values of ``--format``.
FORMATS = ("text", "markdown", "json")

#: The status of arguments for a tool a side does not define (the dispatch gate's code).
UNKNOWN_TOOL = "unknown_tool"
#: The status of a result of a tool whose contract has no ``output``: nothing checks it.
NO_OUTPUT = "no_output"

#: Which way a value moved between the two sides, as the validators see it: accepted before
#: and refused now, or refused before and accepted now. A flow names each for the report.
NARROWS, WIDENS = "narrows", "widens"


@dataclass(frozen=True)
class Flow:
    """One of a tool's two schemas, and what a change of it means for whom.

    Arguments flow from the caller to the tool: a narrower ``parameters`` breaks callers whose
    calls passed, a wider one hands the tool calls it did not get before. Results flow back:
    a wider ``output`` breaks callers that read the result (they may get a value they were
    never promised), a narrower one breaks no reader (the tool may no longer return what it
    now refuses). The search only knows :data:`NARROWS` and :data:`WIDENS`; the flow says
    which effect each is.
    """

    #: "arguments" or "result": what the compared values are (a result change's JSON "side").
    noun: str
    #: The contract key of the schema compared (where a result change's pointer points).
    schema_key: str
    #: The effect of a value accepted before and refused now, and of the reverse.
    narrower: str
    wider: str

    def effect(self, direction: str) -> str:
        """The effect on callers of a witness that ``direction`` (:data:`NARROWS` or :data:`WIDENS`)."""
        return self.narrower if direction == NARROWS else self.wider

    @property
    def order(self) -> tuple[str, str]:
        """The two directions, the one that breaks callers first (as witnesses are listed)."""
        return (NARROWS, WIDENS) if self.narrower == "breaking" else (WIDENS, NARROWS)


ARGUMENTS = Flow("arguments", "parameters", "breaking", "widening")
RESULTS = Flow("result", "output", "narrowing", "breaking")


#: Why an effect is not (fully) determined: ``Change.reason``.
REASON_BUDGET = "the witness budget ran out"
REASON_PATTERN = "a pattern search did not finish"
REASON_FORMAT = "formats are sampled"
REASON_COMBINATOR = "combinators are searched with sampled candidates, not decided"
REASON_SAMPLED = "no witness among the arguments tried, and no exhaustive search for this change"
REASON_PLACE = "under oneOf, if, a $ref target or unevaluated*, a narrower schema can also widen callers' arguments"
REASON_MASKED = "the changed schema differs, but no arguments tried show it (the rest of the schema may hide it)"
#: The reasons that name the values tried, as a result change says them.
_RESULT_REASONS = {
    REASON_SAMPLED: "no witness among the results tried, and no exhaustive search for this change",
    REASON_PLACE: "under oneOf, if, a $ref target or unevaluated*, a narrower schema can also widen the results",
    REASON_MASKED: "the changed schema differs, but no results tried show it (the rest of the schema may hide it)",
}


def reason_for(flow: Flow, reason: str | None) -> str | None:
    """``reason`` as a change of ``flow`` says it (a result change tried results)."""
    if flow is RESULTS and reason is not None:
        for said, worded in _RESULT_REASONS.items():
            reason = reason.replace(said, worded)
    return reason


@dataclass(frozen=True)
class Witness:
    """A value (arguments, or a result) accepted by one side and refused by the other, as both
    validators said."""

    arguments: Any  # the arguments, or the result for the result flow
    old_status: str  # "accept", "reject", "unknown_tool" or "no_output"
    new_status: str
    old_errors: tuple[tuple[str, str], ...] = ()  # (path, code) the old validator reported
    new_errors: tuple[tuple[str, str], ...] = ()
    #: The refusing side's errors this change is responsible for (the others come from other changes).
    cause: tuple[tuple[str, str], ...] = ()
    flow: Flow = ARGUMENTS

    @property
    def refused_now(self) -> bool:
        """Whether the value moved out: accepted before (or unchecked) and refused (or unknown) now."""
        return self.old_status == "accept" or self.new_status == "reject"

    @property
    def direction(self) -> str:
        """The effect this witness shows: for arguments "breaking" (accepted before, refused now)
        or "widening" (the reverse); for a result "narrowing" or "breaking"."""
        return self.flow.effect(NARROWS if self.refused_now else WIDENS)

    def as_dict(self) -> dict[str, Any]:
        return {
            "arguments" if self.flow is ARGUMENTS else "result": self.arguments,
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
    #: A JSON Pointer into ``parameters`` (into ``output`` for a result change); None for the tool itself.
    pointer: str | None
    change: str  # what changed, in words
    effect: str  # one of EFFECTS
    witnesses: tuple[Witness, ...] = ()  # the one that breaks callers first; two for "both"
    #: Why the effect is not fully determined: for "undetermined", why no direction is known; for
    #: "breaking" or "widening", why the other direction is not ruled out. None: fully determined.
    reason: str | None = None
    flow: Flow = ARGUMENTS
    #: For a result change: the place of the result that callers read and the change is about,
    #: as :func:`samples.read_place` words it ("" for the whole result).
    reads: str = ""

    @property
    def where(self) -> str:
        """The pointer, or what a tool-level change is about."""
        if self.flow is not ARGUMENTS:
            return f"{self.flow.schema_key} {self.pointer}".rstrip()
        if self.pointer is not None:
            return self.pointer or "(the parameters)"
        return "(tool)"

    def as_dict(self) -> dict[str, Any]:
        first = self.witnesses[0] if self.witnesses else None
        found = {
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
        if self.flow is not ARGUMENTS:  # the argument side's objects keep their keys
            found.update(side=self.flow.noun, meaning=meaning(self, lambda place: f"`{place}`"))
        return found


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


_BEFORE_NOW = {
    ("accept", "reject"): "accepted before, refused now",
    ("reject", "accept"): "refused before, accepted now",
    ("accept", UNKNOWN_TOOL): "accepted before, unknown tool now",
    (UNKNOWN_TOOL, "accept"): "unknown tool before, accepted now",
    (NO_OUTPUT, "reject"): "not checked before (no output), refused now",
    ("reject", NO_OUTPUT): "refused before, not checked now (no output)",
}


def _why(witness: Witness) -> str:
    """How a witness reads: which side accepts it, and the refusing side's errors."""
    said = _BEFORE_NOW.get(
        (witness.old_status, witness.new_status),
        f"{witness.old_status} before, {witness.new_status} now",
    )
    errors = witness.new_errors if witness.refused_now else witness.old_errors
    cause = [e for e in witness.cause if e in errors] or list(errors)
    if cause:
        shown = ", ".join(f"{code} at {path or '/'}" for path, code in cause[:3])
        said += f": {shown}" + (", ..." if len(cause) > 3 else "")
    others = [e for e in errors if e not in cause]
    if others:
        shown = ", ".join(f"{code} at {path or '/'}" for path, code in others[:2])
        said += f" (also {shown}" + (", ..." if len(others) > 2 else "") + ", from other changes)"
    return said


def _effect_words(change: Change, quote: Callable[[str], str] = lambda place: f"`{place}`") -> str:
    """The effect as the reports print it; "not determined" carries its reason, and a result's
    effect says who it breaks (``quote`` marks up the place callers read)."""
    if change.effect == "undetermined":
        return "changed, effect not determined" + (f" ({change.reason})" if change.reason else "")
    said = meaning(change, quote)
    return f"{change.effect} ({said})" if said else change.effect


def meaning(change: Change, quote: Callable[[str], str]) -> str | None:
    """Who a result change breaks, in words (None for an argument change, which its effect
    says, and for a result change that changes no verdict)."""
    if change.flow is not RESULTS:
        return None
    reader = (
        f"callers that read {quote(change.reads)}"
        if change.reads
        else "callers that read the result"
    )
    return {
        "breaking": f"breaks {reader}: they may get a result they were never promised",
        "narrowing": "breaks no caller that reads the result: the tool may no longer return it",
        "both": f"breaks {reader}, and the tool may no longer return some results",
    }.get(change.effect)


def summary(report: Report) -> str:
    """One line: the counts of changes by effect, and of tools."""
    counts = report.counts()
    parts = [f"{counts['breaking']} breaking", f"{counts['widening']} widening"]
    if any(change.flow is RESULTS for change in report.changes):
        parts.append(f"{counts['narrowing']} narrowing")  # only the result side narrows
    parts.append(f"{counts['both']} both")
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
            line += (
                f"; {_witness_word(witness)} {shown_arguments(witness.arguments)} ({_why(witness)})"
            )
        lines.append(line)
    lines.extend(report.errors)
    lines.extend(f"note: {n}" for n in report.notes)
    lines.append(summary(report) if report.changes or report.errors else "no changes")
    return "\n".join(lines) + "\n"


def _witness_word(witness: Witness) -> str:
    return "witness" if witness.flow is ARGUMENTS else f"witness {witness.flow.noun}"


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
            effect = _effect_words(change, _code)
            if change.effect in ("breaking", "widening", "both"):
                effect = f"**{effect}**"
            witness = "<br>".join(_witness_cell(w) for w in change.witnesses)
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
    if any(change.flow is RESULTS for change in report.changes):
        out.append("")
        out.append(
            "<sub>A result (`output`) flows the other way: breaking = a result refused before is "
            "accepted now (callers that read it may get a value they were never promised); "
            "narrowing = accepted before, refused now (no reader breaks; the tool may no longer "
            "return it).</sub>"
        )
    return "\n".join(out) + "\n"


def _witness_cell(witness: Witness) -> str:
    """A witness in a table cell: the value (a result says so), and what each side said."""
    value = _code(shown_arguments(witness.arguments))
    if witness.flow is not ARGUMENTS:
        value = f"{witness.flow.noun} {value}"
    return f"{value} {_cell(_why(witness))}"


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
    """Whether ``--fail-on`` matches: "breaking" (breaking, both, or not determined, on either
    side: arguments refused now, results accepted now), "widening" (the other way on each side,
    what the tool's own code must now follow: arguments widening, results narrowing; both, or not
    determined), "any" (any change but an equivalent one: a rewrite shown to change nothing, such
    as a pattern spelled another way); None never fails.

    A change whose effect could not be determined matches both breaking and widening:
    nothing proves it is neither, so CI asks a person to look.
    """
    if fail_on is None:
        return False
    if fail_on not in FAIL_ON:
        raise UsageError(f"--fail-on {fail_on}: choose one of {', '.join(FAIL_ON)}")
    wanted = {
        "breaking": {"breaking", "both", "undetermined"},
        "widening": {"widening", "narrowing", "both", "undetermined"},
        "any": set(EFFECTS) - {"equivalent"},
    }[fail_on]
    return any(c.effect in wanted for c in changes)


def exit_code(report: Report, fail_on: str | None) -> int:
    """0: nothing failing; 1: ``--fail-on`` matched, or a contract on either side is broken."""
    return 1 if report.errors or should_fail(report.changes, fail_on) else 0
