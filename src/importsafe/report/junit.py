"""JUnit XML (`--format junit`): one test case per (entry, mode).

`<testsuites>` holds one `<testsuite name="importsafe">`; each test case has classname the
entry and name the mode. A failing outcome (error, timeout, crash) is a `<failure>` with the
message and the chain; an unknown outcome, or a failure that does not fail the run
(suppressed, baselined, ignored), is `<skipped>` with the reason.
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from ..model import Report, Result
from .json import _rel
from .source import binding_hint, printable, source_line

_FAILING = ("error", "timeout", "crash")
# characters XML 1.0 cannot carry, even escaped
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    """Printable (source.py), and only characters XML can carry."""
    return _NOT_XML.sub("\ufffd", printable(text))


def chain_text(r: Result, base: str | None) -> str:
    e = r.error
    if e is None:
        return f"{r.outcome}: {r.reason}"
    lines = [f"{e.exception}: {e.message}"]
    for i, f in enumerate(e.chain):
        arrow = "  " * i + ("-> " if i else "")
        lines.append(f"{arrow}{f.module}  {_rel(f.file, base)}:{f.line}  "
                     f"{source_line(f.file, f.line)}".rstrip())
    if e.defined_at is not None:
        path, line, said = binding_hint(e.name, *e.defined_at)
        lines.append(f"{said} {_rel(path, base)}:{line}")
    return "\n".join(printable(line) for line in lines)


def _summary(r: Result) -> str:
    e = r.error
    return f"{e.exception}: {e.message}" if e is not None else f"{r.outcome}: {r.reason}"


def to_element(report: Report, base: str | None = None) -> ET.Element:
    failures = skipped = 0
    suite = ET.Element("testsuite", name="importsafe")
    for r in report.results:
        case = ET.SubElement(suite, "testcase", classname=_clean(r.entry), name=r.mode,
                             time="0")
        if r.outcome in _FAILING and r.waived is None:
            failures += 1
            kind = r.error.exception if r.error is not None else r.outcome
            node = ET.SubElement(case, "failure", message=_clean(_summary(r)),
                                 type=_clean(kind))
            node.text = _clean(chain_text(r, base))
        elif r.outcome != "ok":
            skipped += 1
            why = r.waived or "unknown"
            ET.SubElement(case, "skipped", message=_clean(f"{why}: {_summary(r)}"))
    counts = {"tests": str(len(report.results)), "failures": str(failures), "errors": "0",
              "skipped": str(skipped), "time": "0"}
    suite.attrib.update(counts)
    root = ET.Element("testsuites", name="importsafe", **counts)
    root.append(suite)
    return root


def render(report: Report, base: str | None = None) -> str:
    root = to_element(report, base)
    ET.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(
        root, encoding="unicode") + "\n"
