#!/usr/bin/env python3
"""How long `importsafe fix --diff` takes beside `importsafe check` on the same tree.

    python3 benchmarks/fix.py [--trees example,django,sphinx] [--timeout S] [--json OUT]

Trees: the bundled example (examples/compiler_pkg, modes normal,bare); Django (PINS in
common.py; `django.db.backends.*.operations` fail in normal mode: two cycles through
django.db.models) in normal mode; Sphinx (SPHINX below) in bare mode, where 174 of its 240
modules fail (its package `__init__` never runs); executorch's `exir` package (EXECUTORCH, a
platform wheel; `--source-root .`) in bare mode, where its backend API and its program
package import each other. Each wheel is fetched with
`pip download --no-deps --only-binary=:all:` into benchmarks/.work/wheels/ and unpacked (a
wheel is a zip) into benchmarks/.work/fix/TREE/, once; nothing is installed there. importsafe
(this checkout's src/) runs with the interpreter of the benchmark venv
(benchmarks/.work/venv, common.ensure_venv: importsafe's pinned runtime dependencies and
libcst). Per tree, one cold run of each:

    importsafe check TREE --mode M --no-cache
    importsafe fix TREE --mode M --diff

measured by common.measure_run (wall time, CPU of the process and its children, peak RSS of
the largest process). Printed: pairs failing before and after the fix, files edited, wall and
CPU of both, the ratio fix/check (wall), fix's peak memory; then the targets, PASS or FAIL:
ratio <= 5 and peak < 1 GiB on every tree.
"""
from __future__ import annotations

import argparse
import json
import re
import shutil
import sys
import zipfile
from pathlib import Path

from common import (IMPORTSAFE_DEPS, PINS, WORK, BenchError, ensure_venv, importsafe_command,
                    measure_run, tail)

HERE = Path(__file__).resolve().parent
EXAMPLE = HERE.parent / "examples" / "compiler_pkg"
WHEELS = WORK / "wheels"
TREES = WORK / "fix"
SPHINX = "Sphinx==9.0.4"
EXTRA_PINS = ("libcst==1.9.0",)  # fix edits with libcst
EXECUTORCH = "executorch==1.5.1"
# tree -> (pin or None for the example, the path checked, modes, further arguments)
TREE_SPECS = {"example": (None, "compiler_pkg", "normal,bare", ()),
              "django": (PINS["django"], "django", "normal", ()),
              "sphinx": (SPHINX, "sphinx", "bare", ()),
              "executorch": (EXECUTORCH, "executorch/exir", "bare", ("--source-root", "."))}
RATIO_TARGET = 5.0
PEAK_TARGET_MB = 1024.0


def fetch(name: str, pin: str | None, top: str, timeout: float) -> Path:
    """The tree's directory holding `top`: the example copied, a wheel unpacked (once)."""
    tree = TREES / name
    marker = tree / ".importsafe-bench-pin"
    if marker.is_file() and marker.read_text() == (pin or str(EXAMPLE)):
        return tree
    shutil.rmtree(tree, ignore_errors=True)
    tree.mkdir(parents=True)
    if pin is None:
        shutil.copytree(EXAMPLE, tree / top)
    else:
        WHEELS.mkdir(parents=True, exist_ok=True)
        m = measure_run([sys.executable, "-m", "pip", "download", "--disable-pip-version-check",
                         "--no-deps", "--only-binary=:all:", "--python-version", "3.11", "-d",
                         str(WHEELS), pin], timeout, WORK)
        if m["rc"] != 0:
            raise BenchError(f"pip download {pin} failed:\n{tail(m['stderr'] or m['stdout'], 5)}")
        project, version = pin.split("==")
        key = re.sub(r"[-_.]+", "_", project).lower()
        wheels = [w for w in WHEELS.glob("*.whl") if re.sub(r"[-_.]+", "_", w.name.split("-")[0])
                  .lower() == key and w.name.split("-")[1] == version]
        if not wheels:
            raise BenchError(f"pip download {pin} left no wheel in {WHEELS}")
        with zipfile.ZipFile(wheels[0]) as z:
            z.extractall(tree)
    marker.write_text(pin or str(EXAMPLE))
    return tree


def measure_tree(name: str, cmd: list[str], timeout: float) -> dict:
    pin, top, modes, extra = TREE_SPECS[name]
    tree = fetch(name, pin, top, timeout)
    check = measure_run([*cmd, "check", top, *extra, "--mode", modes, "--no-cache",
                         "--format", "json"], timeout, tree)
    fix = measure_run([*cmd, "fix", top, *extra, "--mode", modes, "--diff"], timeout, tree)
    if check["rc"] not in (0, 1) or fix["rc"] not in (0, 1):
        which = check if check["rc"] not in (0, 1) else fix
        raise BenchError(f"{name}: importsafe exit {which['rc']}:\n{tail(which['stderr'], 8)}")
    results = json.loads(check["stdout"])["results"]
    return {"tree": name, "modes": modes, "pairs": len(results),
            "failing": sum(r["outcome"] == "error" for r in results),
            "edited": fix["stdout"].count("\n+++ b/") + fix["stdout"].startswith("+++ b/"),
            "check_wall": check["wall"], "check_cpu": check["cpu"],
            "fix_wall": fix["wall"], "fix_cpu": fix["cpu"], "fix_peak_mb": fix["rss_mb"],
            "ratio": fix["wall"] / check["wall"] if check["wall"] else None}


def report(rows: list[dict]) -> bool:
    print(f"{'tree':10} {'modes':12} {'pairs':>6} {'failing':>8} {'edited':>7} "
          f"{'check s':>8} {'cpu':>6} {'fix s':>7} {'cpu':>6} {'fix/check':>9} {'peak MB':>8}")
    for r in rows:
        print(f"{r['tree']:10} {r['modes']:12} {r['pairs']:6} {r['failing']:8} {r['edited']:7} "
              f"{r['check_wall']:8.2f} {r['check_cpu']:6.2f} {r['fix_wall']:7.2f} "
              f"{r['fix_cpu']:6.2f} {r['ratio']:9.2f} {r['fix_peak_mb']:8.0f}")
    ok_ratio = all(r["ratio"] is not None and r["ratio"] <= RATIO_TARGET for r in rows)
    ok_peak = all(r["fix_peak_mb"] < PEAK_TARGET_MB for r in rows)
    print(f"{'PASS' if ok_ratio else 'FAIL'}  fix --diff within {RATIO_TARGET:g}x the check's "
          "wall time on every tree")
    print(f"{'PASS' if ok_peak else 'FAIL'}  fix's peak memory under {PEAK_TARGET_MB:.0f} MB "
          "on every tree")
    return ok_ratio and ok_peak


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--trees", default=",".join(TREE_SPECS),
                   help=f"comma list from: {', '.join(TREE_SPECS)}")
    p.add_argument("--timeout", type=float, default=900, help="per command, seconds")
    p.add_argument("--json", metavar="OUT", help="write the rows to OUT")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.trees.split(",") if n.strip()]
    unknown = [n for n in names if n not in TREE_SPECS]
    if unknown:
        p.error(f"unknown tree(s): {', '.join(unknown)}")
    try:
        py = ensure_venv([*IMPORTSAFE_DEPS, *EXTRA_PINS])
        cmd, _ = importsafe_command("fix", python=str(py))
        rows = [measure_tree(n, cmd, args.timeout) for n in names]
    except BenchError as exc:
        print(f"benchmarks/fix.py: {exc}", file=sys.stderr)
        return 2
    passed = report(rows)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
