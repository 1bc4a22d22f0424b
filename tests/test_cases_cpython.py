"""Every fixture's expectations are checked against real CPython, so they cannot drift."""
import pytest

from support import case_dirs, case_env, case_python, outcome_key, read_expected, run_cpython


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_expectations_match_cpython(case):
    expected = read_expected(case)
    assert expected, f"{case.name}: expected.txt lists nothing"
    python = case_python(case)
    if python is None:
        pytest.skip(f"{case.name} needs an interpreter that is not installed here")
    results = run_cpython([case], [(e.entry, e.mode) for e in expected], python=python,
                          variables=case_env(case))
    got = {(r["entry"], r["mode"]): outcome_key(r) for r in results}
    wrong = [(e.entry, e.mode, e.key, got.get((e.entry, e.mode))) for e in expected
             if got.get((e.entry, e.mode)) != e.key]
    assert not wrong, "expected vs CPython:\n" + "\n".join(map(str, wrong))
