"""The keys of a contract file itself (not of its schemas), named once.

A contract is a mapping of the tool's ``name``, ``description``, ``parameters`` (the schema of
its arguments), ``output`` (the schema of its result) and ``examples`` (tests of the
generated validator, never sent to the model); one example holds ``args``, ``json`` or
``result``, its ``status``, the ``errors`` it expects and a ``description``. Two of these keys
share their name with a schema annotation (``description``, ``examples``): the contract
check, ``toolshape diff`` and the example run read the contract's through the names below,
which are the annotations' own (``families/annotations/``): the spelling stays there.
"""

from __future__ import annotations

# What the tool does, for the model choosing it (the contract's, and an example's); the
# contract's examples: tests of the generated validator. The annotations' names.
from ..families.annotations.rules import DESCRIPTION as DESCRIPTION
from ..families.annotations.rules import EXAMPLES as EXAMPLES

#: Top-level keys of a contract file (the platforms' tool hints come after them).
CONTRACT_KEYS = ("name", DESCRIPTION, "parameters", "output", EXAMPLES)
#: Keys of one entry under ``examples``.
EXAMPLE_KEYS = ("args", "json", "result", "status", "errors", DESCRIPTION)
