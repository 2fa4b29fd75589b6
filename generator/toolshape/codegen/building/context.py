"""What every kind of check shares while one contract is built: the explicit building context.

A :class:`BuildContext` lives for one ``build()``. It holds the namer (so that names never
collide), the module-level constants and functions made so far, the schemas whose messages
must not show the value (x-sensitive), and the services every kind uses: messages
(:meth:`~BuildContext.say`), source positions for comments (:meth:`~BuildContext.where`) and
constants named for where they are. The kinds (strings.py, objects.py, ...) are functions
that take the context; the one thing they cannot do themselves, build a subschema's node,
they ask of it (:meth:`~BuildContext.node`, which ``nodes.py``'s builder provides).
"""

from __future__ import annotations

import abc
import json
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

from ...contract.checker import Contract
from ...families.combinators.rules import INVERTING
from ...families.objects import typing as object_types
from ...regex import WHITESPACE as ECMA_WHITESPACE
from ...regex.linear import plan as pattern_plan
from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from ..literals import Code, comment, literal
from ..masks import secret_paths
from ..model_parts import Constant, ConstantKind, Function, Node, PathPart
from ..names import Namer

#: Stands for the label in a $ref target's messages (see BuildContext.say).
REF_LABEL = "\ufdd0label\ufdd0"
#: The places of a function whose checks of a key its caller makes (BuildContext.settled),
#: with the key, in order: () for an ordinary function.
Settled = tuple[tuple[SchemaPath, str], ...]


class BuildContext(abc.ABC):
    """The state of one contract's build, and what every kind of check asks of it."""

    def __init__(
        self,
        contract: Contract,
        namer: Namer | None = None,
        messages: dict[tuple[str, str], Code] | None = None,
    ) -> None:
        self.contract = contract
        #: One namer for the module: a result side's build (``contract.root_key == "output"``)
        #: takes the arguments' namer, so that no name of one collides with the other's.
        self.namer = namer or Namer()
        #: What the checked value is called in messages: "the arguments", or "the result".
        self.noun = "the result" if contract.root_key == "output" else "the arguments"
        self.constants: list[Constant] = []
        #: (what a message constant is called before the namer makes it unique, its text) ->
        #: the module constant that holds it (see message_constant). One table for the module,
        #: like the namer: a result side's build takes the arguments'.
        self.messages = {} if messages is None else messages
        self.functions: list[Function] = []
        self.refs: dict[str, Code] = {}  # $ref -> the function that checks its target
        #: (place, label, settled places) -> the function made for the subschema there: a
        #: branch that both its combinator and an unevaluated* check call is written once.
        self.made: dict[tuple[SchemaPath, str, Settled], Code] = {}
        #: place -> the function that checks a value nested too deep to be checked in place
        #: (``building/nodes.py``, MAX_VALUE_DEPTH).
        self.nested: dict[SchemaPath, Code] = {}
        #: The places, in the function being built, whose checks of one key its caller has
        #: made already: place -> key. A decisive union (``families/combinators/rules.Tag``)
        #: picks an alternative by its tag, so the alternative's own checks of the tag could
        #: never fail: they are left out of it (``families/objects/checks.py``), and a $ref
        #: target among the places is checked in place, not by its shared function
        #: (``families/references/checks.py``). Set for one function body (:meth:`settling`).
        self.settled: Mapping[SchemaPath, str] = {}
        #: $ref functions named but not built yet. A $ref's function is built where it is first
        #: met, inside the function that refers to it, up to MAX_NESTED_REFS deep; deeper ones
        #: wait here and finish() builds them one after another: a chain of thousands of $refs
        #: costs no deep Python recursion, and the usual contract's output keeps its order
        #: (functions.py).
        self.pending: list[tuple[Function, Any, SchemaPath]] = []
        self.ref_depth = 0
        self.whitespace: Code | None = None
        #: The parameters' JSON text: made once, read here and by the masks (measured: the
        #: two more dumps took 3% of model.build over the 40-contract set).
        self.parameters_text = text = json.dumps(contract.parameters, ensure_ascii=False)
        #: The schemas that apply to values an x-sensitive schema governs: their
        #: messages never name the value or the allowed values.
        self.secret = secret_paths(contract.parameters, text)
        #: The label a $ref target's checks use: say() makes it the function's ``label``
        #: parameter. (A contract that holds this text keeps the fixed "the value".)
        self.ref_label = REF_LABEL if REF_LABEL not in text else "the value"

    @abc.abstractmethod
    def node(
        self, schema: Any, var: Code, path: list[PathPart], schema_path: SchemaPath, label: str
    ) -> Node:
        """One schema applied to one value (``var``, at ``path``, called ``label`` in messages)."""

    def child(
        self, schema: Any, var: Code, path: list[PathPart], schema_path: SchemaPath, label: str
    ) -> Node:
        """The node of a child value (a property's, an item's): :meth:`node`, unless it nests
        too deep to be checked in place (then a call, ``codegen/building/nodes.py``)."""
        return self.node(schema, var, path, schema_path, label)

    def where(self, path: SchemaPath) -> str:
        return self.contract.source_of(path)

    @contextmanager
    def settling(self, places: Settled) -> Iterator[None]:
        """While one function body is built: the places whose checks of a key are made by its
        caller (:attr:`settled`); none in any other function built meanwhile."""
        outer, self.settled = self.settled, dict(places)
        try:
            yield
        finally:
            self.settled = outer

    def labels(self, label: str) -> bool:
        """Whether ``label`` is a $ref target's: its code then names the value by ``label``."""
        return self.ref_label != "the value" and self.ref_label in label

    def say(self, text: str) -> Code:
        """A message as code: a literal, joined with the ``label`` parameter where the text
        holds ``ref_label`` (in a $ref target's function, the value is called what its
        caller calls it: "address", not "the value")."""
        parts = text.split(self.ref_label) if self.ref_label != "the value" else [text]
        code = " + label + ".join(literal(part) for part in parts)
        return Code(code.removeprefix('"" + ').removesuffix(' + ""'))

    def message_constant(
        self, text: str, suffix: str, schema_path: SchemaPath, tail_suffix: str | None = None
    ) -> Code:
        """A message as code whose text after the value's label (all of it, outside a $ref
        target's function) is a module constant: the expression that builds the message around
        it then stays short, a shape formatters at 88 and 100 columns lay out alike, so nothing
        needs pinning between its pieces. In a $ref target's function the label is the
        ``label`` parameter, joined at run time before the constant.

        The constant is named for its place and for what it holds: ``suffix`` for a whole
        message (``_UNIT_ONE_OF``, ``_VALUE_KEY_NOT_ALLOWED``), ``tail_suffix`` (if given) for
        the text after a label (``_PROFILE_ALLOWED_KEYS``). A place under ``not`` leaves the
        word out: the text is what the subschema says, which ``not`` inverts. A module holds
        one constant per name and text: places whose names are alike share it (the same enum
        of arguments and result), places named apart get one each, so a name never tells of
        another place than the one that uses it."""
        *labelled, tail = text.split(self.ref_label) if self.labels(text) else [text]
        if not tail:
            return self.say(text)
        hint = path_hint(schema_path[:-1], skipped=INVERTING) or "value"
        stem = f"{hint} {tail_suffix if labelled and tail_suffix else suffix}"
        if (stem, tail) not in self.messages:
            name = self.namer.constant(stem)
            self.constants.append(
                Constant(name, "text", literal(tail), comment(self.where(schema_path)))
            )
            self.messages[stem, tail] = name
        head = text[: len(text) - len(tail)]
        return Code(
            f"{self.say(head)} + {self.messages[stem, tail]}" if head else self.messages[stem, tail]
        )

    # -- constants ------------------------------------------------------------

    def whitespace_constant(self) -> Code:
        if self.whitespace is None:
            self.whitespace = self.namer.constant("whitespace")
            note = Code("what \\s matches in JSON Schema (ECMA-262) patterns")
            # First among the constants, whichever property needs it first: a
            # reorder of properties must not move it in the generated diff.
            self.constants.insert(
                0, Constant(self.whitespace, "text", literal(ECMA_WHITESPACE), note)
            )
        return self.whitespace

    def constant(
        self, suffix: str, kind: ConstantKind, value: Code, schema_path: SchemaPath
    ) -> Code:
        """A module constant for the keyword at ``schema_path``, named for where it is
        (``_CITY_PATTERN``, ``_ATTENDEES_ITEM_KEYS``), not for the variable it checks."""
        name = self.namer.constant(f"{path_hint(schema_path[:-1]) or 'value'} {suffix}")
        self.constants.append(Constant(name, kind, value, comment(self.where(schema_path))))
        return name

    def pattern_constant(
        self, suffix: str, pattern: str, schema_path: SchemaPath, max_length: int | None
    ) -> Code:
        """The constant that matches ``pattern`` on strings of at most ``max_length`` characters
        (checked before it runs): compiled by ``re`` where toolshape proves ``re`` linear on
        them, else the runtime's linear-time matcher (regex.linear.plan)."""
        plan = pattern_plan(pattern, max_length)
        if plan.source is not None:
            return self.constant(suffix, "regex", literal(plan.source), schema_path)
        # One JSON text, not a Python list: a program is hundreds of numbers, which black would
        # lay out one per line; the runtime reads the text once, at import.
        program = json.dumps(list(plan.parts), separators=(",", ":"), ensure_ascii=False)
        return self.constant(suffix, "linear", literal(program), schema_path)

    def null_message(self) -> Code:
        """The message for null arguments (or a null result): with required keys, a constant
        naming them (the runtime's own says "send {} for no arguments")."""
        parameters = self.contract.parameters
        required = object_types.required_of(parameters) if isinstance(parameters, dict) else []
        if not required:
            return Code("_NULL_RESULT" if self.noun == "the result" else "_NULL_ARGUMENTS")
        shown = ", ".join(show(key) for key in required)
        name = self.namer.constant(
            "result null message" if self.noun == "the result" else "null message"
        )
        message = literal(
            f"{self.noun} must be a JSON object, not null; the required keys are {shown}"
        )
        # Placed at the arguments (not at `required`, which a renamed key rewrites).
        self.constants.append(Constant(name, "text", message, comment(self.where(()))))
        return name


def path_hint(schema_path: SchemaPath, skipped: frozenset[str] = frozenset()) -> str:
    """Words for names made from a place in the schema: ``attendees item email`` for
    /properties/attendees/items/properties/email; "" for the root. The keywords in
    ``skipped`` add no word (a property of that name still does)."""
    words: list[str] = []
    steps = iter(schema_path)
    for step in steps:
        if step in skipped:
            continue
        word, has_entries = _NAME_WORDS.get(str(step), (str(step), False))
        if has_entries:
            entry = next(steps, None)
            position = int(entry or 0) + 1 if "{position}" in word else 0
            word = word.format(
                keyword=step, entry="" if entry is None else entry, position=position
            )
        words.append(word)
    return " ".join(words)


#: How each keyword reads in a name made from a place in the schema (from the vocabulary).
_NAME_WORDS = vocabulary.name_words()


def show(value: Any) -> str:
    """A value as JSON, short: how messages name keys and allowed values."""
    text = _SHOWN.encode(value)
    return text if len(text) <= 60 else text[:57] + "..."


#: ``json.dumps(value, ensure_ascii=False, separators=(", ", ": "))``'s encoder, made once:
#: dumps makes one at every call given any option, most of the cost of showing a key
#: (about 2% of model.build). Never changed.
_SHOWN = json.JSONEncoder(ensure_ascii=False, separators=(", ", ": "))


def length_limit(value: object) -> int | None:
    """A ``maxLength`` as the bound a pattern may rely on (the length check runs first)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return int(value) if value >= 0 and float(value).is_integer() else None
