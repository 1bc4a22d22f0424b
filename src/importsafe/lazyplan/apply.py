"""Use cases of the lazy-import plan: analyse, check, write. IO here: reading sources, and
writing through fix.apply.write_patches (the plan's edits) or the filter module. The fix
package (libcst, slow to import) loads only when edits are made."""
from __future__ import annotations

import mmap
import os
import tempfile
import zlib
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence

from ..api import deep_recursion, load
from ..static.parallel import map_streamed, no_cyclic_gc
from ..static.parse import PARALLEL_MIN_FILES
from ..static.simulate import iter_pairs, traced_run
from .effects import Engine
from .plan import (CHECKED_MODES, LISTED, PARALLEL_MIN, SYNTAX, check_plan, filter_module,
                   kept_bodies, lazy_program, loaded_modules, loaded_since, patches_for,
                   ran_modules, simulate_all, simulate_results)
from .readers import Readers, words_of
from .scan import scan_module, scan_tree
from .table import table
from .order import Order
from .verdict import (Context, closures_from_trace, import_graph, module_verdicts,
                      static_closure, statement_verdict)

LAZY_SYNTAX = (3, 15)
FILTER_MARK = "as `importsafe lazy-plan` found them safe"


@dataclass(frozen=True, slots=True)
class Benefit:
    entry: str
    eager: int  # analysed modules `import entry` runs today
    lazy: int  # ... with the plan applied


@dataclass(frozen=True, slots=True)
class LazyPlan:
    roots: tuple[str, ...]
    statements: tuple  # StatementVerdict, sorted by file and line
    modules: dict  # module -> ModuleVerdict, every analysed module
    lazy: frozenset  # (module, line) the plan makes lazy
    style: str  # SYNTAX or LISTED
    patches: tuple
    lazy_patches: tuple  # the same plan as `lazy` statements (how 3.15 runs either)
    base: dict  # (entry, mode) -> Result today: mode lazy for every entry; normal and bare
    # where a result with the plan is not ok or the lazy one fails (an ok one needs no base)
    after: dict  # (entry, mode) -> Result with the plan (mode lazy: unchanged)
    benefit: tuple[Benefit, ...]
    assumed: dict  # module -> external functions it calls that the effect table lacks
    packages: tuple[str, ...]
    target_version: tuple[int, int]
    written: tuple[str, ...] = ()
    problem: str | None = None  # why nothing was written
    filter_text: str | None = None
    filter_written: str | None = None
    ran: frozenset = frozenset()  # the modules the packages' own imports run
    program: object = field(default=None, repr=False, compare=False)  # what was simulated
    problems: tuple = field(default=())  # (file, line, message) of unreadable sources
    unlisted: frozenset = frozenset()  # modules that bind `__lazy_modules__` themselves

    @property
    def broken(self) -> list:
        """Entries that work today and fail with the plan (none, once checked)."""
        return [pair for pair, r in self.after.items()
                if r.outcome != "ok" and self.base[pair].outcome == "ok"]


def _sources(index) -> tuple[dict, list]:
    sources, problems = {}, []
    for name, info in index.items():
        if info.kind not in ("module", "package"):
            continue
        try:
            with open(info.path, "rb") as f:
                sources[name] = f.read()
        except OSError as exc:
            problems.append((info.path, 1, f"cannot read: {exc.strerror}"))
    return sources, problems


def lazy_plan(paths: Iterable[str], source_roots: Sequence[str] = (),
              target_version: tuple[int, int] = (3, 11), jobs: int | None = None,
              effects: dict | None = None, env=()) -> LazyPlan:
    """Every module-level import of the code under `paths` that PEP 810 allows to be lazy:
    lazy-safe or why not, and the checked plan for the target version (its edits are made
    by `materialize`, when they are to be shown or written). `env`: environment variables,
    as `api.check` takes them."""
    loaded = load(list(paths), source_roots, target_version, jobs, env=env,
                  per_tree=_scan_parsed)
    program = loaded.program
    workers = jobs or os.cpu_count() or 1
    index = program.index
    sources, problems = _sources(index)
    entries = loaded.entries
    packages = tuple(sorted({e.partition(".")[0] for e in entries}))
    with no_cyclic_gc(), deep_recursion():
        effect_table = table(effects)  # a bad extension is reported from here
        scans, words = _scans(program, sources, workers, loaded.extras)

        def analyse() -> _Analysis:
            found = _effects(program, sources, effect_table, scans, words)
            return _Analysis(found.effects, found.reads, found.engine.called_reads,
                             module_verdicts(found.effects, found.reads, found.readers,
                                             set(scans), loaded.roots, found.engine.lineage),
                             found.engine.assumed, found.engine.namespace_reads)
        base, analysis, (closures, ran, trace, eager_counts) = _first_runs(
            program, entries, analyse, workers, lambda: _package_runs(program, packages))
        # today's normal-mode result matters only where one with the plan is not ok, and
        # for the report of lazy mode's failures: asked for together, in one stage
        failing_lazy = [(e, "normal") for e in entries if base[(e, "lazy")].outcome == "error"]

        def today(pairs):
            return _today(program, base, [*failing_lazy, *pairs], workers)
        _add_called_reads(scans, analysis.called_reads)
        modules = analysis.modules
        verdicts = _verdicts(program, scans, effect_table, analysis, entries, sources,
                             closures, ran, trace)
        by_statement = {(v.module, v.line): set(v.closure) for v in verdicts}
        style = SYNTAX if tuple(target_version) >= LAZY_SYNTAX else LISTED
        unlisted = frozenset(n for n, text in sources.items() if b"__lazy_modules__" in text)
        checked = check_plan(program, verdicts, entries, today, by_statement, style,
                             workers=workers, unlisted=unlisted)
        today(())  # the lazy-mode failures' normal-mode results, whatever check_plan asked
        final, lazy, after, benefit, filter_text = _settled(
            program, checked, verdicts, base,
            {top: eager_counts[top] for top in packages if top in index}, packages)
    analysed = {n: modules[n] for n in entries if n in modules}
    assumed = {n: tuple(sorted(v)) for n, v in analysis.assumed.items() if n in analysed}
    return LazyPlan(tuple(loaded.roots), final, analysed, lazy, style, (), (), base,
                    after, benefit, assumed, packages, tuple(target_version),
                    filter_text=filter_text, problems=tuple(problems), ran=frozenset(ran),
                    program=program, unlisted=unlisted)


def _settled(program, checked, verdicts, lazy_mode: dict, eager: dict, packages) -> tuple:
    """What the checked plan makes of the verdicts: (the statements with the reasons it
    kept some eager for, the statements it makes lazy, every result with it, mode lazy's
    taken from `lazy_mode`, the benefit over `eager` (top -> modules its import runs today),
    the filter module's text)."""
    lazy = frozenset(checked.lazy)
    after = {**checked.after, **{pair: r for pair, r in lazy_mode.items() if pair[1] == "lazy"}}
    changed = lazy_program(program, set(lazy))
    benefit = tuple(Benefit(top, count, loaded_modules(changed, top))
                    for top, count in eager.items())
    final = tuple(sorted((_with_kept(v, checked.kept) for v in verdicts),
                         key=lambda v: (v.file, v.line)))
    return final, lazy, after, benefit, filter_module(set(lazy), list(final), packages)


@dataclass(frozen=True, slots=True)
class _Found:
    scans: dict
    engine: Engine
    effects: dict
    reads: dict
    readers: Readers


@dataclass(frozen=True, slots=True)
class _Analysis:
    """What the effect analysis sends back (from a child process, see _first_runs)."""
    effects: dict
    reads: dict
    called_reads: dict  # see Engine.called_reads
    modules: dict  # module -> ModuleVerdict
    assumed: dict
    namespace_reads: dict  # see Engine.namespace_reads


_ANALYSIS = ("the effect analysis",)  # its place among the first runs' items
_PACKAGES = ("the packages' own imports",)
_SKIPPED = ("not simulated",)  # an optional run left out: the analysis was done by then


def _first_runs(program, entries, analyse, workers: int,
                package_runs=lambda: None) -> tuple[dict, _Analysis, object]:
    """The first imports of today in mode lazy ((entry, mode) -> Result), analyse() and
    package_runs(), which share nothing with them: in `workers` processes that take the
    analysis first (a child, at the front of its share), package_runs() first (this one)
    and the simulations as they go. While the analysis still runs, the other processes go
    on with today's normal-mode first imports (added to the results): the plan's check asks
    for some of them, and the function bodies they load come back with them, so that the
    check's processes need not parse them on its critical path; none is run once the
    analysis is done."""
    pairs = [(e, "lazy") for e in entries]
    if workers <= 1 or len(pairs) < PARALLEL_MIN:
        runs = package_runs()
        return simulate_all(program, pairs), analyse(), runs
    optional = [(e, "normal") for e in entries]
    work_items = [*pairs, *optional]
    at = (len(work_items) + 2) // workers  # where the second worker's share starts
    items = [_PACKAGES, *work_items[:at - 1], _ANALYSIS, *work_items[at - 1:]]
    done = mmap.mmap(-1, 1)  # shared with the forked processes: 1 once the analysis is done
    first_optional = len(pairs)

    def work(part):
        held = []  # the analysis, done while iter_pairs asked for its next pair
        take = loaded_since(program)

        def with_bodies(result):
            return result, take()

        def only_pairs():
            for item in part:
                if item is _ANALYSIS:
                    held.append(analyse())
                    done[0] = 1
                elif item is _PACKAGES:
                    held.append(package_runs())
                elif item[1] == "normal" and done[0]:
                    held.append(_SKIPPED)
                else:
                    yield item
        for result, _ in iter_pairs(only_pairs(), program, simulate_results):
            yield from map(with_bodies, held)
            held.clear()
            yield with_bodies(result)
        yield from map(with_bodies, held)
    try:
        found = map_streamed(work, items, workers, every=256)
    finally:
        done.close()
    found = kept_bodies(program, found)
    runs, analysis = found[0], found[at]
    results = found[1:at] + found[at + 1:]
    base = dict(zip(pairs, results[:first_optional]))
    base.update((pair, r) for pair, r in zip(optional, results[first_optional:])
                if r != _SKIPPED)  # (a copy from another process: not the same object)
    return base, analysis, runs


def _today(program, base: dict, pairs, workers: int = 1) -> dict:
    """`base` with the results of today's first imports of `pairs` added (those not there
    yet, simulated now); returned."""
    todo = [pair for pair in dict.fromkeys(pairs) if pair not in base]
    if todo:
        base.update(simulate_all(program, todo, workers))
    return base


def _add_called_reads(scans: dict, called_reads: dict) -> None:
    """Names read by functions called at import time count as the module's own reads."""
    for name, names in called_reads.items():
        first = scans[name].first_reads
        for read, line in names.items():
            if line < first.get(read, line + 1):
                first[read] = line
                scans[name].first_read_at.pop(read, None)  # inside a call: unordered


def _scan_parsed(info, source: bytes, tree, lazy_lines, is_module):
    """A module's scan and words, made where the parse stage parsed it (load's per_tree),
    with the source's checksum: they stand for the source read later only if it is the same."""
    return (len(source), zlib.crc32(source),
            scan_tree(tree, lazy_lines, source, info.name, info.path, info.kind == "package",
                      is_module), words_of(source))


def _scans(program, sources: dict, workers: int, made: dict) -> tuple[dict, dict]:
    """Module -> its ModuleScan, and module -> the words of its source (readers.words_of):
    those the parse stage `made` (of a source unchanged since), the others made here, in
    `workers` processes when there are many modules."""
    index, is_module = program.index, program.index.__contains__
    scans, words = {}, {}
    for n in sources:
        extra = made.get(n)
        if extra is not None and extra[0] == len(sources[n]) and \
                extra[1] == zlib.crc32(sources[n]):
            scans[n], words[n] = extra[2], extra[3]
    names = sorted(n for n in sources if n not in scans)

    def work(part):
        for n in part:
            yield scan_module(sources[n], n, index[n].path, index[n].kind == "package",
                              is_module), words_of(sources[n])
    found = map_streamed(work, names, workers if len(names) >= PARALLEL_MIN_FILES else 1,
                         every=64)
    scans.update((n, f[0]) for n, f in zip(names, found))
    words.update((n, f[1]) for n, f in zip(names, found))
    return {n: scans[n] for n in sorted(scans)}, {n: words[n] for n in sorted(words)}


def _effects(program, sources: dict, effect_table, scans: dict, words: dict) -> _Found:
    index, is_module = program.index, program.index.__contains__
    engine = Engine(scans, sources.__getitem__, effect_table, is_module)
    effects, reads = {}, {}
    for name in scans:
        effects[name], reads[name] = engine.module_effects(name)
    return _Found(scans, engine, effects, reads,
                  Readers(sources, {n: index[n].path for n in sources}, words))


def _package_runs(program, packages):
    """The closures of the statements the packages' own imports run, which modules they
    run, their traces, and how many modules each package's import runs (top -> count)."""
    closures, ran, traces, counts = {}, set(), [], {}
    for top in packages:
        if top in program.index:
            _, trace = traced_run(program, top, "normal")
            traces.extend(trace)
            for key, value in closures_from_trace(trace).items():
                closures.setdefault(key, set()).update(value)
            done = ran_modules(trace)
            counts[top] = len(done)
            ran.update(done)
    return closures, ran, traces, counts


def _verdicts(program, scans, effect_table, analysis: _Analysis, entries, sources,
              closures, ran, trace):
    is_module = program.index.__contains__
    graph = import_graph(scans, is_module)
    modules = analysis.modules

    memo: dict = {}

    def closure_of(stmt, module):
        if module in ran:
            return closures.get((module, stmt.line), set())
        return static_closure(stmt, module, graph, ran, is_module, memo)

    context = Context(modules, effect_table.modules, closure_of,
                      Order(trace, scans, is_module), analysis.effects, analysis.reads,
                      closures, analysis.namespace_reads)
    out = []
    for module in entries:
        scan = scans.get(module)
        if scan is None:
            continue
        mentions = _mention_counter(sources[module])
        for stmt in scan.statements:
            if stmt.eligible:
                out.append(statement_verdict(scan, stmt, closure_of(stmt, module), context,
                                             mentions, _target(stmt, is_module)))
    return out


def materialize(plan: LazyPlan, again: bool = True) -> LazyPlan:
    """The plan's edits as text, in its style and as `lazy` statements, and the first
    imports simulated again over the rewritten sources themselves, in modes normal and bare.
    The plan was made in mode normal: what it breaks in mode bare goes back to eager (the
    same rounds, from here) and the smaller plan is rewritten and simulated again."""
    if plan.patches or not plan.lazy:
        return plan
    from ..fix.apply import read_text
    from ..fix.plan import patched_program
    program = plan.program
    verdicts = list(plan.statements)
    from .rewrite import RewriteError
    try:
        written = patches_for(program, verdicts, set(plan.lazy), {SYNTAX, plan.style},
                              read_text)
    except (RewriteError, OSError, ValueError) as exc:  # changed or unreadable since
        return replace(plan, problem=f"the plan cannot be written: {exc}")
    as_lazy, patches = tuple(written[SYNTAX]), tuple(written[plan.style])
    entries = sorted({e for e, _ in plan.after})
    workers = os.cpu_count() or 1
    with no_cyclic_gc(), deep_recursion():
        base = dict(plan.base)
        changed = patched_program(program, as_lazy, program.target_version)
        found = simulate_all(changed, [(e, m) for e in entries for m in CHECKED_MODES],
                             workers, made=True)
        after = {pair: result for pair, (result, _) in found.items()}
        _today(program, base, [pair for pair, r in after.items() if r.outcome != "ok"],
               workers)
        if again and any(r.outcome != "ok" and base[pair].outcome == "ok"
                         for pair, r in after.items()):
            created = {pair: modules for pair, (_, modules) in found.items()}
            smaller = _narrowed(replace(plan, base=base), entries, after, created, workers)
            return materialize(smaller, again=False)
    after.update({pair: r for pair, r in plan.after.items() if pair[1] == "lazy"})
    return replace(plan, patches=patches, lazy_patches=as_lazy, after=after, base=base)


def _narrowed(plan: LazyPlan, entries, after: dict, created: dict, workers: int) -> LazyPlan:
    """The plan with what breaks a first import in `after` (results with it, in the
    CHECKED_MODES) sent back to eager, as check_plan does."""
    program, base = plan.program, plan.base
    verdicts = list(plan.statements)
    closures = {(v.module, v.line): set(v.closure) for v in verdicts}
    checked = check_plan(program, verdicts, entries,
                         lambda pairs: _today(program, base, pairs, workers), closures,
                         plan.style, CHECKED_MODES, workers, plan.unlisted,
                         start=(plan.lazy, after, created))
    final, lazy, after, benefit, filter_text = _settled(
        program, checked, verdicts, plan.after, {b.entry: b.eager for b in plan.benefit},
        plan.packages)
    return replace(plan, statements=final, lazy=lazy, after=after, benefit=benefit,
                   filter_text=filter_text)


def _target(stmt, is_module) -> str:
    """The module a statement is about: `from pkg import sub` names the submodule."""
    targets = stmt.targets(is_module)
    return targets[1] if stmt.kind == "from" and len(targets) > 1 else targets[0]


def _with_kept(v, kept: dict):
    reason = kept.get((v.module, v.line))
    if reason is None:
        return v
    return replace(v, lazy_safe=False, reasons=(*v.reasons, reason))


def _mention_counter(source: bytes):
    from ..static.sideeffects import mentions
    text = source.decode("utf-8", "replace")
    return lambda name: mentions(text, name)


def write(plan: LazyPlan, filter_path: str | None = None, patches: bool = True) -> LazyPlan:
    """Apply the checked plan: its edits (all or none), and/or the filter module. Either is
    first simulated over the rewritten sources (the filter makes lazy what the edits do)."""
    if patches or filter_path is not None:
        plan = materialize(plan)
        if plan.problem:
            return plan
    if plan.broken:
        return replace(plan, problem="the plan breaks first imports that work today; "
                                     "nothing was written")
    written, problem = (), None
    if patches and plan.patches:
        from ..fix.apply import write_patches
        written, problem = write_patches(plan.patches)
    filter_written = None
    if filter_path is not None and problem is None:
        problem = _write_filter(filter_path, plan.filter_text or "")
        filter_written = None if problem else filter_path
    return replace(plan, written=tuple(written), problem=problem, filter_written=filter_written)


def _write_filter(path: str, text: str) -> str | None:
    """Write the filter module (a new file, or one this command wrote before), atomically."""
    if os.path.exists(path):
        from ..fix.apply import read_text
        try:
            current = read_text(path)
        except (OSError, UnicodeDecodeError) as exc:
            return f"cannot read {path}: {exc}; nothing was written there"
        if FILTER_MARK not in current:
            return f"{path} exists and is not a filter importsafe wrote; nothing was written there"
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".importsafe-", suffix=".py")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
        os.replace(tmp, path)
    except OSError as exc:
        return f"cannot write {path}: {exc.strerror}"
    return None
