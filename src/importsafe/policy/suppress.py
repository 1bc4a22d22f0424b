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
import os
import re
import tokenize
from dataclasses import dataclass, replace
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

@dataclass(frozen=True, slots=True)
class Suppression:
    """One `# importsafe: ignore[...]` comment."""

    line: int  # where the comment is
    lines: tuple[int, ...]  # the lines it applies to: its own, and its statement's first
    codes: frozenset[str] | None  # None: every code


def comments(source: str | bytes) -> list[Suppression]:
    """Every suppression comment of a source, in order. A comment inside a statement that
    spans several lines applies to the line it is on and to the statement's first line (the
    line chains report). An unreadable tail is ignored."""
    out: list[Suppression] = []
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
                    line = tok.start[0]
                    out.append(Suppression(line, tuple(sorted({line, start or line})), codes))
                continue
            if tok.type in (tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING):
                continue
            if start is None:
                start = tok.start[0]
    except (tokenize.TokenError, SyntaxError, UnicodeDecodeError, LookupError):
        pass
    return out


def parse(source: str | bytes) -> dict[int, frozenset[str] | None]:
    """Line -> the codes its `# importsafe: ignore[...]` comments suppress (None: all)."""
    out: dict[int, frozenset[str] | None] = {}
    for s in comments(source):
        for line in s.lines:
            out[line] = _merge(out.get(line, frozenset()), s.codes)
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


def read_comments(path: str) -> list[Suppression]:
    """The suppressions of one file (none when it is not a readable regular file)."""
    from ..static.files import read_regular
    try:
        source = read_regular(path)  # a FIFO or a device is never read
    except OSError:
        return []
    return comments(source) if b"importsafe:" in source else []  # tokenize only when it may


def read(path: str) -> dict[int, frozenset[str] | None]:
    """The suppressions of one file by line."""
    return _by_line(read_comments(path))


def _by_line(found: list[Suppression]) -> dict[int, frozenset[str] | None]:
    out: dict[int, frozenset[str] | None] = {}
    for s in found:
        for line in s.lines:
            out[line] = _merge(out.get(line, frozenset()), s.codes)
    return out


def python_files(paths) -> tuple[str, ...]:
    """The Python source files under `paths` whose suppressions are checked: regular
    `.py` files, hidden directories and __pycache__ left out, links to directories not
    followed."""
    out: list[str] = []
    for path in map(os.path.abspath, paths):  # as the analysed files are named
        if os.path.isfile(path):
            out.append(path)
            continue
        for top, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
            out.extend(os.path.join(top, f) for f in sorted(files) if f.endswith(".py"))
    return tuple(dict.fromkeys(out))


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


def suppress(report: Report, read: Callable[[str], list[Suppression]] = read_comments
             ) -> Report:
    """Apply the `# importsafe: ignore[...]` comments found on failure sites."""
    return suppress_tracked(report, read)[0]


def suppress_tracked(report: Report,
                     read: Callable[[str], list[Suppression]] = read_comments
                     ) -> tuple[Report, set[tuple[str, int, str | None]]]:
    """suppress, and which comments it used: (real path, comment line, code or None for a
    bare `ignore`)."""
    cache: dict[str, list[Suppression]] = {}
    waived: dict[tuple[str, str], str] = {}
    used: set[tuple[str, int, str | None]] = set()
    for r in report.results:
        site = _site(r) if r.outcome != "ok" and r.waived is None else None
        if site is None or not site[0]:
            continue
        if site[0] not in cache:
            cache[site[0]] = read(site[0])
        code = result_code(r)
        for s in cache[site[0]]:
            if site[1] in s.lines and (s.codes is None or code in s.codes):
                waived[(r.entry, r.mode)] = "suppressed"
                used.add((os.path.realpath(site[0]), s.line, None if s.codes is None else code))
    return _waive(report, waived), used


def check_comments(files, used: set, read: Callable[[str], list[Suppression]] = read_comments
                   ) -> tuple[Diagnostic, ...]:
    """IS301 for each code a suppression names that is no rule; IS302 for each suppression
    (or code of one) that suppressed nothing in this run."""
    from ..rules import RULES
    unknown, unused = RULES["IS301"], RULES["IS302"]
    out = []
    for path in files:
        real = os.path.realpath(path)
        for s in read(path):
            if s.codes is None:
                if (real, s.line, None) not in used:
                    out.append(Diagnostic(unused.code, unused.name, unused.severity, path,
                                          s.line, "`# importsafe: ignore` suppresses nothing "
                                          "here: no first import fails on this line"))
                continue
            bad = sorted(c for c in s.codes if c not in RULES)
            if bad:
                out.append(Diagnostic(unknown.code, unknown.name, unknown.severity, path,
                                      s.line, f"`# importsafe: ignore[...]` names "
                                      f"{', '.join(bad)}, which "
                                      + ("is not an importsafe rule code" if len(bad) == 1
                                         else "are not importsafe rule codes")
                                      + " (`importsafe rule` lists them)"))
            idle = sorted(c for c in s.codes if c in RULES and (real, s.line, c) not in used)
            if idle:
                out.append(Diagnostic(unused.code, unused.name, unused.severity, path, s.line,
                                      f"`# importsafe: ignore[{', '.join(idle)}]` suppresses "
                                      f"nothing here: no first import fails on this line "
                                      f"with {'that code' if len(idle) == 1 else 'those codes'}"))
    return tuple(out)


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
                 baseline: str | None = None, write_baseline: str | None = None,
                 scanned=()) -> tuple[Report, int | None]:
    """Inline suppressions, then rule selection, then the baseline. With `write_baseline`,
    first records every failure left after suppressions and selection (baselined ones too)
    to that file, and then applies it. Returns (report, failures written or None).

    `scanned`: the files whose suppression comments are checked (IS301, IS302).

    Raises config.ConfigError for an unreadable baseline."""
    report, used = suppress_tracked(report)
    if scanned:
        found = check_comments(scanned, used)
        if found:
            report = replace(report, diagnostics=tuple(sorted(
                report.diagnostics + found, key=lambda d: (d.file, d.line, d.code, d.message))))
    report = select_rules(report, select, ignore)
    written = None
    if write_baseline is not None:
        written = write_baseline_file(write_baseline, report)
        report = apply_baseline(report, load_baseline(write_baseline))
    elif baseline is not None:
        report = apply_baseline(report, load_baseline(baseline))
    return report, written
