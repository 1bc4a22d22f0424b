"""One file -> ModuleFacts. Pure: parses source text, never executes or imports it.

Statements are visited recursively (Python limits their nesting to ~100 levels); expressions,
which real code nests far deeper, are walked with an explicit stack.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace

from .conditions import TargetVersion, decide_condition, runtime_test
from .events import (
    CLASS, FUNCTION, IF, LOOP_ELSE, TOP, TRY, TYPE_CHECKING, WITH, Bind, Call, ClassBody, Def,
    ComputedImport, Del, Dynamic, Exit, FileProblem, ForEach, FunctionFacts, GetAttr, Handler, If,
    Import, ImportFrom, ModuleFacts, Raise, SetAttr, Try, Use, bound_names, walk,
)
from .exprs import attr_chain, expr_events, getattr_read, spell, target_events
from .helpers import LAZY_LOADER, caching_getattr, lazy_attach
from .lower import lower
from .prune import prune_reads, rebinding_globals
from .skim import cuts_hold, skim

_NO_NAMES: frozenset[str] = frozenset()


def resolve_relative(module: str | None, level: int, package: str) -> str | None:
    """importlib._bootstrap._resolve_name; None when it climbs above the top-level package."""
    if level == 0:
        return module
    bits = package.rsplit(".", level - 1) if package else []
    if not package or len(bits) < level:
        return None
    base = bits[0]
    return f"{base}.{module}" if module else base


class _Extractor:
    """Walks one module body; `guard` and `in_function` say where we are."""

    def __init__(self, name: str, is_package: bool, target: TargetVersion, future: bool):
        self.name = name
        self.package = name if is_package else name.rpartition(".")[0]
        self.version = target
        self.future = future
        self.imports: set[str] = set()
        self.bindings: dict[str, int] = {}
        self.declared_global: set[str] = set()
        self.bodies = True  # extract module-level function bodies (else stubs, loaded later)
        self.registers = False  # assigns into sys.modules / installs import hooks
        self.lazy_lines: frozenset[int] = frozenset()  # `lazy import` lines (lowered source)
        self.type_params: dict[int, frozenset[str]] = {}  # PEP 695 names, by def/class line
        # module-level names known to hold a literal truth value (`PY3 = True`), for
        # deciding `if not PY3:`; `flow` says whether code here surely runs ("live"), may
        # run ("maybe": bindings forget what we knew), or never runs ("dead").
        self.consts: dict[str, object] = {}
        self.flow = "live"
        self.tree: ast.Module | None = None
        self.source: bytes | str | None = None  # the module's text, for global_names()
        self._global_names: frozenset[str] | None = None
        self.here: tuple | None = None  # (statements of the current block, current index)
        self.loop_values: dict[str, tuple] = {}  # loop variables over literal values, here
        self.type_checking: frozenset[str] = frozenset()  # aliases of typing.TYPE_CHECKING
        self.helpers: dict[str, str] = {}  # module-level names of lazy_loader and its functions
        self.stub: tuple | None = None  # the imports of the module's .pyi (helpers.stub_imports)

    def key_prefix(self, node) -> tuple[str, bool] | None:
        """_key_prefix, also through a name assigned such a string earlier in the same
        block (and declared global by no function, which could rebind it in between)."""
        if isinstance(node, ast.Name) and self.tree is not None:
            found = _assigned_before(*self.here, node.id) \
                if self.here and node.id not in self.global_names() else None
            return (found, False) if found else None
        return _key_prefix(node)

    def global_names(self) -> frozenset[str]:
        """Every name some `global` / `nonlocal` statement of the module may declare, found in
        its text (function bodies may not have been parsed: skim.py); when needed."""
        if self._global_names is None:
            if self.source is not None:
                self._global_names = declared_global(self.source)
            elif self.tree is not None:  # extract() called without the text: the whole tree
                self._global_names = frozenset(n for s in ast.walk(self.tree) if isinstance(
                    s, (ast.Global, ast.Nonlocal)) for n in s.names)
            else:
                self._global_names = frozenset()
        return self._global_names

    # -- blocks ---------------------------------------------------------------------------
    def block(self, stmts, guard: str, scope: str) -> tuple:
        out: list = []
        outer = self.here
        handlers = _HANDLERS
        for i, stmt in enumerate(stmts):
            self.here = (stmts, i)
            handler = handlers.get(stmt.__class__)
            if handler is not None and self.type_params and isinstance(
                    stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                self.s_typed(stmt, out, guard, scope, handler.__get__(self))
            elif handler is not None:
                handler(self, stmt, out, guard, scope)
            else:
                self.generic(stmt, out, scope)
        self.here = outer
        return tuple(out)

    def generic(self, stmt, out, scope):
        """Expression statements, return, raise, assert...: their reads, in order."""
        for field in stmt._fields:
            value = getattr(stmt, field)
            if isinstance(value, ast.expr):
                self.expr(value, out, scope)

    def expr(self, node, out, scope):
        out.extend(expr_events(node, self._import_call, self.decide))

    def bind(self, names, line, out, scope, value=None):
        if names:
            out.append(Bind(line, tuple(names), value))
            if scope == "module":
                for n in names:
                    self.bindings.setdefault(n, line)
                    if self.flow != "dead":
                        self.consts.pop(n, None)

    def in_flow(self, flow: str, fn, *args):
        """Run fn with the flow state narrowed to `flow` (dead > maybe > live)."""
        saved = self.flow
        if saved == "dead" or (saved == "maybe" and flow == "live"):
            flow = saved
        self.flow = flow
        try:
            return fn(*args)
        finally:
            self.flow = saved

    # -- imports --------------------------------------------------------------------------
    def s_Import(self, node, out, guard, scope):
        lazy = _is_lazy(node) or node.lineno in self.lazy_lines
        for alias in node.names:
            self.imports.add(alias.name)
            out.append(Import(node.lineno, alias.name, alias.asname, guard, lazy,
                              col=node.col_offset))
            if scope == "module":
                bound = alias.asname or alias.name.partition(".")[0]
                self.bindings.setdefault(bound, node.lineno)
                if alias.name == LAZY_LOADER:
                    self.helpers[bound] = LAZY_LOADER

    def s_ImportFrom(self, node, out, guard, scope):
        level = node.level
        module = resolve_relative(node.module, level, self.package) if level else node.module
        names = tuple([(a.name, a.asname) for a in node.names])
        if not level and node.module in ("typing", "typing_extensions"):
            self.type_checking |= {a.asname for a in node.names
                                   if a.name == "TYPE_CHECKING" and a.asname}
        error = None
        if module is None:
            error = ("attempted relative import with no known parent package" if not self.package
                     else "attempted relative import beyond top-level package")
        elif module == "__future__":
            return
        else:
            imports = self.imports
            imports.add(module)
            prefix = module + "."
            imports.update([prefix + n for n, _ in names])  # `pkg.*` for a star import
        line = node.lineno
        out.append(ImportFrom(line, module, names, level, guard,
                              _is_lazy(node) or line in self.lazy_lines, error,
                              node.col_offset))
        if scope == "module":
            setdefault = self.bindings.setdefault
            for n, asname in names:
                if n != "*":
                    setdefault(asname or n, line)
                    if module == LAZY_LOADER and not level:
                        self.helpers[asname or n] = f"{LAZY_LOADER}.{n}"

    def _import_call(self, call: ast.Call) -> tuple | None:
        """A literal importlib.import_module / __import__ call -> ("module", name, kind); any
        other import call -> ("computed", ComputedImport)."""
        chain = attr_chain(call.func)
        if chain is None:
            return None
        kind = _IMPORT_CALLS.get(chain)
        if kind is None:
            if chain[1][-1:] == ("exec_module",):
                return ("computed", ComputedImport(
                    call.lineno, "exec_module", None,
                    why="a module run by a loader's exec_module() is not replayed",
                    col=call.col_offset))
            return None
        literal = call.args and isinstance(call.args[0], ast.Constant) \
            and isinstance(call.args[0].value, str)
        if kind == "import_module" and literal:
            target = call.args[0].value
            if target.startswith("."):
                anchor = _anchor(call, self.name, self.package)
                level = len(target) - len(target.lstrip("."))
                target = resolve_relative(target[level:] or None, level, anchor) if anchor \
                    else None
            if target is not None:
                self.imports.add(target)
                return ("module", target, "import_module")
        if kind == "__import__" and literal and len(call.args) == 1 and not call.keywords:
            self.imports.add(call.args[0].value)
            return ("module", call.args[0].value, "__import__")
        return ("computed", self._computed(call, kind))

    def _computed(self, call: ast.Call, kind: str) -> ComputedImport:
        names = _IMPORT_PARAMETERS[kind]
        given = dict(zip(names, call.args))
        given.update((k.arg, k.value) for k in call.keywords if k.arg in names)
        line, col = call.lineno, call.col_offset
        if any(isinstance(a, ast.Starred) for a in call.args) or \
                any(k.arg is None for k in call.keywords) or names[0] not in given:
            return ComputedImport(line, kind, None, why="its arguments are not known",
                                  col=col)
        parts = spell(given[names[0]])
        if parts is not None and all(p.__class__ is str for p in parts):
            self.imports.add("".join(parts).lstrip("."))
        anchor = None
        if "package" in given:
            anchor = spell(given["package"]) if not _is_none(given["package"]) else None
            if anchor is None and not _is_none(given["package"]):
                parts = None
        fromlist: tuple | None = ()
        if "fromlist" in given and not _is_none(given["fromlist"]):
            node = given["fromlist"]
            fromlist = tuple(e.value for e in node.elts) if isinstance(
                node, (ast.List, ast.Tuple)) and all(isinstance(e, ast.Constant) and isinstance(
                    e.value, str) for e in node.elts) else None
        level = 0
        if "level" in given:
            node = given["level"]
            level = node.value if isinstance(node, ast.Constant) and type(node.value) is int \
                else -1
        why = "" if parts is not None else "its module name cannot be evaluated statically"
        return ComputedImport(line, kind, parts, anchor, fromlist, level, why, col)

    # -- definitions ----------------------------------------------------------------------
    def s_FunctionDef(self, node, out, guard, scope):
        args = node.args
        # a header that evaluates nothing (most cut defs', skim.py) is not walked: only the
        # binding is left
        if node.decorator_list or args.defaults or args.kw_defaults or not self.future and (
                args.args or args.posonlyargs or args.vararg or args.kwonlyargs or
                args.kwarg or node.returns):
            self._header(node, out, scope)
        func = None
        if scope == "module":
            func = self.function(node) if self.bodies else \
                FunctionFacts(node.name, node.lineno, None, _NO_NAMES, _NO_NAMES)
        out.append(Def(node.lineno, node.name, func))
        if scope == "module":
            self.bindings.setdefault(node.name, node.lineno)

    def _header(self, node, out, scope):
        """What defining a function evaluates: decorators, defaults, annotations unless
        postponed, then the decorators' calls."""
        args = node.args
        for dec in node.decorator_list:
            self.expr(dec, out, scope)
        for default in (*args.defaults, *(d for d in args.kw_defaults if d is not None)):
            self.expr(default, out, scope)
        if not self.future:
            for arg in (*args.posonlyargs, *args.args, args.vararg, *args.kwonlyargs,
                        args.kwarg):
                if arg is not None and arg.annotation is not None:
                    self.expr(arg.annotation, out, scope)
            if node.returns is not None:
                self.expr(node.returns, out, scope)
        for dec in reversed(node.decorator_list):
            chain = attr_chain(dec)
            if chain is not None:
                out.append(Call(node.lineno, chain[0], chain[1], (1, (), 1)))

    s_AsyncFunctionDef = s_FunctionDef

    def s_typed(self, node, out, guard, scope, handler):
        """A generic def / class: its type parameters are bound inside it."""
        names = self.type_params.get(node.lineno)
        if not names:
            return handler(node, out, guard, scope)
        inner: list = []
        handler(node, inner, guard, scope)
        out.extend(without_reads(inner, names))

    def function(self, node) -> FunctionFacts:
        sub = _Extractor(self.name, False, self.version, self.future)
        sub.package = self.package
        sub.lazy_lines = self.lazy_lines
        sub.type_params = self.type_params
        body = sub.block(node.body, FUNCTION, "function")
        if body and body[-1].__class__ is Exit and not body[-1].exception and (
                body[-1].value is None or node.name != "__getattr__"):
            # a `return` (or `raise`) that ends the body ends the call anyway: one exception
            # fewer per call of a function called many times at import time
            body = body[:-1]
        self.imports |= sub.imports
        self.registers |= sub.registers
        args = node.args
        local = {a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)}
        local |= {a.arg for a in (args.vararg, args.kwarg) if a is not None}
        local |= bound_names(body)
        positional = tuple(a.arg for a in (*args.posonlyargs, *args.args))
        with_default = list(zip(positional[len(positional) - len(args.defaults):], args.defaults))
        with_default += [(a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d]
        defaults = tuple((n, d.value) for n, d in with_default if isinstance(d, ast.Constant))
        return FunctionFacts(node.name, node.lineno, body, frozenset(local - sub.declared_global),
                             frozenset(sub.declared_global), positional, defaults)

    def s_ClassDef(self, node, out, guard, scope):
        modelled = caching_getattr(node) if scope == "module" else None
        if modelled is not None:  # matplotlib's helper (helpers.py): a module __getattr__
            self.expr(node.decorator_list[0], out, scope)
            out.append(Def(node.lineno, "__getattr__", self.function(modelled)))
            self.bindings.setdefault(node.name, node.lineno)
            return
        for dec in node.decorator_list:
            self.expr(dec, out, scope)
        for base in node.bases:
            self.expr(base, out, scope)
        for kw in node.keywords:
            self.expr(kw.value, out, scope)
        body = self.block(node.body, CLASS if guard == TOP else guard, "class")
        for dec in reversed(node.decorator_list):
            chain = attr_chain(dec)
            if chain is not None:
                out.append(Call(node.lineno, chain[0], chain[1], (1, (), 1)))
        out.append(ClassBody(node.lineno, node.name, body))
        if scope == "module":
            self.bindings.setdefault(node.name, node.lineno)

    # -- assignments ----------------------------------------------------------------------
    def s_Assign(self, node, out, guard, scope):
        self.expr(node.value, out, scope)
        if scope == "module" and self._lazy_attach(node, out):
            return
        value = self._value_of(node.value, node.targets)
        for target in node.targets:
            if not self._unpacked(target, node.value, node.lineno, out, scope):
                self.target(target, node.lineno, out, scope, value)
        if scope == "module" and self.flow == "live" and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name):
            if isinstance(node.value, ast.Constant):
                self.consts[node.targets[0].id] = node.value.value
            else:
                cond, why = self.decide(node.value)
                if cond != "unknown" and why != "TYPE_CHECKING":
                    self.consts[node.targets[0].id] = cond == "true"

    def s_AnnAssign(self, node, out, guard, scope):
        if node.value is not None:
            self.expr(node.value, out, scope)
            self.target(node.target, node.lineno, out, scope,
                        self._value_of(node.value, [node.target]))
        elif not isinstance(node.target, ast.Name):
            out.extend(target_events(node.target, node.lineno, reads_only=True))
        if node.simple and scope != "function" and not self.future:
            self.expr(node.annotation, out, scope)

    def s_AugAssign(self, node, out, guard, scope):
        target = node.target
        if isinstance(target, ast.Name):
            out.append(Use(node.lineno, target.id))
        self.expr(node.value, out, scope)
        value = None
        if isinstance(target, ast.Name) and target.id == "__all__":
            value = _all_value(node.value, extend=True)
        self.target(target, node.lineno, out, scope, value)

    def target(self, target, line, out, scope, value=None):
        if isinstance(target, ast.Name):
            self.bind([target.id], line, out, scope, value)
            return
        if isinstance(target, ast.Subscript) and _is_globals_call(target.value):
            names = _expand_key(target.slice, self.loop_values)
            followed = _bound_value(value)
            if followed is not None and followed[0] == "ref" and followed[1] in self.loop_values:
                followed = None  # a literal: the static expansion binds it as well
            if names is not None and scope == "module" and followed is None:
                self.bind(names, line, out, scope)  # each name the key can take, known
                return
            key = self.key_prefix(target.slice)
            if key is not None and key[1] and scope == "module":
                self.bind([key[0]], line, out, scope)  # globals()["name"] = ...
                return
            own = scope == "module" or target.value.func.id == "globals"
            parts = spell(target.slice) if own else None
            out.append(Dynamic(line, "assignment into globals()", key[0] if key else "",
                               key=parts, value=_bound_value(value)))
            return
        if isinstance(target, ast.Subscript) and attr_chain(target.value) == ("sys", ("modules",)):
            self.registers = True
            key = attr_chain(target.slice)
            if key == ("__name__", ()):  # a module object of its own
                out.append(Dynamic(line, "the module replaces itself in sys.modules",
                                   replaces=True))
            elif key is not None and scope == "function":
                out.append(Dynamic(line, "a function called at import time puts a module "
                                         "into sys.modules under a name it computes",
                                   elsewhere=True))
        events = target_events(target, line)
        out.extend(e for e in events if not isinstance(e, Bind))
        names = [n for e in events if isinstance(e, Bind) for n in e.names]
        self.bind(names, line, out, scope)

    def _lazy_attach(self, node, out) -> bool:
        """`__getattr__, __dir__, __all__ = lazy.attach(__name__, ...)` (or attach_stub):
        the `__getattr__` it returns, as a def (helpers.py), and its `__all__`."""
        call, target = node.value, node.targets[0]
        if len(node.targets) != 1 or not isinstance(call, ast.Call) or \
                not isinstance(target, ast.Tuple) or not target.elts or \
                not isinstance(target.elts[0], ast.Name) or target.elts[0].id != "__getattr__":
            return False
        chain = attr_chain(call.func)
        helper = chain and (self.helpers.get(chain[0]) if not chain[1] else
                            f"{self.helpers.get(chain[0])}.{chain[1][0]}"
                            if len(chain[1]) == 1 else None)
        kind = helper.rpartition(".")[2] if helper and helper.startswith(
            LAZY_LOADER + ".") else None
        if kind not in ("attach", "attach_stub"):
            return False
        made = lazy_attach(call, kind, self.name, self.stub)
        if made is None:
            return False
        line = node.lineno
        out.append(Def(line, "__getattr__", self.function(made[0])))
        self.bindings.setdefault("__getattr__", line)
        for elt in target.elts[1:]:
            name = elt.value if isinstance(elt, ast.Starred) else elt
            if not isinstance(name, ast.Name):
                self.target(name, line, out, "module")
                continue
            value = ("all", made[1]) if name.id == "__all__" and not isinstance(
                elt, ast.Starred) else None
            self.bind([name.id], line, out, "module", value)
        return True

    def _own_sys_modules_entry(self, target) -> bool:
        """Is `target` `sys.modules[__name__]` or `sys.modules["<this module's name>"]`?"""
        if not isinstance(target, ast.Subscript) or \
                attr_chain(target.value) != ("sys", ("modules",)):
            return False
        key = target.slice
        return attr_chain(key) == ("__name__", ()) or (
            isinstance(key, ast.Constant) and key.value == self.name)

    def _constant(self, node):
        """A constant, or what `__name__` / `__package__` / `__spec__.parent` are here, or a
        tuple of those; else _NOT_CONSTANT."""
        if isinstance(node, ast.Constant):
            return node.value
        chain = attr_chain(node)
        if chain == ("__name__", ()):
            return self.name
        if chain in (("__package__", ()), ("__spec__", ("parent",))):
            return self.package
        if isinstance(node, ast.Tuple):
            items = tuple(self._constant(e) for e in node.elts)
            return _NOT_CONSTANT if _NOT_CONSTANT in items else items
        return _NOT_CONSTANT

    def _unpacked(self, target, value, line, out, scope) -> bool:
        """`a, b = name`: each target name bound to that item of the value, when it is a
        known tuple then ("item", name, attrs, index, length))."""
        chain = attr_chain(value)
        if chain is None or not isinstance(target, ast.Tuple) or not all(
                isinstance(e, ast.Name) for e in target.elts):
            return False
        n = len(target.elts)
        for i, elt in enumerate(target.elts):
            self.bind([elt.id], line, out, scope, ("item", chain[0], chain[1], i, n))
        return True

    def _value_of(self, value, targets) -> tuple | None:
        if len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id in (
                "__all__", "__lazy_modules__"):
            return _all_value(value, extend=False)
        chain = attr_chain(value)
        if chain is not None:
            return ("ref", chain[0], chain[1])
        if isinstance(value, ast.Call):
            found = self._import_call(value)
            if found is not None:
                return found if found[0] == "module" else ("computed",)
            read = getattr_read(value)
            if read is not None:
                return ("getattr", read[0], read[1])
        if isinstance(value, ast.Dict):
            return _dict_value(value, self._constant)
        if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
            return _sequence_value(value)
        if isinstance(value, ast.ListComp):
            return _comprehension_value(value)
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            found = _all_value(value, extend=False)  # lists of names added up
            if found[1] is not None:
                return found
        parts = spell(value)
        return ("str", parts) if parts is not None else None

    def s_Return(self, node, out, guard, scope):
        self.generic(node, out, scope)
        if scope == "function":
            chain = attr_chain(node.value) if node.value is not None else None
            out.append(Exit(node.lineno, "", ("ref", *chain) if chain else None))

    def s_Raise(self, node, out, guard, scope):
        self.generic(node, out, scope)
        exc = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
        if scope == "function":
            chain = attr_chain(exc) if exc is not None else None
            out.append(Exit(node.lineno, (chain[1] or (chain[0],))[-1] if chain else "?"))
            return
        if isinstance(exc, ast.Name):
            args = node.exc.args if isinstance(node.exc, ast.Call) else []
            message = args[0].value if args and isinstance(args[0], ast.Constant) \
                and isinstance(args[0].value, str) else ""
            out.append(Raise(node.lineno, exc.id, message))

    def s_Assert(self, node, out, guard, scope):
        self.expr(node.test, out, scope)
        if scope != "function" and self.decide(node.test)[0] == "false":
            out.append(Raise(node.lineno, "AssertionError"))

    def s_Delete(self, node, out, guard, scope):
        names = []
        for target in node.targets:
            if isinstance(target, ast.Name):
                names.append(target.id)
            else:
                self.expr(target, out, scope)
                if scope == "module" and self._own_sys_modules_entry(target):
                    # `del sys.modules[__name__]`, then something else is put there (twisted's
                    # reactor: installReactor): importers get that object, as when the module
                    # replaces itself
                    self.registers = True
                    out.append(Dynamic(node.lineno, "the module takes itself out of "
                                       "sys.modules", replaces=True))
        if names:
            out.append(Del(node.lineno, tuple(names)))

    def s_Global(self, node, out, guard, scope):
        self.declared_global.update(node.names)

    s_Nonlocal = s_Global

    # -- control flow ---------------------------------------------------------------------
    def s_If(self, node, out, guard, scope):
        cond, why = self.decide(node.test)
        self.expr(node.test, out, scope)
        body_guard = TYPE_CHECKING if why == "TYPE_CHECKING" and cond == "false" else \
            (guard if guard != TOP else IF)
        else_guard = TYPE_CHECKING if why == "TYPE_CHECKING" and cond == "true" else \
            (guard if guard != TOP else IF)
        if cond != "unknown" and guard == TOP and why != "TYPE_CHECKING":
            body_guard = else_guard = TOP  # a decided condition is plain top-level code
        flows = {"true": ("live", "dead"), "false": ("dead", "live")}.get(cond, ("maybe",) * 2)
        body = self.in_flow(flows[0], self.block, node.body, body_guard, scope)
        orelse = self.in_flow(flows[1], self.block, node.orelse, else_guard, scope)
        test = runtime_test(node.test) if cond == "unknown" and scope == "function" else None
        out.append(If(node.lineno, cond, body, orelse, why, test))

    def decide(self, test) -> tuple[str, str]:
        return decide_condition(test, self.version, self.consts, self.type_checking)

    def s_Try(self, node, out, guard, scope):
        inner = TRY if guard in (TOP, WITH) else guard
        saved, self.flow = self.flow, ("dead" if self.flow == "dead" else "maybe")
        try:
            self._try(node, out, inner, scope)
        finally:
            self.flow = saved

    def _try(self, node, out, inner, scope):
        body = self.block(node.body, inner, scope)
        handlers = []
        for h in node.handlers:
            types = _handler_types(h.type)
            hbody = self.block(h.body, inner, scope)
            handlers.append(Handler(h.lineno, types, h.name, hbody))
            if h.name and scope == "module":
                self.bindings.setdefault(h.name, h.lineno)
        orelse = self.block(node.orelse, inner, scope)
        final = self.block(node.finalbody, inner, scope)
        out.append(Try(node.lineno, body, tuple(handlers), orelse, final))

    s_TryStar = s_Try

    def s_For(self, node, out, guard, scope):
        self.expr(node.iter, out, scope)
        if not _is_empty_literal(node.iter):  # a literal empty iterable never runs the body
            start = len(out)
            self.target(node.target, node.lineno, out, scope)
            values = _literal_values(node.iter)
            var = node.target.id if isinstance(node.target, ast.Name) else None
            known = values is not None and var is not None and \
                var not in {n for s in node.body for n in names_bound_in(s)} and \
                var not in self.global_names()
            saved = self.loop_values
            if known:  # `for i in range(2, 7): globals()[f"List{i}"] = ...` binds 5 names
                self.loop_values = {**saved, var: values}
            try:
                out.extend(self.in_flow("maybe", self.block, node.body, guard, scope))
            finally:
                self.loop_values = saved
            loop = self._for_each(node, out[start:], values)
            if loop is not None:
                out[start:] = [loop]
        self.loop_else(node, out, guard, scope)

    def _for_each(self, node, events: list, values) -> ForEach | None:
        """The loop as a ForEach when its body makes a computed import, a getattr() or a
        binding under a computed key, and what it iterates over is known (statically, or when
        it runs): each pass may import another module, or read or bind another name."""
        if not events or events[0].__class__ is not Bind or _breaks(node.body) or not any(
                ev.__class__ is ComputedImport or ev.__class__ is GetAttr or
                ev.__class__ is Dynamic and (ev.key is not None or ev.update is not None)
                for ev in walk(events[1:])):
            return None
        target = node.target
        if isinstance(target, ast.Name):
            targets, is_tuple = (target.id,), False
        elif isinstance(target, ast.Tuple) and all(isinstance(e, ast.Name) for e in target.elts):
            targets, is_tuple = tuple(e.id for e in target.elts), True
        else:
            return None
        bound = {n for s in node.body for n in names_bound_in(s)}
        if bound & set(targets) or set(targets) & self.global_names():
            return None
        source = ("values", values) if values is not None else _loop_source(node.iter)
        if source is None or (source[0] == "modules" and is_tuple and len(targets) != 3):
            return None
        return ForEach(node.lineno, targets, source, tuple(events[1:]), is_tuple)

    s_AsyncFor = s_For

    def s_While(self, node, out, guard, scope):
        self.expr(node.test, out, scope)
        if self.decide(node.test)[0] != "false":
            out.extend(self.in_flow("maybe", self.block, node.body, guard, scope))
        self.loop_else(node, out, guard, scope)

    def loop_else(self, node, out, guard, scope):
        """A loop's `else:` runs when the loop ends without `break`: always, if its body has
        no `break` of its own; else maybe, as the body of an `if` not decided statically
        (`for ...: if found: break` / `else: raise ...` is a guard assumed not to fire)."""
        if not node.orelse:
            return
        if not _breaks(node.body):
            out.extend(self.block(node.orelse, guard, scope))
            return
        orelse = self.in_flow("maybe", self.block, node.orelse, guard if guard != TOP else IF,
                              scope)
        out.append(If(node.lineno, "unknown", (), orelse, LOOP_ELSE))

    def s_With(self, node, out, guard, scope):
        for item in node.items:
            self.expr(item.context_expr, out, scope)
            if item.optional_vars is not None:
                self.target(item.optional_vars, node.lineno, out, scope)
        out.extend(self.block(node.body, WITH if guard == TOP else guard, scope))

    s_AsyncWith = s_With

    def s_Match(self, node, out, guard, scope):
        self.expr(node.subject, out, scope)
        for case in node.cases:
            out.extend(self.in_flow("maybe", self.block, case.body, IF if guard == TOP else guard,
                                    scope))

    def s_Expr(self, node, out, guard, scope):
        value = node.value
        if isinstance(value, ast.Call) and (attr_chain(value.func) or ("", ()))[1][:1] in (
                ("meta_path",), ("path_hooks",)) and attr_chain(value.func)[0] == "sys":
            self.registers = True
        if isinstance(value, ast.Call):
            dyn = _dynamic_call(value)
            if dyn:
                self.expr(value, out, scope)
                names = _update_names(value)
                if names is not None and scope == "module":
                    for key, item in zip(names, value.args[0].values):
                        self.bind([key], node.lineno, out, scope,
                                  _bound_value(self._value_of(item, [])))
                    return
                key = _setattr_key(value)
                out.append(Dynamic(node.lineno, dyn, key=key, update=_update_source(value),
                                   value=_bound_value(self._value_of(value.args[2], [])
                                                      if key is not None else None)))
                return
            chain = attr_chain(value.func)
            if chain and chain[0] == "__all__" and chain[1] in (("extend",), ("append",)) \
                    and scope == "module":
                self.expr(value, out, scope)
                arg = value.args[0] if len(value.args) == 1 else None
                if chain[1] == ("append",):
                    names = _all_value(ast.List([arg], ast.Load()) if arg else None, extend=True)
                else:
                    names = _all_value(arg, extend=True)
                out.append(Bind(node.lineno, ("__all__",), names))
                return
        self.expr(value, out, scope)

    def s_TypeAlias(self, node, out, guard, scope):
        self.bind([node.name.id], node.lineno, out, scope)  # value is lazily evaluated


# statement class -> the _Extractor method for it (s_ and the class's name)
_HANDLERS = {getattr(ast, name[2:]): func for name, func in vars(_Extractor).items()
             if name.startswith("s_") and isinstance(getattr(ast, name[2:], None), type)}


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
    ("ref", name, attrs) a list held by a name; else None."""
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


def _dict_value(node: ast.Dict, constant=None) -> tuple | None:
    """("dict", ((key, value), ...)) for a literal dict with string keys: a constant value
    (`constant(node)`: also tuples of them and the module's own names) as ("lit", value),
    any other as opaque."""
    if len(node.keys) > MAX_DICT or not all(
            isinstance(k, ast.Constant) and isinstance(k.value, str) for k in node.keys):
        return None
    items = []
    for k, v in zip(node.keys, node.values):
        found = constant(v) if constant is not None else \
            v.value if isinstance(v, ast.Constant) else _NOT_CONSTANT
        items.append((k.value, ("lit", found) if found is not _NOT_CONSTANT else ("v",)))
    return ("dict", tuple(items))


def _sequence_value(node) -> tuple | None:
    """A literal list, tuple or set of constants, as a dict value of its items (for `in`
    tests and loops; a set's order is not known: ("dict", items, "set"))."""
    if len(node.elts) > MAX_DICT or not all(isinstance(e, ast.Constant) for e in node.elts):
        return None
    items = tuple((e.value, ("v",)) for e in node.elts)
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


def without_reads(events, names: frozenset[str]) -> list:
    """`events` minus reads of `names`, at any depth (the scope where they are bound)."""
    out = []
    for ev in events:
        cls = ev.__class__
        if cls in (Use, Call) and ev.name in names:
            continue
        if cls is ClassBody:
            ev = ClassBody(ev.line, ev.name, tuple(without_reads(ev.body, names)))
        elif cls is Def and ev.func is not None and ev.func.body is not None:
            ev = Def(ev.line, ev.name, replace(ev.func, body=tuple(without_reads(ev.func.body,
                                                                                names))))
        elif cls is If:
            ev = replace(ev, body=tuple(without_reads(ev.body, names)),
                         orelse=tuple(without_reads(ev.orelse, names)))
        out.append(ev)
    return out


def _is_lazy(node) -> bool:
    return bool(getattr(node, "is_lazy", False))


def _handler_types(node) -> tuple[str, ...] | None:
    if node is None:
        return None
    items = node.elts if isinstance(node, ast.Tuple) else [node]
    out = []
    for item in items:
        chain = attr_chain(item)
        out.append(chain[1][-1] if chain and chain[1] else (chain[0] if chain else "?"))
    return tuple(out)


def _key_prefix(node) -> tuple[str, bool] | None:
    """(what every value of a subscript key starts with, whether that is all of it) for a
    string constant or an f-string that starts with text; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        return (node.value, True) if node.value.isidentifier() else None
    if isinstance(node, ast.JoinedStr) and node.values and \
            isinstance(node.values[0], ast.Constant) and node.values[0].value:
        return str(node.values[0].value), False
    return None


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


def _assigned_before(stmts, index: int, name: str) -> str | None:
    """The text every value of `name` starts with when statement `index` of `stmts` runs,
    if the nearest earlier statement of the block that binds it is `name = <string>`."""
    for stmt in reversed(stmts[:index]):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                isinstance(stmt.targets[0], ast.Name) and stmt.targets[0].id == name:
            key = _key_prefix(stmt.value)
            return key[0] if key else None
        if name in names_bound_in(stmt):
            return None
    return None


_DECLARED = re.compile(r"\b(?:global|nonlocal)[ \t]+((?:[\w, \t]|\\\n)+)")


def declared_global(source: bytes | str) -> frozenset[str]:
    """Names after `global` / `nonlocal` anywhere in the text: a superset of the declared."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    if "global" not in text and "nonlocal" not in text:
        return frozenset()
    return frozenset(name for found in _DECLARED.findall(text)
                     for name in re.split(r"[\s,\\]+", found) if name.isidentifier())


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


def extract(tree: ast.Module, name: str, path: str, is_package: bool,
            target: TargetVersion = (3, 11), bodies: bool = True,
            lazy_lines: frozenset[int] = frozenset(),
            type_params: dict[int, frozenset[str]] | None = None,
            source: bytes | str | None = None, def_spans: tuple = (),
            stub: tuple | None = None) -> ModuleFacts:
    """Facts of one parsed module (`source`: its text). Without `bodies`, module-level
    functions get stubs (body None) that the simulator loads on the first call at import
    time; `def_spans` (skim) go with them, so that a body is loaded without a scan of the
    whole source (parse.FunctionsOnDemand)."""
    future = _future_annotations(tree)
    ex = _Extractor(name, is_package, target, future)
    ex.bodies = bodies
    ex.lazy_lines = lazy_lines
    ex.type_params = type_params or {}
    ex.tree = tree
    ex.source = source
    ex.stub = stub
    body = ex.block(tree.body, TOP, "module")
    body = prune_reads(body, rebinding_globals(body))
    return ModuleFacts(name, path, is_package, body, future,
                       tuple(sorted(ex.bindings.items(), key=lambda kv: kv[1])),
                       frozenset(ex.imports), registers_modules=ex.registers,
                       def_spans=def_spans)


def _future_annotations(tree: ast.Module) -> bool:
    return any(isinstance(s, ast.ImportFrom) and s.module == "__future__" and
               any(a.name == "annotations" for a in s.names) for s in tree.body)


def function_from_source(source: bytes, name: str, path: str, is_package: bool,
                         target: TargetVersion, function: str, line: int,
                         spans: dict | None = None, future: bool | None = None,
                         rebinding: frozenset[str] | None = None) -> FunctionFacts | None:
    """The module-level function `function` defined on `line`, with its body, parsing no
    other function's body (skim.py), as `facts_from_source(bodies=True)` has it but for
    one rule: its reads are pruned as if every name some `global` statement of the module
    names were rebound by calls (declared_global; the whole parse knows the functions' own
    declarations, a subset), which can only keep more reads. Only for a source known to
    compile; None when skim cannot do it: parse it all then.

    A caller that asks for several functions of one module passes what they share: `spans`
    (skim.def_spans of the source), `future` (the module's `from __future__ import
    annotations`, ModuleFacts.future_annotations) and `rebinding` (declared_global of the
    source). With the first two, the def's own lines are parsed alone (_def_alone), not the
    whole module with the other bodies cut: a module that runs twenty of its functions at
    import time is scanned once, not parsed twenty times."""
    node = _def_alone(source, path, spans.get(line), line, function) \
        if spans is not None and future is not None else None
    if node is None:
        skimmed = _skeleton(source, path, frozenset((line,)))
        if skimmed is None:
            return None
        tree = skimmed[0]
        node = next((d for d in module_level_defs(tree)
                     if d.lineno == line and d.name == function), None)
        if node is None:
            return None
        future = _future_annotations(tree)
    func = _Extractor(name, is_package, target, future).function(node)
    if rebinding is None:
        rebinding = declared_global(source)
    return replace(func, body=prune_reads(func.body, rebinding))


_CODING = re.compile(rb"^[ \t\f]*#.*?coding[:=]", re.M)


def _def_alone(source: bytes, path: str, span: tuple[int, int, int] | None, line: int,
               function: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    """The def on `line`, from a parse of its own lines (`span`: skim.def_spans) put at the
    same line and column (blank lines before it; an indented one under `if 1:`), or None
    when that does not give exactly that def (or an encoding declaration, which the lines
    alone would lose, says how to read the source)."""
    if span is None:
        return None
    start, end, indent = span
    if indent and line < 2:
        return None
    first = source.find(b"\n")
    second = source.find(b"\n", first + 1) if first >= 0 else -1
    if _CODING.search(source, 0, second if second >= 0 else len(source)):
        return None  # on the first two lines
    text = b"\n" * (line - 1) + source[start:end] if not indent else \
        b"\n" * (line - 2) + b"if 1:\n" + source[start:end]
    try:
        body = ast.parse(text, filename=path).body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if indent:
        if len(body) != 1 or body[0].__class__ is not ast.If:
            return None
        body = body[0].body
    if len(body) != 1:
        return None
    node = body[0]
    if node.__class__ not in (ast.FunctionDef, ast.AsyncFunctionDef) or node.lineno != line \
            or node.name != function:
        return None
    return node


def module_level_defs(tree: ast.Module):
    """The defs the extractor sees at module scope: under if / try / with / loops, not in a
    class or another def."""
    stack: list = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node
        elif not isinstance(node, ast.ClassDef):
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(node, field, ()) or ())


def facts_from_source(source: bytes | str, name: str, path: str, is_package: bool,
                      target: TargetVersion = (3, 11), bodies: bool = True,
                      nested: bool = True, compiles: bool = False,
                      stub: tuple | None = None) -> ModuleFacts:
    """Parse and extract; a file that cannot be read as Python gives facts with a problem.
    `nested`: also find the imports below the top level (for the results cache).
    `compiles`: the caller knows the source compiles (bytecode.compiled_before), so without
    `bodies` the function bodies need not be parsed at all (skim.py). `stub`: the imports
    of the module's `.pyi` (helpers.stub_imports), for lazy_loader.attach_stub."""
    facts = None
    if compiles and not bodies and isinstance(source, bytes):
        facts = _skimmed_facts(source, name, path, is_package, target, stub)
    if facts is None:
        facts = _parsed_facts(source, name, path, is_package, target, bodies, stub)
    if not nested or facts.problem is not None:
        return facts
    below = indented_imports(source, name, is_package) - facts.imports
    return replace(facts, nested_imports=below) if below else facts


def _skimmed_facts(source: bytes, name: str, path: str, is_package: bool,
                   target: TargetVersion, stub: tuple | None = None) -> ModuleFacts | None:
    """Facts with stub functions from the source with its function bodies cut (skim.py), or
    None when nothing was cut or a cut does not show as made: the caller parses it all."""
    skimmed = _skeleton(source, path)
    if skimmed is None:
        return None
    return extract(skimmed[0], name, path, is_package, target, False, source=source,
                   def_spans=skimmed[1], stub=stub)


def _skeleton(source: bytes, path: str, keep: frozenset[int] = frozenset()
              ) -> tuple[ast.Module, tuple] | None:
    """(the tree of the source with its function bodies cut but those of the defs on the
    lines in `keep` (skim.py), the spans of the cut defs at the start of a line), or None
    when nothing was cut or a cut does not show as made."""
    skimmed = skim(source, keep)
    if skimmed is None:
        return None
    try:
        tree = ast.parse(skimmed[0], filename=path)
    except (SyntaxError, ValueError, RecursionError):
        return None
    if skimmed[2] and not _future_annotations(tree):
        return None  # annotations went on the word of a future import the parse does not see
    return (tree, skimmed[3]) if cuts_hold(tree, skimmed[1]) else None


def _parsed_facts(source: bytes | str, name: str, path: str, is_package: bool,
                  target: TargetVersion, bodies: bool, stub: tuple | None = None
                  ) -> ModuleFacts:
    lazy_lines: frozenset[int] = frozenset()
    type_params: dict[int, frozenset[str]] = {}
    text = source  # what was parsed
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        lowered = lower(source)  # syntax of a newer Python? (PEP 695, PEP 810, ...)
        try:
            if lowered is None:
                raise exc
            text, lazy_lines, type_params = lowered
            tree = ast.parse(text, filename=path)
        except SyntaxError:
            problem = FileProblem("IS001", exc.lineno or 1, f"cannot parse: {exc.msg}")
            return ModuleFacts(name, path, is_package, (), problem=problem)
    except (ValueError, UnicodeDecodeError) as exc:
        problem = FileProblem("IS002", 1, f"cannot decode: {exc}")
        return ModuleFacts(name, path, is_package, (), problem=problem)
    except RecursionError:
        problem = FileProblem("IS001", 1, "cannot parse: nesting too deep for the parser")
        return ModuleFacts(name, path, is_package, (), problem=problem)
    return extract(tree, name, path, is_package, target, bodies, lazy_lines, type_params,
                   source=text, stub=stub)


_INDENTED_IMPORT = re.compile(
    r"^[ \t]+(?:from[ \t]+(\.*[\w.]*)[ \t]+import\b|import[ \t]+([\w. \t,]+))", re.M)


def indented_imports(source: bytes | str, name: str, is_package: bool) -> frozenset[str]:
    """Modules named by import statements below the top level (function bodies, which are
    extracted only when called, and any other block), found by a regex over the text: a
    superset (`pkg.*` for every `from pkg import ...`) for the results cache's dependency
    graph (resultcache.py), cheap enough to run on every file."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    if "import" not in text:
        return frozenset()
    package = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for source_module, names in _INDENTED_IMPORT.findall(text):
        if names:
            out.update(n.split()[0] for n in names.split(",") if n.split())
            continue
        level = len(source_module) - len(source_module.lstrip("."))
        module = source_module[level:]
        if level:
            parts = package.split(".") if package else []
            if level - 1 > len(parts) or not parts:
                continue
            base = ".".join(parts[:len(parts) - (level - 1)])
            module = f"{base}.{module}" if module else base
        if module:
            out.update((module, f"{module}.*"))
    return frozenset(out)


__all__ = ["extract", "facts_from_source", "resolve_relative", "decide_condition",
           "Import", "ImportFrom", "Use", "Call", "Bind", "Del", "Def", "ClassBody", "If",
           "Try", "Handler", "Dynamic", "SetAttr", "FunctionFacts", "ModuleFacts",
           "FileProblem", "TOP", "TYPE_CHECKING", "IF", "TRY", "FUNCTION", "CLASS", "WITH"]
