"""Test cases derived from a contract, with expectations from the reference evaluator.

Starting from an accepted instance (the contract's first accepted example,
completed with synthesised values for the optional keys it leaves out), every
property at every depth is broken in each way the contract forbids: dropped
when required, nulled, given each wrong JSON type, pushed across each bound,
joined by an unknown key. The expected ``(path, code)`` set of every case comes
from :mod:`toolshape.contract.reference`, never from the generated module under test.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..contract import reference
from ..contract.checker import Contract, is_integer, json_equal
from ..contract.errors import ContractError, Problem
from ..schema.pointers import ref_path, resolve
from ..contract.reference import errors_of, evaluate

Path = tuple[str | int, ...]

#: How deep synthesis follows $ref and unions before it gives up on a branch.
MAX_SYNTH_DEPTH = 6
#: How many unions deep the cases follow one branch at a time.
MAX_BRANCH_DEPTH = 2
#: How many items of an array get cases of their own (items differ in unions).
MAX_ITEMS_WALKED = 3

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
    data: Any
    errors: frozenset[tuple[str, str]]

    @property
    def status(self) -> str:
        return "reject" if self.errors else "accept"


@dataclass(frozen=True)
class ParseCase:
    """One parse-layer test: ``text`` must fail with ``code``."""

    name: str
    text: str | bytes
    code: str


class _Deriver:
    def __init__(self, contract: Contract) -> None:
        self.contract = contract
        self.schema = contract.parameters
        self.cases: dict[str, Case] = {}
        self.known_good = _collect_known_good(contract)
        self.root: Any = None
        self.followed: set[tuple[Path, str]] = set()
        self.depth = 0
        self.branch_depth = 0
        self.seen: set[str] = set()  # the instances already in a case (as canonical JSON)

    # -- synthesis -----------------------------------------------------------

    def accepts(self, schema: Any, value: Any) -> bool:
        return not errors_of(schema, value, "", root=self.schema)

    def candidates(self, schema: Any, schema_path: Path) -> Iterator[Any]:
        """Values to try for a schema, most natural first."""
        if schema is True:
            yield "any"
            return
        if not isinstance(schema, dict):
            return
        yield from self.known_good.get(schema_path, [])
        if "const" in schema:
            yield schema["const"]
        yield from schema.get("enum", [])
        if "default" in schema:
            yield schema["default"]
        yield from schema.get("examples", []) if isinstance(schema.get("examples"), list) else []
        if self.depth > MAX_SYNTH_DEPTH:
            return  # a recursive schema: stop building ever deeper values
        self.depth += 1
        try:
            if "$ref" in schema:
                target = ref_path(schema["$ref"])
                yield from self.candidates(resolve(self.schema, target), target)
            for keyword in ("anyOf", "oneOf", "allOf"):
                for i, sub in enumerate(schema.get(keyword, [])):
                    yield from self.candidates(sub, schema_path + (keyword, i))
            for kind in _kinds(schema):
                yield from self.typed_candidates(kind, schema, schema_path)
        finally:
            self.depth -= 1

    def typed_candidates(self, kind: str, schema: dict, schema_path: Path) -> Iterator[Any]:
        if kind == "null":
            yield None
        elif kind == "boolean":
            yield from (False, True)
        elif kind == "string":
            low = _count(schema, "minLength", 0)
            high = _count(schema, "maxLength", max(low, 8))
            for length in sorted({low, min(high, max(low, 1)), min(high, max(low, 5)), high}):
                for unit in ("a", "x", "A", "0", "ab", "a1", "-"):
                    yield (unit * length)[:length] if length else ""
        elif kind in ("integer", "number"):
            yield from _number_candidates(kind, schema)
        elif kind == "array":
            item_schema = schema.get("items", True)
            low = _count(schema, "minItems", 0)
            items = self.distinct(item_schema, schema_path + ("items",), max(low, 1))
            if low == 0:
                yield []
            if len(items) >= max(low, 1):
                yield items[: max(low, 1)]
        elif kind == "object":
            built = self.build_object(schema, schema_path, everything=False)
            if built is not None:
                yield built
            built = self.build_object(schema, schema_path, everything=True)
            if built is not None:
                yield built

    def synth(self, schema: Any, schema_path: Path) -> tuple[bool, Any]:
        for candidate in self.candidates(schema, schema_path):
            if self.accepts(schema, candidate):
                return True, _copy(candidate)
        return False, None

    def distinct(self, schema: Any, schema_path: Path, count: int) -> list[Any]:
        found: list[Any] = []
        for candidate in self.candidates(schema, schema_path):
            if self.accepts(schema, candidate) and not any(json_equal(candidate, f) for f in found):
                found.append(_copy(candidate))
                if len(found) == count:
                    break
        return found

    def build_object(self, schema: dict, schema_path: Path, everything: bool) -> dict | None:
        result: dict[str, Any] = {}
        required = schema.get("required", [])
        for key, sub in schema.get("properties", {}).items():
            if key not in required and not everything:
                continue
            ok, value = self.synth(sub, schema_path + ("properties", key))
            if ok:
                result[key] = value
            elif key in required:
                return None
        for key in required:
            if key not in result:
                ok, value = self.synth(schema.get("additionalProperties", True), schema_path + ("additionalProperties",))
                if not ok:
                    return None
                result[key] = value
        max_properties = _count(schema, "maxProperties", None)
        if max_properties is not None and len(result) > max_properties:
            for key in [k for k in result if k not in required][: len(result) - max_properties]:
                del result[key]
        return result

    # -- cases ----------------------------------------------------------------

    def add(self, name: str, data: Any) -> None:
        key = json.dumps(data, sort_keys=True, default=repr)
        if key in self.seen or name in self.cases:
            return
        self.seen.add(key)
        # No copy: a case shares what it did not change with the root, and nothing
        # changes a value in place once a case holds it (complete() works on copies).
        self.cases[name] = Case(name, data, frozenset(evaluate(self.schema, data)))

    def base(self) -> dict:
        """An accepted instance with every property the contract declares, where it can."""
        accepted = [
            e.args for e in self.contract.examples if e.has_args and e.status == "accept" and isinstance(e.args, dict)
        ]
        if accepted:
            # The richest example reaches the most keywords (nested unions, recursion).
            start = _copy(max(accepted, key=lambda args: len(json.dumps(args, default=repr))))
        else:
            ok, start = self.synth(self.schema, ())
            if not ok:
                raise ContractError(
                    [self.contract.document.problem(("parameters",), "cannot build accepted arguments from the schema for the generated tests; add an accepted example")]
                )
        self.root = start
        self.complete(start, self.schema, ())
        return start

    def complete(self, value: Any, schema: Any, schema_path: Path, refs: int = 0) -> None:
        """Fill in optional keys (at every depth) that an instance leaves out, keeping it accepted."""
        with reference.changing():  # it adds keys and items in place, and takes some back
            self._complete(value, schema, schema_path, refs)

    def _complete(self, value: Any, schema: Any, schema_path: Path, refs: int = 0) -> None:
        if not isinstance(schema, dict):
            return
        if "$ref" in schema:
            if refs >= MAX_SYNTH_DEPTH:
                return  # a recursive schema: a few levels are enough to test every check
            target = ref_path(schema["$ref"])
            self._complete(value, resolve(self.schema, target), target, refs + 1)
        if isinstance(value, dict):
            for key, sub in schema.get("properties", {}).items():
                if key not in value:
                    ok, synthesized = self.synth(sub, schema_path + ("properties", key))
                    if ok:
                        value[key] = synthesized
                        if not self.accepts(self.schema, self.root):
                            del value[key]
                if key in value:
                    self._complete(value[key], sub, schema_path + ("properties", key), refs)
        elif isinstance(value, list) and isinstance(schema.get("items"), dict):
            if not value:
                ok, item = self.synth(schema["items"], schema_path + ("items",))
                if ok:
                    value.append(item)
                    if not self.accepts(self.schema, self.root):
                        value.pop()
            for item in value[:1]:
                self._complete(item, schema["items"], schema_path + ("items",), refs)

    def derive(self) -> list[Case]:
        with reference.remembering():
            self.root = self.base()
            self.add("base: every declared key, all valid", self.root)
            self.walk(self.schema, (), (), "arguments")
        return list(self.cases.values())

    def replaced(self, path: Path, value: Any) -> Any:
        data, parent = self.copied_to(path)
        parent[path[-1]] = value
        return data

    def removed(self, path: Path) -> Any:
        data, parent = self.copied_to(path)
        del parent[path[-1]]
        return data

    def copied_to(self, path: Path) -> tuple[Any, Any]:
        """A copy of the root in which the containers down to ``path``'s parent are new
        (that parent is returned too, to be changed); everything else is shared with the
        root, which nothing changes until ``add`` has copied the case it keeps."""
        data = _shallow(self.root)
        parent = data
        for step in path[:-1]:
            parent[step] = _shallow(parent[step])
            parent = parent[step]
        return data, parent

    def walk(self, schema: Any, path: Path, schema_path: Path, label: str) -> None:
        """Derive the cases for the value at ``path`` (present in the base) and below."""
        if not isinstance(schema, dict):
            return
        # Subschemas that apply to this same value: their keywords get cases too.
        if "$ref" in schema and (path, schema["$ref"]) not in self.followed:
            self.followed.add((path, schema["$ref"]))
            target = ref_path(schema["$ref"])
            self.walk(resolve(self.schema, target), path, target, label)
        for i, sub in enumerate(schema.get("allOf", [])):
            self.walk(sub, path, schema_path + ("allOf", i), label)
        for keyword in ("anyOf", "oneOf"):
            for i, sub in enumerate(schema.get(keyword, [])):
                self.walk_branch(schema, sub, path, schema_path, (keyword, i), f"{label} ({keyword} {i + 1})")
        value = _get(self.root, path)
        if isinstance(value, list):
            for i, sub in enumerate(schema.get("prefixItems", [])[: len(value)]):
                self.walk(sub, path + (i,), schema_path + ("prefixItems", i), f"{label}[{i}]")
        if path:
            self.value_cases(schema, path, schema_path, label, value)
        if isinstance(value, dict):
            self.object_cases(schema, path, schema_path, label, value)
        elif isinstance(value, list):
            self.array_cases(schema, path, schema_path, label, value)

    def walk_branch(self, schema: dict, branch: Any, path: Path, outer: Path, where: Path, label: str) -> None:
        """Cases inside one union branch: start from a value that matches it, then break it."""
        if not path or not isinstance(branch, dict) or self.branch_depth >= MAX_BRANCH_DEPTH:
            return
        current = _get(self.root, path)
        start = current if self.accepts(branch, current) else None
        if start is None:
            start = next(
                (c for c in self.branch_candidates(schema, branch, outer, outer + where) if self.accepts(schema, c)),
                None,
            )
            if start is None or not self.accepts(self.schema, self.replaced(path, start)):
                return
        saved = self.root
        # complete() adds keys in place: to a copy, never to the root's own value or
        # to a value taken from the contract (a const, an enum member, an example).
        self.root = self.replaced(path, _copy(start))
        self.branch_depth += 1
        try:
            self.complete(_get(self.root, path), branch, outer + where)
            self.walk(branch, path, outer + where, label)
        finally:
            self.root = saved
            self.branch_depth -= 1

    def branch_candidates(self, schema: dict, branch: dict, outer: Path, inner: Path) -> Iterator[Any]:
        """Values for one branch of a union: its own, then objects with the keys it requires."""
        yield from self.candidates(branch, inner)
        wanted = set(schema.get("required", [])) | set(branch.get("required", []))
        properties = schema.get("properties", {})
        if wanted and properties:
            built = {}
            for key in sorted(wanted):
                ok, value = self.synth(properties.get(key, True), outer + ("properties", key))
                if ok:
                    built[key] = value
            yield built

    def value_cases(self, schema: dict, path: Path, schema_path: Path, label: str, value: Any) -> None:
        declared = _declared(schema)
        if declared is not None:
            for kind, sample in TYPE_SAMPLES.items():
                allowed = kind in declared or (kind == "integer" and "number" in declared)
                if not allowed:
                    self.add(f"{label}: {kind} instead of {' or '.join(declared)}", self.replaced(path, sample))
        elif any(k in schema for k in ("$ref", "anyOf", "oneOf", "allOf")):
            # The type is decided by a subschema: every sample, the reference tells which pass.
            for kind, sample in TYPE_SAMPLES.items():
                self.add(f"{label}: a sample {kind}", self.replaced(path, sample))
        if value is None:
            # A nullable value: cross its bounds from a non-null value of its type.
            value = next((c for c in self.candidates(schema, schema_path) if c is not None and self.accepts(schema, c)), None)
        for name, variant in self.bound_variants(schema, schema_path, value):
            self.add(f"{label}: {name}", self.replaced(path, variant))

    def bound_variants(self, schema: dict, schema_path: Path, value: Any) -> Iterator[tuple[str, Any]]:
        if isinstance(value, str):
            fill = value[-1:] or "a"
            if "minLength" in schema and _count(schema, "minLength") > 0:
                n = _count(schema, "minLength")
                yield f"minLength {n} - 1", value[: n - 1] if len(value) >= n else value
                yield from self.good_variant(schema, schema_path, f"minLength {n} exactly", lambda s: len(s) == n)
            if "maxLength" in schema:
                n = _count(schema, "maxLength")
                yield f"maxLength {n} + 1", (value + fill * (n + 1))[: n + 1]
                yield from self.good_variant(schema, schema_path, f"maxLength {n} exactly", lambda s: len(s) == n)
            if "pattern" in schema:
                for bad in ("", " ", "!", "?" * max(_count(schema, "minLength", 1), 1), "a b", "0"):
                    if not errors_of({"pattern": schema["pattern"]}, bad, "", root=self.schema):
                        continue
                    yield "does not match the pattern", bad
                    break
            if "enum" in schema:
                for member in schema["enum"]:
                    yield f"enum member {json.dumps(member, ensure_ascii=False)}", member
                for member in schema["enum"]:
                    if isinstance(member, str) and member.upper() != member:
                        yield "enum member in the wrong case", member.upper()
                        break
                yield "not an enum member", "not-a-member"
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            for keyword, step in (("minimum", -1), ("maximum", 1)):
                if keyword in schema:
                    bound = schema[keyword]
                    yield f"{keyword} {bound} exactly", bound
                    yield f"{keyword} {bound} crossed", bound + step
            for keyword, step in (("exclusiveMinimum", 1), ("exclusiveMaximum", -1)):
                if keyword in schema:
                    bound = schema[keyword]
                    yield f"{keyword} {bound} itself", bound
                    yield f"{keyword} {bound} just inside", bound + step * _unit(schema)
            if "multipleOf" in schema:
                m = schema["multipleOf"]
                yield f"multipleOf {m}: off by half", value + m / 2 if not is_integer(m) or m % 2 else value + m // 2
                yield f"multipleOf {m}: off by one", value + 1
        if "const" in schema:
            const = schema["const"]
            yield "the const value", const
            yield "another value than const", _other_than(const)
        if "enum" in schema and not isinstance(value, str):
            for member in schema["enum"]:
                yield f"enum member {json.dumps(member)}", member
            yield "not an enum member", "not-a-member"

    def good_variant(self, schema: dict, schema_path: Path, name: str, wanted: Any) -> Iterator[tuple[str, Any]]:
        for candidate in self.candidates(schema, schema_path):
            if isinstance(candidate, str) and wanted(candidate) and self.accepts(schema, candidate):
                yield name, candidate
                return

    def object_cases(self, schema: dict, path: Path, schema_path: Path, label: str, value: dict) -> None:
        properties = schema.get("properties", {})
        required = schema.get("required", [])
        prefix = "" if not path else label + "."
        for key, sub in properties.items():
            key_label = prefix + key
            if key in required and key in value:
                self.add(f"{key_label}: missing", self.removed(path + (key,)))
            if key in value:
                if _declared(sub) is not None and "null" not in _declared(sub):
                    self.add(f"{key_label}: null", self.replaced(path + (key,), None))
                self.walk(sub, path + (key,), schema_path + ("properties", key), key_label)
        additional = schema.get("additionalProperties", True)
        unknown = next(k for k in ("unexpected", "unexpected_key", "zz_unknown") if k not in properties)
        if additional is False:
            self.add(f"{prefix}{unknown}: unknown key", self.replaced(path + (unknown,), 1))
        elif isinstance(additional, dict):
            ok, good = self.synth(additional, schema_path + ("additionalProperties",))
            if ok:
                self.add(f"{prefix}{unknown}: extra key, valid value", self.replaced(path + (unknown,), good))
                for name, variant in self.bound_variants(additional, schema_path + ("additionalProperties",), good):
                    self.add(f"{prefix}{unknown}: extra key, {name}", self.replaced(path + (unknown,), variant))
            for kind, sample in TYPE_SAMPLES.items():
                self.add(f"{prefix}{unknown}: extra key, {kind} value", self.replaced(path + (unknown,), sample))
        if "minProperties" in schema:
            n = _count(schema, "minProperties")
            keep = [k for k in value if k in required][: max(n - 1, 0)]
            keep += [k for k in value if k not in keep][: max(n - 1 - len(keep), 0)]
            smaller = {k: value[k] for k in keep}
            self.add(f"{label}: minProperties {n} - 1", self.replaced(path, smaller) if path else smaller)
        if "maxProperties" in schema:
            n = _count(schema, "maxProperties")
            bigger = dict(value)
            filler = (k for k in [*properties, *(f"extra_{i}" for i in range(n + 2))] if k not in bigger)
            while len(bigger) <= n:
                key = next(filler)
                sub = properties.get(key, additional)
                ok, good = self.synth(sub, schema_path + (("properties", key) if key in properties else ("additionalProperties",)))
                bigger[key] = good if ok else 1
            self.add(f"{label}: maxProperties {n} + 1", self.replaced(path, bigger) if path else bigger)

    def array_cases(self, schema: dict, path: Path, schema_path: Path, label: str, value: list) -> None:
        item_schema = schema.get("items", True)
        need = max(_count(schema, "maxItems", 0) + 1, _count(schema, "minItems", 0), 2)
        pool = self.distinct(item_schema, schema_path + ("items",), min(need, 60))
        if value:
            pool = [value[0]] + [p for p in pool if not json_equal(p, value[0])]
        if "minItems" in schema and _count(schema, "minItems") > 0:
            n = _count(schema, "minItems")
            self.add(f"{label}: minItems {n} - 1", self.replaced(path, pool[: n - 1]))
            if len(pool) >= n:
                self.add(f"{label}: minItems {n} exactly", self.replaced(path, pool[:n]))
        if "maxItems" in schema:
            n = _count(schema, "maxItems")
            if len(pool) >= n + 1:
                self.add(f"{label}: maxItems {n} + 1", self.replaced(path, pool[: n + 1]))
                self.add(f"{label}: maxItems {n} exactly", self.replaced(path, pool[:n]))
            elif pool:
                # Too few distinct items: repeat them (with uniqueItems, that also
                # breaks uniqueness, and the expected errors say so).
                repeated = [_copy(pool[i % len(pool)]) for i in range(n + 1)]
                self.add(f"{label}: maxItems {n} + 1", self.replaced(path, repeated))
        if schema.get("uniqueItems") is True and pool:
            self.add(f"{label}: the same item twice", self.replaced(path, [pool[0], _copy(pool[0])]))
            if len(pool) >= 2:
                self.add(f"{label}: two different items", self.replaced(path, pool[:2]))
        if value and isinstance(item_schema, dict):
            for i in range(min(len(value), MAX_ITEMS_WALKED)):
                self.walk(item_schema, path + (i,), schema_path + ("items",), f"{label}[{i}]")


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


def changes(base: Any, data: Any, pointer: str = "") -> list[tuple[str, Any]]:
    """What turns ``base`` into ``data``: (JSON Pointer, the value put there, or MISSING
    for a key left out). The pointer "" replaces the whole value."""
    if isinstance(base, dict) and isinstance(data, dict):
        found: list[tuple[str, Any]] = [(_child(pointer, key), MISSING) for key in base if key not in data]
        for key, item in data.items():
            if key not in base:
                found.append((_child(pointer, key), item))
            elif not identical(base[key], item):
                found.extend(changes(base[key], item, _child(pointer, key)))
        return found
    if isinstance(base, list) and isinstance(data, list) and len(base) == len(data):
        found = []
        for i, (old, new) in enumerate(zip(base, data)):
            if not identical(old, new):
                found.extend(changes(old, new, _child(pointer, str(i))))
        return found
    return [] if identical(base, data) else [(pointer, data)]


def apply(base: Any, found: list[tuple[str, Any]]) -> Any:
    """``base`` with ``found`` changes made: what the generated tests' ``arguments`` does
    (only a key is ever left out, never a list item). ``base`` is left as it is; the
    result shares with it what the changes do not reach."""
    data = base
    for pointer, new in found:
        if pointer == "":
            data = new
            continue
        tokens = [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]
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
        return len(a) == len(b) and all(identical(x, y, True) for x, y in zip(a, b))
    if isinstance(a, list):
        return len(a) == len(b) and all(identical(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return repr(a) == repr(b)
    return bool(a == b)


def _child(pointer: str, key: str) -> str:
    return pointer + "/" + key.replace("~", "~0").replace("/", "~1")


def _copy(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars): copy.deepcopy, several times faster."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


def _shallow(container: Any) -> Any:
    return dict(container) if isinstance(container, dict) else list(container)


def _count(schema: dict, keyword: str, default: Any = 0) -> Any:
    """A count keyword (minLength, maxItems, ...) as an int: 2.0 is allowed and means 2."""
    return int(schema[keyword]) if keyword in schema else default


def _collect_known_good(contract: Contract) -> dict[Path, list[Any]]:
    """Values seen in accepted examples, by schema path: candidates for synthesis."""
    found: dict[Path, list[Any]] = {}

    def visit(schema: Any, value: Any, schema_path: Path) -> None:
        found.setdefault(schema_path, []).append(value)
        if not isinstance(schema, dict):
            return
        if isinstance(value, dict):
            for key, item in value.items():
                if key in schema.get("properties", {}):
                    visit(schema["properties"][key], item, schema_path + ("properties", key))
                elif isinstance(schema.get("additionalProperties"), dict):
                    visit(schema["additionalProperties"], item, schema_path + ("additionalProperties",))
        elif isinstance(value, list) and "items" in schema:
            for item in value:
                visit(schema["items"], item, schema_path + ("items",))

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


def _get(data: Any, path: Path) -> Any:
    for step in path:
        data = data[step]
    return data


def _declared(schema: Any) -> tuple[str, ...] | None:
    if not isinstance(schema, dict) or "type" not in schema:
        return None
    raw = schema["type"]
    return tuple(raw) if isinstance(raw, list) else (raw,)


def _kinds(schema: dict) -> list[str]:
    declared = _declared(schema)
    if declared:
        return sorted(declared, key=lambda k: k == "null")
    if "properties" in schema or "required" in schema:
        return ["object"]
    if "items" in schema:
        return ["array"]
    if any(k in schema for k in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")):
        return ["number"]
    return ["string", "integer", "boolean", "null"]


def _unit(schema: dict) -> float:
    if "multipleOf" in schema:
        return schema["multipleOf"]
    return 1 if _declared(schema) == ("integer",) else 0.5


def _number_candidates(kind: str, schema: dict) -> Iterator[float]:
    low = schema.get("minimum", schema.get("exclusiveMinimum"))
    high = schema.get("maximum", schema.get("exclusiveMaximum"))
    step = schema.get("multipleOf", 1)
    anchors = [0, 1, 10]
    if low is not None:
        anchors += [low, low + step, math.ceil(low / step) * step, math.floor(low / step + 1) * step]
    if high is not None:
        anchors += [high, high - step, math.floor(high / step) * step]
    if low is not None and high is not None:
        anchors.append(math.floor((low + high) / 2 / step) * step)
    for anchor in anchors:
        yield anchor if kind == "number" or not float(anchor).is_integer() else int(anchor)


def _other_than(const: Any) -> Any:
    if isinstance(const, bool):
        return not const
    if isinstance(const, (int, float)):
        return const + 1
    if isinstance(const, str):
        return const + "x"
    if const is None:
        return 0
    return None


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
    """Every derived validate() case for a contract."""
    return Derivation(_Deriver(contract).derive(), [])
