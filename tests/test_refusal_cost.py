"""What a refusal costs (issue 25): the feedback's searches read only what can matter.

An unknown key's did-you-mean looks only at the allowed strings that can be near it (a
length within reach and, for a key of three to five characters, its first or its last
character; or the same first three characters for a prefix, sought only when nothing is
within the edit limit), after a cheap test of the characters they share. One edit is
recognised without the table of edits (checked against the whole table on every pair of
short words). The suggestions must be those of the full search it
replaces, kept here as ``did_you_mean_before`` (the runtime's search as it was: every
allowed string read in turn), over a class of inputs: every contract's keys, enum values
and tool names, each at edit distance 1 and 2, cut to a prefix, in other case and
separators, and unrelated words. The work is counted (lines of Python run), never timed.
"""

from __future__ import annotations

import functools
import itertools
import random
import string
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from support import BENCH, CONTRACTS
from work_counting import work

import generated
from generated import _runtime as runtime


@functools.cache
def _folded(allowed: frozenset[str]) -> dict[str, list[str]]:
    folded: dict[str, list[str]] = {}
    for option in sorted(allowed):
        folded.setdefault(runtime._fold(option), []).append(option)
    return folded


def did_you_mean_before(value: object, allowed: frozenset[str]) -> str:
    """The runtime's _did_you_mean before its search was narrowed: the reference."""
    if type(value) is not str or len(value) > 200:
        return ""
    folded = _folded(allowed)
    wanted = runtime._fold(value)
    best: list[str] = list(folded.get(wanted, ()))
    if not best and 2 < len(wanted) <= 64:
        limit = 1 if len(wanted) < 6 else 2
        score = limit + 1
        for compared, (form, options) in enumerate(folded.items()):
            if compared == runtime._MAX_COMPARED:
                break
            distance = (
                runtime._edit_distance(wanted, form, limit)
                if abs(len(form) - len(wanted)) <= limit
                else limit + 1
            )
            if distance > limit and (
                len(form) <= 2 or not (form.startswith(wanted) or wanted.startswith(form))
            ):
                continue
            if distance < score:
                score, best = distance, list(options)
            elif distance == score:
                best.extend(options)
    names = sorted(name for name in best if name != value)[:3]  # never the value itself
    if not names:
        return ""
    return "; did you mean " + " or ".join(runtime._quote(name) for name in names) + "?"


def _string_sets(node: Any, found: list[frozenset[str]]) -> None:
    """Every set of property names and of string enum values in a contract."""
    if isinstance(node, dict):
        properties = node.get("properties")
        if isinstance(properties, dict) and properties:
            found.append(frozenset(properties))
        members = node.get("enum")
        if isinstance(members, list) and any(type(m) is str for m in members):
            found.append(frozenset(m for m in members if type(m) is str))
        for child in node.values():
            _string_sets(child, found)
    elif isinstance(node, list):
        for child in node:
            _string_sets(child, found)


def allowed_sets() -> list[frozenset[str]]:
    """The key sets and enums of every example contract and of the bench's large one, the
    gate's tool names, and a set larger than the search's bound on compared strings."""
    found: list[frozenset[str]] = [frozenset(generated.TOOLS)]
    for path in [*sorted(CONTRACTS.rglob("*.yaml")), BENCH / "contracts" / "large_order.yaml"]:
        _string_sets(yaml.safe_load(path.read_text(encoding="utf-8")), found)
    found.append(frozenset(f"{word}_{i}" for i in range(1200) for word in ("field", "attribute")))
    return sorted(set(found), key=sorted)


def _one_edit(word: str, alphabet: str) -> Iterator[str]:
    """Every string one deletion, swap of neighbours, replacement or insertion away."""
    for i in range(len(word)):
        yield word[:i] + word[i + 1 :]
        if i + 1 < len(word):
            yield word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        for char in alphabet:
            yield word[:i] + char + word[i + 1 :]
    for i in range(len(word) + 1):
        for char in alphabet:
            yield word[:i] + char + word[i:]


def near_and_far(member: str, rng: random.Random) -> set[str]:
    """The values tried against a set holding ``member``."""
    alphabet = "".join(sorted(set(member.lower()[:4]) | set("_-xZ9")))
    once = set(_one_edit(member, alphabet))
    twice = {
        rng.choice(list(_one_edit(word, alphabet)))
        for word in rng.sample(sorted(once), min(40, len(once)))
    }
    cut = {member[:n] for n in range(len(member))} | {member + "_id", member + "s"}
    spelled = {member.upper(), member.replace("_", "-"), member.replace("_", ""), member.title()}
    return once | twice | cut | spelled


UNRELATED = [
    "country",
    "gift",
    "zzzz",
    "x",
    "",
    "completely_unrelated_key_name",
    "q" * 64,
    "q" * 65,
    "w" * 201,
    "ÅNGSTRÖM",
    "İstanbul",  # folds to a longer string
    "__--__",
]


@pytest.mark.parametrize("allowed", allowed_sets(), ids=lambda allowed: min(allowed)[:20])
def test_did_you_mean_suggests_what_the_full_search_did(allowed: frozenset[str]) -> None:
    rng = random.Random(sorted(allowed)[0])
    members = sorted(allowed)
    if len(members) > 12:  # a sample of a large set's members
        members = rng.sample(members, 12)
    values: set[str] = set(UNRELATED)
    values.update("".join(rng.choices(string.ascii_lowercase, k=n)) for n in range(1, 40))
    for member in members:
        values |= near_and_far(member, rng)
    if len(allowed) > runtime._MAX_COMPARED:  # each value is compared with 2,000 keys
        values = set(rng.sample(sorted(values), 40))
    suggested = {value: runtime._did_you_mean(value, allowed) for value in values}
    differ = [
        (value, now, before)
        for value, now in sorted(suggested.items())
        if now != (before := did_you_mean_before(value, allowed))
    ]
    assert not differ, differ[:10]
    assert any(suggested.values())  # the class holds near values, not only far ones
    assert runtime._did_you_mean(42, allowed) == did_you_mean_before(42, allowed) == ""


def _far_key_work(size: int) -> int:
    """Lines run to find no suggestion for a key far from each of ``size`` allowed keys."""
    allowed = frozenset(f"property_number_{i:06d}" for i in range(size))
    runtime._did_you_mean("zip", allowed)  # the set's index is made once, on first use
    return work(lambda: runtime._did_you_mean("zip", allowed))


def test_a_key_far_from_every_allowed_key_costs_the_same_for_any_number_of_keys() -> None:
    """The usual unknown key: no allowed key of a length within reach, none with its first
    three characters: no key is read, however many there are (the full search read up to
    2,000 of them)."""
    assert _far_key_work(10) == _far_key_work(100) == _far_key_work(1000)


def test_a_near_key_is_compared_with_the_keys_in_reach_only() -> None:
    """One key near a large set is compared with the few keys of a length within reach."""
    allowed = frozenset(
        [*(f"property_number_{i:06d}" for i in range(1000)), "email", "phone", "name"]
    )
    runtime._did_you_mean("emial", allowed)
    few = work(lambda: runtime._did_you_mean("emial", allowed))
    small = frozenset(["email", "phone", "name"])
    runtime._did_you_mean("emial", small)
    assert runtime._did_you_mean("emial", allowed) == '; did you mean "email"?'
    assert few == work(lambda: runtime._did_you_mean("emial", small))


def _near_key_work(alike: int) -> int:
    """Lines run to suggest "labels" for "lables" beside ``alike`` longer keys that only
    begin as it does (a prefix suggestion would name them, were nothing nearer)."""
    allowed = frozenset(["labels", *(f"label_group_{i:04d}" for i in range(alike))])
    assert runtime._did_you_mean("lables", allowed) == '; did you mean "labels"?'
    return work(lambda: runtime._did_you_mean("lables", allowed))


def test_a_key_one_edit_away_does_not_read_the_keys_that_only_begin_alike() -> None:
    """A form within the edit limit beats every prefix: once one is found, the keys sharing
    only the first three characters are not read, however many there are."""
    assert _near_key_work(1) == _near_key_work(10) == _near_key_work(100)


def _full_table_distance(a: str, b: str) -> int:
    """The optimal string alignment distance from the whole table: the reference."""
    table = [[i + j if not i or not j else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
    for i in range(1, len(a) + 1):
        for j in range(1, len(b) + 1):
            table[i][j] = min(
                table[i - 1][j] + 1,
                table[i][j - 1] + 1,
                table[i - 1][j - 1] + (a[i - 1] != b[j - 1]),
            )
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
    return table[-1][-1]


def test_edit_distance_agrees_with_the_full_table() -> None:
    """_edit_distance's shortcuts (one replaced character or one swap of neighbours seen
    without a table, a band of cells otherwise) give the whole table's answer, capped at the
    limit + 1: every pair of strings of up to four letters over a three-letter alphabet."""
    words = ["".join(letters) for n in range(5) for letters in itertools.product("abc", repeat=n)]
    for a in words:
        for b in words:
            full = _full_table_distance(a, b)
            for limit in (1, 2):
                assert runtime._edit_distance(a, b, limit) == min(full, limit + 1), (a, b, limit)


def _short_key_work(others: int) -> int:
    """Lines run to suggest "gift_message" for "gift" beside ``others`` keys of its length
    that neither begin with its first character nor end with its last."""
    allowed = frozenset(["gift_message", *(f"k{i:03d}" for i in range(others))])
    assert runtime._did_you_mean("gift", allowed) == '; did you mean "gift_message"?'
    return work(lambda: runtime._did_you_mean("gift", allowed))


def test_a_short_key_is_compared_only_with_keys_sharing_an_end() -> None:
    """One edit to a key of three to five characters leaves its first or its last character
    in place: the keys of a length in reach that share neither are not read."""
    assert _short_key_work(1) == _short_key_work(10) == _short_key_work(100)
