"""Command line: arguments -> config -> use case -> reporter -> exit code. One module per
command; this one holds the group and the console script."""
from __future__ import annotations

import gc
import os
import sys

import click

from . import check as _check_cmd, diff as _diff_cmd, explain as _explain_cmd, fix as _fix_cmd
from . import gentest as _gentest_cmd, lazy_plan as _lazy_plan_cmd, merge as _merge_cmd
from . import rule as _rule_cmd, run as _run_cmd


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(package_name="importsafe")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """importsafe: find, explain and fix imports that fail in some import orders.

    Without a command: `importsafe check` on what the configuration names (or the project's
    src/ layout, or the packages at its root)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(_check_cmd.check)


for _command in (_check_cmd.check, _run_cmd.run, _explain_cmd.explain, _fix_cmd.fix,
                 _gentest_cmd.gen_test, _diff_cmd.diff_cmd, _merge_cmd.merge,
                 _lazy_plan_cmd.lazy_plan, _rule_cmd.rule):
    cli.add_command(_command)


def main() -> None:
    """The console script. One command per process, so it ends as soon as its output is
    flushed: the cyclic collector is off throughout (the facts and results are acyclic; a
    collection over them costs tens of milliseconds) and the interpreter's teardown of that
    heap, a tenth of a second on large packages, is skipped (nothing importsafe holds needs
    finalising: files are written atomically and closed by then, children reaped)."""
    gc.disable()
    kept: list = []  # what a check loaded, never freed: see api.check's `keep`
    try:
        cli(obj=kept)
        code = 0
    except SystemExit as exc:
        code = exc.code
    if code is not None and not isinstance(code, int):
        print(code, file=sys.stderr)  # what the interpreter does with sys.exit("message")
        code = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed pipe: nothing more can be said
        code = code or 1
    os._exit(code or 0)
