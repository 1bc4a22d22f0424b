"""`--statistics`: how many diagnostics each rule has, and how many first imports they stand
for, instead of the report (ruff's flag of the same name)."""
from __future__ import annotations

import json

from ..model import Report
from ..policy.diagnose import code_for
from ..rules import RULES


def counts(report: Report) -> list[dict]:
    """One record per rule with at least one diagnostic: code, name, count (diagnostics)
    and first_imports (failing or unknown (entry, mode) reported under it), most first."""
    per: dict[str, dict] = {}
    for d in report.diagnostics:
        rule = RULES.get(d.code)
        row = per.setdefault(d.code, {"code": d.code, "name": rule.name if rule else d.name,
                                      "count": 0, "first_imports": 0})
        row["count"] += 1
    for r in report.results:
        if r.outcome != "ok" and r.waived is None:
            code = {"timeout": "IS204", "crash": "IS205"}.get(r.outcome) or code_for(r)
            if code in per:
                per[code]["first_imports"] += 1
    return sorted(per.values(), key=lambda row: (-row["count"], row["code"]))


def render(report: Report, base: str | None = None) -> str:
    rows = counts(report)
    width = max((len(str(r["count"])) for r in rows), default=1)
    lines = []
    for r in rows:
        imports = f"  ({r['first_imports']} first imports)" if r["first_imports"] else ""
        lines.append(f"{r['count']:>{width}}\t{r['code']}\t{r['name']}{imports}")
    return "\n".join(lines) + ("\n" if lines else "")


def render_json(report: Report, base: str | None = None) -> str:
    return json.dumps(counts(report), indent=2) + "\n"
