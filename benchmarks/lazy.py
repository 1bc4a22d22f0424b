#!/usr/bin/env python3
"""importsafe's lazy-import plan beside Meta's Lifeguard, on the effect fixtures, the bundled
example, django and sympy.

    python3 benchmarks/lazy.py [--packages django,sympy] [--rounds N] [--timeout S] [--json OUT]

Setup (made once, reused): Lifeguard (PyPI lifeguard-lazy-imports 0.6.0, a Rust binary that
needs Python 3.12+) in benchmarks/.work/lifeguard-venv, made from ~/.pyenv/versions/3.12.*;
django and sympy (pinned in common.py) in the shared scratch venv (common.ensure_venv), with
importsafe's pinned dependencies. Each package is copied without `__pycache__` into
benchmarks/.work/scratch/lazy/, and every tool reads the same copy.

What each flags:
- importsafe: `importsafe lazy-plan PKG --format json`: the modules that must load eagerly
  ("modules": {...: {"eager": true}}) and the import statements that must stay eager;
- Lifeguard: `lifeguard run-tree DIR OUT`: a module of the tree that is not a key of
  LAZY_ELIGIBLE, or is in LOAD_IMPORTS_EAGERLY, is flagged (not safe to import lazily).
On each fixture (tests/lazy_cases/*, and the bundled example with its `get_backend("jit")`
scenario) the scenario runs eagerly and with the fixture's one import made lazy (PEP 810
emulated: no 3.15 here); a tool is right when it keeps that import eager exactly when the
scenario's output changes (Lifeguard: the import is kept eager when a module it runs first,
as the plan's simulation finds them, is flagged). Misses and false alarms are listed.
Times: wall clock of a fresh process (median of the rounds): Lifeguard, `importsafe lazy-plan`,
and `importsafe check` on the same copy (cold: --no-cache); the target is plan <= 1.5x check.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

from common import (IMPORTSAFE_DEPS, PINS, WORK, BenchError, ensure_venv, importsafe_command,
                    measure_run, package_dir, tail)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CASES = ROOT / "tests" / "lazy_cases"
EXAMPLE = ROOT / "examples" / "compiler_pkg"
LIFEGUARD = "lifeguard-lazy-imports==0.6.0"
LG_VENV = WORK / "lifeguard-venv"
SCRATCH = WORK / "scratch" / "lazy"
EXTRA_PINS = ("libcst==1.9.0",)  # lazy-plan writes with libcst
PLAN_TARGET = 1.5  # cold lazy-plan / cold check, same tree
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def lifeguard_bin() -> Path:
    exe = LG_VENV / "bin" / "lifeguard"
    if exe.exists():
        return exe
    pythons = sorted(glob.glob(os.path.expanduser("~/.pyenv/versions/3.12.*/bin/python")))
    if not pythons:
        raise BenchError("no Python 3.12 under ~/.pyenv/versions (Lifeguard needs 3.12+)")
    print(f"creating {LG_VENV} with {pythons[-1]} ...", flush=True)
    subprocess.run([pythons[-1], "-m", "venv", str(LG_VENV)], check=True)
    proc = subprocess.run([str(LG_VENV / "bin" / "python"), "-m", "pip", "install", "-q",
                           "--disable-pip-version-check", LIFEGUARD], capture_output=True,
                          text=True)
    if proc.returncode != 0 or not exe.exists():
        raise BenchError(f"pip install {LIFEGUARD} failed:\n{tail(proc.stderr, 10)}")
    return exe


def copy_tree(src: Path, name: str) -> Path:
    """A copy of a package directory (or a tree) without bytecode, under SCRATCH/name."""
    target = SCRATCH / name
    if target.exists():
        shutil.rmtree(target)
    shutil.copytree(src, target / src.name, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def lifeguard_flags(exe: Path, tree: Path, out: Path) -> tuple[set[str], set[str], dict]:
    """(flagged modules, every module of the tree, the run's measurement)."""
    m = measure_run([str(exe), "run-tree", str(tree), str(out)], 600, tree, ENV)
    if m["rc"] != 0:
        raise BenchError(f"lifeguard failed on {tree}:\n{tail(m['stderr'], 10)}")
    data = json.loads(out.read_text())
    eligible = set(data.get("LAZY_ELIGIBLE", {}))
    every = set()
    for path in tree.rglob("*.py"):
        parts = list(path.relative_to(tree).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        if parts and all(p.isidentifier() for p in parts):
            every.add(".".join(parts))
    flagged = (every - eligible) | set(data.get("LOAD_IMPORTS_EAGERLY", []))
    return flagged, every, m


def plan_json(cmd: list[str], target: Path, cwd: Path, extra=()) -> tuple[dict, dict]:
    m = measure_run([*cmd, "lazy-plan", str(target), "--format", "json", *extra], 1800, cwd,
                    ENV)
    if m["rc"] not in (0, 1):
        raise BenchError(f"lazy-plan failed on {target}:\n{tail(m['stderr'], 10)}")
    return json.loads(m["stdout"]), m


def run_scenario(py: Path, root: Path, scenario: Path, lazy: bool) -> str:
    """The scenario's output with PEP 810 emulated (lazy) or under plain CPython, as the tests
    run it (tests/lazyscenario.py), with the venv's interpreter."""
    sys.path.insert(0, str(ROOT / "tests"))
    from lazyscenario import run_scenario as run
    return run(root, scenario, lazy, python=str(py))


def scenario_differs(py: Path, case_root: Path, statement: str, scenario: Path) -> bool:
    """Does making the one import statement lazy change what the scenario prints?"""
    work = SCRATCH / "scenario"
    if work.exists():
        shutil.rmtree(work)
    shutil.copytree(case_root, work, ignore=shutil.ignore_patterns("__pycache__"))
    scenario = work / scenario.relative_to(case_root)
    eager = run_scenario(py, work, scenario, lazy=False)
    rel, _, line = statement.rpartition(":")
    path = work / rel
    lines = path.read_text().split("\n")
    stripped = lines[int(line) - 1]
    indent = len(stripped) - len(stripped.lstrip())
    lines[int(line) - 1] = stripped[:indent] + "lazy " + stripped[indent:]  # PEP 810 syntax
    path.write_text("\n".join(lines))
    return eager != run_scenario(py, work, scenario, lazy=True)


def fixtures() -> list[tuple[str, Path, str, Path]]:
    """(name, the tree, the statement made lazy, the scenario) of each fixture."""
    out = []
    sys.path.insert(0, str(ROOT / "tests"))
    from lazyscenario import case_checks
    for case in sorted(p for p in CASES.iterdir() if (p / "case.toml").is_file()):
        for name, statement, scenario, _ in case_checks(case):
            out.append((name, case, statement, scenario))
    example = SCRATCH / "example-case"
    if example.exists():
        shutil.rmtree(example)
    shutil.copytree(EXAMPLE, example / "compiler_pkg", ignore=shutil.ignore_patterns("__pycache__"))
    (example / "scenario.py").write_text(
        "import compiler_pkg\nprint(type(compiler_pkg.get_backend('jit')).__name__)\n")
    out.append(("bundled_example_jit", example, "compiler_pkg/__init__.py:13",
                example / "scenario.py"))
    return out


def run_fixtures(py, cmd, exe) -> list[dict]:
    rows = []
    for name, tree, statement, scenario in fixtures():
        rel, _, line = statement.rpartition(":")
        package = rel.split("/")[0]
        flat = name.replace("/", "-")  # a variant: case/NAME
        copy = copy_tree(tree / package, f"fixture-{flat}")
        doc, _ = plan_json(cmd, copy / package, copy, ("--target-version", "3.15"))
        record = next(r for r in doc["imports"] if r["file"] == rel and r["line"] == int(line))
        flagged, _, _ = lifeguard_flags(exe, copy, SCRATCH / f"lg-{flat}.json")
        # what the statement runs first (importsafe's simulation): Lifeguard keeps the import
        # eager when one of them is flagged
        runs = {record["module"]} | {r["file"][:-3].replace("/__init__", "").replace("/", ".")
                                     for r in record["reasons"]}
        differs = scenario_differs(py, tree, statement, scenario)
        rows.append({"fixture": name, "scenario_differs": differs,
                     "importsafe_eager": not record["lazy_safe"],
                     "lifeguard_eager": bool(runs & flagged),
                     "lifeguard_flagged": sorted(flagged)})
    return rows


def measure_package(label: str, src: Path, cmd, exe, rounds: int) -> dict:
    copy = copy_tree(src, f"pkg-{label}")
    target = copy / src.name
    plans, checks, lgs = [], [], []
    doc = {}
    for _ in range(rounds):
        doc, m = plan_json(cmd, target, copy)
        plans.append(m["wall"])
        c = measure_run([*cmd, "check", str(target), "--format", "json", "--no-cache"], 1800,
                        copy, ENV)
        checks.append(c["wall"])
        flagged, every, lg = lifeguard_flags(exe, copy, SCRATCH / f"lg-{label}.json")
        lgs.append(lg["wall"])
    eager = {m for m, v in doc["modules"].items() if v["eager"]}
    modules = set(doc["modules"])
    unsafe = sum(not r["lazy_safe"] for r in doc["imports"])
    return {"package": label, "modules": len(modules), "importsafe_eager": len(eager),
            "lifeguard_flagged": len(flagged & modules), "both": len(eager & flagged),
            "only_importsafe": sorted(eager - flagged)[:20],
            "only_lifeguard_count": len((flagged & modules) - eager),
            "imports": len(doc["imports"]), "imports_eager": unsafe,
            "plan_s": statistics.median(plans), "check_s": statistics.median(checks),
            "lifeguard_s": statistics.median(lgs),
            "ratio": statistics.median(plans) / statistics.median(checks),
            "benefit": doc["plan"]["benefit"]}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--packages", default="django,sympy", help="comma list from: django, sympy")
    p.add_argument("--rounds", type=int, default=1, help="timed runs per package (default 1)")
    p.add_argument("--json", metavar="OUT", help="write the results to OUT")
    args = p.parse_args(argv)
    names = [n.strip() for n in args.packages.split(",") if n.strip()]
    try:
        exe = lifeguard_bin()
        py = ensure_venv([*(PINS[n] for n in names), *IMPORTSAFE_DEPS, *EXTRA_PINS])
        cmd, _ = importsafe_command("lazy-plan", python=str(py))
        SCRATCH.mkdir(parents=True, exist_ok=True)
        rows = run_fixtures(py, cmd, exe)
        packages = [measure_package("compiler_pkg", EXAMPLE, cmd, exe, args.rounds)]
        packages += [measure_package(n, package_dir(py, n), cmd, exe, args.rounds)
                     for n in names]
    except BenchError as exc:
        print(f"benchmarks/lazy.py: {exc}", file=sys.stderr)
        return 2
    report(rows, packages)
    if args.json:
        Path(args.json).write_text(json.dumps({"fixtures": rows, "packages": packages},
                                              indent=2))
    return 0


def report(rows: list[dict], packages: list[dict]) -> None:
    print(f"\nfixtures ({len(rows)}): scenario vs verdict (eager = keep the import eager)")
    print(f"{'fixture':32} {'scenario':10} {'importsafe':12} {'lifeguard':12}")
    tally = {"importsafe": [0, [], []], "lifeguard": [0, [], []]}
    for r in rows:
        cells = []
        for tool in ("importsafe", "lifeguard"):
            eager = r[f"{tool}_eager"]
            if eager == r["scenario_differs"]:
                tally[tool][0] += 1
                cells.append("right")
            else:
                (tally[tool][1] if r["scenario_differs"] else tally[tool][2]).append(r["fixture"])
                cells.append("MISS" if r["scenario_differs"] else "false alarm")
        shows = "differs" if r["scenario_differs"] else "same"
        print(f"{r['fixture']:32} {shows:10} {cells[0]:12} {cells[1]:12}")
    for tool, (right, misses, alarms) in tally.items():
        print(f"{tool}: {right}/{len(rows)} right; misses: {', '.join(misses) or 'none'}; "
              f"false alarms: {', '.join(alarms) or 'none'}")
    print("\npackages: modules that must load eagerly, and times (wall, median)")
    for p in packages:
        status = "PASS" if p["ratio"] <= PLAN_TARGET else "FAIL"
        print(f"{p['package']}: {p['modules']} modules; importsafe keeps {p['importsafe_eager']} "
              f"eager ({p['imports_eager']} of {p['imports']} imports), Lifeguard flags "
              f"{p['lifeguard_flagged']} (both: {p['both']})")
        print(f"  lifeguard {p['lifeguard_s']:.2f}s, importsafe lazy-plan {p['plan_s']:.2f}s, "
              f"importsafe check {p['check_s']:.2f}s: plan/check {p['ratio']:.2f}x "
              f"(target <= {PLAN_TARGET}x: {status})")
        for b in p["benefit"]:
            print(f"  import {b['entry']}: {b['modules_eager']} -> {b['modules_lazy']} modules "
                  "of the package run with the plan (static)")


if __name__ == "__main__":
    sys.exit(main())
