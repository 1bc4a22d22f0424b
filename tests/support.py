"""Shared test helpers: run real CPython over (entry, mode) jobs, read fixture expectations."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path

PROBE = Path(__file__).resolve().parents[1] / "src" / "importsafe" / "dynamic" / "probe.py"
CASES = Path(__file__).resolve().parent / "cases"
EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


def run_cpython(roots, jobs, python=sys.executable, timeout=20, variables=None):
    """Run every (entry, mode) first import for real; one forked child each. Returns dicts.
    `variables`: environment variables to set for the run."""
    request = {"roots": [str(r) for r in roots], "jobs": [list(j) for j in jobs],
               "timeout": timeout, "fork": True}
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **(variables or {}))
    proc = subprocess.run([python, "-S", "-B", str(PROBE), "--batch"], input=json.dumps(request),
                          capture_output=True, text=True, env=env, cwd=str(roots[0]),
                          timeout=timeout * max(1, len(jobs)) + 30)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]


def outcome_key(result):
    """The tuple compared between prediction and reality: outcome, exception, module, name."""
    if result["outcome"] != "error":
        return (result["outcome"],)
    err = result["error"]
    return ("error", err["exception"], err["module"], err["name"])


@dataclass(frozen=True)
class Expectation:
    entry: str
    mode: str
    key: tuple
    static: tuple | None  # what static analysis answers instead, where it knowingly differs
    # "module.name" the static result takes as bound (ordinary-order rule); "order:DIR" a
    # directory whose listing's order it takes as read at check time
    assumes: tuple = ()
    env: tuple = ()  # "module.VARIABLE": environment variables the static result rests on
    versions: tuple = ()  # "module.dependency": installed versions it rests on
    installed: tuple = ()  # "module.top": modules it takes as installed nowhere


def read_expected(case_dir: Path) -> list[Expectation]:
    """Parse `expected.txt`: `entry mode ok` or `entry mode Exception module name`, `-` for None,
    optional trailing `static=unknown` (undecidable statically) or `static=ok` (the failure
    comes from an external module, which static analysis assumes importable, or from a name
    the ordinary-order rule takes as bound), and `assumes=M.X,N.Y` (the names the static
    result takes as bound by that rule; none when absent), `env=M.VAR,...` (the environment
    variables read by M's code that the static result rests on), `versions=M.dep,...`
    (the installed versions of dependencies read by M's code it rests on) and
    `installed=M.top,...` (the optional modules M's code imports that it takes as installed
    nowhere); `#` starts a comment."""
    out = []
    for raw in (case_dir / "expected.txt").read_text().splitlines():
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        static = next((("ok",) if w == "static=ok" else ("unknown",)
                       for w in line if w.startswith("static=")), None)
        listed = {key: tuple(sorted(n for w in line if w.startswith(key + "=")
                                    for n in w.split("=", 1)[1].split(",")))
                  for key in ("assumes", "env", "versions", "installed")}
        line = [w for w in line if not w.startswith(("static=", "assumes=", "env=",
                                                     "versions=", "installed="))]
        entry, mode, rest = line[0], line[1], line[2:]
        if rest == ["ok"]:
            key = ("ok",)
        else:
            exc, module, name = rest
            key = ("error", exc, None if module == "-" else module, None if name == "-" else name)
        out.append(Expectation(entry, mode, key, static, listed["assumes"], listed["env"],
                               listed["versions"], listed["installed"]))
    return out


def case_python(case_dir: Path) -> str | None:
    """A `# python: X.Y` line in expected.txt names the interpreter the case needs (its syntax
    is newer than the one running the tests); the path of a pyenv one, or None if absent."""
    import glob
    for raw in (case_dir / "expected.txt").read_text().splitlines():
        if raw.startswith("# python:"):
            version = raw.split(":", 1)[1].strip()
            found = sorted(glob.glob(os.path.expanduser(f"~/.pyenv/versions/{version}*/bin/python")))
            return found[-1] if found else None
    return sys.executable


def case_target(case_dir: Path) -> tuple[int, int]:
    """A `# target: X.Y` line in expected.txt: the Python version the static analysis
    targets (`--target-version`; e.g. 3.15 for `__lazy_modules__`); 3.11 otherwise."""
    for raw in (case_dir / "expected.txt").read_text().splitlines():
        if raw.startswith("# target:"):
            major, minor = raw.split(":", 1)[1].strip().split(".")[:2]
            return int(major), int(minor)
    return (3, 11)


def case_env(case_dir: Path) -> dict[str, str]:
    """`# env: NAME=VALUE ...` lines in expected.txt: the environment variables the case
    runs with (`--env` for the static analysis, set for the CPython run)."""
    found = {}
    for raw in (case_dir / "expected.txt").read_text().splitlines():
        if raw.startswith("# env:"):
            for word in raw.split(":", 1)[1].split():
                name, _, value = word.partition("=")
                found[name] = value
    return found


def case_paths(case_dir: Path) -> list[str]:
    """A `# check: NAME ...` line in expected.txt: the paths under the case that are checked
    (the rest of it is what they depend on: installed packages, metadata); the case itself
    otherwise."""
    for raw in (case_dir / "expected.txt").read_text().splitlines():
        if raw.startswith("# check:"):
            return [str(case_dir / name) for name in raw.split(":", 1)[1].split()]
    return [str(case_dir)]


def assumed_by_kind(result) -> dict[str, tuple]:
    """A static result's assumptions as read_expected lists them, by kind."""
    found = {key: tuple(sorted(f"{a.module}.{a.name}" for a in result.assumes if a.kind == kind))
             for key, kind in (("assumes", "order"), ("env", "environment"),
                               ("versions", "version"), ("installed", "installed"))}
    # a directory listing's order, as "order:DIR" (the directory's own name)
    found["assumes"] = tuple(sorted(found["assumes"] + tuple(
        f"order:{os.path.basename(a.name)}" for a in result.assumes if a.kind == "listing") +
        tuple(f"super:{a.module}.{a.name.removeprefix('super().')}" for a in result.assumes
              if a.kind == "super") +  # a super() call not known, as "super:MODULE.NAME"
        tuple(f"object:{a.module}.{a.name}" for a in result.assumes if a.kind == "object")))
    return found


def case_dirs():
    """Every fixture root with an expected.txt, and the bundled examples root."""
    dirs = sorted(p for p in CASES.iterdir() if (p / "expected.txt").is_file())
    return dirs + ([EXAMPLES] if (EXAMPLES / "expected.txt").is_file() else [])


def write_dedented(root: Path, files: dict) -> Path:
    """Write {relative path: source} under root, each source dedented."""
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text).lstrip("\n"))
    return root
