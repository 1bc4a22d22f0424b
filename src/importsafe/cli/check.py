"""`importsafe check`: the static prediction of every first import."""
from __future__ import annotations

import os
import sys

import click

from ..config.settings import ConfigError
from ..report import json as json_report
from ..report.source import printable
from ..store.runs import default_dir as default_cache_dir
from .common import (Console, Text, Progress, api, config_option, configure, fail, finish,
                     env_option, output_options, policy_options, reporter, shard, show,
                     suppress, target_options)


@click.command()
@target_options
@output_options()
@config_option
@click.option("--target-version", default=None, metavar="X.Y",
              help="Python version the code runs on, 3.0 to 3.15 (decides sys.version_info "
                   "checks).")
@click.option("-j", "--jobs", type=int, default=None,
              help="Parser processes, 1 to 1024 (default: cores).")
@click.option("--verify", is_flag=True,
              help="Also import everything for real (as `run` does) and report every "
                   "(entry, mode) where the prediction and reality disagree (IS201).")
@click.option("--strict", is_flag=True,
              help="Do not take a name as bound because a finished module may bind it "
                   "dynamically (the ordinary-order rule): say unknown instead.")
@click.option("--compat", is_flag=True,
              help="Also report what `importsafe fix` would change for code relying on import "
                   "side effects: modules packages no longer load, and reads of `pkg.sub` "
                   "by code that never imports `pkg.sub` itself.")
@env_option
@policy_options
@click.option("--write-baseline", default=None, type=click.Path(dir_okay=False),
              metavar="FILE", help="Record today's failures in FILE (then they are baselined).")
@click.option("--shard", "shard_spec", default=None, metavar="K/N",
              help="Check only the K-th of N slices of the (entry, mode) matrix (for CI "
                   "matrix jobs; combine the JSON reports with `importsafe merge`).")
@click.option("--no-cache", is_flag=True, help="Parse every file, ignoring cached facts.")
@click.option("--cache-dir", default=None, metavar="DIR",
              help="Where facts are cached by file content (default: the user cache dir).")
def check(paths, modes, source_roots, fmt, output_file, exit_zero, statistics, config_file,
          target_version, jobs, verify, strict, compat, env, skip, select, ignore, baseline,
          write_baseline, shard_spec, no_cache, cache_dir) -> None:
    """Predict statically the first import of every module under PATHS, in every mode."""
    dynamic = None
    meta = None
    try:
        config = configure(paths, source_roots, modes, target_version, skip=skip,
                           select=select, ignore=ignore, baseline=baseline,
                           config_file=config_file, jobs=jobs, strict=strict, env=env)
        shard_range = shard.parse_shard(shard_spec) if shard_spec else None
        if verify:
            with Progress(Console(stderr=True)) as progress:
                report, dynamic = api.verify(
                    config.paths, modes=config.modes, source_roots=config.source_roots,
                    target_version=config.target_version, jobs=config.jobs,
                    progress=progress, skip=config.skip, strict=config.strict, env=config.env)
        else:
            report = _check(config, config.jobs,
                            None if no_cache else cache_dir or default_cache_dir(), shard_range)
        if shard_range is not None:
            meta = {"shard": shard.identity(shard_range, config)}
        report, written = suppress.apply_policy(report, config.select, config.ignore,
                                                config.baseline, write_baseline,
                                                scanned=suppress.python_files(config.paths))
        if dynamic is not None:
            dynamic, _ = suppress.apply_policy(dynamic, config.select, config.ignore,
                                               write_baseline or config.baseline)
        if written is not None:
            Console(stderr=True).print(f"importsafe: wrote {written} failure(s) to baseline "
                                       f"{write_baseline}", highlight=False, soft_wrap=True)
    except (ConfigError, api.InputError, shard.ShardError) as exc:
        fail(exc)
    base = os.getcwd()

    def after_text(console) -> None:
        if dynamic is not None:
            _render_comparison(report, console, base)
        if compat:
            from ..fix import apply as fixing  # libcst: loaded only by the commands that rewrite code
            outcome = fixing.plan(config.paths, config.modes, config.source_roots,
                                  config.target_version, env=config.env)
            hidden = fixing.hidden_reads(config.paths, config.source_roots,
                                         config.target_version, env=config.env)
            reporter("fix").render_compat(outcome, hidden, console, base)
    show(report, fmt, base, output_file, statistics, after_text, meta=meta,
         project_file=config.config_file)
    failed = report.failed
    if dynamic is not None:
        # --verify fails on any failure, predicted or real, and on any disagreement
        failed = failed or dynamic.failed or any(d.code == "IS201" for d in report.diagnostics)
    finish(failed, exit_zero, report)


def _check(config, jobs, cache_dir, shard_range):
    """api.check, answered from the run cache (runcache.py) when nothing it read changed:
    tried here first, before the analyser is even loaded."""
    runs = None
    if cache_dir:
        from ..store.runs import RunCache, check_arguments
        runs = RunCache(cache_dir, check_arguments(config.paths, config.modes,
                                                   config.source_roots, config.target_version,
                                                   config.skip, shard_range, config.strict,
                                                   config.env))
        found = runs.get()
        if found is not None:
            return found
    return api.check(config.paths, modes=config.modes, source_roots=config.source_roots,
                     target_version=config.target_version, jobs=jobs, skip=config.skip,
                     cache_dir=cache_dir, shard=shard_range, runs=runs, strict=config.strict,
                     keep=click.get_current_context().obj, env=config.env)


def _render_comparison(report, console: Console, base: str) -> None:
    """The text renderer lists problems only; --verify also lists the comparison."""
    from ..dynamic.verify import RUN_RULES
    found = [d for d in report.diagnostics if d.code in RUN_RULES]
    for d in found:
        style = "bold red" if d.severity == "error" else "cyan"
        where = f"{printable(json_report._rel(d.file, base))}:{d.line}: " if d.file else ""
        console.print(Text(f"{where}{d.code} {d.name}: {printable(d.message)}", style=style))
    n = sum(d.code == "IS201" for d in found)
    console.print(Text(f"verify: {n} disagreement{'s' * (n != 1)} between static and dynamic, "
                       f"{len(found) - n} note{'s' * (len(found) - n != 1)}",
                       style="bold red" if n else "bold green"))
