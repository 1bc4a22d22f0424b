"""The pytest plugin (importsafe.integrations.pytest_plugin), run in inner pytest sessions via pytester."""
from __future__ import annotations

import os
from importlib.metadata import entry_points

import pytest

pytest_plugins = ["pytester"]

CYCLE = {
    "pkg/__init__.py": "",
    "pkg/a.py": "from .b import B\nA = 1\n",
    "pkg/b.py": "from .a import A\nB = 2\n",
    "pkg/c.py": "X = 1\n",
}
CLEAN = {
    "pkg/__init__.py": "",
    "pkg/a.py": "A = 1\n",
    "pkg/b.py": "from .a import A\nB = 2\n",
}


def _plugin_args() -> list[str]:
    """Rely on the pytest11 entry point when installed; else load the module by name."""
    installed = any(ep.value == "importsafe.integrations.pytest_plugin"
                    for ep in entry_points(group="pytest11"))
    autoload = not os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD")
    # unrelated plugins off: hypothesis' re-imports hypothesis in every inner session (~2 s)
    quiet = ["-p", "no:cacheprovider", "-p", "no:hypothesispytest", "-p", "no:benchmark"]
    return quiet + ([] if installed and autoload else ["-p", "importsafe.integrations.pytest_plugin"])


def _project(pytester, files: dict, pyproject: str | None = None) -> None:
    for path, text in files.items():
        target = pytester.path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    (pytester.path / "tests" / "unit").mkdir(parents=True)
    (pytester.path / "tests" / "other").mkdir(parents=True)
    (pytester.path / "tests" / "unit" / "test_unit.py").write_text("def test_unit(): pass\n")
    (pytester.path / "tests" / "other" / "test_other.py").write_text(
        "def test_other(): pass\n")
    if pyproject is not None:
        (pytester.path / "pyproject.toml").write_text(pyproject)


def run(pytester, *args):
    return pytester.runpytest(*_plugin_args(), *args)


def test_disabled_by_default(pytester):
    _project(pytester, CYCLE)
    result = run(pytester, "tests")
    result.assert_outcomes(passed=2)
    listing = run(pytester, "tests", "--collect-only", "-q")
    assert "importsafe::" not in listing.stdout.str()
    assert "--importsafe" in run(pytester, "--help").stdout.str()


def test_failing_and_passing_items_with_the_explanation(pytester):
    _project(pytester, CYCLE)
    result = run(pytester, "--importsafe", "tests")
    # pkg, pkg.a, pkg.b, pkg.c x normal, bare: a and b fail in both modes
    result.assert_outcomes(passed=2 + 4, failed=4)
    out = result.stdout.str()
    for node in ("importsafe::pkg.a[normal]", "importsafe::pkg.a[bare]",
                 "importsafe::pkg.b[normal]", "importsafe::pkg.b[bare]"):
        assert f"FAILED {node}" in out
    # the explanation: exception, cycle line, chain with file:line and source, why
    assert "import pkg.a  [normal]  ->  ImportError: cannot import name 'A' from partially " \
           "initialized module 'pkg.a'" in out
    assert "cycle: a -> b -> a" in out
    assert "pkg/a.py:1  from .b import B" in out
    assert "-> pkg.b  pkg/b.py:1  from .a import A" in out
    assert "why: 'A' is bound at line 2 of pkg.a, but pkg.a was still at line 1" in out
    assert "importsafe explain pkg.a pkg --mode normal" in out


def test_clean_package_passes(pytester):
    _project(pytester, CLEAN)
    result = run(pytester, "--importsafe", "tests/unit")
    result.assert_outcomes(passed=1 + 6)
    assert "importsafe: pkg (modes normal,bare)" in result.stdout.str()


def test_items_present_with_restricted_test_paths_and_selectable(pytester):
    _project(pytester, CYCLE)
    result = run(pytester, "--importsafe", "tests/unit")
    result.assert_outcomes(passed=1 + 4, failed=4)  # test_other not collected, ours are
    assert "test_other" not in result.stdout.str()
    only = run(pytester, "--importsafe", "tests/unit", "-k", "importsafe")
    only.assert_outcomes(passed=4, failed=4)
    marked = run(pytester, "--importsafe", "tests/unit", "-m", "importsafe", "-k", "not bare",
                 "--strict-markers")
    marked.assert_outcomes(passed=2, failed=2)
    run(pytester, "--importsafe", "tests/unit", "-m", "not importsafe").assert_outcomes(passed=1)
    listing = run(pytester, "--importsafe", "tests/unit/test_unit.py::test_unit",
                  "--collect-only", "-q")
    assert "importsafe::pkg.c[bare]" in listing.stdout.str()  # asked for with --importsafe
    assert "9 tests collected" in listing.stdout.str()


def test_enabled_from_pyproject_with_paths_and_mode_option(pytester):
    _project(pytester, {**{f"src/{k}": v for k, v in CYCLE.items()}},
             pyproject='[tool.importsafe]\npytest = true\nmodes = ["normal"]\n')
    result = run(pytester)  # the whole suite; src/ layout found without `paths`
    result.assert_outcomes(passed=2 + 2, failed=2)
    assert "importsafe: src (modes normal)" in result.stdout.str()
    bare = run(pytester, "--importsafe-mode", "bare")
    bare.assert_outcomes(passed=2 + 2, failed=2)
    assert "pkg.a[bare]" in bare.stdout.str()


PLUGIN_ON = '[tool.importsafe]\npytest = true\n'


def test_node_id_selection_runs_exactly_that_test(pytester):
    """With the plugin on from the configuration, naming a test runs that test alone, and
    naming a directory runs its tests alone: the items come with the whole suite only."""
    _project(pytester, CYCLE, pyproject=PLUGIN_ON)
    run(pytester, "tests/unit/test_unit.py::test_unit").assert_outcomes(passed=1)
    run(pytester, "tests/unit/test_unit.py").assert_outcomes(passed=1)
    run(pytester, "tests/unit", "tests/other").assert_outcomes(passed=2)
    run(pytester, "-k", "test_unit").assert_outcomes(passed=1)  # -k on the whole suite
    run(pytester).assert_outcomes(passed=2 + 4, failed=4)  # the whole suite: ours too
    run(pytester, ".").assert_outcomes(passed=2 + 4, failed=4)  # the rootdir: the whole suite
    run(pytester, "-k", "importsafe and pkg.c").assert_outcomes(passed=2)


def test_importsafe_items_selected_by_node_id(pytester):
    _project(pytester, CYCLE, pyproject=PLUGIN_ON)
    one = run(pytester, "importsafe::pkg.a[bare]", "-v")
    one.assert_outcomes(failed=1)
    assert "importsafe::pkg.a[bare] FAILED" in one.stdout.str()
    run(pytester, "importsafe::pkg.c").assert_outcomes(passed=2)  # both modes of pkg.c
    run(pytester, "importsafe").assert_outcomes(passed=4, failed=4)  # all of them
    both = run(pytester, "importsafe::pkg.c[normal]", "tests/unit/test_unit.py::test_unit")
    both.assert_outcomes(passed=2)


def test_a_non_boolean_pytest_key_is_a_usage_error(pytester):
    _project(pytester, CYCLE, pyproject='[tool.importsafe]\npytest = "yes"\n')
    result = run(pytester, "tests/unit")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "pytest: expected true or false, got string \"yes\"" in result.stderr.str()


def test_ini_option_and_configured_paths(pytester):
    _project(pytester, {**CYCLE, "other/__init__.py": "", "other/x.py": "Y = 1\n"},
             pyproject='[tool.pytest.ini_options]\nimportsafe = true\ntestpaths = ["tests"]\n'
                       '\n[tool.importsafe]\npaths = ["other"]\n')
    result = run(pytester, "tests")  # the testpaths: the whole suite
    result.assert_outcomes(passed=2 + 4)  # other, other.x x 2 modes; pkg not analysed


def test_bad_paths_are_a_collection_error(pytester):
    _project(pytester, CYCLE, pyproject='[tool.importsafe]\npaths = ["missing"]\n')
    result = run(pytester, "--importsafe", "tests/unit")
    result.assert_outcomes(errors=1)
    assert "importsafe: path does not exist" in result.stdout.str()
    assert result.ret != 0


def test_unknown_config_key_is_a_usage_error_only_when_enabled(pytester):
    _project(pytester, CYCLE, pyproject='[tool.importsafe]\nbogus = 1\n')
    run(pytester, "tests/unit").assert_outcomes(passed=1)
    result = run(pytester, "--importsafe", "tests/unit")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown key(s) in [tool.importsafe]: bogus" in result.stderr.str()


def test_waived_failures_are_xfail(pytester):
    # the failure site of `import pkg.a` is b.py:1 (the line the last module was running)
    _project(pytester, {**CYCLE, "pkg/b.py": "from .a import A  # importsafe: ignore\nB = 2\n"})
    result = run(pytester, "--importsafe", "tests/unit", "-rx")
    result.assert_outcomes(passed=1 + 4, failed=2, xfailed=2)
    assert "XFAIL importsafe::pkg.a[normal] - suppressed (ImportError)" in result.stdout.str()
