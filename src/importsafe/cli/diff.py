"""`importsafe diff`: what a change between two git revisions did to first imports."""
from __future__ import annotations

import json
import os
import sys

import click

from ..config.settings import ConfigError
from .common import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, Console, api, opened_output,
                     output_options, show)


@click.command("diff")
@click.argument("base")
@click.argument("head", default="HEAD")
@click.option("--path", "paths", multiple=True, type=click.Path(),
              help="A path to analyse in both revisions (repeatable; default: "
                   "[tool.importsafe] paths of each revision, else the packages at the "
                   "root or under src/).")
@click.option("--mode", "modes", default=None, metavar="MODES",
              help="Comma-separated modes: normal, bare, lazy (default: normal,bare).")
@output_options()
def diff_cmd(base, head, paths, modes, fmt, output_file, exit_zero, statistics) -> None:
    """Compare first imports between two git revisions (HEAD defaults to `HEAD`).

    Reads both revisions from git objects (the work tree is never touched). Exit 1 when
    something got worse: a new failure, a module a package no longer loads that code still
    reads, a name no longer bound that is not a moved import or is still imported from it, a
    module removed. A failure that fails for another reason is not new. In the formats other
    than text and JSON, failures that also fail in BASE are shown as baselined, and what got
    lost as IS401-IS403."""
    from ..policy import diff as gitdiff
    err = Console(stderr=True)
    try:
        root = gitdiff.repo_root(os.getcwd())
        rel = tuple(os.path.relpath(os.path.realpath(p), root) for p in paths)
        if any(r == ".." or r.startswith(".." + os.sep) for r in rel):
            raise ConfigError("--path must be inside the repository")
        result = gitdiff.diff(base, head, rel, modes, root)
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", markup=False, highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    if fmt in ("text", "json") and not statistics:
        text = json.dumps(gitdiff.to_dict(result), indent=2) + "\n" if fmt == "json" else \
            gitdiff.render_text(result)
        with opened_output(output_file) as out:
            out.write(text)
    else:
        show(gitdiff.as_report(result), fmt, root, output_file, statistics)
    sys.exit(EXIT_FAIL if result.worse and not exit_zero else EXIT_OK)
