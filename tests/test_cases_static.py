"""The static prediction equals the fixture expectations (which CPython itself checks)."""
import os

import pytest

import importsafe
from support import (assumed_by_kind, case_dirs, case_env, case_paths, case_target, outcome_key,
                     read_expected)
from importsafe.report.json import result_dict


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_static_prediction_matches_expectations(case):
    expected = read_expected(case)
    modes = tuple(dict.fromkeys(e.mode for e in expected))
    report = importsafe.check(case_paths(case), modes=modes, target_version=case_target(case),
                              env=case_env(case))
    got = {(r.entry, r.mode): r for r in report.results}
    listed = {(e.entry, e.mode) for e in expected}
    assert set(got) == listed, f"entries differ: static {sorted(set(got) - listed)}, " \
                               f"expected.txt {sorted(listed - set(got))}"
    wrong = []
    for e in expected:
        r = got[(e.entry, e.mode)]
        key = e.static or e.key
        if outcome_key(result_dict(r)) != key:
            wrong.append((e.entry, e.mode, key, outcome_key(result_dict(r)), r.reason))
        for kind, assumed in assumed_by_kind(r).items():
            if assumed != getattr(e, kind):
                wrong.append((e.entry, e.mode, kind, getattr(e, kind), assumed))
    assert not wrong, "expected vs static:\n" + "\n".join(map(str, wrong))


@pytest.mark.parametrize("case", [c for c in case_dirs()
                                  if any(e.assumes for e in read_expected(c))],
                         ids=lambda p: p.name)
def test_strict_makes_every_assumption_unknown(case):
    """`--strict`: the results the ordinary-order rule decided are unknown, naming the
    dynamic binding; the others are unchanged."""
    expected = read_expected(case)
    modes = tuple(dict.fromkeys(e.mode for e in expected))
    report = importsafe.check(case_paths(case), modes=modes, target_version=case_target(case),
                              strict=True, env=case_env(case))
    got = {(r.entry, r.mode): r for r in report.results}
    for e in expected:
        r = got[(e.entry, e.mode)]
        assert not assumed_by_kind(r)["assumes"]
        if any(a.startswith("order:") for a in e.assumes):
            assert r.outcome == "unknown" and "file system's order" in r.reason, (e, r)
        elif any(a.startswith("super:") for a in e.assumes):
            assert r.outcome == "unknown" and "super()" in r.reason, (e, r)
        elif any(a.startswith("object:") for a in e.assumes):
            assert r.outcome == "unknown" and "object's state" in r.reason, (e, r)
        elif e.assumes:
            assert r.outcome == "unknown" and "dynamically" in r.reason, (e, r)
        else:
            assert outcome_key(result_dict(r)) == (e.static or e.key), (e, r)
