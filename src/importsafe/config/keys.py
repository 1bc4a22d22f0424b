"""Every `[tool.importsafe]` key: its TOML type, default and meaning. The one table the
configuration is validated against and the configuration reference is generated from."""
from __future__ import annotations

from dataclasses import dataclass

# what a value must be: `Key.kind` names one of these, settings.validate checks it
KINDS = {
    "paths": "a list of strings",
    "modes": 'a list of modes, like ["normal", "bare"]',
    "version": 'a Python version 3.0-3.15 as a string, like "3.11"',
    "bool": "true or false",
    "file": "a string (a file name)",
    "globs": "a list of strings",
    "codes": 'a list of rule codes or prefixes, like ["IS101", "IS2"]',
    "jobs": "an integer from 1 to 1024",
    "table": "a table (its entries are checked where they are used)",
    "env": 'a table of environment variables to strings, like {DEBUG = "1"}',
}


@dataclass(frozen=True, slots=True)
class Key:
    name: str  # as written in pyproject.toml
    type: str  # "string", "list of strings", "boolean", ...: what the value must be
    default: str  # as the reference shows it
    help: str  # one or two sentences for the reference
    flag: str | None = None  # the command-line flag that overrides it, if any
    kind: str = "globs"  # how the value is checked (KINDS)

    @property
    def expected(self) -> str:
        return KINDS[self.kind]


KEYS: tuple[Key, ...] = (
    Key("paths", "list of strings", "the project's `src/` packages, else the packages at its root",
        "Packages, modules or source roots to check, relative to the `pyproject.toml`.", "PATH",
        "paths"),
    Key("source-roots", "list of strings", "inferred from the paths",
        "Directories that are on `sys.path` (where top-level packages live).", "--source-root",
        "paths"),
    Key("modes", "list of strings", '["normal", "bare"]',
        "Modes of first import to check: normal, bare, lazy.", "--mode", "modes"),
    Key("target-version", "string", "the lower bound of `[project] requires-python`, else 3.11",
        "The Python version the code runs on, as X.Y (3.0 to 3.15): decides `sys.version_info` "
        "tests and whether `__lazy_modules__` counts (3.15+).", "--target-version", "version"),
    Key("jobs", "integer", "the number of cores", "Processes that parse and simulate at "
        "once (1 to 1024).", "-j/--jobs", "jobs"),
    Key("pytest", "boolean", "false", "Add one pytest item per (module, mode) to every pytest "
        "run of the whole suite (the pytest plugin).", "--importsafe", "bool"),
    Key("baseline", "string", "none", "A baseline file: failures recorded in it do not fail "
        "the run.", "--baseline", "file"),
    Key("skip", "list of strings", "[]", "fnmatch patterns of dotted module names that are not "
        "checked as entries.", "--skip", "globs"),
    Key("select", "list of strings", "[] (every rule)", "Rule codes or prefixes to report.",
        "--select", "codes"),
    Key("ignore", "list of strings", "[]", "Rule codes or prefixes not to report; their "
        "failures do not fail the run.", "--ignore", "codes"),
    Key("strict", "boolean", "false", "Do not apply the ordinary-order rule: a name read from a "
        "finished module that may bind names dynamically stays `unknown` instead of taken as "
        "bound (docs/modelled.md).", "--strict", "bool"),
    Key("env", "table of strings", "{} (every variable unset)", "Environment variables the "
        "analysed code runs with, as the static analysis reads them: tests on "
        "`os.environ` / `os.getenv` are decided with these values, every other variable "
        "unset (the ordinary environment); `--verify` and `run` set them too. `--env` adds to "
        "them.", "--env", "env"),
    Key("effects", "table", "{}", "Import-time effects of functions outside the analysed code, "
        "for `lazy-plan`: dotted name -> a kind (registry, patch, import-system, process, "
        "output, none) or a table {kind, state, keyed, mutates}; over the shipped table "
        "(docs/commands/lazy-plan.md).", None, "table"),
)

BY_NAME = {k.name: k for k in KEYS}
KNOWN_KEYS = frozenset(BY_NAME)
