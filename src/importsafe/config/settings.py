"""`[tool.importsafe]` in pyproject.toml + command-line flags -> a frozen Config."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from ..model import ALL_MODES, MODES
from .keys import KNOWN_KEYS



class ConfigError(Exception):
    """A configuration file or flag that cannot be used (exit status 2)."""


@dataclass(frozen=True, slots=True)
class Config:
    paths: tuple[str, ...] = ()
    source_roots: tuple[str, ...] = ()
    modes: tuple[str, ...] = MODES
    target_version: tuple[int, int] = (3, 11)
    config_file: str | None = field(default=None)
    baseline: str | None = None  # a baseline file (baseline.py)
    skip: tuple[str, ...] = ()  # fnmatch patterns of entries not checked
    select: tuple[str, ...] = ()  # rule codes (or prefixes) reported; () means all
    ignore: tuple[str, ...] = ()  # rule codes (or prefixes) not reported


def find_pyproject(start: str) -> str | None:
    d = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or ".")
    while True:
        candidate = os.path.join(d, "pyproject.toml")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(d)
        if parent == d:
            return None
        d = parent


def parse_modes(text: str | list) -> tuple[str, ...]:
    items = text.split(",") if isinstance(text, str) else list(text)
    modes = tuple(m.strip() for m in items if m.strip())
    bad = [m for m in modes if m not in ALL_MODES]
    if bad or not modes:
        raise ConfigError(f"unknown mode {', '.join(bad) or '(none)'}; choose from "
                          f"{', '.join(ALL_MODES)}")
    return modes


def parse_version(text: str) -> tuple[int, int]:
    try:
        major, minor = (int(p) for p in str(text).split(".")[:2])
    except ValueError:
        raise ConfigError(f"target version must look like 3.11, not {text!r}") from None
    return major, minor


def requires_python_floor(spec) -> str | None:
    """The oldest Python a `requires-python` specifier admits, as "3.X" (None if it names no
    lower bound we can read): ">=3.9,<4" -> "3.9", "~=3.10" -> "3.10", "==3.12.*" -> "3.12"."""
    if not isinstance(spec, str):
        return None
    floor: tuple[int, int] | None = None
    for clause in spec.split(","):
        m = re.match(r"\s*(>=|~=|===|==|>)\s*(\d+)\.(\d+)", clause)
        if m:
            version = (int(m.group(2)), int(m.group(3)))
            floor = version if floor is None else max(floor, version)
    return f"{floor[0]}.{floor[1]}" if floor else None


def read_toml(path: str) -> dict:
    import tomllib  # only when there is a file to read: it slows every start
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: {exc}") from None


def read_table(path: str) -> dict:
    data = read_toml(path)
    table = data.get("tool", {}).get("importsafe", {})
    unknown = sorted(set(table) - KNOWN_KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) in [tool.importsafe]: {', '.join(unknown)}")
    return table


def parse_list(value, what: str) -> tuple[str, ...]:
    """A list of strings, or one string of comma-separated items."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
        raise ConfigError(f"{what} must be a list of strings, not {value!r}")
    return tuple(dict.fromkeys(p.strip() for i in items for p in i.split(",") if p.strip()))


def parse_codes(value, what: str) -> tuple[str, ...]:
    """Rule codes, or prefixes of them such as IS1 (every IS1xx)."""
    from ..rules import RULES
    codes = tuple(c.upper() for c in parse_list(value, what))
    bad = [c for c in codes if not any(code.startswith(c) for code in RULES)]
    if bad:
        raise ConfigError(f"{what}: unknown rule code(s) {', '.join(bad)} (see docs/rules.md)")
    return codes


def load_config(paths, source_roots, modes, target_version, start: str, skip=(), select=(),
                ignore=(), baseline: str | None = None) -> Config:
    """Flags override the file; file paths are relative to the file's directory."""
    file = find_pyproject(start)
    table = read_table(file) if file else {}
    project = read_toml(file).get("project", {}) if file else {}
    requires = requires_python_floor(project.get("requires-python")) \
        if isinstance(project, dict) else None
    base = os.path.dirname(file) if file else os.getcwd()
    rel = (lambda p: os.path.normpath(os.path.join(base, p)))
    return Config(
        paths=tuple(paths) or tuple(rel(p) for p in table.get("paths", ())),
        source_roots=tuple(source_roots) or tuple(rel(p) for p in table.get("source-roots", ())),
        modes=parse_modes(modes) if modes else parse_modes(table.get("modes", list(MODES))),
        target_version=parse_version(target_version or table.get("target-version")
                                     or requires or "3.11"),
        config_file=file,
        baseline=baseline or _file_key(table, "baseline", rel),
        skip=parse_list(skip or table.get("skip", ()), "skip"),
        select=parse_codes(select or table.get("select", ()), "select"),
        ignore=parse_codes(ignore or table.get("ignore", ()), "ignore"),
    )


def _file_key(table: dict, key: str, rel) -> str | None:
    value = table.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(f"[tool.importsafe] {key} must be a string, not {value!r}")
    return None if value is None else rel(value)
