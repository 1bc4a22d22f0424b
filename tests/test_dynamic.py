"""`importsafe run` (real imports) and `importsafe check --verify` (static vs real).

- every fixture's outcomes, run for real through importsafe.api.run, equal expected.txt, with
  the fork server (and its zygotes) and with a fresh interpreter per job (--no-fork);
- the fork runner with zygotes equals the probe's plain forks on seeded random packages;
- --verify finds no disagreement on any fixture;
- tests/dynamic_cases/threaded: an import that leaves a thread running;
- tests/dynamic_cases/misbehave: a hang, a segfault, an abort, output, a relative write are
  each reported (timeout / crash / ok), every other entry still reported, nothing leaks into
  the report or the source tree;
- --python with another interpreter (CPython 3.8, when installed).
"""
from __future__ import annotations

import json
import shutil
import os
import subprocess
import sys
from pathlib import Path

import pytest

import randpkg
from importsafe import api
from importsafe.report.json import result_dict
from support import (case_dirs, case_env, case_paths, case_python, case_target, outcome_key,
                     read_expected, run_cpython)

ROOT = Path(__file__).resolve().parents[1]
MISBEHAVE = Path(__file__).resolve().parent / "dynamic_cases" / "misbehave"
PY38 = Path.home() / ".pyenv" / "versions" / "3.8.18" / "bin" / "python"
TIMEOUT = 1.5


def keys(report) -> dict:
    return {(r.entry, r.mode): outcome_key(result_dict(r)) for r in report.results}


NO_FORK_SAMPLE = 2  # entries a case is run with --no-fork on: a failing one first


def modes_of(expected) -> tuple:
    return tuple(dict.fromkeys(e.mode for e in expected))


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_fixture_expectations_hold_for_real(case):
    """Every fixture's expectations against real CPython, so they cannot drift: `importsafe
    run` (forked first imports, and a few of them in fresh interpreters, --no-fork), and
    `check --verify` over the same run finds no disagreement but the known ones."""
    expected = read_expected(case)
    assert expected, f"{case.name}: expected.txt lists nothing"
    modes = modes_of(expected)
    want = {(e.entry, e.mode): e.key for e in expected}
    python = case_python(case)  # a case written in newer syntax names its interpreter
    if python is None:
        pytest.skip(f"{case.name} needs an interpreter that is not installed here")
    paths, env = case_paths(case), case_env(case)
    merged, forked = api.verify(paths, modes=modes, timeout=20, python=python, env=env,
                                target_version=case_target(case))
    assert forked.source == "dynamic" and merged.source == "verify"
    assert [(r.entry, r.mode) for r in forked.results] == \
        [(r.entry, r.mode) for r in merged.results]
    got = keys(forked)
    assert set(got) == set(want)
    wrong = [(k, want[k], got[k]) for k in want if got[k] != want[k]]
    assert not wrong, "expected vs importsafe run:\n" + "\n".join(map(str, wrong))
    # a fresh interpreter per job costs ~0.1 s: each case is compared on a few entries, half
    # of them failing ones where it has them
    failing = sorted({e.entry for e in expected if e.key != ("ok",)})
    passing = sorted({e.entry for e in expected} - set(failing))
    half = NO_FORK_SAMPLE // 2
    sample = failing[::max(1, len(failing) // half)][:half]
    sample += passing[::max(1, len(passing) // (NO_FORK_SAMPLE - len(sample)))][
        :NO_FORK_SAMPLE - len(sample)]
    fresh = keys(api.run(paths, modes=modes, timeout=20, fork=False, python=python, env=env,
                         entries=sample))
    assert fresh == {k: v for k, v in got.items() if k[0] in sample}, "fork vs --no-fork differ"
    # verify: entries whose expectations record that static analysis knowingly differs
    # (static=ok) are its only disagreements
    known = {(e.entry, e.mode) for e in expected if e.static == ("ok",)}
    disagree = [d.message for d in merged.diagnostics
                if d.code == "IS201" and (d.entry, d.mode) not in known]
    assert not disagree, "\n".join(disagree)
    # a real failure on a name the ordinary-order rule took as bound: IS207, not IS201
    assumed = {(e.entry, e.mode) for e in expected if e.static == ("ok",) and
               any(not a.startswith(("object:", "super:", "order:")) for a in e.assumes)}
    assert assumed == {(d.entry, d.mode) for d in merged.diagnostics if d.code == "IS207"}
    static_unknown = sum(r.outcome == "unknown" for r in merged.results)
    assert sum(d.code == "IS202" for d in merged.diagnostics) <= static_unknown


def test_error_chain_points_at_the_import_lines():
    report = api.run([str(ROOT / "examples" / "compiler_pkg")], modes=("bare",))
    err = report.result("compiler_pkg.backend_api", "bare").error
    assert [(Path(f.file).name, f.line) for f in err.chain] == \
        [("backend_api.py", 7), ("__init__.py", 2), ("_program.py", 8)]
    assert {d.code for d in report.diagnostics} == {"IS101"}


def test_zygotes_agree_with_plain_forks_on_random_packages(tmp_path):
    """Nested zygotes (normal mode) against the probe's one-fork-per-job batch mode."""
    compared = 0
    for seed in range(25):
        root = tmp_path / f"seed{seed}"
        pkg = randpkg.write(randpkg.generate(seed), root)
        report = api.run([str(pkg)], timeout=20)
        reference = run_cpython([root], [(r.entry, r.mode) for r in report.results])
        want = {(r["entry"], r["mode"]): outcome_key(r) for r in reference}
        got = keys(report)
        assert got == want, f"seed {seed}: " + str(
            [(k, want[k], got[k]) for k in want if got[k] != want[k]])
        compared += len(got)
    assert compared > 250


def test_verify_reports_a_disagreement(tmp_path):
    """A dynamic outcome the static side did not predict is an IS201 error."""
    pkg = tmp_path / "vpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("X = 1\n")
    static = api.check([str(pkg)])
    dynamic = api.run([str(pkg)])
    (pkg / "a.py").write_text("from . import b\nX = 1\n")
    (pkg / "b.py").write_text("from .a import X\n")
    changed = api.run([str(pkg)], timeout=20)
    assert not api.compare(static, dynamic)
    found = api.compare(static, changed)
    assert {(d.code, d.entry) for d in found} == {("IS201", "vpkg.a")}
    assert "static: ok; dynamic: ImportError(module=vpkg.a, name=X)" in found[0].message


def test_cli_verify_on_the_example():
    cmd = [sys.executable, "-m", "importsafe", "check", "--verify",
           str(ROOT / "examples" / "compiler_pkg")]
    text = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert text.returncode == 1, text.stderr  # the example's bare failures are real
    assert "verify: 0 disagreements" in text.stdout
    doc = subprocess.run(cmd + ["--format", "json"], capture_output=True, text=True, cwd=ROOT,
                         timeout=120)
    data = json.loads(doc.stdout)
    assert data["source"] == "verify"
    assert not [d for d in data["diagnostics"] if d["code"] == "IS201"]


def _tree(path: Path) -> list[str]:
    return sorted(str(p.relative_to(path)) for p in path.rglob("*"))


@pytest.mark.parametrize("fork", [True, False], ids=["fork", "no-fork"])
def test_misbehaving_imports_are_contained(tmp_path, capfd, fork):
    src = tmp_path / "src"
    shutil.copytree(MISBEHAVE, src)
    before = _tree(src)
    report = api.run([str(src)], timeout=TIMEOUT, jobs=4, fork=fork, capture=True)
    outcomes = {(r.entry, r.mode): (r.outcome, r.reason) for r in report.results}
    entries = ["misbehave", "misbehave.abort", "misbehave.fine", "misbehave.hang",
               "misbehave.noisy", "misbehave.segv", "misbehave.writer"]
    assert sorted(outcomes) == sorted((e, m) for e in entries for m in ("normal", "bare"))
    for mode in ("normal", "bare"):
        assert outcomes[("misbehave.hang", mode)][0] == "timeout"
        assert outcomes[("misbehave.segv", mode)] == ("crash", "killed by signal 11 (SIGSEGV)")
        assert outcomes[("misbehave.abort", mode)] == ("crash", "killed by signal 6 (SIGABRT)")
        for ok in ("misbehave", "misbehave.fine", "misbehave.noisy", "misbehave.writer"):
            assert outcomes[(ok, mode)] == ("ok", None), ok
        noisy = report.output("misbehave.noisy", mode)
        assert "NOISY-STDOUT-MARKER" in noisy and "NOISY-STDERR-MARKER" in noisy
        assert "Segmentation fault" in report.output("misbehave.segv", mode)  # faulthandler
        cwd = report.output("misbehave.writer", mode).strip().partition("CWD=")[2]
        assert "importsafe-run-" in cwd and not cwd.startswith(str(src))
    assert report.failed
    assert {d.code for d in report.diagnostics} == {"IS204", "IS205"}
    leaked = capfd.readouterr()
    assert "MARKER" not in leaked.out + leaked.err
    assert _tree(src) == before  # no written.txt, no __pycache__
    assert not Path("written.txt").exists()


def test_import_that_leaves_a_thread_running():
    """No zygote forks from a process with threads; a fresh interpreter does not wait for
    them at exit. Both runners agree, well within the timeout."""
    case = str(MISBEHAVE.parent / "threaded")
    forked, fresh = (api.run([case], timeout=5, fork=f) for f in (True, False))
    assert keys(forked) == keys(fresh) == {
        ("threadpkg", "normal"): ("ok",), ("threadpkg", "bare"): ("ok",),
        ("threadpkg.leaf", "normal"): ("ok",),
        ("threadpkg.leaf", "bare"): ("error", "ImportError", "threadpkg", "VALUE"),
        ("threadpkg.sub", "normal"): ("ok",),
        ("threadpkg.sub", "bare"): ("error", "ImportError", "threadpkg", "VALUE")}


def test_cli_run_reports_every_entry_and_shows_output():
    cmd = [sys.executable, "-m", "importsafe", "run", str(MISBEHAVE), "--timeout", str(TIMEOUT),
           "-j", "4", "--mode", "normal"]
    proc = subprocess.run(cmd + ["--format", "json", "--show-output"], capture_output=True,
                          text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert "MARKER" not in proc.stderr
    data = json.loads(proc.stdout)  # nothing the imports printed got mixed in
    assert data["source"] == "dynamic"
    by_entry = {r["entry"]: r for r in data["results"]}
    assert len(by_entry) == 7
    assert by_entry["misbehave.hang"]["outcome"] == "timeout"
    assert by_entry["misbehave.segv"]["outcome"] == "crash"
    assert "Segmentation fault" in by_entry["misbehave.segv"]["output"]
    assert "output" not in by_entry["misbehave.noisy"]  # shown for failures only
    text = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert text.returncode == 1
    assert "killed by signal 11 (SIGSEGV)" in text.stdout and "MARKER" not in text.stdout
    assert "1 timeout, 2 crash" in text.stdout


def test_cli_run_usage_errors(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "importsafe", "run", *args],
                              capture_output=True, text=True, cwd=ROOT, timeout=60)
    example = str(ROOT / "examples" / "compiler_pkg")
    assert run(str(tmp_path / "missing")).returncode == 2
    proc = run(example, "--python", str(tmp_path / "nopython"))
    assert proc.returncode == 2 and "not found" in proc.stderr
    assert run(example, "--mode", "sideways").returncode == 2
    assert run(example, "--timeout", "0").returncode == 2
    assert run(example, "--mode", "normal").returncode == 0


@pytest.mark.skipif(not PY38.exists(), reason="CPython 3.8 not installed under ~/.pyenv")
@pytest.mark.parametrize("fork", [True, False], ids=["fork", "no-fork"])
def test_other_interpreter(fork):
    case = ROOT / "examples"
    expected = {(e.entry, e.mode): e.key for e in read_expected(case)}
    modes = tuple(dict.fromkeys(m for _, m in expected))  # lazy too: emulated on 3.8
    report = api.run([str(case / "compiler_pkg")], modes=modes, python=str(PY38), fork=fork,
                     timeout=20)
    assert keys(report) == expected


def test_cli_run_entries_file_restricts_the_entries(tmp_path):
    listing = tmp_path / "entries.txt"
    listing.write_text("# two of the example's entries\ncompiler_pkg.backend_api\ncompiler_pkg.ir\n")
    proc = subprocess.run([sys.executable, "-m", "importsafe", "run",
                           str(ROOT / "examples" / "compiler_pkg"), "--entries", str(listing),
                           "--format", "json"], capture_output=True, text=True, timeout=120)
    doc = json.loads(proc.stdout)
    assert {r["entry"] for r in doc["results"]} == {"compiler_pkg.backend_api", "compiler_pkg.ir"}
    assert proc.returncode == 1  # backend_api fails in bare mode
    listing.write_text("compiler_pkg.nope\n")
    proc = subprocess.run([sys.executable, "-m", "importsafe", "run",
                           str(ROOT / "examples" / "compiler_pkg"), "--entries", str(listing)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2


def test_python_given_as_a_relative_path(tmp_path):
    """--python venv/bin/python (relative to the current directory) works although the
    probes run in a temporary directory."""
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    os.symlink(sys.executable, tmp_path / "venv" / "bin" / "python")
    proc = subprocess.run([sys.executable, "-m", "importsafe", "run",
                           str(ROOT / "examples" / "compiler_pkg"), "--mode", "normal",
                           "--python", os.path.join("venv", "bin", "python")],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def _externals_case(tmp_path: Path, monkeypatch) -> tuple[Path, Path]:
    """A package whose modules import an external dependency at module level; the
    dependency counts its imports in a file, prints, and another one imports the package."""
    ext, root, log = tmp_path / "ext", tmp_path / "src", tmp_path / "imports.log"
    for path, text in {
        ext / "extdep.py": "import os\nprint('extdep speaks')\n"
                           "with open(os.environ['EXTDEP_LOG'], 'a') as f:\n"
                           "    f.write('imported\\n')\nVALUE = 1\n",
        ext / "backref.py": "import xpkg.a  # an external that imports the analysed package\n",
        root / "xpkg" / "__init__.py": "",
        root / "xpkg" / "a.py": "import extdep\nfrom xpkg import b\nA = extdep.VALUE\n",
        root / "xpkg" / "b.py": "import extdep\nfrom xpkg.a import A  # a cycle\n",
        root / "xpkg" / "c.py": "import extdep\nimport backref\n",
    }.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    monkeypatch.setenv("PYTHONPATH", str(ext))
    monkeypatch.setenv("EXTDEP_LOG", str(log))
    return root / "xpkg", log


def test_external_dependencies_are_imported_once_per_server(tmp_path, monkeypatch):
    pkg, log = _externals_case(tmp_path, monkeypatch)
    (pkg / "c.py").write_text("import extdep\n")  # no back-reference: pre-import allowed
    fork = api.run([str(pkg)], modes=("normal", "bare"), jobs=1)
    # twice per server: a throwaway trial (does it start a thread?), then the zygote itself
    assert log.read_text().count("imported") == 2
    log.unlink()
    fresh = api.run([str(pkg)], modes=("normal", "bare"), jobs=1, fork=False)
    assert log.read_text().count("imported") >= 6  # once per fresh interpreter
    assert keys(fork) == keys(fresh)


def test_an_external_that_imports_the_package_is_not_pre_imported(tmp_path, monkeypatch):
    pkg, log = _externals_case(tmp_path, monkeypatch)
    fork = api.run([str(pkg)], modes=("normal", "bare"), jobs=1)
    fresh = api.run([str(pkg)], modes=("normal", "bare"), jobs=1, fork=False)
    assert keys(fork) == keys(fresh)  # no "already loaded" crash: the zygote was refused
    assert all(r.outcome in ("ok", "error") for r in fork.results)


def test_an_external_that_starts_a_thread_is_left_out_not_the_others(tmp_path, monkeypatch):
    pkg, log = _externals_case(tmp_path, monkeypatch)
    ext = Path(os.environ["PYTHONPATH"])
    (ext / "threaded.py").write_text("import threading, time\n"
                                     "threading.Thread(target=time.sleep, args=(60,),"
                                     " daemon=True).start()\n")
    (pkg / "c.py").write_text("import extdep\nimport threaded\n")
    fork = api.run([str(pkg)], modes=("normal", "bare"), jobs=1)
    assert log.read_text().count("imported") == 2  # extdep still pre-imported once
    fresh = api.run([str(pkg)], modes=("normal", "bare"), jobs=1, fork=False)
    assert keys(fork) == keys(fresh)


def test_a_static_failure_past_a_missing_external_is_an_external_assumption(tmp_path):
    """The real import stops at a dependency that is not installed; the static side, which
    assumes it imports, fails later in the same module: IS203 (cannot be checked here), not
    a disagreement. A static failure before that import, which the real run would have hit
    first, stays a disagreement."""
    from importsafe.dynamic.verify import compare, went_past
    from importsafe.model import ErrorInfo, Frame, Report, Result
    pkg = tmp_path / "xp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import core\n__version__ = '1'\n")
    (pkg / "core.py").write_text("X = 1\n")
    (pkg / "tool.py").write_text("import not_installed_dependency_x\n"
                                 "from xp import __version__\n")
    static = api.check([str(pkg)])
    dynamic = api.run([str(pkg)], timeout=20)
    predicted, real = static.result("xp.tool", "bare"), dynamic.result("xp.tool", "bare")
    assert predicted.error.chain[-1].line == 2 and real.error.chain[-1].line == 1
    found = {(d.entry, d.mode): d for d in api.compare(static, dynamic)}
    assert found[("xp.tool", "bare")].code == "IS203"
    assert "cannot be checked" in found[("xp.tool", "bare")].message
    assert found[("xp.tool", "normal")].code == "IS203"  # static ok there: as before
    # had the static side failed at line 1 of a module imported before, it would disagree
    path = str(pkg / "tool.py")
    earlier = Result("xp.tool", "bare", "error", ErrorInfo(
        "ImportError", "xp", "X", "cannot import name 'X'", (Frame("xp.tool", path, 1),
                                                             Frame("xp.core", "c.py", 3))))
    assert not went_past(earlier, real)
    wrong = compare(Report((earlier,), (), "static", static.roots), dynamic)
    assert [d.code for d in wrong] == ["IS201"]


def _bare_both_ways(pkg, entry: str):
    """(the static bare result of `entry`, the real one, the comparison's code for it)."""
    static = api.check([str(pkg)])
    dynamic = api.run([str(pkg)], timeout=20)
    found = {(d.entry, d.mode): d.code for d in api.compare(static, dynamic)}
    return static.result(entry, "bare"), dynamic.result(entry, "bare"), found.get((entry, "bare"))


def test_a_static_failure_in_a_later_module_of_one_statement_is_past_the_real_one(tmp_path):
    """`from . import a, b` imports a, then b. The real run stops in `a` at a dependency that
    is not installed; the static run, which assumes it imports, fails later, in `b`: the
    prediction cannot be checked here (IS203, pydantic.dataclasses in bare mode). Failing in
    a module named before the real one would have been hit first: a disagreement."""
    from importsafe.dynamic.verify import went_past
    from importsafe.model import ErrorInfo, Frame, Result
    pkg = tmp_path / "yp"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("import not_installed_dependency_y\n")
    (pkg / "b.py").write_text("from yp import missing_name\n")
    (pkg / "c.py").write_text("X = 1\n")
    (pkg / "entry.py").write_text("from . import c, a, b\n")
    predicted, real, code = _bare_both_ways(pkg, "yp.entry")
    assert [f.module for f in predicted.error.chain] == ["yp.entry", "yp.b"]
    assert [f.module for f in real.error.chain] == ["yp.entry", "yp.a"]
    assert went_past(predicted, real)
    assert code == "IS203"
    entry = Frame("yp.entry", predicted.error.chain[0].file, 1)
    before = Result("yp.entry", "bare", "error", ErrorInfo(
        "ImportError", "yp", "X", "cannot import name 'X'",
        (entry, Frame("yp.c", str(pkg / "c.py"), 1))))
    assert not went_past(before, real)  # c is imported before a: the real run passed it
    # `from yp.sub.mod import x` runs yp.sub's __init__ first: the real run failed there,
    # the static one got into yp.sub.mod (kombu.utils, in bare mode)
    sub = pkg / "sub"
    sub.mkdir()
    (sub / "__init__.py").write_text("import not_installed_dependency_y\n")
    (sub / "mod.py").write_text("from yp import missing_name\n")
    (pkg / "deep.py").write_text("from yp.sub.mod import x\n")
    predicted, real, code = _bare_both_ways(pkg, "yp.deep")
    assert [f.module for f in predicted.error.chain] == ["yp.deep", "yp.sub.mod"]
    assert [f.module for f in real.error.chain] == ["yp.deep", "yp.sub"]
    assert code == "IS203"


def test_a_failure_of_run_time_values_is_not_a_disagreement(tmp_path):
    """A real import that raises an exception the import system does not raise (a settings
    check, as Django's ImproperlyConfigured) fails on values static analysis does not
    evaluate: IS206 (info), not IS201. An import-system failure the static side missed stays
    IS201."""
    pkg = tmp_path / "rv"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "settings.py").write_text(
        "import os\n\nclass ImproperlyConfigured(Exception):\n    pass\n\n"
        "def setting(name):\n    try:\n        return os.environ[name]\n"
        "    except KeyError:\n        raise ImproperlyConfigured(name) from None\n\n"
        "DEBUG = setting('IMPORTSAFE_TEST_SURELY_UNSET')\n")
    (pkg / "native.py").write_text(  # a library loader raising ImportError itself
        "def load():\n    raise ImportError('Could not find the FOO library')\n\n"
        "LIB = load()\n")
    static = api.check([str(pkg)])
    assert static.result("rv.settings", "normal").outcome == "ok"
    dynamic = api.run([str(pkg)], timeout=20)
    assert dynamic.result("rv.settings", "normal").error.exception == "ImproperlyConfigured"
    found = {(d.entry, d.mode): d.code for d in api.compare(static, dynamic)}
    assert found == {(m, mode): "IS206" for m in ("rv.settings", "rv.native")
                     for mode in ("normal", "bare")}
    from importsafe.dynamic.verify import run_time_failure
    from importsafe.model import ErrorInfo, Result
    symbol = Result("rv.osx", "normal", "error", ErrorInfo(
        "AttributeError", None, "objc_getClass", "undefined symbol: objc_getClass", ()))
    of_module = Result("rv.osx", "normal", "error", ErrorInfo(
        "AttributeError", "rv", "X", "module 'rv' has no attribute 'X'", ()))
    assert run_time_failure(symbol) and not run_time_failure(of_module)


def test_a_file_that_does_not_compile_agrees_whatever_the_subclass():
    """CPython's SyntaxError (or IndentationError) names no module; the static side's names
    the file's module: the same outcome."""
    from importsafe.dynamic.verify import compare
    from importsafe.model import ErrorInfo, Report, Result
    static = Result("sx.m", "bare", "error", ErrorInfo("SyntaxError", "sx.m", None,
                                                       "cannot parse: invalid syntax", ()))
    real = Result("sx.m", "bare", "error", ErrorInfo("IndentationError", None, None,
                                                     "unexpected indent", ()))
    assert compare(Report((static,), (), "static", ()), Report((real,), (), "dynamic", ())) == ()


def test_a_syntax_error_against_another_outcome_is_reported_not_a_crash():
    """torch's py312_intrinsics.py: static `unknown`, CPython a SyntaxError (a 2-part outcome
    key): the diagnostic names it (verify used to raise IndexError there)."""
    from importsafe.dynamic.verify import compare
    from importsafe.model import ErrorInfo, Report, Result
    static = Result("sx.m", "normal", "unknown", reason="may bind 'x' dynamically")
    real = Result("sx.m", "normal", "error", ErrorInfo("SyntaxError", None, None,
                                                       "expected '('", ()))
    found = compare(Report((static,), (), "static", ()), Report((real,), (), "dynamic", ()))
    assert len(found) == 1 and "dynamic: SyntaxError" in found[0].message
    ok = Result("sx.m", "normal", "ok")
    found = compare(Report((ok,), (), "static", ()), Report((real,), (), "dynamic", ()))
    assert len(found) == 1 and "dynamic: SyntaxError" in found[0].message


def test_an_optional_dependency_reraised_in_own_words_is_an_external_assumption(tmp_path):
    """`except ModuleNotFoundError: raise ModuleNotFoundError("... requires X") from e`
    (bokeh's _geo_feature): the static side assumes X imports and says ok; the real failure
    is the missing dependency, IS203, not a disagreement. The same raise over an import of
    the analysed code itself stays a disagreement."""
    pkg = tmp_path / "op"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "geo.py").write_text(
        "try:\n    import not_installed_dependency_y.crs as ccrs\n"
        "except ModuleNotFoundError as e:\n"
        "    raise ModuleNotFoundError('op.geo requires the optional dependency Y') from e\n")
    (pkg / "own.py").write_text(
        "try:\n    from . import missing_own\n"
        "except ImportError as e:\n    raise ImportError('op.own needs op.missing_own') from e\n")
    static = api.check([str(pkg)])
    dynamic = api.run([str(pkg)], timeout=20)
    assert dynamic.result("op.geo", "normal").outcome == "error"
    found = {(d.entry, d.mode): d.code for d in api.compare(static, dynamic)}
    assert found[("op.geo", "normal")] == "IS203"
    assert static.result("op.own", "normal").outcome == "error"
    assert found.get(("op.own", "normal")) != "IS203"


def test_a_module_the_interpreter_imports_at_startup_is_no_disagreement(tmp_path):
    """An entry imported while the interpreter starts (here by sitecustomize, in a venv by a
    `.pth` file) cannot be imported first: IS208, not IS201, whatever static analysis says."""
    src = tmp_path / "src"
    (src / "early").mkdir(parents=True)
    (src / "early" / "__init__.py").write_text("VALUE = 1\n")
    (src / "early" / "late.py").write_text("from . import VALUE\n")
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(f"import sys\nsys.path.insert(0, {str(src)!r})\n"
                                           "import early\n")
    merged, dynamic = api.verify([str(src / "early")], modes=("normal",),
                                 env={"PYTHONPATH": str(site)})
    assert dynamic.result("early", "normal").outcome == "crash"
    assert "already loaded before the entry" in dynamic.result("early", "normal").reason
    assert {(d.entry, d.code) for d in merged.diagnostics if d.code.startswith("IS2")} == \
        {("early", "IS208"), ("early.late", "IS208")}
