"""`importsafe fix`: verified edits per kind, a case with no safe edit, the bundled example,
and every failing random package, each checked against real CPython: outcomes after the fix
as predicted, nothing that worked broken, and `import rp` exposing the same public names
except submodules the compat report says it no longer loads."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import randpkg
from importsafe.fix import apply as fixing
from support import outcome_key, run_cpython
from test_cli import EXAMPLE, run_cli
from test_differential import list_modules

FIX_CASES = Path(__file__).resolve().parent / "cases"  # fix_<kind>/{before,after}/
MODES = ("normal", "bare")
KINDS = {"fix_defer": "defer-into-functions", "fix_typecheck": "move-under-TYPE_CHECKING",
         "fix_combined": "defer-and-TYPE_CHECKING",
         # deferring would stop `import mi` loading mi.a, which mi.c reads: verification
         # rejects it, and the module-import form keeps mi.a loaded
         "fix_modimport": "import-module-use-attributes"}


def tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*.py"))}


def all_ok_in_cpython(root: Path, pkg: Path) -> list:
    jobs = [(m, mode) for m in list_modules(pkg) for mode in MODES]
    return [r for r in run_cpython([root], jobs) if r["outcome"] != "ok"]


@pytest.mark.parametrize("case", sorted(KINDS))
def test_each_edit_kind_matches_its_after_tree_and_cpython(case, tmp_path):
    shutil.copytree(FIX_CASES / case / "before", tmp_path, dirs_exist_ok=True)
    (pkg,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    before_failures = all_ok_in_cpython(tmp_path, pkg)
    assert before_failures, "the case must fail before the fix"
    outcome = fixing.fix([str(pkg)], write=True)
    assert outcome.plan.complete and outcome.problem is None
    assert [e.kind for p in outcome.plan.patches for e in p.edits] == [KINDS[case]]
    assert tree(tmp_path) == tree(FIX_CASES / case / "after")
    assert all_ok_in_cpython(tmp_path, pkg) == []


def test_no_safe_edit_is_reported_and_nothing_written(tmp_path):
    shutil.copytree(FIX_CASES / "fix_nosafe" / "before", tmp_path, dirs_exist_ok=True)
    before = tree(tmp_path)
    proc = run_cli("fix", tmp_path / "ns", "--write")
    assert proc.returncode == 1
    assert "no safe edit for" in proc.stdout and "used while the module runs" in proc.stdout
    assert tree(tmp_path) == before


def strict_check_works(root: Path) -> bool:
    """diagnostics.strict_check reads compiler_pkg.verifier without importing it."""
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "import compiler_pkg.diagnostics as d\n"
            "class P:\n    ops = []\n    name = 'p'\n"
            "try:\n    d.strict_check(P())\nexcept AttributeError:\n    print('broken')\n"
            "except Exception:\n    pass\n")
    out = subprocess.run([sys.executable, "-S", "-B", "-c", code, str(root)],
                         capture_output=True, text=True, timeout=60, cwd=str(root))
    return "broken" not in out.stdout


def test_example_fix_write_edits_exactly_the_two_statements(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "compiler_pkg")
    before = tree(tmp_path)
    assert strict_check_works(tmp_path)
    proc = run_cli("fix", tmp_path / "compiler_pkg", "--write")
    # jit <-> optimizer uses names of each other while running: no import edit fixes it
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "still failing: compiler_pkg.optimizer [bare] ImportError" in proc.stdout
    assert "no safe edit for " in proc.stdout and "optimizer.py:2: its names are used while " \
        "the module runs (JitBackend)" in proc.stdout
    # deferring _capture's import of Verifier would stop `import compiler_pkg` loading the
    # verifier, which diagnostics.strict_check reads: held back, and verifier.py edited instead
    assert "capture/_capture.py:7  Verifier: defer into finish(); repairs 1" in proc.stdout
    assert "diagnostics.py:33: compiler_pkg.diagnostics reads compiler_pkg.verifier" in \
        proc.stdout and "1 fix available with --unsafe-fixes" in proc.stdout
    assert "(breaks the cycle compiler_pkg.verifier -> compiler_pkg.capture -> " in proc.stdout
    after = tree(tmp_path)
    changed = sorted(k for k in before if before[k] != after[k])
    assert changed == ["compiler_pkg/program/_program.py", "compiler_pkg/verifier.py"]
    for name, moved in (("compiler_pkg/program/_program.py", "from ..backend_api import Spec"),
                        ("compiler_pkg/verifier.py", "from .capture._config import CaptureConfig")):
        removed = [x for x in before[name].splitlines() if x not in after[name].splitlines()]
        added = [x for x in after[name].splitlines() if x not in before[name].splitlines()]
        assert removed == [moved] and [x.strip() for x in added] == [moved]
    assert "compat: `import compiler_pkg` no longer loads" not in proc.stdout
    assert strict_check_works(tmp_path)
    remaining = [("compiler_pkg.optimizer", "bare")]
    check = run_cli("check", tmp_path / "compiler_pkg", "--format", "json")
    assert check.returncode == 1, check.stdout
    assert [(r["entry"], r["mode"]) for r in json.loads(check.stdout)["results"]
            if r["outcome"] != "ok"] == remaining
    ran = run_cli("run", tmp_path / "compiler_pkg", "--format", "json")
    assert ran.returncode == 1, ran.stdout
    assert [(r["entry"], r["mode"]) for r in json.loads(ran.stdout)["results"]
            if r["outcome"] != "ok"] == remaining
    assert [(r["entry"], r["mode"], r["error"]["module"], r["error"]["name"])
            for r in all_ok_in_cpython(tmp_path, tmp_path / "compiler_pkg")] == [
        ("compiler_pkg.optimizer", "bare", "compiler_pkg.optimizer", "Optimizer")]


def test_example_unsafe_fixes_applies_the_breaking_edit_and_says_so(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "compiler_pkg")
    proc = run_cli("fix", tmp_path / "compiler_pkg", "--write", "--unsafe-fixes")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "_capture.py:7  Verifier: defer into finish()" in proc.stdout
    assert "diagnostics.py:33: compiler_pkg.diagnostics reads " \
        "compiler_pkg.verifier" in proc.stdout
    assert "`import compiler_pkg` no longer loads compiler_pkg.verifier" in proc.stdout
    assert not strict_check_works(tmp_path)  # what the user asked for, and was told


def test_diff_prints_and_changes_nothing(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "compiler_pkg")
    before = tree(tmp_path)
    proc = run_cli("fix", tmp_path / "compiler_pkg", "--diff")
    assert proc.returncode == 1  # jit <-> optimizer is left: no import edit fixes it
    assert proc.stdout.count("+++ b/") == 2 and "+        from ..backend_api import Spec" in \
        proc.stdout
    assert tree(tmp_path) == before


def public_names(root: Path) -> list | None:
    code = ("import sys, json; sys.path.insert(0, sys.argv[1])\n"
            "try:\n    import rp\nexcept BaseException:\n    print('null')\n"
            "else:\n    print(json.dumps(sorted(n for n in dir(rp) if not n.startswith('_'))))")
    out = subprocess.run([sys.executable, "-S", "-B", "-c", code, str(root)],
                         capture_output=True, text=True, timeout=60, cwd=str(root))
    return json.loads(out.stdout or "null")


FIX_N = int(os.environ.get("IMPORTSAFE_FIX_N", "300"))
FIX_CHUNKS = 6  # xdist-sized parts of the seeds, added up in the summary's figure


@pytest.mark.parametrize("chunk", range(FIX_CHUNKS))
def test_fix_write_on_failing_random_packages(tmp_path, tally, chunk):
    seeds = range(chunk, FIX_N, FIX_CHUNKS)
    counts = {"packages": len(seeds), "failing": 0, "fixed": 0, "partly": 0, "none": 0}
    problems = []
    for seed in seeds:
        root = tmp_path / f"seed{seed}"
        pkg = randpkg.write(randpkg.generate(seed), root)
        outcome = fixing.plan([str(pkg)])
        if not any(r.outcome == "error" for r in outcome.plan.before):
            continue
        counts["failing"] += 1
        if not outcome.plan.patches:  # (fix --write would write nothing: no need to run it)
            counts["none"] += 1
            continue
        names_before = public_names(root)
        outcome = fixing.fix([str(pkg)], write=True)
        assert outcome.plan.patches and outcome.written, (seed, outcome.problem)
        counts["fixed" if outcome.plan.complete else "partly"] += 1
        jobs = [(r.entry, r.mode) for r in outcome.plan.after]
        real = {(r["entry"], r["mode"]): outcome_key(r) for r in run_cpython([root], jobs)}
        for b, a in zip(outcome.plan.before, outcome.plan.after):
            got = real[(a.entry, a.mode)]
            predicted = ("ok",) if a.outcome == "ok" else (
                "error", a.error.exception, a.error.module, a.error.name)
            if got != predicted or (b.outcome == "ok" and got != ("ok",)):
                problems.append((seed, a.entry, a.mode, b.outcome, predicted, got))
        names_after = public_names(root)
        announced = {m.rpartition(".")[2] for package, lost in outcome.lost if package == "rp"
                     for m in lost if m.count(".") == 1}  # rp.sub no longer loaded by rp
        if names_before is not None and set(names_before) - announced != \
                set(names_after or ()) - announced:
            problems.append((seed, "public names of rp changed", names_before, names_after))
    counts["problems"] = len(problems)
    tally("fix-random", counts)
    assert not problems, "\n".join(map(str, problems[:10]))


def write_tree(root: Path, files: dict[str, str | bytes]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text)


def test_undecodable_and_too_deep_files_are_left_alone_and_the_rest_fixed(tmp_path):
    deep = "X = 1" + "+1" * 15000 + "\n"  # libcst's native parser overflows its stack on this
    write_tree(tmp_path, {"p/__init__.py": "", "p/bad.py": b'x = "\xff\xfe"\n',
                          "p/a.py": "from .b import B\nA = 1\n" + deep,
                          "p/b.py": "from .a import A\nB = 2\ndef f():\n    return A\n"})
    before = tree_bytes(tmp_path)
    proc = run_cli("fix", tmp_path / "p", "--write")
    assert proc.returncode == 1 and proc.returncode > 0, proc.stderr  # p.bad stays failing
    assert "Traceback" not in proc.stderr
    out = proc.stdout
    assert out.count("bad.py: cannot be read as Python source") == 1
    assert out.count("a.py: the file cannot be parsed: nested more than 1000") == 1
    assert "edit " in out and "b.py:1  A: defer into f()" in out
    after = tree_bytes(tmp_path)
    assert [k for k in before if before[k] != after[k]] == ["p/b.py"]
    # CPython's compiler cannot compile a.py either (RecursionError): it stays failing
    assert "still failing: p.bad [normal]" in out and "still failing: p.b [" not in out


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def test_no_orphan_directive_comment_where_the_import_was(tmp_path):
    write_tree(tmp_path, {"p/__init__.py": "",
                          "p/a.py": "from .b import B\nA = 1\n",
                          "p/b.py": "import os\nfrom .a import A  # noqa: E402\nB = 2\n"
                                    "def f():\n    return A\n"})
    assert fixing.fix([str(tmp_path / "p")], write=True).problem is None
    text = (tmp_path / "p" / "b.py").read_text()
    assert "noqa" not in text and "    from .a import A\n" in text


LIB_AND_TESTS = {
    "p/__init__.py": "", "p/tests/__init__.py": "",
    # lib needs U while it runs: only the test module's import can move
    "p/lib.py": "from .tests.util import U\nL = U + 1\n",
    "p/tests/util.py": "from ..lib import L\nU = 2\ndef g():\n    return L\n",
}


def test_test_modules_are_edited_only_with_include_tests(tmp_path):
    write_tree(tmp_path, LIB_AND_TESTS)
    before = tree_bytes(tmp_path)
    proc = run_cli("fix", tmp_path / "p", "--write")
    assert proc.returncode == 1
    assert tree_bytes(tmp_path) == before
    assert "test edit " in proc.stdout and "util.py:1  L: defer into g()" in proc.stdout
    assert "only a test edit would repair (with --include-tests): p.lib [bare], " \
        "p.lib [normal]" in proc.stdout
    proc = run_cli("fix", tmp_path / "p", "--write", "--include-tests")
    assert proc.returncode == 0, proc.stdout
    after = tree_bytes(tmp_path)
    assert [k for k in before if before[k] != after[k]] == ["p/tests/util.py"]


def test_library_edit_preferred_over_an_equal_test_edit(tmp_path):
    write_tree(tmp_path, {**LIB_AND_TESTS,
                          "p/lib.py": "from .tests.util import U\nL = 1\ndef f():\n"
                                      "    return U\n"})
    before = tree_bytes(tmp_path)
    for extra in ((), ("--include-tests",)):
        write_tree(tmp_path, {k: v for k, v in LIB_AND_TESTS.items() if k != "p/lib.py"})
        (tmp_path / "p" / "lib.py").write_bytes(before["p/lib.py"])
        proc = run_cli("fix", tmp_path / "p", "--write", *extra)
        assert proc.returncode == 0, proc.stdout
        after = tree_bytes(tmp_path)
        assert [k for k in before if before[k] != after[k]] == ["p/lib.py"], extra
