"""PEP 810 lazy imports in the simulator (the rules are docs/lazy.md): which statements bind
proxies, the proxies' first reads, and the submodule proxies of packages.

A proxy is a value ("z", kind, module, attr, declaring module, line): kind "import" (`import
a.b` binds `a`), "as" (`import a.b as x`), "from" (`from m import x`), "sub" (a submodule proxy
on a package). Mixed into the Simulator: uses its import machinery and its logged state.
"""
from __future__ import annotations

from .discover import ModuleInfo
from .events import Import
from .frames import Frame_, SimUnknown
from .state import MISSING, ModState

LAZY_TARGET = (3, 15)  # `__lazy_modules__` makes imports lazy from this version on


class _Declared:
    """The `lazy` statement of a proxy being resolved, as a step of the chain (L5)."""

    __slots__ = ("name", "info", "line")

    def __init__(self, info: ModuleInfo, line: int):
        self.name, self.info, self.line = info.name, info, line


class LazyImports:
    """The lazy-import half of the Simulator."""

    def _lazy_children(self, st: ModState) -> None:
        """L3: a module that finished running gets a submodule proxy for each child lazily
        named under it, unless it bound that name itself. Only packages have submodules; a
        namespace package never "finishes running" (it has no code): only proxies put on it
        while it is in sys.modules count."""
        if not st.info.is_package:
            return
        for child in sorted(self.registered(st.name)):
            if self.ns_get(st, child) is MISSING:
                self.write(st, "set", child, ("z", "sub", f"{st.name}.{child}", None, None, 0))

    def _register(self, dotted: str) -> None:
        """L3: `import a.b.c` names the children b of a and c of a.b."""
        parts = dotted.split(".")
        for i in range(1, len(parts)):
            parent, child = ".".join(parts[:i]), parts[i]
            if not self.is_registered(parent, child):
                self.register(parent, child)
            pst = self.state(parent)  # in sys.modules now: the proxy goes on at once
            if pst is not None and not pst.opaque and pst.info.is_package \
                    and self.ns_get(pst, child) is MISSING:
                self.write(pst, "set", child, ("z", "sub", f"{parent}.{child}", None, None, 0))

    def _is_lazy(self, ev, module: str, frame: Frame_) -> bool:
        """L1 + L2: does this import statement bind proxies instead of importing?"""
        if frame.kind != "module" or frame.in_try or self.is_external(module):
            return False
        if self.lazy_all or ev.lazy:
            return True
        if not self.lazy_modules:
            return False
        listed = self.ns_get(frame.module, "__lazy_modules__")
        if listed is MISSING:
            return False
        if listed[0] != "all" or listed[1] is None:
            raise SimUnknown(f"__lazy_modules__ of '{frame.module.name}' cannot be read "
                             "statically")
        return module in listed[1]

    def lazy_value(self, st: ModState, key: str, proxy):
        """L4 + L5: the first read of a proxy runs its import now and replaces it."""
        holder = f"{st.name}#{st.epoch}"  # a stale module object holds proxies of its own
        kind, module, attr, declared, line = proxy[1:]
        if self.is_resolving(holder, key):  # `module`: what the proxy imports, as CPython
            raise self.error("ImportCycleError", module, key,
                             f"cannot import name '{key}' (most likely due to a circular "
                             "import)")
        token = (holder, key)
        self.resolving[token] = True
        info = self.index.get(declared) if declared is not None else None
        if info is not None:
            self.stack.append(_Declared(info, line))
        try:
            self.import_module(module)
            if kind == "import":
                value = self.ref(module.partition(".")[0])
            elif kind == "from":
                target = self.state(module)
                if target is not None and target.info.is_package:
                    self.handle_fromlist(target, (attr,))
                value = self.import_from(self.ref(module), attr)
            elif kind == "sub":  # what sys.modules holds (the parent may still be running)
                value = self.ref(module)
            else:  # "as": the module, attribute by attribute, as the eager statement
                parts = module.split(".")
                value = self.ref(parts[0])
                for part in parts[1:]:
                    value = self.import_from(value, part)
        finally:
            if info is not None:
                self.stack.pop()
            del self.resolving[token]
        current = self.ns_get(st, key)
        if current == proxy or (current is not MISSING and current != value
                                and current[0] == "m" and current[1] == f"{st.name}.{key}"):
            # also over the submodule the import bound on the package meanwhile: `from
            # .sub import sub` in a package binds the function, as eagerly (L4)
            self.write(st, "set", key, value)
        return value

    def _bind_lazy(self, ev, frame: Frame_) -> None:
        mod, line = frame.module.name, ev.line
        if ev.__class__ is Import:
            if ev.asname is None:
                self.bind(ev.module.partition(".")[0],
                          ("z", "import", ev.module, None, mod, line), frame)
            else:
                self.bind(ev.asname, ("z", "as", ev.module, None, mod, line), frame)
        else:
            source = self.state(ev.module)
            loaded = source is not None and not source.opaque \
                and self.status_of(source) != "running"
            for n, asname in ev.names:
                found = self.ns_get(source, n) if loaded else MISSING
                if found is not MISSING and found[0] != "z":
                    # from a module that finished running: the value itself, no proxy (L3)
                    self.bind(asname or n, found, frame)
                else:
                    self.bind(asname or n, ("z", "from", ev.module, n, mod, line), frame)
        self._register(ev.module)
