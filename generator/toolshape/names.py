"""One namer for every name the generated code makes up.

Local variables and module constants are derived from property names when
that reads well (``city``, ``_UNIT_VALUES``) and never collide with Python
keywords, builtins, the module's own names, or each other. Contract keys
never become names unless they are plain ASCII identifiers.
"""

from __future__ import annotations

import builtins
import keyword
import re

from .literals import Code

#: Names the generated module itself defines or imports.
MODULE_NAMES = frozenset(
    {
        "annotations", "json", "math", "re", "sys", "Any", "Dict", "List", "Optional", "Tuple", "Union",
        "TOOL_NAME", "DESCRIPTION", "INPUT_SCHEMA", "MAX_ERRORS", "MAX_TEXT_BYTES", "MAX_DEPTH",
        "ACCEPT", "REJECT", "PARSE_ERROR", "Error", "Result", "validate", "parse", "value", "errors",
        "text", "module", "pytest", "message", "TypedDict",
        "Literal", "Union", "TYPE_CHECKING", "ModuleType", "path", "found", "failures", "matched",
        "matches", "key_matched",
    }
)
_MAX_HINT = 24


class Namer:
    """Hands out unique, safe identifiers."""

    def __init__(self) -> None:
        self._taken: set[str] = set(MODULE_NAMES) | set(dir(builtins)) | set(keyword.kwlist)

    def local(self, hint: str) -> Code:
        """A lower-case local variable name such as ``city`` or ``city_2``."""
        return self._claim(_clean(hint).lower() or "v")

    def constant(self, hint: str) -> Code:
        """A private module-level constant name such as ``_CITY_PATTERN``."""
        return self._claim("_" + (_clean(hint).upper() or "VALUE"))

    def function(self, hint: str) -> Code:
        """A private function name such as ``_check_comment``."""
        return self._claim("_check_" + (_clean(hint).lower() or "value"))

    def type_name(self, hint: str) -> Code:
        """A CamelCase class name such as ``Arguments`` or ``ArgumentsRecurrence``."""
        words = re.findall(r"[A-Za-z0-9]+", hint)
        name = "".join(w[:1].upper() + w[1:] for w in words)
        if not name or len(name) > 3 * _MAX_HINT or name[0].isdigit():
            name = "Value"
        return self._claim(name)

    def _claim(self, base: str) -> Code:
        name, n = base, 1
        while name in self._taken or keyword.issoftkeyword(name) or name.startswith("__"):
            n += 1
            name = f"{base}_{n}"
        self._taken.add(name)
        return Code(name)


def _clean(hint: str) -> str:
    """ASCII identifier characters of ``hint``, or "" when it has too few or too many."""
    words = re.findall(r"[A-Za-z0-9]+", hint)
    name = "_".join(words)
    if not name or len(name) > _MAX_HINT:
        return ""
    if name[0].isdigit():
        name = "n" + name
    return name
