"""Run a pure function over slices of work in forked processes (IO edge).

Fork, not a process pool: the children inherit the parsed facts and the module map without
pickling them (tens of megabytes on large packages), and send back only their results.
"""
from __future__ import annotations

import gc
import os
import pickle
from contextlib import contextmanager
from typing import Callable, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")


@contextmanager
def no_cyclic_gc():
    """Facts and simulator states hold no reference cycles worth collecting; the cyclic
    collector only rescans the growing heap (seconds on large packages)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            # what the block allocated would otherwise all be young: the first collection
            # after gc.enable() would scan it (a third of a second on large packages). Freeze
            # then unfreeze moves it to the oldest generation without a scan
            gc.freeze()
            gc.unfreeze()
            gc.enable()


def _read_all(fd: int) -> bytes:
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 20)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def map_slices(fn: Callable[[Sequence[T]], list[R]], items: Sequence[T], workers: int,
               first: int | None = None) -> list[R]:
    """fn over `workers` contiguous slices of items, the first in this process, the others
    in forked children; results in order. `first`: the first slice's length (else all are
    equal). Falls back to one process where fork is missing or the work is small."""
    if workers <= 1 or not hasattr(os, "fork") or len(items) < 2 * workers:
        return fn(items)
    start = 0 if first is None else first
    size = -(-(len(items) - start) // (workers - (first is not None)))
    slices = ([items[:first]] if first is not None else []) + \
        [items[k:k + size] for k in range(start, len(items), size)]
    children = []
    for part in slices[1:]:
        read_fd, write_fd = os.pipe()
        pid = os.fork()
        if pid == 0:  # child: compute, send, never return into the caller's code
            os.close(read_fd)
            status = 0
            try:
                data = pickle.dumps(("ok", fn(part)), protocol=pickle.HIGHEST_PROTOCOL)
            except BaseException as exc:  # noqa: B902 - reported to the parent
                data, status = pickle.dumps(("error", repr(exc))), 1
            with os.fdopen(write_fd, "wb") as out:
                out.write(data)
            os._exit(status)
        os.close(write_fd)
        children.append((pid, read_fd))
    results = list(fn(slices[0]))
    for pid, read_fd in children:
        data = _read_all(read_fd)
        os.waitpid(pid, 0)
        kind, payload = pickle.loads(data) if data else ("error", "worker died")
        if kind != "ok":
            raise RuntimeError(f"simulation worker failed: {payload}")
        results.extend(payload)
    return results
