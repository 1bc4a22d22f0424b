"""Use cases of the fixer: plan a verified fix, report its consequences, write it safely.
The only writer of user files; everything it writes was re-parsed and re-simulated first."""
from __future__ import annotations

import ast
import os
import tempfile
import tokenize
from dataclasses import dataclass
from io import BytesIO
from typing import Iterable, Sequence

from ..api import deep_recursion, load
from ..static.parse import read_facts
from .compat import hidden_submodule_reads, lost_modules
from ..static.lower import lower
from .plan import FilePatch, FixPlan, patched_program, plan_fix
from ..model import MODES
from ..static.parallel import no_cyclic_gc


@dataclass(frozen=True, slots=True)
class FixOutcome:
    plan: FixPlan
    lost: tuple[tuple[str, tuple[str, ...]], ...]  # package -> modules it no longer loads
    written: tuple[str, ...] = ()
    problem: str | None = None  # why nothing was written


def read_text(path: str) -> str:
    """A source file as text, decoded as Python does (coding cookie, BOM)."""
    with open(path, "rb") as f:
        data = f.read()
    encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
    return data.decode(encoding)


def plan(paths: Iterable[str], modes: Sequence[str] = MODES, source_roots: Sequence[str] = (),
         target_version: tuple[int, int] = (3, 11)) -> FixOutcome:
    loaded = load(paths, source_roots, target_version)
    pairs = [(e, m) for e in loaded.entries for m in modes]
    program = loaded.program
    with deep_recursion(), no_cyclic_gc():
        fix_plan = plan_fix(program, pairs, read_text, target_version)
        after = patched_program(program, fix_plan.patches, target_version)
        packages = [e for e in loaded.entries if program.index[e].kind == "package"]
        lost = lost_modules(program, after, packages) if fix_plan.patches else []
    return FixOutcome(fix_plan, tuple(lost))


def fix(paths: Iterable[str], modes: Sequence[str] = MODES, source_roots: Sequence[str] = (),
        target_version: tuple[int, int] = (3, 11), write: bool = False) -> FixOutcome:
    """Plan the fix; with `write`, apply it, or write nothing and say why."""
    outcome = plan(paths, modes, source_roots, target_version)
    if not write or not outcome.plan.patches:
        return outcome
    written, problem = write_patches(outcome.plan.patches)
    return FixOutcome(outcome.plan, outcome.lost, written, problem)


def write_patches(patches: Sequence[FilePatch]) -> tuple[tuple[str, ...], str | None]:
    """The one way importsafe writes user files: every patch or none. Returns the paths
    written and None, or () and why nothing was written."""
    problem = _check_patches(patches)
    if problem is not None:
        return (), problem
    return tuple(_write_atomically(p) for p in patches), None


def hidden_reads(paths: Iterable[str], source_roots: Sequence[str] = (),
                 target_version: tuple[int, int] = (3, 11)) -> list[tuple[str, int, str, str]]:
    """`pkg.sub.attr` reads whose module never imports `pkg.sub` itself (bodies included)."""
    loaded = load(paths, source_roots, target_version)
    index = loaded.program.index
    full = {name: read_facts(info, target_version, bodies=True) for name, info in index.items()
            if info.kind in ("module", "package")}
    return hidden_submodule_reads(loaded.program, full)


def _check_patches(patches: Sequence[FilePatch]) -> str | None:
    for p in patches:
        try:
            ast.parse(p.new, filename=p.path)
        except SyntaxError as exc:
            # newer syntax than this interpreter's (a `lazy` edit on 3.11): the fallback parser
            lowered = lower(p.new)
            if lowered is None:
                return f"the edited {p.path} does not parse ({exc.msg}); nothing was written"
            try:
                ast.parse(lowered[0], filename=p.path)
            except SyntaxError:
                return f"the edited {p.path} does not parse ({exc.msg}); nothing was written"
        if read_text(p.path) != p.old:
            return f"{p.path} changed while importsafe was working; nothing was written"
    return None


def _write_atomically(patch: FilePatch) -> str:
    """Write next to the file, flush to disk, then rename over it (keeping its mode)."""
    with open(patch.path, "rb") as f:
        encoding, _ = tokenize.detect_encoding(f.readline)
    mode = os.stat(patch.path).st_mode
    directory = os.path.dirname(os.path.abspath(patch.path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".importsafe-", suffix=".py")
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(patch.new.encode(encoding))
            out.flush()
            os.fsync(out.fileno())
        os.chmod(tmp, mode & 0o7777)
        os.replace(tmp, patch.path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    return patch.path
