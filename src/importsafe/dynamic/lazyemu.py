"""PEP 810 lazy imports, emulated on Python 3.8-3.14 for the analysed package (docs/lazy.md).

The run time of the emulation (proxies, the helpers the rewritten code calls, the module
class, the finder and loader); lazyrewrite.py, with lazyscope.py, holds the source rewrite.

Stdlib only, Python 3.8+ syntax: probe.py loads this file by path inside the *target*
interpreter (never importsafe's own process, tests aside) and calls install() before the
entry is imported and before sys.path gets the package roots (so that nothing below can pick
up a same-named module of the package). This file loads lazyrewrite.py by path the same way
(_sibling), and lazyrewrite.py loads lazyscope.py.

install(roots, global_mode) puts a finder in sys.meta_path, just before PathFinder (so that
builtin and frozen modules keep their precedence), for modules whose file is under `roots`.
Their loader compiles the AST of lazyrewrite.transform() (its docstring shows the rewrite):
eligible import statements call lazy_import()/lazy_from() (L1-L3: decide at run time, bind
one proxy per name, register the dotted path), reads of their names that resolve to the
module global call r()/rn() first (L4: reify a proxy found in the module dict in place).
The module's class becomes a ModuleType subclass whose __getattribute__ reifies a proxy
found in the module dict (`mod.x`, IMPORT_FROM, star imports, hasattr in _handle_fromlist),
for modules that may hold proxies: those with a lazy-capable statement, packages, and
modules that receive a submodule proxy.

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
import opcode
import os
import sys
import types
from importlib.machinery import PathFinder, SourceFileLoader
from importlib.util import decode_source, module_from_spec, spec_from_file_location


def _sibling(name, filename):
    """The module of a file next to this one, loaded by path and registered under `name` so
    that it loads once: importsafe is not importable in the target interpreter, and its
    directory never goes on sys.path."""
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


_rewrite = _sibling("_importsafe_lazyrewrite", "lazyrewrite.py")
HELPER = _rewrite.HELPER

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
    import importlib.util
    if importlib.util.spec_from_file_location is not _spec_from_file_location:
        _state["spec_from_file_location"] = importlib.util.spec_from_file_location
        importlib.util.spec_from_file_location = _spec_from_file_location


def _spec_from_file_location(*args, **kwargs):
    """importlib.util's, with our loader for a source under the roots: a module run by
    `spec.loader.exec_module()` has lazy imports too, as under PEP 810's global mode."""
    spec = _state["spec_from_file_location"](*args, **kwargs)
    loader = getattr(spec, "loader", None)
    if type(loader) is SourceFileLoader and spec.origin and _under(spec.origin):
        spec.loader = _Loader(loader.name, loader.path)
    return spec


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


def compile_module(data, path, is_package):
    """(code, whether the module may hold proxies) for a module's source bytes."""
    tree, capable = _rewrite.transform(decode_source(data), path, is_package, _state["mode"])
    return compile(data if tree is None else tree, path, "exec", dont_inherit=True), capable


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
    source = sys.modules.get(absolute)
    loaded = isinstance(source, types.ModuleType) and not getattr(
        getattr(source, "__spec__", None), "_initializing", False)
    source_ns = _module_getattribute(source, "__dict__") if loaded else {}
    for attr, asname in names:
        value = source_ns.get(attr, _MISSING)
        if value is not _MISSING and type(value) is not _Proxy:
            # from a module that finished running: the value itself, no proxy (L3), as
            # CPython's _PyEval_LazyImportFrom takes it straight from the loaded module
            ns[asname or attr] = value
            continue
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
