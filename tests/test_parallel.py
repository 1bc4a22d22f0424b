"""parallel.map_streamed: results in order, every item, with workers that take items from each
other's slices, and results that children send as they go."""
import os
import time

from importsafe.static.parallel import map_streamed


def tag_each(items):
    for item in items:
        yield item, os.getpid()


def test_streamed_work_comes_back_in_order_from_every_process():
    for workers, every in ((2, 32), (3, 1), (3, 7)):
        out = map_streamed(tag_each, list(range(500)), workers, every=every)
        assert [item for item, _ in out] == list(range(500))


def slow_here_each(items):
    for item in items:
        if os.getpid() == PARENT:
            time.sleep(0.002)
        yield item, os.getpid()


def test_a_streaming_child_done_early_takes_this_process_s_items():
    """The child is fast, this process slow: the child takes most items, from the far end of
    this process's slice too."""
    out = map_streamed(slow_here_each, list(range(400)), 2, every=4)
    assert [item for item, _ in out] == list(range(400))
    here = os.getpid()
    assert sum(pid != here for _, pid in out) > 250
    assert any(pid != here for item, pid in out if item < 200)


def big_each(items):
    for item in items:
        yield item, b"x" * 200_000  # batches of 6 MB: more than a pipe holds


def test_batches_larger_than_a_pipe_get_through():
    out = map_streamed(big_each, list(range(120)), 2)
    assert [item for item, _ in out] == list(range(120))
    assert all(len(data) == 200_000 for _, data in out)


def test_small_streamed_work_runs_here():
    assert map_streamed(tag_each, [1, 2, 3], 2) == [(1, PARENT), (2, PARENT), (3, PARENT)]


def fail_in_child_each(items):
    for item in items:
        if os.getpid() != PARENT and item % 50 == 7:
            raise ValueError(f"item {item}")
        yield item


def die_in_child_each(items):
    for item in items:
        if os.getpid() != PARENT:
            os._exit(3)  # killed at work: no error frame, an item taken and never sent
        time.sleep(0.002)  # slow here: the child gets items before this process is done
        yield item


def test_a_child_that_dies_is_reported_here():
    import pytest
    with pytest.raises(RuntimeError, match="worker died"):
        map_streamed(die_in_child_each, list(range(300)), 2, every=4)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_take_sees_every_result_here():
    """At least once: where two processes meet, both may take one item (_claims)."""
    seen = []
    out = map_streamed(tag_each, list(range(300)), 3, every=5, take=seen.append)
    assert {item for item, _ in seen} == set(range(300)) and set(out) <= set(seen)


def test_a_child_s_failure_is_reported_here_and_every_child_reaped():
    import pytest
    with pytest.raises(RuntimeError, match="worker failed: ValueError"):
        map_streamed(fail_in_child_each, list(range(300)), 3)
    with pytest.raises(ChildProcessError):
        os.waitpid(-1, os.WNOHANG)


def test_what_no_cyclic_gc_allocated_is_old_after_it():
    """The next collection after the block does not rescan what it allocated (the facts of a
    whole package, for a library caller): freeze + unfreeze moved it to the oldest
    generation, and the collector is on again."""
    import gc

    from importsafe.static.parallel import no_cyclic_gc
    was = gc.isenabled()
    gc.enable()
    try:
        with no_cyclic_gc():
            assert not gc.isenabled()
            marker = [[] for _ in range(10)]
        assert gc.isenabled()
        assert any(o is marker for o in gc.get_objects(generation=2))
        assert not any(o is marker for o in gc.get_objects(generation=0))
    finally:
        if not was:
            gc.disable()


def slow_first_half_each(items):
    for item in items:
        if item < 100:
            time.sleep(0.004)
        yield item, os.getpid()


def test_a_worker_done_early_takes_items_from_the_far_end_of_another_slice():
    """This process owns the slow first half; the child, done with its fast half, takes items
    from the end of this one's, which keeps its front."""
    out = map_streamed(slow_first_half_each, list(range(200)), 2, every=4)
    assert [item for item, _ in out] == list(range(200))
    here = os.getpid()
    assert any(pid != here for item, pid in out if item < 100)
    assert all(pid == here for item, pid in out if item < 10)


def test_a_check_shared_between_workers_equals_one_in_a_single_process(tmp_path):
    """Enough (entry, mode) pairs for two simulation workers (parse.PARALLEL_MIN_FILES), with
    cycles and failures: the report is the one a single process makes."""
    from importsafe import api
    from importsafe.static import parse
    pkg = tmp_path / "big"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import m000\n")
    for k in range(300):
        lines = []
        if k % 5 == 0 and k + 1 < 300:
            lines.append(f"from . import m{k + 1:03d}")
        if k % 7 == 3:
            lines.append(f"from .m{k - 1:03d} import VALUE")
        if k % 11 == 0 and k > 10:
            lines.append(f"from .m{k - 10:03d} import VALUE as V2")
        lines.append("VALUE = 1")
        if k % 13 == 0 and k + 3 < 300:
            lines.append(f"from .m{k + 3:03d} import VALUE as V3")
        (pkg / f"m{k:03d}.py").write_text("\n".join(lines) + "\n")
    one = api.check([str(pkg)], jobs=1)
    two = api.check([str(pkg)], jobs=2)
    assert len(one.results) >= parse.PARALLEL_MIN_FILES
    assert {r.outcome for r in one.results} >= {"ok", "error"}
    assert two.results == one.results and two.diagnostics == one.diagnostics


def test_a_check_parsed_in_two_processes_equals_one_parsed_in_one(tmp_path):
    """Enough files for the parse stage's child (parse.PARALLEL_MIN_FILES), among them one
    that does not parse, one with a bad coding cookie and one that cannot be read (unless
    this runs as root): the facts its batches bring, problems included, give the report one
    process makes."""
    from importsafe import api
    from importsafe.static import parse
    pkg = tmp_path / "wide"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from . import m000\n")
    count = parse.PARALLEL_MIN_FILES + 50
    for k in range(count):
        lines = [f"from . import m{(k * 7 + 3) % count:03d}" if k % 9 == 0 else "import os",
                 f"from .m{(k + 1) % count:03d} import *" if k % 11 == 5 else "X = 1",
                 "VALUE = 2"]
        (pkg / f"m{k:03d}.py").write_text("\n".join(lines) + "\n")
    (pkg / "m010.py").write_text("def broken(:\n")
    (pkg / "m020.py").write_bytes(b"# -*- coding: nonsense -*-\nX = 1\n")
    unreadable = pkg / "m030.py"
    unreadable.chmod(0)
    try:
        one = api.check([str(pkg)], jobs=1)
        two = api.check([str(pkg)], jobs=2)
    finally:
        unreadable.chmod(0o644)
    assert two.results == one.results and two.diagnostics == one.diagnostics
    assert len(one.results) > 2 * parse.PARALLEL_MIN_FILES
    assert "IS001" in {d.code for d in one.diagnostics}


def fail_here_each(items):
    if os.getpid() == PARENT:
        raise ValueError("this process's share failed")
    time.sleep(5)  # a child still at work: killed, not waited for
    yield from tag_each(items)


PARENT = os.getpid()


def test_a_failure_here_stops_and_reaps_the_children():
    import pytest
    started = time.perf_counter()
    with pytest.raises(ValueError):
        map_streamed(fail_here_each, list(range(40)), 3)
    assert time.perf_counter() - started < 4
    with pytest.raises(ChildProcessError):  # no child left, not even a zombie
        os.waitpid(-1, os.WNOHANG)
