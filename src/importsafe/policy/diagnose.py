"""Outcomes -> diagnostics with stable codes (documented in docs/rules/, rendered from rules.py)."""
from __future__ import annotations

import re
from typing import Mapping

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


# what made an outcome undecidable, as the simulator words it: the module the question was
# about, and what in it to point at (the binding of a name, or a `Dynamic` event's reason)
_UNDECIDABLE = (
    (re.compile(r"module '(?P<module>[^']+)' has a __getattr__ that may answer for"),
     "__getattr__"),
    (re.compile(r"the __getattr__ of module '(?P<module>[^']+)' asked for"), "__getattr__"),
    (re.compile(r"__all__ of '(?P<module>[^']+)' cannot be read"), "__all__"),
    (re.compile(r"__lazy_modules__ of '(?P<module>[^']+)' cannot be read"), "__lazy_modules__"),
    (re.compile(r"'(?P<module>[^']+)' may bind '.*' dynamically: (?P<why>.*)$"), None),
    (re.compile(r"'.*' may be bound dynamically in '(?P<module>[^']+)': (?P<why>.*)$"), None),
)


def unknown_site(result: Result, facts: Mapping) -> tuple[str, int] | None:
    """The file and line that made an `unknown` outcome undecidable, from its reason and the
    facts: the module's `__getattr__` or `__all__`, the construct that may bind names
    dynamically, the file that could not be read; else the entry's own first line."""
    reason = result.reason or ""
    for pattern, name in _UNDECIDABLE:
        m = pattern.match(reason)
        f = facts.get(m.group("module")) if m is not None else None
        if f is not None:
            line = f.binding_line(name) if name else _dynamic_line(f, m.group("why"))
            return f.path, line or 1
    for f in dict.values(facts):  # summaries suffice: path and problem
        if f.problem is not None and reason.startswith(f.path + ": "):
            return f.path, max(f.problem.line, 1)
    entry = dict.get(facts, result.entry)
    return (entry.path, 1) if entry is not None else None


def _dynamic_line(f, why: str) -> int | None:
    said = re.search(r"\(line (\d+)\)$", why)  # the simulator names the line
    if said:
        return int(said.group(1))
    from ..static.events import Dynamic, walk
    return next((ev.line for ev in walk(f.body, classes=True, functions=True)
                 if ev.__class__ is Dynamic and ev.reason == why), None)


def diagnose(results, facts, problems,
             unknown_at: Mapping[str, tuple[str, int]] | None = None
             ) -> tuple[Diagnostic, ...]:
    """One diagnostic per failure site (file, line, code), naming every (entry, mode) it
    breaks; one per unreadable file; one info per undecidable site, placed where
    unknown_site finds it (`unknown_at`: reason -> site, when there are no facts)."""
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
        if code == "IS004":
            file, line = unknown_site(first, facts) or (unknown_at or {}).get(
                first.reason, ("", 0))
            verdict = "the first import of " + broken + more + " cannot be decided statically"
        else:
            verdict = f"breaks first import of {broken}{more}"
        out.append(Diagnostic(rule.code, rule.name, rule.severity, file, line,
                              f"{what}; {verdict}", first.entry, first.mode))
    return tuple(sorted(out, key=lambda d: (d.file, d.line, d.code, d.message)))
