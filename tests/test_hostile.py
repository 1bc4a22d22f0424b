"""Hostile and unlucky inputs: each gets a clean diagnostic, exit status 2 or a prediction
CPython agrees with; the rest of the package is still analysed and nothing is written into
the tree; a planted cache file is refused and never runs."""
from __future__ import annotations

import json
import marshal
import os
import pickle
import socket
import stat
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path

import pytest

import importsafe.api as api
from importsafe.dynamic.verify import outcome_key as verify_key
from importsafe.model import ErrorInfo, Result
from importsafe.store.safety import CacheWarning
from support import run_cpython
from test_cli import run_cli, write

GOOD = {"hp/__init__.py": "", "hp/a.py": "from hp import b\nA = 1\n",
        "hp/b.py": "from hp.a import A\n"}


def _snapshot(root: Path) -> dict:
    return {str(p.relative_to(root)): p.lstat().st_mtime_ns for p in root.rglob("*")}


def _good_results_hold(report, tmp_path: Path) -> None:
    """The rest of the package gets the results it gets alone."""
    alone = api.check([str(write(Path(tempfile.mkdtemp(dir=tmp_path.parent)), GOOD) / "hp")])
    want = {(r.entry, r.mode): (r.outcome, r.error and r.error.exception) for r in alone.results}
    got = {(r.entry, r.mode): (r.outcome, r.error and r.error.exception) for r in report.results}
    assert {k: got.get(k) for k in want} == want


def _special_files(pkg: Path) -> None:
    os.mkfifo(pkg / "fifo.py")
    os.symlink("/dev/zero", pkg / "zero.py")
    os.symlink(pkg / "missing_target.py", pkg / "broken.py")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(pkg / "sock.py"))
    sock.close()


def test_special_files_are_never_read(tmp_path):
    pkg = write(tmp_path, GOOD) / "hp"
    _special_files(pkg)
    before = _snapshot(tmp_path)
    proc = run_cli("check", pkg, "--no-cache", "--format", "json")
    assert proc.returncode == 1, proc.stderr
    doc = json.loads(proc.stdout)
    flagged = {Path(d["file"]).name for d in doc["diagnostics"] if d["code"] == "IS003"}
    assert flagged == {"fifo.py", "zero.py", "broken.py", "sock.py"}
    entries = {r["entry"] for r in doc["results"]}
    assert entries == {"hp", "hp.a", "hp.b"}  # CPython's finder imports none of them either
    _good_results_hold(api.check([str(pkg)]), tmp_path)
    assert _snapshot(tmp_path) == before
    real = run_cpython([tmp_path], [("hp.fifo", "normal"), ("hp.zero", "normal")])
    assert [r["error"]["exception"] for r in real] == ["ModuleNotFoundError"] * 2
    explained = run_cli("explain", "hp.a", pkg, "--mode", "bare")
    assert explained.returncode in (0, 1) and "Traceback" not in explained.stderr


def test_run_lists_special_files_without_blocking(tmp_path):
    pkg = write(tmp_path, GOOD) / "hp"
    _special_files(pkg)
    proc = subprocess.run([sys.executable, "-m", "importsafe", "run", str(pkg), "--format",
                           "json"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 1, proc.stderr
    assert {r["entry"] for r in json.loads(proc.stdout)["results"]} == {"hp", "hp.a", "hp.b"}


def _a_device(tmp_path) -> Path:
    """A character device where the machine has one (some sandboxes make /dev/null a regular
    file), else a FIFO without the .py suffix."""
    for name in ("/dev/null", "/dev/zero", "/dev/urandom", "/dev/tty"):
        try:
            if stat.S_ISCHR(os.stat(name).st_mode):
                return Path(name)
        except OSError:
            continue
    path = tmp_path / "device"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("kind", ["device", "fifo", "socket"])
def test_a_path_that_is_no_file_or_directory_is_a_usage_error(tmp_path, kind):
    path = _a_device(tmp_path)
    if kind == "fifo":
        path = tmp_path / "f.py"
        os.mkfifo(path)
    elif kind == "socket":
        path = tmp_path / "s.py"
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()
    for command in ("check", "run"):
        proc = run_cli(command, path)
        assert proc.returncode == 2 and "not a regular file or directory" in proc.stderr
        assert "Traceback" not in proc.stderr


def test_a_file_over_the_size_limit_is_unknown(tmp_path, monkeypatch):
    from importsafe.static import files
    pkg = write(tmp_path, {**GOOD, "hp/huge.py": "X = 1\n" * 100}) / "hp"
    monkeypatch.setattr(files, "MAX_SOURCE", 100)
    report = api.check([str(pkg)])
    huge = report.result("hp.huge", "normal")
    assert huge.outcome == "unknown" and "too large" in huge.reason
    assert any(d.code == "IS003" and "too large" in d.message for d in report.diagnostics)


def test_symlinked_directories_keep_the_real_package(tmp_path):
    pkg = write(tmp_path, {"sp/__init__.py": "", "sp/x1/__init__.py": "X1 = 1\n",
                           "sp/x2/__init__.py": "from sp.x1 import X1\n"}) / "sp"
    os.symlink("../x2", pkg / "x1" / "to2")
    os.symlink("../x1", pkg / "x2" / "to1")
    report = api.check([str(pkg)])
    assert {r.entry for r in report.results} == {"sp", "sp.x1", "sp.x2"}
    assert all(r.outcome == "ok" for r in report.results)
    assert any(d.code == "IS003" and "already walked" in d.message for d in report.diagnostics)


def test_an_unreadable_directory_gets_a_diagnostic(tmp_path, monkeypatch):
    """Listing it fails (as root every directory is readable: the failure is simulated)."""
    pkg = write(tmp_path, {**GOOD, "hp/secret/mod.py": "X = 1\n"}) / "hp"
    secret = str(pkg / "secret")
    real = os.scandir

    def scandir(path="."):
        if os.fspath(path) == secret:
            raise PermissionError(13, "Permission denied", secret)
        return real(path)
    monkeypatch.setattr(os, "scandir", scandir)
    report = api.check([str(pkg)])
    assert any(d.code == "IS003" and d.file == secret and "cannot read directory" in d.message
               for d in report.diagnostics), report.diagnostics
    _good_results_hold(report, tmp_path)


# every module here must get CPython's own exception class (compared as --verify compares)
EDGES = {
    "ep/__init__.py": "",
    "ep/tabs.py": "if True:\n        x = 1\n\ty = 2\n",
    "ep/deepif.py": "".join(" " * i + "if True:\n" for i in range(150)) + " " * 150 + "x = 1\n",
    "ep/deepclass.py": "".join(" " * i + f"class C{i}:\n" for i in range(120)) +
                       " " * 120 + "x = 1\n",
    "ep/deepattr.py": "x = len" + ".b" * 7000 + "\n",
    "ep/braces.py": "from __future__ import braces\n",
    "ep/annotations.py": "from __future__ import annotations\nX: int = 1\n",
    "ep/exits.py": "import os\nos._exit(0)\nfrom ep import missing\n",
    "ep/fine.py": "from ep import annotations\n",
}


def test_edge_sources_are_predicted_as_cpython_raises(tmp_path):
    pkg = write(tmp_path, EDGES) / "ep"
    report = api.check([str(pkg)])
    jobs = [(r.entry, r.mode) for r in report.results]
    real = {(r["entry"], r["mode"]): r for r in run_cpython([tmp_path], jobs)}
    for r in report.results:
        d = real[(r.entry, r.mode)]
        if r.entry == "ep.exits":
            assert r.outcome == "unknown" and d["outcome"] == "crash"  # the process ended
            continue
        err = d.get("error") or {}
        dyn = Result(r.entry, r.mode, d["outcome"], ErrorInfo(
            err["exception"], err.get("module"), err.get("name"), "", ()) if err else None)
        assert verify_key(r) == verify_key(dyn), (r, d)
    exceptions = {r.entry: r.error.exception for r in report.results if r.error}
    assert exceptions == {"ep.tabs": "TabError", "ep.deepif": "IndentationError",
                          "ep.deepclass": "IndentationError", "ep.deepattr": "RecursionError",
                          "ep.braces": "SyntaxError"}


def test_a_deep_source_is_judged_by_a_first_import_s_recursion_limit(tmp_path):
    # the parser's depth limit scales with the recursion limit: a caller's raised limit
    # (api.deep_recursion, pytest plugins) must not let through what CPython's import refuses
    pkg = write(tmp_path, {"ep/__init__.py": "", "ep/deepattr.py": EDGES["ep/deepattr.py"]})
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(20000)
    try:
        report = api.check([str(pkg / "ep")])
    finally:
        sys.setrecursionlimit(limit)
    assert {(r.entry, r.outcome, r.error and r.error.exception) for r in report.results} == \
        {("ep", "ok", None), ("ep.deepattr", "error", "RecursionError")}


def test_a_deep_module_needing_the_fallback_parser_costs_only_itself(tmp_path):
    files = {**GOOD, "hp/deep.py": "type X = int\nx = len" + ".b" * 7000 + "\n",
             "hp/newer.py": "type Y = int\nfrom hp import b\n"}
    pkg = write(tmp_path, files) / "hp"
    proc = run_cli("check", pkg, "--no-cache", "--format", "json")
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    doc = json.loads(proc.stdout)
    got = {(r["entry"], r["mode"]): r for r in doc["results"]}
    assert got[("hp.deep", "normal")]["outcome"] == "error"  # it does not compile on 3.11
    assert got[("hp.newer", "normal")]["outcome"] == "ok"  # lowered by libcst as usual
    _good_results_hold(api.check([str(pkg)]), tmp_path)


# --- the caches ---------------------------------------------------------------------------

class _Boom:
    def __reduce__(self):
        return (os.system, (f"touch {os.environ['HOSTILE_MARK']}",))


def _plant(path: Path, payload: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(payload)
    os.chmod(path, 0o600)


def _payloads(mark: Path):
    """What an attacker may put in a cache file: a pickle that runs a command, a marshalled
    code object, a file with importsafe's header and a wrong checksum, random bytes."""
    os.environ["HOSTILE_MARK"] = str(mark)
    code = compile(f"import os; os.system('touch {mark}')", "x", "exec")
    from importsafe.store import codec
    good = codec.pack("facts", ("facts", (0,)))
    return {"pickle": pickle.dumps(_Boom()), "code": marshal.dumps(code),
            "header": good[:-1] + bytes([good[-1] ^ 1]), "bytes": os.urandom(256)}


@pytest.mark.parametrize("kind", ["pickle", "code", "header", "bytes"])
def test_a_planted_cache_file_is_refused_and_never_runs(tmp_path, kind):
    pkg = write(tmp_path / "src", GOOD) / "hp"
    cache = tmp_path / "cache"
    mark = tmp_path / "pwned"
    cold = api.check([str(pkg)], cache_dir=str(cache))
    payload = _payloads(mark)[kind]
    planted = list(cache.rglob("*.facts")) + list(cache.rglob("*.run"))
    assert planted and any(p.suffix == ".run" for p in planted)
    for path in planted:
        _plant(path, payload)
    with pytest.warns(CacheWarning, match="refused"):
        warm = api.check([str(pkg)], cache_dir=str(cache))
    assert warm == cold and not mark.exists()
    # the command line too, with the run cache answered first
    for path in list(cache.rglob("*.facts")) + list(cache.rglob("*.run")):
        _plant(path, payload)
    proc = run_cli("check", pkg, "--cache-dir", cache)
    assert proc.returncode == 1 and "CacheWarning" in proc.stderr and not mark.exists()


def test_cache_files_of_others_or_writable_by_others_are_refused(tmp_path):
    pkg = write(tmp_path / "src", GOOD) / "hp"
    cache = tmp_path / "cache"
    cold = api.check([str(pkg)], cache_dir=str(cache))
    assert oct(cache.stat().st_mode & 0o777) == "0o700"
    assert all(oct(d.stat().st_mode & 0o777) == "0o700" for d in cache.rglob("*") if d.is_dir())
    for path in cache.rglob("*.run"):
        os.chmod(path, 0o666)
    with pytest.warns(CacheWarning, match="writable by other users"):
        assert api.check([str(pkg)], cache_dir=str(cache)) == cold
    os.chmod(cache, 0o777)
    os.chown(cache, 65534, 65534) if os.geteuid() == 0 else None
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert api.check([str(pkg)], cache_dir=str(cache)) == cold
    assert any(issubclass(w.category, CacheWarning) for w in seen)
