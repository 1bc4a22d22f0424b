"""The abstract interpreter behind the effect analysis: Python statements and expressions
over symbolic values, reporting writes, calls, class statements and scanning reads to hooks.

Values are tuples, so they hash and compare:
- ("g", module, name, attrs): a module-level name of `module` (analysed or not), then the
  attribute chain read from it ("[]" for an item);
- ("mod", module): a module object;
- ("own", attrs): an object the code being run made itself (a literal container, a lambda),
  or an attribute of one;
- ("new", cls): an instance made by calling the value `cls`;
- ("res", callee, attrs): what a call of `callee` returned, not known better;
- ("fn", key): a function made while running (a closure; its key is the engine's);
- ("super", cls, attrs): `super()` in a method of the class `cls`;
- ("gstar", module, name): a name `module` may have from one of its star imports;
- LIT (a literal or computed plain value) and UNK (unknown).

The walker is recursive on purpose: statements nest at most ~100 levels in CPython, and an
expression deeper than the recursion limit leaves UNK (RecursionError is caught per statement).
"""
from __future__ import annotations

import ast

LIT = ("lit",)
UNK = ("unk",)
OWN = ("own", ())
MAX_ATTRS = 4
# builtins whose call reads the whole of a container (its content decides the answer)
SCANNING_CALLS = frozenset({"len", "list", "tuple", "set", "frozenset", "sorted", "dict",
                            "iter", "sum", "any", "all", "max", "min", "enumerate",
                            "reversed", "repr", "str"})
SCANNING_METHODS = frozenset({"items", "keys", "values", "copy", "__iter__", "__len__"})
KEYED_METHODS = frozenset({"get", "__getitem__", "__contains__"})


def attr_of(value: tuple, name: str, is_module) -> tuple:
    """The value of `value.name`."""
    tag = value[0]
    if tag == "g":
        attrs = value[3]
        return value if len(attrs) >= MAX_ATTRS else ("g", value[1], value[2], attrs + (name,))
    if tag == "mod":
        dotted = f"{value[1]}.{name}"
        return ("mod", dotted) if is_module(dotted) else ("g", value[1], name, ())
    if tag in ("own", "res", "super", "call"):
        attrs = value[-1]
        return value if len(attrs) >= MAX_ATTRS else value[:-1] + (attrs + (name,),)
    if tag == "new":
        return ("own", (name,))  # an attribute of a fresh instance: the caller's own
    return UNK


def resolve_relative(module: str | None, level: int, package: str) -> str | None:
    """importlib's _resolve_name: the absolute name of a relative import, None above the top."""
    if not level:
        return module
    bits = package.rsplit(".", level - 1) if package else []
    if len(bits) < level:
        return None
    base = bits[0]
    return f"{base}.{module}" if module else base


def is_type_checking(test: ast.expr) -> bool:
    if isinstance(test, ast.Name):
        return test.id == "TYPE_CHECKING"
    return isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"


class Walker:
    """Runs statements of one scope ("module", "class" or "function") symbolically.

    `module` is where the code is written (its globals, its relative imports); hooks:
    on_write(line, target, op, key), on_call(line, callee, args, kwargs, how) -> value,
    on_class(line, name, bases, keywords, value), on_read(line, value, access)."""

    def __init__(self, module: str, package: str, kind: str, env: dict, globals_env: dict,
                 hooks, is_module, klass: tuple | None = None):
        self.module, self.package, self.kind = module, package, kind
        self.env, self.globals_env = env, globals_env
        self.hooks, self.is_module, self.klass = hooks, is_module, klass
        self.declared: set[str] = set()
        self.cond = 0  # inside a branch, loop or handler: may not run
        self.returns: list[tuple] = []
        self.stars: list[str] = []  # modules star-imported here (module scope)

    # -- names ----------------------------------------------------------------------------
    def lookup(self, name: str) -> tuple:
        if name in self.env and name not in self.declared:
            return self.env[name]
        if self.kind != "module" and name in self.globals_env:
            return self.globals_env[name]
        if self.stars:
            return ("gstar", self.module, name)
        return ("g", "builtins", name, ())

    def bind(self, name: str, value: tuple, line: int) -> None:
        if self.kind == "function" and name in self.declared:
            self.hooks.on_write(line, ("g", self.module, name, ()), "assign", ("lit-key", name))
            return
        self.env[name] = self.identity(name, value)

    def identity(self, name: str, value: tuple) -> tuple:
        """What a name bound to `value` refers to: aliases of other modules' values stay so."""
        return value

    # -- statements -----------------------------------------------------------------------
    def run(self, body) -> None:
        for stmt in body:
            try:
                self.stmt(stmt)
            except RecursionError:
                pass

    def stmt(self, node) -> None:
        handler = getattr(self, "s_" + node.__class__.__name__, None)
        if handler is not None:
            handler(node)

    def s_Expr(self, node):
        self.ev(node.value)

    def s_Assign(self, node):
        value = self.ev(node.value)
        for target in node.targets:
            self.assign(target, value, node.lineno)

    def s_AnnAssign(self, node):
        if node.value is not None:
            self.assign(node.target, self.ev(node.value), node.lineno)

    def s_AugAssign(self, node):
        self.ev(node.value)
        target = node.target
        if isinstance(target, ast.Name):
            current = self.lookup(target.id)
            if self.foreign(current):
                self.hooks.on_write(node.lineno, current, "augment", None)
            if self.kind == "function" and target.id in self.declared:
                self.hooks.on_write(node.lineno, ("g", self.module, target.id, ()), "assign",
                                    ("lit-key", target.id))
        else:
            self.assign(target, UNK, node.lineno, op="augment")

    def s_Delete(self, node):
        for target in node.targets:
            if isinstance(target, ast.Attribute):
                self.hooks.on_write(node.lineno, self.ev(target.value), "delattr",
                                    ("lit-key", target.attr))
            elif isinstance(target, ast.Subscript):
                self.hooks.on_write(node.lineno, self.ev(target.value), "delitem",
                                    self.ev(target.slice))
            elif isinstance(target, ast.Name):
                self.env.pop(target.id, None)

    def foreign(self, value: tuple) -> bool:
        return value[0] in ("g", "mod", "gstar") and not (
            value[0] == "g" and value[1] == self.module)

    def assign(self, target, value: tuple, line: int, op: str = "set") -> None:
        cls = target.__class__
        if cls is ast.Name:
            self.bind(target.id, value, line)
        elif cls is ast.Attribute:
            self.hooks.on_write(line, self.ev(target.value), "setattr" if op == "set" else op,
                                ("lit-key", target.attr))
        elif cls is ast.Subscript:
            base, key = self.ev(target.value), self.ev(target.slice)
            self.hooks.on_write(line, base, "setitem" if op == "set" else op, key)
        elif cls in (ast.Tuple, ast.List):
            for elt in target.elts:
                self.assign(elt.value if isinstance(elt, ast.Starred) else elt, UNK, line, op)
        elif cls is ast.Starred:
            self.assign(target.value, UNK, line, op)

    def s_FunctionDef(self, node):
        decorators = [self.ev(d) for d in node.decorator_list]
        self.defaults(node.args)
        value = self.define(node)
        for decorator, written in reversed(list(zip(decorators, node.decorator_list))):
            result = self.hooks.on_call(written.lineno, decorator, [value], {}, "decorator")
            value = self.decorated(value, result)
        self.bind(node.name, value, node.lineno)

    s_AsyncFunctionDef = s_FunctionDef

    def defaults(self, args: ast.arguments) -> None:
        for d in (*args.defaults, *(d for d in args.kw_defaults if d is not None)):
            self.ev(d)

    def define(self, node) -> tuple:
        """The value a def statement makes (before its decorators)."""
        return OWN

    def decorated(self, value: tuple, result: tuple) -> tuple:
        return value

    def s_ClassDef(self, node):
        decorators = [self.ev(d) for d in node.decorator_list]
        bases = [self.ev(b) for b in node.bases]
        keywords = {k.arg: self.ev(k.value) for k in node.keywords if k.arg}
        value = self.class_value(node)
        self.class_body(node, value, bases, keywords)
        self.hooks.on_class(node.lineno, node.name, bases, keywords, value)
        for decorator, written in reversed(list(zip(decorators, node.decorator_list))):
            self.hooks.on_call(written.lineno, decorator, [value], {}, "decorator")
        self.bind(node.name, value, node.lineno)

    def class_value(self, node) -> tuple:
        return OWN

    def class_body(self, node, value: tuple, bases: list, keywords: dict) -> None:
        inner = self.__class__(self.module, self.package, "class", {}, self.scope_globals(),
                               self.hooks, self.is_module, klass=value)
        inner.stars = self.stars
        inner.run(node.body)

    def scope_globals(self) -> dict:
        return self.env if self.kind == "module" else self.globals_env

    def s_Import(self, node):
        for alias in node.names:
            if alias.asname:
                self.bind(alias.asname, ("mod", alias.name), node.lineno)
            else:
                top = alias.name.partition(".")[0]
                self.bind(top, ("mod", top), node.lineno)

    def s_ImportFrom(self, node):
        module = resolve_relative(node.module, node.level, self.package)
        if module is None:
            return
        for alias in node.names:
            if alias.name == "*":
                self.stars.append(module)
                continue
            dotted = f"{module}.{alias.name}"
            value = ("mod", dotted) if self.is_module(dotted) else ("g", module, alias.name, ())
            self.bind(alias.asname or alias.name, value, node.lineno)

    def s_If(self, node):
        if is_type_checking(node.test):
            self.run(node.orelse)  # never true at run time
            return
        self.ev(node.test)
        self.branches(node.body, node.orelse)

    def branches(self, *bodies) -> None:
        self.cond += 1
        try:
            for body in bodies:
                self.run(body)
        finally:
            self.cond -= 1

    def s_For(self, node):
        it = self.ev(node.iter)
        self.hooks.on_read(node.lineno, it, "scan")
        self.assign(node.target, UNK, node.lineno)
        self.branches(node.body, node.orelse)

    s_AsyncFor = s_For

    def s_While(self, node):
        self.ev(node.test)
        self.branches(node.body, node.orelse)

    def s_With(self, node):
        for item in node.items:
            value = self.ev(item.context_expr)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, ("res", value, ()), node.lineno)
        self.run(node.body)

    s_AsyncWith = s_With

    def s_Try(self, node):
        self.run(node.body)
        for handler in node.handlers:
            if handler.name:
                self.env[handler.name] = UNK
        self.branches(*(h.body for h in node.handlers), node.orelse)
        self.run(node.finalbody)

    s_TryStar = s_Try

    def s_Match(self, node):
        self.ev(node.subject)
        self.branches(*(c.body for c in node.cases))

    def s_Return(self, node):
        self.returns.append(self.ev(node.value) if node.value is not None else LIT)

    def s_Raise(self, node):
        if node.exc is not None:
            self.ev(node.exc)

    def s_Assert(self, node):
        self.ev(node.test)

    def s_Global(self, node):
        self.declared.update(node.names)

    # -- expressions ----------------------------------------------------------------------
    def ev(self, node) -> tuple:
        cls = node.__class__
        if cls is ast.Name:
            return self.lookup(node.id)
        if cls is ast.Attribute:
            return attr_of(self.ev(node.value), node.attr, self.is_module)
        if cls is ast.Call:
            return self.call(node)
        if cls is ast.Constant:
            return LIT
        if cls is ast.Subscript:
            base = self.ev(node.value)
            key = self.ev(node.slice)
            if base == ("g", "sys", "modules", ()):
                module = self.module_named(key)
                if module is not None:
                    return ("mod", module)
            if isinstance(node.ctx, ast.Load):
                self.hooks.on_read(node.lineno, base, "keyed")
            return attr_of(base, "[]", self.is_module) if base[0] in ("g", "own") else UNK
        if cls in (ast.List, ast.Tuple, ast.Set):
            for elt in node.elts:
                self.ev(elt)
            return OWN
        if cls is ast.Dict:
            for part in (*node.keys, *node.values):
                if part is not None:
                    self.ev(part)
            return OWN
        if cls in (ast.ListComp, ast.SetComp, ast.GeneratorExp, ast.DictComp):
            for gen in node.generators:
                self.hooks.on_read(node.lineno, self.ev(gen.iter), "scan")
            return OWN
        if cls is ast.Lambda:
            self.defaults(node.args)
            return OWN
        if cls is ast.NamedExpr:
            value = self.ev(node.value)
            self.bind(node.target.id, value, node.lineno)
            return value
        if cls is ast.Starred:
            self.ev(node.value)
            return UNK
        if cls is ast.Compare and any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            self.ev(node.left)
            for op, right in zip(node.ops, node.comparators):
                value = self.ev(right)
                if isinstance(op, (ast.In, ast.NotIn)):
                    self.hooks.on_read(node.lineno, value, "keyed")
            return LIT
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.ev(child)
        return LIT if cls in (ast.BinOp, ast.Compare, ast.UnaryOp, ast.JoinedStr) else UNK

    def module_named(self, key: tuple) -> str | None:
        """The module `sys.modules[key]` is, when the key is `__name__` or an object's
        `__module__`."""
        if key == ("g", "builtins", "__name__", ()):
            return self.module
        if key[0] == "g" and key[3][-1:] == ("__module__",) and len(key[3]) == 1:
            return key[1]
        return None

    def call(self, node: ast.Call) -> tuple:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "super" and self.klass is not None \
                and func.id not in self.env:
            return ("super", self.klass, ())
        base = self.ev(func.value) if isinstance(func, ast.Attribute) else None
        callee = attr_of(base, func.attr, self.is_module) if base is not None else self.ev(func)
        args = [self.ev(a) for a in node.args]
        kwargs = {k.arg: self.ev(k.value) for k in node.keywords}
        line = node.lineno
        if any(isinstance(a, ast.Starred) for a in node.args) or None in kwargs:
            args.append(UNK)  # *args / **kwargs: the rest is not known
        if callee[0] == "g" and callee[1] == "builtins" and not callee[3]:
            if callee[2] in SCANNING_CALLS and args:
                self.hooks.on_read(line, args[0], "scan")
        elif base is not None:
            if func.attr in KEYED_METHODS:
                self.hooks.on_read(line, base, "keyed")
            elif func.attr in SCANNING_METHODS:
                self.hooks.on_read(line, base, "scan")
            elif func.attr == "__subclasses__":
                self.hooks.on_read(line, base, "subclasses")
        return self.hooks.on_call(line, callee, args, kwargs, "call")
