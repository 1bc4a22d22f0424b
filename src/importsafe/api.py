"""Use cases: the only place that sequences the stages. IO here is reading source files."""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from functools import partial
from typing import TYPE_CHECKING, Iterable, Sequence

from .integrations.shard import take_shard
from .model import ALL_MODES, DEFAULT_TIMEOUT, MODES, Diagnostic, Report, Result
from .policy.diagnose import diagnose
from .rules import RULES
from .static.discover import ModuleInfo, read_listings
from .static.events import ModuleFacts, summary, summary_items
from .static.layout import InputError, Target, is_entry, resolve_layout, scan
from .static.parallel import map_streamed, no_cyclic_gc
from .static.installed import Versions
from .static.parse import (PARALLEL_MIN_FILES, analysed_by_root, discover_and_parse, read_bytes,
                           read_facts, read_functions)
from .static.simulate import iter_pairs, simulate_modules
from .static.state import Program
from .store.facts import FactsCache
from .store.results import (Traces, fingerprints, hint_holds, index_key, mask_of, names_table,
                            prefix, reusable)
from .store.runs import RunCache, ancestors_project_files, check_arguments

if TYPE_CHECKING:  # the dynamic side loads when `run` or `verify` runs
    from .dynamic.runner import DynamicReport, Progress
    from .static.explain import Explanation

RECURSION_LIMIT = 20000


@dataclass(frozen=True, slots=True)
class Loaded:
    """Everything a use case needs after discovery and parsing."""

    program: Program
    entries: tuple[str, ...]
    roots: tuple[str, ...]
    problems: tuple
    # every path whose state decided this load: files, walked directories, source roots,
    # project files (runcache.py)
    watched: tuple[str, ...] = ()
    scans: dict = field(default_factory=dict)  # see discover_and_parse
    extras: dict = field(default_factory=dict)  # module -> per_tree's result (see load)


def load(paths: Iterable[str], source_roots: Sequence[str] = (),
         target_version: tuple[int, int] = (3, 11), jobs: int | None = None,
         memo: bool = True, cache_dir: str | None = None,
         summaries: dict[str, ModuleFacts] | None = None,
         scans: dict | None = None, strict: bool = False, env=(),
         per_tree=None) -> Loaded:
    """Discover and parse (facts cached in `cache_dir` when given; `summaries` of files
    unchanged since, see FactsCache; `scans` see discover_and_parse; `strict`: without the
    ordinary-order rule; `per_tree(info, source, tree, lazy_lines, is_module)`: run on each
    module's tree where it is parsed, its results in Loaded.extras (parse.load_facts); `env`:
    environment variables the analysed code runs with, as a
    mapping or (name, value) pairs, every other one unset); raises InputError when nothing
    can be analysed."""
    env = environment(env)
    roots, targets, mapped = resolve_layout(list(paths), list(source_roots))
    workers = jobs or os.cpu_count() or 1
    cache = FactsCache(cache_dir, summaries) if cache_dir else None
    watch: list[str] = []
    extras: dict = {}
    with no_cyclic_gc():
        index, facts, problems, imported = discover_and_parse(
            targets, roots, target_version, workers, cache, mapped, watch, scans, env,
            per_tree, extras)
    entries = tuple(sorted(n for n, i in index.items() if i.kind in ("module", "package")
                           and is_entry(n, targets, i.kind == "package")
                           and not n.endswith("__main__")))
    if not entries:
        raise InputError("no Python modules found under " + ", ".join(map(str, paths)))
    listings = read_listings(index.values(), lambda name: name in facts and dict.get(
        facts, name).lists_dirs)  # a summary says it as well as the full facts
    watch.extend(listings)
    program = Program(index, facts, memo=memo, named=imported, listings=listings,
                      load_bodies=lambda name:
        read_facts(index[name], target_version, bodies=True, cache=cache, env=env),
        target_version=target_version, strict=strict, load_functions=lambda name: read_functions(
            index[name], target_version, cache,
            facts[name].future_annotations if cache is None else None,
            facts[name].def_spans if cache is None else (), env,
            cache is None and facts[name].problem is None),
        env=env, versions=Versions.of_environment(roots))
    watch.extend(roots)
    watch.extend(ancestors_project_files(paths))
    watch.extend(info.path for info in index.values())
    return Loaded(program, entries, tuple(roots), tuple(problems), tuple(watch),
                  scans if scans is not None else {}, extras)


def environment(env) -> tuple[tuple[str, str], ...]:
    """Environment variables given as a mapping or (name, value) pairs, sorted by name."""
    items = env.items() if hasattr(env, "items") else env
    return tuple(sorted((str(k), str(v)) for k, v in dict(items or ()).items()))


def check(paths: Iterable[str], modes: Sequence[str] = MODES, source_roots: Sequence[str] = (),
          target_version: tuple[int, int] = (3, 11), jobs: int | None = None,
          memo: bool = True, skip: Sequence[str] = (), cache_dir: str | None = None,
          shard: tuple[int, int] | None = None, runs: RunCache | None = None,
          keep: list | None = None, strict: bool = False, env=()) -> Report:
    """Predict, without running any of it, the outcome of every first import under `paths`
    (but of the entries that a `skip` pattern matches). With `cache_dir`: when no path the
    last identical check read has changed, its report (runcache.py); else facts of unchanged
    files are read from there instead of parsed, and the stored results that no changed
    module could have decided are reused (resultcache.py). `runs`: the run cache, when the caller
    already looked it up. `keep`: a list the loaded program is appended to, so that the caller
    decides when its memory is given back (the command line exits without: freeing a large
    program object by object is slow). `strict`: without the ordinary-order rule, what it
    would assume stays unknown. `env`: environment variables the analysed code runs with
    (a mapping or (name, value) pairs); every other one is unset."""
    paths = list(paths)
    env = environment(env)
    if cache_dir and runs is None:
        runs = RunCache(cache_dir, check_arguments(paths, modes, source_roots, target_version,
                                                   skip, shard, strict, env))
    if runs is not None and not runs.tried:
        found = runs.get()
        if found is not None:
            return found
    previous = runs.previous() if runs is not None else None
    loaded = load(paths, source_roots, target_version, jobs, memo, cache_dir,
                  previous.summaries if previous is not None else None,
                  (previous.scans if previous is not None else {}) if cache_dir else None,
                  strict, env)
    if keep is not None:
        keep.append(loaded)
    workers = jobs or os.cpu_count() or 1
    todo = take_shard([(e, m) for e in unskipped(loaded.entries, skip) for m in modes], shard)
    program = loaded.program
    known: dict = {}  # (entry, mode) -> (result, the modules it created: a bit mask)
    run_prefix = prefix(target_version, env) if runs is not None else None  # reads our sources
    if run_prefix is not None:
        run_prefix += program.library_key()  # torch.ops definitions, dask's defaults
    traces = previous.traces if previous is not None else None
    if traces is not None and traces.prefix != run_prefix:
        traces = None
    map_key = index_key(program) if cache_dir else None
    now = fingerprints(program, traces, map_key) if cache_dir else None
    bit = {n: i for i, n in enumerate(names_table(traces, program))} if cache_dir else None
    if traces is not None:
        valid = reusable(traces, now, run_prefix) & set(todo)
        for r in previous.report.results:
            mask = traces.masks.get((r.entry, r.mode))
            if (r.entry, r.mode) in valid and hint_holds(r, program, mask, bit) and \
                    program.versions.hold(r.assumes):
                known[(r.entry, r.mode)] = (r, mask)
    missing = [pair for pair in todo if pair not in known]
    # normal-mode results as simulate_pairs takes them: (result, modules, loaded) each
    reused = {e: (*found, None) for (e, m), found in known.items() if m == "normal"}
    # top-level packages whose normal first import failed last time: every normal entry below
    # likely takes that result again, so it may be the only simulation this run makes, and
    # recording it for the memo would be wasted (results are the same without the memo)
    alone = {r.entry for r in previous.report.results
             if r.mode == "normal" and "." not in r.entry and r.outcome != "ok"} \
        if traces is not None else set()

    # simulated here, before any worker forks, so that every worker derives from them
    memo = program.memo
    program.memo = None
    try:
        with no_cyclic_gc(), deep_recursion():
            for entry in sorted(alone.intersection(e for e, m in missing if m == "normal")):
                reused[entry] = simulate_modules(entry, "normal", program)
    finally:
        program.memo = memo

    # without a results cache, which modules a run created serves nothing
    sim = simulate_modules if bit is not None else partial(simulate_modules, made=False)

    def work(part):
        seeds = dict(reused)
        # id of a modules set -> (the set, its mask): derived results share sets; the set is
        # kept, or another could take its id once it is gone
        masks: dict[int, tuple] = {}
        for result, made in iter_pairs(part, program, sim, seeds):
            if bit is not None and not isinstance(made, int):
                found = masks.get(id(made))
                if found is None:
                    found = masks[id(made)] = (made, mask_of(made, bit))
                made = found[1]
            yield result, made if bit is not None else None
    # normal-mode entries below a top-level package that failed just now take its result
    # (simulate_pairs): only the others are worth a worker
    failed = {e for e in alone if e in reused and reused[e][0].outcome != "ok"}
    simulated = sum(1 for e, m in missing if m != "normal" or e.partition(".")[0] not in failed)
    program.imported  # noqa: B018 - worked out here once, not again in every worker
    with no_cyclic_gc(), deep_recursion():
        # streamed: the last results of the other worker are all that is read at the end
        fresh = map_streamed(work, missing, workers if simulated >= PARALLEL_MIN_FILES else 1,
                             every=256)
    known.update(zip(missing, fresh))
    results = tuple(known[pair][0] for pair in todo)
    diagnostics = diagnose(results, program.facts, loaded.problems)
    if "lazy" in modes:
        diagnostics = tuple(sorted(diagnostics + lazy_side_effects(loaded, skip),
                                   key=lambda d: (d.file, d.line, d.code, d.message)))
    report = Report(results, diagnostics, "static", loaded.roots)
    if runs is not None:
        dask_file = program.dask_defaults.path
        runs.put(report, loaded.watched + program.versions.files() +
                 ((dask_file,) if dask_file else ()), loaded.scans,
                 Traces(run_prefix, tuple(bit), now, {pair: known[pair][1] for pair in todo},
                        map_key, {n: f.digest for n, f in summary_items(program.facts)}),
                 {f.path: summary(f) for _, f in summary_items(program.facts) if f.digest})
    return report


def lazy_side_effects(loaded: Loaded, skip: Sequence[str] = ()) -> tuple[Diagnostic, ...]:
    """IS108 (docs/lazy.md L7): imports in the checked modules that only run for their side
    effects, which lazy mode never runs."""
    from .static.sideeffects import skipped
    index, facts = loaded.program.index, loaded.program.facts
    rule = RULES["IS108"]
    out = []
    for name in unskipped(loaded.entries, skip):
        f = facts.get(name)
        if f is None or f.problem is not None:
            continue
        try:
            with open(f.path, "rb") as fh:
                source = fh.read()
        except OSError:
            continue
        for found in skipped(f, source, index.__contains__):
            out.append(Diagnostic(
                rule.code, rule.name, rule.severity, found.path, found.line,
                f"'{found.name}' is never read in {name}: under lazy imports (PEP 810) "
                f"{found.module} is then never imported, and whatever running it does "
                "(registration, patching) never happens", name, "lazy"))
    return tuple(out)


def explain(paths: Iterable[str], entry: str, mode: str = "normal",
            source_roots: Sequence[str] = (), target_version: tuple[int, int] = (3, 11),
            strict: bool = False, env=()) -> Explanation:
    """The full replay of one (entry, mode). `entry` is a dotted name or a module's path."""
    from .static.explain import explain_entry
    loaded = load(paths, source_roots, target_version, memo=False, strict=strict, env=env)
    name = entry_name(entry, loaded)
    with deep_recursion():
        return explain_entry(loaded.program, name, mode)


def entry_name(entry: str, loaded: Loaded) -> str:
    """A dotted module name, given as such or as the path of its file."""
    if entry in loaded.program.index:
        return entry
    path = os.path.realpath(entry)
    for name, info in loaded.program.index.items():
        if os.path.realpath(info.path) == path or (
                info.kind == "package" and os.path.dirname(os.path.realpath(info.path)) == path):
            return name
    raise InputError(f"no module {entry!r} under the analysed paths")


def unskipped(entries: Iterable[str], skip: Sequence[str]) -> tuple[str, ...]:
    """The entries that no `skip` pattern (fnmatch on the dotted name) matches."""
    entries = tuple(entries)
    kept = tuple(e for e in entries if not any(fnmatchcase(e, p) for p in skip))
    if entries and not kept:
        raise InputError(f"every entry is skipped (skip: {', '.join(skip)})")
    return kept


@contextmanager
def deep_recursion():
    """Import chains of real packages nest deeper than Python's default recursion limit."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def discover_entries(targets: list[Target], problems: list) -> dict[str, ModuleInfo]:
    """The entries `check` computes, without parsing anything: every module and regular
    package of the requested top-level names (the first root holding a name wins, as in
    `discover_and_parse`), kept when under a requested path."""
    index: dict[str, ModuleInfo] = {}
    scanned: set[str] = set()
    for root, top, base in dict.fromkeys((t.root, t.top, t.base) for t in targets):
        if top in scanned:
            continue
        scanned.add(top)
        for info in scan(root, top, problems, base):
            index.setdefault(info.name, info)
    return {n: i for n, i in sorted(index.items())
            if i.kind in ("module", "package") and is_entry(n, targets, i.kind == "package")
            and not n.endswith("__main__")}


def run(paths: Iterable[str], modes: Sequence[str] = MODES, python: str | None = None,
        jobs: int | None = None, timeout: float | None = DEFAULT_TIMEOUT, fork: bool = True,
        source_roots: Sequence[str] = (), capture: bool = False,
        progress: Progress | None = None, zygotes: bool = True,
        entries: Iterable[str] | None = None, skip: Sequence[str] = (),
        target_version: tuple[int, int] | None = None, copy: bool = False,
        env=()) -> DynamicReport:
    """Import, for real, every entry under `paths` first in a fresh interpreter (or a fork
    that has not imported its package), in every mode. Same entries as `check`, or only
    `entries` (dotted names, each of which must be one of them). Mode `lazy` (and explicit
    `lazy` syntax in any mode) runs under the PEP 810 emulation before Python 3.15;
    `target_version` before 3.15 makes it ignore `__lazy_modules__` (docs/lazy.md). `copy`:
    import a temporary copy of the tree (what the code does to its files stays there).
    `env`: environment variables set for the imports (as `check`'s `env` takes them)."""
    from .dynamic.runner import DynamicReport, ProbeError, run_jobs
    from .dynamic.verify import diagnostic
    roots, targets, mapped = resolve_layout(list(paths), list(source_roots))
    problems: list = []
    index = discover_entries(targets, problems)
    if not index:
        raise InputError("no Python modules found under " + ", ".join(map(str, paths)))
    if entries is not None:
        wanted = set(entries)
        unknown = sorted(wanted - set(index))
        if unknown:
            more = ", ..." if len(unknown) > 5 else ""
            raise InputError(f"requested entries not under the paths ({len(unknown)}): "
                             f"{', '.join(unknown[:5])}{more}")
        if not wanted:
            raise InputError("no entries requested")
        index = {n: i for n, i in index.items() if n in wanted}
    if skip:
        kept = set(unskipped(index, skip))
        index = {n: i for n, i in index.items() if n in kept}
    bad = [m for m in modes if m not in ALL_MODES]
    if bad:
        raise InputError(f"dynamic runs support modes {', '.join(ALL_MODES)}, "
                         f"not {', '.join(bad)}")
    todo = [(e, m) for e in index for m in modes]
    try:
        ran = run_jobs(roots, todo, python=python, workers=jobs, timeout=timeout, fork=fork,
                       package_dirs=mapped, target_version=target_version,
                       capture=capture, progress=progress, zygotes=zygotes, copy=copy,
                       variables=dict(environment(env)))
    except ProbeError as exc:
        raise InputError(str(exc)) from None
    results = tuple(r for r, _ in ran)
    diagnostics = list(diagnose([r for r in results if r.outcome == "error"], {}, problems))
    for r in results:
        if r.outcome in ("timeout", "crash"):
            code = "IS204" if r.outcome == "timeout" else "IS205"
            diagnostics.append(diagnostic(code, index[r.entry].path, 1,
                                          f"{r.reason}; first import of {r.entry} ({r.mode})",
                                          r.entry, r.mode))
    outputs = tuple((r.entry, r.mode, out) for r, out in ran if out) if capture else ()
    return DynamicReport(results, tuple(diagnostics), "dynamic", tuple(roots), outputs)


def verify(paths: Iterable[str], modes: Sequence[str] = MODES, source_roots: Sequence[str] = (),
           target_version: tuple[int, int] = (3, 11), jobs: int | None = None,
           python: str | None = None, timeout: float | None = DEFAULT_TIMEOUT,
           fork: bool = True, progress: Progress | None = None,
           skip: Sequence[str] = (), strict: bool = False, env=()) -> tuple[Report, Report]:
    """`check` and `run` over the same paths. Returns (the static report with the comparison
    diagnostics added, the dynamic report)."""
    from .dynamic.verify import compare
    paths = list(paths)
    static = check(paths, modes=modes, source_roots=source_roots,
                   target_version=target_version, jobs=jobs, skip=skip, strict=strict,
                   env=env)
    dynamic = run(paths, modes=modes, python=python, jobs=jobs, timeout=timeout, fork=fork,
                  source_roots=source_roots, progress=progress, skip=skip,
                  target_version=target_version, env=env)
    roots, targets, mapped = resolve_layout(paths, list(source_roots))
    analysed = analysed_by_root(targets, roots)  # other distributions are dependencies
    merged = Report(static.results, static.diagnostics +
                    compare(static, dynamic, mapped, analysed), "verify", static.roots)
    return merged, dynamic


def __getattr__(name: str):
    """compare and RUN_RULES (dynamic/verify.py), loaded on first use (PEP 562)."""
    if name in ("compare", "RUN_RULES"):
        from .dynamic import verify as _verify
        return getattr(_verify, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["check", "explain", "load", "run", "verify", "compare", "RUN_RULES", "InputError",
           "Report", "Result"]
