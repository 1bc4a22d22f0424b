"""The plan's edits (source text in, source text out; formatting kept). Pure.

- `make_lazy`: the import statements starting on the given lines get PEP 810's `lazy`
  (`lazy import x`, `lazy from m import y`): Python 3.15+ syntax;
- `add_lazy_modules`: a `__lazy_modules__` list naming the given modules, placed before the
  first import statement that names one of them (after the docstring and `__future__`
  imports), where PEP 810 reads it; older Pythons ignore the name, 3.15 makes the imports of
  the listed modules lazy.

Both insert text at positions `ast` gives (a plan may rewrite a whole large package, which
libcst parses at about 80 KB/s); libcst takes what `ast` cannot parse here (syntax newer than
this Python's, besides `lazy`) and a statement sharing its line with the one before.
"""
from __future__ import annotations

import ast
import re

from ..static.lower import lower_lazy, statements


class RewriteError(Exception):
    """The file cannot be rewritten as asked."""


_NEWLINE = re.compile(r"\r\n|\r|\n")  # the line ends of Python's tokenizer (not splitlines')


def tree_of(text: str) -> ast.Module | None:
    """The text's tree for make_lazy / add_lazy_modules (None: libcst's turn)."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        found = lower_lazy(text)  # the file has `lazy` statements already
        return found[2] if found is not None else None


def _line_starts(text: str) -> list[int]:
    return [0, 0] + [m.end() for m in _NEWLINE.finditer(text)]  # 1-based line -> offset


def _blank(text: str) -> bool:
    return not text.strip(" \t\f")


def make_lazy(text: str, lines, tree: ast.Module | None = None) -> str:
    """The text with the import statements starting on `lines` made `lazy`. `tree`: the
    text's, when the caller has it (`tree_of`)."""
    wanted = sorted(set(lines))
    tree = tree or tree_of(text)
    if tree is None:
        return _make_lazy_cst(text, wanted)
    starts = _line_starts(text)
    found = {}
    for node in statements(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno in wanted and \
                not any(a.name == "*" for a in node.names) and node.lineno < len(starts):
            at = starts[node.lineno] + node.col_offset  # only blanks before: bytes == chars
            if _blank(text[starts[node.lineno]:at]) and text.startswith(("import", "from"), at):
                found[node.lineno] = at
    missing = [line for line in wanted if line not in found]
    if missing:
        if tree is not None and all(_first_on_line(tree, line) is False for line in missing):
            raise RewriteError(f"no import statement to make lazy on line(s) "
                               f"{', '.join(map(str, missing))}")
        return _make_lazy_cst(text, wanted)
    parts, last = [], 0
    for at in sorted(found.values()):
        parts += [text[last:at], "lazy "]
        last = at
    return "".join(parts) + text[last:]


def _first_on_line(tree: ast.Module, line: int) -> bool | None:
    """False when no import statement starts on the line (nothing to make lazy); None when
    one does but not where plain text can reach it (after `;`): libcst's turn."""
    for node in statements(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)) and node.lineno == line and \
                not any(a.name == "*" for a in node.names):
            return None
    return False


def _make_lazy_cst(text: str, wanted) -> str:
    import libcst as cst  # slow to import: only for the shapes text edits do not take
    if not hasattr(cst, "LazyImport"):
        raise RewriteError("this libcst cannot write `lazy` imports (libcst 1.9+ can)")
    transformer = _make_lazy_class()(frozenset(wanted))
    new = _wrap(text).visit(transformer).code
    missing = sorted(set(wanted) - transformer.done)
    if missing:
        raise RewriteError(f"no import statement to make lazy on line(s) "
                           f"{', '.join(map(str, missing))}")
    return new


def _make_lazy_class():
    import libcst as cst
    from libcst.metadata import PositionProvider

    from ..fix.edits import lazy_statement

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
                    isinstance(node, cst.ImportFrom)
                    and not isinstance(node.names, cst.ImportStar)):
                return updated
            self.done.add(line)
            return updated.with_changes(body=[lazy_statement(node), *updated.body[1:]])

    return _MakeLazy


def _wrap(text: str):
    import libcst as cst
    from libcst.metadata import MetadataWrapper
    try:
        return MetadataWrapper(cst.parse_module(text))
    except Exception as exc:  # noqa: BLE001 - libcst's parser raises several kinds
        raise RewriteError(f"libcst cannot parse the file: {exc}") from None


def _is_docstring(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and \
        isinstance(stmt.value.value, str)


def _is_future(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__" and not stmt.level


def _first_line(stmt: ast.stmt) -> int:
    return min([stmt.lineno] + [d.lineno for d in getattr(stmt, "decorator_list", ())])


def add_lazy_modules(text: str, modules, first_line: int, tree: ast.Module | None = None) -> str:
    """The text with `__lazy_modules__ = [...]` inserted before the top-level statement that
    holds line `first_line` (the first import naming a listed module), never before the
    docstring or a `__future__` import. The line goes in at the start of the line where that
    statement starts and the one before ends earlier, so it cannot land inside another."""
    tree = tree or tree_of(text)
    if tree is None:
        return _add_lazy_modules_cst(text, modules, first_line)
    body = tree.body
    at = next((i for i, stmt in enumerate(body)
               if _first_line(stmt) <= first_line <= stmt.end_lineno), None)
    if at is None:
        raise RewriteError(f"no top-level statement holds line {first_line}")
    floor = 0
    while floor < len(body) and (_is_future(body[floor]) or floor == 0 and
                                 _is_docstring(body[floor])):
        floor += 1
    at = max(at, floor)
    names = ", ".join(repr(m) for m in sorted(modules))
    listing = f"__lazy_modules__ = [{names}]"
    if at == len(body):
        new = text + ("" if not text or text.endswith(("\n", "\r")) else "\n") + listing + "\n"
    else:
        line = _first_line(body[at])
        if at and body[at - 1].end_lineno >= line:  # `import x; import y`: libcst's shape
            return _add_lazy_modules_cst(text, modules, first_line)
        offset = _line_starts(text)[line]
        new = text[:offset] + listing + _newline(text) + text[offset:]
    return new


def _newline(text: str) -> str:
    found = _NEWLINE.search(text)
    return found.group() if found else "\n"


def _add_lazy_modules_cst(text: str, modules, first_line: int) -> str:
    import libcst as cst
    from libcst.metadata import PositionProvider
    wrapper = _wrap(text)
    module = wrapper.module
    positions = wrapper.resolve(PositionProvider)
    body = list(module.body)
    at = next((i for i, stmt in enumerate(body)
               if positions[stmt].start.line <= first_line <= positions[stmt].end.line), None)
    if at is None:
        raise RewriteError(f"no top-level statement holds line {first_line}")
    floor = 0
    while floor < len(body) and (_is_future_cst(cst, body[floor]) or floor == 0 and
                                 _is_docstring_cst(cst, body[floor])):
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


def _is_docstring_cst(cst, stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and \
        isinstance(stmt.body[0], cst.Expr) and \
        isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _is_future_cst(cst, stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and stmt.body and \
        isinstance(stmt.body[0], cst.ImportFrom) and stmt.body[0].module is not None and \
        not stmt.body[0].relative and \
        cst.Module([]).code_for_node(stmt.body[0].module) == "__future__"
