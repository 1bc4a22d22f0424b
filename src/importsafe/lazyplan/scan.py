"""One module's source -> what running it does, as symbolic actions (pure).

The module's top level and class bodies are run by interp.Walker; every write, call, class
statement and scanning read is kept as an action for the effect engine (effects.py), which
resolves calls into other modules once every module is scanned. Function bodies are not
read here: the engine parses a module whole only when one of its functions runs at import
time (`tree` below), so the scan parses sources with their function bodies cut
(static.skim), which is several times cheaper. The import statements are kept for the plan.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

from ..static.skim import skim
from .interp import OWN, UNK, Walker, is_type_checking

GUARDS_ELIGIBLE = frozenset({"none", "if", "with", "loop"})  # PEP 810 allows `lazy` there


@dataclass(frozen=True, slots=True)
class ImportStatement:
    """A module-level import statement (docs/lazy.md L1 says which PEP 810 lets be lazy)."""

    line: int
    end_line: int
    kind: str  # "import" | "from"
    modules: tuple[str, ...]  # what it imports: `import a.b, c` -> (a.b, c); from: the module
    names: tuple[tuple[str, str | None], ...]  # (name, asname); `import a.b` -> (("a.b", None),)
    bound: tuple[str, ...]  # the names it binds
    guard: str  # "none" | "if" | "with" | "loop" | "try" | "TYPE_CHECKING"
    level: int = 0
    star: bool = False
    future: bool = False
    lazy: bool = False  # written `lazy import` / `lazy from`
    written: str = ""  # the module as the statement spells it (`.jit`)

    @property
    def eligible(self) -> bool:
        return self.guard in GUARDS_ELIGIBLE and not self.star and not self.future

    def targets(self, is_module) -> tuple[str, ...]:
        """The analysed or external modules running the statement may load first."""
        if self.kind == "import":
            return self.modules
        module = self.modules[0]
        subs = tuple(f"{module}.{n}" for n, _ in self.names if is_module(f"{module}.{n}"))
        return (module, *subs)


@dataclass(frozen=True, slots=True)
class ClassInfo:
    line: int
    bases: tuple[tuple, ...]
    keywords: tuple[tuple[str, tuple], ...]
    methods: tuple[tuple[str, int], ...]  # (name, line of its def)
    starts: tuple[int, ...] = ()  # first line of each statement of the body (decorators too)

    def method_line(self, name: str) -> int | None:
        for method, line in self.methods:
            if method == name:
                return line
        return None


@dataclass(slots=True)
class ModuleScan:
    name: str
    path: str
    is_package: bool
    env: dict = field(default_factory=dict)  # top-level name -> value, as the import ends
    # name -> ("def"|"class"|"const", line) | ("inst", cls) | ("result", call)
    kinds: dict = field(default_factory=dict)
    classes: dict = field(default_factory=dict)  # module-level class name -> ClassInfo
    stars: tuple[str, ...] = ()
    actions: list = field(default_factory=list)
    statements: list = field(default_factory=list)
    first_reads: dict = field(default_factory=dict)  # name -> first unconditional read line
    # name -> how many actions came before that read (a read in the module's own code, not
    # in a function it calls): orders it against the calls of the same line
    first_read_at: dict = field(default_factory=dict)
    # line -> what: module-level code there reads the values of the module's namespace
    # without naming them (`globals()` / `vars()` / `locals()`), which resolves no lazy import
    raw_reads: dict = field(default_factory=dict)
    # (first line, last line) of each module-level def and class statement, sorted: where
    # the engine finds a body without parsing the whole module again
    segments: tuple = ()
    problem: str | None = None  # why the source could not be read

    @property
    def package(self) -> str:
        return self.name if self.is_package else self.name.rpartition(".")[0]


class _Recorder:
    """Hooks of the module walker: every action is kept for the engine."""

    def __init__(self, scan: ModuleScan):
        self.scan = scan
        self.walker = None  # the module's walker (its `cond`: inside a branch)

    def on_write(self, line, target, op, key):
        self.scan.actions.append(("write", line, target, op, key))

    def on_call(self, line, callee, args, kwargs, how):
        """Kept for the engine; the value is a reference to what it will find the call
        returns (("call", module, index of the action, attrs))."""
        index = len(self.scan.actions)
        self.scan.actions.append(("call", line, callee, tuple(args), tuple(kwargs.items()), how,
                                  self.walker.cond > 0))
        if callee[0] == "g" and callee[1] == self.scan.name and not callee[3]:
            kind = self.scan.kinds.get(callee[2])
            if kind is not None and kind[0] == "class":
                return ("new", callee)
        return ("call", self.scan.name, index, ())

    def on_class(self, line, name, bases, keywords, value):
        self.scan.actions.append(("class", line, name, tuple(bases), tuple(keywords.items()),
                                  value))

    def on_read(self, line, value, access):
        self.scan.actions.append(("read", line, value, access))


class _ModuleWalker(Walker):
    """The module's own top level: its names are ("g", module, name) values, and import
    statements, first reads and class tables are recorded."""

    def __init__(self, *args, scan: ModuleScan, **kwargs):
        super().__init__(*args, **kwargs)
        self.scan = scan
        self.guard = "none"
        self.line = 0

    def stmt(self, node):
        self.line = node.lineno
        super().stmt(node)

    def bind(self, name, value, line):
        if self.kind == "module" and self.scan.kinds.get(name, ("",))[0] == "const":
            del self.scan.kinds[name]  # rebound: maybe to a mutable object
        super().bind(name, value, line)

    def s_Assign(self, node):
        super().s_Assign(node)
        self._immutable(node.targets, node.value, node.lineno)

    def s_AnnAssign(self, node):
        super().s_AnnAssign(node)
        self._immutable([node.target], node.value, node.lineno)

    def _immutable(self, targets, value, line) -> None:
        """A name the module binds, unconditionally, to a tuple or a constant: `+=` on it
        makes a new object (ModuleScan.kinds "const")."""
        if self.kind == "module" and self.cond == 0 and \
                isinstance(value, (ast.Tuple, ast.Constant, ast.JoinedStr)):
            for target in targets:
                if isinstance(target, ast.Name):
                    self.scan.kinds[target.id] = ("const", line)

    def lookup(self, name):
        if self.cond == 0 and name not in self.scan.first_reads:
            self.scan.first_reads[name] = self.line
            self.scan.first_read_at[name] = len(self.scan.actions)
        return super().lookup(name)

    def identity(self, name, value):
        if self.kind != "module":
            return value
        if value[0] in ("mod", "gstar", "super", "call") or (
                value[0] == "g" and value[1] != self.module):
            if value[0] == "call":
                self.scan.kinds[name] = ("result", value)
            return value  # an alias of what another module holds (or a call returned)
        if value[0] == "new":
            self.scan.kinds[name] = ("inst", value[1])
        elif value[0] == "g" and value[1] == self.module and value[2] != name:
            alias = self.scan.kinds.get(value[2])
            if alias is not None:
                self.scan.kinds[name] = alias
        return ("g", self.module, name, ())

    def define(self, node):
        if self.kind == "module":
            self.scan.kinds[node.name] = ("def", node.lineno)
        return OWN if self.kind != "module" else ("g", self.module, node.name, ())

    def class_value(self, node):
        if self.kind != "module":
            return OWN
        self.scan.kinds[node.name] = ("class", node.lineno)
        return ("g", self.module, node.name, ())

    def class_body(self, node, value, bases, keywords):
        if self.kind == "module":
            methods = tuple((s.name, s.lineno) for s in node.body
                            if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef)))
            self.scan.classes[node.name] = ClassInfo(node.lineno, tuple(bases),
                                                     tuple(keywords.items()), methods,
                                                     _starts(node.body))
        inner = _ModuleWalker(self.module, self.package, "class", {}, self.scope_globals(),
                              self.hooks, self.is_module, klass=value, scan=self.scan)
        inner.stars, inner.cond, inner.line = self.stars, self.cond, self.line
        inner.run(node.body)

    # -- import statements ----------------------------------------------------------------
    def _statement(self, node, kind, modules, names, bound, level=0, star=False, future=False):
        if self.kind == "module":
            guard = self.guard
            lazy = node.lineno in self.scan_lazy_lines or bool(getattr(node, "is_lazy", False))
            written = "." * level + (node.module or "") if kind == "from" else ""
            self.scan.statements.append(ImportStatement(
                node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno, kind,
                modules, names, bound, guard, level, star, future, lazy, written))

    def s_Import(self, node):
        super().s_Import(node)
        self._statement(node, "import", tuple(a.name for a in node.names),
                        tuple((a.name, a.asname) for a in node.names),
                        tuple(a.asname or a.name.partition(".")[0] for a in node.names))

    def s_ImportFrom(self, node):
        from .interp import resolve_relative
        super().s_ImportFrom(node)
        module = resolve_relative(node.module, node.level, self.package)
        if module is None:
            return
        names = tuple((a.name, a.asname) for a in node.names)
        star = any(a.name == "*" for a in node.names)
        self._statement(node, "from", (module,), names,
                        tuple(a.asname or a.name for a in node.names if a.name != "*"),
                        node.level, star, module == "__future__")

    # -- blocks: where a statement sits, and whether its reads surely happen ---------------
    def _block(self, guard, bodies, conditional=True):
        saved, self.guard = self.guard, guard if self.guard == "none" else self.guard
        if guard == "try":
            self.guard = "try"
        self.cond += conditional
        try:
            for body in bodies:
                self.run(body)
        finally:
            self.cond -= conditional
            self.guard = saved

    def s_If(self, node):
        if is_type_checking(node.test):
            self._never_run(node.body)
            self._block("if", [node.orelse])
            return
        self.ev(node.test)
        self._block("if", [node.body, node.orelse])

    def _never_run(self, body):
        """An `if TYPE_CHECKING:` block: its import statements are recorded, nothing runs."""
        saved, self.guard = self.guard, "TYPE_CHECKING"
        try:
            for stmt in body:
                if isinstance(stmt, (ast.Import, ast.ImportFrom)):
                    env, self.env = self.env, {}  # bind nothing
                    try:
                        self.stmt(stmt)
                    finally:
                        self.env = env
                elif isinstance(stmt, ast.If):
                    self._never_run([*stmt.body, *stmt.orelse])
        finally:
            self.guard = saved

    def s_For(self, node):
        self.hooks.on_read(node.lineno, self.ev(node.iter), "scan")
        self.assign(node.target, UNK, node.lineno)
        self._block("loop", [node.body, node.orelse])

    s_AsyncFor = s_For

    def s_While(self, node):
        self.ev(node.test)
        self._block("loop", [node.body, node.orelse])

    def s_With(self, node):
        for item in node.items:
            value = self.ev(item.context_expr)
            if item.optional_vars is not None:
                self.assign(item.optional_vars, ("res", value, ()), node.lineno)
        self._block("with", [node.body], conditional=False)

    s_AsyncWith = s_With

    def s_Try(self, node):
        self._block("try", [node.body, *(h.body for h in node.handlers), node.orelse,
                            node.finalbody])

    s_TryStar = s_Try

    def s_Match(self, node):
        self.ev(node.subject)
        self._block("if", [c.body for c in node.cases])


def parse_source(source: bytes, path: str, whole: bool) -> tuple[ast.Module, frozenset[int]]:
    """The module's tree (function bodies cut unless `whole`) and the lines of its `lazy`
    imports. Raises SyntaxError / ValueError when it cannot be parsed at all."""
    lazy: frozenset[int] = frozenset()
    if not whole and b"def" in source:
        cut = skim(source)
        if cut is not None:
            try:
                return ast.parse(cut[0], filename=path), lazy
            except (SyntaxError, ValueError):
                pass  # the whole source decides (it may use syntax the cut does not show)
    try:
        return ast.parse(source, filename=path), lazy
    except SyntaxError:
        if b"lazy" not in source and b"type" not in source:
            raise
        from ..static.lower import lower
        lowered = lower(source)
        if lowered is None:
            raise
        return lowered[3] or ast.parse(lowered[0], filename=path), lowered[1]


def scan_module(source: bytes, name: str, path: str, is_package: bool, is_module) -> ModuleScan:
    """What importing the module does (function bodies left to the engine)."""
    try:
        tree, lazy_lines = parse_source(source, path, whole=False)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        scan = ModuleScan(name, path, is_package)
        scan.problem = f"cannot parse: {exc}"
        return scan
    return scan_tree(tree, lazy_lines, source, name, path, is_package, is_module)


def scan_tree(tree: ast.Module, lazy_lines: frozenset[int], source: bytes, name: str,
              path: str, is_package: bool, is_module) -> ModuleScan:
    """scan_module of a tree parsed already (its function bodies may be there or cut: the
    scan does not enter them)."""
    scan = ModuleScan(name, path, is_package)
    walker = _ModuleWalker(name, scan.package, "module", scan.env, scan.env, _Recorder(scan),
                           is_module, scan=scan)
    walker.scan_lazy_lines = lazy_lines
    walker.hooks.walker = walker
    walker.run(tree.body)
    scan.raw_reads = namespace_reads(tree.body) if _names_namespace(source) else {}
    scan.stars = tuple(walker.stars)
    scan.segments = _segments(tree.body, source.count(b"\n") + 1)
    return scan


def _starts(body) -> tuple[int, ...]:
    return tuple(min([s.lineno, *(d.lineno for d in getattr(s, "decorator_list", ()))])
                 for s in body)


def _segments(body, last: int) -> tuple:
    starts = _starts(body)
    out = []
    for i, stmt in enumerate(body):
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            end = starts[i + 1] - 1 if i + 1 < len(body) else last
            out.append((stmt.lineno, end))
    return tuple(out)


NAMESPACE_CALLS = ("globals", "vars", "locals")
# uses of the namespace dict that read no value: writes, key tests, listing the keys
_KEYS_ONLY = frozenset({"update", "__setitem__", "__delitem__", "keys", "__contains__"})
_KEY_CALLS = frozenset({"len", "list", "sorted", "set", "tuple", "iter", "frozenset"})


def _names_namespace(source: bytes) -> bool:
    """Can the source call globals(), vars() or locals() at all? An ASCII source (source
    encodings are ASCII-compatible, PEP 263) must spell the name; the walk is most of a
    scan's time. Another may spell it in letters the parser normalizes (NFKC): walked."""
    return not source.isascii() or any(name.encode() in source for name in NAMESPACE_CALLS)


def namespace_reads(body) -> dict[int, str]:
    """Line -> what, for module-level `globals()` / `vars()` / `locals()` whose values are
    read (not `globals()[k] = v`, `.update(...)`, `k in globals()`, `sorted(globals())`).
    Function bodies do not run at import time; in a class body only `globals()` is the
    module's."""
    out: dict[int, str] = {}
    todo = [(stmt, False) for stmt in body]
    while todo:
        node, in_class = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            todo.extend((d, in_class) for d in getattr(node, "decorator_list", ()))
            if not isinstance(node, ast.Lambda):
                todo.extend((d, in_class) for d in node.args.defaults + [
                    d for d in node.args.kw_defaults if d is not None])
            continue
        for child in ast.iter_child_nodes(node):
            if _namespace_call(child, in_class) and not _keys_only(node, child):
                out.setdefault(child.lineno, f"`{child.func.id}()` reads the module's "
                               "namespace")
            todo.append((child, in_class or isinstance(node, ast.ClassDef)))
    return out


def _namespace_call(node, in_class: bool) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
        node.func.id in NAMESPACE_CALLS and not node.args and not node.keywords and \
        (node.func.id == "globals" or not in_class)


def _keys_only(parent, call) -> bool:
    if isinstance(parent, ast.Attribute):
        return parent.attr in _KEYS_ONLY
    if isinstance(parent, ast.Subscript):
        return not isinstance(parent.ctx, ast.Load)
    if isinstance(parent, ast.Compare):
        return call in parent.comparators and all(
            isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
    if isinstance(parent, ast.Call):
        return isinstance(parent.func, ast.Name) and parent.func.id in _KEY_CALLS
    return isinstance(parent, ast.For) and parent.iter is call
