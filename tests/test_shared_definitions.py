"""Shared definitions: ``$ref`` from a contract into a file under the contracts folder's
``common/`` (contract/shared.py), through generate, check (full and headers-only), diff, and
every refusal, each located at the reference's ``path:line:col``."""

from __future__ import annotations

import argparse
import io
import os
import shutil
from pathlib import Path, PurePosixPath

import pytest
from support import ROOT
from toolshape.cli import diff_arguments, main, run_diff
from toolshape.contract import checker, shared
from toolshape.contract.errors import ContractError

CONTRACTS = ROOT / "contracts"
#: The example: two shop tools sharing one money amount, and a tool that shares nothing.
EXAMPLE = (
    "common/money.yaml",
    "shop/place_order.yaml",
    "shop/refund_order.yaml",
    "get_weather.yaml",
)

MONEY = """\
description: Money.
$defs:
  currency: {type: string, pattern: '^[A-Z]{3}$'}
  amount:
    type: object
    properties:
      minor_units: {type: integer, minimum: 0}
      currency: {$ref: '#/$defs/currency'}
    required: [minor_units, currency]
    additionalProperties: false
"""


def tool(ref: str) -> str:
    """A contract whose one property refers to ``ref`` (on line 6)."""
    return f"""\
name: pay
description: Pay an amount.
parameters:
  type: object
  properties:
    price: {{$ref: '{ref}'}}
  required: [price]
"""


def ref_position(text: str) -> tuple[int, int]:
    """The line and column of the value of the first ``$ref`` in ``text``."""
    for number, line in enumerate(text.splitlines(), 1):
        if "$ref:" in line:
            return number, line.index("$ref:") + len("$ref: ") + 1
    raise AssertionError("no $ref")


def write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text, encoding="utf-8")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return code, captured.out, captured.err


def copy_example(into: Path) -> Path:
    for name in EXAMPLE:
        (into / "contracts" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(CONTRACTS / name, into / "contracts" / name)
    return into / "contracts"


def tighten_money(contracts: Path) -> None:
    """Edit the shared file alone: a lower maximum for every amount."""
    money = contracts / "common" / "money.yaml"
    text = money.read_text(encoding="utf-8")
    assert "maximum: 100000000" in text
    money.write_text(text.replace("maximum: 100000000", "maximum: 99999999"), encoding="utf-8")


# -- the example, generate and check ---------------------------------------------------------


def test_the_example_tools_share_the_money_amount_and_stay_standalone() -> None:
    money = (CONTRACTS / "common" / "money.yaml").read_text(encoding="utf-8").splitlines()
    line = next(n for n, text in enumerate(money, 1) if text.strip().startswith("minor_units:"))
    for name in ("place_order", "refund_order"):
        module = (ROOT / "generated" / "shop" / f"{name}.py").read_text(encoding="utf-8")
        assert "def _check_money_amount(" in module  # compiled in, not imported
        # The reviewer is sent to the shared file's line, where the check is written.
        # (the comment is folded within 88 columns: the file and line continue it)
        assert (
            "# minor_units: required, integer, minimum 0, maximum 100000000\n"
            f"        #   (contracts/common/money.yaml:{line})\n"
        ) in module
        assert "common" not in "".join(line for line in module.splitlines() if "import" in line)
    assert not (ROOT / "generated" / "common").exists()  # a shared file is not a tool


def test_schema_of_one_contract_file_reaches_its_shared_definitions(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`toolshape schema FILE` on a file under the contracts folder finds `common/` there (the
    file's own folder would put `../common/` outside)."""
    monkeypatch.chdir(ROOT)
    code, out, err = run(capsys, "schema", "contracts/shop/refund_order.yaml", "--target", "mcp")
    assert code == 0, err
    assert '"$ref"' in out and "money.amount" in out and "common/" not in out


@pytest.mark.parametrize("part", ["shop/refund_order.yaml", "shop"], ids=["file", "subfolder"])
def test_lint_and_generate_of_part_of_the_contracts_folder_reach_its_shared_definitions(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    part: str,
) -> None:
    """A file or a subfolder under the contracts folder (the configured one, ``contracts`` by
    default) finds ``common/`` there, for every command that takes one: its own folder would put
    ``../common/`` outside. Its modules are named by their place in the folder, as the whole
    folder's run names them, so the reference resolves exactly as there."""
    copy_example(tmp_path)
    monkeypatch.chdir(tmp_path)
    given = f"contracts/{part}"
    code, out, err = run(capsys, "lint", given)
    assert (code, err) == (0, ""), err
    code, out, err = run(capsys, "generate", given, "--out", "part")
    assert (code, err) == (0, ""), err
    module = (tmp_path / "part" / "shop" / "refund_order.py").read_text(encoding="utf-8")
    assert "def _check_money_amount(" in module
    assert run(capsys, "check", given, "--out", "part", "-q")[0] == 0
    code, out, err = run(capsys, "schema", "--all", given, "--target", "mcp")
    assert code == 0 and "money.amount" in out, err


def test_a_yaml_problem_beside_a_shared_reference_is_told_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A contract whose YAML has a problem is still checked whole, its shared definitions
    copied in first: its reference to them is not taken for a remote one."""
    folder = copy_example(tmp_path)
    contract = folder / "shop" / "refund_order.yaml"
    contract.write_text("x-a: 1\nx-a: 2\n" + contract.read_text(encoding="utf-8"), "utf-8")
    code, _, err = run(capsys, "lint", str(folder))
    assert code == 1
    assert "duplicate key 'x-a'" in err and "remote" not in err and "$ref" not in err, err


@pytest.mark.parametrize("mode", [[], ["--headers-only"]], ids=["full", "headers-only"])
def test_check_fails_after_editing_the_shared_file_alone(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    mode: list[str],
) -> None:
    contracts = copy_example(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "generate")[0] == 0
    assert run(capsys, "check", *mode)[0] == 0
    tighten_money(contracts)
    code, out, err = run(capsys, "check", *mode)
    assert code == 1
    stale = {line.split(":")[0] for line in (out + err).splitlines() if ": stale:" in line}
    assert {"generated/shop/place_order.py", "generated/shop/refund_order.py"} <= stale
    assert "generated/get_weather.py" not in stale  # it reaches no shared file
    assert run(capsys, "generate")[0] == 0
    assert run(capsys, "check", *mode)[0] == 0


def test_diff_reports_a_shared_file_change_against_each_tool_that_uses_it(tmp_path: Path) -> None:
    old = copy_example(tmp_path / "old")
    new = copy_example(tmp_path / "new")
    tighten_money(new)
    parser = diff_arguments(argparse.ArgumentParser(prog="toolshape diff"))
    out, err = io.StringIO(), io.StringIO()
    code = run_diff(
        parser.parse_args([str(old), str(new), "--fail-on", "breaking"]),
        stdout=out,
        stderr=err,
        cwd=tmp_path,
    )
    lines = out.getvalue().splitlines()
    assert code == 1, err.getvalue()
    for name in ("place_order", "refund_order"):
        assert any(
            line.startswith(f"{name} /$defs/money.amount/properties/minor_units/maximum")
            and "breaking" in line
            for line in lines
        ), lines
    assert not any(line.startswith("get_weather") for line in lines)


# -- refusals, each at the reference ---------------------------------------------------------

REFUSED = {
    "url": (
        "https://example.com/money.yaml#/$defs/amount",
        "never fetches and reads only the contracts folder",
    ),
    "scheme-relative url": (
        "//example.com/money.yaml#/$defs/amount",
        "never fetches and reads only the contracts folder",
    ),
    "file url": (
        "file:///etc/money.yaml#/$defs/amount",
        "never fetches and reads only the contracts folder",
    ),
    "absolute path": (
        "/etc/money.yaml#/$defs/amount",
        "never fetches and reads only the contracts folder",
    ),
    "out of the folder": ("../../money.yaml#/$defs/amount", "leads out of the contracts folder"),
    "out and back in": ("../../contracts/common/money.yaml#/$defs/amount", "leads out"),
    "not a shared file": ("other.yaml#/$defs/amount", "shared definitions only"),
    "not yaml": ("../common/money.txt#/$defs/amount", "shared definitions are"),
    "no fragment": ("../common/money.yaml", "names no definition"),
    "root fragment": ("../common/money.yaml#", "names no definition"),
    "missing file": ("../common/nowhere.yaml#/$defs/amount", "no such file common/nowhere.yaml"),
    "bad pointer": ("../common/money.yaml#/$defs/price", "points at nothing in common/money.yaml"),
    "not a definition": ("../common/money.yaml#/description", "not a definition"),
    "a nul in the name": ("../common/mo%00ney.yaml#/$defs/amount", "cannot read"),
    "a name too long": ("../common/" + "m" * 300 + ".yaml#/$defs/amount", "cannot read"),
}


@pytest.mark.parametrize("ref, message", REFUSED.values(), ids=REFUSED.keys())
def test_a_reference_that_reaches_no_shared_definition_is_an_error_at_the_ref(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], ref: str, message: str
) -> None:
    contract = tool(ref)
    write(tmp_path / "contracts", {"common/money.yaml": MONEY, "shop/pay.yaml": contract})
    write(tmp_path, {"money.yaml": MONEY, "contracts/common/money.txt": MONEY})
    code, _, err = run(
        capsys, "generate", str(tmp_path / "contracts"), "--out", str(tmp_path / "out")
    )
    line, col = ref_position(contract)
    assert code == 1
    assert f"contracts/shop/pay.yaml:{line}:{col}: error: " in err
    assert message in err
    assert not (tmp_path / "out").exists()  # nothing written


def test_a_symlink_out_of_the_contracts_folder_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A .json file: discovery lists only .yaml/.yml (and refuses those that link out itself).
    contract = tool("../common/linked.json#/$defs/amount")
    write(tmp_path, {"outside/money.json": MONEY})
    write(tmp_path / "contracts", {"shop/pay.yaml": contract})
    (tmp_path / "contracts" / "common").mkdir()
    os.symlink(
        tmp_path / "outside" / "money.json", tmp_path / "contracts" / "common" / "linked.json"
    )
    code, _, err = run(
        capsys, "generate", str(tmp_path / "contracts"), "--out", str(tmp_path / "out")
    )
    line, col = ref_position(contract)
    assert code == 1
    assert f"contracts/shop/pay.yaml:{line}:{col}: error: " in err
    assert "symlink that leads out of the contracts folder" in err


def test_a_shared_file_is_checked_and_its_errors_point_at_its_own_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = MONEY.replace("minimum: 0", "minimun: 0")
    write(
        tmp_path / "contracts",
        {"common/money.yaml": broken, "shop/pay.yaml": tool("../common/money.yaml#/$defs/amount")},
    )
    code, _, err = run(
        capsys, "generate", str(tmp_path / "contracts"), "--out", str(tmp_path / "out")
    )
    number = next(n for n, line in enumerate(broken.splitlines(), 1) if "minimun" in line)
    column = broken.splitlines()[number - 1].index("minimun") + 1
    assert code == 1
    assert f"contracts/common/money.yaml:{number}:{column}: error: unknown keyword 'minimun'" in err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    "text, message",
    [
        ("name: pay\ndescription: d\nparameters: {type: object}\n", "not a tool"),
        ("description: no definitions\n", "holds shared definitions: a mapping with '$defs'"),
        ("$defs: {a: {type: string}\n", "expected ','"),  # not YAML
        ("\x00\x01binary", "contains the character U+0000, which YAML does not allow"),
    ],
    ids=["a tool", "no $defs", "not yaml", "binary"],
)
def test_a_referenced_file_that_is_not_shared_definitions_is_an_error_in_that_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    contract = tool("../common/money.yaml#/$defs/amount")
    write(tmp_path / "contracts", {"common/money.yaml": text, "shop/pay.yaml": contract})
    code, _, err = run(
        capsys, "generate", str(tmp_path / "contracts"), "--out", str(tmp_path / "out")
    )
    assert code == 1
    assert "contracts/common/money.yaml:" in err and message in err
    assert "contracts/shop/pay.yaml" not in err  # the reference itself is fine
    assert not (tmp_path / "out").exists()


def test_a_shared_file_nobody_uses_yet_is_checked_all_the_same(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    unused = MONEY.replace("minimum: 0", "minimun: 0")
    write(
        tmp_path / "contracts",
        {
            "common/unused.yaml": unused,
            "get_weather.yaml": (CONTRACTS / "get_weather.yaml").read_text(),
        },
    )
    code, _, err = run(
        capsys, "generate", str(tmp_path / "contracts"), "--out", str(tmp_path / "out")
    )
    number = next(n for n, line in enumerate(unused.splitlines(), 1) if "minimun" in line)
    column = unused.splitlines()[number - 1].index("minimun") + 1
    assert code == 1
    assert (
        f"contracts/common/unused.yaml:{number}:{column}: error: unknown keyword 'minimun'" in err
    )
    assert not (tmp_path / "out").exists()


# -- references between shared files, cycles --------------------------------------------------


def load(contract: str, files: dict[str, str]) -> checker.Contract:
    encoded = {name: text.encode() for name, text in files.items()}
    return checker.load_and_check(
        contract.encode(), "contracts/shop/pay.yaml", PurePosixPath("shop/pay.yaml"), encoded
    )


def test_shared_files_refer_to_each_other_and_recursion_across_files_works() -> None:
    files = {
        "common/tree.yaml": "$defs:\n  node:\n    type: object\n    properties:\n"
        "      children: {type: array, items: {$ref: 'forest.yaml#/$defs/node'}}\n",
        "common/forest.yaml": "$defs:\n  node: {$ref: 'tree.yaml#/$defs/node'}\n",
    }
    checked = load(tool("../common/tree.yaml#/$defs/node"), files)
    from toolshape.contract.reference import evaluate

    deep = {"price": {"children": [{"children": [{"children": 5}]}]}}
    assert evaluate(checked.parameters, deep) == {("/price/children/0/children/0/children", "type")}
    assert evaluate(checked.parameters, {"price": {"children": [{"children": []}]}}) == set()


def test_a_cycle_across_files_that_never_descends_is_an_error_at_the_ref() -> None:
    files = {
        "common/a.yaml": "$defs:\n  x: {$ref: 'b.yaml#/$defs/y'}\n",
        "common/b.yaml": "$defs:\n  y: {$ref: 'a.yaml#/$defs/x'}\n",
    }
    contract = tool("../common/a.yaml#/$defs/x")
    with pytest.raises(ContractError) as caught:
        load(contract, files)
    line, col = ref_position(contract)
    assert any(
        (p.file, p.line, p.col) == ("contracts/shop/pay.yaml", line, col)
        for p in caught.value.problems
    ), caught.value.problems


#: One reference to another file, each way YAML (or JSON) can spell its key and value.
SPELLINGS = {
    "plain": "    price: {$ref: ../common/money.yaml#/$defs/amount}\n",
    "single-quoted": "    price: {'$ref': '../common/money.yaml#/$defs/amount'}\n",
    "json style": '    price: {"$ref": "../common/money.yaml#/$defs/amount"}\n',
    "block": "    price:\n      $ref: >-\n        ../common/money.yaml#/$defs/amount\n",
    "key by code": '    price: {"\\x24ref": ../common/money.yaml#/$defs/amount}\n',
    "key by unicode": '    price: {"\\u0024r\\u0065f": ../common/money.yaml#/$defs/amount}\n',
    "key over two lines": '    price:\n      ? "$r\\\n        ef"\n      : ../common/money.yaml#/$defs/amount\n',
    "beside a local one": "    price: {$ref: '#/$defs/x'}\n    cost: {$ref: ../common/money.yaml#/$defs/amount}\n",
    "after a comment": "    # $ref: '#/$defs/x'\n    price: {$ref: ../common/money.yaml#/$defs/amount}\n",
}


@pytest.mark.parametrize("spelling", SPELLINGS.values(), ids=SPELLINGS.keys())
def test_every_spelling_of_a_reference_to_another_file_is_found(spelling: str) -> None:
    """The planner skips the parse of contracts that surely refer to no other file
    (shared.might_refer): no spelling of such a reference slips past it."""
    contract = "name: pay\ndescription: d\nparameters:\n  type: object\n  properties:\n" + spelling
    read_from: list[PurePosixPath] = []

    def read(path: PurePosixPath) -> bytes:
        read_from.append(path)
        return MONEY.encode()

    files = shared.gather(
        contract.encode(), "contracts/shop/pay.yaml", PurePosixPath("shop/pay.yaml"), read
    )
    assert read_from == [PurePosixPath("common/money.yaml")]
    assert set(files) == {"common/money.yaml"}


def test_diff_says_a_broken_shared_file_once_and_claims_no_tool_removed(tmp_path: Path) -> None:
    old = copy_example(tmp_path / "old")
    new = copy_example(tmp_path / "new")
    money = new / "common" / "money.yaml"
    money.write_text(money.read_text(encoding="utf-8").replace("minimum: 0", "minimun: 0"))
    parser = diff_arguments(argparse.ArgumentParser(prog="toolshape diff"))
    out, err = io.StringIO(), io.StringIO()
    code = run_diff(parser.parse_args([str(old), str(new)]), stdout=out, stderr=err, cwd=tmp_path)
    said = (out.getvalue() + err.getvalue()).splitlines()
    typo = [line for line in said if "'minimun'" in line]
    assert code == 1
    assert len(typo) == 1 and typo[0].startswith("new/contracts/common/money.yaml:"), said
    assert "0 tools changed, 0 added, 0 removed" in said[-1]
