"""Scope analysis for the PEP 810 emulation's rewrite (lazyrewrite.py loads it by path).

Stdlib only, Python 3.8+ syntax. Which names a scope binds, from the language rules (not
symtable, whose tables differ between versions: 3.12 inlines comprehensions), so that the
rewrite guards a read only where it resolves to the module global.
"""

import ast


def bound_names(node):
    """The names an import statement binds in its scope."""
    if isinstance(node, ast.Import):
        return [a.asname or a.name.partition(".")[0] for a in node.names]
    return [a.asname or a.name for a in node.names if a.name != "*"]


class Scope(object):
    """The names a scope binds, to tell a global read from a local or free one."""

    def __init__(self, kind, parent, bound=()):
        self.kind, self.parent = kind, parent  # kind: "module", "class" or "function"
        self.bound = set(bound)
        self.declared_global = set()
        self.declared_nonlocal = set()

    def resolve(self, name):
        """"r" (LOAD_GLOBAL, or LOAD_NAME at module level), "rn" (LOAD_NAME in a class
        body: the class namespace, then the globals) or None (a local or free variable)."""
        if self.kind == "module" or name in self.declared_global:
            return "r"
        if name in self.declared_nonlocal:
            return None
        if self.kind == "class":
            return "rn" if name in self.bound or not self._free(name) else None
        return None if name in self.bound or self._free(name) else "r"

    def _free(self, name):
        scope = self.parent
        while scope is not None and scope.kind != "module":
            if scope.kind == "function":
                if name in scope.declared_global:
                    return False
                if name in scope.bound or name in scope.declared_nonlocal:
                    return True
            scope = scope.parent
        return False


def bind_arguments(scope, args):
    for arg in getattr(args, "posonlyargs", []) + args.args + args.kwonlyargs:
        scope.bound.add(arg.arg)
    for arg in (args.vararg, args.kwarg):
        if arg is not None:
            scope.bound.add(arg.arg)


def bind_body(scope, body):
    binder = Binder(scope)
    for node in body:
        binder.visit(node)
    return scope


def _defaults(args):
    return args.defaults + [d for d in args.kw_defaults if d is not None]


class Binder(ast.NodeVisitor):
    """Collects the names a scope's own code binds (not its nested scopes')."""

    def __init__(self, scope):
        self.scope = scope

    def visit_Name(self, node):
        if not isinstance(node.ctx, ast.Load):
            self.scope.bound.add(node.id)

    def visit_Global(self, node):
        self.scope.declared_global.update(node.names)

    def visit_Nonlocal(self, node):
        self.scope.declared_nonlocal.update(node.names)

    def visit_Import(self, node):
        self.scope.bound.update(bound_names(node))

    visit_ImportFrom = visit_Import

    def visit_FunctionDef(self, node):
        self.scope.bound.add(node.name)
        for expr in node.decorator_list + _defaults(node.args):
            self.visit(expr)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node):
        self.scope.bound.add(node.name)
        for expr in node.decorator_list + node.bases + [k.value for k in node.keywords]:
            self.visit(expr)

    def visit_Lambda(self, node):
        for expr in _defaults(node.args):
            self.visit(expr)

    def _comprehension(self, node):
        self.visit(node.generators[0].iter)
        for sub in ast.walk(node):  # `:=` in a comprehension binds in the enclosing scope
            if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
                self.scope.bound.add(sub.target.id)

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_ExceptHandler(self, node):
        if node.name:
            self.scope.bound.add(node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node):
        if node.name:
            self.scope.bound.add(node.name)
        self.generic_visit(node)

    visit_MatchStar = visit_MatchAs

    def visit_MatchMapping(self, node):
        if node.rest:
            self.scope.bound.add(node.rest)
        self.generic_visit(node)

    def visit_TypeAlias(self, node):
        self.visit(node.name)
