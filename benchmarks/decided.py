#!/usr/bin/env python3
"""How much of real code does `importsafe check` decide? A survey of 26 popular packages.

    python3 benchmarks/decided.py [--packages a,b] [--jobs N] [--json OUT]
                                  [--verify [--install-timeout S] [--verify-timeout S]]

Static part. Each package's pinned wheel (PINS below: the latest release on PyPI for Python 3.11
when the table was written; torch is the 2.13.0 CPU wheel on this machine's disk, jax is jax's
own pure-Python wheel without jaxlib) is fetched with `pip download --no-deps --only-binary=:all:`
into benchmarks/.work/wheels/ and unpacked (a wheel is a zip) into
benchmarks/.work/decided/PKG/, once: the tree is reused while the pin it was made from matches.
Nothing is installed. The unpacked tree holds the wheel's `*.dist-info`, so it is an
installation directory to importsafe, where other distributions are external (docs/modelled.md:
Assumptions); the check is run on the top-level packages (and top-level modules) that the
wheel's top_level.txt, else its RECORD, names:

    importsafe check TREE/TOP... --format json --no-cache --mode normal,bare

with this checkout's importsafe (src/) and the interpreter of the benchmark venv
(benchmarks/.work/venv, common.ensure_venv: only importsafe's pinned runtime dependencies are
asked of it). The wheels carry no bytecode, so every function body is parsed, as in a fresh
clone. One row per package: modules (entries), pairs (entry x mode results), ok, error,
unknown, the unknown share, the results that carry an assumption `--strict` refuses (an
"assumes" entry of kind "order": the ordinary-order rule, or of no kind; "listing": a
directory's order; "decorator": a class decorator taken to give the class back) and those
resting on the ordinary environment (kinds "environment", "version" and "installed": an
environment variable, an installed version, an optional module installed nowhere) and the
check's wall time; an
overall row; then each package's top unknown reasons, normalised to their idiom (module and
file names, line numbers and quoted names stripped, so that one idiom is one row), with one
raw example each; the same over the whole survey; then the targets, PASS or FAIL: at most 1%
unknown on every package, at most 0.3% over all, IS201 = 0 on the verified packages.

--verify part (off by default: it is slow). For each package, a scratch venv
benchmarks/.work/verify-venvs/PKG/ (Python 3.11) gets `pip install PIN` with its dependencies
(VERIFY_EXTRAS adds a few optional ones that most of a package's modules import, VERIFY_ENV
sets keras' backend; torch is constrained to the 2.13.0 wheel on disk), each install
time-boxed (--install-timeout); a package whose install fails or times out is skipped, with
pip's reason. The venv is reused while its marker records the same pins. Then

    importsafe check SITE/TOP... --verify --mode normal,bare --format json

runs with that venv's interpreter (`check --verify` imports with the interpreter importsafe runs
in; importsafe's own dependencies come from benchmarks/.work/importsafe-deps, put on that
process's sys.path only, so the venv under test stays as pip made it), time-boxed per package
(--verify-timeout). It counts IS201 (disagreement), IS202 (static unknown), IS203 (a real
failure from the external-module assumption), IS206 (a run-time failure) and IS207 (a real
failure on a name the ordinary-order rule assumed bound) and lists every
IS201: entry, mode, static vs real outcome, grouped by where the real run failed; "silent
misses" (static ok, real failure) are counted on their own.

--jobs N checks N packages at once, each importsafe with -j (cores // N); default 1.
Everything printed also goes to benchmarks/.work/results/decided-TIMESTAMP.log, headed by the
date and the command line. --json OUT writes the results. Exit status: 0 everything ran, 1
some package could not be fetched, checked or verified (it is reported as skipped, with the
reason, and the others go on; a verify install that fails is a skip and does not count), 2 the
setup failed.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
import threading
import time
import zipfile
from collections import Counter
from pathlib import Path

from common import (IMPORTSAFE_DEPS, SRC, WORK, BenchError, bytecode_env, ensure_importsafe_deps,
                    ensure_venv, importsafe_command, measure_run, tail)

# The surveyed packages, pinned: the latest release with a wheel for Python 3.11 on PyPI on
# 2026-12-01 (`pip index versions NAME` under Python 3.11), torch the CPU wheel on disk.
PINS = {
    "torch": "torch==2.13.0",
    "transformers": "transformers==5.24.0",
    "scipy": "scipy==1.17.1",
    "scikit-image": "scikit-image==0.26.0",
    "networkx": "networkx==3.6.1",
    "openai": "openai==3.57.0",
    "pandas": "pandas==3.1.1",
    "matplotlib": "matplotlib==3.11.2",
    "sympy": "sympy==1.14.0",
    "django": "Django==5.2.19",
    "botocore": "botocore==1.44.8",
    "sqlalchemy": "SQLAlchemy==2.1.9",
    "pydantic": "pydantic==2.14.4",
    "httpx": "httpx==0.28.1",
    "rich": "rich==15.0.0",
    "celery": "celery==5.7.0",
    "aiohttp": "aiohttp==3.14.5",
    "flask": "Flask==3.1.3",
    "sphinx": "Sphinx==9.0.4",
    "pytest": "pytest==9.2.0",
    "setuptools": "setuptools==84.2.1",
    "jax": "jax==0.10.2",
    "keras": "keras==3.15.1",
    "dask": "dask==2026.8.0",
    "bokeh": "bokeh==3.9.2",
    "plotly": "plotly==7.1.0",
}
# --verify: optional dependencies installed beside a package because most of its modules import
# them (transformers' models import torch); everything else is the package's declared deps.
VERIFY_EXTRAS: dict[str, tuple[str, ...]] = {
    "transformers": ("torch==2.13.0",),
    "keras": ("torch==2.13.0",),  # a backend (the default, tensorflow, has no wheel on disk)
    "dask": ("dask[array,dataframe]==2026.8.0",),  # numpy and pandas, which most modules import
}
# --verify: environment variables for the real imports and, as --env, for the static check
# (keras picks its backend at import time).
VERIFY_ENV: dict[str, dict[str, str]] = {"keras": {"KERAS_BACKEND": "torch"}}
# pip may take torch only from the CPU wheel on disk (never a newer, CUDA build).
VERIFY_CONSTRAINTS = "torch==2.13.0\n"
ENVIRONMENT_KINDS = ("environment", "version", "installed")  # the other Assumption kinds: --strict's
PYTHON = (3, 11)  # the wheels and the verify venvs are for this Python
MODES = "normal,bare"

WHEELS = WORK / "wheels"
TREES = WORK / "decided"
VENVS = WORK / "verify-venvs"
RESULTS = WORK / "results"
SCRATCH = WORK / "scratch" / "decided"
PIN_MARKER = ".decided-pin.json"

# The targets.
UNKNOWN_MAX_PACKAGE = 1.0  # % of a package's (entry, mode) pairs
UNKNOWN_MAX_OVERALL = 0.3  # % of all pairs
TOP_REASONS = 5
VERIFY_CODES = ("IS201", "IS202", "IS203", "IS206", "IS207", "IS208")


class Skip(Exception):
    """This package cannot be surveyed (the reason is the message); the others go on."""


# --- output: the screen and the log -------------------------------------------------------

class Tee:
    """Writes to a stream and to the log file (the run's full output)."""

    def __init__(self, stream, log):
        self.stream, self.log = stream, log
        self.lock = threading.Lock()

    def write(self, text):
        with self.lock:
            self.stream.write(text)
            self.log.write(text)
        return len(text)

    def flush(self):
        self.stream.flush()
        self.log.flush()

    def isatty(self):
        return False


# --- fetching and unpacking ----------------------------------------------------------------

def project(pin: str) -> str:
    return re.split(r"[=<>!~\[ ;]", pin, maxsplit=1)[0].strip()


def version(pin: str) -> str:
    return pin.partition("==")[2].strip()


def wheel_key(name: str) -> str:
    """A project name as wheel file names spell it (PEP 427/503), for matching."""
    return re.sub(r"[-_.]+", "_", name).lower()


def run_capped(cmd: list[str], timeout: float, env: dict | None = None) -> dict:
    """common.measure_run in the scratch directory (it kills the process group on timeout)."""
    SCRATCH.mkdir(parents=True, exist_ok=True)
    return measure_run(cmd, timeout, SCRATCH, env)


def fetch(name: str, pin: str, timeout: float) -> dict:
    """The package's unpacked wheel: {tree, wheel, fetched ("reused" | "unpacked")}."""
    tree = TREES / name
    marker = tree / PIN_MARKER
    if marker.is_file():
        try:
            seen = json.loads(marker.read_text())
        except ValueError:
            seen = {}
        if seen.get("pin") == pin and seen.get("python") == list(PYTHON):
            return {"tree": tree, "wheel": seen.get("wheel"), "fetched": "reused"}
    WHEELS.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, "-m", "pip", "download", "--disable-pip-version-check", "--no-deps",
           "--only-binary=:all:", "--python-version", ".".join(map(str, PYTHON)), "-d", str(WHEELS), pin]
    m = run_capped(cmd, timeout)
    if m["rc"] != 0:
        why = "timed out" if m["rc"] is None else f"exit {m['rc']}"
        raise Skip(f"pip download {pin} failed ({why}): {tail(m['stderr'] or m['stdout'], 3)}")
    wheel = _downloaded(m["stdout"], pin)
    if wheel is None:
        raise Skip(f"pip download {pin} gave no wheel I can find in {WHEELS}: {tail(m['stdout'], 3)}")
    tmp = TREES / f".{name}.unpacking"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        with zipfile.ZipFile(wheel) as z:
            z.extractall(tmp)
    except (zipfile.BadZipFile, OSError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        raise Skip(f"cannot unpack {wheel.name}: {exc}") from None
    (tmp / PIN_MARKER).write_text(json.dumps({"pin": pin, "wheel": wheel.name, "python": list(PYTHON)}))
    shutil.rmtree(tree, ignore_errors=True)
    tmp.rename(tree)
    return {"tree": tree, "wheel": wheel.name, "fetched": "unpacked"}


def _downloaded(stdout: str, pin: str) -> Path | None:
    """The wheel pip saved (or found already saved) for `pin`."""
    for line in stdout.splitlines():
        m = re.search(r"(?:Saved|File was already downloaded) (\S+\.whl)\s*$", line.strip())
        if m:
            path = Path(m.group(1))
            path = path if path.is_absolute() else SCRATCH / path
            if path.is_file():
                return path
    key, ver = wheel_key(project(pin)), version(pin)
    found = [p for p in WHEELS.glob("*.whl")
             if wheel_key(p.name.split("-")[0]) == key and p.name.split("-")[1].split("+")[0] == ver]
    return max(found, key=lambda p: p.stat().st_mtime) if found else None


def dist_info(root: Path, name: str) -> Path | None:
    """The `*.dist-info` of project `name` in `root`."""
    key = wheel_key(name)
    for d in sorted(root.glob("*.dist-info")):
        if wheel_key(d.name[:-len(".dist-info")].rsplit("-", 1)[0]) == key:
            return d
    return None


def top_levels(root: Path, name: str) -> list[Path]:
    """The top-level packages (directories) and modules (.py files) of the distribution
    installed or unpacked in `root`: as its top_level.txt, else its RECORD, names them."""
    meta = dist_info(root, name)
    if meta is None:
        raise Skip(f"no {name} *.dist-info in {root}")
    tops: list[str] = []
    listed = meta / "top_level.txt"
    if listed.is_file():
        tops = [t.strip() for t in listed.read_text(errors="replace").splitlines() if t.strip()]
    if not tops and (meta / "RECORD").is_file():
        for line in (meta / "RECORD").read_text(errors="replace").splitlines():
            path = line.rsplit(",", 2)[0].strip().strip('"').replace("\\", "/") if line.strip() else ""
            head = path.split("/")[0]
            if not head or head.endswith((".dist-info", ".data")) or head in ("..", "__pycache__"):
                continue
            if "/" not in path:
                if not head.endswith(".py"):
                    continue  # a .pth file, a script, an extension module
                head = head[:-3]
            tops.append(head)
    out = []
    for top in dict.fromkeys(tops):
        if "/" in top or not top.isidentifier():
            continue
        if (root / top).is_dir():
            out.append(root / top)
        elif (root / f"{top}.py").is_file():
            out.append(root / f"{top}.py")
    if not out:
        raise Skip(f"{meta.name} names no top-level package or module in {root}")
    return out


# --- the static check ----------------------------------------------------------------------

def static_check(name: str, got: dict, isafe: list[str], jobs: int, timeout: float) -> dict:
    tree = got["tree"]
    paths = top_levels(tree, project(PINS[name]))
    # the tree is the source root, given: inferred, a namespace package's directory
    # (mpl_toolkits/, no __init__.py) would be a root of its own
    cmd = [*isafe, "check", *map(str, paths), "--source-root", str(tree), "--format", "json",
           "--no-cache", "--mode", MODES, "-j", str(jobs)]
    m = run_capped(cmd, timeout, bytecode_env())
    if m["rc"] is None:
        raise Skip(f"importsafe check timed out after {timeout:.0f} s")
    try:
        report = json.loads(m["stdout"])
    except ValueError:
        raise Skip(f"importsafe check exited {m['rc']} without a JSON report: "
                   f"{tail(m['stderr'] or m['stdout'], 5)}") from None
    if m["rc"] not in (0, 1):
        raise Skip(f"importsafe check exited {m['rc']}: {tail(m['stderr'], 5)}")
    return {**summarise(report["results"], tree), "wall_s": m["wall"], "rss_mb": m["rss_mb"],
            "tops": [p.name for p in paths], "command": cmd}


def summarise(results: list[dict], base: Path) -> dict:
    outcomes = Counter(r.get("outcome") for r in results)
    reasons: dict[str, dict] = {}
    for r in results:
        if r.get("outcome") != "unknown":
            continue
        raw = r.get("reason") or "(no reason)"
        idiom = normalise(raw)
        slot = reasons.setdefault(idiom, {"idiom": idiom, "pairs": 0, "examples": []})
        slot["pairs"] += 1
        if len(slot["examples"]) < 3 and all(e["reason"] != raw for e in slot["examples"]):
            slot["examples"].append({"entry": r.get("entry"), "mode": r.get("mode"),
                                     "reason": raw.replace(str(base) + os.sep, "")})
    pairs = len(results)
    return {"modules": len({r.get("entry") for r in results}), "pairs": pairs,
            "ok": outcomes.get("ok", 0), "error": outcomes.get("error", 0),
            "unknown": outcomes.get("unknown", 0),
            "other": sum(n for o, n in outcomes.items() if o not in ("ok", "error", "unknown")),
            "unknown_pct": 100.0 * outcomes.get("unknown", 0) / pairs if pairs else 0.0,
            "assumes": sum(1 for r in results if any(
                a.get("kind", "order") not in ENVIRONMENT_KINDS for a in r.get("assumes", ()))),
            "environment": sum(1 for r in results if any(
                a.get("kind", "order") in ENVIRONMENT_KINDS for a in r.get("assumes", ()))),
            "reasons": sorted(reasons.values(), key=lambda s: (-s["pairs"], s["idiom"])),
            # every unknown result, for --json: [entry, mode, reason]
            "unknowns": [[r.get("entry"), r.get("mode"), (r.get("reason") or "").replace(str(base) + os.sep, "")]
                         for r in results if r.get("outcome") == "unknown"]}


# Reasons come from importsafe's simulator (static/simulate.py and friends); each rule maps
# one shape to its idiom. Whatever no rule knows is masked generically (mask()).
_Q = r"'[^']*'"
IDIOM_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(rf"^module {_Q} has a __getattr__ that may answer for {_Q}$"),
     "module __getattr__ (PEP 562) may answer"),
    (re.compile(rf"^{_Q} may bind {_Q} dynamically: (?P<why>.*)$"),
     lambda m: "names bound dynamically: " + mask(m["why"])),
    (re.compile(rf"^{_Q} may be bound dynamically in {_Q}: (?P<why>.*)$"),
     lambda m: "names bound dynamically: " + mask(m["why"])),
    (re.compile(rf"^__all__ of {_Q} cannot be read statically$"),
     "__all__ of a package cannot be read statically (star import)"),
    (re.compile(r"^cannot tell whether the handler at line \d+ catches (?P<exc>\w+)$"),
     lambda m: f"except clause with a non-builtin exception class (catches {m['exc']}?)"),
    (re.compile(rf"^__lazy_modules__ of {_Q} cannot be read.*$"), "__lazy_modules__ cannot be read"),
    # a failure in code that may not run: "EXC (message) raised WHY"
    (re.compile(r"^(?P<exc>\w+) \((?P<msg>.*)\) raised (?P<why>(?:inside|after|although) .*)$", re.S),
     lambda m: f"{m['exc']} ({_message_kind(m['msg'])}) {_uncertain(m['why'])}"),
]


def _message_kind(msg: str) -> str:
    if msg.startswith("No module named"):
        return "no module"
    if "partially initialized" in msg:
        return "partially initialized module"
    if msg.startswith("cannot import name"):
        return "cannot import name"
    if " has no attribute " in msg:
        return "no attribute"
    return mask(msg)


def _uncertain(why: str) -> str:
    if why.startswith("inside `if` at"):
        return "inside an `if` whose condition cannot be decided"
    if why.startswith("inside the `else` of the loop"):
        return "inside a loop's `else` (the loop may break)"
    if why.startswith("after `if` at"):
        return "after an `if` that may leave the function first"
    if why.startswith("although"):
        return "although another module may put it into sys.modules at run time"
    return mask(why)


def mask(text: str) -> str:
    """Strip what names one place: quoted names, paths and line numbers, other numbers."""
    text = re.sub(r"[^\s(]+\.pyi?:\d+", "FILE:N", text)
    text = re.sub(r"[^\s(]+\.pyi?\b", "FILE", text)
    text = re.sub(r"'[^']*'", "'X'", text)
    text = re.sub(r"\bline \d+", "line N", text)
    return re.sub(r"\b\d+\b", "N", text)


def normalise(reason: str) -> str:
    for pattern, idiom in IDIOM_RULES:
        m = pattern.match(reason)
        if m:
            return idiom(m) if callable(idiom) else idiom
    return mask(reason)


# --- --verify ------------------------------------------------------------------------------

def python311() -> str:
    """An interpreter of PYTHON's version: this one, else pythonX.Y on PATH, else pyenv's."""
    if sys.version_info[:2] == PYTHON:
        return sys.executable
    exe = shutil.which("python%d.%d" % PYTHON)
    if exe:
        return exe
    root = Path(os.environ.get("PYENV_ROOT", Path.home() / ".pyenv")) / "versions"
    for d in sorted(root.glob("%d.%d.*" % PYTHON), reverse=True):
        if (d / "bin" / "python").exists():
            return str(d / "bin" / "python")
    raise BenchError("no Python %d.%d found for the verify venvs" % PYTHON)


def verify_venv(name: str, timeout: float) -> tuple[Path, str]:
    """The package's verify venv, made (anew) unless its marker records the same pins;
    returns (its interpreter, "reused" | "installed in N s")."""
    venv = VENVS / name
    py = venv / "bin" / "python"
    pins = [PINS[name], *VERIFY_EXTRAS.get(name, ())]
    marker = venv / "decided-pins.txt"
    want = "\n".join(pins) + "\n"
    if py.exists() and marker.is_file() and marker.read_text() == want:
        return py, "reused"
    shutil.rmtree(venv, ignore_errors=True)
    VENVS.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run([python311(), "-m", "venv", str(venv)], capture_output=True, text=True)
    if proc.returncode != 0:
        raise Skip(f"cannot make the venv {venv}: {tail(proc.stderr, 3)}")
    constraints = VENVS / "constraints.txt"
    constraints.write_text(VERIFY_CONSTRAINTS)
    m = run_capped([str(py), "-m", "pip", "install", "--disable-pip-version-check", "-q",
                    "-c", str(constraints), *pins], timeout)
    if m["rc"] != 0:
        shutil.rmtree(venv, ignore_errors=True)
        if m["rc"] is None:
            raise Skip(f"pip install {' '.join(pins)} took over {timeout:.0f} s (time-box); skipped")
        raise Skip(f"pip install {' '.join(pins)} failed (exit {m['rc']}): {tail(m['stderr'], 4)}")
    marker.write_text(want)
    return py, f"installed in {m['wall']:.0f} s"


def site_packages(py: Path) -> Path:
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    proc = subprocess.run([str(py), "-c", code], capture_output=True, text=True)
    if proc.returncode != 0:
        raise Skip(f"{py} does not start: {tail(proc.stderr, 3)}")
    return Path(proc.stdout.strip())


_DIAG = re.compile(r"^first import of (?P<entry>\S+) \((?P<mode>\w+)\): static: (?P<static>.*?); "
                   r"dynamic: (?P<dynamic>.*?)(?: \[(?P<detail>.*)\])?(?:; static: (?P<reason>.*)|; the static failure.*)?$",
                   re.S)


def verify_package(name: str, deps: Path, jobs: int, install_timeout: float, timeout: float) -> dict:
    py, how = verify_venv(name, install_timeout)
    site = site_packages(py)
    paths = top_levels(site, project(PINS[name]))
    isafe, _ = importsafe_command(python=str(py), deps=deps)
    cmd = [*isafe, "check", *map(str, paths), "--source-root", str(site), "--verify", "--mode", MODES,
           "--format", "json", "-j", str(jobs)]
    for variable, value in VERIFY_ENV.get(name, {}).items():  # the static side reads them too
        cmd += ["--env", f"{variable}={value}"]
    # the venv's bytecode (pip compiled it) is what its imports and importsafe's skim use: no
    # PYTHONPYCACHEPREFIX here, and nothing written (importsafe's own code is compiled in memory)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(VERIFY_ENV.get(name, {}))
    m = run_capped(cmd, timeout, env)
    if m["rc"] is None:
        raise Skip(f"check --verify took over {timeout:.0f} s (--verify-timeout); stopped")
    try:
        report = json.loads(m["stdout"])
    except ValueError:
        raise Skip(f"check --verify exited {m['rc']} without a JSON report: "
                   f"{tail(m['stderr'] or m['stdout'], 5)}") from None
    static = {(r["entry"], r["mode"]): r for r in report["results"]}
    counts = Counter(d["code"] for d in report["diagnostics"] if d["code"] in VERIFY_CODES)
    disagreements = []
    for d in report["diagnostics"]:
        if d["code"] != "IS201":
            continue
        p = _DIAG.match(d["message"])
        entry, mode = (p["entry"], p["mode"]) if p else (None, None)
        s = static.get((entry, mode), {})
        real = p["dynamic"] if p else "?"
        disagreements.append({
            "entry": entry, "mode": mode, "static": p["static"] if p else s.get("outcome"),
            "dynamic": real, "detail": (p["detail"] or "") if p else d["message"],
            "file": _rel(d.get("file") or "", site), "line": d.get("line"),
            "silent_miss": s.get("outcome") == "ok" and real != "ok"})
    return {"venv": str(VENVS / name), "install": how, "site": str(site),
            "tops": [p.name for p in paths], "wall_s": m["wall"], "rc": m["rc"],
            "counts": {c: counts.get(c, 0) for c in VERIFY_CODES},
            "silent_misses": sum(x["silent_miss"] for x in disagreements),
            "pairs": len(report["results"]), "is201": disagreements, "command": cmd}


def _rel(path: str, base: Path) -> str:
    try:
        return str(Path(path).relative_to(base))
    except ValueError:
        return path


def is201_groups(items: list[dict]) -> list[dict]:
    """IS201s grouped by where the real run failed (the diagnostic's file:line) and the two
    outcomes' kinds: one group is one cause, mostly."""
    groups: dict[tuple, dict] = {}
    for x in items:
        kind = (x["static"].split("(")[0], x["dynamic"].split("(")[0], x["file"], x["line"])
        g = groups.setdefault(kind, {"static": kind[0], "dynamic": kind[1], "site": f"{kind[2]}:{kind[3]}",
                                     "count": 0, "silent": 0, "example": x})
        g["count"] += 1
        g["silent"] += x["silent_miss"]
    return sorted(groups.values(), key=lambda g: -g["count"])


# --- reporting -----------------------------------------------------------------------------

def print_table(names: list[str], done: dict, skipped: dict) -> dict:
    head = (f"{'package':14} {'pin':24} {'modules':>7} {'pairs':>7} {'ok':>7} {'error':>6} {'unknown':>7} "
            f"{'unk %':>6} {'assume':>6} {'env':>6} {'wall s':>7}")
    print("\n" + head)
    print("-" * len(head))
    total = Counter()
    for name in names:
        if name in skipped:
            print(f"{name:14} {PINS[name]:24} skipped: {skipped[name]}")
            continue
        s = done[name]
        for k in ("modules", "pairs", "ok", "error", "unknown", "assumes", "environment", "other"):
            total[k] += s[k]
        total["wall_s"] += s["wall_s"]
        print(f"{name:14} {PINS[name]:24} {s['modules']:7,} {s['pairs']:7,} {s['ok']:7,} {s['error']:6,} "
              f"{s['unknown']:7,} {s['unknown_pct']:6.2f} {s['assumes']:6,} "
              f"{s.get('environment', 0):6,} {s['wall_s']:7.1f}")
    pct = 100.0 * total["unknown"] / total["pairs"] if total["pairs"] else 0.0
    print("-" * len(head))
    print(f"{'overall':14} {f'{len(done)} packages':24} {total['modules']:7,} {total['pairs']:7,} "
          f"{total['ok']:7,} {total['error']:6,} {total['unknown']:7,} {pct:6.2f} {total['assumes']:6,} "
          f"{total['environment']:6,} {total['wall_s']:7.1f}")
    if total["other"]:
        print(f"  ({total['other']} results with another outcome)")
    return {**total, "unknown_pct": pct, "packages": len(done)}


def print_reasons(names: list[str], done: dict) -> list[dict]:
    print(f"\nTop {TOP_REASONS} unknown reasons per package (normalised; pairs; one raw example):")
    overall: dict[str, dict] = {}
    for name in names:
        s = done.get(name)
        if not s or not s["unknown"]:
            continue
        print(f"  {name} ({s['unknown']:,} unknown, {len(s['reasons'])} idioms):")
        for r in s["reasons"][:TOP_REASONS]:
            ex = r["examples"][0]
            print(f"    {r['pairs']:6,}  {r['idiom']}")
            print(f"            e.g. {ex['entry']} [{ex['mode']}]: {_short(ex['reason'])}")
        for r in s["reasons"]:
            slot = overall.setdefault(r["idiom"], {"idiom": r["idiom"], "pairs": 0, "packages": {}})
            slot["pairs"] += r["pairs"]
            slot["packages"][name] = r["pairs"]
    ranked = sorted(overall.values(), key=lambda s: -s["pairs"])
    if ranked:
        print("\nUnknown reasons over the whole survey (normalised; pairs; packages):")
        for r in ranked[:15]:
            top = sorted(r["packages"].items(), key=lambda kv: -kv[1])
            print(f"  {r['pairs']:6,}  {r['idiom']}\n          "
                  + ", ".join(f"{p} {n:,}" for p, n in top[:8]) + (" ..." if len(top) > 8 else ""))
    return ranked


def _short(text: str, n: int = 150) -> str:
    text = " ".join(text.split())
    return text if len(text) <= n else text[:n - 3] + "..."


def print_verify(names: list[str], verified: dict, vskipped: dict) -> None:
    head = (f"{'package':14} {'pairs':>7} {'IS201':>6} {'silent':>6} {'IS202':>6} {'IS203':>6} "
            f"{'IS206':>6} {'IS207':>6} {'wall s':>7}  venv")
    print("\n--verify: static prediction vs CPython " + ".".join(map(str, PYTHON))
          + " (silent = IS201 with static ok and a real failure)")
    print(head)
    print("-" * len(head))
    total = Counter()
    for name in names:
        if name in vskipped:
            print(f"{name:14} skipped: {vskipped[name]}")
            continue
        if name not in verified:
            continue
        v = verified[name]
        c = v["counts"]
        for k in VERIFY_CODES:
            total[k] += c[k]
        total["silent"] += v["silent_misses"]
        total["pairs"] += v["pairs"]
        print(f"{name:14} {v['pairs']:7,} {c['IS201']:6,} {v['silent_misses']:6,} {c['IS202']:6,} "
              f"{c['IS203']:6,} {c['IS206']:6,} {c['IS207']:6,} {v['wall_s']:7.0f}  {v['install']}")
    if verified:
        print("-" * len(head))
        print(f"{'overall':14} {total['pairs']:7,} {total['IS201']:6,} {total['silent']:6,} "
              f"{total['IS202']:6,} {total['IS203']:6,} {total['IS206']:6,} {total['IS207']:6,}")
    for name in names:
        v = verified.get(name)
        if not v or not v["is201"]:
            continue
        print(f"\n  {name}: {len(v['is201'])} IS201, by where the real run failed:")
        for g in is201_groups(v["is201"]):
            ex = g["example"]
            print(f"    {g['count']:4} x  static {g['static']} / real {g['dynamic']} at {g['site']}"
                  + (f"  ({g['silent']} silent)" if g["silent"] else ""))
            print(f"           e.g. {ex['entry']} [{ex['mode']}]: static {ex['static']}; real {ex['dynamic']}"
                  + (f" [{_short(ex['detail'], 120)}]" if ex["detail"] else ""))
        for x in v["is201"]:
            print(f"      {x['entry']} [{x['mode']}]: static {x['static']}; real {x['dynamic']}"
                  + ("  SILENT MISS" if x["silent_miss"] else ""))


def targets(names: list[str], done: dict, overall: dict, verified: dict | None) -> list[dict]:
    out = []
    over = [f"{n} {done[n]['unknown_pct']:.2f}%" for n in names
            if n in done and done[n]["unknown_pct"] > UNKNOWN_MAX_PACKAGE]
    worst = max((done[n]["unknown_pct"] for n in names if n in done), default=0.0)
    out.append({"target": f"unknown <= {UNKNOWN_MAX_PACKAGE:g}% on every package",
                "verdict": "FAIL" if over else ("PASS" if done else "n/a"),
                "value": (f"{len(over)} over: " + ", ".join(over)) if over else f"worst {worst:.2f}%"})
    out.append({"target": f"unknown <= {UNKNOWN_MAX_OVERALL:g}% over all",
                "verdict": "n/a" if not done else ("PASS" if overall["unknown_pct"] <= UNKNOWN_MAX_OVERALL else "FAIL"),
                "value": f"{overall['unknown_pct']:.2f}% ({overall.get('unknown', 0):,} of {overall.get('pairs', 0):,})"})
    if verified is None:
        out.append({"target": "IS201 = 0 on the verified packages", "verdict": "n/a", "value": "run with --verify"})
    else:
        bad = [f"{n} {v['counts']['IS201']}" for n, v in verified.items() if v["counts"]["IS201"]]
        out.append({"target": "IS201 = 0 on the verified packages",
                    "verdict": "n/a" if not verified else ("FAIL" if bad else "PASS"),
                    "value": (", ".join(bad) if bad else "0") + f" on {len(verified)} verified"})
    print("\nTargets:")
    for t in out:
        print(f"  {t['verdict']:4}  {t['target']}: {t['value']}")
    return out


# --- main ----------------------------------------------------------------------------------

def parse_args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--packages", default="all", help="comma list from: " + ", ".join(PINS) + " (default all)")
    p.add_argument("--jobs", type=int, default=1,
                   help="packages checked at once (default 1); each importsafe gets -j cores // N")
    p.add_argument("--json", metavar="OUT", help="write the results to OUT")
    p.add_argument("--verify", action="store_true",
                   help="also install each package in a scratch venv and run `check --verify` (slow)")
    p.add_argument("--install-timeout", type=float, default=900.0, metavar="S",
                   help="seconds for one verify venv's pip install (default 900)")
    p.add_argument("--verify-timeout", type=float, default=1200.0, metavar="S",
                   help="seconds for one package's check --verify (default 1200)")
    p.add_argument("--timeout", type=float, default=600.0, metavar="S",
                   help="seconds for one download or one static check (default 600)")
    args = p.parse_args(argv)
    names = [s.strip().lower() for s in args.packages.split(",") if s.strip()]
    args.packages = list(PINS) if names == ["all"] else list(dict.fromkeys(names))
    unknown = [n for n in args.packages if n not in PINS]
    if unknown:
        p.error(f"unknown package(s): {', '.join(unknown)} (known: {', '.join(PINS)})")
    if not args.packages or args.jobs < 1:
        p.error("need at least one package and --jobs >= 1")
    return args


def in_parallel(fn, names: list[str], jobs: int):
    """fn(name) for each name, `jobs` at once; yields (name, result or Skip/exception) in the
    order they finish."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        futures = {pool.submit(fn, n): n for n in names}
        for f in concurrent.futures.as_completed(futures):
            try:
                yield futures[f], f.result()
            except (Skip, BenchError, OSError, subprocess.SubprocessError) as exc:
                yield futures[f], exc


def git_head() -> str:
    proc = subprocess.run(["git", "-C", str(SRC.parent), "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True)
    return proc.stdout.strip() or "?"


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    RESULTS.mkdir(parents=True, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S")
    log_path = RESULTS / f"decided-{stamp}.log"
    with open(log_path, "w") as log:
        out, err = sys.stdout, sys.stderr
        sys.stdout, sys.stderr = Tee(out, log), Tee(err, log)
        try:
            return survey(args, log_path, stamp)
        finally:
            sys.stdout.flush(), sys.stderr.flush()
            sys.stdout, sys.stderr = out, err
            print(f"log written to {log_path}")


def survey(args: argparse.Namespace, log_path: Path, stamp: str) -> int:
    started = time.perf_counter()
    print(f"decided.py {datetime.datetime.now().isoformat(timespec='seconds')}")
    print("command: " + shlex.join([sys.executable, *sys.argv]))
    print(f"importsafe {SRC} at {git_head()}; Python {platform.python_version()}, {os.cpu_count()} CPUs; "
          f"log {log_path}")
    per_check = max(1, (os.cpu_count() or 1) // args.jobs)
    try:
        py = ensure_venv(IMPORTSAFE_DEPS)
        isafe, has_no_cache = importsafe_command(python=str(py))
        if not has_no_cache:
            raise BenchError("this importsafe has no --no-cache flag")
        deps = ensure_importsafe_deps() if args.verify else None
        if args.verify:
            python311()
    except (BenchError, OSError, subprocess.CalledProcessError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    names = args.packages
    failed: dict[str, str] = {}  # could not be surveyed: fetched, checked or verified
    got: dict[str, dict] = {}
    print(f"\nfetching {len(names)} wheels into {WHEELS}, unpacked under {TREES} ...", flush=True)
    for name in names:
        try:
            got[name] = fetch(name, PINS[name], args.timeout)
            print(f"  {name:14} {got[name]['wheel']} ({got[name]['fetched']})", flush=True)
        except (Skip, OSError) as exc:
            failed[name] = str(exc)
            print(f"  {name:14} SKIPPED: {exc}", flush=True)
    print(f"\nchecking {len(got)} packages (modes {MODES}, {args.jobs} at once, importsafe -j {per_check}) ...",
          flush=True)
    done: dict[str, dict] = {}
    for name, res in in_parallel(lambda n: static_check(n, got[n], isafe, per_check, args.timeout),
                                 [n for n in names if n in got], args.jobs):
        if isinstance(res, Exception):
            failed[name] = str(res)
            print(f"  {name:14} FAILED: {res}", flush=True)
        else:
            done[name] = res
            print(f"  {name:14} {res['pairs']:6,} pairs, {res['unknown']:5,} unknown, {res['wall_s']:6.1f} s "
                  f"({', '.join(res['tops'])})", flush=True)
    overall = print_table(names, done, failed)
    ranked = print_reasons(names, done)

    verified: dict[str, dict] | None = None
    vskipped: dict[str, str] = {}
    if args.verify:
        verified = {}
        print(f"\n--verify: venvs under {VENVS}, install time-box {args.install_timeout:.0f} s, "
              f"check --verify time-box {args.verify_timeout:.0f} s per package ...", flush=True)
        for name, res in in_parallel(
                lambda n: verify_package(n, deps, per_check, args.install_timeout, args.verify_timeout),
                names, args.jobs):
            if isinstance(res, Exception):
                vskipped[name] = str(res)
                install = isinstance(res, Skip) and str(res).startswith(("pip install", "cannot make the venv"))
                if not install:
                    failed.setdefault(f"{name} (verify)", str(res))
                print(f"  {name:14} SKIPPED: {res}", flush=True)
            else:
                verified[name] = res
                c = res["counts"]
                print(f"  {name:14} IS201 {c['IS201']} (silent {res['silent_misses']}), IS202 {c['IS202']}, "
                      f"IS203 {c['IS203']}, IS206 {c['IS206']}, IS207 {c['IS207']}, IS208 {c.get('IS208', 0)}; {res['wall_s']:.0f} s, venv {res['install']}",
                      flush=True)
                for g in is201_groups(res["is201"]):
                    print(f"      {g['count']:4} IS201 x static {g['static']} / real {g['dynamic']} at {g['site']}"
                          f" (e.g. {g['example']['entry']} [{g['example']['mode']}])", flush=True)
        print_verify(names, verified, vskipped)
    verdicts = targets(names, done, overall, verified)
    total = time.perf_counter() - started
    print(f"\n{len(done)} of {len(names)} packages checked in {total:.0f} s"
          + (f"; not surveyed: {', '.join(failed)}" if failed else ""))
    if args.json:
        doc = {"meta": {"date": stamp, "argv": sys.argv, "python": sys.version, "platform": platform.platform(),
                        "cpus": os.cpu_count(), "importsafe": git_head(), "pins": PINS,
                        "verify_extras": VERIFY_EXTRAS, "verify_env": VERIFY_ENV, "total_s": total, "log": str(log_path)},
               "packages": {n: {"pin": PINS[n], "wheel": got.get(n, {}).get("wheel"), **done.get(n, {}),
                                **({"skipped": failed[n]} if n in failed else {})} for n in names},
               "overall": overall, "reasons": ranked, "targets": verdicts,
               "verify": verified, "verify_skipped": vskipped}
        Path(args.json).write_text(json.dumps(doc, indent=1, default=str))
        print(f"results written to {args.json}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
