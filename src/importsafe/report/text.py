"""Human-readable report: each failing (entry, mode) with its error and chain (rich)."""
from __future__ import annotations

import linecache
import os

from rich.console import Console
from rich.text import Text

from ..model import Report, Result
from .json import _rel


MAX_SOURCE = 100


def _source_line(path: str, line: int) -> str:
    text = linecache.getline(path, line).strip() if path and line else ""
    return text if len(text) <= MAX_SOURCE else text[:MAX_SOURCE - 3] + "..."


def _result_lines(r: Result, base: str | None) -> list[Text]:
    label, style = {"error": ("FAIL ", "bold red"), "timeout": ("TIME ", "bold red"),
                    "crash": ("DIED ", "bold red")}.get(r.outcome, ("???? ", "bold yellow"))
    out = [Text.assemble((label, style), (r.entry, "bold"), f"  [{r.mode}]")]
    if r.error is None:
        out.append(Text(f"    {r.outcome}: {r.reason}", style=style.split()[-1]))
        return out
    e = r.error
    out.append(Text(f"    {e.exception}: {e.message}", style="red"))
    for i, f in enumerate(e.chain):
        arrow = "    " + ("  " * i) + ("-> " if i else "")
        src = _source_line(f.file, f.line)
        out.append(Text.assemble(arrow, (f.module, "cyan"),
                                 f"  {_rel(f.file, base)}:{f.line}", ("  " + src, "dim")))
    if e.defined_at is not None:
        path, line = e.defined_at
        src = _source_line(path, line)
        out.append(Text.assemble(f"    '{e.name}' is bound at ", (f"{_rel(path, base)}:{line}",
                                                                   "green"), ("  " + src, "dim")))
    return out


GROUP_IN_FULL = 3  # a failure site breaking more entries shows one chain and lists the rest


def _by_site(failing: list[Result]) -> list[list[Result]]:
    """Failures grouped by where they happen (file, line, exception, module, name), in order
    of first appearance; each group's shortest chain first."""
    groups: dict[tuple, list[Result]] = {}
    for r in failing:
        e = r.error
        site = (e.chain[-1].file, e.chain[-1].line, e.exception, e.module, e.name) \
            if e is not None and e.chain else (r.outcome, r.reason, r.entry, r.mode)
        groups.setdefault(site, []).append(r)
    return [sorted(g, key=lambda r: len(r.error.chain) if r.error else 0)
            for g in groups.values()]


def render(report: Report, console: Console, base: str | None = None,
           show_ok: bool = False) -> None:
    failing = [r for r in report.results if r.outcome != "ok" and r.waived is None]
    for group in _by_site(failing):
        shown = group if len(group) <= GROUP_IN_FULL else group[:1]
        for r in shown:
            for line in _result_lines(r, base):
                console.print(line, soft_wrap=True)
            console.print()
        if len(group) > len(shown):
            others = ", ".join(f"{r.entry} [{r.mode}]" for r in group[1:])
            console.print(Text.assemble((f"     ... and {len(group) - 1} more first imports fail "
                                         "at the same place: ", "red"), others),
                          soft_wrap=True)
            console.print()
    waived = [r for r in report.results if r.outcome != "ok" and r.waived is not None]
    for r in waived:  # one line each: they do not fail the run
        what = r.error.exception if r.error else r.outcome
        console.print(Text.assemble((f"{r.waived} ", "dim"), r.entry, f"  [{r.mode}]  ",
                                    (what, "dim")), soft_wrap=True)
    if waived:
        console.print()
    problems = [d for d in report.diagnostics
                if (d.code < "IS100" and d.code != "IS004") or d.severity == "warning"]
    for d in problems:
        console.print(Text(f"{_rel(d.file, base)}:{d.line}: {d.code} {d.name}: {d.message}",
                           style="yellow"), soft_wrap=True)
    for line in lazy_summary(report):
        console.print(Text(line, style="cyan"), soft_wrap=True)
    n_ok = sum(r.outcome == "ok" for r in report.results)
    n_err = sum(r.outcome in ("error", "timeout", "crash") for r in failing)
    n_unk = len(failing) - n_err
    kinds = [r.waived for r in waived]
    extra = "".join(f", {kinds.count(k)} {k}" for k in dict.fromkeys(kinds))
    entries = len({r.entry for r in report.results})
    modes = ",".join(dict.fromkeys(r.mode for r in report.results))
    style = "bold red" if n_err else "bold green"
    console.print(Text(f"{entries} entries x modes {modes}: {n_ok} ok, {n_err} failing, "
                       f"{n_unk} unknown{extra}", style=style))


def lazy_summary(report: Report) -> list[str]:
    """With mode `lazy` next to an eager mode: which entries failing eagerly work under PEP
    810 lazy imports, and which still fail (a name of the cycle is used while it runs)."""
    by_entry: dict[str, dict[str, str]] = {}
    for r in report.results:
        by_entry.setdefault(r.entry, {})[r.mode] = r.outcome
    if "lazy" not in {m for modes in by_entry.values() for m in modes} or \
            not any(set(modes) - {"lazy"} for modes in by_entry.values()):
        return []
    removed, remain = [], []
    for entry, modes in by_entry.items():
        eager = [m for m, outcome in modes.items() if m != "lazy" and outcome != "ok"]
        if modes.get("lazy") not in (None, "ok"):
            remain.append(entry)
        elif eager and modes.get("lazy") == "ok":
            removed.append(f"{entry} [{','.join(eager)}]")
    out = []
    if removed:
        out.append(f"lazy imports (PEP 810) remove {len(removed)}: " + ", ".join(removed))
    if remain:
        out.append(f"still failing under lazy imports {len(remain)}: " + ", ".join(remain))
    return out + ([""] if out else [])


def default_base() -> str:
    return os.getcwd()
