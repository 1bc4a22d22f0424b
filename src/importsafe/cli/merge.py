"""`importsafe merge`: the sharded reports of `check --shard` as one."""
from __future__ import annotations

import json
import os
import sys

import click

from ..report import json as json_report
from .common import (EXIT_FAIL, EXIT_OK, EXIT_USAGE, Console, reporter, shard)


@click.command()
@click.argument("reports", nargs=-1, required=True, type=click.Path(exists=True,
                                                                    dir_okay=False))
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def merge(reports, fmt) -> None:
    """Combine the JSON reports of `check --shard K/N` jobs into the unsharded report; exit
    status as `check` would give."""
    try:
        docs = []
        for path in reports:
            with open(path, encoding="utf-8") as f:
                docs.append(json.load(f))
        report = shard.merge(docs)
    except (OSError, ValueError, KeyError) as exc:
        Console(stderr=True).print(f"importsafe: error: cannot merge: {exc}", style="red", markup=False,
                                   highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    if fmt == "json":
        click.echo(json_report.render(report, os.getcwd()), nl=False)
    else:
        reporter("text").render(report, Console(highlight=False), os.getcwd())
    sys.exit(EXIT_FAIL if report.failed else EXIT_OK)
