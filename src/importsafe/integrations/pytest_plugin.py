"""pytest plugin: one test item per (entry, mode) of importsafe's static check.

Enabled by `pytest --importsafe`, by `importsafe = true` in pytest's ini options, or by
`[tool.importsafe] pytest = true` in the project's pyproject.toml; otherwise it only adds its
options. What is checked: `[tool.importsafe] paths` (with `source-roots`, `modes`,
`target-version`), else the packages under `<rootdir>/src`, else the regular packages at the
rootdir (not tests, docs, examples...). `--importsafe-mode` overrides the modes.

The items hang off the session itself, not off a test file: they are appended in
`pytest_collection_modifyitems` (tryfirst, so before `-k`, `-m`, `--deselect` and `--lf`
filter the list), and only when the whole suite runs (pytest given no paths, or only its
rootdir or `testpaths`), when `--importsafe` is on the command line, or when an argument
names them: `pytest importsafe` (all of them) or `pytest "importsafe::pkg.mod[bare]"` (that
one). So `pytest tests/test_x.py::test_y` runs exactly that test, `-k importsafe` or
`-m importsafe` on a whole-suite run selects only them, and `-p no:importsafe` turns the
plugin off. Node ids look like `importsafe::pkg.mod[bare]`.

The check runs once per session, during collection, with the same policy as `importsafe
check` (`skip`, inline `# importsafe: ignore[...]`, `select`/`ignore`, `baseline`): a waived
failure is an xfail, an `unknown` outcome a skip. A failing item's message is the
explanation (`importsafe explain` style): the exception, the cycle as one line, the chain with
file:line and source, and why the name was not bound yet.
"""
from __future__ import annotations

import pytest

PLUGIN_NAME = "importsafe-session"


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("importsafe", "importsafe: first imports in any order")
    group.addoption("--importsafe", action="store_true", default=False,
                    help="Add one test per (module, mode): does `import module` succeed as "
                         "the first import of its package (static check, runs no code).")
    group.addoption("--importsafe-mode", default=None, metavar="MODES",
                    help="Comma-separated modes for --importsafe: normal, bare "
                         "(default: [tool.importsafe] modes, else both).")
    parser.addini("importsafe", type="bool", default=False,
                  help="Enable the importsafe first-import tests (as --importsafe).")


def _pyproject_table(rootdir: str) -> dict:
    """`[tool.importsafe]` of the nearest pyproject.toml that has one, read leniently (a
    broken file is reported only when the plugin is on)."""
    from ..config.settings import ConfigError, table_of, find_config, read_toml
    try:
        file = find_config(rootdir)
        return (table_of(read_toml(file), file) or {}) if file else {}
    except ConfigError:
        return {}


def enabled(config: pytest.Config) -> bool:
    if config.getoption("importsafe", False) or config.getini("importsafe"):
        return True
    value = _pyproject_table(str(config.rootpath)).get("pytest", False)
    if not isinstance(value, bool):
        from ..config.settings import describe
        raise pytest.UsageError(f"importsafe: [tool.importsafe] pytest: expected true or "
                                f"false, got {describe(value)}")
    return value


def pytest_configure(config: pytest.Config) -> None:
    if not enabled(config) or config.pluginmanager.has_plugin(PLUGIN_NAME):
        return
    config.addinivalue_line("markers", "importsafe: a static first-import check by importsafe")
    config.pluginmanager.register(ImportsafePlugin(config, *selection(config)), PLUGIN_NAME)


def _names_ours(arg: str, rootdir) -> bool:
    return (arg == "importsafe" or arg.startswith("importsafe::")) and \
        not (rootdir / arg.partition("::")[0]).exists()


def selection(config: pytest.Config) -> tuple[bool, tuple[str, ...]]:
    """(whether this session collects importsafe's items, the node ids asked for: () for
    all). The arguments naming them are taken out of `config.args`, which pytest would
    otherwise look for as files."""
    ours = [a for a in config.args if _names_ours(a, config.rootpath)]
    if ours:
        config.args[:] = [a for a in config.args if a not in ours]
        return True, () if "importsafe" in ours else tuple(ours)
    if config.getoption("importsafe", False):
        return True, ()
    return whole_suite(config), ()


def whole_suite(config: pytest.Config) -> bool:
    """pytest runs every test: no paths given, or only its rootdir or `testpaths`."""
    if getattr(config, "args_source", None) != pytest.Config.ArgsSource.ARGS:
        return True
    import os
    whole = {os.path.realpath(config.rootpath)} | {
        os.path.realpath(config.rootpath / p) for p in config.getini("testpaths")}
    asked = [os.path.realpath(config.invocation_params.dir / a) for a in config.args]
    return bool(asked) and all("::" not in a and a in whole for a in asked)


class ImportsafeFailure(Exception):
    """An (entry, mode) predicted to fail, or paths that cannot be analysed."""


class ImportsafePlugin:
    """Per-session state: the settings, the report (computed once) and, for failures, the
    loaded program the explanations replay."""

    def __init__(self, config: pytest.Config, collect: bool = True,
                 wanted: tuple[str, ...] = ()):
        from ..config.settings import ConfigError
        from ..config.project import project_config
        self.config = config
        self.collect = collect  # see selection
        self.wanted = wanted
        self.base = str(config.rootpath)
        try:
            self.settings, _ = project_config(self.base, config.getoption("importsafe_mode"))
        except ConfigError as exc:
            raise pytest.UsageError(f"importsafe: {exc}") from None
        self.report = None
        self.error: str | None = None
        self.results: dict = {}
        self._program = None

    # -- hooks -------------------------------------------------------------------------
    def pytest_report_header(self, config: pytest.Config) -> str:
        paths = ", ".join(self._rel(p) for p in self.settings.paths)
        return f"importsafe: {paths} (modes {','.join(self.settings.modes)})"

    @pytest.hookimpl(tryfirst=True)
    def pytest_collection_modifyitems(self, session: pytest.Session, config: pytest.Config,
                                      items: list) -> None:
        if not self.collect:
            return
        collector = ImportsafeCollector.from_parent(session, name="importsafe",
                                                    nodeid="importsafe")
        # as pytest collects a node: collectstart/collectreport/itemcollected hooks run, the
        # terminal counts the items, and an unusable path is a collection error
        items.extend(item for item in session.genitems(collector) if self._wants(item))

    def _wants(self, item) -> bool:
        nodeid = getattr(item, "nodeid", "")
        return not self.wanted or not isinstance(item, ImportsafeItem) or any(
            nodeid == w or nodeid.startswith(w + "[") for w in self.wanted)

    # -- the check, once -----------------------------------------------------------------
    def run_check(self) -> None:
        if self.report is not None or self.error is not None:
            return
        from .. import api
        from ..config.settings import ConfigError
        from ..policy.suppress import apply_policy
        s = self.settings
        try:
            report = api.check(s.paths, modes=s.modes, source_roots=s.source_roots,
                               target_version=s.target_version, skip=s.skip, env=s.env)
            # inline `# importsafe: ignore[...]`, select/ignore and the baseline, as `check`
            self.report, _ = apply_policy(report, s.select, s.ignore, s.baseline)
        except (api.InputError, ConfigError) as exc:
            self.error = str(exc)
            return
        self.results = {(r.entry, r.mode): r for r in self.report.results}

    def explanation(self, result) -> str:
        """The failure message of one (entry, mode): `importsafe explain`, condensed."""
        from .. import api
        from ..static.explain import explain_entry
        x = None
        try:
            if self._program is None:
                s = self.settings
                self._program = api.load(s.paths, s.source_roots, s.target_version,
                                         memo=False, env=s.env).program
            with api.deep_recursion():
                x = explain_entry(self._program, result.entry, result.mode)
        except Exception:  # noqa: BLE001 - the result alone still says what fails
            x = None
        return explanation_text(result, x, self.base, self._command(result))

    def _command(self, result) -> str:
        paths = " ".join(self._rel(p) for p in self.settings.paths)
        return f"importsafe explain {result.entry} {paths} --mode {result.mode}"

    def _rel(self, path: str) -> str:
        from ..report.json import _rel
        return _rel(path, self.base)


class ImportsafeCollector(pytest.Collector):
    """Attached to the session: one item per (entry, mode) of the static check."""

    def collect(self):
        plugin = self.config.pluginmanager.get_plugin(PLUGIN_NAME)
        plugin.run_check()
        if plugin.error is not None:
            raise ImportsafeFailure(f"importsafe: {plugin.error}")
        return [ImportsafeItem.from_parent(self, name=f"{r.entry}[{r.mode}]", entry=r.entry,
                                           mode=r.mode) for r in plugin.report.results]

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, ImportsafeFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)


class ImportsafeItem(pytest.Item):
    def __init__(self, *, entry: str, mode: str, **kw):
        super().__init__(**kw)
        self.entry = entry
        self.mode = mode
        self.add_marker("importsafe")

    @property
    def plugin(self) -> ImportsafePlugin:
        return self.config.pluginmanager.get_plugin(PLUGIN_NAME)

    def runtest(self) -> None:
        plugin = self.plugin
        r = plugin.results[(self.entry, self.mode)]
        if r.outcome == "unknown":
            pytest.skip(f"importsafe cannot decide import {self.entry} [{self.mode}] "
                        f"statically: {r.reason}")
        if r.outcome != "ok" and r.waived is not None:
            pytest.xfail(f"{r.waived} ({r.error.exception if r.error else r.outcome})")
        if r.outcome != "ok":
            raise ImportsafeFailure(plugin.explanation(r))

    def repr_failure(self, excinfo, style=None):
        if isinstance(excinfo.value, ImportsafeFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo, style)

    def reportinfo(self):
        r = self.plugin.results.get((self.entry, self.mode))
        if r is not None and r.error is not None and r.error.chain:
            first = r.error.chain[0]
            return first.file, first.line - 1, f"import {self.entry} [{self.mode}]"
        return self.path, None, f"import {self.entry} [{self.mode}]"


def explanation_text(result, x, base: str | None, command: str | None = None) -> str:
    """Plain text: verdict, cycle, chain with file:line and source, why, where bound; the
    tree's text printable (report/source.py)."""
    from ..report.json import _rel
    from ..report.source import binding_hint, printable, source_line
    e = result.error
    lines = [f"import {result.entry}  [{result.mode}]  ->  "
             + (f"{e.exception}: {e.message}" if e else f"{result.outcome}: {result.reason}")]
    if x is not None and x.cycle:
        lines.append(f"cycle: {x.cycle}")
    if e is not None and e.chain:
        lines.append("chain:")
        for i, f in enumerate(e.chain):
            lines.append(f"    {'  ' * i}{'-> ' if i else ''}{f.module}  {_rel(f.file, base)}:"
                         f"{f.line}  {source_line(f.file, f.line)}")
    if x is not None and x.why:
        lines.append(f"why: {x.why}")
    if e is not None and e.defined_at is not None:
        path, line, said = binding_hint(e.name, *e.defined_at)
        lines.append(f"{said} {_rel(path, base)}:{line}  {source_line(path, line)}")
    if command:
        lines.append(f"full replay: {command}")
    return "\n".join(printable(line) for line in lines)
