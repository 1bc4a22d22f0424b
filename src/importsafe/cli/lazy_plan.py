"""`importsafe lazy-plan`: which imports can be PEP 810 lazy without changing behaviour."""
from __future__ import annotations

import os
import sys

import click

from ..config.settings import ConfigError, read_table
from .common import EXIT_FAIL, EXIT_OK, EXIT_USAGE, Console, Text, api, configure, env_option


@click.command("lazy-plan")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(),
              help="A directory on sys.path (repeatable). Default: inferred from the paths.")
@click.option("--target-version", default=None, metavar="X.Y",
              help="Python version the code runs on: 3.15+ gets `lazy import` statements, "
                   "older versions a `__lazy_modules__` list (read from 3.15 on).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--write", is_flag=True,
              help="Apply the plan (every file or none), after re-simulating it in every mode.")
@click.option("--filter", "filter_path", default=None, type=click.Path(dir_okay=False),
              metavar="FILE", help="Write a module installing a sys.set_lazy_imports_filter "
                                   "built from the plan (no source file is changed).")
@click.option("--diff", "show_diff", is_flag=True, help="Print the plan's edits as a diff.")
@click.option("--importtime", is_flag=True,
              help="Also measure `import` of each top-level package for real, eagerly and with "
                   "the plan (-X importtime in fresh interpreters; PEP 810 emulated before 3.15).")
@click.option("--python", default=None, metavar="PY",
              help="Interpreter for --importtime (default: this one).")
@click.option("-v", "--verbose", is_flag=True, help="List the lazy-safe statements too.")
@click.option("-j", "--jobs", type=int, default=None, help="Parser processes (default: cores).")
@env_option
def lazy_plan(paths, source_roots, target_version, fmt, write, filter_path, show_diff,
              importtime, python, verbose, jobs, env) -> None:
    """Decide, for every module-level import under PATHS that PEP 810 allows to be lazy,
    whether making it lazy changes nothing observable (no import failure, no import-time
    effect lost or moved after a read of what it changes), and plan the change.

    Exit 0 when the plan was computed (and written, with --write / --filter); 1 when
    writing was refused; 2 on a usage error."""
    from ..lazyplan import apply  # loaded only by this command
    from ..lazyplan.table import TableError
    err = Console(stderr=True)
    try:
        config = configure(paths, source_roots, None, target_version, env=env)
        effects = read_table(config.config_file).get("effects") if config.config_file else None
        plan = apply.lazy_plan(config.paths, config.source_roots, config.target_version,
                               jobs, effects, env=config.env)
        if show_diff or importtime:
            plan = apply.materialize(plan)
        if write or filter_path:
            plan = apply.write(plan, filter_path, patches=write)
        timings = _importtime(plan, python) if importtime else None
    except (ConfigError, api.InputError, TableError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", markup=False, highlight=False,
                  soft_wrap=True)
        sys.exit(EXIT_USAGE)
    from ..lazyplan import render
    base = os.getcwd()
    if fmt == "json":
        doc = render.to_dict(plan, base)
        if timings is not None:
            doc["plan"]["importtime"] = [t.as_dict() for t in timings]
        click.echo(render.json_text(doc))
    else:
        console = Console(highlight=False)
        render.render_text(plan, console, base, verbose, show_diff)
        for t in timings or ():
            console.print(Text(t.line()), soft_wrap=True)
    sys.exit(EXIT_FAIL if plan.problem else EXIT_OK)


def _importtime(plan, python):
    """Measure each top-level package eagerly and with the plan, on a copy of the tree."""
    from ..dynamic.importtime import measure_plan
    return measure_plan(plan, python)
