"""Hostile arguments (issue 5): ``validate()`` of arbitrary JSON values never raises (hypothesis).

Arbitrary JSON values as the arguments and at any path of a valid instance (objects use the
contract's own keys half of the time), and hostile Python objects anywhere in them; each
``Result`` is sane and ``validate()`` never changes its input.
"""

from __future__ import annotations

import functools
import pickle
from typing import Any

import pytest
from differential_strategies import paths, pointer, replace
from hostile_arguments_support import (
    IDS,
    MODULE_NAMES,
    MODULES,
    SETTINGS,
    VALID,
    call_validate,
    hostile_objects,
    run_validate,
    schema_keys,
)
from hypothesis import assume, given, note
from hypothesis import strategies as st

#: Large integers, up to the 4,300 digits that repr() (and so hypothesis' own reports) can print;
#: the 5,000-digit ones are among the hostile objects (test_log_record_of_a_huge_integer_...).
HUGE_INTS = st.sampled_from([10**4299, -(10**4299), 2**63, -(2**63) - 1, 2**1024])
FLOATS = st.floats(allow_nan=True, allow_infinity=True) | st.sampled_from(
    [-0.0, 0.0, 5e-324, 1e308, float("nan")]
)
ANY_TEXT = st.text(
    alphabet=st.characters(codec=None, exclude_categories=())
    | st.characters(categories=["Cs", "Cc", "Cf", "Zl", "Zp"]),
    max_size=20,
)


@functools.cache
def json_values(keys: tuple[str, ...]) -> st.SearchStrategy[Any]:
    """Arbitrary JSON values; objects use the contract's own keys half of the time.

    One strategy per contract, built once: a new ``st.recursive`` per example made hypothesis
    work out the whole recursive strategy again for every value it drew."""
    key = st.sampled_from(keys) | ANY_TEXT if keys else ANY_TEXT
    leaf = st.none() | st.booleans() | st.integers() | HUGE_INTS | FLOATS | ANY_TEXT
    return st.recursive(
        leaf,
        lambda children: (
            st.lists(children, max_size=6) | st.dictionaries(key, children, max_size=8)
        ),
        max_leaves=40,
    )


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_validate_survives_arbitrary_json(module_name: str, data: st.DataObject) -> None:
    module = MODULES[module_name]
    keys = tuple(sorted(schema_keys(module.INPUT_SCHEMA)))
    value = data.draw(json_values(keys), label="value")
    snapshot = pickle.dumps(value)
    run_validate(module, value)
    assert pickle.dumps(value) == snapshot, "validate() changed its input"


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_validate_survives_arbitrary_json_at_any_path_of_a_valid_instance(
    module_name: str, data: st.DataObject
) -> None:
    module = MODULES[module_name]
    base = VALID[module_name]
    keys = tuple(sorted(schema_keys(module.INPUT_SCHEMA)))
    path = data.draw(st.sampled_from(list(paths(base))), label="path")
    value = data.draw(json_values(keys), label="value")
    mutated = replace(base, path, value)
    if data.draw(st.booleans(), label="add an unknown key"):
        mutated = (
            {**mutated, data.draw(ANY_TEXT, label="key"): value}
            if isinstance(mutated, dict)
            else mutated
        )
    run_validate(module, mutated)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_validate_survives_hostile_objects_anywhere_in_json(
    module_name: str, data: st.DataObject
) -> None:
    # The root and the 5,000-digit integers have tests of their own (..._as_the_arguments,
    # ..._huge_integer_...): left out here, so that this search looks for something new.
    module = MODULES[module_name]
    base = VALID[module_name]
    objects = [(label, obj) for label, obj in hostile_objects() if not label.startswith("huge")]
    path = data.draw(st.sampled_from(list(paths(base))[1:]), label="path")
    # Draw an index: hypothesis itself would call the hostile objects' methods (repr, hash).
    label, obj = objects[data.draw(st.integers(0, len(objects) - 1), label="object index")]
    note(f"object: {label}")
    wrap = data.draw(
        st.sampled_from(["bare", "in a list", "in a dict", "as a dict key"]), label="wrap"
    )
    if wrap == "in a list":
        obj = [obj]
    elif wrap == "in a dict":
        obj = {"zz": obj}
    elif wrap == "as a dict key":
        try:
            obj = {obj: 1}
        except Exception:  # noqa: BLE001 - hashing a hostile object may raise anything: then it is no key
            assume(False)
    call_validate(module, replace(base, path, obj), f"{label} ({wrap}) at {pointer(path)!r}")
