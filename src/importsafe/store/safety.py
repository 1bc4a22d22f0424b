"""Reading and writing cache files safely (IO edge).

A cache file is read only when it is a regular file owned by the current user that nobody
else may write (a cache restored from elsewhere, or shared between users, is refused, not
trusted), and its directories are made private (0700). A cache that cannot be used says so
once per kind of problem, as a CacheWarning, and the run goes on without it.
"""
from __future__ import annotations

import os
import stat
import warnings

MAX_FILE = 1 << 30  # bytes: no cache file of importsafe's comes near


class CacheWarning(UserWarning):
    """A cache directory or entry could not be used; the run goes on without it."""


_REGISTRY: dict = {}  # what warnings.warn_explicit has shown: each message once per process


def warn(directory: str, what: str) -> None:
    """Say (once per message) that the cache in `directory` could not be used."""
    warnings.warn_explicit(f"importsafe: cache {directory}: {what}; going on without it",
                           CacheWarning, "importsafe", 0, module="importsafe.store",
                           registry=_REGISTRY)


def untrusted(st: os.stat_result) -> str | None:
    """Why a file or directory with this status must not be trusted, or None."""
    if st.st_uid != os.geteuid():
        return "not owned by the current user"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "writable by other users"
    return None


def read_file(path: str, directory: str, size: int | None = None) -> bytes | None:
    """The bytes of a cache file (its first `size` ones, when given); None when it does not
    exist (a miss) or is refused (then a warning about `directory`, the cache's root, says
    why)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | os.O_NONBLOCK)
    except FileNotFoundError:
        return None
    except OSError as exc:
        warn(directory, f"cannot read an entry ({exc.strerror})")
        return None
    try:
        st = os.fstat(fd)
        why = "not a regular file" if not stat.S_ISREG(st.st_mode) else untrusted(st)
        if why is None and st.st_size > MAX_FILE:
            why = "an entry is too large"
        if why is not None:
            warn(directory, f"entry refused: {why}")
            return None
        if size is not None:
            return os.pread(fd, size, 0)
        chunks, size = [], st.st_size + 1
        while True:
            chunk = os.read(fd, size)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size = 1 << 20
    except OSError as exc:
        warn(directory, f"cannot read an entry ({exc.strerror})")
        return None
    finally:
        os.close(fd)


def check_root(directory: str) -> str | None:
    """Why the cache root `directory` cannot be used, or None (it may not exist yet). A root
    of the current user's is made private (0700)."""
    try:
        st = os.lstat(directory)
    except FileNotFoundError:
        return None
    except OSError as exc:
        return f"cannot inspect ({exc.strerror})"
    if stat.S_ISLNK(st.st_mode):
        try:
            st = os.stat(directory)
        except OSError as exc:
            return f"cannot inspect ({exc.strerror})"
    if not stat.S_ISDIR(st.st_mode):
        return "not a directory"
    if st.st_uid != os.geteuid():
        return "not owned by the current user"
    if stat.S_IMODE(st.st_mode) & 0o077:
        try:
            os.chmod(directory, 0o700)
        except OSError:
            if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
                return "writable by other users"
    return None


def private_dirs(directory: str) -> None:
    """Make `directory` and every missing parent, each 0700."""
    missing = []
    d = directory
    while d and not os.path.isdir(d):
        missing.append(d)
        parent = os.path.dirname(d)
        if parent == d:
            break
        d = parent
    for d in reversed(missing):
        try:
            os.mkdir(d, 0o700)
        except FileExistsError:
            pass


def write_file(target: str, data: bytes, directory: str) -> None:
    """Write `data` to a temporary file beside `target` (0600), then rename: readers never see
    half an entry. A read-only or full disk costs speed (and one warning)."""
    import tempfile
    tmp = None
    try:
        private_dirs(os.path.dirname(target))
        fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), suffix=".tmp")
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, target)
        tmp = None
    except OSError as exc:
        warn(directory, f"cannot write ({exc.strerror})")
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
