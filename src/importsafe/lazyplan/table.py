"""The effect table: what functions outside the analysed code do (effects.toml, shipped as
data, extended by `[tool.importsafe] effects`)."""
from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

KINDS = ("registry", "patch", "import-system", "process", "output", "none")


class TableError(ValueError):
    """An entry of the effect table (shipped or configured) that cannot be used."""


@dataclass(frozen=True, slots=True)
class Entry:
    kind: str
    state: str = ""
    keyed: int | None = None
    mutates: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class EffectTable:
    functions: dict
    mutators: dict  # method name -> index of its key argument, or None
    states: dict  # dotted module attribute -> kind
    modules: dict  # module -> Entry

    def function(self, dotted: str) -> Entry | None:
        return self.functions.get(dotted)

    def state_kind(self, dotted: str) -> str | None:
        """The kind of process state a dotted name is (or is part of), if any."""
        while dotted:
            found = self.states.get(dotted)
            if found is not None:
                return found
            dotted = dotted.rpartition(".")[0]
        return None

    def with_overrides(self, overrides: dict) -> "EffectTable":
        if not overrides:
            return self
        functions = dict(self.functions)
        for name, spec in overrides.items():
            functions[name] = _entry(name, spec, "[tool.importsafe] effects")
        return EffectTable(functions, self.mutators, self.states, self.modules)


def _entry(name: str, spec, where: str) -> Entry:
    if isinstance(spec, str):
        spec = {"kind": spec}
    if not isinstance(spec, dict):
        raise TableError(f"{where}: {name!r} must be a kind ({', '.join(KINDS)}) or a table, "
                         f"not {spec!r}")
    kind = spec.get("kind")
    if kind not in KINDS:
        raise TableError(f"{where}: {name!r} has kind {kind!r}; choose from {', '.join(KINDS)}")
    unknown = sorted(set(spec) - {"kind", "state", "keyed", "mutates"})
    if unknown:
        raise TableError(f"{where}: {name!r} has unknown key(s) {', '.join(unknown)}")
    keyed, mutates, state = spec.get("keyed"), spec.get("mutates", []), spec.get("state", "")
    if keyed is not None and (not isinstance(keyed, int) or isinstance(keyed, bool) or keyed < 0):
        raise TableError(f"{where}: {name!r}: keyed must be an argument index, not {keyed!r}")
    if not isinstance(mutates, list) or not all(isinstance(i, int) and i >= 0 for i in mutates):
        raise TableError(f"{where}: {name!r}: mutates must be a list of argument indices")
    if not isinstance(state, str):
        raise TableError(f"{where}: {name!r}: state must be a string")
    return Entry(kind, state or name, keyed, tuple(mutates))


@lru_cache(maxsize=1)
def shipped() -> EffectTable:
    """The table shipped with importsafe."""
    data = tomllib.loads(resources.files(__package__).joinpath("effects.toml").read_text("utf-8"))
    where = "effects.toml"
    functions = {n: _entry(n, s, where) for n, s in data.get("functions", {}).items()}
    mutators = {n: s.get("keyed") for n, s in data.get("mutators", {}).items()}
    modules = {n: _entry(n, s, where) for n, s in data.get("modules", {}).items()}
    return EffectTable(functions, mutators, dict(data.get("state", {})), modules)


def table(overrides: dict | None = None) -> EffectTable:
    """The shipped table with the configured entries over it; raises TableError."""
    if overrides is not None and not isinstance(overrides, dict):
        raise TableError(f"[tool.importsafe] effects must be a table, not {overrides!r}")
    return shipped().with_overrides(overrides or {})
