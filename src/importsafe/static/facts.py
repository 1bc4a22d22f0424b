"""One file -> ModuleFacts. Pure: parses source text, never executes or imports it.

Statements are visited recursively (Python limits their nesting to ~100 levels); expressions,
which real code nests far deeper, are walked with an explicit stack.
"""
from __future__ import annotations

import ast
import re
from dataclasses import replace

from .conditions import (TargetVersion, decide_condition, environ_item, maybe_evaluated,
                         runtime_test)
from .events import (
    CLASS, EMPTY_DICT, FUNCTION, IF, TOP, TRY, TYPE_CHECKING, WITH, Bind, Call, ClassBody, Def,
    Del, Dynamic, Exit, FileProblem, FunctionFacts, Handler, If,
    Import, ImportFrom, ModuleFacts, Raise, SetAttr, Try, Use, bound_names,
)
from .exprs import attr_chain, expr_events, passed_arguments
from .helpers import SINGLEDISPATCH, TRANSPARENT_DECORATORS, caching_getattr
from .lower import lower, lower_lazy, may_have_lazy
from .problems import import_budget
from .prune import prune_reads, rebinding_globals
from .purefn import compile_expr, compile_function
from .skim import cuts_hold, masked, skim
from .torchops import scan as torch_ops
from .facts_bindings import Bindings
from .facts_flow import ControlFlow
from .facts_imports import ImportStatements
from .shapes import (  # noqa: F401 - resolve_relative: also from here
    names_bound_in, resolve_relative,
)

_NO_NAMES: frozenset[str] = frozenset()


class _Extractor(ImportStatements, Bindings, ControlFlow):
    """Walks one module body; `guard` and `in_function` say where we are."""

    def __init__(self, name: str, is_package: bool, target: TargetVersion, future: bool,
                 env: tuple = ()):
        self.name = name
        self.package = name if is_package else name.rpartition(".")[0]
        self.version = target
        # the environment variables given (--env); every other one is unset
        self.env_given = env
        self.env: dict[str, str] = dict(env)
        # names (of this scope) whose values rest on environment variables, and the
        # variables that decided the `if` the code being walked runs under
        self.env_taint: dict[str, frozenset[str]] = {}
        self.env_branch: frozenset[str] = frozenset()
        self.expr_root = None  # the expression expr() walks
        self._reads_env: bool | None = None  # does the source name os.environ / os.getenv
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
        self.in_for = False  # in the body of a `for` (not of a `while` in it): `break` is a fact
        self.type_checking: frozenset[str] = frozenset()  # aliases of typing.TYPE_CHECKING
        self.helpers: dict[str, str] = {}  # module-level names of lazy_loader and its functions
        self.dispatchers: set[str] = set()  # module-level defs decorated with singledispatch
        self.stub: tuple | None = None  # the imports of the module's .pyi (helpers.stub_imports)
        self.scope = None  # the module or function node being walked (execfile.Assignments)
        # module-level names bound once, to `globals()` (or `locals()` / `vars()` there): an
        # item assignment through one is one into globals() (openai's `__locals[k] = v`)
        self.namespace_aliases: dict[str, str] = {}
        self.parent: _Extractor | None = None  # the module's, for a function's
        self._whole: ast.Module | bool | None = None
        self._import_sources: dict | None = None  # imported_from(), once
        self._lines: list | None = None  # the source's lines, for _text_of
        self._written: tuple | None = None  # attributes_written(), once

    def whole_tree(self) -> ast.Module | None:
        """The module's tree with every body (execfile.string_loader reads a class's
        methods): the one walked, or a parse of the source where bodies were cut."""
        if self.parent is not None:
            return self.parent.whole_tree()
        if self._whole is None:
            self._whole = self.tree if self.bodies and self.tree is not None else False
            if self._whole is False and self.source is not None:
                try:
                    self._whole = ast.parse(self.source)
                except (SyntaxError, ValueError, RecursionError):
                    pass
        return self._whole or None

    def _text_of(self, node) -> bytes | str | None:
        """The source lines of a statement, when the module's text is known."""
        if self.parent is not None:
            return self.parent._text_of(node)
        if self.source is None or getattr(node, "end_lineno", None) is None:
            return None
        if self._lines is None:
            self._lines = self.source.split(b"\n" if self.source.__class__ is bytes else "\n")
        joiner = b"\n" if self.source.__class__ is bytes else "\n"
        return joiner.join(self._lines[node.lineno - 1:node.end_lineno])

    def imported_from(self, name: str) -> frozenset[str]:
        """The modules the file's imports bind `name` from anywhere (`from M import name`,
        `import M as name`; "\0def" for a def of it), when first needed: a call of a bare
        `import_module` is importlib's unless the name comes from elsewhere."""
        if self.parent is not None:
            return self.parent.imported_from(name)
        if self._import_sources is None:
            found: dict = {}
            tree = self.whole_tree()
            for node in ast.walk(tree) if tree is not None else ():
                if node.__class__ is ast.ImportFrom and not node.level:
                    for alias in node.names:
                        found.setdefault(alias.asname or alias.name, set()).add(
                            f"{node.module}")
                elif node.__class__ is ast.Import:
                    for alias in node.names:
                        if alias.asname:
                            found.setdefault(alias.asname, set()).add(f"\0{alias.name}")
                elif node.__class__ is ast.FunctionDef or node.__class__ is ast.AsyncFunctionDef:
                    found.setdefault(node.name, set()).add("\0def")
            self._import_sources = {k: frozenset(v) for k, v in found.items()}
        return self._import_sources.get(name, frozenset())

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

    def reads_env(self) -> bool:
        """Can code here read the environment (by the module's text; when not known, yes)?"""
        if self._reads_env is None:
            text = self.source
            if text is None:
                self._reads_env = True
            else:
                words = (b"environ", b"getenv") if isinstance(text, bytes) else \
                    ("environ", "getenv")
                self._reads_env = any(w in text for w in words)
        return self._reads_env

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
        self.expr_root = node
        out.extend(expr_events(node, self._import_call, self.decide, self._environ_item,
                               self._short_circuit))

    def _short_circuit(self, operand) -> tuple:
        """The If test of an `and` / `or` operand the rest is evaluated under, and the
        environment variables it reads (as for an `if`)."""
        read = self.env_read_by(operand, branch=False)
        env = tuple(sorted((name, self.env.get(name)) for name in read)) if read else ()
        return runtime_test(operand, compile_expr, self.env), env

    def _environ_item(self, node) -> If | None:
        """`os.environ["X"]` of a variable that is unset, where the expression surely
        evaluates it: the KeyError it raises."""
        if environ_item(node, self.env) is not None or \
                node in maybe_evaluated(self.expr_root, self.decide):
            return None
        name = node.slice.value
        return If(node.lineno, "true", (Raise(node.lineno, "KeyError", repr(name)),), (),
                  "environment", env=((name, None),))

    def bind(self, names, line, out, scope, value=None):
        if names:
            out.append(Bind(line, tuple(names), value))
            if self.env_taint:
                for n in names:
                    self.env_taint.pop(n, None)
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
        # a method of a class the module's own code defines is a function too: a call of it
        # at import time (`Cls.method()`, ClassBody.methods) replays its body
        if scope == "module" or scope == "class" and self.parent is None:
            func = self.function(node) if self.bodies else \
                FunctionFacts(node.name, node.lineno, None, _NO_NAMES, _NO_NAMES)
        out.append(Def(node.lineno, node.name, func))
        if scope == "module":
            self.bindings.setdefault(node.name, node.lineno)
            if any(self.helper_of(attr_chain(d)) == SINGLEDISPATCH for d in node.decorator_list):
                self.dispatchers.add(node.name)
            else:
                self.dispatchers.discard(node.name)

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
                if scope == "module" and chain[1] == ("register",) and \
                        chain[0] in self.dispatchers:
                    self._type_hints(node, out)
                out.append(Call(node.lineno, chain[0], chain[1], (1, (), 1)))

    def _type_hints(self, node, out):
        """What `typing.get_type_hints(func)` reads, in the module's namespace: `register` of
        a singledispatch function evaluates the annotations postponed (a future import) or
        written as strings, when it runs."""
        args = node.args
        for ann in (*(a.annotation for a in (*args.posonlyargs, *args.args, args.vararg,
                                             *args.kwonlyargs, args.kwarg) if a is not None),
                    node.returns):
            if ann is None:
                continue
            if ann.__class__ is ast.Constant and ann.value.__class__ is str:
                try:
                    ann = ast.parse(ann.value.strip(), mode="eval").body
                except (SyntaxError, ValueError, RecursionError, MemoryError):
                    continue  # get_type_hints raises its own SyntaxError: not modelled
                for sub in ast.walk(ann):
                    if hasattr(sub, "lineno"):
                        sub.lineno = sub.end_lineno = node.lineno
            elif not self.future:
                continue  # evaluated with the def, an object get_type_hints keeps
            self.expr(ann, out, "module")

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
        sub = _Extractor(self.name, False, self.version, self.future, self.env_given)
        sub._reads_env = self.reads_env()
        sub.package = self.package
        sub.lazy_lines = self.lazy_lines
        sub.type_params = self.type_params
        sub.scope = node
        sub.parent = self
        body = sub.block(node.body, FUNCTION, "function")
        tail = ("lit", None)
        if body and body[-1].__class__ is Exit and not body[-1].exception and (
                body[-1].value is None or node.name != "__getattr__") and \
                not (len(body) == 1 and body[0].value is not None and body[0].value[0] == "lit") \
                and (body[-1].value is None or body[-1].value[0] != "call"):
            # a `return` (or `raise`) that ends the body ends the call anyway: one exception
            # fewer per call of a function called many times at import time (but a lone
            # `return <constant>` is what a condition calling the function reads, and
            # `return f(x)` makes the call)
            tail = body[-1].value
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
        defaults = tuple((n, d.value) if d.__class__ is ast.Constant else (n, EMPTY_DICT)
                         for n, d in with_default if d.__class__ is ast.Constant or
                         d.__class__ is ast.Dict and not d.keys and _only_read(node, n))
        return FunctionFacts(node.name, node.lineno, body, frozenset(local - sub.declared_global),
                             frozenset(sub.declared_global), positional, defaults,
                             compile_function(node), _nested_import(node),
                             args.vararg.arg if args.vararg is not None else None,
                             (tail,) if _returns_followed(node, self._text_of(node)) else None)

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
        stores = _stores(node)
        init = self._own_init(node, stores)
        plain = init is None and _plain_class(node, stores)
        bound = self._bound(node) if self.parent is None else None
        inherits = self._inherits(node, bound)
        meta = next((k.value for k in node.keywords if k.arg == "metaclass"), None)
        out.append(ClassBody(node.lineno, node.name, body, init,
                             tuple(attr_chain(b) for b in node.bases),
                             self._methods(node, stores) if self.parent is None else (),
                             self._hidden(node) if self.parent is None else 0, plain,
                             inherits,
                             None if meta is None else attr_chain(meta) or "?",
                             passed_arguments(ast.Call(node, [], [
                                 k for k in node.keywords if k.arg != "metaclass"])),
                             bound))
        if scope == "module":
            self.bindings.setdefault(node.name, node.lineno)

    def _methods(self, node, stores) -> tuple[tuple[str, str, int], ...]:
        """(name, kind, line) of the class's own functions that `Cls.name` finds: a def bound
        once in the body, plain, `@classmethod` or `@staticmethod`, whose attribute of that
        name no `X.name =` or `setattr` of the module's text may rebind (a class decorator
        that may replace the class: ClassBody.hidden)."""
        count: dict[str, int] = {}
        found = []
        for stmt, walked in zip(node.body, stores):
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
                decs = [d.id for d in stmt.decorator_list if isinstance(d, ast.Name)]
                if len(decs) == len(stmt.decorator_list) <= 1 and \
                        set(decs) <= {"classmethod", "staticmethod"}:
                    found.append((stmt.name, decs[0] if decs else "function", stmt.lineno))
                names = [stmt.name]
            elif isinstance(stmt, ast.Expr):
                continue
            else:
                names = [*walked, stmt.name] if isinstance(stmt, ast.ClassDef) else walked
            for name in names:
                count[name] = count.get(name, 0) + 1
        if not found:
            return ()
        written, receivers = self.attributes_written()
        if node.name in receivers or "cls" in receivers:
            return ()
        return tuple(m for m in found if count[m[0]] == 1 and m[0] not in written
                     and (m[1] != "classmethod" or self._plain_name("classmethod"))
                     and (m[1] != "staticmethod" or self._plain_name("staticmethod")))

    def _bound(self, node) -> tuple | None:
        """ClassBody.bound: (the names the class body binds, not those in its functions, that
        the module's text may not assign as attributes; the attribute names it may assign),
        each sorted; None when the text may rebind any attribute of it (setattr of the class
        or of `cls`)."""
        written, receivers = self.attributes_written()
        if node.name in receivers or "cls" in receivers:
            return None
        bound = set()
        stack = list(node.body)
        while stack:
            stmt = stack.pop()
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                bound.add(stmt.name)
            elif isinstance(stmt, ast.Name):
                if not isinstance(stmt.ctx, ast.Load):
                    bound.add(stmt.id)
            elif not isinstance(stmt, ast.Lambda):
                stack.extend(ast.iter_child_nodes(stmt))
        return tuple(sorted(bound - written)), tuple(sorted(written))

    def _inherits(self, node, bound) -> tuple | None:
        """ClassBody.inherits: the names its body binds and the attribute names the module's
        text may assign, when the class has one base (an attribute chain), no metaclass, and
        the text rebinds no attribute of it (or of `cls`) through setattr; else None."""
        if self.parent is not None or len(node.bases) != 1 or _metaclass(node) or \
                attr_chain(node.bases[0]) is None:
            return None
        # `bound`: _bound's (the simulator's class namespace lacks bindings pruned)
        return None if bound is None else tuple(sorted((*bound[0], *bound[1])))

    def _hidden(self, node) -> int:
        """The line of the class's first decorator that may replace it (not _transparent):
        its functions are taken as the class's under an assumption; else 0."""
        return next((d.lineno for d in node.decorator_list if not self._transparent(d)), 0)

    def _transparent(self, dec) -> bool:
        """A class decorator of the standard library that gives back a class with the same
        functions (helpers.TRANSPARENT_DECORATORS), named as the module's imports bind it."""
        return self.helper_of(attr_chain(dec.func if isinstance(dec, ast.Call) else dec)) \
            in TRANSPARENT_DECORATORS

    def _plain_name(self, builtin: str) -> bool:
        """Is `builtin` the builtin wherever the module reads it (bound by none of it)?"""
        return builtin not in self.bindings and builtin not in self.global_names()

    def attributes_written(self) -> tuple[frozenset[str], frozenset[str]]:
        """(every attribute name the module's text may assign: `x.name =`, `x.name +=`; the
        first arguments of its `setattr` calls that are names, any of them when the text is
        not known), when needed, once."""
        if self._written is None:
            text = self.source
            if isinstance(text, bytes):
                text = text.decode("utf-8", "replace")
            if text is None:
                self._written = (frozenset(), frozenset(("cls", *self.bindings)))
            else:
                # (the word first: a pattern opening with \b is tried at every offset)
                self._written = (frozenset(_ATTRIBUTE_WRITE.findall(text)),
                                 frozenset(_SETATTR.findall(text)) if "setattr" in text
                                 else frozenset())
        return self._written

    def _own_init(self, node, stores) -> FunctionFacts | None:
        """The facts of the class's own `__init__`, when a call of the class runs just it:
        no decorator, metaclass or `__new__`, bases that are attribute chains, one
        undecorated def of `__init__` in the body and no other binding of it."""
        if node.decorator_list or _metaclass(node) or \
                any(attr_chain(b) is None for b in node.bases):
            return None
        found = None
        for stmt, walked in zip(node.body, stores):
            names = [stmt.name] if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                     ast.ClassDef)) else \
                walked if not isinstance(stmt, ast.Expr) else []
            if "__new__" in names or "__init__" in names and (
                    found is not None or not isinstance(stmt, ast.FunctionDef)):
                return None
            if "__init__" in names:
                found = stmt
        if found is None or found.decorator_list or not found.args.args or \
                not self.bodies and len(found.body) == 1 and \
                isinstance(found.body[0], ast.Pass):
            return None  # a body skim cut (its defs kept whole are those of `__init__`)
        return self.function(found)

    def s_TypeAlias(self, node, out, guard, scope):
        self.bind([node.name.id], node.lineno, out, scope)  # value is lazily evaluated


# statement class -> the _Extractor method for it (s_ and the class's name)
_HANDLERS = {getattr(ast, name[2:]): func for klass in reversed(_Extractor.__mro__)
             for name, func in vars(klass).items()
             if name.startswith("s_") and isinstance(getattr(ast, name[2:], None), type)}

_IMPORT_CALLS = frozenset({"__import__", "import_module"})


def _nested_import(node) -> int:
    """The line of the first import in a function defined by a statement of `node`'s body
    (a decorator's wrapper, or a decorator factory's decorator), or 0."""
    for inner in node.body:
        if inner.__class__ is not ast.FunctionDef and inner.__class__ is not \
                ast.AsyncFunctionDef:
            continue
        for sub in ast.walk(inner):
            if sub.__class__ in (ast.Import, ast.ImportFrom) or sub.__class__ is ast.Call and (
                    getattr(sub.func, "id", None) in _IMPORT_CALLS or
                    getattr(sub.func, "attr", None) in _IMPORT_CALLS):
                return sub.lineno
    return 0


_LOOPS = (ast.For, ast.AsyncFor, ast.While)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _returns_followed(node, text=None) -> bool:
    """Is what a call of the function returns the value of the `return` its replay reaches?
    Not for a coroutine or a generator (the call returns an object, the body runs later),
    nor with a `return` in a loop or a `finally` (how often a loop runs is not followed).
    `text`: the def's source; where it names neither `yield` nor `await`, its expressions
    (most of its nodes) are not walked for them."""
    if node.__class__ is not ast.FunctionDef:
        return False
    words = ("yield", "await") if text.__class__ is str else (b"yield", b"await")
    if text is None or words[0] in text or words[1] in text:
        todo = list(node.body)
        while todo:
            sub = todo.pop()
            if sub.__class__ in (ast.Yield, ast.YieldFrom, ast.Await):
                return False
            if sub.__class__ not in _SCOPES:
                todo.extend(ast.iter_child_nodes(sub))
    return _no_looped_return(node.body)

# methods of a dict that neither change it nor let it escape changed
_READ_METHODS = frozenset({"get", "keys", "items", "values", "copy", "__contains__"})


def _only_read(node, name: str) -> bool:
    """Does the function only read its parameter `name` (a `{}` default, shared by every
    call, stays empty): `**name` in calls, `name.get(...)`, `name[k]`, `k in name`?"""
    parents = {}
    for parent in ast.walk(node):
        for child in ast.iter_child_nodes(parent):
            parents[child] = parent
    for sub in ast.walk(node):
        if sub.__class__ is not ast.Name or sub.id != name:
            continue
        up = parents.get(sub)
        if sub.ctx.__class__ is not ast.Load or up is None:
            return False
        if up.__class__ is ast.keyword and up.arg is None or \
                up.__class__ is ast.Subscript and up.value is sub and \
                up.ctx.__class__ is ast.Load or \
                up.__class__ is ast.Compare and sub in up.comparators and \
                all(op.__class__ in (ast.In, ast.NotIn) for op in up.ops):
            continue
        if up.__class__ is ast.Attribute and up.attr in _READ_METHODS and \
                parents.get(up).__class__ is ast.Call and parents[up].func is up:
            continue
        return False
    return True


def _no_looped_return(body) -> bool:
    """No `return` among the statements in a loop or a `finally` (not in defs or classes)."""
    todo = [(stmt, False) for stmt in body]
    while todo:
        sub, looped = todo.pop()
        cls = sub.__class__
        if cls is ast.Return:
            if looped:
                return False
            continue
        if cls in _SCOPES:
            continue
        inner = looped or cls in _LOOPS
        for field in ("body", "orelse", "handlers", "cases"):
            for child in getattr(sub, field, ()):
                todo.append((child, inner))
        if cls is ast.Try or cls is ast.TryStar:
            todo.extend((s, True) for s in sub.finalbody)
    return True


def _metaclass(node: ast.ClassDef) -> bool:
    """Does the class statement name a metaclass, or may it (`**kwargs`)? Its other keywords
    go to `__init_subclass__` only."""
    return any(k.arg is None or k.arg == "metaclass" for k in node.keywords)


def _stores(node: ast.ClassDef) -> list[list[str]]:
    """For each statement of the class body, the names its Name nodes store or delete, at
    any depth (a superset of what it binds in the class namespace), found in one walk; none
    for a def or an expression statement, which no reader walks."""
    return [[] if stmt.__class__ in _UNWALKED else
            [n.id for n in ast.walk(stmt) if n.__class__ is ast.Name and
             n.ctx.__class__ is not ast.Load] for stmt in node.body]


_UNWALKED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Expr)


def _plain_class(node: ast.ClassDef, stores) -> bool:
    """Does a call of the class run just what a call of its bases runs: no decorator or
    metaclass, bases that are attribute chains, and no binding of `__init__` or
    `__new__` in its body?"""
    if node.decorator_list or _metaclass(node) or \
            any(attr_chain(b) is None for b in node.bases):
        return False
    for stmt, walked in zip(node.body, stores):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            if stmt.name in ("__init__", "__new__"):
                return False
        elif not isinstance(stmt, ast.Expr) and ("__init__" in walked or "__new__" in walked):
            return False
    return True


def without_reads(events, names: frozenset[str]) -> list:
    """`events` minus reads of `names`, at any depth (the scope where they are bound)."""
    out = []
    for ev in events:
        cls = ev.__class__
        if cls in (Use, Call) and ev.name in names:
            continue
        if cls is ClassBody:
            ev = replace(ev, body=tuple(without_reads(ev.body, names)))
        elif cls is Def and ev.func is not None and ev.func.body is not None:
            ev = Def(ev.line, ev.name, replace(ev.func, body=tuple(without_reads(ev.func.body,
                                                                                names))))
        elif cls is If:
            ev = replace(ev, body=tuple(without_reads(ev.body, names)),
                         orelse=tuple(without_reads(ev.orelse, names)))
        out.append(ev)
    return out


def _key_prefix(node) -> tuple[str, bool] | None:
    """(what every value of a subscript key starts with, whether that is all of it) for a
    string constant or an f-string that starts with text; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value:
        return (node.value, True) if node.value.isidentifier() else None
    if isinstance(node, ast.JoinedStr) and node.values and \
            isinstance(node.values[0], ast.Constant) and node.values[0].value:
        return str(node.values[0].value), False
    return None


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


# (no \b in front: a pattern opening with one is tried at every offset; _declared checks it)
_DECLARED = re.compile(r"(?:global|nonlocal)[ \t]+((?:[\w, \t]|\\\n)+)")


def declared_global(source: bytes | str) -> frozenset[str]:
    """Names after `global` / `nonlocal` anywhere in the text: a superset of the declared."""
    text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
    if "global" not in text and "nonlocal" not in text:
        return frozenset()
    return frozenset(name for found in _declared(text)
                     for name in re.split(r"[\s,\\]+", found) if name.isidentifier())


def _declared(text: str) -> list[str]:
    """_DECLARED's findall with a word boundary before the keyword."""
    out, pos = [], 0
    while (m := _DECLARED.search(text, pos)) is not None:
        before = text[m.start() - 1] if m.start() else " "
        if before.isalnum() or before == "_":
            pos = m.start() + 1
            continue
        out.append(m.group(1))
        pos = m.end()
    return out


def extract(tree: ast.Module, name: str, path: str, is_package: bool,
            target: TargetVersion = (3, 11), bodies: bool = True,
            lazy_lines: frozenset[int] = frozenset(),
            type_params: dict[int, frozenset[str]] | None = None,
            source: bytes | str | None = None, def_spans: tuple = (),
            stub: tuple | None = None, env: tuple = ()) -> ModuleFacts:
    """Facts of one parsed module (`source`: its text). Without `bodies`, module-level
    functions get stubs (body None) that the simulator loads on the first call at import
    time; `def_spans` (skim) go with them, so that a body is loaded without a scan of the
    whole source (parse.FunctionsOnDemand). `env`: ((name, value), ...) of the environment
    variables given (--env); every other one is unset."""
    future = _future_annotations(tree)
    ex = _Extractor(name, is_package, target, future, env)
    ex.bodies = bodies
    ex.lazy_lines = lazy_lines
    ex.type_params = type_params or {}
    ex.tree = ex.scope = tree
    ex.source = source
    ex.stub = stub
    body = ex.block(tree.body, TOP, "module")
    body = prune_reads(body, rebinding_globals(body))
    return ModuleFacts(name, path, is_package, body, future,
                       tuple(sorted(ex.bindings.items(), key=lambda kv: kv[1])),
                       frozenset(ex.imports), registers_modules=ex.registers,
                       def_spans=def_spans, torch_ops=torch_ops(source, tree, name))


def _future_annotations(tree: ast.Module) -> bool:
    return any(isinstance(s, ast.ImportFrom) and s.module == "__future__" and
               any(a.name == "annotations" for a in s.names) for s in tree.body)


def function_from_source(source: bytes, name: str, path: str, is_package: bool,
                         target: TargetVersion, function: str, line: int,
                         spans: dict | None = None, future: bool | None = None,
                         rebinding: frozenset[str] | None = None, env: tuple = ()
                         ) -> FunctionFacts | None:
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
    span = spans.get(line) if spans is not None and future is not None else None
    node = _def_alone(source, path, span, line, function)
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
    ex = _Extractor(name, is_package, target, future, env)
    ex.bodies, ex.source = False, source
    func = ex.function(node)
    if func.pure is not None and span is not None and _decorated(source, span[0]):
        func = replace(func, pure=None)  # its lines alone lost the decorators (compile_function)
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


def _decorated(source: bytes, start: int) -> bool:
    """Does a decorator come before the def whose line starts at `start`? The logical line
    before it, found backwards over brackets in the masked text, starts with `@` (when the
    text cannot be masked: yes)."""
    text = masked(source)
    if text is None:
        return True
    i = start - 1
    while i >= 0 and text[i] in b" \t\n\f":
        i -= 1
    depth = 0
    while i >= 0:
        c = text[i]
        if c in b")]}":
            depth += 1
        elif c in b"([{":
            depth -= 1
        elif c == 10 and depth <= 0 and not (i > 0 and text[i - 1] == 92):  # \n, not after \\
            break
        i -= 1
    return text[i + 1:].lstrip(b" \t\f").startswith(b"@")


def module_level_defs(tree: ast.Module):
    """The defs the extractor makes functions of: at module scope (under if / try / with /
    loops) and in the bodies of classes there, not in another def."""
    stack: list = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node
        else:
            for field in ("body", "orelse", "finalbody", "handlers", "cases"):
                stack.extend(getattr(node, field, ()) or ())


def facts_from_source(source: bytes | str, name: str, path: str, is_package: bool,
                      target: TargetVersion = (3, 11), bodies: bool = True,
                      nested: bool = True, compiles: bool = False,
                      stub: tuple | None = None, env: tuple = (),
                      on_tree=None) -> ModuleFacts:
    """Parse and extract; a file that cannot be read as Python gives facts with a problem.
    `nested`: also find the imports below the top level (for the results cache).
    `compiles`: the caller knows the source compiles (bytecode.compiled_before), so without
    `bodies` the function bodies need not be parsed at all (skim.py). `stub`: the imports
    of the module's `.pyi` (helpers.stub_imports), for lazy_loader.attach_stub.
    `on_tree(tree, lazy_lines)`: called with the tree the facts were extracted from (function
    bodies may be cut) and the lines of its `lazy` imports, once it is extracted."""
    facts = None
    if compiles and not bodies and isinstance(source, bytes):
        facts = _skimmed_facts(source, name, path, is_package, target, stub, env, on_tree)
    if facts is None:
        facts = _parsed_facts(source, name, path, is_package, target, bodies, stub, env,
                              on_tree)
    if facts.problem is None and _mentions_listing(source):
        facts = replace(facts, lists_dirs=True)
    if not nested or facts.problem is not None:
        return facts
    below = indented_imports(source, name, is_package) - facts.imports
    return replace(facts, nested_imports=below) if below else facts


# what a module's source must mention for its own directory to be listed for it (a superset
# of the listing calls the simulator models: os.listdir / os.scandir / glob / Path.iterdir,
# and configparser's reads of the configuration files the listing holds)
LISTING_WORDS = (b"listdir", b"scandir", b"glob", b"iterdir", b"ConfigParser", b".exists(",
                 b".is_dir(", b".is_file(", b".isdir(", b".isfile(")


def _mentions_listing(source: bytes | str) -> bool:
    data = source.encode("utf-8", "replace") if isinstance(source, str) else source
    return any(word in data for word in LISTING_WORDS)


# possessive: backing off a name never lets an `=` match, and tries cost time at every dot
_ATTRIBUTE_WRITE = re.compile(r"\.[ \t]*+(\w++)[ \t]*+(?:[-+*/%&|^@]|//|<<|>>|\*\*)?=(?!=)")
_SETATTR = re.compile(r"\bsetattr[ \t]*\([ \t]*(\w+)")
_INIT_DEF = re.compile(rb"^[ \t]+def[ \t]+__init__[ \t]*\(", re.M)


def _skimmed_facts(source: bytes, name: str, path: str, is_package: bool,
                   target: TargetVersion, stub: tuple | None = None, env: tuple = (),
                   on_tree=None) -> ModuleFacts | None:
    """Facts with stub functions from the source with its function bodies cut (skim.py), or
    None when nothing was cut or a cut does not show as made: the caller parses it all."""
    # the bodies of `__init__` methods stay: a call of the class at import time runs them
    inits, line, at = set(), 1, 0
    for m in _INIT_DEF.finditer(source):  # (counted on from the last match, not from 0)
        line += source.count(b"\n", at, m.start())
        at = m.start()
        inits.add(line)
    inits = frozenset(inits)
    skimmed = _skeleton(source, path, inits)
    if skimmed is None:
        return None
    facts = extract(skimmed[0], name, path, is_package, target, False, source=source,
                    def_spans=skimmed[1], stub=stub, env=env)
    if on_tree is not None:
        on_tree(skimmed[0], frozenset())
    return facts


def _skeleton(source: bytes, path: str, keep: frozenset[int] = frozenset()
              ) -> tuple[ast.Module, tuple] | None:
    """(the tree of the source with its function bodies cut but those of the defs on the
    lines in `keep` (skim.py), the spans of the cut defs at the start of a line), or None
    when nothing was cut or a cut does not show as made."""
    skimmed = skim(source, keep)
    if skimmed is None:
        return None
    try:
        with import_budget():
            tree = ast.parse(skimmed[0], filename=path)
    except (SyntaxError, ValueError, RecursionError):
        return None
    if skimmed[2] and not _future_annotations(tree):
        return None  # annotations went on the word of a future import the parse does not see
    return (tree, skimmed[3]) if cuts_hold(tree, skimmed[1]) else None


def _parsed_facts(source: bytes | str, name: str, path: str, is_package: bool,
                  target: TargetVersion, bodies: bool, stub: tuple | None = None,
                  env: tuple = (), on_tree=None) -> ModuleFacts:
    lazy_lines: frozenset[int] = frozenset()
    type_params: dict[int, frozenset[str]] = {}
    text = source  # what was parsed
    try:
        with import_budget():
            early = lower_lazy(source) if may_have_lazy(source) else None
            if early is not None:
                text, lazy_lines, tree = early
            else:
                tree = ast.parse(source, filename=path)
    except SyntaxError as exc:
        with import_budget():
            lowered = lower(source)  # syntax of a newer Python? (PEP 695, PEP 810, ...)
        try:
            if lowered is None:
                raise exc
            text, lazy_lines, type_params, tree = lowered
            with import_budget():
                tree = tree or ast.parse(text, filename=path)
        except SyntaxError:
            problem = FileProblem("IS001", exc.lineno or 1, f"cannot parse: {exc.msg}")
            return ModuleFacts(name, path, is_package, (), problem=problem)
    except (ValueError, UnicodeDecodeError) as exc:
        problem = FileProblem("IS002", 1, f"cannot decode: {exc}")
        return ModuleFacts(name, path, is_package, (), problem=problem)
    except RecursionError:
        problem = FileProblem("IS001", 1, "cannot parse: nesting too deep for the parser")
        return ModuleFacts(name, path, is_package, (), problem=problem)
    facts = extract(tree, name, path, is_package, target, bodies, lazy_lines, type_params,
                    source=text, stub=stub, env=env)
    if on_tree is not None:
        on_tree(tree, lazy_lines)
    return facts


# searched in "\n" + the text: a literal first character is found fast, `^` under re.M is not
_INDENTED_IMPORT = re.compile(
    r"\n[ \t]++(?:from[ \t]+(\.*[\w.]*)[ \t]+import\b|import[ \t]+([\w. \t,]+))")


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
    for source_module, names in _INDENTED_IMPORT.findall("\n" + text):
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
