"""Renderers for `importsafe fix`: the plan in words, the unified diff, the consequences."""
from __future__ import annotations

import difflib

from rich.console import Console
from rich.text import Text

from .json import _rel

_KIND = {"defer-into-functions": "defer into {functions}",
         "move-under-TYPE_CHECKING": "move under `if TYPE_CHECKING:`",
         "defer-and-TYPE_CHECKING": "defer into {functions}, and keep it under "
                                    "`if TYPE_CHECKING:` for annotations",
         "import-module-use-attributes": "import the module itself and read the names "
                                         "as its attributes where they are used",
         "make-lazy": "make it a PEP 810 `lazy` import (Python 3.15+): it runs when a name "
                      "is first read"}


def diff(outcome, base: str | None = None) -> str:
    out = []
    for p in outcome.plan.patches:
        name = _rel(p.path, base)
        out.extend(difflib.unified_diff(p.old.splitlines(True), p.new.splitlines(True),
                                        f"a/{name}", f"b/{name}"))
    return "".join(out)


def lost_lines(lost) -> list[str]:
    return [f"`import {package}` no longer loads {', '.join(modules)}; code that reads "
            f"{'it' if len(modules) == 1 else 'them'} as an attribute after "
            f"`import {package}` must import {'it' if len(modules) == 1 else 'them'} itself"
            for package, modules in lost]


def hidden_lines(hidden, lost, base: str | None) -> list[str]:
    """Reads of `pkg.sub` by code that never imports it; marked when the fix breaks them."""
    gone = {m for _, modules in lost for m in modules}
    return [f"{_rel(file, base)}:{line}: {reader} reads {sub} without importing it"
            + (" (breaks after this fix)" if sub in gone else "")
            for file, line, reader, sub in hidden]


def render_compat(outcome, hidden, console: Console, base: str | None = None) -> None:
    lines = lost_lines(outcome.lost) + hidden_lines(hidden, outcome.lost, base)
    if not outcome.plan.patches:
        lines.insert(0, "no fix needed or possible, so no module stops being loaded")
    for line in lines:
        console.print(Text("compat: " + line, style="magenta"), soft_wrap=True)


def _how(e) -> str:
    return _KIND[e.kind].format(functions=", ".join(f"{f}()" for f in e.functions))


def _held(plan, console: Console, base: str | None) -> None:
    """Edits that would repair pairs but were not applied, and why."""
    for h in plan.unsafe:
        console.print(Text.assemble(("unsafe fix ", "bold yellow"),
                                    (f"{_rel(h.path, base)}:{h.edit.line}", "cyan"),
                                    f"  {', '.join(h.edit.names)}: {_how(h.edit)}; "
                                    f"repairs {len(h.repairs)} (entry, mode), breaks: "
                                    + "; ".join(_rel_why(w, base) for w in h.why)),
                      soft_wrap=True)
    if plan.unsafe:
        n = len(plan.unsafe)
        console.print(Text(f"{n} fix{'es' * (n != 1)} available with --unsafe-fixes",
                           style="yellow"))
    for h in plan.tests:
        console.print(Text.assemble(("test edit ", "bold yellow"),
                                    (f"{_rel(h.path, base)}:{h.edit.line}", "cyan"),
                                    f"  {', '.join(h.edit.names)}: {_how(h.edit)}"),
                      soft_wrap=True)
    if plan.tests:
        pairs = sorted({p for h in plan.tests for p in h.repairs})
        console.print(Text(f"{len(pairs)} (entry, mode) only a test edit would repair (with "
                           "--include-tests): " + ", ".join(f"{e} [{m}]" for e, m in pairs),
                           style="yellow"), soft_wrap=True)


def _rel_why(why: str, base: str | None) -> str:
    file, sep, rest = why.partition(":")
    return f"{_rel(file, base)}{sep}{rest}" if sep else why


def render(outcome, console: Console, base: str | None = None, show_diff: bool = True,
           hidden=()) -> None:
    plan = outcome.plan
    failing = [r for r in plan.after if r.outcome != "ok"]
    for path in outcome.restored:
        console.print(Text(f"restored {_rel(path, base)}: an interrupted earlier write had "
                           "left it changed", style="yellow"), soft_wrap=True)
    for file, why in plan.skipped:
        console.print(Text(f"left alone: {_rel(file, base)}: {why}", style="yellow"),
                      soft_wrap=True)
    for p in plan.patches:
        for i, e in enumerate(p.edits):
            cycle = p.cycles[i] if i < len(p.cycles) else ""
            broken = p.unsafe[i] if i < len(p.unsafe) else ""
            console.print(Text.assemble(
                ("edit ", "bold"), (f"{_rel(p.path, base)}:{e.line}", "cyan"),
                f"  {', '.join(e.names)}: {_how(e)}",
                f" (breaks the cycle {cycle})" if cycle else "",
                ("  [unsafe: " + broken + "]", "bold red") if broken else ""), soft_wrap=True)
    _held(plan, console, base)
    if show_diff and plan.patches:
        console.print(diff(outcome, base), highlight=False, markup=False, soft_wrap=True,
                      end="")
    for file, line, why in plan.refused if failing else ():
        console.print(Text(f"no safe edit for {_rel(file, base)}:{line}: {why}", style="yellow"),
                      soft_wrap=True)
    gone = {m for _, modules in outcome.lost for m in modules}
    for line in lost_lines(outcome.lost) + hidden_lines(
            [h for h in hidden if h[3] in gone], outcome.lost, base):
        console.print(Text("compat: " + line, style="magenta"), soft_wrap=True)
    before = sum(r.outcome != "ok" for r in plan.before)
    if outcome.problem:
        console.print(Text(outcome.problem, style="bold red"), soft_wrap=True)
    elif outcome.written:
        console.print(Text(f"wrote {len(outcome.written)} file(s), re-parsed and re-simulated",
                           style="green"))
    style = "bold green" if not failing else "bold red"
    console.print(Text(f"{before} failing (entry, mode) before, {len(failing)} after "
                       f"({len(plan.after)} checked)", style=style))
    for r in failing:
        console.print(Text(f"  still failing: {r.entry} [{r.mode}] "
                           f"{r.error.exception if r.error else r.reason}", style="red"),
                      soft_wrap=True)
