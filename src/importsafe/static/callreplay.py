"""Calls at import time in the Simulator: calls of analysed functions replayed with what is
known of their arguments, `return`, `raise`. Mixed into the Simulator."""
from __future__ import annotations

from .events import PROCESS_EXIT, Call, Exit, Raise, Use
from .frames import Frame_, FunctionReturn, SimError, SimUnknown
from .names import BUILTIN_NAMES
from .state import MISSING, ModState

MAX_CALL_DEPTH = 30
MAX_REENTRY = 3
MAX_RECURSION = 2  # the same function on the stack while the same module runs


class CallReplay:
    """What a call at import time runs, and how a function body ends."""

    def e_Call(self, ev: Call, frame):
        value = self.resolve(ev.name, ev.attrs, frame)
        if value[0] == "f" and value[3] is not None:
            module = self.deref(value)
            if module is not None:
                self.call_function(module, self.program.function_body(module.name, value[3]),
                                   ev.passed, self._known_arguments(ev.passed, frame))
        elif value[0] == "v" and frame is self.asking and not ev.attrs and \
                self.unresolved is None:
            self.unresolved = self.made_in_code(ev.name, frame)

    def _known_arguments(self, passed, frame) -> tuple:
        """(position or keyword, value) of the arguments that are names holding a literal
        list, tuple or dict, or a literal or partly known string, now (their parameters
        iterate, test or import known values), or a location in the analysed tree, and of
        the locations computed from `__file__`."""
        if passed is None or len(passed) < 5:
            return ()
        known = []
        for key, name in passed[4]:
            try:
                value = self.lookup(name, frame)
            except (SimError, SimUnknown):
                continue  # the read was made, and failed or not, by the call's own events
            if value[0] in ("dict", "lit", "affix", "path"):
                known.append((key, value))
        for key, spec in passed[5] if len(passed) > 5 else ():
            found = self.path_value(spec, frame)
            if found is not None and found[1]:
                known.append((key, ("path", found[0])))
        return tuple(known)

    def call_function(self, module: ModState, func, passed=None, known=()) -> None:
        # CPython re-enters a running function (a decorator calling back into it); we do too,
        # but only so far: conditions are not evaluated, so recursion would never end.
        if self.calls.count(id(func)) >= MAX_REENTRY or len(self.calls) >= MAX_CALL_DEPTH:
            return
        # a function calling itself with no import in between (sympify over the items of its
        # argument) re-enters once: deeper replays of the same state find nothing new, and
        # the calls of each level multiply
        if self.recursing.count((id(func), len(self.stack))) >= MAX_RECURSION:
            return
        inert = self.program.inert.get(func)
        if inert is None:
            inert = self.program.inert[func] = _inert_reads(func)
        if inert is not False:
            # it only reads: the globals it reads are what could make a difference
            for name in inert:
                if self.ns_get(module, name) is not MISSING:
                    break  # a module global where a builtin was: run it all
            else:
                return
        self.calls.append(id(func))
        self.recursing.append((id(func), len(self.stack)))
        frame = Frame_("function", module, func.local_names, func.global_names)
        if passed is not None:  # parameters left to a literal default have a known value
            n_positional, keywords, objects = passed[:3]
            given = set(func.positional[:n_positional]) | set(keywords)
            for name, value in func.defaults:
                if name not in given:
                    frame.locals[name] = ("lit", value)
            for name in func.positional[:objects]:
                frame.locals[name] = ("obj",)  # an object: truthy, not None, no literal
            if len(passed) > 3:  # literal arguments: their parameters have a known value
                params = set(func.positional) | {n for n, _ in func.defaults}
                for key, value in (*((k, ("lit", v)) for k, v in passed[3]), *known):
                    name = key if key.__class__ is str else \
                        func.positional[key] if key < len(func.positional) else None
                    if name in params:
                        frame.locals[name] = value
        try:
            self.exec_block(func.body, frame)
        except FunctionReturn:
            pass
        except SimError as err:
            err.uncertain = err.uncertain or frame.uncertain
            raise
        finally:
            self.calls.pop()
            self.recursing.pop()

    def returned_literal(self, name: str, attrs: tuple, frame):
        """What a call `name.attrs()` returns when the function is analysed and its body is
        only `return <constant>` (`config.is_fbcode()`), as ("lit", value); else None."""
        try:
            value = self.resolve(name, attrs, frame)
        except (SimError, SimUnknown):
            return None
        if value[0] != "f" or value[3] is None:
            return None
        module = self.deref(value)
        if module is None:
            return None
        body = self.program.function_body(module.name, value[3]).body
        if body and len(body) == 1 and body[0].__class__ is Exit and not body[0].exception \
                and body[0].value is not None and body[0].value[0] == "lit":
            return body[0].value
        return None

    def e_Exit(self, ev: Exit, frame):
        value = None
        if ev.value is not None and ev.value[0] == "lit":
            value = ev.value
        elif ev.value is not None and frame is self.asking:  # what a __getattr__ answers
            try:
                value = self.resolve(ev.value[1], ev.value[2], frame)
            except (SimError, SimUnknown):
                value = None
        raise FunctionReturn(ev.exception, self.handled, value)

    def e_Raise(self, ev: Raise, frame):
        if ev.exception == PROCESS_EXIT:  # the process ends: nothing after it happens
            raise SimUnknown(f"{ev.message} (line {ev.line})")
        err = self.error(ev.exception, None, None, ev.message)
        err.explicit = True
        raise err


def _inert_reads(func) -> tuple[str, ...] | bool:
    """The names a function body reads from its module, in order, when a call of it can do
    nothing but succeed as long as its module binds none of them: a body of reads and calls
    only (no binding, so its locals hold no module), each of a local or of a builtin
    (a decorator such as `def callback(f): setattr(f, "_cb", True); return f`, called
    for every decorated function). False for any other body. (Reads of locals or builtins
    cannot fail, and calls of them run nothing the simulator follows: Simulator.lookup.)"""
    names: dict[str, None] = {}
    local = func.local_names
    for ev in func.body:
        cls = ev.__class__
        if cls is not Use and cls is not Call:
            return False
        name = ev.name
        if name in local:
            continue
        if name not in BUILTIN_NAMES:
            return False
        names[name] = None
    return tuple(names)
