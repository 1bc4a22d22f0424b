"""What lazy imports buy, measured: `python -X importtime` of one import in fresh
interpreters, eagerly and lazily (natively on Python 3.15+, under the PEP 810 emulation of
lazyemu.py before), giving the import's time and the number of modules it loads.

Both runs of a pair go through the same loader, on copies of the package: before 3.15 the
emulation is installed for both, and every module of both copies ends with a line naming
`__lazy_modules__` (bound after every import, it makes nothing lazy), so the emulation rewrites
every module it loads on both sides: neither reads bytecode caches, both pay the rewrite, and
the difference is the laziness alone.
The bootstrap prints a marker to stderr right before the import: only the importtime lines
after it count (not the emulation's own imports).
"""
from __future__ import annotations

import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass

LAZYEMU = os.path.join(os.path.dirname(os.path.abspath(__file__)), "lazyemu.py")
MARK = "importsafe-importtime-start"
ROUNDS = 3
TIMEOUT = 120.0
# argv: lazyemu.py, mode (all | normal | none), the module to import, then the roots
BOOT = """
import importlib.util, sys
emu, mode, entry, roots = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
if mode != "none" and sys.version_info < (3, 15):
    spec = importlib.util.spec_from_file_location("_importsafe_lazyemu", emu)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.install(roots, mode)
elif mode == "all":
    sys.set_lazy_imports("all")
sys.path[:0] = roots
sys.stderr.write("%s\\n" % MARK)
sys.stderr.flush()
__import__(entry)
""".replace("MARK", repr(MARK))
_LINE = re.compile(r"^import time:\s*(\d+)\s*\|\s*(\d+)\s*\|(\s*)(\S.*)$")


@dataclass(frozen=True, slots=True)
class ImportTime:
    entry: str
    mode: str  # "eager" | "lazy"
    seconds: float  # the entry's cumulative import time (median of the rounds)
    modules: int  # modules the import loaded (everything -X importtime reports)
    error: str | None = None


@dataclass(frozen=True, slots=True)
class Comparison:
    entry: str
    eager: ImportTime
    lazy: ImportTime

    def line(self) -> str:
        if self.eager.error or self.lazy.error:
            return f"import {self.entry}: not measured ({self.eager.error or self.lazy.error})"
        return (f"import {self.entry}: {self.eager.seconds * 1000:.0f} ms -> "
                f"{self.lazy.seconds * 1000:.0f} ms, {self.eager.modules} -> "
                f"{self.lazy.modules} modules")

    def as_dict(self) -> dict:
        return {"entry": self.entry,
                "eager": {"ms": round(self.eager.seconds * 1000, 1),
                          "modules": self.eager.modules, "error": self.eager.error},
                "lazy": {"ms": round(self.lazy.seconds * 1000, 1),
                         "modules": self.lazy.modules, "error": self.lazy.error}}


def parse_importtime(stderr: str, entry: str) -> tuple[float, int] | None:
    """(cumulative seconds of `entry`, modules imported) from -X importtime output after
    the marker; None when the entry's line is missing (it failed)."""
    _, found, after = stderr.partition(MARK)
    if not found:
        return None
    total, count = None, 0
    for line in after.splitlines():
        match = _LINE.match(line)
        if match is None:
            continue
        count += 1
        if match.group(4).strip() == entry:
            total = int(match.group(2)) / 1e6
    return (total, count) if total is not None else None


def measure(roots, entry: str, mode: str, python: str | None = None,
            rounds: int = ROUNDS) -> ImportTime:
    """`import entry` in fresh interpreters with -X importtime. mode "eager": the emulation in
    its normal mode (explicit `lazy` only); "lazy": global lazy mode; "as-written": explicit
    `lazy` statements only, as "eager" (the caller gives a tree with the plan applied)."""
    python = python or sys.executable
    emulated = {"eager": "normal", "as-written": "normal", "lazy": "all", "plain": "none"}[mode]
    times, modules = [], 0
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    for _ in range(rounds):
        try:
            proc = subprocess.run([python, "-X", "importtime", "-c", BOOT, LAZYEMU, emulated,
                                   entry, *map(str, roots)], capture_output=True, text=True,
                                  timeout=TIMEOUT, env=env, stdin=subprocess.DEVNULL)
        except (OSError, subprocess.TimeoutExpired) as exc:
            return ImportTime(entry, mode, 0.0, 0, f"{type(exc).__name__}: {exc}")
        found = parse_importtime(proc.stderr, entry)
        if proc.returncode != 0 or found is None:
            tail = proc.stderr.strip().splitlines()[-1:] or [f"exit {proc.returncode}"]
            return ImportTime(entry, mode, 0.0, 0, tail[0])
        times.append(found[0])
        modules = found[1]
    return ImportTime(entry, mode, statistics.median(times), modules)


def measure_plan(plan, python: str | None = None) -> list[Comparison]:
    """Each top-level package of the plan: eagerly as it is, then with the plan as `lazy`
    statements, in a copy of the source roots (the tree itself is never touched)."""
    out = []
    with tempfile.TemporaryDirectory(prefix="importsafe-importtime-") as scratch:
        eager_roots = _copy_roots(plan.roots, plan.packages, os.path.join(scratch, "eager"))
        lazy_roots = _copy_roots(plan.roots, plan.packages, os.path.join(scratch, "lazy"))
        for patch in plan.lazy_patches:
            target = _in_copy(patch.path, plan.roots, lazy_roots)
            if target is not None:
                with open(target, "w", encoding="utf-8") as f:
                    f.write(patch.new)
        for copy in (*eager_roots, *lazy_roots):
            _mark_sources(copy)
        for top in plan.packages:
            eager = measure(eager_roots, top, "eager", python)
            lazy = measure(lazy_roots, top, "as-written", python)
            out.append(Comparison(top, eager, lazy))
    return out


def _mark_sources(root: str) -> None:
    """End every module with a harmless mention of `__lazy_modules__` (see the docstring)."""
    for directory, _, names in os.walk(root):
        for name in names:
            if name.endswith(".py"):
                with open(os.path.join(directory, name), "a", encoding="utf-8") as f:
                    f.write("\n__lazy_modules__ = globals().get('__lazy_modules__', ())\n")


def _copy_roots(roots, packages, scratch: str) -> list[str]:
    copies = []
    os.makedirs(scratch, exist_ok=True)
    for i, root in enumerate(roots):
        target = os.path.join(scratch, str(i))
        os.makedirs(target)
        for name in packages:
            for candidate in (os.path.join(root, name), os.path.join(root, name + ".py")):
                if os.path.isdir(candidate):
                    shutil.copytree(candidate, os.path.join(target, name), symlinks=True,
                                    ignore=shutil.ignore_patterns("__pycache__"))
                elif os.path.isfile(candidate):
                    shutil.copy2(candidate, target)
        copies.append(target)
    return copies


def _in_copy(path: str, roots, copies) -> str | None:
    for root, copy in zip(roots, copies):
        rel = os.path.relpath(path, root)
        if not rel.startswith(".."):
            return os.path.join(copy, rel)
    return None


def measure_paths(paths, source_roots=(), entries=None, python: str | None = None
                  ) -> list[Comparison]:
    """`run --importtime`: each requested entry (default: the top-level packages under the
    paths) eagerly and under PEP 810's global lazy mode, in copies of the source roots."""
    from ..static.layout import resolve_layout
    roots, targets, _ = resolve_layout(list(paths), list(source_roots))
    tops = tuple(sorted({t.top for t in targets}))
    wanted = list(entries) if entries else list(tops)
    out = []
    with tempfile.TemporaryDirectory(prefix="importsafe-importtime-") as scratch:
        copies = _copy_roots(roots, tops, scratch)
        for copy in copies:
            _mark_sources(copy)
        for entry in wanted:
            out.append(Comparison(entry, measure(copies, entry, "eager", python),
                                  measure(copies, entry, "lazy", python)))
    return out
