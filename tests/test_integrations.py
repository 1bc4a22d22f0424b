"""`importsafe gen-test`, the pre-commit hook and the GitHub Action definitions."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import importsafe
from importsafe.cli import cli

REPO = Path(__file__).resolve().parents[1]

PACKAGES = {
    "good/__init__.py": "",
    "good/m.py": "V = 1\n",
    "bad/__init__.py": "X = 1\n",
    "bad/a.py": "from .b import B\nA = 1\n",  # a <-> b cycle: fails first in both modes
    "bad/b.py": "from .a import A\nB = 2\n",
    "bad/sub.py": "from . import X\n",  # needs bad/__init__: fails in bare mode only
}


def _write(root: Path, files: dict) -> None:
    for path, text in files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)


def _invoke(cwd: Path, *args):
    old = os.getcwd()
    os.chdir(cwd)
    try:
        return CliRunner().invoke(cli, list(args))
    finally:
        os.chdir(old)


def _run_pytest(cwd: Path, *args) -> subprocess.CompletedProcess:
    """pytest in a fresh interpreter where `import importsafe` fails: the generated file must
    not need importsafe."""
    blocker = cwd / "_no_importsafe"
    blocker.mkdir(exist_ok=True)
    (blocker / "importsafe.py").write_text("raise ImportError('importsafe is not needed')\n")
    env = dict(os.environ, PYTHONPATH=str(blocker), PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider",
                           "-p", "no:importsafe", "-p", "no:hypothesispytest",
                           "-p", "no:benchmark", *args],
                          cwd=str(cwd), env=env, capture_output=True, text=True, timeout=120)


def test_gen_test_writes_a_standalone_file_whose_failures_are_the_predicted_ones(tmp_path):
    _write(tmp_path, PACKAGES)
    result = _invoke(tmp_path, "gen-test", "good", "bad")
    assert result.exit_code == 0, result.output
    out = tmp_path / "tests" / "test_importsafe_first_imports.py"
    assert "wrote tests/test_importsafe_first_imports.py: 12 (module, mode) cases" in \
        result.output.replace(os.sep, "/")
    text = out.read_text()
    assert "import importsafe" not in text and "from importsafe" not in text
    assert "module_from_spec" in text and "PathFinder.find_spec" in text

    proc = _run_pytest(tmp_path, str(out))
    failed = set(re.findall(r"FAILED \S+::test_first_import\[(\S+?)-(normal|bare)\]",
                            proc.stdout))
    expected = {("bad.a", "normal"), ("bad.a", "bare"), ("bad.b", "normal"),
                ("bad.b", "bare"), ("bad.sub", "bare")}
    assert failed == expected, proc.stdout + proc.stderr
    assert "5 failed, 7 passed" in proc.stdout
    assert "cannot import name 'A' from partially initialized module 'bad.a'" in proc.stdout
    # ... and they are exactly the (entry, mode) the static check predicts to fail
    report = importsafe.check([str(tmp_path / "good"), str(tmp_path / "bad")])
    assert {(r.entry, r.mode) for r in report.results if r.outcome == "error"} == expected


def test_gen_test_options_and_refusing_a_foreign_file(tmp_path):
    _write(tmp_path, PACKAGES)
    target = tmp_path / "checks" / "test_first.py"
    result = _invoke(tmp_path, "gen-test", "good", "-o", str(target), "--mode", "bare")
    assert result.exit_code == 0, result.output
    assert "2 (module, mode) cases" in result.output
    proc = _run_pytest(tmp_path / "checks", "test_first.py")  # roots relative to the file
    assert proc.returncode == 0 and "2 passed" in proc.stdout, proc.stdout + proc.stderr
    # regenerating over its own file is fine; over someone else's needs --force
    assert _invoke(tmp_path, "gen-test", "good", "-o", str(target)).exit_code == 0
    target.write_text("def test_mine(): pass\n")
    refused = _invoke(tmp_path, "gen-test", "good", "-o", str(target))
    assert refused.exit_code == 2 and "--force" in refused.output
    assert target.read_text() == "def test_mine(): pass\n"
    assert _invoke(tmp_path, "gen-test", "good", "-o", str(target), "--force").exit_code == 0
    assert _invoke(tmp_path, "gen-test", "missing").exit_code == 2


def _yaml():
    return pytest.importorskip("yaml")


def test_pre_commit_hook_definition():
    hooks = _yaml().safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert isinstance(hooks, list)
    hook = next(h for h in hooks if h["id"] == "importsafe")
    assert hook["entry"] == "importsafe check"
    assert hook["language"] == "python"
    assert hook["pass_filenames"] is False
    assert hook["types"] == ["python"]
    assert "importsafe" in importsafe_scripts()


def importsafe_scripts() -> set[str]:
    """The console scripts pyproject.toml declares (what `entry` can name)."""
    import tomllib
    with open(REPO / "pyproject.toml", "rb") as f:
        data = tomllib.load(f)
    return set(data["project"]["scripts"])


def test_github_action_definition():
    """The action works on a default ubuntu-24.04 runner: a Python from setup-python (its
    environment untouched) unless one is given, importsafe in its own venv (the runner's
    system Python is externally managed), upload-sarif v4 behind `upload`, a failing job
    only for failing imports."""
    action = _yaml().safe_load((REPO / "action.yml").read_text())
    inputs = action["inputs"]
    assert set(inputs) >= {"paths", "modes", "python-version", "python", "upload", "args"}
    assert all(i["required"] is False for i in inputs.values())
    assert inputs["upload"]["default"] == "true"
    steps = action["runs"]["steps"]
    assert action["runs"]["using"] == "composite"
    setup = next(s for s in steps if str(s.get("uses", "")).startswith("actions/setup-python@"))
    assert setup["if"] == "${{ inputs.python == '' }}"
    assert setup["with"]["update-environment"] is False
    install = next(s for s in steps if "pip install" in s.get("run", ""))
    assert "-m venv" in install["run"] and "github.action_path" in str(install)
    assert "GITHUB_PATH" not in install["run"]  # the job's own python stays first on PATH
    assert "python -m pip install" not in install["run"].replace('"$bin/python"', "")
    check = next(s for s in steps if "importsafe check" in s.get("run", ""))
    assert "--format sarif --output-file" in check["run"]
    upload = next(s for s in steps if str(s.get("uses", "")).startswith("github/codeql-action/"))
    assert upload["uses"] == "github/codeql-action/upload-sarif@v4"
    assert "inputs.upload == 'true'" in upload["if"] and upload["if"].startswith("${{ always()")
    fail = steps[-1]
    assert "exit-code == '1'" in fail["if"] and "exit 1" in fail["run"]
    assert all("shell" in s for s in steps if "run" in s)  # composite steps need a shell
    text = (REPO / "action.yml").read_text() + (REPO / ".pre-commit-hooks.yaml").read_text()
    assert "OWNER/" not in text and "@v0.1.0" not in text


def _actionlint() -> str:
    """The actionlint of the test extras (a PyPI wheel that ships the binary)."""
    import shutil
    found = Path(sys.executable).parent / "actionlint"
    path = str(found) if found.exists() else shutil.which("actionlint")
    assert path, "actionlint is missing: pip install -e '.[test]'"
    return path


def _lint(root: Path, workflow: Path) -> subprocess.CompletedProcess:
    return subprocess.run([_actionlint(), "-no-color", "-shellcheck=", "-pyflakes=",
                           str(workflow.relative_to(root))], cwd=root, capture_output=True,
                          text=True, timeout=120)


def test_workflow_uses_the_action_and_passes_actionlint(tmp_path):
    workflow = REPO / ".github" / "workflows" / "importsafe.yml"
    doc = _yaml().safe_load(workflow.read_text())
    (job,) = doc["jobs"].values()
    assert job["runs-on"] == "ubuntu-24.04"
    assert job["permissions"] == {"contents": "read", "security-events": "write",
                                  "actions": "read"}
    step = next(s for s in job["steps"] if s.get("uses") == "./")
    assert set(step["with"]) <= set(_yaml().safe_load((REPO / "action.yml").read_text())
                                    ["inputs"])
    proc = _lint(REPO, workflow)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    # the check can fail: an input the action does not have, an expression that does not parse
    (tmp_path / ".github" / "workflows").mkdir(parents=True)
    (tmp_path / "action.yml").write_text((REPO / "action.yml").read_text())
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)  # actionlint's root
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.write_text(workflow.read_text().replace("modes: normal,bare", "mode: normal")
                   .replace("github.event_name != 'pull_request'", "github.event_name !="))
    proc = _lint(tmp_path, bad)
    assert proc.returncode == 1 and '"mode"' in proc.stdout and "expression" in proc.stdout, \
        proc.stdout


def test_sarif_format_the_action_uses_exists():
    if not (REPO / "src" / "importsafe" / "report" / "sarif.py").exists():
        pytest.skip("the SARIF renderer is not there yet")
    result = CliRunner().invoke(cli, ["check", "--help"])
    assert "sarif" in result.output


def test_pytest11_entry_point_declared():
    import tomllib
    with open(REPO / "pyproject.toml", "rb") as f:
        data = tomllib.load(f)
    assert data["project"]["entry-points"]["pytest11"] == {
        "importsafe": "importsafe.integrations.pytest_plugin"}


def test_gen_test_lazy_cases_need_python_315(tmp_path):
    """Mode lazy in a standalone file: run under `sys.set_lazy_imports("all")` on 3.15+,
    skipped (with the reason) before; importsafe's own emulation is not copied into it."""
    _write(tmp_path, PACKAGES)
    result = _invoke(tmp_path, "gen-test", "bad", "--mode", "lazy")
    assert result.exit_code == 0, result.output
    out = tmp_path / "tests" / "test_importsafe_first_imports.py"
    assert 'sys.set_lazy_imports("all")' in out.read_text()
    proc = _run_pytest(tmp_path, str(out), "-rs")
    if sys.version_info < (3, 15):
        assert " skipped" in proc.stdout and "need Python 3.15+" in proc.stdout, proc.stdout
        assert "failed" not in proc.stdout
