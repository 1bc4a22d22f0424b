"""`importsafe merge`: the sharded reports of `check --shard` as one."""
from __future__ import annotations

import json
import os

import click

from .common import fail, finish, output_options, shard, show


@click.command()
@click.argument("reports", nargs=-1, required=True, type=click.Path(dir_okay=False))
@output_options()
def merge(reports, fmt, output_file, exit_zero, statistics) -> None:
    """Combine the JSON reports of every `check --shard K/N` job (all N of them, each once,
    of the same run) into the unsharded report, in any format; exit status as `check` would
    give, 2 when a shard is missing, duplicated or from another run."""
    try:
        docs = [(path, _read(path)) for path in reports]
        report = shard.merge(docs)
    except shard.ShardError as exc:
        fail(f"cannot merge: {exc}")
    show(report, fmt, os.getcwd(), output_file, statistics)
    finish(report.failed, exit_zero, report)


def _read(path: str):
    try:
        with open(path, "rb") as f:
            data = f.read(256 << 20)
    except OSError as exc:
        raise shard.ShardError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return json.loads(data)
    except (ValueError, RecursionError) as exc:  # UnicodeDecodeError is a ValueError
        raise shard.ShardError(f"{path}: not JSON ({str(exc).splitlines()[0][:120]}); "
                               "merge takes the reports of `check --shard K/N --format json`"
                               ) from None
