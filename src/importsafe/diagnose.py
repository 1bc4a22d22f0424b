"""Outcomes -> diagnostics with stable codes (documented in docs/rules.md)."""
from __future__ import annotations

from dataclasses import dataclass

from .model import Diagnostic, Result


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    name: str
    severity: str
    summary: str


RULES: dict[str, Rule] = {r.code: r for r in (
    Rule("IS001", "syntax-error", "error", "a file does not parse"),
    Rule("IS002", "undecodable-source", "error", "a file is not valid text in its encoding"),
    Rule("IS003", "unreadable-path", "error", "a file or directory cannot be read"),
    Rule("IS004", "undecidable-outcome", "info",
         "the outcome depends on something static analysis cannot follow"),
    Rule("IS101", "import-from-partial-module", "error",
         "`from M import name` runs while M is partially initialised and has not bound name"),
    Rule("IS102", "attribute-of-partial-module", "error",
         "an attribute of a module is read at import time before the module has bound it"),
    Rule("IS103", "name-used-before-bound", "error",
         "a name is read at import time before anything bound it"),
    Rule("IS104", "module-not-found", "error", "an import names a module that does not exist"),
    Rule("IS105", "name-missing-from-module", "error",
         "`from M import name` against a module that never binds name in this order"),
    Rule("IS106", "module-fails-to-parse", "error", "a module on the import chain does not parse"),
    Rule("IS107", "import-error", "error", "another exception escapes the first import"),
    Rule("IS108", "side-effect-import-skipped-when-lazy", "warning",
         "an import whose name is never read: under PEP 810 lazy imports its module never "
         "runs"),
    Rule("IS201", "static-dynamic-disagreement", "error",
         "the static prediction and the real import disagree on (outcome, exception, module, "
         "name)"),
    Rule("IS202", "static-no-claim", "info",
         "static analysis answered unknown; the real import's outcome is shown"),
    Rule("IS203", "external-assumption", "info",
         "the real import fails because a module outside the source roots does not import or "
         "lacks a name, or a submodule of an extension module is missing, which static "
         "analysis assumes it does not (a static failure further along cannot be checked "
         "then)"),
    Rule("IS204", "import-timeout", "error", "the first import did not finish in time"),
    Rule("IS205", "import-crash", "error",
         "the interpreter died during the first import (signal or exit)"),
    Rule("IS206", "run-time-failure", "info",
         "the real import raised an exception of run-time values (configuration, environment, "
         "native libraries), which static analysis does not evaluate"),
)}


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
