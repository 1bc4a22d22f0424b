"""Which stored results a run may reuse (pure; runcache.py stores them with the run).

A simulation reads the facts of exactly the modules it creates in its `sys.modules`: the ones
it executes, the stubs of a bare run's ancestors, and those a replayed memo recording creates
again (`ImportState.epochs` counts every creation, replays included). Nothing else decides its
outcome but lookups, and every lookup is of a name one of those modules imports (or of its
parent). So a
result depends only on, for each module m it created: m's kind, path and source digest,
for a module whose source may list its directory (ModuleFacts.lists_dirs) that listing
(Program.listings), and which of the names m imports exist or are external (`_edges`, from
`ModuleFacts.imports`, which holds every import form, function bodies' included, as a
superset; a star import counts the package's children). `fingerprints` hashes that per module. The one lookup outside it, an
error's `defined_at` naming a submodule nothing imports, is checked again (`hint_holds`). A stored result is reused while none of the modules it
created has another fingerprint, with the same mode, target version and simulator code (the
prefix).

Each result's modules are a bit mask over a names table that later runs extend but never
reorder, so "did this edit touch it" is one `&` per result: an edit of a module that many
modules name but few simulations reach (an error usually stops a bare run early) re-simulates
only those few.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache

from ..static.events import summary_items
from ..static.simulate import defined_at
from ..static.state import Program


@lru_cache(maxsize=1)
def simulator_fingerprint() -> str:
    import hashlib  # here, not at module level: loading OpenSSL slows every start
    from .. import __version__
    digest = hashlib.sha256(__version__.encode())
    here = os.path.join(os.path.dirname(os.path.dirname(os.path.realpath(__file__))), "static")
    for name in sorted(n for n in os.listdir(here) if n.endswith(".py")):
        with open(os.path.join(here, name), "rb") as f:
            digest.update(name.encode() + f.read())
    return digest.hexdigest()[:16]


def prefix(target_version, env: tuple = ()) -> str:
    """What every stored result also depends on."""
    return repr((simulator_fingerprint(), tuple(target_version), tuple(env)))


def _edges(program: Program, name: str, children: dict, facts: dict
           ) -> tuple[list[str], list[str]]:
    """(modules `name` can look up and run next, markers of named modules that are
    absent/external). `facts`: name -> facts or summary."""
    index = program.index
    out, markers = [], []
    parent = name.rpartition(".")[0]
    if parent:
        out.append(parent)
    f = facts.get(name)
    for imported in sorted(f.imports | f.nested_imports) if f is not None else ():
        top = imported.partition(".")[0]
        if top not in program.tops:
            markers.append("x:" + top)
            continue
        if imported.endswith(".*"):
            package = imported[:-2]
            out.extend(children.get(package, ()))
            imported = package
        parts = imported.split(".")
        for i in range(1, len(parts) + 1):
            prefix = ".".join(parts[:i])
            if prefix in index:
                out.append(prefix)
            else:
                markers.append("a:" + prefix)
                break
    return out, markers


def index_key(program: Program) -> str:
    """The module map's identity: names, kinds and paths."""
    import hashlib
    return hashlib.sha1(repr(sorted((n, i.kind, i.path) for n, i in program.index.items()))
                        .encode()).hexdigest()


def fingerprints(program: Program, previous: Traces | None = None,
                 key: str | None = None) -> dict[str, str]:
    """Every analysed module's fingerprint: what a simulation that creates it depends on.
    A module's fingerprint is a function of its digest and of the module map (`key`): when
    the map is the `previous` run's, modules whose digest is too keep their fingerprint."""
    import hashlib
    names = sorted(program.index)
    summaries = dict(summary_items(program.facts))  # loads nothing (LazyFacts)
    out = {}
    if previous is not None and key is not None and previous.index_key == key:
        for n in names:
            f = summaries.get(n)
            if f is not None and f.digest and previous.digests.get(n) == f.digest \
                    and n in previous.fingerprints and not _listed(program, n, f):
                out[n] = previous.fingerprints[n]
    children: dict[str, list[str]] = {}
    for n in names:
        if "." in n:
            children.setdefault(n.rpartition(".")[0], []).append(n)
    for n in names:
        if n in out:
            continue
        info, f = program.index[n], summaries.get(n)
        edges, markers = _edges(program, n, children, summaries)
        # the path too: a result's chain names files (and a copy of a tree elsewhere must
        # not reuse it)
        # a module whose code may list its directory: what that listing holds, in its order
        # (a package's own, where code may list it through its `__file__`)
        listed = _listings_read(program, info.path, f) if _listed(program, n, f) else None
        out[n] = hashlib.sha1(repr((n, info.kind, info.path, f.digest if f is not None else "",
                                    edges, markers, listed)).encode()).hexdigest()
    return out


def _listings_read(program: Program, path: str, f) -> tuple:
    """The listings a module whose code may list its directory can read: its directory's,
    and (where it lists) those of the package directories directly in it."""
    here = os.path.normpath(os.path.dirname(path))
    found = [program.listings.get(here)]
    if f.lists_dirs:
        found += sorted((d, listing) for d, listing in program.listings.items()
                        if os.path.dirname(d) == here)
    return tuple(found)


def _listed(program: Program, name: str, f) -> bool:
    """Is the module's fingerprint keyed on its directory's listing?"""
    return f is not None and (f.lists_dirs or program.index[name].kind == "package" and
                              os.path.normpath(os.path.dirname(program.index[name].path))
                              in program.listings)


def hint_holds(result, program: Program, mask: int, bit: dict[str, int]) -> bool:
    """Does a stored error's `defined_at` still hold? It comes from the module's own facts
    (fingerprinted, when the run created that module), else from the existence of a
    submodule of that name, which no fingerprint covers (a package's children would change
    the fingerprint of every run through the package)."""
    e = result.error
    if e is None or not e.module or not e.name:
        return True
    i = bit.get(e.module)
    if e.module in program.facts and (i is None or not mask >> i & 1):
        return False  # facts the run did not create: not covered, simulate again
    return e.defined_at == defined_at(program, e.module, e.name)


@dataclass(frozen=True)
class Traces:
    """The modules each stored result created, as bit masks over `names`."""

    prefix: str
    names: tuple[str, ...]
    fingerprints: dict[str, str]
    masks: dict[tuple[str, str], int]  # (entry, mode) -> mask
    index_key: str = ""  # of the module map the fingerprints were taken with
    digests: dict = field(default_factory=dict)  # module -> source digest then


def names_table(previous: Traces | None, program: Program) -> tuple[str, ...]:
    """The previous table, then the modules it lacks: old masks stay valid."""
    old = previous.names if previous is not None else ()
    known = set(old)
    return old + tuple(sorted(n for n in program.index if n not in known))


def mask_of(modules, bit: dict[str, int]) -> int:
    """The bit mask of `modules` (names not in the table: none, they cannot be created)."""
    found = bytearray((len(bit) >> 3) + 1)
    for name in modules:
        i = bit.get(name)
        if i is not None:
            found[i >> 3] |= 1 << (i & 7)
    return int.from_bytes(found, "little")


def reusable(previous: Traces | None, now: dict[str, str], run_prefix: str) -> set:
    """The (entry, mode) pairs whose stored result holds: no module it created has changed
    its fingerprint (a module added or removed changes its parent's and its importers')."""
    if previous is None or previous.prefix != run_prefix:
        return set()
    old = previous.fingerprints
    changed = [m for m in old.keys() | now.keys() if old.get(m) != now.get(m)]
    touched = mask_of(changed, {n: i for i, n in enumerate(previous.names)})
    return {pair for pair, mask in previous.masks.items() if not mask & touched}
