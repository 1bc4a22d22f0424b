"""Failures grouped by root cause, for the reports people read (pure).

Hundreds of failing (entry, mode) pairs usually come from a handful of causes: one import
cycle, or one name missing from one module. A report leads with those causes, each with the
number of first imports behind it, and puts apart the bare-mode failures that only read a
name from the entry's own package `__init__`, which bare mode never runs and a real import
always runs first.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping

from ..model import Result

_FAILING = ("error", "timeout", "crash")
# what a name looked up too early in a partially initialised module raises
_CYCLE_ERRORS = ("ImportError", "ImportCycleError", "AttributeError", "NameError")


@dataclass(frozen=True, slots=True)
class Cause:
    kind: str  # "cycle", "name" (one name missing from one module), "bare-parent", "unknown",
    # or the outcome ("timeout", "crash") of failures without an error
    key: tuple
    results: tuple[Result, ...]  # the example first: its chain is the shortest

    @property
    def example(self) -> Result:
        return self.results[0]

    @property
    def cycle(self) -> tuple[str, ...] | None:
        return cycle_of(self.example) if self.kind == "cycle" else None


def cycle_of(r: Result) -> tuple[str, ...] | None:
    """The modules of the cycle a failure closes: the chain from the module whose name was
    missing to the end (the last one imports back into the first), or None."""
    e = r.error
    if e is None or not e.chain or e.module is None:
        return None
    names = [f.module for f in e.chain]
    if e.module not in names:
        return None
    return tuple(names[names.index(e.module):])


def reads_unrun_package(r: Result) -> bool:
    """A bare-mode failure that only looks a name up in a package above the entry, a
    package bare mode left empty: its `__init__` never ran (it is not on the chain)."""
    e = r.error
    if r.mode != "bare" or e is None or not e.module or not e.chain:
        return False
    if e.exception not in ("ImportError", "AttributeError") or e.name is None:
        return False
    return r.entry.startswith(e.module + ".") and all(f.module != e.module for f in e.chain)


def cause_key(r: Result, unknown_at: Mapping[str, tuple[str, int]] | None = None
              ) -> tuple[str, tuple]:
    """(kind, key) of a non-ok result's cause; unknowns by the site that made them
    undecidable when `unknown_at` (reason -> site) knows it, else by their reason."""
    if r.outcome == "unknown":
        site = (unknown_at or {}).get(r.reason)
        return "unknown", tuple(site) if site else (r.reason,)
    e = r.error
    if e is None:
        return r.outcome, (r.reason,)
    if reads_unrun_package(r):
        return "bare-parent", (e.module, e.name)
    cycle = cycle_of(r) if e.exception in _CYCLE_ERRORS else None
    if cycle is not None and len(cycle) > 1:
        return "cycle", tuple(sorted(set(cycle)))
    return "name", (e.exception, e.module, e.name)


def causes(results, unknown_at: Mapping[str, tuple[str, int]] | None = None) -> list[Cause]:
    """The non-ok results that are not waived, by cause: causes that break a normal-mode
    import first, then by the number of first imports behind them, then in order of first
    appearance; the bare-parent causes last."""
    groups: dict[tuple, list[Result]] = {}
    for r in results:
        if r.outcome != "ok" and r.waived is None:
            groups.setdefault(cause_key(r, unknown_at), []).append(r)
    out = [Cause(kind, key, tuple(sorted(rs, key=lambda r: len(r.error.chain)
                                         if r.error else 0)))
           for (kind, key), rs in groups.items()]
    order = {id(c): i for i, c in enumerate(out)}
    return sorted(out, key=lambda c: (c.kind == "bare-parent", c.kind == "unknown",
                                      all(r.mode != "normal" for r in c.results),
                                      -len(c.results), order[id(c)]))


def is_failing(r: Result) -> bool:
    return r.outcome in _FAILING and r.waived is None
