"""The facts vocabulary: what one module does while it runs, as frozen values.

A module's top-level code is a tuple of events in execution order. Control flow that matters
for imports (`if`, `try`) keeps its structure; everything else is flattened. Function bodies
are kept apart (`FunctionFacts`) and replayed only when the module calls them at import time.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..model import pickled_by_constructor

# Guards: where an import statement sits.
TOP, TYPE_CHECKING, IF, TRY, FUNCTION, CLASS, WITH = (
    "none", "TYPE_CHECKING", "if", "try", "function", "class", "with")


@dataclass(frozen=True, slots=True)
class Import:
    """`import a.b.c` (binds `a`), `import a.b.c as x` (binds `x` to a.b.c), or a literal
    `importlib.import_module("a.b")` / `__import__("a.b")` call (binds nothing itself)."""

    line: int
    module: str
    asname: str | None = None
    guard: str = TOP
    lazy: bool = False
    call: str | None = None  # "import_module" | "__import__" for the dynamic forms
    col: int = 0


@dataclass(frozen=True, slots=True)
class ImportFrom:
    """`from M import a as b, c` / `from . import x` / `from M import *` (names == (("*", None),)).
    `module` is absolute (relative forms resolved); None with `error` when it cannot be."""

    line: int
    module: str | None
    names: tuple[tuple[str, str | None], ...]
    level: int = 0
    guard: str = TOP
    lazy: bool = False
    error: str | None = None
    col: int = 0


@dataclass(frozen=True, slots=True)
class Use:
    """Read of a name (then of the attribute chain `name.a.b`) while the code runs."""

    line: int
    name: str
    attrs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Call:
    """Call of the value `name.attrs`: its body runs now if it is a known function."""

    line: int
    name: str
    attrs: tuple[str, ...] = ()
    # which arguments the call passes: (number of positional, keyword names, how many leading
    # positional ones are objects known not to be None, e.g. the decorated function); None
    # when *args / **kwargs make it unknown
    passed: tuple[int, tuple[str, ...], int] | None = None
    # `return f(x)`: the Exit after it makes this call, to return what it returns (or raise)
    returned: bool = False


@dataclass(frozen=True, slots=True)
class Bind:
    """Names bound in the current namespace. `value` says what they are bound to when known:
    ("ref", name, attrs) an alias of another value, ("module", dotted, top) the module an
    import call returned, ("all", names) a literal `__all__`, ("all+", names) extending it,
    ("index", name, keys) an entry of the literal dict `name[k1][k2]...` (keys spelled, or
    None when not known)."""

    line: int
    names: tuple[str, ...]
    value: tuple | None = None


@dataclass(frozen=True, slots=True)
class SetAttr:
    """`name.attrs[:-1].attrs[-1] = ...`: binds an attribute on a (module) object."""

    line: int
    name: str
    attrs: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SetItem:
    """A change of the container `name.attrs` holds: `x[key] = value` (op "set", `value` a
    Bind value), `del x[key]` ("del"), or any other (`x[k] += 1`, `x[i][j] = v`: "change").
    Calls of mutating methods (`x.append(v)`) are Call events the simulator reads as such."""

    line: int
    name: str
    attrs: tuple[str, ...] = ()
    op: str = "change"
    key: tuple | None = None  # the key's spelled parts (exprs.spell), when known
    value: tuple | None = None


@dataclass(frozen=True, slots=True)
class Del:
    line: int
    names: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Dynamic:
    """A construct that changes the namespace in ways facts cannot follow (exec, globals()).
    `prefix`: it can only bind names that start with this (`globals()[f"_sym_{n}"] = ...`);
    empty: any name."""

    line: int
    reason: str
    prefix: str = ""
    replaces: bool = False  # `sys.modules[__name__] = obj`: the module becomes `obj`
    # `sys.modules[name] = obj` in a function, `name` computed: a helper that puts a module
    # there for its caller (celery.local.recreate_module(__name__)); the module whose import
    # called it may have been replaced
    elsewhere: bool = False
    # `globals()[key] = ...` / `setattr(sys.modules[__name__], key, ...)`: the parts that
    # spell the one name it binds (exprs.spell), evaluated when it runs
    key: tuple | None = None
    # `globals().update(name)`: ("ref", name, attrs) of the mapping whose keys it binds
    update: tuple | None = None
    # what the key is bound to, when followed: ("ref", name, attrs), ("getattr", name, parts)
    value: tuple | None = None
    # `setattr(name.attrs, key, ...)`: ("ref", name, attrs) of the object it binds an
    # attribute of, a module's namespace when it is one (else nothing the simulator keeps)
    target: tuple | None = None
    # it deletes the key's name (`delattr(m, k)`, `globals().pop(k)`) instead of binding it
    delete: bool = False


@dataclass(frozen=True, slots=True)
class Exit:
    """`return` / `raise` in a function body: the rest of the body does not run.
    `exception`: what a `raise` raises ("?" when not a plain name); empty for `return`."""

    line: int
    exception: str = ""
    # what it returns: `return name.attrs` ("ref", name, attrs), `return <constant>` ("lit", v),
    # `return name.attrs(arg)` ("call", name, attrs, arg, passed): arg a name, passed as Call's
    value: tuple | None = None


@dataclass(frozen=True, slots=True)
class Escape:
    """`names` are read where a container they hold may come to be held, or changed,
    where the simulator does not follow it: the value stored in an object's attribute, the
    receiver of a changing method reached through an item or a call (`TABLE["k"].append(x)`);
    with `held`, the elements of a display that is kept (assigned, returned), which change
    only with a change not followed of what holds them."""

    line: int
    names: tuple[str, ...]
    held: bool = False


# a FunctionFacts default `{}` (no constant of a parsed literal is a tuple)
EMPTY_DICT = ("\0dict",)


@dataclass(frozen=True, slots=True)
class ComputedImport:
    """An import call whose module is computed, or that the plain Import cannot say:
    `importlib.import_module(name, package)`, `__import__(name, globals, locals, fromlist,
    level)`, `importlib.util.find_spec(name)` (imports the parent only). `parts` spell the
    name (exprs.spell: strings and references evaluated when the call runs; ("opaque",) a
    part that cannot be, after its literal head); None when it
    cannot be spelled, `why` then says what it is. `anchor` spells import_module's package
    argument (None: not given); `fromlist` None when it is not literal (or given by
    `kwargs`, the name of a `**` argument, looked up when the call runs). `loop`: (name,
    source) when the call is a comprehension's element and `name` its variable: one import
    per value, source as ForEach's."""

    line: int
    call: str
    parts: tuple | None
    anchor: tuple | None = None
    fromlist: tuple[str, ...] | None = ()
    level: int = 0
    why: str = ""
    col: int = 0
    loop: tuple | None = None
    kwargs: str | None = None  # `**name`: the name whose dict gives fromlist and level


@dataclass(frozen=True, slots=True)
class ExecFile:
    """`spec.loader.exec_module(m)` after `m = importlib.util.module_from_spec(spec)` and
    `spec = importlib.util.spec_from_file_location(name, location)`: the file runs now, in a
    fresh module object named `name`. `parts` spell the name (exprs.spell), `path` says how
    the location is computed (execfile.path_spec); `registers`: the code put the module into
    `sys.modules[name]` first (else it is in no `sys.modules`)."""

    line: int
    parts: tuple
    path: tuple
    registers: bool = False
    package: bool | None = None  # submodule_search_locations given (None: as the file is)
    col: int = 0


@dataclass(frozen=True, slots=True)
class ExecSource:
    """`loader.exec_module(m)` after `m = importlib.util.module_from_spec(spec)`,
    `spec = importlib.util.spec_from_loader(name, loader)` and `loader = Cls(source)`, where
    `Cls` is a loader class of the same module that only compiles and execs the string it was
    given (a generated module): that source runs now, in a fresh module object named `name`.
    `name` and `source` are purefn programs evaluated when it runs; `registers` as ExecFile's."""

    line: int
    name: tuple
    source: tuple
    registers: bool = False
    col: int = 0


@dataclass(frozen=True, slots=True)
class GetAttr:
    """`getattr(name, <spelled string>)` with no default: reads that attribute when it runs."""

    line: int
    name: str
    parts: tuple


@dataclass(frozen=True, slots=True)
class Jump:
    """`break` or `continue` (`kind`) of the ForEach whose body it is in (a loop replayed
    once, in line, has none)."""

    line: int
    kind: str = "break"


@dataclass(frozen=True, slots=True)
class ForEach:
    """A `for` loop whose body imports a computed name, replayed once per value: `source` is
    ("values", tuple) known values, or ("modules", path, prefix, walk) pkgutil.iter_modules /
    walk_packages over a package's `__path__` (`path` spelled as ("path", parts of the
    package's name), prefix as parts). `targets`: the loop's name, or the names of a tuple
    target ("" where it binds something else)."""

    line: int
    targets: tuple[str, ...]
    source: tuple
    body: tuple
    tuple_target: bool = False


@dataclass(frozen=True, slots=True)
class Raise:
    """Module-level `raise Name(...)`, or an `assert` whose test is decided false."""

    line: int
    exception: str
    message: str = ""


PROCESS_EXIT = "os._exit"  # Raise.exception of a call that ends the process (problems.py)
LOOP_ELSE = "loop-else"  # If.why of a loop's `else:` that a `break` may skip


@dataclass(frozen=True, slots=True)
class If:
    """`cond` is "true", "false" or "unknown" (decided at extraction: TYPE_CHECKING,
    `__name__ == "__main__"`, sys.version_info against the target version). `why` is
    LOOP_ELSE for a loop's `else:` that a `break` may skip (body empty)."""

    line: int
    cond: str
    body: tuple
    orelse: tuple
    why: str = ""
    test: tuple | None = None  # in function bodies: a form decidable from the call's arguments
    # ((name, prefix, suffix), ...): in the body, the str held by `name` is known to start
    # and end so (`name.startswith("p") and name.endswith("s")` tests)
    narrow: tuple | None = None
    # ((variable, value or None when unset), ...): the environment variables the test reads,
    # directly or through names bound to what they hold; a decided test rests on them
    env: tuple = ()


@dataclass(frozen=True, slots=True)
class Handler:
    line: int
    types: tuple[str, ...] | None  # None: bare `except:`; ("?",) when not a plain name
    name: str | None
    body: tuple
    # what evaluating its class expression reads, ((name, attrs), ...) (shapes._handler_reads)
    reads: tuple = ()
    raises: bool = False  # a `raise` statement in its body (a required dependency's guard)


@dataclass(frozen=True, slots=True)
class Try:
    line: int
    body: tuple
    handlers: tuple[Handler, ...]
    orelse: tuple
    final: tuple
    # a `with contextlib.suppress(...)`: no try statement, so its imports may be lazy (PEP 810)
    with_: bool = False


@dataclass(frozen=True, slots=True, eq=False)  # compared and hashed by identity: cheap
class FunctionFacts:
    """A module-level function or a method of a class there: what its body does when
    called at import time."""

    name: str
    line: int
    body: tuple | None  # None: not extracted yet (a stub; Program.function_body loads it)
    local_names: frozenset[str]
    global_names: frozenset[str]
    positional: tuple[str, ...] = ()  # parameters that positional arguments fill, in order
    # parameters with a literal default (EMPTY_DICT: `{}`, which the body only reads)
    defaults: tuple[tuple[str, object], ...] = ()
    pure: tuple | None = None  # the body as a program purefn evaluates, when it is pure code
    # the line of an import in a function defined in it (a wrapper it may return), or 0
    nested_import: int = 0
    vararg: str | None = None  # the `*args` parameter, which extra positional arguments fill
    # what a call returns is followed: (what it returns when `body` runs to its end: a
    # return's value that ended the body and was cut from it, or ("lit", None)); None for a
    # generator, a coroutine, or a return inside a loop (whose pass count is not
    # followed) or a `finally`
    returns: tuple | None = None


@dataclass(frozen=True, slots=True)
class Def:
    """Binds a module-level function (after decorators were evaluated and applied)."""

    line: int
    name: str
    func: FunctionFacts | None  # None for defs in functions: body never replayed


@dataclass(frozen=True, slots=True)
class ClassBody:
    """Runs the class body in its own namespace, then binds the class name. `init`: the
    class's own `__init__`, replayed when the class is called at import time, when nothing
    else decides what a call of it does (no decorator, metaclass, `__new__`); `bases` the
    base classes as attribute chains, each to be an analysed class of that kind or a
    builtin one (callreplay.PLAIN_BASES) for the replay."""

    line: int
    name: str
    body: tuple
    init: "FunctionFacts | None" = None
    bases: tuple = ()
    methods: tuple = ()  # (name, kind, line): the functions `Cls.name` finds (facts._methods)
    hidden: int = 0  # the line of a class decorator that may replace it (facts._hidden)
    # no `__init__` or `__new__` of its own, no decorator or metaclass: a call of it runs
    # what its bases' does (then `bases` are given too)
    plain: bool = False
    # one base, no keyword, no module text that may rebind the class's attributes wholesale:
    # the base's functions are its own too, but these names its body binds or the module's
    # text may assign (`x.name = ...`); None when it does not inherit them
    inherits: tuple | None = None
    # the `metaclass=` keyword's attribute chain ("?" when it is none), None without one
    metaclass: tuple | str | None = None
    # the other keywords, as a Call's `passed` (exprs.passed_arguments) for
    # `__init_subclass__`; None with `**kwargs`
    keywords: tuple | None = (0, (), 0, ())
    # (the names the body binds that the module's text may not assign as attributes, the
    # attribute names it may assign), each sorted (facts._bound): `Cls.name` of a name in
    # neither is the next class's in the MRO; None when not known
    bound: tuple | None = None


@dataclass(frozen=True, slots=True)
class FileProblem:
    """Something that stopped a file from being read or parsed."""

    code: str
    line: int
    message: str
    exception: str = "SyntaxError"  # what importing the file raises (static/problems.py)


@dataclass(frozen=True, slots=True)
class ModuleFacts:
    name: str
    path: str
    is_package: bool
    body: tuple
    future_annotations: bool = False
    # first line binding each module-level name (for "defined at" in diagnostics)
    bindings: tuple[tuple[str, int], ...] = ()
    # every module this file names in any import, anywhere (graph edges, superset)
    imports: frozenset[str] = frozenset()
    problem: FileProblem | None = None
    # puts modules into sys.modules or installs import hooks itself (six.moves and the like)
    registers_modules: bool = False
    digest: str = ""  # of the source bytes, when read from a file (results cache key)
    # modules named by imports in blocks below the top level, function bodies included, that
    # `imports` lacks (the stubs of function bodies are not walked): a regex superset
    nested_imports: frozenset[str] = frozenset()
    # the source mentions a directory listing call (discover.LISTING_WORDS): its directory's
    # listing is read for the simulator (discover.read_listings) and keys its results
    lists_dirs: bool = False
    # what its top-level code defines of torch.ops (torchops.scan), when it does
    torch_ops: tuple = ()
    # (line, start, end) of module-level defs at the start of a line whose bodies were cut,
    # as skim.def_spans has them: where a stub's body lies in the source (skim.skim). How the
    # facts were made, not what they say: no part of repr or equality
    def_spans: tuple = field(default=(), repr=False, compare=False)

    def binding_line(self, name: str) -> int | None:
        for bound, line in self.bindings:
            if bound == name:
                return line
        return None


def bound_names(events) -> set[str]:
    """Every name an event list binds in its own namespace (for a function: its locals)."""
    names: set[str] = set()
    stack = list(events)
    while stack:
        e = stack.pop()
        cls = e.__class__
        if cls is Bind:
            names.update(e.names)
        elif cls is Import and e.call is None:
            names.add(e.asname or e.module.partition(".")[0])
        elif cls is ImportFrom:
            names.update(a or n for n, a in e.names if n != "*")
        elif cls in (Def, ClassBody):
            names.add(e.name)
        elif cls is If:
            stack.extend(e.body)
            stack.extend(e.orelse)
        elif cls is ForEach:
            names.update(n for n in e.targets if n)
            stack.extend(e.body)
        elif cls is Try:
            stack.extend(e.body)
            stack.extend(e.orelse)
            stack.extend(e.final)
            for h in e.handlers:
                if h.name:
                    names.add(h.name)
                stack.extend(h.body)
    return names



def summary(facts: ModuleFacts) -> ModuleFacts:
    """The facts without their events and bindings: what every stage but the simulator reads
    (imports, digest, problem, registers_modules, ...), small enough to keep with a run."""
    if not facts.body and not facts.bindings and not facts.def_spans:
        return facts  # a summary already (a module that read nothing more than that)
    return replace(facts, body=(), bindings=(), def_spans=())


class LazyFacts(dict):
    """Module name -> ModuleFacts, where a module known by its summary only is loaded
    (`load(name)`) when first read: a run that simulates a few imports of a large unchanged
    package loads the facts of the modules those imports run, not of every module.
    `summary_items` gives every module's summary without loading anything; any other read
    (indexing, get, values, items, iteration by dict(), ...) gives full facts."""

    def __init__(self, load):
        super().__init__()
        self._load = load
        self._pending: set[str] = set()

    def add_summary(self, name: str, facts: ModuleFacts) -> None:
        dict.__setitem__(self, name, facts)
        self._pending.add(name)

    def _full(self, name: str) -> ModuleFacts:
        full = self._load(name)
        dict.__setitem__(self, name, full)
        self._pending.discard(name)
        return full

    def __getitem__(self, name: str) -> ModuleFacts:
        return self._full(name) if name in self._pending else dict.__getitem__(self, name)

    def get(self, name, default=None):
        return self._full(name) if name in self._pending else dict.get(self, name, default)

    def __iter__(self):  # not dict's: dict(this) must go through __getitem__
        return iter(list(dict.keys(self)))

    def values(self):
        return [self[name] for name in list(dict.keys(self))]

    def items(self):
        return [(name, self[name]) for name in list(dict.keys(self))]

    def copy(self):
        return dict(self.items())


def summary_items(facts: dict) -> list:
    """(name, facts or summary) of every module, loading nothing."""
    return list(dict.items(facts))

# facts travel between processes and through the facts cache: tens of thousands of objects
pickled_by_constructor(Import, ImportFrom, Use, Call, Bind, SetAttr, Del, Dynamic, Exit, Raise,
                       If, Handler, Try, FunctionFacts, Def, ClassBody, FileProblem, ModuleFacts,
                       ComputedImport, GetAttr, ForEach, Jump, ExecFile, ExecSource)


def walk(events, classes: bool = False, functions: bool = False):
    """Every event of `events` and of the blocks nested in them (if / else, every part of a
    try); with `classes`, class bodies too; with `functions`, extracted function bodies."""
    stack = list(events)
    while stack:
        ev = stack.pop()
        yield ev
        cls = ev.__class__
        if cls is If:
            stack.extend((*ev.body, *ev.orelse))
        elif cls is ForEach:
            stack.extend(ev.body)
        elif cls is Try:
            stack.extend((*ev.body, *ev.orelse, *ev.final, *(x for h in ev.handlers
                                                              for x in h.body)))
        elif classes and cls is ClassBody:
            stack.extend(ev.body)
        elif functions and cls is Def and ev.func is not None and ev.func.body:
            stack.extend(ev.func.body)
