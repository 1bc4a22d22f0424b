"""`importsafe gen-test`: a standalone pytest file of real first imports."""
from __future__ import annotations

import os
import sys

import click

from ..config.settings import ConfigError, load_config
from .common import (EXIT_USAGE, Console, api)


@click.command("gen-test")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("-o", "--output", default=None, metavar="FILE",
              help="Where to write (default: tests/test_importsafe_first_imports.py).")
@click.option("--mode", "modes", default=None, metavar="MODES",
              help="Comma-separated modes: normal, bare, lazy (default: normal,bare).")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path())
@click.option("--force", is_flag=True, help="Overwrite a file gen-test did not write.")
def gen_test(paths, output, modes, source_roots, force) -> None:
    """Write a standalone pytest file importing every module under PATHS first, for real.

    One subprocess per (module, mode); needs only the stdlib and pytest to run."""
    from ..integrations import gentest
    err = Console(stderr=True)
    try:
        config = load_config(paths, source_roots, modes, None,
                             paths[0] if paths else os.getcwd())
        if not config.paths:
            raise ConfigError("no paths given (pass PATH or set [tool.importsafe] paths)")
        args = [*paths, *(["-o", output] if output else []),
                *(["--mode", modes] if modes else []),
                *(a for r in source_roots for a in ("--source-root", r))]
        path, n = gentest.generate(config.paths, output or gentest.DEFAULT_OUTPUT,
                                   config.modes, config.source_roots, force=force,
                                   command=" ".join(["importsafe gen-test", *args]),
                                   skip=config.skip)
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", markup=False, highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    click.echo(f"wrote {path}: {n} (module, mode) cases")
