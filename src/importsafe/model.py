"""Value objects shared by every stage: outcomes, chains, diagnostics, reports.

Everything here is a frozen dataclass holding tuples, so results can be cached, compared and
sent between processes.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Mode = Literal["normal", "bare", "lazy"]
MODES: tuple[str, ...] = ("normal", "bare")
ALL_MODES: tuple[str, ...] = ("normal", "bare", "lazy")
DEFAULT_TIMEOUT = 60.0  # seconds before one real import is killed (`run`, `check --verify`)


@dataclass(frozen=True, slots=True)
class Frame:
    """One executing module on the chain, and the line it was executing."""

    module: str
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class ErrorInfo:
    """The exception that escapes `import entry`."""

    exception: str  # "ImportError", "AttributeError", "NameError", "ModuleNotFoundError", ...
    module: str | None  # module looked in (or the missing module for ModuleNotFoundError)
    name: str | None  # the name wanted from it
    message: str  # what CPython 3.11 would print
    chain: tuple[Frame, ...]
    # where the missing name is (or would be) bound, when known: (file, line)
    defined_at: tuple[str, int] | None = None


@dataclass(frozen=True, slots=True)
class Assumption:
    """What an outcome rests on without proof (docs/modelled.md, "Assumptions"). `kind`:
    - "order": a name taken as bound by the ordinary-order rule: `module` had finished running
      and may bind names in ways facts cannot follow (`why`), and `name` was read from it at
      file:line. Were it unbound, the read would fail in every import order.
    - "environment": `module`'s code at file:line read environment variable `name`, taken as
      unset (the ordinary environment) or as given with --env (`why`).
    - "version": `module`'s code at file:line read the installed version of `name`, taken
      from its source or metadata (`why`).
    - "installed": `module`'s code at file:line imported the top-level module `name` inside
      a `try` that catches ModuleNotFoundError, taken as installed nowhere (`why`)."""

    module: str
    name: str
    file: str
    line: int
    why: str
    # "order": the ordinary-order rule (above); "environment", "version", "installed": see
    # static/environment.py; "listing": the order of a directory listing as read at check
    # time, `name` the directory, `module` the one whose code lists it; "decorator": a call
    # of `name` (Cls.function) at file:line replayed as the class's own function, taking its
    # class decorator to give the class back; "super": a `super().name()` call at
    # file:line whose callee is not known statically, taken to import nothing; "object": a
    # method `name` of an object made earlier, replayed at file:line, where what it does
    # depends on the object's state (not followed), taken to import nothing
    kind: str = "order"


# the kinds of Assumption `--strict` turns into unknown (the others: the environment's)
STRICT_KINDS = frozenset({"order", "listing", "decorator", "super", "object"})


@dataclass(frozen=True, slots=True)
class Result:
    """The outcome of one (entry, mode)."""

    entry: str
    mode: str
    outcome: Literal["ok", "error", "unknown", "timeout", "crash"]
    error: ErrorInfo | None = None
    reason: str | None = None  # for unknown / timeout / crash
    # a non-ok outcome that does not fail the run: "suppressed" (inline comment), "baselined",
    # "ignored" (rule not selected); see suppress.py
    waived: str | None = None
    assumes: tuple[Assumption, ...] = ()  # what the outcome rests on (Assumption)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str
    name: str
    severity: Literal["error", "warning", "info"]
    file: str
    line: int
    message: str
    entry: str | None = None
    mode: str | None = None


@dataclass(frozen=True, slots=True)
class Report:
    results: tuple[Result, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    source: str = "static"
    roots: tuple[str, ...] = field(default=())

    @property
    def failed(self) -> bool:
        return any(r.outcome in ("error", "timeout", "crash") and r.waived is None
                   for r in self.results)

    def result(self, entry: str, mode: str) -> Result | None:
        for r in self.results:
            if r.entry == entry and r.mode == mode:
                return r
        return None


def pickled_by_constructor(*classes) -> None:
    """Make frozen slotted dataclasses pickle as a call of `cls._unpickle(*fields)`, which
    sets the slots directly, and build them the same way: dataclasses' own __setstate__
    costs a fields() call per object, and a frozen __init__ an object.__setattr__ call per
    field (twice the time; a stored run, the facts cache and the facts parsing workers send
    are mostly these objects, and the fact extractor makes half a million of them on large
    packages). `_unpickle`, `__reduce__` and the new `__init__` (the same parameters and
    defaults as the dataclass's) are generated code, because naming each slot is the fastest
    way to read or fill slots from Python; the classes have no __post_init__, so the objects
    are the ones the dataclass's __init__ would make."""
    from dataclasses import MISSING
    for cls in classes:
        assert "__post_init__" not in vars(cls) and cls.__dataclass_params__.frozen
        fields = cls.__dataclass_fields__.values()
        assert all(f.init and not f.kw_only and f.default_factory is MISSING for f in fields)
        names = tuple(f.name for f in fields)
        setters = {f"_set_{n}": getattr(cls, n).__set__ for n in names}
        defaults = {f"_default_{f.name}": f.default for f in fields if f.default is not MISSING}
        args = ", ".join(names)
        params = ", ".join(n + (f"=_default_{n}" if f"_default_{n}" in defaults else "")
                           for n in names)
        body = "".join(f"    _set_{n}(self, {n})\n" for n in names)
        values = "".join(f"self.{n}, " for n in names)
        code = (f"def _unpickle({args}):\n    self = _new(_cls)\n{body}    return self\n"
                f"def __reduce__(self):\n    return _unpickle, ({values})\n"
                f"def __init__(self, {params}):\n{body}")
        scope = {"_new": object.__new__, "_cls": cls, **setters, **defaults}
        exec(code, scope)  # noqa: S102 - our own field names, checked identifiers
        for name in ("_unpickle", "__init__"):
            made = scope[name]
            made.__module__, made.__qualname__ = cls.__module__, f"{cls.__qualname__}.{name}"
        cls._unpickle = staticmethod(scope["_unpickle"])
        cls.__reduce__ = scope["__reduce__"]
        cls.__init__ = scope["__init__"]


pickled_by_constructor(Frame, ErrorInfo, Assumption, Result, Diagnostic, Report)
