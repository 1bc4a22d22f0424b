"""simulate_pairs: a normal-mode entry below a package whose own first import fails gets that
failure without a simulation of its own, and a top-level module's bare result is its normal
one; both must equal the full simulation."""
from __future__ import annotations

import randpkg
from test_cli import EXAMPLE

from importsafe import api
from importsafe.static.simulate import simulate, simulate_modules, simulate_pairs


def _compare(path) -> tuple[int, int]:
    loaded = api.load([str(path)], memo=False)
    pairs = [(e, m) for e in loaded.entries for m in ("normal", "bare")]
    calls = []

    def counted(entry, mode, program):
        calls.append((entry, mode))
        return simulate_modules(entry, mode, program)
    with api.deep_recursion():
        derived = [r for r, _ in simulate_pairs(pairs, loaded.program, counted)]
        full = [simulate(e, m, loaded.program) for e, m in pairs]
    assert derived == full, path
    preloaded = sum(1 for (e, m), r in zip(pairs, derived)
                    if m == "normal" and r.outcome == "ok" and (e, m) not in calls)
    return len(pairs) - len(calls), preloaded  # results taken from another run


def test_derived_results_equal_full_simulation(tmp_path):
    saved, preloaded = _compare(EXAMPLE)
    for seed in range(150):
        more = _compare(randpkg.write(randpkg.generate(seed), tmp_path / f"s{seed}"))
        saved, preloaded = saved + more[0], preloaded + more[1]
    assert saved > preloaded > 0, "a shortcut was never exercised"


def test_a_submodule_its_parent_imports_is_not_simulated(tmp_path):
    """`import p.a` where `p/__init__` imports `p.a`: ok once `p` is, with p's modules; a
    sibling the package does not import is simulated."""
    pkg = tmp_path / "p"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import a\n")
    (pkg / "a.py").write_text("A = 1\n")
    (pkg / "b.py").write_text("from .a import A\n")
    loaded = api.load([str(pkg)], memo=False)
    calls = []

    def counted(entry, mode, program):
        calls.append(entry)
        return simulate_modules(entry, mode, program)
    pairs = [(e, "normal") for e in loaded.entries]
    found = dict(zip(loaded.entries, simulate_pairs(pairs, loaded.program, counted)))
    assert calls == ["p", "p.b"]
    assert found["p.a"][0].outcome == "ok" and found["p.a"][1] == found["p"][1]
