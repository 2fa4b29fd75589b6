"""The rest of an MCP tool definition: a contract's ``title`` and ``annotations``.

MCP (specification 2025-06-18 and 2025-11-25, ``Tool`` and ``ToolAnnotations``) lets a tool
carry a display ``title`` and four behaviour hints, all booleans:

``readOnlyHint``
    the tool does not modify its environment (default false);
``destructiveHint``
    it may perform destructive updates (default true; meaningful only when not read-only);
``idempotentHint``
    calling it again with the same arguments has no additional effect (default false;
    meaningful only when not read-only);
``openWorldHint``
    it interacts with an open world of external entities (default true).

They never change which arguments pass: they tell a client (and a gate) how careful to be,
for instance to ask for confirmation before a destructive tool. This module checks them in a
contract (every problem at its YAML node) and resolves MCP's defaults, for the generated
package's ``TOOL_HINTS`` and for ``toolshape diff``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..families.annotations.rules import TITLE
from ..schema.pointers import SchemaPath
from ..schema.values import json_type
from .wording import suggest, with_article, yaml_text

#: The contract's top-level keys this module checks.
CONTRACT_KEYS = (TITLE, "annotations")
#: The hint names of MCP's ToolAnnotations, in the specification's order.
HINTS = ("readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint")
#: What MCP assumes when a tool does not say.
DEFAULTS = {
    "readOnlyHint": False,
    "destructiveHint": True,
    "idempotentHint": False,
    "openWorldHint": True,
}

#: Reports one problem: (path, message, at_key).
Report = Callable[[SchemaPath, str, bool], None]


def check_title(data: Mapping[str, Any], report: Report) -> str | None:
    """The contract's ``title`` (None when it has none); a non-text or blank one is reported."""
    if TITLE not in data:
        return None
    title = data[TITLE]
    if not isinstance(title, str) or not title.strip():
        report(
            (TITLE,), f"'{TITLE}' must be a non-empty string (the name a person is shown)", False
        )
        return None
    return title


def check_annotations(
    data: Mapping[str, Any], report: Report, warn: Callable[[SchemaPath, str], None]
) -> dict[str, bool]:
    """The contract's hints as declared (empty when it has none), every bad entry reported,
    and a hint a read-only tool overrides warned about (``_overridden``)."""
    if "annotations" not in data:
        return {}
    annotations = data["annotations"]
    if not isinstance(annotations, dict):
        report(
            ("annotations",),
            "'annotations' must be a mapping of MCP tool hints (readOnlyHint: true, ...), "
            f"not {with_article(json_type(annotations))}",
            False,
        )
        return {}
    hints: dict[str, bool] = {}
    for key, value in annotations.items():
        path: SchemaPath = ("annotations", key)
        if key not in HINTS:
            report(path, _unknown(key), True)
        elif type(value) is not bool:
            report(path, f"'{key}' must be true or false, not {yaml_text(value)}", False)
        else:
            hints[key] = value
    for hint, message in _overridden(hints):
        warn(("annotations", hint), message)
    return hints


def _overridden(hints: Mapping[str, bool]) -> list[tuple[str, str]]:
    """The hints a read-only tool declares against what it is: MCP reads destructiveHint and
    idempotentHint only when readOnlyHint is false, and ``resolved`` overrides them."""
    if not hints.get("readOnlyHint"):
        return []
    effective = resolved(hints)
    return [
        (
            hint,
            f"'{hint}: {str(hints[hint]).lower()}' has no effect on a read-only tool (readOnlyHint: "
            f"true): MCP reads it only when the tool is not read-only; clients read "
            f"{str(effective[hint]).lower()}",
        )
        for hint in ("destructiveHint", "idempotentHint")
        if hint in hints and hints[hint] != effective[hint]
    ]


def _unknown(key: str) -> str:
    if key == TITLE:
        return f"'{TITLE}' goes at the top level of the contract, beside 'name', not under 'annotations'"
    return f"unknown tool hint '{key}'{suggest(key, HINTS)} (MCP's hints: {', '.join(HINTS)})"


def resolved(declared: Mapping[str, bool]) -> dict[str, bool]:
    """All four hints as a client reads them: what the tool declares, else MCP's default.

    A read-only tool modifies nothing, so it is neither destructive nor anything but
    idempotent, whatever those two hints say (MCP: they are meaningful only when not read-only).
    """
    hints = {name: declared.get(name, DEFAULTS[name]) for name in HINTS}
    if hints["readOnlyHint"]:
        hints["destructiveHint"] = False
        hints["idempotentHint"] = True
    return hints
