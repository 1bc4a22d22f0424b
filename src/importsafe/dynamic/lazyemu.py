"""PEP 810 lazy imports, emulated on Python 3.8-3.14 for the analysed package (docs/lazy.md).

Stdlib only, Python 3.8+ syntax: probe.py loads this file by path inside the *target*
interpreter (never importsafe's own process, tests aside) and calls install() before the
entry is imported and before sys.path gets the package roots (so that nothing below can pick
up a same-named module of the package).

install(roots, global_mode) puts a finder in sys.meta_path, just before PathFinder (so that
builtin and frozen modules keep their precedence), for modules whose file is under `roots`.
Their loader compiles a rewritten AST:

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
  Scopes are computed here (_Scope) from the language rules, not with symtable, whose tables
  differ between versions (3.12 inlines comprehensions). `x += 1` and names in `match`
  patterns (which must stay names) get a `r('x')` statement just before the statement.
- the module's class becomes a ModuleType subclass whose __getattribute__ reifies a proxy
  found in the module dict (`mod.x`, IMPORT_FROM, star imports, hasattr in
  _handle_fromlist), for modules that may hold proxies: those with a lazy-capable statement,
  packages, and modules that receive a submodule proxy.

Reifying a statement proxy runs, with the importer's globals, a one-name copy of the
statement compiled at the statement's file and line (frame name `<module>`): so the error
chain shows the use site, then the declaration, then the modules the import ran (L5).
Submodule proxies ("import p.c", value sys.modules["p.c"]) have no declaration frame. A
proxy under resolution is a missing name for the import system's own lookups (the fromlist
check, IMPORT_FROM), an ImportCycleError for any other read (L4, L5). The value replaces the
proxy, also when importlib bound the submodule of the same name over it meanwhile.
`__lazy_modules__` counts unless install() was told otherwise (a target before 3.15).
"""

import ast
import builtins
import io
import opcode
import os
import sys
import tokenize
import types
from importlib.machinery import PathFinder, SourceFileLoader, all_suffixes
from importlib.util import decode_source

HELPER = "__importsafe_lazy__"

try:
    ImportCycleError = builtins.ImportCycleError  # 3.15+
except AttributeError:
    class ImportCycleError(ImportError):
        """A lazy import read again while its own resolution is running (PEP 810)."""

_state = {"mode": "normal", "roots": (), "lazy_modules": True}
_registry = {}  # parent module name -> [child name, ...], in registration order
_codes = {}  # (filename, line, statement) -> code of a proxy's one-name import
_MISSING = object()
_module_getattribute = types.ModuleType.__getattribute__
_IMPORT_FROM = opcode.opmap["IMPORT_FROM"]


# --- install ---------------------------------------------------------------------------

def install(roots, global_mode, lazy_modules=True):
    """Emulate PEP 810 for the modules under `roots`: global_mode "all" (-X lazy_imports=all)
    or "normal" (explicit `lazy` statements and `__lazy_modules__` only). `lazy_modules`
    False: ignore `__lazy_modules__`, as interpreters before 3.15 do (a target version
    before 3.15). Idempotent."""
    if global_mode not in ("all", "normal"):
        raise ValueError("global_mode must be 'all' or 'normal', not %r" % (global_mode,))
    _state["mode"] = global_mode
    _state["lazy_modules"] = bool(lazy_modules)
    _state["roots"] = tuple(os.path.realpath(r) for r in roots)
    setattr(builtins, HELPER, types.SimpleNamespace(
        r=r, rn=rn, lazy_import=lazy_import, lazy_from=lazy_from))
    if not hasattr(builtins, "ImportCycleError"):
        builtins.ImportCycleError = ImportCycleError
    if not any(isinstance(f, _Finder) for f in sys.meta_path):
        index = next((i for i, f in enumerate(sys.meta_path) if f is PathFinder), 0)
        sys.meta_path.insert(index, _Finder())


def _under(path):
    # as probe._under: the path as found counts too (a root may hold a symlinked package)
    paths = {os.path.realpath(path), os.path.abspath(path)}
    return any(p == r or p.startswith(r + os.sep) for p in paths for r in _state["roots"])


class _Finder(object):
    """Finds what PathFinder finds, for modules under the roots only, with our loaders."""

    def find_spec(self, fullname, path=None, target=None):
        spec = PathFinder.find_spec(fullname, path, target)
        if spec is None:
            return None
        loader = spec.loader
        if type(loader) is SourceFileLoader and spec.origin and _under(spec.origin):
            spec.loader = _Loader(loader.name, loader.path)
            return spec
        return None  # namespace packages too: they have no code that finishes running (L3)

    def invalidate_caches(self):
        pass


class _Loader(SourceFileLoader):
    """Compiles the rewritten module; never reads or writes bytecode caches."""

    capable = False

    def source_to_code(self, data, path, *, _optimize=-1):
        code, self.capable = compile_module(data, path, self.is_package(self.name))
        return code

    def get_code(self, fullname):
        path = self.get_filename(fullname)
        return self.source_to_code(self.get_data(path), path)

    def exec_module(self, module):
        code = self.get_code(self.name)
        if self.capable:
            _adopt(module)
        exec(code, module.__dict__)
        _finished(self.name, module)


# --- proxies ---------------------------------------------------------------------------

class _Proxy(object):
    """What a lazy statement binds (types.LazyImportType on 3.15)."""

    __slots__ = ("kind", "module", "level", "attr", "asname", "ns", "filename", "line",
                 "resolving")

    def __init__(self, kind, module, level, attr, asname, ns, filename, line):
        self.kind = kind  # "import", "from" or "sub" (a submodule proxy: module = p.c)
        self.module, self.level, self.attr, self.asname = module, level, attr, asname
        self.ns = ns  # the globals of the module holding the proxy
        self.filename, self.line = filename, line
        self.resolving = False

    def _display(self):
        if self.kind == "from":
            return "%s%s.%s" % ("." * self.level, self.module or "", self.attr)
        return self.module

    def __repr__(self):
        return "<lazy_import %r>" % self._display()

    def __getattr__(self, name):
        raise AttributeError("cannot access attribute %r on unresolved lazy import %r"
                             % (name, self._display()))

    def resolve(self):
        """Run the import now and return its value (without rebinding any name)."""
        if self.kind == "sub":
            return _resolve_submodule(self)
        key = (self.filename, self.line, self.kind, self.module, self.level, self.attr,
               self.asname)
        code = _codes.get(key)
        if code is None:
            code = _codes[key] = _statement_code(self)
        names = {}
        exec(code, self.ns, names)
        return names.popitem()[1]


_Proxy.__name__ = _Proxy.__qualname__ = "lazy_import"


def _statement_code(proxy):
    """The proxy's own name of its statement, as a module-level statement at its file and
    line: tracebacks show the declaration as a `<module>` frame of the importer."""
    if proxy.kind == "import":
        node = ast.Import(names=[ast.alias(name=proxy.module, asname=proxy.asname)])
    else:
        node = ast.ImportFrom(module=proxy.module, names=[ast.alias(name=proxy.attr, asname=None)],
                              level=proxy.level)
    node.lineno = node.end_lineno = proxy.line
    node.col_offset = node.end_col_offset = 0
    tree = ast.fix_missing_locations(ast.Module(body=[node], type_ignores=[]))
    return compile(tree, proxy.filename, "exec", dont_inherit=True)


def _resolve_submodule(proxy):
    """`import p.c`, value: what sys.modules holds for p.c (L3). While p.c still runs,
    importlib has not bound it on p yet: the proxy would be all p has."""
    _builtin(proxy.ns, "__import__")(proxy.module, proxy.ns, None, None, 0)
    try:
        return sys.modules[proxy.module]
    except KeyError:
        raise ImportError("import of %s halted; not in sys.modules" % proxy.module,
                          name=proxy.module) from None


def _builtin(ns, name):
    scope = ns.get("__builtins__", builtins)
    return scope[name] if isinstance(scope, dict) else getattr(scope, name)


def _imported(proxy):
    """The absolute name of the module a proxy imports."""
    if proxy.kind == "from":
        return _absolute(proxy.module, proxy.level, proxy.ns) or proxy.module
    return proxy.module


def _reify(ns, name, proxy, optional=False):
    """Resolve the proxy found under `name` in the namespace `ns`; replace it there (L4).
    A failure propagates and leaves the proxy (L5); a re-entrant read is an ImportCycleError,
    except for the import system's `optional` lookups, which see the name as missing."""
    if proxy.resolving:
        if optional:
            raise AttributeError("module %r has no attribute %r" % (ns.get("__name__"), name))
        # .name: the module the proxy imports, as CPython's lazy_import_resolve_impl sets it
        exc = ImportCycleError("cannot import name %r (most likely due to a circular import)"
                               % name, name=_imported(proxy))
        exc.name_from = name
        raise exc
    proxy.resolving = True
    try:
        value = proxy.resolve()
    except BaseException as exc:  # noqa: B902 - annotate as 3.15 does, then re-raise as is
        if proxy.kind != "sub" and exc.__cause__ is None and exc.__context__ is None \
                and not exc.__suppress_context__:
            exc.__cause__ = ImportError("lazy import of %r raised an exception during "
                                        "resolution" % proxy._display())
        raise
    finally:
        proxy.resolving = False
    current = ns.get(name, _MISSING)
    if current is proxy or (current is not value and isinstance(current, types.ModuleType)
                            and current is sys.modules.get("%s.%s" % (ns.get("__name__"), name))):
        # also over the submodule the import system bound on the package while the proxy
        # resolved: `from .sub import sub` in a package binds the function, as eagerly
        ns[name] = value
    return value


# --- helpers the rewritten code calls ------------------------------------------------------

def r(name):
    """Before a read of global `name`: reify the proxy the caller's module dict holds."""
    ns = sys._getframe(1).f_globals
    value = ns.get(name, _MISSING)
    if type(value) is _Proxy:
        _reify(ns, name, value)
    return True


def rn(name):
    """r() for a class body (LOAD_NAME): a name of the class namespace wins."""
    frame = sys._getframe(1)
    if name in frame.f_locals:
        return True
    ns = frame.f_globals
    value = ns.get(name, _MISSING)
    if type(value) is _Proxy:
        _reify(ns, name, value)
    return True


def _absolute(module, level, ns):
    """The absolute module name of a relative import, as importlib resolves it; None when
    it cannot be resolved (the eager statement then raises the error)."""
    if not level:
        return module
    package = ns.get("__package__")
    spec = ns.get("__spec__")
    if package is None and spec is not None:
        package = spec.parent
    if package is None:
        name = ns.get("__name__") or ""
        package = name if "__path__" in ns else name.rpartition(".")[0]
    if not isinstance(package, str) or not package:
        return None
    bits = package.rsplit(".", level - 1)
    if len(bits) < level:
        return None
    return bits[0] + "." + module if module else bits[0]


def _wants(explicit, ns, name):
    if explicit or _state["mode"] == "all":
        return True
    if not _state["lazy_modules"]:
        return False
    listed = ns.get("__lazy_modules__", _MISSING)
    return listed is not _MISSING and name in listed


def lazy_import(explicit, name, asname):
    """`import name [as asname]` at module level: bind a proxy and register the path if the
    statement is lazy (True), else let the caller run it eagerly (False)."""
    frame = sys._getframe(1)
    ns = frame.f_globals
    if not _wants(explicit, ns, name):
        return False
    bound = asname or name.partition(".")[0]
    ns[bound] = _Proxy("import", name, 0, None, asname, ns, frame.f_code.co_filename,
                       frame.f_lineno)
    _register(name)
    return True


def lazy_from(explicit, module, level, names):
    """`from module import name [as asname], ...`: as lazy_import, one proxy per name."""
    frame = sys._getframe(1)
    ns = frame.f_globals
    absolute = _absolute(module, level, ns)
    if absolute is None or not _wants(explicit, ns, absolute):
        return False
    for attr, asname in names:
        ns[asname or attr] = _Proxy("from", module, level, attr, None, ns,
                                    frame.f_code.co_filename, frame.f_lineno)
    _register(absolute)
    return True


# --- registration and submodule proxies (L3) ----------------------------------------------

def _register(name):
    """`a.b.c` registers b of a and c of a.b; a parent already in sys.modules gets its
    submodule proxy at once, any other when it finishes running (_finished)."""
    parts = name.split(".")
    for i in range(1, len(parts)):
        parent, child = ".".join(parts[:i]), parts[i]
        children = _registry.setdefault(parent, [])
        if child not in children:
            children.append(child)
        module = sys.modules.get(parent)
        if module is not None:
            _place(parent, module, child)


def _place(parent, module, child):
    if not isinstance(module, types.ModuleType):
        return
    ns = _module_getattribute(module, "__dict__")
    if "__path__" not in ns or child in ns:
        return  # only packages have submodules; never over a name the package has
    ns[child] = _Proxy("sub", parent + "." + child, 0, None, None, ns, None, 0)
    _adopt(module)


def _finished(name, module):
    children = _registry.get(name)
    if children:
        target = sys.modules.get(name, module)
        for child in list(children):
            _place(name, target, child)


# --- the module class -----------------------------------------------------------------

def _reify_attribute(module, name, value):
    ns = _module_getattribute(module, "__dict__")
    if ns.get(name) is value:
        return _reify(ns, name, value, value.resolving and _optional_lookup(2))
    return value


def _optional_lookup(depth):
    """Whether `frame` reads a module attribute the way the import system does when a
    missing name is no error (PyObject_GetOptionalAttr): the fromlist check of
    _handle_fromlist (`hasattr`), or IMPORT_FROM (which then tries sys.modules["m.x"]).
    There a proxy under resolution is a missing name, as in 3.15: so `from . import sub` in
    a package's __init__ imports the submodule instead of failing on its own proxy."""
    try:
        frame = sys._getframe(depth + 1)
    except ValueError:
        return False
    code = frame.f_code
    if code.co_name == "_handle_fromlist" and code.co_filename.startswith("<frozen importlib"):
        return True
    raw = code.co_code
    return 0 <= frame.f_lasti < len(raw) and raw[frame.f_lasti] == _IMPORT_FROM


class _LazyModule(types.ModuleType):
    """A module whose attribute reads reify the proxies of its dict (L4)."""

    __slots__ = ()

    def __getattribute__(self, name):
        value = _module_getattribute(self, name)
        if type(value) is _Proxy:
            value = _reify_attribute(self, name, value)
        return value


_LazyModule.__name__ = _LazyModule.__qualname__ = "module"
_lazy_classes = {types.ModuleType: _LazyModule}


def _lazy_class(cls):
    """A subclass of a module's own ModuleType subclass with the reifying __getattribute__."""
    found = _lazy_classes.get(cls)
    if found is None:
        base_getattribute = cls.__getattribute__

        def __getattribute__(self, name):
            value = base_getattribute(self, name)
            if type(value) is _Proxy:
                value = _reify_attribute(self, name, value)
            return value
        found = type(cls.__name__, (cls,), {"__getattribute__": __getattribute__,
                                             "__slots__": (), "__module__": cls.__module__})
        _lazy_classes[cls] = found
    return found


def _adopt(module):
    cls = type(module)
    if cls in _lazy_classes.values() or not isinstance(module, types.ModuleType):
        return
    try:
        module.__class__ = _lazy_class(cls)
    except TypeError:
        pass  # an incompatible layout: attribute reads of this module do not reify


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


def compile_module(data, path, is_package):
    """(code, whether the module may hold proxies) for a module's source bytes."""
    tree, capable = transform(decode_source(data), path, is_package, _state["mode"])
    return compile(data if tree is None else tree, path, "exec", dont_inherit=True), capable


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


def _bound_names(node):
    if isinstance(node, ast.Import):
        return [a.asname or a.name.partition(".")[0] for a in node.names]
    return [a.asname or a.name for a in node.names if a.name != "*"]


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


# --- scopes ----------------------------------------------------------------------------

class _Scope(object):
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


def _bind_arguments(scope, args):
    for arg in getattr(args, "posonlyargs", []) + args.args + args.kwonlyargs:
        scope.bound.add(arg.arg)
    for arg in (args.vararg, args.kwarg):
        if arg is not None:
            scope.bound.add(arg.arg)


def _bind_body(scope, body):
    binder = _Binder(scope)
    for node in body:
        binder.visit(node)
    return scope


def _defaults(args):
    return args.defaults + [d for d in args.kw_defaults if d is not None]


class _Binder(ast.NodeVisitor):
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
        self.scope.bound.update(_bound_names(node))

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
