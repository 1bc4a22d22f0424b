"""Choose the smallest set of import edits that makes every requested (entry, mode) `ok`,
proven by re-simulating the edited code. Pure: source texts come in through `read_text`.

Greedy and verified: each round tries the safe edit of every import statement on the chains
of the pairs still failing (the statement that needed the name first, then the ones that
led there), re-simulates with each a sample of the failing pairs of every cycle, only those
whose run executed the edited module (a run that never created it cannot change), and
ranks the edits by the pairs they fix and the lines they move. The best edit, and the best
edit of every other cycle in another file, are then checked together against every pair
that reaches their modules: kept when together they repair what each repaired alone and
break nothing that worked (else the best alone is judged so), each dropped (unless unsafe
edits are allowed) when the compat check finds code it breaks. Test modules are edited only
when asked; without that, a last pass with them finds the pairs only a test edit would
repair.
Preference between equally good edits follows the order of the chain, then
defer-into-functions over TYPE_CHECKING over the combination.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..model import Result
from ..static.events import ModuleFacts
from ..static.facts import facts_from_source
from ..static.state import Program
from .workspace import Workspace
from .edits import (
    DEFER, DEFER_AND_TYPE_CHECKING, LAZY, MODULE_IMPORT, TYPE_CHECKING_ONLY, UNPARSABLE, Edit,
    NoEdit,
    edit_statement, lazy_edit, module_import_edit,
)

_PREFERENCE = {DEFER: 0, TYPE_CHECKING_ONLY: 1, DEFER_AND_TYPE_CHECKING: 2, LAZY: 3,
               MODULE_IMPORT: 4}
LAZY_SYNTAX = (3, 15)  # `lazy import` is valid Python from this version on
MAX_ROUNDS = 200


@dataclass(frozen=True, slots=True)
class FilePatch:
    module: str
    path: str
    old: str
    new: str
    edits: tuple[Edit, ...]
    cycles: tuple[str, ...] = ()  # per edit: the cycle it breaks
    unsafe: tuple[str, ...] = ()  # per edit: what it breaks ("" when nothing)


@dataclass(frozen=True, slots=True)
class Held:
    """An edit that would repair pairs but was not applied: why, and what it repairs."""

    module: str
    path: str
    edit: Edit
    why: tuple[str, ...]  # what it breaks; () for a test edit
    repairs: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class FixPlan:
    patches: tuple[FilePatch, ...]
    before: tuple[Result, ...]
    after: tuple[Result, ...]
    refused: tuple[tuple[str, int, str], ...]  # (file, line, why no safe edit)
    unsafe: tuple[Held, ...] = ()  # held back: they break code (see --unsafe-fixes)
    tests: tuple[Held, ...] = ()  # held back: test edits (see --include-tests)
    skipped: tuple[tuple[str, str], ...] = ()  # (file, why it is left alone)

    @property
    def complete(self) -> bool:
        return all(r.outcome == "ok" for r in self.after)


@dataclass(frozen=True, slots=True)
class Options:
    include_tests: bool = False
    unsafe: bool = False
    # (module, new text, workspace, check lost modules) -> what the edit breaks; () when
    # nothing
    compat: Callable | None = None


def is_test_module(name: str, path: str, suites: frozenset[str] = frozenset()) -> bool:
    """A module of a test suite: under a `tests` package or a package of `suites`, or named
    like pytest's files (`test` alone is often library code, as django.test is)."""
    parts = name.split(".")
    last = parts[-1]
    return "tests" in parts or last == "conftest" or last.startswith("test_") or \
        last.endswith("_test") or last.endswith("_tests") or \
        any(".".join(parts[:i]) in suites for i in range(1, len(parts) + 1))


def test_suites(names) -> frozenset[str]:
    """The packages named `test` or `testing` that hold pytest-named modules below them
    (executorch's exir/backend/test): their helper modules are test code too."""
    named = [n for n in names if is_test_module(n, "")]
    out = set()
    for n in named:
        parts = n.split(".")
        for i in range(1, len(parts)):
            if parts[i - 1] in ("test", "testing"):
                out.add(".".join(parts[:i]))
    return frozenset(out)


def _candidates(failing: list[Result], cycles_only: bool) -> list[tuple[str, int]]:
    """Import statements on the failing chains: the one that needed the name first; with
    `cycles_only`, only the statements of each chain's cycle (the ones a maintainer edits:
    a statement leading into the cycle rarely breaks it)."""
    seen: dict[tuple[str, int], None] = {}
    for r in failing:
        chain = r.error.chain if r.error else ()
        if cycles_only:
            modules = [f.module for f in chain]
            target = r.error.module
            chain = chain[modules.index(target):] if target in modules else ()
        for frame in reversed(chain):
            seen.setdefault((frame.file, frame.line))
    return list(seen)


def root_cause(r: Result) -> tuple:
    """The statement that failed and what it wanted: pairs alike in it fail alike."""
    e = r.error
    last = e.chain[-1] if e and e.chain else None
    return (last.file, last.line, e.exception, e.module, e.name) if last else \
        (None, None, e.exception if e else None, e and e.module, e and e.name)


def cycle_of(r: Result) -> str:
    """The import cycle on a failing chain (`a -> b -> a`), else the chain itself."""
    chain = [f.module for f in (r.error.chain if r.error else ())]
    target = r.error.module if r.error else None
    if target in chain:
        loop = chain[chain.index(target):] + [target]
    else:
        loop = chain
    out: list[str] = []
    for m in loop:
        if not out or out[-1] != m:
            out.append(m)
    return " -> ".join(out)


def plan_fix(program: Program, pairs: list[tuple[str, str]], read_text: Callable[[str], str],
             version=(3, 11), options: Options = Options()) -> FixPlan:
    ws = Workspace(program, read_text, version)
    suites = test_suites(program.index)
    ws.is_test = lambda m: is_test_module(m, program.index[m].path, suites)
    before = ws.start(pairs)
    refused: dict[tuple[str, int], str] = {}
    kept: dict[str, list] = {}  # module -> [(edit, cycle, unsafe why)]
    unsafe: list[Held] = []
    rejected: set[tuple[str, str]] = set()  # (module, new text) not to try again
    allow = (lambda m: True) if options.include_tests else (lambda m: not ws.is_test(m))
    _rounds(ws, pairs, allow, refused, rejected, options, kept, unsafe)
    tests: list[Held] = []
    if not options.include_tests and any(ws.state[p][0].outcome == "error" for p in pairs):
        tests = _test_only(ws, pairs, refused, rejected, options)
    after = tuple(ws.state[p][0] for p in pairs)
    _explain(ws, [r for r in after if r.outcome == "error"], refused)
    patches = tuple(FilePatch(m, program.index[m].path, read_text(program.index[m].path),
                              ws.texts[m], tuple(e for e, _, _ in es),
                              tuple(c for _, c, _ in es), tuple("; ".join(u) for _, _, u in es))
                    for m, es in sorted(kept.items()))
    return FixPlan(patches, tuple(before), after,
                   tuple((f, line, why) for (f, line), why in sorted(refused.items())),
                   tuple(unsafe), tuple(tests), tuple(sorted(ws.skipped.items())))


def _rounds(ws, pairs, allow, refused, rejected, options, kept, unsafe) -> None:
    for _ in range(MAX_ROUNDS):
        failing = [ws.state[p][0] for p in pairs if ws.state[p][0].outcome == "error"]
        if not failing:
            return
        choices = _best_edits(ws, failing, refused, rejected, allow)
        if not choices:
            return  # no edit helps any more
        batch = _safe_batch(ws, pairs, choices, rejected, options, unsafe)
        if batch is None:
            continue
        edits, runs = batch
        for module, edit, cycle, why in edits:
            kept.setdefault(module, []).append((edit, cycle, why))
        ws.commit_many({module: edit.new_text for module, edit, _, _ in edits}, runs)
        for module, _, _, _ in edits:
            path = ws.program.index[module].path  # its lines moved: judge its statements anew
            for k in [k for k in refused if k[0] == path]:
                del refused[k]


def _safe_batch(ws, pairs, choices, rejected, options, unsafe):
    """The edits to commit this round, with the runs that prove them: the best edit, and
    beside it the best of every other cycle (in other files) when together they repair what
    each repaired alone and break nothing that worked; None when the best edit is refused
    (it is then not tried again)."""
    def breaks(runs) -> bool:
        return any(ws.state[p][0].outcome == "ok" and r.outcome != "ok"
                   for p, (r, _) in runs.items())

    def judged(module, edit, runs, modules=True):
        """(cycle, compat why) of a kept edit, or None when it is refused."""
        why = tuple(options.compat(module, edit.new_text, ws, modules)) \
            if options.compat else ()
        repaired = [p for p, (r, _) in runs.items()
                    if ws.state[p][0].outcome == "error" and r.outcome == "ok"]
        if why and not options.unsafe:
            rejected.add((module, edit.new_text))
            unsafe.append(Held(module, ws.program.index[module].path, edit, why,
                               tuple(repaired)))
            return None
        return (cycle_of(ws.state[repaired[0]][0]) if repaired else ""), why

    independent, covered, modules = [], set(), set()
    for _, module, edit, fixed in choices:
        if module not in modules and not fixed & covered:
            independent.append((module, edit, fixed))
            covered |= fixed
            modules.add(module)
    if len(independent) > 1:
        runs = ws.run_many(pairs, {m: e.new_text for m, e, _ in independent})
        if not breaks(runs) and all(runs[p][0].outcome == "ok" for _, _, fixed in independent
                                    for p in fixed if p in runs):
            out = []
            reads = getattr(options.compat, "reads_lost", None)
            modules = reads is None or bool(reads({m: e.new_text for m, e, _ in independent},
                                                  ws))
            for module, edit, fixed in independent:
                verdict = judged(module, edit, {p: runs[p] for p in pairs
                                                if p in fixed and p in runs}, modules)
                if verdict is not None:
                    out.append((module, edit, *verdict))
            if len(out) == len(independent):
                return out, runs
            if out:  # some were refused: prove the rest together again
                runs = ws.run_many(pairs, {m: e.new_text for m, e, _, _ in out})
                if not breaks(runs):
                    return out, runs
            return None
    module, edit, _ = independent[0]
    runs = ws.run(pairs, module, edit.new_text)
    if breaks(runs):
        rejected.add((module, edit.new_text))
        return None
    verdict = judged(module, edit, runs)
    return None if verdict is None else ([(module, edit, *verdict)], runs)


def _test_only(ws, pairs, refused, rejected, options) -> list[Held]:
    """With test modules allowed, on a copy: the edits that would repair what is left."""
    trial = Workspace(ws.program, ws.read_text, ws.version)
    trial.texts, trial.facts, trial.state = dict(ws.texts), dict(ws.facts), dict(ws.state)
    trial._facts_memo, trial._edits, trial.skipped = ws._facts_memo, ws._edits, ws.skipped
    trial._moved, trial.is_test, trial._runs = ws._moved, ws.is_test, dict(ws._runs)
    trial._bodies_memo, trial._functions_memo = ws._bodies_memo, ws._functions_memo
    trial.log, trial._helps = list(ws.log), dict(ws._helps)
    kept: dict[str, list] = {}
    held: list[Held] = []
    # the other modules' statements were tried in this very state and did not help
    tests = ws.is_test
    failing = [ws.state[p][0] for p in pairs if ws.state[p][0].outcome == "error"]
    if not any(tests(f.module) for r in failing for f in r.error.chain if f.module in
               ws.program.index):
        return []
    _rounds(trial, pairs, tests, dict(refused), set(rejected), options, kept, held)
    out = []
    for module, edits in kept.items():
        if tests(module):
            for edit, _, _ in edits:
                out.append(Held(module, ws.program.index[module].path, edit, (), ()))
    fixed = tuple(p for p in pairs if ws.state[p][0].outcome == "error"
                  and trial.state[p][0].outcome == "ok")
    return [Held(h.module, h.path, h.edit, h.why, fixed) for h in out]


MAX_EXPLAINED = 12


def _explain(ws: Workspace, failing: list[Result], refused) -> None:
    """Why there is no safe edit, for the statements of the cycles still failing that were
    passed over because no edit of them could help (at most MAX_EXPLAINED: libcst's
    analysis of each file costs)."""
    todo = [c for c in _candidates(failing, cycles_only=True)
            if c in ws.unhelpful and c not in refused and c[0] not in ws.skipped]
    for path, line in todo[:MAX_EXPLAINED]:
        module = ws.by_path.get(path)
        text = ws.text(module) if module else None
        if text is None:
            continue
        edit = ws.edit(edit_statement, module, text, line)
        if isinstance(edit, NoEdit):
            refused[(path, line)] = edit.reason


def _best_edits(ws: Workspace, failing: list[Result], refused, rejected, allow):
    """The edits that repair failing pairs, best first (the most pairs with the fewest moved
    lines), among the statements of the cycles, else of the whole chains."""
    cycle = _candidates(failing, cycles_only=True)
    found = _scored(ws, failing, cycle, refused, rejected, allow)
    if not found:
        rest = [c for c in _candidates(failing, cycles_only=False) if c not in set(cycle)]
        found = _scored(ws, failing, rest, refused, rejected, allow)
    return sorted(found, key=lambda c: c[0])


SAMPLE = 3  # failing pairs per cycle that judge a candidate edit


def _sample(failing: list[Result]) -> dict[tuple[str, str], float]:
    """A few failing pairs of each cycle, weighted by how many pairs fail in that cycle: the
    pairs of one cycle fail for the same statements, so a few of them judge an edit as well
    as all (the kept edit is then simulated on every pair it reaches)."""
    groups: dict[tuple, list[tuple[str, str]]] = {}
    for r in failing:
        groups.setdefault(root_cause(r), []).append((r.entry, r.mode))
    out = {}
    for members in groups.values():
        taken = members[:SAMPLE]
        for p in taken:
            out[p] = len(members) / len(taken)
    return out


def _scored(ws: Workspace, failing: list[Result], candidates, refused, rejected, allow):
    """[(score, module, edit, the failing pairs it repairs)]: per statement, the preferred
    kind of edit first, the module-import form only when that does not help."""
    weights = _sample(failing)
    pairs = list(weights)
    every = [(r.entry, r.mode) for r in failing]
    found = []
    # file by file (each file's libcst analysis is kept while its statements are judged);
    # the chain order still ranks them
    for order, (path, line) in sorted(enumerate(candidates), key=lambda c: c[1][0]):
        module = ws.by_path.get(path)
        if module is None or (path, line) in refused or not allow(module) or \
                path in ws.skipped:
            continue
        text, reasons = ws.text(module), []
        if text is None:
            continue
        if not ws.could_help(every, module, line):
            ws.unhelpful.add((path, line))
            continue
        makers = (edit_statement, lazy_edit, module_import_edit) \
            if tuple(ws.version) >= LAZY_SYNTAX else (edit_statement, module_import_edit)
        for make in makers:
            edit = ws.edit(make, module, text, line)
            if isinstance(edit, NoEdit) and edit.reason.startswith(UNPARSABLE):
                ws.skipped[path] = edit.reason  # reported once, and the file left alone
                break
            if isinstance(edit, NoEdit):
                reasons.append(edit.reason)
                continue
            if (module, edit.new_text) in rejected:
                continue
            runs = ws.run(pairs, module, edit.new_text)
            repaired = {p for p, (r, _) in runs.items() if r.outcome == "ok"}
            fixed = sum(weights[p] for p in repaired)
            if not fixed:  # the sample may miss the pairs it repairs: ask the others
                rest = [p for p in every if p not in weights]
                repaired = {p for p, (r, _) in ws.run(rest, module, edit.new_text).items()
                            if r.outcome == "ok"}
                fixed = len(repaired)
            if not fixed:
                continue
            score = (-fixed, ws.is_test(module), ws.moved(text, edit.new_text),
                     order, _PREFERENCE[edit.kind])
            found.append((score, module, edit, frozenset(repaired)))
            break
        if len(reasons) == len(makers) and path not in ws.skipped:
            refused[(path, line)] = reasons[0]
    return found


def patched_program(program: Program, patches, version=(3, 11)) -> Program:
    """The program as it would be with the patches applied (function bodies included)."""
    texts = {p.module: p.new for p in patches}
    facts = dict(program.facts)
    for module, text in texts.items():
        info = program.index[module]
        facts[module] = facts_from_source(text, module, info.path, info.kind == "package",
                                          version, bodies=False, env=program.env)

    def bodies(name: str) -> ModuleFacts:
        if name in texts:
            info = program.index[name]
            return facts_from_source(texts[name], name, info.path, info.kind == "package",
                                     version, bodies=True, env=program.env)
        return program.load_bodies(name)

    return Program(program.index, facts, load_bodies=bodies, listings=program.listings,
                   target_version=program.target_version, env=program.env,
                   versions=program.versions)
