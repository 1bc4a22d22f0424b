"""The import half of the Simulator: finding, loading and running modules, `import` and
`from ... import` statements, star imports and bare-mode parents. Mixed into the Simulator."""
from __future__ import annotations

from ..model import Frame
from .dirlisting import std_value
from .discover import ModuleInfo
from .events import Import, ImportFrom
from .frames import Frame_, SimError, SimUnknown
from .state import MISSING, OPAQUE, ModState
from .problems import NESTING_UNKNOWN  # noqa: I001 - see exec_module


class ImportMachinery:
    """How modules are found, created, run and bound, as importlib does it."""

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

    # -- the import system ----------------------------------------------------------------
    def import_module(self, name: str, record: bool = True) -> None:
        """importlib._bootstrap._find_and_load, memoised (see state.py); without `record`,
        a miss is run without recording it."""
        # an external module is never in the simulated sys.modules: no read to log
        if self.is_external(name) or self.state(name) is not None:
            return
        if self.program.memo is None or name not in self.program.imported:
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
            self.end_recording(key, marks, ("error", err.info, depth, err.uncertain,
                                            err.explicit), stop)
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
            err = SimError(info.exception, info.module, info.name, info.message, chain,
                           info.defined_at, outcome[3])
            err.explicit = outcome[4]  # a `raise` statement, which an undecided `if` passes
            raise err
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
            self.run_code(st, facts)
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

    def run_code(self, st: ModState, facts) -> None:
        """The module's code, run in `st` (on top of the stack), as a loader's exec_module
        runs it."""
        if len(self.stack) >= NESTING_UNKNOWN:  # CPython's recursion limit (problems.py)
            raise RecursionError()  # unknown (run), and never memoised: depends on depth
        if facts.problem is not None:
            st.line = facts.problem.line
            if facts.problem.code == "IS003":
                raise SimUnknown(f"{st.info.path}: {facts.problem.message}")
            exc = facts.problem.exception  # RecursionError, MemoryError: no module
            raise self.error(exc, st.name if exc in ("SyntaxError", "IndentationError",
                                                     "TabError") else None,
                             None, facts.problem.message)
        # a module imported while an __init__ replays shallowly runs its own calls all the
        # same (and its recording must not depend on where it was first imported)
        shallow, self.shallow = self.shallow, 0
        calls, sigs, recs = self.calls, self.call_sigs, self.call_recs
        self.calls, self.call_sigs, self.call_recs = [], [], []
        try:
            self.exec_block(facts.body, Frame_("module", st))
        finally:
            self.shallow = shallow
            self.calls, self.call_sigs, self.call_recs = calls, sigs, recs

    def _bind_on_parent(self, name: str, st: ModState) -> None:
        parent, _, child = name.rpartition(".")
        pst = self.state(parent) if parent else None
        if pst is not None:
            self.write(pst, "set", child, ("m", st.name, st.epoch))

    def e_Import(self, ev: Import, frame):
        if ev.call is None and self._is_lazy(ev, ev.module, frame):
            return self._bind_lazy(ev, frame)
        if frame.guards and self.is_external(ev.module):
            self.import_absent(ev.module, ev.line, frame)
        self.import_module(ev.module)
        if ev.call is not None:  # what the call returns, for an attribute read of it
            keep = ev.module if ev.call == "import_module" else ev.module.partition(".")[0]
            self.last_import = self.ref(keep) if not self.is_external(keep) else OPAQUE
            return
        top = ev.module.partition(".")[0]
        value = self.ref(top) if not self.is_external(top) else std_value(top)
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
        if frame.guards and ev.module and self.is_external(ev.module):
            self.import_absent(ev.module, ev.line, frame)
        self.import_module(ev.module)
        if self.is_external(ev.module):
            if ev.names[0][0] == "*":
                self.write(frame.module, "wildcard", None)
            for n, asname in ev.names:
                if n != "*":  # os.listdir, os.path.join, ...: modelled (dirlisting.py)
                    self.bind(asname or n, std_value(f"{ev.module}.{n}"), frame)
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
