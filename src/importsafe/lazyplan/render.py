"""The lazy-import plan as JSON (schema 1) and as text."""
from __future__ import annotations

import difflib

from ..report.json import _rel
from .plan import LISTED, listed_modules

SCHEMA = 1


def _reason(r, base) -> dict:
    out = {"code": r.code, "file": _rel(r.file, base), "line": r.line, "message": r.message}
    if r.reader is not None:
        out["reader"] = {"file": _rel(r.reader[0], base), "line": r.reader[1]}
    return out


def _statement(v) -> str:
    stmt = v.statement
    names = ", ".join(n + (f" as {a}" if a else "") for n, a in stmt.names)
    if stmt.kind == "import":
        return "import " + names
    return f"from {stmt.written or stmt.modules[0]} import {names}"


def to_dict(plan, base: str | None) -> dict:
    entries_failing = sorted({e for (e, m), r in plan.base.items()
                              if m == "lazy" and r.outcome == "error"
                              and plan.base[(e, "normal")].outcome == "ok"})
    return {
        "schema": SCHEMA,
        "imports": [{"file": _rel(v.file, base), "line": v.line, "module": v.target,
                     "statement": _statement(v), "lazy_safe": v.lazy_safe,
                     "alone": v.alone,
                     "in_plan": (v.module, v.line) in plan.lazy,
                     "reasons": [_reason(r, base) for r in v.reasons]}
                    for v in plan.statements],
        "modules": {name: {"eager": mv.eager, "reasons": [_reason(r, base) for r in mv.reasons]}
                    for name, mv in sorted(plan.modules.items())},
        "plan": {
            "target_version": ".".join(map(str, plan.target_version)),
            "style": plan.style,
            "statements": len(plan.lazy),
            "files": [_rel(p.path, base) for p in plan.patches],
            "checked": {"entries": len({e for e, _ in plan.after}),
                        "modes": sorted({m for _, m in plan.after}),
                        "broken": [f"{e} [{m}]" for e, m in plan.broken]},
            "lazy_mode_today": entries_failing,
            "lazy_mode_unknown": sorted(e for (e, m), r in plan.base.items()
                                        if m == "lazy" and r.outcome == "unknown"),
            "benefit": [{"entry": b.entry, "modules_eager": b.eager, "modules_lazy": b.lazy}
                        for b in plan.benefit],
            "written": [_rel(p, base) for p in plan.written],
            "filter": _rel(plan.filter_written, base) if plan.filter_written else None,
            "problem": plan.problem,
        },
        "assumes": {name: list(calls) for name, calls in sorted(plan.assumed.items())},
    }


def render_text(plan, console, base: str | None, verbose: bool = False,
                show_diff: bool = False) -> None:
    from rich.text import Text
    unsafe = [v for v in plan.statements if not v.lazy_safe]
    for v in unsafe:
        console.print(Text.assemble(("eager ", "bold yellow"),
                                    (f"{_rel(v.file, base)}:{v.line}", "cyan"),
                                    f"  {_statement(v)}"), soft_wrap=True)
        for r in v.reasons:
            console.print(Text(f"    {r.code} {_rel(r.file, base)}:{r.line}: {r.message}"),
                          soft_wrap=True)
    if verbose:
        for v in plan.statements:
            if v.lazy_safe:
                console.print(Text.assemble(("lazy  ", "green"),
                                            (f"{_rel(v.file, base)}:{v.line}", "cyan"),
                                            f"  {_statement(v)}"), soft_wrap=True)
    eager = sorted(n for n, mv in plan.modules.items() if mv.eager)
    if eager:
        console.print(Text(f"modules that must load eagerly ({len(eager)}):", style="bold"))
        for name in eager:
            first = plan.modules[name].reasons[0]
            more = len(plan.modules[name].reasons) - 1
            console.print(Text(f"  {name}: {first.code} {_rel(first.file, base)}:{first.line}: "
                               f"{first.message}" + (f" (+{more} more)" if more else "")),
                          soft_wrap=True)
    if show_diff:
        for p in plan.patches:
            console.print("".join(difflib.unified_diff(
                p.old.splitlines(True), p.new.splitlines(True), _rel(p.path, base),
                _rel(p.path, base))), highlight=False, markup=False, soft_wrap=True, end="")
    _summary(plan, console, base)


def _summary(plan, console, base) -> None:
    from rich.text import Text
    total, safe = len(plan.statements), sum(v.lazy_safe for v in plan.statements)
    console.print(Text(f"{total} module-level imports PEP 810 can make lazy: {safe} lazy-safe, "
                       f"{total - safe} must stay eager", style="bold"))
    today = sorted({e for (e, m), r in plan.base.items() if m == "lazy" and r.outcome == "error"
                    and plan.base[(e, "normal")].outcome == "ok"})
    if today:
        fixed = [e for e in today if plan.after.get((e, "normal")) is not None
                 and plan.after[(e, "normal")].outcome == "ok"]
        console.print(Text(f"under -X lazy_imports=all today, {len(today)} first import(s) "
                           f"fail: {', '.join(today[:5])}{', ...' if len(today) > 5 else ''}; "
                           f"with the plan (or --filter) {len(fixed)} of them work",
                           style="yellow"), soft_wrap=True)
    unknown = [r for (e, m), r in plan.base.items() if m == "lazy" and r.outcome == "unknown"]
    if unknown:
        console.print(Text(f"under -X lazy_imports=all today, {len(unknown)} first import(s) "
                           f"are not decided statically: {unknown[0].reason}", style="yellow"),
                      soft_wrap=True)
    how = "`__lazy_modules__` lists" if plan.style == LISTED else "`lazy` statements"
    entries = len({e for e, _ in plan.after})
    broken = plan.broken
    console.print(Text(f"plan: {len(plan.lazy)} statements lazy in {_files(plan)} files, "
                       f"as {how} (target {'.'.join(map(str, plan.target_version))}); "
                       f"re-simulated {entries} entries in modes normal, bare, lazy: "
                       + ("nothing that works today fails" if not broken else
                          f"{len(broken)} break"), style="bold red" if broken else "green"),
                  soft_wrap=True)
    for b in plan.benefit:
        console.print(Text(f"import {b.entry}: {b.eager} -> {b.lazy} modules of the package "
                           "run (static)"), soft_wrap=True)
    if plan.problem:
        console.print(Text(plan.problem, style="bold red"), soft_wrap=True)
    if plan.written:
        console.print(Text(f"wrote {len(plan.written)} file(s)", style="green"))
    if plan.filter_written:
        console.print(Text(f"wrote the filter module {_rel(plan.filter_written, base)}",
                           style="green"))


def _files(plan) -> int:
    """How many files the plan changes (its edits, when they were made)."""
    if plan.patches or not plan.lazy:
        return len(plan.patches)
    if plan.style == LISTED:
        lazy = {key for key in plan.lazy if key[0] not in plan.unlisted}
        return len(listed_modules(list(plan.statements), lazy))
    return len({module for module, _ in plan.lazy})


def json_text(doc: dict) -> str:
    """The JSON document with one import record, and one module, per line: as readable as
    `indent=2` and written by json's C encoder (`indent` selects the pure-Python one, a
    tenth of django's plan)."""
    import json
    dumps = json.JSONEncoder(ensure_ascii=True, separators=(", ", ": ")).encode
    lines = ["{"]
    for key, value in doc.items():
        if key == "imports" and value:
            items = ",\n".join("    " + dumps(v) for v in value)
            lines.append(f"  {dumps(key)}: [\n{items}\n  ],")
        elif key == "modules" and value:
            items = ",\n".join(f"    {dumps(k)}: {dumps(v)}" for k, v in value.items())
            lines.append(f"  {dumps(key)}: {{\n{items}\n  }},")
        else:
            lines.append(f"  {dumps(key)}: {dumps(value)},")
    lines[-1] = lines[-1][:-1]
    return "\n".join(lines) + "\n}"
