"""A small, slow, obviously-correct evaluator of the contract semantics.

It is the oracle for the generated tests: the expected outcome of every case the
generator derives (a key dropped, a bound crossed, a type swapped) is computed
here, from the contract, independently of the generated module under test. It
follows the same rules the generated code promises (README, "Semantics"): a
value of the wrong type reports only ``type``; a string over ``maxLength`` is
not tried against ``pattern``; errors for a key point at the key.
"""

from __future__ import annotations

import re
from fractions import Fraction
from typing import Any

from .contract import is_integer, is_number, json_equal

Errors = set[tuple[str, str]]


def evaluate(schema: Any, instance: Any) -> Errors:
    """The set of ``(JSON Pointer, code)`` the contract's parameters report for ``instance``."""
    if not isinstance(instance, dict):
        return {("", "type")}
    errors: Errors = set()
    _value(schema, instance, "", errors)
    return errors


def _token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


def _has_type(kind: str, value: Any) -> bool:
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "object":
        return isinstance(value, dict)
    if kind == "array":
        return isinstance(value, list)
    if kind == "string":
        return isinstance(value, str)
    if kind == "integer":
        return is_integer(value) and is_number(value)
    return is_number(value)


def _value(schema: Any, value: Any, path: str, errors: Errors) -> None:
    if schema is True:
        return
    if schema is False:
        errors.add((path, "false"))
        return
    if "type" in schema:
        kinds = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_has_type(k, value) for k in kinds):
            errors.add((path, "type"))
            return
    if "enum" in schema and not any(json_equal(value, m) for m in schema["enum"]):
        errors.add((path, "enum"))
    if "const" in schema and not json_equal(value, schema["const"]):
        errors.add((path, "const"))
    if isinstance(value, str):
        _string(schema, value, path, errors)
    elif is_number(value):
        _number(schema, value, path, errors)
    elif isinstance(value, list):
        _array(schema, value, path, errors)
    elif isinstance(value, dict):
        _object(schema, value, path, errors)


def _string(schema: dict, value: str, path: str, errors: Errors) -> None:
    if len(value) < schema.get("minLength", 0):
        errors.add((path, "minLength"))
    too_long = "maxLength" in schema and len(value) > schema["maxLength"]
    if too_long:
        errors.add((path, "maxLength"))
    if "pattern" in schema and not too_long and re.search(schema["pattern"], value) is None:
        errors.add((path, "pattern"))


def _number(schema: dict, value: float, path: str, errors: Errors) -> None:
    if "minimum" in schema and value < schema["minimum"]:
        errors.add((path, "minimum"))
    if "maximum" in schema and value > schema["maximum"]:
        errors.add((path, "maximum"))
    if "exclusiveMinimum" in schema and value <= schema["exclusiveMinimum"]:
        errors.add((path, "exclusiveMinimum"))
    if "exclusiveMaximum" in schema and value >= schema["exclusiveMaximum"]:
        errors.add((path, "exclusiveMaximum"))
    if "multipleOf" in schema:
        quotient = _decimal(value) / _decimal(schema["multipleOf"])
        if quotient.denominator != 1:
            errors.add((path, "multipleOf"))


def _decimal(number: float) -> Fraction:
    """The number as written in decimal (shortest repr), exactly."""
    return Fraction(number) if isinstance(number, int) else Fraction(repr(float(number)))


def _array(schema: dict, value: list, path: str, errors: Errors) -> None:
    if len(value) < schema.get("minItems", 0):
        errors.add((path, "minItems"))
    if "maxItems" in schema and len(value) > schema["maxItems"]:
        errors.add((path, "maxItems"))
    if schema.get("uniqueItems") is True:
        if any(json_equal(a, b) for i, a in enumerate(value) for b in value[i + 1 :]):
            errors.add((path, "uniqueItems"))
    if "items" in schema:
        for i, item in enumerate(value):
            _value(schema["items"], item, f"{path}/{i}", errors)


def _object(schema: dict, value: dict, path: str, errors: Errors) -> None:
    properties = schema.get("properties", {})
    for key, sub in properties.items():
        if key in value:
            _value(sub, value[key], f"{path}/{_token(key)}", errors)
    for key in schema.get("required", []):
        if key not in value:
            errors.add((f"{path}/{_token(key)}", "required"))
    additional = schema.get("additionalProperties", True)
    for key, item in value.items():
        if key in properties:
            continue
        if additional is False:
            errors.add((f"{path}/{_token(key)}", "additionalProperties"))
        elif isinstance(additional, dict):
            _value(additional, item, f"{path}/{_token(key)}", errors)
    if len(value) < schema.get("minProperties", 0):
        errors.add((path, "minProperties"))
    if "maxProperties" in schema and len(value) > schema["maxProperties"]:
        errors.add((path, "maxProperties"))
