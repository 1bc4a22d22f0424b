"""Drop reads that cannot fail: a name or attribute chain already read earlier in the same
straight-line code, with nothing in between that could rebind or delete it.

A read that succeeded stays successful: names and attributes are only ever added, except by
`del`, rebinding, or a call into a function that rebinds a global (all of which reset what is
known). This keeps facts small (test modules read the same names thousands of times), which
makes them cheap to send between processes and to replay, without changing any outcome.

Also drop a class body's bindings that nothing in the body reads (_unread_dropped): mostly
its methods.
"""
from __future__ import annotations

from dataclasses import replace

from .events import (
    Bind, Call, ClassBody, Def, Del, Dynamic, Escape, If, Import, ImportFrom, SetAttr, SetItem,
    Try, Use, bound_names, walk,
)


class _Seen:
    """Chains known to resolve: name -> set of attribute tuples (every prefix included)."""

    __slots__ = ("chains",)

    def __init__(self, chains=None):
        self.chains: dict[str, set] = chains if chains is not None else {}

    def copy(self) -> "_Seen":
        return _Seen({k: set(v) for k, v in self.chains.items()})

    def forget(self, names) -> None:
        for name in names:
            self.chains.pop(name, None)


def prune_reads(events: tuple, rebinding: frozenset = frozenset(), seen: _Seen | None = None
                ) -> tuple:
    """`events` without redundant Use events. `rebinding`: globals that calls may rebind."""
    seen = seen if seen is not None else _Seen()
    chains = seen.chains  # read and written inline for the commonest events
    pop = chains.pop
    out = []
    for ev in events:
        cls = ev.__class__
        if cls is Use:
            attrs = ev.attrs
            got = chains.get(ev.name)
            if got is None:
                got = chains[ev.name] = set()
            elif attrs in got:
                continue
            got.add(attrs)
            for i in range(len(attrs)):
                got.add(attrs[:i])
        elif cls is Call:
            for name in rebinding:
                pop(name, None)
        elif cls is Bind or cls is Del:
            for name in ev.names:
                pop(name, None)
        elif cls is Import:
            if ev.call is None:
                pop(ev.asname or ev.module.partition(".")[0], None)
        elif cls is ImportFrom:
            if ev.names[0][0] == "*":
                chains.clear()
            else:
                for n, a in ev.names:
                    pop(a or n, None)
        elif cls is Def:
            if ev.func is not None and ev.func.body is not None:
                ev = Def(ev.line, ev.name, replace(ev.func, body=prune_reads(ev.func.body,
                                                                         rebinding)))
            pop(ev.name, None)
        elif cls is ClassBody:
            ev = replace(ev, body=_unread_dropped(prune_reads(ev.body, rebinding, seen.copy()),
                                                  {m[0] for m in ev.methods}),
                         init=ev.init and replace(ev.init, body=prune_reads(ev.init.body,
                                                                            rebinding)))
            pop(ev.name, None)
        elif cls is If:
            ev = replace(ev, body=prune_reads(ev.body, rebinding, seen.copy()),
                         orelse=prune_reads(ev.orelse, rebinding, seen.copy()))
            seen.forget(_bound_in((*ev.body, *ev.orelse)))
        elif cls is Try:
            ev = _prune_try(ev, rebinding, seen)
        elif cls is SetAttr:
            pop(ev.name, None)
        elif cls is Dynamic:
            chains.clear()
        out.append(ev)
    return tuple(out)


def _prune_try(ev: Try, rebinding, seen: _Seen) -> Try:
    body = prune_reads(ev.body, rebinding, seen.copy())
    handlers = tuple(replace(h, body=prune_reads(h.body, rebinding, seen.copy()))
                     for h in ev.handlers)
    orelse = prune_reads(ev.orelse, rebinding, seen.copy())
    final = prune_reads(ev.final, rebinding, seen.copy())
    new = replace(ev, body=body, handlers=handlers, orelse=orelse, final=final)
    everything = (*body, *orelse, *final, *(x for h in handlers for x in h.body))
    seen.forget(_bound_in(everything))
    seen.forget(h.name for h in handlers if h.name)
    return new


def _unread_dropped(body: tuple, methods: set[str]) -> tuple:
    """A class body without its defs and plain bindings (Bind without a value or with a
    computed one, not a call's, whose object may have a `__set_name__`: they read nothing
    their Use events do not name) whose names nothing in the body reads but the `methods` a
    class attribute may be read as (ClassBody.methods). The simulator runs a class body in a
    namespace of its own that only the body's own lookups read (a nested class body cannot
    see it), and keeps no class attributes, so such a binding changes nothing, and the body
    is lighter to send, store and run. Kept whole when the body holds a construct whose reads
    are not all named events (a Dynamic, an `__all__` list)."""
    read: set[str] = set()
    for ev in walk(body, classes=True):
        cls = ev.__class__
        if cls is Use or cls is Call or cls is SetAttr or cls is SetItem:
            read.add(ev.name)
        elif cls is Del or cls is Escape:
            read.update(ev.names)
        elif cls is Bind and ev.value is not None and ev.value[0] not in ("eval", "new"):
            # (an evaluated value, a call's, reads what its Use events name)
            if ev.value[0] != "ref":
                return body
            read.add(ev.value[1])
        elif cls is Dynamic:
            return body
    kept = tuple([ev for ev in body if not (
        (ev.__class__ is Def and ev.name not in read and ev.name not in methods) or
        (ev.__class__ is Bind and (ev.value is None or ev.value[0] == "eval" and
                                   ev.value[1][0] != "call") and
         read.isdisjoint(ev.names)))])
    return kept if len(kept) < len(body) else body


def _bound_in(events) -> set[str]:
    return bound_names(events)


def rebinding_globals(events) -> frozenset[str]:
    """Names that module-level functions declare `global` (a call may rebind them)."""
    return frozenset(name for ev in walk(events) if ev.__class__ is Def and ev.func is not None
                     for name in ev.func.global_names)
