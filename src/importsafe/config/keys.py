"""Every `[tool.importsafe]` key: its TOML type, default and meaning. The one table the
configuration is validated against and the configuration reference is generated from."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Key:
    name: str  # as written in pyproject.toml
    type: str  # "string", "list of strings", "boolean", ...: what the value must be
    default: str  # as the reference shows it
    help: str  # one or two sentences for the reference
    flag: str | None = None  # the command-line flag that overrides it, if any


KEYS: tuple[Key, ...] = (
    Key("paths", "list of strings", "the project's src/ packages, else the packages at its root",
        "Packages, modules or source roots to check, relative to the pyproject.toml.", "PATH"),
    Key("source-roots", "list of strings", "inferred from the paths",
        "Directories that are on sys.path (where top-level packages live).", "--source-root"),
    Key("modes", "list of strings", '["normal", "bare"]',
        "Modes of first import to check: normal, bare, lazy.", "--mode"),
    Key("target-version", "string", "the lower bound of [project] requires-python, else 3.11",
        "The Python version the code runs on, as X.Y: decides sys.version_info tests and "
        "whether __lazy_modules__ counts (3.15+).", "--target-version"),
    Key("pytest", "boolean", "false", "Add one pytest item per (module, mode) to every pytest "
        "run (the pytest plugin).", "--importsafe"),
    Key("baseline", "string", "none", "A baseline file: failures recorded in it do not fail "
        "the run.", "--baseline"),
    Key("skip", "list of strings", "[]", "fnmatch patterns of dotted module names that are not "
        "checked as entries.", "--skip"),
    Key("select", "list of strings", "[] (every rule)", "Rule codes or prefixes to report.",
        "--select"),
    Key("ignore", "list of strings", "[]", "Rule codes or prefixes not to report; their "
        "failures do not fail the run.", "--ignore"),
    Key("effects", "table", "{}", "Import-time effects of functions outside the analysed code, "
        "for `lazy-plan`: dotted name -> a kind (registry, patch, import-system, process, "
        "output, none) or a table {kind, state, keyed, mutates}; over the shipped table "
        "(docs/commands/lazy-plan.md)."),
)

KNOWN_KEYS = frozenset(k.name for k in KEYS)
