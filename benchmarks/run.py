#!/usr/bin/env python3
"""Benchmark `importsafe check` against peer tools on real packages.

    python3 benchmarks/run.py [--rounds N] [--packages sympy,django] [--skip pylint] [--json OUT]

Pinned packages and the peer tools (grimp, pylint) go into a scratch venv at
benchmarks/.work/venv, made on the first run and reused while it holds the pins (the venv, the
pins and the launcher are in common.py, shared with dynamic.py). importsafe runs from the
interpreter running this script, from this checkout's src/ when there is one. Every round runs every tool on every
package, rotating the tool order, so machine noise hits all tools alike. Times are the
wall-clock of a fresh subprocess, from spawn to exit; peak RSS is its ru_maxrss from os.wait4
(the largest single process among it and its workers, not their sum). The floor is one
process doing read + ast.parse of every .py file of the package; "x floor" divides a tool's
median by the floor's. Exit status: 0 all ran, 1 some run failed or timed out, 2 setup failed.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

from common import (PEERS, PINS, VENV, WORK, BenchError, ensure_venv, fmt, importsafe_command,  # noqa: F401
                    last_json, measure, package_dir, tail, venv_python)

PACKAGES = {name: PINS[name] for name in ("sympy", "django")}
TOOLS = ("importsafe", "grimp", "pylint", "floor")

FLOOR_CODE = """
import ast, json, os, sys, time
t = time.perf_counter(); files = lines = bad = 0
for d, _, names in os.walk(sys.argv[1]):
    for n in names:
        if n.endswith(".py"):
            data = open(os.path.join(d, n), "rb").read()
            files += 1; lines += data.count(b"\\n")
            try: ast.parse(data)
            except (SyntaxError, ValueError): bad += 1
print(json.dumps({"seconds": time.perf_counter() - t, "files": files, "lines": lines, "bad": bad}))
"""
GRIMP_CODE = """
import json, sys, time
t = time.perf_counter()
import grimp
g = grimp.build_graph(sys.argv[1], cache_dir=None)
print(json.dumps({"seconds": time.perf_counter() - t, "modules": len(g.modules)}))
"""


@dataclass
class Run:
    package: str
    tool: str
    round: int
    status: str  # ok | error | timeout
    wall_s: float
    rss_mb: float
    rc: int | None
    inner_s: float | None = None
    detail: dict = field(default_factory=dict)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3, help="rounds per tool and package (default 3)")
    p.add_argument("--packages", default=",".join(PACKAGES), help="comma list, from: " + ", ".join(PACKAGES))
    p.add_argument("--skip", default="", help="comma list of tools to skip, from: " + ", ".join(TOOLS))
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per tool run (default 600)")
    p.add_argument("--json", metavar="OUT", help="write the raw measurements to OUT")
    args = p.parse_args(argv)
    args.packages = [s.strip() for s in args.packages.split(",") if s.strip()]
    args.skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    unknown = [x for x in args.packages if x not in PACKAGES] + sorted(args.skip - set(TOOLS))
    if unknown:
        p.error(f"unknown package or tool: {', '.join(unknown)}")
    if args.rounds < 1 or not args.packages or args.skip >= set(TOOLS):
        p.error("need at least one round, one package and one tool")
    return args


# --- the venv --------------------------------------------------------------------------

# --- measuring -------------------------------------------------------------------------

def judge(tool: str, rc: int | None, stdout: str, stderr: str) -> tuple[str, float | None, dict]:
    """Turn one tool's exit code and output into (status, inner seconds, details)."""
    if rc is None:
        return "timeout", None, {}
    if tool == "importsafe":
        if rc not in (0, 1):
            return "error", None, {"rc": rc, "stderr": tail(stderr, 10)}
        summary = importsafe_summary(stdout)
        return ("error" if "json_error" in summary else "ok"), None, summary
    if tool == "pylint":  # bit-encoded exit; 32 = usage error, 1 = some file crashed astroid
        if rc & 32 or (rc and not stdout.strip()):
            return "error", None, {"stderr": tail(stderr or stdout, 10)}
        crashed = stdout.count("(astroid-error)")
        return "ok", None, {"cyclic_imports": stdout.count("(cyclic-import)"), "files_crashed": crashed}
    if rc != 0:
        return "error", None, {"stderr": tail(stderr, 10)}
    data = last_json(stdout)
    return "ok", data.pop("seconds"), data


def importsafe_summary(stdout: str) -> dict:
    try:
        report = json.loads(stdout)
    except json.JSONDecodeError as exc:
        return {"json_error": str(exc), "stderr": "stdout is not JSON: " + stdout[:200]}
    outcomes = Counter(r.get("outcome") for r in report.get("results", []))
    severities = Counter(d.get("severity") for d in report.get("diagnostics", []))
    return {"results": sum(outcomes.values()), "outcomes": dict(outcomes),
            "diagnostics": len(report.get("diagnostics", [])), "severities": dict(severities)}


def commands(tools: list[str], py: Path, name: str, pkg: Path, isafe: tuple[list[str], bool] | None) -> dict:
    """The command line of each tool for one package."""
    cmds = {"floor": [sys.executable, "-c", FLOOR_CODE, str(pkg)],
            "grimp": [str(py), "-c", GRIMP_CODE, name],
            "pylint": [str(py), "-m", "pylint", "--persistent=n", "--disable=all",
                       "--enable=cyclic-import", str(pkg)]}
    if isafe:
        base, no_cache = isafe
        cmds["importsafe"] = [*base, "check", str(pkg), "--format", "json", *(["--no-cache"] if no_cache else [])]
    return {t: cmds[t] for t in tools}


def bench(args: argparse.Namespace, plan: dict[str, dict], scratch: Path) -> list[Run]:
    """Interleave: each round runs every package with every tool, rotating the tool order."""
    runs: list[Run] = []
    for r in range(args.rounds):
        for name, cmds in plan.items():
            order = list(cmds)[r % len(cmds):] + list(cmds)[:r % len(cmds)]
            for tool in order:
                rc, wall, rss, out, err = measure(cmds[tool], args.timeout, scratch)
                status, inner, detail = judge(tool, rc, out, err)
                runs.append(Run(name, tool, r, status, wall, rss, rc, inner, detail))
                print(f"  round {r + 1}/{args.rounds} {name:8} {tool:10} {status:7} {wall:8.2f}s "
                      f"{rss:7.0f} MB", flush=True)
                if status == "error":
                    print(f"    {tool} failed (exit {rc}) on {name}:\n" + detail.get("stderr", ""), file=sys.stderr)
    return runs


# --- reporting -------------------------------------------------------------------------

def stats(runs: list[Run], name: str, tool: str) -> dict | None:
    mine = [r for r in runs if r.package == name and r.tool == tool]
    ok = [r for r in mine if r.status == "ok"]
    if not mine:
        return None
    status = "ok" if len(ok) == len(mine) else ",".join(sorted({r.status for r in mine}))
    walls = [r.wall_s for r in ok]
    return {"status": status, "median": statistics.median(walls) if walls else None,
            "min": min(walls, default=None), "rss": max((r.rss_mb for r in mine), default=0.0),
            "last": ok[-1] if ok else mine[-1]}


def print_package(name: str, runs: list[Run], counts: dict, tools: list[str]) -> None:
    print(f"\n{name}: {counts['files']} .py files, {counts['lines']} lines ({counts['dir']})")
    print(f"  {'tool':10} {'status':8} {'median s':>9} {'min s':>8} {'peak MB':>8} {'x floor':>8}  notes")
    table = {t: stats(runs, name, t) for t in tools}
    floor = (table.get("floor") or {}).get("median")
    for tool, s in table.items():
        ratio = s["median"] / floor if s["median"] and floor else None
        note = {k: v for k, v in s["last"].detail.items() if k != "stderr"}
        if s["last"].inner_s is not None:
            note["in-process s"] = round(s["last"].inner_s, 3)
        print(f"  {tool:10} {s['status']:8} {fmt(s['median']):>9} {fmt(s['min']):>8} "
              f"{s['rss']:8.0f} {fmt(ratio, '.1f', 'x'):>8}  {json.dumps(note) if note else ''}")
    me = (table.get("importsafe") or {}).get("median")
    for peer in ("grimp", "pylint"):
        other = (table.get(peer) or {}).get("median")
        if me and other:
            print(f"  importsafe / {peer}: {me / other:.2f}x")


def prepare(args: argparse.Namespace, tools: list[str], scratch: Path) -> tuple[dict, dict]:
    """Install what is needed; return each package's tool commands and its file/line counts."""
    py = ensure_venv([*PACKAGES.values(), *PEERS])
    isafe = importsafe_command() if "importsafe" in tools else None
    if isafe and not isafe[1]:
        print("note: importsafe has no --no-cache flag; running it as is", file=sys.stderr)
    plan, counts = {}, {}
    for name in args.packages:
        pkg = package_dir(py, name)
        plan[name] = commands(tools, py, name, pkg, isafe)
        # an untimed floor pass: counts files and lines, and warms the page cache
        rc, *_, out, err = measure(commands(["floor"], py, name, pkg, None)["floor"], args.timeout, scratch)
        if rc != 0:
            raise BenchError(f"cannot read the sources of {name} in {pkg}:\n{tail(err, 5)}")
        counts[name] = {**last_json(out), "dir": str(pkg)}
    return plan, counts


def write_json(path: str, args: argparse.Namespace, plan: dict, counts: dict, runs: list[Run], total: float) -> None:
    meta = {"python": sys.version, "platform": platform.platform(), "cpus": os.cpu_count(),
            "pins": [*PACKAGES.values(), *PEERS], "rounds": args.rounds, "total_s": total,
            "commands": plan}
    Path(path).write_text(json.dumps({"meta": meta, "packages": counts, "runs": [asdict(r) for r in runs]},
                                     indent=1))
    print(f"raw measurements written to {path}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    tools = [t for t in TOOLS if t not in args.skip]
    scratch = WORK / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        plan, counts = prepare(args, tools, scratch)
        start = time.perf_counter()
        runs = bench(args, plan, scratch)
        total = time.perf_counter() - start
    except (BenchError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for name in plan:
        print_package(name, runs, counts[name], tools)
    print(f"\n{args.rounds} round(s) took {total:.0f} s on {os.cpu_count()} CPUs, Python {platform.python_version()}")
    if args.json:
        write_json(args.json, args, plan, counts, runs, total)
    return 1 if any(r.status != "ok" for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
