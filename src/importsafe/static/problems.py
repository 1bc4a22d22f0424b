"""What the parse stage adds to a module's facts that ast.parse alone does not tell.

- Which exception a file that does not compile raises on import: TabError, IndentationError
  (e.g. more than 100 levels of indentation), RecursionError (an expression nested too deep
  for the compiler), or SyntaxError; as the running interpreter's compiler says.
- A `from __future__ import` of a feature that does not exist (`braces`: "not a chance"),
  which ast.parse accepts and the compiler refuses.
- How deep imports can nest before CPython may raise RecursionError (NESTING_UNKNOWN, read
  by the simulator).
- A module-level `os._exit()` (not inside `try`): the process ends there, so nothing after
  it is predicted; the simulation answers unknown at that point (events.PROCESS_EXIT).
"""
from __future__ import annotations

import __future__
import re
import sys
from contextlib import contextmanager
from dataclasses import replace

from .events import PROCESS_EXIT, Call, FileProblem, If, Import, ImportFrom, ModuleFacts, Raise

# How deep imports may nest (modules executing inside one another) before CPython's default
# recursion limit (1000 frames) may stop them: each level costs at least 6 frames (IMPORT_NAME,
# _find_and_load, _find_and_load_unlocked, _load_unlocked, exec_module,
# _call_with_frames_removed, <module>) and up to about 11 (`from . import x` adds
# _handle_fromlist); 3.8-3.11 fail from 100 levels of `from . import`, 3.12 from 124. From
# here on the simulation answers unknown: where it fails depends on the version and the form.
NESTING_UNKNOWN = 80

_FUTURE = re.compile(rb"^[ \t]*from[ \t]+__future__[ \t]+import[ \t]+\(?([^\n;#)]+)", re.M)
_EXCEPTIONS = ("TabError", "IndentationError", "SyntaxError", "RecursionError", "MemoryError")


def complete(facts: ModuleFacts, source: bytes | str) -> ModuleFacts:
    """The facts of `source`, with the problems and process exits above."""
    if facts.problem is not None:
        if facts.problem.code == "IS001":
            return replace(facts, problem=replace(facts.problem,
                                                  exception=compile_error(source)))
        return facts
    data = source if isinstance(source, bytes) else source.encode("utf-8", "replace")
    if b"__future__" in data:
        problem = future_problem(data)
        if problem is not None:
            return replace(facts, body=(), problem=problem)
    if b"_exit" in data:
        body = _until_exit(facts.body, _exit_names(facts.body))
        if body is not None:
            return replace(facts, body=body)
    return facts


# CPython's default recursion limit: a first import compiles its module under it
DEFAULT_RECURSION_LIMIT = 1000


@contextmanager
def import_budget():
    """The recursion budget a first import's compile has (the parser and the compiler scale
    their depth limits by it), whatever limit the caller raised (api.deep_recursion)."""
    depth, frame = 0, sys._getframe()
    while frame is not None:
        depth, frame = depth + 1, frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + DEFAULT_RECURSION_LIMIT)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def compile_error(source: bytes | str) -> str:
    """The class name of the exception compiling `source` raises (SyntaxError if none)."""
    try:
        with import_budget():
            compile(source, "<module>", "exec", dont_inherit=True)
    except BaseException as exc:  # noqa: B902 - which one is the answer
        name = type(exc).__name__
        return name if name in _EXCEPTIONS else "SyntaxError"
    return "SyntaxError"


def future_problem(data: bytes) -> FileProblem | None:
    for match in _FUTURE.finditer(data):
        for item in match.group(1).split(b","):
            name = item.split()[0].decode("ascii", "replace") if item.split() else ""
            if name and name not in __future__.all_feature_names:
                line = data.count(b"\n", 0, match.start()) + 1
                message = "not a chance" if name == "braces" else \
                    f"future feature {name} is not defined"
                return FileProblem("IS001", line, f"cannot parse: {message}")
    return None


def _exit_names(body) -> frozenset:
    """Names that mean os._exit at module level: `os._exit` (as `os` or an alias) and a
    `from os import _exit [as x]`."""
    found = set()
    for ev in body:
        if ev.__class__ is Import and ev.module == "os" and ev.call is None:
            found.add((ev.asname or "os", ("_exit",)))
        elif ev.__class__ is ImportFrom and ev.module == "os":
            found.update((asname or name, ()) for name, asname in ev.names if name == "_exit")
    return frozenset(found)


def _until_exit(events, names) -> tuple | None:
    """The events up to a call of os._exit (in `if` blocks too), that call made a
    PROCESS_EXIT raise; None when there is none."""
    if not names:
        return None
    for i, ev in enumerate(events):
        cls = ev.__class__
        if cls is Call and (ev.name, ev.attrs) in names:
            return tuple(events[:i]) + (Raise(ev.line, PROCESS_EXIT,
                                              "os._exit() ends the process here"),)
        if cls is If:
            body, orelse = _until_exit(ev.body, names), _until_exit(ev.orelse, names)
            if body is not None or orelse is not None:
                changed = replace(ev, body=ev.body if body is None else body,
                                  orelse=ev.orelse if orelse is None else orelse)
                return tuple(events[:i]) + (changed,) + tuple(events[i + 1:])
    return None
