"""simulate_pairs: a normal-mode entry below a package whose own first import fails gets that
failure without a simulation of its own, and a top-level module's bare result is its normal
one; both must equal the full simulation."""
from __future__ import annotations

import randpkg
from test_cli import EXAMPLE

from importsafe import api
from importsafe.static.simulate import simulate, simulate_modules, simulate_pairs


def _compare(path) -> int:
    loaded = api.load([str(path)], memo=False)
    pairs = [(e, m) for e in loaded.entries for m in ("normal", "bare")]
    calls = []

    def counted(entry, mode, program):
        calls.append(entry)
        return simulate_modules(entry, mode, program)
    with api.deep_recursion():
        derived = [r for r, _ in simulate_pairs(pairs, loaded.program, counted)]
        full = [simulate(e, m, loaded.program) for e, m in pairs]
    assert derived == full, path
    return len(pairs) - len(calls)  # results taken from a failing ancestor


def test_derived_normal_results_equal_full_simulation(tmp_path):
    saved = _compare(EXAMPLE)
    for seed in range(150):
        saved += _compare(randpkg.write(randpkg.generate(seed), tmp_path / f"s{seed}"))
    assert saved > 0, "no entry below a failing package: the shortcut was never exercised"
