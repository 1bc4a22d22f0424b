"""The import statements and import calls of a module, as facts (part of the facts extractor)."""
from __future__ import annotations

import ast

from .events import ComputedImport, Import, ImportFrom
from .execfile import exec_file_event
from .exprs import MAX_PARTS, attr_chain, spell
from .purefn import compile_expr
from .helpers import HELPER_MODULES
from .shapes import _IMPORT_CALLS, _IMPORT_PARAMETERS, _anchor, _is_lazy, _is_none, resolve_relative


class ImportStatements:
    """The import statements and import calls of a module, as facts (part of the facts extractor)."""

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
                if alias.name in HELPER_MODULES and (alias.asname or "." not in alias.name):
                    self.helpers[bound] = alias.name

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
                    if module in HELPER_MODULES or f"{module}.{n}" in HELPER_MODULES:
                        self.helpers[asname or n] = f"{module}.{n}"

    def helper_of(self, chain) -> str | None:
        """The qualified name (helpers.HELPER_MODULES) an attribute chain `f` or `mod.f`
        names through the module-level imports walked so far, or None."""
        if chain is None or len(chain[1]) > 1:
            return None
        found = self.helpers.get(chain[0])
        return found if found is None or not chain[1] else f"{found}.{chain[1][0]}"

    def _import_call(self, call: ast.Call) -> tuple | None:
        """A literal importlib.import_module / __import__ call -> ("module", name, kind); any
        other import call -> ("computed", ComputedImport)."""
        chain = attr_chain(call.func)
        if chain is None:
            return None
        kind = _IMPORT_CALLS.get(chain)
        if kind is None:
            if chain[1][-1:] == ("exec_module",):
                return ("computed", exec_file_event(call, self.scope, self.whole_tree))
            return None
        source = _BARE_SOURCES.get(chain[0]) if chain[0] in _BARE_SOURCES and (
            not chain[1] or chain[0] == "util") else None
        if source is not None and not self.imported_from(chain[0]) <= source:
            return None  # a function of its own (sympy's import_module): a call, replayed
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
        splat = [k.value for k in call.keywords if k.arg is None]
        kwargs = splat[0].id if len(splat) == 1 and splat[0].__class__ is ast.Name else None
        if any(isinstance(a, ast.Starred) for a in call.args) or \
                splat and kwargs is None or names[0] not in given:
            return ComputedImport(line, kind, None, why="its arguments are not known",
                                  col=col)
        parts = spell(given[names[0]]) or _evaluated_parts(given[names[0]])
        if parts is None:
            head = _literal_head(given[names[0]])
            if head and not head.startswith("."):  # what its top-level package starts with
                parts = (head, ("opaque",))
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
        return ComputedImport(line, kind, parts, anchor, fromlist, level, why, col,
                              kwargs=kwargs)


# what a bare name of an import call must be imported from to be importlib's
_BARE_SOURCES = {"import_module": frozenset({"importlib"}),
                 "find_spec": frozenset({"importlib.util"}),
                 "util": frozenset({"importlib", "\0importlib.util"})}


def _literal_head(node) -> str:
    """The literal text a string expression starts with (an f-string's or a sum's first
    constant), else ""."""
    while node.__class__ is ast.BinOp and isinstance(node.op, ast.Add):
        node = node.left
    if node.__class__ is ast.JoinedStr and node.values:
        node = node.values[0]
    return node.value if node.__class__ is ast.Constant and isinstance(node.value, str) else ""


def _evaluated_parts(node) -> tuple | None:
    """Parts (exprs.spell) of a string sum or f-string whose pieces spell cannot read
    but pure code computes (`"." + name[:-3]`, `f"{os.path.splitext(f)[0]}"`): each such
    piece ("eval", program) (purefn), evaluated when the call runs; None if one is not."""
    pieces, stack = [], [node]
    while stack:
        n = stack.pop()
        if n.__class__ is ast.BinOp and isinstance(n.op, ast.Add):
            stack.extend((n.right, n.left))
        elif n.__class__ is ast.JoinedStr:
            for value in reversed(n.values):
                if value.__class__ is ast.FormattedValue and (
                        value.conversion not in (-1, 115) or value.format_spec is not None):
                    return None
                stack.append(value.value if value.__class__ is ast.FormattedValue else value)
        else:
            pieces.append(n)
    out: list = []
    for piece in pieces:
        found = spell(piece)
        if found is None:
            program = compile_expr(piece)
            if program is None:
                return None
            found = (("eval", program),)
        out.extend(found)
    return tuple(out) if len(out) <= MAX_PARTS else None
