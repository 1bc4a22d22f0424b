"""GitHub Actions workflow commands (`--format github`): one annotation per diagnostic.

    ::error file=pkg/b.py,line=3,title=IS101 import-from-partial-module::cannot import ...

Escaping follows the Actions toolkit: `%`, CR and LF in the message; also `:` and `,` in
property values. Before that, every control and bidirectional character is written as an
escape (source.py): the runner's log is a terminal too, and `ESC ]` or U+202E from the
analysed tree must not act on it.
"""
from __future__ import annotations

import re

from ..model import Report
from .json import _rel
from .source import printable

_BREAKS = re.compile("(\r\n|\r|\n)")
COMMAND = {"error": "error", "warning": "warning", "info": "notice"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _data(text: str) -> str:
    """A message: printable, its line breaks kept (as the toolkit's escapes)."""
    parts = _BREAKS.split(text)
    return escape_data("".join(p if i % 2 else printable(p) for i, p in enumerate(parts)))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def render(report: Report, base: str | None = None) -> str:
    lines = []
    for d in report.diagnostics:
        props = []
        if d.file:
            props.append(f"file={escape_property(printable(_rel(d.file, base)))}")
            props.append(f"line={max(d.line, 1)}")
        props.append(f"title={escape_property(f'{d.code} {d.name}')}")
        lines.append(f"::{COMMAND.get(d.severity, 'warning')} {','.join(props)}::"
                     f"{_data(d.message)}\n")
    return "".join(lines)
