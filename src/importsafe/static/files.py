"""Reading the analysed tree's files: regular files only, of a sensible size (IO edge).

A FIFO named `mod.py` would block a plain open() forever, a symlink to /dev/zero would be
read until memory runs out, and a device or socket has no source to give: each is refused
with an OSError saying why (the callers turn it into a diagnostic).
"""
from __future__ import annotations

import errno
import mmap
import os
import re
import stat

MAX_SOURCE = 64 << 20  # bytes: larger than any real module; CPython imports it, we say unknown


class NotRegularFile(OSError):
    """A path that is not a regular file, or one too large to analyse."""


def open_regular(path: str) -> int:
    """A descriptor of `path` opened for reading, if it is a regular file (never blocks)."""
    return _open(path)[0]


def _open(path: str) -> tuple[int, os.stat_result]:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRegularFile(errno.EINVAL, f"not a regular file ({file_kind(st.st_mode)})",
                                 path)
    except BaseException:
        os.close(fd)
        raise
    return fd, st


def read_regular(path: str, limit: int | None = None) -> bytes:
    """A regular file's bytes, read with system calls alone (open() also builds a buffered
    reader, a tenth of the time it takes to read a module); NotRegularFile for anything else
    or for a file larger than `limit` (MAX_SOURCE by default)."""
    limit = MAX_SOURCE if limit is None else limit
    fd, st = _open(path)
    try:
        size = st.st_size
        if size > limit:
            raise NotRegularFile(errno.EFBIG, f"file too large ({size >> 20} MiB; the limit "
                                 f"is {limit >> 20} MiB)", path)
        size += 1  # one more, to see the end at once
        chunks, total = [], 0
        while True:
            chunk = os.read(fd, size)
            if not chunk:
                return b"".join(chunks)
            total += len(chunk)
            if total > limit:  # it grew while read
                raise NotRegularFile(errno.EFBIG, "file too large", path)
            chunks.append(chunk)
            size = 1 << 20
    finally:
        os.close(fd)


def file_kind(mode: int) -> str:
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"),
                       (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
                       (stat.S_ISDIR, "a directory")):
        if test(mode):
            return name
    return "not a file"


MAX_BINARY = 1 << 30  # bytes: an extension module larger than this is not searched
# a C string of an identifier or a dotted name (a function the code looks up, a module it
# imports), NUL-terminated as compiled strings are
_C_NAME = re.compile(rb"([A-Za-z_][A-Za-z0-9_.]{0,200})\0")


def binary_names(path: str) -> frozenset[bytes]:
    """The identifiers and dotted names an extension module's binary holds as C strings;
    empty when it cannot be read (or is larger than MAX_BINARY)."""
    try:
        fd, st = _open(path)
    except OSError:
        return frozenset()
    try:
        if st.st_size == 0 or st.st_size > MAX_BINARY:
            return frozenset()
        with mmap.mmap(fd, 0, access=mmap.ACCESS_READ) as data:
            return frozenset(_C_NAME.findall(data))
    except (OSError, ValueError):
        return frozenset()
    finally:
        os.close(fd)
