"""Use cases: the only place that sequences the stages. IO here is reading source files."""
from __future__ import annotations

import collections.abc
import os
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from fnmatch import fnmatchcase
from functools import partial
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from .cache import FactsCache, PickledFunctions
from .resultcache import (Traces, fingerprints, hint_holds, index_key, mask_of, names_table,
                          prefix, reusable)
from .runcache import RunCache, ancestors_project_files, check_arguments
from .diagnose import RULES, diagnose
from .model import ALL_MODES, DEFAULT_TIMEOUT, MODES, Diagnostic, Report, Result
from .parallel import map_streamed, no_cyclic_gc
from .shard import take_shard
from .static.bytecode import compiled_before
from .static.discover import ModuleInfo
from .static.events import FileProblem, LazyFacts, ModuleFacts, summary, summary_items
from .static.facts import declared_global, facts_from_source, function_from_source
from .static.installed import analysed_tops
from .static.layout import InputError, Target, find_top, is_entry, resolve_layout, scan
from .static.simulate import iter_pairs, simulate_modules
from .static.skim import def_spans
from .static.state import ImportedNames, Program, functions_of

if TYPE_CHECKING:  # the dynamic side loads when `run` or `verify` runs
    from .dynamic.runner import DynamicReport, Progress
    from .explain import Explanation

PARALLEL_MIN_FILES = 400
RECURSION_LIMIT = 20000


def read_facts(info: ModuleInfo, target_version=(3, 11), bodies=True,
               cache: FactsCache | None = None) -> ModuleFacts:
    def make(source: bytes, digest: str | None) -> ModuleFacts:
        # a source CPython compiled before has no syntax error to find in a function body:
        # facts with stubs need not parse the bodies then (skim.py)
        compiles = not bodies and compiled_before(info.path, source)
        # the digest and the function-level imports serve only the results cache, which
        # exists exactly when the facts cache does
        facts = facts_from_source(source, info.name, info.path, info.kind == "package",
                                  target_version, bodies, nested=cache is not None,
                                  compiles=compiles)
        return replace(facts, digest=digest) if digest is not None else facts

    def unreadable(exc: OSError) -> ModuleFacts:
        problem = FileProblem("IS003", 1, f"cannot read: {exc.strerror}")
        return ModuleFacts(info.name, info.path, info.is_package, (), problem=problem)
    return _through_cache(info, target_version, bodies, cache, make, unreadable)


def read_functions(info: ModuleInfo, target_version=(3, 11),
                   cache: FactsCache | None = None, future: bool | None = None,
                   spans: tuple = ()) -> Mapping:
    """(name, line) -> FunctionFacts with its body, for every module-level function; cached
    one pickle per function (cache.PickledFunctions): a call at import time loads the body it
    runs, not every body of its module. `future` and `spans`: the module's
    ModuleFacts.future_annotations and def_spans, when known (FunctionsOnDemand)."""
    if cache is None:
        return FunctionsOnDemand(info, target_version, future, spans)

    def make(source: bytes, digest: str | None) -> PickledFunctions:
        facts = facts_from_source(source, info.name, info.path, info.kind == "package",
                                  target_version, bodies=True, nested=False)
        return PickledFunctions.of(functions_of(facts.body))
    return _through_cache(info, target_version, "functions", cache, make,
                          lambda exc: PickledFunctions({}))


class FunctionsOnDemand(collections.abc.Mapping):
    """read_functions without a cache: a function's facts parsed when first asked for. A
    source that bytecode proves to compile gives one function at a time, with every other
    body cut (facts.function_from_source: a call at import time parses the body it runs);
    any other, or when that cannot be done, gives all of them from one whole parse."""

    def __init__(self, info: ModuleInfo, target_version, future: bool | None = None,
                 spans: tuple = ()):
        self.info, self.target_version, self.future = info, target_version, future
        self.one: dict = {}
        self.every: Mapping | None = None
        self.source: bytes | None = None
        self.compiles = False
        # what every function of the source shares (function_from_source): the spans of its
        # defs, those the parse stage found first (ModuleFacts.def_spans), all of them
        # (skim.def_spans) once one is missing there
        self.spans: dict | None = {line: (start, end, 0) for line, start, end in spans} \
            if spans and future is not None else None
        self.scanned = False
        self.rebinding: frozenset[str] | None = None

    def __getitem__(self, key):
        if self.every is None:
            found = self.one.get(key) or self._one(key)
            if found is not None:
                self.one[key] = found
                return found
        return self._every()[key]

    def _one(self, key):
        if self.source is None:
            try:
                self.source = read_bytes(self.info.path)
            except OSError:
                return None  # read_facts reports it
            self.compiles = compiled_before(self.info.path, self.source)
            if self.compiles:
                self.rebinding = declared_global(self.source)
        if not self.compiles:
            return None
        name, line = key
        if self.future is not None and not self.scanned and \
                (self.spans is None or line not in self.spans):
            self.spans = def_spans(self.source)
            self.scanned = True
        return function_from_source(self.source, self.info.name, self.info.path,
                                    self.info.kind == "package", self.target_version, name,
                                    line, self.spans, self.future, self.rebinding)

    def _every(self) -> Mapping:
        if self.every is None:
            self.every = functions_of(read_facts(self.info, self.target_version).body)
            self.source = None
        return self.every

    def __iter__(self):
        return iter(self._every())

    def __len__(self):
        return len(self._every())


def _through_cache(info: ModuleInfo, target_version, flavour, cache: FactsCache | None,
                   make, unreadable):
    """`make(source, digest)` of a module's file, cached under the source's digest and
    `flavour` (stubbed facts, full facts, or functions). When the run cache saw the file
    unchanged, the digest is its summary's and the file is not even read.
    `unreadable(OSError)` when it cannot be read."""
    known = cache.summaries.get(info.path) if cache is not None else None
    if known is not None:  # unchanged since its digest was taken: not even read
        found = cache.get(cache.key(known.digest, info.name, info.path, info.kind,
                                    target_version, flavour))
        if found is not None:
            return found
    try:
        source = read_bytes(info.path)
    except OSError as exc:
        return unreadable(exc)
    if cache is None:
        return make(source, None)
    import hashlib  # here, not at module level: loading OpenSSL slows every start
    digest = hashlib.sha256(source).hexdigest()
    key = cache.key(digest, info.name, info.path, info.kind, target_version, flavour)
    found = cache.get(key)
    if found is None:
        found = make(source, digest)
        cache.put(key, found)
    return found


def read_bytes(path: str) -> bytes:
    """A file's bytes, read with system calls alone: open() also builds a buffered reader,
    a tenth of the time it takes to read a module."""
    fd = os.open(path, os.O_RDONLY)
    try:
        size = os.fstat(fd).st_size + 1  # one more, to see the end at once
        chunks = []
        while True:
            chunk = os.read(fd, size)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size = 1 << 20
    finally:
        os.close(fd)


def _read_each(infos: Iterable[ModuleInfo], version, bodies: bool, cache: FactsCache | None):
    with no_cyclic_gc():
        for info in infos:
            yield read_facts(info, version, bodies, cache)


def load_facts(infos: Sequence[ModuleInfo], target_version=(3, 11), jobs: int | None = None,
               bodies: bool = True, cache: FactsCache | None = None,
               into: LazyFacts | None = None, named: ImportedNames | None = None
               ) -> dict[str, ModuleFacts]:
    """Parse every source module; in parallel processes when there are many. Without
    `bodies`, function bodies are left as stubs for the simulator to load when called.
    With `into`, a module the cache has a summary of comes back as that summary, and `into`
    holds it as pending (LazyFacts); the caller adds the others. `named` receives every
    module name the facts import, as they come (while the children still parse)."""
    take = named.take if named is not None else None
    todo = [i for i in infos if i.kind in ("module", "package")]
    found: dict[str, ModuleFacts] = {}
    if into is not None and not bodies and cache is not None:
        # files the run cache knows unchanged come back as their summaries, pending in
        # `into` (LazyFacts loads the rest of their facts on first read); the others are
        # parsed as usual
        for i in todo:
            found_summary = cache.summaries.get(i.path)
            if found_summary is not None and found_summary.name == i.name:
                into.add_summary(i.name, found_summary)
                found[i.name] = found_summary
                if take is not None:
                    take(found_summary)
        todo = [i for i in todo if i.name not in found]
    jobs = jobs or os.cpu_count() or 1
    if len(todo) < PARALLEL_MIN_FILES or jobs == 1:
        for f in _read_each(todo, target_version, bodies, cache):
            found[f.name] = f
            if take is not None:
                take(f)
        return found
    # this process and forked children (no pool to start, nothing to send them) take files
    # as they go; the children send their facts in batches, read here between files
    fresh = map_streamed(lambda part: _read_each(part, target_version, bodies, cache), todo, jobs,
                         take=take)
    found.update((f.name, f) for f in fresh)
    return found


def discover_and_parse(targets: list[Target], roots: list[str], target_version, jobs,
                       cache: FactsCache | None = None, mapped: dict[str, str] | None = None,
                       watch: list | None = None, scans: dict | None = None):
    """Scan the requested top-level packages, parse them, then pull in every other top-level
    package of the source roots that their imports name, until nothing new is reached.
    Function bodies are stubs here: the few called at import time are loaded on demand.
    `mapped`: top-level packages in directories of their own (setuptools package-dir).
    `watch` receives every directory whose listing decided something (runcache.py).
    `scans`: (root, top, base) -> (modules, problems, directories, their listings) of earlier
    scans, reused while those directories are unchanged or list the same entries
    (RunCache.previous); the ones made here are added. Returns the module map, the facts,
    the problems found, and every module name the facts import (ImportedNames, for
    Program.imported)."""
    mapped = dict(mapped or {})
    mapped.update((t.top, t.base) for t in targets if t.base is not None)
    analysed = analysed_by_root(targets, roots)
    problems: list = []
    index: dict[str, ModuleInfo] = {}
    facts: dict[str, ModuleFacts] = LazyFacts(lambda name: read_facts(
        index[name], target_version, bodies=False, cache=cache)) \
        if cache is not None and cache.summaries else {}
    pending = list(dict.fromkeys((t.root, t.top) for t in targets))
    scanned: set[str] = set()
    # every module name some module's facts import, each once (Home Assistant's 153,000
    # are 26,000), with their ancestors and tops: collected while the children still parse
    imported = ImportedNames()
    while pending:
        new: list[ModuleInfo] = []
        for root, top in pending:
            if top in scanned:
                continue
            scanned.add(top)
            found = scans.get((root, top, mapped.get(top))) if scans is not None else None
            if found is None:
                seen: list[str] = [root]  # the root's listing decides where `top` is
                scan_problems: list = []
                # the listings serve only a later run's reuse of this scan
                listings: dict | None = {} if scans is not None else None
                infos = scan(root, top, scan_problems, mapped.get(top), seen, listings)
                found = (tuple(infos), tuple(scan_problems), tuple(seen), listings)
                if scans is not None:
                    scans[(root, top, mapped.get(top))] = found
            infos, found_problems, dirs, _ = found
            problems.extend(found_problems)
            if watch is not None:
                watch.extend(dirs)
            for info in infos:
                index.setdefault(info.name, info)
                new.append(info)
        lazy = facts if isinstance(facts, LazyFacts) else None
        fresh = load_facts(new, target_version, jobs, bodies=False, cache=cache, into=lazy,
                           named=imported)
        pending = []
        for name, f in fresh.items():
            facts.setdefault(name, f)  # new: each top-level package is scanned once
        # the tops of earlier rounds are all in `scanned` by now: only new ones are pending
        for top in sorted(imported.tops):
            if top not in scanned:
                root = mapped.get(top) or find_top(roots, top)
                if root is None or top not in analysed.get(root, (top,)):
                    scanned.add(top)  # external: not found, or another distribution's
                else:
                    pending.append((root, top))
    return index, facts, problems, imported


def analysed_by_root(targets: list[Target], roots: Sequence[str]) -> dict[str, frozenset[str]]:
    """For each source root that is an installation directory (site-packages), the top-level
    names analysed there: the requested ones and the rest of their distributions
    (static/installed.py); other packages installed there are external."""
    found = {}
    for root in roots:
        tops = analysed_tops(root, {t.top for t in targets if t.root == root})
        if tops is not None:
            found[root] = tops
    return found


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


def load(paths: Iterable[str], source_roots: Sequence[str] = (),
         target_version: tuple[int, int] = (3, 11), jobs: int | None = None,
         memo: bool = True, cache_dir: str | None = None,
         summaries: dict[str, ModuleFacts] | None = None,
         scans: dict | None = None) -> Loaded:
    """Discover and parse (facts cached in `cache_dir` when given; `summaries` of files
    unchanged since, see FactsCache; `scans` see discover_and_parse); raises InputError when
    nothing can be analysed."""
    roots, targets, mapped = resolve_layout(list(paths), list(source_roots))
    workers = jobs or os.cpu_count() or 1
    cache = FactsCache(cache_dir, summaries) if cache_dir else None
    watch: list[str] = []
    with no_cyclic_gc():
        index, facts, problems, imported = discover_and_parse(
            targets, roots, target_version, workers, cache, mapped, watch, scans)
    entries = tuple(sorted(n for n, i in index.items() if i.kind in ("module", "package")
                           and is_entry(n, targets, i.kind == "package")
                           and not n.endswith("__main__")))
    if not entries:
        raise InputError("no Python modules found under " + ", ".join(map(str, paths)))
    program = Program(index, facts, memo=memo, named=imported, load_bodies=lambda name:
        read_facts(index[name], target_version, bodies=True, cache=cache),
        target_version=target_version, load_functions=lambda name: read_functions(
            index[name], target_version, cache,
            facts[name].future_annotations if cache is None else None,
            facts[name].def_spans if cache is None else ()))
    watch.extend(roots)
    watch.extend(ancestors_project_files(paths))
    watch.extend(info.path for info in index.values())
    return Loaded(program, entries, tuple(roots), tuple(problems), tuple(watch),
                  scans if scans is not None else {})


def check(paths: Iterable[str], modes: Sequence[str] = MODES, source_roots: Sequence[str] = (),
          target_version: tuple[int, int] = (3, 11), jobs: int | None = None,
          memo: bool = True, skip: Sequence[str] = (), cache_dir: str | None = None,
          shard: tuple[int, int] | None = None, runs: RunCache | None = None,
          keep: list | None = None) -> Report:
    """Predict, without running any of it, the outcome of every first import under `paths`
    (but of the entries that a `skip` pattern matches). With `cache_dir`: when no path the
    last identical check read has changed, its report (runcache.py); else facts of unchanged
    files are read from there instead of parsed, and the stored results that no changed
    module could have decided are reused (resultcache.py). `runs`: the run cache, when the caller
    already looked it up. `keep`: a list the loaded program is appended to, so that the caller
    decides when its memory is given back (the command line exits without: freeing Home
    Assistant's facts and memo object by object took 0.07 s)."""
    paths = list(paths)
    if cache_dir and runs is None:
        runs = RunCache(cache_dir, check_arguments(paths, modes, source_roots, target_version,
                                                   skip, shard))
    if runs is not None and not runs.tried:
        found = runs.get()
        if found is not None:
            return found
    previous = runs.previous() if runs is not None else None
    loaded = load(paths, source_roots, target_version, jobs, memo, cache_dir,
                  previous.summaries if previous is not None else None,
                  (previous.scans if previous is not None else {}) if cache_dir else None)
    if keep is not None:
        keep.append(loaded)
    workers = jobs or os.cpu_count() or 1
    todo = take_shard([(e, m) for e in unskipped(loaded.entries, skip) for m in modes], shard)
    program = loaded.program
    known: dict = {}  # (entry, mode) -> (result, the modules it created: a bit mask)
    run_prefix = prefix(target_version) if runs is not None else None  # reads our sources
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
            if (r.entry, r.mode) in valid and hint_holds(r, program, mask, bit):
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
        runs.put(report, loaded.watched, loaded.scans,
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
            source_roots: Sequence[str] = (), target_version: tuple[int, int] = (3, 11)
            ) -> Explanation:
    """The full replay of one (entry, mode). `entry` is a dotted name or a module's path."""
    from .explain import explain_entry
    loaded = load(paths, source_roots, target_version, memo=False)
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
        target_version: tuple[int, int] | None = None) -> DynamicReport:
    """Import, for real, every entry under `paths` first in a fresh interpreter (or a fork
    that has not imported its package), in every mode. Same entries as `check`, or only
    `entries` (dotted names, each of which must be one of them). Mode `lazy` (and explicit
    `lazy` syntax in any mode) runs under the PEP 810 emulation before Python 3.15;
    `target_version` before 3.15 makes it ignore `__lazy_modules__` (docs/lazy.md)."""
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
                       capture=capture, progress=progress, zygotes=zygotes)
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
           skip: Sequence[str] = ()) -> tuple[Report, Report]:
    """`check` and `run` over the same paths. Returns (the static report with the comparison
    diagnostics added, the dynamic report)."""
    from .dynamic.verify import compare
    paths = list(paths)
    static = check(paths, modes=modes, source_roots=source_roots,
                   target_version=target_version, jobs=jobs, skip=skip)
    dynamic = run(paths, modes=modes, python=python, jobs=jobs, timeout=timeout, fork=fork,
                  source_roots=source_roots, progress=progress, skip=skip,
                  target_version=target_version)
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
