"""The generation context: what one run of the generator shares, made once and handed down.

The Jinja environment, the custom templates folder it was made with, the fingerprint of its
templates, the command the generated headers name, the shared runtime's text and the layout
notes travel together in one typed object. ``render.generation_context`` makes it where the
environment is made (the command line, ``toolshape diff``, each worker process of
``project/planning.py``), and it is passed down explicitly: planning -> pipeline -> rendering.
Nothing is kept on the Jinja environment itself, and nothing in a module-level variable.

A worker process cannot be sent an environment: it makes its own context again from
``templates`` and ``command`` (``project/planning.py``), and hands its layout notes back
with each contract's output.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import NamedTuple

import jinja2

from .model import REGENERATE


class LayoutNote(NamedTuple):
    """Built-in template output that layout.py had no rule for, which black formatted instead:
    toolshape's gap (the same bytes, only slower), never the contract's."""

    label: str  # the file rendered, e.g. billing/refund.py
    reason: str  # the first line of layout.py's reason


@dataclass
class GenerationContext:
    """Everything rendering and the generated headers depend on besides the contract."""

    environment: jinja2.Environment
    #: The custom templates folder that overrides built-ins by file name; None: the built-in
    #: templates alone, whose output layout.py lays out (a custom template's goes through black).
    templates: Path | None
    #: A hash of every template the environment can load (output depends on all of them),
    #: computed once when the context is made; the headers' digests include it.
    template_fingerprint: str
    #: The command the generated headers say regenerates the output.
    command: str = REGENERATE
    #: The sealed text of the shared ``_runtime.py`` for these templates: rendered on first use
    #: by ``project/runtime.py`` (it needs the headers' digest), then reused.
    runtime: str | None = field(default=None, repr=False)
    #: Where black formatted built-in template output because layout.py had no rule for it.
    layout_notes: list[LayoutNote] = field(default_factory=list, repr=False)

    @property
    def builtin(self) -> bool:
        """Whether only the built-in templates render (no custom templates folder)."""
        return self.templates is None

    def for_command(self, command: str) -> GenerationContext:
        """This context with headers that name ``command``: the same environment, templates and
        layout notes (the runtime's text does not depend on the command)."""
        return self if command == self.command else replace(self, command=command)

    def take_layout_notes(self, label: str) -> list[str]:
        """The reasons noted for the file ``label`` since they were last taken, taken out of the
        notes (a file generated twice in one run is not reported twice)."""
        taken = [note.reason for note in self.layout_notes if note.label == label]
        self.layout_notes[:] = [note for note in self.layout_notes if note.label != label]
        return taken
