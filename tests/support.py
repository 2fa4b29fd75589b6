"""What many test files share, importable by name (``from support import ROOT, ENV``):
the repository's folders and the built-in Jinja environment, built once per session.

Plain module-level names rather than fixtures because parametrize lists need them when a
test file is imported; ``conftest.py`` offers the same as fixtures (``root``, ``env``).
"""

from __future__ import annotations

from pathlib import Path

import jinja2
from toolshape.codegen import render

ROOT = Path(__file__).resolve().parents[1]
CONTRACTS = ROOT / "contracts"
GENERATED = ROOT / "generated"
BENCH = ROOT / "tests" / "bench"

#: The built-in templates' environment. Rendering does not change it, so one serves every test
#: (building it parses every template: about a tenth of a second each time).
ENV: jinja2.Environment = render.environment()
