"""The intermediate model: a checked contract turned into what templates print.

Every decision about the generated code is made in Python, before any template runs:
which checks a value needs and in which order, the names of variables and constants, the
messages, the comments. Templates only loop over the model and lay out code. Contract text
reaches the model only as :class:`~toolshape.codegen.literals.Code` made by
:func:`~toolshape.codegen.literals.literal` or :func:`~toolshape.codegen.literals.comment`.

This module holds the whole (:class:`ModuleModel`, what ``templates/module.py.j2`` prints)
and :func:`build`, which makes it. The model is made of parts (``model_parts.py``: a value's
checks, the module's functions and constants) that the builder makes (``building/``, one
module per kind of check), the argument types (``typing_model.py``), the runtime names the
module imports (``runtime_imports.py``) and the tables the runtime reads for redaction and
OpenAI's absent nulls (``masks.py``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any

from .. import __version__
from ..contract.checker import Contract
from ..families.objects import typing as object_types
from ..families.references.checks import finish, settle_required
from ..families.values.checks import TYPE_CODE
from .building.nodes import ModelBuilder
from .literals import Code, comment, literal
from .masks import absent_nulls, redaction_masks
from .model_parts import Branch, Check, Constant, Function, Node
from .runtime_imports import RESULT_ALWAYS, module_needs, passes_integral
from .typing_model import RootUnion, TypedDictDef, TypedDicts


@dataclass
class ModuleModel:
    """Everything the module template prints.

    Nothing changes a model once ``build`` made it, so what the templates ask of it more
    than once (``integral``, the runtime names) is found by walking it once."""

    tool_name: Code
    description: Code
    schema: Code
    source: Code  # the contract path, for the header comment
    source_literal: Code
    version: Code
    digest: Code
    root: Node
    functions: list[Function]
    constants: list[Constant]
    sensitive: (
        Code  # the redaction masks literal: {"#": the arguments' mask, $ref: its target's mask}
    )
    module_name: Code
    typed_dicts: list[TypedDictDef]
    #: ``Arguments`` (or ``Output``) where the root is a union of objects: an alias of its
    #: branches' TypedDicts; None where it is a TypedDict of its own (in ``typed_dicts``).
    root_union: RootUnion | None
    #: The message for null arguments: the runtime's, or one naming the required keys.
    null_message: Code
    #: Whether the arguments declare keys (``properties``): the Result names them for feedback.
    declares_keys: bool
    #: The command that regenerates it, for the header comment (see ``REGENERATE``).
    command: Code
    #: The code of the error on a value that is not an object, as its family spells it.
    type_code: Code = TYPE_CODE
    #: The schema keyword that holds the declared keys (``INPUT_SCHEMA[...]``), its family's.
    keys_keyword: Code = object_types.KEYS_KEYWORD
    #: How many packages deep the module sits in the output folder (billing/x.py: 1).
    depth: int = 0
    #: The masks literal of the nulls ``validate(..., platform="openai")`` removes (see
    #: masks.py's ``_AbsentNulls``; ``{"#": {}}`` when the contract has no such key, so that
    #: the first one changes only this literal).
    absent_nulls: Code = field(default_factory=lambda: literal({"#": {}}))
    #: Whether an x-sensitive schema governs some value: then parse() keeps excerpts of
    #: the text out of its errors (``_without_excerpt``).
    has_secrets: bool = False
    #: The result's side, built by the same code from the contract's ``output`` (its root,
    #: ``Output`` types, constants and functions, printed after the arguments' as
    #: ``validate_result``); None for a contract without ``output``.
    result: ModuleModel | None = None

    @functools.cached_property
    def integral(self) -> bool:
        """Whether an integer, enum or const check sits anywhere: what it records (an integral
        float, a member as ``_member`` gives it) is what the handler gets on accept."""
        return _has_integral([self.root, *self.functions])

    @functools.cached_property
    def runtime_needs(self) -> frozenset[str]:
        """The runtime names (and ``math``, ``re``) the module's checks use (see runtime_imports.py),
        the result's side's too."""
        needs = module_needs(self)
        if self.result is not None:
            needs |= module_needs(self.result) | RESULT_ALWAYS
        return frozenset(needs)

    @property
    def all_typed_dicts(self) -> list[TypedDictDef]:
        """The arguments' types, then the result's (``Output`` and those it needs)."""
        return self.typed_dicts + (self.result.typed_dicts if self.result else [])

    @property
    def root_unions(self) -> list[RootUnion]:
        """The aliases of the arguments' and the result's root unions (printed after every
        TypedDict: they name them at import)."""
        sides = [self, *([self.result] if self.result else [])]
        return [side.root_union for side in sides if side.root_union is not None]

    @property
    def all_constants(self) -> list[Constant]:
        """The module's constants: the arguments' checks', then the result's."""
        return self.constants + (self.result.constants if self.result else [])

    @property
    def all_functions(self) -> list[Function]:
        """The module's check functions: the arguments', then the result's."""
        return self.functions + (self.result.functions if self.result else [])

    @property
    def keeps_integral(self) -> bool:
        """Whether ``validate()`` holds the list of integral floats: its checks or the functions it calls take it."""
        return self.integral or passes_integral(self.root)

    @property
    def typing_imports(self) -> Code:
        """The names the module takes from ``typing``: only those it uses."""
        text = " ".join(f.type for d in self.all_typed_dicts for f in d.required + d.optional)
        used = ["Any", "TypedDict"] + ["Literal"] * ("Literal[" in text)
        used += ["final"] * any(d.closed for d in self.all_typed_dicts)
        used += ["Union"] * any(len(alias.members) > 1 for alias in self.root_unions)
        return Code(", ".join(sorted(used)))

    @property
    def stdlib_imports(self) -> list[Code]:
        """The module's standard-library imports: ``math`` and ``re`` only where a check uses them."""
        needs = self.runtime_needs
        lines = [f"import {name}" for name in ("math", "re") if name in needs]
        return [Code(line) for line in lines + [f"from typing import {self.typing_imports}"]]

    @property
    def runtime_module(self) -> Code:
        """The shared runtime, relative to the module: ``._runtime``, ``.._runtime`` one package down."""
        return Code("." * (self.depth + 1) + "_runtime")

    @property
    def runtime_imports(self) -> list[Code]:
        """The names the module takes from the shared runtime: only those its checks call."""
        needs = self.runtime_needs - {"math", "re"}
        # isort's order: constants, then classes, then functions, each alphabetical.
        return [
            Code(name)
            for name in sorted(
                needs,
                key=lambda name: (0 if name.isupper() else 1 if name[0].isupper() else 2, name),
            )
        ]


#: The command a generated file's header says regenerates it, when the contracts folder is
#: ``contracts`` and the output folder ``generated`` beside it (the command line's defaults).
REGENERATE = "toolshape generate"


def build(
    contract: Contract, module_name: str, digest: str, depth: int = 0, command: str = REGENERATE
) -> ModuleModel:
    """Turn a checked contract into the module model (``depth``: packages between it and the
    runtime; ``command``: what regenerates it, for the header). With an ``output``, the
    result's side is a second model, built by the same code from ``contract.result_side()``."""
    builder = ModelBuilder(contract)
    made = _build_side(builder, "Arguments", module_name, digest, depth, command)
    side = contract.result_side()
    if side is not None:
        result_builder = ModelBuilder(side, builder.namer, builder.messages)
        # One constant for what \s matches, whichever side needs it first.
        result_builder.whitespace = builder.whitespace
        made.result = _build_side(result_builder, "Output", module_name, digest, depth, command)
    return made


def _build_side(
    builder: ModelBuilder, type_name: str, module_name: str, digest: str, depth: int, command: str
) -> ModuleModel:
    """The model of one side (the arguments, or the result) of ``builder``'s contract."""
    contract = builder.contract
    types = TypedDicts(builder.namer, contract, type_name)
    root_union = types.root(contract.parameters)
    types.finish()
    root = builder.node(contract.parameters, Code("value"), [], (), builder.noun)
    finish(builder)
    settle_required(root, builder.functions)
    null_message = builder.null_message()
    nulls = absent_nulls(contract)
    masks = redaction_masks(contract, builder.parameters_text)
    return ModuleModel(
        tool_name=literal(contract.name),
        description=literal(contract.description),
        schema=literal(contract.parameters),
        source=comment(contract.file, limit=200),
        source_literal=literal(contract.file),
        version=Code(__version__),
        digest=Code(digest),
        root=root,
        functions=builder.functions,
        constants=builder.constants,
        sensitive=literal(masks),
        module_name=Code(module_name),
        typed_dicts=types.defs,
        root_union=root_union,
        depth=depth,
        null_message=null_message,
        declares_keys=object_types.declares_keys(contract.parameters),
        command=comment(command, limit=400),
        absent_nulls=literal(nulls),
        has_secrets=bool(masks["#"]),
    )


def _has_integral(item: Any) -> bool:
    """Whether an integer check sits anywhere in this piece of the model."""
    todo: list[Any] = [item]
    while todo:
        item = todo.pop()
        if isinstance(item, (list, tuple)):
            todo.extend(item)
        elif isinstance(item, Branch) and item.integral:
            return True
        elif isinstance(item, Check) and item.written:
            return True  # a member JSON-equal to the value reaches the handler as a member
        elif hasattr(item, "__dataclass_fields__"):
            todo.extend(getattr(item, name) for name in item.__dataclass_fields__)
    return False
