"""The verified plan: which lazy-safe statements become lazy, how it is written, and proof
that no first import that works today fails after it (pure: texts come in through read_text).

The statements the effect analysis found lazy-safe are made lazy together, and every entry
is re-simulated with them lazy: in mode normal while the plan is made, in modes normal and bare
again over the rewritten sources before they are written (explicit `lazy` statements are lazy
in every mode; under the global lazy mode, `-X lazy_imports=all`, every one of them is lazy
already, so mode lazy needs no second run). An entry that worked before and fails after
names the statements to keep eager (_culprits). Those go back to eager (rule IS109) and the
rest is simulated again, until nothing new fails; over the rewritten sources, what breaks in
mode bare is sent back the same way (apply.materialize). `__lazy_modules__` names modules,
not statements: a module is listed only when every import of it in the file is in the plan.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import partial

from ..model import Result
from ..static.events import If, Import, ImportFrom
from ..static.parallel import map_streamed
from ..static.simulate import CHAINED, TOO_DEEP, iter_pairs, simulate_modules, traced_run
from ..static.state import Program
from .verdict import FAILS, MOVED, Reason, StatementVerdict

SYNTAX, LISTED = "lazy", "__lazy_modules__"
CHECKED_MODES = ("normal", "bare")  # what an applied plan is simulated in (lazy: unchanged)
MAX_ROUNDS = 20


@dataclass(frozen=True, slots=True)
class Checked:
    """The plan as simulated: the statements it makes lazy and what every entry does then."""

    lazy: frozenset[tuple[str, int]]  # (module, line)
    after: dict  # (entry, mode) -> Result with the plan applied
    kept: dict  # (module, line) -> Reason: made eager again because laziness broke an entry


def plan_lines(verdicts: list[StatementVerdict]) -> set[tuple[str, int]]:
    """The statements the plan makes lazy: lazy-safe ones that run and are not lazy yet."""
    return {(v.module, v.line) for v in verdicts if v.lazy_safe and not v.statement.lazy
            and v.statement.guard != "TYPE_CHECKING"}


def listed_modules(verdicts: list[StatementVerdict], lazy: set) -> dict[str, tuple]:
    """Importer -> (modules `__lazy_modules__` can list, first line naming one): a module
    whose every eligible import in the file is in the plan."""
    named: dict[str, dict[str, list]] = {}
    for v in verdicts:
        stmt = v.statement
        if stmt.guard == "TYPE_CHECKING":
            continue
        for module in stmt.modules:
            named.setdefault(v.module, {}).setdefault(module, []).append(v)
    out = {}
    for importer, by_module in named.items():
        ok = {m: vs for m, vs in by_module.items()
              if all((v.module, v.line) in lazy for v in vs)}
        if ok:
            out[importer] = (tuple(sorted(ok)), min(v.line for vs in ok.values() for v in vs))
    return out


def lines_of_listing(verdicts: list[StatementVerdict], listed: dict) -> set:
    """The statements a `__lazy_modules__` listing makes lazy."""
    return {(v.module, v.line) for v in verdicts if v.module in listed
            and v.statement.guard != "TYPE_CHECKING"
            and any(m in listed[v.module][0] for m in v.statement.modules)}


def patches_for(program: Program, verdicts, lazy: set, styles, read_text) -> dict:
    """style -> the plan's edits written in that style (each file read and parsed once)."""
    from ..fix.plan import FilePatch
    from .rewrite import RewriteError, add_lazy_modules, make_lazy, tree_of
    by_module: dict[str, set[int]] = {}
    for module, line in lazy:
        by_module.setdefault(module, set()).add(line)
    listed = listed_modules(verdicts, lazy) if LISTED in styles else {}
    out: dict[str, list] = {style: [] for style in styles}
    for module in sorted(set(by_module) | set(listed)):
        path = program.index[module].path
        old = read_text(path)
        tree = tree_of(old)
        try:
            if LISTED in styles and module in listed:
                names, first = listed[module]
                out[LISTED].append(FilePatch(module, path, old,
                                             add_lazy_modules(old, names, first, tree), ()))
            if SYNTAX in styles and module in by_module:
                out[SYNTAX].append(FilePatch(module, path, old, make_lazy(
                    old, sorted(by_module[module]), tree), ()))
        except RewriteError as exc:
            raise RewriteError(f"{path}: {exc}") from None
    return out


def lazy_program(program: Program, lazy: set) -> Program:
    """The program with the import statements on the (module, line) pairs of `lazy` written
    `lazy`: their facts' `lazy` flag set, as the facts of the rewritten source would have it
    (PEP 810 allows `lazy` only at module level, so only the module body changes)."""
    lines: dict[str, set[int]] = {}
    for module, line in lazy:
        lines.setdefault(module, set()).add(line)
    facts = dict(program.facts)
    for module, wanted in lines.items():
        if module in facts:
            facts[module] = replace(facts[module], body=_flip(facts[module].body, wanted))
    return program.sharing_bodies(facts)


def _flip(events: tuple, lines: set[int]) -> tuple:
    out = []
    for ev in events:
        cls = ev.__class__
        if (cls is Import and ev.call is None or cls is ImportFrom) and ev.line in lines:
            ev = replace(ev, lazy=True)
        elif cls is If:
            ev = replace(ev, body=_flip(ev.body, lines), orelse=_flip(ev.orelse, lines))
        out.append(ev)
    return tuple(out)


PARALLEL_MIN = 200  # pairs below which forking costs more than it saves
# a run's results only: which modules it created serves a results cache, which plans have none of
simulate_results = partial(simulate_modules, made=False)


def simulate_all(program: Program, todo, workers: int = 1, made: bool = False) -> dict:
    """(entry, mode) -> Result, in `workers` processes when there are many; with `made`,
    (entry, mode) -> (Result, the modules the run created: the only ones whose facts, and
    so whose statements' laziness, decided it)."""
    todo = list(todo)
    sim = simulate_modules if made else simulate_results
    pick = (lambda found: found) if made else (lambda found: found[0])
    if workers <= 1 or len(todo) < PARALLEL_MIN:
        return {pair: pick(found) for pair, found in zip(todo, iter_pairs(todo, program, sim))}

    def work(part):
        take = loaded_since(program)
        for found in iter_pairs(part, program, sim):
            yield pick(found), take()
    return dict(zip(todo, kept_bodies(program, map_streamed(work, todo, workers, every=256))))


def loaded_since(program: Program):
    """In a worker process: a function giving the function bodies loaded since its last
    call, to send back with a result (kept_bodies)."""
    loaded = program.loaded_functions
    sent = len(loaded)

    def take() -> tuple:
        nonlocal sent
        new = tuple(loaded[sent:])
        sent = len(loaded)
        return new
    return take


def kept_bodies(program: Program, found: list) -> list:
    """The results of (result, bodies) pairs a worker sent, the bodies kept by the parent:
    the processes of later stages, forked from it, need not parse them again."""
    for _, bodies in found:
        if bodies:
            program.keep_functions(bodies)
    return [result for result, _ in found]


def check_plan(program: Program, verdicts: list[StatementVerdict], entries, today,
               closures: dict, style: str = SYNTAX, modes=("normal",),
               workers: int = 1, unlisted: frozenset = frozenset(),
               start: tuple | None = None) -> Checked:
    """Make the plan's statements lazy, simulate every entry in `modes`, and send back to
    eager whatever breaks an entry that works today, until nothing does. `today(pairs)`:
    a mapping (entry, mode) -> Result today that holds at least `pairs` (asked for the
    pairs that are not ok with the plan: an ok one breaks nothing). In the LISTED
    style a module's imports are lazy together or not at all, and the `unlisted` modules
    (which bind `__lazy_modules__` themselves) get no list. `start`: (a plan, the results
    of every pair in `modes` with it, the modules each run created) to go on from."""
    kept: dict[tuple[str, int], Reason] = {}
    if start is None:
        lazy = plan_lines(verdicts)
        _keep_what_they_rely_on(verdicts, lazy, kept)
    else:
        lazy = set(start[0])
    normalize = (lambda chosen: lines_of_listing(verdicts, listed_modules(
        verdicts, {c for c in chosen if c[0] not in unlisted}))) \
        if style == LISTED else (lambda chosen: chosen)
    lazy = normalize(lazy) if start is None else lazy
    by_path = {info.path: name for name, info in program.index.items()}
    running: dict[str, list] = {}  # module -> the statements that run it first
    for stmt, modules in closures.items():
        for module in modules:
            running.setdefault(module, []).append(stmt)
    todo = [(e, m) for e in entries for m in modes]
    after: dict = {}
    under: dict = {}  # pair -> the plan its result in `after` was simulated with
    pairs = todo  # the first round and every confirming one: all of them
    plan = frozenset(lazy)  # a new object whenever the plan changes
    waiting: set = set()  # pairs whose result in `after` is stale (their package's failure)
    created: dict = {}  # pair -> the modules its run in `after` created
    if start is not None:
        after, created = dict(start[1]), dict(start[2])
    for round_ in range(MAX_ROUNDS):
        if start is None or round_:
            for pair, (result, modules) in simulate_all(lazy_program(program, lazy), pairs,
                                                         workers, made=True).items():
                after[pair], created[pair] = result, modules
        under.update(dict.fromkeys(pairs, plan))
        waiting.difference_update(pairs)
        failing = [pair for pair, r in after.items() if r.outcome != "ok" and
                   pair not in waiting]
        # an entry below a package whose own import fails takes that failure (iter_pairs):
        # it is broken when the package is, for the package's culprits, and waits to be
        # simulated again once the package is mended; today's run of it is asked for only
        # otherwise
        derived = {pair: found for pair in failing
                   if (found := _failing_ancestor(pair, after)) is not None}
        own = [pair for pair in failing if pair not in derived]
        base = today(own)
        broken_own = {pair for pair in own if base[pair].outcome == "ok"}
        waiting.update(pair for pair, ancestor in derived.items() if ancestor in broken_own)
        rest = [pair for pair, ancestor in derived.items() if ancestor not in broken_own]
        if rest:
            base = today(rest)
        broken = [after[pair] for pair in own if pair in broken_own] + \
            [after[pair] for pair in rest if base[pair].outcome == "ok"]
        if not broken:
            if pairs is todo:
                break
            # the broken ones work now: confirm nothing else broke. A result stands when
            # no statement whose laziness changed since it was simulated is in a module its
            # run created (the simulation is a function of the statements it runs)
            pairs = _stale(todo, under, plan, created, waiting)
            if not pairs:
                break
            continue
        pairs = [(r.entry, r.mode) for r in broken]
        culprits: set = set()
        for result in broken:
            found = _culprits(result, lazy, by_path, closures, running)
            for c in found:
                kept.setdefault(c, _reason(result, program))
            culprits |= found
        if not culprits:  # nothing to blame: keep the whole plan out rather than guess
            culprits = set(lazy)
            for c in culprits:
                kept.setdefault(c, _reason(broken[0], program))
        lazy = normalize(lazy - culprits)
        plan = frozenset(lazy)
    return Checked(frozenset(lazy), after, kept)


def _stale(todo, under: dict, plan: frozenset, created: dict, waiting: set) -> list:
    """The pairs to simulate again under `plan`; the others' results are marked as its."""
    touched: dict[int, frozenset] = {}  # id(an earlier plan) -> modules changed since
    stale = []
    for pair in todo:
        was = under[pair]
        if was is plan:
            continue
        if id(was) not in touched:
            touched[id(was)] = frozenset(module for module, _ in was ^ plan)
        if pair in waiting or not touched[id(was)].isdisjoint(created[pair]):
            stale.append(pair)
        else:
            under[pair] = plan
    return stale


def _failing_ancestor(pair: tuple, after: dict) -> tuple | None:
    """The (ancestor, mode) pair whose failure `pair`'s result took (see iter_pairs), if it
    took one: the outermost failing ancestor, in a mode that imports ancestors first."""
    entry, mode = pair
    if mode not in CHAINED or "." not in entry:
        return None
    parts = entry.split(".")
    for i in range(1, len(parts)):
        found = after.get((".".join(parts[:i]), mode))
        if found is None or found.outcome == "ok":
            continue
        if found.reason == TOO_DEEP or replace(found, entry=entry) != after[pair]:
            return None
        return (".".join(parts[:i]), mode)
    return None


def _keep_what_they_rely_on(verdicts, lazy: set, kept: dict) -> None:
    """A statement is lazy-safe because a later one runs its modules first: not when that
    one is lazy too."""
    by_key = {(v.module, v.line): v for v in verdicts}
    relying = [v for v in verdicts if v.relies_on is not None and (v.module, v.line) in lazy
               and v.relies_on in lazy]
    for v in relying:  # one pass: a later statement kept eager here is not given back
        lazy.discard((v.module, v.line))
        later = by_key.get(v.relies_on)
        where = f"{later.file}:{later.line}" if later else f"line {v.relies_on[1]}"
        kept[(v.module, v.line)] = Reason(
            MOVED, v.file, v.line, f"lazily, the modules it runs first "
            f"({', '.join(sorted(v.closure)[:5])}) would run next at {where}, which the plan "
            "makes lazy too")


def _culprits(result: Result, lazy: set, by_path: dict, closures: dict, running: dict) -> set:
    """The statements to keep eager for a first import that the plan broke: the ones that
    ran the entry's module first in the package's own import (lazily the entry runs before
    what they ran ahead of it), else the lazy declarations on the failure's chain, else the
    statements that ran a module of the chain first, else the lazy ones each module of the
    chain reached before its line on it (they ran their modules before it, eagerly). The
    package's own import runs nothing in mode bare: there only the chain tells."""
    normal = result.mode != "bare"
    first = {stmt for stmt in running.get(result.entry, ()) if stmt in lazy} if normal else ()
    # the outermost of them: one inside a module another of them runs comes back with it
    first = {s for s in first if not any(s[0] in closures.get(o, ()) for o in first if o != s)}
    if first:
        return first
    chain = result.error.chain if result.error is not None else ()
    declared = {(by_path.get(f.file), f.line) for f in chain} & lazy
    if declared:
        return declared
    on_chain = {f.module for f in chain} | {result.entry}
    found = {stmt for module in on_chain for stmt in running.get(module, ()) if stmt in lazy} \
        if normal else set()
    if found:
        return found
    reached: dict[str, int] = {}  # module -> the last line of it on the chain
    for f in chain:
        module = by_path.get(f.file)
        if module is not None:
            reached[module] = max(reached.get(module, 0), f.line)
    return {(module, line) for module, line in lazy
            if module in reached and line < reached[module]}


def _reason(result: Result, program: Program) -> Reason:
    if result.error is None:
        info = program.index.get(result.entry)
        return Reason(FAILS, info.path if info else "", 1,
                      f"lazily, importing {result.entry} first ({result.mode}) becomes "
                      f"undecidable: {result.reason}")
    err = result.error
    where = err.chain[-1] if err.chain else None
    return Reason(FAILS, where.file if where else "", where.line if where else 1,
                  f"lazily, importing {result.entry} first ({result.mode}) fails: "
                  f"{err.exception}: {err.message}")


def loaded_modules(program: Program, entry: str) -> int:
    """How many analysed modules `import entry` (normal mode) runs."""
    _, trace = traced_run(program, entry, "normal")
    return len(ran_modules(trace))


def ran_modules(trace: list) -> set[str]:
    """The modules a traced run finished running."""
    return {module for event, module, _ in trace if event == "done"}


def filter_module(lazy: set, verdicts: list[StatementVerdict], packages) -> str:
    """The source of a small module that installs a `sys.set_lazy_imports_filter` keeping
    every import of the analysed packages eager except those the plan makes lazy."""
    keys = sorted({k for v in verdicts if (v.module, v.line) in lazy for k in _filter_keys(v)}
                  - {k for v in verdicts if (v.module, v.line) not in lazy
                     and v.statement.guard != "TYPE_CHECKING" for k in _filter_keys(v)},
                  key=repr)
    lines = ",\n".join(f"    {key!r}" for key in keys)
    return f'''"""Lazy imports for {", ".join(packages)}, as `importsafe lazy-plan` found them safe.

Call install() before importing the package, on Python 3.15 or later (PEP 810): every import
statement of the package stays eager except the ones listed, which the plan checked; imports
made by other code follow the global mode you choose (install sets "all").
"""
import sys

PACKAGES = {tuple(packages)!r}
# (importing module, imported module, names imported or None for `import m`)
LAZY = frozenset({{
{lines}
}})


def lazy_filter(importer, name, fromlist):
    if importer is None or importer.partition(".")[0] not in PACKAGES:
        return True
    return (importer, name, tuple(fromlist) if fromlist else None) in LAZY


def install(mode="all"):
    sys.set_lazy_imports_filter(lazy_filter)
    sys.set_lazy_imports(mode)
'''


def _filter_keys(v: StatementVerdict) -> list[tuple]:
    """What the filter is called with for the statement (once per module it names)."""
    stmt = v.statement
    if stmt.kind == "import":
        return [(v.module, m, None) for m in stmt.modules]
    return [(v.module, stmt.modules[0], tuple(n for n, _ in stmt.names))]
