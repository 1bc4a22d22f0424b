"""Seeded generator of random packages full of import cycles, for the differential test.

`generate(seed)` returns ``{relative path: source}`` for one package named ``rp`` (3-12
modules, subpackages nested 1-2 levels). Each module defines a few names (``f_<tag>_<k>``
functions, ``C_<tag>_<k>`` classes, ``K_<TAG>_<k>`` constants) and imports names that some
module of the package defines, in every common shape: absolute, relative, ``from pkg import
submodule``, ``import a.b`` and ``import a.b as x``, ``__init__`` re-exports, guarded by
``TYPE_CHECKING`` or ``try/except ImportError``, or inside functions. The names are then used at
import time (top-level reads and calls, ``mod.attr`` and ``pkg.sub.attr`` chains, class bases,
decorators, default values, class-body reads, evaluated annotations, calls of functions whose
bodies read imported names) or only later (function bodies), and definitions are spread before
and after the import lines, so whether ``import M`` works depends on which module runs first.

The code is straight-line on purpose: no ``if`` except ``if TYPE_CHECKING:``, no ``try`` except
``try/except ImportError`` around one import, no loops, no I/O, no ``exec``/``globals()``/module
``__getattr__``/star imports, but for the constructs the static analysis models (computed
names, PEP 562 loaders, pkgutil and directory listings of the package's own directory, ...).
Whether an import succeeds is therefore a question about import order only, which a static
simulator can answer exactly.

    python tests/randpkg.py SEED OUTDIR     # writes OUTDIR/rp/... for inspection
"""
from __future__ import annotations

import random
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

TOP = "rp"
LEAF_WORDS = [
    "core", "util", "base", "models", "api", "helpers", "config", "errors", "registry",
    "plugins", "schema", "events", "cache", "loader", "handlers", "signals", "fields", "forms",
    "views", "tasks", "compat", "mixins", "backends", "formats", "parsing", "render", "session",
    "client", "server", "store",
]
PACKAGE_WORDS = ["ext", "contrib", "io", "ops", "data", "net", "tools", "impl", "auth", "db"]


# ------------------------------------------------------------------------------------- model
@dataclass
class Binding:
    """A module-level name bound by an import statement."""

    local: str  # the name bound in the importing module
    kind: str  # "value" (a def of some module) or "module"
    target: "Module"  # the module imported from (value) or the module object (module)
    expr: str  # expression reaching the value / module through this binding
    stmt: "Stmt"
    guard: str  # "none" | "tc" | "try"


@dataclass
class Stmt:
    """One top-level statement; `needs` are statements that must run before it."""

    order: int  # creation order, breaks ties
    priority: float
    kind: str  # "import" | "func" | "class" | "const" | "use"
    name: str | None = None  # the def it binds
    needs: set = field(default_factory=set)  # of Stmt ids
    # rendering data
    text: str = ""  # for import/use/const
    decorator: str | None = None
    base: str | None = None
    params: list = field(default_factory=list)  # [(name, annotation|None, default|None)]
    returns: str | None = None
    body_imports: list = field(default_factory=list)  # lines inside a function body
    reads: list = field(default_factory=list)  # deferred reads (function/method bodies)
    read_needs: set = field(default_factory=set)  # stmts the deferred reads depend on
    class_lines: list = field(default_factory=list)  # class-body statements
    method: str | None = None  # how `run` is defined when `Cls.run()` is called at import time
    guarded_reads: bool = False  # a read may be of None (a try-guarded import)


@dataclass
class Module:
    name: str
    is_pkg: bool
    tag: str
    funcs: list = field(default_factory=list)
    classes: list = field(default_factory=list)
    consts: list = field(default_factory=list)
    reexports: list = field(default_factory=list)  # names bound by `from X import name`
    future: bool = False
    tc_style: str | None = None  # how TYPE_CHECKING is obtained, if used
    stmts: list = field(default_factory=list)
    bindings: list = field(default_factory=list)
    defstmt: dict = field(default_factory=dict)  # def name -> Stmt

    @property
    def package(self) -> str:
        return self.name if self.is_pkg else self.name.rpartition(".")[0]

    @property
    def parent(self) -> str:
        return self.name.rpartition(".")[0]

    @property
    def path(self) -> str:
        parts = self.name.split(".")
        return "/".join(parts) + ("/__init__.py" if self.is_pkg else ".py")

    @property
    def defs(self) -> list:
        return self.funcs + self.classes + self.consts

    @property
    def exports(self) -> list:
        return self.defs + self.reexports

    def bound(self) -> set:
        return set(self.defs) | {b.local for b in self.bindings}


def kind_of(name: str) -> str:
    return {"f": "func", "C": "class", "K": "const"}[name[0]]


def relative(from_package: str, target: str) -> str:
    """`from <result> import ...` naming `target` relative to package `from_package`."""
    p, t = from_package.split("."), target.split(".")
    common = 0
    while common < min(len(p), len(t)) and p[common] == t[common]:
        common += 1
    assert common >= 1
    return "." * (len(p) - common + 1) + ".".join(t[common:])


# --------------------------------------------------------------------------------- generator
def _through_function(name: str) -> bool:
    """Half of the classes whose __init__ calls a method do it through a module-level
    function; chosen by the name, so that no random stream draws differently."""
    return sum(map(ord, name)) % 2 == 0


class Generator:
    def __init__(self, seed: int):
        self.seed = seed
        self.rng = random.Random(seed)
        self.modules: list[Module] = []
        self.by_name: dict[str, Module] = {}
        self.counter = 0
        # package-wide knobs, so packages differ in character, not only in shape
        r = self.rng
        self.p_import_time = r.choice([0.03, 0.08, 0.15, 0.25, 0.4])  # share of uses at import time
        self.p_late_def = r.choice([0.1, 0.25, 0.4])  # share of defs placed after the imports
        self.p_relative = r.choice([0.2, 0.5, 0.8])
        self.p_value = r.choice([0.35, 0.5, 0.6])  # `from X import name` vs module imports
        self.p_back = r.choice([0.1, 0.2, 0.35])  # imports against the layering
        # PEP 810 explicit `lazy import` / `lazy from` on module-level imports: in a quarter of
        # the packages. Its own stream, so every other draw (and package) stays as it was.
        self.lazy_rng = random.Random(seed * 7919 + 810)
        # computed imports: a stream of its own, so the rest of each seed's package stays
        self.computed_rng = random.Random(seed * 104729 + 20)
        self.p_computed = self.computed_rng.choice([0.0, 0.2, 0.5])
        self.p_lazy_kw = self.lazy_rng.choice([0.0, 0.0, 0.0, 0.3])
        # computed namespaces, PEP 562 loaders, plugin discovery: a stream of their own too
        self.names_rng = random.Random(seed * 15485863 + 23)
        self.p_names = self.names_rng.choice([0.0, 0.15, 0.35])
        self.p_loader = self.names_rng.choice([0.0, 0.3, 0.6])
        self.p_discover = self.names_rng.choice([0.0, 0.0, 0.2])
        # a constant bound at the module's very end under a key no analysis can list (the
        # ordinary-order rule's ground): a stream of its own, so the rest of each seed stays
        self.dyn_rng = random.Random(seed * 32452843 + 5)
        self.p_dyn_tail = self.dyn_rng.choice([0.0, 0.0, 0.3])
        # a guarded import gated by a pure function over a literal table (statically
        # evaluated: static/purefn.py) instead of try/except: a stream of its own
        self.pure_rng = random.Random(seed * 49979687 + 7)
        self.p_pure = self.pure_rng.choice([0.0, 0.5, 1.0])
        self.loaders: dict[str, dict] = {}  # package -> {name: module} its __getattr__ loads
        # plugin discovery over the package's own directory (os.listdir, glob, os.scandir;
        # static/dirlisting.py): a stream of its own
        self.dir_rng = random.Random(seed * 67867979 + 13)
        self.p_dirscan = self.dir_rng.choice([0.0, 0.0, 0.4])
        # a read behind `and` / `or` (evaluated only when the left operand does not settle
        # the value: a literal or `"NAME" in globals()`): a stream of its own
        self.sc_rng = random.Random(seed * 7919 + 17)
        self.p_short = self.sc_rng.choice([0.0, 0.5])
        # `Cls.run()` at import time, `run` a plain function, a staticmethod or a classmethod
        # (callreplay.class_attribute): a stream of its own
        self.method_rng = random.Random(seed * 86028121 + 3)
        self.p_method = self.method_rng.choice([0.0, 0.3, 0.7])
        # an optional dependency installed nowhere imported in a try's body, before or after
        # the guarded import (static/environment.import_absent): a stream of its own
        self.optional_rng = random.Random(seed * 15485867 + 11)
        self.p_optional = self.optional_rng.choice([0.0, 0.6, 1.0])

    # ------------------------------------------------------------------ helpers
    def stmt(self, m: Module, kind: str, priority: float, **kw) -> Stmt:
        self.counter += 1
        s = Stmt(order=self.counter, priority=priority, kind=kind, **kw)
        m.stmts.append(s)
        return s

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    def maybe_lazy(self, line: str) -> str:
        """A module-level import line, written `lazy ...` (PEP 810) in some packages."""
        return "lazy " + line if self.lazy_rng.random() < self.p_lazy_kw else line

    # ------------------------------------------------------------------ tree
    def plan_tree(self) -> None:
        r = self.rng
        n = r.randint(3, 12)
        top = Module(TOP, True, TOP)
        packages = [top]
        n_sub = 0
        if n >= 4 and self.chance(0.7):
            n_sub = r.randint(1, min(3, (n - 1) // 2))
        for word in r.sample(PACKAGE_WORDS, n_sub):
            parent = r.choice([p for p in packages if p.name.count(".") <= 1])
            packages.append(Module(parent.name + "." + word, True, word))
        leaves = []
        childless = [p for p in packages[1:]]
        for word in r.sample(LEAF_WORDS, n - len(packages)):
            if childless:
                parent = childless.pop(0)
            else:
                parent = r.choice(packages + [top])  # the top package twice as likely
            leaves.append(Module(parent.name + "." + word, False, word))
        self.modules = packages + leaves
        r.shuffle(self.modules)
        self.modules.sort(key=lambda m: m.name != TOP)
        self.by_name = {m.name: m for m in self.modules}

    def plan_defs(self, m: Module) -> None:
        r = self.rng
        if m.is_pkg:
            nf, nc, nk = r.choice([(0, 0, 0), (0, 0, 1), (1, 0, 0), (1, 1, 0), (0, 1, 1)])
        else:
            nf, nc, nk = r.randint(1, 3), r.choice([0, 1, 1, 2, 2]), r.randint(0, 2)
        m.funcs = [f"f_{m.tag}_{k}" for k in range(nf)]
        m.classes = [f"C_{m.tag}_{k}" for k in range(nc)]
        m.consts = [f"K_{m.tag.upper()}_{k}" for k in range(nk)]
        m.future = self.chance(0.3)
        for name in m.defs:
            late = self.chance(self.p_late_def)
            pri = r.uniform(0.45, 1.0) if late else r.uniform(0.0, 0.5)
            kind = kind_of(name)
            s = self.stmt(m, kind, pri, name=name)
            if kind == "func":
                s.params = [["arg", None, "None"]]
            elif kind == "const":
                s.text = f"{name} = {r.choice(['1', '2.5', repr(name.lower()), '(1, 2)', 'None'])}"
            m.defstmt[name] = s

    # ------------------------------------------------------------------ imports
    def import_priority(self) -> float:
        return self.rng.uniform(0.2, 0.7)

    def from_clause(self, m: Module, target: str) -> str:
        if self.chance(self.p_relative):
            return relative(m.package, target)
        return target

    def add_value_import(self, m: Module, t: Module, names: list, guard: str = "none",
                         source: str | None = None) -> list:
        """`from T import names` at module level (optionally guarded); returns bindings."""
        names = [n for n in names if n not in m.bound()]
        if not names:
            return []
        if guard == "none" and source is None and m.is_pkg and \
                t.name.startswith(m.name + ".") and self.names_rng.random() < self.p_loader:
            return self.add_loader_names(m, t, names)
        src = source or self.from_clause(m, t.name)
        line = f"from {src} import {', '.join(names)}"
        if guard == "none" and source is None and self.names_rng.random() < self.p_names and \
                not {"importlib", "sys"} & set(m.defs):
            line = self.names_loop(t, names)
        if guard == "tc":
            text = f"if TYPE_CHECKING:\n    {line}"
            if m.tc_style is None:
                m.tc_style = self.rng.choice(["typing", "typing", "typing", "literal"])
        elif guard == "try":
            fallback = "\n".join(f"    {n} = None" for n in names)
            text = self.gated(line, fallback) or self.try_text(line, fallback)
        else:
            text = self.maybe_lazy(line)
        s = self.stmt(m, "import", self.import_priority(), text=text)
        out = [Binding(n, "value", t, n, s, guard) for n in names]
        m.bindings += out
        if m.is_pkg and guard == "none":  # a try-guarded name may be None: no base class
            m.reexports += [n for n in names if n not in m.reexports]
        return out

    def gated(self, line: str, fallback: str) -> str | None:
        """`line` under an `if` on what a pure function computes from a literal table (true
        or false), `fallback` in its `else`; None when this guard stays a try/except."""
        r = self.pure_rng
        if r.random() >= self.p_pure or "\n" in line:
            return None
        self.counter += 1
        gate = f"_gate{self.counter}"
        table = {f"{r.choice('abx')}{i}": r.choice(["", "on", "off", "On"])
                 for i in range(r.randint(1, 5))}
        need = r.randint(0, 3)
        body = r.choice([
            f"    kept = {{k: v for k, v in table.items() if v != ''}}\n"
            f"    return len([k for k in kept if k.startswith('x')]) >= {need}\n",
            "    names = []\n"
            "    for key, value in table.items():\n"
            "        if not value:\n"
            "            continue\n"
            "        names.append(f'{key}={value.lower()}')\n"
            f"    return sum(1 for n in names if n.endswith('on')) >= {need}\n",
            "    if isinstance(table, dict):\n"
            f"        return bool(table) and sorted(table)[0].upper() in {('A0', 'B0', 'X0')!r}\n"
            "    return False\n"])
        inner = "\n".join("    " + ln for ln in line.split("\n"))
        return f"def {gate}(table):\n{body}\n\nif {gate}({table!r}):\n{inner}\nelse:\n{fallback}"

    def try_text(self, line: str, fallback: str) -> str:
        """`line` in a try/except ImportError with `fallback` in its handler; sometimes with
        an import of a module installed nowhere before it (the guarded import never runs)
        or after it (it runs, then the handler rebinds its names)."""
        r = self.optional_rng
        if r.random() >= self.p_optional:
            return f"try:\n    {line}\nexcept ImportError:\n{fallback}"
        absent = f"importsafe_absent_dependency_{r.randint(0, 3)}"
        if r.random() < 0.5:
            return f"try:\n    import {absent}\n    {line}\nexcept ImportError:\n{fallback}"
        return f"try:\n    {line}\n    from {absent} import accel\nexcept ImportError:\n{fallback}"

    def names_loop(self, t: Module, names: list) -> str:
        """`from T import names` as names bound under computed keys, in one of the ways the
        static analysis evaluates (globals()/vars()/setattr/update, literal tuples, dict
        keys, a dir() comprehension)."""
        r = self.names_rng
        head = f'import importlib\n_gl_m = importlib.import_module("{t.name}")\n'
        keys = tuple(names)
        table = "{" + ", ".join(f"{n!r}: 0" for n in names) + "}"
        loops = [f"for _gl_n in {keys!r}:",
                 f"_gl_d = {table}\nfor _gl_n in _gl_d:",
                 f"_gl_d = {table}\nfor _gl_n in _gl_d.keys():",
                 f"for _gl_n in [n for n in dir(_gl_m) if n in {keys!r}]:"]
        bodies = ["    globals()[_gl_n] = getattr(_gl_m, _gl_n)",
                  "    vars()[_gl_n] = getattr(_gl_m, _gl_n)",
                  "    setattr(sys.modules[__name__], _gl_n, getattr(_gl_m, _gl_n))"]
        form = r.randrange(len(loops) * len(bodies) + 1)
        if form == len(loops) * len(bodies):
            items = ", ".join(f"{n!r}: getattr(_gl_m, {n!r})" for n in names)
            return head + f"globals().update({{{items}}})"
        body = bodies[form % len(bodies)]
        if "sys.modules" in body and r.random() < 0.5:  # the module itself bound to a name
            head += "_gl_this = sys.modules[__name__]\n"
            body = body.replace("sys.modules[__name__]", "_gl_this")
        return ("import sys\n" if "sys." in body or "sys." in head else "") + head + \
            loops[form // len(bodies)] + "\n" + body

    def add_loader_names(self, m: Module, t: Module, names: list) -> list:
        """Names of a descendant that package m's PEP 562 `__getattr__` loads when asked
        (one loader per package, written at render time): re-exported, bound nowhere."""
        table = self.loaders.setdefault(m.name, {})
        for n in names:
            table.setdefault(n, t.name)
        m.reexports += [n for n in names if n not in m.reexports]
        return []

    def render_loader(self, m: Module) -> str:
        table = self.loaders.get(m.name)
        if not table:
            return ""
        r = self.names_rng
        rel = r.random() < 0.5
        entries = ", ".join(f"{n!r}: {self.loader_target(m, t, rel)!r}"
                            for n, t in table.items())
        call = "importlib.import_module(_lz_table[name], __name__)" if rel else \
            "importlib.import_module(_lz_table[name])"
        return ("\n\n\nimport importlib\n\n_lz_table = {" + entries + "}\n\n\n"
                "def __getattr__(name):\n"
                "    if name in _lz_table:\n"
                f"        module = {call}\n"
                "        return getattr(module, name)\n"
                "    raise AttributeError(f\"module {__name__!r} has no attribute {name!r}\")")

    @staticmethod
    def loader_target(m: Module, target: str, rel: bool) -> str:
        return "." + target[len(m.name) + 1:] if rel else target

    def render_discovery(self, m: Module) -> str:
        """Plugin discovery in a package: every direct submodule imported, in pkgutil's
        order (walk_packages: subpackages' modules too)."""
        if not m.is_pkg or not self.p_discover or self.names_rng.random() >= self.p_discover:
            return ""
        walk = self.names_rng.random() < 0.5
        func = "walk_packages" if walk else "iter_modules"
        return ("\n\n\nimport importlib\nimport pkgutil\n\n"
                f"for _pd_info in pkgutil.{func}(__path__, __name__ + \".\"):\n"
                "    importlib.import_module(_pd_info.name)")

    def render_dirscan(self, m: Module) -> str:
        """Plugin discovery over the package's own directory: each of its modules found by
        listing it (os.listdir, glob, os.scandir, pathlib; sorted or in the file system's
        order, which CPython sees the same on this machine), imported by a relative import
        call."""
        r = self.dir_rng
        if not m.is_pkg or not self.p_dirscan or r.random() >= self.p_dirscan:
            return ""
        forms = [
            # sorted os.listdir, kept by a suffix test, a slice
            "def _ds_scan():\n"
            "    import importlib\n"
            "    import os\n"
            "    for name in sorted(os.listdir(os.path.dirname(__file__))):\n"
            "        if name.endswith(\".py\") and name != \"__init__.py\":\n"
            "            importlib.import_module(\".\" + name[:-3], __name__)\n",
            # bokeh's: unsorted, `continue` on a test, str.rstrip (characters, not a suffix)
            "def _ds_scan():\n"
            "    from importlib import import_module\n"
            "    from os import listdir\n"
            "    from os.path import dirname\n"
            "    for file in listdir(dirname(__file__)):\n"
            "        if not file.endswith(\".py\") or file in (\"__init__.py\",\n"
            "                                                \"__main__.py\"):\n"
            "            continue\n"
            f"        import_module(\".\" + file.{r.choice(['rstrip', 'removesuffix'])}(\".py\"), "
            "__package__)\n",
            # torch's: glob, a comprehension with basename / isfile, a relative __import__
            "def _ds_scan():\n"
            "    import glob\n"
            "    from os.path import basename, dirname, isfile, join\n"
            f"    names = {r.choice(['', 'sorted'])}("
            "glob.glob(join(dirname(__file__), \"*.py\")))\n"
            "    names = [basename(f)[:-3] for f in names if isfile(f) and "
            "not f.endswith(\"__init__.py\")]\n"
            "    for name in names:\n"
            "        __import__(name, globals(), locals(), [], 1)\n",
            # os.scandir entries, an f-string over the entry's name
            "def _ds_scan():\n"
            "    import importlib\n"
            "    import os\n"
            "    for entry in os.scandir(os.path.dirname(os.path.abspath(__file__))):\n"
            "        if entry.is_file() and entry.name.endswith(\".py\") and "
            "not entry.name.startswith(\"__\"):\n"
            "            importlib.import_module(f\"{__name__}.{entry.name[:-3]}\")\n",
            # pathlib: a sorted glob, the stems
            "def _ds_scan():\n"
            "    import importlib\n"
            "    from pathlib import Path\n"
            "    for path in sorted(Path(__file__).resolve().parent.glob(\"*.py\")):\n"
            "        if path.stem != \"__init__\":\n"
            "            importlib.import_module(\".\" + path.stem, __package__)\n",
            # torch's import_submodule: a helper given the package object, its __file__
            # and __name__ read there, typing.cast around the path
            "def _ds_scan(mod):\n"
            "    import importlib\n"
            "    import os\n"
            "    from typing import cast\n"
            "    for name in sorted(os.listdir(os.path.dirname(cast(str, mod.__file__)))):\n"
            "        if name.endswith(\".py\") and name[0] != \"_\":\n"
            "            importlib.import_module(f\"{mod.__name__}.{name[:-3]}\")\n"
            f"\n\nimport {m.name} as _ds_self\n",
        ]
        form = r.choice(forms)
        call = "_ds_scan(_ds_self)" if "(mod)" in form else "_ds_scan()"
        return "\n\n\n" + form + "\n\n" + call

    def computed_call(self, m: Module, target: str) -> str:
        """An import call of `target` returning it, its name computed in one of the ways the
        static analysis evaluates."""
        r = self.computed_rng
        head, _, last = target.rpartition(".")
        forms = [f'importlib.import_module("{target}")',
                 f'__import__("{target}", fromlist=["__doc__"])']
        if head:
            forms += [f'importlib.import_module(f"{head}.{{{last!r}}}")',
                      f'importlib.import_module("{head}" + ".{last}")',
                      f'importlib.import_module("%s.%s" % ("{head}", "{last}"))',
                      f'importlib.import_module("{{}}.{{}}".format("{head}", "{last}"))',
                      f'importlib.import_module(".".join({target.split(".")!r}))']
            if head == m.package and m.package:
                forms.append(f'importlib.import_module("." + "{last}", __package__)')
            if head == m.name and m.is_pkg:
                forms.append(f'importlib.import_module(".{last}", __name__)')
        return r.choice(forms)

    def add_module_import(self, m: Module, t: Module, guard: str = "none") -> Binding | None:
        r = self.rng
        styles = ["import", "import_as"] + (["from_parent"] * 2 if t.name != TOP else [])
        if guard == "try":  # `rp = None` would clobber every other `import rp.x`
            styles.remove("import")
        style = r.choice(styles)
        if style == "import":
            local, expr, line = TOP, t.name, f"import {t.name}"
        elif style == "import_as":
            last = t.name.rpartition(".")[2]
            local = r.choice([last, "_" + last, last + "_mod"])
            if t.name == TOP:
                local = r.choice(["_rp", "pkg"])
            expr, line = local, f"import {t.name} as {local}"
            if guard == "none" and self.computed_rng.random() < self.p_computed and \
                    local != "importlib" and "importlib" not in m.defs:
                line = f"import importlib\n{local} = {self.computed_call(m, t.name)}"
                shape = self.computed_rng.random()
                if shape < 0.25 and local not in ("_ci_self", "_ci_n"):
                    # the name from a loop over a module's attribute (here the module's own,
                    # read through an import of itself while it runs)
                    line = (f"import importlib\nimport {m.name} as _ci_self\n"
                            f"_ci_names = ({t.name!r},)\n"
                            "for _ci_n in _ci_self._ci_names:\n"
                            f"    {local} = importlib.import_module(_ci_n)")
                elif shape < 0.4 and local not in ("_ci_table", "_ci_set", "_ci_n"):
                    # the name from a container changed at import time: an entry set by a
                    # function, or an item appended (a missed change imports the decoy)
                    if self.computed_rng.random() < 0.5:
                        line = ('import importlib\n_ci_table = {"k": "rp_decoy_absent"}\n\n\n'
                                "def _ci_set(value):\n    _ci_table[\"k\"] = value\n\n\n"
                                f"_ci_set({t.name!r})\n"
                                f'{local} = importlib.import_module(_ci_table["k"])')
                    else:
                        line = (f"import importlib\n_ci_table = []\n"
                                f"_ci_table.append({t.name!r})\n"
                                "for _ci_n in _ci_table:\n"
                                f"    {local} = importlib.import_module(_ci_n)")
        else:
            last = t.name.rpartition(".")[2]
            local, expr = last, last
            line = f"from {self.from_clause(m, t.parent)} import {last}"
        if local in m.bound() and local != TOP:
            return None
        if local in m.defs:
            return None
        if guard == "try":
            text = self.gated(line, f"    {local} = None") or \
                self.try_text(line, f"    {local} = None")
        else:
            text = self.maybe_lazy(line)
        s = self.stmt(m, "import", self.import_priority(), text=text)
        b = Binding(local, "module", t, expr, s, guard)
        m.bindings.append(b)
        return b

    def plan_reexports(self) -> None:
        """Packages re-export names of their descendants: `from .core import Thing`."""
        r = self.rng
        packages = sorted((m for m in self.modules if m.is_pkg), key=lambda m: -m.name.count("."))
        for p in packages:
            below = [m for m in self.modules if m.name.startswith(p.name + ".")]
            if not below or not self.chance(0.7):
                continue
            for t in r.sample(below, min(len(below), r.randint(1, 3))):
                if t.exports and self.chance(0.75):
                    names = r.sample(t.exports, min(len(t.exports), r.randint(1, 2)))
                    self.add_value_import(p, t, names)
                else:
                    self.add_module_import(p, t)

    def plan_layers(self) -> None:
        """Real packages are mostly layered: a rank per module, imports mostly go down."""
        leaves = [m for m in self.modules if not m.is_pkg]
        self.rng.shuffle(leaves)
        self.rank = {m.name: float(i) for i, m in enumerate(leaves)}
        for p in sorted((m for m in self.modules if m.is_pkg), key=lambda m: -m.name.count(".")):
            below = [v for k, v in self.rank.items() if k.startswith(p.name + ".")]
            self.rank[p.name] = max(below) + 0.5 if below else self.rng.uniform(0, len(leaves))

    def pick_targets(self, m: Module, count: int) -> list:
        r = self.rng
        out = []
        for _ in range(count):
            up = self.chance(self.p_back)
            cands, weights = [], []
            for t in self.modules:
                if t is m or (self.rank[t.name] > self.rank[m.name]) != up:
                    continue
                w = 1.0
                if m.name.startswith(t.name + "."):
                    w = 2.0 if t.exports else 0.3  # ancestors: `from rp import Thing`
                elif t.parent == m.parent:
                    w = 2.0  # siblings
                cands.append(t)
                weights.append(w)
            if cands:
                out.append(r.choices(cands, weights)[0])
        return out

    def plan_imports(self, m: Module) -> None:
        r = self.rng
        count = r.choice([0, 1, 1, 1, 2, 2, 3] if not m.is_pkg else [0, 0, 0, 1, 1, 2])
        for t in self.pick_targets(m, count):
            guard = r.choices(["none", "tc", "try", "function"], [0.74, 0.09, 0.07, 0.10])[0]
            value = bool(t.exports) and self.chance(self.p_value)
            if guard == "tc" and not value:
                guard = "none"
            if guard == "function":
                self.plan_function_import(m, t, value)
                continue
            if value:
                pool = t.exports
                if guard == "tc":
                    pool = [n for n in pool if kind_of(n) == "class"] or pool
                names = r.sample(pool, min(len(pool), r.choice([1, 1, 2])))
                if self.chance(0.03):  # a name T never binds: ImportError even when complete
                    strangers = [n for o in self.modules if o is not t for n in o.defs
                                 if n not in t.exports]
                    if strangers:
                        names = [r.choice(strangers)]
                self.add_value_import(m, t, names, guard)
            else:
                self.add_module_import(m, t, guard)

    def plan_function_import(self, m: Module, t: Module, value: bool, s: Stmt | None = None):
        """An import inside a function body; the function may be called at import time."""
        if s is None:
            if not m.funcs:
                return
            s = m.defstmt[self.rng.choice(m.funcs)]
        if value:
            name = self.rng.choice(t.exports)
            s.body_imports.append(f"from {self.from_clause(m, t.name)} import {name}")
            s.reads.append(name)
            return
        attr = self.rng.choice(t.exports) if t.exports else None
        if t.name != TOP and self.chance(0.4):
            last = t.name.rpartition(".")[2]
            s.body_imports.append(f"from {self.from_clause(m, t.parent)} import {last}")
            expr = last
        else:
            s.body_imports.append(f"import {t.name}")
            expr = t.name
        if attr:
            s.reads.append(f"{expr}.{attr}")

    def plant_reentrant(self) -> None:
        """A helper of A imports B inside its body and reads from it; A calls the helper at
        import time, and B, while it runs, calls the same helper again (decorator or call):
        the inner call finds B partial (and not yet bound on its package)."""
        r = self.rng
        cands = [m for m in self.modules if m.funcs]
        if not cands:
            return
        a = r.choice(cands)
        others = [m for m in self.modules if m is not a and m.exports]
        if not others:
            return
        b = r.choice(others)
        helper = r.choice(a.funcs)
        s = a.defstmt[helper]
        self.plan_function_import(a, b, self.chance(0.4), s)
        self.add_call(a, helper, s)
        for bb in self.add_value_import(b, a, [helper]):
            self.use_now(b, bb.expr, bb, r.choice(["call", "decorator"]))

    def plant_callback(self) -> None:
        """The plugin-registration cycle: A defines a helper early, then imports B; B calls the
        helper at import time, and the helper reads a name A binds only later. Entering at A
        fails with NameError inside A; entering at B works."""
        r = self.rng
        cands = [m for m in self.modules if m.funcs and len(m.defs) > 1]
        if not cands:
            return
        a = r.choice(cands)
        b = r.choice([m for m in self.modules if m is not a])
        helper = r.choice(a.funcs)
        s = a.defstmt[helper]
        s.priority = r.uniform(0.0, 0.15)
        late = r.choice([d for d in a.defs if d != helper])
        a.defstmt[late].priority = r.uniform(0.85, 1.0)
        s.reads.append(late)
        bind = self.add_module_import(a, b)
        if bind is not None:
            bind.stmt.priority = r.uniform(0.2, 0.4)
        for bb in self.add_value_import(b, a, [helper]):
            self.use_now(b, bb.expr, bb, r.choice(["call", "call", "decorator"]))

    # ------------------------------------------------------------------ uses
    def plan_uses(self, m: Module) -> None:
        r = self.rng
        for b in list(m.bindings):
            if b.guard == "tc":
                self.use_annotation_only(m, b)
                continue
            if b.kind == "value":
                targets = [b.expr]
            else:
                if not b.target.exports:
                    continue
                attrs = r.sample(b.target.exports, min(len(b.target.exports), r.choice([1, 1, 2])))
                targets = [f"{b.expr}.{a}" for a in attrs]
            for expr in targets:
                kind = kind_of(expr.rpartition(".")[2])
                roll = r.random()
                if kind == "class" and b.guard == "none" and self.chance(0.35):
                    self.use_now(m, expr, b, "base")  # imported classes are mostly subclassed
                elif roll < self.p_import_time:
                    if b.guard == "try" and b.kind == "module":
                        continue  # `None.attr` when the import failed: not our subject
                    if b.guard == "try":
                        self.use_now(m, expr, b, r.choice(["const", "default"]))
                    else:
                        self.use_now(m, expr, b, self.pick_shape(kind))
                elif roll < self.p_import_time + (1 - self.p_import_time) * 0.75:
                    self.use_later(m, expr, b)
        # bodies also read the module's own defs, which may come later in the file: a call from
        # another module while this one is still running then fails with NameError
        for name in m.funcs:
            others = [d for d in m.defs if d != name]
            if others and self.chance(0.5):
                m.defstmt[name].reads.append(r.choice(others))
        # calls of local functions at import time (their bodies read imported names)
        for name in m.funcs:
            s = m.defstmt[name]
            p = 0.45 if (s.body_imports or s.reads) else 0.1
            if self.chance(p):
                self.add_call(m, name, s)
        for name in m.defs:
            s = m.defstmt[name]
            # reads of names only: a chain may pass a package attribute an optional import
            # left None, whose attributes the simulator does not model
            if kind_of(name) == "class" and s.reads and not s.guarded_reads and \
                    s.decorator is None and not any("." in read for read in s.reads) and \
                    self.p_method and self.method_rng.random() < self.p_method:
                self.add_method_call(m, name, s)

    def pick_shape(self, kind: str) -> str:
        shapes = {
            "class": ["base", "base", "base", "annotation", "classbody", "const", "default"],
            "func": ["decorator", "decorator", "call", "call", "call", "default", "const",
                     "classbody"],
            "const": ["const", "const", "default", "classbody", "annotation", "toplevel"],
        }[kind]
        return self.rng.choice(shapes)

    def local_def(self, m: Module, kind: str, need: Stmt | None, pred=lambda s: True):
        """A def of `kind` in m that can come after `need` (no dependency cycle)."""
        cands = [m.defstmt[n] for n in m.defs if kind_of(n) == kind and pred(m.defstmt[n])]
        cands = [s for s in cands if need is None or not self.depends_on(m, need, s)]
        return self.rng.choice(cands) if cands else None

    def depends_on(self, m: Module, a: Stmt, b: Stmt) -> bool:
        """Does a (transitively) need b?"""
        ids = {id(s): s for s in m.stmts}
        seen, todo = set(), [a]
        while todo:
            s = todo.pop()
            if s is b:
                return True
            for n in s.needs:
                if n not in seen:
                    seen.add(n)
                    todo.append(ids[n])
        return False

    def short_circuit(self, name: str, expr: str) -> str:
        """`expr`, or `expr` behind an `and` / `or` whose left operand decides whether it is
        evaluated at all."""
        r = self.sc_rng
        if not self.p_short or r.random() >= self.p_short:
            return expr
        left = r.choice(["True", "False", "0", "1", f'"{name}" in globals()',
                         f'"{name}" not in globals()', 'not "__name__" in globals()'])
        return f"{left} {r.choice(['and', 'or'])} {expr}"

    def new_private(self, m: Module, prefix: str) -> str:
        self.counter += 1
        return f"_{prefix}{self.counter}"

    def use_now(self, m: Module, expr: str, b: Binding, shape: str) -> None:
        """Use `expr` while the module runs (needs b's import statement first)."""
        r = self.rng
        need = b.stmt
        def attach(s: Stmt):
            s.needs.add(id(need))
        if shape == "base":
            s = self.local_def(m, "class", need, lambda s: s.base is None)
            if s:
                s.base = expr
                return attach(s)
            shape = "const"
        if shape == "decorator":
            kind = r.choice(["func", "class"])
            s = self.local_def(m, kind, need, lambda s: s.decorator is None and
                               s.method is None) or \
                self.local_def(m, "func", need, lambda s: s.decorator is None)
            if s:
                s.decorator = expr
                return attach(s)
            shape = "call"
        if shape == "default":
            s = self.local_def(m, "func", need)
            if s:
                s.params.append([f"opt{len(s.params)}", None, expr])
                return attach(s)
            shape = "const"
        if shape == "classbody":
            s = self.local_def(m, "class", need)
            if s:
                s.class_lines.append(f"{r.choice(['kind', 'default', 'handler', 'ref'])}"
                                     f"{len(s.class_lines)} = {expr}")
                return attach(s)
            shape = "const"
        if shape == "annotation":
            self.annotate(m, expr, quote=False, need=need)
            return
        if shape == "const":
            s = self.local_def(m, "const", need, lambda s: not s.needs)
            if s and self.chance(0.6):
                s.text = f"{s.name} = {self.short_circuit(s.name, expr)}"
                return attach(s)
            shape = "toplevel"
        if shape == "call":
            cls = self.local_def(m, "class", need)
            if cls and self.chance(0.5):  # registration: register(LocalClass)
                s = self.stmt(m, "use", r.uniform(0.5, 1.2), text=f"{expr}({cls.name})")
                s.needs |= {id(need), id(cls)}
            else:
                target = self.new_private(m, r.choice(["default", "instance", "hook"]))
                s = self.stmt(m, "use", r.uniform(0.3, 1.2), text=f"{target} = {expr}()")
                s.needs.add(id(need))
            return
        # "toplevel": a plain read
        target = self.new_private(m, r.choice(["alias", "ref", "registry"]))
        text = r.choice([f"{target} = {expr}", f"{target} = [{expr}]",
                         f"{target} = {{'key': {expr}}}"])
        if text == f"{target} = {expr}":
            text = f"{target} = {self.short_circuit(target, expr)}"
        s = self.stmt(m, "use", r.uniform(0.3, 1.2), text=text)
        s.needs.add(id(need))

    def annotate(self, m: Module, expr: str, quote: bool, need: Stmt | None) -> None:
        r = self.rng
        ann = f'"{expr}"' if quote else expr
        where = r.choice(["param", "return", "field", "module"])
        s = None
        if where in ("param", "return"):
            s = self.local_def(m, "func", need)
            if s and where == "param":
                s.params[0][1] = ann if s.params[0][1] is None else s.params[0][1]
            elif s:
                s.returns = s.returns or ann
        elif where == "field":
            s = self.local_def(m, "class", need)
            if s:
                s.class_lines.append(f"field{len(s.class_lines)}: {ann}")
        if s is None:
            target = self.new_private(m, "slot")
            s = self.stmt(m, "use", r.uniform(0.3, 1.2), text=f"{target}: {ann} = None")
        if need is not None and not (quote or m.future):
            s.needs.add(id(need))

    def use_annotation_only(self, m: Module, b: Binding) -> None:
        """TYPE_CHECKING names appear in annotations only: quoted, or under the future import;
        now and then evaluated (NameError in every order)."""
        if m.future:
            self.annotate(m, b.expr, quote=False, need=None)
        else:
            self.annotate(m, b.expr, quote=not self.chance(0.12), need=None)

    def use_later(self, m: Module, expr: str, b: Binding) -> None:
        kind = self.rng.choice(["func", "class"])
        if b.guard == "try" and b.kind == "module":
            kind = "class"  # methods never run at import time; `None.attr` is not our subject
            s = self.local_def(m, kind, None)
            if s is not None:
                s.guarded_reads = True
        else:
            s = self.local_def(m, kind, None) or self.local_def(m, "func", None)
        if s is None:
            return
        s.reads.append(expr)
        s.read_needs.add(id(b.stmt))

    def add_method_call(self, m: Module, name: str, s: Stmt) -> None:
        r = self.method_rng
        s.method = r.choice(["function", "staticmethod", "classmethod", "init", "subclass",
                             "new", "keyword", "bound", "descriptor",
                             *(() if s.base else ("meta", "metacall"))])
        # "init": the class is called, and its __init__ calls the method on the new object;
        # "subclass": a subclass is made, and the class's __init_subclass__ calls it; "new":
        # the method is called on a new object (`Loader().run()`); "meta": a subclass is
        # made, and the metaclass's __init__ calls it; "keyword": a subclass is made with
        # `run=True`, which __init_subclass__ tests; "metacall": the class is called, and its
        # metaclass's __call__ calls it; "bound": a name holds a new object, whose method is
        # called later (`loader = Loader(); loader.run()`); "descriptor": a class body binds
        # an object, whose __set_name__ calls it
        text = f"{name}(1)" if s.method in ("init", "metacall") else f"{name}().run()" \
            if s.method == "new" else f"{name}_obj = {name}()\n{name}_obj.run()" \
            if s.method == "bound" else f"class {name}Owner:\n    field = {name}()" \
            if s.method == "descriptor" else f"{name}.run()"
        if s.method == "init" and r.random() < 0.5:  # the __init__ inherited by a subclass
            text = f"class {name}Sub({name}):\n    pass\n\n\n{name}Sub(1)"
        elif s.method == "init" and r.random() < 0.5:  # or run by super() in the subclass's
            text = (f"class {name}Sub({name}):\n    def __init__(self, arg=None):\n"
                    f"        super().__init__(arg)\n\n\n{name}Sub(1)")
        elif s.method in ("subclass", "meta"):
            text = f"class {name}Sub({name}):\n    pass"
        elif s.method == "keyword":
            text = f"class {name}Off({name}):\n    pass\n\n\nclass {name}Sub({name}, run=True):" \
                "\n    pass"
        call = self.stmt(m, "use", r.uniform(0.5, 1.3), text=text)
        call.needs |= {id(s)} | s.read_needs
        for read in s.reads:
            head = read.partition(".")[0]
            if head in m.defstmt and not self.depends_on(m, m.defstmt[head], call):
                call.needs.add(id(m.defstmt[head]))

    def add_call(self, m: Module, name: str, s: Stmt) -> None:
        r = self.rng
        target = self.new_private(m, r.choice(["setup", "loaded", "defaults"]))
        text = r.choice([f"{name}()", f"{target} = {name}()"])
        call = self.stmt(m, "use", r.uniform(0.5, 1.3), text=text)
        call.needs |= {id(s)} | s.read_needs
        for read in s.reads:  # local defs read by the body must exist when it runs
            head = read.partition(".")[0]
            if head in m.defstmt and not self.depends_on(m, m.defstmt[head], call):
                call.needs.add(id(m.defstmt[head]))

    # ------------------------------------------------------------------ rendering
    def ordered(self, m: Module) -> list:
        ids = {id(s): s for s in m.stmts}
        done: set = set()
        out = []
        pending = list(m.stmts)
        while pending:
            ready = [s for s in pending if all(n in done for n in s.needs)]
            if not ready:
                raise AssertionError(f"seed {self.seed}: dependency cycle in {m.name}")
            s = min(ready, key=lambda s: (s.priority, s.order))
            pending.remove(s)
            done.add(id(s))
            out.append(s)
        assert len(out) == len(ids)
        return out

    def render_stmt(self, m: Module, s: Stmt) -> str:
        if s.kind in ("import", "use", "const"):
            return s.text
        lines = []
        if s.decorator:
            lines.append(f"@{s.decorator}")
        if s.kind == "func":
            params = []
            for name, ann, default in s.params:
                p = name + (f": {ann}" if ann else "")
                p += (f" = {default}" if ann else f"={default}") if default is not None else ""
                params.append(p)
            if len(params) > 1:
                params = params[:1] + ["*"] + params[1:]
            ret = f" -> {s.returns}" if s.returns else ""
            lines.append(f"def {s.name}({', '.join(params)}){ret}:")
            body = list(s.body_imports)
            reads = list(dict.fromkeys(s.reads))
            if reads:
                body.append(f"found = ({', '.join(reads)},)")
                body.append("return arg if arg is not None else found")
            else:
                body.append("return arg")
            lines += ["    " + b for b in body]
        else:  # class
            base = f"({s.base})" if s.base else ""
            if s.method == "meta" and s.reads:
                lines += [f"class {s.name}Meta(type):",
                          "    def __init__(cls, name, bases, ns):",
                          "        super().__init__(name, bases, ns)",
                          f"        if name != {s.name!r}:",
                          "            cls.found = cls.run()", "", ""]
                base = f"({s.base + ', ' if s.base else ''}metaclass={s.name}Meta)"
            elif s.method == "metacall" and s.reads:
                lines += [f"class {s.name}Meta(type):",
                          "    def __call__(cls, *args):",
                          "        cls.found = cls.run()",
                          "        return super().__call__()", "", ""]
                base = f"({s.base + ', ' if s.base else ''}metaclass={s.name}Meta)"
            lines.append(f"class {s.name}{base}:")
            body = list(s.class_lines)
            reads = list(dict.fromkeys(s.reads))
            if reads:
                body.append("")
                if s.method in ("staticmethod", "classmethod"):
                    body.append(f"@{s.method}")
                elif s.method == "init" and _through_function(s.name):
                    # the __init__ calls a module-level function, which calls the method:
                    # replayed when the class is called over known arguments
                    body += ["def __init__(self, arg=None):",
                             f"    self.found = _{s.name}_found(self)", ""]
                elif s.method == "init":
                    body += ["def __init__(self, arg=None):", "    self.found = self.run()",
                             ""]
                elif s.method == "subclass":
                    body += ["def __init_subclass__(cls, **kwargs):",
                             "    super().__init_subclass__(**kwargs)",
                             "    cls.found = cls.run()", "", "@classmethod"]
                elif s.method == "keyword":
                    body += ["def __init_subclass__(cls, run=False, **kwargs):",
                             "    super().__init_subclass__(**kwargs)",
                             "    if run:", "        cls.found = cls.run()", "",
                             "@classmethod"]
                elif s.method in ("meta", "metacall"):
                    body.append("@classmethod")
                elif s.method == "descriptor":
                    body += ["def __set_name__(self, owner, attr):",
                             "    self.found = self.run()", ""]
                body.append("def run(cls):" if s.method in ("classmethod", "subclass",
                                                             "keyword", "meta", "metacall") else
                            "def run(self):" if s.method in (None, "init", "new", "bound",
                                                             "descriptor") else
                            "def run():")
                body.append(f"    return ({', '.join(reads)},)")
            if not body:
                body = [self.rng.choice(["pass", f'"""{s.name}."""', "slots = ()"])]
            lines += [("    " + b) if b else "" for b in body]
            if s.method == "init" and reads and _through_function(s.name):
                lines += ["", "", f"def _{s.name}_found(obj):", "    return obj.run()"]
        return "\n".join(lines)

    def render(self, m: Module) -> str:
        head = [f'"""{m.name}: generated by randpkg seed {self.seed}."""']
        if m.future:
            head.append("from __future__ import annotations")
        if m.tc_style == "typing":
            head.append("from typing import TYPE_CHECKING")
        elif m.tc_style == "literal":
            head.append("TYPE_CHECKING = False")
        parts = ["\n".join(head)]
        stmts, tail = self.dynamic_tail(m, self.ordered(m))
        prev = None
        for s in stmts:
            text = self.render_stmt(m, s)
            sep = "\n\n\n" if (s.kind in ("func", "class") or
                               (prev is not None and prev.kind in ("func", "class"))) else "\n"
            parts.append(sep + text)
            prev = s
        parts.append(self.render_loader(m))
        parts.append(self.render_discovery(m))
        parts.append(self.render_dirscan(m))
        if m.is_pkg and m.reexports and self.chance(0.5):
            names = [n for n in m.defs + m.reexports]
            parts.append("\n\n__all__ = [" + ", ".join(repr(n) for n in names) + "]")
        parts.append(tail)
        return "".join(parts).strip() + "\n"

    def dynamic_tail(self, m: Module, stmts: list) -> tuple[list, str]:
        """Maybe one constant of m moved to the module's very end and bound there under a
        key no analysis can list (`sorted(..., key=str.lower)`): read before, it is missing
        (in CPython and statically alike); read once m has finished, the ordinary-order rule
        takes it as bound. Nothing runs after it in m, so no read meets m running past it."""
        consts = [s for s in stmts if s.kind == "const"]
        if not consts or self.dyn_rng.random() >= self.p_dyn_tail:
            return stmts, ""
        s = self.dyn_rng.choice(consts)
        value = s.text.partition(" = ")[2]
        tail = (f"\n\n# binds {s.name} = {value}\n"
                f"for _dyn_k in sorted({{'': 0}}, key=str.lower):\n"
                f"    globals()[f'{s.name}{{_dyn_k}}'] = {value}")
        return [x for x in stmts if x is not s], tail

    def run(self) -> dict:
        self.plan_tree()
        for m in self.modules:
            self.plan_defs(m)
        self.plan_reexports()
        self.plan_layers()
        for m in self.modules:
            self.plan_imports(m)
        if self.chance(0.4):
            self.plant_callback()
        if self.chance(0.15):
            self.plant_reentrant()
        for m in self.modules:
            self.plan_uses(m)
        files = {}
        for m in sorted(self.modules, key=lambda m: m.name):
            src = self.render(m)
            compile(eager(src), m.path, "exec")  # a generator bug must fail loudly, here
            files[m.path] = src
        return files


def eager(src: str) -> str:
    """The source without PEP 810 `lazy` keywords (3.15 syntax), for compile() here."""
    return re.sub(r"(?m)^(\s*)lazy (import|from) ", r"\1\2 ", src)


def generate(seed: int) -> dict[str, str]:
    """{relative path: source} of the random package `rp` for this seed (deterministic)."""
    return Generator(seed).run()


def write(files: dict[str, str], root: Path) -> Path:
    """Write the files under `root`; returns the package directory `root/rp`."""
    root = Path(root)
    for rel, src in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(src)
    return root / TOP


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.rsplit("\n\n", 1)[-1].strip(), file=sys.stderr)
        return 2
    files = generate(int(argv[1]))
    if (Path(argv[2]) / TOP).exists():
        print(f"{Path(argv[2]) / TOP} already exists; pick an empty OUTDIR", file=sys.stderr)
        return 2
    pkg = write(files, Path(argv[2]))
    print(f"wrote {len(files)} modules under {pkg}")
    for rel in sorted(files):
        print("  " + rel)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
