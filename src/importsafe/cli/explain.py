"""`importsafe explain`: one first import replayed step by step."""
from __future__ import annotations

import json
import os
import sys

import click

from ..config.settings import ConfigError, load_config
from .common import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, Console, env_option, reporter, api)


@click.command()
@click.argument("entry")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--mode", type=click.Choice(["normal", "bare", "lazy"]), default="normal",
              show_default=True)
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(),
              help="A directory on sys.path (repeatable). Default: inferred from the paths.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--target-version", default=None, metavar="X.Y")
@click.option("--strict", is_flag=True,
              help="Without the ordinary-order rule (see `check --strict`).")
@env_option
def explain(entry, paths, mode, source_roots, fmt, target_version, strict, env) -> None:
    """Replay `import ENTRY` (a dotted name or a file) in one mode, step by step.

    Shows which modules ran in which order, the import statement that entered each, where
    it stopped, which name was missing and why, and the cycle as one line. PATHS default to
    the configuration's paths, or to ENTRY itself when it is a file."""
    err = Console(stderr=True)
    try:
        config = load_config(paths, source_roots, None, target_version,
                             paths[0] if paths else os.getcwd(), strict=strict, env=env)
        where = config.paths or ((entry,) if os.path.exists(entry) else ())
        if not where:
            raise ConfigError("give the PATH that holds ENTRY (or set [tool.importsafe] paths)")
        x = api.explain(where, entry, mode, config.source_roots, config.target_version,
                        config.strict, config.env)
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", markup=False, highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if fmt == "json":
        click.echo(json.dumps(reporter("explain").to_dict(x, base), indent=2))
    else:
        reporter("explain").render(x, Console(highlight=False), base)
    sys.exit(EXIT_OK if x.result.outcome == "ok" else EXIT_FAIL)
