"""Where an effect goes when the import that ran it becomes lazy (pure).

In the package's ordinary import (the simulator's trace) every import statement runs at one
point of one global order. Made lazy, a statement no longer runs its modules there; each of
them runs at the first of: a read of a name the statement binds while its module still runs,
or a later statement that surely imports it (its module-level imports outside `if`/`try`,
followed transitively). If that happens before the package's import ends, and nothing that
runs in between writes or reads (at import time) the state the effects touch, the move
cannot be observed. Otherwise the effect is lost for the import (IS110, IS111).
"""
from __future__ import annotations

from .scan import ModuleScan

SURE_GUARDS = frozenset({"none", "with"})


class Order:
    """The statements of the package's ordinary import, in the order they run."""

    def __init__(self, trace, scans: dict[str, ModuleScan], is_module):
        self.scans, self.is_module = scans, is_module
        self._known: dict = {}  # (module, id of a statement of its scan) -> _targets
        children: dict[tuple[str, int], list[str]] = {}
        tops: list[str] = []
        for event, module, frame in trace:
            if event == "start":
                if frame is None:
                    tops.append(module)
                else:
                    children.setdefault((frame.module, frame.line), []).append(module)
        self.sequence: list[tuple[str, int]] = []
        self.started: list[int] = []  # per statement: how many modules started before it
        self.rank: dict[str, int] = {}  # module -> how many started before it
        for top in tops:
            self._visit(top, children)
        self.position = {key: i for i, key in reversed(list(enumerate(self.sequence)))}

    def _visit(self, start: str, children) -> None:
        stack = [(start, None)]
        while stack:
            module, lines = stack.pop()
            if lines is None:
                if module in self.rank or module not in self.scans:
                    continue
                self.rank[module] = len(self.rank)
                statements = {s.line for s in self.scans[module].statements
                              if s.guard != "TYPE_CHECKING"}
                starts = {line for (m, line) in children if m == module}
                lines = sorted(statements | starts)
            if not lines:
                continue
            line, rest = lines[0], lines[1:]
            self.sequence.append((module, line))
            self.started.append(len(self.rank))
            stack.append((module, rest))
            for child in reversed(children.get((module, line), ())):
                stack.append((child, None))

    def _targets(self, module: str, stmt) -> frozenset[str]:
        """What the statement imports: its modules and their packages, but the packages of
        the importing module (those are in sys.modules while it runs). Kept per statement
        (by identity: two statements can share a line): _runs asks again for every key."""
        key = (module, id(stmt))
        found = self._known.get(key)
        if found is None:
            found = self._known[key] = frozenset(self._find_targets(module, stmt))
        return found

    def _find_targets(self, module: str, stmt) -> set[str]:
        parts = module.split(".")
        mine = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        out = set()
        for target in stmt.targets(self.is_module):
            bits = target.split(".")
            out.update(".".join(bits[:i]) for i in range(1, len(bits) + 1))
        return {t for t in out - mine if t in self.scans}

    def _runs(self, key: tuple[str, int], deferred: set[str]) -> set[str]:
        """The modules the statement surely runs when `deferred` have not run: through
        unconditional imports, and only through modules not loaded by then."""
        module, line = key
        scan = self.scans.get(module)
        stmt = next((s for s in scan.statements if s.line == line), None) if scan else None
        if stmt is None or stmt.guard not in SURE_GUARDS or stmt.lazy or stmt.star:
            return set()
        started = self.started[self.position[key]]

        def unloaded(name):
            return name in deferred or self.rank.get(name, started) >= started
        out: set[str] = set()
        stack = [(module, stmt)]
        while stack:
            owner, current = stack.pop()
            for target in self._targets(owner, current):
                if target in out or not unloaded(target):
                    continue
                out.add(target)
                for inner in self.scans[target].statements:
                    if inner.guard in SURE_GUARDS and not inner.lazy and not inner.star:
                        stack.append((target, inner))
        return out

    def moved(self, module: str, line: int, modules: set[str], deferred: set[str]):
        """(the statements that run in between, the later statement that surely runs
        `modules` when the statement at (module, line) is lazy; `deferred`: every module it
        would have run), or None when none does before the package's import ends."""
        start = self.position.get((module, line))
        if start is None:
            return None
        missing = set(modules)
        between = []
        for key in self.sequence[start + 1:]:
            if key[0] in deferred:
                continue  # runs only inside the deferred modules, which have not run
            missing -= self._runs(key, deferred)
            if not missing:
                return between, key
            between.append(key)
        return None
