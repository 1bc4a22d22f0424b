"""A whole `check` remembered with the state of every path it read (IO edge; stdlib only, so
a warm run loads none of the analyser).

A check's report depends on the source files, on the directories whose listings decided which
modules exist (every walked package directory, every directory searched for Python, the
source roots, the directories modules list at import time (static/dirlisting.py): an
added, removed or renamed entry changes a directory's mtime), on the
project files of the paths' ancestors (setuptools `package-dir`), on its arguments and on
importsafe's own code. The stored run keeps a stat signature of each such path (absent paths
included); a run whose arguments match and whose every signature is unchanged gets the stored
report back without reading, parsing or simulating anything. On any difference the normal run
takes over, helped by the stored one: files whose signature is unchanged are not read (their
facts come from the facts cache by the stored digest), and the stored results that no
changed module could have decided are reused (resultcache.py); then the run is stored anew (one file per
argument set, so the cache does not grow with edits).

Signatures are (mtime, ctime, size, inode, device) in nanoseconds. ctime cannot be set back
by a user, so a rewrite that restores a file's mtime and size is still seen. As in git's
"racy clean" rule, a path changed less than RACY_NS before the run started (or while it ran)
is stored as YOUNG, which matches nothing: a file rewritten within the file system's timestamp
granularity would otherwise look unchanged. Known limit: a `*.dist-info` RECORD rewritten in
place (not by pip, which replaces the directory) goes unseen.
"""
from __future__ import annotations

import os
import sys
import time
from dataclasses import dataclass
from functools import lru_cache

from . import safety

FORMAT = 8
RACY_NS = 2_000_000_000  # the coarsest common timestamp granularity (FAT: 2 s)
PROJECT_FILES = ("pyproject.toml", "setup.cfg", "setup.py")
HEAD_BYTES = 1 << 16  # read first: the header, and often the sections a warm run needs
YOUNG = "young"  # the signature of a path too recently changed to be trusted


def default_dir() -> str:
    """The user cache directory (XDG_CACHE_HOME, else ~/.cache) of importsafe."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "importsafe")


def signature(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino, st.st_dev


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """importsafe's version and the signature of every source file of it: any edit of the
    code that makes a report (an editable install) makes another key; stat, not content,
    keeps a warm run from reading the whole package."""
    import hashlib  # here, not at module level: loading OpenSSL slows every start
    from .. import __version__
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    digest = hashlib.sha256(__version__.encode())
    for directory, dirs, files in os.walk(here):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(directory, name)
                digest.update(repr((path, signature(path))).encode())
    return digest.hexdigest()


def ancestors_project_files(paths) -> list[str]:
    """The project files package_dirs.find may read for `paths`, existing or not."""
    out = []
    for raw in paths:
        d = os.path.realpath(raw)
        while True:
            out.extend(os.path.join(d, f) for f in PROJECT_FILES)
            parent = os.path.dirname(d)
            if parent == d:
                break
            d = parent
    return out


def check_arguments(paths, modes, source_roots, target_version, skip, shard,
                    strict: bool = False, env: tuple = ()) -> tuple:
    """What, besides the files, decides a check's report (the key of its stored run)."""
    return ("check", tuple(os.path.abspath(p) for p in paths), tuple(modes),
            tuple(os.path.abspath(r) for r in source_roots), tuple(target_version), tuple(skip),
            tuple(shard) if shard else None, bool(strict), tuple(env))


@dataclass(frozen=True)
class Previous:
    """What the last run with the same arguments leaves to a run that cannot reuse its
    report whole: the report, which modules each of its results read (resultcache.Traces),
    the summaries of the files unchanged since (FactsCache.summaries) and its directory
    scans still unchanged."""

    report: object
    traces: object
    summaries: dict  # path -> the summary of its facts (events.summary), digest included
    scans: dict  # (root, top, base) -> (modules, problems, directories, their listings)

    @property
    def digests(self) -> dict:
        """path -> source digest of the unchanged files."""
        return {path: f.digest for path, f in self.summaries.items()}


class RunCache:
    """One stored run per argument set, in DIR/runs/: a file of three sections (codec.py):
    the paths with their signatures; the report; (traces, path -> (signature, summary),
    scans). Replaced by every run, so the cache does not grow with edits."""

    def __init__(self, directory: str, arguments: tuple):
        import hashlib
        # relative paths and the environment's extension suffixes are part of the arguments
        key = repr((FORMAT, code_fingerprint(), os.getcwd(), sys.version_info[:2], arguments))
        name = hashlib.sha256(key.encode()).hexdigest()
        self.directory = directory
        self.file = os.path.join(directory, "runs", name[:2], name[2:] + ".run")
        self.started = time.time_ns()
        self.tried = False
        self.seen: dict[str, tuple | None] = {}  # signatures taken by get(), for previous()
        self._sections = None
        why = safety.check_root(directory)
        self.usable = why is None
        if why is not None:
            safety.warn(directory, why)

    def _read(self, upto: int = 2):
        """The stored run's sections (codec.Sections), or None; the file is read as far as
        the end of its first `upto` sections (a warm run needs two of the three)."""
        from .codec import CacheFormatError, Sections
        have = self._sections
        if not self.usable or (have is not None and len(have.data) >= have.end(upto - 1)):
            return have if self.usable else None
        try:
            if have is None:
                data = safety.read_file(self.file, self.directory, HEAD_BYTES)
                if data is None:
                    return None
                have = Sections(data, "run", complete=False)
            if len(have.data) < have.end(upto - 1):
                data = safety.read_file(self.file, self.directory, have.end(upto - 1))
                if data is None:
                    return None
                have = Sections(data, "run", complete=False)
        except CacheFormatError as exc:
            self._refused(exc)
            return None
        self._sections = have
        return have

    def _refused(self, exc: Exception) -> None:
        self._sections = None
        self.usable = False
        safety.warn(self.directory, f"stored run refused: {exc}")

    def get(self):
        """The stored report when every path it read is unchanged, else None."""
        self.tried = True
        sections = self._read()
        if sections is None:
            return None
        from .codec import CacheFormatError, decode
        try:
            paths, signatures = sections[0]
            seen = self.seen
            for path, sig in zip(paths, signatures):
                now = seen[path] = signature(path)
                if now != sig:
                    return None
            return decode(sections[1])  # the report, after the paths it depends on
        except (CacheFormatError, TypeError, ValueError) as exc:
            self._refused(exc)
            return None

    def previous(self) -> Previous | None:
        """The stored run, with the summaries of the files whose signature is still the one
        recorded with them."""
        sections = self._read(3)
        if sections is None:
            return None
        from .codec import CacheFormatError
        try:
            paths, signatures = sections[0]
            report, traces, summaries, scans = _decode_previous(sections[1], sections[2])
        except (CacheFormatError, TypeError, ValueError) as exc:
            self._refused(exc)
            return None
        seen = self.seen
        recorded = dict(zip(paths, signatures))

        def unchanged(path):
            sig = recorded.get(path, YOUNG)
            return sig != YOUNG and sig is not None and \
                sig == (seen[path] if path in seen else signature(path))
        # a directory scan holds while none of the directories it listed changed, or those
        # that did list the same entries as when it was made (scans are recorded with the
        # directories in the manifest, so their signatures are there)
        from ..static.discover import listing  # a miss: the analyser loads anyway

        def same(directory, listings):
            if unchanged(directory):
                return True
            known = listings.get(directory) if listings is not None else None
            return known is not None and listing(directory) == known
        scans = {key: found for key, found in scans.items()
                 if all(same(d, found[3]) for d in found[2])}
        kept = {path: found for path, (sig, found) in summaries.items()
                if (seen[path] if path in seen else signature(path)) == sig}
        return Previous(report, traces, kept, scans)

    def put(self, report, paths, scans: dict, traces, summaries: dict) -> None:
        """Store the run (`summaries`: path -> the summary of its facts, digest included).
        A path that changed less than RACY_NS before the run started (or while it ran) gets
        no signature: the report is then not reused while it is that young (a same-size
        rewrite within the file system's timestamp granularity would look unchanged), nor is
        its summary; the results may be, since their traces hold the fingerprints of what was
        actually read."""
        if safety.check_root(self.directory) is not None:
            return
        limit = self.started - RACY_NS
        sigs = {}
        for path in set(paths) | set(summaries):
            sig = signature(path)
            sigs[path] = YOUNG if sig is not None and (sig[0] >= limit or sig[1] >= limit) \
                else sig
        paths = sorted(sigs)
        known = {path: (sigs[path], found) for path, found in summaries.items()
                 if sigs[path] != YOUNG and sigs[path] is not None}
        from .codec import encode, pack
        try:
            data = pack("run", (tuple(paths), tuple(sigs[p] for p in paths)), encode(report),
                        _encode_rest(traces, known, scans))
        except ValueError:  # a value marshal cannot hold: not stored
            return
        safety.write_file(self.file, data, self.directory)


def _encode_rest(traces, known: dict, scans: dict) -> tuple:
    """The third section: traces, summaries and scans as plain values."""
    from .codec import encode, encode_many
    t = traces
    return ((t.prefix, t.names, t.fingerprints, t.masks, t.index_key, t.digests),
            {path: (sig, encode(found)) for path, (sig, found) in known.items()},
            {key: (encode_many(infos), problems, dirs, listings)
             for key, (infos, problems, dirs, listings) in scans.items()})


def _decode_previous(report_section, rest) -> tuple:
    """(report, traces, summaries, scans) from the second and third sections."""
    from .codec import CacheFormatError, decode, decode_many
    from .results import Traces
    traces, known, scans = rest
    if not (traces.__class__ is tuple and known.__class__ is dict and scans.__class__ is dict):
        raise CacheFormatError("malformed run")
    summaries = {path: (sig, decode(found)) for path, (sig, found) in known.items()}
    return (decode(report_section), Traces(*traces), summaries,
            {key: (decode_many(infos), problems, dirs, listings)
             for key, (infos, problems, dirs, listings) in scans.items()})
