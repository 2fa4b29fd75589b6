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
from collections.abc import Iterator
from contextlib import contextmanager

from .literals import Code

#: Names the generated module itself defines or imports.
MODULE_NAMES = frozenset(
    {
        "annotations",
        "json",
        "math",
        "re",
        "sys",
        "Any",
        "Dict",
        "List",
        "Optional",
        "Tuple",
        "Union",
        "TOOL_NAME",
        "DESCRIPTION",
        "INPUT_SCHEMA",
        "MAX_ERRORS",
        "MAX_TEXT_BYTES",
        "MAX_DEPTH",
        "ACCEPT",
        "REJECT",
        "PARSE_ERROR",
        "Error",
        "Result",
        "validate",
        "parse",
        "value",
        "errors",
        "text",
        "module",
        "pytest",
        "message",
        "TypedDict",
        "Literal",
        "final",  # a closed object's TypedDict is @final (typing_model.py)
        "TYPE_CHECKING",
        "ModuleType",
        "path",
        "found",
        "failures",
        "matched",
        "matches",
        "key_matched",
        # The parameter by which a $ref function names its value in messages ("the ... key").
        "label",
        # What validate() adds for the handler: integral floats made ints, nulls for absent keys.
        "integral",
        "floats",
        "platform",
        "drop_nulls",
        "_ABSENT_NULLS",
        "PLATFORMS",
        "_drops_absent_nulls",
        "_without_absent_nulls",
        "_with_integers",
        "without",
        "again",
        "_as_written",
        "_exact",
        # What a tool module imports from the shared runtime (_runtime.py.j2).
        "_runtime",
        "_Result",
        "UnknownTool",
        "MAX_INT_DIGITS",
        "MAX_LOGGED_CHARS",
        "_UNREADABLE",
        "_TOO_DEEP",
        "_NOT_AN_OBJECT",
        "_NULL_ARGUMENTS",
        "_ARRAY_ARGUMENTS",
        "_REDACTED",
        # What a module with an ``output`` adds: the result's check (validate_result).
        "validate_result",
        "parse_result",
        "OUTPUT_SCHEMA",
        "OutputResult",
        "_OutputResult",
        "_UNREADABLE_RESULT",
        "_TOO_DEEP_RESULT",
        "_NOT_AN_OBJECT_RESULT",
        "_NULL_RESULT",
        "_ARRAY_RESULT",
        "_result_parse_error",
    }
)

#: Names the generated package's __init__.py defines (package.py.j2): a top-level
#: module or folder of the same name would be shadowed by them.
PACKAGE_NAMES = frozenset(
    {
        "annotations",
        "import_module",
        "Any",
        "ModuleType",
        "Error",
        "Result",
        "UnknownTool",
        "TOOLS",
        "_LOADED",
        "tool_module",
        "validate_call",
        "validate_result",
        "PLATFORMS",
        "TOOL_ANNOTATIONS",
        "_HINT_DEFAULTS",
        "tool_hints",
        "tool_definitions",
        "_runtime",
        "_tool_definitions",
    }
)

_MAX_HINT = 24
_MAX_CONSTANT_HINT = 40


class Namer:
    """Hands out unique, safe identifiers.

    Module-level names (constants, functions, classes) are unique in the module.
    Local variables are unique only among the blocks that enclose each other: a
    property's block may reuse a name that a sibling's block used, so adding or
    removing a property never renumbers the names in the other blocks.
    """

    def __init__(self) -> None:
        self._taken: set[str] = set(MODULE_NAMES) | set(dir(builtins)) | set(keyword.kwlist)
        self._scopes: list[set[str]] = [set()]  # the local names of each enclosing block

    def local(self, hint: str) -> Code:
        """A lower-case local variable name such as ``city`` or ``city_2``."""
        name = self._free(_clean(hint).lower() or "v")
        self._scopes[-1].add(name)
        return Code(name)

    @contextmanager
    def block(self) -> Iterator[None]:
        """Locals named inside are free again after it (for the next sibling block)."""
        self._scopes.append(set())
        try:
            yield
        finally:
            self._scopes.pop()

    @contextmanager
    def function_body(self) -> Iterator[None]:
        """A new function: none of the enclosing blocks' locals are in its scope."""
        outer, self._scopes = self._scopes, [set()]
        try:
            yield
        finally:
            self._scopes = outer

    def constant(self, hint: str) -> Code:
        """A private module-level constant name such as ``_CITY_PATTERN``."""
        return self._claim("_" + (_clean(hint, _MAX_CONSTANT_HINT).upper() or "VALUE"))

    def function(self, hint: str) -> Code:
        """A private function name such as ``_check_comment``."""
        return self._claim("_check_" + (_clean(hint, _MAX_CONSTANT_HINT).lower() or "value"))

    def type_name(self, hint: str) -> Code:
        """A CamelCase class name such as ``Arguments`` or ``ArgumentsRecurrence``."""
        words = re.findall(r"[A-Za-z0-9]+", hint)
        name = "".join(w[:1].upper() + w[1:] for w in words)
        if not name or len(name) > 3 * _MAX_HINT or name[0].isdigit():
            name = "Value"
        return self._claim(name)

    def _claim(self, base: str) -> Code:
        name = self._free(base)
        self._taken.add(name)
        return Code(name)

    def _free(self, base: str) -> str:
        """``base``, or ``base_2``, ``base_3``...: the first that no one holds."""
        name, n = base, 1
        while self._held(name) or keyword.issoftkeyword(name) or name.startswith("__"):
            n += 1
            name = f"{base}_{n}"
        return name

    def _held(self, name: str) -> bool:
        return name in self._taken or any(name in scope for scope in self._scopes)


def _clean(hint: str, limit: int = 0) -> str:
    """ASCII identifier characters of ``hint``, or "" when it has too few or too many.

    With a ``limit``, a long hint loses its leading words instead (``attendees item
    email pattern`` may become ``item_email_pattern``): the end says what it is.
    """
    words = re.findall(r"[A-Za-z0-9]+", hint)
    while limit and len(words) > 1 and len("_".join(words)) > limit:
        words.pop(0)
    name = "_".join(words)
    if not name or len(name) > (limit or _MAX_HINT):
        return ""
    if name[0].isdigit():
        name = "n" + name
    return name
