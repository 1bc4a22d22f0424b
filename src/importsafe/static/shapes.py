"""Syntax shapes the facts extractor recognises: literal values, dict and list literals,
`globals()` and `sys.modules` idioms, loop sources, handler types. Pure functions of AST
nodes."""
from __future__ import annotations

import ast

from .exprs import attr_chain, spell


def resolve_relative(module: str | None, level: int, package: str) -> str | None:
    """importlib._bootstrap._resolve_name; None when it climbs above the top-level package."""
    if level == 0:
        return module
    bits = package.rsplit(".", level - 1) if package else []
    if not package or len(bits) < level:
        return None
    base = bits[0]
    return f"{base}.{module}" if module else base


# import calls: (name, attrs) -> kind, and each kind's parameters in order
_IMPORT_CALLS = {
    ("importlib", ("import_module",)): "import_module", ("import_module", ()): "import_module",
    ("__import__", ()): "__import__", ("importlib", ("__import__",)): "__import__",
    ("builtins", ("__import__",)): "__import__",
    ("importlib", ("util", "find_spec")): "find_spec", ("util", ("find_spec",)): "find_spec",
    ("find_spec", ()): "find_spec",
}


_IMPORT_PARAMETERS = {"import_module": ("name", "package"), "find_spec": ("name", "package"),
                      "__import__": ("name", "globals", "locals", "fromlist", "level")}


_PKGUTIL = {("pkgutil", ("iter_modules",)): False, ("iter_modules", ()): False,
            ("pkgutil", ("walk_packages",)): True, ("walk_packages", ()): True}


def _names_source(node) -> tuple | None:
    """What a loop or comprehension over names iterates: ("dir", name, attrs) `dir(module)`,
    ("dir", None, ()) `dir()` (the running namespace), ("ref", name, attrs) a list held by a
    name; else None."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "dir" and not node.args and not node.keywords:
        return ("dir", None, ())
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "dir" and len(node.args) == 1 and not node.keywords:
        chain = attr_chain(node.args[0])
        return ("dir", *chain) if chain is not None else None
    chain = attr_chain(node)
    return ("ref", *chain) if chain is not None else None


def _comprehension_value(node: ast.ListComp) -> tuple | None:
    """`[n for n in SOURCE if TEST...]` -> ("comp", source, tests): names from `dir(module)`
    or a list, kept by simple tests on the name (_name_test)."""
    if len(node.generators) != 1:
        return None
    gen = node.generators[0]
    if gen.is_async or not isinstance(gen.target, ast.Name) or \
            not isinstance(node.elt, ast.Name) or node.elt.id != gen.target.id:
        return None
    source = _names_source(gen.iter)
    tests = tuple(_name_test(t, gen.target.id) for t in gen.ifs)
    if source is None or None in tests:
        return None
    return ("comp", source, tests)


def _strings(node) -> tuple[str, ...] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return (node.value,)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return tuple(e.value for e in node.elts)
    return None


def _name_test(node, var: str) -> tuple | None:
    """A test on the string `var` the simulator can decide: ("not", t), ("and" | "or",
    tests), ("starts" | "ends", strings), ("in", ("lit", strings) | ("ref", name, attrs)),
    ("eq", strings); None for anything else."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = _name_test(node.operand, var)
        return ("not", inner) if inner is not None else None
    if isinstance(node, ast.BoolOp):
        tests = tuple(_name_test(v, var) for v in node.values)
        return None if None in tests else (
            "and" if isinstance(node.op, ast.And) else "or", tests)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in ("startswith", "endswith") and len(node.args) == 1 and \
            not node.keywords and attr_chain(node.func.value) == (var, ()):
        found = _strings(node.args[0])
        return (node.func.attr[:-4], found) if found is not None and \
            not isinstance(node.args[0], (ast.List, ast.Set)) else None
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and \
            attr_chain(node.left) == (var, ()):
        op, right = node.ops[0], node.comparators[0]
        if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(right, ast.Constant) and \
                isinstance(right.value, str):
            test = ("eq", (right.value,))
            return test if isinstance(op, ast.Eq) else ("not", test)
        if isinstance(op, (ast.In, ast.NotIn)):
            found = _strings(right)
            chain = attr_chain(right)
            if found is not None and not isinstance(right, ast.Constant):
                test = ("in", ("lit", found))
            elif chain is not None:
                test = ("in", ("ref", *chain))
            else:
                return None
            return test if isinstance(op, ast.In) else ("not", test)
    return None


def _loop_source(node) -> tuple | None:
    """What a loop iterates over, when the simulator can know it: a literal dict held by a
    name (its keys, `.keys()`, `.values()`, `.items()`), or pkgutil's listing of a package's
    own directory ("modules", path, prefix parts, walk)."""
    if isinstance(node, ast.Name):
        return ("name", node.id, "keys")
    found = _names_source(node)
    if found is not None and found[0] == "dir":
        return found
    if isinstance(node, ast.ListComp):
        return _comprehension_value(node)
    if not isinstance(node, ast.Call) or node.keywords and any(
            k.arg not in ("path", "prefix") for k in node.keywords):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and not node.args \
            and func.attr in ("keys", "values", "items"):
        return ("name", func.value.id, func.attr)
    walk = _PKGUTIL.get(attr_chain(func) or ("", ()))
    if walk is None or len(node.args) > 2:
        return None
    given = dict(zip(("path", "prefix"), node.args))
    given.update((k.arg, k.value) for k in node.keywords)
    path = _package_path(given.get("path"))
    prefix = spell(given["prefix"]) if "prefix" in given else ()
    if path is None or prefix is None:
        return None
    return ("modules", path, prefix, walk)


def _package_path(node) -> tuple | None:
    """`__path__`, `pkg.__path__`, `[os.path.dirname(__file__)]` -> ("own",) or ("of",
    name, attrs): the directory of a package."""
    chain = attr_chain(node) if node is not None else None
    if chain == ("__path__", ()):
        return ("own",)
    if chain is not None and chain[1][-1:] == ("__path__",):
        return ("of", chain[0], chain[1][:-1])
    if isinstance(node, ast.List) and len(node.elts) == 1:
        item = node.elts[0]
        if isinstance(item, ast.Call) and attr_chain(item.func) == ("os", ("path", "dirname")) \
                and len(item.args) == 1:
            inner = item.args[0]
            if isinstance(inner, ast.Call) and attr_chain(inner.func) in (
                    ("os", ("path", "abspath")), ("os", ("path", "realpath"))) and inner.args:
                inner = inner.args[0]
            if attr_chain(inner) == ("__file__", ()):
                return ("own",)
    return None


MAX_DICT = 4096


_NOT_CONSTANT = object()


MAX_NESTED_DICTS = 4


def _dict_value(node: ast.Dict, constant=None, depth: int = 0) -> tuple | None:
    """("dict", ((key, value), ...)) for a literal dict with string keys: a constant value
    (`constant(node)`: also tuples of them and the module's own names) as ("lit", value), a
    literal dict (a few levels deep) as its own ("dict", ...), a list of constants as
    ("dict", items, "list"), any other as opaque."""
    if len(node.keys) > MAX_DICT or not all(
            isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
        return None
    items = []
    for k, v in zip(node.keys, node.values):
        if v.__class__ is ast.Dict and depth < MAX_NESTED_DICTS:
            items.append((k.value, _dict_value(v, constant, depth + 1) or ("v",)))
            continue
        if v.__class__ is ast.List:  # a list of constants, marked as one (not a dict)
            found = _sequence_value(v)
            items.append((k.value, ("dict", found[1], "list") if found is not None else ("v",)))
            continue
        found = constant(v) if constant is not None else \
            v.value if isinstance(v, ast.Constant) else _NOT_CONSTANT
        items.append((k.value, ("lit", found) if found is not _NOT_CONSTANT else ("v",)))
    return ("dict", tuple(items))


def _sequence_value(node) -> tuple | None:
    """A literal list, tuple or set of constants, as a dict value of its items (for `in`
    tests and loops; a set's order is not known: ("dict", items, "set"))."""
    if len(node.elts) > MAX_DICT or not all(isinstance(e, ast.Constant) or isinstance(
            e, ast.Tuple) and all(isinstance(x, ast.Constant) for x in e.elts)
            for e in node.elts):
        return None
    items = tuple((e.value if isinstance(e, ast.Constant) else
                   tuple(x.value for x in e.elts), ("v",)) for e in node.elts)
    return ("dict", items, "set") if isinstance(node, ast.Set) else ("dict", items)


def _is_none(node) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _anchor(call: ast.Call, name: str, package: str) -> str | None:
    """The `package` argument of a relative import_module call, when it is knowable."""
    arg = call.args[1] if len(call.args) > 1 else next(
        (k.value for k in call.keywords if k.arg == "package"), None)
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    chain = attr_chain(arg) if arg is not None else None
    if chain == ("__name__", ()):
        return name
    if chain in (("__package__", ()), ("__spec__", ("parent",))):
        return package
    return None


def _is_empty_literal(node) -> bool:
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return not node.elts
    if isinstance(node, ast.Dict):
        return not node.keys
    return isinstance(node, ast.Constant) and node.value in ("", b"")


def _is_lazy(node) -> bool:
    return bool(getattr(node, "is_lazy", False))


def _handler_reads(node) -> tuple:
    """The (name, attrs) reads an `except` clause's class expression makes when CPython
    evaluates it (an exception reached it), in order; () when one is not a plain chain."""
    if node is None:
        return ()
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    chains = [attr_chain(item) for item in items]
    return () if any(c is None for c in chains) else tuple((c[0], c[1]) for c in chains)


def _handler_types(node) -> tuple[str, ...] | None:
    if node is None:
        return None
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    out = []
    for item in items:
        chain = attr_chain(item)
        out.append(chain[1][-1] if chain and chain[1] else (chain[0] if chain else "?"))
    return tuple(out)


MAX_LOOP_VALUES = 256


def _literal_values(node) -> tuple | None:
    """The values a `for` over a literal tuple/list of constants or a constant `range(...)`
    takes, or None."""
    if isinstance(node, (ast.Tuple, ast.List)) and all(
            isinstance(e, ast.Constant) or isinstance(e, ast.Tuple) and all(
                isinstance(x, ast.Constant) for x in e.elts) for e in node.elts):
        # constants, or tuples of them (`for name, version in [("a", "1.0"), ...]`)
        return tuple(e.value if isinstance(e, ast.Constant) else tuple(x.value for x in e.elts)
                     for e in node.elts) if len(node.elts) <= MAX_LOOP_VALUES else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
            node.func.id == "range" and not node.keywords and 1 <= len(node.args) <= 3 and \
            all(isinstance(a, ast.Constant) and type(a.value) is int for a in node.args):
        found = range(*(a.value for a in node.args))
        return tuple(found) if len(found) <= MAX_LOOP_VALUES else None
    return None


def _expand_key(node, loop_values: dict) -> tuple[str, ...] | None:
    """Every name an f-string key like f"List{i}" takes, `i` a loop variable over known
    values (or the loop variable itself, over strings); None when that is not what it is."""
    if isinstance(node, ast.Name) and node.id in loop_values:
        values = loop_values[node.id]
        ok = all(isinstance(v, str) and v.isidentifier() for v in values)
        return tuple(values) if ok else None
    if not isinstance(node, ast.JoinedStr) or not loop_values:
        return None
    var = None
    for part in node.values:
        if isinstance(part, ast.FormattedValue):
            if not isinstance(part.value, ast.Name) or part.conversion != -1 or \
                    part.format_spec is not None or part.value.id not in loop_values or \
                    var not in (None, part.value.id):
                return None
            var = part.value.id
        elif not isinstance(part, ast.Constant):
            return None
    if var is None:
        return None
    names = tuple("".join(str(v) if isinstance(p, ast.FormattedValue) else p.value
                          for p in node.values) for v in loop_values[var])
    return names if all(n.isidentifier() for n in names) else None


def names_bound_in(tree: ast.AST):
    """Every name that code under `tree` binds in the scope it runs in, but none bound inside
    a function body (its locals; whether a body declares a name global, the caller asks
    _Extractor.global_names, as the body may not have been parsed). Like ast.walk otherwise,
    so a def's decorators, defaults and annotations count."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend(child for field, child in ast.iter_fields(node) if field != "body"
                         for child in (child if isinstance(child, list) else (child,))
                         if isinstance(child, ast.AST))
        else:
            stack.extend(ast.iter_child_nodes(node))
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            yield node.id
        elif isinstance(node, ast.arg):
            yield node.arg
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            yield from node.names
        elif isinstance(node, ast.alias):
            yield (node.asname or node.name).partition(".")[0]
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            yield node.name
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            yield node.name
        elif isinstance(node, ast.MatchMapping) and node.rest:
            yield node.rest


def _is_globals_call(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
        and node.func.id in ("globals", "vars", "locals") and not node.args


def _dynamic_call(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Name) and func.id in ("exec", "execfile"):
        return f"{func.id}() can bind any name"
    if isinstance(func, ast.Attribute) and func.attr in ("update", "setdefault", "__setitem__") \
            and _is_globals_call(func.value):
        return f"{func.value.func.id}().{func.attr}() can bind any name"
    if isinstance(func, ast.Name) and func.id == "setattr" and call.args:
        first = call.args[0]
        if isinstance(first, ast.Subscript) and attr_chain(first.value) == ("sys", ("modules",)):
            return "setattr() on sys.modules[...] can bind any name"
    return None


def _bound_value(value: tuple | None) -> tuple | None:
    """What a name bound under a computed key is bound to, when it can be followed: another
    value read by name (("ref", ...)) or `getattr(module, name)` (("getattr", ...))."""
    return value if value is not None and value[0] in ("ref", "getattr") else None


def _setattr_key(call: ast.Call) -> tuple | None:
    """The spelled name `setattr(sys.modules[__name__], name, value)` binds."""
    if isinstance(call.func, ast.Name) and call.func.id == "setattr" and \
            len(call.args) == 3 and not call.keywords and \
            attr_chain(call.args[0].slice) == ("__name__", ()):
        return spell(call.args[1])
    return None


# Dynamic.reason of a change of a module's namespace (namespace_change), by whether it deletes
CHANGE_REASON = {False: "a module's namespace is given a name computed at run time",
                 True: "a name computed at run time is deleted from a module's namespace"}


def namespace_of(node) -> tuple | None:
    """`X.__dict__` or `vars(X)`, X an attribute chain: ("ref", name, attrs) of X."""
    if node.__class__ is ast.Attribute and node.attr == "__dict__":
        chain = attr_chain(node.value)
    elif node.__class__ is ast.Call and node.func.__class__ is ast.Name and \
            node.func.id == "vars" and len(node.args) == 1 and not node.keywords:
        chain = attr_chain(node.args[0])
    else:
        return None
    return ("ref", *chain) if chain is not None else None


def namespace_change(call: ast.Call, scope: str) -> tuple | None:
    """A call that binds or deletes a name of a module's namespace, as (the object whose
    namespace it is, ("ref", name, attrs), or None for the calling module's own; the key's
    node, None when it may be any name; whether it deletes): `setattr(X, k, v)`,
    `delattr(X, k)`, the methods of `X.__dict__` / `vars(X)`, and the deleting methods of
    `globals()` (its binding ones are _dynamic_call's)."""
    func, args = call.func, call.args
    if func.__class__ is ast.Name:
        if call.keywords or func.id not in ("setattr", "delattr") or \
                len(args) != (3 if func.id == "setattr" else 2):
            return None
        chain = attr_chain(args[0])
        return (("ref", *chain), args[1], func.id == "delattr") if chain is not None else None
    if func.__class__ is not ast.Attribute:
        return None
    own = _is_globals_call(func.value) and (scope == "module" or func.value.func.id == "globals")
    target = None if own else namespace_of(func.value)
    if not own and target is None:
        return None
    method = func.attr
    if method in ("pop", "__delitem__") and args:
        return target, args[0], True
    if method in ("clear", "popitem"):
        return target, None, True
    if target is not None and method in ("setdefault", "__setitem__") and args:
        return target, args[0], False
    if target is not None and method == "update":
        return target, None, False
    return None


def _update_call(call: ast.Call):
    """The one mapping argument of `globals().update(mapping)`, else None."""
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "update" and len(call.args) == 1 \
            and not call.keywords and func.value.func.id == "globals":
        return call.args[0]
    return None


def _update_names(call: ast.Call) -> tuple[str, ...] | None:
    """The keys of `globals().update({literal dict})`, when they are all strings."""
    arg = _update_call(call)
    if isinstance(arg, ast.Dict) and all(isinstance(k, ast.Constant) and isinstance(
            k.value, str) for k in arg.keys):
        return tuple(k.value for k in arg.keys)
    return None


def _update_source(call: ast.Call) -> tuple | None:
    """`globals().update(name)` -> ("ref", name, attrs) of the mapping, evaluated then."""
    arg = _update_call(call)
    chain = attr_chain(arg) if arg is not None else None
    return ("ref", *chain) if chain is not None else None


def _all_value(node, extend: bool) -> tuple | None:
    """`__all__` (or `__lazy_modules__`) spelled as literal lists, tuples or sets of strings
    and references to other lists (`a.__all__ + ["x"]`, `(*a.__all__, "x")`) -> (kind,
    parts); parts None when it is anything else."""
    kind = "all+" if extend else "all"
    parts: list = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.BinOp) and isinstance(n.op, ast.Add):
            stack.extend((n.right, n.left))
        elif isinstance(n, (ast.List, ast.Tuple, ast.Set)):
            for e in n.elts:  # strings, and other lists unpacked into it: (*a.__all__, "x")
                if isinstance(e, ast.Constant) and isinstance(e.value, str):
                    parts.append(e.value)
                elif isinstance(e, ast.Starred) and attr_chain(e.value) is not None:
                    parts.append(("ref", *attr_chain(e.value)))
                else:
                    return (kind, None)
        elif attr_chain(n) is not None:
            parts.append(("ref", *attr_chain(n)))
        else:
            return (kind, None)
    return (kind, tuple(parts))


def _breaks(body) -> bool:
    """Does a `break` of this loop occur in `body` (not one of a nested loop or def)?"""
    stack = list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Break):
            return True
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While)):
            stack.extend(node.orelse)  # a break in a nested loop's else ends this loop
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for field in ("body", "orelse", "finalbody", "handlers", "cases"):
            stack.extend(getattr(node, field, ()) or ())
    return False
