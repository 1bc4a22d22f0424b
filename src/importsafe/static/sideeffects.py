"""Imports that run only for their side effects, which PEP 810 lazy mode never runs (L7).

Under `-X lazy_imports=all` an eligible module-level import binds a proxy and loads its
module only when the bound name is read. A module imported for what running it does
(registering plugins, patching) and never read is then never loaded. Pure: facts and the
set of names a module reads in, findings out.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .events import TOP, WITH, IF, If, Import, ImportFrom, ModuleFacts

_ELIGIBLE_GUARDS = frozenset({TOP, WITH, IF})


@dataclass(frozen=True, slots=True)
class SideEffectImport:
    path: str
    line: int
    module: str  # what the statement imports
    name: str  # the name it binds, never read


def candidates(facts: ModuleFacts, is_module) -> list[tuple[int, str, str]]:
    """(line, bound name, module) of each eligible module-level import (docs/lazy.md L1)
    of a module of the analysed code (`is_module`): `import m`, `import a.b as x`, `from pkg
    import submodule`. External modules are left out: an unread `import json` is an unused
    import, which linters report; registration side effects live in the project's code."""
    out: list[tuple[int, str, str]] = []
    stack = list(facts.body)
    while stack:
        ev = stack.pop()
        cls = ev.__class__
        if cls is If and ev.why != "TYPE_CHECKING":
            stack.extend((*ev.body, *ev.orelse))
        elif cls is Import and ev.call is None and ev.guard in _ELIGIBLE_GUARDS \
                and is_module(ev.module):
            out.append((ev.line, ev.asname or ev.module.partition(".")[0], ev.module))
        elif cls is ImportFrom and ev.module and ev.guard in _ELIGIBLE_GUARDS \
                and ev.module != "__future__" and ev.names[0][0] != "*":
            for n, asname in ev.names:
                if is_module(f"{ev.module}.{n}"):
                    out.append((ev.line, asname or n, f"{ev.module}.{n}"))
    return sorted(out)


def mentions(source: str | bytes, name: str) -> int:
    """How often `name` occurs as a word in the source: code, strings (`__all__`,
    `getattr(mod, "name")`) and comments alike. A name that occurs only in its own import
    statement is never read; any other occurrence counts as a read, so the check errs
    towards silence (and costs a regex, not a parse)."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    # the name first, then what precedes it: a pattern that opens with a look-behind is tried
    # at every character (a millisecond per name in a large module)
    return sum(1 for found in re.finditer(re.escape(name) + r"\b", text)
               if not found.start() or not _WORD_OR_DOT.match(text, found.start() - 1))


_WORD_OR_DOT = re.compile(r"[\w.]")


def skipped(facts: ModuleFacts, source: str | bytes, is_module) -> list[SideEffectImport]:
    """Eligible imports whose bound name the module never reads: lazy mode never runs them."""
    found = candidates(facts, is_module)
    if found and isinstance(source, bytes):
        source = source.decode("utf-8", "replace")  # once, not per name
    return [SideEffectImport(facts.path, line, module, name)
            for line, name, module in found if mentions(source, name) <= 1]
