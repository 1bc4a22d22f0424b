"""Calls at import time in the Simulator: calls of analysed functions replayed with what is
known of their arguments, `return`, `raise`. Mixed into the Simulator."""
from __future__ import annotations

import os
from dataclasses import replace

from ..model import Assumption
from .daskconfig import CONFIG_MODULE, DEFAULTS_FILE
from .dirlisting import STD_FUNCTIONS, STD_MODULES, Listings, PathValue, StdFunction
from .events import (EMPTY_DICT, PROCESS_EXIT, Bind, Call, ClassBody, ComputedImport, Def, Exit,
                     ExecFile, ExecSource, ForEach, If, Import, ImportFrom, Raise, SetAttr, Try,
                     Use, walk)
from .exprs import NEW, OWN_MODULE
from .frames import UNDECIDED, Frame_, FunctionReturn, SimError, SimUnknown
from .mutation import MUTATING
from .names import BUILTIN_NAMES
from .purefn import BUILTINS, CAST, Function, NoValue, PureObject, evaluate
from .shapes import MAX_DICT
from .state import MISSING, OPAQUE, ModState

# builtin bases whose instances are made by type.__call__: __new__ then the class's __init__
PLAIN_BASES = frozenset({("object", ()), ("Exception", ()), ("BaseException", ()),
                         ("ValueError", ()), ("TypeError", ()), ("RuntimeError", ()),
                         ("dict", ()), ("list", ()), ("type", ())})
_METACLASSED = frozenset({"enum"})  # library bases whose metaclass's __call__ is no type's
_IMPORTING = frozenset({Import, ImportFrom, ComputedImport, ExecFile, ExecSource})
DECORATING = (1, (), 1)  # a decorator's Call: the object it decorates
# known arguments a memoised call's key may hold: cheap to hash and compare
_PLAIN_KNOWN = frozenset({"lit", "obj", "v"})
# what a replayed call's known return value may be: what a test on it can decide
_PLAIN_RETURNED = frozenset({type(None), bool, int, float, str})
MAX_CALL_DEPTH = 30
MAX_REENTRY = 3
MAX_RECURSION = 2  # the same function on the stack while the same module runs


class CallReplay:
    """What a call at import time runs, and how a function body ends."""

    shallow = 0  # > 0 while an __init__ replays: the calls it makes are not replayed
    # (module, line, file:line of the import) of a decorator just applied that defines a
    # function which imports: the def at that line binds ("wrap", line, file:line)
    wrapping = None
    making = None  # the class a metaclass's function replayed shallowly makes or calls
    # per replayed function, innermost last: (what `super().__init__()` runs, the object)
    # in an `__init__` replayed on a new object, else None (state.ImportState makes it)
    supers: list
    listed_now = None  # the dirlisting.Listings of the purefn evaluation running
    # (frame, line, name, attrs, value) of the last call replayed, when what it returned is
    # a plain literal known to be the one returned (call_function), else None
    last_return = None
    unlisted = None  # why the listing a ForEach's pass with unknown values iterates is not known

    def e_Call(self, ev: Call, frame):
        self.last_return = None
        if ev.attrs and ev.attrs[-1] in MUTATING:
            self.method_changes(ev, frame)
        if ev.passed is not None and len(ev.passed) > 4 and ev.passed[4] and \
                NEW not in ev.attrs:
            try:
                callee = self.resolve(ev.name, ev.attrs, frame)
            except (SimError, SimUnknown):
                callee = None  # the call's own reads raise
            if callee is not None and callee[0] == "v":  # no code of the analysed tree
                self.escape_arguments(ev, frame)
        if ev.returned:
            return  # the Exit after it makes the call (returned_call)
        if ev.name == "super" and len(ev.attrs) == 1 and frame.kind == "function" and \
                self.reads_builtin("super", frame):
            return self.super_call(ev, frame)
        if NEW in ev.attrs:  # `Loader().load()`: a method of the object the call made
            value = self.made_object_method(ev, frame)
            if value is None:
                return
        else:
            value = self.resolve(ev.name, ev.attrs, frame)
        if self.shallow and not (value[0] == "bm" and (value[4][0] == "inst" or
                                                       value[4] == self.making)):
            return  # (a method of the object being made runs: its reads are the class's)
        if value[0] == "f" and value[3] is not None:
            module = self.deref(value)
            if module is not None:
                if len(value) > 4:
                    self.decorated_call(value[4], ev.attrs[-1] if ev.attrs else ev.name, frame)
                body = self.program.function_body(module.name, value[3])
                known = self._known_arguments(ev.passed, frame)
                if self.memo_allowed(frame):
                    returned = self.memoised_call(module, body, ev.passed, known)
                else:
                    returned = self.call_in(module, body, ev.passed, known, None)
                if returned is not None:  # what the Bind after it binds (e_Bind)
                    self.last_return = (frame, ev.line, ev.name, ev.attrs, returned)
                if ev.passed == DECORATING and body.nested_import and frame.kind == "module":
                    # what it returns may be a wrapper whose body imports: e_Def binds that
                    self.wrapping = (frame.module, ev.line,
                                     f"{module.info.path}:{body.nested_import}")
        elif value[0] == "wrap":
            raise SimUnknown(f"{'.'.join((ev.name, *ev.attrs))}() at {frame.module.info.path}:"
                             f"{ev.line} runs what the decorator of the def at line {value[1]} "
                             f"returns, which may be a wrapper that imports ({value[2]}); "
                             "functions defined inside functions are not replayed")
        elif value[0] == "fp":  # functools.partial(f, *given)(...): f(*given, ...)
            func, given, bound = value[1], value[2], value[3]
            module = self.deref(func)
            passed = _after_given(given, ev.passed)
            if module is not None and passed is not None:
                self.call_in(module, self.program.function_body(module.name, func[3]),
                             passed, (*bound, *_shifted(self._known_arguments(ev.passed, frame),
                                                        given[0])), None)
        elif value[0] == "bm":  # a classmethod or a method: the class or the object first
            module = self.deref(value)
            if module is not None:
                if value[5] is not None:
                    self.decorated_call(value[5], ev.attrs[-1] if ev.attrs else ev.name, frame)
                known = self._known_arguments(ev.passed, frame)
                after = _after_definer(value[4], value[3])
                args = (module, self.program.function_body(module.name, value[3]),
                        _with_self(ev.passed), (*_shifted(known), (0, value[4])),
                        (after, value[4]) if after is not None else None)
                if value[4][0] == "inst" and NEW not in ev.attrs:
                    self.method_of_object(args, ev, frame)
                else:
                    self.call_in(*args)
        elif value[0] == "c" and value[3] is not None and value[3] not in ("object", "builtin"):
            # a class: its own __init__ runs, or the one it inherits (from its module)
            init = value[3]
            module = self.deref(init if init.__class__ is tuple else value)
            known = self._known_arguments(ev.passed, frame)
            func = init[3] if init.__class__ is tuple else init
            # over opaque arguments a constructor's branches are undecided, and what it does
            # over them unknown (matplotlib's colormaps): fully replayed then only when its
            # body imports, else for what every path of it does (tentative_init)
            if module is not None:
                # its own reads and imports; what it calls stays unreplayed, as the __init__
                # of a class never was (deep replays of constructors over arguments not known
                # turn whole packages unknown)
                obj = ("inst", value)
                args = (module, func, _with_self(ev.passed), (*_shifted(known), (0, obj)),
                        _after_definer(obj, func, True), obj)
                memo = self.memo_allowed(frame)
                if _all_known(ev.passed, known):
                    self.deep_init(args, memo)
                elif self.imports_in(func):
                    self.construct(args, memo)
                else:
                    self.tentative_init(args, memo)
        elif value[0] == "c" and value[7] is not None:
            # a class its analysed metaclass makes: the metaclass's `__call__`, where it
            # defines one (type.__call__'s __new__ and __init__ of the class are not followed)
            self.meta_function(value[7], "__call__", _with_self(ev.passed), value,
                               _shifted(self._known_arguments(ev.passed, frame)))
        elif value[0] == "v" and frame is self.asking and not ev.attrs and \
                self.unresolved is None:
            self.unresolved = self.made_in_code(ev.name, frame)

    def memo_allowed(self, frame) -> bool:
        """May a call made from `frame` go through the call memo: not in a class body, a
        shallow replay, a metaclass's making of a class or a traced run, with a memo?"""
        return frame.kind != "class" and not self.shallow and self.making is None and \
            self.program.memo is not None and self.trace is None

    def memoised_call(self, module, func, passed, known, init=None):
        """A call of an analysed function, recorded as an import is (state.py): a later call
        at the same call depth with the same arguments, in a state where everything the
        recorded one read still holds, ends as the recorded one did (its writes and imports
        applied, then returned, or what it raised) without a replay, when what the recorded
        one did depends on nothing but those reads (ImportState.context_free). pandas' test
        modules each call `pd.to_datetime(...)`, thousands of nested replays, most of them
        the same. The stack decides where replays stop (MAX_REENTRY, MAX_RECURSION): a
        recording stands only for calls whose stack holds each function its replay reached
        as often (_on_stack). `init`: run_init's arguments, for a constructor's `__init__`
        (its object, an instance of a class value, is in `known`, compared by value)."""
        def run():
            if init is None:
                return self.call_in(module, func, passed, known, None)
            self.run_init(*init)
            return None
        key = ("\0call", self.lazy_all, module.name, module.epoch, func.name, func.line,
               passed, known, len(self.stack), len(self.calls),
               None if init is None else len(init) > 6)  # a constructor's: deep or not
        try:
            hash(key)
        except TypeError:  # an unhashable literal argument
            return run()
        if not all(v[0] in _PLAIN_KNOWN or init is not None and v is init[5]
                   for _, v in known):
            return run()
        caller = self.stack[-1] if self.stack else None
        at = (caller.info.path, caller.line, caller.name) if caller is not None else None
        hit, stop = self.memo_lookup(key)
        if hit is not None:
            ended, counts, was = hit[4]
            if counts != self._on_stack(f for f, _, _ in counts):
                return run()
            # an assumption made at the recorded caller's line is made at this one's (and
            # one that names the recorded caller as where it was made names this one)
            self.replay(hit, None if was == at else (
                lambda a: replace(a, module=at[2] if a.module == was[2] else a.module,
                                  file=at[0], line=at[1]) if (a.file, a.line) == was[:2]
                else a))
            self._replayed(ended)
            return ended[1] if len(ended) > 1 else None
        seen = self.program.calls_seen
        if key not in seen:  # recorded from its second call on: most keys come once only
            seen.add(key)
            return run()
        reached: set = set()  # the functions its replay calls
        self.call_recs.append(reached)
        running = frozenset(st.name for st in self.stack)
        marks = self.begin_recording(None)
        ended = None
        try:
            returned = run()
            ended = ("ok",) if returned is None else ("ok", returned)
        except SimError as err:
            ended = ("error", err.info, len(self.stack), err.uncertain, err.explicit)
            raise
        except SimUnknown as why:
            ended = ("unknown", str(why))
            raise
        finally:
            outcome = (ended, self._on_stack(reached), at) \
                if ended is not None and self.context_free(marks, running) else None
            self.end_recording(key if outcome else None, marks, outcome, stop)
            self.call_recs.pop()
            if self.call_recs:
                self.call_recs[-1] |= reached
        return returned

    def _on_stack(self, functions) -> tuple:
        """How often each function (module, epoch, line) is on the call stack now, in all
        and while as many modules run as now."""
        depth = len(self.stack)
        return tuple((f, sum(s[:3] == f for s in self.call_sigs),
                      sum(s[:3] == f and s[3] == depth for s in self.call_sigs))
                     for f in sorted(functions))

    def method_of_object(self, args, ev, frame) -> None:
        """`x.method()` of an object `x = Cls()` made earlier: replayed, but its attributes
        (set since, or filled by other calls) are not followed; where what it does depends
        on them, taken to import nothing, an assumption of the result (unknown with
        --strict). A failure every path of it makes is the call's."""
        try:
            self.call_in(*args)
        except (SimUnknown, SimError) as err:
            if err.__class__ is SimError and not err.uncertain:
                raise
            call = ".".join((ev.name, *ev.attrs))
            where = f"{frame.module.info.path}:{ev.line}"
            if self.program.strict:
                raise SimUnknown(f"{call}() at {where}: {err}; what the method does depends "
                                 "on its object's state, which --strict does not take to "
                                 "import nothing") from None
            self.assume(Assumption(frame.module.name, call, frame.module.info.path, ev.line,
                                   f"a method of an object whose state is not followed "
                                   f"({err}); taken to import nothing", "object"))

    def partial_value(self, spec, frame):
        """("partial", partial's name, attrs, the function's name, attrs, the other
        arguments): ("fp", the analysed function, those arguments, their known values now)
        when `partial` is functools' and the function an analysed one; else opaque."""
        try:
            maker = self.resolve(spec[1], spec[2], frame)
            func = self.resolve(spec[3], spec[4], frame)
        except (SimError, SimUnknown):
            return OPAQUE
        if maker != ("std", "functools.partial") or func[0] != "f" or func[3] is None or \
                len(func) > 4:
            return OPAQUE
        return ("fp", func, spec[5], self._known_arguments(spec[5], frame))

    def made_object_method(self, ev, frame):
        """`Cls(...).name`, for a Call of (Cls, (NEW, name)): the method of a new instance
        of an analysed class (the call of Cls made it, an event before), or None."""
        at = ev.attrs.index(NEW)
        try:
            cls = self.resolve(ev.name, ev.attrs[:at], frame)
        except (SimError, SimUnknown):
            return None  # the call's own events made the read
        obj = instance_of(cls)
        if obj is None or len(ev.attrs) != at + 2:
            return None
        found = self.instance_attribute(obj, ev.attrs[-1])
        return found if found[0] in ("bm", "f") else None

    def run_init(self, module, init, passed, known, after, obj, deep=False) -> None:
        """Replay an `__init__` on the new object `obj`: its own reads and imports, and the
        methods of the object it calls; `after`: the classes `super()` in it looks in.
        `deep` (every argument known): the calls it makes are replayed too."""
        step = 0 if deep and not self.shallow else 1
        self.shallow += step
        try:
            self.call_in(module, init, passed, known,
                         (after, obj) if after is not None else None)
        finally:
            self.shallow -= step

    def construct(self, args, memo: bool) -> None:
        """run_init, through the call memo where `memo` says the caller's state allows it."""
        if memo:
            self.memoised_call(args[0], args[1], args[2], args[3], args)
        else:
            self.run_init(*args)

    def deep_init(self, args, memo: bool) -> None:
        """Over arguments all known: run_init with the calls the `__init__` makes replayed
        too. A failure that is not certain there (behind a test of a value not known in a
        function it calls) leaves the call as the shallow replay has it, as before the calls
        were followed (over pandas' dtype helpers, most of pandas would turn unknown)."""
        try:
            self.construct((*args, True), memo)
        except SimUnknown:
            self.construct(args, memo)
        except SimError as err:
            if not err.uncertain:
                raise
            self.construct(args, memo)

    def tentative_init(self, args, memo: bool = False) -> None:
        """An `__init__` that does not import, over arguments not known: a failure it is
        certain to raise (a read every path makes) is the call's; what depends on the
        arguments is not followed, as before the call was replayed at all."""
        try:
            self.construct(args, memo)
        except SimUnknown:
            pass
        except SimError as err:
            if err.uncertain:
                return
            raise

    def call_in(self, module, func, passed, known, top):
        """call_function with `top` (what `super()` in it looks in, and the object) pushed
        on `supers` while it runs; what it returns (call_function)."""
        self.supers.append(top)
        try:
            return self.call_function(module, func, passed, known)
        finally:
            self.supers.pop()

    def imports_in(self, func) -> bool:
        """Does the function's body import (anywhere in it, not in what it calls)?"""
        found = self.program.importing.get(func)
        if found is None:
            found = self.program.importing[func] = any(
                ev.__class__ in _IMPORTING for ev in walk(func.body))
        return found

    def super_call(self, ev, frame) -> None:
        """`super().name(...)` in a replayed method: the function of that name of the first
        class after the method's own in the object's MRO, replayed on the same object (an
        `__init__` over known arguments, as a constructor call); nothing for a builtin's or
        object's. Unknown where the classes after it are not known statically."""
        top = self.supers[-1] if self.supers else None
        attr = ev.attrs[0]
        if top is None:
            return self.super_unresolved(attr, ev, frame, "the class it runs in is not known "
                                         "statically")
        after, obj = top
        for i, cls in enumerate(after):
            if cls.__class__ is str:
                if attr == "__init__" or _builtin_has(cls, attr):
                    return  # object's or a builtin's: none of the analysed code runs
                if cls == "object":
                    break  # AttributeError in CPython: not followed
                continue
            if attr == "__init__":
                init = cls[3]
                if init is None:
                    break
                if init.__class__ is tuple or init == "object":
                    continue  # inherited: a class after it defines it
                if init == "builtin":
                    return
                module = self.deref(cls)
                known = self._known_arguments(ev.passed, frame)
                if module is not None and (_all_known(ev.passed, known) or
                                           self.imports_in(init)):
                    self.run_init(module, init, _with_self(ev.passed),
                                  (*_shifted(known), (0, obj)), after[i + 1:], obj)
                return  # (over arguments not known: as a constructor)
            for name, (kind, func) in own_functions(cls):
                if name != attr:
                    continue
                module = self.deref(func)
                if module is None:
                    return
                body = self.program.function_body(module.name, func[3])
                known = self._known_arguments(ev.passed, frame)
                owner = obj[1] if obj[0] == "inst" and kind == "classmethod" else obj
                if kind == "staticmethod":
                    self.call_in(module, body, ev.passed, known, (after[i + 1:], obj))
                else:
                    self.call_in(module, body, _with_self(ev.passed),
                                 (*_shifted(known), (0, owner)), (after[i + 1:], obj))
                return
        return self.super_unresolved(attr, ev, frame, "the class whose function it runs is "
                                     "not known statically")

    def init_subclass(self, cls: tuple, keywords) -> None:
        """A new class: the `__init_subclass__` of the first class after it in its MRO that
        defines one runs on it (type.__new__ calls it, before the name is bound), an
        implicit classmethod; object's does nothing."""
        after = cls[6]
        for i, base in enumerate(after):
            if base.__class__ is str:
                return  # object's, or a builtin's: none of the analysed code
            for name, (kind, func) in own_functions(base):
                if name != "__init_subclass__":
                    continue
                module = self.deref(func)
                if module is None:
                    return
                if keywords is None:
                    return  # **kwargs: what it is given is not known
                self.call_in(module, self.program.function_body(module.name, func[3]),
                             (keywords[0] + 1, keywords[1], 1, *keywords[3:]), ((0, cls),),
                             (after[i + 1:], cls))
                return

    def super_unresolved(self, attr: str, ev, frame, why: str) -> None:
        """A `super()` call whose callee is not known: taken to run none of the analysed
        code's imports (as before it was replayed at all), an assumption of the result;
        unknown with --strict."""
        where = f"{frame.module.info.path}:{ev.line}"
        if self.program.strict:
            raise SimUnknown(f"super().{attr}() at {where}: {why}, which --strict does not "
                             "take to run nothing")
        self.assume(Assumption(frame.module.name, f"super().{attr}", frame.module.info.path,
                               ev.line, f"{why}; taken to import nothing", "super"))

    def _known_arguments(self, passed, frame) -> tuple:
        """(position or keyword, value) of the arguments that are names (or entries of
        names' values, `TABLE["all"]`) holding a literal list, tuple or dict, or a literal or
        partly known string, now (their parameters iterate, test or import known values),
        or a location in the analysed tree, of the locations computed from `__file__`, and
        of dict displays."""
        if passed is None or len(passed) < 5:
            return ()
        known = []
        for key, name in passed[4]:
            self.shared(name, frame)
            if name == OWN_MODULE:  # the module itself, while it is the one in sys.modules
                st = frame.module
                if self.reads_builtin("sys.modules", frame) and self.state(st.name) is st:
                    known.append((key, ("m", st.name, st.epoch)))
                continue
            try:
                value = self.lookup(name, frame)
            except (SimError, SimUnknown):
                continue  # the read was made, and failed or not, by the call's own events
            if value[0] in ("dict", "lit", "affix", "path", "m", "inst"):
                known.append((key, value))
        for key, spec in passed[5] if len(passed) > 5 else ():
            found = self.path_value(spec, frame)
            if found is not None and found[1]:
                known.append((key, ("path", found[0])))
        for key, spec in passed[6] if len(passed) > 6 else ():
            self.shared(spec[1], frame)
            value = self.index_value(spec, frame)
            if value[0] in ("dict", "lit"):
                known.append((key, value))
        if len(passed) > 7:  # dict displays: a new dict each call, known from the facts
            known.extend(passed[7])
        return tuple(known)

    def call_function(self, module: ModState, func, passed=None, known=()):
        """Replay a call; what it returns when that is a plain literal known to be the one
        returned (("lit", value)), else None."""
        if self.call_recs:  # whose stack counts the limits below read, for memoised_call
            self.call_recs[-1].add((module.name, module.epoch, func.line))
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
        if inert is not False and not any(v[0] in _CALLED_THROUGH for _, v in known):
            # it only reads: the globals it reads are what could make a difference
            for name in inert:
                if self.ns_get(module, name) is not MISSING:
                    break  # a module global where a builtin was: run it all
            else:
                return
        self.calls.append(id(func))
        self.recursing.append((id(func), len(self.stack)))
        self.call_sigs.append((module.name, module.epoch, func.line, len(self.stack)))
        frame = Frame_("function", module, func.local_names, func.global_names)
        if passed is not None:  # parameters left to a literal default have a known value
            n_positional, keywords, objects = passed[:3]
            given = set(func.positional[:n_positional]) | set(keywords)
            for name, value in func.defaults:
                if name not in given:
                    frame.locals[name] = ("dict", ()) if value == EMPTY_DICT else ("lit", value)
            for name in func.positional[:objects]:
                frame.locals[name] = ("obj",)  # an object: truthy, not None, no literal
            if len(passed) > 3:  # literal arguments: their parameters have a known value
                params = set(func.positional) | {n for n, _ in func.defaults}
                for key, value in (*((k, ("lit", v)) for k, v in passed[3]), *known):
                    name = key if key.__class__ is str else \
                        func.positional[key] if key < len(func.positional) else None
                    if name in params:
                        frame.locals[name] = value
                if func.vararg is not None:
                    extra = _extra_positional(passed, known, len(func.positional))
                    if extra is not None:
                        frame.locals[func.vararg] = ("lit", extra)
        self.frames.append(frame)
        try:
            self.exec_block(func.body, frame)
            tail = func.returns[0] if func.returns else None
            if tail is not None and tail[0] == "ref" and not tail[2]:
                self.escape(tail[1], frame)  # the caller holds it now, not followed
            returned = func.returns and self.returned_plain(tail, frame)
        except FunctionReturn as exit_:
            returned = func.returns and not exit_.raised and self.returned_plain(exit_.value,
                                                                                 frame)
        except SimError as err:
            err.uncertain = err.uncertain or frame.uncertain
            raise
        finally:
            self.frames.pop()
            self.calls.pop()
            self.recursing.pop()
            self.call_sigs.pop()
        # a `return` after an `if` that may have left first, or in a handler that may not
        # have run, is not surely the one taken
        return returned or None if not (frame.uncertain or frame.unsure_return) else None

    def class_value(self, ev, frame, namespace: dict, after, meta):
        """What a class statement binds: ("c", module, epoch, its __init__ or None, its
        methods, decorated, the classes after it in its MRO (_mro_after), its analysed
        metaclass or None, (its constants, every name it binds) or None) when a call of it
        runs just that __init__ (events.ClassBody: its bases analysed classes of that kind, or
        builtin ones) or when `Cls.name` finds one of
        its functions (ClassBody.methods: ((name, (kind, the function as `namespace`, the
        class body's, binds it)), ...); `decorated`: (class name, line of a decorator that
        may replace it) or None); else an opaque value."""
        module = frame.module
        # ev.methods: each name once, in the facts' order (so equal classes give equal values)
        methods = []
        for name, kind, line in ev.methods:
            value = namespace.get(name)
            if value is not None and value[0] == "f" and value[3] is not None and \
                    value[3].line == line:
                methods.append((name, (kind, value)))
        if ev.inherits is not None:
            methods += self._inherited_methods(ev, frame, {n for n, _ in methods})
        methods = tuple(methods)
        if ev.hidden:  # its functions, as the decorator gives the class back (assumed)
            return ("c", module.name, module.epoch, None, methods, (ev.name, ev.hidden),
                    None, None, None) if methods else OPAQUE
        names = None
        if ev.bound is not None:  # its constants, and every name it binds
            own, written = ev.bound
            names = (tuple((n, v) for n in own if (v := namespace.get(n)) is not None and
                           v[0] == "lit" and _constant(v[1])), frozenset((*own, *written)))
        init = None
        if meta is None:
            if ev.init is not None and self._plain_bases(ev, frame):
                init = ev.init
            elif ev.plain:
                init = self._inherited_init(ev, frame)
        if init is None and not methods and meta is None and not (names and names[0]):
            return OPAQUE
        return ("c", module.name, module.epoch, init, methods, None, after, meta, names)

    def metaclass_of(self, ev, frame):
        """The analysed metaclass a class statement's class is made by: its `metaclass=`,
        or the one of its first base made by one; None for `type` (or one not modelled)."""
        if ev.metaclass is not None:
            if ev.metaclass == "?":
                return None
            try:
                meta = self.resolve(ev.metaclass[0], ev.metaclass[1], frame)
            except (SimError, SimUnknown):
                return None
            return meta if meta[0] == "c" and meta[5] is None and meta[6] is not None \
                else None
        for chain in ev.bases:
            if chain is None or chain in PLAIN_BASES:
                continue
            try:
                base = self.resolve(chain[0], chain[1], frame)
            except (SimError, SimUnknown):
                continue
            if base[0] == "c" and base[7] is not None:
                return base[7]
        return None

    def make_class(self, value, ev, frame, after, meta, namespace: dict) -> None:
        """What making the class runs before its name is bound: the metaclass's `__new__`,
        the `__set_name__` of the objects its body bound, the `__init_subclass__` of the
        class after it in its MRO (type.__new__ calls both), the metaclass's `__init__`,
        each where analysed code defines it."""
        cls = value if value[0] == "c" else \
            ("c", frame.module.name, frame.module.epoch, None, (), None, after, meta, None)
        made = (4, (), 1, ((1, ev.name),))  # (the metaclass or the class, name, bases, ns)
        if meta is not None:
            self.meta_function(meta, "__new__", made, meta)
        self.set_names(cls, ev.name, namespace)
        if after is not None:
            self.init_subclass(cls, ev.keywords)
        if meta is not None:
            self.meta_function(meta, "__init__", made, cls)

    def set_names(self, cls: tuple, name: str, namespace: dict) -> None:
        """type.__new__ calls `value.__set_name__(cls, attr)` for each object of an analysed
        class the class body bound (a descriptor), in the body's order. Before 3.12 what it
        raises comes out as a RuntimeError."""
        for attr, value in list(namespace.items()):
            if value[0] != "inst":
                continue
            found = self.instance_attribute(value, "__set_name__")
            if found[0] != "bm":
                continue
            module = self.deref(found)
            if module is None:
                continue
            try:
                self.call_in(module, self.program.function_body(module.name, found[3]),
                             (3, (), 2, ((2, attr),)), ((0, value), (1, cls)), None)
            except SimError as err:
                if self.program.target_version >= (3, 12):
                    raise
                wrapped = SimError("RuntimeError", None, None, f"Error calling __set_name__ "
                                   f"on instance '{attr}' in '{name}' ({err})", err.info.chain,
                                   uncertain=err.uncertain)
                raise wrapped from None

    def meta_function(self, meta, attr: str, passed, first, known=()) -> bool:
        """Replay the function `attr` of the first class of the metaclass's MRO that defines
        it, with `first` as its first argument; False where none of the analysed code does."""
        mro = (meta, *meta[6])
        found = _mro_function(mro, attr)
        if found is None:
            return False
        i, kind, func = found
        module = self.deref(func)
        if module is None:
            return False
        # shallowly, as an __init__: its own reads and imports, and the class's methods it
        # calls (over a namespace and bases not known, deeper replays decide nothing)
        self.shallow += 1
        making, self.making = self.making, first if first[0] == "c" else None
        try:
            self.call_in(module, self.program.function_body(module.name, func[3]), passed,
                         (*known, (0, first)), (mro[i + 1:], first))
        finally:
            self.shallow -= 1
            self.making = making
        return True

    def _mro_after(self, chains, frame) -> tuple | None:
        """The classes after a class with these bases in its MRO (C3, as CPython makes it),
        as their values; a builtin base as "builtin:NAME" (its own MRO but object), and
        "object" last. None when a base is no class the simulator models."""
        seqs = []
        bases = []
        for chain in chains:
            if chain is None:
                return None
            if self._builtin_base(chain, frame):
                name = "object" if chain == ("object", ()) else "builtin:" + ".".join(
                    (chain[0], *chain[1]))
                seqs.append((name, "object") if name != "object" else ("object",))
                bases.append(name)
                continue
            try:
                base = self.resolve(chain[0], chain[1], frame)
            except (SimError, SimUnknown):
                return None
            if base[0] != "c" or base[5] is not None or base[6] is None:
                name = self.external_base(chain, frame)
                if name is None:
                    return None
                seqs.append((name, "object"))
                bases.append(name)
                continue
            seqs.append((base, *base[6]))
            bases.append(base)
        if not bases:
            return ("object",)
        return _c3([*seqs, tuple(bases)])

    def _inherited_methods(self, ev, frame, own: set) -> list:
        """The functions of the one base class (ClassBody.inherits) that `Cls.name` finds
        through it: those of names the class body does not bind and the module's text may
        not assign."""
        try:
            base = self.resolve(ev.bases[0][0], ev.bases[0][1], frame)
        except (SimError, SimUnknown):
            return []
        if base[0] != "c" or base[5] is not None:
            return []
        return [(n, m) for n, m in base[4] if n not in own and n not in ev.inherits]

    def _inherited_init(self, ev, frame):
        """What a call of a class with no `__init__` of its own (ClassBody.plain) runs:
        "object" (no base has one), "builtin" (a builtin base's comes first: nothing of the
        analysed code runs), or ("in", module, epoch, the `__init__`) of the first base whose
        call runs one, in the order of the bases (the MRO's for these); None when a base is
        no class of that kind."""
        found = "object"
        for chain in ev.bases:
            if chain in PLAIN_BASES and self.reads_builtin(chain[0], frame):
                if found == "object" and chain != ("object", ()):
                    found = "builtin"  # its __init__ is found first: none of ours runs
                continue
            try:
                base = self.resolve(chain[0], chain[1], frame)
            except (SimError, SimUnknown):
                return None
            if base[0] != "c" or base[3] is None or base[5] is not None:
                return None
            if found == "object" and base[3] != "object":
                found = base[3] if base[3].__class__ is tuple or base[3] == "builtin" \
                    else ("in", *base[1:4])
        return found

    def _plain_bases(self, ev, frame) -> bool:
        for chain in ev.bases:
            if self._builtin_base(chain, frame) or \
                    self.external_base(chain, frame) is not None:
                continue
            try:
                base = self.resolve(chain[0], chain[1], frame)
            except (SimError, SimUnknown):
                return False
            if base[0] != "c" or base[3] is None:
                return False
        return True

    def _builtin_base(self, chain, frame) -> bool:
        """Is the base a builtin class whose instances type.__call__ makes (PLAIN_BASES, or
        types.ModuleType), read where no module global hides it?"""
        return chain in PLAIN_BASES and self.reads_builtin(chain[0], frame) or \
            chain == ("types", ("ModuleType",)) and self.reads_builtin("types.ModuleType", frame)

    def external_base(self, chain, frame) -> str | None:
        """"ext:NAME" for a base class from outside the analysed code (named through a
        module-level import of a library module, the name bound by nothing else): made by
        type.__call__, running none of the analysed code (not `enum`'s, whose metaclass
        decides what a call does); else None."""
        names = self.program.external_names.get(frame.module.name)
        if names is None:
            names = self.program.external_names[frame.module.name] = \
                self._imported_externals(frame.module.name)
        root = names.get(chain[0])
        if root is None or root.partition(".")[0] in _METACLASSED:
            return None
        return "ext:" + ".".join((root, *chain[1]))

    def _imported_externals(self, module: str) -> dict:
        """{name: what it names} for the module-level names bound only by imports of
        library modules (`import logging`, `from logging import Handler`)."""
        facts = self.program.facts.get(module)
        if facts is None:
            return {}
        found: dict = {}
        local = set()
        for ev in walk(facts.body):
            cls = ev.__class__
            if cls is Import and ev.call is None and self.is_external(ev.module):
                name = ev.asname or ev.module.partition(".")[0]
                found.setdefault(name, set()).add(ev.module if ev.asname else name)
            elif cls is ImportFrom and ev.module is not None and \
                    self.is_external(ev.module) and ev.names[0][0] != "*":
                for n, asname in ev.names:
                    found.setdefault(asname or n, set()).add(f"{ev.module}.{n}")
            else:
                local.update(_bound_by(ev))
        return {name: next(iter(what)) for name, what in found.items()
                if len(what) == 1 and name not in local}

    def instance_attribute(self, value, attr: str):
        """`obj.attr` of ("inst", class value), an object a replayed `__init__` makes: the
        class's own function of that name bound to it, as ("bm", ..., the object, decorated)
        (a classmethod's to the class, a staticmethod as it is); else opaque (the object's
        own attributes are not followed)."""
        cls = value[1]
        for name, (kind, func) in cls[4]:
            if name == attr and not _shadowed(cls[3], attr):
                if any(n == "__getattribute__" for n, _ in cls[4]):
                    return OPAQUE  # every lookup goes through it
                if kind == "staticmethod":
                    return func if cls[5] is None else (*func, cls[5])
                return ("bm", *func[1:4], cls if kind == "classmethod" else value, cls[5])
        if self.lazy_all and attr not in _set_by_init(cls[3]) and self._refusing(cls):
            # sympy's `S.Catalan`: filled while other modules are imported, which lazily
            # may not have run; taken as there only in the ordinary (eager) order
            raise SimUnknown(f"`.{attr}` of an instance of a class of {cls[1]} whose "
                             "`__getattr__` raises AttributeError for names not filed yet: "
                             "lazily the modules that file them may not have run (what "
                             "files them at import time is not followed)")
        return OPAQUE

    def _refusing(self, cls) -> bool:
        """Does the class's `__getattr__` raise AttributeError itself (a registry that
        answers only the names filed so far), rather than forward the lookup?"""
        for name, (_, func) in cls[4]:
            if name == "__getattr__" and func[0] == "f" and func[3] is not None:
                module = self.deref(func)
                body = self.program.function_body(module.name, func[3]).body \
                    if module is not None else None
                return body is None or _raises(body, "AttributeError")
        return False

    def class_attribute(self, value, attr: str):
        """`Cls.attr` of a class value: its own function of that name as a function value
        (a classmethod's as ("bm", module, epoch, function, the class, decorated)); of a
        decorated class, the function value carries `decorated` too (decorated_call); else
        opaque."""
        for name, (kind, func) in value[4]:
            if name == attr:
                if kind == "classmethod":
                    return ("bm", *func[1:4], value, value[5])
                return func if value[5] is None else (*func, value[5])
        return _class_constant(value, attr)

    def decorated_call(self, decorated, attr: str, frame) -> None:
        """A call of a function of a class whose decorator may replace it: replayed as the
        class's, an assumption of the result (unknown with --strict)."""
        name, line = decorated
        at = self.stack[-1] if self.stack else frame.module
        why = f"class decorator at line {line} taken to give {name} back"
        if self.program.strict:
            raise SimUnknown(f"{name}.{attr}() at {at.info.path}:{at.line}: {name} has a class "
                             f"decorator (line {line}) that may replace it, which --strict "
                             "does not assume")
        self.assume(Assumption(at.name, f"{name}.{attr}", at.info.path, at.line, why,
                               "decorator"))

    def returned_literal(self, name: str, attrs: tuple, frame):
        """What a call `name.attrs()` returns when the function is analysed and its body is
        only `return <constant>` (`config.is_fbcode()`), as ("lit", value); else None."""
        try:
            owner = self.lookup(name, frame) if len(attrs) == 1 else None
            if owner is not None and owner[0] == "lit" and isinstance(owner[1], PureObject):
                try:  # an os.DirEntry's is_file() / is_dir()
                    return ("lit", owner[1].call(attrs[0], (), False))
                except NoValue:
                    return None
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

    def pure_value(self, program, frame):
        """The value of an expression of pure code (purefn), now: calls of analysed pure
        functions evaluated on the data they are given; opaque when it cannot be. (A value
        read from the environment is no assumption yet: a test on it decides nothing here,
        and most such values are settings that decide nothing at all.)"""
        try:
            return _to_sim(self.pure_data(program, frame, self.quiet_environment), 0)
        except NoValue:
            return OPAQUE

    def pure_item(self, spec, frame):
        """("evalitem", program, i, n): item i of the value pure code computes, when it is a
        tuple or list of n items; else opaque (the unpacking's error is not followed)."""
        try:
            value = self.pure_data(spec[1], frame, self.quiet_environment)
        except NoValue:
            return OPAQUE
        if value.__class__ in (tuple, list) and len(value) == spec[3]:
            return _to_sim(value[spec[2]], 0)
        return OPAQUE

    def pure_truth(self, program, frame) -> object:
        """The truth of a purefn program's value now, for an `if`; UNDECIDED if not known."""
        try:
            return bool(self.pure_data(program, frame, self.pure_environment))
        except NoValue:
            return UNDECIDED

    def module_known(self, how: str, program, frame) -> object:
        """Is the analysed module the program names in sys.modules now ("loaded"), or one
        that exists ("exists": find_spec finds it)? UNDECIDED for other modules: what is
        installed or imported outside the analysed code is not known."""
        try:
            name = evaluate(program, self._pure_name, frame)
        except NoValue:
            return UNDECIDED
        if name.__class__ is not str or name.startswith(".") or \
                name.partition(".")[0] not in self.program.tops:
            return UNDECIDED
        if how == "loaded":
            return self.state(name) is not None
        return name in self.program.index

    def pure_data(self, program, frame, environment=None):
        """evaluate() over the directory listings read at check time (dirlisting.py):
        where CPython may have written `__pycache__` into a listed directory first, the
        value must not depend on it; a listing read in the file system's order is an
        assumption of the result (unknown with --strict). Raises NoValue."""
        saved = self.listed_now
        found = self.listed_now = Listings(self.program.listings)
        try:
            value = evaluate(program, self._pure_name, frame, versions=self.pure_version,
                             environment=environment)
            if found.pycache:
                for variant in (1, 2):
                    self.listed_now = Listings(self.program.listings, variant)
                    if evaluate(program, self._pure_name, frame,
                                versions=self.pure_version,
                                environment=self.quiet_environment) != value:
                        found.refused = "a directory it lists may hold `__pycache__` when " \
                            "the code runs (CPython writes bytecode there), which changes " \
                            "the value"
                        raise NoValue(found.refused)
        finally:
            self.listed_now = saved
        for directory, call in found.unsorted.items():
            self.order_read(directory, call, frame)
        return value

    def order_read(self, directory: str, call: str, frame) -> None:
        at = self.stack[-1] if self.stack else frame.module
        why = f"directory order as listed at check time ({call}())"
        if self.program.strict:
            raise SimUnknown(f"{call}() at {at.info.path}:{at.line} lists {directory} in the "
                             "file system's order, which --strict does not assume")
        self.assume(Assumption(at.name, directory, at.info.path, at.line, why, "listing"))

    def _pure_name(self, scope, name: str):
        """What a name read by pure code holds, for purefn: ("data", value), ("func", f) or
        None. `scope` is the frame the expression runs in, or a pure function's module."""
        root, dot, rest = name.partition(".")
        if dot:  # a dotted call (purefn._STD_CALLS): of os, os.path or glob only
            found = self._pure_name(scope, root)
            value = found[1] if found is not None and found[0] == "std" else None
            return self._std_function(f"{value}.{rest}", scope) if value else None
        st = scope.module if scope.__class__ is Frame_ else scope
        if scope.__class__ is Frame_:
            frame = scope
            if frame.kind == "function" and name in frame.local_names:
                return self._held(frame.locals.get(name), scope)
            if frame.kind == "class":
                found = frame.locals.get(name, MISSING)
                if found is not MISSING:
                    return self._held(found, scope)
                if frame.outer is not None and name in frame.outer.local_names:
                    return self._held(frame.outer.locals.get(name), scope)
        found = self.ns_get(st, name)
        if found is MISSING:
            if name in BUILTINS and not self.wildcard_of(st) and not self.dynamic_of(st):
                return ("func", BUILTINS[name])
            if name == "__file__" and st.info.kind in ("module", "package") and \
                    not self.wildcard_of(st) and not self.dynamic_of(st):
                return ("data", st.info.path)
            return None
        if found[0] in ("std", "path", "m"):
            return self._held(found, scope)
        if found[0] == "f" and found[3] is not None:
            module = self.deref(found)
            if module is None:
                return None
            pure = self.program.function_body(module.name, found[3]).pure
            return ("func", Function(pure, module)) if pure is not None else None
        return _data(found)

    def _held(self, value, scope):
        """What a name holding `value` gives purefn: a modelled library module or function
        (("std", qualified name)), else its data."""
        if value is not None and value[0] == "std":
            return ("std", value[1]) if value[1] in STD_MODULES else \
                self._std_function(value[1], scope)
        if value is not None and value[0] == "path" and len(value) == 3:
            if value[2] == "str":
                return ("data", value[1])
            found = self._std_function("pathlib.Path", scope)  # bound to the listings now
            return ("data", PathValue(value[1], found[1].listings, found[1].allowed))
        if value is not None and value[0] == "m":
            return ("data", ModuleValue(value, self))
        return _data(value)

    def _std_function(self, qualified: str, scope):
        if qualified in STD_MODULES:
            return ("std", qualified)
        if qualified == "typing.cast":
            return ("func", CAST)
        if qualified not in STD_FUNCTIONS:
            return None
        st = scope.module if scope.__class__ is Frame_ else scope
        summary = dict.get(self.program.facts, st.name)
        # only a module that may list its directory has results keyed on that listing
        allowed = os.path.normpath(os.path.dirname(st.info.path)) \
            if summary is not None and summary.lists_dirs else None
        return ("func", StdFunction(qualified, self.listed_now, allowed))

    def e_Exit(self, ev: Exit, frame):
        value = None
        if ev.value is not None and ev.value[0] == "call":
            self.returned_call(ev, frame)
        if ev.value is not None and ev.value[0] == "lit":
            value = ev.value
        elif ev.value is not None and frame is self.asking:  # what a __getattr__ answers
            try:
                value = self.resolve(ev.value[1], ev.value[2], frame)
            except (SimError, SimUnknown):
                value = None
        elif ev.value is not None and ev.value[0] == "ref":
            value = self.returned_plain(ev.value, frame)
            if value is None and not ev.value[2]:
                self.escape(ev.value[1], frame)  # the caller holds it now, not followed
        raise FunctionReturn(ev.exception, self.handled, value)

    def returned_plain(self, spec, frame):
        """The value of `return name` when `name` holds a plain literal (None, a bool, a
        number, a string), read without a trace (the Use before the Exit made the read);
        else None."""
        if spec is None or spec[0] != "ref":
            return spec if spec is not None and spec[0] == "lit" and \
                spec[1].__class__ in _PLAIN_RETURNED else None
        if spec[2]:
            return None
        name = spec[1]
        if frame.kind == "function" and name in frame.local_names:
            value = frame.locals.get(name)
        elif frame.kind == "function":
            value = self.ns_get(frame.module, name)
        else:
            return None
        if value is None or value is MISSING or value[0] != "lit" or \
                value[1].__class__ not in _PLAIN_RETURNED:
            return None
        return value

    def returned_call(self, ev: Exit, frame) -> None:
        """`return f(x)`. In a module `__getattr__` being replayed, with `f` an analysed
        function and `x` a known string (the name asked, handed on to a saved earlier
        `__getattr__`), `f` is replayed as a `__getattr__` for it, and what it returns or
        raises ends this one; anywhere else the call runs as any call does."""
        _, name, attrs, arg, passed = ev.value
        if frame is self.asking:
            try:
                value, given = self.resolve(name, attrs, frame), self.lookup(arg, frame)
            except (SimError, SimUnknown):
                value = given = OPAQUE  # the reads were made, by the return's own events
            if value[0] == "f" and value[3] is not None:
                if given[0] != "lit" or given[1].__class__ is not str:
                    self.unresolved = self.unresolved or name  # replayed, its answer unknown
                elif self.replay_getattr(value, given[1], True, self.asking_owner, name):
                    raise FunctionReturn("", self.handled, self.answer)
                else:
                    raise FunctionReturn("AttributeError", self.handled)
        self.e_Call(Call(ev.line, name, attrs, passed), frame)

    def e_Raise(self, ev: Raise, frame):
        if ev.exception == PROCESS_EXIT:  # the process ends: nothing after it happens
            raise SimUnknown(f"{ev.message} (line {ev.line})")
        err = self.error(ev.exception, None, None, ev.message)
        err.explicit = True
        raise err


def _raises(body, exception: str) -> bool:
    todo = list(body)
    while todo:
        ev = todo.pop()
        cls = ev.__class__
        if cls is Exit and ev.exception == exception:
            return True
        if cls is If:
            todo.extend((*ev.body, *ev.orelse))
        elif cls is Try:
            todo.extend((*ev.body, *ev.orelse, *ev.final,
                         *(e for h in ev.handlers for e in h.body)))
    return False


def _init_self(init) -> tuple:
    """(an `__init__`'s body, the name of its object parameter), or ((), None)."""
    func = init[3] if init.__class__ is tuple else init
    body = getattr(func, "body", None)
    if not body or not func.positional:
        return (), None
    return body, func.positional[0]


def _set_by_init(init) -> frozenset[str]:
    """The attributes an `__init__` sets on its object unconditionally (`self.x = ...`)."""
    body, me = _init_self(init)
    return frozenset(ev.attrs[0] for ev in body
                     if ev.__class__ is SetAttr and ev.name == me and len(ev.attrs) == 1)


def _shadowed(init, attr: str) -> bool:
    """Does the `__init__` set `self.attr` anywhere in its body (an instance attribute that
    hides the class's function of that name)?"""
    body, me = _init_self(init)
    return any(ev.__class__ is SetAttr and ev.name == me and ev.attrs[0] == attr
               for ev in walk(body))


# known arguments whose attributes a call replays (`m.f()`, `obj.run()`): a body that calls a
# parameter holding one is not inert
_CALLED_THROUGH = frozenset({"m", "inst"})


def _inert_reads(func) -> tuple[str, ...] | bool:
    """The names a function body reads from its module, in order, when a call of it can do
    nothing but succeed as long as its module binds none of them: a body of reads and calls
    only (no binding, so its locals hold no module), each of a local or of a builtin
    (a decorator such as `def callback(f): setattr(f, "_cb", True); return f`, called
    for every decorated function). False for any other body. (Reads of locals or builtins
    cannot fail, and calls of them run nothing the simulator follows: Simulator.lookup.)"""
    names: dict[str, None] = {}
    local = func.local_names
    body = func.body
    last = body[-1] if body else None
    if last.__class__ is Exit and last.value is not None and last.value[0] == "call" and \
            not last.exception:
        body = body[:-1]  # `return f(x)`: its Call is in the body, `x` read by a Use
    for ev in body:
        cls = ev.__class__
        if cls is not Use and (cls is not Call or ev.attrs and ev.attrs[-1] in MUTATING or
                               ev.name == "super" and ev.attrs):
            return False  # (a change of a container passed to it is not a read; super()
            # runs another class's function)
        name = ev.name
        if name in local:
            continue
        if name not in BUILTIN_NAMES:
            return False
        names[name] = None
    return tuple(names)


_SCALARS = (str, int, float, bool, bytes, type(None))


def instance_of(cls) -> tuple | None:
    """What a call of the class value `cls` returns: ("inst", cls) where the call is known
    to make an instance (its `__init__` is known: no metaclass, `__new__` or class decorator
    decides otherwise), else None."""
    if cls[0] != "c" or cls[3] is None or cls[5] is not None:
        return None
    return ("inst", cls)


def _constant(value) -> bool:
    return value.__class__ in _SCALARS or value.__class__ is tuple and all(
        v.__class__ in _SCALARS for v in value)


def _class_constant(value, attr: str):
    """`Cls.attr` where the class body, or the body of the first class after it in its MRO
    that binds the name, binds it to a constant (and the module's text assigns no such
    attribute): ("lit", the constant); else opaque."""
    mro = (value, *value[6]) if value[6] is not None else (value,)
    for cls in mro:
        if cls.__class__ is str or len(cls) < 9 or cls[8] is None:
            return OPAQUE  # a builtin's or library class's, or names not known
        constants, bound = cls[8]
        for name, found in constants:
            if name == attr:
                return found
        if attr in bound:
            return OPAQUE
    return OPAQUE


def _bound_by(ev) -> tuple:
    """The names an event binds itself (not those of the blocks in it), imports aside."""
    cls = ev.__class__
    if cls is Bind:
        return ev.names
    if cls is Def or cls is ClassBody:
        return (ev.name,)
    if cls is ForEach:
        return tuple(n for n in ev.targets if n)
    if cls is Try:
        return tuple(h.name for h in ev.handlers if h.name)
    return ()


def _builtin_has(marker: str, attr: str) -> bool:
    """Does the builtin class of a "builtin:NAME" marker (callreplay.PLAIN_BASES, or
    types.ModuleType), or "object", have the attribute? Read from this interpreter's own
    classes."""
    import builtins
    import types
    if marker.startswith("ext:"):
        return True  # a library class's: taken to run none of the analysed code
    name = marker.partition(":")[2] or marker
    found = types.ModuleType if name == "types.ModuleType" else getattr(builtins, name)
    return hasattr(found, attr)


def _c3(seqs: list) -> tuple | None:
    """C3's merge of the bases' MROs and the list of bases; None where CPython would raise
    TypeError (no consistent order)."""
    seqs = [list(seq) for seq in seqs if seq]
    out = []
    while seqs:
        for seq in seqs:
            head = seq[0]
            if not any(head in other[1:] for other in seqs):
                break
        else:
            return None
        out.append(head)
        seqs = [rest for rest in ([x for x in seq if x != head] if seq[0] == head else seq
                                  for seq in seqs) if rest]
    return tuple(out)


def _mro_function(mro: tuple, attr: str):
    """(index, kind, function) of the first class of `mro` (class values and builtin
    markers) that defines `attr`, when it is an analysed one; else None."""
    for i, cls in enumerate(mro):
        if cls.__class__ is str:
            if cls == "object" or _builtin_has(cls, attr):
                return None
            continue
        for name, (kind, func) in own_functions(cls):
            if name == attr:
                return i, kind, func
    return None


def own_functions(cls: tuple) -> tuple:
    """The functions a class value's own body defines: a class with one base lists that
    base's functions too (ClassBody.inherits), which its MRO's next class lists."""
    after = cls[6]
    nxt = after[0] if after else None
    if nxt is None or nxt.__class__ is not tuple:
        return cls[4]
    theirs = {id(entry[1][1][3]) for entry in nxt[4]}
    return tuple(entry for entry in cls[4] if id(entry[1][1][3]) not in theirs)


def _after_definer(obj, func, init: bool = False):
    """The classes after the one that defines `func` in the MRO of `obj`'s class (`obj`
    an instance or a class), for `super()` in it, or None when not known."""
    cls = obj[1] if obj[0] == "inst" else obj
    if cls[0] != "c" or len(cls) < 7 or cls[6] is None:
        return None
    mro = (cls, *cls[6])
    for i, c in enumerate(mro):
        if c.__class__ is tuple and (c[3] is func if init else any(
                entry[1][1][3] is func for entry in own_functions(c))):
            return mro[i + 1:]
    return None


def _extra_positional(passed, known: tuple, named: int) -> tuple | None:
    """The values a `*args` parameter gets: the positional arguments after the `named`
    ones, when each is a literal (or a name holding one); None when any is not known."""
    n_positional, objects = passed[0], passed[2]
    if objects > named or len(passed) < 4:
        return None
    given = {key: value for key, value in passed[3] if key.__class__ is int}
    given.update((key, value[1]) for key, value in known
                 if key.__class__ is int and value[0] == "lit" and key not in given)
    if any(i not in given for i in range(named, n_positional)):
        return None
    return tuple(given[i] for i in range(named, n_positional))


def _with_self(passed):
    """A call's arguments as `__init__` gets them: the new object first."""
    if passed is None:
        return None
    n_positional, keywords, objects, *rest = passed
    return (n_positional + 1, keywords, objects + 1, *(_shifted(part) for part in rest))


def _all_known(passed, known: tuple) -> bool:
    """Does a call pass only arguments whose values are known (literals, known values of
    names, leading objects)?"""
    if passed is None:
        return False
    n_positional, keywords, objects = passed[:3]
    given = {k for k, _ in passed[3]} if len(passed) > 3 else set()
    given.update(k for k, _ in known)
    given.update(range(objects))
    return all(i in given for i in range(n_positional)) and all(k in given for k in keywords)


def _shifted(known: tuple, by: int = 1) -> tuple:
    return tuple((k + by if k.__class__ is int else k, v) for k, v in known)


def _after_given(given, passed):
    """The arguments of `partial(f, *given)(*passed)` as f gets them: the given ones first,
    the call's after them (their positions shifted); None with *args or **kwargs, or a
    keyword given twice (CPython's call then takes the later, not followed)."""
    if passed is None or set(given[1]) & set(passed[1]):
        return None
    n = given[0]
    literals = (*(given[3] if len(given) > 3 else ()),
                *_shifted(passed[3] if len(passed) > 3 else (), n))
    return (n + passed[0], (*given[1], *passed[1]), 0, literals)


class ModuleValue(PureObject):
    """A module object as purefn sees it: its `__name__`, and its `__file__` (for a
    package, its directory's listing may then be read)."""

    __slots__ = ("value", "sim")

    def __init__(self, value, sim):
        self.value, self.sim = value, sim  # ("m", name, epoch), the Simulator

    def __eq__(self, other):
        return other.__class__ is ModuleValue and other.value == self.value

    def __hash__(self):
        return hash(self.value)

    def attribute(self, attr: str):
        sim = self.sim
        st = sim.deref(self.value)
        if st is None or st.opaque or attr not in ("__name__", "__file__"):
            raise NoValue(f"module attribute {attr}")
        found = sim.ns_get(st, attr)
        if found is not MISSING:
            if found[0] == "lit" and found[1].__class__ is str:
                return found[1]
            raise NoValue(f"module attribute {attr}")
        info = st.info
        if attr != "__file__" or info.kind not in ("module", "package") or \
                sim.wildcard_of(st) or sim.dynamic_of(st):
            raise NoValue(f"module attribute {attr}")
        if info.kind == "package" and sim.listed_now is not None:
            sim.listed_now.packages.add(os.path.normpath(os.path.dirname(info.path)))
        return info.path

    def call(self, method: str, args, sorting: bool = False):
        """`dask.config.get(key[, default])` of an analysed dask (daskconfig.py)."""
        sim = self.sim
        st = sim.deref(self.value)
        if st is None or st.opaque or st.name != CONFIG_MODULE or method != "get" or \
                not 1 <= len(args) <= 2:
            raise NoValue(f"module method {method}")
        found = sim.ns_get(st, "get")
        program = sim.program
        if found is MISSING or found[0] != "f" or sim.status_of(st) != "done" or \
                any(name.startswith("DASK_") for name, _ in program.env):
            raise NoValue("dask.config.get")
        known, value = program.dask_defaults.get(args[0], args[-1], len(args) == 2)
        if not known:
            raise NoValue("dask.config.get")
        at = sim.stack[-1] if sim.stack else st
        sim.assume(Assumption(at.name, args[0], at.info.path, at.line,
                              f"dask configuration {args[0]!r} taken as {DEFAULTS_FILE}'s "
                              f"{value!r}: no DASK_* variable, no configuration file of the "
                              "user's, nothing else changed it", "environment"))
        return value


def _data(value):
    """A value the simulator holds as plain data for purefn: ("data", value), or None.
    A dict only when every entry is known (a list is held as a dict of opaque entries)."""
    if value is None:
        return None
    found = _from_sim(value, 0)
    return ("data", found) if found is not _UNKNOWN else None


_UNKNOWN = object()


def _from_sim(value, depth):
    if value[0] == "lit" and len(value) == 2 and (_is_plain(value[1], 0) or isinstance(
            value[1], PureObject)):
        return value[1]
    if value[0] == "dict" and len(value) == 3 and value[2] == "list" and depth < 8:
        return [k for k, _ in value[1]]  # a list purefn made (_to_sim)
    if value[0] == "dict" and len(value) == 2 and value[1] and depth < 8:
        out = {}
        for key, item in value[1]:
            found = _from_sim(item, depth + 1)
            if found is _UNKNOWN:
                return _UNKNOWN
            out[key] = found
        return out
    return _UNKNOWN


def _is_plain(value, depth) -> bool:
    if value.__class__ in _SCALARS:
        return True
    return value.__class__ is tuple and depth < 8 and all(_is_plain(v, depth + 1) for v in value)


def _to_sim(value, depth):
    """Plain data back as the simulator holds it: scalars and tuples of them as literals, a
    dict with string keys as ("dict", entries), a list of scalars as a dict of opaque
    entries (shapes._sequence_value's form, for `in` tests and loops); else opaque."""
    if _is_plain(value, 0):
        return ("lit", value)
    if depth < 8 and value.__class__ is dict and len(value) <= MAX_DICT and all(
            k.__class__ is str for k in value):
        return ("dict", tuple((k, _to_sim(v, depth + 1)) for k, v in value.items()))
    if value.__class__ is list and len(value) <= MAX_DICT and all(
            v.__class__ in _SCALARS or isinstance(v, PureObject) and not v.mutable
            for v in value):
        # marked as a list, so purefn reads it back as one
        return ("dict", tuple((v, OPAQUE) for v in value), "list")
    return OPAQUE
