"""The simulated interpreter state, and the memo that replays recorded sub-imports.

Every read of a module's state goes through `ImportState` (`state`, `ns_get`, `status_of`,
...), and every write too. While a sub-import `import X` is being recorded, reads of modules
that existed before it started are logged as dependencies, at attribute granularity, and
writes to them as effects. Later, when the same `import X` starts and every dependency still
has the recorded value, the effects are applied instead of running the code again: exact,
because the simulator is deterministic in what it reads.
"""
from __future__ import annotations

from .discover import ModuleInfo
from .events import ModuleFacts

OPAQUE = ("v",)  # any value: every attribute exists, calls run nothing we know
MISSING = object()
MEMO_VARIANTS = 16  # recorded contexts kept per module


class ModState:
    """One module object. `epoch` counts earlier attempts to run the module (references are
    (name, epoch), so a reference to a module that failed stays stale, as in CPython);
    `born` orders creation against recordings; `ns` is shared copy-on-write with records."""

    __slots__ = ("name", "info", "ns", "status", "dynamic", "opaque", "epoch", "token",
                 "shared", "line", "born")

    def __init__(self, info: ModuleInfo, status: str, epoch: int, born: int):
        self.name = info.name
        self.info = info
        self.status = status  # "running" | "done" | "bare"
        self.ns: dict = {"__name__": OPAQUE}
        if info.is_package:
            self.ns["__path__"] = OPAQUE
        self.dynamic: str | None = None  # why the namespace cannot be known, if so
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
        return (self.info, self.ns, self.status, self.dynamic, self.epoch, self.token)

    @classmethod
    def restore(cls, snap: tuple, born: int) -> "ModState":
        st = cls.__new__(cls)
        st.info, st.ns, st.status, st.dynamic, st.epoch, st.token = snap
        st.name, st.opaque, st.line, st.shared, st.born = snap[0].name, \
            snap[0].kind == "opaque", 0, True, born
        return st


class Program:
    """What every simulation of one check shares: the module map, the facts, and the memo of
    recorded sub-imports (module name -> variants)."""

    def __init__(self, index: dict[str, ModuleInfo], facts: dict[str, ModuleFacts],
                 memo: bool = True):
        self.index = index
        self.facts = facts
        self.tops = frozenset(name.partition(".")[0] for name in index)
        self.memo: dict[str, list] | None = {} if memo else None
        self.hits = self.misses = 0


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
            self.log.append(("p", name, None, st.epoch if st is not None else
                             ("absent", self.epochs.get(name, 0))))
        return st

    def ns_get(self, st: ModState, key: str):
        found = st.ns.get(key, MISSING)
        if self.rec_starts and st.born < self.rec_start:
            self.log.append(("a", st.name, key, found))
        return found

    def status_of(self, st: ModState) -> str:
        if self.rec_starts and st.born < self.rec_start:
            self.log.append(("s", st.name, None, st.status))
        return st.status

    def dynamic_of(self, st: ModState) -> str | None:
        if self.rec_starts and st.born < self.rec_start:
            self.log.append(("d", st.name, None, st.dynamic))
        return st.dynamic

    def ns_items(self, st: ModState) -> list:
        if self.rec_starts and st.born < self.rec_start:
            self.log.append(("n", st.name, None, st.token))
        return list(st.ns.items())

    # -- logged writes --------------------------------------------------------------------
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
        if self.rec_starts and st.born < self.rec_start:
            self.writes.append((st.name, op, key, value))

    # -- memo -----------------------------------------------------------------------------
    def memo_lookup(self, name: str):
        """A recorded variant of `import name` whose every dependency holds now, or None."""
        variants = self.program.memo.setdefault(name, [])
        modules, epochs = self.modules, self.epochs
        for variant in variants:
            for kind, mod, key, value in variant[0]:
                st = modules.get(mod)
                if kind == "a":
                    if st is None or st.ns.get(key, MISSING) != value:
                        break
                elif kind == "p":
                    if st is not None:
                        if st.epoch != value:
                            break
                    elif value != ("absent", epochs.get(mod, 0)):
                        break
                elif st is None or value != (st.status if kind == "s" else
                                             st.dynamic if kind == "d" else st.token):
                    break
            else:
                self.program.hits += 1
                return variants, variant
        self.program.misses += 1
        return variants, None

    def begin_recording(self, name: str) -> tuple[int, int, int]:
        self.clock += 1
        self.rec_starts.append(self.clock)
        self.rec_start = self.clock
        marks = len(self.log), len(self.writes), len(self.stale_log)
        self.state(name)  # absent: the recording creates it
        return marks

    def end_recording(self, variants: list, marks: tuple[int, int, int], outcome) -> None:
        log_mark, write_mark, stale_mark = marks
        self.rec_starts.pop()
        self.rec_start = self.rec_starts[-1] if self.rec_starts else -1
        deps: dict = {}
        for item in self.log[log_mark:]:
            deps.setdefault(item[:3], item)
        created = {d[1] for d in deps.values() if d[0] == "p" and d[3].__class__ is tuple}
        kept = tuple(d for d in deps.values() if d[0] == "p" or d[1] not in created)
        writes = tuple(w for w in self.writes[write_mark:] if w[0] not in created)
        made = tuple((n, self.modules[n].snapshot() if n in self.modules else None,
                      self.epochs.get(n, 0)) for n in sorted(created))
        stale = tuple((k, self.stale[k].snapshot()) for k in self.stale_log[stale_mark:])
        # what an enclosing recording needs of this one is exactly its summary
        del self.log[log_mark:]
        del self.writes[write_mark:]
        if self.rec_starts:
            self.log.extend(kept)
            self.writes.extend(writes)
        variants.insert(0, (kept, writes, made, stale, outcome))
        del variants[MEMO_VARIANTS:]

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
            self.write(self.modules[name], op, key, value)
        for key, snap in stale:
            self.clock += 1
            self.stale[key] = ModState.restore(snap, self.clock)
            self.stale_log.append(key)
        return outcome
