"""One (entry, mode) replayed in full: which modules ran in which order, the import statement
that entered each, where it stopped, the name that was missing, and the cycle as one line.
Pure: works on the facts and a traced simulation."""
from __future__ import annotations

from dataclasses import dataclass

from ..model import Frame, Result
from .events import Import, ImportFrom, ModuleFacts, walk
from .simulate import traced_run
from .state import Program


@dataclass(frozen=True, slots=True)
class Step:
    """A module that started running, the statement that started it, and how it ended."""

    module: str
    file: str
    importer: Frame | None  # None for the entry itself
    outcome: str  # "done" | "failed" | "running" (on the chain when the error escaped)


@dataclass(frozen=True, slots=True)
class Explanation:
    result: Result
    steps: tuple[Step, ...]
    cycle: str | None  # "a -> b/__init__ -> c -> a", relative to the top-level package
    why: str | None  # why the missing name was not bound yet


def imports_at(facts: ModuleFacts | None, line: int) -> tuple[str, ...]:
    """The modules named by import statements on `line` of a module (any nesting)."""
    events = walk(facts.body, classes=True) if facts is not None else ()
    return tuple(ev.module for ev in events
                 if ev.__class__ in (Import, ImportFrom) and ev.line == line and ev.module)


def _short(name: str, top: str, packages: set[str]) -> str:
    """`pkg.a.b` -> `a.b` below the top-level package; packages as `a/__init__`."""
    rel = name[len(top) + 1:] if name.startswith(top + ".") else name
    return f"{rel}/__init__" if name in packages else rel


def cycle_line(result: Result, program: Program) -> str | None:
    """The import cycle that the failure closes, as one line ready to paste in a comment."""
    err = result.error
    if err is None or not err.chain:
        return None
    names = [f.module for f in err.chain]
    if err.module not in names:
        return None
    start = names.index(err.module)
    top = err.chain[0].module.partition(".")[0]
    packages = {n for n, i in program.index.items() if i.is_package}
    parts: list[str] = []
    for i in range(start, len(err.chain)):
        frame = err.chain[i]
        parts.append(_short(frame.module, top, packages))
        following = names[i + 1] if i + 1 < len(names) else err.module
        for target in imports_at(program.facts.get(frame.module), frame.line):
            if target != following and target.startswith(following + "."):
                parts.append(_short(target, top, set()))  # its package ran first
                break
    parts.append(_short(err.module, top, packages))
    # lazy mode: a read and the `lazy` statement it resolves are two steps of one module
    return " -> ".join(p for i, p in enumerate(parts) if i == 0 or p != parts[i - 1])


def why_not_bound(result: Result, program: Program) -> str | None:
    err = result.error
    if err is None or not err.name or not err.module:
        return None
    facts = program.facts.get(err.module)
    executing = next((f.line for f in err.chain if f.module == err.module), None)
    if facts is None:
        return None
    where = facts.binding_line(err.name)
    if where is None:
        sub = f"{err.module}.{err.name}"
        if sub in program.index:
            return (f"'{err.name}' is the submodule {sub}, which was not imported yet "
                    "(it is bound on its package only after it finishes)")
        return f"'{err.name}' is never bound at the top level of {err.module}"
    if executing is not None and where > executing:
        return (f"'{err.name}' is bound at line {where} of {err.module}, but {err.module} was "
                f"still at line {executing}, running the import that led here")
    if result.mode == "bare" and facts.is_package:
        return (f"'{err.name}' is bound at line {where} of the __init__ of {err.module}, which "
                "bare mode never runs")
    return f"'{err.name}' is bound at line {where} of {err.module}, which had not run yet"


def explain_entry(program: Program, entry: str, mode: str) -> Explanation:
    """Replay `import entry` in `mode` without the memo, keeping every step."""
    result, trace = traced_run(program, entry, mode)
    order: list[str] = []
    started: dict[str, tuple] = {}
    ended: dict[str, str] = {}
    for event, module, importer in trace:
        if event == "start":
            order.append(module)
            started[module] = importer
        else:
            ended[module] = "done" if event == "done" else "failed"
    steps = tuple(Step(m, program.index[m].path, started[m],
                       "running" if m not in ended else ended[m]) for m in order)
    return Explanation(result, steps, cycle_line(result, program),
                       why_not_bound(result, program))
