"""Hostile arguments (issue 5): ``parse()`` of arbitrary text and bytes never raises (hypothesis).

Arbitrary text, bytes, JSON-like text and valid arguments damaged (cut, spliced, wrapped):
each ``Result`` is sane.
"""

from __future__ import annotations

import json

import pytest
from hostile_arguments_support import IDS, MODULE_NAMES, MODULES, SETTINGS, VALID, run_parse
from hypothesis import given
from hypothesis import strategies as st


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(
    text=st.text(
        alphabet=st.characters(codec=None, exclude_categories=())
        | st.characters(categories=["Cs", "Cc"])
    )
)
def test_parse_survives_arbitrary_text(module_name: str, text: str) -> None:
    run_parse(MODULES[module_name], text)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(raw=st.binary(max_size=200))
def test_parse_survives_arbitrary_bytes(module_name: str, raw: bytes) -> None:
    module = MODULES[module_name]
    run_parse(module, raw)
    run_parse(module, bytearray(raw))


JSONISH = st.text(alphabet='{}[]":,0123456789.eE-+ \\/untrflsabcN\t\n\u2028\ud800\x00', max_size=80)


@pytest.mark.parametrize("module_name", MODULE_NAMES, ids=IDS)
@SETTINGS
@given(data=st.data())
def test_parse_survives_json_like_and_damaged_json_text(
    module_name: str, data: st.DataObject
) -> None:
    module = MODULES[module_name]
    base = json.dumps(VALID[module_name], ensure_ascii=data.draw(st.booleans(), label="ascii"))
    how = data.draw(st.sampled_from(["jsonish", "cut", "splice", "delete", "wrap"]), label="how")
    if how == "jsonish":
        text = data.draw(JSONISH, label="text")
    elif how == "cut":
        text = base[: data.draw(st.integers(0, len(base)), label="at")]
    elif how == "splice":
        at = data.draw(st.integers(0, len(base)), label="at")
        text = base[:at] + data.draw(JSONISH, label="insert") + base[at:]
    elif how == "delete":
        at = data.draw(st.integers(0, len(base)), label="at")
        text = base[:at] + base[at + data.draw(st.integers(1, 5), label="n") :]
    else:
        text = data.draw(
            st.sampled_from(["[%s]", '"%s"', "```json\n%s\n```", "%s%s", "%s,", "// c\n%s"]),
            label="w",
        )
        text = text.replace("%s", base)
    run_parse(module, text)
    run_parse(module, text.encode("utf-8", "surrogatepass"))
