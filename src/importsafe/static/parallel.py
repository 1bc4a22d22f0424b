"""Run a pure function over shares of work in forked processes (IO edge).

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


_CURSORS = struct.Struct("=qq")  # a slice's next item from the front, and its end
_END = struct.Struct("=q")


def _claims(items: Sequence[T], shared: mmap.mmap, me: int, workers: int,
            taken: list[int]) -> Iterator[T]:
    """The items worker `me` takes, their indices appended to `taken`: its own contiguous
    slice, front to back, then items from the back of the slice with the most left, until
    none is left.

    Why: slices of equal length can cost very unequal times (openai's first half of entries
    costs twice its second), while contiguous slices keep what neighbouring items share (the
    simulator's memo): taking from the far end keeps both. Lock-free: each slice's front is
    written by its owner only, its end by the others, each as one aligned 8-byte store in a
    shared anonymous map. A claim reads both and takes front (owner) or end - 1 (any other)
    if that is still inside; two readers of one value may both take that item, so an item
    may be done twice where two workers meet (fn must give the same result for it anywhere),
    but every claimed value is one below a value read, so no item is left out."""
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


def map_streamed(fn: Callable[[Iterator[T]], Iterator[R]], items: Sequence[T], workers: int,
                 every: int = 32, take: Callable[[R], None] | None = None) -> list[R]:
    """fn over items in `workers` processes (this one and forked children) that share them
    out as they go (_claims); fn takes an iterator of items and yields one result per item,
    as it goes; results come back in the order of items. Each child sends its results every
    `every` items, and this process reads what has come between its own items: the pickling
    and the reading are spread over the work, so the processes end together and the last
    batch is all that is left to read. `take`, if given, is called here on each result as it
    comes (in no set order; an item two processes took at once comes twice), so that what
    the caller derives from them is done while the children still work.

    Why (the parse stage of a cold check, then its simulation): with whole shares sent at the
    end, the child's pickling and this process's reading of it ran after the work, one
    process idle each time, and a fixed split of the files had to guess their cost."""
    n = len(items)
    if workers <= 1 or not hasattr(os, "fork") or n < 2 * workers:
        out = list(fn(iter(items)))
        if take is not None:
            for result in out:
                take(result)
        return out
    bounds = [n * k // workers for k in range(workers + 1)]
    shared = mmap.mmap(-1, _CURSORS.size * workers)
    for k in range(workers):
        _CURSORS.pack_into(shared, _CURSORS.size * k, bounds[k], bounds[k + 1])
    missing = object()
    results: list = [missing] * n

    def child(me: int) -> None:
        def send(data: bytes) -> None:
            view = memoryview(_FRAME.pack(len(data)) + data)
            while view:
                view = view[os.write(write_fd, view):]
        taken: list[int] = []
        done = 0
        try:
            batch: list = []
            for result in fn(_claims(items, shared, me, workers, taken)):
                batch.append(result)
                if len(batch) >= every:
                    send(pickle.dumps(("ok", taken[done:done + len(batch)], batch),
                                      protocol=pickle.HIGHEST_PROTOCOL))
                    done += len(batch)
                    batch = []
            if batch:
                send(pickle.dumps(("ok", taken[done:], batch), protocol=pickle.HIGHEST_PROTOCOL))
        except BaseException as exc:  # noqa: B902 - reported to the parent
            send(pickle.dumps(("error", repr(exc), None)))
            os._exit(1)
        os._exit(0)

    readers: list[_Frames] = []
    try:
        for me in range(1, workers):
            read_fd, write_fd = os.pipe()
            _widen(write_fd)
            pid = os.fork()
            if pid == 0:
                os.close(read_fd)
                try:
                    for reader in readers:
                        os.close(reader.fd)
                    child(me)
                finally:
                    os._exit(1)  # child() exits itself; here only if sending failed
            os.close(write_fd)
            readers.append(_Frames(pid, read_fd, results, take))
        taken: list[int] = []
        mine = []
        for result in fn(_claims(items, shared, 0, workers, taken)):
            mine.append(result)
            if take is not None:
                take(result)
            for reader in readers:
                reader.poll()
        for reader in readers:
            reader.drain()
    except BaseException:
        _stop([(r.pid, r.fd) for r in readers if not r.closed])
        raise
    finally:
        shared.close()
    for index, result in zip(taken, mine):
        results[index] = result
    if len(taken) != len(mine) or any(r is missing for r in results):
        raise RuntimeError("an item was left out")  # cannot happen: see _claims
    return results


_FRAME = struct.Struct("=q")  # the length of one pickled batch, before it


def _widen(fd: int) -> None:
    """Let a pipe hold a megabyte where the system allows it (Linux), so that a child seldom
    waits for this process to read it."""
    try:
        import fcntl
        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, 1 << 20)
    except (ImportError, AttributeError, OSError):
        pass  # a smaller pipe only means more waits


class _Frames:
    """The batches a child of map_streamed sends: read while it works (poll, which never
    waits), then to its end (drain); each batch's results go to their indices in
    `results`."""

    def __init__(self, pid: int, fd: int, results: list, take=None):
        self.pid, self.fd, self.results, self.take = pid, fd, results, take
        self.buffer = bytearray()
        self.closed = False
        os.set_blocking(fd, False)

    def poll(self) -> None:
        try:
            chunk = os.read(self.fd, 1 << 20)
        except BlockingIOError:
            return
        if chunk:
            self.buffer += chunk
            self._take()

    def drain(self) -> None:
        os.set_blocking(self.fd, True)
        while True:
            chunk = os.read(self.fd, 1 << 20)
            if not chunk:
                break
            self.buffer += chunk
            self._take()
        os.close(self.fd)
        self.closed = True
        _, status = os.waitpid(self.pid, 0)
        if self.buffer or status != 0:
            raise RuntimeError("worker died")

    def _take(self) -> None:
        buffer, at = self.buffer, 0
        while len(buffer) - at >= _FRAME.size:
            (size,) = _FRAME.unpack_from(buffer, at)
            end = at + _FRAME.size + size
            if len(buffer) < end:
                break
            kind, taken, found = pickle.loads(buffer[at + _FRAME.size:end])
            if kind != "ok":
                raise RuntimeError(f"worker failed: {taken}")
            for index, result in zip(taken, found):
                self.results[index] = result
            if self.take is not None:
                for result in found:
                    self.take(result)
            at = end
        del buffer[:at]


def _stop(children: list[tuple[int, int]]) -> None:
    for pid, read_fd in children:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass  # gone already
        os.close(read_fd)
        os.waitpid(pid, 0)

