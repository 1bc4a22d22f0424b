"""What a fix changes for code that relies on import side effects (pure).

- `lost_modules`: for each package, the modules that `import package` (normal mode) loaded
  before the fix and no longer loads after it;
- `hidden_submodule_reads`: places that read `pkg.sub.attr` although the reading module never
  imports `pkg.sub` itself: they only work because some other import loaded it.
"""
from __future__ import annotations

from ..static.events import Call, ClassBody, Def, If, Import, ImportFrom, Try, Use, walk
from ..static.simulate import traced_run
from ..static.state import Program


def loaded_by(program: Program, entry: str) -> set[str]:
    """Every analysed module that `import entry` (normal mode) runs."""
    _, trace = traced_run(program, entry, "normal")
    return {module for event, module, _ in trace if event == "done"}


def lost_modules(before: Program, after: Program, packages) -> list[tuple[str, tuple[str, ...]]]:
    out = []
    for package in packages:
        lost = loaded_by(before, package) - loaded_by(after, package)
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
