"""Run a pure function over slices of work in forked processes (IO edge).

Fork, not a process pool: the children inherit the parsed facts and the module map without
pickling them (tens of megabytes on large packages), and send back only their results.
"""
from __future__ import annotations

import gc
import mmap
import os
import pickle
import signal
import struct
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence, TypeVar

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


_CURSORS = struct.Struct("=qq")  # a slice's next item from the front, and its end
_END = struct.Struct("=q")


def map_shared(fn: Callable[[Iterator[T]], list[R]], items: Sequence[T], workers: int
               ) -> list[R]:
    """fn over items in `workers` processes (this one and forked children) that share them
    out as they go: each starts on its own contiguous slice, front to back, and one that has
    finished its slice takes items from the back of the slice with the most left, until none
    is left. fn takes an iterator of items and returns one result per item it took, in order;
    results come back in the order of items.

    Why: slices of equal length can cost very unequal times (openai's first half of entries
    costs twice its second), while contiguous slices keep what neighbouring items share (the
    simulator's memo): taking from the far end keeps both. Lock-free: each slice's front is
    written by its owner only, its end by the others, each as one aligned 8-byte store in a
    shared anonymous map. A claim reads both and takes front (owner) or end - 1 (any other)
    if that is still inside; two readers of one value may both take that item, so an item
    may be done twice where two workers meet (fn must give the same result for it anywhere),
    but every claimed value is one below a value read, so no item is left out."""
    n = len(items)
    if workers <= 1 or not hasattr(os, "fork") or n < 2 * workers:
        return fn(iter(items))
    bounds = [n * k // workers for k in range(workers + 1)]
    shared = mmap.mmap(-1, _CURSORS.size * workers)  # MAP_SHARED: the children write here too
    for k in range(workers):
        _CURSORS.pack_into(shared, _CURSORS.size * k, bounds[k], bounds[k + 1])

    def run(me: int) -> tuple[list[int], list[R]]:
        taken: list[int] = []
        return taken, fn(_claims(items, shared, me, workers, taken))

    children = [_fork(lambda me=me: run(me)) for me in range(1, workers)]
    parts = _gather(children, lambda: run(0))
    shared.close()
    missing = object()
    results: list = [missing] * n
    for taken, found in parts:
        if len(taken) != len(found):
            raise RuntimeError("a worker gave a result per item it did not take")
        for index, result in zip(taken, found):
            results[index] = result
    if any(r is missing for r in results):
        raise RuntimeError("an item was left out")  # cannot happen: see the docstring
    return results


def _claims(items: Sequence[T], shared: mmap.mmap, me: int, workers: int,
            taken: list[int]) -> Iterator[T]:
    """The items worker `me` takes (map_shared), their indices appended to `taken`."""
    size, unpack, pack = _CURSORS.size, _CURSORS.unpack_from, _END.pack_into
    mine = size * me
    while True:  # my slice, from the front
        front, end = unpack(shared, mine)
        if front >= end:
            break
        pack(shared, mine, front + 1)
        taken.append(front)
        yield items[front]
    while True:  # the others', from the back of the one with the most left
        best, left = -1, 0
        for k in range(workers):
            if k != me:
                front, end = unpack(shared, size * k)
                if end - front > left:
                    best, left = k, end - front
        if best < 0:
            return
        front, end = unpack(shared, size * best)
        if end - 1 < front:
            continue
        pack(shared, size * best + _END.size, end - 1)
        taken.append(end - 1)
        yield items[end - 1]


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
    children = [_fork(lambda part=part: fn(part)) for part in slices[1:]]
    return [r for part in _gather(children, lambda: fn(slices[0])) for r in part]


def _fork(work: Callable[[], object]) -> tuple[int, int]:
    """A child that runs `work` and sends its pickled result (or its error) through a pipe:
    (its pid, the pipe's reading end)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: compute, send, never return into the caller's code
        os.close(read_fd)
        status = 0
        try:
            data = pickle.dumps(("ok", work()), protocol=pickle.HIGHEST_PROTOCOL)
        except BaseException as exc:  # noqa: B902 - reported to the parent
            data, status = pickle.dumps(("error", repr(exc))), 1
        with os.fdopen(write_fd, "wb") as out:
            out.write(data)
        os._exit(status)
    os.close(write_fd)
    return pid, read_fd


def _gather(children: list[tuple[int, int]], mine: Callable[[], R]) -> list:
    """[mine(), then each child's result], run here while the children work. Every child is
    reaped whatever happens: when this process's share or a child fails, the children not
    read yet are killed (a library caller would otherwise keep them as zombies, or wait for
    work whose result is thrown away)."""
    try:
        out = [mine()]
    except BaseException:
        _stop(children)
        raise
    for k, (pid, read_fd) in enumerate(children):
        try:
            data = _read_all(read_fd)
        finally:
            os.waitpid(pid, 0)
        kind, payload = pickle.loads(data) if data else ("error", "worker died")
        if kind != "ok":
            _stop(children[k + 1:])
            raise RuntimeError(f"worker failed: {payload}")
        out.append(payload)
    return out


def _stop(children: list[tuple[int, int]]) -> None:
    for pid, read_fd in children:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass  # gone already
        os.close(read_fd)
        os.waitpid(pid, 0)
