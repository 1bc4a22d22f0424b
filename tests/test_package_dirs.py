"""Setuptools `package-dir` mappings: a repository whose root directory is the package
(`{"mypkg" = "."}`), packages under another source root (`{"" = "lib"}`), and the legacy
setup.cfg forms, for `check`, `run` and the Python API."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

import importsafe
from importsafe.config.project import default_paths
from importsafe.static import package_dirs
from test_formats import invoke, write

PYPROJECT_ROOT = """\
[project]
name = "mypkg"
version = "1.0"

[tool.setuptools]
package-dir = {"mypkg" = "."}
packages = ["mypkg", "mypkg.sub"]
"""

# the repository root is the package mypkg; `import mypkg.sub.x` fails first in both modes:
# x imports y, which wants X from x, still at its first line
PACKAGE = {
    "__init__.py": "VERSION = 1\n",
    "util.py": "from mypkg.sub.y import Y\n",
    "sub/__init__.py": "",
    "sub/x.py": "from mypkg.sub import y\nX = 1\n",
    "sub/y.py": "from mypkg.sub.x import X\nY = 2\n",
    # not part of the package: never entries (importing them would fail loudly)
    "setup.py": "raise SystemExit('setup.py must not be imported')\n",
    "tests/__init__.py": "",
    "tests/test_x.py": "raise SystemExit('tests must not be imported')\n",
    "docs/conf.py": "raise SystemExit('docs must not be imported')\n",
}
ENTRIES = {"mypkg", "mypkg.util", "mypkg.sub", "mypkg.sub.x", "mypkg.sub.y"}
FAILING = {("mypkg.sub.x", "normal"), ("mypkg.sub.x", "bare")}


def outcomes(proc) -> dict:
    doc = json.loads(proc.stdout)
    return {(r["entry"], r["mode"]): r for r in doc["results"]}


def failing(doc_results: dict) -> set:
    return {k for k, r in doc_results.items() if r["outcome"] != "ok"}


@pytest.fixture
def repo(tmp_path) -> Path:
    """A checkout whose directory name (`checkout`) is not the package's name."""
    root = tmp_path / "checkout"
    write(root, PACKAGE)
    (root / "pyproject.toml").write_text(PYPROJECT_ROOT)
    return root


def _assert_mapped_failure(results: dict, repo_files: bool = True) -> None:
    assert {e for e, _ in results} == ENTRIES
    assert failing(results) == FAILING
    err = results[("mypkg.sub.x", "bare")]["error"]
    assert (err["exception"], err["module"], err["name"]) == ("ImportError", "mypkg.sub.x", "X")
    assert [f["module"] for f in err["chain"]] == ["mypkg.sub.x", "mypkg.sub.y"]
    if repo_files:  # relative to the repository, where the command ran
        assert [(f["file"], f["line"]) for f in err["chain"]] == [
            (os.path.join("sub", "x.py"), 1), (os.path.join("sub", "y.py"), 1)]
    assert "partially initialized module 'mypkg.sub.x'" in err["message"]


# --- the repository root is the package ------------------------------------------------

def test_check_without_arguments_names_modules_as_the_mapping_says(repo):
    proc = invoke("check", "--format", "json", cwd=repo)
    assert proc.exit_code == 1, proc.output
    _assert_mapped_failure(outcomes(proc))
    doc = json.loads(proc.stdout)
    assert [(d["code"], d["file"], d["line"]) for d in doc["diagnostics"]] == [
        ("IS101", os.path.join("sub", "y.py"), 1)]
    text = invoke("check", cwd=repo).stdout
    assert "FAIL mypkg.sub.x  [" in text and "checkout." not in text
    assert "5 entries x modes normal,bare: 8 ok, 2 failing" in text


@pytest.mark.parametrize("path, entries", [
    (".", ENTRIES),
    ("sub", {"mypkg.sub", "mypkg.sub.x", "mypkg.sub.y"}),
    ("sub/x.py", {"mypkg.sub.x"}),
    ("__init__.py", ENTRIES),  # as `check pkg/__init__.py` is the whole package
])
def test_check_of_paths_inside_the_mapped_package(repo, path, entries):
    proc = invoke("check", path, "--format", "json", cwd=repo)
    results = outcomes(proc)
    assert {e for e, _ in results} == entries
    assert failing(results) == {k for k in FAILING if k[0] in entries}
    assert proc.exit_code == (1 if failing(results) else 0)


def test_check_from_elsewhere_and_the_python_api(repo, tmp_path):
    proc = invoke("check", repo / "sub", "--format", "json", cwd=tmp_path)
    assert failing(outcomes(proc)) == FAILING
    report = importsafe.check([str(repo)])
    assert {r.entry for r in report.results} == ENTRIES
    assert {(r.entry, r.mode) for r in report.results if r.outcome == "error"} == FAILING
    failure = report.result("mypkg.sub.x", "bare").error
    assert failure.chain[0].file == str(repo / "sub" / "x.py")


def test_a_source_root_given_inside_the_mapped_directory_wins(repo):
    # "the checkout is on sys.path": sub is then a top-level package of its own
    proc = invoke("check", "sub", "--source-root", ".", "--format", "json", cwd=repo)
    assert {e for e, _ in outcomes(proc)} == {"sub", "sub.x", "sub.y"}


def test_without_a_packages_list_everything_but_tests_docs_and_setup_py(repo):
    text = PYPROJECT_ROOT.replace('packages = ["mypkg", "mypkg.sub"]\n', "")
    (repo / "pyproject.toml").write_text(text)
    (repo / "extra").mkdir()
    (repo / "extra" / "__init__.py").write_text("")
    proc = invoke("check", "--format", "json", cwd=repo)
    assert {e for e, _ in outcomes(proc)} == ENTRIES | {"mypkg.extra"}


def test_run_imports_the_mapped_package_under_its_name(repo):
    proc = invoke("run", "--format", "json", "-j", "2", cwd=repo)
    assert proc.exit_code == 1, proc.output
    results = outcomes(proc)
    _assert_mapped_failure(results)
    assert "importsafe-run-" not in proc.stdout  # no file named through the temporary links
    # the files it reports are the repository's own
    err = results[("mypkg.sub.x", "normal")]["error"]
    assert str(repo / "sub" / "x.py") in err["message"]
    # a fresh interpreter per job as well
    (repo / "entries.txt").write_text("mypkg.sub.x\nmypkg.util\n")
    proc = invoke("run", "--no-fork", "--entries", "entries.txt", "--format", "json",
                  cwd=repo)
    results = outcomes(proc)
    assert failing(results) == FAILING and len(results) == 4
    assert results[("mypkg.sub.x", "bare")]["error"]["chain"][0]["file"] == os.path.join(
        "sub", "x.py")
    assert (repo / "sub" / "x.py").exists() and (repo / "pyproject.toml").exists()


def test_check_verify_agrees(repo):
    proc = invoke("check", "--verify", cwd=repo)
    assert proc.exit_code == 1
    assert "verify: 0 disagreements between static and dynamic, 0 notes" in proc.stdout


# --- packages under another source root -------------------------------------------------

LIB = {
    "lib/mypkg/__init__.py": "",
    "lib/mypkg/a.py": "from mypkg.b import B\nA = 1\n",
    "lib/mypkg/b.py": "from mypkg.a import A\nB = 2\n",
    # a namespace package below the root: only the mapping names it right
    "lib/ns/plugin/__init__.py": "from ns.plugin.impl import run\n",
    "lib/ns/plugin/impl.py": "from ns.plugin import missing\ndef run(): pass\n",
}
LIB_FAILING = {("mypkg.a", "normal"), ("mypkg.a", "bare"), ("mypkg.b", "normal"),
               ("mypkg.b", "bare"), ("ns.plugin", "normal"), ("ns.plugin", "bare"),
               ("ns.plugin.impl", "normal"), ("ns.plugin.impl", "bare")}


@pytest.mark.parametrize("config", [
    ("pyproject.toml", '[tool.setuptools]\npackage-dir = {"" = "lib"}\n'),
    ("setup.cfg", "[metadata]\nname = mypkg\n\n[options]\npackage_dir = =lib\n"),
    ("setup.cfg", "[options]\npackage_dir =\n    = lib\npackages = find:\n"),
])
def test_a_source_root_mapping(tmp_path, config):
    write(tmp_path, LIB)
    (tmp_path / config[0]).write_text(config[1])
    assert default_paths(str(tmp_path)) == (str(tmp_path / "lib"),)
    proc = invoke("check", "--format", "json", cwd=tmp_path)
    assert proc.exit_code == 1, proc.output
    results = outcomes(proc)
    assert {e for e, _ in results} == {"mypkg", "mypkg.a", "mypkg.b", "ns.plugin",
                                       "ns.plugin.impl"}
    assert failing(results) == LIB_FAILING
    # the project root itself: its mapped source root, not the project root as one
    assert outcomes(invoke("check", ".", "--format", "json", cwd=tmp_path)) == results
    # a path deep inside: the mapping's root, not the first directory without __init__.py
    proc = invoke("check", "lib/ns/plugin/impl.py", "--format", "json", cwd=tmp_path)
    assert set(outcomes(proc)) == {("ns.plugin.impl", "normal"), ("ns.plugin.impl", "bare")}
    proc = invoke("run", "--format", "json", "-j", "2", cwd=tmp_path)
    assert failing(outcomes(proc)) == LIB_FAILING


def test_a_package_in_a_directory_named_otherwise(tmp_path):
    files = {f"code/{k}": v for k, v in PACKAGE.items()
             if k.endswith(".py") and ("/" not in k or k.startswith("sub/")) and k != "setup.py"}
    write(tmp_path, files)
    (tmp_path / "pyproject.toml").write_text('[tool.setuptools]\npackage-dir = {"mypkg" = "code"}'
                                             '\n')
    for args in ((), (".",), ("code",)):
        proc = invoke("check", *args, "--format", "json", cwd=tmp_path)
        _assert_mapped_failure(outcomes(proc), repo_files=False)
    proc = invoke("run", "code/sub/x.py", "--format", "json", cwd=tmp_path)
    assert failing(outcomes(proc)) == FAILING


# --- setup.cfg: the repository root is the package --------------------------------------

@pytest.mark.parametrize("options", [
    "package_dir = mypkg = .\npackages = mypkg, mypkg.sub\n",
    "package_dir =\n    mypkg = .\npackages =\n    mypkg\n    mypkg.sub\n",
])
def test_setup_cfg_root_package(tmp_path, options):
    repo = write(tmp_path / "checkout", PACKAGE)
    (repo / "setup.cfg").write_text(f"[metadata]\nname = mypkg\n\n[options]\n{options}")
    (repo / "setup.py").write_text("raise SystemExit('setup.py must not be imported')\n")
    proc = invoke("check", "--format", "json", cwd=repo)
    assert proc.exit_code == 1, proc.output
    _assert_mapped_failure(outcomes(proc))
    proc = invoke("run", "sub", "--format", "json", "-j", "2", cwd=repo)
    assert failing(outcomes(proc)) == FAILING


# --- reading the mapping ----------------------------------------------------------------

def test_reading_package_dir_declarations(tmp_path):
    (tmp_path / "code").mkdir()
    (tmp_path / "lib").mkdir()
    real = str(tmp_path.resolve())

    def read(name, text):
        for f in ("pyproject.toml", "setup.cfg"):
            (tmp_path / f).unlink(missing_ok=True)
        (tmp_path / name).write_text(text)
        return package_dirs.read(str(tmp_path))

    got = read("pyproject.toml", '[tool.setuptools]\npackage-dir = {"a" = "code", "" = "lib",'
                                 ' "a.sub" = "x", "gone" = "missing"}\npackages = ["a"]\n')
    assert got.dirs == (("a", os.path.join(real, "code")),)  # dotted and missing: ignored
    assert got.root == os.path.join(real, "lib") and got.packages == ("a",)
    assert got.mapped(os.path.join(real, "code", "m.py")) == ("a", os.path.join(real, "code"))
    assert got.mapped(os.path.join(real, "codex")) is None
    assert read("pyproject.toml", "[tool.setuptools.packages.find]\nwhere = ['src']\n") is None
    assert read("pyproject.toml", "[tool.setuptools]\npackage-dir = 3\n") is None
    assert read("pyproject.toml", "not toml [") is None
    got = read("setup.cfg", "[options]\npackage_dir =\n  a = code\n  =lib\npackages = find:\n")
    assert (got.dirs, got.root, got.packages) == (
        (("a", os.path.join(real, "code")),), os.path.join(real, "lib"), None)
    assert read("setup.cfg", "[options]\ninstall_requires = x\n") is None
    assert read("setup.cfg", "no section header\n") is None
    # the nearest project wins
    read("setup.cfg", "[options]\npackage_dir = =lib\n")
    (tmp_path / "code" / "sub").mkdir()
    assert package_dirs.find(str(tmp_path / "code" / "sub")).project == real
    (tmp_path / "code" / "pyproject.toml").write_text("[project]\nname = 'other'\n")
    assert package_dirs.find(str(tmp_path / "code" / "sub")) is None
