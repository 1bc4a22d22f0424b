"""`importsafe diff BASE [HEAD]`: what a change did to first imports, straight from git objects.

Each revision's Python files (and pyproject.toml files) are read with `git ls-tree -r` and
`git cat-file --batch` and written to a fresh temporary directory (never the work tree, which
is not touched, nor is the index); `api.check` then runs there on the same paths relative to
the repository root: `--path` arguments, else `[tool.importsafe] paths` of that revision's
pyproject.toml, else the packages under `src/` or at the root. Compared:

- failures, by (entry, mode): new in HEAD, fixed in HEAD, or still failing with another
  reason (not new); a failure waived by an inline `# importsafe: ignore[...]` or by
  `select`/`ignore` does not count; a baseline file does not apply;
- modules a package's `import` (normal mode) loaded in BASE and no longer loads in HEAD
  (`fix.compat.loaded_by`): lost when some code of HEAD reads one without importing it,
  else compat information;
- names bound at the top level of a module in BASE and no longer in HEAD
  (`ModuleFacts.bindings`): a name its own import bound (an import moved, as a cycle fix
  does) is compat information unless HEAD code imports it from that module; and entries
  that disappeared.

Something got worse (exit status 1) when there is a new failure, a lost module, a lost name or
a removed module; with none of these and some failure fixed, it is better (exit status 0).
"""
from __future__ import annotations

import os
import subprocess
import tempfile
from dataclasses import dataclass, field, replace
from typing import Sequence

from ..config.settings import ConfigError
from ..model import Diagnostic, ErrorInfo, Frame, Report, Result
from ..static.layout import InputError

SOURCE_SUFFIXES = (".py",)
OPAQUE_SUFFIXES = (".so", ".pyd", ".pyi")  # discovery only needs them to exist


class GitError(InputError):
    """Not a repository, an unknown revision, or git failing (exit status 2)."""


def git(repo: str, *args: str, data: bytes | None = None) -> bytes:
    env = dict(os.environ, GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    try:
        proc = subprocess.run(["git", "-C", repo, *args], input=data, capture_output=True,
                              env=env)
    except OSError as exc:
        raise GitError(f"cannot run git: {exc.strerror}") from None
    if proc.returncode != 0:
        msg = proc.stderr.decode(errors="replace").strip() or f"exit status {proc.returncode}"
        raise GitError(f"git {' '.join(args[:2])}: {msg}")
    return proc.stdout


def repo_root(start: str = ".") -> str:
    return os.path.realpath(git(start, "rev-parse", "--show-toplevel").decode().strip())


def resolve(repo: str, rev: str) -> str:
    """The commit id of `rev`."""
    try:
        return git(repo, "rev-parse", "--verify", "--end-of-options",
                   f"{rev}^{{commit}}").decode().strip()
    except GitError:
        raise GitError(f"unknown revision: {rev}") from None


def _wanted(path: str) -> str | None:
    """'source' (content needed), 'opaque' (an empty placeholder will do) or None."""
    name = path.rsplit("/", 1)[-1]
    if name.endswith(SOURCE_SUFFIXES) or name == "pyproject.toml":
        return "source"
    if name.endswith(OPAQUE_SUFFIXES):
        return "opaque"
    return None


def materialise(repo: str, commit: str, dest: str) -> int:
    """Write the Python files of `commit` under `dest`; returns how many. Reads git objects
    only: no checkout, no index, no work tree."""
    listing = git(repo, "ls-tree", "-r", "-z", "--full-tree", commit)
    sources: list[tuple[str, str]] = []
    placeholders: list[str] = []
    for record in listing.split(b"\0"):
        if not record:
            continue
        meta, _, raw_path = record.partition(b"\t")
        mode, kind, sha = meta.split(b" ")
        if kind != b"blob" or mode not in (b"100644", b"100755"):
            continue  # symlinks, submodules
        path = os.fsdecode(raw_path)
        want = _wanted(path)
        if want == "source":
            sources.append((sha.decode(), path))
        elif want == "opaque":
            placeholders.append(path)
    dest = os.path.realpath(dest)
    for path in placeholders:
        _write(dest, path, b"")
    if not sources:
        return len(placeholders)
    out = git(repo, "cat-file", "--batch", data="".join(f"{s}\n" for s, _ in sources).encode())
    pos = 0
    for sha, path in sources:
        end = out.index(b"\n", pos)
        header = out[pos:end].split()
        if len(header) != 3 or header[1] != b"blob":
            raise GitError(f"git cat-file: cannot read {path} ({sha}) of {commit}")
        size = int(header[2])
        _write(dest, path, out[end + 1:end + 1 + size])
        pos = end + 1 + size + 1
    return len(sources) + len(placeholders)


def _write(dest: str, path: str, content: bytes) -> None:
    target = os.path.normpath(os.path.join(dest, path))
    if not target.startswith(dest + os.sep):
        raise GitError(f"refusing a path outside the tree: {path}")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "wb") as f:
        f.write(content)


# -- one revision ---------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Revision:
    rev: str
    commit: str
    paths: tuple[str, ...]  # analysed, relative to the repository root
    results: tuple[Result, ...]  # files relative to the repository root
    entries: tuple[str, ...]
    packages: dict  # package entry -> frozenset of modules `import package` loads
    bindings: dict  # entry -> frozenset of names bound at its top level
    sources: dict  # (file, line) -> source text, for the frames of failures
    imported: dict = field(default_factory=dict)  # entry -> names its imports bind
    importers: dict = field(default_factory=dict)  # (module, name) -> readers elsewhere
    hidden: dict = field(default_factory=dict)  # module -> readers that never import it
    files: dict = field(default_factory=dict)  # entry -> its file, relative to the repository


def analyse(repo: str, rev: str, paths: Sequence[str] = (), modes: str | None = None,
            workdir: str | None = None) -> Revision:
    """Materialise `rev` in a temporary directory and check it there. `paths` are relative
    to the repository root."""
    commit = resolve(repo, rev)
    with tempfile.TemporaryDirectory(prefix="importsafe-diff-", dir=workdir) as tmp:
        tree = os.path.join(os.path.realpath(tmp), "tree")
        os.makedirs(tree)
        materialise(repo, commit, tree)
        return _analyse_tree(rev, commit, tree, paths, modes)


def _analyse_tree(rev, commit, tree, paths, modes) -> Revision:
    from .. import api
    from ..api import deep_recursion
    from ..fix.compat import loaded_by
    from ..config.project import NoPackages, project_config
    from ..report.text import _source_line
    from .suppress import apply_policy
    asked = tuple(os.path.join(tree, p) for p in paths)
    try:
        config, _ = project_config(tree, modes, asked, stop=tree)
    except NoPackages:
        config = None
    except ConfigError as exc:
        raise InputError(f"{rev}: {exc}") from None
    present = [p for p in (config.paths if config else ()) if os.path.exists(p)]
    rel = tuple(_rel(p, tree) for p in present)
    if not present:
        return Revision(rev, commit, rel, (), (), {}, {}, {})
    roots = [r for r in config.source_roots if os.path.isdir(r)]
    report = api.check(present, modes=config.modes, source_roots=roots,
                       target_version=config.target_version, skip=config.skip, env=config.env)
    # inline suppressions and select/ignore count; a baseline file is about the work tree
    report, _ = apply_policy(report, config.select, config.ignore)
    loaded = api.load(present, roots, config.target_version, env=config.env)
    program = loaded.program
    packages = {}
    with deep_recursion():
        for name in loaded.entries:
            if program.index[name].kind == "package":
                packages[name] = frozenset(loaded_by(program, name))
    bindings = {name: frozenset(n for n, _ in program.facts[name].bindings)
                for name in loaded.entries if name in program.facts}
    imported, importers, hidden = _readers(program, loaded.entries, tree)
    sources = {}
    results = []
    for r in report.results:
        if r.error is not None:
            for f in r.error.chain:
                sources[(_rel(f.file, tree), f.line)] = _source_line(f.file, f.line)
            if r.error.defined_at is not None:
                f, line = r.error.defined_at
                sources[(_rel(f, tree), line)] = _source_line(f, line)
        results.append(_relocate(r, tree))
    files = {name: _rel(program.index[name].path, tree) for name in loaded.entries}
    return Revision(rev, commit, rel, tuple(results), loaded.entries, packages, bindings,
                    sources, imported, importers, hidden, files)


def _readers(program, entries, tree) -> tuple[dict, dict, dict]:
    """(names each module's own top-level imports bind, `from M import name` readers of
    each (M, name), readers of each submodule that never import it themselves)."""
    from ..fix.compat import hidden_submodule_reads, importers_of
    from ..static.events import Import, ImportFrom, walk
    full = {n: program.load_bodies(n) for n in entries if n in program.facts}
    imported = {}
    for name, facts in program.facts.items():
        if name not in full:
            continue
        bound = set()
        for ev in walk(facts.body):
            if ev.__class__ is Import and ev.call is None:
                bound.add(ev.asname or ev.module.partition(".")[0])
            elif ev.__class__ is ImportFrom:
                bound.update(a or n for n, a in ev.names if n != "*")
        imported[name] = frozenset(bound)
    importers = {k: tuple(f"{_rel(f, tree)}:{line}" for f, line, _ in v)
                 for k, v in importers_of(full).items()}
    hidden: dict = {}
    for f, line, _, sub in hidden_submodule_reads(program, full):
        hidden.setdefault(sub, []).append(f"{_rel(f, tree)}:{line}")
    return imported, importers, {k: tuple(v) for k, v in hidden.items()}


def _rel(path: str, tree: str) -> str:
    if path and (path == tree or path.startswith(tree + os.sep)):
        return os.path.relpath(path, tree)
    return path


def _relocate(r: Result, tree: str) -> Result:
    """File names relative to the repository root instead of the temporary tree."""
    if r.error is None:
        return r
    e = r.error
    chain = tuple(Frame(f.module, _rel(f.file, tree), f.line) for f in e.chain)
    defined = None if e.defined_at is None else (_rel(e.defined_at[0], tree), e.defined_at[1])
    message = e.message.replace(tree + os.sep, "")
    return replace(r, error=ErrorInfo(e.exception, e.module, e.name, message, chain, defined))


# -- the comparison -------------------------------------------------------------------------

def failure_key(r: Result) -> tuple:
    e = r.error
    return (r.entry, r.mode, e.exception, e.module, e.name)


@dataclass(frozen=True, slots=True)
class Diff:
    base: Revision
    head: Revision
    new: tuple[Result, ...]
    fixed: tuple[Result, ...]
    lost_modules: tuple[tuple[str, tuple[str, ...]], ...]  # (package, modules) code still reads
    lost_names: tuple[tuple[str, tuple[str, ...]], ...]  # (module, names) lost for good
    removed: tuple[str, ...]  # entries of BASE that HEAD no longer has
    changed: tuple[tuple[Result, Result], ...] = ()  # still failing, another reason
    # no longer loaded / bound, but nothing outside reads them (moved imports): information
    compat_modules: tuple[tuple[str, tuple[str, ...]], ...] = ()
    compat_names: tuple[tuple[str, tuple[str, ...]], ...] = ()

    @property
    def worse(self) -> bool:
        return bool(self.new or self.lost_modules or self.lost_names or self.removed)

    @property
    def verdict(self) -> str:
        return "worse" if self.worse else "better" if self.fixed else "not worse"


def compare(base: Revision, head: Revision) -> Diff:
    def failures(rev: Revision) -> dict:
        return {(r.entry, r.mode): r for r in rev.results
                if r.outcome == "error" and r.waived is None}
    before, after = failures(base), failures(head)
    new = tuple(after[k] for k in sorted(after.keys() - before.keys()))
    fixed = tuple(before[k] for k in sorted(before.keys() - after.keys()))
    changed = tuple((before[k], after[k]) for k in sorted(before.keys() & after.keys())
                    if failure_key(before[k]) != failure_key(after[k]))
    modules, compat_modules = [], []
    for p in sorted(base.packages.keys() & head.packages.keys()):
        lost = sorted(base.packages[p] - head.packages[p])
        read = tuple(m for m in lost if head.hidden.get(m) or not head.imported)
        quiet = tuple(m for m in lost if m not in read)
        if read:
            modules.append((p, read))
        if quiet:
            compat_modules.append((p, quiet))
    names, compat_names = [], []
    for m in sorted(base.bindings.keys() & head.bindings.keys()):
        lost = sorted(base.bindings[m] - head.bindings[m])
        moved = base.imported.get(m, frozenset())
        counted = tuple(n for n in lost if n not in moved or head.importers.get((m, n)))
        quiet = tuple(n for n in lost if n not in counted)
        if counted:
            names.append((m, counted))
        if quiet:
            compat_names.append((m, quiet))
    removed = tuple(sorted(set(base.entries) - set(head.entries)))
    return Diff(base, head, new, fixed, tuple(modules), tuple(names), removed, changed,
                tuple(compat_modules), tuple(compat_names))


def diff(base: str, head: str = "HEAD", paths: Sequence[str] = (), modes: str | None = None,
         repo: str = ".") -> Diff:
    """Compare two revisions of the repository holding `repo`. `paths` are relative to the
    repository root."""
    root = repo_root(repo)
    before, after = analyse(root, base, paths, modes), analyse(root, head, paths, modes)
    found = {os.path.normpath(p) for p in (*before.paths, *after.paths)}
    missing = [p for p in paths if os.path.normpath(p) not in found]
    if missing:
        raise InputError(f"no such path in {base} or {head}: {', '.join(missing)}")
    return compare(before, after)


# -- output ---------------------------------------------------------------------------------

def to_dict(d: Diff) -> dict:
    from ..report.json import result_dict

    def rev(r: Revision) -> dict:
        return {"rev": r.rev, "commit": r.commit, "paths": list(r.paths),
                "entries": len(r.entries),
                "failing": sum(x.outcome == "error" and x.waived is None
                               for x in r.results)}
    return {
        "schema": 1,
        "base": rev(d.base),
        "head": rev(d.head),
        "new_failures": [result_dict(r) for r in d.new],
        "fixed_failures": [result_dict(r) for r in d.fixed],
        "lost_modules": [{"package": p, "modules": list(m)} for p, m in d.lost_modules],
        "lost_names": [{"module": m, "names": list(n)} for m, n in d.lost_names],
        "removed_modules": list(d.removed),
        "reason_changed": [{"before": result_dict(a), "after": result_dict(b)}
                           for a, b in d.changed],
        "compat": {"modules": [{"package": p, "modules": list(m)} for p, m in d.compat_modules],
                   "names": [{"module": m, "names": list(n)} for m, n in d.compat_names]},
        "worse": d.worse,
        "verdict": d.verdict,
    }


def render_text(d: Diff) -> str:
    lines = [f"importsafe diff {d.base.rev} ({d.base.commit[:12]}) -> {d.head.rev} "
             f"({d.head.commit[:12]}): {', '.join(d.head.paths or d.base.paths) or '(nothing)'}"]
    for label, results, rev in (("NEW  ", d.new, d.head), ("FIXED", d.fixed, d.base)):
        for r in results:
            e = r.error
            lines.append(f"{label} {r.entry}  [{r.mode}]  {e.exception}: {e.message}")
            if label == "NEW  ":
                for i, f in enumerate(e.chain):
                    src = rev.sources.get((f.file, f.line), "")
                    lines.append(f"      {'  ' * i}{'-> ' if i else ''}{f.module}  "
                                 f"{f.file}:{f.line}  {src}".rstrip())
    for a, b in d.changed:
        lines.append(f"STILL {b.entry}  [{b.mode}]  still failing (reason changed): "
                     f"{a.error.exception}: {a.error.message} -> {b.error.exception}: "
                     f"{b.error.message}")
    for package, modules in d.lost_modules:
        read = "; ".join(f"{m} read at {', '.join(d.head.hidden.get(m, ()))}" for m in modules
                         if d.head.hidden.get(m))
        lines.append(f"LOST  `import {package}` no longer loads {', '.join(modules)}"
                     + (f" ({read})" if read else ""))
    for package, modules in d.compat_modules:
        lines.append(f"COMPAT `import {package}` no longer loads {', '.join(modules)} "
                     "(nothing reads it without importing it)")
    for module, names in d.compat_names:
        lines.append(f"COMPAT imports moved out of {module}'s top level: {', '.join(names)} "
                     "(nothing imports them from it)")
    for module, names in d.lost_names:
        lines.append(f"LOST  no longer bound in {module}: {', '.join(names)}")
    for module in d.removed:
        lines.append(f"GONE  module {module} no longer exists")
    n_lost = sum(len(m) for _, m in d.lost_modules)
    n_names = sum(len(n) for _, n in d.lost_names)
    lines.append(f"{len(d.new)} new failure{'s' * (len(d.new) != 1)}, {len(d.fixed)} fixed, "
                 f"{len(d.changed)} still failing (reason changed), {n_lost} module{'s' * (n_lost != 1)} no longer loaded, {n_names} "
                 f"name{'s' * (n_names != 1)} lost, {len(d.removed)} module"
                 f"{'s' * (len(d.removed) != 1)} removed: " + d.verdict)
    return "\n".join(lines) + "\n"


def as_report(d: Diff) -> Report:
    """The diff as a check report, for the renderers of every other format: HEAD's results,
    where a failure that also fails in BASE is waived as "baselined" (BASE is the baseline);
    a diagnostic per failure site of the new failures, and one per lost module (IS401, at
    each reader), lost name (IS402, at each importer left, else its module) and removed
    module (IS403, at its BASE file)."""
    from ..rules import RULES
    from .diagnose import diagnose
    new = {(r.entry, r.mode) for r in d.new}
    results = tuple(r if r.outcome == "ok" or r.waived is not None or (r.entry, r.mode) in new
                    else replace(r, waived="baselined") for r in d.head.results)
    out = list(diagnose(list(d.new), {}, ()))

    def add(code, site, message, entry=None):
        rule = RULES[code]
        file, _, line = site.rpartition(":")
        out.append(Diagnostic(rule.code, rule.name, rule.severity, file,
                              int(line) if line.isdigit() else 1, message, entry))

    for package, modules in d.lost_modules:
        for m in modules:
            for site in d.head.hidden.get(m) or (f"{d.head.files.get(package, '')}:1",):
                add("IS401", site, f"`import {package}` no longer loads {m}, which this code "
                                   f"reads without importing it", package)
    for module, names in d.lost_names:
        for name in names:
            readers = d.head.importers.get((module, name)) or \
                (f"{d.head.files.get(module, d.base.files.get(module, ''))}:1",)
            for site in readers:
                add("IS402", site, f"{module} no longer binds {name!r} (it did in "
                                   f"{d.base.rev})", module)
    for module in d.removed:
        add("IS403", f"{d.base.files.get(module, '')}:1",
            f"module {module} of {d.base.rev} no longer exists in {d.head.rev}", module)
    diagnostics = tuple(sorted(out, key=lambda x: (x.file, x.line, x.code, x.message)))
    return Report(results, diagnostics, source="diff")


__all__ = ["as_report", "diff", "compare", "analyse", "materialise", "Diff", "Revision", "GitError",
           "to_dict", "render_text"]
