"""Hostile arguments (issue 5): ``validate()`` of arbitrary Python objects never raises.

Tuples, sets, bytes, dict subclasses that raise or lie, str subclasses whose
``__len__``/``__eq__``/``__hash__`` raise, objects whose ``__class__`` lies, self-containing
containers, ...: as the arguments, at every path of a valid instance, and in place of every
object. Each ``Result`` is sane (``hostile_arguments_support.check_result``).
"""

from __future__ import annotations

import collections
import copy
import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from differential_strategies import get, paths, pointer, replace
from hostile_arguments_support import (
    DICT_SUBCLASSES,
    IDS,
    MODULE_NAMES,
    MODULES,
    VALID,
    ArmedStr,
    HashableButRaises,
    RaisesOnEverything,
    call_validate,
    hostile_objects,
)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@pytest.mark.parametrize("label", [label for label, _ in hostile_objects()])
def test_validate_survives_a_hostile_object_as_the_arguments(module_name: str, label: str) -> None:
    module = MODULES[module_name]
    value = dict(hostile_objects())[label]
    call_validate(module, value, label)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_validate_survives_hostile_objects_at_every_path_of_a_valid_instance(
    module_name: str,
) -> None:
    module = MODULES[module_name]
    base = VALID[module_name]
    assert module.validate(copy.deepcopy(base)).status == "accept"
    failures = []
    for path in list(paths(base))[
        1:
    ]:  # the root: test_validate_survives_a_hostile_object_as_the_arguments
        for label, obj in hostile_objects():
            try:
                call_validate(module, replace(base, path, obj), f"{label} at {pointer(path)!r}")
            except AssertionError as exc:
                failures.append(str(exc).splitlines()[0])
    assert not failures, f"{len(failures)} failures, e.g.:\n" + "\n".join(
        sorted(set(failures))[:30]
    )


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
def test_validate_survives_dict_subclasses_and_hostile_keys_in_place_of_every_object(
    module_name: str,
) -> None:
    module = MODULES[module_name]
    base = VALID[module_name]
    failures = []
    objects = [path for path in paths(base) if isinstance(get(base, path), dict)]
    assert objects, "the valid instance has no object?"
    for path in objects:
        content = get(base, path)
        variants: list[tuple[str, Any]] = [
            (f"dict subclass: {label}", cls(content)) for label, cls in DICT_SUBCLASSES.items()
        ]
        variants += [
            ("defaultdict", collections.defaultdict(RaisesOnEverything, content)),
            ("OrderedDict", collections.OrderedDict(content)),
            ("with a hostile extra key", {**content, HashableButRaises(): 1}),
            ("with armed str keys", {ArmedStr(k): v for k, v in content.items()}),
            ("with an extra int key", {**content, 1: 1}),
            ("with an extra None key", {**content, None: 1}),
            ("with an extra tuple key", {**content, (1, 2): 1}),
            ("with a hostile extra value", {**content, "zz_unknown": RaisesOnEverything()}),
            ("with an armed str extra key", {**content, ArmedStr("zz"): 1}),
        ]
        for label, variant in variants:
            before = dict.copy(variant) if isinstance(variant, collections.defaultdict) else None
            try:
                call_validate(module, replace(base, path, variant), f"{label} at {pointer(path)!r}")
            except AssertionError as exc:
                failures.append(str(exc).splitlines()[0])
            if before is not None:
                assert dict.copy(variant) == before, "validate() inserted keys into a defaultdict"
    assert not failures, f"{len(failures)} failures, e.g.:\n" + "\n".join(
        sorted(set(failures))[:30]
    )


def test_validate_never_iterates_a_dict_subclass_forever() -> None:
    """A dict subclass whose __iter__ never ends must not hang validate(): its iterator counts the
    keys it hands out and stops the test at a million (a bound in steps, not in seconds)."""
    from generated import get_weather as module

    handed_out = [0]

    def endless() -> Iterator[str]:
        for key in itertools.cycle(["city", "unit"]):
            handed_out[0] += 1
            if handed_out[0] > 1_000_000:
                raise AssertionError("validate() iterated the dict subclass without end")
            yield key

    class Endless(dict[str, Any]):
        def __iter__(self) -> Iterator[str]:
            return endless()

        def keys(self) -> Any:
            return endless()

    result = module.validate(Endless(city="Paris", unit="c", extra=1))
    assert result.status in ("accept", "reject")
