"""The JSON document of `--format json` (schema 1)."""
from __future__ import annotations

import json
import os
from json.encoder import encode_basestring_ascii
from functools import lru_cache

from ..model import Diagnostic, Report, Result

SCHEMA = 1


def _rel(path: str, base: str | None) -> str:
    """`path` relative to `base` when under it (memoised: chains name the same files)."""
    if not path or base is None:
        return path
    return _relative(path, base)


@lru_cache(maxsize=4096)
def _relative(path: str, base: str) -> str:
    try:
        rel = os.path.relpath(path, base)
    except ValueError:
        return path
    return path if rel.startswith("..") else rel


def result_dict(r: Result, base: str | None = None) -> dict:
    out: dict = {"entry": r.entry, "mode": r.mode, "outcome": r.outcome}
    if r.error is not None:
        e = r.error
        out["error"] = {
            "exception": e.exception, "module": e.module, "name": e.name, "message": e.message,
            "chain": [{"module": f.module, "file": _rel(f.file, base), "line": f.line}
                      for f in e.chain],
        }
        if e.defined_at is not None:
            out["error"]["defined_at"] = {"file": _rel(e.defined_at[0], base),
                                          "line": e.defined_at[1]}
    if r.reason is not None:
        out["reason"] = r.reason
    if r.waived is not None:
        out[r.waived] = True  # "suppressed" / "baselined" / "ignored": does not fail the run
    if r.assumes:
        out["assumes"] = [_assumption(a, base) for a in r.assumes]
    return out


def _assumption(a, base) -> dict:
    # a directory listing's order: `name` is the directory, a path like the others
    name = _rel(a.name, base) if a.kind == "listing" else a.name
    return {"module": a.module, "name": name, "file": _rel(a.file, base), "line": a.line,
            "why": a.why, "kind": a.kind}


def diagnostic_dict(d: Diagnostic, base: str | None = None) -> dict:
    out = {"code": d.code, "name": d.name, "severity": d.severity, "file": _rel(d.file, base),
           "line": d.line, "message": d.message}
    if d.entry is not None:  # the first (entry, mode) of a failure site
        out["entry"], out["mode"] = d.entry, d.mode
    return out


def to_dict(report: Report, base: str | None = None, results: bool = True,
            meta: dict | None = None) -> dict:
    """The document; without `results`, its results are left an empty list (render writes
    them itself). `meta`: more top-level keys (a shard's "shard" record)."""
    return {
        "schema": SCHEMA,
        "source": report.source,
        **(meta or {}),
        "results": [result_dict(r, base) for r in report.results] if results else [],
        "diagnostics": [diagnostic_dict(d, base) for d in report.diagnostics],
    }


def render(report: Report, base: str | None = None, meta: dict | None = None) -> str:
    """The document with one result or diagnostic per line: as readable and greppable as
    `indent=2`, and written by json's C encoder (`indent` selects its pure-Python one, which
    took a third of a warm run on large packages)."""
    doc = to_dict(report, base, results=False, meta=meta)
    dumps = json.JSONEncoder(ensure_ascii=True, separators=(", ", ": ")).encode
    lines = ["{"]
    for key, value in doc.items():
        if isinstance(value, list):  # results are left out of doc: written here
            records = _result_records(report, base, dumps) if key == "results" else \
                _records(value, dumps)
            items = ",\n".join("    " + line for line in records)
            lines.append(f"  {dumps(key)}: [\n{items}\n  ]," if records else f"  {dumps(key)}: [],")
        else:
            lines.append(f"  {dumps(key)}: {dumps(value)},")
    lines[-1] = lines[-1][:-1]
    return "\n".join(lines) + "\n}\n"


def _result_records(report: Report, base: str | None, dumps) -> list[str]:
    """Each result encoded as result_dict and `dumps` would: a result with nothing but its
    entry, mode and outcome (most: every `ok`) written from a template, its strings escaped by
    json's own C function (a dict per result and the encoder's walk of it cost most of the
    rendering of a large report)."""
    quote = encode_basestring_ascii
    out = []
    for r in report.results:
        if r.error is None and r.reason is None and r.waived is None and not r.assumes:
            out.append(f'{{"entry": {quote(r.entry)}, "mode": {quote(r.mode)}, '
                       f'"outcome": {quote(r.outcome)}}}')
        else:
            out.append(dumps(result_dict(r, base)))
    return out


def _records(items: list[dict], dumps) -> list[str]:
    """Each dict of `items` encoded, by one encoder call for the whole list: records share
    their first key, and `}, {"key": ` cannot occur inside an encoded string (its quotes are
    escaped), so the boundaries are exactly those; else one call per record."""
    first = next(iter(items[0]), None) if items else None
    if first is not None and all(next(iter(item), None) == first for item in items):
        head = "{" + dumps(first) + ": "
        parts = dumps(items)[1:-1].split("}, " + head)
        if len(parts) == len(items):  # each split took one record's "}" and the next's head
            last = len(parts) - 1
            return [(head if i else "") + part + ("}" if i < last else "")
                    for i, part in enumerate(parts)]
    return [dumps(item) for item in items]
