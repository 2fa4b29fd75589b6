"""JSON's meaning of a loaded value, for every stage: bool is not a number, 1.0 is an integer,
NaN is not a number, true is not 1.

In the base package so that the contract check, the reference evaluator, the model, the case
derivation and the platforms read values one way, and so that none of them imports another
just for these (the reference evaluator once imported the contract check, which imports it).
"""

from __future__ import annotations

import math
from collections.abc import Hashable
from decimal import Decimal
from typing import Any, TypeGuard

from . import vocabulary

#: The annotations whose values are values a schema expects (``Keyword.offers``).
_OFFERING = vocabulary.names(lambda k: k.implemented and k.offers)


def is_number(value: object) -> TypeGuard[int | float]:
    """JSON's idea of a number: bool is not one, NaN and infinities are not either."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and math.isfinite(value)


def as_written(number: int | float) -> int | float:
    """A JSON number as the decimal it is written as, where a float differs from that: from
    2**53 up every float is whole and its shortest repr is not its binary value (1e23 is
    10**23, int(1e23) is not), so it becomes that decimal's int; anything else as it is
    (below 2**53 the two cannot compare differently). The runtime's ``_exact``."""
    if isinstance(number, float) and not -(2**53) < number < 2**53 and math.isfinite(number):
        return int(Decimal(repr(number)))
    return number


def integral_as_int(value: Any) -> Any:
    """A JSON value with its integral numbers as ints, at any depth (``1.0`` as ``1``,
    ``1e23`` as ``10**23``, :func:`as_written`): what the runtime's ``_member`` makes of an
    enum or const member, and what the generated code hands on for an integral float where
    the contract says integer. ``value`` itself when nothing in it changes."""
    if type(value) is float:
        return int(as_written(value)) if value.is_integer() else value
    if isinstance(value, list):
        items = [integral_as_int(item) for item in value]
        return value if all(a is b for a, b in zip(items, value, strict=True)) else items
    if isinstance(value, dict):
        pairs = {key: integral_as_int(item) for key, item in value.items()}
        return value if all(pairs[key] is item for key, item in value.items()) else pairs
    return value


def is_integer(value: object) -> TypeGuard[int | float]:
    """JSON Schema's integer: 1.0 counts."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and value.is_integer())


def count_or(value: object, default: int) -> int:
    """A count keyword's value (minLength, maxItems, ...) as an int (2.0 means 2), or
    ``default`` when it is not an integer."""
    return int(value) if is_integer(value) else default


def count_at(schema: dict[str, Any], keyword: str, default: Any = 0) -> Any:
    """The count keyword ``keyword`` of a checked schema as an int (2.0 means 2), or
    ``default`` when the schema does not have it."""
    return int(schema[keyword]) if keyword in schema else default


def json_type(value: object) -> str:
    """The JSON type name of a loaded YAML value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "integer" if is_integer(value) else "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def type_allows(types: tuple[str, ...] | None, value: object) -> bool:
    """Whether a ``type`` keyword (None: absent) admits ``value``."""
    if types is None:
        return True
    kind = json_type(value)
    return kind in types or (kind == "integer" and "number" in types)


def json_equal(a: object, b: object) -> bool:
    """Equality as JSON means it: true is not 1, 1 is 1.0, containers compare deeply."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) and is_number(b):
        return as_written(a) == as_written(b)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(json_equal(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(json_equal(a[k], b[k]) for k in a)
    return type(a) is type(b) and a == b


def json_key(value: object) -> Hashable:
    """A hashable key with ``json_key(a) == json_key(b)`` exactly when ``json_equal(a, b)``, so
    that membership and duplicate checks over many values are one dict look-up each, not a
    comparison with every other value: 1 and 1.0 share a key, true and 1 do not, an object's keys are unordered, NaN equals nothing.

    A number's key is text (an integral one as the hex of the integer its decimal writes,
    ``as_written``, so 1e23 is 10**23; any other as its repr): CPython randomises the hashes of
    strings, not of ints, and a contract's chosen integers must not collide in one bucket."""
    if isinstance(value, bool):
        return ("bool", value)
    if is_number(value):
        if is_integer(value):
            return ("number", f"{int(as_written(value)):x}")
        return ("number", repr(value))
    if isinstance(value, float):  # infinities equal themselves; NaN equals nothing
        return ("float", value) if value == value else ("nan", object())
    if isinstance(value, list):
        return ("array", tuple(json_key(item) for item in value))
    if isinstance(value, dict):
        return ("object", frozenset((key, json_key(item)) for key, item in value.items()))
    if isinstance(value, Hashable):
        return (type(value).__name__, value)
    return ("unhashable", object())  # json_equal compares such values by ==: none reach here


#: The keys of the enum lists asked about lately, by identity (a contract's lists are not
#: changed once loaded); the list is kept with them, so its identity is not reused meanwhile.
_ENUM_KEYS: dict[int, tuple[list[object], frozenset[Hashable]]] = {}
_ENUM_KEYS_KEPT = 256


def enum_has(enum: list[object], value: object) -> bool:
    """Whether ``value`` is JSON-equal to a member of ``enum``: one look-up, once the list's keys
    are known (building them is linear in the list, once per list of scalars; a list holding
    arrays or objects, which someone could change in place, is read again at every call)."""
    known = _ENUM_KEYS.get(id(enum))
    if known is None or known[0] is not enum:
        keys = frozenset(json_key(member) for member in enum)
        if any(isinstance(member, (list, dict)) for member in enum):
            return json_key(value) in keys
        if len(_ENUM_KEYS) >= _ENUM_KEYS_KEPT:
            _ENUM_KEYS.clear()
        known = (enum, keys)
        _ENUM_KEYS[id(enum)] = known
    return json_key(value) in known[1]


def offered_values(schema: dict[str, Any], first: vocabulary.Value) -> list[Any]:
    """The values ``schema``'s annotations offer as expected ones (a default, the examples):
    those of the annotations taking the kind of value ``first`` ("value": one, "values": a
    list of them) before the others'; a list that is not one offers nothing."""
    found: list[Any] = []
    for name in sorted(_OFFERING, key=lambda n: vocabulary.keyword(n).value != first):
        if name not in schema:
            continue
        if vocabulary.keyword(name).value == "value":
            found.append(schema[name])
        elif isinstance(schema[name], list):
            found.extend(schema[name])
    return found


def unique_keys(items: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object from its key-value pairs (``json.loads``'s ``object_pairs_hook``), a
    key given twice refused (ValueError): JSON leaves it undefined, and Python's last-wins
    would let one reader see what another does not."""
    result: dict[str, Any] = {}
    for key, value in items:
        if key in result:
            raise ValueError(f"the key {key!r} appears twice in one object")
        result[key] = value
    return result
