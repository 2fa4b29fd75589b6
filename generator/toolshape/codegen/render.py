"""Rendering: model -> Jinja templates -> black-formatted, compiled Python source.

The environment is strict: an undefined name fails, and the only values it
prints are :class:`~toolshape.codegen.literals.Code` (literals, names, comments made by
``literals.py``) and numbers. A template that pastes a raw contract string
fails to render instead of emitting code nobody wrote.

``generation_context`` makes the environment together with what every render of a run shares
(``context.py``); ``render`` is handed that context, and notes in it the layout gaps it meets.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

from . import comments, formatting, long_literals, pins
from .context import GenerationContext, LayoutNote
from .literals import Code, literal
from .model import REGENERATE

#: Where the built-in templates are: the top-level templates/ folder in a
#: checkout, the toolshape/templates package data in an installed wheel.
_HERE = Path(__file__).resolve().parent.parent
BUILTIN_TEMPLATES = next(
    (
        p
        for p in (_HERE / "templates", _HERE.parent.parent / "templates")
        if (p / "module.py.j2").is_file()
    ),
    _HERE / "templates",
)


class RenderError(Exception):
    """A template misbehaved: a bug in toolshape or in a custom template, not in a contract."""


def _finalize(value: Any) -> Any:
    # Code (and what macros return, built from Code) passes; so do numbers.
    if isinstance(value, Markup):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise RenderError(
            f"a template printed a raw {type(value).__name__} ({str(value)[:40]!r}); "
            "contract values must go through the `literal` filter"
        )
    return value


def _block(text: str, width: int) -> Markup:
    """A macro's output as a block: trailing blank lines dropped, lines after the first indented."""
    lines = str(text).rstrip("\n").split("\n")
    pad = " " * width
    return Markup(
        "\n".join([lines[0]] + [pad + line if line.strip() else "" for line in lines[1:]])
    )


def _unreachable(what: str) -> str:
    raise RenderError(f"template reached an unhandled case: {what}")


def environment(custom: Path | None = None) -> jinja2.Environment:
    """The strict template environment; ``custom`` templates override built-ins by file name."""
    loaders: list[jinja2.BaseLoader] = [jinja2.FileSystemLoader(str(BUILTIN_TEMPLATES))]
    if custom is not None:
        loaders.insert(0, jinja2.FileSystemLoader(str(custom)))
    env = jinja2.Environment(
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        # On only so that raw strings are told apart from Code in _finalize.
        autoescape=True,
        finalize=_finalize,
    )
    env.filters["literal"] = literal
    env.filters["block"] = _block
    env.globals["unreachable"] = _unreachable
    return env


def generation_context(
    templates: Path | None = None, command: str = REGENERATE
) -> GenerationContext:
    """A new generation context: the strict environment for ``templates`` (None: the built-in
    ones) and the fingerprint of its templates, for output whose headers name ``command``."""
    env = environment(templates)
    return GenerationContext(env, templates, fingerprint(env), command)


def render(
    context: GenerationContext,
    template: str,
    label: str,
    *,
    formatted: bool = False,
    compiles: bool = True,
    pin: str | None = None,
    **variables: Any,
) -> str:
    """Render ``template`` in black's style and prove it compiles (unless the caller proves
    that itself: ``compiles=False``). ``pin``: what the comments that keep ruff's formatter
    at 100 columns from joining lines say where the code names no contract line
    (``pins.pinned``'s ``note``).

    The output is what ``black.format_str(source, mode=black.Mode())`` gives, so vendored
    code passes a plain ``black --check``: the built-in templates' output is laid out by
    ``layout.py`` (see formatting.py), a custom template's goes through black. A template
    written black-formatted already (``formatted``) is not touched."""
    try:
        source = context.environment.get_template(template).render(**variables)
    except jinja2.TemplateError as exc:
        raise RenderError(f"{template}: {exc}") from exc
    if not formatted:
        if context.builtin:
            # A shape layout.py has no rule for is toolshape's gap, not the user's error: that
            # statement or piece (or, where the source cannot be cut, the module) is formatted
            # by black's public format_str instead (the same bytes layout.py aims at), and the
            # gap is noted; the tests lay out every example and synthetic module with layout.py
            # alone, so a gap there fails them.
            gaps: list[str] = []
            source = comments.folded(source)  # no formatter folds a comment: E501 would flag it
            try:
                source = formatting.lay_out(source, gaps)
                source = long_literals.cut(source)  # black leaves a long string as it is
                source = pins.pinned(source, pin)  # what ruff at 100 columns would join
            except formatting.LayoutError as exc:
                gaps.append(str(exc).splitlines()[0])
                source = _black(source, template, label)
            context.layout_notes.extend(LayoutNote(label, reason) for reason in dict.fromkeys(gaps))
        else:
            source = _black(source, template, label)
    if compiles:
        compile(source, label, "exec")
    return source


#: A data entry's stand-in in a rendered template (see ``render_tables``): a NUL, its index, a
#: NUL. No rendered text holds a NUL of its own: ``literal`` and ``comment`` escape it, and
#: Python refuses a source that holds one.
_STAND_IN = re.compile("\0([0-9]+)\0")

#: What a stand-in is compiled as: an atom, where an entry is an expression.
_ATOM = "None"


def stand_in(index: int) -> Code:
    """The stand-in of the ``index``-th entry handed to ``render_tables``."""
    return Code.of(f"\0{index}\0")


def render_tables(
    context: GenerationContext,
    template: str,
    label: str,
    entries: Sequence[Code],
    **variables: Any,
) -> str:
    """``render(..., formatted=True)`` of a template whose data entries were handed in as
    stand-ins (``stand_in(i)`` for ``entries[i]``): the same text, proved to compile at a
    fraction of the cost.

    What is compiled is the rendered text with an atom in each entry's place: the code
    around the tables. Each entry is one expression by construction: ``wrapping.entry``
    writes a value only through ``literal`` and brackets (``tests/test_wrapping.py`` reads
    every entry back as its value, in a table and after ``NAME = ``), so putting it where
    the atom stood leaves a module that compiles. Compiling the tables' literals again was
    most of the cost of proving the generated tests compile."""
    try:
        text = context.environment.get_template(template).render(**variables)
    except jinja2.TemplateError as exc:
        raise RenderError(f"{template}: {exc}") from exc
    # Split, the text comes in pieces: around the stand-ins, the index of each stand-in.
    parts = _STAND_IN.split(text)
    around, indexes = parts[0::2], [int(index) for index in parts[1::2]]
    if any("\0" in piece for piece in around) or any(i >= len(entries) for i in indexes):
        raise RenderError(f"{template} printed a stand-in that render_tables was not handed")
    compile(_ATOM.join(around), label, "exec")
    spliced = [around[0]]
    for index, piece in zip(indexes, around[1:], strict=True):
        spliced += (entries[index], piece)
    return "".join(spliced)


def _black(source: str, template: str, label: str) -> str:
    import black

    try:
        return formatting.black_format(source)
    except black.InvalidInput as exc:
        raise RenderError(
            f"{template} rendered invalid Python for {label}: {exc}\n{_numbered(source)}"
        ) from exc


def fingerprint(env: jinja2.Environment) -> str:
    """A hash of every template the environment can load: output depends on all of them."""
    digest = hashlib.sha256()
    assert env.loader is not None
    for name in sorted(env.loader.list_templates()):
        text, _, _ = env.loader.get_source(env, name)
        digest.update(name.encode() + b"\0" + text.encode() + b"\0")
    return digest.hexdigest()


def _numbered(source: str) -> str:
    return "\n".join(f"{i:4} {line}" for i, line in enumerate(source.splitlines(), 1))
