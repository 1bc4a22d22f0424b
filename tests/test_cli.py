"""The command line a new user runs: outputs, exit codes, bad input, configuration."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import importsafe

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "compiler_pkg"


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "importsafe", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd or ROOT, timeout=120)


def write(root: Path, files: dict) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return root


def test_example_text_shows_the_failing_chain():
    proc = run_cli("check", EXAMPLE)
    assert proc.returncode == 1, proc.stderr
    out = proc.stdout
    assert "compiler_pkg.backend_api  [bare]" in out
    assert "cannot import name 'Spec' from partially initialized module" in out
    assert "program/_program.py:" in out and "from ..backend_api import Spec" in out
    assert "'Spec' is bound at" in out
    assert "Traceback" not in proc.stderr


def test_example_json_has_one_result_per_entry_and_mode():
    proc = run_cli("check", EXAMPLE, "--format", "json")
    assert proc.returncode == 1
    doc = json.loads(proc.stdout)
    assert doc["schema"] == 1 and doc["source"] == "static"
    pairs = {(r["entry"], r["mode"]) for r in doc["results"]}
    modules = {str(p.relative_to(EXAMPLE.parent)).replace("/__init__.py", "")
               .removesuffix(".py").replace("/", ".") for p in EXAMPLE.rglob("*.py")}
    assert pairs == {(m, mode) for m in modules for mode in ("normal", "bare")}
    failing = [r for r in doc["results"] if r["outcome"] == "error"]
    assert {(r["entry"], r["mode"]) for r in failing} == {
        ("compiler_pkg.backend_api", "bare"), ("compiler_pkg.verifier", "bare"),
        ("compiler_pkg.jit", "bare"), ("compiler_pkg.optimizer", "bare")}
    err = next(r for r in failing if r["entry"] == "compiler_pkg.backend_api")["error"]
    assert (err["exception"], err["module"], err["name"]) == (
        "ImportError", "compiler_pkg.backend_api", "Spec")
    assert [f["module"] for f in err["chain"]] == [
        "compiler_pkg.backend_api", "compiler_pkg.program", "compiler_pkg.program._program"]
    assert all(isinstance(f["line"], int) and f["file"].endswith(".py") for f in err["chain"])
    for d in doc["diagnostics"]:
        assert set(d) >= {"code", "name", "severity", "file", "line", "message"}


def test_example_lazy_mode_removes_two_failures_and_keeps_jit_optimizer():
    """PEP 810 lazy mode: the two cycles that need names only later stop failing; the cycle
    whose names are used while the modules run (jit <-> optimizer) still fails, at the use
    site, with the `lazy` declaration on the chain."""
    proc = run_cli("check", EXAMPLE, "--mode", "lazy", "--format", "json")
    assert proc.returncode == 1, proc.stdout
    doc = json.loads(proc.stdout)
    failing = [r for r in doc["results"] if r["outcome"] != "ok"]
    assert [(r["entry"], r["mode"]) for r in failing] == [("compiler_pkg.optimizer", "lazy")]
    err = failing[0]["error"]
    assert (err["exception"], err["module"], err["name"]) == (
        "ImportError", "compiler_pkg.optimizer", "Optimizer")
    steps = [(f["module"], Path(f["file"]).name, f["line"]) for f in err["chain"]]
    assert steps == [("compiler_pkg.optimizer", "optimizer.py", 5),  # class ...(JitBackend)
                     ("compiler_pkg.optimizer", "optimizer.py", 2),  # from .jit import ...
                     ("compiler_pkg.jit", "jit.py", 22),  # DEFAULT_OPTIMIZER = Optimizer()
                     ("compiler_pkg.jit", "jit.py", 20)]  # from .optimizer import Optimizer


def test_clean_package_exits_zero(tmp_path):
    write(tmp_path, {"ok/__init__.py": "from . import a\n", "ok/a.py": "from . import b\nX = 1\n",
                     "ok/b.py": "import ok.a\ndef f():\n    return ok.a.X\n"})
    proc = run_cli("check", tmp_path / "ok", "--mode", "normal,bare")
    assert proc.returncode == 0, proc.stdout
    assert "0 failing" in proc.stdout


@pytest.mark.parametrize("args, message", [
    (["check", "no/such/path"], "path does not exist"),
    (["check", "EMPTY"], "no Python modules"),
    (["check", "examples/compiler_pkg", "--mode", "sideways"], "unknown mode"),
    (["check", "examples/compiler_pkg", "--format", "xml"], "Invalid value"),
])
def test_usage_and_input_errors_exit_two(tmp_path, args, message):
    (tmp_path / "empty").mkdir()
    args = [str(tmp_path / "empty") if a == "EMPTY" else a for a in args]
    proc = run_cli(*args)
    assert proc.returncode == 2
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr


def test_bad_files_are_diagnosed_and_the_rest_analysed(tmp_path):
    write(tmp_path, {
        "pk/__init__.py": "",
        "pk/broken_syntax.py": "X = (\n",
        "pk/bad_cookie.py": "# -*- coding: no-such-codec -*-\nX = 1\n",
        "pk/not_utf8.py": b"X = '\xff\xfe'\n",
        "pk/good.py": "from . import other\nY = other.Z\n",
        "pk/other.py": "Z = 1\n",
        "pk/sub/__init__.py": "",
    })
    os.symlink("..", tmp_path / "pk" / "sub" / "loop")
    os.symlink("missing_target.py", tmp_path / "pk" / "dangling.py")
    (tmp_path / "pk" / "data" / "deep").mkdir(parents=True)  # no Python: not a namespace
    os.symlink("..", tmp_path / "pk" / "data" / "deep" / "up")  # a loop it must not follow
    report = importsafe.check([tmp_path / "pk"])
    assert not [r for r in report.results if r.entry.startswith("pk.data")]
    codes = {(Path(d.file).name, d.code) for d in report.diagnostics}
    assert ("broken_syntax.py", "IS001") in codes
    assert ("bad_cookie.py", "IS001") in codes
    assert ("not_utf8.py", "IS001") in codes
    assert ("loop", "IS003") in codes
    assert ("dangling.py", "IS003") in codes
    assert report.result("pk.good", "bare").outcome == "ok"
    assert report.result("pk.broken_syntax", "normal").error.exception == "SyntaxError"
    assert report.result("pk.dangling", "normal") is None  # no module: CPython finds none
    proc = run_cli("check", tmp_path / "pk")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr


def test_never_runs_user_code(tmp_path):
    marker = tmp_path / "ran.txt"
    write(tmp_path, {"evil/__init__.py": f"open({str(marker)!r}, 'w').write('x')\n"
                                         "raise SystemExit(3)\n"})
    report = importsafe.check([tmp_path / "evil"])
    assert report.result("evil", "normal").error.exception == "SystemExit"  # as CPython
    assert not marker.exists()


def test_deeply_nested_expressions_do_not_break_the_walker(tmp_path):
    # deep enough to exhaust a recursive Python visitor, shallow enough for CPython's parser
    depth = 900
    body = "X = " + " + ".join(["(1, [2, {3: name}])"] * depth) + "\n"
    body = "name = 1\n" + body + "Y = " + "[" * 150 + "]" * 150 + "\n"
    compile(body, "big.py", "exec")
    write(tmp_path, {"deep/__init__.py": "from .big import X\n", "deep/big.py": body})
    report = importsafe.check([tmp_path / "deep"])
    assert {r.outcome for r in report.results} == {"ok"}
    proc = run_cli("check", tmp_path / "deep")
    assert proc.returncode == 0 and "Traceback" not in proc.stderr


def test_long_source_lines_are_shortened_in_text_output(tmp_path):
    long_tail = " + ".join(["1"] * 200)
    write(tmp_path, {"lp/__init__.py": "from . import a\n",
                     "lp/a.py": "from . import b\nX = 1\n",
                     "lp/b.py": f"from .a import X  # {long_tail}\n"})
    proc = run_cli("check", tmp_path / "lp")
    assert proc.returncode == 1
    assert max(len(line) for line in proc.stdout.splitlines()) < 400


def test_namespace_root_with_explicit_source_root(tmp_path):
    write(tmp_path, {"ns/sub/__init__.py": "",
                     "ns/sub/a.py": "from ns.sub.b import B\nA = 1\n",
                     "ns/sub/b.py": "from ns.sub.a import A\nB = 2\n"})
    proc = run_cli("check", "ns/sub", "--source-root", ".", "--format", "json", cwd=tmp_path)
    doc = json.loads(proc.stdout)
    got = {(r["entry"], r["mode"]): r["outcome"] for r in doc["results"]}
    assert got[("ns.sub.b", "bare")] == "error"
    assert got[("ns.sub", "normal")] == "ok"
    assert all(e.startswith("ns.sub") for e, _ in got)


def test_pyproject_configuration_and_unknown_keys(tmp_path):
    write(tmp_path, {"src/app/__init__.py": "from . import a\n", "src/app/a.py": "X = 1\n",
                     "pyproject.toml": "[tool.importsafe]\npaths = ['src/app']\n"
                                       "modes = ['bare']\n"})
    proc = run_cli("check", "--format", "json", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert {r["mode"] for r in json.loads(proc.stdout)["results"]} == {"bare"}
    (tmp_path / "pyproject.toml").write_text("[tool.importsafe]\nsource_root = 'x'\n")
    proc = run_cli("check", "src/app", cwd=tmp_path)
    assert proc.returncode == 2 and "unknown key(s)" in proc.stderr and "source_root" in proc.stderr


def test_api_returns_frozen_values():
    report = importsafe.check([str(EXAMPLE)], modes=("bare",))
    result = report.result("compiler_pkg.backend_api", "bare")
    with pytest.raises(AttributeError):
        result.outcome = "ok"
    assert isinstance(result.error.chain, tuple)
    assert report.failed


def test_check_hands_what_it_loaded_to_keep():
    """The command line passes a list it never frees (main ends with os._exit): the check's
    facts and memo are then not freed object by object on return."""
    kept: list = []
    report = importsafe.check([str(EXAMPLE)], modes=("bare",), keep=kept)
    [loaded] = kept
    assert report.failed and "compiler_pkg.backend_api" in loaded.program.facts


def test_no_arguments_checks_the_project_layout(tmp_path):
    write(tmp_path, {"src/app/__init__.py": "from . import a\n", "src/app/a.py": "X = 1\n"})
    proc = subprocess.run([sys.executable, "-m", "importsafe"], capture_output=True, text=True,
                          cwd=tmp_path, timeout=120)
    assert proc.returncode == 0 and "2 entries x modes normal,bare" in proc.stdout
    (tmp_path / "elsewhere").mkdir()
    proc = run_cli(cwd=tmp_path / "elsewhere")
    assert proc.returncode == 2 and "[tool.importsafe] paths" in proc.stderr


def test_example_text_says_what_lazy_mode_removes_and_what_remains():
    proc = run_cli("check", EXAMPLE, "--mode", "normal,bare,lazy")
    assert proc.returncode == 1
    assert ("lazy imports (PEP 810) remove 3: compiler_pkg.backend_api [bare], "
            "compiler_pkg.jit [bare], compiler_pkg.verifier [bare]") in proc.stdout
    assert "still failing under lazy imports 1: compiler_pkg.optimizer" in proc.stdout
    assert "[lazy]: PEP 810 lazy imports" in proc.stdout  # the modes said in the summary
    alone = run_cli("check", EXAMPLE, "--mode", "lazy")
    assert "remove" not in alone.stdout  # nothing to compare with


# --- the text report leads with what matters -------------------------------------------------

REPORTED = {
    "pkg/__init__.py": ("from typing import TYPE_CHECKING\nVALUE = 1\nif TYPE_CHECKING:\n"
                        "    from .lazyname import Thing\n_lookup = type(VALUE)\n\n"
                        "def __getattr__(name):\n    return _lookup(name)\n"),
    "pkg/lazyname.py": "Thing = 1\n",
    "pkg/uses_getattr.py": "from pkg import Thing\n",
    "pkg/p1.py": "from pkg import VALUE\n",
    "pkg/p2.py": "from pkg import VALUE\n",
    "pkg/p3.py": "from . import VALUE\n",
    "pkg/a.py": "from .b import B\nA = 1\n",
    "pkg/b.py": "from .a import A\nB = 2\n",
    "pkg/c.py": "from .a import A\n",
    "pkg/dyn.py": "import os\nglobals()[os.sep] = 1\n",
    "pkg/uses_dyn.py": "from pkg import dyn\nX = dyn.made\n",
}


def _text(tmp_path, *args, width=None, **kwargs):
    """The text report as the command line renders it (on a terminal of `width`)."""
    import io
    from rich.console import Console
    from importsafe.policy.suppress import apply_policy
    from importsafe.report import text
    report = importsafe.check([tmp_path / "pkg"], *args, **kwargs)
    report, _ = apply_policy(report)
    out = io.StringIO()
    console = Console(file=out, width=width or 200, force_terminal=width is not None,
                      color_system=None, highlight=False)
    text.render(report, console, str(tmp_path))
    return out.getvalue()


def test_failures_are_grouped_by_root_cause_with_their_count(tmp_path):
    write(tmp_path, REPORTED)
    out = _text(tmp_path)
    # one cycle: a <-> b, whatever entry and mode it breaks (a, b, c in both modes)
    assert out.count("FAIL ") == 1 and "cycle: pkg.a -> pkg.b -> pkg.a" in out
    assert "5 more first imports fail the same way: " in out
    # the bare-mode reads of the package's own names: apart, one line per name
    assert ("bare mode only: pkg.p1 and 2 more read VALUE from pkg's `__init__`, which bare "
            "mode never runs") in out
    assert "bare mode only: pkg.uses_getattr reads Thing from pkg's `__init__`" in out
    # the unknown, as unknown, at the line that made it so
    assert "UNKNOWN pkg.uses_getattr  [normal]" in out and "???" not in out
    assert "at pkg/__init__.py:7  def __getattr__(name):" in out
    assert "[bare]: M's packages are present but their `__init__` never ran" in out
    # dyn has finished when uses_dyn reads `made`: taken as bound, and said so
    assert out.rstrip().splitlines()[-2].startswith(
        "2 results rest on names taken as bound by the ordinary-order rule (bound "
        "dynamically, read after): pkg.dyn.made; ")
    assert out.rstrip().splitlines()[-1] == (
        "11 entries x modes normal,bare: 11 ok, 10 failing (4 bare mode only), 1 unknown; "
        "1 root cause")


def test_no_line_is_longer_than_the_terminal(tmp_path):
    write(tmp_path, REPORTED | {f"pkg/m{i}.py": "from pkg import VALUE\n" for i in range(40)})
    for width in (60, 100):
        lines = _text(tmp_path, width=width).splitlines()
        assert max(map(len, lines)) <= width
    piped = _text(tmp_path).splitlines()  # not a terminal: nothing cut, nothing giant
    assert max(map(len, piped)) < 400 and any("and 42 more" in line for line in piped)


def test_unknowns_are_unknown_in_summaries_and_notes(tmp_path):
    write(tmp_path, REPORTED)
    out = _text(tmp_path, ("normal", "bare", "lazy"), strict=True)  # uses_dyn: unknown
    assert "unknown under lazy imports 1: pkg.uses_dyn" in out
    assert "still failing under lazy imports" not in out
    assert "pkg.uses_getattr [bare]" in out.split("lazy imports (PEP 810) remove")[1]
    assert "pkg.uses_getattr [normal" not in out  # unknown in normal mode: nothing removed
    report = importsafe.check([tmp_path / "pkg"])
    (note,) = [d for d in report.diagnostics if d.code == "IS004" and "__getattr__" in d.message]
    assert "cannot be decided statically" in note.message
    assert "breaks" not in note.message and (Path(note.file).name, note.line) == ("__init__.py", 7)


def test_the_bound_at_hint_does_not_point_into_type_checking(tmp_path):
    from importsafe.report.source import binding_hint
    write(tmp_path, REPORTED)
    init = str(tmp_path / "pkg" / "__init__.py")
    path, line, said = binding_hint("Thing", init, 4)
    assert (path, line) == (init, 7) and "only under `if TYPE_CHECKING:`" in said
    assert "__getattr__" in said
    assert binding_hint("VALUE", init, 2) == (init, 2, "'VALUE' is bound at")
    # the JUnit report of the same failure shows it
    proc = run_cli("check", tmp_path / "pkg", "--format", "junit", cwd=tmp_path)
    assert "comes from the module's __getattr__ at pkg/__init__.py:7" in proc.stdout


def test_assumptions_in_json_cache_and_strict(tmp_path):
    """The ordinary-order rule's assumptions reach the JSON report, survive the run cache,
    and `--strict` (flag or `strict = true`) makes those results unknown."""
    write(tmp_path, {"pkg/__init__.py": "", "pkg/dyn.py": "import os\nglobals()[os.sep] = 1\n",
                     "pkg/uses_dyn.py": "from pkg import dyn\nX = dyn.made\n"})
    cache = tmp_path / "cache"

    def uses_dyn(*flags, cwd=None):
        proc = run_cli("check", "pkg", "--format", "json", "--cache-dir", cache, *flags,
                       cwd=cwd or tmp_path)
        doc = json.loads(proc.stdout)
        return next(r for r in doc["results"]
                    if r["entry"] == "pkg.uses_dyn" and r["mode"] == "normal")

    cold = uses_dyn()
    assert cold["outcome"] == "ok" and cold["assumes"] == [
        {"module": "pkg.dyn", "name": "made", "file": "pkg/uses_dyn.py", "line": 2,
         "why": "assignment into globals() (line 2)", "kind": "order"}]
    assert uses_dyn() == cold  # warm: the stored report
    strict = uses_dyn("--strict")
    assert strict["outcome"] == "unknown" and "assumes" not in strict
    assert "'pkg.dyn' may bind 'made' dynamically" in strict["reason"]
    (tmp_path / "pyproject.toml").write_text("[tool.importsafe]\nstrict = true\n")
    assert uses_dyn() == strict
