"""Replay CPython's import machinery over module facts, for one (entry, mode) at a time.

Pure: takes ModuleFacts and the module map, returns Results. Values are symbolic: a module
object (its ModState, so stale references to a failed module stay stale, as in CPython), a
known function (replayed when called at import time), or an opaque value.
"""
from __future__ import annotations

import builtins
from dataclasses import replace

from ..model import Result
from .frames import (
    UNDECIDED, Frame_, FunctionReturn, LoopBreak, LoopContinue, SimError, SimUnknown,
    evaluate_test, may_exit,
)
from .computed import ComputedImports
from .execfile import ExecFiles
from .listed import ListedLoops
from .namespaces import ComputedNames
from .machinery import ImportMachinery
from .names import NameLookup, defined_at  # noqa: F401 - defined_at: also from here
from .callreplay import CallReplay, instance_of
from .environment import OrdinaryEnvironment
from .mutation import Mutations
from .lazy import LAZY_TARGET, LazyImports
from .torchops import OPS_MODULE
from .state import MISSING, OPAQUE, AfterImport, ImportState, ModState, Program
from .events import (
    LOOP_ELSE, Bind, Call, ClassBody, ComputedImport, Def, Del, Dynamic, Escape, ExecFile,
    ExecSource, Exit, ForEach, GetAttr, If, Import, ImportFrom, Jump, Raise, SetAttr, SetItem,
    Try, Use,
)

_EXC_BASES = {
    "KeyError": ("KeyError", "LookupError"),
    "ModuleNotFoundError": ("ModuleNotFoundError", "ImportError"),
    # importlib.metadata's, for a distribution not installed
    "PackageNotFoundError": ("PackageNotFoundError", "ModuleNotFoundError", "ImportError"),
    "ImportError": ("ImportError",),
    "ImportCycleError": ("ImportCycleError", "ImportError"),  # PEP 810, 3.15
    "AttributeError": ("AttributeError",),
    "NameError": ("NameError",),
    "SyntaxError": ("SyntaxError",),
}
_KNOWN_EXC = frozenset(n for n in dir(builtins) if n.endswith(("Error", "Exception", "Warning"))
                       ) | {"Exception", "BaseException", "KeyboardInterrupt", "SystemExit",
                            "GeneratorExit", "StopIteration", "StopAsyncIteration",
                            "ImportCycleError", "PackageNotFoundError"}
_NOT_EXCEPTION = frozenset({"SystemExit", "KeyboardInterrupt", "GeneratorExit"})


class Simulator(ImportMachinery, NameLookup, CallReplay, LazyImports, ComputedImports,
                ListedLoops, ExecFiles, ComputedNames, OrdinaryEnvironment, Mutations,
                ImportState):
    """One simulated interpreter: `sys.modules` for the analysed modules, and the call stack.

    Module references are (name, epoch): the epoch counts earlier attempts to run the module,
    so a stale reference to a module that failed stays stale, as in CPython.
    """

    def __init__(self, program: Program, trace: list | None = None):
        super().__init__(program)
        self.index = program.index
        self.facts = program.facts
        self.tops = program.tops
        self.stack: list[ModState] = []
        self.loading: dict[str, list[str]] = {}
        self.calls: list[int] = []
        self.frames: list = []  # the function and class frames running (Mutations)
        # id(a running module's namespace) -> (it, its container keys, the module's token)
        self.container_keys: dict = {}
        self.recursing: list[tuple[int, int]] = []  # (function, modules running) per call
        # per call: (module, epoch, line, modules running), what `calls` and `recursing`
        # hold, as a memoised call's key holds it (callreplay.memoised_call)
        self.call_sigs: list[tuple] = []
        # per memoised call being recorded: the functions its replay calls
        # (callreplay.memoised_call)
        self.call_recs: list[set] = []
        # per running ForEach: why its later passes may not run (a `break` under an
        # undecided `if`), or None
        self.loop_breaks: list[str | None] = []
        # (event, module, importer frame or None): "start" / "done" / "fail", for explain
        self.trace = trace
        self.lazy_all = False  # PEP 810 global mode (mode `lazy`): see docs/lazy.md
        self.lazy_modules = program.target_version >= LAZY_TARGET  # count __lazy_modules__

    # -- entry points ---------------------------------------------------------------------
    def run(self, entry: str, mode: str) -> Result:
        try:
            if mode == "bare":
                self.setup_bare(entry)
            self.lazy_all = mode == "lazy"
            # an entry's own import is not recorded when its state is seldom met again: a
            # bare entry's (only its siblings' bare runs meet it), and a package's (its
            # submodules' normal runs start where it ended, simulate_pairs)
            info = self.index.get(entry)
            self.import_module(entry, record=mode != "bare" and (
                info is None or info.kind != "package"))
        except SimError as err:
            if err.uncertain:
                return Result(entry, mode, "unknown", reason=f"{err.info.exception} "
                              f"({err.info.message}) raised {err.uncertain}",
                              assumes=self.assumptions())
            return Result(entry, mode, "error", err.info, assumes=self.assumptions())
        except SimUnknown as why:
            return Result(entry, mode, "unknown", reason=str(why), assumes=self.assumptions())
        except RecursionError:
            return Result(entry, mode, "unknown", reason=TOO_DEEP)
        return Result(entry, mode, "ok", assumes=self.assumptions())

    def assumptions(self) -> tuple:
        return tuple(self.assumed.values())

    # -- module references ----------------------------------------------------------------
    def is_external(self, name: str) -> bool:
        return name.partition(".")[0] not in self.tops

    def ref(self, name: str):
        st = self.state(name)
        return ("m", name, st.epoch) if st is not None else OPAQUE

    def deref(self, value) -> ModState | None:
        st = self.state(value[1])
        if st is not None and st.epoch == value[2]:
            return st
        return self.stale.get((value[1], value[2]))

    # -- statements -----------------------------------------------------------------------
    def exec_block(self, events, frame: Frame_) -> None:
        dispatch = self.dispatch
        if frame.kind == "module":
            module = frame.module
            for ev in events:
                module.line = ev.line
                dispatch[ev.__class__](self, ev, frame)
        else:
            for ev in events:
                dispatch[ev.__class__](self, ev, frame)

    def e_Use(self, ev: Use, frame):
        self.resolve(ev.name, ev.attrs, frame)

    def e_Bind(self, ev: Bind, frame):
        value = self.value_of_spec(ev.value, ev.names, frame)
        last = self.last_return
        spec = ev.value
        if last is not None and value is OPAQUE and spec is not None and spec[0] == "eval" \
                and spec[1][0] == "call" and last[0] is frame and last[1] == ev.line \
                and spec[1][1] == ".".join((last[2], *last[3])):
            value = last[4]  # `x = f(...)`: what the replay of the call before it returned
        for name in ev.names:
            self.bind(name, value, frame)
        if frame.kind == "function":
            self.note_fresh(ev, frame)

    def value_of_spec(self, spec, names: tuple, frame):
        """What a Bind (or an item store) of the value `spec` binds to `names`."""
        value = OPAQUE
        if spec is not None:
            kind = spec[0]
            if kind == "ref":
                value = self.resolve(spec[1], spec[2], frame)
                self.shared(spec[1], frame)
            elif kind == "module":
                value = self.ref(spec[1] if spec[2] == "import_module" else
                                 spec[1].partition(".")[0])
            elif kind == "computed":
                value = self.last_import
            elif kind == "str":
                value = self.string_value(spec[1], frame)
            elif kind == "dict" and len(spec) == 2:
                value = self.displayed(spec)
            elif kind == "dict" or kind == "lit" or kind == "obj":
                value = spec
            elif kind == "comp":
                value = self.list_value(spec, frame)
                if value is OPAQUE and names == ("__all__",):
                    value = ("all", None)  # a list of names not known: as any other __all__
            elif kind == "item":
                value = self.item_value(spec, frame)
            elif kind == "index":
                value = self.index_value(spec, frame)
            elif kind == "eval":
                value = self.pure_value(spec[1], frame)
            elif kind == "evalitem":
                value = self.pure_item(spec, frame)
            elif kind == "partial":
                value = self.partial_value(spec, frame)
            elif kind == "getattr":
                value = self.getattr_call(spec, frame)
            elif kind == "pathspec":
                found = self.path_value(spec[1], frame)
                value = ("path", found[0], *spec[2:]) if found is not None and found[1] \
                    else OPAQUE  # with "str" or "Path": the type pure code reads it as
            elif kind == "all" and names != ("__all__",) and names != ("__lazy_modules__",):
                names = self._all_names(spec[1], frame)  # names added up: a list, if known
                value = ("all", names) if names is not None else OPAQUE
            elif kind == "all":
                value = ("all", self._all_names(spec[1], frame))
            elif kind == "all+":
                current = self.ns_get(frame.module, "__all__")
                extra = self._all_names(spec[1], frame)
                if current is not MISSING and current[0] == "all" and current[1] is not None \
                        and extra is not None:
                    value = ("all", current[1] + extra)
                else:
                    value = ("all", None)
        if names == ("ops",) and value is OPAQUE and frame.kind == "module" and \
                frame.module.name == OPS_MODULE:
            value = ("torchops", None)  # torch's `ops: _Ops = _Ops()` (torchops.py)
        elif value is OPAQUE and spec is not None and (
                spec[0] == "new" or spec[0] == "eval" and spec[1][0] == "call"):
            value = self._new_instance(spec, frame)
        return value

    def _new_instance(self, spec, frame):
        """`x = Cls(...)`: ("inst", Cls) where Cls is an analysed class whose call is known
        to make an instance of it (callreplay.instance_of), so that `x.method()` replays the
        method; else opaque, as every other call's result."""
        name, attrs = (spec[1], spec[2]) if spec[0] == "new" else (spec[1][1], ())
        try:
            cls = self.resolve(name, attrs, frame)  # (the Call before it made the reads)
        except (SimError, SimUnknown):
            return OPAQUE
        found = instance_of(cls)
        if found is None and self.lazy_all and cls[0] == "c" and self._refusing(cls):
            found = ("inst", cls)  # sympy's `S`: see callreplay.instance_attribute
        return found or OPAQUE

    def _all_names(self, parts, frame) -> tuple[str, ...] | None:
        """A literal `__all__`, parts being names or ("ref", name, attrs) to another list."""
        if parts is None:
            return None
        names: list[str] = []
        for part in parts:
            if isinstance(part, str):
                names.append(part)
                continue
            listed = self.names_in(self.resolve(part[1], part[2], frame))
            if listed is None:
                return None
            names.extend(listed)
        return tuple(names)

    def e_SetAttr(self, ev: SetAttr, frame):
        target = self.resolve(ev.name, ev.attrs[:-1], frame)
        if target[0] == "m":
            st = self.deref(target)
            if st is not None and not st.opaque:
                self.write(st, "set", ev.attrs[-1], OPAQUE)
                if ev.attrs[-1] == "__class__":  # a ModuleType subclass: its class answers
                    self.write(st, "dynamic", f"its __class__ is replaced at "
                               f"{frame.module.info.path}:{ev.line}")

    def e_Del(self, ev: Del, frame):
        for name in ev.names:
            if frame.kind == "module" or name in frame.global_names:
                self.write(frame.module, "del", name)
            else:
                frame.locals.pop(name, None)

    def e_Dynamic(self, ev: Dynamic, frame):
        if ev.target is not None or ev.delete:
            self.change_namespace(ev, frame)
            return
        if ev.elsewhere:
            # which module it replaces is not known: most likely the one whose top level
            # called it (with its own __name__), so any name may be bound there now
            if frame.kind == "function" and self.stack:
                self.write(self.stack[-1], "dynamic",
                           f"{ev.reason} ({frame.module.info.path}, line {ev.line})")
            return
        if ev.replaces:
            # what replaces a module (a ModuleType subclass forwarding to something, a lazy
            # loader) is assumed to answer every name, as an external module does
            self.write(self.replaced_by(frame.module, ev.line), "wildcard", None)
            return
        if (ev.key is not None or ev.update is not None) and self.bind_computed(ev, frame):
            return
        reason = f"{ev.reason} (line {ev.line})"
        self.write(frame.module, "dynamic", ((ev.prefix, reason),) if ev.prefix else reason)

    def change_namespace(self, ev: Dynamic, frame):
        """`setattr(target, key, value)` and the like: as `target.key = value` (or `del
        target.key`) where the key is known now; else any name of the module may be bound
        from here on, or any may be gone (unknown). A target that is no module keeps
        nothing the simulator reads."""
        if ev.target is None:
            st = frame.module
        else:
            try:
                target = self.resolve(ev.target[1], ev.target[2], frame)
            except (SimError, SimUnknown):
                return  # the call's own reads made that failure, or left it unknown
            st = self.deref(target) if target[0] == "m" else None
            if st is None or st.opaque:
                return
        name = self.spell(ev.key, frame) if ev.key is not None else None
        if ev.delete:
            if name is None:
                raise SimUnknown(f"{ev.reason} ({frame.module.info.path}, line {ev.line})")
            self.write(st, "del", name)
        elif name is not None:
            self.write(st, "set", name, self.bound_value(ev.value, frame))
        else:
            self.write(st, "dynamic", f"{ev.reason} ({frame.module.info.path}, line {ev.line})")

    def e_Def(self, ev: Def, frame):
        module = frame.module
        value = ("f", module.name, module.epoch, ev.func) if ev.func is not None else OPAQUE
        wrapping = self.wrapping
        if wrapping is not None:
            self.wrapping = None
            if wrapping[0] is module and wrapping[1] == ev.line:
                value = ("wrap", ev.line, wrapping[2])
        self.bind(ev.name, value, frame)

    def e_ClassBody(self, ev: ClassBody, frame):
        outer = frame if frame.kind == "function" else frame.outer
        body = Frame_("class", frame.module, outer=outer)
        self.frames.append(body)
        try:
            self.exec_block(ev.body, body)
        finally:
            self.frames.pop()
        after = None if ev.hidden else self._mro_after(ev.bases, frame)
        meta = None if ev.hidden else self.metaclass_of(ev, frame)
        value = self.class_value(ev, frame, body.locals, after, meta)
        self.make_class(value, ev, frame, after, meta, body.locals)
        self.bind(ev.name, value, frame)

    def e_If(self, ev: If, frame):
        cond = ev.cond
        if cond == "unknown" and ev.test is not None:
            decided = evaluate_test(ev.test, frame, lambda name: self.global_value(name, frame),
                                    lambda name: self.reads_builtin(name, frame),
                                    lambda name, attrs: self.returned_literal(name, attrs, frame),
                                    lambda program: self.pure_truth(program, frame),
                                    lambda how, program: self.module_known(how, program, frame),
                                    lambda name, attrs: self.value_now(name, attrs, frame),
                                    lambda value, name: self.bound_now(value, name, frame))
            if decided is not UNDECIDED:
                cond = "true" if decided else "false"
        if ev.env and cond != "unknown":
            self.assume_environment(ev.env, ev.line, frame)
        if cond == "true":
            self._body(ev, frame)
        elif cond == "false":
            self.exec_block(ev.orelse, frame)
        else:  # either branch may run: run both, and any failure in them is uncertain
            before = dict(frame.locals) if frame.kind == "function" else None
            # a module's globals, as the function's locals: each branch starts from them
            at_top = dict(frame.module.ns) if frame.kind == "module" else None
            ends = []  # the locals of each branch that went on to the code after the `if`
            for is_body in (True, False):
                if before is not None:
                    frame.locals.clear()
                    frame.locals.update(before)
                elif at_top is not None and not is_body:
                    self._set_globals(frame.module, at_top)
                try:
                    self._body(ev, frame) if is_body else self.exec_block(ev.orelse, frame)
                    if before is not None:
                        ends.append(dict(frame.locals))
                    elif at_top is not None:
                        ends.append(dict(frame.module.ns))
                except SimError as err:
                    if err.explicit and not err.uncertain:
                        continue  # an environment guard: assumed not to fire
                    err.uncertain = err.uncertain or (
                        f"inside the `else` of the loop at {frame.module.info.path}:{ev.line},"
                        " which runs unless the loop breaks (not decided statically)"
                        if ev.why == LOOP_ELSE else
                        f"in the right operand of `{ev.why}` at {frame.module.info.path}:"
                        f"{ev.line}, whose left operand cannot be decided statically"
                        if ev.why in ("and", "or") else
                        f"inside `if` at {frame.module.info.path}:{ev.line}, whose condition "
                        "cannot be decided statically")
                    raise
                except FunctionReturn:
                    pass  # the branch may not run: go on with the rest of the body
                except (LoopBreak, LoopContinue):  # what follows in the loop may not run
                    self.loop_breaks[-1] = self.loop_breaks[-1] or (
                        f"after `if` at {frame.module.info.path}:{ev.line}, which may leave "
                        "the loop or its pass first")
            if ends and at_top is not None:
                self._set_globals(frame.module, _merge_globals(at_top, ends))
            elif ends:
                _merge_locals(frame.locals, ends)
            if frame.kind == "function" and not frame.uncertain and may_exit(ev):
                frame.uncertain = (f"after `if` at {frame.module.info.path}:{ev.line}, which "
                                   "may leave the function first")

    def _set_globals(self, st: ModState, values: dict) -> None:
        """Make the module's namespace `values`, writing only what differs."""
        ns = st.ns
        for key in [k for k in ns if k not in values]:
            self.write(st, "del", key)
        for key, value in values.items():
            if ns.get(key, MISSING) is not value:
                self.write(st, "set", key, value)

    def _body(self, ev: If, frame) -> None:
        """An `if`'s body, run with the names its test narrowed holding what it told."""
        if ev.narrow is None:
            self.exec_block(ev.body, frame)
            return
        restore = self.narrow(ev.narrow, frame)
        try:
            self.exec_block(ev.body, frame)
        finally:
            self.unnarrow(restore, frame)

    def e_Jump(self, ev: Jump, frame):
        raise LoopBreak() if ev.kind == "break" else LoopContinue()

    def e_Try(self, ev: Try, frame):
        step = 0 if ev.with_ else 1
        frame.in_try += step
        try:
            self._try(ev, frame)
        finally:
            frame.in_try -= step

    def _try(self, ev: Try, frame):
        try:
            try:
                frame.guards.append(ev)
                try:
                    self.exec_block(ev.body, frame)
                finally:
                    frame.guards.pop()
            except SimError as err:
                handler = self._handler_for(ev, err.info.exception, frame)
                if handler is None:
                    raise
                if err.uncertain and not frame.unsure_return:
                    frame.unsure_return = err.uncertain
                self._handle(handler, err, frame)
            except FunctionReturn as exit_:
                # a `raise` in a function body: its handler runs as for any exception
                handler = _handler_for_raised(ev, exit_.raised) \
                    if exit_.raised and exit_.raised != "?" else None
                if handler is None:
                    raise
                err = self.error(exit_.raised, None, None, exit_.raised)
                err.explicit = True
                self._handle(handler, err, frame)
            else:
                self.exec_block(ev.orelse, frame)
        finally:
            self.exec_block(ev.final, frame)

    def _handle(self, handler, err: SimError, frame) -> None:
        if handler.name:
            self.bind(handler.name, OPAQUE, frame)
        saved, self.handled = self.handled, err
        try:
            self.exec_block(handler.body, frame)
        finally:
            self.handled = saved

    def _handler_for(self, ev: Try, exc: str, frame):
        bases = _EXC_BASES.get(exc, (exc,)) + (
            ("BaseException",) if exc in _NOT_EXCEPTION else ("Exception", "BaseException"))
        for handler in ev.handlers:
            if handler.types is None:
                return handler
            unknown = any(t not in _KNOWN_EXC for t in handler.types)
            if unknown:
                # CPython evaluates the clause's classes first: a read of them that fails
                # raises instead (`except mpl.Error:` while `mpl` lacks it)
                for name, attrs in handler.reads:
                    self.resolve(name, attrs, frame)
            if any(t in bases for t in handler.types):
                return handler
            if unknown:
                raise SimUnknown(f"cannot tell whether the handler at line {handler.line} "
                                 f"catches {exc}")
        return None


def _handler_for_raised(ev: Try, exc: str):
    """The handler of `ev` that catches an exception a `raise` names, or None; SimUnknown
    when that depends on classes not known here. A builtin exception is caught by its own
    classes (its MRO); another class only by its name, a bare `except:` or BaseException."""
    cls = getattr(builtins, exc, None)
    known = isinstance(cls, type) and issubclass(cls, BaseException)
    bases = {c.__name__ for c in cls.__mro__} if known else set(_EXC_BASES.get(exc, (exc,)))
    for handler in ev.handlers:
        if handler.types is None or any(t in bases for t in handler.types) or \
                not known and "BaseException" in handler.types:
            return handler
        if not known or any(t not in _KNOWN_EXC for t in handler.types):
            raise SimUnknown(f"cannot tell whether the handler at line {handler.line} "
                             f"catches {exc}")
    return None


def _merge_locals(into: dict, ends: list) -> None:
    """After an undecided `if`: a local keeps a value only when every branch that went on
    left it the same; else it is opaque (which literal it holds is not known)."""
    merged = ends[0]
    for other in ends[1:]:
        if other != merged:  # mostly equal: the branches bound no local
            merged = {n: v if other.get(n, OPAQUE) == v else OPAQUE for n, v in merged.items()}
            merged.update((n, OPAQUE) for n in other if n not in merged)
    into.clear()
    into.update(merged)


def _merge_globals(before: dict, ends: list) -> dict:
    """A module's globals after an undecided `if`, from what each branch that went on left
    (`ends`): a name the branches left holding different values, a literal or a container
    among them, is opaque (a later test of it is not decided by one branch's value); else
    the value of the last branch that bound it (a name bound in one branch only is taken
    as bound, its reads checked)."""
    merged = dict(ends[0])
    for other in ends[1:]:
        for key in merged.keys() | other.keys():
            mine, theirs = merged.get(key, MISSING), other.get(key, MISSING)
            if mine is theirs or mine == theirs:
                continue
            if mine is not MISSING and theirs is not MISSING and (
                    mine[0] in _MERGED_KINDS or theirs[0] in _MERGED_KINDS):
                merged[key] = OPAQUE
            elif theirs is not MISSING and theirs is not before.get(key, MISSING):
                merged[key] = theirs  # the later branch bound it
    return merged


_MERGED_KINDS = frozenset({"lit", "dict"})  # the values whose branch decides later tests


def simulate(entry: str, mode: str, program: Program, trace: list | None = None) -> Result:
    """The outcome of `import entry` as the first import of its package, in `mode`. With a
    `trace` list (and a program without memo), every module start / finish is appended."""
    return Simulator(program, trace).run(entry, mode)


TOO_DEEP = "imports nested too deep: CPython may reach its recursion limit (RecursionError)"


# the modes where `import a.b` first runs `import a` as a's own first import does (bare
# leaves the ancestors out): a run there starts where its parent package's run ended
CHAINED = ("normal", "lazy")


def simulate_modules(entry: str, mode: str, program: Program, made: bool = True,
                     start: AfterImport | None = None
                     ) -> tuple[Result, frozenset, AfterImport | None]:
    """simulate, and the modules the run created in its sys.modules (executed, stubbed, or
    put back by a replayed recording): the only ones whose facts decided it
    (resultcache.py). The entry and its ancestors count too, whether reached or not. Third,
    for a package's successful normal- or lazy-mode run, the state it ended in (its submodules in it
    are then imported by the package itself, and the others start from it: simulate_pairs).
    Without `made` (no results cache to key), the second is only the entry and its
    ancestors. `start`: the state the run of the entry's parent package in the same mode
    (normal or lazy) ended in, which this run then starts from instead of importing the
    parent again."""
    sim = Simulator(program)
    if start is not None:
        sim.start_from(start)
    result = sim.run(entry, mode)
    parts = entry.split(".")
    created = {name for name, count in sim.epochs.items() if count} if made else set()
    created.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    info = program.index.get(entry)
    loaded = sim.after() if mode in CHAINED and result.outcome == "ok" and \
        info is not None and info.kind in ("package", "namespace") else None
    return result, frozenset(created), loaded


def simulate_pairs(pairs, program: Program, sim=simulate_modules,
                   normal: dict | None = None) -> list[tuple[Result, object]]:
    """iter_pairs, as a list."""
    return list(iter_pairs(pairs, program, sim, normal))


def iter_pairs(pairs, program: Program, sim=simulate_modules, normal: dict | None = None):
    """`sim` (simulate_modules, or a function with its parameters, `start` included) over
    (entry, mode) pairs, yielding (result, its modules) for each as it is done, but three
    kinds of result are taken from another run instead of simulated (the first two in mode
    lazy as in mode normal: the global lazy mode makes the import statements in the
    modules lazy, not the import machinery's own import of the ancestors):

    - a normal-mode entry whose ancestor package fails its own normal first import gets that
      failure, and that ancestor's modules: `import a.b.c` first runs `import a`, then
      `import a.b`, from the same empty state as their own first imports, and an exception
      there propagates unchanged (CPython imports parents first). So the outermost failing
      ancestor decides, and a package whose top-level import fails (torch: `unknown`) costs
      one simulation in normal mode, not one per module;
    - a normal-mode entry that its parent package's own normal first import (successful)
      left in sys.modules is `ok` with the parent's modules: CPython finds it there once the
      parent is imported, and runs nothing more (`_find_and_load_unlocked`);
    - a top-level module's bare run, which has no ancestor to leave out, is its normal run.

    Ancestors are simulated here when neither among the pairs nor in `normal` (module -> its
    normal (result, modules, loaded) as simulate_modules gives them, where the caller already
    has them)."""
    known = {"normal": dict(normal or {}), "lazy": {}}  # mode -> module -> its run
    for entry, mode in pairs:
        found = None
        runs = known.get(mode)
        if runs is not None:
            found = runs.get(entry) or _from_ancestors(entry, program, runs, sim, mode)
        elif mode == "bare" and "." not in entry and entry in known["normal"]:
            # a top-level module has no ancestors to leave out: its bare run is its normal one
            result, modules, _ = known["normal"][entry]
            found = replace(result, mode="bare"), modules, None
        if found is None:
            # a run starts where its parent package's own run in the same mode ended
            parent = runs.get(entry.rpartition(".")[0]) if runs is not None else None
            found = sim(entry, mode, program, start=parent[2] if parent is not None else None)
        if runs is not None:
            runs[entry] = found
        yield found[:2]


def _from_ancestors(entry: str, program: Program, normal: dict, sim, mode: str = "normal"):
    """The (result, modules, loaded) in `mode` (normal or lazy) its ancestors decide, or
    None (see simulate_pairs); `normal`: the runs in that mode so far."""
    parts = entry.split(".")
    found = None
    for i in range(1, len(parts)):
        ancestor = ".".join(parts[:i])
        if ancestor not in program.index:
            return None
        before = found[2] if found is not None else None  # where the parent's run ended
        found = normal.get(ancestor)
        if found is None:
            found = normal[ancestor] = sim(ancestor, mode, program, start=before)
        result, modules, _ = found
        if result.outcome != "ok":
            # a chain too deep to replay is a limit of the replay, not the ancestor's outcome
            return None if result.reason == TOO_DEEP else \
                (replace(result, entry=entry), modules, None)
    if found is not None and found[2] is not None and entry in found[2]:
        # the parent's import left the entry in sys.modules: the same state, nothing more run
        modules = found[1] if entry in found[1] else found[1] | {entry}
        return Result(entry, mode, "ok", assumes=tuple(found[2].assumed.values())), \
            modules, found[2]
    return None


Simulator.dispatch = {cls: getattr(Simulator, "e_" + cls.__name__) for cls in (
    Use, Call, Exit, Raise, Import, ImportFrom, Bind, SetAttr, Del, Dynamic, Def, ClassBody, If,
    Try, ComputedImport, GetAttr, ForEach, Jump, ExecFile, ExecSource, SetItem, Escape)}


def traced_run(program: Program, entry: str, mode: str) -> tuple[Result, list]:
    """The outcome and the trace of every module start / finish, replayed without the memo
    (a replayed sub-import would leave no steps)."""
    traced = program.sharing_bodies(program.facts, memo=False)
    trace: list = []
    return simulate(entry, mode, traced, trace), trace
