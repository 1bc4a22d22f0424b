"""Outcomes -> diagnostics with stable codes (documented in docs/rules.md)."""
from __future__ import annotations

from ..model import Diagnostic, Result
from ..rules import RULES


def code_for(result: Result) -> str:
    err = result.error
    if err is None:
        return "IS004"
    if err.exception == "ImportError":
        return "IS101" if "partially initialized" in err.message else \
            ("IS105" if err.name else "IS107")
    if err.exception == "ImportCycleError":
        return "IS101"
    return {"AttributeError": "IS102", "NameError": "IS103", "ModuleNotFoundError": "IS104",
            "SyntaxError": "IS106"}.get(err.exception, "IS107")


def _site(result: Result) -> tuple[str, int]:
    if result.error and result.error.chain:
        last = result.error.chain[-1]
        return last.file, last.line
    return "", 0


def group_key(result: Result) -> tuple:
    """What failure diagnostics are grouped by: (file, line, code, module or reason, name)."""
    return (*_site(result), code_for(result),
            result.error.module if result.error else result.reason,
            result.error.name if result.error else None)


def diagnose(results, facts, problems) -> tuple[Diagnostic, ...]:
    """One diagnostic per failure site (file, line, code), naming every (entry, mode) it
    breaks; one per unreadable file; one info per undecidable site."""
    out: list[Diagnostic] = []
    for f in dict.values(facts):  # summaries suffice: a LazyFacts loads nothing for them
        if f.problem is not None:
            rule = RULES[f.problem.code]
            out.append(Diagnostic(rule.code, rule.name, rule.severity, f.path, f.problem.line,
                                  f.problem.message))
    for path, line, code, message in problems:
        rule = RULES[code]
        out.append(Diagnostic(rule.code, rule.name, rule.severity, path, line, message))
    sites: dict[tuple, list[Result]] = {}
    for r in results:
        if r.outcome == "ok":
            continue
        sites.setdefault(group_key(r), []).append(r)
    for (file, line, code, _, _), group in sites.items():
        rule = RULES[code]
        first = group[0]
        what = first.error.message if first.error else first.reason
        broken = ", ".join(f"{r.entry} ({r.mode})" for r in group[:6])
        more = f" and {len(group) - 6} more" if len(group) > 6 else ""
        out.append(Diagnostic(rule.code, rule.name, rule.severity, file, line,
                              f"{what}; breaks first import of {broken}{more}",
                              first.entry, first.mode))
    return tuple(sorted(out, key=lambda d: (d.file, d.line, d.code, d.message)))
