"""Conditions on the environment: `--env` and `[tool.importsafe] env`, the caches under it,
the assumptions results carry, and dependency versions read from files (the fixtures
env_condition and dependency_version check the rules themselves against CPython)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

import importsafe
from importsafe.model import Assumption
from importsafe.static.installed import Versions
from importsafe.static.purefn import NoValue, Release, compile_expr, evaluate

ROOT = Path(__file__).resolve().parents[1]
CASES = ROOT / "tests" / "cases"

# MODE_X decides whether the import that meets the cycle runs
PKG = {
    "evp/__init__.py": "",
    "evp/a.py": "import os\n\nif os.environ.get('EVP_CYCLE') == '1':\n"
                "    from evp.b import B\nA = 1\n",
    "evp/b.py": "from evp.a import A\nB = 1\n",
}


def write(root: Path, files: dict) -> Path:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


def run_cli(*args, cwd, env=None):
    import os
    return subprocess.run([sys.executable, "-m", "importsafe", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=120,
                          env={**os.environ, **env} if env else None)


def results(proc) -> dict:
    doc = json.loads(proc.stdout)
    return {(r["entry"], r["mode"]): r for r in doc["results"]}


def test_env_flag_decides_the_test_and_the_json_names_the_variable(tmp_path):
    write(tmp_path, PKG)
    unset = results(run_cli("check", "evp", "--format", "json", "--no-cache", cwd=tmp_path))
    a = unset[("evp.a", "normal")]
    assert a["outcome"] == "ok"
    assert a["assumes"] == [{"module": "evp.a", "name": "EVP_CYCLE", "file": "evp/a.py",
                             "line": 3, "why": "environment variable EVP_CYCLE taken as unset",
                             "kind": "environment"}]
    proc = run_cli("check", "evp", "--format", "json", "--no-cache", "--env", "EVP_CYCLE=1",
                   cwd=tmp_path)
    assert proc.returncode == 1
    a = results(proc)[("evp.a", "normal")]
    assert a["outcome"] == "error" and a["error"]["name"] == "A"
    assert a["assumes"][0]["why"] == "environment variable EVP_CYCLE taken as '1' (--env)"
    # another value of the variable: the test is false again
    other = results(run_cli("check", "evp", "--format", "json", "--no-cache",
                            "--env", "EVP_CYCLE=0", cwd=tmp_path))
    assert other[("evp.a", "normal")]["outcome"] == "ok"


def test_config_env_table_and_the_flag_over_it(tmp_path):
    write(tmp_path, PKG | {"pyproject.toml": '[tool.importsafe]\nenv = {EVP_CYCLE = "1"}\n'})
    found = results(run_cli("check", "evp", "--format", "json", "--no-cache", cwd=tmp_path))
    assert found[("evp.a", "normal")]["outcome"] == "error"
    over = results(run_cli("check", "evp", "--format", "json", "--no-cache",
                           "--env", "EVP_CYCLE=0", cwd=tmp_path))
    assert over[("evp.a", "normal")]["outcome"] == "ok"


@pytest.mark.parametrize("command", ["check", "explain", "fix", "lazy-plan", "run"])
def test_env_without_equals_is_a_usage_error(tmp_path, command):
    write(tmp_path, PKG)
    args = ["evp.a", "evp"] if command == "explain" else ["evp"]
    proc = run_cli(command, *args, "--env", "EVP_CYCLE", cwd=tmp_path)
    assert proc.returncode == 2, proc.stderr
    assert "--env: expected NAME=VALUE" in proc.stderr and "Traceback" not in proc.stderr


def test_config_env_of_the_wrong_type_is_a_usage_error(tmp_path):
    write(tmp_path, PKG | {"pyproject.toml": "[tool.importsafe]\nenv = 3\n"})
    proc = run_cli("check", "evp", cwd=tmp_path)
    assert proc.returncode == 2
    (line,) = proc.stderr.strip().splitlines()
    assert "[tool.importsafe] env: expected a table of environment variables to strings" in line
    write(tmp_path, {"pyproject.toml": "[tool.importsafe]\nenv = {EVP_CYCLE = 1}\n"})
    proc = run_cli("check", "evp", cwd=tmp_path)
    assert proc.returncode == 2 and "entry 'EVP_CYCLE' = integer 1" in proc.stderr


def test_explain_shows_the_environment_it_assumed(tmp_path):
    write(tmp_path, PKG)
    proc = run_cli("explain", "evp.a", "evp", "--env", "EVP_CYCLE=1", cwd=tmp_path)
    assert proc.returncode == 1
    assert "assumes (the ordinary environment" in proc.stdout
    assert "environment variable EVP_CYCLE taken as '1' (--env)" in proc.stdout
    doc = json.loads(run_cli("explain", "evp.a", "evp", "--format", "json",
                             cwd=tmp_path).stdout)
    assert "EVP_CYCLE" in json.dumps(doc)


def test_text_summary_counts_results_resting_on_the_environment(tmp_path):
    write(tmp_path, PKG)
    proc = run_cli("check", "evp", "--no-cache", cwd=tmp_path)
    assert "results rest on the ordinary environment" in proc.stdout
    assert "EVP_CYCLE" in proc.stdout


def test_cached_facts_and_runs_never_cross_environments(tmp_path):
    """The facts decide tests on the environment: under another --env none of the cached
    facts, stored results or stored runs is reused."""
    write(tmp_path, PKG)
    cache = tmp_path / "cache"

    def outcome(*flags):
        proc = run_cli("check", "evp", "--format", "json", "--cache-dir", cache, *flags,
                       cwd=tmp_path)
        return results(proc)[("evp.a", "normal")]["outcome"]
    assert outcome() == "ok"
    assert outcome("--env", "EVP_CYCLE=1") == "error"
    assert outcome() == "ok"  # warm: the stored run of the first argument set
    assert outcome("--env", "EVP_CYCLE=1") == "error"
    (tmp_path / "evp" / "c.py").write_text("X = 1\n")  # a changed tree: partly reused
    assert outcome("--env", "EVP_CYCLE=1") == "error"
    assert outcome() == "ok"


def test_api_takes_a_mapping_or_pairs(tmp_path):
    write(tmp_path, PKG)
    for env in ({"EVP_CYCLE": "1"}, [("EVP_CYCLE", "1")]):
        report = importsafe.check([str(tmp_path / "evp")], modes=("normal",), env=env)
        assert report.result("evp.a", "normal").outcome == "error"


def test_keyerror_only_where_the_read_surely_runs(tmp_path):
    write(tmp_path, {
        "kx/__init__.py": "",
        "kx/sure.py": "import os\nX = os.environ['KX_UNSET']\n",
        "kx/maybe.py": "import os, sys\nX = sys.argv and os.environ['KX_UNSET']\n"
                       "Y = [os.environ['KX_UNSET'] for _ in sys.argv]\n"
                       "Z = (lambda: os.environ['KX_UNSET'])\n",
        "kx/caught.py": "import os\ntry:\n    X = os.environ['KX_UNSET']\n"
                        "except LookupError:\n    X = None\n",
    })
    report = importsafe.check([str(tmp_path / "kx")], modes=("normal",))
    sure = report.result("kx.sure", "normal")
    assert sure.outcome == "error" and sure.error.exception == "KeyError"
    assert [a.name for a in sure.assumes] == ["KX_UNSET"]
    assert report.result("kx.caught", "normal").outcome == "ok"
    # sys.argv may be empty as far as facts know: the read may not happen, no KeyError
    assert report.result("kx.maybe", "normal").outcome == "ok"
    given = importsafe.check([str(tmp_path / "kx")], modes=("normal",),
                             env={"KX_UNSET": "set"})
    assert given.result("kx.sure", "normal").outcome == "ok"


def test_a_variable_read_with_a_computed_name(tmp_path):
    """In the ordinary environment every variable is unset, whatever its name; with
    variables given, a computed name may be one of them: the test is not decided."""
    write(tmp_path, {
        "cn/__init__.py": "",
        "cn/a.py": "import os\nNAME = 'CN_' + os.sep\nif os.environ.get(NAME):\n"
                   "    from cn.b import B\nA = 1\n",
        "cn/b.py": "from cn.a import A\nB = 1\n",
    })
    assert importsafe.check([str(tmp_path / "cn")], modes=("normal",)).result(
        "cn.a", "normal").outcome == "ok"
    given = importsafe.check([str(tmp_path / "cn")], modes=("normal",), env={"OTHER": "1"})
    assert given.result("cn.a", "normal").outcome == "unknown"


# -- dependency versions ---------------------------------------------------------------

def test_versions_follow_imports_to_the_literal(tmp_path):
    write(tmp_path, {
        "dep/__init__.py": "from ._version import __version__\nVERSION = __version__\n",
        "dep/_version.py": "__version__ = version = '3.2.1'\n",
        "meta/__init__.py": "import importlib.metadata\n"
                            "__version__ = importlib.metadata.version('meta-dist')\n",
        "Meta_Dist-0.5.dist-info/METADATA": "Metadata-Version: 2.1\nName: Meta-Dist\n"
                                            "Version: 0.5\n\nVersion: 9\n",
        "nolit/__init__.py": "__version__ = compute()\n",
    })
    versions = Versions([str(tmp_path)])
    assert versions.of_module("dep", "__version__") == \
        ("3.2.1", str(tmp_path / "dep" / "_version.py"))
    assert versions.of_module("dep", "VERSION")[0] == "3.2.1"
    assert versions.of_module("meta", "__version__")[0] == "0.5"
    assert versions.of_distribution("meta.dist")[0] == "0.5"  # names normalised (PEP 503)
    assert versions.of_module("nolit", "__version__") is None
    assert versions.of_module("absent", "__version__") is None
    assert str(tmp_path / "absent.py") in versions.files()
    why = f"version of dep.VERSION taken as '3.2.1', read from {tmp_path / 'dep' / '_version.py'}"
    held = Assumption("m", "dep.VERSION", "f.py", 1, why, "version")
    assert versions.hold((held,))
    (tmp_path / "dep" / "_version.py").write_text("__version__ = version = '4.0'\n")
    assert not Versions([str(tmp_path)]).hold((held,))


def test_release_comparisons():
    assert Release.parse("1.10.2") > Release.parse("1.9")
    assert Release.parse("2.0.0") == Release.parse("2")
    with pytest.raises(NoValue):
        Release.parse("2.0rc1")
    program = compile_expr(__import__("ast").parse(
        "parse(v) >= parse('2.1')", mode="eval").body)

    def resolve(scope, name):
        return ("data", "2.10") if name == "v" else None

    def versions(scope, name, attrs, args):
        assert name == "parse" and not attrs
        return Release.parse(args[0])
    assert evaluate(program, resolve, None, versions=versions) is True
    mixed = compile_expr(__import__("ast").parse("parse(v) >= '2.1'", mode="eval").body)
    with pytest.raises(NoValue):
        evaluate(mixed, resolve, None, versions=versions)


def test_version_of_a_name_that_is_not_an_import(tmp_path):
    """`x.__version__` where x is no import of an installed package: not decided."""
    write(tmp_path, {
        "nv/__init__.py": "",
        "nv/a.py": "import sys\nclass x:\n    __version__ = sys.argv[0]\n"
                   "if x.__version__.startswith('1.'):\n    from nv.b import B\nA = 1\n",
        "nv/b.py": "from nv.a import A\nB = 1\n",
    })
    report = importsafe.check([str(tmp_path / "nv")], modes=("normal",))
    r = report.result("nv.a", "normal")
    assert r.outcome == "unknown" and not r.assumes


def test_dependency_version_fixture_json(tmp_path):
    case = CASES / "dependency_version"
    proc = run_cli("check", case / "depver", "--format", "json", "--no-cache", cwd=case)
    a = results(proc)[("depver.a", "normal")]
    (assumed,) = a["assumes"]
    assert assumed["kind"] == "version" and assumed["name"] == "fakedep.__version__"
    assert assumed["why"].startswith("version of fakedep.__version__ taken as '1.4.2', read "
                                     "from ") and assumed["why"].endswith("_version.py")


def test_a_changed_dependency_version_is_seen_through_the_caches(tmp_path):
    import shutil
    case = tmp_path / "site"
    shutil.copytree(CASES / "dependency_version", case)
    cache = tmp_path / "cache"

    def outcome():
        proc = run_cli("check", case / "depver", "--format", "json", "--cache-dir", cache,
                       cwd=case)
        return results(proc)[("depver.a", "normal")]["outcome"]
    assert outcome() == "error"
    assert outcome() == "error"  # warm
    (case / "fakedep" / "_version.py").write_text('__version__ = version = "2.0.0"\n')
    assert outcome() == "ok"


def test_a_module_installed_later_is_seen_through_the_caches(tmp_path):
    """An optional dependency taken as installed nowhere: installing it (here, a module on
    PYTHONPATH) changes the answer of the next cached run; so does putting a new directory
    that holds it on PYTHONPATH."""
    import shutil
    case = tmp_path / "case"
    shutil.copytree(CASES / "absent_optional", case)
    cache, extra, later = tmp_path / "cache", tmp_path / "extra", tmp_path / "later"
    extra.mkdir()
    later.mkdir()
    (later / "optpkg_absent_dependency_xyz.py").write_text("fast = 1\n")

    def outcome(path):
        proc = run_cli("check", case / "optpkg", "--format", "json", "--cache-dir", cache,
                       cwd=case, env={"PYTHONPATH": str(path)})
        return results(proc)[("optpkg.cyc", "normal")]["outcome"]
    assert outcome(extra) == "error"
    assert outcome(extra) == "error"  # warm
    # installed, `fast` is a value of a library, not known statically: `if fast is None:` is
    # undecided
    assert outcome(later) == "unknown"  # another PYTHONPATH: the assumption no longer holds
    assert outcome(extra) == "error"
    (extra / "optpkg_absent_dependency_xyz").mkdir()
    (extra / "optpkg_absent_dependency_xyz" / "__init__.py").write_text("fast = 1\n")
    assert outcome(extra) == "unknown"  # installed where the last run looked
