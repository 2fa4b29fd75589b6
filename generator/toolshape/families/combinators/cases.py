"""The derived cases of the combinators (codegen stage): the branches the cases walk into,
the values that break one combinator, and the subschemas the generated validator follows.

``codegen/cases.py`` derives its cases from a base value that the contract accepts. Under a
combinator it asks the family:

- which subschemas to walk into with the same value (:func:`conjuncts`: each ``allOf``
  entry) and which branches to walk into from a value that matches them (:func:`branches`:
  each ``anyOf``/``oneOf`` branch, the ``then`` of a holding ``if``, the ``else`` of a
  failing one);
- which values break one combinator and keep the rest of the schema (:func:`broken`: the
  schemas such a value matches, searched by the witness engine);
- which subschemas the generated validator applies to a value it is given
  (:func:`followed`), so that a value put there is judged as the validator judges it.

Each case's expected errors come from the reference evaluator, never from here.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ...schema import vocabulary
from ...schema.pointers import SchemaPath
from .values import negation

#: Below a combinator a changed value can change which branch matches, and so the errors of
#: the whole value: a case is evaluated whole (``codegen/cases.py``'s ``_NON_LOCAL``).
NON_LOCAL = vocabulary.holders("one", "same value") + vocabulary.holders("list", "same value")


@dataclass(frozen=True)
class Branch:
    """A branch the cases walk into: its schema, its place under the combinator's schema, how
    the cases name it, and the schemas a value must match with it to take it."""

    schema: Any
    where: SchemaPath
    label: str
    also: tuple[Any, ...] = ()


def conjuncts(schema: dict[str, Any]) -> Iterator[tuple[Any, SchemaPath]]:
    """Each subschema applied with ``schema`` to the same value (an ``allOf`` entry), and its
    place under ``schema``."""
    for i, sub in enumerate(schema.get("allOf", [])):
        yield sub, ("allOf", i)


def branches(schema: dict[str, Any], label: str) -> Iterator[Branch]:
    """The branches of ``schema`` (the value at ``label``) the cases walk into, in order."""
    for keyword in ("anyOf", "oneOf"):
        for i, sub in enumerate(schema.get(keyword, [])):
            yield Branch(sub, (keyword, i), f"{label} ({keyword} {i + 1})")
    if "if" in schema:
        yield Branch(schema.get("then", {}), ("then",), f"{label} (if, then)", (schema["if"],))
        yield Branch(
            schema.get("else", {}),
            ("else",),
            f"{label} (if fails, else)",
            (negation(schema["if"]),),
        )


def broken(schema: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    """The values that break one combinator and keep the rest of ``schema``, each named and
    given as the schemas it matches: matching the ``not``, two ``oneOf`` branches or none, no
    ``anyOf`` branch, one ``allOf`` branch failed, an ``if`` whose ``then`` (or ``else``)
    fails."""
    wanted: list[tuple[str, list[Any]]] = []
    if "not" in schema:
        wanted.append(("matches the not schema", [_without(schema, "not"), schema["not"]]))
    for keyword in ("oneOf", "anyOf"):
        options = schema.get(keyword)
        if isinstance(options, list):
            rest = _without(schema, keyword)
            wanted.append((f"matches no {keyword} branch", [rest, *map(negation, options)]))
            if keyword == "oneOf":
                for i, j in list(itertools.combinations(range(len(options)), 2))[:3]:
                    wanted.append(
                        (
                            f"matches oneOf branches {i + 1} and {j + 1}",
                            [rest, options[i], options[j]],
                        )
                    )
    entries = schema.get("allOf", [])[:4] if isinstance(schema.get("allOf"), list) else []
    for i, entry in enumerate(entries):
        others = [b for k, b in enumerate(schema["allOf"]) if k != i]
        wanted.append(
            (f"fails allOf branch {i + 1}", [_without(schema, "allOf"), *others, negation(entry)])
        )
    if "if" in schema:
        wanted += _if_broken(schema)
    return wanted


def _if_broken(schema: dict[str, Any]) -> list[tuple[str, list[Any]]]:
    rest = _without(schema, "if", "then", "else")
    wanted: list[tuple[str, list[Any]]] = []
    if "then" in schema:
        wanted.append(("if holds, then fails", [rest, schema["if"], negation(schema["then"])]))
    if "else" in schema:
        wanted.append(
            ("if fails, else fails", [rest, negation(schema["if"]), negation(schema["else"])])
        )
    return wanted


def followed(
    schema: dict[str, Any],
    scalar: bool,
    matches: Callable[[Any], bool],
    says_integer: Callable[[Any], bool],
) -> Iterator[tuple[Any, list[Any]]]:
    """Each subschema of ``schema`` the generated validator applies to a value (``matches``
    tells whether the value matches a subschema): every ``allOf`` entry, the first matching
    ``anyOf`` branch, the one matching ``oneOf`` branch; for a ``scalar``, the branches that
    say integer too (``says_integer``). With each, the ``anyOf`` branches tried before it (a
    value put there must match none of them)."""
    for sub in schema.get("allOf", []):
        yield sub, []
    for union in ("anyOf", "oneOf"):
        options = schema.get(union, [])
        matching = [i for i, s in enumerate(options) if matches(s)]
        taken = matching[:1] if union == "anyOf" or len(matching) == 1 else []
        for i, sub in enumerate(options):
            if i in taken or (scalar and says_integer(sub)):
                yield sub, options[:i] if union == "anyOf" else []


def _without(schema: dict[str, Any], *keywords: str) -> dict[str, Any]:
    """The schema without some keywords (the rest of it, that a broken combinator keeps)."""
    return {k: v for k, v in schema.items() if k not in keywords}
