"""Import-time effects: the actions of every module's scan, resolved across modules (pure).

A module's import has an *effect* when it changes state outside its own namespace while it
runs: an entry in another module's container, an attribute of another module or class, a
process-wide table (sys.path, atexit handlers, warning filters, ...), output; or when it
defines a subclass of another module's class (visible through `__subclasses__()`). Calls run
at import time are followed into the analysed code (decorators, `__init_subclass__`,
metaclasses, constructors, methods of module-level instances), up to MAX_DEPTH calls deep;
functions outside it come from the effect table (table.py). A change to the module's own
objects (its classes, its instances, a cache dict of its own) is no effect. Reads that scan
another module's state while the module runs (`len(REGISTRY)`, `__subclasses__()`) are kept
as OrderReads: their answer depends on which modules ran before.
"""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass

from .classes import Classes
from .interp import LIT, OWN, UNK, Walker, attr_of
from .scan import ModuleScan
from .table import EffectTable

MAX_DEPTH = 4
NAMESPACE = "namespace"  # not an effect: code reading its caller's namespace (verdict IS115)
# a frame's namespace, as it is (PEP 810 lazy objects unresolved), read by code that names
# no frame attribute itself
FRAME_FUNCTIONS = frozenset({"inspect.getargvalues"})
FRAME_NAMESPACES = frozenset({"f_locals", "f_globals"})
MAX_CONSTRUCTOR_DEPTH = 2  # constructors deeper than this make fresh objects only
MAX_ALIASES = 8


@dataclass(frozen=True, slots=True)
class Effect:
    module: str  # whose import makes it
    path: str
    line: int  # the statement of `module` that makes it
    kind: str  # registry | patch | subclass | import-system | process | output
    state: tuple[str, ...]  # (owner module or "process", name, ...)
    what: str
    keyed_by_own: bool = False  # filed under an object of `module` itself
    site: tuple[str, int] | None = None  # the write itself, when another file holds it


@dataclass(frozen=True, slots=True)
class OrderRead:
    module: str
    path: str
    line: int
    state: tuple[str, ...]
    what: str
    access: str = "scan"  # "scan" (the whole), "subclasses", or "keyed" (one entry)


class _Ctx:
    __slots__ = ("caller", "depth", "raw", "reads", "conditional")

    def __init__(self, caller: str, depth: int = 0, conditional: bool = False):
        self.caller, self.depth, self.conditional = caller, depth, conditional
        self.raw: list = []  # (kind, state, what, keyed_by_own, site)
        self.reads: list = []  # (state, what, access)


class _Body:
    """A function body being run (Engine._run): the modules tested against the caller,
    and whether a call in it was left unfollowed."""
    __slots__ = ("compared", "cut")

    def __init__(self):
        self.compared: set = set()
        self.cut = False


@dataclass(frozen=True, slots=True)
class _Done:
    effects: tuple  # (result, raw, reads)
    compared: frozenset
    cut_at: int | None  # the depth it ran at, when it left a call unfollowed


class _FunctionWalker(Walker):
    def define(self, node):
        return self.hooks.engine.closure(self.module, node, self.env, self.klass)

    def lookup(self, name):
        if (name not in self.env or name in self.declared) and \
                self.hooks.engine.is_caller(self.hooks.ctx, self.module):
            self.hooks.engine.note_read(name)
        return super().lookup(name)


class _Hooks:
    """The walker's hooks while a function body runs at import time."""

    def __init__(self, engine: "Engine", ctx: _Ctx, module: str, self_value: tuple):
        self.engine, self.ctx, self.module, self.self_value = engine, ctx, module, self_value
        self.walker: Walker | None = None

    def on_write(self, line, target, op, key):
        self.engine.write(self.ctx, self.module, line, target, op, key)

    def on_call(self, line, callee, args, kwargs, how):
        return self.engine.call(self.ctx, self.module, line, callee, tuple(args),
                                tuple(kwargs.items()), self_value=self.self_value,
                                cond=self.walker.cond > 0)

    def on_class(self, line, name, bases, keywords, value):
        self.engine.class_statement(self.ctx, self.module, line, name, bases,
                                    tuple(keywords.items()), value)

    def on_read(self, line, value, access):
        self.engine.read(self.ctx, value, access)


def _dotted(value: tuple) -> str:
    return ".".join(p for p in (value[1], value[2], *value[3]) if p)


class Engine(Classes):
    """Resolves scans into effects. `read_source(module) -> bytes` is the only IO, passed in."""

    def __init__(self, scans: dict[str, ModuleScan], read_source, table: EffectTable,
                 is_module):
        self.scans, self.read_source, self.table, self.is_module = (
            scans, read_source, table, is_module)
        self._trees: dict[str, dict] = {}
        self._split: dict[str, list[bytes]] = {}  # module -> its source's lines
        self._results: dict[str, dict] = {}
        self._cache: dict = {}  # _run's key -> _Done
        self._shared: dict = {}  # the same without the caller: see _run
        self._active: set = set()
        self._running: list[_Body] = []  # the bodies being run, outermost first
        self._closures: dict = {}
        self.assumed: dict[str, set] = {}  # module -> external functions it calls, unlisted
        # module -> its own global names that functions it calls at import time read,
        # unconditionally, each with the line of the first such call
        self.called_reads: dict[str, dict[str, int]] = {}
        self._now: tuple | None = None  # (module, line) of the top-level call being run
        # module -> line of its own code -> ((file, line) of the frame access, what, index of
        # the action, the names looked up or None for any): while that action runs, code
        # reads the module's namespace through its frame
        self.namespace_reads: dict[str, dict[int, tuple]] = {}
        self._frames: dict[int, tuple | None] = {}  # id(function node) -> _frame_reads
        self._frame_words: dict[str, bool] = {}  # module -> _mentions_frames

    # -- the entry point --------------------------------------------------------------------
    def module_effects(self, name: str) -> tuple[list[Effect], list[OrderRead]]:
        scan = self.scans[name]
        results = self._results.setdefault(name, {})
        effects: list[Effect] = []
        reads: list[OrderRead] = []
        for index, action in enumerate(scan.actions):
            ctx = _Ctx(name)
            tag, line = action[0], action[1]
            try:
                if tag == "write":
                    self.write(ctx, name, line, *action[2:])
                elif tag == "call":
                    self._now = None if action[6] else (name, line)
                    results[index] = self.call(ctx, name, line, *action[2:5])
                    self._now = None
                elif tag == "class":
                    self.class_statement(ctx, name, line, *action[2:])
                else:
                    self.read(ctx, action[2], action[3])
            except RecursionError:
                continue
            for kind, state, what, keyed, site in dict.fromkeys(ctx.raw):
                if kind == NAMESPACE:
                    at = self.namespace_reads.setdefault(name, {})
                    keys = state[1]
                    if line in at:
                        old = at[line]
                        keys = None if old[3] is None or keys is None else \
                            tuple(sorted({*old[3], *keys}))
                        at[line] = (*old[:3], keys)
                    else:
                        at[line] = (site or (scan.path, line), what, index, keys)
                    continue
                effects.append(Effect(name, scan.path, line, kind, state, what, keyed, site))
            for state, what, access in dict.fromkeys(ctx.reads):
                reads.append(OrderRead(name, scan.path, line, state, what, access))
        return effects, reads

    def is_caller(self, ctx: _Ctx, module: str) -> bool:
        """`module == ctx.caller`, noted for every body running: what a body does depends on
        its caller only through such tests (see _run)."""
        for body in self._running:
            body.compared.add(module)
        return module == ctx.caller

    def _cut(self) -> None:
        """A call not followed (too deep, or a body already running): what every running
        body does depends on how deep it runs."""
        for body in self._running:
            body.cut = True

    def note_read(self, name: str) -> None:
        if self._now is not None:
            self.called_reads.setdefault(self._now[0], {}).setdefault(name, self._now[1])

    # -- values -----------------------------------------------------------------------------
    def canonical(self, value: tuple) -> tuple:
        """Follow re-exports and star imports to the module that holds a value."""
        for _ in range(MAX_ALIASES):
            tag = value[0]
            if tag == "call":
                base = self._results.get(value[1], {}).get(value[2])
                if base is None:
                    action = self.scans[value[1]].actions[value[2]]
                    base = ("res", self.canonical(action[2]), ())
                for name in value[3]:
                    base = attr_of(base, name, self.is_module)
                value = base
                continue
            if tag == "gstar":
                value = self._from_star(value[1], value[2])
                continue
            if tag != "g" or value[1] not in self.scans:
                return value
            scan = self.scans[value[1]]
            bound = scan.env.get(value[2])
            if bound is None:
                if scan.stars:
                    found = self._from_star(value[1], value[2])
                    if found[1] != "builtins":
                        value = found[:3] + (found[3] + value[3],)
                        continue
                return value
            if bound[0] == "g" and bound[1] == value[1]:
                if bound[2] == value[2]:
                    return value
                value = bound[:3] + (bound[3] + value[3],)
            elif bound[0] in ("g", "mod", "call", "gstar"):
                for name in value[3]:
                    bound = attr_of(bound, name, self.is_module)
                value = bound
            else:
                return value
        return value

    def _from_star(self, module: str, name: str) -> tuple:
        for source in self.scans[module].stars if module in self.scans else ():
            scan = self.scans.get(source)
            if scan is not None and (name in scan.env or scan.stars):
                if name in scan.env:
                    return ("g", source, name, ())
                found = self._from_star(source, name) if source != module else None
                if found is not None and found[1] != "builtins":
                    return found
        return ("g", "builtins", name, ())

    def kind(self, value: tuple):
        if value[0] != "g" or value[1] not in self.scans:
            return None
        return self.scans[value[1]].kinds.get(value[2])

    def is_own(self, value: tuple | None, ctx: _Ctx) -> bool:
        """An object of the importing module itself (a class, function or instance it made)."""
        if value is None:
            return False
        value = self.canonical(value)
        if value == OWN or value[0] == "new":
            return True
        kind = self.kind(value)
        return value[0] == "g" and not value[3] and kind is not None \
            and kind[0] in ("def", "class", "inst") and self.is_caller(ctx, value[1])

    # -- writes and reads -------------------------------------------------------------------
    def write(self, ctx: _Ctx, code_module: str, line: int, target, op, key) -> None:
        target = self.canonical(target)
        tag = target[0]
        if op == "augment" and tag == "g" and not target[3] and \
                (self.kind(target) or ("",))[0] == "const":
            return  # `x += ...` of a tuple or string binds a new one: the original is intact
        name = key[1] if key is not None and key[0] == "lit-key" else "?"
        if tag == "g":
            owner, path = target[1], (target[2], *target[3])
            if "[]" in path:
                path = path[:path.index("[]")]
        elif tag == "mod":
            owner, path = target[1], ()
        else:
            return
        if owner == "builtins" and path or self.is_caller(ctx, owner):
            return
        attribute = op in ("setattr", "delattr")
        if attribute:
            path = (*path, name)
        dotted = ".".join((owner, *path))
        state_kind = self.table.state_kind(dotted)
        if state_kind is None and owner == "builtins":
            state_kind = "import-system"
        kind = state_kind or ("patch" if attribute or op == "assign" else "registry")
        what = {"setattr": f"sets {dotted}", "delattr": f"deletes {dotted}",
                "assign": f"rebinds {dotted}"}.get(op) or f"adds to {dotted}" \
            if op in ("setitem", "augment") or op.startswith("call:") and op[5:] in (
                "append", "add", "insert", "update", "setdefault", "register", "extend",
                "appendleft", "__setitem__") else f"changes {dotted}"
        site = (self.scans[code_module].path, line) if code_module in self.scans \
            and not self.is_caller(ctx, code_module) else None
        keyed = op in ("setitem", "delitem") or op.startswith("call:")
        ctx.raw.append((kind, (owner, *path), what,
                        keyed and key is not None and self.is_own(key, ctx), site))

    def read(self, ctx: _Ctx, value, access: str) -> None:
        value = self.canonical(value)
        if value[0] != "g" or value[1] not in self.scans or self.is_caller(ctx, value[1]):
            return
        path = (value[2], *value[3])
        if "[]" in path:
            path = path[:path.index("[]")]
        dotted = ".".join((value[1], *path))
        if access == "subclasses":
            path = (*path[:-1], "__subclasses__") if path[-1:] == ("__subclasses__",) \
                else (*path, "__subclasses__")
            ctx.reads.append(((value[1], *path), f"calls {'.'.join((value[1], *path))}()",
                              access))
        elif access == "keyed":
            ctx.reads.append(((value[1], *path), f"looks up {dotted}", access))
        else:
            ctx.reads.append(((value[1], *path), f"reads all of {dotted}", access))

    def effect(self, ctx: _Ctx, kind: str, state: tuple, what: str, keyed: bool = False,
               code_module: str | None = None, line: int = 0) -> None:
        site = (self.scans[code_module].path, line) if code_module and \
            code_module in self.scans and not self.is_caller(ctx, code_module) else None
        ctx.raw.append((kind, state, what, keyed, site))

    # -- calls ----------------------------------------------------------------------------
    def call(self, ctx: _Ctx, code_module: str, line: int, callee, args: tuple, kwargs: tuple,
             how: str = "call", self_value: tuple = UNK, cond: bool = False) -> tuple:
        if ctx.depth > MAX_DEPTH:
            self._cut()
            return UNK
        if cond and not ctx.conditional:
            branch = _Ctx(ctx.caller, ctx.depth, True)
            result = self.call(branch, code_module, line, callee, args, kwargs, how, self_value)
            ctx.raw.extend(branch.raw)
            ctx.reads.extend(branch.reads)
            return result
        callee = self.canonical(callee)
        tag = callee[0]
        if tag == "g":
            if callee[1] in self.scans:
                return self._call_analysed(ctx, code_module, line, callee, args, kwargs)
            return self._call_external(ctx, code_module, line, callee, args, kwargs)
        if tag == "fn":
            module, node, env, klass = self._closures[callee[1]]
            return self._run(ctx, module, node, klass, args, kwargs, env)
        if tag == "super" and len(callee[2]) == 1:
            found = self.method(self.canonical(callee[1]), callee[2][0], skip_self=True)
            if found is not None:
                return self._run(ctx, *found, (self_value, *args), kwargs)
        if tag == "res" and callee[1][0] == "g" and callee[1][1] not in self.scans:
            entry = self.table.function(f"{_dotted(callee[1])}().{'.'.join(callee[2])}")
            if entry is not None:
                self._apply_entry(ctx, code_module, line, entry, args)
        return ("res", callee, ())

    def _call_analysed(self, ctx, code_module, line, callee, args, kwargs) -> tuple:
        base = ("g", callee[1], callee[2], ())
        kind = self.kind(base)
        attrs = callee[3]
        if kind is None:
            pass
        elif not attrs and kind[0] == "def":
            node = self.function_node(callee[1], kind[1])
            return self._run(ctx, callee[1], node, None, args, kwargs) if node else UNK
        elif not attrs and kind[0] == "class":
            if ctx.depth >= MAX_CONSTRUCTOR_DEPTH:
                self._cut()
                return ("new", base)
            return self.instantiate(ctx, base, args, kwargs)
        elif len(attrs) == 1 and kind[0] in ("class", "inst"):
            klass = base if kind[0] == "class" else self.canonical(kind[1])
            found = self.method(klass, attrs[0])
            if found is not None:
                module, node, owner = found
                if kind[0] == "inst" and not _decorated(node, "staticmethod"):
                    args = (base, *args)
                elif _decorated(node, "classmethod"):
                    args = (klass, *args)
                return self._run(ctx, module, node, owner, args, kwargs)
        elif not attrs and kind[0] == "inst":
            found = self.method(self.canonical(kind[1]), "__call__")
            if found is not None:
                return self._run(ctx, found[0], found[1], found[2], (base, *args), kwargs)
        if attrs and attrs[-1] in self.table.mutators:
            self._mutate(ctx, code_module, line, callee, args)
        return ("res", callee, ())

    def _call_external(self, ctx, code_module, line, callee, args, kwargs) -> tuple:
        dotted = _dotted(callee)
        if dotted in FRAME_FUNCTIONS:
            self._frame_read(ctx, code_module, line, f"`{dotted}()`")
        entry = self.table.function(dotted)
        if entry is not None:
            self._apply_entry(ctx, code_module, line, entry, args)
        elif callee[3] and callee[3][-1] in self.table.mutators:
            self._mutate(ctx, code_module, line, callee, args)
        elif callee[1] != "builtins" and self.is_caller(ctx, code_module):
            self.assumed.setdefault(ctx.caller, set()).add(dotted)
        return ("res", callee, ())

    def _mutate(self, ctx, code_module, line, callee, args) -> None:
        method = callee[3][-1]
        keyed = self.table.mutators.get(method)
        key = args[keyed] if keyed is not None and keyed < len(args) else None
        self.write(ctx, code_module, line, callee[:3] + (callee[3][:-1],), "call:" + method, key)

    def _apply_entry(self, ctx, code_module, line, entry, args) -> None:
        for index in entry.mutates:
            if index < len(args):
                key = args[index + 1] if index + 1 < len(args) else None
                self.write(ctx, code_module, line, args[index], "setattr",
                           key if key is not None and key[0] == "lit-key" else None)
        if entry.kind == "none" or entry.kind == "output" and ctx.conditional:
            return
        keyed = entry.keyed is not None and entry.keyed < len(args) and \
            self.is_own(args[entry.keyed], ctx)
        what = {"output": f"writes to {entry.state}"}.get(entry.kind, f"changes {entry.state}")
        self.effect(ctx, entry.kind, ("process", entry.state), what, keyed, code_module, line)

    def instantiate(self, ctx, klass: tuple, args, kwargs) -> tuple:
        made = ("new", klass)
        for name, first in (("__new__", klass), ("__init__", made)):
            found = self.method(klass, name)
            if found is not None:
                self._run(ctx, found[0], found[1], found[2], (first, *args), kwargs)
        return made

    def _run(self, ctx, module, node, klass, args, kwargs, env=None) -> tuple:
        """Run a function body with these arguments; its effects go to ctx. A body run for
        one caller stands for another one too when none of its tests of the caller
        (is_caller) named either: every such test comes out the same (False) for both. A
        run that left a call unfollowed (_cut) stands only for runs as deep or deeper."""
        shared_key = (module, id(node), klass, args, kwargs, id(env), ctx.conditional)
        key = (ctx.caller, shared_key)
        found = self._cache.get(key)
        if found is None or found.cut_at is not None and ctx.depth < found.cut_at:
            found = self._shared.get(shared_key)
            if found is not None and (ctx.caller in found.compared or found.cut_at is not None
                                      and ctx.depth < found.cut_at):
                found = None
        if found is None:
            if key in self._active:
                self._cut()
                return UNK
            self._active.add(key)
            inner = _Ctx(ctx.caller, ctx.depth + 1, ctx.conditional)
            body = _Body()
            self._running.append(body)
            try:
                done = self._interpret(inner, module, node, klass, args, kwargs, env)
            finally:
                self._active.discard(key)
                self._running.pop()
            found = self._cache[key] = _Done(done, frozenset(body.compared),
                                             ctx.depth if body.cut else None)
            if ctx.caller not in body.compared:
                old = self._shared.get(shared_key)
                if old is None or old.cut_at is not None and (found.cut_at is None
                                                              or found.cut_at < old.cut_at):
                    self._shared[shared_key] = found  # the one that serves more depths
        for outer in self._running:  # what decided this body decides the bodies calling it
            outer.compared.update(found.compared)
            outer.cut = outer.cut or found.cut_at is not None
        result, raw, reads = found.effects
        ctx.raw.extend(raw)
        ctx.reads.extend(reads)
        return result

    def _frame_read(self, ctx, code_module: str, line: int, how: str, keys=None) -> None:
        where = self.scans[code_module].path if code_module in self.scans else code_module
        looked = f", looking up {', '.join(keys)}" if keys else ""
        self.effect(ctx, NAMESPACE, (NAMESPACE, keys), f"{how} at {os.path.basename(where)}:"
                    f"{line} reads its caller's namespace{looked}", code_module, line)

    def _mentions_frames(self, module: str) -> bool:
        """Does the module's source name f_locals or f_globals at all (most do not: their
        functions need no walk)?"""
        found = self._frame_words.get(module)
        if found is None:
            try:
                source = self.read_source(module)
            except KeyError:
                source = b"f_locals"  # not read: walk its functions
            found = self._frame_words[module] = b"f_locals" in source or b"f_globals" in source
        return found

    def _frame_reads(self, node) -> tuple | None:
        """(first line, keys) where the function's own body (not a nested def) reads a
        frame's f_locals / f_globals; keys: what it looks up there, each ("lit", "name") or
        ("name-of", parameter) (`f_locals.get(func.__name__)`), or None for anything."""
        key = id(node)
        if key not in self._frames:
            self._frames[key] = _frame_namespace_reads(node)
        return self._frames[key]

    def _interpret(self, ctx, module, node, klass, args, kwargs, env):
        scan = self.scans[module]
        local = dict(env or {})
        local.update(_bind(node.args, args, dict(kwargs)))
        frames = self._frame_reads(node) if self._mentions_frames(module) else None
        if frames is not None:
            self._frame_read(ctx, module, frames[0], "`f_locals` / `f_globals`",
                             _looked_up(frames[1], local))
        hooks = _Hooks(self, ctx, module, args[0] if args else UNK)
        walker = hooks.walker = _FunctionWalker(module, scan.package, "function", local,
                                                scan.env, hooks, self.is_module, klass=klass)
        walker.stars = list(scan.stars)
        walker.run(node.body)
        returns = set(walker.returns)
        result = returns.pop() if len(returns) == 1 else (LIT if not returns else UNK)
        # duplicates only repeat (module_effects keeps the first of each): a body called in
        # a loop or from many callers would otherwise pass them on, multiplied, to each
        return result, tuple(dict.fromkeys(ctx.raw)), tuple(dict.fromkeys(ctx.reads))

    def closure(self, module: str, node, env: dict, klass) -> tuple:
        key = (id(node), id(env))
        self._closures[key] = (module, node, env, klass)
        return ("fn", key)

def _decorated(node, name: str) -> bool:
    return any(isinstance(d, ast.Name) and d.id == name for d in node.decorator_list)


def _bind(a: ast.arguments, args: tuple, kwargs: dict) -> dict:
    names = [p.arg for p in (*a.posonlyargs, *a.args)]
    env = {}
    for i, name in enumerate(names):
        env[name] = args[i] if i < len(args) else kwargs.get(name, UNK)
    if a.vararg is not None:
        env[a.vararg.arg] = OWN
    for p in a.kwonlyargs:
        env[p.arg] = kwargs.get(p.arg, UNK)
    if a.kwarg is not None:
        env[a.kwarg.arg] = OWN
    return env


_KEYED = ("get", "__getitem__", "__contains__", "setdefault", "pop")


def _frame_namespace_reads(node) -> tuple | None:
    """See Engine._frame_reads."""
    parents: dict[int, ast.AST] = {}
    found: list[ast.Attribute] = []
    assigned: dict[str, list] = {}  # local name -> the values bound to it (None: not known)
    loads: dict[str, list] = {}  # local name -> where it is read
    todo = list(node.body)
    while todo:
        sub = todo.pop()
        if isinstance(sub, ast.Attribute) and sub.attr in FRAME_NAMESPACES:
            found.append(sub)
        elif isinstance(sub, ast.Name):
            if isinstance(sub.ctx, ast.Load):
                loads.setdefault(sub.id, []).append(sub)
            else:  # bound: by `name = value` alone is its value known
                parent = parents.get(id(sub))
                value = parent.value if isinstance(parent, ast.Assign) and \
                    sub in parent.targets else None
                assigned.setdefault(sub.id, []).append(value)
        if not isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            for child in ast.iter_child_nodes(sub):
                parents[id(child)] = sub
                todo.append(child)
    if not found:
        return None
    keys: set | None = set()
    for attr in found:
        more = _keys_of(attr, parents, assigned, loads)
        keys = None if more is None or keys is None else keys | more
    return min(a.lineno for a in found), None if keys is None else tuple(sorted(keys))


def _keys_of(ns, parents: dict, assigned: dict, loads: dict, depth: int = 0) -> set | None:
    """The keys `ns.get(KEY)` / `ns[KEY]` look up in the frame namespace `ns` (directly, or
    through a local name it is bound to once), when it is used only so and each KEY is a
    string or `param.__name__`; else None."""
    parent = parents.get(id(ns))
    if isinstance(parent, ast.Subscript) and parent.value is ns and \
            isinstance(parent.ctx, ast.Load):
        key = _key_expr(parent.slice, assigned)
        return None if key is None else {key}
    if isinstance(parent, ast.Attribute) and parent.attr in _KEYED:
        call = parents.get(id(parent))
        if isinstance(call, ast.Call) and call.func is parent and call.args:
            key = _key_expr(call.args[0], assigned)
            return None if key is None else {key}
        return None
    if isinstance(parent, ast.Assign) and parent.value is ns and depth < 2 and \
            len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name) and \
            len(assigned.get(parent.targets[0].id, ())) == 1:
        out: set = set()
        for use in loads.get(parent.targets[0].id, ()):  # `caller = frame.f_locals`
            more = _keys_of(use, parents, assigned, loads, depth + 1)
            if more is None:
                return None
            out |= more
        return out
    return None


def _key_expr(node, assigned: dict) -> tuple | None:
    if isinstance(node, ast.Name) and len(assigned.get(node.id, ())) == 1 and \
            assigned[node.id][0] is not None:
        node = assigned[node.id][0]  # `name = func.__name__`, bound once
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return ("lit", node.value)
    if isinstance(node, ast.Attribute) and node.attr == "__name__" and \
            isinstance(node.value, ast.Name):
        return ("name-of", node.value.id)
    return None


def _looked_up(keys, local: dict) -> tuple | None:
    """The names the frame reads look up, with the call's arguments; None: any."""
    if keys is None:
        return None
    out = set()
    for kind, what in keys:
        if kind == "lit":
            out.add(what)
            continue
        value = local.get(what)
        if value is None or value[0] != "g" or value[3]:
            return None  # not a module-level def or class of known name
        out.add(value[2])
    return tuple(sorted(out))
