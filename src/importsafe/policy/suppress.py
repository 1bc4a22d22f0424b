"""Waivers: failures that are reported but do not fail the run.

- inline suppressions: `# importsafe: ignore[IS101]` (or `ignore` for every code, or
  `ignore[IS101,IS105]`) on the failure site, the line the last chain frame was executing;
- rule selection: `select` / `ignore` lists of codes (or code prefixes such as `IS1`);
- a baseline file (baseline.py).

A waived result keeps its outcome and gains `Result.waived` ("suppressed", "ignored",
"baselined"); a diagnostic whose every (entry, mode) is waived is dropped. Comments are read
with `tokenize`, never by executing anything.
"""
from __future__ import annotations

import io
import re
import tokenize
from dataclasses import replace
from typing import Callable, Mapping

# not `from . import baseline`: the package's PEP 562 __getattr__ would make that unknown
from .baseline import fingerprint as baseline_fingerprint
from .baseline import load as load_baseline
from .baseline import write as write_baseline_file
from .diagnose import code_for
from ..model import Diagnostic, Report, Result

# None: every code
Ignores = Mapping[int, "frozenset[str] | None"]

_DIRECTIVE = re.compile(r"#\s*importsafe\s*:\s*ignore(?![\w-])(?:\[([^\]]*)\])?", re.IGNORECASE)
_FAILING = ("error", "timeout", "crash")


# --- the parser (pure) --------------------------------------------------------------------

def parse(source: str | bytes) -> dict[int, frozenset[str] | None]:
    """Line -> the codes its `# importsafe: ignore[...]` comments suppress (None: all).

    A comment inside a statement that spans several lines applies to the line it is on and to
    the statement's first line (the line chains report). An unreadable tail is ignored."""
    out: dict[int, frozenset[str] | None] = {}
    start = None  # first line of the current logical line
    try:
        if isinstance(source, bytes):  # reads the coding cookie, which may be bad
            tokens = tokenize.tokenize(io.BytesIO(source).readline)
        else:
            tokens = tokenize.generate_tokens(io.StringIO(source).readline)
        for tok in tokens:
            if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
                start = None
                continue
            if tok.type == tokenize.COMMENT:
                codes = _codes(tok.string)
                if codes is not False:
                    for line in {tok.start[0], start or tok.start[0]}:
                        out[line] = _merge(out.get(line, frozenset()), codes)
                continue
            if tok.type in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
                continue
            if start is None:
                start = tok.start[0]
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError, LookupError):
        pass
    return out


def _codes(comment: str) -> frozenset[str] | None | bool:
    """False: no directive; None: every code; else the codes listed."""
    m = _DIRECTIVE.search(comment)
    if m is None:
        return False
    if m.group(1) is None:
        return None
    codes = frozenset(c.strip().upper() for c in m.group(1).split(",") if c.strip())
    return codes or None


def _merge(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    return None if a is None or b is None else a | b


def read(path: str) -> dict[int, frozenset[str] | None]:
    """The suppressions of one file (nothing when it cannot be read)."""
    from ..static.files import read_regular
    try:
        source = read_regular(path)  # a FIFO or a device is never read
    except OSError:
        return {}
    return parse(source) if b"importsafe:" in source else {}  # tokenize only when it may say


# --- rule codes ----------------------------------------------------------------------------

def result_code(r: Result) -> str:
    """The diagnostic code a non-ok result is reported under."""
    if r.outcome == "timeout":
        return "IS204"
    if r.outcome == "crash":
        return "IS205"
    return code_for(r)


def selected(code: str, select: tuple[str, ...], ignore: tuple[str, ...]) -> bool:
    if select and not any(code.startswith(s) for s in select):
        return False
    return not any(code.startswith(i) for i in ignore)


# --- applying waivers (pure given `read`) --------------------------------------------------

def _site(r: Result) -> tuple[str, int] | None:
    if r.error is not None and r.error.chain:
        last = r.error.chain[-1]
        return last.file, last.line
    return None


def _group_key(r: Result) -> tuple:
    """The key diagnose.diagnose groups failures by (a result without a chain: itself)."""
    site = _site(r)
    if site is None:
        return (r.entry, r.mode)
    return (*site, result_code(r), r.error.module, r.error.name)


def _waive(report: Report, waived: dict[tuple[str, str], str],
           drop: Callable[[Diagnostic], bool] = lambda d: False) -> Report:
    """Mark results, and drop diagnostics that are dropped outright or all of whose (entry,
    mode) are waived (a failure diagnostic names the first of its group; its group is every
    non-ok result with the same site and code)."""
    if not waived and not any(drop(d) for d in report.diagnostics):
        return report
    results = tuple(replace(r, waived=waived[(r.entry, r.mode)])
                    if (r.entry, r.mode) in waived and r.waived is None else r
                    for r in report.results)
    groups: dict[tuple, list[Result]] = {}
    for r in results:
        if r.outcome != "ok":
            groups.setdefault(_group_key(r), []).append(r)
    by_pair = {(r.entry, r.mode): r for r in results}
    keep = []
    for d in report.diagnostics:
        if drop(d):
            continue
        first = by_pair.get((d.entry, d.mode)) if d.entry is not None else None
        if first is not None and first.outcome != "ok" and d.code == result_code(first):
            if all(r.waived is not None for r in groups[_group_key(first)]):
                continue
        keep.append(d)
    return replace(report, results=results, diagnostics=tuple(keep))


def suppress(report: Report, read: Callable[[str], Ignores] = read) -> Report:
    """Apply the `# importsafe: ignore[...]` comments found on failure sites."""
    cache: dict[str, Ignores] = {}
    waived: dict[tuple[str, str], str] = {}
    for r in report.results:
        site = _site(r) if r.outcome != "ok" and r.waived is None else None
        if site is None or not site[0]:
            continue
        if site[0] not in cache:
            cache[site[0]] = read(site[0])
        line = cache[site[0]]
        if site[1] in line:
            codes = line[site[1]]
            if codes is None or result_code(r) in codes:
                waived[(r.entry, r.mode)] = "suppressed"
    return _waive(report, waived)


def select_rules(report: Report, select: tuple[str, ...] = (),
                 ignore: tuple[str, ...] = ()) -> Report:
    """Drop the diagnostics of codes not selected; their non-ok results stop failing."""
    if not select and not ignore:
        return report
    waived = {(r.entry, r.mode): "ignored" for r in report.results
              if r.outcome != "ok" and r.waived is None
              and not selected(result_code(r), select, ignore)}
    return _waive(report, waived, lambda d: not selected(d.code, select, ignore))


def apply_baseline(report: Report, fingerprints: frozenset[str]) -> Report:
    """Failures whose fingerprint the baseline holds stop failing."""
    waived = {(r.entry, r.mode): "baselined" for r in report.results
              if r.outcome in _FAILING and r.waived is None
              and baseline_fingerprint(r) in fingerprints}
    return _waive(report, waived)


# --- the use case --------------------------------------------------------------------------

def apply_policy(report: Report, select: tuple[str, ...] = (), ignore: tuple[str, ...] = (),
                 baseline: str | None = None, write_baseline: str | None = None
                 ) -> tuple[Report, int | None]:
    """Inline suppressions, then rule selection, then the baseline. With `write_baseline`,
    first records every failure left after suppressions and selection (baselined ones too)
    to that file, and then applies it. Returns (report, failures written or None).

    Raises config.ConfigError for an unreadable baseline."""
    report = select_rules(suppress(report), select, ignore)
    written = None
    if write_baseline is not None:
        written = write_baseline_file(write_baseline, report)
        report = apply_baseline(report, load_baseline(write_baseline))
    elif baseline is not None:
        report = apply_baseline(report, load_baseline(baseline))
    return report, written
