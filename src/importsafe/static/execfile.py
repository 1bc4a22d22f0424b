"""A file run by a loader's `exec_module()`, the importlib recipe ("Importing a source file
directly"):

    spec = importlib.util.spec_from_file_location(name, location)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module          # optional
    spec.loader.exec_module(module)

Facts: the recipe found in one scope (a function body or the module), with the location as a
path spec (`path_spec`) built from `__file__`, parameters, literals, `os.path` and `pathlib`.
Simulator (`ExecFiles`, mixed in like ComputedImports): the analysed file at that location
runs now in a fresh module object named `name`, in no `sys.modules` unless the code put it
there; exec_module() does not bind it on its parent nor take it out of `sys.modules` when it
fails, and it sets no `__spec__._initializing` (no "partially initialized" in messages).

A generated module (`ExecSource`): `spec_from_loader(name, loader)` with `loader = Cls(source)`,
where `Cls`, a class of the same module, only keeps the string and execs it compiled into the
module's namespace. The string is evaluated by purefn when the call runs; its text is parsed
like a file and runs as a module of its own.
"""
from __future__ import annotations

import ast
import os

from .discover import ModuleInfo
from .events import ComputedImport, ExecFile, ExecSource
from .exprs import attr_chain, path_spec, spell
from .frames import SimError, SimUnknown
from .purefn import NoValue, compile_expr, evaluate
from .state import ModState

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_NOT_REPLAYED = "a module run by a loader's exec_module() is not replayed"


# -- facts ------------------------------------------------------------------------------
class Assignments:
    """`name = value` statements (and `(name := value)`) of one scope (nested scopes left
    out), by name: a name used on a line stands for its value when the last statement that
    binds it before that line is such an assignment in a block that encloses the line, with
    no binding later in a loop around the line (or when exactly one statement binds it
    before that line)."""

    def __init__(self, scope):
        # name -> (line, value or None when bound some other way, block path)
        self.found: dict[str, list[tuple[int, ast.expr | None, tuple]]] = {}
        self.statements: list[tuple[int, int, tuple]] = []  # (first, last line, block path)
        self.loops: list[tuple[int, int]] = []
        if scope is not None:
            self._block(scope.body, ())

    def _block(self, stmts, path: tuple) -> None:
        path = (*path, id(stmts))
        for stmt in stmts:
            if isinstance(stmt, _NESTED):
                continue
            self.statements.append((stmt.lineno, stmt.end_lineno or stmt.lineno, path))
            if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)):
                self.loops.append((stmt.lineno, stmt.end_lineno or stmt.lineno))
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and \
                    isinstance(stmt.targets[0], ast.Name):
                self._add(stmt.targets[0].id, stmt.lineno, stmt.value, path)
                self._nodes(stmt.value, path)
                continue
            for value in ast.iter_fields(stmt):
                self._field(value[1], path)

    def _field(self, value, path) -> None:
        items = value if isinstance(value, list) else [value]
        if items and isinstance(items[0], ast.stmt):
            self._block(value, path)
            return
        for item in items:
            if isinstance(item, (ast.excepthandler, ast.match_case)):
                for field in ast.iter_fields(item):
                    self._field(field[1], path)
            elif isinstance(item, ast.AST):
                self._nodes(item, path)

    def _nodes(self, root, path) -> None:
        stack = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, _NESTED):
                continue
            if isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
                self._add(node.target.id, node.lineno, node.value, path)
                stack.append(node.value)
                continue
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                self._add(node.id, node.lineno, None, path)  # bound some other way
            stack.extend(ast.iter_child_nodes(node))

    def _add(self, name: str, line: int, value, path: tuple) -> None:
        self.found.setdefault(name, []).append((line, value, path))

    def _path_at(self, line: int) -> tuple | None:
        best = None
        for first, last, path in self.statements:
            if first <= line <= last and (best is None or len(path) > len(best)):
                best = path
        return best

    def value_at(self, node, line: int):
        """(line, expression) of the assignment whose value the name `node` holds on `line`,
        else None."""
        if not isinstance(node, ast.Name):
            return None
        bindings = self.found.get(node.id, ())
        before = [b for b in bindings if b[0] < line]
        if len(before) == 1:
            return before[0][:2] if before[0][1] is not None else None
        if not before:
            return None
        last = max(before, key=lambda b: b[0])
        if last[1] is None or sum(b[0] == last[0] for b in before) > 1:
            return None
        path = self._path_at(line)
        if path is None or path[:len(last[2])] != last[2]:
            return None  # in a branch the line's block does not pass through
        if any(b[0] >= line and first <= line <= end and first <= b[0] <= end
               for b in bindings for first, end in self.loops):
            return None  # a later binding in a loop around the line may come round
        return last[:2]

    def value(self, node, line: int):
        """The expression the name `node` holds on `line`, else None."""
        found = self.value_at(node, line)
        return found[1] if found is not None else None

    def binds(self, name: str) -> bool:
        return name in self.found


def exec_file_event(call: ast.Call, scope, whole_tree=None
                    ) -> ExecFile | ExecSource | ComputedImport:
    """The recipe that ends in this `X.exec_module(m)` call, found in `scope`; else the
    computed import that says it is not replayed. `whole_tree()`: the module's full tree."""
    line, col = call.lineno, call.col_offset
    unknown = ComputedImport(line, "exec_module", None, why=_NOT_REPLAYED, col=col)
    if len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Name) or \
            scope is None:
        return unknown
    names = Assignments(scope)
    made = names.value(call.args[0], line)
    if not _is_call(made, "module_from_spec") or len(made.args) != 1:
        return unknown
    spec_name = made.args[0]
    spec = names.value(spec_name, line)
    tree = whole_tree() if whole_tree is not None and _is_call(spec, "spec_from_loader") \
        else None
    if tree is not None:
        found = _source_event(call, spec, spec_name, names, scope, tree)
        if found is not None:
            return found
    found_by_name = _is_call(spec, "find_spec") and len(spec.args) == 1 and not spec.keywords
    if not _is_call(spec, "spec_from_file_location") and not found_by_name:
        chain = attr_chain(spec.func) if isinstance(spec, ast.Call) else None
        return unknown if chain is None else ComputedImport(
            line, "exec_module", None, col=col, why=f"the module it runs is made by "
            f"{'.'.join((chain[0], *chain[1]))}(), not from a file's location: not replayed")
    loader = call.func.value
    if not (isinstance(loader, ast.Attribute) and loader.attr == "loader" and isinstance(
            loader.value, ast.Name) and loader.value.id == getattr(spec_name, "id", None)):
        held = names.value(loader, line)
        if not (isinstance(held, ast.Attribute) and held.attr == "loader" and
                isinstance(held.value, ast.Name) and held.value.id == spec_name.id):
            return unknown
    if found_by_name:  # the recipe "Checking if a module can be imported"
        name_node = spec.args[0]
        parts = spell(names.value(name_node, spec.lineno) or name_node)
        if parts is None or any(p.__class__ is tuple and len(p) > 1 and names.binds(p[1])
                                for p in parts):
            return ComputedImport(line, "exec_module", None, col=col,
                                  why="its module name cannot be evaluated statically")
        registers = _registration(scope, call.args[0].id, name_node, names, line)
        if registers is None:
            return unknown
        return ExecFile(line, parts, ("found",), registers, None, col)
    given = dict(zip(("name", "location"), spec.args))
    given.update((k.arg, k.value) for k in spec.keywords)
    if len(spec.args) > 2 or set(given) - {"name", "location", "submodule_search_locations"} \
            or "name" not in given or "location" not in given:
        return unknown
    name_node = names.value(given["name"], spec.lineno)
    parts = spell(name_node or given["name"])
    if name_node is None:
        name_node = given["name"]
    elif parts is not None and any(p.__class__ is tuple and len(p) > 1 and names.binds(p[1])
                                   for p in parts):
        parts = None  # read when it runs, later than the value was computed
    location = path_spec(given["location"], names, spec.lineno)
    if parts is None or location is None:
        return ComputedImport(line, "exec_module", None, col=col, why=(
            "the location of the file it runs" if location is None else "its module name") +
            " cannot be evaluated statically")
    package = None  # as the file says (SourceFileLoader.is_package), unless told
    if "submodule_search_locations" in given:
        package = not (isinstance(given["submodule_search_locations"], ast.Constant) and
                       given["submodule_search_locations"].value is None)
    registers = _registration(scope, call.args[0].id, name_node, names, line)
    if registers is None:
        return unknown
    return ExecFile(line, parts, location, registers, package, col)


def _source_event(call, spec, spec_name, names: Assignments, scope, tree) -> ExecSource | None:
    """`spec_from_loader(name, loader[, origin=...])`, `loader = Cls(source)` with `Cls` a
    string loader of this module (string_loader), `loader.exec_module(m)` or
    `spec.loader.exec_module(m)`: the ExecSource, else None."""
    line = call.lineno
    if len(spec.args) != 2 or any(isinstance(a, ast.Starred) for a in spec.args) or \
            any(k.arg not in ("origin", "is_package") for k in spec.keywords) or \
            not isinstance(spec.args[1], ast.Name):
        return None
    loader = spec.args[1].id
    receiver = call.func.value
    if not (isinstance(receiver, ast.Name) and receiver.id == loader or
            isinstance(receiver, ast.Attribute) and receiver.attr == "loader" and
            isinstance(receiver.value, ast.Name) and receiver.value.id == spec_name.id):
        return None
    made = names.value(spec.args[1], spec.lineno)
    if not (isinstance(made, ast.Call) and isinstance(made.func, ast.Name) and
            len(made.args) == 1 and not made.keywords and
            not isinstance(made.args[0], ast.Starred)) or not string_loader(tree, made.func.id):
        return None
    name_node, source_node = spec.args[0], made.args[0]
    # read when exec_module() runs: the names they read must hold what they held before
    if any(isinstance(n, ast.Name) and names.binds(n.id) for node in (name_node, source_node)
           for n in ast.walk(node)):
        return None
    name, source = compile_expr(name_node), compile_expr(source_node)
    if name is None or source is None:
        return None
    registers = _registration(scope, call.args[0].id, name_node, names, line)
    if registers is None:
        return None
    return ExecSource(line, name, source, registers, call.col_offset)


_LOADER_BASES = frozenset({"Loader", "InspectLoader", "ExecutionLoader", "ResourceLoader",
                           "SourceLoader"})


def string_loader(tree, name: str) -> bool:
    """Is `name` bound only by a module-level class whose instances keep the one string they
    are made with and whose exec_module(m) execs it (compiled, or as it is) in m.__dict__,
    with nothing else that the import machinery calls overridden (create_module)?"""
    found = [n for n in tree.body if _binds_at_top(n, name)]
    if len(found) != 1 or not isinstance(found[0], ast.ClassDef):
        return False
    cls = found[0]
    # importlib.abc's bases define create_module(): without one module_from_spec() raises
    if cls.keywords or cls.decorator_list or not cls.bases or \
            not all(_loader_base(b, tree) for b in cls.bases):
        return False
    methods = {}
    for node in _code(cls.body):
        if not isinstance(node, ast.FunctionDef) or node.decorator_list or \
                node.name in methods:
            return False
        methods[node.name] = node
    if methods.keys() & {"create_module", "__new__", "__getattr__", "__getattribute__",
                         "__setattr__", "__init_subclass__"}:
        return False
    kept = _kept_argument(methods.get("__init__"))
    run = methods.get("exec_module")
    future = any(isinstance(n, ast.ImportFrom) and n.module == "__future__" for n in tree.body)
    return kept is not None and run is not None and _execs_kept(run, kept, methods, future)


def _binds_at_top(node, name: str) -> bool:
    if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
        return node.name == name
    return any(isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
               or isinstance(n, ast.alias) and (n.asname or n.name).partition(".")[0] == name
               for n in ast.walk(node))


def _loader_base(base, tree) -> bool:
    chain = attr_chain(base)
    if chain is None:
        return False
    if chain[0] == "importlib" and len(chain[1]) == 2 and chain[1][0] == "abc":
        return chain[1][1] in _LOADER_BASES
    if chain[1] or chain[0] not in _LOADER_BASES:
        return False
    return any(isinstance(n, ast.ImportFrom) and n.module == "importlib.abc" and n.level == 0
               and any(a.name == chain[0] and a.asname is None for a in n.names)
               for n in tree.body)


def _code(body):
    """The statements of a body but its docstring."""
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[1:]
    return body


def _self_attr(node, self_name: str) -> str | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and \
            node.value.id == self_name:
        return node.attr
    return None


def _kept_argument(init) -> str | None:
    """The attribute `__init__(self, x)` keeps x in, when all it does is `self.a = x`."""
    if init is None:
        return None
    args = init.args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    if len(params) != 2 or args.vararg or args.kwarg or args.kwonlyargs or args.defaults:
        return None
    body = _code(init.body)
    if len(body) != 1 or not isinstance(body[0], ast.Assign) or len(body[0].targets) != 1:
        return None
    kept = _self_attr(body[0].targets[0], params[0])
    value = body[0].value
    return kept if isinstance(value, ast.Name) and value.id == params[1] else None


def _returns(method) -> ast.expr | None:
    body = _code(method.body) if method is not None else ()
    return body[0].value if len(body) == 1 and isinstance(body[0], ast.Return) else None


def _execs_kept(run, kept: str, methods, future: bool) -> bool:
    """exec_module(self, m): assignments of the kept string (`self.kept`, or a method that
    returns it), of calls of call-free methods (get_filename) and of `compile(text, f,
    "exec", dont_inherit=True)`, then `exec(code, m.__dict__)` last (a string given to exec
    itself takes the caller's future flags: only where the module has none)."""
    args = run.args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    if len(params) != 2 or args.vararg or args.kwarg or args.kwonlyargs:
        return False
    me, module = params
    texts, codes = set(), set()
    body = _code(run.body)
    for stmt in body[:-1]:
        if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1 or \
                not isinstance(stmt.targets[0], ast.Name):
            return False
        target, value = stmt.targets[0].id, stmt.value
        texts.discard(target)
        codes.discard(target)
        if _self_attr(value, me) == kept:
            texts.add(target)
            continue
        if isinstance(value, ast.Call) and _self_attr(value.func, me) in methods:
            method = methods[value.func.attr]
            returned = _returns(method)
            if returned is None or not method.args.args or \
                    any(isinstance(n, ast.Call) for n in ast.walk(returned)) \
                    or not all(isinstance(a, (ast.Name, ast.Attribute, ast.Constant))
                               for a in value.args) or value.keywords:
                return False
            if _self_attr(returned, method.args.args[0].arg) == kept:
                texts.add(target)
            continue
        if _is_compile(value, texts):
            codes.add(target)
            continue
        return False
    if not body or not isinstance(body[-1], ast.Expr):
        return False
    last = body[-1].value
    if not (isinstance(last, ast.Call) and isinstance(last.func, ast.Name) and
            last.func.id == "exec" and len(last.args) == 2 and not last.keywords):
        return False
    code, namespace = last.args
    if not isinstance(code, ast.Name) or code.id not in codes and (
            code.id not in texts or future):
        return False
    return (
        attr_chain(namespace) == (module, ("__dict__",)) or
        isinstance(namespace, ast.Call) and isinstance(namespace.func, ast.Name) and
        namespace.func.id == "vars" and len(namespace.args) == 1 and
        isinstance(namespace.args[0], ast.Name) and namespace.args[0].id == module)


def _is_compile(value, texts) -> bool:
    """`compile(text, filename, "exec", dont_inherit=True)`: the string alone decides what
    it compiles to (inherited future flags would not)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and
            value.func.id == "compile" and len(value.args) == 3 and
            isinstance(value.args[0], ast.Name) and value.args[0].id in texts and
            isinstance(value.args[2], ast.Constant) and value.args[2].value == "exec"):
        return False
    keywords = {k.arg: k.value for k in value.keywords}
    inherit = keywords.pop("dont_inherit", None)
    return not keywords and isinstance(inherit, ast.Constant) and inherit.value is True


def _is_call(node, function: str) -> bool:
    if not isinstance(node, ast.Call) or any(isinstance(a, ast.Starred) for a in node.args):
        return False
    chain = attr_chain(node.func)
    return chain is not None and (chain[1][-1:] == (function,) or chain == (function, ()))


def _registration(scope, module: str, name_node, names: Assignments, line: int) -> bool | None:
    """Whether `sys.modules[name] = module` comes before line `line` (None: it is put there
    under another key, which is not modelled)."""
    found = False
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.lineno < line and len(node.targets) == 1 and \
                is_registration(node.targets[0], node.value, module):
            key = node.targets[0].slice
            key = names.value(key, node.lineno) or key
            if ast.dump(key) != ast.dump(name_node):
                return None
            found = True
    return found


def is_registration(target, value, module: str | None = None) -> bool:
    """`sys.modules[...] = <module>` (any name when `module` is None)."""
    return isinstance(target, ast.Subscript) and attr_chain(target.value) == (
        "sys", ("modules",)) and isinstance(value, ast.Name) and (
        module is None or value.id == module)


def registers_for_exec(scope, line: int) -> bool:
    """Is the `sys.modules[...] = module` on `line` of this scope part of the recipe (its
    module made by module_from_spec, then run by exec_module in the same scope)? The
    ExecFile of that exec_module() call puts it there (or says `unknown`)."""
    if scope is None:
        return False
    found = [n.value for n in ast.walk(scope) if isinstance(n, ast.Assign) and n.lineno == line
             and len(n.targets) == 1 and is_registration(n.targets[0], n.value)]
    if len(found) != 1:
        return False
    module = found[0]
    if not _is_call(Assignments(scope).value(module, line), "module_from_spec"):
        return False
    return any(isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and
               n.func.attr == "exec_module" and len(n.args) == 1 and
               isinstance(n.args[0], ast.Name) and n.args[0].id == module.id and
               n.lineno > line for n in ast.walk(scope))


# -- simulation -------------------------------------------------------------------------
class ExecFiles:
    """The exec_module() half of the Simulator."""

    def e_ExecFile(self, ev: ExecFile, frame):
        where = f"exec_module() at {frame.module.info.path}:{ev.line}"
        if ev.path == ("found",):
            self._exec_found(ev, frame, where)
            return
        found = self.path_value(ev.path, frame)
        if found is None or not found[1]:
            raise SimUnknown(f"{where}: the file it runs cannot be found statically")
        path = os.path.normpath(found[0])
        name = self.spell(ev.parts, frame)
        if name is None:
            raise SimUnknown(f"{where}: its module name cannot be evaluated statically")
        info = self.program.module_at(path)
        if info is None:
            if self.program.under_roots(path):
                raise SimUnknown(f"{where}: runs {path}, which is no module of the analysed "
                                 "code")
            return  # a file outside the analysed code: assumed fine, as external modules
        if info.kind not in ("module", "package"):
            return  # opaque (compiled, a stub): as an import of it
        if info.name != name:
            raise SimUnknown(f"{where}: runs {info.path} as module '{name}', not under its "
                             "own name")
        if ev.package is not None and ev.package != info.is_package:
            raise SimUnknown(f"{where}: runs {info.path} with submodule_search_locations "
                             "that make it another kind of module")
        self.exec_fresh(info, ev.registers, where)

    def _exec_found(self, ev: ExecFile, frame, where: str) -> None:
        """exec_module() of the spec find_spec(name) found (its parent imported by the
        find_spec call itself): the module `name` runs now, in a fresh module object; an
        external module is assumed to run fine; a module that does not exist has no spec
        (None), so this code does not run."""
        name = self.spell(ev.parts, frame)
        if name is None:
            raise SimUnknown(f"{where}: its module name cannot be evaluated statically")
        if self.is_external(name):
            return
        info = self.program.index.get(name)
        if info is None or info.kind not in ("module", "package"):
            if info is None:
                return
            raise SimUnknown(f"{where}: runs '{name}', which is no source module")
        self.exec_fresh(info, ev.registers, where)

    def e_ExecSource(self, ev: ExecSource, frame):
        path = frame.module.info.path
        where = f"exec_module() at {path}:{ev.line}"
        try:
            name = evaluate(ev.name, self._pure_name, frame)
            source = evaluate(ev.source, self._pure_name, frame)
        except NoValue:
            name = source = None
        if name.__class__ is not str or source.__class__ is not str:
            raise SimUnknown(f"{where}: the name or the source of the module it generates "
                             "cannot be evaluated statically")
        if name.partition(".")[0] in self.program.tops:
            raise SimUnknown(f"{where}: the module it generates is named '{name}', within the "
                             "analysed code")
        if "__file__" in source:  # set or not by the spec's origin: not modelled
            raise SimUnknown(f"{where}: the module it generates reads __file__")
        facts = self.program.generated.get((name, source))
        if facts is None:
            # parsed as a file is; no code of it runs (facts_from_source only reads the text)
            from .facts import facts_from_source  # facts imports this module
            facts = facts_from_source(source, name, f"<{name}, generated at {path}:{ev.line}>",
                                      False, self.program.target_version, nested=False)
            self.program.generated[(name, source)] = facts
        info = ModuleInfo(name, facts.path, "module", frame.module.info.root)
        self.exec_fresh(info, ev.registers, where, facts)

    def exec_fresh(self, info, registers: bool, where: str, facts=None) -> None:
        name = info.name
        # read even when not replaced: an absent name is then one a recording made, whose
        # epochs its replay restores
        held = self.state(name)
        if registers:
            if held is not None:
                raise SimUnknown(f"{where}: replaces '{name}' in sys.modules")
            st = self.new_state(info, "exec")
        else:  # a module object in no sys.modules: found by references, as stale ones are
            epoch = self.epochs.get(name, 0)
            self.epochs[name] = epoch + 1
            self.clock += 1
            st = ModState(info, "exec", epoch, self.clock)
            self.stale[(name, epoch)] = st
            self.stale_log.append((name, epoch))
        self.stack.append(st)
        try:
            self.run_code(st, self.facts[name] if facts is None else facts)
        finally:
            self.stack.pop()
            self.write(st, "status", "done")

    def replaced_by(self, st: ModState, line: int) -> ModState:
        """The module `sys.modules[__name__] = obj` replaces when `st` runs: `st`, unless it
        is a fresh module in no sys.modules, whose name holds another one."""
        if st.status != "exec":
            return st
        held = self.state(st.name)
        if held is None:
            raise SimUnknown(f"{st.info.path}:{line}: a module run by exec_module() puts an "
                             f"object into sys.modules['{st.name}'], which holds no module")
        return held

    def path_value(self, spec, frame):
        """(the location a path spec gives now, whether it is anchored in the analysed
        tree), or None."""
        kind = spec[0]
        if kind == "file":
            info = frame.module.info
            return (info.path, True) if info.kind != "namespace" else None
        if kind == "s":
            return spec[1], os.path.isabs(spec[1])
        if kind == "ref":
            try:
                value = self.lookup(spec[1], frame)
            except (SimError, SimUnknown):
                return None
            if value[0] == "path":
                return value[1], True
            if value[0] == "lit" and value[1].__class__ is str:
                return value[1], os.path.isabs(value[1])
            return None
        if kind == "fmt":
            text = self.spell(spec[1], frame)
            return (text, os.path.isabs(text)) if text is not None else None
        if kind == "join":
            parts = [self.path_value(s, frame) for s in spec[1]]
            if None in parts:
                return None
            text, anchor = parts[0]
            for part, part_anchor in parts[1:]:
                text = os.path.join(text, part)
                anchor = part_anchor if os.path.isabs(part) else anchor
            return text, anchor
        inner = self.path_value(spec[1], frame)
        if inner is None:
            return None
        if kind == "dir":
            return os.path.dirname(inner[0]), inner[1]
        if kind == "cat":
            right = self.path_value(spec[2], frame)
            return (inner[0] + right[0], inner[1]) if right is not None else None
        return os.path.normpath(inner[0]), inner[1]  # "norm"
