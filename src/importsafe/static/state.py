"""The simulated interpreter state, and the memo that replays recorded sub-imports.

Every read of a module's state goes through `ImportState` (`state`, `ns_get`, `status_of`,
...), and every write too. While a sub-import `import X` is being recorded, reads of modules
that existed before it started are logged as dependencies, at attribute granularity, and
writes to them as effects. Later, when the same `import X` starts and every dependency still
has the recorded value, the effects are applied instead of running the code again: exact,
because the simulator is deterministic in what it reads.
"""
from __future__ import annotations

from typing import Callable

from .discover import ModuleInfo
from .events import Def, FunctionFacts, ModuleFacts, walk

OPAQUE = ("v",)  # any value: every attribute exists, calls run nothing we know
REGISTRY = "\0registry"  # the `module` of logged writes to ImportState.registry
_NOT_MODULE_STATE = frozenset("pgz")  # dependency kinds that outlive module creation
MISSING = object()
NO_MODULE = object()


class ModState:
    """One module object. `epoch` counts earlier attempts to run the module (references are
    (name, epoch), so a reference to a module that failed stays stale, as in CPython);
    `born` orders creation against recordings; `ns` is shared copy-on-write with records."""

    __slots__ = ("name", "info", "ns", "status", "dynamic", "wildcard", "opaque", "epoch",
                 "token", "shared", "line", "born")

    def __init__(self, info: ModuleInfo, status: str, epoch: int, born: int):
        self.name = info.name
        self.info = info
        self.status = status  # "running" | "done" | "bare"
        self.ns: dict = {"__name__": OPAQUE}
        if info.is_package:
            self.ns["__path__"] = OPAQUE
        self.dynamic: str | None = None  # why the namespace cannot be known, if so
        self.wildcard = False  # a star import from an opaque module: any name may be bound
        self.opaque = info.kind == "opaque"
        self.epoch = epoch
        self.token = hash((self.name, epoch, status))  # changes with every write (star import)
        self.shared = False
        self.line = 0
        self.born = born

    def own_ns(self) -> dict:
        if self.shared:
            self.ns = dict(self.ns)
            self.shared = False
        return self.ns

    def snapshot(self) -> tuple:
        self.shared = True
        return (self.info, self.ns, self.status, self.dynamic, self.epoch, self.token,
                self.wildcard)

    def __repr__(self) -> str:
        return f"<ModState {self.name} #{self.epoch} {self.status}>"

    @classmethod
    def restore(cls, snap: tuple, born: int) -> "ModState":
        st = cls.__new__(cls)
        st.info, st.ns, st.status, st.dynamic, st.epoch, st.token, st.wildcard = snap
        st.name, st.opaque, st.line, st.shared, st.born = snap[0].name, \
            snap[0].kind == "opaque", 0, True, born
        return st


class Program:
    """What every simulation of one check shares: the module map, the facts, and the memo of
    recorded sub-imports (module name -> variants)."""

    def __init__(self, index: dict[str, ModuleInfo], facts: dict[str, ModuleFacts],
                 memo: bool = True, load_bodies: Callable[[str], ModuleFacts] | None = None,
                 target_version: tuple[int, int] = (3, 11)):
        self.index = index
        self.facts = facts
        self.target_version = tuple(target_version)  # `__lazy_modules__` counts from 3.15
        self.tops = frozenset(name.partition(".")[0] for name in index)
        self.registrars = tuple(sorted(n for n, f in facts.items() if f.registers_modules))
        self.memo: dict[str, object] | None = {} if memo else None
        self.hits = self.misses = 0
        self.load_bodies = load_bodies  # module -> facts with every function body
        self._bodies: dict[str, dict] = {}

    def function_body(self, module: str, stub: FunctionFacts) -> FunctionFacts:
        """The facts of a module-level function, loading its body on the first call."""
        if stub.body is not None:
            return stub
        found = self._bodies.get(module)
        if found is None:
            full = self.load_bodies(module) if self.load_bodies is not None else None
            found = self._bodies[module] = _functions(full.body if full is not None else ())
        return found.get((stub.name, stub.line)) or FunctionFacts(
            stub.name, stub.line, (), frozenset(), frozenset())

    def remember(self, name: str, variant: tuple, stop=None) -> None:
        """Add a variant to the trie of `import name`, where the failed lookup `stop`ped:
        its reads agree with the walked path up to there (see ImportState.memo_lookup)."""
        deps = variant[0]
        parent, depth = stop if stop is not None else (None, -1)
        if parent is None:
            if name in self.memo:
                return  # the trie has a root already: keep what is there
            start = 0
        elif depth < len(deps) and deps[depth][0] == parent.dep \
                and deps[depth][1] not in parent.children:
            start = depth + 1
        else:
            return  # not the path the lookup walked (cannot happen): keep the old
        tail: object = variant
        for key, value in reversed(deps[start:]):
            tail = _Node(key, {value: tail})
        if parent is None:
            self.memo[name] = tail
        else:
            parent.children[deps[depth][1]] = tail


def _functions(events) -> dict:
    """(name, line) -> FunctionFacts of every module-level def (also under if / try)."""
    return {(ev.name, ev.line): ev.func for ev in walk(events)
            if ev.__class__ is Def and ev.func is not None}


class _Node:
    """A trie node: which dependency to read next, and the subtree for each value."""

    __slots__ = ("dep", "children")

    def __init__(self, dep: tuple, children: dict):
        self.dep = dep
        self.children = children


class ImportState:
    """sys.modules for the analysed modules, with logged reads and writes."""

    def __init__(self, program: Program):
        self.program = program
        self.modules: dict[str, ModState] = {}
        self.epochs: dict[str, int] = {}
        self.stale: dict[tuple[str, int], ModState] = {}
        self.stale_log: list[tuple[str, int]] = []
        self.clock = 0
        self.rec_starts: list[int] = []  # clock at the start of each active recording
        self.rec_start = -1  # of the innermost one
        self.log: list[tuple] = []  # (dependency, value) as first read
        self.writes: list[tuple] = []  # (module, op, key, value)
        # PEP 810: children lazily named under each module (docs/lazy.md L3), and the lazy
        # proxies being resolved now ((holder module, name) -> True)
        self.registry: dict[str, frozenset[str]] = {}
        self.resolving: dict[tuple[str, str], bool] = {}

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
        if self.rec_starts and (st is None or st.born < self.rec_start):
            self.log.append((("p", name, None), st.epoch if st is not None else
                             ("absent", self.epochs.get(name, 0))))
        return st

    def ns_get(self, st: ModState, key: str):
        found = st.ns.get(key, MISSING)
        if self.rec_starts and st.born < self.rec_start:
            self.log.append((("a", st.name, key), found))
        return found

    def status_of(self, st: ModState) -> str:
        if self.rec_starts and st.born < self.rec_start:
            self.log.append((("s", st.name, None), st.status))
        return st.status

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
            self.log.append((("g", parent, None), found))
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
        self.registry[parent] = self.registry.get(parent, frozenset()) | {child}
        if self.rec_starts:
            self.writes.append((REGISTRY, "reg", parent, child))

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
            if st.dynamic:
                return
            st.dynamic = key
            st.token = hash((st.token, "$dynamic", key))
        elif op == "wildcard":
            if st.wildcard:
                return
            st.wildcard = True
            st.token = hash((st.token, "$wildcard"))
        if self.rec_starts and st.born < self.rec_start:
            self.writes.append((st.name, op, key, value))

    # -- memo -----------------------------------------------------------------------------
    def memo_lookup(self, name: str) -> tuple:
        """(the recorded variant of `import name` whose every dependency holds now, None) or,
        on a miss, (None, where the walk stopped: (node, depth) for Program.remember).

        The simulator is deterministic, so two variants read the same dependencies in the
        same order up to the first value that differs: the variants of one import form a
        trie over (dependency -> value), and a lookup walks one path of it."""
        node = self.program.memo.get(name)
        modules, epochs = self.modules, self.epochs
        parent, depth = None, 0
        while node is not None:
            if node.__class__ is tuple:
                self.program.hits += 1
                return node, None
            kind, mod, key = node.dep
            st = modules.get(mod)
            if kind == "g":
                now = self.registry.get(mod, frozenset())
            elif kind == "z":
                now = (mod, key) in self.resolving
            elif kind == "a":
                now = st.ns.get(key, MISSING) if st is not None else NO_MODULE
            elif kind == "p":
                now = st.epoch if st is not None else ("absent", epochs.get(mod, 0))
            elif st is None:
                now = NO_MODULE
            else:
                now = st.status if kind == "s" else st.dynamic if kind == "d" else \
                    st.wildcard if kind == "w" else st.token
            parent, node, depth = node, node.children.get(now), depth + 1
        self.program.misses += 1
        return None, (parent, depth - 1)

    def begin_recording(self, name: str) -> tuple[int, int, int]:
        self.clock += 1
        self.rec_starts.append(self.clock)
        self.rec_start = self.clock
        marks = len(self.log), len(self.writes), len(self.stale_log)
        self.state(name)  # absent: the recording creates it
        return marks

    def end_recording(self, name: str | None, marks: tuple[int, int, int], outcome,
                      stop=None) -> None:
        log_mark, write_mark, stale_mark = marks
        self.rec_starts.pop()
        self.rec_start = self.rec_starts[-1] if self.rec_starts else -1
        deps: dict = {}
        for key, value in self.log[log_mark:]:
            if key not in deps:
                deps[key] = value
        created = {k[1] for k, v in deps.items() if k[0] == "p" and v.__class__ is tuple}
        kept = tuple((k, v) for k, v in deps.items()
                     if k[0] in _NOT_MODULE_STATE or k[1] not in created)
        writes = tuple(w for w in self.writes[write_mark:] if w[0] not in created)
        modules = self.modules
        made = tuple((n, modules[n].snapshot() if n in modules else None,
                      self.epochs.get(n, 0)) for n in created)
        stale = tuple((k, self.stale[k].snapshot()) for k in self.stale_log[stale_mark:])
        # what an enclosing recording needs of this one is exactly its summary
        del self.log[log_mark:]
        del self.writes[write_mark:]
        if self.rec_starts:
            self.log.extend(kept)
            self.writes.extend(writes)
        if name is not None:
            self.program.remember(name, (kept, writes, made, stale, outcome), stop)

    def replay(self, variant) -> tuple:
        deps, writes, made, stale, outcome = variant
        if self.rec_starts:
            self.log.extend(deps)
        for name, snap, epochs in made:
            self.epochs[name] = epochs
            if snap is None:
                self.modules.pop(name, None)
            else:
                self.clock += 1
                self.modules[name] = ModState.restore(snap, self.clock)
        for name, op, key, value in writes:
            if name == REGISTRY:
                self.register(key, value)
            else:
                self.write(self.modules[name], op, key, value)
        for key, snap in stale:
            self.clock += 1
            self.stale[key] = ModState.restore(snap, self.clock)
            self.stale_log.append(key)
        return outcome
