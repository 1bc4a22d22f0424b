"""Command line: arguments -> config -> use case -> reporter -> exit code."""
from __future__ import annotations

import json
import os
import sys

import click
from rich.console import Console
from rich.text import Text

from . import api, fixing
from .config import ConfigError, load_config
from .report import explain as explain_report
from .report import fix as fix_report
from .report import json as json_report
from .report import text as text_report

EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="importsafe")
def cli() -> None:
    """importsafe: find, explain and fix imports that fail in some import orders."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--mode", "modes", default=None, metavar="MODES",
              help="Comma-separated modes: normal, bare (default: normal,bare).")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(),
              help="A directory on sys.path (repeatable). Default: inferred from the paths.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--target-version", default=None, metavar="X.Y",
              help="Python version the code runs on (decides sys.version_info checks).")
@click.option("-j", "--jobs", type=int, default=None, help="Parser processes (default: cores).")
@click.option("--verify", is_flag=True,
              help="Also import everything for real (as `run` does) and report every "
                   "(entry, mode) where the prediction and reality disagree (IS201).")
@click.option("--compat", is_flag=True,
              help="Also report what `importsafe fix` would change for code relying on import "
                   "side effects: modules packages no longer load, and reads of `pkg.sub` "
                   "by code that never imports `pkg.sub` itself.")
def check(paths, modes, source_roots, fmt, target_version, jobs, verify, compat) -> None:
    """Predict statically the first import of every module under PATHS, in every mode."""
    err = Console(stderr=True)
    dynamic = None
    try:
        config = load_config(paths, source_roots, modes, target_version,
                             paths[0] if paths else os.getcwd())
        if not config.paths:
            raise ConfigError("no paths given (pass PATH or set [tool.importsafe] paths)")
        if verify:
            with _Progress(err) as progress:
                report, dynamic = api.verify(
                    config.paths, modes=config.modes, source_roots=config.source_roots,
                    target_version=config.target_version, jobs=jobs, progress=progress)
        else:
            report = api.check(config.paths, modes=config.modes,
                               source_roots=config.source_roots,
                               target_version=config.target_version, jobs=jobs)
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if fmt == "json":
        click.echo(json_report.render(report, base), nl=False)
    else:
        console = Console(highlight=False)
        text_report.render(report, console, base)
        if dynamic is not None:
            _render_comparison(report, console, base)
        if compat:
            outcome = fixing.plan(config.paths, config.modes, config.source_roots,
                                  config.target_version)
            hidden = fixing.hidden_reads(config.paths, config.source_roots,
                                         config.target_version)
            fix_report.render_compat(outcome, hidden, console, base)
    failed = report.failed
    if dynamic is not None:
        # --verify fails on any failure, predicted or real, and on any disagreement
        failed = failed or dynamic.failed or any(d.code == "IS201" for d in report.diagnostics)
    sys.exit(EXIT_FAIL if failed else EXIT_OK)


def _render_comparison(report, console: Console, base: str) -> None:
    """The text renderer lists problems only; --verify also lists the comparison."""
    found = [d for d in report.diagnostics if d.code in api.RUN_RULES]
    for d in found:
        style = "bold red" if d.severity == "error" else "cyan"
        where = f"{json_report._rel(d.file, base)}:{d.line}: " if d.file else ""
        console.print(Text(f"{where}{d.code} {d.name}: {d.message}", style=style), soft_wrap=True)
    n = sum(d.code == "IS201" for d in found)
    console.print(Text(f"verify: {n} disagreement{'s' * (n != 1)} between static and dynamic, "
                       f"{len(found) - n} note{'s' * (len(found) - n != 1)}",
                       style="bold red" if n else "bold green"))


class _Progress:
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


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--mode", "modes", default=None, metavar="MODES",
              help="Comma-separated modes: normal, bare (default: normal,bare).")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(),
              help="A directory on sys.path (repeatable). Default: inferred from the paths.")
@click.option("--python", "python", default=None, metavar="PY",
              help="Interpreter to import with (any CPython 3.8+; default: this one).")
@click.option("-j", "--jobs", type=int, default=None,
              help="Imports running at once (default: cores).")
@click.option("--timeout", type=float, default=api.DEFAULT_TIMEOUT, show_default=True,
              metavar="S", help="Seconds before one import is killed (a `timeout` result).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--no-fork", is_flag=True,
              help="A fresh interpreter per (entry, mode) instead of forked children.")
@click.option("--show-output", is_flag=True,
              help="Show what failing imports printed to stdout/stderr.")
def run(paths, modes, source_roots, python, jobs, timeout, fmt, no_fork, show_output) -> None:
    """Import every module under PATHS for real, first, in a fresh interpreter, in every mode."""
    err = Console(stderr=True)
    try:
        config = load_config(paths, source_roots, modes, None,
                             paths[0] if paths else os.getcwd())
        if not config.paths:
            raise ConfigError("no paths given (pass PATH or set [tool.importsafe] paths)")
        if jobs is not None and jobs < 1:
            raise ConfigError("-j/--jobs must be at least 1")
        if timeout <= 0:
            raise ConfigError("--timeout must be positive")
        with _Progress(err) as progress:
            report = api.run(config.paths, modes=config.modes, python=python, jobs=jobs,
                             timeout=timeout, fork=not no_fork,
                             source_roots=config.source_roots, capture=show_output,
                             progress=progress)
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if fmt == "json":
        doc = json_report.to_dict(report, base)
        if show_output:
            for r, d in zip(report.results, doc["results"]):
                text = report.output(r.entry, r.mode) if r.outcome != "ok" else None
                if text:
                    d["output"] = text
        click.echo(json.dumps(doc, indent=2))
    else:
        console = Console(highlight=False)
        text_report.render(report, console, base)
        stopped = [r.outcome for r in report.results if r.outcome in ("timeout", "crash")]
        if stopped:
            console.print(Text(f"of which did not finish: {stopped.count('timeout')} timeout, "
                               f"{stopped.count('crash')} crash", style="bold red"))
        if show_output:
            for r in report.results:
                text = report.output(r.entry, r.mode) if r.outcome != "ok" else None
                if text:
                    console.print(Text(f"--- output of {r.entry} [{r.mode}] ---", style="dim"))
                    console.print(Text(text.rstrip("\n")), soft_wrap=True)
    sys.exit(EXIT_FAIL if report.failed else EXIT_OK)


@cli.command()
@click.argument("entry")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--mode", type=click.Choice(["normal", "bare"]), default="normal",
              show_default=True)
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(),
              help="A directory on sys.path (repeatable). Default: inferred from the paths.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--target-version", default=None, metavar="X.Y")
def explain(entry, paths, mode, source_roots, fmt, target_version) -> None:
    """Replay `import ENTRY` (a dotted name or a file) in one mode, step by step.

    Shows which modules ran in which order, the import statement that entered each, where
    it stopped, which name was missing and why, and the cycle as one line. PATHS default to
    the configuration's paths, or to ENTRY itself when it is a file."""
    err = Console(stderr=True)
    try:
        config = load_config(paths, source_roots, None, target_version,
                             paths[0] if paths else os.getcwd())
        where = config.paths or ((entry,) if os.path.exists(entry) else ())
        if not where:
            raise ConfigError("give the PATH that holds ENTRY (or set [tool.importsafe] paths)")
        x = api.explain(where, entry, mode, config.source_roots, config.target_version)
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if fmt == "json":
        click.echo(json.dumps(explain_report.to_dict(x, base), indent=2))
    else:
        explain_report.render(x, Console(highlight=False), base)
    sys.exit(EXIT_OK if x.result.outcome == "ok" else EXIT_FAIL)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--mode", "modes", default=None, metavar="MODES",
              help="Comma-separated modes to make pass: normal, bare (default: both).")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path())
@click.option("--diff", "show_diff", is_flag=True, help="Print the edits as a unified diff.")
@click.option("--write", is_flag=True, help="Apply the edits (atomically, verified first).")
@click.option("--target-version", default=None, metavar="X.Y")
def fix(paths, modes, source_roots, show_diff, write, target_version) -> None:
    """Compute the smallest verified import edits that make every first import succeed.

    Edits, in order of preference: defer an import into the functions that use its names;
    move it under `if TYPE_CHECKING:` when only unevaluated annotations use them; both.
    Without --write nothing is changed. Exit 0 when every (entry, mode) passes after the fix.
    """
    err = Console(stderr=True)
    try:
        config = load_config(paths, source_roots, modes, target_version,
                             paths[0] if paths else os.getcwd())
        if not config.paths:
            raise ConfigError("no paths given (pass PATH or set [tool.importsafe] paths)")
        outcome = fixing.fix(config.paths, config.modes, config.source_roots,
                             config.target_version, write=write)
        hidden = fixing.hidden_reads(config.paths, config.source_roots,
                                     config.target_version) if outcome.lost else []
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if show_diff and not write:
        click.echo(fix_report.diff(outcome, base), nl=False)
    else:
        fix_report.render(outcome, Console(highlight=False), base, show_diff=not write,
                          hidden=hidden)
    done = outcome.plan.complete and outcome.problem is None
    sys.exit(EXIT_OK if done else EXIT_FAIL)


def main() -> None:
    cli()
