"""Changes of containers in the Simulator: `x[key] = value`, `del x[key]`, `x.append(v)`,
`x.update(...)`, `x += [...]`. Mixed into the Simulator.

Container values are plain tuples, so a change makes a new value for the name changed: the
entry itself where the key and value are known (`REGISTRY["jit"] = "pkg.jit"`), else a value
not known. Whatever else holds the old value (`from pkg import REGISTRY` elsewhere, a
parameter it was passed as) holds the same object in CPython: those are made unknown too,
which is sound where the simulator cannot tell one container from an equal one. It can for
two that displays of the same run made (`X = {}` and `Y = {}`): those are never one object.
"""
from __future__ import annotations

from .exprs import CHANGING
from .frames import SimError, SimUnknown
from .state import FORGOTTEN, MISSING, OPAQUE

MUTATING = CHANGING  # methods of list, dict and set that change the object in place
# builtins that neither change their arguments nor keep them where others could change them
KEEPS_NOTHING = frozenset({
    "len", "sorted", "list", "tuple", "set", "frozenset", "dict", "iter", "next",
    "enumerate", "zip", "reversed", "map", "filter", "isinstance", "issubclass", "print",
    "repr", "str", "bytes", "int", "float", "bool", "complex", "any", "all", "min", "max",
    "sum", "hash", "id", "type", "hasattr", "callable", "format", "range", "ascii", "abs",
    "round", "divmod", "ord", "chr", "bin", "hex", "oct"})
_CONTAINERS = ("dict", "all")
MAX_ENTRIES = 4096


class Mutations:
    """What a change of a container does to the names that hold it."""

    def note_fresh(self, ev, frame) -> None:
        """After a Bind in a function: a local bound to a literal container holds one the
        call made itself; any other binding of it holds no such one."""
        made = ev.value is not None and ev.value[0] == "dict" and len(ev.names) == 1
        if not made and not frame.fresh:
            return
        fresh = frame.fresh if frame.fresh is not None else set()
        for name in ev.names:
            if made and name in frame.local_names:
                fresh.add(name)
            else:
                fresh.discard(name)
        frame.fresh = fresh

    def displayed(self, spec: tuple) -> tuple:
        """The value a dict or list display evaluates to: a new object in CPython, so a new
        tuple here, registered as distinct from every other one registered (`maybe_same`)."""
        value = ("dict", spec[1])
        self.distinct[id(value)] = value
        return value

    def maybe_same(self, value: tuple, other: tuple) -> bool:
        """May `value` be the container object `other` is? The same tuple is; an equal one is
        not when both were made by displays of this run (two evaluations of a display never
        give one object). Any other equal value may be: the simulator rebuilds containers
        (pure code's results, a recording replayed), so it cannot tell them apart."""
        if value is other:
            return True
        if value != other:
            return False
        distinct = self.distinct
        return distinct.get(id(value)) is not value or distinct.get(id(other)) is not other

    def shared(self, name: str, frame) -> None:
        """`name` is read as a whole (bound to another name, passed to a call): a container
        it holds may be held elsewhere from now on."""
        if frame.fresh and name in frame.fresh:
            frame.fresh.discard(name)
        outer = frame.outer
        if outer is not None and outer.fresh and name in outer.fresh:
            outer.fresh.discard(name)

    def e_Escape(self, ev, frame):
        if ev.held:
            for name in ev.names:
                value = self._held_value(name, frame)
                if value is not None:
                    self.held[id(value)] = value
            return
        for name in ev.names:
            self.escape(name, frame)
        # what displays hold may be what changed (`TABLE = {"k": NAMES}` then
        # `TABLE["k"].append(x)`); a run replayed from the memo marks none (a sound loss
        # only where a display of one module is changed through in another)
        held, self.held = self.held, {}
        for value in held.values():
            self._forget_shared(value, OPAQUE)

    def escape(self, name: str, frame) -> None:
        """A container `name` holds may be held or changed from here on where the
        simulator does not follow it: every name holding it, or one inside it, holds a value
        not known (a changed container, as far as they can tell)."""
        value = self._held_value(name, frame)
        if value is None:
            return
        self.container_changed(name, (), frame, "change")
        for inner in _nested(value, 0):
            self._forget_shared(inner, OPAQUE)

    def _held_value(self, name: str, frame):
        """The container `name` holds here, or None; a plain look in the scopes, which
        neither raises nor assumes (the read itself is an event of its own)."""
        if frame.kind == "function" and name in frame.local_names:
            value = frame.locals.get(name)
        elif frame.kind == "class" and name in frame.locals:
            value = frame.locals[name]
        elif frame.kind == "class" and frame.outer is not None and \
                name in frame.outer.local_names:
            value = frame.outer.locals.get(name)
        else:
            value = self.ns_get(frame.module, name)
        return value if value.__class__ is tuple and value and value[0] in _CONTAINERS \
            else None

    def escape_arguments(self, ev, frame) -> None:
        """A call of code not replayed (a library's, an object's not known): the containers
        its arguments name may be changed by it, or kept (a builtin that does neither is
        not such a call; nor a method of a container, which keeps none of its arguments)."""
        passed = ev.passed
        if passed is None or len(passed) < 5 or not passed[4]:
            return
        if not ev.attrs and ev.name in KEEPS_NOTHING and self.reads_builtin(ev.name, frame):
            return
        if ev.attrs:
            try:
                receiver = self.resolve(ev.name, ev.attrs[:-1], frame)
            except (SimError, SimUnknown):
                receiver = None
            if receiver is not None and receiver[0] in _CONTAINERS + ("lit",):
                return
        for _, name in passed[4]:
            self.escape(name, frame)

    def e_SetItem(self, ev, frame):
        self.container_changed(ev.name, ev.attrs, frame, ev.op, ev.key, ev.value)

    def method_changes(self, ev, frame) -> None:
        """A Call of `x.attrs.method(...)` where the method changes its object in place.
        A module's own `__all__.append/extend` is a Bind of the new list (facts_flow)."""
        if ev.name == "__all__" and len(ev.attrs) == 1 and frame.kind == "module":
            return
        method = ev.attrs[-1]
        item = _literal_argument(ev.passed) if method in ("append", "add") else None
        self.container_changed(ev.name, ev.attrs[:-1], frame,
                               method if item is not None else "change", item)

    def container_changed(self, name: str, attrs: tuple, frame, op: str, key=None,
                          spec=None) -> None:
        st = None
        try:
            if attrs:
                holder = self.resolve(name, attrs[:-1], frame)
                if holder[0] != "m":
                    return  # a class's or an object's: kept by no name the simulator reads
                st = self.deref(holder)
                if st is None or st.opaque:
                    return
                old = self.ns_get(st, attrs[-1])
            else:
                old = self.lookup(name, frame)
        except (SimError, SimUnknown):
            return  # the reads are events of their own, which raise
        if old is MISSING or old.__class__ is not tuple or old[0] not in _CONTAINERS:
            return
        new = self._entry_set(old, key, spec, frame) if op == "set" else \
            self._entry_deleted(old, key, frame) if op == "del" else \
            _item_added(old, op, key) if op in ("append", "add") else None
        if new is None:
            new = ("all", None) if old[0] == "all" else OPAQUE
        elif self.distinct.get(id(old)) is old:
            self.distinct[id(new)] = new  # the same object, changed
        if attrs:
            self.write(st, "set", attrs[-1], new)
        elif frame.kind == "function" and name in frame.local_names:
            frame.locals[name] = new
            if frame.fresh and name in frame.fresh:
                return  # a container the call made, which no other name holds
        elif frame.kind == "class" and name in frame.locals:
            frame.locals[name] = new
        elif frame.kind == "class" and frame.outer is not None and \
                name in frame.outer.local_names:
            frame.outer.locals[name] = new
        else:
            self.write(frame.module, "set", name, new)
        if old[0] != "all":  # `__all__` lists are not shared between modules
            self._forget_shared(old, new)

    def _entry_set(self, old, key, spec, frame):
        if len(old) != 2 or old[0] != "dict" or key is None:
            return None
        text = self.spell(key, frame)
        if text is None or len(old[1]) >= MAX_ENTRIES:
            return None
        value = self.value_of_spec(spec, (), frame) if spec is not None else OPAQUE
        entries = [(k, value if k == text else v) for k, v in old[1]]
        if not any(k == text for k, _ in old[1]):
            entries.append((text, value))
        return ("dict", tuple(entries))

    def _entry_deleted(self, old, key, frame):
        if len(old) != 2 or old[0] != "dict" or key is None:
            return None
        text = self.spell(key, frame)
        if text is None or not any(k == text for k, _ in old[1]):
            return None  # (a missing key raises KeyError: not followed)
        return ("dict", tuple((k, v) for k, v in old[1] if k != text))

    def _forget_shared(self, old, new) -> None:
        """Every other name holding `old` (or a container holding it) now holds a value
        not known: it may be the same object, changed. Each one found is read through the
        state first, so a recording depends on it as on any read."""
        holding = []
        own, frozen = self.container_keys, self.program.frozen_containers
        for name, st in self.modules.items():
            if st is None:
                continue
            # (a module a replay put back is looked at in its snapshot, restored only when
            # it holds the container)
            # a snapshot's namespace never changes (ModState.own_ns copies it); a module's
            # own changes with its token (every write makes a new one)
            if st.__class__ is tuple:
                ns, token = st[0][1], None
            else:
                ns, token = st.ns, None if st.shared else st.token
            index = own if token is not None else frozen
            known = index.get(id(ns))
            if known is None or known[0] is not ns or known[2] != token:
                known = index[id(ns)] = (ns, _containers(ns), token)
            held = known[1]
            if not held:
                continue
            found = [key for key, inner in held if ns[key] is not new and any(
                self.maybe_same(v, old) for v in inner)]
            if found:
                holding.append((name, found))
        for name, found in holding:
            st = self.state(name)
            for key in found:
                self.ns_get(st, key)
                self.write(st, "set", key, OPAQUE)
        if self.rec_starts:  # a replay of the recording forgets it in the frames then
            self.writes.append((FORGOTTEN, "forget", None, (old, new)))
        self.forget_in_frames(old, new)

    def forget_in_frames(self, old, new) -> None:
        """_forget_shared in the locals of the running functions."""
        for frame in self.frames:
            for key, value in list(frame.locals.items()):
                if value is not new and value.__class__ is tuple and \
                        _holds(value, old, self.maybe_same):
                    frame.locals[key] = OPAQUE


def _literal_argument(passed) -> str | None:
    """The one argument of `x.append("literal")`, when it is a literal string."""
    if passed is None or len(passed) < 4 or passed[0] != 1 or passed[1] or \
            len(passed[3]) != 1 or passed[3][0][0] != 0:
        return None
    value = passed[3][0][1]
    return value if value.__class__ is str else None


def _item_added(old: tuple, method: str, item: str) -> tuple | None:
    """A list of strings (("dict", ((s, _), ...)) or with "list") after `append(item)`, a
    set's after `add(item)`; None where that is not such a value or the item is in it
    already (a list of strings is held as the keys of a dict)."""
    if old[0] != "dict" or any(k == item for k, _ in old[1]) or len(old[1]) >= MAX_ENTRIES:
        return None
    kind = old[2] if len(old) > 2 else None
    if (method == "append") != (kind in (None, "list")) or \
            any(v != OPAQUE for _, v in old[1]):
        return None  # (a dict's entries have values; a list's items hold none)
    return (*old[:1], (*old[1], (item, OPAQUE)), *old[2:])


def _containers(ns: dict) -> tuple:
    """(key, the containers its value is or holds) for each key of `ns` bound to one."""
    return tuple((key, tuple(_inner(value, 0))) for key, value in ns.items()
                 if value.__class__ is tuple and value[0] == "dict")


def _inner(value: tuple, depth: int):
    yield value
    if depth < 7:
        for _, v in value[1]:
            if v.__class__ is tuple and v and v[0] == "dict":
                yield from _inner(v, depth + 1)


def _holds(value: tuple, old: tuple, same, depth: int = 0) -> bool:
    """May `value` be the container `old` (`same`: Mutations.maybe_same), or hold it among
    its entries?"""
    if same(value, old):
        return True
    if depth > 6 or value[0] != "dict":
        return False
    return any(v.__class__ is tuple and v and _holds(v, old, same, depth + 1)
               for _, v in value[1])


def _nested(value: tuple, depth: int):
    """The containers a container value holds, at any depth (a few levels)."""
    if depth > 8 or len(value) < 2 or value[1].__class__ is not tuple:
        return
    for entry in value[1]:
        inner = entry[1] if entry.__class__ is tuple and len(entry) == 2 else None
        if inner.__class__ is tuple and inner and inner[0] in _CONTAINERS:
            yield inner
            yield from _nested(inner, depth + 1)
