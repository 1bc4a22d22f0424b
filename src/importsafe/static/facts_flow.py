"""`if`, `try`, loops, `with`, `match`, `return`, `raise` and expression statements as facts:
which branches run, decided statically where they can be (part of the facts extractor)."""
from __future__ import annotations

import ast
from dataclasses import replace

from .conditions import decide_condition, narrowing, runtime_test
from .helpers import ADD_NEWDOC, SUPPRESS, add_newdoc_read
from .purefn import compile_expr
from .events import (
    IF, LOOP_ELSE, TOP, TRY, TYPE_CHECKING, WITH, Bind, Call, ComputedImport, Dynamic, Escape,
    Exit, ForEach, GetAttr, Handler, If, Jump, Raise, Try, walk,
)
from .exprs import attr_chain, held_names, spell
from .shapes import (
    CHANGE_REASON, _all_value, _bound_value, _breaks, _dynamic_call, _handler_reads, _handler_types,
    _is_empty_literal, _literal_values, _loop_source, _setattr_key, _update_names,
    _update_source, names_bound_in, namespace_change,
)


class ControlFlow:
    """`if`, `try`, loops, `with`, `match`, `return`, `raise` and expression statements as facts."""

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
        read = self.env_read_by(node.test, branch=False)
        saved = self.env_branch
        self.env_branch = saved | read  # what the branches bind rests on the test's reads
        try:
            body = self.in_flow(flows[0], self.block, node.body, body_guard, scope)
            orelse = self.in_flow(flows[1], self.block, node.orelse, else_guard, scope)
        finally:
            self.env_branch = saved
        test = runtime_test(node.test, compile_expr, self.env) if cond == "unknown" else None
        narrow = narrowing(node.test) if cond == "unknown" else None
        env = tuple(sorted((name, self.env.get(name)) for name in read)) if read else ()
        out.append(If(node.lineno, cond, body, orelse, why, test, narrow, env))

    def decide(self, test) -> tuple[str, str]:
        return decide_condition(test, self.version, self.consts, self.type_checking, self.env)

    def s_Try(self, node, out, guard, scope):
        inner = TRY if guard in (TOP, WITH) else guard
        saved, self.flow = self.flow, ("dead" if self.flow == "dead" else "maybe")
        try:
            self._try(node, out, inner, scope)
        finally:
            self.flow = saved

    def _try(self, node, out, inner, scope, with_=False):
        body = self.block(node.body, inner, scope)
        handlers = []
        for h in node.handlers:
            types = _handler_types(h.type)
            hbody = self.block(h.body, inner, scope)
            handlers.append(Handler(h.lineno, types, h.name, hbody, _handler_reads(h.type),
                                    _has_raise(h.body)))
            if h.name and scope == "module":
                self.bindings.setdefault(h.name, h.lineno)
        orelse = self.block(node.orelse, inner, scope)
        final = self.block(node.finalbody, inner, scope)
        out.append(Try(node.lineno, body, tuple(handlers), orelse, final, with_))

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
            saved, saved_for = self.loop_values, self.in_for
            if known:  # `for i in range(2, 7): globals()[f"List{i}"] = ...` binds 5 names
                self.loop_values = {**saved, var: values}
            self.in_for = True
            try:
                out.extend(self.in_flow("maybe", self.block, node.body, guard, scope))
            finally:
                self.loop_values, self.in_for = saved, saved_for
            loop = self._for_each(node, out[start:], values)
            if loop is not None:
                out[start:] = [loop]
            elif _has_jump(out[start:]):  # replayed once, in line: no pass to end
                out[start:] = _without_jumps(out[start:])
        self.loop_else(node, out, guard, scope)

    def s_Break(self, node, out, guard, scope):
        if self.in_for:
            out.append(Jump(node.lineno, "break"))

    def s_Continue(self, node, out, guard, scope):
        if self.in_for:
            out.append(Jump(node.lineno, "continue"))

    def _for_each(self, node, events: list, values) -> ForEach | None:
        """The loop as a ForEach when its body makes a computed import, a getattr() or a
        binding under a computed key, and what it iterates over is known (statically, or when
        it runs): each pass may import another module, or read or bind another name."""
        if not events or events[0].__class__ is not Bind or not any(
                ev.__class__ is ComputedImport or ev.__class__ is GetAttr or
                ev.__class__ is Dynamic and (ev.key is not None or ev.update is not None) or
                ev.__class__ is Call and _passes(ev, events[0].names)
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
        chain = attr_chain(node.iter) if source is None else None
        if chain is not None and chain[1]:  # `for n in names.ALL`: a value when it runs
            source = ("attr", chain[0], chain[1])
        if source is None:  # pure code's value when it runs (a listing: dirlisting.py)
            program = compile_expr(node.iter)
            source = ("eval", program) if program is not None else None
        if source is None or (source[0] == "modules" and is_tuple and len(targets) != 3):
            return None
        return ForEach(node.lineno, targets, source, tuple(events[1:]), is_tuple)

    def s_While(self, node, out, guard, scope):
        self.expr(node.test, out, scope)
        if self.decide(node.test)[0] != "false":
            saved, self.in_for = self.in_for, False
            try:
                out.extend(self.in_flow("maybe", self.block, node.body, guard, scope))
            finally:
                self.in_for = saved
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
        inner = WITH if guard == TOP else guard
        caught = self._suppressed(node)
        if caught is None:
            out.extend(self.block(node.body, inner, scope))
            return
        # `with contextlib.suppress(E):` runs its body as `try: ... except E: pass` does
        handler = ast.ExceptHandler(caught, None, [ast.Pass()])
        for made in (handler, handler.body[0]):
            ast.copy_location(made, node)
        saved, self.flow = self.flow, ("dead" if self.flow == "dead" else "maybe")
        try:
            self._try(ast.copy_location(ast.Try(node.body, [handler], [], []), node), out,
                      inner, scope, with_=True)
        finally:
            self.flow = saved

    def _suppressed(self, node):
        """The exceptions the `contextlib.suppress(...)` items of a `with` swallow, as an
        except clause's type, or None."""
        types = [arg for item in node.items if item.context_expr.__class__ is ast.Call and
                 self.helper_of(attr_chain(item.context_expr.func)) == SUPPRESS and
                 not item.context_expr.keywords
                 for arg in item.context_expr.args]
        if not types or any(t.__class__ is ast.Starred for t in types):
            return None
        return types[0] if len(types) == 1 else ast.Tuple(types, ast.Load())

    def s_Match(self, node, out, guard, scope):
        self.expr(node.subject, out, scope)
        for case in node.cases:
            body = self.in_flow("maybe", self.block, case.body, IF if guard == TOP else guard,
                                scope)
            if _has_jump(body):  # a case that may not run may end the loop: not in line
                out.append(If(case.body[0].lineno, "unknown", body, ()))
            else:
                out.extend(body)

    def s_Return(self, node, out, guard, scope):
        self.generic(node, out, scope)
        held = held_names(node.value) if node.value is not None else ()
        if held:  # the caller keeps the display, and what it holds
            out.append(Escape(node.lineno, held, True))
        if scope == "function":
            chain = attr_chain(node.value) if node.value is not None else None
            if node.value is None:
                out.append(Exit(node.lineno, "", ("lit", None)))
                return
            if chain is None and isinstance(node.value, ast.Constant) and \
                    isinstance(node.value.value, (bool, int, str, type(None))):
                out.append(Exit(node.lineno, "", ("lit", node.value.value)))
                return
            returned = _returned_call(node.value, node.lineno, out)
            out.append(Exit(node.lineno, "", ("ref", *chain) if chain else returned))

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
            change = namespace_change(value, scope)
            if change is not None and (value.func.__class__ is not ast.Name or
                                       self._plain_name(value.func.id)):
                self.expr(value, out, scope)
                target, key_node, delete = change
                key = spell(key_node) if key_node is not None else None
                setter = not delete and value.func.__class__ is ast.Name
                out.append(Dynamic(node.lineno, CHANGE_REASON[delete], key=key,
                                   target=target, delete=delete,
                                   value=_bound_value(self._value_of(value.args[2], []))
                                   if setter and key is not None else None))
                return
            chain = attr_chain(value.func)
            if chain and not chain[1] and self.helpers.get(chain[0]) in ADD_NEWDOC:
                read = add_newdoc_read(value)
                if read is not None:
                    self.expr(read, out, scope)
                    for arg in value.args[2:]:
                        self.expr(arg, out, scope)
                    return
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

    s_TryStar = s_Try
    s_AsyncFor = s_For
    s_AsyncWith = s_With



def _has_jump(events) -> bool:
    """Is there a Jump of this loop in `events` (not one of a nested ForEach)?"""
    stack = list(events)
    while stack:
        ev = stack.pop()
        cls = ev.__class__
        if cls is Jump:
            return True
        if cls is If:
            stack.extend((*ev.body, *ev.orelse))
        elif cls is Try:
            stack.extend((*ev.body, *ev.orelse, *ev.final, *(x for h in ev.handlers
                                                              for x in h.body)))
    return False


def _without_jumps(events) -> list:
    """`events` without the Jump events of their own loop (a nested ForEach keeps its own)."""
    out = []
    for ev in events:
        cls = ev.__class__
        if cls is Jump:
            continue
        if cls is If:
            ev = replace(ev, body=tuple(_without_jumps(ev.body)),
                         orelse=tuple(_without_jumps(ev.orelse)))
        elif cls is Try:
            ev = replace(ev, body=tuple(_without_jumps(ev.body)),
                         handlers=tuple(replace(h, body=tuple(_without_jumps(h.body)))
                                        for h in ev.handlers),
                         orelse=tuple(_without_jumps(ev.orelse)),
                         final=tuple(_without_jumps(ev.final)))
        out.append(ev)
    return out


def _passes(call: Call, names) -> bool:
    """Does the call pass one of `names` (a loop's variables) as an argument? Then each
    pass calls with another known value (`for name in SKIPLIST: add(name)`)."""
    passed = call.passed
    return passed is not None and len(passed) > 4 and any(n in names for _, n in passed[4])


def _returned_call(value, line: int, out: list) -> tuple | None:
    """`return name.attrs(arg)`, arg a plain name: the call's event (the last of `out`) is
    marked `returned`, and the Exit's value says what to call ("call", name, attrs, arg,
    passed); None for any other value."""
    if value.__class__ is not ast.Call or value.keywords or len(value.args) != 1 or \
            value.args[0].__class__ is not ast.Name:
        return None
    chain = attr_chain(value.func)
    last = out[-1] if out else None
    if chain is None or last.__class__ is not Call or last.line != line or \
            (last.name, last.attrs) != chain:
        return None
    out[-1] = replace(last, returned=True)
    return ("call", chain[0], chain[1], value.args[0].id, last.passed)


def _has_raise(stmts) -> bool:
    """Is there a `raise` statement among `stmts`, at any depth of their blocks (not in a
    def or class they define)?"""
    todo = list(stmts)
    while todo:
        node = todo.pop()
        cls = node.__class__
        if cls is ast.Raise:
            return True
        if cls not in (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef):
            todo.extend(n for n in ast.iter_child_nodes(node) if isinstance(n, ast.stmt) or
                        n.__class__ is ast.ExceptHandler or n.__class__ is ast.match_case)
    return False
