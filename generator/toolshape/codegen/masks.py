"""Where the secrets are, and the two masks tables a generated module carries.

A contract marks a schema ``x-sensitive``; the generated module then keeps what that schema
governs out of its logs and messages. This module answers, from the contract alone:

- which schemas may apply to a value a sensitive schema governs (:func:`secret_paths`): the
  builder writes their messages without the value or the allowed values;
- the redaction masks (:func:`redaction_masks`): the data the runtime's ``_redact`` reads;
- the OpenAI absent nulls (:func:`absent_nulls`): the data the runtime's
  ``_without_absent_nulls`` reads, where strict mode sent null for a key it left out.

Both tables mirror the validator's schema walk, $refs kept as names, so recursive schemas make
finite data.
"""

from __future__ import annotations

import functools
import json
from typing import Any

from ..contract.checker import Contract
from ..contract.optional import converted_keys
from ..families.combinators import values as combinator_values
from ..families.objects import rules as object_rules
from ..families.references import targets
from ..families.values import rules as value_rules
from ..regex.linear import plan as pattern_plan
from ..schema import children, vocabulary
from ..schema.keywords import HOLDERS, subschemas
from ..schema.pointers import SchemaPath, ref_path, resolve
from .literals import Code, literal

#: The keywords whose subschemas are lists applying to the same value (allOf, anyOf, oneOf):
#: the branches the export lowers, so the only ones the absent-nulls table walks.
_SAME_VALUE_LISTS = vocabulary.holders("list", "same value")
#: The mask part of the items after the prefix: the runtime names it after its keyword.
_OTHER_ITEMS = vocabulary.reaching("other items")[0]
#: That key as the runtime template reads it (``mask_keys.other_items``).
MASK_KEYS: dict[str, Code] = {"other_items": literal(_OTHER_ITEMS)}


def _same_value_subschemas(
    schema: dict[str, Any], schema_path: SchemaPath
) -> list[tuple[Any, SchemaPath]]:
    """The subschemas (with their paths) that apply to the very value ``schema`` applies to,
    $ref aside. For redaction every one counts, whichever branch matched ("conservative")."""
    return [(sub, schema_path + steps) for sub, steps in children.same_value(schema)]


def secret_paths(parameters: Any, text: str | None = None) -> set[SchemaPath]:
    """The schema paths of every schema that may apply to a value an x-sensitive schema governs.

    The walk follows values, not schemas: it takes, for one value, the group of every
    schema that applies to it (branches and $ref targets included, and conservatively each
    patternProperties schema for each key), so that a schema on the same value as a
    sensitive one (an allOf sibling, or the same key in another branch) counts too. A $ref
    target reached from a sensitive value anywhere counts wherever it is used, since its
    one function serves every place.
    """
    if not may_hold_secrets(parameters, text):
        return set()
    found: set[SchemaPath] = set()
    seen: set[tuple[frozenset[SchemaPath], bool]] = set()
    todo: list[tuple[list[tuple[Any, SchemaPath]], bool]] = [([(parameters, ())], False)]
    while todo:
        members, inside = todo.pop()
        group = _group(parameters, members)
        inside = inside or any(schema.get("x-sensitive") is True for schema, _ in group)
        key = (frozenset(path for _, path in group), inside)
        if key in seen:
            continue
        seen.add(key)
        if inside:
            found |= key[0]
        todo += [(children, inside) for children in _value_groups(group)]
    return found


def may_hold_secrets(parameters: Any, text: str | None = None) -> bool:
    """Whether some schema in ``parameters`` may say ``x-sensitive``: its JSON text holds the
    key. (A string value "x-sensitive" answers yes too, and the walks then find nothing.)
    ``text``: that JSON text, ``json.dumps(parameters, ensure_ascii=False)``, where the
    caller has made it already (the builder does, see BuildContext.parameters_text).

    Most contracts mark nothing sensitive, and then no value is secret and the redaction
    masks are empty: this answer, a search of text ``json`` writes in C, spares them the
    walks that would find so (measured: model.build 5.9 -> 5.0 ms CPU per contract over the
    40-contract set, none of which is sensitive)."""
    if text is None:
        text = json.dumps(parameters, ensure_ascii=False)
    return '"x-sensitive"' in text


def _group(
    parameters: Any, members: list[tuple[Any, SchemaPath]]
) -> list[tuple[dict[str, Any], SchemaPath]]:
    """Every schema (with its path) that applies to one value: ``members``, their branches and $ref targets."""
    found: list[tuple[dict[str, Any], SchemaPath]] = []
    paths: set[SchemaPath] = set()
    todo = list(members)
    while todo:
        schema, path = todo.pop()
        if not isinstance(schema, dict) or path in paths:
            continue
        paths.add(path)
        found.append((schema, path))
        todo += _same_value_subschemas(schema, path)
        target = targets.path_of(schema)
        if target is not None:
            todo.append((resolve(parameters, target), target))
    return found


def _value_groups(
    group: list[tuple[dict[str, Any], SchemaPath]],
) -> list[list[tuple[Any, SchemaPath]]]:
    """For the values inside one value: the schemas that apply to each (by key, by position)."""
    groups = _key_groups(group) + _item_groups(group)
    groups += [
        [(sub, path + steps)]
        for s, path in group
        for sub, steps in children.reaching(s, "key names")
    ]
    return [members for members in groups if members]


def _key_groups(
    group: list[tuple[dict[str, Any], SchemaPath]],
) -> list[list[tuple[Any, SchemaPath]]]:
    """For each key some schema names, and for a key named nowhere: the schemas of its value
    (every pattern's, conservatively)."""
    groups: list[list[tuple[Any, SchemaPath]]] = []
    patterns = [
        (sub, path + steps) for s, path in group for _, (sub, steps) in children.patterns(s)
    ]
    # Each schema's children read once: once per key would be quadratic in the keys.
    read = [(children.named(s), children.reaching(s, "other keys"), path) for s, path in group]
    names = sorted({name for keys, _, _ in read for name in keys})
    for name in names + [None]:  # None: a key declared nowhere
        members = list(patterns)
        for keys, others, path in read:
            reached = [keys[name]] if name in keys else others
            members += [(sub, path + steps) for sub, steps in reached]
        groups.append(members)
    return groups


def _item_groups(
    group: list[tuple[dict[str, Any], SchemaPath]],
) -> list[list[tuple[Any, SchemaPath]]]:
    """For each position some schema's prefix declares, and for the positions after every
    prefix: the schemas of the item there (the schemas matching items, for every one)."""
    groups: list[list[tuple[Any, SchemaPath]]] = []
    # Each schema's children read once: once per position would be quadratic in the prefix.
    matching = [
        (sub, path + steps)
        for s, path in group
        for sub, steps in children.reaching(s, "matching items")
    ]
    read = [
        (children.reaching(s, "prefix"), children.reaching(s, "other items"), path)
        for s, path in group
    ]
    longest = max([len(prefix) for prefix, _, _ in read] + [0])
    for index in range(longest + 1):  # the last one: positions after every prefix
        members = list(matching)
        for prefix, others, path in read:
            reached = [prefix[index]] if index < len(prefix) else others
            members += [(sub, path + steps) for sub, steps in reached]
        groups.append(members)
    return groups


def _key_matcher(pattern: str) -> str | list[dict[str, Any]]:
    """What the runtime's ``_key_matches`` runs for a patternProperties key: the translated
    regex where ``re`` is proved linear on it, else the parts of its ``_Linear`` matcher."""
    plan = pattern_plan(pattern)
    return plan.source if plan.source is not None else list(plan.parts)


class _Masks:
    """The redaction masks: data the runtime's ``_redact`` reads, one per $ref target.

    A mask is ``True`` (the whole value is redacted), ``None`` (nothing to do inside), or
    a dict of the parts the walk needs:

    - ``keys``: {property: mask}; ``patterns``: [[matcher, mask or None], ...], the matcher
      the translated regex, or the linear-time matcher's parts (see ``_key_matcher``);
      ``extra``: the mask of the keys that are in neither (additionalProperties);
      ``names``: every property name (a key is named by ``names`` or ``patterns``);
    - ``prefix``: [mask or None, ...] by position; ``items``: after them; ``every``: all
      items (``contains``); ``placed``: the positions a schema is declared for (``True``:
      every one; a number: those before it, by ``prefixItems``);
    - ``all``: masks of other schemas on the same value (allOf, anyOf, oneOf, not, if,
      then, else, dependentSchemas: any of them counts); ``ref``: [$ref, ...], looked up
      in the table, so recursive schemas make finite data;
    - ``object`` / ``array``: this schema's own object (array) keywords lead to an
      x-sensitive schema, so a value of any other JSON type here is logged as its type
      and size only (a string holding the object's JSON, an array wrapping it);
    - ``types``: the JSON types this schema's ``type`` admits: a value that no schema
      declaring types admits is logged as its type and size only.

    It mirrors the validator's schema walk: wherever a schema applies, its mask applies.
    In a tool with sensitive parts (the table's ``"#"`` is not empty) every object schema
    keeps its names and patterns, and every array schema its ``placed``: the log shows a
    value only under a key a schema names, or at a position a schema is declared for.
    """

    def __init__(self, parameters: Any) -> None:
        self.parameters = parameters
        self.live: set[str] = set()  # the $ref targets whose mask is not None
        # By id(schema), for the current ``live``: each schema's mask is computed once.
        self.masks: dict[int, Any] = {}

    @functools.cached_property
    def reaching(self) -> set[int]:
        """The schemas below which (their $refs followed) an x-sensitive schema is: walked when
        first asked (the absent nulls' masks never ask)."""
        return _reaching_secrets(self.parameters)

    @functools.cached_property
    def strict(self) -> bool:
        """Whether the tool has sensitive parts: then every key's name is kept."""
        return id(self.parameters) in self.reaching

    def table(self) -> dict[str, Any]:
        """{"#": the arguments' mask, $ref: its target's mask} for every $ref whose mask is not None."""
        refs = sorted(_all_refs(self.parameters))
        while True:  # grows to a fixed point: a ref is live once its target's mask is not None
            grown = {ref for ref in refs if self.mask(self.target(ref)) is not None}
            if grown == self.live:
                break
            self.live = grown
            self.masks.clear()
        table = {ref: self.mask(self.target(ref)) for ref in sorted(self.live)}
        table["#"] = self.mask(self.parameters) or {}
        return table

    def target(self, ref: str) -> Any:
        return resolve(self.parameters, ref_path(ref))

    def mask(self, schema: Any) -> Any:
        """The mask of one schema, $refs left as names (see the class)."""
        if id(schema) not in self.masks:
            self.masks[id(schema)] = self._mask(schema)
        return self.masks[id(schema)]

    def _mask(self, schema: Any) -> Any:
        if not isinstance(schema, dict):
            return None
        if schema.get("x-sensitive") is True:
            return True
        mask: dict[str, Any] = {}
        ref = targets.ref_of(schema)
        if ref is not None and ref in self.live:
            mask["ref"] = [ref]
        same = [self.mask(sub) for sub, _ in _same_value_subschemas(schema, ())]
        if any(m is True for m in same):
            return True
        if any(same):
            mask["all"] = [m for m in same if m]
        declared = value_rules.type_names(schema)
        if self.strict and declared is not None:
            mask["types"] = sorted(declared)
        self.object_parts(schema, mask)
        self.array_parts(schema, mask)
        return mask or None

    def object_parts(self, schema: dict[str, Any], mask: dict[str, Any]) -> None:
        properties = {key: sub for key, (sub, _) in children.named(schema).items()}
        keys = {key: self.mask(sub) for key, sub in properties.items()}
        if any(m is not None for m in keys.values()):
            mask["keys"] = {key: m for key, m in keys.items() if m is not None}
        others = children.reaching(schema, "other keys")
        extra = self.mask(others[0][0]) if others else None
        patterns = [[_key_matcher(p), self.mask(sub)] for p, (sub, _) in children.patterns(schema)]
        names = self.strict and bool(properties or patterns)
        if extra is not None or names:
            if extra is not None:
                mask["extra"] = extra
            mask["names"] = sorted(properties)
            mask["patterns"] = patterns  # all of them: a key matching any is declared, not extra
        elif any(m is not None for _, m in patterns):
            mask["patterns"] = [[p, m] for p, m in patterns if m is not None]
        if self.leads_to_secrets(schema, children.KEY_VALUES):
            mask["object"] = True

    def array_parts(self, schema: dict[str, Any], mask: dict[str, Any]) -> None:
        prefix = [self.mask(sub) for sub, _ in children.reaching(schema, "prefix")]
        others = children.reaching(schema, "other items")
        for reached, part in (
            (others, _OTHER_ITEMS),
            (children.reaching(schema, "matching items"), "every"),
        ):
            m = self.mask(reached[0][0]) if reached else None
            if m is not None:
                mask[part] = m
        # With the other items masked, the prefix positions are needed too: they start after them.
        if any(m is not None for m in prefix) or (prefix and _OTHER_ITEMS in mask):
            mask["prefix"] = prefix
        if self.leads_to_secrets(schema, children.ITEMS):
            mask["array"] = True
        every_position = any(sub is not False for sub, _ in others)
        if self.strict and (prefix or every_position):
            mask["placed"] = True if every_position else len(prefix)

    def leads_to_secrets(
        self, schema: dict[str, Any], reached: tuple[vocabulary.Reaches, ...]
    ) -> bool:
        """Whether a subschema of ``schema`` applying to the ``reached`` children leads to an
        x-sensitive schema."""
        return any(id(sub) in self.reaching for sub, _ in children.reaching(schema, *reached))


class _AbsentNulls(_Masks):
    """Where a null stands for an optional key left out: data the runtime's ``_without_absent_nulls`` reads.

    OpenAI strict mode lists every key as required, so the model sends null for an
    optional key it leaves out; where the contract refuses null for that key
    (:func:`~toolshape.contract.optional.converted_keys`, the export's decision too), the
    null is removed from a call refused as sent. A mask is None (nothing to remove inside) or a dict:

    - ``drop``: the keys whose null is removed;
    - ``keys``, ``prefix``, ``items``, ``ref``: as in :class:`_Masks`;
    - ``all``: the masks of allOf, anyOf and oneOf branches (the subschemas the export
      lowers and converts; ``not``, ``if``, ``contains``, ``dependentSchemas``,
      ``additionalProperties`` and ``patternProperties`` are not, or keep strict mode off);
    - ``unsure``: keys whose null one anyOf/oneOf branch removes while another branch keeps
      it (requires the key, or allows null there): removed only when keeping them fails too.
    """

    def _mask(self, schema: Any) -> Any:
        if not isinstance(schema, dict):
            return None
        if HOLDERS.isdisjoint(schema) and targets.REF not in schema:
            # A leaf (most schemas): every part below is read from a subschema or a $ref
            # (measured: absent_nulls 0.38 -> 0.21 ms CPU per contract over the 40-contract set).
            return None
        mask: dict[str, Any] = {}
        ref = targets.ref_of(schema)
        if ref is not None and ref in self.live:
            mask["ref"] = [ref]
        same = [
            self.mask(sub) for word in _SAME_VALUE_LISTS for sub, _ in children.held(schema, word)
        ]
        if any(same):
            mask["all"] = [m for m in same if m]
        unsure = self._unsure(schema)
        if unsure:
            mask["unsure"] = unsure
        properties = {key: sub for key, (sub, _) in children.named(schema).items()}
        optional = converted_keys(self.parameters, properties, object_rules.required_of(schema))
        drop = [key for key, allows_null in optional if not allows_null]
        if drop:
            mask["drop"] = drop
        keys = {key: self.mask(sub) for key, sub in properties.items()}
        if any(m is not None for m in keys.values()):
            mask["keys"] = {key: m for key, m in keys.items() if m is not None}
        prefix = [self.mask(sub) for sub, _ in children.reaching(schema, "prefix")]
        others = children.reaching(schema, "other items")
        items = self.mask(others[0][0]) if others else None
        if items is not None:
            mask[_OTHER_ITEMS] = items
        if any(m is not None for m in prefix) or (prefix and items is not None):
            mask["prefix"] = prefix
        return mask or None

    def _unsure(self, schema: dict[str, Any]) -> list[str]:
        """The keys whose null one anyOf/oneOf branch of ``schema`` removes and another keeps."""
        unsure: set[str] = set()
        for branches in combinator_values.alternatives(schema):
            sides = [self._null_keys(branch) for branch in branches]
            for i, (dropped, _) in enumerate(sides):
                for j, (_, kept) in enumerate(sides):
                    if i != j:
                        unsure |= dropped & kept
        return sorted(unsure)

    def _null_keys(self, branch: Any) -> tuple[set[str], set[str]]:
        """The keys whose null a branch (with its same-value subschemas) removes, and those
        whose null it keeps: required, or optional with null allowed."""
        dropped: set[str] = set()
        kept: set[str] = set()
        for node in _closure(self.parameters, branch):
            properties = {key: sub for key, (sub, _) in children.named(node).items()}
            required = object_rules.required_of(node)
            kept |= {key for key in required if isinstance(key, str)}
            for key, allows_null in converted_keys(self.parameters, properties, required):
                (kept if allows_null else dropped).add(key)
        return dropped, kept


def _closure(parameters: Any, schema: Any) -> list[dict[str, Any]]:
    """Every schema that applies to the same value as ``schema``: itself, its branches, its $ref targets."""
    found: list[dict[str, Any]] = []
    seen: set[int] = set()
    todo = [schema]
    while todo:
        node = todo.pop()
        if not isinstance(node, dict) or id(node) in seen:
            continue
        seen.add(id(node))
        found.append(node)
        todo += [sub for sub, _ in _same_value_subschemas(node, ())]
        todo += targets.followed(parameters, node)
    return found


def _all_schemas(schema: Any) -> list[dict[str, Any]]:
    """Every schema in a schema tree."""
    found: list[dict[str, Any]] = []
    todo = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, dict):
            found.append(node)
            todo += [sub for sub, _ in subschemas(node)]
    return found


def _all_refs(schema: Any) -> set[str]:
    """Every $ref string in a schema tree."""
    return {ref for node in _all_schemas(schema) if (ref := targets.ref_of(node)) is not None}


def _reaching_secrets(parameters: Any) -> set[int]:
    """The ids of the schemas that are, or lead through subschemas and $refs to, an
    x-sensitive schema used by the parameters ($defs only through the $refs to them).

    One pass over the edges reversed: each schema is visited once.
    """
    callers: dict[int, list[dict[str, Any]]] = {}
    todo: list[Any] = [parameters]
    seen: set[int] = set()
    found: list[dict[str, Any]] = []
    while todo:
        schema = todo.pop()
        if not isinstance(schema, dict) or id(schema) in seen:
            continue
        seen.add(id(schema))
        if schema.get("x-sensitive") is True:
            found.append(schema)
        subs = [sub for sub, where in subschemas(schema) if not targets.is_definition(where)]
        subs += targets.followed(parameters, schema)
        for sub in subs:
            callers.setdefault(id(sub), []).append(schema)
        todo += subs
    reaching = {id(schema) for schema in found}
    while found:
        for caller in callers.get(id(found.pop()), ()):
            if id(caller) not in reaching:
                reaching.add(id(caller))
                found.append(caller)
    return reaching


def redaction_masks(contract: Contract, text: str | None = None) -> dict[str, Any]:
    """The masks the generated module's ``_redact`` reads (see :class:`_Masks`): with no
    x-sensitive schema, every mask is None, the table's ``"#"`` empty (``text``: see
    :func:`may_hold_secrets`)."""
    if not may_hold_secrets(contract.parameters, text):
        return {"#": {}}
    return _Masks(contract.parameters).table()


def absent_nulls(contract: Contract) -> dict[str, Any]:
    """The nulls ``validate(..., platform="openai")`` removes (see :class:`_AbsentNulls`)."""
    return _AbsentNulls(contract.parameters).table()
