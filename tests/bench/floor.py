"""The hand-written floor: what a careful engineer writes by hand, in pure Python.

One ``validate_*`` and one ``parse_*`` per benchmark contract, returning the same
kind of result as a generated module (a small ``__slots__`` ``Result`` holding a
tuple of ``__slots__`` ``Error`` objects, one message per error, every error
collected, at most ``MAX_ERRORS``), with the same semantics as the contract:

* the value must be a JSON object: null and array are told apart first (their
  messages differ), then anything that is not a ``dict``;
* key presence is tested with ``in`` (a missing key and a null value differ);
* ``bool`` is never a number; ``integer`` admits 3.0, ``number`` refuses NaN and
  infinities;
* unknown keys are found by counting the declared keys that are present;
* ``"\\S"`` (non-blank) fails when stripping the ECMA-262 whitespace (what
  ``\\s`` means in JSON Schema) leaves nothing; other patterns use ``re``.

Every error message is the generated module's, word for word (run.py checks
path, code and message on every input and derived case): the hints a type
error adds (null sent for an optional key, a number or literal in quotes), the
"did you mean" suggestion of enums and unknown keys, the list of allowed keys.
Error-message construction is part of both, so both build the same strings.

This is the bar the generated code must meet, so it is written to be fast, not
slow on purpose: checks are inline (no helper call per property), messages are
constants where they can be (a type error concatenates what the bad value is; a
suggestion looks the folded value up in a table built at import), and paths
below the top level are built only when an error is reported.

``parse_*`` is a strict ``json`` decode (duplicate keys refused through
``object_pairs_hook``, NaN and Infinity through ``parse_constant``) followed by
the hand-written check.
"""

from __future__ import annotations

import importlib.util
import json
import re
from math import isfinite
from typing import Any

# The "did you mean" suggestion (edit distance and prefixes) and the plain sentence for text
# json refuses are the generated modules' shared ones, used on the refusal paths only: the floor
# says the same, word for word, and is timed on the same work.
from generated._runtime import _did_you_mean, _refusal

MAX_ERRORS = 100
ACCEPT = "accept"
REJECT = "reject"
PARSE_ERROR = "parse_error"

_UNREADABLE = "the arguments could not be read as JSON data (a Python object raised an error)"
_NOT_AN_OBJECT = "the arguments must be a JSON object (keys and values in {...}), got "
_NULL_ARGUMENTS = "the arguments must be a JSON object, not null (send {} for no arguments)"
_ARRAY_ARGUMENTS = "the arguments must be one JSON object, not an array"
_NULL_GOT = "null (if the key is optional, leave it out instead of sending null)"
#: What \\s matches in JSON Schema (ECMA-262) patterns: "\\S" fails when only these are left.
_WHITESPACE = (
    "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
    "\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
)


class Error:
    __slots__ = ("code", "message", "path")

    def __init__(self, path: str, code: str, message: str) -> None:
        self.path = path
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"Error({self.path!r}, {self.code!r}, {self.message!r})"


class Result:
    __slots__ = ("errors", "status", "value")

    def __init__(self, status: str, value: Any, errors: tuple[Error, ...]) -> None:
        self.status = status
        self.value = value
        self.errors = errors

    @property
    def ok(self) -> bool:
        return self.status == ACCEPT

    def __repr__(self) -> str:
        return f"Result({self.status!r}, {list(self.errors)!r})"


# -- helpers: only ever called on the error path --------------------------------


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if value is True or value is False:
        return "a boolean"
    if type(value) is int or (type(value) is float and value.is_integer()):
        return "an integer"
    if type(value) is float:
        return "a number" if isfinite(value) else "a non-finite number (not JSON)"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return f"a Python {type(value).__name__} (not a JSON value)"


def _got(value: object) -> str:
    if value is None:
        return _NULL_GOT
    if type(value) is str:
        return "a string" + _quoted_hint(value)
    return _json_type(value)


_REQUIRED_NULL_GOT = "null (the key is required: send it with a value of the right type, not null)"


def _got_required(value: object) -> str:
    """_got for a required key: a null there cannot be avoided by leaving the key out."""
    return _REQUIRED_NULL_GOT if value is None else _got(value)


def _got_json(value: object, required: bool = False) -> str:
    """_got where an object or array is wanted: a string holding one gets its own hint."""
    if type(value) is str:
        text = value.strip()
        for kind, first, last in (("object", "{", "}"), ("array", "[", "]")):
            if text[:1] == first and text[-1:] == last:
                return f"a string holding a JSON {kind} (send the {kind} itself, not a string holding JSON)"
    return _got_required(value) if required else _got(value)


def _quoted_hint(value: str) -> str:
    if len(value) > 40:
        return ""
    stripped = value.strip()
    if stripped in ("true", "false", "null"):
        return f" (the word {stripped} in quotes: send {stripped} without quotes)"
    try:
        float(stripped)
    except ValueError:
        return ""
    if stripped.lower().lstrip("+-") in ("nan", "inf", "infinity"):
        return ""
    return " (a number written as a string: send the number without quotes)"


def _not_an_object(value: object, null_message: str = _NULL_ARGUMENTS) -> Result:
    if value is None:
        message = null_message
    elif isinstance(value, list):
        message = _ARRAY_ARGUMENTS
    else:
        message = _NOT_AN_OBJECT + _json_type(value)
    return Result(REJECT, value, (Error("", "type", message),))


_quote = json.encoder.encode_basestring  # json.dumps(s, ensure_ascii=False) at C speed


def _unknown_keys(
    obj: dict[str, Any],
    known: frozenset[Any],
    prefix: str,
    rest: str,
    errors: list[Any],
) -> None:
    """rest: ' is not allowed in <where>; allowed keys: <the keys>' (a constant)."""
    for key in obj:
        if key not in known:
            token = str(key).replace("~", "~0").replace("/", "~1")
            shown = _quote(str(key))
            if len(shown) > 60:
                shown = shown[:56] + '..."'
            errors.append(
                Error(
                    prefix + token,
                    "additionalProperties",
                    "unknown key " + shown + rest + _did_you_mean(key, known),
                )
            )
            if len(errors) >= MAX_ERRORS:
                return


def _unreadable(value: object) -> Result:
    return Result(REJECT, value, (Error("", "unreadable", _UNREADABLE),))


def _done(value: object, errors: list[Any]) -> Result:
    if errors:
        return Result(
            REJECT,
            value,
            tuple(errors) if len(errors) <= MAX_ERRORS else tuple(errors[:MAX_ERRORS]),
        )
    return Result(ACCEPT, value, ())


# -- strict JSON ------------------------------------------------------------------


class _Refused(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


def _pairs(pairs: list[Any]) -> dict[str, Any]:
    obj = dict(pairs)
    if len(obj) != len(pairs):
        raise _Refused("duplicate_key", "a key appears twice in one object")
    return obj


def _constant(name: str) -> Any:
    raise _Refused("non_finite", f"{name} is not a JSON number")


_DECODER = json.JSONDecoder(object_pairs_hook=_pairs, parse_constant=_constant)
_decode = _DECODER.decode


def _parse_error(text: str, exc: ValueError) -> Result:
    if isinstance(exc, _Refused) and exc.code == "duplicate_key":
        return Result(PARSE_ERROR, None, (Error("", exc.code, str(exc)),))
    # What json refused, said in the generated modules' own words and place (the same
    # sentence for each common mistake: a leading zero, a stray bracket, cut-off text, ...).
    explained = _refusal(text, exc)
    return Result(PARSE_ERROR, None, (Error("", explained.code, explained.message),))


# == get_weather ==================================================================

_WEATHER_KEYS = frozenset({"city", "unit"})
_UNITS = frozenset({"c", "f"})
_WEATHER_REST = ' is not allowed in the arguments; allowed keys: "city", "unit"'
_WEATHER_NULL = (
    'the arguments must be a JSON object, not null; the required keys are "city", "unit"'
)


def validate_get_weather(value: object) -> Result:
    if value is None or isinstance(value, list) or not isinstance(value, dict):
        return _not_an_object(value, _WEATHER_NULL)
    errors: list[Error] = []
    try:
        present = 0
        if "city" in value:
            present += 1
            city = value["city"]
            if isinstance(city, str):
                if not city:
                    errors.append(
                        Error("/city", "minLength", '"city" must be at least 1 character long')
                    )
                    errors.append(Error("/city", "pattern", '"city" must match the pattern \\S'))
                elif not city.strip(_WHITESPACE):
                    errors.append(Error("/city", "pattern", '"city" must match the pattern \\S'))
            else:
                errors.append(
                    Error("/city", "type", '"city" must be a string, got ' + _got_required(city))
                )
        else:
            errors.append(Error("/city", "required", 'missing required key "city"'))
        if "unit" in value:
            present += 1
            unit = value["unit"]
            if isinstance(unit, str):
                if unit not in _UNITS:
                    errors.append(
                        Error(
                            "/unit",
                            "enum",
                            '"unit" must be one of: "c", "f"' + _did_you_mean(unit, _UNITS),
                        )
                    )
            else:
                errors.append(
                    Error("/unit", "type", '"unit" must be a string, got ' + _got_required(unit))
                )
        else:
            errors.append(Error("/unit", "required", 'missing required key "unit"'))
        if len(value) != present:
            _unknown_keys(value, _WEATHER_KEYS, "/", _WEATHER_REST, errors)
    except Exception:  # noqa: BLE001 - as in the generated module: a value that raises is unreadable
        return _unreadable(value)
    if errors:
        return Result(
            REJECT,
            value,
            tuple(errors) if len(errors) <= MAX_ERRORS else tuple(errors[:MAX_ERRORS]),
        )
    return Result(ACCEPT, value, ())


def parse_get_weather(text: str) -> Result:
    try:
        value = _decode(text)
    except ValueError as exc:
        return _parse_error(text, exc)
    return validate_get_weather(value)


# == large_order (tests/bench/contracts/large_order.yaml) ============================

_ORDER_KEYS = frozenset(
    {
        "customer_id",
        "email",
        "channel",
        "currency",
        "items",
        "shipping_address",
        "billing_same_as_shipping",
        "shipping_method",
        "priority",
        "discount_percent",
        "coupon_code",
        "gift_message",
        "requested_delivery_date",
        "tip_amount",
        "loyalty_points_to_use",
        "newsletter_opt_in",
        "tags",
        "payment_method",
        "payment_token",
        "invoice_reference",
        "locale",
        "notes",
        "max_total",
        "split_shipment",
        "contact_phone",
    }
)
_LINE_KEYS = frozenset({"sku", "quantity", "unit_price", "gift_wrap", "note"})
_ADDRESS_KEYS = frozenset({"name", "line1", "line2", "city", "postal_code", "country"})
_CHANNELS = frozenset({"web", "app", "phone", "chat"})
_CURRENCIES = frozenset({"EUR", "USD", "GBP", "CHF", "SEK"})
_SHIPPING_METHODS = frozenset({"standard", "express", "overnight", "pickup"})
_PAYMENT_METHODS = frozenset({"card", "paypal", "invoice", "bank_transfer"})
_ORDER_REST = (
    ' is not allowed in the arguments; allowed keys: "customer_id", "email", "channel", "currency", "items", '
    '"shipping_address", "billing_same_as_shipping", "shipping_method", "priority", "discount_percent", '
    '"coupon_code", "gift_message", "requested_delivery_date", "tip_amount", "loyalty_points_to_use", '
    '"newsletter_opt_in", "tags", "payment_method", "payment_token", "invoice_reference", "locale", "notes", '
    '"max_total", "split_shipment", "contact_phone"'
)
_LINE_REST = ' is not allowed in each item of "items"; allowed keys: "sku", "quantity", "unit_price", "gift_wrap", "note"'
_ADDRESS_REST = ' is not allowed in "shipping_address"; allowed keys: "name", "line1", "line2", "city", "postal_code", "country"'
_CUSTOMER_ID = re.compile(r"^C[0-9]{6}$")
_EMAIL = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")
_SKU = re.compile(r"^[A-Z0-9-]{4,20}$")
_POSTAL_CODE = re.compile(r"^[A-Za-z0-9 -]{3,10}$")
_COUNTRY = re.compile(r"^[A-Z]{2}$")
_COUPON = re.compile(r"^[A-Z0-9]+$")
_DATE = re.compile(r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
_LOCALE = re.compile(r"^[a-z]{2}(-[A-Z]{2})?$")
_PHONE = re.compile(r"^\+[1-9][0-9]{6,14}$")


_ORDER_NULL = (
    "the arguments must be a JSON object, not null; the required keys are "
    '"customer_id", "email", "currency", "items", "shipping_address", "shipping_method", '
    '"payment_method"'
)


def validate_large_order(value: object) -> Result:
    if value is None or isinstance(value, list) or not isinstance(value, dict):
        return _not_an_object(value, _ORDER_NULL)
    errors: list[Error] = []
    try:
        present = 0
        # customer_id: required string, pattern
        if "customer_id" in value:
            present += 1
            v = value["customer_id"]
            if isinstance(v, str):
                if _CUSTOMER_ID.search(v) is None:
                    errors.append(
                        Error(
                            "/customer_id",
                            "pattern",
                            '"customer_id" must match the pattern ^C[0-9]{6}$',
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/customer_id",
                        "type",
                        '"customer_id" must be a string, got ' + _got_required(v),
                    )
                )
        else:
            errors.append(Error("/customer_id", "required", 'missing required key "customer_id"'))
        # email: required string, maxLength 254, pattern
        if "email" in value:
            present += 1
            v = value["email"]
            if isinstance(v, str):
                if len(v) > 254:
                    errors.append(
                        Error("/email", "maxLength", '"email" must be at most 254 characters long')
                    )
                elif _EMAIL.search(v) is None:
                    errors.append(
                        Error(
                            "/email",
                            "pattern",
                            '"email" must match the pattern ^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$',
                        )
                    )
            else:
                errors.append(
                    Error("/email", "type", '"email" must be a string, got ' + _got_required(v))
                )
        else:
            errors.append(Error("/email", "required", 'missing required key "email"'))
        # channel: optional enum
        if "channel" in value:
            present += 1
            v = value["channel"]
            if isinstance(v, str):
                if v not in _CHANNELS:
                    errors.append(
                        Error(
                            "/channel",
                            "enum",
                            '"channel" must be one of: "web", "app", "phone", "chat"'
                            + _did_you_mean(v, _CHANNELS),
                        )
                    )
            else:
                errors.append(
                    Error("/channel", "type", '"channel" must be a string, got ' + _got(v))
                )
        # currency: required enum
        if "currency" in value:
            present += 1
            v = value["currency"]
            if isinstance(v, str):
                if v not in _CURRENCIES:
                    errors.append(
                        Error(
                            "/currency",
                            "enum",
                            '"currency" must be one of: "EUR", "USD", "GBP", "CHF", "SEK"'
                            + _did_you_mean(v, _CURRENCIES),
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/currency", "type", '"currency" must be a string, got ' + _got_required(v)
                    )
                )
        else:
            errors.append(Error("/currency", "required", 'missing required key "currency"'))
        # items: required array of order lines, 1..50
        if "items" in value:
            present += 1
            items = value["items"]
            if isinstance(items, list):
                if not items:
                    errors.append(Error("/items", "minItems", '"items" must have at least 1 item'))
                elif len(items) > 50:
                    errors.append(Error("/items", "maxItems", '"items" must have at most 50 items'))
                for i, line in enumerate(items):
                    if isinstance(line, dict):
                        known = 0
                        if "sku" in line:
                            known += 1
                            v = line["sku"]
                            if isinstance(v, str):
                                if _SKU.search(v) is None:
                                    errors.append(
                                        Error(
                                            f"/items/{i}/sku",
                                            "pattern",
                                            '"sku" must match the pattern ^[A-Z0-9-]{4,20}$',
                                        )
                                    )
                            else:
                                errors.append(
                                    Error(
                                        f"/items/{i}/sku",
                                        "type",
                                        '"sku" must be a string, got ' + _got_required(v),
                                    )
                                )
                        else:
                            errors.append(
                                Error(f"/items/{i}/sku", "required", 'missing required key "sku"')
                            )
                        if "quantity" in line:
                            known += 1
                            v = line["quantity"]
                            t = type(v)
                            if t is int or (t is float and v.is_integer()):
                                if v < 1:
                                    errors.append(
                                        Error(
                                            f"/items/{i}/quantity",
                                            "minimum",
                                            '"quantity" must be at least 1',
                                        )
                                    )
                                elif v > 999:
                                    errors.append(
                                        Error(
                                            f"/items/{i}/quantity",
                                            "maximum",
                                            '"quantity" must be at most 999',
                                        )
                                    )
                            else:
                                errors.append(
                                    Error(
                                        f"/items/{i}/quantity",
                                        "type",
                                        '"quantity" must be an integer, got ' + _got_required(v),
                                    )
                                )
                        else:
                            errors.append(
                                Error(
                                    f"/items/{i}/quantity",
                                    "required",
                                    'missing required key "quantity"',
                                )
                            )
                        if "unit_price" in line:
                            known += 1
                            v = line["unit_price"]
                            t = type(v)
                            if t is int or (t is float and isfinite(v)):
                                if v <= 0:
                                    errors.append(
                                        Error(
                                            f"/items/{i}/unit_price",
                                            "exclusiveMinimum",
                                            '"unit_price" must be greater than 0',
                                        )
                                    )
                                elif v > 100000:
                                    errors.append(
                                        Error(
                                            f"/items/{i}/unit_price",
                                            "maximum",
                                            '"unit_price" must be at most 100000',
                                        )
                                    )
                            else:
                                errors.append(
                                    Error(
                                        f"/items/{i}/unit_price",
                                        "type",
                                        '"unit_price" must be a number, got ' + _got_required(v),
                                    )
                                )
                        else:
                            errors.append(
                                Error(
                                    f"/items/{i}/unit_price",
                                    "required",
                                    'missing required key "unit_price"',
                                )
                            )
                        if "gift_wrap" in line:
                            known += 1
                            v = line["gift_wrap"]
                            if v is not True and v is not False:
                                errors.append(
                                    Error(
                                        f"/items/{i}/gift_wrap",
                                        "type",
                                        '"gift_wrap" must be a boolean, got ' + _got(v),
                                    )
                                )
                        if "note" in line:
                            known += 1
                            v = line["note"]
                            if isinstance(v, str):
                                if len(v) > 200:
                                    errors.append(
                                        Error(
                                            f"/items/{i}/note",
                                            "maxLength",
                                            '"note" must be at most 200 characters long',
                                        )
                                    )
                            elif v is not None:
                                errors.append(
                                    Error(
                                        f"/items/{i}/note",
                                        "type",
                                        '"note" must be a string or null, got ' + _got(v),
                                    )
                                )
                        if len(line) != known:
                            _unknown_keys(line, _LINE_KEYS, f"/items/{i}/", _LINE_REST, errors)
                    else:
                        errors.append(
                            Error(
                                f"/items/{i}",
                                "type",
                                'each item of "items" must be an object, got ' + _got_json(line),
                            )
                        )
            else:
                errors.append(
                    Error(
                        "/items",
                        "type",
                        '"items" must be an array, got ' + _got_json(items, required=True),
                    )
                )
        else:
            errors.append(Error("/items", "required", 'missing required key "items"'))
        # shipping_address: required object
        if "shipping_address" in value:
            present += 1
            address = value["shipping_address"]
            if isinstance(address, dict):
                known = 0
                if "name" in address:
                    known += 1
                    v = address["name"]
                    if isinstance(v, str):
                        if not v:
                            errors.append(
                                Error(
                                    "/shipping_address/name",
                                    "minLength",
                                    '"name" must be at least 1 character long',
                                )
                            )
                        elif len(v) > 100:
                            errors.append(
                                Error(
                                    "/shipping_address/name",
                                    "maxLength",
                                    '"name" must be at most 100 characters long',
                                )
                            )
                    else:
                        errors.append(
                            Error(
                                "/shipping_address/name",
                                "type",
                                '"name" must be a string, got ' + _got_required(v),
                            )
                        )
                else:
                    errors.append(
                        Error("/shipping_address/name", "required", 'missing required key "name"')
                    )
                if "line1" in address:
                    known += 1
                    v = address["line1"]
                    if isinstance(v, str):
                        if not v:
                            errors.append(
                                Error(
                                    "/shipping_address/line1",
                                    "minLength",
                                    '"line1" must be at least 1 character long',
                                )
                            )
                        elif len(v) > 200:
                            errors.append(
                                Error(
                                    "/shipping_address/line1",
                                    "maxLength",
                                    '"line1" must be at most 200 characters long',
                                )
                            )
                    else:
                        errors.append(
                            Error(
                                "/shipping_address/line1",
                                "type",
                                '"line1" must be a string, got ' + _got_required(v),
                            )
                        )
                else:
                    errors.append(
                        Error("/shipping_address/line1", "required", 'missing required key "line1"')
                    )
                if "line2" in address:
                    known += 1
                    v = address["line2"]
                    if isinstance(v, str):
                        if len(v) > 200:
                            errors.append(
                                Error(
                                    "/shipping_address/line2",
                                    "maxLength",
                                    '"line2" must be at most 200 characters long',
                                )
                            )
                    elif v is not None:
                        errors.append(
                            Error(
                                "/shipping_address/line2",
                                "type",
                                '"line2" must be a string or null, got ' + _got(v),
                            )
                        )
                if "city" in address:
                    known += 1
                    v = address["city"]
                    if isinstance(v, str):
                        if not v:
                            errors.append(
                                Error(
                                    "/shipping_address/city",
                                    "minLength",
                                    '"city" must be at least 1 character long',
                                )
                            )
                        elif len(v) > 100:
                            errors.append(
                                Error(
                                    "/shipping_address/city",
                                    "maxLength",
                                    '"city" must be at most 100 characters long',
                                )
                            )
                    else:
                        errors.append(
                            Error(
                                "/shipping_address/city",
                                "type",
                                '"city" must be a string, got ' + _got_required(v),
                            )
                        )
                else:
                    errors.append(
                        Error("/shipping_address/city", "required", 'missing required key "city"')
                    )
                if "postal_code" in address:
                    known += 1
                    v = address["postal_code"]
                    if isinstance(v, str):
                        if _POSTAL_CODE.search(v) is None:
                            errors.append(
                                Error(
                                    "/shipping_address/postal_code",
                                    "pattern",
                                    '"postal_code" must match the pattern ^[A-Za-z0-9 -]{3,10}$',
                                )
                            )
                    else:
                        errors.append(
                            Error(
                                "/shipping_address/postal_code",
                                "type",
                                '"postal_code" must be a string, got ' + _got_required(v),
                            )
                        )
                else:
                    errors.append(
                        Error(
                            "/shipping_address/postal_code",
                            "required",
                            'missing required key "postal_code"',
                        )
                    )
                if "country" in address:
                    known += 1
                    v = address["country"]
                    if isinstance(v, str):
                        if _COUNTRY.search(v) is None:
                            errors.append(
                                Error(
                                    "/shipping_address/country",
                                    "pattern",
                                    '"country" must match the pattern ^[A-Z]{2}$',
                                )
                            )
                    else:
                        errors.append(
                            Error(
                                "/shipping_address/country",
                                "type",
                                '"country" must be a string, got ' + _got_required(v),
                            )
                        )
                else:
                    errors.append(
                        Error(
                            "/shipping_address/country",
                            "required",
                            'missing required key "country"',
                        )
                    )
                if len(address) != known:
                    _unknown_keys(
                        address,
                        _ADDRESS_KEYS,
                        "/shipping_address/",
                        _ADDRESS_REST,
                        errors,
                    )
            else:
                errors.append(
                    Error(
                        "/shipping_address",
                        "type",
                        '"shipping_address" must be an object, got '
                        + _got_json(address, required=True),
                    )
                )
        else:
            errors.append(
                Error("/shipping_address", "required", 'missing required key "shipping_address"')
            )
        # billing_same_as_shipping: optional boolean
        if "billing_same_as_shipping" in value:
            present += 1
            v = value["billing_same_as_shipping"]
            if v is not True and v is not False:
                errors.append(
                    Error(
                        "/billing_same_as_shipping",
                        "type",
                        '"billing_same_as_shipping" must be a boolean, got ' + _got(v),
                    )
                )
        # shipping_method: required enum
        if "shipping_method" in value:
            present += 1
            v = value["shipping_method"]
            if isinstance(v, str):
                if v not in _SHIPPING_METHODS:
                    errors.append(
                        Error(
                            "/shipping_method",
                            "enum",
                            '"shipping_method" must be one of: "standard", "express", "overnight", "pickup"'
                            + _did_you_mean(v, _SHIPPING_METHODS),
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/shipping_method",
                        "type",
                        '"shipping_method" must be a string, got ' + _got_required(v),
                    )
                )
        else:
            errors.append(
                Error("/shipping_method", "required", 'missing required key "shipping_method"')
            )
        # priority: optional integer 1..5
        if "priority" in value:
            present += 1
            v = value["priority"]
            t = type(v)
            if t is int or (t is float and v.is_integer()):
                if v < 1:
                    errors.append(Error("/priority", "minimum", '"priority" must be at least 1'))
                elif v > 5:
                    errors.append(Error("/priority", "maximum", '"priority" must be at most 5'))
            else:
                errors.append(
                    Error("/priority", "type", '"priority" must be an integer, got ' + _got(v))
                )
        # discount_percent: optional number 0..100
        if "discount_percent" in value:
            present += 1
            v = value["discount_percent"]
            t = type(v)
            if t is int or (t is float and isfinite(v)):
                if v < 0:
                    errors.append(
                        Error(
                            "/discount_percent", "minimum", '"discount_percent" must be at least 0'
                        )
                    )
                elif v > 100:
                    errors.append(
                        Error(
                            "/discount_percent", "maximum", '"discount_percent" must be at most 100'
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/discount_percent",
                        "type",
                        '"discount_percent" must be a number, got ' + _got(v),
                    )
                )
        # coupon_code: optional string or null, maxLength 32, pattern
        if "coupon_code" in value:
            present += 1
            v = value["coupon_code"]
            if isinstance(v, str):
                if len(v) > 32:
                    errors.append(
                        Error(
                            "/coupon_code",
                            "maxLength",
                            '"coupon_code" must be at most 32 characters long',
                        )
                    )
                elif _COUPON.search(v) is None:
                    errors.append(
                        Error(
                            "/coupon_code",
                            "pattern",
                            '"coupon_code" must match the pattern ^[A-Z0-9]+$',
                        )
                    )
            elif v is not None:
                errors.append(
                    Error(
                        "/coupon_code",
                        "type",
                        '"coupon_code" must be a string or null, got ' + _got(v),
                    )
                )
        # gift_message: optional string, maxLength 500
        if "gift_message" in value:
            present += 1
            v = value["gift_message"]
            if isinstance(v, str):
                if len(v) > 500:
                    errors.append(
                        Error(
                            "/gift_message",
                            "maxLength",
                            '"gift_message" must be at most 500 characters long',
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/gift_message", "type", '"gift_message" must be a string, got ' + _got(v)
                    )
                )
        # requested_delivery_date: optional string, pattern
        if "requested_delivery_date" in value:
            present += 1
            v = value["requested_delivery_date"]
            if isinstance(v, str):
                if _DATE.search(v) is None:
                    errors.append(
                        Error(
                            "/requested_delivery_date",
                            "pattern",
                            '"requested_delivery_date" must match the pattern ^[0-9]{4}-[0-9]{2}-[0-9]{2}$',
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/requested_delivery_date",
                        "type",
                        '"requested_delivery_date" must be a string, got ' + _got(v),
                    )
                )
        # tip_amount: optional number 0..1000
        if "tip_amount" in value:
            present += 1
            v = value["tip_amount"]
            t = type(v)
            if t is int or (t is float and isfinite(v)):
                if v < 0:
                    errors.append(
                        Error("/tip_amount", "minimum", '"tip_amount" must be at least 0')
                    )
                elif v > 1000:
                    errors.append(
                        Error("/tip_amount", "maximum", '"tip_amount" must be at most 1000')
                    )
            else:
                errors.append(
                    Error("/tip_amount", "type", '"tip_amount" must be a number, got ' + _got(v))
                )
        # loyalty_points_to_use: optional integer 0..1000000
        if "loyalty_points_to_use" in value:
            present += 1
            v = value["loyalty_points_to_use"]
            t = type(v)
            if t is int or (t is float and v.is_integer()):
                if v < 0:
                    errors.append(
                        Error(
                            "/loyalty_points_to_use",
                            "minimum",
                            '"loyalty_points_to_use" must be at least 0',
                        )
                    )
                elif v > 1000000:
                    errors.append(
                        Error(
                            "/loyalty_points_to_use",
                            "maximum",
                            '"loyalty_points_to_use" must be at most 1000000',
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/loyalty_points_to_use",
                        "type",
                        '"loyalty_points_to_use" must be an integer, got ' + _got(v),
                    )
                )
        # newsletter_opt_in: optional boolean
        if "newsletter_opt_in" in value:
            present += 1
            v = value["newsletter_opt_in"]
            if v is not True and v is not False:
                errors.append(
                    Error(
                        "/newsletter_opt_in",
                        "type",
                        '"newsletter_opt_in" must be a boolean, got ' + _got(v),
                    )
                )
        # tags: optional array of 1..32-character strings, at most 10
        if "tags" in value:
            present += 1
            tags = value["tags"]
            if isinstance(tags, list):
                if len(tags) > 10:
                    errors.append(Error("/tags", "maxItems", '"tags" must have at most 10 items'))
                for i, tag in enumerate(tags):
                    if isinstance(tag, str):
                        if not tag:
                            errors.append(
                                Error(
                                    f"/tags/{i}",
                                    "minLength",
                                    'each item of "tags" must be at least 1 character long',
                                )
                            )
                        elif len(tag) > 32:
                            errors.append(
                                Error(
                                    f"/tags/{i}",
                                    "maxLength",
                                    'each item of "tags" must be at most 32 characters long',
                                )
                            )
                    else:
                        errors.append(
                            Error(
                                f"/tags/{i}",
                                "type",
                                'each item of "tags" must be a string, got ' + _got(tag),
                            )
                        )
            else:
                errors.append(
                    Error("/tags", "type", '"tags" must be an array, got ' + _got_json(tags))
                )
        # payment_method: required enum
        if "payment_method" in value:
            present += 1
            v = value["payment_method"]
            if isinstance(v, str):
                if v not in _PAYMENT_METHODS:
                    errors.append(
                        Error(
                            "/payment_method",
                            "enum",
                            '"payment_method" must be one of: "card", "paypal", "invoice", "bank_transfer"'
                            + _did_you_mean(v, _PAYMENT_METHODS),
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/payment_method",
                        "type",
                        '"payment_method" must be a string, got ' + _got_required(v),
                    )
                )
        else:
            errors.append(
                Error("/payment_method", "required", 'missing required key "payment_method"')
            )
        # payment_token: optional string 8..128 (sensitive: never echoed)
        if "payment_token" in value:
            present += 1
            v = value["payment_token"]
            if isinstance(v, str):
                if len(v) < 8:
                    errors.append(
                        Error(
                            "/payment_token",
                            "minLength",
                            '"payment_token" must be at least 8 characters long',
                        )
                    )
                elif len(v) > 128:
                    errors.append(
                        Error(
                            "/payment_token",
                            "maxLength",
                            '"payment_token" must be at most 128 characters long',
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/payment_token",
                        "type",
                        '"payment_token" must be a string, got ' + _json_type(v),
                    )
                )
        # invoice_reference: optional string or null, maxLength 64
        if "invoice_reference" in value:
            present += 1
            v = value["invoice_reference"]
            if isinstance(v, str):
                if len(v) > 64:
                    errors.append(
                        Error(
                            "/invoice_reference",
                            "maxLength",
                            '"invoice_reference" must be at most 64 characters long',
                        )
                    )
            elif v is not None:
                errors.append(
                    Error(
                        "/invoice_reference",
                        "type",
                        '"invoice_reference" must be a string or null, got ' + _got(v),
                    )
                )
        # locale: optional string, pattern
        if "locale" in value:
            present += 1
            v = value["locale"]
            if isinstance(v, str):
                if _LOCALE.search(v) is None:
                    errors.append(
                        Error(
                            "/locale",
                            "pattern",
                            '"locale" must match the pattern ^[a-z]{2}(-[A-Z]{2})?$',
                        )
                    )
            else:
                errors.append(Error("/locale", "type", '"locale" must be a string, got ' + _got(v)))
        # notes: optional string, maxLength 1000
        if "notes" in value:
            present += 1
            v = value["notes"]
            if isinstance(v, str):
                if len(v) > 1000:
                    errors.append(
                        Error("/notes", "maxLength", '"notes" must be at most 1000 characters long')
                    )
            else:
                errors.append(Error("/notes", "type", '"notes" must be a string, got ' + _got(v)))
        # max_total: optional number > 0
        if "max_total" in value:
            present += 1
            v = value["max_total"]
            t = type(v)
            if t is int or (t is float and isfinite(v)):
                if v <= 0:
                    errors.append(
                        Error(
                            "/max_total", "exclusiveMinimum", '"max_total" must be greater than 0'
                        )
                    )
            else:
                errors.append(
                    Error("/max_total", "type", '"max_total" must be a number, got ' + _got(v))
                )
        # split_shipment: optional boolean
        if "split_shipment" in value:
            present += 1
            v = value["split_shipment"]
            if v is not True and v is not False:
                errors.append(
                    Error(
                        "/split_shipment",
                        "type",
                        '"split_shipment" must be a boolean, got ' + _got(v),
                    )
                )
        # contact_phone: optional string, pattern
        if "contact_phone" in value:
            present += 1
            v = value["contact_phone"]
            if isinstance(v, str):
                if _PHONE.search(v) is None:
                    errors.append(
                        Error(
                            "/contact_phone",
                            "pattern",
                            '"contact_phone" must match the pattern ^\\+[1-9][0-9]{6,14}$',
                        )
                    )
            else:
                errors.append(
                    Error(
                        "/contact_phone", "type", '"contact_phone" must be a string, got ' + _got(v)
                    )
                )
        # no other keys
        if len(value) != present:
            _unknown_keys(value, _ORDER_KEYS, "/", _ORDER_REST, errors)
    except Exception:  # noqa: BLE001 - as in the generated module: a value that raises is unreadable
        return _unreadable(value)
    if errors:
        return Result(
            REJECT,
            value,
            tuple(errors) if len(errors) <= MAX_ERRORS else tuple(errors[:MAX_ERRORS]),
        )
    return Result(ACCEPT, value, ())


def parse_large_order(text: str) -> Result:
    try:
        value = _decode(text)
    except ValueError as exc:
        return _parse_error(text, exc)
    return validate_large_order(value)


# == convert_time's result (tests/bench/contracts/convert_time.yaml) ====================
#
# The result of the reference time server's convert_time: two TimeResult objects and a
# string. The result's own messages (worded for the tool's developer); the shared TimeResult
# is checked by one function, as anyone writing it by hand would.

_RESULT_UNREADABLE = "the result could not be read as JSON data (a Python object raised an error)"
_RESULT_NOT_AN_OBJECT = "the result must be a JSON object (keys and values in {...}), got "
_RESULT_ARRAY = "the result must be one JSON object, not an array"
_RESULT_NULL = (
    "the result must be a JSON object, not null; "
    'the required keys are "source", "target", "time_difference"'
)


def _check_time_result(value: Any, path: str, errors: list[Error], label: str) -> None:
    if not isinstance(value, dict):
        errors.append(
            Error(
                path, "type", label + " must be an object, got " + _got_json(value, required=True)
            )
        )
        return
    if "timezone" in value:
        v = value["timezone"]
        if not isinstance(v, str):
            errors.append(
                Error(
                    path + "/timezone",
                    "type",
                    '"timezone" must be a string, got ' + _got_required(v),
                )
            )
    else:
        errors.append(Error(path + "/timezone", "required", 'missing required key "timezone"'))
    if "datetime" in value:
        v = value["datetime"]
        if not isinstance(v, str):
            errors.append(
                Error(
                    path + "/datetime",
                    "type",
                    '"datetime" must be a string, got ' + _got_required(v),
                )
            )
    else:
        errors.append(Error(path + "/datetime", "required", 'missing required key "datetime"'))
    if "day_of_week" in value:
        v = value["day_of_week"]
        if not isinstance(v, str):
            errors.append(
                Error(
                    path + "/day_of_week",
                    "type",
                    '"day_of_week" must be a string, got ' + _got_required(v),
                )
            )
    else:
        errors.append(
            Error(path + "/day_of_week", "required", 'missing required key "day_of_week"')
        )
    if "is_dst" in value:
        v = value["is_dst"]
        if v is not True and v is not False:
            errors.append(
                Error(
                    path + "/is_dst", "type", '"is_dst" must be a boolean, got ' + _got_required(v)
                )
            )
    else:
        errors.append(Error(path + "/is_dst", "required", 'missing required key "is_dst"'))


def validate_convert_time_result(value: object) -> Result:
    if not isinstance(value, dict):
        if value is None:
            message = _RESULT_NULL
        elif isinstance(value, list):
            message = _RESULT_ARRAY
        else:
            message = _RESULT_NOT_AN_OBJECT + _json_type(value)
        return Result(REJECT, value, (Error("", "type", message),))
    errors: list[Error] = []
    try:
        if "source" in value:
            _check_time_result(value["source"], "/source", errors, '"source"')
        else:
            errors.append(Error("/source", "required", 'missing required key "source"'))
        if "target" in value:
            _check_time_result(value["target"], "/target", errors, '"target"')
        else:
            errors.append(Error("/target", "required", 'missing required key "target"'))
        if "time_difference" in value:
            v = value["time_difference"]
            if not isinstance(v, str):
                errors.append(
                    Error(
                        "/time_difference",
                        "type",
                        '"time_difference" must be a string, got ' + _got_required(v),
                    )
                )
        else:
            errors.append(
                Error("/time_difference", "required", 'missing required key "time_difference"')
            )
    except Exception:  # noqa: BLE001 - as in the generated module: a value that raises is unreadable
        return Result(REJECT, value, (Error("", "unreadable", _RESULT_UNREADABLE),))
    if errors:
        return Result(
            REJECT,
            value,
            tuple(errors) if len(errors) <= MAX_ERRORS else tuple(errors[:MAX_ERRORS]),
        )
    return Result(ACCEPT, value, ())


def parse_convert_time_result(text: str) -> Result:
    try:
        value = _decode(text)
    except ValueError as exc:
        return _parse_error(text, exc)
    return validate_convert_time_result(value)


FLOORS = {
    "get_weather": (validate_get_weather, parse_get_weather),
    "large_order": (validate_large_order, parse_large_order),
    "convert_time": (validate_convert_time_result, parse_convert_time_result),
}


def plain_floors() -> dict[str, tuple[Any, Any]]:
    """This floor again with plain messages: no did-you-mean, and json's own message for a
    text it refuses (code "syntax"). What a hand-written validator costs without the
    feedback's searches: the refusal rows are held to it (run.py's "plain floor")."""
    spec = importlib.util.spec_from_file_location("floor_plain", __file__)
    assert spec is not None and spec.loader is not None
    plain = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(plain)
    vars(plain).update(
        _did_you_mean=lambda value, allowed: "",
        _refusal=lambda text, exc: Error("", "syntax", str(exc)),
    )
    floors: dict[str, tuple[Any, Any]] = plain.FLOORS
    return floors
