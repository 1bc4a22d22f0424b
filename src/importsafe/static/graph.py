"""Module-level import edges -> strongly connected components -> static reach of each module.

The reach of X (every analysed module that importing X could touch, a superset) bounds the
state a simulated `import X` can read or write; the simulator keys its memo on it.
"""
from __future__ import annotations

from .discover import ModuleInfo
from .events import ModuleFacts


def _ancestors(name: str):
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def import_edges(index: dict[str, ModuleInfo], facts: dict[str, ModuleFacts]
                 ) -> dict[str, set[str]]:
    """Every module -> the analysed modules it may import (anywhere in its code), plus its
    ancestor packages; `from P import *` may import any direct child of P."""
    children: dict[str, list[str]] = {}
    for name in index:
        parent = name.rpartition(".")[0]
        if parent:
            children.setdefault(parent, []).append(name)
    edges: dict[str, set[str]] = {}
    for name in index:
        out = set(_ancestors(name))
        f = facts.get(name)
        for imported in (f.imports if f is not None else ()):
            star = imported.endswith(".*")
            if star:
                imported = imported[:-2]
                out.update(children.get(imported, ()))
            for candidate in (*_ancestors(imported), imported):
                if candidate in index:
                    out.add(candidate)
        out.discard(name)
        edges[name] = out
    return edges


def strongly_connected(edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative; components come out in reverse topological order
    (a component before every component that imports it)."""
    index_of: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index_of:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index_of[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index_of:
                    index_of[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(sorted(edges.get(nxt, ())))))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index_of[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index_of[node]:
                comp = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.append(member)
                    if member == node:
                        break
                out.append(sorted(comp))
    return out


class Reach:
    """Static reach sets as bitsets over a fixed module order; tuples made on demand."""

    def __init__(self, index: dict[str, ModuleInfo], facts: dict[str, ModuleFacts]):
        edges = import_edges(index, facts)
        self.order = sorted(index)
        self.bit = {name: i for i, name in enumerate(self.order)}
        self.components = strongly_connected(edges)
        self.component_of: dict[str, int] = {}
        masks: list[int] = []
        for k, comp in enumerate(self.components):
            mask = 0
            for member in comp:
                self.component_of[member] = k
                mask |= 1 << self.bit[member]
            for member in comp:
                for nxt in edges[member]:
                    other = self.component_of.get(nxt)
                    if other is not None and other != k:
                        mask |= masks[other]
            masks.append(mask)
        self._masks = masks
        self._tuples: dict[str, tuple[str, ...]] = {}

    def of(self, name: str) -> tuple[str, ...]:
        """Every module importing `name` could touch, `name` included, in a fixed order."""
        found = self._tuples.get(name)
        if found is None:
            mask = self._masks[self.component_of[name]]
            order = self.order
            found = tuple(order[i] for i in _bits(mask))
            self._tuples[name] = found
        return found

    def in_cycle(self, name: str) -> bool:
        return len(self.components[self.component_of[name]]) > 1


def _bits(mask: int) -> list[int]:
    text = bin(mask)[:1:-1]  # least significant bit first
    return [i for i, c in enumerate(text) if c == "1"]
