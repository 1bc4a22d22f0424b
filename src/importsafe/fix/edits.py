"""Candidate edits of one import statement: source text in, source text out, comments and
formatting kept. Pure: no file IO.

Every read of the names a statement binds is classified from CPython's parse (refs.py):
- `function`: read inside a function body (runs later, when called);
- `annotation`: an annotation or type-hint string that is never evaluated (a string, a local
  variable's annotation, any annotation under `from __future__ import annotations`);
- `import-time`: anything else (module level, class bodies, decorators, defaults, evaluated
  annotations): the name must exist when the module runs, so the import cannot move.
The common edit (a whole statement deferred into functions) is a splice of lines; libcst
writes the others (a TYPE_CHECKING block, statements that share their lines).
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache

import libcst as cst
from libcst.metadata import MetadataWrapper, ParentNodeProvider, PositionProvider

from .refs import FUNCTION, IMPORT_TIME, Analysis, Ref

DEFER = "defer-into-functions"
TYPE_CHECKING_ONLY = "move-under-TYPE_CHECKING"
DEFER_AND_TYPE_CHECKING = "defer-and-TYPE_CHECKING"
UNPARSABLE = "the file cannot be parsed"


# libcst's native parser overflows the C stack (a segfault, not an exception) on
# expressions nested some ten thousand deep; CPython's own parser accepts a few thousand
MAX_DEPTH = 1000


class TooDeep(ValueError):
    """Source that Python cannot parse, or nested too deep to hand to libcst."""


class Parsed:
    """A text's libcst tree with positions, its import statements and its defs."""

    def __init__(self, text: str):
        self.wrapper = MetadataWrapper(parse(text), unsafe_skip_copy=True)  # nodes immutable
        finder = _ImportLines()
        self.wrapper.visit(finder)
        self.lines = finder.found
        self.functions = finder.functions


@lru_cache(maxsize=2)  # a large module's tree with its metadata is large: few at once
def parsed(text: str) -> Parsed:
    """TooDeep / ParserSyntaxError (not cached) when libcst cannot or must not parse it."""
    return Parsed(text)


def parse_ast(text: str) -> ast.Module:
    """CPython's parse of `text`; TooDeep when it fails or nests beyond MAX_DEPTH."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise TooDeep(f"Python cannot parse it ({type(exc).__name__})") from None
    stack = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise TooDeep(f"nested more than {MAX_DEPTH} levels deep")
        stack.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return tree


def parse(text: str) -> cst.Module:
    """libcst's module, after checking the nesting depth with CPython's parser."""
    parse_ast(text)
    return cst.parse_module(text)


@dataclass(frozen=True, slots=True)
class Edit:
    """A rewritten file: what kind of edit, which statement, and the new text."""

    kind: str
    line: int  # of the import statement in the original text
    names: tuple[str, ...]
    functions: tuple[str, ...]  # where the import was deferred to
    new_text: str


@dataclass(frozen=True, slots=True)
class NoEdit:
    """Why a statement cannot be edited safely."""

    line: int
    reason: str


class _ImportLines(cst.CSTVisitor):
    """Every import statement line, by the line it starts on; every def, by its name's."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self):
        self.found: dict[int, cst.SimpleStatementLine] = {}
        self.functions: dict[tuple[int, str], cst.FunctionDef] = {}  # by (line, name)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        line = self.get_metadata(PositionProvider, node.name).start.line
        self.functions[(line, node.name.value)] = node

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        if node.body and isinstance(node.body[0], (cst.Import, cst.ImportFrom)):
            self.found.setdefault(self.get_metadata(PositionProvider, node).start.line, node)


def _bound_name(alias: cst.ImportAlias) -> str:
    if alias.asname is not None:
        return alias.asname.name.value
    node = alias.name
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value


# a trailing comment that speaks to tools about its own line: meaningless once the line is gone
_DIRECTIVE = re.compile(r"#\s*(noqa\b|type:\s*ignore|pylint:|pyright:|mypy:|isort:|nosec\b|"
                        r"fmt:|ruff:|importsafe:|pragma\b)", re.I)


class _Rewrite(cst.CSTTransformer):
    """Replace the statement (by the TYPE_CHECKING block, or drop the moved names), and put
    an import of the moved names at the top of each function that reads them."""

    def __init__(self, stmt, moved: list, keep_type_checking: bool, per_function: dict):
        self.stmt = stmt
        self.moved = moved
        self.keep_type_checking = keep_type_checking
        self.per_function = per_function  # FunctionDef node -> [names it reads]
        self.orphans = None  # leading lines of the removed statement, until re-homed

    def _import_of(self, names) -> cst.SimpleStatementLine:
        node = self.stmt.body[0]
        aliases = [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in node.names
                   if _bound_name(a) in names]
        return cst.SimpleStatementLine(body=[node.with_changes(names=aliases)])

    def leave_SimpleStatementLine(self, original, updated):
        if original is not self.stmt:
            return updated
        node = updated.body[0]
        remaining = [a for a in node.names if _bound_name(a) not in self.moved]
        out: list = []
        if remaining:
            remaining[-1] = remaining[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
            out.append(updated.with_changes(body=[node.with_changes(names=remaining)]))
        if self.keep_type_checking:  # comments stay with whichever statement comes first
            inner = self._import_of(self.moved)
            if not remaining:
                inner = inner.with_changes(trailing_whitespace=updated.trailing_whitespace)
            out.append(cst.If(test=cst.Name("TYPE_CHECKING"), body=cst.IndentedBlock(
                body=[inner]), leading_lines=[] if remaining else updated.leading_lines))
        if out:
            return cst.FlattenSentinel(out)
        self.orphans = list(updated.leading_lines)  # comments on and above it must survive
        trailing = updated.trailing_whitespace.comment
        if trailing is not None and not _DIRECTIVE.match(trailing.value):
            self.orphans.append(cst.EmptyLine(comment=trailing))
        return cst.RemoveFromParent()

    def _rehome(self, original, updated):
        """After the statement left `original`'s body: keep its comments, never empty."""
        if self.stmt not in original.body or self.orphans is None:
            return updated
        at = list(original.body).index(self.stmt)
        body = list(updated.body)
        if at < len(body):
            body[at] = body[at].with_changes(leading_lines=[*self.orphans,
                                                            *body[at].leading_lines])
        elif isinstance(updated, cst.IndentedBlock) or not body:
            body.append(cst.SimpleStatementLine(body=[cst.Pass()],
                                                leading_lines=self.orphans))
        else:
            return updated.with_changes(body=body, footer=[*self.orphans, *updated.footer])
        self.orphans = None
        return updated.with_changes(body=body)

    def leave_Module(self, original, updated):
        return self._rehome(original, updated)

    def leave_IndentedBlock(self, original, updated):
        return self._rehome(original, updated)

    def leave_FunctionDef(self, original, updated):
        names = self.per_function.get(original)
        if not names:
            return updated
        stmt = self._import_of(names)
        body = updated.body
        if isinstance(body, cst.SimpleStatementSuite):
            return updated.with_changes(body=cst.IndentedBlock(
                body=[stmt, cst.SimpleStatementLine(body=body.body)]))
        lines = list(body.body)
        at = 1 if lines and _is_docstring(lines[0]) else 0
        return updated.with_changes(body=body.with_changes(body=lines[:at] + [stmt] +
                                                                lines[at:]))


def _is_docstring(stmt) -> bool:
    return isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 and \
        isinstance(stmt.body[0], cst.Expr) and \
        isinstance(stmt.body[0].value, (cst.SimpleString, cst.ConcatenatedString))


def _add_type_checking_import(code: str) -> str:
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import AddImportsVisitor
    context = CodemodContext()
    AddImportsVisitor.add_needed_import(context, "typing", "TYPE_CHECKING")
    return AddImportsVisitor(context).transform_module(cst.parse_module(code)).code


class Source:
    """A text as CPython parses it, with every read of its global names and where each
    import statement sits: shared by every edit of that text."""

    def __init__(self, text: str):
        self.text = text
        try:
            self.tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            raise TooDeep(f"Python cannot parse it ({type(exc).__name__})") from None
        self.lines = _LINE.findall(text)  # with their ends, split as CPython's tokenizer does
        self.eol = next((ln[len(ln.rstrip("\r\n")):] for ln in self.lines
                         if ln.endswith(("\n", "\r"))), "\n")
        self.analysis = Analysis(self.tree)
        if self.analysis.depth > MAX_DEPTH:
            raise TooDeep(f"nested more than {MAX_DEPTH} levels deep")
        self.imports: dict[int, tuple] = {}  # line -> (statement, its block, module scope?)
        self._starts: dict[int, int] = {}  # line -> statements starting on it
        stack = [(self.tree.body, True)]
        while stack:
            body, top = stack.pop()
            for stmt in body:
                self._starts[stmt.lineno] = self._starts.get(stmt.lineno, 0) + 1
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    self.imports.setdefault(stmt.lineno, (stmt, body, top))
                inner = top and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                      ast.ClassDef))
                for field in ("body", "orelse", "finalbody"):
                    block = getattr(stmt, field, None)
                    if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                        stack.append((block, inner))
                for sub in getattr(stmt, "handlers", ()) or getattr(stmt, "cases", ()):
                    stack.append((sub.body, inner))

    def line(self, number: int) -> str:
        return self.lines[number - 1] if 0 < number <= len(self.lines) else ""

    def before(self, number: int, col: int) -> str:
        return self.line(number).encode("utf-8")[:col].decode("utf-8", "replace")

    def after(self, number: int, col: int) -> str:
        return self.line(number).encode("utf-8")[col:].decode("utf-8", "replace").rstrip("\r\n")

    def alone(self, node: ast.stmt) -> bool:
        """Is `node` the only statement on its lines, from the start of its first line?"""
        rest = self.after(node.end_lineno, node.end_col_offset).strip()
        return not self.before(node.lineno, node.col_offset).strip() and \
            (not rest or rest.startswith("#")) and self._starts.get(node.lineno) == 1 and \
            all(self._starts.get(n, 0) == 0 for n in range(node.lineno + 1,
                                                             node.end_lineno + 1))

    def comments(self, node: ast.stmt) -> tuple[list[str], str | None]:
        """An import statement's comments inside it, and the one after it on its last line
        (import statements hold no strings, so every `#` starts a comment)."""
        inner = []
        for number in range(node.lineno, node.end_lineno + 1):
            text = self.line(number).rstrip("\r\n")
            if number == node.end_lineno:
                text = self.before(number, node.end_col_offset)
            if number == node.lineno:
                text = text.encode("utf-8")[node.col_offset:].decode("utf-8", "replace")
            if "#" in text:
                inner.append(text[text.index("#"):].rstrip())
        rest = self.after(node.end_lineno, node.end_col_offset).strip()
        return inner, (rest or None)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


@lru_cache(maxsize=4)
def source(text: str) -> Source:
    """TooDeep (not cached) when Python cannot or must not parse it."""
    return Source(text)


def _alias_text(alias: ast.alias) -> str:
    return alias.name + (f" as {alias.asname}" if alias.asname else "")


def _bound(alias: ast.alias) -> str:
    return alias.asname or alias.name.split(".")[0]


MAX_LINE = 88  # a longer from-import is written one name per line, in parentheses


def render_import(stmt, aliases, indent: str, eol: str) -> str:
    """`stmt` (an ast Import / ImportFrom) with only `aliases`, as its own line(s)."""
    names = [_alias_text(a) for a in aliases]
    if isinstance(stmt, ast.Import):
        return f"{indent}import {', '.join(names)}{eol}"
    head = f"{indent}from {'.' * stmt.level}{stmt.module or ''} import "
    if len(head) + len(", ".join(names)) <= MAX_LINE:
        return head + ", ".join(names) + eol
    return head + "(" + eol + "".join(f"{indent}    {n},{eol}" for n in names) + \
        indent + ")" + eol


def _uses(refs: dict) -> str:
    uses = sorted(n for n, rs in refs.items() if any(r.kind == IMPORT_TIME for r in rs))
    return "its names are used while the module runs" + (
        f" ({', '.join(uses)})" if uses else ", or never (imported for side effects)")


def _statement(text: str, line: int):
    """(Source, the import statement starting `line`) or NoEdit."""
    try:
        src = source(text)
    except TooDeep as exc:
        return NoEdit(line, f"{UNPARSABLE}: {exc}")
    found = src.imports.get(line)
    if found is None or src.before(line, found[0].col_offset).strip():
        return NoEdit(line, "no import statement on this line")
    stmt, _, top = found
    if not top:
        return NoEdit(line, "the import is not at module level")
    if any(a.name == "*" for a in stmt.names):
        return NoEdit(line, "a star import")
    if src._starts.get(line) != 1:
        return NoEdit(line, "the import shares its line with another statement")
    return src, stmt


def reads(src: Source, stmt) -> dict[str, list]:
    """bound name -> its reads (refs.Ref), for the names `stmt` binds; a name some function
    rebinds with `global` counts as read while the module runs."""
    out = {}
    for alias in stmt.names:
        name = _bound(alias)
        found = list(src.analysis.refs.get(name, ()))
        if name in src.analysis.global_decls:
            found.append(Ref(IMPORT_TIME, None, stmt.lineno, 0, 0, False, False))
        out[name] = found
    return out


def edit_statement(text: str, line: int) -> Edit | NoEdit:
    """The safe edit of the import statement starting on `line`, or why there is none."""
    found = _statement(text, line)
    if isinstance(found, NoEdit):
        return found
    src, stmt = found
    refs = reads(src, stmt)
    moved = [n for n, rs in refs.items() if rs and all(r.kind != IMPORT_TIME for r in rs)]
    if not moved:
        return NoEdit(line, _uses(refs))
    per_function: dict = {}  # ast def -> names it reads
    annotations = False
    for name in moved:
        for ref in refs[name]:
            if ref.kind == FUNCTION:
                per_function.setdefault(ref.function, []).append(name)
            else:  # an annotation no deferred import of the same function covers
                annotations = annotations or ref.function is None or \
                    not any(r.kind == FUNCTION and r.function is ref.function
                            for r in refs[name])
    per_function = {f: [n for n in dict.fromkeys(_bound(a) for a in stmt.names) if n in names]
                    for f, names in per_function.items()}
    new = _defer_in_text(src, stmt, moved, per_function, annotations)
    if new is None:
        new = _defer_with_libcst(text, line, moved, per_function, annotations)
        if isinstance(new, NoEdit):
            return new
    kind = DEFER_AND_TYPE_CHECKING if per_function and annotations else (
        DEFER if per_function else TYPE_CHECKING_ONLY)
    functions = tuple(sorted(f.name for f in per_function))
    return Edit(kind, line, tuple(sorted(moved)), functions, new)


def _defer_in_text(src: Source, stmt, moved, per_function, annotations) -> str | None:
    """The edit as a splice of lines (without libcst's cost), or None when the layout asks
    for libcst: a statement sharing its lines, a moved name sharing its line with one that
    stays, a one-line function suite, a TYPE_CHECKING bound some other way."""
    if not src.alone(stmt):
        return None
    splices = _statement_splices(src, stmt, moved, annotations)
    if splices is None:
        return None
    if annotations:
        typing = _type_checking_import(src, stmt)
        if typing is None:
            return None
        splices += typing
    for function, names in per_function.items():
        first = function.body[0]
        if first.lineno == function.lineno or src.before(first.lineno, first.col_offset).strip():
            return None  # `def f(): return x`
        body_indent = src.before(first.lineno, first.col_offset)
        aliases = [a for a in stmt.names if _bound(a) in names]
        new = render_import(stmt, aliases, body_indent, src.eol)
        if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and \
                isinstance(first.value.value, str):
            if not src.alone(first):
                return None
            at = first.end_lineno  # after the docstring
        else:
            at = first.lineno - 1  # after the header, above the comments that lead the body
            while at > function.lineno and (not src.line(at).strip() or
                                             src.line(at).lstrip().startswith("#")):
                at -= 1
        splices.append((at + 1, at, [new]))  # an empty range: an insertion
    lines = list(src.lines)
    if lines and not lines[-1].endswith(("\n", "\r")):
        lines[-1] += src.eol
    for first, last, new in sorted(splices, key=lambda s: (s[0], s[1]), reverse=True):
        lines[first - 1:last] = new
    out = "".join(lines)
    try:
        ast.parse(out)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None  # never hand back code that does not parse: let libcst try
    return out


def _statement_splices(src: Source, stmt, moved, annotations) -> list | None:
    """(first line, last line, new lines) for the statement itself: what stays of it, and
    the moved names under `if TYPE_CHECKING:` when annotations need them."""
    eol = src.eol
    indent = src.before(stmt.lineno, stmt.col_offset)
    remaining = [a for a in stmt.names if _bound(a) not in moved]
    if not remaining:
        if annotations:  # the whole statement, as it is, goes under the block
            block = [f"{indent}if TYPE_CHECKING:{eol}"] + [
                "    " + src.line(n) for n in range(stmt.lineno, stmt.end_lineno + 1)]
            return [(stmt.lineno, stmt.end_lineno, block)]
        inner, trailing = src.comments(stmt)
        kept = [c for c in (*inner, trailing) if c and not _DIRECTIVE.match(c)]
        lines = [f"{indent}{c}{eol}" for c in kept]
        _, block, _ = src.imports[stmt.lineno]
        if len(block) == 1 and block is not src.tree.body:
            lines.append(f"{indent}pass{eol}")  # the block must not end up empty
        return [(stmt.lineno, stmt.end_lineno, lines)]
    gone = [a for a in stmt.names if _bound(a) in moved]
    if stmt.end_lineno == stmt.lineno:
        out = [(stmt.lineno, stmt.lineno, [
            indent + render_import(stmt, remaining, "", "").rstrip() +
            src.after(stmt.lineno, stmt.end_col_offset) + eol])]
    else:
        out = []
        for alias in gone:  # each on a line of its own inside the parentheses
            text = src.line(alias.lineno).rstrip("\r\n")
            code, _, comment = text.partition("#")
            shared = [a for a in stmt.names if a is not alias and
                      alias.lineno in (a.lineno, a.end_lineno)]
            if alias.lineno != alias.end_lineno or shared or \
                    alias.lineno in (stmt.lineno, stmt.end_lineno) or \
                    code.strip().rstrip(",").strip() != _alias_text(alias):
                return None
            keep = comment and not _DIRECTIVE.match("#" + comment)
            out.append((alias.lineno, alias.lineno,
                        [f"{src.before(alias.lineno, alias.col_offset)}#{comment}{eol}"]
                        if keep else []))
    if annotations:
        out.append((stmt.end_lineno + 1, stmt.end_lineno, [
            f"{indent}if TYPE_CHECKING:{eol}", render_import(stmt, gone, indent + "    ", eol)]))
    return out


def _type_checking_import(src: Source, stmt) -> list | None:
    """The splice that imports TYPE_CHECKING from typing, after the module's leading imports
    ([] when one before `stmt` already does; None when the name is bound some other way)."""
    body = src.tree.body
    for node in body:
        if node.lineno >= stmt.lineno:
            break
        if isinstance(node, ast.ImportFrom) and node.module in ("typing", "typing_extensions") \
                and any(a.name == "TYPE_CHECKING" and a.asname in (None, "TYPE_CHECKING")
                        for a in node.names):
            return []
    if "TYPE_CHECKING" in src.analysis.module_scope.bound:
        return None
    at, i = 0, 0
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        at, i = body[0].end_lineno, 1
    while i < len(body) and body[i] is not stmt and isinstance(body[i], (ast.Import,
                                                                         ast.ImportFrom)):
        at, i = body[i].end_lineno, i + 1
    if at == 0:
        at = stmt.lineno - 1  # nothing leads: just above the statement
    new = [f"from typing import TYPE_CHECKING{src.eol}"]
    if src.line(at + 1).strip():
        new.append(src.eol)  # the imports stand apart from the code that follows
    return [(at + 1, at, new)]


def _defer_with_libcst(text: str, line: int, moved, per_function, annotations):
    """The deferral (and TYPE_CHECKING block) written by libcst, for the layouts the text
    splice leaves alone."""
    try:
        found = parsed(text)
    except (cst.ParserSyntaxError, RecursionError, TooDeep) as exc:
        return NoEdit(line, f"{UNPARSABLE}: {exc}")
    stmt = found.lines.get(line)
    if stmt is None:
        return NoEdit(line, "no import statement on this line")
    defs = {(d.lineno, d.name): names for d, names in per_function.items()}
    by_node = {node: defs[key] for key, node in found.functions.items() if key in defs}
    if len(by_node) != len(defs):
        return NoEdit(line, "a function that reads the names cannot be located")
    new = found.wrapper.module.visit(_Rewrite(stmt, moved, annotations, by_node)).code
    if annotations:
        new = _add_type_checking_import(new)
    return new


MODULE_IMPORT = "import-module-use-attributes"


def module_import_edit(text: str, line: int) -> Edit | NoEdit:
    """`from M import name` -> an import of the module M itself, uses -> `M.name`: keeps M
    loaded at import time, and `from P import m` succeeds mid-cycle through sys.modules."""
    found = _statement(text, line)
    if isinstance(found, NoEdit):
        return found
    src, stmt = found
    if not isinstance(stmt, ast.ImportFrom) or stmt.module is None:
        return NoEdit(line, "not a `from M import name` statement")
    parent, _, last = stmt.module.rpartition(".")
    refs = reads(src, stmt)
    if any(not rs or any(r.kind != FUNCTION for r in rs) for rs in refs.values()):
        return NoEdit(line, "some names are not used only inside functions")
    if any(r.in_fstring for rs in refs.values() for r in rs):
        return NoEdit(line, "a name is read inside an f-string")
    if last in src.analysis.bound_anywhere:
        return NoEdit(line, f"'{last}' is already a name in this module")
    if not src.alone(stmt) or src.comments(stmt)[0]:
        return NoEdit(line, "the statement shares its lines or holds comments")
    attrs = {_bound(a): a.name for a in stmt.names}
    dots = "." * stmt.level
    replacement = f"from {dots}{parent} import {last}" if parent or dots else f"import {last}"
    lines = list(src.lines)
    edits = [(stmt.lineno, stmt.col_offset, stmt.end_lineno, stmt.end_col_offset,
              replacement)]
    edits += [(r.line, r.col, r.line, r.end_col, f"{last}.{attrs[name]}")
              for name, rs in refs.items() for r in rs]
    for first, col, end, end_col, new in sorted(edits, reverse=True):
        head = lines[first - 1].encode("utf-8")[:col]
        tail = lines[end - 1].encode("utf-8")[end_col:]
        lines[first - 1:end] = [(head + new.encode("utf-8") + tail).decode("utf-8")]
    return Edit(MODULE_IMPORT, line, tuple(sorted(attrs)), (), "".join(lines))


def _statement_at(text: str, line: int):
    """(metadata wrapper, the import statement starting on `line` or None, its first small
    statement or None), or NoEdit when libcst cannot parse the text."""
    try:
        found = parsed(text)
    except Exception as exc:  # noqa: BLE001
        return NoEdit(line, f"{UNPARSABLE}: {exc}")
    stmt = found.lines.get(line)
    return found.wrapper, stmt, (stmt.body[0] if stmt is not None else None)


LAZY = "make-lazy"  # PEP 810 `lazy import` / `lazy from ... import ...` (Python 3.15+)


class _MakeLazy(cst.CSTTransformer):
    def __init__(self, stmt):
        self.stmt = stmt

    def leave_SimpleStatementLine(self, original, updated):
        if original is not self.stmt:
            return updated
        return updated.with_changes(body=[lazy_statement(updated.body[0]),
                                          *updated.body[1:]])


def lazy_statement(node):
    """The PEP 810 `lazy` form of an `import` / `from ... import` node, its layout kept."""
    if isinstance(node, cst.Import):
        return cst.LazyImport(names=node.names, semicolon=node.semicolon,
                              whitespace_after_import=node.whitespace_after_import)
    return cst.LazyImportFrom(
        module=node.module, names=node.names, relative=node.relative, lpar=node.lpar,
        rpar=node.rpar, semicolon=node.semicolon,
        whitespace_after_from=node.whitespace_after_from,
        whitespace_before_import=node.whitespace_before_import,
        whitespace_after_import=node.whitespace_after_import)


def lazy_edit(text: str, line: int) -> Edit | NoEdit:
    """`import m` / `from m import name` -> the PEP 810 `lazy` form (Python 3.15+): nothing
    is imported until a name it binds is first read. Only where PEP 810 allows `lazy`:
    module level, outside `try`, functions and classes; never a star or `__future__`
    import (docs/lazy.md L1)."""
    if not hasattr(cst, "LazyImport"):
        return NoEdit(line, "this libcst cannot write `lazy` imports")
    found = _statement_at(text, line)
    if isinstance(found, NoEdit):
        return found
    wrapper, stmt, node = found
    if node is None:
        return NoEdit(line, "no import statement on this line")
    if isinstance(getattr(node, "names", None), cst.ImportStar):
        return NoEdit(line, "a star import cannot be lazy")
    if isinstance(node, cst.ImportFrom) and node.module is not None and not node.relative \
            and cst.Module([]).code_for_node(node.module) == "__future__":
        return NoEdit(line, "a __future__ import cannot be lazy")
    parents = wrapper.resolve(ParentNodeProvider)
    current = stmt
    while current in parents:
        current = parents[current]
        if isinstance(current, (cst.FunctionDef, cst.ClassDef, cst.Try,
                                getattr(cst, "TryStar", cst.Try))):
            return NoEdit(line, "`lazy` is allowed only at module level, outside try")
    new = wrapper.module.visit(_MakeLazy(stmt)).code
    names = tuple(sorted(_bound_name(a) for a in node.names))
    return Edit(LAZY, line, names, (), new)
