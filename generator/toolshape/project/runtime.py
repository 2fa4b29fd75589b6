"""The shared runtime, ``_runtime.py``: its text for a generation context, and generated
modules run with it in memory.

Every tool module imports its helpers from the ``_runtime.py`` at the root of the output
folder. Before anything is written, the pipeline runs each freshly generated module in memory
(``load_module``) inside a package made up for its runtime's text, where its
``from ._runtime import ...`` finds that runtime.
"""

from __future__ import annotations

import functools
import hashlib
import sys
import types
from pathlib import PurePosixPath

from .. import __version__
from ..codegen import render
from ..codegen.context import GenerationContext
from ..codegen.literals import Code
from ..codegen.masks import MASK_KEYS
from ..families.combinators.checks import UNION_CODES
from .headers import generator_digest, seal

#: The shared runtime every tool module imports, at the root of the output folder.
RUNTIME_PATH = PurePosixPath("_runtime.py")


def runtime_source(context: GenerationContext) -> str:
    """The sealed text of ``_runtime.py`` for the context's templates (rendered once per context).

    The built-in template is written as black formats it (a test holds it to that), so it
    is not formatted again; a custom one goes through black like every custom template."""
    if context.runtime is None:
        text = render.render(
            context,
            "_runtime.py.j2",
            str(RUNTIME_PATH),
            formatted=context.builtin,
            version=Code(__version__),
            digest=Code(generator_digest(context)),
            unions=UNION_CODES,
            mask_keys=MASK_KEYS,
        )
        context.runtime = seal(text)
    return context.runtime


def load_module(module_source: str, label: str, runtime: str | None = None) -> types.ModuleType:
    """Execute generated source (ours, not the contract's) as a fresh module, in memory.

    Its ``from ._runtime import ...`` (``.._runtime`` from billing/x.py) finds ``runtime``
    (the built-in templates' runtime if None) in a package made up for it (see _memory_package),
    whatever folders the label names."""
    package = _memory_package(runtime if runtime is not None else _builtin_runtime())
    parts = PurePosixPath(label).with_suffix("").parts
    shared = sys.modules[package + "._runtime"]
    for depth in range(1, len(parts)):
        # The runtime at every level of the label's folders: a module built for the top
        # (``from ._runtime``) loads under any label, one built for billing/ (``.._runtime``) too.
        sys.modules.setdefault(".".join((package, *parts[:depth], "_runtime")), shared)
    module = types.ModuleType(".".join((package, *parts)))
    module.__package__ = ".".join((package, *parts[:-1]))
    exec(compile(module_source, f"<generated {label}>", "exec"), module.__dict__)
    return module


def runtime_module(runtime: str | None = None) -> types.ModuleType:
    """The in-memory ``_runtime`` module that ``load_module`` gives modules with this runtime
    text (the built-in templates' if None): for code that loads a module its own way."""
    return sys.modules[
        _memory_package(runtime if runtime is not None else _builtin_runtime()) + "._runtime"
    ]


@functools.lru_cache(maxsize=1)
def _builtin_runtime() -> str:
    return runtime_source(render.generation_context())


def _memory_package(runtime: str) -> str:
    """The name of a package, in ``sys.modules`` only, whose ``_runtime`` module runs ``runtime``.

    One per runtime text (named by its hash), made on first use: every module loaded in
    memory with that runtime shares it, as the modules of a generated folder share theirs.
    A relative import resolves by name through ``sys.modules``, so the package needs no
    folder and no subpackages."""
    name = "_toolshape_in_memory_" + hashlib.sha256(runtime.encode()).hexdigest()[:16]
    if name not in sys.modules:
        package = types.ModuleType(name)
        package.__path__ = []
        shared = types.ModuleType(name + "._runtime")
        shared.__package__ = name
        exec(compile(runtime, f"<generated {RUNTIME_PATH}>", "exec"), shared.__dict__)
        sys.modules[shared.__name__] = shared
        sys.modules[name] = package
    return name
