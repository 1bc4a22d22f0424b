"""Simulation results keyed by what they can depend on (pure: runcache.py stores them).

The outcome of (entry, mode) depends only on the modules its import can run: the entry, its
ancestor packages, and, transitively, every module any of them names in an import anywhere
(a superset: `ModuleFacts.imports`), with their ancestors, plus which of the named modules do
not exist and which top-level names are external. Each module gets a Merkle key over the
strongly connected components of that graph: its component's sources (digests), kinds and
markers, and the keys of the components it reaches. A result is reused only when the key of
its entry, the mode, the target version and the simulator's own code are all unchanged; so a
warm run re-simulates exactly the entries an edit can reach.
"""
from __future__ import annotations

import hashlib
from functools import lru_cache
from pathlib import Path

from .static.state import Program


@lru_cache(maxsize=1)
def simulator_fingerprint() -> str:
    from . import __version__
    digest = hashlib.sha256(__version__.encode())
    here = Path(__file__).resolve().parent / "static"
    for path in sorted(here.glob("*.py")):
        digest.update(path.name.encode() + path.read_bytes())
    return digest.hexdigest()[:16]


def _edges(program: Program, name: str, children: dict) -> tuple[list[str], list[str]]:
    """(modules `name` can run next, markers of named modules that are absent/external)."""
    index, facts = program.index, program.facts
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


def module_edges(program: Program) -> dict[str, tuple[list[str], list[str]]]:
    """Every analysed module's edges and markers (see _edges)."""
    names = sorted(program.index)
    children: dict[str, list[str]] = {}
    for n in names:
        if "." in n:
            children.setdefault(n.rpartition(".")[0], []).append(n)
    return {n: _edges(program, n, children) for n in names}


def module_keys(program: Program, removed: str | None = None,
                edges: dict | None = None) -> dict[str, str]:
    """Every analysed module's Merkle key (Tarjan's algorithm, iterative). `removed`: a
    module left out of the graph, with every edge into it (see ResultKeys)."""
    edges = edges if edges is not None else module_edges(program)
    if removed is not None:
        edges = {n: ([m for m in out if m != removed], markers)
                 for n, (out, markers) in edges.items() if n != removed}
    names = sorted(edges)
    number: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    comp_of: dict[str, int] = {}
    comps: list[list[str]] = []
    for root in names:
        if root in number:
            continue
        work = [(root, 0)]
        while work:
            node, i = work.pop()
            if i == 0:
                number[node] = low[node] = len(number)
                stack.append(node)
                on_stack.add(node)
            succ = edges[node][0]
            if i < len(succ):
                work.append((node, i + 1))
                nxt = succ[i]
                if nxt not in number:
                    work.append((nxt, 0))
                elif nxt in on_stack:
                    low[node] = min(low[node], number[nxt])
                continue
            if low[node] == number[node]:
                comp = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp_of[member] = len(comps)
                    comp.append(member)
                    if member == node:
                        break
                comps.append(sorted(comp))
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    keys: list[str] = []  # components come out in reverse topological order: successors first
    for k, comp in enumerate(comps):
        digest = hashlib.sha256()
        reached = set()
        for member in comp:
            info, f = program.index[member], program.facts.get(member)
            # the path too: a result's chain names files (and a copy of a tree elsewhere
            # must not reuse it)
            digest.update(repr((member, info.kind, info.path, f.digest if f is not None
                                else "", edges[member][1])).encode())
            reached.update(comp_of[n] for n in edges[member][0])
        reached.discard(k)
        for other in sorted(keys[c] for c in reached):
            digest.update(other.encode())
        keys.append(digest.hexdigest())
    return {n: keys[comp_of[n]] for n in names}


class ResultKeys:
    """The key of each (entry, mode) result: its entry's Merkle key, the mode, the target
    version and the simulator's own code. Results are stored with their keys in the run
    cache (runcache.py); a later run reuses those whose key it computes again.

    A bare first import of `T.x.y` never runs its ancestors' `__init__`: `T`, `T.x` are
    present from the start, so no import of them ever runs them either. Its key is therefore
    taken in the graph without its top-level package T, plus T's kind, path and source
    digest (the stub is made from the first two; an error's `defined_at` may point into the
    source): an edit of a module that only T/__init__.py leads to leaves the bare results
    below T alone. Deeper ancestors stay in that graph (a superset: sound, one graph per
    top-level package instead of one per entry)."""

    def __init__(self, program: Program, target_version):
        self.program = program
        self.edges = module_edges(program)
        self.keys = module_keys(program, edges=self.edges)
        self.without: dict[str, dict[str, str]] = {}  # top-level package -> keys without it
        self.prefix = repr((simulator_fingerprint(), tuple(target_version)))

    def _module_key(self, entry: str, mode: str) -> str | None:
        top, dot, _ = entry.partition(".")
        info = self.program.index.get(top)
        if mode != "bare" or not dot or info is None or info.kind != "package":
            return self.keys.get(entry)
        keys = self.without.get(top)
        if keys is None:
            keys = self.without[top] = module_keys(self.program, top, self.edges)
        found = keys.get(entry)
        if found is None:
            return None
        facts = self.program.facts.get(top)
        # T's source itself still counts: an error's `defined_at` may point into it
        return f"{found}|{top}|{info.kind}|{info.path}|{facts.digest if facts else ''}"

    def key(self, entry: str, mode: str) -> str | None:
        found = self._module_key(entry, mode)
        if found is None:
            return None
        return hashlib.sha256(f"{self.prefix}|{entry}|{mode}|{found}".encode()).hexdigest()
