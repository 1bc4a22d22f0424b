"""The PEP 810 emulation (src/importsafe/dynamic/lazyemu.py, with lazyrewrite.py and
lazyscope.py) behind `importsafe run --mode lazy` on Python 3.8-3.14, rule by rule
(docs/lazy.md L1-L6), through the real runner with the fork server and with a fresh
interpreter per job; plus the source rewrite itself (lazyrewrite.py, in this process, by path:
importsafe never imports the emulation outside the target interpreter) and its Python 3.8
syntax.
"""
from __future__ import annotations

import ast
import glob
import importlib.util
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from support import write_dedented

from importsafe.dynamic.probe import uses_lazy_syntax
from importsafe.dynamic.runner import run_jobs

DYNAMIC = Path(__file__).resolve().parents[1] / "src" / "importsafe" / "dynamic"
LAZYEMU_FILES = [DYNAMIC / name for name in ("lazyemu.py", "lazyrewrite.py", "lazyscope.py")]
MISSING = "nothere_xyz_lazyemu"

# Packages whose normal runs stay plain CPython (no `lazy` syntax, no __lazy_modules__).
PLAIN = {
    # L4: the cycle's names are read only in functions: fails eagerly, fine lazily
    "cyc/__init__.py": "",
    "cyc/x.py": """
        def X1():
            return "X"

        from .y import Y1

        def X2():
            return Y1()
        """,
    "cyc/y.py": """
        def Y1():
            return "Y"

        from .x import X2

        def Y2():
            return X2()
        """,
    # L5: a genuine cycle still fails, with the eager error, raised at the use site
    "gen/__init__.py": "",
    "gen/a.py": "from .b import B\nA = B + 1\n",
    "gen/b.py": "B = 1\nfrom .a import A\nC = A + 1\n",
    # L3: submodule proxies on the parent package
    "subm/__init__.py": "",
    "subm/b.py": "def f():\n    return 'b'\n",
    "subm/c.py": "C = 1\n",
    "subm/d.py": "D = 1\n",
    "usesub.py": """
        import sys
        import subm.b
        import subm.c
        assert subm.c.C == 1
        assert subm.b.f() == "b"  # subm.b was never imported by a statement
        """,
    "unnamed.py": "import subm.c\nsubm.d\n",  # nobody registered subm.d
    # a namespace package runs no code that finishes: proxies only for paths named once it
    # is in sys.modules
    "nsp/one.py": "X = 1\n",
    "nsp/two.py": "Y = 2\n",
    "nsuser.py": "import nsp.one\nimport nsp.two\nassert nsp.two.Y == 2\nassert nsp.one.X == 1\n",
    "nsuser2.py": "import nsp.two\nassert nsp.two.Y == 2\nimport nsp.one\nassert nsp.one.X == 1\n",
    # L3/L4: a package's own code reads the submodule a lazy import registered on it
    "pkgi/__init__.py": "from .a import f\nassert a.g() == 'g'\n",
    "pkgi/a.py": "def f():\n    return 'f'\n\ndef g():\n    return 'g'\n",
    # L4/L5: missing modules and names fail only when read, at the read
    "miss/__init__.py": "",
    "miss/present.py": "OK = 1\n",
    "miss/unused.py": f"import {MISSING}\nfrom .gone import G\n\n"
                      f"def f():\n    return {MISSING}, G\n",
    "miss/used.py": f"import {MISSING}\n\nX = 1\nY = {MISSING}.attr\n",
    "miss/badname.py": "from .present import NOPE\nprint(NOPE)\n",
    "miss/nameerr.py": f"import {MISSING} as M\ndel M\nM\n",
    # L1: what stays eager
    "eag/__init__.py": "",
    "eag/try_.py": f"try:\n    import {MISSING}\nfinally:\n    pass\n",
    "eag/star.py": "from .gone import *\n",
    "eag/func.py": f"def f():\n    import {MISSING}\n\nf()\n",
    "eag/class_.py": f"class C:\n    import {MISSING}\n",
    "eag/dyn.py": f"import importlib\nimportlib.import_module('{MISSING}')\n",
    "eag/with_.py": f"import contextlib\nwith contextlib.nullcontext():\n    import {MISSING}\n",
    "eag/if_.py": f"if True:\n    import {MISSING}\nelse:\n    pass\n",
    "eag/loop.py": f"for _ in range(1):\n    import {MISSING}\n",
    # L5: re-entrant resolution
    "rent/__init__.py": "",
    "rent/a.py": "from .b import B\nX = B\n",
    "rent/b.py": "from . import a\nY = a.B\n",
    # the import system's own lookups (the fromlist check, IMPORT_FROM) see a proxy under
    # resolution as missing: `from . import sub` in an __init__ imports the submodule, and
    # IMPORT_FROM falls back to sys.modules, else raises its usual ImportError
    "fromdot/__init__.py": "from . import sub\nVALUE = sub.f()\n",
    "fromdot/sub.py": "def f():\n    return 1\n",
    "rent2/__init__.py": "",
    "rent2/a.py": "from .b import B\nX = B\n",
    "rent2/b.py": "from .a import B as BB\nY = BB\n",
    # the value replaces the submodule the import system bound over the proxy meanwhile
    "samename/__init__.py": "from .helper import helper\n",
    "samename/helper.py": "def helper():\n    return 1\n",
    "samename_user.py": "from samename import helper\nassert helper() == 1\n",
    # L4: what reads a lazy name while the module runs, and what does not
    "reads/__init__.py": "",
    "reads/vals.py": "N = 1\n\nclass Color:\n    RED = 1\n",
    "reads/class_body.py": f"import {MISSING} as M\n\nclass C:\n    x = M\n",
    "reads/class_local.py": f"import {MISSING} as M\n\nclass C:\n    M = 1\n    y = M\n",
    "reads/class_before.py": f"import {MISSING} as M\n\nclass C:\n    y = M\n    M = 1\n",
    "reads/decorator.py": f"import {MISSING} as M\n\n@M\ndef f():\n    pass\n",
    "reads/default.py": f"import {MISSING} as M\n\ndef f(x=M):\n    pass\n",
    "reads/base.py": f"import {MISSING} as M\n\nclass C(M):\n    pass\n",
    "reads/call.py": f"import {MISSING} as M\n\ndef f():\n    return M\n\nf()\n",
    "reads/global_stmt.py": f"import {MISSING} as M\n\n"
                            "def f():\n    global M\n    return M\n\nf()\n",
    "reads/comprehension.py": f"import {MISSING} as M\n\nL = [M for _ in range(1)]\n",
    "reads/not_read.py": f"import {MISSING} as M\n\ndef f():\n    return M\n",
    "reads/local_shadow.py": f"""
        import {MISSING} as M

        def f(M=1):
            return M

        def g():
            M = 2
            return M

        def outer():
            M = 3
            def inner():
                return M
            class K:
                y = M
            return inner()

        assert f() + g() + outer() == 6
        assert (lambda M: M)(4) == 4
        assert [M for M in range(3)] == [0, 1, 2]
        """,
    "reads/augassign.py": "from .vals import N\nN += 1\nassert N == 2\n",
    "reads/in_globals.py": """
        from .vals import N
        assert type(globals()["N"]).__name__ == "lazy_import"
        assert N == 1
        assert globals()["N"] == 1  # the read replaced the proxy
        """,
    # L4: attribute reads from other modules
    "attr/__init__.py": "",
    "attr/vals.py": "V = 5\n",
    "attr/m.py": f"import {MISSING} as Q\nfrom .vals import V\n",
    "attr/m2.py": "from .vals import V\n",
    "attr/user.py": "from . import m\nassert m.V == 5\n",
    "attr/user_from.py": "from .m import V\nassert V == 5\n",
    "attr/user_star.py": "from .m2 import *\nassert V == 5\n",
    "attr/user_q.py": "from . import m\nm.Q\n",
    # L7: a module imported for its side effect no longer runs
    "side/__init__.py": "",
    "side/registry.py": "HANDLERS = []\n",
    "side/plugin.py": "from .registry import HANDLERS\nHANDLERS.append(1)\n",
    "side/use.py": "from . import plugin\nfrom .registry import HANDLERS\nassert HANDLERS == []\n",
}

MODERN = {  # Python 3.10+: names in match patterns
    "modern/__init__.py": "",
    "modern/vals.py": "class Color:\n    RED = 1\n",
    "modern/match_.py": """
        from .vals import Color
        match 1:
            case Color.RED:
                OK = True
            case _:
                OK = False
        assert OK
        """,
}

ANNOTATIONS = {  # evaluated at definition time up to 3.13 (PEP 649 defers them in 3.14)
    "ann/__init__.py": "",
    "ann/evaluated.py": f"import {MISSING} as M\n\ndef f(x: M) -> M:\n    pass\n",
    "ann/future.py": f"from __future__ import annotations\nimport {MISSING} as M\n\n"
                     f"def f(x: M) -> M:\n    pass\n",
}

# Packages that write PEP 810 syntax: normal and bare runs go through the emulation too.
SYNTAX = {
    "expl/__init__.py": "",
    "expl/b.py": "B = 1\n",
    "expl/a.py": f"""
        import sys
        lazy import {MISSING}
        lazy from .b import B
        if True:
            lazy import {MISSING}.sub as S
        assert "expl.b" not in sys.modules
        assert B == 1
        assert "expl.b" in sys.modules
        lazy = 3  # still a name
        """,
    "expl/inside.py": "def f():\n    lazy import os\n",
    "expl/in_try.py": "try:\n    lazy import os\nexcept ImportError:\n    pass\n",
    "expl/star.py": "lazy from os import *\n",
    "llm/__init__.py": "",
    "llm/b.py": "B = 1\n",
    "llm/a.py": f"""
        import sys
        __lazy_modules__ = ["{MISSING}", "llm.b"]
        import {MISSING}
        from .b import B
        assert "llm.b" not in sys.modules
        """,
    "llm/c.py": f"__lazy_modules__ = ['other']\nimport {MISSING}\n",
}

MNFE = ("error", "ModuleNotFoundError", MISSING, None)

EXPECTED = {  # (entry, mode) -> outcome key; a mode left out is not run
    ("cyc.x", "normal"): ("error", "ImportError", "cyc.x", "X2"),
    ("cyc.x", "lazy"): ("ok",),
    ("cyc.y", "lazy"): ("ok",),
    ("gen.a", "normal"): ("error", "ImportError", "gen.a", "A"),
    ("gen.a", "lazy"): ("error", "ImportError", "gen.a", "A"),
    ("usesub", "normal"): ("ok",),
    ("usesub", "lazy"): ("ok",),
    ("unnamed", "lazy"): ("error", "AttributeError", "subm", "d"),
    ("nsuser", "normal"): ("ok",),
    ("nsuser", "lazy"): ("error", "AttributeError", "nsp", "one"),
    ("nsuser2", "normal"): ("ok",),
    ("nsuser2", "lazy"): ("ok",),
    ("pkgi", "normal"): ("ok",),
    ("pkgi", "lazy"): ("ok",),
    ("pkgi.a", "lazy"): ("ok",),
    ("miss.unused", "normal"): MNFE,
    ("miss.unused", "lazy"): ("ok",),
    ("miss.used", "lazy"): MNFE,
    ("miss.badname", "lazy"): ("error", "ImportError", "miss.present", "NOPE"),
    ("miss.nameerr", "lazy"): ("error", "NameError", "miss.nameerr", "M"),
    ("eag.try_", "lazy"): MNFE,
    ("eag.star", "lazy"): ("error", "ModuleNotFoundError", "eag.gone", None),
    ("eag.func", "lazy"): MNFE,
    ("eag.class_", "lazy"): MNFE,
    ("eag.dyn", "lazy"): MNFE,
    ("eag.with_", "lazy"): ("ok",),
    ("eag.if_", "lazy"): ("ok",),
    ("eag.loop", "lazy"): ("ok",),
    ("rent.a", "normal"): ("error", "AttributeError", "rent.a", "B"),
    ("rent.a", "lazy"): ("error", "ImportCycleError", "rent.b", "B"),
    ("fromdot", "normal"): ("ok",),
    ("fromdot", "lazy"): ("ok",),
    ("rent2.a", "normal"): ("error", "ImportError", "rent2.a", "B"),
    ("rent2.a", "lazy"): ("error", "ImportError", "rent2.a", "B"),
    ("samename_user", "normal"): ("ok",),
    ("samename_user", "lazy"): ("ok",),
    ("reads.class_body", "lazy"): MNFE,
    ("reads.class_local", "lazy"): ("ok",),
    ("reads.class_before", "lazy"): MNFE,
    ("reads.decorator", "lazy"): MNFE,
    ("reads.default", "lazy"): MNFE,
    ("reads.base", "lazy"): MNFE,
    ("reads.call", "lazy"): MNFE,
    ("reads.global_stmt", "lazy"): MNFE,
    ("reads.comprehension", "lazy"): MNFE,
    ("reads.not_read", "lazy"): ("ok",),
    ("reads.local_shadow", "lazy"): ("ok",),
    ("reads.augassign", "normal"): ("ok",),
    ("reads.augassign", "lazy"): ("ok",),
    ("reads.in_globals", "lazy"): ("ok",),
    ("attr.user", "lazy"): ("ok",),
    ("attr.user_from", "lazy"): ("ok",),
    ("attr.user_star", "lazy"): ("ok",),
    ("attr.user_q", "lazy"): MNFE,
    ("side.use", "normal"): ("error", "AssertionError", None, None),
    ("side.use", "lazy"): ("ok",),
}
EXPECTED_MODERN = {("modern.match_", "normal"): ("ok",), ("modern.match_", "lazy"): ("ok",)}
EXPECTED_ANNOTATIONS = {("ann.evaluated", "lazy"): MNFE, ("ann.future", "lazy"): ("ok",)}
SYNTAX_ERROR = ("error", "SyntaxError", None, None)
EXPECTED_SYNTAX = {
    **{("expl.a", m): ("ok",) for m in ("normal", "bare", "lazy")},
    **{(f"expl.{e}", m): SYNTAX_ERROR for e in ("inside", "in_try", "star")
       for m in ("normal", "lazy")},
    **{("llm.a", m): ("ok",) for m in ("normal", "bare", "lazy")},
    ("llm.c", "normal"): MNFE,
    ("llm.c", "lazy"): ("ok",),
}

INTERPRETERS = sorted(glob.glob(str(Path.home() / ".pyenv/versions/3.*/bin/python")))
PY38 = next((p for p in INTERPRETERS if "/3.8." in p), None)


write = write_dedented


def key(result) -> tuple:
    if result.outcome != "error":
        return (result.outcome,) if result.outcome == "ok" else (result.outcome, result.reason)
    err = result.error
    return ("error", err.exception, err.module, err.name)


def run(root: Path, expected: dict, fork: bool, python: str | None = None) -> dict:
    ran = run_jobs([str(root)], list(expected), fork=fork, timeout=30, python=python)
    return {(r.entry, r.mode): r for r, _ in ran}


@pytest.fixture(scope="module")
def plain(tmp_path_factory):
    files = {**PLAIN, **(MODERN if sys.version_info >= (3, 10) else {})}
    if sys.version_info < (3, 14):
        files.update(ANNOTATIONS)
    root = write(tmp_path_factory.mktemp("plain"), files)
    expected = {**EXPECTED, **(EXPECTED_MODERN if sys.version_info >= (3, 10) else {})}
    if sys.version_info < (3, 14):
        expected.update(EXPECTED_ANNOTATIONS)
    return root, expected, {fork: run(root, expected, fork) for fork in (True, False)}


@pytest.fixture(scope="module")
def syntax(tmp_path_factory):
    root = write(tmp_path_factory.mktemp("syntax"), SYNTAX)
    return root, {fork: run(root, EXPECTED_SYNTAX, fork) for fork in (True, False)}


def chain(result) -> list:
    return [(f.module, Path(f.file).name, f.line) for f in result.error.chain]


# --- the rules, through the runner -------------------------------------------------------

@pytest.mark.parametrize("fork", [True, False], ids=["fork", "no-fork"])
def test_every_rule_runs_as_expected(plain, fork):
    _, expected, results = plain
    got = {k: key(r) for k, r in results[fork].items()}
    wrong = [(k, expected[k], got[k]) for k in expected if got[k] != expected[k]]
    assert not wrong, "\n".join(map(str, wrong))


def test_fork_and_fresh_interpreters_agree_on_chains_and_messages(plain):
    _, _, results = plain
    for k, forked in results[True].items():
        fresh = results[False][k]
        assert (forked.outcome, forked.error) == (fresh.outcome, fresh.error), k


def test_genuine_cycle_chain_shows_use_sites_then_declarations(plain):
    """L5: the module reading the name at the use site, the `lazy` declaration, then the
    modules the import ran (which read and declare in turn)."""
    _, _, results = plain
    eager, lazy = results[True][("gen.a", "normal")], results[True][("gen.a", "lazy")]
    assert chain(eager) == [("gen.a", "a.py", 1), ("gen.b", "b.py", 2)]
    assert chain(lazy) == [("gen.a", "a.py", 2), ("gen.a", "a.py", 1),
                           ("gen.b", "b.py", 3), ("gen.b", "b.py", 2)]
    assert lazy.error.message == eager.error.message  # the same ImportError, word for word


def test_missing_module_fails_at_the_read(plain):
    _, _, results = plain
    used = results[True][("miss.used", "lazy")]
    assert chain(used) == [("miss.used", "used.py", 4), ("miss.used", "used.py", 1)]
    badname = results[True][("miss.badname", "lazy")]
    assert chain(badname) == [("miss.badname", "badname.py", 2),
                              ("miss.badname", "badname.py", 1)]
    assert "cannot import name 'NOPE' from 'miss.present'" in badname.error.message
    through_attribute = results[True][("attr.user_q", "lazy")]
    assert chain(through_attribute) == [("attr.user_q", "user_q.py", 2), ("attr.m", "m.py", 1)]
    class_body = results[True][("reads.class_body", "lazy")]
    assert chain(class_body) == [("reads.class_body", "class_body.py", 3),
                                 ("reads.class_body", "class_body.py", 1)]


def test_reentrant_resolution_is_an_import_cycle_error(plain):
    _, _, results = plain
    err = results[True][("rent.a", "lazy")].error
    assert err.message == "cannot import name 'B' (most likely due to a circular import)"
    assert chain(results[True][("rent.a", "lazy")]) == \
        [("rent.a", "a.py", 2), ("rent.a", "a.py", 1), ("rent.b", "b.py", 2)]


def test_explicit_syntax_and_lazy_modules_in_every_mode(syntax):
    root, results = syntax
    assert uses_lazy_syntax([str(root)], {"expl"}) and uses_lazy_syntax([str(root)], {"llm"})
    for fork in (True, False):
        got = {k: key(r) for k, r in results[fork].items()}
        wrong = [(k, EXPECTED_SYNTAX[k], got[k]) for k in EXPECTED_SYNTAX
                 if got[k] != EXPECTED_SYNTAX[k]]
        assert not wrong, "\n".join(map(str, wrong))
    messages = {k[0]: r.error.message for k, r in results[True].items() if r.error}
    assert messages["expl.inside"].startswith("lazy import not allowed inside functions")
    assert messages["expl.in_try"].startswith("lazy import not allowed inside try/except blocks")
    assert messages["expl.star"].startswith("lazy from ... import * is not allowed")


@pytest.mark.parametrize("fork", [True, False], ids=["fork", "no-fork"])
def test_target_before_315_ignores_lazy_modules(syntax, fork):
    """L2: `__lazy_modules__` counts only for a 3.15+ target; before, the names it lists are
    imported eagerly, as a pre-3.15 interpreter does (explicit `lazy` stays lazy)."""
    root, _ = syntax
    jobs = [("llm.a", "normal"), ("llm.a", "bare"), ("llm.a", "lazy"), ("expl.a", "normal")]
    ran = run_jobs([str(root)], jobs, fork=fork, timeout=30, target_version=(3, 11))
    assert [key(r) for r, _ in ran] == [MNFE, MNFE, ("ok",), ("ok",)]


def test_plain_packages_do_not_ask_for_the_emulation(plain):
    root, _, _ = plain
    assert not uses_lazy_syntax([str(root)], {"cyc", "gen", "subm", "reads", "attr"})


def _version(python: str) -> tuple:
    return tuple(int(x) for x in python.split("/")[-3].split(".")[:2])


@pytest.mark.parametrize("python", [p for p in INTERPRETERS if (3, 8) <= _version(p) < (3, 15)
                                    and _version(p) != sys.version_info[:2]],
                         ids=lambda p: p.split("/")[-3])
def test_other_interpreters(tmp_path, python):
    """Every version the emulation serves (3.12 inlines comprehensions, 3.13 changed
    frame.f_locals). One root with `lazy` syntax: the normal runs of the plain packages go
    through the emulation too, and must still give plain CPython's outcomes."""
    version = _version(python)
    files, expected = {**PLAIN, **SYNTAX}, {**EXPECTED, **EXPECTED_SYNTAX}
    if version >= (3, 10):
        files.update(MODERN)
        expected.update(EXPECTED_MODERN)
    if version < (3, 14):
        files.update(ANNOTATIONS)
        expected.update(EXPECTED_ANNOTATIONS)
    root = write(tmp_path, files)
    got = {k: key(r) for k, r in run(root, expected, True, python).items()}
    wrong = [(k, expected[k], got[k]) for k in expected if got[k] != expected[k]]
    assert not wrong, "\n".join(map(str, wrong))


# --- the rewrite, in this process ------------------------------------------------------

@pytest.fixture(scope="module")
def lazyrewrite():
    spec = importlib.util.spec_from_file_location("_lazyrewrite_under_test",
                                                  DYNAMIC / "lazyrewrite.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_strip_lazy_keeps_lines_and_name_columns(lazyrewrite):
    text = ("lazy import a\nx = 1; lazy from b import c\nif x: lazy import d\nlazy = 3\n"
            "lazy(3)\n  \u00e9 = 1 ; lazy import e\nraise lazy from e\n")
    out, found = lazyrewrite.strip_lazy(text)
    assert out.split("\n") == ["import      a", "x = 1; from      b import c",
                               "if x: import      d", "lazy = 3", "lazy(3)",
                               "  \u00e9 = 1 ; import      e", "raise lazy from e", ""]
    assert found == {(1, 0), (2, 7), (3, 6), (6, 11)}  # UTF-8 columns, as ast reports them
    assert lazyrewrite.strip_lazy("lazy_loader = 1\n") == ("lazy_loader = 1\n", frozenset())


def test_rewrite_guards_global_reads_only(lazyrewrite):
    source = textwrap.dedent("""
        import a.b.c, d as e
        from .m import x, y as z
        try:
            import t
        except ImportError:
            pass
        print(a, e, x, z, t)
        def f(a, *, x=x):
            global z
            return a, x, z, e
        class C(x):
            e = e
            z = 1
            w = z
            v = [x for x in range(3)]
        def outer():
            e = 1
            def inner():
                return e
            return inner
        lam = lambda x: (x, z)
        e += 1
        """)
    tree, capable = lazyrewrite.transform(source, "f.py", False, "all")
    assert capable
    text = ast.unparse(tree) if hasattr(ast, "unparse") else None
    if text is None:
        pytest.skip("ast.unparse needs Python 3.9")
    lines = [line.strip() for line in text.splitlines()]
    assert "if not __importsafe_lazy__.lazy_import(False, 'a.b.c', None):" in lines
    assert "if not __importsafe_lazy__.lazy_import(False, 'd', 'e'):" in lines
    assert "if not __importsafe_lazy__.lazy_from(False, 'm', 1, (('x', None), ('y', 'z'))):" \
        in lines
    assert "import t" in lines  # in a try: left alone
    assert "print(__importsafe_lazy__.r('a') and a, __importsafe_lazy__.r('e') and e, " \
           "__importsafe_lazy__.r('x') and x, __importsafe_lazy__.r('z') and z, t)" in lines
    assert "def f(a, *, x=__importsafe_lazy__.r('x') and x):" in lines
    assert "return (a, x, __importsafe_lazy__.r('z') and z, __importsafe_lazy__.r('e') and e)" \
        in lines
    assert "e = __importsafe_lazy__.rn('e') and e" in lines  # class body: LOAD_NAME
    assert "w = __importsafe_lazy__.rn('z') and z" in lines
    assert "v = [x for x in range(3)]" in lines
    assert "return e" in lines  # a free variable
    assert "lam = lambda x: (x, __importsafe_lazy__.r('z') and z)" in lines
    assert lines[lines.index("e += 1") - 1] == "__importsafe_lazy__.r('e')"


def test_normal_mode_leaves_plain_modules_alone(lazyrewrite):
    assert lazyrewrite.transform("import os\nprint(os)\n", "m.py", False, "normal") == (None, False)
    tree, capable = lazyrewrite.transform("lazy import os\nprint(os)\n", "m.py", False, "normal")
    assert tree is not None and capable


@pytest.mark.parametrize("source, message", [
    ("def f():\n    lazy import os\n", "lazy import not allowed inside functions"),
    ("class C:\n    lazy from os import path\n",
     "lazy from ... import not allowed inside classes"),
    ("try:\n    lazy import os\nfinally:\n    pass\n",
     "lazy import not allowed inside try/except blocks"),
    ("lazy from os import *\n", "lazy from ... import * is not allowed"),
    ("lazy from __future__ import annotations\n", "lazy from __future__ import is not allowed"),
])
def test_misplaced_lazy_is_a_syntax_error(lazyrewrite, source, message):
    with pytest.raises(SyntaxError, match=message.replace("*", r"\*").replace(".", r"\.")):
        lazyrewrite.transform(source, "m.py", False, "normal")


@pytest.mark.skipif(PY38 is None, reason="CPython 3.8 not installed under ~/.pyenv")
@pytest.mark.parametrize("path", LAZYEMU_FILES, ids=lambda p: p.name)
def test_lazyemu_compiles_with_python38(tmp_path, path):
    code = "import py_compile, sys; py_compile.compile(sys.argv[1], cfile=sys.argv[2], " \
           "doraise=True)"
    proc = subprocess.run([PY38, "-c", code, str(path), str(tmp_path / "out.pyc")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
