"""Which runtime helpers a generated module imports: only those its checks call.

The shared runtime (``templates/_runtime.py.j2``) holds every helper once; each tool module
takes from it the names its code prints, and ``math`` and ``re`` from the standard library
where a check uses them. The names are found by walking the module's model once: each rule
below mirrors a line of ``templates/checks.py.j2`` or ``module.py.j2`` that prints the name,
so a new helper in a template gets its rule here.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Protocol

from .literals import Code
from .model_parts import (
    Applicator,
    ArrayChecks,
    Check,
    Constant,
    EvaluatedBy,
    Function,
    Guard,
    Node,
    ObjectChecks,
    PathPart,
    Unevaluated,
)

#: What every tool module takes from the runtime, whatever its contract (validate and parse).
RUNTIME_ALWAYS = frozenset(
    {
        "ACCEPT",
        "MAX_ERRORS",
        "PARSE_ERROR",
        "REJECT",
        "Error",
        "Result as _Result",
        "_ARRAY_ARGUMENTS",
        "_NOT_AN_OBJECT",
        "_TOO_DEEP",
        "_UNREADABLE",
        "_decode",
        "_drops_absent_nulls",
        "_json_type",
        "_without_absent_nulls",
    }
)
#: What a tool module with an ``output`` takes besides (validate_result and parse_result).
RESULT_ALWAYS = frozenset(
    {
        "OutputResult as _OutputResult",
        "_ARRAY_RESULT",
        "_NOT_AN_OBJECT_RESULT",
        "_TOO_DEEP_RESULT",
        "_UNREADABLE_RESULT",
        "_result_parse_error",
    }
)
#: The runtime helpers (and modules) a check's condition calls, by its test (checks.py.j2).
CHECK_NEEDS = {
    "not_multiple": ("_is_multiple",),
    "not_multiple_int": ("_is_multiple",),  # (an int by %, a float by _is_multiple)
    "json_not_in": ("_json_key", "_quoted_hint"),
    "not_in": ("_did_you_mean",),
    "has_duplicates": ("_has_duplicates",),
}
#: The helpers that add a hint to a message (a check may leave its hint out).
HINT_HELPERS = frozenset({"_quoted_hint", "_did_you_mean"})
#: The runtime helpers an applicator's code calls, by its kind (checks.py.j2).
APPLICATOR_NEEDS = {
    "any_of": ("_any_of", "_closest"),
    "one_of": ("_one_of", "_closest"),
    "tagged": ("_tagged",),
    "negated": ("_errors_of",),
    "conditional": ("_errors_of",),
}


class PrintedModule(Protocol):
    """What of a module's model decides its imports: the fields of
    :class:`~toolshape.codegen.model.ModuleModel` read here (named by a protocol because
    ``ModuleModel.runtime_needs`` calls this module: it cannot import model.py back)."""

    @property
    def root(self) -> Node: ...
    @property
    def functions(self) -> list[Function]: ...
    @property
    def constants(self) -> list[Constant]: ...
    @property
    def null_message(self) -> Code: ...
    @property
    def integral(self) -> bool: ...
    @property
    def has_secrets(self) -> bool: ...


def module_needs(built: PrintedModule) -> set[str]:
    """The runtime names (and ``math``, ``re``) the module's checks use, found by walking its model.

    Each rule mirrors a line of checks.py.j2 or module.py.j2 that prints the name."""
    needs = set(RUNTIME_ALWAYS)
    if built.null_message in ("_NULL_ARGUMENTS", "_NULL_RESULT"):
        needs.add(str(built.null_message))
    if built.integral:
        needs.add("_with_integers")
    if built.has_secrets:
        needs.add("_without_excerpt")
    if built.functions:
        needs.add("_Path")  # their parameter's type
    for constant in built.constants:
        if constant.kind == "regex":
            needs.add("re")
        elif constant.kind == "linear":
            needs.add("_Linear")
        elif constant.kind == "json_values":
            needs.add("_json_keys")
        elif constant.kind == "tag":
            needs.add("_Tag")
    # validate() prints the root's object branch only (module.py.j2 checks the type itself).
    for item in _printed([built.root.branches[0], *built.functions]):
        needs.update(item_needs(item))
    return needs


#: The applicators whose code hands the function it calls the list of integral floats
#: (checks.py.j2: a $ref's function, anyOf's, oneOf's and a tagged union's branches).
PASSES_INTEGRAL = frozenset({"ref", "any_of", "one_of", "tagged"})


def passes_integral(root: Node) -> bool:
    """Whether the code ``validate()`` prints for ``root`` (not the functions it calls) hands
    a function the list of integral floats: then it holds one even with no integer here."""
    return any(
        isinstance(item, Applicator) and item.kind in PASSES_INTEGRAL
        for item in _printed([root.branches[0]])
    )


def _printed(items: list[Any]) -> Iterator[Any]:
    """Every piece of the model under ``items`` that a template may print."""
    todo = list(items)
    while todo:
        item = todo.pop()
        if isinstance(item, (list, tuple)):
            todo.extend(item)
        elif hasattr(item, "__dataclass_fields__"):
            yield item
            todo.extend(getattr(item, name) for name in printed_fields(item))


def printed_fields(item: Any) -> list[str]:
    """The fields of a piece of the model that its template may print: all but an object's
    ``key_path``, which is printed only where an unknown key is refused (an object that
    allows other keys, alone in a function of its own, would import ``_key`` for nothing)."""
    fields = list(item.__dataclass_fields__)
    if isinstance(item, ObjectChecks) and not item.refuse_unknown:
        fields.remove("key_path")
    return fields


def item_needs(item: Any) -> tuple[str, ...]:
    """The names one piece of the model makes its template print."""
    if isinstance(item, Check):
        if item.test == "bad_format":
            return (str(item.limit),)
        needs = CHECK_NEEDS.get(item.test, ())
        if item.exact:
            needs = (*needs, "_exact")
        if item.written:
            needs = (*needs, "_as_written")
        if item.test == "json_not_in" and item.extra is not None:
            needs = (*needs, "_did_you_mean")  # an enum's string members, for the hint
        # A check whose message carries no hint (a hidden enum value) calls no hint helper.
        return (
            needs
            if getattr(item, "hint", True)
            else tuple(n for n in needs if n not in HINT_HELPERS)
        )
    if isinstance(item, Node):
        number = ("math",) if any(branch.kind == "number" for branch in item.branches) else ()
        # A type error names what it got (_got, _got_json), or only its JSON type where the value is secret.
        return (item.got, *number) if item.typed else number
    if isinstance(item, PathPart) and item.kind == "key":
        return ("_key",)
    if isinstance(item, ObjectChecks) and item.refuse_unknown:
        return ("_show_key", "_did_you_mean")
    if isinstance(item, Applicator):
        return APPLICATOR_NEEDS.get(item.kind, ())
    if isinstance(item, ArrayChecks) and item.contains is not None:
        return ("_count_matches",)
    if isinstance(item, Unevaluated) and item.refuse_message is not None:
        return ("_show_key", "_did_you_mean")
    if isinstance(item, Guard) and item.test == "passes":
        return ("_errors_of",)
    if isinstance(item, EvaluatedBy) and item.test == "matched":
        return ("_errors_of",)
    return ()
