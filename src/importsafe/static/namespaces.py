"""Computed namespaces in the simulator: names bound under a key computed when the code runs
(`globals()[k] = v`, `vars()[k] = v`, `setattr(sys.modules[__name__], k, v)`,
`globals().update(mapping)`), and the lists of names those keys come from: literal lists,
dicts' keys, `dir(module)` of an analysed module (its names at that moment), lists added up,
comprehensions with simple tests on the name. Mixed into the Simulator, like ComputedImports.
"""
from __future__ import annotations

from .frames import SimError, SimUnknown
from .state import OPAQUE

# what dir() of a module lists besides the names its code binds; whether each is there
# (`__cached__`, `__annotations__`) is not followed, so a list that may hold one is not known
_IMPLICIT = ("__builtins__", "__cached__", "__doc__", "__file__", "__loader__", "__package__",
             "__spec__", "__annotations__", "__dict__")


class ComputedNames:
    """The computed-namespace half of the Simulator."""

    # -- lists of names -------------------------------------------------------------------
    @staticmethod
    def names_in(value) -> tuple[str, ...] | None:
        """The strings a value lists in order: a list of names ("all"), a literal list or
        tuple, a dict's keys (not a set's: its order is not known)."""
        if value[0] == "all":
            return value[1]
        if value[0] == "dict" and (len(value) == 2 or value[2] == "list") and all(
                k.__class__ is str for k, _ in value[1]):
            return tuple(k for k, _ in value[1])
        return None

    def names_of(self, source, frame) -> tuple[str, ...] | None:
        """("dir", name, attrs): dir() of the module it is, now; ("ref", name, attrs): the
        names the value lists. None when not known."""
        if source[1] is None:  # dir(): a module's own names while it runs (not a class's)
            return self.names_of_state(frame.module) if frame.kind == "module" and \
                self.reads_builtin("dir", frame) else None
        try:
            value = self.resolve(source[1], source[2], frame)
        except (SimError, SimUnknown):
            return None
        if source[0] == "ref":
            return self.names_in(value)
        return self.dir_of(value)

    def dir_of(self, value) -> tuple[str, ...] | None:
        """dir(module): its namespace's names, sorted; None unless every name is known."""
        return self.names_of_state(self.deref(value) if value[0] == "m" else None)

    def names_of_state(self, st) -> tuple[str, ...] | None:
        if st is None or st.opaque or self.dynamic_of(st) is not None or self.wildcard_of(st):
            return None
        names = {k for k, _ in self.ns_items(st)}
        return tuple(sorted(names | {n for n in _IMPLICIT if n not in names})) \
            if names.isdisjoint(_IMPLICIT) else None

    def comprehension(self, spec, frame) -> tuple[str, ...] | None:
        """("comp", source, tests): the names of `source` that pass every test; None when
        a name dir() may or may not list would pass."""
        names = self.names_of(spec[1], frame)
        if names is None:
            return None
        kept = []
        for name in names:
            passed = self._passes_all(spec[2], name, frame)
            if passed is None:
                return None
            if passed and spec[1][0] == "dir" and name in _IMPLICIT:
                return None
            if passed:
                kept.append(name)
        return tuple(kept)

    def _passes_all(self, tests, name: str, frame) -> bool | None:
        for test in tests:
            passed = self.name_test(test, name, frame)
            if passed is not True:
                return passed
        return True

    def name_test(self, test, name: str, frame) -> bool | None:
        """facts._name_test's test on `name`: True, False, or None when not known."""
        kind = test[0]
        if kind == "not":
            inner = self.name_test(test[1], name, frame)
            return None if inner is None else not inner
        if kind in ("and", "or"):
            results = [self.name_test(t, name, frame) for t in test[1]]
            stop = kind == "or"  # Python stops at the first True for `or`, False for `and`
            for result in results:
                if result is None:
                    return None
                if result is stop:
                    return stop
            return not stop
        if kind == "starts":
            return name.startswith(test[1])
        if kind == "ends":
            return name.endswith(test[1])
        if kind == "eq":
            return name == test[1][0]
        listed = test[1][1] if test[1][0] == "lit" else self.names_of(test[1], frame)
        return None if listed is None else name in listed

    # -- bindings under computed keys -----------------------------------------------------
    def bind_computed(self, ev, frame) -> bool:
        """Bind what a Dynamic with a key or a mapping binds, when that is known now."""
        if ev.key is not None:
            name = self.spell(ev.key, frame)
            if name is None:
                return False
            self.bind_global(name, frame, self.bound_value(ev.value, frame))
            return True
        try:
            value = self.resolve(ev.update[1], ev.update[2], frame)
        except (SimError, SimUnknown):
            return False
        if value[0] != "dict" or len(value) > 2 or not all(
                k.__class__ is str for k, _ in value[1]):
            return False
        for key, _ in value[1]:
            self.bind_global(key, frame)
        return True

    def bind_global(self, name: str, frame, value=OPAQUE) -> None:
        """A binding in the module's namespace, from module level or from a function."""
        self.write(frame.module, "set", name, value)

    def bound_value(self, spec, frame):
        """facts._bound_value's ("ref", name, attrs) / ("getattr", name, parts), now."""
        if spec is None:
            return OPAQUE
        try:
            if spec[0] == "ref":
                return self.resolve(spec[1], spec[2], frame)
            return self.getattr_call(spec, frame)
        except (SimError, SimUnknown):
            return OPAQUE  # the read was made, and failed or not, by the code's own events

    def getattr_call(self, spec, frame):
        """("getattr", name, parts): `getattr(name, <spelled>)`, the attribute when known."""
        value = self.lookup(spec[1], frame)
        attr = self.spell(spec[2], frame)
        return self.getattr_value(value, attr) if attr is not None and value[0] == "m" \
            else OPAQUE

    def list_value(self, spec, frame):
        """A Bind's ("comp", ...) value: the list of names, or opaque."""
        names = self.comprehension(spec, frame)
        return ("all", names) if names is not None else OPAQUE

    def item_value(self, spec, frame):
        """("item", name, attrs, i, n[, keys]): item i of the value, a known tuple of n
        items; with `keys`, of the value's entry there (index_value: `a, b = TABLE[name]`)."""
        value = self.resolve(spec[1], spec[2], frame) if len(spec) == 5 else \
            self.index_value(("index", spec[1], spec[5]), frame)
        if value[0] == "lit" and value[1].__class__ is tuple and len(value[1]) == spec[4]:
            return ("lit", value[1][spec[3]])
        return OPAQUE

    def index_value(self, spec, frame):
        """("index", name, keys): the entry of a literal dict (dicts in it, a level a key),
        one of the entries where a key is not known ("oneof", values), or opaque."""
        try:
            values = [self.lookup(spec[1], frame)]
        except (SimError, SimUnknown):
            return OPAQUE  # the read was made, and failed or not, by the value's own events
        for key in spec[2]:
            text = self.spell(key, frame) if key is not None else None
            found = []
            for table in values:
                if table[0] != "dict" or len(table) > 2:
                    return OPAQUE
                entries = [v for k, v in table[1] if text is None or k == text]
                if not entries:
                    return OPAQUE  # a KeyError: not followed
                found.extend(entries if text is None else entries[-1:])  # the last one wins
            values = found
        if any(v == OPAQUE for v in values):
            return OPAQUE
        return values[0] if len(values) == 1 else ("oneof", tuple(dict.fromkeys(values)))
