"""Candidate edits of one import statement, computed and applied with libcst (source text in,
source text out, comments and formatting preserved). Pure: no file IO.

For the names a statement binds, every reference is classified with libcst's scope analysis:
- `function`: read inside a function body (runs later, when called);
- `annotation`: an annotation that is never evaluated at import time (a string, a local
  variable annotation, or any annotation under `from __future__ import annotations`);
- `import-time`: anything else (module level, class bodies, decorators, defaults, evaluated
  annotations): the name must exist when the module runs, so the import cannot move.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from functools import lru_cache

import libcst as cst
from libcst.metadata import (
    ClassScope, ComprehensionScope, FunctionScope, GlobalScope, MetadataWrapper,
    ParentNodeProvider, PositionProvider, ScopeProvider,
)

DEFER = "defer-into-functions"
TYPE_CHECKING_ONLY = "move-under-TYPE_CHECKING"
DEFER_AND_TYPE_CHECKING = "defer-and-TYPE_CHECKING"


# libcst's native parser overflows the C stack (a segfault, not an exception) on
# expressions nested some ten thousand deep; CPython's own parser accepts a few thousand
MAX_DEPTH = 1000


class TooDeep(ValueError):
    """Source nested too deep to hand to libcst."""


class Parsed:
    """A text's libcst tree with its metadata and import statements, shared by every edit
    of that text (scope analysis is the costly part)."""

    def __init__(self, text: str):
        self.wrapper = MetadataWrapper(parse(text), unsafe_skip_copy=True)  # nodes immutable
        finder = _ImportLines()
        self.wrapper.visit(finder)
        self.lines = finder.found


@lru_cache(maxsize=2)  # a large module's tree with its metadata is large: few at once
def parsed(text: str) -> Parsed:
    """TooDeep / ParserSyntaxError (not cached) when libcst cannot or must not parse it."""
    return Parsed(text)


def parse(text: str) -> cst.Module:
    """libcst's module, after checking the nesting depth with CPython's parser."""
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
    """Every import statement line, by the line it starts on."""

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self):
        self.found: dict[int, cst.SimpleStatementLine] = {}

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


def _function_of(scope):
    """The outermost FunctionScope enclosing `scope`, or None at module / class level."""
    found = None
    while scope is not None and not isinstance(scope, GlobalScope):
        if isinstance(scope, FunctionScope):
            found = scope
        scope = scope.parent
    return found


def classify(wrapper: MetadataWrapper, stmt, future: bool) -> dict[str, list]:
    """name -> [(kind, outermost function scope or None)] for every reference."""
    scopes = wrapper.resolve(ScopeProvider)
    out: dict[str, list] = {}
    global_scope = scopes[stmt]
    for alias in stmt.body[0].names:
        name = _bound_name(alias)
        refs = out.setdefault(name, [])
        for assignment in global_scope[name]:
            if getattr(assignment, "node", None) is not stmt.body[0]:
                continue
            for ref in assignment.references:
                function = _function_of(ref.scope)
                string = isinstance(ref.node, (cst.SimpleString, cst.ConcatenatedString))
                if ref.is_annotation and (future or string or function is not None):
                    refs.append(("annotation", function))
                elif function is not None and not isinstance(ref.scope, ClassScope):
                    refs.append(("function", function))
                elif isinstance(ref.scope, ComprehensionScope) and function is not None:
                    refs.append(("function", function))
                else:
                    refs.append(("import-time", None))
    return out


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


def _has_future_annotations(module: cst.Module) -> bool:
    for stmt in module.body:
        if isinstance(stmt, cst.SimpleStatementLine) and stmt.body and \
                isinstance(stmt.body[0], cst.ImportFrom) and stmt.body[0].module is not None \
                and cst.Module([]).code_for_node(stmt.body[0].module) == "__future__" and \
                not isinstance(stmt.body[0].names, cst.ImportStar) and \
                any(_bound_name(a) == "annotations" for a in stmt.body[0].names):
            return True
    return False


def _add_type_checking_import(code: str) -> str:
    from libcst.codemod import CodemodContext
    from libcst.codemod.visitors import AddImportsVisitor
    context = CodemodContext()
    AddImportsVisitor.add_needed_import(context, "typing", "TYPE_CHECKING")
    return AddImportsVisitor(context).transform_module(cst.parse_module(code)).code


def edit_statement(text: str, line: int) -> Edit | NoEdit:
    """The safe edit of the import statement starting on `line`, or why there is none."""
    try:
        found = parsed(text)
    except (cst.ParserSyntaxError, RecursionError, TooDeep) as exc:
        return NoEdit(line, f"libcst cannot parse the file: {exc}")
    wrapper = found.wrapper
    stmt = found.lines.get(line)
    if stmt is None or isinstance(getattr(stmt.body[0], "names", None), cst.ImportStar):
        return NoEdit(line, "no import statement (or a star import) on this line")
    refs = classify(wrapper, stmt, _has_future_annotations(wrapper.module))
    moved = [n for n, rs in refs.items() if rs and all(k != "import-time" for k, _ in rs)]
    if not moved:
        uses = sorted({n for n, rs in refs.items() if any(k == "import-time" for k, _ in rs)})
        return NoEdit(line, "its names are used while the module runs" + (
            f" ({', '.join(uses)})" if uses else ", or never (imported for side effects)"))
    per_function: dict = {}
    annotations = False
    for name in moved:
        for kind, function in refs[name]:
            if kind == "function":
                per_function.setdefault(function.node, []).append(name)
            else:
                annotations = annotations or function is None or \
                    not any(k == "function" and f is function for k, f in refs[name])
    per_function = {k: sorted(set(v)) for k, v in per_function.items()}
    new = wrapper.module.visit(_Rewrite(stmt, moved, annotations, per_function)).code
    if annotations:
        new = _add_type_checking_import(new)
    kind = DEFER_AND_TYPE_CHECKING if per_function and annotations else (
        DEFER if per_function else TYPE_CHECKING_ONLY)
    functions = tuple(sorted(f.name.value for f in per_function))
    return Edit(kind, line, tuple(sorted(moved)), functions, new)


MODULE_IMPORT = "import-module-use-attributes"


class _ToAttributes(cst.CSTTransformer):
    """`from M import a` -> `from <parent of M> import <last of M>` (or `import M`), and each
    reference to `a` -> `<last>.a`."""

    def __init__(self, stmt, replacement, names: dict, refs: set):
        self.stmt, self.replacement, self.names, self.refs = stmt, replacement, names, refs

    def leave_SimpleStatementLine(self, original, updated):
        if original is not self.stmt:
            return updated
        return updated.with_changes(body=[self.replacement])

    def leave_Name(self, original, updated):
        if original in self.refs:
            module, attr = self.names[original.value]
            return cst.Attribute(value=cst.Name(module), attr=cst.Name(attr))
        return updated


def _statement_at(text: str, line: int):
    """(metadata wrapper, the import statement starting on `line` or None, its first small
    statement or None), or NoEdit when libcst cannot parse the text."""
    try:
        found = parsed(text)
    except Exception as exc:  # noqa: BLE001
        return NoEdit(line, f"libcst cannot parse the file: {exc}")
    stmt = found.lines.get(line)
    return found.wrapper, stmt, (stmt.body[0] if stmt is not None else None)


def module_import_edit(text: str, line: int) -> Edit | NoEdit:
    """`from M import name` -> an import of the module M itself, uses -> `M.name`: keeps M
    loaded at import time, and `from P import m` succeeds mid-cycle through sys.modules."""
    found = _statement_at(text, line)
    if isinstance(found, NoEdit):
        return found
    wrapper, stmt, node = found
    if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar) or \
            node.module is None:
        return NoEdit(line, "not a `from M import name` statement")
    dotted = cst.Module([]).code_for_node(node.module)
    parent, _, last = dotted.rpartition(".")
    refs = classify(wrapper, stmt, _has_future_annotations(wrapper.module))
    if any(not rs or any(k != "function" for k, _ in rs) for rs in refs.values()):
        return NoEdit(line, "some names are not used only inside functions")
    scopes = wrapper.resolve(ScopeProvider)
    if last in scopes[stmt]:
        return NoEdit(line, f"'{last}' is already a name in this module")
    names = {_bound_name(a): (last, cst.Module([]).code_for_node(a.name)) for a in node.names}
    nodes = set()
    for assignment in scopes[stmt].assignments:
        if assignment.node is node:
            nodes.update(ref.node for ref in assignment.references
                         if isinstance(ref.node, cst.Name))
    dots = "." * len(node.relative)
    if parent or dots:
        source = f"from {dots}{parent} import {last}"
    else:
        source = f"import {last}"
    replacement = cst.parse_statement(source).body[0]
    new = wrapper.module.visit(_ToAttributes(stmt, replacement, names, nodes)).code
    return Edit(MODULE_IMPORT, line, tuple(sorted(names)), (), new)


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
