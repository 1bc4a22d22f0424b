"""Split the (entry, mode) matrix across CI jobs, and merge their JSON reports.

`--shard K/N` keeps the K-th of N contiguous slices of the matrix in its fixed order
(contiguous, so each job's memo sees related modules), and its JSON report records what it
is: `"shard": {"index": K, "count": N, "digest": ...}`, the digest covering importsafe's
version, the arguments that decide the matrix and its outcomes, and the analysed files.
`merge` accepts only a complete set of shards of one run (every K of 1..N exactly once, one
digest), puts their results back in order and recomputes the per-site diagnostics, so the
merged document equals the unsharded one.
"""
from __future__ import annotations

import hashlib
import os
import stat
from typing import Sequence, TypeVar

from ..model import Assumption, Diagnostic, ErrorInfo, Frame, Report, Result
from ..policy.diagnose import diagnose

T = TypeVar("T")
# the diagnostics diagnose() makes from results: recomputed from the merged results; every
# other one describes the input, the same in every shard, except an unused suppression,
# which is unused only when no shard used it
FROM_RESULTS = frozenset({"IS004", "IS101", "IS102", "IS103", "IS104", "IS105", "IS106",
                          "IS107"})
UNUSED_SUPPRESSION = "IS302"
MAX_READ = 8 << 20


class ShardError(ValueError):
    """A --shard value that is not K/N with 1 <= K <= N, or reports that are not one
    complete set of shards (exit status 2)."""


def parse_shard(text: str) -> tuple[int, int]:
    try:
        k, n = (int(p) for p in text.split("/"))
    except ValueError:
        raise ShardError(f"--shard takes K/N (like 2/4), not {text!r}") from None
    if not 1 <= k <= n:
        raise ShardError(f"--shard {text}: K must be between 1 and N")
    return k, n


def take_shard(items: Sequence[T], shard: tuple[int, int] | None) -> list[T]:
    if shard is None:
        return list(items)
    k, n = shard
    size = len(items)
    return list(items[(k - 1) * size // n: k * size // n])


# --- what a shard is --------------------------------------------------------------------------

def identity(shard: tuple[int, int], config) -> dict:
    """The record a shard's report carries: its K/N and the digest of its run."""
    k, n = shard
    return {"index": k, "count": n, "digest": run_digest(config)}


def run_digest(config) -> str:
    """sha256 of importsafe's version, the settings that decide the matrix and its outcomes,
    and the analysed trees (every file's path below its root, and the bytes of its Python
    files): two jobs agree on it exactly when they checked the same thing the same way."""
    from .. import __version__
    h = hashlib.sha256()

    def add(*parts) -> None:
        for part in parts:
            h.update(repr(part).encode("utf-8", "surrogatepass") + b"\0")
    add(__version__, config.modes, config.target_version, config.skip, config.select,
        config.ignore, tuple(_shown(p) for p in config.source_roots))
    if config.baseline:
        add("baseline", _content(config.baseline))
    for path in config.paths:
        add("path", _shown(path))
        for rel, data in _tree(path):
            add(rel, data)
    return h.hexdigest()


def _shown(path: str) -> str:
    """A path as the same checkout names it on any machine: relative to the current
    directory when below it."""
    rel = os.path.relpath(os.path.abspath(path))
    return path if rel.startswith("..") else rel


def _content(path: str):
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):
            return ("special", st.st_mode)
        with open(path, "rb") as f:
            return hashlib.sha256(f.read(MAX_READ)).hexdigest()
    except OSError as exc:
        return ("unreadable", exc.errno)


def _tree(path: str):
    """(path relative to `path`, content digest or size) of every file below it, sorted;
    Python sources by content, other files (extension modules, data) by size; hidden
    directories and __pycache__ left out; symbolic links to directories not followed."""
    if not os.path.isdir(path):
        yield os.path.basename(path), _content(path)
        return
    for top, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d != "__pycache__")
        for name in sorted(files):
            full = os.path.join(top, name)
            rel = os.path.relpath(full, path)
            if name.endswith((".py", ".pyi", ".pth")):
                yield rel, _content(full)
            else:
                try:
                    yield rel, os.lstat(full).st_size
                except OSError:
                    yield rel, None


# --- merging -------------------------------------------------------------------------------

def result_from_dict(d: dict) -> Result:
    error = None
    if "error" in d:
        e = d["error"]
        defined = e.get("defined_at")
        error = ErrorInfo(e["exception"], e["module"], e["name"], e["message"],
                          tuple(Frame(f["module"], f["file"], f["line"]) for f in e["chain"]),
                          (defined["file"], defined["line"]) if defined else None)
    waived = next((k for k in ("suppressed", "baselined", "ignored") if d.get(k)), None)
    assumes = tuple(Assumption(a["module"], a["name"], a["file"], a["line"], a["why"],
                               a.get("kind", "bound")) for a in d.get("assumes", ()))
    return Result(d["entry"], d["mode"], d["outcome"], error, d.get("reason"), waived, assumes)


def _shard_of(name: str, doc) -> tuple[int, int, str]:
    record = doc.get("shard") if isinstance(doc, dict) else None
    if not isinstance(doc, dict) or not isinstance(doc.get("results"), list) or \
            not isinstance(doc.get("diagnostics"), list):
        raise ShardError(f"{name}: not an importsafe JSON report (write shards with "
                         "`importsafe check --shard K/N --format json`)")
    if not isinstance(record, dict):
        raise ShardError(f"{name}: an importsafe report, but not of a shard (no \"shard\" "
                         "record: it was not written with --shard K/N)")
    k, n, digest = record.get("index"), record.get("count"), record.get("digest")
    if not (isinstance(k, int) and isinstance(n, int) and isinstance(digest, str)
            and 1 <= k <= n):
        raise ShardError(f"{name}: its \"shard\" record is not K/N with a digest: {record!r}")
    return k, n, digest


def check_complete(docs: Sequence[tuple[str, dict]]) -> None:
    """Raise ShardError unless `docs` ((file name, document), ...) are every shard 1..N of
    one run, each once."""
    if not docs:
        raise ShardError("merge needs at least one report")
    shards = [(name, *_shard_of(name, doc)) for name, doc in docs]
    runs: dict[tuple[int, str], list[str]] = {}
    for name, k, n, digest in shards:
        runs.setdefault((n, digest), []).append(f"{name} ({k}/{n})")
    if len(runs) > 1:
        parts = "; ".join(f"run {i}: {', '.join(names)}" for i, names in
                          enumerate(runs.values(), 1))
        raise ShardError(f"the reports come from {len(runs)} different runs (other "
                         f"arguments, inputs or shard counts): {parts}")
    n = shards[0][2]
    given: dict[int, list[str]] = {}
    for name, k, _, _ in shards:
        given.setdefault(k, []).append(name)
    twice = {k: names for k, names in given.items() if len(names) > 1}
    if twice:
        raise ShardError("shard given more than once: " + "; ".join(
            f"{k}/{n} in {', '.join(names)}" for k, names in sorted(twice.items())))
    missing = sorted(set(range(1, n + 1)) - set(given))
    if missing:
        raise ShardError(f"missing shard{'s' * (len(missing) > 1)} "
                         f"{', '.join(f'{k}/{n}' for k in missing)} (given: "
                         f"{', '.join(f'{k}/{n}' for k in sorted(given))})")


def merge(docs: Sequence[tuple[str, dict]]) -> Report:
    """The report the unsharded run would have given, from the JSON of every shard
    ((file name, document) pairs); ShardError when they are not one complete set."""
    check_complete(docs)
    results: dict[tuple[str, str], Result] = {}
    modes: list[str] = []
    unknown_at: dict[str, tuple[str, int]] = {}
    kept: dict[tuple, Diagnostic] = {}
    unused: list[set] = []
    for _, doc in docs:
        mine = {}
        for d in doc["results"]:
            r = result_from_dict(d)
            results[(r.entry, r.mode)] = mine[(r.entry, r.mode)] = r
            if r.mode not in modes:
                modes.append(r.mode)
        found = set()
        for d in doc["diagnostics"]:
            diag = Diagnostic(d["code"], d["name"], d["severity"], d["file"], d["line"],
                              d["message"], d.get("entry"), d.get("mode"))
            key = (diag.code, diag.file, diag.line, diag.message)
            if diag.code == "IS004":
                r = mine.get((diag.entry, diag.mode))
                if r is not None and r.reason is not None:
                    unknown_at[r.reason] = (diag.file, diag.line)
            elif diag.code == UNUSED_SUPPRESSION:
                found.add(key)
                kept[key] = diag
            elif diag.code not in FROM_RESULTS:
                kept[key] = diag
        unused.append(found)
    unused_everywhere = set.intersection(*unused) if unused else set()
    problems = [d for key, d in kept.items()
                if d.code != UNUSED_SUPPRESSION or key in unused_everywhere]
    ordered = tuple(sorted(results.values(), key=lambda r: (r.entry, modes.index(r.mode))))
    counted = [r for r in ordered if r.waived is None]
    diagnostics = tuple(sorted((*problems, *diagnose(counted, {}, [], unknown_at)),
                               key=lambda d: (d.file, d.line, d.code, d.message)))
    return Report(ordered, diagnostics, docs[0][1].get("source", "static"))
