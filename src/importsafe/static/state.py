"""The simulated interpreter state, and the memo that replays recorded sub-imports.

Every read of a module's state goes through `ImportState` (`state`, `ns_get`, `status_of`,
...), and every write too. While a sub-import `import X` is being recorded, reads of modules
that existed before it started are logged as dependencies, at attribute granularity, and
writes to them as effects. Later, when the same `import X` starts and every dependency still
has the recorded value, the effects are applied instead of running the code again: exact,
because the simulator is deterministic in what it reads.

A read of an attribute that the recording itself set or deleted before is no dependency: it
reads what the recording wrote, which the earlier dependencies already decide (`import a.b`
binds `b` on `a`; reading `a.b` afterwards must not make the variant wait for a state where
`a.b` was bound before the import began, which never comes).
"""
from __future__ import annotations

import os
from typing import Callable, Mapping

from .discover import ModuleInfo
from .files import binary_names
from .events import Def, FunctionFacts, ModuleFacts, summary_items, walk
from .daskconfig import CONFIG_MODULE, DaskDefaults
from .torchops import OpTable

OPAQUE = ("v",)  # any value: every attribute exists, calls run nothing we know
REGISTRY = "\0registry"  # the `module` of logged writes to ImportState.registry
ASSUMED = "\0assumed"  # the `module` of logged writes to ImportState.assumed
# the `module` of logged writes: a container changed, which the locals of the functions
# running where the recording is replayed may hold (Mutations.forget_in_frames)
FORGOTTEN = "\0forgotten"
_NOT_MODULE_STATE = frozenset("pgGz")  # dependency kinds that outlive module creation
MISSING = object()
NO_MODULE = object()
WRITTEN = object()  # the value of a write marker in the log (see ImportState.write)


def merge_dynamic(old, new):
    """A module's `dynamic`: None, a reason (any name may be bound), or ((prefix, reason),
    ...) (only names starting with a prefix may be)."""
    if old is None or new.__class__ is str:
        return old if old.__class__ is str else new
    if old.__class__ is str:
        return old
    return tuple(dict.fromkeys(old + new))


def dynamic_reason(dynamic, name: str) -> str | None:
    """Why `name` may be bound in ways facts cannot follow, if it may."""
    if dynamic is None or dynamic.__class__ is str:
        return dynamic
    return next((reason for prefix, reason in dynamic if name.startswith(prefix)), None)


class ModState:
    """One module object. `epoch` counts earlier attempts to run the module (references are
    (name, epoch), so a reference to a module that failed stays stale, as in CPython);
    `born` orders creation against recordings; `ns` is shared copy-on-write with records."""

    __slots__ = ("name", "info", "ns", "status", "dynamic", "wildcard", "opaque", "epoch",
                 "token", "shared", "line", "born", "snap")

    def __init__(self, info: ModuleInfo, status: str, epoch: int, born: int):
        self.name = info.name
        self.info = info
        self.status = status  # "running" | "done" | "bare"
        self.ns: dict = {"__name__": ("lit", info.name)}
        if info.is_package:
            self.ns["__path__"] = OPAQUE
        self.dynamic = None  # why the namespace cannot be known, if so (merge_dynamic)
        self.wildcard = False  # a star import from an opaque module: any name may be bound
        self.opaque = info.kind in ("opaque", "opaque-package")
        self.epoch = epoch
        self.token = hash((self.name, epoch, status))  # changes with every write (star import)
        self.shared = False
        self.line = 0
        self.born = born
        self.snap: tuple | None = None  # the last snapshot, while nothing was written since

    def own_ns(self) -> dict:
        self.snap = None
        if self.shared:
            self.ns = dict(self.ns)
            self.shared = False
        return self.ns

    def snapshot(self) -> tuple:
        """Every enclosing recording snapshots a module its sub-import made: unchanged since
        the last one (write() clears `snap`), it is the same tuple. `shared` stays set while
        `snap` is: only own_ns() clears it, and that clears `snap` too."""
        snap = self.snap
        if snap is None:
            self.shared = True
            snap = self.snap = (self.info, self.ns, self.status, self.dynamic, self.epoch,
                                self.token, self.wildcard, self.name, self.opaque)
        return snap

    def __repr__(self) -> str:
        return f"<ModState {self.name} #{self.epoch} {self.status}>"

    @staticmethod
    def restore_all(made: tuple, modules: dict, epochs: dict, clock: int) -> int:
        """Put back the modules of a replayed sub-import ((name, snapshot or None, epochs)
        each); returns the clock after their birth. One call per replay, not per module:
        a replay restores many at once.

        A module goes back as (snapshot, birth), made a ModState only when read
        (ImportState.state): most are never read again in that run. They share one birth: every recording began before the replay or after
        it, so the births compare with every recording's start as distinct ones would."""
        clock += 1
        for name, snap, count in made:
            epochs[name] = count
            if snap is None:
                modules.pop(name, None)
            else:
                modules[name] = (snap, clock)
        return clock

    @classmethod
    def restore(cls, snap: tuple, born: int) -> "ModState":
        """A ModState for a snapshot, born at `born`: a stale module put back by a replay, or
        a module restore_all left as a (snapshot, birth) pair, when it is first read."""
        st = cls.__new__(cls)
        st.info, st.ns, st.status, st.dynamic, st.epoch, st.token, st.wildcard, st.name, \
            st.opaque = snap
        st.line, st.shared, st.born = 0, True, born
        st.snap = snap  # its state is the snapshot's, until a write
        return st


class AfterImport:
    """The simulated sys.modules, with what goes with it, at the end of a package's
    successful normal first import (ImportState.after): where the normal first import of
    each of its submodules starts (ImportState.start_from), since CPython imports the package
    first, from the same empty state. Modules are (snapshot, birth) pairs, as a replay puts
    them back: every run started from here makes its own objects of those it reads."""

    __slots__ = ("modules", "epochs", "stale", "stale_log", "registry", "clock", "assumed")

    def __init__(self, modules: dict, epochs: dict, stale: dict, stale_log: list,
                 registry: dict, clock: int, assumed: dict):
        self.modules, self.epochs, self.stale, self.stale_log, self.registry, self.clock = \
            modules, epochs, stale, stale_log, registry, clock
        self.assumed = assumed

    def __contains__(self, name: str) -> bool:
        return name in self.modules


class ImportedNames:
    """Every module name some facts import, and the ancestors of each (`names`), and their
    top-level names (`tops`): taken from the facts one module at a time, as they come."""

    __slots__ = ("names", "tops")

    def __init__(self):
        self.names: set[str] = set()
        self.tops: set[str] = set()

    def take(self, facts: ModuleFacts) -> None:
        names = self.names
        # most were seen already: a C-level difference first
        for name in facts.imports - names:
            while name not in names:  # it and its ancestors, up to one seen before
                names.add(name)
                parent, dot, _ = name.rpartition(".")
                if not dot:
                    self.tops.add(name)
                    break
                name = parent


class Program:
    """What every simulation of one check shares: the module map, the facts, and the memo of
    recorded sub-imports (module name -> variants)."""

    def __init__(self, index: dict[str, ModuleInfo], facts: dict[str, ModuleFacts],
                 memo: bool = True, load_bodies: Callable[[str], ModuleFacts] | None = None,
                 target_version: tuple[int, int] = (3, 11),
                 load_functions: Callable[[str], Mapping] | None = None,
                 named: ImportedNames | None = None, strict: bool = False,
                 env: tuple = (), versions=None, listings: Mapping | None = None):
        self.index = index
        # directory -> discover.DirListing: what the listing calls of the modules there see
        self.listings = listings or {}
        self.facts = facts
        # without the ordinary-order rule (`--strict`): what it would assume stays unknown
        self.strict = strict
        self.target_version = tuple(target_version)  # `__lazy_modules__` counts from 3.15
        # ((name, value), ...): the environment variables given (--env), which the facts
        # were made with; every other one is unset
        self.env = tuple(env)
        self.versions = versions  # installed.Versions: dependency versions, read statically
        self.import_origins: dict = {}  # (module, name) -> what an import bound it to
        self.tops = frozenset(name.partition(".")[0] for name in index)
        self.registrars = tuple(sorted(n for n, f in summary_items(facts)
                                       if f.registers_modules))
        self.memo: dict[str, object] | None = {} if memo else None
        self.calls_seen: set = set()  # the keys of memoised calls made once (memoised_call)
        # every distinct (dependency, value) the memo holds, once: the variants share most of
        # them, so the walks that
        # check them touch a few cache lines, not a fresh pair of tuples per read
        self.deps: dict[tuple, tuple] = {}
        self._imported: frozenset[str] | None = None
        # every module name the facts import, when the caller collected them (discovery
        # does, as the facts come): imported then need not read every module's imports again
        self._named = named
        self.hits = self.misses = 0
        self.load_bodies = load_bodies  # module -> facts with every function body
        # module -> (name, line) -> FunctionFacts with its body (a cache can load one function
        # at a time); when None, taken from load_bodies
        self.load_functions = load_functions
        self._bodies: dict[str, dict] = {}
        self._functions: dict[FunctionFacts, FunctionFacts] = {}  # stub -> with its body
        # ((module, name, line), with its body), as loaded; and those another process
        # loaded (keep_functions), by the same key
        self.loaded_functions: list[tuple] = []
        self._shipped: dict[tuple, FunctionFacts] = {}
        # function with its body -> the builtins a call of it reads, or False (see
        # callreplay._inert_reads)
        self.inert: dict[FunctionFacts, tuple | bool] = {}
        self.importing: dict[FunctionFacts, bool] = {}  # callreplay.imports_in
        # id(a snapshot's namespace) -> (it, its container keys, None): mutation.py; one
        # snapshot serves many simulations, and never changes
        self.frozen_containers: dict[int, tuple] = {}
        self.external_names: dict[str, dict] = {}  # callreplay._imported_externals
        self._by_path: dict[str, ModuleInfo] | None = None
        # (name, source) -> facts of a generated module some analysed code runs (ExecSource)
        self.generated: dict[tuple[str, str], ModuleFacts] = {}
        self._extensions: dict[str, str | None] = {}  # see extension_imported
        self.binders: dict[str, str | None] = {}  # NameLookup.callback_binder, by module
        self._torch_ops: OpTable | None = None
        config = index.get(CONFIG_MODULE)
        self.dask_defaults = DaskDefaults(config.path if config is not None and
                                          config.kind == "module" else None)

    @property
    def torch_ops(self) -> OpTable:
        """What the tree's Python code defines of torch.ops (torchops.py)."""
        if self._torch_ops is None:
            self._torch_ops = OpTable.of((n, f.torch_ops) for n, f in summary_items(self.facts)
                                         if f.torch_ops)
        return self._torch_ops

    def library_key(self) -> str:
        """What results may depend on beyond the modules they create: the tree's torch.ops
        definitions, dask's defaults file and the import path whose modules count as
        installed ("" when it has none of them)."""
        ops = self.torch_ops
        return (ops.key() if ops.namespaces or ops.definers else "") + \
            self.dask_defaults.key() + (self.versions.path_key() if self.versions else "")

    def extension_imported(self, name: str) -> str | None:
        """An extension module of the analysed tree (a compiled `.so`, which no fact
        follows) that the module's code imports, if any: its code may bind names in it."""
        if name not in self._extensions:
            facts = dict.get(self.facts, name)
            found = None
            for imported in sorted(facts.imports) if facts is not None else ():
                info = self.index.get(imported)
                if info is not None and info.kind in ("opaque", "opaque-package"):
                    found = imported
                    break
            self._extensions[name] = found
        return self._extensions[name]

    def extension_naming(self, top: str, name: str) -> str | None:
        """An extension module of the analysed package `top` whose compiled code holds
        `name` as a C string (a function it may look up and call, a module it may import),
        the first by name; None when none does."""
        key = (top, name)
        if key not in self._extensions:
            needle = name.encode()
            self._extensions[key] = next((
                module for module, path in self._package_extensions(top)
                if needle in self._binary_names(path)), None)
        return self._extensions[key]

    def _package_extensions(self, top: str) -> list[tuple[str, str]]:
        key = ("\0extensions", top)
        if key not in self._extensions:
            self._extensions[key] = sorted(
                (name, info.path) for name, info in self.index.items()
                if info.kind in ("opaque", "opaque-package") and name.startswith(top + "."))
        return self._extensions[key]

    def _binary_names(self, path: str) -> frozenset[bytes]:
        key = ("\0binary", path)
        if key not in self._extensions:
            self._extensions[key] = binary_names(path)
        return self._extensions[key]

    def module_at(self, path: str) -> ModuleInfo | None:
        """The analysed module whose file is `path` (normalised), if any."""
        if self._by_path is None:
            self._by_path = {os.path.normpath(i.path): i for i in self.index.values()
                             if i.kind != "namespace"}
        return self._by_path.get(path)

    def under_roots(self, path: str) -> bool:
        """Is `path` (normalised) inside one of the source roots?"""
        return any(path.startswith(os.path.join(os.path.normpath(root), ""))
                   for root in {i.root for i in self.index.values()})

    def sharing_bodies(self, facts: dict[str, ModuleFacts], memo: bool = True) -> "Program":
        """A program over other module-level facts of the same sources (their functions the
        same): the function bodies loaded so far, and those either loads later, serve both,
        so that none is parsed twice."""
        other = Program(self.index, facts, memo, self.load_bodies, self.target_version,
                        self.load_functions, self._named, self.strict, self.env, self.versions,
                        self.listings)
        other._bodies, other._functions, other.inert = self._bodies, self._functions, self.inert
        other.importing = self.importing
        other.loaded_functions, other._shipped = self.loaded_functions, self._shipped
        other.generated = self.generated
        return other

    @property
    def imported(self) -> frozenset[str]:
        """The analysed modules that some module's facts import, and their ancestors: the
        only ones whose first import can happen again in another state than an entry's own,
        so the only ones worth recording for the memo (any other is run as it comes: the same
        results, fewer recordings that nothing would replay)."""
        if self._imported is None:
            found = self._named
            if found is None:
                found = ImportedNames()
                for _, f in summary_items(self.facts):
                    found.take(f)
            self._imported = frozenset(found.names.intersection(self.index))
        return self._imported

    def function_body(self, module: str, stub: FunctionFacts) -> FunctionFacts:
        """The facts of a module-level function, loading its body on the first call; then
        kept by stub (a few functions are called many times at import time)."""
        if stub.body is not None:
            return stub
        function = self._functions.get(stub)
        if function is not None:
            return function
        key = (module, stub.name, stub.line)
        if self._shipped:
            function = self._shipped.get(key)
            if function is not None:
                self._functions[stub] = function
                return function
        found = self._bodies.get(module)
        if found is None:
            if self.load_functions is not None:
                found = self._bodies[module] = self.load_functions(module)
            else:
                full = self.load_bodies(module) if self.load_bodies is not None else None
                found = self._bodies[module] = functions_of(full.body if full else ())
        function = self._functions[stub] = found.get((stub.name, stub.line)) or FunctionFacts(
            stub.name, stub.line, (), frozenset(), frozenset())
        self.loaded_functions.append((key, function))
        return function

    def keep_functions(self, loaded) -> None:
        """Function bodies another process loaded (its loaded_functions): function_body
        finds them instead of loading them again."""
        self._shipped.update(loaded)

    def remember(self, name: str, variant: tuple, stop=None) -> None:
        """Add a variant to the trie of `import name`, where the failed lookup `stop`ped:
        its reads agree with the walked path up to there (see ImportState.memo_lookup)."""
        deps = variant[0]
        if stop is None:
            if name not in self.memo:  # else a nested import of the same name made a root
                self.memo[name] = _chain(deps, 0, variant)
            return
        node, at, depth = stop
        if depth >= len(deps):
            return  # not the path the lookup walked (cannot happen): keep the old
        dep, value = deps[depth]
        rest = _chain(deps, depth + 1, variant)
        if node.__class__ is _Node:
            if dep == node.dep and value not in node.children:
                node.children[value] = rest
        elif node.lo <= at < node.hi and dep == node.deps[at][0] and value != node.deps[at][1]:
            # split the chain where the values part; a nested import of the same name that
            # split it before `at` since the lookup moved `at` out of it: keep the old
            old_dep, old_value = node.deps[at]
            fork = _Node(old_dep, {old_value: _chain(node.deps, at + 1, node.next, node.hi),
                                   value: rest})
            node.hi, node.next = at, fork


def _summary(log: list, start: int) -> tuple[tuple, dict]:
    """The first read of each dependency in log[start:], in the order read, and the modules
    absent at their first lookup (the recording's `made` restores them whole: reads of their
    state are not dependencies). A write marker counts as a first read: it keeps the reads
    after it out. One pass: this runs for every recorded sub-import, over the summaries of
    the sub-imports nested in it."""
    first: dict = {}
    created: dict = {}  # a dict, not a set: `made` follows the log, not string hashes
    for read in log[start:]:
        key = read[0]
        if key not in first:
            first[key] = read
            if key[0] == "p" and read[1] < 0:  # absent (ImportState.state)
                created[key[1]] = None
    kept = tuple([read for read in first.values()
                  if read[0][0] in _NOT_MODULE_STATE or read[0][1] not in created])
    return kept, created


def functions_of(events) -> dict:
    """(name, line) -> FunctionFacts of every module-level def (also under if / try) and
    of every method of a class there."""
    return {(ev.name, ev.line): ev.func for ev in walk(events, classes=True)
            if ev.__class__ is Def and ev.func is not None}


class _Node:
    """A trie node where variants part: which dependency to read next, and the subtree for
    each value."""

    __slots__ = ("dep", "children")

    def __init__(self, dep: tuple, children: dict):
        self.dep = dep
        self.children = children


class _Chain:
    """A run of the trie with no parting: deps[lo:hi] must all hold, then `next` (a _Node,
    or the variant). Shares the tuple of the variant that made it: remembering a variant
    builds no node per dependency."""

    __slots__ = ("deps", "lo", "hi", "next")

    def __init__(self, deps: tuple, lo: int, hi: int, next_: object):
        self.deps, self.lo, self.hi, self.next = deps, lo, hi, next_


def _chain(deps: tuple, lo: int, next_: object, hi: int | None = None) -> object:
    """deps[lo:hi] (to the end by default) required before `next_`."""
    hi = len(deps) if hi is None else hi
    return _Chain(deps, lo, hi, next_) if lo < hi else next_


class ImportState:
    """sys.modules for the analysed modules, with logged reads and writes."""

    def __init__(self, program: Program):
        self.program = program
        # a (snapshot, birth) pair: a module a replay put back, not read since (restore_all)
        self.modules: dict[str, ModState | tuple] = {}
        self.epochs: dict[str, int] = {}
        self.stale: dict[tuple[str, int], ModState] = {}
        self.stale_log: list[tuple[str, int]] = []
        self.clock = 0
        self.rec_starts: list[int] = []  # clock at the start of each active recording
        # per active recording: parent -> the children it registered itself (register), so
        # far; a read of the registry depends on the rest only (registered)
        self.rec_regs: list[dict[str, set]] = []
        self.rec_start = -1  # of the innermost one
        self.log: list[tuple] = []  # (dependency, value) as first read
        self.writes: list[tuple] = []  # (module, op, key, value)
        # id -> container value a display made in this run (mutation.Mutations.displayed),
        # and the ids of the variants this run recorded
        self.distinct: dict[int, tuple] = {}
        self.recorded: set[int] = set()
        # id -> container value an element of a kept display names (mutation.Mutations.escape):
        # changed with the display's object where that change is not followed
        self.held: dict[int, tuple] = {}
        self.supers: list = []  # callreplay.CallReplay.supers
        # PEP 810: children lazily named under each module (docs/lazy.md L3), and the lazy
        # proxies being resolved now ((holder module, name) -> True)
        self.registry: dict[str, frozenset[str]] = {}
        self.resolving: dict[tuple[str, str], bool] = {}
        # the ordinary-order rule's assumptions so far: (module, name) -> Assumption
        self.assumed: dict = {}

    # -- where a run starts and ends -----------------------------------------------------
    def after(self) -> AfterImport:
        """This state, at the end of a run, as one the runs of its submodules start from."""
        return AfterImport(
            {name: st if st.__class__ is tuple else (st.snapshot(), st.born)
             for name, st in self.modules.items()},
            dict(self.epochs), {key: (st.snapshot(), st.born) for key, st in self.stale.items()},
            list(self.stale_log), dict(self.registry), self.clock, dict(self.assumed))

    def start_from(self, state: AfterImport) -> None:
        """Start this (new) run from the state a package's run ended in (AfterImport)."""
        self.modules = dict(state.modules)
        self.epochs = dict(state.epochs)
        self.stale = {key: ModState.restore(*pair) for key, pair in state.stale.items()}
        self.stale_log = list(state.stale_log)
        self.registry = dict(state.registry)
        self.clock = state.clock
        self.assumed = dict(state.assumed)

    # -- creation -------------------------------------------------------------------------
    def new_state(self, info: ModuleInfo, status: str) -> ModState:
        epoch = self.epochs.get(info.name, 0)
        self.epochs[info.name] = epoch + 1
        self.clock += 1
        st = ModState(info, status, epoch, self.clock)
        self.modules[info.name] = st
        return st

    def forget(self, st: ModState) -> None:
        """A module whose code raised leaves sys.modules; references to it go stale."""
        if self.modules.get(st.name) is st:
            del self.modules[st.name]
            self.stale[(st.name, st.epoch)] = st
            self.stale_log.append((st.name, st.epoch))

    # -- logged reads ---------------------------------------------------------------------
    def _watched(self, st: ModState) -> bool:
        return st.born < self.rec_start

    def state(self, name: str) -> ModState | None:
        st = self.modules.get(name)
        if st.__class__ is tuple:  # put back by a replay, not read since (restore_all)
            st = self.modules[name] = ModState.restore(*st)
        if self.rec_starts and (st is None or st.born < self.rec_start):
            # a module not in sys.modules after n attempts reads -1 - n: never an epoch
            self.log.append((("p", name, None), st.epoch if st is not None else
                             -1 - self.epochs.get(name, 0)))
        return st

    def ns_get(self, st: ModState, key: str):
        found = st.ns.get(key, MISSING)
        if self.rec_starts and st.born < self.rec_start:
            # dependencies are by module name: the write markers (see write()) are about
            # the module in sys.modules, so reads of a stale one are a kind of their own
            kind = "a" if self.modules.get(st.name) is st else "A"
            self.log.append(((kind, st.name, key), found))
        return found

    def status_of(self, st: ModState) -> str:
        if self.rec_starts and st.born < self.rec_start:
            self.log.append((("s", st.name, None), st.status))
        return st.status

    def line_of(self, st: ModState) -> int:
        """The line of its top-level code a running module is at."""
        if self.rec_starts and st.born < self.rec_start:
            self.log.append((("l", st.name, None), st.line))
        return st.line

    def dynamic_of(self, st: ModState) -> str | None:
        if self.rec_starts and st.born < self.rec_start:
            self.log.append((("d", st.name, None), st.dynamic))
        return st.dynamic

    def wildcard_of(self, st: ModState) -> bool:
        if self.rec_starts and st.born < self.rec_start:
            self.log.append((("w", st.name, None), st.wildcard))
        return st.wildcard

    def registered(self, parent: str) -> frozenset[str]:
        found = self.registry.get(parent, frozenset())
        if self.rec_starts:
            own = self.rec_regs[-1].get(parent)
            self.log.append((("g", parent, None), found - own if own else found))
        return found

    def is_registered(self, parent: str, child: str) -> bool:
        """`child in registered(parent)`, a dependency of its own: what the rest of the
        registry holds does not decide it."""
        found = child in self.registry.get(parent, ())
        if self.rec_starts:
            self.log.append((("G", parent, child), found))
        return found

    def is_resolving(self, holder: str, name: str) -> bool:
        found = (holder, name) in self.resolving
        if self.rec_starts:
            self.log.append((("z", holder, name), found))
        return found

    def ns_items(self, st: ModState) -> list:
        if self.rec_starts and st.born < self.rec_start:
            self.log.append((("n", st.name, None), st.token))
        return list(st.ns.items())

    # -- logged writes --------------------------------------------------------------------
    def register(self, parent: str, child: str) -> None:
        old = self.registry.get(parent, frozenset())
        self.registry[parent] = old | {child}
        if self.rec_starts:
            self.writes.append((REGISTRY, "reg", parent, child))
            if child not in old:
                self.rec_regs[-1].setdefault(parent, set()).add(child)

    def assume(self, assumption) -> None:
        """Record an Assumption; a recording replays it with the rest of its writes."""
        key = (assumption.kind, assumption.module, assumption.name)
        if key not in self.assumed:
            self.assumed[key] = assumption
        if self.rec_starts:
            self.writes.append((ASSUMED, "assume", key, assumption))

    def write(self, st: ModState, op: str, key, value=None) -> None:
        if op == "set":
            st.own_ns()[key] = value
            st.token = hash((st.token, key, value))
        elif op == "del":
            if key not in st.ns:
                return
            del st.own_ns()[key]
            st.token = hash((st.token, "-", key))
        elif op == "status":
            st.status = key
            st.token = hash((st.token, "$status", key))
        elif op == "dynamic":
            merged = merge_dynamic(st.dynamic, key)
            if merged == st.dynamic:
                return
            st.dynamic = merged
            st.token = hash((st.token, "$dynamic", merged))
        elif op == "wildcard":
            if st.wildcard:
                return
            st.wildcard = True
            st.token = hash((st.token, "$wildcard"))
        st.snap = None
        if self.rec_starts and st.born < self.rec_start:
            self.writes.append((st.name, op, key, value))
            if op in ("set", "del") and self.modules.get(st.name) is st:
                # a marker, first for its key: later reads of the attribute, of this very
                # module (a module born before the recording cannot return to sys.modules
                # once gone), read this write, not the state the recording started from
                self.log.append((("a", st.name, key), WRITTEN))

    # -- memo -----------------------------------------------------------------------------
    def memo_lookup(self, name: str) -> tuple:
        """(the recorded variant of `import name` whose every dependency holds now, None) or,
        on a miss, (None, where the walk stopped: (node, index, depth) for Program.remember).

        The simulator is deterministic, so two variants read the same dependencies in the
        same order up to the first value that differs: the variants of one import form a
        trie over (dependency -> value), and a lookup walks one path of it."""
        program = self.program
        node = program.memo.get(name)
        depth = 0
        while node is not None:
            cls = node.__class__
            if cls is _Chain:
                lo, hi = node.lo, node.hi
                at = self._first_changed(node.deps, lo, hi)
                if at < hi:
                    program.misses += 1
                    return None, (node, at, depth + at - lo)
                depth += hi - lo
                node = node.next
            elif cls is tuple:
                program.hits += 1
                return node, None
            else:
                found = node.children.get(self._now(*node.dep))
                if found is None:
                    program.misses += 1
                    return None, (node, None, depth)
                depth += 1
                node = found
        program.misses += 1
        return None, None

    def _first_changed(self, deps: tuple, lo: int, hi: int) -> int:
        """The index of the first of deps[lo:hi] whose value is not the recorded one, or hi.
        Inline for the kinds a walk meets most."""
        modules, epochs = self.modules, self.epochs
        for at in range(lo, hi):
            (kind, mod, key), value = deps[at]
            # a (snapshot, birth) pair is read in place: snapshot[4] is the epoch, [1] the
            # namespace (ModState.snapshot)
            if kind == "p":
                st = modules.get(mod)
                if (-1 - epochs.get(mod, 0) if st is None else st[0][4]
                        if st.__class__ is tuple else st.epoch) != value:
                    return at
            elif kind == "a":
                st = modules.get(mod)
                if (NO_MODULE if st is None else st[0][1].get(key, MISSING)
                        if st.__class__ is tuple else st.ns.get(key, MISSING)) != value:
                    return at
            elif self._now(kind, mod, key) != value:
                return at
        return hi

    def _now(self, kind: str, mod: str, key):
        """The current value of a dependency (what the logged read would return)."""
        if kind == "g":
            return self.registry.get(mod, frozenset())
        if kind == "G":
            return key in self.registry.get(mod, ())
        if kind == "z":
            return (mod, key) in self.resolving
        st = self.modules.get(mod)
        if st.__class__ is tuple:
            st = self.modules[mod] = ModState.restore(*st)
        if kind == "p":
            return st.epoch if st is not None else -1 - self.epochs.get(mod, 0)
        if st is None:
            return NO_MODULE
        if kind == "a" or kind == "A":
            return st.ns.get(key, MISSING)
        return st.status if kind == "s" else st.dynamic if kind == "d" else \
            st.wildcard if kind == "w" else st.line if kind == "l" else st.token

    def begin_recording(self, name: str | None) -> tuple[int, int, int]:
        """`name`: the module a recorded import makes; None for a recorded call."""
        self.clock += 1
        self.rec_starts.append(self.clock)
        self.rec_regs.append({})
        self.rec_start = self.clock
        marks = len(self.log), len(self.writes), len(self.stale_log)
        if name is not None:
            self.state(name)  # absent: the recording creates it
        return marks

    def context_free(self, marks: tuple[int, int, int], running: frozenset) -> bool:
        """Since begin_recording gave `marks`: no write to a module of `running`, and no
        ordinary-order assumption about one (what a call writes there may be its caller's: a
        module replacing "the module that called it"; whether a name of a running module is
        taken as bound depends on which one runs the call). The other kinds name a running
        module only as where the caller's line is, which a replay moves (memoised_call)."""
        return not any(w[0] in running or w[0] == ASSUMED and w[3].kind == "order" and
                       w[3].module in running for w in self.writes[marks[1]:])

    def end_recording(self, name: str | None, marks: tuple[int, int, int], outcome,
                      stop=None) -> None:
        log_mark, write_mark, stale_mark = marks
        self.rec_starts.pop()
        own = self.rec_regs.pop()
        self.rec_start = self.rec_starts[-1] if self.rec_starts else -1
        kept, created = _summary(self.log, log_mark)
        writes = tuple([w for w in self.writes[write_mark:] if w[0] not in created])
        # the write markers go on to the enclosing recording, but are no dependencies
        deps = tuple([read for read in kept if read[1] is not WRITTEN]) if writes else kept
        get, epochs = self.modules.get, self.epochs
        made = tuple([(n, None if (st := get(n)) is None else st[0] if st.__class__ is tuple
                        else st.snapshot(), epochs.get(n, 0)) for n in created])
        stale = tuple([(k, self.stale[k].snapshot()) for k in self.stale_log[stale_mark:]])
        # what an enclosing recording needs of this one is exactly its summary
        del self.log[log_mark:]
        del self.writes[write_mark:]
        if self.rec_starts:
            self.log.extend(self._outer_reads(kept))
            self.writes.extend(writes)
            outer = self.rec_regs[-1]  # what this one registered, the enclosing one did
            for parent, children in own.items():
                outer.setdefault(parent, set()).update(children)
        if name is not None:
            table = self.program.deps  # one object per distinct dependency, see Program
            deps = tuple([table.setdefault(read, read) for read in deps])
            variant = (deps, writes, made, stale, outcome)
            self.recorded.add(id(variant))
            self.program.remember(name, variant, stop)

    def _outer_reads(self, reads):
        """A nested import's registry reads as reads of the enclosing recording: without
        the children it registered itself before (they are its writes, not its state)."""
        own = self.rec_regs[-1]
        if not own:
            return reads
        return [(key, value - own[key[1]]) if key[0] == "g" and key[1] in own
                else (key, value) for key, value in reads]

    def replay(self, variant, moved=None) -> tuple:
        """Apply a recorded variant; how it ended. `moved(assumption)`: where a recorded
        assumption is made now (a memoised call's, made at its caller's line)."""
        deps, writes, made, stale, outcome = variant
        if id(variant) in self.recorded and (writes or made or stale):
            # recorded by this run: its containers are this run's, but the dependencies
            # matched by equality, so equal ones made since may be the objects it holds
            # (a variant that puts nothing into the state, most recorded calls, holds none)
            self.distinct.clear()
        if self.rec_starts:
            self.log.extend(self._outer_reads(deps))
        self.clock = ModState.restore_all(made, self.modules, self.epochs, self.clock)
        for name, op, key, value in writes:
            if name == REGISTRY:
                self.register(key, value)
            elif name == ASSUMED:
                self.assume(value if moved is None else moved(value))
            elif name == FORGOTTEN:
                self.forget_in_frames(*value)
            else:
                st = self.modules[name]
                if st.__class__ is tuple:
                    st = self.modules[name] = ModState.restore(*st)
                self.write(st, op, key, value)
        for key, snap in stale:
            self.clock += 1
            self.stale[key] = ModState.restore(snap, self.clock)
            self.stale_log.append(key)
        return outcome
