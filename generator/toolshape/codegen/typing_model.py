"""The Python types of the accepted arguments: the ``Arguments`` TypedDict and those it needs.

A call once accepted holds its arguments typed (``Result.value``): each object schema with
``properties`` becomes a TypedDict (children first but where an object holds itself, named
by the namer for where they are), every other schema a type expression (``list[str]``,
``Literal["a", "b"] | None``, ``Any``).
The templates print :class:`TypedDictDef` in class syntax where every key allows it.

A value a schema types is one of its *variants* (:meth:`TypedDicts.variants`): the schema
itself when it says its type (``type``, or an ``enum``/``const`` of literals), the target of
its reference, each branch of its ``anyOf``/``oneOf`` taken with what the schema says
beside them (:func:`merged`: a value taking the branch matches both), or its ``allOf``
entries taken together with the schema (:func:`folded`). A union of objects is
then a union of TypedDicts, each branch's own (named by its tag where the branch fixes one
with a ``const``, so ``kind: {const: round_trip}`` reads ``Literal["round_trip"]`` and
``mypy`` narrows on it), and ``null`` beside a type is ``| None``. Every type is sound: a
value the contract accepts has it. Where the contract does not fix a value's type (a schema
with no type, a branch that is anything), ``Any`` stays, and a comment above the TypedDict
names the keys that hold it.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass, field
from typing import Any

from ..contract.checker import Contract
from ..families.arrays import typing as arrays
from ..families.combinators import values as combinators
from ..families.objects import typing as objects
from ..families.references import targets
from ..families.values.typing import common_types, declared_types, literal_type, union, with_types
from ..schema.pointers import SchemaPath, resolve, typed
from .literals import Code, comment_text, literal
from .names import Namer
from .widths import width
from .wrapping import LINE_LENGTH

#: How many variants one value's type may list, and how deep the branches and references
#: that make them may go: past either, the value is ``Any`` (nested unions multiply).
MAX_VARIANTS = 32
MAX_DEPTH = 16
#: How many TypedDicts are written inside each other (an object holding an object, through
#: references too) before the next waits its turn in ``TypedDicts.pending``: a chain of
#: hundreds of definitions is typed whole, one after another, never by deep recursion.
MAX_NESTED_TYPES = 16
#: A string literal in a type expression (a ``Literal`` member), as literals.py writes it.
_STRINGS = re.compile(r""""(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'""")


@dataclass
class Field:
    """One key of a TypedDict."""

    key: str
    type: str  # a type expression, PEP 604 style ("str | None")

    @property
    def name(self) -> Code:
        """The key as a class-body name (only used when ``TypedDictDef.class_syntax``)."""
        return Code(self.key)

    @property
    def key_literal(self) -> Code:
        return literal(self.key)

    @property
    def type_code(self) -> Code:
        return Code(self.type)

    @property
    def type_literal(self) -> Code:
        """The type as a string: functional TypedDicts evaluate their values at runtime."""
        return literal(self.type)

    @property
    def leaves_open(self) -> bool:
        """Whether the type holds ``Any`` somewhere (not inside a ``Literal``'s string): the
        contract leaves that value open."""
        return re.search(r"\bAny\b", _STRINGS.sub("", self.type)) is not None


@dataclass
class TypedDictDef:
    """A TypedDict of the accepted arguments (or of one nested object)."""

    name: Code
    required: list[Field]
    optional: list[Field]
    comment: Code
    #: Whether the object holds no key but those declared (``additionalProperties: false``, no
    #: ``patternProperties``): printed ``@final``, so that ``"key" in value`` narrows a union.
    closed: bool = False

    @property
    def name_literal(self) -> Code:
        return literal(str(self.name))

    @property
    def class_syntax(self) -> bool:
        """Class syntax reads best, but needs every key to be a plain identifier."""
        return class_syntax_allows(self.required + self.optional)

    @property
    def parts(self) -> list[TypedDictPart]:
        """Without class syntax: the required keys' TypedDict and the optional keys', those
        that hold any, which the TypedDict itself extends."""
        halves = [("Required", self.required, True), ("Optional", self.optional, False)]
        return [
            TypedDictPart(Code(f"_{self.name}{half}"), fields, total)
            for half, fields, total in halves
            if fields
        ]

    @property
    def parts_note(self) -> Code:
        """Why the TypedDict is made of parts: what its keys are."""
        if all(part.names_only for part in self.parts):
            return Code("some are too long for a line")
        return Code("some are not Python names")

    @property
    def part_names(self) -> Code:
        return Code(", ".join(str(part.name) for part in self.parts))

    @property
    def open_note(self) -> Code | None:
        """The comment naming the keys typed ``Any`` (in part): None when there are none."""
        keys = [f.key for f in self.required + self.optional if f.leaves_open]
        if not keys:
            return None
        return Code(comment_text(f"Any where the contract leaves the type open: {', '.join(keys)}"))


@dataclass
class TypedDictPart:
    """The required or the optional keys of a TypedDict some of whose keys are not Python
    names: in class syntax where its own keys allow it (ruff's UP013 asks for it), else
    ``TypedDict("_NameRequired", {...})``."""

    name: Code
    fields: list[Field]
    total: bool

    @property
    def name_literal(self) -> Code:
        return literal(str(self.name))

    @property
    def class_syntax(self) -> bool:
        return class_syntax_allows(self.fields)

    @property
    def names_only(self) -> bool:
        """Whether every key is a Python name: only a name wider than a line keeps the class
        syntax away, which ruff's UP013 would ask for (the template says why not)."""
        return all(_is_name(f.key) for f in self.fields)

    @property
    def ruff_converts(self) -> bool:
        """Whether ruff's UP013 reads every key as a name a class body could hold (any
        identifier that is no keyword, non-ASCII ones too), and so asks for class syntax."""
        return all(f.key.isidentifier() and not keyword.iskeyword(f.key) for f in self.fields)


def class_syntax_allows(fields: list[Field]) -> bool:
    """Whether every key is a plain identifier, as a class body needs, short enough for its
    field's line (see :func:`_fits`)."""
    return all(_is_name(f.key) and _fits(f) for f in fields)


def _is_name(key: str) -> bool:
    """Whether ``key`` can be a field's name in a class body."""
    return (
        key.isidentifier()
        and key.isascii()
        and not keyword.iskeyword(key)
        and not key.startswith("_")
    )


#: The longest field name whose field is written in a class body whatever its type: black
#: splits a wider field's type where the line is too long, or wraps it in parentheses, which
#: ruff's formatter does not, and no line can cut a name.
SHORT_NAME = 40


def _fits(field: Field) -> bool:
    """Whether ``field`` may be written ``key: type`` in a class body: a short name, or a line
    within 88 columns."""
    return len(field.key) <= SHORT_NAME or width(f"    {field.key}: {field.type}") <= LINE_LENGTH


@dataclass
class RootUnion:
    """``Arguments`` (or ``Output``) where the root is a union of objects: a type alias of its
    branches' TypedDicts. ``Union[...]``, not ``|``: the module runs on Python 3.9, whose
    classes have no ``|``, and mypy reads the assignment as an alias."""

    name: Code
    members: list[str]
    comment: Code

    @property
    def value(self) -> Code:
        if len(self.members) == 1:
            return Code(self.members[0])
        return Code(f"Union[{', '.join(self.members)}]")


@dataclass(frozen=True)
class Place:
    """Where a variant's schema is written, for the TypedDicts' comments and names.

    A merged branch (:func:`merged`) sits at the branch's path; the properties it takes from
    the schema around the union are written there, listed in ``property_paths``."""

    path: SchemaPath
    merged: bool = False
    property_paths: tuple[tuple[str, SchemaPath], ...] = ()

    def property_path(self, key: str) -> SchemaPath:
        return dict(self.property_paths).get(key, objects.property_path(self.path, key))


@dataclass(frozen=True)
class Variant:
    """One shape a value may take, with a type of its own (an ``enum``/``const`` of literals,
    or a declared ``type``), the words of its name and where it is written."""

    schema: dict[str, Any]
    hint: str
    place: Place
    #: The references followed to reach it (their targets' paths).
    via: frozenset[SchemaPath] = frozenset()


@dataclass
class TypedDicts:
    """Python type expressions for schemas, and the TypedDicts they need (children first).

    ``side`` names the root (``Arguments``, ``Output``); a referenced object's TypedDict is
    named after its definition (``ArgumentsAccount``) and made once, so recursion ends."""

    namer: Namer
    contract: Contract
    side: str = "Arguments"
    defs: list[TypedDictDef] = field(default_factory=list)
    #: The TypedDict made for the object written at a place (merged or not).
    made: dict[tuple[SchemaPath, bool], str] = field(default_factory=dict)
    #: The references whose targets' types are being written, since the last TypedDict
    #: began: met again, the value nests in itself with no TypedDict to name it (a list of
    #: lists of ...), and its type is ``Any`` there.
    active: frozenset[SchemaPath] = frozenset()
    #: How many TypedDicts are being written inside each other now, and the ones named but
    #: left to write (past ``MAX_NESTED_TYPES``): ``finish()`` writes them.
    nesting: int = 0
    pending: list[tuple[dict[str, Any], str, Place, Code]] = field(default_factory=list)

    def root(self, schema: Any) -> RootUnion | None:
        """The root's type, named ``side``: its own TypedDict, in ``defs`` (None returned), or
        where the root is a union of objects, the alias of its branches' TypedDicts' union
        (each TypedDict in ``defs``, named by its tag or its definition)."""
        found = self.root_variants(schema)
        if found is None:
            self.typed_dict(schema, self.side, ())
            return None
        name = self.namer.type_name(self.side)  # claimed first: the branches' names extend it
        members = list(dict.fromkeys(self.of_variant(variant) for variant in found))
        where = comment_text(self.contract.source_of(()), limit=120)
        return RootUnion(name, members, Code(where))

    def root_variants(self, schema: Any) -> list[Variant] | None:
        """The branches of a root union (each merged with the root around it), when each is an
        object with declared keys: one TypedDict each. None when the root is no union (an
        object of its own), or a branch's type is open or not one TypedDict."""
        if not isinstance(schema, dict) or targets.path_of(schema) is not None:
            return None
        if next(combinators.unions(schema), None) is None:
            return None
        found = self.variants(schema, self.side, Place(()), 0, frozenset())
        if not found or len(found) > MAX_VARIANTS or Place(()) in (v.place for v in found):
            return None  # no union typed (the root's own type stands for an open branch)
        return found if all(keyed_object(variant.schema) for variant in found) else None

    def of(self, schema: Any, hint: str, schema_path: SchemaPath) -> str:
        found = self.variants(schema, hint, Place(schema_path), 0, frozenset())
        if not found or len(found) > MAX_VARIANTS:
            return "Any"  # open, or (no variant) a place no value reaches
        return union([self.of_variant(variant) for variant in found])

    def variants(
        self, schema: Any, hint: str, place: Place, depth: int, via: frozenset[SchemaPath]
    ) -> list[Variant] | None:
        """The shapes a value of ``schema`` takes one of; None when some value's type is open.

        The reference's target first, then each union's branches, then the schema's own type:
        each is a sound type of the value, the unions the most precise."""
        if not isinstance(schema, dict) or depth > MAX_DEPTH:
            return None
        ref = targets.path_of(schema)
        if ref is not None:
            root = self.contract.parameters
            target = typed(root, ref)
            if target in self.active | via:
                return None
            words = f"{self.side} {ref[-1]}" if ref else self.side
            found = self.variants(
                resolve(root, ref), words, Place(target), depth + 1, via | {target}
            )
            if found is not None:
                return found
        for keyword_name, branches in combinators.unions(schema):
            found = self.branch_variants(schema, keyword_name, branches, hint, place, depth, via)
            if found is not None:
                return found
        for keyword_name, entries in combinators.intersections(schema):
            both, at = folded(schema, keyword_name, entries, place)
            found = [] if both is None else self.variants(both, hint, at, depth + 1, via)
            if found is not None:
                return found
        if literal_type(schema) is None and declared_types(schema) is None:
            return None
        return [Variant(schema, hint, place, via)]

    def branch_variants(
        self,
        schema: dict[str, Any],
        keyword_name: str,
        branches: list[Any],
        hint: str,
        place: Place,
        depth: int,
        via: frozenset[SchemaPath],
    ) -> list[Variant] | None:
        """The variants of a union's branches, each merged with the schema around the union."""
        rest = {k: v for k, v in schema.items() if k != keyword_name}
        found: list[Variant] = []
        for index, branch in enumerate(branches):
            if branch is False:
                continue  # no value takes it
            if not isinstance(branch, dict):
                return None
            both = merged(rest, branch)
            if both is None:
                continue  # the branch's types and the schema's have none in common
            words = f"{hint} {objects.branch_words(branch, both) or f'option {index + 1}'}"
            at = merged_place(place, keyword_name, index, rest, branch)
            more = self.variants(both, words, at, depth + 1, via)
            if more is None:
                return None
            found += more
            if len(found) > MAX_VARIANTS:
                return None
        return found

    def of_variant(self, variant: Variant) -> str:
        known = literal_type(variant.schema)
        if known is not None:
            return known
        kinds = declared_types(variant.schema) or ()
        outer, self.active = self.active, self.active | variant.via
        try:
            return union([self.of_kind(kind, variant) for kind in kinds])
        finally:
            self.active = outer

    def of_kind(self, kind: str, variant: Variant) -> str:
        simple = {
            "null": "None",
            "boolean": "bool",
            "integer": "int",
            "number": "float",
            "string": "str",
        }
        if kind in simple:
            return simple[kind]
        schema, hint, path = variant.schema, variant.hint, variant.place.path
        if kind == "array":
            return f"list[{self.item_types(schema, hint, path)}]"
        if not objects.declares_keys(schema):
            return objects.map_type(self.of, schema, hint, path)
        return self.typed_dict(schema, hint, variant.place)

    def item_types(self, schema: dict[str, Any], hint: str, path: SchemaPath) -> str:
        """The type of an array's items: the union of each position's and the other items'."""
        types = arrays.item_types(self.of, schema, hint, path)
        return "Any" if not types or "Any" in types else union(types)

    def typed_dict(self, schema: dict[str, Any], hint: str, place: Place | SchemaPath) -> str:
        """The TypedDict of an object schema's properties: made once per place."""
        place = place if isinstance(place, Place) else Place(place)
        key = (place.path, place.merged)
        if key in self.made:
            return self.made[key]
        name = self.namer.type_name(hint)
        self.made[key] = str(name)  # before the fields: a field may refer to it again
        if self.nesting >= MAX_NESTED_TYPES:
            # Its name is enough where it is used (annotations are strings in the module).
            self.pending.append((schema, hint, place, name))
            return str(name)
        self.write(schema, hint, place, name)
        return str(name)

    def finish(self) -> None:
        """Write the TypedDicts left waiting, each with its own nesting, until none is left."""
        done = 0
        while done < len(self.pending):
            self.write(*self.pending[done])
            done += 1
        self.pending.clear()

    def write(self, schema: dict[str, Any], hint: str, place: Place, name: Code) -> None:
        """The TypedDict ``name`` of an object schema's properties, added to ``defs``."""
        required = set(objects.required_of(schema))
        # Its name ends any recursion through it: the references met above it are free again.
        outer, self.active = self.active, frozenset()
        self.nesting += 1
        try:
            fields = [
                Field(key, self.of(sub, f"{hint} {key}", place.property_path(key)))
                for key, sub in objects.properties_of(schema).items()
            ]
        finally:
            self.active = outer
            self.nesting -= 1
        where = comment_text(self.contract.source_of(place.path), limit=120)
        self.defs.append(
            TypedDictDef(
                name=name,
                required=[f for f in fields if f.key in required],
                optional=[f for f in fields if f.key not in required],
                comment=Code(where),
                closed=objects.closed(schema),
            )
        )


def keyed_object(schema: dict[str, Any]) -> bool:
    """Whether a variant's type is one TypedDict: an object (not a literal) with declared keys."""
    return (
        literal_type(schema) is None
        and declared_types(schema) == ("object",)
        and objects.declares_keys(schema)
    )


def merged(rest: dict[str, Any], branch: dict[str, Any]) -> dict[str, Any] | None:
    """A union's branch taken with what its schema says beside the union (``rest``): a value
    taking the branch matches both, so it has the types both admit, the properties of both
    (the branch's schema for a key both name: the value matches it) and the required keys of
    both. None when the two admit no type in common."""
    both = {**rest, **branch}
    outer, inner = declared_types(rest), declared_types(branch)
    if outer is not None and inner is not None:
        common = common_types(outer, inner)
        if not common:
            return None
        with_types(both, common)
    objects.merge_keys(both, rest, branch)
    return both


def folded(
    schema: dict[str, Any], keyword_name: str, entries: list[Any], place: Place
) -> tuple[dict[str, Any] | None, Place]:
    """An ``allOf`` taken as one schema: every entry :func:`merged` into the schema around it
    (None: no value matches them all), and where each of its properties is written."""
    both: dict[str, Any] | None = {k: v for k, v in schema.items() if k != keyword_name}
    paths = {key: place.property_path(key) for key in objects.properties_of(schema)}
    for index, entry in enumerate(entries):
        if entry is True or both is None:
            continue
        both = merged(both, entry) if isinstance(entry, dict) else None
        for key in objects.properties_of(entry) if isinstance(entry, dict) else ():
            paths[key] = objects.property_path(place.path + (keyword_name, index), key)
    return both, Place(place.path, merged=True, property_paths=tuple(paths.items()))


def merged_place(
    place: Place, keyword_name: str, index: int, rest: dict[str, Any], branch: dict[str, Any]
) -> Place:
    """Where a merged branch is written: the branch, and the properties it takes from ``rest``."""
    path = place.path + (keyword_name, index)
    own = objects.properties_of(branch)
    taken = tuple(
        (key, place.property_path(key)) for key in objects.properties_of(rest) if key not in own
    )
    return Place(path, merged=True, property_paths=taken)
