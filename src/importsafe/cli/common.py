"""What the commands share: lazily loaded modules, the console, options, configuration,
exit codes and the progress bar."""
from __future__ import annotations

import importlib
import os
import sys
from contextlib import contextmanager
from dataclasses import replace

import click

from ..config.project import default_paths
from ..config.settings import ConfigError, load_config


class _Lazy:
    """The module `name`, imported on first attribute access: a warm `check` of an unchanged
    tree is answered from the run cache without loading the analyser, the dynamic runner or
    rich."""

    def __init__(self, name: str):
        self._name = name

    def __getattr__(self, attr: str):
        return getattr(importlib.import_module(self._name), attr)


api = _Lazy("importsafe.api")
suppress = _Lazy("importsafe.policy.suppress")
shard = _Lazy("importsafe.integrations.shard")


def Console(**kwargs):  # noqa: N802 - rich's class, loaded when first needed
    """rich's console: on a terminal, long lines wrap at its width; elsewhere (a pipe, a CI
    log) a line is never cut, so it stays greppable (the renderers keep lines bounded)."""
    from rich.console import Console as _Console
    console = _Console(**kwargs)
    if not console.is_terminal:
        console.soft_wrap = True
    return console


def Text(*args, **kwargs):  # noqa: N802
    from rich.text import Text as _Text
    return _Text(*args, **kwargs)


def reporter(name: str):
    """A reporter module of importsafe.report (text, sarif, ...), loaded when used."""
    return importlib.import_module(f"importsafe.report.{name}")


EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
FORMATS = ["text", "json", "sarif", "github", "junit", "html"]
RENDERERS = ("sarif", "github", "junit", "html")  # report.X.render(report, base) -> str


def policy_options(fn):
    """--skip, --select, --ignore, --baseline: they override [tool.importsafe]."""
    for option in reversed([
        click.option("--skip", multiple=True, metavar="GLOB",
                     help="Do not check entries matching GLOB (fnmatch on dotted names; "
                          "repeatable)."),
        click.option("--select", multiple=True, metavar="CODES",
                     help="Report only these rule codes or prefixes (comma-separated)."),
        click.option("--ignore", multiple=True, metavar="CODES",
                     help="Do not report these rule codes or prefixes; their failures do "
                          "not fail the run."),
        click.option("--baseline", default=None, type=click.Path(dir_okay=False),
                     metavar="FILE", help="Failures recorded in FILE do not fail the run."),
    ]):
        fn = option(fn)
    return fn


def configure(paths, source_roots, modes, target_version, **policy):
    """The configuration for PATHS (flags over [tool.importsafe] or the --config file);
    without paths anywhere, the project's `src/` or the packages at the root of the current
    directory."""
    config = load_config(paths, source_roots, modes, target_version,
                         paths[0] if paths else os.getcwd(), **policy)
    if not config.paths:
        found = default_paths(os.path.dirname(config.config_file) if config.config_file
                              else os.getcwd())
        if not found:
            raise ConfigError("no paths given, and no src/ or packages here (pass PATH or "
                              "set [tool.importsafe] paths)")
        config = replace(config, paths=found)
    return config


ENV_HELP = ("Analyse as if environment variable NAME were VALUE (repeatable); every variable "
            "not given is unset, the ordinary environment. Adds to [tool.importsafe] env.")


def env_option(command, help: str = ENV_HELP):
    """--env NAME=VALUE (repeatable): over [tool.importsafe] env."""
    return click.option("--env", "env", multiple=True, metavar="NAME=VALUE",
                        help=help)(command)


def run_env_option(command):
    """--env for the commands that import for real: the variables are set for them."""
    return env_option(command, "Set environment variable NAME to VALUE for the imports "
                               "(repeatable). Adds to [tool.importsafe] env.")


def config_option(command):
    return click.option("--config", "config_file", default=None, metavar="FILE",
                        type=click.Path(dir_okay=False),
                        help="Read [tool.importsafe] from FILE instead of the nearest "
                             "pyproject.toml that has it.")(command)


def output_options(formats=None):
    """--format, --output-file, --exit-zero and --statistics (ruff's names)."""
    def add(command):
        for option in reversed((
                click.option("--format", "fmt", type=click.Choice(formats or FORMATS),
                             default="text", show_default=True),
                click.option("-o", "--output-file", default=None, metavar="FILE",
                             type=click.Path(dir_okay=False),
                             help="Write the report to FILE instead of standard output."),
                click.option("--exit-zero", is_flag=True,
                             help="Exit 0 even when first imports fail (2 still means a "
                                  "usage or input error)."),
                click.option("--statistics", is_flag=True,
                             help="Print how many diagnostics each rule has instead of the "
                                  "report (JSON with --format json)."))):
            command = option(command)
        return command
    return add


def fail(exc) -> None:
    """A usage or input error: one line on stderr, exit status 2."""
    Console(stderr=True).print(f"importsafe: error: {exc}", style="red", markup=False,
                               highlight=False, soft_wrap=True)
    sys.exit(EXIT_USAGE)


# diagnostics of the input that fail a run although no first import fails
FAILING_CODES = frozenset({"IS301"})


def finish(failed: bool, exit_zero: bool = False, report=None) -> None:
    """Exit 1 when `failed` (or `report` has an error diagnostic of FAILING_CODES), else 0;
    always 0 with `exit_zero`."""
    if report is not None:
        failed = failed or any(d.code in FAILING_CODES for d in report.diagnostics)
    sys.exit(EXIT_FAIL if failed and not exit_zero else EXIT_OK)


@contextmanager
def opened_output(path: str | None):
    """Standard output, or FILE written atomically (its directory made when missing)."""
    if path is None:
        yield sys.stdout
        return
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        f = open(tmp, "w", encoding="utf-8")
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")
    try:
        with f:
            yield f
        os.replace(tmp, path)
    except OSError as exc:
        fail(f"cannot write {path}: {exc.strerror or exc}")
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def show(report, fmt: str, base: str, output_file: str | None = None,
         statistics: bool = False, after_text=None, **extra) -> None:
    """The report in `fmt` (or its statistics) on standard output or in `output_file`;
    `after_text(console)` adds to the text report; `extra` goes to the renderers that take
    it (sarif: project_file; json: meta)."""
    with opened_output(output_file) as out:
        if statistics:
            stats = reporter("statistics")
            out.write((stats.render_json if fmt == "json" else stats.render)(report, base))
        elif fmt == "json":
            out.write(reporter("json").render(report, base, meta=extra.get("meta")))
        elif fmt == "sarif":
            out.write(reporter("sarif").render(report, base,
                                               project_file=extra.get("project_file")))
        elif fmt in RENDERERS:
            out.write(reporter(fmt).render(report, base))
        else:
            console = Console(highlight=False, **({"file": out} if output_file else {}))
            reporter("text").render(report, console, base)
            if after_text is not None:
                after_text(console)


def target_options(command):
    """PATHS, --mode and --source-root, as `check` and `run` take them."""
    for option in reversed((
            click.argument("paths", nargs=-1, type=click.Path()),
            click.option("--mode", "modes", default=None, metavar="MODES",
                         help="Comma-separated modes: normal, bare, lazy (default: normal,bare)."),
            click.option("--source-root", "source_roots", multiple=True, type=click.Path(),
                         help="A directory on sys.path (repeatable). Default: inferred from "
                              "the paths."))):
        command = option(command)
    return command


class Progress:
    """A rich progress bar on stderr, on a terminal only; yields the runner's callback."""

    def __init__(self, err: Console):
        self.err = err
        self.bar = None

    def __enter__(self):
        if not self.err.is_terminal:
            return None
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn)
        self.bar = Progress(TextColumn("importing"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("[red]{task.fields[failures]} failing"),
                            TimeElapsedColumn(), console=self.err, transient=True)
        self.bar.start()
        task = self.bar.add_task("run", total=None, failures=0)

        def update(done: int, total: int, failures: int) -> None:
            self.bar.update(task, completed=done, total=total, failures=failures)
        return update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False


