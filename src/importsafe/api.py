"""Use cases: the only place that sequences the stages. IO here is reading source files."""
from __future__ import annotations

import os
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import Iterable, Sequence

from .diagnose import diagnose
from .model import MODES, Report, Result
from .parallel import map_slices, no_cyclic_gc
from .static.discover import ModuleInfo
from .static.events import FileProblem, ModuleFacts
from .static.facts import facts_from_source
from .static.layout import InputError, Target, find_top, is_entry, resolve_targets, scan
from .static.simulate import simulate
from .static.state import Program

PARALLEL_MIN_FILES = 400
RECURSION_LIMIT = 20000


def read_facts(info: ModuleInfo, target_version=(3, 11), bodies=True) -> ModuleFacts:
    try:
        with open(info.path, "rb") as f:
            source = f.read()
    except OSError as exc:
        problem = FileProblem("IS003", 1, f"cannot read: {exc.strerror}")
        return ModuleFacts(info.name, info.path, info.is_package, (), problem=problem)
    return facts_from_source(source, info.name, info.path, info.kind == "package",
                             target_version, bodies)


def _read_chunk(items):
    infos, version, bodies = items
    with no_cyclic_gc():
        return [read_facts(i, version, bodies) for i in infos]


def load_facts(infos: Sequence[ModuleInfo], target_version=(3, 11), jobs: int | None = None,
               bodies: bool = True) -> dict[str, ModuleFacts]:
    """Parse every source module; in parallel processes when there are many. Without
    `bodies`, function bodies are left as stubs for the simulator to load when called."""
    todo = [i for i in infos if i.kind in ("module", "package")]
    jobs = jobs or os.cpu_count() or 1
    if len(todo) < PARALLEL_MIN_FILES or jobs == 1:
        return {f.name: f for f in _read_chunk((todo, target_version, bodies))}
    size = max(16, len(todo) // (jobs * 8))
    chunks = [(todo[k:k + size], target_version, bodies) for k in range(0, len(todo), size)]
    out: dict[str, ModuleFacts] = {}
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        for batch in pool.map(_read_chunk, chunks):
            out.update((f.name, f) for f in batch)
    return out


def discover_and_parse(targets: list[Target], roots: list[str], target_version, jobs):
    """Scan the requested top-level packages, parse them, then pull in every other top-level
    package of the source roots that their imports name, until nothing new is reached.
    Function bodies are stubs here: the few called at import time are loaded on demand."""
    problems: list = []
    index: dict[str, ModuleInfo] = {}
    facts: dict[str, ModuleFacts] = {}
    pending = list(dict.fromkeys((t.root, t.top) for t in targets))
    scanned: set[str] = set()
    while pending:
        new: list[ModuleInfo] = []
        for root, top in pending:
            if top in scanned:
                continue
            scanned.add(top)
            for info in scan(root, top, problems):
                index.setdefault(info.name, info)
                new.append(info)
        fresh = load_facts(new, target_version, jobs, bodies=False)
        facts.update(fresh)
        pending = []
        for name in fresh:
            for imported in facts[name].imports:
                top = imported.partition(".")[0]
                if top not in scanned:
                    root = find_top(roots, top)
                    if root is None:
                        scanned.add(top)
                    else:
                        pending.append((root, top))
    return index, facts, problems


def check(paths: Iterable[str], modes: Sequence[str] = MODES, source_roots: Sequence[str] = (),
          target_version: tuple[int, int] = (3, 11), jobs: int | None = None,
          memo: bool = True) -> Report:
    """Predict, without running any of it, the outcome of every first import under `paths`."""
    roots, targets = resolve_targets(list(paths), list(source_roots))
    workers = jobs or os.cpu_count() or 1
    with no_cyclic_gc():
        index, facts, problems = discover_and_parse(targets, roots, target_version, workers)
        entries = sorted(n for n, i in index.items() if i.kind in ("module", "package")
                         and is_entry(n, targets) and not n.endswith("__main__"))
        if not entries:
            raise InputError("no Python modules found under " + ", ".join(map(str, paths)))
        program = Program(index, facts, memo=memo, load_bodies=lambda name: read_facts(
            index[name], target_version, bodies=True))
        todo = [(e, m) for e in entries for m in modes]
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, RECURSION_LIMIT))
        try:
            results = tuple(map_slices(
                lambda part: [simulate(e, m, program) for e, m in part], todo,
                workers if len(todo) >= PARALLEL_MIN_FILES else 1))
        finally:
            sys.setrecursionlimit(limit)
    diagnostics = diagnose(results, facts, problems)
    return Report(results, diagnostics, "static", tuple(roots))


__all__ = ["check", "InputError", "Report", "Result"]
