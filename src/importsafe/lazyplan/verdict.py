"""Per module-level import statement: lazy-safe, or why it must stay eager (pure).

A module *must load eagerly* when its import has an effect that some code can observe
(readers.py), or when it reads, while it runs, state other modules fill (its answer depends
on which ran before it). An import statement is lazy-safe when making it lazy moves no such
module: none is among the modules the statement runs first (its *closure*: the modules that
start while it runs, in the ordinary first import of the package, replayed by the simulator;
for a module the package's import never runs, every module its imports can reach that the
package's import did not already run). When its names are read unconditionally while the
importing module still runs, the closure runs there instead, which changes nothing as long
as nothing in between touches the same state. Import failures are the plan's part (plan.py).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from .effects import Effect, OrderRead
from .readers import Readers, Verdict, observability
from .scan import ImportStatement, ModuleScan

MAX_MODULES_SHOWN = 5  # a statement's reasons name the first of the modules it runs first
FAILS, LOST, MOVED, EXTERNAL, ORDER, EFFECT, RAW = (
    "IS109", "IS110", "IS111", "IS112", "IS113", "IS114", "IS115")


@dataclass(frozen=True, slots=True)
class Reason:
    code: str
    file: str
    line: int
    message: str
    reader: tuple[str, int] | None = None  # (file, line) of the code that sees the difference


@dataclass(frozen=True, slots=True)
class ModuleVerdict:
    eager: bool
    reasons: tuple[Reason, ...] = ()
    effects: tuple[Effect, ...] = ()  # every effect found, observable or not
    unobservable: tuple[tuple[Effect, str], ...] = ()


@dataclass(frozen=True, slots=True)
class StatementVerdict:
    module: str  # where the statement is
    file: str
    line: int
    target: str  # the module it imports
    statement: ImportStatement
    lazy_safe: bool  # lazy in the plan changes nothing (with everything else it makes lazy)
    reasons: tuple[Reason, ...] = ()
    closure: frozenset[str] = field(default=frozenset(), compare=False)
    alone: bool = True  # no effect of its modules is lost or moved when it alone is lazy
    # lazy-safe because this later statement runs its closure's effects first: only while
    # that statement stays eager (the plan checks)
    relies_on: tuple[str, int] | None = None


def short(path: str, roots) -> str:
    """A path as messages show it: relative to the source root holding it."""
    for root in sorted(roots, key=len, reverse=True):
        if path.startswith(root.rstrip(os.sep) + os.sep):
            return os.path.relpath(path, root)
    return path


def module_verdicts(effects: dict[str, list[Effect]], reads: dict[str, list[OrderRead]],
                    readers: Readers, analysed, roots=(), lineage=None
                    ) -> dict[str, ModuleVerdict]:
    """Which modules must load eagerly, and why (each reason at the effect's line)."""
    writers: dict[tuple, list[Effect]] = {}
    for found in effects.values():
        for e in found:
            writers.setdefault(e.state, []).append(e)
    out = {}
    for module in sorted(set(effects) | set(reads)):
        reasons, unobservable = [], []
        for e in effects.get(module, ()):
            seen: Verdict = observability(e, readers, analysed, lineage)
            if not seen.observable:
                unobservable.append((e, seen.why))
                continue
            reader = (seen.reader.path, seen.reader.line) if seen.reader else None
            where = f" at {short(seen.reader.path, roots)}:{seen.reader.line}" \
                if seen.reader else ""
            site = f" (in {short(e.site[0], roots)}:{e.site[1]})" if e.site else ""
            reasons.append(Reason(EFFECT, e.path, e.line, f"{e.what}{site}; {seen.why}{where}",
                                  reader))
        for r in reads.get(module, ()):
            if r.access == "keyed":
                continue  # one entry: the moves that matter show in the writers' verdicts
            others = [w for w in writers.get(r.state, ()) if w.module != module]
            if others:
                w = others[0]
                reasons.append(Reason(ORDER, r.path, r.line,
                                      f"{r.what} while it runs, which other modules change "
                                      f"({w.module} at {short(w.path, roots)}:{w.line}): what "
                                      "it finds depends on which ran before it",
                                      (w.path, w.line)))
        out[module] = ModuleVerdict(bool(reasons), tuple(dict.fromkeys(reasons)),
                                    tuple(effects.get(module, ())), tuple(unobservable))
    return out


def closures_from_trace(trace) -> dict[tuple[str, int], set[str]]:
    """(module, line) of each import statement that ran -> the modules that started while
    it ran, from a simulator trace (("start", module, importer frame) / "done" / "fail")."""
    out: dict[tuple[str, int], set[str]] = {}
    stack: list[list] = []  # [module, line it was importing at]
    for event, module, frame in trace:
        if event == "start":
            if frame is not None and stack and stack[-1][0] == frame.module:
                stack[-1][1] = frame.line
            for running, line in stack:
                if line is not None:
                    out.setdefault((running, line), set()).add(module)
            stack.append([module, None])
        elif stack and stack[-1][0] == module:
            stack.pop()
    return out


def static_closure(stmt: ImportStatement, importer: str, graph: dict[str, set[str]],
                   loaded: set[str], is_module, memo: dict | None = None) -> set[str]:
    """Every analysed module the statement's imports can reach that is not yet loaded.
    `memo`: shared by the calls of one plan; the walk is made once per package and target
    (what a set of targets reaches is what each does; without the importer cut out: when
    it is not reached, cutting it changes nothing)."""
    targets = tuple(sorted({t for t in stmt.targets(is_module) if t in graph}))
    package = importer.rpartition(".")[0]
    if memo is None or not package:
        return _reach(targets, importer, graph, loaded)
    out: set[str] = set()
    for target in targets:
        found = memo.get((package, target))
        if found is None:
            found = memo[(package, target)] = frozenset(_reach((target,), package, graph,
                                                               loaded))
        out |= found
    return _reach(targets, importer, graph, loaded) if importer in out else out


def _reach(targets, importer: str, graph: dict[str, set[str]], loaded: set[str]) -> set[str]:
    parts = importer.split(".") if importer else []
    own = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
    out: set[str] = set()
    stack = list(targets)
    while stack:
        name = stack.pop()
        if name in out or name in loaded or name in own:
            continue
        out.add(name)
        stack.extend(graph[name])
    return out


def import_graph(scans: dict[str, ModuleScan], is_module) -> dict[str, set[str]]:
    """Module -> the analysed modules importing it runs first: its ancestor packages and
    what its module-level imports name (any guard that runs)."""
    graph = {}
    for name, scan in scans.items():
        targets: set[str] = set()
        for stmt in scan.statements:
            if stmt.guard != "TYPE_CHECKING":
                targets.update(t for t in stmt.targets(is_module) if t in scans)
        bits = name.split(".")
        targets.update(a for a in (".".join(bits[:i]) for i in range(1, len(bits)))
                       if a in scans)
        graph[name] = targets
    return graph


@dataclass(frozen=True, slots=True)
class Context:
    """What a statement's verdict looks at beyond its own module."""

    modules: dict  # module -> ModuleVerdict
    external: dict  # the effect table's modules
    closure_of: object  # (statement, module) -> the modules it runs first
    order: object = None  # order.Order of the package's import, when simulated
    effects: dict = field(default_factory=dict)  # module -> [Effect]
    reads: dict = field(default_factory=dict)  # module -> [OrderRead]
    closures: dict = field(default_factory=dict)  # (module, line) -> modules, from the trace
    namespace_reads: dict = field(default_factory=dict)  # effects.Engine.namespace_reads


def statement_verdict(scan: ModuleScan, stmt: ImportStatement, closure: set[str],
                      ctx: Context, source_mentions, target: str) -> StatementVerdict:
    """Lazy-safe or not, with reasons pointing at the effects and at their readers."""
    modules, external = ctx.modules, ctx.external
    reasons: list[Reason] = []
    for module in stmt.modules if stmt.kind == "import" else stmt.modules[:1]:
        entry = external.get(module) or external.get(module.partition(".")[0])
        if entry is not None and entry.kind != "none":
            reasons.append(Reason(EXTERNAL, scan.path, stmt.line,
                                  f"importing {module} changes {entry.state}"))
    eager = sorted(m for m in closure if m in modules and modules[m].eager)
    relies_on = None
    if eager:
        read_at = _first_read(scan, stmt)
        if read_at is not None and not _touched_between(scan, stmt, read_at, eager, ctx):
            eager = []  # run at read_at instead of stmt.line, nothing in between cares
        elif ctx.order is not None:
            relies_on = _moved_unseen(scan.name, stmt, eager, ctx)
            if relies_on is not None:
                eager = []  # a later statement runs them first, nothing in between cares
        never = read_at is None and all(source_mentions(n) <= 1 for n in stmt.bound)
        for module in eager[:MAX_MODULES_SHOWN]:
            for r in modules[module].reasons[:1]:
                if r.code == ORDER:
                    reasons.append(Reason(ORDER, r.file, r.line, f"{r.message}; lazily it "
                                          "runs later, when more of them have run", r.reader))
                elif never:
                    text = f"{r.message}; nothing reads a name of it, so it never runs"
                    reasons.append(Reason(LOST, r.file, r.line, text, r.reader))
                else:
                    names = ", ".join(stmt.bound)
                    text = f"{r.message}; lazily it runs only when {names} is first read"
                    reasons.append(Reason(MOVED, r.file, r.line, text, r.reader))
        if len(eager) > MAX_MODULES_SHOWN:
            last = reasons[-1]
            reasons.append(Reason(last.code, last.file, last.line, f"and {len(eager) - MAX_MODULES_SHOWN} "
                                  f"more modules it runs first must load eagerly: "
                                  f"{', '.join(eager[MAX_MODULES_SHOWN:MAX_MODULES_SHOWN + 10])}"
                                  + (", ..." if len(eager) > MAX_MODULES_SHOWN + 10 else "")))
    raw = _raw_read(scan, stmt, ctx)
    if raw is not None:
        reasons.append(raw)
    return StatementVerdict(scan.name, scan.path, stmt.line, target, stmt, not reasons,
                            tuple(dict.fromkeys(reasons)), frozenset(closure), not reasons,
                            relies_on if not reasons else None)


def _raw_read(scan: ModuleScan, stmt: ImportStatement, ctx: Context) -> Reason | None:
    """The first read of the module's namespace that resolves nothing (a frame's f_locals,
    `globals()`) after the statement and before any of its names is read: lazily it finds
    them unresolved (PEP 810 resolves a lazy import only when its name is read as a name)."""
    found = {line: ((scan.path, line), what, None, None)
             for line, what in scan.raw_reads.items()}
    for line, entry in ctx.namespace_reads.get(scan.name, {}).items():
        found.setdefault(line, entry)
    for line in sorted(found):
        if line <= stmt.end_line:
            continue
        (file, at), what, action, keys = found[line]
        if keys is not None and not set(keys) & set(stmt.bound):
            continue  # it looks up other names only
        if any(_read_before(scan, stmt, n, line, action) for n in stmt.bound):
            return None  # resolved by then
        names = ", ".join(stmt.bound)
        return Reason(RAW, file, at, f"{what} (from line {line}), where lazily {names} "
                      "would still be an unresolved lazy object: PEP 810 resolves it only "
                      "when the name is read", (scan.path, line))
    return None


def _read_before(scan: ModuleScan, stmt: ImportStatement, name: str, line: int,
                 action: int | None) -> bool:
    """Is `name` read after the statement and before the namespace read at `line` (by the
    module's action `action`, when a call makes it: the decorator `@dispatch(...)` is read
    before the call that looks at the frame)?"""
    first = scan.first_reads.get(name)
    if first is None or first <= stmt.end_line:
        return False
    if action is not None and name in scan.first_read_at:
        return scan.first_read_at[name] <= action
    return first < line


def _first_read(scan: ModuleScan, stmt: ImportStatement) -> int | None:
    """The first line after the statement that surely reads one of the names it binds while
    the module runs (None: only functions read them, or nothing does)."""
    lines = [scan.first_reads[n] for n in stmt.bound
             if scan.first_reads.get(n, 0) > stmt.end_line]
    return min(lines) if lines else None


def _touched_between(scan: ModuleScan, stmt: ImportStatement, read_at: int, eager: list[str],
                     ctx: Context) -> bool:
    """Between the statement and the first read of its names, does anything write or read
    (at import time) the state the moved effects touch: a module an import in between runs,
    or the module's own code there?"""
    states = _states(eager, ctx)
    if states is None:
        return True
    for other in scan.statements:
        if stmt.end_line < other.line < read_at and other.guard != "TYPE_CHECKING":
            if _disturbs(ctx.closure_of(other, scan.name), eager, states, ctx):
                return True
    return any(stmt.end_line < e.line < read_at and e.state in states
               for e in ctx.effects.get(scan.name, ())) or \
        any(stmt.end_line < r.line < read_at and r.state in states
            for r in ctx.reads.get(scan.name, ()))


def _states(eager: list[str], ctx: Context) -> set | None:
    """The states the modules' effects touch; None when one is process-wide (code in between
    is not followed far enough to tell who sees it)."""
    effects = [e for m in eager for e in ctx.effects.get(m, ())]
    if any(e.kind != "subclass" and e.state[0] == "process" for e in effects):
        return None
    return {e.state for e in effects}


def _disturbs(running, eager: list[str], states: set, ctx: Context) -> bool:
    for other in set(running) - set(eager):
        if any(e.state in states for e in ctx.effects.get(other, ())) or \
                any(r.state in states for r in ctx.reads.get(other, ())):
            return True
    return False


def _moved_unseen(module: str, stmt: ImportStatement, eager: list[str], ctx: Context):
    """The later statement of the package's import that runs the modules first when this
    one is lazy, if nothing in between writes or reads (at import time) the state their
    effects touch; else None."""
    found = ctx.order.moved(module, stmt.line, set(eager),
                            set(ctx.closures.get((module, stmt.line), ())))
    if found is None:
        return None
    between, later = found
    states = _states(eager, ctx)
    if states is None:
        return None
    running = {m for key in between for m in ctx.closures.get(key, ())} | \
        {k[0] for k in between}
    return None if _disturbs(running, eager, states, ctx) else later
