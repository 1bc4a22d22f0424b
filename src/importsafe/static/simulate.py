"""Replay CPython's import machinery over module facts, for one (entry, mode) at a time.

Pure: takes ModuleFacts and the module map, returns Results. Values are symbolic: a module
object (its ModState, so stale references to a failed module stay stale, as in CPython), a
known function (replayed when called at import time), or an opaque value.
"""
from __future__ import annotations

import builtins
import types
from dataclasses import replace

from ..model import Frame, Result
from .discover import ModuleInfo
from .frames import (
    UNDECIDED, Frame_, FunctionReturn, SimError, SimUnknown, evaluate_test, may_exit,
)
from .computed import ComputedImports
from .namespaces import ComputedNames
from .lazy import LAZY_TARGET, LazyImports
from .state import MISSING, OPAQUE, AfterImport, ImportState, ModState, Program, dynamic_reason
from .events import (
    LOOP_ELSE, Bind, Call, ClassBody, ComputedImport, Def, Del, Dynamic, Exit, ForEach, GetAttr,
    If, Import, ImportFrom, Raise, SetAttr, Try, Use,
)
from .problems import NESTING_UNKNOWN  # noqa: I001 - see exec_module
from .events import (  # noqa: I001 - apart: the process-exit marker (problems.py)
    PROCESS_EXIT,
)

BUILTIN_NAMES = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__package__",
                                            "__spec__", "__loader__", "__builtins__",
                                            "__cached__", "__annotations__", "__debug__"}
_EXC_BASES = {
    "ModuleNotFoundError": ("ModuleNotFoundError", "ImportError"),
    "ImportError": ("ImportError",),
    "ImportCycleError": ("ImportCycleError", "ImportError"),  # PEP 810, 3.15
    "AttributeError": ("AttributeError",),
    "NameError": ("NameError",),
    "SyntaxError": ("SyntaxError",),
}
_KNOWN_EXC = frozenset(n for n in dir(builtins) if n.endswith(("Error", "Exception", "Warning"))
                       ) | {"Exception", "BaseException", "KeyboardInterrupt", "SystemExit",
                            "GeneratorExit", "StopIteration", "StopAsyncIteration",
                            "ImportCycleError"}
_NOT_EXCEPTION = frozenset({"SystemExit", "KeyboardInterrupt", "GeneratorExit"})
MODULE_OBJECT_ATTRS = frozenset(dir(types.ModuleType)) | frozenset(
    dir(types.ModuleType("m"))) | {"__file__", "__cached__", "__builtins__", "__path__"}
MAX_CALL_DEPTH = 30
MAX_REENTRY = 3


class Simulator(LazyImports, ComputedImports, ComputedNames, ImportState):
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
                              f"({err.info.message}) raised {err.uncertain}")
            return Result(entry, mode, "error", err.info)
        except SimUnknown as why:
            return Result(entry, mode, "unknown", reason=str(why))
        except RecursionError:
            return Result(entry, mode, "unknown", reason=TOO_DEEP)
        return Result(entry, mode, "ok")

    def setup_bare(self, entry: str) -> None:
        parts = entry.split(".")
        for i in range(1, len(parts)):
            name = ".".join(parts[:i])
            info = self.index.get(name)
            if info is None:
                return
            if info.kind == "package":
                self._bind_on_parent(name, self.new_state(info, "bare"))
            else:
                self.import_module(name)

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

    # -- the import system ----------------------------------------------------------------
    def import_module(self, name: str, record: bool = True) -> None:
        """importlib._bootstrap._find_and_load, memoised (see state.py); without `record`,
        a miss is run without recording it."""
        # an external module is never in the simulated sys.modules: no read to log
        if self.is_external(name) or self.state(name) is not None:
            return
        if self.program.memo is None or self.calls or name not in self.program.imported:
            return self._find_and_load(name)
        key = "\0lazy " + name if self.lazy_all else name  # the same code runs differently
        hit, stop = self.memo_lookup(key)
        if hit is not None:
            return self._replayed(self.replay(hit))
        if not record:
            return self._find_and_load(name)
        marks, depth = self.begin_recording(name), len(self.stack)
        try:
            self._find_and_load(name)
        except SimError as err:
            self.end_recording(key, marks, ("error", err.info, depth, err.uncertain), stop)
            raise
        except SimUnknown as why:
            self.end_recording(key, marks, ("unknown", str(why)), stop)
            raise
        except BaseException:
            self.end_recording(None, marks, None)
            raise
        self.end_recording(key, marks, ("ok",), stop)

    def _replayed(self, outcome) -> None:
        if outcome[0] == "error":
            info = outcome[1]
            chain = self.chain() + info.chain[outcome[2]:]
            raise SimError(info.exception, info.module, info.name, info.message, chain,
                           info.defined_at, outcome[3])
        if outcome[0] == "unknown":
            raise SimUnknown(outcome[1])

    def _find_and_load(self, name: str) -> None:
        parent, _, child = name.rpartition(".")
        if parent:
            self.import_module(parent)
            if self.state(name) is not None:
                return
            pst = self.state(parent)
            if pst is not None and pst.opaque and not pst.info.is_package:
                # an extension module's init may put its own submodules into sys.modules
                # (torch._C._jit_tree_views): assumed there, as external modules are
                self.new_state(ModuleInfo(name, pst.info.path, "opaque", pst.info.root), "done")
                return
            if pst is not None and not pst.info.is_package:
                raise self._not_found(name, f"No module named '{name}'; '{parent}' is not a "
                                            "package")
        info = self.index.get(name)
        if info is None:
            raise self._not_found(name, f"No module named '{name}'")
        self.exec_module(info, parent, child)

    def _not_found(self, name: str, message: str) -> SimError:
        """ModuleNotFoundError; `uncertain` when a loaded module of the same top-level package
        puts modules into sys.modules itself (six.moves): it may exist at run time. Handlers
        and the fromlist probe swallow it like any other; escaping, it is `unknown`."""
        err = self.error("ModuleNotFoundError", name, None, message)
        top = name.partition(".")[0]
        for registrar in self.program.registrars:
            if registrar.partition(".")[0] == top and self.state(registrar) is not None:
                err.uncertain = f"although '{name}' may be put into sys.modules at run time by " \
                                f"'{registrar}'"
                break
        return err

    def exec_module(self, info: ModuleInfo, parent: str, child: str) -> None:
        name = info.name
        st = self.new_state(info, "running")
        if info.kind in ("namespace", "opaque", "opaque-package"):
            self.write(st, "status", "done")
            self._bind_on_parent(name, st)
            return
        facts = self.facts[name]
        loading = self.loading.setdefault(parent, [])
        loading.append(child)
        if self.trace is not None:
            importer = self.stack[-1] if self.stack else None
            self.trace.append(("start", name, importer and Frame(importer.name,
                                                                   importer.info.path,
                                                                   importer.line)))
        self.stack.append(st)
        try:
            if len(self.stack) >= NESTING_UNKNOWN:  # CPython's recursion limit (problems.py)
                raise RecursionError()  # unknown (run), and never memoised: depends on depth
            if facts.problem is not None:
                st.line = facts.problem.line
                if facts.problem.code == "IS003":
                    raise SimUnknown(f"{info.path}: {facts.problem.message}")
                exc = facts.problem.exception  # RecursionError, MemoryError: no module
                raise self.error(exc, name if exc in ("SyntaxError", "IndentationError",
                                                      "TabError") else None,
                                 None, facts.problem.message)
            self.exec_block(facts.body, Frame_("module", st))
        except BaseException:
            self.forget(st)
            if self.trace is not None:
                self.trace.append(("fail", name, None))
            raise
        finally:
            self.stack.pop()
            loading.pop()
            if st.status == "running":
                self.write(st, "status", "done")
        if self.trace is not None:
            self.trace.append(("done", name, None))
        self._lazy_children(st)
        self._bind_on_parent(name, self.state(name) or st)

    def _bind_on_parent(self, name: str, st: ModState) -> None:
        parent, _, child = name.rpartition(".")
        pst = self.state(parent) if parent else None
        if pst is not None:
            self.write(pst, "set", child, ("m", st.name, st.epoch))

    # -- errors ---------------------------------------------------------------------------
    def chain(self) -> tuple[Frame, ...]:
        return tuple(Frame(st.name, st.info.path, st.line) for st in self.stack)

    def error(self, exc, module, name, message) -> SimError:
        defined = defined_at(self.program, module, name) if module and name else None
        return SimError(exc, module, name, message, self.chain(), defined)

    def attr_error(self, st: ModState, attr: str) -> SimError:
        if self.status_of(st) == "running":
            msg = (f"partially initialized module '{st.name}' has no attribute '{attr}' "
                   "(most likely due to a circular import)")
        elif attr in self.loading.get(st.name, ()):
            msg = (f"cannot access submodule '{attr}' of module '{st.name}' "
                   "(most likely due to a circular import)")
        else:
            msg = f"module '{st.name}' has no attribute '{attr}'"
        return self.error("AttributeError", st.name, attr, msg)

    def _undecidable(self, st: ModState, attr: str, reading: bool = False) -> bool:
        """True when the module's `__getattr__` answers for `attr` (replayed); raise
        SimUnknown when `st` may bind `attr` in ways facts cannot follow. `reading`: an
        attribute access, where an AttributeError inside `__getattr__` propagates as is."""
        if self.module_getattr(st, attr, reading):
            return True
        reason = dynamic_reason(self.dynamic_of(st), attr)
        if reason and f"{st.name}.{attr}" not in self.index:
            # (a dynamic binding is assumed not to shadow a submodule of the same name)
            raise SimUnknown(f"'{st.name}' may bind '{attr}' dynamically: {reason}")
        return False

    # -- values ---------------------------------------------------------------------------
    def getattr_value(self, value, attr: str):
        if value[0] != "m":
            # pkgutil's ModuleInfo of a listing replayed (computed.py): its name is known
            return ("lit", value[1]) if value[0] == "modinfo" and attr == "name" else OPAQUE
        st = self.deref(value)
        if st is None or st.opaque:
            return OPAQUE
        found = self.ns_get(st, attr)
        if found is not MISSING:
            return self.lazy_value(st, attr, found) if found[0] == "z" else found
        if attr in MODULE_OBJECT_ATTRS or self.wildcard_of(st):
            return OPAQUE
        if self._undecidable(st, attr, reading=True):
            return self.answer  # what the module's __getattr__ returned, if known
        raise self.attr_error(st, attr)

    def import_from(self, value, name: str):
        """IMPORT_FROM: the attribute, else sys.modules['M.name'], else ImportError."""
        if value[0] != "m":
            return OPAQUE
        st = self.deref(value)
        if st is None or st.opaque:
            return OPAQUE
        found = self.ns_get(st, name)
        if found is not MISSING and found[0] == "z" \
                and self.is_resolving(f"{st.name}#{st.epoch}", name):
            found = MISSING  # its own proxy, being resolved: a missing name to IMPORT_FROM (L4)
        elif found is not MISSING:
            return self.lazy_value(st, name, found) if found[0] == "z" else found
        if name in MODULE_OBJECT_ATTRS or self.wildcard_of(st):
            return OPAQUE
        full = f"{st.name}.{name}"
        present = self.state(full) is not None
        if not (present and full in self.index):
            # for a submodule in sys.modules, a module __getattr__ asked for its name imports
            # it (there already) or raises AttributeError, and IMPORT_FROM falls back to
            # sys.modules: both give the submodule (an assumption, docs/modelled.md)
            if self._undecidable(st, name):
                return self.answer
        if present:
            return self.ref(full)
        where = "partially initialized module " if self.status_of(st) == "running" else ""
        tail = " (most likely due to a circular import)" if where else ""
        origin = st.info.path if st.info.kind != "namespace" else "unknown location"
        msg = f"cannot import name '{name}' from {where}'{st.name}'{tail} ({origin})"
        raise self.error("ImportError", st.name, name, msg)

    def lookup(self, name: str, frame: Frame_):
        if frame.kind == "function":
            if name in frame.local_names:
                return frame.locals.get(name, OPAQUE)
        elif frame.kind == "class":
            found = frame.locals.get(name, MISSING)
            if found is not MISSING:
                return found
            if frame.outer is not None and name in frame.outer.local_names:
                return frame.outer.locals.get(name, OPAQUE)
        st = frame.module
        found = self.ns_get(st, name)
        if found is not MISSING:
            return self.lazy_value(st, name, found) if found[0] == "z" else found
        if name in BUILTIN_NAMES or self.wildcard_of(st):
            return OPAQUE
        reason = dynamic_reason(self.dynamic_of(st), name)
        if reason:
            raise SimUnknown(f"'{name}' may be bound dynamically in '{st.name}': {reason}")
        raise self.error("NameError", st.name, name, f"name '{name}' is not defined")

    def global_value(self, name: str, frame: Frame_):
        """The value a function's global `name` holds now, or None (never raises)."""
        if name in frame.local_names:
            return None
        try:
            return self.lookup(name, frame)
        except (SimError, SimUnknown):
            return None

    def resolve(self, name: str, attrs: tuple, frame: Frame_):
        value = self.lookup(name, frame)
        for attr in attrs:
            value = self.getattr_value(value, attr)
        return value

    def bind(self, name: str, value, frame: Frame_) -> None:
        if frame.kind == "module" or name in frame.global_names:
            self.write(frame.module, "set", name, value)
        else:
            frame.locals[name] = value

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

    def e_Call(self, ev: Call, frame):
        value = self.resolve(ev.name, ev.attrs, frame)
        if value[0] == "f" and value[3] is not None:
            module = self.deref(value)
            if module is not None:
                self.call_function(module, self.program.function_body(module.name, value[3]),
                                   ev.passed)
        elif value[0] == "v" and frame is self.asking and not ev.attrs and \
                self.unresolved is None:
            self.unresolved = self.made_in_code(ev.name, frame)

    def call_function(self, module: ModState, func, passed=None) -> None:
        # CPython re-enters a running function (a decorator calling back into it); we do too,
        # but only so far: conditions are not evaluated, so recursion would never end.
        if self.calls.count(id(func)) >= MAX_REENTRY or len(self.calls) >= MAX_CALL_DEPTH:
            return
        inert = self.program.inert.get(func)
        if inert is None:
            inert = self.program.inert[func] = _inert_reads(func)
        if inert is not False:
            # it only reads: the globals it reads are what could make a difference
            for name in inert:
                if self.ns_get(module, name) is not MISSING:
                    break  # a module global where a builtin was: run it all
            else:
                return
        self.calls.append(id(func))
        frame = Frame_("function", module, func.local_names, func.global_names)
        if passed is not None:  # parameters left to a literal default have a known value
            n_positional, keywords, objects = passed[:3]
            given = set(func.positional[:n_positional]) | set(keywords)
            for name, value in func.defaults:
                if name not in given:
                    frame.locals[name] = ("lit", value)
            for name in func.positional[:objects]:
                frame.locals[name] = ("obj",)  # an object: truthy, not None, no literal
            if len(passed) > 3:  # literal arguments: their parameters have a known value
                params = set(func.positional) | {n for n, _ in func.defaults}
                for key, value in passed[3]:
                    name = key if key.__class__ is str else \
                        func.positional[key] if key < len(func.positional) else None
                    if name in params:
                        frame.locals[name] = ("lit", value)
        try:
            self.exec_block(func.body, frame)
        except FunctionReturn:
            pass
        except SimError as err:
            err.uncertain = err.uncertain or frame.uncertain
            raise
        finally:
            self.calls.pop()

    def e_Exit(self, ev: Exit, frame):
        value = None
        if ev.value is not None and frame is self.asking:  # what a __getattr__ answers
            try:
                value = self.resolve(ev.value[1], ev.value[2], frame)
            except (SimError, SimUnknown):
                value = None
        raise FunctionReturn(ev.exception, self.handled, value)

    def e_Raise(self, ev: Raise, frame):
        if ev.exception == PROCESS_EXIT:  # the process ends: nothing after it happens
            raise SimUnknown(f"{ev.message} (line {ev.line})")
        err = self.error(ev.exception, None, None, ev.message)
        err.explicit = True
        raise err

    def e_Import(self, ev: Import, frame):
        if ev.call is None and self._is_lazy(ev, ev.module, frame):
            return self._bind_lazy(ev, frame)
        self.import_module(ev.module)
        if ev.call is not None:
            return
        top = ev.module.partition(".")[0]
        value = self.ref(top) if not self.is_external(top) else OPAQUE
        if ev.asname is None:
            self.bind(top, value, frame)
            return
        for part in ev.module.split(".")[1:]:
            value = self.import_from(value, part)
        self.bind(ev.asname, value, frame)

    def e_ImportFrom(self, ev: ImportFrom, frame):
        if ev.error is not None:
            raise self.error("ImportError", None, None, ev.error)
        if ev.names[0][0] != "*" and ev.module != "__future__" \
                and self._is_lazy(ev, ev.module, frame):
            return self._bind_lazy(ev, frame)
        self.import_module(ev.module)
        if self.is_external(ev.module):
            if ev.names[0][0] == "*":
                self.write(frame.module, "wildcard", None)
            for n, asname in ev.names:
                if n != "*":
                    self.bind(asname or n, OPAQUE, frame)
            return
        st = self.state(ev.module)
        if ev.names[0][0] == "*":
            self.import_star(st, frame)
            return
        if st.info.is_package:
            self.handle_fromlist(st, [n for n, _ in ev.names])
        value = self.ref(ev.module)
        for n, asname in ev.names:
            self.bind(asname or n, self.import_from(value, n), frame)

    def handle_fromlist(self, st: ModState, names) -> None:
        """importlib._bootstrap._handle_fromlist: import names that are not attributes yet."""
        for n in names:
            if st.opaque:
                continue
            found = self.ns_get(st, n)
            if found is not MISSING:
                if found[0] == "z" and self.is_resolving(f"{st.name}#{st.epoch}", n):
                    # the proxy being resolved counts as missing: `from . import sub` in
                    # pkg/__init__.py imports the submodule, which replaces it (L4)
                    self._import_missing(f"{st.name}.{n}")
                elif found[0] == "z":  # hasattr() reads it: resolves the proxy (L4)
                    try:
                        self.lazy_value(st, n, found)
                    except SimError as err:
                        if err.info.exception != "AttributeError":
                            raise
                        self._import_missing(f"{st.name}.{n}")
                continue
            # hasattr() asks a module __getattr__ (replayed when it is a known function);
            # else a submodule on disk is imported here, whatever hasattr() says: a module
            # __getattr__ asked for its name is assumed to import it or to raise
            # AttributeError, not to answer with another object (docs/modelled.md); and
            # a name that is no submodule fails to import quietly whatever hasattr says
            getter = self.ns_get(st, "__getattr__")
            if getter is not MISSING and getter[0] == "f":
                try:
                    if self.module_getattr(st, n):
                        continue
                except SimUnknown:
                    pass
            self._import_missing(f"{st.name}.{n}")

    def _import_missing(self, full: str) -> None:
        try:
            self.import_module(full)
        except SimError as err:
            if err.info.exception == "ModuleNotFoundError" and err.info.module == full:
                return
            raise

    def import_star(self, st: ModState, frame) -> None:
        if st.opaque:
            self.write(frame.module, "wildcard", None)
            return
        all_names = self.ns_get(st, "__all__")
        if all_names is MISSING:
            dynamic = self.dynamic_of(st)
            if dynamic.__class__ is str:
                self.write(frame.module, "dynamic", f"'from {st.name} import *': {dynamic}")
            elif dynamic:  # names with a leading underscore are not exported
                exported = tuple((p, f"'from {st.name} import *': {r}") for p, r in dynamic
                                 if not p.startswith("_"))
                if exported:
                    self.write(frame.module, "dynamic", exported)
            if self.wildcard_of(st):
                self.write(frame.module, "wildcard", None)
            for k, v in self.ns_items(st):
                if not k.startswith("_"):
                    self.bind(k, self.lazy_value(st, k, v) if v[0] == "z" else v, frame)
            return
        if all_names[0] != "all" or all_names[1] is None:
            if st.info.is_package:  # the names may be submodules, which it would import
                raise SimUnknown(f"__all__ of '{st.name}' cannot be read statically")
            # a module's computed __all__ (`__all__ += list(table)`): some of its names are
            # bound, which is not known; any name may be, as from an external module
            self.write(frame.module, "wildcard", None)
            return
        if st.info.is_package:
            self.handle_fromlist(st, all_names[1])
        value = self.ref(st.name)
        for n in all_names[1]:
            self.bind(n, self.getattr_value(value, n), frame)

    def e_Bind(self, ev: Bind, frame):
        value = OPAQUE
        spec = ev.value
        if spec is not None:
            kind = spec[0]
            if kind == "ref":
                value = self.resolve(spec[1], spec[2], frame)
            elif kind == "module":
                value = self.ref(spec[1] if spec[2] == "import_module" else
                                 spec[1].partition(".")[0])
            elif kind == "computed":
                value = self.last_import
            elif kind == "str":
                value = self.string_value(spec[1], frame)
            elif kind == "dict":
                value = spec
            elif kind == "comp":
                value = self.list_value(spec, frame)
            elif kind == "item":
                value = self.item_value(spec, frame)
            elif kind == "getattr":
                value = self.getattr_call(spec, frame)
            elif kind == "all" and ev.names != ("__all__",) and ev.names != ("__lazy_modules__",):
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
        for name in ev.names:
            self.bind(name, value, frame)

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

    def e_Del(self, ev: Del, frame):
        for name in ev.names:
            if frame.kind == "module" or name in frame.global_names:
                self.write(frame.module, "del", name)
            else:
                frame.locals.pop(name, None)

    def e_Dynamic(self, ev: Dynamic, frame):
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
            self.write(frame.module, "wildcard", None)
            return
        if (ev.key is not None or ev.update is not None) and self.bind_computed(ev, frame):
            return
        reason = f"{ev.reason} (line {ev.line})"
        self.write(frame.module, "dynamic", ((ev.prefix, reason),) if ev.prefix else reason)

    def e_Def(self, ev: Def, frame):
        module = frame.module
        value = ("f", module.name, module.epoch, ev.func) if ev.func is not None else OPAQUE
        self.bind(ev.name, value, frame)

    def e_ClassBody(self, ev: ClassBody, frame):
        outer = frame if frame.kind == "function" else frame.outer
        self.exec_block(ev.body, Frame_("class", frame.module, outer=outer))
        self.bind(ev.name, OPAQUE, frame)

    def e_If(self, ev: If, frame):
        cond = ev.cond
        if cond == "unknown" and ev.test is not None and frame.kind == "function":
            decided = evaluate_test(ev.test, frame, lambda name: self.global_value(name, frame))
            if decided is not UNDECIDED:
                cond = "true" if decided else "false"
        if cond == "true":
            self.exec_block(ev.body, frame)
        elif cond == "false":
            self.exec_block(ev.orelse, frame)
        else:  # either branch may run: run both, and any failure in them is uncertain
            for branch in (ev.body, ev.orelse):
                try:
                    self.exec_block(branch, frame)
                except SimError as err:
                    if err.explicit and not err.uncertain:
                        continue  # an environment guard: assumed not to fire
                    err.uncertain = err.uncertain or (
                        f"inside the `else` of the loop at {frame.module.info.path}:{ev.line},"
                        " which runs unless the loop breaks (not decided statically)"
                        if ev.why == LOOP_ELSE else
                        f"inside `if` at {frame.module.info.path}:{ev.line}, whose condition "
                        "cannot be decided statically")
                    raise
                except FunctionReturn:
                    pass  # the branch may not run: go on with the rest of the body
            if frame.kind == "function" and not frame.uncertain and may_exit(ev):
                frame.uncertain = (f"after `if` at {frame.module.info.path}:{ev.line}, which "
                                   "may leave the function first")

    def e_Try(self, ev: Try, frame):
        frame.in_try += 1
        try:
            self._try(ev, frame)
        finally:
            frame.in_try -= 1

    def _try(self, ev: Try, frame):
        try:
            try:
                self.exec_block(ev.body, frame)
            except SimError as err:
                handler = self._handler_for(ev, err.info.exception)
                if handler is None:
                    raise
                if handler.name:
                    self.bind(handler.name, OPAQUE, frame)
                saved, self.handled = self.handled, err
                try:
                    self.exec_block(handler.body, frame)
                finally:
                    self.handled = saved
            else:
                self.exec_block(ev.orelse, frame)
        finally:
            self.exec_block(ev.final, frame)

    @staticmethod
    def _handler_for(ev: Try, exc: str):
        bases = _EXC_BASES.get(exc, (exc,)) + (
            ("BaseException",) if exc in _NOT_EXCEPTION else ("Exception", "BaseException"))
        for handler in ev.handlers:
            if handler.types is None or any(t in bases for t in handler.types):
                return handler
            if any(t not in _KNOWN_EXC for t in handler.types):
                raise SimUnknown(f"cannot tell whether the handler at line {handler.line} "
                                 f"catches {exc}")
        return None


def simulate(entry: str, mode: str, program: Program, trace: list | None = None) -> Result:
    """The outcome of `import entry` as the first import of its package, in `mode`. With a
    `trace` list (and a program without memo), every module start / finish is appended."""
    return Simulator(program, trace).run(entry, mode)


TOO_DEEP = "imports nested too deep: CPython may reach its recursion limit (RecursionError)"


def defined_at(program: Program, module: str, name: str) -> tuple[str, int] | None:
    """Where `name` is (or would be) bound in `module`: its first binding in the module's
    facts, else the submodule of that name (an error's hint)."""
    facts = program.facts.get(module)
    line = facts.binding_line(name) if facts else None
    if line is not None:
        return facts.path, line
    sub = program.index.get(f"{module}.{name}")
    return (sub.path, 1) if sub is not None else None


def simulate_modules(entry: str, mode: str, program: Program, made: bool = True,
                     start: AfterImport | None = None
                     ) -> tuple[Result, frozenset, AfterImport | None]:
    """simulate, and the modules the run created in its sys.modules (executed, stubbed, or
    put back by a replayed recording): the only ones whose facts decided it
    (resultcache.py). The entry and its ancestors count too, whether reached or not. Third,
    for a package's successful normal-mode run, the state it ended in (its submodules in it
    are then imported by the package itself, and the others start from it: simulate_pairs).
    Without `made` (no results cache to key), the second is only the entry and its
    ancestors. `start`: the state the normal run of the entry's parent package ended in,
    which this normal run then starts from instead of importing the parent again."""
    sim = Simulator(program)
    if start is not None:
        sim.start_from(start)
    result = sim.run(entry, mode)
    parts = entry.split(".")
    created = {name for name, count in sim.epochs.items() if count} if made else set()
    created.update(".".join(parts[:i]) for i in range(1, len(parts) + 1))
    info = program.index.get(entry)
    loaded = sim.after() if mode == "normal" and result.outcome == "ok" and \
        info is not None and info.kind in ("package", "namespace") else None
    return result, frozenset(created), loaded


def simulate_pairs(pairs, program: Program, sim=simulate_modules,
                   normal: dict | None = None) -> list[tuple[Result, object]]:
    """iter_pairs, as a list."""
    return list(iter_pairs(pairs, program, sim, normal))


def iter_pairs(pairs, program: Program, sim=simulate_modules, normal: dict | None = None):
    """`sim` (simulate_modules, or a function with its parameters, `start` included) over
    (entry, mode) pairs, yielding (result, its modules) for each as it is done, but three
    kinds of result are taken from another run instead of simulated:

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
    known = dict(normal or {})
    for entry, mode in pairs:
        found = None
        if mode == "normal":
            found = known.get(entry) or _from_ancestors(entry, program, known, sim)
        elif mode == "bare" and "." not in entry and entry in known:
            # a top-level module has no ancestors to leave out: its bare run is its normal one
            result, modules, _ = known[entry]
            found = replace(result, mode="bare"), modules, None
        if found is None:
            # a normal run starts where its parent package's own normal run ended
            parent = known.get(entry.rpartition(".")[0]) if mode == "normal" else None
            found = sim(entry, mode, program, start=parent[2] if parent is not None else None)
        if mode == "normal":
            known[entry] = found
        yield found[:2]


def _inert_reads(func) -> tuple[str, ...] | bool:
    """The names a function body reads from its module, in order, when a call of it can do
    nothing but succeed as long as its module binds none of them: a body of reads and calls
    only (no binding, so its locals hold no module), each of a local or of a builtin
    (a decorator such as `def callback(f): setattr(f, "_cb", True); return f`, called
    for every decorated function). False for any other body. (Reads of locals or builtins
    cannot fail, and calls of them run nothing the simulator follows: Simulator.lookup.)"""
    names: dict[str, None] = {}
    local = func.local_names
    for ev in func.body:
        cls = ev.__class__
        if cls is not Use and cls is not Call:
            return False
        name = ev.name
        if name in local:
            continue
        if name not in BUILTIN_NAMES:
            return False
        names[name] = None
    return tuple(names)


def _from_ancestors(entry: str, program: Program, normal: dict, sim):
    """The normal-mode (result, modules, loaded) its ancestors decide, or None (see
    simulate_pairs)."""
    parts = entry.split(".")
    found = None
    for i in range(1, len(parts)):
        ancestor = ".".join(parts[:i])
        if ancestor not in program.index:
            return None
        before = found[2] if found is not None else None  # where the parent's run ended
        found = normal.get(ancestor)
        if found is None:
            found = normal[ancestor] = sim(ancestor, "normal", program, start=before)
        result, modules, _ = found
        if result.outcome != "ok":
            # a chain too deep to replay is a limit of the replay, not the ancestor's outcome
            return None if result.reason == TOO_DEEP else \
                (replace(result, entry=entry), modules, None)
    if found is not None and found[2] is not None and entry in found[2]:
        # the parent's import left the entry in sys.modules: the same state, nothing more run
        modules = found[1] if entry in found[1] else found[1] | {entry}
        return Result(entry, "normal", "ok"), modules, found[2]
    return None


Simulator.dispatch = {cls: getattr(Simulator, "e_" + cls.__name__) for cls in (
    Use, Call, Exit, Raise, Import, ImportFrom, Bind, SetAttr, Del, Dynamic, Def, ClassBody, If,
    Try, ComputedImport, GetAttr, ForEach)}


def traced_run(program: Program, entry: str, mode: str) -> tuple[Result, list]:
    """The outcome and the trace of every module start / finish, replayed without the memo
    (a replayed sub-import would leave no steps)."""
    traced = program.sharing_bodies(program.facts, memo=False)
    trace: list = []
    return simulate(entry, mode, traced, trace), trace
