"""What the simulator's statements run in: scopes (frames), the exceptions a replay raises,
and function-body `if` tests decided from a call's arguments."""
from __future__ import annotations

from ..model import ErrorInfo
from .conditions import SCALAR_TYPES
from .events import Call, Exit, If, Try, Use


class SimError(Exception):
    """A Python exception the simulated import raises."""

    def __init__(self, exc, module, name, message, chain, defined_at=None, uncertain=None):
        super().__init__(message)
        self.info = ErrorInfo(exc, module, name, message, chain, defined_at)
        self.uncertain = uncertain  # raised in code that may not run: why
        self.explicit = False  # a `raise` statement in the analysed code, not the machinery


class SimUnknown(Exception):
    """The outcome cannot be decided statically; the argument says why."""


class LoopBreak(Exception):
    """A simulated ForEach body reached `break`."""


class LoopContinue(Exception):
    """A simulated ForEach body reached `continue`."""


class FunctionReturn(Exception):
    """A simulated function body reached `return` or `raise` (`raised`: what it raises)."""

    def __init__(self, raised: str = "", context=None, value=None):
        super().__init__(raised)
        self.raised = raised
        self.context = context  # the SimError being handled where it raised, if any
        self.value = value  # what a `return name.attrs` returns, when it was read


def may_exit(ev: If) -> bool:
    """Can the `if` leave the function? A branch that is only a `raise` is a guard, assumed
    not to fire (as a module-level one is): `if spec.loader is None: raise ...`."""
    stack = [*(() if _guard(ev.body) else ev.body), *(() if _guard(ev.orelse) else ev.orelse)]
    while stack:
        e = stack.pop()
        if e.__class__ is Exit:
            return True
        if e.__class__ is If:
            stack.extend((*e.body, *e.orelse))
        elif e.__class__ is Try:
            stack.extend((*e.body, *e.orelse, *e.final, *(x for h in e.handlers for x in h.body)))
    return False


# what a "cannot happen" check raises; not AttributeError, ImportError or KeyError, which
# __getattr__ and optional imports raise as answers
_GUARD_ERRORS = frozenset({"AssertionError", "RuntimeError", "TypeError", "ValueError",
                           "NotImplementedError", "SystemError"})


def _guard(events) -> bool:
    """Only `raise AssertionError(...)` or the like (its name read and called, then the
    exit)."""
    if not events or events[-1].__class__ is not Exit:
        return False
    name = events[-1].exception
    return name in _GUARD_ERRORS and all(
        e.__class__ in (Use, Call) and e.name == name and not e.attrs for e in events[:-1])


UNDECIDED = object()
_COMPARE = {"is": lambda a, b: a is b, "is not": lambda a, b: a is not b,
            "==": lambda a, b: a == b, "!=": lambda a, b: a != b}


def evaluate_test(test: tuple, frame, lookup=None, builtin=None, returned=None,
                  pure=None, modules=None, attribute=None, bound=None) -> object:
    """An `if` test (conditions.runtime_test) from the literal values the call left in
    parameters; UNDECIDED when anything it reads is not known. `lookup(name)`: a global's
    value, for `in` tests on a literal dict; `builtin(name)`: does the name read the builtin
    (for `isinstance` tests); `returned(name, attrs)`: the ("lit", value) a call of that
    function returns, or None; `pure(program)`: the truth of a purefn program's value, or
    UNDECIDED; `modules(how, program)`: is the module named by the program's value in
    sys.modules ("loaded") or to be found ("exists"), or UNDECIDED; `attribute(name, attrs)`:
    the value `name.attrs` holds now, or None; `bound(value, name)`: is `name` bound now in
    the module `value` holds (None: the frame's own globals), True / False / UNDECIDED."""
    kind = test[0]
    if kind == "global":
        if builtin is None or not builtin("globals"):
            return UNDECIDED
        found = bound(None, test[1]) if bound is not None else UNDECIDED
        return found if found is UNDECIDED else found != test[2]
    if kind == "hasattr":
        if bound is None or attribute is None or builtin is None or not builtin("hasattr"):
            return UNDECIDED
        value = attribute(test[1], test[2])
        return bound(value, test[3]) if value is not None else UNDECIDED
    if kind == "const":
        return test[1]
    if kind == "eval":
        return pure(test[1]) if pure is not None else UNDECIDED
    if kind == "attr":
        value = attribute(test[1], test[2]) if attribute is not None else None
        if value is not None and value[0] == "obj":
            return True
        return bool(value[1]) if value is not None and value[0] == "lit" else UNDECIDED
    if kind == "module":
        found = modules(test[1], test[2]) if modules is not None else UNDECIDED
        return found if found is UNDECIDED else found != test[3]
    if kind == "call":
        value = returned(test[1], test[2]) if returned is not None else None
        if value is None and not test[2] and pure is not None:
            return pure(("call", test[1], (), ()))  # a pure function's value (purefn)
        return bool(value[1]) if value is not None else UNDECIDED
    if kind == "unknown":
        return UNDECIDED
    if kind == "isinstance":
        if builtin is None or not all(builtin(n) for n in ("isinstance",) + test[2]):
            return UNDECIDED
        value = frame.locals.get(test[1]) if test[1] in frame.local_names else None
        if frame.kind != "function" and lookup is not None:
            value = lookup(test[1])
        values = value[1] if value is not None and value[0] == "oneof" else (value,)
        answers = {_is_instance(v, test[2]) for v in values}
        return answers.pop() if len(answers) == 1 else UNDECIDED
    if kind == "in":
        value = frame.locals.get(test[1]) if test[1] in frame.local_names else None
        if frame.kind != "function" and lookup is not None:
            value = lookup(test[1])  # a module or class body: the global (or class) name now
        box = test[2]
        keys = box[1] if box[0] == "values" else None
        if keys is None and lookup is not None:
            table = lookup(box[1])
            keys = tuple(k for k, _ in table[1]) if table is not None and \
                table[0] == "dict" else None
        if value is None or value[0] != "lit" or keys is None:
            return UNDECIDED
        return (value[1] in keys) != test[3]
    if kind == "name" or kind == "cmp":
        name = test[1] if kind == "name" else test[2]
        value = frame.locals.get(name) if name in frame.local_names else None
        if frame.kind != "function" and lookup is not None:
            value = lookup(name)  # a module or class body: the global (or class) name now
        if value is not None and value[0] == "obj":
            return True if kind == "name" else test[1] in ("is not", "!=")
        if value is None or value[0] != "lit":
            return UNDECIDED
        return value[1] if kind == "name" else _COMPARE[test[1]](value[1], test[3])
    if kind == "bases0":  # `name.__bases__[0] is object`, name a class value (callreplay)
        value = frame.locals.get(test[1]) if test[1] in frame.local_names else None
        if value is None or value[0] != "c" or value[6] is None or not value[6] or \
                builtin is None or not builtin("object"):
            return UNDECIDED
        # the first class after it in its MRO is its first base (C3), "object" when none
        return (value[6][0] == "object") != test[2]
    if kind == "acmp":
        value = attribute(test[2], test[3]) if attribute is not None else None
        if value is not None and value[0] == "obj":
            return test[1] in ("is not", "!=")
        if value is None or value[0] != "lit":
            return UNDECIDED
        return _COMPARE[test[1]](value[1], test[4])
    if kind == "not":
        inner = evaluate_test(test[1], frame, lookup, builtin, returned, pure, modules,
                              attribute, bound)
        return inner if inner is UNDECIDED else not inner
    results = [evaluate_test(part, frame, lookup, builtin, returned, pure, modules, attribute,
                             bound) for part in test[1]]
    deciding = (lambda v: not v) if kind == "and" else bool  # the value that settles it
    if any(r is not UNDECIDED and deciding(r) for r in results):
        return kind == "or"
    return UNDECIDED if any(r is UNDECIDED for r in results) else kind == "and"


def _is_instance(value, types: tuple[str, ...]) -> object:
    """isinstance() of a value the simulator holds and builtin scalar types (or stdlib
    types no literal is an instance of, "types.ModuleType"), or UNDECIDED: a literal's own
    type, and a literal container (or list of names) is none of them."""
    if value is None:
        return UNDECIDED
    if value[0] == "lit":
        return isinstance(value[1], tuple(SCALAR_TYPES[t] for t in types if t in SCALAR_TYPES))
    return False if value[0] in ("dict", "all") else UNDECIDED


class Frame_:
    """A running scope: module top level, a class body, or a called function."""

    __slots__ = ("kind", "module", "locals", "local_names", "global_names", "outer",
                 "uncertain", "in_try", "guards", "fresh", "unsure_return")

    def __init__(self, kind, module, local_names=frozenset(), global_names=frozenset(),
                 outer=None):
        self.kind = kind
        self.module = module
        self.locals: dict = {}
        self.local_names = local_names
        self.global_names = global_names
        self.outer = outer  # the function a class body runs in: its locals are visible
        self.uncertain: str | None = None  # why code from here on may not run
        self.in_try = 0  # how many `try` statements enclose the running code (PEP 810)
        self.guards: list = []  # the Try events whose body is running here, innermost last
        # why a `return` reached may not be the one CPython takes (a handler ran for an
        # exception that may not be raised), or None
        self.unsure_return: str | None = None
        # locals holding a container the call made itself, which no other name holds yet
        self.fresh: set | None = None
