"""What a fix changes for code that relies on import side effects (pure).

- `lost_modules`: for each package, the modules that `import package` (normal mode) loaded
  before the fix and no longer loads after it;
- `hidden_submodule_reads`: places that read `pkg.sub.attr` although the reading module never
  imports `pkg.sub` itself: they only work because some other import loaded it;
- `Breakage`: the planner's check of one edit against both, and against `from M import name`
  of a name the edit stops binding.
"""
from __future__ import annotations

import re
from typing import Callable

from ..static.events import Call, ClassBody, Def, If, Import, ImportFrom, Try, Use, walk
from ..static.simulate import simulate_modules, traced_run
from ..static.state import Program


def loaded_by(program: Program, entry: str) -> set[str]:
    """Every analysed module that `import entry` (normal mode) runs."""
    _, trace = traced_run(program, entry, "normal")
    return {module for event, module, _ in trace if event == "done"}


def loaded_after(program: Program, entry: str) -> set[str]:
    """The analysed modules in sys.modules after `import entry` (normal mode): from the
    memoised simulation's end state when the import succeeds, else replayed with a trace."""
    _, _, after = simulate_modules(entry, "normal", program)
    if after is None:
        return loaded_by(program, entry)
    return {m for m in after.modules if m in program.index}


def lost_modules(before: Program, after: Program, packages, edited=None
                 ) -> list[tuple[str, tuple[str, ...]]]:
    """Per package, the modules its import loads before and not after; with `edited` (the
    modules whose text differs), only packages whose import runs one of them can differ."""
    out = []
    for package in packages:
        loaded = loaded_after(before, package)
        if edited is not None and not loaded & set(edited):
            continue
        lost = loaded - loaded_after(after, package)
        if lost:
            out.append((package, tuple(sorted(lost))))
    return out


def _imports_in(events) -> set[str]:
    """Modules imported directly in `events` (not in nested function bodies)."""
    out: set[str] = set()
    for ev in walk(events, classes=True):
        if ev.__class__ is Import:
            out.add(ev.module)
        elif ev.__class__ is ImportFrom and ev.module:
            out.add(ev.module)
            out.update(f"{ev.module}.{n}" for n, _ in ev.names if n != "*")
    return out


def _uses(events, available: set[str]):
    """(read with attributes, the modules imported where it runs: module level, plus the
    enclosing function's own imports)."""
    stack = [(ev, available) for ev in events]
    while stack:
        ev, known = stack.pop()
        cls = ev.__class__
        if cls in (Use, Call) and ev.attrs:
            yield ev, known
        elif cls is Def and ev.func is not None and ev.func.body:
            inner = known | _imports_in(ev.func.body)
            stack.extend((x, inner) for x in ev.func.body)
        elif cls is ClassBody:
            stack.extend((x, known) for x in ev.body)
        elif cls is If:
            stack.extend((x, known) for x in (*ev.body, *ev.orelse))
        elif cls is Try:
            stack.extend((x, known) for x in (*ev.body, *ev.orelse, *ev.final,
                                              *(y for h in ev.handlers for y in h.body)))


def hidden_submodule_reads(program: Program, full_facts) -> list[tuple[str, int, str, str]]:
    """(file, line, reader module, submodule) for every `pkg.sub...` read where the code
    that reads it never imports `pkg.sub` (at module level or in the same function);
    `full_facts` must include function bodies."""
    out = set()
    for module, facts in full_facts.items():
        for ev, imported in _uses(facts.body, _imports_in(facts.body)):
            if ev.name not in program.tops:
                continue
            dotted = ev.name
            for attr in ev.attrs:
                dotted = f"{dotted}.{attr}"
                if dotted not in program.index:
                    break
                if not any(i == dotted or i.startswith(dotted + ".") for i in imported):
                    out.add((facts.path, ev.line, module, dotted))
                    break
    return sorted(out)


def importers_of(full_facts) -> dict[tuple[str, str], list[tuple[str, int, str]]]:
    """(module, name) -> where another module does `from module import name` (any depth)."""
    out: dict[tuple[str, str], list[tuple[str, int, str]]] = {}
    for reader, facts in full_facts.items():
        for ev in walk(facts.body, classes=True, functions=True):
            if ev.__class__ is ImportFrom and ev.module and ev.module != reader:
                for name, _ in ev.names:
                    out.setdefault((ev.module, name), []).append((facts.path, ev.line, reader))
    return out


def _words(words) -> tuple:
    encoded = [w.encode() for w in words]
    return (encoded, re.compile(rb"\b(?:" + b"|".join(map(re.escape, encoded)) + rb")\b"),
            lambda pattern, data: pattern.search(data) is not None)


def _outside_imports(pattern: re.Pattern, data: bytes) -> bool:
    """A match on a line that is not an import statement alone (most mentions of a dotted
    module name are the imports of it, which read nothing)."""
    return any(not _import_line(data, match) for match in pattern.finditer(data))


def _import_line(data: bytes, match: re.Match) -> bool:
    start = data.rfind(b"\n", 0, match.start()) + 1
    end = data.find(b"\n", match.end())
    line = data[start:end if end >= 0 else len(data)]
    return line.lstrip().startswith((b"from ", b"import ")) and b";" not in line


class Breakage:
    """What an edit breaks for code that relies on import side effects: reads of a module
    `import package` no longer loads, imports of a name the edited module no longer binds.
    Called by the planner as `(module, new text, workspace) -> [what breaks]`. Only the
    modules whose source mentions the lost module's or name's last part can read it, so
    only theirs are analysed with function bodies (`source(path) -> bytes`), once each."""

    def __init__(self, program: Program, packages, source: Callable[[str], bytes]):
        self.program = program
        self.packages = tuple(packages)
        self._source = source
        # package -> [(text of each module its run created, what it loaded)]
        self._runs: dict[str, list] = {}
        self._hidden: dict[str, list] = {}  # module -> its hidden submodule reads
        self._importers: dict[str, dict] = {}  # module -> its importers_of

    def _mentioning(self, *patterns: tuple) -> list[str]:
        """The modules whose source matches every one of `patterns`: (words a match holds,
        tried first as a plain search is far cheaper; a pattern; how to match it)."""
        found = []
        for name, info in self.program.index.items():
            if info.kind not in ("module", "package") or not info.path:
                continue
            try:
                data = self._source(info.path)
            except OSError:
                continue
            if all(any(w in data for w in words) and test(p, data)
                   for words, p, test in patterns):
                found.append(name)
        return found

    def _per_module(self, memo: dict, module: str, analyse, ws):
        if module not in memo:
            memo[module] = analyse({module: ws.base_bodies(module)})
        return memo[module]

    def loaded(self, package: str, ws, overlay: dict[str, str]) -> set[str]:
        """The modules `import package` loads with the edits made so far and `overlay`: a
        run is reused while every module it created has the same text."""
        texts = {**ws.texts, **overlay}
        runs = self._runs.setdefault(package, [])
        for deps, found in runs:
            if all(texts.get(m) is t or texts.get(m) == t for m, t in deps.items()):
                return found
        program = ws.program_with(overlay)
        _, created, after = simulate_modules(package, "normal", program)
        found = loaded_by(program, package) if after is None else \
            {m for m in after.modules if m in program.index}
        runs.append(({m: texts.get(m) for m in created}, found))
        return found

    def lost(self, texts: dict[str, str], ws) -> dict[str, str]:
        """lost module -> a package whose import no longer loads it, with `texts` edited."""
        gone: dict[str, str] = {}
        for package in self.packages:
            state = ws.state.get((package, "normal"))
            if state is not None and not any(m in state[1] for m in texts):
                continue  # its import never runs an edited module
            now = self.loaded(package, ws, {})
            if not any(m in now for m in texts):
                continue
            for lost in sorted(now - self.loaded(package, ws, texts)):
                gone.setdefault(lost, package)
        return gone

    def reads_lost(self, texts: dict[str, str], ws) -> list[str]:
        """Reads of a module that `import package` no longer loads with `texts` edited.
        Edits only move imports later, so a set of edits loses every module one of them
        loses: when together they break no read, none of them does."""
        gone = self.lost(texts, ws)
        if not gone:
            return []
        # a read of pkg.sub.attr spells the dotted name (spaces around the dots aside)
        dotted = ([m.rpartition(".")[2].encode() for m in gone], re.compile(b"|".join(
            rb"\s*\.\s*".join(re.escape(p.encode()) for p in m.split(".")) for m in gone)),
            _outside_imports)
        reads = lambda f: hidden_submodule_reads(self.program, f)  # noqa: E731
        hidden = sorted(read for reader in self._mentioning(dotted)
                        for read in self._per_module(self._hidden, reader, reads, ws))
        return [f"{file}:{line}: {reader} reads {sub}, which `import {gone[sub]}` no longer "
                "loads" for file, line, reader, sub in hidden if sub in gone]

    def __call__(self, module: str, text: str, ws, modules: bool = True) -> list[str]:
        """What the edit breaks; without `modules`, the lost modules are known to be read
        by nothing (reads_lost of a batch that holds the edit)."""
        out = self.reads_lost({module: text}, ws) if modules else []
        before = {n for n, _ in self.program.facts[module].bindings}
        now = {n for n, _ in ws.facts_for(module, text, bodies=False).bindings}
        lost_names = sorted(before - now)
        if lost_names:
            # `from M import name` spells name and, but for `from . import name` of a
            # package, M's last part
            words = [_words(lost_names)]
            if self.program.index[module].kind != "package":
                words.append(_words([module.rpartition(".")[2]]))
            importers = [self._per_module(self._importers, reader, importers_of, ws)
                         for reader in self._mentioning(*words)]
            for name in lost_names:
                for found in importers:
                    for file, line, reader in found.get((module, name), ()):
                        out.append(f"{file}:{line}: {reader} imports {name} from {module}, "
                                   "which no longer binds it at import time")
        return out
