"""The source rewrite of the PEP 810 emulation (lazyemu.py is its run time): source -> AST.

Stdlib only, Python 3.8+ syntax: lazyemu.py loads this file by path, and this file loads
lazyscope.py, its scope analysis, the same way. transform() returns the AST lazyemu's loader
compiles, in which the helpers of lazyemu.install() (builtins.__importsafe_lazy__) run:

- `lazy import ...` / `lazy from ...` lose their `lazy` before parsing (strip_lazy; lines and
  the columns of every name stay as written); misplaced ones raise the 3.15 SyntaxErrors.
- every eligible import statement (L1) that may be lazy becomes
      if not __importsafe_lazy__.lazy_import(EXPLICIT, 'a.b.c', ASNAME):
          import a.b.c as ASNAME           # the original node: eager runs stay CPython's own
  (one `if` per name of `import x, y`; `from m import x, y` becomes one `lazy_from` call).
  The helper decides at run time (L2: global mode "all", an explicit `lazy`, or the resolved
  name `in __lazy_modules__`), binds one proxy per name and registers the dotted path (L3).
- every read of such a name (and, in a package's __init__, of the name of any submodule on
  disk) that resolves to the module global becomes
      (__importsafe_lazy__.r('x') and x)    # class bodies: rn(), class namespace first
  r() reifies a proxy found in the module dict in place (L4); the name itself is then read
  natively, so NameError, LOAD_NAME/LOAD_GLOBAL and builtins behave exactly as in CPython.
  Scopes are computed in lazyscope.py (Scope) from the language rules, not with symtable,
  whose tables differ between versions (3.12 inlines comprehensions). `x += 1` and names in
  `match` patterns (which must stay names) get a `r('x')` statement just before the statement.
"""

import ast
import io
import os
import sys
import tokenize
from importlib.machinery import all_suffixes
from importlib.util import module_from_spec, spec_from_file_location

HELPER = "__importsafe_lazy__"


def _sibling(name, filename):
    """The module of a file next to this one, loaded by path and registered under `name` so
    that it loads once: importsafe is not importable in the target interpreter, and its
    directory never goes on sys.path. As lazyemu._sibling."""
    module = sys.modules.get(name)
    if module is None:
        spec = spec_from_file_location(
            name, os.path.join(os.path.dirname(os.path.abspath(__file__)), filename))
        module = module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException:  # noqa: B902 - never leave a half-run module behind
            del sys.modules[name]
            raise
    return module


_scopes = _sibling("_importsafe_lazyscope", "lazyscope.py")
_Scope, _Binder, _bind_arguments, _bind_body, _bound_names = (
    _scopes.Scope, _scopes.Binder, _scopes.bind_arguments, _scopes.bind_body,
    _scopes.bound_names)


# --- source transformation ------------------------------------------------------------

_STATEMENT_START = (tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING)
_OPEN, _CLOSE = frozenset("([{"), frozenset(")]}")


def strip_lazy(text):
    """Remove the PEP 810 soft keyword: `lazy import x` -> `import      x` (the statement
    starts where `lazy` did, every name keeps its column). Returns the new text and the
    (line, UTF-8 column) of every statement that was marked lazy, as ast reports them."""
    if "lazy" not in text:
        return text, frozenset()
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type not in (tokenize.NL, tokenize.COMMENT)]
    except (tokenize.TokenError, SyntaxError):
        return text, frozenset()
    edits = []
    depth = 0
    prev = None
    for i, tok in enumerate(tokens):
        if tok.type == tokenize.OP:
            depth += tok.string in _OPEN
            depth -= tok.string in _CLOSE
        elif tok.type == tokenize.NAME and tok.string == "lazy" and i + 1 < len(tokens):
            nxt = tokens[i + 1]
            start = prev is None or prev.type in _STATEMENT_START or (
                prev.type == tokenize.OP and (prev.string == ";" or
                                              (prev.string == ":" and depth == 0)))
            if start and nxt.type == tokenize.NAME and nxt.string in ("import", "from") \
                    and nxt.start[0] == tok.start[0]:
                edits.append((tok.start[0], tok.start[1], nxt.start[1], nxt.end[1]))
        prev = tok
    if not edits:
        return text, frozenset()
    lines = text.split("\n")
    found = set()
    for line_no, col, kw_start, kw_end in sorted(edits, reverse=True):
        line = lines[line_no - 1]
        lines[line_no - 1] = line[:col] + line[kw_start:kw_end] + " " * (kw_start - col) + \
            line[kw_end:]
        found.add((line_no, len(line[:col].encode("utf-8"))))
    return "\n".join(lines), frozenset(found)


def transform(text, path, is_package, mode):
    """(the rewritten AST, or None when the module compiles as written; whether the module
    may hold proxies) for a module's source text under global mode `mode`."""
    text, explicit = strip_lazy(text)
    listed = "__lazy_modules__" in text
    if not explicit and not listed and not is_package and mode != "all":
        return None, False
    tree = ast.parse(text, filename=path)
    plan = _Plan(explicit, listed, path, text, mode)
    plan.walk(tree.body, "module", False)
    names = set()
    for node, _ in plan.capable:
        names.update(_bound_names(node))
    if is_package:
        names.update(_submodule_names(os.path.dirname(path)))
    if not names:
        return None, is_package
    tree = _Rewriter(frozenset(names), plan.capable, _future_annotations(tree)).visit(tree)
    return ast.fix_missing_locations(tree), True


def _submodule_names(directory):
    """Names of the modules and packages in a package's directory: the names a submodule
    proxy may take in its __init__'s namespace."""
    names = set()
    suffixes = all_suffixes()
    try:
        entries = os.listdir(directory)
    except OSError:
        return names
    for entry in entries:
        if os.path.isdir(os.path.join(directory, entry)):
            stem = entry
        else:
            stem = next((entry[:-len(s)] for s in suffixes if entry.endswith(s)), "")
        if stem.isidentifier() and stem not in ("__init__", "__pycache__"):
            names.add(stem)
    return names


def _future_annotations(tree):
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module == "__future__" and \
                any(a.name == "annotations" for a in node.names):
            return True
    return False


_TRY = tuple(getattr(ast, n) for n in ("Try", "TryStar") if hasattr(ast, n))
_MATCH = getattr(ast, "Match", ())


class _Plan(object):
    """Which import statements may be lazy (L1): module level, outside any `try`, no star,
    no __future__; `lazy` written anywhere else is the SyntaxError 3.15 raises."""

    def __init__(self, explicit, listed, path, text, mode):
        self.explicit, self.listed, self.path, self.text = explicit, listed, path, text
        self.mode = mode
        self.capable = []  # (node, written lazy)

    def walk(self, body, scope, in_try):
        for node in body:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                self.statement(node, scope, in_try)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                if self.explicit:
                    self.walk(node.body, "class" if isinstance(node, ast.ClassDef)
                              else "function", False)
            elif isinstance(node, _TRY):
                for part in [node.body, node.orelse, node.finalbody] + \
                        [h.body for h in node.handlers]:
                    self.walk(part, scope, True)
            elif _MATCH and isinstance(node, _MATCH):
                for case in node.cases:
                    self.walk(case.body, scope, in_try)
            else:
                for field in ("body", "orelse"):
                    part = getattr(node, field, None)
                    if isinstance(part, list):
                        self.walk(part, scope, in_try)

    def statement(self, node, scope, in_try):
        explicit = (node.lineno, node.col_offset) in self.explicit
        is_from = isinstance(node, ast.ImportFrom)
        star = is_from and any(a.name == "*" for a in node.names)
        future = is_from and node.module == "__future__" and not node.level
        if explicit:
            what = "lazy from ... import" if is_from else "lazy import"
            where = "try/except blocks" if in_try else {"function": "functions",
                                                        "class": "classes"}.get(scope)
            message = "lazy from __future__ import is not allowed" if future else \
                "lazy from ... import * is not allowed" if star else \
                "%s not allowed inside %s" % (what, where) if where else None
            if message:
                line = self.text.split("\n")[node.lineno - 1]
                raise SyntaxError(message, (self.path, node.lineno, node.col_offset + 1, line))
        if scope == "module" and not in_try and not star and not future and \
                (explicit or self.listed or self.mode == "all"):
            self.capable.append((node, explicit))


# --- the rewrite -----------------------------------------------------------------------

def _located(node, where):
    for sub in ast.walk(node):
        for attr in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if attr in sub._attributes and hasattr(where, attr):
                setattr(sub, attr, getattr(where, attr))
    return node


def _helper_call(func, args, where):
    call = ast.Call(func=ast.Attribute(value=ast.Name(id=HELPER, ctx=ast.Load()), attr=func,
                                       ctx=ast.Load()),
                    args=[ast.Constant(value=a) for a in args], keywords=[])
    return _located(call, where)


class _Rewriter(ast.NodeTransformer):
    def __init__(self, names, capable, future_annotations):
        self.names = names  # reads of these names, where global, get a guard
        self.capable = dict((id(node), explicit) for node, explicit in capable)
        self.annotations = not future_annotations  # else they are strings, never evaluated
        self.scope = _Scope("module", None)

    # -- helpers --------------------------------------------------------------------------
    def _in(self, scope, node):
        if node is None:
            return None
        saved, self.scope = self.scope, scope
        try:
            return self.visit(node)
        finally:
            self.scope = saved

    def _all(self, scope, nodes):
        return [self._in(scope, n) for n in nodes]

    def _statements(self, scope, body):
        saved, self.scope = self.scope, scope
        try:
            out = []
            for node in body:
                new = self.visit(node)
                if isinstance(new, ast.AST):
                    out.append(new)
                elif new is not None:
                    out.extend(new)
            return out
        finally:
            self.scope = saved

    def _touch(self, name, where):
        """A `r('name')` statement, or None when `name` is not a guarded global here."""
        how = self.scope.resolve(name) if name in self.names else None
        return _located(ast.Expr(value=_helper_call(how, [name], where)), where) if how else None

    def _type_params(self, node, outer):
        params = getattr(node, "type_params", None)
        if not params:
            return outer
        scope = _Scope("function", outer, [p.name for p in params])
        for param in params:
            for field in ("bound", "default_value"):
                if getattr(param, field, None) is not None:
                    setattr(param, field, self._in(scope, getattr(param, field)))
        return scope

    def _arguments(self, args, outer, annotations):
        args.defaults = self._all(outer, args.defaults)
        args.kw_defaults = self._all(outer, args.kw_defaults)
        if self.annotations and annotations is not None:
            every = getattr(args, "posonlyargs", []) + args.args + args.kwonlyargs + \
                [a for a in (args.vararg, args.kwarg) if a is not None]
            for arg in every:
                arg.annotation = self._in(annotations, arg.annotation)

    # -- imports --------------------------------------------------------------------------
    def visit_Import(self, node):
        explicit = self.capable.get(id(node))
        if explicit is None:
            return node
        out = []
        for alias in node.names:
            single = node if len(node.names) == 1 else \
                ast.copy_location(ast.Import(names=[alias]), node)
            test = _helper_call("lazy_import", [explicit, alias.name, alias.asname], node)
            out.append(_located(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=test), body=[],
                                       orelse=[]), node))
            out[-1].body = [single]
        return out

    def visit_ImportFrom(self, node):
        explicit = self.capable.get(id(node))
        if explicit is None:
            return node
        names = tuple((a.name, a.asname) for a in node.names)
        test = _helper_call("lazy_from", [explicit, node.module, node.level or 0, names], node)
        guard = _located(ast.If(test=ast.UnaryOp(op=ast.Not(), operand=test), body=[],
                                orelse=[]), node)
        guard.body = [node]
        return guard

    # -- reads ----------------------------------------------------------------------------
    def visit_Name(self, node):
        if isinstance(node.ctx, ast.Load) and node.id in self.names:
            how = self.scope.resolve(node.id)
            if how:
                return ast.copy_location(
                    ast.BoolOp(op=ast.And(), values=[_helper_call(how, [node.id], node), node]),
                    node)
        return node

    def visit_AugAssign(self, node):
        node.value = self.visit(node.value)
        if isinstance(node.target, ast.Name):
            touch = self._touch(node.target.id, node.target)
            return [touch, node] if touch is not None else node
        node.target = self.visit(node.target)
        return node

    def visit_AnnAssign(self, node):
        node.target = self.visit(node.target)
        node.value = self.visit(node.value) if node.value is not None else None
        if self.annotations:
            node.annotation = self.visit(node.annotation)
        return node

    def visit_Match(self, node):
        node.subject = self.visit(node.subject)
        touches, seen = [], set()
        for case in node.cases:  # a pattern's names must stay names: reify before `match`
            for sub in ast.walk(case.pattern):
                if isinstance(sub, ast.Name) and sub.id not in seen:
                    touch = self._touch(sub.id, node)
                    if touch is not None:
                        seen.add(sub.id)
                        touches.append(touch)
            case.guard = self.visit(case.guard) if case.guard is not None else None
            case.body = self._statements(self.scope, case.body)
        return touches + [node] if touches else node

    # -- scopes ---------------------------------------------------------------------------
    def visit_FunctionDef(self, node):
        outer = self.scope
        node.decorator_list = self._all(outer, node.decorator_list)
        inner = self._type_params(node, outer)
        self._arguments(node.args, outer, inner)
        if self.annotations:
            node.returns = self._in(inner, node.returns)
        body = _Scope("function", inner)
        _bind_arguments(body, node.args)
        _bind_body(body, node.body)
        node.body = self._statements(body, node.body)
        return node

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        outer = self.scope
        self._arguments(node.args, outer, None)
        body = _Scope("function", outer)
        _bind_arguments(body, node.args)
        _Binder(body).visit(node.body)
        node.body = self._in(body, node.body)
        return node

    def visit_ClassDef(self, node):
        outer = self.scope
        node.decorator_list = self._all(outer, node.decorator_list)
        inner = self._type_params(node, outer)
        node.bases = self._all(inner, node.bases)
        for keyword in node.keywords:
            keyword.value = self._in(inner, keyword.value)
        body = _bind_body(_Scope("class", inner), node.body)
        node.body = self._statements(body, node.body)
        return node

    def visit_TypeAlias(self, node):
        inner = self._type_params(node, self.scope)
        node.value = self._in(_Scope("function", inner), node.value)
        return node

    def _comprehension(self, node, fields):
        outer = self.scope
        generators = node.generators
        generators[0].iter = self._in(outer, generators[0].iter)
        scope = _Scope("function", outer)
        for generator in generators:
            for sub in ast.walk(generator.target):
                if isinstance(sub, ast.Name):
                    scope.bound.add(sub.id)
        for i, generator in enumerate(generators):
            generator.target = self._in(scope, generator.target)
            if i:
                generator.iter = self._in(scope, generator.iter)
            generator.ifs = self._all(scope, generator.ifs)
        for field in fields:
            setattr(node, field, self._in(scope, getattr(node, field)))
        return node

    def visit_ListComp(self, node):
        return self._comprehension(node, ("elt",))

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node):
        return self._comprehension(node, ("key", "value"))
