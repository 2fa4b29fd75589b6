"""Synthetic contracts for the generator scale benchmark (``run.py --scale``).

``write_contracts(folder, count, seed)`` writes ``count`` realistic tool contracts
(10 to 30 properties each; strings with lengths, patterns and enums, bounded
integers and numbers, booleans, nullable fields, arrays of strings and of objects,
nested objects, string maps) spread over ten sub-folders, each with an accepted
example and a rejected one. Deterministic: the same seed writes the same bytes.
The YAML follows toolshape's rules: no anchors, and PyYAML quotes every string
that YAML 1.1 would read as something else (yes/no/on/off, dates, "null").
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import yaml
from toolshape.regex import backtracking_problem

WORDS = [
    "account",
    "amount",
    "author",
    "balance",
    "batch",
    "bucket",
    "budget",
    "campaign",
    "category",
    "channel",
    "city",
    "client",
    "comment",
    "company",
    "contact",
    "country",
    "coupon",
    "currency",
    "customer",
    "deadline",
    "department",
    "device",
    "domain",
    "draft",
    "email",
    "employee",
    "event",
    "folder",
    "invoice",
    "label",
    "language",
    "ledger",
    "limit",
    "locale",
    "message",
    "metric",
    "note",
    "order",
    "owner",
    "package",
    "page",
    "payment",
    "period",
    "phone",
    "plan",
    "policy",
    "price",
    "priority",
    "product",
    "project",
    "query",
    "quota",
    "reason",
    "record",
    "region",
    "report",
    "request",
    "resource",
    "review",
    "role",
    "schedule",
    "score",
    "section",
    "segment",
    "sender",
    "server",
    "session",
    "shipment",
    "size",
    "source",
    "status",
    "subject",
    "summary",
    "tag",
    "target",
    "task",
    "team",
    "template",
    "tenant",
    "ticket",
    "title",
    "topic",
    "user",
    "vendor",
    "version",
    "warehouse",
    "workspace",
    "zone",
]

#: (pattern, a matching value)
PATTERNS = (
    (r"\S", "some text"),
    (r"^[A-Z]{3}-[0-9]{4}$", "ABC-1234"),
    (r"^[a-z0-9_]+$", "user_42"),
    (r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$", "2025-01-31"),
    (r"^https?://", "https://example.com/x"),
    (r"^[^@\s]+@[^@\s]+\.[^@\s]+$", "ada@example.com"),
    (r"^[A-Z]{2}$", "DE"),
    (r"^\+[1-9][0-9]{6,14}$", "+4930123456"),
)

ENUM_WORDS = [
    "low",
    "medium",
    "high",
    "urgent",
    "draft",
    "open",
    "closed",
    "pending",
    "active",
    "archived",
    "daily",
    "weekly",
    "monthly",
    "email",
    "sms",
    "push",
    "web",
    "mobile",
    "desktop",
    "small",
    "large",
    "public",
    "private",
    "internal",
    "external",
]


class _NoAliases(yaml.SafeDumper):
    def ignore_aliases(self, data: Any) -> bool:
        return True


def _string(rng: random.Random) -> tuple[dict[str, Any], Any]:
    schema: dict[str, Any] = {"type": "string"}
    roll = rng.random()
    if roll < 0.35:
        pattern, good = rng.choice(PATTERNS)
        schema["pattern"] = pattern
        # the e-mail pattern backtracks quadratically: the lint asks for a maxLength
        if rng.random() < 0.4 or backtracking_problem(pattern, None) is not None:
            schema["maxLength"] = max(len(good), 64)
        return schema, good
    if roll < 0.65:
        members = rng.sample(ENUM_WORDS, rng.randint(2, 6))
        schema["enum"] = members
        return schema, members[0]
    low = rng.choice((0, 1, 1, 3))
    if low:
        schema["minLength"] = low
    schema["maxLength"] = rng.choice((40, 100, 200, 500, 2000))
    return schema, "value " * 2


def _integer(rng: random.Random) -> tuple[dict[str, Any], Any]:
    low = rng.choice((0, 1, 1, 10, -100))
    high = low + rng.choice((5, 99, 1000, 100000))
    schema: dict[str, Any] = {"type": "integer", "minimum": low, "maximum": high}
    if rng.random() < 0.15:
        schema["multipleOf"] = 5
        return schema, (low // 5 + 1) * 5
    return schema, low + 1


def _number(rng: random.Random) -> tuple[dict[str, Any], Any]:
    schema: dict[str, Any] = {"type": "number"}
    if rng.random() < 0.5:
        schema["exclusiveMinimum"] = 0
    else:
        schema["minimum"] = 0
    if rng.random() < 0.7:
        schema["maximum"] = rng.choice((1, 100, 10000, 1000000))
    return schema, 0.5


def _leaf(rng: random.Random) -> tuple[dict[str, Any], Any]:
    roll = rng.random()
    if roll < 0.45:
        return _string(rng)
    if roll < 0.62:
        return _integer(rng)
    if roll < 0.74:
        return _number(rng)
    if roll < 0.86:
        return {"type": "boolean"}, True
    schema, good = _string(rng)
    schema["type"] = ["string", "null"]
    return schema, None if rng.random() < 0.5 and "enum" not in schema else good


def _object(
    rng: random.Random, size: int, names: list[str]
) -> tuple[dict[str, Any], dict[str, Any]]:
    properties: dict[str, Any] = {}
    good: dict[str, Any] = {}
    for name in names[:size]:
        schema, value = _leaf(rng)
        properties[name] = schema
        good[name] = value
    required = [k for k in properties if rng.random() < 0.5] or [next(iter(properties))]
    return {
        "type": "object",
        "properties": properties,
        "required": required,
        "additionalProperties": False,
    }, good


def _property(rng: random.Random, fresh: Any) -> tuple[dict[str, Any], Any]:
    roll = rng.random()
    if roll < 0.07:
        schema, good = _object(rng, rng.randint(2, 6), [fresh() for _ in range(6)])
        schema["description"] = "A nested object."
        return schema, good
    if roll < 0.13:
        item, good = _object(rng, rng.randint(2, 5), [fresh() for _ in range(5)])
        return {"type": "array", "maxItems": rng.choice((10, 50, 100)), "items": item}, [
            good,
            dict(good),
        ]
    if roll < 0.20:
        schema = {
            "type": "array",
            "items": {"type": "string", "minLength": 1, "maxLength": 40},
        }
        schema["maxItems"] = rng.choice((5, 10, 20))
        if rng.random() < 0.5:
            schema["uniqueItems"] = True
        return schema, ["alpha", "beta"]
    if roll < 0.23:
        return {
            "type": "object",
            "description": "Free-form string labels.",
            "additionalProperties": {"type": "string", "maxLength": 100},
            "maxProperties": 10,
        }, {"label": "x1"}
    return _leaf(rng)


def contract(rng: random.Random, index: int) -> dict[str, Any]:
    used: set[str] = set()

    def fresh() -> str:
        while True:
            name = f"{rng.choice(WORDS)}_{rng.choice(WORDS)}"
            if name not in used:
                used.add(name)
                return name

    properties: dict[str, Any] = {}
    good: dict[str, Any] = {}
    for _ in range(rng.randint(10, 30)):
        name = fresh()
        schema, value = _property(rng, fresh)
        if rng.random() < 0.5:
            schema.setdefault("description", f"The {name.replace('_', ' ')} of the request.")
        properties[name] = schema
        good[name] = value
    names = list(properties)
    required = sorted(rng.sample(names, rng.randint(1, min(8, len(names)))), key=names.index)
    parameters: dict[str, Any] = {
        "type": "object",
        "properties": properties,
        "required": required,
    }
    if rng.random() < 0.85:
        parameters["additionalProperties"] = False
    missing = dict(good)
    del missing[required[0]]
    return {
        "name": f"tool_{index:04d}",
        "description": f"Synthetic tool number {index} for the generator scale benchmark.",
        "parameters": parameters,
        "examples": [
            {"description": "every key, valid", "args": good},
            {
                "description": f"missing {required[0]}",
                "args": missing,
                "status": "reject",
                "errors": [{"path": "/" + required[0], "code": "required"}],
            },
        ],
    }


def render(data: dict[str, Any]) -> str:
    return yaml.dump(
        data,
        Dumper=_NoAliases,
        sort_keys=False,
        allow_unicode=True,
        default_flow_style=None,
        width=100,
    )


def write_contracts(folder: Path, count: int = 1000, seed: int = 20240601) -> list[Path]:
    rng = random.Random(seed)
    written = []
    for index in range(count):
        path = folder / f"group_{index % 10}" / f"tool_{index:04d}.yaml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(render(contract(rng, index)), encoding="utf-8")
        written.append(path)
    return written
