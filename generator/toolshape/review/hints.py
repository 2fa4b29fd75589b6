"""What ``toolshape diff`` says of a change of a tool's ``title`` or MCP hints (``annotations``).

Neither changes which arguments pass, so each change is an ``annotation``, never breaking
or widening (no witness can show one). But a hint tells clients how careful to be with the
tool, so the change is judged by what a client now believes, MCP's defaults applied
(``tool_hints.resolved``): a tool that becomes destructive, is no longer read-only, no longer
idempotent or now reaches an open world is a change a reviewer must see, and its text says
so; the reverse directions, and a hint spelt out at its default, are said plainly.
"""

from __future__ import annotations

from ..contract import checker, tool_hints
from .report import Change
from .text import show_text

#: Each hint's two directions as a client reads them: (what value True now means, what value
#: False now means, whether the change to True is the riskier one).
_MEANINGS = {
    "readOnlyHint": ("the tool becomes read-only", "the tool is no longer read-only", False),
    "destructiveHint": (
        "the tool becomes destructive: clients that confirm destructive calls now ask",
        "the tool is no longer destructive",
        True,
    ),
    "idempotentHint": (
        "the tool becomes idempotent",
        "the tool is no longer idempotent: a retried call may repeat its effect",
        False,
    ),
    "openWorldHint": (
        "the tool now reaches an open world of external entities",
        "the tool no longer reaches an open world",
        True,
    ),
}
#: How a change that clients must be told about starts.
FLAG = "a reviewer must see this: "


def hint_changes(name: str, old: checker.Contract, new: checker.Contract) -> list[Change]:
    """The title's change and each hint whose declared or effective value changed."""
    found = []
    if old.title != new.title:
        text = f"tool title changed: {_title(old.title)} -> {_title(new.title)}"
        found.append(Change(name, None, text, "annotation"))
    before = tool_hints.resolved(old.annotations)
    after = tool_hints.resolved(new.annotations)
    for hint in tool_hints.HINTS:
        declared = (old.annotations.get(hint), new.annotations.get(hint))
        if declared[0] == declared[1] and before[hint] == after[hint]:
            continue
        text = (
            f"annotations {hint}: {_shown(declared[0], before[hint])} -> "
            f"{_shown(declared[1], after[hint])}"
        )
        if before[hint] == after[hint]:
            text += " (no change for clients)"
        else:
            text += _meaning(hint, after[hint])
        found.append(Change(name, None, text, "annotation"))
    return found


def _meaning(hint: str, now: bool) -> str:
    """What the new effective value tells clients, flagged when it is the riskier direction."""
    becomes_true, becomes_false, true_is_riskier = _MEANINGS[hint]
    return (
        ": " + (FLAG if now == true_is_riskier else "") + (becomes_true if now else becomes_false)
    )


def _shown(declared: bool | None, effective: bool) -> str:
    """A hint as declared, and as clients read it when that differs (MCP's default, or a
    read-only tool's destructiveHint and idempotentHint: ``tool_hints.resolved``)."""
    if declared is None:
        return f"absent (read as {_json(effective)})"
    if declared != effective:
        return f"{_json(declared)} (read as {_json(effective)}: the tool is read-only)"
    return _json(declared)


def _json(value: bool) -> str:
    return "true" if value else "false"


def _title(title: str | None) -> str:
    return "absent" if title is None else show_text(title)
