"""What ``toolshape diff`` found (``Witness``, ``Change``, ``Report``) and how it is
printed: text, markdown (a pull-request comment) or JSON, and the exit status."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from ..contract.errors import UsageError
from .text import shown_arguments

#: The effects a change can have, most severe first (the order of the summary).
EFFECTS = ("breaking", "both", "widening", "undetermined", "equivalent", "annotation")
#: Values of ``--fail-on``.
FAIL_ON = ("breaking", "widening", "any")
#: Values of ``--format``.
FORMATS = ("text", "markdown", "json")

#: The status of arguments for a tool a side does not define (the dispatch gate's code).
UNKNOWN_TOOL = "unknown_tool"


#: Why an effect is not (fully) determined: ``Change.reason``.
REASON_BUDGET = "the witness budget ran out"
REASON_PATTERN = "a pattern search did not finish"
REASON_FORMAT = "formats are sampled"
REASON_COMBINATOR = "combinators are searched with sampled candidates, not decided"
REASON_SAMPLED = "no witness among the arguments tried, and no exhaustive search for this change"
REASON_PLACE = "under oneOf, if, a $ref target or unevaluated*, a narrower schema can also widen callers' arguments"
REASON_MASKED = "the changed schema differs, but no arguments tried show it (the rest of the schema may hide it)"


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
            line += f"; witness {shown_arguments(witness.arguments)} ({_why(witness)})"
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
                    f"{_code(shown_arguments(w.arguments))} {_cell(_why(w))}"
                    for w in change.witnesses
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
