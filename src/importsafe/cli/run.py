"""`importsafe run`: every first import for real."""
from __future__ import annotations

import json
import os
import sys

import click

from ..config.settings import ConfigError
from ..model import DEFAULT_TIMEOUT
from ..report import json as json_report
from .common import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, FORMATS, RENDERERS, Console, Text, Progress,
                     configure, policy_options, reporter, target_options, api, suppress)


@click.command()
@target_options
@click.option("--python", "python", default=None, metavar="PY",
              help="Interpreter to import with (any CPython 3.8+; default: this one).")
@click.option("-j", "--jobs", type=int, default=None,
              help="Imports running at once (default: cores).")
@click.option("--timeout", type=float, default=DEFAULT_TIMEOUT, show_default=True,
              metavar="S", help="Seconds before one import is killed (a `timeout` result).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True)
@click.option("--no-fork", is_flag=True,
              help="A fresh interpreter per (entry, mode) instead of forked children.")
@click.option("--show-output", is_flag=True,
              help="Show what failing imports printed to stdout/stderr.")
@click.option("--entries", "entries_file", default=None, type=click.Path(dir_okay=False),
              metavar="FILE", help="Run only these entries: dotted names, one per line "
                                   "(each must be an entry under PATHS).")
@click.option("--target-version", default=None, metavar="X.Y",
              help="Python version the code is for: before 3.15 the PEP 810 emulation "
                   "ignores __lazy_modules__, as `check` does.")
@click.option("--importtime", is_flag=True,
              help="Also measure each top-level package (or --entries) with -X importtime, "
                   "eagerly and under PEP 810's global lazy mode: time and modules loaded.")
@policy_options
def run(paths, modes, source_roots, python, jobs, timeout, fmt, no_fork, show_output,
        entries_file, target_version, importtime, skip, select, ignore, baseline) -> None:
    """Import every module under PATHS for real, first, in a fresh interpreter, in every mode.
    Mode `lazy` is PEP 810's global lazy mode: `-X lazy_imports=all` semantics on Python
    3.15+, an emulation for the analysed package before (docs/lazy.md)."""
    err = Console(stderr=True)
    try:
        config = configure(paths, source_roots, modes, target_version, skip=skip,
                            select=select, ignore=ignore, baseline=baseline)
        if jobs is not None and jobs < 1:
            raise ConfigError("-j/--jobs must be at least 1")
        if timeout <= 0:
            raise ConfigError("--timeout must be positive")
        entries = _read_entries(entries_file) if entries_file else None
        with Progress(err) as progress:
            report = api.run(config.paths, modes=config.modes, python=python, jobs=jobs,
                             timeout=timeout, fork=not no_fork,
                             source_roots=config.source_roots, capture=show_output,
                             progress=progress, entries=entries, skip=config.skip,
                             target_version=config.target_version)
        report, _ = suppress.apply_policy(report, config.select, config.ignore,
                                          config.baseline)
        timings = _importtime(config, entries, python) if importtime else ()
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", markup=False, highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if fmt == "json":
        doc = json_report.to_dict(report, base)
        if show_output:
            for r, d in zip(report.results, doc["results"]):
                text = report.output(r.entry, r.mode) if r.outcome != "ok" else None
                if text:
                    d["output"] = text
        if importtime:
            doc["importtime"] = [t.as_dict() for t in timings]
        click.echo(json.dumps(doc, indent=2))
    elif fmt in RENDERERS:
        click.echo(reporter(fmt).render(report, base), nl=False)
    else:
        console = Console(highlight=False)
        reporter("text").render(report, console, base)
        stopped = [r.outcome for r in report.results if r.outcome in ("timeout", "crash")]
        if stopped:
            console.print(Text(f"of which did not finish: {stopped.count('timeout')} timeout, "
                               f"{stopped.count('crash')} crash", style="bold red"))
        for t in timings:
            console.print(Text(t.line()), soft_wrap=True)
        if show_output:
            for r in report.results:
                text = report.output(r.entry, r.mode) if r.outcome != "ok" else None
                if text:
                    console.print(Text(f"--- output of {r.entry} [{r.mode}] ---", style="dim"))
                    console.print(Text(text.rstrip("\n")), soft_wrap=True)
    sys.exit(EXIT_FAIL if report.failed else EXIT_OK)


def _importtime(config, entries, python):
    from ..dynamic.importtime import measure_paths
    return measure_paths(config.paths, config.source_roots, entries, python)


def _read_entries(path: str) -> list[str]:
    """Dotted names, one per line (blank lines and `#` comments ignored)."""
    try:
        with open(path, encoding="utf-8") as f:
            names = [line.split("#", 1)[0].strip() for line in f]
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read --entries file {path}: {exc}") from None
    return [n for n in names if n]
