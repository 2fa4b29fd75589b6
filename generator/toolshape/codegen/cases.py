"""Test cases derived from a contract, with expectations from the reference evaluator.

Starting from an accepted instance (the contract's first accepted example,
completed with synthesised values for the optional keys it leaves out), every
property at every depth is broken in each way the contract forbids: dropped
when required, nulled, given each wrong JSON type, pushed across each bound,
joined by an unknown key. The expected ``(path, code)`` set of every case comes
from :mod:`toolshape.contract.reference`, never from the generated module under test.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ..contract import reference
from ..contract.checker import Contract
from ..contract.errors import Problem
from ..contract.optional import converted_keys
from ..contract.reference import errors_of, evaluate
from ..families.arrays import cases as array_walk
from ..families.arrays import values as array_values
from ..families.combinators import cases as combinator_cases
from ..families.combinators.values import negation
from ..families.formats import cases as format_cases
from ..families.numbers import values as number_values
from ..families.objects import cases as object_walk
from ..families.objects.cases import object_cases
from ..families.references import targets
from ..families.strings import cases as string_cases
from ..families.strings.cases import MAX_EDGE_LENGTH
from ..families.unevaluated import cases as unevaluated_cases
from ..families.values import values as member_values
from ..families.values.rules import NO_VALUE
from ..schema import vocabulary
from ..schema.pointers import SchemaPath, child, escape, ref_path, resolve, typed
from ..schema.pointers import pointer as pointer_of
from ..schema.pointers import tokens as pointer_tokens
from ..schema.values import integral_as_int, is_integer, json_equal
from ..witness.budget import Budget
from ..witness.values import Engine

#: How deep synthesis follows $ref and unions before it gives up on a branch.
MAX_SYNTH_DEPTH = 6
#: How many values complete() fills in through each $ref target (recursion that fans out).
MAX_TARGET_COMPLETIONS = 6
#: How many unions deep the cases follow one branch at a time.
MAX_BRANCH_DEPTH = 2
#: How many items of an array get cases of their own (items differ in unions).
MAX_ITEMS_WALKED = 3
#: The most items (or keys) a derived case holds: a bound above it is not tested at its edge
#: (the case is left out, with a warning), so a test file stays small (strings: the strings
#: family's MAX_EDGE_LENGTH).
MAX_EDGE_ITEMS = 1_000
#: The most errors a generated module reports for one value: the runtime's ``MAX_ERRORS``
#: (templates/_runtime.py.j2; tests/test_case_derivation.py holds the two equal). A case the
#: reference evaluator finds more errors in is left out, with a warning: the module reports
#: the first of them in contract order, and a case's errors are a set.
MAX_ERRORS = 100

#: A sample of each JSON type, for the wrong-type cases.
TYPE_SAMPLES: dict[str, Any] = {
    "null": None,
    "boolean": True,
    "integer": 7,
    "number": 2.5,
    "string": "text",
    "array": [],
    "object": {},
}


@dataclass(frozen=True)
class Case:
    """One derived test: feed ``data`` to validate() (or text to parse()), expect ``errors``."""

    name: str
    #: The instance, or BUILT_FROM_CHANGE when ``change`` says how to build it (``data``).
    given: Any
    errors: frozenset[tuple[str, str]]
    #: How the case was made, when it is one change to a root: (that root, path, new value or
    #: MISSING). It lets the case be written as that change without comparing whole instances.
    change: tuple[Any, tuple[str | int, ...], Any] | None = field(
        default=None, compare=False, repr=False
    )

    @property
    def data(self) -> Any:
        """The instance. A case made as one change to a root keeps only that change and builds
        the instance when asked, sharing all the rest with the root: holding each instance
        would hold one copy of the changed object per case, and an object of n properties
        has about 7n cases (memory quadratic in the contract: 2.75 GB at 2,000 properties)."""
        if self.given is not BUILT_FROM_CHANGE:
            return self.given
        assert self.change is not None
        return with_change(*self.change)

    @property
    def status(self) -> str:
        return "reject" if self.errors else "accept"


@dataclass(frozen=True)
class ParseCase:
    """One parse-layer test: ``text`` must fail with ``code``."""

    name: str
    text: str | bytes
    code: str


#: The JSON scalars whose Python type tells their JSON type and whose value tells the text a
#: case writes (a float is not among them: -0.0 equals 0.0 but is written apart, and NaN
#: equals nothing, so a float is keyed by its JSON text, as any other value).
_PLAIN_SCALARS = (str, int, bool, type(None))

#: ``json.dumps(value, default=repr)`` (and with ``sort_keys``), the encoder made once: dumps
#: makes a new encoder at every call given any option, half the time of a small value's text
#: (measured: 3.3 -> 1.8 us for ``[]``). Never changed after it is made.
_JSON_TEXT = json.JSONEncoder(default=repr)
_CANONICAL_JSON_TEXT = json.JSONEncoder(sort_keys=True, default=repr)


def _change_key(root: int, path: SchemaPath, value: Any) -> Hashable:
    """What tells one change to the root (by its id) apart from another, for ``add``'s
    de-duplication: a scalar's type and value (``True`` and ``1`` are different changes), any
    other value's JSON text (its keys in order, as the case writes them)."""
    if value is MISSING:
        return (root, path, "left out")
    if type(value) in _PLAIN_SCALARS:
        return (root, path, type(value).__name__, value)
    if type(value) is float:  # its JSON text is its repr (NaN and the infinities: one each)
        return (root, path, "float", repr(value))
    # Only the value is serialised: every leaf has a float and a list sample, and dumping the
    # root and path too was a tenth of add()'s time.
    return (root, path, "json", _JSON_TEXT.encode(value))


class _Places:
    """Where a change to an instance of ``schema`` is local: one schema alone looks at the
    changed value, so the instance's errors are its base's, those under the change evaluated
    again (the derived cases' ``local_errors``, and the normalising cases'). Remembered by
    path: the contract's schema does not change while cases are derived."""

    def __init__(self, schema: Any) -> None:
        self.schema = schema
        #: local_parent's answers, by path.
        self.parents: dict[SchemaPath, tuple[Any, Any]] = {}
        #: local_place's answers, by path.
        self.places: dict[SchemaPath, tuple[Any, Any, str] | None] = {}

    def change_errors(
        self, path: SchemaPath, value: Any, base: frozenset[tuple[str, str]]
    ) -> frozenset[tuple[str, str]] | None:
        """``local_errors`` of a root whose errors are ``base``, its value at ``path`` (not the
        root) changed to ``value`` (MISSING: left out); None where the change is not local."""
        place = self.local_place(path)
        if place is None or (value is MISSING and isinstance(path[-1], int)):
            return None  # an item left out moves the items after it
        schema, above, pointer = place
        kept: set[tuple[str, str]] = set()
        if base:  # the base is accepted nearly always: nothing to keep, nothing to look up
            containers = itertools.accumulate(path[:-1], lambda p, s: child(p, str(s)), initial="")
            if not {p for p, _ in base}.isdisjoint(containers):
                return None  # a container itself is refused: its children are not looked at
            kept = {e for e in base if e[0] != pointer and not e[0].startswith(pointer + "/")}
        # An undeclared key whose schema is false: the evaluator's code for a key it refuses.
        refused = object_walk.refused_key_code(above, path[-1]) if schema is False else None
        if value is MISSING:
            missing = object_walk.missing_key_code(above, path[-1])
            if missing is not None:
                kept.add((pointer, missing))
        elif refused is not None:
            kept.add((pointer, refused))
        else:
            kept |= errors_of(schema, value, pointer, root=self.schema)
        return frozenset(kept)

    def local_place(self, path: SchemaPath) -> tuple[Any, Any, str] | None:
        """For a change at ``path`` (not the root): the one schema that looks at the value there
        (``local_schema``), its container's schema through its bare $refs, and the change's
        pointer; None where no one schema does. Remembered by path, as ``local_parent`` is: a
        place has about eight cases (each wrong type, each bound), and working these out for
        each was a tenth of the derivation (measured: 13.3 -> 11.8 ms per contract over the
        40-contract set)."""
        if path in self.places:
            return self.places[path]
        parent, above = self.local_parent(path[:-1])
        schema = None if parent is None else self.local_schema(parent, path[-1:])
        found = None if schema is None else (schema, above, pointer_of(path))
        self.places[path] = found
        return found

    def local_parent(self, path: SchemaPath) -> tuple[Any, Any]:
        """``local_schema(self.schema, path)`` and that schema through its bare $refs,
        remembered by path: the contract's schema does not change during a derivation, and
        every case that changes a value of one object asks for the same."""
        found = self.parents.get(path)
        if found is None:
            parent = self.local_schema(self.schema, path)
            found = self.parents[path] = (parent, self.through_refs(parent))
        return found

    def through_refs(self, schema: Any) -> Any:
        """The schema a bare ``$ref`` (one with only annotations beside it) stands for: it applies
        its target to the same value, so a change below it stays local. Real schemas put a $ref
        on nearly every property; without this every case would be evaluated whole, and a large
        contract's derivation would be quadratic (issue 16). Anything else is returned as it is."""
        for _ in range(MAX_REF_CHAIN):
            if (
                not isinstance(schema, dict)
                or targets.ref_of(schema) is None
                or not _ANNOTATIONS.issuperset(schema.keys() - {targets.REF})
            ):
                return schema
            schema = targets.target(self.schema, schema)
        return (
            schema  # a long chain (or a cycle) of bare $refs: the caller evaluates the case whole
        )

    def local_schema(self, schema: Any, path: SchemaPath) -> Any:
        """The one schema that looks at the value at ``path`` below a value ``schema`` checks,
        when every schema on the way looks at its container only through ``properties``,
        ``additionalProperties`` and ``items`` (bare $refs followed; patternProperties,
        prefixItems, contains, uniqueItems... are non-local); else None."""
        for step in path:
            schema = self.through_refs(schema)
            if not isinstance(schema, dict) or not _NON_LOCAL.isdisjoint(schema):
                return None
            if isinstance(step, int):
                if not isinstance(array_walk.items_of(schema), dict):
                    return None
                schema = array_walk.items_of(schema)
            elif step in object_walk.declared(schema):
                schema = object_walk.declared(schema)[step]
            else:
                schema = object_walk.other_keys(schema)
        return schema


class _Deriver(_Places):
    #: What the families' cases read of the deriver (families/objects/cases.py's Deriver).
    type_samples = TYPE_SAMPLES
    edge_items = MAX_EDGE_ITEMS

    def __init__(self, contract: Contract) -> None:
        super().__init__(contract.parameters)
        self.contract = contract
        self.cases: dict[str, Case] = {}
        self.known_good = _collect_known_good(contract)
        self.engine = Engine(self.schema, Budget())
        self.root: Any = None
        self.followed: set[tuple[SchemaPath, str]] = set()
        self.branch_depth = 0
        #: The instances already in a case: their canonical JSON, or the change (_change_key).
        self.seen: set[Hashable] = set()
        #: What was left out, by schema path: the names of the cases (for the warnings).
        self.left_out: dict[SchemaPath, list[str]] = {}
        self.too_big: dict[
            SchemaPath, list[str]
        ] = {}  # the same, for bounds too large to test at their edge
        #: The cases left out for holding more than MAX_ERRORS errors (for the warning).
        self.over_cap: list[str] = []
        #: The first case left out because the budget had run out (the rest are not walked).
        self.first_unpaid: str | None = None
        #: The last one-change instance made (instance, path, value or MISSING), for add().
        self.last: tuple[Any, SchemaPath, Any] | None = None
        #: Each root's errors (with the root, so that its id stays its own), by id.
        self.root_errors: dict[int, tuple[frozenset[tuple[str, str]], Any]] = {}
        self.root_key: Hashable | None = None  # the dedup key of the current root's case
        self.top: Any = None  # the accepted base (the first accepted case), once added
        #: Inside a branch: where its value is, and the schemas it must keep matching.
        self.guard: tuple[SchemaPath, list[Any]] | None = None
        #: Inside complete(): the root was accepted (and in its branch) when it began, so it still is.
        self.root_good = False
        #: Inside complete(): how often the keys of each $ref target were filled in.
        self.completions: Counter[SchemaPath] = Counter()

    # -- synthesis (through the witness engine) ----------------------------------------

    def accepts(self, schema: Any, value: Any) -> bool:
        return not errors_of(schema, value, "", root=self.schema)

    def impossible(self, schema: Any) -> bool:
        """Whether no value can pass ``schema`` as written (the witness engine's verdict)."""
        return self.engine.impossible(schema)

    def synth(self, schema: Any, schema_path: SchemaPath) -> tuple[bool, Any]:
        found = self.engine.accepted(schema, 1, extra=self.known_good.get(schema_path, []))
        return (True, _copy(found[0])) if found else (False, None)

    def distinct(self, schema: Any, schema_path: SchemaPath, count: int) -> list[Any]:
        return [
            _copy(v)
            for v in self.engine.accepted(schema, count, extra=self.known_good.get(schema_path, []))
        ]

    def satisfying(self, schemas: list[Any], count: int = 1) -> list[Any]:
        """Values every one of ``schemas`` accepts (a branch and its union, a string of one length)."""
        return [_copy(v) for v in self.engine.conjunction(schemas, count)]

    def still_good(self) -> bool:
        """Whether the root is accepted, and (inside a branch) its value still in that branch."""
        if not self.accepts(self.schema, self.root):
            return False
        if self.guard is None:
            return True
        path, schemas = self.guard
        return self.engine.confirms(schemas, _get(self.root, path))

    def too_large(self, schema_path: SchemaPath, what: str) -> None:
        """Record an edge case left out because it would be too big to write into a test."""
        names = self.too_big.setdefault(schema_path, [])
        if what not in names:
            names.append(what)

    def leave_out(self, schema_path: SchemaPath, what: str) -> None:
        """Record a case (or a group of cases) that could not be derived, for the warning."""
        names = self.left_out.setdefault(schema_path, [])
        if what not in names:
            names.append(what)

    def warnings(self) -> list[Problem]:
        """One warning per schema node whose cases were left out, at that node."""
        found = []
        for schema_path, names in self.too_big.items():
            message = (
                f"a bound too large to test at its edge; cases left out: {'; '.join(names)}; "
                f"derived cases hold at most {MAX_EDGE_LENGTH:,} characters and {MAX_EDGE_ITEMS:,} items or keys"
            )
            found.append(
                self.contract.document.problem(
                    (self.contract.root_key, *schema_path), message, severity="warning"
                )
            )
        if self.over_cap:
            message = (
                f"cases left out: {'; '.join(self.over_cap)}; each holds more than {MAX_ERRORS} "
                f"errors, and a generated module reports the first {MAX_ERRORS} only"
            )
            found.append(
                self.contract.document.problem(
                    (self.contract.root_key,), message, severity="warning"
                )
            )
        if self.first_unpaid is not None:
            message = (
                f"the witness budget ran out; derived cases left out from '{self.first_unpaid}' "
                f"on; the generated tests hold the {len(self.cases)} cases derived before"
            )
            found.append(
                self.contract.document.problem(
                    (self.contract.root_key,), message, severity="warning"
                )
            )
        for schema_path, names in self.left_out.items():
            node = resolve(self.schema, schema_path) if schema_path else self.schema
            spent = self.engine.budget
            why = (
                "the witness budget ran out"
                if spent.exhausted
                else "no value this schema accepts was found (a pattern search stopped at its bound)"
                if spent.searches_cut
                else "no value this schema accepts was found"
            )
            hint = (
                "add a property-level `examples: [...]` with an accepted value"
                if isinstance(node, dict) and schema_path
                else "add an accepted example"
            )
            if self.impossible(node):  # no example could help: the checker warned of it
                why, hint = NO_VALUE, "the cases that send a value here expect its refusal"
            message = f"{why}; cases left out: {'; '.join(names)}; {hint}"
            found.append(
                self.contract.document.problem(
                    (self.contract.root_key, *schema_path), message, severity="warning"
                )
            )
        return found

    # -- cases ----------------------------------------------------------------

    def add(self, name: str, data: Any) -> None:
        if name in self.cases:
            return
        if not self.engine.budget.afford():
            # Each outcome is a reference evaluation: past the budget, the case is named
            # in a warning instead (generation stays bounded whatever the schema's size).
            self.first_unpaid = self.first_unpaid or name
            return
        change = self.last if self.last is not None and self.last[0] is data else None
        if self.top is not None and (change is None or self.root is not self.top):
            # Not one change to the base: its keys in the base's order, where it shares them,
            # so that the generated row lists what differs rather than the whole instance.
            data = _ordered_like(self.top, _built(data))
            change = None
        if change is not None and self.root_key is not None:
            _, path, value = change
            key = (
                self.root_key
                if value is not MISSING and identical(_lookup(self.root, path), value)
                else ""
            )
            key = key or _change_key(id(self.root), path, value)
        else:
            data = _built(data)
            key = _CANONICAL_JSON_TEXT.encode(data)
        if key in self.seen:
            return
        self.seen.add(key)
        errors = self.local_errors(path, value) if change is not None else None
        if errors is None:
            data = _built(data)
            errors = frozenset(evaluate(self.schema, data))
        if len(errors) > MAX_ERRORS and data is not self.root:
            self.over_cap.append(name)
            return
        # No copy: a case shares what it did not change with the root, and nothing
        # changes a value in place once a case holds it (complete() works on copies). A
        # case that is one change keeps the change, not the instance (Case.data).
        self.cases[name] = Case(
            name,
            BUILT_FROM_CHANGE if change is not None and data is not self.root else data,
            errors,
            (self.root, path, value) if change is not None else None,
        )
        if data is self.root:
            self.root_key = key
        if self.top is None and not errors and data is self.root:
            self.top = data  # the base the generated tests write every case against

    def local_errors(self, path: SchemaPath, value: Any) -> frozenset[tuple[str, str]] | None:
        """The errors of the root with one value changed, from the root's errors: those under
        the changed place are evaluated again, the rest kept. Only where nothing above the
        place looks at the object as a whole (no applicator, no count of keys, no enum); else
        None, and the whole case is evaluated (linear per case instead of per contract)."""
        if not path or not isinstance(self.root, dict):
            return None
        base = self.root_errors.get(id(self.root))
        if base is None:
            base = self.root_errors[id(self.root)] = (
                frozenset(evaluate(self.schema, self.root)),
                self.root,
            )
        return self.change_errors(path, value, base[0])

    def base(self) -> tuple[Any, bool]:
        """An accepted instance with every property the contract declares, where it can; and
        whether it is accepted (False: a required value had no witness, it is left out)."""
        accepted = [
            e.args
            for e in self.contract.examples
            if e.has_args and e.status == "accept" and isinstance(e.args, dict)
        ]
        if accepted:
            # The richest example reaches the most keywords (nested unions, recursion).
            start = _copy(max(accepted, key=lambda args: len(json.dumps(args, default=repr))))
        else:
            ok, start = self.synth(self.schema, ())
            if not ok:
                start = self.partial(self.schema, ())
                self.root = start
                self.complete((), self.schema, ())
                return start, False
        self.root = start
        self.complete((), self.schema, ())
        return start, True

    def partial(self, schema: Any, schema_path: SchemaPath) -> Any:
        """When no accepted instance was found: the object with every property that has a
        witness, and a warning at each (deepest) property that has none."""
        if not object_walk.declares_keys(schema):
            self.leave_out(schema_path, "the accepted base arguments and every case changing them")
            return {}
        built: dict[str, Any] = {}
        blamed = False
        for key, sub in object_walk.declared(schema).items():
            ok, value = self.synth(sub, object_walk.property_path(schema_path, key))
            if ok:
                built[key] = value
            elif key in object_walk.required_of(schema):
                blamed = True
                inner = self.partial(sub, object_walk.property_path(schema_path, key))
                if object_walk.declares_keys(sub):
                    built[key] = inner
                else:
                    self.leave_out(
                        object_walk.property_path(schema_path, key),
                        f"an accepted value for '{key}', so the accepted base arguments "
                        "(the cases change arguments that leave it out)",
                    )
        if not blamed:
            self.leave_out(
                schema_path,
                "the accepted base arguments (the cases run on the closest arguments found)",
            )
        return built

    def complete(
        self, at: SchemaPath, schema: Any, schema_path: SchemaPath, good: bool | None = None
    ) -> bool:
        """Fill in optional keys (at every depth) that the root's value at ``at`` leaves out,
        keeping the root accepted; and whether it is (``good``: already known, as complete()
        said it before)."""
        with reference.changing():  # it adds keys and items in place, and takes some back
            # Every change below is kept only if the root stays good, so a root good now stays good
            # throughout: no need to check it whole again before each object's keys (that made
            # completing a large recursive schema quadratic, issue 16). A bad root is checked as before.
            self.root_good = self.still_good() if good is None else good
            self.completions = Counter()
            try:
                self._complete(_get(self.root, at), schema, schema_path, at)
                return self.root_good
            finally:
                self.root_good = False

    def _complete(
        self, value: Any, schema: Any, schema_path: SchemaPath, at: SchemaPath, refs: int = 0
    ) -> None:
        if not isinstance(schema, dict):
            return
        target = targets.path_of(schema)
        if target is not None:
            # A recursive schema: a few levels are enough to test every check, and a few values
            # completed through each target. Without the second bound a recursion that fans out
            # (Kubernetes' JSONSchemaProps refers to itself from a dozen keys) made the base grow
            # exponentially with the depth: 21,149 values and 141,081 cases for one 45 kB
            # schema (issue 16). With it the base grows linearly with the schema.
            if refs >= MAX_SYNTH_DEPTH or self.completions[target] >= MAX_TARGET_COMPLETIONS:
                return
            self.completions[target] += 1
            self._complete(value, resolve(self.schema, target), target, at, refs + 1)
        if isinstance(value, dict):
            self._complete_keys(value, schema, schema_path, at)
            for key, sub in object_walk.declared(schema).items():
                if key in value:
                    where = object_walk.property_path(schema_path, key)
                    self._complete(value[key], sub, where, at + (key,), refs)
        elif isinstance(value, list) and isinstance(array_walk.items_of(schema), dict):
            items, where = array_walk.items_of(schema), array_walk.items_path(schema_path)
            if not value:
                ok, item = self.synth(items, where)
                if ok:
                    value.append(item)
                    if not self.still_good_at(at):
                        value.pop()
            for item in value[:1]:
                self._complete(item, items, where, at + (0,), refs)

    def still_good_at(self, at: SchemaPath) -> bool:
        """still_good() after a change to the value at ``at`` alone (keys added, an item appended)
        inside complete(). When the root was good, the deepest value around the change that only
        one schema looks at (no keyword above it looks at its container as a whole: local_errors'
        rule) is checked against that schema (in a branch, with the branch's value too), not the
        whole root: completing checks once per object it fills in, so checking the root whole
        made it quadratic (issue 16)."""
        if not self.root_good:
            return self.still_good()
        # The deepest container of the change that only one schema looks at (a union or an
        # enum above the change looks at its own value whole: that value is checked then).
        for depth in range(len(at), 0, -1):
            local = self.local_schema(self.schema, at[:depth])
            if local is not None:
                break
        else:
            return self.still_good()
        if not self.accepts(local, _get(self.root, at[:depth])):
            return False
        if self.guard is None:
            return True
        where, schemas = self.guard  # (a union's schema looks at its value whole: no shortcut)
        return self.engine.confirms(schemas, _get(self.root, where))

    def _complete_keys(
        self,
        value: dict[str, Any],
        schema: dict[str, Any],
        schema_path: SchemaPath,
        at: SchemaPath,
    ) -> None:
        """Add every missing optional key at once, checking the whole instance once (linear in the
        number of keys); only when that fails, key by key (a maxProperties, a not, a oneOf)."""
        before = self.root_good or self.still_good()
        added: dict[str, Any] = {}
        for key, sub in object_walk.declared(schema).items():
            if key not in value:
                ok, synthesized = self.synth(sub, object_walk.property_path(schema_path, key))
                if ok:
                    value[key] = added[key] = synthesized
                else:
                    what = object_walk.requirement(schema, key)
                    self.leave_out(
                        object_walk.property_path(schema_path, key),
                        f"the cases of the {what} property '{key}'",
                    )
        if not added or not before or self.still_good_at(at):
            return
        for key in added:
            del value[key]
        for key, synthesized in added.items():
            value[key] = synthesized
            if not self.still_good_at(at):
                del value[key]

    def derive(self) -> list[Case]:
        with reference.remembering():
            self.root, accepted = self.base()
            self.add(
                "base: every declared key, all valid"
                if accepted
                else "base: every key a value was found for",
                self.root,
            )
            self.walk(self.schema, (), (), "arguments")
        return list(self.cases.values())

    def replaced(self, path: SchemaPath, value: Any) -> Any:
        # Every value a case sends has its integral numbers as ints, as do the base (from
        # _copy) and the values found for it: an integral float sent where the contract
        # says integer, or equal to an enum or const member, reaches the handler as an int
        # (a copy of the arguments), and a case asserts that an accepted value arrives as
        # sent. The verdicts are the same (1.0 is 1 in JSON); the integral floats' own cases
        # are the normalising ones (INTEGRAL).
        value = integral_as_int(value)
        return self._changed(path, value)

    def removed(self, path: SchemaPath) -> Any:
        return self._changed(path, MISSING)

    def _changed(self, path: SchemaPath, value: Any) -> _OneChange:
        """The root with one change, for add(): not built yet, as add() keeps most cases as
        their change (Case.change) and never needs the instance (measured: building each one
        here was 0.6 ms of the 12 ms a contract's derivation takes, over the 40-contract set)."""
        change = _OneChange(self.root, path, value)
        self.last = (change, path, value)
        return change

    def walk(self, schema: Any, path: SchemaPath, schema_path: SchemaPath, label: str) -> None:
        """Derive the cases for the value at ``path`` (present in the base) and below."""
        if not isinstance(schema, dict) or self.engine.budget.exhausted:
            return
        # Subschemas that apply to this same value: their keywords get cases too.
        ref = targets.ref_of(schema)
        if ref is not None and (path, ref) not in self.followed:
            self.followed.add((path, ref))
            target = ref_path(ref)
            self.walk(resolve(self.schema, target), path, target, label)
        for sub, where in combinator_cases.conjuncts(schema):
            self.walk(sub, path, schema_path + where, label)
        for branch in combinator_cases.branches(schema, label):
            self.walk_branch(
                schema, branch.schema, path, schema_path, branch.where, branch.label, branch.also
            )
        self.applicator_cases(schema, path, schema_path, label)
        value = _get(self.root, path)
        if isinstance(value, list):
            for i, sub in enumerate(array_walk.positions(schema)[: len(value)]):
                self.walk(
                    sub, path + (i,), array_walk.position_path(schema_path, i), f"{label}[{i}]"
                )
        if path:
            self.value_cases(schema, path, schema_path, label, value)
        if isinstance(value, dict):
            object_cases(self, schema, path, schema_path, label, value)
        elif isinstance(value, list):
            self.array_cases(schema, path, schema_path, label, value)
        if isinstance(value, (dict, list)):
            unevaluated_cases.unevaluated_cases(
                self, self.schema, schema, path, schema_path, label, value
            )

    def put(self, path: SchemaPath, value: Any) -> Any:
        """The root with the value at ``path`` replaced (the value itself at the root), built."""
        if not path:
            return integral_as_int(value)
        change = self.replaced(path, value)
        data = change.built()
        self.last = (data, path, change.value)  # add(data) still knows it for one change
        return data

    def walk_branch(
        self,
        schema: dict[str, Any],
        branch: Any,
        path: SchemaPath,
        outer: SchemaPath,
        where: SchemaPath,
        label: str,
        also: tuple[Any, ...] = (),
    ) -> None:
        """Cases inside one union branch (or one side of an if): start from a value that
        matches it (and ``also``), then break it."""
        if (
            not isinstance(branch, dict)
            or self.branch_depth >= MAX_BRANCH_DEPTH
            or self.engine.budget.exhausted  # (the warning names the first case left out)
        ):
            return
        wanted = [schema, branch, *also]
        current = _get(self.root, path)
        start = current if self.engine.confirms(wanted, current) else None
        if start is None:
            found = [
                c
                for c in self.satisfying(wanted, 3)
                if self.accepts(self.schema, self.put(path, c))
            ]
            if not found:
                if self.engine.budget.exhausted:
                    self.leave_out(outer + where, f"the cases of {label}")
                return
            start = found[0]
        saved, saved_guard = self.root, self.guard
        # Accepted, in the branch: a start found above was checked with the root; the current
        # value is in the branch, and in the accepted base the root is accepted.
        accepted = True if start is not current or saved is self.top else None
        # complete() adds keys in place: to a copy, never to the root's own value or
        # to a value taken from the contract (a const, an enum member, an example).
        self.root = self.put(path, _copy(start))
        self.branch_depth += 1
        self.guard = (path, wanted)
        try:
            # The keys of the whole schema first (so that a branch value at the root differs
            # from the base in what the branch needs, not in every optional key), then the branch's.
            good = self.complete(path, schema, outer, accepted)
            self.complete(path, branch, outer + where, good)
            self.root = self.put(path, _in_order_of(_lookup(saved, path), _get(self.root, path)))
            self.add(f"{label}: a value for this branch", self.root)
            self.walk(branch, path, outer + where, label)
        finally:
            self.root, self.guard = saved, saved_guard
            self.branch_depth -= 1

    def closest(
        self, current: dict[str, Any], value: dict[str, Any], schemas: list[Any]
    ) -> dict[str, Any]:
        """``value`` with as many of ``current``'s other keys as keep it matching ``schemas``: all
        at once when they can, else one by one (up to a few hundred keys)."""
        result = dict(value)
        for key in list(current)[:200]:
            if key in result and identical(result[key], current[key]):
                continue
            trial = {**result, key: current[key]}
            if self.engine.confirms(schemas, trial):
                result = trial
        return result

    def applicator_cases(
        self, schema: dict[str, Any], path: SchemaPath, schema_path: SchemaPath, label: str
    ) -> None:
        """Values that break one combinator and keep the rest of the schema (the family's
        ``broken``), each as close to the current value as it can be."""
        current = _get(self.root, path)
        for name, schemas in combinator_cases.broken(schema):
            for value in self.satisfying(schemas, 1):
                if isinstance(current, dict) and isinstance(value, dict):
                    # The current value with the found one's keys over it, when that still
                    # breaks the applicator: the case then differs from the base only there.
                    value = self.closest(current, value, schemas)
                self.add(f"{label}: {name}", self.put(path, _in_order_of(current, value)))

    def value_cases(
        self,
        schema: dict[str, Any],
        path: SchemaPath,
        schema_path: SchemaPath,
        label: str,
        value: Any,
    ) -> None:
        declared = member_values.declared(schema)
        if declared is not None:
            for kind, sample in TYPE_SAMPLES.items():
                allowed = kind in declared or (kind == "integer" and "number" in declared)
                if not allowed:
                    self.add(
                        f"{label}: {kind} instead of {' or '.join(declared)}",
                        self.replaced(path, sample),
                    )
        elif targets.REF in schema or any(k in schema for k in _SAME_VALUE_LISTS):
            # The type is decided by a subschema: every sample, the reference tells which pass.
            for kind, sample in TYPE_SAMPLES.items():
                self.add(f"{label}: a sample {kind}", self.replaced(path, sample))
        if value is None:
            # A nullable value: cross its bounds from a non-null value of its type.
            value = next(
                iter(self.satisfying([schema, negation(member_values.of_type("null"))])), None
            )
        for name, variant in self.bound_variants(schema, schema_path, value):
            self.add(f"{label}: {name}", self.replaced(path, variant))

    def bound_variants(
        self, schema: dict[str, Any], schema_path: SchemaPath, value: Any
    ) -> Iterator[tuple[str, Any]]:
        if isinstance(value, str):
            yield from string_cases.bound_variants(self, schema, schema_path, value)
            yield from format_cases.bound_variants(self.engine, schema)
            yield from member_values.string_member_variants(schema)
        yield from number_values.bound_variants(schema, value)
        yield from member_values.member_variants(schema, value)

    def array_cases(
        self,
        schema: dict[str, Any],
        path: SchemaPath,
        schema_path: SchemaPath,
        label: str,
        value: list[Any],
    ) -> None:
        item_schema = array_walk.items_of(schema, True)
        need = array_values.pool_size(schema)
        pool = self.distinct(item_schema, array_walk.items_path(schema_path), min(need, 60))
        if value:
            pool = [value[0]] + [p for p in pool if not json_equal(p, value[0])]
        for what, items in array_values.size_variants(schema, pool, MAX_EDGE_ITEMS):
            self.add(f"{label}: {what}", self.replaced(path, items))
        left_out = array_values.too_large(schema, MAX_EDGE_ITEMS)
        if left_out is not None:
            self.too_large(schema_path, left_out)
        if value and isinstance(item_schema, dict):
            for i in range(min(len(value), MAX_ITEMS_WALKED)):
                self.walk(
                    item_schema, path + (i,), array_walk.items_path(schema_path), f"{label}[{i}]"
                )


# -- cases written as changes to one base ---------------------------------------------
#
# A derived case differs from the base arguments in one or two places. The generated
# tests write each case as those changes, so that a case reads as what it varies and a
# property added to the contract adds its own rows without rewriting every other one.


class _Missing:
    """The value of a change that leaves a key out."""

    def __repr__(self) -> str:
        return "MISSING"


MISSING: Any = _Missing()
#: A Case's ``given`` when the case is built from its change (Case.data).
BUILT_FROM_CHANGE: Any = object()


def with_change(root: Any, path: SchemaPath, value: Any) -> Any:
    """``root`` with the value at ``path`` replaced by ``value`` (MISSING: the key left out),
    sharing with ``root`` everything off the path."""
    data, parent = copied_to(root, path)
    if value is MISSING:
        del parent[path[-1]]
    else:
        parent[path[-1]] = value
    return data


class _OneChange:
    """What ``_Deriver.replaced`` and ``removed`` hand to ``add``: a root and one change to
    it, the instance built only when asked (``built``)."""

    __slots__ = ("path", "root", "value")

    def __init__(self, root: Any, path: SchemaPath, value: Any) -> None:
        self.root, self.path, self.value = root, path, value

    def built(self) -> Any:
        return with_change(self.root, self.path, self.value)


def _built(data: Any) -> Any:
    """The instance ``data`` stands for (itself, unless it is a change not built yet)."""
    return data.built() if isinstance(data, _OneChange) else data


#: Keywords beside a ``$ref`` that change nothing about what is accepted (local_errors follows it).
_ANNOTATIONS = frozenset(vocabulary.annotation_names("meta-data", "comment"))
#: Lists of schemas that apply to the value itself (one of them may decide its type).
_SAME_VALUE_LISTS = vocabulary.holders("list", "same value")
#: How many bare $refs in a row local_errors follows before it evaluates the case whole.
MAX_REF_CHAIN = 32

#: Keywords that look at an object (or array) as a whole, or at it through other schemas:
#: below them, a changed value can change errors elsewhere, so a case is evaluated whole.
_NON_LOCAL = frozenset(
    (
        targets.REF,
        *member_values.NON_LOCAL,
        *object_walk.NON_LOCAL,
        *unevaluated_cases.NON_LOCAL,
        *array_values.NON_LOCAL,
        *combinator_cases.NON_LOCAL,
    )
)


def case_changes(base: Any, case: Case) -> tuple[list[tuple[str, Any]], bool]:
    """The changes that turn ``base`` into the case, and whether they are known exact (the case
    was made as one change to ``base`` itself: no need to compare the instances)."""
    if case.change is not None and case.change[0] is base:
        _, path, value = case.change
        pointer = ""
        for step in path:
            pointer = child(pointer, str(step))
        return [(pointer, value)], True
    return changes(base, case.data), False


def changes(base: Any, data: Any, pointer: str = "") -> list[tuple[str, Any]]:
    """What turns ``base`` into ``data``: (JSON Pointer, the value put there, or MISSING
    for a key left out). The pointer "" replaces the whole value."""
    if isinstance(base, dict) and isinstance(data, dict) and _same_order(base, data):
        found: list[tuple[str, Any]] = [
            (child(pointer, key), MISSING) for key in base if key not in data
        ]
        for key, item in data.items():
            if key not in base:
                found.append((child(pointer, key), item))
            elif not identical(base[key], item):
                found.extend(changes(base[key], item, child(pointer, key)))
        return found
    if isinstance(base, list) and isinstance(data, list) and len(base) == len(data):
        found = []
        for i, (old, new) in enumerate(zip(base, data, strict=False)):
            if not identical(old, new):
                found.extend(changes(old, new, child(pointer, str(i))))
        return found
    return [] if identical(base, data) else [(pointer, data)]


def _same_order(base: dict[str, Any], data: dict[str, Any]) -> bool:
    """Whether key-by-key changes rebuild ``data`` in its own key order: the keys it shares
    with ``base`` in base's order, then its new keys (apply() appends those)."""
    keys = list(data)
    shared = [k for k in keys if k in base]
    return shared == [k for k in base if k in data] and keys[: len(shared)] == shared


def apply(base: Any, found: list[tuple[str, Any]]) -> Any:
    """``base`` with ``found`` changes made: what the generated tests' ``arguments`` does
    (only a key is ever left out, never a list item). ``base`` is left as it is; the
    result shares with it what the changes do not reach."""
    data = base
    for pointer, new in found:
        if pointer == "":
            data = new
            continue
        tokens = pointer_tokens(pointer)
        data = target = _shallow(data)
        for token in tokens[:-1]:
            step: Any = int(token) if isinstance(target, list) else token
            target[step] = _shallow(target[step])
            target = target[step]
        last: Any = int(tokens[-1]) if isinstance(target, list) else tokens[-1]
        if new is MISSING:
            del target[last]
        else:
            target[last] = new
    return data


def identical(a: Any, b: Any, ordered: bool = False) -> bool:
    """The same JSON text up to key order (``ordered``: key order included): 1 and 1.0
    differ, and so do true and 1. Shared values are not walked: the same object is
    the same text."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        if ordered:
            return list(a) == list(b) and all(identical(a[k], b[k], True) for k in a)
        return a.keys() == b.keys() and all(identical(a[k], b[k]) for k in a)
    if ordered and isinstance(a, list):
        return len(a) == len(b) and all(identical(x, y, True) for x, y in zip(a, b, strict=False))
    if isinstance(a, list):
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, float):
        return repr(a) == repr(b)
    return bool(a == b)


def _copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), as a case sends it: its integral
    numbers as ints (see ``_Deriver.replaced``). copy.deepcopy is several times slower."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return integral_as_int(value) if type(value) is float else value


def copied_to(root: Any, path: SchemaPath) -> tuple[Any, Any]:
    """A copy of ``root`` in which the containers down to ``path``'s parent are new (that
    parent is returned too, to be changed); everything else is shared with ``root``, which
    nothing changes once a case holds it."""
    data = _shallow(root)
    parent = data
    for step in path[:-1]:
        parent[step] = _shallow(parent[step])
        parent = parent[step]
    return data, parent


def _shallow(container: Any) -> Any:
    return dict(container) if isinstance(container, dict) else list(container)


def _collect_known_good(contract: Contract) -> dict[SchemaPath, list[Any]]:
    """Values seen in accepted examples, by schema path: candidates for synthesis."""
    found: dict[SchemaPath, list[Any]] = {}

    def visit(schema: Any, value: Any, schema_path: SchemaPath) -> None:
        found.setdefault(schema_path, []).append(value)
        if not isinstance(schema, dict):
            return
        if isinstance(value, dict):
            properties, extra = object_walk.declared(schema), object_walk.other_keys(schema, None)
            for key, item in value.items():
                if key in properties:
                    visit(properties[key], item, object_walk.property_path(schema_path, key))
                elif isinstance(extra, dict):
                    visit(extra, item, object_walk.other_keys_path(schema_path))
        elif isinstance(value, list) and array_walk.items_of(schema) is not None:
            for item in value:
                visit(array_walk.items_of(schema), item, array_walk.items_path(schema_path))

    for example in contract.examples:
        if example.status == "accept":
            data = example.args if example.has_args else _loads(example.json or "")
            if isinstance(data, dict):
                visit(contract.parameters, data, ())
    return found


def _loads(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def _ordered_like(model: Any, value: Any) -> Any:
    """``value`` with the keys of every object it shares with ``model`` (at the same place) in
    model's order; values identical to model's are model's own objects."""
    if value is model:
        return value
    if isinstance(model, dict) and isinstance(value, dict):
        ordered = _in_order_of(model, value)
        return {k: _ordered_like(model[k], v) if k in model else v for k, v in ordered.items()}
    if isinstance(model, list) and isinstance(value, list) and len(model) == len(value):
        return [_ordered_like(m, v) for m, v in zip(model, value, strict=False)]
    return value


def _in_order_of(model: Any, value: Any) -> Any:
    """``value`` with the keys it shares with ``model`` in model's order, then its others: a
    branch value then reads as its changes to the base (the key order is no part of JSON's meaning)."""
    if not isinstance(model, dict) or not isinstance(value, dict):
        return value
    return {
        **{k: value[k] for k in model if k in value},
        **{k: v for k, v in value.items() if k not in model},
    }


def _lookup(data: Any, path: SchemaPath) -> Any:
    """The value at ``path``, or MISSING where there is none."""
    try:
        return _get(data, path)
    except (KeyError, IndexError, TypeError):
        return MISSING


def _get(data: Any, path: SchemaPath) -> Any:
    for step in path:
        data = data[step]
    return data


def parse_cases(valid_text: str) -> list[ParseCase]:
    """The parse battery: each way raw argument text fails before validation."""
    return [
        ParseCase("broken syntax", "{not json}", "syntax"),
        ParseCase("cut off at the end", valid_text[:-1], "truncated"),
        ParseCase("cut off inside a string", '{"a": "unfinish', "truncated"),
        ParseCase("empty text", "", "empty"),
        ParseCase("only whitespace", " \n\t ", "empty"),
        ParseCase("NaN", '{"x": NaN}', "non_finite"),
        ParseCase("Infinity", '{"x": -Infinity}', "non_finite"),
        ParseCase("a number too large for a float", '{"x": 1e999999}', "too_large"),
        ParseCase("duplicate key", '{"k": 1, "k": 2}', "duplicate_key"),
        ParseCase("duplicate key, nested", '{"a": {"k": 1, "k": 1}}', "duplicate_key"),
        ParseCase("nested too deep", "[" * 65 + "]" * 65, "too_deep"),
        ParseCase("invalid UTF-8", b'{"a": "\xff"}', "encoding"),
        ParseCase("byte order mark", b"\xef\xbb\xbf" + valid_text.encode(), "encoding"),
    ]


@dataclass(frozen=True)
class Derivation:
    """The derived validate() cases of a contract, and the warnings met deriving them
    (a value that could not be built, so that the cases needing it were left out)."""

    cases: list[Case]
    warnings: list[Problem]


def derive(contract: Contract) -> Derivation:
    """Every derived validate() case for a contract, and a warning at each schema node whose
    cases could not be derived (no witness within the engine's budget, or a bound too big)."""
    deriver = _Deriver(contract)
    found = deriver.derive()
    return Derivation(found, deriver.warnings())


# -- what the handler receives: nulls for absent keys, integral floats -----------

#: How many keys (or integers) get a normalising case of their own; one more case
#: changes two of them at once.
MAX_NORMALISE_CASES = 12


@dataclass(frozen=True)
class NormaliseCases:
    """Cases where the handler receives other than what was sent, each as JSON Pointers into the base.

    ``absent_nulls``: (name, pointers, errors): the keys at ``pointers`` are optional and
    their schema refuses null (:func:`~toolshape.contract.optional.converted_keys`); sent
    as null with ``platform="openai"`` they are removed and the arguments are accepted;
    without a platform, ``errors`` (from the reference evaluator) are reported.
    ``integral``: (name, {pointer: int}): those ints, sent as floats (10.0) in the base
    where the contract says integer, are accepted and come back as ints. A row names only
    its own places, so a property added to the contract leaves the other rows alone.
    """

    absent_nulls: list[tuple[str, tuple[str, ...], frozenset[tuple[str, str]]]]
    integral: list[tuple[str, dict[str, int]]]


def normalise_cases(contract: Contract, base: Any) -> NormaliseCases:
    """The normalising cases of a contract, starting from its accepted ``base`` arguments.

    Each case is the base with one or two places changed (``apply`` shares the rest with it)
    and nothing here changes a value in place, so the reference evaluator remembers what it
    found for the shared parts (``reference.remembering``): each case is evaluated along its
    changed paths only, not whole again (some 50 whole evaluations per contract; issue 26)."""
    with reference.remembering():
        return _normalise_cases(contract.parameters, base)


def _normalise_cases(root: Any, base: Any) -> NormaliseCases:
    if evaluate(root, base):
        return NormaliseCases([], [])
    places = _Places(root)

    def errors_with(changes: list[tuple[str, Any]]) -> frozenset[tuple[str, str]]:
        """The errors of the base with ``changes`` made. The base is accepted, so one change at
        a local place has the errors of that place alone (``_Places.change_errors``), as a
        derived case does; any other is evaluated whole (measured: normalise_cases 1.75 -> 1.14
        ms per contract over the 40-contract set, A/B, CPU time)."""
        if len(changes) == 1 and changes[0][0]:
            pointer, value = changes[0]
            found = places.change_errors(_path_of(base, pointer), value, frozenset())
            if found is not None:
                return found
        return frozenset(evaluate(root, apply(base, changes)))

    nullable: list[str] = []
    integers: dict[str, int] = {}  # where the contract says integer: the int sent as a float
    for schema, value, pointer, earlier in _applying(root, root, base, ""):
        if isinstance(value, dict):
            properties, required = object_walk.declared(schema), object_walk.required_of(schema)
            for key, allows_null in converted_keys(root, properties, required):
                place = pointer + "/" + escape(key)
                if not allows_null and key in value and place not in nullable:
                    nullable.append(place)
        elif not isinstance(value, list) and pointer not in integers and _says_integer(schema):
            chosen = _integer_for(root, errors_with, pointer, schema, value, earlier)
            if chosen is not None:
                integers[pointer] = chosen
    absent: list[tuple[str, tuple[str, ...], frozenset[tuple[str, str]]]] = []
    for pointers in _one_by_one_then_two(nullable):
        refused = errors_with([(p, None) for p in pointers])
        if refused and not errors_with([(p, MISSING) for p in pointers]):
            name = f"{', '.join(pointers)}: null stands for absent"
            absent.append((name, pointers, refused))
    integral: list[tuple[str, dict[str, int]]] = []
    for pointers in _one_by_one_then_two(list(integers)):
        if not errors_with([(p, float(integers[p])) for p in pointers]):
            name = f"{', '.join(pointers)}: integral float{'s' * (len(pointers) > 1)}"
            integral.append((name, {p: integers[p] for p in pointers}))
    return NormaliseCases(absent, integral)


def _integer_for(
    root: Any,
    errors_with: Callable[[list[tuple[str, Any]]], frozenset[tuple[str, str]]],
    pointer: str,
    schema: dict[str, Any],
    value: Any,
    earlier: list[Any],
) -> int | None:
    """An int for the place (the base's own, or one the contract accepts there), exact as a
    float, that ``schema`` (the one that says integer) accepts as a float, and none of the
    ``earlier`` anyOf branches takes first: the generated check converts it there. (Where
    only another branch accepts the float, a oneOf's number branch beside an integer one
    with a bound, the float is handed on as it is.) ``errors_with``: the errors of the base
    with some changes made."""
    bounds = number_values.integers_at_bounds(schema)
    listed = member_values.listed_values(schema)
    candidates = [value, *listed, *bounds, 0, 1, 2, 7, -1]
    for candidate in candidates:
        if not is_integer(candidate) or abs(candidate) > 2**53:
            continue
        number = int(candidate)
        if errors_of(schema, float(number), "", root):
            continue
        first = [e for e in earlier if not errors_of(e, float(number), "", root)]
        if not first and not errors_with([(pointer, float(number))]):
            return number
    return None


def _applying(
    root: Any, schema: Any, value: Any, pointer: str
) -> Iterator[tuple[dict[str, Any], Any, str, list[Any]]]:
    """Each (schema, value, pointer, earlier) where the generated validator applies a schema to a value.

    Followed: $ref, allOf, the first matching anyOf branch, the one matching oneOf branch,
    properties, patternProperties, additionalProperties, prefixItems and items (not if,
    not or contains: the cases are a subset, never a guess). For a scalar, the anyOf and
    oneOf branches that say integer are followed too, with ``earlier``: the anyOf branches
    tried before them (an integer put there must match none of them)."""
    todo: list[tuple[Any, Any, str, int, list[Any]]] = [(schema, value, pointer, 0, [])]
    while todo:
        schema, value, pointer, depth, earlier = todo.pop()
        if not isinstance(schema, dict) or depth > MAX_SYNTH_DEPTH * 4:
            continue
        yield schema, value, pointer, earlier
        deeper = depth + 1
        todo += [(t, value, pointer, deeper, earlier) for t in targets.followed(root, schema)]
        scalar = not isinstance(value, (dict, list))

        def matches(sub: Any, value: Any = value) -> bool:
            return not errors_of(sub, value, "", root)

        for sub, before in combinator_cases.followed(schema, scalar, matches, _says_integer):
            todo.append((sub, value, pointer, deeper, [*earlier, *before]))
        if isinstance(value, dict):
            for key, item in value.items():
                place = pointer + "/" + escape(key)
                subs = object_walk.key_schemas(schema, key, _key_matches)
                todo += [(sub, item, place, deeper, []) for sub in subs]
        elif isinstance(value, list):
            for index, item in enumerate(value):
                sub = array_walk.item_schema(schema, index)
                todo.append((sub, item, f"{pointer}/{index}", deeper, []))


def _says_integer(schema: Any) -> bool:
    """Whether the generated check of ``schema`` takes an integral float as an integer (not a number)."""
    kinds = member_values.declared(schema) or ()
    return "integer" in kinds and "number" not in kinds  # with both, the check is number's


def _key_matches(pattern: str, key: str) -> bool:
    return reference.matches_pattern(pattern, key)


def _one_by_one_then_two(pointers: list[str]) -> list[tuple[str, ...]]:
    """Each pointer alone (up to a limit), then the first two that are not inside one another
    at once (not all of them: a row that names only its own places stays as it is when the
    contract gains a property)."""
    chosen = sorted(pointers)[:MAX_NORMALISE_CASES]
    outer = [p for p in chosen if not any(p.startswith(q + "/") for q in chosen)]
    found: list[tuple[str, ...]] = [(p,) for p in chosen]
    if len(outer) > 1:
        found.append(tuple(outer[:2]))
    return found


def _path_of(data: Any, pointer: str) -> SchemaPath:
    """The path of ``pointer`` in ``data`` (which holds it): its tokens, those into lists as ints."""
    return typed(data, tuple(pointer_tokens(pointer)))


def _at(data: Any, pointer: str) -> Any:
    for step in pointer_tokens(pointer):
        data = data[int(step)] if isinstance(data, list) else data[step]
    return data
