"""Has CPython compiled this very source before? (IO edge: reads bytecode file headers.)

A module's bytecode file in `__pycache__` records what it was compiled from: the source's
modification time and size, or its hash (PEP 552). When the record matches, this interpreter
would load that bytecode instead of compiling the source again, so the source compiles: it
has no syntax error anywhere, function bodies included. facts.facts_from_source then parses
only what the fact extractor reads (skim.py) and leaves bodies for later; without such a
record it parses everything, as it must to see a syntax error in a body.

The check is importlib's own (SourceLoader.get_code): the magic number of this interpreter,
then the flags, then mtime and size, or the source hash. Both places a bytecode file may be
are tried: the `__pycache__` beside the source (pip writes it when it installs a package) and
under sys.pycache_prefix.
"""
from __future__ import annotations

import os
import sys
from importlib.util import MAGIC_NUMBER, cache_from_source, source_hash

from .files import open_regular

_TAG = sys.implementation.cache_tag


def bytecode_paths(path: str) -> tuple[str, ...]:
    """Where this interpreter may have written the bytecode of the source `path`."""
    return tuple(_candidates(path))


def _candidates(path: str):
    """bytecode_paths in the order tried, the one under sys.pycache_prefix worked out only
    when asked for."""
    if _TAG is None:
        return
    head, tail = os.path.split(path)
    stem = tail.rpartition(".")[0] if "." in tail else tail
    yield os.path.join(head, "__pycache__", f"{stem}.{_TAG}.pyc")
    if sys.pycache_prefix:
        yield cache_from_source(path)  # under the prefix


def _header(path: str) -> bytes:
    """The first 16 bytes of a file (b"" when it cannot be read): two system calls fewer
    than open(), which also builds a buffered reader (one file per module)."""
    try:
        fd = open_regular(path)  # a FIFO in __pycache__ must not block the parse
    except OSError:
        return b""
    try:
        return os.read(fd, 16)
    except OSError:
        return b""
    finally:
        os.close(fd)


def compiled_before(path: str, source: bytes) -> bool:
    """Does a bytecode file of this interpreter record exactly `source` (read from `path`)?"""
    if not path.endswith(".py"):
        return False
    stat = None
    for candidate in _candidates(path):
        header = _header(candidate)
        if len(header) < 16 or header[:4] != MAGIC_NUMBER:
            continue
        flags = int.from_bytes(header[4:8], "little")
        if flags & ~0b11:
            continue  # unknown flags: importlib rejects the file
        if flags & 0b01:  # hash-based (checked or not: the hash decides here)
            if header[8:16] == source_hash(source):
                return True
            continue
        if stat is None:
            try:
                stat = os.stat(path)
            except OSError:
                return False
        if int(stat.st_mtime) & 0xFFFFFFFF == int.from_bytes(header[8:12], "little") and \
                stat.st_size & 0xFFFFFFFF == int.from_bytes(header[12:16], "little") and \
                stat.st_size == len(source):
            return True
    return False


__all__ = ["compiled_before", "bytecode_paths"]
