"""simulate_pairs: a normal- or lazy-mode entry below a package whose own first import fails
gets that failure without a simulation of its own, a top-level module's bare result is its
normal one, and a normal or lazy run starts where its parent package's run in that mode ended;
all must equal the full simulation."""
from __future__ import annotations

import randpkg
from test_cli import EXAMPLE

from importsafe import api
from importsafe.static.simulate import simulate_modules, simulate_pairs


def _compare(path) -> tuple[int, int]:
    loaded = api.load([str(path)], memo=False)
    pairs = [(e, m) for e in loaded.entries for m in ("normal", "bare", "lazy")]
    calls = []
    started = []

    def counted(entry, mode, program, **options):
        calls.append((entry, mode))
        if options.get("start") is not None:
            started.append((entry, mode))
        return simulate_modules(entry, mode, program, **options)
    with api.deep_recursion():
        found = simulate_pairs(pairs, loaded.program, counted)
        derived = [r for r, _ in found]
        full = [simulate_modules(e, m, loaded.program) for e, m in pairs]
    assert derived == [r for r, _, _ in full], path
    # a run started from its parent's state created (and read the facts of) the same modules
    assert all(made == whole[1] for (pair, (_, made), whole) in zip(pairs, found, full)
               if pair in started), path
    preloaded = sum(1 for (e, m), r in zip(pairs, derived)
                    if m != "bare" and r.outcome == "ok" and (e, m) not in calls)
    lazy = sum(1 for _, m in started if m == "lazy")
    return len(pairs) - len(calls), preloaded, len(started), lazy  # taken from another run


def test_derived_results_equal_full_simulation(tmp_path):
    saved, preloaded, started, lazy = _compare(EXAMPLE)
    for seed in range(150):
        more = _compare(randpkg.write(randpkg.generate(seed), tmp_path / f"s{seed}"))
        saved, preloaded, started, lazy = (saved + more[0], preloaded + more[1],
                                           started + more[2], lazy + more[3])
    assert saved > preloaded > 0 and started > lazy > 0, "a shortcut was never exercised"


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

    def counted(entry, mode, program, **options):
        calls.append(entry)
        return simulate_modules(entry, mode, program, **options)
    pairs = [(e, "normal") for e in loaded.entries]
    found = dict(zip(loaded.entries, simulate_pairs(pairs, loaded.program, counted)))
    assert calls == ["p", "p.b"]
    assert found["p.a"][0].outcome == "ok" and found["p.a"][1] == found["p"][1]
