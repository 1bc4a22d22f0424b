"""A call of a decorated class's function at import time: replayed as the class's own, an
assumption of the result (kind "decorator"), unknown with --strict (tests/cases/method_call)."""
from pathlib import Path

from importsafe import api

CASE = Path(__file__).parent / "cases" / "method_call"


def test_decorated_class_call_is_an_assumption_and_strict_makes_it_unknown():
    plain = {(r.entry, r.mode): r for r in api.check([str(CASE / "mcd")]).results}
    strict = {(r.entry, r.mode): r for r in api.check([str(CASE / "mcd")], strict=True).results}
    ok = plain[("mcd.shapes", "normal")]
    assert ok.outcome == "ok"
    assert [(a.kind, a.name, a.line) for a in ok.assumes] == [("decorator", "Shape.default", 27)]
    assert strict[("mcd.shapes", "normal")].outcome == "unknown"
    # the failure comes first (Point.origin(), @dataclass: no assumption), strict or not
    assert plain[("mcd.shapes", "bare")].outcome == strict[("mcd.shapes", "bare")].outcome \
        == "error"
    # an undecorated class's function needs no assumption
    assert not any(r.assumes for r in api.check([str(CASE / "mco")]).results)
