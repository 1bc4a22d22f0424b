"""`importsafe diff BASE [HEAD]` on a temporary git repository."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from importsafe.policy import diff as gitdiff
from importsafe.cli import cli
from importsafe.policy.diff import Revision, compare

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo, *args) -> str:
    # An empty file of our own, not os.devnull: some sandboxes give /dev/null content.
    empty = Path(repo).parent / "empty.gitconfig"
    if not empty.exists():
        empty.write_text("")
    env = dict(os.environ, GIT_CONFIG_GLOBAL=str(empty), GIT_CONFIG_NOSYSTEM="1")
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True,
                          text=True, env=env).stdout.strip()


def _commit(repo, files: dict, message: str) -> str:
    for path, text in files.items():
        target = repo / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", message)
    return _git(repo, "rev-parse", "HEAD")


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """c1 clean; c2 a cycle (pkg.a and pkg.b fail in both modes); c3 fixed by moving the
    definitions above the imports (no name lost)."""
    repo = tmp_path_factory.mktemp("repo")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.name", "importsafe tests")
    _git(repo, "config", "user.email", "tests@example.invalid")
    _git(repo, "config", "commit.gpgsign", "false")
    c1 = _commit(repo, {"pkg/__init__.py": "", "pkg/a.py": "A = 1\n",
                        "pkg/b.py": "from .a import A\nB = 2\n", "README": "x\n"}, "c1")
    c2 = _commit(repo, {"pkg/a.py": "from .b import B\nA = 1\n"}, "c2")
    c3 = _commit(repo, {"pkg/a.py": "A = 1\nfrom .b import B\n",
                        "pkg/b.py": "B = 2\nfrom .a import A\n"}, "c3")
    return repo, c1, c2, c3


def _diff(repo, *args):
    old = os.getcwd()
    os.chdir(repo)
    try:
        return CliRunner().invoke(cli, ["diff", *args])
    finally:
        os.chdir(old)


def test_new_failure_exits_1(repo):
    path, c1, c2, _ = repo
    result = _diff(path, c1, c2)
    assert result.exit_code == 1, result.output
    out = result.output
    assert "NEW   pkg.a  [normal]  ImportError: cannot import name 'A' from partially " \
           "initialized module 'pkg.a'" in out
    assert "pkg.a  pkg/a.py:1  from .b import B" in out  # chain with the source of that rev
    assert "-> pkg.b  pkg/b.py:1  from .a import A" in out
    assert "4 new failures, 0 fixed" in out and out.rstrip().endswith(": worse")
    assert "/importsafe-diff-" not in out  # no temporary paths leak


def test_fixed_failure_exits_0_and_json(repo):
    path, _, c2, c3 = repo
    result = _diff(path, c2, c3, "--format", "json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["worse"] is False and doc["new_failures"] == []
    keys = {(r["entry"], r["mode"], r["error"]["exception"], r["error"]["module"],
             r["error"]["name"]) for r in doc["fixed_failures"]}
    assert keys == {("pkg.a", m, "ImportError", "pkg.a", "A") for m in ("normal", "bare")} | \
        {("pkg.b", m, "ImportError", "pkg.b", "B") for m in ("normal", "bare")}
    assert doc["fixed_failures"][0]["error"]["chain"][0]["file"] == os.path.join("pkg", "a.py")
    assert doc["base"]["commit"] == c2 and doc["head"]["commit"] == c3
    assert doc["base"]["paths"] == ["pkg"] and doc["head"]["failing"] == 0
    assert doc["lost_modules"] == [] and doc["lost_names"] == []


def test_head_defaults_to_HEAD_and_work_tree_untouched(repo):
    path, c1, _, c3 = repo
    (path / "pkg" / "a.py").write_text("this is not python (\n")  # uncommitted edit
    (path / "pkg" / "new.py").write_text("import nothing_here\n")  # untracked file
    try:
        status_before = _git(path, "status", "--porcelain")
        result = _diff(path, c3)  # c3 vs HEAD (= c3): the committed code, not the work tree
        assert result.exit_code == 0, result.output
        assert "0 new failures, 0 fixed" in result.output
        assert _git(path, "status", "--porcelain") == status_before
        assert (path / "pkg" / "a.py").read_text() == "this is not python (\n"
        assert _git(path, "rev-parse", "HEAD") == c3
    finally:
        _git(path, "checkout", "-q", "--", "pkg/a.py")
        (path / "pkg" / "new.py").unlink()


def test_path_option_and_bad_revision(repo):
    path, c1, c2, _ = repo
    result = _diff(path, c1, c2, "--path", "pkg/b.py", "--mode", "bare")
    assert result.exit_code == 1
    assert "NEW   pkg.b  [bare]" in result.output and "pkg.a  [" not in result.output
    bad = _diff(path, "no-such-rev", c2)
    assert bad.exit_code == 2 and "unknown revision: no-such-rev" in bad.output


def test_materialise_reads_git_objects_only(repo, tmp_path):
    path, c1, _, _ = repo
    n = gitdiff.materialise(str(path), c1, str(tmp_path))
    assert n == 3  # the three .py files; README is not needed
    assert (tmp_path / "pkg" / "b.py").read_text() == "from .a import A\nB = 2\n"
    assert not (tmp_path / "README").exists()


def _rev(entries, packages=None, bindings=None) -> Revision:
    return Revision("r", "0" * 40, ("pkg",), (), tuple(entries), packages or {},
                    bindings or {}, {})


def test_compat_changes_are_worse():
    base = _rev(["pkg", "pkg.a", "pkg.b"], {"pkg": frozenset({"pkg", "pkg.a", "pkg.b"})},
                {"pkg.a": frozenset({"A", "helper"}), "pkg.b": frozenset({"B"})})
    head = _rev(["pkg", "pkg.a"], {"pkg": frozenset({"pkg", "pkg.a"})},
                {"pkg.a": frozenset({"A"})})
    d = compare(base, head)
    assert d.lost_modules == (("pkg", ("pkg.b",)),)
    assert d.lost_names == (("pkg.a", ("helper",)),)
    assert d.removed == ("pkg.b",)
    assert d.worse and not d.new
    text = gitdiff.render_text(d)
    assert "LOST  `import pkg` no longer loads pkg.b" in text
    assert "LOST  no longer bound in pkg.a: helper" in text
    assert not compare(head, base).worse  # gaining modules and names is fine


def test_lost_name_and_module_between_commits(tmp_path):
    """A package that stops importing a submodule and a module that drops a name."""
    repo = tmp_path / "r"
    repo.mkdir()
    _git(repo, "init", "-q")
    _git(repo, "config", "user.name", "t")
    _git(repo, "config", "user.email", "t@example.invalid")
    c1 = _commit(repo, {"src/lib/__init__.py": "from . import util\n",
                        "src/lib/util.py": "def helper():\n    pass\nVALUE = 1\n",
                        "pyproject.toml": '[tool.importsafe]\npaths = ["src/lib"]\n'}, "c1")
    c2 = _commit(repo, {"src/lib/__init__.py": "", "src/lib/util.py": "VALUE = 1\n"}, "c2")
    result = _diff(repo, c1, c2, "--format", "json")
    assert result.exit_code == 1, result.output
    doc = json.loads(result.output)
    assert doc["base"]["paths"] == [os.path.join("src", "lib")]
    # nothing reads lib.util through `import lib`, and `util` was bound by the import that
    # went: both compat information; the def `helper` is lost
    assert doc["lost_modules"] == [] and doc["compat"]["modules"] == [
        {"package": "lib", "modules": ["lib.util"]}]
    assert doc["lost_names"] == [{"module": "lib.util", "names": ["helper"]}]
    assert doc["compat"]["names"] == [{"module": "lib", "names": ["util"]}]
    assert doc["new_failures"] == [] and doc["worse"] is True


def _example_repo(tmp_path):
    from test_cli import EXAMPLE
    repo = tmp_path / "r"
    shutil.copytree(EXAMPLE, repo / "compiler_pkg")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.name", "t")
    _git(repo, "config", "user.email", "t@example.invalid")
    _git(repo, "add", "-A")
    _git(repo, "commit", "-q", "-m", "example")
    return repo, _git(repo, "rev-parse", "HEAD")


def test_a_fix_commit_is_better(tmp_path):
    from test_cli import run_cli
    repo, c1 = _example_repo(tmp_path)
    proc = run_cli("fix", repo / "compiler_pkg", "--write")
    assert "wrote 2 file(s)" in proc.stdout, proc.stdout
    c2 = _commit(repo, {}, "fix --write")
    result = _diff(repo, c1, c2)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "NEW " not in out and "LOST " not in out
    assert "0 new failures, 3 fixed" in out and out.rstrip().endswith(": better")
    # the moved imports' names are information, not losses
    assert "COMPAT imports moved out of compiler_pkg.verifier's top level: CaptureConfig" in out
    doc = json.loads(_diff(repo, c1, c2, "--format", "json").output)
    assert doc["verdict"] == "better" and doc["worse"] is False


def test_a_commit_adding_a_cycle_is_worse(tmp_path):
    repo, c1 = _example_repo(tmp_path)
    c2 = _commit(repo, {"compiler_pkg/ir.py": "from .passes import describe\n"
                        + (repo / "compiler_pkg" / "ir.py").read_text()}, "cycle")
    result = _diff(repo, c1, c2)
    assert result.exit_code == 1, result.output
    assert "NEW   compiler_pkg." in result.output and result.output.rstrip().endswith(": worse")


def _new_repo(path):
    path.mkdir()
    _git(path, "init", "-q")
    _git(path, "config", "user.name", "importsafe tests")
    _git(path, "config", "user.email", "tests@example.invalid")
    return path


def test_still_failing_for_another_reason_is_not_new(tmp_path):
    repo = _new_repo(tmp_path / "r")
    c1 = _commit(repo, {"pkg/__init__.py": "", "pkg/a.py": "from .b import B\nA = 1\n",
                        "pkg/b.py": "from .a import A\nB = 1\n"}, "c1")
    c2 = _commit(repo, {"pkg/b.py": "from .a import A2\nB = 1\n"}, "c2")  # pkg.a: A2 now
    result = _diff(repo, c1, c2)
    assert result.exit_code == 0, result.output
    assert "still failing (reason changed)" in result.output and "NEW " not in result.output
    assert "0 new failures, 0 fixed, 2 still failing (reason changed)" in result.output


def test_path_that_does_not_exist_is_an_error(repo):
    path, c1, c2, _ = repo
    result = _diff(path, c1, c2, "--path", "no/such/dir")
    assert result.exit_code == 2 and "no such path" in result.output


def test_every_format_of_a_diff(repo, tmp_path):
    """c1 -> c2 adds a cycle; every format shows the new failures, SARIF that GitHub takes
    (schema and upload rules), the exit status and --exit-zero / -o as for check."""
    from test_formats import validate_sarif
    from test_sarif import github_problems
    path, c1, c2, _ = repo
    for fmt in ("sarif", "github", "junit", "html"):
        out = tmp_path / f"diff.{fmt}"
        proc = _diff(path, c1, c2, "--format", fmt, "-o", str(out))
        assert proc.exit_code == 1, proc.output
        text = out.read_text()
        assert "pkg.a" in text and "pkg.b" in text, (fmt, text[:500])
    doc = json.loads((tmp_path / "diff.sarif").read_text())
    validate_sarif(doc)
    assert not github_problems(doc)
    assert {r["ruleId"] for r in doc["runs"][0]["results"]} == {"IS101"}
    assert "::error file=pkg/" in (tmp_path / "diff.github").read_text()
    assert _diff(path, c1, c2, "--format", "junit", "--exit-zero").exit_code == 0
    stats = _diff(path, c1, c2, "--statistics")
    assert "IS101" in stats.output and stats.exit_code == 1


def test_diff_formats_show_old_failures_as_baselined_and_removed_modules(tmp_path):
    repo = _new_repo(tmp_path / "r")
    c1 = _commit(repo, {"pkg/__init__.py": "", "pkg/a.py": "from .b import B\nA = 1\n",
                        "pkg/b.py": "from .a import A\nB = 2\n", "pkg/gone.py": "G = 1\n"}, "c1")
    (repo / "pkg" / "gone.py").unlink()
    c2 = _commit(repo, {"pkg/c.py": "C = 3\n"}, "c2")
    proc = _diff(repo, c1, c2, "--format", "sarif")
    assert proc.exit_code == 1  # a module removed is worse
    results = json.loads(proc.output)["runs"][0]["results"]
    removed = [r for r in results if r["ruleId"] == "IS403"]
    assert len(removed) == 1 and "pkg.gone" in removed[0]["message"]["text"]
    cycle = [r for r in results if r["ruleId"] == "IS101"]
    assert cycle and all(r.get("suppressions") for r in cycle)  # failing in c1 too
    junit = _diff(repo, c1, c2, "--format", "junit").output
    assert "<failure" not in junit and "baselined" in junit
