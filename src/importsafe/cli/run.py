"""`importsafe run`: every first import for real."""
from __future__ import annotations

import json
import os

import click

from ..config.settings import ConfigError
from ..model import DEFAULT_TIMEOUT
from ..report import json as json_report
from ..report.source import printable, printable_lines
from .common import (Console, Text, Progress, api, config_option, configure, fail, finish,
                     run_env_option, opened_output, output_options, policy_options, show, suppress,
                     target_options)


@click.command()
@target_options
@output_options()
@config_option
@click.option("--python", "python", default=None, metavar="PY",
              help="Interpreter to import with (any CPython 3.8+; default: this one).")
@click.option("-j", "--jobs", type=int, default=None,
              help="Imports running at once, 1 to 1024 (default: cores).")
@click.option("--timeout", type=float, default=DEFAULT_TIMEOUT, show_default=True,
              metavar="S", help="Seconds before one import is killed (a `timeout` result).")
@click.option("--no-fork", is_flag=True,
              help="A fresh interpreter per (entry, mode) instead of forked children.")
@click.option("--copy", "copy", is_flag=True,
              help="Import a temporary copy of the tree: what the code does to its own "
                   "files happens to the copy (no sandbox: the code runs as you).")
@click.option("--show-output", is_flag=True,
              help="Show what failing imports printed to stdout/stderr.")
@click.option("--entries", "entries_file", default=None, type=click.Path(dir_okay=False),
              metavar="FILE", help="Run only these entries: dotted names, one per line "
                                   "(each must be an entry under PATHS).")
@click.option("--target-version", default=None, metavar="X.Y",
              help="Python version the code is for (3.0 to 3.15): before 3.15 the PEP 810 "
                   "emulation ignores __lazy_modules__, as `check` does.")
@click.option("--importtime", is_flag=True,
              help="Also measure each top-level package (or --entries) with -X importtime, "
                   "eagerly and under PEP 810's global lazy mode: time and modules loaded.")
@run_env_option
@policy_options
def run(paths, modes, source_roots, fmt, output_file, exit_zero, statistics, config_file,
        python, jobs, timeout, no_fork, copy, show_output, entries_file, target_version,
        importtime, env, skip, select, ignore, baseline) -> None:
    """Import every module under PATHS for real, first, in a fresh interpreter, in every mode:
    this runs the code (see --copy).
    Mode `lazy` is PEP 810's global lazy mode: `-X lazy_imports=all` semantics on Python
    3.15+, an emulation for the analysed package before (docs/lazy.md)."""
    err = Console(stderr=True)
    try:
        config = configure(paths, source_roots, modes, target_version, skip=skip,
                           select=select, ignore=ignore, baseline=baseline,
                           config_file=config_file, jobs=jobs, env=env)
        if not timeout > 0:
            raise ConfigError("--timeout must be positive")
        entries = _read_entries(entries_file) if entries_file else None
        with Progress(err) as progress:
            report = api.run(config.paths, modes=config.modes, python=python, jobs=config.jobs,
                             timeout=timeout, fork=not no_fork,
                             source_roots=config.source_roots, capture=show_output,
                             progress=progress, entries=entries, skip=config.skip,
                             target_version=config.target_version, copy=copy, env=config.env)
        report, _ = suppress.apply_policy(report, config.select, config.ignore,
                                          config.baseline,
                                          scanned=suppress.python_files(config.paths))
        timings = _importtime(config, entries, python) if importtime else ()
    except (ConfigError, api.InputError) as exc:
        fail(exc)
    base = os.getcwd()
    if fmt == "json" and (show_output or timings) and not statistics:
        doc = json_report.to_dict(report, base)
        for r, d in zip(report.results, doc["results"]):
            text = report.output(r.entry, r.mode) if r.outcome != "ok" and show_output else None
            if text:
                d["output"] = text
        if timings:
            doc["importtime"] = [t.as_dict() for t in timings]
        with opened_output(output_file) as out:
            out.write(json.dumps(doc, indent=2) + "\n")
    else:
        show(report, fmt, base, output_file, statistics,
             lambda console: _after_text(report, console, show_output, timings),
             project_file=config.config_file)
    finish(report.failed, exit_zero, report)


def _after_text(report, console, show_output: bool, timings=()) -> None:
    stopped = [r.outcome for r in report.results if r.outcome in ("timeout", "crash")]
    if stopped:
        console.print(Text(f"of which did not finish: {stopped.count('timeout')} timeout, "
                           f"{stopped.count('crash')} crash", style="bold red"))
    for t in timings:
        console.print(Text(t.line()))
    if show_output:
        for r in report.results:
            text = report.output(r.entry, r.mode) if r.outcome != "ok" else None
            if text:
                console.print(Text(f"--- output of {printable(r.entry)} [{r.mode}] ---",
                                   style="dim"))
                console.print(Text(printable_lines(text.rstrip("\n"))))


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
