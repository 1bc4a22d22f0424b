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
"""
from __future__ import annotations

import ast
import os

from .events import ComputedImport, ExecFile
from .exprs import attr_chain, path_spec, spell
from .frames import SimError, SimUnknown
from .state import ModState

_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_NOT_REPLAYED = "a module run by a loader's exec_module() is not replayed"


# -- facts ------------------------------------------------------------------------------
class Assignments:
    """`name = value` statements of one scope (nested scopes left out), by name: a name used
    on a line stands for its value when exactly one statement binds it before that line, and
    that one is such an assignment."""

    def __init__(self, scope):
        self.found: dict[str, list[tuple[int, ast.expr | None]]] = {}
        stack = list(scope.body) if scope is not None else []
        while stack:
            node = stack.pop()
            if isinstance(node, _NESTED):
                continue
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                    isinstance(node.targets[0], ast.Name):
                self._add(node.targets[0].id, node.lineno, node.value)
                stack.append(node.value)
                continue
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                self._add(node.id, node.lineno, None)  # bound some other way: not followed
            stack.extend(ast.iter_child_nodes(node))

    def _add(self, name: str, line: int, value) -> None:
        self.found.setdefault(name, []).append((line, value))

    def value_at(self, node, line: int):
        """(line, expression) of the assignment whose value the name `node` holds on `line`,
        else None."""
        if not isinstance(node, ast.Name):
            return None
        before = [(at, v) for at, v in self.found.get(node.id, ()) if at < line]
        return before[0] if len(before) == 1 and before[0][1] is not None else None

    def value(self, node, line: int):
        """The expression the name `node` holds on `line`, else None."""
        found = self.value_at(node, line)
        return found[1] if found is not None else None

    def binds(self, name: str) -> bool:
        return name in self.found


def exec_file_event(call: ast.Call, scope) -> ExecFile | ComputedImport:
    """The recipe that ends in this `X.exec_module(m)` call, found in `scope`; else the
    computed import that says it is not replayed."""
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
    if not _is_call(spec, "spec_from_file_location"):
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

    def exec_fresh(self, info, registers: bool, where: str) -> None:
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
            self.run_code(st, self.facts[name])
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
