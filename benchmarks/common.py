"""What the benchmark scripts share: the pinned scratch venv, how to run importsafe, and the
launcher that measures one subprocess (wall time and peak RSS).

The venv at benchmarks/.work/venv holds every pin any benchmark asked for; a marker file lists
them. A script asks `ensure_venv(pins)` for the pins it needs: nothing happens when the marker
already lists them all, otherwise the missing pins go into the existing venv (it is never
rebuilt): when one of them needs resolving, pip installs the union of the recorded and the
requested pins in one resolve (a requested pin replaces a recorded pin of the same project; the
ones already there are left as they are), so the scripts never fight over the venv. Projects in
NO_DEPS are installed on their own with `--no-deps` (only their sources are read) and stay out
of that resolve.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterable

HERE = Path(__file__).resolve().parent
WORK = HERE / ".work"
VENV = WORK / "venv"
MARKER = VENV / "importsafe-bench-pins.txt"
SRC = HERE.parent / "src"  # this checkout's importsafe, run in preference to an installed one
# Every package a benchmark measures, pinned. torch is a CPU wheel (pip finds it in the local
# wheel directory). homeassistant 2024.3.3 is the last release whose wheel admits Python 3.11;
# it is measured for its size and installed without its dependencies (NO_DEPS).
PINS = {"sympy": "sympy==1.14.0", "django": "Django==5.2.19", "torch": "torch==2.13.0",
        "pandas": "pandas==2.3.3", "homeassistant": "homeassistant==2024.3.3"}
# Dependencies pinned along with a package (none at present).
PIN_DEPS: dict[str, tuple[str, ...]] = {}
# Installed without their dependencies: the static tools only read their sources, and
# numpy (pandas needs it) would change what sympy's and torch's modules import in the dynamic
# benchmark (both import numpy when it is there; it starts an OpenBLAS thread, so the fork
# runner cannot pre-import it).
NO_DEPS = frozenset({"homeassistant", "pandas"})
PEERS = ("grimp==3.20", "pylint==4.1.4")
# importsafe's own runtime dependencies, pinned: run.py runs importsafe (from this checkout's
# src/) with the venv's interpreter, as it runs the peers and the floor, so every tool starts
# the same Python with the same site-packages.
IMPORTSAFE_DEPS = ("click==8.4.0", "rich==15.0.0", "pyyaml==6.0.3")

# Runs one command in its own session and reports on it. Measuring from this small process, not
# from the calling script, keeps the caller's memory out of the child's ru_maxrss (Linux carries
# the spawning process's high-water mark over exec), and a timeout kills the whole process group.
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
    json.dump({"rc": rc, "wall": wall, "maxrss_kb": usage.ru_maxrss,
               "cpu": usage.ru_utime + usage.ru_stime}, f)
"""
# Runs this checkout's importsafe CLI (sys.argv[1:] are its arguments).
BOOT_CODE = "import sys; sys.path.insert(0, {src!r}); sys.argv[0] = 'importsafe'; " \
            "from importsafe.cli import main; main()"
# The same, with importsafe's runtime dependencies taken from a directory of their own
# (DEPS_DIR, ensure_importsafe_deps): to run importsafe with an interpreter whose venv holds the
# code under test and not importsafe's dependencies, or other versions of them (`check --verify`
# imports with the interpreter importsafe runs in). Only this process's sys.path changes, not
# PYTHONPATH, so the processes it starts see the venv as it is.
BOOT_DEPS_CODE = "import sys; sys.path[:0] = [{src!r}, {deps!r}]; sys.argv[0] = 'importsafe'; " \
                 "from importsafe.cli import main; main()"
DEPS_DIR = WORK / "importsafe-deps"


class BenchError(Exception):
    """A problem that stops the benchmark, with a message for the user."""


# --- the venv --------------------------------------------------------------------------

def venv_python() -> Path:
    return VENV / "bin" / "python"  # POSIX only, like os.wait4 and posix_spawn below


def _project(pin: str) -> str:
    return re.split(r"[=<>!~\[ ;]", pin, maxsplit=1)[0].strip().lower().replace("_", "-")


def recorded_pins() -> set[str]:
    return set(MARKER.read_text().split()) if venv_python().exists() and MARKER.exists() else set()


def ensure_venv(pins: Iterable[str]) -> Path:
    """Make the scratch venv if there is none and install the `pins` it lacks, unless the
    marker says they are there. Never rebuilds an existing venv."""
    want = set(pins)
    have = recorded_pins()
    missing = want - have
    if venv_python().exists() and not missing:
        return venv_python()
    if not venv_python().exists():
        print(f"creating venv {VENV} ...", flush=True)
        subprocess.run([sys.executable, "-m", "venv", str(VENV)], check=True)
    replaced = {_project(p) for p in want}
    union = sorted(want | {p for p in have if _project(p) not in replaced})
    resolved = [p for p in union if _project(p) not in NO_DEPS]
    if any(_project(p) not in NO_DEPS for p in missing):
        print("installing " + " ".join(sorted(p for p in missing if _project(p) not in NO_DEPS))
              + " (resolved with " + " ".join(p for p in resolved if p not in missing) + ") ...",
              flush=True)
        _pip(resolved, want)
    loose = sorted(p for p in missing if _project(p) in NO_DEPS)
    if loose:
        print("installing " + " ".join(loose) + " --no-deps ...", flush=True)
        _pip(["--no-deps", *loose], want)
    MARKER.write_text("\n".join(union) + "\n")
    return venv_python()


def _pip(args: list[str], want: set[str]) -> None:
    proc = subprocess.run([str(venv_python()), "-m", "pip", "install", "--disable-pip-version-check",
                           "-q", *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"pip install {' '.join(sorted(want))} into {VENV} failed "
                         f"(exit {proc.returncode}):\n{tail(proc.stderr, 20)}")


def ensure_importsafe_deps() -> Path:
    """IMPORTSAFE_DEPS installed by `pip install --target` into DEPS_DIR (made once; anew when
    the pins change), for importsafe_command(deps=...)."""
    marker = DEPS_DIR / "importsafe-bench-pins.txt"
    want = "\n".join(sorted(IMPORTSAFE_DEPS)) + "\n"
    if marker.is_file() and marker.read_text() == want:
        return DEPS_DIR
    print(f"installing {' '.join(IMPORTSAFE_DEPS)} into {DEPS_DIR} ...", flush=True)
    shutil.rmtree(DEPS_DIR, ignore_errors=True)
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "-q",
                           "--target", str(DEPS_DIR), *IMPORTSAFE_DEPS], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"pip install --target {DEPS_DIR} {' '.join(IMPORTSAFE_DEPS)} failed "
                         f"(exit {proc.returncode}):\n{tail(proc.stderr, 20)}")
    marker.write_text(want)
    return DEPS_DIR


def package_dir(py: Path, name: str) -> Path:
    """The package's source directory in the venv, found without importing it."""
    code = "import importlib.util,sys; print(importlib.util.find_spec(sys.argv[1]).submodule_search_locations[0])"
    proc = subprocess.run([str(py), "-c", code, name], capture_output=True, text=True)
    if proc.returncode != 0:
        raise BenchError(f"cannot locate package {name!r} in {VENV}:\n{tail(proc.stderr, 5)}")
    return Path(proc.stdout.strip())


def importsafe_command(subcommand: str = "check", flag: str = "--no-cache",
                       python: str | None = None, deps: Path | None = None) -> tuple[list[str], bool]:
    """How to run `importsafe SUBCOMMAND` with `python` (default: this interpreter): this
    checkout's src/ first, then an installed one; and whether its help mentions `flag`.
    With `deps` (ensure_importsafe_deps()), this checkout's importsafe takes its runtime
    dependencies from there, ahead of the interpreter's own. Raises if it can't run."""
    python = python or sys.executable
    candidates = []
    if (SRC / "importsafe" / "__init__.py").is_file():
        boot = BOOT_DEPS_CODE.format(src=str(SRC), deps=str(deps)) if deps else BOOT_CODE.format(src=str(SRC))
        candidates.append([python, "-c", boot])
    candidates.append([python, "-m", "importsafe"])
    if shutil.which("importsafe"):
        candidates.append([shutil.which("importsafe")])
    for cmd in candidates:
        probe = subprocess.run([*cmd, subcommand, "--help"], capture_output=True, text=True)
        if probe.returncode == 0:
            return cmd, flag in probe.stdout
    raise BenchError("importsafe is not runnable (tried this checkout's src/, `python -m importsafe` "
                     "and `importsafe` on PATH); install it with `pip install -e .`")


# --- measuring -------------------------------------------------------------------------

def bytecode_env() -> dict:
    """os.environ with bytecode caching on (PYTHONDONTWRITEBYTECODE, set on some machines,
    dropped), cached under WORK: every tool then starts from compiled code, as it does once
    pip has installed it (pip compiles bytecode), and nothing is written beside any source."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(WORK / "pycache")
    return env


def measure(cmd: list[str], timeout: float, cwd: Path, env: dict | None = None
            ) -> tuple[int | None, float, float, str, str]:
    """Run cmd via LAUNCHER; return (exit code or None on timeout, wall s, peak RSS MB, stdout, stderr)."""
    m = measure_run(cmd, timeout, cwd, env)
    return m["rc"], m["wall"], m["rss_mb"], m["stdout"], m["stderr"]


def measure_run(cmd: list[str], timeout: float, cwd: Path, env: dict | None = None) -> dict:
    """Run cmd via LAUNCHER; return rc (None on timeout), wall (s), rss_mb (the largest single
    process), cpu (user + system s of it and every descendant it reaped), stdout, stderr."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile("r", dir=cwd, suffix=".json") as result:
        launcher = [sys.executable, "-I", "-S", "-c", LAUNCHER_CODE, result.name, str(timeout), *cmd]
        proc = subprocess.run(launcher, stdout=out, stderr=err, stdin=subprocess.DEVNULL, cwd=cwd,
                              env=env)
        out.seek(0), err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
        if proc.returncode != 0:
            raise BenchError(f"could not run {cmd[0]}:\n{tail(stderr, 5)}")
        m = json.load(result)
    return {"rc": m["rc"], "wall": m["wall"], "rss_mb": m["maxrss_kb"] / 1024, "cpu": m["cpu"],
            "stdout": stdout, "stderr": stderr}


def tail(text: str, n: int) -> str:
    return "\n".join(text.strip().splitlines()[-n:])


def last_json(stdout: str) -> dict:
    lines = stdout.strip().splitlines()
    return json.loads(lines[-1]) if lines else {}


def fmt(x: float | None, spec: str = ".2f", suffix: str = "") -> str:
    return "-" if x is None else f"{x:{spec}}{suffix}"
