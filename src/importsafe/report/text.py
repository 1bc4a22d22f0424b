"""Human-readable report (rich): the failures by root cause, each shown once with its chain
and the count of first imports behind it; then what does not fail the run, the input
problems, and a summary that says what the modes mean. Lines are wrapped by rich at the
console's width; everything from the analysed tree is shown printable (source.py)."""
from __future__ import annotations

import os

from rich.console import Console
from rich.text import Text

from ..model import STRICT_KINDS, Report, Result
from .groups import Cause, causes, is_failing
from .json import _rel
from .source import binding_hint, printable, source_line

_source_line = source_line  # the name other modules import

LIST_AT_MOST = 8  # entries named after a cause's example; the rest are counted
MODE_MEANING = {
    "normal": "`import M` first, in a fresh interpreter",
    "bare": "M's packages are present but their `__init__` never ran (a real import runs "
            "them first)",
    "lazy": "PEP 810 lazy imports (`-X lazy_imports=all`)",
}
_LABEL = {"error": ("FAIL ", "bold red"), "timeout": ("TIME ", "bold red"),
          "crash": ("DIED ", "bold red"), "unknown": ("UNKNOWN ", "bold yellow")}


def _p(text) -> str:
    return printable(str(text))


def _where(path: str, line: int, base: str | None) -> str:
    return f"{_p(_rel(path, base))}:{line}"


def result_lines(r: Result, base: str | None, at: tuple[str, int] | None = None) -> list[Text]:
    """One result: its verdict, then the exception and the chain with each line's source,
    and where the missing name is bound; for an unknown, why and where (`at`)."""
    label, style = _LABEL.get(r.outcome, ("???? ", "bold yellow"))
    out = [Text.assemble((label, style), (_p(r.entry), "bold"), f"  [{r.mode}]")]
    if r.error is None:
        what = "cannot be decided statically" if r.outcome == "unknown" else r.outcome
        out.append(Text(f"    {what}: {_p(r.reason)}", style=style.split()[-1]))
        if at is not None and at[0]:
            out.append(Text.assemble("    at ", (_where(*at, base), "yellow"),
                                     ("  " + source_line(*at), "dim")))
        return out
    e = r.error
    out.append(Text(f"    {_p(e.exception)}: {_p(e.message)}", style="red"))
    for i, f in enumerate(e.chain):
        arrow = "    " + ("  " * i) + ("-> " if i else "")
        out.append(Text.assemble(arrow, (_p(f.module), "cyan"), f"  {_where(f.file, f.line, base)}",
                                 ("  " + source_line(f.file, f.line), "dim")))
    if e.defined_at is not None:
        path, line, said = binding_hint(e.name, *e.defined_at)
        out.append(Text.assemble(f"    {said} ", (_where(path, line, base), "green"),
                                 ("  " + source_line(path, line), "dim")))
    return out


def _named(results, skip: int = 1) -> str:
    rest = results[skip:]
    shown = ", ".join(f"{_p(r.entry)} [{r.mode}]" for r in rest[:LIST_AT_MOST])
    more = len(rest) - LIST_AT_MOST
    return shown + (f" and {more} more" if more > 0 else "")


def cause_lines(cause: Cause, base: str | None, at: tuple[str, int] | None) -> list[Text]:
    out = result_lines(cause.example, base, at)
    if cause.cycle is not None:
        ring = " -> ".join(_p(m) for m in (*cause.cycle, cause.cycle[0]))
        out.append(Text(f"    cycle: {ring}", style="bold"))
    n = len(cause.results) - 1
    if n:
        verb = "is undecidable" if cause.kind == "unknown" else "fails"
        if n > 1:
            verb = "are undecidable" if cause.kind == "unknown" else "fail"
        out.append(Text.assemble(
            (f"    {n} more first import{'s' * (n != 1)} {verb} the same way: ", "red"),
            _named(cause.results)))
    return out


def bare_parent_line(cause: Cause, base: str | None) -> Text:
    """One line for a cause bare mode alone creates: the entries read a name from a package
    above them, which bare mode leaves empty."""
    r = cause.example
    e = r.error
    package, name = _p(e.module), _p(e.name)
    n = len(cause.results)
    who = _p(r.entry) + (f" and {n - 1} more" if n > 1 else "")
    site = e.chain[-1]
    return Text.assemble(
        ("bare mode only: ", "bold yellow"), who,
        f" read{'s' * (n == 1)} {name} from {package}'s `__init__`, which bare mode never "
        "runs: ",
        (_where(site.file, site.line, base), "dim"), ("  " + source_line(site.file, site.line),
                                                      "dim"))


def unknown_sites(report: Report) -> dict[str, tuple[str, int]]:
    """reason -> where it was decided undecidable (from the IS004 diagnostics)."""
    by_pair = {(r.entry, r.mode): r for r in report.results}
    out = {}
    for d in report.diagnostics:
        r = by_pair.get((d.entry, d.mode)) if d.code == "IS004" else None
        if r is not None and r.reason is not None and d.file:
            out[r.reason] = (d.file, d.line)
    return out


def render(report: Report, console: Console, base: str | None = None,
           show_ok: bool = False) -> None:
    sites = unknown_sites(report)
    found = causes(report.results, sites)
    for cause in found:
        if cause.kind == "bare-parent":
            continue
        at = sites.get(cause.example.reason) if cause.kind == "unknown" else None
        for line in cause_lines(cause, base, at):
            console.print(line)
        console.print()
    bare = [c for c in found if c.kind == "bare-parent"]
    for cause in bare:
        console.print(bare_parent_line(cause, base))
    if bare:
        console.print()
    waived = [r for r in report.results if r.outcome != "ok" and r.waived is not None]
    for r in waived:  # one line each: they do not fail the run
        what = r.error.exception if r.error else r.outcome
        console.print(Text.assemble((f"{r.waived} ", "dim"), _p(r.entry), f"  [{r.mode}]  ",
                                    (_p(what), "dim")))
    if waived:
        console.print()
    for d in report.diagnostics:
        if d.entry is None or d.severity == "warning":
            where = f"{_where(d.file, d.line, base)}: " if d.file else ""
            console.print(Text(f"{where}{d.code} {d.name}: {_p(d.message)}", style="yellow"))
    for line in lazy_summary(report):
        console.print(Text(line, style="cyan"))
    for line in summary_lines(report, found, waived):
        console.print(line)


def summary_lines(report: Report, found: list[Cause], waived: list[Result]) -> list[Text]:
    modes = list(dict.fromkeys(r.mode for r in report.results))
    out = []
    explained = [m for m in modes if m != "normal" and m in MODE_MEANING]
    if explained:
        out.append(Text("; ".join(f"[{m}]: {MODE_MEANING[m]}" for m in explained), style="dim"))
    n_ok = sum(r.outcome == "ok" for r in report.results)
    failing = [r for r in report.results if is_failing(r)]
    n_unk = sum(r.outcome not in ("ok", "error", "timeout", "crash") and r.waived is None
                for r in report.results)
    bare_only = sum(len(c.results) for c in found if c.kind == "bare-parent")
    kinds = [r.waived for r in waived]
    extra = "".join(f", {kinds.count(k)} {k}" for k in dict.fromkeys(kinds))
    real = [c for c in found if c.kind not in ("bare-parent", "unknown")]
    why = f" ({bare_only} bare mode only)" if bare_only else ""
    causes_said = f"; {len(real)} root cause{'s' * (len(real) != 1)}" if real else ""
    if bare_only and bare_only == len(failing):
        why = " (all bare mode only)"
    assuming = [r for r in report.results if any(a.kind == "order" for a in r.assumes)]
    for kind, what in (("listing", "the order of a directory listing as read at check time"),
                       ("decorator", "class decorators taken to give the class back (its "
                                     "functions called at import time replayed)"),
                       ("super", "`super()` calls whose callee is not known, taken to import "
                                 "nothing"),
                       ("object", "methods whose work depends on their object's state (not "
                                  "followed), taken to import nothing")):
        resting_on = sum(any(a.kind == kind for a in r.assumes) for r in report.results)
        if resting_on:
            plural = "s rest" if resting_on != 1 else " rests"
            out.append(Text(f"{resting_on} result{plural} on {what}; `explain` shows them, "
                            "`--strict` makes them unknown", style="dim"))
    if assuming:
        names = dict.fromkeys(f"{a.module}.{a.name}" for r in assuming for a in r.assumes
                              if a.kind == "order")
        shown = ", ".join(_p(n) for n in list(names)[:LIST_AT_MOST])
        more = f" and {len(names) - LIST_AT_MOST} more" if len(names) > LIST_AT_MOST else ""
        plural = "s rest" if len(assuming) != 1 else " rests"
        out.append(Text(f"{len(assuming)} result{plural} on names taken as bound by the "
                        f"ordinary-order rule (bound dynamically, read after): {shown}{more}; "
                        "`explain` shows them, `--strict` makes them unknown", style="dim"))
    resting = [r for r in report.results if any(a.kind not in STRICT_KINDS
                                                for a in r.assumes)]
    if resting:
        names = dict.fromkeys(a.name for r in resting for a in r.assumes
                              if a.kind not in STRICT_KINDS)
        shown = ", ".join(_p(n) for n in list(names)[:LIST_AT_MOST])
        more = f" and {len(names) - LIST_AT_MOST} more" if len(names) > LIST_AT_MOST else ""
        plural = "s rest" if len(resting) != 1 else " rests"
        out.append(Text(f"{len(resting)} result{plural} on the ordinary environment "
                        f"(environment variables, installed versions and modules): "
                        f"{shown}{more}; "
                        "`explain` shows them, `--env NAME=VALUE` sets a variable",
                        style="dim"))
    entries = len({r.entry for r in report.results})
    out.append(Text(f"{entries} entries x modes {','.join(modes)}: {n_ok} ok, "
                    f"{len(failing)} failing{why}, {n_unk} unknown{extra}{causes_said}",
                    style="bold red" if failing else "bold green"))
    return out


def lazy_summary(report: Report) -> list[str]:
    """With mode `lazy` next to an eager mode: which entries failing eagerly work under PEP
    810 lazy imports, which still fail (a name of the cycle is used while it runs), and
    which cannot be decided under lazy imports."""
    by_entry: dict[str, dict[str, str]] = {}
    for r in report.results:
        by_entry.setdefault(r.entry, {})[r.mode] = r.outcome
    if "lazy" not in {m for modes in by_entry.values() for m in modes} or \
            not any(set(modes) - {"lazy"} for modes in by_entry.values()):
        return []
    removed, remain, undecided = [], [], []
    for entry, modes in by_entry.items():
        eager = [m for m, outcome in modes.items()
                 if m != "lazy" and outcome in ("error", "timeout", "crash")]
        lazy = modes.get("lazy")
        if lazy in ("error", "timeout", "crash"):
            remain.append(_p(entry))
        elif lazy not in (None, "ok"):
            undecided.append(_p(entry))
        elif eager and lazy == "ok":
            removed.append(f"{_p(entry)} [{','.join(eager)}]")
    out = []
    for label, names in (("lazy imports (PEP 810) remove", removed),
                         ("still failing under lazy imports", remain),
                         ("unknown under lazy imports", undecided)):
        if names:
            shown = ", ".join(names[:LIST_AT_MOST * 2])
            more = len(names) - LIST_AT_MOST * 2
            out.append(f"{label} {len(names)}: {shown}" + (f" and {more} more" if more > 0
                                                          else ""))
    return out + ([""] if out else [])


def default_base() -> str:
    return os.getcwd()
