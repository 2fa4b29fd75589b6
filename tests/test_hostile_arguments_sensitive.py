"""Hostile arguments (issue 5): an ``x-sensitive`` value never shows.

Whatever path the failure takes, a sensitive value never reaches a message, ``feedback()``, a
repr, ``log_record()`` or an exception (generated/billing/transfer_funds.py).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from hostile_arguments_support import EXAMPLES, MODULES, VALID
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from support import GENERATED

TRANSFER = MODULES["generated.billing.transfer_funds"]
TRANSFER_BASE = VALID["generated.billing.transfer_funds"]
SENSITIVE_KEYS = ("from_account", "to_account")
#: Everything the module could print on its own: a secret found in here proves nothing.
STATIC_TEXT = (GENERATED / "billing" / "transfer_funds.py").read_text(encoding="utf-8")

IBANS = st.from_regex(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{11,30}", fullmatch=True)
SECRETS = st.one_of(
    IBANS,  # valid
    IBANS.map(str.lower),  # wrong pattern
    IBANS.map(lambda s: s[:2] + " " + s[2:6] + " " + s[6:]),  # spaces: wrong pattern
    st.from_regex(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{4,10}", fullmatch=True),  # too short
    st.from_regex(r"[A-Z]{2}[0-9]{2}[A-Z0-9]{31,400}", fullmatch=True),  # too long
    st.text(min_size=8, max_size=60),  # anything
    st.text(alphabet=st.characters(codec=None, exclude_categories=()), min_size=8, max_size=40),
)


def _placements(secret: str) -> list[Any]:
    return [
        secret,
        [secret],
        [[secret]],
        {"iban": secret},
        {"a": [secret, {"b": secret}]},
        secret * 3,
        secret + "\n",
        [secret, 1, None],
    ]


def _leaks(secret: str, texts: dict[str, str]) -> list[str]:
    """Which outputs hold the secret (or, for long secrets, any 12-character piece of it)."""
    window = min(len(secret), 12)
    pieces = {secret[i : i + window] for i in range(len(secret) - window + 1)}
    pieces = {p for p in pieces if p not in STATIC_TEXT and p.strip()}
    return [
        f"{name}: {text[:300]}" for name, text in texts.items() if any(p in text for p in pieces)
    ]


def _outputs(result: Any) -> dict[str, str]:
    record = result.log_record()
    outputs = {
        "feedback()": result.feedback(),
        "repr(result)": repr(result),
        "repr(result.errors)": repr(result.errors),
        "json.dumps(log_record())": json.dumps(record),
    }
    if _json_safe(record):
        outputs["json.dumps(log_record(), ensure_ascii=False)"] = json.dumps(
            record, ensure_ascii=False
        )
    for i, error in enumerate(result.errors):
        outputs[f"errors[{i}].message"] = error.message
        outputs[f"errors[{i}].path"] = error.path
    return outputs


def _json_safe(record: Any) -> bool:
    try:
        json.dumps(record, ensure_ascii=False)
        return True
    except (TypeError, ValueError):  # what json.dumps raises for what it cannot write
        return False


def _assert_no_leak(secret: str, run: Callable[[], Any]) -> None:
    try:
        result = run()
        texts = _outputs(result)
    except (
        Exception
    ) as exc:  # there should be none; and its message must not hold the secret either
        assert not _leaks(secret, {"str(exception)": str(exc), "repr(exception)": repr(exc)}), (
            "the secret is in an exception"
        )
        raise
    leaked = _leaks(secret, texts)
    assert not leaked, f"x-sensitive value {secret[:30]!r} shows in: {leaked}"


@settings(
    max_examples=max(300, EXAMPLES),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(data=st.data())
def test_sensitive_values_never_show(data: st.DataObject) -> None:
    secret = data.draw(SECRETS, label="secret")
    assume(secret.strip() and secret not in STATIC_TEXT and len(secret.strip()) >= 8)
    key = data.draw(st.sampled_from(SENSITIVE_KEYS), label="key")
    placed = data.draw(st.sampled_from(_placements(secret)), label="placement")
    other = data.draw(st.sampled_from(["valid", "both", "break the rest"]), label="rest")
    instance = dict(TRANSFER_BASE)
    instance[key] = placed
    if other == "both":
        instance[SENSITIVE_KEYS[1 - SENSITIVE_KEYS.index(key)]] = placed
    elif other == "break the rest":
        instance.update(amount="50", currency="eur", confirm="true", zz_unknown=1)
    _assert_no_leak(secret, lambda: TRANSFER.validate(instance))
    try:
        text = json.dumps(instance, ensure_ascii=data.draw(st.booleans(), label="ascii"))
    except ValueError:
        return
    _assert_no_leak(secret, lambda: TRANSFER.parse(text))
    _assert_no_leak(secret, lambda: TRANSFER.parse(text.encode("utf-8", "surrogatepass")))


SECRET = "CH9300762011623852957"  # not in the valid instance: only the test puts it there


def _with_secret(**changes: Any) -> dict[str, Any]:
    return {**TRANSFER_BASE, "from_account": SECRET, **changes}


SENSITIVE_FAILURE_PATHS: dict[str, Callable[[], Any]] = {
    "valid": lambda: TRANSFER.validate(_with_secret()),
    "wrong pattern (lowercase)": lambda: TRANSFER.validate(
        _with_secret(from_account=SECRET.lower())
    ),
    "unknown key next to it": lambda: TRANSFER.parse(json.dumps(_with_secret(zz=1))),
    "duplicate sensitive key": lambda: TRANSFER.parse(
        json.dumps(_with_secret())[:-1] + f', "from_account": "{SECRET}"}}'
    ),
    "cut off inside the sensitive value": lambda: TRANSFER.parse('{"from_account": "' + SECRET),
    "invalid escape inside the sensitive value": lambda: TRANSFER.parse(
        '{"from_account": "' + SECRET[:10] + "\\q" + SECRET[10:] + '"}'
    ),
    "raw line break inside the sensitive value": lambda: TRANSFER.parse(
        '{"from_account": "' + SECRET[:10] + "\n" + SECRET[10:] + '"}'
    ),
    "nested too deep under the sensitive key": lambda: TRANSFER.parse(
        '{"from_account": ' + "[" * 70 + json.dumps(SECRET) + "]" * 70 + "}"
    ),
    "as a number": lambda: TRANSFER.parse('{"from_account": 89370400440532013000}'),
    "double-encoded arguments (parse)": lambda: TRANSFER.parse(
        json.dumps(json.dumps(_with_secret()))
    ),
    "double-encoded arguments (validate)": lambda: TRANSFER.validate(json.dumps(_with_secret())),
    "arguments wrapped in an array": lambda: TRANSFER.parse(json.dumps([_with_secret()])),
    "arguments wrapped in an object": lambda: TRANSFER.parse(
        json.dumps({"arguments": _with_secret()})
    ),
    "a number too large to represent": lambda: TRANSFER.parse(
        '{"from_account": 89370400440532013000e999}'
    ),
    "sensitive key misspelled (fromAccount)": lambda: TRANSFER.parse(
        json.dumps(
            {("fromAccount" if k == "from_account" else k): v for k, v in _with_secret().items()}
        )
    ),
}


@pytest.mark.parametrize("how", list(SENSITIVE_FAILURE_PATHS))
def test_sensitive_value_never_shows_whatever_path_the_failure_takes(how: str) -> None:
    secret = "89370400440532013000" if "number" in how else SECRET
    _assert_no_leak(secret, SENSITIVE_FAILURE_PATHS[how])
