"""The parse stage: source files -> ModuleFacts, in parallel processes when there are many,
through the facts cache when there is one; and discovery of every top-level package the
facts import."""
from __future__ import annotations

import collections.abc
import os
from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from .bytecode import compiled_before
from .discover import ModuleInfo
from .events import FileProblem, LazyFacts, ModuleFacts
from .files import read_regular
from .facts import declared_global, facts_from_source, function_from_source
from .helpers import stub_imports
from .installed import analysed_tops
from .layout import Target, find_top, scan
from .parallel import map_streamed, no_cyclic_gc
from .problems import complete
from .skim import def_spans
from .state import ImportedNames, functions_of

if TYPE_CHECKING:  # the cache is passed in: the stage above owns what is kept on disk
    from ..store.facts import EncodedFunctions, FactsCache

PARALLEL_MIN_FILES = 400


def read_facts(info: ModuleInfo, target_version=(3, 11), bodies=True,
               cache: FactsCache | None = None, env: tuple = (),
               per_tree=None) -> ModuleFacts:
    """`env`: ((name, value), ...) of the environment variables given (--env).
    `per_tree(info, source, tree, lazy_lines)`: called when the source is parsed here (not
    when the cache has its facts), with the tree the facts came from."""
    def make(source: bytes, digest: str | None, stub: bytes | None = None) -> ModuleFacts:
        # a source CPython compiled before has no syntax error to find in a function body:
        # facts with stubs need not parse the bodies then (skim.py)
        compiles = not bodies and compiled_before(info.path, source)
        on_tree = None if per_tree is None else \
            (lambda tree, lazy_lines: per_tree(info, source, tree, lazy_lines))
        # the digest and the function-level imports serve only the results cache, which
        # exists exactly when the facts cache does
        facts = complete(facts_from_source(source, info.name, info.path,
                                           info.kind == "package", target_version, bodies,
                                           nested=cache is not None, compiles=compiles,
                                           stub=stub_imports(stub) if stub else None,
                                           env=env, on_tree=on_tree),
                         source)
        return replace(facts, digest=digest) if digest is not None else facts

    def unreadable(exc: OSError) -> ModuleFacts:
        problem = FileProblem("IS003", 1, f"cannot read: {exc.strerror}")
        return ModuleFacts(info.name, info.path, info.is_package, (), problem=problem)
    return _through_cache(info, target_version, bodies, cache, make, unreadable, env)


def read_functions(info: ModuleInfo, target_version=(3, 11),
                   cache: FactsCache | None = None, future: bool | None = None,
                   spans: tuple = (), env: tuple = (), parsed: bool = False) -> Mapping:
    """(name, line) -> FunctionFacts with its body, for every module-level function; cached
    one entry per function (store.facts.EncodedFunctions): a call at import time loads the body it
    runs, not every body of its module. `future` and `spans`: the module's
    ModuleFacts.future_annotations and def_spans, when known, and `parsed`: whether the
    module's facts came from a whole parse of its source without error (FunctionsOnDemand)."""
    if cache is None:
        return FunctionsOnDemand(info, target_version, future, spans, env, parsed)

    def make(source: bytes, digest: str | None, stub=None) -> "EncodedFunctions":
        facts = facts_from_source(source, info.name, info.path, info.kind == "package",
                                  target_version, bodies=True, nested=False, env=env)
        return cache.pack_functions(functions_of(facts.body))
    return _through_cache(info, target_version, "functions", cache, make,
                          lambda exc: cache.pack_functions({}), env)


class FunctionsOnDemand(collections.abc.Mapping):
    """read_functions without a cache: a function's facts parsed when first asked for. A
    source that bytecode proves to compile gives one function at a time, with every other
    body cut (facts.function_from_source: a call at import time parses the body it runs);
    any other, or when that cannot be done, gives all of them from one whole parse."""

    def __init__(self, info: ModuleInfo, target_version, future: bool | None = None,
                 spans: tuple = (), env: tuple = (), parsed: bool = False):
        self.info, self.target_version, self.future = info, target_version, future
        self.env = env
        # the source parsed whole without error already (its module facts): it has no syntax
        # error for a function's own parse to miss, as with bytecode
        self.parsed = parsed
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
            self.compiles = self.parsed or compiled_before(self.info.path, self.source)
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
                                    line, self.spans, self.future, self.rebinding, self.env)

    def _every(self) -> Mapping:
        if self.every is None:
            self.every = functions_of(read_facts(self.info, self.target_version,
                                                 env=self.env).body)
            self.source = None
        return self.every

    def __iter__(self):
        return iter(self._every())

    def __len__(self):
        return len(self._every())


def _through_cache(info: ModuleInfo, target_version, flavour, cache: FactsCache | None,
                   make, unreadable, env: tuple = ()):
    """`make(source, digest)` of a module's file, cached under the source's digest and
    `flavour` (stubbed facts, full facts, or functions). When the run cache saw the file
    unchanged, the digest is its summary's and the file is not even read.
    `unreadable(OSError)` when it cannot be read."""
    known = cache.summaries.get(info.path) if cache is not None else None
    if known is not None and not known.digest.startswith(WITH_STUB):
        # unchanged since its digest was taken: not even read
        found = cache.get(cache.key(known.digest, info.name, info.path, info.kind,
                                    target_version, flavour, env))
        if found is not None:
            return found
    try:
        source = read_bytes(info.path)
    except OSError as exc:
        return unreadable(exc)
    stub = read_stub(info.path, source)
    if cache is None:
        return make(source, None, stub)
    import hashlib  # here, not at module level: loading OpenSSL slows every start
    digest = hashlib.sha256(source if stub is None else source + b"\0" + stub).hexdigest()
    if stub is not None:
        digest = WITH_STUB + digest
    key = cache.key(digest, info.name, info.path, info.kind, target_version, flavour, env)
    found = cache.get(key)
    if found is None:
        found = make(source, digest, stub)
        cache.put(key, found)
    return found


# a digest over the module's source and its `.pyi` stub, which lazy_loader.attach_stub reads:
# the run cache sees changes of the source file only, so such a module is read every run
WITH_STUB = "stub:"


def read_stub(path: str, source: bytes) -> bytes | None:
    """The `.pyi` next to a module that calls lazy_loader's attach_stub, if there is one."""
    if b"attach_stub" not in source:
        return None
    try:
        return read_bytes(os.path.splitext(path)[0] + ".pyi")
    except OSError:
        return None


def read_bytes(path: str) -> bytes:
    """A source file's bytes; OSError (files.NotRegularFile) for a FIFO, a device, a socket
    or a file too large, which are never read."""
    return read_regular(path)


def _read_each(infos: Iterable[ModuleInfo], version, bodies: bool, cache: FactsCache | None,
               env: tuple = (), per_tree=None):
    """The facts of each module; with `per_tree`, (facts, what it gave for the module's
    tree or None) pairs."""
    with no_cyclic_gc():
        for info in infos:
            if per_tree is None:
                yield read_facts(info, version, bodies, cache, env)
                continue
            box: list = []
            facts = read_facts(info, version, bodies, cache, env,
                               lambda *a: box.append(per_tree(*a)))
            yield facts, box[0] if box else None


def load_facts(infos: Sequence[ModuleInfo], target_version=(3, 11), jobs: int | None = None,
               bodies: bool = True, cache: FactsCache | None = None,
               into: LazyFacts | None = None, named: ImportedNames | None = None,
               env: tuple = (), per_tree=None, extras: dict | None = None
               ) -> dict[str, ModuleFacts]:
    """Parse every source module; in parallel processes when there are many. Without
    `bodies`, function bodies are left as stubs for the simulator to load when called.
    With `into`, a module the cache has a summary of comes back as that summary, and `into`
    holds it as pending (LazyFacts); the caller adds the others. `named` receives every
    module name the facts import, as they come (while the children still parse).
    `per_tree` (read_facts) runs where each module is parsed; `extras` receives module ->
    what it gave (the modules whose facts came from the cache have none)."""
    take = named.take if named is not None else None
    todo = [i for i in infos if i.kind in ("module", "package")]
    found: dict[str, ModuleFacts] = {}
    if into is not None and not bodies and cache is not None:
        # files the run cache knows unchanged come back as their summaries, pending in
        # `into` (LazyFacts loads the rest of their facts on first read); the others are
        # parsed as usual
        for i in todo:
            found_summary = cache.summaries.get(i.path)
            if found_summary is not None and found_summary.name == i.name and \
                    not found_summary.digest.startswith(WITH_STUB):
                into.add_summary(i.name, found_summary)
                found[i.name] = found_summary
                if take is not None:
                    take(found_summary)
        todo = [i for i in todo if i.name not in found]
    jobs = jobs or os.cpu_count() or 1
    extras = {} if extras is None else extras

    def facts_of(result) -> ModuleFacts:  # with per_tree, _read_each gives pairs
        return result if per_tree is None else result[0]

    def work(part):
        return _read_each(part, target_version, bodies, cache, env, per_tree)
    if len(todo) < PARALLEL_MIN_FILES or jobs == 1:
        results = list(work(todo))
        if take is not None:
            for result in results:
                take(facts_of(result))
    else:
        # this process and forked children (no pool to start, nothing to send them) take
        # files as they go; the children send their facts in batches, read here between files
        results = map_streamed(work, todo, jobs, take=None if take is None else
                               (lambda result: take(facts_of(result))))
    for result in results:
        f = facts_of(result)
        found[f.name] = f
        if per_tree is not None and result[1] is not None:
            extras[f.name] = result[1]
    return found


def discover_and_parse(targets: list[Target], roots: list[str], target_version, jobs,
                       cache: FactsCache | None = None, mapped: dict[str, str] | None = None,
                       watch: list | None = None, scans: dict | None = None,
                       env: tuple = (), per_tree=None, extras: dict | None = None):
    """Scan the requested top-level packages, parse them, then pull in every other top-level
    package of the source roots that their imports name, until nothing new is reached.
    Function bodies are stubs here: the few called at import time are loaded on demand.
    `mapped`: top-level packages in directories of their own (setuptools package-dir).
    `watch` receives every directory whose listing decided something (runcache.py).
    `scans`: (root, top, base) -> (modules, problems, directories, their listings) of earlier
    scans, reused while those directories are unchanged or list the same entries
    (RunCache.previous); the ones made here are added. Returns the module map, the facts,
    the problems found, and every module name the facts import (ImportedNames, for
    Program.imported). `per_tree`, `extras`: see load_facts; per_tree is called with the
    module map's `__contains__` as its last argument, and an extra made while the map still
    lacked modules found later is dropped (it may have asked about them)."""
    mapped = dict(mapped or {})
    sizes: dict[str, int] = {}  # module -> how many modules the map held as it was parsed
    mapped.update((t.top, t.base) for t in targets if t.base is not None)
    analysed = analysed_by_root(targets, roots)
    problems: list = []
    index: dict[str, ModuleInfo] = {}
    facts: dict[str, ModuleFacts] = LazyFacts(lambda name: read_facts(
        index[name], target_version, bodies=False, cache=cache, env=env)) \
        if cache is not None and cache.summaries else {}
    pending = list(dict.fromkeys((t.root, t.top) for t in targets))
    scanned: set[str] = set()
    # every module name some module's facts import, each once, with their ancestors and
    # tops: collected while the children still parse
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
        hook = None if per_tree is None else \
            (lambda *a: per_tree(*a, index.__contains__))  # the map of this round
        fresh = load_facts(new, target_version, jobs, bodies=False, cache=cache, into=lazy,
                           named=imported, env=env, per_tree=hook, extras=extras)
        sizes.update(dict.fromkeys(fresh, len(index)))
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
    if extras is not None:
        for name in [n for n in extras if sizes.get(n) != len(index)]:
            del extras[name]
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
