"""SARIF 2.1.0 (`--format sarif`), e.g. for GitHub code scanning.

One run; the rules are diagnose.RULES, each with a `helpUri` to its section of docs/rules.md;
one result per diagnostic, located at its failure site. For a failure, the chain of executing
modules (each with the line that imported the next) is given twice: as `relatedLocations` and
as a code flow, which GitHub shows step by step. Failures waived by an inline comment or the
baseline are results too, carrying `suppressions` (GitHub shows them as dismissed).
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from urllib.parse import quote

from ..policy.diagnose import diagnose, group_key
from ..rules import RULES
from ..model import Diagnostic, Report, Result
from .json import _rel

SCHEMA_URI = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
              "sarif-schema-2.1.0.json")
BASE_ID = "SRCROOT"
RULES_DOC = "docs/rules.md"
# the repository's address, as in pyproject.toml [project.urls] (a test keeps them equal)
REPOSITORY = "https://github.com/OWNER/importsafe"
RULES_URL = f"{REPOSITORY}/blob/main/{RULES_DOC}"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _anchor(code: str, name: str) -> str:
    """The GitHub anchor of the heading `## IS101 import-from-partial-module`."""
    return re.sub(r"[^a-z0-9 -]", "", f"{code} {name}".lower()).replace(" ", "-")


def rule_dict(rule) -> dict:
    doc = f"{RULES_DOC}#{_anchor(rule.code, rule.name)}"
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": f"{rule.code} {rule.name}: {rule.summary}."},
        "helpUri": f"{RULES_URL}#{_anchor(rule.code, rule.name)}",  # absolute, as required
        "help": {"text": f"{rule.summary}. See {doc}.",
                 "markdown": f"{rule.summary}. See [{rule.code}]({doc})."},
        "defaultConfiguration": {"level": LEVEL.get(rule.severity, "warning")},
    }


def artifact(path: str, base: str | None) -> dict:
    """A relative path below `base` against SRCROOT; an absolute file URI otherwise."""
    rel = _rel(path, base)
    if not os.path.isabs(rel):
        return {"uri": quote(rel.replace(os.sep, "/")), "uriBaseId": BASE_ID}
    return {"uri": Path(rel).as_uri()}


def location(path: str, line: int, base: str | None, message: str | None = None,
             id_: int | None = None) -> dict:
    loc: dict = {}
    if id_ is not None:
        loc["id"] = id_
    loc["physicalLocation"] = {"artifactLocation": artifact(path, base),
                               "region": {"startLine": max(int(line), 1)}}
    if message is not None:
        loc["message"] = {"text": message}
    return loc


def chain_steps(r: Result) -> list[tuple[str, int, str]]:
    """(file, line, message) for each frame of a failure's chain."""
    chain = r.error.chain if r.error is not None else ()
    out = []
    for i, f in enumerate(chain):
        if i + 1 < len(chain):
            what = f"{f.module} runs this import, which runs {chain[i + 1].module}"
        else:
            what = f"{f.module} runs this line: {r.error.exception}: {r.error.message}"
        if i == 0:
            what = f"`import {r.entry}` [{r.mode}]: {what}"
        out.append((f.file, f.line, what))
    return out


def result_dict(d: Diagnostic, rule_index: dict[str, int], failure: Result | None,
                base: str | None) -> dict:
    res: dict = {"ruleId": d.code, "level": LEVEL.get(d.severity, "warning"),
                 "message": {"text": d.message}}
    if d.code in rule_index:
        res["ruleIndex"] = rule_index[d.code]
    if d.file:
        res["locations"] = [location(d.file, d.line, base)]
    steps = chain_steps(failure) if failure is not None else []
    if steps:
        related = [location(f, line, base, msg, i) for i, (f, line, msg) in enumerate(steps)]
        e = failure.error
        if e.defined_at is not None:
            related.append(location(e.defined_at[0], e.defined_at[1], base,
                                    f"'{e.name}' is bound here", len(related)))
        res["relatedLocations"] = related
        res["codeFlows"] = [{
            "message": {"text": f"the first import of {failure.entry} [{failure.mode}]"},
            "threadFlows": [{"locations": [
                {"location": location(f, line, base, msg), "nestingLevel": i,
                 "executionOrder": i + 1}
                for i, (f, line, msg) in enumerate(steps)]}],
        }]
    if d.entry is not None:
        res["properties"] = {"entry": d.entry, "mode": d.mode}
    return res


# How a waiver is exported. "ignored" (the rule is not selected: --select/--ignore) is not
# exported at all: deselecting a rule means not running it, as a linter's --select does, so
# its findings are not results, suppressed or otherwise; exporting them would fill code
# scanning with dismissed alerts of a rule the project turned off (and, were it selected
# again, they would come back as dismissed instead of new).
SUPPRESSIONS = {"suppressed": {"kind": "inSource"},  # a `# importsafe: ignore[...]` comment
                "baselined": {"kind": "external", "justification": "baseline"}}


def waived_diagnostics(report: Report) -> list[tuple[Diagnostic, list[dict]]]:
    """The diagnostics the waivers dropped (suppress.py drops one when every (entry, mode) of
    its site is waived), each with its SARIF suppressions. A site that is only partly waived
    (some of its failures baselined, others new) still has its diagnostic, unsuppressed, and
    no suppressed twin: code scanning would take both for one alert."""
    groups: dict[tuple, list[Result]] = {}
    for r in report.results:
        if r.outcome in ("error", "unknown"):  # what diagnose reports per site
            groups.setdefault(group_key(r), []).append(r)
    out = []
    for group in groups.values():
        kinds = sorted({r.waived for r in group if r.waived in SUPPRESSIONS})
        if not kinds or any(r.waived not in SUPPRESSIONS for r in group):
            continue
        (d,) = diagnose(group, {}, ())
        out.append((d, [dict(SUPPRESSIONS[k]) for k in kinds]))
    return out


def to_dict(report: Report, base: str | None = None) -> dict:
    from .. import __version__  # here: the package may still be initialising at import time
    rules = list(RULES.values())
    index = {r.code: i for i, r in enumerate(rules)}
    by_pair = {(r.entry, r.mode): r for r in report.results}
    results = []
    for d in report.diagnostics:
        failure = by_pair.get((d.entry, d.mode)) if d.entry is not None else None
        results.append(result_dict(d, index, failure, base))
    for d, suppressions in waived_diagnostics(report):
        res = result_dict(d, index, by_pair.get((d.entry, d.mode)), base)
        res["suppressions"] = suppressions
        results.append(res)
    run: dict = {
        "tool": {"driver": {"name": "importsafe", "version": __version__,
                            "rules": [rule_dict(r) for r in rules]}},
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {"source": report.source},
    }
    if base is not None:
        run["originalUriBaseIds"] = {BASE_ID: {"uri": Path(base).resolve().as_uri() + "/"}}
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render(report: Report, base: str | None = None) -> str:
    return json.dumps(to_dict(report, base), indent=2) + "\n"
