"""Finding the contracts of a folder and the module each one becomes.

``find_contracts`` lists the contract files (symlinks that leave the tree refused);
``label`` is how a contract is named in generated headers; ``module_parts`` says which
module a contract file becomes and why it cannot, when it cannot.
"""

from __future__ import annotations

import keyword
import os
import re
from pathlib import Path, PurePosixPath

from ..codegen.names import PACKAGE_NAMES
from ..contract.errors import ContractError, Problem, UsageError

CONTRACT_SUFFIXES = (".yaml", ".yml")


class ProjectError(Exception):
    """A problem with the project as a whole, not at a line of one contract: exit status 1."""


def find_contracts(root: Path) -> list[Path]:
    """Contract files under ``root``, sorted; symlinks that leave the tree are refused.

    A symlinked folder inside the tree is not followed (its contracts are found at
    their real place); one leading out of the tree is refused like a symlinked file.
    """
    if root.is_file():
        return [root]
    if not root.is_dir():
        raise UsageError(f"{root}: no such contracts folder or file")
    top = root.resolve()
    found, problems = [], []
    for folder, dirs, files in os.walk(root):
        base = Path(folder)
        for name in sorted(dirs):
            link = base / name
            if link.is_symlink():
                dirs.remove(name)
                if not link.resolve().is_relative_to(top):
                    problems.append(
                        Problem(
                            str(link),
                            1,
                            1,
                            "a symlink that leads out of the contracts folder is refused",
                        )
                    )
        for name in files:
            path = base / name
            if path.suffix not in CONTRACT_SUFFIXES or not path.is_file():
                continue
            if not path.resolve().is_relative_to(top):
                problems.append(
                    Problem(
                        str(path),
                        1,
                        1,
                        "a symlink that leads out of the contracts folder is refused",
                    )
                )
                continue
            found.append(path)
    if problems:
        raise ContractError(problems)
    if not found:
        raise ProjectError(f"{root}: no contracts (*.yaml, *.yml) found")
    return sorted(found, key=lambda p: p.relative_to(root).parts)


def label(root: Path, path: Path) -> str:
    """How a contract is named in generated headers: stable, never absolute.

    The contracts folder's own name, then the path inside it (``contracts/billing/x.yaml``),
    whatever the working folder and however the folder was given.
    """
    base = root.resolve()
    name = base.name if root.is_dir() else base.parent.name
    top = base if root.is_dir() else base.parent
    return str(PurePosixPath(name or ".", *path.resolve().relative_to(top).parts))


def module_name_problem(name: str) -> str | None:
    """Why a contract file or folder name cannot be a generated module or package name, or None.

    Only ASCII identifiers: Python reads identifiers NFKC-normalised, so ``ﬁle`` (with the
    U+FB01 ligature) would import as ``file``, another contract's module; and a folder
    name that only differs in Unicode form would not be found on every file system."""
    if (
        name.isascii()
        and name.isidentifier()
        and not keyword.iskeyword(name)
        and not name.startswith("__")
    ):
        return None
    return (
        f"'{name}' is not a valid Python module name (ASCII letters, digits and _, not starting with a digit "
        f"or __, not a keyword); rename the contract file or folder, e.g. to '{suggested_name(name)}'"
    )


def suggested_name(name: str) -> str:
    """An ASCII identifier close to ``name`` (``ﬁle-v2`` -> ``file_v2``, ``café`` -> ``cafe``):
    compatibility forms and accents dropped (NFKD), other characters turned into _."""
    import unicodedata

    ascii_only = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    plain = re.sub(r"[^A-Za-z0-9_]", "_", ascii_only).strip("_") or "tool"
    if plain[0].isdigit():
        plain = f"tool_{plain}"
    if keyword.iskeyword(plain):
        plain = f"{plain}_tool"
    return plain


def module_parts(root: Path, path: Path) -> tuple[PurePosixPath, list[str]]:
    relative = path.relative_to(root) if root.is_dir() else PurePosixPath(path.name)
    parts = PurePosixPath(*Path(relative).parts).with_suffix("")
    reasons = [reason for reason in map(module_name_problem, parts.parts) if reason is not None]
    if parts.parts[0] == "tests":
        reasons.append(
            "'tests' is where the generated tests go; name the contract or folder otherwise"
        )
    elif parts.parts[0] in PACKAGE_NAMES:
        reasons.append(
            f"'{parts.parts[0]}' is a name the generated package itself defines; name the contract or folder otherwise"
        )
    return parts, reasons
