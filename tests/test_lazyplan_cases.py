"""Every effect kind against reality: each fixture under tests/lazy_cases/ is a package, a
scenario (scenario.py) and the import statement to make lazy (case.toml). The scenario runs
eagerly and with that one import lazy (lazyscenario.HOW says how: on this machine, without
Python 3.15, importsafe's PEP 810 emulation), and the plan's verdict on the statement must
match what the scenario shows: lazy-safe exactly when the output is the same. The expected
verdict and codes in case.toml are checked too, so a scenario that cannot tell the two apart
fails the test instead of passing it. A case's `[variants.NAME]` are more statements of the
same package, each with its own scenario (a hazard and its controls, without copies)."""
from __future__ import annotations

from pathlib import Path

import pytest

from importsafe.lazyplan.apply import lazy_plan
from lazyscenario import HOW, case_checks, copy_case, make_one_lazy, run_scenario

CASES = sorted(p for p in (Path(__file__).parent / "lazy_cases").iterdir()
               if (p / "case.toml").is_file())
EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "compiler_pkg"


def verdict_for(plan, root: Path, statement: str):
    rel, _, line = statement.rpartition(":")
    path = str((root / rel).resolve())
    found = [v for v in plan.statements if v.file == path and v.line == int(line)]
    assert found, f"no record for {statement} in the plan"
    return found[0]


def check(root: Path, package: str, statement: str, scenario: Path, expected: dict):
    plan = lazy_plan([str(root / package)], target_version=(3, 15))
    verdict = verdict_for(plan, root, statement)
    eager = run_scenario(root, scenario, lazy=False)
    make_one_lazy(root, statement)
    lazy = run_scenario(root, scenario, lazy=True)
    same = eager == lazy
    codes = {r.code for r in verdict.reasons}
    detail = f"eager:\n{eager}\nlazy ({HOW}):\n{lazy}\nreasons: {verdict.reasons}"
    assert "EXC" not in eager, detail  # the scenario itself works eagerly
    assert verdict.lazy_safe == same, detail
    assert verdict.lazy_safe == expected["lazy_safe"], detail
    assert set(expected.get("codes", ())) <= codes, detail
    return plan, verdict


CHECKS = [(case, *found) for case in CASES for found in case_checks(case)]


@pytest.mark.parametrize("case, name, statement, scenario, spec", CHECKS,
                         ids=[c[1] for c in CHECKS])
def test_verdict_matches_the_scenario(case, name, statement, scenario, spec, tmp_path):
    root = copy_case(case, tmp_path / case.name)
    package = statement.split("/")[0]
    check(root, package, statement, root / scenario.relative_to(case), spec)


def test_bundled_example_jit_registry(tmp_path):
    """The issue's case: `compiler_pkg.get_backend("jit")` raises LookupError once
    `from .jit import JitBackend` in compiler_pkg/__init__.py is lazy, because nothing reads
    `JitBackend` before the lookup."""
    root = tmp_path / "ex"
    copy_case(EXAMPLE, root / "compiler_pkg")
    scenario = root / "scenario.py"
    scenario.write_text("import compiler_pkg\n"
                        "print(type(compiler_pkg.get_backend('jit')).__name__)\n")
    plan, verdict = check(root, "compiler_pkg", "compiler_pkg/__init__.py:13", scenario,
                          {"lazy_safe": False, "codes": ["IS111"]})
    reason = next(r for r in verdict.reasons if r.code == "IS111")
    assert reason.file.endswith("jit.py") and reason.line == 5  # the @register_backend
    assert reason.reader[0].endswith("backend_api.py") and reason.reader[1] == 53  # get_backend
    assert plan.modules["compiler_pkg.jit"].eager
    assert sum(not v.lazy_safe for v in plan.statements) == 1


def test_the_lazy_run_really_is_lazy(tmp_path):
    """A scenario that cannot see the difference proves nothing if the import was not lazy:
    under the emulation the module made lazy has not run before its name is read."""
    case = next(c for c in CASES if c.name == "control_pure_definitions")
    root = copy_case(case, tmp_path / "c")
    scenario = root / "probe.py"
    scenario.write_text("import sys\nimport lz_pure\nprint('lz_pure.shapes' in sys.modules)\n"
                        "lz_pure.area\nprint('lz_pure.shapes' in sys.modules)\n")
    assert run_scenario(root, scenario, lazy=False) == "True\nTrue\n"
    make_one_lazy(root, "lz_pure/__init__.py:1")
    assert run_scenario(root, scenario, lazy=True) == "False\nTrue\n"
