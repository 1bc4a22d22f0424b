"""`importsafe lazy-plan`: the JSON schema, the plan's edits for 3.15+ (`lazy` statements) and
older targets (`__lazy_modules__` before the imports it names), the filter module, the
re-simulation that keeps eager what laziness would break (IS109), the effect table and its
`[tool.importsafe] effects` extension, and bad input."""
from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from support import run_cpython, write_dedented

from importsafe.lazyplan import rewrite
from importsafe.lazyplan.apply import lazy_plan, materialize, write as write_plan
from importsafe.lazyplan.rewrite import RewriteError, add_lazy_modules, make_lazy
from importsafe.static.lower import _lower, lower
from importsafe.lazyplan.table import TableError, table
from lazyscenario import run_scenario

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "compiler_pkg"


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "importsafe", *map(str, args)],
                          capture_output=True, text=True, timeout=300, cwd=cwd)


write = write_dedented


@pytest.fixture
def example(tmp_path) -> Path:
    shutil.copytree(EXAMPLE, tmp_path / "compiler_pkg",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_json_has_the_issue_schema(example):
    proc = run_cli("lazy-plan", "compiler_pkg", "--format", "json", cwd=example)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["schema"] == 1 and {"imports", "modules"} <= set(doc)
    tree_imports = 0
    for path in (example / "compiler_pkg").rglob("*.py"):
        for node in ast.parse(path.read_text()).body:  # module level, outside try
            if isinstance(node, (ast.Import, ast.ImportFrom)) and not (
                    isinstance(node, ast.ImportFrom) and node.names[0].name == "*"):
                tree_imports += 1
    # every module-level import PEP 810 allows to be lazy (TYPE_CHECKING blocks included)
    records = doc["imports"]
    assert len(records) >= tree_imports
    for r in records:
        assert set(r) >= {"file", "line", "module", "lazy_safe", "reasons"}
        assert r["file"].startswith("compiler_pkg/")  # as the other reports print paths
        for reason in r["reasons"]:
            assert set(reason) >= {"code", "file", "line", "message"}
    jit = next(r for r in records if r["file"] == "compiler_pkg/__init__.py" and r["line"] == 13)
    assert jit["module"] == "compiler_pkg.jit" and jit["lazy_safe"] is False
    assert jit["reasons"][0]["file"] == "compiler_pkg/jit.py"
    assert jit["reasons"][0]["reader"] == {"file": "compiler_pkg/backend_api.py", "line": 53}
    assert doc["modules"]["compiler_pkg.jit"]["eager"] is True
    assert doc["modules"]["compiler_pkg.ir"] == {"eager": False, "reasons": []}
    assert doc["plan"]["lazy_mode_today"] == ["compiler_pkg.optimizer"]
    assert doc["plan"]["checked"]["broken"] == []


def test_write_for_315_makes_the_safe_imports_lazy(example):
    before = run_cli("check", "compiler_pkg", "--mode", "normal,bare,lazy", "--format", "json",
                     "--no-cache", cwd=example)
    proc = run_cli("lazy-plan", "compiler_pkg", "--target-version", "3.15", "--write",
                   cwd=example)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    init = (example / "compiler_pkg" / "__init__.py").read_text().splitlines()
    assert init[10] == "lazy from .program import FakeProgram, Program"
    assert init[12].startswith("from .jit import JitBackend")  # the registry stays eager
    after = run_cli("check", "compiler_pkg", "--mode", "normal,bare,lazy", "--format", "json",
                    "--no-cache", "--target-version", "3.15", cwd=example)
    outcome = {(r["entry"], r["mode"]): r["outcome"]
               for r in json.loads(before.stdout)["results"]}
    for r in json.loads(after.stdout)["results"]:
        if outcome[(r["entry"], r["mode"])] == "ok":
            assert r["outcome"] == "ok", r
    # and for real, under the emulation: the registry still has jit
    scenario = example / "scenario.py"
    scenario.write_text("import compiler_pkg\nprint(compiler_pkg.get_backend('jit').name)\n")
    assert run_scenario(example, scenario, lazy=True) == "jit\n"


def test_write_before_315_places_lazy_modules_before_the_imports(example):
    proc = run_cli("lazy-plan", "compiler_pkg", "--target-version", "3.11", "--write",
                   cwd=example)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    text = (example / "compiler_pkg" / "__init__.py").read_text()
    tree = ast.parse(text)
    listing = next(i for i, n in enumerate(tree.body) if isinstance(n, ast.Assign)
                   and n.targets[0].id == "__lazy_modules__")
    assert isinstance(tree.body[0], ast.Expr)  # the docstring stays first
    assert listing == 1 and isinstance(tree.body[2], ast.ImportFrom)
    listed = ast.literal_eval(tree.body[listing].value)
    assert "compiler_pkg.program" in listed and "compiler_pkg.jit" not in listed
    # 3.11 ignores it: nothing changes; as on 3.15 (emulated), the registry keeps jit
    scenario = example / "scenario.py"
    scenario.write_text("import sys, compiler_pkg\nprint(compiler_pkg.get_backend('jit').name, "
                        "'compiler_pkg.capture' in sys.modules)\n")
    assert run_scenario(example, scenario, lazy=False) == "jit True\n"
    assert run_scenario(example, scenario, lazy=True) == "jit False\n"


def test_filter_module(example, tmp_path):
    target = tmp_path / "lazy_filter.py"
    proc = run_cli("lazy-plan", "compiler_pkg", "--filter", target, cwd=example)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (example / "compiler_pkg" / "__init__.py").read_text() == \
        (EXAMPLE / "__init__.py").read_text()  # no source changed
    namespace: dict = {}
    exec(compile(target.read_text(), str(target), "exec"), namespace)
    f = namespace["lazy_filter"]
    assert f("compiler_pkg", "compiler_pkg.program", ("FakeProgram", "Program")) is True
    assert f("compiler_pkg", "compiler_pkg.jit", ("JitBackend",)) is False
    assert f("otherpkg", "json", None) is True  # other code: the global mode decides
    again = run_cli("lazy-plan", "compiler_pkg", "--filter", target, cwd=example)
    assert again.returncode == 0  # a filter it wrote may be replaced
    foreign = tmp_path / "mine.py"
    foreign.write_text("x = 1\n")
    refused = run_cli("lazy-plan", "compiler_pkg", "--filter", foreign, cwd=example)
    assert refused.returncode == 1 and foreign.read_text() == "x = 1\n"


ORDER = {  # the jit/optimizer cycle without a registry: only the package's order makes it work
    "ord/__init__.py": "from .jit import Jit\n",
    "ord/jit.py": "class Jit:\n    pass\n\nfrom .opt import Opt\n\nDEFAULT = Opt()\n",
    "ord/opt.py": "from .jit import Jit\n\nclass Opt(Jit):\n    pass\n",
}


def test_imports_whose_laziness_breaks_a_first_import_stay_eager(tmp_path):
    write(tmp_path, ORDER)
    plan = materialize(lazy_plan([str(tmp_path / "ord")], target_version=(3, 15)))
    init = next(v for v in plan.statements if v.file.endswith("__init__.py"))
    assert not init.lazy_safe and [r.code for r in init.reasons] == ["IS109"]
    assert "ord.opt" in init.reasons[0].message
    others = [v for v in plan.statements if not v.file.endswith("__init__.py")]
    assert others and all(v.lazy_safe for v in others)  # with __init__ eager they are fine
    assert plan.broken == []
    # reality agrees: with every statement of the plan lazy, `import ord.opt` works, and
    # with the __init__ import lazy too it fails
    for patch in plan.lazy_patches:
        Path(patch.path).write_text(patch.new)
    scenario = tmp_path / "s.py"
    scenario.write_text("import ord.opt\nprint('ok')\n")
    assert run_scenario(tmp_path, scenario, lazy=True) == "ok\n"
    (tmp_path / "ord" / "__init__.py").write_text("lazy from .jit import Jit\n")
    assert run_scenario(tmp_path, scenario, lazy=True).startswith("EXC ImportError")


BROKEN_TOP = {  # lazily, `import top` itself fails (DEFAULT = Opt() runs opt before jit)
    "top/__init__.py": "from .jit import Jit\nfrom .opt import Opt\nfrom .m1 import M1\n"
                       "from .m2 import M2\n\nDEFAULT = Opt()\n",
    "top/jit.py": "class Jit:\n    pass\n\nfrom .opt import Opt\n\nDEFAULT = Opt()\n",
    "top/opt.py": "from .jit import Jit\n\nclass Opt(Jit):\n    pass\n",
    "top/m1.py": "from .jit import Jit\n\nclass M1:\n    pass\n",
    "top/m2.py": "class M2:\n    pass\n",
}


def test_a_broken_package_blames_its_own_chain_not_every_submodule(tmp_path):
    """With the whole plan lazy, `import top` fails, and so does every submodule's first import,
    with the package's error: only the package's chain is blamed (the statements that run m1
    and m2 first stay lazy)."""
    write(tmp_path, BROKEN_TOP)
    plan = materialize(lazy_plan([str(tmp_path / "top")], target_version=(3, 15)))
    assert plan.broken == []
    init = {v.line: v for v in plan.statements if v.file.endswith("__init__.py")}
    assert not init[1].lazy_safe or not init[2].lazy_safe
    assert init[3].lazy_safe and init[4].lazy_safe, [init[3].reasons, init[4].reasons]
    for patch in plan.lazy_patches:
        Path(patch.path).write_text(patch.new)
    scenario = tmp_path / "s.py"
    for entry in ("top", "top.m1", "top.m2", "top.jit", "top.opt"):
        scenario.write_text(f"import {entry}\nprint('ok')\n")
        assert run_scenario(tmp_path, scenario, lazy=True) == "ok\n", entry


BARE_ONLY = {  # importing numbers before expr fails; the test module imports expr first
    "bo/__init__.py": "from . import core\n",
    "bo/core/__init__.py": "from .expr import Expr\n\nclass Base(Expr):\n    pass\n",
    "bo/core/expr.py": "class Expr:\n    pass\n\nfrom .mul import Mul\n\nONE = Mul\n",
    "bo/core/mul.py": "from .numbers import Rational\n\nclass Mul(Rational):\n    pass\n",
    "bo/core/numbers.py": "from .expr import Expr\n\nclass Rational(Expr):\n    pass\n",
    "bo/core/tests/__init__.py": "",
    "bo/core/tests/test_ops.py": "from bo.core.expr import Expr\nfrom bo.core.numbers import "
                                 "Rational\n\nHALF = Rational\n",
}


def test_what_the_plan_breaks_in_mode_bare_goes_back_to_eager(tmp_path):
    """The plan is made in mode normal, where bo.core's own import orders everything; with
    bo.core's __init__ not run (bare), the test module's first line orders expr before
    numbers, and lazily nothing would: written, the plan keeps that line eager (IS109)."""
    write(tmp_path, BARE_ONLY)
    entry = ("bo.core.tests.test_ops", "bare")
    got = run_cpython([tmp_path], [entry])[0]
    assert got["outcome"] == "ok", got
    (tmp_path / "bo/core/tests/test_ops.py").write_text(  # line 1 lazy: never read here
        "from bo.core.numbers import Rational\n\nHALF = Rational\n")
    got = run_cpython([tmp_path], [entry])[0]
    assert got["outcome"] == "error" and "Rational" in json.dumps(got), got
    write(tmp_path, BARE_ONLY)
    plan = lazy_plan([str(tmp_path / "bo")], target_version=(3, 15))
    first = next(v for v in plan.statements if v.file.endswith("test_ops.py") and v.line == 1)
    assert first.lazy_safe  # mode normal alone cannot tell
    plan = write_plan(plan)
    assert plan.problem is None and plan.broken == [] and plan.written
    first = next(v for v in plan.statements if v.file.endswith("test_ops.py") and v.line == 1)
    assert not first.lazy_safe and first.reasons[-1].code == "IS109", first.reasons
    assert "(bare)" in first.reasons[-1].message
    text = (tmp_path / "bo/core/tests/test_ops.py").read_text()
    assert text.startswith("from bo.core.expr import Expr\n")


def test_a_filter_is_checked_in_mode_bare_too(tmp_path):
    """--filter changes no source, but makes lazy what the edits would: the same check in
    mode bare keeps the test module's first line out of it."""
    write(tmp_path, BARE_ONLY)
    before = (tmp_path / "bo/core/tests/test_ops.py").read_text()
    plan = write_plan(lazy_plan([str(tmp_path / "bo")], target_version=(3, 15)),
                      str(tmp_path / "lazyfilter.py"), patches=False)
    assert plan.problem is None and plan.filter_written and not plan.written
    text = (tmp_path / "lazyfilter.py").read_text()
    assert "('bo.core.tests.test_ops', 'bo.core.expr', ('Expr',))" not in text
    assert "('bo.core', 'bo.core.expr', ('Expr',))" in text  # the rest of the plan stays
    assert (tmp_path / "bo/core/tests/test_ops.py").read_text() == before


EXTERNAL = {  # lz_hostlib is installed elsewhere: not analysed, its effects come from the table
    "extuser/__init__.py": "from . import plugin\n",
    "extuser/plugin.py": "import lz_hostlib\n\nclass Plugin:\n    pass\n\n"
                         "lz_hostlib.add_plugin('mine', Plugin)\n",
    "site/lz_hostlib.py": "PLUGINS = {}\n\ndef add_plugin(name, cls):\n    PLUGINS[name] = cls\n",
}


def test_effect_table_extension_in_pyproject(tmp_path):
    write(tmp_path, EXTERNAL)
    proc = run_cli("lazy-plan", "extuser", "--format", "json", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    assert all(r["lazy_safe"] for r in doc["imports"])  # an unlisted external call: assumed
    assert doc["assumes"]["extuser.plugin"] == ["lz_hostlib.add_plugin"]
    (tmp_path / "pyproject.toml").write_text(
        '[tool.importsafe.effects]\n"lz_hostlib.add_plugin" = '
        '{ kind = "registry", state = "host plugins" }\n')
    doc = json.loads(run_cli("lazy-plan", "extuser", "--format", "json", cwd=tmp_path).stdout)
    record = next(r for r in doc["imports"] if r["file"] == "extuser/__init__.py")
    assert record["lazy_safe"] is False and record["reasons"][0]["code"] == "IS110"
    assert "host plugins" in record["reasons"][0]["message"]
    (tmp_path / "pyproject.toml").write_text('[tool.importsafe.effects]\n"x.y" = "sometimes"\n')
    bad = run_cli("lazy-plan", "extuser", cwd=tmp_path)
    assert bad.returncode == 2 and "kind 'sometimes'" in bad.stderr


def test_table_rejects_bad_entries():
    assert table({"a.b": "none"}).function("a.b").kind == "none"
    for spec in ("maybe", 3, {"kind": "registry", "keyed": -1}, {"kind": "patch", "x": 1}):
        with pytest.raises(TableError):
            table({"a.b": spec})


def test_bad_input_is_a_usage_error(tmp_path):
    proc = run_cli("lazy-plan", tmp_path / "missing")
    assert proc.returncode == 2 and "does not exist" in proc.stderr
    write(tmp_path, {"brk/__init__.py": "from . import ok\n", "brk/ok.py": "X = 1\n",
                     "brk/bad.py": "def (:\n"})
    (tmp_path / "brk" / "latin.py").write_bytes(b"# -*- coding: latin-1 -*-\nN = '\xe9'\n")
    (tmp_path / "brk" / "binary.py").write_bytes(b"\x00\xff\xfe garbage")
    proc = run_cli("lazy-plan", tmp_path / "brk", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert any(r["module"] == "brk.ok" and r["lazy_safe"] for r in doc["imports"])


def test_rewrites():
    text = '"""Doc."""\nfrom __future__ import annotations\n\n# the imports\nimport a\n' \
           'from b import c  # keep\n'
    assert make_lazy(text, [5, 6]).splitlines()[4:] == ["lazy import a",
                                                         "lazy from b import c  # keep"]
    with pytest.raises(RewriteError):
        make_lazy(text, [3])
    listed = add_lazy_modules(text, ["b"], 6).splitlines()
    assert listed[:3] == ['"""Doc."""', "from __future__ import annotations", ""]
    assert listed[3:6] == ["# the imports", "__lazy_modules__ = ['b']", "import a"] or \
        listed.index("__lazy_modules__ = ['b']") < listed.index("from b import c  # keep")


def test_text_rewrites_match_libcst_on_real_files():
    """The plain-text edits give libcst's output on every import of real files (this
    package's own sources, plus CRLF, shared lines, decorators and strings), and the
    lowering reads the rewritten text back as libcst's does."""
    src = Path(rewrite.__file__).resolve().parents[1]
    texts = [p.read_text() for p in sorted(src.rglob("*.py")) if p.stat().st_size < 6000][:20]
    texts += ['x = 1\r\nimport a\r\n\r\n@d\r\nclass C: pass\r\nimport b\r\n',
              's = """\nimport q\n"""\nimport a; import b\nif s:\n    from c import d\n',
              "import a\n@dec(\n  1)\ndef f(): pass\nfrom b import c\n"]
    compared = 0
    for text in texts:
        tree = ast.parse(text)
        lines = sorted({n.lineno for n in ast.walk(tree)
                        if isinstance(n, (ast.Import, ast.ImportFrom))
                        and n.col_offset == len(text.splitlines()[n.lineno - 1]) -
                        len(text.splitlines()[n.lineno - 1].lstrip())
                        and not any(a.name == "*" for a in n.names)
                        and getattr(n, "module", None) != "__future__"})
        if not lines:
            continue
        lazy = make_lazy(text, lines)
        assert lazy == rewrite._make_lazy_cst(text, lines)
        assert lower(lazy)[:2] == _lower(lazy)[:2] == (text, frozenset(lines))
        for first in (lines[0], lines[-1]):
            assert add_lazy_modules(text, ["m", "a.b"], first) == \
                rewrite._add_lazy_modules_cst(text, ["m", "a.b"], first)
            assert add_lazy_modules(lazy, ["m"], first) == \
                rewrite._add_lazy_modules_cst(lazy, ["m"], first)
        compared += 1
    assert compared >= 15
    with pytest.raises(RewriteError):
        make_lazy("x = 1\nfrom m import *\n", [2])
    assert rewrite.lower_lazy('s = """\nlazy import b\n"""\n') is None  # a string's line


def test_a_file_changed_since_the_plan_is_reported_not_written(tmp_path):
    """The plan's edits are made from the files as they are when it is written: one that no
    longer parses gives a problem and nothing is written (no traceback)."""
    write(tmp_path, {"chg/__init__.py": "from .a import A\n", "chg/a.py": "A = 1\n"})
    plan = lazy_plan([str(tmp_path / "chg")], target_version=(3, 15))
    assert plan.lazy
    (tmp_path / "chg" / "__init__.py").write_text("from .a import (A\n")
    written = write_plan(plan)
    assert written.problem and "__init__.py" in written.problem and not written.written
    assert (tmp_path / "chg" / "__init__.py").read_text() == "from .a import (A\n"
