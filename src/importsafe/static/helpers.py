"""Widespread lazy-loading helpers, modelled by their documented semantics as builtins are:
each becomes the module `__getattr__` (PEP 562) it stands for, written as Python source and
extracted like any function, so the simulator replays it for the name asked.

- scientific-python's `lazy_loader.attach(__name__, submodules, submod_attrs)` (and
  `attach_stub(__name__, __file__)` with the stub's imports): a listed submodule is imported
  and returned; a listed attribute is read from its submodule after importing it (and put on
  the package when it shares the submodule's name); any other name raises AttributeError.
  `__all__` is the sorted names. Its EAGER_IMPORT switch is taken as unset, the ordinary
  environment.
- jax's own copy, `jax._src.lazy_loader.attach(package_name, submodules)`: a listed
  submodule of `package_name` (a literal, any package) is imported, set on the calling module
  and returned; any other name raises AttributeError. `__all__` is the list as given.
- plotly's `_plotly_utils.importers.relative_import(__name__, rel_modules, rel_classes)`: a
  name that is the last part of a listed `.submodule` imports that module relative to the
  calling module and returns it; else the last part of a listed `._submodule.Name` imports
  `._submodule` and returns its attribute; any other name raises AttributeError. `__all__`
  is the submodule names, then the class names (each list's names once, in first-listed
  order; a later entry of the same name wins).
- transformers' `transformers.utils.deprecation.deprecate_attr(module_name, remove=...,
  rename=...)`, each a literal dict (or None): a key of either answers (with the object its
  entry gives, after a FutureWarning), any other name raises AttributeError; a key in both
  makes the call raise ValueError, which is not modelled.
- matplotlib's `@_api.caching_module_getattr class __getattr__:` with `name =
  property(lambda self: <expr>)` entries: a property's name answers with the expression (run
  when asked; `self.<other property>` is that property's expression), any other name raises
  AttributeError.
"""
from __future__ import annotations

import ast

LAZY_LOADER = "lazy_loader"
JAX_LAZY_LOADER = "jax._src.lazy_loader"
# numpy's add_newdoc(place, obj, doc), under the names numpy 1.x and 2.x export it by
ADD_NEWDOC = frozenset({"numpy.add_newdoc", "numpy.lib.add_newdoc",
                        "numpy.core.function_base.add_newdoc",
                        "numpy._core.function_base.add_newdoc",
                        "numpy.lib.function_base.add_newdoc"})
PLOTLY_IMPORTERS = "_plotly_utils.importers"
TRANSFORMERS_DEPRECATION = "transformers.utils.deprecation"
# class decorators of the standard library that give back a class with the same functions
TRANSPARENT_DECORATORS = frozenset({"dataclasses.dataclass", "functools.total_ordering",
                                    "typing.final", "typing.runtime_checkable"})
SINGLEDISPATCH = "functools.singledispatch"  # its `register(func)` reads func's annotations
SUPPRESS = "contextlib.suppress"  # a `with` of it catches what its arguments name
# the modules and functions whose module-level names the facts extractor records (helper_of)
HELPER_MODULES = frozenset({LAZY_LOADER, JAX_LAZY_LOADER, PLOTLY_IMPORTERS,
                            f"{TRANSFORMERS_DEPRECATION}.deprecate_attr"}) | ADD_NEWDOC | \
    {d.rpartition(".")[0] for d in (*TRANSPARENT_DECORATORS, SUPPRESS)}
# the helper functions, by qualified name: which semantics lazy_attach gives them
ATTACH_KINDS = {f"{LAZY_LOADER}.attach": "attach", f"{LAZY_LOADER}.attach_stub": "attach_stub",
                f"{JAX_LAZY_LOADER}.attach": "attach_named",
                f"{PLOTLY_IMPORTERS}.relative_import": "relative_import",
                f"{TRANSFORMERS_DEPRECATION}.deprecate_attr": "deprecate_attr"}
# what each returns, in order: the module __getattr__, __dir__ and __all__
RETURNS = {"attach": ("getattr", "dir", "all"), "attach_stub": ("getattr", "dir", "all"),
           "attach_named": ("getattr", "dir", "all"),
           "relative_import": ("all", "getattr", "dir"), "deprecate_attr": ("getattr",)}
_PARAM = "_importsafe_name"


def lazy_attach(call: ast.Call, kind: str, package: str, stub: tuple | None, module: str = ""
                ) -> tuple[ast.FunctionDef, tuple[str, ...]] | None:
    """(the `__getattr__` def, `__all__`) of `attach(...)` / `attach_stub(...)` (`stub`: its
    (submodules, {submodule: attrs}) read from the .pyi) / `relative_import(...)` (`module`:
    the calling module's own name), or None when its arguments are not literal or not this
    module's own name."""
    if kind == "attach_named":
        return _attach_named(call, package)
    if kind == "relative_import":
        return _relative_import(call, module)
    if kind == "deprecate_attr":
        return _deprecate_attr(call)
    if not call.args or not (isinstance(call.args[0], ast.Name) and
                             call.args[0].id == "__name__"):
        return None
    if kind == "attach_stub":
        if stub is None or len(call.args) != 2 or call.keywords:
            return None
        submodules, attrs = stub
    else:
        given = dict(zip(("submodules", "submod_attrs"), call.args[1:]))
        given.update((k.arg, k.value) for k in call.keywords)
        if len(call.args) > 3 or set(given) - {"submodules", "submod_attrs"}:
            return None
        try:
            submodules = tuple(ast.literal_eval(given["submodules"])) \
                if "submodules" in given else ()
            table = ast.literal_eval(given["submod_attrs"]) if "submod_attrs" in given else {}
            attrs = {mod: tuple(names) for mod, names in (table or {}).items()}
        except (ValueError, TypeError, SyntaxError, AttributeError):
            return None
    strings = all(isinstance(s, str) for s in (*submodules, *attrs, *(
        a for names in attrs.values() for a in names)))
    if not strings:
        return None
    owner = {attr: mod for mod, names in attrs.items() for attr in names}
    lines = [f"def __getattr__({_PARAM}):"]
    for sub in sorted(set(submodules)):
        lines += [f"    if {_PARAM} == {sub!r}:",
                  f"        import {package}.{sub} as _importsafe_m",
                  "        return _importsafe_m"]
    for attr, mod in owner.items():
        if attr in submodules:
            continue
        lines += [f"    if {_PARAM} == {attr!r}:",
                  f"        import {package}.{mod} as _importsafe_m",
                  f"        _importsafe_r = _importsafe_m.{attr}" if attr.isidentifier() else
                  f"        _importsafe_r = getattr(_importsafe_m, {attr!r})"]
        if attr == mod:
            lines += [f"        globals()[{attr!r}] = _importsafe_r"]
        lines += ["        return _importsafe_r"]
    lines.append(f"    raise AttributeError({_PARAM})")
    return _def("\n".join(lines), call.lineno), tuple(sorted(set(submodules) | set(owner)))


def _attach_named(call: ast.Call, package: str) -> tuple[ast.FunctionDef, tuple[str, ...]] | None:
    """jax's `attach(package_name, submodules)`, both literal (package_name may be
    `__name__`)."""
    if len(call.args) != 2 or call.keywords:
        return None
    first = call.args[0]
    named = package if isinstance(first, ast.Name) and first.id == "__name__" else \
        first.value if isinstance(first, ast.Constant) else None
    try:
        submodules = tuple(ast.literal_eval(call.args[1]))
    except (ValueError, TypeError, SyntaxError):
        return None
    if not isinstance(named, str) or not all(
            isinstance(s, str) and s.isidentifier() for s in (*named.split("."), *submodules)):
        return None
    lines = [f"def __getattr__({_PARAM}):"]
    for sub in dict.fromkeys(submodules):
        lines += [f"    if {_PARAM} == {sub!r}:",
                  f"        import {named}.{sub} as _importsafe_m",
                  f"        globals()[{sub!r}] = _importsafe_m",
                  "        return _importsafe_m"]
    lines.append(f"    raise AttributeError({_PARAM})")
    return _def("\n".join(lines), call.lineno), submodules


def _relative_import(call: ast.Call, module: str
                     ) -> tuple[ast.FunctionDef, tuple[str, ...]] | None:
    """plotly's `relative_import(__name__, rel_modules=(), rel_classes=())`, both literal
    lists of relative names that resolve below the top-level package."""
    if not call.args or not (isinstance(call.args[0], ast.Name) and
                             call.args[0].id == "__name__") or not module:
        return None
    given = dict(zip(("rel_modules", "rel_classes"), call.args[1:]))
    given.update((k.arg, k.value) for k in call.keywords)
    if len(call.args) > 3 or set(given) - {"rel_modules", "rel_classes"}:
        return None
    try:
        lists = {k: tuple(ast.literal_eval(v)) for k, v in given.items()}
    except (ValueError, TypeError, SyntaxError):
        return None
    rel_modules, rel_classes = lists.get("rel_modules", ()), lists.get("rel_classes", ())
    if not all(isinstance(s, str) for s in (*rel_modules, *rel_classes)):
        return None
    # as the helper builds them: later entries of one name win, first insertion keeps order
    module_names = {rel.split(".")[-1]: rel for rel in rel_modules}
    class_names = {rel.split(".")[-1]: rel for rel in rel_classes}
    lines = [f"def __getattr__({_PARAM}):"]
    for name, rel in module_names.items():
        target = _resolve(rel, module)
        if target is None:
            return None
        lines += [f"    if {_PARAM} == {name!r}:",
                  f"        import {target} as _importsafe_m",
                  "        return _importsafe_m"]
    for name, rel in class_names.items():
        if name in module_names:
            continue  # the submodule test comes first
        target = _resolve(".".join(rel.split(".")[:-1]), module)
        if target is None:
            return None
        read = f"_importsafe_m.{name}" if name.isidentifier() else \
            f"getattr(_importsafe_m, {name!r})"
        lines += [f"    if {_PARAM} == {name!r}:",
                  f"        import {target} as _importsafe_m",
                  f"        return {read}"]
    lines.append(f"    raise AttributeError({_PARAM})")
    return _def("\n".join(lines), call.lineno), (*module_names, *class_names)


def _deprecate_attr(call: ast.Call) -> tuple[ast.FunctionDef, tuple[str, ...]] | None:
    """transformers' `deprecate_attr(module_name, remove=None, rename=None)`, the tables
    literal dicts with string keys (or None), no key in both."""
    if not call.args or len(call.args) > 3 or any(isinstance(a, ast.Starred)
                                                  for a in call.args):
        return None
    given = dict(zip(("module_name", "remove", "rename"), call.args))
    given.update((k.arg, k.value) for k in call.keywords)
    if len(given) != len(call.args) + len(call.keywords) or \
            set(given) - {"module_name", "remove", "rename"}:
        return None
    keys: list[str] = []
    for table in (given.get("remove"), given.get("rename")):
        if table is None or isinstance(table, ast.Constant) and table.value is None:
            continue
        if not isinstance(table, ast.Dict) or not all(
                isinstance(k, ast.Constant) and isinstance(k.value, str) for k in table.keys):
            return None
        keys.extend(dict.fromkeys(k.value for k in table.keys))
    if len(keys) != len(set(keys)):
        return None  # a name in both tables: the call raises ValueError
    lines = [f"def __getattr__({_PARAM}):"]
    for key in keys:
        lines += [f"    if {_PARAM} == {key!r}:", "        return"]  # the object given
    lines.append(f"    raise AttributeError({_PARAM})")
    return _def("\n".join(lines), call.lineno), ()


def _resolve(name: str, package: str) -> str | None:
    """What `importlib.import_module(name, package)` imports, when it is a name of
    identifiers the resolution cannot refuse (importlib._bootstrap._resolve_name)."""
    level = len(name) - len(name.lstrip("."))
    rest = name[level:]
    if level:
        bits = package.rsplit(".", level - 1)
        if len(bits) < level:
            return None
        name = f"{bits[0]}.{rest}" if rest else bits[0]
    if not all(part.isidentifier() for part in name.split(".")):
        return None
    return name


def stub_imports(source: bytes) -> tuple | None:
    """lazy_loader's _StubVisitor over a stub: (submodules, {submodule: attrs}); None when
    attach_stub would raise (not `from .x import` forms, a star) or it does not parse."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return None
    submodules: list[str] = []
    attrs: dict[str, list[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level != 1 or any(a.name == "*" for a in node.names):
            return None
        if node.module:
            attrs.setdefault(node.module, []).extend(a.name for a in node.names)
        else:
            submodules.extend(a.name for a in node.names)
    return tuple(submodules), {k: tuple(v) for k, v in attrs.items()}


def caching_getattr(node: ast.ClassDef) -> ast.FunctionDef | None:
    """The `__getattr__` a `@caching_module_getattr` class stands for, or None when one of
    its entries is not `name = property(lambda self: <expr>)` over what we can follow."""
    if node.name != "__getattr__" or len(node.decorator_list) != 1 or node.bases or \
            node.keywords or _last_name(node.decorator_list[0]) != "caching_module_getattr":
        return None
    props: dict[str, ast.expr] = {}
    for stmt in node.body:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
            continue  # a docstring
        value = stmt.value if isinstance(stmt, ast.Assign) else None
        if value is None or len(stmt.targets) != 1 or not isinstance(stmt.targets[0], ast.Name) \
                or not _is_property_lambda(value):
            return None
        props[stmt.targets[0].id] = value.args[0].body
    lines = [f"def __getattr__({_PARAM}):"]
    for name, body in props.items():
        expr = _inline(body, props, 0)
        if expr is None:
            return None
        lines += [f"    if {_PARAM} == {name!r}:", f"        return {ast.unparse(expr)}"]
    lines.append(f"    raise AttributeError({_PARAM})")
    return _def("\n".join(lines), node.lineno)


def _is_property_lambda(value) -> bool:
    return isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and \
        value.func.id == "property" and len(value.args) == 1 and not value.keywords and \
        isinstance(value.args[0], ast.Lambda) and \
        [a.arg for a in value.args[0].args.args] == ["self"]


def _inline(body: ast.expr, props: dict, depth: int) -> ast.expr | None:
    """`body` with `self.<property>` replaced by that property's expression; None when it
    uses `self` otherwise or the properties refer to each other in a loop."""
    if depth > len(props):
        return None

    class Inline(ast.NodeTransformer):
        failed = False

        def visit_Attribute(self, n):
            if isinstance(n.value, ast.Name) and n.value.id == "self":
                inner = _inline(props[n.attr], props, depth + 1) if n.attr in props else None
                if inner is None:
                    self.failed = True
                    return n
                return inner
            return self.generic_visit(n)

        def visit_Name(self, n):
            if n.id == "self" or n.id == _PARAM:
                self.failed = True
            return n

    fixer = Inline()
    out = fixer.visit(ast.parse(ast.unparse(body), mode="eval").body)
    return None if fixer.failed else out


def _last_name(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def _def(source: str, line: int) -> ast.FunctionDef:
    """The def in `source`, every node of it placed on `line` (where the helper is used)."""
    node = ast.parse(source).body[0]
    for n in ast.walk(node):
        if hasattr(n, "lineno"):
            n.lineno = n.end_lineno = line
    return node


def add_newdoc_read(call: ast.Call) -> ast.expr | None:
    """numpy's `add_newdoc(place, obj, doc)` with literal `place` and `obj`, as what it
    evaluates first (numpy/_core/function_base.py): `getattr(__import__(place, globals(), {},
    [obj]), obj)`, which imports `place` and fails if it has no `obj`; None otherwise."""
    if len(call.args) < 2 or any(isinstance(a, ast.Starred) for a in call.args) or not all(
            isinstance(a, ast.Constant) and isinstance(a.value, str) for a in call.args[:2]):
        return None
    place, obj = call.args[0], call.args[1]
    imported = ast.Call(ast.Name("__import__", ast.Load()),
                        [place, ast.Call(ast.Name("globals", ast.Load()), [], []),
                         ast.Dict([], []), ast.List([obj], ast.Load())], [])
    read = ast.Call(ast.Name("getattr", ast.Load()), [imported, obj], [])
    return ast.fix_missing_locations(ast.copy_location(read, call))

