"""PEP 810 lazy imports on the static side: mode `lazy`, the IS108 side-effect warning, the
`lazy` fix, `__lazy_modules__` with the target version from `requires-python`, and the memo
(replayed sub-imports) giving exactly the unmemoised answer in every mode. The outcomes
themselves are checked against the emulation by the fixtures (tests/cases/lazy_*) and the
random differential test."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import importsafe
import randpkg
from importsafe import api
from importsafe.fix import apply as fixing
from importsafe.config.settings import requires_python_floor
from importsafe.report.json import result_dict
from importsafe.static.facts import facts_from_source
from importsafe.static.simulate import simulate
from support import (case_dirs, case_env, case_paths, case_python, case_target, outcome_key,
                     read_expected, run_cpython)


def write(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "importsafe", *map(str, args)],
                          capture_output=True, text=True, timeout=120, cwd=cwd)


SIDE_EFFECTS = {
    "app/__init__.py": "import app.plugins  # registers the plugins\n"
                       "from . import handlers\n"
                       "import json\n"
                       "from .registry import REGISTRY\n"
                       "N = len(REGISTRY)\n",
    "app/registry.py": "REGISTRY = []\n",
    "app/plugins.py": "from app.registry import REGISTRY\nREGISTRY.append('csv')\n",
    "app/handlers.py": "from app.registry import REGISTRY\nREGISTRY.append('h')\n",
    "app/user.py": "import app.handlers as h\n"
                   "class C:\n    def m(self):\n        return h\n",
}


def test_side_effect_imports_warned_only_in_lazy_mode(tmp_path):
    write(tmp_path, SIDE_EFFECTS)
    lazy = importsafe.check([str(tmp_path / "app")], modes=("lazy",))
    found = sorted((Path(d.file).name, d.line, d.code, d.severity) for d in lazy.diagnostics
                   if d.code == "IS108")
    # `app` (import app.plugins) and `handlers` are never read in app/__init__.py; `json` is
    # external (an unused import, linters' business); `h` is read in a method of app/user.py
    assert found == [("__init__.py", 1, "IS108", "warning"),
                     ("__init__.py", 2, "IS108", "warning")]
    assert not lazy.failed  # a warning, not a failure
    normal = importsafe.check([str(tmp_path / "app")], modes=("normal",))
    assert not [d for d in normal.diagnostics if d.code == "IS108"]
    proc = run_cli("check", tmp_path / "app", "--mode", "lazy")
    assert proc.returncode == 0 and "IS108" in proc.stdout and "app.plugins" in proc.stdout


FIXABLE = {
    "p/__init__.py": "",
    "p/a.py": "from p.b import helper\nX = 1\n",
    "p/b.py": "from p.a import X\n\ndef helper():\n    pass\n\nif X:\n    pass\n",
}


def test_fix_offers_lazy_from_only_for_315(tmp_path):
    write(tmp_path, FIXABLE)
    old = fixing.plan([str(tmp_path / "p")], modes=("normal",))
    assert not any(e.kind == "make-lazy" for p in old.plan.patches for e in p.edits)
    new = fixing.plan([str(tmp_path / "p")], modes=("normal",), target_version=(3, 15))
    assert new.plan.complete, new.plan.after
    (patch,) = new.plan.patches
    assert [e.kind for e in patch.edits] == ["make-lazy"]
    assert patch.new.splitlines()[0] == "lazy from p.b import helper"
    # the edited file is what the facts read back as a lazy import
    facts = facts_from_source(patch.new, "p.a", patch.path, False, (3, 15))
    assert facts.body[0].lazy
    proc = run_cli("fix", tmp_path / "p", "--mode", "normal", "--target-version", "3.15",
                   "--write")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "p" / "a.py").read_text().startswith("lazy from p.b import helper")
    check = run_cli("check", tmp_path / "p", "--mode", "normal", "--target-version", "3.15")
    assert check.returncode == 0, check.stdout


@pytest.mark.parametrize("spec, floor", [
    (">=3.9", "3.9"), (">=3.8,<4", "3.8"), ("~=3.10", "3.10"), ("==3.12.*", "3.12"),
    (">=3.9, >=3.15", "3.15"), ("<4", None), (None, None), ("", None)])
def test_requires_python_floor(spec, floor):
    assert requires_python_floor(spec) == floor


LAZY_MODULES = {
    "llm/__init__.py": "",
    "llm/a.py": "__lazy_modules__ = ['llm.b']\nfrom llm.b import B\nA = 1\n",
    "llm/b.py": "from llm.a import A\nclass B:\n    pass\n",
}


def test_target_version_defaults_from_requires_python(tmp_path):
    write(tmp_path, LAZY_MODULES)
    args = ("check", "llm", "--mode", "normal", "--format", "json")

    def failing() -> list:
        proc = run_cli(*args, cwd=tmp_path)
        return sorted(r["entry"] for r in json.loads(proc.stdout)["results"]
                      if r["outcome"] != "ok")

    assert failing() == ["llm.a", "llm.b"]  # no pyproject: 3.11, __lazy_modules__ ignored
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n'
                                             'requires-python = ">=3.15"\n')
    assert failing() == []  # 3.15: `from llm.b import B` is lazy
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n'
                                             'requires-python = ">=3.15"\n'
                                             '[tool.importsafe]\ntarget-version = "3.14"\n')
    assert failing() == ["llm.a", "llm.b"]  # the explicit key wins


def test_mode_lazy_from_config_and_flag(tmp_path):
    write(tmp_path, LAZY_MODULES)
    (tmp_path / "pyproject.toml").write_text('[tool.importsafe]\nmodes = ["lazy"]\n')
    proc = run_cli("check", "llm", "--format", "json", cwd=tmp_path)
    assert {r["mode"] for r in json.loads(proc.stdout)["results"]} == {"lazy"}
    bad = run_cli("check", "llm", "--mode", "lazier", cwd=tmp_path)
    assert bad.returncode == 2 and "normal, bare, lazy" in bad.stderr + bad.stdout


@pytest.mark.parametrize("seed", range(40))
def test_memo_replays_exactly_in_every_mode(seed, tmp_path):
    """The memo of recorded sub-imports (static/state.py) must never change an answer:
    lazy proxies, the submodule registry and re-entrancy are part of what it records."""
    pkg = randpkg.write(randpkg.generate(seed), tmp_path)
    modes = ("normal", "bare", "lazy")
    with_memo = importsafe.check([str(pkg)], modes=modes, jobs=1)
    without = importsafe.check([str(pkg)], modes=modes, jobs=1, memo=False)
    assert [result_dict(r) for r in with_memo.results] == \
        [result_dict(r) for r in without.results]


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_memo_replays_exactly_on_every_fixture(case):
    """So too on every fixture: recorded calls (callreplay.memoised_call) of functions,
    methods, constructors and decorators, and the assumptions they make. (The message of an
    AttributeError on a submodule being loaded is left out: which submodules are loading is
    not part of a recording, lazy_helpers_jax's `jl.cyc`.)"""
    modes = ("normal", "bare", "lazy")
    paths, target = case_paths(case), case_target(case)
    with_memo = importsafe.check(paths, modes=modes, jobs=1, target_version=target,
                                 env=case_env(case))
    without = importsafe.check(paths, modes=modes, jobs=1, memo=False, target_version=target,
                               env=case_env(case))

    def seen(report):
        out = [result_dict(r) for r in report.results]
        for d in out:
            if d.get("error"):
                d["error"].pop("message")
        return out
    assert seen(with_memo) == seen(without)


@pytest.mark.parametrize("case", [c for c in case_dirs() if case_python(c) == sys.executable],
                         ids=lambda p: p.name)
def test_static_lazy_mode_agrees_with_the_emulation_on_every_fixture(case):
    """Mode `lazy` on every fixture (not only the lazy_* ones): the static prediction and the
    PEP 810 emulation (dynamic/lazyemu.py) agree on (outcome, exception, module, name).
    Entries whose expectations say static analysis knowingly differs (`static=ok`: a
    failure from an external module; `static=unknown`) are left out, as in every mode."""
    differs = {e.entry for e in read_expected(case) if e.static is not None}
    report = importsafe.check(case_paths(case), modes=("lazy",), target_version=case_target(case),
                              env=case_env(case))
    jobs = [(r.entry, "lazy") for r in report.results if r.entry not in differs]
    real = {r["entry"]: outcome_key(r) for r in run_cpython([case], jobs,
                                                            variables=case_env(case))}
    got = {r.entry: outcome_key(result_dict(r)) for r in report.results
           if r.entry not in differs}
    assert got == real


def test_memo_records_only_imports_some_module_names(tmp_path):
    """A module that no module imports is only ever imported first, as an entry: recording
    it would make a variant nothing replays. Those that some module names are recorded."""
    write(tmp_path, {"mr/__init__.py": "", "mr/core.py": "X = 1\n",
                     "mr/leaf.py": "from .core import X\n", "mr/other.py": "from . import core\n"})
    pkg = tmp_path / "mr"
    loaded = api.load([str(pkg)], jobs=1)
    program = loaded.program
    assert program.imported == {"mr", "mr.core"}
    with api.deep_recursion():
        for entry in loaded.entries:
            for mode in ("normal", "bare", "lazy"):
                simulate(entry, mode, program)
    recorded = {name.replace("\0lazy ", "") for name in program.memo}
    assert recorded == {"mr", "mr.core"} and program.hits > 0


def _variants(node):
    """Every recorded variant below a node of the memo's trie (static/state.py)."""
    if node.__class__ is tuple:
        yield node
    elif hasattr(node, "children"):
        for child in node.children.values():
            yield from _variants(child)
    else:
        yield from _variants(node.next)


def test_memo_logs_no_external_module_and_not_a_bare_entry_itself(tmp_path):
    """An external module is never in the simulated sys.modules, so its absence is no
    dependency worth checking on every replay; and a bare entry's own import, from a state
    its siblings' bare runs seldom meet again, is run without recording it."""
    write(tmp_path, {"mx/__init__.py": "", "mx/core.py": "import os\nimport json.decoder\nX = 1\n",
                     "mx/leaf.py": "import logging\nfrom .core import X\n",
                     "mx/other.py": "from . import core, leaf\n"})
    loaded = api.load([str(tmp_path / "mx")], jobs=1)
    program = loaded.program
    assert {"mx.core", "mx.leaf"} <= program.imported
    with api.deep_recursion():
        assert simulate("mx.leaf", "bare", program).outcome == "ok"
        assert "mx.leaf" not in program.memo and "mx.core" in program.memo
        for entry in loaded.entries:
            for mode in ("normal", "bare", "lazy"):
                simulate(entry, mode, program)
    assert "mx.leaf" in program.memo  # imported by mx.other: recorded there
    read = {dep[1] for root in program.memo.values() for variant in _variants(root)
            for (dep, _value) in variant[0]}
    assert read and all(name.partition(".")[0] == "mx" for name in read)


def test_memo_does_not_record_a_package_entry_itself(tmp_path):
    """A package entry's own normal-mode import is run without recording it: its submodules'
    normal runs start where it ended (simulate_pairs), so only an importer outside it in that
    very state could replay it. Imported by another module, it is recorded there."""
    write(tmp_path, {"mp/__init__.py": "", "mp/sub/__init__.py": "from .inner import Y\n",
                     "mp/sub/inner.py": "Y = 1\n", "mp/other.py": "from .sub import Y\n"})
    loaded = api.load([str(tmp_path / "mp")], jobs=1)
    program = loaded.program
    assert "mp.sub" in program.imported
    with api.deep_recursion():
        assert simulate("mp.sub", "normal", program).outcome == "ok"
        assert "mp.sub" not in program.memo and "mp.sub.inner" in program.memo
        assert simulate("mp.other", "normal", program).outcome == "ok"
    assert "mp.sub" in program.memo
