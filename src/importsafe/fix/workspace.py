"""The planner's workspace: the program with some files' texts replaced, simulations over
it, and what they cost to repeat (parsed facts, function bodies, libcst edits, whether
dropping a statement repairs a pair) remembered. Pure: texts come in through `read_text`."""
from __future__ import annotations

import difflib
from dataclasses import replace
from typing import Callable

from ..model import Result
from ..static.events import Import, ImportFrom, ModuleFacts
from ..static.facts import facts_from_source
from ..static.simulate import simulate_modules
from ..static.state import Program, functions_of


class Workspace:
    """The program with some files' texts replaced, and simulations over it; each pair's
    result and the modules its run created."""

    def __init__(self, program: Program, read_text: Callable[[str], str], version):
        self.program = program
        self.read_text = read_text
        self.version = version
        self.texts: dict[str, str] = {}  # module -> edited text
        self.facts: dict[str, ModuleFacts] = dict(program.facts)
        self.state: dict[tuple[str, str], tuple[Result, frozenset]] = {}
        self._facts_memo: dict = {}
        self._bodies_memo: dict = {}
        self._functions_memo: dict = {}
        self._edits: dict = {}
        self._moved: dict = {}
        self._runs: dict = {}  # (module, text, pair) -> (len(log) then, (result, created))
        self.skipped: dict[str, str] = {}  # path -> why it cannot be read
        self.unhelpful: set[tuple[str, int]] = set()  # statements no edit of which helps
        self.log: list[str] = []  # the modules edited, in order
        # (module, line, pair) -> (repaired without the statement, len(log) then, created)
        self._helps: dict = {}
        self.by_path = {info.path: name for name, info in program.index.items()}
        self.is_test: Callable[[str], bool] = lambda module: False  # set by the planner

    def text(self, module: str) -> str | None:
        if module in self.texts:
            return self.texts[module]
        path = self.program.index[module].path
        if path in self.skipped:
            return None
        try:
            return self.read_text(path)
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError) as exc:
            self.skipped[path] = f"cannot be read as Python source: {exc}"
            return None

    def edit(self, make, module: str, text: str, line: int):
        key = (make, module, text, line)
        if key not in self._edits:
            self._edits[key] = make(text, line)
        return self._edits[key]

    def facts_for(self, module: str, text: str, bodies: bool) -> ModuleFacts:
        key = (module, text, bodies)
        if key not in self._facts_memo:
            info = self.program.index[module]
            self._facts_memo[key] = facts_from_source(text, module, info.path,
                                                      info.kind == "package", self.version,
                                                      bodies, env=self.program.env)
        return self._facts_memo[key]

    def _base_functions(self, name: str):
        found = self._functions_memo.get(name)
        if found is None:
            if self.program.load_functions is not None:
                found = self.program.load_functions(name)
            else:
                found = functions_of(self.base_bodies(name).body)
            self._functions_memo[name] = found
        return found

    def base_bodies(self, name: str) -> ModuleFacts:
        """A module's facts with function bodies, as on disk (parsed once)."""
        found = self._bodies_memo.get(name)
        if found is None:
            found = self._bodies_memo[name] = self.program.load_bodies(name)
        return found

    def program_with(self, overlay: dict[str, str], facts_overlay=None) -> Program:
        facts = dict(self.facts)
        for module, text in overlay.items():
            facts[module] = self.facts_for(module, text, bodies=False)
        facts.update(facts_overlay or {})
        texts = {**self.texts, **overlay}

        def bodies(name: str) -> ModuleFacts:
            if name in texts:
                return self.facts_for(name, texts[name], bodies=True)
            return self.base_bodies(name)

        def functions(name: str):
            if name in texts:
                key = (name, texts[name])
                if key not in self._functions_memo:
                    self._functions_memo[key] = functions_of(bodies(name).body)
                return self._functions_memo[key]
            return self._base_functions(name)

        return Program(self.program.index, facts, load_bodies=bodies, load_functions=functions,
                       listings=self.program.listings,
                       target_version=self.program.target_version, env=self.program.env,
                       versions=self.program.versions)

    def start(self, pairs) -> list[Result]:
        program = self.program_with({})
        for e, m in pairs:
            result, created, _ = simulate_modules(e, m, program)
            self.state[(e, m)] = (result, created)
        return [self.state[p][0] for p in pairs]

    def reached(self, pairs, module: str) -> list:
        return [p for p in pairs if module in self.state[p][1]]

    def run(self, pairs, module: str, text: str) -> dict:
        """pair -> (result, created) with `module` edited, for the pairs whose run created
        `module` (the others cannot change). A run is remembered until an edit touches a
        module it created (candidate edits are judged again every round)."""
        out, todo = {}, []
        for p in self.reached(pairs, module):
            known = self._runs.get((module, text, p))
            if known is not None and not any(m in known[1][1] for m in self.log[known[0]:]):
                out[p] = known[1]
            else:
                todo.append(p)
        if todo:
            for p, found in self.run_many(todo, {module: text}).items():
                self._runs[(module, text, p)] = (len(self.log), found)
                out[p] = found
        return {p: out[p] for p in pairs if p in out}

    def run_many(self, pairs, texts: dict[str, str]) -> dict:
        """pair -> (result, created) with every module of `texts` edited, for the pairs
        whose run created one of them."""
        program = self.program_with(texts)
        out = {}
        for p in pairs:
            if any(m in self.state[p][1] for m in texts):
                result, created, _ = simulate_modules(p[0], p[1], program)
                out[p] = (result, created)
        return out

    def moved(self, old: str, new: str) -> int:
        """Lines an edit removes or adds."""
        key = (old, new)
        if key not in self._moved:
            self._moved[key] = sum(
                1 for line in difflib.unified_diff(old.splitlines(), new.splitlines(), n=0,
                                                   lineterm="")
                if line[:1] in "+-" and line[:3] not in ("+++", "---"))
        return self._moved[key]

    def could_help(self, pairs, module: str, line: int) -> bool:
        """Would dropping the import statement on `line` from the module's top level
        repair any of `pairs`? No edit of that statement does better at import time (an
        edit moves the import later or away), so when not, no edit is computed: libcst's
        analysis of a large module is the costly step. True when it is not at top level."""
        facts = self.facts[module]
        body = tuple(ev for ev in facts.body
                     if not (ev.__class__ in (Import, ImportFrom) and ev.line == line))
        if len(body) == len(facts.body):
            return True
        program = None
        for pair in self.reached(pairs, module):
            key = (module, line, pair)
            known = self._helps.get(key)
            if known is not None and not any(m in known[2] for m in self.log[known[1]:]):
                ok = known[0]  # no edit since touched a module that run created
            else:
                program = program or self.program_with({}, {module: replace(facts, body=body)})
                result, created, _ = simulate_modules(pair[0], pair[1], program)
                ok = result.outcome == "ok"
                self._helps[key] = (ok, len(self.log), created)
            if ok:
                return True
        return False

    def commit_many(self, texts: dict[str, str], runs: dict) -> None:
        for module, text in texts.items():
            self.log.append(module)
            self.texts[module] = text
            self.facts[module] = self.facts_for(module, text, bodies=False)
        self.state.update(runs)
