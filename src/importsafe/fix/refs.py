"""Where a module's global names are read, from CPython's own parse (`ast`): for each read,
whether it runs while the module runs, only later inside a function, or never (an annotation
that is not evaluated). Pure: a parsed module in, facts out.

Written by hand because libcst's scope analysis is ten times slower than this walk on a large
module, and it misreads dotted imports (`import os.path` then `os.path.join(...)` is no read of
`os` to it). The rules are CPython's (the language reference's "Naming and binding"):
function and comprehension scopes skip class scopes; a name bound anywhere in a function is local to all of
it unless declared `global`; defaults, decorators, bases and evaluated annotations run in the
enclosing scope, as does a comprehension's first iterable.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass

IMPORT_TIME = "import-time"  # read while the module runs: the import cannot move
FUNCTION = "function"  # read only inside a function body (`function` says which)
ANNOTATION = "annotation"  # an annotation or type-hint string that is never evaluated

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_TYPING = ("typing", "typing_extensions")


@dataclass(frozen=True, slots=True)
class Ref:
    """One read of a global name."""

    kind: str
    function: ast.AST | None  # the outermost def whose body holds the read, if any
    line: int
    col: int  # UTF-8 byte offset, as ast gives it
    end_col: int
    in_fstring: bool  # positions inside f-strings are unreliable before 3.12
    in_string: bool  # inside a string annotation: not a spot in the text


class _Scope:
    __slots__ = ("kind", "node", "parent", "bound", "globals", "nonlocals")

    def __init__(self, kind: str, node, parent):
        self.kind, self.node, self.parent = kind, node, parent
        self.bound: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()


class Analysis:
    """Every read of every global name of a module, what binds names where, and how deep
    its syntax tree nests (`depth`)."""

    def __init__(self, tree: ast.Module):
        self.tree = tree
        self.future_annotations = any(
            isinstance(s, ast.ImportFrom) and s.module == "__future__" and
            any(a.name == "annotations" for a in s.names) for s in tree.body)
        self.refs: dict[str, list[Ref]] = {}
        self.global_decls: set[str] = set()  # names some function declares `global`
        self.bound_anywhere: set[str] = set()  # names bound in any scope
        self.module_scope = _Scope("module", tree, None)
        self._scopes: list[_Scope] = [self.module_scope]
        self._typing_names: set[str] = set()  # local names of typing.X (for X["..."] hints)
        self._typing_modules: set[str] = set()
        self._pending: list[tuple] = []  # (name, scope, node, flags) until scopes are known
        self._walk()
        self._resolve()

    # -- binding pass and reads, one iterative walk (no recursion limit on deep code)
    def _walk(self) -> None:
        # stack items: (node, scope, annotation, evaluated_annotation, fstring, typehint,
        # depth)
        stack: list[tuple] = [(self.tree, self.module_scope, False, False, False, False, 0)]
        deepest = 0
        while stack:
            node, scope, ann, evaluated, fstr, hint, depth = stack.pop()
            deepest = max(deepest, depth)
            children = self._visit(node, scope, ann, evaluated, fstr, hint)
            stack.extend((*c, depth + 1) for c in reversed(children))
        self.depth = deepest

    def _bind(self, scope: _Scope, name: str) -> None:
        scope.bound.add(name)
        self.bound_anywhere.add(name)

    def _new_scope(self, kind: str, node, parent: _Scope) -> _Scope:
        scope = _Scope(kind, node, parent)
        self._scopes.append(scope)
        return scope

    def _visit(self, node, scope, ann, evaluated, fstr, hint) -> list[tuple]:
        kids = []

        def add(child, s=scope, a=ann, e=evaluated, f=fstr, h=hint):
            if child is not None:
                kids.append((child, s, a, e, f, h))

        if isinstance(node, ast.Name):
            if isinstance(node.ctx, ast.Store):
                self._bind(scope, node.id)
            else:
                if isinstance(node.ctx, ast.Del):
                    self._bind(scope, node.id)
                self._pending.append((node.id, scope, node, ann, evaluated, fstr, False))
            return kids
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self._bind(scope, node.name)
            for d in node.decorator_list:
                add(d)
            self._arguments(node.args, scope, add)
            add(node.returns, a=True, e=True)
            inner = self._new_scope("function", node, scope)
            for stmt in node.body:
                add(stmt, s=inner, a=False, e=False, f=False, h=False)
            return kids
        if isinstance(node, ast.Lambda):
            self._arguments(node.args, scope, add)
            inner = self._new_scope("function", node, scope)
            add(node.body, s=inner)
            return kids
        if isinstance(node, ast.ClassDef):
            self._bind(scope, node.name)
            for d in node.decorator_list:
                add(d)
            for b in node.bases:
                add(b)
            for k in node.keywords:
                add(k.value)
            inner = self._new_scope("class", node, scope)
            for stmt in node.body:
                add(stmt, s=inner, a=False, e=False, f=False, h=False)
            return kids
        if isinstance(node, _COMPREHENSIONS):
            first, *rest = node.generators
            add(first.iter)
            inner = self._new_scope("comprehension", node, scope)
            for gen in (first, *rest):
                add(gen.target, s=inner)
                if gen is not first:
                    add(gen.iter, s=inner)
                for cond in gen.ifs:
                    add(cond, s=inner)
            if isinstance(node, ast.DictComp):
                add(node.key, s=inner)
                add(node.value, s=inner)
            else:
                add(node.elt, s=inner)
            return kids
        if isinstance(node, ast.NamedExpr):
            target = scope
            while target.kind == "comprehension":
                target = target.parent
            self._bind(target, node.target.id)
            add(node.value)
            return kids
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    continue
                bound = alias.asname or alias.name.split(".")[0]
                self._bind(scope, bound)
                if isinstance(node, ast.ImportFrom) and node.module in _TYPING and \
                        not node.level:
                    self._typing_names.add(bound)
                if isinstance(node, ast.Import) and alias.name in _TYPING:
                    self._typing_modules.add(bound)
            return kids
        if isinstance(node, ast.Global):
            scope.globals.update(node.names)
            if scope.kind != "module":
                self.global_decls.update(node.names)
            return kids
        if isinstance(node, ast.Nonlocal):
            scope.nonlocals.update(node.names)
            return kids
        if isinstance(node, ast.ExceptHandler):
            if node.name:
                self._bind(scope, node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)):
            if node.name:
                self._bind(scope, node.name)
        elif isinstance(node, ast.MatchMapping):
            if node.rest:
                self._bind(scope, node.rest)
        elif isinstance(node, ast.AnnAssign):
            add(node.target)
            # a local variable's annotation is never evaluated; elsewhere it is (< 3.14)
            add(node.annotation, a=True, e=scope.kind != "function")
            add(node.value)
            return kids
        elif isinstance(node, ast.JoinedStr):
            for v in node.values:
                add(v, f=True)
            return kids
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, str) and (ann or hint):
                self._string_hint(node, scope)
            return kids
        elif isinstance(node, ast.Subscript):
            literal = self._is_typing(node.value, "Literal")
            add(node.value)
            if literal:  # Literal["x"] holds values, not names
                add(node.slice, a=False, h=False)
            else:
                add(node.slice, h=hint or self._is_typing(node.value, None))
            return kids
        elif isinstance(node, ast.Call):
            add(node.func)
            if self._is_typing(node.func, "cast") and node.args:
                add(node.args[0], h=True)
                for a in node.args[1:]:
                    add(a, h=False)
            elif (self._is_typing(node.func, "TypeVar") or
                  self._is_typing(node.func, "NewType")) and node.args:
                add(node.args[0], h=False)
                for a in node.args[1:]:
                    add(a, h=True)
            else:
                for a in node.args:
                    add(a, h=False)
            for k in node.keywords:
                add(k.value, h=False)
            return kids
        for child in ast.iter_child_nodes(node):
            add(child)
        return kids

    def _arguments(self, args: ast.arguments, scope, add) -> None:
        # defaults and annotations are evaluated where the def is, when it runs
        for d in (*args.defaults, *(d for d in args.kw_defaults if d is not None)):
            add(d)
        for a in (*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs, args.kwarg):
            if a is not None and a.annotation is not None:
                add(a.annotation, a=True, e=True)

    def _is_typing(self, func, name: str | None) -> bool:
        """`func` is typing's `name` (any typing name when None), by a from-import or as
        `typing.name`."""
        if isinstance(func, ast.Name):
            return func.id in self._typing_names and (name is None or func.id == name)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            return func.value.id in self._typing_modules and \
                (name is None or func.attr == name)
        return False

    def _string_hint(self, node: ast.Constant, scope) -> None:
        """A string annotation or type hint: its names are read, never evaluated."""
        try:
            inner = ast.parse(node.value.strip(), mode="eval")
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return  # CPython would not evaluate it either
        for sub in ast.walk(inner):
            if isinstance(sub, ast.Name):
                self._pending.append((sub.id, scope, node, True, False, False, True))

    # -- resolution, once every scope's bindings are known
    def _resolve(self) -> None:
        for name, scope, node, ann, evaluated, fstr, string in self._pending:
            if not self._is_global(name, scope):
                continue
            function = _outermost_function(scope)
            if isinstance(function, ast.Lambda):
                function = None  # no statement can go into a lambda
            if string or (ann and (not evaluated or self.future_annotations)):
                kind = ANNOTATION
            else:
                kind = IMPORT_TIME if function is None else FUNCTION
            self.refs.setdefault(name, []).append(Ref(
                kind, function, node.lineno, node.col_offset, node.end_col_offset, fstr,
                string))
        self._pending = []

    def _is_global(self, name: str, scope: _Scope) -> bool:
        """Does a read of `name` in `scope` reach the module's global?"""
        first = True
        while scope.kind != "module":
            if name in scope.globals:
                return True
            if name in scope.nonlocals:
                return False
            if scope.kind == "class":
                # a class body reads its own binding if already made, else the global:
                # counted as a read of the global, which is never the unsafe side
                if not first:
                    scope = scope.parent
                    continue
            elif name in scope.bound:
                return False
            first = False
            scope = scope.parent
        return True


def _outermost_function(scope: _Scope):
    found = None
    while scope is not None:
        if scope.kind == "function":
            found = scope.node
        scope = scope.parent
    return found
