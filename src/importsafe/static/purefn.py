"""Values computed by pure code at import time: `CONFIG = _cleanup({...})`, where `_cleanup` is
an analysed function that only computes on builtin data (scipy's `__config__`), so that a
later `if CONFIG[...]["has ilp64"]:` is decided.

Two halves. `compile_function` / `compile_expr` turn a function body or an expression into a
small plain-tuple program (cacheable facts), or None when any part of it is outside the
subset: statements `return`, `if`, assignments to local names, `for` / `break` / `continue`,
mutating methods of containers the call made itself; expressions over literals, names,
containers, comprehensions, comparisons, arithmetic and a fixed list of builtins and methods
of builtin types; reads of installed versions (`dep.__version__`,
`importlib.metadata.version("dist")`, `packaging.version.parse(...)`), which the caller's
`versions` answers from files, never by importing; and reads of environment variables
(`os.environ.get`, `os.getenv`, `os.environ[...]`, `in os.environ`), which its
`environment` answers. `evaluate` runs such a program on plain
Python data: it never calls anything but those builtins, so no user code runs; whatever it
cannot do (a name that holds no data, an exception, a step budget spent) ends the
evaluation with no value.

Written by hand: no library evaluates a Python subset over data without running the code.
"""
from __future__ import annotations

import ast
import string

MAX_LINES = 200  # longer code is not what a pure helper looks like: not compiled
MAX_STEPS = 200_000
MAX_CALL_DEPTH = 40
MAX_SIZE = 100_000  # longest string or container a step may build


class NoValue(Exception):
    """The program cannot be evaluated here: the value is not known."""


# -- compiling ---------------------------------------------------------------------------

class _Unsupported(Exception):
    pass


_BINOPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.BitOr: "|", ast.BitAnd: "&", ast.BitXor: "^"}
_CMPOPS = {ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">",
           ast.GtE: ">=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not"}
_COMPS = {ast.ListComp: "list", ast.SetComp: "set", ast.DictComp: "dict",
          ast.GeneratorExp: "list"}
# attributes that hold a package's version, and the last names of calls that read or parse
# one (importlib.metadata.version, packaging.version.parse / Version): compiled as reads of
# the installed versions, which `evaluate`'s `versions` resolves
VERSION_ATTRS = frozenset({"__version__", "VERSION", "version", "__VERSION__"})
VERSION_CALLS = frozenset({"version", "parse", "Version", "parse_version"})
_ENVIRON = ("os", ("environ",))
_ENV_GETS = (("os", ("environ", "get")), ("os", ("getenv",)))


def compile_function(node) -> tuple | None:
    """(params, defaults, body) of a module-level def, or None when it is not pure code:
    params the positional parameter names, defaults ((name, program), ...)."""
    args = node.args
    if args.vararg or args.kwarg or args.kwonlyargs or node.decorator_list or \
            isinstance(node, ast.AsyncFunctionDef):
        return None
    params = tuple(a.arg for a in (*args.posonlyargs, *args.args))
    try:
        defaults = tuple((name, _expr(d)) for name, d in
                         zip(params[len(params) - len(args.defaults):], args.defaults))
        body = _block(node.body, set(params))
    except (_Unsupported, RecursionError):
        return None
    return (params, defaults, body) if not _too_big(node) else None


def compile_expr(node) -> tuple | None:
    """An expression as a program, or None."""
    try:
        program = _expr(node)
    except (_Unsupported, RecursionError):
        return None
    return program if not _too_big(node) else None


def _too_big(node) -> bool:
    # by lines, not nodes: walking every compiled expression cost more than compiling it
    end = getattr(node, "end_lineno", None)
    return end is None or end - node.lineno > MAX_LINES


def _block(stmts, local: set) -> tuple:
    out = []
    for st in stmts:
        cls = st.__class__
        if cls is ast.Return:
            out.append(("ret", _expr(st.value) if st.value is not None else ("k", None)))
        elif cls is ast.If:
            out.append(("if", _expr(st.test), _block(st.body, local), _block(st.orelse, local)))
        elif cls is ast.Assign:
            value = _expr(st.value)
            for target in st.targets:
                out.append(_store(target, value, local))
        elif cls is ast.AnnAssign and st.value is not None and st.simple:
            out.append(_store(st.target, _expr(st.value), local))
        elif cls is ast.AugAssign and isinstance(st.target, ast.Name) and \
                st.op.__class__ in _BINOPS:
            local.add(st.target.id)
            out.append(("aug", st.target.id, _BINOPS[st.op.__class__], _expr(st.value)))
        elif cls is ast.For and not st.orelse:
            out.append(("for", _target(st.target, local), _expr(st.iter),
                        _block(st.body, local)))
        elif cls is ast.Break:
            out.append(("break",))
        elif cls is ast.Continue:
            out.append(("continue",))
        elif cls is ast.Pass:
            continue
        elif cls is ast.Expr and isinstance(st.value, ast.Constant):
            continue  # a docstring
        elif cls is ast.Expr and isinstance(st.value, ast.Call) and \
                isinstance(st.value.func, ast.Attribute) and \
                st.value.func.attr in _MUTATING_STATEMENTS:
            out.append(("do", _expr(st.value)))
        else:
            raise _Unsupported
    return tuple(out)


def _store(target, value, local: set) -> tuple:
    if isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice):
        return ("setitem", _expr(target.value), _expr(target.slice), value)
    return ("set", _target(target, local), value)


def _target(node, local: set):
    if isinstance(node, ast.Name):
        local.add(node.id)
        return node.id
    if isinstance(node, (ast.Tuple, ast.List)) and not any(
            isinstance(e, ast.Starred) for e in node.elts):
        return tuple(_target(e, local) for e in node.elts)
    raise _Unsupported


def _expr(node) -> tuple:
    cls = node.__class__
    if cls is ast.Constant:
        if isinstance(node.value, (str, int, float, bool, bytes, type(None))):
            return ("k", node.value)
        raise _Unsupported
    if cls is ast.Name:
        return ("n", node.id)
    if cls in (ast.Tuple, ast.List, ast.Set):
        kind = {ast.Tuple: "tuple", ast.List: "list", ast.Set: "set"}[cls]
        return (kind, tuple(("star", _expr(e.value)) if isinstance(e, ast.Starred) else
                            _expr(e) for e in node.elts))
    if cls is ast.Dict:
        if any(k is None for k in node.keys):
            raise _Unsupported
        return ("dict", tuple((_expr(k), _expr(v)) for k, v in zip(node.keys, node.values)))
    if cls in _COMPS:
        gens = []
        for gen in node.generators:
            if gen.is_async:
                raise _Unsupported
            gens.append((_target(gen.target, set()), _expr(gen.iter),
                         tuple(_expr(i) for i in gen.ifs)))
        elt = (_expr(node.key), _expr(node.value)) if cls is ast.DictComp else _expr(node.elt)
        return ("comp", _COMPS[cls], elt, tuple(gens))
    if cls is ast.BoolOp:
        return ("and" if isinstance(node.op, ast.And) else "or",
                tuple(_expr(v) for v in node.values))
    if cls is ast.UnaryOp:
        op = {ast.Not: "not", ast.USub: "neg", ast.UAdd: "pos"}.get(node.op.__class__)
        if op is None:
            raise _Unsupported
        return (op, _expr(node.operand))
    if cls is ast.BinOp:
        op = _BINOPS.get(node.op.__class__)
        if op is None:
            raise _Unsupported
        return ("bin", op, _expr(node.left), _expr(node.right))
    if cls is ast.Compare and len(node.ops) == 1 and _chain(node.comparators[0]) == _ENVIRON \
            and node.ops[0].__class__ in (ast.In, ast.NotIn):
        return ("envin", _expr(node.left), node.ops[0].__class__ is ast.NotIn)
    if cls is ast.Compare:
        ops = []
        for op, right in zip(node.ops, node.comparators):
            ops.append((_CMPOPS[op.__class__], _expr(right)))
        return ("cmp", _expr(node.left), tuple(ops))
    if cls is ast.IfExp:
        return ("ifexp", _expr(node.test), _expr(node.body), _expr(node.orelse))
    if cls is ast.Subscript and _chain(node.value) == _ENVIRON and \
            node.slice.__class__ is not ast.Slice:
        return ("env", _expr(node.slice), None)  # None: KeyError when unset
    if cls is ast.Subscript:
        key = node.slice
        if key.__class__ is ast.Slice:
            parts = tuple(_expr(p) if p is not None else ("k", None)
                          for p in (key.lower, key.upper, key.step))
            return ("slice", _expr(node.value), parts)
        return ("sub", _expr(node.value), _expr(key))
    if cls is ast.Attribute:
        chain = _chain(node)
        if chain is not None and chain[1][-1] in VERSION_ATTRS:
            return ("ver", chain[0], chain[1])
        if node.attr in _OBJECT_ATTRS:  # of a PureObject only
            return ("attr", _expr(node.value), node.attr)
        raise _Unsupported
    if cls is ast.Call:
        if any(isinstance(a, ast.Starred) for a in node.args):
            raise _Unsupported
        args = tuple(_expr(a) for a in node.args)
        kwargs = tuple((k.arg, _expr(k.value)) for k in node.keywords)
        if _chain(node.func) in _ENV_GETS and 1 <= len(args) <= 2 and not kwargs:
            return ("env", args[0], args[1] if len(args) == 2 else ("k", None))
        dotted = _dotted(node.func)
        if dotted is not None and dotted in _STD_CALLS:  # os.path.join(...), glob.glob(...)
            return ("call", dotted, args, kwargs)
        if isinstance(node.func, ast.Attribute):
            if node.func.attr not in _METHOD_NAMES:
                chain = _chain(node.func)
                if chain is None or chain[1][-1] not in VERSION_CALLS or kwargs:
                    raise _Unsupported
                return ("xcall", chain[0], chain[1], args)
            return ("meth", _expr(node.func.value), node.func.attr, args, kwargs)
        if isinstance(node.func, ast.Name):
            return ("call", node.func.id, args, kwargs)
        raise _Unsupported
    if cls is ast.JoinedStr:
        parts = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                parts.append(("k", part.value))
            elif isinstance(part, ast.FormattedValue) and part.format_spec is None and \
                    part.conversion in (-1, ord("s")):
                parts.append(("str", _expr(part.value)))
            else:
                raise _Unsupported
        return ("fstr", tuple(parts))
    raise _Unsupported


def _chain(node) -> tuple[str, tuple[str, ...]] | None:
    """`a.b.c` -> ("a", ("b", "c")), else None."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    return (node.id, tuple(reversed(attrs))) if isinstance(node, ast.Name) and attrs else None


# the library functions a dotted call may name (dirlisting.py evaluates them), and the
# attributes and methods of the objects they return (PureObject)
_STD_CALLS = frozenset({f"{m}.{f}" for m in ("os.path", "posixpath") for f in (
    "basename", "dirname", "join", "splitext", "split", "normpath", "abspath", "realpath",
    "isfile",
    "isdir", "exists")} | {"os.listdir", "os.scandir", "glob.glob", "glob.iglob",
                           "pathlib.Path", "configparser.ConfigParser",
                           "configparser.RawConfigParser"})
_OBJECT_ATTRS = frozenset({"name", "path", "stem", "suffix", "parent", "__name__", "__file__"})
_OBJECT_METHODS = frozenset({"is_file", "is_dir", "exists", "iterdir", "glob", "resolve",
                             "absolute"}) | {
    # of a configparser parser (configfiles.ConfigValue)
    "read", "read_string", "sections", "options", "has_section", "has_option", "getint",
    "getfloat", "getboolean", "defaults"}


def _dotted(node) -> str | None:
    parts = []
    while node.__class__ is ast.Attribute:
        parts.append(node.attr)
        node = node.value
    if node.__class__ is not ast.Name or not parts:
        return None
    return ".".join([node.id, *reversed(parts)])


# -- evaluating --------------------------------------------------------------------------

class Release(tuple):
    """A parsed version (packaging.version.parse of a plain release such as "1.10.2"): its
    numbers without trailing zeros, compared as packaging compares them; only with another
    one."""

    __slots__ = ()

    @classmethod
    def parse(cls, text) -> "Release":
        parts = text.strip().lstrip("vV").split(".") if isinstance(text, str) else ()
        if not parts or not all(p.isdigit() and p.isascii() for p in parts):
            raise NoValue("a version that is not a plain release")
        numbers = [int(p) for p in parts]
        while len(numbers) > 1 and numbers[-1] == 0:
            numbers.pop()
        return cls(numbers)


class Function:
    """A compiled pure function and where its globals are: `scope` is handed back to the
    resolver for the names its body reads."""

    __slots__ = ("program", "scope")

    def __init__(self, program: tuple, scope):
        self.program = program
        self.scope = scope


_TYPES = {"str": str, "int": int, "float": float, "bool": bool, "bytes": bytes, "dict": dict,
          "list": list, "tuple": tuple, "set": set}
_SCALARS = (str, int, float, bool, bytes, type(None))
_DATA = _SCALARS + (tuple, list, dict, set)
_STR_METHODS = frozenset({
    "lower", "upper", "strip", "lstrip", "rstrip", "replace", "split", "rsplit", "join",
    "startswith", "endswith", "partition", "rpartition", "title", "capitalize", "casefold",
    "isdigit", "isalpha", "isalnum", "isidentifier", "isupper", "islower", "isspace", "count",
    "find", "rfind", "zfill", "splitlines", "removeprefix", "removesuffix", "format"})
_FORMATTER = string.Formatter()
_DICT_METHODS = frozenset({"items", "keys", "values", "get", "copy"})
_LIST_METHODS = frozenset({"index", "count", "copy"})
_MUTATING = frozenset({"append", "extend", "insert", "update", "setdefault", "add", "pop"})
_MUTATING_STATEMENTS = _MUTATING | {"read", "read_string"}  # as statements: `parser.read(f)`
_METHOD_NAMES = _STR_METHODS | _DICT_METHODS | _LIST_METHODS | _MUTATING | _OBJECT_METHODS


class PureObject:
    """A value a modelled library call returns (dirlisting.DirEntry): data with a few
    attributes and methods of its own, which it answers or refuses (NoValue)."""

    __slots__ = ()
    mutable = False  # a method changes it: never kept beyond the evaluation that made it
    takes_keywords = False  # `call` is given the keyword arguments too

    def attribute(self, attr: str):
        raise NoValue(attr)

    def call(self, method: str, args, sorting: bool = False):
        """`sorting`: the result goes to sorted() at once (its order is lost)."""
        raise NoValue(method)

    def binop(self, op: str, other):
        raise NoValue(op)

    def text(self) -> str:
        raise NoValue("str()")


class _Break(Exception):
    pass


class _Continue(Exception):
    pass


class _Return(Exception):
    def __init__(self, value):
        self.value = value


_MISSING = object()


class _Run:
    """One evaluation: its step budget, the call depth, and the containers it did not make
    (an argument's: mutating them would change data the simulator keeps elsewhere)."""

    def __init__(self, resolve, versions=None, environment=None):
        self.resolve = resolve  # (scope, name) -> ("data", value) | ("func", Function) | None
        # (scope, name, attrs, args) -> what `name.attrs` reads (args None) or returns when
        # called with args: a version string or a Release; raises NoValue
        self.versions = versions
        # (scope, variable) -> its value, None when unset; raises NoValue (`os` is not os)
        self.environment = environment
        self.steps = 0
        self.depth = 0
        self.foreign: set[int] = set()
        self.keep: list = []  # keeps foreign containers alive: their ids stay theirs
        # the call about to run is the argument of sorted() (or the first iterable of a
        # comprehension that is): the order it gives is not kept (take_sorting)
        self.sorting = False

    def take_sorting(self) -> bool:
        sorting, self.sorting = self.sorting, False
        return sorting

    def mark_foreign(self, value) -> None:
        stack = [value]
        while stack:
            v = stack.pop()
            if isinstance(v, (list, dict, set)):
                if id(v) in self.foreign:
                    continue
                self.foreign.add(id(v))
                self.keep.append(v)
                stack.extend(v.values() if isinstance(v, dict) else v)
            elif isinstance(v, tuple):
                stack.extend(v)

    # -- names --
    def name(self, name, env, scope):
        value = env.get(name, _MISSING) if env is not None else _MISSING
        if value is not _MISSING:
            return value
        found = self.resolve(scope, name)
        if found is None:
            raise NoValue(name)
        if found[0] == "data":
            self.mark_foreign(found[1])
        return found[1]

    # -- statements --
    def block(self, stmts, env, scope) -> None:
        for st in stmts:
            self.tick()
            kind = st[0]
            if kind == "ret":
                raise _Return(self.expr(st[1], env, scope))
            if kind == "if":
                self.block(st[2] if self.truth(self.expr(st[1], env, scope)) else st[3],
                           env, scope)
            elif kind == "set":
                self.assign(st[1], self.expr(st[2], env, scope), env)
            elif kind == "aug":
                current = env.get(st[1], _MISSING)
                value = self.expr(st[3], env, scope)
                if isinstance(current, (dict, set)) or current is _MISSING:
                    raise NoValue("augmented assignment")
                if isinstance(current, list):  # in place, as CPython's list +=
                    if st[2] != "+" or id(current) in self.foreign:
                        raise NoValue("augmented assignment")
                    current.extend(self.iterate(value))
                    self.sized(current)
                else:
                    env[st[1]] = self.binop(st[2], current, value)
            elif kind == "setitem":
                box = self.expr(st[1], env, scope)
                key = self.expr(st[2], env, scope)
                if not isinstance(box, (dict, list)) or id(box) in self.foreign:
                    raise NoValue("item assignment")
                box[key] = self.expr(st[3], env, scope)
            elif kind == "for":
                for item in self.iterate(self.expr(st[2], env, scope)):
                    self.assign(st[1], item, env)
                    try:
                        self.block(st[3], env, scope)
                    except _Break:
                        break
                    except _Continue:
                        continue
            elif kind == "break":
                raise _Break
            elif kind == "continue":
                raise _Continue
            elif kind == "do":
                self.expr(st[1], env, scope)

    def assign(self, target, value, env) -> None:
        if target.__class__ is str:
            env[target] = value
            return
        items = list(self.iterate(value))
        if len(items) != len(target):
            raise NoValue("unpacking")
        for t, v in zip(target, items):
            self.assign(t, v, env)

    def tick(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise NoValue("step budget")

    # -- expressions --
    def expr(self, node, env, scope):
        self.tick()
        kind = node[0]
        if kind == "k":
            return node[1]
        if kind == "n":
            return self.name(node[1], env, scope)
        if kind == "tuple":
            return tuple(self.elements(node[1], env, scope))
        if kind == "list":
            return self.sized(self.elements(node[1], env, scope))
        if kind == "set":
            return {self.hashable(e) for e in self.elements(node[1], env, scope)}
        if kind == "dict":
            return {self.hashable(self.expr(k, env, scope)): self.expr(v, env, scope)
                    for k, v in node[1]}
        if kind == "comp":
            return self.comprehension(node, env, scope)
        if kind == "and" or kind == "or":
            value = None
            for part in node[1]:
                value = self.expr(part, env, scope)
                if self.truth(value) == (kind == "or"):
                    return value
            return value
        if kind == "not":
            return not self.truth(self.expr(node[1], env, scope))
        if kind == "neg" or kind == "pos":
            value = self.expr(node[1], env, scope)
            if not isinstance(value, (int, float)):
                raise NoValue("unary operand")
            return -value if kind == "neg" else +value
        if kind == "bin":
            return self.binop(node[1], self.expr(node[2], env, scope),
                              self.expr(node[3], env, scope))
        if kind == "cmp":
            left = self.expr(node[1], env, scope)
            for op, right_node in node[2]:
                right = self.expr(right_node, env, scope)
                if not self.compare(op, left, right):
                    return False
                left = right
            return True
        if kind == "ifexp":
            return self.expr(node[2] if self.truth(self.expr(node[1], env, scope)) else node[3],
                             env, scope)
        if kind == "sub":
            box = self.expr(node[1], env, scope)
            key = self.expr(node[2], env, scope)
            if not isinstance(box, (str, bytes, tuple, list, dict)):
                raise NoValue("subscript")
            try:
                return box[key]
            except (KeyError, IndexError, TypeError) as err:
                raise NoValue("subscript") from err
        if kind == "slice":
            box = self.expr(node[1], env, scope)
            parts = [self.expr(p, env, scope) for p in node[2]]
            if not isinstance(box, (str, bytes, tuple, list)) or \
                    not all(p is None or p.__class__ is int for p in parts):
                raise NoValue("slice")
            return box[slice(*parts)]
        if kind == "fstr":
            return self.sized("".join(self.expr(p, env, scope) if p[0] == "k" else
                                      self.as_str(self.expr(p[1], env, scope))
                                      for p in node[1]))
        if kind == "call":
            return self.call(node, env, scope)
        if kind == "attr":
            owner = self.expr(node[1], env, scope)
            if not isinstance(owner, PureObject):
                raise NoValue("attribute")
            return owner.attribute(node[2])
        if kind == "meth":
            return self.method(node, env, scope)
        if kind == "env" or kind == "envin":
            if self.environment is None or (env is not None and "os" in env):
                raise NoValue(kind)
            name = self.expr(node[1], env, scope)
            if name.__class__ is not str:
                raise NoValue("a variable name that is not a string")
            value = self.environment(scope, name)
            if kind == "envin":
                return (value is not None) != node[2]
            if value is None:
                if node[2] is None:
                    raise NoValue("KeyError")  # os.environ[NAME] of an unset variable
                return self.expr(node[2], env, scope)
            return value
        if kind == "ver" or kind == "xcall":
            if self.versions is None or (env is not None and node[1] in env):
                raise NoValue(kind)  # (a local of that name is no module)
            args = None if kind == "ver" else [self.expr(a, env, scope) for a in node[3]]
            return self.versions(scope, node[1], node[2], args)
        raise NoValue(kind)

    def elements(self, nodes, env, scope) -> list:
        """The items of a display, `*iterable` ones unpacked in place."""
        out = []
        for e in nodes:
            if e[0] == "star":
                out.extend(self.iterate(self.expr(e[1], env, scope)))
            else:
                out.append(self.expr(e, env, scope))
            self.sized(out)
        return out

    def comprehension(self, node, env, scope):
        inner = dict(env) if env is not None else {}
        out_kind, elt, gens = node[1], node[2], node[3]
        out = {} if out_kind == "dict" else set() if out_kind == "set" else []

        def walk(level):
            if level == len(gens):
                if out_kind == "dict":
                    out[self.hashable(self.expr(elt[0], inner, scope))] = \
                        self.expr(elt[1], inner, scope)
                elif out_kind == "set":
                    out.add(self.hashable(self.expr(elt, inner, scope)))
                else:
                    out.append(self.expr(elt, inner, scope))
                if len(out) > MAX_SIZE:
                    raise NoValue("size")
                return
            target, iter_node, ifs = gens[level]
            # the first iterable is evaluated in the enclosing scope
            source = self.expr(iter_node, env if level == 0 else inner, scope)
            for item in self.iterate(source):
                self.assign(target, item, inner)
                if all(self.truth(self.expr(test, inner, scope)) for test in ifs):
                    walk(level + 1)

        walk(0)
        return out

    def call(self, node, env, scope):
        name, arg_nodes, kw_nodes = node[1], node[2], node[3]
        try:
            func = self.name(name, env, scope)
        except NoValue:
            if self.versions is None or kw_nodes or (env is not None and name in env):
                raise
            # `version("dist")` after `from importlib.metadata import version`
            return self.versions(scope, name, (), [self.expr(a, env, scope) for a in arg_nodes])
        if func is CAST and len(arg_nodes) == 2 and not kw_nodes:
            return self.expr(arg_nodes[1], env, scope)  # typing.cast(T, x) is x; T unread
        sorting = self.take_sorting()
        if func is BUILTINS["sorted"] and len(arg_nodes) == 1:
            # sorted(listing(...)), sorted(x for x in listing(...) ...): its order is lost
            arg = arg_nodes[0]
            self.sorting = arg[0] in ("call", "meth") or arg[0] == "comp" and \
                arg[1] != "dict" and arg[3][0][1][0] in ("call", "meth")
        args = [self.expr(a, env, scope) for a in arg_nodes]
        kwargs = self.keywords(kw_nodes, env, scope)
        self.sorting = False
        if isinstance(func, Function):
            return self.call_function(func, args, kwargs)
        if isinstance(func, _Builtin):
            self.sorting = sorting and func.takes_sorting
            try:
                return func.run(self, args, kwargs)
            finally:
                self.sorting = False
        raise NoValue(f"call of {name}")

    def keywords(self, nodes, env, scope) -> dict:
        """Keyword arguments, `**mapping` (key None) unpacked as CPython does."""
        out = {}
        for key, node in nodes:
            value = self.expr(node, env, scope)
            if key is not None:
                if key in out:
                    raise NoValue("repeated keyword")
                out[key] = value
                continue
            if value.__class__ is not dict or not all(k.__class__ is str for k in value) or \
                    out.keys() & value.keys():
                raise NoValue("** of no mapping of names")
            out.update(value)
        return out

    def call_function(self, func: Function, args, kwargs):
        params, defaults, body = func.program
        if len(args) > len(params):
            raise NoValue("arguments")
        env = dict(zip(params, args))
        for key, value in kwargs.items():
            if key not in params or key in env:
                raise NoValue("arguments")
            env[key] = value
        for name, default in defaults:
            if name not in env:
                env[name] = self.expr(default, None, func.scope)
        if len(env) != len(params):
            raise NoValue("arguments")
        self.depth += 1
        if self.depth > MAX_CALL_DEPTH:
            raise NoValue("call depth")
        try:
            self.block(body, env, func.scope)
        except _Return as ret:
            return ret.value
        except (_Break, _Continue) as err:
            raise NoValue("loop control") from err
        finally:
            self.depth -= 1
        return None

    def method(self, node, env, scope):
        sorting = self.take_sorting()
        owner = self.expr(node[1], env, scope)
        name = node[2]
        args = [self.expr(a, env, scope) for a in node[3]]
        kwargs = self.keywords(node[4], env, scope)
        self.sorting = False
        if isinstance(owner, PureObject):
            if owner.takes_keywords:
                return owner.call(name, args, sorting, kwargs)
            if kwargs:
                raise NoValue(f"method {name}")
            return owner.call(name, args, sorting)
        cls = owner.__class__
        allowed = _STR_METHODS if cls is str else _DICT_METHODS if cls is dict else \
            _LIST_METHODS if cls is list or cls is tuple else frozenset()
        if name in _MUTATING and cls in (list, dict, set):
            if id(owner) in self.foreign:
                raise NoValue("mutation of data the call did not make")
            allowed = _MUTATING
        if name not in allowed or not all(isinstance(a, _DATA) for a in args) or \
                not all(isinstance(a, _DATA) for a in kwargs.values()):
            raise NoValue(f"method {name}")
        if cls is str and name == "format" and (not all(
                isinstance(a, _SCALARS) for a in (*args, *kwargs.values())) or any(
                field and not (field.isdigit() or field.isidentifier())
                for _, field, _, _ in _FORMATTER.parse(owner))):
            raise NoValue("format of a container or of an attribute")
        if cls is str and name == "join":
            parts = list(self.iterate(args[0])) if len(args) == 1 else None
            if parts is None or not all(isinstance(p, str) for p in parts):
                raise NoValue("join")
            args = [parts]
        try:
            result = getattr(owner, name)(*args, **kwargs)
        except (TypeError, ValueError, KeyError, IndexError, AttributeError) as err:
            raise NoValue(f"method {name}") from err
        if name in ("items", "keys", "values"):
            result = list(result)
        return self.sized(result)

    # -- operations on data --
    def truth(self, value) -> bool:
        if not isinstance(value, _DATA):
            raise NoValue("truth of a non-data value")
        return bool(value)

    def iterate(self, value):
        if isinstance(value, (str, bytes, tuple, list)):
            return list(value)
        if isinstance(value, dict):
            return list(value)
        raise NoValue("iteration")  # a set's order depends on the process's hash seed

    def hashable(self, value):
        if isinstance(value, (list, dict, set)):
            raise NoValue("unhashable")
        return value

    def sized(self, value):
        if isinstance(value, (str, bytes, list, tuple, dict, set)) and len(value) > MAX_SIZE:
            raise NoValue("size")
        return value

    def as_str(self, value) -> str:
        if isinstance(value, PureObject):
            return value.text()
        if not _plain(value):
            raise NoValue("str of a non-data value")
        return self.sized(str(value))

    def binop(self, op, left, right):
        if isinstance(left, PureObject):  # a pathlib.Path's `/`
            return left.binop(op, right)
        if not isinstance(left, _DATA) or not isinstance(right, _DATA):
            raise NoValue("operand")
        if op == "*" and (isinstance(left, (str, bytes, list, tuple)) or
                          isinstance(right, (str, bytes, list, tuple))):
            times = right if isinstance(left, (str, bytes, list, tuple)) else left
            seq = left if times is right else right
            if times.__class__ is not int or len(seq) * max(times, 0) > MAX_SIZE:
                raise NoValue("size")
        if op == "%" and isinstance(left, str) and not _plain(right):
            raise NoValue("format of a container")
        try:
            result = _BINARY[op](left, right)
        except (TypeError, ValueError, ZeroDivisionError, OverflowError) as err:
            raise NoValue(f"operator {op}") from err
        if isinstance(result, int) and not isinstance(result, bool) and \
                result.bit_length() > 4096:
            raise NoValue("size")
        return self.sized(result)

    def compare(self, op, left, right) -> bool:
        if not isinstance(left, _DATA) or not isinstance(right, _DATA):
            raise NoValue("comparison of a non-data value")
        if (left.__class__ is Release) != (right.__class__ is Release):
            raise NoValue("a version compared with another kind of value")
        if op in ("is", "is not"):
            # identity of fresh containers or numbers is CPython's business: only singletons
            if not any(v is None or v is True or v is False for v in (left, right)):
                raise NoValue("identity")
            return (left is right) == (op == "is")
        try:
            return bool(_COMPARE[op](left, right))
        except TypeError as err:
            raise NoValue("comparison") from err


def _plain(value, objects: bool = False) -> bool | None:
    """Data whose str() is the same in every process: True; False when a set is inside (its
    order is the hash seed's), or (with `objects`) a PureObject; None when something inside
    is not data at all."""
    stack = [value]
    plain: bool | None = True
    while stack:
        v = stack.pop()
        if objects and isinstance(v, PureObject):
            plain = False
        elif isinstance(v, set):
            plain = False
            stack.extend(v)
        elif isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
        elif not isinstance(v, _SCALARS):
            return None
    return plain


_BINARY = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
           "/": lambda a, b: a / b, "//": lambda a, b: a // b, "%": lambda a, b: a % b,
           "|": lambda a, b: a | b, "&": lambda a, b: a & b, "^": lambda a, b: a ^ b}
_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
            "in": lambda a, b: a in b, "not in": lambda a, b: a not in b}


class _Builtin:
    """A builtin the evaluator may call: on data only, with its own checks."""

    __slots__ = ("name",)
    takes_sorting = False  # run() asks whether its result is sorted right away

    def __init__(self, name: str):
        self.name = name

    def run(self, run: _Run, args, kwargs):
        name = self.name
        if name == "isinstance":
            if len(args) != 2 or kwargs:
                raise NoValue("isinstance")
            types = args[1] if isinstance(args[1], tuple) else (args[1],)
            if not isinstance(args[0], _DATA) or not all(isinstance(t, _TypeName) for t in types):
                raise NoValue("isinstance")
            return isinstance(args[0], tuple(_TYPES[t.name] for t in types))
        if name == "str" and len(args) == 1 and not kwargs and isinstance(args[0], PureObject):
            return args[0].text()  # a pathlib.Path's
        if not all(isinstance(a, _DATA) and _plain(a, True) is not None for a in
                   (*args, *kwargs.values())):
            raise NoValue(f"{name}() of a non-data value")
        if name in ("list", "tuple", "sorted", "min", "max", "sum", "any", "all",
                    "enumerate", "zip", "reversed", "dict", "set"):
            return run.sized(self._sequence(run, name, args, kwargs))
        if kwargs:
            raise NoValue(f"{name}() keywords")
        if name == "len" and len(args) == 1:
            return len(args[0])
        if name == "bool" and len(args) <= 1:
            return run.truth(args[0]) if args else False
        if name == "str" and len(args) <= 1:
            return run.as_str(args[0]) if args else ""
        if name in ("int", "float", "abs", "ord", "chr", "repr") and len(args) == 1 and (
                name != "repr" or _plain(args[0])) and (
                name in ("int", "float", "repr") or not isinstance(args[0], (list, dict))):
            try:
                return run.sized({"int": int, "float": float, "abs": abs, "ord": ord,
                                  "chr": chr, "repr": repr}[name](args[0]))
            except (TypeError, ValueError, OverflowError) as err:
                raise NoValue(name) from err
        if name == "range" and 1 <= len(args) <= 3 and all(a.__class__ is int for a in args):
            values = range(*args)
            if len(values) > MAX_SIZE:
                raise NoValue("size")
            return list(values)
        raise NoValue(f"{name}()")

    @staticmethod
    def _sequence(run: _Run, name, args, kwargs):
        if name == "dict":
            if len(args) > 1:
                raise NoValue("dict()")
            out = {}
            if args:
                source = args[0].items() if isinstance(args[0], dict) else \
                    run.iterate(args[0])
                for pair in source:
                    items = run.iterate(pair) if not isinstance(pair, tuple) else pair
                    if len(items) != 2:
                        raise NoValue("dict()")
                    out[run.hashable(items[0])] = items[1]
            out.update(kwargs)
            return out
        if name == "sorted":
            if len(args) != 1 or set(kwargs) - {"reverse"}:
                raise NoValue("sorted()")
            items = sorted(args[0]) if isinstance(args[0], set) else run.iterate(args[0])
            try:
                return sorted(items, reverse=bool(kwargs.get("reverse", False)))
            except TypeError as err:
                raise NoValue("sorted()") from err
        if kwargs:
            raise NoValue(f"{name}() keywords")
        if name in ("min", "max") and len(args) > 1:
            items = list(args)
        elif name == "zip":
            return [tuple(t) for t in zip(*(run.iterate(a) for a in args))]
        elif len(args) == 1 and name in ("len", "min", "max", "any", "all") and \
                isinstance(args[0], set):
            items = sorted(args[0], key=repr)  # order does not change these answers
        elif len(args) == 1:
            items = run.iterate(args[0])
        elif not args and name in ("list", "tuple", "set"):
            items = []
        else:
            raise NoValue(f"{name}()")
        try:
            if name == "list":
                return list(items)
            if name == "tuple":
                return tuple(items)
            if name == "set":
                return {run.hashable(i) for i in items}
            if name == "enumerate":
                return list(enumerate(items))
            if name == "reversed":
                return list(reversed(items))
            if name == "sum":
                if not all(i.__class__ in (int, bool) for i in items):
                    raise NoValue("sum()")  # a float sum depends on the order
                return sum(items)
            return {"min": min, "max": max, "any": any, "all": all}[name](
                [run.truth(i) for i in items] if name in ("any", "all") else items)
        except (TypeError, ValueError) as err:
            raise NoValue(f"{name}()") from err


class _TypeName(_Builtin):
    """A builtin type: callable as its constructor, and an isinstance() argument."""

    __slots__ = ()


BUILTINS = {name: (_TypeName(name) if name in _TYPES else _Builtin(name)) for name in (
    "isinstance", "len", "bool", "str", "int", "float", "abs", "ord", "chr", "repr", "range",
    "list", "tuple", "sorted", "min", "max", "sum", "any", "all", "enumerate", "zip",
    "reversed", "dict", "set", "bytes")}
CAST = _Builtin("typing.cast")  # handled by _Run.call: its first argument is not evaluated


def evaluate(program: tuple, resolve, scope, env: dict | None = None, versions=None,
             environment=None):
    """The value of an expression program, names read through `resolve(scope, name)`
    (("data", value), ("func", Function) or None) after `env`, installed versions through
    `versions` and environment variables through `environment` (see _Run); raises
    NoValue."""
    run = _Run(resolve, versions, environment)
    for given in (env or {}).values():
        run.mark_foreign(given)
    try:
        return run.expr(program, env, scope)
    except (_Return, _Break, _Continue, RecursionError) as err:
        raise NoValue("control flow") from err
    except (TypeError, ValueError, KeyError, IndexError, AttributeError, ZeroDivisionError,
            OverflowError, MemoryError) as err:
        raise NoValue("an exception") from err  # CPython would raise: no value either
