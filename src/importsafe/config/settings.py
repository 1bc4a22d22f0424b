"""`[tool.importsafe]` in pyproject.toml + command-line flags -> a frozen Config.

The configuration file is the nearest `pyproject.toml` upwards that has a `[tool.importsafe]`
table (one without it is passed over, as ruff does), or the file `--config` names. Every
key's value is checked against config/keys.py; a wrong one is a one-line ConfigError naming
the file, the key and what it must be (exit status 2), never a traceback.
"""
from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass, field

from ..model import ALL_MODES, MODES
from .keys import BY_NAME, KNOWN_KEYS

MAX_CONFIG = 4 << 20  # bytes: a larger "pyproject.toml" is not read
NEWEST_MINOR = 15  # Python 3.15: the newest version a target may name
MAX_JOBS = 1024


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
    jobs: int | None = None  # processes; None: one per core
    pytest: bool = False  # the pytest plugin is on for every run
    strict: bool = False  # the ordinary-order rule is off (docs/modelled.md)
    # ((name, value), ...) sorted: environment variables the analysed code runs with
    env: tuple[tuple[str, str], ...] = ()


# --- finding and reading files ----------------------------------------------------------------

def _upwards(start: str):
    d = os.path.abspath(start if os.path.isdir(start) else os.path.dirname(start) or ".")
    while True:
        yield os.path.join(d, "pyproject.toml")
        parent = os.path.dirname(d)
        if parent == d:
            return
        d = parent


def find_pyproject(start: str) -> str | None:
    """The nearest pyproject.toml at or above `start` (the project's own file)."""
    return next((c for c in _upwards(start) if os.path.isfile(c)), None)


def find_config(start: str) -> str | None:
    """The nearest pyproject.toml at or above `start` that has a `[tool.importsafe]` table.
    A file that cannot be read is passed over unless it looks like it has the table."""
    for candidate in _upwards(start):
        if not os.path.isfile(candidate):
            continue
        try:
            data = read_toml(candidate)
        except ConfigError:
            if _mentions_table(candidate):
                raise
            continue
        if table_of(data, candidate) is not None:
            return candidate
    return None


def _mentions_table(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return b"tool.importsafe" in f.read(MAX_CONFIG)
    except OSError:
        return False


def read_toml(path: str) -> dict:
    """A TOML file as a dict; ConfigError (with the file name) when it is no regular file,
    cannot be read, is not UTF-8 or is not TOML."""
    import tomllib  # only when there is a file to read: it slows every start
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(f"{path}: not a regular file")
        if st.st_size > MAX_CONFIG:
            raise ConfigError(f"{path}: larger than {MAX_CONFIG >> 20} MB, not read")
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})"
                          ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None


def table_of(data: dict, path: str) -> dict | None:
    tool = data.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: [tool] must be a table, got {describe(tool)}")
    table = tool.get("importsafe")
    if table is not None and not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.importsafe] must be a table, got {describe(table)}")
    return table


def read_table(path: str, required: bool = False) -> dict:
    """The `[tool.importsafe]` table of a file ({} when it has none, an error when it is
    `required`), every key checked."""
    table = table_of(read_toml(path), path)
    if table is None and required:
        raise ConfigError(f"{path}: no [tool.importsafe] table")
    table = table or {}
    unknown = sorted(set(table) - KNOWN_KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown key(s) in [tool.importsafe]: {', '.join(unknown)}"
                          f" (known: {', '.join(sorted(KNOWN_KEYS))})")
    for key, value in table.items():
        validate(key, value, path)
    return table


# --- values ----------------------------------------------------------------------------------

_TOML_TYPE = ((bool, "boolean"), (int, "integer"), (float, "float"), (str, "string"),
              (list, "array"), (dict, "table"))


def describe(value) -> str:
    """A TOML value as an error message shows it: `string "src"`, `integer 3`."""
    kind = next((name for t, name in _TOML_TYPE if isinstance(value, t)), type(value).__name__)
    if isinstance(value, bool):
        return f"boolean {str(value).lower()}"
    shown = repr(value) if not isinstance(value, str) else '"' + value.replace('"', '\\"') + '"'
    return f"{kind} {shown if len(shown) <= 60 else shown[:57] + '...'}"


def _strings(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def validate(key: str, value, path: str):
    """The value of one key, checked; ConfigError: `FILE: [tool.importsafe] KEY: expected
    ..., got ...`."""
    spec = BY_NAME[key]

    def bad(detail: str = ""):
        return ConfigError(f"{path}: [tool.importsafe] {key}: expected {spec.expected}, got "
                           f"{describe(value)}{detail}")
    kind = spec.kind
    if kind == "bool":
        if not isinstance(value, bool):
            raise bad()
    elif kind in ("file", "version"):
        if not isinstance(value, str) or not value.strip():
            raise bad()
        if kind == "version" and version_of(value) is None:
            raise bad()
    elif kind == "jobs":
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_JOBS:
            raise bad()
    elif kind == "table":
        if not isinstance(value, dict):
            raise bad()
    elif kind == "env":
        if not isinstance(value, dict):
            raise bad()
        for name, text in value.items():
            if not valid_env_name(name) or not isinstance(text, str) or "\0" in text:
                raise bad(f" (entry {name!r} = {describe(text)})")
    else:
        if not _strings(value) or any(not v.strip() for v in value):
            raise bad()
        if kind == "modes":
            wrong = [m for m in value if m not in ALL_MODES]
            if wrong or not value:
                raise bad(f" (unknown: {', '.join(map(repr, wrong))})" if wrong else " (empty)")
        if kind == "codes":
            wrong = unknown_codes(value)
            if wrong:
                raise bad(f" (no such rule: {', '.join(wrong)})")
    return value


def version_of(text: str) -> tuple[int, int] | None:
    """(3, X) for "3.X" with X from 0 to NEWEST_MINOR; None for anything else."""
    m = re.fullmatch(r"\s*3\.(\d{1,2})\s*", str(text))
    if m is None or int(m.group(1)) > NEWEST_MINOR:
        return None
    return 3, int(m.group(1))


def parse_version(text: str, what: str = "--target-version") -> tuple[int, int]:
    found = version_of(text)
    if found is None:
        raise ConfigError(f"{what}: expected a Python version 3.0-3.{NEWEST_MINOR} like 3.11, "
                          f"not {str(text)!r}")
    return found


def valid_env_name(name) -> bool:
    """A name an environment variable can have: not empty, no `=`, no NUL."""
    return isinstance(name, str) and bool(name) and "=" not in name and "\0" not in name


def parse_env(flags, table=None) -> tuple[tuple[str, str], ...]:
    """`--env NAME=VALUE` flags over the `env` table: ((name, value), ...) sorted."""
    found = dict(table or {})
    for flag in flags or ():
        name, eq, value = flag.partition("=")
        if not eq or not valid_env_name(name) or "\0" in value:
            raise ConfigError(f"--env: expected NAME=VALUE (a variable name without '='), "
                              f"not {flag!r}")
        found[name] = value
    return tuple(sorted(found.items()))


def parse_jobs(value: int | None) -> int | None:
    if value is not None and not 1 <= value <= MAX_JOBS:
        raise ConfigError(f"-j/--jobs: expected a number of processes from 1 to {MAX_JOBS}, "
                          f"not {value}")
    return value


def parse_modes(text: str | list) -> tuple[str, ...]:
    items = text.split(",") if isinstance(text, str) else list(text)
    modes = tuple(m.strip() for m in items if m.strip())
    bad = [m for m in modes if m not in ALL_MODES]
    if bad or not modes:
        raise ConfigError(f"unknown mode {', '.join(bad) or '(none)'}; choose from "
                          f"{', '.join(ALL_MODES)}")
    return tuple(dict.fromkeys(modes))


def requires_python_floor(spec) -> str | None:
    """The oldest Python 3 a `requires-python` specifier admits, as "3.X" (None if it names
    no lower bound we can read): ">=3.9,<4" -> "3.9", "~=3.10" -> "3.10", ">=2.7" -> "3.0";
    a bound newer than importsafe knows is read as the newest it knows."""
    if not isinstance(spec, str):
        return None
    floor: tuple[int, int] | None = None
    for clause in spec.split(","):
        m = re.match(r"\s*(>=|~=|===|==|>)\s*(\d+)\.(\d+)", clause)
        if m:
            version = (int(m.group(2)), int(m.group(3)))
            floor = version if floor is None else max(floor, version)
    if floor is None:
        return None
    floor = max(floor, (3, 0)) if floor[0] >= 2 else (3, 0)
    floor = min(floor, (3, NEWEST_MINOR))
    return f"{floor[0]}.{floor[1]}"


def parse_list(value, what: str) -> tuple[str, ...]:
    """A list of strings, or one string of comma-separated items (the flags' form)."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, (list, tuple)) or not all(isinstance(i, str) for i in items):
        raise ConfigError(f"{what} must be a list of strings, not {value!r}")
    return tuple(dict.fromkeys(p.strip() for i in items for p in i.split(",") if p.strip()))


def unknown_codes(codes) -> list[str]:
    from ..rules import RULES
    return [c for c in codes if not any(code.startswith(c.strip().upper()) for code in RULES)]


def parse_codes(value, what: str) -> tuple[str, ...]:
    """Rule codes, or prefixes of them such as IS1 (every IS1xx)."""
    codes = tuple(c.upper() for c in parse_list(value, what))
    bad = unknown_codes(codes)
    if bad:
        raise ConfigError(f"{what}: unknown rule code(s) {', '.join(bad)} (`importsafe rule` lists them)")
    return codes


# --- the configuration -------------------------------------------------------------------------

def load_config(paths, source_roots, modes, target_version, start: str, skip=(), select=(),
                ignore=(), baseline: str | None = None, config_file: str | None = None,
                jobs: int | None = None, strict: bool = False, env=()) -> Config:
    """Flags override the file; file paths are relative to the file's directory. The file
    is `config_file` when given (--config), else the nearest one with our table."""
    if config_file is not None:
        file = os.path.abspath(config_file)
        table = read_table(file, required=True)
    else:
        file = find_config(start)
        table = read_table(file) if file else {}
    base = os.path.dirname(file) if file else os.getcwd()
    rel = (lambda p: os.path.normpath(os.path.join(base, p)))
    version = parse_version(target_version) if target_version else (
        version_of(table["target-version"]) if "target-version" in table else
        parse_version(_requires_python(start, file) or "3.11", "requires-python"))
    return Config(
        paths=tuple(paths) or tuple(rel(p) for p in table.get("paths", ())),
        source_roots=tuple(source_roots) or tuple(rel(p) for p in table.get("source-roots", ())),
        modes=parse_modes(modes) if modes else parse_modes(table.get("modes", list(MODES))),
        target_version=version,
        config_file=file,
        baseline=baseline or (rel(table["baseline"]) if "baseline" in table else None),
        skip=parse_list(skip or table.get("skip", ()), "skip"),
        select=parse_codes(select or table.get("select", ()), "select"),
        ignore=parse_codes(ignore or table.get("ignore", ()), "ignore"),
        jobs=parse_jobs(jobs) if jobs is not None else table.get("jobs"),
        pytest=table.get("pytest", False),
        strict=strict or table.get("strict", False),
        env=parse_env(env, table.get("env")),
    )


def _requires_python(start: str, config_file: str | None) -> str | None:
    """The floor of `requires-python` in the project's own pyproject.toml (the nearest one),
    else in the configuration file; read leniently: it is not importsafe's table."""
    for file in dict.fromkeys(f for f in (find_pyproject(start), config_file) if f):
        try:
            project = read_toml(file).get("project", {})
        except ConfigError:
            continue
        floor = requires_python_floor(project.get("requires-python")) \
            if isinstance(project, dict) else None
        if floor is not None:
            return floor
    return None
