"""The peers, each set up once per contract the way its documentation recommends.

Every contender is a pair of callables ``validate(value)`` / ``parse(text)`` plus
an ``accepted(outcome)`` predicate used to assert, before anything is timed,
that all contenders agree on accept/reject for every benchmark input.

* fastjsonschema: ``fastjsonschema.compile(schema)`` (detailed exceptions, the
  default); an error is the raised ``JsonSchemaException``, caught and returned.
* jsonschema: one ``Draft202012Validator`` built up front; every error collected
  with ``list(validator.iter_errors(value))``.
* pydantic v2: a model with ``strict=True, extra="forbid"``, called through
  ``Model.__pydantic_validator__.validate_python`` / ``.validate_json`` (what
  ``model_validate`` / ``model_validate_json`` call, without their Python
  wrapper); ``ValidationError`` caught and returned.
* msgspec: a ``Struct`` with ``forbid_unknown_fields=True`` and ``Meta``
  constraints; ``msgspec.convert(value, Struct)`` / ``msgspec.json.Decoder(Struct).decode(text)``
  (the reusable form of ``msgspec.json.decode(text, type=Struct)``), ``msgspec.ValidationError`` (and ``DecodeError``) caught and returned.

For parse(), fastjsonschema and jsonschema get the text through plain
``json.loads`` (what their users write); it neither refuses duplicate keys nor
NaN, so it does a little less than the strict-json floor.
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal

import fastjsonschema
import jsonschema
import msgspec
import pydantic
from msgspec import Meta
from pydantic import BaseModel, ConfigDict, Field, StringConstraints

#: Where a peer cannot say what the contract says; printed by run.py.
NOTES = [
    "msgspec and pydantic: an integer field refuses 3.0, which the contracts' JSON Schema 'integer' "
    "accepts (no benchmark input has one).",
    "msgspec.convert and fastjsonschema stop at the first error; the generated module, the floor, "
    "jsonschema and pydantic report every error.",
    "pydantic (Rust regex) anchors '$' at the very end of the text, Python's re also before a final "
    "newline; no benchmark input tells them apart.",
    "parse(): pydantic and msgspec accept duplicate keys (the last wins); fastjsonschema and jsonschema "
    "read the text with plain json.loads (duplicates and NaN accepted). The generated module and the "
    "floor refuse both.",
    "msgspec: '\\S' (non-blank) is written as Meta(pattern=r'\\S'), msgspec's (unanchored, re.search) "
    "pattern support; it has the same meaning.",
]

_loads = json.loads


# -- fastjsonschema ----------------------------------------------------------------


def fastjsonschema_pair(schema: dict[str, Any]) -> tuple[Any, ...]:
    check = fastjsonschema.compile(schema)
    failure = fastjsonschema.JsonSchemaException

    def validate(value: Any) -> Any:
        try:
            check(value)
        except failure as exc:
            return exc
        return None

    def parse(text: str) -> Any:
        try:
            check(_loads(text))
        except failure as exc:
            return exc
        except ValueError as exc:
            return exc
        return None

    return validate, parse, lambda outcome: outcome is None


# -- jsonschema --------------------------------------------------------------------


def jsonschema_pair(schema: dict[str, Any]) -> tuple[Any, ...]:
    validator = jsonschema.Draft202012Validator(schema)
    iter_errors = validator.iter_errors

    def validate(value: Any) -> list[Any]:
        return list(iter_errors(value))

    def parse(text: str) -> Any:
        try:
            value = _loads(text)
        except ValueError as exc:
            return [exc]
        return list(iter_errors(value))

    return validate, parse, lambda outcome: outcome == []


# -- pydantic v2 -----------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class GetWeather(_Strict):
    city: Annotated[str, StringConstraints(min_length=1, pattern=r"\S")]
    unit: Literal["c", "f"]


class OrderLine(_Strict):
    sku: Annotated[str, StringConstraints(pattern=r"^[A-Z0-9-]{4,20}$")]
    quantity: Annotated[int, Field(ge=1, le=999)]
    unit_price: Annotated[float, Field(gt=0, le=100000, allow_inf_nan=False)]
    gift_wrap: bool = False
    note: Annotated[str, StringConstraints(max_length=200)] | None = None


class ShippingAddress(_Strict):
    name: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    line1: Annotated[str, StringConstraints(min_length=1, max_length=200)]
    line2: Annotated[str, StringConstraints(max_length=200)] | None = None
    city: Annotated[str, StringConstraints(min_length=1, max_length=100)]
    postal_code: Annotated[str, StringConstraints(pattern=r"^[A-Za-z0-9 -]{3,10}$")]
    country: Annotated[str, StringConstraints(pattern=r"^[A-Z]{2}$")]


# Optional keys that may not be null get a default that is never validated (None),
# so that an explicit null is still refused by the strict type.
class PlaceOrder(_Strict):
    customer_id: Annotated[str, StringConstraints(pattern=r"^C[0-9]{6}$")]
    email: Annotated[str, StringConstraints(max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
    channel: Literal["web", "app", "phone", "chat"] = None  # type: ignore[assignment]
    currency: Literal["EUR", "USD", "GBP", "CHF", "SEK"]
    items: Annotated[list[OrderLine], Field(min_length=1, max_length=50)]
    shipping_address: ShippingAddress
    billing_same_as_shipping: bool = None  # type: ignore[assignment]
    shipping_method: Literal["standard", "express", "overnight", "pickup"]
    priority: Annotated[int, Field(ge=1, le=5)] = None  # type: ignore[assignment]
    discount_percent: Annotated[float, Field(ge=0, le=100, allow_inf_nan=False)] = None  # type: ignore[assignment]
    coupon_code: Annotated[str, StringConstraints(max_length=32, pattern=r"^[A-Z0-9]+$")] | None = (
        None
    )
    gift_message: Annotated[str, StringConstraints(max_length=500)] = None  # type: ignore[assignment]
    requested_delivery_date: Annotated[
        str, StringConstraints(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")
    ] = None  # type: ignore[assignment]
    tip_amount: Annotated[float, Field(ge=0, le=1000, allow_inf_nan=False)] = None  # type: ignore[assignment]
    loyalty_points_to_use: Annotated[int, Field(ge=0, le=1000000)] = None  # type: ignore[assignment]
    newsletter_opt_in: bool = None  # type: ignore[assignment]
    tags: Annotated[
        list[Annotated[str, StringConstraints(min_length=1, max_length=32)]], Field(max_length=10)
    ] = None  # type: ignore[assignment]
    payment_method: Literal["card", "paypal", "invoice", "bank_transfer"]
    payment_token: Annotated[str, StringConstraints(min_length=8, max_length=128)] = None  # type: ignore[assignment]
    invoice_reference: Annotated[str, StringConstraints(max_length=64)] | None = None
    locale: Annotated[str, StringConstraints(pattern=r"^[a-z]{2}(-[A-Z]{2})?$")] = None  # type: ignore[assignment]
    notes: Annotated[str, StringConstraints(max_length=1000)] = None  # type: ignore[assignment]
    max_total: Annotated[float, Field(gt=0, allow_inf_nan=False)] = None  # type: ignore[assignment]
    split_shipment: bool = None  # type: ignore[assignment]
    contact_phone: Annotated[str, StringConstraints(pattern=r"^\+[1-9][0-9]{6,14}$")] = None  # type: ignore[assignment]


# The time server's own result models (mcp_server_time: TimeResult, TimeConversionResult),
# strict; its schema allows other keys, so they are ignored, not refused.
class _StrictOpen(BaseModel):
    model_config = ConfigDict(strict=True)


class TimeResult(_StrictOpen):
    timezone: str
    datetime: str
    day_of_week: str
    is_dst: bool


class TimeConversionResult(_StrictOpen):
    source: TimeResult
    target: TimeResult
    time_difference: str


def pydantic_pair(model: type[BaseModel]) -> tuple[Any, ...]:
    # What model_validate / model_validate_json call, minus their Python wrapper
    # (about 300 ns): the fastest way into pydantic-core, so the targets get harder.
    from_python = model.__pydantic_validator__.validate_python
    from_json = model.__pydantic_validator__.validate_json
    failure = pydantic.ValidationError

    def validate(value: Any) -> Any:
        try:
            return from_python(value)
        except failure as exc:
            return exc

    def parse(text: str) -> Any:
        try:
            return from_json(text)
        except failure as exc:
            return exc

    return validate, parse, lambda outcome: isinstance(outcome, model)


# -- msgspec -----------------------------------------------------------------------------


class GetWeatherS(msgspec.Struct, forbid_unknown_fields=True):
    city: Annotated[str, Meta(min_length=1, pattern=r"\S")]
    unit: Literal["c", "f"]


class OrderLineS(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    sku: Annotated[str, Meta(pattern=r"^[A-Z0-9-]{4,20}$")]
    quantity: Annotated[int, Meta(ge=1, le=999)]
    unit_price: Annotated[float, Meta(gt=0, le=100000)]
    gift_wrap: bool = False
    note: Annotated[str, Meta(max_length=200)] | None = None


class ShippingAddressS(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    name: Annotated[str, Meta(min_length=1, max_length=100)]
    line1: Annotated[str, Meta(min_length=1, max_length=200)]
    line2: Annotated[str, Meta(max_length=200)] | None = None
    city: Annotated[str, Meta(min_length=1, max_length=100)]
    postal_code: Annotated[str, Meta(pattern=r"^[A-Za-z0-9 -]{3,10}$")]
    country: Annotated[str, Meta(pattern=r"^[A-Z]{2}$")]


_Unset = msgspec.UnsetType
_UNSET = msgspec.UNSET


class PlaceOrderS(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    customer_id: Annotated[str, Meta(pattern=r"^C[0-9]{6}$")]
    email: Annotated[str, Meta(max_length=254, pattern=r"^[^@\s]+@[^@\s]+\.[^@\s]+$")]
    channel: Literal["web", "app", "phone", "chat"] | _Unset = _UNSET
    currency: Literal["EUR", "USD", "GBP", "CHF", "SEK"]
    items: Annotated[list[OrderLineS], Meta(min_length=1, max_length=50)]
    shipping_address: ShippingAddressS
    billing_same_as_shipping: bool | _Unset = _UNSET
    shipping_method: Literal["standard", "express", "overnight", "pickup"]
    priority: Annotated[int, Meta(ge=1, le=5)] | _Unset = _UNSET
    discount_percent: Annotated[float, Meta(ge=0, le=100)] | _Unset = _UNSET
    coupon_code: Annotated[str, Meta(max_length=32, pattern=r"^[A-Z0-9]+$")] | _Unset | None = (
        _UNSET
    )
    gift_message: Annotated[str, Meta(max_length=500)] | _Unset = _UNSET
    requested_delivery_date: (
        Annotated[str, Meta(pattern=r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$")] | _Unset
    ) = _UNSET
    tip_amount: Annotated[float, Meta(ge=0, le=1000)] | _Unset = _UNSET
    loyalty_points_to_use: Annotated[int, Meta(ge=0, le=1000000)] | _Unset = _UNSET
    newsletter_opt_in: bool | _Unset = _UNSET
    tags: (
        Annotated[list[Annotated[str, Meta(min_length=1, max_length=32)]], Meta(max_length=10)]
        | _Unset
    ) = _UNSET
    payment_method: Literal["card", "paypal", "invoice", "bank_transfer"]
    payment_token: Annotated[str, Meta(min_length=8, max_length=128)] | _Unset = _UNSET
    invoice_reference: Annotated[str, Meta(max_length=64)] | _Unset | None = _UNSET
    locale: Annotated[str, Meta(pattern=r"^[a-z]{2}(-[A-Z]{2})?$")] | _Unset = _UNSET
    notes: Annotated[str, Meta(max_length=1000)] | _Unset = _UNSET
    max_total: Annotated[float, Meta(gt=0)] | _Unset = _UNSET
    split_shipment: bool | _Unset = _UNSET
    contact_phone: Annotated[str, Meta(pattern=r"^\+[1-9][0-9]{6,14}$")] | _Unset = _UNSET


class TimeResultS(msgspec.Struct):
    timezone: str
    datetime: str
    day_of_week: str
    is_dst: bool


class TimeConversionResultS(msgspec.Struct):
    source: TimeResultS
    target: TimeResultS
    time_difference: str


def msgspec_pair(struct: type[msgspec.Struct]) -> tuple[Any, ...]:
    convert = msgspec.convert
    decoder: msgspec.json.Decoder[msgspec.Struct] = msgspec.json.Decoder(struct)
    decode = decoder.decode
    failure = msgspec.ValidationError
    broken = msgspec.DecodeError  # ValidationError is a DecodeError subclass

    def validate(value: Any) -> Any:
        try:
            return convert(value, struct)
        except failure as exc:
            return exc

    def parse(text: str) -> Any:
        try:
            return decode(text)
        except broken as exc:
            return exc

    return validate, parse, lambda outcome: isinstance(outcome, struct)


MODELS: dict[str, type[BaseModel]] = {
    "get_weather": GetWeather,
    "large_order": PlaceOrder,
    "convert_time": TimeConversionResult,
}
STRUCTS: dict[str, type[msgspec.Struct]] = {
    "get_weather": GetWeatherS,
    "large_order": PlaceOrderS,
    "convert_time": TimeConversionResultS,
}
