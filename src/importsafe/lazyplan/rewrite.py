"""The plan's edits, with libcst (source text in, source text out; formatting kept). Pure.

- `make_lazy`: the import statements starting on the given lines get PEP 810's `lazy`
  (`lazy import x`, `lazy from m import y`): Python 3.15+ syntax;
- `add_lazy_modules`: a `__lazy_modules__` list naming the given modules, placed before the
  first import statement that names one of them (after the docstring and `__future__`
  imports), where PEP 810 reads it; older Pythons ignore the name, 3.15 makes the imports of
  the listed modules lazy.
"""
from __future__ import annotations

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from ..fix.edits import lazy_statement


class RewriteError(Exception):
    """libcst could not rewrite the file."""


class _MakeLazy(cst.CSTTransformer):
    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, lines: frozenset[int]):
        super().__init__()
        self.lines = lines
        self.done: set[int] = set()

    def leave_SimpleStatementLine(self, original, updated):
        line = self.get_metadata(PositionProvider, original).start.line
        if line not in self.lines or not updated.body:
            return updated
        node = updated.body[0]
        if not isinstance(node, cst.Import) and not (
                isinstance(node, cst.ImportFrom) and not isinstance(node.names, cst.ImportStar)):
            return updated
        self.done.add(line)
        return updated.with_changes(body=[lazy_statement(node), *updated.body[1:]])


def _wrap(text: str) -> MetadataWrapper:
    try:
        return MetadataWrapper(cst.parse_module(text))
    except Exception as exc:  # noqa: BLE001 - libcst's parser raises several kinds
        raise RewriteError(f"libcst cannot parse the file: {exc}") from None


def make_lazy(text: str, lines) -> str:
    """The text with the import statements starting on `lines` made `lazy`."""
    if not hasattr(cst, "LazyImport"):
        raise RewriteError("this libcst cannot write `lazy` imports (libcst 1.9+ can)")
    wanted = frozenset(lines)
    transformer = _MakeLazy(wanted)
    new = _wrap(text).visit(transformer).code
    missing = sorted(wanted - transformer.done)
    if missing:
        raise RewriteError(f"no import statement to make lazy on line(s) "
                           f"{', '.join(map(str, missing))}")
    return new


def _is_docstring(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and \
        isinstance(stmt.body[0], cst.Expr) and \
        isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _is_future(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and stmt.body and \
        isinstance(stmt.body[0], cst.ImportFrom) and stmt.body[0].module is not None and \
        not stmt.body[0].relative and \
        cst.Module([]).code_for_node(stmt.body[0].module) == "__future__"


def add_lazy_modules(text: str, modules, first_line: int) -> str:
    """The text with `__lazy_modules__ = [...]` inserted before the top-level statement that
    holds line `first_line` (the first import naming a listed module), never before the
    docstring or a `__future__` import."""
    wrapper = _wrap(text)
    module = wrapper.module
    positions = wrapper.resolve(PositionProvider)
    body = list(module.body)
    at = next((i for i, stmt in enumerate(body)
               if positions[stmt].start.line <= first_line <= positions[stmt].end.line), None)
    if at is None:
        raise RewriteError(f"no top-level statement holds line {first_line}")
    floor = 0
    while floor < len(body) and (_is_future(body[floor]) or floor == 0 and
                                 _is_docstring(body[floor])):
        floor += 1
    at = max(at, floor)
    names = ", ".join(repr(m) for m in sorted(modules))
    listing = cst.parse_statement(f"__lazy_modules__ = [{names}]\n")
    moved = body[at].leading_lines if at < len(body) else ()
    listing = listing.with_changes(leading_lines=moved)
    if at < len(body):
        body[at] = body[at].with_changes(leading_lines=())
    body.insert(at, listing)
    return module.with_changes(body=body).code
