"""`importsafe fix`: the smallest verified import edits."""
from __future__ import annotations

import os
import sys

import click

from ..config.settings import ConfigError
from .common import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, Console, configure, env_option, reporter,
                     api)


@click.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--mode", "modes", default=None, metavar="MODES",
              help="Comma-separated modes to make pass: normal, bare, lazy (default: normal,bare).")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path())
@click.option("--diff", "show_diff", is_flag=True,
              help="Print the edits as a unified diff (writes nothing unless --write).")
@click.option("--write", is_flag=True, help="Apply the edits (all or none, verified first).")
@click.option("--unsafe-fixes", "unsafe", is_flag=True,
              help="Also apply edits that break code relying on what they move.")
@click.option("--include-tests", is_flag=True, help="Also edit test modules.")
@click.option("--target-version", default=None, metavar="X.Y")
@env_option
def fix(paths, modes, source_roots, show_diff, write, unsafe, include_tests,
        target_version, env) -> None:
    """Compute the smallest verified import edits that make every first import succeed.

    Edits, in order of preference: defer an import into the functions that use its names;
    move it under `if TYPE_CHECKING:` when only unevaluated annotations use them; both.
    Without --write nothing is changed. Exit 0 when every (entry, mode) passes after the fix.
    """
    err = Console(stderr=True)
    try:
        config = configure(paths, source_roots, modes, target_version, env=env)
        from ..fix import apply as fixing  # libcst: loaded only by the commands that rewrite code
        outcome = fixing.fix(config.paths, config.modes, config.source_roots,
                             config.target_version, write=write, include_tests=include_tests,
                             unsafe=unsafe, env=config.env)
        gone = {m for _, modules in outcome.lost for m in modules}
        shown = not show_diff or write  # the report, which names the reads the fix breaks
        hidden = fixing.hidden_reads(config.paths, config.source_roots,
                                     config.target_version, of=gone, env=config.env) \
            if gone and shown else []
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", markup=False, highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if show_diff:
        click.echo(reporter("fix").diff(outcome, base), nl=False)
    if shown:
        reporter("fix").render(outcome, Console(highlight=False), base,
                               show_diff=not write and not show_diff, hidden=hidden)
    done = outcome.plan.complete and outcome.problem is None
    sys.exit(EXIT_OK if done else EXIT_FAIL)
