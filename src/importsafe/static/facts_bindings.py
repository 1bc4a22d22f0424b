"""Assignments, deletions and `global` as facts: which names a statement binds, and what is
known of the values (part of the facts extractor)."""
from __future__ import annotations

import ast

from .conditions import NOT_ENV, env_names, env_read, environ_item, fold
from .events import Bind, Def, Del, Dynamic, Escape, SetItem, Use
from .execfile import registers_for_exec
from .exprs import (PATH_NODES, _own_module, anchored, attr_chain, getattr_read, held_names,
                    item_base, passed_arguments, path_spec, spell, target_events)
from .helpers import ATTACH_KINDS, RETURNS, lazy_attach
from .purefn import compile_expr
from .shapes import (
    CHANGE_REASON, _NOT_CONSTANT, _all_value, _bound_value, _comprehension_value, _dict_value,
    _expand_key, _is_globals_call, _sequence_value, namespace_of,
)


# importlib calls that return an object or raise, never None (`if spec is None: raise`)
_NEVER_NONE = frozenset((head, attrs) for f in ("spec_from_loader", "module_from_spec")
                        for head, attrs in (("importlib", ("util", f)), ("util", (f,)), (f, ())))


class Bindings:
    """Assignments, deletions and `global` as facts."""

    # -- assignments ----------------------------------------------------------------------
    def s_Assign(self, node, out, guard, scope):
        self.expr(node.value, out, scope)
        held = held_names(node.value)
        if held:  # a display's elements: kept by the new container
            out.append(Escape(node.lineno, held, True))
        if node.value.__class__ is ast.Name and any(
                t.__class__ is ast.Attribute or t.__class__ is ast.Subscript and
                item_base(t) is None for t in node.targets):
            # kept by an object's attribute, or by an item of a container no name reaches
            out.append(Escape(node.lineno, (node.value.id,)))
        if scope == "module" and _is_globals_call(node.value) and len(node.targets) == 1 and \
                isinstance(node.targets[0], ast.Name) and \
                _stores(self.tree, node.targets[0].id) == 1 and \
                node.targets[0].id not in self.global_names():
            self.namespace_aliases[node.targets[0].id] = node.value.func.id
        if scope == "module" and self._lazy_attach(node, out):
            return
        value = self._value_of(node.value, node.targets)
        # folded before the targets are bound: `X = X.lower() in (...)` reads the old X
        const = self._const_of(node) if scope == "module" and self.flow == "live" \
            and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) else NOT_ENV
        read = self.env_read_by(node.value) if len(node.targets) == 1 and \
            isinstance(node.targets[0], ast.Name) else frozenset()
        for target in node.targets:
            if not self._unpacked(target, node.value, node.lineno, out, scope):
                self.target(target, node.lineno, out, scope, value)
        if const is not NOT_ENV:
            self.consts[node.targets[0].id] = const
        if read:  # the value rests on these variables (an `if` on the name records them)
            self.env_taint[node.targets[0].id] = read

    def _const_of(self, node) -> object:
        """What a module-level `name = value` keeps in consts (decide_condition), or
        NOT_ENV: a literal, an environment read's default, a folded constant expression, or
        the truth of a decided test."""
        if isinstance(node.value, ast.Constant):
            return node.value.value
        env = env_read(node.value, self.env)
        if env is NOT_ENV:
            env = environ_item(node.value, self.env)
        if env is not NOT_ENV:
            return env
        if isinstance(node.value, (ast.Call, ast.Compare, ast.BoolOp, ast.UnaryOp)):
            folded = fold(node.value, self.consts, self.env)
            if folded is not NOT_ENV and not isinstance(folded, tuple):
                return folded
        cond, why = self.decide(node.value)
        return cond == "true" if cond != "unknown" and why != "TYPE_CHECKING" else NOT_ENV

    def env_read_by(self, node, branch: bool = True) -> frozenset[str]:
        """The environment variables a value rests on: read in it by literal name, through
        names bound to such values, or (with `branch`) deciding the `if` the code runs
        under."""
        if not self.reads_env():
            return frozenset()
        read = env_names(node) | self.env_branch if branch else env_names(node)
        if self.env_taint:
            for sub in ast.walk(node):
                if sub.__class__ is ast.Name and sub.id in self.env_taint:
                    read |= self.env_taint[sub.id]
        return read

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
        elif isinstance(target, ast.Name):
            # `x += [...]` extends a list in place: what else holds it sees the change
            out.append(SetItem(node.lineno, target.id))
        self.target(target, node.lineno, out, scope, value, item="change")

    def target(self, target, line, out, scope, value=None, item="set"):
        if isinstance(target, ast.Name):
            self.bind([target.id], line, out, scope, value)
            return
        if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and \
                target.value.id in self.namespace_aliases:
            # the same as globals()[key] = value: the alias holds the module's namespace
            target = ast.Subscript(ast.Call(ast.Name(self.namespace_aliases[
                target.value.id], ast.Load()), [], []), target.slice, target.ctx)
        if isinstance(target, ast.Subscript) and _is_globals_call(target.value):
            names = _expand_key(target.slice, self.loop_values)
            followed = _bound_value(value)
            if followed is not None and followed[0] == "ref" and followed[1] in self.loop_values:
                followed = None  # a literal: the static expansion binds it as well
            if names is not None and scope == "module" and (
                    followed is None or followed[0] == "ref"):
                # each name the key can take, known; a value read by a name that is not the
                # loop's is the same for each, as `name = value` would bind it
                self.bind(names, line, out, scope, followed)
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
        into = namespace_of(target.value) if isinstance(target, ast.Subscript) else None
        if into is not None:  # `m.__dict__[key] = value`, `vars(m)[key] = value`
            self.expr(target.value, out, scope)
            key = spell(target.slice)
            out.append(Dynamic(line, CHANGE_REASON[False], key=key, target=into,
                               value=_bound_value(value) if key is not None else None))
            return
        if isinstance(target, ast.Subscript) and attr_chain(target.value) == ("sys", ("modules",)):
            key = attr_chain(target.slice)
            # replacing itself puts no other name into sys.modules (torch._VF)
            self.registers |= key != ("__name__", ()) or scope != "module"
            if key == ("__name__", ()):  # a module object of its own
                out.append(Dynamic(line, "the module replaces itself in sys.modules",
                                   replaces=True))
            elif key is not None and scope == "function" and \
                    not registers_for_exec(self.scope, line):
                out.append(Dynamic(line, "a function called at import time puts a module "
                                         "into sys.modules under a name it computes",
                                   elsewhere=True))
        events = target_events(target, line)
        if item == "set" and isinstance(target, ast.Subscript) and events and \
                events[-1].__class__ is SetItem and attr_chain(target.value) is not None:
            # `x[key] = value`: the entry, where the simulator knows the container
            events[-1] = SetItem(line, events[-1].name, events[-1].attrs, "set",
                                 spell(target.slice), value)
        out.extend(e for e in events if not isinstance(e, Bind))
        names = [n for e in events if isinstance(e, Bind) for n in e.names]
        self.bind(names, line, out, scope)

    def _lazy_attach(self, node, out) -> bool:
        """`__getattr__, __dir__, __all__ = lazy.attach(__name__, ...)` (or attach_stub,
        relative_import, deprecate_attr, each with its own order): the `__getattr__` it
        returns, as a def (helpers.py), and its `__all__`."""
        call, target = node.value, node.targets[0]
        if len(node.targets) != 1 or not isinstance(call, ast.Call) or \
                not isinstance(target, (ast.Tuple, ast.Name)):
            return False
        targets = target.elts if isinstance(target, ast.Tuple) else [target]
        helper = self.helper_of(attr_chain(call.func))
        kind = ATTACH_KINDS.get(helper) if helper else None
        if kind is None:
            return False
        returns = RETURNS[kind]
        at = returns.index("getattr")
        if len(targets) != len(returns) or not isinstance(targets[at], ast.Name) or \
                targets[at].id != "__getattr__":
            return False
        made = lazy_attach(call, kind, self.name, self.stub, self.name)
        if made is None:
            return False
        line = node.lineno
        out.append(Def(line, "__getattr__", self.function(made[0])))
        self.bindings.setdefault("__getattr__", line)
        for i, elt in enumerate(targets):
            if i == at:
                continue
            if not isinstance(elt, ast.Name):
                self.target(elt, line, out, "module")
                continue
            value = ("all", made[1]) if returns[i] == "all" else None
            self.bind([elt.id], line, out, "module", value)
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
        known tuple then ("item", name, attrs, index, length)); `a, b = f(x)`, each to that
        item of what pure code computes ("evalitem", program, index, length)."""
        chain = attr_chain(value)
        if not isinstance(target, ast.Tuple) or not all(
                isinstance(e, ast.Name) for e in target.elts):
            return False
        index = _index_value(value) if chain is None and value.__class__ is ast.Subscript \
            else None  # `a, b = TABLE[name]`: an entry of a literal dict
        n = len(target.elts)
        if chain is None and (index is None or None in index[2]):
            # `name, meta = parse(path)`: items of a value pure code computes (purefn)
            program = compile_expr(value) if value.__class__ is ast.Call else None
            if program is None:
                return False
            for i, elt in enumerate(target.elts):
                self.bind([elt.id], line, out, scope, ("evalitem", program, i, n))
            return True
        for i, elt in enumerate(target.elts):
            self.bind([elt.id], line, out, scope, ("item", chain[0], chain[1], i, n) if chain
                      else ("item", index[1], (), i, n, index[2]))
        return True

    def _value_of(self, value, targets) -> tuple | None:
        if len(targets) == 1 and isinstance(targets[0], ast.Name) and targets[0].id in (
                "__all__", "__lazy_modules__"):
            if isinstance(value, ast.ListComp):  # `[s for s in dir() if not s.startswith("_")]`
                found = _comprehension_value(value)
                if found is not None:
                    return found
            return _all_value(value, extend=False)
        if value.__class__ is ast.Constant and value.value.__class__ in (bool, type(None)):
            # a flag set in a branch (`except ImportError: HAVE_X = False`): what a later
            # `if HAVE_X:` reads when it runs
            return ("lit", value.value)
        if value.__class__ is ast.Subscript:
            if _own_module(value) and self.name:  # `this = sys.modules[__name__]`
                return ("module", self.name, "import_module")
            item = environ_item(value, self.env)
            if item.__class__ is str:  # (unset, the read raises KeyError first)
                return ("lit", item)
        chain = attr_chain(value)
        if chain is not None:
            return ("ref", chain[0], chain[1])
        if value.__class__ in PATH_NODES:
            spec = path_spec(value)
            if spec is not None and anchored(spec):  # a location in the analysed tree
                kind = _path_kind(value)  # what pure code may read it as (dirlisting.py)
                return ("pathspec", spec, kind) if kind else ("pathspec", spec)
        if isinstance(value, ast.Call):
            env = env_read(value, self.env)
            if env is not NOT_ENV:
                return ("lit", env)
            if isinstance(value.func, ast.Name) and value.func.id == "dict" and \
                    not value.args and "dict" not in self.bindings and \
                    all(k.arg is not None for k in value.keywords):
                # dict(NAME=value, ...): a literal dict with those keys
                return _dict_value(ast.Dict([ast.Constant(k.arg) for k in value.keywords],
                                            [k.value for k in value.keywords]), self._constant)
            found = self._import_call(value)
            if found is not None:
                return found if found[0] == "module" else ("computed",)
            read = getattr_read(value)
            if read is not None:
                return ("getattr", read[0], read[1])
            if attr_chain(value.func) in _NEVER_NONE:
                return ("obj",)
        if isinstance(value, ast.Dict):
            return _dict_value(value, self._constant)
        if isinstance(value, (ast.List, ast.Tuple, ast.Set)):
            return _sequence_value(value)
        if isinstance(value, ast.ListComp):
            found = _comprehension_value(value)
            if found is not None:
                return found  # else evaluated as pure code, below
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            found = _all_value(value, extend=False)  # lists of names added up
            if found[1] is not None:
                return found
        parts = spell(value)
        if parts is None and value.__class__ is ast.Subscript:
            found = _index_value(value)
            if found is not None:
                return found
        if parts is not None:
            return ("str", parts)
        if value.__class__ is ast.GeneratorExp and len(targets) == 1 and \
                targets[0].__class__ is ast.Name and \
                _iterated_once(self.scope, value, targets[0].id):
            program = compile_expr(value)  # consumed by one loop: as the list it yields
            if program is not None:
                return ("eval", program)
        if value.__class__ is ast.Call and value.args and \
                attr_chain(value.func) in _PARTIAL and \
                (func := attr_chain(value.args[0])) is not None:
            # `register_x = functools.partial(register, kind="x")` (callreplay.py)
            rest = passed_arguments(ast.Call(value.func, value.args[1:], value.keywords))
            if rest is not None:
                return ("partial", *attr_chain(value.func), *func, rest)
        if value.__class__ in _EVALUATED:  # a value pure code computes (purefn)
            program = compile_expr(value)
            if program is not None:
                return ("eval", program)
        if value.__class__ is ast.Call and (func := attr_chain(value.func)) is not None:
            return ("new", func[0], func[1])  # an instance, where `func` is an analysed class
        return None

    def s_Delete(self, node, out, guard, scope):
        names = []
        for target in node.targets:
            if isinstance(target, ast.Name):
                names.append(target.id)
            else:
                self.expr(target, out, scope)
                deleted = _deleted_from_namespace(target, scope)
                if deleted is not None:  # `del m.X`, `del vars(m)[k]`, `del globals()[k]`
                    out.append(Dynamic(node.lineno, CHANGE_REASON[True], key=deleted[1],
                                       target=deleted[0], delete=True))
                changed = item_base(target) if isinstance(target, ast.Subscript) else None
                if changed is not None:
                    out.append(SetItem(node.lineno, changed[0], changed[1], "del" if
                                       attr_chain(target.value) is not None else "change",
                                       spell(target.slice)))
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


def _deleted_from_namespace(target, scope: str) -> tuple | None:
    """(the module-like object, ("ref", name, attrs), or None for the module's own; the
    deleted key's spelled parts, None when not known) of a `del` target that deletes a
    name of a namespace: `del m.X`, `del m.__dict__[k]`, `del vars(m)[k]`, `del
    globals()[k]`."""
    if target.__class__ is ast.Attribute:
        chain = attr_chain(target.value)
        return (("ref", *chain), (target.attr,)) if chain is not None else None
    if target.__class__ is not ast.Subscript:
        return None
    into = namespace_of(target.value)
    if into is None and not (_is_globals_call(target.value) and (
            scope == "module" or target.value.func.id == "globals")):
        return None
    return into, spell(target.slice)


_PARTIAL = frozenset({("functools", ("partial",)), ("partial", ())})
_EVALUATED = (ast.Call, ast.Subscript, ast.Compare, ast.BoolOp, ast.BinOp, ast.IfExp,
              ast.DictComp, ast.ListComp, ast.SetComp, ast.UnaryOp)


def _index_value(node: ast.Subscript) -> tuple | None:
    """`NAME[k1][k2]...`: ("index", NAME, keys), each key spelled (exprs.spell) or None
    when it cannot be (the value is then one of the entries at that level)."""
    keys = []
    while node.__class__ is ast.Subscript:
        if node.slice.__class__ is ast.Slice:
            return None
        keys.append(spell(node.slice))
        node = node.value
    return ("index", node.id, tuple(reversed(keys))) if node.__class__ is ast.Name else None


_STR_PATHS = frozenset({("os", ("path", "join")), ("os", ("path", "dirname")),
                        ("os", ("path", "abspath")), ("os", ("path", "realpath")),
                        ("os", ("path", "normpath")), ("str", ()), ("os", ("fspath",))})
_PATH_OBJECTS = frozenset({("Path", ()), ("pathlib", ("Path",))})


def _path_kind(node) -> str | None:
    """"str" or "Path": the type of the value a location expression makes, when its
    outermost operation says (os.path functions, str(); Path(), `.parent`, `/`, resolve())."""
    if isinstance(node, ast.Call):
        chain = attr_chain(node.func)
        if chain in _STR_PATHS:
            return "str"
        if chain in _PATH_OBJECTS or isinstance(node.func, ast.Attribute) and \
                node.func.attr in ("resolve", "absolute", "joinpath") and chain not in _STR_PATHS:
            return "Path"
        return None
    if isinstance(node, ast.Attribute) and node.attr == "parent" or \
            isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
        return "Path"
    return None


def _iterated_once(scope, value, name: str) -> bool:
    """Is `name = value` (a generator expression) followed in its block by `for ... in
    name:`, the one read of `name` in the scope? Then the loop sees every item once, as it
    would a list's."""
    if scope is None:
        return False
    reads = stores = 0
    for node in ast.walk(scope):
        if node.__class__ is ast.Name and node.id == name:
            if node.ctx.__class__ is ast.Load:
                reads += 1
            else:
                stores += 1
    if reads != 1 or stores != 1:
        return False
    for node in ast.walk(scope):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if block.__class__ is not list:
                continue
            for i, st in enumerate(block):
                if st.__class__ is ast.Assign and st.value is value:
                    return any(later.__class__ is ast.For and later.iter.__class__ is ast.Name
                               and later.iter.id == name for later in block[i + 1:])
    return False


def _stores(tree, name: str) -> int:
    """How many times the module binds `name` anywhere (a name bound once, at module level,
    keeps that value wherever it is read)."""
    if tree is None:
        return 0
    return sum(1 for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id == name and
               isinstance(n.ctx, (ast.Store, ast.Del))) + sum(
        1 for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef,
                                                    ast.ClassDef)) and n.name == name)
