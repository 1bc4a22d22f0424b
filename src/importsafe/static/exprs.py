"""Expressions -> the reads and calls they make when evaluated, in evaluation order.

Iterative on purpose: generated code nests expressions thousands deep (sympy's
`resolvent_lookup.py`), which breaks recursive visitors.
"""
from __future__ import annotations

import ast
import string
from dataclasses import replace

from .events import (Bind, Call, ComputedImport, Escape, GetAttr, If, Import, SetAttr,
                     SetItem, Use)

_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_SKIP_FIELDS = frozenset({"ctx", "op", "ops", "kind", "type_comment", "conversion", "is_async",
                          "simple", "level", "id", "attr", "arg"})
_FIELDS: dict[type, tuple[str, ...]] = {}


def _fields(cls) -> tuple[str, ...]:
    fields = _FIELDS.get(cls)
    if fields is None:
        fields = _FIELDS[cls] = tuple(f for f in cls._fields if f not in _SKIP_FIELDS)
    return fields


def attr_chain(node) -> tuple[str, tuple[str, ...]] | None:
    """`a.b.c` -> ("a", ("b", "c")); `a` -> ("a", ()); anything else -> None."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return node.id, tuple(reversed(attrs))
    return None


MAX_PARTS = 64


def spell(node) -> tuple | None:
    """The parts a string expression is made of, for the simulator to join when it runs:
    strings, ("modname",) / ("pkg",) the module's __name__ / __package__, ("ref", name,
    attrs) a value read then, ("get" | "item", name, key parts) a literal dict's entry,
    ("replace", parts, old, new) `.replace` of literal strings. From constants, names,
    f-strings, `+`, `%`, `.format`, `.replace` and `.join` of literal lists; None for
    anything else."""
    parts = _spell(node, 0)
    return tuple(parts) if parts is not None and len(parts) <= MAX_PARTS else None


def _spell(node, depth: int) -> list | None:
    if depth > 20:
        return None
    cls = node.__class__
    if cls is ast.Constant:
        return [node.value] if isinstance(node.value, str) else None
    if cls is ast.Name or cls is ast.Attribute:
        chain = attr_chain(node)
        if chain is None:
            return None
        if chain == ("__name__", ()):
            return [("modname",)]
        if chain in (("__package__", ()), ("__spec__", ("parent",))):
            return [("pkg",)]
        return [("ref", chain[0], chain[1])]
    if cls is ast.JoinedStr:
        out: list = []
        for value in node.values:
            if value.__class__ is ast.Constant:
                out.append(value.value)
            elif value.conversion in (-1, 115) and value.format_spec is None:
                inner = _spell(value.value, depth + 1)
                if inner is None:
                    return None
                out.extend(inner)
            else:
                return None
        return out
    if cls is ast.BinOp and isinstance(node.op, ast.Add):
        left, right = _spell(node.left, depth + 1), _spell(node.right, depth + 1)
        return left + right if left is not None and right is not None else None
    if cls is ast.BinOp and isinstance(node.op, ast.Mod) and isinstance(node.left, ast.Constant) \
            and isinstance(node.left.value, str):
        text = node.left.value.replace("%%", "\0")
        if text.replace("%s", "").count("%"):
            return None
        args = node.right.elts if isinstance(node.right, ast.Tuple) else [node.right]
        return _interleave(text.split("%s"), args, depth, "%")
    if cls is ast.Subscript and isinstance(node.value, ast.Name):
        key = _spell(node.slice, depth + 1)
        return [("item", node.value.id, tuple(key))] if key is not None else None
    if cls is ast.Call and isinstance(node.func, ast.Attribute) and not node.keywords and \
            not any(isinstance(a, ast.Starred) for a in node.args):
        return _spell_method(node, depth)
    return None


def _spell_method(node, depth: int) -> list | None:
    func, args = node.func, node.args
    base = func.value
    if func.attr == "get" and isinstance(base, ast.Name) and len(args) == 1:
        key = _spell(args[0], depth + 1)
        return [("get", base.id, tuple(key))] if key is not None else None
    if func.attr == "replace" and len(args) == 2 and all(
            isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args):
        inner = _spell(base, depth + 1)
        return [("replace", tuple(inner), args[0].value, args[1].value)] \
            if inner is not None else None
    if not isinstance(base, ast.Constant) or not isinstance(base.value, str):
        return None
    if func.attr == "join" and len(args) == 1 and isinstance(args[0], (ast.List, ast.Tuple)):
        items = args[0].elts
        return _interleave([""] + [base.value] * (len(items) - 1) + [""], items, depth, "")
    if func.attr == "format":
        texts: list = []
        try:
            fields = list(string.Formatter().parse(base.value))
        except ValueError:
            return None
        for i, (literal, field, spec, conversion) in enumerate(fields):
            texts.append(literal)
            if field is None:
                continue
            if spec or conversion or field not in ("", str(len(texts) - 1)):
                return None
        if fields and fields[-1][1] is not None:
            texts.append("")
        return _interleave(texts, args, depth, "")
    return None


def _interleave(texts: list, args: list, depth: int, escaped: str) -> list | None:
    """texts[0] args[0] texts[1] ... texts[-1], the args spelled."""
    if len(texts) != len(args) + 1:
        return None
    out: list = []
    for i, text in enumerate(texts):
        if text:
            out.append(text.replace("\0", escaped) if escaped else text)
        if i < len(args):
            inner = _spell(args[i], depth + 1)
            if inner is None:
                return None
            out.extend(inner)
    return out


def getattr_read(call: ast.Call, import_call=None) -> tuple | None:
    """`getattr(name, <spelled>)` without a default -> (name, parts); with `import_call`,
    also `getattr(<import call>, <spelled>)` -> ("", parts), what the call returned."""
    if isinstance(call.func, ast.Name) and call.func.id == "getattr" and len(call.args) == 2 \
            and not call.keywords:
        first = call.args[0]
        if isinstance(first, ast.Name) or import_call is not None and isinstance(
                first, ast.Call) and import_call(first) is not None:
            parts = spell(call.args[1])
            if parts is not None:
                return (first.id if isinstance(first, ast.Name) else ""), parts
    return None


def _shadowed(parts: tuple, shadow) -> bool:
    """Does a spelled string read a comprehension's variable (not the module's)?"""
    for p in parts:
        if p.__class__ is tuple and p[0] == "replace":
            if _shadowed(p[1], shadow):
                return True
        elif p.__class__ is tuple and len(p) > 1 and (
                p[1] in shadow or p[0] in ("get", "item") and _shadowed(p[2], shadow)):
            return True
    return False


_JOIN = (("os", ("path", "join")), ("posixpath", ("join",)))
_DIRNAME = (("os", ("path", "dirname")), ("posixpath", ("dirname",)))
_NORMALISE = frozenset({("os", ("path", "abspath")), ("os", ("path", "realpath")),
                        ("os", ("path", "normpath"))})
_AS_PATH = frozenset({("Path", ()), ("pathlib", ("Path",)), ("PurePath", ()),
                      ("pathlib", ("PurePath",)), ("str", ()), ("os", ("fspath",))})
MAX_PATH_DEPTH = 12
PATH_NODES = (ast.Attribute, ast.Call, ast.BinOp)  # arguments that may be locations


def path_spec(node, names=None, line: int = 0, depth: int = 0):
    """How a location is computed: ("file",) `__file__`, ("s", text), ("ref", name) a value
    read when it runs (a parameter), ("dir", spec), ("join", specs), ("norm", spec),
    ("cat", spec, spec) `+`, ("fmt", parts) a spelled string; None when it is none of
    these. `names` (execfile.Assignments) gives the value a local name holds on `line`; in
    such a value (depth > 0), a name the scope binds again must be followed too, as it is
    read later than the value was computed."""
    if depth > MAX_PATH_DEPTH:
        return None
    cls = node.__class__
    if cls is ast.Constant:
        return ("s", node.value) if isinstance(node.value, str) else None
    if cls is ast.Name:
        if node.id == "__file__":
            return ("file",)
        held = names.value_at(node, line) if names is not None else None
        if held is not None:
            return path_spec(held[1], names, held[0], depth + 1)
        return None if depth and names is not None and names.binds(node.id) else \
            ("ref", node.id)
    if cls is ast.Attribute and node.attr == "parent":
        inner = path_spec(node.value, names, line, depth + 1)
        return ("dir", inner) if inner is not None else None
    if cls is ast.BinOp and isinstance(node.op, (ast.Div, ast.Add)):
        left = path_spec(node.left, names, line, depth + 1)
        right = path_spec(node.right, names, line, depth + 1)
        if left is None or right is None:
            return None
        return ("join", (left, right)) if isinstance(node.op, ast.Div) else ("cat", left, right)
    if cls is ast.Call and not node.keywords and not any(
            isinstance(a, ast.Starred) for a in node.args):
        chain = attr_chain(node.func)
        method = node.func.attr if isinstance(node.func, ast.Attribute) else None
        if not (chain in _JOIN or chain in _DIRNAME or chain in _NORMALISE or chain in _AS_PATH
                or method in ("resolve", "absolute", "joinpath")):
            return None
        args = [path_spec(a, names, line, depth + 1) for a in node.args]
        if None in args:
            return None
        if chain in _JOIN or chain in _AS_PATH and len(args) > 1:
            return ("join", tuple(args)) if args else None
        if len(args) == 1 and (chain in _DIRNAME or chain in _NORMALISE or chain in _AS_PATH):
            return ("dir", args[0]) if chain in _DIRNAME else \
                ("norm", args[0]) if chain in _NORMALISE else args[0]
        if isinstance(node.func, ast.Attribute):
            base = path_spec(node.func.value, names, line, depth + 1)
            if base is not None and node.func.attr in ("resolve", "absolute") and not args:
                return ("norm", base)
            if base is not None and node.func.attr == "joinpath" and args:
                return ("join", (base, *args))
        return None
    if cls is ast.JoinedStr or cls is ast.BinOp and isinstance(node.op, ast.Mod):
        parts = spell(node)
        if parts is None or depth and names is not None and any(
                p.__class__ is tuple and len(p) > 1 and names.binds(p[1]) for p in parts):
            return None
        return ("fmt", parts)
    return None


def anchored(spec) -> bool:
    """Does the spec start from `__file__` (a location in the analysed tree)?"""
    kind = spec[0]
    if kind == "file":
        return True
    if kind == "join":
        return any(anchored(s) for s in spec[1])
    if kind in ("dir", "norm", "cat"):
        return anchored(spec[1])
    return False


def passed_arguments(call: ast.Call) -> tuple | None:
    """(number of positional arguments, keyword names, 0, the literal arguments: (position or
    keyword, value) pairs[, the arguments that are names: (position or keyword, name)
    pairs[, the locations computed from `__file__`: (position or keyword, path_spec)
    pairs[, entries of names' values: (position or keyword, ("index", name, keys))[, dict
    displays: (position or keyword, the value as the simulator holds it:
    shapes._dict_value)]]]]), or None with *args / **kwargs."""
    if any(isinstance(a, ast.Starred) for a in call.args) or \
            any(k.arg is None for k in call.keywords):
        return None
    literals = tuple((i, a.value) for i, a in enumerate(call.args) if _literal(a)) + \
        tuple((k.arg, k.value.value) for k in call.keywords if _literal(k.value))
    given = (*enumerate(call.args), *((k.arg, k.value) for k in call.keywords))
    names = tuple((key, a.id if a.__class__ is ast.Name else OWN_MODULE) for key, a in given
                  if a.__class__ is ast.Name or _own_module(a))
    paths = tuple((key, spec) for key, a in given if a.__class__ in PATH_NODES and
                  (spec := path_spec(a)) is not None and anchored(spec))
    items = tuple((key, found) for key, a in given if a.__class__ is ast.Subscript and
                  (found := _entry_of(a)) is not None)
    displays = ()
    if any(a.__class__ is ast.Dict for _, a in given):
        from .shapes import _dict_value  # shapes reads this module's helpers
        displays = tuple((key, found) for key, a in given if a.__class__ is ast.Dict and
                         (found := _dict_value(a)) is not None)
    passed = len(call.args), tuple(k.arg for k in call.keywords), 0, literals
    if displays:
        return passed + (names, paths, items, displays)
    if items:
        return passed + (names, paths, items)
    return passed + (names, paths) if paths else passed + (names,) if names else passed


NEW = "()"  # in a Call's attrs: what the call of the chain before it returns


def _zero_argument_super(node) -> bool:
    return node.__class__ is ast.Call and node.func.__class__ is ast.Name and \
        node.func.id == "super" and not node.args and not node.keywords


def _entry_of(node) -> tuple | None:
    """`NAME[k1][k2]...` with every key spelled: ("index", NAME, keys), as a Bind's value
    (namespaces.index_value)."""
    keys = []
    while node.__class__ is ast.Subscript:
        key = spell(node.slice) if node.slice.__class__ is not ast.Slice else None
        if key is None:
            return None
        keys.append(key)
        node = node.value
    return ("index", node.id, tuple(reversed(keys))) if node.__class__ is ast.Name else None


OWN_MODULE = "sys.modules[__name__]"  # an argument that is the calling module itself


def _own_module(node) -> bool:
    """`sys.modules[__name__]`."""
    return node.__class__ is ast.Subscript and attr_chain(node.value) == ("sys", ("modules",)) \
        and node.slice.__class__ is ast.Name and node.slice.id == "__name__"


def _literal(node) -> bool:
    """A constant a called function's conditions and import names may use."""
    return node.__class__ is ast.Constant and (node.value is None or node.value.__class__ in (
        bool, int, str) and (node.value.__class__ is not str or len(node.value) < 256))


def _target_names(node, out: list[str]) -> None:
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name):
            out.append(n.id)
        elif isinstance(n, (ast.Tuple, ast.List)):
            stack.extend(n.elts)
        elif isinstance(n, ast.Starred):
            stack.append(n.value)


_CONSUMERS = frozenset({"tuple", "list", "set", "frozenset", "sorted"})


def _loop_of(node, consumed: set, filtering: bool = False) -> tuple | None:
    """(name, source) of a comprehension that evaluates its element once per value of a
    known iterable, in order (`tuple(import_module(n) for n in NAMES)`): one generator over a
    Name target, no `if`; a generator expression only where a builtin consumes it at once.
    `filtering`: the same for its first `if`, which runs once per value whatever the others
    do (`[d for d in DEPS if not find_spec(d)]`)."""
    if node.__class__ is ast.DictComp or len(node.generators) != 1 or \
            node.__class__ is ast.GeneratorExp and id(node) not in consumed:
        return None
    gen = node.generators[0]
    if (not gen.ifs if filtering else gen.ifs) or gen.is_async or \
            gen.target.__class__ is not ast.Name:
        return None
    from .shapes import _literal_values, _loop_source  # shapes imports this module
    values = _literal_values(gen.iter)
    source = ("values", values) if values is not None else _loop_source(gen.iter)
    chain = attr_chain(gen.iter) if source is None else None
    if chain is not None:  # `for n in compat.NAMES`: another module's tuple, when it runs
        source = ("attr", chain[0], chain[1])
    if source is None or source[0] not in ("values", "name", "attr"):
        return None
    return gen.target.id, source


def _comprehension(node, stack: list, consumed: set = frozenset()) -> None:
    """Push a comprehension so it runs as CPython does: the first iterable in the enclosing
    scope, everything else in a scope where the loop targets are local."""
    gens = node.generators
    names: list[str] = []
    for gen in gens:
        _target_names(gen.target, names)
    inner: list = []  # in evaluation order
    loop = _loop_of(node, consumed)
    filtering = _loop_of(node, consumed, filtering=True)
    for i, gen in enumerate(gens):
        if i:
            inner.append(gen.iter)
        if not i and filtering is not None:  # the first `if` runs once per value
            inner.extend((("loop", filtering), gen.ifs[0], ("loop", None), *gen.ifs[1:]))
        else:
            inner.extend(gen.ifs)
    if isinstance(node, ast.DictComp):
        inner.extend((node.key, node.value))
    else:
        inner.append(node.elt)
    stack.append(("pop", names))
    stack.extend(reversed(inner))
    stack.append(("push", names, loop))
    stack.append(gens[0].iter)


MAX_SHORT_CIRCUITS = 8  # nested `and` / `or` lowered to an If each; deeper ones read all


def expr_events(root, import_call=None, decide=None, environ=None, branch=None,
                depth: int = 0) -> list:
    """Events of evaluating `root` now. `import_call(call)` recognises literal import calls;
    `decide(test)` -> "true" | "false" | "unknown" prunes conditional expressions and
    short-circuiting `and` / `or` that are decided statically; `environ(subscript)` is the
    event of an `os.environ[NAME]` read that raises, or None. `branch(operand)` -> (the If
    test of an operand, its environment reads): an `and` / `or` not decided statically
    evaluates the rest under an `If` on its first operand, which the simulator decides when
    it runs or replays both ways."""
    out: list = []
    shadow: dict[str, int] = {}
    loops: list = []  # the loop (comprehension._loop_of) of each comprehension we are in
    consumed: set[int] = set()  # generator expressions a builtin consumes at once
    stack: list = [root]
    while stack:
        node = stack.pop()
        cls = node.__class__
        if cls is tuple:
            tag = node[0]
            if tag == "call":
                out.append(Call(node[1], node[2], node[3], node[4]))
            elif tag == "bind":
                out.append(Bind(node[1], (node[2],)))
            elif tag == "event":
                out.append(node[1])
            elif tag == "loop":  # the part of the comprehension that runs once per value
                loops[-1] = node[1]
            elif tag == "push":
                for n in node[1]:
                    shadow[n] = shadow.get(n, 0) + 1
                loops.append(node[2])
            else:
                loops.pop()
                for n in node[1]:
                    shadow[n] -= 1
                    if not shadow[n]:
                        del shadow[n]
            continue
        if cls is ast.Name:
            if node.id not in shadow and node.ctx.__class__ is ast.Load:
                out.append(Use(node.lineno, node.id))
            continue
        if cls is ast.Constant:
            continue
        if cls is ast.Attribute:
            chain = attr_chain(node)
            if chain is None and node.value.__class__ is ast.Call and import_call is not None \
                    and import_call(node.value) is not None:
                # `import_module("m").x`: reads x of what the call returns, after it
                stack.append(("event", GetAttr(node.lineno, "", (node.attr,))))
                stack.append(node.value)
            elif chain is None:
                stack.append(node.value)
            elif chain[0] not in shadow:
                out.append(Use(node.lineno, chain[0], chain[1]))
            continue
        if cls is ast.Call and node.func.__class__ is ast.Attribute and \
                node.func.attr in CHANGING and attr_chain(node.func) is None:
            root = _receiver_root(node.func.value)
            if root is not None and root not in shadow:
                stack.append(("event", Escape(node.lineno, (root,))))
        if cls is ast.Call:
            if node.func.__class__ is ast.Name and node.func.id in _CONSUMERS and \
                    len(node.args) == 1 and node.args[0].__class__ is ast.GeneratorExp:
                consumed.add(id(node.args[0]))
            found = import_call(node) if import_call is not None else None
            if found is not None and found[0] == "computed":
                ev = found[1]
                parts = getattr(ev, "parts", None)
                if ev.__class__ is ComputedImport and len(loops) == 1 and loops[0] and \
                        set(shadow) == {loops[0][0]}:
                    ev = replace(ev, loop=loops[0])  # one import per value, in order
                elif parts is not None and _shadowed(parts, shadow) or \
                        shadow and not hasattr(ev, "parts"):  # ExecSource in a comprehension
                    ev = ComputedImport(ev.line, getattr(ev, "call", "exec_module"), None,
                                        why="its name is computed from a comprehension's "
                                        "variable", col=ev.col)
                stack.append(("event", ev))  # after its arguments are evaluated
                for kw in reversed(node.keywords):
                    stack.append(kw.value)
                stack.extend(reversed(node.args))
                continue
            if found is not None:
                out.append(Import(node.lineno, found[1], call=found[2], col=node.col_offset))
                continue
            read = getattr_read(node, import_call) if import_call is not None else None
            if read is not None and not _shadowed((("ref", read[0], ()),) + read[1], shadow):
                stack.append(("event", GetAttr(node.lineno, read[0], read[1])))
            chain = attr_chain(node.func)
            if chain is not None and chain[0] not in shadow:
                stack.append(("call", node.lineno, chain[0], chain[1], passed_arguments(node)))
            elif chain is None and node.func.__class__ is ast.Attribute and \
                    _zero_argument_super(node.func.value) and "super" not in shadow:
                # `super().__init__(...)`: a Call of ("super", (attr,)) (callreplay.py)
                stack.append(("call", node.lineno, "super", (node.func.attr,),
                              passed_arguments(node)))
            elif chain is None and node.func.__class__ is ast.Attribute and \
                    node.func.value.__class__ is ast.Call and \
                    (made := attr_chain(node.func.value.func)) is not None and \
                    made[0] not in shadow and made[0] != "super":
                # `Loader().load(...)`: a method of the object a call made, after that call
                # (a Call of (name, (*attrs, NEW, method)), callreplay.py)
                stack.append(("call", node.lineno, made[0], (*made[1], NEW, node.func.attr),
                              passed_arguments(node)))
            for kw in reversed(node.keywords):
                stack.append(kw.value)
            stack.extend(reversed(node.args))
            stack.append(node.func)
            continue
        if cls is ast.Lambda:
            args = node.args
            stack.extend(d for d in reversed(args.kw_defaults) if d is not None)
            stack.extend(reversed(args.defaults))
            continue
        if cls in _COMPREHENSIONS:
            _comprehension(node, stack, consumed)
            continue
        if decide is not None and cls is ast.IfExp:
            cond = decide(node.test)[0]
            if cond != "unknown":
                stack.append(node.body if cond == "true" else node.orelse)
                stack.append(node.test)
                continue
        if decide is not None and cls is ast.BoolOp:
            settles = "false" if isinstance(node.op, ast.And) else "true"
            values = []
            for value in node.values:
                values.append(value)
                if decide(value)[0] == settles:
                    break  # the rest is never evaluated
            if branch is not None and len(values) > 1 and not shadow and \
                    depth < MAX_SHORT_CIRCUITS:
                # (inside a comprehension the rest would lose its variables: read all)
                test, env = branch(values[0])
                rest = values[1] if len(values) == 2 else \
                    ast.copy_location(ast.BoolOp(node.op, values[1:]), node)
                inner = tuple(expr_events(rest, import_call, decide, environ, branch,
                                          depth + 1))
                if inner:
                    run = (inner, ()) if isinstance(node.op, ast.And) else ((), inner)
                    why = "and" if isinstance(node.op, ast.And) else "or"
                    stack.append(("event", If(node.lineno, "unknown", *run, why, test,
                                              None, env)))
                stack.append(values[0])
                continue
            stack.extend(reversed(values))
            continue
        if cls is ast.NamedExpr:
            stack.append(("bind", node.lineno, node.target.id))
            stack.append(node.value)
            continue
        if environ is not None and cls is ast.Subscript:
            raised = environ(node)
            if raised is not None:
                stack.append(("event", raised))  # after the reads of its parts
        children: list = []
        for field in _fields(cls):
            value = getattr(node, field)
            if value.__class__ is list:
                children.extend(v for v in value if v is not None and not isinstance(v, str))
            elif value is not None and isinstance(value, ast.AST):
                children.append(value)
        stack.extend(reversed(children))
    return out


_DISPLAYS = (ast.List, ast.Tuple, ast.Set, ast.Dict)
# methods of list, dict and set that change the object in place (mutation.MUTATING too)
CHANGING = frozenset({
    "append", "extend", "insert", "remove", "pop", "popitem", "clear", "update",
    "setdefault", "add", "discard", "sort", "reverse", "__setitem__", "__delitem__",
    "__iadd__", "__ior__", "difference_update", "intersection_update",
    "symmetric_difference_update"})


def held_names(node) -> tuple[str, ...]:
    """The names the displays of a value that is kept (assigned, returned) hold as elements
    (dict keys and values), at any depth of displays: `{"mods": NAMES}`, `[A, (B, C)]`."""
    found: list[str] = []
    todo = [node] if node.__class__ in _DISPLAYS else []
    while todo:
        display = todo.pop()
        elts = (*(k for k in display.keys if k is not None), *display.values) \
            if display.__class__ is ast.Dict else display.elts
        for e in elts:
            if e.__class__ is ast.Name:
                found.append(e.id)
            elif e.__class__ in _DISPLAYS:
                todo.append(e)
    return tuple(dict.fromkeys(found))


def _receiver_root(node) -> str | None:
    """The name an item or call chain starts from (`TABLE` of `TABLE["k"][0]`, `get` of
    `get()`), or None."""
    while node.__class__ in (ast.Subscript, ast.Attribute, ast.Call):
        node = node.func if node.__class__ is ast.Call else node.value
    return node.id if node.__class__ is ast.Name else None


def target_events(target, line: int, reads_only: bool = False) -> list:
    """Events of assigning to `target`: reads of the objects written into, then the binds."""
    out: list = []
    stack = [target]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            if not reads_only:
                out.append(Bind(line, (node.id,)))
        elif isinstance(node, (ast.Tuple, ast.List)):
            stack.extend(reversed(node.elts))
        elif isinstance(node, ast.Starred):
            stack.append(node.value)
        elif isinstance(node, ast.Attribute):
            chain = attr_chain(node.value)
            if chain is not None:
                out.append(Use(line, chain[0], chain[1]))
                out.append(SetAttr(line, chain[0], chain[1] + (node.attr,)))
            else:
                out.extend(expr_events(node.value))
        elif isinstance(node, ast.Subscript):
            out.extend(expr_events(node.value))
            out.extend(expr_events(node.slice))
            changed = item_base(node) if not reads_only else None
            if changed is not None:
                out.append(SetItem(line, changed[0], changed[1]))
    return out


def item_base(node) -> tuple[str, tuple[str, ...]] | None:
    """The (name, attrs) whose container an item store `node` (a Subscript) changes: of
    `x.a[k]` x.a, of `x[i][j]` x too (its item is changed in place); None for a container
    no name reaches (`f()[k]`)."""
    while node.__class__ is ast.Subscript:
        node = node.value
    return attr_chain(node)
