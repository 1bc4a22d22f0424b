"""Writing a fix to the user's files: every file or none, nothing of theirs lost (IO edge).

1. Check and prepare: resolve each path (a symlink's target is what gets edited), check it is
   unchanged since it was read and can be opened for writing (an immutable file cannot); then
   write the new
   text to a temporary file beside it with the same mode, owner and extended attributes.
   Where a rename would lose something (hard links, an owner or xattr that cannot be copied)
   the file is written in place instead.
2. Journal: a small file beside the first target names every target, temporary file and
   backup before any of them is made (and again once it is known which files are written in
   place), so that a process killed between two renames is undone by the next run
   (`recover`): the tree is then byte-identical to before.
3. Commit: each original gets a backup (a hard link, else a copy); under an advisory lock
   (flock) the target is read again and must still hold the text the fix was computed from;
   then the temporary file is renamed over it (or the text written in place). On any failure
   every file done so far is restored from its backup and every temporary file removed.
"""
from __future__ import annotations

import errno
import fcntl
import json
import os
import tempfile
from dataclasses import dataclass, replace
from typing import Callable, Sequence

from ..static.files import read_regular

JOURNAL_PREFIX = ".importsafe-journal-"
TEMP_PREFIX = ".importsafe-"


class WriteAbort(Exception):
    """Why nothing was written (the message is for the user)."""


@dataclass(frozen=True, slots=True)
class _Target:
    shown: str  # the path as given
    path: str  # the resolved file that is edited
    old: bytes
    new: bytes
    temp: str  # the new text, renamed over the file (unless in place)
    backup: str  # the original, until the end
    in_place: bool = False


def write_all(items: Sequence[tuple[str, bytes, bytes]],
              hook: Callable[[str, int], None] | None = None) -> tuple[str, ...]:
    """Write every (path, expected old bytes, new bytes) or none; WriteAbort says why.
    `hook(stage, i)` runs between steps (tests kill the process there)."""
    hook = hook or (lambda stage, i: None)
    checked = [_check(shown, old) for shown, old, _ in items]
    journal = _journal_path(checked[0][1])
    token = os.path.basename(journal)[len(JOURNAL_PREFIX):-len(".json")]
    targets = [_Target(shown, path, old, new, os.path.join(os.path.dirname(path),
                                                           f"{TEMP_PREFIX}{token}-{i}.py"),
                       os.path.join(os.path.dirname(path), f"{TEMP_PREFIX}{token}-{i}-orig.py"))
               for i, ((shown, path, old, _), (_, _, new)) in enumerate(zip(checked, items))]
    done: list[_Target] = []
    try:
        _save_journal(journal, targets)  # first: whatever is created next, it names it
        hook("journal", 0)
        targets = [_prepare(t, st) for t, (_, _, _, st) in zip(targets, checked)]
        _save_journal(journal, targets)  # now with the way each file is written
        hook("prepared", len(targets))
        for t in targets:
            _backup(t)
        for i, t in enumerate(targets):
            hook("commit", i)
            _commit(t)
            done.append(t)
        hook("committed", len(done))
    except BaseException as exc:
        for t in reversed(done):
            _restore(t)
        _clean(targets, journal)
        if isinstance(exc, WriteAbort):
            raise
        if isinstance(exc, OSError):
            raise WriteAbort(f"cannot write {exc.filename or 'a file'}: "
                             f"{exc.strerror or exc}; nothing was written") from None
        raise
    _clean(targets, journal)
    return tuple(t.shown for t in targets)


def _check(shown: str, old: bytes) -> tuple[str, str, bytes, os.stat_result]:
    """Resolved, unchanged since read, and writable; no side effect."""
    path = os.path.realpath(shown)
    try:
        current = read_regular(path)
    except OSError as exc:
        raise WriteAbort(f"cannot read {shown}: {exc.strerror or exc}; nothing was written") \
            from None
    if current != old:
        raise WriteAbort(f"{shown} changed while importsafe was working; nothing was written")
    try:  # an immutable or read-only file refuses this, and no rename should replace it
        os.close(os.open(path, os.O_WRONLY))
    except OSError as exc:
        raise WriteAbort(f"cannot write {shown}: {exc.strerror}; nothing was written") from None
    if not os.access(os.path.dirname(path), os.W_OK):
        raise WriteAbort(f"cannot write beside {shown}: its directory is read-only; "
                         "nothing was written")
    return shown, path, old, os.stat(path)


def _journal_path(first: str) -> str:
    try:
        fd, journal = tempfile.mkstemp(dir=os.path.dirname(first), prefix=JOURNAL_PREFIX,
                                       suffix=".json")
    except OSError as exc:
        raise WriteAbort(f"cannot write beside {first}: {exc.strerror}; nothing was written") \
            from None
    os.close(fd)
    return journal


def _save_journal(journal: str, targets) -> None:
    part = journal + ".part"
    with open(part, "w") as f:
        json.dump({"files": [{"path": t.path, "temp": t.temp, "backup": t.backup,
                              "in_place": t.in_place} for t in targets]}, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(part, journal)


def _prepare(t: "_Target", st: os.stat_result) -> "_Target":
    """The new text in the temporary file, with the original's mode, owner and xattrs; in
    place instead where a rename would lose hard links or something that cannot be copied."""
    if st.st_nlink == 1 and _temp_copy(t.temp, t.new, st, t.path):
        return t
    return replace(t, in_place=True)


def _temp_copy(temp: str, new: bytes, st: os.stat_result, path: str) -> bool:
    try:
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise WriteAbort(f"cannot write beside {path}: {exc.strerror}; nothing was written") \
            from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(new)
            out.flush()
            os.fsync(out.fileno())
        if (st.st_uid, st.st_gid) != (os.getuid(), os.getgid()):
            os.chown(temp, st.st_uid, st.st_gid)
        os.chmod(temp, st.st_mode & 0o7777)  # after chown, which clears set-id bits
        _copy_xattrs(path, temp)
    except OSError:
        os.unlink(temp)
        return False
    return True


def _copy_xattrs(src: str, dst: str) -> None:
    if not hasattr(os, "listxattr"):
        return
    try:
        names = os.listxattr(src)
    except OSError as exc:
        if exc.errno in (errno.ENOTSUP, errno.EOPNOTSUPP):
            return
        raise
    for name in names:
        os.setxattr(dst, name, os.getxattr(src, name))


def _write_journal(targets: list[_Target]) -> str:
    directory = os.path.dirname(targets[0].path)
    fd, journal = tempfile.mkstemp(dir=directory, prefix=JOURNAL_PREFIX, suffix=".json")
    with os.fdopen(fd, "w") as f:
        json.dump({"files": [{"path": t.path, "temp": t.temp, "backup": t.backup}
                             for t in targets]}, f)
        f.flush()
        os.fsync(f.fileno())
    return journal


def _backup(t: _Target) -> None:
    """The original, kept until the end: a hard link where the file is replaced by a
    rename, else a copy (renamed into place whole, so a recovery never reads half of it)."""
    if not t.in_place:
        try:
            os.link(t.path, t.backup)
            return
        except OSError:
            pass
    part = t.backup + ".part"
    with open(part, "wb") as f:
        f.write(t.old)
        f.flush()
        os.fsync(f.fileno())
    os.replace(part, t.backup)


def _commit(t: _Target) -> None:
    """Under an advisory lock: still the old text? then replace it."""
    fd = os.open(t.path, os.O_RDWR)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise WriteAbort(f"{t.shown} is locked by another process; nothing was written") \
                from None
        if _read_fd(fd) != t.old:
            raise WriteAbort(f"{t.shown} changed while importsafe was writing; nothing was "
                             "written")
        if not t.in_place:
            os.replace(t.temp, t.path)
        else:
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, t.new)
            os.ftruncate(fd, len(t.new))
            os.fsync(fd)
    finally:
        os.close(fd)


def _read_fd(fd: int) -> bytes:
    os.lseek(fd, 0, os.SEEK_SET)
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


def _restore(t: _Target) -> None:
    if not t.in_place:
        os.replace(t.backup, t.path)
    else:
        with open(t.path, "r+b") as f:
            f.write(t.old)
            f.truncate()


def _clean(targets, journal: str) -> None:
    for t in targets:
        for path in (t.temp, t.backup, t.backup + ".part"):
            if os.path.lexists(path):
                os.unlink(path)
    for path in (journal, journal + ".part"):
        if os.path.lexists(path):
            os.unlink(path)


def recover(directories) -> list[str]:
    """Undo an interrupted write found in `directories`: every file back as it was before,
    temporary files and backups removed. Returns the files restored."""
    restored = []
    for directory in sorted(set(directories)):
        try:
            names = [n for n in os.listdir(directory)
                     if n.startswith(JOURNAL_PREFIX) and n.endswith(".json")]
        except OSError:
            continue
        for name in names:
            journal = os.path.join(directory, name)
            try:
                with open(journal) as f:
                    files = json.load(f)["files"]
            except OSError:
                continue
            except (ValueError, KeyError):  # killed before it was first saved: nothing made
                files = []
            for stray in (journal + ".part",):
                if os.path.lexists(stray):
                    os.unlink(stray)
            for entry in files:
                if _undo(entry["path"], entry["temp"], entry["backup"], entry["in_place"]):
                    restored.append(entry["path"])
            os.unlink(journal)
    return restored


def _undo(path: str, temp: str, backup: str, in_place: bool) -> bool:
    changed = False
    if os.path.lexists(backup):
        if in_place:
            with open(backup, "rb") as f:
                old = f.read()
            with open(path, "r+b") as f:
                changed = f.read() != old
                f.seek(0)
                f.write(old)
                f.truncate()
        else:
            changed = not os.path.samefile(backup, path)
            os.replace(backup, path)  # the same file already: nothing happens
        if os.path.lexists(backup):
            os.unlink(backup)
    for stray in (temp, backup + ".part"):
        if os.path.lexists(stray):
            os.unlink(stray)
    return changed
