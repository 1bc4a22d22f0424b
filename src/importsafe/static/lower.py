"""Source written for a newer Python, lowered on the same lines to syntax the running
interpreter's `ast` parses, so the same fact extractor serves every version.

Used only when `ast.parse` fails. libcst's native parser reads Python 3.0 to 3.15; the lowering
changes nothing that matters for import-time behaviour:
- type parameter lists (`def f[T]`, `class C[T]`, PEP 695) are dropped: they bind no global
  (their names are returned, so reads of them inside the definition are not reported);
- `type X = ...` becomes `X = ...`: the alias value is evaluated lazily, never at import time;
- `lazy import ...` / `lazy from ... import ...` (PEP 810) become plain imports, and their
  lines are returned so the facts still mark them lazy.
"""
from __future__ import annotations

import ast
import marshal
import os
import re
import signal
from functools import lru_cache


@lru_cache(maxsize=1)
def _lowering_class():
    """The transformer, built on first use: libcst is slow to import and rarely needed."""
    import libcst as cst
    from libcst.metadata import PositionProvider
    lazy_nodes = tuple(getattr(cst, n) for n in ("LazyImport", "LazyImportFrom")
                       if hasattr(cst, n))
    return _make_lowering(cst, PositionProvider, lazy_nodes)


def _make_lowering(cst, PositionProvider, _LAZY):  # noqa: N803 - libcst's names
    class _Lower(cst.CSTTransformer):
        METADATA_DEPENDENCIES = (PositionProvider,)

        def __init__(self):
            super().__init__()
            self.lazy_lines: set[int] = set()
            self.type_params: dict[int, frozenset[str]] = {}  # def / class line -> T, U, ...

        def leave_FunctionDef(self, original, updated):
            params = getattr(updated, "type_parameters", None)
            if params is None:
                return updated
            # the line of the name, as ast reports it (decorators come before)
            line = self.get_metadata(PositionProvider, original.name).start.line
            self.type_params[line] = frozenset(p.param.name.value for p in params.params)
            return updated.with_changes(type_parameters=None)

        leave_ClassDef = leave_FunctionDef

        def leave_TypeAlias(self, original, updated):
            return cst.Assign(targets=[cst.AssignTarget(target=updated.name)],
                              value=cst.Ellipsis(), semicolon=updated.semicolon)

        def on_leave(self, original, updated):
            if _LAZY and isinstance(original, _LAZY):
                self.lazy_lines.add(self.get_metadata(PositionProvider, original).start.line)
                if isinstance(updated, cst.LazyImport if hasattr(cst, "LazyImport") else ()):
                    return cst.Import(names=updated.names, semicolon=updated.semicolon,
                                      whitespace_after_import=updated.whitespace_after_import)
                return cst.ImportFrom(
                    module=updated.module, names=updated.names, relative=updated.relative,
                    lpar=updated.lpar, rpar=updated.rpar, semicolon=updated.semicolon,
                    whitespace_after_from=updated.whitespace_after_from,
                    whitespace_before_import=updated.whitespace_before_import,
                    whitespace_after_import=updated.whitespace_after_import)
            return super().on_leave(original, updated)

    return _Lower


MAX_DEPTH = 200  # nesting CPython's own parser refuses beyond (brackets); libcst recurses
MAX_SECONDS = 30  # for one file in the fallback parser's process
_CHAIN = re.compile(rb"(?:\.[ \t]*[A-Za-z_][A-Za-z_0-9]*[ \t]*){%d}" % MAX_DEPTH)


def too_deep(source: bytes | str) -> bool:
    """Does the source nest deeper than MAX_DEPTH (brackets, or an attribute chain), where
    libcst's native parser may exhaust its stack and kill the process?"""
    data = source.encode("utf-8", "surrogateescape") if isinstance(source, str) else source
    if _CHAIN.search(data):
        return True
    depth = 0
    for char in data.translate(None, _NOT_BRACKETS):
        depth += 1 if char in b"([{" else -1
        if depth > MAX_DEPTH:
            return True
    return False


_NOT_BRACKETS = bytes(c for c in range(256) if c not in b"()[]{}")


def lower(source: bytes | str) -> tuple | None:
    """(lowered source, lines of lazy imports, type parameter names by the line of their
    def / class, its tree when it was parsed already or None), or None when libcst cannot
    parse it either, when it nests too deep for it (too_deep), or when it takes over
    MAX_SECONDS. `lazy` statements alone are lowered as text (lower_lazy); libcst runs in a
    child process where there is fork: a crash of its native code costs that file, not the
    whole check."""
    found = lower_lazy(source)
    if found is not None:
        return found[0], found[1], {}, found[2]
    if too_deep(source):
        return None
    if not hasattr(os, "fork"):
        found = _lower(source)
        return found if found is None else (*found, None)
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        try:
            os.close(read_fd)
            signal.alarm(MAX_SECONDS)
            found = _lower(source)
            data = marshal.dumps(found if found is None else
                                 (found[0], found[1], {k: v for k, v in found[2].items()}))
            with os.fdopen(write_fd, "wb") as out:
                out.write(data)
        finally:
            os._exit(0)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as src:
        data = src.read()
    os.waitpid(pid, 0)
    try:
        found = marshal.loads(data) if data else None
        return found if found is None else (*found, None)
    except (ValueError, EOFError, TypeError):
        return None


_LAZY_STR = re.compile(r"^([ \t\f]*)lazy[ \t]+(?=(?:import|from)\b)", re.M)
_LAZY_BYTES = re.compile(_LAZY_STR.pattern.encode(), re.M)


def may_have_lazy(source: bytes | str) -> bool:
    """Does a line start with `lazy import` / `lazy from`? Then lower_lazy goes first: a
    failed `ast.parse` tokenizes the whole file again to report its error."""
    if isinstance(source, bytes):
        return b"lazy" in source and _LAZY_BYTES.search(source) is not None
    return "lazy" in source and _LAZY_STR.search(source) is not None


def lower_lazy(source: bytes | str) -> tuple[bytes | str, frozenset[int], ast.Module] | None:
    """(source with PEP 810's `lazy` dropped, the lines it was dropped on, its tree) when
    every `lazy` statement starts its line and nothing else keeps `ast` from parsing; else
    None (libcst decides). Plain text: libcst parses about 80 KB/s, a plan may rewrite 25 MB.
    Exact: each dropped `lazy` must leave an import statement starting where it stood, so a
    `lazy import` line inside a string cannot pass."""
    pattern = _LAZY_BYTES if isinstance(source, bytes) else _LAZY_STR
    newline = b"\n" if isinstance(source, bytes) else "\n"
    starts: dict[int, int] = {}  # line -> column of the import statement
    parts, last, line, at = [], 0, 1, 0
    for match in pattern.finditer(source):
        line += source.count(newline, at, match.start())
        at = match.start()
        starts[line] = len(match.group(1))
        parts += [source[last:match.end(1)]]
        last = match.end()
    if not starts:
        return None
    parts.append(source[last:])
    lowered = source[:0].join(parts)
    try:
        tree = ast.parse(lowered)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    found = {node.lineno for node in statements(tree)
             if isinstance(node, (ast.Import, ast.ImportFrom))
             and starts.get(node.lineno) == node.col_offset}
    return (lowered, frozenset(starts), tree) if found == set(starts) else None


def statements(tree: ast.Module):
    """Every statement of the tree, nested ones included (imports are statements: no need
    to visit the far more numerous expressions, as ast.walk does)."""
    todo = list(tree.body)
    while todo:
        node = todo.pop()
        yield node
        for field in ("body", "orelse", "finalbody"):
            more = getattr(node, field, None)
            if more and isinstance(more, list):
                todo.extend(more)
        for sub in getattr(node, "handlers", ()) or getattr(node, "cases", ()):
            todo.extend(sub.body)


def _lower(source: bytes | str):
    try:
        import libcst as cst
        from libcst.metadata import MetadataWrapper
        wrapper = MetadataWrapper(cst.parse_module(source))
        lowering = _lowering_class()()
        code = wrapper.visit(lowering).code
    except Exception:  # noqa: BLE001 - any failure of the fallback parser: nobody parses it
        return None
    return code, frozenset(lowering.lazy_lines), lowering.type_params
