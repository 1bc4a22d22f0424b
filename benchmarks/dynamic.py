#!/usr/bin/env python3
"""Benchmark `importsafe run`: the fork runner (fork server, nested zygotes) against `--no-fork`
(a fresh interpreter per (entry, mode), the faithful reference), on real packages.

    python3 benchmarks/dynamic.py [--packages sympy,torch] [--modes normal,bare] [--rounds 1]
                                  [--sample N] [--seed S] [--sample-ancestors] [--no-extrapolate]
                                  [-j N] [--skip-both] [--json OUT]

For each package and each round, every mode alone and then all modes together ("both") are run
with each runner, one right after the other, rotating which goes first, so machine noise
hits them alike. Every run is `importsafe run PKGDIR --mode M --format json --python VENVPY`
from this checkout, timed from spawn to exit; peak RSS is the largest single process of its
tree (ru_maxrss via os.wait4, not a sum: the zygotes share most pages); cpu s is the user +
system time of the whole tree, printed as a second ratio that other load on the machine
disturbs less than wall time. The runners must give the same outcome (outcome, exception,
module, name) for every (entry, mode): mismatches are printed and make the exit status 1. The
wall-time ratio no-fork/fork is set against the issue's targets. The 1-minute load average
before and after each run is printed, to show when something else was running.

`--sample N` restricts both runners to the same N entries (through `importsafe run --entries`):
a seeded systematic sample of the sorted dotted names (so spread evenly over the package tree,
with the package/module mix of the whole), always holding the top-level package. In normal mode
an entry's zygote is then its nearest *sampled* ancestor (at least the top-level package), not
its parent package as in a full run, so the fork runner re-imports the intermediate packages'
`__init__` the full run would share: the sampled ratio errs low. `--sample-ancestors` adds every
ancestor package instead (zygotes as in a full run, but far more packages than the package has
in proportion). Default: every entry of sympy, 200 of torch; `--sample 0` means all.
For a sampled package the fork runner also runs over ALL entries ("fork-all", in the same
interleaving; its outcomes on the sample must equal no-fork's too), and an extrapolated ratio
is printed: no-fork's time per (entry, mode) on the sample times all the (entry, mode), over
fork-all's time. Fresh interpreters do not share work, so the sample's mean cost per job
stands for the whole; `--no-extrapolate` skips it.
Packages (pinned in common.py) go into benchmarks/.work/venv, shared with run.py; torch is the
CPU wheel. Exit status: 0 all ran and agreed, 1 a run failed or the runners disagreed,
2 setup failed.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from common import (PINS, SRC, WORK, BenchError, ensure_importsafe_deps, ensure_venv, fmt,
                    importsafe_command, measure_run, package_dir, tail)

PACKAGES = ("sympy", "torch")
DEFAULT_SAMPLE = {"sympy": 0, "torch": 200}  # 0: every entry
TARGETS = {"normal": 15.0, "bare": 1.5, "both": 3.0}  # no-fork / fork, from the issue
RUNNERS = ("fork", "no-fork", "fork-all")  # fork-all: every entry (sampled packages only)
MODES = ("normal", "bare")


@dataclass
class Run:
    package: str
    modes: str  # "normal", "bare" or "both"
    runner: str  # fork | no-fork | fork-all
    round: int
    status: str  # ok | error | timeout
    wall_s: float
    rss_mb: float
    cpu_s: float  # user + system of the whole process tree (less sensitive to others' load)
    rc: int | None
    jobs: int = 0  # (entry, mode) results
    outcomes: dict = field(default_factory=dict)  # outcome -> count
    stderr: str = ""
    load: tuple = ()  # 1-minute load average at the start and at the end (others' work shows here)


@dataclass
class Package:
    name: str
    dir: Path
    entries: list[str]  # every entry importsafe finds
    pkgs: set[str]  # those that are packages
    run: list[str]  # the entries run (all, or the sample)
    entries_file: Path | None  # None: all
    files: int = 0
    bytes: int = 0

    @property
    def sampled(self) -> bool:
        return self.entries_file is not None


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--packages", default=",".join(PACKAGES), help="comma list, from: " + ", ".join(PACKAGES))
    p.add_argument("--modes", default=",".join(MODES), help="comma list, from: " + ", ".join(MODES))
    p.add_argument("--rounds", type=int, default=1, help="rounds (default 1)")
    p.add_argument("--sample", type=int, default=None, metavar="N",
                   help="run N sampled entries per package, 0 = all (default: sympy all, torch 200)")
    p.add_argument("--seed", type=int, default=0, help="seed of the sample (default 0)")
    p.add_argument("--sample-ancestors", action="store_true",
                   help="close the sample under ancestor packages (see above)")
    p.add_argument("--no-extrapolate", dest="extrapolate", action="store_false",
                   help="for a sampled package, do not also run the fork runner over all entries")
    p.add_argument("-j", "--jobs", type=int, default=None, help="importsafe run -j (default: its own, the cores)")
    p.add_argument("--import-timeout", type=float, default=120.0, metavar="S",
                   help="importsafe run --timeout, per import (default 120)")
    p.add_argument("--timeout", type=float, default=4 * 3600.0, metavar="S",
                   help="seconds per importsafe run (default 14400)")
    p.add_argument("--skip-both", action="store_true",
                   help="do not run all modes together; 'both' is then the sum of the single modes")
    p.add_argument("--json", metavar="OUT", help="write the raw measurements and mismatches to OUT")
    args = p.parse_args(argv)
    args.packages = [s.strip() for s in args.packages.split(",") if s.strip()]
    args.modes = [s.strip() for s in args.modes.split(",") if s.strip()]
    unknown = [x for x in args.packages if x not in PACKAGES] + [m for m in args.modes if m not in MODES]
    if unknown:
        p.error(f"unknown package or mode: {', '.join(unknown)}")
    if args.rounds < 1 or not args.packages or not args.modes:
        p.error("need at least one round, one package and one mode")
    if args.sample is not None and args.sample < 0:
        p.error("--sample must be 0 (all) or positive")
    return args


# --- the sample --------------------------------------------------------------------------

def with_ancestors(names, known: set[str]) -> set[str]:
    out = set()
    for name in names:
        parts = name.split(".")
        out.update(a for a in (".".join(parts[:k]) for k in range(1, len(parts) + 1)) if a in known)
    return out


def sample_entries(entries: list[str], n: int, seed: int, closed: bool = False) -> list[str]:
    """n entries (all if n is 0 or too large): a systematic sample of the sorted names (so it is
    spread evenly over the tree) with a seeded offset, plus the top-level package (the zygote
    of everything in normal mode), or, if `closed`, plus every ancestor package; topped up to n
    in seeded random order."""
    names = sorted(entries)
    if not n or n >= len(names):
        return names
    known, rng = set(names), random.Random(seed)
    offset = rng.random()
    tops = {e for e in names if "." not in e}

    def close(picked) -> set[str]:
        return with_ancestors(picked, known) if closed else set(picked) | tops

    def pick(k: int) -> set[str]:
        step = len(names) / k
        return close({names[int((offset + i) * step)] for i in range(k)})

    lo, hi = 1, n  # the largest k whose closure fits in n
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if len(pick(mid)) <= n else (lo, mid - 1)
    chosen = pick(lo)
    rest = [e for e in names if e not in chosen]
    rng.shuffle(rest)
    for e in rest:
        need = close([e]) - chosen
        if len(chosen) + len(need) <= n:
            chosen |= need
        if len(chosen) == n:
            break
    return sorted(chosen)


# --- setup -------------------------------------------------------------------------------

def discover(pkg: Path, deps: Path) -> tuple[list[str], set[str]]:
    """The entries `importsafe run PKG` imports, from this checkout's discovery (its
    dependencies from `deps`, ensure_importsafe_deps)."""
    for path in (str(deps), str(SRC)):
        if path not in sys.path:
            sys.path.insert(0, path)
    from importsafe.api import discover_entries
    from importsafe.static.layout import resolve_targets
    _, targets = resolve_targets([str(pkg)], [])
    index = discover_entries(targets, [])
    return list(index), {n for n, info in index.items() if info.kind == "package"}


def warm(py: Path, name: str, pkg: Path) -> tuple[int, int]:
    """Untimed: read every file of the package (page cache) and import it once. Returns
    (.py files, bytes of all files)."""
    files = size = 0
    for d, _, names in os.walk(pkg):
        for n in names:
            try:
                with open(os.path.join(d, n), "rb") as f:
                    while chunk := f.read(1 << 20):
                        size += len(chunk)
            except OSError:
                continue
            files += n.endswith(".py")
    subprocess.run([str(py), "-c", f"import {name}"], capture_output=True, cwd=WORK)
    return files, size


def prepare(args: argparse.Namespace, scratch: Path) -> tuple[Path, list[str], dict[str, Package]]:
    py = ensure_venv([PINS["sympy"]]) if "sympy" in args.packages else None
    names = list(args.packages)
    for name in [n for n in names if n != "sympy"]:
        try:
            py = ensure_venv([PINS[name]])
        except BenchError as exc:
            print(f"warning: cannot install {PINS[name]}, going on without {name}:\n{exc}", file=sys.stderr)
            names.remove(name)
    if not names:
        raise BenchError("no package could be installed")
    # importsafe runs with this interpreter, which need not hold its dependencies: they come
    # from a directory of their own, as in decided.py
    deps = ensure_importsafe_deps()
    cmd, has_entries = importsafe_command("run", "--entries", deps=deps)
    packages = {}
    for name in names:
        pkg = package_dir(py, name)
        entries, pkgs = discover(pkg, deps)
        n = args.sample if args.sample is not None else DEFAULT_SAMPLE[name]
        chosen = sample_entries(entries, n, args.seed, args.sample_ancestors)
        entries_file = None
        if len(chosen) < len(entries):
            if not has_entries:
                raise BenchError("this importsafe has no `run --entries`: cannot run a sample")
            entries_file = scratch / f"dynamic-{name}-entries.txt"
            entries_file.write_text("\n".join(chosen) + "\n")
        packages[name] = Package(name, pkg, entries, pkgs, chosen, entries_file)
        print(f"warming {name} ({pkg}) ...", flush=True)
        packages[name].files, packages[name].bytes = warm(py, name, pkg)
    return py, cmd, packages


# --- running -----------------------------------------------------------------------------

def mode_sets(args: argparse.Namespace) -> dict[str, list[str]]:
    sets = {m: [m] for m in args.modes}
    if len(args.modes) > 1 and not args.skip_both:
        sets["both"] = list(args.modes)
    return sets


def command(base: list[str], py: Path, pkg: Package, modes: list[str], runner: str,
            args: argparse.Namespace) -> list[str]:
    cmd = [*base, "run", str(pkg.dir), "--mode", ",".join(modes), "--format", "json",
           "--python", str(py), "--timeout", f"{args.import_timeout:g}"]
    if runner == "no-fork":
        cmd.append("--no-fork")
    if pkg.entries_file and runner != "fork-all":
        cmd += ["--entries", str(pkg.entries_file)]
    if args.jobs:
        cmd += ["-j", str(args.jobs)]
    return cmd


def outcome_key(r: dict) -> tuple:
    err = r.get("error") or {}
    return (r.get("outcome"), err.get("exception"), err.get("module"), err.get("name"))


def judge(rc: int | None, stdout: str, stderr: str) -> tuple[str, dict | None]:
    """(status, {(entry, mode): outcome key}) of one `importsafe run`."""
    if rc is None:
        return "timeout", None
    if rc not in (0, 1):
        return "error", None
    try:
        report = json.loads(stdout)
    except json.JSONDecodeError:
        return "error", None
    return "ok", {(r["entry"], r["mode"]): outcome_key(r) for r in report.get("results", [])}


def bench(args, py: Path, base: list[str], packages: dict[str, Package], scratch: Path):
    """Every round: every package, every mode set, the runners back to back (rotating which
    goes first). Returns the runs and, per run index, its outcomes."""
    runs: list[Run] = []
    results: list[dict | None] = []
    sets = mode_sets(args)
    flip = 0
    for r in range(args.rounds):
        for name, pkg in packages.items():
            for label, modes in sets.items():
                mine = RUNNERS if pkg.sampled and args.extrapolate else RUNNERS[:2]
                order = mine[flip % len(mine):] + mine[:flip % len(mine)]
                flip += 1
                for runner in order:
                    cmd = command(base, py, pkg, modes, runner, args)
                    load = os.getloadavg()[0]
                    m = measure_run(cmd, args.timeout, scratch)
                    rc, wall, rss, err = m["rc"], m["wall"], m["rss_mb"], m["stderr"]
                    load = (round(load, 2), round(os.getloadavg()[0], 2))
                    status, outcomes = judge(rc, m["stdout"], err)
                    counts = Counter(k[0] for k in (outcomes or {}).values())
                    run = Run(name, label, runner, r, status, wall, rss, m["cpu"], rc,
                              len(outcomes or {}), dict(counts), tail(err, 10) if status != "ok" else "",
                              load)
                    runs.append(run)
                    results.append(outcomes)
                    print(f"  round {r + 1}/{args.rounds} {name:6} {label:6} {runner:8} {status:7} "
                          f"{wall:8.1f}s cpu {m['cpu']:7.1f}s {rss:7.0f} MB  load {load[0]:.1f}->{load[1]:.1f}  "
                          f"{run.jobs} (entry, mode): {json.dumps(run.outcomes)}", flush=True)
                    if status != "ok":
                        print(f"    importsafe run failed (exit {rc}):\n{run.stderr}", file=sys.stderr)
    return runs, results


def compare(runs: list[Run], results: list, packages: dict[str, Package]) -> tuple[list[dict], list[dict]]:
    """Fork against no-fork of the same package, mode set and round (mismatches), and every
    run against the first no-fork run of each (entry, mode) (inconsistencies, a warning)."""
    mismatches, drift = [], []
    pairs: dict[tuple, dict[str, int]] = {}
    for i, run in enumerate(runs):
        if results[i] is not None:
            pairs.setdefault((run.package, run.modes, run.round), {})[run.runner] = i
    for (name, label, rnd), idx in pairs.items():
        if "no-fork" not in idx:
            continue
        fresh = results[idx["no-fork"]]
        for runner in ("fork", "fork-all"):
            if runner not in idx:
                continue
            fork = results[idx[runner]]
            keys = set(fresh) if runner == "fork-all" else set(fork) | set(fresh)
            for key in sorted(keys):
                a, b = fork.get(key), fresh.get(key)
                if a != b:
                    mismatches.append({"package": name, "modes": label, "round": rnd, "entry": key[0],
                                       "mode": key[1], "fork": a, "no-fork": b, "runner": runner})
    reference: dict[tuple, tuple] = {}
    for i, run in sorted(enumerate(runs), key=lambda x: x[1].runner != "no-fork"):
        for key, value in (results[i] or {}).items():
            ref = reference.setdefault((run.package, *key), (value, run))
            if ref[0] != value and run.runner == "no-fork":
                drift.append({"package": run.package, "entry": key[0], "mode": key[1],
                              "run": f"{run.modes}/{run.runner}/round {run.round + 1}", "got": value,
                              "first": ref[0], "first_run": f"{ref[1].modes}/{ref[1].runner}/round "
                                                            f"{ref[1].round + 1}"})
    for run, res in zip(runs, results):  # each must have run exactly the entries asked for
        got = {e for e, _ in res or ()}
        pkg = packages[run.package]
        wanted = set(pkg.entries if run.runner == "fork-all" else pkg.run)
        if res is not None and got != wanted:
            mismatches.append({"package": run.package, "modes": run.modes, "round": run.round,
                               "entry": "*", "mode": "*", "fork": None, "no-fork": None,
                               "runner": run.runner,
                               "note": f"{run.runner} ran {len(got)} entries, expected {len(wanted)}"})
    return mismatches, drift


# --- reporting -----------------------------------------------------------------------------

def stats(runs: list[Run], name: str, label: str, runner: str) -> dict | None:
    mine = [r for r in runs if r.package == name and r.modes == label and r.runner == runner]
    if not mine:
        return None
    ok = [r for r in mine if r.status == "ok"]
    walls = [r.wall_s for r in ok]
    return {"status": "ok" if len(ok) == len(mine) else ",".join(sorted({r.status for r in mine})),
            "median": statistics.median(walls) if walls else None, "min": min(walls, default=None),
            "cpu": statistics.median(r.cpu_s for r in ok) if ok else None,
            "rss": max(r.rss_mb for r in mine), "jobs": mine[-1].jobs, "outcomes": mine[-1].outcomes}


def print_package(pkg: Package, runs: list[Run], labels: list[str], args) -> dict:
    """The table of one package; returns its ratios."""
    n_pk = len(pkg.pkgs.intersection(pkg.run))
    how = "closed under ancestors" if args.sample_ancestors else "systematic + top level"
    scope = (f"SAMPLE of {len(pkg.run)} of {len(pkg.entries)} entries ({how}, seed {args.seed}, "
             f"{n_pk} of them packages; file {pkg.entries_file}) -- every figure below is "
             f"from the sample" if pkg.sampled else f"all {len(pkg.entries)} entries")
    print(f"\n{pkg.name}: {scope}\n  {pkg.dir}: {pkg.files} .py files, {pkg.bytes / 2**20:.0f} MB on disk")
    print(f"  {'modes':7} {'runner':8} {'status':7} {'median s':>9} {'min s':>8} {'ms/job':>7} "
          f"{'cpu s':>8} {'peak MB':>8} {'jobs':>6}  outcomes")
    for label in labels:
        for runner in RUNNERS:
            s = stats(runs, pkg.name, label, runner)
            if s:
                per = s["median"] * 1000 / s["jobs"] if s["median"] and s["jobs"] else None
                print(f"  {label:7} {runner:8} {s['status']:7} {fmt(s['median'], '.1f'):>9} "
                      f"{fmt(s['min'], '.1f'):>8} {fmt(per, '.0f'):>7} {fmt(s['cpu'], '.1f'):>8} "
                      f"{s['rss']:8.0f} {s['jobs']:>6}  "
                      f"{json.dumps(s['outcomes'])}")
    ratios = {}
    for label in [*labels, *(["both"] if "both" not in labels and len(labels) > 1 else [])]:
        parts = [label] if label in labels else labels  # "both" from the sum of the single modes
        st = {rn: [stats(runs, pkg.name, p, rn) or {} for p in parts] for rn in RUNNERS}
        med = {rn: [x.get("median") for x in v] for rn, v in st.items()}
        cpu = {rn: sum(x.get("cpu") or 0 for x in v) for rn, v in st.items()}
        how = "" if label in labels else "  (sum of the single-mode runs)"
        target = TARGETS.get(label)
        if all(med["fork"]) and all(med["no-fork"]):
            ratios[label] = x = sum(med["no-fork"]) / sum(med["fork"])
            c = cpu["no-fork"] / cpu["fork"] if cpu["fork"] else None
            print(f"  no-fork/fork     {label:7} {x:6.2f}x{verdict(x, target)}  (cpu {fmt(c, '.2f', 'x')})"
                  f"{'  [on the sample]' if pkg.sampled else ''}{how}")
        if all(med["fork-all"]) and all(med["no-fork"]):
            # fresh interpreters share nothing: no-fork's mean time per job on the sample, times
            # every job, estimates a full no-fork run
            scale = len(pkg.entries) / len(pkg.run)
            full = sum(med["no-fork"]) * scale
            ratios[label + " (extrapolated)"] = x = full / sum(med["fork-all"])
            c = cpu["no-fork"] * scale / cpu["fork-all"] if cpu["fork-all"] else None
            print(f"  no-fork/fork-all {label:7} {x:6.2f}x{verdict(x, target)}  (cpu {fmt(c, '.2f', 'x')})"
                  f"  [EXTRAPOLATED: no-fork {full:.0f} s estimated for all {len(pkg.entries)} entries]{how}")
    return ratios


def verdict(ratio: float, target: float | None) -> str:
    return "" if target is None else f"  target >= {target:g}x  {'PASS' if ratio >= target else 'FAIL'}"


def write_json(path: str, args, packages, runs, mismatches, drift, ratios, total) -> None:
    meta = {"python": sys.version, "platform": platform.platform(), "cpus": os.cpu_count(),
            "pins": {n: PINS[n] for n in packages}, "rounds": args.rounds, "seed": args.seed,
            "sample_ancestors": args.sample_ancestors, "jobs": args.jobs, "total_s": total,
            "targets": TARGETS}
    pk = {n: {"dir": str(p.dir), "entries": len(p.entries), "ran": len(p.run), "sampled": p.sampled,
              "sample": p.run if p.sampled else None, "py_files": p.files} for n, p in packages.items()}
    Path(path).write_text(json.dumps({"meta": meta, "packages": pk, "ratios": ratios,
                                      "runs": [asdict(r) for r in runs], "mismatches": mismatches,
                                      "inconsistent_no_fork": drift}, indent=1, default=list))
    print(f"raw measurements written to {path}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    scratch = WORK / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        py, base, packages = prepare(args, scratch)
        start = time.perf_counter()
        runs, results = bench(args, py, base, packages, scratch)
        total = time.perf_counter() - start
    except (BenchError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    mismatches, drift = compare(runs, results, packages)
    labels = list(mode_sets(args))
    ratios = {name: print_package(pkg, runs, labels, args) for name, pkg in packages.items()}
    print(f"\n{args.rounds} round(s) took {total:.0f} s on {os.cpu_count()} CPUs, "
          f"Python {platform.python_version()}; peak MB is the largest single process")
    loads = [x for r in runs for x in r.load]
    if loads:
        print(f"1-minute load average around the runs: {min(loads):.1f} to {max(loads):.1f} "
              f"(above {os.cpu_count()}: something else was running too)")
    if mismatches:
        print(f"\nMISMATCH: fork and no-fork disagree on {len(mismatches)} (entry, mode):")
        for m in mismatches[:100]:
            print(f"  {m['package']} {m['entry']} [{m['mode']}] ({m['modes']} run, round "
                  f"{m['round'] + 1}): {m['runner']} {m['fork']}  no-fork {m['no-fork']}  "
                  f"{m.get('note', '')}")
    elif all(r.status == "ok" for r in runs):
        n = sum(r.jobs for r in runs if r.runner == "no-fork")
        print(f"\noutcomes: fork (and fork-all) == no-fork for every (entry, mode) ({n} no-fork results)")
    if drift:
        print(f"\nnote: {len(drift)} (entry, mode) gave different outcomes in different no-fork runs "
              f"(the package itself is not deterministic):")
        for d in drift[:20]:
            print(f"  {d['package']} {d['entry']} [{d['mode']}]: {d['first']} ({d['first_run']}) vs "
                  f"{d['got']} ({d['run']})")
    if args.json:
        write_json(args.json, args, packages, runs, mismatches, drift, ratios, total)
    return 1 if mismatches or any(r.status != "ok" for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
