#!/usr/bin/env python3
"""Benchmark `importsafe check` against peer tools on real packages.

    python3 benchmarks/run.py [--rounds N] [--packages sympy,django|all|LIST] [--skip TOOLS]
                              [--edit PKG=PATH] [--timeout S] [--json OUT]

Packages (pinned in common.py): sympy, django (the default, fast), pandas (with a pinned numpy),
torch (the 2.13 CPU wheel on this machine's disk) and homeassistant (2024.3.3, the last release
for Python 3.11, installed with --no-deps: the static tools only read its sources). They and
the peer tools (grimp, pylint) go into a scratch venv at benchmarks/.work/venv, made on the
first run and reused while it holds the pins; a pin it lacks is installed into it (the venv,
the pins and the launcher are in common.py, shared with dynamic.py). Every tool, importsafe
(from this checkout's src/ when there is one; its pinned runtime dependencies, IMPORTSAFE_DEPS,
are in the venv) and the floor included, runs with the venv's interpreter.

Tools, each a fresh subprocess per run:
  importsafe       `importsafe check PKG --format json --no-cache`: the full check (every entry
                   x normal and bare), cold. The venv's packages carry the bytecode pip wrote
                   when it installed them: importsafe parses a source that bytecode proves to
                   compile without its function bodies (src/importsafe/static/skim.py)
  importsafe-source  the same cold check of a copy of the package without `__pycache__` (the
                   copy importsafe-edit edits, checked with the same --source-root flags): as in
                   a fresh clone, every function body is parsed. Shown for reference; the cold
                   target is the installed package's
  importsafe-warm  the same with `--cache-dir DIR` instead, DIR filled by one untimed run first
  importsafe-edit  one edited file re-checked: the package is copied once into the scratch dir
                   (the venv is never edited) and checked with its own cache dir, filled by one
                   untimed run; before each timed run one fixed mid-level module of the copy
                   (EDIT_MODULES, or --edit PKG=PATH) gets `_importsafe_bench_edit = N`
                   appended, N the round, so every run sees content its cache has never seen.
                   The modules are ones much of the package imports, so an edit reaches most
                   entries (the report prints how many files name it). The copy is checked with
                   `--source-root COPY --source-root SITE_PACKAGES`, so its external packages
                   are found as in the venv and the outcomes equal the cold run's
  grimp            `grimp.build_graph(PKG, cache_dir=None)`, cold
  grimp-warm       `grimp.build_graph(PKG, cache_dir=DIR)`, DIR filled by one untimed run first
  pylint           `pylint --disable=all --enable=cyclic-import PKG`
  floor            one process doing read + ast.parse of every .py file of the package
Caches and the copy live under benchmarks/.work/scratch/run/PKG and are made anew by every
invocation. Every round runs every tool on every package, rotating the tool order, so machine
noise hits all tools alike. Times are the wall-clock of a fresh subprocess, from spawn to exit,
with bytecode caching on (under benchmarks/.work/pycache, whatever PYTHONDONTWRITEBYTECODE
says: installed tools run compiled code) and each tool's code compiled by an untimed run first;
peak RSS is its ru_maxrss from os.wait4 (the largest single process among it and its workers,
not their sum). "x floor" divides a tool's median by the floor's. Each package's report ends
with the issue's targets, PASS or FAIL: cold importsafe <= 1.0x the floor; importsafe-warm <=
grimp-warm; importsafe-edit < 0.5 s and the cold check's peak < 1024 MB (both set for torch,
shown for the other packages for reference). Exit status: 0 all ran, 1 some run failed or
timed out (a target's FAIL does not change it), 2 setup failed.
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

from common import (IMPORTSAFE_DEPS, PEERS, PIN_DEPS, PINS, WORK, BenchError, bytecode_env, ensure_venv, fmt,
                    importsafe_command, last_json, measure, package_dir, tail)

ENV = bytecode_env()  # every tool runs from compiled bytecode (see common.bytecode_env)

PACKAGES = {name: PINS[name] for name in ("sympy", "django", "pandas", "torch", "homeassistant")}
DEFAULT_PACKAGES = ("sympy", "django")
TOOLS = ("importsafe", "importsafe-source", "importsafe-warm", "importsafe-edit", "grimp", "grimp-warm",
         "pylint", "floor")
IMPORTSAFE_TOOLS = ("importsafe", "importsafe-source", "importsafe-warm", "importsafe-edit")
PREFILLED = ("importsafe-warm", "importsafe-edit", "grimp-warm")  # one untimed run fills the cache
# The module importsafe-edit edits, relative to the directory holding the package: a fixed
# mid-level module that much of the package imports (the number of files naming it is printed).
EDIT_MODULES = {"sympy": "sympy/core/sympify.py", "django": "django/utils/functional.py",
                "pandas": "pandas/core/dtypes/common.py", "torch": "torch/utils/_pytree.py",
                "homeassistant": "homeassistant/helpers/entity.py"}
EDIT_LINE = "\n_importsafe_bench_edit = {n}\n"
# The targets.
FLOOR_TARGET = 1.0  # cold importsafe / floor
EDIT_TARGET_S = 0.5  # importsafe-edit median, on torch
RACY_S = 2.1  # importsafe's runcache.RACY_NS, plus a margin
MEMORY_TARGET_MB = 1024.0  # peak RSS of the cold check, on torch
TARGET_PACKAGE = "torch"

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
# argv: package name, then the cache directory (none: no cache).
GRIMP_CODE = """
import json, sys, time
t = time.perf_counter()
import grimp
g = grimp.build_graph(sys.argv[1], cache_dir=sys.argv[2] if len(sys.argv) > 2 else None)
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


@dataclass
class Edit:
    """The file importsafe-edit changes in the package's copy, and its original content."""
    module: str  # relative path, as in EDIT_MODULES
    path: Path
    original: bytes
    importers: int  # .py files of the package that name the module (grep; for the report)

    def apply(self, n: int) -> None:
        """Give the file its original content plus one line naming n (a new file, renamed into
        place: never written through a link)."""
        data = self.original + EDIT_LINE.format(n=n).encode()
        fd, tmp = tempfile.mkstemp(dir=self.path.parent, suffix=".tmp")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, self.path)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--rounds", type=int, default=3, help="rounds per tool and package (default 3)")
    p.add_argument("--packages", default=",".join(DEFAULT_PACKAGES),
                   help=f"comma list, or all, from: {', '.join(PACKAGES)} (default {','.join(DEFAULT_PACKAGES)})")
    p.add_argument("--skip", default="", help="comma list of tools to skip, from: " + ", ".join(TOOLS))
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per tool run (default 600)")
    p.add_argument("--edit", action="append", default=[], metavar="PKG=PATH",
                   help="the file importsafe-edit edits in PKG, relative to the directory holding "
                        "the package (repeatable; default: " + ", ".join(EDIT_MODULES.values()) + ")")
    p.add_argument("--json", metavar="OUT", help="write the raw measurements to OUT")
    args = p.parse_args(argv)
    args.edit_modules = dict(EDIT_MODULES)
    for item in args.edit:
        pkg, sep, path = item.partition("=")
        if not sep or pkg not in PACKAGES or not path.endswith(".py") or path.startswith(("/", "..")):
            p.error(f"--edit wants PKG=PATH with PATH a .py file under the package, not {item!r}")
        args.edit_modules[pkg] = path
    names = [s.strip() for s in args.packages.split(",") if s.strip()]
    args.packages = list(PACKAGES) if names == ["all"] else list(dict.fromkeys(names))
    args.skip = {s.strip() for s in args.skip.split(",") if s.strip()}
    unknown = [x for x in args.packages if x not in PACKAGES] + sorted(args.skip - set(TOOLS))
    if unknown:
        p.error(f"unknown package or tool: {', '.join(unknown)}")
    if args.rounds < 1 or not args.packages or args.skip >= set(TOOLS):
        p.error("need at least one round, one package and one tool")
    return args


def pins_for(packages: list[str]) -> list[str]:
    return [pin for name in packages for pin in (PACKAGES[name], *PIN_DEPS.get(name, ()))] \
        + list(PEERS) + list(IMPORTSAFE_DEPS)


# --- measuring -------------------------------------------------------------------------

def judge(tool: str, rc: int | None, stdout: str, stderr: str) -> tuple[str, float | None, dict]:
    """Turn one tool's exit code and output into (status, inner seconds, details)."""
    if rc is None:
        return "timeout", None, {}
    if tool in IMPORTSAFE_TOOLS:
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
    try:
        data = last_json(stdout)
        return "ok", data.pop("seconds"), data
    except (ValueError, KeyError, AttributeError):
        return "error", None, {"stderr": "unexpected output: " + tail(stdout, 3)}


def importsafe_summary(stdout: str) -> dict:
    try:
        report = json.loads(stdout)
    except json.JSONDecodeError as exc:
        return {"json_error": str(exc), "stderr": "stdout is not JSON: " + stdout[:200]}
    outcomes = Counter(r.get("outcome") for r in report.get("results", []))
    severities = Counter(d.get("severity") for d in report.get("diagnostics", []))
    return {"results": sum(outcomes.values()), "outcomes": dict(outcomes),
            "diagnostics": len(report.get("diagnostics", [])), "severities": dict(severities)}


def commands(tools: list[str], py: Path, name: str, pkg: Path, isafe: tuple[list[str], bool] | None,
             dirs: dict[str, Path] | None = None) -> dict:
    """The command line of each tool for one package; `dirs` holds the scratch paths (caches,
    the copy) of the tools that need them."""
    dirs = dirs or {}
    cmds = {"floor": [str(py), "-c", FLOOR_CODE, str(pkg)],
            "grimp": [str(py), "-c", GRIMP_CODE, name],
            "pylint": [str(py), "-m", "pylint", "--persistent=n", "--disable=all",
                       "--enable=cyclic-import", str(pkg)]}
    if "grimp-warm" in dirs:
        cmds["grimp-warm"] = [str(py), "-c", GRIMP_CODE, name, str(dirs["grimp-warm"])]
    if isafe:
        base, no_cache = isafe
        check = [*base, "check", str(pkg), "--format", "json"]
        cmds["importsafe"] = [*check, *(["--no-cache"] if no_cache else [])]
        if "importsafe-warm" in dirs:
            cmds["importsafe-warm"] = [*check, "--cache-dir", str(dirs["importsafe-warm"])]
        if "copy" in dirs:
            copy = dirs["copy"] / pkg.name
            on_copy = [*base, "check", str(copy), "--format", "json",
                       "--source-root", str(dirs["copy"]), "--source-root", str(pkg.parent)]
            cmds["importsafe-source"] = [*on_copy, *(["--no-cache"] if no_cache else [])]
            if "importsafe-edit" in dirs:
                cmds["importsafe-edit"] = [*on_copy, "--cache-dir", str(dirs["importsafe-edit"])]
    return {t: cmds[t] for t in tools}


def bench(args: argparse.Namespace, plan: dict[str, dict], edits: dict[str, Edit], scratch: Path) -> list[Run]:
    """Interleave: each round runs every package with every tool, rotating the tool order."""
    runs: list[Run] = []
    for r in range(args.rounds):
        for name, cmds in plan.items():
            order = list(cmds)[r % len(cmds):] + list(cmds)[:r % len(cmds)]
            for tool in order:
                if tool == "importsafe-edit":
                    edits[name].apply(r + 1)
                rc, wall, rss, out, err = measure(cmds[tool], args.timeout, scratch, ENV)
                status, inner, detail = judge(tool, rc, out, err)
                runs.append(Run(name, tool, r, status, wall, rss, rc, inner, detail))
                print(f"  round {r + 1}/{args.rounds} {name:13} {tool:17} {status:7} {wall:8.2f}s "
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


def targets(name: str, table: dict) -> list[dict]:
    """The issue's targets for one package: each {target, verdict (PASS | FAIL | n/a), value,
    set_for, applies (False: a torch target, shown for reference)}."""
    def median(tool):
        s = table.get(tool)
        return s["median"] if s and s["status"] == "ok" else None

    def missing(*tools):
        gone = [t for t in tools if median(t) is None]
        return ", ".join(f"{t} {'skipped' if table.get(t) is None else table[t]['status']}" for t in gone)

    out = []

    def add(target, tools, ok, value, scope=None):
        why = missing(*tools)
        verdict = "n/a" if why else ("PASS" if ok() else "FAIL")
        out.append({"target": target, "verdict": verdict, "value": why or value(),
                    "set_for": scope or "every package", "applies": scope in (None, name)})

    cold, floor = median("importsafe"), median("floor")
    add(f"cold importsafe <= {FLOOR_TARGET:.1f}x floor", ("importsafe", "floor"),
        lambda: cold / floor <= FLOOR_TARGET, lambda: f"{cold / floor:.2f}x ({cold:.2f} s vs {floor:.2f} s)")
    warm, gwarm = median("importsafe-warm"), median("grimp-warm")
    add("importsafe-warm <= grimp-warm", ("importsafe-warm", "grimp-warm"),
        lambda: warm <= gwarm, lambda: f"{warm:.2f} s vs {gwarm:.2f} s ({warm / gwarm:.2f}x)")
    edit = median("importsafe-edit")
    add(f"importsafe-edit < {EDIT_TARGET_S} s", ("importsafe-edit",),
        lambda: edit < EDIT_TARGET_S, lambda: f"{edit:.2f} s", TARGET_PACKAGE)
    peak = table["importsafe"]["rss"] if median("importsafe") is not None else None
    add(f"cold importsafe peak < {MEMORY_TARGET_MB:.0f} MB", ("importsafe",),
        lambda: peak < MEMORY_TARGET_MB, lambda: f"{peak:.0f} MB", TARGET_PACKAGE)
    return out


def print_package(name: str, runs: list[Run], counts: dict, tools: list[str], edit: Edit | None) -> list[dict]:
    print(f"\n{name} ({PACKAGES[name]}): {counts['files']} .py files, {counts['lines']} lines ({counts['dir']})")
    if edit is not None:
        print(f"  importsafe-edit edits {edit.module} (named by {edit.importers} files of the package)")
    print(f"  {'tool':17} {'status':8} {'median s':>9} {'min s':>8} {'peak MB':>8} {'x floor':>8}  notes")
    table = {t: stats(runs, name, t) for t in tools}
    table = {t: s for t, s in table.items() if s is not None}
    floor = (table.get("floor") or {}).get("median")
    for tool, s in table.items():
        ratio = s["median"] / floor if s["median"] and floor else None
        note = {k: v for k, v in s["last"].detail.items() if k != "stderr"}
        if s["last"].inner_s is not None:
            note["in-process s"] = round(s["last"].inner_s, 3)
        print(f"  {tool:17} {s['status']:8} {fmt(s['median']):>9} {fmt(s['min']):>8} "
              f"{s['rss']:8.0f} {fmt(ratio, '.1f', 'x'):>8}  {json.dumps(note) if note else ''}")
    med = {t: s["median"] for t, s in table.items()}
    for mine, peer in (("importsafe", "grimp"), ("importsafe-warm", "grimp-warm"), ("importsafe", "pylint"),
                       ("importsafe-source", "floor")):
        if med.get(mine) and med.get(peer):
            print(f"  {mine} / {peer}: {med[mine] / med[peer]:.2f}x")
    cold, edited = table.get("importsafe"), table.get("importsafe-edit")
    if cold and edited and cold["status"] == edited["status"] == "ok" \
            and cold["last"].detail.get("outcomes") != edited["last"].detail.get("outcomes"):
        print(f"  note: importsafe-edit's outcomes {edited['last'].detail.get('outcomes')} differ from the "
              f"cold check's {cold['last'].detail.get('outcomes')}")
    verdicts = targets(name, table)
    print("  targets:")
    for t in verdicts:
        scope = "" if t["applies"] else f"  (set for {t['set_for']}; here for reference)"
        print(f"    {t['verdict']:4}  {t['target']}: {t['value']}{scope}")
    return verdicts


# --- setting up ------------------------------------------------------------------------

def _copy_file(src: str, dst: str) -> None:
    """Sources are copied (they may be edited); anything else is hard-linked when it can be
    (torch's shared libraries), since importsafe only sees that it is there."""
    if not src.endswith(".py"):
        try:
            os.link(src, dst)
            return
        except OSError:
            pass
    shutil.copy2(src, dst)


def make_copy(module: str, pkg: Path, copy_root: Path) -> Edit:
    """Copy the package into copy_root (anew) and return the file importsafe-edit changes."""
    if not (pkg.parent / module).is_file() or Path(module).parts[0] != pkg.name:
        raise BenchError(f"importsafe-edit: {module} is not a file of {pkg}")
    shutil.rmtree(copy_root, ignore_errors=True)
    copy_root.mkdir(parents=True)
    shutil.copytree(pkg, copy_root / pkg.name, ignore=shutil.ignore_patterns("__pycache__"),
                    copy_function=_copy_file)
    path = copy_root / module
    return Edit(module, path, path.read_bytes(), importers(pkg, module))


def importers(pkg: Path, module: str) -> int:
    """How many .py files of the package mention the module's dotted name or, for a relative
    import, its last part next to `import` (a rough count, for the report)."""
    dotted = module[:-3].replace("/", ".")
    last = dotted.rpartition(".")[2]
    count = 0
    for path in pkg.rglob("*.py"):
        text = path.read_text(errors="replace")
        if dotted in text or f"import {last}" in text or f".{last} import" in text:
            count += 1
    return count


def prepare(args: argparse.Namespace, tools: list[str], scratch: Path) -> tuple[dict, dict, dict]:
    """Install what is needed, make each package's caches and copy; return each package's tool
    commands, its file/line counts and its Edit."""
    py = ensure_venv(pins_for(args.packages))
    isafe = importsafe_command(python=str(py)) if set(tools) & set(IMPORTSAFE_TOOLS) else None
    if isafe and not isafe[1]:
        print("note: importsafe has no --no-cache flag; running it as is", file=sys.stderr)
    if isafe and set(tools) & {"importsafe-warm", "importsafe-edit"} \
            and not importsafe_command("check", "--cache-dir", str(py))[1]:
        raise BenchError("importsafe has no --cache-dir flag: skip importsafe-warm,importsafe-edit")
    # compile every tool's own code once, untimed (ENV caches bytecode, as a pip install does)
    warmups = {"importsafe": [*isafe[0], "--version"] if isafe else None,
               "grimp": [str(py), "-c", "import grimp"], "pylint": [str(py), "-m", "pylint", "--version"]}
    for tool, cmd in warmups.items():
        if cmd and any(t.startswith(tool) for t in tools):
            measure(cmd, args.timeout, scratch, ENV)
    plan, counts, edits = {}, {}, {}
    for name in args.packages:
        pkg = package_dir(py, name)
        # an untimed floor pass: counts files and lines, and warms the page cache
        rc, *_, out, err = measure(commands(["floor"], py, name, pkg, None)["floor"], args.timeout, scratch)
        if rc != 0:
            raise BenchError(f"cannot read the sources of {name} in {pkg}:\n{tail(err, 5)}")
        counts[name] = {**last_json(out), "dir": str(pkg)}
        work = scratch / "run" / name
        dirs = {tool: work / f"{tool}-cache" for tool in PREFILLED if tool in tools}
        for d in dirs.values():
            shutil.rmtree(d, ignore_errors=True)
            d.mkdir(parents=True)
        if {"importsafe-edit", "importsafe-source"} & set(tools):
            dirs["copy"] = work / "copy"
            print(f"copying {pkg} to {dirs['copy']} ...", flush=True)
            edits[name] = make_copy(args.edit_modules[name], pkg, dirs["copy"])
        plan[name] = commands(tools, py, name, pkg, isafe, dirs)
        if "copy" in dirs:
            # hard-linking the copy's non-source files (extension modules) changed their ctime
            # in the venv: importsafe's run cache does not trust a path changed within 2 s of
            # a run's start (git's racy-clean rule), so the filling run would not be reused
            time.sleep(RACY_S)
        for tool in PREFILLED:  # one untimed run fills each cache
            if tool in plan[name]:
                print(f"filling {tool}'s cache for {name} ...", flush=True)
                rc, wall, _, out, err = measure(plan[name][tool], args.timeout, scratch, ENV)
                status, _, detail = judge(tool, rc, out, err)
                if status != "ok":
                    print(f"  warning: the untimed {tool} run on {name} gave {status} (exit {rc}) after "
                          f"{wall:.1f} s:\n{detail.get('stderr', '')}", file=sys.stderr)
    return plan, counts, edits


def write_json(path: str, args: argparse.Namespace, plan: dict, counts: dict, edits: dict,
               verdicts: dict, runs: list[Run], total: float) -> None:
    meta = {"python": sys.version, "platform": platform.platform(), "cpus": os.cpu_count(),
            "pins": pins_for(args.packages), "rounds": args.rounds, "total_s": total,
            "commands": plan, "edits": {n: {"module": e.module, "copy": str(e.path), "importers": e.importers,
                                            "line": EDIT_LINE} for n, e in edits.items()}}
    Path(path).write_text(json.dumps({"meta": meta, "packages": counts, "targets": verdicts,
                                      "runs": [asdict(r) for r in runs]}, indent=1))
    print(f"raw measurements written to {path}")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    tools = [t for t in TOOLS if t not in args.skip]
    scratch = WORK / "scratch"
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        plan, counts, edits = prepare(args, tools, scratch)
        start = time.perf_counter()
        runs = bench(args, plan, edits, scratch)
        total = time.perf_counter() - start
    except (BenchError, subprocess.CalledProcessError, OSError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    verdicts = {name: print_package(name, runs, counts[name], tools, edits.get(name)) for name in plan}
    tally = Counter(t["verdict"] for ts in verdicts.values() for t in ts if t["applies"])
    print(f"\n{args.rounds} round(s) took {total:.0f} s on {os.cpu_count()} CPUs, Python {platform.python_version()}; "
          f"targets: {tally['PASS']} PASS, {tally['FAIL']} FAIL, {tally['n/a']} n/a")
    if args.json:
        write_json(args.json, args, plan, counts, edits, verdicts, runs, total)
    return 1 if any(r.status != "ok" for r in runs) else 0


if __name__ == "__main__":
    sys.exit(main())
