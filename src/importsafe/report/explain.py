"""Renderers for `importsafe explain`: text (rich) and a JSON document."""
from __future__ import annotations

from rich.console import Console
from rich.text import Text

from ..model import STRICT_KINDS
from ..static.explain import Explanation
from .json import _rel, result_dict
from .source import printable, source_line as _source_line


def to_dict(x: Explanation, base: str | None = None) -> dict:
    return {
        "schema": 1,
        "result": result_dict(x.result, base),
        "cycle": x.cycle,
        "why": x.why,
        "steps": [{"module": s.module, "file": _rel(s.file, base), "outcome": s.outcome,
                   "imported_by": None if s.importer is None else {
                       "module": s.importer.module, "file": _rel(s.importer.file, base),
                       "line": s.importer.line,
                       "source": _source_line(s.importer.file, s.importer.line)}}
                  for s in x.steps],
    }


_STYLE = {"done": "green", "failed": "bold red", "running": "yellow"}


def render(x: Explanation, console: Console, base: str | None = None) -> None:
    P = printable  # noqa: N806 - everything below comes from the analysed tree
    r = x.result
    verdict = "ok" if r.outcome == "ok" else (
        r.error.exception if r.error else f"unknown ({r.reason})")
    console.print(Text.assemble(("import ", "bold"), (P(r.entry), "bold cyan"), f"  [{r.mode}]",
                                "  ->  ", (P(verdict), "bold red" if r.outcome != "ok" else
                                           "bold green")))
    if x.cycle:
        console.print(Text.assemble("cycle: ", (P(x.cycle), "bold")))
    console.print("\nmodules run, in order:")
    for i, s in enumerate(x.steps, 1):
        via = "(the entry)" if s.importer is None else (
            f"{P(_rel(s.importer.file, base))}:{s.importer.line}  "
            f"{_source_line(s.importer.file, s.importer.line)}")
        console.print(Text.assemble(f"{i:4d}  ", (P(s.module), "cyan"), "  ",
                                    (s.outcome, _STYLE[s.outcome]), "  ", (via, "dim")))
    if r.error is not None and r.error.chain:
        chain = r.error.chain
        last = chain[-1]
        lazy = len(chain) > 1 and chain[-2].module == last.module  # a read, then its `lazy`
        stop = chain[-2] if lazy else last
        console.print(Text.assemble(
            "\nstopped at ", (f"{P(_rel(stop.file, base))}:{stop.line}", "bold"),
            "  ", _source_line(stop.file, stop.line)))
        if lazy:
            console.print(Text.assemble(
                "  resolving the lazy import at ",
                (f"{P(_rel(last.file, base))}:{last.line}", "bold"),
                "  ", _source_line(last.file, last.line)))
        console.print(Text(f"{P(r.error.exception)}: {P(r.error.message)}", style="red"))
    if x.why:
        console.print(Text.assemble("why: ", P(x.why)))
    strict = [a for a in r.assumes if a.kind in STRICT_KINDS]
    if strict:
        console.print("\nassumes (`--strict` makes these unknown):")
        for a in strict:
            if a.kind == "listing":
                console.print(Text.assemble(
                    "  the entries of ", (P(_rel(a.name, base)), "bold"), " come in the order "
                    "listed at check time, read at ", (f"{P(_rel(a.file, base))}:{a.line}",
                                                       "bold"), f"  ({P(a.why)})"))
                continue
            if a.kind == "super" or a.kind == "object":
                console.print(Text.assemble(
                    "  ", (P(a.name), "bold"), "() at ", (f"{P(_rel(a.file, base))}:{a.line}",
                                                         "bold"), f"  ({P(a.why)})"))
                continue
            if a.kind == "decorator":
                console.print(Text.assemble(
                    "  ", (P(a.name), "bold"), "() at ", (f"{P(_rel(a.file, base))}:{a.line}",
                                                         "bold"), " replayed as the class's own "
                    f"function  ({P(a.why)})"))
                continue
            console.print(Text.assemble(
                "  ", (P(a.name), "bold"), " is bound in ", (P(a.module), "cyan"),
                ", read at ", (f"{P(_rel(a.file, base))}:{a.line}", "bold"), f"  ({P(a.why)})"))
    ordinary = [a for a in r.assumes if a.kind not in STRICT_KINDS]
    if ordinary:
        console.print("\nassumes (the ordinary environment; `--env NAME=VALUE` sets a variable):")
        for a in ordinary:
            console.print(Text.assemble(
                "  ", (P(a.why), "bold"), ", read in ", (P(a.module), "cyan"), " at ",
                (f"{P(_rel(a.file, base))}:{a.line}", "bold")))
