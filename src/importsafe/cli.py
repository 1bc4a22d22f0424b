"""Command line: arguments -> config -> use case -> reporter -> exit code."""
from __future__ import annotations

import os
import sys

import click
from rich.console import Console

from . import api
from .config import ConfigError, load_config
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
def check(paths, modes, source_roots, fmt, target_version, jobs) -> None:
    """Predict statically the first import of every module under PATHS, in every mode."""
    err = Console(stderr=True)
    try:
        config = load_config(paths, source_roots, modes, target_version,
                             paths[0] if paths else os.getcwd())
        if not config.paths:
            raise ConfigError("no paths given (pass PATH or set [tool.importsafe] paths)")
        report = api.check(config.paths, modes=config.modes, source_roots=config.source_roots,
                           target_version=config.target_version, jobs=jobs)
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if fmt == "json":
        click.echo(json_report.render(report, base), nl=False)
    else:
        text_report.render(report, Console(highlight=False), base)
    sys.exit(EXIT_FAIL if report.failed else EXIT_OK)


def main() -> None:
    cli()
