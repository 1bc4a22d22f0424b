"""Run a scenario (a few lines of Python) against a package, eagerly or with lazy imports.

Lazily means PEP 810 as Python 3.15 runs it: natively on 3.15+, else under importsafe's
emulation (src/importsafe/dynamic/lazyemu.py) in the global mode "normal", where exactly the
statements written `lazy import` / `lazy from` are lazy. Eagerly is plain CPython. A scenario
prints what it observes; an exception that escapes it is printed as `EXC <type>`.
"""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

LAZYEMU = Path(__file__).resolve().parents[1] / "src" / "importsafe" / "dynamic" / "lazyemu.py"
BOOT = """
import importlib.util, runpy, sys
emu, root, scenario, lazy = sys.argv[1:5]
if lazy == "1" and sys.version_info < (3, 15):
    spec = importlib.util.spec_from_file_location("_importsafe_lazyemu", emu)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.install([root], "normal")
sys.path.insert(0, root)
try:
    runpy.run_path(scenario, run_name="__main__")
except BaseException as exc:
    print("EXC", type(exc).__name__)
"""
HOW = "PEP 810 natively" if sys.version_info >= (3, 15) else \
    "importsafe's PEP 810 emulation (no Python 3.15 here)"


def run_scenario(root: Path, scenario: Path, lazy: bool, python: str = sys.executable) -> str:
    proc = subprocess.run([python, "-c", BOOT, str(LAZYEMU), str(root), str(scenario),
                           "1" if lazy else "0"], capture_output=True, text=True, timeout=60,
                          cwd=root, stdin=subprocess.DEVNULL)
    return proc.stdout + (f"\nexit {proc.returncode}" if proc.returncode else "")


def make_one_lazy(root: Path, statement: str) -> None:
    """Rewrite `file:line` under root so that this one import statement is `lazy`."""
    from importsafe.lazyplan.rewrite import make_lazy  # libcst: not for run_scenario's users
    rel, _, line = statement.rpartition(":")
    path = root / rel
    path.write_text(make_lazy(path.read_text(), [int(line)]))


def copy_case(case: Path, to: Path) -> Path:
    shutil.copytree(case, to, ignore=shutil.ignore_patterns("__pycache__"))
    return to


def case_checks(case: Path) -> list[tuple[str, str, Path, dict]]:
    """(name, statement made lazy, scenario, expected) of each check of a lazy_cases
    fixture: its case.toml's own, then each `[variants.NAME]` table's (another statement of
    the same package, with its own scenario file), named `case/NAME`."""
    import tomllib
    spec = tomllib.loads((case / "case.toml").read_text())
    out = [(case.name, spec["statement"], case / spec.get("scenario", "scenario.py"), spec)]
    for name, variant in sorted(spec.get("variants", {}).items()):
        out.append((f"{case.name}/{name}", variant["statement"], case / variant["scenario"],
                    variant))
    return out
