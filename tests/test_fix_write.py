"""`fix --write` on hostile trees: each hazard ends with the tree fully fixed or
byte-identical to before (plus whatever someone else wrote meanwhile), no stray files."""
from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from importsafe.fix import apply as fixing
from importsafe.fix import write as writing
from test_cli import EXAMPLE, run_cli

FIRST = "compiler_pkg/program/_program.py"  # the files the example's fix edits, in order
SECOND = "compiler_pkg/verifier.py"


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and not p.is_symlink()}


def strays(root: Path) -> list[str]:
    return [str(p) for p in root.rglob(".importsafe-*")]


@pytest.fixture
def example(tmp_path):
    shutil.copytree(EXAMPLE, tmp_path / "compiler_pkg")
    return tmp_path


def fixed_snapshot(tmp_path_factory) -> dict[str, bytes]:
    root = tmp_path_factory.mktemp("fixed")
    shutil.copytree(EXAMPLE, root / "compiler_pkg")
    outcome = fixing.fix([str(root / "compiler_pkg")], write=True)
    assert outcome.problem is None and len(outcome.written) == 2
    return snapshot(root)


@pytest.fixture(scope="module")
def fixed(tmp_path_factory):
    return fixed_snapshot(tmp_path_factory)


def fix(root: Path, hook=None):
    return fixing.fix([str(root / "compiler_pkg")], write=True, hook=hook)


def test_plain_write_and_nothing_stray(example, fixed):
    outcome = fix(example)
    assert outcome.problem is None
    assert snapshot(example) == fixed and strays(example) == []


def test_immutable_file_writes_nothing(example):
    target = example / SECOND
    if subprocess.run(["chattr", "+i", str(target)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here (needs root and a filesystem with it)")
    try:
        before = snapshot(example)
        outcome = fix(example)
        assert outcome.problem is not None and "nothing was written" in outcome.problem
        assert "verifier.py" in outcome.problem and outcome.written == ()
        assert snapshot(example) == before and strays(example) == []
    finally:
        subprocess.run(["chattr", "-i", str(target)], check=True)


def test_read_only_mount_writes_nothing_and_cli_says_why(example):
    target = example / "compiler_pkg" / "program"
    bind = subprocess.run(["mount", "--bind", str(target), str(target)], capture_output=True)
    if bind.returncode != 0:
        pytest.skip(f"cannot bind-mount here: {bind.stderr.decode().strip()}")
    try:
        if subprocess.run(["mount", "-o", "remount,ro,bind", str(target)],
                          capture_output=True).returncode != 0:
            pytest.skip("cannot remount read-only here")
        before = snapshot(example)
        proc = run_cli("fix", example / "compiler_pkg", "--write")
        assert proc.returncode == 1 and "Traceback" not in proc.stderr
        assert "nothing was written" in proc.stdout and "_program.py" in proc.stdout
        assert snapshot(example) == before and strays(example) == []
    finally:
        subprocess.run(["umount", str(target)], check=True)


def test_failure_after_the_first_rename_restores_it(example):
    before = snapshot(example)

    def hook(stage, i):
        if stage == "commit" and i == 1:
            raise OSError(errno.EROFS, "Read-only file system", str(example / SECOND))
    outcome = fix(example, hook)
    assert outcome.problem and "Read-only file system" in outcome.problem
    assert snapshot(example) == before and strays(example) == []


def test_change_after_the_check_aborts_and_keeps_the_change(example):
    target = example / SECOND
    before = snapshot(example)

    def hook(stage, i):
        if stage == "commit" and i == 1:  # the first file is already replaced
            with open(target, "a") as f:
                f.write("# someone else's line\n")
    outcome = fix(example, hook)
    assert outcome.problem and "changed while importsafe was writing" in outcome.problem
    after = snapshot(example)
    assert after[SECOND] == before[SECOND] + b"# someone else's line\n"
    after[SECOND] = before[SECOND]
    assert after == before and strays(example) == []


def test_change_between_plan_and_write_aborts(example):
    plan = fixing.plan([str(example / "compiler_pkg")])
    with open(example / FIRST, "a") as f:
        f.write("X = 1\n")
    before = snapshot(example)
    written, problem = fixing.write_patches(plan.plan.patches)
    assert written == () and "changed while importsafe was working" in problem
    assert snapshot(example) == before


def test_locked_file_aborts(example):
    import fcntl
    before = snapshot(example)
    with open(example / SECOND) as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        outcome = fix(example)
    assert outcome.problem and "locked by another process" in outcome.problem
    assert snapshot(example) == before and strays(example) == []


def test_symlinked_module_edits_its_target(example, fixed):
    real = example / "elsewhere" / "verifier.py"
    real.parent.mkdir()
    link = example / SECOND
    shutil.move(link, real)
    link.symlink_to(real)
    outcome = fix(example)
    assert outcome.problem is None
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_bytes() == fixed[SECOND]


def test_owner_mode_and_xattrs_are_kept(example, fixed):
    target = example / SECOND
    os.chmod(target, 0o640)
    try:
        os.chown(target, 4321, 4322)
    except PermissionError:
        pytest.skip("changing a file's owner needs root")
    try:
        os.setxattr(target, "user.importsafe-test", b"kept")
        xattr = True
    except OSError:
        xattr = False
    assert fix(example).problem is None
    st = os.stat(target)
    assert (st.st_uid, st.st_gid, st.st_mode & 0o7777) == (4321, 4322, 0o640)
    if xattr:
        assert os.getxattr(target, "user.importsafe-test") == b"kept"
    assert target.read_bytes() == fixed[SECOND]


def test_hard_link_is_written_in_place(example, fixed):
    target = example / SECOND
    other = example / "verifier-hardlink.txt"
    os.link(target, other)
    inode = os.stat(target).st_ino
    assert fix(example).problem is None
    assert os.stat(target).st_ino == inode and os.stat(target).st_nlink == 2
    assert other.read_bytes() == fixed[SECOND] == target.read_bytes()
    assert strays(example) == []


CHILD = """
import os, signal, sys
from importsafe.fix import apply as fixing
def hook(stage, i):
    if stage == sys.argv[2] and i == int(sys.argv[3]):
        os.kill(os.getpid(), signal.SIGKILL)
fixing.fix([sys.argv[1]], write=True, hook=hook)
"""


@pytest.mark.parametrize("stage,at", [("commit", 1), ("committed", 2), ("prepared", 2), ("journal", 0)])
def test_sigkill_during_the_write_is_undone_by_the_next_run(example, fixed, stage, at):
    before = snapshot(example)
    proc = subprocess.run([sys.executable, "-c", CHILD, str(example / "compiler_pkg"), stage,
                           str(at)], capture_output=True, text=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    if stage == "commit":
        assert snapshot(example)[FIRST] == fixed[FIRST]  # killed between the two renames
    restored = writing.recover({str(example / "compiler_pkg"),
                                str(example / "compiler_pkg" / "program")})
    assert snapshot(example) == before and strays(example) == []
    assert bool(restored) == (stage in ("commit", "committed"))
    # and the next `fix --write` after a kill recovers by itself, then fixes
    subprocess.run([sys.executable, "-c", CHILD, str(example / "compiler_pkg"), stage,
                    str(at)], capture_output=True, timeout=120)
    proc = run_cli("fix", example / "compiler_pkg", "--write")
    assert "Traceback" not in proc.stderr
    assert snapshot(example) == fixed and strays(example) == []


def test_diff_and_write_prints_and_writes(example, fixed):
    proc = run_cli("fix", example / "compiler_pkg", "--diff", "--write")
    assert proc.stdout.count("+++ b/") == 2 and "wrote 2 file(s)" in proc.stdout
    assert snapshot(example) == fixed
