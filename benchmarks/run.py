#!/usr/bin/env python3
"""Benchmark `importsafe check` against peer tools on real packages.

    python3 benchmarks/run.py [--rounds N] [--packages sympy,django] [--skip pylint] [--json OUT]

Pinned packages and the peer tools (grimp, pylint) go into a scratch venv at
benchmarks/.work/venv, made on the first run and reused while its pins match. importsafe
itself runs from the interpreter running this script. Every round runs every tool on every
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
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path

WORK = Path(__file__).resolve().parent / ".work"
VENV = WORK / "venv"
MARKER = VENV / "importsafe-bench-pins.txt"
PACKAGES = {"sympy": "sympy==1.14.0", "django": "Django==5.2.19"}
PEERS = ("grimp==3.20", "pylint==4.1.4")
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
# Runs one command in its own session and reports on it. Measuring from this small process, not
# from this script, keeps our own memory out of the child's ru_maxrss (Linux carries the
# spawning process's high-water mark over exec), and a timeout kills the whole process group.
LAUNCHER_CODE = """
import json, os, signal, sys, time
result, timeout, *cmd = sys.argv[1:]
killed = []
def on_alarm(*_):
    killed.append(1)
    try: os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError: pass
t = time.perf_counter()
pid = os.posix_spawnp(cmd[0], cmd, os.environ, setsid=True)
signal.signal(signal.SIGALRM, on_alarm)
signal.setitimer(signal.ITIMER_REAL, float(timeout))
_, status, usage = os.wait4(pid, 0)
wall = time.perf_counter() - t
signal.setitimer(signal.ITIMER_REAL, 0)
with open(result, "w") as f:
    rc = None if killed else os.waitstatus_to_exitcode(status)
    json.dump({"rc": rc, "wall": wall, "maxrss_kb": usage.ru_maxrss}, f)
"""
GRIMP_CODE = """
import json, sys, time
t = time.perf_counter()
import grimp
g = grimp.build_graph(sys.argv[1], cache_dir=None)
print(json.dumps({"seconds": time.perf_counter() - t, "modules": len(g.modules)}))
"""


class BenchError(Exception):
    """A problem that stops the benchmark, with a message for the user."""


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

def venv_python() -> Path:
    return VENV / "bin" / "python"  # POSIX only, like os.wait4 and posix_spawn below


def ensure_venv() -> Path:
    """Make the scratch venv and install the pins, unless the marker says it is done."""
    pins = "\n".join(sorted([*PACKAGES.values(), *PEERS])) + "\n"
    if venv_python().exists() and MARKER.exists() and MARKER.read_text() == pins:
        return venv_python()
    if not venv_python().exists():
        print(f"creating venv {VENV} ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    print("installing " + " ".join(pins.split()) + " ...", flush=True)
    proc = subprocess.run([str(venv_python()), "-m", "pip", "install", "--disable-pip-version-check",
                           "-q", *pins.split()], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"pip install into {VENV} failed (exit {proc.returncode}):\n{tail(proc.stderr, 20)}")
    MARKER.write_text(pins)
    return venv_python()


def package_dir(py: Path, name: str) -> Path:
    """The package's source directory in the venv, found without importing it."""
    code = "import importlib.util,sys; print(importlib.util.find_spec(sys.argv[1]).submodule_search_locations[0])"
    proc = subprocess.run([str(py), "-c", code, name], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"cannot locate package {name!r} in {VENV}:\n{tail(proc.stderr, 5)}")
    return Path(proc.stdout.strip())


def importsafe_command() -> tuple[list[str], bool]:
    """How to run `importsafe check`, and whether it has --no-cache. Raises if it can't run."""
    candidates = [[sys.executable, "-m", "importsafe"]]
    if shutil.which("importsafe"):
        candidates.append([shutil.which("importsafe")])
    for cmd in candidates:
        probe = subprocess.run([*cmd, "check", "--help"], capture_output=True, text=True)
        if probe.returncode == 0:
            return cmd, "--no-cache" in probe.stdout
    raise BenchError("importsafe is not runnable (tried `python -m importsafe` and `importsafe` on PATH); "
                     "install it with `pip install -e .` or pass --skip importsafe")


# --- measuring -------------------------------------------------------------------------

def measure(cmd: list[str], timeout: float, cwd: Path) -> tuple[int | None, float, float, str, str]:
    """Run cmd via LAUNCHER; return (exit code or None on timeout, wall s, peak RSS MB, stdout, stderr)."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", dir=cwd, suffix=".json") as result:
        launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER_CODE, result.name, str(timeout), *cmd]
        proc = subprocess.run(launcher, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd)
        out.seek(0), err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
        if proc.returncode != 0:
            raise BenchError(f"could not run {cmd[0]}:\n{tail(stderr, 5)}")
        m = json.load(result)
    return m["rc"], m["wall"], m["maxrss_kb"] / 1024, stdout, stderr


def tail(text: str, n: int) -> str:
    return "\n".join(text.strip().splitlines()[-n:])


def last_json(stdout: str) -> dict:
    lines = stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else {}


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


def fmt(x: float | None, spec: str = ".2f", suffix: str = "") -> str:
    return "-" if x is None else f"{x:{spec}}{suffix}"


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
    py = ensure_venv()
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
