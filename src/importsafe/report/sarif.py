"""SARIF 2.1.0 (`--format sarif`), for GitHub code scanning and other SARIF viewers.

One run; the rules are rules.RULES, each with a `helpUri` to its page (`[project.urls]
Rules` of importsafe's own metadata: a base the rule's `CODE.md` is appended to, or a URL
with `{code}` in it). One result per diagnostic, and every result has what code scanning
requires: a location (a file and a whole-line region; an undecidable outcome at the line
that made it so, a note about the whole project at the configuration file or the package's
`__init__.py`), a message, and `partialFingerprints` that do not change when code moves
(they hash the rule, the file and what failed, not the line number). For a failure, the
chain of executing modules (each with the line that imported the next) is given twice: as
`relatedLocations` and as a code flow, which GitHub shows step by step. Failures waived by an
inline comment or the baseline are results too, carrying `suppressions` (GitHub shows them
as dismissed). The sizes GitHub accepts (results per run, locations per result) are kept.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path
from urllib.parse import quote

from ..policy.diagnose import diagnose, group_key
from ..rules import RULES
from ..model import Diagnostic, Report, Result
from .source import file_lines, printable

SCHEMA_URI = ("https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/"
              "sarif-schema-2.1.0.json")
BASE_ID = "SRCROOT"
# the rule pages, as pyproject.toml [project.urls] Rules says (a test keeps them equal);
# used when importsafe's installed metadata does not say
RULES_URL = "https://github.com/OWNER/importsafe/blob/main/docs/rules/"
LEVEL = {"error": "error", "warning": "warning", "info": "note"}
# GitHub code scanning's limits (a file over them is rejected whole)
MAX_RESULTS = 25_000
MAX_RELATED = 1_000
MAX_FLOW = 10_000
MAX_DESCRIPTION = 1_024
FINGERPRINT = "importsafe/v1"


def rules_url() -> str:
    """The base of the rule pages: importsafe's own `Project-URL: Rules, ...`."""
    try:
        from importlib.metadata import PackageNotFoundError, metadata
        for entry in metadata("importsafe").get_all("Project-URL") or ():
            label, _, url = entry.partition(",")
            if label.strip().lower() == "rules" and url.strip():
                return url.strip()
    except (ImportError, PackageNotFoundError, ValueError):
        pass
    return RULES_URL


def help_uri(code: str, base: str | None = None) -> str:
    base = base or rules_url()
    return base.format(code=code) if "{code}" in base else f"{base.rstrip('/')}/{code}.md"


def _cut(text: str, limit: int = MAX_DESCRIPTION) -> str:
    return text if len(text) <= limit else text[:limit - 3] + "..."


def rule_dict(rule, base: str | None = None) -> dict:
    uri = help_uri(rule.code, base)
    full = " ".join(part for part in (rule.what, rule.why) if part) or f"{rule.summary}."
    text = "\n\n".join(part for part in (rule.what, rule.why, rule.fix) if part) or \
        f"{rule.summary}."
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": _cut(rule.summary)},
        "fullDescription": {"text": _cut(f"{rule.code} {rule.name}: {full}")},
        "helpUri": uri,  # absolute, as required
        "help": {"text": f"{text}\n\nSee {uri}.",
                 "markdown": f"{text}\n\nSee [{rule.code} {rule.name}]({uri})."},
        "defaultConfiguration": {"level": LEVEL.get(rule.severity, "warning")},
    }


def _relative(path: str, base: str | None) -> str:
    """`path` with symbolic links resolved (code scanning cannot show a result in a linked
    file), relative to `base` when below it."""
    real = os.path.realpath(path)
    if base is None:
        return real
    root = os.path.realpath(base)
    try:
        rel = os.path.relpath(real, root)
    except ValueError:
        return real
    return real if rel == ".." or rel.startswith(".." + os.sep) else rel


def artifact(path: str, base: str | None) -> dict:
    """A relative path below `base` against SRCROOT; an absolute file URI otherwise."""
    rel = _relative(path, base)
    if not os.path.isabs(rel):
        return {"uri": quote(rel.replace(os.sep, "/")), "uriBaseId": BASE_ID}
    return {"uri": Path(rel).as_uri()}


def region(path: str, line: int) -> dict:
    """The whole line, from its first to its last non-blank character (GitHub wants both
    columns); line 1, column 1 when the line cannot be read."""
    line = max(int(line), 1)
    lines = file_lines(path)
    text = lines[line - 1] if line <= len(lines) else ""
    start = len(text) - len(text.lstrip()) + 1
    end = max(len(text.rstrip()) + 1, start + 1)
    return {"startLine": line, "startColumn": start, "endLine": line, "endColumn": end}


def location(path: str, line: int, base: str | None, message: str | None = None,
             id_: int | None = None) -> dict:
    loc: dict = {}
    if id_ is not None:
        loc["id"] = id_
    loc["physicalLocation"] = {"artifactLocation": artifact(path, base),
                               "region": region(path, line)}
    if message is not None:
        loc["message"] = {"text": printable(message) or "-"}
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


def identity(d: Diagnostic, failure: Result | None, base: str | None) -> str:
    """What makes a result the same result after code moved: the rule, the file, and what
    failed (the exception, module and name; an unknown's reason; else the message with its
    numbers left out), never a line number."""
    if failure is not None and failure.error is not None:
        e = failure.error
        what = [e.exception, e.module, e.name]
    elif failure is not None:
        what = [failure.outcome, re.sub(r"\d+", "#", failure.reason or "")]
    else:
        what = [re.sub(r"\d+", "#", d.message)]
    parts = [d.code, _relative(d.file, base).replace(os.sep, "/") if d.file else "", *what]
    return hashlib.sha256(json.dumps(parts).encode()).hexdigest()[:16]


def result_dict(d: Diagnostic, rule_index: dict[str, int], failure: Result | None,
                base: str | None, anchor: str | None = None) -> dict:
    """One result; `anchor` is where a diagnostic without a file is placed (a note about
    the whole project)."""
    res: dict = {"ruleId": d.code, "level": LEVEL.get(d.severity, "warning"),
                 "message": {"text": printable(d.message) or d.name}}
    if d.code in rule_index:
        res["ruleIndex"] = rule_index[d.code]
    where = (d.file, d.line) if d.file else (anchor, 1) if anchor else None
    if where is not None:
        res["locations"] = [location(*where, base)]
    steps = chain_steps(failure) if failure is not None else []
    if steps:
        related = [location(f, line, base, msg, i)
                   for i, (f, line, msg) in enumerate(steps[:MAX_RELATED - 1])]
        e = failure.error
        if e.defined_at is not None:
            related.append(location(e.defined_at[0], e.defined_at[1], base,
                                    f"'{e.name}' is bound here", len(related)))
        res["relatedLocations"] = related
        res["codeFlows"] = [{
            "message": {"text": printable(f"the first import of {failure.entry} "
                                          f"[{failure.mode}]")},
            "threadFlows": [{"locations": [
                {"location": location(f, line, base, msg), "nestingLevel": i,
                 "executionOrder": i + 1}
                for i, (f, line, msg) in enumerate(steps[:MAX_FLOW])]}],
        }]
    if d.entry is not None:
        res["properties"] = {"entry": d.entry, "mode": d.mode}
    res["partialFingerprints"] = {FINGERPRINT: identity(d, failure, base)}
    return res


def _number_fingerprints(results: list[dict]) -> None:
    """`hash:N`, N counting the results of one hash in order (as GitHub numbers equal line
    hashes); the same value is given as `primaryLocationLineHash`, the key code scanning
    reads, so upload-sarif keeps it instead of hashing the line's text."""
    seen: dict[str, int] = {}
    for res in results:
        fp = res["partialFingerprints"]
        seen[fp[FINGERPRINT]] = n = seen.get(fp[FINGERPRINT], 0) + 1
        fp[FINGERPRINT] = fp["primaryLocationLineHash"] = f"{fp[FINGERPRINT]}:{n}"


# How a waiver is exported. "ignored" (the rule is not selected: --select/--ignore) is not
# exported at all: deselecting a rule means not running it, as a linter's --select does, so
# its findings are not results, suppressed or otherwise; exporting them would fill code
# scanning with dismissed alerts of a rule the project turned off (and, were it selected
# again, they would come back as dismissed instead of new).
SUPPRESSIONS = {"suppressed": {"kind": "inSource"},  # an inline ignore comment
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


def package_init(report: Report) -> str | None:
    """The `__init__.py` (or module file) of the first entry's top-level package."""
    top = next((r.entry.partition(".")[0] for r in report.results), None)
    for root in report.roots if top else ():
        for candidate in (os.path.join(root, top, "__init__.py"),
                          os.path.join(root, top + ".py")):
            if os.path.isfile(candidate):
                return candidate
    return None


def to_dict(report: Report, base: str | None = None, project_file: str | None = None
            ) -> dict:
    from .. import __version__  # here: the package may still be initialising at import time
    rules = list(RULES.values())
    index = {r.code: i for i, r in enumerate(rules)}
    by_pair = {(r.entry, r.mode): r for r in report.results}
    anchor = project_file or package_init(report) or next(
        (d.file for d in report.diagnostics if d.file), None)
    found = [(d, None) for d in report.diagnostics] + waived_diagnostics(report)
    results = []
    for d, suppressions in found:
        failure = by_pair.get((d.entry, d.mode)) if d.entry is not None else None
        res = result_dict(d, index, failure, base, anchor)
        if "locations" not in res:
            continue  # nothing to anchor it to: code scanning would reject the whole file
        if suppressions:
            res["suppressions"] = suppressions
        results.append(res)
    # over GitHub's limit the file is rejected: the most severe results are kept
    order = {"error": 0, "warning": 1, "note": 2}
    results = sorted(results, key=lambda r: order.get(r["level"], 3))[:MAX_RESULTS] \
        if len(results) > MAX_RESULTS else results
    _number_fingerprints(results)
    base_url = rules_url()
    run: dict = {
        "tool": {"driver": {"name": "importsafe", "version": __version__,
                            "informationUri": base_url.partition("{")[0],
                            "rules": [rule_dict(r, base_url) for r in rules]}},
        "results": results,
        "columnKind": "unicodeCodePoints",
        "properties": {"source": report.source},
    }
    if base is not None:
        run["originalUriBaseIds"] = {BASE_ID: {"uri": Path(base).resolve().as_uri() + "/"}}
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def render(report: Report, base: str | None = None, project_file: str | None = None) -> str:
    return json.dumps(to_dict(report, base, project_file), indent=2) + "\n"
