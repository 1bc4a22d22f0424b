"""Replay CPython's import machinery over module facts, for one (entry, mode) at a time.

Pure: takes ModuleFacts and the module map, returns Results. Values are symbolic: a module
object (its ModState, so stale references to a failed module stay stale, as in CPython), a
known function (replayed when called at import time), or an opaque value.
"""
from __future__ import annotations

import builtins

from ..model import ErrorInfo, Frame, Result
from .discover import ModuleInfo
from .events import (
    Bind, Call, ClassBody, Def, Del, Dynamic, If, Import, ImportFrom, ModuleFacts, SetAttr,
    Try, Use,
)

BUILTIN_NAMES = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__package__",
                                            "__spec__", "__loader__", "__builtins__",
                                            "__cached__", "__annotations__", "__debug__"}
OPAQUE = ("v",)  # any value: every attribute exists, calls run nothing we know
MISSING = object()
_EXC_BASES = {
    "ModuleNotFoundError": ("ModuleNotFoundError", "ImportError"),
    "ImportError": ("ImportError",),
    "AttributeError": ("AttributeError",),
    "NameError": ("NameError",),
    "SyntaxError": ("SyntaxError",),
}
_KNOWN_EXC = frozenset(n for n in dir(builtins) if n.endswith(("Error", "Exception", "Warning"))
                       ) | {"Exception", "BaseException", "KeyboardInterrupt", "SystemExit",
                            "GeneratorExit", "StopIteration", "StopAsyncIteration"}
MAX_CALL_DEPTH = 30


class SimError(Exception):
    """A Python exception the simulated import raises."""

    def __init__(self, exc, module, name, message, chain, defined_at=None):
        super().__init__(message)
        self.info = ErrorInfo(exc, module, name, message, chain, defined_at)


class SimUnknown(Exception):
    """The outcome cannot be decided statically; the argument says why."""


class ModState:
    """One module object: its namespace and whether its code is running, done, or bare."""

    __slots__ = ("name", "info", "ns", "status", "dynamic", "line", "opaque")

    def __init__(self, info: ModuleInfo, status: str):
        self.name = info.name
        self.info = info
        self.status = status  # "running" | "done" | "bare"
        self.ns: dict = {"__name__": OPAQUE}
        if info.is_package:
            self.ns["__path__"] = OPAQUE
        self.dynamic: str | None = None  # why the namespace cannot be known, if so
        self.opaque = info.kind == "opaque"
        self.line = 0


class Frame_:
    __slots__ = ("kind", "module", "locals", "local_names", "global_names")

    def __init__(self, kind, module, local_names=frozenset(), global_names=frozenset()):
        self.kind = kind
        self.module = module
        self.locals: dict = {}
        self.local_names = local_names
        self.global_names = global_names


class Simulator:
    """One simulated interpreter: `sys.modules` for the analysed modules, and the call stack."""

    def __init__(self, index: dict[str, ModuleInfo], facts: dict[str, ModuleFacts]):
        self.index = index
        self.facts = facts
        self.tops = {name.partition(".")[0] for name in index}
        self.modules: dict[str, ModState] = {}
        self.stack: list[ModState] = []
        self.loading: dict[str, list[str]] = {}
        self.calls: list[int] = []

    # -- entry points ---------------------------------------------------------------------
    def run(self, entry: str, mode: str) -> Result:
        try:
            if mode == "bare":
                self.setup_bare(entry)
            self.import_module(entry)
        except SimError as err:
            return Result(entry, mode, "error", err.info)
        except SimUnknown as why:
            return Result(entry, mode, "unknown", reason=str(why))
        except RecursionError:
            return Result(entry, mode, "unknown", reason="import chain too deep to replay")
        return Result(entry, mode, "ok")

    def setup_bare(self, entry: str) -> None:
        parts = entry.split(".")
        for i in range(1, len(parts)):
            name = ".".join(parts[:i])
            info = self.index.get(name)
            if info is None:
                return
            if info.kind == "package":
                st = ModState(info, "bare")
                self.modules[name] = st
                self._bind_on_parent(name, st)
            else:
                self.import_module(name)

    # -- the import system ----------------------------------------------------------------
    def is_external(self, name: str) -> bool:
        return name.partition(".")[0] not in self.tops

    def ref(self, name: str):
        st = self.modules.get(name)
        return ("m", st) if st is not None else OPAQUE

    def import_module(self, name: str) -> None:
        """importlib._bootstrap._find_and_load: parents first, each run to completion."""
        if name in self.modules or self.is_external(name):
            return
        parent, _, child = name.rpartition(".")
        if parent:
            self.import_module(parent)
            if name in self.modules:
                return
            pst = self.modules.get(parent)
            if pst is not None and not pst.info.is_package:
                raise self.error("ModuleNotFoundError", name, None,
                                 f"No module named '{name}'; '{parent}' is not a package")
        info = self.index.get(name)
        if info is None:
            raise self.error("ModuleNotFoundError", name, None, f"No module named '{name}'")
        self.exec_module(info, parent, child)

    def exec_module(self, info: ModuleInfo, parent: str, child: str) -> None:
        name = info.name
        st = ModState(info, "running")
        self.modules[name] = st
        if info.kind in ("namespace", "opaque"):
            st.status = "done"
            self._bind_on_parent(name, st)
            return
        facts = self.facts[name]
        loading = self.loading.setdefault(parent, [])
        loading.append(child)
        self.stack.append(st)
        try:
            if facts.problem is not None:
                st.line = facts.problem.line
                raise self.error("SyntaxError", name, None, facts.problem.message)
            self.exec_block(facts.body, Frame_("module", st))
        except BaseException:
            if self.modules.get(name) is st:
                del self.modules[name]
            raise
        finally:
            self.stack.pop()
            loading.pop()
            st.status = "done" if st.status == "running" else st.status
        self._bind_on_parent(name, self.modules.get(name, st))

    def _bind_on_parent(self, name: str, st: ModState) -> None:
        parent, _, child = name.rpartition(".")
        pst = self.modules.get(parent) if parent else None
        if pst is not None:
            pst.ns[child] = ("m", st)

    # -- errors ---------------------------------------------------------------------------
    def chain(self) -> tuple[Frame, ...]:
        return tuple(Frame(st.name, st.info.path, st.line) for st in self.stack)

    def error(self, exc, module, name, message) -> SimError:
        defined = None
        if module and name:
            facts = self.facts.get(module)
            line = facts.binding_line(name) if facts else None
            if line is not None:
                defined = (facts.path, line)
            elif f"{module}.{name}" in self.index:
                defined = (self.index[f"{module}.{name}"].path, 1)
        return SimError(exc, module, name, message, self.chain(), defined)

    def _origin(self, st: ModState) -> str:
        return st.info.path if st.info.kind != "namespace" else "unknown location"

    def attr_error(self, st: ModState, attr: str) -> SimError:
        if st.status == "running":
            msg = (f"partially initialized module '{st.name}' has no attribute '{attr}' "
                   "(most likely due to a circular import)")
        elif attr in self.loading.get(st.name, ()):
            msg = (f"cannot access submodule '{attr}' of module '{st.name}' "
                   "(most likely due to a circular import)")
        else:
            msg = f"module '{st.name}' has no attribute '{attr}'"
        return self.error("AttributeError", st.name, attr, msg)

    def _undecidable(self, st: ModState, attr: str) -> None:
        if "__getattr__" in st.ns:
            raise SimUnknown(f"module '{st.name}' has a __getattr__ that may answer for '{attr}'")
        if st.dynamic:
            raise SimUnknown(f"'{st.name}' may bind '{attr}' dynamically: {st.dynamic}")

    # -- values ---------------------------------------------------------------------------
    def getattr_value(self, value, attr: str):
        if value[0] != "m":
            return OPAQUE
        st = value[1]
        if st.opaque:
            return OPAQUE
        found = st.ns.get(attr, MISSING)
        if found is not MISSING:
            return found
        self._undecidable(st, attr)
        raise self.attr_error(st, attr)

    def import_from(self, value, name: str):
        """IMPORT_FROM: the attribute, else sys.modules['M.name'], else ImportError."""
        if value[0] != "m":
            return OPAQUE
        st = value[1]
        if st.opaque:
            return OPAQUE
        found = st.ns.get(name, MISSING)
        if found is not MISSING:
            return found
        self._undecidable(st, name)
        sub = self.modules.get(f"{st.name}.{name}")
        if sub is not None:
            return ("m", sub)
        where = "partially initialized module " if st.status == "running" else ""
        tail = " (most likely due to a circular import)" if where else ""
        msg = f"cannot import name '{name}' from {where}'{st.name}'{tail} ({self._origin(st)})"
        raise self.error("ImportError", st.name, name, msg)

    def lookup(self, name: str, frame: Frame_):
        if frame.kind == "function":
            if name in frame.local_names:
                return frame.locals.get(name, OPAQUE)
        elif frame.kind == "class":
            found = frame.locals.get(name, MISSING)
            if found is not MISSING:
                return found
        st = frame.module
        found = st.ns.get(name, MISSING)
        if found is not MISSING:
            return found
        if name in BUILTIN_NAMES:
            return OPAQUE
        if st.dynamic:
            raise SimUnknown(f"'{name}' may be bound dynamically in '{st.name}': {st.dynamic}")
        raise self.error("NameError", st.name, name, f"name '{name}' is not defined")

    def resolve(self, name: str, attrs: tuple, frame: Frame_):
        value = self.lookup(name, frame)
        for attr in attrs:
            value = self.getattr_value(value, attr)
        return value

    def bind(self, name: str, value, frame: Frame_) -> None:
        if frame.kind == "module" or name in frame.global_names:
            frame.module.ns[name] = value
        else:
            frame.locals[name] = value

    # -- statements -----------------------------------------------------------------------
    def exec_block(self, events, frame: Frame_) -> None:
        module_level = frame.kind == "module"
        for ev in events:
            if module_level:
                frame.module.line = ev.line
            getattr(self, "e_" + ev.__class__.__name__)(ev, frame)

    def e_Use(self, ev: Use, frame):
        self.resolve(ev.name, ev.attrs, frame)

    def e_Call(self, ev: Call, frame):
        value = self.resolve(ev.name, ev.attrs, frame)
        if value[0] == "f" and value[2] is not None:
            self.call_function(value[1], value[2])

    def call_function(self, module: ModState, func) -> None:
        if id(func) in self.calls or len(self.calls) >= MAX_CALL_DEPTH:
            return
        self.calls.append(id(func))
        try:
            self.exec_block(func.body, Frame_("function", module, func.local_names,
                                              func.global_names))
        finally:
            self.calls.pop()

    def e_Import(self, ev: Import, frame):
        self.import_module(ev.module)
        if ev.call is not None:
            return
        top = ev.module.partition(".")[0]
        if ev.asname is None:
            self.bind(top, self.ref(top) if not self.is_external(top) else OPAQUE, frame)
            return
        value = self.ref(top) if not self.is_external(top) else OPAQUE
        for part in ev.module.split(".")[1:]:
            value = self.import_from(value, part)
        self.bind(ev.asname, value, frame)

    def e_ImportFrom(self, ev: ImportFrom, frame):
        if ev.error is not None:
            raise self.error("ImportError", None, None, ev.error)
        self.import_module(ev.module)
        if self.is_external(ev.module):
            if ev.names[0][0] == "*":
                frame.module.dynamic = frame.module.dynamic or \
                    f"'from {ev.module} import *' binds names that are not known"
            for n, asname in ev.names:
                if n != "*":
                    self.bind(asname or n, OPAQUE, frame)
            return
        st = self.modules[ev.module]
        value = ("m", st)
        if ev.names[0][0] == "*":
            self.import_star(st, frame)
            return
        if st.info.is_package:
            self.handle_fromlist(st, [n for n, _ in ev.names])
        for n, asname in ev.names:
            self.bind(asname or n, self.import_from(value, n), frame)

    def handle_fromlist(self, st: ModState, names) -> None:
        """importlib._bootstrap._handle_fromlist: import names that are not attributes yet."""
        for n in names:
            if st.opaque or n in st.ns:
                continue
            self._undecidable(st, n) if "__getattr__" in st.ns else None
            full = f"{st.name}.{n}"
            try:
                self.import_module(full)
            except SimError as err:
                if err.info.exception == "ModuleNotFoundError" and err.info.module == full:
                    continue
                raise

    def import_star(self, st: ModState, frame) -> None:
        if st.opaque:
            frame.module.dynamic = f"'from {st.name} import *' binds names that are not known"
            return
        all_names = st.ns.get("__all__", MISSING)
        if all_names is MISSING:
            if st.dynamic:
                frame.module.dynamic = f"'from {st.name} import *': {st.dynamic}"
            for k, v in list(st.ns.items()):
                if not k.startswith("_"):
                    self.bind(k, v, frame)
            return
        if all_names[0] != "all" or all_names[1] is None:
            raise SimUnknown(f"__all__ of '{st.name}' cannot be read statically")
        if st.info.is_package:
            self.handle_fromlist(st, all_names[1])
        for n in all_names[1]:
            self.bind(n, self.getattr_value(("m", st), n), frame)

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
            elif kind == "all":
                value = spec
            elif kind == "all+":
                current = frame.module.ns.get("__all__", MISSING)
                if current is not MISSING and current[0] == "all" and current[1] is not None \
                        and spec[1] is not None:
                    value = ("all", current[1] + spec[1])
                else:
                    value = ("all", None)
        for name in ev.names:
            self.bind(name, value, frame)

    def e_SetAttr(self, ev: SetAttr, frame):
        target = self.resolve(ev.name, ev.attrs[:-1], frame)
        if target[0] == "m" and not target[1].opaque:
            target[1].ns[ev.attrs[-1]] = OPAQUE

    def e_Del(self, ev: Del, frame):
        for name in ev.names:
            if frame.kind == "module" or name in frame.global_names:
                frame.module.ns.pop(name, None)
            else:
                frame.locals.pop(name, None)

    def e_Dynamic(self, ev: Dynamic, frame):
        frame.module.dynamic = frame.module.dynamic or f"{ev.reason} (line {ev.line})"

    def e_Def(self, ev: Def, frame):
        self.bind(ev.name, ("f", frame.module, ev.func) if ev.func is not None else OPAQUE, frame)

    def e_ClassBody(self, ev: ClassBody, frame):
        self.exec_block(ev.body, Frame_("class", frame.module))
        self.bind(ev.name, OPAQUE, frame)

    def e_If(self, ev: If, frame):
        if ev.cond == "true":
            self.exec_block(ev.body, frame)
        elif ev.cond == "false":
            self.exec_block(ev.orelse, frame)
        else:
            try:
                self.exec_block(ev.body, frame)
            except SimError as err:
                raise SimUnknown(f"{err.info.exception} inside `if` at line {ev.line}, whose "
                                 "condition cannot be decided statically") from None
            for name in _names_bound(ev.orelse):
                if frame.kind == "module" and name not in frame.module.ns:
                    self.bind(name, OPAQUE, frame)

    def e_Try(self, ev: Try, frame):
        try:
            try:
                self.exec_block(ev.body, frame)
            except SimError as err:
                handler = self._handler_for(ev, err.info.exception)
                if handler is None:
                    raise
                if handler.name:
                    self.bind(handler.name, OPAQUE, frame)
                self.exec_block(handler.body, frame)
            else:
                self.exec_block(ev.orelse, frame)
        finally:
            self.exec_block(ev.final, frame)

    @staticmethod
    def _handler_for(ev: Try, exc: str):
        bases = _EXC_BASES.get(exc, (exc,)) + ("Exception", "BaseException")
        for handler in ev.handlers:
            if handler.types is None or any(t in bases for t in handler.types):
                return handler
            if any(t not in _KNOWN_EXC for t in handler.types):
                raise SimUnknown(f"cannot tell whether the handler at line {handler.line} "
                                 f"catches {exc}")
        return None


def _names_bound(events) -> set[str]:
    from .facts import bound_names
    return bound_names(events)


def simulate(entry: str, mode: str, index: dict[str, ModuleInfo],
             facts: dict[str, ModuleFacts]) -> Result:
    """The outcome of `import entry` as the first import of its package, in `mode`."""
    return Simulator(index, facts).run(entry, mode)
