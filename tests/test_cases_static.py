"""The static prediction equals the fixture expectations (which CPython itself checks)."""
import pytest

import importsafe
from support import case_dirs, case_target, outcome_key, read_expected
from importsafe.report.json import result_dict


@pytest.mark.parametrize("case", case_dirs(), ids=lambda p: p.name)
def test_static_prediction_matches_expectations(case):
    expected = read_expected(case)
    modes = tuple(dict.fromkeys(e.mode for e in expected))
    report = importsafe.check([str(case)], modes=modes, target_version=case_target(case))
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
    assert not wrong, "expected vs static:\n" + "\n".join(map(str, wrong))
