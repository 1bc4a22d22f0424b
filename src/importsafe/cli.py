"""Command line: arguments -> config -> use case -> reporter -> exit code."""
from __future__ import annotations

import gc
import importlib
import importlib.util
import json
from dataclasses import replace
import os
import sys

import click

from .config import ConfigError, load_config
from .model import DEFAULT_TIMEOUT
from .project import default_paths
from .report import json as json_report
from .runcache import default_dir as default_cache_dir


def _lazy(name: str):
    """`name`, loaded on first attribute access (importlib's LazyLoader): a warm `check` of
    an unchanged tree is answered from the run cache without loading the analyser, the
    dynamic runner or rich."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    loader = importlib.util.LazyLoader(spec.loader)
    spec.loader = loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


api = _lazy("importsafe.api")
suppress = _lazy("importsafe.suppress")
shard = _lazy("importsafe.shard")


def Console(**kwargs):  # noqa: N802 - rich's class, loaded when first needed
    from rich.console import Console as _Console
    return _Console(**kwargs)


def Text(*args, **kwargs):  # noqa: N802
    from rich.text import Text as _Text
    return _Text(*args, **kwargs)


def _report(name: str):
    """A reporter module of importsafe.report (text, sarif, ...), loaded when used."""
    return importlib.import_module(f".report.{name}", __package__)


EXIT_OK, EXIT_FAIL, EXIT_USAGE = 0, 1, 2
FORMATS = ["text", "json", "sarif", "github", "junit", "html"]
RENDERERS = ("sarif", "github", "junit", "html")  # report.X.render(report, base) -> str


def _policy_options(fn):
    """--skip, --select, --ignore, --baseline: they override [tool.importsafe]."""
    for option in reversed([
        click.option("--skip", multiple=True, metavar="GLOB",
                     help="Do not check entries matching GLOB (fnmatch on dotted names; "
                          "repeatable)."),
        click.option("--select", multiple=True, metavar="CODES",
                     help="Report only these rule codes or prefixes (comma-separated)."),
        click.option("--ignore", multiple=True, metavar="CODES",
                     help="Do not report these rule codes or prefixes; their failures do "
                          "not fail the run."),
        click.option("--baseline", default=None, type=click.Path(dir_okay=False),
                     metavar="FILE", help="Failures recorded in FILE do not fail the run."),
    ]):
        fn = option(fn)
    return fn


def _configure(paths, source_roots, modes, target_version, **policy):
    """The configuration for PATHS (flags over [tool.importsafe]); without paths anywhere,
    the project's `src/` or the packages at the root of the current directory."""
    config = load_config(paths, source_roots, modes, target_version,
                         paths[0] if paths else os.getcwd(), **policy)
    if not config.paths:
        found = default_paths(os.path.dirname(config.config_file) if config.config_file
                              else os.getcwd())
        if not found:
            raise ConfigError("no paths given, and no src/ or packages here (pass PATH or "
                              "set [tool.importsafe] paths)")
        config = replace(config, paths=found)
    return config


def _target_options(command):
    """PATHS, --mode and --source-root, as `check` and `run` take them."""
    for option in reversed((
            click.argument("paths", nargs=-1, type=click.Path()),
            click.option("--mode", "modes", default=None, metavar="MODES",
                         help="Comma-separated modes: normal, bare, lazy (default: normal,bare)."),
            click.option("--source-root", "source_roots", multiple=True, type=click.Path(),
                         help="A directory on sys.path (repeatable). Default: inferred from "
                              "the paths."))):
        command = option(command)
    return command


@click.group(context_settings={"help_option_names": ["-h", "--help"]},
             invoke_without_command=True)
@click.version_option(package_name="importsafe")
@click.pass_context
def cli(ctx: click.Context) -> None:
    """importsafe: find, explain and fix imports that fail in some import orders.

    Without a command: `importsafe check` on what the configuration names (or the project's
    src/ layout, or the packages at its root)."""
    if ctx.invoked_subcommand is None:
        ctx.invoke(check)


@cli.command()
@_target_options
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True)
@click.option("--target-version", default=None, metavar="X.Y",
              help="Python version the code runs on (decides sys.version_info checks).")
@click.option("-j", "--jobs", type=int, default=None, help="Parser processes (default: cores).")
@click.option("--verify", is_flag=True,
              help="Also import everything for real (as `run` does) and report every "
                   "(entry, mode) where the prediction and reality disagree (IS201).")
@click.option("--compat", is_flag=True,
              help="Also report what `importsafe fix` would change for code relying on import "
                   "side effects: modules packages no longer load, and reads of `pkg.sub` "
                   "by code that never imports `pkg.sub` itself.")
@_policy_options
@click.option("--write-baseline", default=None, type=click.Path(dir_okay=False),
              metavar="FILE", help="Record today's failures in FILE (then they are baselined).")
@click.option("--shard", "shard_spec", default=None, metavar="K/N",
              help="Check only the K-th of N slices of the (entry, mode) matrix (for CI "
                   "matrix jobs; combine the JSON reports with `importsafe merge`).")
@click.option("--no-cache", is_flag=True, help="Parse every file, ignoring cached facts.")
@click.option("--cache-dir", default=None, metavar="DIR",
              help="Where facts are cached by file content (default: the user cache dir).")
def check(paths, modes, source_roots, fmt, target_version, jobs, verify, compat, skip, select,
          ignore, baseline, write_baseline, shard_spec, no_cache, cache_dir) -> None:
    """Predict statically the first import of every module under PATHS, in every mode."""
    dynamic = None
    try:
        config = _configure(paths, source_roots, modes, target_version, skip=skip,
                            select=select, ignore=ignore, baseline=baseline)
        if verify:
            with _Progress(Console(stderr=True)) as progress:
                report, dynamic = api.verify(
                    config.paths, modes=config.modes, source_roots=config.source_roots,
                    target_version=config.target_version, jobs=jobs, progress=progress,
                    skip=config.skip)
        else:
            report = _check(config, jobs, None if no_cache else cache_dir or default_cache_dir(),
                            shard.parse_shard(shard_spec) if shard_spec else None)
        report, written = suppress.apply_policy(report, config.select, config.ignore,
                                                config.baseline, write_baseline)
        if dynamic is not None:
            dynamic, _ = suppress.apply_policy(dynamic, config.select, config.ignore,
                                               write_baseline or config.baseline)
        if written is not None:
            Console(stderr=True).print(f"importsafe: wrote {written} failure(s) to baseline "
                                       f"{write_baseline}", highlight=False, soft_wrap=True)
    except (ConfigError, api.InputError, shard.ShardError) as exc:
        Console(stderr=True).print(f"importsafe: error: {exc}", style="red", markup=False,
                                   highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if fmt == "json":
        click.echo(json_report.render(report, base), nl=False)
    elif fmt in RENDERERS:
        click.echo(_report(fmt).render(report, base), nl=False)
    else:
        console = Console(highlight=False)
        _report("text").render(report, console, base)
        if dynamic is not None:
            _render_comparison(report, console, base)
        if compat:
            from . import fixing  # libcst: loaded only by the commands that rewrite code
            outcome = fixing.plan(config.paths, config.modes, config.source_roots,
                                  config.target_version)
            hidden = fixing.hidden_reads(config.paths, config.source_roots,
                                         config.target_version)
            _report("fix").render_compat(outcome, hidden, console, base)
    failed = report.failed
    if dynamic is not None:
        # --verify fails on any failure, predicted or real, and on any disagreement
        failed = failed or dynamic.failed or any(d.code == "IS201" for d in report.diagnostics)
    sys.exit(EXIT_FAIL if failed else EXIT_OK)


def _check(config, jobs, cache_dir, shard_range):
    """api.check, answered from the run cache (runcache.py) when nothing it read changed:
    tried here first, before the analyser is even loaded."""
    runs = None
    if cache_dir:
        from .runcache import RunCache, check_arguments
        runs = RunCache(cache_dir, check_arguments(config.paths, config.modes,
                                                   config.source_roots, config.target_version,
                                                   config.skip, shard_range))
        found = runs.get()
        if found is not None:
            return found
    return api.check(config.paths, modes=config.modes, source_roots=config.source_roots,
                     target_version=config.target_version, jobs=jobs, skip=config.skip,
                     cache_dir=cache_dir, shard=shard_range, runs=runs,
                     keep=click.get_current_context().obj)


def _render_comparison(report, console: Console, base: str) -> None:
    """The text renderer lists problems only; --verify also lists the comparison."""
    from .dynamic.verify import RUN_RULES
    found = [d for d in report.diagnostics if d.code in RUN_RULES]
    for d in found:
        style = "bold red" if d.severity == "error" else "cyan"
        where = f"{json_report._rel(d.file, base)}:{d.line}: " if d.file else ""
        console.print(Text(f"{where}{d.code} {d.name}: {d.message}", style=style), soft_wrap=True)
    n = sum(d.code == "IS201" for d in found)
    console.print(Text(f"verify: {n} disagreement{'s' * (n != 1)} between static and dynamic, "
                       f"{len(found) - n} note{'s' * (len(found) - n != 1)}",
                       style="bold red" if n else "bold green"))


class _Progress:
    """A rich progress bar on stderr, on a terminal only; yields the runner's callback."""

    def __init__(self, err: Console):
        self.err = err
        self.bar = None

    def __enter__(self):
        if not self.err.is_terminal:
            return None
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn,
                                   TimeElapsedColumn)
        self.bar = Progress(TextColumn("importing"), BarColumn(), MofNCompleteColumn(),
                            TextColumn("[red]{task.fields[failures]} failing"),
                            TimeElapsedColumn(), console=self.err, transient=True)
        self.bar.start()
        task = self.bar.add_task("run", total=None, failures=0)

        def update(done: int, total: int, failures: int) -> None:
            self.bar.update(task, completed=done, total=total, failures=failures)
        return update

    def __exit__(self, *exc):
        if self.bar is not None:
            self.bar.stop()
        return False


@cli.command()
@_target_options
@click.option("--python", "python", default=None, metavar="PY",
              help="Interpreter to import with (any CPython 3.8+; default: this one).")
@click.option("-j", "--jobs", type=int, default=None,
              help="Imports running at once (default: cores).")
@click.option("--timeout", type=float, default=DEFAULT_TIMEOUT, show_default=True,
              metavar="S", help="Seconds before one import is killed (a `timeout` result).")
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="text",
              show_default=True)
@click.option("--no-fork", is_flag=True,
              help="A fresh interpreter per (entry, mode) instead of forked children.")
@click.option("--show-output", is_flag=True,
              help="Show what failing imports printed to stdout/stderr.")
@click.option("--entries", "entries_file", default=None, type=click.Path(dir_okay=False),
              metavar="FILE", help="Run only these entries: dotted names, one per line "
                                   "(each must be an entry under PATHS).")
@click.option("--target-version", default=None, metavar="X.Y",
              help="Python version the code is for: before 3.15 the PEP 810 emulation "
                   "ignores __lazy_modules__, as `check` does.")
@_policy_options
def run(paths, modes, source_roots, python, jobs, timeout, fmt, no_fork, show_output,
        entries_file, target_version, skip, select, ignore, baseline) -> None:
    """Import every module under PATHS for real, first, in a fresh interpreter, in every mode.
    Mode `lazy` is PEP 810's global lazy mode: `-X lazy_imports=all` semantics on Python
    3.15+, an emulation for the analysed package before (docs/lazy.md)."""
    err = Console(stderr=True)
    try:
        config = _configure(paths, source_roots, modes, target_version, skip=skip,
                            select=select, ignore=ignore, baseline=baseline)
        if jobs is not None and jobs < 1:
            raise ConfigError("-j/--jobs must be at least 1")
        if timeout <= 0:
            raise ConfigError("--timeout must be positive")
        entries = _read_entries(entries_file) if entries_file else None
        with _Progress(err) as progress:
            report = api.run(config.paths, modes=config.modes, python=python, jobs=jobs,
                             timeout=timeout, fork=not no_fork,
                             source_roots=config.source_roots, capture=show_output,
                             progress=progress, entries=entries, skip=config.skip,
                             target_version=config.target_version)
        report, _ = suppress.apply_policy(report, config.select, config.ignore,
                                          config.baseline)
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", markup=False, highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if fmt == "json":
        doc = json_report.to_dict(report, base)
        if show_output:
            for r, d in zip(report.results, doc["results"]):
                text = report.output(r.entry, r.mode) if r.outcome != "ok" else None
                if text:
                    d["output"] = text
        click.echo(json.dumps(doc, indent=2))
    elif fmt in RENDERERS:
        click.echo(_report(fmt).render(report, base), nl=False)
    else:
        console = Console(highlight=False)
        _report("text").render(report, console, base)
        stopped = [r.outcome for r in report.results if r.outcome in ("timeout", "crash")]
        if stopped:
            console.print(Text(f"of which did not finish: {stopped.count('timeout')} timeout, "
                               f"{stopped.count('crash')} crash", style="bold red"))
        if show_output:
            for r in report.results:
                text = report.output(r.entry, r.mode) if r.outcome != "ok" else None
                if text:
                    console.print(Text(f"--- output of {r.entry} [{r.mode}] ---", style="dim"))
                    console.print(Text(text.rstrip("\n")), soft_wrap=True)
    sys.exit(EXIT_FAIL if report.failed else EXIT_OK)


def _read_entries(path: str) -> list[str]:
    """Dotted names, one per line (blank lines and `#` comments ignored)."""
    try:
        with open(path, encoding="utf-8") as f:
            names = [line.split("#", 1)[0].strip() for line in f]
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"cannot read --entries file {path}: {exc}") from None
    return [n for n in names if n]


@cli.command()
@click.argument("entry")
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--mode", type=click.Choice(["normal", "bare", "lazy"]), default="normal",
              show_default=True)
@click.option("--source-root", "source_roots", multiple=True, type=click.Path(),
              help="A directory on sys.path (repeatable). Default: inferred from the paths.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--target-version", default=None, metavar="X.Y")
def explain(entry, paths, mode, source_roots, fmt, target_version) -> None:
    """Replay `import ENTRY` (a dotted name or a file) in one mode, step by step.

    Shows which modules ran in which order, the import statement that entered each, where
    it stopped, which name was missing and why, and the cycle as one line. PATHS default to
    the configuration's paths, or to ENTRY itself when it is a file."""
    err = Console(stderr=True)
    try:
        config = load_config(paths, source_roots, None, target_version,
                             paths[0] if paths else os.getcwd())
        where = config.paths or ((entry,) if os.path.exists(entry) else ())
        if not where:
            raise ConfigError("give the PATH that holds ENTRY (or set [tool.importsafe] paths)")
        x = api.explain(where, entry, mode, config.source_roots, config.target_version)
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", markup=False, highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if fmt == "json":
        click.echo(json.dumps(_report("explain").to_dict(x, base), indent=2))
    else:
        _report("explain").render(x, Console(highlight=False), base)
    sys.exit(EXIT_OK if x.result.outcome == "ok" else EXIT_FAIL)


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path())
@click.option("--mode", "modes", default=None, metavar="MODES",
              help="Comma-separated modes to make pass: normal, bare, lazy (default: normal,bare).")
@click.option("--source-root", "source_roots", multiple=True, type=click.Path())
@click.option("--diff", "show_diff", is_flag=True, help="Print the edits as a unified diff.")
@click.option("--write", is_flag=True, help="Apply the edits (atomically, verified first).")
@click.option("--target-version", default=None, metavar="X.Y")
def fix(paths, modes, source_roots, show_diff, write, target_version) -> None:
    """Compute the smallest verified import edits that make every first import succeed.

    Edits, in order of preference: defer an import into the functions that use its names;
    move it under `if TYPE_CHECKING:` when only unevaluated annotations use them; both.
    Without --write nothing is changed. Exit 0 when every (entry, mode) passes after the fix.
    """
    err = Console(stderr=True)
    try:
        config = _configure(paths, source_roots, modes, target_version)
        from . import fixing  # libcst: loaded only by the commands that rewrite code
        outcome = fixing.fix(config.paths, config.modes, config.source_roots,
                             config.target_version, write=write)
        hidden = fixing.hidden_reads(config.paths, config.source_roots,
                                     config.target_version) if outcome.lost else []
    except (ConfigError, api.InputError) as exc:
        err.print(f"importsafe: error: {exc}", style="red", markup=False, highlight=False, soft_wrap=True)
        sys.exit(EXIT_USAGE)
    base = os.getcwd()
    if show_diff and not write:
        click.echo(_report("fix").diff(outcome, base), nl=False)
    else:
        _report("fix").render(outcome, Console(highlight=False), base, show_diff=not write,
                          hidden=hidden)
    done = outcome.plan.complete and outcome.problem is None
    sys.exit(EXIT_OK if done else EXIT_FAIL)


@cli.command("gen-test")
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
    from . import gentest
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


@cli.command("diff")
@click.argument("base")
@click.argument("head", default="HEAD")
@click.option("--path", "paths", multiple=True, type=click.Path(),
              help="A path to analyse in both revisions (repeatable; default: "
                   "[tool.importsafe] paths of each revision, else the packages at the "
                   "root or under src/).")
@click.option("--mode", "modes", default=None, metavar="MODES",
              help="Comma-separated modes: normal, bare, lazy (default: normal,bare).")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
def diff_cmd(base, head, paths, modes, fmt) -> None:
    """Compare first imports between two git revisions (HEAD defaults to `HEAD`).

    Reads both revisions from git objects (the work tree is never touched). Exit 1 when
    something got worse: a new failure, a module a package no longer loads, a name no longer
    bound in a module, a module removed."""
    from . import gitdiff
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
    if fmt == "json":
        click.echo(json.dumps(gitdiff.to_dict(result), indent=2))
    else:
        click.echo(gitdiff.render_text(result), nl=False)
    sys.exit(EXIT_FAIL if result.worse else EXIT_OK)


@cli.command()
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
        _report("text").render(report, Console(highlight=False), os.getcwd())
    sys.exit(EXIT_FAIL if report.failed else EXIT_OK)


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
