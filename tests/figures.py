"""Figures that chunked tests add up: each chunk records its counts (`tally`), and the
summary prints one line per figure from the sums, whichever xdist worker ran each chunk."""
from __future__ import annotations

MODES = ("normal", "bare", "lazy")


def distribution(c: dict) -> str:
    """`failing pairs 41%: ImportError 1203, ...` plus per-mode and per-package shape, from
    the counts of randpkg packages run in CPython (see test_differential.count_outcomes)."""
    kinds = sorted(((k[5:], v) for k, v in c.items() if k.startswith("kind.")),
                   key=lambda kv: (-kv[1], kv[0]))
    total = sum(c.get(f"pairs.{m}", 0) for m in MODES)
    failing = sum(v for _, v in kinds)
    text = f"failing pairs {100 * failing / max(total, 1):.0f}%: " + ", ".join(
        f"{k} {v}" for k, v in kinds)
    modes = ", ".join(f"{m} {100 * c.get(f'fail.{m}', 0) / max(c.get(f'pairs.{m}', 0), 1):.0f}%"
                      for m in MODES)
    return (f"{text}; failing by mode: {modes}; packages all ok {c.get('all_ok', 0)}, "
            f"all failing {c.get('all_fail', 0)}, of {c.get('packages', 0)}")


def differential(c: dict) -> list[str]:
    agree, total = c.get("agree", 0), c.get("total", 0)
    return [f"differential: {agree}/{total} (entry, mode) agree "
            f"({100 * agree / max(total, 1):.2f}%) over {c.get('packages', 0)} packages; "
            f"{distribution(c)}",
            "  by mode: " + ", ".join(
                f"{m} {c.get(f'agree.{m}', 0)}/{c.get(f'total.{m}', 0)}" for m in MODES)
            + f" (lazy: PEP 810 emulation); {c.get('explicit', 0)} packages write explicit "
            f"`lazy` imports; {c.get('skimmed', 0)} files parsed without function bodies "
            f"(bytecode present); {c.get('assumed', 0)} results rest on the ordinary-order "
            "rule"]


def fix_random(c: dict) -> list[str]:
    return [f"fix on random packages: {c.get('failing', 0)} failing of {c.get('packages', 0)}; "
            f"fixed completely {c.get('fixed', 0)}, partly {c.get('partly', 0)}, no safe edit "
            f"{c.get('none', 0)}; CPython disagreements {c.get('problems', 0)}"]


RENDER = {"differential": differential, "fix-random": fix_random}


def render(name: str, counts: dict) -> list[str]:
    return RENDER[name](counts)
