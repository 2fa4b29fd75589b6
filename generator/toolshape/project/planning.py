"""A folder of contracts, planned in memory: every file of its output, or every problem.

``plan`` runs every contract through the pipeline (in worker processes when there are
many); any contract error stops everything before a byte is written. Output already on
disk for the same contract and generator is reused when the cache vouches for it.
"""

from __future__ import annotations

import functools
import gc
import os
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePosixPath
from typing import Any

from .. import __version__
from ..codegen import render
from ..codegen.context import GenerationContext
from ..codegen.literals import Code, comment, literal
from ..codegen.wrapping import JOINED_WIDTH, entry
from ..contract import checker, shared, tool_hints
from ..contract.errors import ContractError, Problem, UsageError
from ..platforms import export
from . import cache, configuration, discovery, headers, manifest, pipeline, runtime
from .listing import INDENT

#: Told ``(done, total, contract)`` before ``plan`` waits for each contract it generates
#: (``progress.Progress`` shows it on a terminal).
Listener = Callable[[int, int, str], None]


@dataclass
class Plan:
    """The complete output for a contracts folder, in memory: relative path -> text."""

    files: dict[PurePosixPath, str] = field(default_factory=dict)
    generated: list[pipeline.Generated] = field(default_factory=list)
    #: The path each of ``generated`` was found at (the contracts folder as given), for messages.
    sources: list[str] = field(default_factory=list)
    #: Files read from this output folder while planning (reused output): they are
    #: unchanged there, and write() and check() need not read them again.
    reused_from: Path | None = None
    reused: set[PurePosixPath] = field(default_factory=set)
    #: The warnings of every contract, in the order of the contract files (each file's
    #: sorted by position); on reused output, those recorded when it was generated.
    warnings: list[Problem] = field(default_factory=list)
    #: Contract files whose module black formatted because layout.py had no rule for a
    #: statement in it (toolshape's gap: the same bytes, only slower), with the reason.
    layout_gaps: list[tuple[str, str]] = field(default_factory=list)
    #: What to record in the cache (cache.py) once the freshly generated files are written.
    cache_entries: dict[str, cache.Entry] = field(default_factory=dict)
    #: The sha256 of files' bytes, where planning computed it already (the modules and tests
    #: it generated, or reused on the cache's word): the record need not hash them again.
    digests: dict[PurePosixPath, str] = field(default_factory=dict)

    def read_already(self, out: Path) -> set[PurePosixPath]:
        """The files known to be as planned in ``out`` (those reused from it)."""
        if self.reused_from is None or out.resolve() != self.reused_from.resolve():
            return set()
        return self.reused

    @property
    def test_files(self) -> list[PurePosixPath]:
        """The generated test modules (tests/**/test_*.py) among ``files``."""
        return [p for p in self.files if p.parts[0] == "tests" and p.name.startswith("test_")]


#: Below this many contracts to generate, one process does it all: starting
#: worker processes costs more than it saves.
POOL_THRESHOLD = 8


@dataclass
class _Slot:
    """One contract file on its way through ``plan``."""

    shown: str  # the path as found (what problems name)
    label: str  # the stable name in generated headers
    relative: PurePosixPath  # e.g. billing/refund.yaml
    raw: bytes = b""
    problems: list[Problem] = field(default_factory=list)
    generated: pipeline.Generated | None = None
    reused: bool = False  # its output on disk is up to date (pipeline.reuse)
    #: The sha256 of its module and tests (what the cache records for them), once known.
    entry: cache.Entry | None = None
    #: The shared-definitions files it reaches (shared.gather), by path in the contracts folder.
    files: dict[str, bytes] = field(default_factory=dict)


def plan(
    root: Path,
    context: GenerationContext,
    reuse_from: Path | None = None,
    trust_headers: bool = False,
    out: Path | None = None,
    *,
    settings: configuration.Settings | None = None,
    progress: Listener | None = None,
) -> Plan:
    """Run every contract under ``root`` through the pipeline; raise ContractError with all problems.

    With ``reuse_from``, output already in that folder is reused instead of generated
    again when the cache (cache.py, outside the folder) records the sha256 of its very
    bytes for this contract and generator: an edit there cannot forge that. With
    ``trust_headers`` the files' own headers are taken as enough evidence (a fast
    check that a hand edit with a recomputed seal fools; never for `generate`).

    Problems name each contract file by the path it was found at (``root`` as
    given, then the path inside it), so an editor or CI can open it; the
    generated headers use the stable label instead (see ``discovery.label``). They come
    in the order of the contract files, however many processes generated them.
    The headers name the command that regenerates the output for ``out`` (see
    ``regenerate_command``, which ``settings`` can shorten; without ``out``, the context's
    command). ``progress`` hears of each contract generated.
    """
    if out is not None:
        context = context.for_command(regenerate_command(root, out, settings))
    found = discovery.find_contracts(root)
    folder = contracts_folder_of(root, settings)
    tools = set(_tools_among(found, folder))
    definitions = [path for path in found if path not in tools]
    slots = [_slot(folder, path) for path in found if path in tools]
    # The shared files are checked first, each on its own: the contract stage, before any
    # contract is generated; their problems are reported after the contracts' own.
    shared_problems = _shared_problems(definitions)
    pending = _read_or_reuse(slots, context, reuse_from, trust_headers, shared_reader(folder))
    _generate(pending, context, progress or _unheard)
    result = Plan(reused_from=reuse_from)
    # A broken shared file is reported once, however many contracts reach it.
    problems = list(dict.fromkeys(_gather(slots, context, result) + shared_problems))
    if problems:
        raise ContractError(problems + result.warnings)  # every finding at once; still exit 1
    _add_files(result, context)
    return result


def _read_or_reuse(
    slots: list[_Slot],
    context: GenerationContext,
    reuse_from: Path | None,
    trust_headers: bool,
    read: shared.Reader,
) -> list[_Slot]:
    """Read each contract whose module clashes with no other, with the shared files it reaches
    (by ``read``), and take its output from ``reuse_from`` when that is up to date (see
    ``_reused``): the slots left to generate."""
    modules = _ModuleIndex()
    pending = []
    for slot in slots:
        if slot.problems:
            continue
        clash = modules.add(slot.relative.with_suffix(""), slot.shown)
        if clash is not None:
            slot.problems.append(Problem(slot.shown, 1, 1, clash))
            continue
        try:
            slot.raw = _read(Path(slot.shown), slot.shown)
            slot.files = shared.gather(slot.raw, slot.label, slot.relative, read)
            reused = _reused(slot, context, reuse_from, trust_headers)
        except ContractError as exc:
            slot.problems.extend(exc.problems)
            continue
        if reused is not None:
            slot.generated, slot.entry = reused
        slot.reused = slot.generated is not None
        if not slot.reused:
            pending.append(slot)
    return pending


def _gather(slots: list[_Slot], context: GenerationContext, result: Plan) -> list[Problem]:
    """Every slot's output, warnings and layout gaps into ``result``, in the order of the
    contract files; the problems of every slot (two tools of one name among them), each
    naming its file by the path it was found at."""
    problems: list[Problem] = []
    names: dict[str, str] = {}
    for slot in slots:
        problems.extend(_as_found(p, slot) for p in slot.problems)
        generated = slot.generated
        if slot.problems or generated is None:
            continue
        result.warnings.extend(
            replace(w, file=slot.shown) if w.file == slot.label else w for w in generated.warnings
        )
        result.layout_gaps.extend((slot.shown, reason) for reason in generated.layout_gaps)
        name = generated.tool_name
        if name in names:
            line, col = generated.contract.document.value_at(("name",))
            problems.append(
                Problem(
                    slot.shown, line, col, f"tool name '{name}' is already used by {names[name]}"
                )
            )
            continue
        names[name] = slot.shown
        result.generated.append(generated)
        result.sources.append(slot.shown)
        if slot.reused:
            result.reused.update((generated.module_path, generated.test_path))
        else:
            digest = headers.digest(slot.raw, context, slot.files)
            entry_key = cache.key(digest, slot.label, slot.relative)
            slot.entry = _entry(generated)
            result.cache_entries[entry_key] = slot.entry
        if slot.entry is not None:
            result.digests[generated.module_path] = slot.entry.module_sha256
            result.digests[generated.test_path] = slot.entry.test_sha256
    return problems


def _as_found(problem: Problem, slot: _Slot) -> Problem:
    """``problem`` naming its file by the path it was found at: the contract's, or a shared
    file's (named after the contract's label, contract/shared.py) under the same folder."""
    if problem.file == slot.label:
        return replace(problem, file=slot.shown)
    inside = slot.relative.as_posix()
    label_base, shown_base = (
        name[: -len(inside)] if name.endswith(inside) else None for name in (slot.label, slot.shown)
    )
    if label_base is None or shown_base is None or not problem.file.startswith(label_base):
        return problem
    return replace(problem, file=shown_base + problem.file[len(label_base) :])


def _slot(root: Path, path: Path) -> _Slot:
    parts, reasons = discovery.module_parts(root, path)
    slot = _Slot(
        str(path), discovery.label(root, path), parts if reasons else parts.with_suffix(".yaml")
    )
    slot.problems.extend(Problem(slot.shown, 1, 1, reason) for reason in reasons)
    return slot


def _unheard(done: int, total: int, contract: str) -> None:
    """The listener of a plan nobody follows."""


def _generate(pending: list[_Slot], context: GenerationContext, progress: Listener) -> None:
    """Generate the contracts that could not be reused: in worker processes when there
    are many, else right here; ``progress`` is told before each is waited for."""
    workers = min(_usable_cpus(), len(pending))
    if workers < 2 or len(pending) < POOL_THRESHOLD:
        for done, slot in enumerate(pending):
            progress(done, len(pending), slot.shown)
            _generate_one(slot, context)
        return
    import concurrent.futures
    import multiprocessing
    import threading

    # fork starts workers with everything imported already, but forking a process that
    # runs other threads (toolshape used as a library) can deadlock: spawn then.
    forkable = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
    method = "fork" if forkable else "spawn"
    with concurrent.futures.ProcessPoolExecutor(
        workers,
        mp_context=multiprocessing.get_context(method),
        # A worker makes its own context again (an environment cannot be sent to it).
        initializer=functools.partial(_start_worker, context.templates, context.command),
    ) as pool:
        jobs = [(slot.raw, slot.label, slot.relative, slot.files) for slot in pending]
        try:
            results = pool.map(_work, jobs)  # in order: the next is the one waited for
            for done, slot in enumerate(pending):
                progress(done, len(pending), slot.shown)
                generated, problems = next(results)
                slot.generated = generated
                slot.problems.extend(problems)
        except BaseException:  # a bug in toolshape, or Ctrl-C: do not generate the rest first
            pool.shutdown(wait=True, cancel_futures=True)
            raise


def _generate_one(slot: _Slot, context: GenerationContext) -> None:
    try:
        slot.generated = pipeline.generate(slot.raw, slot.label, slot.relative, context, slot.files)
    except ContractError as exc:
        slot.problems.extend(exc.problems)


#: At most this many worker processes unless TOOLSHAPE_JOBS says otherwise: a CI runner
#: may show many CPUs while its quota allows few, and each worker imports black.
MAX_WORKERS = 8


def _usable_cpus() -> int:
    """How many worker processes: TOOLSHAPE_JOBS when set (1 turns them off), else the
    CPUs this process may run on, at most MAX_WORKERS."""
    jobs = os.environ.get("TOOLSHAPE_JOBS", "").strip()
    if jobs:
        if not (jobs.isascii() and jobs.isdigit() and int(jobs) > 0):
            raise UsageError(
                f"TOOLSHAPE_JOBS={jobs!r}: give a whole number of worker processes, 1 or more"
            )
        return int(jobs)
    try:
        cpus = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cpus = os.cpu_count() or 1
    return min(cpus, MAX_WORKERS)


_WORKER_CONTEXT: GenerationContext | None = None
#: A worker's young-generation threshold (gc.set_threshold; Python's default is 700).
WORKER_GC_THRESHOLD = 10_000


def _start_worker(templates: Path | None, command: str) -> None:
    global _WORKER_CONTEXT
    _WORKER_CONTEXT = render.generation_context(templates, command)
    # Everything the worker holds now (the modules, the templates, and under fork the parent's
    # whole heap) lives as long as it does: the collector need not walk it at each of its full
    # collections, which each contract's parse trees and cases set off (gc.freeze, as Python's
    # documentation advises for a forked child; issue 20).
    gc.freeze()
    # A contract's parse trees and cases are short-lived containers by the ten thousand: at
    # Python's default threshold (700) they set off 22 young and 2 middle collections per
    # contract, which walked them before they died. At 10,000 (measured over 150 synthetic
    # contracts, after the freeze): time in the collector 6.7 -> 2.2 ms of a contract's ~115 ms
    # (issue 20). Cyclic garbage waits a little longer to be collected, nothing more.
    gc.set_threshold(WORKER_GC_THRESHOLD)


def _work(
    job: tuple[bytes, str, PurePosixPath, dict[str, bytes]],
) -> tuple[pipeline.Generated | None, list[Problem]]:
    """One contract in a worker process: its output (without the checked contract,
    which the parent loads again only if it needs it), or its problems."""
    assert _WORKER_CONTEXT is not None
    raw, label, relative, files = job
    try:
        generated = pipeline.generate(raw, label, relative, _WORKER_CONTEXT, files)
    except ContractError as exc:
        return None, exc.problems
    generated.checked = None
    return generated, []


class _ModuleIndex:
    """The modules planned so far, to refuse two contracts for one module, or a module
    beside a package of the same name (billing.py and billing/eu.py)."""

    def __init__(self) -> None:
        self.modules: dict[PurePosixPath, tuple[int, str]] = {}  # module -> (order, shown)
        self.first_under: dict[
            PurePosixPath, tuple[int, PurePosixPath, str]
        ] = {}  # folder -> first module in it

    def add(self, parts: PurePosixPath, shown: str) -> str | None:
        """Record ``parts`` (from the contract ``shown``); or say why it cannot be added."""
        if parts in self.modules:
            return f"its module {parts.with_suffix('.py')} is already generated from {self.modules[parts][1]}; rename one"
        # The earliest planned module that is a package of this one, or inside this one as a package.
        found = [
            (self.modules[other][0], other, self.modules[other][1])
            for other in parts.parents
            if other in self.modules
        ]
        if parts in self.first_under:
            found.append(self.first_under[parts])
        if found:
            _, other, other_shown = min(found, key=lambda item: item[0])
            package, module = (other, parts) if other in parts.parents else (parts, other)
            return (
                f"module {package.with_suffix('.py')} (from one contract) and package {package}/ "
                f"(holding {module.with_suffix('.py')}) would clash; rename the contract or the folder "
                f"(other contract: {other_shown})"
            )
        order = len(self.modules)
        self.modules[parts] = (order, shown)
        for folder in parts.parents:
            self.first_under.setdefault(folder, (order, parts, shown))
        return None


def _entry(generated: pipeline.Generated) -> cache.Entry:
    return cache.Entry(
        cache.sha256(generated.module_source.encode("utf-8")),
        cache.sha256(generated.test_source.encode("utf-8")),
        generated.listing,
    )


def _reused(
    slot: _Slot, context: GenerationContext, out: Path | None, trust_headers: bool
) -> tuple[pipeline.Generated, cache.Entry | None] | None:
    """Output already on disk for exactly this contract and generator, untouched since, and
    the sha256 of its files when the cache vouched for them.

    Unless ``trust_headers``, the cache must record these very bytes as what toolshape wrote
    for this contract: the headers alone are written by whoever edits the file. With
    ``trust_headers`` they are all the evidence there is (``pipeline.reuse`` reads them)."""
    if out is None:
        return None
    raw, label, relative = slot.raw, slot.label, slot.relative
    recorded = (
        None
        if trust_headers
        else cache.lookup(cache.key(headers.digest(raw, context, slot.files), label, relative))
    )
    if recorded is None and not trust_headers:
        return None
    module_path, test_path = pipeline.paths_for(relative)
    try:
        module_data, test_data = (
            (out / Path(*p.parts)).read_bytes() for p in (module_path, test_path)
        )
    except OSError:
        return None
    if recorded is not None and recorded != cache.Entry(
        cache.sha256(module_data), cache.sha256(test_data)
    ):
        return None
    # Bytes the cache vouches for are the very bytes generate wrote for this digest: their
    # headers name it and their seals hold, and need not be read again.
    generated = pipeline.reuse(
        raw,
        label,
        relative,
        context,
        module_data,
        test_data,
        vouched=recorded is not None,
        files=slot.files,
        listed=None if recorded is None else recorded.listing,
    )
    return None if generated is None else (generated, recorded)


def _read(path: Path, label: str) -> bytes:
    from ..contract.source import MAX_CONTRACT_BYTES

    try:
        size = path.stat().st_size
        if size > MAX_CONTRACT_BYTES:
            raise ContractError(
                [
                    Problem(
                        label,
                        1,
                        1,
                        f"contract file is {size} bytes; the limit is {MAX_CONTRACT_BYTES} bytes",
                    )
                ]
            )
        return path.read_bytes()
    except OSError as exc:
        raise ContractError(
            [Problem(label, 1, 1, f"cannot read the contract file: {exc.strerror}")]
        ) from None


def _add_files(result: Plan, context: GenerationContext) -> None:
    version = Code(__version__)
    tools: dict[str, str] = {}
    packages: set[PurePosixPath] = set()
    for generated in sorted(result.generated, key=lambda g: g.module_path):
        result.files[generated.module_path] = generated.module_source
        result.files[generated.test_path] = generated.test_source
        parent = generated.module_path.parent
        # Every folder on the way down is a package, on both sides: billing/eu/x.py
        # needs billing/ and billing/eu/, its test tests/billing/ and tests/billing/eu/.
        for folder in (parent, *parent.parents):
            if folder.parts:
                packages.add(folder)
                packages.add(PurePosixPath("tests", *folder.parts))
        # Relative to the package, so that it can be vendored under any name.
        tools[generated.tool_name] = "." + ".".join(generated.module_path.with_suffix("").parts)
    # What every module imports (from ._runtime import ...), once, at the top.
    result.files[runtime.RUNTIME_PATH] = runtime.runtime_source(context)
    result.files[PurePosixPath("__init__.py")] = package_source(
        context, tools, _declared_hints(result.generated)
    )
    result.files[DEFINITIONS_PATH] = _tool_definitions(result.generated, context)
    for package in sorted(packages):
        if package.parts:
            init = package / "__init__.py"
            result.files[init] = render.render(
                context,
                "subpackage.py.j2",
                str(init),
                version=version,
                tests=package.parts[0] == "tests",
            )
    result.files.setdefault(
        PurePosixPath("tests/__init__.py"),
        render.render(
            context, "subpackage.py.j2", "tests/__init__.py", version=version, tests=True
        ),
    )
    result.files[manifest.MANIFEST] = manifest.manifest(result.files, result.digests)


def package_source(
    context: GenerationContext, tools: dict[str, str], hints: dict[str, dict[str, bool]]
) -> str:
    """The generated package's ``__init__.py``: ``tools`` (tool name -> its module, relative
    to the package) and the MCP ``hints`` each tool declares."""
    return render.render(
        context,
        "package.py.j2",
        "__init__.py",
        # A tool entry split over lines (a long name in a folder) is held by a comment.
        pin="its generated module",
        version=Code(__version__),
        tools=literal(tools),
        platforms=literal(export.PLATFORMS),
        annotations=literal(hints),
        hint_defaults=literal(tool_hints.DEFAULTS),
        command=comment(context.command, limit=400),
    )


def _declared_hints(generated: list[pipeline.Generated]) -> dict[str, dict[str, bool]]:
    """Each tool's declared MCP hints (its MCP definition's ``annotations``: recorded with reused
    output, so no contract is loaded again), for the tools that declare any."""
    declared: dict[str, dict[str, bool]] = {}
    for tool in sorted(generated, key=lambda g: g.module_path):
        if tool.listing.hints:
            declared[tool.tool_name] = tool.listing.hints
    return declared


#: The package's tool lists for every platform (tool_definitions.py.j2), imported on first use.
DEFINITIONS_PATH = PurePosixPath("_tool_definitions.py")


def _tool_definitions(generated: list[pipeline.Generated], context: GenerationContext) -> str:
    """The sealed text of ``_tool_definitions.py``: each platform's list of every tool's definition,
    in the order of the contract files (as ``toolshape schema --all`` prints it), or, when the
    platform refuses any tool, every reason instead (``schema --all`` then prints nothing)."""
    definitions: dict[str, list[Code]] = {}
    refused: dict[str, list[Code]] = {}
    for platform in export.PLATFORMS:
        reasons = [r for g in generated for r in g.listing.refused.get(platform, ())]
        if reasons:
            refused[platform] = _items(reasons)
        else:  # JSON text, one string per tool, as the listing writes it (see listing.py)
            definitions[platform] = [Code(g.listing.entries[platform]) for g in generated]
    handed: list[Code] = []  # what the stand-ins stand for (the built-in template only)
    text = _rendered_lists(
        context,
        handed,
        version=Code(__version__),
        definitions=_shown(definitions, handed, context),
        refused=_shown(refused, handed, context),
        command=comment(context.command, limit=400),
    )
    return headers.seal(text)


def _rendered_lists(context: GenerationContext, handed: list[Code], **variables: Any) -> str:
    """tool_definitions.py.j2 rendered, proved to compile; ``handed``: the entries its
    stand-ins stand for (the built-in template)."""
    label = str(DEFINITIONS_PATH)
    if context.builtin:
        # Every entry is one expression by construction: string literals, written by
        # ``wrapping`` or taken from the cache only in that shape (listing.py). So only the
        # code around them is compiled: compiling megabytes of definitions again was most of
        # what the lists cost a run that generated one contract.
        return render.render_tables(context, "tool_definitions.py.j2", label, handed, **variables)
    # A template of the user's own may print an entry anywhere: all of it is compiled.
    return render.render(context, "tool_definitions.py.j2", label, formatted=True, **variables)


def _shown(
    lists: dict[str, list[Code]], handed: list[Code], context: GenerationContext
) -> list[tuple[Code, list[Code]]]:
    """Each platform's list as the template takes it: its entries, or with the built-in
    template their stand-ins (``render.stand_in``), the entries added to ``handed``."""
    if not context.builtin:
        return [(literal(p), items) for p, items in lists.items()]
    shown: list[tuple[Code, list[Code]]] = []
    for platform, items in lists.items():
        shown.append(
            (literal(platform), [render.stand_in(len(handed) + i) for i in range(len(items))])
        )
        handed.extend(items)
    return shown


def _items(texts: list[str]) -> list[Code]:
    """The reasons a platform refuses the list, as the template writes them (8 columns in, a
    comma after): whole where a formatter leaves them, else cut into pieces that fit."""
    return [entry(text, INDENT, whole=JOINED_WIDTH) for text in texts]


def regenerate_command(
    root: Path, out: Path, settings: configuration.Settings | None = None
) -> str:
    """The command a generated file's header says regenerates it: ``toolshape generate``, with
    the contracts and ``--out`` named where they are not the defaults (``contracts``, and
    ``generated`` beside it), or plain ``toolshape generate`` when the project's
    ``[tool.toolshape]`` (``settings``) names both folders (see ``Settings.generates``).

    Spelt from the folder that holds the contracts folder, where the header's contract path
    (``contracts/x.yaml``, see ``discovery.label``) starts: the same whatever the working folder
    and however the paths were given (``./contracts``, an absolute path), so the output does not
    depend on either; only where the output folder is, seen from there, changes it.
    """
    if settings is not None and settings.generates(root, out):
        return generate_command("contracts", "generated")
    base = root.resolve()
    top = base if root.is_dir() else base.parent
    contracts = PurePosixPath(top.name or ".")
    if not root.is_dir():
        contracts = contracts / base.name
    where = PurePosixPath(Path(os.path.relpath(out.resolve(), top.parent)).as_posix())
    return generate_command(str(contracts), str(where))


def generate_command(
    contracts: str,
    out: str,
    templates: str | None = None,
    *,
    implied: tuple[str, str] = ("contracts", "generated"),
) -> str:
    """``toolshape generate`` for these folders, as a shell would take it: the contracts and
    ``--out`` named where they are not those ``implied`` (the defaults, or the folders the
    project's ``[tool.toolshape]`` names)."""
    words = ["toolshape", "generate"]
    if contracts != implied[0]:
        words.append(contracts)
    if out != implied[1]:
        words += ["--out", out]
    if templates is not None:
        words += ["--templates", templates]
    return shlex.join(words)


def tool_files(root: Path, folder: Path) -> list[Path]:
    """The contract files under ``root`` that are tools: the shared-definitions files of the
    contracts folder ``folder`` (``contracts_folder_of``) left out."""
    return _tools_among(discovery.find_contracts(root), folder)


def _tools_among(found: list[Path], folder: Path) -> list[Path]:
    """The contract files of ``found`` that are tools: not shared definitions of ``folder``."""
    return [path for path in found if not shared.is_shared(_relative(folder, path))]


def contracts_folder_of(root: Path, settings: configuration.Settings | None = None) -> Path:
    """The contracts folder that ``root`` (a contract file, or a folder of them) belongs to,
    where the shared definitions its contracts reach are found (``common/``) and its modules
    are named from: the configured folder (``contracts`` by default) when ``root`` lies in it,
    spelled as ``root`` is; else ``root`` itself (a lone file: its folder)."""
    configured = Path((settings.contracts if settings else None) or "contracts").resolve()
    for folder in [root, *root.parents]:
        if folder.resolve() == configured:
            return folder
    return root if root.is_dir() else root.parent


def checked_contract(root: Path, path: Path, shown: str) -> checker.Contract:
    """The checked contract at ``path`` (shown as ``shown``) in the contracts folder ``root``
    (a lone file: its folder), with the shared definitions it reaches; raise ContractError."""
    raw = _read(path, shown)
    relative = _relative(root, path)
    files = shared.gather(raw, shown, relative, shared_reader(root))
    return checker.load_and_check(raw, shown, relative, files)


def _relative(root: Path, path: Path) -> PurePosixPath:
    """Where ``path`` sits in the contracts folder ``root`` (a lone file: its name)."""
    return PurePosixPath(*(path.relative_to(root) if root.is_dir() else Path(path.name)).parts)


def shared_reader(root: Path) -> shared.Reader:
    """Reads a shared-definitions file by its path in the contracts folder ``root`` (a lone
    contract's folder), and nothing outside it: a symlink that leads out is refused."""
    top = (root if root.is_dir() else root.parent).resolve()

    def read(relative: PurePosixPath) -> bytes:
        path = top.joinpath(*relative.parts)
        try:
            inside = path.resolve().is_relative_to(top)
            found = path.is_file()
        except (OSError, ValueError) as error:  # a name too long, a NUL in it, a symlink loop
            raise shared.Unreadable(f"cannot read {relative!r}: {error}") from None
        if not inside:
            raise shared.Unreadable(
                f"{relative} is a symlink that leads out of the contracts folder"
            )
        if not found:
            raise shared.Unreadable(f"no such file {relative} in the contracts folder")
        try:
            return _read(path, str(path))
        except ContractError as error:
            raise shared.Unreadable(error.problems[0].message) from None

    return read


def _shared_problems(paths: list[Path]) -> list[Problem]:
    """The problems of every shared-definitions file, used or not: each is checked on its own
    (a broken definition nobody uses yet is found before someone does)."""
    return [p for path in paths for p in checker.shared_problems(_read(path, str(path)), str(path))]
