"""Use cases of the fixer: plan a verified fix, report its consequences, write it safely.
The only writer of user files; everything it writes was re-parsed and re-simulated first."""
from __future__ import annotations

import ast
import os
import tokenize
from dataclasses import dataclass
from io import BytesIO
from typing import Callable, Iterable, Sequence

from ..api import deep_recursion, load
from ..static.files import read_regular
from ..static.parse import read_facts
from ..static.simulate import simulate
from .compat import Breakage, hidden_submodule_reads, lost_modules
from ..static.lower import lower
from .plan import FilePatch, FixPlan, Options, patched_program, plan_fix
from .write import WriteAbort, recover, write_all
from ..model import MODES
from ..static.parallel import no_cyclic_gc


@dataclass(frozen=True, slots=True)
class FixOutcome:
    plan: FixPlan
    lost: tuple[tuple[str, tuple[str, ...]], ...]  # package -> modules it no longer loads
    written: tuple[str, ...] = ()
    problem: str | None = None  # why nothing was written
    restored: tuple[str, ...] = ()  # files an interrupted earlier write left, put back


def read_text(path: str) -> str:
    """A source file as text, decoded as Python does (coding cookie, BOM)."""
    data = read_regular(path)
    encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
    return data.decode(encoding)


def plan(paths: Iterable[str], modes: Sequence[str] = MODES, source_roots: Sequence[str] = (),
         target_version: tuple[int, int] = (3, 11), include_tests: bool = False,
         unsafe: bool = False, loaded=None, env=()) -> FixOutcome:
    loaded = loaded or load(paths, source_roots, target_version, env=env)
    pairs = [(e, m) for e in loaded.entries for m in modes]
    program = loaded.program
    packages = [e for e in loaded.entries if program.index[e].kind == "package"]
    sources: dict[str, bytes] = {}

    def source(path: str) -> bytes:
        if path not in sources:
            sources[path] = read_regular(path)
        return sources[path]
    check = Breakage(program, packages, source)
    with deep_recursion(), no_cyclic_gc():
        fix_plan = plan_fix(program, pairs, read_text, target_version,
                            Options(include_tests, unsafe, check))
        after = patched_program(program, fix_plan.patches, target_version)
        edited = {p.module for p in fix_plan.patches}
        lost = lost_modules(program, after, packages, edited) if fix_plan.patches else []
    return FixOutcome(fix_plan, tuple(lost))


def fix(paths: Iterable[str], modes: Sequence[str] = MODES, source_roots: Sequence[str] = (),
        target_version: tuple[int, int] = (3, 11), write: bool = False,
        include_tests: bool = False, unsafe: bool = False,
        hook: Callable[[str, int], None] | None = None, env=()) -> FixOutcome:
    """Plan the fix; with `write`, apply it (after undoing any interrupted earlier write),
    or write nothing and say why. `env`: environment variables, as `api.check` takes them."""
    paths = list(paths)
    loaded = load(paths, source_roots, target_version, env=env)
    restored: tuple[str, ...] = ()
    if write:
        restored = tuple(recover(_directories(loaded.program)))
        if restored:
            loaded = load(paths, source_roots, target_version, env=env)
    outcome = plan(paths, modes, source_roots, target_version, include_tests, unsafe, loaded)
    if not write or not outcome.plan.patches:
        return FixOutcome(outcome.plan, outcome.lost, restored=restored)
    problem = _reverify(loaded.program, outcome.plan, target_version)
    written: tuple[str, ...] = ()
    if problem is None:
        written, problem = write_patches(outcome.plan.patches, hook)
    return FixOutcome(outcome.plan, outcome.lost, written, problem, restored)


def _directories(program) -> set[str]:
    out = set()
    for info in program.index.values():
        if info.path:
            out.add(os.path.dirname(info.path))
            out.add(os.path.dirname(os.path.realpath(info.path)))
    return out


def _reverify(program, fix_plan: FixPlan, version) -> str | None:
    """Simulate every pair again on the patched texts: the plan's predictions must hold."""
    with deep_recursion(), no_cyclic_gc():
        after = patched_program(program, fix_plan.patches, version)
        for r in fix_plan.after:
            if simulate(r.entry, r.mode, after).outcome != r.outcome:
                return (f"re-simulating the edited code disagrees on {r.entry} [{r.mode}]; "
                        "nothing was written")
    return None


def write_patches(patches: Sequence[FilePatch], hook: Callable[[str, int], None] | None = None
                  ) -> tuple[tuple[str, ...], str | None]:
    """The one way importsafe writes user files: every patch or none. Returns the paths
    written and None, or () and why nothing was written."""
    items = []
    for p in patches:
        problem = _parses(p)
        if problem is not None:
            return (), problem
        try:
            data = read_regular(p.path)
            encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
            if data.decode(encoding) != p.old:
                return (), f"{p.path} changed while importsafe was working; nothing was written"
            items.append((p.path, data, p.new.encode(encoding)))
        except (OSError, SyntaxError, UnicodeError) as exc:
            return (), f"cannot read {p.path} again: {exc}; nothing was written"
    try:
        return write_all(items, hook), None
    except WriteAbort as exc:
        return (), str(exc)


def _parses(p: FilePatch) -> str | None:
    try:
        ast.parse(p.new, filename=p.path)
    except SyntaxError as exc:
        # newer syntax than this interpreter's (a `lazy` edit on 3.11): the fallback parser
        lowered = lower(p.new)
        if lowered is None:
            return f"the edited {p.path} does not parse ({exc.msg}); nothing was written"
        try:
            lowered[3] or ast.parse(lowered[0], filename=p.path)
        except SyntaxError:
            return f"the edited {p.path} does not parse ({exc.msg}); nothing was written"
    return None


def hidden_reads(paths: Iterable[str], source_roots: Sequence[str] = (),
                 target_version: tuple[int, int] = (3, 11), of=None, env=()
                 ) -> list[tuple[str, int, str, str]]:
    """`pkg.sub.attr` reads whose module never imports `pkg.sub` itself (bodies included);
    with `of` (module names), only reads of those, by modules whose source names them."""
    loaded = load(paths, source_roots, target_version, env=env)
    index = loaded.program.index
    words = {m.rpartition(".")[2].encode() for m in of} if of is not None else None
    full = {}
    for name, info in index.items():
        if info.kind not in ("module", "package"):
            continue
        if words is not None:
            try:
                data = read_regular(info.path)
            except OSError:
                continue
            if not any(w in data for w in words):
                continue
        full[name] = read_facts(info, target_version, bodies=True, env=loaded.program.env)
    found = hidden_submodule_reads(loaded.program, full)
    return found if of is None else [h for h in found if h[3] in set(of)]
