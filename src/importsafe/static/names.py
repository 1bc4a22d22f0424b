"""Names and attributes in the Simulator: reads of globals and builtins, attributes of
module objects (with PEP 562 `__getattr__` and dynamic bindings), binding, and the errors
CPython raises for what is missing. Mixed into the Simulator."""
from __future__ import annotations

import builtins
import types

from ..model import Assumption, Frame
from .dirlisting import std_value
from .frames import UNDECIDED, Frame_, SimError, SimUnknown
from .purefn import NoValue, PureObject
from .torchops import OPS_ATTRS
from .events import Call, Def, Dynamic, Import, ImportFrom, walk
from .state import MISSING, OPAQUE, ModState, Program, dynamic_reason

BUILTIN_NAMES = frozenset(dir(builtins)) | {"__file__", "__name__", "__doc__", "__package__",
                                            "__spec__", "__loader__", "__builtins__",
                                            "__cached__", "__annotations__", "__debug__"}
MODULE_OBJECT_ATTRS = frozenset(dir(types.ModuleType)) | frozenset(
    dir(types.ModuleType("m"))) | {"__file__", "__cached__", "__builtins__", "__path__"}


class NameLookup:
    """Where a name or attribute is found, and the error CPython raises when it is not."""

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
        reason = dynamic_reason(self.dynamic_of(st), attr) or self.callback_binder(st)
        if reason and f"{st.name}.{attr}" not in self.index:
            # (a dynamic binding is assumed not to shadow a submodule of the same name)
            if self.assumed_bound(st, attr, reason):
                self.answer = OPAQUE
                return True
            raise SimUnknown(f"'{st.name}' may bind '{attr}' dynamically: {reason}")
        return False

    def callback_binder(self, st: ModState) -> str | None:
        """Why compiled code may have bound names of `st`: a module-level function of it
        binds names of its own module dynamically, and an extension module of its package
        names that function in its binary, so it may call it as it loads (numpy's C core
        calls numpy.dtypes._add_dtype_helper for every DType class). None when not so: a
        function nothing calls binds nothing."""
        binders = self.program.binders
        if st.name in binders:
            return binders[st.name]
        found = None
        facts = self.facts.get(st.name)
        top = st.name.partition(".")[0]
        for ev in walk(facts.body) if facts is not None and facts.body else ():
            if ev.__class__ is Def and ev.func is not None and \
                    _binds_own(self.program.function_body(st.name, ev.func).body, st.name):
                extension = self.program.extension_naming(top, ev.name)
                if extension is not None:
                    found = f"its function {ev.name}() (line {ev.line}) binds names of it " \
                            f"dynamically, and the compiled code of the extension module " \
                            f"{extension} names it"
                    break
        binders[st.name] = found
        return found

    def assumed_bound(self, st: ModState, name: str, reason: str) -> bool:
        """The ordinary-order rule: a name read from a module that has finished running, and
        may have bound it dynamically, is taken as bound (recorded as an Assumption). Were it
        not, the read would fail in every order, the package's own included. So too a read by
        the module's own running code (no other module is running above it) after such a
        binding ran: that point of its body comes after the binding in every order."""
        if self.program.strict:
            return False
        status = self.status_of(st)
        if status != "done" and not (status == "running" and self.stack
                                     and self.stack[-1] is st):
            return False
        at = self.stack[-1] if self.stack else st
        self.assume(Assumption(st.name, name, at.info.path, at.line, reason))
        return True

    # -- values ---------------------------------------------------------------------------
    def getattr_value(self, value, attr: str):
        if value[0] != "m":
            # pkgutil's ModuleInfo of a listing replayed (computed.py): its name is known
            if value[0] == "modinfo" and attr == "name":
                return ("lit", value[1])
            if value[0] == "std":  # os.path, os.listdir: modelled library names
                return std_value(f"{value[1]}.{attr}")
            if value[0] == "torchops":
                return self.torch_op(value[1], attr)
            if value[0] == "c" or value[0] == "cd":
                return self.class_attribute(value, attr)
            if value[0] == "inst":
                return self.instance_attribute(value, attr)
            if value[0] == "lit" and isinstance(value[1], PureObject):
                try:  # an os.DirEntry's or a pathlib.Path's
                    return ("lit", value[1].attribute(attr))
                except NoValue:
                    return OPAQUE
            return OPAQUE
        st = self.deref(value)
        if st is None or st.opaque:
            return OPAQUE
        found = self.ns_get(st, attr)
        if found is not MISSING:
            return self.lazy_value(st, attr, found) if found[0] == "z" else found
        # a module that may have any name (a star import of what is not known) has all but
        # its submodules, which only their import binds there (numpy._core._multiarray_tests)
        if attr in MODULE_OBJECT_ATTRS or self.wildcard_of(st) and \
                f"{st.name}.{attr}" not in self.index:
            return OPAQUE
        if self._undecidable(st, attr, reading=True):
            return self.answer  # what the module's __getattr__ returned, if known
        full = f"{st.name}.{attr}"
        if full in self.index:
            # a submodule compiled code may import as it loads (numpy's C core imports
            # numpy._core._exceptions): bound once its package has finished
            extension = self.program.extension_naming(st.name.partition(".")[0], full)
            if extension is not None:
                why = f"the compiled code of the extension module {extension} names the " \
                      f"module {full}, which it may import"
                if self.assumed_bound(st, attr, why):
                    return OPAQUE
                raise SimUnknown(f"'{st.name}' may have '{attr}' once its code ends: {why}")
        raise self.attr_error(st, attr)

    def torch_op(self, namespace: str | None, attr: str):
        """`torch.ops.NS` (`namespace` None: `torch.ops`) `.attr`: an operator of a namespace
        the tree's Python code defines exists once a module defining it has run
        (torchops.py); anything else is taken as there, as the C++ registrations make it."""
        if namespace is None:
            if attr in OPS_ATTRS or attr.startswith("__"):
                return OPAQUE
            return ("torchops", attr)
        definers = self.program.torch_ops.definers_of(namespace, attr)
        if not definers or attr.startswith("__"):
            return OPAQUE
        running = None
        for module, line in definers:
            st = self.state(module)
            if st is None:
                continue
            if self.status_of(st) == "done":
                return OPAQUE
            at = self.line_of(st)  # running: defined once its top-level code passed the line
            if at > line:
                return OPAQUE
            if at == line:
                running = running or (module, line)
        if running is not None:
            raise SimUnknown(f"torch.ops.{namespace}.{attr} is defined by '{running[0]}' "
                             f"(line {running[1]}), which is running that line")
        info = self.index.get(definers[0][0])  # where it is defined: what must run first
        raise SimError("AttributeError", f"torch.ops.{namespace}", attr,
                       f"'_OpNamespace' '{namespace}' object has no attribute '{attr}'",
                       self.chain(), (info.path, definers[0][1]) if info is not None else None)

    def import_from(self, value, name: str):
        """IMPORT_FROM: the attribute, else sys.modules['M.name'], else ImportError."""
        if value[0] != "m":
            return std_value(f"{value[1]}.{name}") if value[0] == "std" else OPAQUE
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
        if reason and self.assumed_bound(st, name, reason):
            return OPAQUE
        if reason:
            raise SimUnknown(f"'{name}' may be bound dynamically in '{st.name}': {reason}")
        extension = self.program.extension_imported(st.name) if frame.kind == "function" \
            else None
        if extension is not None and self.status_of(st) == "done" and self.assumed_bound(
                st, name, f"'{st.name}' imports the extension module {extension}, whose "
                "compiled code may bind it"):
            return OPAQUE  # a function of a finished module: the ordinary-order rule
        raise self.error("NameError", st.name, name, f"name '{name}' is not defined")

    def reads_builtin(self, name: str, frame: Frame_) -> bool:
        """Does a function's read of `name` find the builtin now (no local, no global of
        that name, none that could be bound dynamically)? For "module.Type": is `module` a
        global bound here (an import of it) to no module of the analysed code?"""
        st = frame.module
        if "." in name:
            head = name.partition(".")[0]
            return head not in frame.local_names and self.is_external(head) and \
                self.ns_get(st, head) is not MISSING
        return name in BUILTIN_NAMES and name not in frame.local_names and \
            self.ns_get(st, name) is MISSING and not self.wildcard_of(st) and \
            not self.dynamic_of(st)

    def value_now(self, name: str, attrs: tuple, frame: Frame_):
        """The value `name.attrs` holds now, or None (never raises: the test's own reads are
        events of their own)."""
        try:
            return self.resolve(name, attrs, frame)
        except (SimError, SimUnknown):
            return None

    def bound_now(self, value, name: str, frame: Frame_) -> object:
        """`name in globals()` (value None) or `hasattr(module, name)` now: True, False, or
        UNDECIDED where the module may bind it in ways facts cannot follow, answers from a
        `__getattr__`, or `value` is no module of the analysed code."""
        if value is None:
            st = frame.module
        elif value[0] == "m":
            st = self.deref(value)
            if st is None or st.opaque or name in MODULE_OBJECT_ATTRS or \
                    self.ns_get(st, "__getattr__") is not MISSING:
                return UNDECIDED
        else:
            return UNDECIDED
        if self.ns_get(st, name) is not MISSING:
            return True
        if self.wildcard_of(st) or dynamic_reason(self.dynamic_of(st), name):
            return UNDECIDED
        return False

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

    def narrow(self, narrowing, frame: Frame_) -> list:
        """Bind each name an `if` test narrowed (If.narrow) to what the test told of it, as
        ("affix", prefix, suffix), for the body; the (name, new, old) values to restore.
        Only an unknown string is narrowed; a class body's or a function's non-local read
        is left alone (binding there would make a new name)."""
        restore = []
        for name, prefix, suffix in narrowing:
            if frame.kind == "class" or frame.kind == "function" and \
                    name not in frame.local_names and name not in frame.global_names:
                continue
            try:
                old = self.lookup(name, frame)
            except (SimError, SimUnknown):
                continue
            if old == OPAQUE:
                new = ("affix", prefix, suffix)
            elif old[0] == "affix":  # both hold: the longer of each says more
                new = ("affix", max(old[1], prefix, key=len), max(old[2], suffix, key=len))
            else:
                continue
            self.bind(name, new, frame)
            restore.append((name, new, old))
        return restore

    def unnarrow(self, restore: list, frame: Frame_) -> None:
        """After the body: a name still bound to its narrowed value gets the old one back
        (the test told nothing of it where the body did not run)."""
        for name, new, old in reversed(restore):
            try:
                if self.lookup(name, frame) is new:
                    self.bind(name, old, frame)
            except (SimError, SimUnknown):
                continue


def defined_at(program: Program, module: str, name: str) -> tuple[str, int] | None:
    """Where `name` is (or would be) bound in `module`: its first binding in the module's
    facts, else the submodule of that name (an error's hint)."""
    facts = program.facts.get(module)
    line = facts.binding_line(name) if facts else None
    if line is not None:
        return facts.path, line
    sub = program.index.get(f"{module}.{name}")
    return (sub.path, 1) if sub is not None else None


def _binds_own(body, module: str) -> bool:
    """Does a function body bind names of `module`, its own, dynamically: `globals()[k] = v`,
    `setattr(sys.modules[__name__], k, v)`, or `setattr(m, k, v)` where the function bound
    `m` to the module itself by an import?"""
    events = list(walk(body or ()))
    own: set[str] = set()
    for ev in events:
        cls = ev.__class__
        if cls is Dynamic and not ev.elsewhere and not ev.replaces and ev.target is None \
                and not ev.delete:
            return True
        if cls is ImportFrom:
            own.update(asname or n for n, asname in ev.names if f"{ev.module}.{n}" == module)
        elif cls is Import and ev.asname is not None and ev.module == module:
            own.add(ev.asname)
    return bool(own) and any(
        ev.__class__ is Call and ev.name == "setattr" and not ev.attrs and ev.passed is not None
        and len(ev.passed) > 4 and any(i == 0 and n in own for i, n in ev.passed[4])
        for ev in events)
