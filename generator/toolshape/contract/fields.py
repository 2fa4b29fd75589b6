"""The keys of a contract file itself (not of its schemas), named once.

A contract is a mapping of the tool's ``name``, ``description``, ``parameters`` (the schema of
its arguments), ``output`` (the schema of its result) and ``examples`` (tests of the
generated validator, never sent to the model); one example holds ``args``, ``json`` or
``result``, its ``status``, the ``errors`` it expects and a ``description``. The contract
check, ``toolshape diff`` and the example run read them through the names below. Two of these
keys are spelled as a schema annotation is (``description``, ``examples``) but are not one:
they belong to the contract's format, which is why they are spelled here, and the vocabulary
test lists them as words of two meanings (``SAME_WORD`` in ``tests/test_vocabulary.py``).
"""

from __future__ import annotations

#: What the tool does, for the model choosing it (the contract's, and an example's).
DESCRIPTION = "description"
#: The contract's examples: tests of the generated validator.
EXAMPLES = "examples"

#: Top-level keys of a contract file (the platforms' tool hints come after them).
CONTRACT_KEYS = ("name", DESCRIPTION, "parameters", "output", EXAMPLES)
#: Keys of one entry under ``examples``.
EXAMPLE_KEYS = ("args", "json", "result", "status", "errors", DESCRIPTION)
