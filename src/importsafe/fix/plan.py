"""Choose the smallest set of import edits that makes every requested (entry, mode) `ok`,
proven by re-simulating the edited code. Pure: source texts come in through `read_text`.

Greedy and verified: each round tries the safe edit of every import statement on the chains
of the entries still failing (the statement that needed the name first, then the ones that
led there), re-simulates the failing entries with each, and keeps the edit that fixes the
most; the kept edit is then checked against every requested entry, and dropped if it breaks
one that worked. Preference between equally good edits follows the order of the chain, then
defer-into-functions over TYPE_CHECKING over the combination.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..model import Result
from ..static.events import ModuleFacts
from ..static.facts import facts_from_source
from ..static.simulate import simulate
from ..static.state import Program
from .edits import (
    DEFER, DEFER_AND_TYPE_CHECKING, LAZY, MODULE_IMPORT, TYPE_CHECKING_ONLY, Edit, NoEdit,
    edit_statement, lazy_edit, module_import_edit,
)

_PREFERENCE = {DEFER: 0, TYPE_CHECKING_ONLY: 1, DEFER_AND_TYPE_CHECKING: 2, LAZY: 3,
               MODULE_IMPORT: 4}
LAZY_SYNTAX = (3, 15)  # `lazy import` is valid Python from this version on
MAX_ROUNDS = 200


@dataclass(frozen=True, slots=True)
class FilePatch:
    module: str
    path: str
    old: str
    new: str
    edits: tuple[Edit, ...]


@dataclass(frozen=True, slots=True)
class FixPlan:
    patches: tuple[FilePatch, ...]
    before: tuple[Result, ...]
    after: tuple[Result, ...]
    refused: tuple[tuple[str, int, str], ...]  # (file, line, why no safe edit)

    @property
    def complete(self) -> bool:
        return all(r.outcome == "ok" for r in self.after)


class _Workspace:
    """The program with some files' texts replaced, and simulations over it."""

    def __init__(self, program: Program, read_text: Callable[[str], str], version):
        self.program = program
        self.read_text = read_text
        self.version = version
        self.texts: dict[str, str] = {}  # module -> edited text
        self.facts: dict[str, ModuleFacts] = dict(program.facts)

    def text(self, module: str) -> str:
        return self.texts.get(module) or self.read_text(self.program.index[module].path)

    def facts_for(self, module: str, text: str, bodies: bool) -> ModuleFacts:
        info = self.program.index[module]
        return facts_from_source(text, module, info.path, info.kind == "package", self.version,
                                 bodies)

    def run(self, pairs, overlay: dict[str, str] | None = None) -> list[Result]:
        overlay = overlay or {}
        facts = dict(self.facts)
        for module, text in overlay.items():
            facts[module] = self.facts_for(module, text, bodies=False)
        texts = {**self.texts, **overlay}

        def bodies(name: str) -> ModuleFacts:
            if name in texts:
                return self.facts_for(name, texts[name], bodies=True)
            return self.program.load_bodies(name)

        program = Program(self.program.index, facts, load_bodies=bodies,
                          target_version=self.program.target_version)
        return [simulate(e, m, program) for e, m in pairs]

    def commit(self, module: str, text: str) -> None:
        self.texts[module] = text
        self.facts[module] = self.facts_for(module, text, bodies=False)


def _module_of(program: Program, path: str) -> str | None:
    for name, info in program.index.items():
        if info.path == path:
            return name
    return None


def _candidates(failing: list[Result]) -> list[tuple[str, int]]:
    """Import statements on the failing chains: the one that needed the name first."""
    seen: dict[tuple[str, int], None] = {}
    for r in failing:
        for frame in reversed(r.error.chain if r.error else ()):
            seen.setdefault((frame.file, frame.line))
    return list(seen)


def plan_fix(program: Program, pairs: list[tuple[str, str]], read_text: Callable[[str], str],
             version=(3, 11)) -> FixPlan:
    ws = _Workspace(program, read_text, version)
    before = ws.run(pairs)
    current = list(before)
    refused: dict[tuple[str, int], str] = {}
    edits: dict[str, list[Edit]] = {}
    rejected: set[tuple[str, str]] = set()  # (module, new text) that broke other entries
    for _ in range(MAX_ROUNDS):
        failing = [r for r in current if r.outcome == "error"]
        if not failing:
            break
        best = _best_edit(ws, failing, refused, rejected)
        if best is None:
            break
        module, edit, _ = best
        trial = ws.run(pairs, {module: edit.new_text})
        if any(a.outcome == "ok" and b.outcome != "ok" for a, b in zip(current, trial)):
            rejected.add((module, edit.new_text))
            continue
        ws.commit(module, edit.new_text)
        edits.setdefault(module, []).append(edit)
        current = trial
        path = ws.program.index[module].path  # its lines moved: judge its statements anew
        refused = {k: v for k, v in refused.items() if k[0] != path}
    patches = tuple(FilePatch(m, program.index[m].path, read_text(program.index[m].path),
                              ws.texts[m], tuple(es)) for m, es in sorted(edits.items()))
    return FixPlan(patches, tuple(before), tuple(current),
                   tuple((f, line, why) for (f, line), why in sorted(refused.items())))


def _best_edit(ws: _Workspace, failing: list[Result], refused, rejected):
    """The edit that fixes the most failing entries; per statement, the preferred kind of
    edit first, the module-import form only when that does not help."""
    pairs = [(r.entry, r.mode) for r in failing]
    best = None
    for order, (path, line) in enumerate(_candidates(failing)):
        module = _module_of(ws.program, path)
        if module is None or (path, line) in refused:
            continue
        text, reasons = ws.text(module), []
        makers = (edit_statement, lazy_edit, module_import_edit) \
            if tuple(ws.version) >= LAZY_SYNTAX else (edit_statement, module_import_edit)
        for make in makers:
            edit = make(text, line)
            if isinstance(edit, NoEdit):
                reasons.append(edit.reason)
                continue
            if (module, edit.new_text) in rejected:
                continue
            still = sum(r.outcome != "ok" for r in ws.run(pairs, {module: edit.new_text}))
            if still == len(failing):
                continue
            score = (still, order, _PREFERENCE[edit.kind])
            if best is None or score < best[2]:
                best = (module, edit, score)
            break
        if len(reasons) == len(makers):
            refused[(path, line)] = reasons[0]
    return best


def patched_program(program: Program, patches, version=(3, 11)) -> Program:
    """The program as it would be with the patches applied (function bodies included)."""
    texts = {p.module: p.new for p in patches}
    facts = dict(program.facts)
    for module, text in texts.items():
        info = program.index[module]
        facts[module] = facts_from_source(text, module, info.path, info.kind == "package",
                                          version, bodies=False)

    def bodies(name: str) -> ModuleFacts:
        if name in texts:
            info = program.index[name]
            return facts_from_source(texts[name], name, info.path, info.kind == "package",
                                     version, bodies=True)
        return program.load_bodies(name)

    return Program(program.index, facts, load_bodies=bodies,
                   target_version=program.target_version)
